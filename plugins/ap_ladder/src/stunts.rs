//! Perilous stunts on an engaged foe: chokehold (kept for 3 AP, escaped by a Resist), dirty
//! tricks, disarm (the weapon lands 3 yards away), knockout, push (2 yards back or 1 to a side,
//! with a takedown or not), splinter shield, stunning blow and takedown; each the attacker's
//! test, then the defender's Resist (0 AP, rolled at once: no one declines a free Resist).

use bevy_ecs::prelude::*;
use fray_core::dice::Modifier;
use fray_core::intent::{Rejection, Verdict};
use fray_core::log::{GameLog, LogEvent};
use fray_core::table::{can_act, enemies, id, name};

use crate::combat::{Harm, harm, knock_out, steady};
use crate::conditions::{add, remove};
use crate::data::{Attribute, Condition, Quality, Reaction, Skill};
use crate::dice::{Flip, any_condition, roll, test};
use crate::field::{away_from, between, engagement, place, position};
use crate::intent::{PushWay, StuntKind};
use crate::phase::{Battle, Choke, Dropped, Fighter};

/// The attacker's skill and the defender's resisting skill (none: no Resist).
pub fn skills(kind: StuntKind, weapon_skill: Skill) -> (Skill, Option<Skill>) {
    match kind {
        StuntKind::Chokehold => (Skill::Athletics, Some(Skill::Athletics)),
        StuntKind::DirtyTricks => (Skill::Guile, Some(Skill::Awareness)),
        StuntKind::Disarm => (Skill::Coordination, Some(Skill::Coordination)),
        StuntKind::Knockout => (Skill::Athletics, None),
        StuntKind::Push { .. } => (Skill::Athletics, Some(Skill::Coordination)),
        StuntKind::SplinterShield => (weapon_skill, Some(Skill::Toughness)),
        StuntKind::StunningBlow => (Skill::Athletics, Some(Skill::Toughness)),
        StuntKind::Takedown => (Skill::Coordination, Some(Skill::Coordination)),
    }
}

/// A stunt on a foe of another size: -10 for each size it is larger, +10 for each smaller.
fn size_modifier(world: &World, e: Entity, t: Entity) -> Option<Modifier> {
    let size = |x: Entity| world.get::<Fighter>(x).map_or(1, |f| f.sheet.size) as i64;
    let by = size(t) - size(e);
    (by != 0).then(|| Modifier::new("foe's size", -10 * by))
}

/// The chances of a stunt by `e` on `t` now, before it is chosen: the attacker's test, and
/// the defender's Resist (none where the stunt allows none, 0 where `t` cannot react).
pub fn stunt_odds(world: &World, e: Entity, t: Entity, kind: StuntKind) -> (u32, Option<u32>) {
    let Some(f) = world.get::<Fighter>(e) else { return (0, None) };
    let (skill, resist) = skills(kind, f.weapon().map_or(Skill::SimpleMelee, |w| w.skill));
    let mut modifiers: Vec<Modifier> = size_modifier(world, e, t).into_iter().collect();
    if f.aim > 0 {
        modifiers.push(Modifier::new("aim", f.aim));
    }
    let mine = crate::dice::odds_of(world, e, skill, &modifiers);
    let theirs = resist.map(|skill| {
        if cannot_resist(world, t) {
            0
        } else {
            crate::dice::odds_of(world, t, skill, &against(world, e, kind))
        }
    });
    (mine, theirs)
}

/// Whether `t` cannot react, so cannot resist.
fn cannot_resist(world: &World, t: Entity) -> bool {
    world
        .get::<Fighter>(t)
        .is_none_or(|tf| any_condition(world, tf, |r| r.no_reactions || r.blocks.contains(&Reaction::Resist)))
}

/// What the Resist against `e`'s stunt has against it: -10 to resist a disarm by a Binding
/// weapon.
fn against(world: &World, e: Entity, kind: StuntKind) -> Vec<Modifier> {
    let binding = kind == StuntKind::Disarm
        && world.get::<Fighter>(e).and_then(|f| f.weapon()).is_some_and(|w| w.has(Quality::Binding));
    binding.then(|| Modifier::new("Binding", -10)).into_iter().collect()
}

