//! Harassment: from the lowest priority up, each combatant divides its remaining TP among
//! combatants its ready weapon could hit; each target takes second-intention damage times
//! the TP given to it, as one instance of wounds.

use std::collections::BTreeSet;

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::ids::CombatantId;
use fray_core::intent::{Rejection, Verdict};
use fray_core::phase::{RulesStep, StepProgress};
use fray_core::prelude::TableIndex;

use crate::actions::can_hit;
use crate::counters::TACTICAL_POINT;
use crate::damage;
use crate::phase::{FiendWakePhase, Round, go_to};
use crate::schedule::FiendWakeSystems;
use crate::view;

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(RulesStep, next_harasser.in_set(FiendWakeSystems::Harassment));
}

/// The `n`th harasser: lowest priority first.
fn nth(world: &World, n: usize) -> Option<Entity> {
    let priority = &world.resource::<Round>().priority;
    priority.len().checked_sub(n + 1).map(|i| priority[i])
}

/// Everyone `e`'s ready weapon could hit now.
pub fn reachable(world: &World, e: Entity) -> Vec<Entity> {
    let Some(kind) = view::ready_kind(world, e) else {
        return Vec::new();
    };
    view::combatants(world)
        .into_iter()
        .filter(|&t| t != e && view::on_table(world, t) && can_hit(world, e, t, kind))
        .collect()
}

fn can_harass(world: &World, e: Entity) -> bool {
    if !view::can_act(world, e) || view::count(world, e, TACTICAL_POINT) == 0 {
        return false;
    }
    let Some(kind) = view::ready_kind(world, e) else {
        return false;
    };
    let index = world.resource::<TableIndex>();
    index.order.iter().any(|&t| t != e && view::on_table(world, t) && can_hit(world, e, t, kind))
}

fn next_harasser(world: &mut World) {
    let mut cursor = world.resource::<Round>().cursor;
    while nth(world, cursor).is_some_and(|e| !can_harass(world, e)) {
        cursor += 1;
    }
    if cursor != world.resource::<Round>().cursor {
        world.resource_mut::<Round>().cursor = cursor;
        world.resource_mut::<StepProgress>().mark();
    }
    if nth(world, cursor).is_none() {
        world.resource_mut::<Round>().cursor = 0;
        go_to(world, FiendWakePhase::EndOfRound);
    }
}

/// The combatant harassing now.
pub(crate) fn awaiting(world: &World) -> Vec<Entity> {
    let cursor = world.resource::<Round>().cursor;
    nth(world, cursor).filter(|&e| can_harass(world, e)).into_iter().collect()
}

/// Whether the rules wait on `e`'s harassment now (no list made).
pub(crate) fn awaits(world: &World, e: Entity) -> bool {
    let cursor = world.resource::<Round>().cursor;
    nth(world, cursor) == Some(e) && can_harass(world, e)
}

/// Checks an allocation; returns the targets as entities.
pub(crate) fn check(
    world: &World,
    e: Entity,
    allocations: &[(CombatantId, u32)],
) -> Verdict<Vec<(Entity, u32)>> {
    let held = view::count(world, e, TACTICAL_POINT);
    let total: u64 = allocations.iter().map(|(_, tp)| u64::from(*tp)).sum();
    if total > u64::from(held) {
        return Err(Rejection::new(format!("allocates {total} TP but holds only {held}")));
    }
    // Each target is checked alone, not against everyone reachable: a harasser names a few.
    let kind = view::ready_kind(world, e);
    let reaches =
        |t: Entity| t != e && view::on_table(world, t) && kind.is_some_and(|k| can_hit(world, e, t, k));
    let index = world.resource::<TableIndex>();
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for (id, tp) in allocations {
        let t = index.combatant(id).ok_or_else(|| Rejection::new(format!("there is no combatant '{id}'")))?;
        if *tp == 0 {
            return Err(Rejection::new(format!(
                "allocates 0 TP to {}; leave them out instead",
                view::name(world, t)
            )));
        }
        if !seen.insert(t) {
            return Err(Rejection::new(format!("names {} twice", view::name(world, t))));
        }
        if !reaches(t) {
            return Err(Rejection::new(format!("the ready weapon cannot reach {}", view::name(world, t))));
        }
        out.push((t, *tp));
    }
    Ok(out)
}

/// Applies an accepted allocation.
pub(crate) fn harass(world: &mut World, e: Entity, targets: Vec<(Entity, u32)>) {
    let per_tp = view::ready_weapon(world, e).map_or(0, |(_, w)| w.second_intention.max(0) as u32);
    let weapon = view::ready_weapon(world, e).map(|(id, _)| id.to_owned());
    let source = fray_core::log::Source::by(
        format!("{}'s harassment", view::name(world, e)),
        view::id(world, e),
        weapon,
    );
    for (t, tp) in targets {
        view::lose(world, e, TACTICAL_POINT, tp, "harassment");
        damage::wounds(world, t, per_tp.saturating_mul(tp), &source);
    }
    world.resource_mut::<Round>().cursor += 1;
}
