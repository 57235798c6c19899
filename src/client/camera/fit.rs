//! The framing's geometry, as plain functions: the floor a screen can read, the scale that
//! shows the board whole or in part, where a view in part stands so that it cuts no token.

use bevy::prelude::*;

use crate::client::board::pieces::TOKEN;

/// Where a view in part glides to, kept with what it was worked out from (the focus, the
/// scale, [`BoardParts::fingerprint`]): worked out again only when one of them changed.
#[derive(Default)]
pub(crate) struct GoalKept(Option<((Vec2, f32, Vec2), Vec2)>);

impl GoalKept {
    /// The goal for `key`: the one kept, else `work`'s, then kept.
    pub(crate) fn get(&mut self, key: (Vec2, f32, Vec2), work: impl FnOnce() -> Vec2) -> Vec2 {
        match self.0 {
            Some((k, goal)) if k == key => goal,
            _ => {
                let goal = work();
                self.0 = Some((key, goal));
                goal
            }
        }
    }
}

/// Moves a camera a step toward `goal` (all the way with motion reduced); whether it is still
/// on its way.
pub(crate) fn glide(transform: &mut Transform, goal: Vec2, reduced: bool, dt: f32) -> bool {
    let now = transform.translation.truncate();
    if (goal - now).length_squared() < 0.25 {
        if now != goal {
            transform.translation = goal.extend(transform.translation.z);
        }
        return false;
    }
    let step = if reduced { 1.0 } else { 1.0 - (-FOLLOW_RATE * dt).exp() };
    transform.translation = (now + (goal - now) * step).extend(transform.translation.z);
    !reduced
}

/// How fast a followed view catches up (about this many times its distance per second).
const FOLLOW_RATE: f32 = 4.0;

/// The least a room can read on the table's screen (the table window, or the GM's in table
/// mode), in logical pixels: a board text at least 2.2% of the window's height and a token 6%.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Floor {
    /// The smallest text's font size.
    pub text: f32,
    /// The smallest token's side.
    pub token: f32,
}

impl Floor {
    /// The GM's own window: denser than the table's, but no text under 12 pixels (tokens as
    /// small as the text allows).
    pub const GM: Floor = Floor { text: 12.0, token: 0.0 };

    /// The table's screen, `height` logical pixels tall.
    pub fn table(height: f32) -> Self {
        Self { text: 0.022 * height, token: 0.06 * height }
    }

    /// The most world units a logical pixel may show so that `smallest` stays over the floor.
    pub fn most(&self, smallest: Smallest) -> f32 {
        let by_text = smallest.text / self.text.max(1.0);
        let by_token = if self.token > 0.0 { smallest.token / self.token } else { f32::INFINITY };
        by_text.min(by_token)
    }
}

/// The smallest board text (its font size) and token (its side) a camera draws, in world
/// units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Smallest {
    /// Font size.
    pub text: f32,
    /// Side.
    pub token: f32,
}

/// A view of the board: its orthographic scale, its centre, and whether it holds the whole.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct View {
    pub scale: f32,
    pub centre: Vec2,
    pub whole: bool,
}

/// The room kept round a whole board, as a share of its size (3%).
const MARGIN: f32 = 1.03;

/// What a view in part keeps whole where it can: the tokens and mounts first, then each token
/// with its caption, and with its chips.
#[derive(Clone, Debug, Default)]
pub(crate) struct Kept {
    pub tokens: Vec<Rect>,
    pub captions: Vec<Rect>,
}

impl Kept {
    /// Tokens alone.
    #[cfg(test)]
    pub(super) fn tokens(tokens: &[Rect]) -> Self {
        Self { tokens: tokens.to_vec(), captions: Vec::new() }
    }
}

