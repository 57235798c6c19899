//! The fight's record, kept once in the core for every ruleset over type-erased intents
//! ([`IntentRecord`]): what a save holds, undo, redo and rewind, each a replay of the
//! recorded intents on a table spawned afresh. The ruleset gives only what needs its own
//! intent type: a save's text read and written, and an intent queued for its rules.

use bevy_ecs::prelude::*;

use super::AnyRuleset;
use crate::ai::AiLevel;
use crate::ids::{CombatantId, SeatId};
use crate::intent::IntentRecord;
use crate::session::{
    ControllerChange, IntentHistory, OpenReport, Recorded, RedoStack, ReplayStop, Replaying, SaveError,
    SaveFile, ai_levels, controllers, note_controllers, set_ai_levels, set_controllers,
};
use crate::table::{Controller, TableIndex};

/// What a save file says besides its record, for [`Record::save`].
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
    file: SaveFile<IntentRecord>,
}

/// The fight's record on a table the ruleset plays: `rules.history()`.
#[derive(Clone, Copy)]
pub struct Record<'a>(&'a dyn AnyRuleset);

impl dyn AnyRuleset {
    /// The fight's record: saves, undo, redo, rewind.
    pub fn history(&self) -> Record<'_> {
        Record(self)
    }
}

impl Record<'_> {
    /// The fight's record: (intents recorded, accepted ones, revision), if one is kept.
    pub fn record(&self, world: &World) -> Option<(usize, usize, u64)> {
        let h = world.get_resource::<IntentHistory>()?;
        Some((h.entries.len(), h.accepted(), h.revision))
    }

    /// How many undone steps can be redone.
    pub fn redo_len(&self, world: &World) -> usize {
        world.get_resource::<RedoStack>().map_or(0, |r| r.0.len())
    }

    /// Drops what could be redone (a new fight starts).
    pub fn forget_redo(&self, world: &mut World) {
        world.insert_resource(RedoStack::default());
    }

    /// The record as a save's text.
    pub fn save(&self, world: &World, header: SaveHeader) -> Result<String, String> {
        let history = world.get_resource::<IntentHistory>().ok_or("no fight is open")?;
        self.0.write_save(SaveFile {
            version: crate::session::SAVE_VERSION,
            ruleset: self.0.id().to_owned(),
            scenario_path: header.scenario_path,
            scenario: header.scenario,
            seed: header.seed,
            max_rounds: header.limit,
            controllers: history.start.clone(),
            intents: history.entries.clone(),
            controller_changes: history.controller_changes.clone(),
            ai_levels: ai_levels(world).into_iter().filter(|(_, l)| *l != AiLevel::default()).collect(),
        })
    }

    /// Reads a save's intents and controllers (its header and scenario already read), the
    /// combatants and seats they name checked against the scenario's.
    pub fn read_save(
        &self,
        text: &str,
        combatants: &[CombatantId],
        seats: &[SeatId],
    ) -> Result<ReadSave, SaveError> {
        let file = self.0.read_save(text, combatants, seats)?;
        Ok(ReadSave {
            seed: file.seed,
            limit: file.max_rounds,
            intents: file.intents.len(),
            scenario_path: file.scenario_path.clone(),
            file,
        })
    }

    /// Opens a save read by [`Record::read_save`] on a freshly spawned table.
    pub fn open(&self, world: &mut World, save: &ReadSave, rebuild: &dyn Fn(&mut World)) -> OpenReport {
        self.open_watching(world, save, rebuild, &mut |_| {})
    }

    /// [`Record::open`], `each` shown the table once the rules first wait and after every
    /// intent replayed (`fray replay --seat` prints a seat's view there).
    pub fn open_watching(
        &self,
        world: &mut World,
        save: &ReadSave,
        rebuild: &dyn Fn(&mut World),
        each: &mut dyn FnMut(&World),
    ) -> OpenReport {
        let file = &save.file;
        let record = (&file.controllers[..], &file.intents[..], &file.controller_changes[..]);
        let report = open_record_watching(world, self.0, rebuild, record, each);
        let every: Vec<_> = ai_levels(world).into_iter().map(|(id, _)| (id, AiLevel::default())).collect();
        set_ai_levels(world, &every);
        set_ai_levels(world, &file.ai_levels);
        report
    }

    /// Takes back the last accepted intent; `rebuild` spawns the table afresh.
    pub fn undo(&self, world: &mut World, rebuild: &dyn Fn(&mut World)) -> Result<String, String> {
        let history = world.get_resource::<IntentHistory>().cloned().ok_or("no fight is open")?;
        let last = history.entries.iter().rposition(|r| r.accepted).ok_or("nothing to undo")?;
        let step = history.entries[last..].to_vec();
        self.replay_first(world, rebuild, &history, last)
            .map_err(|stop| format!("undo could not rebuild the fight: {stop}"))?;
        let what = describe(&step[0]);
        world.get_resource_or_init::<RedoStack>().0.push(step);
        Ok(what)
    }

    /// Plays the last undone step again.
    pub fn redo(&self, world: &mut World) -> Result<String, String> {
        let step =
            world.get_resource_mut::<RedoStack>().and_then(|mut r| r.0.pop()).ok_or("nothing to redo")?;
        note_controllers(world);
        replay(world, self.0, &step, &[], &mut |_| {}).map_err(|stop| format!("cannot redo: {stop}"))?;
        Ok(describe(&step[0]))
    }

    /// Back to the start, every step kept to be redone; returns how many.
    pub fn rewind(&self, world: &mut World, rebuild: &dyn Fn(&mut World)) -> Result<usize, String> {
        let history = world.get_resource::<IntentHistory>().cloned().ok_or("no fight is open")?;
        let first = history.entries.iter().position(|r| r.accepted).unwrap_or(history.entries.len());
        // Each step: an accepted intent and the refused ones after it.
        let mut steps: Vec<Vec<Recorded<IntentRecord>>> = Vec::new();
        for entry in &history.entries[first..] {
            match steps.last_mut() {
                Some(step) if !entry.accepted => step.push(entry.clone()),
                _ => steps.push(vec![entry.clone()]),
            }
        }
        self.replay_first(world, rebuild, &history, first)
            .map_err(|stop| format!("rewinding could not rebuild the fight: {stop}"))?;
        let mut redo = world.get_resource_or_init::<RedoStack>();
        redo.0.extend(steps.into_iter().rev());
        Ok(redo.0.len())
    }

    /// Spawns the table afresh and replays the record's first `keep` entries (with the
    /// controller changes made by then), the controllers of now kept: undo and rewind.
    fn replay_first(
        &self,
        world: &mut World,
        rebuild: &dyn Fn(&mut World),
        history: &IntentHistory,
        keep: usize,
    ) -> Result<(), ReplayStop> {
        let now = controllers(world);
        let levels = ai_levels(world);
        let changes: Vec<_> = history.controller_changes.iter().filter(|c| c.at <= keep).cloned().collect();
        rebuild(world);
        restart(world, &history.start);
        let replayed = replay(world, self.0, &history.entries[..keep], &changes, &mut |_| {});
        set_controllers(world, &now);
        set_ai_levels(world, &levels);
        note_controllers(world);
        replayed
    }
}

