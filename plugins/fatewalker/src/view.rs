//! Small helpers the rules use to read one combatant in a `World`, and the board's view of
//! the table (who acts when, holds, wound charts).

use bevy_ecs::prelude::*;
use fray_core::ids::CombatantId;
use fray_core::log::{GameLog, LogEvent};
use fray_core::table::{FieldPosition, Rides, Status, TableIndex};
use serde::Serialize;

/// The core's readings of one combatant, used all over the rules.
pub use fray_core::table::{can_act, enemies, id, name, on_table, status};

use crate::data::{MoveMode, Weapon};
use crate::phase::{Clock, current};
use crate::sheet::{ActionClock, Arms, Catalogue, Motion, Stance, Traits, Vehicle};
use crate::wounds::WoundChart;

/// Every combatant, in scenario order.
pub fn combatants(world: &World) -> Vec<Entity> {
    world.get_resource::<TableIndex>().map(|i| i.order.clone()).unwrap_or_default()
}

/// The combatant with this id.
pub fn entity(world: &World, id: &CombatantId) -> Option<Entity> {
    world.get_resource::<TableIndex>().and_then(|i| i.combatant(id))
}

/// The table's tables and catalogues.
pub fn catalogue(world: &World) -> &Catalogue {
    static EMPTY: std::sync::OnceLock<Catalogue> = std::sync::OnceLock::new();
    world.get_resource::<Catalogue>().unwrap_or_else(|| EMPTY.get_or_init(Catalogue::default))
}

/// The current tick.
pub fn tick(world: &World) -> u32 {
    world.get_resource::<Clock>().map_or(0, |c| c.tick)
}

/// Attributes.
pub fn traits(world: &World, e: Entity) -> Traits {
    world.get::<Traits>(e).copied().unwrap_or_default()
}

/// The action clock.
pub fn clock(world: &World, e: Entity) -> ActionClock {
    world.get::<ActionClock>(e).copied().unwrap_or_default()
}

/// Where a combatant stands, in metres.
pub fn position(world: &World, e: Entity) -> [f32; 2] {
    world.get::<FieldPosition>(e).map_or([0.0, 0.0], |p| p.0)
}

/// Distance in metres between two points.
pub fn distance_between(a: [f32; 2], b: [f32; 2]) -> f32 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt()
}

/// Distance in metres between two combatants.
pub fn distance(world: &World, a: Entity, b: Entity) -> f32 {
    distance_between(position(world, a), position(world, b))
}

/// The wound penalty now.
pub fn wound_penalty(world: &World, e: Entity) -> u32 {
    world.get::<WoundChart>(e).map_or(0, WoundChart::wound_penalty)
}

/// Speed after wounds: less the marked column's movement penalty and 1 per
/// `wound_penalties_per_speed` wound penalties.
pub fn speed(world: &World, e: Entity) -> u32 {
    let per = catalogue(world).tables().wound_penalties_per_speed.max(1);
    let chart = world.get::<WoundChart>(e);
    let movement = chart.map_or(0, WoundChart::movement_penalty);
    traits(world, e).speed.saturating_sub(movement + wound_penalty(world, e) / per)
}

/// How a combatant is moving, if it is.
pub fn motion(world: &World, e: Entity) -> Option<Motion> {
    world.get::<Motion>(e).copied()
}

/// Metres per segment in a mode (riding: the vehicle's speed).
pub fn rate(world: &World, e: Entity, mode: MoveMode) -> f32 {
    if mode == MoveMode::Ride {
        return world
            .get::<Rides>(e)
            .and_then(|r| world.get::<Vehicle>(r.0))
            .map_or(0.0, |v| v.0.speed.max(0.0));
    }
    let factor = catalogue(world).tables().movement.get(&mode).copied().unwrap_or(0.0);
    speed(world, e) as f32 * factor.max(0.0)
}

/// Metres per segment now (0 when standing still).
pub fn moving_rate(world: &World, e: Entity) -> f32 {
    motion(world, e).map_or(0.0, |m| rate(world, e, m.mode))
}

/// Lying down (crawling counts).
pub fn prone(world: &World, e: Entity) -> bool {
    world.get::<Stance>(e).is_some_and(|s| s.prone)
}

/// Metres above the street.
pub fn elevation(world: &World, e: Entity) -> f32 {
    world.get::<Stance>(e).map_or(0.0, |s| s.elevation)
}

