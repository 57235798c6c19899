//! The Initiative ladder's `tactical` AI: the simple one's habits (escape a chokehold, keep
//! one it holds, get up, inspire, load, bind a bleeding wound, strike the nearest foe, close
//! in), and besides, by the situation:
//! - a **charge is followed by a blow** when the AP allow (the charge's Fury Die is wasted
//!   otherwise);
//! - engaged with AP to spare: **knocks out** a Defenseless or Helpless foe; **takes down** a
//!   foe standing when the odds are fair (a prone foe is +30 and a Fury Die to hit);
//! - a foe three steps down the damage track who would cheat death with a Fate Point is
//!   **subdued** (a subduing blow puts it out without a slaying for the Fate Point to undo);
//! - mounted and engaged with AP to spare: **tramples** first (only a dodge answers it);
//! - with a ranged weapon and a full turn: **takes aim** first;
//! - on foot with no foe to strike: **strikes the mount** of a rider out of its reach;
//! - a shooter with a free-standing shield **sets it** before shooting;
//! - speaks its **litany of hatred** once, as it speaks its inspiring words;
//! - a melee fighter out of reach **waits** for an ally nearer the foe, still to go this
//!   turn, to engage first, then steps in and flanks (+10).
//!
//! It reads what its seat may: positions, conditions, weapons in hand; never a sneaking foe
//! it cannot see.

use bevy_ecs::prelude::*;
use fray_core::prelude::{Rides, TableIndex};
use fray_core::table::{id, name};

use super::simple;
use crate::data::{Condition, WeaponKind};
use crate::decisions::validate;
use crate::field::{allies, between, engaged_foes, foes};
use crate::intent::{ApLadderIntent, StuntKind};
use crate::phase::{Battle, Fighter, RungOf};
use crate::stunts::stunt_odds;

/// A foe this far down the damage track (of 5: Slain!) may be slain by the next blow.
const SUBDUE_FROM: u32 = 3;
/// A takedown is worth trying at this chance (the test passed and the Resist failed) or more.
const TAKEDOWN_FROM: f32 = 0.35;

fn ok(world: &World, e: Entity, intent: &ApLadderIntent) -> bool {
    validate(world, e, intent).is_ok()
}

fn who(world: &World, target: &fray_core::ids::CombatantId) -> String {
    world.resource::<TableIndex>().combatant(target).map_or_else(|| target.to_string(), |t| name(world, t))
}

fn attack(world: &World, t: Entity) -> ApLadderIntent {
    ApLadderIntent::Attack { target: id(world, t), called: None, all_out: 0, punishing: false, press: false }
}

/// The AI's decision for `e` now, and why.
pub fn choose(world: &World, e: Entity) -> (ApLadderIntent, String) {
    let battle = world.resource::<Battle>();
    let planned = simple::choose(world, e);
    if battle.pending.is_some() {
        let why = match &planned {
            ApLadderIntent::React { reaction } => format!("{reaction:?}: a fair chance"),
            _ => "takes the blow: no reaction with a fair chance".to_owned(),
        };
        return (planned, why);
    }
    if battle.followers.contains(&e) {
        let why =
            if planned == ApLadderIntent::Follow { "follows, to stay engaged" } else { "stays: no room" };
        return (planned, why.to_owned());
    }
    if battle.offer == Some(e) {
        let why = if planned == ApLadderIntent::Interrupt {
            "steps in before a foe"
        } else {
            "lets an ally go first"
        };
        return (planned, why.to_owned());
    }
    turn(world, e, planned)
}

/// Its turn: the situation first, else the simple plan.
fn turn(world: &World, e: Entity, planned: ApLadderIntent) -> (ApLadderIntent, String) {
    let Some(f) = world.get::<Fighter>(e) else { return (planned, "nothing to do".to_owned()) };
    let habit = match &planned {
        ApLadderIntent::Escape => Some("tries to escape the chokehold"),
        ApLadderIntent::PutOutFire => Some("beats out the flames"),
        ApLadderIntent::KeepChokehold => Some("keeps its chokehold"),
        ApLadderIntent::GetUp => Some("gets up"),
        ApLadderIntent::InspiringWords => Some("speaks inspiring words"),
        ApLadderIntent::Load => Some("loads its weapon"),
        ApLadderIntent::BindWound { .. } => Some("binds a bleeding wound"),
        _ => None,
    };
    if let Some(why) = habit {
        return (planned, why.to_owned());
    }
    if ok(world, e, &ApLadderIntent::LitanyOfHatred) {
        return (ApLadderIntent::LitanyOfHatred, "speaks its litany of hatred".to_owned());
    }
    let engaged = engaged_foes(world, e);
    if f.charged
        && let Some(&t) = engaged.iter().find(|&&t| ok(world, e, &attack(world, t)))
    {
        return (
            attack(world, t),
            format!("follows its charge with a blow at {} (a Fury Die)", name(world, t)),
        );
    }
    let shooter = f.weapon().is_some_and(|w| w.kind == WeaponKind::Ranged);
    if shooter && engaged.is_empty() && ok(world, e, &ApLadderIntent::FixShield) {
        return (ApLadderIntent::FixShield, "sets its shield to shoot from behind it".to_owned());
    }
    if let Some(step) = stunt(world, e, f, &engaged) {
        return step;
    }
    if f.ap >= 2
        && let Some(&t) =
            engaged.iter().find(|&&t| ok(world, e, &ApLadderIntent::Trample { target: id(world, t) }))
    {
        let why = format!("tramples {}: its mount's weight, and only a dodge answers", name(world, t));
        return (ApLadderIntent::Trample { target: id(world, t) }, why);
    }
    if let ApLadderIntent::Attack { target, .. } = &planned
        && let Some(t) = world.resource::<TableIndex>().combatant(target)
    {
        if let Some(step) = before_the_blow(world, e, f, t) {
            return step;
        }
        return (planned.clone(), format!("attacks {}: the nearest foe it can strike", who(world, target)));
    }
    if matches!(planned, ApLadderIntent::Move { .. } | ApLadderIntent::EndTurn)
        && let Some(step) = strike_a_mount(world, e)
    {
        return step;
    }
    if let ApLadderIntent::Move { how, .. } = &planned {
        if let Some(step) = wait_for(world, e, f) {
            return step;
        }
        return (planned.clone(), format!("{how:?}s toward the nearest foe"));
    }
    let why = match &planned {
        ApLadderIntent::Trample { target } => format!("tramples {}", who(world, target)),
        ApLadderIntent::Swap { .. } => "takes another weapon in hand".to_owned(),
        _ => "ends its turn".to_owned(),
    };
    (planned, why)
}

