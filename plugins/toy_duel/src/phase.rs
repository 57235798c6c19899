//! The toy duel's phases and the state of the round in progress.

use bevy_ecs::prelude::*;
use fray_core::phase::Phase;

/// The phases of a round, and the end of the fight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ToyPhase {
    /// Everyone standing gains a spark.
    Gather,
    /// Everyone standing strikes once, in scenario order.
    Strike,
    /// The fight is over.
    Over,
}

impl Phase for ToyPhase {
    const ALL: &'static [Self] = &[ToyPhase::Gather, ToyPhase::Strike, ToyPhase::Over];
    const OVER: Self = ToyPhase::Over;

    fn name(self) -> &'static str {
        match self {
            ToyPhase::Gather => "gather",
            ToyPhase::Strike => "strike",
            ToyPhase::Over => "over",
        }
    }

    fn title(self) -> &'static str {
        match self {
            ToyPhase::Gather => "Gather",
            ToyPhase::Strike => "Strike",
            ToyPhase::Over => "Over",
        }
    }
}

/// The round in progress.
#[derive(Resource, Clone, Debug, Default)]
pub struct Duel {
    /// The round, from 1.
    pub round: u32,
    /// The fight ends after this round.
    pub limit: u32,
    /// Who has struck this round.
    pub struck: Vec<Entity>,
    /// The scenario's die and number to reach.
    pub die: u32,
    /// See `die`.
    pub to_hit: u32,
}
