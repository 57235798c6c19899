//! Pictures a scenario names, for any ruleset: a combatant's or a mount's emblem on its token
//! (the side's disc and rim pattern still round it, its initials hidden once the picture is
//! read), a location's picture faint on its card, and a map under the board at its scale.
//! PNGs under `assets/`, loaded through Bevy's asset server; a picture that cannot be read
//! leaves the drawing as it is without one (initials, a plain card, the plain board). A
//! table's screen keyed for a stream (a flat background colour) shows no map.

use bevy::camera::visibility::RenderLayers;
use bevy::prelude::*;
use bevy::sprite::Anchor;
use fray_core::fight::Session;
use fray_core::table::{Art, BoardMap};

use super::board::pieces::{Card, Initials, MountToken, PlateEmblem, TOKEN, Token, to_board};
use super::order::Step;
use super::theme::Palette;

/// An emblem's size against its token's.
const EMBLEM: f32 = 0.74;
/// How strongly a location's picture shows on its card (the card's colour, which the reach
/// view and the drop hints set, shows through).
const CARD_ART: f32 = 0.4;

/// A picture inside a token or on a mount's plate.
#[derive(Component)]
struct Emblem;

/// A location's picture on its card.
#[derive(Component)]
struct CardArt;

/// The map under the board, and what it was drawn for.
#[derive(Component)]
struct MapDrawing(fray_core::scenario::MapSpec);

/// The theme's field colour laid over the map (`Palette::map_wash`).
#[derive(Component)]
struct MapWash;

/// A drawing whose picture has been looked for.
#[derive(Component)]
struct Pictured;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (picture_pieces, fit_emblems, draw_map, wash_map, map_audience).chain().in_set(Step::Pictures),
    );
}

/// Gives each new token, mount plate and card the picture its table object names.
fn picture_pieces(
    mut commands: Commands,
    assets: Res<AssetServer>,
    tokens: Query<(Entity, &Token), Without<Pictured>>,
    mounts: Query<(Entity, &MountToken), Without<Pictured>>,
    cards: Query<(Entity, &Card, &Sprite, &Anchor), Without<Pictured>>,
    art: Query<&Art>,
) {
    let pieces = tokens.iter().map(|(d, t)| (d, t.0)).chain(mounts.iter().map(|(d, m)| (d, m.0)));
    for (drawing, piece) in pieces {
        commands.entity(drawing).insert(Pictured);
        if let Ok(Art(path)) = art.get(piece) {
            commands.entity(drawing).with_child((
                Emblem,
                Sprite { image: assets.load(path.clone()), custom_size: Some(Vec2::ZERO), ..default() },
                Transform::from_xyz(0.0, 0.0, 0.06),
                Pickable::IGNORE,
            ));
        }
    }
    for (drawing, card, sprite, anchor) in &cards {
        commands.entity(drawing).insert(Pictured);
        if let Ok(Art(path)) = art.get(card.0) {
            commands.entity(drawing).with_child((
                CardArt,
                Sprite {
                    image: assets.load(path.clone()),
                    custom_size: sprite.custom_size,
                    color: Color::WHITE.with_alpha(CARD_ART),
                    ..default()
                },
                *anchor,
                Transform::from_xyz(0.0, 0.0, 0.02),
                Pickable::IGNORE,
            ));
        }
    }
}

type Holder<'a> = (Entity, &'a Sprite, Has<MountToken>, Has<PlateEmblem>, &'a Children);

