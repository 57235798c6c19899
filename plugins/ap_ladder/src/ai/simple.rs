//! The Initiative ladder's `simple` AI: a plain, predictable opponent. It reacts with its best chance
//! when it is 30% or better; on its turn it escapes a chokehold, keeps one it holds, gets up,
//! speaks its inspiring words once, loads, strikes the nearest foe it can (keeping its last AP
//! for a reaction once it has struck), and otherwise closes in, charging to a free point beside
//! its foe when that reaches.

use bevy_ecs::prelude::*;
use fray_core::table::id;

use crate::combat::reactions;
use crate::data::{Condition, WeaponKind};
use crate::decisions::validate;
use crate::field::{between, distance, foes, position};
use crate::intent::{ApLadderIntent, MoveKind};
use crate::moves::reach;
use crate::phase::{Battle, Fighter};

/// The AI's decision for `e` now (always one the rules accept, ending the turn at worst).
pub fn choose(world: &World, e: Entity) -> ApLadderIntent {
    let ok = |i: &ApLadderIntent| validate(world, e, i).is_ok();
    let battle = world.resource::<Battle>();
    if let Some(p) = &battle.pending {
        let best = reactions(world, p)
            .into_iter()
            .filter_map(|(r, v)| v.ok().map(|c| (r, c)))
            .max_by_key(|(_, c)| *c);
        return match best {
            Some((reaction, chance)) if chance >= 30 => ApLadderIntent::React { reaction },
            _ => ApLadderIntent::TakeIt,
        };
    }
    if battle.followers.contains(&e) {
        // The AI keeps its foe engaged: it follows when there is room.
        return if ok(&ApLadderIntent::Follow) { ApLadderIntent::Follow } else { ApLadderIntent::StayPut };
    }
    if battle.offer == Some(e) {
        // A waiting AI steps in before a foe's turn, and lets its allies go.
        return if crate::ladder::needs_scrutiny(world, e) {
            ApLadderIntent::Interrupt
        } else {
            ApLadderIntent::KeepWaiting
        };
    }
    let Some(f) = world.get::<Fighter>(e) else { return ApLadderIntent::EndTurn };
    let picks = [
        ApLadderIntent::Escape,
        ApLadderIntent::PutOutFire,
        ApLadderIntent::KeepChokehold,
        ApLadderIntent::GetUp,
        ApLadderIntent::InspiringWords,
        ApLadderIntent::Load,
    ];
    if let Some(i) = picks.into_iter().find(|i| ok(i)) {
        return i;
    }
    // A bleeding wound, its own or an ally's at hand, is bound before fighting on.
    let bind = crate::board::bleeding_friends(world, e)
        .into_iter()
        .map(|t| ApLadderIntent::BindWound { target: id(world, t) })
        .find(|i| ok(i));
    if let Some(i) = bind {
        return i;
    }
    if f.has(Condition::Choked) || crate::ending::incapacitated(world, e) {
        return ApLadderIntent::EndTurn;
    }
    // A lost weapon within reach: pick it up; else fists.
    if f.wielding.is_none()
        && let Some(w) = (0..f.sheet.weapons.len()).find(|&w| ok(&ApLadderIntent::Swap { weapon: Some(w) }))
        && f.sheet.weapons[w].kind != WeaponKind::Thrown
    {
        return ApLadderIntent::Swap { weapon: Some(w) };
    }
    let mut targets = foes(world, e);
    targets.sort_by(|a, b| between(world, e, *a).total_cmp(&between(world, e, *b)));
    let struck = f.turns > 0 && f.ap < 3;
    let keep_one = struck && f.ap <= 1;
    if !keep_one {
        for &t in &targets {
            let attack = ApLadderIntent::Attack {
                target: id(world, t),
                called: None,
                all_out: 0,
                punishing: false,
                press: false,
            };
            if ok(&attack) {
                return attack;
            }
            let trample = ApLadderIntent::Trample { target: id(world, t) };
            if ok(&trample) {
                return trample;
            }
        }
    }
    // A ranged weapon out of reach or unloaded: other weapons in hand first.
    let Some(&nearest) = targets.first() else { return ApLadderIntent::EndTurn };
    let engaged = between(world, e, nearest) <= crate::field::engagement(world);
    if engaged || keep_one {
        return ApLadderIntent::EndTurn;
    }
    if let Some(w) = f.weapon()
        && w.kind != WeaponKind::Melee
        && let Some(m) = (0..f.sheet.weapons.len())
            .find(|&m| f.sheet.weapons[m].melee() && ok(&ApLadderIntent::Swap { weapon: Some(m) }))
    {
        return ApLadderIntent::Swap { weapon: Some(m) };
    }
    approach(world, e, nearest).unwrap_or(ApLadderIntent::EndTurn)
}

/// A move toward `t`: a charge to a free point beside it when one is in reach, else a walk
/// as far as it goes toward it.
fn approach(world: &World, e: Entity, t: Entity) -> Option<ApLadderIntent> {
    for to in crate::field::beside(world, e, t) {
        let intent = ApLadderIntent::Move { to: (to[0], to[1]), how: MoveKind::Charge };
        if validate(world, e, &intent).is_ok() {
            return Some(intent);
        }
    }
    let (from, there) = (position(world, e), position(world, t));
    let gap = distance(from, there);
    let go = (gap - crate::field::close_in(world)).min(reach(world, e, MoveKind::Walk)).max(0.0);
    if go < 0.05 {
        return None;
    }
    let k = go / gap.max(1e-3);
    let to = [from[0] + (there[0] - from[0]) * k, from[1] + (there[1] - from[1]) * k];
    [0.0f32, 0.7, -0.7]
        .into_iter()
        .map(|nudge| ApLadderIntent::Move { to: (to[0], to[1] + nudge), how: MoveKind::Walk })
        .find(|i| validate(world, e, i).is_ok())
}