/// A stunt on an engaged foe, with AP left to use what it gives.
fn stunt(world: &World, e: Entity, f: &Fighter, engaged: &[Entity]) -> Option<(ApLadderIntent, String)> {
    if f.ap < 2 {
        return None;
    }
    for &t in engaged {
        let foe = world.get::<Fighter>(t)?;
        let stunt = |kind| ApLadderIntent::Stunt { target: id(world, t), kind };
        if (foe.has(Condition::Defenseless) || foe.has(Condition::Helpless))
            && ok(world, e, &stunt(StuntKind::Knockout))
        {
            return Some((
                stunt(StuntKind::Knockout),
                format!("knocks {} out: it cannot defend", name(world, t)),
            ));
        }
        if foe.has(Condition::Prone) {
            continue;
        }
        let (mine, resist) = stunt_odds(world, e, t, StuntKind::Takedown);
        let chance = mine as f32 / 100.0 * (1.0 - resist.unwrap_or(0) as f32 / 100.0);
        if chance >= TAKEDOWN_FROM && ok(world, e, &stunt(StuntKind::Takedown)) {
            let why = format!("takes {} down ({:.0}%): the next blow at +30", name(world, t), chance * 100.0);
            return Some((stunt(StuntKind::Takedown), why));
        }
    }
    None
}

/// What is worth doing before a blow at `t`: subdue one with a Fate Point, aim a shot with a
/// full turn, strike a rider's mount from the ground.
fn before_the_blow(world: &World, e: Entity, f: &Fighter, t: Entity) -> Option<(ApLadderIntent, String)> {
    let foe = world.get::<Fighter>(t)?;
    if foe.fate > 0
        && foe.damage >= SUBDUE_FROM
        && !f.subdue
        && f.ap >= 2
        && ok(world, e, &ApLadderIntent::Subdue)
    {
        return Some((
            ApLadderIntent::Subdue,
            format!("subdues: {} would cheat death with a Fate Point", name(world, t)),
        ));
    }
    let ranged = f.weapon().is_some_and(|w| w.kind == WeaponKind::Ranged);
    let aim = ApLadderIntent::TakeAim { ap: 1 };
    if ranged && f.ap >= 3 && f.aim == 0 && ok(world, e, &aim) {
        return Some((aim, format!("takes aim at {}", name(world, t))));
    }
    None
}

/// No foe to strike: the mount of a rider it cannot reach, if it can reach the mount.
fn strike_a_mount(world: &World, e: Entity) -> Option<(ApLadderIntent, String)> {
    if world.get::<Rides>(e).is_some() {
        return None;
    }
    foes(world, e).into_iter().find_map(|t| {
        let strike = ApLadderIntent::StrikeMount { rider: id(world, t) };
        (world.get::<Rides>(t).is_some() && !ok(world, e, &attack(world, t)) && ok(world, e, &strike))
            .then(|| (strike, format!("strikes {}'s mount: the rider is out of its reach", name(world, t))))
    })
}

/// At the start of its turn, a melee fighter out of reach lets an ally nearer its foe, still
/// to go this turn, engage first: then it steps in and flanks.
fn wait_for(world: &World, e: Entity, f: &Fighter) -> Option<(ApLadderIntent, String)> {
    let melee = |g: &Fighter| g.weapon().is_none_or(|w| w.kind == WeaponKind::Melee);
    if !melee(f) || f.ap < 3 || !engaged_foes(world, e).is_empty() || !ok(world, e, &ApLadderIntent::Wait) {
        return None;
    }
    let mut targets = foes(world, e);
    targets.sort_by(|a, b| between(world, e, *a).total_cmp(&between(world, e, *b)));
    let &t = targets.first()?;
    let mine = between(world, e, t);
    let battle = world.resource::<Battle>();
    let ally = battle.ladder.iter().filter(|r| !r.done).find_map(|r| {
        let RungOf::Fighter(a) = r.of else { return None };
        let nearer = a != e && allies(world, e).contains(&a) && between(world, a, t) < mine;
        (nearer && world.get::<Fighter>(a).is_some_and(melee)).then_some(a)
    })?;
    let why = format!("waits for {} to engage {} first: then it flanks", name(world, ally), name(world, t));
    Some((ApLadderIntent::Wait, why))
}
