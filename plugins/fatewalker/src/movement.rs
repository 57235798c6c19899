//! Movement: segments of 6 ticks at the mode's rate, the distance covered at the segment's
//! end; then, among the free actions, each mover says whether it keeps moving, changes
//! mode or stops (the last two cost ticks without needing the character's tick).

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::intent::{Rejection, Verdict};
use fray_core::phase::{RulesStep, in_phase};
use fray_core::prelude::{FieldPosition, Rides};

use crate::actions;
use crate::data::MoveMode;
use crate::intent::FateWalkerIntent;
use crate::phase::{FateWalkerPhase, TickState, go_to};
use crate::schedule::{FateWalkerSystems, TickEventSystems};
use crate::sheet::{Motion, Stance};
use crate::view;

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(
        RulesStep,
        (
            end_segments.run_if(in_phase(FateWalkerPhase::TickEvents)).in_set(TickEventSystems::Movement),
            ask_movers.in_set(FateWalkerSystems::FreeActions),
        ),
    );
}

/// Movers whose segment ends now cover its distance (the vehicle moves with its driver).
fn end_segments(world: &mut World) {
    let now = view::tick(world);
    for e in view::combatants(world) {
        let Some(m) = view::motion(world, e).filter(|m| m.segment_end == now) else { continue };
        if view::can_act(world, e) {
            cover_distance(world, e, m, 1.0);
        }
    }
}

/// Moves `e` towards its destination by `share` of a segment's distance at its mode's rate.
fn cover_distance(world: &mut World, e: Entity, m: Motion, share: f32) {
    let from = view::position(world, e);
    let left = view::distance_between(from, m.to);
    let step = (view::rate(world, e, m.mode) * share).min(left);
    let to = if left > 0.0 {
        [from[0] + (m.to[0] - from[0]) * step / left, from[1] + (m.to[1] - from[1]) * step / left]
    } else {
        from
    };
    world.entity_mut(e).insert(FieldPosition(to));
    if let Some(vehicle) = world.get::<Rides>(e).map(|r| r.0) {
        world.entity_mut(vehicle).insert(FieldPosition(to));
    }
    view::effect(
        world,
        e,
        "moved",
        format!(
            "{:?} from ({:.1}, {:.1}) to ({:.1}, {:.1}), {step:.1} m",
            m.mode, from[0], from[1], to[0], to[1]
        ),
    );
}

/// Lists this tick's movers once; hands over to the next tick when all have answered.
fn ask_movers(world: &mut World) {
    let now = view::tick(world);
    if !world.resource::<TickState>().movers_listed {
        let movers: Vec<Entity> = view::combatants(world)
            .into_iter()
            .filter(|&e| {
                view::can_act(world, e) && view::motion(world, e).is_some_and(|m| m.segment_end == now)
            })
            .collect();
        let mut state = world.resource_mut::<TickState>();
        state.movers = movers;
        state.movers_listed = true;
    }
    if world.resource::<TickState>().movers.is_empty() {
        go_to(world, FateWalkerPhase::TickEvents);
    }
}

/// Whether `e` owes an answer about its movement now.
pub fn owes_answer(world: &World, e: Entity) -> bool {
    world.resource::<TickState>().movers.contains(&e)
}

/// Checks a mover's answer (at a segment's end), or a change of movement made in the middle
/// of a segment while the mover declares.
pub fn check(world: &World, e: Entity, intent: &FateWalkerIntent) -> Verdict {
    let Some(m) = view::motion(world, e) else {
        return Err(Rejection::new(format!("{} is not moving", view::name(world, e))));
    };
    match intent {
        FateWalkerIntent::ContinueMoving if m.segment_end != view::tick(world) => {
            Err(Rejection::new("keeping on is decided at the end of a segment"))
        }
        FateWalkerIntent::ContinueMoving | FateWalkerIntent::StopMoving => Ok(()),
        FateWalkerIntent::ChangeMovement { mode } if *mode == m.mode => {
            Err(Rejection::new(format!("{} is already moving that way ({mode:?})", view::name(world, e))))
        }
        FateWalkerIntent::ChangeMovement { mode } => {
            actions::check_mode(world, e, *mode)?;
            if view::rate(world, e, *mode) <= 0.0 {
                return Err(Rejection::new(format!("{} cannot move at all that way", view::name(world, e))));
            }
            Ok(())
        }
        _ => Err(Rejection::new("at the end of a segment a mover keeps moving, changes mode or stops")),
    }
}

/// Applies a mover's answer. A change or stop in the middle of a segment first covers the
/// share of the segment's distance already moved.
pub fn answer(world: &mut World, e: Entity, intent: &FateWalkerIntent) {
    world.resource_mut::<TickState>().movers.retain(|&m| m != e);
    let ticks = view::catalogue(world).tables().ticks;
    let segment = view::catalogue(world).tables().segment_ticks.max(1);
    let now = view::tick(world);
    let Some(mut m) = view::motion(world, e) else { return };
    if m.segment_end > now {
        let elapsed = segment.saturating_sub(m.segment_end - now);
        cover_distance(world, e, m, elapsed as f32 / segment as f32);
    }
    let cost = match intent {
        FateWalkerIntent::ContinueMoving => 0,
        FateWalkerIntent::ChangeMovement { mode } => {
            m.mode = *mode;
            if let Some(mut s) = world.get_mut::<Stance>(e) {
                s.prone = *mode == MoveMode::Crawl;
            }
            view::effect(world, e, "movement_changed", format!("{mode:?}"));
            ticks.change_movement
        }
        _ => {
            world.entity_mut(e).remove::<Motion>();
            view::effect(world, e, "stopped", String::new());
            pay(world, e, ticks.stop_moving);
            return;
        }
    };
    m.segment_end = now + segment;
    world.entity_mut(e).insert(m);
    pay(world, e, cost);
}

/// Adds a free action's cost to the character's next action tick.
fn pay(world: &mut World, e: Entity, cost: u32) {
    view::change_clock(world, e, |c| c.next += cost);
}
