//! Rolling and logging: skill rolls (dice from an attribute, the skill level with its
//! modifiers as target number, wounded dice from the wound penalty) and damage rolls. A die
//! succeeds when it shows less than its target number (RULES.md, "Dice").

use bevy_ecs::prelude::*;
use fray_core::dice::{Modifier, RollReading, RollRecord, TableRng};
use fray_core::log::LogEvent;

use crate::dice::Pool;
use crate::view;

/// Rolls `count` dice with the table's die (faces from 0).
pub fn faces(world: &mut World, count: u32) -> Vec<u32> {
    let sides = view::catalogue(world).tables().die_faces.max(1);
    let mut rng = world.resource_mut::<TableRng>();
    (0..count).map(|_| rng.die(sides) - 1).collect()
}

/// A skill roll for `e`: `dice` dice at a target number made of `parts` (clamped to the
/// die), wounded by the character's wound penalty, needing `needed` successes. Logged;
/// returns the successes. `told` says it as a commentator would ("Kez shoots at Mara").
pub fn skill_roll(
    world: &mut World,
    e: Entity,
    (what, told): (&str, String),
    dice: u32,
    parts: &[(String, i32)],
    needed: u32,
) -> u32 {
    let max = view::catalogue(world).tables().die_faces as i32;
    let target = parts.iter().map(|(_, v)| v).sum::<i32>().clamp(0, max) as u32;
    let pool = Pool::new(dice, target, view::wound_penalty(world, e));
    let rolled = faces(world, pool.dice());
    let successes = pool.successes(&rolled);
    let record = RollRecord {
        what: what.to_owned(),
        dice: rolled,
        modifiers: parts.iter().filter(|(_, v)| *v != 0).map(|(w, v)| Modifier::new(w.clone(), *v)).collect(),
        reading: RollReading::Successes {
            target,
            under: true,
            wounded: pool.wounded,
            wounded_target: if pool.wounded > 0 { pool.wounded_target() } else { 0 },
            successes,
            needed,
            success: successes >= needed,
        },
        told: Some(told),
    };
    view::log(world, e, LogEvent::Roll(record));
    successes
}

/// A skill roll whose target number is one part: the skill (or the table's number).
pub fn plain_roll(
    world: &mut World,
    e: Entity,
    said: (&str, String),
    dice: u32,
    target: (&str, i32),
    needed: u32,
) -> u32 {
    skill_roll(world, e, said, dice, &[(target.0.to_owned(), target.1)], needed)
}

/// Logs a damage roll: dice under `target` are successes.
pub fn damage_roll(
    world: &mut World,
    e: Entity,
    (what, told): (String, String),
    dice: Vec<u32>,
    target: u32,
) {
    let successes = dice.iter().filter(|&&f| f < target).count() as u32;
    let record = RollRecord {
        what,
        dice,
        modifiers: Vec::new(),
        reading: RollReading::Successes {
            target,
            under: true,
            wounded: 0,
            wounded_target: 0,
            successes,
            needed: 1,
            success: successes >= 1,
        },
        told: Some(told),
    };
    view::log(world, e, LogEvent::Roll(record));
}
