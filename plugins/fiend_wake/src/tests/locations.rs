//! Locations: accessibility, entry costs, locality, reach.

use crate::view::entry_cost;
use fray_core::location::{accessible_from, are_local, can_enter, reach, why_not_enter};
use fray_core::prelude::Counters;

use super::support::Table;
use crate::counters::*;

fn castle() -> Table {
    Table::from_text(super::support::CASTLE, 1, false, 100).all_human()
}

#[test]
fn in_the_castle_the_gatehouse_reaches_the_barbican_and_the_courtyard_but_not_the_keep() {
    let t = castle();
    let w = t.world();
    let accessible: Vec<String> = accessible_from(w, t.e("gatehouse"))
        .into_iter()
        .map(|e| w.get::<fray_core::prelude::Location>(e).expect("a location").id.to_string())
        .collect();
    assert_eq!(accessible, vec!["barbican", "courtyard"]);
    assert!(!can_enter(w, t.e("gatehouse"), t.e("keep")));
    assert_eq!(
        why_not_enter(w, t.e("gatehouse"), t.e("keep")).as_deref(),
        Some("the Keep can only be entered from the Courtyard")
    );
    assert_eq!(
        why_not_enter(w, t.e("field"), t.e("gatehouse")).as_deref(),
        Some("the Gatehouse can only be entered from the Barbican or the Courtyard")
    );
}

#[test]
fn the_reach_view_counts_moves_from_no_location() {
    let t = castle();
    let w = t.world();
    let mut reached: Vec<(String, u32)> = reach(w, t.e("field"), 3)
        .into_iter()
        .map(|(e, d)| (w.get::<fray_core::prelude::Location>(e).expect("a location").id.to_string(), d))
        .collect();
    reached.sort();
    assert_eq!(
        reached,
        vec![("barbican".into(), 1), ("courtyard".into(), 3), ("field".into(), 0), ("gatehouse".into(), 2)],
        "the Keep is four moves away"
    );
}

#[test]
fn an_older_files_entry_cost_is_read_as_the_property_and_written_back_as_one() {
    let castle = super::support::CASTLE;
    let old = castle
        .replacen(
            "entered_from: [\"field\", \"gatehouse\"],",
            "entry_cost: 3, entered_from: [\"field\", \"gatehouse\"],",
            1,
        )
        .replacen(
            "properties: [EntryCost(2), RubblePerSiege(1), Note(\"The outer",
            "properties: [RubblePerSiege(1), Note(\"The outer",
            1,
        )
        .replacen("properties: [EntryCost(1)],", "", 1);
    assert!(old.contains("entry_cost: 3") && !old.contains("EntryCost(1)"), "the older form is tested");
    let t = Table::from_text(&old, 1, false, 100);
    assert_eq!(entry_cost(t.world(), t.e("barbican")), 3, "entry_cost: 3");
    assert_eq!(entry_cost(t.world(), t.e("courtyard")), 1, "none given: 1");
    assert_eq!(entry_cost(t.world(), t.e("field")), 0, "no location costs nothing");
    let written =
        fray_core::scenario::to_ron(&crate::parse_scenario(&old).expect("parses")).expect("written");
    assert!(written.contains("EntryCost(3)") && !written.contains("entry_cost"), "{written}");
    let both = old.replacen(
        "properties: [RubblePerSiege(1), Note(\"The outer",
        "properties: [EntryCost(2), RubblePerSiege(1), Note(\"The outer",
        1,
    );
    let refused = crate::parse_scenario(&both).expect_err("two costs").report("castle").join("; ");
    assert!(refused.contains("location 'barbican': 2 entry costs given"), "{refused}");
}

#[test]
fn siege_damage_on_a_rubble_location_raises_its_entry_cost() {
    let mut t = castle();
    let barbican = t.e("barbican");
    assert_eq!(entry_cost(t.world(), barbican), 2);
    t.world_mut().get_mut::<Counters>(barbican).expect("locations hold counters").add(SIEGE_DAMAGE, 2);
    assert_eq!(entry_cost(t.world(), barbican), 4, "rubble: +1 TP per siege damage");
    t.update();
    assert_eq!(t.token_entities("barbican", SIEGE_DAMAGE), 2, "siege damage tallies as tokens");
}

#[test]
fn combatants_in_the_same_place_are_local_and_others_outsiders() {
    let t = castle();
    let w = t.world();
    assert!(are_local(w, t.e("castellan"), t.e("keep_archer")), "both in the Keep");
    assert!(!are_local(w, t.e("castellan"), t.e("gate_warden")), "Keep and Gatehouse");
    assert!(are_local(w, t.e("raider_1"), t.e("raider_2")), "both in no location");
    assert_eq!(t.place("sir_oswin"), "field", "a rider stands where the mount stands");
}
