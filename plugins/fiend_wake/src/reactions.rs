//! Reactions and calls: an action that others may answer (an attack a friend may intercept,
//! artillery or an assault that occupants may clear out of, a retreat enemies may stop, an
//! assault's call for supporters) is held as a [`Held`] action while each combatant who can
//! answer is asked in turn, once per triggering event. When nobody is left to ask, the
//! action resolves (`resolve`).

use std::collections::VecDeque;

use bevy_ecs::archetype::ArchetypeGeneration;
use bevy_ecs::prelude::*;
use fray_core::intent::{Rejection, Verdict};
use fray_core::location::place_of;
use fray_core::log::LogEvent;
use fray_core::phase::StepProgress;
use fray_core::prelude::{Controller, Occupants};
use fray_core::table::{Combatant, SideIndex, Status};
use fray_core::tokens::Counters;

use crate::sheet::{Spells, Worn};

use crate::counters::TACTICAL_POINT;
use crate::resolve;
use crate::view;

/// What a combatant is asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Question {
    /// Take the attack aimed at a local ally?
    Intercept,
    /// Leap out of the location about to be hit?
    ClearOut,
    /// Try to stop the retreating enemy?
    StopRetreat,
    /// Join the assault's team?
    Support,
}

impl Question {
    /// In words, for the board.
    pub fn title(self) -> &'static str {
        match self {
            Question::Intercept => "intercept the attack",
            Question::ClearOut => "clear out",
            Question::StopRetreat => "stop the retreat",
            Question::Support => "support the assault",
        }
    }
}

/// An attack on one combatant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttackKind {
    /// With the ready melee weapon.
    Melee,
    /// With the ready ranged weapon.
    Ranged,
    /// Unarmed grapple.
    Grapple,
}

/// What lands on a whole location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AreaKind {
    /// An assault; `team` holds (member, TP spent, enters on success), the assaulter first.
    Assault {
        /// The assault team.
        team: Vec<(Entity, u32, bool)>,
        /// Voluntary difficulty increase.
        raise: u32,
    },
    /// A siege weapon's shot.
    Bombard,
    /// A grenade.
    Grenade,
}

/// An action waiting for answers before it resolves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Held {
    /// An attack on a combatant; `called` shots were called for it.
    Attack {
        /// Who attacks.
        attacker: Entity,
        /// Who is attacked (an interceptor replaces the first target).
        target: Entity,
        /// How.
        kind: AttackKind,
        /// Called shots.
        called: u32,
    },
    /// Damage over a location's area.
    Area {
        /// Who acts.
        actor: Entity,
        /// The location hit.
        location: Entity,
        /// What hits it.
        kind: AreaKind,
        /// Occupants who cleared out.
        leapers: Vec<Entity>,
    },
    /// A retreat.
    Retreat {
        /// Who retreats.
        who: Entity,
        /// The retreat's value (what stopping it must beat).
        value: u32,
        /// Someone stopped it.
        stopped: bool,
    },
}

/// The action being held and who is still to be asked, in order.
#[derive(Resource, Debug, Default)]
pub struct Reactions {
    /// The held action.
    pub held: Option<Held>,
    /// Still to be asked.
    pub queue: VecDeque<(Entity, Question)>,
}

/// The combatant asked now and the question.
pub fn asked(world: &World) -> Option<(Entity, Question)> {
    world.get_resource::<Reactions>()?.queue.front().copied()
}

/// Holds `held` and asks `queue` in order; resolves at once if nobody can answer.
pub(crate) fn hold(world: &mut World, held: Held, queue: Vec<(Entity, Question)>) {
    *world.resource_mut::<Reactions>() = Reactions { held: Some(held), queue: queue.into() };
    advance(world);
}

/// Drops questions their combatant can no longer answer; resolves when none is left.
fn advance(world: &mut World) {
    while let Some((e, q)) = asked(world) {
        if can_answer(world, e, q) {
            return;
        }
        world.resource_mut::<Reactions>().queue.pop_front();
    }
    let held = world.resource_mut::<Reactions>().held.take();
    world.resource_mut::<StepProgress>().mark();
    if let Some(held) = held {
        resolve::resolve(world, held);
    }
}

fn cost(world: &World, q: Question) -> u32 {
    let rules = &view::catalogue(world).rules;
    match q {
        Question::Intercept => rules.intercept_cost,
        Question::ClearOut => rules.clear_out_cost,
        Question::StopRetreat => rules.stop_retreat_cost,
        Question::Support => 1,
    }
}

fn can_answer(world: &World, e: Entity, q: Question) -> bool {
    view::can_act(world, e) && view::count(world, e, TACTICAL_POINT) >= cost(world, q)
}

/// What the intercept check reads of each local: one cached query instead of a component
/// lookup by type per reading (this runs for every attack, over everyone where the target is).
type Local = (
    Option<&'static SideIndex>,
    &'static Status,
    Option<&'static Counters>,
    Option<&'static Controller>,
    Option<&'static Worn>,
    Option<&'static Spells>,
);

#[derive(Resource)]
struct InterceptQuery {
    state: QueryState<Local, With<Combatant>>,
    /// The world's archetypes when `state` last looked (new ones are rare after the first
    /// battle, and updating needs the resource out of the world).
    seen: ArchetypeGeneration,
}

impl FromWorld for InterceptQuery {
    fn from_world(world: &mut World) -> Self {
        Self { state: world.query_filtered(), seen: world.archetypes().generation() }
    }
}

