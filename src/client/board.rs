//! Draws the table for any ruleset: a card per location (name, what entering costs, where it
//! is entered from, the ruleset's notes), arrows for accessibility, a token per combatant
//! and per mount, in its card or at its free position on the ruleset's scale. Positions
//! follow the rule state every frame, so a refused move simply slides back.

use std::collections::BTreeMap;

use bevy::prelude::*;
use bevy::sprite::Anchor;
use bevy::text::TextBounds;
use fray_core::DriveRules;
use fray_core::board::Space;
use fray_core::fight::{Session, ruleset};
use fray_core::location::{EnteredFrom, Location, OpenField};
use fray_core::prelude::{Combatant, FieldPosition, Mount, Occupies, Rides, SideIndex, Status, TableIndex};

use super::drag::Dragging;

/// The systems that lay the board out after the rules ran.
#[derive(SystemSet, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Layout;

/// What the reach view starts from: a selected token's place, or a selected card.
#[derive(Resource, Default, Clone, Copy, Debug)]
pub struct Selection {
    /// The selected combatant (its sheet is shown).
    pub combatant: Option<Entity>,
    /// The selected location.
    pub location: Option<Entity>,
}

/// The card drawn for a location.
#[derive(Component)]
pub struct Card(pub Entity);

/// The card's changing text: the ruleset's lines for the location ([`CardView`](fray_core::board::CardView)).
#[derive(Component)]
struct CardInfo(Entity);

/// The badge shown on a card while a token is dragged: what entering would be, or why not.
#[derive(Component)]
pub struct CardBadge;

/// The GM's own colouring of a card, over it: the reach view or the drag lights of a
/// combatant hidden from the table (which must not give away where it stands).
#[derive(Component)]
pub struct CardTint;

/// The token drawn for a combatant.
#[derive(Component)]
pub struct Token(pub Entity);

/// The token's caption: name, status and the ruleset's notes (counters are chips).
#[derive(Component)]
pub(super) struct TokenCaption(pub(super) Entity);

/// The token drawn for a mount.
#[derive(Component)]
pub struct MountToken(pub Entity);

/// The room the side columns of tokens in no location take (see `place_tokens`).
pub const FIELD_COLUMNS: Rect = Rect { min: Vec2::new(-745.0, -390.0), max: Vec2::new(745.0, -70.0) };

/// Token size on a board of cards.
pub const TOKEN: f32 = 46.0;

/// Token size on a board of free positions (people stand a metre or two apart).
pub const FREE_TOKEN: f32 = TOKEN * 0.72;

/// The layout of the ruleset on the table (cards when none is open).
pub fn space(world: &World) -> Space {
    ruleset(world).map_or(Space::LOCATIONS, |r| r.space())
}

/// Where a point in the ruleset's unit lies on the board.
pub fn to_board(space: &Space, at: [f32; 2]) -> Vec2 {
    Vec2::from(at) * space.unit.board
}

/// A board point in the ruleset's unit.
pub fn to_unit(space: &Space, at: Vec2) -> [f32; 2] {
    (at / space.unit.board).into()
}

const SIDE_COLOURS: [Color; 4] = [
    Color::srgb(0.25, 0.45, 0.85),
    Color::srgb(0.80, 0.25, 0.22),
    Color::srgb(0.30, 0.65, 0.30),
    Color::srgb(0.75, 0.60, 0.20),
];

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Selection>()
        .add_observer(select)
        .add_observer(spawn_card)
        .add_observer(spawn_token)
        .add_observer(spawn_mount_token)
        .add_systems(
            Update,
            (despawn_orphans, place_tokens, write_card_info, write_captions, draw_arrows)
                .chain()
                .after(DriveRules)
                .in_set(Layout),
        );
}

/// Clicking a token selects its combatant; clicking a card selects its location.
fn select(
    click: On<Pointer<Click>>,
    tokens: Query<&Token>,
    cards: Query<&Card>,
    mut selection: ResMut<Selection>,
) {
    if let Ok(token) = tokens.get(click.entity) {
        *selection = Selection { combatant: Some(token.0), location: None };
    } else if let Ok(card) = cards.get(click.entity) {
        *selection = Selection { combatant: None, location: Some(card.0) };
    }
}

/// A board text of `size` pixels.
pub(crate) fn text(value: impl Into<String>, size: f32, colour: Color) -> impl Bundle {
    (Text2d::new(value), TextFont { font_size: FontSize::Px(size), ..default() }, TextColor(colour))
}

