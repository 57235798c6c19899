//! The fight in a world as a session that survives: save and load, undo and redo, autosave
//! after every accepted intent, resuming the last fight. Ruleset-agnostic for its callers;
//! the record itself is `fray_core::session`, typed by each ruleset's intent.
//!
//! Undo rebuilds the table from the scenario and replays every decision but the undone
//! ones, with the RNG where it was: the table is then exactly as it was before them.
//!
//! For a window: any scenario spawned through [`LoadedScenario`] has a [`Session`], so
//! [`undo`], [`redo`], [`save`] and [`load`] work on its world as they are. Undo, load and
//! [`rewind`] rebuild the table (new entities, a new `TableIndex`): UI state that holds a
//! table `Entity` must be dropped or looked up again by id. Autosave: add [`AutosavePlugin`]
//! and insert an [`Autosave`]. Watching a save: [`start_replay`], then [`redo`] / [`undo`].

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use bevy_app::{App, Plugin, Update};
use bevy_ecs::prelude::*;
use fatewalker::FwkIntent;
use fiend_wake::FwIntent;
use fray_core::DriveRules;
pub use fray_core::session::OpenReport;
use fray_core::session::{
    IntentHistory, Recorded, RedoStack, SAVE_VERSION, SaveError, SaveFile, controllers, note_controllers,
    open_record, parse_save, read_save_header, read_save_scenario, replay, restart, save_text,
    set_controllers, split_last_step,
};

use crate::rulesets::{self, LoadedScenario, RulesetScenario};

/// Save files larger than this are refused before parsing.
pub const MAX_SAVE_BYTES: u64 = 64 * 1024 * 1024;

/// The environment variable that moves the data folder (autosaves), e.g. for tests.
pub const DATA_DIR_ENV: &str = "FRAY_DATA_DIR";

/// The file name of the autosave of the fight in progress.
pub const AUTOSAVE_FILE: &str = "autosave.ron";

/// The file name the autosave is moved to once its fight is over.
pub const FINISHED_FILE: &str = "last-finished.ron";

/// The scenario and settings of the fight on the table: what undo rebuilds from and what a
/// save embeds. Inserted whenever a scenario is spawned through [`LoadedScenario`].
#[derive(Resource, Clone)]
pub struct Session {
    /// The scenario.
    pub scenario: LoadedScenario,
    /// The RNG seed.
    pub seed: u64,
    /// The round limit.
    pub max_rounds: u32,
}

/// Starts a session for the scenario just spawned: nothing to redo.
pub fn begin(world: &mut World, scenario: LoadedScenario, seed: u64, max_rounds: u32) {
    match &scenario.rules {
        RulesetScenario::FiendWake(_) => world.insert_resource(RedoStack::<FwIntent>::default()),
        RulesetScenario::Fatewalker(_) => world.insert_resource(RedoStack::<FwkIntent>::default()),
    }
    world.insert_resource(Session { scenario, seed, max_rounds });
}

/// A save file read and checked, ready to be opened on a table.
#[derive(Clone)]
pub struct LoadedSave {
    /// Its scenario (embedded in the save).
    pub scenario: LoadedScenario,
    file: TypedSave,
}

#[derive(Clone)]
enum TypedSave {
    FiendWake(Box<SaveFile<FwIntent>>),
    Fatewalker(Box<SaveFile<FwkIntent>>),
}

impl LoadedSave {
    /// The save's seed.
    pub fn seed(&self) -> u64 {
        match &self.file {
            TypedSave::FiendWake(s) => s.seed,
            TypedSave::Fatewalker(s) => s.seed,
        }
    }

    /// The save's round limit.
    pub fn max_rounds(&self) -> u32 {
        match &self.file {
            TypedSave::FiendWake(s) => s.max_rounds,
            TypedSave::Fatewalker(s) => s.max_rounds,
        }
    }

    /// How many intents the save holds.
    pub fn intents(&self) -> usize {
        match &self.file {
            TypedSave::FiendWake(s) => s.intents.len(),
            TypedSave::Fatewalker(s) => s.intents.len(),
        }
    }

    /// Where the scenario was read from when the fight began, as the save says.
    pub fn scenario_path(&self) -> Option<&str> {
        match &self.file {
            TypedSave::FiendWake(s) => s.scenario_path.as_deref(),
            TypedSave::Fatewalker(s) => s.scenario_path.as_deref(),
        }
    }

