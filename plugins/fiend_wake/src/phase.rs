//! Fiend Wake's phases and the state of the round in progress.

use bevy_ecs::prelude::*;
use fray_core::log::GameLog;
use fray_core::phase::{CurrentPhase, Phase, StepProgress, enter_phase};

/// The steps of a Fiend Wake round, in order, and the end of the fight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FwPhase {
    /// Tactical points, turn tokens, armour encumbrance.
    RoundPrep,
    /// Secret bids, revealed together.
    BidForPriority,
    /// Tied bidders choose whether to cede.
    Cede,
    /// Pending turns in priority order until no turn tokens are left.
    ExecuteTurns,
    /// The top bidder's extra turn, fueling spells, spending what TP is left.
    Aftermath,
    /// Lowest priority first, TP spent harassing reachable enemies.
    Harassment,
    /// Unconscious combatants' Endurance rolls; does the fight go on?
    EndOfRound,
    /// The fight is over.
    CombatOver,
}

impl Phase for FwPhase {
    fn name(self) -> &'static str {
        match self {
            FwPhase::RoundPrep => "round_prep",
            FwPhase::BidForPriority => "bid_for_priority",
            FwPhase::Cede => "cede",
            FwPhase::ExecuteTurns => "execute_turns",
            FwPhase::Aftermath => "aftermath",
            FwPhase::Harassment => "harassment",
            FwPhase::EndOfRound => "end_of_round",
            FwPhase::CombatOver => "combat_over",
        }
    }
}

impl FwPhase {
    /// The phase chain of a round, in order (for the board's phase tracker).
    pub const ROUND: [FwPhase; 7] = [
        FwPhase::RoundPrep,
        FwPhase::BidForPriority,
        FwPhase::Cede,
        FwPhase::ExecuteTurns,
        FwPhase::Aftermath,
        FwPhase::Harassment,
        FwPhase::EndOfRound,
    ];

    /// A name for people.
    pub fn title(self) -> &'static str {
        match self {
            FwPhase::RoundPrep => "Round Prep",
            FwPhase::BidForPriority => "Bid for Priority",
            FwPhase::Cede => "Cede",
            FwPhase::ExecuteTurns => "Execute Turns",
            FwPhase::Aftermath => "Aftermath",
            FwPhase::Harassment => "Harassment",
            FwPhase::EndOfRound => "End of Round",
            FwPhase::CombatOver => "Combat Over",
        }
    }
}

/// Where the aftermath stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AftermathStep {
    /// The top bidder's extra turn is to be granted.
    #[default]
    ExtraTurn,
    /// The extra turn is being played.
    PlayingExtraTurn,
    /// Ongoing magical effects are fueled (hook for spell rules).
    FuelSpells,
    /// Combatants, in priority order, may spend what TP they have left (e.g. to arm).
    SpendRemaining,
}

/// The state of the round in progress.
#[derive(Resource, Clone, Debug, Default)]
pub struct Round {
    /// Round number, from 1 once the first round starts.
    pub number: u32,
    /// Whether round prep has granted this round's tokens.
    pub prepared: bool,
    /// Whether the bids have been revealed.
    pub revealed: bool,
    /// Combatants tied with someone on their bid (asked whether to cede).
    pub tied: Vec<Entity>,
    /// The priority order, first to act first.
    pub priority: Vec<Entity>,
    /// Turns executed this round, extra turn excluded.
    pub turns_executed: u32,
    /// Index into `priority` from which the current wave of pending turns goes on.
    pub wave_cursor: usize,
    /// Aftermath progress.
    pub aftermath: AftermathStep,
    /// Index into `priority` of the next combatant asked to spend TP in the aftermath or
    /// to harass.
    pub cursor: usize,
    /// The most rounds this fight may last (the command line's `--max-rounds`).
    pub max_rounds: u32,
}

/// The turn being played.
#[derive(Resource, Clone, Debug, Default)]
pub struct ActiveTurn {
    /// Whose turn it is.
    pub actor: Option<Entity>,
    /// The one full action of the turn has been taken.
    pub full_action_used: bool,
    /// This is the top bidder's aftermath turn (no pending token).
    pub extra: bool,
    /// Shots called for the coming attack.
    pub called: u32,
    /// Actions taken this turn.
    pub actions: u32,
}

/// How and why the fight ended.
#[derive(Resource, Clone, Debug, PartialEq, Eq)]
pub struct FightResult {
    /// The side id left standing, if exactly one.
    pub winner: Option<String>,
    /// Rounds played.
    pub rounds: u32,
    /// Why it ended.
    pub reason: String,
}

/// Moves the table to `phase` from an exclusive system.
pub(crate) fn go_to(world: &mut World, phase: FwPhase) {
    world.resource_scope(|world, mut current: Mut<CurrentPhase<FwPhase>>| {
        world.resource_scope(|world, mut log: Mut<GameLog>| {
            let mut progress = world.resource_mut::<StepProgress>();
            enter_phase(phase, &mut current, &mut log, &mut progress);
        });
    });
}

/// The phase now.
pub(crate) fn current(world: &World) -> FwPhase {
    world.get_resource::<CurrentPhase<FwPhase>>().map_or(FwPhase::CombatOver, |c| c.get())
}
