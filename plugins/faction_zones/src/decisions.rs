//! Who Factions in zones waits on, and the one place intents are validated and applied.

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::intent::{Inbox, IntentRecord, Rejection, Submitted, Verdict, submit_now, while_fighting};
use fray_core::phase::{RulesStep, current};
use fray_core::prelude::{Side, TableIndex};
use fray_core::table::{can_act, name};

use crate::activation::{candidates, factions_in_the_fight, picker};
use crate::combat::{Attack, Reaction, check_attack, check_counter};
use crate::intent::FactionZonesIntent;
use crate::intent::{NonLethal, StuntEffect};
use crate::non_lethal::{self, Doing};
use crate::phase::AttackHow;
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
    /// Move to a zone, so many zones (taking the turn first when true, sprinting first when
    /// true).
    Move(Entity, u32, bool, bool),
    /// Attack a target with a weapon, with a WIT save to hit or not; damage, held back, a
    /// non-lethal effect, or a stunt proposed.
    Attack(Entity, Option<usize>, bool, Attack),
    /// Spread a melee weapon's dice over several targets.
    Spread(Option<usize>, Vec<(Entity, u32)>),
    /// Sprint.
    Sprint,
    /// Hide (concealed again).
    Conceal,
    /// Pick up a weapon.
    PickUp(usize),
    /// Free a grabbed ally.
    Free(Entity),
    /// Break free (the whole turn; taking it first when true).
    BreakFree(bool),
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
    /// Flee the fight (taking the turn first when true).
    Flee(crate::chase::Flight, bool),
    /// Get on this mount (none: off one's own), with an AGI save or not.
    Mount(Option<Entity>, bool),
    /// Reserve the part of a joint activation.
    Reserve,
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
    let pending = battle.pending.as_ref();
    let may_react = reacting && pending.is_some_and(|p| p.reactable);
    if let Some(g) = non_lethal::grabbed_by(world, e).filter(|_| in_turn || choosing) {
        // A grabbed character can only try to break free (or surrender); its faction may pass.
        match intent {
            FactionZonesIntent::BreakFree => {
                return non_lethal::check_break_free(world, e).map(|()| Plan::BreakFree(!in_turn));
            }
            FactionZonesIntent::Activate
            | FactionZonesIntent::Pass
            | FactionZonesIntent::EndTurn
            | FactionZonesIntent::Surrender => {}
            _ => {
                return Err(Rejection::new(format!(
                    "{} is grabbed by {}: it may only try to break free",
                    name(world, e),
                    name(world, g)
                )));
            }
        }
    }
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
        FactionZonesIntent::Move { zone, sprint } if in_turn || choosing => {
            let to = world
                .resource::<TableIndex>()
                .location(zone)
                .ok_or_else(|| Rejection::new(format!("there is no zone '{zone}'")))?;
            // A character of the faction to act dragged to a zone takes its turn and moves.
            // Sprinting first only when not sprinting yet.
            let sprint = *sprint && !world.get::<crate::phase::Fighter>(e).is_some_and(|f| f.sprinting);
            turns::check_move(world, e, to, !in_turn, sprint).map(|d| Plan::Move(to, d, !in_turn, sprint))
        }
        FactionZonesIntent::Attack { target, weapon, hold_back } if in_turn => {
            let t = target_of(target)?;
            turns::check_action(world, e, true)?;
            if *hold_back && combat::weapon(world, e, *weapon).is_some_and(|w| w.blast) {
                return Err(Rejection::new("a blast cannot be held back"));
            }
            let how =
                Attack { how: if *hold_back { AttackHow::HeldBack } else { AttackHow::Damage }, stunt: None };
            check_attack(world, e, t, *weapon).map(|wit| Plan::Attack(t, *weapon, wit, how))
        }
        FactionZonesIntent::Spread { weapon, shares } if in_turn => {
            turns::check_action(world, e, true)?;
            let shares = shares
                .iter()
                .map(|s| target_of(&s.target).map(|t| (t, s.dice)))
                .collect::<Result<Vec<_>, _>>()?;
            combat::check_spread(world, e, *weapon, &shares).map(|()| Plan::Spread(*weapon, shares))
        }
        FactionZonesIntent::NonLethal { target, kind } if in_turn => {
            let t = target_of(target)?;
            turns::check_action(world, e, true)?;
            non_lethal::check(world, e, t, kind)?;
            let how = Attack { how: AttackHow::NonLethal(kind.clone()), stunt: None };
            Ok(Plan::Attack(t, None, false, how))
        }
        FactionZonesIntent::Stunt { target, weapon, effect } if in_turn => {
            let t = target_of(target)?;
            turns::check_action(world, e, true)?;
            if combat::weapon(world, e, *weapon).is_some_and(|w| w.blast) {
                return Err(Rejection::new("a blast hits a whole zone: no stunt"));
            }
            if !fray_core::table::can_act(world, t) {
                return Err(Rejection::new(format!("{} is not fighting: no stunt", name(world, t))));
            }
            if let StuntEffect::Other { words } = effect
                && (words.trim().is_empty() || words.len() > 200)
            {
                return Err(Rejection::new("a stunt's effect in 1 to 200 characters"));
            }
            let how = Attack { how: AttackHow::Damage, stunt: Some(effect.clone()) };
            check_attack(world, e, t, *weapon).map(|wit| Plan::Attack(t, *weapon, wit, how))
        }
        FactionZonesIntent::Sprint if in_turn => {
            turns::check_action(world, e, false)?;
            if world.get::<crate::phase::Fighter>(e).is_some_and(|f| f.sprinting) {
                return Err(Rejection::new(format!("{} is already sprinting", name(world, e))));
            }
            Ok(Plan::Sprint)
        }
        FactionZonesIntent::Hide if in_turn => {
            turns::check_action(world, e, true)?;
            crate::stealth::check_hide(world, e).map(|()| Plan::Conceal)
        }
        FactionZonesIntent::PickUp { weapon } if in_turn => {
            turns::check_action(world, e, false)?;
            non_lethal::check_pick_up(world, e, *weapon).map(|()| Plan::PickUp(*weapon))
        }
        FactionZonesIntent::Free { ally } if in_turn => {
            let ally = target_of(ally)?;
            turns::check_action(world, e, true)?;
            non_lethal::check_free(world, e, ally).map(|()| Plan::Free(ally))
        }
        FactionZonesIntent::BreakFree if in_turn || choosing => {
            non_lethal::check_break_free(world, e).map(|()| Plan::BreakFree(!in_turn))
        }
        FactionZonesIntent::Main if in_turn => turns::check_action(world, e, true).map(|()| Plan::Act(true)),
        FactionZonesIntent::Bonus if in_turn => {
            turns::check_action(world, e, false).map(|()| Plan::Act(false))
        }
        FactionZonesIntent::EndTurn if in_turn => Ok(Plan::EndTurn),
        FactionZonesIntent::Move { .. }
        | FactionZonesIntent::Attack { .. }
        | FactionZonesIntent::Spread { .. }
        | FactionZonesIntent::NonLethal { .. }
        | FactionZonesIntent::Stunt { .. }
        | FactionZonesIntent::Sprint
        | FactionZonesIntent::Hide
        | FactionZonesIntent::PickUp { .. }
        | FactionZonesIntent::Free { .. }
        | FactionZonesIntent::BreakFree
        | FactionZonesIntent::Main
        | FactionZonesIntent::Bonus
        | FactionZonesIntent::EndTurn => not_now("that"),
        FactionZonesIntent::Dodge if may_react => Ok(Plan::React(Reaction::Dodge)),
        FactionZonesIntent::TakeIt if reacting => Ok(Plan::React(Reaction::None)),
        FactionZonesIntent::AcceptStunt if reacting && pending.is_some_and(|p| p.stunt.is_some()) => {
            Ok(Plan::React(Reaction::AcceptStunt))
        }
        FactionZonesIntent::Counter { weapon } if may_react => {
            check_counter(world, e, *weapon).map(|_| Plan::React(Reaction::Counter(*weapon)))
        }
        FactionZonesIntent::CounterNonLethal { kind } if may_react => {
            combat::check_counter_non_lethal(world, e, kind)
                .map(|()| Plan::React(Reaction::CounterNonLethal(kind.clone())))
        }
        FactionZonesIntent::HideBehind { ally } if may_react => {
            let ally = target_of(ally)?;
            combat::check_hide(world, e, ally).map(|()| Plan::Hide(ally))
        }
        FactionZonesIntent::Guard if settled && combat::guards(world).contains(&e) => Ok(Plan::Guard),
        FactionZonesIntent::Dodge
        | FactionZonesIntent::TakeIt
        | FactionZonesIntent::Counter { .. }
        | FactionZonesIntent::CounterNonLethal { .. }
        | FactionZonesIntent::AcceptStunt
        | FactionZonesIntent::HideBehind { .. }
        | FactionZonesIntent::Guard => not_now("a reaction"),
        FactionZonesIntent::OpportunityAttack { weapon } if asked => {
            combat::check_opportunity(world, e, *weapon).map(|()| Plan::Opportunity(Some(*weapon)))
        }
        FactionZonesIntent::LetGo if asked => Ok(Plan::Opportunity(None)),
        FactionZonesIntent::OpportunityAttack { .. } | FactionZonesIntent::LetGo => not_now("that"),
        FactionZonesIntent::Surrender if in_turn || choosing => Ok(Plan::Surrender),
        FactionZonesIntent::Surrender => not_now("surrendering"),
        FactionZonesIntent::Flee if in_turn || choosing => {
            crate::chase::check_flee(world, e).map(|f| Plan::Flee(f, !in_turn))
        }
        FactionZonesIntent::Flee => not_now("fleeing"),
        FactionZonesIntent::Mount { mount } if in_turn => {
            let m = target_of(mount)?;
            crate::mounts::check_mount(world, e, m).map(|s| Plan::Mount(Some(m), s))
        }
        FactionZonesIntent::Dismount if in_turn => {
            crate::mounts::check_dismount(world, e).map(|s| Plan::Mount(None, s))
        }
        FactionZonesIntent::Reserve if in_turn => {
            let f = world.get::<crate::phase::Fighter>(e);
            if f.is_some_and(|f| f.moved > 0 || f.actions() > 0) {
                Err(Rejection::new("only one who has done nothing this turn reserves it"))
            } else if crate::mounts::party_of(world, e).len() < 2 {
                Err(Rejection::new("only a mount or a rider reserves its part of an activation"))
            } else {
                Ok(Plan::Reserve)
            }
        }
        FactionZonesIntent::Mount { .. } | FactionZonesIntent::Dismount | FactionZonesIntent::Reserve => {
            not_now("that")
        }
    }
}

