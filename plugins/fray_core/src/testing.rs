//! The tests every ruleset has, written once: [`ruleset_tests!`](crate::ruleset_tests) gives a
//! ruleset's test module its golden log, its determinism, a reused table, a recorded fight
//! replayed, and its rules schedule's order, in one line. The functions here are those tests'
//! bodies, for a ruleset that wants one of them on another scenario.

use std::path::{Path, PathBuf};

use bevy_app::App;

use crate::fight::Session;
use crate::log::{GameLog, matches_golden};
use crate::ruleset::open_record;
use crate::ruleset::{AddRuleset, FightResult, Playable, check_rules_schedule, table_app};
use crate::session::IntentHistory;

/// One all-AI fight: a scenario's text, the seed and the limit in the ruleset's clock.
#[derive(Clone, Copy)]
pub struct Fight {
    /// The scenario, as RON text.
    pub scenario: &'static str,
    /// The RNG seed.
    pub seed: u64,
    /// The fight's limit in the ruleset's clock.
    pub limit: u32,
}

impl std::fmt::Debug for Fight {
    /// The seed and the limit (the scenario's text would fill the screen).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the fight with seed {} and limit {}", self.seed, self.limit)
    }
}

impl Fight {
    /// The same fight with another seed.
    pub fn seed(self, seed: u64) -> Self {
        Self { seed, ..self }
    }

    /// A table of ruleset `R` at this fight's start, every side played by the AI.
    pub fn table<R: Playable>(self) -> App {
        table_app::<R>(self.scenario, self.seed, self.limit, true).unwrap_or_else(|e| {
            panic!("the test scenario does not parse: {}", e.report("scenario").join("; "))
        })
    }

    /// The fight played to its end on a fresh table: its log as JSON Lines.
    pub fn log<R: Playable>(self) -> String {
        let mut app = self.table::<R>();
        app.update();
        assert!(
            app.world().contains_resource::<FightResult>(),
            "an all-AI fight ends in one update: {self:?}"
        );
        log_of(&app)
    }
}

/// The table's log as JSON Lines.
pub fn log_of(app: &App) -> String {
    let mut out = Vec::new();
    app.world().resource::<GameLog>().write_jsonl(&mut out, None).expect("in memory");
    String::from_utf8(out).expect("the log is UTF-8")
}

/// A path under the crate's folder (`manifest` is its `CARGO_MANIFEST_DIR` at build time; the
/// one at run time wins, for a tree moved after building).
pub fn in_crate(manifest: &str, path: &str) -> PathBuf {
    Path::new(&std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| manifest.to_owned())).join(path)
}

/// The fight's log is byte for byte the golden file (`FRAY_BLESS=1` rewrites it).
pub fn golden_log<R: Playable>(fight: Fight, golden: &Path) {
    let log = fight.log::<R>();
    let same = matches_golden(golden, &log).unwrap_or_else(|e| panic!("{e}"));
    assert!(same, "the log of {fight:?} differs from {}; a rule change must bless it", golden.display());
}

/// The same seed twice gives the same log; another seed gives another.
pub fn same_seed_same_log<R: Playable>(fight: Fight) {
    assert_eq!(fight.log::<R>(), fight.log::<R>(), "seed {}", fight.seed);
    assert_ne!(fight.log::<R>(), fight.seed(fight.seed + 1).log::<R>(), "the seed drives the dice");
}

/// A table that played one fight and is started again plays the next as a fresh one does.
pub fn reused_table_plays_as_fresh<R: Playable>(fight: Fight) {
    let mut reused = fight.seed(fight.seed + 1).table::<R>();
    reused.update();
    let session = reused.world().resource::<Session>().clone();
    session.scenario.start(reused.world_mut(), fight.seed, fight.limit, true);
    reused.update();
    assert!(log_of(&reused) == fight.log::<R>(), "a reset table replays seed {} exactly", fight.seed);
}

/// The fight's recorded decisions replay onto a fresh table to the same log, dice included.
pub fn recorded_fight_replays<R: Playable>(fight: Fight) {
    let mut played = fight.table::<R>();
    played.update();
    let history = played.world().resource::<IntentHistory>().clone();
    assert!(!history.entries.is_empty(), "the AI's decisions are recorded");
    let mut fresh = fight.table::<R>();
    let scenario = fresh.world().resource::<Session>().scenario.clone();
    let report = open_record(
        fresh.world_mut(),
        scenario.ruleset().as_ref(),
        &|w| scenario.rebuild(w, fight.seed, fight.limit, true),
        &history.start,
        &history.entries,
        &history.controller_changes,
    );
    assert!(report.stopped.is_none(), "every recorded intent replays: {}", report.message());
    assert!(log_of(&played) == log_of(&fresh), "the replay gives the same log");
}

/// Every rule system of `R` is ordered against every other it conflicts with.
pub fn rules_schedule_is_ordered<R: Playable>() {
    let mut app = App::new();
    app.add_ruleset::<R>();
    if let Err(e) = check_rules_schedule(&mut app) {
        panic!("{e}");
    }
}

/// A ruleset's standard tests, one line in its test module:
/// `fray_core::ruleset_tests!(MyRules, SCENARIO_TEXT, seed 7, limit 100, golden "tests/golden/x.jsonl");`
/// The golden path is under the ruleset's crate.
#[macro_export]
macro_rules! ruleset_tests {
    ($rules:ty, $scenario:expr, seed $seed:expr, limit $limit:expr, golden $golden:expr) => {
        /// The fight the tests below play.
        fn ruleset_tests_fight() -> $crate::testing::Fight {
            $crate::testing::Fight { scenario: $scenario, seed: $seed, limit: $limit }
        }

        #[test]
        fn the_golden_fight_replays_its_log_byte_for_byte() {
            let golden = $crate::testing::in_crate(env!("CARGO_MANIFEST_DIR"), $golden);
            $crate::testing::golden_log::<$rules>(ruleset_tests_fight(), &golden);
        }

        #[test]
        fn the_same_seed_gives_the_same_log_and_another_seed_another() {
            $crate::testing::same_seed_same_log::<$rules>(ruleset_tests_fight());
        }

        #[test]
        fn a_reused_table_plays_the_same_fight_as_a_fresh_one() {
            $crate::testing::reused_table_plays_as_fresh::<$rules>(ruleset_tests_fight());
        }

        #[test]
        fn a_recorded_fight_replays_onto_a_fresh_table_to_the_same_log() {
            $crate::testing::recorded_fight_replays::<$rules>(ruleset_tests_fight());
        }

        #[test]
        fn the_rules_schedule_has_no_ambiguous_systems() {
            $crate::testing::rules_schedule_is_ordered::<$rules>();
        }
    };
}