/// The shield `t` holds and could lose (an index), if any.
fn shield_of(world: &World, t: Entity) -> Option<usize> {
    let f = world.get::<Fighter>(t)?;
    (0..f.sheet.weapons.len()).find(|&i| f.sheet.weapons[i].shield && !f.lost[i] && !f.ruined[i])
}

/// AP a stunt costs: 1, or 2 for a push with a takedown.
pub fn ap_of(kind: StuntKind) -> u32 {
    if matches!(kind, StuntKind::Push { takedown: true, .. }) { 2 } else { 1 }
}

/// Checks a stunt by `e` on `t`; its AP cost.
pub fn check_stunt(world: &World, e: Entity, t: Entity, kind: StuntKind) -> Verdict<u32> {
    let f = world.get::<Fighter>(e).ok_or_else(|| Rejection::new("not a combatant"))?;
    let tf = world.get::<Fighter>(t).ok_or_else(|| Rejection::new("not a combatant"))?;
    if !enemies(world, e, t) || !can_act(world, t) {
        return Err(Rejection::new(format!("{} is not a foe in the fight", name(world, t))));
    }
    if between(world, e, t) > engagement(world) + crate::field::EPS {
        return Err(Rejection::new(format!("{} is not engaged with {}", name(world, t), name(world, e))));
    }
    let ap = ap_of(kind);
    if f.ap < ap {
        return Err(Rejection::new(format!("it costs {ap} AP; {} left", f.ap)));
    }
    match kind {
        StuntKind::Knockout if !(tf.has(Condition::Defenseless) || tf.has(Condition::Helpless)) => {
            Err(Rejection::new(format!("{} must be Defenseless or Helpless first", name(world, t))))
        }
        StuntKind::Disarm => match tf.weapon() {
            None => Err(Rejection::new(format!("{} holds no weapon", name(world, t)))),
            Some(w) if w.has(Quality::Arming) => {
                Err(Rejection::new(format!("{} cannot be disarmed (Arming)", w.name)))
            }
            Some(_) if tf.has(Condition::Disarmed) => {
                Err(Rejection::new(format!("{} is disarmed already", name(world, t))))
            }
            Some(_) => Ok(ap),
        },
        StuntKind::SplinterShield => {
            let two = f.weapon().is_some_and(|w| w.melee() && (w.two_handed || w.has(Quality::Adaptable)));
            if !two {
                return Err(Rejection::new(
                    "splintering a shield takes a two-handed (or Adaptable) melee weapon",
                ));
            }
            shield_of(world, t)
                .map(|_| ap)
                .ok_or_else(|| Rejection::new(format!("{} holds no sound shield", name(world, t))))
        }
        StuntKind::Chokehold if tf.has(Condition::Choked) => {
            Err(Rejection::new(format!("{} is choked already", name(world, t))))
        }
        StuntKind::Chokehold if holding(world, e).is_some() => {
            Err(Rejection::new(format!("{} keeps a chokehold already", name(world, e))))
        }
        StuntKind::StunningBlow if tf.has(Condition::Stunned) => {
            Err(Rejection::new(format!("{} is stunned already: never twice at once", name(world, t))))
        }
        _ => Ok(ap),
    }
}

