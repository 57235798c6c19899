//! Attacks, bold actions, defences, counterattacks, traps and damage. An attack rolls a d12
//! with its skill die against the target's Difficulty; a hit waits for the defender's
//! defence against the attack's total (the DL); what gets through wears stamina, then the
//! pool of a limb a d6 picks.

use bevy_ecs::prelude::*;
use fray_core::dice::{Modifier, RollReading, RollRecord, TableRng};
use fray_core::intent::{Rejection, Verdict};
use fray_core::log::{GameLog, LogEvent, Source};
use fray_core::prelude::{Counters, Status};
use fray_core::table::{can_act, enemies, id, name, on_table, set_status};
use fray_core::tokens::CounterKind;

use crate::data::{BoldEffect, Defence, Limb, TechniqueEffect, WeaponKind};
use crate::dice;
use crate::phase::{Battle, Fighter, HitKind, LastHit, PendingHit, Reduction, Speed, Sustained};
use crate::turns::{between, place, position};

/// FOG: what bold actions cost, rolled at each use; it adds up to the party's XP.
pub const FOG: CounterKind = CounterKind::new(0, "fog", "FOG");

const EPS: f32 = 1e-3;

/// An attack planned.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AttackPlan {
    /// The target.
    pub target: Entity,
    /// The weapon's index.
    pub weapon: usize,
    /// Added by a bold action.
    pub bonus: u32,
    /// It costs an action (and counts for the second-attack rule).
    pub costs_action: bool,
    /// A counterattack on a fumble.
    pub counter: bool,
    /// A technique of the attacker's sheet tacked on.
    pub technique: Option<usize>,
}

/// Checks technique `k` of `e` on an attack with weapon `w`: the weapon's skill, unlocked by
/// the skill's die.
pub fn check_technique(world: &World, e: Entity, w: usize, k: usize) -> Verdict {
    let f = world.get::<Fighter>(e).ok_or_else(|| Rejection::new("not a combatant"))?;
    let t = f
        .sheet
        .techniques
        .get(k)
        .ok_or_else(|| Rejection::new(format!("{} has no technique {k}", name(world, e))))?;
    let weapon = f
        .sheet
        .weapons
        .get(w)
        .ok_or_else(|| Rejection::new(format!("{} has no weapon {w}", name(world, e))))?;
    if weapon.skill.as_ref() != Some(&t.skill) {
        return Err(Rejection::new(format!(
            "{} is a {} technique; the {} is not",
            t.name, t.skill, weapon.name
        )));
    }
    let die = f.sheet.skills.get(&t.skill).copied().unwrap_or(0);
    if die < t.unlock {
        return Err(Rejection::new(format!("{} needs {} at d{}; it is d{die}", t.name, t.skill, t.unlock)));
    }
    Ok(())
}

/// Whether `e` may accrue FOG now: not a surprised side in the first round.
pub fn may_accrue_fog(world: &World, e: Entity) -> Verdict {
    let battle = world.resource::<Battle>();
    if battle.round == 1
        && battle.surprised.as_ref() == world.get::<fray_core::prelude::Side>(e).map(|s| &s.0)
    {
        return Err(Rejection::new("a surprised side accrues no FOG in the first round"));
    }
    Ok(())
}

/// Adds `n` FOG to `e`'s counter, logged with its reason.
pub fn accrue_fog(world: &mut World, e: Entity, n: u32, reason: &'static str) {
    let total = world.get_mut::<Counters>(e).map_or(0, |mut c| {
        c.add(FOG, n);
        c.get(FOG)
    });
    let who = id(world, e);
    world
        .resource_mut::<GameLog>()
        .about(&who, LogEvent::Tokens { token: FOG, change: i64::from(n), total, reason });
}

