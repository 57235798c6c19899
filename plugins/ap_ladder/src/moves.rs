//! Movement actions in yards: walk (crawling while prone), run, charge, maneuver, step aside
//! and take cover with their AP and distances; the sub-types (a mount's, swimming in deep
//! water, climbing a wall: +1 AP and a test at the start); hard terrain; the opportunity attacks a move provokes
//! (leaving an engagement; charging or running into a Reach weapon's reach); getting up.

use bevy_ecs::prelude::*;
use fray_core::intent::{Rejection, Verdict};
use fray_core::log::{GameLog, LogEvent};
use fray_core::prelude::Rides;
use fray_core::table::{can_act, id, name};

use crate::conditions::remove;
use crate::data::{AreaKind, Attribute, Condition, MoveSubtype, Quality};
use crate::dice::{Flip, test};
use crate::field::{EPS, cover_at, crosses, distance, engaged_at, foes, in_area, on_field, place, position};
use crate::intent::MoveKind;
use crate::load::MountSheet;
use crate::phase::{Battle, Fighter};

/// A move checked: where, how, its AP, and the foes whose opportunity attacks it provokes.
#[derive(Clone, Debug, PartialEq)]
pub struct MovePlan {
    /// Where to.
    pub to: [f32; 2],
    /// How.
    pub how: MoveKind,
    /// Yards.
    pub yards: f32,
    /// AP it costs.
    pub ap: u32,
    /// The sub-type (a mount's).
    pub subtype: Option<MoveSubtype>,
    /// Foes who strike as it leaves them.
    pub provokes: Vec<Entity>,
    /// Foes engaged with it that it leaves (after a step aside, they may follow).
    pub left: Vec<Entity>,
    /// Foes wielding a Reach weapon it charges or runs at: each strikes as it comes into the
    /// weapon's reach.
    pub met: Vec<Entity>,
    /// A run that jumps a gap or leaps onto a ledge.
    pub jump: Option<Jump>,
}

/// A jump a run makes.
#[derive(Clone, Debug, PartialEq)]
pub struct Jump {
    /// Where it takes off: the gap's near edge or the ledge's foot, where a failed one ends.
    pub edge: [f32; 2],
    /// The ledge it leaps up onto (none: across a gap).
    pub onto: Option<String>,
}

/// AP a kind of move costs, before a sub-type's extra AP.
pub fn ap_of(how: MoveKind) -> u32 {
    match how {
        MoveKind::Walk | MoveKind::StepAside | MoveKind::TakeCover | MoveKind::Sneak => 1,
        MoveKind::Charge | MoveKind::Maneuver => 2,
        MoveKind::Run => 3,
    }
}

/// The sub-type `e` moves by (its mount's) and the distance it gives instead of Movement.
pub fn subtype(world: &World, e: Entity) -> Option<(MoveSubtype, f32)> {
    subtype_at(world, e, None)
}

/// The sub-type of a move of `e` (to `to`, when known): its mount's; else swimming when it
/// starts or ends in deep water, climbing on a wall; with the distance it gives instead of
/// Movement (a mount's bonus for a mount, the mover's own otherwise).
pub fn subtype_at(world: &World, e: Entity, to: Option<[f32; 2]>) -> Option<(MoveSubtype, f32)> {
    let tables = &world.resource::<Battle>().tables;
    if let Some(mount) = world.get::<Rides>(e).map(|r| r.0) {
        let sheet = &world.get::<MountSheet>(mount)?.0;
        let row = tables.subtype(sheet.kind?)?;
        let bonus = match row.bonus {
            Attribute::Brawn => sheet.brawn_bonus,
            _ => sheet.agility_bonus,
        } as i32;
        let slower = world.get::<crate::mounts::Steed>(mount).map_or(0, |s| s.slower()) as i32;
        return Some((row.subtype, (bonus + row.plus - slower).max(row.minimum as i32) as f32));
    }
    let from = position(world, e);
    let touches = |k: AreaKind| in_area(world, from, k) || to.is_some_and(|t| in_area(world, t, k));
    let kind = if touches(AreaKind::Water) {
        MoveSubtype::Swimming
    } else if touches(AreaKind::Climb) {
        MoveSubtype::Climbing
    } else {
        return None;
    };
    own_subtype(world, e, kind)
}

