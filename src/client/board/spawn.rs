//! A drawing for each location, combatant and mount, spawned when the rules add it and gone
//! with it; a click on one selects it.

use bevy::prelude::*;
use bevy::sprite::Anchor;
use bevy::text::{Justify, TextBounds, TextLayout};
use fray_core::location::{Location, OpenField};
use fray_core::prelude::{Combatant, Mount, SideIndex};

use super::pieces::{
    BOARD_TEXT, CAPTION, CAPTION_GAP, CARD_HEADER, CARD_TEXT, Card, CardBadge, CardInfo, CardName, CardRect,
    CardTint, FREE_MOUNT, Initials, MountLabel, MountToken, Selection, TOKEN, Token, TokenCaption, card_rect,
    text,
};

/// Clicking a token selects its combatant; clicking a card selects its location.
pub(super) fn select(
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

pub(super) fn spawn_card(
    add: On<Add, Location>,
    locations: Query<(&Location, Has<OpenField>)>,
    mut commands: Commands,
) {
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
            CardRect(card_rect(location, size.y)),
            Sprite::from_color(Color::srgb(0.78, 0.72, 0.58), size),
            Anchor::CENTER,
            Transform::from_translation(at.extend(0.0)),
            Pickable::default(),
        ))
        .with_children(|card| {
            card.spawn((
                CardName,
                text(
                    location.name.clone(),
                    (size.x / (location.name.chars().count() as f32 * 0.62)).clamp(BOARD_TEXT, 22.0),
                    Color::BLACK,
                ),
                Transform::from_xyz(0.0, size.y / 2.0 - 16.0, 0.1),
            ));
            card.spawn((
                CardInfo(add.entity),
                text("", CARD_TEXT, Color::srgb(0.15, 0.12, 0.08)),
                TextBounds::new_horizontal(size.x - 12.0),
                Anchor::TOP_CENTER,
                Transform::from_xyz(0.0, size.y / 2.0 - CARD_HEADER, 0.1),
            ));
            card.spawn((
                CardTint,
                crate::client::audience::Audience::Gm,
                Sprite::from_color(Color::NONE, size),
                Anchor::CENTER,
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

pub(super) fn spawn_token(
    add: On<Add, Combatant>,
    combatants: Query<(&Combatant, &SideIndex)>,
    mut commands: Commands,
) {
    let Ok((combatant, side)) = combatants.get(add.entity) else {
        return;
    };
    let [r, g, b] =
        crate::client::theme::SIDE_COLOURS[side.0 as usize % crate::client::theme::SIDE_COLOURS.len()];
    let colour = Color::srgb(r, g, b);
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
            crate::client::motion::Goal::default(),
            Sprite::from_color(colour, Vec2::splat(TOKEN)),
            Transform::from_xyz(0.0, 0.0, 2.0),
            Pickable::default(),
        ))
        .with_children(|token| {
            token.spawn((
                Initials,
                text(initials, 20.0, Color::WHITE),
                Transform::from_xyz(0.0, 0.0, 0.1),
                Pickable::IGNORE,
            ));
            token.spawn((
                TokenCaption(add.entity),
                text("", CAPTION, Color::WHITE),
                TextBounds::UNBOUNDED,
                TextLayout::justify(Justify::Center),
                Anchor::TOP_CENTER,
                Transform::from_xyz(0.0, -TOKEN / 2.0 - CAPTION_GAP, 0.1),
                Pickable::IGNORE,
            ));
        });
}

pub(super) fn spawn_mount_token(add: On<Add, Mount>, mounts: Query<&Mount>, mut commands: Commands) {
    let Ok(mount) = mounts.get(add.entity) else {
        return;
    };
    commands
        .spawn((
            MountToken(add.entity),
            crate::client::motion::Goal::default(),
            Sprite::from_color(Color::srgb(0.45, 0.32, 0.18), FREE_MOUNT),
            Transform::from_xyz(0.0, 0.0, 1.5),
            Pickable::default(),
        ))
        .with_children(|m| {
            m.spawn((
                MountLabel,
                text(mount.name.clone(), CAPTION, Color::WHITE),
                Transform::from_xyz(0.0, 0.0, 0.1),
                Pickable::IGNORE,
            ));
        });
}

/// Removes drawings of table objects that are gone (picked-up caltrops, a reset table).
pub(super) fn despawn_orphans(
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
