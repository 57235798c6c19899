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

use crate::dice::TableRng;
use crate::ids::CombatantId;
use crate::intent::Inbox;
use crate::scenario::{ScenarioError, parse_ron};
use crate::table::{Controller, TableIndex};

/// The save format this build writes and reads.
pub const SAVE_VERSION: u32 = 1;

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

/// Everything decided in the fight on the table, in order. The ruleset starts a fresh one
/// whenever it spawns a scenario, and records every intent it validates.
#[derive(Resource, Clone, Debug)]
pub struct IntentHistory<I> {
    /// Controllers when the scenario was spawned, in scenario order.
    pub start: Vec<(CombatantId, Controller)>,
    /// Every submitted intent, oldest first.
    pub entries: Vec<Recorded<I>>,
    /// Controller changes since the start, oldest first.
    pub controller_changes: Vec<ControllerChange>,
    /// Counts every change to the record, across rebuilds (autosave compares it).
    pub revision: u64,
    known: BTreeMap<CombatantId, Controller>,
}

impl<I> Default for IntentHistory<I> {
    fn default() -> Self {
        Self {
            start: Vec::new(),
            entries: Vec::new(),
            controller_changes: Vec::new(),
            revision: 0,
            known: BTreeMap::new(),
        }
    }
}

impl<I: Send + Sync + 'static> IntentHistory<I> {
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
                self.known.insert(id.clone(), controller);
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
            Some((c.id.clone(), world.get::<Controller>(e).copied().unwrap_or_default()))
        })
        .collect()
}

/// Hands combatants to the given controllers (unknown ids are skipped).
pub fn set_controllers(world: &mut World, wanted: &[(CombatantId, Controller)]) {
    for (id, controller) in wanted {
        let e = world.resource::<TableIndex>().combatant(id);
        if let Some(e) = e {
            world.entity_mut(e).insert(*controller);
        }
    }
}

/// The ruleset's [`note_controllers`], which the rules driver calls before each run of the
/// rules, so that every controller change lands at its true place in the record.
#[derive(Resource, Clone, Copy)]
pub struct NoteControllers(pub fn(&mut World));

/// Records controller changes made since the last look, at the current position.
pub fn note_controllers<I: Send + Sync + 'static>(world: &mut World) {
    let now = controllers(world);
    if let Some(mut history) = world.get_resource_mut::<IntentHistory<I>>() {
        history.note(now);
    }
}

/// Undone steps, newest last; a step is one accepted intent with the refused ones that
/// followed it. Cleared when a new intent is accepted.
#[derive(Resource, Clone, Debug)]
pub struct RedoStack<I>(pub Vec<Vec<Recorded<I>>>);

