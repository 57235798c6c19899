//! Attacks: who can be hit from where (melee reach; weapon range and visible range, the worse
//! band counting), the ranged and melee modifier charts, reactions, and the attack and
//! damage rolls with promotion, deflection, barriers and absorption.

use bevy_ecs::prelude::*;
use fray_core::intent::{Rejection, Verdict};
use fray_core::table::Rides;

use crate::damage::{self, Hit};
use crate::data::{Band, Illumination, MoveMode, Weapon, WeaponKind};
use crate::intent::Reaction;
use crate::rolls;
use crate::sheet::{Affliction, Afflictions, Senses, Skills, Worn};
use crate::view;
use crate::wounds::DamageKind;
use fray_core::log::Source;

/// A checked attack.
#[derive(Clone, Debug, PartialEq)]
pub struct AttackPlan {
    /// The target.
    pub target: Entity,
    /// The weapon's id.
    pub weapon: String,
    /// The attack roll's target number (skill plus modifiers).
    pub target_number: i32,
    /// What makes it: the skill, then every chart row that applies, named.
    pub parts: Vec<(String, i32)>,
    /// Barrier rating the shot goes through (0 around cover or in melee).
    pub barrier: u32,
}

/// Checks an attack by `e` on `target` with the weapon in hand.
pub fn check(world: &World, e: Entity, target: Entity, through_cover: bool) -> Verdict<AttackPlan> {
    let Some((weapon_id, weapon)) = view::ready_weapon(world, e) else {
        return Err(Rejection::new(format!("{} has no weapon in hand", view::name(world, e))));
    };
    let who = view::name(world, target);
    if target == e {
        return Err(Rejection::new("nobody attacks themselves"));
    }
    if !view::on_table(world, target) {
        return Err(Rejection::new(format!("{who} is no longer in the scene")));
    }
    let cover = view::cover(world, target);
    if through_cover && !weapon.kind.ranged() {
        return Err(Rejection::new("only a shot goes through cover"));
    }
    if through_cover && cover.is_none() {
        return Err(Rejection::new(format!("{who} is behind no cover to shoot through")));
    }
    let skill = world.get::<Skills>(e).map_or(0, |s| s.level(&weapon.skill)) as i32;
    let (rows, barrier) = if weapon.kind.ranged() {
        ranged_parts(world, e, target, &weapon, through_cover)?
    } else {
        let reach = view::catalogue(world).tables().reach.get(&weapon.reach).copied().unwrap_or(1.0);
        let limit = reach + view::catalogue(world).tables().free_shift;
        let d = view::distance(world, e, target);
        if d > limit {
            return Err(Rejection::new(format!(
                "{who} is {d:.1} m away; the {} reaches {limit:.1} m",
                weapon.name.to_lowercase()
            )));
        }
        (melee_parts(world, e, target), 0)
    };
    let mut parts = vec![(format!("{} skill", weapon.skill), skill)];
    parts.extend(rows.into_iter().filter(|(_, m)| *m != 0).map(|(what, m)| (what.to_owned(), m)));
    let target_number = parts.iter().map(|(_, m)| m).sum();
    Ok(AttackPlan { target, weapon: weapon_id, target_number, parts, barrier })
}

/// The effective range band of a shot: the worse of the weapon's band and the visibility band.
pub fn band(world: &World, e: Entity, target: Entity, weapon: &Weapon) -> Verdict<Band> {
    let d = view::distance(world, e, target);
    let who = view::name(world, target);
    let (short, medium, long) = weapon.range.unwrap_or((0.0, 0.0, 0.0));
    let weapon_band = if d <= short {
        Band::Short
    } else if d <= medium {
        Band::Medium
    } else if d <= long {
        Band::Long
    } else if d <= 2.0 * long {
        Band::Extreme
    } else {
        return Err(Rejection::new(format!(
            "{who} is {d:.0} m away, beyond the {}'s {:.0} m",
            weapon.name.to_lowercase(),
            2.0 * long
        )));
    };
    let seen = visible_range(world, e, target, weapon);
    let table = &view::catalogue(world).tables().visibility;
    let sight_band =
        table.bands.iter().find(|(multiple, _)| d <= multiple * seen).map(|(_, b)| *b).ok_or_else(|| {
            Rejection::new(format!("{who} is {d:.0} m away, too far to see ({seen:.0} m visible)"))
        })?;
    Ok(weapon_band.max(sight_band))
}

