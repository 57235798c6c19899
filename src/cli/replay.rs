//! `fray replay SAVE`: a saved fight, replayed.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::battle::log;
use crate::session;

/// Arguments of `fray replay`.
#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// The save file.
    pub path: PathBuf,
    /// Print the fight's log as JSON Lines (as `fray sim --log` writes it) instead of
    /// opening the window.
    #[arg(long)]
    pub headless: bool,
    /// With `--headless`: print instead what one seat was shown after every step, one view
    /// a line (JSON Lines): `gm`, `table`, `player:NAME` or `combatant:ID` (the seat that
    /// controls it when the fight starts).
    #[arg(long, value_name = "SEAT", requires = "headless")]
    pub seat: Option<String>,
    /// In the window: save a picture once the board has settled, then exit.
    #[arg(long, conflicts_with = "headless")]
    pub screenshot: Option<PathBuf>,
    /// In the window: close it after this many seconds (for scripted checks).
    #[arg(long, conflicts_with = "headless")]
    pub exit_after: Option<f32>,
}

/// Replays the save. Exit 0; 2 for a file that cannot be read (one `PATH[:LINE:COL]:
/// message` line per problem); 3 when an intent no longer validates: the log up to it is
/// printed and stderr says which.
pub fn run(args: &ReplayArgs) -> ExitCode {
    let shown = args.path.display().to_string();
    let save = match session::read_save(&crate::rulesets::registry(), &args.path) {
        Ok(save) => save,
        Err(e) => {
            for line in e.report(&shown) {
                eprintln!("{line}");
            }
            return ExitCode::from(2);
        }
    };
    if !args.headless {
        return watch(args);
    }
    if let Some(seat) = &args.seat {
        return seat_views(&save, seat, &shown);
    }
    let (app, report) = save.headless_app();
    let mut stdout = std::io::stdout().lock();
    // A closed pipe (`fray replay ... | head`) ends the output quietly.
    if log(&app).write_jsonl(&mut stdout, None).and_then(|()| stdout.flush()).is_err() {
        return ExitCode::SUCCESS;
    }
    if report.stopped.is_some() {
        eprintln!("{shown}: {}", report.message());
        return ExitCode::from(3);
    }
    ExitCode::SUCCESS
}

/// Prints what `seat` was shown after every step of the save's replay, one view a line.
fn seat_views(save: &session::LoadedSave, seat: &str, shown: &str) -> ExitCode {
    let start = save.scenario.table_app(save.seed(), save.limit(), false);
    let seat = match fray_core::seat::Seat::parse(seat, start.world()) {
        Ok(seat) => seat,
        Err(e) => {
            eprintln!("--seat: {e}");
            return ExitCode::from(2);
        }
    };
    let rules = save.scenario.ruleset().clone();
    let mut stdout = std::io::stdout().lock();
    let mut open = true;
    let mut print = |world: &bevy_ecs::world::World| {
        let view = fray_core::seat::seat_view(world, rules.as_ref(), &seat);
        // A closed pipe (`... | head`) ends the output quietly.
        open = open
            && serde_json::to_writer(&mut stdout, &view).is_ok()
            && stdout.write_all(b"\n").and_then(|()| stdout.flush()).is_ok();
    };
    let (_, report) = save.headless_app_watching(&mut print);
    if report.stopped.is_some() {
        eprintln!("{shown}: {}", report.message());
        return ExitCode::from(3);
    }
    ExitCode::SUCCESS
}

/// Opens the window on the save, at the start of the fight: step forward and back with the
/// buttons or the arrow keys, the log following.
fn watch(args: &ReplayArgs) -> ExitCode {
    use bevy::prelude::{App, AppExit};
    if let Some(why) = super::display::missing() {
        eprintln!("fray replay: {why}");
        return ExitCode::FAILURE;
    }
    let options = crate::client::PlayOptions {
        scenario: crate::assets::default_scenario(),
        seed: None,
        screenshot: args.screenshot.clone(),
        log: None,
        status_out: None,
        exit_after: args.exit_after,
        layout_out: None,
        glide_picture: None,
        select: None,
        hide: Vec::new(),
        autoplay_until: None,
        stats: None,
        no_render: false,
        resume: false,
        watch: Some(args.path.clone()),
        data_dir: None,
        table_window: false,
        chroma: None,
        table_mode: false,
        lower_third: false,
        offscreen: false,
        table_monitor: None,
        table_size: None,
        window_size: None,
        balance: None,
        edit: false,
        serve: None,
    };
    match App::new().add_plugins(crate::client::ClientPlugin(options)).run() {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(code) => ExitCode::from(code.get()),
    }
}