fn describe(r: &Recorded<IntentRecord>) -> String {
    format!("{}: {:?}", r.actor, r.intent)
}

/// Sets the start controllers on a freshly spawned table and starts its record there.
fn restart(world: &mut World, start: &[(CombatantId, Controller)]) {
    set_controllers(world, start);
    let history = IntentHistory::started(world);
    world.insert_resource(history);
}

/// Opens a saved record on a freshly spawned table: start controllers, then every intent
/// replayed. On an intent that no longer validates, `rebuild` spawns the table afresh and
/// the part before it is replayed again, so that the table holds exactly that part.
pub fn open_record(
    world: &mut World,
    rules: &dyn AnyRuleset,
    rebuild: &dyn Fn(&mut World),
    start: &[(CombatantId, Controller)],
    intents: &[Recorded<IntentRecord>],
    changes: &[ControllerChange],
) -> OpenReport {
    open_record_watching(world, rules, rebuild, (start, intents, changes), &mut |_| {})
}

/// [`open_record`], `each` shown the table once the rules first wait and after every intent
/// replayed (not again when a stop makes the part before it replay).
fn open_record_watching(
    world: &mut World,
    rules: &dyn AnyRuleset,
    rebuild: &dyn Fn(&mut World),
    (start, intents, changes): (&[(CombatantId, Controller)], &[Recorded<IntentRecord>], &[ControllerChange]),
    each: &mut dyn FnMut(&World),
) -> OpenReport {
    restart(world, start);
    let total = intents.len();
    let Err(stop) = replay(world, rules, intents, changes, each) else {
        return OpenReport { replayed: total, total, stopped: None };
    };
    rebuild(world);
    restart(world, start);
    let keep = stop.index.min(total);
    let before: Vec<_> = changes.iter().filter(|c| c.at <= keep).cloned().collect();
    // That part replayed once already, so it replays again.
    let replayed =
        if replay(world, rules, &intents[..keep], &before, &mut |_| {}).is_ok() { keep } else { 0 };
    OpenReport { replayed, total, stopped: Some(stop) }
}