/// Checks staking `fog` on one's next attack roll.
pub fn check_stake(world: &World, e: Entity, fog: u32) -> Verdict {
    let f = world.get::<Fighter>(e).ok_or_else(|| Rejection::new("not a combatant"))?;
    let most = world.resource::<Battle>().rules.max_stake;
    if fog == 0 || f.staked + fog > most {
        return Err(Rejection::new(format!(
            "at most {most} FOG may be staked on a roll; {} is staked",
            f.staked
        )));
    }
    may_accrue_fog(world, e)
}

/// Stakes FOG on the next attack roll.
pub fn stake(world: &mut World, e: Entity, fog: u32) {
    if let Some(mut f) = world.get_mut::<Fighter>(e) {
        f.staked += fog;
    }
    accrue_fog(world, e, fog, "stake");
}

/// A roll read as its highest die plus `modifier` against `difficulty`, for the log.
fn record(
    what: String,
    dice: Vec<u32>,
    modifiers: Vec<Modifier>,
    modifier: u32,
    reading: dice::Reading,
    difficulty: u32,
) -> RollRecord {
    let reading = RollReading::BestPlus {
        modifier,
        total: reading.total,
        difficulty,
        success: reading.success,
        extra_successes: 0,
    };
    RollRecord { what, dice, modifiers, reading, told: None }
}

/// Rolls `e`'s defence `d` (a d12 and its die, plus its bonus) against `dl`, logged as
/// `what`, and told as a commentator says it.
fn defence_roll(
    world: &mut World,
    e: Entity,
    d: Defence,
    (what, told): (String, String),
    dl: u32,
) -> dice::Reading {
    let die = world
        .get::<Fighter>(e)
        .map_or(crate::data::DefenceDie { die: 4, bonus: 0 }, |f| f.sheet.defences.get(d));
    let mut rng = world.resource_mut::<TableRng>();
    let (d12, dd) = (rng.die(12), rng.die(die.die));
    let reading = dice::defence(d12, dd, die.bonus, dl);
    let bonus = vec![Modifier::new(format!("{} bonus", d.word()), die.bonus)];
    let roll = record(what, vec![d12, dd], bonus, die.bonus, reading, dl).told(told);
    let who = id(world, e);
    world.resource_mut::<GameLog>().about(&who, LogEvent::Roll(roll));
    reading
}

/// Checks a skill roll: an action, a skill of the sheet.
pub fn check_skill(world: &World, e: Entity, skill: &str) -> Verdict {
    let f = world.get::<Fighter>(e).ok_or_else(|| Rejection::new("not a combatant"))?;
    if !f.sheet.skills.contains_key(skill) {
        return Err(Rejection::new(format!("{} has no skill '{skill}'", name(world, e))));
    }
    if f.actions == 0 {
        return Err(Rejection::new("no action left this turn"));
    }
    Ok(())
}

/// Rolls a skill against the scenario's skill DL (an action); the table says what it does.
pub fn skill_roll(world: &mut World, e: Entity, skill: &str) {
    let Some(die) = world.get::<Fighter>(e).and_then(|f| f.sheet.skills.get(skill).copied()) else { return };
    if let Some(mut f) = world.get_mut::<Fighter>(e) {
        f.actions = f.actions.saturating_sub(1);
    }
    let dl = world.resource::<Battle>().rules.skill_dl;
    let mut rng = world.resource_mut::<TableRng>();
    let (d12, s) = (rng.die(12), rng.die(die));
    let reading = dice::attack(d12, Some(s), 0, dl);
    let told = format!("{} tries {skill}", name(world, e));
    let roll = record(format!("skill roll: {skill}"), vec![d12, s], Vec::new(), 0, reading, dl).told(told);
    let who = id(world, e);
    world.resource_mut::<GameLog>().about(&who, LogEvent::Roll(roll));
}

