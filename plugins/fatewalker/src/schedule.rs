//! FateWalker's phase chain, configured in this one place: the opening, then the steps of
//! a tick in the text's order. Every rule system joins one of these sets; none orders
//! itself against another module's systems.

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::phase::{RulesStep, chain_phases};
use fray_core::ruleset::Ruleset;

use crate::clock::goes_on;
use crate::phase::FateWalkerPhase;

/// One set per phase, in order, then the decisions set and the check for the fight's end.
/// The phases and the decisions run only while two sides or more are standing (once the
/// fight is over, the decisions only refuse what comes in).
#[derive(SystemSet, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FateWalkerSystems {
    /// Ambush: waits for the ambusher's free action, then hands over to initiative.
    Ambush,
    /// Initiative: everyone aware rolls a starting tick.
    Initiative,
    /// Tick events: the clock to the next tick, late joiners, damage over time, movement
    /// segments; then declarations or free actions.
    TickEvents,
    /// Declarations: the next group by Awareness declares; when all of it has, responses
    /// are listed.
    Declare,
    /// Preemptions and reactions: asks each responder in turn, then hands over to resolution.
    Preempt,
    /// Resolution: preemptive actions, then the declared actions with their reactions;
    /// back to declarations for the next group.
    Resolve,
    /// Free actions: movers at a segment's end answer; then the next tick.
    FreeActions,
    /// Every pass, in any phase: the AI decides for the combatants the rules wait on, then
    /// queued intents are validated and applied.
    Decisions,
    /// Every pass: the fight ends the moment one side or none is left standing.
    Ending,
}

/// The steps of [`FateWalkerSystems::TickEvents`], in order. Each system also checks the
/// phase itself: an earlier step may have ended the fight.
#[derive(SystemSet, Clone, Debug, PartialEq, Eq, Hash)]
pub enum TickEventSystems {
    /// The clock moves to the next tick where something happens.
    Clock,
    /// That tick's events: temporary wounds healing, late joiners, damage over time.
    Events,
    /// Movement segments ending at that tick.
    Movement,
    /// Declarations if anyone may declare, else free actions.
    Handover,
}

pub(crate) fn plugin(app: &mut App) {
    // Order new steps of a tick's events here.
    app.configure_sets(
        RulesStep,
        (
            TickEventSystems::Clock,
            TickEventSystems::Events,
            TickEventSystems::Movement,
            TickEventSystems::Handover,
        )
            .chain()
            .in_set(FateWalkerSystems::TickEvents),
    );
    // Order new phases here.
    chain_phases(
        app,
        crate::FateWalker::ID,
        &[
            (FateWalkerSystems::Ambush, FateWalkerPhase::Ambush),
            (FateWalkerSystems::Initiative, FateWalkerPhase::Initiative),
            (FateWalkerSystems::TickEvents, FateWalkerPhase::TickEvents),
            (FateWalkerSystems::Declare, FateWalkerPhase::Declare),
            (FateWalkerSystems::Preempt, FateWalkerPhase::Preempt),
            (FateWalkerSystems::Resolve, FateWalkerPhase::Resolve),
            (FateWalkerSystems::FreeActions, FateWalkerPhase::FreeActions),
        ],
        (FateWalkerSystems::Decisions, FateWalkerSystems::Ending),
        goes_on,
    );
}