/// Makes a stunt: the attacker's test (aim counts), then the defender's Resist, then its effect.
pub fn stunt(world: &mut World, e: Entity, t: Entity, kind: StuntKind, ap: u32) {
    let (weapon_skill, aim) = world
        .get::<Fighter>(e)
        .map_or((Skill::SimpleMelee, 0), |f| (f.weapon().map_or(Skill::SimpleMelee, |w| w.skill), f.aim));
    if let Some(mut f) = world.get_mut::<Fighter>(e) {
        f.ap = f.ap.saturating_sub(ap);
        f.aim = 0;
    }
    let (skill, resist) = skills(kind, weapon_skill);
    let mut modifiers = size_modifier(world, e, t).into_iter().collect::<Vec<_>>();
    if aim > 0 {
        modifiers.push(Modifier::new("aim", aim));
    }
    let roll_t = test(
        world,
        e,
        &format!("{} on {}", kind.word(), name(world, t)),
        Some(skill),
        None,
        modifiers,
        Flip::None,
    );
    if !roll_t.success {
        let who = id(world, e);
        world
            .resource_mut::<GameLog>()
            .about(&who, LogEvent::Effect { what: "stunt_failed", detail: kind.word().to_owned() });
        if roll_t.critical_failure() {
            let peril = roll(world, Some(e), "critical failure Peril", 2, 10, 2);
            harm(world, e, peril, Harm::Peril, None, "critical failure");
        }
        return;
    }
    let mut kind = kind;
    if roll_t.critical_success() {
        add(world, t, Condition::Defenseless);
        if let StuntKind::Push { way, .. } = kind {
            kind = StuntKind::Push { takedown: true, way };
        }
    }
    if let Some(resist) = resist
        && resisted(world, e, t, kind, resist, Flip::None)
    {
        return;
    }
    effect(world, e, t, kind);
}

/// A Resist forced by a weapon's quality after a hit (Entangling, Powerful).
pub fn forced_resist(world: &mut World, e: Entity, t: Entity, kind: StuntKind, flip: Flip) {
    let resist = match kind {
        StuntKind::Push { .. } => Skill::Toughness,
        _ => skills(kind, Skill::SimpleMelee).1.unwrap_or(Skill::Coordination),
    };
    if !resisted(world, e, t, kind, resist, flip) {
        effect(world, e, t, kind);
    }
}

/// The defender's Resist (0 AP): true when it nullifies the stunt. A critical success also
/// steadies it one step up the peril track. A defender who cannot react cannot resist.
fn resisted(world: &mut World, e: Entity, t: Entity, kind: StuntKind, skill: Skill, flip: Flip) -> bool {
    if cannot_resist(world, t) {
        let who = id(world, t);
        world
            .resource_mut::<GameLog>()
            .about(&who, LogEvent::Effect { what: "no_resist", detail: "cannot react".to_owned() });
        return false;
    }
    let modifiers = against(world, e, kind);
    let r = test(world, t, &format!("Resist {}", kind.word()), Some(skill), None, modifiers, flip);
    if r.critical_success() {
        steady(world, t);
    }
    if r.success {
        let who = id(world, t);
        world
            .resource_mut::<GameLog>()
            .about(&who, LogEvent::Effect { what: "resisted", detail: kind.word().to_owned() });
    }
    r.success
}

/// `t` shoved the push's yards straight away from `e` (a Recoil weapon's kick).
pub fn shove(world: &mut World, e: Entity, t: Entity) {
    effect(world, e, t, StuntKind::Push { takedown: false, way: PushWay::Back });
}

