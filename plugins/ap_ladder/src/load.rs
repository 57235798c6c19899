//! Reading an Initiative ladder scenario: parse, check every number, and spawn it on a table.

use bevy_ecs::prelude::*;
use fray_core::phase::{CurrentPhase, Phase};
use fray_core::ruleset::Ruleset;
use fray_core::scenario::{Scenario, ScenarioError, parse_ron};

use crate::ApLadder;
use crate::data::{ApLadderMount, ApLadderRules, ApLadderSheet, AreaKind, Condition, Tables, WeaponKind};
use crate::phase::{ApLadderPhase, Battle, Fighter};

/// An Initiative ladder scenario: free positions in yards, mounts and vehicles.
pub type ApLadderScenario = Scenario<ApLadderRules, ApLadderSheet, ApLadderMount>;

/// A mount's sheet on its entity.
#[derive(Component, Clone, Debug)]
pub struct MountSheet(pub ApLadderMount);

const MOST: f32 = 1000.0;

/// Parses and checks a scenario: the core's checks, then the Initiative ladder's, every
/// problem named.
pub fn parse_scenario(text: &str) -> Result<ApLadderScenario, ScenarioError> {
    let scenario: ApLadderScenario = parse_ron(text)?;
    let mut problems = scenario.core_problems();
    if scenario.ruleset != ApLadder::ID {
        problems.push(format!("ruleset is '{}', but this is read as '{}'", scenario.ruleset, ApLadder::ID));
    }
    rules_problems(&scenario, &mut problems);
    for c in &scenario.combatants {
        sheet_problems(&format!("combatant '{}'", c.id), &c.sheet, &mut problems);
        match (c.position, c.rides.as_ref()) {
            (Some(p), _) if !inside(&scenario.rules, p) => {
                problems.push(format!("combatant '{}': position {p:?} is off the field", c.id))
            }
            (None, None) => problems.push(format!("combatant '{}': no position (yards on the field)", c.id)),
            _ => {}
        }
        if c.location.is_some() {
            problems
                .push(format!("combatant '{}': the Initiative ladder has no locations, only yards", c.id));
        }
    }
    for m in &scenario.mounts {
        if m.sheet.kind.is_none() {
            problems.push(format!("mount '{}': no kind (a destrier, a wagon…: the sub-types table)", m.id));
        }
        if m.sheet.agility_bonus > 20 || m.sheet.brawn_bonus > 20 || m.sheet.barding > 20 {
            problems.push(format!("mount '{}': a bonus or barding above 20 is absurd", m.id));
        }
    }
    if !scenario.locations.is_empty() {
        problems.push("locations: the Initiative ladder places everyone in yards, not locations".to_owned());
    }
    if problems.is_empty() { Ok(scenario) } else { Err(ScenarioError::Invalid(problems)) }
}

fn inside(r: &ApLadderRules, p: (f32, f32)) -> bool {
    p.0.is_finite()
        && p.1.is_finite()
        && p.0.abs() <= r.field.0 / 2.0 + 1e-3
        && p.1.abs() <= r.field.1 / 2.0 + 1e-3
}

