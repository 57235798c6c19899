//! Attacks: checking one (reach, range steps, engagement, cover, AP), its modifiers (the
//! standard attack modifiers table), the roll with its critical success (the defender left
//! Defenseless) and failure (Peril, or a fumble on a Chaos Die 6), opportunity attacks, the
//! defender's reaction (dodge, parry, counterspell; a critical keeps the AP; a miss is not
//! tried again against the same cause), and damage and Peril against their thresholds.

use bevy_ecs::prelude::*;
use fray_core::dice::Modifier;
use fray_core::intent::{Rejection, Verdict};
use fray_core::log::{GameLog, LogEvent, Source};
use fray_core::prelude::{Rides, Status};
use fray_core::table::{can_act, enemies, id, name, set_status};

use crate::conditions::{add, remove};
use crate::data::{
    AreaKind, Attribute, Condition, CoverLevel, Quality, Reaction, Skill, WeaponKind, WeaponSize,
};
use crate::dice::{Flip, Said, any_condition, fury, roll, test};
use crate::field::{allies, between, cover_level, engaged_at, engaged_foes, in_area, position};
use crate::injuries::Blow;
use crate::intent::Aim;
use crate::phase::{Battle, DAMAGE_TRACK, Fighter, PERIL_TRACK, PendingAttack, Strike};

/// An attack checked and ready: everything its roll and its damage need.
#[derive(Clone, Debug, PartialEq)]
pub struct AttackPlan {
    /// The target.
    pub target: Entity,
    /// What strikes.
    pub strike: Strike,
    /// AP it costs.
    pub ap: u32,
    /// The skill tested.
    pub skill: Skill,
    /// Every modifier of the roll.
    pub modifiers: Vec<Modifier>,
    /// Fury Dice in its damage.
    pub fury: u32,
    /// Reactions the defender may use.
    pub allowed: Vec<Reaction>,
    /// Fast or Slow on the defender's reaction.
    pub defence_mod: i32,
    /// Artillery: the reaction flips to fail.
    pub flip_defence: bool,
    /// All-out Chaos Dice.
    pub all_out: u32,
    /// A called shot's location.
    pub called: Option<Aim>,
    /// Ranged (cover counts).
    pub ranged: bool,
    /// A spell.
    pub spell: bool,
    /// An opportunity attack.
    pub opportunity: bool,
    /// An ally of the attacker engaged with the target (fired into an engagement).
    pub into_ally: Option<Entity>,
    /// Aimed at the target's mount.
    pub at_mount: bool,
    /// The weapon size's difficulty ignored for a Chaos Die.
    pub pressed: bool,
}

/// The weapon `e` strikes with (none: fists), usable now.
fn in_hand(world: &World, e: Entity) -> Option<usize> {
    let f = world.get::<Fighter>(e)?;
    f.wielding.filter(|&w| !f.lost.get(w).copied().unwrap_or(true) && !f.has(Condition::Disarmed))
}

/// Whether `e` has a Reach weapon in hand.
pub fn wields_reach(world: &World, e: Entity) -> bool {
    world
        .get::<Fighter>(e)
        .and_then(|f| in_hand(world, e).and_then(|w| f.sheet.weapons.get(w)))
        .is_some_and(|w| w.size == WeaponSize::Reach)
}

/// Whether `e` may strike `t` in melee from where they stand (Reach: a yard farther).
pub fn in_melee_reach(world: &World, e: Entity, t: Entity) -> bool {
    let reach = world
        .get::<Fighter>(e)
        .and_then(|f| in_hand(world, e).and_then(|w| f.sheet.weapons.get(w)))
        .filter(|w| w.size == WeaponSize::Reach)
        .map_or_else(|| crate::field::engagement(world), |_| world.resource::<Battle>().rules.numbers.reach);
    between(world, e, t) <= reach + crate::field::EPS
}

/// The distance step of a ranged attack: 0 short, 1 medium, 2 long, 3 extreme; none beyond.
pub fn range_step(yards: f32, short: f32) -> Option<u32> {
    (0..4).find(|&s| yards <= short * (s + 1) as f32 + crate::field::EPS)
}

const STEP_NAMES: [&str; 4] = ["short range", "medium range", "long range", "extreme range"];

/// Checks an attack by `e` on `t` with the weapon in hand, and plans it.
pub fn plan_attack(
    world: &World,
    e: Entity,
    t: Entity,
    called: Option<Aim>,
    all_out: u32,
    punishing: bool,
) -> Verdict<AttackPlan> {
    plan_strike(world, e, t, called, all_out, punishing, false)
}

