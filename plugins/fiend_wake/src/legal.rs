//! The intents a combatant could submit now that the rules would accept: candidates
//! filtered through the same validation the rules apply. Used by tests that play random
//! legal games, and by the board to list the legal actions.

use bevy_ecs::prelude::*;
use fray_core::location::{accessible_from, place_id, place_of};
use fray_core::prelude::{Mount, TableIndex};

use fray_core::ids::CombatantId;
use fray_core::table::Status;

use crate::actions::carries;
use crate::counters::TACTICAL_POINT;
use crate::data::{Item, WeaponKind};
use crate::decisions::{Asking, asking, is_awaited, validate};
use crate::intent::FiendWakeIntent;
use crate::reactions::{self, Question};
use crate::sheet::{Arsenal, CaltropsOf};
use crate::view;

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
    // The first of each; a big board offers hundreds, judged on every core.
    let mut unique = candidates(world, e);
    let first: Vec<bool> = {
        let mut seen = std::collections::HashSet::new();
        unique.iter().map(|i| seen.insert(i)).collect()
    };
    let mut kept = first.into_iter();
    unique.retain(|_| kept.next().unwrap_or(false));
    fray_core::cores::map(unique, |i| {
        let verdict = validate(world, e, &i).map(|_| ());
        (i, verdict)
    })
}

/// The candidates that could answer what the rules ask of `e` now (see [`Asking`]).
fn candidates(world: &World, e: Entity) -> Vec<FiendWakeIntent> {
    let mut out = Vec::new();
    match asking(world, e) {
        Asking::Answer => answers(world, e, &mut out),
        Asking::Turn => turn(world, e, &mut out),
        Asking::Armour => armour(world, e, &mut out),
        Asking::Bid => out
            .extend((0..=view::count(world, e, TACTICAL_POINT).min(8)).map(|tp| FiendWakeIntent::Bid { tp })),
        Asking::Cede => {
            out.extend([FiendWakeIntent::Cede { cede: true }, FiendWakeIntent::Cede { cede: false }])
        }
        Asking::Fuel => fuel(world, e, &mut out),
        Asking::Arm => {
            out.push(FiendWakeIntent::Pass);
            arms(world, e, &mut out);
        }
        Asking::Harass => {
            out.push(FiendWakeIntent::Pass);
            harass(world, e, &mut out);
        }
        Asking::Nothing => {}
    }
    out
}

/// The answers to the question `e` is asked, and declining it.
fn answers(world: &World, e: Entity, out: &mut Vec<FiendWakeIntent>) {
    let tp = view::count(world, e, TACTICAL_POINT);
    match reactions::asked(world).map(|(_, q)| q) {
        Some(Question::Intercept) => out.push(FiendWakeIntent::Intercept),
        Some(Question::ClearOut) => out.push(FiendWakeIntent::ClearOut),
        Some(Question::StopRetreat) => out.push(FiendWakeIntent::StopRetreat),
        Some(Question::Support) => {
            out.extend([
                FiendWakeIntent::Support { tp: 1, enter: true },
                FiendWakeIntent::Support { tp: tp.max(1), enter: false },
            ]);
        }
        None => {}
    }
    out.push(FiendWakeIntent::Decline);
}

/// Paying for armour exactly (in TP, in turn tokens, or both when it costs more than a
/// token is worth), or refusing it. The rules accept over-payments too; nobody wants one.
fn armour(world: &World, e: Entity, out: &mut Vec<FiendWakeIntent>) {
    let cost = view::encumbrance(world, e).unwrap_or(0);
    let per = view::catalogue(world).rules.turn_token_tp.max(1);
    out.push(FiendWakeIntent::PayArmour { tp: cost, turn_tokens: 0 });
    out.push(FiendWakeIntent::PayArmour { tp: 0, turn_tokens: cost.div_ceil(per) });
    if cost > per && !cost.is_multiple_of(per) {
        out.push(FiendWakeIntent::PayArmour { tp: cost % per, turn_tokens: cost / per });
    }
    out.extend([FiendWakeIntent::RefuseArmour { doff: false }, FiendWakeIntent::RefuseArmour { doff: true }]);
}

/// Passing, fuelling every spell, or the first only.
fn fuel(world: &World, e: Entity, out: &mut Vec<FiendWakeIntent>) {
    let spells: Vec<String> = world
        .get::<crate::sheet::Spells>(e)
        .map(|s| s.0.iter().map(|(spec, _)| spec.name.clone()).collect())
        .unwrap_or_default();
    out.push(FiendWakeIntent::Pass);
    out.push(FiendWakeIntent::FuelSpells { spells: spells.clone() });
    out.push(FiendWakeIntent::FuelSpells { spells: spells.into_iter().take(1).collect() });
}

/// Readying each weapon carried, as a simple action and as the full one.
fn arms(world: &World, e: Entity, out: &mut Vec<FiendWakeIntent>) {
    let carried = world.get::<Arsenal>(e).map(|a| a.carried.clone()).unwrap_or_default();
    for upgrade in [false, true] {
        out.extend(carried.iter().map(|weapon| FiendWakeIntent::Arm { weapon: weapon.clone(), upgrade }));
    }
}

