//! Responses to the declared actions, before anything resolves: holders may act
//! preemptively (their action resolves first, and may interdict the declared one), the
//! target of an attack may declare a reaction (it resolves with the attack). Nobody of a
//! simultaneous group answers its own group's actions; anyone else answers at most one of
//! them, and a preemption excludes a reaction to the same action.

use std::collections::VecDeque;

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::intent::{Rejection, Verdict};
use fray_core::phase::RulesStep;

use crate::actions;
use crate::combat;
use crate::intent::{Action, FwkIntent, Reaction};
use crate::phase::{Ask, AskKind, Choice, FwkPhase, TickState, go_to};
use crate::schedule::FateWalkerSystems;
use crate::view;

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(RulesStep, skip_stale_questions.in_set(FateWalkerSystems::Preempt));
}

/// Lists the questions for the group's declarations: for each action, the enemies of its
/// actor who hold (preempt?), then its target (react?).
pub(crate) fn ask_for_responses(world: &mut World) {
    let state = world.resource::<TickState>();
    let group = state.group.clone();
    let declarations = state.declarations.clone();
    let mut asks = VecDeque::new();
    for (i, d) in declarations.iter().enumerate() {
        let Choice::Act(action) = &d.choice else { continue };
        for e in view::combatants(world) {
            let c = view::clock(world, e);
            if c.holding && !group.contains(&e) && view::can_act(world, e) && view::enemies(world, e, d.actor)
            {
                asks.push_back(Ask { responder: e, declaration: i, kind: AskKind::Preempt });
            }
        }
        if let Action::Attack { target, .. } = action
            && let Some(t) = view::entity(world, target)
            && !group.contains(&t)
            && view::clock(world, t).joined
            && combat::aware_of(world, t, d.actor)
        {
            asks.push_back(Ask { responder: t, declaration: i, kind: AskKind::React });
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
            go_to(world, FwkPhase::Resolve);
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
    /// React with the action.
    React(Reaction),
    /// Let it be.
    Decline,
}

/// Checks a response by `e` to the question it is asked.
pub fn check(world: &World, e: Entity, intent: &FwkIntent) -> Verdict<Response> {
    let Some(ask) = asked(world).filter(|a| a.responder == e) else {
        return Err(Rejection::new(format!("{} is asked nothing now", view::name(world, e))));
    };
    match (ask.kind, intent) {
        (_, FwkIntent::Decline) => Ok(Response::Decline),
        (AskKind::Preempt, FwkIntent::Preempt { action }) => {
            actions::check(world, e, action)?;
            Ok(Response::Preempt(action.clone()))
        }
        (AskKind::React, FwkIntent::React { reaction }) => {
            let weapon = asked_about(world, &ask)
                .and_then(|(actor, _)| view::ready_weapon(world, actor))
                .ok_or_else(|| Rejection::new("there is no attack to react to"))?;
            combat::check_reaction(world, e, *reaction, &weapon.1)?;
            Ok(Response::React(*reaction))
        }
        (AskKind::Preempt, _) => Err(Rejection::new("a holder may act preemptively (Preempt) or decline")),
        (AskKind::React, _) => Err(Rejection::new("the target may react (React) or decline")),
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
    }
}
