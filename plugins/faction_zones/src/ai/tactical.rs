//! The `tactical` AI of Factions in zones: the simple one's aim (attack the nearest enemy it
//! can, else close in; counter when it can, else dodge; accept a stunt rather than fall), and
//! besides, by the situation:
//! - **guards** a nearby ally a blow could fell when the blow would not fell itself;
//! - a blow that could fell it: **hides behind** a sturdier ally nearby;
//! - a blow that cannot fell it while its own turn is still to come and it cannot counter:
//!   **takes it**, keeping its turn to strike back;
//! - attacked by someone smaller it cannot counter: **grabs** it as a counter;
//! - badly hurt and outnumbered: **flees** from an exit, or **surrenders** when an enemy
//!   stands by;
//! - **picks up** a weapon it dropped; **frees** a grabbed ally; **grabs** a smaller enemy (no save); **shoves** an enemy
//!   standing in a hazard; **disarms** an enemy whose weapon outdoes its own;
//! - a blow that could fell its target: **proposes a knockout** instead (the target may take
//!   it or answer the attack as usual); offered a stunt itself, it accepts one that leaves it
//!   in the fight when the blow could fell it, and answers a knockout or a surrender as a blow;
//! - as a larger attacker with smaller enemies by it: **spreads** its dice over them;
//! - far from every enemy: **sprints**; with no one to strike and nothing else to do, or as a
//!   shooter with no one in range about to move up: **hides** (a hidden attacker's shot takes
//!   its target by surprise);
//! - it asks a beaten foe (badly hurt and outnumbered) **to drop its weapons** (a stunt), and,
//!   beaten itself, accepts such a stunt rather than risk the blow, or **yields** to a knockout
//!   when the blow could kill it;
//! - attacked by one in a hazard, or one whose weapon outdoes its own: **shoves** or
//!   **disarms** it as a counter (when the blow cannot fell it);
//! - a rider about to strike **gets off** (no save); on foot with no enemy by it, **gets on**
//!   a faster mount standing by; a mount or rider with nothing to do **reserves** its part;
//! - its faction **passes** when all it has still to act are shooters behind cover with no one
//!   in range, while an enemy comes on.
//!
//! It never takes "another main action" or "a bonus action" (the table resolves those). It
//! reads what its seat may: no concealed enemy is ever considered.

use bevy_ecs::prelude::*;
use fray_core::prelude::{Controller, Side, TableIndex};
use fray_core::table::{can_act, enemies, id, name};

use super::simple::{self, weapons, would_fall};
use crate::combat::{check_attack, check_counter, size, zone_has};
use crate::data::ZoneProperty;
use crate::decisions::validate;
use crate::intent::{FactionZonesIntent, NonLethal, StuntEffect};
use crate::phase::{Battle, Fighter};
use crate::turns::{between, nearby};

/// At or under this share of its health, a character counts as badly hurt (half is
/// incapacitated).
const BADLY_HURT: f32 = 0.7;
/// Enemies this many zones away or more: worth a sprint.
const SPRINT_FROM: u32 = 3;

fn ok(world: &World, e: Entity, intent: &FactionZonesIntent) -> bool {
    validate(world, e, intent).is_ok()
}

fn health_left(world: &World, e: Entity) -> f32 {
    world.get::<Fighter>(e).map_or(1.0, |f| f.health as f32 / f.sheet.health.max(1) as f32)
}

/// Enemies of `e` still fighting that it may see.
fn foes(world: &World, e: Entity) -> Vec<Entity> {
    let order = &world.resource::<TableIndex>().order;
    let seen = |t: Entity| !crate::stealth::concealed(world, t);
    order.iter().copied().filter(|&t| enemies(world, e, t) && can_act(world, t) && seen(t)).collect()
}

/// Its side's fighters and its (seen) enemies'.
fn odds(world: &World, e: Entity) -> (usize, usize) {
    let order = &world.resource::<TableIndex>().order;
    let side = world.get::<Side>(e);
    let ours = order.iter().filter(|&&t| can_act(world, t) && world.get::<Side>(t) == side).count();
    (ours, foes(world, e).len())
}

/// Why `e` should guard the target of the attack waiting, if it should.
pub fn guards(world: &World, e: Entity) -> Option<String> {
    let p = world.resource::<Battle>().pending.clone()?;
    if p.target == e || !ok(world, e, &FactionZonesIntent::Guard) {
        return None;
    }
    (would_fall(world, p.attacker, p.target, p.weapon) && !would_fall(world, p.attacker, e, p.weapon))
        .then(|| format!("guards {}: the blow could fell them, not it", name(world, p.target)))
}

