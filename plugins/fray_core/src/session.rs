//! Sessions: the record of every decision of a fight, what a save file holds, and replaying
//! a record onto a freshly spawned table.
//!
//! The rules are deterministic given the scenario, the seed and the decisions in order, so a
//! fight is saved as exactly that. Two things besides the intents make a replay exact: the
//! table RNG's position when each intent was submitted (the AI draws from the same RNG while
//! it decides; a replay does not ask the AI, so it sets the position instead), and who
//! controlled each combatant when (the rules ask a person about reactions the AI would
//! decline). Saved data names combatants by their stable ids, never by `Entity`.

use std::collections::BTreeMap;

use bevy_ecs::prelude::*;
use serde::{Deserialize, Serialize};

use crate::ai::AiLevel;
use crate::dice::TableRng;
use crate::ids::{CombatantId, SeatId};
use crate::intent::IntentRecord;
use crate::scenario::{ScenarioError, parse_ron};
use crate::table::{Controller, TableIndex};

/// The save format this build writes: 2 names controllers `Gm`, `Player(seat)` or `Ai`.
pub const SAVE_VERSION: u32 = 2;
/// The save formats this build reads: 1 (controllers `Human` or `Ai`, `Human` read as `Gm`)
/// and 2.
pub const SAVE_VERSIONS_READ: core::ops::RangeInclusive<u32> = 1..=SAVE_VERSION;

/// One submitted intent, as the record keeps it: accepted ones and refused ones alike (a
/// refusal is in the log too).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Recorded<I> {
    /// Who submitted it.
    pub actor: CombatantId,
    /// What.
    pub intent: I,
    /// Whether the rules accepted it.
    pub accepted: bool,
    /// The table RNG's position (in 32-bit words) when it was submitted.
    pub rng: u64,
    /// Why the AI chose it, when it gave a reason (the log shows it; a replay gives it back).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
}

/// A combatant handed to a person or to the AI during the fight.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ControllerChange {
    /// How many intents had been submitted when it happened.
    pub at: usize,
    /// Whose controller changed.
    pub combatant: CombatantId,
    /// The new controller.
    pub controller: Controller,
}

/// Everything decided in the fight on the table, in order, whatever its ruleset: the intents
/// are kept type-erased ([`IntentRecord`]); only a save's text needs the ruleset's own type.
/// The core starts a fresh record whenever a scenario is spawned, and records every intent
/// the rules validate.
#[derive(Resource, Clone, Debug, Default)]
pub struct IntentHistory {
    /// Controllers when the scenario was spawned, in scenario order.
    pub start: Vec<(CombatantId, Controller)>,
    /// Every submitted intent, oldest first.
    pub entries: Vec<Recorded<IntentRecord>>,
    /// Controller changes since the start, oldest first.
    pub controller_changes: Vec<ControllerChange>,
    /// Counts every change to the record, across rebuilds (autosave compares it).
    pub revision: u64,
    known: BTreeMap<CombatantId, Controller>,
}

impl IntentHistory {
    /// A fresh record for the table just spawned: its controllers are the start. The
    /// revision carries on from the record it replaces.
    pub fn started(world: &World) -> Self {
        let start = controllers(world);
        let revision = world.get_resource::<Self>().map_or(0, |h| h.revision + 1);
        Self {
            known: start.iter().cloned().collect(),
            start,
            entries: Vec::new(),
            controller_changes: Vec::new(),
            revision,
        }
    }

    /// How many submitted intents were accepted.
    pub fn accepted(&self) -> usize {
        self.entries.iter().filter(|r| r.accepted).count()
    }

    /// Notes controllers that changed since the last look, at the current position.
    pub fn note(&mut self, now: Vec<(CombatantId, Controller)>) {
        for (id, controller) in now {
            if self.known.get(&id) != Some(&controller) {
                self.known.insert(id.clone(), controller.clone());
                self.controller_changes.push(ControllerChange {
                    at: self.entries.len(),
                    combatant: id,
                    controller,
                });
                self.revision += 1;
            }
        }
    }
}

