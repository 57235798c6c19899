//! Special actions: take aim, inspiring words and litany of hatred (once a fight, their tests
//! shifted by the speaker's damage condition), channel power, load, subdue, swapping weapons
//! (free once a turn, then 1 AP; picking one up), fixing a Free-standing shield, and trample
//! for the mounted.

use bevy_ecs::prelude::*;
use fray_core::dice::Modifier;
use fray_core::intent::{Rejection, Verdict};
use fray_core::log::{GameLog, LogEvent};
use fray_core::prelude::Rides;
use fray_core::table::{can_act, enemies, id, name};

use crate::combat::steady;
use crate::conditions::add;
use crate::data::{Attribute, Condition, Reaction, Skill, WeaponKind};
use crate::dice::{Flip, test};
use crate::field::{allies, between, distance, foes, position};
use crate::phase::{Battle, Fighter, PendingAttack, Strike};

/// The speech's modifier for the speaker's damage condition.
pub fn condition_modifier(damage: u32) -> i32 {
    match damage {
        0 => 20,
        1 => 10,
        2 => 0,
        3 => -10,
        _ => -20,
    }
}

/// Checks taking aim: 1 or 2 AP, once a turn.
pub fn check_aim(world: &World, e: Entity, ap: u32) -> Verdict {
    let f = world.get::<Fighter>(e).ok_or_else(|| Rejection::new("not a combatant"))?;
    if !(1..=2).contains(&ap) {
        return Err(Rejection::new("taking aim costs 1 AP (+10) or 2 AP (+20)"));
    }
    if f.aim > 0 {
        return Err(Rejection::new("aim is taken already"));
    }
    if f.ap < ap {
        return Err(Rejection::new(format!("it costs {ap} AP; {} left", f.ap)));
    }
    Ok(())
}

/// Takes aim; with a Distraction weapon in hand, each engaged foe resists Dirty Tricks or is
/// blinded.
pub fn aim(world: &mut World, e: Entity, ap: u32) {
    if let Some(mut f) = world.get_mut::<Fighter>(e) {
        f.ap -= ap;
        f.aim = 10 * ap as i32;
    }
    let distracts = world
        .get::<Fighter>(e)
        .and_then(|f| f.wielding.filter(|&w| !f.lost[w]).and_then(|w| f.sheet.weapons.get(w)))
        .is_some_and(|w| w.has(crate::data::Quality::Distraction));
    if distracts {
        for t in crate::field::engaged_foes(world, e) {
            crate::stunts::forced_resist(world, e, t, crate::intent::StuntKind::DirtyTricks, Flip::None);
        }
    }
}

/// Who a speech reaches: up to [FB] of them within hearing, nearest first.
pub fn audience(world: &World, e: Entity, friends: bool) -> Vec<Entity> {
    let Some(f) = world.get::<Fighter>(e) else { return Vec::new() };
    let hearing = world.resource::<Battle>().rules.numbers.hearing;
    let mut them: Vec<Entity> = if friends { allies(world, e) } else { foes(world, e) }
        .into_iter()
        .filter(|&t| between(world, e, t) <= hearing)
        .filter(|&t| !friends || world.get::<Fighter>(t).is_some_and(|tf| !tf.inspired_once))
        .collect();
    them.sort_by(|a, b| between(world, e, *a).total_cmp(&between(world, e, *b)));
    them.truncate(f.sheet.bonus(Attribute::Fellowship) as usize);
    them
}

/// Checks a speech: 1 AP, once a fight, someone to hear it; words cannot be spoken intimidated.
pub fn check_speech(world: &World, e: Entity, inspiring: bool) -> Verdict {
    let f = world.get::<Fighter>(e).ok_or_else(|| Rejection::new("not a combatant"))?;
    let spoken = if inspiring { f.inspired_others } else { f.litany_spoken };
    let what = if inspiring { "Inspiring words" } else { "A litany of hatred" };
    if spoken {
        return Err(Rejection::new(format!("{what} is spoken once a fight")));
    }
    if inspiring && f.has(Condition::Intimidated) {
        return Err(Rejection::new("an intimidated speaker cannot inspire"));
    }
    if f.ap < 1 {
        return Err(Rejection::new("it costs 1 AP; none left"));
    }
    if audience(world, e, inspiring).is_empty() {
        return Err(Rejection::new(format!("no one within hearing for {}", what.to_lowercase())));
    }
    Ok(())
}

