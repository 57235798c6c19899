//! Fiend Wake's phase chain, configured in this one place. Every rule system joins one of
//! these sets; none orders itself against another module's systems.

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::phase::{RulesStep, RulesetSystems, in_phase};
use fray_core::ruleset::Ruleset;

use crate::phase::FiendWakePhase;

/// One set per phase of the round, in order, then the decisions set.
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
}

pub(crate) fn plugin(app: &mut App) {
    // Order new phases here.
    app.configure_sets(
        RulesStep,
        (
            FiendWakeSystems::RoundPrep.run_if(in_phase(FiendWakePhase::RoundPrep)),
            FiendWakeSystems::BidForPriority.run_if(in_phase(FiendWakePhase::BidForPriority)),
            FiendWakeSystems::Cede.run_if(in_phase(FiendWakePhase::Cede)),
            FiendWakeSystems::ExecuteTurns.run_if(in_phase(FiendWakePhase::ExecuteTurns)),
            FiendWakeSystems::Aftermath.run_if(in_phase(FiendWakePhase::Aftermath)),
            FiendWakeSystems::Harassment.run_if(in_phase(FiendWakePhase::Harassment)),
            FiendWakeSystems::EndOfRound.run_if(in_phase(FiendWakePhase::EndOfRound)),
            FiendWakeSystems::Decisions,
        )
            .chain()
            .in_set(RulesetSystems(crate::FiendWake::ID)),
    );
}
