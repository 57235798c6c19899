//! The `tactical` AI: the simple one's aim (a shot or blow worth making, else close in), and
//! besides it:
//! - it **presses**: it attacks from target number 2 (the simple AI from 3), and answers an
//!   enemy's action with an attack on it (a counter) whenever it has one from 2, before
//!   dodging or parrying;
//! - it **focuses**: of the enemies it hits nearly as well as the easiest, it attacks the
//!   most wounded;
//! - with nothing worth attacking while an enemy comes on into its weapon's reach, it
//!   **holds**, and from the hold it
//!   **preempts** an enemy's declared action with a worthwhile attack on that enemy, or acts
//!   as soon as it has a good attack; it stops holding when no enemy comes on;
//! - under an enemy's good shot, with none of its own and no cover, it **runs for cover**
//!   within reach;
//! - on the move, it **changes pace**: breaks into a run when far from where it goes, slows
//!   to a walk when close.
//!
//! It sees what its seat sees: positions, weapons in hand, declared actions once asked about
//! them; never a sealed declaration. Deterministic: it rolls nothing.

use bevy_ecs::prelude::*;

use super::simple::{self, WORTHWHILE};
use crate::data::MoveMode;
use crate::intent::{Action, FateWalkerIntent, Reaction};
use crate::phase::{AskKind, FateWalkerPhase, current};
use crate::{preempt, view};

/// An attack (or a counter) is worth making at this target number or more: measured, a side
/// that attacks (and answers attacks with attacks) from 2 beats one that waits for 3 and
/// dodges (`docs/balance.md`).
const ATTACK_FROM: i32 = 2;
/// Cover this far away (metres) is worth running for.
const COVER_WITHIN: f32 = 8.0;
/// Walking this far or more from the destination, it runs.
const RUN_FROM: f32 = 12.0;
/// Running this close to the destination, it walks (a runner shoots worse).
const WALK_WITHIN: f32 = 4.0;

/// The next intent for `e`, and why.
pub fn decide(world: &World, e: Entity) -> (FateWalkerIntent, String) {
    match current(world) {
        FateWalkerPhase::Preempt => respond(world, e),
        FateWalkerPhase::FreeActions => keep_moving(world, e),
        _ => declare(world, e),
    }
}

fn accepted(world: &World, e: Entity, intent: &FateWalkerIntent) -> bool {
    crate::decisions::validate(world, e, intent).is_ok()
}

fn name(world: &World, e: Entity) -> String {
    view::name(world, e)
}

/// The target's name in an attack.
fn target_of(world: &World, action: &Action) -> String {
    action
        .target()
        .and_then(|t| view::entity(world, t))
        .map_or_else(|| "its enemy".to_owned(), |t| name(world, t))
}

/// Asked about a declared action: from a hold, strike first when worth it; else as simple.
fn respond(world: &World, e: Entity) -> (FateWalkerIntent, String) {
    let Some(ask) = preempt::asked(world).filter(|a| a.responder == e) else {
        return (FateWalkerIntent::Decline, "not asked".to_owned());
    };
    let declared = preempt::asked_about(world, &ask);
    if ask.kind == AskKind::Preempt
        && let Some((actor, _)) = declared.as_ref()
        && let Some((score, attack)) = simple::attack_on(world, e, *actor).filter(|(s, _)| *s >= ATTACK_FROM)
    {
        let intent = FateWalkerIntent::Preempt { action: attack };
        if accepted(world, e, &intent) {
            let why =
                format!("strikes first at {}: a good chance ({score}) before it acts", name(world, *actor));
            return (intent, why);
        }
    }
    // Asked to react: an attack of its own on the actor when it has a fair one (it costs the
    // ticks of an attack, but it hurts), else as the simple AI (defend, or a good counter).
    let counter = declared.as_ref().filter(|_| ask.kind == AskKind::React).and_then(|(actor, _)| {
        let (_, action) = simple::attack_on(world, e, *actor).filter(|(s, _)| *s >= ATTACK_FROM)?;
        Some(FateWalkerIntent::Counter { action }).filter(|c| accepted(world, e, c))
    });
    let intent = counter.unwrap_or_else(|| simple::respond(world, e));
    let who = declared.map_or_else(|| "it".to_owned(), |(actor, _)| name(world, actor));
    let why = match &intent {
        FateWalkerIntent::React { reaction: Reaction::Dodge } => format!("dodges {who}'s attack"),
        FateWalkerIntent::React { reaction: Reaction::Parry } => format!("parries {who}'s attack"),
        FateWalkerIntent::Counter { action } => {
            format!("answers {who} with an attack on {}", target_of(world, action))
        }
        _ if ask.kind == AskKind::Preempt => format!("keeps its hold: no good chance at {who}"),
        _ => format!("lets {who} act: nothing worth spending ticks on"),
    };
    (intent, why)
}

/// An enemy coming toward `e` into the reach of its weapon in hand (moving, its destination
/// nearer `e` than it is now, and within the weapon's long range, or 2 m of a blade).
fn coming_on(world: &World, e: Entity) -> Option<Entity> {
    let here = view::position(world, e);
    let (_, weapon) = view::ready_weapon(world, e)?;
    let reach = if weapon.kind.ranged() { weapon.range.map_or(2.0, |(_, _, long)| long) } else { 2.0 };
    view::combatants(world).into_iter().find(|&t| {
        view::enemies(world, e, t)
            && view::can_act(world, t)
            && view::motion(world, t).is_some_and(|m| {
                let to = view::distance_between(here, m.to);
                to + 0.5 < view::distance_between(here, view::position(world, t)) && to <= reach
            })
    })
}