/// The controllers of the table's combatants, in scenario order.
pub fn controllers(world: &World) -> Vec<(CombatantId, Controller)> {
    let Some(index) = world.get_resource::<TableIndex>() else {
        return Vec::new();
    };
    index
        .order
        .iter()
        .filter_map(|&e| {
            let c = world.get::<crate::table::Combatant>(e)?;
            Some((c.id.clone(), world.get::<Controller>(e).cloned().unwrap_or_default()))
        })
        .collect()
}

/// The AI levels of the table's combatants, in scenario order.
pub fn ai_levels(world: &World) -> Vec<(CombatantId, AiLevel)> {
    let Some(index) = world.get_resource::<TableIndex>() else {
        return Vec::new();
    };
    let level =
        |e: Entity| Some((world.get::<crate::table::Combatant>(e)?.id.clone(), crate::ai::level(world, e)));
    index.order.iter().filter_map(|&e| level(e)).collect()
}

/// Sets the AI levels given (unknown ids are skipped).
pub fn set_ai_levels(world: &mut World, wanted: &[(CombatantId, AiLevel)]) {
    for (id, level) in wanted {
        if let Some(e) = world.resource::<TableIndex>().combatant(id) {
            world.entity_mut(e).insert(*level);
        }
    }
}

/// Hands combatants to the given controllers (unknown ids are skipped).
pub fn set_controllers(world: &mut World, wanted: &[(CombatantId, Controller)]) {
    for (id, controller) in wanted {
        let e = world.resource::<TableIndex>().combatant(id);
        if let Some(e) = e {
            world.entity_mut(e).insert(controller.clone());
        }
    }
}

/// Records controller changes made since the last look, at the current position. The rules
/// driver calls it before each run of the rules, so that every change lands at its true
/// place in the record.
pub fn note_controllers(world: &mut World) {
    let now = controllers(world);
    if let Some(mut history) = world.get_resource_mut::<IntentHistory>() {
        history.note(now);
    }
}

/// Undone steps, newest last; a step is one accepted intent with the refused ones that
/// followed it. Cleared when a new intent is accepted.
#[derive(Resource, Clone, Debug, Default)]
pub struct RedoStack(pub Vec<Vec<Recorded<IntentRecord>>>);

/// While present, the AI takes no decision: recorded decisions are being replayed, or a
/// saved fight is being watched.
#[derive(Resource, Debug, Default)]
pub struct HoldAi;

/// Present while a record is replayed: the RNG position the next submitted intent had.
#[derive(Resource, Debug, Default)]
pub struct Replaying {
    /// Set before an intent is re-submitted; taken by [`rng_for_submit`].
    pub next_rng: Option<u64>,
}

/// Whether the AI may decide now.
pub fn ai_held(world: &World) -> bool {
    world.contains_resource::<HoldAi>() || world.contains_resource::<Replaying>()
}

/// Paces the AI for a table people watch: when present, the AI submits at most `allowance`
/// intents, and the client refills it (one every short pause). Headless tables have none.
#[derive(Resource, Debug, Default)]
pub struct AiPacing {
    /// Intents the AI may still submit.
    pub allowance: u32,
}

/// Whether the AI may submit one more intent now (and, when paced, uses up one).
pub fn ai_may_act(world: &mut World) -> bool {
    if ai_held(world) {
        return false;
    }
    match world.get_resource_mut::<AiPacing>() {
        None => true,
        Some(mut pacing) if pacing.allowance > 0 => {
            pacing.allowance -= 1;
            true
        }
        Some(_) => false,
    }
}

fn rng_position(world: &World) -> u64 {
    world.get_resource::<TableRng>().map_or(0, |r| u64::try_from(r.word_pos()).unwrap_or(u64::MAX))
}

/// Called by the ruleset as it starts validating a submitted intent: during a replay, puts
/// the RNG where it was when the intent was first submitted. Returns the position.
pub fn rng_for_submit(world: &mut World) -> u64 {
    let pending = world.get_resource_mut::<Replaying>().and_then(|mut r| r.next_rng.take());
    if let (Some(pos), Some(mut rng)) = (pending, world.get_resource_mut::<TableRng>()) {
        rng.set_word_pos(u128::from(pos));
    }
    rng_position(world)
}

