//! The AI's simple, legal policy. Deterministic given the table's seed: its only randomness
//! comes from the table's RNG.

use std::collections::VecDeque;

use bevy_ecs::prelude::*;
use fray_core::dice::TableRng;
use fray_core::location::{accessible_from, entry_cost, field, is_field, place_id, place_of};
use fray_core::prelude::TableIndex;
use fray_core::table::Status;
use fray_core::tokens::TokenKind;

use crate::actions::can_hit;
use crate::data::WeaponKind;
use crate::intent::FwIntent;
use crate::phase::{ActiveTurn, FwPhase, current};
use crate::sheet::{Arsenal, Worn};
use crate::view;

/// The intents the AI submits for `e` now (a whole turn at once on its turn).
pub fn decide(world: &mut World, e: Entity) -> Vec<FwIntent> {
    if world.resource::<ActiveTurn>().actor == Some(e) {
        return plan_turn(world, e);
    }
    match current(world) {
        FwPhase::RoundPrep => vec![armour(world, e)],
        FwPhase::BidForPriority => {
            let tp = view::count(world, e, TokenKind::TacticalPoint);
            let bid = world.resource_mut::<TableRng>().below(tp as usize / 2 + 1) as u32;
            vec![FwIntent::Bid { tp: bid }]
        }
        FwPhase::Cede => vec![FwIntent::Cede { cede: false }],
        FwPhase::Aftermath => {
            vec![match weapon_to_arm(world, e, view::count(world, e, TokenKind::TacticalPoint)) {
                Some((weapon, _)) => FwIntent::Arm { weapon, upgrade: false },
                None => FwIntent::Pass,
            }]
        }
        FwPhase::Harassment => vec![harass(world, e)],
        _ => Vec::new(),
    }
}

fn armour(world: &World, e: Entity) -> FwIntent {
    let cost = world
        .get::<Worn>(e)
        .and_then(|w| w.armour.as_deref())
        .and_then(|a| view::catalogue(world).armour(a))
        .map_or(0, |a| a.encumbrance.max(0) as u32);
    let tp = view::count(world, e, TokenKind::TacticalPoint);
    let tokens = view::count(world, e, TokenKind::TurnToken);
    let per = view::catalogue(world).rules.turn_token_tp.max(1);
    if tp >= cost {
        return FwIntent::PayArmour { tp: cost, turn_tokens: 0 };
    }
    let needed = (cost - tp).div_ceil(per);
    if needed <= tokens {
        FwIntent::PayArmour { tp, turn_tokens: needed }
    } else {
        FwIntent::RefuseArmour { doff: false }
    }
}

/// The best carried weapon that is not ready and that `tp` pays for: ranged first.
fn weapon_to_arm(world: &World, e: Entity, tp: u32) -> Option<(String, u32)> {
    let arsenal = world.get::<Arsenal>(e)?;
    if arsenal.ready.is_some() {
        return None;
    }
    let catalogue = view::catalogue(world);
    let mut options: Vec<(String, u32, bool)> = arsenal
        .carried
        .iter()
        .filter_map(|id| {
            let w = catalogue.weapon(id)?;
            Some((id.clone(), w.ready_cost.max(0) as u32, w.kind == WeaponKind::Ranged))
        })
        .filter(|(_, cost, _)| *cost <= tp)
        .collect();
    options.sort_by_key(|(_, _, ranged)| !ranged);
    options.into_iter().next().map(|(id, cost, _)| (id, cost))
}

/// Whether `t` is a fighting enemy of `e` that a weapon of `kind` reaches from `from`.
fn is_target(world: &World, e: Entity, t: Entity, from: Entity, kind: WeaponKind) -> bool {
    view::status(world, t) == Status::Fighting
        && view::enemies(world, e, t)
        && match kind {
            WeaponKind::Ranged => true,
            WeaponKind::Melee => place_of(world, t).is_some_and(|p| p == from || is_field(world, p)),
        }
}

fn enemy_targets(world: &World, e: Entity, from: Entity, kind: WeaponKind) -> Vec<Entity> {
    let index = world.resource::<TableIndex>();
    index.order.iter().copied().filter(|&t| is_target(world, e, t, from, kind)).collect()
}

/// A random target: a few random draws first (cheap in big battles), then a draw among all
/// targets.
fn pick_target(world: &mut World, e: Entity, from: Entity, kind: WeaponKind) -> Option<Entity> {
    let count = world.resource::<TableIndex>().order.len();
    for _ in 0..8 {
        let i = world.resource_mut::<TableRng>().below(count);
        let t = world.resource::<TableIndex>().order[i];
        if is_target(world, e, t, from, kind) {
            return Some(t);
        }
    }
    let targets = enemy_targets(world, e, from, kind);
    if targets.is_empty() {
        return None;
    }
    let i = world.resource_mut::<TableRng>().below(targets.len());
    Some(targets[i])
}

