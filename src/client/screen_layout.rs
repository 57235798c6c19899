//! What `--layout-out` writes: every card, token, mount, chip and board text as drawn in each
//! window, one JSON object each (`window`, `kind`, `id`, `text` for texts, `rect` as
//! `[x, y, w, h]` in that window's logical pixels from its top left), and one `board` object
//! per window: the room the board is seen in. Scripted drags read where to press; the layout
//! check (`.ci/layout.py check`) reads overlaps, covered card texts and tokens out of view.
//! A damage float (words rising over a token for a moment) is written as kind `float`; a
//! crowd's "N here" is a text whose id lists the names in it. Each text has its `font` size in
//! that window's pixels; each window has a `screen` object (its whole size), and its `board`
//! says whether the view holds the `whole` board (else it shows a part, too big to read
//! whole, around whoever acts). A token's marks are kind `mark` ("ID:WORD") and its pips kind
//! `pip` ("ID:lit", "ID:spent"). The overview's marks (a board shown in part on the table's
//! screen) are kind `overview`, their ids "combatant:ID", "location:ID" or "mount:ID"; one object
//! of kind `names` maps each stable id to the name people read.

use bevy::camera::visibility::RenderLayers;
use bevy::prelude::*;
use bevy::sprite::Anchor;
use bevy::text::{Justify, TextBounds, TextLayout, TextLayoutInfo};
use serde_json::{Value, json};

use super::board::pieces::{Card, CardRect, Chip, MountToken, Token, text_rect};
use super::camera::view::BoardCamera;
use super::table::view::TableView;
use super::table::window::TableCamera;

/// One window's view of the board.
struct View {
    window: &'static str,
    camera: Camera,
    at: GlobalTransform,
    layers: RenderLayers,
    /// Logical pixels at the top and the bottom the window's bar, lower third and overview cover.
    bar: (f32, f32),
    /// The view shows the board in part.
    part: bool,
}

impl View {
    /// A world rectangle in the window's pixels, `[x, y, w, h]`.
    fn rect(&self, world: Rect) -> Option<[f32; 4]> {
        let a = self.camera.world_to_viewport(&self.at, world.min.extend(0.0)).ok()?;
        let b = self.camera.world_to_viewport(&self.at, world.max.extend(0.0)).ok()?;
        let (min, max) = (a.min(b), a.max(b));
        Some([min.x, min.y, max.x - min.x, max.y - min.y])
    }

    /// How many of the window's pixels one world unit is.
    fn pixels(&self) -> f32 {
        self.rect(Rect::new(0.0, 0.0, 0.0, 100.0)).map_or(0.0, |r| r[3] / 100.0)
    }

    fn sees(&self, layers: Option<&RenderLayers>) -> bool {
        super::audience::sees(&self.layers, layers)
    }
}

/// Every drawing of the board in every window, as `--layout-out` writes it.
pub(super) fn collect(world: &mut World) -> Vec<Value> {
    let views = views(world);
    let mut out = frames(&views);
    let ids = Ids::read(world);
    let mut drawings = world.query::<(
        Entity,
        &GlobalTransform,
        &InheritedVisibility,
        Option<&RenderLayers>,
        Option<&Sprite>,
        Option<&Anchor>,
        Option<&CardRect>,
    )>();
    let mut texts =
        world.query::<(&Text2d, &TextLayoutInfo, Option<&TextBounds>, Option<&TextLayout>, &TextFont)>();
    for (e, at, shown, layers, sprite, anchor, card) in drawings.iter(world) {
        let Some((kind, id)) = ids.of(e) else { continue };
        // A sprite part of a drawing (a tag over a token) is not the drawing.
        if !shown.get() || (!ids.own.contains_key(&e) && texts.get(world, e).is_err()) {
            continue;
        }
        let mut font = 0.0;
        let (area, text) = if let Ok((text, layout, bounds, justify, size)) = texts.get(world, e) {
            if text.0.trim().is_empty() || layout.size == Vec2::ZERO {
                continue;
            }
            let centred = justify.is_some_and(|j| j.justify == Justify::Center);
            if let bevy::text::FontSize::Px(px) = size.font_size {
                font = px * at.scale().y;
            }
            (text_rect(at, anchor, layout.size, bounds, centred), Some(text.0.trim_end().to_owned()))
        } else if let Some(card) = card {
            (card.0, None)
        } else if let Some(size) = sprite.and_then(|s| s.custom_size) {
            (sprite_rect(at, anchor, size), None)
        } else {
            continue;
        };
        // A damage float's words rise over the board for a moment: not a board text.
        let kind = match (kind, &text) {
            ("float", _) => "float",
            (_, Some(_)) => "text",
            (kind, None) => kind,
        };
        // A drawing a window does not show (a token hidden from the table) is written with
        // `shown: false`, where it would stand; a text only where it is shown.
        for view in &views {
            let shown = view.sees(layers);
            if text.is_some() && !shown {
                continue;
            }
            if let Some(rect) = view.rect(area) {
                let mut drawn = json!({"window": view.window, "kind": kind, "id": id, "text": text, "rect": rect, "shown": shown});
                if text.is_some() {
                    drawn["font"] = json!(font * view.pixels());
                }
                out.push(drawn);
            }
        }
    }
    if let Some(texts) = world.get_resource::<UiTexts>() {
        out.extend(texts.gm.iter().chain(&texts.table).cloned());
    }
    if let Some(marks) = world.get_resource::<super::table::OverviewMarks>() {
        out.extend(marks.gm.iter().chain(&marks.table).cloned());
    }
    out.push(names(world));
    out
}

