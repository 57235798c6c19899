//! Turns: who acts next, a turn's budget (a Fast turn two actions; a Slow turn 4 base Paces,
//! two actions and a bold action), movement with its Pace budget, going prone and standing,
//! potions, GM-priced actions, and the end of a turn (actions recover then).

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::intent::{Rejection, Verdict};
use fray_core::log::{GameLog, LogEvent};
use fray_core::phase::{RulesStep, current, go_to};
use fray_core::prelude::{FieldPosition, Side, Status};
use fray_core::table::{can_act, id, name};

use crate::commit::sequence;
use crate::phase::{Battle, FastSlowPhase, Fighter, Speed};
use crate::schedule::FastSlowSystems;

/// Actions in every turn.
pub const ACTIONS: u32 = 2;

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(RulesStep, next_fast.in_set(FastSlowSystems::FastTurns))
        .add_systems(RulesStep, next_slow.in_set(FastSlowSystems::SlowTurns));
}

fn next_fast(world: &mut World) {
    next_turn(world, Speed::Fast, FastSlowPhase::Upkeep);
}

fn next_slow(world: &mut World) {
    next_turn(world, Speed::Slow, FastSlowPhase::EndOfRound);
}

/// Ends a turn whose holder fell; starts the next one; when none is left, the next phase.
fn next_turn(world: &mut World, speed: Speed, then: FastSlowPhase) {
    let battle = world.resource::<Battle>();
    if battle.pending.is_some() || battle.counter.is_some() {
        return;
    }
    if let Some(e) = battle.turn {
        if !can_act(world, e) {
            end_turn(world, e);
        }
        return;
    }
    let next = sequence(world, speed)
        .into_iter()
        .find(|&e| can_act(world, e) && world.get::<Fighter>(e).is_some_and(|f| !f.acted));
    match next {
        Some(e) => start_turn(world, e, speed),
        None => go_to(world, then),
    }
}

fn start_turn(world: &mut World, e: Entity, speed: Speed) {
    let paces = if speed == Speed::Slow { world.resource::<Battle>().rules.paces } else { 0.0 };
    if let Some(mut f) = world.get_mut::<Fighter>(e) {
        f.actions = ACTIONS;
        f.paces = paces;
        f.bold_used = false;
        f.attacks = 0;
        f.casts = 0;
    }
    world.resource_mut::<Battle>().turn = Some(e);
    let who = id(world, e);
    world.resource_mut::<GameLog>().about(&who, LogEvent::TurnStarted);
    world.resource_mut::<fray_core::phase::StepProgress>().mark();
}

/// Ends `e`'s turn: its actions recover now, not at its next turn.
pub fn end_turn(world: &mut World, e: Entity) {
    if let Some(mut f) = world.get_mut::<Fighter>(e) {
        f.acted = true;
        f.actions = ACTIONS;
        f.paces = 0.0;
        f.staked = 0;
    }
    world.resource_mut::<Battle>().turn = None;
    world.resource_mut::<Battle>().last_hit = None;
    let who = id(world, e);
    world.resource_mut::<GameLog>().about(&who, LogEvent::TurnEnded);
    world.resource_mut::<fray_core::phase::StepProgress>().mark();
}

/// Ends a free mover's free movement.
pub fn end_free_move(world: &mut World, e: Entity) {
    world.resource_mut::<Battle>().free_movers.retain(|&m| m != e);
    if let Some(mut f) = world.get_mut::<Fighter>(e) {
        f.paces = 0.0;
    }
}

/// Where `e` stands, in Paces.
pub fn position(world: &World, e: Entity) -> [f32; 2] {
    world.get::<FieldPosition>(e).map_or([0.0, 0.0], |p| p.0)
}

/// Paces between two points.
pub fn distance(a: [f32; 2], b: [f32; 2]) -> f32 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt()
}

/// Paces between two combatants.
pub fn between(world: &World, a: Entity, b: Entity) -> f32 {
    distance(position(world, a), position(world, b))
}

/// A move planned: where to, and what it spends.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MovePlan {
    /// Where to.
    pub to: [f32; 2],
    /// Paces of the move.
    pub paces: f32,
    /// Base (or free) Paces it spends.
    pub base: f32,
    /// Move actions it spends.
    pub actions: u32,
}

const EPS: f32 = 1e-3;

