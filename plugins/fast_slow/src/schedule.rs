//! Fast & Slow's phase chain, configured in this one place: Round Start, Fast Turns, Upkeep,
//! Slow Turns, End of Round (entering combat first, once).

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::phase::{RulesStep, RulesetSystems, in_phase};
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
    app.configure_sets(
        RulesStep,
        (
            FastSlowSystems::Opening.run_if(in_phase(FastSlowPhase::Opening).and_then(goes_on)),
            FastSlowSystems::RoundStart.run_if(in_phase(FastSlowPhase::RoundStart).and_then(goes_on)),
            FastSlowSystems::FastTurns.run_if(in_phase(FastSlowPhase::FastTurns).and_then(goes_on)),
            FastSlowSystems::Upkeep.run_if(in_phase(FastSlowPhase::Upkeep).and_then(goes_on)),
            FastSlowSystems::SlowTurns.run_if(in_phase(FastSlowPhase::SlowTurns).and_then(goes_on)),
            FastSlowSystems::EndOfRound.run_if(in_phase(FastSlowPhase::EndOfRound).and_then(goes_on)),
            FastSlowSystems::Decisions.run_if(in_phase(FastSlowPhase::Over).or_else(goes_on)),
            FastSlowSystems::Ending.run_if(not(in_phase(FastSlowPhase::Over))),
        )
            .chain()
            .in_set(RulesetSystems(FastSlow::ID)),
    );
}
