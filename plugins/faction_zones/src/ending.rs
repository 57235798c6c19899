//! The end of the fight: at most one faction has anyone fighting, or the round limit.

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::phase::{RulesStep, current, go_to};
use fray_core::ruleset::end_fight;

use crate::activation::factions_in_the_fight;
use crate::phase::{Battle, FactionZonesPhase};
use crate::schedule::FactionZonesSystems;

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(RulesStep, check_end.in_set(FactionZonesSystems::Ending));
}

fn check_end(world: &mut World) {
    if current::<FactionZonesPhase>(world) != FactionZonesPhase::Over
        && factions_in_the_fight(world).len() <= 1
    {
        finish(world, "one faction or none is left fighting");
    }
}

/// Ends the fight.
pub fn finish(world: &mut World, reason: &str) {
    let sides = factions_in_the_fight(world);
    let winner = (sides.len() == 1).then(|| sides[0].clone());
    let clock = world.resource::<Battle>().round;
    {
        let mut battle = world.resource_mut::<Battle>();
        battle.active = None;
        battle.pending = None;
        battle.leaving = None;
        battle.to_act = None;
    }
    end_fight(world, winner, clock, reason);
    go_to(world, FactionZonesPhase::Over);
}
