//! Reading a toy duel scenario: parse, check, and spawn it on a table.

use bevy_ecs::prelude::*;
use fray_core::phase::{CurrentPhase, Phase};
use fray_core::ruleset::Ruleset;
use fray_core::scenario::{Scenario, ScenarioError, parse_ron};
use serde::{Deserialize, Serialize};

use crate::ToyDuel;
use crate::phase::{Duel, ToyPhase};

/// The scenario's `rules` block.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ToyRules {
    /// Faces of the die a strike rolls.
    pub die: u32,
    /// What a strike must reach: the die plus the sparks spent.
    pub to_hit: u32,
}

/// Its sheets name no catalogue of the rules block: nothing to take along.
impl fray_core::edit::EditRules<(), ()> for ToyRules {}

impl Default for ToyRules {
    fn default() -> Self {
        Self { die: 6, to_hit: 5 }
    }
}

/// A toy duel scenario: no sheets, no mounts.
pub type ToyScenario = Scenario<ToyRules, (), ()>;

/// Parses and checks a scenario: the core's checks, then the toy's.
pub fn parse_scenario(text: &str) -> Result<ToyScenario, ScenarioError> {
    let scenario: ToyScenario = parse_ron(text)?;
    let mut problems = scenario.core_problems();
    if scenario.ruleset != ToyDuel::ID {
        problems.push(format!("ruleset is '{}', but this is read as '{}'", scenario.ruleset, ToyDuel::ID));
    }
    if !(2..=100).contains(&scenario.rules.die) {
        problems.push(format!("rules: die is {}; a die has 2 to 100 faces", scenario.rules.die));
    }
    if scenario.rules.to_hit > 1000 {
        problems.push(format!("rules: to_hit {} is absurd", scenario.rules.to_hit));
    }
    if problems.is_empty() { Ok(scenario) } else { Err(ScenarioError::Invalid(problems)) }
}

/// Spawns the scenario onto a cleared table; the fight ends after `limit` rounds.
pub fn spawn_scenario(world: &mut World, scenario: &ToyScenario, seed: u64, limit: u32) {
    scenario.spawn_core(world, seed, ToyPhase::Gather.name(), ToyDuel::CLOCK.unit);
    let (die, to_hit) = (scenario.rules.die, scenario.rules.to_hit);
    world.insert_resource(Duel { limit, die, to_hit, ..Default::default() });
    world.insert_resource(CurrentPhase::new(ToyPhase::Gather));
}
