//! Conditions coming and going, as the conditions table (`data/tables.ron`) says: gaining one
//! (never stunned twice at once; inspired and intimidated lift each other; intoxicated costs
//! Peril and Corruption), and those that end at a turn's start or end.

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
    if c == Condition::Intoxicated {
        intoxicated(world, e);
    }
    true
}

/// The Peril and Corruption of getting drunk: 3d10+3 physical Peril, 1 Corruption.
pub fn intoxicated(world: &mut World, e: Entity) {
    let peril = crate::dice::roll(world, Some(e), "intoxicated Peril", 3, 10, 3);
    crate::combat::harm(world, e, peril, crate::combat::Harm::Peril, None, "intoxicated");
    if let Some(mut f) = world.get_mut::<Fighter>(e) {
        f.corruption += 1;
    }
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
