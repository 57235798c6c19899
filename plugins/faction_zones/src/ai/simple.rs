//! The `simple` AI of Factions in zones: a plain opponent. Its faction acts first when it holds the
//! initiative; it activates its characters in scenario order and never passes while one can
//! act; a character attacks the nearest enemy it can reach (a nearby incapacitated one last,
//! never one who surrendered), else moves toward the nearest enemy it can see; it counters when it can, else dodges; it
//! accepts a stunt rather than risk falling; grabbed, it tries to break free.

use bevy_ecs::prelude::*;
use fray_core::location::place_id;
use fray_core::prelude::{Side, Status, TableIndex};
use fray_core::table::{can_act, enemies, id};

use crate::combat::{check_attack, check_counter};
use crate::decisions::validate;
use crate::intent::FactionZonesIntent;
use crate::phase::{Battle, Fighter};
use crate::turns::{between, distance, zone};

pub(super) fn weapons(world: &World, e: Entity) -> Vec<Option<usize>> {
    let n = world.get::<Fighter>(e).map_or(0, |f| f.sheet.weapons.len());
    let mut all: Vec<Option<usize>> = (0..n).map(Some).collect();
    all.push(None);
    all
}

/// The AI's decision for `e` now (always one the rules accept, ending the turn at worst).
pub fn choose(world: &World, e: Entity) -> FactionZonesIntent {
    let battle = world.resource::<Battle>();
    if battle.leaving.as_ref().is_some_and(|l| l.asked.contains(&e)) {
        return weapons(world, e)
            .into_iter()
            .find(|&w| crate::combat::check_opportunity(world, e, w).is_ok())
            .map_or(FactionZonesIntent::LetGo, |weapon| FactionZonesIntent::OpportunityAttack { weapon });
    }
    if battle.pending.as_ref().is_some_and(|p| p.target != e) {
        // Asked as a possible guard (the AI's own never are: see `decide`).
        return FactionZonesIntent::Guard;
    }
    if let Some(p) = battle.pending.as_ref().filter(|p| p.target == e) {
        if p.stunt.is_some() && would_fall(world, p.attacker, e, p.weapon) {
            return FactionZonesIntent::AcceptStunt;
        }
        if !p.reactable {
            return FactionZonesIntent::TakeIt;
        }
        return weapons(world, e)
            .into_iter()
            .find(|&w| check_counter(world, e, w).is_ok())
            .map_or(FactionZonesIntent::Dodge, |weapon| FactionZonesIntent::Counter { weapon });
    }
    if battle.to_act.is_some() && crate::non_lethal::grabbed_by(world, e).is_some() {
        let free = FactionZonesIntent::BreakFree;
        return if validate(world, e, &free).is_ok() {
            free
        } else if battle.active == Some(e) {
            FactionZonesIntent::EndTurn
        } else {
            FactionZonesIntent::Activate
        };
    }
    if battle.active != Some(e) {
        if battle.to_act.is_none() {
            let own = world.get::<Side>(e).map(|s| s.0.clone());
            return FactionZonesIntent::PickFirst { faction: own.unwrap_or_else(|| "".into()) };
        }
        return FactionZonesIntent::Activate;
    }
    let ok = |i: &FactionZonesIntent| validate(world, e, i).is_ok();
    let order = world.resource::<TableIndex>().order.clone();
    let mut foes: Vec<Entity> = order
        .iter()
        .copied()
        .filter(|&t| enemies(world, e, t) && can_act(world, t) && !crate::stealth::concealed(world, t))
        .collect();
    foes.sort_by_key(|&t| between(world, e, t).unwrap_or(u32::MAX));
    // The incapacitated last; the surrendered are spared.
    let fallen = order
        .iter()
        .copied()
        .filter(|&t| enemies(world, e, t) && fray_core::table::status(world, t) == Status::Unconscious);
    for t in foes.iter().copied().chain(fallen) {
        for w in weapons(world, e) {
            let intent = FactionZonesIntent::Attack { target: id(world, t), weapon: w, hold_back: false };
            if check_attack(world, e, t, w).is_ok() && ok(&intent) {
                return intent;
            }
        }
    }
    // One zone toward the nearest enemy.
    if let (Some(&t), Some(here)) = (foes.first(), zone(world, e))
        && let Some(goal) = zone(world, t)
    {
        let d = distance(world, here, goal).unwrap_or(u32::MAX);
        let step = fray_core::location::accessible_from(world, here)
            .into_iter()
            .find(|&z| distance(world, z, goal).is_some_and(|n| n < d));
        if let Some(z) = step {
            let intent = FactionZonesIntent::Move { zone: place_id(world, z), sprint: false };
            if ok(&intent) {
                return intent;
            }
        }
    }
    FactionZonesIntent::EndTurn
}

/// Whether the attack's highest damage after armour would leave `t` incapacitated or dead (the
/// AI then accepts a stunt instead).
pub(super) fn would_fall(world: &World, a: Entity, t: Entity, w: Option<usize>) -> bool {
    let Some((left, f)) = left_after_worst(world, a, t, w) else { return false };
    crate::dice::incapacitated(left, f.sheet.health)
}

/// `t`'s health left after the worst blow `a` could land with weapon `w` (every die at its
/// most, past `t`'s armour), with `t`'s sheet; none without the weapon or the fighter.
pub(super) fn left_after_worst(
    world: &World,
    a: Entity,
    t: Entity,
    w: Option<usize>,
) -> Option<(u32, &Fighter)> {
    let (Some(weapon), Some(f)) = (crate::combat::weapon(world, a, w), world.get::<Fighter>(t)) else {
        return None;
    };
    let dice = crate::dice::dice_count(crate::combat::size(world, a), crate::combat::size(world, t));
    let rules = &world.resource::<Battle>().rules;
    Some((
        f.health.saturating_sub(crate::dice::after_armour(
            weapon.damage * dice,
            f.armour(),
            rules.max_armour,
        )),
        f,
    ))
}
