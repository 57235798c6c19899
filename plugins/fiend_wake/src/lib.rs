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

pub mod actions;
pub mod aftermath;
pub mod ai;
pub mod bidding;
pub mod board;
pub mod counters;
pub mod damage;
pub mod data;
pub mod decisions;
pub mod end_of_round;
pub mod harassment;
pub mod intent;
pub mod legal;
pub mod load;
pub mod phase;
pub mod reactions;
pub mod resolve;
pub mod rolls;
pub mod round_prep;
pub mod ruleset;
pub mod schedule;
pub mod sheet;
pub mod spells;
pub mod turns;
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
