//! The round: the initiative holder (drawn at random when the scenario names none) picks the
//! faction that acts first; factions then alternate, each activating one character who has
//! not acted or passing; a faction with no one left must pass; when every faction in the fight
//! has passed in a row the round ends.

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::dice::{RollReading, RollRecord, TableRng};
use fray_core::ids::SideId;
use fray_core::log::{GameLog, LogEvent};
use fray_core::phase::{RulesStep, StepProgress, go_to};
use fray_core::prelude::{Side, TableIndex};
use fray_core::table::{can_act, id};

use crate::phase::{Battle, FactionZonesPhase, Fighter};
use crate::schedule::FactionZonesSystems;

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(RulesStep, round_start.in_set(FactionZonesSystems::RoundStart))
        .add_systems(RulesStep, alternate.in_set(FactionZonesSystems::Activations));
}

/// Factions with someone fighting (a vehicle alone does not fight), in scenario order.
pub fn factions_in_the_fight(world: &World) -> Vec<SideId> {
    let index = world.resource::<TableIndex>();
    let fights = |e: Entity| fights(world, e);
    index
        .sides
        .iter()
        .map(|(s, _)| s.clone())
        .filter(|s| index.order.iter().any(|&e| fights(e) && world.get::<Side>(e).is_some_and(|x| &x.0 == s)))
        .collect()
}

/// Whether `e` keeps its faction in the fight: fighting, and not a vehicle.
pub fn fights(world: &World, e: Entity) -> bool {
    fighting(world, e, fray_core::table::status(world, e))
}

/// [`fights`] given `e`'s status: the fight's end test and `battle_ended`'s survivors alike.
pub fn fighting(world: &World, e: Entity, status: fray_core::prelude::Status) -> bool {
    status.can_act() && !vehicle(world, e)
}

/// Whether `e` is a vehicle (which alone keeps no faction in the fight).
pub fn vehicle(world: &World, e: Entity) -> bool {
    world.get::<Fighter>(e).is_some_and(|f| f.sheet.vehicle)
}

/// Those of a faction fighting, in scenario order.
pub fn members(world: &World, side: &SideId) -> Vec<Entity> {
    let order = &world.resource::<TableIndex>().order;
    order
        .iter()
        .copied()
        .filter(|&e| can_act(world, e) && world.get::<Side>(e).is_some_and(|s| &s.0 == side))
        .collect()
}

/// Those of the faction to act who may still take a turn this round (in the bonus round, the
/// concealed only).
pub fn candidates(world: &World) -> Vec<Entity> {
    let battle = world.resource::<Battle>();
    let Some(side) = battle.to_act.clone() else { return Vec::new() };
    let bonus = battle.bonus_round;
    members(world, &side)
        .into_iter()
        .filter(|&e| {
            world.get::<Fighter>(e).is_some_and(|f| !f.acted && !f.reserved && (f.concealed || !bonus))
        })
        .collect()
}

/// Who picks the first faction: the initiative holder's first character fighting.
pub fn picker(world: &World) -> Option<Entity> {
    let battle = world.resource::<Battle>();
    if !battle.started || battle.to_act.is_some() {
        return None;
    }
    let side = battle.initiative.clone()?;
    members(world, &side).first().copied()
}

fn round_start(world: &mut World) {
    if world.resource::<Battle>().started {
        // With no one of the initiative holder's faction left, the first faction in the fight acts first.
        if picker(world).is_none() && world.resource::<Battle>().to_act.is_none() {
            let first = factions_in_the_fight(world).first().cloned();
            begin(world, first);
        }
        return;
    }
    let round = world.resource::<Battle>().round + 1;
    if round > world.resource::<Battle>().limit {
        crate::ending::finish(world, "the round limit");
        return;
    }
    if world.resource::<Battle>().initiative.is_none() {
        draw_initiative(world);
    }
    let standing: Vec<(SideId, u32)> = world
        .resource::<TableIndex>()
        .sides
        .iter()
        .map(|(s, _)| (s.clone(), members(world, s).len() as u32))
        .collect();
    // Ambushers open the fight with a bonus round of their own.
    let bonus = round == 1 && crate::stealth::any_concealed(world);
    {
        let mut battle = world.resource_mut::<Battle>();
        battle.bonus_round = bonus;
        battle.round = round;
        battle.started = true;
        battle.to_act = None;
        battle.passes = 0;
        battle.standing_at_start = standing;
    }
    let mut fighters = world.query::<&mut Fighter>();
    for mut f in fighters.iter_mut(world) {
        f.acted = false;
        f.reserved = false;
        (f.main_used, f.bonus_used, f.moved) = (false, 0, 0);
        f.health_at_start = f.health;
    }
    world.resource_mut::<GameLog>().set_clock(round);
    world.resource_mut::<GameLog>().push(None, LogEvent::RoundStarted);
    if bonus {
        let event = LogEvent::Effect { what: "bonus_round", detail: "only the concealed act".to_owned() };
        world.resource_mut::<GameLog>().push(None, event);
    }
    world.resource_mut::<StepProgress>().mark();
}

