//! Attacks, reactions and damage. An attack mostly hits: a WIT save is needed for a melee
//! attack on a target that is not visible (a dark zone) and for a ranged one beyond half range
//! or after moving; a ranged attack beyond half range after moving, or on a target not
//! visible, is refused. The target, if it has not acted this round, may spend its turn to
//! react: dodge (an AGI save) or counter (both roll damage; whoever suffers more after armour
//! is hit first). Damage less armour (cover adds 1, never above 3) comes off health; at half
//! or less a character is incapacitated, at zero dead; a nearby incapacitated target may be
//! killed outright.

use bevy_ecs::prelude::*;
use fray_core::dice::{Modifier, RollReading, RollRecord, TableRng};
use fray_core::intent::{Rejection, Verdict};
use fray_core::log::{GameLog, LogEvent, Source};
use fray_core::prelude::Status;
use fray_core::table::{can_act, enemies, id, name, on_table, set_status, status};

use crate::data::{Size, WeaponSpec, ZoneProperty};
use crate::dice::{
    FirstHit, after_armour, counter_first, dice_count, incapacitated, save_passes, scaled_damage,
    scaled_range,
};
use crate::intent::{NonLethal, StuntEffect};
use crate::phase::{AttackHow, Battle, Fighter, PendingAttack, ZoneProperties};
use crate::turns::{between, nearby, zone};

/// The weapon `w` of `e`'s sheet; none: unarmed (d4, impaired).
pub fn weapon(world: &World, e: Entity, w: Option<usize>) -> Option<WeaponSpec> {
    match w {
        None => Some(unarmed()),
        Some(i) => world.get::<Fighter>(e)?.sheet.weapons.get(i).cloned(),
    }
}

fn unarmed() -> WeaponSpec {
    WeaponSpec {
        id: "unarmed".into(),
        name: "bare hands".into(),
        damage: 4,
        range: None,
        blast: false,
        two_handed: false,
        damaged: false,
        improvised: false,
    }
}

/// Checks that `e`'s weapon `w` is in its hands: not knocked away, not broken.
fn in_hand(world: &World, e: Entity, w: Option<usize>, weapon: &WeaponSpec) -> Verdict {
    let Some((w, f)) = w.zip(world.get::<Fighter>(e)) else { return Ok(()) };
    if f.gear.broken.contains(&w) {
        Err(Rejection::new(format!("{}'s {} broke", name(world, e), weapon.name)))
    } else if let Some(&(_, by)) = f.taken.iter().find(|(t, _)| *t == w) {
        Err(Rejection::new(format!("{}'s {} is in {}'s hands", name(world, e), weapon.name, name(world, by))))
    } else if !f.holds(w) {
        Err(Rejection::new(format!("{}'s {} was knocked away", name(world, e), weapon.name)))
    } else {
        Ok(())
    }
}

/// Refuses any attack by a vehicle.
pub(crate) fn not_a_vehicle(world: &World, e: Entity) -> Verdict {
    if world.get::<Fighter>(e).is_some_and(|f| f.sheet.vehicle) {
        Err(Rejection::new(format!("{} is a vehicle: it does not attack", name(world, e))))
    } else {
        Ok(())
    }
}

/// A character's size.
pub fn size(world: &World, e: Entity) -> Size {
    world.get::<Fighter>(e).map_or(Size::Medium, |f| f.sheet.size)
}

pub(crate) fn zone_has(world: &World, e: Entity, p: ZoneProperty) -> bool {
    zone(world, e).and_then(|z| world.get::<ZoneProperties>(z)).is_some_and(|z| z.0.contains(&p))
}

/// Whether `t`'s zone has a border property toward `a`'s zone (`barrier`: a barrier, else
/// cover).
fn border_toward(world: &World, t: Entity, a: Entity, barrier: bool) -> bool {
    let Some(from) = zone(world, a).filter(|&z| Some(z) != zone(world, t)) else { return false };
    let from = fray_core::location::place_id(world, from);
    let p = if barrier { ZoneProperty::BarrierFrom(from) } else { ZoneProperty::CoverFrom(from) };
    zone_has(world, t, p)
}

/// Whether `t` is visible: not in a dark zone.
pub fn visible(world: &World, t: Entity) -> bool {
    !zone_has(world, t, ZoneProperty::Dark)
}

