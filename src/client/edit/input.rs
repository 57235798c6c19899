//! The board in edit mode: cards dragged to move them or to draw an arrow, tokens and mounts
//! dropped where they start, arrows clicked away.

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use fray_core::edit::{Placement, ScenarioEdit};
use fray_core::fight::ruleset;
use fray_core::location::{EnteredFrom, Location, OpenField};
use fray_core::table::Mount;

use super::commit::make;
use super::state::{CardDrag, CardDragState, CardTool, EditAsk, Editor, Queued, editing};
use crate::client::board::arrows::arrows;
use crate::client::board::pieces::{Card, CardRect, Spread, TOKEN, Token, card_at};
use crate::client::camera::view::{BoardArea, BoardCamera};
use crate::client::drag::Dropped;
use crate::client::pointer::{BoardMessage, EditMode, Grab, pointer_world};

/// Whether a window point (logical pixels) lies on the board, between the panels.
pub(super) fn over_board(world: &mut World, area: &BoardArea, p: Vec2) -> bool {
    let mut windows = world.query_filtered::<&Window, With<PrimaryWindow>>();
    windows.iter(world).next().is_some_and(|window| area.holds(window, p * window.scale_factor()))
}

pub(super) fn press_card(
    press: On<Pointer<Press>>,
    mode: Res<EditMode>,
    cards: Query<(), With<Card>>,
    mut grab: ResMut<Grab>,
) {
    if mode.0 && cards.contains(press.entity) {
        grab.0 = true;
    }
}

pub(super) fn card_drag_start(
    start: On<Pointer<DragStart>>,
    (editor, mode): (Res<Editor>, Res<EditMode>),
    cards: Query<(&Card, &Transform)>,
    camera: Single<(&Camera, &GlobalTransform), With<BoardCamera>>,
    mut drag: ResMut<CardDrag>,
) {
    let Ok((card, transform)) = cards.get(start.entity) else { return };
    if !mode.0 || drag.0.is_some() {
        return;
    }
    let Some(at) = pointer_world(&camera.into_inner(), start.pointer_location.position) else { return };
    drag.0 = Some(CardDragState {
        place: card.0,
        offset: transform.translation.truncate() - at,
        at,
        connect: editor.tool == CardTool::Connect,
    });
}

pub(super) fn card_drag(
    moved: On<Pointer<Drag>>,
    cards: Query<&Card>,
    spread: Res<Spread>,
    camera: Single<(&Camera, &GlobalTransform), With<BoardCamera>>,
    mut drag: ResMut<CardDrag>,
    mut locations: Query<&mut Location>,
) {
    let Some(state) = drag.0.as_mut().filter(|d| cards.get(moved.entity).is_ok_and(|c| c.0 == d.place))
    else {
        return;
    };
    let Some(at) = pointer_world(&camera.into_inner(), moved.pointer_location.position) else { return };
    state.at = at;
    if !state.connect
        && let Ok(mut location) = locations.get_mut(state.place)
    {
        // Drawn where it is dragged until the edit is made (or refused, which puts it back).
        location.position = spread.back(at + state.offset).into();
    }
}

pub(super) fn card_drag_end(
    end: On<Pointer<DragEnd>>,
    cards: Query<(&Card, &CardRect)>,
    keys: Res<ButtonInput<KeyCode>>,
    editor: Res<Editor>,
    spread: Res<Spread>,
    locations: Query<(&Location, Option<&EnteredFrom>)>,
    mut drag: ResMut<CardDrag>,
    mut queued: ResMut<Queued>,
    mut message: ResMut<BoardMessage>,
) {
    if !cards.get(end.entity).is_ok_and(|(c, _)| drag.0.is_some_and(|d| d.place == c.0)) {
        return;
    }
    let Some(state) = drag.0.take() else { return };
    let Ok((source, _)) = locations.get(state.place) else { return };
    if !state.connect {
        let to = spread.back(state.at + state.offset).round();
        queued.0.push(EditAsk::Edit(vec![ScenarioEdit::MoveLocation {
            id: source.id.clone(),
            to: (to.x, to.y),
        }]));
        return;
    }
    let rects: Vec<(Entity, Rect)> = cards.iter().map(|(c, r)| (c.0, r.0)).collect();
    let Some(target) = card_at(state.at, &rects).filter(|&t| t != state.place) else { return };
    let Ok((target_location, _)) = locations.get(target) else { return };
    let both = editor.both_ways || keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    // Arrows already there are left as they are.
    let has = |from: Entity, to: Entity| {
        locations.get(to).is_ok_and(|(_, e)| e.is_some_and(|e| e.0.contains(&from)))
    };
    let mut edits = Vec::new();
    for (from, to, f, t) in
        [(state.place, target, source, target_location), (target, state.place, target_location, source)]
            .into_iter()
            .take(if both { 2 } else { 1 })
    {
        if !has(from, to) {
            edits.push(ScenarioEdit::SetEntry { from: f.id.clone(), to: t.id.clone(), allowed: true });
        }
    }
    if edits.is_empty() {
        message.show("That arrow is already there");
    } else {
        queued.0.push(EditAsk::Edit(edits));
    }
}

