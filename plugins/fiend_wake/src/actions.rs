//! The actions of a turn: arm yourself, enter location, evacuate, retreat, mount (simple
//! actions, each can be upgraded to the turn's one full action to waive its TP cost), melee
//! and ranged attacks (full actions), and ending the turn.
//!
//! Each action is checked against a read-only `World` first ([`check`]); only an accepted
//! plan is applied ([`apply`]), so a refused intent changes nothing.

use bevy_ecs::prelude::*;
use fray_core::intent::{Rejection, Verdict};
use fray_core::location::{
    are_local, entry_cost, field, is_field, place_id, place_of, the_place, why_not_enter,
};
use fray_core::log::LogEvent;
use fray_core::prelude::{Occupies, RiddenBy, Rides, Status, TableIndex};
use fray_core::tokens::TokenKind;

use crate::damage;
use crate::data::{Attribute, WeaponKind};
use crate::intent::FwIntent;
use crate::phase::ActiveTurn;
use crate::rolls;
use crate::sheet::{Arsenal, Attributes, Evasion, MountTraits};
use crate::turns::end_turn;
use crate::view;

/// An accepted action, ready to apply.
#[derive(Debug)]
pub(crate) struct Plan {
    /// TP to spend.
    cost: u32,
    /// Uses the turn's full action.
    full: bool,
    what: Act,
}

#[derive(Debug)]
enum Act {
    Arm(String),
    Move { to: Entity },
    Retreat { value: u32 },
    Mount(Entity),
    Attack { target: Entity, kind: WeaponKind },
    EndTurn,
}

fn no(reason: impl Into<String>) -> Rejection {
    Rejection::new(reason)
}

/// Checks a turn action of the active combatant.
pub(crate) fn check(world: &World, actor: Entity, intent: &FwIntent) -> Verdict<Plan> {
    let turn = world.resource::<ActiveTurn>();
    let full_left = !turn.full_action_used;
    let rules = &view::catalogue(world).rules;
    let tp = view::count(world, actor, TokenKind::TacticalPoint);
    let simple = |cost: u32, upgrade: bool, what: Act| -> Verdict<Plan> {
        if upgrade {
            if !full_left {
                return Err(no("the full action of this turn is already taken"));
            }
            return Ok(Plan { cost: 0, full: true, what });
        }
        if cost > tp {
            return Err(no(format!("costs {cost} TP but {} holds only {tp}", view::name(world, actor))));
        }
        Ok(Plan { cost, full: false, what })
    };
    match intent {
        FwIntent::Arm { weapon, upgrade } => {
            let cost = check_arm(world, actor, weapon)?;
            simple(cost, *upgrade, Act::Arm(weapon.clone()))
        }
        FwIntent::EnterLocation { location, upgrade } => {
            let index = world.resource::<TableIndex>();
            let to =
                index.location(location).ok_or_else(|| no(format!("there is no location '{location}'")))?;
            let from = place_of(world, actor).ok_or_else(|| no("stands nowhere"))?;
            if let Some(reason) = why_not_enter(world, from, to) {
                return Err(no(reason));
            }
            simple(entry_cost(world, to), *upgrade, Act::Move { to })
        }
        FwIntent::Evacuate { upgrade } => {
            let from = place_of(world, actor).ok_or_else(|| no("stands nowhere"))?;
            if is_field(world, from) {
                return Err(no("occupies no location: there is nothing to evacuate"));
            }
            let to = field(world).ok_or_else(|| no("this table has no open field"))?;
            simple(rules.evacuate_cost, *upgrade, Act::Move { to })
        }
        FwIntent::Retreat { tp: spent, upgrade } => {
            let from = place_of(world, actor).ok_or_else(|| no("stands nowhere"))?;
            if !is_field(world, from) {
                return Err(no(format!(
                    "retreating leaves the scene from no location; evacuate {} first",
                    the_place(world, from)
                )));
            }
            if *spent > tp {
                return Err(no(format!("spends {spent} TP on the retreat but holds only {tp}")));
            }
            if *upgrade {
                let endurance =
                    world.get::<Attributes>(actor).map_or(0, |a| a.effective(Attribute::Endurance));
                let mut plan = simple(0, true, Act::Retreat { value: endurance + spent })?;
                plan.cost = *spent;
                Ok(plan)
            } else if *spent == 0 {
                Err(no("a retreat as a simple action costs at least 1 TP"))
            } else {
                simple(*spent, false, Act::Retreat { value: *spent })
            }
        }
        FwIntent::Mount { mount, upgrade } => {
            let m = check_mount(world, actor, mount)?;
            simple(rules.mount_cost, *upgrade, Act::Mount(m))
        }
        FwIntent::MeleeAttack { target } | FwIntent::RangedAttack { target } => {
            let kind = if matches!(intent, FwIntent::MeleeAttack { .. }) {
                WeaponKind::Melee
            } else {
                WeaponKind::Ranged
            };
            if !full_left {
                return Err(no("the full action of this turn is already taken"));
            }
            let target = check_attack(world, actor, target, kind)?;
            Ok(Plan { cost: 0, full: true, what: Act::Attack { target, kind } })
        }
        FwIntent::EndTurn => Ok(Plan { cost: 0, full: false, what: Act::EndTurn }),
        other => Err(no(format!("{} is not something to do during a turn", other.title()))),
    }
}