/// The weapon in hand, with its id.
pub fn ready_weapon(world: &World, e: Entity) -> Option<(String, Weapon)> {
    let id = world.get::<Arms>(e)?.ready.clone()?;
    let weapon = catalogue(world).weapon(&id)?.clone();
    Some((id, weapon))
}

/// The cover a combatant has: (percent, barrier rating). A rider has its vehicle's; someone
/// standing still within a cover's radius has the best such cover's.
pub fn cover(world: &World, e: Entity) -> Option<(u32, u32)> {
    let cat = catalogue(world);
    if let Some(v) = world.get::<Rides>(e).and_then(|r| world.get::<Vehicle>(r.0)) {
        return (v.0.cover > 0).then(|| (v.0.cover, v.0.material.as_deref().map_or(0, |m| cat.barrier(m))));
    }
    if motion(world, e).is_some() {
        return None;
    }
    let at = position(world, e);
    cat.0
        .covers
        .iter()
        .filter(|c| distance_between(at, [c.position.0, c.position.1]) <= c.radius)
        .map(|c| (c.percent, cat.barrier(&c.material)))
        .max()
}

/// Appends to the log about a combatant.
pub fn log(world: &mut World, e: Entity, event: LogEvent) {
    let who = id(world, e);
    world.resource_mut::<GameLog>().push(Some(who), event);
}

/// Appends to the log about no one in particular.
pub fn log_table(world: &mut World, event: LogEvent) {
    world.resource_mut::<GameLog>().push(None, event);
}

/// Changes a combatant's action clock; a new next action tick or hold is logged.
pub fn change_clock(world: &mut World, e: Entity, change: impl FnOnce(&mut ActionClock)) {
    let Some(mut c) = world.get_mut::<ActionClock>(e) else { return };
    let before = (c.next, c.holding);
    change(&mut c);
    let (tick, holding) = (c.next, c.holding);
    if (tick, holding) != before {
        log(world, e, LogEvent::NextAction { tick, holding });
    }
}

/// Logs a ruleset effect about a combatant.
pub fn effect(world: &mut World, e: Entity, what: &'static str, detail: String) {
    log(world, e, LogEvent::Effect { what, detail });
}

/// What a board shows of one combatant.
#[derive(Clone, Debug, Serialize)]
pub struct CombatantView {
    /// Stable id.
    pub id: CombatantId,
    /// Shown name.
    pub name: String,
    /// Fighting, unconscious, dead...
    pub status: Status,
    /// Position in metres.
    pub position: [f32; 2],
    /// The next tick it may declare an action (meaningless while holding).
    pub next_action_tick: u32,
    /// Holding an action.
    pub holding: bool,
    /// Not yet aware of the fight (a late joiner before its tick).
    pub waiting_to_join: bool,
    /// May declare an action at the current tick.
    pub may_act_now: bool,
    /// Movement mode, if moving.
    pub moving: Option<MoveMode>,
    /// Lying down.
    pub prone: bool,
    /// The wound chart.
    pub wounds: Option<WoundChart>,
    /// Wound penalty now.
    pub wound_penalty: u32,
}

/// What a board shows of the table.
#[derive(Clone, Debug, Serialize)]
pub struct BoardView {
    /// The current tick.
    pub tick: u32,
    /// The phase's name.
    pub phase: &'static str,
    /// Every combatant, in scenario order.
    pub combatants: Vec<CombatantView>,
}

/// The board's view of the table.
pub fn board(world: &World) -> BoardView {
    let now = tick(world);
    let combatants = combatants(world)
        .into_iter()
        .map(|e| {
            let c = clock(world, e);
            CombatantView {
                id: id(world, e),
                name: name(world, e),
                status: status(world, e),
                position: position(world, e),
                next_action_tick: c.next,
                holding: c.holding,
                waiting_to_join: !c.joined,
                may_act_now: can_act(world, e) && c.joined && (c.holding || c.next == now),
                moving: motion(world, e).map(|m| m.mode),
                prone: prone(world, e),
                wounds: world.get::<WoundChart>(e).cloned(),
                wound_penalty: wound_penalty(world, e),
            }
        })
        .collect();
    BoardView { tick: now, phase: fray_core::phase::Phase::name(current(world)), combatants }
}
