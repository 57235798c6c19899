//! A character's turn: full speed (2 zones) with no action, or half speed (1 zone) with a
//! main and a bonus action (or two bonus actions), movement split around the actions.
//! Distances are counted in zones along the adjacency the scenario draws.

use std::collections::VecDeque;

use bevy_ecs::prelude::*;
use fray_core::intent::{Rejection, Verdict};
use fray_core::location::{accessible_from, is_field, place_name, place_of};
use fray_core::log::{GameLog, LogEvent};
use fray_core::prelude::{Location, Occupies, Side};
use fray_core::table::{id, name};

use crate::phase::{Battle, Fighter};

/// Zones from `from` to `to` along the adjacency, if `to` can be reached at all.
pub fn distance(world: &World, from: Entity, to: Entity) -> Option<u32> {
    let mut seen = vec![(from, 0u32)];
    let mut queue = VecDeque::from([(from, 0u32)]);
    while let Some((at, d)) = queue.pop_front() {
        if at == to {
            return Some(d);
        }
        for next in accessible_from(world, at) {
            if !seen.iter().any(|(e, _)| *e == next) {
                seen.push((next, d + 1));
                queue.push_back((next, d + 1));
            }
        }
    }
    None
}

/// The zone a character stands in.
pub fn zone(world: &World, e: Entity) -> Option<Entity> {
    place_of(world, e).filter(|&p| !is_field(world, p))
}

/// Zones between two characters.
pub fn between(world: &World, a: Entity, b: Entity) -> Option<u32> {
    distance(world, zone(world, a)?, zone(world, b)?)
}

/// Nearby: in the same zone.
pub fn nearby(world: &World, a: Entity, b: Entity) -> bool {
    between(world, a, b) == Some(0)
}

/// `e`'s full speed in zones: its sheet's, else the rules block's.
pub fn speed(world: &World, e: Entity) -> u32 {
    let default = world.resource::<Battle>().rules.speed;
    world.get::<Fighter>(e).and_then(|f| f.sheet.speed).unwrap_or(default)
}

/// Zones `e` may still move this turn: full speed with no action taken, else half speed;
/// both doubled when sprinting (`sprint`: as if it sprinted now, a bonus action).
pub fn movement_left_with(world: &World, e: Entity, sprint: bool) -> u32 {
    let Some(f) = world.get::<Fighter>(e) else { return 0 };
    let sprinting = f.sprinting || sprint;
    let speed = speed(world, e) * if sprinting { 2 } else { 1 };
    // Sprinting is itself a bonus action; only other actions halve the speed.
    let others = f.actions() + u32::from(sprint && !f.sprinting) - u32::from(sprinting);
    let limit = if others == 0 { speed } else { speed / 2 };
    limit.saturating_sub(f.moved)
}

/// Zones `e` may still move this turn.
pub fn movement_left(world: &World, e: Entity) -> u32 {
    movement_left_with(world, e, false)
}

/// Checks a move of `e` to zone `to` (`fresh`: at the start of its turn; `sprint`: sprinting
/// first, when it is not sprinting yet).
pub fn check_move(world: &World, e: Entity, to: Entity, fresh: bool, sprint: bool) -> Verdict<u32> {
    if let Some(g) = crate::non_lethal::grabbed_by(world, e) {
        return Err(Rejection::new(format!(
            "{} is grabbed by {}: it cannot move",
            name(world, e),
            name(world, g)
        )));
    }
    if let Some(m) = crate::mounts::mount_of(world, e) {
        return Err(Rejection::new(format!(
            "{} rides {}: it moves with its mount (or dismounts first)",
            name(world, e),
            name(world, m)
        )));
    }
    if sprint && !fresh {
        check_action(world, e, false)?;
    }
    let from = zone(world, e).ok_or_else(|| Rejection::new(format!("{} is in no zone", name(world, e))))?;
    if from == to {
        return Err(Rejection::new(format!("{} is already in {}", name(world, e), place_name(world, to))));
    }
    let d = distance(world, from, to).ok_or_else(|| {
        Rejection::new(format!(
            "{} cannot be reached from {}",
            place_name(world, to),
            place_name(world, from)
        ))
    })?;
    let speed = speed(world, e);
    let left = match (fresh, sprint) {
        (true, false) => speed,
        (true, true) => speed * 2,
        (false, _) => movement_left_with(world, e, sprint),
    };
    if d <= left && !crate::mounts::riders(world, e).is_empty() {
        crate::mounts::check_mount_move(world, e, d)?;
    }
    if d > left {
        let f = world.get::<Fighter>(e).filter(|_| !fresh);
        let sprinting = sprint || f.is_some_and(|f| f.sprinting);
        let acted = f.is_some_and(|f| f.actions() > u32::from(f.sprinting));
        let why = match (acted, sprinting) {
            (true, false) => "half speed, having acted",
            (true, true) => "half speed sprinting, having acted",
            (false, false) => "full speed",
            (false, true) => "full speed sprinting",
        };
        return Err(Rejection::new(format!(
            "{} is {d} zone{} away; {} may move {left} more this turn ({why})",
            place_name(world, to),
            if d == 1 { "" } else { "s" },
            name(world, e)
        )));
    }
    Ok(d)
}