/// Checks arming a weapon; returns its TP cost.
pub(crate) fn check_arm(world: &World, actor: Entity, weapon: &str) -> Verdict<u32> {
    let arsenal = world.get::<Arsenal>(actor).cloned().unwrap_or_default();
    if !arsenal.carried.iter().any(|w| w == weapon) {
        return Err(no(format!("{} carries no '{weapon}'", view::name(world, actor))));
    }
    if arsenal.ready.as_deref() == Some(weapon) {
        return Err(no(format!("the {weapon} is already ready")));
    }
    let w = view::catalogue(world)
        .weapon(weapon)
        .ok_or_else(|| no(format!("no weapon '{weapon}' in this scenario")))?;
    Ok(w.ready_cost.max(0) as u32)
}

fn check_mount(world: &World, actor: Entity, mount: &fray_core::ids::MountId) -> Verdict<Entity> {
    let m = world
        .resource::<TableIndex>()
        .mount(mount)
        .ok_or_else(|| no(format!("there is no mount '{mount}'")))?;
    if world.get::<Rides>(actor).is_some() {
        return Err(no(format!("{} is already riding", view::name(world, actor))));
    }
    if let Some(rider) = world.get::<RiddenBy>(m) {
        return Err(no(format!("the {mount} is already ridden by {}", view::name(world, rider.rider()))));
    }
    if !are_local(world, actor, m) {
        return Err(no(format!(
            "the {mount} is not local: it stands in {}",
            place_of(world, m).map_or_else(|| "no place".to_owned(), |p| the_place(world, p))
        )));
    }
    if world.get::<MountTraits>(m).is_some_and(|t| t.untrained) {
        return Err(no(format!("the {mount} is untrained and must be wrangled first")));
    }
    Ok(m)
}

/// Checks an attack with the ready weapon of `kind`; returns the target.
pub(crate) fn check_attack(
    world: &World,
    actor: Entity,
    target: &fray_core::ids::CombatantId,
    kind: WeaponKind,
) -> Verdict<Entity> {
    let t = world
        .resource::<TableIndex>()
        .combatant(target)
        .ok_or_else(|| no(format!("there is no combatant '{target}'")))?;
    let (weapon_id, weapon) = view::ready_weapon(world, actor)
        .ok_or_else(|| no(format!("{} has no weapon ready", view::name(world, actor))))?;
    if weapon.kind != kind {
        return Err(no(format!("the ready {weapon_id} is a {} weapon", kind_word(weapon.kind))));
    }
    if t == actor {
        return Err(no("cannot attack oneself"));
    }
    if !view::on_table(world, t) {
        return Err(no(format!("{} is no longer on the table", view::name(world, t))));
    }
    if !can_hit(world, actor, t, kind) {
        return Err(no(format!(
            "a melee weapon reaches local combatants and those in no location; {} is in {}",
            view::name(world, t),
            place_of(world, t).map_or_else(String::new, |p| the_place(world, p))
        )));
    }
    Ok(t)
}