/// Plans a strike; a `free` one (an opportunity attack) costs no AP.
fn plan_strike(
    world: &World,
    e: Entity,
    t: Entity,
    called: Option<Aim>,
    all_out: u32,
    punishing: bool,
    free: bool,
) -> Verdict<AttackPlan> {
    let f = world.get::<Fighter>(e).ok_or_else(|| Rejection::new("not a combatant"))?;
    if !enemies(world, e, t) || !can_act(world, t) && world.get::<Status>(t) != Some(&Status::Unconscious) {
        return Err(Rejection::new(format!("{} is not a foe in the fight", name(world, t))));
    }
    if world.get::<Status>(t).is_some_and(|s| *s == Status::Dead || *s == Status::Fled) {
        return Err(Rejection::new(format!("{} is out of the fight", name(world, t))));
    }
    if all_out > 3 {
        return Err(Rejection::new("all-out adds at most +30: three Chaos Dice"));
    }
    let w = in_hand(world, e);
    let weapon = w.and_then(|w| f.sheet.weapons.get(w));
    let kind = weapon.map_or(WeaponKind::Melee, |w| w.kind);
    let what = weapon.map_or("fists", |w| w.name.as_str());
    let mut ap = match kind {
        WeaponKind::Spell { ap } => ap,
        _ => 1,
    };
    if called.is_some() {
        ap = ap.max(2);
    }
    let punishing_ok = weapon.is_some_and(|w| w.has(Quality::Punishing));
    if punishing && !punishing_ok {
        return Err(Rejection::new(format!("{what} is not Punishing")));
    }
    if punishing {
        ap += 1;
    }
    if free {
        ap = 0;
    }
    if f.ap < ap {
        return Err(Rejection::new(format!("it costs {ap} AP; {} left", f.ap)));
    }
    let there = position(world, t);
    let yards = between(world, e, t);
    let mut modifiers = Vec::new();
    let mut fury_dice = 1;
    let mut allowed = vec![Reaction::Dodge, Reaction::Parry];
    let mut into_ally = None;
    let ranged = matches!(kind, WeaponKind::Ranged | WeaponKind::Thrown);
    let spell = matches!(kind, WeaponKind::Spell { .. });
    let tf = world.get::<Fighter>(t).ok_or_else(|| Rejection::new("not a combatant"))?;
    match kind {
        WeaponKind::Melee => {
            if !in_melee_reach(world, e, t) {
                return Err(Rejection::new(format!(
                    "{} is {yards:.1} yards away: out of reach of {what}",
                    name(world, t)
                )));
            }
        }
        WeaponKind::Ranged | WeaponKind::Thrown | WeaponKind::Spell { .. } => {
            let weapon = weapon.ok_or_else(|| Rejection::new("nothing to shoot with"))?;
            let engaged = !engaged_foes(world, e).is_empty();
            let may_engaged = weapon.has(Quality::Gunpowder) || weapon.has(Quality::Artillery) || spell;
            if engaged && !may_engaged {
                return Err(Rejection::new(format!(
                    "{} is engaged: no ranged attack but with a Gunpowder weapon",
                    name(world, e)
                )));
            }
            if tf.has(Condition::Unseen) && yards > crate::field::engagement(world) + crate::field::EPS {
                return Err(Rejection::new(format!(
                    "{} sneaks unseen: no shot at it from {yards:.1} yards (close in to find it)",
                    name(world, t)
                )));
            }
            if weapon.load > 0 && f.loaded.get(w.unwrap_or(0)).copied().unwrap_or(0) == 0 {
                return Err(Rejection::new(format!("{what} is not loaded: load it first")));
            }
            if tf.cover.is_some() && cover_level(world, t) == Some(CoverLevel::Full) && !spell {
                return Err(Rejection::new(format!(
                    "{} is in full cover: it cannot be targeted",
                    name(world, t)
                )));
            }
            let short = weapon.range.max(1.0);
            let Some(step) = range_step(yards, short) else {
                return Err(Rejection::new(format!(
                    "{} is {yards:.1} yards away: beyond extreme range ({:.0} yards)",
                    name(world, t),
                    short * 4.0
                )));
            };
            let short_only = kind == WeaponKind::Thrown || weapon.has(Quality::Throwing);
            if short_only && step > 0 {
                return Err(Rejection::new(format!(
                    "{what} is thrown at short range only ({short:.0} yards); {} is {yards:.1} away",
                    name(world, t)
                )));
            }
            if step > 0 && in_area(world, position(world, e), AreaKind::Smoke) {
                return Err(Rejection::new(format!(
                    "{} is in the smoke: no shot beyond short range ({short:.0} yards)",
                    name(world, e)
                )));
            }
            if step > 0 {
                modifiers.push(Modifier::new(STEP_NAMES[step as usize], -10 * step as i64));
            }
            if step == 3 {
                fury_dice = 0;
            }
            if world.get::<Rides>(e).is_some() && !spell {
                modifiers.push(Modifier::new("fired from horseback", -10));
            }
            into_ally = allies(world, e).into_iter().find(|&a| engaged_at(world, position(world, a), there));
            if into_ally.is_some() {
                modifiers.push(Modifier::new("fired into an engagement with an ally", -20));
            }
            allowed = if spell {
                vec![Reaction::Counterspell, Reaction::Dodge]
            } else {
                vec![Reaction::Dodge, Reaction::Parry]
            };
        }
    }
    if let Some(aim) = called {
        modifiers.push(Modifier::new(format!("called shot: {}", aim.word()), aim.modifier()));
        allowed.retain(|r| *r == Reaction::Counterspell);
    }
    if weapon.is_some_and(|w| w.has(Quality::Gunpowder)) {
        allowed.clear();
    }
    if weapon.is_some_and(|w| w.has(Quality::MakersMark)) {
        modifiers.push(Modifier::new("maker's mark", 5));
    }
    if all_out > 0 {
        modifiers.push(Modifier::new("all-out", 10 * all_out as i64));
    }
    if f.aim > 0 {
        modifiers.push(Modifier::new("aim", f.aim as i64));
    }
    if spell && f.channel {
        modifiers.push(Modifier::new("channelled power", 10));
    }
    if spell && f.sheet.armour.qualities.contains(&Quality::Heavy) {
        return Err(Rejection::new("heavy armour forbids Incantation"));
    }
    situation(
        world,
        e,
        t,
        kind,
        weapon.map_or(WeaponSize::Personal, |w| {
            if w.has(Quality::Personal) { WeaponSize::Personal } else { w.size }
        }),
        &mut modifiers,
    );
    // Fury Dice: the situation's extras.
    if fury_dice > 0 {
        // The ambushers' extra Fury Die is the Surprised condition's: it is counted with the
        // target's conditions when the damage is rolled (RULES.md).
        if kind == WeaponKind::Melee && f.charged {
            fury_dice += 1;
        }
        if world.get::<Rides>(e).is_some() {
            fury_dice += 1;
        }
        if kind == WeaponKind::Melee && outnumbered(world, e, t) {
            fury_dice += 1;
        }
        fury_dice += f.sheet.size.saturating_sub(1).min(2);
        if punishing {
            fury_dice += 1;
        }
    }
    let defence_mod = weapon.map_or(0, |w| {
        if w.has(Quality::Fast) {
            -10
        } else if w.has(Quality::Slow) {
            10
        } else {
            0
        }
    });
    let skill = weapon.map_or(Skill::SimpleMelee, |w| w.skill);
    Ok(AttackPlan {
        target: t,
        strike: Strike::Weapon(w),
        ap,
        skill,
        modifiers,
        fury: fury_dice,
        allowed,
        defence_mod,
        flip_defence: weapon.is_some_and(|w| w.has(Quality::Artillery)),
        all_out,
        called,
        ranged,
        spell,
        opportunity: false,
        into_ally,
        at_mount: false,
        pressed: false,
    })
}

/// The modifiers a weapon's size brings in a cramped space or a crowded engagement.
const SIZE_DIFFICULTIES: [&str; 3] = ["cramped space", "ally in the engagement", "adjacent space cramped"];

/// `plan` with its weapon size's difficulty ignored for a Chaos Die (a 6 fumbles); refused
/// when its weapon meets none.
pub fn pressed(mut plan: AttackPlan) -> Verdict<AttackPlan> {
    let before = plan.modifiers.len();
    plan.modifiers.retain(|m| !SIZE_DIFFICULTIES.contains(&m.what.as_str()));
    if plan.modifiers.len() == before {
        return Err(Rejection::new("no difficulty from the weapon's size to ignore here"));
    }
    plan.pressed = true;
    Ok(plan)
}

/// Checks a blow by `e` at the mount `rider` rides, as an attack on the rider would be (reach,
/// range, AP, modifiers), and plans it: no called shot, and a mount does not react.
pub fn plan_mount_attack(world: &World, e: Entity, rider: Entity) -> Verdict<AttackPlan> {
    crate::mounts::check_target(world, rider)?;
    let mut plan = plan_attack(world, e, rider, None, 0, false)?;
    plan.allowed.clear();
    plan.at_mount = true;
    Ok(plan)
}

/// The situational modifiers: position, situation, visibility, weapon size, size.
fn situation(
    world: &World,
    e: Entity,
    t: Entity,
    kind: WeaponKind,
    size: WeaponSize,
    modifiers: &mut Vec<Modifier>,
) {
    let (at, there) = (position(world, e), position(world, t));
    let Some(tf) = world.get::<Fighter>(t) else { return };
    let Some(f) = world.get::<Fighter>(e) else { return };
    if tf.has(Condition::Surprised) {
        modifiers.push(Modifier::new("surprised foe", 20));
    }
    if tf.has(Condition::Prone) {
        modifiers.push(Modifier::new("prone foe", 30));
    }
    if in_area(world, at, AreaKind::High) && !in_area(world, there, AreaKind::High) {
        modifiers.push(Modifier::new("higher ground", 10));
    }
    if kind == WeaponKind::Melee {
        let mine = engaged_foes(world, t).len();
        let theirs =
            allies(world, t).into_iter().filter(|&a| engaged_at(world, position(world, a), there)).count();
        if mine >= 2 && mine > theirs + 1 {
            modifiers.push(Modifier::new("flanking an outnumbered foe", 10));
        }
    }
    if in_area(world, at, AreaKind::Dark) || in_area(world, there, AreaKind::Dark) {
        modifiers.push(Modifier::new("darkness", -30));
    } else if [AreaKind::Fog, AreaKind::Smoke, AreaKind::Gas]
        .into_iter()
        .any(|k| in_area(world, at, k) || in_area(world, there, k))
    {
        modifiers.push(Modifier::new("bad visibility", -10));
    }
    if f.has(Condition::Blinded) {
        modifiers.push(Modifier::new("blinded", -30));
    }
    if kind == WeaponKind::Melee {
        if size >= WeaponSize::Regular && in_area(world, at, AreaKind::Cramped) {
            modifiers.push(Modifier::new("cramped space", -10));
        }
        let ally_engaged = allies(world, e).into_iter().any(|a| engaged_at(world, position(world, a), there));
        if size >= WeaponSize::Long && ally_engaged {
            modifiers.push(Modifier::new("ally in the engagement", -10));
        }
        if size == WeaponSize::Reach && in_area(world, there, AreaKind::Cramped) {
            modifiers.push(Modifier::new("adjacent space cramped", -10));
        }
    }
    let (mine, theirs) = (f.sheet.size as i64, tf.sheet.size as i64);
    if theirs != mine {
        modifiers.push(Modifier::new("size", 10 * (theirs - mine)));
    }
}