/// How an attack would go: refused with its reason, or whether it needs a WIT save to hit.
pub fn check_attack(world: &World, e: Entity, t: Entity, w: Option<usize>) -> Verdict<bool> {
    not_a_vehicle(world, e)?;
    let weapon = weapon(world, e, w)
        .ok_or_else(|| Rejection::new(format!("{} has no such weapon", name(world, e))))?;
    in_hand(world, e, w, &weapon)?;
    if !enemies(world, e, t) {
        return Err(Rejection::new(format!("{} is not an enemy of {}", name(world, t), name(world, e))));
    }
    if !on_table(world, t) {
        return Err(Rejection::new(format!("{} is out of the fight", name(world, t))));
    }
    if crate::stealth::concealed(world, t) {
        return Err(Rejection::new(format!("{} is concealed: no one can see it", name(world, t))));
    }
    let d = zones_to(world, e, t)?;
    if d > 0 && (zone_has(world, t, ZoneProperty::Barrier) || border_toward(world, t, e, true)) {
        return Err(Rejection::new(format!("{} is behind a barrier: blocked", name(world, t))));
    }
    let moved = world.get::<Fighter>(e).is_some_and(|f| f.moved > 0);
    aim(world, e, t, d, &weapon, moved)
}

/// How many zones from `e` to `t`, or why `t` cannot be reached.
fn zones_to(world: &World, e: Entity, t: Entity) -> Verdict<u32> {
    between(world, e, t).ok_or_else(|| Rejection::new(format!("{} cannot be reached", name(world, t))))
}

/// Whether `e`'s `weapon` reaches `t`, `d` zones away, and whether the blow needs a WIT save to
/// hit (`moved`: `e` moved this turn): the reach, range and sight an attack and a counter share.
fn aim(world: &World, e: Entity, t: Entity, d: u32, weapon: &WeaponSpec, moved: bool) -> Verdict<bool> {
    // A massive character's melee reaches 1 zone; a melee blast hits its own zone.
    let reach = u32::from(size(world, e) == Size::Massive && !weapon.blast);
    match weapon.range {
        None if d > reach => Err(Rejection::new(format!(
            "{} is not nearby: a melee attack reaches its own zone",
            name(world, t)
        ))),
        // A melee blast cannot miss.
        None => Ok(!weapon.blast && !visible(world, t)),
        Some(range) => {
            let range =
                if weapon.blast { range } else { scaled_range(range, size(world, e), size(world, t)) };
            if !visible(world, t) {
                return Err(Rejection::new(format!("{} is not visible: no ranged attack", name(world, t))));
            }
            if d > range {
                return Err(Rejection::new(format!(
                    "{} is {d} zones away; the {} reaches {range}",
                    name(world, t),
                    weapon.name
                )));
            }
            let far = d * 2 > range;
            if far && moved {
                return Err(Rejection::new(format!(
                    "{} is beyond half range, and {} has moved",
                    name(world, t),
                    name(world, e)
                )));
            }
            Ok(far || moved)
        }
    }
}

/// Rolls `e`'s save on `score` for `what`.
pub fn save(world: &mut World, e: Entity, score: u32, what: &str) -> bool {
    let die = world.resource::<Battle>().rules.save_die;
    let roll = world.resource_mut::<TableRng>().die(die);
    let pass = save_passes(roll, score);
    let record = RollRecord {
        what: what.to_owned(),
        dice: vec![roll],
        modifiers: vec![Modifier::new("score", score)],
        reading: RollReading::Successes {
            target: score + 1,
            under: true,
            wounded: 0,
            wounded_target: 0,
            successes: u32::from(pass),
            needed: 1,
            success: pass,
        },
        told: Some(format!("{} makes a {what}", name(world, e))),
    };
    let who = id(world, e);
    world.resource_mut::<GameLog>().about(&who, LogEvent::Roll(record));
    pass
}

/// Attacks: a death blow on a nearby incapacitated target; else the WIT save if needed, then
/// the target's answer if it may react (or is offered a stunt), else the attack lands. A
/// concealed attacker is revealed, and takes its target by surprise: no reaction.
pub fn attack(world: &mut World, e: Entity, t: Entity, w: Option<usize>, wit_save: bool, how: Attack) {
    let surprise = strike_out(world, e, w);
    if weapon(world, e, w).is_some_and(|x| x.blast) {
        blast(world, e, t, w, wit_save, surprise);
        return;
    }
    if how.how == AttackHow::Damage
        && how.stunt.is_none()
        && nearby(world, e, t)
        && status(world, t) == Status::Unconscious
    {
        let who = id(world, e);
        let detail = id(world, t).to_string();
        world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what: "death_blow", detail });
        set_status(world, t, Status::Dead);
        return;
    }
    if wit_save {
        let wit = world.get::<Fighter>(e).map_or(0, |f| f.sheet.wit);
        if !save(world, e, wit, "WIT save to hit") {
            return;
        }
    }
    if surprise {
        let (who, detail) = (id(world, t), id(world, e).to_string());
        world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what: "surprised", detail });
    }
    let reactable = !surprise && may_react(world, t);
    if reactable || how.stunt.is_some() && can_act(world, t) {
        world.resource_mut::<Battle>().pending = Some(PendingAttack {
            attacker: e,
            target: t,
            weapon: w,
            redirected: false,
            how: how.how,
            stunt: how.stunt,
            reactable,
            shared: false,
        });
    } else {
        land(world, e, t, w, &how.how);
    }
}

