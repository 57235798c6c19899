//! FateWalker's board: every token at its position in metres, covers as circles with their
//! name and percentage, street lights, a scale bar, where movers are heading, a ruler while
//! a token is dragged, and the line to the chosen target with its range band.

use bevy::prelude::*;
use fatewalker::data::{Band, MoveMode};
use fatewalker::sheet::{Catalogue, Motion};
use fatewalker::view;
use fray_core::DriveRules;
use fray_core::prelude::{FieldPosition, Rides, TableIndex};

use super::panels::FwkFocus;
use super::{UNITS_PER_METRE, on_fatewalker, to_board};
use crate::client::board::{Layout, MountToken, Selection, TOKEN, Token, TokenCaption};
use crate::client::drag::Dragging;
use crate::client::table::audience::{Audience, GmGizmos};

/// Drawings of the scenario's fixed scenery (cover names, the scale bar's label), spawned
/// again whenever another table is opened.
#[derive(Component)]
struct Scenery;

/// The label following the pointer while a token is dragged, and the one on the line to
/// the chosen target.
#[derive(Component, Clone, Copy, PartialEq, Eq)]
enum Label {
    Ruler,
    Aim,
}

/// Which table the scenery was drawn for (the session's scenario text).
#[derive(Resource, Default)]
struct SceneryFor(Option<std::sync::Arc<str>>);

/// The scale bar: its left end and length, in board units.
#[derive(Resource, Default)]
struct ScaleBar(Option<(Vec2, f32)>);

const COVER: Color = Color::srgb(0.62, 0.62, 0.55);
const RULER: Color = Color::srgb(1.0, 0.95, 0.55);
const HEADING: Color = Color::srgb(0.55, 0.85, 1.0);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<SceneryFor>()
        .init_resource::<Readings>()
        .init_resource::<ScaleBar>()
        .add_systems(Startup, spawn_labels)
        .add_systems(Update, sync_scenery.after(DriveRules).in_set(Layout))
        .add_systems(
            Update,
            (place_tokens, write_captions, draw_scenery, draw_headings, measure, draw_readings, mark_targets)
                .chain()
                .after(DriveRules)
                .in_set(Layout)
                .run_if(on_fatewalker),
        )
        .add_systems(Update, hide_labels.run_if(not(on_fatewalker)));
}

fn text(value: impl Into<String>, size: f32, colour: Color) -> impl Bundle {
    (Text2d::new(value), TextFont { font_size: FontSize::Px(size), ..default() }, TextColor(colour))
}

fn spawn_labels(mut commands: Commands) {
    for label in [Label::Ruler, Label::Aim] {
        commands.spawn((
            label,
            // The ruler and the aim line are the GM's tools, not the table's.
            Audience::Gm,
            text("", 18.0, RULER),
            Transform::from_xyz(0.0, 0.0, 8.0),
            Visibility::Hidden,
        ));
    }
}

fn hide_labels(mut labels: Query<&mut Visibility, With<Label>>) {
    for mut v in &mut labels {
        v.set_if_neq(Visibility::Hidden);
    }
}

/// Tokens at their positions (a rider where its vehicle is), mounts under their rider.
fn place_tokens(
    index: Res<TableIndex>,
    dragging: Res<Dragging>,
    positions: Query<(Option<&FieldPosition>, Option<&Rides>)>,
    mut tokens: Query<(Entity, &Token, &mut Transform, &mut Sprite), Without<MountToken>>,
    mut mount_tokens: Query<(&MountToken, &mut Transform), Without<Token>>,
) {
    let at = |e: Entity| -> Option<Vec2> {
        let (own, rides) = positions.get(e).ok()?;
        let metres =
            own.map(|p| p.0).or_else(|| rides.and_then(|r| positions.get(r.0).ok()?.0.map(|p| p.0)))?;
        Some(to_board(metres))
    };
    for (drawing, token, mut transform, mut sprite) in &mut tokens {
        // Smaller than a card's tokens: people stand a metre or two apart.
        let size = Some(Vec2::splat(TOKEN * 0.72));
        if sprite.custom_size != size {
            sprite.custom_size = size;
        }
        if dragging.0.as_ref().is_some_and(|d| d.token == drawing) {
            continue;
        }
        if let Some(pos) = at(token.0) {
            transform.translation = pos.extend(2.0);
        }
    }
    let ridden: Vec<Entity> =
        index.order.iter().filter_map(|&c| positions.get(c).ok().and_then(|(_, r)| r.map(|r| r.0))).collect();
    for (m, mut transform) in &mut mount_tokens {
        let Some(pos) = at(m.0) else { continue };
        let below = if ridden.contains(&m.0) { Vec2::new(0.0, -TOKEN * 0.45) } else { Vec2::ZERO };
        transform.translation = (pos + below).extend(1.5);
    }
}

