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
}

/// Replays the save. Exit 0; 2 for a file that cannot be read (one `PATH[:LINE:COL]:
/// message` line per problem); 3 when an intent no longer validates: the log up to it is
/// printed and stderr says which.
pub fn run(args: &ReplayArgs) -> ExitCode {
    let shown = args.path.display().to_string();
    let save = match session::read_save(&args.path) {
        Ok(save) => save,
        Err(e) => {
            for line in e.report(&shown) {
                eprintln!("{line}");
            }
            return ExitCode::from(2);
        }
    };
    if !args.headless {
        eprintln!(
            "{shown}: the replay window is not wired yet; `fray replay {shown} --headless` prints the log"
        );
        return ExitCode::from(2);
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
