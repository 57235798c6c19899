//! Leaving combat: the fight ends when at most one side has anyone fighting (or still to
//! arrive); those whose torso was not healed die; the players share XP, the FOG spent by
//! everyone divided among the surviving players.

use std::collections::BTreeSet;

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::ids::SideId;
use fray_core::log::{GameLog, LogEvent};
use fray_core::phase::RulesStep;
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

/// Whether two sides or more are still in the fight: a run condition of every phase and of
/// the decisions, so that once at most one side is left no turn, round or reaction starts and
/// no one acts before the fight ends.
pub fn goes_on(world: &World) -> bool {
    fray_core::table::two_sides_fight(world, |e, status| fray_core::table::fights_by_status(world, e, status))
}

fn check_end(world: &mut World) {
    if !goes_on(world) {
        finish(world, "one side or none is left fighting");
    }
}

/// Ends the fight: unhealed torsos kill, XP is shared, the result is set.
pub fn finish(world: &mut World, reason: &str) {
    end(world, reason, true);
}

/// Ends the fight at the round limit, with no winner (RULES.md).
pub fn finish_at_the_limit(world: &mut World) {
    end(world, "the round limit", false);
}

fn end(world: &mut World, reason: &str, may_win: bool) {
    let order = world.resource::<TableIndex>().order.clone();
    for &e in &order {
        let down = world.get::<Fighter>(e).is_some_and(|f| f.torso_down);
        if down && world.get::<Status>(e).is_some_and(|s| *s != Status::Dead) {
            set_status(world, e, Status::Dead);
        }
    }
    let sides = sides_in_the_fight(world);
    let winner = (may_win && sides.len() == 1).then(|| sides.into_iter().next()).flatten();
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
    end_fight::<FastSlowPhase>(world, winner, clock, &reason, fray_core::table::fights_by_status);
}
