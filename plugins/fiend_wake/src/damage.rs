//! Stun, wounds with reduction per instance, the wound threshold and handicaps, and what
//! happens to a combatant who falls unconscious or dies.

use bevy_ecs::prelude::*;
use fray_core::log::LogEvent;
use fray_core::table::Status;
use fray_core::tokens::TokenKind;

use crate::data::Attribute;
use crate::phase::ActiveTurn;
use crate::sheet::Attributes;
use crate::view;

/// Stun: costs TP; past the TP held, every `turn_token_tp` stuns cost a turn token.
pub fn stun(world: &mut World, target: Entity, amount: u32, source: &str) {
    let from_tp = view::lose(world, target, TokenKind::TacticalPoint, amount, "stun");
    let per_token = view::catalogue(world).rules.turn_token_tp.max(1);
    let left = amount - from_tp;
    view::lose(world, target, TokenKind::TurnToken, left / per_token, "stun");
    view::log(
        world,
        target,
        LogEvent::Damage { damage: "stun", amount, reduced: 0, taken: amount, source: source.to_owned() },
    );
}

/// One discrete instance of wounds: reduced by armour, never below zero, then put on the
/// wounds track. A full track marks a handicap and clears. Returns the wounds taken.
pub fn wounds(world: &mut World, target: Entity, amount: u32, source: &str) -> u32 {
    if !view::on_table(world, target) {
        return 0;
    }
    let reduction = view::reduction(world, target);
    let taken = amount.saturating_sub(reduction);
    view::log(
        world,
        target,
        LogEvent::Damage {
            damage: "wounds",
            amount,
            reduced: amount - taken,
            taken,
            source: source.to_owned(),
        },
    );
    if taken == 0 {
        return 0;
    }
    view::gain(world, target, TokenKind::Wound, taken, "wounds sustained");
    if view::count(world, target, TokenKind::Wound) >= view::threshold(world, target) {
        view::lose(world, target, TokenKind::Wound, u32::MAX, "wound threshold filled");
        handicap(world, target, "wound threshold");
    }
    taken
}

/// A handicap: marks the top stack number of Spirit. With none left the combatant falls
/// unconscious; a handicap taken with no Spirit left kills.
pub fn handicap(world: &mut World, target: Entity, source: &str) {
    let marked = world.get_mut::<Attributes>(target).and_then(|mut a| a.mark_top(Attribute::Spirit));
    match marked {
        Some(n) => {
            view::log(
                world,
                target,
                LogEvent::Effect {
                    what: "handicap",
                    detail: format!("marked Spirit stack number {n} ({source})"),
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
    for kind in [TokenKind::TacticalPoint, TokenKind::TurnToken, TokenKind::PendingTurn] {
        view::lose(world, target, kind, u32::MAX, "out of the fight");
    }
    let mut turn = world.resource_mut::<ActiveTurn>();
    if turn.actor == Some(target) {
        *turn = ActiveTurn::default();
        view::log(world, target, LogEvent::TurnEnded);
    }
}
