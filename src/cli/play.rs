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
    /// printed as JSON Lines, and the fight is autosaved after every accepted intent. Of the
    /// other options it takes the scenario, `--seed`, `--resume`, `--data-dir`, `--pace-ms`,
    /// `--log`, `--status-out` and `--serve` (then the players decide on their pages and the
    /// AI for the rest); the window's are refused.
    #[arg(long)]
    pub headless: bool,
    /// Serve each player's seat as a page for their phone, and the table's view as an overlay
    /// page for streaming software, on ADDR:PORT (default 0.0.0.0:8475; port 0 picks a free
    /// one). For a local network: plain HTTP. The links are in the GM's window and in
    /// `--status-out`'s file.
    #[arg(long, value_name = "ADDR:PORT", num_args = 0..=1, default_missing_value = "0.0.0.0:8475")]
    pub serve: Option<std::net::SocketAddr>,
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
    #[arg(long, conflicts_with = "headless")]
    pub screenshot: Option<PathBuf>,
    /// Write the battle's JSON Lines log here, line by line as it grows (rewritten whole
    /// when an undo takes lines back).
    #[arg(long)]
    pub log: Option<PathBuf>,
    /// Keep a JSON file here saying what the table is doing now (phase, who the rules wait
    /// on, the last outcome, pictures saved...), rewritten whenever that changes: what
    /// scripted checks wait on instead of sleeping.
    #[arg(long)]
    pub status_out: Option<PathBuf>,
    /// Close the window after this many seconds (for scripted checks).
    #[arg(long, conflicts_with = "headless")]
    pub exit_after: Option<f32>,
    /// Write the screen positions of cards and tokens here as JSON once the board has
    /// settled, and again after each step of the rules (for scripted checks that drag tokens).
    #[arg(long, conflicts_with = "headless")]
    pub layout_out: Option<PathBuf>,
    /// Save a picture of the window in the first frame a token glides after a drag (a refused
    /// drop sliding back, or the token going to its place), and the screen layout of that
    /// frame beside it (PATH with `.json`): a token caught on its way, for checks.
    #[arg(long, value_name = "PATH", conflicts_with = "headless")]
    pub glide_picture: Option<PathBuf>,
    /// Select this combatant or location id at the start, showing its reach.
    #[arg(long, conflicts_with = "headless")]
    pub select: Option<String>,
    /// Open the Balance panel and run this many all-AI battles of the scenario on
    /// background threads (the panel's Run button does the same).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1_000_000), conflicts_with = "headless")]
    pub balance: Option<u32>,
    /// Open the scenario in edit mode: cards, arrows and tokens are changed on the board
    /// and saved to the file (F2 or "Play this" starts the fight).
    #[arg(long, conflicts_with = "headless")]
    pub edit: bool,
    /// Hide this combatant from the table's screen (repeatable); the sheet's "Hidden from
    /// the table" box does the same in the window.
    #[arg(long = "hide", value_name = "ID", conflicts_with = "headless")]
    pub hide: Vec<String>,
    /// Let the AI play every side, one decision per frame, until this phase (any ruleset's
    /// phase name, e.g. `harassment`, `cede`, `declare`) asks a person; then the scenario's
    /// players take over. For demonstrations and scripted checks.
    #[arg(long, value_parser = parse_phase, conflicts_with = "headless")]
    pub autoplay_until: Option<String>,
    /// Benchmark: once the board has settled, time this many frames, print the main
    /// world's update time per frame, the start-up time and resident memory, and exit.
    #[arg(long, conflicts_with = "headless")]
    pub stats: Option<u32>,
    /// With `--stats`: run every window system but render nothing (no GPU asked for), to
    /// time the app's own work apart from the renderer.
    #[arg(long, requires = "stats")]
    pub no_render: bool,
    /// With `--stats`: render into images instead of windows (1600x900, and 1280x720 for the
    /// table window), with no display needed: GPU timings on a machine without one.
    #[arg(long, requires = "stats", conflicts_with = "no_render")]
    pub offscreen: bool,
    /// Open a second window showing the board and public information only, in large type,
    /// for the players' screen or streaming software. With `--screenshot OUT.png` it is
    /// saved too, as `OUT-table.png`.
    #[arg(long, conflicts_with = "headless")]
    pub table_window: bool,
    /// The table's screen's flat background colour (table window or table mode), as
    /// hexadecimal RRGGBB (e.g. `00ff00`), for chroma keying. Kept for later runs.
    #[arg(long, value_parser = parse_colour, conflicts_with = "headless")]
    pub chroma_key: Option<[u8; 3]>,
    /// Start in table mode: this window shows the table's screen, every GM panel hidden
    /// (F10 toggles), for one monitor that everyone sees.
    #[arg(long, conflicts_with = "headless")]
    pub table_mode: bool,
    /// Keep the last roll and damage in a strip along the bottom of the table's screen (a
    /// lower third, for a stream), the board framed above it. Kept for later runs.
    #[arg(long, conflicts_with = "headless")]
    pub lower_third: bool,
    /// Open the table window on this monitor (0 is the first). Kept for later runs.
    #[arg(long, value_name = "N", conflicts_with = "headless")]
    pub table_monitor: Option<usize>,
    /// The table window's size in logical pixels, e.g. `1920x1080` for a fixed stream
    /// capture. Kept for later runs.
    #[arg(long, value_name = "WxH", value_parser = parse_size, conflicts_with = "headless")]
    pub table_size: Option<(u32, u32)>,
    /// The GM's window's size in logical pixels (default 1600x900).
    #[arg(long, value_name = "WxH", value_parser = parse_size, conflicts_with = "headless")]
    pub window_size: Option<(u32, u32)>,
}