    /// Rebuilds the world's table from the save: scenario, seed, controllers, then every
    /// intent replayed. An intent that no longer validates stops the replay; the table then
    /// holds everything before it, and the report says so.
    pub fn open(&self, world: &mut World) -> OpenReport {
        let (seed, max_rounds) = (self.seed(), self.max_rounds());
        self.scenario.rebuild(world, seed, max_rounds, false);
        begin(world, self.scenario.clone(), seed, max_rounds);
        let rebuild = |w: &mut World| self.scenario.rebuild(w, seed, max_rounds, false);
        match &self.file {
            TypedSave::FiendWake(s) => {
                open_record(world, rebuild, &s.controllers, &s.intents, &s.controller_changes)
            }
            TypedSave::Fatewalker(s) => {
                open_record(world, rebuild, &s.controllers, &s.intents, &s.controller_changes)
            }
        }
    }

    /// A headless table with the save opened on it.
    pub fn headless_app(&self) -> (App, OpenReport) {
        let mut app = self.scenario.table_app(self.seed(), self.max_rounds(), false);
        let report = self.open(app.world_mut());
        (app, report)
    }
}

/// Reads a save's text: version, ruleset, embedded scenario, then the intents.
pub fn parse_save_text(text: &str) -> Result<LoadedSave, SaveError> {
    let header = read_save_header(text)?;
    if ![fiend_wake::RULESET_ID, fatewalker::RULESET_ID].contains(&header.ruleset.as_str()) {
        return Err(SaveError::Invalid(format!("unknown ruleset '{}'", header.ruleset)));
    }
    // The scenario is read first so that the ids the intents name can be checked.
    let (scenario_text, scenario_path) = read_save_scenario(text)?;
    let mut scenario = rulesets::parse(&scenario_text).map_err(SaveError::Scenario)?;
    if scenario.ruleset() != header.ruleset {
        return Err(SaveError::Invalid(format!(
            "the save is for ruleset '{}' but its scenario is for '{}'",
            header.ruleset,
            scenario.ruleset()
        )));
    }
    scenario.path = scenario_path.map(PathBuf::from);
    let ids = scenario.combatant_ids();
    let file = match &scenario.rules {
        RulesetScenario::FiendWake(_) => TypedSave::FiendWake(Box::new(parse_save::<FwIntent>(text, &ids)?)),
        RulesetScenario::Fatewalker(_) => {
            TypedSave::Fatewalker(Box::new(parse_save::<FwkIntent>(text, &ids)?))
        }
    };
    Ok(LoadedSave { scenario, file })
}

/// Reads and checks a save file.
pub fn read_save(path: &Path) -> Result<LoadedSave, SaveError> {
    let io = |e: std::io::Error| SaveError::File(fray_core::scenario::ScenarioError::Io(e.to_string()));
    let meta = std::fs::metadata(path).map_err(io)?;
    if meta.len() > MAX_SAVE_BYTES {
        return Err(SaveError::Invalid(format!(
            "the file is {} bytes; a save may be at most {MAX_SAVE_BYTES} bytes",
            meta.len()
        )));
    }
    let text = std::fs::read_to_string(path).map_err(io)?;
    parse_save_text(&text)
}

/// Reads a save file and opens it on the world's table. The error is one line per problem,
/// starting with the path; the world is untouched then.
pub fn load(world: &mut World, path: &Path) -> Result<OpenReport, String> {
    let save = read_save(path).map_err(|e| e.report(&path.display().to_string()).join("\n"))?;
    Ok(save.open(world))
}

/// The fight on the table as save text.
pub fn save_string(world: &World) -> Result<String, String> {
    let session = world.get_resource::<Session>().ok_or("no fight is open")?;
    match &session.scenario.rules {
        RulesetScenario::FiendWake(_) => save_string_typed::<FwIntent>(world, session),
        RulesetScenario::Fatewalker(_) => save_string_typed::<FwkIntent>(world, session),
    }
}

