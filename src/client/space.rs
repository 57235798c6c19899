//! A board of free positions (a ruleset whose `Space` has no cards): its scenery (covers as
//! circles of their radius with their name, a double ring for strong ones; lights as dim
//! circles; traps red while armed, grey once not; hazards blue), redrawn when it changes; a
//! scale bar in the ruleset's unit, an arrow from each mover to where it is heading, and a
//! ruler while a token is dragged (the distance in the unit, with the adapter's words, e.g.
//! how many movement segments it takes or what a move would spend).

use bevy::prelude::*;
use fray_core::board::{SceneryKind, Space};
use fray_core::fight::{Session, ruleset};
use fray_core::prelude::{Combatant, FieldPosition};

use super::adapter::board;
use super::audience::{Audience, GmGizmos};
use super::board::pieces::{FREE_TOKEN, text, to_board};
use super::order::{Opening, Step};
use super::pointer::Dragging;

/// Drawings of the table's fixed scenery (its labels, the scale bar's), spawned again
/// whenever another table is opened.
#[derive(Component)]
pub(super) struct Scenery;

/// The name of a circle of scenery (a cover, a trap): the board places it over the circle,
/// or under it, clear of the tokens (`board::captions`).
#[derive(Component)]
pub(super) struct SceneryLabel {
    /// The circle's centre on the board.
    pub at: Vec2,
    /// The circle's radius on the board.
    pub radius: f32,
}

/// The label following the pointer while a token is dragged.
#[derive(Component)]
pub(super) struct RulerLabel;

/// What the scenery was drawn for: the session's scenario text, and the scenery as the
/// ruleset gave it (traps change, hazards grow).
#[derive(Resource, Default)]
struct SceneryFor(Option<std::sync::Arc<str>>, Vec<fray_core::board::Scenery>);

/// What the board draws of its scenery and scale each frame.
#[derive(Resource, Default)]
pub(super) struct Drawn {
    /// Circles: centre, radius (board units), kind.
    circles: Vec<(Vec2, f32, SceneryKind)>,
    /// The scale bar: its left end, one unit's length, and how many units it spans.
    bar: Option<(Vec2, f32, u32)>,
    /// How wide the scale bar's label is drawn, about (board units).
    bar_label: f32,
}

/// The ruler while a token is dragged: from, to, words.
#[derive(Resource, Default)]
struct Ruler(Option<(Vec2, Vec2, String)>);

const COVER: Color = Color::srgb(0.62, 0.62, 0.55);
const RULER: Color = Color::srgb(1.0, 0.95, 0.55);
const HEADING: Color = Color::srgb(0.55, 0.85, 1.0);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<SceneryFor>()
        .init_resource::<Drawn>()
        .init_resource::<Ruler>()
        .init_resource::<Headings>()
        .add_systems(Startup, spawn_ruler_label.in_set(Opening::Spawn))
        .add_systems(
            Update,
            (
                (sync_scenery, draw_scenery).chain().in_set(Step::Scenery),
                (find_headings, draw_headings, measure, draw_ruler, place_bar_label)
                    .chain()
                    .in_set(Step::Headings),
            ),
        );
}

fn spawn_ruler_label(mut commands: Commands) {
    commands.spawn((
        RulerLabel,
        // The ruler is the GM's tool, not the table's.
        Audience::Gm,
        text("", 18.0, RULER),
        Transform::from_xyz(0.0, 0.0, 8.0),
        Visibility::Hidden,
    ));
}

/// The layout of the table open, if it is one of free positions.
fn free_space(world: &World) -> Option<Space> {
    ruleset(world).map(|r| r.space()).filter(|s| !s.locations)
}

