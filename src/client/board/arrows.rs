//! Arrows for accessibility: from each location to those that may be entered from it, card
//! edge to card edge, bent round the cards in their way.

use std::collections::BTreeMap;

use bevy::prelude::*;
use fray_core::location::{EnteredFrom, OpenField};

use super::pieces::{Card, CardRect};

/// The accessibility arrows as last drawn: (entered from, entered, path). Cards' badges keep
/// off them.
#[derive(Resource, Default)]
pub(super) struct ArrowPaths(pub(super) Vec<(Entity, Entity, Vec<Vec2>)>);

impl ArrowPaths {
    /// Every straight piece of every arrow.
    pub(super) fn segments(&self) -> impl Iterator<Item = (Vec2, Vec2)> + '_ {
        self.0.iter().flat_map(|(.., path)| path.windows(2).map(|w| (w[0], w[1])))
    }
}

/// Arrows from each location to those that may be entered from it, card edge to card edge,
/// bent round the cards in their way.
pub(super) fn draw_arrows(
    mut gizmos: Gizmos,
    palette: Res<crate::client::theme::Palette>,
    locations: Query<(Entity, Ref<EnteredFrom>), Without<OpenField>>,
    cards: Query<(&Card, &CardRect)>,
    mut seen: Local<(BTreeMap<Entity, Rect>, usize)>,
    mut paths: ResMut<ArrowPaths>,
) {
    // The paths are worked out again only when a card moved or grew, or an arrow changed.
    let drawn: BTreeMap<Entity, Rect> = cards.iter().map(|(c, r)| (c.0, r.0)).collect();
    let changed = locations.iter().any(|(_, f)| f.is_changed());
    if changed || seen.0 != drawn || seen.1 != locations.iter().len() {
        paths.0 = arrows(&drawn, locations.iter().map(|(e, f)| (e, f.into_inner())));
        *seen = (drawn, locations.iter().len());
    }
    for (.., path) in &paths.0 {
        draw_path(&mut gizmos, path, palette.arrow);
    }
}

/// An arrow along `path` (a line of points), its head as long as a straight arrow's of that
/// length.
pub(crate) fn draw_path(gizmos: &mut Gizmos, path: &[Vec2], colour: Color) {
    let [.., before, end] = path[..] else { return };
    let length: f32 = path.windows(2).map(|w| w[0].distance(w[1])).sum();
    if path.len() > 2 {
        gizmos.linestrip_2d(path[..path.len() - 1].iter().copied(), colour);
    }
    gizmos.arrow_2d(before, end, colour).with_tip_length(length / 10.0);
}

/// The accessibility arrows as drawn between the cards `drawn`: (entered from, entered, the
/// path from the first card's edge to the second's), straight, or bent round the other cards
/// where a straight one would cross them.
pub fn arrows<'a>(
    drawn: &BTreeMap<Entity, Rect>,
    entered: impl Iterator<Item = (Entity, &'a EnteredFrom)>,
) -> Vec<(Entity, Entity, Vec<Vec2>)> {
    let mut found = Vec::new();
    for (to, from) in entered {
        let Some(&target) = drawn.get(&to) else { continue };
        for &f in &from.0 {
            let Some(&source) = drawn.get(&f) else { continue };
            let others: Vec<Rect> = drawn
                .iter()
                .filter(|(e, _)| **e != f && **e != to)
                .map(|(_, r)| r.inflate(ARROW_CLEARANCE))
                .collect();
            found.push((f, to, arrow_path(source, target, &others)));
        }
    }
    found
}

/// How far an arrow keeps from a card it passes.
const ARROW_CLEARANCE: f32 = 6.0;
/// The room left between an arrow's head and the card it points at.
const ARROW_GAP: f32 = 4.0;

