//! The `simple` AI: a plain, legal policy, one intent at a time. Deterministic given the table's
//! seed: its only randomness comes from the table's RNG.

use std::collections::VecDeque;

use bevy_ecs::prelude::*;
use fray_core::dice::TableRng;
use fray_core::location::{accessible_from, are_local, field, is_field, place_id, place_of};
use fray_core::prelude::{RiddenBy, TableIndex};
use fray_core::table::Status;

use crate::actions::can_hit;
use crate::counters::{TACTICAL_POINT, TURN_TOKEN};
use crate::data::{Item, Skill, WeaponKind};
use crate::intent::FiendWakeIntent;
use crate::phase::{ActiveTurn, AftermathStep, FiendWakePhase, Round, current};
use crate::reactions::{Question, asked};
use crate::sheet::{Arsenal, Inventory, MountTraits, Skills, Spells};
use crate::view;

/// The AI stops a turn after this many actions.
pub(super) const MAX_ACTIONS_PER_TURN: u32 = 10;

/// The next intent the AI submits for `e`.
pub fn decide(world: &mut World, e: Entity) -> FiendWakeIntent {
    if let Some((_, q)) = asked(world) {
        return react(world, e, q);
    }
    if world.resource::<ActiveTurn>().actor == Some(e) {
        return turn(world, e);
    }
    match current(world) {
        FiendWakePhase::RoundPrep => armour(world, e),
        FiendWakePhase::BidForPriority => {
            let tp = tp(world, e);
            let bid = world.resource_mut::<TableRng>().below(tp as usize / 2 + 1) as u32;
            FiendWakeIntent::Bid { tp: bid }
        }
        FiendWakePhase::Cede => FiendWakeIntent::Cede { cede: false },
        FiendWakePhase::Aftermath if world.resource::<Round>().aftermath == AftermathStep::FuelSpells => {
            fuel(world, e)
        }
        FiendWakePhase::Aftermath => match weapon_to_arm(world, e, tp(world, e)) {
            Some((weapon, _)) => FiendWakeIntent::Arm { weapon, upgrade: false },
            None => FiendWakeIntent::Pass,
        },
        FiendWakePhase::Harassment => harass(world, e),
        _ => FiendWakeIntent::Pass,
    }
}

/// What the AI submits when its first choice was refused: the safest answer to what it is
/// asked.
pub fn fallback(world: &World, e: Entity) -> FiendWakeIntent {
    if asked(world).is_some() {
        return FiendWakeIntent::Decline;
    }
    if world.resource::<ActiveTurn>().actor == Some(e) {
        return FiendWakeIntent::EndTurn;
    }
    match current(world) {
        FiendWakePhase::RoundPrep => FiendWakeIntent::RefuseArmour { doff: false },
        FiendWakePhase::BidForPriority => FiendWakeIntent::Bid { tp: 0 },
        FiendWakePhase::Cede => FiendWakeIntent::Cede { cede: false },
        _ => FiendWakeIntent::Pass,
    }
}

pub(super) fn tp(world: &World, e: Entity) -> u32 {
    view::count(world, e, TACTICAL_POINT)
}

pub(super) fn skill(world: &World, e: Entity, s: Skill) -> u32 {
    world.get::<Skills>(e).map_or(0, |k| k.level(s))
}

fn react(world: &World, e: Entity, q: Question) -> FiendWakeIntent {
    match q {
        Question::ClearOut => FiendWakeIntent::ClearOut,
        Question::StopRetreat => FiendWakeIntent::StopRetreat,
        Question::Support => FiendWakeIntent::Support { tp: 1, enter: true },
        Question::Intercept => {
            let target = match world.resource::<crate::reactions::Reactions>().held {
                Some(crate::reactions::Held::Attack { target, .. }) => Some(target),
                _ => None,
            };
            match target {
                Some(t) if would_intercept(world, e, t) => FiendWakeIntent::Intercept,
                _ => FiendWakeIntent::Decline,
            }
        }
    }
}

