//! The table's one random number generator, seeded from the scenario or the command line.
//! Every die of a battle comes from here, so a seed and the same intents replay exactly.

use bevy_ecs::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use crate::ids::CombatantId;

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

    /// The seed it was made from (the AI's own generator starts from it: [`crate::ai`]).
    pub fn seed(&self) -> [u8; 32] {
        self.0.get_seed()
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

/// One roll, as the log records it: the dice, what made the number they are read against,
/// and what they mean, by the roll's kind.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RollRecord {
    /// What was rolled, in words, e.g. "Firearms with Grace" or "Endurance".
    pub what: String,
    /// The faces shown, in the order rolled.
    pub dice: Vec<u32>,
    /// Every part of the number to reach (or of the total), named.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub modifiers: Vec<Modifier>,
    /// What the dice mean.
    #[serde(flatten)]
    pub reading: RollReading,
    /// The roll as a commentator says it, by display names and whole: who does what to whom
    /// ("Wat is swept by the river"). For the screens; the log keeps `what`.
    #[serde(skip)]
    pub told: Option<String>,
}

/// One named part of a roll's number.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Modifier {
    /// What it is, e.g. "evasion", "cover", "long range".
    pub what: String,
    /// How much it adds (or takes away).
    pub value: i64,
}

impl Modifier {
    /// A part named `what` worth `value`.
    pub fn new(what: impl Into<String>, value: impl Into<i64>) -> Self {
        Self { what: what.into(), value: value.into() }
    }
}

/// How a roll's dice are read; written as its `roll` field with the fields of its kind.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "roll", rename_all = "snake_case")]
pub enum RollReading {
    /// The best die plus a modifier, against a difficulty (Fiend Wake).
    BestPlus {
        /// Added to the best die (a skill level).
        modifier: u32,
        /// The best die plus the modifier.
        total: u32,
        /// What it had to reach.
        difficulty: u32,
        /// Whether it did.
        success: bool,
        /// Other dice that alone would have reached it too (precision).
        extra_successes: u32,
    },
    /// Dice are counted against a target number (FateWalker counts dice under it).
    Successes {
        /// The target number.
        target: u32,
        /// A die succeeds when it shows less than the target (else: at least the target).
        under: bool,
        /// The last `wounded` dice are read against `wounded_target` instead.
        #[serde(skip_serializing_if = "is_zero")]
        wounded: u32,
        /// The target number of the wounded dice.
        #[serde(skip_serializing_if = "is_zero")]
        wounded_target: u32,
        /// Dice that succeeded.
        successes: u32,
        /// Successes needed for the roll to succeed.
        needed: u32,
        /// Whether there were enough.
        success: bool,
    },
    /// The dice added up, with a modifier.
    Sum {
        /// Added to the dice.
        modifier: i64,
        /// The dice plus the modifier.
        total: i64,
    },
    /// A percentile test (the Initiative ladder): a d100 at most `chance` succeeds.
    Percentile {
        /// The chance in percent, every modifier counted (1 to 99).
        chance: u32,
        /// Whether it succeeded.
        success: bool,
        /// A critical: the die's two digits match (11, 22 … 99; 100 fails critically).
        critical: bool,
    },
    /// A random tie-break: the dice drawn for those tied put them in order.
    Draw {
        /// Who was tied, in the order the dice were drawn for them.
        among: Vec<CombatantId>,
        /// The order the draw gave, first first.
        order: Vec<CombatantId>,
    },
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl RollRecord {
    /// Dice added up, with a modifier (name its parts in `modifiers` when there are any).
    pub fn sum(what: impl Into<String>, dice: Vec<u32>, modifier: i64) -> Self {
        let total = dice.iter().map(|&d| i64::from(d)).sum::<i64>() + modifier;
        let reading = RollReading::Sum { modifier, total };
        Self { what: what.into(), dice, modifiers: Vec::new(), reading, told: None }
    }

    /// With the commentator's words for it (see `told`).
    pub fn told(mut self, words: impl Into<String>) -> Self {
        self.told = Some(words.into());
        self
    }

    /// Whether the roll did what it had to (a sum or a draw always does).
    pub fn success(&self) -> bool {
        match self.reading {
            RollReading::BestPlus { success, .. }
            | RollReading::Successes { success, .. }
            | RollReading::Percentile { success, .. } => success,
            RollReading::Sum { .. } | RollReading::Draw { .. } => true,
        }
    }

    /// The roll in words, as its kind reads it.
    pub fn describe(&self) -> String {
        match &self.reading {
            RollReading::Draw { .. } => format!("{}: {}", self.what, self.outcome()),
            _ => format!("{} {}", self.what, self.outcome()),
        }
    }

    /// The dice and what they came to, without what was rolled.
    pub fn outcome(&self) -> String {
        let dice = &self.dice;
        match &self.reading {
            RollReading::BestPlus { modifier, total, difficulty, success, extra_successes } => format!(
                "{dice:?} + {modifier} = {total} against {difficulty}: {}{}",
                if *success { "success" } else { "failure" },
                if *extra_successes > 0 { format!(" ({extra_successes} extra)") } else { String::new() }
            ),
            RollReading::Successes { target, under, successes, needed, .. } => format!(
                "{dice:?}, {} {target}: {successes} success{}{}",
                if *under { "under" } else { "at least" },
                if *successes == 1 { "" } else { "es" },
                if successes < needed { format!(" (needs {needed})") } else { String::new() }
            ),
            RollReading::Sum { modifier, total } => format!("{dice:?} {modifier:+} = {total}"),
            RollReading::Percentile { chance, success, critical } => format!(
                "{dice:?} against {chance}%: {}{}",
                if *critical { "critical " } else { "" },
                if *success { "success" } else { "failure" }
            ),
            RollReading::Draw { order, .. } => {
                let order: Vec<&str> = order.iter().map(CombatantId::as_str).collect();
                format!("a draw {dice:?} puts them {}", order.join(", "))
            }
        }
    }
}
