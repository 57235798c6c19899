//! Fast & Slow played headless: the dice model, the rules one by one on the bundled
//! scenarios, the AI to the end, a golden log, random play, and an ordered schedule.

mod play;
mod rules;

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::log::GameLog;
use fray_core::prelude::TableIndex;
use fray_core::ruleset::table_app;

use crate::FastSlow;

pub(crate) const CROSSING: &str = include_str!("../../../../assets/scenarios/fast_slow_crossing.ron");
pub(crate) const AMBUSH: &str = include_str!("../../../../assets/scenarios/fast_slow_ambush.ron");
pub(crate) const VAULT: &str = include_str!("../../../../assets/scenarios/fast_slow_flooded_vault.ron");

/// A headless table for a bundled scenario.
pub(crate) fn table(text: &str, seed: u64, all_ai: bool) -> App {
    table_app::<FastSlow>(text, seed, 30, all_ai)
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
