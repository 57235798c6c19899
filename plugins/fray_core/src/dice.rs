//! The table's one random number generator, seeded from the scenario or the command line.
//! Every die of a battle comes from here, so a seed and the same intents replay exactly.

use bevy_ecs::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// The seeded generator.
#[derive(Resource, Debug, Clone)]
pub struct TableRng(ChaCha8Rng);

impl TableRng {
    /// A generator for this seed.
    pub fn seeded(seed: u64) -> Self {
        Self(ChaCha8Rng::seed_from_u64(seed))
    }

    /// One die with `sides` faces (1..=sides); a die with no faces shows 0.
    pub fn die(&mut self, sides: u32) -> u32 {
        if sides == 0 {
            return 0;
        }
        self.0.random_range(1..=sides)
    }

    /// How far the generator has run, in 32-bit words: saves record it.
    pub fn word_pos(&self) -> u128 {
        self.0.get_word_pos()
    }

    /// Puts the generator at this position of its stream (a replay restores it).
    pub fn set_word_pos(&mut self, pos: u128) {
        self.0.set_word_pos(pos);
    }

    /// A number in `0..n` (0 when `n` is 0), for random tie-breaks and AI choices.
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        self.0.random_range(0..n)
    }
}

/// One roll, as the log records it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollRecord {
    /// What was rolled, e.g. "Firearms with Grace" or "Endurance".
    pub what: String,
    /// The faces shown.
    pub dice: Vec<u32>,
    /// Added to the kept die (a skill level).
    pub modifier: u32,
    /// The roll's value: kept die plus modifier.
    pub value: u32,
    /// What it had to reach.
    pub difficulty: u32,
    /// Whether it did.
    pub success: bool,
    /// Extra dice that also reached the difficulty (precision).
    pub extra_successes: u32,
}
