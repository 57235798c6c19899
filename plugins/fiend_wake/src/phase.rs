//! Fiend Wake's phases and the state of the round in progress.

use bevy_ecs::prelude::*;
use fray_core::phase::Phase;

/// The steps of a Fiend Wake round, in order, and the end of the fight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FiendWakePhase {
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

impl Phase for FiendWakePhase {
    const ALL: &'static [Self] = &[
        FiendWakePhase::RoundPrep,
        FiendWakePhase::BidForPriority,
        FiendWakePhase::Cede,
        FiendWakePhase::ExecuteTurns,
        FiendWakePhase::Aftermath,
        FiendWakePhase::Harassment,
        FiendWakePhase::EndOfRound,
        FiendWakePhase::CombatOver,
    ];
    const OVER: Self = FiendWakePhase::CombatOver;

    fn name(self) -> &'static str {
        match self {
            FiendWakePhase::RoundPrep => "round_prep",
            FiendWakePhase::BidForPriority => "bid_for_priority",
            FiendWakePhase::Cede => "cede",
            FiendWakePhase::ExecuteTurns => "execute_turns",
            FiendWakePhase::Aftermath => "aftermath",
            FiendWakePhase::Harassment => "harassment",
            FiendWakePhase::EndOfRound => "end_of_round",
            FiendWakePhase::CombatOver => "combat_over",
        }
    }

    fn title(self) -> &'static str {
        match self {
            FiendWakePhase::RoundPrep => "Round Prep",
            FiendWakePhase::BidForPriority => "Bid for Priority",
            FiendWakePhase::Cede => "Cede",
            FiendWakePhase::ExecuteTurns => "Execute Turns",
            FiendWakePhase::Aftermath => "Aftermath",
            FiendWakePhase::Harassment => "Harassment",
            FiendWakePhase::EndOfRound => "End of Round",
            FiendWakePhase::CombatOver => "Combat Over",
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

/// Turns ended while an intent was being applied (its actor knocked out by its own action):
/// their end is logged once the intent's effects are, so that an action's lines are never
/// split by its turn's end.
#[derive(Resource, Clone, Debug, Default)]
pub struct TurnEnds {
    /// An intent is being applied.
    pub applying: bool,
    /// Whose turns ended meanwhile.
    pub ended: Vec<Entity>,
}

/// Logs the end of `e`'s turn now, or once the intent being applied is done.
pub(crate) fn log_turn_end(world: &mut World, e: Entity) {
    let mut ends = world.resource_mut::<TurnEnds>();
    if ends.applying {
        ends.ended.push(e);
    } else {
        crate::view::log(world, e, fray_core::log::LogEvent::TurnEnded);
    }
}

/// Moves the table to `phase` from an exclusive system.
pub(crate) fn go_to(world: &mut World, phase: FiendWakePhase) {
    fray_core::phase::go_to(world, phase);
}

/// The phase now.
pub fn current(world: &World) -> FiendWakePhase {
    fray_core::phase::current(world)
}