/// Outnumbered 6 to 1 or more: foes engaged with `t` against `t` and its engaged allies.
fn outnumbered(world: &World, e: Entity, t: Entity) -> bool {
    let there = position(world, t);
    let foes = engaged_foes(world, t).len();
    let friends =
        1 + allies(world, t).into_iter().filter(|&a| engaged_at(world, position(world, a), there)).count();
    let larger = world.get::<Fighter>(t).map_or(1, |f| f.sheet.size)
        > world.get::<Fighter>(e).map_or(1, |f| f.sheet.size);
    foes >= 6 * friends && !larger
}

/// Makes a planned attack: pays, rolls, and leaves the hit waiting on a reaction (or lands it);
/// a Recoil weapon then kicks its wielder.
pub fn attack(world: &mut World, e: Entity, plan: AttackPlan) {
    let kicks = match plan.strike {
        Strike::Weapon(Some(w)) => world
            .get::<Fighter>(e)
            .and_then(|f| f.sheet.weapons.get(w))
            .is_some_and(|w| w.has(Quality::Recoil)),
        _ => false,
    };
    let target = plan.target;
    strike(world, e, plan);
    if kicks {
        recoil(world, e, target);
    }
}

/// A Recoil weapon fired: its wielder resists with Toughness or is shoved out of the
/// engagement (away from its target); a critical failure injures its arm as badly as it is
/// wounded now (none while lightly wounded or unharmed).
fn recoil(world: &mut World, e: Entity, t: Entity) {
    if !can_act(world, e) {
        return;
    }
    let r = test(world, e, "Resist Recoil", Some(Skill::Toughness), None, Vec::new(), Flip::None);
    if r.success {
        return;
    }
    if !engaged_foes(world, e).is_empty() {
        crate::stunts::shove(world, t, e);
    }
    if r.critical_failure()
        && let Some(severity) = world.get::<Fighter>(e).and_then(|f| crate::data::Severity::of_step(f.damage))
    {
        crate::injuries::injure(world, e, severity, Aim::Arms, false, true);
    }
}

/// Rolls a planned attack once paid (see [`attack`]).
fn strike(world: &mut World, e: Entity, plan: AttackPlan) {
    // A strike shows the striker, and a sneak struck has been found.
    crate::conditions::remove(world, e, Condition::Unseen);
    crate::conditions::remove(world, plan.target, Condition::Unseen);
    if let Some(mut f) = world.get_mut::<Fighter>(e) {
        f.ap = f.ap.saturating_sub(plan.ap);
        f.aim = 0;
        if plan.spell {
            f.channel = false;
        }
        if let Strike::Weapon(Some(w)) = plan.strike
            && f.sheet.weapons.get(w).is_some_and(|w| w.load > 0)
            && let Some(l) = f.loaded.get_mut(w)
        {
            *l = l.saturating_sub(1);
        }
    }
    let t = plan.target;
    let cloud = match plan.strike {
        Strike::Weapon(Some(w)) => {
            world.get::<Fighter>(e).and_then(|f| f.sheet.weapons.get(w)).and_then(|w| {
                if w.has(Quality::Smoke) {
                    Some(AreaKind::Smoke)
                } else if w.has(Quality::Gas) {
                    Some(AreaKind::Gas)
                } else {
                    None
                }
            })
        }
        _ => None,
    };
    if let (Some(kind), Strike::Weapon(Some(w))) = (cloud, plan.strike) {
        cloud_burst(world, e, w, t, kind);
        return;
    }
    // A helpless foe is slain by an automatic hit.
    if !plan.at_mount
        && world.get::<Fighter>(t).is_some_and(|tf| any_condition(world, tf, |r| r.slain_by_attack))
    {
        let subdue = world.get::<Fighter>(e).is_some_and(|f| f.subdue);
        let who = id(world, t);
        let detail = format!("struck by {} without a roll", name(world, e));
        world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what: "helpless_struck", detail });
        if let Some(mut f) = world.get_mut::<Fighter>(e) {
            f.subdue = false;
            f.charged = false;
        }
        let steps = 5u32.saturating_sub(world.get::<Fighter>(t).map_or(0, |f| f.damage));
        wound(world, t, steps, subdue, Some(e), &source(world, e, plan.strike));
        return;
    }
    let mut chaos_six = false;
    for _ in 0..plan.all_out {
        chaos_six |= crate::dice::chaos(world, Some(e), "all-out Chaos Die") == 6;
    }
    if plan.pressed {
        chaos_six |= crate::dice::chaos(world, Some(e), "Chaos Die for the weapon's size") == 6;
    }
    let what = format!("attack on {}", name(world, t));
    let said = Said::told(&what, format!("{} attacks {}", name(world, e), name(world, t)));
    let t_roll = test(world, e, said, Some(plan.skill), None, plan.modifiers.clone(), Flip::None);
    let difficulty: i32 = plan.modifiers.iter().filter(|m| m.what != "aim").map(|m| m.value as i32).sum();
    if !t_roll.success {
        if let Some(mut f) = world.get_mut::<Fighter>(e) {
            f.charged = false;
            f.subdue = false;
        }
        let who = id(world, e);
        let detail = id(world, t).to_string();
        world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what: "missed", detail });
        if t_roll.critical_failure() {
            critical_failure(world, e, &plan, chaos_six);
        } else if chaos_six {
            crate::fumble::fumble(world, e, Some(t), false);
        }
        return;
    }
    if t_roll.critical_success() && !plan.at_mount {
        add(world, t, Condition::Defenseless);
    }
    let location = match plan.called {
        Some(a) => a.word(),
        None => hit_location(roll(world, Some(e), where_it_lands(world, e, t), 1, 10, 0)),
    };
    let cause = world.resource_mut::<Battle>().cause();
    let mut less = false;
    if chaos_six {
        less = crate::fumble::fumble(world, e, Some(t), true).less;
    }
    let pending = PendingAttack {
        allowed: plan.allowed.clone(),
        difficulty,
        defence_mod: plan.defence_mod,
        flip_defence: plan.flip_defence,
        fury: plan.fury,
        subdue: world.get::<Fighter>(e).is_some_and(|f| f.subdue),
        ranged: plan.ranged,
        less,
        at_mount: plan.at_mount,
        ..PendingAttack::new(cause, e, t, plan.strike, location)
    };
    if let Some(mut f) = world.get_mut::<Fighter>(e) {
        f.charged = false;
        f.subdue = false;
    }
    ask_or_land(world, pending);
}

/// A hit of `strike` by `attacker` on `defender` that no reaction answers yet, where it lands
/// rolled on a d10: every hit rolls its location (a shot striking an ally, a fumble's blow).
pub fn rolled_hit(world: &mut World, attacker: Entity, defender: Entity, strike: Strike) -> PendingAttack {
    let location =
        hit_location(roll(world, Some(attacker), where_it_lands(world, attacker, defender), 1, 10, 0));
    let cause = world.resource_mut::<Battle>().cause();
    PendingAttack::new(cause, attacker, defender, strike, location)
}