/// What `e` may still move this turn: base (or free) Paces, then move actions.
pub fn budget(world: &World, e: Entity) -> (f32, u32) {
    let Some(f) = world.get::<Fighter>(e) else { return (0.0, 0) };
    let free = current::<FastSlowPhase>(world) == FastSlowPhase::Opening;
    (f.paces, if free { 0 } else { f.actions })
}

/// Checks a move of `e` to `to`: on the field, standing, within its budget (a move action's
/// 4 Paces are not split: what is left of one is lost).
pub fn plan_move(world: &World, e: Entity, to: [f32; 2]) -> Verdict<MovePlan> {
    let rules = &world.resource::<Battle>().rules;
    let (w, h) = rules.field;
    if !(to[0].is_finite() && to[1].is_finite()) || to[0].abs() > w / 2.0 + EPS || to[1].abs() > h / 2.0 + EPS
    {
        return Err(Rejection::new(format!("that is off the battlefield ({w} by {h} Paces)")));
    }
    if world.get::<Fighter>(e).is_some_and(|f| f.prone) {
        return Err(Rejection::new(format!("{} is prone: stand up first", name(world, e))));
    }
    let paces = distance(position(world, e), to);
    if paces < EPS {
        return Err(Rejection::new(format!("{} is already there", name(world, e))));
    }
    let (base, actions) = budget(world, e);
    if paces <= base + EPS {
        return Ok(MovePlan { to, paces, base: paces.min(base), actions: 0 });
    }
    let per = rules.paces;
    let needed = ((paces - base - EPS) / per).ceil().max(1.0) as u32;
    if needed > actions {
        let most = base + per * actions as f32;
        return Err(Rejection::new(format!(
            "{paces:.1} Paces is beyond this turn's movement: {most:.1} at most ({base:.1} base Paces left, {actions} action{} of {per} Paces, not split)",
            if actions == 1 { "" } else { "s" }
        )));
    }
    Ok(MovePlan { to, paces, base, actions: needed })
}

/// Moves `e` as planned, then springs any armed trap it ends in.
pub fn apply_move(world: &mut World, e: Entity, plan: MovePlan) {
    if let Some(mut f) = world.get_mut::<Fighter>(e) {
        f.paces = (f.paces - plan.base).max(0.0);
        f.actions = f.actions.saturating_sub(plan.actions);
    }
    place(world, e, plan.to);
    let detail = format!(
        "to ({:.1}, {:.1}), {:.1} Paces{}",
        plan.to[0],
        plan.to[1],
        plan.paces,
        if plan.actions > 0 {
            format!(", {} move action{}", plan.actions, if plan.actions == 1 { "" } else { "s" })
        } else {
            String::new()
        }
    );
    let who = id(world, e);
    world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what: "moved", detail });
    crate::combat::spring_trap(world, e);
}

/// Puts `e` at `to` (Paces).
pub fn place(world: &mut World, e: Entity, to: [f32; 2]) {
    if let Some(mut p) = world.get_mut::<FieldPosition>(e) {
        p.0 = to;
    } else {
        world.entity_mut(e).insert(FieldPosition(to));
    }
}

/// Checks going prone: a Slow turn's base Paces.
pub fn check_prone(world: &World, e: Entity) -> Verdict {
    let f = world.get::<Fighter>(e).ok_or_else(|| Rejection::new("not a combatant"))?;
    let cost = world.resource::<Battle>().rules.prone_cost;
    if f.prone {
        return Err(Rejection::new(format!("{} is prone already", name(world, e))));
    }
    if f.paces + EPS < cost {
        return Err(Rejection::new(format!("going prone costs {cost} base Paces; {:.1} left", f.paces)));
    }
    Ok(())
}

/// Checks standing up: base Paces, else a move action.
pub fn check_stand(world: &World, e: Entity) -> Verdict<bool> {
    let f = world.get::<Fighter>(e).ok_or_else(|| Rejection::new("not a combatant"))?;
    let cost = world.resource::<Battle>().rules.stand_cost;
    if !f.prone {
        return Err(Rejection::new(format!("{} is standing", name(world, e))));
    }
    if f.paces + EPS >= cost {
        return Ok(false);
    }
    if f.actions > 0 {
        return Ok(true);
    }
    Err(Rejection::new(format!("standing up costs {cost} base Paces or an action; neither is left")))
}

