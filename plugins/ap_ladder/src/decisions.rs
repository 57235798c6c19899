//! Who the Initiative ladder waits on, and the one place intents are validated and applied.

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::ids::CombatantId;
use fray_core::intent::{Inbox, IntentRecord, Rejection, Submitted, Verdict, submit_now, while_fighting};
use fray_core::phase::{RulesStep, current};
use fray_core::prelude::TableIndex;
use fray_core::table::{can_act, name};

use crate::combat::{AttackPlan, plan_attack, reactions};
use crate::data::{Condition, Reaction};
use crate::intent::{ApLadderIntent, StuntKind};
use crate::moves::{MovePlan, check_get_up, plan_move};
use crate::phase::{ApLadderPhase, Battle, Fighter};
use crate::schedule::ApLadderSystems;
use crate::{combat, ladder, moves, specials, stunts};

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(RulesStep, (crate::ai::decide, apply_intents).chain().in_set(ApLadderSystems::Decisions));
}

/// Who the rules wait on now: a defender choosing its reaction, else the one whose turn it is.
pub fn awaiting(world: &World) -> Vec<Entity> {
    let battle = world.resource::<Battle>();
    if !matches!(current::<ApLadderPhase>(world), ApLadderPhase::SurpriseTurn | ApLadderPhase::Turns) {
        return Vec::new();
    }
    if let Some(p) = &battle.pending {
        return vec![p.defender];
    }
    if let Some(&f) = battle.followers.iter().find(|&&f| can_act(world, f)) {
        return vec![f];
    }
    if let Some(h) = battle.offer {
        return vec![h];
    }
    battle.acting.filter(|&e| can_act(world, e)).into_iter().collect()
}

/// What an accepted intent does, worked out when it is checked.
#[derive(Clone, Debug, PartialEq)]
pub enum Plan {
    /// A move.
    Move(MovePlan),
    /// Get up for this many AP.
    GetUp(u32),
    /// Get onto a mount (or down, with none) for this many AP.
    Mount(Option<Entity>, u32),
    /// An attack.
    Attack(AttackPlan),
    /// A trample.
    Trample(Entity),
    /// A stunt for this many AP.
    Stunt(Entity, StuntKind, u32),
    /// Keep a chokehold.
    Keep,
    /// Let a chokehold go.
    LetGo,
    /// Take aim.
    Aim(u32),
    /// A speech (inspiring or not).
    Speech(bool),
    /// Channel power.
    Channel,
    /// Load this weapon.
    Load(usize),
    /// Subdue.
    Subdue,
    /// Swap weapons for this many AP.
    Swap(Option<usize>, u32),
    /// Wait.
    Wait,
    /// End the turn.
    EndTurn,
    /// React.
    React(Reaction),
    /// Take the hit.
    TakeIt,
    /// Step in.
    Interrupt,
    /// Keep waiting.
    KeepWaiting,
    /// Follow the one who stepped aside (or stay).
    Follow(bool),
    /// Escape a chokehold.
    Escape,
    /// Fix this Free-standing shield on the ground.
    FixShield(usize),
    /// Beat out the flames.
    PutOutFire,
    /// Bind this one's wound.
    Bind(Entity),
}

fn target(world: &World, id: &CombatantId) -> Verdict<Entity> {
    world
        .resource::<TableIndex>()
        .combatant(id)
        .ok_or_else(|| Rejection::new(format!("there is no combatant '{id}'")))
}

