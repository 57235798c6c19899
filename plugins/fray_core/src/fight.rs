//! The fight on a table, whatever its ruleset: a scenario read through the registry
//! ([`Rulesets::parse`]), spawned into a world as a [`Session`], and its history taken back
//! ([`undo`]), played again ([`redo`]), saved ([`save_string`]) and read back
//! ([`read_save_text`]), all through the ruleset contract.
//!
//! Undo rebuilds the table from the scenario and replays every decision but the undone
//! ones, with the RNG where it was: the table is then exactly as it was before them. Undo,
//! loading and [`rewind`] rebuild the table (new entities, a new `TableIndex`): state that
//! holds a table `Entity` must be dropped or looked up again by id.

use core::any::Any;
use std::path::PathBuf;
use std::sync::Arc;

use bevy_app::App;
use bevy_ecs::prelude::*;

use crate::ids::{CombatantId, LocationId, SideId};
use crate::ruleset::{AddRuleset, AnyRuleset, ReadSave, Rulesets, SaveHeader, ScenarioFacts};
use crate::scenario::{ScenarioError, read_header};
use crate::session::{OpenReport, SaveError, read_save_header, read_save_scenario};

/// A parsed, checked scenario of any ruleset, with the text it was read from (saves embed
/// it). Cheap to clone.
#[derive(Clone)]
pub struct LoadedScenario {
    ruleset: Arc<dyn AnyRuleset>,
    scenario: Arc<dyn Any + Send + Sync>,
    facts: Arc<ScenarioFacts>,
    /// The scenario file's text.
    pub text: Arc<str>,
    /// Where it was read from, if from a file.
    pub path: Option<PathBuf>,
}

impl Rulesets {
    /// Parses and checks scenario text with the ruleset it names.
    pub fn parse(&self, text: &str) -> Result<LoadedScenario, ScenarioError> {
        // A file that does not parse still names its ruleset, whose reader explains best.
        let id = match read_header(text) {
            Ok(header) => header.ruleset,
            Err(e) => match crate::scenario::sniff_ruleset(text).filter(|id| self.get(id).is_some()) {
                Some(id) => id,
                None => return Err(e),
            },
        };
        let Some(ruleset) = self.get(&id) else {
            return Err(ScenarioError::UnknownRuleset(id, self.ids().join(", ")));
        };
        let (scenario, facts) = ruleset.parse(text)?;
        Ok(LoadedScenario {
            ruleset: ruleset.clone(),
            scenario,
            facts: Arc::new(facts),
            text: Arc::from(text),
            path: None,
        })
    }

    /// `scenario` with `edit` made, checked as `fray check` checks a file (same path):
    /// else every problem, in words naming the item.
    pub fn edit(
        &self,
        scenario: &LoadedScenario,
        edit: &crate::edit::ScenarioEdit,
    ) -> Result<LoadedScenario, Vec<String>> {
        let text = scenario.edited(edit).map_err(|e| vec![e])?;
        self.read_edited(scenario, &text)
    }

    /// `text`, an edited version of `scenario`, read and checked as `fray check` reads a
    /// file (it keeps the scenario's path): else every problem, in words naming the item.
    pub fn read_edited(&self, scenario: &LoadedScenario, text: &str) -> Result<LoadedScenario, Vec<String>> {
        let mut edited = self.parse(text).map_err(|e| match e {
            ScenarioError::Invalid(problems) => problems,
            other => vec![other.to_string()],
        })?;
        edited.path = scenario.path.clone();
        Ok(edited)
    }

    /// Reads, parses and checks a scenario file.
    pub fn load(&self, path: &std::path::Path) -> Result<LoadedScenario, ScenarioError> {
        let mut scenario = self.parse(&crate::scenario::read_text(path)?)?;
        scenario.path = Some(path.to_path_buf());
        Ok(scenario)
    }
}