/// `e` attacks with weapon `w` (its main action): revealed if concealed; whether it takes its
/// targets by surprise (it was concealed).
fn strike_out(world: &mut World, e: Entity, w: Option<usize>) -> bool {
    let surprise = crate::stealth::concealed(world, e);
    crate::stealth::reveal(world, e, "attacked");
    crate::turns::act(world, e, true);
    used(world, e, w);
    surprise
}

/// `e` attacked with weapon `w` (none: unarmed): it rolls for durability after the fight,
/// whether the blow landed, missed, was dodged or was a death blow.
fn used(world: &mut World, e: Entity, w: Option<usize>) {
    if let (Some(w), Some(mut f)) = (w, world.get_mut::<Fighter>(e))
        && !f.gear.used.contains(&w)
    {
        f.gear.used.push(w);
    }
}

/// What an attack does besides its weapon: damage or not, and a stunt proposed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Attack {
    /// Damage, held back, or a non-lethal effect.
    pub how: AttackHow,
    /// A stunt proposed instead of the damage.
    pub stunt: Option<StuntEffect>,
}

/// An attack lands on `t`: its damage (impaired when held back), or its non-lethal effect.
pub fn land(world: &mut World, a: Entity, t: Entity, w: Option<usize>, how: &AttackHow) {
    match how {
        AttackHow::Damage | AttackHow::HeldBack | AttackHow::Dice(_) => strike(world, a, t, w, how),
        AttackHow::NonLethal(kind) => crate::non_lethal::resolve(world, a, t, kind),
    }
}

/// A blast: every character in a zone is hit (a melee blast: the attacker's zone, not the
/// attacker, and it cannot miss; a ranged blast: the target's zone, the attacker too if it is
/// there; on a failed WIT save it deviates to a neighbouring zone drawn by a die). Its targets
/// answer one at a time, in scenario order: see [`next_target`].
fn blast(world: &mut World, e: Entity, t: Entity, w: Option<usize>, wit_save: bool, surprise: bool) {
    let melee = weapon(world, e, w).is_some_and(|x| x.range.is_none());
    let Some(mut at) = zone(world, if melee { e } else { t }) else { return };
    if wit_save {
        let wit = world.get::<Fighter>(e).map_or(0, |f| f.sheet.wit);
        if !save(world, e, wit, "WIT save to hit") {
            let near = fray_core::location::accessible_from(world, at);
            if near.is_empty() {
                return;
            }
            let face = world.resource_mut::<TableRng>().die(near.len() as u32);
            // The neighbours as numbered for the die, so the table sees the draw.
            let place = |z| fray_core::location::place_name(world, z);
            let numbered: Vec<String> =
                near.iter().enumerate().map(|(i, &z)| format!("{} {}", i + 1, place(z))).collect();
            let aimed = place(at);
            at = near[(face - 1) as usize];
            let what = format!("deviation from {aimed} ({}): {}", numbered.join(" · "), place(at));
            let told = format!("{}'s shot goes astray, into {}", name(world, e), place(at));
            let record = RollRecord::sum(what, vec![face], 0).told(told);
            let who = id(world, e);
            world.resource_mut::<GameLog>().about(&who, LogEvent::Roll(record));
        }
    }
    let order = world.resource::<fray_core::prelude::TableIndex>().order.clone();
    let left = order
        .into_iter()
        .filter(|&c| on_table(world, c) && zone(world, c) == Some(at) && !(melee && c == e))
        .map(|c| (c, AttackHow::Damage))
        .collect();
    several(world, e, w, left, surprise);
}

/// A larger attacker's melee dice spread over several smaller targets nearby (`shares`: each
/// target with its dice), each answering as to an attack of its own.
pub fn spread(world: &mut World, e: Entity, w: Option<usize>, shares: Vec<(Entity, u32)>) {
    let surprise = strike_out(world, e, w);
    let detail = shares.iter().map(|&(t, n)| format!("{} {n}", id(world, t))).collect::<Vec<_>>().join(", ");
    let who = id(world, e);
    world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what: "dice_spread", detail });
    let left = shares.into_iter().map(|(t, n)| (t, AttackHow::Dice(n))).collect();
    several(world, e, w, left, surprise);
}

/// The dice a larger attacker's melee weapon `w` spreads over `targets`: as many as it rolls
/// on the largest of them.
pub fn spread_pool(world: &World, e: Entity, targets: &[Entity]) -> u32 {
    let largest = targets.iter().map(|&t| size(world, t)).max().unwrap_or(Size::Massive);
    dice_count(size(world, e), largest)
}

