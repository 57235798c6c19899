//! Aftermath: the top bidder's extra turn, then fueling spells (a hook: spell rules add
//! systems to [`AftermathSystems::FuelSpells`]), then each combatant in priority order may
//! spend its remaining TP (arming a weapon, as on a turn).

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::intent::Verdict;
use fray_core::log::LogEvent;
use fray_core::phase::{RulesStep, StepProgress};

use crate::actions::check_arm;
use crate::counters::TACTICAL_POINT;
use crate::phase::{ActiveTurn, AftermathStep, FiendWakePhase, Round, go_to};
use crate::schedule::FiendWakeSystems;
use crate::sheet::Arsenal;
use crate::turns::start_turn;
use crate::view;

/// The aftermath's parts, in order.
#[derive(SystemSet, Clone, Debug, PartialEq, Eq, Hash)]
pub enum AftermathSystems {
    /// Grants the top bidder's extra turn and waits for it to end.
    ExtraTurn,
    /// Ongoing magical effects are fueled here (see `spells`); spell rules add their systems
    /// to this set, which runs while the aftermath is at its fueling step.
    FuelSpells,
    /// Remaining TP may be spent.
    SpendRemaining,
}

pub(crate) fn plugin(app: &mut App) {
    app.configure_sets(
        RulesStep,
        (
            AftermathSystems::ExtraTurn,
            AftermathSystems::FuelSpells.run_if(at_step(AftermathStep::FuelSpells)),
            AftermathSystems::SpendRemaining.run_if(at_step(AftermathStep::SpendRemaining)),
        )
            .chain()
            .in_set(FiendWakeSystems::Aftermath),
    )
    .add_systems(RulesStep, extra_turn.in_set(AftermathSystems::ExtraTurn))
    .add_systems(RulesStep, next_spender.in_set(AftermathSystems::SpendRemaining));
}

/// A run condition: the aftermath is at `step`.
pub fn at_step(step: AftermathStep) -> impl FnMut(Res<Round>) -> bool + Clone {
    move |round: Res<Round>| round.aftermath == step
}

fn extra_turn(world: &mut World) {
    let step = world.resource::<Round>().aftermath;
    match step {
        AftermathStep::ExtraTurn => {
            let top = world.resource::<Round>().priority.first().copied();
            match top.filter(|&e| view::can_act(world, e)) {
                Some(e) => {
                    view::log(
                        world,
                        e,
                        LogEvent::Effect { what: "extra_turn", detail: "top bidder".to_owned() },
                    );
                    start_turn(world, e, true);
                    world.resource_mut::<Round>().aftermath = AftermathStep::PlayingExtraTurn;
                }
                None => world.resource_mut::<Round>().aftermath = AftermathStep::FuelSpells,
            }
            world.resource_mut::<StepProgress>().mark();
        }
        AftermathStep::PlayingExtraTurn if world.resource::<ActiveTurn>().actor.is_none() => {
            world.resource_mut::<Round>().aftermath = AftermathStep::FuelSpells;
            world.resource_mut::<StepProgress>().mark();
        }
        _ => {}
    }
}

/// Whether `e` has anything to spend TP on now: a carried weapon it could arm.
fn can_spend(world: &World, e: Entity) -> bool {
    if !view::can_act(world, e) {
        return false;
    }
    let tp = view::count(world, e, TACTICAL_POINT);
    let carried = world.get::<Arsenal>(e).map(|a| a.carried.clone()).unwrap_or_default();
    carried.iter().any(|w| check_arm(world, e, w).is_ok_and(|cost| cost <= tp))
}

/// Skips to the next combatant with something to spend; moves on to harassment at the end.
fn next_spender(world: &mut World) {
    let priority = world.resource::<Round>().priority.clone();
    let mut cursor = world.resource::<Round>().cursor;
    while cursor < priority.len() && !can_spend(world, priority[cursor]) {
        cursor += 1;
    }
    if cursor != world.resource::<Round>().cursor {
        world.resource_mut::<Round>().cursor = cursor;
        world.resource_mut::<StepProgress>().mark();
    }
    if cursor >= priority.len() {
        world.resource_mut::<Round>().cursor = 0;
        go_to(world, FiendWakePhase::Harassment);
    }
}

/// The combatant asked to spend TP now.
pub(crate) fn awaiting(world: &World) -> Vec<Entity> {
    let round = world.resource::<Round>();
    if round.aftermath != AftermathStep::SpendRemaining {
        return Vec::new();
    }
    round.priority.get(round.cursor).copied().filter(|&e| can_spend(world, e)).into_iter().collect()
}

/// Checks arming in the aftermath; returns its cost.
pub(crate) fn check_spend_arm(world: &World, e: Entity, weapon: &str, upgrade: bool) -> Verdict<u32> {
    if upgrade {
        return Err(fray_core::intent::Rejection::new("there is no full action in the aftermath"));
    }
    let cost = check_arm(world, e, weapon)?;
    let tp = view::count(world, e, TACTICAL_POINT);
    if cost > tp {
        return Err(fray_core::intent::Rejection::new(format!("costs {cost} TP but holds only {tp}")));
    }
    Ok(cost)
}

/// Arms in the aftermath and moves on to the next combatant.
pub(crate) fn spend_arm(world: &mut World, e: Entity, weapon: &str, cost: u32) {
    view::lose(world, e, TACTICAL_POINT, cost, "aftermath");
    if let Some(mut a) = world.get_mut::<Arsenal>(e) {
        a.ready = Some(weapon.to_owned());
    }
    view::log(world, e, LogEvent::Effect { what: "armed", detail: weapon.to_owned() });
    done(world);
}

/// The current combatant is done spending.
pub(crate) fn done(world: &mut World) {
    world.resource_mut::<Round>().cursor += 1;
}
