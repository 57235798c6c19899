//! Actions: what each one needs (checked without changing anything), what it costs in
//! ticks, and what it does when it resolves.

use bevy_ecs::prelude::*;
use fray_core::intent::{Rejection, Verdict};
use fray_core::prelude::{FieldPosition, Mount, RiddenBy, Rides, TableIndex};
use fray_core::scenario::on_board;

use crate::combat;
use crate::data::MoveMode;
use crate::intent::Action;
use crate::sheet::{Arms, Motion, Stance};
use crate::view;

/// The most ticks a single wait may last.
pub const MAX_WAIT: u32 = 60;

/// Checks that `e` could take `action` now (timing is checked by `decisions`).
pub fn check(world: &World, e: Entity, action: &Action) -> Verdict {
    let name = view::name(world, e);
    let moving = view::motion(world, e);
    let riding = world.get::<Rides>(e).map(|r| r.0);
    match action {
        Action::Attack { target, through_cover } => {
            let t = view::entity(world, target)
                .ok_or_else(|| Rejection::new(format!("there is no combatant '{target}'")))?;
            combat::check(world, e, t, *through_cover).map(|_| ())
        }
        Action::ReadyWeapon { weapon } => {
            let arms = world.get::<Arms>(e).cloned().unwrap_or_default();
            if !arms.carried.contains(weapon) {
                return Err(Rejection::new(format!("{name} carries no '{weapon}'")));
            }
            if arms.ready.as_ref() == Some(weapon) {
                return Err(Rejection::new(format!("{name} already has it in hand")));
            }
            Ok(())
        }
        Action::BeginMoving { mode, to } => {
            if moving.is_some() {
                return Err(Rejection::new(format!(
                    "{name} is already moving; the movement changes at the end of a segment"
                )));
            }
            if !on_board(*to) {
                return Err(Rejection::new("that point is off the table"));
            }
            if view::distance_between(view::position(world, e), [to.0, to.1]) < 0.5 {
                return Err(Rejection::new(format!("{name} is already there")));
            }
            check_mode(world, e, *mode)?;
            if view::rate(world, e, *mode) <= 0.0 {
                return Err(Rejection::new(format!("{name} cannot move at all that way")));
            }
            Ok(())
        }
        Action::GoProne if view::prone(world, e) => Err(Rejection::new(format!("{name} is already prone"))),
        Action::GoProne if riding.is_some() => Err(Rejection::new(format!("{name} is in a vehicle"))),
        Action::GoProne if moving.is_some() => Err(Rejection::new(format!("{name} must stop moving first"))),
        Action::GoProne => Ok(()),
        Action::StandUp if !view::prone(world, e) => Err(Rejection::new(format!("{name} is not prone"))),
        Action::StandUp if moving.is_some() => {
            Err(Rejection::new(format!("{name} must stop crawling first")))
        }
        Action::StandUp => Ok(()),
        Action::Mount { mount } => {
            let m = world
                .resource::<TableIndex>()
                .mount(mount)
                .filter(|m| world.get::<Mount>(*m).is_some())
                .ok_or_else(|| Rejection::new(format!("there is no vehicle '{mount}'")))?;
            if riding.is_some() {
                return Err(Rejection::new(format!("{name} is already in a vehicle")));
            }
            if world.get::<RiddenBy>(m).is_some() {
                return Err(Rejection::new("someone is already driving it"));
            }
            if moving.is_some() {
                return Err(Rejection::new(format!("{name} must stop moving first")));
            }
            let tables = view::catalogue(world).tables();
            let reach = tables.mount_reach + tables.free_shift;
            let at = world.get::<FieldPosition>(m).map_or([0.0, 0.0], |p| p.0);
            let d = view::distance_between(view::position(world, e), at);
            if d > reach {
                return Err(Rejection::new(format!("the vehicle is {d:.1} m away; get within {reach:.1} m")));
            }
            Ok(())
        }
        Action::Dismount if riding.is_none() => Err(Rejection::new(format!("{name} is in no vehicle"))),
        Action::Dismount if moving.is_some() => Err(Rejection::new(format!("{name} must stop moving first"))),
        Action::Dismount => Ok(()),
        Action::Wait { ticks } if *ticks == 0 || *ticks > MAX_WAIT => {
            Err(Rejection::new(format!("a wait lasts 1 to {MAX_WAIT} ticks")))
        }
        Action::Wait { .. } => Ok(()),
    }
}

