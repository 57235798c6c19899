//! Mounts harmed: a blow aimed at a rider's mount, the mount's own Damage Threshold and
//! damage track, its injuries and bleeding, the rider's Handle Animal test when it is injured
//! or bleeds (failed: it will not move on the rider's next turn; failed critically: the rider
//! is bucked off and the mount flees), and a mount that falls.

use bevy_ecs::prelude::*;
use fray_core::dice::Modifier;
use fray_core::intent::{Rejection, Verdict};
use fray_core::log::{GameLog, LogEvent, Source};
use fray_core::prelude::{Mount, Rides};
use fray_core::table::{id, name};

use crate::combat::{Harm, harm_with, steps};
use crate::conditions::add;
use crate::data::{Condition, InjuryEffect, InjuryRow, Skill};
use crate::dice::{Flip, chaos, test};
use crate::injuries::Blow;
use crate::load::MountSheet;
use crate::phase::{DAMAGE_TRACK, Fighter};

/// A mount's harm in the fight (on every mount's entity).
#[derive(Component, Clone, Debug, Default, PartialEq)]
pub struct Steed {
    /// Its step down the damage track (0 unharmed … 5 slain).
    pub damage: u32,
    /// Its injuries.
    pub injuries: Vec<InjuryRow>,
    /// An injury of it bleeds.
    pub bleeding: bool,
    /// Not brought under control: it will not move on its rider's next turn.
    pub spooked: bool,
    /// It will not move this turn of its rider.
    pub balking: bool,
}

impl Steed {
    /// Yards its injuries take off its pace.
    pub fn slower(&self) -> u32 {
        self.effects().map(|e| if let InjuryEffect::Slower(y) = e { *y } else { 0 }).sum()
    }

    fn effects(&self) -> impl Iterator<Item = &InjuryEffect> {
        self.injuries.iter().flat_map(|i| &i.effects)
    }

    /// Its state in words: "seriously wounded, bleeding, 1 injury".
    pub fn words(&self) -> String {
        let mut out = vec![DAMAGE_TRACK[self.damage.min(5) as usize].to_owned()];
        if self.bleeding {
            out.push("bleeding".to_owned());
        }
        if self.balking || self.spooked {
            out.push("out of control".to_owned());
        }
        out.join(", ")
    }
}

/// The mount `e` rides, if any.
pub fn mount_of(world: &World, e: Entity) -> Option<Entity> {
    world.get::<Rides>(e).map(|r| r.0).filter(|&m| world.get::<Steed>(m).is_some())
}

/// The mount's Damage Threshold with its parts: its [BB], its barding, its injuries.
pub fn threshold(world: &World, m: Entity) -> (u32, Vec<Modifier>) {
    let Some(sheet) = world.get::<MountSheet>(m) else { return (0, Vec::new()) };
    let mut parts = vec![Modifier::new("its Brawn Bonus", sheet.0.brawn_bonus)];
    if sheet.0.barding > 0 {
        parts.push(Modifier::new("barding", sheet.0.barding));
    }
    if let Some(s) = world.get::<Steed>(m) {
        for i in &s.injuries {
            for e in &i.effects {
                if let InjuryEffect::Threshold(t) = e {
                    parts.push(Modifier::new(i.name.to_lowercase(), *t));
                }
            }
        }
    }
    let total: i64 = parts.iter().map(|p| p.value).sum();
    (total.max(0) as u32, parts)
}

/// Checks a blow at the mount `rider` rides: it rides one.
pub fn check_target(world: &World, rider: Entity) -> Verdict<Entity> {
    mount_of(world, rider).ok_or_else(|| Rejection::new(format!("{} rides nothing", name(world, rider))))
}

fn mount_name(world: &World, m: Entity) -> String {
    world.get::<Mount>(m).map_or_else(|| "the mount".to_owned(), |m| m.name.clone())
}

/// `total` harm dealt to `rider`'s mount by `blow`: steps down its damage track against its
/// threshold, an injury when the Chaos Dice say so, and the rider's Handle Animal test when it
/// is injured. A mount that reaches Slain! falls and throws its rider.
pub fn harm_mount(world: &mut World, rider: Entity, total: u32, blow: &Blow) {
    let Some(m) = mount_of(world, rider) else { return };
    let (limit, _) = threshold(world, m);
    let n = steps(world, total, limit);
    let horse = mount_name(world, m);
    let who = id(world, rider);
    if n == 0 {
        let detail = format!("{horse}: {total} against its Damage Threshold {limit}");
        world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what: "mount_unharmed", detail });
        return;
    }
    let (before, now) = step_down(world, m, n);
    let detail = format!("{horse}: {}", DAMAGE_TRACK[now as usize].to_owned());
    world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what: "mount_harmed", detail });
    if now >= 5 {
        falls(world, rider, m);
        return;
    }
    let Some(severity) = crate::injuries::severity_of(world, rider, before, now, blow, false) else {
        return;
    };
    let region = blow.region.unwrap_or(crate::intent::Aim::Body);
    if let Some(row) = crate::injuries::pick(world, rider, severity, region) {
        let bleeds = (row.bleeds || blow.dangerous) && !blow.pummeling;
        let detail = format!("{horse}: {} ({} injury): {}", row.name, severity.word(), row.summary());
        world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what: "mount_injury", detail });
        if let Some(mut s) = world.get_mut::<Steed>(m) {
            s.injuries.push(row);
            s.bleeding |= bleeds;
        }
        handle_animal(world, rider);
    }
}

