//! `fray`: the command line. With no subcommand it opens the board on the default scenario.

use std::process::ExitCode;

use clap::Parser;
use fray::cli::{Cli, Command, check, headless, new, play, replay, sim};

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Sim(args)) => sim::run(&args),
        Some(Command::Check(args)) => check::run(&args),
        Some(Command::New(args)) => new::run(&args),
        Some(Command::Play(args)) if args.headless => headless::run(&args),
        Some(Command::Play(args)) => play::run(&args),
        Some(Command::Replay(args)) => replay::run(&args),
        // No subcommand reads as `fray play` with its defaults.
        None => match Cli::parse_from(["fray", "play"]).command {
            Some(Command::Play(args)) => play::run(&args),
            _ => ExitCode::FAILURE,
        },
    }
}