/// Sprints (a bonus action): the turn's speeds doubled.
pub fn sprint(world: &mut World, e: Entity) {
    act(world, e, false);
    if let Some(mut f) = world.get_mut::<Fighter>(e) {
        f.sprinting = true;
    }
    let who = id(world, e);
    world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what: "sprint", detail: String::new() });
}

/// Moves `e` to `to`, `d` zones, dragging along those it holds and carrying its riders;
/// walking into an enemy's sight reveals a concealed mover.
pub fn apply_move(world: &mut World, e: Entity, to: Entity, d: u32) {
    let held = crate::non_lethal::held_by(world, e);
    let riders = crate::mounts::riders(world, e);
    if let Some(mut f) = world.get_mut::<Fighter>(e) {
        f.moved += d;
    }
    for m in std::iter::once(e).chain(held).chain(riders.iter().copied()) {
        place(world, m, to, d);
    }
    // Riders walk into an enemy's sight with their mount.
    for r in riders {
        crate::stealth::after_move(world, r);
    }
    crate::mounts::after_mount_move(world, e);
    crate::stealth::after_move(world, e);
    crate::non_lethal::end_lost_holds(world);
}

/// Puts `m` in zone `to`, logging the move of `d` zones.
pub(crate) fn place(world: &mut World, m: Entity, to: Entity, d: u32) {
    let from = zone(world, m);
    world.entity_mut(m).insert(Occupies(to));
    let (Some(from), Some(l)) = (from, world.get::<Location>(to)) else { return };
    let to_id = l.id.clone();
    let from_id =
        world.get::<Location>(from).map(|l| l.id.clone()).unwrap_or_else(fray_core::ids::LocationId::field);
    let who = id(world, m);
    world.resource_mut::<GameLog>().about(&who, LogEvent::Moved { from: from_id, to: to_id, cost: d });
}

/// Checks an action: a main one (one a turn), or a bonus one (two at most, counting the
/// main); not after moving at full speed; none while grabbed.
pub fn check_action(world: &World, e: Entity, main: bool) -> Verdict {
    let f = world.get::<Fighter>(e).ok_or_else(|| Rejection::new("not a combatant"))?;
    if let Some(g) = crate::non_lethal::grabbed_by(world, e) {
        return Err(Rejection::new(format!(
            "{} is grabbed by {}: it may only try to break free",
            name(world, e),
            name(world, g)
        )));
    }
    let half = speed(world, e) * if f.sprinting { 2 } else { 1 } / 2;
    if f.moved > half {
        return Err(Rejection::new(format!("{} moved at full speed: no action this turn", name(world, e))));
    }
    if main && f.main_used {
        return Err(Rejection::new("one main action a turn, and it is spent"));
    }
    if f.actions() >= 2 {
        return Err(Rejection::new("two actions a turn, and both are spent"));
    }
    Ok(())
}

