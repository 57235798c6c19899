//! Strategic locations (or zones), "no location" (the open field), and the accessibility
//! graph. Which location may be entered from which is data: each location lists where it
//! may be entered from. What entering costs, and what a location does, is the ruleset's.

use std::collections::VecDeque;

use bevy_ecs::prelude::*;

use crate::ids::LocationId;
use crate::table::{Occupies, TableIndex};
use crate::tokens::Counters;

/// A strategic location, or the open field (which also carries [`OpenField`]).
#[derive(Component, Clone, Debug)]
#[require(Counters)]
pub struct Location {
    /// Stable id.
    pub id: LocationId,
    /// Shown name.
    pub name: String,
    /// Centre on the board (board units).
    pub position: [f32; 2],
    /// Width and height on the board (board units).
    pub size: [f32; 2],
}

/// Marks the location that stands for "no location".
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct OpenField;

/// The locations this one may be entered from.
#[derive(Component, Clone, Debug, Default)]
pub struct EnteredFrom(pub Vec<Entity>);

/// Where a location `size` large that the rules put down during the fight goes: centred at
/// `at`, else at the nearest spot around it (rings of a quarter of its size, up to ten) where
/// its rectangle, with `gap` all round, covers no other location's. A place the rules add
/// (caltrops around someone) never hides one the scenario drew.
pub fn clear_spot(world: &mut World, at: [f32; 2], size: [f32; 2], gap: f32) -> [f32; 2] {
    let mut places = world.query_filtered::<&Location, Without<OpenField>>();
    let taken: Vec<([f32; 2], [f32; 2])> = places.iter(world).map(|l| (l.position, l.size)).collect();
    clear_of(&taken, at, size, gap)
}

/// [`clear_spot`] among `taken` places (centre, size).
fn clear_of(taken: &[([f32; 2], [f32; 2])], at: [f32; 2], size: [f32; 2], gap: f32) -> [f32; 2] {
    let clear = |c: [f32; 2]| {
        taken.iter().all(|(p, s)| {
            (c[0] - p[0]).abs() >= (size[0] + s[0]) / 2.0 + gap
                || (c[1] - p[1]).abs() >= (size[1] + s[1]) / 2.0 + gap
        })
    };
    let step = [size[0] / 4.0, size[1] / 4.0];
    // Ring by ring, each spot on the ring's edge in a fixed order: the same spot every time.
    for ring in 0..=10i32 {
        let mut best: Option<([f32; 2], f32)> = None;
        for i in -ring..=ring {
            for j in -ring..=ring {
                if i.abs() != ring && j.abs() != ring {
                    continue;
                }
                let c = [at[0] + i as f32 * step[0], at[1] + j as f32 * step[1]];
                let d = (c[0] - at[0]).powi(2) + (c[1] - at[1]).powi(2);
                if clear(c) && best.is_none_or(|(_, b)| d < b) {
                    best = Some((c, d));
                }
            }
        }
        if let Some((c, _)) = best {
            return c;
        }
    }
    at
}

/// The open field ("no location").
pub fn field(world: &World) -> Option<Entity> {
    world.get_resource::<TableIndex>().and_then(|i| i.locations.get(&LocationId::field()).copied())
}

/// Whether this place is the open field.
pub fn is_field(world: &World, place: Entity) -> bool {
    world.get::<OpenField>(place).is_some()
}

/// The place an occupant is in.
pub fn place_of(world: &World, occupant: Entity) -> Option<Entity> {
    world.get::<Occupies>(occupant).map(|o| o.0)
}

/// Whether two occupants are local to each other (same location, or both in none).
pub fn are_local(world: &World, a: Entity, b: Entity) -> bool {
    matches!((place_of(world, a), place_of(world, b)), (Some(x), Some(y)) if x == y)
}

/// A place's shown name ("no location" for the field).
pub fn place_name(world: &World, place: Entity) -> String {
    world.get::<Location>(place).map_or_else(|| "an unknown place".to_owned(), |l| l.name.clone())
}

/// A place's name as a sentence reads it: "the Keep", "no location", "the raft".
pub fn the_place(world: &World, place: Entity) -> String {
    let name = place_name(world, place);
    if is_field(world, place) || name.to_lowercase().starts_with("the ") {
        name
    } else {
        format!("the {name}")
    }
}

