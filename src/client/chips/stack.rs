//! Where each counter chip stands, as plain data: stacks at their owners' corners, chips
//! being dragged under the pointer, and chips an allocation gives away on their targets.

use bevy::prelude::*;
use fray_core::prelude::CounterKind;

/// Where a chip goes, worked out by [`stack_chips`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct ChipPlace {
    pub(super) drawing: Entity,
    /// Where it stands and whether it shows (none: it stays as it is).
    pub(super) at: Option<(Vec3, bool)>,
    /// The GM moved it for an allocation: only the GM's screen sees it there.
    pub(super) moved: bool,
    /// It may be dragged: its owner is allocating its kind.
    pub(super) draggable: bool,
}

/// Where stacks stand: a kind's stack on an owner's token, a location's at its card, and an
/// owner's token itself.
pub(super) struct Bases<T, C, A> {
    pub(super) on_token: T,
    pub(super) on_card: C,
    pub(super) token_at: A,
}

/// Places every chip (`(owner, kind, counter, drawing)`, in stacking order): each stack shows
/// up to four chips, each a little higher, like a stack of coins; the chip being dragged
/// follows the pointer; the chips the allocator (who, and the kind given) has given away so
/// far (`given`: counters per target) sit along their targets' top edges. Also returns where the table's screen still sees the moved chips: on top of the
/// stack they left.
pub(super) fn stack_chips(
    chips: &[(Entity, CounterKind, Entity, Entity)],
    (allocator, given): (Option<(Entity, CounterKind)>, &[(Entity, u32)]),
    drag: Option<(Entity, Vec2)>,
    bases: Bases<
        impl Fn(Entity, CounterKind) -> Option<Vec3>,
        impl Fn(Entity) -> Option<Vec3>,
        impl Fn(Entity) -> Option<Vec3>,
    >,
) -> (Vec<ChipPlace>, Vec<(Entity, Vec3, bool)>) {
    let mut places = Vec::with_capacity(chips.len());
    // The allocator's chips the GM moved, and how many stay in its stack.
    let (mut moved, mut left_in_stack, mut stack_base) = (Vec::new(), 0, None);
    let mut given = given.to_vec();
    let mut stack: (Option<(Entity, CounterKind)>, u32) = (None, 0);
    let mut incoming = Vec::new();
    for &(owner, kind, _, drawing) in chips {
        if stack.0 != Some((owner, kind)) {
            stack = (Some((owner, kind)), 0);
        }
        let allocating = allocator == Some((owner, kind));
        let moves =
            allocating && (drag.is_some_and(|(d, _)| d == drawing) || given.iter().any(|(_, n)| *n > 0));
        if moves {
            moved.push(drawing);
        }
        let mut place = ChipPlace { drawing, at: None, moved: moves, draggable: allocating };
        if let Some((_, at)) = drag.filter(|(d, _)| *d == drawing) {
            place.at = Some((at.extend(8.0), true));
        } else if allocating && let Some((target, k)) = next_given(&mut given, &mut incoming) {
            let along = Vec3::new(-12.0 + (k.min(5) as f32) * 5.0, 4.0, 3.5 + k as f32 * 0.01);
            place.at = (bases.token_at)(target).map(|base| (base + along, true));
        } else {
            let n = stack.1;
            stack.1 += 1;
            if let Some(base) = (bases.on_token)(owner, kind).or_else(|| (bases.on_card)(owner)) {
                if allocating {
                    left_in_stack = n + 1;
                    stack_base = Some(base);
                }
                place.at = Some((base + Vec3::new(0.0, lift(n), 0.01 * n as f32), n < 4));
            }
        }
        places.push(place);
    }
    let base = stack_base.or_else(|| allocator.and_then(|(who, kind)| (bases.on_token)(who, kind)));
    (places, base.map_or_else(Vec::new, |base| still_stacked(moved, left_in_stack, base)))
}

/// How much higher the `n`th chip of a stack sits (three more show above the first).
pub(super) fn lift(n: u32) -> f32 {
    n.min(3) as f32 * 2.5
}

/// The target of the next chip the plan gives away, and how many arrived there before it.
fn next_given(given: &mut [(Entity, u32)], incoming: &mut Vec<(Entity, u32)>) -> Option<(Entity, u32)> {
    let slot = given.iter_mut().find(|(_, n)| *n > 0)?;
    slot.1 -= 1;
    let target = slot.0;
    let before = match incoming.iter_mut().find(|(t, _)| *t == target) {
        Some((_, k)) => {
            *k += 1;
            *k
        }
        None => {
            incoming.push((target, 0));
            0
        }
    };
    Some((target, before))
}

