//! Who owes a decision now, the AI taking the decisions of AI-controlled combatants, and the
//! one place intents are validated and applied, in the order they were submitted.

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::intent::{Inbox, Rejection, Submitted, Verdict, submit_now, while_fighting};
use fray_core::phase::{Phase, RulesStep};
use fray_core::prelude::{Controller, TableIndex};
use fray_core::session::ai_may_act;

use crate::intent::{Action, FateWalkerIntent};
use crate::phase::{Choice, FateWalkerPhase, TickState, current};
use crate::schedule::FateWalkerSystems;
use crate::{actions, ai, declare, initiative, movement, preempt, view};

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(RulesStep, (ai_decide, apply_intents).chain().in_set(FateWalkerSystems::Decisions));
}

/// The combatants the rules are waiting on now, in scenario order.
pub fn awaiting(world: &World) -> Vec<Entity> {
    match current(world) {
        FateWalkerPhase::Ambush => initiative::ambusher(world).into_iter().collect(),
        FateWalkerPhase::Declare => {
            let state = world.resource::<TickState>();
            state.group.iter().copied().filter(|&e| declare::owes_declaration(world, e)).collect()
        }
        FateWalkerPhase::Preempt => preempt::asked(world).map(|a| a.responder).into_iter().collect(),
        FateWalkerPhase::FreeActions => world.resource::<TickState>().movers.clone(),
        _ => Vec::new(),
    }
}

/// Whether the rules wait on `e` now.
pub fn is_awaited(world: &World, e: Entity) -> bool {
    match current(world) {
        FateWalkerPhase::Ambush => initiative::ambusher(world) == Some(e),
        FateWalkerPhase::Declare => declare::owes_declaration(world, e),
        FateWalkerPhase::Preempt => preempt::asked(world).is_some_and(|a| a.responder == e),
        FateWalkerPhase::FreeActions => movement::owes_answer(world, e),
        _ => false,
    }
}

/// Lets the AI decide, one intent at a time, for every AI-controlled combatant the rules
/// wait on. An AI intent the rules refuse (a bug the tests look for) is followed by a safe
/// fallback, so the table never stalls.
fn ai_decide(world: &mut World) {
    for e in awaiting(world) {
        // A decision that ended the fight ends the deciding.
        if !crate::clock::goes_on(world) {
            return;
        }
        let ai = world.get::<Controller>(e) == Some(&Controller::Ai);
        let id = view::id(world, e);
        let queued = world.resource::<Inbox<FateWalkerIntent>>().0.iter().any(|s| s.actor == id);
        if !ai || queued || !is_awaited(world, e) || !ai_may_act(world) {
            continue;
        }
        let intent = fray_core::ai::decided(world, |world| ai::decide(world, e));
        if submit(world, Submitted { actor: id.clone(), intent }).is_err() {
            let fallback = ai::fallback(world, e);
            let _ = submit(world, Submitted { actor: id, intent: fallback });
        }
    }
}

/// Applies queued intents in order while the current phase waits for decisions.
fn apply_intents(world: &mut World) {
    loop {
        let Some(next) = world.resource_mut::<Inbox<FateWalkerIntent>>().0.pop_front() else {
            return;
        };
        let actor = world.resource::<TableIndex>().combatant(&next.actor);
        let expected = actor.is_some_and(|e| is_awaited(world, e));
        if !expected && awaiting(world).is_empty() && current(world) != FateWalkerPhase::FightOver {
            // The rules ask nothing now: leave it for when they do.
            world.resource_mut::<Inbox<FateWalkerIntent>>().0.push_front(next);
            return;
        }
        // The outcome is recorded in `Outcomes` and the log.
        let _ = submit(world, next);
    }
}

/// A validated intent, ready to apply.
pub struct Plan(Step);

enum Step {
    Ambush(Action),
    Declare(Choice),
    Respond(preempt::Response),
    Move(FateWalkerIntent),
}

/// Validates and applies one intent now, recording the outcome (a secret declaration is
/// sealed in the log until all are in). Returns the verdict.
pub fn submit(world: &mut World, submitted: Submitted<FateWalkerIntent>) -> Verdict {
    let shown = |world: &World, e: Option<Entity>, intent: &FateWalkerIntent| match e {
        Some(e) => declare::record(world, e, intent),
        None => fray_core::intent::IntentRecord::new(intent.clone()),
    };
    submit_now(world, submitted, shown, while_fighting(crate::clock::goes_on, validate), apply)
}

/// Checks an intent against the table as it is, changing nothing.
pub fn validate(world: &World, e: Entity, intent: &FateWalkerIntent) -> Verdict<Plan> {
    let name = view::name(world, e);
    let phase = current(world);
    if phase == FateWalkerPhase::FightOver {
        return Err(Rejection::new("the fight is over"));
    }
    if !view::can_act(world, e) {
        let status = format!("{:?}", view::status(world, e)).to_lowercase();
        return Err(Rejection::new(format!("{name} is {status} and cannot act")));
    }
    if !is_awaited(world, e) {
        return Err(Rejection::new(not_now(world, e, phase)));
    }
    let step = match phase {
        FateWalkerPhase::Ambush => match intent {
            FateWalkerIntent::Act { action } => {
                actions::check(world, e, action)?;
                Step::Ambush(action.clone())
            }
            _ => return Err(Rejection::new("the ambusher opens the fight with an action")),
        },
        FateWalkerPhase::Declare
            if matches!(intent, FateWalkerIntent::StopMoving | FateWalkerIntent::ChangeMovement { .. }) =>
        {
            movement::check(world, e, intent)?;
            Step::Move(intent.clone())
        }
        FateWalkerPhase::Declare => Step::Declare(declare::check(world, e, intent)?),
        FateWalkerPhase::Preempt => Step::Respond(preempt::check(world, e, intent)?),
        FateWalkerPhase::FreeActions => {
            movement::check(world, e, intent)?;
            Step::Move(intent.clone())
        }
        _ => return Err(Rejection::new(not_now(world, e, phase))),
    };
    Ok(Plan(step))
}

/// Why `e` may not decide now, in words.
fn not_now(world: &World, e: Entity, phase: FateWalkerPhase) -> String {
    let name = view::name(world, e);
    let c = view::clock(world, e);
    let waiting: Vec<String> = awaiting(world).into_iter().map(|w| view::name(world, w)).collect();
    let who =
        if waiting.is_empty() { String::new() } else { format!(" (waiting on {})", waiting.join(", ")) };
    if !c.joined {
        return format!("{name} has not noticed the fight yet");
    }
    match phase {
        FateWalkerPhase::Declare if declare::due(world).contains(&e) => {
            format!("{name} declares after {} (higher Awareness declares first)", waiting.join(", "))
        }
        FateWalkerPhase::Declare | FateWalkerPhase::Preempt if !c.holding && c.next > view::tick(world) => {
            format!("{name}'s next action tick is {}, not {}{who}", c.next, view::tick(world))
        }
        _ => format!("{name} has nothing to decide during {}{who}", phase.title()),
    }
}

/// Applies a validated intent.
pub fn apply(world: &mut World, e: Entity, plan: Plan) {
    match plan.0 {
        Step::Ambush(action) => {
            view::effect(world, e, "ambush", action.title().to_owned());
            actions::resolve(world, e, &action, None);
            world.resource_mut::<TickState>().ambush_done = true;
        }
        Step::Declare(choice) => declare::declare(world, e, choice),
        Step::Respond(response) => preempt::answer(world, e, response),
        Step::Move(intent) => movement::answer(world, e, &intent),
    }
}