impl LoadedScenario {
    /// The scenario written as scenario text again (what an editor saves): the comment
    /// lines at the top of the file it was read from are kept, the rest is written anew
    /// (every field spelled out, one a line).
    pub fn to_ron(&self) -> Result<String, String> {
        Ok(self.comments() + &self.ruleset.write(self.scenario.as_ref())?)
    }

    /// The scenario text with `edit` made, its comments at the top kept: not yet checked
    /// (read it back with [`Rulesets::parse`], which checks it as `fray check` does).
    pub fn edited(&self, edit: &crate::edit::ScenarioEdit) -> Result<String, String> {
        Ok(self.comments() + &self.ruleset.edit(self.scenario.as_ref(), edit)?)
    }

    /// A location's properties, each as the file writes it.
    pub fn properties(&self, id: &LocationId) -> Vec<String> {
        self.ruleset.properties(self.scenario.as_ref(), id)
    }

    /// Its combatants and mounts, as templates for another scenario of its ruleset.
    pub fn pieces(&self) -> Vec<crate::edit::Piece> {
        self.ruleset.pieces(self.scenario.as_ref())
    }

    /// Its round scenery (covers, lights…), and the kinds its ruleset's scenarios may hold.
    pub fn round_scenery(&self) -> (Vec<crate::edit::RoundScenery>, Vec<(&'static str, &'static str)>) {
        self.ruleset.round_scenery(self.scenario.as_ref())
    }

    /// The comment lines at the top of its text.
    fn comments(&self) -> String {
        self.text
            .lines()
            .take_while(|l| l.trim_start().starts_with("//") || l.trim().is_empty())
            .filter(|l| !l.trim().is_empty())
            .map(|l| format!("{l}\n"))
            .collect()
    }

    /// The ruleset that plays it.
    pub fn ruleset(&self) -> &Arc<dyn AnyRuleset> {
        &self.ruleset
    }

    /// The scenario's own seed.
    pub fn seed(&self) -> u64 {
        self.facts.seed
    }

    /// The scenario's name.
    pub fn name(&self) -> &str {
        &self.facts.name
    }

    /// The combatant ids, in scenario order.
    pub fn combatant_ids(&self) -> &[CombatantId] {
        &self.facts.combatants
    }

    /// The location ids, in scenario order.
    pub fn location_ids(&self) -> &[LocationId] {
        &self.facts.locations
    }

    /// The side ids, in scenario order.
    pub fn side_ids(&self) -> &[SideId] {
        &self.facts.sides
    }

    /// The fight's limit when none is given, in the ruleset's clock.
    pub fn default_limit(&self) -> u32 {
        self.ruleset.clock().default_limit
    }

    /// A headless table for one battle: the core and this scenario's ruleset, one thread.
    pub fn table_app(&self, seed: u64, limit: u32, all_ai: bool) -> App {
        let mut app = App::new();
        app.add_any_ruleset(self.ruleset.clone());
        // A headless table updates thousands of times a second: one thread does it best.
        for (_, schedule) in app.world_mut().resource_mut::<bevy_ecs::schedule::Schedules>().iter_mut() {
            schedule.set_executor(bevy_ecs::schedule::SingleThreadedExecutor::new());
        }
        self.start(app.world_mut(), seed, limit, all_ai);
        app
    }

    /// Clears the world's table and starts a fight of this scenario on it: a new session,
    /// nothing to redo. The world must have this scenario's ruleset.
    pub fn start(&self, world: &mut World, seed: u64, limit: u32, all_ai: bool) {
        // The session first: whoever watches the table's objects appear sees their ruleset.
        world.insert_resource(Session { scenario: self.clone(), seed, limit });
        self.rebuild(world, seed, limit, all_ai);
        self.ruleset.history().forget_redo(world);
    }

