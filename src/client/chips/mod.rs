//! Counter tokens drawn as chips, for any ruleset: one chip per counter-token entity, in the
//! shape, colour and corner its ruleset declares for the kind, stacked at that corner of its
//! owner's token (on a location: of its card), with the count beside each stack. When the
//! rules ask someone to allocate counters among targets (Fiend Wake's harassment), that
//! person's chips are dragged onto the targets to build the allocation that is then sent.

use bevy::asset::RenderAssetUsages;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use fray_core::board::{ChipShape, Corner, CounterLook, CounterOwner};
use fray_core::fight::{Session, ruleset};
use fray_core::intent::IntentRecord;
use fray_core::location::Location;
use fray_core::prelude::{Combatant, Controller, CounterKind, CounterToken, Counters};
use fray_core::tokens::MAX_COUNTER_KINDS;
use fray_core::tokens::TokenOf;

use super::audience::Audience;
use super::board::pieces::{Card, Chip, ChipShadow, TOKEN, Token};
use super::camera::view::BoardCamera;
use super::order::{Opening, Step};
use super::pointer::{BoardMessage, ChipDrag, pointer_world};

mod stack;

use stack::lift;

/// The number drawn beside a stack of chips. The `plan` count is the GM's for the kind being
/// allocated: what is left to give; the table's count shows every chip until the plan is sent.
#[derive(Component)]
struct StackCount {
    kind: Option<CounterKind>,
    plan: bool,
}

/// Where the table's screen sees each chip the GM has moved (chip, place, shown).
#[derive(Resource, Default)]
struct Shadows(Vec<(Entity, Vec3, bool)>);

/// The allocation being built on the board, target by target.
#[derive(Resource, Default, Clone, Debug, PartialEq)]
pub struct AllocationPlan {
    /// Who allocates.
    pub who: Option<Entity>,
    /// The kind of counter given.
    pub kind: Option<CounterKind>,
    /// Counters per target, in the order they were given.
    pub allocations: Vec<(Entity, u32)>,
}

impl AllocationPlan {
    /// Counters given so far.
    pub fn total(&self) -> u32 {
        self.allocations.iter().map(|(_, n)| n).sum()
    }

    /// The plan with `delta` more (or fewer) for `target`; targets at 0 drop out.
    pub fn changed(&self, target: Entity, delta: i32) -> AllocationPlan {
        let mut plan = self.clone();
        match plan.allocations.iter_mut().find(|(t, _)| *t == target) {
            Some((_, n)) => *n = n.saturating_add_signed(delta),
            None if delta > 0 => plan.allocations.push((target, delta as u32)),
            None => {}
        }
        plan.allocations.retain(|(_, n)| *n > 0);
        plan
    }

    /// The targets by stable id, with what each is given.
    pub fn given(&self, world: &World) -> Vec<(fray_core::ids::CombatantId, u32)> {
        self.allocations
            .iter()
            .filter_map(|&(t, n)| Some((world.get::<Combatant>(t)?.id.clone(), n)))
            .collect()
    }

    /// The intent this plan sends, in the ruleset on the table.
    pub fn intent(&self, world: &World) -> Option<IntentRecord> {
        ruleset(world)?.view().allocate(world, self.who?, &self.given(world))
    }
}

/// A chip dropped somewhere during an allocation, handled once the world is at hand.
#[derive(Resource, Default)]
struct ChipDrop(Option<(Entity, Vec2)>);

/// The shapes chips are drawn with.
#[derive(Resource)]
struct Shapes {
    disc: Handle<Image>,
    square: Handle<Image>,
    triangle: Handle<Image>,
    diamond: Handle<Image>,
}

const CHIP: f32 = 21.0;

/// The look of a kind in the ruleset on the table.
fn look_of(session: Option<&Session>, kind: CounterKind) -> Option<CounterLook> {
    session?.ruleset().counters().iter().find(|l| l.kind == kind).copied()
}

