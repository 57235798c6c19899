//! Which ruleset reads a scenario file, and the battles each can run headless.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use bevy_app::App;
use bevy_ecs::world::World;
use fray_core::ids::CombatantId;
use fray_core::phase::CurrentPhase;
use fray_core::scenario::{ScenarioError, read_header, read_text};

/// A parsed, checked scenario of any ruleset, with the text it was read from (saves embed
/// it). Cheap to clone.
#[derive(Clone)]
pub struct LoadedScenario {
    /// The ruleset's scenario.
    pub rules: RulesetScenario,
    /// The scenario file's text.
    pub text: Arc<str>,
    /// Where it was read from, if from a file.
    pub path: Option<PathBuf>,
}

/// A scenario as its ruleset reads it.
#[derive(Clone)]
pub enum RulesetScenario {
    /// A Fiend Wake scenario.
    FiendWake(Arc<fiend_wake::FwScenario>),
    /// A FateWalker scenario.
    Fatewalker(Arc<fatewalker::FwkScenario>),
}

/// The default fight limit of a round-based ruleset (Fiend Wake): rounds.
pub const DEFAULT_MAX_ROUNDS: u32 = 100;

/// The default fight limit of a tick-based ruleset (FateWalker): ticks of half a second,
/// so five minutes of fighting.
pub const DEFAULT_MAX_TICKS: u32 = 600;

impl LoadedScenario {
    /// The scenario's own seed.
    pub fn seed(&self) -> u64 {
        match &self.rules {
            RulesetScenario::FiendWake(s) => s.seed,
            RulesetScenario::Fatewalker(s) => s.seed,
        }
    }

    /// The scenario's name.
    pub fn name(&self) -> &str {
        match &self.rules {
            RulesetScenario::FiendWake(s) => &s.name,
            RulesetScenario::Fatewalker(s) => &s.name,
        }
    }

