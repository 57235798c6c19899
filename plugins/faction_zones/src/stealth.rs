//! Sneaking: ambushers start concealed and play a bonus round in which only the concealed act.
//! No one can target a concealed character, and those it attacks are taken by surprise (no
//! reaction). It is revealed by any action (attacking, speaking, sprinting...), by a reaction,
//! by being harmed, and by walking into a zone where an enemy stands; other moves are sneaking.
//! Hiding again is a main action, out of every enemy's sight.

use bevy_ecs::prelude::*;
use fray_core::intent::{Rejection, Verdict};
use fray_core::log::{GameLog, LogEvent};
use fray_core::prelude::TableIndex;
use fray_core::table::{can_act, enemies, id, name};

use crate::combat::visible;
use crate::phase::Fighter;
use crate::turns::between;

/// Whether `e` is concealed.
pub fn concealed(world: &World, e: Entity) -> bool {
    world.get::<Fighter>(e).is_some_and(|f| f.concealed)
}

/// Reveals `e` if it is concealed, logging why, and its mount and riders with it (they are
/// seen together).
pub fn reveal(world: &mut World, e: Entity, why: &str) {
    for x in crate::mounts::party_of(world, e) {
        reveal_one(world, x, why);
    }
}

fn reveal_one(world: &mut World, e: Entity, why: &str) {
    let Some(mut f) = world.get_mut::<Fighter>(e).filter(|f| f.concealed) else { return };
    f.concealed = false;
    let who = id(world, e);
    let mut log = world.resource_mut::<GameLog>();
    log.set_concealed(&who, false);
    log.about(&who, LogEvent::Effect { what: "revealed", detail: why.to_owned() });
}

/// Enemies of `e` fighting and not concealed, within `zones` of it.
fn watched_within(world: &World, e: Entity, zones: u32) -> Option<Entity> {
    let order = &world.resource::<TableIndex>().order;
    order.iter().copied().find(|&x| {
        enemies(world, e, x)
            && can_act(world, x)
            && !concealed(world, x)
            && between(world, x, e).is_some_and(|d| d <= zones)
    })
}

/// Reveals `e` when it stands where an enemy sees it close: in its zone.
pub fn after_move(world: &mut World, e: Entity) {
    if concealed(world, e) && watched_within(world, e, 0).is_some() {
        reveal(world, e, "walked in front of an enemy");
    }
}

/// Checks `e` hiding: not concealed, on foot and carrying no one (a mount and its riders are
/// seen together), no enemy in its zone, and, unless its zone is dark, none a zone away.
pub fn check_hide(world: &World, e: Entity) -> Verdict {
    if concealed(world, e) {
        return Err(Rejection::new(format!("{} is already concealed", name(world, e))));
    }
    if let Some(m) = crate::mounts::mount_of(world, e) {
        return Err(Rejection::new(format!(
            "{} rides {}: one hides on foot",
            name(world, e),
            name(world, m)
        )));
    }
    if !crate::mounts::riders(world, e).is_empty() {
        return Err(Rejection::new(format!("{} carries riders: no hiding with them on", name(world, e))));
    }
    let reach = if visible(world, e) { 1 } else { 0 };
    if let Some(x) = watched_within(world, e, reach) {
        return Err(Rejection::new(format!("{} can see {}: no hiding now", name(world, x), name(world, e))));
    }
    Ok(())
}

/// `e` hides (its main action).
pub fn hide(world: &mut World, e: Entity) {
    crate::turns::act(world, e, true);
    if let Some(mut f) = world.get_mut::<Fighter>(e) {
        f.concealed = true;
    }
    let who = id(world, e);
    // The table sees it slip away; what it does next, until revealed, only its own seat.
    let mut log = world.resource_mut::<GameLog>();
    log.about(&who, LogEvent::Effect { what: "hid", detail: String::new() });
    log.set_concealed(&who, true);
}

/// Whether anyone fighting is concealed (the fight opens with a bonus round).
pub fn any_concealed(world: &World) -> bool {
    let order = &world.resource::<TableIndex>().order;
    order.iter().any(|&e| can_act(world, e) && concealed(world, e))
}