/// Called by the ruleset once it has validated (and applied) a submitted intent: records
/// it. A new accepted decision outside a replay ends what could be redone.
pub fn record(world: &mut World, submitted: Recorded<IntentRecord>) {
    let fresh = submitted.accepted && !world.contains_resource::<Replaying>();
    if let Some(mut history) = world.get_resource_mut::<IntentHistory>() {
        history.entries.push(submitted);
        history.revision += 1;
    }
    if fresh && let Some(mut redo) = world.get_resource_mut::<RedoStack>() {
        redo.0.clear();
    }
}

/// Why a replay stopped before the end of its record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayStop {
    /// The position (from 0) of the first intent that no longer replays.
    pub index: usize,
    /// The intent, in words.
    pub intent: String,
    /// Why.
    pub reason: String,
}

impl core::fmt::Display for ReplayStop {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "intent #{} ({}) no longer validates: {}", self.index + 1, self.intent, self.reason)
    }
}

/// How far opening a save got.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenReport {
    /// Intents replayed.
    pub replayed: usize,
    /// Intents in the save.
    pub total: usize,
    /// The intent that stopped the replay, if one did: everything before it is loaded.
    pub stopped: Option<ReplayStop>,
}

impl OpenReport {
    /// A line for people: how much was loaded, and why not everything.
    pub fn message(&self) -> String {
        match &self.stopped {
            None => format!("loaded all {} intents", self.total),
            Some(stop) => {
                format!("{stop}; loaded the {} intents before it, of {}", self.replayed, self.total)
            }
        }
    }
}

/// A saved fight: the scenario (embedded, so a save is self-contained), the seed, and every
/// decision in order. `I` is the ruleset's intent type.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Save", deny_unknown_fields)]
pub struct SaveFile<I> {
    /// The format version ([`SAVE_VERSION`]).
    pub version: u32,
    /// The ruleset id.
    pub ruleset: String,
    /// Where the scenario was read from, for display.
    #[serde(default)]
    pub scenario_path: Option<String>,
    /// The scenario file's text.
    pub scenario: String,
    /// The RNG seed.
    pub seed: u64,
    /// The round limit.
    pub max_rounds: u32,
    /// Who controlled each combatant at the start.
    pub controllers: Vec<(CombatantId, Controller)>,
    /// Every submitted intent, in order.
    pub intents: Vec<Recorded<I>>,
    /// Controller changes during the fight.
    #[serde(default)]
    pub controller_changes: Vec<ControllerChange>,
    /// The AI combatants' levels when saved, where not the default (tactical); a save
    /// without them plays on with every AI combatant tactical.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ai_levels: Vec<(CombatantId, AiLevel)>,
}

impl<I> SaveFile<I> {
    /// The same save with its intents turned into another type.
    pub fn map<J>(self, mut f: impl FnMut(I) -> J) -> SaveFile<J> {
        match self.try_map(|intent| Ok::<J, core::convert::Infallible>(f(intent))) {
            Ok(file) => file,
            Err((_, never)) => match never {},
        }
    }

    /// The same save with its intents turned into another type: the first that does not
    /// turn stops it, with its position (from 0).
    pub fn try_map<J, E>(self, mut f: impl FnMut(I) -> Result<J, E>) -> Result<SaveFile<J>, (usize, E)> {
        let mut intents = Vec::with_capacity(self.intents.len());
        for (i, r) in self.intents.into_iter().enumerate() {
            let Recorded { actor, intent, accepted, rng, why } = r;
            intents.push(Recorded { actor, intent: f(intent).map_err(|e| (i, e))?, accepted, rng, why });
        }
        Ok(SaveFile {
            version: self.version,
            ruleset: self.ruleset,
            scenario_path: self.scenario_path,
            scenario: self.scenario,
            seed: self.seed,
            max_rounds: self.max_rounds,
            controllers: self.controllers,
            intents,
            controller_changes: self.controller_changes,
            ai_levels: self.ai_levels,
        })
    }
}

