//! Round scenery in edit mode, for any ruleset of free positions (covers, lights, traps,
//! areas…, as its rules block lists them, `fray_core::edit::EditRules`): pressed inside its
//! circle a piece is dragged to a new centre, pressed on its rim it is sized, and when let go
//! the edit is made through the ruleset's checks. While dragged, its centre and radius are
//! shown in the ruleset's unit beside the pointer. The selected piece's form sets both by
//! number, or deletes it; "Add" puts a new one (like the last of its kind) mid-view.

use bevy::prelude::*;
use bevy_egui::egui::{self, RichText};
use fray_core::board::Space;
use fray_core::edit::{RoundScenery, ScenarioEdit};
use fray_core::fight::Session;

use super::super::board::pieces::{Selection, to_board, to_unit};
use super::super::pointer::{EditMode, Grab};
use super::commit::make;
use super::input::pointer_on_board;
use super::state::{EditAsk, Editor, editing};

/// How near the rim (window pixels) a press sizes a piece rather than moving it.
const RIM: f32 = 9.0;
/// How far (window pixels) the pointer goes before a press becomes a drag: a click only
/// selects the piece, and makes no edit.
const SLOP: f32 = 3.0;
/// The smallest radius a piece is sized to, in the ruleset's unit.
const SMALLEST: f32 = 0.1;

/// The piece of scenery selected and the one being dragged.
#[derive(Resource, Default)]
pub struct SceneryEdit {
    /// The selected piece: its kind and its place in its kind's list.
    pub picked: Option<(String, usize)>,
    /// The drag under way.
    drag: Option<Drag>,
}

/// A drag of a piece of scenery, on the board (board units).
#[derive(Clone, Debug)]
struct Drag {
    kind: String,
    index: usize,
    name: String,
    /// Sizing it rather than moving it.
    resize: bool,
    /// From the pointer to the centre.
    offset: Vec2,
    centre: Vec2,
    radius: f32,
    /// Where the press was, and how far (board units) the pointer must go to drag.
    pressed_at: Vec2,
    slop: f32,
    moved: bool,
    /// Its centre and radius in the scenario, in the ruleset's unit.
    from: ((f32, f32), f32),
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<SceneryEdit>();
}

/// The layout, when edit mode is on for a ruleset of free positions.
fn free_space(world: &World) -> Option<Space> {
    let space = world.get_resource::<Session>()?.ruleset().space();
    (editing(world) && !space.locations).then_some(space)
}

/// The scenario's round scenery (covers, lights…).
fn pieces(world: &World) -> Vec<RoundScenery> {
    world.get_resource::<Session>().map(|s| s.scenario.round_scenery().0).unwrap_or_default()
}

/// Presses, drags and releases on the scenery (a system, before the camera pans).
pub(super) fn drag_scenery(world: &mut World) {
    let Some(space) = free_space(world) else {
        world.resource_mut::<SceneryEdit>().drag = None;
        return;
    };
    let buttons = world.resource::<ButtonInput<MouseButton>>();
    let (down, held, up) = (
        buttons.just_pressed(MouseButton::Left),
        buttons.pressed(MouseButton::Left),
        buttons.just_released(MouseButton::Left),
    );
    let pointer = pointer_on_board(world);
    if down && let Some((at, scale)) = pointer {
        // A press on a token or a mount is theirs.
        if world.resource::<Grab>().0 {
            return;
        }
        let Some(drag) = hit(&space, &pieces(world), at, RIM * scale, SLOP * scale) else { return };
        world.resource_mut::<Grab>().0 = true;
        *world.resource_mut::<Selection>() = Selection::default();
        let mut edit = world.resource_mut::<SceneryEdit>();
        edit.picked = Some((drag.kind.clone(), drag.index));
        edit.drag = Some(drag);
        return;
    }
    let Some(mut drag) = world.resource::<SceneryEdit>().drag.clone() else { return };
    if held && let Some((at, _)) = pointer {
        drag.moved |= at.distance(drag.pressed_at) > drag.slop;
        if !drag.moved {
            return;
        }
        if drag.resize {
            drag.radius = (at - drag.centre).length().max(SMALLEST * space.unit.board);
        } else {
            drag.centre = at + drag.offset;
        }
        world.resource_mut::<SceneryEdit>().drag = Some(drag);
        return;
    }
    if up || !held {
        world.resource_mut::<SceneryEdit>().drag = None;
        let (at, radius) = in_units(&space, drag.centre, drag.radius);
        if drag.moved && (at, radius) != drag.from {
            make(world, vec![ScenarioEdit::PlaceScenery { kind: drag.kind, index: drag.index, at, radius }]);
        }
    }
}