/// The hit location by a d10.
pub fn hit_location(d10: u32) -> &'static str {
    match d10 {
        1 => "head",
        2..=4 => "arms",
        5..=8 => "body",
        _ => "legs",
    }
}

/// A critical failure: a Chaos Die; on a 6 (or when an all-out or pressing Chaos Die showed one
/// already: `fumbles`) the fumble table, else 2d10+2 physical Peril; a shot into an engagement
/// strikes the ally there.
fn critical_failure(world: &mut World, e: Entity, plan: &AttackPlan, fumbles: bool) {
    if let Some(ally) = plan.into_ally.filter(|_| plan.ranged) {
        let who = id(world, ally);
        let detail = format!("{}'s shot", id(world, e));
        world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what: "struck_by_ally", detail });
        let pending =
            PendingAttack { fury: plan.fury, ranged: true, ..rolled_hit(world, e, ally, plan.strike) };
        land(world, &pending);
    }
    if fumbles || crate::dice::chaos(world, Some(e), "critical failure Chaos Die") == 6 {
        crate::fumble::fumble(world, e, Some(plan.target), false);
    } else {
        let peril = roll(world, Some(e), "critical failure Peril", 2, 10, 2);
        harm(world, e, peril, Harm::Peril, None, "critical failure");
    }
    if let Strike::Weapon(Some(w)) = plan.strike {
        volatile(world, e, w);
    }
}

/// After a critical failure with a Volatile weapon, its own Chaos Die: 1 to 5 it misfires and
/// is useless for the rest of the fight (its repair takes an hour); 6 it explodes in its
/// wielder's hands, 2d10+2 damage that nothing answers, and is gone.
pub fn volatile(world: &mut World, e: Entity, w: usize) {
    let Some(name) = world
        .get::<Fighter>(e)
        .and_then(|f| f.sheet.weapons.get(w))
        .filter(|x| x.has(Quality::Volatile))
        .map(|x| x.name.clone())
    else {
        return;
    };
    let explodes = crate::dice::chaos(world, Some(e), "Volatile Chaos Die") == 6;
    if let Some(mut f) = world.get_mut::<Fighter>(e) {
        f.lost[w] = true;
        f.ruined[w] |= explodes;
        if f.wielding == Some(w) {
            f.wielding = None;
        }
    }
    let who = id(world, e);
    let detail = if explodes {
        format!("{name} explodes")
    } else {
        format!("{name} misfires: useless until repaired")
    };
    world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what: "volatile", detail });
    if explodes {
        let total = roll(world, Some(e), "Volatile explosion", 2, 10, 2);
        harm(world, e, total, Harm::Damage { ranged: false, subdue: false }, None, "explosion");
    }
}

/// Asks the defender for a reaction if it has one it may use now; else lands the hit.
pub fn ask_or_land(world: &mut World, pending: PendingAttack) {
    let can = reactions(world, &pending).iter().any(|(_, v)| v.is_ok());
    if can {
        world.resource_mut::<Battle>().pending = Some(pending);
    } else {
        land(world, &pending);
    }
}

/// Every reaction against `p` with its verdict and the defender's chance.
pub fn reactions(world: &World, p: &PendingAttack) -> Vec<(Reaction, Verdict<i32>)> {
    let d = p.defender;
    let Some(f) = world.get::<Fighter>(d) else { return Vec::new() };
    [Reaction::Dodge, Reaction::Parry, Reaction::Counterspell]
        .into_iter()
        .filter(|r| p.allowed.contains(r))
        .map(|r| (r, reaction_chance(world, d, p, r, f)))
        .collect()
}

/// [`reactions`] with the chance as the roll will take it: the defender's peril and injuries
/// counted, clamped to 1–99.
pub fn odds(world: &World, p: &PendingAttack) -> Vec<(Reaction, Verdict<i32>)> {
    let Some(f) = world.get::<Fighter>(p.defender) else { return Vec::new() };
    reactions(world, p)
        .into_iter()
        .map(|(r, v)| {
            let standing = crate::dice::standing_sum(f, Some(reaction_skill(world, p.defender, r)));
            (r, v.map(|c| (c + standing).clamp(1, 99)))
        })
        .collect()
}

/// Whether `d`'s armour lets it dodge: Heavy armour does not, unless a Flexible weapon in
/// hand dodges by Athletics.
pub fn may_dodge(world: &World, d: Entity) -> bool {
    let Some(f) = world.get::<Fighter>(d) else { return false };
    let flexible =
        in_hand(world, d).and_then(|w| f.sheet.weapons.get(w)).is_some_and(|w| w.has(Quality::Flexible));
    !f.sheet.armour.qualities.contains(&Quality::Heavy) || flexible
}

fn reaction_chance(world: &World, d: Entity, p: &PendingAttack, r: Reaction, f: &Fighter) -> Verdict<i32> {
    let tables = &world.resource::<Battle>().tables;
    if !can_act(world, d) {
        return Err(Rejection::new("out of the fight"));
    }
    if let Some(c) = f
        .conditions
        .keys()
        .find(|c| tables.condition(**c).is_some_and(|row| row.no_reactions || row.blocks.contains(&r)))
    {
        let label = tables.condition(*c).map_or("", |row| row.label.as_str());
        return Err(Rejection::new(format!("{}: no {}", label, r.word())));
    }
    if f.missed.contains(&(p.cause, r)) {
        return Err(Rejection::new(format!("{} was missed against this attack: not tried again", r.word())));
    }
    if f.ap < 1 {
        return Err(Rejection::new(format!("{} costs 1 AP; none left", r.word())));
    }
    let weapon = in_hand(world, d).and_then(|w| f.sheet.weapons.get(w));
    // The attack's modifiers, size among them, turned the other way (RULES.md).
    let base = -p.difficulty + p.defence_mod;
    match r {
        Reaction::Dodge => {
            let flexible = weapon.is_some_and(|w| w.has(Quality::Flexible));
            if !may_dodge(world, d) {
                return Err(Rejection::new("heavy armour: no Coordination to Dodge"));
            }
            let skill = if flexible { Skill::Athletics } else { Skill::Coordination };
            let natural = if weapon.is_some_and(|w| w.has(Quality::Natural)) { 10 } else { 0 };
            Ok(f.sheet.chance(skill) + base + natural)
        }
        Reaction::Parry => {
            let Some(w) = in_hand(world, d) else {
                return Err(Rejection::new("parrying needs a weapon in hand"));
            };
            let weapon = &f.sheet.weapons[w];
            if !weapon.melee() {
                return Err(Rejection::new(format!("{} cannot parry", weapon.name)));
            }
            if weapon.has(Quality::FreeStanding) {
                return Err(Rejection::new(format!("{} is useless until fixed on the ground", weapon.name)));
            }
            let shielded = crate::specials::behind_fixed_shield(world, d);
            if p.ranged && !weapon.has(Quality::Protective) && !shielded {
                return Err(Rejection::new(
                    "only a Protective weapon (or the one person behind a fixed shield) parries a ranged attack",
                ));
            }
            if weapon.shield && f.ruined.get(w).copied().unwrap_or(false) {
                return Err(Rejection::new(format!("{} is Ruined!: it cannot parry", weapon.name)));
            }
            let defensive = if weapon.has(Quality::Defensive) { 10 } else { 0 };
            Ok(f.sheet.chance(weapon.skill) + base + defensive)
        }
        Reaction::Counterspell => {
            if !f.sheet.counterspell {
                return Err(Rejection::new("does not know Counterspell"));
            }
            if f.sheet.armour.qualities.contains(&Quality::Heavy) {
                return Err(Rejection::new("heavy armour forbids Incantation"));
            }
            Ok(f.sheet.chance(Skill::Incantation) - p.difficulty)
        }
        Reaction::Resist => Err(Rejection::new("resisting answers a stunt, not an attack")),
    }
}

