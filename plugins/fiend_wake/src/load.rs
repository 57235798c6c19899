//! Reading a Fiend Wake scenario: parse, check, and spawn it on a table.

use bevy_ecs::prelude::*;
use fray_core::phase::{CurrentPhase, Phase};
use fray_core::ruleset::Ruleset;
use fray_core::scenario::{Scenario, ScenarioError, parse_ron};

use crate::FiendWake;

use crate::data::Attribute;
use crate::data::{FiendWakeRules, LocationProperty, MAX_ENTRY_COST, MAX_STAT, MountSheet, Sheet};
use crate::phase::{FiendWakePhase, Round};
use crate::sheet::{
    Arsenal, Attributes, Catalogue, Evasion, Inventory, MountTraits, RoundChoices, Skills, TpAdjust, Worn,
};
use crate::sheet::{HandicapChoice, Properties, Spells};

/// A Fiend Wake scenario.
pub type FiendWakeScenario = Scenario<FiendWakeRules, Sheet, MountSheet, LocationProperty>;

/// Parses and checks a scenario.
pub fn parse_scenario(text: &str) -> Result<FiendWakeScenario, ScenarioError> {
    let scenario: FiendWakeScenario = parse_ron(text)?;
    let mut problems = scenario.core_problems();
    problems.extend(ruleset_problems(&scenario));
    if problems.is_empty() { Ok(scenario) } else { Err(ScenarioError::Invalid(problems)) }
}

fn stat(problems: &mut Vec<String>, who: &str, what: &str, value: i32) {
    if value < 0 {
        problems.push(format!("{who}: {what} is {value}; it cannot be negative"));
    } else if value > MAX_STAT {
        problems.push(format!("{who}: {what} is {value}; at most {MAX_STAT} is allowed"));
    }
}

/// Problems with the Fiend Wake parts of a scenario.
pub fn ruleset_problems(s: &FiendWakeScenario) -> Vec<String> {
    let mut p = Vec::new();
    if s.ruleset != FiendWake::ID {
        p.push(format!("ruleset is '{}', but this is read as '{}'", s.ruleset, FiendWake::ID));
    }
    let r = &s.rules;
    for (name, value) in [
        ("rules: base_tp", r.base_tp),
        ("rules: turn_token_tp", r.turn_token_tp),
        ("rules: threshold_base", r.threshold_base),
        ("rules: threshold_per_endurance", r.threshold_per_endurance),
        ("rules: unconscious_difficulty", r.unconscious_difficulty),
        ("rules: evacuate_cost", r.evacuate_cost),
        ("rules: mount_cost", r.mount_cost),
        ("rules: upgrade_assumed_tp", r.upgrade_assumed_tp),
    ] {
        if value > 100 {
            p.push(format!("{name} is {value}; at most 100 is allowed"));
        }
    }
    if !(2..=100).contains(&r.die_sides) {
        p.push(format!("rules: die_sides is {}; dice have 2 to 100 sides", r.die_sides));
    }
    for (id, w) in &r.weapons {
        let who = format!("weapon '{id}'");
        stat(&mut p, &who, "first_intention", w.first_intention);
        stat(&mut p, &who, "second_intention", w.second_intention);
        stat(&mut p, &who, "ready_cost", w.ready_cost);
        stat(&mut p, &who, "siege", w.siege);
    }
    for (id, a) in &r.armours {
        let who = format!("armour '{id}'");
        stat(&mut p, &who, "reduction", a.reduction);
        stat(&mut p, &who, "encumbrance", a.encumbrance);
    }
    for c in &s.combatants {
        let who = format!("combatant '{}'", c.id);
        let a = &c.sheet.attributes;
        for (name, v) in [
            ("Power", a.power),
            ("Grace", a.grace),
            ("Cunning", a.cunning),
            ("Endurance", a.endurance),
            ("Resolve", a.resolve),
            ("Spirit", a.spirit),
        ] {
            stat(&mut p, &who, name, v);
        }
        if a.spirit == 0 {
            p.push(format!("{who}: Spirit is 0; a combatant needs at least 1 to be conscious"));
        }
        stat(&mut p, &who, "evasion", c.sheet.evasion);
        for (skill, v) in &c.sheet.skills {
            stat(&mut p, &who, &format!("{skill:?}"), *v);
        }
        if c.sheet.tp_adjust.abs() > MAX_STAT {
            p.push(format!("{who}: tp_adjust {} is absurd", c.sheet.tp_adjust));
        }
        for w in &c.sheet.weapons {
            if !r.weapons.contains_key(w) {
                p.push(format!("{who}: carries weapon '{w}', which is not in rules.weapons"));
            }
        }
        if let Some(ready) = &c.sheet.ready
            && !c.sheet.weapons.contains(ready)
        {
            p.push(format!("{who}: ready weapon '{ready}' is not among the weapons it carries"));
        }
        if let Some(armour) = &c.sheet.armour
            && !r.armours.contains_key(armour)
        {
            p.push(format!("{who}: wears armour '{armour}', which is not in rules.armours"));
        }
    }
    for c in &s.combatants {
        for spell in &c.sheet.spells {
            let who = format!("combatant '{}': spell '{}'", c.id, spell.name);
            stat(&mut p, &who, "upkeep", spell.upkeep);
            let (crate::data::SpellEffect::Reduction(n)
            | crate::data::SpellEffect::Evasion(n)
            | crate::data::SpellEffect::Regenerate(n)) = spell.effect;
            stat(&mut p, &who, "effect", n);
        }
    }
    for m in &s.mounts {
        let who = format!("mount '{}'", m.id);
        stat(&mut p, &who, "training_difficulty", m.sheet.training_difficulty);
        stat(&mut p, &who, "entry_discount", m.sheet.entry_discount);
        stat(&mut p, &who, "evasion_bonus", m.sheet.evasion_bonus);
        stat(&mut p, &who, "melee_bonus", m.sheet.melee_bonus);
    }
    p.extend(location_problems(s));
    p
}