/// The piece under board point `at`: its rim within `rim` sizes it, its inside moves it;
/// the smallest piece when several are there.
fn hit(space: &Space, pieces: &[RoundScenery], at: Vec2, rim: f32, slop: f32) -> Option<Drag> {
    pieces
        .iter()
        .map(|p| (p, to_board(space, [p.at.0, p.at.1]), p.radius * space.unit.board))
        .filter(|(_, centre, radius)| at.distance(*centre) <= radius + rim)
        .min_by(|a, b| a.2.total_cmp(&b.2))
        .map(|(p, centre, radius)| Drag {
            kind: p.kind.to_owned(),
            index: p.index,
            name: p.name.clone(),
            resize: (at.distance(centre) - radius).abs() <= rim,
            offset: centre - at,
            centre,
            radius,
            pressed_at: at,
            slop,
            moved: false,
            from: (p.at, p.radius),
        })
}

/// A board centre and radius in the ruleset's unit, to a tenth.
fn in_units(space: &Space, centre: Vec2, radius: f32) -> ((f32, f32), f32) {
    let at = to_unit(space, centre);
    let tenth = |v: f32| (v * 10.0).round() / 10.0;
    ((tenth(at[0]), tenth(at[1])), tenth(radius / space.unit.board).max(SMALLEST))
}

/// The selected piece ringed, and the one being dragged drawn where it would go.
pub(super) fn draw_picked(
    session: Option<Res<Session>>,
    mode: Res<EditMode>,
    edit: Res<SceneryEdit>,
    mut gizmos: Gizmos,
) {
    let Some(session) = session else { return };
    let space = session.ruleset().space();
    if !mode.0 || space.locations {
        return;
    }
    const PICKED: Color = Color::srgb(1.0, 0.85, 0.3);
    if let Some(drag) = &edit.drag {
        gizmos.circle_2d(drag.centre, drag.radius, PICKED);
        gizmos.cross_2d(drag.centre, 6.0, PICKED);
        return;
    }
    let Some((kind, index)) = &edit.picked else { return };
    let pieces = session.scenario.round_scenery().0;
    if let Some(p) = pieces.iter().find(|p| p.kind == kind && p.index == *index) {
        let centre = to_board(&space, [p.at.0, p.at.1]);
        let radius = p.radius * space.unit.board;
        gizmos.circle_2d(centre, radius, PICKED);
        gizmos.circle_2d(centre, radius + 3.0, PICKED);
        gizmos.cross_2d(centre, 6.0, PICKED);
    }
}

/// The words beside the pointer while a piece is dragged: its centre and radius in the unit.
pub(super) fn drag_words(ctx: &egui::Context, world: &World) {
    let Some(space) = free_space(world) else { return };
    let Some(drag) = &world.resource::<SceneryEdit>().drag else { return };
    let Some(pointer) = ctx.pointer_latest_pos() else { return };
    let ((x, y), r) = in_units(&space, drag.centre, drag.radius);
    let unit = space.unit.short;
    egui::Area::new(egui::Id::new("scenery drag words"))
        .fixed_pos(pointer + egui::vec2(18.0, 12.0))
        .order(egui::Order::Tooltip)
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.label(
                    RichText::new(format!("{}: ({x}, {y}) {unit}, radius {r} {unit}", drag.name)).strong(),
                );
            });
        });
}

