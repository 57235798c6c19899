//! Toy duel: a two-phase toy ruleset with one counter and one intent, written by following
//! `plugins/README.md` alone. It proves the ruleset contract: it plays headless and opens on
//! the board with nothing outside this folder but its registration line. Its rules are in
//! `RULES.md`.
//!
//! Where to find a rule: the phase chain is in [`schedule`]; gathering sparks and striking
//! in [`strike`]; who decides, the AI and the inbox in [`decisions`]; the scenario in
//! [`load`]; how it plugs into the table in [`ruleset`].
#![forbid(missing_docs)]

mod decisions;
mod intent;
mod load;
mod phase;
mod ruleset;
mod schedule;
mod strike;

#[cfg(test)]
mod tests;

use bevy_app::{App, Plugin};
use fray_core::ruleset::AddRuleset;

pub use intent::ToyIntent;
pub use ruleset::ToyDuel;

/// The toy duel's plugin: registers [`ToyDuel`] (and the core if needed).
pub struct ToyDuelPlugin;

impl Plugin for ToyDuelPlugin {
    fn build(&self, app: &mut App) {
        app.add_ruleset::<ToyDuel>();
    }
}
