//! The edge of a view in part on the table's screen. A board text the edge would cut (a
//! caption below a token at the bottom, a token's caption reaching in from one out of view,
//! a card's lines under the bar) is not drawn there: its token or card stays, with its
//! initials. A card in view whose name is not has the name pinned at the top of the part
//! shown, so every card on the screen says what place it is.

use std::collections::HashSet;

use bevy::prelude::*;
use bevy::sprite::Anchor;
use bevy::text::{FontSize, Justify, TextBounds, TextLayout, TextLayoutInfo};
use bevy_egui::egui;

use super::overlay::Beneath;
use super::view::TableView;
use super::window::TableCamera;
use crate::client::audience::CutOnTable;
use crate::client::board::pieces::{CardName, CardRect, text_rect};
use crate::client::camera::view::{BoardCamera, Framed};

/// The smallest part of a card, in world units each way, worth a pinned name.
const PINNED_MIN: f32 = 12.0;
/// How far apart a pin's spots stand down its card, in points.
const SPOT_STEP: f32 = 6.0;
/// The room round a pinned name, in points.
const PAD: egui::Vec2 = egui::vec2(6.0, 1.0);
/// The pinned names' egui layer (the layout file reads them as "pinned name").
pub const PINNED_LAYER: &str = "table_pinned";

/// A card whose name the table's view in part leaves out.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Pin {
    pub name: String,
    /// The part of the card in view, in world units.
    pub shown: Rect,
    /// The name's size on the board, in world units.
    pub font: f32,
}

/// The cards whose names are pinned on the table's screen now.
#[derive(Resource, Default, PartialEq)]
pub(super) struct Pinned {
    pub pins: Vec<Pin>,
    /// Whether that screen is the table window (else the GM's window in table mode).
    pub window: bool,
    /// The part of the board in view, in world units: a card's strip at the edge too narrow
    /// for its name has the name reach past the card, inside this.
    pub view: Rect,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Pinned>().add_systems(
        PostUpdate,
        find_cuts.after(TransformSystems::Propagate).before(crate::client::audience::assign_layers),
    );
}

/// The part of the board the table's screen shows, where that is a part: the table window's,
/// else the GM's window's in table mode.
fn part_shown(
    table: &Query<(&TableCamera, &Camera, &Transform, &Projection)>,
    gm: &Query<(&Camera, &Transform, &Projection), With<BoardCamera>>,
    view: &TableView,
    framed: &Framed,
) -> Option<Rect> {
    if let Ok((state, camera, at, projection)) = table.single() {
        let (Some(size), Projection::Orthographic(ortho)) = (camera.logical_target_size(), projection) else {
            return None;
        };
        return state.part.then(|| state.shown(&view.settings, size, at.translation.truncate(), ortho.scale));
    }
    let (camera, at, Projection::Orthographic(ortho)) = gm.single().ok()? else { return None };
    let room = camera.logical_viewport_size()?;
    (view.mode && framed.part).then(|| Rect::from_center_size(at.translation.truncate(), room * ortho.scale))
}

/// A board text as [`find_cuts`] reads it.
type Texts<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        &'static GlobalTransform,
        &'static TextLayoutInfo,
        Option<&'static TextBounds>,
        Option<&'static TextLayout>,
        Option<&'static Anchor>,
        &'static InheritedVisibility,
    ),
    With<Text2d>,
>;

/// Where a drawn text lies on the board, if it is drawn.
fn rect_of(texts: &Texts, e: Entity) -> Option<Rect> {
    let (_, at, layout, bounds, justify, anchor, drawn) = texts.get(e).ok()?;
    let centred = justify.is_some_and(|j| j.justify == Justify::Center);
    (drawn.get() && layout.size != Vec2::ZERO).then(|| text_rect(at, anchor, layout.size, bounds, centred))
}

