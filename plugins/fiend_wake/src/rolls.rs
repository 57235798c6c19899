//! Fiend Wake's dice: "roll a skill with an attribute against a difficulty".
//!
//! One die per available stack number of the attribute (at least one); the best die plus
//! the skill level is the roll's value; it succeeds at or above the difficulty. Every other
//! die that would have succeeded alone is an extra success ("stacked" dice: precision).
//! See RULES.md, "Dice".

use bevy_ecs::prelude::*;
use fray_core::dice::{RollRecord, TableRng};
use fray_core::log::LogEvent;

use crate::data::{Attribute, Skill};
use crate::sheet::{Attributes, Skills};
use crate::view;

/// Rolls for `e` and logs the roll.
pub fn roll(
    world: &mut World,
    e: Entity,
    skill: Option<Skill>,
    attribute: Attribute,
    difficulty: u32,
) -> RollRecord {
    let dice_count = world.get::<Attributes>(e).map_or(0, |a| a.available_count(attribute)).max(1);
    let modifier = skill.map_or(0, |s| world.get::<Skills>(e).map_or(0, |k| k.level(s)));
    let sides = view::catalogue(world).rules.die_sides;
    let dice: Vec<u32> = {
        let mut rng = world.resource_mut::<TableRng>();
        (0..dice_count).map(|_| rng.die(sides)).collect()
    };
    let best = dice.iter().copied().max().unwrap_or(0);
    let value = best + modifier;
    let success = value >= difficulty;
    let alone = dice.iter().filter(|&&d| d + modifier >= difficulty).count() as u32;
    let record = RollRecord {
        what: match skill {
            Some(s) => format!("{s:?} with {attribute:?}"),
            None => format!("{attribute:?}"),
        },
        dice,
        modifier,
        value,
        difficulty,
        success,
        extra_successes: alone.saturating_sub(1),
    };
    view::log(world, e, LogEvent::Roll(record.clone()));
    record
}
