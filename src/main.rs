//! `fray`: the command line. With no subcommand it opens the board on the default scenario.

use std::process::ExitCode;

use clap::Parser;
use fray::cli::{Cli, Command, check, play, sim};

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Sim(args)) => sim::run(&args),
        Some(Command::Check(args)) => check::run(&args),
        Some(Command::Play(args)) => play::run(&args),
        None => play::run(&play::PlayArgs {
            path: None,
            seed: None,
            screenshot: None,
            log: None,
            exit_after: None,
            layout_out: None,
            select: None,
        }),
    }
}
