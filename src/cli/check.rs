//! `fray check PATH`: validates a scenario.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::rulesets;

/// Arguments of `fray check`.
#[derive(Args, Debug)]
pub struct CheckArgs {
    /// The scenario file.
    pub path: PathBuf,
}

/// Prints `PATH: ok` (exit 0), or one `PATH[:LINE:COL]: message` line per problem (exit 2).
pub fn run(args: &CheckArgs) -> ExitCode {
    let shown = args.path.display().to_string();
    match rulesets::load(&args.path) {
        Ok(scenario) => {
            println!("{shown}: ok ({})", scenario.name());
            ExitCode::SUCCESS
        }
        Err(e) => {
            for line in e.report(&shown) {
                eprintln!("{line}");
            }
            ExitCode::from(2)
        }
    }
}