/// Where each kind's stack stands on its owner's token, from its centre, by kind index.
fn corners(session: Option<&Session>) -> [Vec2; MAX_COUNTER_KINDS] {
    let mut out = [Vec2::ZERO; MAX_COUNTER_KINDS];
    for look in session.map_or(&[][..], |s| s.ruleset().counters()) {
        out[look.kind.index()] = corner_offset(look.corner);
    }
    out
}

/// Where a corner's stack stands on a token, from the token's centre.
fn corner_offset(corner: Corner) -> Vec2 {
    let signs = match corner {
        Corner::TopLeft => Vec2::new(-1.0, 1.0),
        Corner::TopRight => Vec2::new(1.0, 1.0),
        Corner::BottomLeft => Vec2::new(-1.0, -1.0),
        Corner::BottomRight => Vec2::new(1.0, -1.0),
    };
    signs * (TOKEN / 2.0 - 7.0)
}

fn colour([r, g, b]: [u8; 3]) -> Color {
    Color::srgb_u8(r, g, b)
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<AllocationPlan>()
        .init_resource::<ChipDrop>()
        .init_resource::<Shadows>()
        .add_systems(Startup, make_shapes.in_set(Opening::Spawn))
        .add_observer(spawn_chip)
        .add_observer(spawn_counts)
        .add_observer(chip_drag_start)
        .add_observer(chip_drag)
        .add_observer(chip_drag_end)
        .add_systems(
            Update,
            (
                (forget_stale_plan, handle_drop).chain().in_set(Step::ChipPlan),
                (despawn_chips, place_chips, place_shadows, write_counts).chain().in_set(Step::Chips),
            ),
        );
}

/// The chips' legend under the board: each kind's words and corner.
pub fn legend(world: &World) -> Option<String> {
    let looks = ruleset(world)?.counters();
    if looks.is_empty() {
        return None;
    }
    let corner = |c: Corner| match c {
        Corner::TopLeft => "top left",
        Corner::TopRight => "top right",
        Corner::BottomLeft => "bottom left",
        Corner::BottomRight => "bottom right",
    };
    let parts: Vec<String> = looks.iter().map(|l| format!("{} ({})", l.legend, corner(l.corner))).collect();
    Some(format!("Chips, with their count: {}", parts.join(" · ")))
}

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
        disc: images.add(shape(|u, v| u * u + v * v <= 1.0)),
        square: images.add(shape(|u, v| u.abs() <= 0.85 && v.abs() <= 0.85)),
        triangle: images.add(shape(|u, v| v >= -0.85 && v <= 0.95 - 2.0 * u.abs() * 0.95)),
        diamond: images.add(shape(|u, v| u.abs() + v.abs() <= 1.0)),
    });
}

fn spawn_chip(
    add: On<Add, CounterToken>,
    counters: Query<(&CounterToken, &TokenOf)>,
    shapes: Option<Res<Shapes>>,
    session: Option<Res<Session>>,
    mut commands: Commands,
) {
    let (Ok((counter, of)), Some(shapes)) = (counters.get(add.entity), shapes) else {
        return;
    };
    let Some(look) = look_of(session.as_deref(), counter.0) else {
        return;
    };
    let image = match look.shape {
        ChipShape::Disc => shapes.disc.clone(),
        ChipShape::Square => shapes.square.clone(),
        ChipShape::Triangle => shapes.triangle.clone(),
        ChipShape::Diamond => shapes.diamond.clone(),
    };
    let mut sprite = Sprite::from_image(image);
    sprite.color = colour(look.colour);
    sprite.custom_size = Some(Vec2::splat(CHIP));
    commands.spawn((
        Chip { counter: add.entity, owner: of.0, kind: counter.0 },
        sprite,
        Transform::from_xyz(0.0, 0.0, -100.0),
        Visibility::Hidden,
    ));
}