/// Speaks: Leadership (inspiring) or Intimidate (litany), shifted by the damage condition.
pub fn speech(world: &mut World, e: Entity, inspiring: bool) {
    let them = audience(world, e, inspiring);
    let damage = world.get::<Fighter>(e).map_or(0, |f| f.damage);
    if let Some(mut f) = world.get_mut::<Fighter>(e) {
        f.ap -= 1;
        if inspiring {
            f.inspired_others = true;
        } else {
            f.litany_spoken = true;
        }
    }
    let (skill, what) = if inspiring {
        (Skill::Leadership, "Inspiring words")
    } else {
        (Skill::Intimidate, "Litany of hatred")
    };
    let mods = vec![Modifier::new("damage condition", condition_modifier(damage))];
    let t = test(world, e, what, Some(skill), None, mods, Flip::None);
    if !t.success {
        return;
    }
    for a in them {
        if inspiring {
            add(world, a, Condition::Inspired);
            if let Some(mut f) = world.get_mut::<Fighter>(a) {
                f.inspired_once = true;
            }
            if t.critical {
                steady(world, a);
            }
        } else {
            add(world, a, Condition::Intimidated);
            if t.critical {
                crate::combat::imperil(world, a, 1);
            }
        }
    }
}

/// Checks channelling power: 1 AP, a tome, a spell in hand, not channelled yet.
pub fn check_channel(world: &World, e: Entity) -> Verdict {
    let f = world.get::<Fighter>(e).ok_or_else(|| Rejection::new("not a combatant"))?;
    if !f.sheet.tome {
        return Err(Rejection::new("channelling power needs an Arcane Tome or a Prayer Book in hand"));
    }
    if !f.weapon().is_some_and(|w| matches!(w.kind, WeaponKind::Spell { .. })) {
        return Err(Rejection::new("no spell readied"));
    }
    if f.channel {
        return Err(Rejection::new("power is channelled already"));
    }
    if f.ap < 1 {
        return Err(Rejection::new("it costs 1 AP; none left"));
    }
    Ok(())
}

/// Channels power.
pub fn channel(world: &mut World, e: Entity) {
    if let Some(mut f) = world.get_mut::<Fighter>(e) {
        f.ap -= 1;
        f.channel = true;
    }
}

/// Checks loading the weapon in hand: it loads, it is not full, an AP left.
pub fn check_load(world: &World, e: Entity) -> Verdict<usize> {
    let f = world.get::<Fighter>(e).ok_or_else(|| Rejection::new("not a combatant"))?;
    let w = f.wielding.ok_or_else(|| Rejection::new("nothing in hand to load"))?;
    let weapon = &f.sheet.weapons[w];
    if weapon.load == 0 {
        return Err(Rejection::new(format!("{} does not load", weapon.name)));
    }
    if f.loaded.get(w).copied().unwrap_or(0) > 0 {
        return Err(Rejection::new(format!("{} is loaded", weapon.name)));
    }
    if f.ap < 1 {
        return Err(Rejection::new("no AP left"));
    }
    Ok(w)
}

/// Puts the AP it still needs (as many as are left) into loading.
pub fn load(world: &mut World, e: Entity, w: usize) {
    let Some(mut f) = world.get_mut::<Fighter>(e) else { return };
    let need = f.sheet.weapons[w].load.saturating_sub(f.loading[w]);
    let spent = need.min(f.ap);
    f.ap -= spent;
    f.loading[w] += spent;
    let done = f.loading[w] >= f.sheet.weapons[w].load;
    if done {
        f.loading[w] = 0;
        f.loaded[w] = f.sheet.weapons[w].shots();
    }
    let detail = format!("{} AP{}", spent, if done { ", loaded" } else { ", still loading" });
    let who = id(world, e);
    world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what: "load", detail });
}

/// Checks subduing: 1 AP, not yet.
pub fn check_subdue(world: &World, e: Entity) -> Verdict {
    let f = world.get::<Fighter>(e).ok_or_else(|| Rejection::new("not a combatant"))?;
    if f.subdue {
        return Err(Rejection::new("the next attack subdues already"));
    }
    if f.ap < 1 {
        return Err(Rejection::new("it costs 1 AP; none left"));
    }
    Ok(())
}

