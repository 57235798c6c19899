//! Fiend Wake's dice: "roll a skill with an attribute against a difficulty".
//!
//! One die per available stack number of the attribute (at least one); the best die plus
//! the skill level is the roll's total; it succeeds at or above the difficulty. Every other
//! die that would have succeeded alone is an extra success ("stacked" dice: precision).
//! The log itemises the difficulty. See RULES.md, "Dice".

use bevy_ecs::prelude::*;
use fray_core::dice::{Modifier, RollReading, RollRecord, TableRng};
use fray_core::log::LogEvent;

use crate::data::{Attribute, Skill};
use crate::sheet::{Attributes, Skills};
use crate::view;

/// A difficulty and the parts that make it, named for the log.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Difficulty(Vec<(&'static str, u32)>);

impl Difficulty {
    /// A difficulty of one part.
    pub fn of(what: &'static str, value: u32) -> Self {
        Self(vec![(what, value)])
    }

    /// With one more part (a part of 0 is left out of the log).
    pub fn plus(mut self, what: &'static str, value: u32) -> Self {
        self.0.push((what, value));
        self
    }

    /// The number to reach.
    pub fn total(&self) -> u32 {
        self.0.iter().map(|(_, v)| v).sum()
    }
}

/// What a roll came to, for the rule that asked for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rolled {
    /// It reached the difficulty.
    pub success: bool,
    /// The best die plus the skill level.
    pub total: u32,
    /// Other dice that alone would have succeeded.
    pub extra_successes: u32,
}

/// Rolls for `e` and logs the roll; `told` is what happens in a commentator's words
/// ("Brannoc shoots at Imp brute").
pub fn roll(
    world: &mut World,
    e: Entity,
    (skill, attribute): (Option<Skill>, Attribute),
    difficulty: Difficulty,
    told: String,
) -> Rolled {
    let dice_count = world.get::<Attributes>(e).map_or(0, |a| a.available_count(attribute)).max(1);
    let modifier = skill.map_or(0, |s| world.get::<Skills>(e).map_or(0, |k| k.level(s)));
    let sides = view::catalogue(world).rules.die_sides;
    let dice: Vec<u32> = {
        let mut rng = world.resource_mut::<TableRng>();
        (0..dice_count).map(|_| rng.die(sides)).collect()
    };
    let target = difficulty.total();
    let best = dice.iter().copied().max().unwrap_or(0);
    let total = best + modifier;
    let success = total >= target;
    let alone = dice.iter().filter(|&&d| d + modifier >= target).count() as u32;
    let extra_successes = alone.saturating_sub(1);
    let record = RollRecord {
        what: match skill {
            Some(s) => format!("{s:?} with {attribute:?}"),
            None => format!("{attribute:?}"),
        },
        dice,
        modifiers: difficulty.0.iter().filter(|(_, v)| *v > 0).map(|&(w, v)| Modifier::new(w, v)).collect(),
        reading: RollReading::BestPlus { modifier, total, difficulty: target, success, extra_successes },
        told: Some(told),
    };
    view::log(world, e, LogEvent::Roll(record));
    Rolled { success, total, extra_successes }
}
