//! Reading a Factions in zones scenario: parse, check every number, and spawn it.

use bevy_ecs::prelude::*;
use fray_core::phase::{CurrentPhase, Phase};
use fray_core::ruleset::Ruleset;
use fray_core::scenario::{Scenario, ScenarioError, parse_ron};

use crate::FactionZones;
use crate::data::{FactionZonesRules, FactionZonesSheet, ZoneProperty};
use crate::phase::{Battle, FactionZonesPhase, Fighter};

/// A Factions in zones scenario: zones are its locations; no mounts yet.
pub type FactionZonesScenario = Scenario<FactionZonesRules, FactionZonesSheet, (), ZoneProperty>;

/// Parses and checks a scenario: the core's checks, then this ruleset's, every problem named.
pub fn parse_scenario(text: &str) -> Result<FactionZonesScenario, ScenarioError> {
    let s: FactionZonesScenario = parse_ron(text)?;
    let mut problems = s.core_problems();
    if s.ruleset != FactionZones::ID {
        problems.push(format!("ruleset is '{}', but this is read as '{}'", s.ruleset, FactionZones::ID));
    }
    if let Some(side) = &s.rules.initiative
        && !s.sides.iter().any(|x| &x.id == side)
    {
        problems.push(format!("rules: initiative '{side}' is not a side of the scenario"));
    }
    if !(1..=20).contains(&s.rules.speed) || !(2..=100).contains(&s.rules.save_die) || s.rules.max_armour > 20
    {
        problems.push("rules: speed 1 to 20, save_die 2 to 100, max_armour up to 20".to_owned());
    }
    let r = &s.rules;
    if [r.impaired_die, r.hazard_die, r.durability_die].iter().any(|d| !(2..=100).contains(d))
        || !(1..=1000).contains(&r.breaks_armour)
    {
        problems.push(
            "rules: impaired_die, hazard_die and durability_die 2 to 100, breaks_armour 1 to 1000".to_owned(),
        );
    }
    for l in &s.locations {
        for p in &l.properties {
            let (ZoneProperty::CoverFrom(z) | ZoneProperty::BarrierFrom(z)) = p else { continue };
            if !s.locations.iter().any(|x| &x.id == z) || z == &l.id {
                problems.push(format!("location '{}': a border toward '{z}', which is no other zone", l.id));
            }
        }
    }
    if s.locations.is_empty() {
        problems.push("no zones: Factions in zones is fought in locations".to_owned());
    }
    if !s.mounts.is_empty() {
        problems.push(
            "mounts: a mount here is a combatant whose sheet `carries` riders (its riders name it in `rides`)"
                .to_owned(),
        );
    }
    if r.fall_die < 2 || r.fall_die > 100 {
        problems.push("rules: fall_die 2 to 100".to_owned());
    }
    for c in &s.combatants {
        let who = format!("combatant '{}'", c.id);
        if c.location.is_none() {
            problems.push(format!("{who}: in no zone (give it a location)"));
        }
        let sh = &c.sheet;
        if sh.health == 0 || sh.health > 1000 || sh.armour > 20 || sh.shield > 20 {
            problems.push(format!("{who}: health 1 to 1000, armour and shield up to 20"));
        }
        if sh.carries > 20 {
            problems.push(format!("{who}: carries up to 20"));
        }
        if let Some(m) = &sh.rides {
            match s.combatants.iter().find(|x| x.id == m.as_str()) {
                None => problems.push(format!("{who}: rides '{m}', which is no combatant")),
                Some(x) if x.id == c.id || x.sheet.carries == 0 || x.sheet.rides.is_some() => problems.push(format!(
                    "{who}: rides '{m}', which is not a mount (its sheet carries no one, or it rides itself)"
                )),
                Some(x) if x.side != c.side || x.location != c.location => {
                    problems.push(format!("{who}: rides '{m}', which is not of its side in its zone"))
                }
                Some(x) if x.sheet.concealed != sh.concealed => problems.push(format!(
                    "{who}: rides '{m}', and only one of them is concealed (a mount and its riders are seen together)"
                )),
                Some(x) => {
                    let aboard = s.combatants.iter().filter(|y| y.sheet.rides.as_deref() == Some(m.as_str())).count();
                    if aboard as u32 > x.sheet.carries {
                        problems.push(format!("{who}: '{m}' carries {}, and {aboard} ride it", x.sheet.carries));
                    }
                }
            }
        }
        if sh.speed.is_some_and(|v| !(1..=20).contains(&v)) {
            problems.push(format!("{who}: speed 1 to 20 zones"));
        }
        if [sh.str, sh.agi, sh.wit].iter().any(|&v| v > 100) {
            problems.push(format!("{who}: a score over 100"));
        }
        for w in &sh.weapons {
            if !(2..=100).contains(&w.damage) || w.range.is_some_and(|r| r == 0 || r > 100) {
                problems.push(format!("{who}: weapon '{}': a d2 to d100, a range of 1 to 100 zones", w.id));
            }
        }
    }
    if problems.is_empty() { Ok(s) } else { Err(ScenarioError::Invalid(problems)) }
}

/// Spawns the scenario onto a cleared table; the fight ends after `limit` rounds.
pub fn spawn_scenario(world: &mut World, s: &FactionZonesScenario, seed: u64, limit: u32) {
    let index = s.spawn_core(world, seed, FactionZonesPhase::RoundStart.name(), FactionZones::CLOCK.unit);
    for c in &s.combatants {
        if let Some(e) = index.combatant(&c.id) {
            world.entity_mut(e).insert(Fighter::new(c.sheet.clone()));
            if c.sheet.concealed {
                world.resource_mut::<fray_core::log::GameLog>().set_concealed(&c.id, true);
            }
        }
    }
    for c in &s.combatants {
        let (Some(e), Some(m)) = (index.combatant(&c.id), c.sheet.rides.as_ref()) else { continue };
        let m = index.combatant(&m.as_str().into());
        if let Some(mut f) = world.get_mut::<Fighter>(e) {
            f.rides = m;
        }
    }
    for l in &s.locations {
        if let Some(e) = index.location(&l.id) {
            world.entity_mut(e).insert(crate::phase::ZoneProperties(l.properties.clone()));
        }
    }
    let original = s
        .sides
        .iter()
        .map(|side| (side.id.clone(), s.combatants.iter().filter(|c| c.side == side.id).count() as u32))
        .collect();
    world.insert_resource(Battle {
        limit,
        original,
        initiative: s.rules.initiative.clone(),
        rules: s.rules.clone(),
        ..Default::default()
    });
    world.insert_resource(CurrentPhase::new(FactionZonesPhase::RoundStart));
}
