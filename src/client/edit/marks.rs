//! What the editor marks on the board: the selected card or token, the arrows that may be
//! clicked away.

use bevy::prelude::*;

use super::input::{ARROW_REACH, arrow_at, pointer_on_board};
use super::state::{CardDrag, editing};
use crate::client::board::pieces::card_at;
use crate::client::pointer::Grab;

/// The arrows only edit mode draws, found each frame: (path, colour).
#[derive(Resource, Default)]
pub(super) struct EditMarks(pub(super) Vec<(Vec<Vec2>, Color)>);

pub(super) fn draw_edit_marks(marks: Res<EditMarks>, mut gizmos: Gizmos) {
    for (path, colour) in &marks.0 {
        crate::client::board::arrows::draw_path(&mut gizmos, path, *colour);
    }
}

/// In edit mode: the arrow being drawn, and the arrow a click would take away, in red.
pub(super) fn find_edit_marks(world: &mut World) {
    world.resource_mut::<EditMarks>().0.clear();
    if !editing(world) {
        return;
    }
    let drag = world.resource::<CardDrag>().0;
    let from = drag.filter(|d| d.connect).and_then(|d| {
        let rects = crate::client::board::pieces::card_rects(world);
        rects.iter().find(|(e, _)| *e == d.place).map(|(_, r)| (r.center(), d.at))
    });
    let hovered = if drag.is_none() && !world.resource::<Grab>().0 {
        pointer_on_board(world)
            .filter(|(at, _)| card_at(*at, &crate::client::board::pieces::card_rects(world)).is_none())
            .and_then(|(at, scale)| arrow_at(world, at, ARROW_REACH * scale))
    } else {
        None
    };
    let mut marks = world.resource_mut::<EditMarks>();
    if let Some((start, end)) = from {
        marks.0.push((vec![start, end], Color::srgb(1.0, 0.85, 0.2)));
    }
    if let Some((.., path)) = hovered {
        marks.0.push((path, Color::srgb(1.0, 0.25, 0.2)));
    }
}