fn rules_problems(s: &ApLadderScenario, problems: &mut Vec<String>) {
    let r = &s.rules;
    if let Some(side) = &r.ambushers
        && !s.sides.iter().any(|x| &x.id == side)
    {
        problems.push(format!("rules: ambushers '{side}' is not a side of the scenario"));
    }
    let finite = |v: f32| v.is_finite() && (0.0..=MOST).contains(&v);
    if !(finite(r.field.0) && finite(r.field.1)) || r.field.0 < 4.0 || r.field.1 < 4.0 {
        problems.push(format!("rules: field {:?} must be 4 to {MOST} yards each way", r.field));
    }
    let n = &r.numbers;
    for (what, v) in [
        ("engaged", n.engaged),
        ("reach", n.reach),
        ("hearing", n.hearing),
        ("disarm_yards", n.disarm_yards),
        ("push_yards", n.push_yards),
        ("push_side_yards", n.push_side_yards),
        ("pick_up", n.pick_up),
    ] {
        if !finite(v) || v <= 0.0 {
            problems.push(format!(
                "rules: numbers.{what} is {v}; it must be more than 0 and at most {MOST} yards"
            ));
        }
    }
    if n.step == 0 || n.step > 100 || n.max_steps == 0 || n.max_steps > 5 {
        problems.push("rules: numbers.step must be 1 to 100 and max_steps 1 to 5".to_owned());
    }
    if n.movement_plus > 50 || n.initiative_plus > 50 || n.peril_plus > 50 {
        problems.push("rules: numbers.movement_plus, initiative_plus or peril_plus is absurd".to_owned());
    }
    let (moderate, serious, grievous) = n.injury_dice;
    if moderate.max(serious).max(grievous) > 10 {
        problems.push(format!("rules: numbers.injury_dice {:?}: at most 10 Chaos Dice each", n.injury_dice));
    }
    for (what, v) in [("put_out_ap", n.put_out_ap), ("bind_ap", n.bind_ap)] {
        if v == 0 || v > 3 {
            problems.push(format!("rules: numbers.{what} is {v}; an action costs 1 to 3 AP"));
        }
    }
    if n.burn_plus > 100 || n.gas_plus > 100 {
        problems.push("rules: numbers.burn_plus or gas_plus above 100 is absurd".to_owned());
    }
    let mut ids = std::collections::BTreeSet::new();
    for c in &r.covers {
        if !ids.insert(c.id.clone()) {
            problems.push(format!("cover '{}': a duplicate id", c.id));
        }
        if !(inside(r, c.at) && finite(c.radius) && c.radius > 0.0) {
            problems
                .push(format!("cover '{}': off the field, or a radius that is not 0 to {MOST} yards", c.id));
        }
    }
    for a in &r.areas {
        if !ids.insert(a.id.clone()) {
            problems.push(format!("area '{}': a duplicate id", a.id));
        }
        if !(inside(r, a.at) && finite(a.radius) && a.radius > 0.0) {
            problems
                .push(format!("area '{}': off the field, or a radius that is not 0 to {MOST} yards", a.id));
        }
        if !finite(a.height) || (a.height > 0.0 && a.kind != AreaKind::High) {
            problems
                .push(format!("area '{}': a height of 0 to {MOST} yards, and only for higher ground", a.id));
        }
    }
    for ev in &r.events {
        if !ids.insert(ev.id.clone()) {
            problems.push(format!("event '{}': a duplicate id", ev.id));
        }
        if ev.at.is_some_and(|p| !inside(r, p)) || !finite(ev.radius) || ev.damage > 100 || ev.peril > 100 {
            problems
                .push(format!("event '{}': off the field, or a radius, damage or peril out of range", ev.id));
        }
    }
    if let Some(t) = &r.tables {
        tables_problems(t, problems);
    }
}

/// What is wrong with a table set.
pub fn tables_problems(t: &Tables, problems: &mut Vec<String>) {
    if t.fumbles.iter().map(|f| f.weight).sum::<u32>() == 0 {
        problems.push("tables: the fumble table's weights add up to 0".to_owned());
    }
    if t.fumbles.iter().any(|f| f.weight > 1000) {
        problems.push("tables: a fumble weight above 1000 is absurd".to_owned());
    }
    for row in &t.injuries {
        let absurd = row.effects.iter().any(|e| match e {
            crate::data::InjuryEffect::Tests { amount, .. } => amount.abs() > 100,
            crate::data::InjuryEffect::Slower(y) => *y > 50,
            crate::data::InjuryEffect::Threshold(t) => t.abs() > 50,
            _ => false,
        });
        if absurd {
            problems.push(format!(
                "tables: injury '{}': a test change beyond 100, or yards or threshold beyond 50",
                row.name
            ));
        }
    }
    for row in &t.conditions {
        if let Some(problem) = row.icon.as_deref().and_then(fray_core::scenario::image_problem) {
            problems.push(format!("tables: condition {:?}: {problem}", row.condition));
        }
    }
    for c in [Condition::Prone, Condition::Stunned, Condition::Defenseless, Condition::Helpless] {
        if t.condition(c).is_none() {
            problems.push(format!("tables: the conditions table lacks {c:?}"));
        }
    }
}

