//! The actions of a turn. Simple actions (arm yourself, call your shot, enter and evacuate a
//! location, retreat, mount and dismount, odd-ball behaviour) cost TP and can be upgraded to
//! the turn's one full action to waive it. Full actions: melee and ranged attacks, grapple,
//! assault, siege weapons, grenades, caltrops, medic, wrangling, the odd-ball roll.
//!
//! Each action is checked against a read-only `World` first ([`check`]); only an accepted
//! plan is applied ([`apply`]), so a refused intent changes nothing. Actions others may react
//! to are held in [`reactions`](crate::reactions) until every answer is in.

use bevy_ecs::entity::EntityHashSet;
use bevy_ecs::prelude::*;
use fray_core::ids::{CombatantId, LocationId, MountId};
use fray_core::intent::{Rejection, Verdict};
use fray_core::location::{
    EnteredFrom, Location, are_local, field, is_field, place_id, place_of, the_place, why_not_enter,
};
use fray_core::log::LogEvent;
use fray_core::prelude::{FieldPosition, Occupies, RiddenBy, Rides, TableIndex};

use crate::counters::TACTICAL_POINT;
use crate::data::{Attribute, Item, Skill, WeaponKind};
use crate::intent::FiendWakeIntent;
use crate::phase::ActiveTurn;
use crate::reactions::{AreaKind, AttackKind, Held, Question, clearers, hold, interceptors, stoppers};
use crate::rolls::Difficulty;
use crate::sheet::{Arsenal, Attributes, CaltropsOf, Inventory, MountTraits};
use crate::turns::end_turn;
use crate::{damage, rolls, view};

/// An accepted action, ready to apply.
#[derive(Debug)]
pub(crate) struct Plan {
    /// TP to spend.
    cost: u32,
    /// Uses the turn's full action; `Some(tp)` for an upgraded simple action that is
    /// assumed to cost `tp`.
    full: Option<Option<u32>>,
    what: Act,
}

#[derive(Debug)]
enum Act {
    Arm(String),
    Move { to: Entity },
    Retreat { value: u32 },
    Mount(Entity),
    Dismount,
    CallShot,
    OddBall(String),
    OddBallRoll { what: String, attribute: Attribute, difficulty: u32 },
    Attack { target: Entity, kind: AttackKind },
    Assault { location: Entity, supporters: Vec<Entity>, raise: u32, enter: bool },
    Bombard(Entity),
    Grenade(Entity),
    Caltrops(Entity),
    PickUp { location: Entity, take_wounds: bool },
    Medic(Entity),
    Wrangle(Entity),
    EndTurn,
}

fn no(reason: impl Into<String>) -> Rejection {
    Rejection::new(reason)
}

fn combatant(world: &World, id: &CombatantId) -> Verdict<Entity> {
    world.resource::<TableIndex>().combatant(id).ok_or_else(|| no(format!("there is no combatant '{id}'")))
}

fn location(world: &World, id: &LocationId) -> Verdict<Entity> {
    world.resource::<TableIndex>().location(id).ok_or_else(|| no(format!("there is no location '{id}'")))
}

fn a_location(world: &World, id: &LocationId) -> Verdict<Entity> {
    let l = location(world, id)?;
    if is_field(world, l) {
        return Err(no("that needs a location, not the open field"));
    }
    Ok(l)
}

fn here(world: &World, e: Entity) -> Verdict<Entity> {
    place_of(world, e).ok_or_else(|| no("stands nowhere"))
}

fn effective(world: &World, e: Entity, a: Attribute) -> u32 {
    world.get::<Attributes>(e).map_or(0, |x| x.effective(a))
}

pub(crate) fn carries(world: &World, e: Entity, item: Item) -> bool {
    world.get::<Inventory>(e).is_some_and(|i| i.0.contains(&item))
}

