//! Fast & Slow's phase chain, configured in this one place: Round Start, Fast Turns, Upkeep,
//! Slow Turns, End of Round (entering combat first, once).

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::phase::chain_phases;
use fray_core::ruleset::Ruleset;

use crate::FastSlow;
use crate::ending::goes_on;
use crate::phase::FastSlowPhase;

/// One set per phase, in order, then the decisions and the check for the fight's end. The
/// phases and the decisions run only while two sides or more are in the fight (once the fight
/// is over, the decisions only refuse what comes in).
#[derive(SystemSet, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FastSlowSystems {
    /// Entering combat: leadership roll or surprise, then the free movement.
    Opening,
    /// A new round; the secret Fast/Slow commitments, then the reveal and the order.
    RoundStart,
    /// The Fast turns, side by side in the order.
    FastTurns,
    /// Recurring effects: hazards, poison, reinforcements.
    Upkeep,
    /// The Slow turns.
    SlowTurns,
    /// Effects in their last round run out.
    EndOfRound,
    /// Every pass: the AI decides, then queued intents are validated and applied.
    Decisions,
    /// Every pass: the fight ends when one side or none is left.
    Ending,
}

pub(crate) fn plugin(app: &mut App) {
    // Order new phases here.
    chain_phases(
        app,
        FastSlow::ID,
        &[
            (FastSlowSystems::Opening, FastSlowPhase::Opening),
            (FastSlowSystems::RoundStart, FastSlowPhase::RoundStart),
            (FastSlowSystems::FastTurns, FastSlowPhase::FastTurns),
            (FastSlowSystems::Upkeep, FastSlowPhase::Upkeep),
            (FastSlowSystems::SlowTurns, FastSlowPhase::SlowTurns),
            (FastSlowSystems::EndOfRound, FastSlowPhase::EndOfRound),
        ],
        (FastSlowSystems::Decisions, FastSlowSystems::Ending),
        goes_on,
    );
}
