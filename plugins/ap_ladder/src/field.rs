//! The field in yards: where combatants stand, who is engaged with whom, the areas (hard
//! terrain, cramped, fog, darkness, high ground) and covers a point lies in.

use bevy_ecs::prelude::*;
use fray_core::prelude::{FieldPosition, Rides, TableIndex};
use fray_core::table::{can_act, enemies};

use crate::data::{AreaKind, CoverLevel};
use crate::phase::{Battle, Fighter};

/// Tolerance on distances, in yards.
pub const EPS: f32 = 1e-3;

/// Where `e` stands, in yards.
pub fn position(world: &World, e: Entity) -> [f32; 2] {
    world.get::<FieldPosition>(e).map_or([0.0, 0.0], |p| p.0)
}

/// Yards between two points.
pub fn distance(a: [f32; 2], b: [f32; 2]) -> f32 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt()
}

/// Yards between two combatants.
pub fn between(world: &World, a: Entity, b: Entity) -> f32 {
    distance(position(world, a), position(world, b))
}

/// Puts `e` (and its mount) at `to`.
pub fn place(world: &mut World, e: Entity, to: [f32; 2]) {
    if let Some(mut p) = world.get_mut::<FieldPosition>(e) {
        p.0 = to;
    } else {
        world.entity_mut(e).insert(FieldPosition(to));
    }
    if let Some(mount) = world.get::<Rides>(e).map(|r| r.0) {
        world.entity_mut(mount).insert(FieldPosition(to));
    }
}

/// Whether `to` lies on the field.
pub fn on_field(world: &World, to: [f32; 2]) -> bool {
    let (w, h) = world.resource::<Battle>().rules.field;
    to[0].is_finite() && to[1].is_finite() && to[0].abs() <= w / 2.0 + EPS && to[1].abs() <= h / 2.0 + EPS
}

/// Foes of `e` still able to fight, in table order.
pub fn foes(world: &World, e: Entity) -> Vec<Entity> {
    world
        .resource::<TableIndex>()
        .order
        .iter()
        .copied()
        .filter(|&t| enemies(world, e, t) && can_act(world, t) && world.get::<Fighter>(t).is_some())
        .collect()
}

/// Allies of `e` (not itself) still able to fight.
pub fn allies(world: &World, e: Entity) -> Vec<Entity> {
    let side = world.get::<fray_core::prelude::Side>(e);
    world
        .resource::<TableIndex>()
        .order
        .iter()
        .copied()
        .filter(|&t| t != e && can_act(world, t) && world.get::<fray_core::prelude::Side>(t) == side)
        .collect()
}

/// Yards within which two are engaged.
pub fn engagement(world: &World) -> f32 {
    world.resource::<Battle>().rules.numbers.engaged
}

/// How near a combatant closing in on a foe stops: engaged, with a little room between the
/// two (the engagement distance less 0.2 yards).
pub fn close_in(world: &World) -> f32 {
    (engagement(world) - 0.2).max(0.7)
}

/// `a` and `b` stand engaged (within the engagement distance) at these points.
pub fn engaged_at(world: &World, a: [f32; 2], b: [f32; 2]) -> bool {
    distance(a, b) <= engagement(world) + EPS
}

/// Foes engaged with `e` where it stands.
pub fn engaged_foes(world: &World, e: Entity) -> Vec<Entity> {
    let at = position(world, e);
    foes(world, e).into_iter().filter(|&t| engaged_at(world, at, position(world, t))).collect()
}

/// The areas of this kind a point lies in.
pub fn in_area(world: &World, at: [f32; 2], kind: AreaKind) -> bool {
    let rules = &world.resource::<Battle>().rules;
    (kind == AreaKind::Cramped && rules.cramped)
        || rules.areas.iter().any(|a| a.kind == kind && distance(at, [a.at.0, a.at.1]) <= a.radius + EPS)
}

/// Whether the straight way from `a` to `b` crosses an area of this kind.
pub fn crosses(world: &World, a: [f32; 2], b: [f32; 2], kind: AreaKind) -> bool {
    let rules = &world.resource::<Battle>().rules;
    rules.areas.iter().filter(|x| x.kind == kind).any(|x| {
        let c = [x.at.0, x.at.1];
        let d = [b[0] - a[0], b[1] - a[1]];
        let len2 = d[0] * d[0] + d[1] * d[1];
        let t = if len2 < EPS {
            0.0
        } else {
            (((c[0] - a[0]) * d[0] + (c[1] - a[1]) * d[1]) / len2).clamp(0.0, 1.0)
        };
        distance([a[0] + d[0] * t, a[1] + d[1] * t], c) <= x.radius + EPS
    })
}

