//! A ruleset behind one type: [`AnyRuleset`] (its identity, rules and editing) and
//! [`AnyBoardView`] (its board), both implemented once for every ruleset by [`Entry`].

use core::any::Any;
use core::marker::PhantomData;
use std::sync::Arc;

use bevy_app::App;
use bevy_ecs::prelude::*;

use super::{Clock, PhaseView, Playable, Ruleset, ScenarioFacts};
use crate::board::{
    AllocationAsk, CardView, Choice, CounterLook, OrderView, Privacy, QuestionView, Scenery, SecretView,
    SheetRow, Space, TokenView,
};
use crate::ids::{CombatantId, LocationId, SeatId};
use crate::intent::{Inbox, IntentRecord, Verdict};
use crate::phase::{CurrentPhase, Phase};
use crate::scenario::ScenarioError;
use crate::session::{IntentHistory, RedoStack, SaveError, SaveFile};

/// A ruleset behind one type: the registry's entries, and what generic code calls. Every
/// method but [`AnyRuleset::add_to`] reads or changes a world whose table this ruleset
/// plays (or, for the rest, is parked on).
pub trait AnyRuleset: Send + Sync + 'static {
    /// The id.
    fn id(&self) -> &'static str;
    /// The name for people.
    fn name(&self) -> &'static str;
    /// What the clock counts.
    fn clock(&self) -> Clock;
    /// The text of a new scenario ([`super::Editing::TEMPLATE`]).
    fn template(&self) -> &'static str;
    /// The clock for people.
    fn clock_title(&self, clock: u32) -> String;
    /// How the battlefield is laid out.
    fn space(&self) -> Space;
    /// The counter kinds and their looks.
    fn counters(&self) -> &'static [CounterLook];
    /// Every phase's log name, in order.
    fn phase_names(&self) -> Vec<&'static str>;
    /// Adds the rules to an app (the core's registry does this once).
    fn add_to(&self, app: &mut App);
    /// Parses scenario text.
    fn parse(&self, text: &str) -> Result<(Arc<dyn Any + Send + Sync>, ScenarioFacts), ScenarioError>;
    /// A scenario this ruleset parsed, written as scenario text again.
    fn write(&self, scenario: &(dyn Any + Send + Sync)) -> Result<String, String>;
    /// The properties its locations may have.
    fn location_properties(&self) -> &'static [crate::edit::PropertyChoice];
    /// A location's properties in a parsed scenario, each as the file writes it.
    fn properties(&self, scenario: &(dyn Any + Send + Sync), id: &LocationId) -> Vec<String>;
    /// A parsed scenario's combatants and mounts, as templates.
    fn pieces(&self, scenario: &(dyn Any + Send + Sync)) -> Vec<crate::edit::Piece>;
    /// A parsed scenario's round scenery (covers, lights…), and the kinds it may hold.
    fn round_scenery(
        &self,
        scenario: &(dyn Any + Send + Sync),
    ) -> (Vec<crate::edit::RoundScenery>, Vec<(&'static str, &'static str)>);
    /// A scenario this ruleset parsed, edited and written as scenario text (not yet checked:
    /// read it back with [`AnyRuleset::parse`]).
    fn edit(
        &self,
        scenario: &(dyn Any + Send + Sync),
        edit: &crate::edit::ScenarioEdit,
    ) -> Result<String, String>;
    /// Clears the table and spawns a scenario this ruleset parsed, its record started
    /// (`all_ai` first hands every combatant to the AI).
    fn spawn(
        &self,
        world: &mut World,
        scenario: &(dyn Any + Send + Sync),
        seed: u64,
        limit: u32,
        all_ai: bool,
    );
    /// Sets the rules idle (another ruleset's table is open).
    fn park(&self, world: &mut World);
    /// The phase track now.
    fn phase(&self, world: &World) -> PhaseView;
    /// Whether the fight is over.
    fn over(&self, world: &World) -> bool;
    /// Who the rules wait on.
    fn awaiting(&self, world: &World) -> Vec<Entity>;
    /// The board's choices for `e`.
    fn choices(&self, world: &World, e: Entity) -> Vec<Choice<IntentRecord>>;
    /// Whether the rules would accept this intent from `e` now.
    fn validate(&self, world: &World, e: Entity, intent: &IntentRecord) -> Verdict;
    /// Queues an intent of this ruleset for the rules (ignored if it is another's).
    fn submit(&self, world: &mut World, actor: CombatantId, intent: &IntentRecord);
    /// Drops the intents still queued for the rules; returns how many (a replay checks that
    /// the rules took each one).
    fn drop_queued(&self, world: &mut World) -> usize;
    /// A fight's record written as a save's text, in this ruleset's intent type.
    fn write_save(&self, file: SaveFile<IntentRecord>) -> Result<String, String>;
    /// A save's text read in this ruleset's intent type (after its header), the ids it
    /// names checked against the scenario's combatants and seats.
    fn read_save(
        &self,
        text: &str,
        combatants: &[CombatantId],
        seats: &[SeatId],
    ) -> Result<SaveFile<IntentRecord>, SaveError>;
    /// What its board shows.
    fn view(&self) -> &dyn AnyBoardView;
}