/// Each stable id of the table with the name a person reads for it (kind `names`; the
/// combatants' ids listed apart): the layout check finds ids written where names belong.
fn names(world: &mut World) -> Value {
    use fray_core::location::Location;
    use fray_core::prelude::Mount;
    let mut names = serde_json::Map::new();
    let mut people = Vec::new();
    if let Some(index) = world.get_resource::<fray_core::prelude::TableIndex>() {
        for (id, &e) in &index.combatants {
            names.insert(id.to_string(), json!(fray_core::table::name(world, e)));
            people.push(id.to_string());
        }
    }
    let mut places = world.query::<&Location>();
    names.extend(places.iter(world).map(|l| (l.id.to_string(), json!(l.name))));
    let mut mounts = world.query::<&Mount>();
    names.extend(mounts.iter(world).map(|m| (m.id.to_string(), json!(m.name))));
    json!({"window": "", "kind": "names", "id": "names", "rect": [0.0, 0.0, 0.0, 0.0], "shown": false, "names": names, "combatants": people})
}

/// The board's views: the GM's window (the table's screen in table mode) and the table's
/// window, if open.
fn views(world: &mut World) -> Vec<View> {
    let mut views = Vec::new();
    let table_mode = world.get_resource::<TableView>().is_some_and(|v| v.mode);
    let part = world.get_resource::<super::camera::view::Framed>().is_some_and(|f| f.part);
    let mut gm = world.query_filtered::<(&Camera, &GlobalTransform, &RenderLayers), With<BoardCamera>>();
    for (camera, at, layers) in gm.iter(world) {
        // In table mode the GM's window is the table's screen, its board below the bar.
        let window = if table_mode { "table" } else { "gm" };
        views.push(View {
            window,
            camera: camera.clone(),
            at: *at,
            layers: layers.clone(),
            bar: (0.0, 0.0),
            part,
        });
    }
    let settings = world.get_resource::<TableView>().map(|v| v.settings.clone());
    let mut table = world.query::<(&Camera, &GlobalTransform, &RenderLayers, &TableCamera)>();
    for (camera, at, layers, state) in table.iter(world) {
        let height = camera.logical_target_size().map_or(0.0, |s| s.y);
        let kept = settings.as_ref().map_or((0.0, 0.0), |s| state.kept(s, height));
        views.push(View {
            window: "table",
            camera: camera.clone(),
            at: *at,
            layers: layers.clone(),
            bar: kept,
            part: state.part,
        });
    }
    views
}

/// Each view's board area and screen.
fn frames(views: &[View]) -> Vec<Value> {
    let mut out = Vec::new();
    for view in views {
        if let Some(room) = view.camera.logical_viewport_rect() {
            let (top, bottom) = (room.min.y + view.bar.0, room.max.y - view.bar.1);
            out.push(json!({"window": view.window, "kind": "board", "id": null, "whole": !view.part,
                "rect": [room.min.x, top, room.width(), (bottom - top).max(0.0)]}));
        }
        if let Some(size) = view.camera.logical_target_size() {
            out.push(json!({"window": view.window, "kind": "screen", "id": null, "rect": [0.0, 0.0, size.x, size.y]}));
        }
    }
    out
}

/// A sprite's world rectangle: `size` placed by its anchor.
fn sprite_rect(at: &GlobalTransform, anchor: Option<&Anchor>, size: Vec2) -> Rect {
    let size = size * at.scale().truncate();
    let a = anchor.map_or(Vec2::ZERO, |a| a.0);
    let min = at.translation().truncate() - size * (a + 0.5);
    Rect::from_corners(min, min + size)
}