/// A place's stable id.
pub fn place_id(world: &World, place: Entity) -> LocationId {
    world.get::<Location>(place).map_or_else(LocationId::field, |l| l.id.clone())
}

/// Whether `to` may be entered from `from`.
pub fn can_enter(world: &World, from: Entity, to: Entity) -> bool {
    from != to && !is_field(world, to) && world.get::<EnteredFrom>(to).is_some_and(|e| e.0.contains(&from))
}

/// Why `to` may not be entered from `from`, in words, or `None` if it may.
pub fn why_not_enter(world: &World, from: Entity, to: Entity) -> Option<String> {
    if from == to {
        return Some(format!("already in {}", the_place(world, to)));
    }
    if is_field(world, to) {
        return Some("the open field is reached by evacuating, not by entering".to_owned());
    }
    if can_enter(world, from, to) {
        return None;
    }
    let Some(entered_from) = world.get::<EnteredFrom>(to) else {
        return Some("that is not a location of this table".to_owned());
    };
    let names: Vec<String> = entered_from.0.iter().map(|&p| the_place(world, p)).collect();
    Some(match names.as_slice() {
        [] => format!("{} cannot be entered from anywhere", the_place(world, to)),
        _ => format!("{} can only be entered from {}", the_place(world, to), join_or(&names)),
    })
}

/// Every location that may be entered from `from`, in scenario order.
pub fn accessible_from(world: &World, from: Entity) -> Vec<Entity> {
    let Some(index) = world.get_resource::<TableIndex>() else {
        return Vec::new();
    };
    index.location_order.iter().copied().filter(|&to| can_enter(world, from, to)).collect()
}

/// How many moves (an enter or an evacuate each) reach each place from `from`, up to `max`
/// moves; `from` itself is at 0. Ignores costs and turns: this is the reach view.
pub fn reach(world: &World, from: Entity, max: u32) -> Vec<(Entity, u32)> {
    let mut dist = vec![(from, 0u32)];
    let mut queue = VecDeque::from([(from, 0u32)]);
    while let Some((at, d)) = queue.pop_front() {
        if d == max {
            continue;
        }
        let mut next = accessible_from(world, at);
        if !is_field(world, at) {
            next.extend(field(world));
        }
        for to in next {
            if !dist.iter().any(|(e, _)| *e == to) {
                dist.push((to, d + 1));
                queue.push_back((to, d + 1));
            }
        }
    }
    dist
}

fn join_or(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {}", init.join(", "), last),
    }
}

#[cfg(test)]
mod tests {
    use super::clear_of;

    #[test]
    fn a_place_put_down_on_another_moves_to_the_nearest_clear_spot_and_a_clear_one_stays() {
        let gatehouse = ([0.0, 0.0], [200.0, 140.0]);
        // Clear already: it stays where it was asked.
        assert_eq!(clear_of(&[gatehouse], [400.0, 0.0], [180.0, 130.0], 20.0), [400.0, 0.0]);
        // On the gatehouse: moved just clear of it (with the gap), by the nearest way out.
        let moved = clear_of(&[gatehouse], [10.0, 30.0], [180.0, 130.0], 20.0);
        let apart_x = (moved[0] - 0.0).abs() >= (180.0 + 200.0) / 2.0 + 20.0;
        let apart_y = (moved[1] - 0.0).abs() >= (130.0 + 140.0) / 2.0 + 20.0;
        assert!(apart_x || apart_y, "still on the gatehouse at {moved:?}");
        assert!(moved[1] > 0.0 && moved[0] == 10.0, "out by the near (upper) side: {moved:?}");
        // Between two places: clear of both.
        let keep = ([0.0, 190.0], [200.0, 140.0]);
        let moved = clear_of(&[gatehouse, keep], [10.0, 30.0], [180.0, 130.0], 20.0);
        for (p, s) in [gatehouse, keep] {
            let clear = (moved[0] - p[0]).abs() >= (180.0 + s[0]) / 2.0 + 20.0
                || (moved[1] - p[1]).abs() >= (130.0 + s[1]) / 2.0 + 20.0;
            assert!(clear, "{moved:?} covers the place at {p:?}");
        }
    }
}
