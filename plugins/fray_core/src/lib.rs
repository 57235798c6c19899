//! Fray's table core: the ruleset-agnostic model every ruleset plays on.
//!
//! - [`ruleset`]: the ruleset contract ([`Ruleset`](ruleset::Ruleset)) and the registry
//!   every ruleset of an app is added to (`app.add_ruleset::<R>()`).
//! - [`board`]: the board model a ruleset fills for any board to draw.
//! - [`fight`]: the fight on a table through the contract: scenarios, sessions, undo, saves.
//! - [`table`]: combatants, mounts, sides, controllers, "occupies" and "rides".
//! - [`location`]: strategic locations (or zones), "no location", accessibility.
//! - [`tokens`]: counter tokens as entities, and the counters the rules read.
//! - [`phase`]: the [`RulesStep`](phase::RulesStep) schedule and phase machinery.
//! - [`ai`]: the AI's levels, its reasons, its own generator.
//! - [`intent`]: typed intents, validation outcomes, rejections; [`coverage`]: what the AI
//!   was offered and took, by intent kind, for the balance lab.
//! - [`dice`]: the one seeded RNG; [`log`]: the structured battle log.
//! - [`scenario`]: RON scenarios, their checks, and spawning them; [`edit`]: editing one.
//! - [`session`]: the record of a fight's decisions, save files, replay.
//! - [`seat`]: who is looking (the GM, a player, the table) and what each may see.
#![forbid(missing_docs)]

pub mod ai;
pub mod board;
pub mod cores;
pub mod coverage;
pub mod dice;
pub mod edit;
pub mod fight;
pub mod ids;
pub mod intent;
pub mod location;
pub mod log;
pub mod phase;
pub mod ruleset;
pub mod scenario;
pub mod seat;
pub mod session;
pub mod table;
pub mod testing;
pub mod tokens;
pub mod words;

use bevy_app::{App, Plugin, Update};
use bevy_ecs::prelude::*;

/// The names most code needs.
pub mod prelude {
    pub use crate::FrayCorePlugin;
    pub use crate::dice::{RollRecord, TableRng};
    pub use crate::ids::{CombatantId, LocationId, MountId, SeatId, SideId};
    pub use crate::intent::{Inbox, IntentRecord, Outcome, Outcomes, Rejection, Submitted, Verdict};
    pub use crate::location::{EnteredFrom, Location, OpenField};
    pub use crate::log::{GameLog, LogEntry, LogEvent};
    pub use crate::phase::{
        CurrentPhase, Phase, RulesStep, RulesetSystems, StepProgress, TableSystems, in_phase,
    };
    pub use crate::ruleset::{AddRuleset, FightResult, Ruleset};
    pub use crate::table::{
        Combatant, Controller, FieldPosition, Mount, Occupants, Occupies, RiddenBy, Rides, Seats, Side,
        SideIndex, Status, TableIndex,
    };
    pub use crate::tokens::{CounterKind, CounterToken, Counters, TokenOf, Tokens};
}

/// The `Update` systems that run the rules until they wait and sync the token entities.
/// Clients order their input before it and their drawing after it.
#[derive(SystemSet, Clone, Debug, PartialEq, Eq, Hash)]
pub struct DriveRules;

/// Sets up the table: the [`RulesStep`](phase::RulesStep) schedule, the log and outcomes,
/// and, in `Update`, the driver that runs the rules until they wait, then brings the token
/// entities in line with the counters.
pub struct FrayCorePlugin;

impl Plugin for FrayCorePlugin {
    fn build(&self, app: &mut App) {
        // The rules are many small systems in a strict chain: one thread runs them fastest,
        // and deterministically, whatever features the app enables.
        app.init_schedule(phase::RulesStep)
            .edit_schedule(phase::RulesStep, |schedule| {
                schedule.set_executor(bevy_ecs::schedule::SingleThreadedExecutor::new());
            })
            .init_resource::<phase::StepProgress>()
            .init_resource::<log::GameLog>()
            .init_resource::<intent::Outcomes>()
            .init_resource::<table::TableIndex>()
            .init_resource::<table::SidesAndStatus>()
            .insert_resource(dice::TableRng::seeded(0))
            .add_systems(
                Update,
                (phase::run_rules_until_waiting, tokens::sync_token_entities).chain().in_set(DriveRules),
            );
    }
}