/// Whether a weapon of `kind` held by `actor` can reach `target`.
pub(crate) fn can_hit(world: &World, actor: Entity, target: Entity, kind: WeaponKind) -> bool {
    match kind {
        WeaponKind::Ranged => true,
        WeaponKind::Melee => {
            are_local(world, actor, target) || place_of(world, target).is_some_and(|p| is_field(world, p))
        }
    }
}

/// Applies an accepted plan.
pub(crate) fn apply(world: &mut World, actor: Entity, plan: Plan) {
    if plan.cost > 0 {
        view::lose(world, actor, TokenKind::TacticalPoint, plan.cost, "action");
    }
    if plan.full {
        world.resource_mut::<ActiveTurn>().full_action_used = true;
    }
    match plan.what {
        Act::Arm(weapon) => {
            if let Some(mut a) = world.get_mut::<Arsenal>(actor) {
                a.ready = Some(weapon.clone());
            }
            view::log(world, actor, LogEvent::Effect { what: "armed", detail: weapon });
        }
        Act::Move { to } => move_to(world, actor, to, plan.cost),
        Act::Retreat { value } => {
            view::log(
                world,
                actor,
                LogEvent::Effect { what: "retreat", detail: format!("retreat value {value}") },
            );
            damage::set_status(world, actor, Status::Fled);
        }
        Act::Mount(m) => {
            world.entity_mut(actor).insert(Rides(m));
            let name = view_mount_name(world, m);
            view::log(world, actor, LogEvent::Effect { what: "mounted", detail: name });
        }
        Act::Attack { target, kind } => attack(world, actor, target, kind),
        Act::EndTurn => end_turn(world),
    }
}

fn view_mount_name(world: &World, m: Entity) -> String {
    world.get::<fray_core::prelude::Mount>(m).map_or_else(String::new, |m| m.name.clone())
}

/// Moves a combatant (and the mount it rides) to another place.
fn move_to(world: &mut World, actor: Entity, to: Entity, cost: u32) {
    let from = place_of(world, actor);
    world.entity_mut(actor).insert(Occupies(to));
    if let Some(m) = world.get::<Rides>(actor).map(|r| r.0) {
        world.entity_mut(m).insert(Occupies(to));
    }
    let from = from.map_or_else(|| "field".to_owned(), |f| place_id(world, f).0);
    let to = place_id(world, to).0;
    view::log(world, actor, LogEvent::Moved { from, to, cost });
}

/// Rolls the ready weapon's skill with Grace against the target's Evasion; a hit deals the
/// weapon's first-intention wounds plus one per extra success, at most Power.
fn attack(world: &mut World, actor: Entity, target: Entity, kind: WeaponKind) {
    let Some((weapon_id, weapon)) = view::ready_weapon(world, actor) else {
        return;
    };
    let evasion = world.get::<Evasion>(target).map_or(0, |e| e.0);
    let roll = rolls::roll(world, actor, Some(weapon.skill), Attribute::Grace, evasion);
    if !roll.success {
        return;
    }
    let power = world.get::<Attributes>(actor).map_or(0, |a| a.effective(Attribute::Power));
    let precision = roll.extra_successes.min(power);
    let amount = weapon.first_intention.max(0) as u32 + precision;
    let source = format!("{}'s {weapon_id} ({})", view::name(world, actor), kind_word(kind));
    damage::wounds(world, target, amount, &source);
}

fn kind_word(kind: WeaponKind) -> &'static str {
    match kind {
        WeaponKind::Melee => "melee",
        WeaponKind::Ranged => "ranged",
    }
}