/// A window size written `WIDTHxHEIGHT`, each from 320 to 7680.
fn parse_size(text: &str) -> Result<(u32, u32), String> {
    let bad = || format!("'{text}' is no window size; write it as WIDTHxHEIGHT, e.g. 1920x1080");
    let (w, h) = text.split_once(['x', 'X']).ok_or_else(bad)?;
    let (w, h) = (w.trim().parse::<u32>().map_err(|_| bad())?, h.trim().parse::<u32>().map_err(|_| bad())?);
    if !(320..=7680).contains(&w) || !(240..=4320).contains(&h) {
        return Err(format!("'{text}': a window is 320 to 7680 pixels wide and 240 to 4320 high"));
    }
    Ok((w, h))
}

fn parse_colour(text: &str) -> Result<[u8; 3], String> {
    let hex = text.strip_prefix('#').unwrap_or(text);
    let bad = || format!("'{text}' is no colour; write it as RRGGBB, e.g. 00ff00");
    if hex.len() != 6 || !hex.is_ascii() {
        return Err(bad());
    }
    let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).map_err(|_| bad());
    Ok([byte(0)?, byte(2)?, byte(4)?])
}

/// A phase name of any ruleset (the scenario opened decides whose it must be).
fn parse_phase(text: &str) -> Result<String, String> {
    let rulesets = crate::rulesets::registry();
    if rulesets.iter().any(|r| r.phase_names().contains(&text)) {
        return Ok(text.to_owned());
    }
    let names: Vec<String> =
        rulesets.iter().map(|r| format!("{}: {}", r.id(), r.phase_names().join(", "))).collect();
    Err(format!("'{text}' is no phase of any ruleset ({})", names.join("; ")))
}

/// Runs the window until it is closed (`--headless` runs `super::headless` instead).
pub fn run(args: &PlayArgs) -> ExitCode {
    if !args.offscreen
        && let Some(why) = super::display::missing()
    {
        eprintln!("fray play: {why}");
        return ExitCode::FAILURE;
    }
    let options = PlayOptions {
        scenario: args.path.clone().unwrap_or_else(crate::assets::default_scenario),
        seed: args.seed,
        screenshot: args.screenshot.clone(),
        log: args.log.clone(),
        status_out: args.status_out.clone(),
        exit_after: args.exit_after,
        layout_out: args.layout_out.clone(),
        glide_picture: args.glide_picture.clone(),
        select: args.select.clone(),
        hide: args.hide.clone(),
        autoplay_until: args.autoplay_until.clone(),
        stats: args.stats,
        no_render: args.no_render,
        offscreen: args.offscreen,
        resume: args.resume,
        watch: None,
        data_dir: args.data_dir.clone(),
        table_window: args.table_window,
        chroma: args.chroma_key,
        table_mode: args.table_mode,
        lower_third: args.lower_third,
        table_monitor: args.table_monitor,
        table_size: args.table_size,
        window_size: args.window_size,
        balance: args.balance,
        edit: args.edit,
        serve: args.serve,
    };
    match App::new().add_plugins(ClientPlugin(options)).run() {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(code) => ExitCode::from(code.get()),
    }
}

#[cfg(test)]
mod tests {
    use super::parse_colour;

    #[test]
    fn chroma_key_reads_rrggbb_and_refuses_the_rest() {
        assert_eq!(parse_colour("00ff00"), Ok([0, 255, 0]), "plain RRGGBB");
        assert_eq!(parse_colour("#FF8000"), Ok([255, 128, 0]), "a leading # and capitals are fine");
        for bad in ["", "00ff0", "00ff000", "gg0000", "00ff0é"] {
            assert!(parse_colour(bad).is_err(), "'{bad}' is no RRGGBB colour and must be refused");
        }
    }
}
