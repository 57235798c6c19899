//! Reading a FateWalker scenario: parse, check, and spawn it on a table.

use std::collections::BTreeMap;

use bevy_ecs::prelude::*;
use fray_core::ids::SideId;
use fray_core::phase::{CurrentPhase, Phase};
use fray_core::ruleset::Ruleset;
use fray_core::scenario::{MAX_COORDINATE, Scenario, ScenarioError, on_board, parse_ron};

use crate::FateWalker;

use crate::data::{FateWalkerRules, MAX_STAT, MountSheet, Sheet, Tables, WoundChartSpec};
use crate::dice::DamageDice;
use crate::initiative::Ambusher;
use crate::phase::{Clock, FateWalkerPhase, TickState};
use crate::sheet::{
    ActionClock, Afflictions, Arms, Catalogue, Senses, Skills, Stance, Traits, Vehicle, Worn,
};
use crate::wounds::WoundChart;

/// A FateWalker scenario.
pub type FateWalkerScenario = Scenario<FateWalkerRules, Sheet, MountSheet>;

/// Surprise penalties by side, for the initiative roll.
#[derive(Resource, Clone, Debug, Default)]
pub struct SurprisePenalties(pub BTreeMap<SideId, u32>);

/// Parses and checks a scenario.
pub fn parse_scenario(text: &str) -> Result<FateWalkerScenario, ScenarioError> {
    let scenario: FateWalkerScenario = parse_ron(text)?;
    let mut problems = scenario.core_problems();
    problems.extend(ruleset_problems(&scenario));
    if problems.is_empty() { Ok(scenario) } else { Err(ScenarioError::Invalid(problems)) }
}

fn stat(p: &mut Vec<String>, who: &str, what: &str, value: u32) {
    if value > MAX_STAT {
        p.push(format!("{who}: {what} is {value}; at most {MAX_STAT} is allowed"));
    }
}

fn chart_problems(p: &mut Vec<String>, who: &str, chart: &WoundChartSpec) {
    if chart.columns.is_empty() || chart.columns.iter().any(|c| c.boxes == 0) {
        p.push(format!("{who}: a wound chart needs at least one column, each with at least one box"));
    }
    if chart.mortal == 0 {
        p.push(format!("{who}: a wound chart needs at least one mortal wound box"));
    }
    let boxes: u32 = chart.columns.iter().map(|c| c.boxes).sum();
    if boxes > 200 || chart.glancing > 200 || chart.mortal > 200 || chart.columns.len() > 50 {
        p.push(format!("{who}: the wound chart is absurdly large"));
    }
}

fn table_problems(p: &mut Vec<String>, t: &Tables) {
    if !(2..=100).contains(&t.die_faces) {
        p.push(format!("rules: tables: die_faces is {}; dice have 2 to 100 faces", t.die_faces));
    }
    if t.segment_ticks == 0 || t.segment_ticks > 600 {
        p.push("rules: tables: segment_ticks must be 1 to 600".to_owned());
    }
    for (what, v) in [
        ("begin_moving", t.ticks.begin_moving),
        ("change_movement", t.ticks.change_movement),
        ("stop_moving", t.ticks.stop_moving),
        ("ready_weapon", t.ticks.ready_weapon),
        ("go_prone", t.ticks.go_prone),
        ("stand_up", t.ticks.stand_up),
        ("mount", t.ticks.mount),
        ("dismount", t.ticks.dismount),
        ("dodge", t.ticks.dodge),
        ("parry", t.ticks.parry),
    ] {
        if v > 600 {
            p.push(format!("rules: tables: ticks: {what} is {v}; at most 600"));
        }
    }
    if t.initiative.base > 600 || t.initiative.target > t.die_faces {
        p.push("rules: tables: initiative base at most 600, target at most die_faces".to_owned());
    }
    if t.movement.values().any(|f| !f.is_finite() || *f < 0.0 || *f > 100.0) {
        p.push("rules: tables: movement multiples must be 0 to 100".to_owned());
    }
    chart_problems(p, "rules: tables", &t.wound_chart);
}

