//! The Initiative ladder played headless: the ladder, AP, reactions, each condition, cover
//! and running, the fumble table, stunts, the actions' costs and the weapon qualities, the AI
//! to the end on both bundled scenarios, a golden log, random legal play, and an ordered
//! schedule.

mod actions;
mod harm;
mod play;
mod rules;

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::log::GameLog;
use fray_core::prelude::TableIndex;
use fray_core::ruleset::table_app;

use crate::ApLadder;

pub(crate) const FORD: &str = include_str!("../../../../assets/scenarios/ap_ladder_ford.ron");
pub(crate) const TAVERN: &str = include_str!("../../../../assets/scenarios/ap_ladder_tavern.ron");
pub(crate) const TOLLGATE: &str = include_str!("../../../../assets/scenarios/ap_ladder_tollgate.ron");

/// A headless table for a scenario.
pub(crate) fn table(text: &str, seed: u64, all_ai: bool) -> App {
    table_app::<ApLadder>(text, seed, 20, all_ai)
        .unwrap_or_else(|e| panic!("{}", e.report("scenario").join("; ")))
}

/// A combatant by id.
pub(crate) fn who(app: &App, id: &str) -> Entity {
    app.world().resource::<TableIndex>().combatant(&id.into()).unwrap_or_else(|| panic!("no combatant {id}"))
}

/// The log as JSON values.
pub(crate) fn log_values(app: &App) -> Vec<serde_json::Value> {
    let mut out = Vec::new();
    app.world().resource::<GameLog>().write_jsonl(&mut out, None).expect("in memory");
    String::from_utf8(out).expect("UTF-8").lines().map(|l| serde_json::from_str(l).expect("JSON")).collect()
}
