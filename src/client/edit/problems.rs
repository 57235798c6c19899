//! Problems drawn on the items they name, in edit mode: a broken file's (the board shows its
//! last good version) and a refused edit's, for a few seconds. A problem naming a location,
//! a combatant or a mount ("location 'keep': ...") frames the item in red on the board, with
//! the words beside it; one naming nothing on the board is listed in the form only.

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::egui;
use fray_core::ids::{CombatantId, LocationId, MountId};
use fray_core::prelude::TableIndex;

use super::state::{Editor, editing};
use crate::client::board::pieces::{MountToken, TOKEN, Token};
use crate::client::camera::view::{BoardArea, BoardCamera};

/// How long a refused edit's problems stay drawn, in seconds.
const REFUSED_FOR: f64 = 8.0;

const RED: Color = Color::srgb(1.0, 0.3, 0.25);

/// The items framed this frame: the item's rectangle on the board (world units), where its
/// words go in the window (physical pixels, below the item), and the words.
#[derive(Resource, Default)]
pub(super) struct ProblemMarks(Vec<(Rect, Vec2, String)>);

/// A refused edit's problems and when they were refused (the app's clock, seconds).
#[derive(Resource, Default)]
pub(super) struct Refused(pub(super) Option<(Vec<String>, f64)>);

impl Refused {
    /// Problems of an edit just refused.
    pub(super) fn set(world: &mut World, problems: Vec<String>) {
        let now = world.resource::<Time>().elapsed_secs_f64();
        world.resource_mut::<Refused>().0 = Some((problems, now));
    }
}

/// The kind and id of the item a problem names first: `location 'keep': ...` gives
/// `("location", "keep")`.
fn named_item(problem: &str) -> Option<(&'static str, &str)> {
    ["location", "combatant", "mount"]
        .into_iter()
        .filter_map(|kind| {
            let at = problem.find(&format!("{kind} '"))?;
            let rest = &problem[at + kind.len() + 2..];
            Some((at, kind, &rest[..rest.find('\'')?]))
        })
        .min_by_key(|(at, ..)| *at)
        .map(|(_, kind, id)| (kind, id))
}

/// The item's rectangle on the board, if it is drawn.
fn item_rect(world: &mut World, kind: &str, id: &str) -> Option<Rect> {
    let index = world.resource::<TableIndex>();
    let entity = match kind {
        "location" => index.location(&LocationId::from(id)),
        "combatant" => index.combatant(&CombatantId::from(id)),
        _ => index.mount(&MountId::from(id)),
    }?;
    if kind == "location" {
        return crate::client::board::pieces::card_rects(world)
            .into_iter()
            .find(|(e, _)| *e == entity)
            .map(|(_, r)| r);
    }
    let mut tokens = world.query::<(&GlobalTransform, Option<&Token>, Option<&MountToken>)>();
    tokens
        .iter(world)
        .find(|(_, token, mount)| token.map(|t| t.0) == Some(entity) || mount.map(|m| m.0) == Some(entity))
        .map(|(at, ..)| {
            Rect::from_center_size(at.translation().truncate(), Vec2::splat(TOKEN * at.scale().x))
        })
}