/// Problems with the locations' properties: one entry cost at most (an older file's
/// `entry_cost` counts as one), and none absurd.
fn location_problems(s: &FiendWakeScenario) -> Vec<String> {
    let mut p = Vec::new();
    for l in &s.locations {
        let costs: Vec<u32> = l
            .properties
            .iter()
            .filter_map(|p| if let LocationProperty::EntryCost(n) = p { Some(*n) } else { None })
            .collect();
        if costs.len() > 1 {
            p.push(format!("location '{}': {} entry costs given; give one", l.id, costs.len()));
        }
        if let Some(cost) = costs.iter().find(|&&n| n > MAX_ENTRY_COST) {
            p.push(format!("location '{}': entry cost {cost} is absurd (at most {MAX_ENTRY_COST})", l.id));
        }
    }
    p
}

fn level(v: i32) -> u32 {
    v.clamp(0, MAX_STAT) as u32
}

/// Spawns the scenario onto a cleared table; the fight ends after `max_rounds` rounds.
pub fn spawn_scenario(world: &mut World, scenario: &FiendWakeScenario, seed: u64, max_rounds: u32) {
    let index = scenario.spawn_core(world, seed, FiendWakePhase::RoundPrep.name(), FiendWake::CLOCK.unit);
    for l in &scenario.locations {
        if let Some(e) = index.location(&l.id) {
            world.entity_mut(e).insert(Properties(l.properties.clone()));
        }
    }
    for c in &scenario.combatants {
        let Some(e) = index.combatant(&c.id) else { continue };
        let s = &c.sheet;
        let a = &s.attributes;
        let mut entity = world.entity_mut(e);
        entity.insert((
            Attributes::new([a.power, a.grace, a.cunning, a.endurance, a.resolve, a.spirit].map(level)),
            Skills(s.skills.iter().map(|(k, v)| (*k, level(*v))).collect()),
            Evasion(level(s.evasion)),
            Arsenal { carried: s.weapons.clone(), ready: s.ready.clone() },
            Worn { armour: s.armour.clone(), doffing: false },
            Inventory(s.items.clone()),
            TpAdjust(s.tp_adjust),
            RoundChoices::default(),
            HandicapChoice(s.handicaps_to.unwrap_or(Attribute::Spirit)),
            Spells(s.spells.iter().map(|spec| (spec.clone(), spec.active)).collect()),
        ));
    }
    for m in &scenario.mounts {
        if let Some(e) = index.mount(&m.id) {
            world.entity_mut(e).insert(MountTraits {
                untrained: m.sheet.untrained,
                wranglable: m.sheet.wranglable,
                wrangled: false,
                training_difficulty: level(m.sheet.training_difficulty),
                entry_discount: level(m.sheet.entry_discount),
                evasion_bonus: level(m.sheet.evasion_bonus),
                melee_bonus: level(m.sheet.melee_bonus),
            });
        }
    }
    world.insert_resource(Catalogue { rules: std::sync::Arc::new(scenario.rules.clone()) });
    world.insert_resource(Round { max_rounds, ..Default::default() });
    world.insert_resource(CurrentPhase::new(FiendWakePhase::RoundPrep));
}
