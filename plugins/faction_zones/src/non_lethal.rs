//! Non-lethal attacks and holds: disarm, shove and grapple force a STR save (none for a target
//! smaller than its attacker; a larger target cannot be disarmed, shoved or grabbed at all).
//! A grabbed character cannot act or react: it may only spend its turn breaking free (a STR
//! save; not against a larger grip), or a nearby ally may spend its main action freeing it.
//! The grabber keeps hold while moving (dragging it along), disarming it, hiding behind it, or
//! attacking one-handed or unarmed; any other action lets go, unless the grabber is larger.

use bevy_ecs::prelude::*;
use fray_core::dice::{RollRecord, TableRng};
use fray_core::intent::{Rejection, Verdict};
use fray_core::location::place_name;
use fray_core::log::{GameLog, LogEvent, Source};
use fray_core::prelude::TableIndex;
use fray_core::table::{can_act, enemies, id, name};

use crate::combat::{save, size, suffer};
use crate::data::ZoneProperty;
use crate::intent::NonLethal;
use crate::phase::{Battle, Fighter, ZoneProperties};
use crate::turns::{distance, nearby, zone};

/// The one holding `t` now: it grabbed `t`, fights on and stands in `t`'s zone.
pub fn grabbed_by(world: &World, t: Entity) -> Option<Entity> {
    let g = world.get::<Fighter>(t)?.grabbed_by?;
    (can_act(world, g) && can_act(world, t) && nearby(world, g, t)).then_some(g)
}

/// Those `a` holds now.
pub fn held_by(world: &World, a: Entity) -> Vec<Entity> {
    let order = &world.resource::<TableIndex>().order;
    order.iter().copied().filter(|&t| grabbed_by(world, t) == Some(a)).collect()
}

/// Zones a shove by `a` moves `t`: none (half a zone, within its own) unless `a` is larger,
/// then 1, 2, 4 or 8 for 1 to 4 sizes of difference.
pub fn shove_reach(world: &World, a: Entity, t: Entity) -> u32 {
    let steps = size(world, a).step().saturating_sub(size(world, t).step());
    if steps == 0 { 0 } else { 1 << (steps - 1) }
}

fn kind_name(kind: &NonLethal) -> &'static str {
    match kind {
        NonLethal::Disarm { .. } => "disarm",
        NonLethal::Shove { .. } => "shove",
        NonLethal::Grapple => "grapple",
    }
}

/// Checks a non-lethal attack by `a` on `t`.
pub fn check(world: &World, a: Entity, t: Entity, kind: &NonLethal) -> Verdict {
    crate::combat::not_a_vehicle(world, a)?;
    if !enemies(world, a, t) {
        return Err(Rejection::new(format!("{} is not an enemy of {}", name(world, t), name(world, a))));
    }
    if !can_act(world, t) {
        return Err(Rejection::new(format!("{} is not fighting", name(world, t))));
    }
    if crate::stealth::concealed(world, t) {
        return Err(Rejection::new(format!("{} is concealed: no one can see it", name(world, t))));
    }
    if !nearby(world, a, t) {
        return Err(Rejection::new(format!(
            "{} is not nearby: a {} reaches its own zone",
            name(world, t),
            kind_name(kind)
        )));
    }
    if size(world, t) > size(world, a) {
        return Err(Rejection::new(format!(
            "{} is larger than {}: it cannot be disarmed, shoved or grabbed by it",
            name(world, t),
            name(world, a)
        )));
    }
    match kind {
        NonLethal::Disarm { weapon } => {
            let f = world.get::<Fighter>(t).ok_or_else(|| Rejection::new("not a combatant"))?;
            if *weapon >= f.sheet.weapons.len() || !f.holds(*weapon) {
                return Err(Rejection::new(format!("{} holds no such weapon", name(world, t))));
            }
        }
        NonLethal::Shove { to: None } => {}
        NonLethal::Shove { to: Some(to) } => {
            let z = world
                .resource::<TableIndex>()
                .location(to)
                .ok_or_else(|| Rejection::new(format!("there is no zone '{to}'")))?;
            let reach = shove_reach(world, a, t);
            let d = zone(world, t).and_then(|from| distance(world, from, z));
            if reach == 0 {
                return Err(Rejection::new(format!(
                    "only a larger character shoves {} out of its zone",
                    name(world, t)
                )));
            }
            if d.is_none_or(|d| d == 0 || d > reach) {
                return Err(Rejection::new(format!(
                    "{} cannot be shoved to {}: {} shoves it up to {reach} zone{}",
                    name(world, t),
                    place_name(world, z),
                    name(world, a),
                    if reach == 1 { "" } else { "s" }
                )));
            }
        }
        NonLethal::Grapple if grabbed_by(world, t) == Some(a) => {
            return Err(Rejection::new(format!("{} already holds {}", name(world, a), name(world, t))));
        }
        NonLethal::Grapple => {}
    }
    Ok(())
}