/// The view of `bounds` in a `room` (logical pixels): the whole with a margin (a thinner one
/// where that alone keeps it within `most`), no closer than 0.3 world units a pixel and no
/// farther than `most`. Where the whole would be farther, the
/// view at `most` (or a little closer, where that cuts fewer) nearest `focus` that stays on the
/// board and cuts none of `kept` at its edge ([`view_centre`]).
pub(crate) fn frame(bounds: Rect, room: Vec2, most: f32, focus: Vec2, kept: &Kept) -> View {
    let exact = fit_scale(bounds, room);
    let fit = (exact * MARGIN).max(0.3);
    if fit <= most {
        return View { scale: fit, centre: bounds.center(), whole: true };
    }
    // A board that fits at `most` only with less of a margin is shown whole at `most`.
    if exact <= most {
        return View { scale: most, centre: bounds.center(), whole: true };
    }
    // At most `most`, a little closer where that cuts fewer tokens, then fewer captions (a
    // token with its caption or chips), then shows more tokens whole.
    let most = most.max(0.05);
    let view = |k: u8| {
        let scale = most * (1.0 - CLOSER * f32::from(k));
        let centre = view_centre(bounds, room * scale, focus, kept);
        let half = room * scale / 2.0;
        let (whole, cut) = counted(centre, half, &kept.tokens);
        let (_, captions_cut) = counted(centre, half, &kept.captions);
        ((cut, captions_cut, std::cmp::Reverse(whole), k), View { scale, centre, whole: false })
    };
    (0..=CLOSER_STEPS).map(view).min_by_key(|(rank, _)| *rank).map_or(view(0).1, |(_, v)| v)
}

/// How much closer a view in part may come, a step at a time, to leave no token cut.
const CLOSER: f32 = 0.03;
const CLOSER_STEPS: u8 = 10;

/// How many of `tokens` a view (`centre`, `half` its half size) shows whole, and how many
/// stand across its edge.
fn counted(centre: Vec2, half: Vec2, tokens: &[Rect]) -> (usize, usize) {
    let view = Rect::from_center_half_size(centre, half);
    let inside = |t: &Rect| view.contains(t.min) && view.contains(t.max);
    let whole = tokens.iter().filter(|t| inside(t)).count();
    let cut = tokens.iter().filter(|t| !view.intersect(**t).is_empty() && !inside(t)).count();
    (whole, cut)
}

/// The world units a pixel shows for `bounds` to just fill a `room` (logical pixels).
pub(crate) fn fit_scale(bounds: Rect, room: Vec2) -> f32 {
    let size = bounds.size();
    (size.x / room.x).max(size.y / room.y)
}

/// The room a token (or mount) drawn at `at` by `sprite` takes, for keeping it whole in a
/// view: its drawn size (a token's size where it has none yet).
pub(super) fn token_rect(at: &Transform, sprite: Option<&Sprite>) -> Rect {
    let size = sprite.and_then(|s| s.custom_size).unwrap_or(Vec2::splat(TOKEN));
    Rect::from_center_size(at.translation.truncate(), size * at.scale.truncate())
}

/// The room a token with the chips and their counts at its corners takes.
pub(super) fn chips_rect(at: &Transform, sprite: Option<&Sprite>) -> Rect {
    token_rect(at, sprite).inflate(CHIP_ROOM)
}

/// How far past a token's rim the chips at its corners and their counts reach.
const CHIP_ROOM: f32 = 16.0;