/// The skill `d` reacts with: Coordination (Athletics with a Flexible weapon) to Dodge, the
/// weapon's to Parry, Incantation to Counterspell, Toughness to Resist.
pub fn reaction_skill(world: &World, d: Entity, r: Reaction) -> Skill {
    let weapon = world.get::<Fighter>(d).and_then(|f| in_hand(world, d).and_then(|w| f.sheet.weapons.get(w)));
    match r {
        Reaction::Dodge if weapon.is_some_and(|w| w.has(Quality::Flexible)) => Skill::Athletics,
        Reaction::Dodge => Skill::Coordination,
        Reaction::Parry => weapon.map_or(Skill::SimpleMelee, |w| w.skill),
        Reaction::Counterspell => Skill::Incantation,
        Reaction::Resist => Skill::Toughness,
    }
}

/// The defender reacts: 1 AP (none on a critical success); a success avoids all damage; a
/// miss is noted against this cause, and the defender is asked again if it can still react.
pub fn react(world: &mut World, d: Entity, r: Reaction) {
    let Some(p) = world.resource_mut::<Battle>().pending.take() else { return };
    let chance =
        reactions(world, &p).into_iter().find(|(x, _)| *x == r).and_then(|(_, v)| v.ok()).unwrap_or(0);
    let skill = reaction_skill(world, d, r);
    let flip = if p.flip_defence { Flip::ToFail } else { Flip::None };
    let told = format!("{} reacts to {}'s attack: {}", name(world, d), name(world, p.attacker), r.word());
    let t = test(world, d, Said::told(r.word(), told), Some(skill), Some(chance), Vec::new(), flip);
    if !t.critical_success()
        && let Some(mut f) = world.get_mut::<Fighter>(d)
    {
        f.ap = f.ap.saturating_sub(1);
    }
    let who = id(world, d);
    if t.success {
        let detail = format!(
            "{} against {}{}",
            r.word(),
            id(world, p.attacker),
            if t.critical { ", critical: no AP spent" } else { "" }
        );
        world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what: "avoided", detail });
        if r == Reaction::Parry {
            breaker(world, d, &p);
        }
        return;
    }
    if let Some(mut f) = world.get_mut::<Fighter>(d) {
        f.missed.push((p.cause, r));
    }
    world
        .resource_mut::<GameLog>()
        .about(&who, LogEvent::Effect { what: "reaction_missed", detail: r.word().to_owned() });
    ask_or_land(world, p);
}

/// Who else a hit of `w` on `t` harms: everyone in a Detonate or Siege circle around `t`
/// (the wielder too, when it stands there), the wielder's foes in a Shrapnel cone through `t`.
fn caught(world: &World, e: Entity, t: Entity, w: &crate::data::Weapon) -> Vec<Entity> {
    let numbers = &world.resource::<Battle>().rules.numbers;
    let (from, at) = (position(world, e), position(world, t));
    let within: Box<dyn Fn(Entity, [f32; 2]) -> bool> = if w.has(Quality::Siege) || w.has(Quality::Detonate) {
        let r = if w.has(Quality::Siege) { numbers.explosion } else { numbers.burst };
        Box::new(move |_, p| crate::field::distance(p, at) <= r + crate::field::EPS)
    } else if w.has(Quality::Shrapnel) {
        let (length, start, end) = numbers.cone;
        let foes = crate::field::foes(world, e);
        let len = crate::field::distance(from, at).max(1e-3);
        let dir = [(at[0] - from[0]) / len, (at[1] - from[1]) / len];
        Box::new(move |o, p| {
            let rel = [p[0] - from[0], p[1] - from[1]];
            let along = rel[0] * dir[0] + rel[1] * dir[1];
            let aside = (rel[0] * dir[1] - rel[1] * dir[0]).abs();
            let half = (start + (end - start) * along / length) / 2.0;
            foes.contains(&o) && (0.0..=length).contains(&along) && aside <= half + crate::field::EPS
        })
    } else {
        return Vec::new();
    };
    let order = &world.resource::<fray_core::prelude::TableIndex>().order;
    order
        .iter()
        .copied()
        .filter(|&o| o != t && world.get::<Fighter>(o).is_some())
        .filter(|&o| !world.get::<Status>(o).is_some_and(|s| matches!(s, Status::Dead | Status::Fled)))
        .filter(|&o| within(o, position(world, o)))
        .collect()
}

/// A hit of a blasting weapon (Detonate, Siege, Shrapnel) harms the others it catches, each
/// with its own Fury Dice on the same base, no reaction answering; a blast's injury strikes
/// where a d10 says.
fn blast(world: &mut World, e: Entity, t: Entity, w: &crate::data::Weapon, base: i64, p: &PendingAttack) {
    let victims = caught(world, e, t, w);
    if victims.is_empty() {
        return;
    }
    let src = source(world, e, p.strike);
    let ids: Vec<String> = victims.iter().map(|&v| id(world, v).to_string()).collect();
    let who = id(world, e);
    let detail = format!("{} catches {}", w.name, ids.join(", "));
    world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what: "blast", detail });
    for v in victims {
        let told =
            format!("{}'s {} hits {}: Fury Dice", name(world, e), w.name.to_lowercase(), name(world, v));
        let total = (base + fury(world, Some(e), p.fury, Said::told("Fury Dice", told)) as i64).max(0) as u32;
        let blow = Blow::of(Some(w), None);
        harm_blow(world, v, total, Harm::Damage { ranged: p.ranged, subdue: false }, Some(e), &src, &blow);
    }
}

/// A hit of a burning weapon (`w`, the wielder's weapon `i`): Fiery sets the foe and those
/// engaged with it (the wielder apart) on fire, Immolate and Wytchfyre the foe, each unless it
/// passes Coordination; an Immolate flame is out after its hit; a foe Wytchfyre harmed gains 3
/// Corruption.
fn fire(world: &mut World, e: Entity, t: Entity, w: &crate::data::Weapon, i: usize, harmed: bool) {
    let doused = world.get::<Fighter>(e).is_some_and(|f| f.doused.get(i).copied().unwrap_or(false));
    let mut caught = Vec::new();
    if w.has(Quality::Fiery) {
        caught.push(t);
        let there = position(world, t);
        let order = world.resource::<fray_core::prelude::TableIndex>().order.clone();
        caught.extend(order.into_iter().filter(|&o| {
            o != t
                && o != e
                && can_act(world, o)
                && world.get::<Fighter>(o).is_some()
                && engaged_at(world, position(world, o), there)
        }));
    } else if w.has(Quality::Wytchfyre) || (w.has(Quality::Immolate) && !doused) {
        caught.push(t);
    }
    if w.has(Quality::Immolate)
        && let Some(mut f) = world.get_mut::<Fighter>(e)
        && let Some(d) = f.doused.get_mut(i)
    {
        *d = true;
    }
    if w.has(Quality::Wytchfyre) && harmed {
        if let Some(mut f) = world.get_mut::<Fighter>(t) {
            f.corruption += 3;
        }
        let who = id(world, t);
        world
            .resource_mut::<GameLog>()
            .about(&who, LogEvent::Effect { what: "corruption", detail: "3, Wytchfyre".to_owned() });
    }
    for c in caught {
        if !can_act(world, c) || world.get::<Fighter>(c).is_some_and(|f| f.has(Condition::OnFire)) {
            continue;
        }
        let ok = test(
            world,
            c,
            "Coordination against the flames",
            Some(Skill::Coordination),
            None,
            Vec::new(),
            Flip::None,
        );
        if !ok.success {
            add(world, c, Condition::OnFire);
        }
    }
}