/// A sub-type `e` moves by on its own feet (swimming, climbing, sneaking) and the distance its
/// own bonus gives.
fn own_subtype(world: &World, e: Entity, kind: MoveSubtype) -> Option<(MoveSubtype, f32)> {
    let row = world.resource::<Battle>().tables.subtype(kind)?;
    let bonus = world.get::<Fighter>(e)?.sheet.bonus(row.bonus) as i32;
    Some((kind, (bonus + row.plus).max(row.minimum as i32) as f32))
}

/// The most yards `e` may go with this kind of move from where it stands.
pub fn reach(world: &World, e: Entity, how: MoveKind) -> f32 {
    reach_by(world, e, how, subtype(world, e).map(|s| s.1))
}

/// The most yards with this kind of move, a sub-type's distance replacing Movement.
fn reach_by(world: &World, e: Entity, how: MoveKind, sub: Option<f32>) -> f32 {
    let Some(f) = world.get::<Fighter>(e) else { return 0.0 };
    let plus = world.resource::<Battle>().rules.numbers.movement_plus;
    if f.has(Condition::Prone) {
        return f.sheet.bonus(Attribute::Agility).max(1) as f32;
    }
    let base = sub.unwrap_or_else(|| f.movement(plus));
    match how {
        MoveKind::Walk | MoveKind::Sneak => base,
        MoveKind::Charge => base * 2.0,
        MoveKind::Run => base * 3.0,
        MoveKind::Maneuver | MoveKind::StepAside | MoveKind::TakeCover => 1.0,
    }
}

/// Checks a move of `e` to `to`.
pub fn plan_move(world: &World, e: Entity, to: [f32; 2], how: MoveKind) -> Verdict<MovePlan> {
    let f = world.get::<Fighter>(e).ok_or_else(|| Rejection::new("not a combatant"))?;
    if !on_field(world, to) {
        let (w, h) = world.resource::<Battle>().rules.field;
        return Err(Rejection::new(format!("that is off the field ({w} by {h} yards)")));
    }
    let from = position(world, e);
    crate::mounts::check_moves(world, e)?;
    let fast = matches!(how, MoveKind::Charge | MoveKind::Maneuver | MoveKind::Run);
    if f.has(Condition::Prone) && how != MoveKind::Walk {
        return Err(Rejection::new(format!("{} is prone: get up first, or walk to crawl", name(world, e))));
    }
    if fast && f.weapon().is_some_and(|w| w.has(Quality::Brace)) {
        return Err(Rejection::new(format!("no {} while wielding a Brace weapon", how.word())));
    }
    if fast
        && (crosses(world, from, to, AreaKind::Hard) || crate::field::in_area(world, from, AreaKind::Hard))
    {
        return Err(Rejection::new(format!("no {} through hard terrain", how.word())));
    }
    let sub = subtype_at(world, e, Some(to)).filter(|_| !f.has(Condition::Prone));
    let wet = matches!(sub, Some((MoveSubtype::Swimming | MoveSubtype::Climbing, _)));
    if how == MoveKind::Sneak {
        if f.has(Condition::Prone) {
            return Err(Rejection::new(format!(
                "{} is prone: get up first, or walk to crawl",
                name(world, e)
            )));
        }
        if world.get::<Rides>(e).is_some() {
            return Err(Rejection::new(format!("{} is mounted: no sneaking in the saddle", name(world, e))));
        }
        if wet {
            return Err(Rejection::new("no sneaking while swimming or climbing"));
        }
    }
    let sub = if how == MoveKind::Sneak { own_subtype(world, e, MoveSubtype::Sneaking) } else { sub };
    if wet && matches!(how, MoveKind::Charge | MoveKind::Run) {
        return Err(Rejection::new(format!("no {} while swimming or climbing", how.word())));
    }
    let yards = distance(from, to);
    let jump = check_jump(world, e, from, to, how)?;
    let most = reach_by(world, e, how, sub.map(|s| s.1));
    if yards > most + EPS {
        return Err(Rejection::new(format!(
            "{yards:.1} yards is beyond a {} ({most:.0} yards at most)",
            how.word()
        )));
    }
    if how == MoveKind::TakeCover && cover_at(world, to).is_none() {
        return Err(Rejection::new("no cover there: take cover behind a crate, a wall or a pillar"));
    }
    let rider_mount = world.get::<Rides>(e).map(|r| r.0);
    let taken = world
        .resource::<fray_core::prelude::TableIndex>()
        .order
        .iter()
        .copied()
        .filter(|&o| o != e && can_act(world, o) && Some(o) != rider_mount)
        .find(|&o| distance(position(world, o), to) < 0.6);
    if let Some(o) = taken {
        return Err(Rejection::new(format!("{} stands there", name(world, o))));
    }
    let ap = ap_of(how) + u32::from(sub.is_some());
    if f.ap < ap {
        return Err(Rejection::new(format!("a {} costs {ap} AP; {} left", how.word(), f.ap)));
    }
    // A sneak either passes its test and slips away unseen, or does not move at all.
    let avoids = matches!(how, MoveKind::Maneuver | MoveKind::StepAside | MoveKind::Sneak);
    let left: Vec<Entity> = foes(world, e)
        .into_iter()
        .filter(|&t| {
            engaged_at(world, from, position(world, t)) && !engaged_at(world, to, position(world, t))
        })
        .filter(|&t| world.get::<Fighter>(t).is_some_and(|tf| !crate::dice::cannot_act(world, tf)))
        .collect();
    let provokes = if avoids {
        Vec::new()
    } else {
        left.iter().copied().filter(|&t| crate::combat::may_strike_freely(world, t)).collect()
    };
    let met = if matches!(how, MoveKind::Charge | MoveKind::Run) {
        reach_met(world, e, from, to)
    } else {
        Vec::new()
    };
    Ok(MovePlan { to, how, yards, ap, subtype: sub.map(|s| s.0), provokes, left, met, jump })
}