/// The AI's decision for `e` now, and why.
pub fn choose(world: &World, e: Entity) -> (FactionZonesIntent, String) {
    let battle = world.resource::<Battle>();
    if let Some(leaving) = battle.leaving.as_ref().filter(|l| l.asked.contains(&e)) {
        let intent = simple::choose(world, e);
        let who = name(world, leaving.mover);
        let why = match intent {
            FactionZonesIntent::OpportunityAttack { .. } => format!("strikes {who} as they leave"),
            _ => format!("lets {who} go: no blow to strike"),
        };
        return (intent, why);
    }
    if let Some(p) = battle.pending.clone() {
        if p.target != e {
            let why = guards(world, e).unwrap_or_else(|| "guards".to_owned());
            return (FactionZonesIntent::Guard, why);
        }
        return react(world, e, &p);
    }
    if battle.to_act.is_some() && crate::non_lethal::grabbed_by(world, e).is_some() {
        if let Some(why) = give_up(world, e, true) {
            return (FactionZonesIntent::Surrender, why);
        }
        let intent = simple::choose(world, e);
        return (intent, "tries to break free".to_owned());
    }
    if battle.active != Some(e) {
        if battle.to_act.is_some()
            && let Some(why) = holds(world, e)
        {
            return (FactionZonesIntent::Pass, why);
        }
        let intent = simple::choose(world, e);
        let why = match intent {
            FactionZonesIntent::PickFirst { .. } => "its own faction first".to_owned(),
            _ => "takes its turn".to_owned(),
        };
        return (intent, why);
    }
    turn(world, e)
}

/// Answering an attack on itself.
fn react(world: &World, e: Entity, p: &crate::phase::PendingAttack) -> (FactionZonesIntent, String) {
    let who = name(world, p.attacker);
    let falls = would_fall(world, p.attacker, e, p.weapon);
    // A stunt that puts it out of the fight is no better than falling: answered as a blow.
    // Another is taken when the blow could fell it, or (badly hurt and outnumbered) rather
    // than risk the blow.
    let out = matches!(p.stunt, Some(StuntEffect::Incapacitated | StuntEffect::Surrenders));
    // Except a knockout offered to one beaten whom the blow could kill: its life over a fight
    // it is losing.
    let knockout = p.stunt == Some(StuntEffect::Incapacitated);
    if knockout && beaten(world, e) && could_kill(world, p.attacker, e, p.weapon) {
        let why = format!("yields to {who}'s knockout: beaten, and the blow could kill it");
        return (FactionZonesIntent::AcceptStunt, why);
    }
    if p.stunt.is_some() && !out && (falls || beaten(world, e)) {
        let why = if falls {
            "the blow could fell it"
        } else {
            "badly hurt and outnumbered, it will not risk the blow"
        };
        return (FactionZonesIntent::AcceptStunt, format!("accepts {who}'s stunt: {why}"));
    }
    if !p.reactable {
        return (FactionZonesIntent::TakeIt, "cannot react".to_owned());
    }
    let order = &world.resource::<TableIndex>().order;
    if falls {
        let sturdier = order.iter().copied().find(|&a| {
            a != e && !would_fall(world, p.attacker, a, p.weapon) && {
                let hide = FactionZonesIntent::HideBehind { ally: id(world, a) };
                ok(world, e, &hide)
            }
        });
        if let Some(a) = sturdier {
            let why = format!("hides behind {}: {who}'s blow could fell it", name(world, a));
            return (FactionZonesIntent::HideBehind { ally: id(world, a) }, why);
        }
    }
    if !falls && let Some(step) = counter_without_harm(world, e, p) {
        return step;
    }
    let counter = weapons(world, e).into_iter().find(|&w| check_counter(world, e, w).is_ok());
    if let Some(weapon) = counter {
        return (FactionZonesIntent::Counter { weapon }, format!("counters {who}"));
    }
    let turn_to_come = world.get::<Fighter>(e).is_some_and(|f| !f.acted) && can_strike_someone(world, e);
    if !falls && turn_to_come {
        return (FactionZonesIntent::TakeIt, format!("takes {who}'s blow: it keeps its turn to strike"));
    }
    let grab = FactionZonesIntent::CounterNonLethal { kind: NonLethal::Grapple };
    if size(world, e) > size(world, p.attacker) && ok(world, e, &grab) {
        return (grab, format!("grabs {who}, smaller, as it strikes"));
    }
    (FactionZonesIntent::Dodge, format!("dodges {who}"))
}

