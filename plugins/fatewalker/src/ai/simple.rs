//! The `simple` AI: a legal policy, one intent at a time: shoot or strike the enemy it hits
//! most easily; otherwise close in (running when far), stop when it arrives or can shoot;
//! dodge or parry attacks on itself while it can spare the ticks, else answer an enemy's
//! action with a good shot or blow at that enemy (a counter); never hold or preempt.
//! Deterministic: it rolls nothing.

use bevy_ecs::prelude::*;
use fray_core::prelude::Rides;

use crate::actions;
use crate::combat;
use crate::data::MoveMode;
use crate::intent::{Action, FateWalkerIntent, Reaction};
use crate::phase::{AskKind, FateWalkerPhase, current};
use crate::preempt;
use crate::sheet::Arms;
use crate::view;

/// An attack is worth making at this target number or more.
pub(super) const WORTHWHILE: i32 = 3;
/// A counter (an attack pushed into someone else's action) is worth it from this target
/// number on: it costs the ticks of a whole attack.
pub(super) const COUNTER_FROM: i32 = 5;
/// The AI reacts only while its next action is at most this many ticks away: a reaction
/// pushes that tick further.
pub(super) const REACT_WITHIN: u32 = 6;

/// The next intent the AI submits for `e`.
pub fn decide(world: &World, e: Entity) -> FateWalkerIntent {
    match current(world) {
        FateWalkerPhase::Preempt => respond(world, e),
        FateWalkerPhase::FreeActions => keep_moving(world, e),
        _ => FateWalkerIntent::Act { action: action(world, e) },
    }
}

/// What the AI submits when its first choice was refused: the safest answer.
pub fn fallback(world: &World, e: Entity) -> FateWalkerIntent {
    match current(world) {
        FateWalkerPhase::Preempt => FateWalkerIntent::Decline,
        FateWalkerPhase::FreeActions => FateWalkerIntent::StopMoving,
        _ if view::clock(world, e).holding => FateWalkerIntent::KeepHolding,
        _ => FateWalkerIntent::Act { action: Action::Wait { ticks: 3 } },
    }
}

pub(super) fn respond(world: &World, e: Entity) -> FateWalkerIntent {
    let Some(ask) = preempt::asked(world).filter(|a| a.responder == e && a.kind == AskKind::React) else {
        return FateWalkerIntent::Decline;
    };
    if view::clock(world, e).next > view::tick(world) + REACT_WITHIN {
        return FateWalkerIntent::Decline;
    }
    let Some((actor, trigger)) = preempt::asked_about(world, &ask) else { return FateWalkerIntent::Decline };
    let aimed_at_me = trigger.target().and_then(|t| view::entity(world, t)) == Some(e);
    if let Some((_, weapon)) = view::ready_weapon(world, actor).filter(|_| aimed_at_me) {
        for reaction in [Reaction::Parry, Reaction::Dodge] {
            if combat::check_reaction(world, e, reaction, &weapon).is_ok() {
                return FateWalkerIntent::React { reaction };
            }
        }
    }
    counter(world, e, actor).unwrap_or(FateWalkerIntent::Decline)
}

/// A good attack on the enemy whose action `e` was asked about, as a counter.
fn counter(world: &World, e: Entity, actor: Entity) -> Option<FateWalkerIntent> {
    if !view::enemies(world, e, actor) || view::ready_weapon(world, e).is_none() {
        return None;
    }
    let (_, action) = attack_on(world, e, actor).filter(|(s, _)| *s >= COUNTER_FROM)?;
    actions::check(world, e, &action).is_ok().then_some(FateWalkerIntent::Counter { action })
}

/// The best attack `e` can make now: (target number, action).
pub(super) fn best_attack(world: &World, e: Entity) -> Option<(i32, Action)> {
    let mut best: Option<(i32, Action)> = None;
    for t in view::combatants(world) {
        if !view::enemies(world, e, t) || !view::can_act(world, t) {
            continue;
        }
        if let Some((score, attack)) = attack_on(world, e, t)
            && best.as_ref().is_none_or(|(s, _)| score > *s)
        {
            best = Some((score, attack));
        }
    }
    best
}