/// What a ruleset's board shows ([`super::BoardView`]), behind one type.
pub trait AnyBoardView: Send + Sync + 'static {
    /// Who may see what.
    fn privacy(&self) -> Privacy;
    /// A token's view.
    fn token(&self, world: &World, e: Entity) -> TokenView;
    /// A card's view.
    fn card(&self, world: &World, place: Entity) -> CardView;
    /// The badge of a card while `e` is dragged.
    fn entry(&self, world: &World, e: Entity, place: Entity) -> Result<String, String>;
    /// A sheet's lines.
    fn sheet(&self, world: &World, e: Entity) -> Vec<SheetRow>;
    /// The order strip.
    fn order(&self, world: &World) -> Option<OrderView>;
    /// Whose turn it is.
    fn acting(&self, world: &World) -> Vec<Entity>;
    /// The secret choice being made.
    fn secret(&self, world: &World) -> Option<SecretView>;
    /// What the rules ask besides the turn.
    fn question(&self, world: &World) -> Option<QuestionView>;
    /// A revealed secret choice in words.
    fn revealed(&self, world: &World, choice: &serde_json::Value) -> Option<String>;
    /// The scenery.
    fn scenery(&self, world: &World) -> Vec<Scenery>;
    /// The allocation being made.
    fn allocation(&self, world: &World) -> Option<AllocationAsk>;
    /// The intent for an allocation.
    fn allocate(&self, world: &World, who: Entity, given: &[(CombatantId, u32)]) -> Option<IntentRecord>;
}

/// The [`AnyRuleset`] of a [`Ruleset`].
pub struct Entry<R>(PhantomData<fn() -> R>);

impl<R> Default for Entry<R> {
    fn default() -> Self {
        Self(PhantomData)
    }
}

fn downcast<R: Ruleset>(intent: &IntentRecord) -> Option<&R::Intent> {
    intent.downcast::<R::Intent>()
}

