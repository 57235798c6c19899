//! The intents a combatant could submit now that the rules would accept: candidates
//! filtered through the same validation the rules apply. Used by tests that play random
//! legal games, and by the board to list the legal actions.

use bevy_ecs::prelude::*;
use fray_core::location::{accessible_from, place_id, place_of};
use fray_core::prelude::{Mount, TableIndex};

use crate::counters::{TACTICAL_POINT, TURN_TOKEN};
use crate::decisions::{is_awaited, validate};
use crate::intent::FiendWakeIntent;
use crate::sheet::Arsenal;
use crate::view;
use fray_core::ids::CombatantId;

/// Every accepted intent among a broad set of candidates for `e` (empty when the rules are
/// not waiting on `e`). `AgreeToEnd` is left out.
#[cfg(test)]
pub fn legal_intents(world: &World, e: Entity) -> Vec<FiendWakeIntent> {
    if !is_awaited(world, e) {
        return Vec::new();
    }
    candidates(world, e).into_iter().filter(|i| validate(world, e, i).is_ok()).collect()
}

/// Every candidate for `e` now with the rules' verdict on it: for the board, which shows the
/// refused ones disabled with their reason.
pub fn options(world: &World, e: Entity) -> Vec<(FiendWakeIntent, fray_core::intent::Verdict)> {
    if !is_awaited(world, e) {
        return Vec::new();
    }
    // The first of each: a big board offers hundreds of candidates.
    let mut seen = std::collections::HashSet::new();
    candidates(world, e)
        .into_iter()
        .filter(|i| seen.insert(i.clone()))
        .map(|i| {
            let verdict = validate(world, e, &i).map(|_| ());
            (i, verdict)
        })
        .collect()
}

fn candidates(world: &World, e: Entity) -> Vec<FiendWakeIntent> {
    let tp = view::count(world, e, TACTICAL_POINT);
    let tokens = view::count(world, e, TURN_TOKEN);
    let mut out = Vec::new();
    for t in 0..=tp.min(8) {
        out.push(FiendWakeIntent::Bid { tp: t });
        for tt in 0..=tokens.min(3) {
            out.push(FiendWakeIntent::PayArmour { tp: t, turn_tokens: tt });
        }
        out.push(FiendWakeIntent::Retreat { tp: t, upgrade: false });
        out.push(FiendWakeIntent::Retreat { tp: t, upgrade: true });
    }
    out.extend([
        FiendWakeIntent::Dismount,
        FiendWakeIntent::CallShot { upgrade: false },
        FiendWakeIntent::OddBall { what: "something odd".to_owned(), tp: 1 },
        FiendWakeIntent::OddBallRoll {
            what: "something odder".to_owned(),
            attribute: crate::data::Attribute::Grace,
            difficulty: 6,
        },
        FiendWakeIntent::Intercept,
        FiendWakeIntent::ClearOut,
        FiendWakeIntent::StopRetreat,
        FiendWakeIntent::Support { tp: 1, enter: true },
        FiendWakeIntent::Support { tp: tp.max(1), enter: false },
        FiendWakeIntent::Decline,
        FiendWakeIntent::RefuseArmour { doff: false },
        FiendWakeIntent::RefuseArmour { doff: true },
        FiendWakeIntent::Cede { cede: true },
        FiendWakeIntent::Cede { cede: false },
        FiendWakeIntent::Evacuate { upgrade: false },
        FiendWakeIntent::Evacuate { upgrade: true },
        FiendWakeIntent::EndTurn,
        FiendWakeIntent::Pass,
    ]);
    for upgrade in [false, true] {
        for weapon in world.get::<Arsenal>(e).map(|a| a.carried.clone()).unwrap_or_default() {
            out.push(FiendWakeIntent::Arm { weapon, upgrade });
        }
        if let Some(at) = place_of(world, e) {
            for to in accessible_from(world, at) {
                out.push(FiendWakeIntent::EnterLocation { location: place_id(world, to), upgrade });
            }
        }
        for (id, _) in
            world.resource::<TableIndex>().mounts.iter().filter(|(_, m)| world.get::<Mount>(**m).is_some())
        {
            out.push(FiendWakeIntent::Mount { mount: id.clone(), upgrade });
            if upgrade {
                out.push(FiendWakeIntent::Wrangle { mount: id.clone() });
            }
        }
    }
    let index = world.resource::<TableIndex>();
    let locations: Vec<_> = index.locations.keys().cloned().collect();
    let allies: Vec<CombatantId> = view::combatants(world)
        .into_iter()
        .filter(|&c| c != e && !view::enemies(world, e, c) && view::can_act(world, c))
        .map(|c| view::id(world, c))
        .collect();
    for location in locations {
        out.push(FiendWakeIntent::Bombard { location: location.clone() });
        out.push(FiendWakeIntent::ThrowGrenade { location: location.clone() });
        out.push(FiendWakeIntent::PickUpCaltrops { location: location.clone(), take_wounds: false });
        out.push(FiendWakeIntent::PickUpCaltrops { location: location.clone(), take_wounds: true });
        if !allies.is_empty() {
            out.push(FiendWakeIntent::Assault {
                location: location.clone(),
                supporters: allies.iter().take(2).cloned().collect(),
                tp: tp.min(1),
                raise: 0,
                enter: true,
            });
            out.push(FiendWakeIntent::Assault {
                location,
                supporters: allies.clone(),
                tp,
                raise: 1,
                enter: false,
            });
        }
    }
    let spells: Vec<String> = world
        .get::<crate::sheet::Spells>(e)
        .map(|s| s.0.iter().map(|(spec, _)| spec.name.clone()).collect())
        .unwrap_or_default();
    out.push(FiendWakeIntent::FuelSpells { spells: spells.clone() });
    out.push(FiendWakeIntent::FuelSpells { spells: spells.into_iter().take(1).collect() });
    for t in view::combatants(world) {
        let target = view::id(world, t);
        out.push(FiendWakeIntent::MeleeAttack { target: target.clone() });
        out.push(FiendWakeIntent::RangedAttack { target: target.clone() });
        out.push(FiendWakeIntent::Grapple { target: target.clone() });
        out.push(FiendWakeIntent::Caltrops { target: target.clone() });
        out.push(FiendWakeIntent::Medic { patient: target.clone() });
        if tp > 0 {
            out.push(FiendWakeIntent::Harass { allocations: vec![(target, tp)] });
        }
    }
    out
}
