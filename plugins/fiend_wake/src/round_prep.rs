//! Round Prep: the round's tactical points (base plus one per available Cunning stack
//! number), turn tokens (one per available Resolve stack number), and armour encumbrance
//! paid in TP or turn tokens, or refused.

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::intent::{Rejection, Verdict};
use fray_core::log::{GameLog, LogEvent};
use fray_core::phase::RulesStep;
use fray_core::phase::{CurrentPhase, StepProgress, enter_phase};

use crate::counters::{TACTICAL_POINT, TURN_TOKEN};
use crate::data::Attribute;
use crate::phase::{FiendWakePhase, Round};
use crate::schedule::FiendWakeSystems;
use crate::sheet::{Attributes, RoundChoices, TpAdjust, Worn};
use crate::view;

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(RulesStep, (start_round, finish_round_prep).chain().in_set(FiendWakeSystems::RoundPrep));
}

/// Starts a round: numbers it, finishes doffing, grants TP and turn tokens.
fn start_round(world: &mut World) {
    if world.resource::<Round>().prepared {
        return;
    }
    let number = {
        let mut round = world.resource_mut::<Round>();
        round.number += 1;
        round.prepared = true;
        round.revealed = false;
        round.tied.clear();
        round.priority.clear();
        round.turns_executed = 0;
        round.wave_cursor = 0;
        round.aftermath = Default::default();
        round.cursor = 0;
        round.number
    };
    let mut log = world.resource_mut::<GameLog>();
    log.set_clock(number);
    log.push(None, LogEvent::RoundStarted);
    world.resource_mut::<StepProgress>().mark();
    let base = view::catalogue(world).rules.base_tp;
    for e in view::combatants(world) {
        if let Some(mut choices) = world.get_mut::<RoundChoices>(e) {
            let agrees = choices.agrees_to_end;
            *choices = RoundChoices { agrees_to_end: agrees, ..Default::default() };
        }
        finish_doffing(world, e);
        if !view::can_act(world, e) {
            continue;
        }
        let (cunning, resolve) = world.get::<Attributes>(e).map_or((0, 0), |a| {
            (a.available_count(Attribute::Cunning), a.available_count(Attribute::Resolve))
        });
        let adjust = world.get::<TpAdjust>(e).map_or(0, |a| a.0);
        let tp = (i64::from(base) + i64::from(cunning) + i64::from(adjust)).max(0) as u32;
        view::gain(world, e, TACTICAL_POINT, tp, "round prep");
        view::gain(world, e, TURN_TOKEN, resolve, "round prep");
        let wears = world.get::<Worn>(e).is_some_and(|w| w.armour.is_some());
        if let Some(mut choices) = world.get_mut::<RoundChoices>(e) {
            choices.armour_settled = !wears;
        }
    }
}

fn finish_doffing(world: &mut World, e: Entity) {
    let Some(mut worn) = world.get_mut::<Worn>(e) else {
        return;
    };
    if !worn.doffing {
        return;
    }
    worn.doffing = false;
    let armour = worn.armour.take().unwrap_or_default();
    view::log(world, e, LogEvent::Effect { what: "armour_off", detail: armour });
}

/// Whether `e` still owes an armour decision.
pub(crate) fn owes_armour(world: &World, e: Entity) -> bool {
    world.resource::<Round>().prepared
        && view::can_act(world, e)
        && world.get::<RoundChoices>(e).is_some_and(|c| !c.armour_settled)
}

/// Combatants who still owe an armour decision.
pub(crate) fn awaiting(world: &World) -> Vec<Entity> {
    view::combatants(world).into_iter().filter(|&e| owes_armour(world, e)).collect()
}

fn finish_round_prep(
    round: Res<Round>,
    choices: Query<(&RoundChoices, &fray_core::table::Status)>,
    mut phase: ResMut<CurrentPhase<FiendWakePhase>>,
    mut log: ResMut<GameLog>,
    mut progress: ResMut<StepProgress>,
) {
    let waiting = choices.iter().any(|(c, s)| s.can_act() && !c.armour_settled);
    if round.prepared && !waiting {
        enter_phase(FiendWakePhase::BidForPriority, &mut phase, &mut log, &mut progress);
    }
}

fn encumbrance(world: &World, e: Entity) -> Verdict<u32> {
    view::encumbrance(world, e)
        .ok_or_else(|| Rejection::new(format!("{} wears no armour", view::name(world, e))))
}

/// Checks a payment for armour.
pub(crate) fn check_pay(world: &World, e: Entity, tp: u32, turn_tokens: u32) -> Verdict {
    let cost = encumbrance(world, e)?;
    let held_tp = view::count(world, e, TACTICAL_POINT);
    let held_tt = view::count(world, e, TURN_TOKEN);
    if tp > held_tp {
        return Err(Rejection::new(format!("pays {tp} TP but holds only {held_tp}")));
    }
    if turn_tokens > held_tt {
        return Err(Rejection::new(format!("pays {turn_tokens} turn tokens but holds only {held_tt}")));
    }
    let worth = tp + turn_tokens * view::catalogue(world).rules.turn_token_tp;
    if worth < cost {
        return Err(Rejection::new(format!(
            "the armour costs {cost} TP this round; {tp} TP and {turn_tokens} turn tokens are worth {worth}"
        )));
    }
    Ok(())
}

/// Pays for armour.
pub(crate) fn pay(world: &mut World, e: Entity, tp: u32, turn_tokens: u32) {
    view::lose(world, e, TACTICAL_POINT, tp, "armour encumbrance");
    view::lose(world, e, TURN_TOKEN, turn_tokens, "armour encumbrance");
    settle(world, e);
}

/// Checks a refusal to pay for armour.
pub(crate) fn check_refuse(world: &World, e: Entity) -> Verdict {
    encumbrance(world, e).map(|_| ())
}

/// Refuses to pay: all TP and turn tokens are lost; doffing removes the reduction now and
/// the armour at the next round prep.
pub(crate) fn refuse(world: &mut World, e: Entity, doff: bool) {
    view::lose(world, e, TACTICAL_POINT, u32::MAX, "armour refused");
    view::lose(world, e, TURN_TOKEN, u32::MAX, "armour refused");
    if doff && let Some(mut worn) = world.get_mut::<Worn>(e) {
        worn.doffing = true;
    }
    settle(world, e);
}

fn settle(world: &mut World, e: Entity) {
    if let Some(mut c) = world.get_mut::<RoundChoices>(e) {
        c.armour_settled = true;
    }
}