/// A gap on the way from `from` to `to`, or a ledge at its end: the jump or leap it takes
/// (one a run).
fn check_jump(
    world: &World,
    e: Entity,
    from: [f32; 2],
    to: [f32; 2],
    how: MoveKind,
) -> Verdict<Option<Jump>> {
    let gap = check_gap(world, e, from, to, how)?;
    let leap = check_leap(world, e, from, to, how)?;
    match (gap, leap) {
        (Some(_), Some(_)) => Err(Rejection::new("one jump a run: a gap and a ledge lie on the way")),
        (Some(edge), None) => Ok(Some(Jump { edge, onto: None })),
        (None, leap) => Ok(leap),
    }
}

/// Higher ground with a height that `to` is on and `from` is not: refused unless a run of at
/// least the run-up leaps onto it, [BB] / 6 yards up at most, never mounted.
fn check_leap(
    world: &World,
    e: Entity,
    from: [f32; 2],
    to: [f32; 2],
    how: MoveKind,
) -> Verdict<Option<Jump>> {
    let rules = &world.resource::<Battle>().rules;
    let on = |p: [f32; 2], a: &crate::data::AreaSpec| distance(p, [a.at.0, a.at.1]) <= a.radius + EPS;
    let Some(ledge) =
        rules.areas.iter().find(|a| a.kind == AreaKind::High && a.height > 0.0 && on(to, a) && !on(from, a))
    else {
        return Ok(None);
    };
    let (up, numbers, who) = (ledge.height, &rules.numbers, name(world, e));
    if how != MoveKind::Run {
        return Err(Rejection::new(format!(
            "{} is {up:.0} yards up: only a run leaps onto it (a {:.0}-yard run-up)",
            ledge.name, numbers.run_up
        )));
    }
    if world.get::<Rides>(e).is_some() {
        return Err(Rejection::new(format!(
            "{who}'s mount balks at {}: dismount to leap onto it",
            ledge.name
        )));
    }
    let before = crate::field::span(from, to, ledge).map_or(0.0, |s| s.0);
    if before + EPS < numbers.run_up {
        return Err(Rejection::new(format!(
            "a leap needs a {:.0}-yard run-up: the foot of {} is {before:.1} yards away",
            numbers.run_up, ledge.name
        )));
    }
    let brawn = world.get::<Fighter>(e).map_or(0, |f| f.sheet.bonus(Attribute::Brawn));
    let most = (brawn / numbers.leap_per.max(1)) as f32;
    if up > most + EPS {
        return Err(Rejection::new(format!(
            "{} is {up:.0} yards up: {who} leaps {most:.0} at most ([BB] {brawn} / {})",
            ledge.name, numbers.leap_per
        )));
    }
    Ok(Some(Jump { edge: take_off(from, to, before), onto: Some(ledge.name.clone()) }))
}