/// Checks that `e` may move in `mode` (begun now or changed to at a segment's end).
pub fn check_mode(world: &World, e: Entity, mode: MoveMode) -> Verdict {
    let name = view::name(world, e);
    let riding = world.get::<Rides>(e).is_some();
    match mode {
        MoveMode::Ride if !riding => Err(Rejection::new(format!("{name} is in no vehicle"))),
        MoveMode::Ride => Ok(()),
        _ if riding => Err(Rejection::new(format!("{name} is in a vehicle; only riding moves it"))),
        MoveMode::Crawl => Ok(()),
        _ if view::prone(world, e) && view::motion(world, e).is_none() => {
            Err(Rejection::new(format!("{name} is prone; stand up first (or crawl)")))
        }
        _ => Ok(()),
    }
}

/// What an action costs in ticks.
pub fn cost(world: &World, e: Entity, action: &Action) -> u32 {
    let ticks = view::catalogue(world).tables().ticks;
    let cost = match action {
        Action::Attack { .. } => view::ready_weapon(world, e).map_or(1, |(_, w)| w.ticks),
        Action::ReadyWeapon { .. } => ticks.ready_weapon,
        Action::BeginMoving { .. } => ticks.begin_moving,
        Action::GoProne => ticks.go_prone,
        Action::StandUp => ticks.stand_up,
        Action::Mount { .. } => ticks.mount,
        Action::Dismount => ticks.dismount,
        Action::Wait { ticks } => *ticks,
    };
    cost.max(1)
}

/// Resolves an action. `reaction` is the target's declared reaction to an attack. An action
/// that can no longer happen (its target gone, its vehicle taken) fizzles, logged.
pub fn resolve(
    world: &mut World,
    e: Entity,
    action: &Action,
    reaction: Option<(Entity, crate::intent::Reaction)>,
) {
    if let Err(why) = check(world, e, action) {
        view::effect(world, e, "fizzled", format!("{}: {why}", action.title()));
        return;
    }
    match action {
        Action::Attack { target, through_cover } => {
            let plan =
                view::entity(world, target).and_then(|t| combat::check(world, e, t, *through_cover).ok());
            if let Some(plan) = plan {
                combat::resolve(world, e, &plan, reaction);
            }
        }
        Action::ReadyWeapon { weapon } => {
            if let Some(mut arms) = world.get_mut::<Arms>(e) {
                arms.ready = Some(weapon.clone());
            }
            view::effect(world, e, "ready", weapon.clone());
        }
        Action::BeginMoving { mode, to } => {
            let segment = view::catalogue(world).tables().segment_ticks.max(1);
            let now = view::tick(world);
            world.entity_mut(e).insert(Motion { mode: *mode, to: [to.0, to.1], segment_end: now + segment });
            set_prone(world, e, *mode == MoveMode::Crawl);
            view::effect(world, e, "moving", format!("{mode:?} towards ({:.1}, {:.1})", to.0, to.1));
        }
        Action::GoProne => set_prone(world, e, true),
        Action::StandUp => set_prone(world, e, false),
        Action::Mount { mount } => {
            let Some(m) = world.resource::<TableIndex>().mount(mount) else { return };
            let at = world.get::<FieldPosition>(m).copied().unwrap_or(FieldPosition([0.0, 0.0]));
            world.entity_mut(e).insert((Rides(m), at));
            view::effect(world, e, "mounted", mount.to_string());
        }
        Action::Dismount => {
            world.entity_mut(e).remove::<Rides>();
            view::effect(world, e, "dismounted", String::new());
        }
        Action::Wait { ticks } => view::effect(world, e, "waits", format!("{ticks} ticks")),
    }
}

fn set_prone(world: &mut World, e: Entity, prone: bool) {
    let changed = match world.get_mut::<Stance>(e) {
        Some(mut s) if s.prone != prone => {
            s.prone = prone;
            true
        }
        _ => false,
    };
    if changed {
        view::effect(world, e, if prone { "prone" } else { "standing" }, String::new());
    }
}