/// Where the table's screen still sees the moved chips: on top of the stack they left, which
/// still holds `left` chips at `base`.
fn still_stacked(moved: Vec<Entity>, left: u32, base: Vec3) -> Vec<(Entity, Vec3, bool)> {
    let place = |(i, chip): (usize, Entity)| {
        let n = left + i as u32;
        (chip, base + Vec3::new(0.0, lift(n), 0.01 * n as f32), n < 4)
    };
    moved.into_iter().enumerate().map(place).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(n: u32) -> Entity {
        Entity::from_raw_u32(n).expect("a valid index")
    }

    const KIND: CounterKind = CounterKind::new(0, "point", "point");
    const TOKEN_AT: Vec3 = Vec3::new(100.0, 0.0, 0.0);

    fn place(
        chips: &[(Entity, CounterKind, Entity, Entity)],
        plan: (Option<(Entity, CounterKind)>, &[(Entity, u32)]),
        drag: Option<(Entity, Vec2)>,
    ) -> (Vec<ChipPlace>, Vec<(Entity, Vec3, bool)>) {
        let bases = Bases {
            on_token: |owner: Entity, _| {
                (owner == e(1) || owner == e(2)).then_some(TOKEN_AT + Vec3::X * owner.index_u32() as f32)
            },
            on_card: |_| None,
            token_at: |owner: Entity| {
                (owner == e(1) || owner == e(2)).then_some(TOKEN_AT + Vec3::X * owner.index_u32() as f32)
            },
        };
        stack_chips(chips, plan, drag, bases)
    }

    #[test]
    fn a_stack_shows_four_chips_each_higher_and_keeps_the_rest_hidden() {
        let kind = KIND;
        let chips: Vec<_> = (0..6).map(|i| (e(1), kind, e(10 + i), e(20 + i))).collect();
        let (places, still) = place(&chips, (None, &[]), None);
        let shown: Vec<bool> = places.iter().map(|p| p.at.expect("placed").1).collect();
        assert_eq!(shown, [true, true, true, true, false, false]);
        let heights: Vec<f32> = places.iter().map(|p| p.at.expect("placed").0.y).collect();
        assert!(heights[0] < heights[1] && heights[1] < heights[2] && heights[2] < heights[3]);
        assert!(places.iter().all(|p| !p.moved && !p.draggable));
        assert!(still.is_empty());
    }

    #[test]
    fn chips_given_away_sit_on_their_target_and_the_table_still_sees_them_in_the_stack() {
        let kind = KIND;
        let chips: Vec<_> = (0..3).map(|i| (e(1), kind, e(10 + i), e(20 + i))).collect();
        let (places, still) = place(&chips, (Some((e(1), kind)), &[(e(2), 2)]), None);
        let target = TOKEN_AT + Vec3::X * 2.0;
        assert_eq!(
            places[0].at.expect("placed").0.truncate(),
            (target + Vec3::new(-12.0, 4.0, 0.0)).truncate()
        );
        assert_eq!(
            places[1].at.expect("placed").0.truncate(),
            (target + Vec3::new(-7.0, 4.0, 0.0)).truncate()
        );
        assert!(places[0].moved && places[1].moved && !places[2].moved);
        assert!(places.iter().all(|p| p.draggable));
        // The one left stands first in the stack; the two given away above it, on the table's
        // screen only.
        let stack = TOKEN_AT + Vec3::X;
        assert_eq!(places[2].at.expect("placed").0, stack);
        assert_eq!(still.iter().map(|s| s.0).collect::<Vec<_>>(), [e(20), e(21)]);
        assert_eq!(still[0].1.y, stack.y + lift(1));
    }

    #[test]
    fn the_dragged_chip_follows_the_pointer_above_everything() {
        let kind = KIND;
        let chips = [(e(1), kind, e(10), e(20))];
        let (places, still) = place(&chips, (Some((e(1), kind)), &[]), Some((e(20), Vec2::new(5.0, 6.0))));
        assert_eq!(places[0].at, Some((Vec3::new(5.0, 6.0, 8.0), true)));
        assert!(places[0].moved);
        assert_eq!(still.len(), 1);
    }
}