/// Checks a spread of `e`'s melee weapon `w` over `shares`: two targets or more, each a
/// smaller enemy the weapon reaches and sees, one die each at least, every die of the pool.
pub fn check_spread(world: &World, e: Entity, w: Option<usize>, shares: &[(Entity, u32)]) -> Verdict {
    let weapon = weapon(world, e, w)
        .ok_or_else(|| Rejection::new(format!("{} has no such weapon", name(world, e))))?;
    if weapon.range.is_some() || weapon.blast {
        return Err(Rejection::new(format!("only melee dice are spread; the {} is not", weapon.name)));
    }
    let targets: Vec<Entity> = shares.iter().map(|s| s.0).collect();
    if targets.len() < 2 || (1..targets.len()).any(|i| targets[..i].contains(&targets[i])) {
        return Err(Rejection::new("spread dice go to two targets or more, each named once"));
    }
    for &(t, n) in shares {
        if size(world, t) >= size(world, e) {
            return Err(Rejection::new(format!("{} is not smaller than {}", name(world, t), name(world, e))));
        }
        if check_attack(world, e, t, w)? {
            return Err(Rejection::new(format!(
                "{} is not seen: spread dice only over targets seen",
                name(world, t)
            )));
        }
        if n == 0 {
            return Err(Rejection::new(format!("{} gets no die", name(world, t))));
        }
    }
    let pool = spread_pool(world, e, &targets);
    let total: u32 = shares.iter().map(|s| s.1).sum();
    if total != pool {
        return Err(Rejection::new(format!(
            "the {} rolls {pool} dice on these targets; {total} are given out",
            weapon.name
        )));
    }
    Ok(())
}

/// An attack on several targets begins.
fn several(
    world: &mut World,
    e: Entity,
    w: Option<usize>,
    left: std::collections::VecDeque<(Entity, AttackHow)>,
    surprise: bool,
) {
    world.resource_mut::<Battle>().several =
        Some(crate::phase::Several { attacker: e, weapon: w, left, countered: false, surprise });
    next_target(world);
}

/// The next targets of an attack on several are hit until one may react: that one is asked
/// (dodge, counter unless another target did, or take it), and the rest wait for its answer.
fn next_target(world: &mut World) {
    loop {
        let Some(mut b) = world.resource_mut::<Battle>().several.take() else { return };
        let Some((c, how)) = b.left.pop_front() else { return };
        let (a, w) = (b.attacker, b.weapon);
        let reactable = !b.surprise && c != a && may_react(world, c);
        world.resource_mut::<Battle>().several = Some(b);
        if reactable {
            world.resource_mut::<Battle>().pending = Some(PendingAttack {
                attacker: a,
                target: c,
                weapon: w,
                redirected: false,
                how,
                stunt: None,
                reactable,
                shared: true,
            });
            return;
        }
        if on_table(world, c) {
            land(world, a, c, w, &how);
        }
    }
}

/// Whether `t` may react: fighting, its turn not taken this round, and not grabbed.
pub fn may_react(world: &World, t: Entity) -> bool {
    can_act(world, t)
        && world.get::<Fighter>(t).is_some_and(|f| !f.acted)
        && crate::non_lethal::grabbed_by(world, t).is_none()
}

/// Rolls `a`'s weapon damage (the impaired die when unarmed or held back; a share's dice when
/// spread), less `t`'s armour (and cover).
fn roll_damage(
    world: &mut World,
    a: Entity,
    t: Entity,
    w: Option<usize>,
    how: &AttackHow,
) -> (u32, u32, WeaponSpec) {
    let held_back = *how == AttackHow::HeldBack;
    let weapon = weapon(world, a, w).unwrap_or_else(unarmed);
    let (sa, st) = (size(world, a), size(world, t));
    // Blasts are not scaled by size.
    let n = match how {
        AttackHow::Dice(n) => *n,
        _ if weapon.blast => 1,
        _ => dice_count(sa, st),
    };
    // A rider's attacks are impaired.
    let riding = crate::mounts::mount_of(world, a).is_some();
    let die = if held_back || w.is_none() || riding {
        world.resource::<Battle>().rules.impaired_die
    } else {
        weapon.damage
    };
    let faces: Vec<u32> = (0..n).map(|_| world.resource_mut::<TableRng>().die(die)).collect();
    let sum: u32 = faces.iter().sum();
    let faces_had_one = faces.contains(&1);
    let rolled = if weapon.blast { sum } else { scaled_damage(sum, sa, st) };
    let mut modifiers = Vec::new();
    if let AttackHow::Dice(n) = how {
        modifiers.push(Modifier::new("larger: its share of the spread dice", *n));
    } else if n > 1 {
        modifiers.push(Modifier::new("larger: dice doubled per size", n));
    }
    if rolled < sum {
        modifiers.push(Modifier::new("smaller: halved per size", i64::from(rolled) - i64::from(sum)));
    }
    if held_back {
        modifiers.push(Modifier::new("held back: impaired", die));
    } else if riding && w.is_some() {
        modifiers.push(Modifier::new("rider: impaired", die));
    }
    let told = format!("{}'s {} hits {}: damage", name(world, a), weapon.name.to_lowercase(), name(world, t));
    let mut record = RollRecord::sum(
        format!("{} damage on {}", weapon.name, name(world, t)),
        faces,
        i64::from(rolled) - i64::from(sum),
    )
    .told(told);
    record.modifiers = modifiers;
    let who = id(world, a);
    world.resource_mut::<GameLog>().about(&who, LogEvent::Roll(record));
    let armour = armour_against(world, a, t);
    wear(world, a, w, t, rolled, faces_had_one);
    (rolled, after_armour(rolled, armour, world.resource::<Battle>().rules.max_armour), weapon)
}

