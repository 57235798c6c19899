//! Rolling and logging: skill rolls (dice from an attribute, the skill level as target
//! number, wounded dice from the wound penalty) and damage rolls. The log's roll record
//! carries successes as its value (RULES.md, "The log").

use bevy_ecs::prelude::*;
use fray_core::dice::{RollRecord, TableRng};
use fray_core::log::LogEvent;

use crate::dice::Pool;
use crate::view;

/// Rolls `count` dice with the table's die (faces from 0).
pub fn faces(world: &mut World, count: u32) -> Vec<u32> {
    let sides = view::catalogue(world).tables().die_faces.max(1);
    let mut rng = world.resource_mut::<TableRng>();
    (0..count).map(|_| rng.die(sides) - 1).collect()
}

/// A skill roll for `e`: `dice` dice at `target` (clamped to the die), wounded by the
/// character's wound penalty, needing `needed` successes. Logged; returns the successes.
pub fn skill_roll(world: &mut World, e: Entity, what: &str, dice: u32, target: i32, needed: u32) -> u32 {
    let max = view::catalogue(world).tables().die_faces as i32;
    let target = target.clamp(0, max) as u32;
    let pool = Pool::new(dice, target, view::wound_penalty(world, e));
    let rolled = faces(world, pool.dice());
    let successes = pool.successes(&rolled);
    let what = if pool.wounded > 0 {
        format!("{what} ({} wounded at {})", pool.wounded, pool.wounded_target())
    } else {
        what.to_owned()
    };
    record(world, e, what, rolled, target, successes, needed);
    successes
}

/// Logs a roll: value = successes, difficulty = target number, success = enough successes.
pub fn record(
    world: &mut World,
    e: Entity,
    what: String,
    dice: Vec<u32>,
    target: u32,
    successes: u32,
    needed: u32,
) {
    let record = RollRecord {
        what,
        dice,
        modifier: 0,
        value: successes,
        difficulty: target,
        success: successes >= needed,
        extra_successes: successes.saturating_sub(needed),
    };
    view::log(world, e, LogEvent::Roll(record));
}