/// A count label per kind of the ruleset, as children of each combatant token, written on
/// the top chip.
fn spawn_counts(add: On<Add, Token>, session: Option<Res<Session>>, mut commands: Commands) {
    let looks = session.as_deref().map_or(&[][..], |s| s.ruleset().counters());
    for look in looks.iter().filter(|l| l.on == CounterOwner::Combatants) {
        commands.spawn(count_bundle(Some(look.kind), false, colour(look.ink), add.entity));
    }
}

/// A stack's count: for everyone, or the GM's count of an allocation being built (`plan`).
fn count_bundle(kind: Option<CounterKind>, plan: bool, ink: Color, token: Entity) -> impl Bundle {
    let audience = if plan { Audience::Gm } else { Audience::All };
    (
        StackCount { kind, plan },
        audience,
        super::audience::layers(audience, true, true),
        Text2d::new(""),
        TextFont { font_size: FontSize::Px(19.0), ..default() },
        TextColor(ink),
        Transform::from_xyz(0.0, 0.0, 1.5),
        Pickable::IGNORE,
        ChildOf(token),
    )
}

fn despawn_chips(mut commands: Commands, chips: Query<(Entity, &Chip)>, alive: Query<()>) {
    for (drawing, chip) in &chips {
        if alive.get(chip.counter).is_err() {
            commands.entity(drawing).despawn();
        }
    }
}

/// Whether anything a chip's place follows changed since the chips were last placed: the
/// tokens and cards they sit on, the chips themselves, the allocation, a chip's drag. A big
/// board has 1,600 chips; placed every frame, each frame moved them all.
#[derive(bevy::ecs::system::SystemParam)]
struct ChipsMoved<'w, 's> {
    under: Query<'w, 's, (), (Or<(With<Token>, With<Card>)>, Without<Chip>, Changed<Transform>)>,
    new: Query<'w, 's, (), Added<Chip>>,
    gone: RemovedComponents<'w, 's, Chip>,
    plan: Res<'w, AllocationPlan>,
    drag: Res<'w, ChipDrag>,
}

impl ChipsMoved<'_, '_> {
    /// Whether to place the chips again (reads the removals, so call it once a run).
    fn any(&mut self) -> bool {
        let gone = self.gone.read().count() > 0;
        gone || !self.under.is_empty()
            || !self.new.is_empty()
            || self.plan.is_changed()
            || self.drag.is_changed()
    }
}

/// Stacks each owner's chips at their corner (a few visible per stack; the count says the
/// rest); chips given to an allocation's target sit on that target; a dragged chip follows
/// the pointer. The allocator's chips of the kind allocated can be picked up.
fn place_chips(
    plan: Res<AllocationPlan>,
    drag: Res<ChipDrag>,
    session: Option<Res<Session>>,
    tokens: Query<(&Token, &Transform), Without<Chip>>,
    cards: Query<(&Card, &Transform), Without<Chip>>,
    locations: Query<&Location>,
    mut chips: Query<(Entity, &Chip, &mut Transform, &mut Visibility, Has<Pickable>, Option<&Audience>)>,
    mut shadows: ResMut<Shadows>,
    mut commands: Commands,
    mut changed: ChipsMoved,
) {
    if !changed.any() {
        return;
    }
    let token_places: std::collections::HashMap<Entity, Vec3> =
        tokens.iter().map(|(t, tf)| (t.0, tf.translation)).collect();
    let token_at = |owner: Entity| token_places.get(&owner).copied();
    let on_token = |owner: Entity, kind: CounterKind| {
        let corner = look_of(session.as_deref(), kind).map_or(Vec2::ZERO, |l| corner_offset(l.corner));
        token_at(owner).map(|base| base + corner.extend(1.0))
    };
    // A location's chips stack at its card's top right corner.
    let on_card = |owner: Entity| {
        let (card, tf) = cards.iter().find(|(c, _)| c.0 == owner)?;
        let size = locations.get(card.0).map(|l| Vec2::from(l.size)).unwrap_or_default();
        Some(tf.translation + (size * Vec2::new(0.5, 0.5) - Vec2::splat(14.0)).extend(0.5))
    };
    let mut order: Vec<(Entity, CounterKind, Entity, Entity)> =
        chips.iter().map(|(d, c, ..)| (c.owner, c.kind, c.counter, d)).collect();
    order.sort_by_key(|&(owner, kind, counter, _)| (owner, kind, counter));
    let (places, still) = stack::stack_chips(
        &order,
        (plan.who.zip(plan.kind), &plan.allocations),
        drag.0,
        stack::Bases { on_token, on_card, token_at },
    );
    for place in places {
        let Ok((_, _, mut transform, mut visibility, pickable, audience)) = chips.get_mut(place.drawing)
        else {
            continue;
        };
        let wanted = if place.moved { Audience::Gm } else { Audience::All };
        let audience = (audience.copied().unwrap_or_default(), wanted);
        set_access(&mut commands, place.drawing, audience, (pickable, place.draggable));
        if let Some((at, shown)) = place.at {
            if transform.translation != at {
                transform.translation = at;
            }
            visibility.set_if_neq(if shown { Visibility::Inherited } else { Visibility::Hidden });
        }
    }
    shadows.0 = still;
}

