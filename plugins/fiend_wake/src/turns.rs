//! Execute Turns: everyone with turn tokens sets one aside as a pending turn; pending turns
//! are played in priority order; repeat until no turn tokens are left.

use crate::data::LocationProperty;
use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::location::place_of;
use fray_core::log::LogEvent;
use fray_core::phase::{RulesStep, StepProgress};

use crate::counters::{PENDING_TURN, TURN_TOKEN};
use crate::damage;
use crate::end_of_round::finish_fight;
use crate::phase::{ActiveTurn, FiendWakePhase, Round, go_to};
use crate::schedule::FiendWakeSystems;
use crate::view;

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(RulesStep, next_turn.in_set(FiendWakeSystems::ExecuteTurns));
}

/// Starts the next pending turn, or sets out new pending turns, or moves on.
fn next_turn(world: &mut World) {
    if world.resource::<ActiveTurn>().actor.is_some() {
        return;
    }
    let pending = |w: &World, e: Entity| view::can_act(w, e) && view::count(w, e, PENDING_TURN) > 0;
    // A wave goes down the priority order once: nobody above the cursor holds a pending turn.
    let round = world.resource::<Round>();
    let next = (round.wave_cursor..round.priority.len())
        .map(|i| (i, round.priority[i]))
        .find(|&(_, e)| pending(world, e));
    if let Some((i, actor)) = next {
        world.resource_mut::<Round>().wave_cursor = i + 1;
        start_turn(world, actor, false);
        return;
    }
    world.resource_mut::<Round>().wave_cursor = 0;
    let priority = world.resource::<Round>().priority.clone();
    let mut any = false;
    for &e in &priority {
        if view::can_act(world, e) && view::count(world, e, TURN_TOKEN) > 0 {
            view::lose(world, e, TURN_TOKEN, 1, "pending turn");
            view::gain(world, e, PENDING_TURN, 1, "pending turn");
            any = true;
        }
    }
    if any {
        world.resource_mut::<StepProgress>().mark();
    } else if world.resource::<Round>().turns_executed == 0 {
        finish_fight(world, "no turns were executed this round");
    } else {
        go_to(world, FiendWakePhase::Aftermath);
    }
}

/// Starts a turn; `extra` is the top bidder's aftermath turn. Location properties that
/// strike at the beginning of a turn apply here.
pub(crate) fn start_turn(world: &mut World, actor: Entity, extra: bool) {
    *world.resource_mut::<ActiveTurn>() = ActiveTurn { actor: Some(actor), extra, ..Default::default() };
    if !extra {
        world.resource_mut::<Round>().turns_executed += 1;
    }
    world.resource_mut::<StepProgress>().mark();
    view::log(world, actor, LogEvent::TurnStarted);
    let place = place_of(world, actor);
    let wounds: u32 = place
        .map(|place| {
            view::properties(world, place)
                .iter()
                .map(|p| match p {
                    LocationProperty::WoundsAtTurnStart(n) => *n,
                    _ => 0,
                })
                .sum()
        })
        .unwrap_or(0);
    if let Some(place) = place.filter(|_| wounds > 0) {
        let source = fray_core::log::Source::place(
            fray_core::location::place_name(world, place),
            fray_core::location::place_id(world, place),
        );
        damage::wounds(world, actor, wounds, &source);
    }
}

/// Ends the active turn, discarding its pending turn token.
pub(crate) fn end_turn(world: &mut World) {
    let turn = std::mem::take(&mut *world.resource_mut::<ActiveTurn>());
    let Some(actor) = turn.actor else {
        return;
    };
    if !turn.extra {
        view::lose(world, actor, PENDING_TURN, 1, "turn ended");
    }
    view::log(world, actor, LogEvent::TurnEnded);
    world.resource_mut::<StepProgress>().mark();
}
