//! The ruleset contract, by concern: who a ruleset is and its rules ([`Ruleset`]), what its
//! board shows ([`BoardView`]) and what the scenario editor offers of it ([`Editing`]); the
//! registry that holds every ruleset of an app behind one type ([`Rulesets`] of
//! [`AnyRuleset`], `erased`), and the fight's record kept once for every ruleset over
//! type-erased intents (saves, undo, redo, rewind: [`Record`], `record`). Sessions, saves, the command line and the
//! board go through here and never name a ruleset; `plugins/README.md` says how to add one.

use core::fmt::Debug;
use std::sync::Arc;

use bevy_app::App;
use bevy_ecs::prelude::*;
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::board::{
    AllocationAsk, CardView, Choice, CounterLook, OrderView, Privacy, QuestionView, Scenery, SecretView,
    SheetRow, Space, TokenView,
};
use crate::ids::{CombatantId, LocationId, SideId};
use crate::intent::Verdict;
use crate::phase::{Phase, RulesStep, RulesetSystems, TableSystems};
use crate::scenario::ScenarioError;

mod erased;
mod record;

pub use erased::{AnyBoardView, AnyRuleset, Entry};
pub use record::{ReadSave, Record, SaveHeader, open_record};

/// What a ruleset's clock counts, and how long a fight may last when nobody says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// One step of it, e.g. "round" or "tick".
    pub unit: &'static str,
    /// Several, e.g. "rounds".
    pub units: &'static str,
    /// The fight's limit in this clock when none is given.
    pub default_limit: u32,
}

/// What generic code needs to know of a parsed scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioFacts {
    /// Its name.
    pub name: String,
    /// Its own seed.
    pub seed: u64,
    /// Its combatants' ids, in scenario order.
    pub combatants: Vec<CombatantId>,
    /// Its locations' ids, in scenario order.
    pub locations: Vec<LocationId>,
    /// Its sides' ids, in scenario order.
    pub sides: Vec<SideId>,
    /// Its players' seats' ids, in scenario order.
    pub seats: Vec<crate::ids::SeatId>,
}

/// How and why the fight ended: the ruleset inserts it when its fight is over.
#[derive(Resource, Clone, Debug, PartialEq, Eq)]
pub struct FightResult {
    /// The side left standing, if exactly one.
    pub winner: Option<SideId>,
    /// The clock when it ended (rounds played, or the tick).
    pub clock: u32,
    /// Why it ended.
    pub reason: String,
}

/// A combat rule system: who it is and its rules. A ruleset is a rules crate under `plugins/`
/// with one type implementing this, [`BoardView`] and [`Editing`], registered once
/// (`app.add_ruleset::<R>()`, and in the client's list).
pub trait Ruleset: Sized + Send + Sync + 'static {
    /// The id scenarios and saves name, e.g. `fiend_wake`.
    const ID: &'static str;
    /// Its name for people.
    const NAME: &'static str;
    /// What its clock counts.
    const CLOCK: Clock;
    /// How its battlefield is laid out.
    const SPACE: Space;
    /// Its counter kinds, and how each is drawn.
    const COUNTERS: &'static [CounterLook] = &[];

    /// A parsed, checked scenario; its serde form is the scenario file's (saving it writes
    /// the file again, [`crate::scenario::to_ron`]).
    type Scenario: Serialize + Clone + crate::edit::EditScenario + Send + Sync + 'static;
    /// Every decision, as a typed intent (saved by its serde form: keep variant names).
    type Intent: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync + 'static;
    /// Its phases.
    type Phase: Phase;

    /// Adds the rules: resources and systems, the phase chain in [`RulesetSystems`]`(ID)`.
    fn build(app: &mut App);

    /// Parses and checks scenario text; every problem is named.
    fn parse(text: &str) -> Result<Self::Scenario, ScenarioError>;

    /// What generic code needs of a scenario.
    fn facts(scenario: &Self::Scenario) -> ScenarioFacts;

    /// Spawns the scenario onto a cleared table (the core has spawned nothing yet): the
    /// core's objects (`Scenario::spawn_core`), the ruleset's components and resources, the
    /// first phase. The fight ends at `limit` in the ruleset's clock.
    fn spawn(world: &mut World, scenario: &Self::Scenario, seed: u64, limit: u32);

    /// Resets the ruleset's own resources before another scenario is spawned.
    fn clear(_world: &mut World) {}

    /// Leaves nothing in play once the phase is set to the over state: another ruleset's
    /// table is open and this one's systems must stay idle.
    fn park(_world: &mut World) {}

    /// The combatants the rules wait on now.
    fn awaiting(world: &World) -> Vec<Entity>;

    /// Whether the rules would accept `intent` from `e` now, changing nothing.
    fn validate(world: &World, e: Entity, intent: &Self::Intent) -> Verdict;

    /// The decisions the board offers `e` now (empty when the rules do not wait on `e`),
    /// each with its verdict: the accepted ones become buttons, the refused ones say why.
    fn choices(world: &World, e: Entity) -> Vec<Choice<Self::Intent>>;

    /// The clock for people, e.g. "Round 3" or "Tick 12 (6.0 s)".
    fn clock_title(clock: u32) -> String {
        format!("{} {clock}", crate::board::capital(Self::CLOCK.unit))
    }
}

