//! How far apart the cards are drawn ([`Spread`]): as tight as their arrows allow on a board
//! of cards, keeping its proportions on a board of free positions.

use bevy::prelude::*;

use super::pieces::{CAPTION_ROOM, NO_CARDS, Spread, TOKEN};

/// The least room kept between two cards once grown.
const CARD_GAP: f32 = 24.0;

/// The room a token standing in no card keeps clear around it (with its caption) when a
/// board of cards is drawn tight.
const PIECE: Vec2 = Vec2::new(TOKEN + 36.0, TOKEN + CAPTION_ROOM + 25.0);
/// The most room kept between two cards on a board of cards, for the arrow between them
/// (cards nearer in the scenario keep what they have there, at least [`CARD_GAP`]).
const LINK_ROOM: f32 = 110.0;
/// The shape of the screen a board of cards is drawn for: the table's, under its bar.
const WIDE: f32 = 1.9;
/// The spreads tried, across and down: a fifth to fourfold, in steps of 5%.
const STEPS: std::ops::RangeInclusive<u32> = 4..=80;
fn step(k: u32) -> f32 {
    k as f32 * 0.05
}

impl Spread {
    /// The spread for `cards` (each its scenario rectangle, grown down to its height) and the
    /// tokens standing at `pieces` in no card: on a board of cards (`compact`) the one that
    /// makes the board smallest on a [`WIDE`] screen while every two cards keep room for an
    /// arrow ([`LINK_ROOM`]) and no two pieces or piece and card come closer than [`PIECE`];
    /// else the least even spread, at least 1, at which no two cards come closer than
    /// [`CARD_GAP`]. What touches in the scenario itself is left to touch.
    pub(super) fn update(&mut self, cards: &[(Rect, f32)], pieces: &[Vec2], compact: bool) {
        let centre = cards.iter().map(|(r, _)| r.center()).sum::<Vec2>() / cards.len().max(1) as f32;
        let factor = if compact {
            let pieces = pieces.iter().map(|&p| {
                let room = Rect::from_center_size(p, PIECE);
                (room, room.height())
            });
            let all: Vec<(Rect, f32, bool)> =
                cards.iter().map(|&(r, h)| (r, h, true)).chain(pieces.map(|(r, h)| (r, h, false))).collect();
            smallest(&all, centre)
        } else {
            Vec2::splat(even(cards, centre))
        };
        let wanted = Spread { centre, factor };
        if *self != wanted {
            *self = wanted;
        }
    }
}

/// A card's rectangle drawn at spread `factor` from `centre`: its scenario rectangle `r`
/// moved, `h` tall from its top.
fn drawn_card(r: Rect, h: f32, centre: Vec2, factor: Vec2) -> Rect {
    let c = centre + (r.center() - centre) * factor;
    let top = c.y + r.height() / 2.0;
    Rect::new(c.x - r.width() / 2.0, top - h, c.x + r.width() / 2.0, top)
}

/// The least even spread (at least 1, at most 4) at which no two cards come closer than
/// [`CARD_GAP`].
fn even(cards: &[(Rect, f32)], centre: Vec2) -> f32 {
    let apart = |factor: f32| {
        let drawn: Vec<Rect> =
            cards.iter().map(|&(r, h)| drawn_card(r, h, centre, Vec2::splat(factor))).collect();
        (0..drawn.len()).all(|i| {
            (i + 1..drawn.len())
                .all(|j| near(cards[i].0, cards[j].0, 0.0) || !near(drawn[i], drawn[j], CARD_GAP))
        })
    };
    STEPS.map(step).filter(|&f| f >= 1.0).find(|&f| apart(f)).unwrap_or(4.0)
}

