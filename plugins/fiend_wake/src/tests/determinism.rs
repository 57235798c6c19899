//! The same scenario and seed give a byte-identical log: checked against a golden file.
//! Set `FRAY_BLESS=1` to rewrite the golden file after an intended rule change.

use std::path::Path;

use super::support::{CASTLE, Table, app};

fn swamp_log(seed: u64) -> String {
    let mut t = Table::from_text(super::support::SWAMP, seed, true, 100);
    t.update();
    assert_eq!(t.phase(), crate::FiendWakePhase::CombatOver, "an all-AI battle ends in one update");
    t.log_jsonl()
}

#[test]
fn the_swamp_with_seed_7_replays_its_golden_log_byte_for_byte() {
    let golden = Path::new(
        &std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").to_owned()),
    )
    .join("tests/golden/swamp_seed7.jsonl");
    let log = swamp_log(7);
    assert!(
        fray_core::log::matches_golden(&golden, &log).unwrap_or_else(|e| panic!("{e}")),
        "the swamp log for seed 7 differs from the golden file; a rule change must bless it"
    );
}

#[test]
fn the_same_seed_twice_gives_the_same_log_and_another_seed_another() {
    assert_eq!(swamp_log(99), swamp_log(99));
    assert_ne!(swamp_log(99), swamp_log(100), "the seed drives the dice");
}

#[test]
fn a_reused_table_app_plays_the_same_battle_as_a_fresh_one() {
    let log_of = |app: &bevy_app::App| {
        let mut out = Vec::new();
        app.world().resource::<fray_core::log::GameLog>().write_jsonl(&mut out, None).expect("in memory");
        out
    };
    let mut fresh = app(CASTLE, 42, 100, true);
    fresh.update();
    let mut reused = app(CASTLE, 41, 100, true);
    reused.update();
    let session = reused.world().resource::<fray_core::fight::Session>().clone();
    session.scenario.start(reused.world_mut(), 42, 100, true);
    reused.update();
    assert!(log_of(&fresh) == log_of(&reused), "a reset table replays seed 42 exactly");
}