    /// Clears the world's table and spawns this scenario, leaving the session (what can be
    /// redone, the autosave) as it is: undo and loading rebuild the table with it. Every
    /// other ruleset of the world is parked, so that its systems stay idle.
    pub fn rebuild(&self, world: &mut World, seed: u64, limit: u32, all_ai: bool) {
        self.ruleset.spawn(world, self.scenario.as_ref(), seed, limit, all_ai);
        let others: Vec<Arc<dyn AnyRuleset>> = world
            .get_resource::<Rulesets>()
            .map(|r| r.iter().filter(|o| o.id() != self.ruleset.id()).cloned().collect())
            .unwrap_or_default();
        for other in others {
            other.park(world);
        }
    }
}

/// The scenario and settings of the fight on the table: what undo rebuilds from and what a
/// save embeds.
#[derive(Resource, Clone)]
pub struct Session {
    /// The scenario.
    pub scenario: LoadedScenario,
    /// The RNG seed.
    pub seed: u64,
    /// The fight's limit, in the ruleset's clock.
    pub limit: u32,
}

impl Session {
    /// The ruleset on the table.
    pub fn ruleset(&self) -> &Arc<dyn AnyRuleset> {
        &self.scenario.ruleset
    }

    fn rebuild(&self) -> impl Fn(&mut World) + '_ {
        move |world: &mut World| self.scenario.rebuild(world, self.seed, self.limit, false)
    }
}

/// The ruleset on the world's table, if a fight is open.
pub fn ruleset(world: &World) -> Option<Arc<dyn AnyRuleset>> {
    world.get_resource::<Session>().map(|s| s.scenario.ruleset.clone())
}

/// A save file read and checked, ready to be opened on a table.
#[derive(Clone)]
pub struct LoadedSave {
    /// Its scenario (embedded in the save).
    pub scenario: LoadedScenario,
    record: ReadSave,
}

impl LoadedSave {
    /// The save's seed.
    pub fn seed(&self) -> u64 {
        self.record.seed
    }

    /// The save's fight limit.
    pub fn limit(&self) -> u32 {
        self.record.limit
    }

    /// How many intents the save holds.
    pub fn intents(&self) -> usize {
        self.record.intents
    }

    /// Where the scenario was read from when the fight began, as the save says.
    pub fn scenario_path(&self) -> Option<&str> {
        self.record.scenario_path.as_deref()
    }

    /// Rebuilds the world's table from the save: scenario, seed, controllers, then every
    /// intent replayed. An intent that no longer validates stops the replay; the table then
    /// holds everything before it, and the report says so.
    pub fn open(&self, world: &mut World) -> OpenReport {
        self.open_watching(world, &mut |_| {})
    }

    /// [`LoadedSave::open`], `each` shown the table when the rules first wait and after
    /// every intent replayed.
    pub fn open_watching(&self, world: &mut World, each: &mut dyn FnMut(&World)) -> OpenReport {
        self.scenario.start(world, self.seed(), self.limit(), false);
        let (seed, limit) = (self.seed(), self.limit());
        let rebuild = |w: &mut World| self.scenario.rebuild(w, seed, limit, false);
        self.scenario.ruleset.history().open_watching(world, &self.record, &rebuild, each)
    }

    /// A headless table with the save opened on it.
    pub fn headless_app(&self) -> (App, OpenReport) {
        self.headless_app_watching(&mut |_| {})
    }

    /// [`LoadedSave::headless_app`], `each` shown the table at every step of the replay.
    pub fn headless_app_watching(&self, each: &mut dyn FnMut(&World)) -> (App, OpenReport) {
        let mut app = self.scenario.table_app(self.seed(), self.limit(), false);
        let report = self.open_watching(app.world_mut(), each);
        (app, report)
    }
}

