//! The wound chart: temporary wounds per source, column-by-column filling with its
//! penalties, mortal wounds and death, and stun: the half-chart consciousness roll and the
//! conversions (1 for 1 when the chart is full, 2 stun per normal point, the half point).

use fray_core::log::LogEvent;
use fray_core::prelude::Status;

use super::support::{Table, YARD};
use crate::damage::{Hit, deal};
use crate::data::{ColumnSpec, WoundChartSpec};
use crate::intent::{Action, FateWalkerIntent};
use crate::sheet::Afflictions;
use crate::wounds::{DamageKind, Mark, WoundChart};

/// Three columns of three boxes (penalties 0, 1, 2; movement 0, 0, 1), 4 temporary boxes,
/// 3 mortal boxes.
fn chart() -> WoundChart {
    WoundChart::new(&WoundChartSpec {
        glancing: 4,
        columns: vec![
            ColumnSpec { boxes: 3, wound: 0, movement: 0 },
            ColumnSpec { boxes: 3, wound: 1, movement: 0 },
            ColumnSpec { boxes: 3, wound: 2, movement: 1 },
        ],
        mortal: 3,
    })
}

use Mark::{Empty as E, Normal as N, Stun as S};

#[test]
fn temporary_wounds_take_up_to_resilience_per_source_until_full() {
    let mut c = chart();
    let a = c.apply(5, DamageKind::Normal, 2);
    assert_eq!((a.glancing, a.normal), (2, 3), "Resilience 2 of the 5 go to temporary wounds");
    let b = c.apply(1, DamageKind::Normal, 2);
    assert_eq!(b.glancing, 1, "a new source may use the temporary boxes again");
    let d = c.apply(3, DamageKind::Normal, 2);
    assert_eq!((d.glancing, d.normal), (1, 2), "only one temporary box was left");
    assert_eq!(c.glancing, 4);
}

#[test]
fn normal_wounds_fill_column_by_column_with_the_rightmost_columns_penalties() {
    let mut c = chart();
    c.apply(2, DamageKind::Normal, 0);
    assert_eq!(c.marks, vec![N, N, E, E, E, E, E, E, E], "top to bottom in the first column");
    assert_eq!(c.wound_penalty(), 0, "the first column carries no penalty");
    c.apply(2, DamageKind::Normal, 0);
    assert_eq!(c.marks[..4], [N, N, N, N], "the fourth mark opens the second column");
    assert_eq!(c.wound_penalty(), 1, "the second column's penalty applies");
    c.apply(3, DamageKind::Normal, 0);
    assert_eq!((c.wound_penalty(), c.movement_penalty()), (2, 1), "the third column: wound 2, movement 1");
}

#[test]
fn a_full_chart_spills_into_mortal_wounds_each_a_penalty_until_death() {
    let mut c = chart();
    let a = c.apply(10, DamageKind::Normal, 0);
    assert_eq!((a.normal, a.mortal, a.died), (9, 1, false), "9 boxes, then the first mortal wound");
    assert_eq!(c.wound_penalty(), 3, "the last column's 2 plus 1 per mortal wound");
    let b = c.apply(2, DamageKind::Normal, 0);
    assert!(b.died, "filling the last mortal box kills");
}

#[test]
fn stun_on_a_half_filled_chart_calls_for_a_consciousness_roll() {
    let mut c = chart();
    let a = c.apply(4, DamageKind::Stun, 0);
    assert_eq!(c.marks[..4], [S, S, S, S], "stun marks fill like normal ones");
    assert!(!a.consciousness_roll, "4 of 9 boxes is less than half");
    let b = c.apply(1, DamageKind::Stun, 0);
    assert!(b.consciousness_roll, "5 of 9 is at least half: roll after applying the stun");
    let n = c.apply(1, DamageKind::Normal, 0);
    assert!(!n.consciousness_roll, "only stun damage calls for the roll");
}

#[test]
fn stun_on_a_full_chart_converts_one_stun_to_normal_from_the_start() {
    let mut c = chart();
    c.apply(9, DamageKind::Stun, 0);
    let a = c.apply(2, DamageKind::Stun, 0);
    assert_eq!((a.converted, a.mortal), (2, 0), "two more stun turn the first two stun marks normal");
    assert_eq!(c.marks[..3], [N, N, S], "from the beginning of the chart");
}

#[test]
fn normal_damage_converts_two_stun_per_point() {
    let mut c = chart();
    c.apply(6, DamageKind::Stun, 0);
    let a = c.apply(2, DamageKind::Normal, 0);
    assert_eq!((a.converted, a.normal, a.stun), (4, 0, 0), "2 points convert 4 stun marks and add none");
    assert_eq!(c.marks, vec![N, N, N, N, S, S, E, E, E]);
}

#[test]
fn a_half_point_left_after_converting_every_stun_becomes_one_stun_mark() {
    let mut c = chart();
    c.apply(3, DamageKind::Stun, 0);
    let a = c.apply(5, DamageKind::Normal, 0);
    assert_eq!(a.converted, 3, "3 stun marks use 1.5 points");
    assert_eq!((a.normal, a.stun), (3, 1), "3.5 points are left: 3 normal marks and a final stun mark");
    assert_eq!(c.marks, vec![N, N, N, N, N, N, S, E, E]);
}

