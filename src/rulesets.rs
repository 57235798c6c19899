//! Which ruleset reads a scenario file, and the battles each can run headless.

use std::path::Path;

use bevy_app::App;
use fray_core::scenario::{ScenarioError, read_header, read_text};

/// A parsed, checked scenario of any ruleset.
pub enum LoadedScenario {
    /// A Fiend Wake scenario.
    FiendWake(Box<fiend_wake::FwScenario>),
}

impl LoadedScenario {
    /// The scenario's own seed.
    pub fn seed(&self) -> u64 {
        match self {
            LoadedScenario::FiendWake(s) => s.seed,
        }
    }

    /// The scenario's name.
    pub fn name(&self) -> &str {
        match self {
            LoadedScenario::FiendWake(s) => &s.name,
        }
    }

    /// Clears `app`'s table and sets this scenario up on it for another battle.
    pub fn reset(&self, app: &mut App, seed: u64, max_rounds: u32, all_ai: bool) {
        match self {
            LoadedScenario::FiendWake(s) => fiend_wake::reset_table(app, s, seed, max_rounds, all_ai),
        }
    }

    /// Clears the world's table and spawns this scenario instead (opening another file).
    pub fn respawn(&self, world: &mut bevy_ecs::world::World, seed: u64, max_rounds: u32) {
        match self {
            LoadedScenario::FiendWake(s) => fiend_wake::load::reset_world(world, s, seed, max_rounds, false),
        }
    }

    /// Spawns this scenario into an app that already has the ruleset's plugin (the window).
    pub fn spawn(&self, world: &mut bevy_ecs::world::World, seed: u64, max_rounds: u32) {
        match self {
            LoadedScenario::FiendWake(s) => fiend_wake::spawn_scenario(world, s, seed, max_rounds, false),
        }
    }

    /// A headless table for one battle.
    pub fn table_app(&self, seed: u64, max_rounds: u32, all_ai: bool) -> App {
        match self {
            LoadedScenario::FiendWake(s) => fiend_wake::table_app(s, seed, max_rounds, all_ai),
        }
    }
}

/// Parses and checks scenario text.
pub fn parse(text: &str) -> Result<LoadedScenario, ScenarioError> {
    let header = read_header(text)?;
    match header.ruleset.as_str() {
        fiend_wake::RULESET_ID => Ok(LoadedScenario::FiendWake(Box::new(fiend_wake::parse_scenario(text)?))),
        other => Err(ScenarioError::UnknownRuleset(other.to_owned())),
    }
}

/// Reads, parses and checks a scenario file.
pub fn load(path: &Path) -> Result<LoadedScenario, ScenarioError> {
    parse(&read_text(path)?)
}