impl<R: Playable> AnyRuleset for Entry<R> {
    fn id(&self) -> &'static str {
        R::ID
    }

    fn name(&self) -> &'static str {
        R::NAME
    }

    fn clock(&self) -> Clock {
        R::CLOCK
    }

    fn template(&self) -> &'static str {
        R::TEMPLATE
    }

    fn clock_title(&self, clock: u32) -> String {
        R::clock_title(clock)
    }

    fn space(&self) -> Space {
        R::SPACE
    }

    fn counters(&self) -> &'static [CounterLook] {
        R::COUNTERS
    }

    fn phase_names(&self) -> Vec<&'static str> {
        R::Phase::ALL.iter().map(|p| p.name()).collect()
    }

    fn add_to(&self, app: &mut App) {
        app.init_resource::<Inbox<R::Intent>>()
            .init_resource::<IntentHistory>()
            .init_resource::<RedoStack>()
            .insert_resource(CurrentPhase::<R::Phase>::over());
        R::build(app);
    }

    fn parse(&self, text: &str) -> Result<(Arc<dyn Any + Send + Sync>, ScenarioFacts), ScenarioError> {
        let scenario = R::parse(text)?;
        let facts = R::facts(&scenario);
        Ok((Arc::new(scenario), facts))
    }

    fn write(&self, scenario: &(dyn Any + Send + Sync)) -> Result<String, String> {
        let scenario =
            scenario.downcast_ref::<R::Scenario>().ok_or_else(|| format!("not a {} scenario", R::NAME))?;
        crate::scenario::to_ron(scenario)
    }

    fn location_properties(&self) -> &'static [crate::edit::PropertyChoice] {
        R::LOCATION_PROPERTIES
    }

    fn properties(&self, scenario: &(dyn Any + Send + Sync), id: &LocationId) -> Vec<String> {
        use crate::edit::EditScenario;
        scenario.downcast_ref::<R::Scenario>().map(|s| s.properties(id)).unwrap_or_default()
    }

    fn pieces(&self, scenario: &(dyn Any + Send + Sync)) -> Vec<crate::edit::Piece> {
        use crate::edit::EditScenario;
        scenario.downcast_ref::<R::Scenario>().map(|s| s.pieces()).unwrap_or_default()
    }

    fn round_scenery(
        &self,
        scenario: &(dyn Any + Send + Sync),
    ) -> (Vec<crate::edit::RoundScenery>, Vec<(&'static str, &'static str)>) {
        use crate::edit::EditScenario;
        scenario
            .downcast_ref::<R::Scenario>()
            .map(|s| (s.round_scenery(), s.scenery_kinds()))
            .unwrap_or_default()
    }

    fn edit(
        &self,
        scenario: &(dyn Any + Send + Sync),
        edit: &crate::edit::ScenarioEdit,
    ) -> Result<String, String> {
        use crate::edit::EditScenario;
        let mut scenario = scenario
            .downcast_ref::<R::Scenario>()
            .ok_or_else(|| format!("not a {} scenario", R::NAME))?
            .clone();
        scenario.apply(edit)?;
        crate::scenario::to_ron(&scenario)
    }

    fn spawn(
        &self,
        world: &mut World,
        scenario: &(dyn Any + Send + Sync),
        seed: u64,
        limit: u32,
        all_ai: bool,
    ) {
        let Some(scenario) = scenario.downcast_ref::<R::Scenario>() else {
            return;
        };
        crate::scenario::clear_table(world);
        world.insert_resource(Inbox::<R::Intent>::default());
        R::clear(world);
        R::spawn(world, scenario, seed, limit);
        if all_ai {
            let everyone: Vec<_> = crate::session::controllers(world)
                .into_iter()
                .map(|(id, _)| (id, crate::table::Controller::Ai))
                .collect();
            crate::session::set_controllers(world, &everyone);
        }
        let history = IntentHistory::started(world);
        world.insert_resource(history);
    }

    fn park(&self, world: &mut World) {
        if world.contains_resource::<CurrentPhase<R::Phase>>() {
            world.insert_resource(CurrentPhase::<R::Phase>::over());
            R::park(world);
        }
    }

    fn phase(&self, world: &World) -> PhaseView {
        let now: R::Phase = crate::phase::current(world);
        let track = now.track();
        PhaseView {
            name: now.name(),
            title: now.title(),
            at: track.iter().position(|&p| p == now),
            track: track.into_iter().map(Phase::title).collect(),
            over: now == R::Phase::OVER,
        }
    }

    fn over(&self, world: &World) -> bool {
        crate::phase::current::<R::Phase>(world) == R::Phase::OVER
            || world.contains_resource::<crate::phase::RulesHalted>()
    }

    fn awaiting(&self, world: &World) -> Vec<Entity> {
        R::awaiting(world)
    }

    fn choices(&self, world: &World, e: Entity) -> Vec<Choice<IntentRecord>> {
        R::choices(world, e).into_iter().map(|c| c.map(IntentRecord::new)).collect()
    }

    fn validate(&self, world: &World, e: Entity, intent: &IntentRecord) -> Verdict {
        match downcast::<R>(intent) {
            Some(intent) => R::validate(world, e, intent),
            None => Err(crate::intent::Rejection::new("that is not a decision of this ruleset")),
        }
    }

    fn submit(&self, world: &mut World, actor: CombatantId, intent: &IntentRecord) {
        if let Some(intent) = downcast::<R>(intent).cloned()
            && let Some(mut inbox) = world.get_resource_mut::<Inbox<R::Intent>>()
        {
            inbox.submit(actor, intent);
        }
    }

    fn drop_queued(&self, world: &mut World) -> usize {
        world
            .get_resource_mut::<Inbox<R::Intent>>()
            .map_or(0, |mut inbox| core::mem::take(&mut inbox.0).len())
    }

    fn write_save(&self, file: SaveFile<IntentRecord>) -> Result<String, String> {
        let typed = file
            .try_map(|intent| downcast::<R>(&intent).cloned().ok_or(()))
            .map_err(|(i, ())| format!("intent #{} is not a decision of {}", i + 1, R::NAME))?;
        crate::session::save_text(&typed)
    }

    fn read_save(
        &self,
        text: &str,
        combatants: &[CombatantId],
        seats: &[SeatId],
    ) -> Result<SaveFile<IntentRecord>, SaveError> {
        Ok(crate::session::parse_save::<R::Intent>(text, combatants, seats)?.map(IntentRecord::new))
    }

    fn view(&self) -> &dyn AnyBoardView {
        self
    }
}

impl<R: Playable> AnyBoardView for Entry<R> {
    fn privacy(&self) -> Privacy {
        R::PRIVACY
    }

    fn token(&self, world: &World, e: Entity) -> TokenView {
        R::token(world, e)
    }

    fn card(&self, world: &World, place: Entity) -> CardView {
        R::card(world, place)
    }

    fn entry(&self, world: &World, e: Entity, place: Entity) -> Result<String, String> {
        R::entry(world, e, place)
    }

    fn sheet(&self, world: &World, e: Entity) -> Vec<SheetRow> {
        R::sheet(world, e)
    }

    fn order(&self, world: &World) -> Option<OrderView> {
        R::order(world)
    }

    fn acting(&self, world: &World) -> Vec<Entity> {
        R::acting(world)
    }

    fn secret(&self, world: &World) -> Option<SecretView> {
        R::secret(world)
    }

    fn question(&self, world: &World) -> Option<QuestionView> {
        R::question(world)
    }

    fn revealed(&self, world: &World, choice: &serde_json::Value) -> Option<String> {
        R::revealed(world, choice)
    }

    fn scenery(&self, world: &World) -> Vec<Scenery> {
        R::scenery(world)
    }

    fn allocation(&self, world: &World) -> Option<AllocationAsk> {
        R::allocation(world)
    }

    fn allocate(&self, world: &World, who: Entity, given: &[(CombatantId, u32)]) -> Option<IntentRecord> {
        R::allocate(world, who, given).map(IntentRecord::new)
    }
}