/// The spread, across and down, that draws the board smallest on a [`WIDE`] screen with room
/// for an arrow between every two cards (`true`), each a rectangle grown down to its height,
/// and pieces (`false`) clear of each other and of the cards. Two are clear of each other once
/// far enough apart across or down: each pair needs a spread across, or one down, of at
/// least its threshold.
fn smallest(drawn: &[(Rect, f32, bool)], centre: Vec2) -> Vec2 {
    let no_cards = !drawn.iter().any(|d| d.2);
    let mut pairs: Vec<(f32, f32)> = Vec::new();
    for (i, &(a, ha, card_a)) in drawn.iter().enumerate() {
        for &(b, hb, card_b) in &drawn[i + 1..] {
            // Two cards keep the room they have in the scenario, up to [`LINK_ROOM`]; cards
            // that touch there come no closer than they are, nor (on a board with no card at
            // all) do pieces; else pieces that touch are left to (a rider at its mount's place,
            // a piece on a card is moved clear of it later).
            let apart =
                (a.min.x - b.max.x).max(b.min.x - a.max.x).max(a.min.y - b.max.y).max(b.min.y - a.max.y);
            let room = if card_a && card_b { apart.clamp(CARD_GAP, LINK_ROOM) } else { 0.0 };
            let apart_pieces = no_cards && a.center().distance(b.center()) >= 1.0;
            let (room, most) = match (near(a, b, 0.0), card_a, card_b) {
                (false, ..) => (room, f32::MAX),
                (true, true, true) => (0.0, 1.0),
                (true, false, false) if apart_pieces => (0.0, 1.0),
                (true, ..) => continue,
            };
            let dx = (a.center().x - b.center().x).abs();
            let across = ((a.width() + b.width()) / 2.0 + room) / dx.max(1e-3);
            // The upper one's grown bottom over the lower one's top.
            let ((up, hu), low) = if a.center().y >= b.center().y { ((a, ha), b) } else { ((b, hb), a) };
            let dy = up.center().y - low.center().y;
            let down = (hu - up.height() / 2.0 + low.height() / 2.0 + room) / dy.max(1e-3);
            pairs.push((across.min(most), down.min(most)));
        }
    }
    let size = |factor: Vec2| {
        let board = drawn
            .iter()
            .map(|&(r, h, _)| drawn_card(r, h, centre, factor))
            .reduce(|a, b| a.union(b))
            .unwrap_or(NO_CARDS);
        (board.width() / WIDE).max(board.height())
    };
    // For each spread across, the least down that clears every pair not cleared across.
    let tried: Vec<(f32, Vec2)> = STEPS
        .map(step)
        .filter_map(|fx| {
            let need = pairs.iter().filter(|p| p.0 > fx + 1e-4).map(|p| p.1).fold(0.0, f32::max);
            let fy = STEPS.map(step).find(|&f| f >= need - 1e-4)?;
            Some((size(Vec2::new(fx, fy)), Vec2::new(fx, fy)))
        })
        .collect();
    // Of the spreads within 2% of the smallest, the one nearest the scenario's proportions.
    let least = tried.iter().map(|t| t.0).fold(f32::MAX, f32::min);
    tried
        .iter()
        .filter(|t| t.0 <= least * 1.02)
        .min_by(|a, b| (a.1.x - a.1.y).abs().total_cmp(&(b.1.x - b.1.y).abs()))
        .map_or(Vec2::ONE, |t| t.1)
}