/// What a ruleset's board shows: the functions fill the core's board model ([`crate::board`]);
/// their defaults suit a ruleset without that part; only [`BoardView::PRIVACY`] is declared
/// by every ruleset.
pub trait BoardView: Ruleset {
    /// Who may see its sheets, sealed choices, concealed combatants and allocations: every
    /// ruleset declares it, and every seat's view ([`crate::seat`]) follows it.
    const PRIVACY: Privacy;

    /// What a token shows besides its name.
    fn token(_world: &World, _e: Entity) -> TokenView {
        TokenView::default()
    }

    /// What a location's card shows besides its name and accessibility.
    fn card(_world: &World, _place: Entity) -> CardView {
        CardView::default()
    }

    /// What `e` entering `place` would be, in a few words ("enter: 2 TP"), or that it may
    /// not ("no entry"): the badge a card shows while `e` is dragged. By default, the
    /// accessibility graph decides.
    fn entry(world: &World, e: Entity, place: Entity) -> Result<String, String> {
        let from = crate::location::place_of(world, e).ok_or_else(|| "not on the board".to_owned())?;
        match crate::location::why_not_enter(world, from, place) {
            None => Ok("enter".to_owned()),
            Some(_) => Err("no entry".to_owned()),
        }
    }

    /// The sheet's lines for `e` (name, side, status and controller are the board's).
    fn sheet(_world: &World, _e: Entity) -> Vec<SheetRow> {
        Vec::new()
    }

    /// The order strip, when there is one to show. What the table's screen may see: a
    /// ruleset with a secret order keeps it to itself until it is public.
    fn order(_world: &World) -> Option<OrderView> {
        None
    }

    /// Whose turn it is, for the table's screen (public: a turn being played).
    fn acting(_world: &World) -> Vec<Entity> {
        Vec::new()
    }

    /// The secret choice being made, if one is.
    fn secret(_world: &World) -> Option<SecretView> {
        None
    }

    /// What the rules ask now besides the turn being played (a reaction, a bid, a tie to
    /// settle), for the table's top line. None: the turn (or nothing) is what they wait on.
    fn question(_world: &World) -> Option<QuestionView> {
        None
    }

    /// A secret choice once revealed (one of a [`LogEvent::Revealed`](crate::log::LogEvent)'s
    /// choices, as the log holds it), in a few words for the table's top line: "3 TP", "Slow",
    /// "attack Tomas". None: the table is told only that the choices were revealed.
    fn revealed(_world: &World, _choice: &serde_json::Value) -> Option<String> {
        None
    }

    /// Scenery of a free-position board (the board asks every frame and redraws it when it
    /// changes: traps sprung, hazards grown).
    fn scenery(_world: &World) -> Vec<Scenery> {
        Vec::new()
    }

    /// The counters someone is allocating among targets now, if anyone is.
    fn allocation(_world: &World) -> Option<AllocationAsk> {
        None
    }

    /// The intent that sends an allocation made on the board.
    fn allocate(_world: &World, _who: Entity, _given: &[(CombatantId, u32)]) -> Option<Self::Intent> {
        None
    }
}

/// What the scenario editor and `fray new` offer of a ruleset.
pub trait Editing: Ruleset {
    /// A small valid scenario a new one starts from (`fray new`): two sides, a combatant
    /// each, the ruleset's board in a few lines, comments saying what to edit.
    const TEMPLATE: &'static str;
    /// The properties its locations may have, as the scenario editor offers them.
    const LOCATION_PROPERTIES: &'static [crate::edit::PropertyChoice] = &[];
}

/// A ruleset whole, as registration takes it: its rules, its board's view and its editing.
pub trait Playable: BoardView + Editing {}

impl<R: BoardView + Editing> Playable for R {}

/// The phase track of the table now, for people.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PhaseView {
    /// The current phase's log name.
    pub name: &'static str,
    /// Its title.
    pub title: &'static str,
    /// The steps of the track it belongs to, by title.
    pub track: Vec<&'static str>,
    /// Which step of the track is current (none once the fight is over).
    pub at: Option<usize>,
    /// The fight is over.
    pub over: bool,
}

/// Every ruleset of an app (or of the command line), in registration order.
#[derive(Resource, Clone, Default)]
pub struct Rulesets(Vec<Arc<dyn AnyRuleset>>);

impl Rulesets {
    /// With `R` added (once).
    pub fn with<R: Playable>(self) -> Self {
        self.with_any(Arc::new(Entry::<R>::default()))
    }

    /// With a ruleset added (once).
    pub fn with_any(mut self, ruleset: Arc<dyn AnyRuleset>) -> Self {
        if self.get(ruleset.id()).is_none() {
            self.0.push(ruleset);
        }
        self
    }

