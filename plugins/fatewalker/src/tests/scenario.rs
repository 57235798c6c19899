//! The ambush scenario: it parses, the AI plays it to the end legally; broken scenarios are
//! explained, never a panic.

use super::support::{AMBUSH, Table};
use crate::{FateWalkerPhase, parse_scenario};

#[test]
fn the_ambush_parses_with_its_cover_vehicle_and_ambusher() {
    let s = parse_scenario(AMBUSH).unwrap_or_else(|e| panic!("the ambush parses: {e}"));
    assert_eq!(s.ruleset, <crate::FateWalker as fray_core::ruleset::Ruleset>::ID);
    assert_eq!(s.rules.ambusher.as_ref().map(|a| a.as_str()), Some("kez"), "the marksman opens the fight");
    assert_eq!(s.mounts.len(), 1, "the sedan is a vehicle");
    assert!(s.rules.covers.len() >= 3, "a wall, a van and a dumpster give cover");
}

#[test]
fn the_ai_plays_the_ambush_to_the_end_with_legal_intents() {
    for seed in 0..8 {
        let mut t = Table::ambush(seed, true, 600);
        t.update();
        assert_eq!(t.phase(), FateWalkerPhase::FightOver, "seed {seed}: an all-AI ambush ends in one update");
        let refused = t.refusals();
        assert!(refused.is_empty(), "seed {seed}: the AI submits only legal intents: {refused:?}");
        let result =
            t.world().get_resource::<fray_core::ruleset::FightResult>().expect("a result is recorded");
        assert!(result.clock <= 600, "seed {seed}: ended by tick 600, not {}", result.clock);
        eprintln!("seed {seed}: {result:?}");
    }
}

#[test]
fn broken_scenarios_are_explained() {
    let bad_weapon =
        AMBUSH.replace(r#"weapons: ["smg"], ready: "smg""#, r#"weapons: ["laser"], ready: "laser""#);
    let report = parse_scenario(&bad_weapon).expect_err("an unknown weapon").report("a.ron").join("\n");
    assert!(report.contains("'laser'") && report.contains("catalogue"), "{report}");

    let even = AMBUSH.replace("rules: (", r#"rules: (weapons: {"odd": (name: "Odd", kind: Melee, skill: "x", ticks: 3, damage: "2x4", damage_target: 5, damage_type: Physical)},"#);
    let report = parse_scenario(&even).expect_err("even die values").report("a.ron").join("\n");
    assert!(report.contains("odd numbers"), "{report}");

    let syntax = AMBUSH.replace("seed: 7,", "seed: 7,,");
    let report = parse_scenario(&syntax).expect_err("a syntax error").report("a.ron");
    assert!(
        report[0].starts_with("a.ron:") && report[0].split(':').count() >= 4,
        "PATH:LINE:COL: {report:?}"
    );

    let nowhere = AMBUSH.replace(r#"position: (2.0, 1.5),"#, "");
    let report = parse_scenario(&nowhere).expect_err("no position").report("a.ron").join("\n");
    assert!(report.contains("'tomas': needs a position"), "{report}");
}

#[test]
fn the_board_view_shows_ticks_holds_and_who_acts_now() {
    let mut t = super::support::Table::from_ron(super::support::YARD);
    let view = crate::view::board(t.world());
    assert_eq!((view.tick, view.phase), (4, "declare"));
    let ann = &view.combatants[0];
    assert!(ann.may_act_now && ann.next_action_tick == 4, "Ann acts at 4: {ann:?}");
    assert!(!view.combatants[1].may_act_now, "Bo waits for tick 6");
    t.accept("ann", crate::FateWalkerIntent::Hold);
    let view = crate::view::board(t.world());
    assert!(view.combatants[0].holding, "the hold is shown");
    assert_eq!(
        view.combatants[0].wounds.as_ref().map(|w| w.marks.len()),
        Some(12),
        "the default chart's boxes"
    );
}

#[test]
fn a_place_named_twice_is_offered_once() {
    // Bo stands in the crate's cover: the crate is a named place both as a cover and as
    // where Bo stands, and the same move there must be one button, not two.
    let text = super::support::YARD.replacen(
        "rules: (",
        r#"rules: (
        covers: [(id: "crate", name: "Crate", position: (10.0, 0.0), radius: 1.0, percent: 50, material: "stone")],"#,
        1,
    );
    let t = super::support::Table::from_ron(&text);
    let labels: Vec<String> =
        crate::board::choices(t.world(), t.e("ann")).into_iter().map(|c| c.label).collect();
    let walks = labels.iter().filter(|l| *l == "Walk to Crate").count();
    assert_eq!(walks, 1, "{labels:?}");
    let mut unique = labels.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), labels.len(), "no button twice: {labels:?}");
}
