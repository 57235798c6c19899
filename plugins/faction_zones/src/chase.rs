//! Fleeing the fight: a long chase settled at once. One standing in a zone marked `Exit` may
//! spend its turn fleeing. Unseen (concealed) or faster than every enemy still fighting, it
//! gets away; slower than any, it cannot (refused, with who is faster); as fast as the
//! fastest, an AGI save: a pass gets away (fled), a failure is caught where it stands, its
//! turn spent. A mount that gets away carries its riders with it.

use bevy_ecs::prelude::*;
use fray_core::intent::{Rejection, Verdict};
use fray_core::log::{GameLog, LogEvent};
use fray_core::prelude::{Status, TableIndex};
use fray_core::table::{can_act, enemies, id, name, set_status};

use crate::combat::{save, zone_has};
use crate::data::ZoneProperty;
use crate::phase::Fighter;
use crate::turns::speed;

/// How a flight goes, before any die.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flight {
    /// Faster than every enemy fighting: it gets away with no save.
    Outruns,
    /// As fast as the fastest enemy: an AGI save.
    Save,
}

/// Checks `e` fleeing the fight now.
pub fn check_flee(world: &World, e: Entity) -> Verdict<Flight> {
    if !zone_has(world, e, ZoneProperty::Exit) {
        return Err(Rejection::new(format!("{} is not at a way out (a zone marked Exit)", name(world, e))));
    }
    if let Some(m) = crate::mounts::mount_of(world, e) {
        return Err(Rejection::new(format!(
            "{} rides {}: the mount flees, carrying it (or it dismounts first)",
            name(world, e),
            name(world, m)
        )));
    }
    if crate::stealth::concealed(world, e) {
        // No one sees it go.
        return Ok(Flight::Outruns);
    }
    let own = speed(world, e);
    let order = &world.resource::<TableIndex>().order;
    let fastest = order
        .iter()
        .copied()
        .filter(|&x| {
            enemies(world, e, x) && can_act(world, x) && crate::non_lethal::grabbed_by(world, x).is_none()
        })
        .map(|x| (x, speed(world, x)))
        .max_by_key(|&(_, v)| v);
    match fastest {
        Some((x, v)) if v > own => {
            // A concealed pursuer still runs it down, but is not named.
            let who = if crate::stealth::concealed(world, x) {
                "Someone unseen".to_owned()
            } else {
                name(world, x)
            };
            Err(Rejection::new(format!(
                "{who} is faster ({v} zones to {own}): {} cannot get away",
                name(world, e)
            )))
        }
        Some((_, v)) if v == own => Ok(Flight::Save),
        _ => Ok(Flight::Outruns),
    }
}

/// `e` flees (its turn spent): away, or caught where it stands.
pub fn flee(world: &mut World, e: Entity, flight: Flight) {
    let away = match flight {
        Flight::Outruns => true,
        Flight::Save => {
            let agi = world.get::<Fighter>(e).map_or(0, |f| f.sheet.agi);
            save(world, e, agi, "AGI save to get away")
        }
    };
    let who = id(world, e);
    let what = if away { "got_away" } else { "caught" };
    world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what, detail: String::new() });
    if !away {
        return;
    }
    // A mount carries its riders away with it.
    for r in crate::mounts::riders(world, e) {
        let (rider, detail) = (id(world, r), format!("carried by {who}"));
        world.resource_mut::<GameLog>().about(&rider, LogEvent::Effect { what: "got_away", detail });
        set_status(world, r, Status::Fled);
    }
    set_status(world, e, Status::Fled);
    crate::non_lethal::end_lost_holds(world);
}
