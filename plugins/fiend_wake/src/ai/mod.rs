//! Fiend Wake's AI, at the level each combatant plays at: [`simple`] (the first AI, which
//! draws its bids and targets from the table's dice) or [`tactical`] (the default, which gives
//! its reasons and draws on a generator of its own).

use bevy_ecs::prelude::*;
use fray_core::ai::AiLevel;

use crate::intent::FiendWakeIntent;

mod simple;
mod tactical;

pub use simple::{fallback, in_reach, intercept_threshold};

/// The next intent the AI submits for `e`, with its reason when it gives one.
pub fn decide(world: &mut World, e: Entity) -> (FiendWakeIntent, Option<String>) {
    match fray_core::ai::level(world, e) {
        AiLevel::Simple => (simple::decide(world, e), None),
        AiLevel::Tactical => {
            let (intent, why) = tactical::decide(world, e);
            (intent, Some(why))
        }
    }
}