/// Checks a turn action of the active combatant.
pub(crate) fn check(world: &World, actor: Entity, intent: &FiendWakeIntent) -> Verdict<Plan> {
    let turn = world.resource::<ActiveTurn>();
    let full_left = !turn.full_action_used;
    let rules = &view::catalogue(world).rules;
    let tp = view::count(world, actor, TACTICAL_POINT);
    let name = view::name(world, actor);
    // A simple action: its cost, or the full action with the TP it is assumed to cost.
    let simple = |cost: u32, upgrade: bool, assumed: u32, what: Act| -> Verdict<Plan> {
        if upgrade {
            if !full_left {
                return Err(no("the full action of this turn is already taken"));
            }
            return Ok(Plan { cost: 0, full: Some(Some(assumed)), what });
        }
        if cost > tp {
            return Err(no(format!("costs {cost} TP but {name} holds only {tp}")));
        }
        Ok(Plan { cost, full: None, what })
    };
    let full = |what: Act| -> Verdict<Plan> {
        if !full_left {
            return Err(no("the full action of this turn is already taken"));
        }
        Ok(Plan { cost: 0, full: Some(None), what })
    };
    match intent {
        FiendWakeIntent::Arm { weapon, upgrade } => {
            let cost = check_arm(world, actor, weapon)?;
            let assumed = effective(world, actor, Attribute::Grace).max(3);
            simple(cost, *upgrade, assumed, Act::Arm(weapon.clone()))
        }
        FiendWakeIntent::EnterLocation { location: id, upgrade } => {
            let to = location(world, id)?;
            if let Some(reason) = why_not_enter(world, here(world, actor)?, to) {
                return Err(no(reason));
            }
            let assumed = effective(world, actor, Attribute::Grace);
            simple(view::entry_cost_for(world, actor, to), *upgrade, assumed, Act::Move { to })
        }
        FiendWakeIntent::Evacuate { upgrade } => {
            if is_field(world, here(world, actor)?) {
                return Err(no("stands in the open field: there is nothing to evacuate"));
            }
            let to = field(world).ok_or_else(|| no("this table has no open field"))?;
            simple(rules.evacuate_cost, *upgrade, rules.upgrade_assumed_tp, Act::Move { to })
        }
        FiendWakeIntent::Retreat { tp: spent, upgrade } => {
            let from = here(world, actor)?;
            if !is_field(world, from) {
                return Err(no(format!(
                    "a retreat leaves the scene from the open field; evacuate {} first",
                    the_place(world, from)
                )));
            }
            if *spent > tp {
                return Err(no(format!("spends {spent} TP on the retreat but holds only {tp}")));
            }
            if *upgrade {
                let endurance = effective(world, actor, Attribute::Endurance);
                let mut plan = simple(0, true, endurance, Act::Retreat { value: endurance + spent })?;
                plan.cost = *spent;
                Ok(plan)
            } else if *spent == 0 {
                Err(no("a retreat as a simple action costs at least 1 TP"))
            } else {
                simple(*spent, false, 0, Act::Retreat { value: *spent })
            }
        }
        FiendWakeIntent::Mount { mount, upgrade } => {
            let m = check_mount(world, actor, mount)?;
            simple(rules.mount_cost, *upgrade, effective(world, actor, Attribute::Power), Act::Mount(m))
        }
        FiendWakeIntent::Dismount => {
            if world.get::<Rides>(actor).is_none() {
                return Err(no(format!("{name} is not riding")));
            }
            simple(rules.dismount_cost, false, 0, Act::Dismount)
        }
        FiendWakeIntent::CallShot { upgrade } => {
            if *upgrade {
                return Err(no("a called shot cannot take the full action: the attack it calls needs it"));
            }
            if !full_left {
                return Err(no("the full action of this turn is taken: there is no attack left to call"));
            }
            simple(rules.call_shot_cost, false, 0, Act::CallShot)
        }
        FiendWakeIntent::OddBall { what, tp: price } => {
            check_text(what)?;
            simple(*price, false, 0, Act::OddBall(what.clone()))
        }
        FiendWakeIntent::OddBallRoll { what, attribute, difficulty } => {
            check_text(what)?;
            if *difficulty > 100 {
                return Err(no("an odd-ball difficulty above 100 cannot be rolled"));
            }
            full(Act::OddBallRoll { what: what.clone(), attribute: *attribute, difficulty: *difficulty })
        }
        FiendWakeIntent::MeleeAttack { target } | FiendWakeIntent::RangedAttack { target } => {
            let kind = if matches!(intent, FiendWakeIntent::MeleeAttack { .. }) {
                WeaponKind::Melee
            } else {
                WeaponKind::Ranged
            };
            let target = check_attack(world, actor, target, kind)?;
            let kind = if kind == WeaponKind::Melee { AttackKind::Melee } else { AttackKind::Ranged };
            full(Act::Attack { target, kind })
        }
        FiendWakeIntent::Grapple { target } => {
            let t = combatant(world, target)?;
            check_target(world, actor, t)?;
            if !are_local(world, actor, t) {
                return Err(no(format!(
                    "a grapple needs a local target; {} is elsewhere",
                    view::name(world, t)
                )));
            }
            full(Act::Attack { target: t, kind: AttackKind::Grapple })
        }
        FiendWakeIntent::Assault { location: id, supporters, tp: spent, raise, enter } => {
            let l = a_location(world, id)?;
            if place_of(world, actor) == Some(l) {
                return Err(no(format!("an assault is made into a location; {name} is already in it")));
            }
            if *spent > tp {
                return Err(no(format!("spends {spent} TP on the assault but holds only {tp}")));
            }
            if *raise > 20 {
                return Err(no("a difficulty raise above 20 is not allowed"));
            }
            let team = check_supporters(world, actor, l, supporters)?;
            let mut plan =
                full(Act::Assault { location: l, supporters: team, raise: *raise, enter: *enter })?;
            // The assaulter's own TP are spent now and counted in the team.
            plan.cost = *spent;
            Ok(plan)
        }
        FiendWakeIntent::Bombard { location: id } => {
            let l = a_location(world, id)?;
            let (weapon_id, weapon) =
                view::ready_weapon(world, actor).ok_or_else(|| no(format!("{name} has no weapon ready")))?;
            if weapon.siege <= 0 {
                return Err(no(format!("the {weapon_id} is not a siege weapon")));
            }
            full(Act::Bombard(l))
        }
        FiendWakeIntent::ThrowGrenade { location: id } => {
            let l = a_location(world, id)?;
            if !carries(world, actor, Item::Grenade) {
                return Err(no(format!("{name} carries no grenade")));
            }
            full(Act::Grenade(l))
        }
        FiendWakeIntent::Caltrops { target } => {
            let t = combatant(world, target)?;
            if !carries(world, actor, Item::Caltrops) {
                return Err(no(format!("{name} carries no caltrops")));
            }
            if !view::on_table(world, t) {
                return Err(no(format!("{} is no longer on the table", view::name(world, t))));
            }
            if !place_of(world, t).is_some_and(|p| is_field(world, p)) {
                return Err(no(format!(
                    "caltrops are scattered around a combatant in the open field; {} is not",
                    view::name(world, t)
                )));
            }
            full(Act::Caltrops(t))
        }
        FiendWakeIntent::PickUpCaltrops { location: id, take_wounds } => {
            let l = location(world, id)?;
            if world.get::<CaltropsOf>(l).map(|c| c.0) != Some(actor) {
                return Err(no(format!("{} is not {name}'s caltrops", the_place(world, l))));
            }
            let at = here(world, actor)?;
            if at != l && !is_field(world, at) {
                return Err(no("caltrops are picked up from among them or from the open field"));
            }
            if !take_wounds && tp < rules.caltrops_pickup {
                return Err(no(format!(
                    "picking up caltrops costs {} TP but {name} holds only {tp}",
                    rules.caltrops_pickup
                )));
            }
            full(Act::PickUp { location: l, take_wounds: *take_wounds })
        }
        FiendWakeIntent::Medic { patient } => {
            let p = combatant(world, patient)?;
            if view::status(world, p) != fray_core::table::Status::Unconscious {
                return Err(no(format!("{} is not unconscious", view::name(world, p))));
            }
            if !are_local(world, actor, p) {
                return Err(no(format!("{} is not local", view::name(world, p))));
            }
            full(Act::Medic(p))
        }
        FiendWakeIntent::Wrangle { mount } => {
            let m = check_wrangle(world, actor, mount)?;
            full(Act::Wrangle(m))
        }
        FiendWakeIntent::EndTurn => Ok(Plan { cost: 0, full: None, what: Act::EndTurn }),
        other => Err(no(format!("{} is not something to do during a turn", other.title()))),
    }
}

