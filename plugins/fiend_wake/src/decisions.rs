//! Who owes a decision now, the AI taking the decisions of AI-controlled combatants, and the
//! one place intents are validated and applied, in the order they were submitted.

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::intent::{Inbox, IntentRecord, Rejection, Submitted, Verdict, submit_now, while_fighting};
use fray_core::phase::{Phase, RulesStep};
use fray_core::prelude::{Controller, TableIndex};
use fray_core::session::ai_may_act;

use crate::intent::{FiendWakeIntent, SealedBid};
use crate::phase::{ActiveTurn, AftermathStep, FiendWakePhase, Round, TurnEnds, current};
use crate::schedule::FiendWakeSystems;
use crate::sheet::RoundChoices;
use crate::{actions, aftermath, ai, bidding, harassment, reactions, round_prep, spells, view};

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(RulesStep, (ai_decide, apply_intents).chain().in_set(FiendWakeSystems::Decisions));
}

/// The combatants the rules are waiting on now, in scenario or priority order.
pub fn awaiting(world: &World) -> Vec<Entity> {
    if let Some((asked, _)) = reactions::asked(world) {
        return vec![asked];
    }
    if let Some(actor) = world.resource::<ActiveTurn>().actor {
        return vec![actor];
    }
    match current(world) {
        FiendWakePhase::RoundPrep => round_prep::awaiting(world),
        FiendWakePhase::BidForPriority => bidding::awaiting_bids(world),
        FiendWakePhase::Cede => bidding::awaiting_cedes(world),
        FiendWakePhase::Aftermath => [aftermath::awaiting(world), spells::awaiting(world)].concat(),
        FiendWakePhase::Harassment => harassment::awaiting(world),
        FiendWakePhase::ExecuteTurns | FiendWakePhase::EndOfRound | FiendWakePhase::CombatOver => Vec::new(),
    }
}

/// Whether the rules wait on `e` now (cheaper than searching [`awaiting`]).
pub fn is_awaited(world: &World, e: Entity) -> bool {
    if let Some((asked, _)) = reactions::asked(world) {
        return asked == e;
    }
    if let Some(actor) = world.resource::<ActiveTurn>().actor {
        return actor == e;
    }
    match current(world) {
        FiendWakePhase::RoundPrep => round_prep::owes_armour(world, e),
        FiendWakePhase::BidForPriority => bidding::owes_bid(world, e),
        FiendWakePhase::Cede => bidding::owes_cede(world, e),
        FiendWakePhase::Aftermath => {
            aftermath::awaiting(world).contains(&e) || spells::awaiting(world).contains(&e)
        }
        FiendWakePhase::Harassment => harassment::awaits(world, e),
        FiendWakePhase::ExecuteTurns | FiendWakePhase::EndOfRound | FiendWakePhase::CombatOver => false,
    }
}

/// What the rules ask of a combatant they wait on: the kind of decision, which decides the
/// intents that can answer it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Asking {
    /// A reaction to what another is doing (intercept, clear out, stop a retreat, support).
    Answer,
    /// Its turn.
    Turn,
    /// Whether to pay for its armour this round.
    Armour,
    /// A sealed bid for priority.
    Bid,
    /// Whether to cede priority.
    Cede,
    /// Which spells to keep fuelled.
    Fuel,
    /// A weapon to ready in the aftermath, or none.
    Arm,
    /// Whom to harass.
    Harass,
    /// Nothing.
    Nothing,
}

/// The kind of decision asked of `e`, were the rules waiting on it.
pub(crate) fn asking(world: &World, e: Entity) -> Asking {
    if reactions::asked(world).is_some() {
        return Asking::Answer;
    }
    if world.resource::<ActiveTurn>().actor == Some(e) {
        return Asking::Turn;
    }
    match current(world) {
        FiendWakePhase::RoundPrep => Asking::Armour,
        FiendWakePhase::BidForPriority => Asking::Bid,
        FiendWakePhase::Cede => Asking::Cede,
        FiendWakePhase::Aftermath if world.resource::<Round>().aftermath == AftermathStep::FuelSpells => {
            Asking::Fuel
        }
        FiendWakePhase::Aftermath => Asking::Arm,
        FiendWakePhase::Harassment => Asking::Harass,
        FiendWakePhase::ExecuteTurns | FiendWakePhase::EndOfRound | FiendWakePhase::CombatOver => {
            Asking::Nothing
        }
    }
}

