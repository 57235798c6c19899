//! Who Fast & Slow waits on, and the one place intents are validated and applied.

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::intent::{Inbox, IntentRecord, Rejection, Submitted, Verdict, submit_now, while_fighting};
use fray_core::phase::{RulesStep, current};
use fray_core::prelude::TableIndex;
use fray_core::table::{can_act, name};

use crate::combat::{AttackPlan, check_attack, check_bold, defences};
use crate::data::Defence;
use crate::intent::{FastSlowIntent, SealedCommit};
use crate::phase::{Battle, FastSlowPhase, Fighter, Speed};
use crate::schedule::FastSlowSystems;
use crate::turns::{MovePlan, plan_move};
use crate::{combat, commit, turns};

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(RulesStep, (crate::ai::decide, apply_intents).chain().in_set(FastSlowSystems::Decisions));
}

/// Who the rules wait on now: the committers at round start; in a turn, a defender, then a
/// fumble's defender offered a counterattack, then the turn's holder; the free movers.
pub fn awaiting(world: &World) -> Vec<Entity> {
    let battle = world.resource::<Battle>();
    let phase = current::<FastSlowPhase>(world);
    if matches!(phase, FastSlowPhase::Opening | FastSlowPhase::FastTurns | FastSlowPhase::SlowTurns) {
        if let Some(hit) = &battle.pending {
            return vec![hit.defender];
        }
        if let Some((defender, _)) = battle.counter {
            return vec![defender];
        }
    }
    match phase {
        FastSlowPhase::Opening if battle.opened => {
            battle.free_movers.iter().copied().filter(|&e| can_act(world, e)).collect()
        }
        FastSlowPhase::RoundStart => commit::waiting(world),
        FastSlowPhase::FastTurns | FastSlowPhase::SlowTurns => {
            battle.turn.filter(|&e| can_act(world, e)).into_iter().collect()
        }
        _ => Vec::new(),
    }
}

/// What an accepted intent does, worked out when it is checked.
#[derive(Clone, Debug, PartialEq)]
pub enum Plan {
    /// Commit to a speed.
    Commit(Speed),
    /// Move.
    Move(MovePlan),
    /// Attack.
    Attack(AttackPlan),
    /// A bold action at a target.
    Bold(usize, Entity),
    /// Defend.
    Defend(Defence),
    /// Let a fumble go.
    Decline,
    /// A potion for a target.
    Potion(Entity),
    /// Go prone.
    Prone,
    /// Stand up (with a move action when true).
    Stand(bool),
    /// A GM-priced action.
    Interact(u32),
    /// Stake FOG on the next attack roll.
    Stake(u32),
    /// A skill roll.
    SkillRoll(String),
    /// End the turn.
    EndTurn,
    /// Leave the fight.
    Flee,
}