/// Subdues with the next attack.
pub fn subdue(world: &mut World, e: Entity) {
    if let Some(mut f) = world.get_mut::<Fighter>(e) {
        f.ap -= 1;
        f.subdue = true;
    }
}

/// Checks swapping to `weapon` (none: fists): a hand not disarmed; a weapon lost must lie
/// within reach to be picked up; the first swap of a turn is free, then 1 AP. Its AP cost.
pub fn check_swap(world: &World, e: Entity, weapon: Option<usize>) -> Verdict<u32> {
    let f = world.get::<Fighter>(e).ok_or_else(|| Rejection::new("not a combatant"))?;
    if f.has(Condition::Disarmed) {
        return Err(Rejection::new("the disarmed hand is useless until the next turn"));
    }
    if f.wielding == weapon {
        return Err(Rejection::new("that is in hand already"));
    }
    if let Some(w) = weapon {
        let weapon =
            f.sheet.weapons.get(w).ok_or_else(|| Rejection::new(format!("no weapon {w} on the sheet")))?;
        if f.lost.get(w).copied().unwrap_or(true) {
            let reach = world.resource::<Battle>().rules.numbers.pick_up;
            let near = world.resource::<Battle>().dropped.iter().any(|d| {
                d.owner == e
                    && d.weapon == w
                    && distance(d.at, position(world, e)) <= reach + crate::field::EPS
            });
            if !near {
                return Err(Rejection::new(format!("{} lies out of reach: walk to it first", weapon.name)));
            }
        }
    }
    let ap = u32::from(f.swaps > 0);
    if f.ap < ap {
        return Err(Rejection::new("a second swap costs 1 AP; none left"));
    }
    Ok(ap)
}

/// Takes `weapon` in hand (picking it up if it lies here).
pub fn swap(world: &mut World, e: Entity, weapon: Option<usize>, ap: u32) {
    if let Some(w) = weapon {
        world.resource_mut::<Battle>().dropped.retain(|d| !(d.owner == e && d.weapon == w));
    }
    if let Some(mut f) = world.get_mut::<Fighter>(e) {
        f.ap -= ap;
        f.swaps += 1;
        f.wielding = weapon;
        if let Some(w) = weapon {
            f.lost[w] = false;
        }
    }
    let detail = weapon
        .and_then(|w| world.get::<Fighter>(e).map(|f| f.sheet.weapons[w].id.clone()))
        .unwrap_or_else(|| "fists".to_owned());
    let who = id(world, e);
    world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what: "in_hand", detail });
}

/// The Free-standing shield `e` carries (at hand, whole), if any.
fn free_standing(f: &Fighter) -> Option<usize> {
    (0..f.sheet.weapons.len()).find(|&i| {
        let w = &f.sheet.weapons[i];
        w.shield && w.has(crate::data::Quality::FreeStanding) && !f.lost[i] && !f.ruined[i]
    })
}

/// Checks fixing a Free-standing shield on the ground: one carried, 1 AP, not in the saddle.
pub fn check_fix(world: &World, e: Entity) -> Verdict<usize> {
    let f = world.get::<Fighter>(e).ok_or_else(|| Rejection::new("not a combatant"))?;
    let w = free_standing(f).ok_or_else(|| Rejection::new("no Free-standing shield to fix"))?;
    if world.get::<Rides>(e).is_some() {
        return Err(Rejection::new("a shield is fixed on the ground: dismount first"));
    }
    if f.ap < 1 {
        return Err(Rejection::new("fixing a shield costs 1 AP; none left"));
    }
    Ok(w)
}

/// Fixes shield `w` where `e` stands: it leaves `e`'s hands and is medium cover there for
/// the rest of the fight (`Battle::fixed`).
pub fn fix(world: &mut World, e: Entity, w: usize) {
    let at = position(world, e);
    let owner = id(world, e);
    let Some(mut f) = world.get_mut::<Fighter>(e) else { return };
    f.ap = f.ap.saturating_sub(1);
    f.lost[w] = true;
    if f.wielding == Some(w) {
        f.wielding = None;
    }
    let (shield, weapon) = (f.sheet.weapons[w].name.clone(), f.sheet.weapons[w].id.clone());
    let radius = world.resource::<Battle>().rules.numbers.engaged;
    let cover = crate::data::CoverSpec {
        id: format!("{owner}_{weapon}"),
        name: format!("{}'s {shield}", name(world, e)),
        at: (at[0], at[1]),
        radius,
        level: crate::data::CoverLevel::Medium,
    };
    let mut battle = world.resource_mut::<Battle>();
    battle.rules.covers.push(cover);
    battle.fixed.push(at);
    let detail = format!("{shield} fixed at ({:.1}, {:.1}): medium cover", at[0], at[1]);
    world.resource_mut::<GameLog>().about(&owner, LogEvent::Effect { what: "shield_fixed", detail });
}

