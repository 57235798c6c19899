//! The command line: `fray play`, `fray sim`, `fray replay`, `fray check`, `fray new`.

pub mod check;
pub mod display;
pub mod headless;
pub mod new;
pub mod play;
pub mod replay;
pub mod sim;

use clap::{Parser, Subcommand};

/// Fray, a combat table for tabletop role-playing games.
#[derive(Parser, Debug)]
#[command(name = "fray", version, about)]
pub struct Cli {
    /// What to do; with none, opens the board on the default scenario.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// The AI plays every side to the end, many times: the balance report.
    Sim(sim::SimArgs),
    /// Opens the board window on a scenario.
    Play(play::PlayArgs),
    /// Validates a scenario file: exit 0 if valid, 2 otherwise.
    Check(check::CheckArgs),
    /// Writes a small valid scenario of a ruleset to start a new one from.
    New(new::NewArgs),
    /// Steps through a saved fight; `--headless` prints its log.
    Replay(replay::ReplayArgs),
}