#[test]
fn a_failed_consciousness_roll_knocks_out_and_mortal_wounds_bleed() {
    let yard = YARD.replace(
        "will: 3, resilience: 3, speed: 5, initiative: 6",
        "will: 0, resilience: 0, speed: 5, initiative: 6",
    );
    let mut t = Table::from_ron(&yard);
    let bo = t.e("bo");
    let stun =
        Hit { normal: 0, piercing: 7, kind: DamageKind::Stun, absorbable: true, source: "test".into() };
    deal(t.world_mut(), bo, stun);
    assert_eq!(t.status("bo"), Status::Unconscious, "Will 0 rolls no dice: no success, out cold");
    let rolled = t.log().iter().any(|l| {
        l.actor.as_ref().is_some_and(|a| a.as_str() == "bo")
            && matches!(&l.event, fray_core::log::LogEvent::Roll(r) if r.what.contains("conscious"))
    });
    assert!(rolled, "the consciousness roll is logged");

    let ann = t.e("ann");
    let heavy = Hit {
        normal: 0,
        piercing: 3 + 12 + 1,
        kind: DamageKind::Normal,
        absorbable: true,
        source: "test".into(),
    };
    deal(t.world_mut(), ann, heavy);
    assert_eq!(t.chart("ann").mortal, 1, "3 temporary, 12 normal, then 1 mortal");
    let bleeding =
        t.world().get::<Afflictions>(ann).and_then(|a| a.0.iter().find(|x| x.what == "bleeding").cloned());
    let bleeding = bleeding.expect("a mortal wound bleeds");
    assert_eq!(bleeding.every, 4 + 3, "every Prowess + Will ticks");
    assert_eq!(t.status("ann"), Status::Fighting, "still standing, for now");
}

#[test]
fn damage_over_time_strikes_every_few_ticks_as_often_as_it_lasts() {
    let mut t = Table::from_ron(YARD);
    let bo = t.e("bo");
    let fire = crate::sheet::Affliction {
        what: "fire".into(),
        every: 3,
        damage: 2,
        next: 5,
        remaining: Some(2),
        absorbed: false,
        stun: false,
    };
    t.world_mut().get_mut::<Afflictions>(bo).expect("afflictions").0.push(fire);
    t.accept("ann", FateWalkerIntent::Act { action: Action::Wait { ticks: 10 } });
    t.accept("bo", FateWalkerIntent::Act { action: Action::Wait { ticks: 10 } });
    t.accept("ann", FateWalkerIntent::Act { action: Action::Wait { ticks: 10 } });
    let burns: Vec<u32> = t
        .log()
        .iter()
        .filter(|l| matches!(&l.event, LogEvent::Damage { source, .. } if source.name == "fire"))
        .map(|l| l.clock)
        .collect();
    assert_eq!(burns, [5, 8], "2 damage at tick 5 and 3 ticks later, then it is spent");
    assert_eq!(t.chart("bo").glancing, 4, "each strike is its own source: 2 + 2 temporary wounds");
    assert!(t.world().get::<Afflictions>(bo).is_some_and(|a| a.0.is_empty()), "the fire is out");
}

#[test]
fn temporary_wounds_heal_after_600_ticks_of_a_long_scene() {
    let mut t = Table::from_ron(YARD);
    let bo = t.e("bo");
    let graze =
        Hit { normal: 0, piercing: 2, kind: DamageKind::Normal, absorbable: false, source: "graze".into() };
    deal(t.world_mut(), bo, graze);
    assert_eq!(t.chart("bo").glancing, 2);
    while t.tick() < 600 && t.phase() != crate::FateWalkerPhase::FightOver {
        let who = t.awaiting().first().cloned().expect("someone is awaited");
        t.accept(&who, FateWalkerIntent::Act { action: Action::Wait { ticks: 60 } });
    }
    assert_eq!(t.chart("bo").glancing, 0, "5 minutes (600 ticks) heal temporary wounds");
    assert!(
        t.log().iter().any(|l| l.clock == 600
            && matches!(&l.event, LogEvent::Effect { what: "temporary_wounds_healed", .. }))
    );
}

#[test]
fn scripted_events_strike_everyone_in_their_radius_at_their_tick() {
    let text = YARD.replace(
        "rules: (",
        r#"rules: (
        events: [
            (tick: 0, name: "Flash", position: (0.0, 0.0), radius: 2.0, damage: "3x1", damage_target: 10,
             damage_type: Energy, stun: true),
            (tick: 9, name: "Gas main", position: (10.0, 0.0), radius: 3.0, damage: "2x3", damage_target: 10,
             damage_type: Physical),
        ],"#,
    );
    let mut t = Table::from_ron(&text);
    let log = t.log();
    let flash = log
        .iter()
        .position(|l| matches!(&l.event, LogEvent::Effect { what: "event", detail } if detail == "Flash"));
    let first_initiative =
        log.iter().position(|l| matches!(&l.event, LogEvent::Effect { what: "initiative", .. }));
    assert!(
        flash.expect("the flash goes off") < first_initiative.expect("initiative"),
        "tick 0 opens the fight"
    );
    assert_eq!(t.chart("ann").glancing, 3, "Ann, at the centre, takes all 3 (target 10: every die scores)");
    assert_eq!(t.chart("bo").glancing, 0, "Bo, 10 m away, is outside the flash");
    t.accept("ann", FateWalkerIntent::Act { action: Action::Wait { ticks: 20 } });
    t.accept("bo", FateWalkerIntent::Act { action: Action::Wait { ticks: 20 } });
    let gas = t
        .log()
        .iter()
        .find(|l| matches!(&l.event, LogEvent::Effect { what: "event", detail } if detail == "Gas main"))
        .cloned();
    assert_eq!(gas.map(|l| l.clock), Some(9), "the clock stops at tick 9 for the event");
    let bo = t.chart("bo");
    assert_eq!(bo.glancing + bo.filled() as u32, 6, "Bo takes 2x3 = 6: 3 temporary (Resilience), 3 normal");
}
