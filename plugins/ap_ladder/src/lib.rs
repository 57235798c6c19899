//! The Initiative ladder: everyone is placed on a ladder by 1d10 + Initiative; on its turn a
//! combatant discards its leftover Action Points and gains 3, spent on movement, attacks,
//! perilous stunts and special actions, and on reactions during others' turns. Damage and
//! Peril are measured against thresholds and move down their tracks; conditions, weapon
//! qualities, the fumble table and movement sub-types are data. The readings of the text are
//! in `RULES.md`.
//!
//! Where to find a rule: the phase chain is in [`schedule`]; the ladder, the surprise turn,
//! a turn's start and end, waiting and the GM's events in [`ladder`]; movement, opportunity
//! attacks and mounts in [`moves`]; attacks, reactions, damage and Peril in [`combat`];
//! injuries, bleeding and binding wounds in [`injuries`]; mounts harmed and out of control in
//! [`mounts`];
//! perilous stunts and chokeholds in [`stunts`]; special actions in [`specials`]; conditions
//! in [`conditions`]; fumbles in [`fumble`]; the dice in [`dice`]; the field in yards in
//! [`field`]; the end of the fight in [`ending`]; who decides and the AI in [`decisions`] and
//! [`ai`]; the scenario and its tables in [`data`] and [`load`]; what the board shows in
//! [`board`]; how it plugs into the table in [`ruleset`].
#![forbid(missing_docs)]

mod ai;
mod board;
pub mod combat;
mod conditions;
mod data;
mod decisions;
mod dice;
mod ending;
pub mod field;
mod fumble;
mod injuries;
pub mod intent;
pub mod ladder;
mod load;
mod mounts;
pub mod moves;
pub mod phase;
mod ruleset;
mod schedule;
mod specials;
mod stunts;

#[cfg(test)]
mod tests;

use bevy_app::{App, Plugin};
use fray_core::ruleset::AddRuleset;

pub use intent::ApLadderIntent;
pub use phase::ApLadderPhase;
pub use ruleset::ApLadder;

/// The Initiative ladder's plugin: registers [`ApLadder`] (and the core if needed).
pub struct ApLadderPlugin;

impl Plugin for ApLadderPlugin {
    fn build(&self, app: &mut App) {
        app.add_ruleset::<ApLadder>();
    }
}