/// Sizes each emblem to its token (a square at the left of a mount's plate, which the board
/// widens for it), and hides the initials once the picture is read.
fn fit_emblems(
    mut commands: Commands,
    images: Res<Assets<Image>>,
    holders: Query<Holder, Without<Emblem>>,
    mut emblems: Query<(&ChildOf, &mut Sprite, &mut Transform), With<Emblem>>,
    mut initials: Query<&mut Visibility, With<Initials>>,
) {
    for (of, mut sprite, mut transform) in &mut emblems {
        let Ok((drawing, holder, mount, widened, children)) = holders.get(of.parent()) else { continue };
        let read = images.get(&sprite.image).is_some();
        if read && mount && !widened {
            commands.entity(drawing).insert(PlateEmblem);
        }
        let size = holder.custom_size.unwrap_or(Vec2::splat(TOKEN));
        let (want, at) = match (read, mount) {
            (false, _) => (Vec2::ZERO, Vec2::ZERO),
            (true, false) => (Vec2::splat(size.x * EMBLEM), Vec2::ZERO),
            (true, true) => (Vec2::splat(size.y * 0.9), Vec2::new(size.y * 0.5 - size.x / 2.0, 0.0)),
        };
        if sprite.custom_size != Some(want) {
            sprite.custom_size = Some(want);
        }
        if transform.translation.truncate() != at {
            transform.translation = at.extend(transform.translation.z);
        }
        for &child in children {
            if let Ok(mut shown) = initials.get_mut(child) {
                shown.set_if_neq(if read { Visibility::Hidden } else { Visibility::Inherited });
            }
        }
    }
}

/// The scenario's map under the board, drawn again when the table changes; sized once its
/// picture is read (its pixels times its scale, in the ruleset's unit on a board of free
/// positions).
fn draw_map(
    mut commands: Commands,
    assets: Res<AssetServer>,
    images: Res<Assets<Image>>,
    map: Option<Res<BoardMap>>,
    session: Option<Res<Session>>,
    mut drawn: Query<(Entity, &MapDrawing, &mut Sprite, &mut Transform)>,
) {
    let want = map.and_then(|m| m.0.clone());
    // A board of free positions counts in the ruleset's unit; one of cards in board units.
    let free = session.map(|s| s.ruleset().space()).filter(|s| !s.locations);
    for (e, drawing, mut sprite, mut transform) in &mut drawn {
        if want.as_ref() != Some(&drawing.0) {
            commands.entity(e).despawn();
            continue;
        }
        let Some(image) = images.get(&sprite.image) else { continue };
        let unit = free.as_ref().map_or(1.0, |s| s.unit.board);
        let size = image.size().as_vec2() * drawing.0.scale * unit;
        if sprite.custom_size != Some(size) {
            sprite.custom_size = Some(size);
        }
        let centre = [drawing.0.centre.0, drawing.0.centre.1];
        let at = free.as_ref().map_or(Vec2::from(centre), |space| to_board(space, centre));
        if transform.translation.truncate() != at {
            transform.translation = at.extend(-10.0);
        }
    }
    let Some(map) = want else { return };
    if drawn.iter().any(|(_, d, ..)| d.0 == map) {
        return;
    }
    commands
        .spawn((
            MapDrawing(map.clone()),
            Sprite { image: assets.load(map.image.clone()), custom_size: Some(Vec2::ZERO), ..default() },
            Transform::from_xyz(0.0, 0.0, -10.0),
            Pickable::IGNORE,
        ))
        .with_child((MapWash, Sprite::default(), Transform::from_xyz(0.0, 0.0, 0.01), Pickable::IGNORE));
}

/// The wash over the map: its size, in the theme's field colour.
fn wash_map(
    palette: Res<Palette>,
    maps: Query<&Sprite, (With<MapDrawing>, Without<MapWash>)>,
    mut washes: Query<(&ChildOf, &mut Sprite, &mut Visibility), With<MapWash>>,
) {
    for (of, mut sprite, mut shown) in &mut washes {
        let Ok(map) = maps.get(of.parent()) else { continue };
        let color = palette.field.with_alpha(palette.map_wash);
        if sprite.custom_size != map.custom_size || sprite.color != color {
            (sprite.custom_size, sprite.color) = (map.custom_size, color);
        }
        shown.set_if_neq(if palette.map_wash > 0.0 { Visibility::Inherited } else { Visibility::Hidden });
    }
}

/// The map is for both screens, unless the table's screen has a flat background for chroma
/// keying: a stream puts its own scene behind the board there.
fn map_audience(
    view: Res<super::table::view::TableView>,
    maps: Query<(Entity, Option<&RenderLayers>), Or<(With<MapDrawing>, With<MapWash>)>>,
    mut commands: Commands,
) {
    let want = match view.settings.background {
        Some(_) => RenderLayers::layer(super::audience::GM_LAYER),
        None => RenderLayers::layer(0),
    };
    for (e, layers) in &maps {
        if layers != Some(&want) {
            commands.entity(e).insert(want.clone());
        }
    }
}
