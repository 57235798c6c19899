//! The same scenario and seed give a byte-identical log: checked against a golden file.
//! Set `FRAY_BLESS=1` to rewrite the golden file after an intended rule change.

use std::path::Path;

use super::support::{AMBUSH, Table, app};
use crate::FateWalkerPhase;

fn ambush_log(seed: u64) -> String {
    let mut t = Table::ambush(seed, true, 600);
    t.update();
    assert_eq!(t.phase(), FateWalkerPhase::FightOver, "an all-AI battle ends in one update");
    t.log_jsonl()
}

#[test]
fn the_ambush_with_seed_7_replays_its_golden_log_byte_for_byte() {
    let golden = Path::new(
        &std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").to_owned()),
    )
    .join("tests/golden/ambush_seed7.jsonl");
    let log = ambush_log(7);
    assert!(
        fray_core::log::matches_golden(&golden, &log).unwrap_or_else(|e| panic!("{e}")),
        "the ambush log for seed 7 differs from the golden file; a rule change must bless it"
    );
}

#[test]
fn the_same_seed_twice_gives_the_same_log_and_another_seed_another() {
    assert_eq!(ambush_log(99), ambush_log(99));
    assert_ne!(ambush_log(99), ambush_log(100), "the seed drives the dice");
}

#[test]
fn a_reused_table_app_plays_the_same_battle_as_a_fresh_one() {
    let log_of = |app: &bevy_app::App| {
        let mut out = Vec::new();
        app.world().resource::<fray_core::log::GameLog>().write_jsonl(&mut out, None).expect("in memory");
        out
    };
    let mut fresh = app(AMBUSH, 42, 600, true);
    fresh.update();
    let mut reused = app(AMBUSH, 41, 600, true);
    reused.update();
    let session = reused.world().resource::<fray_core::fight::Session>().clone();
    session.scenario.start(reused.world_mut(), 42, 600, true);
    reused.update();
    assert!(log_of(&fresh) == log_of(&reused), "a reset table replays seed 42 exactly");
}

#[test]
fn a_recorded_fight_replays_onto_a_fresh_table_to_the_same_log() {
    use fray_core::session::{IntentHistory, open_record};
    let mut played = app(AMBUSH, 11, 600, true);
    played.update();
    let history = played.world().resource::<IntentHistory<crate::FateWalkerIntent>>().clone();
    assert!(history.entries.len() > 20, "the AI's decisions are recorded: {}", history.entries.len());
    let mut fresh = app(AMBUSH, 11, 600, true);
    let scenario = fresh.world().resource::<fray_core::fight::Session>().scenario.clone();
    let report = open_record(
        fresh.world_mut(),
        |w| scenario.rebuild(w, 11, 600, true),
        &history.start,
        &history.entries,
        &history.controller_changes,
    );
    assert!(report.stopped.is_none(), "every recorded intent replays: {}", report.message());
    let log_of = |app: &bevy_app::App| {
        let mut out = Vec::new();
        app.world().resource::<fray_core::log::GameLog>().write_jsonl(&mut out, None).expect("in memory");
        out
    };
    assert!(log_of(&played) == log_of(&fresh), "the replay gives the same log, dice included");
}