/// A non-lethal counter when it pays as the turn's would (it takes the blow first): the
/// attacker shoved into the hazard it stands in, or disarmed of a weapon that outdoes the
/// target's own best by 3 or more.
fn counter_without_harm(
    world: &World,
    e: Entity,
    p: &crate::phase::PendingAttack,
) -> Option<(FactionZonesIntent, String)> {
    let who = name(world, p.attacker);
    let shove = FactionZonesIntent::CounterNonLethal { kind: NonLethal::Shove { to: None } };
    if zone_has(world, p.attacker, ZoneProperty::Hazard) && ok(world, e, &shove) {
        return Some((shove, format!("shoves {who} into the hazard as it strikes")));
    }
    let weapon = p.weapon?;
    let theirs = crate::combat::weapon(world, p.attacker, Some(weapon)).map_or(0, |w| w.damage);
    let own = best_damage(world, e);
    let disarm = FactionZonesIntent::CounterNonLethal { kind: NonLethal::Disarm { weapon } };
    (theirs > own + 2 && ok(world, e, &disarm))
        .then(|| (disarm, format!("disarms {who} as it strikes: its weapon outdoes its own")))
}

/// The highest damage among `t`'s weapons.
fn best_damage(world: &World, t: Entity) -> u32 {
    world.get::<Fighter>(t).map_or(0, |f| f.sheet.weapons.iter().map(|w| w.damage).max().unwrap_or(0))
}

/// Whether the attack's highest damage after armour could kill `t` (leave it at zero).
fn could_kill(world: &World, a: Entity, t: Entity, w: Option<usize>) -> bool {
    simple::left_after_worst(world, a, t, w).is_some_and(|(left, _)| left == 0)
}

/// Whether `e` could attack an enemy it sees with some weapon, from where it stands.
fn can_strike_someone(world: &World, e: Entity) -> bool {
    foes(world, e)
        .into_iter()
        .any(|t| weapons(world, e).into_iter().any(|w| check_attack(world, e, t, w).is_ok()))
}

/// Badly hurt and outnumbered.
fn beaten(world: &World, e: Entity) -> bool {
    let (ours, theirs) = odds(world, e);
    health_left(world, e) <= BADLY_HURT && (theirs >= 2 * ours || (ours == 1 && theirs >= 2))
}

/// Why `e` should leave the fight, if it should: surrender (`cornered`: an enemy stands by,
/// or it is held), else flight.
fn give_up(world: &World, e: Entity, cornered: bool) -> Option<String> {
    let left = health_left(world, e);
    let (ours, theirs) = odds(world, e);
    // Outnumbered two to one, or the last of its side against several.
    let outnumbered = theirs >= 2 * ours || (ours == 1 && theirs >= 2);
    let why = format!("{:.0}% of its health left, {ours} against {theirs}", left * 100.0);
    if cornered {
        let surrender =
            left <= BADLY_HURT && theirs >= 3 * ours && ok(world, e, &FactionZonesIntent::Surrender);
        return surrender.then(|| format!("surrenders: {why}"));
    }
    (left <= BADLY_HURT && outnumbered && ok(world, e, &FactionZonesIntent::Flee))
        .then(|| format!("flees: {why}"))
}

