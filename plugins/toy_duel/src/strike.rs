//! Gathering sparks and striking: a new round gives everyone standing a spark; a strike
//! spends them all on one die against the number to reach, and a hit fells the target.

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::dice::{Modifier, RollReading, RollRecord, TableRng};
use fray_core::intent::{Rejection, Verdict};
use fray_core::log::{GameLog, LogEvent};
use fray_core::phase::{RulesStep, go_to};
use fray_core::prelude::{Counters, Side, Status, TableIndex};
use fray_core::ruleset::end_fight;
use fray_core::table::{can_act, enemies, id, name, set_status};
use fray_core::tokens::CounterKind;

use crate::phase::{Duel, ToyPhase};
use crate::schedule::ToySystems;

/// A spark: the toy's one counter.
pub const SPARK: CounterKind = CounterKind::new(0, "spark", "spark");

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(RulesStep, gather.in_set(ToySystems::Gather))
        .add_systems(RulesStep, next_round.in_set(ToySystems::Strike))
        .add_systems(RulesStep, check_end.in_set(ToySystems::Ending));
}

fn standing(world: &World) -> Vec<Entity> {
    world.resource::<TableIndex>().order.iter().copied().filter(|&e| can_act(world, e)).collect()
}

/// A new round: everyone standing gains a spark; past the limit, the fight ends.
fn gather(world: &mut World) {
    let round = world.resource::<Duel>().round + 1;
    if round > world.resource::<Duel>().limit {
        finish(world, "the round limit");
        return;
    }
    world.resource_mut::<Duel>().round = round;
    world.resource_mut::<Duel>().struck.clear();
    world.resource_mut::<GameLog>().set_clock(round);
    world.resource_mut::<GameLog>().push(None, LogEvent::RoundStarted);
    for e in standing(world) {
        let Some(mut counters) = world.get_mut::<Counters>(e) else { continue };
        counters.add(SPARK, 1);
        let total = counters.get(SPARK);
        let who = id(world, e);
        world
            .resource_mut::<GameLog>()
            .about(&who, LogEvent::Tokens { token: SPARK, change: 1, total, reason: "gather" });
    }
    go_to(world, ToyPhase::Strike);
}

/// Who strikes now: the first combatant standing who has not struck this round.
pub fn striker(world: &World) -> Option<Entity> {
    let struck = &world.resource::<Duel>().struck;
    standing(world).into_iter().find(|e| !struck.contains(e))
}

/// Once everyone standing has struck, the next round.
fn next_round(world: &mut World) {
    if striker(world).is_none() {
        go_to(world, ToyPhase::Gather);
    }
}

/// Checks a strike by `e` at `target`.
pub fn check(world: &World, e: Entity, target: Entity) -> Verdict {
    if !enemies(world, e, target) {
        return Err(Rejection::new(format!("{} is not an enemy of {}", name(world, target), name(world, e))));
    }
    if !can_act(world, target) {
        return Err(Rejection::new(format!("{} is already down", name(world, target))));
    }
    Ok(())
}

/// Spends every spark on a die against the number to reach; a hit fells the target.
pub fn strike(world: &mut World, e: Entity, target: Entity) {
    world.resource_mut::<Duel>().struck.push(e);
    let sparks = world.get_mut::<Counters>(e).map_or(0, |mut c| c.clear(SPARK));
    let who = id(world, e);
    if sparks > 0 {
        let event = LogEvent::Tokens { token: SPARK, change: -i64::from(sparks), total: 0, reason: "strike" };
        world.resource_mut::<GameLog>().about(&who, event);
    }
    let (die, to_hit) = (world.resource::<Duel>().die, world.resource::<Duel>().to_hit);
    let face = world.resource_mut::<TableRng>().die(die);
    let total = face + sparks;
    let hit = total >= to_hit;
    let roll = RollRecord {
        what: format!("strike at {}", name(world, target)),
        dice: vec![face],
        modifiers: vec![Modifier::new("sparks spent", sparks)],
        reading: RollReading::BestPlus {
            modifier: sparks,
            total,
            difficulty: to_hit,
            success: hit,
            extra_successes: 0,
        },
        told: Some(format!("{} strikes at {}", name(world, e), name(world, target))),
    };
    world.resource_mut::<GameLog>().about(&who, LogEvent::Roll(roll));
    if hit {
        set_status(world, target, Status::Unconscious);
    }
}

/// Whether two sides or more are still standing: a run condition of the phases and the
/// decisions.
pub fn goes_on(world: &World) -> bool {
    fray_core::table::two_sides_fight(world, |e, status| fray_core::table::fights_by_status(world, e, status))
}

/// The fight ends the moment one side or none is left standing.
fn check_end(world: &mut World) {
    if !goes_on(world) {
        finish(world, "one side or none is left standing");
    }
}

fn finish(world: &mut World, reason: &str) {
    let sides: std::collections::BTreeSet<_> =
        standing(world).into_iter().filter_map(|e| world.get::<Side>(e).map(|s| s.0.clone())).collect();
    let winner = (sides.len() == 1).then(|| sides.into_iter().next()).flatten();
    let clock = world.resource::<Duel>().round;
    end_fight::<ToyPhase>(world, winner, clock, reason, fray_core::table::fights_by_status);
}
