//! Responses to the declared actions, before anything resolves: holders may act
//! preemptively (their action resolves first, and may interdict the declared one); enemies
//! aware of the action may react (the target of an attack by dodging or parrying, anyone by
//! an action of their own), resolving with it. Nobody of a
//! simultaneous group answers its own group's actions; anyone else answers at most one of
//! them, and a preemption excludes a reaction to the same action.

use std::collections::VecDeque;

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::intent::{Rejection, Verdict};
use fray_core::phase::RulesStep;

use crate::actions;
use crate::combat;
use crate::intent::{Action, FateWalkerIntent, Reaction};
use crate::phase::{Ask, AskKind, Choice, FateWalkerPhase, TickState, go_to};
use crate::schedule::FateWalkerSystems;
use crate::view;

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(RulesStep, skip_stale_questions.in_set(FateWalkerSystems::Preempt));
}

/// Lists the questions for the group's declarations: for each action, the enemies of its
/// actor who hold (preempt?), then the enemies aware of it, its target first (react?).
pub(crate) fn ask_for_responses(world: &mut World) {
    let state = world.resource::<TickState>();
    let group = state.group.clone();
    let declarations = state.declarations.clone();
    let mut asks = VecDeque::new();
    for (i, d) in declarations.iter().enumerate() {
        let Choice::Act(action) = &d.choice else { continue };
        if !action.noticeable() {
            continue;
        }
        let may_answer = |e: Entity| {
            !group.contains(&e)
                && view::can_act(world, e)
                && view::clock(world, e).joined
                && view::enemies(world, e, d.actor)
        };
        let everyone = view::combatants(world);
        for &e in &everyone {
            if may_answer(e) && view::clock(world, e).holding {
                asks.push_back(Ask { responder: e, declaration: i, kind: AskKind::Preempt });
            }
        }
        let target = action.target().and_then(|t| view::entity(world, t));
        let reactors = target.into_iter().chain(everyone.into_iter().filter(|&e| Some(e) != target));
        for e in reactors {
            if may_answer(e) && combat::aware_of(world, e, d.actor) {
                asks.push_back(Ask { responder: e, declaration: i, kind: AskKind::React });
            }
        }
    }
    world.resource_mut::<TickState>().asks = asks;
}

/// Whether an ask can still be put: the responder fights, has answered no other action of
/// the group, and (to preempt) still holds.
fn still_open(world: &World, ask: &Ask) -> bool {
    let state = world.resource::<TickState>();
    view::can_act(world, ask.responder)
        && !state.responded.contains(&ask.responder)
        && (ask.kind == AskKind::React || view::clock(world, ask.responder).holding)
}

/// Drops questions that no longer apply; hands over to resolution when none are left.
fn skip_stale_questions(world: &mut World) {
    loop {
        let Some(front) = world.resource::<TickState>().asks.front().copied() else {
            go_to(world, FateWalkerPhase::Resolve);
            return;
        };
        if still_open(world, &front) {
            return;
        }
        world.resource_mut::<TickState>().asks.pop_front();
    }
}

/// The question put to `e` now, if any.
pub fn asked(world: &World) -> Option<Ask> {
    world.resource::<TickState>().asks.front().copied()
}

/// The declared action an ask is about, with its actor.
pub fn asked_about(world: &World, ask: &Ask) -> Option<(Entity, Action)> {
    let d = world.resource::<TickState>().declarations.get(ask.declaration)?.clone();
    match d.choice {
        Choice::Act(a) => Some((d.actor, a)),
        _ => None,
    }
}

/// A checked response.
pub enum Response {
    /// Act first.
    Preempt(Action),
    /// Defend against the attack.
    React(Reaction),
    /// React with an action.
    Counter(Action),
    /// Let it be.
    Decline,
}

/// Checks a response by `e` to the question it is asked.
pub fn check(world: &World, e: Entity, intent: &FateWalkerIntent) -> Verdict<Response> {
    let Some(ask) = asked(world).filter(|a| a.responder == e) else {
        return Err(Rejection::new(format!("{} is asked nothing now", view::name(world, e))));
    };
    match (ask.kind, intent) {
        (_, FateWalkerIntent::Decline) => Ok(Response::Decline),
        (AskKind::Preempt, FateWalkerIntent::Preempt { action }) => {
            actions::check(world, e, action)?;
            Ok(Response::Preempt(action.clone()))
        }
        (AskKind::React, FateWalkerIntent::React { reaction }) => {
            let attack = asked_about(world, &ask).filter(|(_, action)| {
                action.target().and_then(|t| view::entity(world, t)) == Some(e)
                    && matches!(action, Action::Attack { .. })
            });
            let (actor, _) =
                attack.ok_or_else(|| Rejection::new("only the target of an attack dodges or parries"))?;
            let weapon = view::ready_weapon(world, actor)
                .ok_or_else(|| Rejection::new("there is no attack to react to"))?;
            combat::check_reaction(world, e, *reaction, &weapon.1)?;
            Ok(Response::React(*reaction))
        }
        (AskKind::React, FateWalkerIntent::Counter { action }) => {
            actions::check(world, e, action)?;
            Ok(Response::Counter(action.clone()))
        }
        (AskKind::Preempt, _) => Err(Rejection::new("a holder may act preemptively (Preempt) or decline")),
        (AskKind::React, _) => Err(Rejection::new("an aware enemy may react (React, Counter) or decline")),
    }
}

/// Records a response to the question at the front.
pub fn answer(world: &mut World, e: Entity, response: Response) {
    let mut state = world.resource_mut::<TickState>();
    let Some(ask) = state.asks.pop_front() else { return };
    match response {
        Response::Decline => {}
        Response::Preempt(action) => {
            state.responded.insert(e);
            state.preempts.push((e, action, ask.declaration));
        }
        Response::React(reaction) => {
            state.responded.insert(e);
            state.reactions.push((e, reaction, ask.declaration));
        }
        Response::Counter(action) => {
            state.responded.insert(e);
            state.counters.push((e, action, ask.declaration));
        }
    }
}
