//! Entering combat: each side's leader rolls for leadership (highest acts first, the players
//! win ties) and the players' die is the success roll that grants free movement; a surprised
//! side rolls nothing, goes last and gets none. Then those granted move before round one.

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::dice::{Modifier, RollRecord, TableRng};
use fray_core::ids::SideId;
use fray_core::log::{GameLog, LogEvent};
use fray_core::phase::{RulesStep, go_to};
use fray_core::prelude::{Side, TableIndex};
use fray_core::table::{can_act, id, name};

use crate::phase::{Battle, FastSlowPhase, Fighter};
use crate::schedule::FastSlowSystems;

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(RulesStep, open.in_set(FastSlowSystems::Opening));
}

/// The free movement a success roll grants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FreeMovement {
    /// 1–4: none.
    None,
    /// 5–8: one player (the leader).
    One,
    /// 9–12: every player.
    All,
}

/// The success roll's table.
pub fn free_movement(face: u32) -> FreeMovement {
    match face {
        0..=4 => FreeMovement::None,
        5..=8 => FreeMovement::One,
        _ => FreeMovement::All,
    }
}

/// Those of a side still fighting and on the field, in scenario order.
pub fn members(world: &World, side: &SideId) -> Vec<Entity> {
    world
        .resource::<TableIndex>()
        .order
        .iter()
        .copied()
        .filter(|&e| world.get::<Side>(e).is_some_and(|s| &s.0 == side))
        .filter(|&e| can_act(world, e) && world.get::<Fighter>(e).is_some_and(|f| !f.waiting()))
        .collect()
}

/// A side's leader: the one marked so, else its first member.
pub fn leader(world: &World, side: &SideId) -> Option<Entity> {
    let members = members(world, side);
    members
        .iter()
        .copied()
        .find(|&e| world.get::<Fighter>(e).is_some_and(|f| f.sheet.leader))
        .or(members.first().copied())
}

/// Rolls once on entering; then waits for the free movers and goes to the first round.
fn open(world: &mut World) {
    if !world.resource::<Battle>().opened {
        world.resource_mut::<Battle>().opened = true;
        let sides: Vec<SideId> =
            world.resource::<TableIndex>().sides.iter().map(|(s, _)| s.clone()).collect();
        match world.resource::<Battle>().surprised.clone() {
            Some(surprised) => surprise(world, &sides, &surprised),
            None => leadership(world, &sides),
        }
        let order = world.resource::<Battle>().side_order.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        world
            .resource_mut::<GameLog>()
            .push(None, LogEvent::Effect { what: "side_order", detail: order.join(", ") });
    }
    let battle = world.resource::<Battle>();
    if battle.pending.is_some() {
        return;
    }
    let movers = battle.free_movers.clone();
    if movers.iter().all(|&e| !can_act(world, e)) {
        world.resource_mut::<Battle>().free_movers.clear();
        go_to(world, FastSlowPhase::RoundStart);
    }
}

fn surprise(world: &mut World, sides: &[SideId], surprised: &SideId) {
    let mut order: Vec<SideId> = sides.iter().filter(|s| *s != surprised).cloned().collect();
    order.push(surprised.clone());
    world.resource_mut::<Battle>().side_order = order;
    let detail =
        format!("{surprised} is surprised: no leadership roll, it goes last and accrues no FOG in round 1");
    world.resource_mut::<GameLog>().push(None, LogEvent::Effect { what: "surprise", detail });
}

fn leadership(world: &mut World, sides: &[SideId]) {
    let players = world.resource::<Battle>().players.clone();
    let mut rolled: Vec<(SideId, u32, u32)> = Vec::new();
    for side in sides {
        let Some(e) = leader(world, side) else { continue };
        let bonus = world.get::<Fighter>(e).map_or(0, |f| f.sheet.leadership);
        let face = world.resource_mut::<TableRng>().die(12);
        let told = format!("{} rolls leadership for the side", name(world, e));
        let mut roll = RollRecord::sum("leadership", vec![face], i64::from(bonus)).told(told);
        roll.modifiers.push(Modifier::new("leadership", bonus));
        let who = id(world, e);
        world.resource_mut::<GameLog>().about(&who, LogEvent::Roll(roll));
        rolled.push((side.clone(), face + bonus, face));
    }
    // Highest first; the players win ties; other ties keep the scenario's order.
    let mut order = rolled.clone();
    order.sort_by_key(|(side, total, _)| (core::cmp::Reverse(*total), Some(side) != players.as_ref()));
    let mut side_order: Vec<SideId> = order.into_iter().map(|(s, _, _)| s).collect();
    let rest: Vec<SideId> = sides.iter().filter(|s| !side_order.contains(s)).cloned().collect();
    side_order.extend(rest);
    world.resource_mut::<Battle>().side_order = side_order;
    let Some(players) = players else { return };
    let Some(&(_, _, face)) = rolled.iter().find(|(s, _, _)| *s == players) else { return };
    let movers = match free_movement(face) {
        FreeMovement::None => Vec::new(),
        FreeMovement::One => leader(world, &players).into_iter().collect(),
        FreeMovement::All => members(world, &players),
    };
    let detail = format!(
        "{face}: {}",
        match free_movement(face) {
            FreeMovement::None => "no free movement",
            FreeMovement::One => "the players' leader moves first",
            FreeMovement::All => "every player moves first",
        }
    );
    world.resource_mut::<GameLog>().push(None, LogEvent::Effect { what: "success_roll", detail });
    let paces = world.resource::<Battle>().rules.free_paces;
    for &e in &movers {
        if let Some(mut f) = world.get_mut::<Fighter>(e) {
            f.paces = paces;
        }
    }
    world.resource_mut::<Battle>().free_movers = movers;
}
