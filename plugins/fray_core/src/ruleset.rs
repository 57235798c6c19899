//! The ruleset contract: what a ruleset gives the table ([`Ruleset`]), and the registry that
//! holds every ruleset of an app behind one type ([`Rulesets`] of [`AnyRuleset`]). Sessions,
//! saves, the command line and the board go through here and never name a ruleset;
//! `plugins/README.md` says how to add one.

use core::any::Any;
use core::fmt::Debug;
use core::marker::PhantomData;
use std::sync::Arc;

use bevy_app::App;
use bevy_ecs::prelude::*;
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::board::{
    AllocationAsk, CardView, Choice, CounterLook, OrderView, Scenery, SecretView, SheetRow, Space, TokenView,
};
use crate::ids::{CombatantId, LocationId, SideId};
use crate::intent::{Inbox, IntentRecord, Verdict};
use crate::phase::{CurrentPhase, Phase, RulesStep, RulesetSystems, TableSystems};
use crate::scenario::ScenarioError;
use crate::session::{IntentHistory, RedoStack};

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

/// A combat rule system. A ruleset is a rules crate under `plugins/` with one type
/// implementing this, registered once (`app.add_ruleset::<R>()`, and in the client's list).
/// The view functions fill the core's board model ([`crate::board`]); their defaults suit a
/// ruleset without that part.
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
    /// A small valid scenario a new one starts from (`fray new`): two sides, a combatant
    /// each, the ruleset's board in a few lines, comments saying what to edit.
    const TEMPLATE: &'static str;
    /// The properties its locations may have, as the scenario editor offers them.
    const LOCATION_PROPERTIES: &'static [crate::edit::PropertyChoice] = &[];

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
    /// The text of a new scenario ([`Ruleset::TEMPLATE`]).
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
    /// The scenery.
    fn scenery(&self, world: &World) -> Vec<Scenery>;
    /// The allocation being made.
    fn allocation(&self, world: &World) -> Option<AllocationAsk>;
    /// The intent for an allocation.
    fn allocate(&self, world: &World, who: Entity, given: &[(CombatantId, u32)]) -> Option<IntentRecord>;
    /// The fight's record: (intents recorded, accepted ones, revision), if one is kept.
    fn record(&self, world: &World) -> Option<(usize, usize, u64)>;
    /// How many undone steps can be redone.
    fn redo_len(&self, world: &World) -> usize;
    /// Drops what could be redone (a new fight starts).
    fn forget_redo(&self, world: &mut World);
    /// The record as a save's parts.
    fn save(&self, world: &World, header: SaveHeader) -> Result<String, String>;
    /// Reads a save's intents and controllers (its header and scenario already read).
    fn read_save(&self, text: &str, combatants: &[CombatantId]) -> Result<ReadSave, SaveError>;
    /// Opens a save read by [`AnyRuleset::read_save`] on a freshly spawned table.
    fn open(&self, world: &mut World, save: &ReadSave, rebuild: &dyn Fn(&mut World)) -> OpenReport;
    /// Takes back the last accepted intent; `rebuild` spawns the table afresh.
    fn undo(&self, world: &mut World, rebuild: &dyn Fn(&mut World)) -> Result<String, String>;
    /// Plays the last undone step again.
    fn redo(&self, world: &mut World) -> Result<String, String>;
    /// Back to the start, every step kept to be redone; returns how many.
    fn rewind(&self, world: &mut World, rebuild: &dyn Fn(&mut World)) -> Result<usize, String>;
}

use crate::session::{OpenReport, SaveError};

/// What a save file says besides its record, for [`AnyRuleset::save`].
#[derive(Clone, Debug)]
pub struct SaveHeader {
    /// Where the scenario was read from.
    pub scenario_path: Option<String>,
    /// The scenario's text.
    pub scenario: String,
    /// The seed.
    pub seed: u64,
    /// The fight's limit.
    pub limit: u32,
}

