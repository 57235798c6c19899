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
/// (then in the field's ink); at its foot where none is. A badge that would stand past the
/// board's edge (under the lowest card) moves to a free spot on the board, clear of the other
/// badges too, where there is one: past the edge the screen's edge may cut it.
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
    let mut placed: Vec<Placed> = Vec::new();
    for (rect, card_at, children) in &cards {
        for &part in children {
            let Ok((.., layout, text)) = badges.get(part) else { continue };
            if text.0.is_empty() || layout.size == Vec2::ZERO {
                continue;
            }
            let half = layout.size / 2.0;
            let (at, on_card) = badge_spot(rect.0, half, (&taken, &segments));
            placed.push(Placed { badge: part, card: rect.0, card_at: *card_at, half, at, on_card });
        }
    }
    // The board as the camera frames it: its cards, words and tokens.
    let board = cards.iter().map(|(rect, ..)| rect.0).chain(taken.iter().copied()).reduce(|a, b| a.union(b));
    if let Some(board) = board {
        onto_the_board(&mut placed, board, &taken, &segments);
    }
    for p in placed {
        let Ok((mut transform, mut ink, ..)) = badges.get_mut(p.badge) else { continue };
        let wanted = if p.on_card { palette.card_ink } else { palette.ink };
        if ink.0 != wanted {
            ink.0 = wanted;
        }
        let local = p.card_at.affine().inverse().transform_point3(p.at.extend(0.0)).truncate();
        if transform.translation.truncate() != local {
            transform.translation = local.extend(transform.translation.z);
        }
    }
}

/// A badge's place by its card.
struct Placed {
    badge: Entity,
    card: Rect,
    card_at: GlobalTransform,
    half: Vec2,
    at: Vec2,
    on_card: bool,
}

/// Moves each badge that stands past the `board`'s edge to the first spot by its card that is
/// on the board and free of `taken`, the arrows' `segments` and every other badge, else to
/// the first only an arrow crosses (read over a line rather than cut), if one is.
fn onto_the_board(placed: &mut [Placed], board: Rect, taken: &[Rect], segments: &[(Vec2, Vec2)]) {
    let on_board = |at: Vec2, half: Vec2| board.contains(at - half) && board.contains(at + half);
    for i in 0..placed.len() {
        let Placed { card, half, at, .. } = placed[i];
        if on_board(at, half) {
            continue;
        }
        let others = placed.iter().enumerate().filter(|&(j, _)| j != i);
        let mut around: Vec<Rect> = others.map(|(_, p)| Rect::from_center_half_size(p.at, p.half)).collect();
        around.extend_from_slice(taken);
        let spots = badge_spots(card, half);
        let first = |free: [bool; 11]| (0..spots.len()).find(|&k| free[k] && on_board(spots[k], half));
        let free = first(free_spots(&spots, half, (&around, segments)));
        if let Some(k) = free.or_else(|| first(free_spots(&spots, half, (&around, &[])))) {
            placed[i].at = spots[k];
            placed[i].on_card = k < ON_CARD;
        }
    }
}

/// Where a badge `half` its size stands by a card `card`, clear of every rectangle `taken`
/// by a gap (so "2 moves" never reads on from a caption) and of the arrows' `segments`, and
/// whether that is on the card.
fn badge_spot(card: Rect, half: Vec2, (taken, segments): (&[Rect], &[(Vec2, Vec2)])) -> (Vec2, bool) {
    let spots = badge_spots(card, half);
    let free = free_spots(&spots, half, (taken, segments));
    let i = free.iter().position(|&f| f).unwrap_or(0);
    (spots[i], i < ON_CARD)
}

