//! Secret choices on the GM's window, for any ruleset (Fiend Wake's bids, FateWalker's
//! declarations of equal Awareness): while the choice is secret, each combatant whose choice
//! the window's seat may see (the GM: all; a player: their own) carries a magenta tag with it
//! across its token (the table learns it at the reveal). The colour is one nothing else on
//! the board uses, so a check can look for it in both windows' pictures.

use bevy::prelude::*;
use fray_core::prelude::TableIndex;

use super::super::audience::{Audience, Seen, layers};
use crate::client::board::pieces::Token;

/// The tag's colour: pure magenta, used by nothing else on the board.
pub const SEALED: Color = Color::srgb(1.0, 0.0, 1.0);

/// The tag across a token, with the words it shows.
#[derive(Component)]
struct SecretTag(String);

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, show_secret_tags.in_set(crate::client::order::Step::SecretTags));
}

/// Adds, rewrites or removes each token's tag as secret choices are made and revealed, when
/// the rules changed something (logged) or there are new tokens to tag.
fn show_secret_tags(world: &mut World, mut seen: Local<Option<(usize, u32)>>) {
    let mut tokens = world.query::<(Entity, &Token, Option<&Children>)>();
    let views = world.get_resource_change_ticks::<Seen>().map_or(0, |t| t.changed.get());
    let key = Some((tokens.iter(world).count(), views));
    if *seen == key {
        return;
    }
    *seen = key;
    let index = world.resource::<TableIndex>();
    let sealed: Vec<(Entity, String)> = world
        .resource::<Seen>()
        .main
        .as_ref()
        .and_then(|v| v.secret.as_ref())
        .map(|s| {
            let mine = s.chosen.iter().filter_map(|c| Some((index.combatant(&c.who)?, c.choice.clone()?)));
            mine.collect()
        })
        .unwrap_or_default();
    let drawn: Vec<(Entity, Entity, Option<Entity>)> = tokens
        .iter(world)
        .map(|(drawing, token, children)| {
            let tag = children.and_then(|kids| kids.iter().find(|&k| world.get::<SecretTag>(k).is_some()));
            (drawing, token.0, tag)
        })
        .collect();
    for (drawing, owner, tag) in drawn {
        let words = sealed.iter().find(|(e, _)| *e == owner).map(|(_, w)| w.clone());
        match (words, tag) {
            (Some(words), None) => {
                world.entity_mut(drawing).with_child(tag_bundle(words));
            }
            (Some(words), Some(tag)) => {
                if world.get::<SecretTag>(tag).is_some_and(|t| t.0 != words) {
                    world.entity_mut(tag).insert(SecretTag(words.clone()));
                    if let Some(mut sprite) = world.get_mut::<Sprite>(tag) {
                        sprite.custom_size = Some(tag_size(&words));
                    }
                    for k in world.get::<Children>(tag).map(|c| c.to_vec()).unwrap_or_default() {
                        if let Some(mut text) = world.get_mut::<Text2d>(k) {
                            text.0 = words.clone();
                        }
                    }
                }
            }
            (None, Some(tag)) => {
                world.entity_mut(tag).despawn();
            }
            (None, None) => {}
        }
    }
}

/// A tag's size for its words.
fn tag_size(words: &str) -> Vec2 {
    Vec2::new((words.chars().count() as f32 * 9.6 + 14.0).max(56.0), 26.0)
}

fn tag_bundle(words: String) -> impl Bundle {
    (
        SecretTag(words.clone()),
        // Its layer from the first frame, not only once `audience` has looked at it.
        Audience::Gm,
        layers(Audience::Gm, true, false),
        Sprite::from_color(SEALED, tag_size(&words)),
        // Across the token's middle, a little low: clear of the counts of the stacks at its
        // top corners (a stack of one has its count lowest). A tag above the token would need
        // a taller grid row than the board's text can spare.
        Transform::from_xyz(0.0, -4.0, 4.0),
        Pickable::IGNORE,
        children![(
            Audience::Gm,
            layers(Audience::Gm, true, false),
            Text2d::new(words),
            TextFont {
                font_size: bevy::text::FontSize::Px(crate::client::board::pieces::BOARD_TEXT),
                ..default()
            },
            TextColor(Color::WHITE),
            Transform::from_xyz(0.0, 0.0, 0.1),
            Pickable::IGNORE,
        )],
    )
}
