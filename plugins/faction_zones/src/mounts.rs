//! Mounts and vehicles: a character whose sheet `carries` riders or passengers is a mount; its
//! riders move with it and take one activation with it (the faction's activation passes on
//! only when each of them has had its part, or reserved it to react). A mount moving at full
//! speed leaves its riders no action and no reaction; a rider's attacks are impaired;
//! mounting or dismounting costs a zone of movement, and from a mount that moved this round
//! it needs an AGI save or the character falls (the fall die, direct).

use bevy_ecs::prelude::*;
use fray_core::dice::{RollRecord, TableRng};
use fray_core::intent::{Rejection, Verdict};
use fray_core::log::{GameLog, LogEvent, Source};
use fray_core::prelude::TableIndex;
use fray_core::table::{can_act, enemies, id, name};

use crate::combat::{save, suffer};
use crate::phase::{Battle, Fighter};
use crate::turns::{movement_left, nearby, speed};

/// The mount `e` rides now: fighting, in its zone.
pub fn mount_of(world: &World, e: Entity) -> Option<Entity> {
    let m = world.get::<Fighter>(e)?.rides?;
    (can_act(world, m) && nearby(world, e, m)).then_some(m)
}

/// Those riding `m` now, in scenario order.
pub fn riders(world: &World, m: Entity) -> Vec<Entity> {
    let order = &world.resource::<TableIndex>().order;
    order.iter().copied().filter(|&r| r != m && mount_of(world, r) == Some(m)).collect()
}

/// Who takes one activation together with `e`: its mount and the mount's riders, or its own
/// riders; `e` first, then the mount, then the riders in scenario order.
pub fn party_of(world: &World, e: Entity) -> Vec<Entity> {
    let m = mount_of(world, e).unwrap_or(e);
    let mut all = vec![e];
    all.extend(std::iter::once(m).chain(riders(world, m)).filter(|&x| x != e));
    all
}

/// Whether `m` moved at full speed in its turn this round (its riders can do nothing).
pub fn at_full_speed(world: &World, m: Entity) -> bool {
    world.get::<Fighter>(m).is_some_and(|f| f.moved > speed(world, m) / 2)
}

/// Whether `m` is on the move: it moved in its turn this round.
fn moving(world: &World, m: Entity) -> bool {
    world
        .get::<Fighter>(m)
        .is_some_and(|f| f.moved > 0 && (f.acted || world.resource::<Battle>().active == Some(m)))
}

/// Checks a mount's move of `d` zones: beyond half speed only if no rider has acted this round.
pub fn check_mount_move(world: &World, m: Entity, d: u32) -> Verdict {
    let moved = world.get::<Fighter>(m).map_or(0, |f| f.moved);
    if moved + d <= speed(world, m) / 2 {
        return Ok(());
    }
    match riders(world, m).into_iter().find(|&r| world.get::<Fighter>(r).is_some_and(|f| f.actions() > 0)) {
        Some(r) => Err(Rejection::new(format!(
            "{} acted this round: {} goes at half speed at most",
            name(world, r),
            name(world, m)
        ))),
        None => Ok(()),
    }
}

/// After `m` moves: at full speed, its riders' turns and reactions are spent.
pub fn after_mount_move(world: &mut World, m: Entity) {
    if !at_full_speed(world, m) {
        return;
    }
    for r in riders(world, m) {
        let Some(mut f) = world.get_mut::<Fighter>(r) else { continue };
        if f.acted {
            continue;
        }
        f.acted = true;
        let (who, detail) = (id(world, r), id(world, m).to_string());
        world
            .resource_mut::<GameLog>()
            .about(&who, LogEvent::Effect { what: "carried_at_full_speed", detail });
    }
}

/// Checks `e` getting on `m`: a fighting ally in its zone with room, not itself a rider; a
/// zone of `e`'s movement. Whether an AGI save is needed (`m` on the move).
pub fn check_mount(world: &World, e: Entity, m: Entity) -> Verdict<bool> {
    world.get::<Fighter>(e).ok_or_else(|| Rejection::new("not a combatant"))?;
    if mount_of(world, e).is_some() {
        return Err(Rejection::new(format!("{} is already riding", name(world, e))));
    }
    let carries = world.get::<Fighter>(m).map_or(0, |x| x.sheet.carries);
    if m == e || carries == 0 || enemies(world, e, m) || !can_act(world, m) || !nearby(world, e, m) {
        return Err(Rejection::new(format!(
            "{} is not a mount or vehicle of its side nearby",
            name(world, m)
        )));
    }
    if mount_of(world, m).is_some() || !riders(world, e).is_empty() {
        return Err(Rejection::new("no one rides a rider, nor a mount with riders"));
    }
    if crate::stealth::concealed(world, e) != crate::stealth::concealed(world, m) {
        return Err(Rejection::new(format!(
            "{} and {}: one is concealed and the other seen; they ride only both seen or both unseen",
            name(world, e),
            name(world, m)
        )));
    }
    if riders(world, m).len() as u32 >= carries {
        return Err(Rejection::new(format!("{} carries {carries}, and is full", name(world, m))));
    }
    needs_a_zone(world, e)?;
    Ok(moving(world, m))
}

/// Checks `e` getting off its mount; whether an AGI save is needed.
pub fn check_dismount(world: &World, e: Entity) -> Verdict<bool> {
    let m = mount_of(world, e).ok_or_else(|| Rejection::new(format!("{} rides nothing", name(world, e))))?;
    needs_a_zone(world, e)?;
    Ok(moving(world, m))
}

fn needs_a_zone(world: &World, e: Entity) -> Verdict {
    if movement_left(world, e) == 0 {
        Err(Rejection::new(format!(
            "getting on or off takes a zone of movement; {} has none left",
            name(world, e)
        )))
    } else {
        Ok(())
    }
}

/// `e` gets on `m` (or off its mount, with `None`): a zone of movement; from a mount on the
/// move, an AGI save or a fall (the fall die, direct), and a failed mount stays on foot.
pub fn mount_or_dismount(world: &mut World, e: Entity, m: Option<Entity>, save_needed: bool) {
    if let Some(mut f) = world.get_mut::<Fighter>(e) {
        f.moved += 1;
    }
    let from = mount_of(world, e);
    let steady = !save_needed || {
        let agi = world.get::<Fighter>(e).map_or(0, |f| f.sheet.agi);
        save(world, e, agi, "AGI save against a fall")
    };
    let who = id(world, e);
    if !steady {
        fall(world, e, from.or(m).unwrap_or(e));
        if m.is_some() {
            return;
        }
    }
    if let Some(mut f) = world.get_mut::<Fighter>(e) {
        f.rides = m;
    }
    let (what, detail) = match m.or(from) {
        Some(x) if m.is_some() => ("mounted", id(world, x).to_string()),
        Some(x) => ("dismounted", id(world, x).to_string()),
        None => return,
    };
    world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what, detail });
}

/// `e` falls from `m`: the fall die as direct damage.
fn fall(world: &mut World, e: Entity, m: Entity) {
    let faces = world.resource::<Battle>().rules.fall_die;
    let roll = world.resource_mut::<TableRng>().die(faces);
    let told = format!("{} falls: damage", name(world, e));
    let record = RollRecord::sum(format!("fall damage on {}", name(world, e)), vec![roll], 0).told(told);
    let who = id(world, e);
    world.resource_mut::<GameLog>().about(&who, LogEvent::Roll(record));
    let source = Source::by(format!("a fall from {}", name(world, m)), id(world, m), None);
    suffer(world, e, roll, roll, source);
}
