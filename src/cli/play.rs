//! `fray play PATH`: the board window.

use std::path::PathBuf;
use std::process::ExitCode;

use bevy::prelude::*;
use clap::Args;

use crate::client::{ClientPlugin, PlayOptions};

/// Arguments of `fray play`.
#[derive(Args, Debug, Clone)]
pub struct PlayArgs {
    /// The scenario file (the default scenario when absent).
    pub path: Option<PathBuf>,
    /// Play without a window: the AI plays every side, one decision per step, the log is
    /// printed as JSON Lines, and the fight is autosaved after every accepted intent.
    #[arg(long)]
    pub headless: bool,
    /// Resume the last autosaved fight instead of opening a scenario.
    #[arg(long, conflicts_with = "path")]
    pub resume: bool,
    /// The data folder holding the autosave (default: $FRAY_DATA_DIR, else the user's data
    /// folder).
    #[arg(long)]
    pub data_dir: Option<PathBuf>,
    /// Headless: wait this many milliseconds between two AI decisions.
    #[arg(long, default_value_t = 0)]
    pub pace_ms: u64,
    /// RNG seed (default: the scenario's).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Save a picture of the window here once the board has settled, then exit.
    #[arg(long)]
    pub screenshot: Option<PathBuf>,
    /// Write the battle's JSON Lines log here when the window closes.
    #[arg(long)]
    pub log: Option<PathBuf>,
    /// Close the window after this many seconds (for scripted checks).
    #[arg(long)]
    pub exit_after: Option<f32>,
    /// Write the screen positions of cards and tokens here as JSON once the board has
    /// settled (for scripted checks that drag tokens).
    #[arg(long)]
    pub layout_out: Option<PathBuf>,
    /// Select this combatant or location id at the start, showing its reach.
    #[arg(long)]
    pub select: Option<String>,
    /// Let the AI play every side, one decision per frame, until this phase asks a
    /// person (e.g. `harassment`, `cede`); then the scenario's players take over. For
    /// demonstrations and scripted checks.
    #[arg(long, value_parser = parse_phase)]
    pub autoplay_until: Option<fiend_wake::FwPhase>,
    /// Benchmark: once the board has settled, time this many frames, print the main
    /// world's update time per frame, the start-up time and resident memory, and exit.
    #[arg(long)]
    pub stats: Option<u32>,
    /// With `--stats`: run every window system but render nothing (no GPU asked for), to
    /// time the app's own work apart from the renderer.
    #[arg(long, requires = "stats")]
    pub no_render: bool,
}

fn parse_phase(text: &str) -> Result<fiend_wake::FwPhase, String> {
    use fray_core::phase::Phase;
    fiend_wake::FwPhase::ROUND.into_iter().find(|p| p.name() == text).ok_or_else(|| {
        let names: Vec<&str> = fiend_wake::FwPhase::ROUND.iter().map(|p| p.name()).collect();
        format!("'{text}' is no phase; one of {}", names.join(", "))
    })
}

/// Runs the window until it is closed.
pub fn run(args: &PlayArgs) -> ExitCode {
    if args.headless {
        return super::headless::run(args);
    }
    let options = PlayOptions {
        scenario: args.path.clone().unwrap_or_else(crate::default_scenario),
        seed: args.seed,
        screenshot: args.screenshot.clone(),
        log: args.log.clone(),
        exit_after: args.exit_after,
        layout_out: args.layout_out.clone(),
        select: args.select.clone(),
        autoplay_until: args.autoplay_until,
        stats: args.stats,
        no_render: args.no_render,
        resume: args.resume,
        watch: None,
        data_dir: args.data_dir.clone(),
    };
    match App::new().add_plugins(ClientPlugin(options)).run() {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(code) => ExitCode::from(code.get()),
    }
}