/// `t`'s armour value against a blow from `a`: worn armour, shield and cover, each logged
/// (the total never counts above the rules' most).
fn armour_against(world: &mut World, a: Entity, t: Entity) -> u32 {
    // A barrier hit through (a counter on one peeking out) counts as cover.
    let through =
        zone_has(world, t, ZoneProperty::Barrier) && !nearby(world, a, t) || border_toward(world, t, a, true);
    let cover =
        u32::from(zone_has(world, t, ZoneProperty::Cover) || through || border_toward(world, t, a, false));
    let (worn, shield) = world.get::<Fighter>(t).map_or((0, 0), |f| (f.body_armour(), f.shield()));
    let parts: Vec<String> = [("armour", worn), ("shield", shield), ("cover", cover)]
        .into_iter()
        .filter(|(_, n)| *n > 0)
        .map(|(what, n)| format!("{what} {n}"))
        .collect();
    let total = worn + shield + cover;
    if total > 0 {
        let max = world.resource::<Battle>().rules.max_armour;
        let capped = if total > max { format!(", at most {max}") } else { String::new() };
        let detail = format!("{}: {total}{capped}", parts.join(" + "));
        let who = id(world, t);
        world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what: "armour", detail });
    }
    total
}

/// The gear's wear from one damage roll: the weapon is used, and breaks when damaged and a 1
/// shows; the target's shield and armour are used, and when the damage the blow inflicts
/// before armour (`inflicted`: size counted, not the raw die) reaches `breaks_armour` one of
/// them breaks (after this hit): a damaged shield first, else damaged armour.
fn wear(world: &mut World, a: Entity, w: Option<usize>, t: Entity, inflicted: u32, one: bool) {
    let breaks = world.resource::<Battle>().rules.breaks_armour;
    let mut broke = None;
    used(world, a, w);
    if let (Some(w), Some(mut f)) = (w, world.get_mut::<Fighter>(a))
        && one
        && f.gear.damaged.contains(&w)
        && !f.gear.broken.contains(&w)
    {
        f.gear.broken.push(w);
        broke = f.sheet.weapons.get(w).map(|x| x.id.clone());
    }
    if let Some(weapon) = broke {
        let who = id(world, a);
        world
            .resource_mut::<GameLog>()
            .about(&who, LogEvent::Effect { what: "weapon_broke", detail: weapon });
    }
    let Some(mut f) = world.get_mut::<Fighter>(t) else { return };
    let (shield, armour) = (f.shield() > 0, f.body_armour() > 0);
    f.gear.shield_used |= shield;
    f.gear.armour_used |= armour;
    let what = if inflicted < breaks {
        return;
    } else if shield && f.gear.shield_damaged {
        f.gear.shield_broken = true;
        "shield_broke"
    } else if armour && f.gear.armour_damaged {
        f.gear.armour_broken = true;
        "armour_broke"
    } else {
        return;
    };
    let who = id(world, t);
    world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what, detail: String::new() });
}

/// `a` hits `t` with weapon `w`.
pub fn hit(world: &mut World, a: Entity, t: Entity, w: Option<usize>) {
    hit_with(world, a, t, w, false);
}

/// `a` hits `t` with weapon `w`, held back (impaired) or not.
pub fn hit_with(world: &mut World, a: Entity, t: Entity, w: Option<usize>, held_back: bool) {
    strike(world, a, t, w, if held_back { &AttackHow::HeldBack } else { &AttackHow::Damage });
}

/// `a`'s damaging blow lands on `t`: rolled as `how` says, less armour.
fn strike(world: &mut World, a: Entity, t: Entity, w: Option<usize>, how: &AttackHow) {
    let (rolled, taken, weapon) = roll_damage(world, a, t, w, how);
    suffer(
        world,
        t,
        rolled,
        taken,
        Source::by(format!("{}'s {}", name(world, a), weapon.name), id(world, a), Some(weapon.id)),
    );
}

