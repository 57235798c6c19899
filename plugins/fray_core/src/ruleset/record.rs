//! The fight's record, kept once in the core for every ruleset: what a save holds, undo,
//! redo and rewind, each a replay of the recorded intents on a table spawned afresh.

use core::any::Any;
use core::fmt::Debug;
use std::sync::Arc;

use bevy_ecs::prelude::*;

use super::{Entry, Playable};
use crate::ids::CombatantId;
use crate::session::{IntentHistory, OpenReport, RedoStack, SaveError};

/// The fight's record behind one type: what [`IntentHistory`] and [`RedoStack`] hold for the
/// ruleset being played, saved, read back, undone, redone and rewound.
pub trait AnyRecord: Send + Sync + 'static {
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
    /// Opens a save read by [`AnyRecord::read_save`] on a freshly spawned table.
    fn open(&self, world: &mut World, save: &ReadSave, rebuild: &dyn Fn(&mut World)) -> OpenReport;
    /// Takes back the last accepted intent; `rebuild` spawns the table afresh.
    fn undo(&self, world: &mut World, rebuild: &dyn Fn(&mut World)) -> Result<String, String>;
    /// Plays the last undone step again.
    fn redo(&self, world: &mut World) -> Result<String, String>;
    /// Back to the start, every step kept to be redone; returns how many.
    fn rewind(&self, world: &mut World, rebuild: &dyn Fn(&mut World)) -> Result<usize, String>;
}

/// What a save file says besides its record, for [`AnyRecord::save`].
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

impl<R: Playable> AnyRecord for Entry<R> {
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
