//! A token's marks and pips, as its ruleset gives them (`TokenView`): each state it is in
//! (a condition) as a small picture on the token's upper rim, the first three of them (every
//! one's word is in the caption), and a resource spent each turn (AP) as pips along its lower
//! rim, lit for those left. Drawn again only when the rules logged something or the table
//! changed.

use bevy::asset::RenderAssetUsages;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use fray_core::board::Pips;
use fray_core::fight::ruleset;

use super::board::pieces::{TOKEN, TableKey, Token, table_key};
use super::order::Step;

/// Marks drawn on a token at most.
const SHOWN: usize = 3;
/// A mark's size against its token's.
const MARK: f32 = 0.4;
/// A pip's size against its token's.
const PIP: f32 = 0.17;
/// A lit pip's colour, and a spent one's.
const LIT: Color = Color::srgb(1.0, 0.84, 0.3);
const SPENT: Color = Color::srgba(0.12, 0.12, 0.12, 0.85);

/// What a token's marks and pips show now: each mark's word and picture.
#[derive(Component, Default, PartialEq)]
struct Shown {
    marks: Vec<(String, String)>,
    pips: Option<Pips>,
}

/// A mark's picture on a token, with the mark's word.
#[derive(Component)]
pub(super) struct MarkIcon(pub(super) String);

/// A pip on a token: lit or not.
#[derive(Component)]
pub(super) struct Pip(pub(super) bool);

/// Where a mark or a pip stands: the `i`th of `n` in its row.
#[derive(Component, Clone, Copy)]
struct Slot {
    i: usize,
    n: usize,
    pip: bool,
}

impl Slot {
    /// Its size and place on a token `size` across: marks in a row on the upper rim, pips on
    /// the lower.
    fn fit(self, size: f32) -> (Vec2, Vec3) {
        let (side, step, y) = if self.pip {
            let side = size * PIP;
            (side, side * 1.3, -size / 2.0 + side / 2.0 + size * 0.04)
        } else {
            let side = size * MARK;
            (side, side * 0.95, size / 2.0 - side / 2.0 + size * 0.05)
        };
        let x = (self.i as f32 - (self.n as f32 - 1.0) / 2.0) * step;
        (Vec2::splat(side), Vec3::new(x, y, 0.2))
    }
}

/// A round dot with a dark edge, for pips.
#[derive(Resource)]
struct Dot(Handle<Image>);

impl FromWorld for Dot {
    fn from_world(world: &mut World) -> Self {
        const SIZE: u32 = 32;
        let half = SIZE as f32 / 2.0;
        let mut data = Vec::with_capacity((SIZE * SIZE * 4) as usize);
        for y in 0..SIZE {
            for x in 0..SIZE {
                let d = Vec2::new(x as f32 + 0.5 - half, y as f32 + 0.5 - half).length() / half;
                let cover = ((1.0 - d) * half).clamp(0.0, 1.0);
                let grey = if d > 0.72 { 40 } else { 255 };
                data.extend([grey, grey, grey, (cover * 255.0) as u8]);
            }
        }
        let size = Extent3d { width: SIZE, height: SIZE, depth_or_array_layers: 1 };
        let image = Image::new(
            size,
            TextureDimension::D2,
            data,
            TextureFormat::Rgba8UnormSrgb,
            RenderAssetUsages::RENDER_WORLD,
        );
        Dot(world.resource_mut::<Assets<Image>>().add(image))
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Dot>().add_systems(Update, (dress, refit).chain().in_set(Step::Marks));
}

/// The size a token is drawn at.
fn drawn_size(sprite: Option<&Sprite>) -> f32 {
    sprite.and_then(|s| s.custom_size).map_or(TOKEN, |s| s.x)
}

/// Gives each token the marks and pips its ruleset says, when they changed.
fn dress(world: &mut World, tokens: &mut QueryState<(Entity, &Token)>, mut seen: Local<Option<TableKey>>) {
    let key = Some(table_key(world, tokens.iter(world).count()));
    if *seen == key {
        return;
    }
    *seen = key;
    let Some(rules) = ruleset(world) else { return };
    let all: Vec<(Entity, Entity)> = tokens.iter(world).map(|(d, t)| (d, t.0)).collect();
    for (drawing, e) in all {
        let view = rules.view().token(world, e);
        let want = Shown {
            marks: view.marks.into_iter().filter_map(|m| Some((m.label, m.icon?))).take(SHOWN).collect(),
            pips: view.pips.filter(|p| p.of > 0),
        };
        if world.get::<Shown>(drawing).unwrap_or(&Shown::default()) == &want {
            continue;
        }
        let old: Vec<Entity> = world
            .get::<Children>(drawing)
            .map(|c| c.iter().filter(|&c| world.get::<Slot>(c).is_some()).collect())
            .unwrap_or_default();
        for child in old {
            world.despawn(child);
        }
        let size = drawn_size(world.get::<Sprite>(drawing));
        let assets = world.resource::<AssetServer>().clone();
        let dot = world.resource::<Dot>().0.clone();
        let mut children = Vec::new();
        let n = want.marks.len();
        for (i, (word, path)) in want.marks.iter().enumerate() {
            let slot = Slot { i, n, pip: false };
            let (side, at) = slot.fit(size);
            let sprite = Sprite { image: assets.load(path.clone()), custom_size: Some(side), ..default() };
            let piece =
                (MarkIcon(word.clone()), slot, sprite, Transform::from_translation(at), Pickable::IGNORE);
            children.push(world.spawn(piece).id());
        }
        if let Some(p) = want.pips {
            let n = p.of.min(6) as usize;
            for i in 0..n {
                let lit = (i as u32) < p.full;
                let slot = Slot { i, n, pip: true };
                let (side, at) = slot.fit(size);
                let colour = if lit { LIT } else { SPENT };
                let sprite =
                    Sprite { image: dot.clone(), custom_size: Some(side), color: colour, ..default() };
                let piece = (Pip(lit), slot, sprite, Transform::from_translation(at), Pickable::IGNORE);
                children.push(world.spawn(piece).id());
            }
        }
        world.entity_mut(drawing).add_children(&children).insert(want);
    }
}

/// Places the marks and pips again on a token drawn at a new size.
fn refit(
    tokens: Query<(&Sprite, &Children), (With<Token>, Changed<Sprite>)>,
    mut pieces: Query<(&Slot, &mut Sprite, &mut Transform), Without<Token>>,
) {
    for (token, children) in &tokens {
        let size = drawn_size(Some(token));
        for &child in children {
            if let Ok((slot, mut sprite, mut at)) = pieces.get_mut(child) {
                let (side, place) = slot.fit(size);
                if sprite.custom_size != Some(side) {
                    sprite.custom_size = Some(side);
                }
                if at.translation != place {
                    at.translation = place;
                }
            }
        }
    }
}