fn effect(world: &mut World, e: Entity, t: Entity, kind: StuntKind) {
    let bb = world.get::<Fighter>(e).map_or(0, |f| f.sheet.bonus(Attribute::Brawn));
    match kind {
        StuntKind::Chokehold => {
            add(world, t, Condition::Choked);
            let cause = world.resource_mut::<Battle>().cause();
            world.resource_mut::<Battle>().chokes.push(Choke { holder: e, victim: t, kept: true, cause });
            let peril = roll(world, Some(e), "chokehold Peril", 1, 10, bb as i64);
            harm(world, t, peril, Harm::Peril, Some(e), "chokehold");
        }
        StuntKind::DirtyTricks => {
            add(world, t, Condition::Blinded);
        }
        StuntKind::Disarm => disarm(world, e, t),
        StuntKind::Knockout => {
            let peril = roll(world, Some(e), "knockout Peril", 2, 10, bb as i64);
            harm(world, t, peril, Harm::Peril, Some(e), "knockout");
            if can_act(world, t) {
                knock_out(world, t, bb, "knocked out");
            }
        }
        StuntKind::Push { takedown, way } => {
            let to = pushed_to(world, e, t, way);
            place(world, t, to);
            if let Some(mut f) = world.get_mut::<Fighter>(t) {
                f.cover = None;
            }
            let who = id(world, t);
            world.resource_mut::<GameLog>().about(
                &who,
                LogEvent::Effect { what: "pushed", detail: format!("to ({:.1}, {:.1})", to[0], to[1]) },
            );
            release_held_by(world, t, "pushed away");
            if takedown {
                add(world, t, Condition::Prone);
            }
        }
        StuntKind::SplinterShield => {
            if let Some(s) = shield_of(world, t)
                && let Some(mut f) = world.get_mut::<Fighter>(t)
            {
                if f.sheet.weapons[s].has(Quality::CastleForged) {
                    return;
                }
                f.ruined[s] = true;
                let what = f.sheet.weapons[s].id.clone();
                let who = id(world, t);
                world
                    .resource_mut::<GameLog>()
                    .about(&who, LogEvent::Effect { what: "ruined", detail: what });
            }
        }
        StuntKind::StunningBlow => {
            add(world, t, Condition::Stunned);
        }
        StuntKind::Takedown => {
            add(world, t, Condition::Prone);
        }
    }
}

/// Where a push by `e` shoves `t`: `push_yards` straight away from `e`, or `push_side_yards`
/// square to that line, to `e`'s left or right as it faces `t` (kept on the field).
pub fn pushed_to(world: &World, e: Entity, t: Entity, way: PushWay) -> [f32; 2] {
    let numbers = &world.resource::<Battle>().rules.numbers;
    let (from, by) = (position(world, t), position(world, e));
    // A point beside `t`, square to the line from `e`, on the side away from the way it goes
    // (`left` 1 for a push to the left, -1 to the right): the step is away from that point.
    let behind = |left: f32| {
        let d = [from[0] - by[0], from[1] - by[1]];
        [from[0] + d[1] * left, from[1] - d[0] * left]
    };
    match way {
        PushWay::Back => away_from(world, from, by, numbers.push_yards),
        PushWay::Left => away_from(world, from, behind(1.0), numbers.push_side_yards),
        PushWay::Right => away_from(world, from, behind(-1.0), numbers.push_side_yards),
    }
}

/// Knocks the weapon in `t`'s hand 3 yards away from `by`; the hand is useless until its next turn.
pub fn disarm(world: &mut World, by: Entity, t: Entity) {
    add(world, t, Condition::Disarmed);
    drop_weapon(world, t, Some(by));
}

/// The weapon in `t`'s hand falls: 3 yards away from `by`, or at its feet.
pub fn drop_weapon(world: &mut World, t: Entity, by: Option<Entity>) {
    let Some(w) = world.get::<Fighter>(t).and_then(|f| f.wielding) else { return };
    let yards = world.resource::<Battle>().rules.numbers.disarm_yards;
    let at = match by {
        Some(b) => away_from(world, position(world, t), position(world, b), yards),
        None => position(world, t),
    };
    if let Some(mut f) = world.get_mut::<Fighter>(t) {
        f.wielding = None;
        if let Some(l) = f.lost.get_mut(w) {
            *l = true;
        }
    }
    world.resource_mut::<Battle>().dropped.push(Dropped { owner: t, weapon: w, at });
    let what = world.get::<Fighter>(t).map(|f| f.sheet.weapons[w].id.clone()).unwrap_or_default();
    let who = id(world, t);
    world.resource_mut::<GameLog>().about(
        &who,
        LogEvent::Effect { what: "dropped", detail: format!("{what} at ({:.1}, {:.1})", at[0], at[1]) },
    );
}

/// The victim `e` holds in a chokehold, if any.
pub fn holding(world: &World, e: Entity) -> Option<Entity> {
    world.resource::<Battle>().chokes.iter().find(|c| c.holder == e).map(|c| c.victim)
}

/// Who chokes `e`, if anyone.
pub fn choked_by(world: &World, e: Entity) -> Option<Entity> {
    world.resource::<Battle>().chokes.iter().find(|c| c.victim == e).map(|c| c.holder)
}

