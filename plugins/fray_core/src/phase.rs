//! The phase machinery. A ruleset declares its phases as an enum implementing [`Phase`] and
//! chains one system set per phase inside its [`RulesetSystems`] of the [`RulesStep`]
//! schedule, each set gated by [`in_phase`]. The core runs [`RulesStep`] again and again
//! within one app update while something progresses, so a phase that needs no input hands
//! over at once, and stops when the current phase waits for intents.

use core::fmt::Debug;

use bevy_ecs::prelude::*;
use bevy_ecs::schedule::{InternedSystemSet, ScheduleConfigs, ScheduleLabel, SystemCondition};

use crate::log::{GameLog, LogEvent};

/// One pass of the rules: the ruleset's phase sets.
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
pub struct RulesStep;

/// The top-level set of [`RulesStep`].
#[derive(SystemSet, Clone, Debug, PartialEq, Eq, Hash)]
pub enum TableSystems {
    /// Every ruleset's [`RulesetSystems`], one after the other in the order they were
    /// registered (only the ruleset on the table has anything to do).
    Rules,
}

/// One ruleset's part of [`RulesStep`], named by its id: its phase chain is configured in
/// here, in one place of its crate. `add_ruleset` puts it in [`TableSystems::Rules`] after
/// the rulesets registered before it, so an app with every ruleset has one ordered schedule.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RulesetSystems(pub &'static str);

/// A ruleset's phase enum: its names, titles, and the chain each phase belongs to.
pub trait Phase: Copy + Eq + Debug + Send + Sync + 'static {
    /// Every phase, in order, the over state last.
    const ALL: &'static [Self];
    /// The fight is over (also the state of a ruleset not on the table).
    const OVER: Self;

    /// The name written in the log and read on the command line (`--autoplay-until`).
    fn name(self) -> &'static str;

    /// A name for people.
    fn title(self) -> &'static str;

    /// The steps the board's phase track shows while the table is in this phase: by default
    /// every phase but the over state. A ruleset with an opening before its repeating chain
    /// (FateWalker's ambush and initiative) gives each part its own track.
    fn track(self) -> Vec<Self> {
        Self::ALL.iter().copied().filter(|&p| p != Self::OVER).collect()
    }
}

/// The phase the table is in.
#[derive(Resource, Clone, Copy, Debug)]
pub struct CurrentPhase<P: Phase>(P);

impl<P: Phase> CurrentPhase<P> {
    /// The fight is over (or not on this table).
    pub fn over() -> Self {
        Self(P::OVER)
    }

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
/// forever (every pass may log, so it must trip long before memory runs out); a whole AI
/// battle takes a few thousand.
pub const MAX_PASSES_PER_UPDATE: u32 = 100_000;

/// Set when the rules went round [`MAX_PASSES_PER_UPDATE`] times in one update: the fight
/// has been ended (logged with the reason) and the rules run no more.
#[derive(Resource, Debug, Clone)]
pub struct RulesHalted(pub String);

/// Runs [`RulesStep`] until a pass changes nothing.
pub fn run_rules_until_waiting(world: &mut World) {
    if world.contains_resource::<RulesHalted>() {
        return;
    }
    // Controllers change only outside the rules: what changed since the last run is noted
    // in the session record now, before the rules can read it.
    crate::session::note_controllers(world);
    for _ in 0..MAX_PASSES_PER_UPDATE {
        world.resource_mut::<StepProgress>().0 = false;
        world.run_schedule(RulesStep);
        if !world.resource::<StepProgress>().0 {
            return;
        }
    }
    let reason = format!(
        "stopped: the rules went round {MAX_PASSES_PER_UPDATE} times without waiting for anyone (a ruleset bug: please report it with the save)"
    );
    let clock = world.resource::<GameLog>().clock();
    crate::ruleset::log_end(world, None, clock, &reason, crate::table::fights_by_status);
    world.insert_resource(RulesHalted(reason));
}

/// The phase a world's table is in (the over state when the ruleset has none).
pub fn current<P: Phase>(world: &World) -> P {
    world.get_resource::<CurrentPhase<P>>().map_or(P::OVER, |c| c.0)
}

/// Moves the table to another phase from an exclusive system: logs it and marks progress.
pub fn go_to<P: Phase>(world: &mut World, phase: P) {
    world.resource_scope(|world, mut current: Mut<CurrentPhase<P>>| {
        world.resource_scope(|world, mut log: Mut<GameLog>| {
            let mut progress = world.resource_mut::<StepProgress>();
            enter_phase(phase, &mut current, &mut log, &mut progress);
        });
    });
}

/// A run condition: the table is in `phase`.
pub fn in_phase<P: Phase>(phase: P) -> impl FnMut(Option<Res<CurrentPhase<P>>>) -> bool + Clone {
    move |current: Option<Res<CurrentPhase<P>>>| current.is_some_and(|c| c.0 == phase)
}

/// The phase chain of a ruleset, the shape every ruleset shares, declared in one call: a set
/// per phase in `phases`' order, each running only in its phase while the fight goes on
/// (`goes_on`); then `decisions`, running while the fight goes on and, once it is over, to
/// refuse what comes late; then `ending`, until the fight is over. All in
/// [`RulesetSystems`]`(ruleset)`, each after the one before.
pub fn chain_phases<P: Phase, S: SystemSet + Clone, M>(
    app: &mut bevy_app::App,
    ruleset: &'static str,
    phases: &[(S, P)],
    (decisions, ending): (S, S),
    goes_on: impl SystemCondition<M> + Clone,
) {
    let mut chain: Vec<(S, ScheduleConfigs<InternedSystemSet>)> = phases
        .iter()
        .map(|(set, phase)| (set.clone(), set.clone().run_if(in_phase(*phase).and_then(goes_on.clone()))))
        .collect();
    chain.push((decisions.clone(), decisions.run_if(in_phase(P::OVER).or_else(goes_on))));
    chain.push((ending.clone(), ending.run_if(not(in_phase(P::OVER)))));
    let mut before: Option<S> = None;
    for (set, config) in chain {
        let config = config.in_set(RulesetSystems(ruleset));
        match before.replace(set) {
            Some(previous) => app.configure_sets(RulesStep, config.after(previous)),
            None => app.configure_sets(RulesStep, config),
        };
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A rule that never waits: every pass logs and marks progress.
    fn endless(mut log: ResMut<GameLog>, mut progress: ResMut<StepProgress>) {
        log.push(None, LogEvent::PhaseStarted);
        progress.mark();
    }

    #[test]
    fn rules_that_never_wait_are_stopped_and_the_fight_ended_with_the_reason() {
        let mut world = World::new();
        world.init_resource::<GameLog>();
        world.init_resource::<StepProgress>();
        world.init_resource::<crate::table::TableIndex>();
        let mut schedule = Schedule::new(RulesStep);
        schedule.add_systems(endless);
        world.add_schedule(schedule);
        run_rules_until_waiting(&mut world);
        let halted = world.get_resource::<RulesHalted>().expect("halted");
        assert!(halted.0.contains("ruleset bug"), "{}", halted.0);
        let result = world.get_resource::<crate::ruleset::FightResult>().expect("the fight ended");
        assert_eq!(result.winner, None);
        let logged = world.resource::<GameLog>().entries().len();
        assert_eq!(logged, MAX_PASSES_PER_UPDATE as usize + 1, "each pass, then the end");
        run_rules_until_waiting(&mut world);
        assert_eq!(world.resource::<GameLog>().entries().len(), logged, "halted rules run no more");
    }
}
