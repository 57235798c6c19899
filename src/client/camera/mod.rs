//! The board camera: pan by dragging the empty field, zoom with the wheel or the panel's
//! buttons. Framed by itself until then: the whole board, as large as fits, but never so small
//! that its text (or, in table mode, a token) drops under the floor its screen can read
//! (`Floor`: 12 px in the GM's window, more in table mode): a board too big for that is shown
//! in part, around whoever acts, and follows the turn (the GM may ask for the whole board
//! however small). Never moves while a token is dragged or egui holds the pointer.
//!
//! In parts: `view` (what the rest of the client reads: the camera, the room the panels leave
//! it, how it was framed), `fit` (the framing's geometry, plain functions), `measure` (the
//! board measured for it), `framing` (the system that frames) and `input` (pan and zoom).

mod fit;
mod framing;
mod input;
mod measure;
pub mod view;

pub(crate) use fit::{Floor, GoalKept, Smallest, fit_scale, frame, glide, view_centre};
pub(crate) use measure::BoardParts;

use bevy::prelude::*;

use super::order::{Opening, Step};

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<view::ZoomRequest>()
        .init_resource::<view::BoardArea>()
        .init_resource::<view::Framed>()
        .add_systems(Startup, input::spawn_camera.in_set(Opening::Spawn))
        .add_systems(
            Update,
            (framing::fit_viewport, framing::frame_board, input::pan_and_zoom).chain().in_set(Step::Framing),
        );
}