/// Checks an intent against the table as it is, changing nothing.
pub fn validate(world: &World, e: Entity, intent: &ApLadderIntent) -> Verdict<Plan> {
    if current::<ApLadderPhase>(world) == ApLadderPhase::Over {
        return Err(Rejection::new("the fight is over"));
    }
    if !awaiting(world).contains(&e) {
        return Err(Rejection::new(format!("the rules are not waiting on {} now", name(world, e))));
    }
    let battle = world.resource::<Battle>();
    let f = world.get::<Fighter>(e).ok_or_else(|| Rejection::new("not a combatant"))?;
    if let Some(p) = &battle.pending {
        return match intent {
            ApLadderIntent::React { reaction } => {
                let verdict = reactions(world, p).into_iter().find(|(r, _)| r == reaction).map(|(_, v)| v);
                match verdict {
                    Some(v) => v.map(|_| Plan::React(*reaction)),
                    None => Err(Rejection::new(format!("{} does not answer this attack", reaction.word()))),
                }
            }
            ApLadderIntent::TakeIt => Ok(Plan::TakeIt),
            _ => Err(Rejection::new(format!("{} is answering an attack: react or take it", name(world, e)))),
        };
    }
    if battle.followers.contains(&e) && battle.followed.is_some() {
        return match intent {
            ApLadderIntent::Follow => match moves::follow_to(world, e) {
                Some(_) => Ok(Plan::Follow(true)),
                None => Err(Rejection::new("no room beside the one who stepped aside")),
            },
            ApLadderIntent::StayPut => Ok(Plan::Follow(false)),
            _ => Err(Rejection::new(format!(
                "{} may follow the one who stepped aside, or stay",
                name(world, e)
            ))),
        };
    }
    if battle.offer == Some(e) {
        return match intent {
            ApLadderIntent::Interrupt => Ok(Plan::Interrupt),
            ApLadderIntent::KeepWaiting => Ok(Plan::KeepWaiting),
            _ => Err(Rejection::new(format!("{} is waiting: step in now, or keep waiting", name(world, e)))),
        };
    }
    if f.has(Condition::Choked) {
        return match intent {
            ApLadderIntent::Escape => stunts::check_escape(world, e).map(|()| Plan::Escape),
            ApLadderIntent::EndTurn => Ok(Plan::EndTurn),
            _ => Err(Rejection::new(format!("{} is choked: only a Resist to escape", name(world, e)))),
        };
    }
    match intent {
        ApLadderIntent::Move { to, how } => plan_move(world, e, [to.0, to.1], *how).map(Plan::Move),
        ApLadderIntent::GetUp => check_get_up(world, e).map(Plan::GetUp),
        ApLadderIntent::Mount { mount } => {
            let m = world
                .resource::<TableIndex>()
                .mount(mount)
                .ok_or_else(|| Rejection::new(format!("there is no mount '{mount}'")))?;
            moves::check_mount(world, e, Some(m)).map(|ap| Plan::Mount(Some(m), ap))
        }
        ApLadderIntent::Dismount => moves::check_mount(world, e, None).map(|ap| Plan::Mount(None, ap)),
        ApLadderIntent::Attack { target: t, called, all_out, punishing, press } => {
            let t = target(world, t)?;
            let plan = plan_attack(world, e, t, *called, *all_out, *punishing)?;
            if *press { combat::pressed(plan) } else { Ok(plan) }.map(Plan::Attack)
        }
        ApLadderIntent::StrikeMount { rider } => {
            let t = target(world, rider)?;
            combat::plan_mount_attack(world, e, t).map(Plan::Attack)
        }
        ApLadderIntent::Trample { target: t } => {
            let t = target(world, t)?;
            specials::check_trample(world, e, t).map(|()| Plan::Trample(t))
        }
        ApLadderIntent::Stunt { target: t, kind } => {
            let t = target(world, t)?;
            stunts::check_stunt(world, e, t, *kind).map(|ap| Plan::Stunt(t, *kind, ap))
        }
        ApLadderIntent::KeepChokehold => stunts::check_keep(world, e).map(|()| Plan::Keep),
        ApLadderIntent::LetGo => match stunts::holding(world, e) {
            Some(_) => Ok(Plan::LetGo),
            None => Err(Rejection::new("no chokehold to let go")),
        },
        ApLadderIntent::TakeAim { ap } => specials::check_aim(world, e, *ap).map(|()| Plan::Aim(*ap)),
        ApLadderIntent::InspiringWords => specials::check_speech(world, e, true).map(|()| Plan::Speech(true)),
        ApLadderIntent::LitanyOfHatred => {
            specials::check_speech(world, e, false).map(|()| Plan::Speech(false))
        }
        ApLadderIntent::ChannelPower => specials::check_channel(world, e).map(|()| Plan::Channel),
        ApLadderIntent::Load => specials::check_load(world, e).map(Plan::Load),
        ApLadderIntent::Subdue => specials::check_subdue(world, e).map(|()| Plan::Subdue),
        ApLadderIntent::Swap { weapon } => {
            specials::check_swap(world, e, *weapon).map(|ap| Plan::Swap(*weapon, ap))
        }
        ApLadderIntent::Wait if f.has_waited => Err(Rejection::new("one waits once a turn")),
        ApLadderIntent::Wait => Ok(Plan::Wait),
        ApLadderIntent::Interrupt | ApLadderIntent::KeepWaiting => {
            Err(Rejection::new("not waiting to step in"))
        }
        ApLadderIntent::Follow | ApLadderIntent::StayPut => {
            Err(Rejection::new("no one stepped aside from this one"))
        }
        ApLadderIntent::EndTurn => Ok(Plan::EndTurn),
        ApLadderIntent::React { .. } | ApLadderIntent::TakeIt => {
            Err(Rejection::new("no attack is waiting on a reaction"))
        }
        ApLadderIntent::Escape => Err(Rejection::new("not choked")),
        ApLadderIntent::FixShield => specials::check_fix(world, e).map(Plan::FixShield),
        ApLadderIntent::PutOutFire => specials::check_put_out(world, e).map(|()| Plan::PutOutFire),
        ApLadderIntent::BindWound { target: t } => {
            let t = target(world, t)?;
            crate::injuries::check_bind(world, e, t).map(|()| Plan::Bind(t))
        }
    }
}

