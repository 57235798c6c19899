//! The upkeep between Fast and Slow turns (hazards grow and strike, poison bites,
//! reinforcements arrive to take a Slow turn) and the end of the round (stalled traps re-arm,
//! poison in its last round runs out).

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::log::{GameLog, LogEvent, Source};
use fray_core::phase::{RulesStep, go_to};
use fray_core::prelude::TableIndex;
use fray_core::table::{id, on_table};

use crate::combat::damage;
use crate::phase::{Battle, FastSlowPhase, Fighter, Speed};
use crate::schedule::FastSlowSystems;
use crate::turns::{distance, position};

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(RulesStep, upkeep.in_set(FastSlowSystems::Upkeep))
        .add_systems(RulesStep, end_of_round.in_set(FastSlowSystems::EndOfRound));
}

fn upkeep(world: &mut World) {
    hazards(world);
    poison(world);
    reinforcements(world);
    go_to(world, FastSlowPhase::SlowTurns);
}

/// Each hazard grows, then strikes everyone on the field inside it.
fn hazards(world: &mut World) {
    let order = world.resource::<TableIndex>().order.clone();
    let count = world.resource::<Battle>().hazards.len();
    for i in 0..count {
        let hazard = {
            let mut battle = world.resource_mut::<Battle>();
            let h = &mut battle.hazards[i];
            h.radius += h.spec.grows;
            h.clone()
        };
        let detail = format!("{} reaches {:.1} Paces", hazard.spec.name, hazard.radius);
        world.resource_mut::<GameLog>().push(None, LogEvent::Effect { what: "hazard", detail });
        let centre = [hazard.spec.at.0, hazard.spec.at.1];
        for &e in &order {
            let inside = on_table(world, e)
                && world.get::<Fighter>(e).is_some_and(|f| !f.waiting())
                && distance(position(world, e), centre) <= hazard.radius;
            if inside {
                let source = Source::named(hazard.spec.name.clone());
                damage(world, e, hazard.spec.damage, 0, source, hazard.spec.to_health);
            }
        }
    }
}

/// The poisoned lose a stamina point.
fn poison(world: &mut World) {
    let order = world.resource::<TableIndex>().order.clone();
    for e in order {
        if on_table(world, e) && world.get::<Fighter>(e).is_some_and(|f| f.poisoned > 0) {
            damage(world, e, 1, 0, Source::named("poison"), false);
        }
    }
}

/// Those whose round it is arrive, to take a Slow turn this round.
fn reinforcements(world: &mut World) {
    let round = world.resource::<Battle>().round;
    let order = world.resource::<TableIndex>().order.clone();
    for e in order {
        let arrives = world.get::<Fighter>(e).is_some_and(|f| f.joins.is_some_and(|r| r <= round));
        if !arrives {
            continue;
        }
        if let Some(mut f) = world.get_mut::<Fighter>(e) {
            f.joins = None;
            f.speed = Some(Speed::Slow);
            f.acted = false;
        }
        let who = id(world, e);
        world
            .resource_mut::<GameLog>()
            .about(&who, LogEvent::Effect { what: "arrived", detail: "reinforcements".to_owned() });
    }
}

fn end_of_round(world: &mut World) {
    let round = world.resource::<Battle>().round;
    let rearmed: Vec<String> = {
        let mut battle = world.resource_mut::<Battle>();
        battle
            .traps
            .iter_mut()
            .filter(|t| t.stalled_until.is_some_and(|r| r <= round))
            .map(|t| {
                t.stalled_until = None;
                t.spec.name.clone()
            })
            .collect()
    };
    for name in rearmed {
        world.resource_mut::<GameLog>().push(None, LogEvent::Effect { what: "trap_rearmed", detail: name });
    }
    let order = world.resource::<TableIndex>().order.clone();
    for e in order {
        let Some(mut f) = world.get_mut::<Fighter>(e) else { continue };
        if f.poisoned == 0 {
            continue;
        }
        f.poisoned -= 1;
        if f.poisoned == 0 {
            let who = id(world, e);
            world
                .resource_mut::<GameLog>()
                .about(&who, LogEvent::Effect { what: "poison_ran_out", detail: String::new() });
        }
    }
    go_to(world, FastSlowPhase::RoundStart);
}
