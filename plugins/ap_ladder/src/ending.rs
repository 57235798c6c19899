//! The end of the fight: when at most one side has anyone still fighting (not slain, out or
//! incapacitated), or at the turn limit; the result goes to the table.

use std::collections::BTreeSet;

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::ids::SideId;
use fray_core::phase::RulesStep;
use fray_core::prelude::{Side, Status, TableIndex};
use fray_core::ruleset::end_fight;

use crate::ApLadderPhase;
use crate::phase::Battle;
use crate::schedule::ApLadderSystems;

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(RulesStep, check_end.in_set(ApLadderSystems::Ending));
}

/// Sides with someone still fighting.
pub fn sides_in_the_fight(world: &World) -> BTreeSet<SideId> {
    world
        .resource::<TableIndex>()
        .order
        .iter()
        .filter(|&&e| fighting(world, e, fray_core::table::status(world, e)))
        .filter_map(|&e| world.get::<Side>(e).map(|s| s.0.clone()))
        .collect()
}

/// No test of its succeeds (Incapacitated!): it cannot fight on.
pub fn incapacitated(world: &World, e: Entity) -> bool {
    world
        .get::<crate::phase::Fighter>(e)
        .is_some_and(|f| crate::dice::any_condition(world, f, |r| r.tests_fail))
}

/// Still fighting: not slain, out or Incapacitated!. The end test and the survivors alike.
pub fn fighting(world: &World, e: Entity, status: Status) -> bool {
    status.can_act() && !incapacitated(world, e)
}

/// Whether two sides or more are still in the fight: a run condition of every phase and of
/// the decisions, so that once at most one side is left no turn or reaction starts and no one
/// acts before the fight ends.
pub fn goes_on(world: &World) -> bool {
    fray_core::table::two_sides_fight(world, |e, status| fighting(world, e, status))
}

fn check_end(world: &mut World) {
    if !goes_on(world) {
        finish(world, "one side or none is left fighting");
    }
}

/// Ends the fight now.
pub fn finish(world: &mut World, reason: &str) {
    let sides = sides_in_the_fight(world);
    let winner = (sides.len() == 1).then(|| sides.into_iter().next()).flatten();
    let clock = world.resource::<Battle>().turn;
    {
        let mut battle = world.resource_mut::<Battle>();
        battle.acting = None;
        battle.pending = None;
    }
    end_fight::<ApLadderPhase>(world, winner, clock, reason, fighting);
}
