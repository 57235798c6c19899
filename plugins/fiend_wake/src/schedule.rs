//! Fiend Wake's phase chain, configured in this one place. Every rule system joins one of
//! these sets; none orders itself against another module's systems.

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::phase::chain_phases;
use fray_core::ruleset::Ruleset;

use crate::end_of_round::goes_on;
use crate::phase::FiendWakePhase;

/// One set per phase of the round, in order, then the decisions set and the check for the
/// fight's end. The phases and the decisions run only while two sides or more are standing
/// (once the fight is over, the decisions only refuse what comes in).
#[derive(SystemSet, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FiendWakeSystems {
    /// Round Prep: runs only in [`FiendWakePhase::RoundPrep`]. Starts the round, then hands over to
    /// bidding once every armour is settled.
    RoundPrep,
    /// Bid for Priority: reveals the bids once all are in.
    BidForPriority,
    /// Cede: orders priority once every tied bidder has chosen.
    Cede,
    /// Execute Turns: sets out pending turns and starts the next one.
    ExecuteTurns,
    /// Aftermath: extra turn, fueling spells, spending remaining TP.
    Aftermath,
    /// Harassment: moves through the harassers, lowest priority first.
    Harassment,
    /// End of Round: unconscious rolls, the end-of-fight check, the next round.
    EndOfRound,
    /// Every pass, in any phase: the AI decides for the combatants the rules wait on, then
    /// queued intents are validated and applied (after the fight, refused).
    Decisions,
    /// Every pass: the fight ends the moment one side or none is left standing.
    Ending,
}

pub(crate) fn plugin(app: &mut App) {
    // Order new phases here.
    chain_phases(
        app,
        crate::FiendWake::ID,
        &[
            (FiendWakeSystems::RoundPrep, FiendWakePhase::RoundPrep),
            (FiendWakeSystems::BidForPriority, FiendWakePhase::BidForPriority),
            (FiendWakeSystems::Cede, FiendWakePhase::Cede),
            (FiendWakeSystems::ExecuteTurns, FiendWakePhase::ExecuteTurns),
            (FiendWakeSystems::Aftermath, FiendWakePhase::Aftermath),
            (FiendWakeSystems::Harassment, FiendWakePhase::Harassment),
            (FiendWakeSystems::EndOfRound, FiendWakePhase::EndOfRound),
        ],
        (FiendWakeSystems::Decisions, FiendWakeSystems::Ending),
        goes_on,
    );
}
