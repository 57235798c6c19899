//! Who Factions in zones waits on, and the one place intents are validated and applied.

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::intent::{Inbox, IntentRecord, Rejection, Submitted, Verdict, submit_now};
use fray_core::phase::{RulesStep, current};
use fray_core::prelude::{Side, TableIndex};
use fray_core::table::{can_act, name};

use crate::activation::{candidates, factions_in_the_fight, picker};
use crate::combat::{Reaction, check_attack, check_counter};
use crate::intent::FactionZonesIntent;
use crate::phase::{Battle, FactionZonesPhase};
use crate::schedule::FactionZonesSystems;
use crate::{activation, combat, turns};

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(
        RulesStep,
        (crate::ai::decide, apply_intents).chain().in_set(FactionZonesSystems::Decisions),
    );
}

/// Who the rules wait on: the initiative holder's pick; an attack's target (its reaction);
/// the character taking its turn; else every character of the faction to act who may still
/// take a turn (any of them activates, or passes for the faction).
pub fn awaiting(world: &World) -> Vec<Entity> {
    let battle = world.resource::<Battle>();
    match current::<FactionZonesPhase>(world) {
        FactionZonesPhase::RoundStart => picker(world).into_iter().collect(),
        FactionZonesPhase::Activations => {
            if let Some(l) = &battle.leaving {
                l.asked.iter().copied().filter(|&a| can_act(world, a)).collect()
            } else if let Some(p) = &battle.pending {
                std::iter::once(p.target).chain(combat::guards(world)).collect()
            } else if let Some(e) = battle.active {
                vec![e]
            } else {
                candidates(world)
            }
        }
        _ => Vec::new(),
    }
}

/// What an accepted intent does, worked out when it is checked.
#[derive(Clone, Debug, PartialEq)]
pub enum Plan {
    /// The first faction of the round.
    PickFirst(fray_core::ids::SideId),
    /// Start this character's turn.
    Activate,
    /// The faction passes.
    Pass,
    /// Move to a zone, so many zones (taking the turn first when true).
    Move(Entity, u32, bool),
    /// Attack a target with a weapon, with a WIT save to hit or not.
    Attack(Entity, Option<usize>, bool),
    /// Another action, main or bonus.
    Act(bool),
    /// End the turn.
    EndTurn,
    /// React.
    React(Reaction),
    /// Hide behind an ally.
    Hide(Entity),
    /// Guard the target.
    Guard,
    /// Answer a move away: an opportunity attack with a weapon, or let go.
    Opportunity(Option<Option<usize>>),
    /// Surrender.
    Surrender,
}