/// The burning one's turn starts: 1d10 + `burn_plus` damage, armour and all.
pub fn burn(world: &mut World, e: Entity) {
    if !world.get::<Fighter>(e).is_some_and(|f| f.has(Condition::OnFire)) {
        return;
    }
    let plus = world.resource::<Battle>().rules.numbers.burn_plus;
    let total = roll(world, Some(e), "burning", 1, 10, plus as i64);
    harm(world, e, total, Harm::Damage { ranged: false, subdue: false }, None, "fire");
}

/// A smoke or gas bomb thrown (or shot) at `t`: used up, it makes no hit; a cloud (an area of
/// `kind` and the burst's radius) comes down around `t` for the rest of the fight. Gas chokes
/// everyone in it at once.
fn cloud_burst(world: &mut World, e: Entity, w: usize, t: Entity, kind: AreaKind) {
    let at = position(world, t);
    let name = world.get::<Fighter>(e).map_or_else(String::new, |f| f.sheet.weapons[w].name.clone());
    if let Some(mut f) = world.get_mut::<Fighter>(e) {
        f.lost[w] = true;
        if f.wielding == Some(w) {
            f.wielding = None;
        }
    }
    let (word, title) = if kind == AreaKind::Gas { ("gas", "Gas") } else { ("smoke", "Smoke") };
    let mut battle = world.resource_mut::<Battle>();
    let n = battle.rules.areas.iter().filter(|a| a.kind == kind).count() + 1;
    let radius = battle.rules.numbers.burst;
    battle.rules.areas.push(crate::data::AreaSpec {
        id: format!("{word}_{n}"),
        name: title.to_owned(),
        kind,
        at: (at[0], at[1]),
        radius,
        height: 0.0,
    });
    let who = id(world, e);
    let detail = format!("{name} thrown: {word} around {} ({:.1}, {:.1})", id(world, t), at[0], at[1]);
    world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what: word, detail });
    if kind == AreaKind::Gas {
        let inside: Vec<Entity> = world
            .resource::<fray_core::prelude::TableIndex>()
            .order
            .clone()
            .into_iter()
            .filter(|&o| {
                world.get::<Fighter>(o).is_some() && in_area(world, position(world, o), AreaKind::Gas)
            })
            .collect();
        for o in inside {
            choke(world, o);
        }
    }
}

/// Whoever is in a gas cloud at its turn's start chokes: 1d10 + `gas_plus` Peril.
pub fn gas(world: &mut World, e: Entity) {
    if in_area(world, position(world, e), AreaKind::Gas) {
        choke(world, e);
    }
}

fn choke(world: &mut World, e: Entity) {
    if !can_act(world, e) && world.get::<Status>(e) != Some(&Status::Unconscious) {
        return;
    }
    let plus = world.resource::<Battle>().rules.numbers.gas_plus;
    let peril = roll(world, Some(e), "choking gas", 1, 10, plus as i64);
    harm(world, e, peril, Harm::Peril, None, "gas");
}

/// After a parry with a Breaker weapon in hand, a Finesse weapon that struck is Ruined!
/// unless its wielder resists with Warfare; it costs the parrier 1 AP more, spent whenever it
/// has one (a Castle-forged or already Ruined! weapon is left alone).
fn breaker(world: &mut World, d: Entity, p: &PendingAttack) {
    let Strike::Weapon(Some(w)) = p.strike else { return };
    let breaks = world
        .get::<Fighter>(d)
        .and_then(|f| in_hand(world, d).and_then(|i| f.sheet.weapons.get(i)))
        .is_some_and(|b| b.has(Quality::Breaker));
    let Some(a) = world.get::<Fighter>(p.attacker) else { return };
    let fragile =
        a.sheet.weapons.get(w).is_some_and(|x| x.has(Quality::Finesse) && !x.has(Quality::CastleForged));
    let can_pay = world.get::<Fighter>(d).is_some_and(|f| f.ap >= 1);
    if !(breaks && fragile && can_pay) || a.ruined.get(w).copied().unwrap_or(true) {
        return;
    }
    let name = a.sheet.weapons[w].name.clone();
    if let Some(mut f) = world.get_mut::<Fighter>(d) {
        f.ap -= 1;
    }
    let resisted =
        test(world, p.attacker, "resist Breaker", Some(Skill::Warfare), None, Vec::new(), Flip::None).success;
    let who = id(world, p.attacker);
    let detail = if resisted {
        format!("{name} holds against the Breaker")
    } else {
        if let Some(mut f) = world.get_mut::<Fighter>(p.attacker) {
            f.ruined[w] = true;
        }
        format!("{name} is Ruined! by the Breaker")
    };
    world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what: "breaker", detail });
}

/// The defender takes the hit.
pub fn take_it(world: &mut World) {
    if let Some(p) = world.resource_mut::<Battle>().pending.take() {
        land(world, &p);
    }
}

fn source(world: &World, attacker: Entity, strike: Strike) -> Source {
    let weapon = match strike {
        Strike::Weapon(Some(w)) => {
            world.get::<Fighter>(attacker).and_then(|f| f.sheet.weapons.get(w)).map(|w| w.id.clone())
        }
        Strike::Weapon(None) => Some("fists".to_owned()),
        Strike::Trample => Some("trample".to_owned()),
    };
    Source::by(name(world, attacker), id(world, attacker), weapon)
}

/// A blow's damage before its Fury Dice: Combat Bonus (or [AB] for Finesse, [BB] for
/// Pummeling) + the weapon's damage, +1 for an Adaptable weapon held in both hands.
pub fn blow_base(f: &Fighter, weapon: Option<&crate::data::Weapon>) -> i64 {
    let attr = match weapon {
        Some(w) if w.has(Quality::Finesse) => Attribute::Agility,
        Some(w) if w.has(Quality::Pummeling) => Attribute::Brawn,
        _ => Attribute::Combat,
    };
    let adaptable = weapon.is_some_and(|w| w.has(Quality::Adaptable) && w.two_handed);
    f.sheet.bonus(attr) as i64 + weapon.map_or(0, |w| w.damage as i64) + i64::from(adaptable)
}

