//! Morale at the end of the round: a faction reduced this round to half or less of its
//! original numbers (one fighting alone: to half or less of its health) makes a group WIT
//! save; those who fail retreat (or surrender, with a fighting enemy in their zone), those who
//! pass are steady for the rest of the fight; the fearless are immune.

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::log::{GameLog, LogEvent};
use fray_core::phase::{RulesStep, go_to};
use fray_core::prelude::{Status, TableIndex};

use crate::activation::members;
use crate::combat::save;
use crate::phase::{Battle, FactionZonesPhase, Fighter};
use crate::schedule::FactionZonesSystems;
use fray_core::table::set_status;

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(RulesStep, end_of_round.in_set(FactionZonesSystems::EndOfRound));
}

/// Whether a faction must check morale: `original` characters, `before` standing at the round's
/// start, `now` standing; alone, its health at the start and now, of `max`.
pub fn must_check(original: u32, before: u32, now: u32, alone: Option<(u32, u32, u32)>) -> bool {
    match alone {
        Some((start, health, max)) => shaken_alone(health, max) && !shaken_alone(start, max),
        None => now * 2 <= original && before * 2 > original,
    }
}

/// Whether one fighting alone has lost half the health it fights with: the health above the
/// half at which it is incapacitated (RULES.md: the text's "half its maximum health" would be
/// the incapacitation itself). Of 8: at 6 or less.
pub fn shaken_alone(health: u32, max: u32) -> bool {
    let fighting = max - max / 2;
    max.saturating_sub(health) * 2 >= fighting
}

fn end_of_round(world: &mut World) {
    let sides: Vec<_> = world.resource::<TableIndex>().sides.iter().map(|(s, _)| s.clone()).collect();
    for side in sides {
        let battle = world.resource::<Battle>();
        let original = battle.original.iter().find(|(s, _)| *s == side).map_or(0, |x| x.1);
        let before = battle.standing_at_start.iter().find(|(s, _)| *s == side).map_or(0, |x| x.1);
        let standing = members(world, &side);
        let alone = (original == 1)
            .then(|| {
                standing
                    .first()
                    .and_then(|&e| world.get::<Fighter>(e))
                    .map(|f| (f.health_at_start, f.health, f.sheet.health))
            })
            .flatten();
        if standing.is_empty() || (original == 1 && alone.is_none()) {
            continue;
        }
        if !must_check(original, before, standing.len() as u32, alone) {
            continue;
        }
        world
            .resource_mut::<GameLog>()
            .push(None, LogEvent::Effect { what: "morale_check", detail: side.to_string() });
        for e in standing {
            let Some(f) = world.get::<Fighter>(e).cloned() else { continue };
            if f.sheet.fearless || f.sheet.vehicle || f.steady {
                continue;
            }
            if save(world, e, f.sheet.wit, "WIT save for morale") {
                if let Some(mut f) = world.get_mut::<Fighter>(e) {
                    f.steady = true;
                }
            } else if cornered(world, e) && f.sheet.carries == 0 {
                crate::turns::give_up(world, e);
            } else {
                set_status(world, e, Status::Fled);
                crate::non_lethal::end_lost_holds(world);
            }
        }
    }
    world.resource_mut::<Battle>().started = false;
    // A faction that broke may leave one in the fight: then the fight ends, no new round.
    if crate::ending::goes_on(world) {
        go_to(world, FactionZonesPhase::RoundStart);
    }
}

/// Whether a fighting enemy stands in `e`'s zone: one who breaks there cannot get away, and
/// surrenders instead of retreating.
fn cornered(world: &World, e: Entity) -> bool {
    let order = &world.resource::<TableIndex>().order;
    order.iter().any(|&x| {
        fray_core::table::enemies(world, e, x)
            && fray_core::table::can_act(world, x)
            && crate::turns::nearby(world, e, x)
    })
}