/// Where a jump along the way from `from` to `to` takes off: just short of `before` yards on.
fn take_off(from: [f32; 2], to: [f32; 2], before: f32) -> [f32; 2] {
    let k = (before - 0.3).max(0.0) / distance(from, to);
    [from[0] + (to[0] - from[0]) * k, from[1] + (to[1] - from[1]) * k]
}

/// A gap on the way from `from` to `to`: refused unless a run of at least the run-up jumps
/// it, [BB] / 3 yards at most, one gap a run, never mounted; where the jump takes off.
fn check_gap(
    world: &World,
    e: Entity,
    from: [f32; 2],
    to: [f32; 2],
    how: MoveKind,
) -> Verdict<Option<[f32; 2]>> {
    if crate::field::in_area(world, to, AreaKind::Gap) {
        return Err(Rejection::new("no one stands in a gap: jump it to the far side"));
    }
    let gaps = crate::field::spans(world, from, to, AreaKind::Gap);
    let Some(&(before, across)) = gaps.first() else { return Ok(None) };
    let numbers = &world.resource::<Battle>().rules.numbers;
    let who = name(world, e);
    if how != MoveKind::Run {
        return Err(Rejection::new(format!(
            "a gap {across:.1} yards across lies on the way: only a run jumps it (a {:.0}-yard run-up)",
            numbers.run_up
        )));
    }
    if world.get::<Rides>(e).is_some() {
        return Err(Rejection::new(format!("{who}'s mount balks at the gap: dismount to jump it")));
    }
    if gaps.len() > 1 {
        return Err(Rejection::new("one jump a run: two gaps lie on the way"));
    }
    if before + EPS < numbers.run_up {
        return Err(Rejection::new(format!(
            "a jump needs a {:.0}-yard run-up: the gap's edge is {before:.1} yards away",
            numbers.run_up
        )));
    }
    let brawn = world.get::<Fighter>(e).map_or(0, |f| f.sheet.bonus(Attribute::Brawn));
    let most = (brawn / numbers.jump_per.max(1)) as f32;
    if across > most + EPS {
        return Err(Rejection::new(format!(
            "the gap is {across:.1} yards across: {who} jumps {most:.0} at most ([BB] {brawn} / {})",
            numbers.jump_per
        )));
    }
    Ok(Some(take_off(from, to, before)))
}

/// The foes of `e` wielding a Reach weapon, able to strike, whose reach a move from `from`
/// to `to` comes into (from outside it): a charge or a run at them.
fn reach_met(world: &World, e: Entity, from: [f32; 2], to: [f32; 2]) -> Vec<Entity> {
    let reach = world.resource::<Battle>().rules.numbers.reach + EPS;
    foes(world, e)
        .into_iter()
        .filter(|&t| crate::combat::wields_reach(world, t) && crate::combat::may_strike_freely(world, t))
        .filter(|&t| {
            let at = position(world, t);
            distance(from, at) > reach && distance(to, at) <= reach
        })
        .collect()
}

