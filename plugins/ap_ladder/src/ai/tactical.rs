//! The Initiative ladder's `tactical` AI: the simple one's habits (escape a chokehold, keep
//! one it holds, get up, inspire, load, bind a bleeding wound, strike the nearest foe, close
//! in), and besides, by the situation:
//! - a **charge is followed by a blow** when the AP allow (the charge's Fury Die is wasted
//!   otherwise);
//! - engaged with AP to spare: **knocks out** a Defenseless or Helpless foe; **takes down** a
//!   foe standing when the odds are fair (a prone foe is +30 and a Fury Die to hit);
//! - the last foe standing, one step from Slain! and with a Fate Point to cheat death, is
//!   **subdued** (a subduing blow puts it out, and the fight with it, with no slaying for the
//!   Fate Point to undo);
//! - mounted and engaged with AP to spare: **tramples** when a trample's chance to land
//!   times its mean harm is no less than a blow's (only a dodge answers a trample);
//! - with a ranged weapon and a full turn: **takes aim** first;
//! - on foot with no foe to strike: **strikes the mount** of a rider out of its reach; and
//!   about to strike a rider whose Damage Threshold its blow's mean does not reach but
//!   whose mount's it does, strikes the mount instead (a mount never reacts; slain, it
//!   throws its rider down);
//! - a rider with no foe engaged and 3 AP **gets down** when its mount will not move this
//!   turn, or is one wound from falling under it; on foot, about to move, it **gets on** a
//!   calm riderless mount at hand;
//! - a shooter with a free-standing shield **sets it** before shooting;
//! - speaks its **litany of hatred** once, as it speaks its inspiring words;
//! - a melee fighter out of reach, with no charge into reach, **waits** for an ally nearer
//!   the foe, still to go this turn, to engage first, then steps in and flanks (+10).
//!
//! It reads what its seat may: positions, conditions, weapons in hand; never a sneaking foe
//! it cannot see.

use bevy_ecs::prelude::*;
use fray_core::prelude::{Mount, Rides, TableIndex};
use fray_core::table::{id, name};

use super::simple;
use crate::combat::{AttackPlan, blow_base, damage_threshold, may_dodge, plan_attack, reaction_skill};
use crate::data::{Condition, Reaction, Skill, WeaponKind};
use crate::decisions::validate;
use crate::field::{allies, between, engaged_foes, foes};
use crate::intent::{ApLadderIntent, MoveKind, StuntKind};
use crate::load::MountSheet;
use crate::mounts::{Steed, mount_of, threshold};
use crate::phase::{Battle, DAMAGE_TRACK, Fighter, RungOf};
use crate::stunts::stunt_odds;