/// A hit lands: Combat Bonus (or [AB] for Finesse, [BB] for Pummeling) + weapon damage + Fury
/// Dice (and those the target's conditions add), against the Damage Threshold.
pub fn land(world: &mut World, p: &PendingAttack) {
    let (e, t) = (p.attacker, p.defender);
    let Some(f) = world.get::<Fighter>(e) else { return };
    let weapon = match p.strike {
        Strike::Weapon(Some(w)) => f.sheet.weapons.get(w).cloned(),
        _ => None,
    };
    let ruined = matches!(p.strike, Strike::Weapon(Some(w)) if f.ruined.get(w).copied().unwrap_or(false));
    let base: i64 = match p.strike {
        Strike::Trample => {
            let mount = world
                .get::<Rides>(e)
                .and_then(|r| world.get::<crate::load::MountSheet>(r.0))
                .map_or(0, |m| m.0.brawn_bonus);
            roll(world, Some(e), "trample 1d10", 1, 10, 0) as i64 + mount as i64
        }
        Strike::Weapon(_) => {
            let mut b = blow_base(f, weapon.as_ref());
            if let Strike::Weapon(Some(w)) = p.strike
                && off_hand_adds(f, w)
            {
                b += 1;
            }
            if ruined {
                b -= 3;
            }
            b
        }
    };
    if weapon.as_ref().is_some_and(|w| w.has(Quality::Ineffective)) {
        let who = id(world, t);
        world
            .resource_mut::<GameLog>()
            .about(&who, LogEvent::Effect { what: "no_damage", detail: "Ineffective".to_owned() });
        return;
    }
    let taken = world.get::<Fighter>(t).filter(|_| !p.at_mount).map_or(0, |tf| {
        let tables = &world.resource::<Battle>().tables;
        tf.conditions.keys().filter_map(|c| tables.condition(*c)).map(|r| r.fury_taken).sum::<u32>()
    });
    let dice = if p.strike == Strike::Trample { 0 } else { p.fury + taken };
    let told = format!("{} hits {}: Fury Dice", name(world, e), name(world, t));
    let mut total = base + fury(world, Some(e), dice, Said::told("Fury Dice", told)) as i64;
    if p.less {
        total -= roll(world, Some(e), "fumble: less damage", 1, 6, 0) as i64;
    }
    let total = total.max(0) as u32;
    let src = source(world, e, p.strike);
    let ranged = p.ranged;
    let place = if p.at_mount { "mount" } else { p.location };
    let who = id(world, t);
    world
        .resource_mut::<GameLog>()
        .about(&who, LogEvent::Effect { what: "hit", detail: format!("{} to the {}", total, place) });
    let subdue = p.subdue;
    if let Some(w) = &weapon {
        blast(world, e, t, w, base, p);
    }
    if p.at_mount {
        let blow = Blow::of(weapon.as_ref(), None);
        crate::mounts::harm_mount(world, t, total, &blow);
        return;
    }
    let by_weapon = weapon.as_ref().is_some_and(|w| !matches!(w.kind, WeaponKind::Spell { .. }));
    if by_weapon && splinters(world, t, total, ranged) {
        return;
    }
    let before = world.get::<Fighter>(t).map_or(0, |f| f.damage);
    let blow = Blow::of(weapon.as_ref(), Aim::of_word(p.location));
    harm_blow(world, t, total, Harm::Damage { ranged, subdue }, Some(e), &src, &blow);
    if let (Some(w), Strike::Weapon(Some(i))) = (&weapon, p.strike) {
        let harmed = world.get::<Fighter>(t).map_or(0, |f| f.damage) > before;
        fire(world, e, t, w, i, harmed);
    }
    // Qualities that follow a hit.
    if let Some(w) = weapon
        && can_act(world, t)
    {
        if w.has(Quality::Entangling) {
            crate::stunts::forced_resist(world, e, t, crate::intent::StuntKind::Takedown, Flip::ToFail);
        }
        if w.has(Quality::Powerful) {
            crate::stunts::forced_resist(
                world,
                e,
                t,
                crate::intent::StuntKind::Push { takedown: false, way: crate::intent::PushWay::Back },
                Flip::None,
            );
        }
    }
}

/// Whether the Light weapon in `f`'s off-hand adds to a strike with weapon `w`: a melee weapon
/// in one hand, the off-hand's Light melee weapon at hand.
fn off_hand_adds(f: &Fighter, w: usize) -> bool {
    let (Some(main), Some(o)) = (f.sheet.weapons.get(w), f.sheet.off_hand) else { return false };
    let at_hand = |i: usize| !f.lost.get(i).copied().unwrap_or(true);
    let light = f.sheet.weapons.get(o).is_some_and(|l| l.has(Quality::Light) && l.melee() && !l.shield);
    o != w && main.melee() && !main.two_handed && light && at_hand(o) && !f.has(Condition::Disarmed)
}

/// A Splintered shield at hand and a Fortune Point left: a weapon's blow that would harm `t`
/// (over its Damage Threshold) is turned aside, the point spent and the shield destroyed.
fn splinters(world: &mut World, t: Entity, total: u32, ranged: bool) -> bool {
    let (threshold, _) = damage_threshold(world, t, ranged);
    let Some(f) = world.get::<Fighter>(t) else { return false };
    let shield = (0..f.sheet.weapons.len()).find(|&i| {
        let w = &f.sheet.weapons[i];
        w.shield && w.has(Quality::Splintered) && !f.lost[i] && !f.ruined[i]
    });
    let Some(i) = shield.filter(|_| f.fortune > 0 && total > threshold) else { return false };
    let name = f.sheet.weapons[i].name.clone();
    if let Some(mut f) = world.get_mut::<Fighter>(t) {
        f.fortune -= 1;
        f.ruined[i] = true;
        f.lost[i] = true;
        if f.wielding == Some(i) {
            f.wielding = None;
        }
    }
    let who = id(world, t);
    let detail = format!("a Fortune Point spent: {name} takes the blow ({total} damage) and is destroyed");
    world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what: "splintered", detail });
    true
}

/// What harms: damage (a ranged one counts cover; a subduing one does not kill) or Peril.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Harm {
    /// Against the Damage Threshold.
    Damage {
        /// Ranged: cover counts.
        ranged: bool,
        /// Subdue: no death.
        subdue: bool,
    },
    /// Against the Peril Threshold.
    Peril,
}

/// The Damage Threshold of `e` now, with its parts: [BB], armour, running, cover (ranged),
/// conditions.
pub fn damage_threshold(world: &World, e: Entity, ranged: bool) -> (u32, Vec<Modifier>) {
    let Some(f) = world.get::<Fighter>(e) else { return (0, Vec::new()) };
    let mut parts = vec![Modifier::new("Brawn Bonus", f.sheet.bonus(Attribute::Brawn))];
    if !f.sheet.armour.ruined && f.sheet.armour.threshold > 0 {
        parts.push(Modifier::new(f.sheet.armour.name.clone(), f.sheet.armour.threshold));
    }
    let marked_shield = f.sheet.weapons.iter().enumerate().find(|(i, w)| {
        w.shield && w.has(Quality::MakersMark) && !f.lost.get(*i).copied().unwrap_or(true) && !f.ruined[*i]
    });
    if let Some((_, w)) = marked_shield {
        parts.push(Modifier::new(format!("{} (maker's mark)", w.name), 1));
    }
    if f.running {
        parts.push(Modifier::new("running", 3));
    }
    if f.threshold_lent > 0 {
        parts.push(Modifier::new("a fumbled blow", f.threshold_lent));
    }
    if ranged && let Some(level) = cover_level(world, e) {
        parts.push(Modifier::new(format!("{} cover", level.word()), level.threshold()));
    }
    let tables = &world.resource::<Battle>().tables;
    for c in f.conditions.keys() {
        if let Some(r) = tables.condition(*c).filter(|r| r.damage_threshold != 0) {
            parts.push(Modifier::new(r.label.clone(), r.damage_threshold));
        }
    }
    parts.extend(crate::injuries::threshold_modifiers(f));
    let total: i64 = parts.iter().map(|m| m.value).sum();
    (total.max(0) as u32, parts)
}

/// The Peril Threshold of `e` now, with its parts: [WB] + the rules' plus, conditions.
pub fn peril_threshold(world: &World, e: Entity) -> (u32, Vec<Modifier>) {
    let Some(f) = world.get::<Fighter>(e) else { return (0, Vec::new()) };
    let plus = world.resource::<Battle>().rules.numbers.peril_plus;
    let mut parts = vec![
        Modifier::new("Willpower Bonus", f.sheet.bonus(Attribute::Willpower)),
        Modifier::new("base", plus),
    ];
    let tables = &world.resource::<Battle>().tables;
    for c in f.conditions.keys() {
        if let Some(r) = tables.condition(*c).filter(|r| r.peril_threshold != 0) {
            parts.push(Modifier::new(r.label.clone(), r.peril_threshold));
        }
    }
    let total: i64 = parts.iter().map(|m| m.value).sum();
    (total.max(0) as u32, parts)
}

/// Harm of `total` on `e`, from no one in particular.
pub fn harm(world: &mut World, e: Entity, total: u32, kind: Harm, by: Option<Entity>, what: &str) {
    harm_with(world, e, total, kind, by, &Source::named(what));
}