/// `t` suffers `taken` of `rolled` damage (armour took the rest); harm reveals it, and harm
/// by an enemy frees one who surrendered to fight again.
pub(crate) fn suffer(world: &mut World, t: Entity, rolled: u32, taken: u32, source: Source) {
    crate::stealth::reveal(world, t, "harmed");
    if taken > 0 && status(world, t) == Status::Surrendered && by_enemy(world, t, &source) {
        let who = id(world, t);
        let detail = source.by.as_ref().map_or_else(String::new, ToString::to_string);
        world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what: "fights_again", detail });
        set_status(world, t, Status::Fighting);
    }
    let Some(mut f) = world.get_mut::<Fighter>(t) else { return };
    let after = taken;
    let taken = after.min(f.health);
    f.health -= taken;
    let (health, max) = (f.health, f.sheet.health);
    let who = id(world, t);
    // Reduced: what armour took; taken: what health lost (no more than it had).
    let event = LogEvent::Damage {
        damage: "health",
        amount: rolled,
        reduced: rolled - after.min(rolled),
        taken,
        source,
    };
    world.resource_mut::<GameLog>().about(&who, event);
    if health == 0 {
        set_status(world, t, Status::Dead);
    } else if incapacitated(health, max) {
        set_status(world, t, Status::Unconscious);
    }
    crate::non_lethal::end_lost_holds(world);
}

/// Whether `source` is one of `t`'s enemies.
fn by_enemy(world: &World, t: Entity, source: &Source) -> bool {
    let by = source.by.as_ref().and_then(|c| world.resource::<fray_core::prelude::TableIndex>().combatant(c));
    by.is_some_and(|a| enemies(world, a, t))
}

/// The target's answer to the pending attack: a reaction spends its turn; accepting a stunt
/// does not.
pub fn react(world: &mut World, t: Entity, reaction: Reaction) {
    let Some(p) = world.resource_mut::<Battle>().pending.take() else { return };
    if !matches!(reaction, Reaction::None | Reaction::AcceptStunt)
        && let Some(mut f) = world.get_mut::<Fighter>(t)
    {
        f.acted = true;
    }
    if !matches!(reaction, Reaction::None | Reaction::AcceptStunt) {
        crate::stealth::reveal(world, t, "reacted");
    }
    if p.shared
        && matches!(reaction, Reaction::Counter(_) | Reaction::CounterNonLethal(_))
        && let Some(b) = world.resource_mut::<Battle>().several.as_mut()
    {
        b.countered = true;
    }
    let shared = p.shared;
    answer(world, t, p, reaction);
    if shared {
        next_target(world);
    }
}

/// The attack lands, misses or is countered as the reaction says.
fn answer(world: &mut World, t: Entity, p: PendingAttack, reaction: Reaction) {
    match reaction {
        Reaction::None => land(world, p.attacker, t, p.weapon, &p.how),
        Reaction::AcceptStunt => accept_stunt(world, t, p.stunt.unwrap_or(StuntEffect::Disarmed)),
        Reaction::Dodge => {
            let agi = world.get::<Fighter>(t).map_or(0, |f| f.sheet.agi);
            if !save(world, t, agi, "AGI save to dodge") {
                land(world, p.attacker, t, p.weapon, &p.how);
            }
        }
        Reaction::Counter(w) => counter(world, p, Counter::Damage(w)),
        Reaction::CounterNonLethal(kind) => counter(world, p, Counter::NonLethal(kind)),
    }
}

/// `t` accepts a stunt instead of the damage.
fn accept_stunt(world: &mut World, t: Entity, effect: StuntEffect) {
    let (what, detail) = match &effect {
        StuntEffect::Disarmed => ("stunt_accepted", "disarmed".to_owned()),
        StuntEffect::Incapacitated => ("stunt_accepted", "incapacitated".to_owned()),
        StuntEffect::Surrenders => ("stunt_accepted", "surrenders".to_owned()),
        StuntEffect::Other { words } => ("stunt_accepted", words.clone()),
    };
    let who = id(world, t);
    world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what, detail });
    match effect {
        StuntEffect::Disarmed => {
            let n = world.get::<Fighter>(t).map_or(0, |f| f.sheet.weapons.len());
            for w in 0..n {
                crate::non_lethal::drop_weapon(world, t, w);
            }
        }
        StuntEffect::Incapacitated => {
            set_status(world, t, Status::Unconscious);
            crate::non_lethal::end_lost_holds(world);
        }
        StuntEffect::Surrenders => crate::turns::give_up(world, t),
        StuntEffect::Other { .. } => {}
    }
}

/// What a counter strikes back with.
enum Counter {
    Damage(Option<usize>),
    NonLethal(NonLethal),
}

/// A counter. Two damaging blows are rolled at once: whoever suffers more after armour is hit
/// first, and a blow from one it leaves unable to fight does not land; a tie lands both. A
/// non-lethal attack against a damaging one comes last (if its maker still fights), and of two
/// non-lethal attacks the counter comes last.
fn counter(world: &mut World, p: PendingAttack, with: Counter) {
    let (a, t) = (p.attacker, p.target);
    // A damaging counter needing a WIT save to hit and missing it strikes nothing: the attack
    // goes on as if taken.
    let with = match with {
        Counter::Damage(w) if !counter_hits(world, t, a, w) => {
            land(world, a, t, p.weapon, &p.how);
            return;
        }
        other => other,
    };
    match (&p.how, with) {
        (AttackHow::NonLethal(kind), Counter::Damage(w)) => {
            hit(world, t, a, w);
            crate::non_lethal::resolve(world, a, t, kind);
        }
        (how, Counter::NonLethal(kind)) => {
            land(world, a, t, p.weapon, how);
            if can_act(world, t) {
                crate::non_lethal::resolve(world, t, a, &kind);
            }
        }
        (how, Counter::Damage(w)) => trade_blows(world, a, t, p.weapon, how, w),
    }
}