/// A save's record as its ruleset read it.
#[derive(Clone)]
pub struct ReadSave {
    /// The seed.
    pub seed: u64,
    /// The fight's limit.
    pub limit: u32,
    /// Intents recorded.
    pub intents: usize,
    /// Where the scenario was read from, as the save says.
    pub scenario_path: Option<String>,
    record: Arc<dyn Any + Send + Sync>,
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

fn describe<I: Debug>(r: &crate::session::Recorded<I>) -> String {
    format!("{}: {:?}", r.actor, r.intent)
}

/// Spawns the table afresh and replays the record's first `keep` entries (with the controller
/// changes made by then), the controllers of now kept: undo and rewind.
fn replay_first<I: Clone + Debug + Send + Sync + 'static>(
    world: &mut World,
    rebuild: &dyn Fn(&mut World),
    history: &IntentHistory<I>,
    keep: usize,
) -> Result<(), crate::session::ReplayStop> {
    use crate::session::{controllers, note_controllers, replay, restart, set_controllers};
    let now = controllers(world);
    let changes: Vec<_> = history.controller_changes.iter().filter(|c| c.at <= keep).cloned().collect();
    rebuild(world);
    restart::<I>(world, &history.start);
    let replayed = replay(world, &history.entries[..keep], &changes);
    set_controllers(world, &now);
    note_controllers::<I>(world);
    replayed
}

impl<R: Ruleset> AnyRuleset for Entry<R> {
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
            .init_resource::<IntentHistory<R::Intent>>()
            .init_resource::<RedoStack<R::Intent>>()
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
        let history = IntentHistory::<R::Intent>::started(world);
        world.insert_resource(history);
        world.insert_resource(crate::session::NoteControllers(crate::session::note_controllers::<R::Intent>));
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

    fn scenery(&self, world: &World) -> Vec<Scenery> {
        R::scenery(world)
    }

    fn allocation(&self, world: &World) -> Option<AllocationAsk> {
        R::allocation(world)
    }

    fn allocate(&self, world: &World, who: Entity, given: &[(CombatantId, u32)]) -> Option<IntentRecord> {
        R::allocate(world, who, given).map(IntentRecord::new)
    }

    fn record(&self, world: &World) -> Option<(usize, usize, u64)> {
        let h = world.get_resource::<IntentHistory<R::Intent>>()?;
        Some((h.entries.len(), h.accepted(), h.revision))
    }

    fn redo_len(&self, world: &World) -> usize {
        world.get_resource::<RedoStack<R::Intent>>().map_or(0, |r| r.0.len())
    }

    fn forget_redo(&self, world: &mut World) {
        world.insert_resource(RedoStack::<R::Intent>::default());
    }

    fn save(&self, world: &World, header: SaveHeader) -> Result<String, String> {
        let history = world.get_resource::<IntentHistory<R::Intent>>().ok_or("no fight is open")?;
        let file = crate::session::SaveFile {
            version: crate::session::SAVE_VERSION,
            ruleset: R::ID.to_owned(),
            scenario_path: header.scenario_path,
            scenario: header.scenario,
            seed: header.seed,
            max_rounds: header.limit,
            controllers: history.start.clone(),
            intents: history.entries.clone(),
            controller_changes: history.controller_changes.clone(),
        };
        crate::session::save_text(&file)
    }

    fn read_save(&self, text: &str, combatants: &[CombatantId]) -> Result<ReadSave, SaveError> {
        let file = crate::session::parse_save::<R::Intent>(text, combatants)?;
        Ok(ReadSave {
            seed: file.seed,
            limit: file.max_rounds,
            intents: file.intents.len(),
            scenario_path: file.scenario_path.clone(),
            record: Arc::new(file),
        })
    }

    fn open(&self, world: &mut World, save: &ReadSave, rebuild: &dyn Fn(&mut World)) -> OpenReport {
        let Some(file) = save.record.downcast_ref::<crate::session::SaveFile<R::Intent>>() else {
            return OpenReport { replayed: 0, total: save.intents, stopped: None };
        };
        crate::session::open_record(
            world,
            rebuild,
            &file.controllers,
            &file.intents,
            &file.controller_changes,
        )
    }

