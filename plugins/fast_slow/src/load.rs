//! Reading a Fast & Slow scenario: parse, check every number, and spawn it on a table.

use bevy_ecs::prelude::*;
use fray_core::phase::{CurrentPhase, Phase};
use fray_core::ruleset::Ruleset;
use fray_core::scenario::{Scenario, ScenarioError, parse_ron};

use crate::FastSlow;
use crate::data::{BoldEffect, Defence, FastSlowRules, FastSlowSheet, TechniqueEffect};
use crate::phase::{Battle, FastSlowPhase, Fighter, HazardState, TrapState};

/// A Fast & Slow scenario: no locations, no mounts; positions in Paces.
pub type FastSlowScenario = Scenario<FastSlowRules, FastSlowSheet, ()>;

/// Parses and checks a scenario: the core's checks, then Fast & Slow's, every problem named.
pub fn parse_scenario(text: &str) -> Result<FastSlowScenario, ScenarioError> {
    let scenario: FastSlowScenario = parse_ron(text)?;
    let mut problems = scenario.core_problems();
    if scenario.ruleset != FastSlow::ID {
        problems.push(format!("ruleset is '{}', but this is read as '{}'", scenario.ruleset, FastSlow::ID));
    }
    rules_problems(&scenario, &mut problems);
    for c in &scenario.combatants {
        sheet_problems(&format!("combatant '{}'", c.id), &c.sheet, &scenario.rules, &mut problems);
        let (w, h) = scenario.rules.field;
        match c.position {
            None => problems
                .push(format!("combatant '{}': no position (Fast & Slow places everyone in Paces)", c.id)),
            Some((x, y)) if !(x.abs() <= w / 2.0 && y.abs() <= h / 2.0) => problems.push(format!(
                "combatant '{}': position ({x}, {y}) is off the field ({w} by {h} Paces, centred on (0, 0))",
                c.id
            )),
            Some(_) => {}
        }
        if !scenario.locations.is_empty() || c.location.is_some() || c.rides.is_some() {
            problems.push(format!("combatant '{}': Fast & Slow has no locations or mounts", c.id));
        }
    }
    if !scenario.locations.is_empty() || !scenario.mounts.is_empty() {
        problems.push("locations and mounts: Fast & Slow has neither".to_owned());
    }
    if problems.is_empty() { Ok(scenario) } else { Err(ScenarioError::Invalid(problems)) }
}

fn rules_problems(s: &FastSlowScenario, problems: &mut Vec<String>) {
    let r = &s.rules;
    let side = |id: &Option<fray_core::ids::SideId>, what: &str, problems: &mut Vec<String>| {
        if let Some(id) = id
            && !s.sides.iter().any(|x| &x.id == id)
        {
            problems.push(format!("rules: {what} '{id}' is not a side of the scenario"));
        }
    };
    side(&r.players, "players", problems);
    side(&r.surprised, "surprised", problems);
    let finite = |v: f32| v.is_finite() && (0.0..=1000.0).contains(&v);
    for (what, v) in [
        ("paces", r.paces),
        ("free_paces", r.free_paces),
        ("hand_reach", r.hand_reach),
        ("flee_reach", r.flee_reach),
        ("prone_cost", r.prone_cost),
        ("stand_cost", r.stand_cost),
    ] {
        if !finite(v) {
            problems.push(format!("rules: {what} is {v}; it must be 0 to 1000 Paces"));
        }
    }
    if r.paces <= 0.0 {
        problems.push("rules: paces must be more than 0".to_owned());
    }
    if !(finite(r.field.0) && finite(r.field.1)) || r.field.0 < 2.0 || r.field.1 < 2.0 {
        problems.push(format!("rules: field {:?} must be 2 to 1000 Paces each way", r.field));
    }
    if r.torso_defy_dl > 100 || r.potion_heal > 1000 || r.max_stake > 100 || r.skill_dl > 100 {
        problems.push("rules: torso_defy_dl, potion_heal, max_stake or skill_dl is absurd".to_owned());
    }
    let mut ids = std::collections::BTreeSet::new();
    for t in &r.traps {
        if !ids.insert(t.id.clone()) {
            problems.push(format!("trap '{}': a duplicate id", t.id));
        }
        if t.defences.is_empty() || t.defences.iter().any(|d| !matches!(d, Defence::Dodge | Defence::Handle))
        {
            problems.push(format!("trap '{}': its defences must be Dodge, Handle or both", t.id));
        }
        if !(finite(t.radius) && finite(t.at.0.abs()) && finite(t.at.1.abs()))
            || t.dl > 100
            || t.damage > 1000
        {
            problems.push(format!("trap '{}': a position, radius, dl or damage out of range", t.id));
        }
    }
    for h in &r.hazards {
        if !ids.insert(h.id.clone()) {
            problems.push(format!("hazard '{}': a duplicate id", h.id));
        }
        if !(finite(h.radius) && finite(h.grows) && finite(h.at.0.abs()) && finite(h.at.1.abs()))
            || h.damage > 1000
        {
            problems.push(format!("hazard '{}': a position, radius, growth or damage out of range", h.id));
        }
    }
}

