//! FateWalker: no rounds. Time runs in ticks of half a second; each action pushes its
//! actor's next action tick forward by its cost. Success-counting dice, damage dice that
//! promote and demote, armour and barriers, and a wound chart with stun, bleeding and death.
//! Interpretations of the rule text are in `RULES.md` beside this crate.
//!
//! Where to find a rule: the phase chain is in [`schedule`]; the opening in [`initiative`];
//! each step of a tick has its module ([`clock`] for tick events, [`declare`], [`preempt`],
//! [`resolve`], [`movement`] for segments and free actions); actions in [`actions`]; attacks
//! in [`combat`]; dice in [`dice`] and [`rolls`]; wounds in [`wounds`] and [`damage`]; the
//! AI in [`ai`]; scenario data in [`data`] (defaults in `data/defaults.ron`) and [`load`].
//! How it plugs into the table is [`ruleset`]; what a board shows of it is [`board`].
#![forbid(missing_docs)]

mod actions;
mod ai;
pub mod board;
mod clock;
pub mod combat;
mod damage;
pub mod data;
mod decisions;
mod declare;
mod dice;
mod initiative;
mod intent;
mod legal;
mod load;
mod movement;
pub mod phase;
pub mod preempt;
mod resolve;
mod rolls;
mod ruleset;
mod schedule;
mod sheet;
pub mod view;
mod wounds;

#[cfg(test)]
mod tests;

use bevy_app::{App, Plugin};
use fray_core::ruleset::AddRuleset;

pub use intent::{Action, FateWalkerIntent, Reaction};
pub use load::{FateWalkerScenario, parse_scenario};
pub use phase::{Clock, FateWalkerPhase};
pub use ruleset::FateWalker;
pub use schedule::FateWalkerSystems;

/// Board units per metre: how large a metre is drawn.
pub const UNITS_PER_METRE: f32 = 25.0;

/// The FateWalker ruleset's plugin: registers [`FateWalker`] (and the core if needed).
pub struct FateWalkerPlugin;

impl Plugin for FateWalkerPlugin {
    fn build(&self, app: &mut App) {
        app.add_ruleset::<FateWalker>();
    }
}