/// Which drawing each entity is, or belongs to, with its stable id.
struct Ids {
    own: std::collections::HashMap<Entity, (&'static str, String)>,
    parent: std::collections::HashMap<Entity, Entity>,
}

impl Ids {
    fn read(world: &mut World) -> Self {
        use fray_core::location::Location;
        use fray_core::prelude::Mount;
        // The stable id of what a drawing shows: a location's, a mount's or a combatant's.
        let id = |world: &World, of: Entity| match (world.get::<Location>(of), world.get::<Mount>(of)) {
            (Some(l), _) => l.id.to_string(),
            (None, Some(m)) => m.id.to_string(),
            (None, None) => fray_core::table::id(world, of).to_string(),
        };
        let mut own = std::collections::HashMap::new();
        let mut cards = world.query::<(Entity, &Card)>();
        own.extend(cards.iter(world).map(|(d, c)| (d, ("card", id(world, c.0)))));
        let mut tokens = world.query::<(Entity, &Token)>();
        own.extend(tokens.iter(world).map(|(d, t)| (d, ("token", id(world, t.0)))));
        let mut mounts = world.query::<(Entity, &MountToken)>();
        own.extend(mounts.iter(world).map(|(d, m)| (d, ("mount", id(world, m.0)))));
        let mut chips = world.query::<(Entity, &Chip)>();
        own.extend(
            chips.iter(world).map(|(d, c)| (d, ("chip", format!("{}:{}", c.kind.id(), id(world, c.owner))))),
        );
        let mut floats = world.query_filtered::<(Entity, &ChildOf), With<super::damage::DamageFloat>>();
        own.extend(floats.iter(world).map(|(d, p)| {
            let of = world.get::<Token>(p.parent()).map(|t| id(world, t.0)).unwrap_or_default();
            (d, ("float", of))
        }));
        // A mark or a pip: "ID:WORD" ("ysolt:surprised"), "ID:lit" or "ID:spent".
        let on = |world: &World, p: &ChildOf| {
            world.get::<Token>(p.parent()).map(|t| id(world, t.0)).unwrap_or_default()
        };
        let mut marks = world.query::<(Entity, &super::marks::MarkIcon, &ChildOf)>();
        own.extend(marks.iter(world).map(|(d, m, p)| (d, ("mark", format!("{}:{}", on(world, p), m.0)))));
        let mut pips = world.query::<(Entity, &super::marks::Pip, &ChildOf)>();
        own.extend(pips.iter(world).map(|(d, l, p)| {
            (d, ("pip", format!("{}:{}", on(world, p), if l.0 { "lit" } else { "spent" })))
        }));
        let mut crowds = world.query::<(Entity, &super::board::pieces::Crowd)>();
        own.extend(crowds.iter(world).map(|(d, c)| (d, ("crowd", c.names.join(", ")))));
        let mut ruler = world.query_filtered::<Entity, With<super::space::RulerLabel>>();
        own.extend(ruler.iter(world).map(|d| (d, ("ruler", "ruler".to_owned()))));
        let mut scenery = world.query_filtered::<Entity, With<super::space::Scenery>>();
        own.extend(scenery.iter(world).map(|d| (d, ("scenery", String::new()))));
        let mut children = world.query::<(Entity, &ChildOf)>();
        let parent = children.iter(world).map(|(e, p)| (e, p.parent())).collect();
        Self { own, parent }
    }

