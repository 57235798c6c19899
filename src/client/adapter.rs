//! A ruleset's own widgets on the generic board: what the board cannot draw from the core's
//! board model (what a dropped token means, a dialog above the decider's choices, a
//! measuring aid). A ruleset registers at most one adapter with its rules
//! (`crate::rulesets`); every method has a default, and a ruleset with nothing of its own
//! needs none.

use std::sync::Arc;

use bevy::prelude::*;
use bevy_egui::egui;
use fray_core::board::Choice;
use fray_core::fight::Session;
use fray_core::ids::CombatantId;
use fray_core::intent::IntentRecord;
use fray_core::ruleset::{AnyRuleset, Entry, Playable, Ruleset};

/// Where a dragged token was dropped.
#[derive(Clone, Debug, PartialEq)]
pub struct DropPoint {
    /// The point, in the ruleset's unit.
    pub at: [f32; 2],
    /// The location whose card is under it, if any.
    pub card: Option<Entity>,
    /// The mount whose token is under it, if any.
    pub mount: Option<Entity>,
}

/// What a drop does.
#[derive(Clone, Debug, PartialEq)]
pub enum DropAnswer<I> {
    /// Sends this intent (a refusal is shown on the board and the token slides back).
    Send(I),
    /// Moves the token there with no rule effect (a token in no location of a card board).
    Place,
    /// Nothing: the token slides back.
    Nothing,
}

impl<I> DropAnswer<I> {
    fn map<J>(self, f: impl FnOnce(I) -> J) -> DropAnswer<J> {
        match self {
            DropAnswer::Send(i) => DropAnswer::Send(f(i)),
            DropAnswer::Place => DropAnswer::Place,
            DropAnswer::Nothing => DropAnswer::Nothing,
        }
    }
}

/// What an adapter's widget asks for, carried out once the panels are drawn.
pub enum BoardAsk {
    /// Send an intent for a combatant.
    Submit(CombatantId, IntentRecord),
    /// Change the adapter's own state.
    Apply(Box<dyn FnOnce(&mut World) + Send + Sync>),
}

/// A ruleset's board adapter. Its own systems must run only while its ruleset is on the
/// table: add them with `.run_if(on_table(Self::Rules::ID))`.
pub trait BoardAdapter: Send + Sync + 'static {
    /// The ruleset it draws for.
    type Rules: Playable;

    /// Adds its own resources and systems.
    fn plugin(_app: &mut App) {}

    /// The intent a token of `e` dropped at `drop` sends.
    fn dropped(
        _world: &World,
        _e: Entity,
        _drop: &DropPoint,
    ) -> DropAnswer<<Self::Rules as Ruleset>::Intent> {
        DropAnswer::Nothing
    }

    /// Drawn above the choices of `e`, the person deciding.
    fn decision(_ui: &mut egui::Ui, _world: &World, _e: Entity, _asks: &mut Vec<BoardAsk>) {}

    /// Whether a choice gets a button.
    fn keep(_world: &World, _choice: &Choice<<Self::Rules as Ruleset>::Intent>) -> bool {
        true
    }

    /// Words the ruler adds while `e` is dragged `distance` units away, to `to` (in the unit).
    fn ruler(_world: &World, _e: Entity, _distance: f32, _to: [f32; 2]) -> Option<String> {
        None
    }
}

/// A board adapter behind one type.
pub trait AnyBoard: Send + Sync + 'static {
    /// Adds its systems.
    fn plugin(&self, app: &mut App);
    /// See [`BoardAdapter::dropped`].
    fn dropped(&self, world: &World, e: Entity, drop: &DropPoint) -> DropAnswer<IntentRecord>;
    /// See [`BoardAdapter::decision`].
    fn decision(&self, ui: &mut egui::Ui, world: &World, e: Entity, asks: &mut Vec<BoardAsk>);
    /// See [`BoardAdapter::keep`].
    fn keep(&self, world: &World, choice: &Choice<IntentRecord>) -> bool;
    /// See [`BoardAdapter::ruler`].
    fn ruler(&self, world: &World, e: Entity, distance: f32, to: [f32; 2]) -> Option<String>;
}

struct Adapter<B>(core::marker::PhantomData<fn() -> B>);

impl<B: BoardAdapter> AnyBoard for Adapter<B> {
    fn plugin(&self, app: &mut App) {
        B::plugin(app);
    }

    fn dropped(&self, world: &World, e: Entity, drop: &DropPoint) -> DropAnswer<IntentRecord> {
        B::dropped(world, e, drop).map(IntentRecord::new)
    }

    fn decision(&self, ui: &mut egui::Ui, world: &World, e: Entity, asks: &mut Vec<BoardAsk>) {
        B::decision(ui, world, e, asks);
    }

    fn keep(&self, world: &World, choice: &Choice<IntentRecord>) -> bool {
        let Some(intent) = choice.intent.downcast::<<B::Rules as Ruleset>::Intent>() else {
            return true;
        };
        B::keep(world, &choice.clone().map(|_| intent.clone()))
    }

    fn ruler(&self, world: &World, e: Entity, distance: f32, to: [f32; 2]) -> Option<String> {
        B::ruler(world, e, distance, to)
    }
}

/// One ruleset as the client knows it: its rules, and its board adapter if it has one.
#[derive(Clone)]
pub struct Registration {
    /// The rules.
    pub rules: Arc<dyn AnyRuleset>,
    /// The board adapter.
    pub board: Option<Arc<dyn AnyBoard>>,
}

impl Registration {
    /// Ruleset `R`, with no widgets of its own.
    pub fn rules<R: Playable>() -> Self {
        Self { rules: Arc::new(Entry::<R>::default()), board: None }
    }

    /// The ruleset of board adapter `B`, with `B`.
    pub fn with_board<B: BoardAdapter>() -> Self {
        let board: Arc<dyn AnyBoard> = Arc::new(Adapter::<B>(core::marker::PhantomData));
        Self { rules: Arc::new(Entry::<B::Rules>::default()), board: Some(board) }
    }
}

/// Every board adapter of the app, by ruleset id.
#[derive(Resource, Clone, Default)]
pub struct Boards(pub Vec<(&'static str, Arc<dyn AnyBoard>)>);

/// The adapter of the ruleset on the table, if it has one.
pub fn board(world: &World) -> Option<Arc<dyn AnyBoard>> {
    let id = world.get_resource::<Session>()?.ruleset().id();
    world.get_resource::<Boards>()?.0.iter().find(|(r, _)| *r == id).map(|(_, b)| b.clone())
}

/// Run condition: ruleset `id` is on the table.
pub fn on_table(id: &'static str) -> impl Fn(Option<Res<Session>>) -> bool + Clone {
    move |session: Option<Res<Session>>| session.is_some_and(|s| s.ruleset().id() == id)
}