/// Checks an attack by `e` on `t` with weapon `w`.
pub fn check_attack(world: &World, e: Entity, t: Entity, w: usize, costs_action: bool) -> Verdict {
    let f = world.get::<Fighter>(e).ok_or_else(|| Rejection::new("not a combatant"))?;
    let weapon = f
        .sheet
        .weapons
        .get(w)
        .ok_or_else(|| Rejection::new(format!("{} has no weapon {w}", name(world, e))))?;
    if costs_action && f.actions == 0 {
        return Err(Rejection::new("no action left this turn"));
    }
    if !enemies(world, e, t) {
        return Err(Rejection::new(format!("{} is on {}'s side", name(world, t), name(world, e))));
    }
    if !on_table(world, t) || world.get::<Fighter>(t).is_none_or(|f| f.waiting()) {
        return Err(Rejection::new(format!("{} is not on the field", name(world, t))));
    }
    let d = between(world, e, t);
    if d > weapon.reach + EPS {
        return Err(Rejection::new(format!(
            "{} is {d:.1} Paces away; the {} reaches {} Paces",
            name(world, t),
            weapon.name,
            weapon.reach
        )));
    }
    Ok(())
}

/// Whether an attack with weapon `w` now would roll its skill die at disadvantage: the
/// second attack (or cast) of the turn paid with an action, or a prone target far off.
pub fn disadvantage(world: &World, e: Entity, t: Entity, w: usize, costs_action: bool) -> bool {
    let Some(f) = world.get::<Fighter>(e) else { return false };
    let Some(weapon) = f.sheet.weapons.get(w) else { return false };
    let second = costs_action && if weapon.kind.is_spell() { f.casts >= 1 } else { f.attacks >= 1 };
    let prone_far = world.get::<Fighter>(t).is_some_and(|tf| tf.prone) && between(world, e, t) > 2.0;
    second || prone_far
}

/// Makes an attack: rolls, and on a hit asks the defender's defence (or lands at once on a
/// target who cannot defend); a fumble lets the defender counterattack.
pub fn attack(world: &mut World, e: Entity, plan: AttackPlan) {
    let AttackPlan { target: t, weapon: w, bonus, costs_action, counter, technique } = plan;
    let staked = world.get_mut::<Fighter>(e).map_or(0, |mut f| core::mem::take(&mut f.staked));
    let bonus = bonus + staked;
    let technique = technique.and_then(|k| world.get::<Fighter>(e)?.sheet.techniques.get(k).cloned());
    let Some(f) = world.get::<Fighter>(e).cloned() else { return };
    let Some(weapon) = f.sheet.weapons.get(w).cloned() else { return };
    let disadvantaged = disadvantage(world, e, t, w, costs_action);
    let skill = weapon.skill.as_ref().and_then(|s| f.sheet.skills.get(s).copied());
    let attribute = weapon.attribute.as_ref().and_then(|a| f.sheet.attributes.get(a).copied()).unwrap_or(0);
    let difficulty = world.get::<Fighter>(t).map_or(0, |tf| tf.sheet.difficulty);
    let mut rng = world.resource_mut::<TableRng>();
    let d12 = rng.die(12);
    let mut faces = vec![d12];
    let kept = skill.map(|s| {
        let a = rng.die(s);
        faces.push(a);
        if disadvantaged {
            let b = rng.die(s);
            faces.push(b);
            a.min(b)
        } else {
            a
        }
    });
    let reading = dice::attack(d12, kept, attribute + weapon.bonus + bonus, difficulty);
    let mut modifiers = Vec::new();
    if let Some(a) = &weapon.attribute {
        modifiers.push(Modifier::new(a.clone(), attribute));
    }
    if weapon.bonus > 0 {
        modifiers.push(Modifier::new("weapon", weapon.bonus));
    }
    if bonus > staked {
        modifiers.push(Modifier::new("bold action", bonus - staked));
    }
    if staked > 0 {
        modifiers.push(Modifier::new("FOG staked", staked));
    }
    if skill.is_none() {
        modifiers.push(Modifier::new("no skill: the skill die reads 1", 0));
    }
    if disadvantaged {
        modifiers.push(Modifier::new("disadvantage: the lower skill die kept", 0));
    }
    let with = format!(
        "{}{}",
        weapon.name,
        technique.as_ref().map(|k| format!(" + {}", k.name)).unwrap_or_default()
    );
    let (target, countering) = (name(world, t), if counter { " (counterattack)" } else { "" });
    let what = format!("{with} at {target}{countering}");
    let verb = if counter { "counterattacks" } else { "attacks" };
    let told = format!("{} {verb} {target} ({with})", name(world, e));
    let roll =
        record(what, faces, modifiers, attribute + weapon.bonus + bonus, reading, difficulty).told(told);
    let who = id(world, e);
    world.resource_mut::<GameLog>().about(&who, LogEvent::Roll(roll));
    if let Some(mut f) = world.get_mut::<Fighter>(e) {
        if costs_action {
            f.actions = f.actions.saturating_sub(1);
            if weapon.kind.is_spell() {
                f.casts += 1;
            } else {
                f.attacks += 1;
            }
        }
        if reading.fumble {
            f.fumbled = true;
        }
    }
    if reading.fumble {
        world
            .resource_mut::<GameLog>()
            .about(&who, LogEvent::Effect { what: "fumble", detail: String::new() });
    }
    let may_counter = reading.fumble
        && !counter
        && can_act(world, t)
        && world.get::<Fighter>(t).is_some_and(|tf| !tf.fumbled);
    if !reading.success {
        if may_counter {
            world.resource_mut::<Battle>().counter = Some((t, e));
        }
        return;
    }
    let damage = weapon.damage[(reading.degree as usize - 1).min(2)];
    let speed = world.get::<Fighter>(e).and_then(|f| f.speed);
    let hit = PendingHit {
        defender: t,
        attacker: Some(e),
        source: format!("{}'s {}", name(world, e), weapon.name),
        source_id: weapon.id.clone(),
        kind: HitKind::Attack(weapon.kind),
        fast: speed == Some(Speed::Fast),
        dl: reading.total,
        damage,
        poison: weapon.poison,
        trap: None,
        counter: may_counter,
        to_health: weapon.to_health,
        weapon: Some(w),
        technique: technique.map(|k| k.effect),
    };
    if can_act(world, t) {
        world.resource_mut::<Battle>().pending = Some(hit);
    } else {
        land(world, &hit, Reduction::None);
    }
}