fn sheet_problems(who: &str, s: &FastSlowSheet, rules: &FastSlowRules, problems: &mut Vec<String>) {
    let die = |faces: u32| (2..=20).contains(&faces);
    if s.stamina > 1000 || s.difficulty > 100 || s.toughness > 100 {
        problems.push(format!("{who}: stamina, difficulty or toughness is absurd"));
    }
    for limb in crate::data::Limb::ALL {
        if s.health.get(limb) > 1000 {
            problems.push(format!("{who}: the {} pool is absurd", limb.word()));
        }
    }
    if s.health.head == 0 || s.health.torso == 0 {
        problems.push(format!("{who}: the head and torso pools must be at least 1"));
    }
    for (name, faces) in &s.skills {
        if !die(*faces) {
            problems.push(format!("{who}: skill '{name}' has a d{faces}; a skill die has 2 to 20 faces"));
        }
    }
    for d in Defence::ALL {
        let dd = s.defences.get(d);
        if !die(dd.die) || dd.bonus > 100 {
            problems.push(format!(
                "{who}: {} d{} + {}: a die of 2 to 20 faces, a bonus up to 100",
                d.word(),
                dd.die,
                dd.bonus
            ));
        }
    }
    if s.weapons.is_empty() {
        problems.push(format!("{who}: no weapon (give it fists: a weapon with no skill)"));
    }
    for w in &s.weapons {
        if let Some(skill) = &w.skill
            && !s.skills.contains_key(skill)
        {
            problems.push(format!("{who}: weapon '{}' names skill '{skill}', which the sheet lacks", w.id));
        }
        if let Some(attr) = &w.attribute
            && !s.attributes.contains_key(attr)
        {
            problems
                .push(format!("{who}: weapon '{}' names attribute '{attr}', which the sheet lacks", w.id));
        }
        if !(w.reach.is_finite() && (0.0..=1000.0).contains(&w.reach))
            || w.bonus > 100
            || w.damage.iter().any(|&d| d > 1000)
        {
            problems.push(format!("{who}: weapon '{}' has a reach, bonus or damage out of range", w.id));
        }
        if w.poison > MAX_ROUNDS {
            problems.push(format!(
                "{who}: weapon '{}': poison {}; it lasts 0 to {MAX_ROUNDS} rounds",
                w.id, w.poison
            ));
        }
    }
    for b in &s.bold {
        if !die(b.fog) {
            problems
                .push(format!("{who}: bold action '{}' rolls a d{} of FOG; 2 to 20 faces", b.name, b.fog));
        }
        if let BoldEffect::Strike { weapon, .. } = b.effect
            && weapon >= s.weapons.len()
        {
            problems.push(format!(
                "{who}: bold action '{}' strikes with weapon {weapon}, which the sheet lacks",
                b.name
            ));
        }
        let (field, value, most) = match b.effect {
            BoldEffect::Strike { bonus, .. } => ("Strike bonus", bonus, 100),
            BoldEffect::Mend { amount } => ("Mend amount", amount, 1000),
            BoldEffect::FollowUp { damage } => ("FollowUp damage", damage, 1000),
        };
        if value > most {
            problems
                .push(format!("{who}: bold action '{}': {field} {value}; it must be 0 to {most}", b.name));
        }
    }
    for t in &s.techniques {
        if !s.skills.contains_key(&t.skill) {
            problems.push(format!(
                "{who}: technique '{}' belongs to skill '{}', which the sheet lacks",
                t.name, t.skill
            ));
        }
        technique_problems(who, t, problems);
    }
    for w in &s.weapons {
        if let Some(sustain) = w.sustain
            && (!die(sustain.fog) || sustain.rounds == 0 || sustain.rounds > 100 || !w.kind.is_spell())
        {
            problems.push(format!(
                "{who}: weapon '{}' sustains badly: a spellroot, a FOG die of 2 to 20 faces, 1 to 100 rounds",
                w.id
            ));
        }
    }
    if s.attributes.values().any(|&a| a > 100) || s.leadership > 100 || s.potions > 100 {
        problems.push(format!("{who}: an attribute, leadership or potions is absurd"));
    }
    if let Some(round) = s.joins.filter(|r| !(1..=MAX_ROUNDS * 10).contains(r)) {
        problems.push(format!(
            "{who}: joins in round {round}; reinforcements join in round 1 to {}",
            MAX_ROUNDS * 10
        ));
    }
    let _ = rules;
}

