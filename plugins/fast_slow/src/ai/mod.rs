//! Fast & Slow's AI, at the level each combatant plays at: [`simple`] (the first AI) or
//! [`tactical`] (the default, which gives its reasons).

use bevy_ecs::prelude::*;
use fray_core::intent::Submitted;
use fray_core::prelude::Controller;
use fray_core::session::ai_may_act;
use fray_core::table::id;

use crate::decisions::{awaiting, submit};
use crate::intent::FastSlowIntent;

pub(crate) mod simple;
mod tactical;

/// Decides for every AI combatant the rules wait on.
pub(crate) fn decide(world: &mut World) {
    for e in awaiting(world) {
        // A decision that ended the fight ends the deciding.
        if !crate::ending::goes_on(world) {
            return;
        }
        if world.get::<Controller>(e) != Some(&Controller::Ai) || !ai_may_act(world) {
            continue;
        }
        let intent = fray_core::ai::decided(world, |world| choose(world, e));
        let _ = submit(world, Submitted { actor: id(world, e), intent });
    }
}

/// The AI's decision for `e` now at its level, with its reason when it gives one.
pub fn choose(world: &World, e: Entity) -> (FastSlowIntent, Option<String>) {
    fray_core::ai::at_level(world, e, simple::choose, tactical::choose)
}
