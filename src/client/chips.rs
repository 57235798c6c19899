//! Counter tokens drawn as chips: one chip per counter-token entity, stacked by kind at a
//! corner of its combatant's token (siege damage on its card), with the count beside each
//! stack. Kinds differ by shape and corner as well as colour. During harassment the
//! harasser's TP chips are dragged onto targets to build the allocation that is then sent.

use bevy::asset::RenderAssetUsages;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use fiend_wake::decisions::{awaiting, validate};
use fiend_wake::{FwIntent, FwPhase};
use fray_core::DriveRules;
use fray_core::location::Location;
use fray_core::phase::CurrentPhase;
use fray_core::prelude::{Combatant, Controller, CounterToken, TokenKind};
use fray_core::tokens::TokenOf;

use super::board::{Card, Layout, TOKEN, Token};
use super::camera::BoardCamera;
use super::drag::BoardMessage;
use super::table::audience::Audience;

/// A chip drawn for one counter-token entity.
#[derive(Component, Clone, Copy, Debug)]
pub struct Chip {
    /// The counter token.
    pub counter: Entity,
    /// Its owner (combatant or location).
    pub owner: Entity,
    /// What it counts.
    pub kind: TokenKind,
}

/// The number drawn beside a stack of chips; `plan` counts the TP a harassment being built
/// gives away as gone (the GM's count; the table's counts them until the plan is sent).
#[derive(Component)]
struct StackCount {
    kind: TokenKind,
    plan: bool,
}

/// A stand-in, on the table's screen only, for a TP chip the GM has moved while building a
/// harassment (the plan is secret until it is sent).
#[derive(Component)]
pub struct ChipShadow(pub Entity);

/// Where the table's screen sees each TP chip the GM has moved (chip, place, shown).
#[derive(Resource, Default)]
struct Shadows(Vec<(Entity, Vec3, bool)>);

/// The harassment allocation being built on the board, target by target.
#[derive(Resource, Default, Clone, Debug, PartialEq)]
pub struct HarassPlan {
    /// Who harasses.
    pub harasser: Option<Entity>,
    /// TP per target, in the order they were given.
    pub allocations: Vec<(Entity, u32)>,
}

impl HarassPlan {
    /// TP given so far.
    pub fn total(&self) -> u32 {
        self.allocations.iter().map(|(_, tp)| tp).sum()
    }

    /// The plan with `delta` TP more (or fewer) for `target`; targets at 0 drop out.
    pub fn changed(&self, target: Entity, delta: i32) -> HarassPlan {
        let mut plan = self.clone();
        match plan.allocations.iter_mut().find(|(t, _)| *t == target) {
            Some((_, tp)) => *tp = tp.saturating_add_signed(delta),
            None if delta > 0 => plan.allocations.push((target, delta as u32)),
            None => {}
        }
        plan.allocations.retain(|(_, tp)| *tp > 0);
        plan
    }

    /// The intent this plan sends.
    pub fn intent(&self, world: &World) -> FwIntent {
        let allocations = self
            .allocations
            .iter()
            .filter_map(|&(t, tp)| Some((world.get::<Combatant>(t)?.id.clone(), tp)))
            .collect();
        FwIntent::Harass { allocations }
    }
}

/// A TP chip dropped somewhere during harassment, handled once the world is at hand.
#[derive(Resource, Default)]
struct ChipDrop(Option<(Entity, Vec2)>);

/// The chip being dragged and where it is.
#[derive(Resource, Default)]
pub struct ChipDrag(pub Option<(Entity, Vec2)>);

/// The shapes chips are drawn with.
#[derive(Resource)]
struct Shapes {
    circle: Handle<Image>,
    square: Handle<Image>,
    triangle: Handle<Image>,
    diamond: Handle<Image>,
}

const CHIP: f32 = 17.0;

/// Where a kind's stack stands on its token, from the token's centre.
fn corner_offset(kind: TokenKind) -> Vec2 {
    look(kind).2 * (TOKEN / 2.0 - 7.0)
}

