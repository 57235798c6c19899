//! Fiend Wake's `tactical` AI: the simple one's habits (pay for armour, mount, arm, the
//! special full actions: grenades, bombards, medics, caltrops, assaults, wrangling; close in
//! on enemies), and besides, by the situation:
//! - it **focuses**: it attacks (and harasses) the enemy in reach closest to falling (the
//!   fewest wounds to go before its Spirit runs out), the least armoured among equals, where
//!   the simple AI draws one at random;
//! - it **calls its shot** when the target's armour would soak much of a plain hit;
//! - it **grapples** a local enemy whose armour soaks half its blow and who holds TP to lose
//!   (a grapple's stun takes TP, whatever the armour);
//! - armour that costs more than half its TP each round and stops a wound at most: it
//!   **refuses to pay** once and takes it off (from the second round);
//! - near falling and outnumbered two to one, it **retreats** (evacuating a location first);
//! - it **picks up its caltrops** when nobody is caught in them and it has no one to strike;
//! - it **declines** to support an assault when it has too few TP left for its own turn;
//! - it **bids** a third of its TP or so for priority, drawn on the AI's own generator, never
//!   the table's dice.
//!
//! It never takes an "odd-ball" action: what those achieve is the GM's to narrate. It reads
//! what its seat may: wounds and handicaps are on the board; bids are sealed until revealed.

use bevy_ecs::prelude::*;
use fray_core::location::{is_field, place_id, place_of};
use fray_core::prelude::TableIndex;
use rand::RngExt;

use super::simple::{self, MAX_ACTIONS_PER_TURN, enemy_targets, fighting_enemy, skill, tp};
use crate::counters::WOUND;
use crate::data::{Attribute, Skill, WeaponKind};
use crate::decisions::validate;
use crate::intent::FiendWakeIntent;
use crate::phase::{ActiveTurn, AftermathStep, FiendWakePhase, Round, current};
use crate::reactions::{Question, asked};
use crate::sheet::{Attributes, CaltropsOf};
use crate::view;

/// A combatant this many wounds or fewer from falling counts as near it.
const NEAR_FALLING: u32 = 4;
/// A grapple's stun is worth it on an enemy holding this many TP or more.
const GRAPPLE_TP: u32 = 3;
/// Support an assault only with at least this many TP left for its own turn.
const KEEP_FOR_TURN: u32 = 3;

fn ok(world: &World, e: Entity, intent: &FiendWakeIntent) -> bool {
    validate(world, e, intent).is_ok()
}

fn name(world: &World, e: Entity) -> String {
    view::name(world, e)
}

/// Wounds `t` may still take before its Spirit runs out: its Spirit stack numbers left, each
/// a wound track, less the wounds on the current one.
pub fn to_fall(world: &World, t: Entity) -> u32 {
    let spirit = world.get::<Attributes>(t).map_or(1, |a| a.available_count(Attribute::Spirit));
    (spirit * view::threshold(world, t)).saturating_sub(view::count(world, t, WOUND))
}

/// The next intent for `e`, and why.
pub fn decide(world: &World, e: Entity) -> (FiendWakeIntent, String) {
    if let Some((_, q)) = asked(world) {
        return react(world, e, q);
    }
    if world.resource::<ActiveTurn>().actor == Some(e) {
        return turn(world, e);
    }
    match current(world) {
        FiendWakePhase::RoundPrep => {
            if let Some(why) = doff(world, e) {
                return (FiendWakeIntent::RefuseArmour { doff: true }, why);
            }
            let intent = simple::armour(world, e);
            let why = if matches!(intent, FiendWakeIntent::PayArmour { .. }) {
                "pays for its armour"
            } else {
                "cannot pay for its armour"
            };
            (intent, why.to_owned())
        }
        FiendWakePhase::BidForPriority => {
            let most = tp(world, e) / 2;
            let bid = fray_core::ai::decision_rng(world).random_range(most / 3..=most);
            // Sealed: the log shows no reason for it.
            (FiendWakeIntent::Bid { tp: bid }, "bids for priority".to_owned())
        }
        FiendWakePhase::Cede => (FiendWakeIntent::Cede { cede: false }, "holds its place".to_owned()),
        FiendWakePhase::Aftermath if world.resource::<Round>().aftermath == AftermathStep::FuelSpells => {
            (simple::fuel(world, e), "fuels its spells".to_owned())
        }
        FiendWakePhase::Aftermath => match simple::weapon_to_arm(world, e, tp(world, e)) {
            Some((weapon, _)) => (FiendWakeIntent::Arm { weapon, upgrade: false }, "arms itself".to_owned()),
            None => (FiendWakeIntent::Pass, "nothing to arm".to_owned()),
        },
        FiendWakePhase::Harassment => harass(world, e),
        _ => (FiendWakeIntent::Pass, "passes".to_owned()),
    }
}