/// Lets the AI decide, one intent at a time, for every AI-controlled combatant the rules
/// wait on. An AI intent the rules refuse (a bug the tests look for) is followed by a safe
/// fallback, so the table never stalls.
fn ai_decide(world: &mut World) {
    for _ in 0..64 {
        let mut acted = false;
        for e in awaiting(world) {
            if world.get::<Controller>(e) != Some(&Controller::Ai) {
                continue;
            }
            let id = view::id(world, e);
            for step in 0..24 {
                let queued = world.resource::<Inbox<FiendWakeIntent>>().0.iter().any(|s| s.actor == id);
                // Awaited on the first step: `awaiting` just said so. A decision that ended
                // the fight ends the deciding.
                if !crate::end_of_round::goes_on(world) {
                    return;
                }
                if queued || (step > 0 && !is_awaited(world, e)) || !ai_may_act(world) {
                    break;
                }
                let intent = fray_core::ai::decided(world, |world| ai::decide(world, e));
                if submit(world, Submitted { actor: id.clone(), intent }).is_err() {
                    let fallback = ai::fallback(world, e);
                    if submit(world, Submitted { actor: id.clone(), intent: fallback }).is_err() {
                        break;
                    }
                }
                acted = true;
            }
        }
        if !acted {
            return;
        }
    }
}

/// Applies queued intents in order while the current phase waits for decisions.
fn apply_intents(world: &mut World) {
    loop {
        let Some(next) = world.resource_mut::<Inbox<FiendWakeIntent>>().0.pop_front() else {
            return;
        };
        let always = matches!(next.intent, FiendWakeIntent::AgreeToEnd { .. })
            || current(world) == FiendWakePhase::CombatOver;
        let actor = world.resource::<TableIndex>().combatant(&next.actor);
        let expected = actor.is_some_and(|e| is_awaited(world, e));
        if !always && !expected && awaiting(world).is_empty() {
            // The phase has nothing more to ask: leave the rest for the next phase.
            world.resource_mut::<Inbox<FiendWakeIntent>>().0.push_front(next);
            return;
        }
        // The outcome is recorded in `Outcomes` and the log.
        let _ = submit(world, next);
    }
}

/// Validates and applies one intent now, recording the outcome (a bid is sealed in the log
/// until the reveal). Returns the verdict.
pub fn submit(world: &mut World, submitted: Submitted<FiendWakeIntent>) -> Verdict {
    let shown = |_: &World, _: Option<Entity>, intent: &FiendWakeIntent| match intent {
        FiendWakeIntent::Bid { .. } => IntentRecord::new(SealedBid::Bid),
        _ => IntentRecord::new(intent.clone()),
    };
    submit_now(world, submitted, shown, while_fighting(crate::end_of_round::goes_on, validate), apply)
}

/// A validated intent, ready to apply.
pub struct Plan(Step);

enum Step {
    PayArmour(u32, u32),
    RefuseArmour(bool),
    Bid(u32),
    Cede(bool),
    Turn(actions::Plan),
    SpendArm(String, u32),
    Pass,
    Harass(Vec<(Entity, u32)>),
    Agree(bool),
    Answer(reactions::Answer),
    Fuel(Vec<String>, u32),
    Handicaps(crate::data::Attribute),
}

