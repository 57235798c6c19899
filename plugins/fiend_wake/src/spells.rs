//! Fueling spells, the aftermath's hook: in priority order, each combatant with ongoing
//! spells pays their upkeep in TP to keep them for the next round; the others lapse.

use std::collections::BTreeSet;

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::intent::{Rejection, Verdict};
use fray_core::log::LogEvent;
use fray_core::phase::{RulesStep, StepProgress};

use crate::aftermath::AftermathSystems;
use crate::counters::{TACTICAL_POINT, WOUND};
use crate::data::SpellEffect;
use crate::phase::{AftermathStep, Round};
use crate::sheet::Spells;
use crate::view;

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(RulesStep, next_fueler.in_set(AftermathSystems::FuelSpells));
}

fn spells_of(world: &World, e: Entity) -> Vec<(crate::data::SpellSpec, bool)> {
    world.get::<Spells>(e).map(|s| s.0.clone()).unwrap_or_default()
}

/// Whether `e` has a spell it could fuel now.
fn can_fuel(world: &World, e: Entity) -> bool {
    let tp = view::count(world, e, TACTICAL_POINT);
    view::can_act(world, e) && spells_of(world, e).iter().any(|(s, _)| s.upkeep.max(0) as u32 <= tp)
}

/// Skips combatants with nothing to fuel (their unfueled spells lapse); moves on to spending
/// the remaining TP at the end.
fn next_fueler(world: &mut World) {
    let priority = world.resource::<Round>().priority.clone();
    let mut cursor = world.resource::<Round>().cursor;
    while cursor < priority.len() && !can_fuel(world, priority[cursor]) {
        lapse_all(world, priority[cursor]);
        cursor += 1;
    }
    if cursor != world.resource::<Round>().cursor {
        world.resource_mut::<Round>().cursor = cursor;
        world.resource_mut::<StepProgress>().mark();
    }
    if cursor >= priority.len() {
        let mut round = world.resource_mut::<Round>();
        round.cursor = 0;
        round.aftermath = AftermathStep::SpendRemaining;
        world.resource_mut::<StepProgress>().mark();
    }
}

fn lapse_all(world: &mut World, e: Entity) {
    let lapsed: Vec<String> =
        spells_of(world, e).into_iter().filter(|(_, on)| *on).map(|(s, _)| s.name).collect();
    if let Some(mut spells) = world.get_mut::<Spells>(e) {
        for (_, on) in spells.0.iter_mut() {
            *on = false;
        }
    }
    for name in lapsed {
        view::log(world, e, LogEvent::Effect { what: "spell_lapsed", detail: name });
    }
}

/// The combatant asked to fuel spells now.
pub(crate) fn awaiting(world: &World) -> Vec<Entity> {
    let round = world.resource::<Round>();
    if round.aftermath != AftermathStep::FuelSpells {
        return Vec::new();
    }
    round.priority.get(round.cursor).copied().filter(|&e| can_fuel(world, e)).into_iter().collect()
}

/// Checks the spells to keep: known, named once, affordable together.
pub(crate) fn check(world: &World, e: Entity, names: &[String]) -> Verdict<u32> {
    let spells = spells_of(world, e);
    let mut seen = BTreeSet::new();
    let mut upkeep = 0u32;
    for name in names {
        let Some((spec, _)) = spells.iter().find(|(s, _)| &s.name == name) else {
            return Err(Rejection::new(format!("{} knows no spell '{name}'", view::name(world, e))));
        };
        if !seen.insert(name) {
            return Err(Rejection::new(format!("names '{name}' twice")));
        }
        upkeep += spec.upkeep.max(0) as u32;
    }
    let tp = view::count(world, e, TACTICAL_POINT);
    if upkeep > tp {
        return Err(Rejection::new(format!(
            "fueling costs {upkeep} TP but {} holds only {tp}",
            view::name(world, e)
        )));
    }
    Ok(upkeep)
}

/// Fuels the named spells, lets the rest lapse, and moves on.
pub(crate) fn fuel(world: &mut World, e: Entity, names: &[String], upkeep: u32) {
    view::lose(world, e, TACTICAL_POINT, upkeep, "fueling spells");
    let before = spells_of(world, e);
    if let Some(mut spells) = world.get_mut::<Spells>(e) {
        for (spec, on) in spells.0.iter_mut() {
            *on = names.contains(&spec.name);
        }
    }
    for (spec, was_on) in before {
        let on = names.contains(&spec.name);
        if on {
            view::log(world, e, LogEvent::Effect { what: "spell_fueled", detail: spec.name.clone() });
            if let SpellEffect::Regenerate(n) = spec.effect {
                view::lose(world, e, WOUND, n.max(0) as u32, "regeneration");
            }
        } else if was_on {
            view::log(world, e, LogEvent::Effect { what: "spell_lapsed", detail: spec.name.clone() });
        }
    }
    world.resource_mut::<Round>().cursor += 1;
}
