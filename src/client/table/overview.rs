//! The overview: when the table's screen can show the board only in part (whole, it would be
//! too small to read), a strip along the bottom of the screen shows it whole and small:
//! every card, every token and mount the table may see as a mark in its colour, whoever acts
//! ringed, and the frame of the part shown above. A viewer sees the whole fight and who acts
//! now; the part above reads well. Drawn in the table window and in the GM's in table mode.

use bevy::camera::visibility::RenderLayers;
use bevy::prelude::*;
use bevy_egui::egui;
use serde_json::{Value, json};

use super::super::audience;
use super::super::board::pieces::{Card, CardRect, MountToken, TOKEN, Token};
use super::overlay::type_scale;

/// The share of the board's room the strip takes, when the board shows in part.
const SHARE: f32 = 0.3;

/// The strip's height on a board room `room` points tall (none for a board shown whole).
pub fn strip(room: f32, part: bool) -> f32 {
    if part { (room * SHARE).round() } else { 0.0 }
}

/// What the overview shows, in world units: the board's bounds, the cards, the tokens (their
/// place, side and colour), the mounts, where whoever acts stands, and the part of the board
/// shown above it.
#[derive(Default)]
pub(super) struct Board {
    bounds: Rect,
    cards: Vec<(String, Rect)>,
    tokens: Vec<(String, Vec2, f32, egui::Color32)>,
    mounts: Vec<(String, Vec2, Vec2)>,
    shown: Rect,
    focus: Option<Vec2>,
}

impl Board {
    /// The board a camera marked `M` shows in part, the part `shown` in world units.
    pub(super) fn read<M: Component>(world: &mut World, shown: Rect) -> Self {
        let mut cameras = world.query_filtered::<&RenderLayers, With<M>>();
        let Ok(layers) = cameras.single(world).cloned() else { return Self::default() };
        let seen = |shown: &InheritedVisibility, on: Option<&RenderLayers>| {
            shown.get() && audience::sees(&layers, on)
        };
        let mut cards = world.query::<(&Card, &CardRect, &InheritedVisibility, Option<&RenderLayers>)>();
        let cards: Vec<(String, Rect)> = cards
            .iter(world)
            .filter(|(.., shown, on)| seen(shown, *on))
            .map(|(card, rect, ..)| (format!("location:{}", place(world, card.0)), rect.0))
            .collect();
        let mut tokens =
            world.query::<(&Token, &GlobalTransform, &Sprite, &InheritedVisibility, Option<&RenderLayers>)>();
        let tokens: Vec<(String, Vec2, f32, egui::Color32)> = tokens
            .iter(world)
            .filter(|(.., shown, on)| seen(shown, *on))
            .map(|(token, at, sprite, ..)| {
                let side = sprite.custom_size.map_or(TOKEN, |s| s.min_element()) * at.scale().y;
                let id = format!("combatant:{}", fray_core::table::id(world, token.0));
                (id, at.translation().truncate(), side, colour(sprite.color))
            })
            .collect();
        let mut mounts = world.query::<(
            &MountToken,
            &GlobalTransform,
            &Sprite,
            &InheritedVisibility,
            Option<&RenderLayers>,
        )>();
        let mounts = mounts
            .iter(world)
            .filter(|(.., shown, on)| seen(shown, *on))
            .map(|(mount, at, sprite, ..)| {
                let size = sprite.custom_size.unwrap_or(Vec2::splat(TOKEN)) * at.scale().truncate();
                (format!("mount:{}", mount_id(world, mount.0)), at.translation().truncate(), size)
            })
            .collect();
        let focus = world.resource::<crate::client::motion::Acting>().focus(true);
        let bounds = cards
            .iter()
            .map(|(_, r)| *r)
            .chain(tokens.iter().map(|(_, at, side, _)| Rect::from_center_size(*at, Vec2::splat(*side))));
        let bounds = bounds.reduce(|a, b| a.union(b)).unwrap_or_default();
        Self { bounds, cards, tokens, mounts, shown, focus }
    }