/// Just the version and ruleset of a save, read before the rest.
#[derive(Debug, Deserialize)]
#[serde(rename = "Save")]
pub struct SaveHeader {
    /// The format version.
    pub version: u32,
    /// The ruleset id.
    pub ruleset: String,
}

/// Why a save cannot be read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SaveError {
    /// The file could not be read, or is not RON of the right shape (with a line and column).
    #[error("{0}")]
    File(#[from] ScenarioError),
    /// A version this build does not know.
    #[error("save format version {0} is not supported (this Fray reads versions 1 to {SAVE_VERSION})")]
    Version(u32),
    /// The embedded scenario does not load.
    #[error("the scenario inside the save: {0}")]
    Scenario(ScenarioError),
    /// The save names a combatant its scenario does not have.
    #[error("{0}")]
    Invalid(String),
}

impl SaveError {
    /// One line per problem, each starting with the path (`PATH:LINE:COL: message` for
    /// syntax and type errors in the save itself).
    pub fn report(&self, path: &str) -> Vec<String> {
        match self {
            SaveError::File(e) => e.report(path),
            SaveError::Scenario(e) => {
                e.report(path).into_iter().map(|l| format!("{l} (in the embedded scenario)")).collect()
            }
            other => vec![format!(
                "{}: {}",
                crate::scenario::one_line(path),
                crate::scenario::one_line(&other.to_string())
            )],
        }
    }
}

/// Reads the header of a save, refusing unknown versions.
pub fn read_save_header(text: &str) -> Result<SaveHeader, SaveError> {
    let header: SaveHeader = parse_ron(text)?;
    if !SAVE_VERSIONS_READ.contains(&header.version) {
        return Err(SaveError::Version(header.version));
    }
    Ok(header)
}

/// The scenario part of a save, read before its intents.
#[derive(Deserialize)]
#[serde(rename = "Save")]
struct SaveScenario {
    scenario: String,
    #[serde(default)]
    scenario_path: Option<String>,
}

/// The embedded scenario text of a save and the path it was read from (after
/// [`read_save_header`]).
pub fn read_save_scenario(text: &str) -> Result<(String, Option<String>), SaveError> {
    let s: SaveScenario = parse_ron(text)?;
    Ok((s.scenario, s.scenario_path))
}

/// Parses a save of intent type `I` (after [`read_save_header`]), checking the combatants
/// and seats it names against its scenario's.
pub fn parse_save<I: serde::de::DeserializeOwned>(
    text: &str,
    combatants: &[CombatantId],
    seats: &[SeatId],
) -> Result<SaveFile<I>, SaveError> {
    let save: SaveFile<I> = parse_ron(text)?;
    if !SAVE_VERSIONS_READ.contains(&save.version) {
        return Err(SaveError::Version(save.version));
    }
    let known = |id: &CombatantId, controller: &Controller, part: &str| match controller {
        _ if !combatants.contains(id) => {
            Err(SaveError::Invalid(format!("{part}: '{id}' is not a combatant of the scenario")))
        }
        Controller::Player(seat) if !seats.contains(seat) => {
            Err(SaveError::Invalid(format!("{part}: '{seat}' is not a seat of the scenario")))
        }
        _ => Ok(()),
    };
    for (id, controller) in &save.controllers {
        known(id, controller, "controllers")?;
    }
    for c in &save.controller_changes {
        known(&c.combatant, &c.controller, "controller_changes")?;
        if c.at > save.intents.len() {
            return Err(SaveError::Invalid(format!(
                "controller_changes: position {} is past the {} intents",
                c.at,
                save.intents.len()
            )));
        }
    }
    Ok(save)
}

/// Writes a save as RON text.
pub fn save_text<I: Serialize>(save: &SaveFile<I>) -> Result<String, String> {
    let pretty = ron::ser::PrettyConfig::new().depth_limit(2).struct_names(true);
    ron::ser::to_string_pretty(save, pretty).map_err(|e| e.to_string())
}