fn step_down(world: &mut World, m: Entity, n: u32) -> (u32, u32) {
    let Some(mut s) = world.get_mut::<Steed>(m) else { return (0, 0) };
    let before = s.damage;
    s.damage = (s.damage + n).min(5);
    (before, s.damage)
}

/// The mount falls, slain: its rider goes down beside it, prone; it leaves the field.
fn falls(world: &mut World, rider: Entity, m: Entity) {
    let horse = mount_name(world, m);
    let who = id(world, rider);
    let detail = format!("{horse} falls, slain: {} is thrown down", name(world, rider));
    world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what: "mount_slain", detail });
    crate::moves::set_mount(world, rider, None, 0);
    add(world, rider, Condition::Prone);
    world.entity_mut(m).despawn();
}

/// The rider's Handle Animal test for its hurt mount: failed, it will not move on the rider's
/// next turn; failed critically, the rider is bucked off (1d10+1 damage, prone) and the mount
/// flees the field.
pub fn handle_animal(world: &mut World, rider: Entity) {
    let Some(m) = mount_of(world, rider) else { return };
    if world.get::<Fighter>(rider).is_none_or(|f| f.has(Condition::Slain)) {
        return;
    }
    let t = test(world, rider, "Handle Animal", Some(Skill::HandleAnimal), None, Vec::new(), Flip::None);
    if t.success {
        return;
    }
    let horse = mount_name(world, m);
    let who = id(world, rider);
    if !t.critical_failure() {
        if let Some(mut s) = world.get_mut::<Steed>(m) {
            s.spooked = true;
        }
        let detail = format!("{horse} is out of control: it will not move on the next turn");
        world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what: "mount_balks", detail });
        return;
    }
    let detail = format!("{} is bucked off; {horse} flees the field", name(world, rider));
    world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what: "bucked_off", detail });
    crate::moves::set_mount(world, rider, None, 0);
    world.entity_mut(m).despawn();
    let damage = crate::dice::roll(world, Some(rider), "bucked off", 1, 10, 1);
    harm_with(
        world,
        rider,
        damage,
        Harm::Damage { ranged: false, subdue: false },
        None,
        &Source::named("fall"),
    );
    add(world, rider, Condition::Prone);
}

/// At its rider's turn start: a mount not brought under control balks this turn; a bleeding
/// one rolls a Chaos Die, a 6 one step down its track (and the Handle Animal test again).
pub fn turn_starts(world: &mut World, rider: Entity) {
    let Some(m) = mount_of(world, rider) else { return };
    if let Some(mut s) = world.get_mut::<Steed>(m) {
        s.balking = std::mem::take(&mut s.spooked);
    }
    if !world.get::<Steed>(m).is_some_and(|s| s.bleeding)
        || chaos(world, Some(rider), "mount's bleeding Chaos Die") != 6
    {
        return;
    }
    let (_, now) = step_down(world, m, 1);
    let horse = mount_name(world, m);
    let who = id(world, rider);
    let detail = format!("{horse} bleeds: {}", DAMAGE_TRACK[now as usize].to_owned());
    world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what: "mount_harmed", detail });
    if now >= 5 {
        falls(world, rider, m);
    } else {
        handle_animal(world, rider);
    }
}

/// At its rider's turn end the balking is over.
pub fn turn_ends(world: &mut World, rider: Entity) {
    if let Some(m) = mount_of(world, rider)
        && let Some(mut s) = world.get_mut::<Steed>(m)
    {
        s.balking = false;
    }
}

/// Refuses a mounted move while the mount balks.
pub fn check_moves(world: &World, rider: Entity) -> Verdict {
    match mount_of(world, rider) {
        Some(m) if world.get::<Steed>(m).is_some_and(|s| s.balking) => Err(Rejection::new(format!(
            "{} is out of control: it will not move this turn (Handle Animal failed); dismount to go on foot",
            mount_name(world, m)
        ))),
        _ => Ok(()),
    }
}