fn spawn_card(add: On<Add, Location>, locations: Query<(&Location, Has<OpenField>)>, mut commands: Commands) {
    let Ok((location, field)) = locations.get(add.entity) else {
        return;
    };
    if field {
        return;
    }
    let size = Vec2::from(location.size);
    let at = Vec2::from(location.position);
    commands
        .spawn((
            Card(add.entity),
            Sprite::from_color(Color::srgb(0.78, 0.72, 0.58), size),
            Transform::from_translation(at.extend(0.0)),
            Pickable::default(),
        ))
        .with_children(|card| {
            card.spawn((
                text(
                    location.name.clone(),
                    (size.x / (location.name.chars().count() as f32 * 0.62)).clamp(12.0, 22.0),
                    Color::BLACK,
                ),
                Transform::from_xyz(0.0, size.y / 2.0 - 16.0, 0.1),
            ));
            card.spawn((
                CardInfo(add.entity),
                text("", 13.0, Color::srgb(0.15, 0.12, 0.08)),
                TextBounds::new_horizontal(size.x - 12.0),
                Anchor::TOP_CENTER,
                Transform::from_xyz(0.0, size.y / 2.0 - 30.0, 0.1),
            ));
            card.spawn((
                CardTint,
                crate::client::table::audience::Audience::Gm,
                Sprite::from_color(Color::NONE, size),
                Transform::from_xyz(0.0, 0.0, 0.05),
                Visibility::Hidden,
            ));
            card.spawn((
                CardBadge,
                text("", 26.0, Color::srgb(0.05, 0.05, 0.05)),
                Transform::from_xyz(0.0, -size.y / 2.0 + 18.0, 0.3),
            ));
        });
}

fn spawn_token(add: On<Add, Combatant>, combatants: Query<(&Combatant, &SideIndex)>, mut commands: Commands) {
    let Ok((combatant, side)) = combatants.get(add.entity) else {
        return;
    };
    let colour = SIDE_COLOURS[side.0 as usize % SIDE_COLOURS.len()];
    let initials: String = combatant
        .name
        .split_whitespace()
        .filter_map(|w| w.chars().next())
        .filter(|c| c.is_alphanumeric())
        .take(2)
        .collect();
    commands
        .spawn((
            Token(add.entity),
            Sprite::from_color(colour, Vec2::splat(TOKEN)),
            Transform::from_xyz(0.0, 0.0, 2.0),
            Pickable::default(),
        ))
        .with_children(|token| {
            token.spawn((
                text(initials, 17.0, Color::WHITE),
                Transform::from_xyz(0.0, 0.0, 0.1),
                Pickable::IGNORE,
            ));
            token.spawn((
                TokenCaption(add.entity),
                text("", 12.0, Color::WHITE),
                Transform::from_xyz(0.0, -TOKEN / 2.0 - 15.0, 0.1),
                Pickable::IGNORE,
            ));
        });
}

fn spawn_mount_token(add: On<Add, Mount>, mounts: Query<&Mount>, mut commands: Commands) {
    let Ok(mount) = mounts.get(add.entity) else {
        return;
    };
    commands
        .spawn((
            MountToken(add.entity),
            Sprite::from_color(Color::srgb(0.45, 0.32, 0.18), Vec2::new(TOKEN * 0.8, TOKEN * 0.5)),
            Transform::from_xyz(0.0, 0.0, 1.5),
            Pickable::default(),
        ))
        .with_children(|m| {
            m.spawn((
                text(mount.name.clone(), 12.0, Color::WHITE),
                Transform::from_xyz(0.0, 0.0, 0.1),
                Pickable::IGNORE,
            ));
        });
}

/// Removes drawings of table objects that are gone (picked-up caltrops, a reset table).
fn despawn_orphans(
    mut commands: Commands,
    cards: Query<(Entity, &Card)>,
    tokens: Query<(Entity, &Token)>,
    mounts: Query<(Entity, &MountToken)>,
    alive: Query<()>,
) {
    let gone = |e: Entity| alive.get(e).is_err();
    for (drawing, of) in cards.iter().map(|(d, c)| (d, c.0)).chain(tokens.iter().map(|(d, t)| (d, t.0))) {
        if gone(of) {
            commands.entity(drawing).despawn();
        }
    }
    for (drawing, m) in &mounts {
        if gone(m.0) {
            commands.entity(drawing).despawn();
        }
    }
}

