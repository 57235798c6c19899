//! The upkeep between Fast and Slow turns (hazards grow and strike, poison bites,
//! reinforcements arrive to take a Slow turn) and the end of the round (stalled traps re-arm,
//! poison in its last round runs out).

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::dice::{RollRecord, TableRng};
use fray_core::log::{GameLog, LogEvent, Source};
use fray_core::phase::{RulesStep, go_to};
use fray_core::prelude::TableIndex;
use fray_core::table::{can_act, id, name, on_table};

use crate::combat::{accrue_fog, damage, may_accrue_fog};
use crate::phase::{Battle, FastSlowPhase, Fighter, Speed, Sustained};
use crate::schedule::FastSlowSystems;
use crate::turns::{distance, position};

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(RulesStep, upkeep.in_set(FastSlowSystems::Upkeep))
        .add_systems(RulesStep, end_of_round.in_set(FastSlowSystems::EndOfRound));
}

pub(crate) fn upkeep(world: &mut World) {
    hazards(world);
    sustained(world);
    poison(world);
    reinforcements(world);
    // The last foe fallen in the upkeep: the fight ends (the ending's check), no Slow turns.
    if crate::ending::goes_on(world) {
        go_to(world, FastSlowPhase::SlowTurns);
    }
}

/// Each hazard grows, then strikes everyone on the field inside it.
fn hazards(world: &mut World) {
    let order = world.resource::<TableIndex>().order.clone();
    let count = world.resource::<Battle>().hazards.len();
    for i in 0..count {
        let hazard = {
            let mut battle = world.resource_mut::<Battle>();
            let h = &mut battle.hazards[i];
            h.radius += h.spec.grows;
            h.clone()
        };
        let detail = format!("{} reaches {:.1} Paces", hazard.spec.name, hazard.radius);
        world.resource_mut::<GameLog>().push(None, LogEvent::Effect { what: "hazard", detail });
        let centre = [hazard.spec.at.0, hazard.spec.at.1];
        for &e in &order {
            let inside = on_table(world, e)
                && world.get::<Fighter>(e).is_some_and(|f| !f.waiting())
                && distance(position(world, e), centre) <= hazard.radius;
            if inside {
                let source = Source::named(hazard.spec.name.clone());
                damage(world, e, hazard.spec.damage, 0, source, hazard.spec.to_health);
            }
        }
    }
}

/// Each sustained spellroot: its caster accrues its FOG (a roll), then its effect is rolled
/// again on its target (a d12 for the degree, no defence). It ends when either is out of the
/// fight, or when its caster may not accrue FOG.
fn sustained(world: &mut World) {
    let all = world.resource::<Battle>().sustained.clone();
    let mut kept = Vec::new();
    for s in all {
        let spell = world.get::<Fighter>(s.caster).and_then(|f| f.sheet.weapons.get(s.weapon).cloned());
        let (Some(spell), Some(spec)) = (spell.clone(), spell.and_then(|w| w.sustain)) else { continue };
        let who = id(world, s.caster);
        if !can_act(world, s.caster) || !on_table(world, s.target) || may_accrue_fog(world, s.caster).is_err()
        {
            let detail = format!("{} ends", spell.name);
            world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what: "sustain_ended", detail });
            continue;
        }
        let face = world.resource_mut::<TableRng>().die(spec.fog);
        let caster = name(world, s.caster);
        let told = format!("{caster} risks FOG to sustain {}", spell.name);
        let roll = RollRecord::sum(format!("FOG to sustain {}", spell.name), vec![face], 0).told(told);
        world.resource_mut::<GameLog>().about(&who, LogEvent::Roll(roll));
        accrue_fog(world, s.caster, face, "sustain");
        let d12 = world.resource_mut::<TableRng>().die(12);
        let degree = crate::dice::degree(d12);
        let told = format!("{caster}'s {} holds on {}: degree {degree}", spell.name, name(world, s.target));
        let roll =
            RollRecord::sum(format!("{} sustained: degree {degree}", spell.name), vec![d12], 0).told(told);
        world.resource_mut::<GameLog>().about(&who, LogEvent::Roll(roll));
        let amount = spell.damage[(degree as usize - 1).min(2)];
        let source = Source::by(
            format!("{}'s {} (sustained)", fray_core::table::name(world, s.caster), spell.name),
            who,
            Some(spell.id.clone()),
        );
        damage(world, s.target, amount, 0, source, spell.to_health);
        kept.push(Sustained { rounds: s.rounds.saturating_sub(1), ..s });
    }
    world.resource_mut::<Battle>().sustained = kept;
}

/// The poisoned lose a stamina point.
fn poison(world: &mut World) {
    let order = world.resource::<TableIndex>().order.clone();
    for e in order {
        if on_table(world, e) && world.get::<Fighter>(e).is_some_and(|f| f.poisoned > 0) {
            damage(world, e, 1, 0, Source::named("poison"), false);
        }
    }
}

/// Those whose round it is arrive, to take a Slow turn this round.
fn reinforcements(world: &mut World) {
    let round = world.resource::<Battle>().round;
    let order = world.resource::<TableIndex>().order.clone();
    for e in order {
        let arrives = world.get::<Fighter>(e).is_some_and(|f| f.joins.is_some_and(|r| r <= round));
        if !arrives {
            continue;
        }
        if let Some(mut f) = world.get_mut::<Fighter>(e) {
            f.joins = None;
            f.speed = Some(Speed::Slow);
            f.acted = false;
        }
        let who = id(world, e);
        world
            .resource_mut::<GameLog>()
            .about(&who, LogEvent::Effect { what: "arrived", detail: "reinforcements".to_owned() });
    }
}

pub(crate) fn end_of_round(world: &mut World) {
    let round = world.resource::<Battle>().round;
    let rearmed: Vec<String> = {
        let mut battle = world.resource_mut::<Battle>();
        battle
            .traps
            .iter_mut()
            .filter(|t| t.stalled_until.is_some_and(|r| r <= round))
            .map(|t| {
                t.stalled_until = None;
                t.spec.name.clone()
            })
            .collect()
    };
    for name in rearmed {
        world.resource_mut::<GameLog>().push(None, LogEvent::Effect { what: "trap_rearmed", detail: name });
    }
    // A sustained spell counts its upkeeps down as they come: one cast in a Slow turn, after
    // this round's upkeep, has them all still to come.
    let ran_out: Vec<(Entity, usize)> = {
        let mut battle = world.resource_mut::<Battle>();
        let out = battle.sustained.iter().filter(|s| s.rounds == 0).map(|s| (s.caster, s.weapon)).collect();
        battle.sustained.retain(|s| s.rounds > 0);
        out
    };
    for (caster, weapon) in ran_out {
        let spell =
            world.get::<Fighter>(caster).and_then(|f| f.sheet.weapons.get(weapon).map(|w| w.name.clone()));
        let who = id(world, caster);
        let detail = spell.unwrap_or_default();
        world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what: "sustain_ran_out", detail });
    }
    let order = world.resource::<TableIndex>().order.clone();
    for e in order {
        let Some(mut f) = world.get_mut::<Fighter>(e) else { continue };
        if f.poisoned == 0 {
            continue;
        }
        f.poisoned -= 1;
        if f.poisoned == 0 {
            let who = id(world, e);
            world
                .resource_mut::<GameLog>()
                .about(&who, LogEvent::Effect { what: "poison_ran_out", detail: String::new() });
        }
    }
    go_to(world, FastSlowPhase::RoundStart);
}