/// The best attack of `e` on `t` (in the open, else through cover): its target number less
/// any barrier, and the action; the first of equals.
pub(super) fn attack_on(world: &World, e: Entity, t: Entity) -> Option<(i32, Action)> {
    let mut best: Option<(i32, Action)> = None;
    for through_cover in [false, true] {
        if let Ok(plan) = combat::check(world, e, t, through_cover) {
            let score = plan.target_number - plan.barrier as i32;
            if best.as_ref().is_none_or(|(s, _)| score > *s) {
                best = Some((score, Action::Attack { target: view::id(world, t), through_cover }));
            }
        }
    }
    best
}

pub(super) fn nearest_enemy(world: &World, e: Entity) -> Option<Entity> {
    view::combatants(world)
        .into_iter()
        .filter(|&t| view::enemies(world, e, t) && view::can_act(world, t))
        .min_by(|&a, &b| view::distance(world, e, a).total_cmp(&view::distance(world, e, b)))
}

pub(super) fn action(world: &World, e: Entity) -> Action {
    let legal = |a: &Action| actions::check(world, e, a).is_ok();
    if view::ready_weapon(world, e).is_none()
        && let Some(weapon) = world.get::<Arms>(e).and_then(|a| a.carried.first().cloned())
    {
        return Action::ReadyWeapon { weapon };
    }
    if let Some((score, attack)) = best_attack(world, e)
        && score >= WORTHWHILE
    {
        return attack;
    }
    if view::motion(world, e).is_none() {
        let step = approach(world, e);
        if let Some(a) = step.into_iter().find(legal) {
            return a;
        }
        if let Some((_, attack)) = best_attack(world, e) {
            return attack;
        }
    }
    let wait = view::motion(world, e).map_or(3, |m| m.segment_end.saturating_sub(view::tick(world)).max(1));
    Action::Wait { ticks: wait.min(actions::MAX_WAIT) }
}

/// Getting closer to the nearest enemy: out of the vehicle, up from prone, then moving to
/// the weapon's medium range (or into reach), running when far.
pub(super) fn approach(world: &World, e: Entity) -> Vec<Action> {
    let Some(enemy) = nearest_enemy(world, e) else { return Vec::new() };
    if world.get::<Rides>(e).is_some() {
        return vec![Action::Dismount];
    }
    if view::prone(world, e) {
        return vec![Action::StandUp];
    }
    let here = view::position(world, e);
    let there = view::position(world, enemy);
    let d = view::distance_between(here, there);
    let keep = match view::ready_weapon(world, e) {
        Some((_, w)) if w.kind.ranged() => w.range.map_or(5.0, |(short, medium, _)| short.max(medium * 0.5)),
        _ => 1.0,
    };
    if d <= keep {
        return Vec::new();
    }
    let f = (d - keep) / d;
    let to = (here[0] + (there[0] - here[0]) * f, here[1] + (there[1] - here[1]) * f);
    let mode = if d - keep > 10.0 { MoveMode::Run } else { MoveMode::Walk };
    vec![Action::BeginMoving { mode, to }, Action::BeginMoving { mode: MoveMode::Walk, to }]
}

pub(super) fn keep_moving(world: &World, e: Entity) -> FateWalkerIntent {
    let Some(m) = view::motion(world, e) else { return FateWalkerIntent::StopMoving };
    let arrived = view::distance_between(view::position(world, e), m.to) < 0.5;
    let can_attack = best_attack(world, e).is_some_and(|(s, _)| s >= WORTHWHILE);
    if arrived || can_attack { FateWalkerIntent::StopMoving } else { FateWalkerIntent::ContinueMoving }
}