/// Its turn: the situation first, else the simple aim.
fn turn(world: &World, e: Entity) -> (FactionZonesIntent, String) {
    let foes = foes(world, e);
    let by = foes.iter().copied().filter(|&t| nearby(world, e, t)).collect::<Vec<_>>();
    if let Some(why) = give_up(world, e, false) {
        return (FactionZonesIntent::Flee, why);
    }
    if !by.is_empty()
        && let Some(why) = give_up(world, e, true)
    {
        return (FactionZonesIntent::Surrender, why);
    }
    let dropped = world.get::<Fighter>(e).map(|f| f.dropped.iter().map(|(w, _)| *w).collect::<Vec<_>>());
    let pick_up = |weapon: usize| ok(world, e, &FactionZonesIntent::PickUp { weapon });
    if let Some(weapon) = dropped.unwrap_or_default().into_iter().find(|&w| pick_up(w)) {
        return (FactionZonesIntent::PickUp { weapon }, "picks up its dropped weapon".to_owned());
    }
    if let Some(step) =
        free_an_ally(world, e).or_else(|| spread(world, e, &by)).or_else(|| non_lethal(world, e, &by))
    {
        return step;
    }
    let planned = simple::choose(world, e);
    if let Some(step) = get_off_to_strike(world, e, &planned).or_else(|| ride(world, e, &planned, &foes)) {
        return step;
    }
    if let FactionZonesIntent::Attack { target, weapon, .. } = &planned
        && let Some(t) = world.resource::<TableIndex>().combatant(target)
        && can_act(world, t)
    {
        // A blow that could fell: a knockout offered; a beaten foe: its weapons asked for.
        let (effect, why) = if would_fall(world, e, t, *weapon) {
            (StuntEffect::Incapacitated, "a knockout: one blow could fell them")
        } else if beaten(world, t) {
            (StuntEffect::Disarmed, "to drop their weapons: they are beaten")
        } else {
            (StuntEffect::Incapacitated, "")
        };
        let stunt = FactionZonesIntent::Stunt { target: target.clone(), weapon: *weapon, effect };
        if !why.is_empty() && ok(world, e, &stunt) {
            return (stunt, format!("offers {} {why}", name(world, t)));
        }
    }
    let why = match &planned {
        FactionZonesIntent::Attack { target, .. } => {
            format!("attacks {}: the nearest it can reach", shown(world, target))
        }
        FactionZonesIntent::Move { .. } if shoots(world, e) && ok(world, e, &FactionZonesIntent::Hide) => {
            return (
                FactionZonesIntent::Hide,
                "hides before it moves up: no enemy in range, and a hidden shot takes them by surprise"
                    .to_owned(),
            );
        }
        FactionZonesIntent::Move { .. } => {
            let far = foes.iter().map(|&t| between(world, e, t).unwrap_or(u32::MAX)).min().unwrap_or(0);
            let sprinted = world.get::<Fighter>(e).is_some_and(|f| f.sprinting);
            if far >= SPRINT_FROM && !sprinted && ok(world, e, &FactionZonesIntent::Sprint) {
                return (
                    FactionZonesIntent::Sprint,
                    format!("sprints: the nearest enemy is {far} zones away"),
                );
            }
            "closes in on the nearest enemy".to_owned()
        }
        FactionZonesIntent::EndTurn => {
            if ok(world, e, &FactionZonesIntent::Reserve) {
                return (
                    FactionZonesIntent::Reserve,
                    "reserves its part: nothing to strike now, it keeps its reaction".to_owned(),
                );
            }
            if ok(world, e, &FactionZonesIntent::Hide) && !can_strike_someone(world, e) {
                return (FactionZonesIntent::Hide, "hides: no enemy near, nothing to strike".to_owned());
            }
            "nothing more to do".to_owned()
        }
        other => format!("{other:?}"),
    };
    (planned, why)
}

/// A rider about to strike gets off first where that takes no save (its mount has not moved
/// this round) and its weapon outdoes the impaired die a rider strikes with.
fn get_off_to_strike(
    world: &World,
    e: Entity,
    planned: &FactionZonesIntent,
) -> Option<(FactionZonesIntent, String)> {
    let FactionZonesIntent::Attack { target, weapon, hold_back: false } = planned else { return None };
    let mount = crate::mounts::mount_of(world, e)?;
    let damage = crate::combat::weapon(world, e, *weapon).map_or(0, |w| w.damage);
    let impaired = world.resource::<Battle>().rules.impaired_die;
    let no_save = crate::mounts::check_dismount(world, e).is_ok_and(|save| !save);
    (damage > impaired && no_save && ok(world, e, &FactionZonesIntent::Dismount)).then(|| {
        let why = format!(
            "gets off {} to strike {}: a rider's blows are impaired",
            name(world, mount),
            shown(world, target)
        );
        (FactionZonesIntent::Dismount, why)
    })
}

/// On foot with no one to strike: gets on a faster mount of its side standing by (one not on
/// the move: no save), to ride toward the enemy.
fn ride(
    world: &World,
    e: Entity,
    planned: &FactionZonesIntent,
    foes: &[Entity],
) -> Option<(FactionZonesIntent, String)> {
    if !matches!(planned, FactionZonesIntent::Move { .. } | FactionZonesIntent::EndTurn) {
        return None;
    }
    let speed = |x: Entity| crate::turns::speed(world, x);
    let order = &world.resource::<TableIndex>().order;
    let mount = order.iter().copied().find(|&m| {
        speed(m) > speed(e)
            && crate::mounts::check_mount(world, e, m).is_ok_and(|save| !save)
            && ok(world, e, &FactionZonesIntent::Mount { mount: id(world, m) })
    })?;
    // Not with an enemy by it (it would get off again to strike).
    let far = foes.iter().map(|&t| between(world, e, t).unwrap_or(u32::MAX)).min().filter(|&d| d > 0)?;
    let zones = if far == 1 { "1 zone".to_owned() } else { format!("{far} zones") };
    let why = format!("gets on {}: the nearest enemy is {zones} away", name(world, mount));
    Some((FactionZonesIntent::Mount { mount: id(world, mount) }, why))
}