/// Problems with the FateWalker parts of a scenario.
pub fn ruleset_problems(s: &FateWalkerScenario) -> Vec<String> {
    let mut p = Vec::new();
    if s.ruleset != FateWalker::ID {
        p.push(format!("ruleset is '{}', but this is read as '{}'", s.ruleset, FateWalker::ID));
    }
    let r = &s.rules;
    let catalogue = Catalogue::new(r);
    let tables = catalogue.tables();
    if r.tables.is_some() {
        table_problems(&mut p, tables);
    }
    for (id, w) in &catalogue.0.weapons {
        let who = format!("weapon '{id}'");
        if let Err(e) = DamageDice::parse(&w.damage) {
            p.push(format!("{who}: {e}"));
        }
        if w.ticks == 0 || w.ticks > 600 {
            p.push(format!("{who}: ticks is {}; an attack costs 1 to 600 ticks", w.ticks));
        }
        if w.damage_target > tables.die_faces {
            p.push(format!(
                "{who}: damage_target {} is above the die's {} faces",
                w.damage_target, tables.die_faces
            ));
        }
        match w.range {
            Some((s, m, l)) if !(0.0 < s && s <= m && m <= l && l < 100_000.0) => {
                p.push(format!("{who}: range ({s}, {m}, {l}) must grow: 0 < short <= medium <= long"));
            }
            None if w.kind.ranged() => p.push(format!("{who}: a ranged weapon needs a range")),
            _ => {}
        }
        if !(w.magnification.is_finite() && w.magnification > 0.0 && w.magnification <= 100.0) {
            p.push(format!("{who}: magnification must be above 0 and at most 100"));
        }
    }
    for c in &r.covers {
        if !tables.barriers.contains_key(&c.material) {
            p.push(format!("cover '{}': material '{}' is not in the barrier chart", c.id, c.material));
        }
        if c.percent != 50 && c.percent != 90 {
            p.push(format!("cover '{}': percent is {}; cover is 50 or 90", c.id, c.percent));
        }
        if !(c.radius.is_finite() && c.radius > 0.0 && c.radius <= 1000.0) {
            p.push(format!("cover '{}': radius must be above 0 and at most 1000", c.id));
        }
        if !on_board(c.position) {
            p.push(format!("cover '{}': position must be within {MAX_COORDINATE} metres", c.id));
        }
    }
    for (i, (at, radius)) in r.conditions.lights.iter().enumerate() {
        let who = format!("rules: conditions: lights[{i}]");
        if !(radius.is_finite() && *radius > 0.0 && *radius <= 1000.0) {
            p.push(format!("{who}: radius {radius} must be above 0 and at most 1000 metres"));
        }
        if !on_board(*at) {
            p.push(format!("{who}: centre must be within {MAX_COORDINATE} metres"));
        }
    }
    for (i, ev) in r.events.iter().enumerate() {
        let who = format!("rules: events[{i}] '{}'", ev.name);
        if let Err(e) = DamageDice::parse(&ev.damage) {
            p.push(format!("{who}: {e}"));
        }
        if ev.tick > 100_000 || ev.damage_target > tables.die_faces {
            p.push(format!("{who}: tick at most 100000 and damage_target at most the die's faces"));
        }
        if !(ev.radius.is_finite() && ev.radius >= 0.0 && ev.radius <= 1000.0) {
            p.push(format!("{who}: radius must be 0 to 1000 metres"));
        }
    }
    for side in r.surprise.keys() {
        if !s.sides.iter().any(|x| &x.id == side) {
            p.push(format!("rules: surprise names side '{side}', which is not a side of this scenario"));
        }
    }
    for penalty in r.surprise.values().filter(|v| **v > 600) {
        p.push(format!("rules: a surprise penalty of {penalty} ticks is absurd"));
    }
    if let Some(a) = &r.ambusher
        && !s.combatants.iter().any(|c| &c.id == a)
    {
        p.push(format!("rules: ambusher '{a}' is not a combatant of this scenario"));
    }
    for m in &s.mounts {
        let who = format!("mount '{}'", m.id);
        if !(m.sheet.speed.is_finite() && (0.0..=1000.0).contains(&m.sheet.speed)) {
            p.push(format!("{who}: speed must be 0 to 1000 metres per segment"));
        }
        if ![0, 50, 90].contains(&m.sheet.cover) {
            p.push(format!("{who}: cover is 0, 50 or 90"));
        }
        if let Some(mat) = &m.sheet.material
            && !tables.barriers.contains_key(mat)
        {
            p.push(format!("{who}: material '{mat}' is not in the barrier chart"));
        }
    }
    for c in &s.combatants {
        let who = format!("combatant '{}'", c.id);
        let sh = &c.sheet;
        for (name, v) in [
            ("awareness", sh.awareness),
            ("prowess", sh.prowess),
            ("will", sh.will),
            ("resilience", sh.resilience),
            ("speed", sh.speed),
        ] {
            stat(&mut p, &who, name, v);
        }
        for (skill, v) in &sh.skills {
            stat(&mut p, &who, skill, *v);
        }
        if !(sh.visible_range.is_finite() && sh.visible_range >= 0.0 && sh.visible_range <= 100_000.0) {
            p.push(format!("{who}: visible_range must be 0 to 100000 metres"));
        }
        if !(sh.elevation.is_finite() && sh.elevation.abs() <= 10_000.0) {
            p.push(format!("{who}: elevation is absurd"));
        }
        if c.position.is_none() && c.rides.is_none() {
            p.push(format!("{who}: needs a position (metres on the field)"));
        }
        for w in &sh.weapons {
            if !catalogue.0.weapons.contains_key(w) {
                p.push(format!("{who}: carries weapon '{w}', which is not in the catalogue"));
            }
        }
        if let Some(ready) = &sh.ready
            && !sh.weapons.contains(ready)
        {
            p.push(format!("{who}: ready weapon '{ready}' is not among the weapons it carries"));
        }
        if let Some(a) = &sh.armour
            && !catalogue.0.armours.contains_key(a)
        {
            p.push(format!("{who}: wears armour '{a}', which is not in the catalogue"));
        }
        if let Some(chart) = &sh.wound_chart {
            chart_problems(&mut p, &who, chart);
        }
        if sh.initiative.is_some_and(|t| t > 600) || sh.joins_at.is_some_and(|t| t > 100_000) {
            p.push(format!("{who}: initiative or joins_at is absurd"));
        }
    }
    p
}

