//! The board's own logic that needs no window: an allocation built by dragging chips.

use bevy_ecs::world::World;
use fray::client::chips::AllocationPlan;
use fray_core::prelude::Combatant;

#[test]
fn dragged_chips_build_an_allocation_target_by_target() {
    let mut world = World::new();
    let imp = world.spawn(Combatant { id: "imp".into(), name: "Imp".into() }).id();
    let brute = world.spawn(Combatant { id: "brute".into(), name: "Brute".into() }).id();
    let plan = AllocationPlan::default().changed(brute, 1).changed(imp, 1).changed(brute, 1);
    assert_eq!(plan.allocations, vec![(brute, 2), (imp, 1)], "chips add up per target, in the order given");
    assert_eq!(plan.total(), 3);
    assert_eq!(
        plan.given(&world),
        vec![("brute".into(), 2), ("imp".into(), 1)],
        "the allocation names targets by their stable ids"
    );
    let back = plan.changed(imp, -1);
    assert_eq!(back.allocations, vec![(brute, 2)], "a target whose last chip is taken back drops out");
    assert_eq!(back.changed(imp, -1), back, "taking a chip from a target that has none changes nothing");
}