/// How much higher the `n`th chip of a stack sits (three more show above the first).
fn lift(n: u32) -> f32 {
    n.min(3) as f32 * 2.5
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<HarassPlan>()
        .init_resource::<ChipDrop>()
        .init_resource::<ChipDrag>()
        .init_resource::<Shadows>()
        .add_systems(Startup, make_shapes)
        .add_observer(spawn_chip)
        .add_observer(spawn_counts)
        .add_observer(chip_drag_start)
        .add_observer(chip_drag)
        .add_observer(chip_drag_end)
        .add_systems(
            Update,
            (
                (forget_stale_plan, handle_drop).chain().after(DriveRules).before(Layout),
                (despawn_chips, place_chips, place_shadows, write_counts).chain().after(Layout),
            ),
        );
}

/// Where and how each kind is drawn: shape, colour, corner of the token (x, y signs).
fn look(kind: TokenKind) -> (fn(&Shapes) -> Handle<Image>, Color, Vec2) {
    match kind {
        TokenKind::TacticalPoint => {
            (|s| s.circle.clone(), Color::srgb(0.95, 0.78, 0.20), Vec2::new(-1.0, 1.0))
        }
        TokenKind::TurnToken => (|s| s.square.clone(), Color::srgb(0.55, 0.80, 1.0), Vec2::new(1.0, 1.0)),
        TokenKind::PendingTurn => (|s| s.triangle.clone(), Color::WHITE, Vec2::new(-1.0, -1.0)),
        TokenKind::Wound => (|s| s.diamond.clone(), Color::srgb(0.90, 0.15, 0.15), Vec2::new(1.0, -1.0)),
        TokenKind::SiegeDamage => (|s| s.square.clone(), Color::srgb(0.35, 0.33, 0.30), Vec2::new(1.0, 1.0)),
    }
}

/// Words for the legend under the board.
pub const LEGEND: &str = "Chips, with their count: gold discs TP (top left) · blue squares turn tokens (top right) · white triangles pending turn (bottom left) · red diamonds wounds (bottom right) · grey squares siege damage (cards)";

fn shape(inside: impl Fn(f32, f32) -> bool) -> Image {
    const N: u32 = 32;
    let mut data = Vec::with_capacity((N * N * 4) as usize);
    for y in 0..N {
        for x in 0..N {
            // -1..1 with y up; a dark rim one pixel wide keeps chips apart on a stack.
            let (u, v) = ((x as f32 + 0.5) / N as f32 * 2.0 - 1.0, 1.0 - (y as f32 + 0.5) / N as f32 * 2.0);
            let shrink = 1.0 - 3.0 / N as f32;
            let (r, a) = match (inside(u, v), inside(u / shrink, v / shrink)) {
                (_, true) => (255, 255),
                (true, false) => (40, 255),
                _ => (0, 0),
            };
            data.extend_from_slice(&[r, r, r, a]);
        }
    }
    Image::new(
        Extent3d { width: N, height: N, depth_or_array_layers: 1 },
        TextureDimension::D2,
        data,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::all(),
    )
}

fn make_shapes(mut images: ResMut<Assets<Image>>, mut commands: Commands) {
    commands.insert_resource(Shapes {
        circle: images.add(shape(|u, v| u * u + v * v <= 1.0)),
        square: images.add(shape(|u, v| u.abs() <= 0.85 && v.abs() <= 0.85)),
        triangle: images.add(shape(|u, v| v >= -0.85 && v <= 0.95 - 2.0 * u.abs() * 0.95)),
        diamond: images.add(shape(|u, v| u.abs() + v.abs() <= 1.0)),
    });
}

fn spawn_chip(
    add: On<Add, CounterToken>,
    counters: Query<(&CounterToken, &TokenOf)>,
    shapes: Option<Res<Shapes>>,
    mut commands: Commands,
) {
    let (Ok((counter, of)), Some(shapes)) = (counters.get(add.entity), shapes) else {
        return;
    };
    let (image, colour, _) = look(counter.0);
    let mut sprite = Sprite::from_image(image(&shapes));
    sprite.color = colour;
    sprite.custom_size = Some(Vec2::splat(CHIP));
    commands.spawn((
        Chip { counter: add.entity, owner: of.0, kind: counter.0 },
        sprite,
        Transform::from_xyz(0.0, 0.0, -100.0),
        Visibility::Hidden,
    ));
}