/// The texts the table's view in part cuts, and the cards it shows without their names.
fn find_cuts(
    table: Query<(&TableCamera, &Camera, &Transform, &Projection)>,
    gm: Query<(&Camera, &Transform, &Projection), With<BoardCamera>>,
    (view, framed): (Res<TableView>, Res<Framed>),
    texts: Texts,
    names: Query<(&Text2d, &TextFont, &GlobalTransform), With<CardName>>,
    cards: Query<(&CardRect, &Children, &InheritedVisibility)>,
    mut cut: ResMut<CutOnTable>,
    mut pinned: ResMut<Pinned>,
) {
    let shown = part_shown(&table, &gm, &view, &framed);
    let found = shown.map_or_else(HashSet::new, |shown| {
        texts
            .iter()
            .map(|(e, ..)| e)
            .filter(|e| rect_of(&texts, *e).is_some_and(|r| cuts(shown, r)))
            .collect()
    });
    cut.set_if_neq(CutOnTable(found));
    let pins = shown.map_or_else(Vec::new, |shown| {
        let pin_of = |(card, kids, drawn): (&CardRect, &Children, &InheritedVisibility)| {
            let name = kids.iter().find(|k| names.contains(*k))?;
            let (text, font, at) = names.get(name).ok()?;
            let whole = rect_of(&texts, name).is_some_and(|r| shown.contains(r.min) && shown.contains(r.max));
            let part = shown.intersect(card.0);
            let FontSize::Px(px) = font.font_size else { return None };
            let wanted = drawn.get() && !whole && part.width() >= PINNED_MIN && part.height() >= PINNED_MIN;
            wanted.then(|| Pin { name: text.0.clone(), shown: part, font: px * at.scale().y })
        };
        cards.iter().filter_map(pin_of).collect()
    });
    let view = shown.unwrap_or(Rect::EMPTY);
    pinned.set_if_neq(Pinned { pins, window: !table.is_empty(), view });
}

/// Whether a text at `rect` stands across the edge of `shown` (in part in view).
fn cuts(shown: Rect, rect: Rect) -> bool {
    let seen = shown.intersect(rect);
    let room = shown.inflate(0.5);
    seen.width() > 0.0 && seen.height() > 0.0 && !(room.contains(rect.min) && room.contains(rect.max))
}

/// Paints each of `pinned`'s pins on its card's part in view, or past a strip too narrow for
/// it inside the view (`on_screen` turns a world rectangle into the screen's points), as high as it covers no token or word of the board (`beneath`) and no
/// pin before it, its text at least `floor` points tall; where the pins stand.
pub(super) fn draw(
    ctx: &egui::Context,
    pinned: &Pinned,
    on_screen: &dyn Fn(Rect) -> Option<egui::Rect>,
    beneath: &Beneath,
    floor: f32,
) -> Vec<egui::Rect> {
    let Some(view) = on_screen(pinned.view).filter(|_| !pinned.pins.is_empty()) else {
        return Vec::new();
    };
    // An area of its own (not a bare layer), so that what reads the screen's texts finds it.
    let area = egui::Area::new(egui::Id::new(PINNED_LAYER)).order(egui::Order::Middle).interactable(false);
    area.fixed_pos(egui::Pos2::ZERO)
        .show(ctx, |ui| paint_pins(ui.painter(), (&pinned.pins, view), on_screen, beneath, floor))
        .inner
}

/// [`draw`]'s painting, with `painter`, of `pins` inside `view` (on the screen).
fn paint_pins(
    painter: &egui::Painter,
    (pins, view): (&[Pin], egui::Rect),
    on_screen: &dyn Fn(Rect) -> Option<egui::Rect>,
    beneath: &Beneath,
    floor: f32,
) -> Vec<egui::Rect> {
    let painter = painter.clone().with_clip_rect(painter.ctx().viewport_rect());
    let mut placed: Vec<egui::Rect> = Vec::new();
    for pin in pins {
        let Some(part) = on_screen(pin.shown) else { continue };
        let per_unit = part.height() / pin.shown.height().max(1.0);
        // As large as the card's own name, else at the floor where that finds no room.
        let sizes = [(pin.font * per_unit).max(floor), floor];
        let found = sizes.into_iter().find_map(|size| {
            let galley =
                painter.layout_no_wrap(pin.name.clone(), egui::FontId::monospace(size), egui::Color32::BLACK);
            let room = galley.size() + egui::vec2(2.0 * PAD.x, 2.0 * PAD.y);
            let clear = |r: &egui::Rect| {
                let r = r.expand(1.0);
                !beneath.tokens.iter().chain(&beneath.names).chain(&placed).any(|o| o.intersects(r))
            };
            let spot = spots(room_for(part, room, view), room).find(clear)?;
            Some((spot, galley))
        });
        let Some((spot, galley)) = found else { continue };
        painter.rect_filled(spot, 3.0, egui::Color32::from_rgb(214, 200, 166));
        painter.rect_stroke(
            spot,
            3.0,
            egui::Stroke::new(1.5, egui::Color32::from_rgb(90, 80, 60)),
            egui::StrokeKind::Inside,
        );
        painter.galley(spot.min + PAD, galley, egui::Color32::BLACK);
        placed.push(spot);
    }
    placed
}