/// "Scenery" in the editor's panel: how to move and size it, and a button per kind to add one.
pub(super) fn add_form(ui: &mut egui::Ui, world: &World, asks: &mut Vec<EditAsk>) {
    let Some(space) = free_space(world) else { return };
    let Some(session) = world.get_resource::<Session>() else { return };
    let kinds = session.scenario.round_scenery().1;
    if kinds.is_empty() {
        return;
    }
    let unit = space.unit.short;
    ui.label(RichText::new("Scenery").strong());
    ui.label(format!(
        "Drag inside a circle to move it, on its rim to size it (the scale bar counts {unit}). Add:"
    ));
    ui.horizontal_wrapped(|ui| {
        for (kind, about) in &kinds {
            if ui.button(format!("+ {kind}")).on_hover_text(*about).clicked() {
                asks.push(EditAsk::AddScenery(kind.to_string()));
            }
        }
    });
}

/// The selected piece's form: its centre and radius by number, or its deletion. False when
/// no piece is selected.
pub(super) fn piece_form(ui: &mut egui::Ui, world: &World, editor: &Editor, asks: &mut Vec<EditAsk>) -> bool {
    let Some(space) = free_space(world) else { return false };
    let Some(session) = world.get_resource::<Session>() else { return false };
    let pieces = session.scenario.round_scenery().0;
    let picked = &world.resource::<SceneryEdit>().picked;
    let Some(piece) = pieces
        .iter()
        .find(|p| picked.as_ref().is_some_and(|(kind, index)| p.kind == kind && p.index == *index))
    else {
        return false;
    };
    let unit = space.unit.short;
    ui.label(RichText::new(format!("{} ({} {})", piece.name, piece.kind, piece.index + 1)).strong());
    let key = format!("{}#{}", piece.kind, piece.index);
    let fields = [("x", piece.at.0), ("y", piece.at.1), ("radius", piece.radius)];
    let mut changed = None;
    egui::Grid::new(("scenery numbers", key.as_str())).num_columns(2).show(ui, |ui| {
        for (field, now) in fields {
            ui.label(format!("{field} ({unit})"));
            let draft = match &editor.number_draft {
                Some((who, f, v)) if (who, f.as_str()) == (&key, field) => Some(*v),
                _ => None,
            };
            let mut value = draft.unwrap_or(now as f64);
            let response = ui.add(egui::DragValue::new(&mut value).speed(0.1).max_decimals(1));
            let busy = response.dragged() || response.has_focus();
            if !busy && (response.changed() || draft.is_some()) {
                asks.push(EditAsk::NumberDraft(None));
                if (value - now as f64).abs() > 1e-6 {
                    changed = Some((field, value as f32));
                }
            } else if response.changed() {
                asks.push(EditAsk::NumberDraft(Some((key.clone(), field.to_owned(), value))));
            }
            ui.end_row();
        }
    });
    if let Some((field, value)) = changed {
        let (mut at, mut radius) = (piece.at, piece.radius);
        match field {
            "x" => at.0 = value,
            "y" => at.1 = value,
            _ => radius = value,
        }
        asks.push(EditAsk::Edit(vec![ScenarioEdit::PlaceScenery {
            kind: piece.kind.to_owned(),
            index: piece.index,
            at,
            radius,
        }]));
    }
    if ui
        .button(RichText::new(format!("Delete this {}", piece.kind)).color(egui::Color32::LIGHT_RED))
        .clicked()
    {
        asks.push(EditAsk::Edit(vec![ScenarioEdit::DeleteScenery {
            kind: piece.kind.to_owned(),
            index: piece.index,
        }]));
        asks.push(EditAsk::PickScenery(None));
    }
    true
}