/// The AI steps in front of a friend when it is better protected.
pub fn would_intercept(world: &World, e: Entity, target: Entity) -> bool {
    view::reduction(world, e) > intercept_threshold(world, target)
}

/// What [`would_intercept`] weighs an interceptor's damage reduction against: the target's.
pub fn intercept_threshold(world: &World, target: Entity) -> u32 {
    view::reduction(world, target)
}

pub(super) fn armour(world: &World, e: Entity) -> FiendWakeIntent {
    let cost = view::encumbrance(world, e).unwrap_or(0);
    let tp = tp(world, e);
    let tokens = view::count(world, e, TURN_TOKEN);
    let per = view::catalogue(world).rules.turn_token_tp.max(1);
    if tp >= cost {
        return FiendWakeIntent::PayArmour { tp: cost, turn_tokens: 0 };
    }
    let needed = (cost - tp).div_ceil(per);
    if needed <= tokens {
        FiendWakeIntent::PayArmour { tp, turn_tokens: needed }
    } else {
        FiendWakeIntent::RefuseArmour { doff: false }
    }
}

pub(super) fn fuel(world: &World, e: Entity) -> FiendWakeIntent {
    let mut left = tp(world, e);
    let mut keep = Vec::new();
    for (spec, _) in world.get::<Spells>(e).map(|s| s.0.clone()).unwrap_or_default() {
        let upkeep = spec.upkeep.max(0) as u32;
        if upkeep <= left {
            left -= upkeep;
            keep.push(spec.name);
        }
    }
    FiendWakeIntent::FuelSpells { spells: keep }
}

