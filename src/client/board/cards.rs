//! Each card drawn at its [`CardRect`](super::pieces::CardRect), and its text: what entering
//! costs, where it is entered from, the ruleset's notes.

use bevy::prelude::*;
use bevy::sprite::Anchor;
use fray_core::fight::ruleset;
use fray_core::location::{EnteredFrom, Location};

use super::pieces::{
    Card, CardBadge, CardInfo, CardRect, MountToken, TOKEN, TableKey, Token, table_key, text_rect,
};

/// Draws each card at its [`CardRect`]: the card and the GM's tint over it grow downwards
/// from the location's own rectangle (the badge is placed by [`place_badges`]).
pub(super) fn size_cards(
    cards: Query<(Entity, &Card, &CardRect, &Children), Changed<CardRect>>,
    locations: Query<&Location>,
    mut sprites: Query<(&mut Sprite, &mut Anchor)>,
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
        }
    }
}

/// The board's words, tokens and mounts a card's badge keeps clear of.
type Beneath<'w, 's> = Query<
    'w,
    's,
    (
        &'static GlobalTransform,
        Option<&'static bevy::text::TextLayoutInfo>,
        Option<&'static bevy::text::TextBounds>,
        Option<&'static bevy::text::TextLayout>,
        Option<&'static Anchor>,
        Option<&'static Sprite>,
        &'static InheritedVisibility,
    ),
    (Or<(With<Text2d>, With<Token>, With<MountToken>)>, Without<CardBadge>),
>;

/// Where each card's badge stands (the reach view's "2 moves", a drag's words for entering):
/// at its foot where no word or token is, else at a corner or just off an edge that is free
/// (then in the field's ink); at its foot where none is.
pub(super) fn place_badges(
    cards: Query<(&CardRect, &GlobalTransform, &Children), With<Card>>,
    mut badges: Query<
        (&mut Transform, &mut TextColor, &bevy::text::TextLayoutInfo, &Text2d),
        With<CardBadge>,
    >,
    beneath: Beneath,
    palette: Res<crate::client::theme::Palette>,
) {
    // Most of the time no card has a badge: nothing to measure.
    if badges.iter().all(|(.., text)| text.0.is_empty()) {
        return;
    }
    let taken: Vec<Rect> = beneath
        .iter()
        .filter(|(.., shown)| shown.get())
        .filter_map(|(at, layout, bounds, justify, anchor, sprite, _)| match (layout, sprite) {
            (Some(layout), _) if layout.size != Vec2::ZERO => {
                let centred = justify.is_some_and(|j| j.justify == bevy::text::Justify::Center);
                Some(text_rect(at, anchor, layout.size, bounds, centred))
            }
            (None, Some(sprite)) => {
                let side = sprite.custom_size.unwrap_or(Vec2::splat(TOKEN)) * at.scale().truncate();
                Some(Rect::from_center_size(at.translation().truncate(), side))
            }
            _ => None,
        })
        .collect();
    for (rect, card_at, children) in &cards {
        for &part in children {
            let Ok((mut transform, mut ink, layout, text)) = badges.get_mut(part) else { continue };
            if text.0.is_empty() || layout.size == Vec2::ZERO {
                continue;
            }
            let half = layout.size / 2.0;
            let spots = badge_spots(rect.0, half);
            // A word's gap from its neighbours, so "2 moves" never reads on from a caption.
            let apart = half + Vec2::new(10.0, 3.0);
            let free = |at: &Vec2| {
                !taken.iter().any(|r| !r.intersect(Rect::from_center_half_size(*at, apart)).is_empty())
            };
            let i = spots.iter().position(free).unwrap_or(0);
            let wanted = if i < ON_CARD { palette.card_ink } else { palette.ink };
            if ink.0 != wanted {
                ink.0 = wanted;
            }
            let at = spots[i];
            let local = card_at.affine().inverse().transform_point3(at.extend(0.0)).truncate();
            if transform.translation.truncate() != local {
                transform.translation = local.extend(transform.translation.z);
            }
        }
    }
}

/// How many of [`badge_spots`] lie on the card.
const ON_CARD: usize = 5;

/// Where a badge (`half` its size) may stand on or by a card `card`, best first: the foot's
/// middle, its left and right, the top corners, then just under and just over the card.
fn badge_spots(card: Rect, half: Vec2) -> [Vec2; 7] {
    let (pad, centre) = (Vec2::new(6.0, 4.0), card.center().x);
    let foot = card.min.y + half.y + pad.y;
    let head = card.max.y - half.y - pad.y;
    let (left, right) = (card.min.x + half.x + pad.x, card.max.x - half.x - pad.x);
    [
        Vec2::new(centre, foot),
        Vec2::new(left, foot),
        Vec2::new(right, foot),
        Vec2::new(right, head),
        Vec2::new(left, head),
        Vec2::new(centre, card.min.y - half.y - 2.0),
        Vec2::new(centre, card.max.y + half.y + 2.0),
    ]
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
