//! Injuries: when a blow injures (Chaos Dice by the damage condition it leaves, Vicious,
//! Weak, Pummeling, Detonate and Siege, a fumble's ill omen), which row of the injury table
//! (`data/tables.ron`) it is, what the injury does while it lasts (tests, Movement, the
//! Damage Threshold), bleeding at a turn's start and binding the wound.

use bevy_ecs::prelude::*;
use fray_core::dice::Modifier;
use fray_core::intent::{Rejection, Verdict};
use fray_core::log::{GameLog, LogEvent, Source};
use fray_core::table::{enemies, id, name};

use crate::conditions::{add, remove};
use crate::data::{Condition, InjuryEffect, InjuryRow, Quality, Severity, Skill, Weapon};
use crate::dice::{Flip, chaos, roll, test};
use crate::field::between;
use crate::intent::Aim;
use crate::phase::{Battle, Fighter};

/// What a blow brings to an injury: the weapon's qualities that change it and where it struck.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Blow {
    /// One Chaos Die more (Vicious).
    pub vicious: bool,
    /// Never Grievous (Weak).
    pub weak: bool,
    /// Moderate only, never bleeding (Pummeling).
    pub pummeling: bool,
    /// Its injuries bleed (Dangerous).
    pub dangerous: bool,
    /// Whoever it harms gains a Grievous Injury (Detonate, Siege).
    pub grievous: bool,
    /// Where it struck; none: a d10 says.
    pub region: Option<Aim>,
}

impl Blow {
    /// The blow of `w` (fists when none), striking `region`.
    pub fn of(w: Option<&Weapon>, region: Option<Aim>) -> Blow {
        let has = |q| w.is_some_and(|w| w.has(q));
        Blow {
            vicious: has(Quality::Vicious),
            weak: has(Quality::Weak),
            pummeling: has(Quality::Pummeling),
            dangerous: has(Quality::Dangerous),
            grievous: has(Quality::Detonate) || has(Quality::Siege),
            region,
        }
    }
}

/// After a blow moved `e` from `before` to `now` on the damage track: an injury when the Chaos
/// Dice say so (or the blow or an ill omen makes it certain). A subduing blow never injures.
pub fn after_blow(world: &mut World, e: Entity, before: u32, now: u32, subdue: bool, blow: &Blow) {
    if subdue || !on_field(world, e) {
        return;
    }
    let omen = world.get::<Fighter>(e).is_some_and(|f| f.injure_next);
    let Some(severity) = severity_of(world, e, before, now, blow, omen) else { return };
    if omen && let Some(mut f) = world.get_mut::<Fighter>(e) {
        f.injure_next = false;
    }
    let region = blow.region.unwrap_or_else(|| {
        aim_of(crate::combat::hit_location(roll(world, Some(e), "injury location", 1, 10, 0)))
    });
    injure(world, e, severity, region, blow.dangerous && !blow.pummeling, !blow.pummeling);
}

/// How bad an injury a blow that moved its victim from `before` to `now` gives, if any: certain
/// for a Detonate or Siege blow (Grievous) or after an ill `omen` (as wounded now), else by the
/// Chaos Dice (`roller` rolls them); Pummeling makes it Moderate, Weak no worse than Serious.
pub fn severity_of(
    world: &mut World,
    roller: Entity,
    before: u32,
    now: u32,
    blow: &Blow,
    omen: bool,
) -> Option<Severity> {
    if now <= before {
        return None;
    }
    let severity = if blow.grievous {
        Severity::Grievous
    } else if omen {
        Severity::of_step(now).unwrap_or(Severity::Moderate)
    } else {
        let s = Severity::of_step(now)?;
        if !injured_by_dice(world, roller, now, blow.vicious) {
            return None;
        }
        s
    };
    Some(match severity {
        _ if blow.pummeling => Severity::Moderate,
        Severity::Grievous if blow.weak => Severity::Serious,
        s => s,
    })
}

/// Not slain (an unconscious one may still be injured, and its wound bound).
fn on_field(world: &World, e: Entity) -> bool {
    world.get::<Fighter>(e).is_some_and(|f| !f.has(Condition::Slain))
}

fn aim_of(word: &str) -> Aim {
    Aim::of_word(word).unwrap_or(Aim::Body)
}

/// The Chaos Dice for a blow that left its victim at `step` of the damage track: any 6 injures.
fn injured_by_dice(world: &mut World, e: Entity, step: u32, vicious: bool) -> bool {
    let (moderate, serious, grievous) = world.resource::<Battle>().rules.numbers.injury_dice;
    let n = match step {
        2 => moderate,
        3 => serious,
        4 => grievous,
        _ => return false,
    } + u32::from(vicious);
    (0..n).map(|_| chaos(world, Some(e), "injury Chaos Die")).filter(|&d| d == 6).count() > 0
}