fn check_text(what: &str) -> Verdict {
    if what.trim().is_empty() || what.len() > 200 {
        return Err(no("say what the odd-ball behaviour is, in at most 200 characters"));
    }
    Ok(())
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

fn local_free_mount(world: &World, actor: Entity, mount: &MountId) -> Verdict<Entity> {
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
        let at = place_of(world, m).map_or_else(|| "no place".to_owned(), |p| the_place(world, p));
        return Err(no(format!("the {mount} is not local: it stands in {at}")));
    }
    Ok(m)
}

fn check_mount(world: &World, actor: Entity, mount: &MountId) -> Verdict<Entity> {
    let m = local_free_mount(world, actor, mount)?;
    if world.get::<MountTraits>(m).is_some_and(|t| t.untrained && !t.wrangled) {
        return Err(no(format!("the {mount} is untrained and must be wrangled first")));
    }
    Ok(m)
}

fn check_wrangle(world: &World, actor: Entity, mount: &MountId) -> Verdict<Entity> {
    let m = local_free_mount(world, actor, mount)?;
    let traits = world.get::<MountTraits>(m).cloned().unwrap_or_default();
    if !traits.untrained || traits.wrangled {
        return Err(no(format!("the {mount} is trained: mount it instead")));
    }
    if !traits.wranglable {
        return Err(no(format!("the GM has not agreed that the {mount} can be wrangled")));
    }
    Ok(m)
}