/// Checks an intent against the table as it is, changing nothing.
pub fn validate(world: &World, e: Entity, intent: &FastSlowIntent) -> Verdict<Plan> {
    let phase = current::<FastSlowPhase>(world);
    if phase == FastSlowPhase::Over {
        return Err(Rejection::new("the fight is over"));
    }
    if !awaiting(world).contains(&e) {
        return Err(Rejection::new(format!("the rules are not waiting on {} now", name(world, e))));
    }
    let battle = world.resource::<Battle>();
    let target = |id: &fray_core::ids::CombatantId| {
        world
            .resource::<TableIndex>()
            .combatant(id)
            .ok_or_else(|| Rejection::new(format!("there is no combatant '{id}'")))
    };
    let f = world.get::<Fighter>(e).ok_or_else(|| Rejection::new("not a combatant"))?;
    let free = battle.pending.is_none() && battle.counter.is_none();
    let in_turn = battle.turn == Some(e) && free;
    let free_move = phase == FastSlowPhase::Opening && free;
    let not_now = |what: &str| Err(Rejection::new(format!("{what} is not possible now")));
    match intent {
        FastSlowIntent::Commit { speed } if phase == FastSlowPhase::RoundStart => Ok(Plan::Commit(*speed)),
        FastSlowIntent::Commit { .. } => not_now("choosing Fast or Slow"),
        FastSlowIntent::Move { to } if free_move || in_turn => {
            plan_move(world, e, [to.0, to.1]).map(Plan::Move)
        }
        FastSlowIntent::EndTurn if free_move || in_turn => Ok(Plan::EndTurn),
        FastSlowIntent::Move { .. } | FastSlowIntent::EndTurn => not_now("that"),
        FastSlowIntent::Attack { target: t, weapon, technique } if in_turn => {
            let t = target(t)?;
            check_attack(world, e, t, *weapon, true)?;
            if let Some(k) = technique {
                combat::check_technique(world, e, *weapon, *k)?;
            }
            Ok(Plan::Attack(AttackPlan {
                target: t,
                weapon: *weapon,
                bonus: 0,
                costs_action: true,
                counter: false,
                technique: *technique,
            }))
        }
        FastSlowIntent::Stake { fog } if in_turn || battle.counter.is_some_and(|(d, _)| d == e) => {
            combat::check_stake(world, e, *fog).map(|()| Plan::Stake(*fog))
        }
        FastSlowIntent::SkillRoll { skill } if in_turn => {
            combat::check_skill(world, e, skill).map(|()| Plan::SkillRoll(skill.clone()))
        }
        FastSlowIntent::Bold { ability, target: t } if in_turn => {
            let t = target(t)?;
            check_bold(world, e, *ability, t).map(|()| Plan::Bold(*ability, t))
        }
        FastSlowIntent::Potion { target: t } if in_turn => {
            let t = target(t)?;
            turns::check_potion(world, e, t).map(|()| Plan::Potion(t))
        }
        FastSlowIntent::Prone if in_turn => turns::check_prone(world, e).map(|()| Plan::Prone),
        FastSlowIntent::Stand if in_turn => turns::check_stand(world, e).map(Plan::Stand),
        FastSlowIntent::Interact { actions } if in_turn => {
            turns::check_interact(world, e, *actions).map(|()| Plan::Interact(*actions))
        }
        FastSlowIntent::Flee if in_turn => turns::check_flee(world, e).map(|()| Plan::Flee),
        FastSlowIntent::Attack { .. }
        | FastSlowIntent::Stake { .. }
        | FastSlowIntent::SkillRoll { .. }
        | FastSlowIntent::Bold { .. }
        | FastSlowIntent::Potion { .. }
        | FastSlowIntent::Prone
        | FastSlowIntent::Stand
        | FastSlowIntent::Interact { .. }
        | FastSlowIntent::Flee => not_now("an action"),
        FastSlowIntent::Defend { defence } => {
            let Some(hit) = battle.pending.as_ref().filter(|h| h.defender == e) else {
                return not_now("a defence");
            };
            let (_, verdict) =
                defences(hit, battle).into_iter().find(|(d, _)| d == defence).unwrap_or((*defence, Ok(())));
            verdict.map(|()| Plan::Defend(*defence))
        }
        FastSlowIntent::Counter { weapon } => {
            let Some((_, fumbler)) = battle.counter.filter(|(d, _)| *d == e && battle.pending.is_none())
            else {
                return not_now("a counterattack");
            };
            if f.fumbled {
                return Err(Rejection::new("no counterattack after fumbling this round"));
            }
            check_attack(world, e, fumbler, *weapon, false).map(|()| {
                Plan::Attack(AttackPlan {
                    target: fumbler,
                    weapon: *weapon,
                    bonus: 0,
                    costs_action: false,
                    counter: true,
                    technique: None,
                })
            })
        }
        FastSlowIntent::Decline => match battle.counter {
            Some((d, _)) if d == e && battle.pending.is_none() => Ok(Plan::Decline),
            _ => not_now("declining"),
        },
    }
}

/// Carries out a checked plan.
pub fn apply(world: &mut World, e: Entity, plan: Plan) {
    match plan {
        Plan::Commit(speed) => commit::commit(world, e, speed),
        Plan::Move(m) => {
            turns::apply_move(world, e, m);
            let spent = world.get::<Fighter>(e).is_some_and(|f| f.paces < 0.01);
            if current::<FastSlowPhase>(world) == FastSlowPhase::Opening && spent {
                turns::end_free_move(world, e);
            }
        }
        Plan::Attack(a) => {
            if a.counter {
                world.resource_mut::<Battle>().counter = None;
            }
            combat::attack(world, e, a);
        }
        Plan::Bold(a, t) => combat::bold(world, e, a, t),
        Plan::Defend(d) => combat::defend(world, e, d),
        Plan::Decline => world.resource_mut::<Battle>().counter = None,
        Plan::Potion(t) => turns::potion(world, e, t),
        Plan::Prone => turns::set_prone(world, e, true, false),
        Plan::Stand(with_action) => turns::set_prone(world, e, false, with_action),
        Plan::Interact(n) => turns::interact(world, e, n),
        Plan::Stake(fog) => combat::stake(world, e, fog),
        Plan::SkillRoll(skill) => combat::skill_roll(world, e, &skill),
        Plan::Flee => turns::flee(world, e),
        Plan::EndTurn if current::<FastSlowPhase>(world) == FastSlowPhase::Opening => {
            turns::end_free_move(world, e)
        }
        Plan::EndTurn => turns::end_turn(world, e),
    }
}

/// Applies queued intents in order while someone is asked.
fn apply_intents(world: &mut World) {
    while !awaiting(world).is_empty() || current::<FastSlowPhase>(world) == FastSlowPhase::Over {
        let Some(next) = world.resource_mut::<Inbox<FastSlowIntent>>().0.pop_front() else { return };
        let _ = submit(world, next);
    }
}

/// Validates and applies one intent now (a commitment is sealed in the log until the reveal).
pub fn submit(world: &mut World, submitted: Submitted<FastSlowIntent>) -> Verdict {
    let shown = |_: &World, _: Option<Entity>, intent: &FastSlowIntent| match intent {
        FastSlowIntent::Commit { .. } => IntentRecord::new(SealedCommit::Commit),
        other => IntentRecord::new(other.clone()),
    };
    submit_now(world, submitted, shown, while_fighting(crate::ending::goes_on, validate), apply)
}
