//! Playing a headless battle to its end and summing up the result, for any ruleset.

use bevy_app::App;
use fray_core::log::GameLog;
use fray_core::prelude::{Combatant, Status};
use fray_core::ruleset::FightResult;

/// What one battle came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BattleSummary {
    /// The winning side's id, if exactly one side stands.
    pub winner: Option<String>,
    /// The ruleset's clock when it ended (rounds played, or the tick).
    pub clock: u32,
    /// Ids of combatants still fighting.
    pub survivors: Vec<String>,
    /// Why it ended.
    pub reason: String,
}

/// Updates the app until the fight is over (at most `max_updates` updates; an all-AI
/// battle needs one). Returns `None` if it did not end.
pub fn play_to_end(app: &mut App, max_updates: u32) -> Option<BattleSummary> {
    for _ in 0..max_updates {
        app.update();
        if crate::session::fight_over(app.world()) {
            break;
        }
    }
    let world = app.world_mut();
    let result = world.get_resource::<FightResult>()?.clone();
    let mut survivors: Vec<String> = world
        .query::<(&Combatant, &Status)>()
        .iter(world)
        .filter(|(_, s)| s.can_act())
        .map(|(c, _)| c.id.to_string())
        .collect();
    survivors.sort();
    Some(BattleSummary {
        winner: result.winner.map(|w| w.to_string()),
        clock: result.clock,
        survivors,
        reason: result.reason,
    })
}

/// The battle's log.
pub fn log(app: &App) -> &GameLog {
    app.world().resource::<GameLog>()
}
