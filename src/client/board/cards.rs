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
    arrows: Res<super::arrows::ArrowPaths>,
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
    let segments: Vec<(Vec2, Vec2)> = arrows.segments().collect();
    // The board as the camera frames it: its cards, words and tokens.
    let board = cards.iter().map(|(rect, ..)| rect.0).chain(taken.iter().copied()).reduce(|a, b| a.union(b));
    let Some(board) = board else { return };
    for (rect, card_at, children) in &cards {
        for &part in children {
            let Ok((mut transform, mut ink, layout, text)) = badges.get_mut(part) else { continue };
            if text.0.is_empty() || layout.size == Vec2::ZERO {
                continue;
            }
            let (at, on_card) = badge_spot(rect.0, layout.size / 2.0, board, (&taken, &segments));
            let wanted = if on_card { palette.card_ink } else { palette.ink };
            if ink.0 != wanted {
                ink.0 = wanted;
            }
            let local = card_at.affine().inverse().transform_point3(at.extend(0.0)).truncate();
            if transform.translation.truncate() != local {
                transform.translation = local.extend(transform.translation.z);
            }
        }
    }
}

/// Where a badge `half` its size stands by a card `card`, clear of every rectangle `taken`
/// by a gap (so "2 moves" never reads on from a caption) and of the arrows' `segments`, and
/// whether that is on the card. Off the card, a spot within the `board` (what the camera
/// frames) comes first: one past the board's edge may be cut by the screen's.
fn badge_spot(
    card: Rect,
    half: Vec2,
    board: Rect,
    (taken, segments): (&[Rect], &[(Vec2, Vec2)]),
) -> (Vec2, bool) {
    let apart = half + Vec2::new(10.0, 3.0);
    let free = |at: &Vec2| {
        let mine = Rect::from_center_half_size(*at, apart);
        !taken.iter().any(|r| !r.intersect(mine).is_empty())
            && !segments.iter().any(|&(p, q)| super::arrows::segment_hits(p, q, mine))
    };
    let on_board = |at: &Vec2| board.contains(*at - half) && board.contains(*at + half);
    let spots = badge_spots(card, half);
    let i = spots
        .iter()
        .position(|at| free(at) && on_board(at))
        .or_else(|| spots.iter().position(free))
        .unwrap_or(0);
    (spots[i], i < ON_CARD)
}

/// How many of [`badge_spots`] lie on the card.
const ON_CARD: usize = 5;

/// Where a badge (`half` its size) may stand on or by a card `card`, best first: the foot's
/// middle, its left and right, the top corners, then just under the card (its middle, left,
/// right) and just over it.
fn badge_spots(card: Rect, half: Vec2) -> [Vec2; 11] {
    let (pad, centre) = (Vec2::new(6.0, 4.0), card.center().x);
    let foot = card.min.y + half.y + pad.y;
    let head = card.max.y - half.y - pad.y;
    let (left, right) = (card.min.x + half.x + pad.x, card.max.x - half.x - pad.x);
    // Off the card, a little further than the gap kept from its words.
    let (under, over) = (card.min.y - half.y - 6.0, card.max.y + half.y + 6.0);
    [
        Vec2::new(centre, foot),
        Vec2::new(left, foot),
        Vec2::new(right, foot),
        Vec2::new(right, head),
        Vec2::new(left, head),
        Vec2::new(centre, under),
        Vec2::new(left, under),
        Vec2::new(right, under),
        Vec2::new(centre, over),
        Vec2::new(left, over),
        Vec2::new(right, over),
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

#[cfg(test)]
mod tests {
    use bevy::prelude::*;

    use super::badge_spot;

    #[test]
    fn a_badge_stands_clear_of_the_cards_captions_on_the_card_if_it_can_else_beside_it() {
        let card = Rect::new(0.0, 0.0, 200.0, 160.0);
        let half = Vec2::new(40.0, 12.0);
        // A board reaching well past the card on every side.
        let board = Rect::new(-400.0, -400.0, 600.0, 600.0);
        assert_eq!(
            badge_spot(card, half, board, (&[], &[])),
            (Vec2::new(100.0, 16.0), true),
            "the foot's middle"
        );
        // A caption across the foot's middle and left: the foot's right, a gap from it.
        let caption = Rect::new(20.0, 4.0, 90.0, 40.0);
        assert_eq!(
            badge_spot(card, half, board, (&[caption], &[])),
            (Vec2::new(154.0, 16.0), true),
            "the foot's right"
        );
        // Captions along the whole foot and words along the top: just under the card.
        let foot = Rect::new(0.0, 0.0, 200.0, 40.0);
        let top = Rect::new(0.0, 120.0, 200.0, 160.0);
        let (at, on_card) = badge_spot(card, half, board, (&[foot, top], &[]));
        assert!(!on_card && at.y < 0.0, "under the card: {at}");
        // An arrow leaving the card's foot downwards: beside it.
        let arrow = [(Vec2::new(100.0, 0.0), Vec2::new(100.0, -200.0))];
        let (beside, _) = badge_spot(card, half, board, (&[foot, top], &arrow));
        assert!(
            beside.y < 0.0 && (beside.x - 100.0).abs() > half.x,
            "under the card, off the arrow: {beside}"
        );
        // Nowhere free: the foot's middle.
        let everywhere = Rect::new(-500.0, -500.0, 500.0, 500.0);
        assert_eq!(badge_spot(card, half, board, (&[everywhere], &[])), (Vec2::new(100.0, 16.0), true));
    }

    #[test]
    fn a_badge_off_a_card_at_the_boards_foot_stands_over_it_not_past_the_boards_edge() {
        // The lowest card of the board, its foot and its top corners full: just under it would
        // be past the board's edge, so over it.
        let card = Rect::new(0.0, 0.0, 200.0, 160.0);
        let half = Vec2::new(40.0, 12.0);
        let board = Rect::new(-300.0, 0.0, 500.0, 600.0);
        let foot = Rect::new(0.0, 0.0, 200.0, 40.0);
        let top = Rect::new(0.0, 120.0, 200.0, 160.0);
        let (at, on_card) = badge_spot(card, half, board, (&[foot, top], &[]));
        assert!(!on_card && at.y > 160.0 && board.contains(at - half), "over the card: {at}");
        // With nothing free on the board: under it all the same, rather than over a word.
        let above = Rect::new(-300.0, 160.0, 500.0, 600.0);
        let (at, _) = badge_spot(card, half, board, (&[foot, top, above], &[]));
        assert!(at.y < 0.0, "under the card: {at}");
    }
}