/// Lets go of every chokehold `e` keeps.
pub fn release_held_by(world: &mut World, e: Entity, why: &str) {
    let gone: Vec<Entity> =
        world.resource::<Battle>().chokes.iter().filter(|c| c.holder == e).map(|c| c.victim).collect();
    for victim in gone {
        release(world, e, victim, why);
    }
}

/// Lets go of every chokehold `e` is in, held or holding.
pub fn release_all(world: &mut World, e: Entity) {
    release_held_by(world, e, "the holder is down");
    if let Some(holder) = choked_by(world, e) {
        release(world, holder, e, "the victim is down");
    }
}

/// Ends a chokehold.
pub fn release(world: &mut World, holder: Entity, victim: Entity, why: &str) {
    world.resource_mut::<Battle>().chokes.retain(|c| !(c.holder == holder && c.victim == victim));
    remove(world, victim, Condition::Choked);
    let who = id(world, holder);
    world
        .resource_mut::<GameLog>()
        .about(&who, LogEvent::Effect { what: "chokehold_released", detail: why.to_owned() });
}

/// Checks keeping a chokehold up: the holder's turn, 3 AP, not kept yet this turn.
pub fn check_keep(world: &World, e: Entity) -> Verdict {
    let choke = world.resource::<Battle>().chokes.iter().find(|c| c.holder == e).copied();
    let Some(choke) = choke else { return Err(Rejection::new("no chokehold to keep")) };
    if choke.kept {
        return Err(Rejection::new("the chokehold is kept already this turn"));
    }
    let ap = world.get::<Fighter>(e).map_or(0, |f| f.ap);
    if ap < 3 {
        return Err(Rejection::new(format!("keeping a chokehold costs 3 AP; {ap} left")));
    }
    Ok(())
}

/// Keeps the chokehold up: 3 AP, the victim takes 1d10 + [BB] Peril; a new cause to escape.
pub fn keep(world: &mut World, e: Entity) {
    let cause = world.resource_mut::<Battle>().cause();
    let victim = {
        let mut battle = world.resource_mut::<Battle>();
        let Some(c) = battle.chokes.iter_mut().find(|c| c.holder == e) else { return };
        c.kept = true;
        c.cause = cause;
        c.victim
    };
    let bb = world.get::<Fighter>(e).map_or(0, |f| f.sheet.bonus(Attribute::Brawn));
    if let Some(mut f) = world.get_mut::<Fighter>(e) {
        f.ap = f.ap.saturating_sub(3);
    }
    let peril = roll(world, Some(e), "chokehold Peril", 1, 10, bb as i64);
    harm(world, victim, peril, Harm::Peril, Some(e), "chokehold");
}

/// Checks a choked victim's escape: its turn, not missed against this hold yet.
pub fn check_escape(world: &World, e: Entity) -> Verdict {
    let battle = world.resource::<Battle>();
    let Some(choke) = battle.chokes.iter().find(|c| c.victim == e) else {
        return Err(Rejection::new("not choked"));
    };
    if world.get::<Fighter>(e).is_some_and(|f| f.missed.contains(&(choke.cause, Reaction::Resist))) {
        return Err(Rejection::new(
            "the Resist was missed against this hold: not tried again until it is kept anew",
        ));
    }
    Ok(())
}

/// A choked victim's Resist (Athletics) to escape.
pub fn escape(world: &mut World, e: Entity) {
    let Some(choke) = world.resource::<Battle>().chokes.iter().find(|c| c.victim == e).copied() else {
        return;
    };
    let r = test(world, e, "Resist the chokehold", Some(Skill::Athletics), None, Vec::new(), Flip::None);
    if r.critical_success() {
        steady(world, e);
    }
    if r.success {
        release(world, choke.holder, e, "the victim broke free");
    } else if let Some(mut f) = world.get_mut::<Fighter>(e) {
        f.missed.push((choke.cause, Reaction::Resist));
    }
}