/// Name and status in words; then the weapon in hand, stance, movement, cover and wounds.
fn write_captions(world: &mut World) {
    let mut captions = world.query::<(Entity, &TokenCaption)>();
    let all: Vec<(Entity, Entity)> = captions.iter(world).map(|(d, c)| (d, c.0)).collect();
    for (drawing, e) in all {
        let value = caption(world, e);
        if let Some(mut text) = world.get_mut::<Text2d>(drawing)
            && text.0 != value
        {
            text.0 = value;
        }
    }
}

fn caption(world: &World, e: Entity) -> String {
    let name = view::name(world, e);
    let first = name.split_whitespace().next().unwrap_or_default();
    let status = view::status(world, e);
    let state = match status {
        fray_core::prelude::Status::Fighting => String::new(),
        other => format!(" [{}]", format!("{other:?}").to_uppercase()),
    };
    let mut extra = Vec::new();
    if view::clock(world, e).holding {
        extra.push("HOLD".to_owned());
    }
    if let Some((_, w)) = view::ready_weapon(world, e) {
        extra.push(w.name.to_lowercase());
    }
    if view::prone(world, e) {
        extra.push("prone".to_owned());
    }
    if let Some(m) = view::motion(world, e) {
        extra.push(mode_word(m.mode).to_owned());
    }
    if let Some((percent, _)) = view::cover(world, e) {
        extra.push(format!("{percent}% cover"));
    }
    let penalty = view::wound_penalty(world, e);
    if penalty > 0 {
        extra.push(format!("wounds -{penalty}"));
    }
    format!("{first}{state}\n{}", extra.join(", "))
}

/// A movement mode as a word.
pub fn mode_word(mode: MoveMode) -> &'static str {
    match mode {
        MoveMode::Walk => "walking",
        MoveMode::Run => "running",
        MoveMode::Climb => "climbing",
        MoveMode::Crawl => "crawling",
        MoveMode::Ride => "riding",
        MoveMode::Swim => "swimming",
    }
}

/// A range band as a word.
pub fn band_word(band: Band) -> &'static str {
    match band {
        Band::Short => "short",
        Band::Medium => "medium",
        Band::Long => "long",
        Band::Extreme => "extreme",
    }
}

/// Spawns cover names and the scale bar's label for the table now open (none for another
/// ruleset), and works out where the scale bar goes.
fn sync_scenery(world: &mut World) {
    let now = world
        .get_resource::<crate::session::Session>()
        .filter(|_| super::is_fatewalker(world))
        .map(|s| s.scenario.text.clone());
    let drawn = &world.resource::<SceneryFor>().0;
    if drawn.as_ref().map(|t| t.as_ptr()) == now.as_ref().map(|t| t.as_ptr()) {
        return;
    }
    let mut old = world.query_filtered::<Entity, With<Scenery>>();
    for e in old.iter(world).collect::<Vec<_>>() {
        world.despawn(e);
    }
    world.resource_mut::<SceneryFor>().0 = now.clone();
    world.resource_mut::<ScaleBar>().0 = None;
    if now.is_none() {
        return;
    }
    let covers = view::catalogue(world).0.covers.clone();
    let points: Vec<Vec2> =
        view::combatants(world).into_iter().map(|e| to_board(view::position(world, e))).collect();
    for c in &covers {
        let at = to_board([c.position.0, c.position.1]);
        let r = c.radius * UNITS_PER_METRE;
        world.spawn((
            Scenery,
            text(format!("{} ({}%)", c.name, c.percent), 13.0, Color::srgb(0.85, 0.85, 0.78)),
            Transform::from_translation((at + Vec2::new(0.0, r + 10.0)).extend(0.5)),
        ));
    }
    let min = points.iter().fold(Vec2::splat(f32::MAX), |a, p| a.min(*p));
    let length = 10.0 * UNITS_PER_METRE;
    // At the lower left corner of where the combatants stand: inside the framed board.
    let start = if points.is_empty() { Vec2::ZERO } else { min - Vec2::new(0.0, 0.6 * UNITS_PER_METRE) };
    world.resource_mut::<ScaleBar>().0 = Some((start, length));
    world.spawn((
        Scenery,
        text("10 m", 16.0, Color::WHITE),
        Transform::from_translation((start + Vec2::new(length / 2.0, 22.0)).extend(0.5)),
    ));
}