/// Whether `t`'s counter on `a` with weapon `w` hits: its WIT save to hit, when it needs one,
/// is rolled (the weapon is used either way).
fn counter_hits(world: &mut World, t: Entity, a: Entity, w: Option<usize>) -> bool {
    used(world, t, w);
    let Some(weapon) = weapon(world, t, w) else { return false };
    if !zones_to(world, t, a).and_then(|d| aim(world, t, a, d, &weapon, false)).unwrap_or(false) {
        return true;
    }
    let wit = world.get::<Fighter>(t).map_or(0, |f| f.sheet.wit);
    save(world, t, wit, "WIT save to hit")
}

/// Two damaging blows at once: whoever suffers more after armour is hit first.
fn trade_blows(
    world: &mut World,
    a: Entity,
    t: Entity,
    aw: Option<usize>,
    how: &AttackHow,
    w: Option<usize>,
) {
    let (a_rolled, on_t, a_weapon) = roll_damage(world, a, t, aw, how);
    let (t_rolled, on_a, t_weapon) = roll_damage(world, t, a, w, &AttackHow::Damage);
    let src_a =
        Source::by(format!("{}'s {}", name(world, a), a_weapon.name), id(world, a), Some(a_weapon.id));
    let src_t =
        Source::by(format!("{}'s {}", name(world, t), t_weapon.name), id(world, t), Some(t_weapon.id));
    match counter_first(on_t, on_a) {
        FirstHit::Target => {
            suffer(world, t, a_rolled, on_t, src_a);
            if can_act(world, t) {
                suffer(world, a, t_rolled, on_a, src_t);
            }
        }
        FirstHit::Attacker => {
            suffer(world, a, t_rolled, on_a, src_t);
            if can_act(world, a) {
                suffer(world, t, a_rolled, on_t, src_a);
            }
        }
        FirstHit::Both => {
            suffer(world, t, a_rolled, on_t, src_a);
            suffer(world, a, t_rolled, on_a, src_t);
        }
    }
}

/// Allies nearby the pending attack's target who may guard it.
pub fn guards(world: &World) -> Vec<Entity> {
    let pending = world.resource::<Battle>().pending.clone();
    let Some(p) = pending.filter(|p| !p.redirected && p.reactable && !p.shared) else {
        return Vec::new();
    };
    let order = &world.resource::<fray_core::prelude::TableIndex>().order;
    order
        .iter()
        .copied()
        .filter(|&a| {
            a != p.target && !enemies(world, a, p.target) && nearby(world, a, p.target) && may_react(world, a)
        })
        .collect()
}

/// Checks `t` hiding behind `ally`: a nearby willing ally, once per attack.
pub fn check_hide(world: &World, t: Entity, ally: Entity) -> Verdict {
    let p =
        world.resource::<Battle>().pending.clone().ok_or_else(|| Rejection::new("no attack to hide from"))?;
    if p.redirected {
        return Err(Rejection::new("this attack already changed its target"));
    }
    if p.shared {
        return Err(Rejection::new("an attack on several targets: no hiding behind anyone"));
    }
    // A willing ally, or an enemy `t` holds.
    let held = crate::non_lethal::grabbed_by(world, ally) == Some(t);
    if ally == t || enemies(world, t, ally) && !held || !can_act(world, ally) || !nearby(world, t, ally) {
        return Err(Rejection::new(format!(
            "{} is not a nearby ally of {}, nor an enemy it holds",
            name(world, ally),
            name(world, t)
        )));
    }
    Ok(())
}

/// The pending attack turns on `stand_in` (hidden behind, or guarding): the one who reacted
/// spent its turn; a guard takes the attack at once, a hiding place may react itself.
pub fn redirect(world: &mut World, reactor: Entity, stand_in: Entity, guard: bool) {
    if let Some(mut f) = world.get_mut::<Fighter>(reactor) {
        f.acted = true;
    }
    let Some(mut p) = world.resource_mut::<Battle>().pending.take() else { return };
    let who = id(world, reactor);
    let what = if guard { "guarded" } else { "hid_behind" };
    let detail = if guard { id(world, p.target).to_string() } else { id(world, stand_in).to_string() };
    world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what, detail });
    crate::stealth::reveal(world, reactor, "reacted");
    p.target = stand_in;
    p.redirected = true;
    // An enemy held as a shield has no say; a willing ally may react itself.
    p.reactable = !guard && !enemies(world, reactor, stand_in) && may_react(world, stand_in);
    if p.reactable || !guard && p.stunt.is_some() && !enemies(world, reactor, stand_in) {
        world.resource_mut::<Battle>().pending = Some(p);
    } else {
        land(world, p.attacker, stand_in, p.weapon, &p.how);
    }
}

