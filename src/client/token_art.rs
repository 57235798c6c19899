//! How a token looks without art of its own: a disc in its side's colour with its side's
//! pattern round the rim (plain, double, dashed, dotted: sides differ by more than colour),
//! its initials, and a ring for its state: wounded, unconscious, dead, fled, or hidden from
//! the table (that one for the GM's eyes only, as the table does not draw the token).

use bevy::asset::RenderAssetUsages;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use fray_core::log::{GameLog, LogEvent};
use fray_core::prelude::{Combatant, SideIndex, Status};

use super::audience::HiddenFromTable;
use super::board::pieces::{Token, table_key};
use super::order::Step;

/// The side of the drawn textures, in pixels.
const SIZE: u32 = 128;
/// The ring's size against its token's.
const RING: f32 = 1.3;

/// The discs, one per side pattern, and the ring.
#[derive(Resource)]
struct Art {
    discs: [Handle<Image>; 4],
    ring: Handle<Image>,
}

impl FromWorld for Art {
    fn from_world(world: &mut World) -> Self {
        let mut images = world.resource_mut::<Assets<Image>>();
        let discs = [0, 1, 2, 3].map(|pattern| images.add(texture(|d, angle| disc(pattern, d, angle))));
        let ring = images.add(texture(|d, _| ring(d)));
        Art { discs, ring }
    }
}

/// Who has taken damage: the log read so far (read anew for a new or rebuilt table).
#[derive(Default)]
struct Hurt {
    who: std::collections::HashSet<fray_core::ids::CombatantId>,
    read: usize,
    table: u32,
}

impl Hurt {
    /// Reads the entries not read yet; `table` is the table index's change tick.
    fn read(&mut self, entries: &[fray_core::log::LogEntry], table: u32) {
        if table != self.table || entries.len() < self.read {
            *self = Hurt { table, ..default() };
        }
        let new = &entries[self.read..];
        let hit = new.iter().filter(|e| matches!(e.event, LogEvent::Damage { taken, .. } if taken > 0));
        self.who.extend(hit.filter_map(|e| e.actor.clone()));
        self.read = entries.len();
    }
}

/// The ring round a token, coloured by its state.
#[derive(Component)]
struct StateRing;

/// A token already given its disc and ring, with its side's colour.
#[derive(Component)]
struct Dressed(Color);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Art>()
        .add_systems(Update, (dress_tokens, colour_rings).chain().in_set(Step::TokenArt));
}

/// A square RGBA texture whose grey level and coverage at each pixel `shade(distance, angle)`
/// gives, the distance from the centre in radii.
fn texture(shade: impl Fn(f32, f32) -> (f32, f32)) -> Image {
    let mut data = Vec::with_capacity((SIZE * SIZE * 4) as usize);
    let half = SIZE as f32 / 2.0;
    for y in 0..SIZE {
        for x in 0..SIZE {
            let p = Vec2::new(x as f32 + 0.5 - half, y as f32 + 0.5 - half) / half;
            let (grey, cover) = shade(p.length(), p.y.atan2(p.x));
            let grey = (grey.clamp(0.0, 1.0) * 255.0) as u8;
            data.extend([grey, grey, grey, (cover.clamp(0.0, 1.0) * 255.0) as u8]);
        }
    }
    let size = Extent3d { width: SIZE, height: SIZE, depth_or_array_layers: 1 };
    Image::new(size, TextureDimension::D2, data, TextureFormat::Rgba8UnormSrgb, RenderAssetUsages::default())
}

/// How much of a pixel at `d` radii an edge at `edge` radii covers (smoothed over a pixel).
fn inside(d: f32, edge: f32) -> f32 {
    ((edge - d) * SIZE as f32 / 2.0 + 0.5).clamp(0.0, 1.0)
}

/// A disc, white inside (the sprite's colour tints it), a dark outline, and the side's
/// pattern in a band round the rim.
fn disc(pattern: u8, d: f32, angle: f32) -> (f32, f32) {
    let dark = 0.45;
    let band = (0.78..0.93).contains(&d);
    let grey = if d > 0.95 {
        0.3
    } else if !band {
        1.0
    } else {
        let turn = angle / std::f32::consts::TAU + 0.5;
        let marked = match pattern {
            0 => false,
            1 => (0.80..0.84).contains(&d) || (0.87..0.91).contains(&d),
            2 => (turn * 12.0).floor() as i32 % 2 == 0,
            _ => {
                // Ten dots round the band.
                let along = ((turn * 10.0).fract() - 0.5) * std::f32::consts::TAU / 10.0 * 0.855;
                along.hypot(d - 0.855) < 0.06
            }
        };
        if marked { dark } else { 1.0 }
    };
    (grey, inside(d, 1.0))
}