/// The most rounds poison or bleeding may last (a fight of the default limit is 30).
const MAX_ROUNDS: u32 = 100;

/// The most Paces a technique's shove pushes (the field is at most 1000 across).
const MAX_SHOVE: f32 = 100.0;

fn technique_problems(who: &str, t: &crate::data::TechniqueSpec, problems: &mut Vec<String>) {
    if !(2..=20).contains(&t.unlock) {
        problems.push(format!(
            "{who}: technique '{}': unlock d{}; a skill die has 2 to 20 faces",
            t.name, t.unlock
        ));
    }
    match t.effect {
        TechniqueEffect::Shove { paces } if !(paces.is_finite() && paces > 0.0 && paces <= MAX_SHOVE) => {
            problems.push(format!(
                "{who}: technique '{}': Shove paces {paces}; it pushes more than 0 and at most {MAX_SHOVE} Paces",
                t.name
            ))
        }
        TechniqueEffect::Bleed { rounds } if !(1..=MAX_ROUNDS).contains(&rounds) => problems.push(format!(
            "{who}: technique '{}': Bleed rounds {rounds}; it lasts 1 to {MAX_ROUNDS} rounds",
            t.name
        )),
        _ => {}
    }
}

/// Spawns the scenario onto a cleared table; the fight ends after `limit` rounds.
pub fn spawn_scenario(world: &mut World, scenario: &FastSlowScenario, seed: u64, limit: u32) {
    let index = scenario.spawn_core(world, seed, FastSlowPhase::Opening.name(), FastSlow::CLOCK.unit);
    for c in &scenario.combatants {
        if let Some(e) = index.combatant(&c.id) {
            world.entity_mut(e).insert(Fighter::new(c.sheet.clone()));
        }
    }
    let rules = scenario.rules.clone();
    let players = rules.players.clone().or_else(|| scenario.sides.first().map(|s| s.id.clone()));
    world.insert_resource(Battle {
        limit,
        players,
        surprised: rules.surprised.clone(),
        traps: rules
            .traps
            .iter()
            .map(|t| TrapState { spec: t.clone(), disabled: false, stalled_until: None })
            .collect(),
        hazards: rules.hazards.iter().map(|h| HazardState { spec: h.clone(), radius: h.radius }).collect(),
        rules,
        ..Default::default()
    });
    world.insert_resource(CurrentPhase::new(FastSlowPhase::Opening));
}