    /// Draws the overview into `strip` (points) of `ctx`; each mark drawn, for the layout
    /// file: its kind (`overview`), the id of what it stands for, its place in points.
    pub(super) fn draw(&self, ctx: &egui::Context, strip: egui::Rect) -> Vec<(String, egui::Rect)> {
        let mut drawn = Vec::new();
        if self.bounds.width() <= 0.0 || strip.height() < 20.0 {
            return drawn;
        }
        let k = type_scale(ctx.viewport_rect().height());
        let painter = ctx.layer_painter(egui::LayerId::background());
        painter.rect_filled(strip, 0.0, super::overlay::BACKDROP);
        let margin = (10.0 * k).round();
        let room = strip.shrink(margin);
        // What the strip is, at its top left, in the table's smallest type.
        let words = egui::FontId::proportional((0.026 * ctx.viewport_rect().height()).round());
        let label = painter.text(
            strip.min + egui::vec2(margin, margin / 2.0),
            egui::Align2::LEFT_TOP,
            "The whole board",
            words,
            egui::Color32::GRAY,
        );
        let fitted =
            |room: egui::Rect| (room.width() / self.bounds.width()).min(room.height() / self.bounds.height());
        // A board drawn as wide as the strip goes below the words.
        let room = if self.bounds.width() * fitted(room) > room.width() - 2.0 * (label.width() + margin) {
            egui::Rect::from_min_max(egui::pos2(room.min.x, label.max.y + margin / 2.0), room.max)
        } else {
            room
        };
        let scale = fitted(room);
        let centre = self.bounds.center();
        let at = |p: Vec2| room.center() + egui::vec2((p.x - centre.x) * scale, (centre.y - p.y) * scale);
        let rect = |r: Rect| egui::Rect::from_two_pos(at(r.min), at(r.max));
        for (id, card) in &self.cards {
            let r = rect(*card);
            painter.rect_filled(r, 2.0, egui::Color32::from_rgb(196, 178, 140));
            drawn.push((id.clone(), r));
        }
        // A mark no smaller than 2% of the screen's height: a dot that shows on a stream.
        let least = 0.02 * ctx.viewport_rect().height() / 2.0;
        for (id, at_, size) in &self.mounts {
            let r = egui::Rect::from_center_size(
                at(*at_),
                (egui::vec2(size.x, size.y) * scale).max(egui::Vec2::splat(least)),
            );
            painter.rect_filled(r, 1.0, egui::Color32::from_rgb(115, 82, 46));
            drawn.push((id.clone(), r));
        }
        for (id, at_, side, colour) in &self.tokens {
            let radius = (side * scale / 2.0).max(least);
            let c = at(*at_);
            painter.circle(c, radius, *colour, egui::Stroke::new(1.0, egui::Color32::WHITE));
            drawn.push((id.clone(), egui::Rect::from_center_size(c, egui::Vec2::splat(2.0 * radius))));
        }
        if let Some(focus) = self.focus {
            let ring = (TOKEN * scale / 2.0).max(least) + 3.0 * k;
            painter.circle_stroke(at(focus), ring, egui::Stroke::new(2.5 * k, egui::Color32::YELLOW));
        }
        // The part the screen shows above, framed.
        let part = rect(self.shown).intersect(room.expand(margin / 2.0));
        painter.rect_stroke(
            part,
            0.0,
            egui::Stroke::new(2.0 * k, egui::Color32::from_rgb(90, 215, 255)),
            egui::StrokeKind::Middle,
        );
        drawn
    }
}

/// Where the last overviews' marks stood, as the layout file writes them: the GM's window's
/// (in table mode) and the table window's.
#[derive(Resource, Default)]
pub struct Marks {
    /// The GM's window's, in table mode.
    pub gm: Vec<Value>,
    /// The table window's.
    pub table: Vec<Value>,
}

/// The marks an overview drew, in a window's logical pixels, as the layout file writes them.
pub(super) fn layout(window: &str, drawn: &[(String, egui::Rect)], zoom: f32) -> Vec<Value> {
    drawn
        .iter()
        .map(|(id, r)| {
            let rect = [r.min.x * zoom, r.min.y * zoom, r.width() * zoom, r.height() * zoom];
            json!({"window": window, "kind": "overview", "id": id, "rect": rect})
        })
        .collect()
}

/// A card's location's id.
fn place(world: &World, location: Entity) -> String {
    fray_core::location::place_id(world, location).to_string()
}

/// A mount's id.
fn mount_id(world: &World, mount: Entity) -> String {
    world.get::<fray_core::prelude::Mount>(mount).map_or_else(String::new, |m| m.id.to_string())
}

/// A sprite's colour for egui.
fn colour(c: Color) -> egui::Color32 {
    let c = c.to_srgba();
    egui::Color32::from_rgb((c.red * 255.0) as u8, (c.green * 255.0) as u8, (c.blue * 255.0) as u8)
}