/// The defences that work against a hit, each with why it does not when it does not.
pub fn defences(hit: &PendingHit, battle: &Battle) -> Vec<(Defence, Verdict)> {
    let allowed: Vec<Defence> = match hit.kind {
        HitKind::Attack(WeaponKind::Weapon) => vec![Defence::Brace, Defence::Dodge],
        HitKind::Attack(WeaponKind::Spell) => vec![Defence::Brace, Defence::Defy, Defence::Dodge],
        HitKind::Attack(WeaponKind::IntangibleSpell) => vec![Defence::Defy],
        HitKind::Trap => hit
            .trap
            .and_then(|i| battle.traps.get(i))
            .map_or(vec![Defence::Dodge], |t| t.spec.defences.clone()),
    };
    let fast_only = hit.fast && hit.kind != HitKind::Attack(WeaponKind::IntangibleSpell);
    Defence::ALL
        .iter()
        .map(|&d| {
            let verdict = if !allowed.contains(&d) {
                Err(Rejection::new(match hit.kind {
                    HitKind::Trap => format!("{} does not work against this trap", d.word()),
                    HitKind::Attack(WeaponKind::IntangibleSpell) => {
                        "an intangible spell must be Defied".to_owned()
                    }
                    HitKind::Attack(WeaponKind::Weapon) => "attacks are Braced or Dodged".to_owned(),
                    HitKind::Attack(WeaponKind::Spell) => "a spell is Braced, Dodged or Defied".to_owned(),
                }))
            } else if fast_only && d != Defence::Brace {
                Err(Rejection::new("only Brace works against an attack made on a Fast turn"))
            } else {
                Ok(())
            };
            (d, verdict)
        })
        .collect()
}

