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

/// What the table is doing now, as `--status-out` writes it (the window adds its own parts):
/// the ruleset, clock and phase, whether the fight is over, who the rules wait on and whose
/// turn it is, the outcomes of intents and the last one, the log's length, and the host's links when
/// serving seats.
pub fn status(world: &bevy_ecs::world::World) -> serde_json::Map<String, serde_json::Value> {
    use fray_core::fight::ruleset;
    let ids = |es: &[bevy_ecs::entity::Entity]| -> Vec<String> {
        es.iter().map(|&e| fray_core::table::id(world, e).to_string()).collect()
    };
    let rules = ruleset(world);
    let outcomes = world.get_resource::<fray_core::intent::Outcomes>();
    let last = outcomes.and_then(|o| o.last()).map(|o| {
        serde_json::json!({
            "actor": o.actor,
            "intent": o.intent,
            "accepted": o.result.is_ok(),
            "reason": o.result.as_ref().err().map(|r| r.0.clone()),
        })
    });
    let log = world.get_resource::<GameLog>();
    let status = serde_json::json!({
        "ruleset": rules.as_ref().map(|r| r.id()),
        "clock": log.map(GameLog::clock),
        "phase": rules.as_ref().map(|r| r.phase(world).name),
        "over": rules.as_ref().is_some_and(|r| r.over(world)),
        "awaiting": ids(&rules.as_ref().map(|r| r.awaiting(world)).unwrap_or_default()),
        "acting": ids(&rules.as_ref().map(|r| r.view().acting(world)).unwrap_or_default()),
        "outcomes": outcomes.map_or(0, |o| o.0.len()),
        "last": last,
        "log": log.map_or(0, |l| l.entries().len()),
    });
    let mut status = match status {
        serde_json::Value::Object(map) => map,
        _ => serde_json::Map::new(),
    };
    // Serving seats: where, each seat's link, who is connected.
    #[cfg(feature = "serve")]
    if let Some(host) = world.get_resource::<crate::host::Host>() {
        status.insert("host".to_owned(), host.status());
    }
    status
}