/// Armour that costs more than half the TP it has each round for the little it stops: taken
/// off once (the round's TP and turn tokens lost), for the rounds to come.
fn doff(world: &World, e: Entity) -> Option<String> {
    let cost = view::encumbrance(world, e).filter(|&c| c > 0)?;
    let stops = view::reduction(world, e);
    let round = world.resource::<Round>().number;
    (round > 1 && cost * 2 > tp(world, e) && stops <= 1)
        .then(|| format!("takes off its armour: {cost} TP a round for {stops} wound stopped"))
}

fn react(world: &World, e: Entity, q: Question) -> (FiendWakeIntent, String) {
    match q {
        Question::ClearOut => (FiendWakeIntent::ClearOut, "leaps clear".to_owned()),
        Question::StopRetreat => (FiendWakeIntent::StopRetreat, "tries to stop the retreat".to_owned()),
        Question::Support if tp(world, e) < KEEP_FOR_TURN + 1 => {
            (FiendWakeIntent::Decline, format!("keeps its {} TP for its own turn", tp(world, e)))
        }
        Question::Support => {
            (FiendWakeIntent::Support { tp: 1, enter: true }, "supports the assault".to_owned())
        }
        Question::Intercept => {
            let target = match world.resource::<crate::reactions::Reactions>().held {
                Some(crate::reactions::Held::Attack { target, .. }) => Some(target),
                _ => None,
            };
            match target {
                Some(t) if simple::would_intercept(world, e, t) => (
                    FiendWakeIntent::Intercept,
                    format!("steps in front of {}: better armoured", name(world, t)),
                ),
                _ => (FiendWakeIntent::Decline, "lets the blow go".to_owned()),
            }
        }
    }
}

/// The enemy to strike among `targets`: the nearest to falling, the least armoured of equals.
fn focus(world: &World, targets: Vec<Entity>) -> Option<Entity> {
    targets.into_iter().min_by_key(|&t| (to_fall(world, t), view::reduction(world, t)))
}

fn harass(world: &World, e: Entity) -> (FiendWakeIntent, String) {
    let tp = tp(world, e);
    let (Some(at), Some((_, weapon))) = (place_of(world, e), view::ready_weapon(world, e)) else {
        return (FiendWakeIntent::Pass, "nothing to harass with".to_owned());
    };
    match focus(world, enemy_targets(world, e, at, weapon.kind)) {
        Some(t) if tp > 0 => {
            let why = format!("harasses {}: the nearest to falling", name(world, t));
            (FiendWakeIntent::Harass { allocations: vec![(view::id(world, t), tp)] }, why)
        }
        _ => (FiendWakeIntent::Pass, "no one to harass".to_owned()),
    }
}

/// Outnumbered two to one and near falling: the way out.
fn retreat(world: &World, e: Entity, at: Entity, full_free: bool) -> Option<(FiendWakeIntent, String)> {
    let order = &world.resource::<TableIndex>().order;
    let side = world.get::<fray_core::prelude::Side>(e);
    let ours = order
        .iter()
        .filter(|&&t| view::can_act(world, t) && world.get::<fray_core::prelude::Side>(t) == side)
        .count();
    let theirs = order.iter().filter(|&&t| fighting_enemy(world, e, t)).count();
    let left = to_fall(world, e);
    if left > NEAR_FALLING || theirs < 2 * ours {
        return None;
    }
    let why = format!("{left} wounds from falling, {ours} against {theirs}");
    if !is_field(world, at) {
        let out = FiendWakeIntent::Evacuate { upgrade: false };
        return ok(world, e, &out).then(|| (out, format!("leaves its place to retreat: {why}")));
    }
    let tp = tp(world, e);
    // Every TP on it: the more, the harder to stop.
    let tries = [
        FiendWakeIntent::Retreat { tp, upgrade: full_free },
        FiendWakeIntent::Retreat { tp, upgrade: false },
    ];
    tries.into_iter().find(|go| ok(world, e, go)).map(|go| (go, format!("retreats: {why}")))
}