/// Rolls `e`'s defence `d` against the pending hit and lands what gets through.
pub fn defend(world: &mut World, e: Entity, d: Defence) {
    let Some(hit) = world.resource_mut::<Battle>().pending.take() else { return };
    if world.get::<Fighter>(e).is_none() {
        return;
    }
    let verb = match d {
        Defence::Brace => "braces against",
        Defence::Defy => "defies",
        Defence::Dodge => "dodges",
        Defence::Handle => "handles",
    };
    let told = format!("{} {verb} {}", name(world, e), hit.source);
    let reading = defence_roll(world, e, d, (format!("{} against {}", d.word(), hit.source), told), hit.dl);
    let who = id(world, e);
    let band = if reading.success { reading.degree } else { 0 };
    match d {
        Defence::Brace => {
            let reduction = if band == 3 { Reduction::All } else { Reduction::Toughness(band + 1) };
            land(world, &hit, reduction);
        }
        Defence::Dodge if band > 0 => {
            let from = hit.attacker.map_or_else(|| trap_centre(world, &hit), |a| position(world, a));
            push_back(world, e, from, band as f32);
        }
        Defence::Defy if band > 0 => {
            world
                .resource_mut::<GameLog>()
                .about(&who, LogEvent::Effect { what: "resisted", detail: hit.source.clone() });
        }
        Defence::Handle if band > 0 => handle_trap(world, e, &hit, band),
        _ => land(world, &hit, Reduction::None),
    }
    if hit.counter
        && let Some(a) = hit.attacker
        && can_act(world, e)
        && can_act(world, a)
    {
        world.resource_mut::<Battle>().counter = Some((e, a));
    }
}

fn trap_centre(world: &World, hit: &PendingHit) -> [f32; 2] {
    hit.trap
        .and_then(|i| world.resource::<Battle>().traps.get(i))
        .map_or([0.0, 0.0], |t| [t.spec.at.0, t.spec.at.1])
}

/// Moves `e` `paces` straight away from `from`, kept on the field (a dodge).
fn push_back(world: &mut World, e: Entity, from: [f32; 2], paces: f32) {
    push(world, e, from, paces, "dodged");
}

/// Moves `e` `paces` straight away from `from`, kept on the field, logged as `what`.
fn push(world: &mut World, e: Entity, from: [f32; 2], paces: f32, what: &'static str) {
    let at = position(world, e);
    let (dx, dy) = (at[0] - from[0], at[1] - from[1]);
    let len = (dx * dx + dy * dy).sqrt();
    let (ux, uy) = if len > EPS { (dx / len, dy / len) } else { (1.0, 0.0) };
    let (w, h) = world.resource::<Battle>().rules.field;
    let to = [(at[0] + ux * paces).clamp(-w / 2.0, w / 2.0), (at[1] + uy * paces).clamp(-h / 2.0, h / 2.0)];
    place(world, e, to);
    let who = id(world, e);
    let detail = format!("{paces} Paces back, to ({:.1}, {:.1})", to[0], to[1]);
    world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what, detail });
}

fn handle_trap(world: &mut World, e: Entity, hit: &PendingHit, band: u32) {
    let round = world.resource::<Battle>().round;
    let Some(i) = hit.trap else { return };
    let detail = {
        let mut battle = world.resource_mut::<Battle>();
        let Some(trap) = battle.traps.get_mut(i) else { return };
        match band {
            1 => {
                trap.stalled_until = Some(round + 1);
                format!("{} stalled for a round", trap.spec.name)
            }
            2 => format!("{} reset", trap.spec.name),
            _ => {
                trap.disabled = true;
                format!("{} disabled", trap.spec.name)
            }
        }
    };
    let who = id(world, e);
    world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what: "trap_handled", detail });
}