/// A chip's audience and whether it may be dragged, each `(now, wanted)`, changed where they
/// differ. The pointer looks only at sprites with `Pickable`: a chip has it while it may be
/// dragged.
fn set_access(
    commands: &mut Commands,
    drawing: Entity,
    (audience, wanted): (Audience, Audience),
    pickable: (bool, bool),
) {
    if audience != wanted {
        commands.entity(drawing).insert(wanted);
    }
    match pickable {
        (false, true) => {
            commands.entity(drawing).insert(Pickable::default());
        }
        (true, false) => {
            commands.entity(drawing).remove::<Pickable>();
        }
        _ => {}
    }
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
            super::audience::layers(Audience::Table, true, true),
            sprite.clone(),
            Transform::from_translation(at),
            visibility,
        ));
    }
}

/// Writes each stack's count on its top chip. While an allocation is built, the allocator's
/// count of that kind is the table's alone, and the GM's plan count says what is left to give.
fn write_counts(
    plan: Res<AllocationPlan>,
    session: Option<Res<Session>>,
    tokens: Query<(&Token, &Children)>,
    counters: Query<&Counters>,
    mut counts: Query<(&StackCount, &mut Text2d, &mut Transform, &mut Audience)>,
    (counted, new): (Query<(), Changed<Counters>>, Query<(), Added<StackCount>>),
) {
    // Counts change with the counters, the plan, or new count drawings.
    let table = session.as_ref().is_some_and(|s| s.is_changed());
    if counted.is_empty() && new.is_empty() && !plan.is_changed() && !table {
        return;
    }
    let corners = corners(session.as_deref());
    for (token, children) in &tokens {
        let Ok(c) = counters.get(token.0) else { continue };
        let allocating = plan.who == Some(token.0) && plan.kind.is_some();
        for &child in children {
            let Ok((count, mut text, mut transform, mut audience)) = counts.get_mut(child) else { continue };
            let Some(kind) = (if count.plan { plan.kind.filter(|_| allocating) } else { count.kind }) else {
                if !text.0.is_empty() {
                    text.0.clear();
                }
                continue;
            };
            let mut n = c.get(kind);
            if count.plan {
                n = n.saturating_sub(plan.total());
            }
            let split = allocating && !count.plan && plan.kind == Some(kind);
            let wanted = match (count.plan, split) {
                (true, _) => Audience::Gm,
                (false, true) => Audience::Table,
                (false, false) => Audience::All,
            };
            audience.set_if_neq(wanted);
            let value = if n == 0 { String::new() } else { n.to_string() };
            if text.0 != value {
                text.0 = value;
            }
            let at = (corners[kind.index()] + Vec2::new(0.0, lift(n.saturating_sub(1)))).extend(1.5);
            if transform.translation != at {
                transform.translation = at;
            }
        }
    }
}

