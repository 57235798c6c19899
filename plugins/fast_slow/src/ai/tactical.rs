//! The `tactical` AI of Fast & Slow: the simple one's aim (strike the nearest enemy in reach,
//! a bold strike first, else close in; the best defence; always counterattack), and besides:
//! - hurt and outnumbered, it **flees** from the field's edge (committing Slow to do it);
//! - it gives a **potion** to itself or a side-mate in reach whose torso is low or down;
//! - it **stakes FOG** on an attack roll or a counterattack (the most the rules allow);
//! - with nothing to strike and only shooters in sight, it **goes prone** (they shoot at it
//!   with disadvantage from beyond 2 Paces).
//!
//! It never takes a skill roll or an "other action": their effect is the table's to say.
//! It reads what its seat may read: positions, statuses, its own side's sheets; an enemy's
//! choice of speed only once revealed.

use bevy_ecs::prelude::*;
use fray_core::prelude::{Side, Status, TableIndex};
use fray_core::table::{can_act, enemies, id, name};

use super::simple::{self, enemies_on_field};
use crate::combat::defences;
use crate::data::Limbs;
use crate::decisions::validate;
use crate::intent::FastSlowIntent;
use crate::phase::{Battle, Fighter, Speed};
use crate::turns::between;

/// Health (limbs) at or under this share of the sheet's counts as badly hurt.
const HURT: f32 = 0.4;
/// A weapon reaching this far (Paces) or more shoots.
const SHOOTS_FROM: f32 = 3.0;

fn ok(world: &World, e: Entity, intent: &FastSlowIntent) -> bool {
    validate(world, e, intent).is_ok()
}

fn total(l: &Limbs) -> u32 {
    l.head + l.torso + l.left_arm + l.right_arm + l.left_leg + l.right_leg
}

/// The share of its limbs' health `e` has left (1 when unhurt).
fn health_left(world: &World, e: Entity) -> f32 {
    world.get::<Fighter>(e).map_or(1.0, |f| total(&f.health) as f32 / total(&f.sheet.health).max(1) as f32)
}

fn fighting(world: &World, pred: impl Fn(Entity) -> bool) -> usize {
    let order = &world.resource::<TableIndex>().order;
    order.iter().filter(|&&t| can_act(world, t) && pred(t)).count()
}

/// Why `e` should leave the fight, if it should: badly hurt and outnumbered two to one.
fn should_flee(world: &World, e: Entity) -> Option<String> {
    let left = health_left(world, e);
    let down = world.get::<Fighter>(e).is_some_and(|f| f.torso_down);
    let side = world.get::<Side>(e)?;
    let ours = fighting(world, |t| world.get::<Side>(t) == Some(side));
    let theirs = fighting(world, |t| enemies(world, e, t));
    (theirs >= 2 * ours && (left <= HURT || down))
        .then(|| format!("flees: {:.0}% of its health left, {theirs} against {ours}", left * 100.0))
}

/// The most hurt of `e` and its side-mates a potion from `e` may reach, if one is hurt enough.
fn potion_for(world: &World, e: Entity) -> Option<(Entity, String)> {
    let side = world.get::<Side>(e)?;
    let order = &world.resource::<TableIndex>().order;
    let needs = |t: Entity| {
        let f = world.get::<Fighter>(t)?;
        let low = f.torso_down || f.health.torso * 2 <= f.sheet.health.torso;
        (low && world.get::<Side>(t) == Some(side)
            && world.get::<Status>(t).is_some_and(|s| *s != Status::Dead))
        .then_some(f.health.torso)
    };
    let (t, torso) = order
        .iter()
        .filter_map(|&t| Some((t, needs(t)?)))
        .filter(|&(t, _)| ok(world, e, &FastSlowIntent::Potion { target: id(world, t) }))
        .min_by_key(|&(_, torso)| torso)?;
    let who =
        if t == e { "drinks a potion".to_owned() } else { format!("gives {} a potion", name(world, t)) };
    Some((t, format!("{who}: torso at {torso}")))
}

/// Only shooters in sight, none within 2 Paces of `e` nor able to reach it with a blow.
fn only_shooters(world: &World, e: Entity) -> bool {
    let foes = enemies_on_field(world, e);
    let shoots = |t: Entity| {
        world.get::<Fighter>(t).is_some_and(|f| f.sheet.weapons.iter().any(|w| w.reach >= SHOOTS_FROM))
    };
    !foes.is_empty()
        && foes.iter().all(|&t| shoots(t) && between(world, e, t) > simple::reach(world, t) + 4.0)
}

