//! Each card drawn at its [`CardRect`](super::pieces::CardRect), and its text: what entering
//! costs, where it is entered from, the ruleset's notes.

use bevy::prelude::*;
use bevy::sprite::Anchor;
use fray_core::fight::ruleset;
use fray_core::location::{EnteredFrom, Location};

use super::pieces::{Card, CardBadge, CardInfo, CardRect, TableKey, table_key};

/// Draws each card at its [`CardRect`]: the card and the GM's tint over it grow downwards
/// from the location's own rectangle, the drop badge stays at the bottom.
pub(super) fn size_cards(
    cards: Query<(Entity, &Card, &CardRect, &Children), Changed<CardRect>>,
    locations: Query<&Location>,
    mut sprites: Query<(&mut Sprite, &mut Anchor)>,
    mut badges: Query<&mut Transform, With<CardBadge>>,
) {
    for (drawing, card, rect, children) in &cards {
        let Ok(location) = locations.get(card.0) else { continue };
        let own = Vec2::from(location.size);
        let size = rect.0.size();
        // The location's centre stays where it is: the anchor moves up the grown card.
        let anchor = Anchor(Vec2::new(0.0, 0.5 - own.y / 2.0 / size.y.max(1.0)));
        for part in std::iter::once(drawing).chain(children.iter()) {
            if let Ok((mut sprite, mut at)) = sprites.get_mut(part) {
                sprite.custom_size = Some(size);
                *at = anchor;
            }
            if let Ok(mut badge) = badges.get_mut(part) {
                badge.translation.y = own.y / 2.0 - size.y + 18.0;
            }
        }
    }
}

/// Each card's cost to enter, where it is entered from, and the ruleset's notes.
pub(super) fn write_card_info(
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

fn card_info(world: &World, rules: &dyn fray_core::ruleset::AnyRuleset, place: Entity) -> Option<String> {
    let from = world.get::<EnteredFrom>(place)?;
    let sources: Vec<String> = from.0.iter().map(|&f| fray_core::location::place_name(world, f)).collect();
    let sources = if sources.is_empty() { "nowhere".to_owned() } else { sources.join(" / ") };
    let card = rules.view().card(world, place);
    let mut lines = vec![match card.cost {
        Some(cost) => format!("{cost}, from {sources}"),
        None => format!("from {sources}"),
    }];
    if !card.notes.is_empty() {
        lines.push(card.notes.join(", "));
    }
    Some(lines.join("\n"))
}