/// Springs an armed trap `e` stands in: a hit at the trap's DL.
pub fn spring_trap(world: &mut World, e: Entity) {
    let at = position(world, e);
    let battle = world.resource::<Battle>();
    let Some((i, trap)) = battle.traps.iter().enumerate().find(|(_, t)| {
        t.armed() && crate::turns::distance(at, [t.spec.at.0, t.spec.at.1]) <= t.spec.radius + EPS
    }) else {
        return;
    };
    let hit = PendingHit {
        defender: e,
        attacker: None,
        source: trap.spec.name.clone(),
        source_id: trap.spec.id.clone(),
        kind: HitKind::Trap,
        fast: false,
        dl: trap.spec.dl,
        damage: trap.spec.damage,
        poison: 0,
        trap: Some(i),
        counter: false,
        to_health: false,
        weapon: None,
        technique: None,
    };
    let who = id(world, e);
    let detail = trap.spec.id.clone();
    world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what: "trap_sprung", detail });
    world.resource_mut::<Battle>().pending = Some(hit);
}

/// What `reduction` takes off `amount` for `e`.
pub fn reduced(world: &World, e: Entity, amount: u32, reduction: Reduction) -> u32 {
    let toughness = world.get::<Fighter>(e).map_or(0, |f| f.sheet.toughness);
    match reduction {
        Reduction::None => 0,
        Reduction::Toughness(n) => (toughness * n).min(amount),
        Reduction::All => amount,
    }
}

/// Lands a hit on its defender, less what its defence takes off; then its poison, its
/// technique, and (for an attacker's hit) the follow-up it allows and the spell it may
/// sustain.
pub fn land(world: &mut World, hit: &PendingHit, reduction: Reduction) {
    let source = match hit.attacker {
        Some(a) => Source::by(hit.source.clone(), id(world, a), Some(hit.source_id.clone())),
        None => Source::named(hit.source.clone()),
    };
    let cut = reduced(world, hit.defender, hit.damage, reduction);
    let taken = damage(world, hit.defender, hit.damage, cut, source, hit.to_health);
    if taken > 0
        && hit.poison > 0
        && let Some(mut f) = world.get_mut::<Fighter>(hit.defender)
    {
        f.poisoned = f.poisoned.max(hit.poison);
    }
    let Some(attacker) = hit.attacker else { return };
    if let Some(effect) = &hit.technique {
        technique(world, attacker, hit.defender, effect);
    }
    world.resource_mut::<Battle>().last_hit = Some(LastHit { attacker, target: hit.defender, reduction });
    let sustain = hit
        .weapon
        .and_then(|w| world.get::<Fighter>(attacker)?.sheet.weapons.get(w)?.sustain.map(|s| (w, s)));
    if let Some((weapon, spec)) = sustain
        && on_table(world, hit.defender)
    {
        let mut battle = world.resource_mut::<Battle>();
        battle
            .sustained
            .retain(|s| !(s.caster == attacker && s.target == hit.defender && s.weapon == weapon));
        battle.sustained.push(Sustained {
            caster: attacker,
            target: hit.defender,
            weapon,
            rounds: spec.rounds,
        });
        let who = id(world, attacker);
        let detail = format!("on {} for {} rounds", name(world, hit.defender), spec.rounds);
        world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what: "sustained", detail });
    }
}

/// A technique's effect on a hit that landed.
fn technique(world: &mut World, attacker: Entity, target: Entity, effect: &TechniqueEffect) {
    if !on_table(world, target) {
        return;
    }
    let who = id(world, target);
    match effect {
        TechniqueEffect::Knockdown => {
            if let Some(mut f) = world.get_mut::<Fighter>(target) {
                f.prone = true;
            }
            world
                .resource_mut::<GameLog>()
                .about(&who, LogEvent::Effect { what: "knocked_down", detail: String::new() });
        }
        TechniqueEffect::Shove { paces } => {
            let from = position(world, attacker);
            push(world, target, from, *paces, "shoved");
        }
        TechniqueEffect::Bleed { rounds } => {
            if let Some(mut f) = world.get_mut::<Fighter>(target) {
                f.poisoned = f.poisoned.max(*rounds);
            }
            world
                .resource_mut::<GameLog>()
                .about(&who, LogEvent::Effect { what: "bleeding", detail: format!("{rounds} rounds") });
        }
    }
}

