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

/// Opens the window on the save, at the start of the fight: step forward and back with the
/// buttons or the arrow keys, the log following.
fn watch(args: &ReplayArgs) -> ExitCode {
    use bevy::prelude::{App, AppExit};
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
    };
    match App::new().add_plugins(crate::client::ClientPlugin(options)).run() {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(code) => ExitCode::from(code.get()),
    }
}