    /// The ruleset with this id.
    pub fn get(&self, id: &str) -> Option<&Arc<dyn AnyRuleset>> {
        self.0.iter().find(|r| r.id() == id)
    }

    /// Every ruleset, in registration order.
    pub fn iter(&self) -> impl Iterator<Item = &Arc<dyn AnyRuleset>> {
        self.0.iter()
    }

    /// Every registered id, for messages.
    pub fn ids(&self) -> Vec<&'static str> {
        self.0.iter().map(|r| r.id()).collect()
    }
}

/// Registers rulesets on an app.
pub trait AddRuleset {
    /// Adds ruleset `R`: the core if needed, its rules, its records, and its place in the
    /// one ordered rules schedule. Adding it twice adds it once.
    fn add_ruleset<R: Playable>(&mut self) -> &mut Self;

    /// [`AddRuleset::add_ruleset`] for a ruleset behind one type.
    fn add_any_ruleset(&mut self, ruleset: Arc<dyn AnyRuleset>) -> &mut Self;
}

impl AddRuleset for App {
    fn add_ruleset<R: Playable>(&mut self) -> &mut Self {
        self.add_any_ruleset(Arc::new(Entry::<R>::default()))
    }

    fn add_any_ruleset(&mut self, ruleset: Arc<dyn AnyRuleset>) -> &mut Self {
        if !self.is_plugin_added::<crate::FrayCorePlugin>() {
            self.add_plugins(crate::FrayCorePlugin);
        }
        let registered = self.world_mut().get_resource_or_init::<Rulesets>().clone();
        if registered.get(ruleset.id()).is_some() {
            return self;
        }
        let set = RulesetSystems(ruleset.id());
        match registered.0.last() {
            Some(previous) => self.configure_sets(
                RulesStep,
                set.in_set(TableSystems::Rules).after(RulesetSystems(previous.id())),
            ),
            None => self.configure_sets(RulesStep, set.in_set(TableSystems::Rules)),
        };
        self.insert_resource(registered.with_any(ruleset.clone()));
        ruleset.add_to(self);
        self
    }
}

/// A headless table for one battle of ruleset `R` from scenario text: the app that `fray
/// sim` plays, with the fight's session (undo, saves). For a ruleset's own tests and tools.
pub fn table_app<R: Playable>(text: &str, seed: u64, limit: u32, all_ai: bool) -> Result<App, ScenarioError> {
    let scenario = Rulesets::default().with::<R>().parse(text)?;
    Ok(scenario.table_app(seed, limit, all_ai))
}

/// A ruleset's one test of who still fights: its end test asks it of every combatant
/// ([`crate::table::two_sides_fight`]) and `battle_ended` lists those who pass it as the
/// survivors, so the two never disagree. [`crate::table::fights_by_status`] where the status
/// alone decides.
pub type Fights = fn(&World, Entity, crate::table::Status) -> bool;

/// Ends the fight: moves the table to the ruleset's over phase, then logs `battle_ended`, the
/// log's last line (everyone who still `fights`, in table order, as the survivors), and
/// inserts the [`FightResult`]. What the rules do after a fight (durability rolls, XP) is
/// done before.
pub fn end_fight<P: Phase>(
    world: &mut World,
    winner: Option<SideId>,
    clock: u32,
    reason: &str,
    fights: Fights,
) {
    crate::phase::go_to(world, P::OVER);
    log_end(world, winner, clock, reason, fights);
}

/// Logs `battle_ended` and inserts the [`FightResult`] (see [`end_fight`]; the rules halted
/// by the core have no phase to move to).
pub(crate) fn log_end(world: &mut World, winner: Option<SideId>, clock: u32, reason: &str, fights: Fights) {
    let order = world.resource::<crate::table::TableIndex>().order.clone();
    let survivors: Vec<CombatantId> = order
        .into_iter()
        .filter(|&e| fights(world, e, crate::table::status(world, e)))
        .map(|e| crate::table::id(world, e))
        .collect();
    let event = crate::log::LogEvent::BattleEnded {
        winner: winner.clone(),
        clock,
        survivors,
        reason: reason.to_owned(),
    };
    world.resource_mut::<crate::log::GameLog>().push(None, event);
    world.insert_resource(FightResult { winner, clock, reason: reason.to_owned() });
}

/// Builds the rules schedule of `app` with ambiguity detection set to error: every rule
/// system must be ordered against any it conflicts with. For rulesets' tests.
pub fn check_rules_schedule(app: &mut App) -> Result<(), String> {
    use bevy_ecs::schedule::{LogLevel, ScheduleBuildSettings};
    app.edit_schedule(RulesStep, |schedule| {
        schedule.set_build_settings(ScheduleBuildSettings {
            ambiguity_detection: LogLevel::Error,
            ..Default::default()
        });
    });
    app.world_mut()
        .schedule_scope(RulesStep, |world, schedule| schedule.initialize(world).map(|_| ()))
        .map_err(|e| format!("the rules schedule has ambiguities or cycles:\n{e}"))
}
