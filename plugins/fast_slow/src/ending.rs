//! Leaving combat: the fight ends when at most one side has anyone fighting (or still to
//! arrive); those whose torso was not healed die; the players share XP, the FOG spent by
//! everyone divided among the surviving players.

use std::collections::BTreeSet;

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::ids::SideId;
use fray_core::log::{GameLog, LogEvent};
use fray_core::phase::{RulesStep, go_to};
use fray_core::prelude::{Side, Status, TableIndex};
use fray_core::ruleset::end_fight;
use fray_core::table::{can_act, set_status};

use crate::combat::fog_total;
use crate::phase::{Battle, FastSlowPhase, Fighter};
use crate::schedule::FastSlowSystems;

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(RulesStep, check_end.in_set(FastSlowSystems::Ending));
}

/// Sides with someone fighting or still to arrive.
pub fn sides_in_the_fight(world: &World) -> BTreeSet<SideId> {
    world
        .resource::<TableIndex>()
        .order
        .iter()
        .filter(|&&e| can_act(world, e))
        .filter_map(|&e| world.get::<Side>(e).map(|s| s.0.clone()))
        .collect()
}

fn check_end(world: &mut World) {
    if fray_core::phase::current::<FastSlowPhase>(world) == FastSlowPhase::Over {
        return;
    }
    if sides_in_the_fight(world).len() <= 1 {
        finish(world, "one side or none is left fighting");
    }
}

/// Ends the fight: unhealed torsos kill, XP is shared, the result is set.
pub fn finish(world: &mut World, reason: &str) {
    let order = world.resource::<TableIndex>().order.clone();
    for &e in &order {
        let down = world.get::<Fighter>(e).is_some_and(|f| f.torso_down);
        if down && world.get::<Status>(e).is_some_and(|s| *s != Status::Dead) {
            set_status(world, e, Status::Dead);
        }
    }
    let sides = sides_in_the_fight(world);
    let winner = (sides.len() == 1).then(|| sides.into_iter().next()).flatten();
    let players = world.resource::<Battle>().players.clone();
    let surviving = order
        .iter()
        .filter(|&&e| can_act(world, e) && world.get::<Side>(e).map(|s| &s.0) == players.as_ref())
        .count() as u32;
    let fog = fog_total(world);
    let detail = match fog.checked_div(surviving) {
        Some(xp) => format!("{xp} XP each: {fog} FOG spent ÷ {surviving} surviving players"),
        None => format!("no player survives to gain XP ({fog} FOG spent)"),
    };
    world
        .resource_mut::<GameLog>()
        .push(None, LogEvent::Effect { what: "experience", detail: detail.clone() });
    let reason = format!("{reason}; {detail}");
    let clock = world.resource::<Battle>().round;
    {
        let mut battle = world.resource_mut::<Battle>();
        battle.turn = None;
        battle.pending = None;
        battle.counter = None;
        battle.committing = false;
        battle.free_movers.clear();
    }
    end_fight(world, winner, clock, &reason);
    go_to(world, FastSlowPhase::Over);
}