/// The plan belongs to one person's allocation: it is dropped when the rules ask another
/// (or nobody), and started for a person allocating now.
fn forget_stale_plan(world: &mut World) {
    let ask = ruleset(world).and_then(|r| r.view().allocation(world)).filter(|a| {
        let seat = super::audience::main_seat(world);
        world.get::<Controller>(a.who).is_some_and(|c| super::audience::decides(&seat, c))
    });
    let (who, kind) = (ask.as_ref().map(|a| a.who), ask.as_ref().map(|a| a.kind));
    let plan = world.resource::<AllocationPlan>();
    if plan.who == who && plan.kind == kind {
        return;
    }
    *world.resource_mut::<AllocationPlan>() = AllocationPlan { who, kind, allocations: Vec::new() };
    // The GM's count of what is left to give lives on the allocator's token while it allocates.
    let mut counts = world.query::<(Entity, &StackCount)>();
    let old: Vec<Entity> = counts.iter(world).filter(|(_, c)| c.plan).map(|(e, _)| e).collect();
    for e in old {
        world.despawn(e);
    }
    let mut tokens = world.query::<(Entity, &Token)>();
    let token = tokens.iter(world).find(|(_, t)| Some(t.0) == who).map(|(e, _)| e);
    let look = kind.and_then(|k| look_of(world.get_resource::<Session>(), k));
    if let (Some(token), Some(look)) = (token, look) {
        world.spawn(count_bundle(kind, true, colour(look.ink), token));
    }
}

fn chip_drag_start(
    start: On<Pointer<DragStart>>,
    chips: Query<&Chip>,
    plan: Res<AllocationPlan>,
    mut drag: ResMut<ChipDrag>,
) {
    if let Ok(chip) = chips.get(start.entity)
        && plan.who == Some(chip.owner)
        && plan.kind == Some(chip.kind)
    {
        drag.0 = Some((start.entity, Vec2::ZERO));
    }
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

/// A chip dropped on a token gives that target one more, if the rules would accept the
/// allocation (else the reason is shown); dropped elsewhere after being given, it is taken
/// back from its target.
fn handle_drop(world: &mut World) {
    let Some((chip, at)) = world.resource_mut::<ChipDrop>().0.take() else {
        return;
    };
    let plan = world.resource::<AllocationPlan>().clone();
    let (Some(who), Some(rules)) = (plan.who, ruleset(world)) else {
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
        Some(t) if t != who => {
            next = next.changed(t, 1);
            let verdict = next.intent(world).map(|intent| rules.validate(world, who, &intent));
            if let Some(Err(reason)) = verdict {
                let name = fray_core::table::name(world, who);
                world.resource_mut::<BoardMessage>().show(format!("{name}: {reason}"));
                return;
            }
        }
        _ if from.is_none() => return,
        _ => {}
    }
    *world.resource_mut::<AllocationPlan>() = next;
}

fn given_target(world: &mut World, plan: &AllocationPlan, chip: Entity) -> Option<Entity> {
    let (who, kind) = (plan.who?, plan.kind?);
    let mut chips = world.query::<&Chip>();
    let mut mine: Vec<Entity> =
        chips.iter(world).filter(|c| c.owner == who && c.kind == kind).map(|c| c.counter).collect();
    mine.sort();
    let counter = world.get::<Chip>(chip)?.counter;
    let position = mine.iter().position(|&c| c == counter)? as u32;
    let mut seen = 0;
    plan.allocations.iter().find_map(|&(t, n)| {
        seen += n;
        (position < seen).then_some(t)
    })
}
