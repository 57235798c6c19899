//! Damage landing on a combatant: armour absorbs (dice that showed 0 pierce it), the wound
//! chart takes the rest, and the consequences follow: the consciousness roll after stun,
//! bleeding once mortally wounded, death when the mortal boxes run out.

use bevy_ecs::prelude::*;
use fray_core::log::LogEvent;
use fray_core::table::Status;

use crate::rolls;
use crate::sheet::{Affliction, Afflictions, Worn};
use crate::view;
use crate::wounds::{DamageKind, WoundChart};

/// One source of damage.
#[derive(Clone, Debug)]
pub struct Hit {
    /// Damage armour may absorb.
    pub normal: u32,
    /// Damage that ignores armour.
    pub piercing: u32,
    /// Normal or stun.
    pub kind: DamageKind,
    /// Whether armour's Absorb applies at all.
    pub absorbable: bool,
    /// Where it came from, for the log.
    pub source: fray_core::log::Source,
}

/// Applies a hit to `e` and everything that follows from it.
pub fn deal(world: &mut World, e: Entity, hit: Hit) {
    if !view::on_table(world, e) {
        return;
    }
    let armour = world.get::<Worn>(e).and_then(|w| w.0.clone());
    let absorb = if hit.absorbable {
        view::catalogue(world).armour(armour.as_deref().unwrap_or_default()).map_or(0, |a| a.absorb)
    } else {
        0
    };
    let reduced = hit.normal.min(absorb);
    let taken = hit.normal - reduced + hit.piercing;
    view::log(
        world,
        e,
        LogEvent::Damage {
            damage: hit.kind.name(),
            amount: hit.normal + hit.piercing,
            reduced,
            taken,
            source: hit.source.clone(),
        },
    );
    if taken == 0 {
        return;
    }
    let resilience = view::traits(world, e).resilience;
    let Some(mut chart) = world.get_mut::<WoundChart>(e) else { return };
    let applied = chart.apply(taken, hit.kind, resilience);
    let mortal = chart.mortal;
    view::effect(
        world,
        e,
        "wounds",
        format!(
            "{} temporary, {} normal, {} stun, {} stun converted, {} mortal",
            applied.glancing, applied.normal, applied.stun, applied.converted, applied.mortal
        ),
    );
    if applied.died {
        set_status(world, e, Status::Dead);
        return;
    }
    if mortal > 0 {
        start_bleeding(world, e);
    }
    if applied.consciousness_roll && view::can_act(world, e) {
        let table = view::catalogue(world).tables().consciousness;
        let will = view::traits(world, e).will;
        let target = ("consciousness target", table.target as i32);
        let said = ("Will to stay conscious", format!("{} fights to stay conscious", view::name(world, e)));
        let kept = rolls::plain_roll(world, e, said, will, target, table.needed);
        if kept < table.needed {
            set_status(world, e, Status::Unconscious);
        }
    }
}

/// Changes a combatant's status and logs it; someone out of the fight stops holding and
/// moving.
pub fn set_status(world: &mut World, e: Entity, status: Status) {
    if view::status(world, e) == status {
        return;
    }
    if let Some(mut s) = world.get_mut::<Status>(e) {
        *s = status;
    }
    if !status.can_act() {
        if let Some(mut clock) = world.get_mut::<crate::sheet::ActionClock>(e) {
            clock.holding = false;
        }
        world.entity_mut(e).remove::<crate::sheet::Motion>();
    }
    view::log(world, e, LogEvent::StatusChanged { status });
}

/// Mortal wounds bleed: 1 damage every Prowess + Will ticks (at least 1), from now on.
fn start_bleeding(world: &mut World, e: Entity) {
    let now = view::tick(world);
    let t = view::traits(world, e);
    let every = (t.prowess + t.will).max(1);
    let Some(mut list) = world.get_mut::<Afflictions>(e) else { return };
    if list.0.iter().any(|a| a.what == "bleeding") {
        return;
    }
    list.0.push(Affliction {
        what: "bleeding".to_owned(),
        every,
        damage: 1,
        next: now + every,
        remaining: None,
        absorbed: false,
        stun: false,
    });
    view::effect(world, e, "bleeding", format!("1 damage every {every} ticks"));
}