fn log_effect(world: &mut World, e: Entity, what: &'static str, detail: String) {
    let who = id(world, e);
    world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what, detail });
}

/// `a`'s non-lethal attack lands on `t`: a STR save (none when `a` is larger), then its effect.
pub fn resolve(world: &mut World, a: Entity, t: Entity, kind: &NonLethal) {
    if !can_act(world, t) || !can_act(world, a) || check(world, a, t, kind).is_err() {
        return;
    }
    if size(world, a) > size(world, t) {
        log_effect(world, t, "cannot_resist", id(world, a).to_string());
    } else {
        let str = world.get::<Fighter>(t).map_or(0, |f| f.sheet.str);
        if save(world, t, str, &format!("STR save against a {}", kind_name(kind))) {
            return;
        }
    }
    match kind {
        NonLethal::Disarm { weapon } if free_hand(world, a) => take_weapon(world, a, t, *weapon),
        NonLethal::Disarm { weapon } => drop_weapon(world, t, *weapon),
        NonLethal::Shove { to } => shove(world, a, t, to.as_ref()),
        NonLethal::Grapple => {
            if let Some(mut f) = world.get_mut::<Fighter>(t) {
                f.grabbed_by = Some(a);
            }
            log_effect(world, t, "grabbed", id(world, a).to_string());
        }
    }
}

/// Whether `a` has a hand free to grab a weapon it knocks away: not bearing a shield, not
/// holding anyone.
pub fn free_hand(world: &World, a: Entity) -> bool {
    let shield = world.get::<Fighter>(a).is_some_and(|f| f.shield() > 0);
    !shield && held_by(world, a).is_empty()
}

/// `a` takes `t`'s weapon `w` from its hands: the weapon is `a`'s now (last on its sheet), worn
/// as it was.
fn take_weapon(world: &mut World, a: Entity, t: Entity, w: usize) {
    let Some(mut f) = world.get_mut::<Fighter>(t) else { return };
    if w >= f.sheet.weapons.len() || !f.holds(w) {
        return;
    }
    f.taken.push((w, a));
    let (spec, damaged) = (f.sheet.weapons[w].clone(), f.gear.damaged.contains(&w));
    let weapon = spec.id.clone();
    log_effect(world, t, "disarmed", weapon.clone());
    if let Some(mut f) = world.get_mut::<Fighter>(a) {
        f.sheet.weapons.push(spec);
        if damaged {
            let new = f.sheet.weapons.len() - 1;
            f.gear.damaged.push(new);
        }
    }
    log_effect(world, a, "took_weapon", weapon);
}

/// `t` drops its weapon `w` where it stands.
pub fn drop_weapon(world: &mut World, t: Entity, w: usize) {
    let Some(at) = zone(world, t) else { return };
    let Some(mut f) = world.get_mut::<Fighter>(t) else { return };
    if w >= f.sheet.weapons.len() || !f.holds(w) {
        return;
    }
    f.dropped.push((w, at));
    let weapon = f.sheet.weapons[w].id.clone();
    log_effect(world, t, "disarmed", weapon);
}

/// A shove: a larger shover deals d4 direct damage and pushes up to its reach; a hazard where
/// the target ends deals its die, direct.
fn shove(world: &mut World, a: Entity, t: Entity, to: Option<&fray_core::ids::LocationId>) {
    let source = Source::by(format!("{}'s shove", fray_core::table::name(world, a)), id(world, a), None);
    log_effect(world, t, "shoved", to.map_or_else(String::new, |z| z.to_string()));
    if shove_reach(world, a, t) > 0 {
        let die = world.resource::<Battle>().rules.impaired_die;
        direct(world, t, die, "shove damage", source.clone());
    }
    if let Some(z) = to.and_then(|z| world.resource::<TableIndex>().location(z)) {
        // Pushed out of its zone: out of a grip, and off its mount.
        release(world, t, "shoved out of the zone");
        let mount = world.get_mut::<Fighter>(t).and_then(|mut f| f.rides.take());
        if let Some(mount) = mount {
            log_effect(world, t, "knocked_off", id(world, mount).to_string());
        }
        crate::turns::place(world, t, z, 0);
        end_lost_holds(world);
    }
    let hazard = zone(world, t)
        .and_then(|z| world.get::<ZoneProperties>(z))
        .is_some_and(|p| p.0.contains(&ZoneProperty::Hazard));
    if hazard && fray_core::table::on_table(world, t) {
        let die = world.resource::<Battle>().rules.hazard_die;
        direct(world, t, die, "hazard damage", source);
    }
}

/// Direct damage (no armour) of one die of `faces`.
fn direct(world: &mut World, t: Entity, faces: u32, what: &str, source: Source) {
    let roll = world.resource_mut::<TableRng>().die(faces);
    let told = format!("{} takes {what}", name(world, t));
    let record = RollRecord::sum(format!("{what} on {}", name(world, t)), vec![roll], 0).told(told);
    let who = id(world, t);
    world.resource_mut::<GameLog>().about(&who, LogEvent::Roll(record));
    suffer(world, t, roll, roll, source);
}

