//! `fray`: the command line. With no subcommand it plays the default scenario headless
//! until the board window lands.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use fray::cli::{Cli, Command, check, sim};

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Sim(args)) => sim::run(&args),
        Some(Command::Check(args)) => check::run(&args),
        None => {
            println!("Fray: no window yet; playing {} headless.", fray::DEFAULT_SCENARIO);
            println!("Try `fray sim --scenario PATH` or `fray check PATH` (see `fray --help`).\n");
            sim::run(&sim::SimArgs {
                scenario: PathBuf::from(fray::DEFAULT_SCENARIO),
                seed: None,
                battles: 1,
                max_rounds: 100,
                log: None,
            })
        }
    }
}
