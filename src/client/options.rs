//! What the command line asked of the window ([`PlayOptions`]), and the opening's state the
//! client's parts read: why the scenario could not be opened, the autoplay of a scripted
//! run, the AI's pace.

use std::path::PathBuf;

use bevy::prelude::*;
use fray_core::prelude::Controller;

/// How the window was asked to play.
#[derive(Resource, Clone, Debug, Default)]
pub struct PlayOptions {
    /// The scenario file.
    pub scenario: PathBuf,
    /// RNG seed (the scenario's when absent).
    pub seed: Option<u64>,
    /// Save a picture of the window here once the board has settled, then exit.
    pub screenshot: Option<PathBuf>,
    /// Write the battle's JSON Lines log here, as it grows.
    pub log: Option<PathBuf>,
    /// Keep the table's status here as JSON (`--status-out`), for scripted checks.
    pub status_out: Option<PathBuf>,
    /// Close the window after this many seconds (for scripted checks).
    pub exit_after: Option<f32>,
    /// Write the screen positions of cards and tokens here once the board has settled (for
    /// scripted drags).
    pub layout_out: Option<PathBuf>,
    /// Save a picture (and the layout) of the first frame of the first glide after a drag
    /// (`--glide-picture`).
    pub glide_picture: Option<PathBuf>,
    /// Select this combatant or location id at the start (its reach is shown).
    pub select: Option<String>,
    /// Combatant ids hidden from the table's screen from the start (`--hide ID`).
    pub hide: Vec<String>,
    /// The AI plays every side until this phase (by its log name) asks a person
    /// (`--autoplay-until`).
    pub autoplay_until: Option<String>,
    /// Time this many frames once settled, print the figures and exit (`--stats`).
    pub stats: Option<u32>,
    /// Run every window system but draw nothing (no GPU adapter is asked for): the
    /// benchmark's figure without rendering (`--no-render`).
    pub no_render: bool,
    /// Render into images, with no window and no display (`--offscreen`, for `--stats`).
    pub offscreen: bool,
    /// Resume the interrupted fight autosaved in the data folder (`--resume`).
    pub resume: bool,
    /// Watch this save step by step instead of playing (`fray replay SAVE`).
    pub watch: Option<PathBuf>,
    /// The data folder for autosaves (default: `$FRAY_DATA_DIR`, else the user's).
    pub data_dir: Option<PathBuf>,
    /// Open a second window showing the board and public information only
    /// (`--table-window`).
    pub table_window: bool,
    /// The table's screen's flat background, for chroma keying (`--chroma-key RRGGBB`).
    pub chroma: Option<[u8; 3]>,
    /// Start in table mode: the GM panels hidden, the table's screen in this window
    /// (`--table-mode`; F10 toggles).
    pub table_mode: bool,
    /// The table's screen keeps the last roll and damage along its bottom (`--lower-third`).
    pub lower_third: bool,
    /// Open the table window on this monitor (`--table-monitor N`).
    pub table_monitor: Option<usize>,
    /// The table window's size (`--table-size WxH`).
    pub table_size: Option<(u32, u32)>,
    /// The GM's window's size (`--window-size WxH`; default 1600x900).
    pub window_size: Option<(u32, u32)>,
    /// Open the Balance panel and run this many battles at the start (`--balance N`).
    pub balance: Option<u32>,
    /// Start in edit mode (`--edit`).
    pub edit: bool,
    /// Serve the seats' pages and the overlay here (`--serve`).
    pub serve: Option<std::net::SocketAddr>,
}

/// While set, the AI plays every side one decision per frame; it holds the controllers the
/// scenario gave, restored once the wanted phase asks one of those players. The AI's own
/// sides then finish their part of that phase (at the same pace) before autoplay ends, so
/// that, e.g., the AI's secret choices are in when a player is asked for theirs.
#[derive(Resource, Clone, Debug, Default)]
pub struct Autoplay(pub Option<(String, Vec<(Entity, Controller)>)>);

/// Why the scenario could not be opened, shown in the window.
#[derive(Resource, Clone, Debug, Default)]
pub struct LoadError(pub Option<String>);

/// The delay between two AI decisions, so that people can follow them.
#[derive(Resource, Clone, Debug)]
pub struct AiPause(pub Timer);