fn save_string_typed<I>(world: &World, session: &Session) -> Result<String, String>
where
    I: Clone + serde::Serialize + Send + Sync + 'static,
{
    let history = world.get_resource::<IntentHistory<I>>().ok_or("no fight is open")?;
    let file = SaveFile {
        version: SAVE_VERSION,
        ruleset: session.scenario.ruleset().to_owned(),
        scenario_path: session.scenario.path.as_ref().map(|p| p.display().to_string()),
        scenario: session.scenario.text.to_string(),
        seed: session.seed,
        max_rounds: session.max_rounds,
        controllers: history.start.clone(),
        intents: history.entries.clone(),
        controller_changes: history.controller_changes.clone(),
    };
    save_text(&file)
}

/// Saves the fight on the table to `path`, atomically.
pub fn save(world: &World, path: &Path) -> Result<(), String> {
    let text = save_string(world)?;
    write_atomically(path, text.as_bytes()).map_err(|e| format!("{}: cannot save: {e}", path.display()))
}

/// Writes a file so that it is either the old one or the whole new one, whatever happens:
/// a temporary file beside it is written, flushed to disk, and renamed over it.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let temp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let written = (|| {
        let mut file = File::create(&temp)?;
        file.write_all(bytes)?;
        file.sync_all()
    })();
    if let Err(e) = written.and_then(|()| std::fs::rename(&temp, path)) {
        let _ = std::fs::remove_file(&temp);
        return Err(e);
    }
    // The rename itself is made durable by syncing the folder (not possible everywhere).
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Whether anything can be undone.
pub fn can_undo(world: &World) -> bool {
    match world.get_resource::<Session>().map(|s| &s.scenario.rules) {
        Some(RulesetScenario::FiendWake(_)) => world
            .get_resource::<IntentHistory<FwIntent>>()
            .is_some_and(|h| h.entries.iter().any(|r| r.accepted)),
        Some(RulesetScenario::Fatewalker(_)) => world
            .get_resource::<IntentHistory<FwkIntent>>()
            .is_some_and(|h| h.entries.iter().any(|r| r.accepted)),
        None => false,
    }
}

/// Whether anything can be redone.
pub fn can_redo(world: &World) -> bool {
    match world.get_resource::<Session>().map(|s| &s.scenario.rules) {
        Some(RulesetScenario::FiendWake(_)) => {
            world.get_resource::<RedoStack<FwIntent>>().is_some_and(|r| !r.0.is_empty())
        }
        Some(RulesetScenario::Fatewalker(_)) => {
            world.get_resource::<RedoStack<FwkIntent>>().is_some_and(|r| !r.0.is_empty())
        }
        None => false,
    }
}

/// Undoes the last accepted intent (and the refused ones after it): the table is rebuilt as
/// it was just before it, RNG included. Returns what was undone, in words. Controllers stay
/// as they are now.
pub fn undo(world: &mut World) -> Result<String, String> {
    let session = world.get_resource::<Session>().cloned().ok_or("no fight is open")?;
    match &session.scenario.rules {
        RulesetScenario::FiendWake(_) => undo_typed::<FwIntent>(world, &session),
        RulesetScenario::Fatewalker(_) => undo_typed::<FwkIntent>(world, &session),
    }
}

fn undo_typed<I>(world: &mut World, session: &Session) -> Result<String, String>
where
    I: Clone + core::fmt::Debug + Send + Sync + 'static,
{
    let history = world.get_resource::<IntentHistory<I>>().cloned().ok_or("no fight is open")?;
    let (keep, step) = split_last_step(&history.entries).ok_or("nothing to undo")?;
    let now = controllers(world);
    let changes: Vec<_> = history.controller_changes.iter().filter(|c| c.at <= keep).cloned().collect();
    session.scenario.rebuild(world, session.seed, session.max_rounds, false);
    restart::<I>(world, &history.start);
    let replayed = replay(world, &history.entries[..keep], &changes);
    set_controllers(world, &now);
    note_controllers::<I>(world);
    replayed.map_err(|stop| format!("undo could not rebuild the fight: {stop}"))?;
    let what = describe(&step[0]);
    world.get_resource_or_init::<RedoStack<I>>().0.push(step);
    Ok(what)
}

/// Redoes the last undone step with the same dice. Returns what was redone, in words.
pub fn redo(world: &mut World) -> Result<String, String> {
    let session = world.get_resource::<Session>().cloned().ok_or("no fight is open")?;
    match &session.scenario.rules {
        RulesetScenario::FiendWake(_) => redo_typed::<FwIntent>(world),
        RulesetScenario::Fatewalker(_) => redo_typed::<FwkIntent>(world),
    }
}