/// The most FOG `e` may stake now, if any.
fn stake(world: &World, e: Entity) -> Option<u32> {
    let most = world.resource::<Battle>().rules.max_stake;
    (1..=most).rev().find(|&fog| ok(world, e, &FastSlowIntent::Stake { fog }))
}

/// The decision for `e` now, and why (a choice of speed is sealed: its reason is not shown).
pub fn choose(world: &World, e: Entity) -> (FastSlowIntent, String) {
    let battle = world.resource::<Battle>();
    if let Some(hit) = battle.pending.as_ref().filter(|h| h.defender == e) {
        let intent = simple::choose(world, e);
        let from = hit.attacker.map_or_else(|| "the trap".to_owned(), |a| name(world, a));
        let why = match &intent {
            FastSlowIntent::Defend { defence } if defences(hit, battle).len() > 1 => {
                format!("{defence:?}s against {from}: its best defence here")
            }
            _ => format!("braces against {from}: the one defence allowed"),
        };
        return (intent, why);
    }
    if battle.counter.is_some_and(|(d, _)| d == e) {
        let intent = simple::choose(world, e);
        if matches!(intent, FastSlowIntent::Counter { .. })
            && let Some(fog) = stake(world, e)
        {
            return (FastSlowIntent::Stake { fog }, format!("stakes {fog} FOG on its counterattack"));
        }
        let why = if intent == FastSlowIntent::Decline { "cannot counterattack" } else { "counterattacks" };
        return (intent, why.to_owned());
    }
    if battle.committing {
        let near_edge = should_flee(world, e).is_some() && ok_to_flee_from_here(world, e);
        let intent =
            if near_edge { FastSlowIntent::Commit { speed: Speed::Slow } } else { simple::choose(world, e) };
        return (intent, "chooses its speed".to_owned());
    }
    turn(world, e)
}

/// Whether `e` stands where a Slow turn lets it flee.
fn ok_to_flee_from_here(world: &World, e: Entity) -> bool {
    let rules = &world.resource::<Battle>().rules;
    let at = crate::turns::position(world, e);
    let edge = (rules.field.0 / 2.0 - at[0].abs()).min(rules.field.1 / 2.0 - at[1].abs());
    edge <= rules.flee_reach
}

fn turn(world: &World, e: Entity) -> (FastSlowIntent, String) {
    if let Some(why) = should_flee(world, e)
        && ok(world, e, &FastSlowIntent::Flee)
    {
        return (FastSlowIntent::Flee, why);
    }
    if let Some((t, why)) = potion_for(world, e) {
        return (FastSlowIntent::Potion { target: id(world, t) }, why);
    }
    if world.get::<Fighter>(e).is_some_and(|f| f.prone) && only_shooters(world, e) {
        return (FastSlowIntent::EndTurn, "stays prone: only shooters in sight, and far".to_owned());
    }
    let planned = simple::turn(world, e);
    let target = match &planned {
        FastSlowIntent::Attack { target, .. } | FastSlowIntent::Bold { target, .. } => Some(target.clone()),
        _ => None,
    };
    let staked = world.get::<Fighter>(e).map_or(0, |f| f.staked);
    if let Some(target) = &target
        && staked == 0
        && let Some(fog) = stake(world, e)
    {
        return (
            FastSlowIntent::Stake { fog },
            format!("stakes {fog} FOG on its attack on {}", shown(world, target)),
        );
    }
    if matches!(planned, FastSlowIntent::EndTurn | FastSlowIntent::Move { .. })
        && only_shooters(world, e)
        && ok(world, e, &FastSlowIntent::Prone)
    {
        return (FastSlowIntent::Prone, "drops prone: only shooters in sight, and far".to_owned());
    }
    let why = match &planned {
        FastSlowIntent::Attack { .. } => {
            format!("strikes {}: the nearest enemy in reach", shown_opt(world, &target))
        }
        FastSlowIntent::Bold { .. } => format!("a bold strike at {}", shown_opt(world, &target)),
        FastSlowIntent::Move { .. } => "closes in on the nearest enemy".to_owned(),
        FastSlowIntent::Stand => "stands up".to_owned(),
        _ => "nothing more to do this turn".to_owned(),
    };
    (planned, why)
}

fn shown(world: &World, target: &fray_core::ids::CombatantId) -> String {
    world.resource::<TableIndex>().combatant(target).map_or_else(|| target.to_string(), |t| name(world, t))
}

fn shown_opt(world: &World, target: &Option<fray_core::ids::CombatantId>) -> String {
    target.as_ref().map_or_else(|| "its enemy".to_owned(), |t| shown(world, t))
}
