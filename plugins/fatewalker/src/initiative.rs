//! The opening of a fight: scripted events of tick 0 and the ambusher's free action, then
//! initiative. A character's
//! starting tick is the base (10) plus its side's surprise penalty, less the successes of
//! an Awareness roll at target 4, and at least 1. Late joiners roll when they notice the
//! fight and start that many ticks after the current one (`clock`).

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::phase::RulesStep;
use fray_core::prelude::Side;

use crate::phase::{FateWalkerPhase, TickState, go_to};
use crate::rolls;
use crate::schedule::FateWalkerSystems;
use crate::view;

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(RulesStep, open_ambush.in_set(FateWalkerSystems::Ambush));
    app.add_systems(RulesStep, roll_everyone.in_set(FateWalkerSystems::Initiative));
}

/// The ambusher owed its free action, if any.
pub fn ambusher(world: &World) -> Option<Entity> {
    let id = world.get_resource::<Ambusher>()?.0.clone()?;
    let e = view::entity(world, &id)?;
    (!world.resource::<TickState>().ambush_done && view::can_act(world, e)).then_some(e)
}

/// The scenario's ambusher.
#[derive(Resource, Clone, Debug, Default)]
pub struct Ambusher(pub Option<fray_core::ids::CombatantId>);

/// Sets off the scripted events of tick 0, then hands over to initiative once the ambusher
/// has acted (or when there is none).
fn open_ambush(world: &mut World) {
    if !world.resource::<TickState>().opening_events_done {
        world.resource_mut::<TickState>().opening_events_done = true;
        let opening: Vec<_> =
            world.resource::<crate::clock::Script>().0.iter().filter(|e| e.tick == 0).cloned().collect();
        for ev in opening {
            crate::combat::blast(world, &ev);
        }
    }
    if ambusher(world).is_none() {
        go_to(world, FateWalkerPhase::Initiative);
    }
}

/// Rolls a starting tick offset for `e`: `base + penalty - successes`, at least the
/// minimum; a GM-set initiative replaces the roll.
pub fn roll_initiative(world: &mut World, e: Entity, penalty: u32) -> u32 {
    let table = view::catalogue(world).tables().initiative;
    if let Some(fixed) = view::clock(world, e).fixed_initiative {
        view::effect(world, e, "initiative", format!("set by the GM: {fixed}"));
        return fixed.max(table.minimum);
    }
    let awareness = view::traits(world, e).awareness;
    let target = ("initiative target", table.target as i32);
    let said = ("Awareness for initiative", format!("{} rolls for initiative", view::name(world, e)));
    let successes = rolls::plain_roll(world, e, said, awareness, target, 0);
    let result = starting_tick(table.base, penalty, successes, table.minimum);
    view::effect(world, e, "initiative", format!("{} + {penalty} - {successes} = {result}", table.base));
    result
}

/// `base + penalty - successes`, at least `minimum`.
pub fn starting_tick(base: u32, penalty: u32, successes: u32, minimum: u32) -> u32 {
    (base + penalty).saturating_sub(successes).max(minimum)
}

/// Everyone aware of the fight rolls; late joiners wait for their tick.
fn roll_everyone(world: &mut World) {
    let surprise = world.resource::<crate::load::SurprisePenalties>().0.clone();
    for e in view::combatants(world) {
        let clock = view::clock(world, e);
        if clock.joins_at.is_some() || !view::can_act(world, e) {
            continue;
        }
        let side = world.get::<Side>(e).map(|s| s.0.clone());
        let penalty = side.and_then(|s| surprise.get(&s).copied()).unwrap_or(0);
        let start = roll_initiative(world, e, penalty);
        view::change_clock(world, e, |c| {
            c.next = start;
            c.joined = true;
        });
    }
    go_to(world, FateWalkerPhase::TickEvents);
}