/// Where a combatant's token goes: in its location's card (a grid from the top), or in no
/// location at its free position (its mount's for a rider) on the ruleset's scale, else in
/// its side's column at the bottom of the board. Mounts stand under their rider, or free.
fn place_tokens(
    session: Option<Res<Session>>,
    index: Res<TableIndex>,
    dragging: Res<Dragging>,
    combatants: Query<(&Occupies, Option<&FieldPosition>, &SideIndex, Option<&Rides>)>,
    places: Query<(&Location, Has<OpenField>)>,
    mount_places: Query<(&Occupies, Option<&FieldPosition>)>,
    mut tokens: Query<(Entity, &Token, &mut Transform, &mut Sprite), Without<MountToken>>,
    mut mount_tokens: Query<(&MountToken, &mut Transform), Without<Token>>,
) {
    let space = session.map_or(Space::LOCATIONS, |s| s.ruleset().space());
    let size = if space.locations { TOKEN } else { FREE_TOKEN };
    let mut slots: BTreeMap<(Entity, u16), usize> = BTreeMap::new();
    let mut at: BTreeMap<Entity, Vec2> = BTreeMap::new();
    for &c in &index.order {
        let Ok((occupies, own, side, rides)) = combatants.get(c) else { continue };
        let Ok((location, field)) = places.get(occupies.0) else { continue };
        let key = (occupies.0, if field { side.0 } else { 0 });
        let n = *slots.entry(key).and_modify(|n| *n += 1).or_insert(0);
        // A rider with no place of its own stands where its mount stands.
        let free = own
            .map(|p| p.0)
            .or_else(|| rides.and_then(|r| mount_places.get(r.0).ok()).and_then(|(_, f)| f.map(|p| p.0)));
        let pos = if field {
            free.map(|p| to_board(&space, p)).unwrap_or_else(|| {
                let x = if side.0 % 2 == 0 {
                    -700.0 + (n / 4) as f32 * 70.0
                } else {
                    700.0 - (n / 4) as f32 * 70.0
                };
                Vec2::new(x, -330.0 + (n % 4) as f32 * 75.0)
            })
        } else {
            let card = Vec2::from(location.size);
            let per_row = ((card.x - 10.0) / (TOKEN + 26.0)).max(1.0) as usize;
            let origin = Vec2::from(location.position)
                + Vec2::new(-card.x / 2.0 + 8.0 + TOKEN / 2.0, card.y / 2.0 - 78.0);
            origin
                + Vec2::new((n % per_row) as f32 * (TOKEN + 26.0), -((n / per_row) as f32) * (TOKEN + 36.0))
        };
        at.insert(c, pos);
    }
    for (drawing, token, mut transform, mut sprite) in &mut tokens {
        if sprite.custom_size != Some(Vec2::splat(size)) {
            sprite.custom_size = Some(Vec2::splat(size));
        }
        if dragging.0.as_ref().is_some_and(|d| d.token == drawing) {
            continue;
        }
        if let Some(pos) = at.get(&token.0) {
            transform.translation = pos.extend(2.0);
        }
    }
    let riders: BTreeMap<Entity, Entity> = index
        .order
        .iter()
        .filter_map(|&c| combatants.get(c).ok().and_then(|(_, _, _, r)| r.map(|r| (r.0, c))))
        .collect();
    for (m, mut transform) in &mut mount_tokens {
        let pos = match riders.get(&m.0).and_then(|rider| at.get(rider)) {
            Some(rider) => *rider + Vec2::new(0.0, -TOKEN * 0.45),
            // A free mount in a location waits in the card's lower right corner.
            None => mount_places
                .get(m.0)
                .ok()
                .and_then(|(o, f)| {
                    f.map(|p| to_board(&space, p.0)).or_else(|| {
                        places.get(o.0).ok().map(|(l, _)| {
                            Vec2::from(l.position)
                                + Vec2::from(l.size) * Vec2::new(0.5, -0.5)
                                + Vec2::new(-30.0, 16.0)
                        })
                    })
                })
                .unwrap_or_default(),
        };
        transform.translation = pos.extend(1.5);
    }
}

/// Each card's cost to enter, where it is entered from, and the ruleset's notes.
fn write_card_info(
    world: &mut World,
    infos: &mut QueryState<(Entity, &CardInfo)>,
    mut seen: Local<Option<TableKey>>,
) {
    // Card texts change only with the rules (logged) or a new table.
    let key = Some(table_key(world, infos.iter(world).count()));
    if *seen == key {
        return;
    }
    *seen = key;
    let Some(rules) = ruleset(world) else { return };
    let texts: Vec<(Entity, String)> = infos
        .iter(world)
        .filter_map(|(drawing, info)| Some((drawing, card_info(world, rules.as_ref(), info.0)?)))
        .collect();
    for (drawing, value) in texts {
        if let Some(mut text) = world.get_mut::<Text2d>(drawing)
            && text.0 != value
        {
            text.0 = value;
        }
    }
}

