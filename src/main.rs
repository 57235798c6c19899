//! `fray`: the command line. With no subcommand it plays the default scenario headless
//! until the board window lands.

use std::process::ExitCode;

use clap::Parser;
use fray::cli::{Cli, Command, check, sim};

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Sim(args)) => sim::run(&args),
        Some(Command::Check(args)) => check::run(&args),
        None => {
            let scenario = fray::default_scenario();
            println!("Fray: no window yet; playing {} headless.", scenario.display());
            println!("Try `fray sim --scenario PATH` or `fray check PATH` (see `fray --help`).\n");
            sim::run(&sim::SimArgs { scenario, seed: None, battles: 1, max_rounds: 100, log: None })
        }
    }
}