/// Checks an intent against the table as it is, changing nothing.
pub fn validate(world: &World, e: Entity, intent: &FactionZonesIntent) -> Verdict<Plan> {
    let phase = current::<FactionZonesPhase>(world);
    if phase == FactionZonesPhase::Over {
        return Err(Rejection::new("the fight is over"));
    }
    if !awaiting(world).contains(&e) {
        return Err(Rejection::new(format!("the rules are not waiting on {} now", name(world, e))));
    }
    let battle = world.resource::<Battle>();
    let settled = battle.leaving.is_none();
    let reacting = settled && battle.pending.as_ref().is_some_and(|p| p.target == e);
    let in_turn = settled && battle.active == Some(e) && battle.pending.is_none();
    let choosing = settled
        && phase == FactionZonesPhase::Activations
        && battle.active.is_none()
        && battle.pending.is_none();
    let asked = battle.leaving.as_ref().is_some_and(|l| l.asked.contains(&e));
    let target_of = |id: &fray_core::ids::CombatantId| {
        world
            .resource::<TableIndex>()
            .combatant(id)
            .ok_or_else(|| Rejection::new(format!("there is no combatant '{id}'")))
    };
    let not_now = |what: &str| Err(Rejection::new(format!("{what} is not possible now")));
    match intent {
        FactionZonesIntent::PickFirst { faction } if phase == FactionZonesPhase::RoundStart => {
            if factions_in_the_fight(world).contains(faction) {
                Ok(Plan::PickFirst(faction.clone()))
            } else {
                Err(Rejection::new(format!("'{faction}' is not a faction in the fight")))
            }
        }
        FactionZonesIntent::PickFirst { .. } => not_now("picking the first faction"),
        FactionZonesIntent::Activate if choosing => Ok(Plan::Activate),
        FactionZonesIntent::Pass if choosing => Ok(Plan::Pass),
        FactionZonesIntent::Activate | FactionZonesIntent::Pass => not_now("that"),
        FactionZonesIntent::Move { zone } if in_turn || choosing => {
            let to = world
                .resource::<TableIndex>()
                .location(zone)
                .ok_or_else(|| Rejection::new(format!("there is no zone '{zone}'")))?;
            // A character of the faction to act dragged to a zone takes its turn and moves.
            turns::check_move(world, e, to, !in_turn).map(|d| Plan::Move(to, d, !in_turn))
        }
        FactionZonesIntent::Attack { target, weapon } if in_turn => {
            let t = world
                .resource::<TableIndex>()
                .combatant(target)
                .ok_or_else(|| Rejection::new(format!("there is no combatant '{target}'")))?;
            turns::check_action(world, e, true)?;
            check_attack(world, e, t, *weapon).map(|wit| Plan::Attack(t, *weapon, wit))
        }
        FactionZonesIntent::Main if in_turn => turns::check_action(world, e, true).map(|()| Plan::Act(true)),
        FactionZonesIntent::Bonus if in_turn => {
            turns::check_action(world, e, false).map(|()| Plan::Act(false))
        }
        FactionZonesIntent::EndTurn if in_turn => Ok(Plan::EndTurn),
        FactionZonesIntent::Move { .. }
        | FactionZonesIntent::Attack { .. }
        | FactionZonesIntent::Main
        | FactionZonesIntent::Bonus
        | FactionZonesIntent::EndTurn => not_now("that"),
        FactionZonesIntent::Dodge if reacting => Ok(Plan::React(Reaction::Dodge)),
        FactionZonesIntent::TakeIt if reacting => Ok(Plan::React(Reaction::None)),
        FactionZonesIntent::Counter { weapon } if reacting => {
            check_counter(world, e, *weapon).map(|()| Plan::React(Reaction::Counter(*weapon)))
        }
        FactionZonesIntent::HideBehind { ally } if reacting => {
            let ally = target_of(ally)?;
            combat::check_hide(world, e, ally).map(|()| Plan::Hide(ally))
        }
        FactionZonesIntent::Guard if settled && combat::guards(world).contains(&e) => Ok(Plan::Guard),
        FactionZonesIntent::Dodge
        | FactionZonesIntent::TakeIt
        | FactionZonesIntent::Counter { .. }
        | FactionZonesIntent::HideBehind { .. }
        | FactionZonesIntent::Guard => not_now("a reaction"),
        FactionZonesIntent::OpportunityAttack { weapon } if asked => {
            combat::check_opportunity(world, e, *weapon).map(|()| Plan::Opportunity(Some(*weapon)))
        }
        FactionZonesIntent::LetGo if asked => Ok(Plan::Opportunity(None)),
        FactionZonesIntent::OpportunityAttack { .. } | FactionZonesIntent::LetGo => not_now("that"),
        FactionZonesIntent::Surrender if in_turn || choosing => Ok(Plan::Surrender),
        FactionZonesIntent::Surrender => not_now("surrendering"),
    }
}

/// Carries out a checked plan.
pub fn apply(world: &mut World, e: Entity, plan: Plan) {
    match plan {
        Plan::PickFirst(side) => activation::begin(world, Some(side)),
        Plan::Activate => turns::start_turn(world, e),
        Plan::Pass => {
            if let Some(side) = world.get::<Side>(e).map(|s| s.0.clone()) {
                activation::pass(world, &side, false);
            }
        }
        Plan::Move(to, d, activate) => {
            if activate {
                turns::start_turn(world, e);
            }
            let asked = combat::watchers(world, e);
            if asked.is_empty() {
                turns::apply_move(world, e, to, d);
            } else {
                world.resource_mut::<Battle>().leaving =
                    Some(crate::phase::Leaving { mover: e, to, zones: d, asked });
            }
        }
        Plan::Attack(t, w, wit) => combat::attack(world, e, t, w, wit),
        Plan::Act(main) => turns::act(world, e, main),
        Plan::EndTurn => turns::end_turn(world, e),
        Plan::React(r) => combat::react(world, e, r),
        Plan::Hide(ally) => combat::redirect(world, e, ally, false),
        Plan::Guard => combat::redirect(world, e, e, true),
        Plan::Opportunity(attack) => combat::answer_leaving(world, e, attack),
        Plan::Surrender => turns::surrender(world, e),
    }
}

/// Applies queued intents in order while someone is asked.
fn apply_intents(world: &mut World) {
    while !awaiting(world).is_empty() || current::<FactionZonesPhase>(world) == FactionZonesPhase::Over {
        let Some(next) = world.resource_mut::<Inbox<FactionZonesIntent>>().0.pop_front() else { return };
        let _ = submit(world, next);
    }
}

/// Validates and applies one intent now.
pub fn submit(world: &mut World, submitted: Submitted<FactionZonesIntent>) -> Verdict {
    let shown = |_: &World, _: Option<Entity>, intent: &FactionZonesIntent| IntentRecord::new(intent.clone());
    submit_now(world, submitted, shown, validate, apply)
}