/// Covers as circles of their radius (a double ring for 90%), street lights as dim circles,
/// the scale bar with a tick every metre.
fn draw_scenery(catalogue: Option<Res<Catalogue>>, bar: Res<ScaleBar>, mut gizmos: Gizmos) {
    if let Some(catalogue) = catalogue {
        for c in &catalogue.0.covers {
            let at = to_board([c.position.0, c.position.1]);
            let r = c.radius * UNITS_PER_METRE;
            gizmos.circle_2d(at, r, COVER);
            if c.percent >= 90 {
                gizmos.circle_2d(at, r - 4.0, COVER);
            }
        }
        for ((x, y), radius) in &catalogue.0.conditions.lights {
            gizmos.circle_2d(to_board([*x, *y]), radius * UNITS_PER_METRE, Color::srgba(1.0, 0.9, 0.5, 0.35));
        }
    }
    if let Some((start, length)) = bar.0 {
        gizmos.line_2d(start, start + Vec2::new(length, 0.0), Color::WHITE);
        for m in 0..=10 {
            let x = start.x + m as f32 * UNITS_PER_METRE;
            let h = if m % 5 == 0 { 8.0 } else { 4.0 };
            gizmos.line_2d(Vec2::new(x, start.y - h), Vec2::new(x, start.y + h), Color::WHITE);
        }
    }
}

/// An arrow from each mover to where it is heading.
fn draw_headings(movers: Query<(&FieldPosition, &Motion)>, mut gizmos: Gizmos) {
    for (at, motion) in &movers {
        gizmos.arrow_2d(to_board(at.0), to_board(motion.to), HEADING);
    }
}

/// What the ruler and the aim line show this frame: from, to, words.
#[derive(Resource, Default)]
struct Readings {
    ruler: Option<(Vec2, Vec2, String)>,
    aim: Option<(Vec2, Vec2, String)>,
}

/// Measures the drag in progress (metres, and at the chosen mode's rate how many segments)
/// and the decider's aim at the selected token (metres and range band).
fn measure(world: &mut World) {
    let ruler = world.resource::<Dragging>().0.and_then(|d| {
        let from = to_board(view::position(world, d.combatant));
        let to = world.get::<Transform>(d.token)?.translation.truncate();
        let metres = from.distance(to) / UNITS_PER_METRE;
        let mode = super::drag::mode_for(world, d.combatant);
        let rate = view::rate(world, d.combatant, mode);
        let segments = if rate > 0.0 {
            let n = (metres / rate).ceil().max(1.0);
            format!(
                "\n{}: {rate:.1} m a segment, {n} segment{}",
                mode_word(mode),
                if n > 1.0 { "s" } else { "" }
            )
        } else {
            format!("\ncannot move {}", mode_word(mode))
        };
        Some((from, to, format!("{metres:.1} m{segments}")))
    });
    let aim = world.resource::<FwkFocus>().decider.and_then(|e| {
        let t = world.resource::<Selection>().combatant.filter(|&t| t != e)?;
        world.get::<fray_core::prelude::Combatant>(t)?;
        let view = fatewalker::combat::aim(world, e, t, false);
        let band = match (view.band, &view.weapon) {
            (Some(b), _) => format!("{} range", band_word(b)),
            (None, Some(_)) => "melee".to_owned(),
            (None, None) => "no weapon".to_owned(),
        };
        let words = format!("{:.1} m, {band}", view.distance);
        Some((to_board(view::position(world, e)), to_board(view::position(world, t)), words))
    });
    *world.resource_mut::<Readings>() = Readings { ruler, aim };
}

/// Draws the ruler and the aim line, with their labels.
fn draw_readings(
    readings: Res<Readings>,
    mut labels: Query<(&Label, &mut Text2d, &mut Transform, &mut Visibility)>,
    mut gizmos: Gizmos<GmGizmos>,
) {
    for (label, mut text, mut transform, mut visibility) in &mut labels {
        let reading = match label {
            Label::Ruler => &readings.ruler,
            Label::Aim => &readings.aim,
        };
        let Some((from, to, words)) = reading else {
            visibility.set_if_neq(Visibility::Hidden);
            continue;
        };
        match label {
            Label::Ruler => {
                gizmos.line_2d(*from, *to, RULER);
                gizmos.circle_2d(*from, 6.0, RULER);
                transform.translation = (*to + Vec2::new(0.0, TOKEN * 0.9)).extend(8.0);
            }
            Label::Aim => {
                gizmos.line_2d(*from, *to, Color::srgb(1.0, 0.55, 0.45));
                transform.translation = ((*from + *to) / 2.0 + Vec2::new(0.0, 16.0)).extend(8.0);
            }
        }
        if text.0 != *words {
            text.0 = words.clone();
        }
        visibility.set_if_neq(Visibility::Visible);
    }
}

/// A ring around each token the deciding person may attack now.
fn mark_targets(focus: Res<FwkFocus>, tokens: Query<(&Token, &Transform)>, mut gizmos: Gizmos<GmGizmos>) {
    for (token, transform) in &tokens {
        if focus.targets.contains(&token.0) {
            let at = transform.translation.truncate();
            gizmos.circle_2d(at, TOKEN * 0.78, Color::srgb(1.0, 0.95, 0.3));
            gizmos.circle_2d(at, TOKEN * 0.72, Color::srgb(1.0, 0.95, 0.3));
        }
    }
}
