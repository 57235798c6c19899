//! Who the toy duel waits on, the AI deciding for those it plays, and the one place intents
//! are validated and applied.

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::intent::{Inbox, IntentRecord, Rejection, Submitted, Verdict, submit_now, while_fighting};
use fray_core::phase::{RulesStep, current};
use fray_core::prelude::{Controller, TableIndex};
use fray_core::session::ai_may_act;
use fray_core::table::{can_act, enemies, id, name};

use crate::intent::ToyIntent;
use crate::phase::ToyPhase;
use crate::schedule::ToySystems;
use crate::strike;

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(RulesStep, (ai_decide, apply_intents).chain().in_set(ToySystems::Decisions));
}

/// Who the rules wait on: the striker, during the strikes.
pub fn awaiting(world: &World) -> Vec<Entity> {
    if current::<ToyPhase>(world) != ToyPhase::Strike {
        return Vec::new();
    }
    strike::striker(world).into_iter().collect()
}

/// The AI strikes the first enemy standing.
fn ai_decide(world: &mut World) {
    let Some(e) = awaiting(world).first().copied() else { return };
    if world.get::<Controller>(e) != Some(&Controller::Ai) || !ai_may_act(world) {
        return;
    }
    let order = world.resource::<TableIndex>().order.clone();
    let Some(target) = order.into_iter().find(|&t| enemies(world, e, t) && can_act(world, t)) else { return };
    let intent = ToyIntent::Strike { target: id(world, target) };
    let _ = submit(world, Submitted { actor: id(world, e), intent });
}

/// Applies queued intents in order while someone is asked.
fn apply_intents(world: &mut World) {
    while !awaiting(world).is_empty() || current::<ToyPhase>(world) == ToyPhase::Over {
        let Some(next) = world.resource_mut::<Inbox<ToyIntent>>().0.pop_front() else { return };
        let _ = submit(world, next);
    }
}

/// Validates and applies one intent now.
pub fn submit(world: &mut World, submitted: Submitted<ToyIntent>) -> Verdict {
    let shown = |_: &World, _: Option<Entity>, intent: &ToyIntent| IntentRecord::new(intent.clone());
    submit_now(world, submitted, shown, while_fighting(strike::goes_on, validate), strike::strike)
}

/// Checks an intent against the table as it is, changing nothing.
pub fn validate(world: &World, e: Entity, intent: &ToyIntent) -> Verdict<Entity> {
    if current::<ToyPhase>(world) == ToyPhase::Over {
        return Err(Rejection::new("the fight is over"));
    }
    if !awaiting(world).contains(&e) {
        return Err(Rejection::new(format!("it is not {}'s strike", name(world, e))));
    }
    let ToyIntent::Strike { target } = intent;
    let Some(t) = world.resource::<TableIndex>().combatant(target) else {
        return Err(Rejection::new(format!("there is no combatant '{target}'")));
    };
    strike::check(world, e, t).map(|()| t)
}
