//! Small helpers the rules use to read and change one combatant in a `World`.

use bevy_ecs::prelude::*;
use fray_core::log::{GameLog, LogEvent};
use fray_core::table::{Combatant, TableIndex};
use fray_core::tokens::{CounterKind, Counters};

/// The core's readings of one combatant, used all over the rules.
pub use fray_core::table::{can_act, enemies, id, name, on_table, status};

use crate::counters::SIEGE_DAMAGE;
use crate::data::SpellEffect;
use crate::data::{Attribute, DEFAULT_ENTRY_COST, LocationProperty, Weapon};
use crate::sheet::{Arsenal, Attributes, Catalogue, Evasion, MountTraits, Properties, Spells, Worn};
use fray_core::location::is_field;
use fray_core::prelude::{Occupants, Rides};

/// Tokens of a kind held.
pub fn count(world: &World, e: Entity, kind: CounterKind) -> u32 {
    world.get::<Counters>(e).map_or(0, |c| c.get(kind))
}

/// Changes a combatant's or location's counters.
pub fn counters_mut(world: &mut World, e: Entity) -> Option<Mut<'_, Counters>> {
    world.get_mut::<Counters>(e)
}

/// Every combatant, in scenario order.
pub fn combatants(world: &World) -> Vec<Entity> {
    world.get_resource::<TableIndex>().map(|i| i.order.clone()).unwrap_or_default()
}

/// The combatants in a place, in the order they came in.
pub fn occupants(world: &World, place: Entity) -> Vec<Entity> {
    occupying(world, place).collect()
}

/// The combatants in a place, one by one (no list made).
pub fn occupying(world: &World, place: Entity) -> impl Iterator<Item = Entity> + '_ {
    let all = world.get::<Occupants>(place).map(|o| o.iter()).into_iter().flatten();
    all.filter(|&e| world.get::<Combatant>(e).is_some())
}

/// The scenario's catalogues and numbers.
pub fn catalogue(world: &World) -> &Catalogue {
    static EMPTY: std::sync::OnceLock<Catalogue> = std::sync::OnceLock::new();
    world.get_resource::<Catalogue>().unwrap_or_else(|| EMPTY.get_or_init(Catalogue::default))
}

/// The ready weapon, if any.
pub fn ready_weapon(world: &World, e: Entity) -> Option<(&str, &Weapon)> {
    let id = world.get::<Arsenal>(e)?.ready.as_deref()?;
    Some((id, catalogue(world).weapon(id)?))
}

/// The ready weapon, owned: for code that changes the world while it holds it.
pub fn ready_weapon_owned(world: &World, e: Entity) -> Option<(String, Weapon)> {
    ready_weapon(world, e).map(|(id, w)| (id.to_owned(), w.clone()))
}

/// The kind of the ready weapon, if any (cheaper than [`ready_weapon`]).
pub fn ready_kind(world: &World, e: Entity) -> Option<crate::data::WeaponKind> {
    let id = world.get::<Arsenal>(e)?.ready.as_deref()?;
    catalogue(world).weapon(id).map(|w| w.kind)
}

/// What the armour worn costs each round prep, in TP (`None` without armour).
pub fn encumbrance(world: &World, e: Entity) -> Option<u32> {
    let armour = world.get::<Worn>(e)?.armour.as_deref()?;
    Some(catalogue(world).armour(armour).map_or(0, |a| a.encumbrance.max(0) as u32))
}

/// Damage reduction: armour (none while taking it off) plus fueled spells.
pub fn reduction(world: &World, e: Entity) -> u32 {
    reduction_of(catalogue(world), world.get::<Worn>(e), world.get::<Spells>(e))
}

/// [`reduction`] from the components themselves (for cached queries).
pub fn reduction_of(catalogue: &Catalogue, worn: Option<&Worn>, spells: Option<&Spells>) -> u32 {
    let armour = worn
        .filter(|w| !w.doffing)
        .and_then(|w| w.armour.as_deref())
        .and_then(|a| catalogue.armour(a))
        .map_or(0, |a| a.reduction.max(0) as u32);
    armour + spell_sum(spells, |s| if let SpellEffect::Reduction(n) = s { n } else { 0 })
}