/// Where the straight way from `a` to `b` goes through each area of this kind it crosses
/// (one it starts in apart): the yards run before it and the yards through it, nearest first.
pub fn spans(world: &World, a: [f32; 2], b: [f32; 2], kind: AreaKind) -> Vec<(f32, f32)> {
    let rules = &world.resource::<Battle>().rules;
    let len = distance(a, b);
    if len < EPS {
        return Vec::new();
    }
    let mut out: Vec<(f32, f32)> =
        rules.areas.iter().filter(|x| x.kind == kind).filter_map(|x| span(a, b, x)).collect();
    out.sort_by(|x, y| x.0.total_cmp(&y.0));
    out
}

/// Where the way from `a` (outside `area`) to `b` comes into it and how far it goes in it.
pub fn span(a: [f32; 2], b: [f32; 2], area: &crate::data::AreaSpec) -> Option<(f32, f32)> {
    let len = distance(a, b);
    if len < EPS || distance(a, [area.at.0, area.at.1]) <= area.radius + EPS {
        return None;
    }
    let d = [(b[0] - a[0]) / len, (b[1] - a[1]) / len];
    // Where the way meets the circle: |a + t d - c| = r.
    let f = [a[0] - area.at.0, a[1] - area.at.1];
    let p = f[0] * d[0] + f[1] * d[1];
    let q = f[0] * f[0] + f[1] * f[1] - area.radius * area.radius;
    let root = (p * p - q).sqrt();
    let (t1, t2) = (-p - root, (-p + root).min(len));
    (root.is_finite() && t1 >= 0.0 && t1 < len && t2 > t1 + EPS).then_some((t1, t2 - t1))
}

/// The cover (its index) a point lies behind, the best first.
pub fn cover_at(world: &World, at: [f32; 2]) -> Option<usize> {
    let covers = &world.resource::<Battle>().rules.covers;
    covers
        .iter()
        .enumerate()
        .filter(|(_, c)| distance(at, [c.at.0, c.at.1]) <= c.radius + EPS)
        .max_by_key(|(_, c)| c.level)
        .map(|(i, _)| i)
}

/// The cover level `e` has taken, if any.
pub fn cover_level(world: &World, e: Entity) -> Option<CoverLevel> {
    let i = world.get::<Fighter>(e)?.cover?;
    world.resource::<Battle>().rules.covers.get(i).map(|c| c.level)
}

/// A point `yards` from `from` directly away from `away` (any way if they coincide), kept on
/// the field.
pub fn away_from(world: &World, from: [f32; 2], away: [f32; 2], yards: f32) -> [f32; 2] {
    let d = [from[0] - away[0], from[1] - away[1]];
    let len = (d[0] * d[0] + d[1] * d[1]).sqrt();
    let unit = if len < EPS { [1.0, 0.0] } else { [d[0] / len, d[1] / len] };
    let (w, h) = world.resource::<Battle>().rules.field;
    [
        (from[0] + unit[0] * yards).clamp(-w / 2.0, w / 2.0),
        (from[1] + unit[1] * yards).clamp(-h / 2.0, h / 2.0),
    ]
}

/// Points beside `t` where `e` could stand engaged with it: on the circle of [`close_in`]
/// yards around it, the side facing `e` first, then turning either way, skipping those within
/// a yard of someone else (so that several closing in spread around their foe).
pub fn beside(world: &World, e: Entity, t: Entity) -> Vec<[f32; 2]> {
    let (from, there) = (position(world, e), position(world, t));
    let r = close_in(world);
    let base = (from[1] - there[1]).atan2(from[0] - there[0]);
    let mount = world.get::<Rides>(e).map(|m| m.0);
    let others: Vec<[f32; 2]> = world
        .resource::<TableIndex>()
        .order
        .iter()
        .copied()
        .filter(|&o| o != e && o != t && Some(o) != mount && can_act(world, o))
        .map(|o| position(world, o))
        .collect();
    [0.0f32, 40.0, -40.0, 80.0, -80.0, 120.0, -120.0]
        .into_iter()
        .map(|deg| {
            let a = base + deg.to_radians();
            [there[0] + r * a.cos(), there[1] + r * a.sin()]
        })
        .filter(|&p| on_field(world, p) && others.iter().all(|&o| distance(o, p) >= 1.0))
        .collect()
}