/// Spawns the scenery's labels and the scale bar's for the table now open (none on a board
/// of cards), and works out where the scale bar goes.
fn sync_scenery(world: &mut World) {
    let now = world.get_resource::<Session>().map(|s| s.scenario.text.clone());
    let items = match (free_space(world), ruleset(world)) {
        (Some(_), Some(rules)) => rules.view().scenery(world),
        _ => Vec::new(),
    };
    let drawn = world.resource::<SceneryFor>();
    if drawn.0.as_ref().map(|t| t.as_ptr()) == now.as_ref().map(|t| t.as_ptr()) && drawn.1 == items {
        return;
    }
    let mut old = world.query_filtered::<Entity, With<Scenery>>();
    for e in old.iter(world).collect::<Vec<_>>() {
        world.despawn(e);
    }
    *world.resource_mut::<SceneryFor>() = SceneryFor(now, items.clone());
    *world.resource_mut::<Drawn>() = Drawn::default();
    let Some(space) = free_space(world) else {
        return;
    };
    let mut circles = Vec::new();
    for item in items {
        let at = to_board(&space, item.at);
        let r = item.radius * space.unit.board;
        circles.push((at, r, item.kind));
        for (radius, colour) in rings(r, item.kind) {
            spawn_ring(world, at, radius, colour);
        }
        if let Some(label) = item.label {
            world.spawn((
                Scenery,
                SceneryLabel { at, radius: r },
                text(label, super::board::pieces::BOARD_TEXT, Color::srgb(0.85, 0.85, 0.78)),
                Transform::from_translation((at + Vec2::new(0.0, r + 10.0)).extend(0.5)),
            ));
        }
    }
    let mut points = world.query_filtered::<&FieldPosition, With<Combatant>>();
    let tokens: Vec<Vec2> = points.iter(world).map(|p| to_board(&space, p.0)).collect();
    let bar = (space.unit.measured && !tokens.is_empty())
        .then(|| (scale_bar_start(&tokens, &circles), space.unit.board, 10));
    let mut bar_label = 0.0;
    if let Some((start, unit, n)) = bar {
        let words = format!("{n} {}", space.unit.short);
        bar_label = words.chars().count() as f32 * super::board::pieces::BOARD_TEXT * 0.65;
        world.spawn((
            Scenery,
            ScaleBarLabel,
            text(words, super::board::pieces::BOARD_TEXT, Color::WHITE),
            bevy::sprite::Anchor::CENTER_LEFT,
            Transform::from_translation((start + Vec2::new(unit * n as f32 + BAR_LABEL, 0.0)).extend(0.5)),
        ));
    }
    *world.resource_mut::<Drawn>() = Drawn { circles, bar, bar_label };
}

/// How far right of the scale bar's end its label starts.
const BAR_LABEL: f32 = 12.0;

/// A first guess at the scale bar's left end, before the board is laid out (`place_captions`
/// then puts it under what was drawn, [`bar_start`]): under each token with a caption of two
/// lines and a half and each circle with its name under it, at their left edge. Its label
/// stands after its end.
fn scale_bar_start(tokens: &[Vec2], circles: &[(Vec2, f32, SceneryKind)]) -> Vec2 {
    let text = super::board::pieces::BOARD_TEXT;
    let under_tokens =
        tokens.iter().map(|t| Vec2::new(t.x - FREE_TOKEN / 2.0, t.y - FREE_TOKEN / 2.0 - 2.5 * text));
    let under_circles = circles.iter().map(|&(at, r, _)| Vec2::new(at.x - r, at.y - r - 2.2 * text));
    let corner = under_tokens.chain(under_circles).fold(Vec2::splat(f32::MAX), Vec2::min);
    corner - Vec2::new(0.0, 8.0)
}

/// The scale bar's label (it moves with the bar).
#[derive(Component)]
struct ScaleBarLabel;

/// How far under everything else the scale bar's label keeps (board units).
const BAR_GAP: f32 = 10.0;

/// Where the scale bar starts when everything else drawn lies within `under`: under it by
/// [`BAR_GAP`] and half its label, at its left edge.
pub(super) fn bar_start(under: Rect) -> Vec2 {
    Vec2::new(under.min.x, under.min.y - BAR_GAP - super::board::pieces::BOARD_TEXT / 2.0)
}

impl Drawn {
    /// Where the scenery's circles lie on the board: framed with the board, so none is cut
    /// off at a panel's edge.
    pub(super) fn circles(&self) -> Option<Rect> {
        let circles = self.circles.iter().map(|&(at, r, _)| Rect::from_center_half_size(at, Vec2::splat(r)));
        circles.reduce(|a, b| a.union(b))
    }

