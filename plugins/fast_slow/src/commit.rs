//! Round start: every combatant commits in secret to a Fast or a Slow turn (the GM's too);
//! an ability such as Predator Instinct makes the GM's side commit first and be revealed
//! before the players choose. Once all have chosen, everything is revealed at once and the
//! order is set: Fast turns then Slow turns, each side by side in the entering order.

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::ids::SideId;
use fray_core::log::{GameLog, LogEvent, Revealed};
use fray_core::phase::{RulesStep, go_to};
use fray_core::prelude::{Side, TableIndex};
use fray_core::table::{can_act, id};

use crate::phase::{Battle, FastSlowPhase, Fighter, Speed};
use crate::schedule::FastSlowSystems;

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(RulesStep, round_start.in_set(FastSlowSystems::RoundStart));
}

/// Whether `e` chooses a speed this round: fighting, on the field.
pub fn chooses(world: &World, e: Entity) -> bool {
    can_act(world, e) && world.get::<Fighter>(e).is_some_and(|f| !f.waiting())
}

fn side_of(world: &World, e: Entity) -> Option<SideId> {
    world.get::<Side>(e).map(|s| s.0.clone())
}

/// Whether the GM must reveal first this round: a player standing has an ability that forces it.
pub fn forced_reveal(world: &World) -> bool {
    let players = world.resource::<Battle>().players.clone();
    world.resource::<TableIndex>().order.iter().any(|&e| {
        chooses(world, e)
            && side_of(world, e) == players
            && world.get::<Fighter>(e).is_some_and(|f| f.sheet.forces_reveal)
    })
}

/// Who the commitments wait on now: the GM's side first when a reveal is forced.
pub fn waiting(world: &World) -> Vec<Entity> {
    let battle = world.resource::<Battle>();
    if !battle.committing {
        return Vec::new();
    }
    let open: Vec<Entity> = world
        .resource::<TableIndex>()
        .order
        .iter()
        .copied()
        .filter(|&e| chooses(world, e) && world.get::<Fighter>(e).is_some_and(|f| f.speed.is_none()))
        .collect();
    if forced_reveal(world) && !battle.gm_revealed {
        let gm: Vec<Entity> = open.iter().copied().filter(|&e| side_of(world, e) != battle.players).collect();
        if !gm.is_empty() {
            return gm;
        }
    }
    open
}

/// Whether `e`'s commitment is public: revealed early (the GM's, forced) or all revealed.
pub fn public(world: &World, e: Entity) -> bool {
    let battle = world.resource::<Battle>();
    !battle.committing || (battle.gm_revealed && side_of(world, e) != battle.players)
}

/// A new round, then the commitments, the reveal and the order.
fn round_start(world: &mut World) {
    if !world.resource::<Battle>().committing {
        let round = world.resource::<Battle>().round + 1;
        if round > world.resource::<Battle>().limit {
            crate::ending::finish_at_the_limit(world);
            return;
        }
        {
            let mut battle = world.resource_mut::<Battle>();
            battle.round = round;
            battle.committing = true;
            battle.gm_revealed = false;
        }
        let mut fighters = world.query::<&mut Fighter>();
        for mut f in fighters.iter_mut(world) {
            f.last_speed = f.speed.or(f.last_speed);
            f.speed = None;
            f.acted = false;
            f.fumbled = false;
        }
        world.resource_mut::<GameLog>().set_clock(round);
        world.resource_mut::<GameLog>().push(None, LogEvent::RoundStarted);
        world.resource_mut::<fray_core::phase::StepProgress>().mark();
        return;
    }
    let waiting = waiting(world);
    let players = world.resource::<Battle>().players.clone();
    if forced_reveal(world)
        && !world.resource::<Battle>().gm_revealed
        && waiting.iter().all(|&e| side_of(world, e) == players)
    {
        world.resource_mut::<Battle>().gm_revealed = true;
        reveal(world, |s| s != players.as_ref());
        world.resource_mut::<fray_core::phase::StepProgress>().mark();
        return;
    }
    if !waiting.is_empty() {
        return;
    }
    let early = world.resource::<Battle>().gm_revealed;
    reveal(world, |s| !early || s == players.as_ref());
    world.resource_mut::<Battle>().committing = false;
    let order: Vec<_> =
        [Speed::Fast, Speed::Slow].iter().flat_map(|&s| sequence(world, s)).map(|e| id(world, e)).collect();
    world
        .resource_mut::<GameLog>()
        .push(None, LogEvent::Order { order, reason: "fast then slow, side by side" });
    go_to(world, FastSlowPhase::FastTurns);
}

/// Logs the commitments of those whose side passes `which`, in the table's order.
fn reveal(world: &mut World, which: impl Fn(Option<&SideId>) -> bool) {
    let choices: Vec<Revealed> = world
        .resource::<TableIndex>()
        .order
        .iter()
        .filter(|&&e| which(side_of(world, e).as_ref()))
        .filter_map(|&e| {
            let speed = world.get::<Fighter>(e)?.speed?;
            Some(Revealed { actor: id(world, e), choice: serde_json::json!(speed) })
        })
        .collect();
    if !choices.is_empty() {
        world.resource_mut::<GameLog>().push(None, LogEvent::Revealed { what: "turn_speed", choices });
    }
}

/// Everyone of a speed, in turn order: side by side in the entering order, scenario order
/// within a side.
pub fn sequence(world: &World, speed: Speed) -> Vec<Entity> {
    let battle = world.resource::<Battle>();
    let order = &world.resource::<TableIndex>().order;
    battle
        .side_order
        .iter()
        .flat_map(|side| {
            order.iter().copied().filter(move |&e| {
                world.get::<Side>(e).is_some_and(|s| &s.0 == side)
                    && world.get::<Fighter>(e).is_some_and(|f| f.speed == Some(speed) && !f.waiting())
            })
        })
        .collect()
}

/// Commits `e` to a speed.
pub fn commit(world: &mut World, e: Entity, speed: Speed) {
    if let Some(mut f) = world.get_mut::<Fighter>(e) {
        f.speed = Some(speed);
    }
}
