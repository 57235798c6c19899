//! The `simple` AI of Fast & Slow: a plain, predictable opponent. It goes Fast when an enemy is within
//! its reach at round start, unless it has a bold strike to use (Slow turns only), else Slow; on its turn it strikes (a bold strike first when it
//! has one), else closes in on the nearest enemy; it defends with its best allowed defence
//! and always counterattacks.

use bevy_ecs::prelude::*;
use fray_core::prelude::TableIndex;
use fray_core::table::{can_act, enemies, id, on_table};

use crate::combat::{check_attack, check_bold, check_technique, defences};
use crate::data::BoldEffect;
use crate::decisions::validate;
use crate::intent::FastSlowIntent;
use crate::phase::{Battle, Fighter, Speed};
use crate::turns::{between, budget, distance, position};

pub(super) fn enemies_on_field(world: &World, e: Entity) -> Vec<Entity> {
    world
        .resource::<TableIndex>()
        .order
        .iter()
        .copied()
        .filter(|&t| {
            enemies(world, e, t) && can_act(world, t) && world.get::<Fighter>(t).is_some_and(|f| !f.waiting())
        })
        .collect()
}

pub(super) fn reach(world: &World, e: Entity) -> f32 {
    world.get::<Fighter>(e).map_or(1.5, |f| f.sheet.weapons.iter().map(|w| w.reach).fold(0.0, f32::max))
}

/// The AI's decision for `e` now (always one the rules accept, ending the turn at worst).
pub fn choose(world: &World, e: Entity) -> FastSlowIntent {
    let battle = world.resource::<Battle>();
    let ok = |i: &FastSlowIntent| validate(world, e, i).is_ok();
    if let Some(hit) = battle.pending.as_ref().filter(|h| h.defender == e) {
        let f = world.get::<Fighter>(e);
        let best = defences(hit, battle)
            .into_iter()
            .filter(|(_, v)| v.is_ok())
            .max_by_key(|(d, _)| {
                f.map_or(0, |f| {
                    let dd = f.sheet.defences.get(*d);
                    dd.die + 2 * dd.bonus
                })
            })
            .map(|(d, _)| d);
        return FastSlowIntent::Defend { defence: best.unwrap_or(crate::data::Defence::Brace) };
    }
    if battle.counter.is_some_and(|(d, _)| d == e) {
        let weapons = world.get::<Fighter>(e).map_or(0, |f| f.sheet.weapons.len());
        return (0..weapons)
            .map(|weapon| FastSlowIntent::Counter { weapon })
            .find(|i| ok(i))
            .unwrap_or(FastSlowIntent::Decline);
    }
    if battle.committing {
        let near = enemies_on_field(world, e).into_iter().any(|t| between(world, e, t) <= reach(world, e));
        let surprised = battle.round == 1
            && battle.surprised.as_ref() == world.get::<fray_core::prelude::Side>(e).map(|s| &s.0);
        let bold = world
            .get::<Fighter>(e)
            .is_some_and(|f| f.sheet.bold.iter().any(|b| matches!(b.effect, BoldEffect::Strike { .. })));
        let bold_ready = bold && !surprised;
        let speed = if near && !bold_ready { Speed::Fast } else { Speed::Slow };
        return FastSlowIntent::Commit { speed };
    }
    turn(world, e)
}

pub(super) fn turn(world: &World, e: Entity) -> FastSlowIntent {
    let ok = |i: &FastSlowIntent| validate(world, e, i).is_ok();
    let Some(f) = world.get::<Fighter>(e) else { return FastSlowIntent::EndTurn };
    if f.prone && ok(&FastSlowIntent::Stand) {
        return FastSlowIntent::Stand;
    }
    let mut foes = enemies_on_field(world, e);
    foes.sort_by(|&a, &b| between(world, e, a).total_cmp(&between(world, e, b)));
    for &t in &foes {
        for (a, bold) in f.sheet.bold.iter().enumerate() {
            let strikes = matches!(bold.effect, BoldEffect::Strike { .. } | BoldEffect::FollowUp { .. });
            if strikes && check_bold(world, e, a, t).is_ok() {
                return FastSlowIntent::Bold { ability: a, target: id(world, t) };
            }
        }
        for w in 0..f.sheet.weapons.len() {
            if check_attack(world, e, t, w, true).is_ok() {
                // The first technique the weapon may use, if any.
                let technique =
                    (0..f.sheet.techniques.len()).find(|&k| check_technique(world, e, w, k).is_ok());
                return FastSlowIntent::Attack { target: id(world, t), weapon: w, technique };
            }
        }
    }
    // Strike the fallen only when no one standing is in reach.
    let fallen = world
        .resource::<TableIndex>()
        .order
        .iter()
        .copied()
        .filter(|&t| enemies(world, e, t) && on_table(world, t) && !can_act(world, t));
    for t in fallen {
        if let Some(w) = (0..f.sheet.weapons.len()).find(|&w| check_attack(world, e, t, w, true).is_ok()) {
            return FastSlowIntent::Attack { target: id(world, t), weapon: w, technique: None };
        }
    }
    if let Some(&t) = foes.first() {
        let step = approach(world, e, t);
        if let Some(to) = step {
            let intent = FastSlowIntent::Move { to };
            if ok(&intent) {
                return intent;
            }
        }
    }
    FastSlowIntent::EndTurn
}

/// A point toward `t`, stopping just inside reach, as far as base Paces go (or one move
/// action when no base Paces are left and two actions are).
fn approach(world: &World, e: Entity, t: Entity) -> Option<(f32, f32)> {
    let (from, to) = (position(world, e), position(world, t));
    let d = between(world, e, t);
    let want = (d - reach(world, e) * 0.8).max(0.0);
    let (base, actions) = budget(world, e);
    let per = world.resource::<Battle>().rules.paces;
    let go = if base > 0.05 {
        want.min(base - 0.01)
    } else if actions >= 1 {
        want.min(per - 0.01)
    } else {
        return None;
    };
    if go < 0.05 || d < 1e-3 {
        return None;
    }
    let k = go / d;
    let (w, h) = world.resource::<Battle>().rules.field;
    let x = (from[0] + (to[0] - from[0]) * k).clamp(-w / 2.0, w / 2.0);
    let y = (from[1] + (to[1] - from[1]) * k).clamp(-h / 2.0, h / 2.0);
    // Rounded to a hundredth of a Pace, so saves and logs read plainly; none when the edge
    // of the field keeps it where it is.
    let to = ((x * 100.0).round() / 100.0, (y * 100.0).round() / 100.0);
    (distance(from, [to.0, to.1]) >= 0.01).then_some(to)
}
