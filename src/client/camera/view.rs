//! What the rest of the client reads of the board's camera: the camera itself, the room the
//! panels leave it, how it was last framed, a zoom asked for.

use bevy::prelude::*;

use super::fit::{GoalKept, Smallest};

/// The board's camera.
#[derive(Component)]
pub struct BoardCamera;

/// A zoom request from the panels (factor, 1 = none).
#[derive(Resource, Default)]
pub struct ZoomRequest(pub f32);

/// The room the panels leave for the board, in physical pixels from each window edge.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub struct BoardArea {
    /// Left panel width.
    pub left: f32,
    /// Right panel width.
    pub right: f32,
    /// Top panel height.
    pub top: f32,
    /// Bottom panel height.
    pub bottom: f32,
}

impl BoardArea {
    /// Whether a point in the window's physical pixels lies on the board, between the panels.
    pub fn holds(&self, window: &Window, p: Vec2) -> bool {
        let (w, h) = (window.physical_width() as f32, window.physical_height() as f32);
        p.x >= self.left && p.x <= w - self.right && p.y >= self.top && p.y <= h - self.bottom
    }
}

/// The panel room, window size, board bounds and smallest drawings the board was last framed
/// for; once a person pans or zooms, the camera never moves by itself again (until "Fit").
#[derive(Resource, Default)]
pub(crate) struct Framed {
    pub(super) key: Option<(BoardArea, Vec2, Rect, Smallest)>,
    pub(super) by_hand: bool,
    /// The whole board is in view; else the view follows whoever acts.
    pub(crate) part: bool,
    /// Frames left in which the board settling (cards growing, captions placed) may
    /// reframe it; later only the window and the panels do, so a move never shifts the view
    /// under the pointer.
    pub(super) settling: u32,
    /// Where a view in part glides to.
    pub(super) goal: GoalKept,
}

/// Whether the GM's window shows the whole board however small: the GM's setting, or the
/// environment for scripted checks that drag to every card.
pub fn whole_board(view: &crate::client::table::view::TableView) -> bool {
    view.settings.whole_board || std::env::var_os("FRAY_WHOLE_BOARD").is_some_and(|v| v == "1")
}