/// One decision of its turn.
fn turn(world: &World, e: Entity) -> (FiendWakeIntent, String) {
    let turn = world.resource::<ActiveTurn>().clone();
    if turn.actions >= MAX_ACTIONS_PER_TURN {
        return (FiendWakeIntent::EndTurn, "done for this turn".to_owned());
    }
    let tp = tp(world, e);
    let full_free = !turn.full_action_used;
    let Some(at) = place_of(world, e) else {
        return (FiendWakeIntent::EndTurn, "not on the board".to_owned());
    };
    if let Some(step) = retreat(world, e, at, full_free) {
        return step;
    }
    let rules = view::catalogue(world).rules.clone();
    if let Some(mount) = simple::free_mount(world, e, false)
        && tp > rules.mount_cost
    {
        return (FiendWakeIntent::Mount { mount, upgrade: false }, "mounts".to_owned());
    }
    let kind = view::ready_kind(world, e);
    if kind.is_none() {
        if let Some((weapon, _)) = simple::weapon_to_arm(world, e, tp) {
            return (
                FiendWakeIntent::Arm { weapon: weapon.clone(), upgrade: false },
                format!("readies its {weapon}"),
            );
        }
        if full_free
            && let Some(weapon) =
                world.get::<crate::sheet::Arsenal>(e).and_then(|a| a.carried.first().cloned())
        {
            return (
                FiendWakeIntent::Arm { weapon: weapon.clone(), upgrade: true },
                format!("readies its {weapon}"),
            );
        }
    }
    if full_free
        && turn.actions < 2
        && let Some(intent) = simple::special(world, e, at, kind)
    {
        let why = format!("{}: it fits here", intent.title());
        return (intent, why);
    }
    if full_free && let Some(step) = grapple(world, e, kind) {
        return step;
    }
    let target =
        kind.filter(|_| full_free).and_then(|k| focus(world, enemy_targets(world, e, at, k)).map(|t| (k, t)));
    let Some((k, target)) = target else {
        if full_free && let Some(step) = pick_up_caltrops(world, e) {
            return step;
        }
        return approach(world, e, at, tp, full_free);
    };
    let armour = view::reduction(world, target);
    let damage = view::ready_weapon(world, e).map_or(0, |(_, w)| w.first_intention.max(0) as u32);
    if turn.called == 0 && tp > rules.call_shot_cost + 1 && armour * 2 >= damage.max(1) {
        let call = FiendWakeIntent::CallShot { upgrade: false };
        if ok(world, e, &call) {
            return (call, format!("calls its shot at {}: its armour soaks {armour}", name(world, target)));
        }
    }
    let id = view::id(world, target);
    let attack = match k {
        WeaponKind::Melee => FiendWakeIntent::MeleeAttack { target: id },
        WeaponKind::Ranged => FiendWakeIntent::RangedAttack { target: id },
    };
    let why = format!("attacks {}: {} wounds from falling", name(world, target), to_fall(world, target));
    (attack, why)
}

/// A local enemy whose armour soaks the whole blow of the ready weapon: grappled instead.
fn grapple(world: &World, e: Entity, kind: Option<WeaponKind>) -> Option<(FiendWakeIntent, String)> {
    if kind.is_none() || skill(world, e, Skill::UnarmedCombat) == 0 {
        return None;
    }
    let damage = view::ready_weapon(world, e).map_or(0, |(_, w)| w.first_intention.max(0) as u32);
    let order = &world.resource::<TableIndex>().order;
    order.iter().copied().find_map(|t| {
        // Armour that soaks half the blow, on one with TP to lose to the stun.
        let soaks = view::reduction(world, t) * 2 >= damage && tp(world, t) >= GRAPPLE_TP;
        let grab = FiendWakeIntent::Grapple { target: view::id(world, t) };
        (fighting_enemy(world, e, t) && soaks && ok(world, e, &grab))
            .then(|| (grab, format!("grapples {}: its armour soaks a blow", name(world, t))))
    })
}

/// Its own caltrops, with no one caught in them, picked up to scatter again.
fn pick_up_caltrops(world: &World, e: Entity) -> Option<(FiendWakeIntent, String)> {
    let index = world.resource::<TableIndex>();
    let mine = index
        .location_order
        .iter()
        .copied()
        .find(|&l| world.get::<CaltropsOf>(l).is_some_and(|c| c.0 == e))?;
    if view::occupying(world, mine).any(|t| fighting_enemy(world, e, t)) {
        return None;
    }
    let location = place_id(world, mine);
    [false, true].into_iter().find_map(|take_wounds| {
        let pick = FiendWakeIntent::PickUpCaltrops { location: location.clone(), take_wounds };
        ok(world, e, &pick).then(|| (pick, "picks up its caltrops: no one is caught in them".to_owned()))
    })
}

/// No one in reach: a step toward the nearest enemy, else the end of the turn.
fn approach(world: &World, e: Entity, at: Entity, tp: u32, full_free: bool) -> (FiendWakeIntent, String) {
    let rules = &view::catalogue(world).rules;
    if !full_free || view::ready_kind(world, e).is_none() {
        return (FiendWakeIntent::EndTurn, "done for this turn".to_owned());
    }
    match simple::step_toward_enemy(world, e, at) {
        Some(step) if is_field(world, step) && rules.evacuate_cost <= tp => {
            (FiendWakeIntent::Evacuate { upgrade: false }, "steps out toward the enemy".to_owned())
        }
        Some(step) if !is_field(world, step) && view::entry_cost_for(world, e, step) <= tp => {
            let place =
                world.get::<fray_core::prelude::Location>(step).map_or_else(String::new, |l| l.name.clone());
            let why = format!("goes toward the enemy, into {place}");
            (FiendWakeIntent::EnterLocation { location: place_id(world, step), upgrade: false }, why)
        }
        _ => (FiendWakeIntent::EndTurn, "no one in reach, nowhere to go".to_owned()),
    }
}
