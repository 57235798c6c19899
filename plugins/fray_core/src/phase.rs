//! The phase machinery. A ruleset declares its phases as an enum implementing [`Phase`] and
//! chains one system set per phase inside [`TableSystems::Rules`] of the [`RulesStep`]
//! schedule, each set gated by [`in_phase`]. The core runs [`RulesStep`] again and again
//! within one app update while something progresses, so a phase that needs no input hands
//! over at once, and stops when the current phase waits for intents.

use core::fmt::Debug;

use bevy_ecs::prelude::*;
use bevy_ecs::schedule::ScheduleLabel;

use crate::log::{GameLog, LogEvent};

/// One pass of the rules: the ruleset's phase sets.
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
pub struct RulesStep;

/// The top-level set of [`RulesStep`].
#[derive(SystemSet, Clone, Debug, PartialEq, Eq, Hash)]
pub enum TableSystems {
    /// The ruleset's phase chain lives here.
    Rules,
}

/// A ruleset's phase enum.
pub trait Phase: Copy + Eq + Debug + Send + Sync + 'static {
    /// The name written in the log and shown on the board.
    fn name(self) -> &'static str;
}

/// The phase the table is in.
#[derive(Resource, Clone, Copy, Debug)]
pub struct CurrentPhase<P: Phase>(P);

impl<P: Phase> CurrentPhase<P> {
    /// Starts in `phase`.
    pub fn new(phase: P) -> Self {
        Self(phase)
    }

    /// The phase now.
    pub fn get(&self) -> P {
        self.0
    }
}

/// Set whenever a pass of [`RulesStep`] changed something; the driver runs another pass
/// while it is set.
#[derive(Resource, Debug, Default)]
pub struct StepProgress(bool);

impl StepProgress {
    /// Something changed: run the rules again.
    pub fn mark(&mut self) {
        self.0 = true;
    }
}

/// How many passes one update may run at most: a safety net against a ruleset bug looping
/// forever; a whole AI battle takes far fewer.
pub const MAX_PASSES_PER_UPDATE: u32 = 1_000_000;

/// Runs [`RulesStep`] until a pass changes nothing.
pub fn run_rules_until_waiting(world: &mut World) {
    // Controllers change only outside the rules: what changed since the last run is noted
    // in the session record now, before the rules can read it.
    if let Some(note) = world.get_resource::<crate::session::NoteControllers>().map(|n| n.0) {
        note(world);
    }
    for _ in 0..MAX_PASSES_PER_UPDATE {
        world.resource_mut::<StepProgress>().0 = false;
        world.run_schedule(RulesStep);
        if !world.resource::<StepProgress>().0 {
            return;
        }
    }
}

/// A run condition: the table is in `phase`.
pub fn in_phase<P: Phase>(phase: P) -> impl FnMut(Option<Res<CurrentPhase<P>>>) -> bool + Clone {
    move |current: Option<Res<CurrentPhase<P>>>| current.is_some_and(|c| c.0 == phase)
}

/// Moves the table to another phase, logging it and marking progress.
pub fn enter_phase<P: Phase>(
    phase: P,
    current: &mut CurrentPhase<P>,
    log: &mut GameLog,
    progress: &mut StepProgress,
) {
    current.0 = phase;
    log.set_phase(phase.name());
    log.push(None, LogEvent::PhaseStarted);
    progress.mark();
}