/// The attacker's visible range towards this target: magnification, darkness (lights,
/// the target's illumination, IR) and the target's size.
pub fn visible_range(world: &World, e: Entity, target: Entity, weapon: &Weapon) -> f32 {
    let cat = view::catalogue(world);
    let table = &cat.tables().visibility;
    let senses = world.get::<Senses>(e).copied();
    let base = senses.map_or(100.0, |s| s.visible_range) * weapon.magnification.max(0.0);
    let target_senses = world.get::<Senses>(target).copied();
    let at = view::position(world, target);
    let lit = cat.0.conditions.lights.iter().any(|((x, y), r)| view::distance_between(at, [*x, *y]) <= *r);
    let mut darkness = table.darkness.get(&cat.0.conditions.darkness).copied().unwrap_or(0.0);
    match target_senses.map_or(Illumination::Dark, |s| s.illumination) {
        _ if lit => darkness = 0.0,
        Illumination::Well => darkness = 0.0,
        Illumination::Dim => darkness /= 2.0,
        Illumination::Dark => {}
    }
    if senses.is_some_and(|s| s.ir) {
        darkness = darkness.max(table.ir_floor);
    }
    let size = target_senses.map_or(10, |s| s.size);
    let size_change =
        table.sizes.iter().find(|(lo, hi, _)| (*lo..=*hi).contains(&size)).map_or(0.0, |(_, _, f)| *f);
    (base * (1.0 + darkness + size_change)).max(0.0)
}

fn moving_target(rows: &[(f32, i32)], beyond: (f32, i32), rate: f32) -> i32 {
    let mut modifier = 0;
    for (at_least, m) in rows {
        if rate >= *at_least {
            modifier = *m;
        }
    }
    if let Some((last, _)) = rows.last()
        && beyond.0 > 0.0
        && rate >= last + beyond.0
    {
        modifier += beyond.1 * ((rate - last) / beyond.0).floor() as i32;
    }
    modifier
}

/// The ranged chart's modifier for this shot, and the barrier it goes through.
/// The ranged chart's rows that apply to this shot, named, and the barrier it goes through.
fn ranged_parts(
    world: &World,
    e: Entity,
    target: Entity,
    weapon: &Weapon,
    through_cover: bool,
) -> Verdict<(Vec<(&'static str, i32)>, u32)> {
    let t = &view::catalogue(world).tables().ranged;
    let band = band(world, e, target, weapon)?;
    let mut m = vec![(band_name(band), t.band.get(&band).copied().unwrap_or(0))];
    if view::prone(world, e) {
        m.push(if weapon.kind == WeaponKind::Firearm {
            ("attacker prone", t.attacker_prone_firearm)
        } else {
            ("attacker prone", t.attacker_prone_other)
        });
    }
    let above = view::elevation(world, e) - view::elevation(world, target);
    if let Some((_, b)) = t.high_ground.iter().find(|(metres, _)| above >= *metres) {
        m.push(("high ground", *b));
    }
    match view::cover(world, e) {
        Some((90.., _)) => m.push(("attacker in 90% cover", t.attacker_cover_90)),
        Some((50.., _)) => m.push(("attacker in 50% cover", t.attacker_cover_50)),
        _ => {}
    }
    match view::motion(world, e).map(|x| x.mode) {
        Some(MoveMode::Walk) => m.push(("attacker walking", t.attacker_walking)),
        Some(MoveMode::Run) => m.push(("attacker running", t.attacker_running)),
        _ => {}
    }
    let d = view::distance(world, e, target);
    if view::status(world, target) == fray_core::table::Status::Unconscious {
        m.push(("target immobile", t.target_immobile));
    }
    if view::prone(world, target) {
        if d < t.target_prone_near.0 {
            m.push(("target prone, near", t.target_prone_near.1));
        } else if d > t.target_prone_far.0 {
            m.push(("target prone, far", t.target_prone_far.1));
        }
    }
    m.push((
        "target moving",
        moving_target(&t.target_moving, t.target_moving_beyond, view::moving_rate(world, target)),
    ));
    let mut barrier = 0;
    if let Some((percent, rating)) = view::cover(world, target) {
        let high = percent >= 90;
        if through_cover {
            m.push(if high {
                ("through 90% cover", t.through_cover_90)
            } else {
                ("through 50% cover", t.through_cover_50)
            });
            barrier = rating;
        } else {
            m.push(if high {
                ("target in 90% cover", t.target_cover_90)
            } else {
                ("target in 50% cover", t.target_cover_50)
            });
        }
    }
    Ok((m, barrier))
}

fn band_name(band: Band) -> &'static str {
    match band {
        Band::Short => "short range",
        Band::Medium => "medium range",
        Band::Long => "long range",
        Band::Extreme => "extreme range",
    }
}

