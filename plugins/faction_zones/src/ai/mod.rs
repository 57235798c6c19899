//! The AI of Factions in zones, at the level each character plays at: [`simple`] (the first
//! AI) or [`tactical`] (the default, which gives its reasons).

use bevy_ecs::prelude::*;
use fray_core::ai::AiLevel;
use fray_core::intent::Submitted;
use fray_core::prelude::Controller;
use fray_core::session::ai_may_act;
use fray_core::table::id;

use crate::decisions::{awaiting, submit};
use crate::intent::FactionZonesIntent;
use crate::phase::Battle;

pub(crate) mod simple;
mod tactical;

/// Decides for the first AI character the rules wait on: a tactical ally that means to
/// guard the target of an attack first, else the target (simple allies never guard).
pub(crate) fn decide(world: &mut World) {
    let target = world.resource::<Battle>().pending.as_ref().map(|p| p.target);
    let is_ai = |e: Entity| world.get::<Controller>(e) == Some(&Controller::Ai);
    let waiting = awaiting(world);
    let guard = waiting.iter().copied().find(|&e| {
        Some(e) != target
            && is_ai(e)
            && fray_core::ai::level(world, e) == AiLevel::Tactical
            && tactical::guards(world, e).is_some()
    });
    let Some(e) =
        guard.or_else(|| waiting.iter().copied().find(|&e| is_ai(e) && target.is_none_or(|t| t == e)))
    else {
        return;
    };
    if !ai_may_act(world) {
        return;
    }
    let intent = fray_core::ai::decided(world, |world| choose(world, e));
    let _ = submit(world, Submitted { actor: id(world, e), intent });
}

/// The AI's decision for `e` now at its level, with its reason when it gives one.
pub fn choose(world: &World, e: Entity) -> (FactionZonesIntent, Option<String>) {
    fray_core::ai::at_level(world, e, simple::choose, tactical::choose)
}