/// A foe this far down the damage track (of 5: Slain!) is slain by any harm.
const SUBDUE_FROM: u32 = 4;
/// A Fury Die's mean: a d6 whose 6 rolls again and adds.
const FURY_DIE_MEAN: f32 = 4.2;
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
        && let Some(&t) = engaged.iter().find(|&&t| {
            ok(world, e, &ApLadderIntent::Trample { target: id(world, t) }) && tramples_harder(world, e, f, t)
        })
    {
        let why = if may_dodge(world, t) {
            format!("tramples {}: it would harm more than a blow", name(world, t))
        } else {
            format!("tramples {}: its heavy armour bars a dodge, the only answer", name(world, t))
        };
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
    if engaged.is_empty()
        && let Some(step) = get_down(world, e, f, &planned).or_else(|| get_on(world, e, f, &planned))
    {
        return step;
    }
    if let ApLadderIntent::Move { how, .. } = &planned {
        // Only when a charge cannot bring it into reach this turn.
        if *how == MoveKind::Walk
            && let Some(step) = wait_for(world, e, f)
        {
            return step;
        }
        // The simple plan closes in by a walk or a charge: "walks", "charges".
        return (planned.clone(), format!("{}s toward the nearest foe", how.word()));
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

/// The mean damage of `f`'s blow planned as `plan`: its base, and 4.2 for each Fury Die.
fn blow_mean(f: &Fighter, plan: &AttackPlan) -> f32 {
    blow_base(f, f.weapon()) as f32 + FURY_DIE_MEAN * plan.fury as f32
}

/// A trample is worth a blow at `t` or more: each one's chance to land (its test passed, the
/// foe's best answer failed: only a dodge answers a trample) times its mean damage past the
/// foe's Damage Threshold (a trample's 1d10 + the mount's [BB], no Fury Dice).
fn tramples_harder(world: &World, e: Entity, f: &Fighter, t: Entity) -> bool {
    let Ok(plan) = plan_attack(world, e, t, None, 0, false) else { return true };
    let threshold = damage_threshold(world, t, false).0 as f32;
    let past = |mean: f32| (mean - threshold).max(0.0);
    let blow =
        percent(f.sheet.chance(plan.skill) + plan.modifiers.iter().map(|m| m.value as i32).sum::<i32>())
            * (1.0 - answer(world, t, &plan.allowed))
            * past(blow_mean(f, &plan));
    let mount = mount_of(world, e).and_then(|m| world.get::<MountSheet>(m)).map_or(0, |m| m.0.brawn_bonus);
    let ride = f.sheet.chance(Skill::Ride).max(f.sheet.chance(Skill::Drive));
    let trample = percent(ride) * (1.0 - answer(world, t, &[Reaction::Dodge])) * past(5.5 + mount as f32);
    trample >= blow
}

/// `t`'s best chance among the answers `allowed` (a dodge only where its armour lets it).
fn answer(world: &World, t: Entity, allowed: &[Reaction]) -> f32 {
    let Some(foe) = world.get::<Fighter>(t) else { return 0.0 };
    let best = allowed
        .iter()
        .filter(|&&r| r != Reaction::Dodge || may_dodge(world, t))
        .map(|&r| foe.sheet.chance(reaction_skill(world, t, r)))
        .max();
    best.map_or(0.0, percent)
}

fn percent(chance: i32) -> f32 {
    chance.clamp(1, 99) as f32 / 100.0
}

/// What is worth doing before a blow at `t`: subdue the last foe with a Fate Point, aim a
/// shot with a full turn, strike the mount of a rider whose armour would turn the blow.
fn before_the_blow(world: &World, e: Entity, f: &Fighter, t: Entity) -> Option<(ApLadderIntent, String)> {
    let foe = world.get::<Fighter>(t)?;
    if foe.fate > 0
        && foe.damage >= SUBDUE_FROM
        && foes(world, e).len() == 1
        && !f.subdue
        && f.ap >= 2
        && ok(world, e, &ApLadderIntent::Subdue)
    {
        return Some((
            ApLadderIntent::Subdue,
            format!("subdues {}, the last foe: it would cheat death with a Fate Point", name(world, t)),
        ));
    }
    let ranged = f.weapon().is_some_and(|w| w.kind == WeaponKind::Ranged);
    let aim = ApLadderIntent::TakeAim { ap: 1 };
    if ranged && f.ap >= 3 && f.aim == 0 && ok(world, e, &aim) {
        return Some((aim, format!("takes aim at {}", name(world, t))));
    }
    the_softer_mount(world, e, f, t, ranged)
}

/// A blow whose mean damage does not reach the rider's Damage Threshold but reaches its
/// mount's goes to the mount: it cannot dodge or parry, and slain it throws its rider down.
fn the_softer_mount(
    world: &World,
    e: Entity,
    f: &Fighter,
    t: Entity,
    ranged: bool,
) -> Option<(ApLadderIntent, String)> {
    let m = mount_of(world, t)?;
    let (horse, rider) = (threshold(world, m).0, damage_threshold(world, t, ranged).0);
    let blow = blow_mean(f, &plan_attack(world, e, t, None, 0, false).ok()?);
    let strike = ApLadderIntent::StrikeMount { rider: id(world, t) };
    ((horse as f32) <= blow && blow < rider as f32 && ok(world, e, &strike)).then(|| {
        let why = format!(
            "strikes {}'s mount: its blow would not get through the rider's Damage Threshold {rider} but gets through the mount's {horse}",
            name(world, t)
        );
        (strike, why)
    })
}

fn horse_name(world: &World, m: Entity) -> String {
    world.get::<Mount>(m).map_or_else(|| "its mount".to_owned(), |h| h.name.clone())
}

/// Mounted with 3 AP and no foe engaged, it gets down to go on foot: when its mount will not
/// move this turn (its Handle Animal test failed) and nothing but the end of its turn is
/// planned, or when its mount is one step from Slain! (its fall would throw the rider down,
/// prone before its foes).
fn get_down(
    world: &World,
    e: Entity,
    f: &Fighter,
    planned: &ApLadderIntent,
) -> Option<(ApLadderIntent, String)> {
    let m = mount_of(world, e)?;
    let steed = world.get::<Steed>(m)?;
    let why = if steed.balking && *planned == ApLadderIntent::EndTurn {
        format!("gets down to go on foot: {} will not move this turn", horse_name(world, m))
    } else if about_to_fall(steed) {
        format!("gets down before {} falls under it: one more wound slays it", horse_name(world, m))
    } else {
        return None;
    };
    (f.ap >= 3 && ok(world, e, &ApLadderIntent::Dismount)).then_some((ApLadderIntent::Dismount, why))
}

/// One step from Slain!: any wound slays it.
fn about_to_fall(steed: &Steed) -> bool {
    steed.damage + 2 >= DAMAGE_TRACK.len() as u32
}

/// On foot with 3 AP, no foe engaged, about to move: it gets on a riderless mount at hand
/// that is under control and not about to fall (mounted, it goes further and strikes with a
/// Fury Die more).
fn get_on(
    world: &World,
    e: Entity,
    f: &Fighter,
    planned: &ApLadderIntent,
) -> Option<(ApLadderIntent, String)> {
    if !matches!(planned, ApLadderIntent::Move { .. }) || f.ap < 3 || world.get::<Rides>(e).is_some() {
        return None;
    }
    world.resource::<TableIndex>().mounts.iter().find_map(|(mid, &m)| {
        let calm = world.get::<Steed>(m).is_some_and(|s| !s.balking && !s.spooked && !about_to_fall(s));
        let get_on = ApLadderIntent::Mount { mount: mid.clone() };
        (calm && ok(world, e, &get_on)).then(|| {
            let why = format!(
                "gets on {}: mounted, it goes further and strikes with a Fury Die more",
                horse_name(world, m)
            );
            (get_on, why)
        })
    })
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