/// Goes prone (`down`) or stands up, paying for it.
pub fn set_prone(world: &mut World, e: Entity, down: bool, with_action: bool) {
    let rules = world.resource::<Battle>().rules.clone();
    if let Some(mut f) = world.get_mut::<Fighter>(e) {
        f.prone = down;
        if with_action {
            f.actions = f.actions.saturating_sub(1);
        } else {
            let cost = if down { rules.prone_cost } else { rules.stand_cost };
            f.paces = (f.paces - cost).max(0.0);
        }
    }
    let who = id(world, e);
    let what = if down { "prone" } else { "stood_up" };
    world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what, detail: String::new() });
}

/// Checks a potion given by `e` to `t`: an action, a potion left, `t` itself or a side-mate
/// within hand's reach, and hurt.
pub fn check_potion(world: &World, e: Entity, t: Entity) -> Verdict {
    let f = world.get::<Fighter>(e).ok_or_else(|| Rejection::new("not a combatant"))?;
    if f.potions == 0 {
        return Err(Rejection::new(format!("{} has no potion left", name(world, e))));
    }
    if f.actions == 0 {
        return Err(Rejection::new("no action left this turn"));
    }
    if world.get::<Side>(e) != world.get::<Side>(t) {
        return Err(Rejection::new(format!("{} is not on {}'s side", name(world, t), name(world, e))));
    }
    if !matches!(world.get::<Status>(t), Some(Status::Fighting | Status::Unconscious)) {
        return Err(Rejection::new(format!("{} is beyond a potion's help", name(world, t))));
    }
    let reach = world.resource::<Battle>().rules.hand_reach;
    if e != t && between(world, e, t) > reach + EPS {
        return Err(Rejection::new(format!("{} is more than {reach} Paces away", name(world, t))));
    }
    let tf = world.get::<Fighter>(t).ok_or_else(|| Rejection::new("not a combatant"))?;
    if tf.stamina >= tf.sheet.stamina && tf.health.torso >= tf.sheet.health.torso {
        return Err(Rejection::new(format!("{} is not hurt", name(world, t))));
    }
    Ok(())
}

/// Gives the potion: the torso first, then stamina.
pub fn potion(world: &mut World, e: Entity, t: Entity) {
    if let Some(mut f) = world.get_mut::<Fighter>(e) {
        f.potions -= 1;
        f.actions = f.actions.saturating_sub(1);
    }
    let heal = world.resource::<Battle>().rules.potion_heal;
    crate::combat::heal(world, t, heal, true, "potion");
}

/// Checks fleeing: a Slow turn, standing within reach of the battlefield's edge.
pub fn check_flee(world: &World, e: Entity) -> Verdict {
    let f = world.get::<Fighter>(e).ok_or_else(|| Rejection::new("not a combatant"))?;
    if f.speed != Some(Speed::Slow) {
        return Err(Rejection::new("fleeing takes a Slow turn"));
    }
    let rules = &world.resource::<Battle>().rules;
    let at = position(world, e);
    let edge = (rules.field.0 / 2.0 - at[0].abs()).min(rules.field.1 / 2.0 - at[1].abs());
    if edge > rules.flee_reach + EPS {
        return Err(Rejection::new(format!(
            "{} is {edge:.1} Paces from the battlefield's edge; one flees from within {}",
            name(world, e),
            rules.flee_reach
        )));
    }
    Ok(())
}

/// Leaves the fight: fled, the turn over.
pub fn flee(world: &mut World, e: Entity) {
    fray_core::table::set_status(world, e, Status::Fled);
    end_turn(world, e);
}

/// Checks a GM-priced action of `actions` actions.
pub fn check_interact(world: &World, e: Entity, actions: u32) -> Verdict {
    if !(1..=ACTIONS).contains(&actions) {
        return Err(Rejection::new(format!("an action costs 1 or 2 actions, not {actions}")));
    }
    let left = world.get::<Fighter>(e).map_or(0, |f| f.actions);
    if left < actions {
        let cost = fray_core::words::count(actions.into(), "action", "actions");
        return Err(Rejection::new(format!(
            "it costs {cost}; {} left",
            if left == 0 { "none".to_owned() } else { left.to_string() }
        )));
    }
    Ok(())
}

/// Spends the actions of a GM-priced action.
pub fn interact(world: &mut World, e: Entity, actions: u32) {
    if let Some(mut f) = world.get_mut::<Fighter>(e) {
        f.actions = f.actions.saturating_sub(actions);
    }
    let who = id(world, e);
    let detail = format!("{actions} action{}", if actions == 1 { "" } else { "s" });
    world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what: "interaction", detail });
}