/// Finds the items the current problems name, and where their words go.
pub(super) fn find_problem_marks(world: &mut World) {
    world.resource_mut::<ProblemMarks>().0.clear();
    if !editing(world) {
        return;
    }
    let now = world.resource::<Time>().elapsed_secs_f64();
    let refused = match &world.resource::<Refused>().0 {
        Some((problems, at)) if now - at < REFUSED_FOR => problems.clone(),
        _ => Vec::new(),
    };
    let problems: Vec<String> = world.resource::<Editor>().problems.iter().cloned().chain(refused).collect();
    if problems.is_empty() {
        return;
    }
    let mut cameras = world.query_filtered::<(&Camera, &GlobalTransform), With<BoardCamera>>();
    let Some((camera, at)) = cameras.iter(world).next().map(|(c, a)| (c.clone(), *a)) else { return };
    let mut windows = world.query_filtered::<&Window, With<PrimaryWindow>>();
    let scale = windows.iter(world).next().map_or(1.0, Window::scale_factor);
    let mut marks: Vec<(Rect, Vec2, String)> = Vec::new();
    for problem in problems {
        let Some((kind, id)) = named_item(&problem) else { continue };
        let Some(rect) = item_rect(world, kind, id) else { continue };
        // Below the item: its bottom-left corner in the window.
        let Ok(corner) = camera.world_to_viewport(&at, Vec3::new(rect.min.x, rect.min.y, 0.0)) else {
            continue;
        };
        // The frame names the item: the words say what is wrong with it.
        let named = format!("{kind} '{id}':");
        let why =
            problem.find(&named).map_or(problem.as_str(), |at| problem[at + named.len()..].trim()).to_owned();
        match marks.iter_mut().find(|(r, ..)| *r == rect) {
            Some((.., words)) => {
                words.push('\n');
                words.push_str(&why);
            }
            None => marks.push((rect, corner * scale, why)),
        }
    }
    world.resource_mut::<ProblemMarks>().0 = marks;
}

/// Frames the items in red.
pub(super) fn draw_problem_frames(marks: Res<ProblemMarks>, mut gizmos: Gizmos) {
    for (rect, ..) in &marks.0 {
        gizmos.rect_2d(Isometry2d::from_translation(rect.center()), rect.size() + Vec2::splat(10.0), RED);
        gizmos.rect_2d(Isometry2d::from_translation(rect.center()), rect.size() + Vec2::splat(14.0), RED);
    }
}

/// The words beside each framed item (egui, over the board): below the item, kept on the
/// board and off each other (placed by the sizes they had the frame before).
pub(super) fn draw_problem_words(ctx: &egui::Context, world: &World) {
    let ppp = ctx.pixels_per_point();
    let area = world.get_resource::<BoardArea>().copied().unwrap_or_default();
    let screen = ctx.content_rect();
    let board = egui::Rect::from_min_max(
        egui::pos2(area.left / ppp, area.top / ppp),
        egui::pos2(screen.max.x - area.right / ppp, screen.max.y - area.bottom / ppp),
    );
    let mut placed: Vec<egui::Rect> = Vec::new();
    for (n, (_, corner, words)) in world.resource::<ProblemMarks>().0.iter().enumerate() {
        let id = egui::Id::new(("problem on the item", n));
        let size = ctx.memory(|m| m.area_rect(id)).map_or(egui::vec2(260.0, 40.0), |r| r.size());
        let mut at = egui::pos2(corner.x / ppp, corner.y / ppp + 6.0);
        at.x = at.x.min(board.max.x - size.x).max(board.min.x);
        while let Some(below) = placed
            .iter()
            .filter(|r| r.intersects(egui::Rect::from_min_size(at, size)))
            .map(|r| r.max.y)
            .reduce(f32::max)
        {
            at.y = below + 2.0;
        }
        placed.push(egui::Rect::from_min_size(at, size));
        egui::Area::new(id).fixed_pos(at).order(egui::Order::Foreground).interactable(false).show(
            ctx,
            |ui| {
                egui::Frame::popup(ui.style()).show(ui, |ui| {
                    ui.set_max_width(240.0);
                    ui.label(egui::RichText::new(words).color(egui::Color32::from_rgb(255, 120, 110)));
                });
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::named_item;

    #[test]
    fn a_problem_names_the_first_item_it_mentions() {
        assert_eq!(named_item("location 'keep': entered_from names itself"), Some(("location", "keep")));
        assert_eq!(
            named_item("castle.ron: combatant 'hero': location 'moat' is not a location"),
            Some(("combatant", "hero"))
        );
        assert_eq!(named_item("mount 'mare': speed is absurd"), Some(("mount", "mare")));
        assert_eq!(named_item("rules: paces must be more than 0"), None);
        assert_eq!(named_item("location 'unclosed"), None);
    }
}