/// The sum of a fueled spell effect.
fn spell_bonus(world: &World, e: Entity, f: impl Fn(SpellEffect) -> i32) -> u32 {
    spell_sum(world.get::<Spells>(e), f)
}

fn spell_sum(spells: Option<&Spells>, f: impl Fn(SpellEffect) -> i32) -> u32 {
    spells.map_or(0, |s| s.0.iter().filter(|(_, on)| *on).map(|(spec, _)| f(spec.effect).max(0) as u32).sum())
}

/// The mount a combatant rides, with its traits.
pub fn mount_of(world: &World, e: Entity) -> Option<(Entity, MountTraits)> {
    let m = world.get::<Rides>(e)?.0;
    Some((m, world.get::<MountTraits>(m).cloned().unwrap_or_default()))
}

/// Evasion: the sheet's, plus the mount's and fueled spells' bonuses.
pub fn evasion(world: &World, e: Entity) -> u32 {
    let base = world.get::<Evasion>(e).map_or(0, |v| v.0);
    let mount = mount_of(world, e).map_or(0, |(_, t)| t.evasion_bonus);
    base + mount + spell_bonus(world, e, |s| if let SpellEffect::Evasion(n) = s { n } else { 0 })
}

/// A location's properties (none for the open field).
pub fn properties(world: &World, place: Entity) -> &[LocationProperty] {
    world.get::<Properties>(place).map_or(&[], |p| &p.0)
}

/// Tactical points to enter a location: its base cost plus rubble from siege damage (none
/// to step into no location).
pub fn entry_cost(world: &World, place: Entity) -> u32 {
    if world.get::<fray_core::location::Location>(place).is_none() || is_field(world, place) {
        return 0;
    }
    let siege = count(world, place, SIEGE_DAMAGE);
    let base = properties(world, place).iter().find_map(|p| match p {
        LocationProperty::EntryCost(n) => Some(*n),
        _ => None,
    });
    let rubble: u32 = properties(world, place)
        .iter()
        .map(|p| match p {
            LocationProperty::RubblePerSiege(n) => n.saturating_mul(siege),
            _ => 0,
        })
        .sum();
    base.unwrap_or(DEFAULT_ENTRY_COST).saturating_add(rubble)
}

/// What entering `place` costs `e` in TP: the location's cost less its mount's discount.
pub fn entry_cost_for(world: &World, e: Entity, place: Entity) -> u32 {
    let discount = mount_of(world, e).map_or(0, |(_, t)| t.entry_discount);
    entry_cost(world, place).saturating_sub(discount)
}

/// The wound threshold: the wounds track fills at this many.
pub fn threshold(world: &World, e: Entity) -> u32 {
    let rules = &catalogue(world).rules;
    let endurance = world.get::<Attributes>(e).map_or(0, |a| a.level(Attribute::Endurance));
    (rules.threshold_base + rules.threshold_per_endurance * endurance).max(1)
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

/// Tokens changed for a rule reason: updates the counter and logs it.
pub fn gain(world: &mut World, e: Entity, kind: CounterKind, n: u32, reason: &'static str) {
    if n == 0 {
        return;
    }
    let Some(mut c) = counters_mut(world, e) else {
        return;
    };
    c.add(kind, n);
    let total = c.get(kind);
    log(world, e, LogEvent::Tokens { token: kind, change: i64::from(n), total, reason });
}

/// Takes up to `n` tokens for a rule reason and logs it; returns how many were taken.
pub fn lose(world: &mut World, e: Entity, kind: CounterKind, n: u32, reason: &'static str) -> u32 {
    let Some(mut c) = counters_mut(world, e) else {
        return 0;
    };
    let taken = c.remove_up_to(kind, n);
    let total = c.get(kind);
    if taken > 0 {
        log(world, e, LogEvent::Tokens { token: kind, change: -i64::from(taken), total, reason });
    }
    taken
}