/// `part`, grown where it is smaller than `room` (a card's sliver at the view's edge), away
/// from the view's edges and inside `view` where that is large enough.
fn room_for(part: egui::Rect, room: egui::Vec2, view: egui::Rect) -> egui::Rect {
    let span = |(lo, hi): (f32, f32), need: f32, (min, max): (f32, f32)| {
        if hi - lo >= need {
            return (lo, hi);
        }
        let start = lo.min(max - need).max(min);
        (start, start + need)
    };
    let (x0, x1) = span((part.min.x, part.max.x), room.x, (view.min.x, view.max.x));
    let (y0, y1) = span((part.min.y, part.max.y), room.y, (view.min.y, view.max.y));
    egui::Rect::from_min_max(egui::pos2(x0, y0), egui::pos2(x1, y1))
}

/// The spots for a box of `room` in `part`, from the top down: in the middle, left, right.
fn spots(part: egui::Rect, room: egui::Vec2) -> impl Iterator<Item = egui::Rect> {
    if room.x > part.width() || room.y > part.height() {
        return None.into_iter().flatten();
    }
    let rows = ((part.height() - room.y) / SPOT_STEP) as usize;
    let xs = [part.center().x - room.x / 2.0, part.min.x, part.max.x - room.x];
    let all = (0..=rows).flat_map(move |row| {
        let y = part.min.y + row as f32 * SPOT_STEP;
        xs.map(|x| egui::Rect::from_min_size(egui::pos2(x, y), room))
    });
    Some(all).into_iter().flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_across_the_views_edge_is_cut_one_inside_or_out_is_not() {
        let shown = Rect::new(0.0, 0.0, 100.0, 100.0);
        assert!(cuts(shown, Rect::new(80.0, 10.0, 120.0, 20.0)), "across the right edge");
        assert!(cuts(shown, Rect::new(-30.0, 95.0, 30.0, 110.0)), "across a corner");
        assert!(!cuts(shown, Rect::new(10.0, 10.0, 90.0, 20.0)), "inside");
        assert!(!cuts(shown, Rect::new(10.0, 0.0, 90.0, 100.3)), "inside by a hair");
        assert!(!cuts(shown, Rect::new(110.0, 10.0, 130.0, 20.0)), "out of view");
    }

    #[test]
    fn a_name_too_wide_for_its_cards_sliver_reaches_past_it_inside_the_view() {
        let view = egui::Rect::from_min_max(egui::pos2(0.0, 80.0), egui::pos2(1600.0, 650.0));
        let room = egui::vec2(60.0, 26.0);
        let left = egui::Rect::from_min_max(egui::pos2(0.0, 80.0), egui::pos2(50.0, 280.0));
        let grown = room_for(left, room, view);
        assert_eq!((grown.min.x, grown.max.x, grown.min.y, grown.max.y), (0.0, 60.0, 80.0, 280.0));
        let right = egui::Rect::from_min_max(egui::pos2(1570.0, 300.0), egui::pos2(1600.0, 310.0));
        let grown = room_for(right, room, view);
        assert_eq!((grown.min.x, grown.max.x, grown.min.y, grown.max.y), (1540.0, 1600.0, 300.0, 326.0));
        let roomy = egui::Rect::from_min_max(egui::pos2(100.0, 100.0), egui::pos2(400.0, 300.0));
        assert_eq!(room_for(roomy, room, view), roomy);
    }
}