/// A count label per kind, as children of each combatant token, written on the top chip.
fn spawn_counts(add: On<Add, Token>, mut commands: Commands) {
    let counts = [
        (TokenKind::TacticalPoint, true, Audience::Gm),
        (TokenKind::TacticalPoint, false, Audience::Table),
        (TokenKind::TurnToken, false, Audience::All),
        (TokenKind::PendingTurn, false, Audience::All),
        (TokenKind::Wound, false, Audience::All),
    ];
    for (kind, plan, audience) in counts {
        let ink = if kind == TokenKind::Wound { Color::WHITE } else { Color::BLACK };
        commands.spawn((
            StackCount { kind, plan },
            audience,
            super::table::audience::layers(audience, false),
            Text2d::new(""),
            TextFont { font_size: FontSize::Px(12.0), ..default() },
            TextColor(ink),
            Transform::from_translation(corner_offset(kind).extend(1.5)),
            Pickable::IGNORE,
            ChildOf(add.entity),
        ));
    }
}

fn despawn_chips(mut commands: Commands, chips: Query<(Entity, &Chip)>, alive: Query<()>) {
    for (drawing, chip) in &chips {
        if alive.get(chip.counter).is_err() {
            commands.entity(drawing).despawn();
        }
    }
}

/// Stacks each owner's chips at their corner (a few visible per stack; the count says the
/// rest); TP chips given to a harassment target sit on that target; a dragged chip follows
/// the pointer. The harasser's free TP chips can be picked up.
fn place_chips(
    plan: Res<HarassPlan>,
    drag: Res<ChipDrag>,
    tokens: Query<(&Token, &Transform), Without<Chip>>,
    cards: Query<(&Card, &Transform), Without<Chip>>,
    locations: Query<&Location>,
    mut chips: Query<(Entity, &Chip, &mut Transform, &mut Visibility, Has<Pickable>, Option<&Audience>)>,
    mut shadows: ResMut<Shadows>,
    mut commands: Commands,
) {
    // The harasser's TP chips the GM moved, and how many stay in the stack: the table's
    // screen sees the moved ones still on top of the stack.
    let mut moved: Vec<Entity> = Vec::new();
    let mut left_in_stack = 0;
    let mut stack_base = None;
    let token_places: std::collections::HashMap<Entity, Vec3> =
        tokens.iter().map(|(t, tf)| (t.0, tf.translation)).collect();
    let token_at = |owner: Entity| token_places.get(&owner).copied();
    let mut order: Vec<(Entity, Entity, TokenKind, Entity)> =
        chips.iter().map(|(d, c, ..)| (c.owner, c.counter, c.kind, d)).collect();
    order.sort_by_key(|&(owner, counter, kind, _)| (owner, kind, counter));
    let mut given: Vec<(Entity, u32)> = plan.allocations.clone();
    let mut stack: (Option<(Entity, TokenKind)>, u32) = (None, 0);
    let mut incoming: Vec<(Entity, u32)> = Vec::new();
    for (owner, _, kind, drawing) in order {
        if stack.0 != Some((owner, kind)) {
            stack = (Some((owner, kind)), 0);
        }
        let Ok((_, _, mut transform, mut visibility, pickable, audience)) = chips.get_mut(drawing) else {
            continue;
        };
        let harassing = kind == TokenKind::TacticalPoint && plan.harasser == Some(owner);
        let moves =
            harassing && (drag.0.is_some_and(|(d, _)| d == drawing) || given.iter().any(|(_, n)| *n > 0));
        let wanted = if moves { Audience::Gm } else { Audience::All };
        if audience.copied().unwrap_or_default() != wanted {
            commands.entity(drawing).insert(wanted);
        }
        if moves {
            moved.push(drawing);
        }
        // The pointer looks only at sprites with `Pickable`: a chip has it while it may be dragged.
        match (harassing, pickable) {
            (true, false) => {
                commands.entity(drawing).insert(Pickable::default());
            }
            (false, true) => {
                commands.entity(drawing).remove::<Pickable>();
            }
            _ => {}
        }
        if let Some((_, at)) = drag.0.filter(|(d, _)| *d == drawing) {
            transform.translation = at.extend(8.0);
            *visibility = Visibility::Inherited;
            continue;
        }
        // TP chips the plan gives away sit on their target, along its top edge.
        if harassing && let Some(slot) = given.iter_mut().find(|(_, n)| *n > 0) {
            slot.1 -= 1;
            let target = slot.0;
            let k = match incoming.iter_mut().find(|(t, _)| *t == target) {
                Some((_, k)) => {
                    *k += 1;
                    *k
                }
                None => {
                    incoming.push((target, 0));
                    0
                }
            };
            if let Some(base) = token_at(target) {
                transform.translation =
                    base + Vec3::new(-12.0 + (k.min(5) as f32) * 5.0, 4.0, 3.5 + k as f32 * 0.01);
                *visibility = Visibility::Inherited;
            }
            continue;
        }
        let n = stack.1;
        stack.1 += 1;
        let base = match token_at(owner) {
            Some(base) => base + corner_offset(kind).extend(1.0),
            None => {
                let Some((card, tf)) = cards.iter().find(|(c, _)| c.0 == owner) else { continue };
                let size = locations.get(card.0).map(|l| Vec2::from(l.size)).unwrap_or_default();
                tf.translation + (size * Vec2::new(0.5, 0.5) - Vec2::splat(14.0)).extend(0.5)
            }
        };
        if harassing {
            left_in_stack = n + 1;
            stack_base = Some(base);
        }
        // Up to four chips show, each a little higher, like a stack of coins.
        transform.translation = base + Vec3::new(0.0, lift(n), 0.01 * n as f32);
        *visibility = if n < 4 { Visibility::Inherited } else { Visibility::Hidden };
    }
    let base = stack_base.or_else(|| {
        plan.harasser.and_then(token_at).map(|b| b + corner_offset(TokenKind::TacticalPoint).extend(1.0))
    });
    shadows.0 = match base {
        Some(base) => moved
            .into_iter()
            .enumerate()
            .map(|(i, chip)| {
                let n = left_in_stack + i as u32;
                (chip, base + Vec3::new(0.0, lift(n), 0.01 * n as f32), n < 4)
            })
            .collect(),
        None => Vec::new(),
    };
}

