//! The fight in a world as a session that survives, on disk: saves written atomically and
//! read back within a size limit, autosave after every accepted intent, resuming the last
//! fight. The fight itself (undo, redo, what a save holds) is `fray_core::fight`, through the
//! ruleset contract; its functions are re-exported here for the window and the command line.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use bevy_app::{App, Plugin, Update};
use bevy_ecs::prelude::*;
use fray_core::DriveRules;
pub use fray_core::fight::{
    LoadedSave, Session, accepted_intents, can_redo, can_undo, fight_over, position, redo, revision, rewind,
    save_string, start_replay, undo,
};
use fray_core::ruleset::Rulesets;
use fray_core::scenario::ScenarioError;
pub use fray_core::session::OpenReport;
use fray_core::session::SaveError;

/// Save files larger than this are refused before they are read.
pub const MAX_SAVE_BYTES: u64 = 64 * 1024 * 1024;

/// The environment variable that moves the data folder (autosaves), e.g. for tests.
pub const DATA_DIR_ENV: &str = "FRAY_DATA_DIR";

/// The file name of the autosave of the fight in progress.
pub const AUTOSAVE_FILE: &str = "autosave.ron";

/// The file name the autosave is moved to once its fight is over.
pub const FINISHED_FILE: &str = "last-finished.ron";

/// The file a Fray locks in its data folder while it autosaves there.
pub const LOCK_FILE: &str = "fray.lock";

/// The lock a Fray holds on its data folder while it autosaves there, so that a second Fray
/// on the same folder is told so at once instead of overwriting the fight (or removing the
/// first one's temporary file). Held until the process ends.
#[derive(Resource, Debug, Clone)]
pub struct DataFolderLock {
    _held: std::sync::Arc<File>,
}

/// Locks the data folder `dir` (made if need be) for this Fray's autosave; refused, saying so,
/// when another Fray holds it.
pub fn lock_data_folder(dir: &Path) -> Result<DataFolderLock, String> {
    std::fs::create_dir_all(dir)
        .map_err(|e| format!("{}: cannot make the data folder: {e}", dir.display()))?;
    let path = dir.join(LOCK_FILE);
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| format!("{}: cannot open: {e}", path.display()))?;
    match file.try_lock() {
        Ok(()) => Ok(DataFolderLock { _held: std::sync::Arc::new(file) }),
        Err(std::fs::TryLockError::WouldBlock) => Err(format!(
            "{}: another Fray is playing with this data folder and holds its autosave; close it, or give this one its own folder (--data-dir)",
            dir.display()
        )),
        Err(std::fs::TryLockError::Error(e)) => Err(format!("{}: cannot lock: {e}", path.display())),
    }
}

/// Reads a save's text with `rulesets` (`crate::rulesets::registry()`: every ruleset Fray
/// plays; a table has them as a resource).
pub fn parse_save_text(rulesets: &Rulesets, text: &str) -> Result<LoadedSave, SaveError> {
    fray_core::fight::read_save_text(rulesets, text)
}

/// Reads and checks a save file, refusing one too large before reading it.
pub fn read_save(rulesets: &Rulesets, path: &Path) -> Result<LoadedSave, SaveError> {
    let text = fray_core::scenario::read_limited(path, MAX_SAVE_BYTES).map_err(|e| match e {
        ScenarioError::TooLarge(_) => {
            SaveError::Invalid(format!("the file is over {MAX_SAVE_BYTES} bytes, more than a save may be"))
        }
        other => SaveError::File(other),
    })?;
    parse_save_text(rulesets, &text)
}

/// Reads a save file with the table's rulesets and opens it on the world's table. The error
/// is one line per problem, starting with the path; the world is untouched then.
pub fn load(world: &mut World, path: &Path) -> Result<OpenReport, String> {
    let rulesets = world.get_resource::<Rulesets>().cloned().unwrap_or_default();
    let save = read_save(&rulesets, path).map_err(|e| e.report(&path.display().to_string()).join("\n"))?;
    Ok(save.open(world))
}

/// Saves the fight on the table to `path`, atomically.
pub fn save(world: &World, path: &Path) -> Result<(), String> {
    let text = save_string(world)?;
    write_atomically(path, text.as_bytes()).map_err(|e| format!("{}: cannot save: {e}", path.display()))
}

/// Writes a file so that it is either the old one or the whole new one, whatever happens:
/// a temporary file beside it is written, flushed to disk, and renamed over it. A symbolic
/// link is followed (its target is written, the link stays); what is not a regular file (a
/// named pipe, a device, `/dev/stdout`) is written to straight, never replaced.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_dir() => {
            Err(std::io::Error::new(std::io::ErrorKind::IsADirectory, "is a folder; name a file to write"))
        }
        Ok(meta) if !meta.is_file() || written_straight(path) => write_straight(path, bytes),
        Ok(_) => replace(&std::fs::canonicalize(path)?, bytes),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => replace(&link_target(path)?, bytes),
        Err(e) => Err(e),
    }
}

/// Paths that name a process's own files (`/dev/stdout`, `/proc/self/fd/1`): written to as
/// they are, even when they lead to a regular file, which the process may hold open.
fn written_straight(path: &Path) -> bool {
    path.starts_with("/dev") || path.starts_with("/proc")
}

/// Writes into what `path` names as it is: no temporary file, nothing replaced.
fn write_straight(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut file = std::fs::OpenOptions::new().write(true).open(path)?;
    file.write_all(bytes)?;
    file.flush()
}

/// Where a path leads through symbolic links (a link to no file yet leads to the file it
/// names); the path itself when it is no link.
pub fn link_target(path: &Path) -> std::io::Result<PathBuf> {
    let mut at = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&at) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let to = std::fs::read_link(&at)?;
                at = match at.parent() {
                    Some(dir) if to.is_relative() => dir.join(to),
                    _ => to,
                };
            }
            _ => return Ok(at),
        }
    }
    Err(std::io::Error::other("too many symbolic links"))
}

/// Writes `path` (a regular file, or none yet) atomically: see [`write_atomically`].
fn replace(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
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

/// The autosave, after the rules ran.
#[derive(SystemSet, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Autosaving;

impl Plugin for AutosavePlugin {
    fn build(&self, app: &mut App) {
        app.configure_sets(Update, Autosaving.after(DriveRules))
            .add_systems(Update, autosave_system.in_set(Autosaving));
    }
}