/// Who may intercept an attack on `target` by `attacker`: allies local to the target. AI
/// combatants whose policy would decline are not asked (nothing would change).
pub(crate) fn interceptors(world: &mut World, attacker: Entity, target: Entity) -> Vec<(Entity, Question)> {
    let now = world.archetypes().generation();
    match world.get_resource::<InterceptQuery>() {
        None => {
            world.init_resource::<InterceptQuery>();
        }
        Some(q) if q.seen != now => world.resource_scope(|world, mut q: Mut<InterceptQuery>| {
            q.state.update_archetypes(world);
            q.seen = now;
        }),
        Some(_) => {}
    }
    let world = &*world;
    let locals = world.resource::<InterceptQuery>().state.query_manual(world);
    {
        let Some(occupants) = place_of(world, target).and_then(|p| world.get::<Occupants>(p)) else {
            return Vec::new();
        };
        let side = world.get::<SideIndex>(target);
        let cost = cost(world, Question::Intercept);
        let guarded = crate::ai::intercept_threshold(world, target);
        let catalogue = view::catalogue(world);
        occupants
            .iter()
            .filter(|&c| c != target && c != attacker)
            .filter(|&c| {
                locals.get(c).is_ok_and(|(side_c, status, counters, controller, worn, spells)| {
                    side_c == side
                        && status.can_act()
                        && counters.map_or(0, |k| k.get(TACTICAL_POINT)) >= cost
                        && (controller != Some(&Controller::Ai)
                            || view::reduction_of(catalogue, worn, spells) > guarded)
                })
            })
            .map(|c| (c, Question::Intercept))
            .collect()
    }
}

/// Who may clear out of `location`: its occupants.
pub(crate) fn clearers(world: &World, location: Entity) -> Vec<(Entity, Question)> {
    view::occupants(world, location)
        .into_iter()
        .filter(|&c| can_answer(world, c, Question::ClearOut))
        .map(|c| (c, Question::ClearOut))
        .collect()
}

/// Who may stop `who`'s retreat: enemies local to it.
pub(crate) fn stoppers(world: &World, who: Entity) -> Vec<(Entity, Question)> {
    let Some(place) = place_of(world, who) else {
        return Vec::new();
    };
    view::occupants(world, place)
        .into_iter()
        .filter(|&c| view::enemies(world, c, who) && can_answer(world, c, Question::StopRetreat))
        .map(|c| (c, Question::StopRetreat))
        .collect()
}

/// An accepted answer.
#[derive(Debug)]
pub struct Answer {
    yes: bool,
    tp: u32,
    enter: bool,
}

/// Checks an answer to the question `e` is asked.
pub(crate) fn check(world: &World, e: Entity, intent: &crate::FiendWakeIntent) -> Verdict<Answer> {
    use crate::FiendWakeIntent as I;
    let Some((asked_e, q)) = asked(world) else {
        return Err(Rejection::new("nobody is being asked anything"));
    };
    if asked_e != e {
        return Err(Rejection::new(format!(
            "{} is being asked, not {}",
            view::name(world, asked_e),
            view::name(world, e)
        )));
    }
    let tp = view::count(world, e, TACTICAL_POINT);
    let answer = match (q, intent) {
        (_, I::Decline) => return Ok(Answer { yes: false, tp: 0, enter: false }),
        (Question::Intercept, I::Intercept)
        | (Question::ClearOut, I::ClearOut)
        | (Question::StopRetreat, I::StopRetreat) => Answer { yes: true, tp: cost(world, q), enter: false },
        (Question::Support, I::Support { tp: spent, enter }) => {
            if *spent == 0 {
                return Err(Rejection::new("a supporter spends at least 1 TP"));
            }
            Answer { yes: true, tp: *spent, enter: *enter }
        }
        _ => {
            return Err(Rejection::new(format!(
                "{} is asked whether to {}; answer that or decline",
                view::name(world, e),
                q.title()
            )));
        }
    };
    if answer.tp > tp {
        return Err(Rejection::new(format!(
            "costs {} TP but {} holds only {tp}",
            answer.tp,
            view::name(world, e)
        )));
    }
    Ok(answer)
}

/// Applies an answer and moves on to the next question.
pub(crate) fn answer(world: &mut World, e: Entity, answer: Answer) {
    let Some((_, q)) = world.resource_mut::<Reactions>().queue.pop_front() else {
        return;
    };
    if answer.yes {
        view::lose(world, e, TACTICAL_POINT, answer.tp, q.title());
        view::log(world, e, LogEvent::Effect { what: "reaction", detail: q.title().to_owned() });
        apply_yes(world, e, q, answer);
    }
    advance(world);
}

fn apply_yes(world: &mut World, e: Entity, q: Question, answer: Answer) {
    if q == Question::StopRetreat {
        if resolve::try_stop_retreat(world, e) {
            world.resource_mut::<Reactions>().queue.retain(|(_, q)| *q != Question::StopRetreat);
        }
        return;
    }
    let mut reactions = world.resource_mut::<Reactions>();
    match (q, reactions.held.as_mut()) {
        (Question::Intercept, Some(Held::Attack { target, .. })) => {
            *target = e;
            reactions.queue.retain(|(_, q)| *q != Question::Intercept);
        }
        (Question::ClearOut, Some(Held::Area { leapers, .. })) => leapers.push(e),
        (Question::Support, Some(Held::Area { kind: AreaKind::Assault { team, .. }, .. })) => {
            team.push((e, answer.tp, answer.enter));
        }
        _ => {}
    }
}
