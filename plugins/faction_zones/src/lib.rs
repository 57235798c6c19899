//! Factions in zones: no initiative order; factions alternate activating one character each
//! or passing, and the round ends when every faction has passed in a row. The battlefield is
//! zones (locations joined by adjacency, distances counted in zones); attacks mostly hit, and
//! the target may react (dodge or counter) by spending its turn; morale is checked at the end
//! of the round. The readings of the text are in `RULES.md`.
//!
//! Where to find a rule: the phase chain is in [`schedule`]; the initiative holder's pick, the
//! alternation and the passes in [`activation`]; a turn's movement and actions in [`turns`];
//! attacks, reactions, stunts and damage in [`combat`]; disarming, shoving, grappling and
//! breaking free in [`non_lethal`]; concealment, surprise and the ambushers' bonus round in
//! [`stealth`]; saves in [`dice`]; morale at the end of the round in [`morale`]; fleeing the
//! fight in [`chase`]; mounts, vehicles and their riders in [`mounts`]; the end of the fight in [`ending`]; who decides and the AI in
//! [`decisions`] and [`ai`]; the scenario in [`data`] and [`load`]; what the board shows in
//! [`board`]; how it plugs into the table in [`ruleset`].
#![forbid(missing_docs)]

mod activation;
mod ai;
mod board;
mod chase;
mod combat;
mod data;
mod decisions;
mod dice;
mod ending;
mod intent;
mod load;
mod morale;
mod mounts;
mod non_lethal;
pub mod phase;
mod ruleset;
mod schedule;
mod stealth;
mod turns;

#[cfg(test)]
mod tests;

use bevy_app::{App, Plugin};
use fray_core::ruleset::AddRuleset;

pub use intent::FactionZonesIntent;
pub use phase::FactionZonesPhase;
pub use ruleset::FactionZones;

/// Factions in zones' plugin: registers [`FactionZones`] (and the core if needed).
pub struct FactionZonesPlugin;

impl Plugin for FactionZonesPlugin {
    fn build(&self, app: &mut App) {
        app.add_ruleset::<FactionZones>();
    }
}
