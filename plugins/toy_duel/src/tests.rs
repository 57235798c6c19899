//! The toy duel played headless: by the AI to its end, against its golden log, and by a
//! person through the board's choices; its schedule is ordered.

use bevy_app::App;
use fray_core::board::Choice;
use fray_core::intent::Inbox;
use fray_core::log::GameLog;
use fray_core::phase::current;
use fray_core::ruleset::{FightResult, Ruleset, table_app};

use crate::phase::ToyPhase;
use crate::{ToyDuel, ToyIntent};

const DUEL: &str = include_str!("../scenarios/duel.ron");

fn duel(seed: u64, all_ai: bool) -> App {
    table_app::<ToyDuel>(DUEL, seed, 50, all_ai)
        .unwrap_or_else(|e| panic!("{}", e.report("duel.ron").join("; ")))
}

fn log_of(app: &App) -> String {
    let mut out = Vec::new();
    app.world().resource::<GameLog>().write_jsonl(&mut out, None).expect("in memory");
    String::from_utf8(out).expect("UTF-8")
}

#[test]
fn the_ai_plays_a_duel_to_its_end_and_one_side_wins() {
    for seed in 0..20 {
        let mut app = duel(seed, true);
        app.update();
        assert_eq!(
            current::<ToyPhase>(app.world()),
            ToyPhase::Over,
            "seed {seed}: an AI duel ends in one update"
        );
        let result = app.world().resource::<FightResult>();
        assert!(result.winner.is_some(), "seed {seed}: one side stands at the end: {result:?}");
    }
}

#[test]
fn a_person_strikes_through_the_boards_choices_and_a_fallen_target_is_refused() {
    let mut app = duel(5, false);
    app.update();
    let ruby =
        app.world().resource::<fray_core::prelude::TableIndex>().combatant(&"ruby".into()).expect("Ruby");
    assert_eq!(ToyDuel::awaiting(app.world()), [ruby], "Ruby, a person's, strikes first and the rules wait");
    let choices: Vec<Choice<ToyIntent>> = ToyDuel::choices(app.world(), ruby);
    let labels: Vec<&str> = choices.iter().map(|c| c.label.as_str()).collect();
    assert_eq!(labels, ["Strike Bea", "Strike Bo"], "a strike at each enemy");
    assert!(choices.iter().all(|c| c.verdict.is_ok()), "both stand: {choices:?}");
    app.world_mut().resource_mut::<Inbox<ToyIntent>>().submit("ruby".into(), choices[0].intent.clone());
    app.update();
    let rubys: Vec<serde_json::Value> = log_of(&app)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("JSON"))
        .filter(|e| e["actor"] == "ruby")
        .collect();
    assert!(
        rubys.iter().any(|e| e["kind"] == "roll" && e["roll"] == "best_plus"),
        "Ruby's strike rolled: {rubys:?}"
    );
    assert!(
        rubys.iter().any(|e| e["kind"] == "tokens" && e["token"] == "spark" && e["change"] == -1),
        "and spent her spark: {rubys:?}"
    );
}

// The golden log, determinism, a reused table, a recorded fight replayed, the schedule.
fray_core::ruleset_tests!(crate::ruleset::ToyDuel, DUEL, seed 5, limit 50, golden "tests/golden/duel_seed5.jsonl");
