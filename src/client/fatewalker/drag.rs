//! Dragging a FateWalker token: the drop point becomes a movement intent (begin moving
//! there at the chosen mode, declared, taken preemptively or as a reaction as the moment
//! asks); the token then slides back to where the rules have it (moves take ticks). A
//! refused move shows its reason on the board.

use bevy::prelude::*;
use fatewalker::data::MoveMode;
use fatewalker::phase::{AskKind, FwkPhase, current};
use fatewalker::{Action, FwkIntent, view};
use fray_core::DriveRules;
use fray_core::intent::{Inbox, Outcomes};

use super::panels::MoveChoice;
use super::{on_fatewalker, to_metres};
use crate::client::camera::BoardCamera;
use crate::client::drag::{Dragging, PendingDrop};

/// A drop to send, worked out by the observer and sent by a system with the world.
#[derive(Resource, Default)]
struct Dropped(Option<(Entity, [f32; 2])>);

pub(super) fn plugin(app: &mut App) {
    // The refusal of a dropped move is reported by the shared `drag::report_outcome`.
    app.init_resource::<Dropped>()
        .add_observer(drag_end)
        .add_systems(Update, send_drop.before(DriveRules).run_if(on_fatewalker));
}

/// The mode a drag moves `e` in: riding in a vehicle, crawling when prone, else the mode
/// chosen in the panel.
pub fn mode_for(world: &World, e: Entity) -> MoveMode {
    if world.get::<fray_core::prelude::Rides>(e).is_some() {
        MoveMode::Ride
    } else if view::prone(world, e) {
        MoveMode::Crawl
    } else {
        world.get_resource::<MoveChoice>().map_or(MoveMode::Run, |m| m.0)
    }
}

fn drag_end(
    end: On<Pointer<DragEnd>>,
    session: Option<Res<crate::session::Session>>,
    mut dragging: ResMut<Dragging>,
    camera: Single<(&Camera, &GlobalTransform), With<BoardCamera>>,
    mut dropped: ResMut<Dropped>,
) {
    if !on_fatewalker(session) {
        return;
    }
    let Some(state) = dragging.0.take().filter(|d| d.token == end.entity) else {
        return;
    };
    let (camera, transform) = camera.into_inner();
    if let Ok(at) = camera.viewport_to_world_2d(transform, end.pointer_location.position) {
        dropped.0 = Some((state.combatant, to_metres(at)));
    }
}

/// The movement intent for a drop at this moment: a declaration, or a preemptive action or
/// a reaction when that is what `e` is asked.
pub fn move_intent(world: &World, e: Entity, to: [f32; 2]) -> FwkIntent {
    let action = Action::BeginMoving { mode: mode_for(world, e), to: (to[0], to[1]) };
    match current(world) {
        FwkPhase::Preempt => match fatewalker::preempt::asked(world) {
            Some(ask) if ask.responder == e && ask.kind == AskKind::Preempt => FwkIntent::Preempt { action },
            Some(ask) if ask.responder == e => FwkIntent::Counter { action },
            _ => FwkIntent::Act { action },
        },
        _ => FwkIntent::Act { action },
    }
}

fn send_drop(world: &mut World) {
    let Some((e, to)) = world.resource_mut::<Dropped>().0.take() else {
        return;
    };
    let intent = move_intent(world, e, to);
    let who = view::id(world, e);
    let before = world.resource::<Outcomes>().0.len();
    world.resource_mut::<PendingDrop>().0 = Some((before, who.0.clone()));
    world.resource_mut::<Inbox<FwkIntent>>().submit(who, intent);
}