/// Replays recorded intents onto the table as it is (normally freshly spawned, with its
/// history started), with the controllers changing where the record says. Each intent goes
/// through the inbox and the rules as a person's would, with the AI held. Stops at the
/// first intent whose verdict differs from the record; the table then holds that refusal
/// (or acceptance), so the caller rebuilds and replays the part before it. `each` is shown
/// the table when the rules first wait and after each intent.
fn replay(
    world: &mut World,
    rules: &dyn AnyRuleset,
    entries: &[Recorded<IntentRecord>],
    changes: &[ControllerChange],
    each: &mut dyn FnMut(&World),
) -> Result<(), ReplayStop> {
    let start_len = world.get_resource::<IntentHistory>().map_or(0, |h| h.entries.len());
    world.insert_resource(Replaying::default());
    let result = replay_inner(world, rules, (entries, changes), start_len, each);
    world.remove_resource::<Replaying>();
    result
}

fn replay_inner(
    world: &mut World,
    rules: &dyn AnyRuleset,
    (entries, changes): (&[Recorded<IntentRecord>], &[ControllerChange]),
    start_len: usize,
    each: &mut dyn FnMut(&World),
) -> Result<(), ReplayStop> {
    // One at a time: a combatant handed over and back at the same point is two changes.
    let mut applied = None;
    let mut apply_changes = |world: &mut World, at: usize| {
        if applied.replace(at) == Some(at) {
            return;
        }
        for c in changes.iter().filter(|c| c.at == at) {
            set_controllers(world, &[(c.combatant.clone(), c.controller.clone())]);
            note_controllers(world);
        }
    };
    // Changes before the first intent come before the rules first run, as in the fight.
    apply_changes(world, start_len);
    crate::phase::run_rules_until_waiting(world);
    each(world);
    for (i, entry) in entries.iter().enumerate() {
        let at = start_len + i;
        apply_changes(world, at);
        replay_one(world, rules, entry, at)?;
        each(world);
    }
    apply_changes(world, start_len + entries.len());
    Ok(())
}

/// Submits one recorded intent at position `at` and checks that the rules handle it as
/// they did when it was played.
fn replay_one(
    world: &mut World,
    rules: &dyn AnyRuleset,
    entry: &Recorded<IntentRecord>,
    at: usize,
) -> Result<(), ReplayStop> {
    let stop = |reason: String| ReplayStop { index: at, intent: describe(entry), reason };
    if world.resource::<TableIndex>().combatant(&entry.actor).is_none() {
        return Err(stop(format!("there is no combatant '{}'", entry.actor)));
    }
    world.resource_mut::<Replaying>().next_rng = Some(entry.rng);
    world.insert_resource(crate::ai::Why(entry.why.clone()));
    rules.submit(world, entry.actor.clone(), &entry.intent);
    crate::phase::run_rules_until_waiting(world);
    if rules.drop_queued(world) > 0 {
        return Err(stop("the rules no longer ask for it here".to_owned()));
    }
    let outcome = world.resource::<crate::intent::Outcomes>().last().map(|o| o.result.clone());
    let recorded = world.get_resource::<IntentHistory>().map_or(0, |h| h.entries.len());
    match outcome {
        _ if recorded != at + 1 => Err(stop("the rules did not handle it".to_owned())),
        Some(Err(rejection)) if entry.accepted => Err(stop(rejection.0)),
        Some(Ok(())) if !entry.accepted => {
            Err(stop("it was refused when played, but is accepted now".to_owned()))
        }
        _ => Ok(()),
    }
}