impl<I> Default for RedoStack<I> {
    fn default() -> Self {
        Self(Vec::new())
    }
}

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
pub fn record<I: Clone + Send + Sync + 'static>(world: &mut World, submitted: Recorded<I>) {
    let fresh = submitted.accepted && !world.contains_resource::<Replaying>();
    if let Some(mut history) = world.get_resource_mut::<IntentHistory<I>>() {
        history.entries.push(submitted);
        history.revision += 1;
    }
    if fresh && let Some(mut redo) = world.get_resource_mut::<RedoStack<I>>() {
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

/// Replays recorded intents onto the table as it is (normally freshly spawned, with its
/// history started), with the controllers changing where the record says. Each intent goes
/// through the inbox and the rules as a person's would, with the AI held. Stops at the
/// first intent whose verdict differs from the record; the table then holds that refusal
/// (or acceptance), so the caller rebuilds and replays the part before it.
pub fn replay<I>(
    world: &mut World,
    entries: &[Recorded<I>],
    changes: &[ControllerChange],
) -> Result<(), ReplayStop>
where
    I: Clone + core::fmt::Debug + Send + Sync + 'static,
{
    let start_len = world.get_resource::<IntentHistory<I>>().map_or(0, |h| h.entries.len());
    world.insert_resource(Replaying::default());
    let result = replay_inner(world, entries, changes, start_len);
    world.remove_resource::<Replaying>();
    result
}

fn replay_inner<I>(
    world: &mut World,
    entries: &[Recorded<I>],
    changes: &[ControllerChange],
    start_len: usize,
) -> Result<(), ReplayStop>
where
    I: Clone + core::fmt::Debug + Send + Sync + 'static,
{
    // One at a time: a combatant handed over and back at the same point is two changes.
    let mut applied = None;
    let mut apply_changes = |world: &mut World, at: usize| {
        if applied.replace(at) == Some(at) {
            return;
        }
        for c in changes.iter().filter(|c| c.at == at) {
            set_controllers(world, &[(c.combatant.clone(), c.controller)]);
            note_controllers::<I>(world);
        }
    };
    // Changes before the first intent come before the rules first run, as in the fight.
    apply_changes(world, start_len);
    crate::phase::run_rules_until_waiting(world);
    for (i, entry) in entries.iter().enumerate() {
        let at = start_len + i;
        apply_changes(world, at);
        let stop = |reason: String| ReplayStop {
            index: at,
            intent: format!("{}: {:?}", entry.actor, entry.intent),
            reason,
        };
        if world.resource::<TableIndex>().combatant(&entry.actor).is_none() {
            return Err(stop(format!("there is no combatant '{}'", entry.actor)));
        }
        world.resource_mut::<Replaying>().next_rng = Some(entry.rng);
        world.resource_mut::<Inbox<I>>().submit(entry.actor.clone(), entry.intent.clone());
        crate::phase::run_rules_until_waiting(world);
        let queued = core::mem::take(&mut world.resource_mut::<Inbox<I>>().0);
        if !queued.is_empty() {
            return Err(stop("the rules no longer ask for it here".to_owned()));
        }
        let outcome = world.resource::<crate::intent::Outcomes>().last().map(|o| o.result.clone());
        let recorded = world.get_resource::<IntentHistory<I>>().map_or(0, |h| h.entries.len());
        match outcome {
            _ if recorded != at + 1 => return Err(stop("the rules did not handle it".to_owned())),
            Some(Err(rejection)) if entry.accepted => return Err(stop(rejection.0)),
            Some(Ok(())) if !entry.accepted => {
                return Err(stop("it was refused when played, but is accepted now".to_owned()));
            }
            _ => {}
        }
    }
    apply_changes(world, start_len + entries.len());
    Ok(())
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

/// Sets the start controllers on a freshly spawned table and starts its record there.
pub fn restart<I: Send + Sync + 'static>(world: &mut World, start: &[(CombatantId, Controller)]) {
    set_controllers(world, start);
    let history = IntentHistory::<I>::started(world);
    world.insert_resource(history);
}

/// Opens a saved record on a freshly spawned table: start controllers, then every intent
/// replayed. On an intent that no longer validates, `rebuild` spawns the table afresh and
/// the part before it is replayed again, so that the table holds exactly that part.
pub fn open_record<I>(
    world: &mut World,
    mut rebuild: impl FnMut(&mut World),
    start: &[(CombatantId, Controller)],
    intents: &[Recorded<I>],
    changes: &[ControllerChange],
) -> OpenReport
where
    I: Clone + core::fmt::Debug + Send + Sync + 'static,
{
    restart::<I>(world, start);
    let total = intents.len();
    let Err(stop) = replay(world, intents, changes) else {
        return OpenReport { replayed: total, total, stopped: None };
    };
    rebuild(world);
    restart::<I>(world, start);
    let keep = stop.index.min(total);
    let before: Vec<_> = changes.iter().filter(|c| c.at <= keep).cloned().collect();
    // That part replayed once already, so it replays again.
    let replayed = if replay(world, &intents[..keep], &before).is_ok() { keep } else { 0 };
    OpenReport { replayed, total, stopped: Some(stop) }
}

/// Splits a record into everything before the last accepted intent, and the step that
/// undoing removes: that intent and the refused ones after it. `None` when nothing was
/// accepted.
pub fn split_last_step<I: Clone>(entries: &[Recorded<I>]) -> Option<(usize, Vec<Recorded<I>>)> {
    let last = entries.iter().rposition(|r| r.accepted)?;
    Some((last, entries[last..].to_vec()))
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
    #[error("save format version {0} is not supported (this Fray reads version {SAVE_VERSION})")]
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
    if header.version != SAVE_VERSION {
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

/// Parses a save of intent type `I` (after [`read_save_header`]), checking the ids it names
/// against the combatant ids of its scenario.
pub fn parse_save<I: serde::de::DeserializeOwned>(
    text: &str,
    combatants: &[CombatantId],
) -> Result<SaveFile<I>, SaveError> {
    let save: SaveFile<I> = parse_ron(text)?;
    if save.version != SAVE_VERSION {
        return Err(SaveError::Version(save.version));
    }
    let known = |id: &CombatantId| combatants.contains(id);
    for (id, _) in &save.controllers {
        if !known(id) {
            return Err(SaveError::Invalid(format!(
                "controllers: '{id}' is not a combatant of the scenario"
            )));
        }
    }
    for c in &save.controller_changes {
        if !known(&c.combatant) {
            return Err(SaveError::Invalid(format!(
                "controller_changes: '{}' is not a combatant of the scenario",
                c.combatant
            )));
        }
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