/// Whether two rectangles come closer than `gap`.
fn near(a: Rect, b: Rect, gap: f32) -> bool {
    a.min.x < b.max.x + gap && b.min.x < a.max.x + gap && a.min.y < b.max.y + gap && b.min.y < a.max.y + gap
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A card of `w` by `h` centred at (`x`, `y`), drawn `h` tall.
    fn card(x: f32, y: f32, w: f32, h: f32) -> (Rect, f32) {
        (Rect::from_center_size(Vec2::new(x, y), Vec2::new(w, h)), h)
    }

    /// The smallest gap between any two cards as drawn at `spread`.
    fn least_gap(cards: &[(Rect, f32)], spread: &Spread) -> f32 {
        let drawn: Vec<Rect> =
            cards.iter().map(|&(r, h)| drawn_card(r, h, spread.centre, spread.factor)).collect();
        let mut least = f32::MAX;
        for (i, a) in drawn.iter().enumerate() {
            for b in &drawn[i + 1..] {
                let gap =
                    (a.min.x - b.max.x).max(b.min.x - a.max.x).max(a.min.y - b.max.y).max(b.min.y - a.max.y);
                least = least.min(gap);
            }
        }
        least
    }

    #[test]
    fn cards_far_apart_are_drawn_closer_keeping_room_for_their_arrows() {
        // A row of three cards 800 apart, and one far below the middle one.
        let cards = [
            card(-800.0, 0.0, 200.0, 150.0),
            card(0.0, 0.0, 200.0, 150.0),
            card(800.0, 0.0, 200.0, 150.0),
            card(0.0, -900.0, 200.0, 150.0),
        ];
        let mut spread = Spread::default();
        spread.update(&cards, &[], true);
        assert!(spread.factor.x < 1.0 && spread.factor.y < 1.0, "drawn closer: {:?}", spread.factor);
        let gap = least_gap(&cards, &spread);
        assert!(gap >= LINK_ROOM - 1.0, "room for an arrow between every two: {gap}");
        // Not much more than that: the board is as small as its arrows allow.
        assert!(gap <= LINK_ROOM + 60.0, "drawn tight: {gap}");
    }

    #[test]
    fn a_grown_card_pushes_the_card_below_it_away() {
        // Two cards 300 apart; the upper one grown to 500 tall by its tokens.
        let cards = [
            (Rect::from_center_size(Vec2::ZERO, Vec2::new(200.0, 150.0)), 500.0),
            card(0.0, -300.0, 200.0, 150.0),
        ];
        let mut spread = Spread::default();
        spread.update(&cards, &[], true);
        let gap = least_gap(&cards, &spread);
        assert!(gap >= LINK_ROOM - 1.0, "the grown card does not cover the one below: {gap}");
    }

    #[test]
    fn cards_that_touch_in_the_scenario_never_overlap() {
        let cards = [
            card(-100.0, 0.0, 200.0, 150.0),
            card(100.0, 0.0, 200.0, 150.0),
            card(0.0, -1000.0, 200.0, 150.0),
        ];
        let mut spread = Spread::default();
        spread.update(&cards, &[], true);
        assert!(least_gap(&cards, &spread) >= -0.01, "at {:?}", spread.factor);
    }

    #[test]
    fn tokens_in_no_card_keep_clear_of_each_other_and_of_the_cards() {
        let cards = [card(-600.0, 0.0, 200.0, 150.0), card(600.0, 0.0, 200.0, 150.0)];
        let pieces = [Vec2::new(0.0, 400.0), Vec2::new(0.0, -400.0), Vec2::new(300.0, 0.0)];
        let mut spread = Spread::default();
        spread.update(&cards, &pieces, true);
        let rooms: Vec<Rect> = pieces.iter().map(|&p| Rect::from_center_size(spread.out(p), PIECE)).collect();
        let drawn: Vec<Rect> =
            cards.iter().map(|&(r, h)| drawn_card(r, h, spread.centre, spread.factor)).collect();
        for (i, a) in rooms.iter().enumerate() {
            for b in rooms[i + 1..].iter().chain(&drawn) {
                assert!(!near(*a, *b, -0.5), "{a:?} overlaps {b:?} at {:?}", spread.factor);
            }
        }
    }

    #[test]
    fn tokens_close_together_with_no_cards_come_no_closer_than_they_stand() {
        // The toy duel: two pairs, each 120 apart down (less than a token's room), far across.
        let pieces = [
            Vec2::new(-220.0, 0.0),
            Vec2::new(-220.0, -120.0),
            Vec2::new(220.0, 0.0),
            Vec2::new(220.0, -120.0),
        ];
        let mut spread = Spread::default();
        spread.update(&[], &pieces, true);
        let room = |p: Vec2| Rect::from_center_size(p, PIECE);
        for (i, &a) in pieces.iter().enumerate() {
            for &b in &pieces[i + 1..] {
                let (da, db) = (spread.out(a), spread.out(b));
                if near(room(a), room(b), 0.0) {
                    assert!(
                        da.distance(db) >= a.distance(b) - 0.01,
                        "{a} and {b} closer at {:?}",
                        spread.factor
                    );
                } else {
                    assert!(!near(room(da), room(db), -0.5), "{a} and {b} overlap at {:?}", spread.factor);
                }
            }
        }
        assert!(near(room(pieces[0]), room(pieces[1]), 0.0), "the pair is close in the scenario");
        // A rider at its mount's place stays with it, and leaves the board as tight as it was.
        spread.update(&[], &[Vec2::ZERO, Vec2::ZERO, Vec2::new(800.0, 0.0)], true);
        assert!(spread.factor.y < 1.0 && spread.factor.x < 1.0, "{:?}", spread.factor);
    }

    #[test]
    fn a_board_of_free_positions_keeps_its_proportions_and_only_spreads() {
        let cards =
            [card(0.0, 0.0, 200.0, 150.0), card(150.0, 0.0, 200.0, 150.0), card(2000.0, 0.0, 200.0, 150.0)];
        let mut spread = Spread::default();
        spread.update(&cards, &[], false);
        assert_eq!(spread.factor.x, spread.factor.y);
        assert!(spread.factor.x >= 1.0);
        // The first two overlap in the scenario: left as they are; the third is far.
        assert_eq!(spread.factor, Vec2::ONE);
        // Two cards 10 apart spread evenly until 24 lie between them, the far one with them.
        let close =
            [card(0.0, 0.0, 200.0, 150.0), card(210.0, 0.0, 200.0, 150.0), card(0.0, 900.0, 200.0, 150.0)];
        spread.update(&close, &[], false);
        assert_eq!(spread.factor.x, spread.factor.y, "proportions kept");
        assert!(spread.factor.x > 1.0, "spread apart: {:?}", spread.factor);
        assert!(least_gap(&close, &spread) >= CARD_GAP, "{}", least_gap(&close, &spread));
    }
}