    /// The ruleset id.
    pub fn ruleset(&self) -> &'static str {
        match &self.rules {
            RulesetScenario::FiendWake(_) => fiend_wake::RULESET_ID,
            RulesetScenario::Fatewalker(_) => fatewalker::RULESET_ID,
        }
    }

    /// The fight limit when none is given: [`DEFAULT_MAX_ROUNDS`] rounds for a round-based
    /// ruleset, [`DEFAULT_MAX_TICKS`] ticks for a tick-based one (the limit is read in the
    /// ruleset's clock).
    pub fn default_limit(&self) -> u32 {
        match &self.rules {
            RulesetScenario::FiendWake(_) => DEFAULT_MAX_ROUNDS,
            RulesetScenario::Fatewalker(_) => DEFAULT_MAX_TICKS,
        }
    }

    /// What the ruleset's clock counts, for people: "rounds" or "ticks".
    pub fn clock_unit(&self) -> &'static str {
        match &self.rules {
            RulesetScenario::FiendWake(_) => "rounds",
            RulesetScenario::Fatewalker(_) => "ticks",
        }
    }

    /// The combatant ids, in scenario order.
    pub fn combatant_ids(&self) -> Vec<CombatantId> {
        match &self.rules {
            RulesetScenario::FiendWake(s) => s.combatants.iter().map(|c| c.id.clone()).collect(),
            RulesetScenario::Fatewalker(s) => s.combatants.iter().map(|c| c.id.clone()).collect(),
        }
    }

    /// Clears `app`'s table and sets this scenario up on it for another battle.
    pub fn reset(&self, app: &mut App, seed: u64, max_rounds: u32, all_ai: bool) {
        self.rebuild(app.world_mut(), seed, max_rounds, all_ai);
        crate::session::begin(app.world_mut(), self.clone(), seed, max_rounds);
    }

    /// Clears the world's table and spawns this scenario instead (opening another file).
    pub fn respawn(&self, world: &mut World, seed: u64, max_rounds: u32) {
        self.rebuild(world, seed, max_rounds, false);
        crate::session::begin(world, self.clone(), seed, max_rounds);
    }

    /// Spawns this scenario into an app that already has the ruleset's plugin (the window).
    pub fn spawn(&self, world: &mut World, seed: u64, max_rounds: u32) {
        match &self.rules {
            RulesetScenario::FiendWake(s) => fiend_wake::spawn_scenario(world, s, seed, max_rounds, false),
            RulesetScenario::Fatewalker(s) => fatewalker::spawn_scenario(world, s, seed, max_rounds, false),
        }
        self.park_other_rulesets(world);
        crate::session::begin(world, self.clone(), seed, max_rounds);
    }

    /// A headless table for one battle.
    pub fn table_app(&self, seed: u64, max_rounds: u32, all_ai: bool) -> App {
        let mut app = match &self.rules {
            RulesetScenario::FiendWake(s) => fiend_wake::table_app(s, seed, max_rounds, all_ai),
            RulesetScenario::Fatewalker(s) => fatewalker::table_app(s, seed, max_rounds, all_ai),
        };
        crate::session::begin(app.world_mut(), self.clone(), seed, max_rounds);
        app
    }

    /// Clears the world's table and spawns this scenario, leaving the session (what can be
    /// redone, the autosave) as it is: undo and loading rebuild the table with it.
    pub fn rebuild(&self, world: &mut World, seed: u64, max_rounds: u32, all_ai: bool) {
        match &self.rules {
            RulesetScenario::FiendWake(s) => {
                fiend_wake::load::reset_world(world, s, seed, max_rounds, all_ai)
            }
            RulesetScenario::Fatewalker(s) => {
                fatewalker::load::reset_world(world, s, seed, max_rounds, all_ai)
            }
        }
        self.park_other_rulesets(world);
    }

    /// In an app with several rules plugins (the window), the rulesets not on the table
    /// are set to their fight-over phase with no turn in play, so that their systems stay
    /// idle, and controller changes are noted in the history of the ruleset on the table
    /// (each plugin sets that note to its own intents when added).
    fn park_other_rulesets(&self, world: &mut World) {
        use fray_core::session::{NoteControllers, note_controllers};
        let note = match &self.rules {
            RulesetScenario::FiendWake(_) => note_controllers::<fiend_wake::FwIntent>,
            RulesetScenario::Fatewalker(_) => note_controllers::<fatewalker::FwkIntent>,
        };
        world.insert_resource(NoteControllers(note));
        if !matches!(self.rules, RulesetScenario::FiendWake(_))
            && let Some(mut phase) = world.get_resource_mut::<CurrentPhase<fiend_wake::FwPhase>>()
        {
            *phase = CurrentPhase::new(fiend_wake::FwPhase::CombatOver);
            world.insert_resource(fiend_wake::ActiveTurn::default());
        }
        if !matches!(self.rules, RulesetScenario::Fatewalker(_))
            && let Some(mut phase) = world.get_resource_mut::<CurrentPhase<fatewalker::FwkPhase>>()
        {
            *phase = CurrentPhase::new(fatewalker::FwkPhase::FightOver);
        }
    }
}

/// Parses and checks scenario text.
pub fn parse(text: &str) -> Result<LoadedScenario, ScenarioError> {
    let header = read_header(text)?;
    let rules = match header.ruleset.as_str() {
        fiend_wake::RULESET_ID => RulesetScenario::FiendWake(Arc::new(fiend_wake::parse_scenario(text)?)),
        fatewalker::RULESET_ID => RulesetScenario::Fatewalker(Arc::new(fatewalker::parse_scenario(text)?)),
        other => return Err(ScenarioError::UnknownRuleset(other.to_owned())),
    };
    Ok(LoadedScenario { rules, text: Arc::from(text), path: None })
}

/// Reads, parses and checks a scenario file.
pub fn load(path: &Path) -> Result<LoadedScenario, ScenarioError> {
    let mut scenario = parse(&read_text(path)?)?;
    scenario.path = Some(path.to_path_buf());
    Ok(scenario)
}

/// Whether the fight on the table is over (or no table is set up): every ruleset present
/// in the world is at its end.
pub fn fight_over(world: &World) -> bool {
    let fiend_wake = world
        .get_resource::<CurrentPhase<fiend_wake::FwPhase>>()
        .is_none_or(|p| p.get() == fiend_wake::FwPhase::CombatOver);
    fiend_wake && fatewalker::fight_over(world)
}