/// The centre of a `shown`-sized view nearest `focus` that stays within `bounds` (on an axis
/// the view is wider than the bounds, the bounds' centre), moved as little as it takes (the
/// focus kept in view) for none of `kept` to stand across its edge, where it can.
pub(crate) fn view_centre(bounds: Rect, shown: Vec2, focus: Vec2, kept: &Kept) -> Vec2 {
    let half = shown / 2.0;
    let axis = |lo: f32, hi: f32, at: f32, half: f32| {
        if hi - lo <= 2.0 * half { (lo + hi) / 2.0 } else { at.clamp(lo + half, hi - half) }
    };
    let mut centre = Vec2::new(
        axis(bounds.min.x, bounds.max.x, focus.x, half.x),
        axis(bounds.min.y, bounds.max.y, focus.y, half.y),
    );
    // As much of the fight as the view can hold with the focus in it, across then up or down.
    for a in [0, 1] {
        centre[a] += fullest_shift(centre, half, a, (bounds.min[a], bounds.max[a]), focus, kept);
    }
    // Across, then up or down, then across again: a move on one axis changes what stands
    // across the edges of the other.
    for a in [0, 1, 0] {
        centre[a] += uncut_shift(centre, half, a, (bounds.min[a], bounds.max[a]), focus, kept);
    }
    centre
}

/// How far the focus stays from a view's edge along axis `a`: its own token whole with the
/// rings round whoever acts (a token's half size round a focus with none).
fn focus_clearance(kept: &Kept, focus: Vec2, a: usize) -> f32 {
    kept.tokens
        .iter()
        .find(|t| t.center().distance(focus) < 0.5)
        .map_or(crate::client::board::pieces::TOKEN / 2.0, |t| {
            t.size()[a] * crate::client::motion::RING_REACH + 1.0
        })
}

/// How far to move a view (`centre`, `half` its half size) along axis `a`, within `board`, so
/// that it holds the most of the tokens in `kept` whole, the one at `focus` still whole with
/// its rings: the least such move (none where no move shows more).
fn fullest_shift(centre: Vec2, half: Vec2, a: usize, board: (f32, f32), focus: Vec2, kept: &Kept) -> f32 {
    let o = 1 - a;
    let (lo, hi) = (centre[a] - half[a], centre[a] + half[a]);
    if board.1 - board.0 <= hi - lo {
        return 0.0;
    }
    let spans: Vec<(f32, f32)> = kept
        .tokens
        .iter()
        .filter(|t| t.min[o] >= centre[o] - half[o] && t.max[o] <= centre[o] + half[o])
        .map(|t| (t.min[a], t.max[a]))
        .collect();
    let whole = |s: f32| spans.iter().filter(|(from, to)| lo + s <= *from && *to <= hi + s).count();
    let clear = focus_clearance(kept, focus, a);
    let allowed = |s: f32| {
        lo + s >= board.0 && hi + s <= board.1 && focus[a] >= lo + s + clear && focus[a] <= hi + s - clear
    };
    // The moves that bring an edge of the view just past an end of a token.
    let mut moves: Vec<f32> = spans.iter().flat_map(|&(from, to)| [from - lo - 2.0, to - hi + 2.0]).collect();
    moves.retain(|&s| allowed(s));
    moves.sort_by(|x, y| x.abs().total_cmp(&y.abs()));
    let now = whole(0.0);
    moves.into_iter().fold((now, 0.0), |best, s| if whole(s) > best.0 { (whole(s), s) } else { best }).1
}