/// Steps down a track for `total` against `threshold`.
pub fn steps(world: &World, total: u32, threshold: u32) -> u32 {
    let n = &world.resource::<Battle>().rules.numbers;
    if total < threshold { 0 } else { (1 + (total - threshold) / n.step.max(1)).min(n.max_steps.max(1)) }
}

/// Harm of `total` on `e` against its threshold: steps down the damage or peril track.
pub fn harm_with(world: &mut World, e: Entity, total: u32, kind: Harm, by: Option<Entity>, src: &Source) {
    harm_blow(world, e, total, kind, by, src, &Blow::default());
}

/// [`harm_with`] by a blow that may injure as its weapon and hit location say.
pub fn harm_blow(
    world: &mut World,
    e: Entity,
    total: u32,
    kind: Harm,
    by: Option<Entity>,
    src: &Source,
    blow: &Blow,
) {
    if world.get::<Fighter>(e).is_none() || world.get::<Status>(e).is_some_and(|s| *s == Status::Dead) {
        return;
    }
    let (threshold, word) = match kind {
        Harm::Damage { ranged, .. } => (damage_threshold(world, e, ranged).0, "physical"),
        Harm::Peril => (peril_threshold(world, e).0, "peril"),
    };
    let n = steps(world, total, threshold);
    let who = id(world, e);
    world.resource_mut::<GameLog>().about(
        &who,
        LogEvent::Damage {
            damage: word,
            amount: total,
            reduced: threshold.min(total),
            taken: n,
            source: src.clone(),
        },
    );
    if n == 0 {
        return;
    }
    match kind {
        Harm::Damage { subdue, .. } => {
            let before = world.get::<Fighter>(e).map_or(0, |f| f.damage);
            wound(world, e, n, subdue, by, src);
            let now = world.get::<Fighter>(e).map_or(0, |f| f.damage);
            crate::injuries::after_blow(world, e, before, now, subdue, blow);
        }
        Harm::Peril => imperil(world, e, n),
    }
}

/// Moves `e` `n` steps down the damage track: Slain! at the end (a Fate Point spent saves it;
/// a subduing blow leaves it grievously wounded, incapacitated and helpless instead).
pub fn wound(world: &mut World, e: Entity, n: u32, subdue: bool, by: Option<Entity>, _src: &Source) {
    let Some(mut f) = world.get_mut::<Fighter>(e) else { return };
    let before = f.damage;
    f.damage = (f.damage + n).min(5);
    f.steady_in = None;
    let now = f.damage;
    let fate = f.fate;
    let who = id(world, e);
    world.resource_mut::<GameLog>().about(
        &who,
        LogEvent::Effect { what: "damage_condition", detail: DAMAGE_TRACK[now as usize].to_owned() },
    );
    // A holder who drops a step lets go.
    if now > before {
        crate::stunts::release_held_by(world, e, "the holder was hurt");
    }
    if now < 5 {
        return;
    }
    if subdue {
        let turns =
            by.and_then(|b| world.get::<Fighter>(b)).map_or(1, |b| b.sheet.bonus(Attribute::Combat).max(1));
        if let Some(mut f) = world.get_mut::<Fighter>(e) {
            f.damage = 4;
        }
        // Back a step from Slain!: the log's damage track follows the fighter's.
        world
            .resource_mut::<GameLog>()
            .about(&who, LogEvent::Effect { what: "damage_condition", detail: DAMAGE_TRACK[4].to_owned() });
        add(world, e, Condition::Incapacitated);
        knock_out(world, e, turns, "subdued");
        return;
    }
    if fate > 0 {
        if let Some(mut f) = world.get_mut::<Fighter>(e) {
            f.fate -= 1;
            f.damage = 4;
        }
        world.resource_mut::<GameLog>().about(
            &who,
            LogEvent::Effect {
                what: "fate_spent",
                detail: format!("a Fate Point saves it from Slain! ({} left)", fate - 1),
            },
        );
        return;
    }
    add(world, e, Condition::Slain);
    set_status(world, e, Status::Dead);
    crate::stunts::release_all(world, e);
}

/// Knocks `e` out (unconscious, helpless) for `turns` turns.
pub fn knock_out(world: &mut World, e: Entity, turns: u32, why: &str) {
    add(world, e, Condition::KnockedOut);
    add(world, e, Condition::Helpless);
    if let Some(mut f) = world.get_mut::<Fighter>(e) {
        f.out_for = turns.max(1);
    }
    set_status(world, e, Status::Unconscious);
    let who = id(world, e);
    world.resource_mut::<GameLog>().about(
        &who,
        LogEvent::Effect {
            what: "knocked_out",
            detail: format!("{why}: {}", fray_core::words::count(turns.max(1).into(), "turn", "turns")),
        },
    );
    crate::stunts::release_all(world, e);
}

/// Moves `e` `n` steps down the peril track: Incapacitated! at the end.
pub fn imperil(world: &mut World, e: Entity, n: u32) {
    let Some(mut f) = world.get_mut::<Fighter>(e) else { return };
    f.peril = (f.peril + n).min(5);
    let now = f.peril;
    let who = id(world, e);
    world.resource_mut::<GameLog>().about(
        &who,
        LogEvent::Effect { what: "peril_condition", detail: PERIL_TRACK[now as usize].to_owned() },
    );
    if now >= 5 && world.get::<Fighter>(e).is_some_and(|f| !f.has(Condition::Incapacitated)) {
        add(world, e, Condition::Incapacitated);
        if let Some(holder) = crate::stunts::choked_by(world, e) {
            let turns = world.get::<Fighter>(holder).map_or(1, |h| h.sheet.bonus(Attribute::Brawn));
            knock_out(world, e, turns, "choked unconscious");
        }
    }
}

/// One step up the peril track (a critical Resist, Inspiring words).
pub fn steady(world: &mut World, e: Entity) {
    if let Some(mut f) = world.get_mut::<Fighter>(e)
        && f.peril > 0
    {
        f.peril -= 1;
        let now = f.peril;
        if now < 5 {
            remove(world, e, Condition::Incapacitated);
        }
        let who = id(world, e);
        world.resource_mut::<GameLog>().about(
            &who,
            LogEvent::Effect { what: "peril_condition", detail: PERIL_TRACK[now as usize].to_owned() },
        );
    }
}

/// Whether `e` may make an opportunity attack now: it is a reaction, so one that can take no
/// reaction (Defenseless, Surprised, Helpless…) makes none.
pub fn may_strike_freely(world: &World, e: Entity) -> bool {
    can_act(world, e)
        && world.get::<Fighter>(e).is_some_and(|f| {
            !crate::dice::cannot_act(world, f) && !any_condition(world, f, |r| r.no_reactions)
        })
}

/// An opportunity attack by `by` on `t` (0 AP, +20, no dodge or parry), if `by` can strike.
pub fn opportunity(world: &mut World, by: Entity, t: Entity) {
    if !may_strike_freely(world, by) {
        return;
    }
    let Ok(mut plan) = plan_strike(world, by, t, None, 0, false, true) else { return };
    if plan.ranged || plan.spell {
        return;
    }
    plan.opportunity = true;
    plan.allowed.clear();
    plan.modifiers.push(Modifier::new("opportunity attack", 20));
    let who = id(world, by);
    let detail = id(world, t).to_string();
    world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what: "opportunity_attack", detail });
    attack(world, by, plan);
}

/// The hit location's roll, as a commentator says it: "where Ysolt's blow lands on Wat".
fn where_it_lands(world: &World, attacker: Entity, defender: Entity) -> Said<'static> {
    let told = format!("Where {}'s blow lands on {}", name(world, attacker), name(world, defender));
    Said::told("hit location", told)
}