/// The fight's start is unclear: a die draws the faction holding the initiative.
fn draw_initiative(world: &mut World) {
    let sides = factions_in_the_fight(world);
    let i = world.resource_mut::<TableRng>().below(sides.len());
    let Some(side) = sides.get(i).cloned() else { return };
    let among: Vec<_> =
        sides.iter().filter_map(|s| members(world, s).first().map(|&e| id(world, e))).collect();
    let roll = RollRecord {
        what: format!("initiative: {side}"),
        dice: vec![i as u32 + 1],
        modifiers: Vec::new(),
        reading: RollReading::Draw {
            order: among.iter().skip(i).chain(among.iter().take(i)).cloned().collect(),
            among,
        },
        told: Some("A draw decides which faction starts".to_owned()),
    };
    world.resource_mut::<GameLog>().push(None, LogEvent::Roll(roll));
    world.resource_mut::<Battle>().initiative = Some(side);
}

/// The round's first faction is chosen: activations begin.
pub fn begin(world: &mut World, first: Option<SideId>) {
    if let Some(side) = &first {
        world
            .resource_mut::<GameLog>()
            .push(None, LogEvent::Effect { what: "acts_first", detail: side.to_string() });
    }
    world.resource_mut::<Battle>().to_act = first;
    go_to(world, FactionZonesPhase::Activations);
}

/// The faction after `side` among those in the fight, going round.
pub fn next_faction(world: &World, side: &SideId) -> Option<SideId> {
    let all: Vec<SideId> = world.resource::<TableIndex>().sides.iter().map(|(s, _)| s.clone()).collect();
    let in_fight = factions_in_the_fight(world);
    let at = all.iter().position(|s| s == side).unwrap_or(0);
    (1..=all.len()).map(|k| all[(at + k) % all.len()].clone()).find(|s| in_fight.contains(s))
}

/// `side` passes: the next faction's activation; all passing in a row ends the round.
pub fn pass(world: &mut World, side: &SideId, forced: bool) {
    let detail = format!("{side}{}", if forced { " (no one left to act)" } else { "" });
    world.resource_mut::<GameLog>().push(None, LogEvent::Effect { what: "passed", detail });
    let next = next_faction(world, side);
    let mut battle = world.resource_mut::<Battle>();
    battle.passes += 1;
    battle.to_act = next;
    world.resource_mut::<StepProgress>().mark();
}

/// After a turn, the next faction's activation (a turn breaks a run of passes).
pub fn turn_taken(world: &mut World, side: &SideId) {
    let next = next_faction(world, side);
    let mut battle = world.resource_mut::<Battle>();
    battle.passes = 0;
    battle.to_act = next;
}

/// A faction with no one left passes on its own; every faction passing in a row ends the round.
fn alternate(world: &mut World) {
    let battle = world.resource::<Battle>();
    if let (Some(e), None, None) = (battle.active, &battle.pending, &battle.leaving)
        && !can_act(world, e)
    {
        // Felled during its own turn (a counter): the turn ends.
        crate::turns::end_turn(world, e);
        return;
    }
    if battle.active.is_some() || battle.pending.is_some() || battle.leaving.is_some() {
        return;
    }
    if battle.passes as usize >= factions_in_the_fight(world).len() {
        go_to(world, FactionZonesPhase::EndOfRound);
        return;
    }
    let Some(side) = battle.to_act.clone() else { return };
    if candidates(world).is_empty() {
        pass(world, &side, true);
    }
}