/// Carries out a checked plan.
pub fn apply(world: &mut World, e: Entity, plan: Plan) {
    // Acting openly shows a sneak (a strike and a move see to it themselves).
    if matches!(
        plan,
        Plan::Trample(..) | Plan::Stunt(..) | Plan::Speech(..) | Plan::Channel | Plan::Mount(..)
    ) {
        crate::conditions::remove(world, e, Condition::Unseen);
    }
    match plan {
        Plan::Move(m) => moves::apply_move(world, e, m),
        Plan::GetUp(ap) => moves::get_up(world, e, ap),
        Plan::Mount(m, ap) => moves::set_mount(world, e, m, ap),
        Plan::Attack(a) => combat::attack(world, e, a),
        Plan::Trample(t) => specials::trample(world, e, t),
        Plan::Stunt(t, kind, ap) => stunts::stunt(world, e, t, kind, ap),
        Plan::Keep => stunts::keep(world, e),
        Plan::LetGo => stunts::release_held_by(world, e, "let go"),
        Plan::Aim(ap) => specials::aim(world, e, ap),
        Plan::Speech(inspiring) => specials::speech(world, e, inspiring),
        Plan::Channel => specials::channel(world, e),
        Plan::Load(w) => specials::load(world, e, w),
        Plan::Subdue => specials::subdue(world, e),
        Plan::Swap(w, ap) => specials::swap(world, e, w, ap),
        Plan::Wait => ladder::wait(world, e),
        Plan::EndTurn => ladder::end_turn(world, e),
        Plan::React(r) => combat::react(world, e, r),
        Plan::TakeIt => combat::take_it(world),
        Plan::Interrupt => ladder::interrupt(world, e),
        Plan::KeepWaiting => ladder::keep_waiting(world, e),
        Plan::Follow(goes) => moves::follow(world, e, goes),
        Plan::Escape => stunts::escape(world, e),
        Plan::FixShield(w) => specials::fix(world, e, w),
        Plan::PutOutFire => specials::put_out(world, e),
        Plan::Bind(t) => crate::injuries::bind(world, e, t),
    }
}

/// Applies queued intents in order while someone is asked.
fn apply_intents(world: &mut World) {
    while !awaiting(world).is_empty() || current::<ApLadderPhase>(world) == ApLadderPhase::Over {
        let Some(next) = world.resource_mut::<Inbox<ApLadderIntent>>().0.pop_front() else { return };
        let _ = submit(world, next);
    }
}

/// Validates and applies one intent now.
pub fn submit(world: &mut World, submitted: Submitted<ApLadderIntent>) -> Verdict {
    let shown = |_: &World, _: Option<Entity>, intent: &ApLadderIntent| IntentRecord::new(intent.clone());
    submit_now(world, submitted, shown, while_fighting(crate::ending::goes_on, validate), apply)
}