/// Moves as planned: pays, tests the sub-type if needed, takes the opportunity attacks, then
/// goes (unless they stopped it).
pub fn apply_move(world: &mut World, e: Entity, plan: MovePlan) {
    if let Some(mut f) = world.get_mut::<Fighter>(e) {
        f.ap = f.ap.saturating_sub(plan.ap);
    }
    crate::stunts::release_held_by(world, e, "the holder moved");
    // A sneak found since its test (no longer unseen) tests again: its circumstances changed.
    let found = |f: &Fighter| plan.how == MoveKind::Sneak && !f.has(Condition::Unseen);
    if let Some(sub) = plan.subtype
        && world.get::<Fighter>(e).is_some_and(|f| f.steady_in != Some(sub) || found(f))
    {
        let skill = world.resource::<Battle>().tables.subtype(sub).map(|r| r.skill);
        let ok = test(world, e, "the movement's test", skill, None, Vec::new(), Flip::None).success;
        if !ok {
            let who = id(world, e);
            world.resource_mut::<GameLog>().about(
                &who,
                LogEvent::Effect {
                    what: "move_failed",
                    detail: "the movement's test failed: no move".to_owned(),
                },
            );
            return;
        }
    }
    for t in plan.provokes.clone() {
        crate::combat::opportunity(world, t, e);
        if !can_act(world, e) || world.get::<Fighter>(e).is_none_or(|f| crate::dice::cannot_act(world, f)) {
            return;
        }
    }
    // A jump or a leap: an Athletics test where it takes off; failed, the jumper falls there,
    // prone.
    if let Some(jump) = &plan.jump {
        let what = if jump.onto.is_some() { "the leap" } else { "the jump" };
        let ok =
            test(world, e, what, Some(crate::data::Skill::Athletics), None, Vec::new(), Flip::None).success;
        if !ok {
            place(world, e, jump.edge);
            crate::conditions::add(world, e, Condition::Prone);
            remove(world, e, Condition::Unseen);
            let detail = match &jump.onto {
                Some(ledge) => format!("the leap failed: down at the foot of {ledge}"),
                None => "the jump failed: down at the gap's edge".to_owned(),
            };
            let who = id(world, e);
            world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what: "jump_failed", detail });
            return;
        }
    }
    place(world, e, plan.to);
    // A sneak that passed its test is unseen; any other move shows the mover.
    if plan.how == MoveKind::Sneak {
        crate::conditions::add(world, e, Condition::Unseen);
    } else {
        remove(world, e, Condition::Unseen);
    }
    let cover = if plan.how == MoveKind::TakeCover { cover_at(world, plan.to) } else { None };
    if let Some(mut f) = world.get_mut::<Fighter>(e) {
        f.cover = cover;
        // The test holds while the movement's kind lasts (a mount's, or in the water).
        f.steady_in = plan.subtype;
        match plan.how {
            MoveKind::Run => f.running = true,
            MoveKind::Charge if plan.yards >= 3.0 - EPS => f.charged = true,
            _ => {}
        }
    }
    // A Reach weapon strikes the one charging or running at it as it comes into reach.
    for t in plan.met.clone() {
        if !can_act(world, e) || world.get::<Fighter>(e).is_none_or(|f| crate::dice::cannot_act(world, f)) {
            break;
        }
        crate::combat::opportunity(world, t, e);
    }
    if plan.how == MoveKind::StepAside && !plan.left.is_empty() {
        let mut battle = world.resource_mut::<Battle>();
        battle.followers = plan.left.clone();
        battle.followed = Some(e);
    }
    let detail = format!(
        "{} to ({:.1}, {:.1}), {:.1} yards, {} AP",
        plan.how.word(),
        plan.to[0],
        plan.to[1],
        plan.yards,
        plan.ap
    );
    let who = id(world, e);
    world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what: "moved", detail });
}

/// Checks getting up: prone, 2 AP (1 with Coordination trained).
pub fn check_get_up(world: &World, e: Entity) -> Verdict<u32> {
    let f = world.get::<Fighter>(e).ok_or_else(|| Rejection::new("not a combatant"))?;
    if !f.has(Condition::Prone) {
        return Err(Rejection::new(format!("{} is standing", name(world, e))));
    }
    let ap = if f.sheet.trained(crate::data::Skill::Coordination) { 1 } else { 2 };
    if f.ap < ap {
        return Err(Rejection::new(format!("getting up costs {ap} AP; {} left", f.ap)));
    }
    Ok(ap)
}

/// Gets up.
pub fn get_up(world: &mut World, e: Entity, ap: u32) {
    if let Some(mut f) = world.get_mut::<Fighter>(e) {
        f.ap = f.ap.saturating_sub(ap);
    }
    remove(world, e, Condition::Prone);
}

