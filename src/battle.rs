//! Playing a headless battle to its end and summing up the result.

use bevy_app::App;
use fiend_wake::{FightResult, FwPhase};
use fray_core::log::GameLog;
use fray_core::phase::CurrentPhase;
use fray_core::prelude::{Combatant, Status};

/// What one battle came to.
#[derive(Debug, Clone)]
pub struct BattleSummary {
    /// The winning side's id, if exactly one side stands.
    pub winner: Option<String>,
    /// Rounds played.
    pub rounds: u32,
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
        let over = app
            .world()
            .get_resource::<CurrentPhase<FwPhase>>()
            .is_some_and(|p| p.get() == FwPhase::CombatOver);
        if over {
            break;
        }
    }
    let world = app.world_mut();
    let result = world.get_resource::<FightResult>()?.clone();
    let mut survivors: Vec<String> = world
        .query::<(&Combatant, &Status)>()
        .iter(world)
        .filter(|(_, s)| s.can_act())
        .map(|(c, _)| c.id.0.clone())
        .collect();
    survivors.sort();
    Some(BattleSummary { winner: result.winner, rounds: result.rounds, survivors, reason: result.reason })
}

/// The battle's log.
pub fn log(app: &App) -> &GameLog {
    app.world().resource::<GameLog>()
}