    /// Where the scale bar and its label lie, if the board has one (framed with it too).
    pub(super) fn bar_rect(&self) -> Option<Rect> {
        self.bar.map(|(start, unit, n)| {
            // The label after the end.
            let text = super::board::pieces::BOARD_TEXT;
            let end = unit * n as f32 + BAR_LABEL + self.bar_label;
            Rect::from_corners(start - Vec2::Y * text / 2.0, start + Vec2::new(end, text / 2.0))
        })
    }

    /// The scale bar's left end, if the board has one.
    pub(super) fn bar_start(&self) -> Option<Vec2> {
        self.bar.map(|(start, ..)| start)
    }

    /// Moves the scale bar (its label follows, `place_bar_label`).
    pub(super) fn put_bar(&mut self, start: Vec2) {
        if let Some(bar) = &mut self.bar {
            bar.0 = start;
        }
    }
}

/// Keeps the scale bar's label after the bar's end.
fn place_bar_label(drawn: Res<Drawn>, mut label: Query<&mut Transform, With<ScaleBarLabel>>) {
    let Some((start, unit, n)) = drawn.bar.filter(|_| drawn.is_changed()) else { return };
    let at = start + Vec2::new(unit * n as f32 + BAR_LABEL, 0.0);
    for mut transform in &mut label {
        if transform.translation.truncate() != at {
            transform.translation = at.extend(transform.translation.z);
        }
    }
}

/// The rings a circle of scenery is drawn with: radius and colour each.
fn rings(r: f32, kind: SceneryKind) -> Vec<(f32, Color)> {
    match kind {
        SceneryKind::Light => vec![(r, Color::srgba(1.0, 0.9, 0.5, 0.35))],
        SceneryKind::Cover { strong: false } => vec![(r, COVER)],
        SceneryKind::Cover { strong: true } => vec![(r, COVER), (r - 5.0, COVER)],
        SceneryKind::Trap { armed } => vec![(r, trap_colour(armed))],
        SceneryKind::Hazard => {
            vec![(r, Color::srgb(0.3, 0.6, 1.0)), (r - 4.0, Color::srgba(0.3, 0.6, 1.0, 0.5))]
        }
        SceneryKind::Terrain => {
            vec![(r, Color::srgb(0.72, 0.6, 0.4)), (r - 7.0, Color::srgba(0.72, 0.6, 0.4, 0.4))]
        }
    }
}

fn trap_colour(armed: bool) -> Color {
    if armed { Color::srgb(0.95, 0.3, 0.25) } else { Color::srgb(0.5, 0.5, 0.5) }
}

/// How wide a ring of scenery is drawn (board units).
const RING: f32 = 2.5;

/// A ring of scenery under the tokens (a line drawn over a token would cross its face): a
/// mesh, where the app renders (none in the rules' tests).
fn spawn_ring(world: &mut World, at: Vec2, radius: f32, colour: Color) {
    if radius <= RING {
        return;
    }
    let Some(mesh) =
        world.get_resource_mut::<Assets<Mesh>>().map(|mut m| m.add(Annulus::new(radius - RING, radius)))
    else {
        return;
    };
    let Some(material) = world.get_resource_mut::<Assets<ColorMaterial>>().map(|mut m| {
        m.add(ColorMaterial {
            color: colour,
            alpha_mode: bevy::sprite_render::AlphaMode2d::Blend,
            ..default()
        })
    }) else {
        return;
    };
    world.spawn((
        Scenery,
        Mesh2d(mesh),
        MeshMaterial2d(material),
        Transform::from_translation(at.extend(0.05)),
    ));
}