/// Spends an action (the table resolves what it does); it reveals a concealed character.
pub fn act(world: &mut World, e: Entity, main: bool) {
    crate::stealth::reveal(world, e, "acted");
    if let Some(mut f) = world.get_mut::<Fighter>(e) {
        if main {
            f.main_used = true;
        } else {
            f.bonus_used += 1;
        }
    }
    let who = id(world, e);
    let what = if main { "main_action" } else { "bonus_action" };
    world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what, detail: String::new() });
}

/// `e` gives up: surrendered (out of the fight until an enemy harms it), its weapons thrown
/// down where it stands.
pub fn give_up(world: &mut World, e: Entity) {
    let who = id(world, e);
    world
        .resource_mut::<GameLog>()
        .about(&who, LogEvent::Effect { what: "surrendered", detail: String::new() });
    let mut thrown = Vec::new();
    if let Some(at) = zone(world, e)
        && let Some(mut f) = world.get_mut::<Fighter>(e)
    {
        let held: Vec<usize> = (0..f.sheet.weapons.len()).filter(|&w| f.holds(w)).collect();
        thrown = held.iter().map(|&w| f.sheet.weapons[w].id.clone()).collect();
        f.dropped.extend(held.into_iter().map(|w| (w, at)));
    }
    for weapon in thrown {
        world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what: "threw_down", detail: weapon });
    }
    fray_core::table::set_status(world, e, fray_core::prelude::Status::Surrendered);
    crate::non_lethal::end_lost_holds(world);
}

/// `e` spends its turn surrendering (as its activation, or during its turn): the turn starts
/// first, so the surrender is the turn's and none follows it.
pub fn surrender(world: &mut World, e: Entity) {
    if world.resource::<Battle>().active != Some(e) {
        start_turn(world, e);
    }
    give_up(world, e);
    end_turn(world, e);
}

/// Starts `e`'s turn, and its faction's activation: a mount's riders, or a rider's mount and
/// the other riders, take their parts after it.
pub fn start_turn(world: &mut World, e: Entity) {
    let joint: Vec<Entity> = crate::mounts::party_of(world, e).into_iter().skip(1).collect();
    world.resource_mut::<Battle>().joint = joint;
    start_part(world, e);
}

/// Starts `e`'s part of an activation.
fn start_part(world: &mut World, e: Entity) {
    if let Some(mut f) = world.get_mut::<Fighter>(e) {
        f.moved = 0;
        f.main_used = false;
        f.bonus_used = 0;
        f.sprinting = false;
    }
    world.resource_mut::<Battle>().active = Some(e);
    let who = id(world, e);
    world.resource_mut::<GameLog>().about(&who, LogEvent::TurnStarted);
}

/// Ends `e`'s turn: it has acted; the next part of a joint activation, else the next
/// faction's activation.
pub fn end_turn(world: &mut World, e: Entity) {
    end_part(world, e, true);
}

/// Ends `e`'s part of the activation, spent (`spent`: its turn is taken) or reserved (its
/// reaction kept); then the next of its mount and riders who may still act, else the next
/// faction's activation.
pub fn end_part(world: &mut World, e: Entity, spent: bool) {
    if let Some(mut f) = world.get_mut::<Fighter>(e) {
        if spent {
            f.acted = true;
        } else {
            f.reserved = true;
        }
    }
    world.resource_mut::<Battle>().active = None;
    let who = id(world, e);
    world.resource_mut::<GameLog>().about(&who, LogEvent::TurnEnded);
    let joint = std::mem::take(&mut world.resource_mut::<Battle>().joint);
    let ready = |x: &Entity| {
        fray_core::table::can_act(world, *x)
            && world.get::<Fighter>(*x).is_some_and(|f| !f.acted && !f.reserved)
    };
    // A fight decided in this part (the last of a faction surrendered) starts no other.
    let rest: Vec<Entity> =
        if crate::ending::goes_on(world) { joint.into_iter().filter(ready).collect() } else { Vec::new() };
    if let Some((&next, later)) = rest.split_first() {
        world.resource_mut::<Battle>().joint = later.to_vec();
        start_part(world, next);
    } else if let Some(side) = world.get::<Side>(e).map(|s| s.0.clone()) {
        crate::activation::turn_taken(world, &side);
    }
    world.resource_mut::<fray_core::phase::StepProgress>().mark();
}