/// Deals `amount` (less `reduced`) to `e`: stamina first (unless `to_health`), the rest to
/// the pool of a limb a d6 picks. Returns what was taken.
pub fn damage(
    world: &mut World,
    e: Entity,
    amount: u32,
    reduced: u32,
    source: Source,
    to_health: bool,
) -> u32 {
    let Some(f) = world.get::<Fighter>(e).cloned() else { return 0 };
    let reduced = reduced.min(amount);
    let through = amount - reduced;
    let on_stamina = if to_health { 0 } else { through.min(f.stamina) };
    let who = id(world, e);
    if !to_health {
        let event = LogEvent::Damage {
            damage: "stamina",
            amount,
            reduced,
            taken: on_stamina,
            source: source.clone(),
        };
        world.resource_mut::<GameLog>().about(&who, event);
    }
    let overflow = through - on_stamina;
    if let Some(mut f) = world.get_mut::<Fighter>(e) {
        f.stamina -= on_stamina;
    }
    if overflow == 0 {
        return on_stamina;
    }
    let face = world.resource_mut::<TableRng>().die(6);
    let limb = Limb::of_face(face);
    let told = format!("{} is hit in the {}", name(world, e), limb.word());
    let roll = RollRecord::sum(format!("hit location: {}", limb.word()), vec![face], 0).told(told);
    world.resource_mut::<GameLog>().about(&who, LogEvent::Roll(roll));
    let pool = f.health.get(limb);
    let taken = overflow.min(pool);
    if let Some(mut f) = world.get_mut::<Fighter>(e) {
        *f.health.get_mut(limb) -= taken;
    }
    let event = LogEvent::Damage {
        damage: limb_damage(limb),
        amount: if to_health { amount } else { overflow },
        reduced: if to_health { reduced } else { 0 },
        taken,
        source,
    };
    world.resource_mut::<GameLog>().about(&who, event);
    if pool > 0 && taken == pool {
        pool_emptied(world, e, limb);
    }
    on_stamina + taken
}

fn limb_damage(limb: Limb) -> &'static str {
    match limb {
        Limb::Head => "head",
        Limb::Torso => "torso",
        Limb::LeftArm => "left_arm",
        Limb::RightArm => "right_arm",
        Limb::LeftLeg => "left_leg",
        Limb::RightLeg => "right_leg",
    }
}

/// A pool reached zero: the head kills; the torso calls for a Defy to stay conscious.
fn pool_emptied(world: &mut World, e: Entity, limb: Limb) {
    match limb {
        Limb::Head => set_status(world, e, Status::Dead),
        Limb::Torso => {
            if let Some(mut f) = world.get_mut::<Fighter>(e) {
                f.torso_down = true;
            }
            if !can_act(world, e) {
                return;
            }
            let dl = world.resource::<Battle>().rules.torso_defy_dl;
            let told = format!("{} fights to stay conscious", name(world, e));
            let said = ("Defy to stay conscious".to_owned(), told);
            let reading = defence_roll(world, e, Defence::Defy, said, dl);
            if !reading.success {
                set_status(world, e, Status::Unconscious);
            }
        }
        _ => {}
    }
}

/// Heals `e` by `amount`: the torso first when `torso`, then stamina; a healed torso wakes
/// one who fell from it.
pub fn heal(world: &mut World, e: Entity, amount: u32, torso: bool, what: &'static str) {
    let Some(mut f) = world.get_mut::<Fighter>(e) else { return };
    let mut left = amount;
    let mut woke = false;
    if torso {
        let room = f.sheet.health.torso - f.health.torso;
        let t = room.min(left);
        f.health.torso += t;
        left -= t;
        if t > 0 && f.torso_down {
            f.torso_down = false;
            woke = true;
        }
    }
    let s = (f.sheet.stamina - f.stamina).min(left);
    f.stamina += s;
    let detail = format!("{} restored", amount - left + s);
    let who = id(world, e);
    world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what, detail });
    if woke && world.get::<Status>(e) == Some(&Status::Unconscious) {
        set_status(world, e, Status::Fighting);
    }
}