/// Why `e`'s faction should pass now, if it should: each of its characters still to act is
/// the AI's (a pass is the whole faction's: never for a person's character) and waits (a
/// shooter behind cover with no enemy in range), and an enemy who does not wait fights on (it
/// comes into range; two factions waiting would never fight).
fn holds(world: &World, e: Entity) -> Option<String> {
    let ours = crate::activation::candidates(world);
    let ai = |x: Entity| world.get::<Controller>(x) == Some(&Controller::Ai);
    if !ours.contains(&e)
        || !ours.iter().all(|&x| ai(x) && waits(world, x))
        || !ok(world, e, &FactionZonesIntent::Pass)
    {
        return None;
    }
    let comer = foes(world, e).into_iter().find(|&t| !waits(world, t))?;
    Some(format!("holds behind cover: {} comes into range", name(world, comer)))
}

/// A shooter behind cover with no enemy it sees in range.
fn waits(world: &World, x: Entity) -> bool {
    let covered = crate::turns::zone(world, x)
        .and_then(|z| world.get::<crate::phase::ZoneProperties>(z))
        .is_some_and(|z| z.0.iter().any(|p| matches!(p, ZoneProperty::Cover | ZoneProperty::CoverFrom(_))));
    covered && shoots(world, x) && !can_strike_someone(world, x)
}

/// Whether `e` carries a weapon that shoots.
fn shoots(world: &World, e: Entity) -> bool {
    world.get::<Fighter>(e).is_some_and(|f| f.sheet.weapons.iter().any(|w| w.range.is_some()))
}

fn shown(world: &World, target: &fray_core::ids::CombatantId) -> String {
    world.resource::<TableIndex>().combatant(target).map_or_else(|| target.to_string(), |t| name(world, t))
}

/// Freeing a grabbed ally nearby.
fn free_an_ally(world: &World, e: Entity) -> Option<(FactionZonesIntent, String)> {
    let order = &world.resource::<TableIndex>().order;
    order.iter().copied().find_map(|a| {
        let holder = crate::non_lethal::grabbed_by(world, a)?;
        let free = FactionZonesIntent::Free { ally: id(world, a) };
        ok(world, e, &free)
            .then(|| (free, format!("frees {} from {}'s grip", name(world, a), name(world, holder))))
    })
}

/// A grab, a shove or a disarm on a nearby enemy, when it pays.
fn non_lethal(world: &World, e: Entity, by: &[Entity]) -> Option<(FactionZonesIntent, String)> {
    let holding = world
        .resource::<TableIndex>()
        .order
        .iter()
        .any(|&t| crate::non_lethal::grabbed_by(world, t) == Some(e));
    for &t in by {
        let target = id(world, t);
        let act = |kind: NonLethal| FactionZonesIntent::NonLethal { target: target.clone(), kind };
        let (who, grab) = (name(world, t), act(NonLethal::Grapple));
        if !holding
            && size(world, e) > size(world, t)
            && crate::non_lethal::grabbed_by(world, t).is_none()
            && ok(world, e, &grab)
        {
            return Some((grab, format!("grabs {who}: too small to resist")));
        }
        let shove = act(NonLethal::Shove { to: None });
        if zone_has(world, t, ZoneProperty::Hazard) && ok(world, e, &shove) {
            return Some((shove, format!("shoves {who} into the hazard")));
        }
        let theirs = world.get::<Fighter>(t).map(|f| &f.sheet.weapons);
        let strongest = theirs.and_then(|ws| (0..ws.len()).max_by_key(|&i| ws[i].damage));
        if let Some(weapon) = strongest
            && best_damage(world, t) > best_damage(world, e) + 2
        {
            let disarm = act(NonLethal::Disarm { weapon });
            if ok(world, e, &disarm) {
                return Some((disarm, format!("disarms {who}: their weapon outdoes its own")));
            }
        }
    }
    None
}

/// Dice spread over several smaller enemies nearby, as the board offers it.
fn spread(world: &World, e: Entity, by: &[Entity]) -> Option<(FactionZonesIntent, String)> {
    if by.iter().filter(|&&t| size(world, t) < size(world, e)).count() < 2 {
        return None;
    }
    let choices = crate::board::choices(world, e);
    let spread = choices
        .into_iter()
        .find(|c| c.verdict.is_ok() && matches!(c.intent, FactionZonesIntent::Spread { .. }))?;
    let FactionZonesIntent::Spread { shares, .. } = &spread.intent else { return None };
    let names: Vec<String> = shares.iter().map(|s| shown(world, &s.target)).collect();
    Some((spread.intent.clone(), format!("spreads its blow over {}", names.join(" and "))))
}