/// A white ring in the outer part of the texture.
fn ring(d: f32) -> (f32, f32) {
    (1.0, inside(d, 1.0) * (1.0 - inside(d, 0.74)))
}

/// Gives each new token its side's disc and an empty ring behind it.
fn dress_tokens(
    art: Res<Art>,
    mut commands: Commands,
    mut tokens: Query<(Entity, &Token, &mut Sprite), Without<Dressed>>,
    sides: Query<&SideIndex>,
) {
    for (drawing, token, mut sprite) in &mut tokens {
        let side = sides.get(token.0).map_or(0, |s| s.0 as usize);
        sprite.image = art.discs[side % art.discs.len()].clone();
        commands.entity(drawing).insert(Dressed(sprite.color.with_alpha(1.0))).with_child((
            StateRing,
            Sprite { image: art.ring.clone(), ..default() },
            Transform::from_xyz(0.0, 0.0, -0.05),
            Visibility::Hidden,
            Pickable::IGNORE,
        ));
    }
}

/// The ring's colour for a combatant's state, if it shows one; `hurt`: it has taken damage.
fn state_colour(status: Status, hurt: bool, hidden: bool) -> Option<Color> {
    match status {
        Status::Dead => Some(Color::srgb(0.55, 0.06, 0.06)),
        Status::Unconscious => Some(Color::srgb(0.62, 0.70, 0.92)),
        Status::Fled => Some(Color::srgb(0.55, 0.55, 0.55)),
        Status::Surrendered => Some(Color::srgb(0.96, 0.96, 0.90)),
        Status::Fighting if hidden => Some(Color::srgb(0.55, 0.90, 1.0)),
        Status::Fighting if hurt => Some(Color::srgb(1.0, 0.58, 0.10)),
        Status::Fighting => None,
    }
}

/// Colours each ring by its combatant's state (rewritten when the log or the hidden set
/// changes), sizes it to its token, and darkens the disc of the dead.
fn colour_rings(
    world: &mut World,
    mut seen: Local<Option<(super::board::pieces::TableKey, usize)>>,
    mut hurt: Local<Hurt>,
) {
    let mut rings = world.query_filtered::<(Entity, &ChildOf), With<StateRing>>();
    let hidden = world.resource::<HiddenFromTable>().0.len();
    let key = table_key(world, rings.iter(world).count());
    if *seen == Some((key, hidden)) {
        return;
    }
    *seen = Some((key, hidden));
    hurt.read(world.resource::<GameLog>().entries(), key.1);
    let hurt = &hurt.who;
    let all: Vec<(Entity, Entity)> = rings.iter(world).map(|(r, p)| (r, p.parent())).collect();
    for (ring, drawing) in all {
        let Some(token) = world.get::<Token>(drawing).map(|t| t.0) else { continue };
        let Some(combatant) = world.get::<Combatant>(token) else { continue };
        let status = world.get::<Status>(token).copied().unwrap_or_default();
        let hidden = world.resource::<HiddenFromTable>().0.contains(&combatant.id);
        let colour = state_colour(status, hurt.contains(&combatant.id), hidden);
        let size = world.get::<Sprite>(drawing).and_then(|s| s.custom_size).unwrap_or(Vec2::ZERO) * RING;
        let side = world.get::<Dressed>(drawing).map_or(Color::WHITE, |d| d.0).to_srgba();
        if let Some(mut disc) = world.get_mut::<Sprite>(drawing) {
            // The dead's disc goes dark; its alpha (hidden from the table) is left alone.
            let shade = if status == Status::Dead { 0.45 } else { 1.0 };
            let want =
                Color::srgba(side.red * shade, side.green * shade, side.blue * shade, disc.color.alpha());
            if disc.color != want {
                disc.color = want;
            }
        }
        if let Some(mut sprite) = world.get_mut::<Sprite>(ring) {
            sprite.custom_size = Some(size);
            sprite.color = colour.unwrap_or(Color::NONE);
        }
        if let Some(mut shown) = world.get_mut::<Visibility>(ring) {
            *shown = if colour.is_some() { Visibility::Inherited } else { Visibility::Hidden };
        }
    }
}