/// How far to move a view (`centre`, `half` its half size) along axis `a` so that the fewest
/// of `kept` in view stand across its edges: the least move that cuts no token and no caption
/// and shows as many whole (taking one in rather than out, on a tie), keeping within `board`
/// (where the view is narrower; a token's size past it at most) and the token at `focus`
/// whole with its rings; else the least move that cuts fewest tokens, then fewest captions,
/// then shows most.
fn uncut_shift(centre: Vec2, half: Vec2, a: usize, board: (f32, f32), focus: Vec2, kept: &Kept) -> f32 {
    let o = 1 - a;
    let (lo, hi) = (centre[a] - half[a], centre[a] + half[a]);
    let tokens = &kept.tokens;
    let marked = tokens.iter().map(|t| (t, true)).chain(kept.captions.iter().map(|c| (c, false)));
    let spans: Vec<(f32, f32, bool)> = marked
        .filter(|(t, _)| t.max[o] > centre[o] - half[o] && t.min[o] < centre[o] + half[o])
        .map(|(t, token)| (t.min[a], t.max[a], token))
        .collect();
    // Tokens cut, captions cut, tokens whole (fewer is worse), captions whole: compared in
    // that order.
    let cost = |s: f32| {
        let (lo, hi) = (lo + s, hi + s);
        let across = |&&(from, to, _): &&(f32, f32, bool)| (from < lo && lo < to) || (from < hi && hi < to);
        let cut = |token: bool| spans.iter().filter(|x| x.2 == token).filter(across).count();
        let whole = |token: bool| spans.iter().filter(|x| x.2 == token && lo <= x.0 && x.1 <= hi).count();
        (cut(true), cut(false), std::cmp::Reverse(whole(true)), std::cmp::Reverse(whole(false)))
    };
    let now = cost(0.0);
    if now.0 == 0 && now.1 == 0 {
        return 0.0;
    }
    // A view may pass the board's edge by a token's size, or by a seventh of its own size, to
    // leave a token or a caption out whole; the focus's own token stays whole with the rings
    // round whoever acts (a token's size round a focus with none).
    let clear = focus_clearance(kept, focus, a);
    let focus = focus[a];
    let past = crate::client::board::pieces::TOKEN.max((hi - lo) / 7.0);
    let allowed = |s: f32| {
        let on_board = board.1 - board.0 <= hi - lo || (lo + s >= board.0 - past && hi + s <= board.1 + past);
        on_board && focus >= lo + s + clear && focus <= hi + s - clear
    };
    // The moves that bring an edge of the view just past an end of one of them: those across
    // an edge now taken in whole (first, on a tie) or out whole, and the others too, since in
    // a crowd the view may have to pass several to stop between two.
    let mut moves: Vec<f32> = Vec::with_capacity(spans.len() * 4);
    for &(from, to, _) in &spans {
        moves.extend([from - lo - 2.0, to - lo + 2.0, to - hi + 2.0, from - hi - 2.0]);
    }
    moves.retain(|&s| allowed(s));
    moves.sort_by(|x, y| x.abs().total_cmp(&y.abs()));
    moves.dedup_by(|x, y| (*x - *y).abs() < 0.25);
    moves.into_iter().fold((now, 0.0), |best, s| if cost(s) < best.0 { (cost(s), s) } else { best }).1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_floor_is_set_by_the_smaller_of_text_and_token() {
        let smallest = Smallest { text: 18.0, token: 54.0 };
        // 900 high: text at least 19.8 px, a token at least 54 px; text decides.
        let table = Floor::table(900.0).most(smallest);
        assert!((table - 18.0 / 19.8).abs() < 1e-4, "{table}");
        // Small tokens decide instead.
        let small_tokens = Floor::table(900.0).most(Smallest { text: 18.0, token: 30.0 });
        assert!((small_tokens - 30.0 / 54.0).abs() < 1e-4, "{small_tokens}");
    }

    #[test]
    fn a_board_that_fits_is_shown_whole_and_one_too_big_in_part_around_the_focus() {
        let room = Vec2::new(800.0, 600.0);
        let bounds = Rect::new(-400.0, -200.0, 400.0, 200.0);
        let whole = frame(bounds, room, 2.0, Vec2::new(390.0, 190.0), &Kept::default());
        assert!(whole.whole && whole.centre == bounds.center(), "{whole:?}");
        assert!((whole.scale - MARGIN).abs() < 1e-4, "the whole board with a margin: {whole:?}");
        // Readable at 1.01 world units a pixel: whole at that, with a thinner margin.
        let whole = frame(bounds, room, 1.01, Vec2::new(390.0, 190.0), &Kept::default());
        assert_eq!(whole, View { scale: 1.01, centre: bounds.center(), whole: true });

        // Readable only at half a world unit a pixel: 400 x 300 of the board, by the focus.
        let part = frame(bounds, room, 0.5, Vec2::new(390.0, 190.0), &Kept::default());
        assert!(!part.whole && part.scale == 0.5, "{part:?}");
        let shown = Rect::from_center_size(part.centre, room * part.scale);
        assert!(shown.contains(Vec2::new(390.0, 190.0)), "the focus is in view: {shown:?}");
        assert!((shown.max.x - bounds.max.x).abs() < 1e-3 && (shown.max.y - bounds.max.y).abs() < 1e-3);
        assert!(
            shown.min.x >= bounds.min.x && shown.min.y >= bounds.min.y,
            "never past the board: {shown:?}"
        );
    }

    #[test]
    fn a_view_wider_than_the_board_on_one_axis_is_centred_on_it() {
        let bounds = Rect::new(0.0, 0.0, 2000.0, 100.0);
        let centre = view_centre(bounds, Vec2::new(500.0, 300.0), Vec2::new(1900.0, 90.0), &Kept::default());
        assert_eq!(centre, Vec2::new(1750.0, 50.0));
        let centre = view_centre(bounds, Vec2::new(500.0, 300.0), Vec2::new(-50.0, 0.0), &Kept::default());
        assert_eq!(centre, Vec2::new(250.0, 50.0));
    }

    #[test]
    fn a_view_in_part_moves_so_that_no_token_stands_across_its_edge() {
        let bounds = Rect::new(0.0, 0.0, 2000.0, 2000.0);
        let shown = Vec2::new(500.0, 300.0);
        let token = |x: f32, y: f32| Rect::from_center_size(Vec2::new(x, y), Vec2::splat(TOKEN));
        // Focus at (1000, 1000): the view spans y 850..1150; a token at y 1150 is cut in half.
        let cut = [token(1000.0, 1150.0)];
        let centre = view_centre(bounds, shown, Vec2::new(1000.0, 1000.0), &Kept::tokens(&cut));
        let view = Rect::from_center_size(centre, shown);
        assert!(view.contains(cut[0].min) && view.contains(cut[0].max), "taken in whole: {view:?}");
        assert!(view.contains(Vec2::new(1000.0, 1000.0)), "the focus stays in view");
        // Moving either way would cut another: the view keeps the fewest cut, the least move.
        let crowded = [token(1000.0, 1150.0), token(1000.0, 830.0), token(1000.0, 1180.0)];
        let centre = view_centre(bounds, shown, Vec2::new(1000.0, 1000.0), &Kept::tokens(&crowded));
        let view = Rect::from_center_size(centre, shown);
        let cut = |t: &Rect| view.contains(t.min) != view.contains(t.max);
        assert!(crowded.iter().filter(|t| cut(t)).count() <= 1, "{view:?}");
        // The FateWalker ambush on the table's screen at 1920x1080: the view at the board's
        // top, the one who acts near it; taking the token cut at the bottom in would cut the
        // one who acts, so the view passes the board's top a little to leave it out whole.
        let board = Rect::new(-483.5, -333.4, 963.4, 543.2);
        let shown = Vec2::new(1152.0, 582.0);
        let drawn = [token(625.0, 500.0), token(50.0, -37.5)];
        let centre = view_centre(board, shown, Vec2::new(625.0, 500.0), &Kept::tokens(&drawn));
        let view = Rect::from_center_size(centre, shown);
        assert!(drawn.iter().all(|t| view.contains(t.min) == view.contains(t.max)), "none cut: {view:?}");
        assert!(view.contains(drawn[0].min) && view.contains(drawn[0].max), "the one who acts in whole");
        assert!(view.max.y <= board.max.y + TOKEN, "past the board by a token at most: {view:?}");
        // Tokens drawn smaller than TOKEN (a free board's), the one who acts near the board's
        // bottom: taking in the token cut at the top would cut the rings round the one who
        // acts, so the view leaves that token out whole instead.
        let low = Rect::new(0.0, 850.0, 2000.0, 2000.0);
        let small = |x: f32, y: f32| Rect::from_center_size(Vec2::new(x, y), Vec2::splat(39.0));
        let drawn = [small(1000.0, 885.0), small(1000.0, 1140.0)];
        let centre = view_centre(low, shown, Vec2::new(1000.0, 885.0), &Kept::tokens(&drawn));
        let view = Rect::from_center_size(centre, shown);
        let cut = |t: &Rect| view.contains(t.min) != view.contains(t.max);
        assert!(!drawn.iter().any(cut), "none cut: {view:?}");
        let reach = 39.0 * crate::client::motion::RING_REACH;
        assert!(view.min.y <= 885.0 - reach, "the rings round the one who acts stay whole: {view:?}");
        // A token off to the side is taken in, as little moved as that takes, while the one
        // who acts stays in view; one too far for that leaves the view by the focus.
        let aside = [token(100.0, 1150.0)];
        let centre = view_centre(bounds, shown, Vec2::new(1000.0, 1000.0), &Kept::tokens(&aside));
        let view = Rect::from_center_size(centre, shown);
        assert!(view.contains(aside[0].min) && view.contains(aside[0].max), "taken in: {view:?}");
        assert!(view.contains(Vec2::new(1000.0, 1000.0)) && centre.y == 1000.0, "{view:?}");
        let far = [token(100.0, 1150.0), token(1900.0, 1150.0)];
        let centre = view_centre(bounds, shown, Vec2::new(1000.0, 1000.0), &Kept::tokens(&far));
        let view = Rect::from_center_size(centre, shown);
        assert_eq!(
            far.iter().filter(|t| view.contains(t.min) && view.contains(t.max)).count(),
            1,
            "{view:?}"
        );
    }

    #[test]
    fn a_view_in_part_holds_as_much_of_the_fight_as_it_can_with_the_one_who_acts() {
        // The swamp as the GM's window opened on it: the one who acts near the bottom left,
        // the fight up and to the right. A view by the focus (the board's corner) shows the one
        // who acts alone; it moves off the corner to hold the others too.
        let token = |x: f32, y: f32| Rect::from_center_size(Vec2::new(x, y), Vec2::splat(TOKEN));
        let bounds = Rect::new(0.0, 0.0, 2000.0, 1200.0);
        let shown = Vec2::new(1000.0, 600.0);
        let focus = Vec2::new(300.0, 300.0);
        let fight = [token(300.0, 300.0), token(1150.0, 400.0), token(600.0, 750.0), token(1800.0, 1100.0)];
        let centre = view_centre(bounds, shown, focus, &Kept::tokens(&fight));
        let view = Rect::from_center_size(centre, shown);
        let whole = fight.iter().filter(|t| view.contains(t.min) && view.contains(t.max)).count();
        assert_eq!(whole, 3, "the one who acts and the two nearest: {view:?}");
        assert!(view.min.x >= 0.0 && view.min.y >= 0.0, "on the board: {view:?}");
    }

    #[test]
    fn a_view_in_part_comes_a_little_closer_where_no_move_leaves_every_token_whole() {
        // A column of tokens (and captions) 60 high every 100: a view 350 high cuts one at an
        // edge wherever it stands; a view 329 high (6% closer) fits between them.
        let bounds = Rect::new(0.0, 0.0, 500.0, 2000.0);
        let column: Vec<Rect> =
            (0..20).map(|k| Rect::new(220.0, 100.0 * k as f32, 280.0, 100.0 * k as f32 + 60.0)).collect();
        let room = Vec2::new(500.0, 350.0);
        let focus = Vec2::new(250.0, 830.0);
        let at_most = view_centre(bounds, room, focus, &Kept::tokens(&column));
        assert!(counted(at_most, room / 2.0, &column).1 > 0, "no move alone leaves all whole");
        let view = frame(bounds, room, 1.0, focus, &Kept::tokens(&column));
        assert!(!view.whole && view.scale < 1.0 && view.scale >= 1.0 - CLOSER * f32::from(CLOSER_STEPS));
        assert_eq!(counted(view.centre, room * view.scale / 2.0, &column).1, 0, "{view:?}");
        let shown = Rect::from_center_size(view.centre, room * view.scale);
        assert!(shown.contains(focus), "the one who acts in view: {shown:?}");
    }

    #[test]
    fn a_view_in_part_moves_across_again_once_it_has_moved_up_or_down() {
        // A caption across the left edge: taking it in or out would cut a wide token low on
        // the left or on the right, until the view moves up off a token across its bottom edge
        // (taking that one in would cut a tall one). Then the caption can be taken in.
        let kept = Kept {
            tokens: vec![
                Rect::new(-760.0, -490.0, -520.0, -465.0),
                Rect::new(520.0, -490.0, 760.0, -465.0),
                Rect::new(-20.0, -520.0, 20.0, -460.0),
                Rect::new(100.0, -760.0, 150.0, -510.0),
            ],
            captions: vec![Rect::new(-560.0, 300.0, -440.0, 350.0)],
        };
        let bounds = Rect::new(-600.0, -600.0, 600.0, 600.0);
        let centre = view_centre(bounds, Vec2::splat(1000.0), Vec2::ZERO, &kept);
        let half = Vec2::splat(500.0);
        assert_eq!(counted(centre, half, &kept.tokens).1, 0, "{centre}");
        assert_eq!(counted(centre, half, &kept.captions), (1, 0), "{centre}");
    }

    #[test]
    fn a_view_in_part_keeps_captions_whole_but_never_at_a_tokens_cost() {
        let bounds = Rect::new(0.0, 0.0, 2000.0, 2000.0);
        let shown = Vec2::new(500.0, 300.0);
        let focus = Vec2::new(1000.0, 1000.0);
        let whole = |view: Rect, r: &Rect| view.contains(r.min) && view.contains(r.max);
        let out = |view: Rect, r: &Rect| view.intersect(*r).is_empty();
        // The view spans y 850..1150. A caption across its bottom is taken in whole with its
        // token, which stands inside.
        let kept = Kept {
            tokens: vec![Rect::new(980.0, 1090.0, 1020.0, 1130.0)],
            captions: vec![Rect::new(960.0, 1132.0, 1040.0, 1170.0)],
        };
        let view = Rect::from_center_size(view_centre(bounds, shown, focus, &kept), shown);
        assert!(whole(view, &kept.tokens[0]) && whole(view, &kept.captions[0]), "{view:?}");
        // Taking it in would cut a token at the top: the caption is left out whole instead.
        let kept = Kept {
            tokens: vec![Rect::new(980.0, 860.0, 1020.0, 900.0)],
            captions: vec![Rect::new(960.0, 1130.0, 1040.0, 1170.0)],
        };
        let view = Rect::from_center_size(view_centre(bounds, shown, focus, &kept), shown);
        assert!(whole(view, &kept.tokens[0]), "the token stays whole: {view:?}");
        assert!(out(view, &kept.captions[0]) || whole(view, &kept.captions[0]), "{view:?}");
        // A token with its caption across the bottom, and a token just inside the top: a view
        // that leaves the top one out whole beats one that shows both tokens and cuts the
        // caption (the big board's rows at 1600x900).
        let kept = Kept {
            tokens: vec![Rect::new(980.0, 852.0, 1020.0, 870.0), Rect::new(980.0, 1100.0, 1020.0, 1140.0)],
            captions: vec![Rect::new(960.0, 1100.0, 1040.0, 1180.0)],
        };
        let view = Rect::from_center_size(view_centre(bounds, shown, focus, &kept), shown);
        assert!(kept.tokens.iter().all(|t| whole(view, t) || out(view, t)), "no token cut: {view:?}");
        assert!(out(view, &kept.captions[0]) || whole(view, &kept.captions[0]), "{view:?}");
    }
}