/// What the drawn texts depend on: the log's length (every rule change is logged), the
/// table's index (a new or rebuilt table) and how many drawings there are.
pub type TableKey = (usize, u32, usize);

/// The current [`TableKey`], for `drawings` drawings.
pub fn table_key(world: &World, drawings: usize) -> TableKey {
    let log = world.get_resource::<fray_core::log::GameLog>().map_or(0, |l| l.entries().len());
    let index = world.get_resource_change_ticks::<TableIndex>().map_or(0, |t| t.changed.get());
    (log, index, drawings)
}

fn card_info(world: &World, rules: &dyn fray_core::ruleset::AnyRuleset, place: Entity) -> Option<String> {
    let from = world.get::<EnteredFrom>(place)?;
    let sources: Vec<String> = from.0.iter().map(|&f| fray_core::location::place_name(world, f)).collect();
    let sources = if sources.is_empty() { "nowhere".to_owned() } else { sources.join(" / ") };
    let card = rules.card(world, place);
    let mut lines = vec![match card.cost {
        Some(cost) => format!("{cost}, from {sources}"),
        None => format!("from {sources}"),
    }];
    if !card.notes.is_empty() {
        lines.push(card.notes.join(", "));
    }
    Some(lines.join("\n"))
}

/// Name and status in words, then the ruleset's notes; the counters are chips. Rewritten
/// only when the rules changed something (logged), the table, or what the table may see.
fn write_captions(
    world: &mut World,
    captions: &mut QueryState<(Entity, &TokenCaption)>,
    mut seen: Local<Option<(TableKey, Vec<fray_core::ids::CombatantId>)>>,
) {
    let mut hidden: Vec<_> =
        world.resource::<crate::client::table::audience::HiddenFromTable>().0.iter().cloned().collect();
    hidden.sort();
    let key = Some((table_key(world, captions.iter(world).count()), hidden));
    if *seen == key {
        return;
    }
    let hidden = key.as_ref().map(|k| k.1.clone()).unwrap_or_default();
    *seen = key;
    let Some(rules) = ruleset(world) else { return };
    let all: Vec<(Entity, Entity)> = captions.iter(world).map(|(d, c)| (d, c.0)).collect();
    for (drawing, e) in all {
        let Some(c) = world.get::<Combatant>(e) else { continue };
        let status = world.get::<Status>(e).copied().unwrap_or_default();
        let state = match status {
            Status::Fighting => String::new(),
            other => format!(" [{}]", format!("{other:?}").to_uppercase()),
        };
        let first = c.name.split_whitespace().next().unwrap_or_default().to_owned();
        let view = rules.token(world, e);
        let mut notes = view.notes;
        // The rules' own word ("concealed") says it already.
        if hidden.contains(&c.id) && !view.concealed {
            notes.push("hidden".to_owned());
        }
        let value = format!("{first}{state}\n{}", notes.join(", "));
        if let Some(mut text) = world.get_mut::<Text2d>(drawing)
            && text.0 != value
        {
            text.0 = value;
        }
    }
}

/// Arrows from each location to those that may be entered from it.
fn draw_arrows(
    mut gizmos: Gizmos,
    locations: Query<(Entity, &Location, &EnteredFrom), Without<OpenField>>,
    field: Query<(), With<OpenField>>,
    positions: Query<&Location>,
) {
    for (_, to, from) in &locations {
        let end = Vec2::from(to.position);
        for &f in &from.0 {
            if field.contains(f) {
                continue;
            }
            let Ok(source) = positions.get(f) else { continue };
            let start = Vec2::from(source.position);
            let dir = (end - start).normalize_or_zero();
            let half = Vec2::from(to.size) / 2.0;
            let inset = (half.x.abs() / dir.x.abs().max(1e-3)).min(half.y.abs() / dir.y.abs().max(1e-3));
            let src_half = Vec2::from(source.size) / 2.0;
            let out = (src_half.x / dir.x.abs().max(1e-3)).min(src_half.y / dir.y.abs().max(1e-3));
            gizmos.arrow_2d(start + dir * out, end - dir * (inset + 4.0), Color::srgb(0.95, 0.85, 0.35));
        }
    }
}

/// The location whose card covers this board point, if any.
pub fn card_at(point: Vec2, locations: &[(Entity, &Location)]) -> Option<Entity> {
    locations.iter().find_map(|&(e, l)| {
        let half = Vec2::from(l.size) / 2.0;
        let d = (point - Vec2::from(l.position)).abs();
        (d.x <= half.x && d.y <= half.y).then_some(e)
    })
}