fn redo_typed<I>(world: &mut World) -> Result<String, String>
where
    I: Clone + core::fmt::Debug + Send + Sync + 'static,
{
    let step =
        world.get_resource_mut::<RedoStack<I>>().and_then(|mut r| r.0.pop()).ok_or("nothing to redo")?;
    note_controllers::<I>(world);
    replay(world, &step, &[]).map_err(|stop| format!("cannot redo: {stop}"))?;
    Ok(describe(&step[0]))
}

/// Takes the fight back to its start, every step kept to be redone (watching a saved fight
/// begins here). Returns how many steps can then be redone.
pub fn rewind(world: &mut World) -> Result<usize, String> {
    let session = world.get_resource::<Session>().cloned().ok_or("no fight is open")?;
    match &session.scenario.rules {
        RulesetScenario::FiendWake(_) => rewind_typed::<FwIntent>(world, &session),
        RulesetScenario::Fatewalker(_) => rewind_typed::<FwkIntent>(world, &session),
    }
}

fn rewind_typed<I>(world: &mut World, session: &Session) -> Result<usize, String>
where
    I: Clone + core::fmt::Debug + Send + Sync + 'static,
{
    let history = world.get_resource::<IntentHistory<I>>().cloned().ok_or("no fight is open")?;
    let first = history.entries.iter().position(|r| r.accepted).unwrap_or(history.entries.len());
    // Each step: an accepted intent and the refused ones after it.
    let mut steps: Vec<Vec<Recorded<I>>> = Vec::new();
    for entry in &history.entries[first..] {
        match steps.last_mut() {
            Some(step) if !entry.accepted => step.push(entry.clone()),
            _ => steps.push(vec![entry.clone()]),
        }
    }
    let now = controllers(world);
    let changes: Vec<_> = history.controller_changes.iter().filter(|c| c.at <= first).cloned().collect();
    session.scenario.rebuild(world, session.seed, session.max_rounds, false);
    restart::<I>(world, &history.start);
    let replayed = replay(world, &history.entries[..first], &changes);
    set_controllers(world, &now);
    note_controllers::<I>(world);
    replayed.map_err(|stop| format!("rewinding could not rebuild the fight: {stop}"))?;
    let mut redo = world.get_resource_or_init::<RedoStack<I>>();
    redo.0.extend(steps.into_iter().rev());
    Ok(redo.0.len())
}

/// Opens a save to watch it: the table at the start of the fight with the AI held; `redo`
/// steps forward, `undo` steps back, the log following. Returns how the save loaded.
pub fn start_replay(world: &mut World, save: &LoadedSave) -> Result<OpenReport, String> {
    let report = save.open(world);
    rewind(world)?;
    world.insert_resource(fray_core::session::HoldAi);
    Ok(report)
}

/// Where a watched (or undone) fight stands: accepted intents on the table, and that plus
/// the steps that can be redone.
pub fn position(world: &World) -> (usize, usize) {
    let now = accepted_intents(world);
    let ahead = match world.get_resource::<Session>().map(|s| &s.scenario.rules) {
        Some(RulesetScenario::FiendWake(_)) => {
            world.get_resource::<RedoStack<FwIntent>>().map_or(0, |r| r.0.len())
        }
        Some(RulesetScenario::Fatewalker(_)) => {
            world.get_resource::<RedoStack<FwkIntent>>().map_or(0, |r| r.0.len())
        }
        None => 0,
    };
    (now, now + ahead)
}

fn describe<I: core::fmt::Debug>(r: &Recorded<I>) -> String {
    format!("{}: {:?}", r.actor, r.intent)
}

/// Accepted intents recorded so far (0 without a fight).
pub fn accepted_intents(world: &World) -> usize {
    match world.get_resource::<Session>().map(|s| &s.scenario.rules) {
        Some(RulesetScenario::FiendWake(_)) => {
            world.get_resource::<IntentHistory<FwIntent>>().map_or(0, IntentHistory::accepted)
        }
        Some(RulesetScenario::Fatewalker(_)) => {
            world.get_resource::<IntentHistory<FwkIntent>>().map_or(0, IntentHistory::accepted)
        }
        None => 0,
    }
}

