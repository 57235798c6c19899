//! Frames the board's camera: its viewport fitted to the room the panels leave, the board
//! shown whole or in part around whoever acts, gliding there.

use bevy::camera::Viewport;
use bevy::camera::visibility::RenderLayers;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;

use super::fit::{Floor, frame, glide, view_centre};
use super::measure::BoardParts;
use super::view::{BoardArea, BoardCamera, Framed, whole_board};
use crate::client::pointer::{Dragging, EditMode};

/// How long a table opened (or rebuilt) settles, in frames: the board is laid out well
/// before the layout file is written (`capture`).
const SETTLE: u32 = 40;

/// Keeps the camera's viewport to the room between the panels.
pub(super) fn fit_viewport(
    area: Res<BoardArea>,
    window: Single<&Window, With<PrimaryWindow>>,
    mut camera: Single<&mut Camera, With<BoardCamera>>,
) {
    let (w, h) = (window.physical_width() as f32, window.physical_height() as f32);
    let size = Vec2::new(w - area.left - area.right, h - area.top - area.bottom);
    if size.x < 50.0 || size.y < 50.0 {
        camera.viewport = None;
        return;
    }
    let viewport = Viewport {
        physical_position: UVec2::new(area.left as u32, area.top as u32),
        physical_size: UVec2::new(size.x as u32, size.y as u32),
        ..default()
    };
    if camera.viewport.as_ref().is_none_or(|v| {
        v.physical_position != viewport.physical_position || v.physical_size != viewport.physical_size
    }) {
        camera.viewport = Some(viewport);
    }
}

/// Frames the board when the table and the panels are there, again while it settles (its
/// cards drawn closer or farther apart, a card grown; never while a token is dragged or the
/// scenario edited), and whenever the panels or the window change size. A board shown in
/// part glides to whoever acts.
pub(super) fn frame_board(
    mut framed: ResMut<Framed>,
    area: Res<BoardArea>,
    window: Single<&Window, With<PrimaryWindow>>,
    board: BoardParts,
    camera: Single<(&mut Transform, &mut Projection, &RenderLayers), With<BoardCamera>>,
    index: Res<fray_core::prelude::TableIndex>,
    mode: Res<EditMode>,
    dragging: Res<Dragging>,
    spread: Res<crate::client::board::pieces::Spread>,
    captions: Res<crate::client::board::pieces::CaptionExtent>,
    view: Res<crate::client::table::view::TableView>,
    acting: Res<crate::client::motion::Acting>,
    time: Res<Time>,
    mut glides: ResMut<crate::client::motion::Glides>,
) {
    // Each edit puts a new table up: the view stays where the person is working. A board
    // laid out again (a card outgrew its room) settles anew too.
    if (index.is_changed() || spread.is_changed()) && !mode.0 {
        framed.settling = SETTLE;
    }
    framed.settling = framed.settling.saturating_sub(1);
    let moving = glides.board_camera;
    if framed.by_hand || *area == BoardArea::default() || board.is_empty() {
        if moving {
            glides.board_camera = false;
        }
        return;
    }
    let (mut transform, mut projection, layers) = camera.into_inner();
    // Read, not written, in a frame that does not frame the board: the projection changes
    // only when it is framed again.
    let Projection::Orthographic(ortho) = &*projection else { return };
    let current = ortho.scale;
    let bounds = board.bounds(captions.0);
    let settled = framed.settling == 0;
    let still = mode.0 || dragging.0.is_some();
    // Once settled, only the window and the panels reframe: the texts are not measured again.
    let known = framed.key.filter(|(a, w, ..)| a == &*area && *w == window.size());
    let smallest = match known {
        Some((.., small)) if settled || still => small,
        _ => board.smallest(layers),
    };
    let same =
        known.is_some_and(|(_, _, shown, small)| settled || still || (shown == bounds && small == smallest));
    let scale = window.scale_factor();
    let room = Vec2::new(
        (window.physical_width() as f32 - area.left - area.right) / scale,
        (window.physical_height() as f32 - area.top - area.bottom) / scale,
    );
    // The table's screen keeps to its floor, the GM's own window to its denser one (unless
    // the GM asked for the whole board however small).
    let most = if view.mode {
        Floor::table(window.height()).most(smallest)
    } else if whole_board(&view) {
        f32::INFINITY
    } else {
        Floor::GM.most(smallest)
    };
    let focus = acting.focus(view.mode).unwrap_or(transform.translation.truncate());
    let mut gliding = false;
    if !same {
        let shown = frame(bounds, room, most, focus, &board.kept(layers));
        if let Projection::Orthographic(ortho) = &mut *projection {
            ortho.scale = shown.scale;
        }
        transform.translation = shown.centre.extend(transform.translation.z);
        framed.key = Some((*area, window.size(), bounds, smallest));
        framed.part = !shown.whole;
    } else if framed.part && !still {
        let key = (focus, current, board.fingerprint());
        let goal = framed.goal.get(key, || view_centre(bounds, room * current, focus, &board.kept(layers)));
        gliding = glide(&mut transform, goal, crate::client::motion::reduced(&view), time.delta_secs());
    }
    if moving != gliding {
        glides.board_camera = gliding;
    }
}