/// The path of an arrow from card `source` to card `target`: straight, edge to edge, unless
/// that crosses one of the cards `others`; then the least bent curve that crosses none (both
/// arrows between two cards bend the same way, so that they lie on one line), else straight.
fn arrow_path(source: Rect, target: Rect, others: &[Rect]) -> Vec<Vec2> {
    let (a, b) = (source.center(), target.center());
    let dir = (b - a).normalize_or_zero();
    let out = |r: &Rect| {
        let half = r.half_size();
        (half.x / dir.x.abs().max(1e-3)).min(half.y / dir.y.abs().max(1e-3))
    };
    let straight = vec![a + dir * out(&source), b - dir * (out(&target) + ARROW_GAP)];
    let clear = |path: &[Vec2]| path.windows(2).all(|w| others.iter().all(|r| !segment_hits(w[0], w[1], *r)));
    if clear(&straight) || a.distance(b) < 1.0 {
        return straight;
    }
    let one_way = if (a.x, a.y) < (b.x, b.y) { b - a } else { a - b };
    let normal = one_way.perp().normalize_or_zero();
    let length = a.distance(b);
    for k in 1..=8 {
        for side in [1.0, -1.0] {
            let control = (a + b) / 2.0 + normal * side * length * 0.15 * k as f32;
            let path = curve(a, control, b, source, target);
            if clear(&path) {
                return path;
            }
        }
    }
    straight
}

/// A quadratic curve from `a` through `control` to `b` as a line of points, from where it
/// leaves `source` to just short of where it enters `target`.
fn curve(a: Vec2, control: Vec2, b: Vec2, source: Rect, target: Rect) -> Vec<Vec2> {
    let at = |t: f32| a * (1.0 - t) * (1.0 - t) + control * 2.0 * (1.0 - t) * t + b * t * t;
    // The last `t` inside `inside` going from `from` toward `to` (the curve crosses its edge once).
    let edge = |inside: Rect, mut from: f32, mut to: f32| {
        for _ in 0..16 {
            let mid = (from + to) / 2.0;
            if inside.contains(at(mid)) {
                from = mid;
            } else {
                to = mid;
            }
        }
        to
    };
    let (t0, t1) = (edge(source, 0.0, 1.0), edge(target, 1.0, 0.0));
    const STEPS: usize = 20;
    let mut path: Vec<Vec2> = (0..=STEPS).map(|i| at(t0 + (t1 - t0) * i as f32 / STEPS as f32)).collect();
    if let [.., before, end] = path[..] {
        let back = (end - before).normalize_or_zero() * ARROW_GAP;
        if let Some(last) = path.last_mut() {
            *last -= back;
        }
    }
    path
}

/// Whether the segment from `p` to `q` passes through the rectangle `r`.
pub(super) fn segment_hits(p: Vec2, q: Vec2, r: Rect) -> bool {
    let d = q - p;
    let (mut t0, mut t1) = (0.0f32, 1.0f32);
    for (towards, room) in
        [(-d.x, p.x - r.min.x), (d.x, r.max.x - p.x), (-d.y, p.y - r.min.y), (d.y, r.max.y - p.y)]
    {
        if towards == 0.0 {
            if room < 0.0 {
                return false;
            }
            continue;
        }
        let t = room / towards;
        if towards < 0.0 {
            t0 = t0.max(t);
        } else {
            t1 = t1.min(t);
        }
        if t0 > t1 {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_arrow_bends_round_a_card_in_its_way_and_both_ways_bend_alike() {
        let box_at = |x: f32, y: f32| Rect::from_center_size(Vec2::new(x, y), Vec2::new(120.0, 90.0));
        let (left, middle, right) = (box_at(-300.0, 0.0), box_at(0.0, -10.0), box_at(300.0, 0.0));
        // Nothing in the way: straight, edge to edge.
        let straight = arrow_path(left, right, &[]);
        assert_eq!(straight, vec![Vec2::new(-240.0, 0.0), Vec2::new(236.0, 0.0)]);
        let there = arrow_path(left, right, &[middle.inflate(ARROW_CLEARANCE)]);
        let back = arrow_path(right, left, &[middle.inflate(ARROW_CLEARANCE)]);
        for path in [&there, &back] {
            assert!(path.len() > 2, "bent: {path:?}");
            for w in path.windows(2) {
                assert!(!segment_hits(w[0], w[1], middle), "crosses the middle card at {w:?}");
            }
        }
        assert!(
            left.inflate(1.0).contains(there[0]) && !left.inflate(-1.0).contains(there[0]),
            "from the edge"
        );
        let end = *there.last().unwrap_or(&Vec2::ZERO);
        assert!(!right.contains(end) && right.inflate(ARROW_GAP + 1.0).contains(end), "to the edge: {end}");
        let apex =
            |p: &[Vec2]| p.iter().map(|v| v.y).fold(0.0, |a: f32, y| if y.abs() > a.abs() { y } else { a });
        assert_eq!(apex(&there).signum(), apex(&back).signum(), "both ways on one side");
    }
}
