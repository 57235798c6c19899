//! Stun, wounds with reduction per instance, the wound threshold and handicaps, and what
//! happens to a combatant who falls unconscious or dies.

use crate::data::LocationProperty;
use bevy_ecs::prelude::*;
use fray_core::location::{EnteredFrom, field, place_of, the_place};
use fray_core::log::{LogEvent, Source};
use fray_core::table::Status;
use fray_core::tokens::Counters;

use crate::counters::{PENDING_TURN, SIEGE_DAMAGE, TACTICAL_POINT, TURN_TOKEN, WOUND};
use crate::data::Attribute;
use crate::phase::ActiveTurn;
use crate::sheet::{Attributes, HandicapChoice};
use crate::view;

/// Stun: costs TP; past the TP held, every `turn_token_tp` stuns cost a turn token.
pub fn stun(world: &mut World, target: Entity, amount: u32, source: &Source) {
    let from_tp = view::lose(world, target, TACTICAL_POINT, amount, "stun");
    let per_token = view::catalogue(world).rules.turn_token_tp.max(1);
    let left = amount - from_tp;
    view::lose(world, target, TURN_TOKEN, left / per_token, "stun");
    view::log(
        world,
        target,
        LogEvent::Damage { damage: "stun", amount, reduced: 0, taken: amount, source: source.clone() },
    );
}

/// One discrete instance of wounds: reduced by armour, never below zero, then put on the
/// wounds track. A full track marks a handicap and clears. Returns the wounds taken.
pub fn wounds(world: &mut World, target: Entity, amount: u32, source: &Source) -> u32 {
    if !view::on_table(world, target) {
        return 0;
    }
    let reduction = view::reduction(world, target);
    let taken = amount.saturating_sub(reduction);
    view::log(
        world,
        target,
        LogEvent::Damage { damage: "wounds", amount, reduced: amount - taken, taken, source: source.clone() },
    );
    if taken == 0 {
        return 0;
    }
    view::gain(world, target, WOUND, taken, "wounds sustained");
    if view::count(world, target, WOUND) >= view::threshold(world, target) {
        view::lose(world, target, WOUND, u32::MAX, "wound threshold filled");
        handicap(world, target, "wound threshold");
    }
    taken
}

/// A handicap: marks the top stack number of the attribute the combatant chose (Spirit
/// unless it chose otherwise, or when the chosen one has none left). With no Spirit left the
/// combatant falls unconscious; a handicap with nothing left to mark kills.
pub fn handicap(world: &mut World, target: Entity, source: &str) {
    let choice = world.get::<HandicapChoice>(target).map_or(Attribute::Spirit, |c| c.0);
    let marked = world.get_mut::<Attributes>(target).and_then(|mut a| {
        a.mark_top(choice)
            .map(|n| (choice, n))
            .or_else(|| a.mark_top(Attribute::Spirit).map(|n| (Attribute::Spirit, n)))
    });
    match marked {
        Some((attribute, n)) => {
            view::log(
                world,
                target,
                LogEvent::Effect {
                    what: "handicap",
                    detail: format!("marked {attribute:?} stack number {n} ({source})"),
                },
            );
            let left = world.get::<Attributes>(target).map_or(0, |a| a.available_count(Attribute::Spirit));
            if left == 0 {
                set_status(world, target, Status::Unconscious);
            }
        }
        None => {
            view::log(
                world,
                target,
                LogEvent::Effect { what: "handicap", detail: format!("no Spirit left to mark ({source})") },
            );
            set_status(world, target, Status::Dead);
        }
    }
}

/// Changes status; a combatant who can no longer act loses its TP and turns, and its turn
/// ends if it was playing one.
pub fn set_status(world: &mut World, target: Entity, status: Status) {
    let Some(mut s) = world.get_mut::<Status>(target) else {
        return;
    };
    if *s == status {
        return;
    }
    *s = status;
    view::log(world, target, LogEvent::StatusChanged { status });
    if status.can_act() {
        return;
    }
    for kind in [TACTICAL_POINT, TURN_TOKEN, PENDING_TURN] {
        view::lose(world, target, kind, u32::MAX, "out of the fight");
    }
    let mut turn = world.resource_mut::<ActiveTurn>();
    if turn.actor == Some(target) {
        *turn = ActiveTurn::default();
        crate::phase::log_turn_end(world, target);
    }
}

/// Recovers the most recently marked handicap; an unconscious combatant with Spirit again
/// wakes up. Returns the attribute and the stack number recovered.
pub fn recover_handicap(world: &mut World, patient: Entity, source: &str) -> Option<(Attribute, u32)> {
    let (attribute, n) = world.get_mut::<Attributes>(patient)?.recover_last()?;
    view::log(
        world,
        patient,
        LogEvent::Effect {
            what: "handicap_recovered",
            detail: format!("{attribute:?} stack number {n} ({source})"),
        },
    );
    let spirit = world.get::<Attributes>(patient).map_or(0, |a| a.available_count(Attribute::Spirit));
    if view::status(world, patient) == Status::Unconscious && spirit > 0 {
        set_status(world, patient, Status::Fighting);
    }
    Some((attribute, n))
}

/// Mass damage over a location's area: every combatant in it takes `amount` wounds as its own
/// instance; those in `leapers` (who cleared out) take half, rounded down, before reduction.
pub fn mass(world: &mut World, location: Entity, amount: u32, leapers: &[Entity], source: &Source) {
    let inside: Vec<Entity> = view::combatants(world)
        .into_iter()
        .filter(|&c| place_of(world, c) == Some(location) && view::on_table(world, c))
        .collect();
    for c in inside {
        let dealt = if leapers.contains(&c) { amount / 2 } else { amount };
        wounds(world, c, dealt, source);
    }
}

/// Siege damage tallied on a location; a location that collapses at this tally drops its
/// occupants into no location and can no longer be entered.
pub fn siege(world: &mut World, location: Entity, amount: u32, source: &str) {
    if amount == 0 {
        return;
    }
    let Some(mut counters) = world.get_mut::<Counters>(location) else {
        return;
    };
    counters.add(SIEGE_DAMAGE, amount);
    let tally = counters.get(SIEGE_DAMAGE);
    let name = the_place(world, location);
    view::log_table(
        world,
        LogEvent::Effect { what: "siege", detail: format!("{name}: {tally} siege damage ({source})") },
    );
    let collapses = view::properties(world, location)
        .iter()
        .any(|p| matches!(p, LocationProperty::CollapsesAt(n) if tally >= *n));
    let already = world.get::<EnteredFrom>(location).is_some_and(|e| e.0.is_empty());
    if collapses && !already {
        collapse(world, location);
    }
}

fn collapse(world: &mut World, location: Entity) {
    let Some(field) = field(world) else {
        return;
    };
    world.entity_mut(location).insert(EnteredFrom(Vec::new()));
    let name = the_place(world, location);
    view::log_table(world, LogEvent::Effect { what: "collapse", detail: format!("{name} collapses") });
    let inside: Vec<Entity> =
        view::combatants(world).into_iter().filter(|&c| place_of(world, c) == Some(location)).collect();
    for c in inside {
        crate::actions::move_to(world, c, field, 0);
    }
}