/// All of `e`'s TP on one combatant still on the table, each in turn.
fn harass(world: &World, e: Entity, out: &mut Vec<FiendWakeIntent>) {
    let tp = view::count(world, e, TACTICAL_POINT);
    if tp == 0 {
        return;
    }
    for t in others(world, e) {
        out.push(FiendWakeIntent::Harass { allocations: vec![(view::id(world, t), tp)] });
    }
}

/// What a turn offers: retreats, the simple actions, readying, moving and mounting, then
/// what is done to a location, then to another combatant on the table.
fn turn(world: &World, e: Entity, out: &mut Vec<FiendWakeIntent>) {
    let tp = view::count(world, e, TACTICAL_POINT);
    for t in 0..=tp.min(8) {
        out.extend([
            FiendWakeIntent::Retreat { tp: t, upgrade: false },
            FiendWakeIntent::Retreat { tp: t, upgrade: true },
        ]);
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
        FiendWakeIntent::Evacuate { upgrade: false },
        FiendWakeIntent::Evacuate { upgrade: true },
        FiendWakeIntent::EndTurn,
    ]);
    let carried = world.get::<Arsenal>(e).map(|a| a.carried.clone()).unwrap_or_default();
    let index = world.resource::<TableIndex>();
    let mounts: Vec<_> = index.mounts.iter().filter(|(_, m)| world.get::<Mount>(**m).is_some()).collect();
    let reachable = place_of(world, e).map(|at| accessible_from(world, at)).unwrap_or_default();
    for upgrade in [false, true] {
        out.extend(carried.iter().map(|weapon| FiendWakeIntent::Arm { weapon: weapon.clone(), upgrade }));
        out.extend(
            reachable
                .iter()
                .map(|&to| FiendWakeIntent::EnterLocation { location: place_id(world, to), upgrade }),
        );
        for (id, _) in &mounts {
            out.push(FiendWakeIntent::Mount { mount: (*id).clone(), upgrade });
            if upgrade {
                out.push(FiendWakeIntent::Wrangle { mount: (*id).clone() });
            }
        }
    }
    let others = others(world, e);
    // The allies who could join an assault: able to act and to pay 1 TP.
    let allies: Vec<(Option<Entity>, CombatantId)> = others
        .iter()
        .copied()
        .filter(|&c| !view::enemies(world, e, c) && view::can_act(world, c))
        .filter(|&c| view::count(world, c, TACTICAL_POINT) >= 1)
        .map(|c| (place_of(world, c), view::id(world, c)))
        .collect();
    // What `e` holds decides what it may throw, fire or scatter: no button for the rest.
    let siege = view::ready_weapon(world, e).is_some_and(|(_, w)| w.siege > 0);
    let grenade = carries(world, e, Item::Grenade);
    let caltrops = carries(world, e, Item::Caltrops);
    let here = place_of(world, e);
    for (location, &l) in &index.locations {
        if siege {
            out.push(FiendWakeIntent::Bombard { location: location.clone() });
        }
        if grenade {
            out.push(FiendWakeIntent::ThrowGrenade { location: location.clone() });
        }
        if world.get::<CaltropsOf>(l).is_some_and(|c| c.0 == e) {
            for take_wounds in [false, true] {
                out.push(FiendWakeIntent::PickUpCaltrops { location: location.clone(), take_wounds });
            }
        }
        if here == Some(l) {
            continue;
        }
        // Those inside a location do not assault it.
        let outside: Vec<CombatantId> =
            allies.iter().filter(|(at, _)| *at != Some(l)).map(|(_, id)| id.clone()).collect();
        if !outside.is_empty() {
            let (supporters, enter) = (outside.iter().take(2).cloned().collect(), true);
            out.push(FiendWakeIntent::Assault {
                location: location.clone(),
                supporters,
                tp: tp.min(1),
                raise: 0,
                enter,
            });
            out.push(FiendWakeIntent::Assault {
                location: location.clone(),
                supporters: outside,
                tp,
                raise: 1,
                enter: false,
            });
        }
    }
    let kind = view::ready_kind(world, e);
    // Caltrops may be scattered around oneself; the rest is done to another.
    if caltrops {
        out.push(FiendWakeIntent::Caltrops { target: view::id(world, e) });
    }
    for t in others {
        let target = view::id(world, t);
        match kind {
            Some(WeaponKind::Melee) => out.push(FiendWakeIntent::MeleeAttack { target: target.clone() }),
            Some(WeaponKind::Ranged) => out.push(FiendWakeIntent::RangedAttack { target: target.clone() }),
            None => {}
        }
        out.push(FiendWakeIntent::Grapple { target: target.clone() });
        if caltrops {
            out.push(FiendWakeIntent::Caltrops { target: target.clone() });
        }
        if view::status(world, t) == Status::Unconscious {
            out.push(FiendWakeIntent::Medic { patient: target });
        }
    }
}

/// The combatants still on the table other than `e`.
fn others(world: &World, e: Entity) -> Vec<Entity> {
    view::combatants(world).into_iter().filter(|&c| c != e && view::on_table(world, c)).collect()
}
