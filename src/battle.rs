//! Playing a headless battle to its end and summing up the result.

use bevy_app::App;
use fray_core::log::GameLog;
use fray_core::prelude::{Combatant, Status};

use crate::rulesets::RulesetScenario;
use crate::session::Session;

/// What one battle came to.
#[derive(Debug, Clone)]
pub struct BattleSummary {
    /// The winning side's id, if exactly one side stands.
    pub winner: Option<String>,
    /// Rounds played (ticks for a tick-based ruleset).
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
        if crate::session::fight_over(app.world()) {
            break;
        }
    }
    let world = app.world_mut();
    let (winner, rounds, reason) = match &world.get_resource::<Session>()?.scenario.rules {
        RulesetScenario::FiendWake(_) => {
            let r = world.get_resource::<fiend_wake::FightResult>()?;
            (r.winner.clone(), r.rounds, r.reason.clone())
        }
        RulesetScenario::Fatewalker(_) => {
            let r = world.get_resource::<fatewalker::FightResult>()?;
            (r.winner.clone(), r.ticks, r.reason.clone())
        }
    };
    let mut survivors: Vec<String> = world
        .query::<(&Combatant, &Status)>()
        .iter(world)
        .filter(|(_, s)| s.can_act())
        .map(|(c, _)| c.id.0.clone())
        .collect();
    survivors.sort();
    Some(BattleSummary { winner, rounds, survivors, reason })
}

/// The battle's log.
pub fn log(app: &App) -> &GameLog {
    app.world().resource::<GameLog>()
}