/// Checks an intent against the table as it is, changing nothing.
pub fn validate(world: &World, e: Entity, intent: &FiendWakeIntent) -> Verdict<Plan> {
    let phase = current(world);
    if phase == FiendWakePhase::CombatOver {
        return Err(Rejection::new("the fight is over"));
    }
    if !view::can_act(world, e) {
        let status = format!("{:?}", view::status(world, e)).to_lowercase();
        return Err(Rejection::new(format!("{} is {status} and cannot act", view::name(world, e))));
    }
    if let FiendWakeIntent::AgreeToEnd { agree } = intent {
        return Ok(Plan(Step::Agree(*agree)));
    }
    if let FiendWakeIntent::ChooseHandicap { attribute } = intent {
        return Ok(Plan(Step::Handicaps(*attribute)));
    }
    if !is_awaited(world, e) {
        if let Some((asked, q)) = reactions::asked(world) {
            let who = view::name(world, asked);
            return Err(Rejection::new(format!("{who} is being asked whether to {}", q.title())));
        }
        return Err(Rejection::new(match world.resource::<ActiveTurn>().actor {
            Some(a) => format!("it is {}'s turn", view::name(world, a)),
            None => format!("{} has nothing to decide during {}", view::name(world, e), phase.title()),
        }));
    }
    let wrong =
        || Rejection::new(format!("{} is not something to do during {}", intent.title(), phase.title()));
    let step = match (asking(world, e), intent) {
        (Asking::Answer, _) => Step::Answer(reactions::check(world, e, intent)?),
        (Asking::Turn, _) => Step::Turn(actions::check(world, e, intent)?),
        (Asking::Fuel, FiendWakeIntent::FuelSpells { spells }) => {
            Step::Fuel(spells.clone(), spells::check(world, e, spells)?)
        }
        (Asking::Fuel, FiendWakeIntent::Pass) => Step::Fuel(Vec::new(), 0),
        (Asking::Armour, FiendWakeIntent::PayArmour { tp, turn_tokens }) => {
            round_prep::check_pay(world, e, *tp, *turn_tokens)?;
            Step::PayArmour(*tp, *turn_tokens)
        }
        (Asking::Armour, FiendWakeIntent::RefuseArmour { doff }) => {
            round_prep::check_refuse(world, e)?;
            Step::RefuseArmour(*doff)
        }
        (Asking::Bid, FiendWakeIntent::Bid { tp }) => {
            bidding::check_bid(world, e, *tp)?;
            Step::Bid(*tp)
        }
        (Asking::Cede, FiendWakeIntent::Cede { cede }) => Step::Cede(*cede),
        (Asking::Arm, FiendWakeIntent::Arm { weapon, upgrade }) => {
            let cost = aftermath::check_spend_arm(world, e, weapon, *upgrade)?;
            Step::SpendArm(weapon.clone(), cost)
        }
        (Asking::Arm, FiendWakeIntent::Pass) => Step::Pass,
        (Asking::Harass, FiendWakeIntent::Harass { allocations }) => {
            Step::Harass(harassment::check(world, e, allocations)?)
        }
        (Asking::Harass, FiendWakeIntent::Pass) => Step::Harass(Vec::new()),
        _ => return Err(wrong()),
    };
    Ok(Plan(step))
}

/// Applies a validated intent; a turn it ends is logged after all it does.
pub fn apply(world: &mut World, e: Entity, plan: Plan) {
    world.resource_mut::<TurnEnds>().applying = true;
    apply_step(world, e, plan);
    let ended = std::mem::take(&mut *world.resource_mut::<TurnEnds>());
    for actor in ended.ended {
        view::log(world, actor, fray_core::log::LogEvent::TurnEnded);
    }
}

fn apply_step(world: &mut World, e: Entity, plan: Plan) {
    match plan.0 {
        Step::PayArmour(tp, tt) => round_prep::pay(world, e, tp, tt),
        Step::RefuseArmour(doff) => round_prep::refuse(world, e, doff),
        Step::Bid(tp) => bidding::bid(world, e, tp),
        Step::Cede(c) => bidding::cede(world, e, c),
        Step::Turn(plan) => actions::apply(world, e, plan),
        Step::SpendArm(weapon, cost) => aftermath::spend_arm(world, e, &weapon, cost),
        Step::Pass => aftermath::done(world),
        Step::Harass(targets) => harassment::harass(world, e, targets),
        Step::Answer(answer) => reactions::answer(world, e, answer),
        Step::Fuel(names, upkeep) => spells::fuel(world, e, &names, upkeep),
        Step::Handicaps(attribute) => {
            if let Some(mut c) = world.get_mut::<crate::sheet::HandicapChoice>(e) {
                c.0 = attribute;
            }
        }
        Step::Agree(agree) => {
            if let Some(mut c) = world.get_mut::<RoundChoices>(e) {
                c.agrees_to_end = agree;
            }
        }
    }
}