/// A drop of a combatant's token in edit mode: where it starts (a card, else the field).
/// In edit mode a drop on the board says where the piece starts (in play, `drag` sends it
/// to the rules); runs just before `drag` would.
pub(super) fn place_drop(world: &mut World) {
    if !editing(world) || ruleset(world).is_none() {
        return;
    }
    let Some((e, at)) = world.resource_mut::<Dropped>().0.take() else { return };
    let drop = crate::client::drag::drop_point(world, e, at);
    place_dropped(world, e, drop.card, drop.at, drop.mount);
}

fn place_dropped(world: &mut World, e: Entity, card: Option<Entity>, field: [f32; 2], mount: Option<Entity>) {
    let at = match card.and_then(|c| world.get::<Location>(c)) {
        Some(location) => Placement::Location(location.id.clone()),
        None => Placement::Field((field[0].round(), field[1].round())),
    };
    let mount_id = |m: Entity| world.get::<Mount>(m).map(|m| m.id.clone());
    let edit = match (mount_id(e), mount.and_then(mount_id)) {
        (Some(id), _) => ScenarioEdit::PlaceMount { id, at },
        (None, Some(mount)) => ScenarioEdit::Ride { id: fray_core::table::id(world, e), mount },
        (None, None) => ScenarioEdit::PlaceCombatant { id: fray_core::table::id(world, e), at },
    };
    make(world, vec![edit]);
}

/// How near (in window pixels) a click must fall to an arrow to take it away.
pub(super) const ARROW_REACH: f32 = 10.0;

/// The arrow under a board point, if one is within `reach` board units.
pub(super) fn arrow_at(world: &mut World, at: Vec2, reach: f32) -> Option<(Entity, Entity, Vec<Vec2>)> {
    let drawn = crate::client::board::pieces::card_rects(world).into_iter().collect();
    let mut locations = world.query_filtered::<(Entity, &EnteredFrom), Without<OpenField>>();
    let entered: Vec<(Entity, EnteredFrom)> =
        locations.iter(world).map(|(e, f)| (e, EnteredFrom(f.0.clone()))).collect();
    arrows(&drawn, entered.iter().map(|(e, f)| (*e, f)))
        .into_iter()
        .map(|a| {
            let d = a.2.windows(2).map(|w| distance_to_segment(at, w[0], w[1])).fold(f32::INFINITY, f32::min);
            (a, d)
        })
        .filter(|(_, d)| *d <= reach)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(a, _)| a)
}

fn distance_to_segment(p: Vec2, a: Vec2, b: Vec2) -> f32 {
    let ab = b - a;
    let t = ((p - a).dot(ab) / ab.length_squared().max(1e-6)).clamp(0.0, 1.0);
    p.distance(a + ab * t)
}

/// The board point under the pointer and board units per window pixel, when the pointer
/// is on the board.
pub(super) fn pointer_on_board(world: &mut World) -> Option<(Vec2, f32)> {
    let mut windows = world.query_filtered::<&Window, With<PrimaryWindow>>();
    let cursor = windows.iter(world).next().and_then(Window::cursor_position)?;
    let area = *world.resource::<BoardArea>();
    if !over_board(world, &area, cursor) {
        return None;
    }
    let mut cameras = world.query_filtered::<(&Camera, &GlobalTransform, &Projection), With<BoardCamera>>();
    let (camera, transform, projection) = cameras.iter(world).next()?;
    let scale = match projection {
        Projection::Orthographic(o) => o.scale,
        _ => 1.0,
    };
    Some((pointer_world(&(camera, transform), cursor)?, scale))
}

/// A click (pressed and released in place) on the empty board near an arrow takes the
/// arrow away.
pub(super) fn click_arrow(world: &mut World, mut pressed: Local<Option<Vec2>>) {
    if !editing(world) {
        return;
    }
    let buttons = world.resource::<ButtonInput<MouseButton>>();
    let (down, up) = (buttons.just_pressed(MouseButton::Left), buttons.just_released(MouseButton::Left));
    if !down && !up {
        return;
    }
    let Some((at, scale)) = pointer_on_board(world) else {
        *pressed = None;
        return;
    };
    // A quick click may be pressed and released within one frame.
    if down {
        *pressed = Some(at);
    }
    if !up {
        return;
    }
    let Some(from) = pressed.take() else { return };
    let busy = world.resource::<Grab>().0 || world.resource::<CardDrag>().0.is_some();
    if busy
        || from.distance(at) > 4.0 * scale
        || card_at(at, &crate::client::board::pieces::card_rects(world)).is_some()
    {
        return;
    }
    let mut tokens = world.query_filtered::<&Transform, With<Token>>();
    if tokens.iter(world).any(|t| t.translation.truncate().distance(at) < TOKEN / 2.0) {
        return;
    }
    let Some((from, to, ..)) = arrow_at(world, at, ARROW_REACH * scale) else { return };
    let id = |e: Entity| world.get::<Location>(e).map(|l| l.id.clone());
    if let (Some(from), Some(to)) = (id(from), id(to)) {
        make(world, vec![ScenarioEdit::SetEntry { from, to, allowed: false }]);
    }
}
