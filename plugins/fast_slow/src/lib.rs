//! Fast & Slow turns: every combatant commits in secret to a Fast or a Slow turn each round;
//! Fast turns come first, then the upkeep (hazards, poison, reinforcements), then Slow turns.
//! Attacks are a d12 with a skill die against a Difficulty, defended by Brace, Defy, Dodge or
//! Handle; damage wears stamina, then a limb's pool. The readings of the text are in
//! `RULES.md`.
//!
//! Where to find a rule: the phase chain is in [`schedule`]; entering combat (leadership,
//! surprise, free movement) in [`opening`]; the secret Fast/Slow choice and the turn order in
//! [`commit`]; a turn's budget, movement and actions in [`turns`]; attacks, defences,
//! counterattacks and damage in [`combat`]; the dice arithmetic in [`dice`]; the upkeep and
//! the end of the round in [`upkeep`]; the end of the fight and XP in [`ending`]; who
//! decides and the AI in [`decisions`] and [`ai`]; the scenario in [`data`] and [`load`];
//! what the board shows in [`board`]; how it plugs into the table in [`ruleset`].
#![forbid(missing_docs)]

mod ai;
mod board;
mod combat;
mod commit;
mod data;
mod decisions;
mod dice;
mod ending;
mod intent;
mod load;
mod opening;
pub mod phase;
mod ruleset;
mod schedule;
pub mod turns;
mod upkeep;

#[cfg(test)]
mod tests;

use bevy_app::{App, Plugin};
use fray_core::ruleset::AddRuleset;

pub use intent::FastSlowIntent;
pub use phase::FastSlowPhase;
pub use ruleset::FastSlow;

/// Fast & Slow's plugin: registers [`FastSlow`] (and the core if needed).
pub struct FastSlowPlugin;

impl Plugin for FastSlowPlugin {
    fn build(&self, app: &mut App) {
        app.add_ruleset::<FastSlow>();
    }
}