fn draw_scenery(drawn: Res<Drawn>, mut gizmos: Gizmos) {
    // A trap's cross (its ring is a mesh, see `spawn_ring`).
    for &(at, r, kind) in &drawn.circles {
        if let SceneryKind::Trap { armed } = kind {
            let colour = trap_colour(armed);
            gizmos.line_2d(at - Vec2::splat(r * 0.5), at + Vec2::splat(r * 0.5), colour);
            gizmos.line_2d(at + Vec2::new(-r * 0.5, r * 0.5), at + Vec2::new(r * 0.5, -r * 0.5), colour);
        }
    }
    if let Some((start, unit, n)) = drawn.bar {
        gizmos.line_2d(start, start + Vec2::new(unit * n as f32, 0.0), Color::WHITE);
        for m in 0..=n {
            let x = start.x + m as f32 * unit;
            let h = if m % 5 == 0 { 8.0 } else { 4.0 };
            gizmos.line_2d(Vec2::new(x, start.y - h), Vec2::new(x, start.y + h), Color::WHITE);
        }
    }
}

/// Where each mover is heading, from and to (board units).
#[derive(Resource, Default)]
struct Headings(Vec<(Vec2, Vec2)>);

/// Works out where movers are heading, when the rules changed something (logged).
fn find_headings(world: &mut World, mut seen: Local<Option<super::board::pieces::TableKey>>) {
    let mut combatants = world.query_filtered::<Entity, With<Combatant>>();
    let key = Some(super::board::pieces::table_key(world, combatants.iter(world).count()));
    if *seen == key {
        return;
    }
    *seen = key;
    let mut movers = Vec::new();
    if let (Some(space), Some(rules)) = (free_space(world), ruleset(world)) {
        for e in combatants.iter(world).collect::<Vec<_>>() {
            let (Some(at), Some(to)) = (world.get::<FieldPosition>(e), rules.view().token(world, e).heading)
            else {
                continue;
            };
            movers.push((to_board(&space, at.0), to_board(&space, to)));
        }
    }
    world.resource_mut::<Headings>().0 = movers;
}

/// An arrow from each mover to where it is heading.
fn draw_headings(headings: Res<Headings>, mut gizmos: Gizmos) {
    for &(from, to) in &headings.0 {
        gizmos.arrow_2d(from, to, HEADING);
    }
}

/// Measures the drag in progress: the distance in the ruleset's unit, and the adapter's
/// words for it.
fn measure(world: &mut World) {
    let ruler = free_space(world).filter(|s| s.unit.measured).and_then(|space| {
        let d = world.resource::<Dragging>().0?;
        let from = to_board(&space, world.get::<FieldPosition>(d.combatant).map(|p| p.0).unwrap_or_default());
        let to = world.get::<Transform>(d.token)?.translation.truncate();
        let distance = from.distance(to) / space.unit.board;
        let at = super::board::pieces::to_unit(&space, to);
        let note = board(world).and_then(|b| b.ruler(world, d.combatant, distance, at));
        let words = match note {
            Some(note) => format!("{distance:.1} {}\n{note}", space.unit.short),
            None => format!("{distance:.1} {}", space.unit.short),
        };
        Some((from, to, words))
    });
    world.resource_mut::<Ruler>().0 = ruler;
}

/// Every other board word, as [`draw_ruler`] reads them.
type BoardWords<'w, 's> = Query<
    'w,
    's,
    (
        &'static GlobalTransform,
        &'static bevy::text::TextLayoutInfo,
        Option<&'static bevy::text::TextBounds>,
        Option<&'static bevy::text::TextLayout>,
        Option<&'static bevy::sprite::Anchor>,
        &'static InheritedVisibility,
    ),
    (With<Text2d>, Without<RulerLabel>),
>;