/// Carries out a checked plan. An action lets go of those `e` holds unless it keeps hold.
pub fn apply(world: &mut World, e: Entity, plan: Plan) {
    non_lethal::after(world, e, doing(&plan));
    match plan {
        Plan::PickFirst(side) => activation::begin(world, Some(side)),
        Plan::Activate => turns::start_turn(world, e),
        Plan::Pass => {
            if let Some(side) = world.get::<Side>(e).map(|s| s.0.clone()) {
                activation::pass(world, &side, false);
            }
        }
        Plan::Move(to, d, activate, sprint) => {
            if activate {
                turns::start_turn(world, e);
            }
            if sprint {
                turns::sprint(world, e);
            }
            let asked = combat::watchers(world, e);
            if asked.is_empty() {
                turns::apply_move(world, e, to, d);
            } else {
                world.resource_mut::<Battle>().leaving =
                    Some(crate::phase::Leaving { mover: e, to, zones: d, asked });
            }
        }
        Plan::Attack(t, w, wit, how) => combat::attack(world, e, t, w, wit, how),
        Plan::Spread(w, shares) => combat::spread(world, e, w, shares),
        Plan::Sprint => turns::sprint(world, e),
        Plan::Conceal => crate::stealth::hide(world, e),
        Plan::PickUp(w) => non_lethal::pick_up(world, e, w),
        Plan::Free(ally) => non_lethal::free(world, e, ally),
        Plan::BreakFree(activate) => {
            if activate {
                turns::start_turn(world, e);
            }
            non_lethal::break_free(world, e);
            turns::end_turn(world, e);
        }
        Plan::Act(main) => turns::act(world, e, main),
        Plan::EndTurn => turns::end_turn(world, e),
        Plan::React(r) => combat::react(world, e, r),
        Plan::Hide(ally) => combat::redirect(world, e, ally, false),
        Plan::Guard => combat::redirect(world, e, e, true),
        Plan::Opportunity(attack) => combat::answer_leaving(world, e, attack),
        Plan::Surrender => turns::surrender(world, e),
        Plan::Mount(m, save) => crate::mounts::mount_or_dismount(world, e, m, save),
        Plan::Reserve => {
            let who = fray_core::table::id(world, e);
            world
                .resource_mut::<fray_core::log::GameLog>()
                .about(&who, fray_core::log::LogEvent::Effect { what: "reserved", detail: String::new() });
            turns::end_part(world, e, false);
        }
        Plan::Flee(flight, activate) => {
            if activate {
                turns::start_turn(world, e);
            }
            crate::chase::flee(world, e, flight);
            turns::end_turn(world, e);
        }
    }
}

/// What a plan does, for `e`'s holds.
fn doing(plan: &Plan) -> Doing {
    match plan {
        Plan::PickFirst(_) | Plan::Activate | Plan::Pass | Plan::Move(..) | Plan::EndTurn => Doing::Keeps,
        Plan::React(Reaction::None | Reaction::AcceptStunt) => Doing::Keeps,
        Plan::Attack(t, _, _, Attack { how: AttackHow::NonLethal(NonLethal::Disarm { .. }), .. }) => {
            Doing::Disarming(*t)
        }
        Plan::Attack(_, _, _, Attack { how: AttackHow::NonLethal(_), .. }) => Doing::Other,
        Plan::Attack(_, w, _, _)
        | Plan::Spread(w, _)
        | Plan::React(Reaction::Counter(w))
        | Plan::Opportunity(Some(w)) => Doing::Attacking(*w),
        Plan::Opportunity(None) => Doing::Keeps,
        Plan::Hide(t) => Doing::HidingBehind(*t),
        _ => Doing::Other,
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
    submit_now(world, submitted, shown, while_fighting(crate::ending::goes_on, validate), apply)
}