/// Plans a whole turn: arm if needed, move toward enemies a melee weapon cannot reach,
/// attack a random reachable enemy, end the turn.
fn plan_turn(world: &mut World, e: Entity) -> Vec<FwIntent> {
    let mut plan = Vec::new();
    let mut tp = view::count(world, e, TokenKind::TacticalPoint);
    let mut full_used = world.resource::<ActiveTurn>().full_action_used;
    let mut kind = view::ready_weapon(world, e).map(|(_, w)| w.kind);
    if kind.is_none() {
        if let Some((weapon, cost)) = weapon_to_arm(world, e, tp) {
            tp -= cost;
            kind = view::catalogue(world).weapon(&weapon).map(|w| w.kind);
            plan.push(FwIntent::Arm { weapon, upgrade: false });
        } else if let Some(weapon) = world.get::<Arsenal>(e).and_then(|a| a.carried.first().cloned())
            && !full_used
        {
            kind = view::catalogue(world).weapon(&weapon).map(|w| w.kind);
            plan.push(FwIntent::Arm { weapon, upgrade: true });
            full_used = true;
        }
    }
    let Some(kind) = kind else {
        plan.push(FwIntent::EndTurn);
        return plan;
    };
    let Some(mut at) = place_of(world, e) else {
        plan.push(FwIntent::EndTurn);
        return plan;
    };
    if kind == WeaponKind::Melee && pick_target(world, e, at, kind).is_none() {
        for _ in 0..4 {
            let Some(step) = step_toward_enemy(world, e, at) else { break };
            let cost = if is_field(world, step) {
                view::catalogue(world).rules.evacuate_cost
            } else {
                entry_cost(world, step)
            };
            if cost > tp {
                break;
            }
            tp -= cost;
            plan.push(if is_field(world, step) {
                FwIntent::Evacuate { upgrade: false }
            } else {
                FwIntent::EnterLocation { location: place_id(world, step), upgrade: false }
            });
            at = step;
            if pick_target(world, e, at, kind).is_some() {
                break;
            }
        }
    }
    let target = if full_used { None } else { pick_target(world, e, at, kind) };
    if let Some(target) = target {
        let target = view::id(world, target);
        plan.push(match kind {
            WeaponKind::Melee => FwIntent::MeleeAttack { target },
            WeaponKind::Ranged => FwIntent::RangedAttack { target },
        });
    }
    plan.push(FwIntent::EndTurn);
    plan
}

/// The first move on a shortest path from `from` to a place holding a fighting enemy.
fn step_toward_enemy(world: &World, e: Entity, from: Entity) -> Option<Entity> {
    let goals: Vec<Entity> = view::combatants(world)
        .into_iter()
        .filter(|&t| view::status(world, t) == Status::Fighting && view::enemies(world, e, t))
        .filter_map(|t| place_of(world, t))
        .collect();
    let field = field(world)?;
    let mut first: Vec<(Entity, Option<Entity>)> = vec![(from, None)];
    let mut queue = VecDeque::from([from]);
    while let Some(at) = queue.pop_front() {
        let via = first.iter().find(|(p, _)| *p == at).and_then(|(_, v)| *v);
        if at != from && goals.contains(&at) {
            return via;
        }
        let mut next = accessible_from(world, at);
        if at != field {
            next.push(field);
        }
        for to in next {
            if !first.iter().any(|(p, _)| *p == to) {
                first.push((to, via.or(Some(to))));
                queue.push_back(to);
            }
        }
    }
    None
}

fn harass(world: &mut World, e: Entity) -> FwIntent {
    let tp = view::count(world, e, TokenKind::TacticalPoint);
    let (Some(at), Some((_, weapon))) = (place_of(world, e), view::ready_weapon(world, e)) else {
        return FwIntent::Pass;
    };
    // Melee harassment reaches locals and anyone in no location: the same as a melee attack.
    match pick_target(world, e, at, weapon.kind) {
        Some(t) if tp > 0 => FwIntent::Harass { allocations: vec![(view::id(world, t), tp)] },
        _ => FwIntent::Pass,
    }
}

/// Whether `e`'s ready weapon can reach `t` from where `e` stands (for the board).
pub fn in_reach(world: &World, e: Entity, t: Entity) -> bool {
    view::ready_weapon(world, e).is_some_and(|(_, w)| can_hit(world, e, t, w.kind))
}
