//! FateWalker's AI, at the level each combatant plays at: [`simple`] (the first AI: shoot or
//! strike when worthwhile, else close in) or [`tactical`] (the default: also holds, fires
//! first from a hold, runs for cover, changes pace on the move), which gives its reasons.

use bevy_ecs::prelude::*;

use crate::intent::FateWalkerIntent;

mod simple;
mod tactical;

pub use simple::fallback;

/// The next intent the AI submits for `e`, with its reason when it gives one.
pub fn decide(world: &World, e: Entity) -> (FateWalkerIntent, Option<String>) {
    fray_core::ai::at_level(world, e, simple::decide, tactical::decide)
}
