//! The command line: `fray sim`, `fray check`.

pub mod check;
pub mod sim;

use clap::{Parser, Subcommand};

/// Fray, a combat table for tabletop role-playing games.
#[derive(Parser, Debug)]
#[command(name = "fray", version, about)]
pub struct Cli {
    /// What to do; with none, plays the default scenario headless (the window comes later).
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// The AI plays every side to the end; one summary line per battle.
    Sim(sim::SimArgs),
    /// Validates a scenario file: exit 0 if valid, 2 otherwise.
    Check(check::CheckArgs),
}
