//! Fiend Wake: tactical points and turn tokens, secret bids for priority, pending turns,
//! aftermath and harassment, on strategic locations. Interpretations of the rule text are
//! in `RULES.md` beside this crate.
//!
//! Where to find a rule: the phase chain is in [`schedule`]; each phase has its module
//! ([`round_prep`], [`bidding`], [`turns`], [`aftermath`], [`harassment`],
//! [`end_of_round`]); turn actions are in [`actions`]; damage in [`damage`]; dice in
//! [`rolls`]; the AI in [`ai`]; scenario data in [`data`] and [`load`]; counter kinds in
//! [`counters`]. How it plugs into the table is [`ruleset`]; what a board shows of it is
//! [`board`].
#![forbid(missing_docs)]

mod actions;
mod aftermath;
mod ai;
mod bidding;
mod board;
mod counters;
mod damage;
mod data;
mod decisions;
mod end_of_round;
mod harassment;
mod intent;
mod legal;
mod load;
pub mod phase;
mod reactions;
mod resolve;
mod rolls;
mod round_prep;
mod ruleset;
mod schedule;
pub mod sheet;
mod spells;
mod turns;
pub mod view;

#[cfg(test)]
mod tests;

use bevy_app::{App, Plugin};
use fray_core::ruleset::AddRuleset;

pub use intent::FiendWakeIntent;
pub use load::{FiendWakeScenario, parse_scenario};
pub use phase::{ActiveTurn, FiendWakePhase, Round};
pub use ruleset::FiendWake;
pub use schedule::FiendWakeSystems;

/// The Fiend Wake ruleset's plugin: registers [`FiendWake`] (and the core if needed).
pub struct FiendWakePlugin;

impl Plugin for FiendWakePlugin {
    fn build(&self, app: &mut App) {
        app.add_ruleset::<FiendWake>();
    }
}
