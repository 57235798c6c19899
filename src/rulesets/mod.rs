//! The one place Fray learns of its rulesets: each is registered here with one line: its
//! rules, or its board adapter (a folder beside this file) when it has widgets of its own,
//! which brings its rules. How to add a ruleset: `plugins/README.md`.

mod ap_ladder;
mod faction_zones;
mod fast_slow;
mod fatewalker;
mod fiend_wake;

use std::path::Path;

use fray_core::fight::LoadedScenario;
use fray_core::ruleset::Rulesets;
use fray_core::scenario::ScenarioError;

use crate::client::adapter::Registration;

/// Every ruleset Fray plays, in this order (also the order of the one rules schedule).
pub fn all() -> Vec<Registration> {
    vec![
        Registration::with_board::<fiend_wake::Board>(),
        Registration::with_board::<fatewalker::Board>(),
        Registration::rules::<::toy_duel::ToyDuel>(),
        Registration::with_board::<fast_slow::Board>(),
        Registration::with_board::<faction_zones::Board>(),
        Registration::with_board::<ap_ladder::Board>(),
    ]
}

/// The rules of every ruleset: what reads scenarios and saves.
pub fn registry() -> Rulesets {
    all().into_iter().fold(Rulesets::default(), |rulesets, r| rulesets.with_any(r.rules))
}

/// Parses and checks scenario text with the ruleset it names.
pub fn parse(text: &str) -> Result<LoadedScenario, ScenarioError> {
    registry().parse(text)
}

/// Reads, parses and checks a scenario file.
pub fn load(path: &Path) -> Result<LoadedScenario, ScenarioError> {
    registry().load(path)
}
