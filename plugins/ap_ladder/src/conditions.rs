//! Conditions coming and going, as the conditions table (`data/tables.ron`) says: gaining one
//! (never stunned twice at once; inspired and intimidated lift each other; the Corruption the
//! table gives with it; intoxicated costs Peril too), and those that end at a turn's start or
//! end.

use bevy_ecs::prelude::*;
use fray_core::log::{GameLog, LogEvent};
use fray_core::table::id;

use crate::data::{Condition, Lasts};
use crate::phase::{Battle, Fighter};

/// Gives `e` a condition (logged); false when it had it already.
pub fn add(world: &mut World, e: Entity, c: Condition) -> bool {
    let lasts = world.resource::<Battle>().tables.condition(c).map_or(Lasts::Lifted, |r| r.lasts);
    let Some(mut f) = world.get_mut::<Fighter>(e) else { return false };
    if f.conditions.contains_key(&c) {
        return false;
    }
    f.conditions.insert(c, lasts);
    match c {
        Condition::Inspired => {
            f.conditions.remove(&Condition::Intimidated);
        }
        Condition::Intimidated => {
            f.conditions.remove(&Condition::Inspired);
        }
        _ => {}
    }
    let who = id(world, e);
    let detail = label(world, c);
    world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what: "condition", detail });
    gained(world, e, c);
    true
}

/// What gaining `c` costs at once (mid-fight, or held when the fight opens): the Corruption
/// the table gives with it (6 incapacitated, 1 intoxicated), and for intoxicated 3d10+3
/// physical Peril.
pub fn gained(world: &mut World, e: Entity, c: Condition) {
    if c == Condition::Intoxicated {
        let peril = crate::dice::roll(world, Some(e), "intoxicated Peril", 3, 10, 3);
        crate::combat::harm(world, e, peril, crate::combat::Harm::Peril, None, "intoxicated");
    }
    let corruption = world.resource::<Battle>().tables.condition(c).map_or(0, |r| r.corruption);
    if corruption == 0 {
        return;
    }
    let Some(mut f) = world.get_mut::<Fighter>(e) else { return };
    f.corruption += corruption;
    let total = f.corruption;
    let detail = format!("{corruption} Corruption ({}); {total} in all", label(world, c));
    let who = id(world, e);
    world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what: "corruption", detail });
}

/// The AP the conditions `e` holds take from it at its turn's start.
pub fn ap_lost(world: &World, e: Entity) -> u32 {
    let Some(f) = world.get::<Fighter>(e) else { return 0 };
    let tables = &world.resource::<Battle>().tables;
    f.conditions.keys().filter_map(|c| tables.condition(*c)).map(|r| r.ap_lost).sum()
}

/// Lifts a condition (logged); false when `e` did not have it.
pub fn remove(world: &mut World, e: Entity, c: Condition) -> bool {
    let Some(mut f) = world.get_mut::<Fighter>(e) else { return false };
    if f.conditions.remove(&c).is_none() {
        return false;
    }
    let who = id(world, e);
    let detail = label(world, c);
    world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what: "condition_ended", detail });
    true
}

/// Ends the conditions that last until this point of `e`'s turn.
pub fn expire(world: &mut World, e: Entity, when: Lasts) {
    let ending: Vec<Condition> = world
        .get::<Fighter>(e)
        .map(|f| f.conditions.iter().filter(|(_, l)| **l == when).map(|(c, _)| *c).collect())
        .unwrap_or_default();
    for c in ending {
        remove(world, e, c);
    }
}

/// A condition's label.
pub fn label(world: &World, c: Condition) -> String {
    world.resource::<Battle>().tables.condition(c).map_or_else(|| format!("{c:?}"), |r| r.label.clone())
}