/// Keeps one table-only stand-in per moved chip, where the chip was.
fn place_shadows(
    shadows: Res<Shadows>,
    chips: Query<&Sprite, With<Chip>>,
    mut drawn: Query<(Entity, &ChipShadow, &mut Transform, &mut Visibility)>,
    mut commands: Commands,
) {
    for (e, shadow, mut transform, mut visibility) in &mut drawn {
        match shadows.0.iter().find(|(chip, ..)| *chip == shadow.0) {
            Some(&(_, at, shown)) => {
                transform.translation = at;
                visibility.set_if_neq(if shown { Visibility::Inherited } else { Visibility::Hidden });
            }
            None => commands.entity(e).despawn(),
        }
    }
    for &(chip, at, shown) in &shadows.0 {
        if drawn.iter().any(|(_, s, ..)| s.0 == chip) {
            continue;
        }
        let Ok(sprite) = chips.get(chip) else { continue };
        let visibility = if shown { Visibility::Inherited } else { Visibility::Hidden };
        commands.spawn((
            ChipShadow(chip),
            Audience::Table,
            super::table::audience::layers(Audience::Table, false),
            sprite.clone(),
            Transform::from_translation(at),
            visibility,
        ));
    }
}

/// Writes each stack's count on its top chip; the harasser's TP count shows what is left to
/// give.
fn write_counts(
    plan: Res<HarassPlan>,
    tokens: Query<(&Token, &Children)>,
    counters: Query<&fray_core::prelude::Counters>,
    mut counts: Query<(&StackCount, &mut Text2d, &mut Transform)>,
) {
    for (token, children) in &tokens {
        let Ok(c) = counters.get(token.0) else { continue };
        for &child in children {
            let Ok((count, mut text, mut transform)) = counts.get_mut(child) else { continue };
            let mut n = c.get(count.kind);
            if count.plan && plan.harasser == Some(token.0) {
                n = n.saturating_sub(plan.total());
            }
            let value = if n == 0 { String::new() } else { n.to_string() };
            if text.0 != value {
                text.0 = value;
            }
            let at = (corner_offset(count.kind) + Vec2::new(0.0, lift(n.saturating_sub(1)))).extend(1.5);
            if transform.translation != at {
                transform.translation = at;
            }
        }
    }
}