/// An enemy with a good shot at `e`, if one has.
fn shot_at(world: &World, e: Entity) -> Option<Entity> {
    view::combatants(world).into_iter().find(|&t| {
        view::enemies(world, e, t)
            && view::can_act(world, t)
            && view::ready_weapon(world, t).is_some_and(|(_, w)| w.kind.ranged())
            && simple::attack_on(world, t, e).is_some_and(|(s, _)| s >= WORTHWHILE)
    })
}

/// The nearest cover object's centre within reach, when `e` has none where it stands.
fn cover_near(world: &World, e: Entity) -> Option<(String, [f32; 2])> {
    if view::cover(world, e).is_some() || world.get::<fray_core::prelude::Rides>(e).is_some() {
        return None;
    }
    let here = view::position(world, e);
    view::catalogue(world)
        .0
        .covers
        .iter()
        .map(|c| (c.name.clone(), [c.position.0, c.position.1]))
        .filter(|(_, at)| view::distance_between(here, *at) <= COVER_WITHIN)
        .min_by(|a, b| view::distance_between(here, a.1).total_cmp(&view::distance_between(here, b.1)))
}

/// The attack to make now: among the enemies it hits nearly as easily as the easiest (one
/// target number less at most), the most wounded, so that the side's shots bring enemies
/// down rather than spread; with its target number and why.
fn focused_attack(world: &World, e: Entity) -> Option<(i32, Action, &'static str)> {
    let (best, _) = simple::best_attack(world, e)?;
    let options = view::combatants(world)
        .into_iter()
        .filter(|&t| view::enemies(world, e, t) && view::can_act(world, t));
    // The first of equals, in table order (as the simple AI picks).
    let key = |t: Entity, s: i32| (view::wound_penalty(world, t), s);
    let (t, (score, attack)) = options
        .filter_map(|t| simple::attack_on(world, e, t).filter(|(s, _)| *s >= best - 1).map(|a| (t, a)))
        .reduce(|first, next| if key(next.0, next.1.0) > key(first.0, first.1.0) { next } else { first })?;
    let why =
        if view::wound_penalty(world, t) > 0 { "the most wounded it can hit well" } else { "a good chance" };
    Some((score, attack, why))
}

/// Its tick has come, or it holds: attack, hold, take cover or close in.
fn declare(world: &World, e: Entity) -> (FateWalkerIntent, String) {
    let holding = view::clock(world, e).holding;
    if let Some((score, attack, why)) = focused_attack(world, e).filter(|(s, _, _)| *s >= ATTACK_FROM)
        && view::ready_weapon(world, e).is_some()
    {
        let why = format!("attacks {}: {why} ({score})", target_of(world, &attack));
        return (FateWalkerIntent::Act { action: attack }, why);
    }
    if view::ready_weapon(world, e).is_some()
        && view::motion(world, e).is_none()
        && let Some(foe) = coming_on(world, e)
    {
        let intent = if holding { FateWalkerIntent::KeepHolding } else { FateWalkerIntent::Hold };
        if accepted(world, e, &intent) {
            return (intent, format!("holds, ready to strike first as {} comes on", name(world, foe)));
        }
    }
    if let Some(shooter) = shot_at(world, e)
        && let Some((cover, to)) = cover_near(world, e)
    {
        let action = Action::BeginMoving { mode: MoveMode::Run, to: (to[0], to[1]) };
        let intent = FateWalkerIntent::Act { action };
        if accepted(world, e, &intent) {
            return (intent, format!("runs for the {cover}: {} has a clear shot", name(world, shooter)));
        }
    }
    let action = simple::action(world, e);
    let why = match &action {
        Action::Attack { .. } => format!("attacks {}: the best chance it has", target_of(world, &action)),
        Action::ReadyWeapon { weapon } => format!("readies its {weapon}"),
        Action::BeginMoving { .. } => {
            let foe =
                simple::nearest_enemy(world, e).map_or_else(|| "the enemy".to_owned(), |t| name(world, t));
            format!("closes in on {foe}")
        }
        Action::Wait { .. } if holding => "stops holding: nobody comes on".to_owned(),
        Action::Wait { ticks } => format!("waits {ticks} ticks: no good chance, and on its way"),
        other => other.title().to_owned(),
    };
    (FateWalkerIntent::Act { action }, why)
}

/// At a segment's end: stop when arrived or able to attack, else change pace or go on.
fn keep_moving(world: &World, e: Entity) -> (FateWalkerIntent, String) {
    let intent = simple::keep_moving(world, e);
    let Some(m) = view::motion(world, e) else { return (intent, "stands".to_owned()) };
    if intent == FateWalkerIntent::StopMoving {
        let attack = simple::best_attack(world, e).is_some_and(|(s, _)| s >= WORTHWHILE);
        return (
            intent,
            if attack { "stops: a good chance to attack" } else { "stops: it is there" }.to_owned(),
        );
    }
    let left = view::distance_between(view::position(world, e), m.to);
    let pace = match m.mode {
        MoveMode::Walk if left >= RUN_FROM => {
            Some((MoveMode::Run, format!("breaks into a run: {left:.0} m to go")))
        }
        MoveMode::Run if left <= WALK_WITHIN => {
            Some((MoveMode::Walk, format!("slows to a walk: {left:.0} m to go")))
        }
        _ => None,
    };
    if let Some((mode, why)) = pace {
        let change = FateWalkerIntent::ChangeMovement { mode };
        if accepted(world, e, &change) {
            return (change, why);
        }
    }
    (intent, "keeps moving".to_owned())
}