/// Checks bold action `a` of `e` at `t`: a Slow turn, the one of the turn, no FOG for a
/// surprised side in round one, and the action's own checks.
pub fn check_bold(world: &World, e: Entity, a: usize, t: Entity) -> Verdict {
    let f = world.get::<Fighter>(e).ok_or_else(|| Rejection::new("not a combatant"))?;
    let ability = f
        .sheet
        .bold
        .get(a)
        .ok_or_else(|| Rejection::new(format!("{} has no bold action {a}", name(world, e))))?;
    if f.speed != Some(Speed::Slow) {
        return Err(Rejection::new("bold actions are taken on Slow turns"));
    }
    if f.bold_used {
        return Err(Rejection::new("one bold action a turn, and it is spent"));
    }
    let battle = world.resource::<Battle>();
    may_accrue_fog(world, e)?;
    match ability.effect {
        BoldEffect::Strike { weapon, .. } => check_attack(world, e, t, weapon, false),
        BoldEffect::Mend { .. } => {
            let reach = battle.rules.hand_reach;
            if world.get::<fray_core::prelude::Side>(e) != world.get::<fray_core::prelude::Side>(t)
                || !on_table(world, t)
            {
                return Err(Rejection::new(format!(
                    "{} cannot be mended by {}",
                    name(world, t),
                    name(world, e)
                )));
            }
            if e != t && between(world, e, t) > reach + EPS {
                return Err(Rejection::new(format!("{} is more than {reach} Paces away", name(world, t))));
            }
            Ok(())
        }
        BoldEffect::FollowUp { .. } => match battle.last_hit {
            Some(h) if h.attacker == e && h.target == t && on_table(world, t) => Ok(()),
            _ => Err(Rejection::new(format!(
                "{} follows only a hit of this turn on {}",
                ability.name,
                name(world, t)
            ))),
        },
    }
}

/// Takes bold action `a`: rolls its FOG, then does it.
pub fn bold(world: &mut World, e: Entity, a: usize, t: Entity) {
    let Some(ability) = world.get::<Fighter>(e).and_then(|f| f.sheet.bold.get(a).cloned()) else { return };
    let face = world.resource_mut::<TableRng>().die(ability.fog);
    let told = format!("{} risks FOG for {}", name(world, e), ability.name);
    let roll = RollRecord::sum(format!("FOG for {}", ability.name), vec![face], 0).told(told);
    let who = id(world, e);
    world.resource_mut::<GameLog>().about(&who, LogEvent::Roll(roll));
    accrue_fog(world, e, face, "bold action");
    if let Some(mut f) = world.get_mut::<Fighter>(e) {
        f.bold_used = true;
    }
    match ability.effect {
        BoldEffect::Strike { weapon, bonus } => {
            let plan =
                AttackPlan { target: t, weapon, bonus, costs_action: false, counter: false, technique: None };
            attack(world, e, plan);
        }
        BoldEffect::Mend { amount } => heal(world, t, amount, false, "mended"),
        BoldEffect::FollowUp { damage: amount } => {
            let reduction = world.resource::<Battle>().last_hit.map_or(Reduction::None, |h| h.reduction);
            let cut = reduced(world, t, amount, reduction);
            let source = Source::by(ability.name.clone(), who.clone(), None);
            damage(world, t, amount, cut, source, false);
        }
    }
}

/// FOG spent by everyone so far.
pub fn fog_total(world: &mut World) -> u32 {
    let mut q = world.query::<&Counters>();
    q.iter(world).map(|c| c.get(FOG)).sum()
}