fn check_target(world: &World, actor: Entity, t: Entity) -> Verdict {
    if t == actor {
        return Err(no("cannot attack oneself"));
    }
    if !view::on_table(world, t) {
        return Err(no(format!("{} is no longer on the table", view::name(world, t))));
    }
    Ok(())
}

/// Checks an attack with the ready weapon of `kind`; returns the target.
pub(crate) fn check_attack(
    world: &World,
    actor: Entity,
    target: &CombatantId,
    kind: WeaponKind,
) -> Verdict<Entity> {
    let t = combatant(world, target)?;
    let (weapon_id, weapon) = view::ready_weapon(world, actor)
        .ok_or_else(|| no(format!("{} has no weapon ready", view::name(world, actor))))?;
    if weapon.kind != kind {
        return Err(no(format!("the ready {weapon_id} is a {} weapon", kind_word(weapon.kind))));
    }
    check_target(world, actor, t)?;
    if !can_hit(world, actor, t, kind) {
        return Err(no(format!(
            "a melee weapon reaches local combatants and those in the open field; {} is in {}",
            view::name(world, t),
            place_of(world, t).map_or_else(String::new, |p| the_place(world, p))
        )));
    }
    Ok(t)
}

/// Checks an assault's supporters: named, distinct, on the assaulter's side of things, able
/// to pay 1 TP and to attack the location's occupants (anyone, if it is empty).
fn check_supporters(
    world: &World,
    actor: Entity,
    l: Entity,
    supporters: &[CombatantId],
) -> Verdict<Vec<Entity>> {
    if supporters.is_empty() {
        return Err(no("an assault needs at least one supporter to call on"));
    }
    let occupants: Vec<Entity> = view::occupying(world, l).filter(|&c| view::on_table(world, c)).collect();
    let mut team = Vec::with_capacity(supporters.len());
    let mut named = EntityHashSet::from_iter([actor]);
    let mut able = false;
    for id in supporters {
        let s = combatant(world, id)?;
        if !named.insert(s) {
            return Err(no(format!("{} is named twice in the assault team", view::name(world, s))));
        }
        if place_of(world, s) == Some(l) {
            return Err(no(format!("{} is inside the location and cannot assault it", view::name(world, s))));
        }
        // One able supporter is enough: the others' reach is not asked.
        let reaches = || occupants.is_empty() || occupants.iter().any(|&o| crate::ai::in_reach(world, s, o));
        able = able || (view::can_act(world, s) && view::count(world, s, TACTICAL_POINT) >= 1 && reaches());
        team.push(s);
    }
    if !able {
        return Err(no("none of the supporters called can pay 1 TP and attack the location's occupants"));
    }
    Ok(team)
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
    world.resource_mut::<ActiveTurn>().actions += 1;
    if plan.cost > 0 {
        view::lose(world, actor, TACTICAL_POINT, plan.cost, "action");
    }
    if let Some(assumed) = plan.full {
        world.resource_mut::<ActiveTurn>().full_action_used = true;
        if let Some(tp) = assumed {
            view::log(
                world,
                actor,
                LogEvent::Effect { what: "upgraded", detail: format!("assumed to cost {tp} TP") },
            );
        }
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
            let queue = stoppers(world, actor);
            hold(world, Held::Retreat { who: actor, value, stopped: false }, queue);
        }
        Act::Mount(m) => mount(world, actor, m),
        Act::Dismount => {
            world.entity_mut(actor).remove::<Rides>();
            view::log(world, actor, LogEvent::Effect { what: "dismounted", detail: String::new() });
        }
        Act::CallShot => {
            let called = {
                let mut turn = world.resource_mut::<ActiveTurn>();
                turn.called += 1;
                turn.called
            };
            view::log(
                world,
                actor,
                LogEvent::Effect { what: "called_shot", detail: format!("{called} called") },
            );
        }
        Act::OddBall(what) => view::log(world, actor, LogEvent::Effect { what: "odd_ball", detail: what }),
        Act::OddBallRoll { what, attribute, difficulty } => {
            let told = format!("{} tries: {what}", view::name(world, actor));
            view::log(world, actor, LogEvent::Effect { what: "odd_ball", detail: what });
            rolls::roll(
                world,
                actor,
                (Some(Skill::Tactics), attribute),
                Difficulty::of("the GM's difficulty", difficulty),
                told,
            );
        }
        Act::Attack { target, kind } => {
            let called = std::mem::take(&mut world.resource_mut::<ActiveTurn>().called);
            let queue = interceptors(world, actor, target);
            hold(world, Held::Attack { attacker: actor, target, kind, called }, queue);
        }
        Act::Assault { location, supporters, raise, enter } => {
            let mut queue: Vec<(Entity, Question)> =
                supporters.into_iter().map(|s| (s, Question::Support)).collect();
            queue.extend(clearers(world, location));
            let kind = AreaKind::Assault { team: vec![(actor, plan.cost, enter)], raise };
            hold(world, Held::Area { actor, location, kind, leapers: Vec::new() }, queue);
        }
        Act::Bombard(l) => {
            let queue = clearers(world, l);
            hold(
                world,
                Held::Area { actor, location: l, kind: AreaKind::Bombard, leapers: Vec::new() },
                queue,
            );
        }
        Act::Grenade(l) => {
            take_item(world, actor, Item::Grenade);
            let queue = clearers(world, l);
            hold(
                world,
                Held::Area { actor, location: l, kind: AreaKind::Grenade, leapers: Vec::new() },
                queue,
            );
        }
        Act::Caltrops(t) => scatter_caltrops(world, actor, t),
        Act::PickUp { location, take_wounds } => pick_up_caltrops(world, actor, location, take_wounds),
        Act::Medic(p) => {
            let difficulty = view::catalogue(world).rules.medic_difficulty;
            let told = format!("{} tends {}", view::name(world, actor), view::name(world, p));
            if rolls::roll(
                world,
                actor,
                (Some(Skill::Medicine), Attribute::Cunning),
                Difficulty::of("medic", difficulty),
                told,
            )
            .success
            {
                let by = view::name(world, actor);
                damage::recover_handicap(world, p, &format!("{by}'s care"));
            }
        }
        Act::Wrangle(m) => wrangle(world, actor, m),
        Act::EndTurn => end_turn(world),
    }
}