fn sheet_problems(who: &str, s: &ApLadderSheet, problems: &mut Vec<String>) {
    let a = &s.attributes;
    for (what, v) in [
        ("combat", a.combat),
        ("brawn", a.brawn),
        ("agility", a.agility),
        ("perception", a.perception),
        ("intelligence", a.intelligence),
        ("willpower", a.willpower),
        ("fellowship", a.fellowship),
    ] {
        if v > 99 {
            problems.push(format!("{who}: {what} {v}; an attribute is 0 to 99"));
        }
    }
    for (skill, ranks) in &s.skills {
        if *ranks > 60 {
            problems.push(format!("{who}: {} +{ranks}; a skill adds at most 60", skill.word()));
        }
    }
    if s.armour.threshold > 30 {
        problems.push(format!("{who}: armour threshold {} is absurd", s.armour.threshold));
    }
    if let Some(w) = s.wields.filter(|&w| w >= s.weapons.len()) {
        problems.push(format!("{who}: wields weapon {w}, which the sheet lacks"));
    }
    if let Some(o) = s.off_hand {
        use crate::data::Quality;
        match s.weapons.get(o) {
            None => problems.push(format!("{who}: holds weapon {o} off-hand, which the sheet lacks")),
            Some(w) if !w.has(Quality::Light) || !w.melee() || w.shield => {
                problems.push(format!("{who}: off-hand {} is not a Light melee weapon", w.name));
            }
            Some(w) if s.wields == Some(o) => {
                problems.push(format!("{who}: {} cannot be in both hands", w.name));
            }
            Some(_) if s.wields.and_then(|m| s.weapons.get(m)).is_some_and(|m| m.two_handed) => {
                problems.push(format!("{who}: a two-handed weapon in hand leaves no off-hand"));
            }
            Some(_) => {}
        }
    }
    if !(1..=3).contains(&s.size) {
        problems.push(format!("{who}: size {}; 1 (a person) to 3", s.size));
    }
    if s.fate > 20 || s.fortune > 20 {
        problems.push(format!("{who}: fate or fortune above 20 is absurd"));
    }
    if s.conditions.contains(&Condition::Slain) {
        problems.push(format!("{who}: starts slain"));
    }
    let mut ids = std::collections::BTreeSet::new();
    for w in &s.weapons {
        if !ids.insert(w.id.clone()) {
            problems.push(format!("{who}: weapon id '{}' twice", w.id));
        }
        let ranged = matches!(w.kind, WeaponKind::Ranged | WeaponKind::Thrown | WeaponKind::Spell { .. });
        if ranged && !(w.range.is_finite() && w.range >= 1.0 && w.range <= 250.0) {
            problems.push(format!("{who}: weapon '{}' needs a short range of 1 to 250 yards", w.id));
        }
        if let WeaponKind::Spell { ap } = w.kind
            && !(1..=3).contains(&ap)
        {
            problems.push(format!("{who}: spell '{}' costs {ap} AP; magick costs 1 to 3", w.id));
        }
        if w.damage.abs() > 30 || w.load > 9 {
            problems.push(format!("{who}: weapon '{}' has an absurd damage or load", w.id));
        }
    }
}

/// Spawns the scenario onto a cleared table; the fight ends after `limit` turns.
pub fn spawn_scenario(world: &mut World, scenario: &ApLadderScenario, seed: u64, limit: u32) {
    let index = scenario.spawn_core(world, seed, ApLadderPhase::Ladder.name(), ApLadder::CLOCK.unit);
    for c in &scenario.combatants {
        if let Some(e) = index.combatant(&c.id) {
            world.entity_mut(e).insert(Fighter::new(c.sheet.clone()));
        }
    }
    for m in &scenario.mounts {
        if let Some(e) = index.mount(&m.id) {
            world.entity_mut(e).insert((MountSheet(m.sheet.clone()), crate::mounts::Steed::default()));
        }
    }
    // A rider with no position of its own starts where its mount stands.
    for c in &scenario.combatants {
        if c.position.is_none()
            && let Some(e) = index.combatant(&c.id)
            && let Some(m) = c.rides.as_ref().and_then(|m| scenario.mounts.iter().find(|x| &x.id == m))
            && let Some(p) = m.position
        {
            world.entity_mut(e).insert(fray_core::prelude::FieldPosition([p.0, p.1]));
        }
    }
    let rules = scenario.rules.clone();
    world.insert_resource(Battle {
        limit,
        tables: rules.tables.clone().unwrap_or_default(),
        rules,
        ..Default::default()
    });
    world.insert_resource(CurrentPhase::new(ApLadderPhase::Ladder));
}
