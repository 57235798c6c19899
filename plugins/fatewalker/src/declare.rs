//! Declarations: everyone whose action tick has come, and everyone holding, declares an
//! action (or a hold), highest Awareness first; characters of equal Awareness declare
//! together, in secret, and are revealed at once. A declaration rolls nothing: responses
//! are asked for (`preempt`), then everything resolves (`resolve`).

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::intent::{IntentRecord, Rejection, Verdict};
use fray_core::log::{LogEvent, Revealed};
use fray_core::phase::{RulesStep, in_phase};

use crate::intent::FateWalkerIntent;
use crate::phase::{Choice, Declaration, FateWalkerPhase, TickState, go_to};
use crate::schedule::{FateWalkerSystems, TickEventSystems};
use crate::view;
use crate::{actions, preempt};

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(
        RulesStep,
        (form_group, close_group)
            .chain()
            .distributive_run_if(in_phase(FateWalkerPhase::Declare))
            .in_set(FateWalkerSystems::Declare),
    );
    app.add_systems(
        RulesStep,
        open_tick.run_if(in_phase(FateWalkerPhase::TickEvents)).in_set(TickEventSystems::Handover),
    );
}

/// Who may still declare at this tick: fighting, aware of the fight, and either due now
/// or holding, and not yet declared this tick.
pub fn due(world: &World) -> Vec<Entity> {
    let now = view::tick(world);
    let declared = &world.resource::<TickState>().declared;
    view::combatants(world)
        .into_iter()
        .filter(|&e| {
            let c = view::clock(world, e);
            view::can_act(world, e) && c.joined && (c.holding || c.next == now) && !declared.contains(&e)
        })
        .collect()
}

/// Ends the tick events: declarations if anyone may declare, else free actions.
fn open_tick(world: &mut World) {
    go_to(world, if due(world).is_empty() { FateWalkerPhase::FreeActions } else { FateWalkerPhase::Declare });
}

/// Picks the next group: the highest Awareness among those due (all who share it).
fn form_group(world: &mut World) {
    if !world.resource::<TickState>().group.is_empty() {
        return;
    }
    let due = due(world);
    let Some(top) = due.iter().map(|&e| view::traits(world, e).awareness).max() else {
        go_to(world, FateWalkerPhase::FreeActions);
        return;
    };
    let group: Vec<Entity> = due.into_iter().filter(|&e| view::traits(world, e).awareness == top).collect();
    world.resource_mut::<TickState>().group = group;
}

/// Whether `e` owes a declaration now.
pub fn owes_declaration(world: &World, e: Entity) -> bool {
    let state = world.resource::<TickState>();
    state.group.contains(&e) && !state.declarations.iter().any(|d| d.actor == e)
}

/// Once the whole group has declared: reveals secret declarations and asks for responses.
fn close_group(world: &mut World) {
    let (group, declarations) = {
        let state = world.resource::<TickState>();
        (state.group.clone(), state.declarations.clone())
    };
    if group.is_empty() || declarations.len() < group.len() {
        return;
    }
    if group.len() > 1 {
        let choices = declarations
            .iter()
            .map(|d| Revealed {
                actor: view::id(world, d.actor),
                choice: IntentRecord::new(intent_of(&d.choice)).to_json(),
            })
            .collect();
        view::log_table(world, LogEvent::Revealed { what: "declaration", choices });
    }
    preempt::ask_for_responses(world);
    go_to(world, FateWalkerPhase::Preempt);
}

/// The intent that declared a choice.
fn intent_of(choice: &Choice) -> FateWalkerIntent {
    match choice {
        Choice::Act(action) => FateWalkerIntent::Act { action: action.clone() },
        Choice::Hold => FateWalkerIntent::Hold,
        Choice::KeepHolding => FateWalkerIntent::KeepHolding,
    }
}

/// Checks a declaration.
pub fn check(world: &World, e: Entity, intent: &FateWalkerIntent) -> Verdict<Choice> {
    let holding = view::clock(world, e).holding;
    let name = view::name(world, e);
    match intent {
        FateWalkerIntent::Act { action } => {
            actions::check(world, e, action).map(|_| Choice::Act(action.clone()))
        }
        FateWalkerIntent::Hold if holding => Err(Rejection::new(format!("{name} is already holding"))),
        FateWalkerIntent::Hold => Ok(Choice::Hold),
        FateWalkerIntent::KeepHolding if !holding => Err(Rejection::new(format!("{name} is not holding"))),
        FateWalkerIntent::KeepHolding => Ok(Choice::KeepHolding),
        _ => Err(Rejection::new(format!("{name} declares an action (or a hold) now"))),
    }
}

/// Records a declaration.
pub fn declare(world: &mut World, e: Entity, choice: Choice) {
    let mut state = world.resource_mut::<TickState>();
    state.declared.insert(e);
    state.declarations.push(Declaration { actor: e, choice });
}

/// What the log shows of a declaration: sealed while others of its group still declare.
pub fn record(world: &World, e: Entity, intent: &FateWalkerIntent) -> IntentRecord {
    let state = world.resource::<TickState>();
    if crate::phase::current(world) == FateWalkerPhase::Declare
        && state.group.len() > 1
        && state.group.contains(&e)
    {
        IntentRecord::new(crate::intent::SealedDeclaration::Declared)
    } else {
        IntentRecord::new(intent.clone())
    }
}