/// The best carried weapon that is not ready and that `tp` pays for: ranged first.
pub(super) fn weapon_to_arm(world: &World, e: Entity, tp: u32) -> Option<(String, u32)> {
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

pub(super) fn fighting_enemy(world: &World, e: Entity, t: Entity) -> bool {
    view::status(world, t) == Status::Fighting && view::enemies(world, e, t)
}

/// Whether `t` is a fighting enemy of `e` that a weapon of `kind` reaches from `from`.
fn is_target(world: &World, e: Entity, t: Entity, from: Entity, kind: WeaponKind) -> bool {
    fighting_enemy(world, e, t)
        && match kind {
            WeaponKind::Ranged => true,
            WeaponKind::Melee => place_of(world, t).is_some_and(|p| p == from || is_field(world, p)),
        }
}

pub(super) fn enemy_targets(world: &World, e: Entity, from: Entity, kind: WeaponKind) -> Vec<Entity> {
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

/// Locations (not the field) holding fighting enemies of `e`, with how many.
pub(super) fn enemy_held(world: &World, e: Entity) -> Vec<(Entity, usize)> {
    let index = world.resource::<TableIndex>();
    index
        .location_order
        .iter()
        .map(|&l| (l, view::occupying(world, l).filter(|&t| fighting_enemy(world, e, t)).count()))
        .filter(|(_, n)| *n > 0)
        .collect()
}

/// One decision of the AI's turn: mount, arm, a special full action when it fits, move a
/// melee fighter toward enemies, call a shot, attack, end the turn.
fn turn(world: &mut World, e: Entity) -> FiendWakeIntent {
    let turn = world.resource::<ActiveTurn>().clone();
    if turn.actions >= MAX_ACTIONS_PER_TURN {
        return FiendWakeIntent::EndTurn;
    }
    let tp = tp(world, e);
    let full_free = !turn.full_action_used;
    let Some(at) = place_of(world, e) else {
        return FiendWakeIntent::EndTurn;
    };
    let rules = view::catalogue(world).rules.clone();
    if let Some(mount) = free_mount(world, e, false)
        && tp > rules.mount_cost
    {
        return FiendWakeIntent::Mount { mount, upgrade: false };
    }
    let mut kind = view::ready_kind(world, e);
    if kind.is_none() {
        if let Some((weapon, _)) = weapon_to_arm(world, e, tp) {
            return FiendWakeIntent::Arm { weapon, upgrade: false };
        }
        if full_free && let Some(weapon) = world.get::<Arsenal>(e).and_then(|a| a.carried.first().cloned()) {
            return FiendWakeIntent::Arm { weapon, upgrade: true };
        }
    }
    // Special full actions are weighed at the start of the turn (after mounting or arming).
    if full_free
        && turn.actions < 2
        && let Some(intent) = special(world, e, at, kind)
    {
        return intent;
    }
    if kind.is_none() && full_free {
        // Bare hands: grapple a local enemy.
        let local = world
            .resource::<TableIndex>()
            .order
            .clone()
            .into_iter()
            .find(|&t| fighting_enemy(world, e, t) && are_local(world, e, t));
        if let Some(t) = local {
            return FiendWakeIntent::Grapple { target: view::id(world, t) };
        }
    }
    let Some(k) = kind.take() else {
        return FiendWakeIntent::EndTurn;
    };
    if !full_free {
        return FiendWakeIntent::EndTurn;
    }
    let Some(target) = pick_target(world, e, at, k) else {
        return match step_toward_enemy(world, e, at) {
            Some(step) if is_field(world, step) && rules.evacuate_cost <= tp => {
                FiendWakeIntent::Evacuate { upgrade: false }
            }
            Some(step) if !is_field(world, step) && view::entry_cost_for(world, e, step) <= tp => {
                FiendWakeIntent::EnterLocation { location: place_id(world, step), upgrade: false }
            }
            _ => FiendWakeIntent::EndTurn,
        };
    };
    if turn.called == 0 && tp > rules.call_shot_cost + 1 && world.resource_mut::<TableRng>().below(4) == 0 {
        return FiendWakeIntent::CallShot { upgrade: false };
    }
    let target = view::id(world, target);
    match k {
        WeaponKind::Melee => FiendWakeIntent::MeleeAttack { target },
        WeaponKind::Ranged => FiendWakeIntent::RangedAttack { target },
    }
}

/// A local, free mount `e` could ride: trained (or wrangled), or, with `wild`, one the GM
/// lets it wrangle.
pub(super) fn free_mount(world: &World, e: Entity, wild: bool) -> Option<fray_core::ids::MountId> {
    if world.get::<fray_core::prelude::Rides>(e).is_some() {
        return None;
    }
    let index = world.resource::<TableIndex>();
    index.mounts.iter().find_map(|(id, &m)| {
        let traits = world.get::<MountTraits>(m).cloned().unwrap_or_default();
        let fits = if wild {
            traits.untrained && !traits.wrangled && traits.wranglable
        } else {
            !traits.untrained || traits.wrangled
        };
        (fits && world.get::<RiddenBy>(m).is_none() && are_local(world, e, m)).then(|| id.clone())
    })
}

/// A full action other than a plain attack, when it fits: a grenade or a siege weapon on
/// an enemy-held location, a medic for a local friend, caltrops, an assault, wrangling.
pub(super) fn special(
    world: &World,
    e: Entity,
    at: Entity,
    kind: Option<WeaponKind>,
) -> Option<FiendWakeIntent> {
    let held = enemy_held(world, e);
    let carries = |item| world.get::<Inventory>(e).is_some_and(|i| i.0.contains(&item));
    if carries(Item::Grenade)
        && let Some(l) = blast_target(world, e, &held, 2)
    {
        return Some(FiendWakeIntent::ThrowGrenade { location: place_id(world, l) });
    }
    let siege = view::ready_weapon(world, e).is_some_and(|(_, w)| w.siege > 0);
    if siege && let Some(l) = blast_target(world, e, &held, 1) {
        return Some(FiendWakeIntent::Bombard { location: place_id(world, l) });
    }
    if skill(world, e, Skill::Medicine) > 0 {
        let patient = view::occupants(world, at).into_iter().find(|&p| {
            p != e && view::status(world, p) == Status::Unconscious && !view::enemies(world, e, p)
        });
        if let Some(p) = patient {
            return Some(FiendWakeIntent::Medic { patient: view::id(world, p) });
        }
    }
    if carries(Item::Caltrops) {
        let victim =
            world.resource::<TableIndex>().order.clone().into_iter().find(|&t| {
                fighting_enemy(world, e, t) && place_of(world, t).is_some_and(|p| is_field(world, p))
            });
        if let Some(t) = victim {
            return Some(FiendWakeIntent::Caltrops { target: view::id(world, t) });
        }
    }
    if skill(world, e, Skill::Command) >= 2
        && tp(world, e) >= 1
        && kind.is_some()
        && let Some(intent) = assault(world, e, at, &held)
    {
        return Some(intent);
    }
    if skill(world, e, Skill::Totemism) > 0
        && let Some(mount) = free_mount(world, e, true)
    {
        return Some(FiendWakeIntent::Wrangle { mount });
    }
    None
}

/// Where a blast (a grenade, a siege weapon) hurts only enemies: the enemy-held location
/// with the most of them (at least `least`) that holds neither `e` nor any of its friends
/// still on the table.
fn blast_target(world: &World, e: Entity, held: &[(Entity, usize)], least: usize) -> Option<Entity> {
    let friend_in = |l: Entity| {
        view::occupants(world, l).into_iter().any(|t| {
            t == e
                || (!view::enemies(world, e, t)
                    && matches!(view::status(world, t), Status::Fighting | Status::Unconscious))
        })
    };
    held.iter().filter(|&&(l, n)| n >= least && !friend_in(l)).max_by_key(|(_, n)| *n).map(|(l, _)| *l)
}

fn assault(world: &World, e: Entity, at: Entity, held: &[(Entity, usize)]) -> Option<FiendWakeIntent> {
    let index = world.resource::<TableIndex>();
    for &(l, _) in held {
        if l == at {
            continue;
        }
        let occupants: Vec<Entity> =
            index.order.iter().copied().filter(|&o| place_of(world, o) == Some(l)).collect();
        let supporters: Vec<_> = index
            .order
            .iter()
            .copied()
            .filter(|&s| s != e && !view::enemies(world, e, s) && view::can_act(world, s))
            .filter(|&s| place_of(world, s) != Some(l) && tp(world, s) >= 1)
            .filter(|&s| occupants.iter().any(|&o| in_reach(world, s, o)))
            .take(2)
            .map(|s| view::id(world, s))
            .collect();
        if !supporters.is_empty() {
            return Some(FiendWakeIntent::Assault {
                location: place_id(world, l),
                supporters,
                tp: 1,
                raise: 0,
                enter: true,
            });
        }
    }
    None
}

/// The first move on a shortest path from `from` to a place holding a fighting enemy.
pub(super) fn step_toward_enemy(world: &World, e: Entity, from: Entity) -> Option<Entity> {
    let goals: Vec<Entity> = view::combatants(world)
        .into_iter()
        .filter(|&t| fighting_enemy(world, e, t))
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

fn harass(world: &mut World, e: Entity) -> FiendWakeIntent {
    let tp = tp(world, e);
    let (Some(at), Some((_, weapon))) = (place_of(world, e), view::ready_weapon(world, e)) else {
        return FiendWakeIntent::Pass;
    };
    // Melee harassment reaches locals and anyone in no location: the same as a melee attack.
    match pick_target(world, e, at, weapon.kind) {
        Some(t) if tp > 0 => FiendWakeIntent::Harass { allocations: vec![(view::id(world, t), tp)] },
        _ => FiendWakeIntent::Pass,
    }
}

/// Whether `e`'s ready weapon can reach `t` from where `e` stands.
pub fn in_reach(world: &World, e: Entity, t: Entity) -> bool {
    view::ready_kind(world, e).is_some_and(|kind| can_hit(world, e, t, kind))
}