/// A riderless mount `e` could get onto: within the engagement distance.
fn mount_near(world: &World, e: Entity, mount: Entity) -> Verdict {
    if world.get::<MountSheet>(mount).is_none() {
        return Err(Rejection::new("no such mount"));
    }
    if world.get::<fray_core::prelude::RiddenBy>(mount).is_some() {
        return Err(Rejection::new("someone rides it already"));
    }
    let at = world.get::<fray_core::prelude::FieldPosition>(mount).map_or([0.0, 0.0], |p| p.0);
    if distance(position(world, e), at) > crate::field::engagement(world) + EPS {
        return Err(Rejection::new("it stands too far: walk to it first"));
    }
    Ok(())
}

/// Checks getting onto `mount` (or down, with none): standing, as getting up costs.
pub fn check_mount(world: &World, e: Entity, mount: Option<Entity>) -> Verdict<u32> {
    let f = world.get::<Fighter>(e).ok_or_else(|| Rejection::new("not a combatant"))?;
    if f.has(Condition::Prone) {
        return Err(Rejection::new(format!("{} is prone: get up first", name(world, e))));
    }
    let riding = world.get::<Rides>(e).is_some();
    match mount {
        Some(_) if riding => return Err(Rejection::new(format!("{} is mounted already", name(world, e)))),
        Some(m) => mount_near(world, e, m)?,
        None if !riding => return Err(Rejection::new(format!("{} rides nothing", name(world, e)))),
        None => {}
    }
    let ap = if f.sheet.trained(crate::data::Skill::Coordination) { 1 } else { 2 };
    if f.ap < ap {
        return Err(Rejection::new(format!("it costs {ap} AP; {} left", f.ap)));
    }
    Ok(ap)
}

/// Gets onto `mount` (standing where it stands), or down beside it (a yard away).
pub fn set_mount(world: &mut World, e: Entity, mount: Option<Entity>, ap: u32) {
    if let Some(mut f) = world.get_mut::<Fighter>(e) {
        f.ap = f.ap.saturating_sub(ap);
        f.steady_in = None;
        f.cover = None;
    }
    let who = id(world, e);
    match mount {
        Some(m) => {
            let at = world.get::<fray_core::prelude::FieldPosition>(m).map_or(position(world, e), |p| p.0);
            world.entity_mut(e).insert(Rides(m));
            place(world, e, at);
            let detail =
                world.get::<fray_core::prelude::Mount>(m).map_or_else(String::new, |m| m.id.to_string());
            world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what: "mounted", detail });
        }
        None => {
            let at = position(world, e);
            world.entity_mut(e).remove::<Rides>();
            let (w, _) = world.resource::<Battle>().rules.field;
            let side = if at[0] + 1.0 <= w / 2.0 { 1.0 } else { -1.0 };
            place(world, e, [at[0] + side, at[1]]);
            world
                .resource_mut::<GameLog>()
                .about(&who, LogEvent::Effect { what: "dismounted", detail: String::new() });
        }
    }
}

/// Where a foe following the one who stepped aside would go: a free point beside it.
pub fn follow_to(world: &World, follower: Entity) -> Option<[f32; 2]> {
    let e = world.resource::<Battle>().followed?;
    crate::field::beside(world, follower, e).into_iter().next()
}

/// The first asked follower goes beside the one who stepped aside (free, no opportunity
/// attack), or stays; then the next is asked.
pub fn follow(world: &mut World, follower: Entity, goes: bool) {
    let to = if goes { follow_to(world, follower) } else { None };
    {
        let mut battle = world.resource_mut::<Battle>();
        battle.followers.retain(|&f| f != follower);
        if battle.followers.is_empty() {
            battle.followed = None;
        }
    }
    let Some(to) = to else { return };
    place(world, follower, to);
    if let Some(mut f) = world.get_mut::<Fighter>(follower) {
        f.cover = None;
    }
    let who = id(world, follower);
    let detail = format!("to ({:.1}, {:.1})", to[0], to[1]);
    world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what: "followed", detail });
}