    /// The drawing `e` is or belongs to (a text on a token belongs to the token).
    fn of(&self, e: Entity) -> Option<(&'static str, &str)> {
        let mut at = e;
        for _ in 0..8 {
            if let Some((kind, id)) = self.own.get(&at) {
                return Some((kind, id));
            }
            at = *self.parent.get(&at)?;
        }
        None
    }
}

/// The egui texts each window showed in its last pass (`--layout-out` only), each with the
/// part of the screen it is in: `window`, kind `ui`, `id` (the panel or area: "top bar",
/// "decisions", "sheet", "dice", "message", "top line", "roll", "lower third", else
/// "window" or "popup"), `text`, `rect` in the window's logical pixels, `font`, and `cut`
/// where the line was cut short with "…".
#[derive(Resource, Default)]
pub(super) struct UiTexts {
    gm: Vec<Value>,
    table: Vec<Value>,
}

pub(super) fn plugin(app: &mut App) {
    if app.world().resource::<super::options::PlayOptions>().layout_out.is_none() {
        return;
    }
    app.init_resource::<UiTexts>()
        .add_systems(bevy_egui::EguiPrimaryContextPass, keep_gm_texts.after(super::order::Ui::CrowdNames))
        .add_systems(
            super::table::window::TableContextPass,
            keep_table_texts.after(super::table::draw_table_overlay),
        );
}

fn keep_gm_texts(world: &mut World) {
    let mut contexts =
        world.query_filtered::<&mut bevy_egui::EguiContext, With<bevy_egui::PrimaryEguiContext>>();
    let Ok(mut context) = contexts.single_mut(world) else { return };
    let ctx = context.get_mut().clone();
    let mode = world.get_resource::<TableView>().is_some_and(|v| v.mode);
    let texts = ui_texts(&ctx, if mode { "table" } else { "gm" });
    world.resource_mut::<UiTexts>().gm = texts;
}

fn keep_table_texts(world: &mut World) {
    let mut contexts = world.query_filtered::<&mut bevy_egui::EguiContext, With<TableCamera>>();
    let Ok(mut context) = contexts.single_mut(world) else { return };
    let ctx = context.get_mut().clone();
    world.resource_mut::<UiTexts>().table = ui_texts(&ctx, "table");
}

/// The panels and areas by the ids the client gives them.
const PARTS: [(&str, &str); 11] = [
    ("phases", "top bar"),
    ("decisions", "decisions"),
    ("sheet", "sheet"),
    ("dice", "dice"),
    ("board_message", "message"),
    ("table_bar", "top line"),
    ("table_roll", "roll"),
    ("table_lower_third", "lower third"),
    ("Balance", "balance"),
    ("table_mode_hint", "hint"),
    (super::table::PINNED_LAYER, "pinned name"),
];

/// Every text egui painted this pass on `ctx`, where it shows.
fn ui_texts(ctx: &bevy_egui::egui::Context, window: &str) -> Vec<Value> {
    use bevy_egui::egui::{self, Id, Order};
    let zoom = ctx.zoom_factor();
    let panels: Vec<(egui::Rect, &str)> = PARTS
        .iter()
        .filter_map(|(id, part)| {
            Some((egui::containers::panel::PanelState::load(ctx, Id::new(*id))?.outer_rect, *part))
        })
        .collect();
    let area = |layer: egui::LayerId, at: egui::Pos2| -> &str {
        if let Some((_, part)) = PARTS.iter().find(|(id, _)| Id::new(*id) == layer.id) {
            return part;
        }
        match layer.order {
            Order::Background => panels.iter().find(|(r, _)| r.contains(at)).map_or("board", |(_, p)| p),
            Order::Middle => "window",
            _ => "popup",
        }
    };
    let layers: Vec<egui::LayerId> = ctx.memory(|m| m.layer_ids().collect());
    let mut out = Vec::new();
    ctx.graphics(|g| {
        for layer in layers {
            let Some(list) = g.get(layer) else { continue };
            for clipped in list.all_entries() {
                let mut found = Vec::new();
                super::table::each_text(&clipped.shape, &mut |text| {
                    found.push((placed(text), text.galley.elided))
                });
                for ((rect, text, font), cut) in found {
                    let seen = rect.intersect(clipped.clip_rect);
                    if text.trim().is_empty() || seen.width() <= 0.0 || seen.height() <= 0.0 {
                        continue;
                    }
                    let r = [seen.min.x * zoom, seen.min.y * zoom, seen.width() * zoom, seen.height() * zoom];
                    out.push(json!({"window": window, "kind": "ui", "id": area(layer, seen.center()),
                        "text": text, "rect": r, "font": font * zoom, "cut": cut}));
                }
            }
        }
    });
    out
}

/// Where a text lies (in points), its words and its first font size.
fn placed(text: &bevy_egui::egui::epaint::TextShape) -> (bevy_egui::egui::Rect, String, f32) {
    let font = text.galley.job.sections.first().map_or(0.0, |s| s.format.font_id.size);
    // The glyphs' union: a label wrapped after others starts its first row indented.
    let glyphs = text
        .galley
        .rows
        .iter()
        .flat_map(|r| r.row.glyphs.iter().map(move |g| g.logical_rect().translate(r.pos.to_vec2())));
    let rect = glyphs.reduce(|a, b| a.union(b)).unwrap_or(text.galley.rect);
    (rect.translate(text.pos.to_vec2()), text.galley.text().to_owned(), font)
}