/// Spawns the scenario onto a cleared table; the fight ends after `max_ticks`.
pub fn spawn_scenario(world: &mut World, scenario: &FateWalkerScenario, seed: u64, max_ticks: u32) {
    let catalogue = Catalogue::new(&scenario.rules);
    let opening = scenario.rules.ambusher.is_some() || scenario.rules.events.iter().any(|e| e.tick == 0);
    let first = if opening { FateWalkerPhase::Ambush } else { FateWalkerPhase::Initiative };
    let index = scenario.spawn_core(world, seed, first.name(), FateWalker::CLOCK.unit);
    for c in &scenario.combatants {
        let Some(e) = index.combatant(&c.id) else { continue };
        let s = &c.sheet;
        let chart = s.wound_chart.as_ref().unwrap_or(&catalogue.tables().wound_chart);
        let mut entity = world.entity_mut(e);
        entity.insert((
            Traits {
                awareness: s.awareness,
                prowess: s.prowess,
                will: s.will,
                resilience: s.resilience,
                speed: s.speed,
            },
            Skills(s.skills.clone()),
            Senses { visible_range: s.visible_range, size: s.size, ir: s.ir, illumination: s.illumination },
            Arms { carried: s.weapons.clone(), ready: s.ready.clone() },
            Worn(s.armour.clone()),
            Stance { prone: s.prone, elevation: s.elevation },
            ActionClock { joins_at: s.joins_at, fixed_initiative: s.initiative, ..Default::default() },
            WoundChart::new(chart),
            Afflictions::default(),
        ));
    }
    for m in &scenario.mounts {
        if let Some(e) = index.mount(&m.id) {
            world.entity_mut(e).insert(Vehicle(m.sheet.clone()));
        }
    }
    // A rider stands where its vehicle stands.
    for c in scenario.combatants.iter().filter(|c| c.rides.is_some()) {
        let vehicle = c.rides.as_ref().and_then(|m| index.mount(m));
        let at = vehicle.and_then(|v| world.get::<fray_core::prelude::FieldPosition>(v).copied());
        if let (Some(e), Some(at)) = (index.combatant(&c.id), at) {
            world.entity_mut(e).insert(at);
        }
    }
    world.insert_resource(catalogue);
    world.insert_resource(SurprisePenalties(scenario.rules.surprise.clone()));
    world.insert_resource(Ambusher(scenario.rules.ambusher.clone()));
    world.insert_resource(crate::clock::Script(scenario.rules.events.clone()));
    world.insert_resource(Clock { tick: 0, previous: 0, max_ticks });
    world.insert_resource(TickState::default());
    world.insert_resource(CurrentPhase::new(first));
}