/// Enemies nearby `mover` who may make an opportunity attack as it moves away.
pub fn watchers(world: &World, mover: Entity) -> Vec<Entity> {
    let order = &world.resource::<fray_core::prelude::TableIndex>().order;
    order
        .iter()
        .copied()
        .filter(|&a| enemies(world, a, mover) && nearby(world, a, mover) && may_react(world, a))
        // No one sees a concealed character sneak away.
        .filter(|_| !crate::stealth::concealed(world, mover))
        .collect()
}

/// Checks an opportunity attack by `a` with weapon `w` on the one moving away: a melee attack.
pub fn check_opportunity(world: &World, a: Entity, w: Option<usize>) -> Verdict {
    not_a_vehicle(world, a)?;
    let l =
        world.resource::<Battle>().leaving.clone().ok_or_else(|| Rejection::new("no one is moving away"))?;
    let weapon = weapon(world, a, w)
        .ok_or_else(|| Rejection::new(format!("{} has no such weapon", name(world, a))))?;
    in_hand(world, a, w, &weapon)?;
    if weapon.range.is_some() {
        return Err(Rejection::new(format!(
            "an opportunity attack is a melee attack; the {} is ranged",
            weapon.name
        )));
    }
    if !nearby(world, a, l.mover) {
        return Err(Rejection::new(format!("{} is not nearby", name(world, l.mover))));
    }
    Ok(())
}

/// `a` answers a move away: an opportunity attack (its turn spent; the mover, taking its own
/// turn, cannot react), or letting go. The last answer lets the move go on if the mover can.
pub fn answer_leaving(world: &mut World, a: Entity, attack: Option<Option<usize>>) {
    let Some(mover) = world.resource::<Battle>().leaving.as_ref().map(|l| l.mover) else { return };
    if let Some(w) = attack {
        if let Some(mut f) = world.get_mut::<Fighter>(a) {
            f.acted = true;
        }
        crate::stealth::reveal(world, a, "reacted");
        let who = id(world, a);
        let detail = id(world, mover).to_string();
        world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what: "opportunity_attack", detail });
        hit(world, a, mover, w);
    }
    let done = {
        let mut battle = world.resource_mut::<Battle>();
        let Some(l) = battle.leaving.as_mut() else { return };
        l.asked.retain(|&x| x != a);
        l.asked.is_empty()
    };
    if done
        && let Some(l) = world.resource_mut::<Battle>().leaving.take()
        && can_act(world, l.mover)
    {
        crate::turns::apply_move(world, l.mover, l.to, l.zones);
    }
}

/// A reaction to an attack.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reaction {
    /// Take it.
    None,
    /// Dodge.
    Dodge,
    /// Counter with a weapon (none: unarmed).
    Counter(Option<usize>),
    /// Counter with a non-lethal attack.
    CounterNonLethal(NonLethal),
    /// Accept the stunt proposed (no reaction).
    AcceptStunt,
}

/// Checks a counter by `t` on the pending attack's attacker with weapon `w`: a counter is an
/// attack, with an attack's reach, range and sight (sizes scale a range, never a blast's), and
/// whether it needs a WIT save to hit (beyond half range, or at an attacker not visible); it
/// may strike through a barrier, which counts as cover.
pub fn check_counter(world: &World, t: Entity, w: Option<usize>) -> Verdict<bool> {
    not_a_vehicle(world, t)?;
    let p =
        world.resource::<Battle>().pending.clone().ok_or_else(|| Rejection::new("no attack to counter"))?;
    no_second_counter(world, &p)?;
    let weapon = weapon(world, t, w)
        .ok_or_else(|| Rejection::new(format!("{} has no such weapon", name(world, t))))?;
    in_hand(world, t, w, &weapon)?;
    aim(world, t, p.attacker, zones_to(world, t, p.attacker)?, &weapon, false)
}

/// Checks a non-lethal counter by `t` on the pending attack's attacker.
pub fn check_counter_non_lethal(world: &World, t: Entity, kind: &NonLethal) -> Verdict {
    let p =
        world.resource::<Battle>().pending.clone().ok_or_else(|| Rejection::new("no attack to counter"))?;
    no_second_counter(world, &p)?;
    crate::non_lethal::check(world, t, p.attacker, kind)
}

/// An attack on several targets is countered by one of them at most.
fn no_second_counter(world: &World, p: &PendingAttack) -> Verdict {
    let countered = world.resource::<Battle>().several.as_ref().is_some_and(|b| b.countered);
    if p.shared && countered {
        Err(Rejection::new("one of this attack's targets countered it already: no other may"))
    } else {
        Ok(())
    }
}