fn revision(world: &World) -> Option<u64> {
    match world.get_resource::<Session>().map(|s| &s.scenario.rules)? {
        RulesetScenario::FiendWake(_) => world.get_resource::<IntentHistory<FwIntent>>().map(|h| h.revision),
        RulesetScenario::Fatewalker(_) => {
            world.get_resource::<IntentHistory<FwkIntent>>().map(|h| h.revision)
        }
    }
}

/// Whether the fight on the table is over.
pub fn fight_over(world: &World) -> bool {
    match world.get_resource::<Session>().map(|s| &s.scenario.rules) {
        Some(RulesetScenario::FiendWake(_)) => world
            .get_resource::<fray_core::phase::CurrentPhase<fiend_wake::FwPhase>>()
            .is_none_or(|p| p.get() == fiend_wake::FwPhase::CombatOver),
        Some(RulesetScenario::Fatewalker(_)) => fatewalker::fight_over(world),
        None => false,
    }
}

/// The user's data folder for Fray: `FRAY_DATA_DIR` when set, else the platform's (e.g.
/// `~/.local/share/fray`). `None` when the platform has none.
pub fn data_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os(DATA_DIR_ENV).filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(dir));
    }
    directories::ProjectDirs::from("", "", "fray").map(|d| d.data_dir().to_path_buf())
}

/// Where the fight in progress is autosaved, in a data folder.
pub fn autosave_path(data_dir: &Path) -> PathBuf {
    data_dir.join(AUTOSAVE_FILE)
}

/// The autosave of an interrupted fight in the default data folder, if there is one: what
/// to offer to resume at start.
pub fn last_autosave() -> Option<PathBuf> {
    last_autosave_in(&data_dir()?)
}

/// The autosave of an interrupted fight in this data folder, if there is one.
pub fn last_autosave_in(data_dir: &Path) -> Option<PathBuf> {
    let path = autosave_path(data_dir);
    path.is_file().then_some(path)
}

/// Autosaves the fight on the table to `path` after every accepted intent (and after an
/// undo or redo). Once the fight is over, the file is moved to [`FINISHED_FILE`] beside it,
/// so that only an interrupted fight is offered for resuming.
#[derive(Resource, Clone, Debug)]
pub struct Autosave {
    /// The autosave file.
    pub path: PathBuf,
    /// The record's revision last written.
    pub written: Option<u64>,
    /// The last error, for the window to show.
    pub error: Option<String>,
}

impl Autosave {
    /// Autosaves to this file.
    pub fn to(path: PathBuf) -> Self {
        Self { path, written: None, error: None }
    }
}

/// Writes the autosave when the record changed. Returns whether it wrote.
pub fn autosave_now(world: &mut World) -> bool {
    let Some(rev) = revision(world) else { return false };
    let Some(auto) = world.get_resource::<Autosave>() else { return false };
    if auto.written == Some(rev) {
        return false;
    }
    let path = auto.path.clone();
    if auto.written.is_none() {
        remove_stale_temporaries(&path);
    }
    let over = fight_over(world);
    let result = save_string(world).and_then(|text| {
        write_atomically(&path, text.as_bytes()).map_err(|e| format!("{}: {e}", path.display()))?;
        if over {
            let finished = path.with_file_name(FINISHED_FILE);
            std::fs::rename(&path, &finished).map_err(|e| format!("{}: {e}", finished.display()))?;
        }
        Ok(())
    });
    let mut auto = world.resource_mut::<Autosave>();
    auto.written = Some(rev);
    auto.error = result.err();
    auto.error.is_none()
}

/// Removes the temporary files a killed writer left beside `path` (never read: the rename
/// is what publishes a save).
fn remove_stale_temporaries(path: &Path) {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else { return };
    let prefix = format!(".{}.", name.to_string_lossy());
    let ours = format!("{prefix}{}.tmp", std::process::id());
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let file = entry.file_name().to_string_lossy().into_owned();
        if file.starts_with(&prefix) && file.ends_with(".tmp") && file != ours {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

fn autosave_system(world: &mut World) {
    autosave_now(world);
}

/// Adds autosaving after the rules of each update; insert an [`Autosave`] to turn it on.
pub struct AutosavePlugin;

impl Plugin for AutosavePlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, autosave_system.after(DriveRules));
    }
}