fn take_item(world: &mut World, e: Entity, item: Item) {
    if let Some(mut inventory) = world.get_mut::<Inventory>(e)
        && let Some(i) = inventory.0.iter().position(|x| *x == item)
    {
        inventory.0.remove(i);
    }
}

fn mount(world: &mut World, actor: Entity, m: Entity) {
    world.entity_mut(actor).insert(Rides(m));
    let name = world.get::<fray_core::prelude::Mount>(m).map_or_else(String::new, |m| m.name.clone());
    view::log(world, actor, LogEvent::Effect { what: "mounted", detail: name });
}

/// Moves a combatant (and the mount it rides) to another place.
pub(crate) fn move_to(world: &mut World, actor: Entity, to: Entity, cost: u32) {
    let from = place_of(world, actor);
    world.entity_mut(actor).insert(Occupies(to));
    if let Some(m) = world.get::<Rides>(actor).map(|r| r.0) {
        world.entity_mut(m).insert(Occupies(to));
    }
    let from = from.map_or_else(LocationId::field, |f| place_id(world, f));
    let to = place_id(world, to);
    view::log(world, actor, LogEvent::Moved { from, to, cost });
}

fn scatter_caltrops(world: &mut World, actor: Entity, target: Entity) {
    take_item(world, actor, Item::Caltrops);
    let owner = view::id(world, actor);
    let id = LocationId::from(format!("caltrops_{owner}"));
    let wounds = view::catalogue(world).rules.caltrops_wounds;
    let Some(field) = field(world) else {
        return;
    };
    let size = [180.0, 130.0];
    // Around the target, but never over a card already drawn (it would hide it).
    let near = world.get::<FieldPosition>(target).map_or([0.0, 0.0], |p| p.0);
    let at = fray_core::location::clear_spot(world, near, size, 20.0);
    let l = world
        .spawn((
            Location {
                id: id.clone(),
                name: format!("Caltrops ({})", view::name(world, actor)),
                position: at,
                size,
            },
            crate::sheet::Properties(vec![crate::data::LocationProperty::WoundsAtTurnStart(wounds)]),
            EnteredFrom(vec![field]),
            CaltropsOf(actor),
        ))
        .id();
    {
        let mut index = world.resource_mut::<TableIndex>();
        index.locations.insert(id.clone(), l);
        index.location_order.push(l);
    }
    view::log(
        world,
        actor,
        LogEvent::Effect { what: "caltrops", detail: format!("{id} around {}", view::id(world, target)) },
    );
    move_to(world, target, l, 0);
}

