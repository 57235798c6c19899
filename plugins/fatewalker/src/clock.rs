//! Tick events: the end-of-fight check, the clock moving to the next tick where something
//! happens, temporary wounds healing in long scenes, late joiners rolling initiative, damage
//! over time (bleeding included). Movement segments and the hand-over to declarations are
//! the later steps (`movement`, `declare`).

use std::collections::BTreeSet;

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::log::{GameLog, LogEvent};
use fray_core::phase::{RulesStep, in_phase};
use fray_core::prelude::Side;

use crate::combat;
use crate::damage::{self, Hit};
use crate::data::ScriptedEvent;
use crate::initiative::roll_initiative;
use crate::phase::{Clock, FateWalkerPhase, TickState};
use crate::schedule::TickEventSystems;
use crate::sheet::Afflictions;
use crate::view;
use crate::wounds::{DamageKind, WoundChart};

pub(crate) fn plugin(app: &mut App) {
    let now = in_phase(FateWalkerPhase::TickEvents);
    app.add_systems(
        RulesStep,
        (
            advance_clock.run_if(now.clone()).in_set(TickEventSystems::Clock),
            (scripted_events, heal_temporary_wounds, join_late, afflictions)
                .chain()
                .distributive_run_if(now)
                .in_set(TickEventSystems::Events),
            check_end.in_set(crate::schedule::FateWalkerSystems::Ending),
        ),
    );
}

/// Sides with at least one combatant still fighting.
pub fn standing_sides(world: &World) -> BTreeSet<fray_core::ids::SideId> {
    view::combatants(world)
        .into_iter()
        .filter(|&e| view::can_act(world, e))
        .filter_map(|e| world.get::<Side>(e).map(|s| s.0.clone()))
        .collect()
}

/// Whether two sides or more are still standing: a run condition of every phase and of the
/// decisions, so that once at most one side is left no tick, action or reaction goes on.
pub fn goes_on(world: &World) -> bool {
    fray_core::table::two_sides_fight(world, |e, status| fray_core::table::fights_by_status(world, e, status))
}

/// The fight ends the moment one side or none is left standing, whatever the phase.
fn check_end(world: &mut World) {
    if !goes_on(world) {
        finish_fight(world, "one side or none is left standing");
    }
}

/// The next tick after `now` at which anything happens.
pub fn next_event(world: &World, now: u32) -> Option<u32> {
    let heal_every = view::catalogue(world).tables().temporary_wound_ticks;
    let mut next: Option<u32> = None;
    let mut consider = |t: u32| next = Some(next.map_or(t.max(now + 1), |n| n.min(t.max(now + 1))));
    for ev in world.get_resource::<Script>().map_or(&[][..], |s| &s.0[..]) {
        if ev.tick > now {
            consider(ev.tick);
        }
    }
    for e in view::combatants(world) {
        if view::can_act(world, e) {
            let c = view::clock(world, e);
            match (c.joined, c.holding, c.joins_at) {
                (true, true, _) => consider(now + 1),
                (true, false, _) => consider(c.next),
                (false, _, Some(at)) => consider(at),
                (false, _, None) => {}
            }
            if let Some(m) = view::motion(world, e) {
                consider(m.segment_end);
            }
        }
        if view::on_table(world, e)
            && let Some(list) = world.get::<Afflictions>(e)
        {
            for a in &list.0 {
                consider(a.next);
            }
        }
        if heal_every > 0 && world.get::<WoundChart>(e).is_some_and(|c| c.glancing > 0) {
            consider((now / heal_every + 1) * heal_every);
        }
    }
    next
}

fn advance_clock(world: &mut World) {
    let clock = *world.resource::<Clock>();
    let Some(next) = next_event(world, clock.tick) else {
        finish_fight(world, "nothing more can happen");
        return;
    };
    if next > clock.max_ticks {
        finish_fight(world, "the tick limit was reached");
        return;
    }
    let mut c = world.resource_mut::<Clock>();
    c.previous = c.tick;
    c.tick = next;
    let old = world.resource::<TickState>();
    let (ambush_done, opening_events_done) = (old.ambush_done, old.opening_events_done);
    world.insert_resource(TickState { ambush_done, opening_events_done, ..Default::default() });
    let mut log = world.resource_mut::<GameLog>();
    log.set_clock(next);
    log.push(None, LogEvent::RoundStarted);
}

/// The scenario's scripted events.
#[derive(Resource, Clone, Debug, Default)]
pub struct Script(pub Vec<ScriptedEvent>);

/// Scripted events due at this tick happen.
fn scripted_events(world: &mut World) {
    let now = view::tick(world);
    let due: Vec<ScriptedEvent> =
        world.resource::<Script>().0.iter().filter(|e| e.tick == now).cloned().collect();
    for ev in due {
        combat::blast(world, &ev);
    }
}

/// In a long scene, temporary wounds heal every `temporary_wound_ticks` (600: 5 minutes).
fn heal_temporary_wounds(world: &mut World) {
    let every = view::catalogue(world).tables().temporary_wound_ticks;
    let clock = *world.resource::<Clock>();
    if every == 0 || clock.tick / every == clock.previous / every {
        return;
    }
    for e in view::combatants(world) {
        let healed = match world.get_mut::<WoundChart>(e) {
            Some(mut c) if c.glancing > 0 => std::mem::take(&mut c.glancing),
            _ => 0,
        };
        if healed > 0 {
            view::effect(world, e, "temporary_wounds_healed", format!("{healed}"));
        }
    }
}

/// Late joiners who notice the fight now roll initiative: they act that many ticks from now.
fn join_late(world: &mut World) {
    let now = view::tick(world);
    for e in view::combatants(world) {
        let c = view::clock(world, e);
        if c.joined || !view::can_act(world, e) || c.joins_at.is_none_or(|at| at > now) {
            continue;
        }
        view::effect(world, e, "joins", format!("notices the fight at tick {now}"));
        let offset = roll_initiative(world, e, 0);
        view::change_clock(world, e, |clock| {
            clock.joined = true;
            clock.next = now + offset;
        });
    }
}

/// Damage over time due now strikes, bleeding included.
fn afflictions(world: &mut World) {
    let now = view::tick(world);
    for e in view::combatants(world) {
        if !view::on_table(world, e) {
            continue;
        }
        let due: Vec<_> = world
            .get::<Afflictions>(e)
            .map(|l| l.0.iter().filter(|a| a.next <= now).cloned().collect())
            .unwrap_or_default();
        for a in due {
            let kind = if a.stun { DamageKind::Stun } else { DamageKind::Normal };
            damage::deal(
                world,
                e,
                Hit {
                    normal: a.damage,
                    piercing: 0,
                    kind,
                    absorbable: a.absorbed,
                    source: fray_core::log::Source::named(a.what.clone()),
                },
            );
        }
        if let Some(mut list) = world.get_mut::<Afflictions>(e) {
            for a in list.0.iter_mut().filter(|a| a.next <= now) {
                a.next = now + a.every.max(1);
                if let Some(left) = a.remaining.as_mut() {
                    *left = left.saturating_sub(1);
                }
            }
            list.0.retain(|a| a.remaining != Some(0));
        }
    }
}

/// Ends the fight, recording the result.
pub(crate) fn finish_fight(world: &mut World, reason: &str) {
    let standing = standing_sides(world);
    let winner = (standing.len() == 1).then(|| standing.into_iter().next()).flatten();
    let ticks = view::tick(world);
    fray_core::ruleset::end_fight::<FateWalkerPhase>(
        world,
        winner,
        ticks,
        reason,
        fray_core::table::fights_by_status,
    );
}