    fn undo(&self, world: &mut World, rebuild: &dyn Fn(&mut World)) -> Result<String, String> {
        let history = world.get_resource::<IntentHistory<R::Intent>>().cloned().ok_or("no fight is open")?;
        let (keep, step) = crate::session::split_last_step(&history.entries).ok_or("nothing to undo")?;
        replay_first(world, rebuild, &history, keep)
            .map_err(|stop| format!("undo could not rebuild the fight: {stop}"))?;
        let what = describe(&step[0]);
        world.get_resource_or_init::<RedoStack<R::Intent>>().0.push(step);
        Ok(what)
    }

    fn redo(&self, world: &mut World) -> Result<String, String> {
        use crate::session::{note_controllers, replay};
        let step = world
            .get_resource_mut::<RedoStack<R::Intent>>()
            .and_then(|mut r| r.0.pop())
            .ok_or("nothing to redo")?;
        note_controllers::<R::Intent>(world);
        replay(world, &step, &[]).map_err(|stop| format!("cannot redo: {stop}"))?;
        Ok(describe(&step[0]))
    }

    fn rewind(&self, world: &mut World, rebuild: &dyn Fn(&mut World)) -> Result<usize, String> {
        use crate::session::Recorded;
        let history = world.get_resource::<IntentHistory<R::Intent>>().cloned().ok_or("no fight is open")?;
        let first = history.entries.iter().position(|r| r.accepted).unwrap_or(history.entries.len());
        // Each step: an accepted intent and the refused ones after it.
        let mut steps: Vec<Vec<Recorded<R::Intent>>> = Vec::new();
        for entry in &history.entries[first..] {
            match steps.last_mut() {
                Some(step) if !entry.accepted => step.push(entry.clone()),
                _ => steps.push(vec![entry.clone()]),
            }
        }
        replay_first(world, rebuild, &history, first)
            .map_err(|stop| format!("rewinding could not rebuild the fight: {stop}"))?;
        let mut redo = world.get_resource_or_init::<RedoStack<R::Intent>>();
        redo.0.extend(steps.into_iter().rev());
        Ok(redo.0.len())
    }
}

/// Every ruleset of an app (or of the command line), in registration order.
#[derive(Resource, Clone, Default)]
pub struct Rulesets(Vec<Arc<dyn AnyRuleset>>);

impl Rulesets {
    /// With `R` added (once).
    pub fn with<R: Ruleset>(self) -> Self {
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
    fn add_ruleset<R: Ruleset>(&mut self) -> &mut Self;

    /// [`AddRuleset::add_ruleset`] for a ruleset behind one type.
    fn add_any_ruleset(&mut self, ruleset: Arc<dyn AnyRuleset>) -> &mut Self;
}

impl AddRuleset for App {
    fn add_ruleset<R: Ruleset>(&mut self) -> &mut Self {
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
pub fn table_app<R: Ruleset>(text: &str, seed: u64, limit: u32, all_ai: bool) -> Result<App, ScenarioError> {
    let scenario = Rulesets::default().with::<R>().parse(text)?;
    Ok(scenario.table_app(seed, limit, all_ai))
}

/// Ends the fight: moves the table to the ruleset's over phase, then logs `battle_ended`, the
/// log's last line (everyone still fighting, in table order, as the survivors), and inserts
/// the [`FightResult`]. What the rules do after a fight (durability rolls, XP) is done before.
pub fn end_fight<P: Phase>(world: &mut World, winner: Option<SideId>, clock: u32, reason: &str) {
    crate::phase::go_to(world, P::OVER);
    log_end(world, winner, clock, reason);
}

/// Logs `battle_ended` and inserts the [`FightResult`] (see [`end_fight`]; the rules halted
/// by the core have no phase to move to).
pub(crate) fn log_end(world: &mut World, winner: Option<SideId>, clock: u32, reason: &str) {
    let order = world.resource::<crate::table::TableIndex>().order.clone();
    let survivors: Vec<CombatantId> = order
        .into_iter()
        .filter(|&e| crate::table::can_act(world, e))
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
