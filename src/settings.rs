//! The table window's settings, kept between runs in `table.ron` in the user's config folder
//! (`FRAY_DATA_DIR` when set, as for autosaves): whether it opens, on which monitor, where,
//! its size, its chroma-key background, whether it follows the active combatant, and whether
//! motion on the board is reduced, the colour theme, and whether the GM's window shows the
//! whole board however small.
//!
//! A broken file is moved aside to `table.ron.broken` (so nothing is lost) and the defaults
//! are used; the error names the file, line and column.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// The settings file's name in the config folder.
pub const SETTINGS_FILE: &str = "table.ron";

/// What the table window looked like when last closed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct TableSettings {
    /// The table window opens at start.
    pub open: bool,
    /// The monitor it was on (the platform's order), used when it has no position.
    pub monitor: Option<usize>,
    /// Its top-left corner on the desktop, in physical pixels.
    pub position: Option<(i32, i32)>,
    /// Its size in logical pixels.
    pub size: (u32, u32),
    /// A flat background colour for chroma keying.
    pub background: Option<[u8; 3]>,
    /// Its camera follows the active combatant.
    pub follow: bool,
    /// Tokens jump to their places and nothing pulses (both screens).
    pub reduce_motion: bool,
    /// A strip along the bottom keeps the last roll and the last damage in view (for a
    /// stream); the board is framed above it.
    pub lower_third: bool,
    /// The colours of the panels and the board.
    pub theme: Theme,
    /// The GM's window shows the whole board however small its text; else a board too big
    /// to read whole there (text under 12 px) is shown in part, around whoever acts.
    pub whole_board: bool,
}

/// The colours of the panels and the board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Theme {
    /// Light text on dark panels, a dark green field.
    #[default]
    Dark,
    /// Dark text on light panels, a pale field.
    Light,
    /// White on black, bright cards and arrows, for a projector or a far screen.
    HighContrast,
}

impl Theme {
    /// Every theme, in the menu's order, with its name.
    pub const ALL: [(Theme, &'static str); 3] =
        [(Theme::Dark, "Dark"), (Theme::Light, "Light"), (Theme::HighContrast, "High contrast")];
}

impl Default for TableSettings {
    fn default() -> Self {
        Self {
            open: false,
            monitor: None,
            position: None,
            size: (1280, 720),
            background: None,
            follow: false,
            reduce_motion: false,
            lower_third: false,
            theme: Theme::Dark,
            whole_board: false,
        }
    }
}

/// The config folder: `FRAY_DATA_DIR` when set, else the platform's (e.g. `~/.config/fray`).
pub fn config_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os(crate::session::DATA_DIR_ENV).filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(dir));
    }
    directories::ProjectDirs::from("", "", "fray").map(|d| d.config_dir().to_path_buf())
}

/// Reads the settings in `dir`: the defaults when there is no file. A file that cannot be
/// read as settings is moved aside, and the defaults come back with the reason.
pub fn load(dir: &Path) -> (TableSettings, Option<String>) {
    let path = dir.join(SETTINGS_FILE);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return (TableSettings::default(), None),
        Err(e) => return (TableSettings::default(), Some(format!("{}: {e}", path.display()))),
    };
    match ron::from_str::<TableSettings>(&text) {
        Ok(mut settings) => {
            settings.size = (settings.size.0.clamp(320, 8192), settings.size.1.clamp(240, 8192));
            (settings, None)
        }
        Err(e) => {
            let aside = dir.join(format!("{SETTINGS_FILE}.broken"));
            let kept = match std::fs::rename(&path, &aside) {
                Ok(()) => format!("moved to {}", aside.display()),
                Err(err) => format!("left in place ({err})"),
            };
            let at = e.span.start;
            let why = format!(
                "{}:{}:{}: {}; the defaults are used and the file was {kept}",
                path.display(),
                at.line,
                at.col,
                e.code
            );
            (TableSettings::default(), Some(why))
        }
    }
}

/// Writes the settings to `dir` (created when missing), atomically.
pub fn save(dir: &Path, settings: &TableSettings) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let text = ron::ser::to_string_pretty(settings, ron::ser::PrettyConfig::default())
        .map_err(|e| format!("cannot write the table settings: {e}"))?;
    let path = dir.join(SETTINGS_FILE);
    crate::session::write_atomically(&path, text.as_bytes()).map_err(|e| format!("{}: {e}", path.display()))
}