/// The ruler's line and words by the dragged token, the words kept within the GM's view and
/// clear of the board's other words where a spot around the token is.
fn draw_ruler(
    ruler: Res<Ruler>,
    mut label: Single<
        (&mut Text2d, &mut Transform, &mut Visibility, &bevy::text::TextLayoutInfo),
        With<RulerLabel>,
    >,
    camera: Single<(&Transform, &Projection), (With<super::camera::view::BoardCamera>, Without<RulerLabel>)>,
    others: BoardWords,
    mut gizmos: Gizmos<GmGizmos>,
) {
    let (text, transform, visibility, layout) = &mut *label;
    let Some((from, to, words)) = &ruler.0 else {
        visibility.set_if_neq(Visibility::Hidden);
        return;
    };
    gizmos.line_2d(*from, *to, RULER);
    gizmos.circle_2d(*from, 6.0, RULER);
    let half = layout.size / 2.0;
    // Long words stay whole in view rather than run under a panel.
    let in_view = |mut at: Vec2| {
        if let (at_camera, Projection::Orthographic(ortho)) = *camera {
            let view = Rect::from_corners(ortho.area.min, ortho.area.max);
            let centre = at_camera.translation.truncate();
            let (lo, hi) = (centre + view.min + half, centre + view.max - half);
            if lo.x <= hi.x {
                at.x = at.x.clamp(lo.x, hi.x);
            }
            if lo.y <= hi.y {
                at.y = at.y.clamp(lo.y, hi.y);
            }
        }
        at
    };
    let taken: Vec<Rect> = others
        .iter()
        .filter(|(at, layout, .., shown)| shown.get() && layout.size != Vec2::ZERO && at.scale().x > 0.0)
        .map(|(at, layout, bounds, justify, anchor, _)| {
            let centred = justify.is_some_and(|j| j.justify == bevy::text::Justify::Center);
            super::board::pieces::text_rect(at, anchor, layout.size, bounds, centred)
        })
        .collect();
    let spots: Vec<Vec2> = ruler_spots(*to, half).into_iter().map(in_view).collect();
    let free = |at: &&Vec2| {
        // With a gap, so the ruler's words never read on from a neighbour's.
        let mine = Rect::from_center_half_size(**at, half + Vec2::new(8.0, 2.0));
        !taken.iter().any(|r| !r.intersect(mine).is_empty())
    };
    let at = spots.iter().find(free).unwrap_or(&spots[0]);
    transform.translation = at.extend(8.0);
    if text.0 != *words {
        text.0 = words.clone();
    }
    visibility.set_if_neq(Visibility::Visible);
}

/// Where the ruler's words (`half` their size) may stand by a token dragged to `to`, nearest
/// first: above it, below it, beside it, then a row further out each way (up to three), each
/// row over the token, then to its right and left.
fn ruler_spots(to: Vec2, half: Vec2) -> Vec<Vec2> {
    let row = FREE_TOKEN * 1.25;
    let side = FREE_TOKEN * 0.75 + half.x;
    let rows = [1.0, -1.0, 0.0, 2.0, -2.0, 3.0, -3.0];
    rows.iter()
        .flat_map(|&r| {
            let across: &[f32] = if r == 0.0 { &[1.0, -1.0] } else { &[0.0, 1.0, -1.0] };
            across.iter().map(move |&a| to + Vec2::new(a * side, r * row))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scale_bar_lies_under_every_token_caption_and_circle() {
        let tokens = [Vec2::new(0.0, 0.0), Vec2::new(-100.0, 50.0)];
        let circles = [(Vec2::new(200.0, -80.0), 60.0, SceneryKind::Cover { strong: false })];
        let start = scale_bar_start(&tokens, &circles);
        assert!(start.x <= -100.0 - FREE_TOKEN / 2.0, "at the left edge: {start}");
        assert!(
            start.y < -80.0 - 60.0 - super::super::board::pieces::BOARD_TEXT,
            "under the circle's name: {start}"
        );
        // Tokens alone: under each token's caption room.
        let text = super::super::board::pieces::BOARD_TEXT;
        let start = scale_bar_start(&tokens, &[]);
        assert!(start.y <= -FREE_TOKEN / 2.0 - 2.5 * text, "under the captions: {start}");
        assert!(start.x <= -100.0 - FREE_TOKEN / 2.0, "at the left edge: {start}");
        // Once the board is laid out, under what was drawn: its label clear of it by BAR_GAP.
        let under = Rect::new(-120.0, -95.0, 300.0, 80.0);
        let mut drawn = Drawn { circles: Vec::new(), bar: Some((start, 10.0, 10)), bar_label: 40.0 };
        drawn.put_bar(bar_start(under));
        let bar = drawn.bar_rect().expect("a bar");
        assert_eq!((bar.min.x, bar.max.y), (-120.0, -95.0 - BAR_GAP), "{bar:?}");
        assert!(bar.intersect(under).is_empty());
    }
}
