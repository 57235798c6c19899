//! Resolution of a declaring group: preemptive actions first (a declarer they put out of
//! the fight loses its action), then each declared action with the reactions declared to
//! it: the target's defence with it, actions taken as reactions right after it (they are
//! simultaneous: they resolve whatever the trigger did to their actor). Tick costs: an
//! action adds its cost from now; a reaction adds its cost to the next action tick. Then the
//! next group declares.

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::phase::RulesStep;

use crate::actions;
use crate::intent::{Action, Reaction};
use crate::phase::{Choice, FateWalkerPhase, TickState, go_to};
use crate::schedule::FateWalkerSystems;
use crate::view;

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(RulesStep, resolve_group.in_set(FateWalkerSystems::Resolve));
}

fn resolve_group(world: &mut World) {
    let state = std::mem::take(&mut *world.resource_mut::<TickState>());
    for (holder, action, _) in &state.preempts {
        if view::can_act(world, *holder) {
            view::effect(world, *holder, "preempts", action.title().to_owned());
            act(world, *holder, action, None);
        }
    }
    let standing: Vec<bool> = state.declarations.iter().map(|d| view::can_act(world, d.actor)).collect();
    for (i, d) in state.declarations.iter().enumerate() {
        match &d.choice {
            Choice::Act(action) if !standing[i] => {
                view::effect(world, d.actor, "interdicted", action.title().to_owned());
            }
            Choice::Act(action) => {
                let reaction = state
                    .reactions
                    .iter()
                    .find(|(r, _, answered)| *answered == i && view::can_act(world, *r))
                    .map(|(r, kind, _)| (*r, *kind));
                let counters: Vec<(Entity, Action)> = state
                    .counters
                    .iter()
                    .filter(|(r, _, answered)| *answered == i && view::can_act(world, *r))
                    .map(|(r, a, _)| (*r, a.clone()))
                    .collect();
                if let Some((r, kind)) = reaction {
                    let cost = reaction_cost(world, kind);
                    pay_reaction(world, r, cost, &format!("{kind:?}"));
                }
                act(world, d.actor, action, reaction);
                for (r, counter) in counters {
                    let cost = actions::cost(world, r, &counter);
                    actions::resolve(world, r, &counter, None);
                    pay_reaction(world, r, cost, counter.title());
                }
            }
            // A simultaneous declarer put out of the fight by its own group holds nothing.
            Choice::Hold if !view::can_act(world, d.actor) => {}
            Choice::Hold => {
                view::change_clock(world, d.actor, |c| c.holding = true);
                view::effect(world, d.actor, "holds", String::new());
            }
            Choice::KeepHolding => {}
        }
    }
    let mut next = TickState {
        declared: state.declared,
        ambush_done: state.ambush_done,
        opening_events_done: state.opening_events_done,
        movers: state.movers,
        movers_listed: state.movers_listed,
        ..Default::default()
    };
    next.declared.extend(state.preempts.iter().map(|(h, _, _)| *h));
    world.insert_resource(next);
    // The group's blows are simultaneous and all land; if they leave one side, the fight ends.
    if crate::clock::goes_on(world) {
        go_to(world, FateWalkerPhase::Declare);
    }
}

/// Resolves an action and adds its cost to the actor's next action tick (counted from now
/// at the latest: a holder's old tick does not count); acting ends a hold.
fn act(world: &mut World, e: Entity, action: &Action, reaction: Option<(Entity, Reaction)>) {
    let cost = actions::cost(world, e, action);
    let now = view::tick(world);
    actions::resolve(world, e, action, reaction);
    view::change_clock(world, e, |c| {
        c.holding = false;
        c.next = c.next.max(now) + cost;
    });
}

/// What a defensive reaction costs.
fn reaction_cost(world: &World, kind: Reaction) -> u32 {
    let ticks = view::catalogue(world).tables().ticks;
    match kind {
        Reaction::Dodge => ticks.dodge,
        Reaction::Parry => ticks.parry,
    }
}

/// A reaction's cost is added to the next action tick (from now, for a holder, whose hold
/// it ends).
fn pay_reaction(world: &mut World, e: Entity, cost: u32, what: &str) {
    let now = view::tick(world);
    view::change_clock(world, e, |c| {
        if c.holding {
            c.holding = false;
            c.next = now + cost;
        } else {
            c.next += cost;
        }
    });
    view::effect(world, e, "reacts", format!("{what}, {cost} ticks"));
}