/// The injury table's row for this severity at this location (`roller` rolls among several;
/// any location's rows of that severity where none is for this one).
pub fn pick(world: &mut World, roller: Entity, severity: Severity, region: Aim) -> Option<InjuryRow> {
    let rows: Vec<InjuryRow> = {
        let all = &world.resource::<Battle>().tables.injuries;
        let here: Vec<InjuryRow> =
            all.iter().filter(|r| r.severity == severity && r.region == region).cloned().collect();
        if here.is_empty() { all.iter().filter(|r| r.severity == severity).cloned().collect() } else { here }
    };
    match rows.len() {
        0 => None,
        1 => rows.into_iter().next(),
        n => {
            let pick = roll(world, Some(roller), "injury", 1, n as u32, 0) as usize;
            rows.into_iter().nth(pick.clamp(1, n) - 1)
        }
    }
}

/// Gives `e` the injury of this severity at this location, with what it does at once; it
/// bleeds when its row says so or `bleeds` does (`may_bleed` false: never).
pub fn injure(world: &mut World, e: Entity, severity: Severity, region: Aim, bleeds: bool, may_bleed: bool) {
    let Some(row) = pick(world, e, severity, region) else { return };
    let who = id(world, e);
    let detail = format!("{} ({} injury, {}): {}", row.name, severity.word(), region.word(), row.summary());
    world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what: "injury", detail });
    for effect in &row.effects {
        match effect {
            InjuryEffect::Drop => crate::stunts::drop_weapon(world, e, None),
            InjuryEffect::Prone => {
                add(world, e, Condition::Prone);
            }
            InjuryEffect::Stunned => {
                add(world, e, Condition::Stunned);
            }
            InjuryEffect::Tests { .. } | InjuryEffect::Slower(_) | InjuryEffect::Threshold(_) => {}
        }
    }
    if may_bleed && (row.bleeds || bleeds) {
        add(world, e, Condition::Bleeding);
    }
    if let Some(mut f) = world.get_mut::<Fighter>(e) {
        f.injuries.push(row);
    }
}

/// The injuries' modifiers to a test of `skill` (every test's for a list left empty).
pub fn test_modifiers(f: &Fighter, skill: Option<Skill>) -> Vec<Modifier> {
    let mut out = Vec::new();
    for i in &f.injuries {
        for e in &i.effects {
            if let InjuryEffect::Tests { skills, amount } = e
                && (skills.is_empty() || skill.is_some_and(|s| skills.contains(&s)))
            {
                out.push(Modifier::new(i.name.to_lowercase(), *amount));
            }
        }
    }
    out
}

/// The injuries' parts of the Damage Threshold.
pub fn threshold_modifiers(f: &Fighter) -> Vec<Modifier> {
    let mut out = Vec::new();
    for i in &f.injuries {
        for e in &i.effects {
            if let InjuryEffect::Threshold(t) = e {
                out.push(Modifier::new(i.name.to_lowercase(), *t));
            }
        }
    }
    out
}

/// The bleeding one's turn starts: a Chaos Die; a 6 moves it a step down the damage track.
pub fn bleed(world: &mut World, e: Entity) {
    if !world.get::<Fighter>(e).is_some_and(|f| f.has(Condition::Bleeding)) {
        return;
    }
    if chaos(world, Some(e), "bleeding Chaos Die") == 6 {
        crate::combat::wound(world, e, 1, false, None, &Source::named("bleeding"));
    }
}

/// Checks binding `t`'s bleeding wound: `t` bleeds and is `e` or an ally engaged with it;
/// `bind_ap` AP.
pub fn check_bind(world: &World, e: Entity, t: Entity) -> Verdict {
    let f = world.get::<Fighter>(e).ok_or_else(|| Rejection::new("not a combatant"))?;
    let bleeding = world.get::<Fighter>(t).is_some_and(|tf| tf.has(Condition::Bleeding));
    if !bleeding {
        return Err(Rejection::new(format!("{} is not bleeding", name(world, t))));
    }
    if t != e {
        if enemies(world, e, t) || !on_field(world, t) {
            return Err(Rejection::new(format!("{} is not an ally in the fight", name(world, t))));
        }
        if between(world, e, t) > crate::field::engagement(world) + crate::field::EPS {
            return Err(Rejection::new(format!("{} is out of reach: stand beside it", name(world, t))));
        }
    }
    let ap = world.resource::<Battle>().rules.numbers.bind_ap;
    if f.ap < ap {
        return Err(Rejection::new(format!("binding a wound costs {ap} AP; {} left", f.ap)));
    }
    Ok(())
}

/// Binds `t`'s wound: the AP, and `e`'s Heal test that stops the bleeding.
pub fn bind(world: &mut World, e: Entity, t: Entity) {
    let ap = world.resource::<Battle>().rules.numbers.bind_ap;
    if let Some(mut f) = world.get_mut::<Fighter>(e) {
        f.ap = f.ap.saturating_sub(ap);
    }
    let what = format!("binding {}'s wound", name(world, t));
    if test(world, e, &what, Some(Skill::Heal), None, Vec::new(), Flip::None).success {
        remove(world, t, Condition::Bleeding);
    }
}