/// Which of `spots` a badge `half` its size may stand at, clear of `taken` by a gap and of
/// the arrows' `segments`.
fn free_spots(spots: &[Vec2; 11], half: Vec2, (taken, segments): (&[Rect], &[(Vec2, Vec2)])) -> [bool; 11] {
    let apart = half + Vec2::new(10.0, 3.0);
    spots.map(|at| {
        let mine = Rect::from_center_half_size(at, apart);
        !taken.iter().any(|r| !r.intersect(mine).is_empty())
            && !segments.iter().any(|&(p, q)| super::arrows::segment_hits(p, q, mine))
    })
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

    use super::{Placed, badge_spot, onto_the_board};

    #[test]
    fn a_badge_stands_clear_of_the_cards_captions_on_the_card_if_it_can_else_beside_it() {
        let card = Rect::new(0.0, 0.0, 200.0, 160.0);
        let half = Vec2::new(40.0, 12.0);
        assert_eq!(badge_spot(card, half, (&[], &[])), (Vec2::new(100.0, 16.0), true), "the foot's middle");
        // A caption across the foot's middle and left: the foot's right, a gap from it.
        let caption = Rect::new(20.0, 4.0, 90.0, 40.0);
        assert_eq!(
            badge_spot(card, half, (&[caption], &[])),
            (Vec2::new(154.0, 16.0), true),
            "the foot's right"
        );
        // Captions along the whole foot and words along the top: just under the card.
        let foot = Rect::new(0.0, 0.0, 200.0, 40.0);
        let top = Rect::new(0.0, 120.0, 200.0, 160.0);
        let (at, on_card) = badge_spot(card, half, (&[foot, top], &[]));
        assert!(!on_card && at.y < 0.0, "under the card: {at}");
        // An arrow leaving the card's foot downwards: beside it.
        let arrow = [(Vec2::new(100.0, 0.0), Vec2::new(100.0, -200.0))];
        let (beside, _) = badge_spot(card, half, (&[foot, top], &arrow));
        assert!(
            beside.y < 0.0 && (beside.x - 100.0).abs() > half.x,
            "under the card, off the arrow: {beside}"
        );
        // Nowhere free: the foot's middle.
        let everywhere = Rect::new(-500.0, -500.0, 500.0, 500.0);
        assert_eq!(badge_spot(card, half, (&[everywhere], &[])), (Vec2::new(100.0, 16.0), true));
    }

    #[test]
    fn a_badge_past_the_boards_edge_moves_onto_the_board_clear_of_the_other_badges() {
        // The lowest card of a board, its foot and its top corners full: just under it is past
        // the board's edge, so it stands over the card.
        let card = Rect::new(0.0, 0.0, 200.0, 160.0);
        let half = Vec2::new(40.0, 12.0);
        let board = Rect::new(-300.0, 0.0, 500.0, 600.0);
        let words = [Rect::new(0.0, 0.0, 200.0, 40.0), Rect::new(0.0, 120.0, 200.0, 160.0)];
        let (at, on_card) = badge_spot(card, half, (&words, &[]));
        assert!(!on_card && at.y < 0.0, "first under the card: {at}");
        let badge = |at: Vec2| Placed {
            badge: Entity::PLACEHOLDER,
            card,
            card_at: GlobalTransform::IDENTITY,
            half,
            at,
            on_card: false,
        };
        let mut placed = [badge(at)];
        onto_the_board(&mut placed, board, &words, &[]);
        assert!(placed[0].at.y > 160.0 && board.contains(placed[0].at + half), "over it: {}", placed[0].at);
        // Over it stands the badge of the card above (its own, under that card): this one
        // stays where it was rather than cover it.
        let above = Vec2::new(100.0, 180.0);
        let mut placed = [badge(at), badge(above)];
        placed[1].card = Rect::new(0.0, 200.0, 200.0, 360.0);
        onto_the_board(&mut placed, board, &words, &[]);
        assert_eq!((placed[0].at, placed[1].at), (at, above), "neither moved");
    }

    #[test]
    fn a_badge_past_the_boards_edge_with_arrows_on_every_free_spot_stands_over_an_arrow() {
        // The top card of a board, full of words: over it is past the board's edge, and an
        // arrow leaves its foot across every spot under it.
        let card = Rect::new(0.0, 0.0, 200.0, 160.0);
        let half = Vec2::new(40.0, 12.0);
        let board = Rect::new(-300.0, -400.0, 500.0, 160.0);
        let words = [card];
        let arrow = [(Vec2::new(-20.0, -20.0), Vec2::new(220.0, -20.0))];
        let over = Vec2::new(100.0, 178.0);
        let mut placed = [Placed {
            badge: Entity::PLACEHOLDER,
            card,
            card_at: GlobalTransform::IDENTITY,
            half,
            at: over,
            on_card: false,
        }];
        onto_the_board(&mut placed, board, &words, &arrow);
        let at = placed[0].at;
        assert!(at.y < 0.0 && board.contains(at - half) && board.contains(at + half), "under the card: {at}");
    }
}