/// Ends, and logs, every hold that ended with no one letting go: the holder or the held fell,
/// surrendered or fled, or they no longer share a zone. Called where that happens.
pub fn end_lost_holds(world: &mut World) {
    let order = world.resource::<TableIndex>().order.clone();
    for t in order {
        let Some(g) = world.get::<Fighter>(t).and_then(|f| f.grabbed_by) else { continue };
        if grabbed_by(world, t).is_some() {
            continue;
        }
        let why = if !can_act(world, g) {
            format!("{} is out of the fight", id(world, g))
        } else if !can_act(world, t) {
            "out of the fight".to_owned()
        } else {
            format!("{} is no longer in its zone", id(world, g))
        };
        if let Some(mut f) = world.get_mut::<Fighter>(t) {
            f.grabbed_by = None;
        }
        log_effect(world, t, "released", why);
    }
}

/// Lets go of `t` (logged when it was held).
pub fn release(world: &mut World, t: Entity, why: &str) {
    let held = grabbed_by(world, t).is_some();
    if let Some(mut f) = world.get_mut::<Fighter>(t) {
        f.grabbed_by = None;
    }
    if held {
        log_effect(world, t, "released", why.to_owned());
    }
}

/// What `a` does, for its holds: whether it keeps hold of those it grabbed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Doing {
    /// Moving (the held move along), ending its turn, passing: hold kept.
    Keeps,
    /// Attacking with weapon `w` (none: unarmed): kept one-handed or unarmed.
    Attacking(Option<usize>),
    /// Disarming `t`: kept on `t`.
    Disarming(Entity),
    /// Hiding behind `t`: kept on `t`.
    HidingBehind(Entity),
    /// Anything else: every hold let go.
    Other,
}

/// Lets go of those `a` holds unless what it does keeps hold (or it is larger than them).
pub fn after(world: &mut World, a: Entity, doing: Doing) {
    for t in held_by(world, a) {
        let keeps = size(world, a) > size(world, t)
            || match doing {
                Doing::Keeps => true,
                Doing::Attacking(w) => !crate::combat::weapon(world, a, w).is_some_and(|x| x.two_handed),
                Doing::Disarming(x) | Doing::HidingBehind(x) => x == t,
                Doing::Other => false,
            };
        if !keeps {
            release(world, t, "the grabber did something else");
        }
    }
}

/// Checks `e` breaking free: it is grabbed, by a character not larger.
pub fn check_break_free(world: &World, e: Entity) -> Verdict {
    let g =
        grabbed_by(world, e).ok_or_else(|| Rejection::new(format!("{} is not grabbed", name(world, e))))?;
    if size(world, g) > size(world, e) {
        return Err(Rejection::new(format!(
            "{} is larger: {} cannot break free alone (an ally may free it)",
            name(world, g),
            name(world, e)
        )));
    }
    Ok(())
}

/// `e` spends its turn on a STR save to break free.
pub fn break_free(world: &mut World, e: Entity) {
    let str = world.get::<Fighter>(e).map_or(0, |f| f.sheet.str);
    if save(world, e, str, "STR save to break free") {
        release(world, e, "broke free");
    }
}

/// Checks `e` freeing `ally` (a main action): a nearby grabbed ally.
pub fn check_free(world: &World, e: Entity, ally: Entity) -> Verdict {
    if ally == e || enemies(world, e, ally) || !nearby(world, e, ally) || grabbed_by(world, ally).is_none() {
        return Err(Rejection::new(format!("{} is not a nearby grabbed ally", name(world, ally))));
    }
    Ok(())
}

/// `e` spends its main action on a STR save to free `ally`.
pub fn free(world: &mut World, e: Entity, ally: Entity) {
    crate::turns::act(world, e, true);
    let str = world.get::<Fighter>(e).map_or(0, |f| f.sheet.str);
    if save(world, e, str, &format!("STR save to free {}", name(world, ally))) {
        release(world, ally, &format!("freed by {}", id(world, e)));
    }
}

/// Checks `e` picking up its weapon `w` (a bonus action): lying in its zone.
pub fn check_pick_up(world: &World, e: Entity, w: usize) -> Verdict {
    let here = zone(world, e);
    let f = world.get::<Fighter>(e).ok_or_else(|| Rejection::new("not a combatant"))?;
    if f.dropped.iter().any(|&(d, at)| d == w && Some(at) == here) {
        Ok(())
    } else {
        Err(Rejection::new(format!("no weapon of {} lies here", name(world, e))))
    }
}

/// `e` picks up its weapon `w`.
pub fn pick_up(world: &mut World, e: Entity, w: usize) {
    crate::turns::act(world, e, false);
    let Some(mut f) = world.get_mut::<Fighter>(e) else { return };
    f.dropped.retain(|&(d, _)| d != w);
    let weapon = f.sheet.weapons.get(w).map(|x| x.id.clone()).unwrap_or_default();
    log_effect(world, e, "picked_up", weapon);
}