fn pick_up_caltrops(world: &mut World, actor: Entity, l: Entity, take_wounds: bool) {
    let rules = view::catalogue(world).rules.clone();
    if take_wounds {
        let source = fray_core::log::Source::place("picking up caltrops", place_id(world, l));
        damage::wounds(world, actor, rules.caltrops_pickup, &source);
    } else {
        view::lose(world, actor, TACTICAL_POINT, rules.caltrops_pickup, "picking up caltrops");
    }
    let Some(field) = field(world) else {
        return;
    };
    let inside: Vec<Entity> =
        view::combatants(world).into_iter().filter(|&c| place_of(world, c) == Some(l)).collect();
    for c in inside {
        move_to(world, c, field, 0);
    }
    let mounts: Vec<Entity> = world.resource::<TableIndex>().mounts.values().copied().collect();
    for m in mounts {
        if place_of(world, m) == Some(l) {
            world.entity_mut(m).insert(Occupies(field));
        }
    }
    let id = place_id(world, l);
    {
        let mut index = world.resource_mut::<TableIndex>();
        index.locations.remove(&id);
        index.location_order.retain(|&x| x != l);
    }
    world.entity_mut(l).despawn();
    if let Some(mut inventory) = world.get_mut::<Inventory>(actor) {
        inventory.0.push(Item::Caltrops);
    }
    view::log(world, actor, LogEvent::Effect { what: "caltrops_picked_up", detail: id.to_string() });
}

fn wrangle(world: &mut World, actor: Entity, m: Entity) {
    let traits = world.get::<MountTraits>(m).cloned().unwrap_or_default();
    let difficulty = Difficulty::of("training difficulty", traits.training_difficulty);
    let beast = world.get::<fray_core::prelude::Mount>(m).map_or_else(String::new, |m| m.name.clone());
    let told = format!("{} tries to tame the {beast}", view::name(world, actor));
    let roll = rolls::roll(world, actor, (Some(Skill::Totemism), Attribute::Power), difficulty, told);
    if roll.success {
        if let Some(mut t) = world.get_mut::<MountTraits>(m) {
            t.wrangled = true;
        }
        mount(world, actor, m);
    } else {
        let wounds = view::catalogue(world).rules.wrangle_wounds;
        let source = fray_core::log::Source::named("a wild animal's flailing");
        damage::wounds(world, actor, wounds, &source);
    }
}

fn kind_word(kind: WeaponKind) -> &'static str {
    match kind {
        WeaponKind::Melee => "melee",
        WeaponKind::Ranged => "ranged",
    }
}
