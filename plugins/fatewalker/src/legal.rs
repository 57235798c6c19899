//! The intents a combatant could submit now that the rules would accept: candidates
//! filtered through the same validation the rules apply. Used by tests that play random
//! legal games, and by a board to list the legal actions.

use bevy_ecs::prelude::*;
use fray_core::intent::Verdict;
use fray_core::prelude::{FieldPosition, TableIndex};

use crate::data::MoveMode;
use crate::decisions::{is_awaited, validate};
use crate::intent::{Action, FateWalkerIntent, Reaction};
use crate::sheet::Arms;
use crate::view;

/// Every accepted intent among a broad set of candidates for `e` (empty when the rules are
/// not waiting on `e`).
#[cfg(test)]
pub fn legal_intents(world: &World, e: Entity) -> Vec<FateWalkerIntent> {
    if !is_awaited(world, e) {
        return Vec::new();
    }
    candidates(world, e).into_iter().filter(|i| validate(world, e, i).is_ok()).collect()
}

/// Every candidate for `e` now with the rules' verdict on it: for a board, which shows the
/// refused ones disabled with their reason.
pub fn options(world: &World, e: Entity) -> Vec<(FateWalkerIntent, Verdict)> {
    if !is_awaited(world, e) {
        return Vec::new();
    }
    candidates(world, e)
        .into_iter()
        .map(|i| {
            let verdict = validate(world, e, &i).map(|_| ());
            (i, verdict)
        })
        .collect()
}

/// Actions worth offering `e`: attacks on everyone, weapons, movement towards every
/// combatant, cover and vehicle, stance, vehicles, waits.
pub fn candidate_actions(world: &World, e: Entity) -> Vec<Action> {
    let mut out = Vec::new();
    let mut points: Vec<(f32, f32)> = Vec::new();
    for t in view::combatants(world) {
        let target = view::id(world, t);
        out.push(Action::Attack { target: target.clone(), through_cover: false });
        out.push(Action::Attack { target, through_cover: true });
        let [x, y] = view::position(world, t);
        points.push((x, y));
    }
    for c in &view::catalogue(world).0.covers {
        points.push(c.position);
    }
    for (id, m) in world.resource::<TableIndex>().mounts.iter() {
        out.push(Action::Mount { mount: id.clone() });
        if let Some(p) = world.get::<FieldPosition>(*m) {
            points.push((p.0[0], p.0[1]));
        }
    }
    for weapon in world.get::<Arms>(e).map(|a| a.carried.clone()).unwrap_or_default() {
        out.push(Action::ReadyWeapon { weapon });
    }
    let [x, y] = view::position(world, e);
    points.extend([(x + 20.0, y), (x - 20.0, y), (x, y + 20.0), (x, y - 20.0)]);
    for to in points {
        for mode in MoveMode::ALL {
            out.push(Action::BeginMoving { mode, to });
        }
    }
    out.extend([Action::GoProne, Action::StandUp, Action::Dismount]);
    out.extend([1, 3, 6].map(|ticks| Action::Wait { ticks }));
    out
}

fn candidates(world: &World, e: Entity) -> Vec<FateWalkerIntent> {
    let actions = candidate_actions(world, e);
    let mut out: Vec<FateWalkerIntent> = Vec::new();
    out.extend(actions.iter().cloned().map(|action| FateWalkerIntent::Act { action }));
    out.extend(actions.iter().cloned().map(|action| FateWalkerIntent::Preempt { action }));
    out.extend(actions.into_iter().map(|action| FateWalkerIntent::Counter { action }));
    out.extend([
        FateWalkerIntent::Hold,
        FateWalkerIntent::KeepHolding,
        FateWalkerIntent::React { reaction: Reaction::Dodge },
        FateWalkerIntent::React { reaction: Reaction::Parry },
        FateWalkerIntent::Decline,
        FateWalkerIntent::ContinueMoving,
        FateWalkerIntent::StopMoving,
    ]);
    out.extend(MoveMode::ALL.map(|mode| FateWalkerIntent::ChangeMovement { mode }));
    out
}