/// Whether `d` is the one person beside a fixed Free-standing shield (within the engagement
/// distance of it): it parries ranged attacks as with a Protective weapon.
pub fn behind_fixed_shield(world: &World, d: Entity) -> bool {
    let reach = world.resource::<Battle>().rules.numbers.engaged + crate::field::EPS;
    let order = &world.resource::<fray_core::prelude::TableIndex>().order;
    world.resource::<Battle>().fixed.iter().any(|&at| {
        let near: Vec<Entity> = order
            .iter()
            .copied()
            .filter(|&o| can_act(world, o) && distance(position(world, o), at) <= reach)
            .collect();
        near == [d]
    })
}

/// Checks beating out the flames: on fire, `put_out_ap` AP.
pub fn check_put_out(world: &World, e: Entity) -> Verdict {
    let f = world.get::<Fighter>(e).ok_or_else(|| Rejection::new("not a combatant"))?;
    if !f.has(Condition::OnFire) {
        return Err(Rejection::new(format!("{} is not on fire", name(world, e))));
    }
    let ap = world.resource::<Battle>().rules.numbers.put_out_ap;
    if f.ap < ap {
        return Err(Rejection::new(format!("beating out the flames costs {ap} AP; {} left", f.ap)));
    }
    Ok(())
}

/// Beats out the flames: the AP, and a Coordination test that ends the fire.
pub fn put_out(world: &mut World, e: Entity) {
    let ap = world.resource::<Battle>().rules.numbers.put_out_ap;
    if let Some(mut f) = world.get_mut::<Fighter>(e) {
        f.ap = f.ap.saturating_sub(ap);
    }
    if test(world, e, "beating out the flames", Some(Skill::Coordination), None, Vec::new(), Flip::None)
        .success
    {
        crate::conditions::remove(world, e, Condition::OnFire);
    }
}

/// Checks a trample: mounted, the foe engaged, 1 AP.
pub fn check_trample(world: &World, e: Entity, t: Entity) -> Verdict {
    let f = world.get::<Fighter>(e).ok_or_else(|| Rejection::new("not a combatant"))?;
    if world.get::<Rides>(e).is_none() {
        return Err(Rejection::new("trampling takes a mount or a vehicle"));
    }
    if !enemies(world, e, t) || !can_act(world, t) {
        return Err(Rejection::new(format!("{} is not a foe in the fight", name(world, t))));
    }
    if between(world, e, t) > crate::field::engagement(world) + crate::field::EPS {
        return Err(Rejection::new(format!("{} is not engaged", name(world, t))));
    }
    if f.ap < 1 {
        return Err(Rejection::new("it costs 1 AP; none left"));
    }
    Ok(())
}

/// Tramples: a Drive (vehicle) or Ride test; 1d10 + the mount's [BB]; only a Dodge answers;
/// a critical success leaves the victim prone.
pub fn trample(world: &mut World, e: Entity, t: Entity) {
    if let Some(mut f) = world.get_mut::<Fighter>(e) {
        f.ap -= 1;
    }
    let vehicle = crate::moves::subtype(world, e)
        .and_then(|(s, _)| world.resource::<Battle>().tables.subtype(s).map(|r| r.vehicle))
        .unwrap_or(false);
    let skill = if vehicle { Skill::Drive } else { Skill::Ride };
    let r = test(world, e, &format!("trample {}", name(world, t)), Some(skill), None, Vec::new(), Flip::None);
    if !r.success {
        let who = id(world, e);
        let detail = id(world, t).to_string();
        world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what: "missed", detail });
        return;
    }
    if r.critical {
        add(world, t, Condition::Prone);
    }
    let p = PendingAttack {
        allowed: vec![Reaction::Dodge],
        fury: 0,
        ..crate::combat::rolled_hit(world, e, t, Strike::Trample)
    };
    crate::combat::ask_or_land(world, p);
}