/// Reads a save's text: version, ruleset, embedded scenario, then the intents.
pub fn read_save_text(rulesets: &Rulesets, text: &str) -> Result<LoadedSave, SaveError> {
    let header = read_save_header(text)?;
    if rulesets.get(&header.ruleset).is_none() {
        return Err(SaveError::Invalid(format!(
            "unknown ruleset '{}' (this Fray plays {})",
            header.ruleset,
            rulesets.ids().join(", ")
        )));
    }
    // The scenario is read first so that the ids the intents name can be checked.
    let (scenario_text, scenario_path) = read_save_scenario(text)?;
    let mut scenario = rulesets.parse(&scenario_text).map_err(SaveError::Scenario)?;
    if scenario.ruleset.id() != header.ruleset {
        return Err(SaveError::Invalid(format!(
            "the save is for ruleset '{}' but its scenario is for '{}'",
            header.ruleset,
            scenario.ruleset.id()
        )));
    }
    scenario.path = scenario_path.map(PathBuf::from);
    let record =
        scenario.ruleset.history().read_save(text, scenario.combatant_ids(), &scenario.facts.seats)?;
    Ok(LoadedSave { scenario, record })
}

/// The fight on the table as save text.
pub fn save_string(world: &World) -> Result<String, String> {
    let session = world.get_resource::<Session>().ok_or("no fight is open")?;
    let header = SaveHeader {
        scenario_path: session.scenario.path.as_ref().map(|p| p.display().to_string()),
        scenario: session.scenario.text.to_string(),
        seed: session.seed,
        limit: session.limit,
    };
    session.scenario.ruleset.history().save(world, header)
}

/// Whether anything can be undone.
pub fn can_undo(world: &World) -> bool {
    ruleset(world).and_then(|r| r.history().record(world)).is_some_and(|(_, accepted, _)| accepted > 0)
}

/// Whether anything can be redone.
pub fn can_redo(world: &World) -> bool {
    ruleset(world).is_some_and(|r| r.history().redo_len(world) > 0)
}

/// Undoes the last accepted intent (and the refused ones after it): the table is rebuilt as
/// it was just before it, RNG included. Returns what was undone, in words. Controllers stay
/// as they are now.
pub fn undo(world: &mut World) -> Result<String, String> {
    let session = world.get_resource::<Session>().cloned().ok_or("no fight is open")?;
    session.scenario.ruleset.history().undo(world, &session.rebuild())
}

/// Redoes the last undone step with the same dice. Returns what was redone, in words.
pub fn redo(world: &mut World) -> Result<String, String> {
    let ruleset = ruleset(world).ok_or("no fight is open")?;
    ruleset.history().redo(world)
}

/// Takes the fight back to its start, every step kept to be redone (watching a saved fight
/// begins here). Returns how many steps can then be redone.
pub fn rewind(world: &mut World) -> Result<usize, String> {
    let session = world.get_resource::<Session>().cloned().ok_or("no fight is open")?;
    session.scenario.ruleset.history().rewind(world, &session.rebuild())
}

/// Opens a save to watch it: the table at the start of the fight with the AI held; `redo`
/// steps forward, `undo` steps back, the log following. Returns how the save loaded.
pub fn start_replay(world: &mut World, save: &LoadedSave) -> Result<OpenReport, String> {
    let report = save.open(world);
    rewind(world)?;
    world.insert_resource(crate::session::HoldAi);
    Ok(report)
}

/// Accepted intents recorded so far (0 without a fight).
pub fn accepted_intents(world: &World) -> usize {
    ruleset(world).and_then(|r| r.history().record(world)).map_or(0, |(_, accepted, _)| accepted)
}

/// Where a watched (or undone) fight stands: accepted intents on the table, and that plus
/// the steps that can be redone.
pub fn position(world: &World) -> (usize, usize) {
    let now = accepted_intents(world);
    (now, now + ruleset(world).map_or(0, |r| r.history().redo_len(world)))
}

/// Counts every change to the fight's record (an autosave compares it).
pub fn revision(world: &World) -> Option<u64> {
    ruleset(world)?.history().record(world).map(|(_, _, revision)| revision)
}

/// Whether the fight on the table is over (false when none is open).
pub fn fight_over(world: &World) -> bool {
    ruleset(world).is_some_and(|r| r.over(world))
}