/// The plan belongs to one harasser's decision: it is dropped when someone else is asked
/// (or the phase moves on), and started for a person harassing now.
fn forget_stale_plan(world: &mut World) {
    let phase = world.get_resource::<CurrentPhase<FwPhase>>().map(|p| p.get());
    let harasser = (phase == Some(FwPhase::Harassment))
        .then(|| awaiting(world).into_iter().next())
        .flatten()
        .filter(|&e| world.get::<Controller>(e) == Some(&Controller::Human));
    if world.resource::<HarassPlan>().harasser != harasser {
        *world.resource_mut::<HarassPlan>() = HarassPlan { harasser, allocations: Vec::new() };
    }
}

fn chip_drag_start(
    start: On<Pointer<DragStart>>,
    chips: Query<&Chip>,
    plan: Res<HarassPlan>,
    mut drag: ResMut<ChipDrag>,
) {
    if let Ok(chip) = chips.get(start.entity)
        && plan.harasser == Some(chip.owner)
    {
        drag.0 = Some((start.entity, Vec2::ZERO));
    }
}

fn pointer_world(
    camera: &Single<(&Camera, &GlobalTransform), With<BoardCamera>>,
    screen: Vec2,
) -> Option<Vec2> {
    camera.0.viewport_to_world_2d(camera.1, screen).ok()
}

fn chip_drag(
    moved: On<Pointer<Drag>>,
    camera: Single<(&Camera, &GlobalTransform), With<BoardCamera>>,
    mut drag: ResMut<ChipDrag>,
) {
    if let Some((chip, _)) = drag.0
        && chip == moved.entity
        && let Some(at) = pointer_world(&camera, moved.pointer_location.position)
    {
        drag.0 = Some((chip, at));
    }
}

fn chip_drag_end(
    end: On<Pointer<DragEnd>>,
    camera: Single<(&Camera, &GlobalTransform), With<BoardCamera>>,
    mut drag: ResMut<ChipDrag>,
    mut dropped: ResMut<ChipDrop>,
) {
    if drag.0.is_some_and(|(chip, _)| chip == end.entity) {
        drag.0 = None;
        if let Some(at) = pointer_world(&camera, end.pointer_location.position) {
            dropped.0 = Some((end.entity, at));
        }
    }
}

/// A TP chip dropped on a token gives that target one more TP, if the rules would accept
/// the allocation (else the reason is shown); dropped elsewhere after being given, it is
/// taken back from its target.
fn handle_drop(world: &mut World) {
    let Some((chip, at)) = world.resource_mut::<ChipDrop>().0.take() else {
        return;
    };
    let plan = world.resource::<HarassPlan>().clone();
    let Some(harasser) = plan.harasser else {
        return;
    };
    let mut tokens = world.query::<(&Token, &Transform)>();
    let target = tokens
        .iter(world)
        .find(|(_, t)| (t.translation.truncate() - at).abs().max_element() < TOKEN * 0.6)
        .map(|(t, _)| t.0);
    // Which target this chip was on, if the plan gave it away (chips are given in order).
    let from = given_target(world, &plan, chip);
    let mut next = match from {
        Some(f) => plan.changed(f, -1),
        None => plan.clone(),
    };
    match target {
        Some(t) if t != harasser => {
            next = next.changed(t, 1);
            if let Err(reason) = validate(world, harasser, &next.intent(world)) {
                let who = world.get::<Combatant>(harasser).map_or_else(String::new, |c| c.name.clone());
                world.resource_mut::<BoardMessage>().show(format!("{who}: {reason}"));
                return;
            }
        }
        _ if from.is_none() => return,
        _ => {}
    }
    *world.resource_mut::<HarassPlan>() = next;
}

fn given_target(world: &mut World, plan: &HarassPlan, chip: Entity) -> Option<Entity> {
    let harasser = plan.harasser?;
    let mut chips = world.query::<&Chip>();
    let mut mine: Vec<Entity> = chips
        .iter(world)
        .filter(|c| c.owner == harasser && c.kind == TokenKind::TacticalPoint)
        .map(|c| c.counter)
        .collect();
    mine.sort();
    let counter = world.get::<Chip>(chip)?.counter;
    let position = mine.iter().position(|&c| c == counter)? as u32;
    let mut seen = 0;
    plan.allocations.iter().find_map(|&(t, tp)| {
        seen += tp;
        (position < seen).then_some(t)
    })
}