/// The melee chart's modifier.
/// The melee chart's rows that apply, named.
fn melee_parts(world: &World, e: Entity, target: Entity) -> Vec<(&'static str, i32)> {
    let t = &view::catalogue(world).tables().melee;
    let mut m = Vec::new();
    if view::prone(world, e) {
        m.push(("attacker prone", t.attacker_prone));
    }
    if view::motion(world, e).is_some_and(|x| x.mode == MoveMode::Run) {
        m.push(("attacker running", t.attacker_running));
    }
    if view::prone(world, target) {
        m.push(("target prone", t.target_prone));
    }
    m.push((
        "target moving",
        moving_target(&t.target_moving, t.target_moving_beyond, view::moving_rate(world, target)),
    ));
    m
}

/// What a board shows when an attacker aims at a target: the distance, the effective range
/// band, and the chart rows that apply, as the rules would count them now.
#[derive(Clone, Debug, PartialEq)]
pub struct AimView {
    /// Distance in metres.
    pub distance: f32,
    /// The weapon in hand's name, if any.
    pub weapon: Option<String>,
    /// The effective band of a shot (the worse of weapon and sight); `None` in melee.
    pub band: Option<Band>,
    /// The modifiers that apply (rows with 0 left out), named.
    pub modifiers: Vec<(&'static str, i32)>,
    /// The attack roll's target number (skill plus modifiers), or why the attack is refused.
    pub target_number: Verdict<i32>,
}

/// The board's view of `e` aiming at `target` with the weapon in hand.
pub fn aim(world: &World, e: Entity, target: Entity, through_cover: bool) -> AimView {
    let distance = view::distance(world, e, target);
    let ready = view::ready_weapon(world, e);
    let weapon = ready.as_ref().map(|(_, w)| w.name.clone());
    let (band, parts) = match &ready {
        Some((_, w)) if w.kind.ranged() => (
            band(world, e, target, w).ok(),
            ranged_parts(world, e, target, w, through_cover).map(|(p, _)| p).unwrap_or_default(),
        ),
        Some(_) => (None, melee_parts(world, e, target)),
        None => (None, Vec::new()),
    };
    let modifiers = parts.into_iter().filter(|(_, m)| *m != 0).collect();
    let target_number = check(world, e, target, through_cover).map(|p| p.target_number);
    AimView { distance, weapon, band, modifiers, target_number }
}

/// Checks a reaction by `e` to an attack with `weapon`.
pub fn check_reaction(world: &World, e: Entity, reaction: Reaction, weapon: &Weapon) -> Verdict {
    match reaction {
        Reaction::Dodge => Ok(()),
        Reaction::Parry if weapon.kind.ranged() => Err(Rejection::new("a shot cannot be parried")),
        Reaction::Parry => match view::ready_weapon(world, e) {
            Some((_, w)) if w.kind == WeaponKind::Melee => Ok(()),
            _ => Err(Rejection::new(format!(
                "{} has no melee weapon in hand to parry with",
                view::name(world, e)
            ))),
        },
    }
}

/// The reaction's roll against `attacker`'s `weapon`: its successes.
fn reaction_roll(
    world: &mut World,
    e: Entity,
    reaction: Reaction,
    (attacker, weapon): (Entity, &str),
) -> u32 {
    let prowess = view::traits(world, e).prowess;
    let (what, skill) = match reaction {
        Reaction::Dodge => ("Dodge".to_owned(), "dodge".to_owned()),
        Reaction::Parry => {
            let skill = view::ready_weapon(world, e).map_or_else(String::new, |(_, w)| w.skill);
            ("Parry".to_owned(), skill)
        }
    };
    let level = world.get::<Skills>(e).map_or(0, |s| s.level(&skill)) as i32;
    let verb = if reaction == Reaction::Dodge { "dodges" } else { "parries" };
    let told = format!(
        "{} {verb} {}'s {}",
        view::name(world, e),
        view::name(world, attacker),
        weapon.to_lowercase()
    );
    rolls::plain_roll(world, e, (&what, told), prowess, (&format!("{skill} skill"), level), 1)
}

/// Resolves an attack: the roll, the reaction's successes taken off, and on a hit the
/// damage roll. `reaction` is the target's declared reaction, if any.
pub fn resolve(world: &mut World, e: Entity, plan: &AttackPlan, reaction: Option<(Entity, Reaction)>) {
    let Some(weapon) = view::catalogue(world).weapon(&plan.weapon).cloned() else { return };
    let tables = view::catalogue(world).tables();
    let (hit_successes, critical_below) = (tables.hit_successes, tables.critical_below);
    let prowess = view::traits(world, e).prowess;
    let what = format!("{} at {}", weapon.name, view::name(world, plan.target));
    let who = view::name(world, e);
    let verb = if weapon.kind.ranged() { "shoots at" } else { "strikes at" };
    let told = format!("{who} {verb} {}", view::name(world, plan.target));
    let successes = rolls::skill_roll(world, e, (&what, told), prowess, &plan.parts, hit_successes);
    let defence = match reaction {
        Some((r, kind)) if view::can_act(world, r) => reaction_roll(world, r, kind, (e, &weapon.name)),
        _ => 0,
    };
    let net = successes as i32 - hit_successes as i32 - defence as i32;
    if successes < critical_below {
        view::effect(world, e, "critical_failure", format!("{what}: no success at all"));
    }
    if successes < hit_successes || net < 0 {
        view::effect(
            world,
            e,
            "miss",
            format!("{what}: {successes} successes, {defence} taken off by the reaction"),
        );
        return;
    }
    let armour = world.get::<Worn>(plan.target).and_then(|w| w.0.clone());
    let (_, deflection) = view::catalogue(world).protection(armour.as_deref(), weapon.damage_type);
    let mut dice = view::catalogue(world).damage(&plan.weapon);
    let before = dice.to_string();
    dice.shift(net - deflection as i32 - plan.barrier as i32);
    view::effect(
        world,
        e,
        "hit",
        format!(
            "{what}: {net} net successes, deflection {deflection}, barrier {}: {before} becomes {dice}",
            plan.barrier
        ),
    );
    let faces = rolls::faces(world, dice.count());
    let (normal, piercing) = dice.score(&faces, weapon.damage_target);
    let told =
        format!("{who}'s {} hits {}: damage", weapon.name.to_lowercase(), view::name(world, plan.target));
    let said = (format!("{} damage {dice}", weapon.name), told);
    rolls::damage_roll(world, e, said, faces, weapon.damage_target);
    let kind = if weapon.stun { DamageKind::Stun } else { DamageKind::Normal };
    let source = Source::by(
        format!("{who}'s {}", weapon.name.to_lowercase()),
        view::id(world, e),
        Some(plan.weapon.clone()),
    );
    damage::deal(world, plan.target, Hit { normal, piercing, kind, absorbable: true, source });
    if let Some(dot) = weapon.dot
        && view::on_table(world, plan.target)
    {
        let now = view::tick(world);
        if let Some(mut list) = world.get_mut::<Afflictions>(plan.target) {
            list.0.push(Affliction {
                what: weapon.name.to_lowercase(),
                every: dot.every.max(1),
                damage: dot.damage,
                next: now + dot.every.max(1),
                remaining: Some(dot.times),
                absorbed: dot.absorbed,
                stun: weapon.stun,
            });
        }
    }
}

/// Whether `target` is aware of an attack by `e`: within its visible range, or in reach.
pub fn aware_of(world: &World, target: Entity, e: Entity) -> bool {
    let range = world.get::<Senses>(target).map_or(100.0, |s| s.visible_range);
    let riding_together =
        world.get::<Rides>(e).is_some() && world.get::<Rides>(e) == world.get::<Rides>(target);
    riding_together || view::distance(world, target, e) <= range
}

/// A scripted event's blast: everyone on the table within its radius takes its damage dice,
/// demoted by their armour's deflection against its type.
pub fn blast(world: &mut World, ev: &crate::data::ScriptedEvent) {
    view::log_table(world, fray_core::log::LogEvent::Effect { what: "event", detail: ev.name.clone() });
    let Ok(base) = crate::dice::DamageDice::parse(&ev.damage) else { return };
    let centre = [ev.position.0, ev.position.1];
    for t in view::combatants(world) {
        if !view::on_table(world, t) || view::distance_between(view::position(world, t), centre) > ev.radius {
            continue;
        }
        let armour = world.get::<Worn>(t).and_then(|w| w.0.clone());
        let (_, deflection) = view::catalogue(world).protection(armour.as_deref(), ev.damage_type);
        let mut dice = base.clone();
        dice.shift(-(deflection as i32));
        let faces = rolls::faces(world, dice.count());
        let (normal, piercing) = dice.score(&faces, ev.damage_target);
        let told = format!("{} is caught in the {}", view::name(world, t), ev.name.to_lowercase());
        rolls::damage_roll(world, t, (format!("{} damage {dice}", ev.name), told), faces, ev.damage_target);
        let kind = if ev.stun { DamageKind::Stun } else { DamageKind::Normal };
        damage::deal(
            world,
            t,
            Hit { normal, piercing, kind, absorbable: true, source: Source::named(ev.name.clone()) },
        );
    }
}
