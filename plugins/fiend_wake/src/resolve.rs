//! How held actions resolve once every reaction and call is answered: attacks (melee,
//! ranged, grapple, with called shots), damage over a location's area (assault, siege
//! weapons, grenades), and retreats.

use crate::data::LocationProperty;
use crate::rolls::Difficulty;
use bevy_ecs::prelude::*;
use fray_core::location::{can_enter, field, place_of};
use fray_core::log::LogEvent;
use fray_core::log::Source;
use fray_core::table::Status;

use crate::actions::move_to;
use crate::damage;
use crate::data::{Attribute, Skill, WeaponKind};
use crate::reactions::{AreaKind, AttackKind, Held, Reactions};
use crate::rolls;
use crate::sheet::Attributes;
use crate::view;

/// Resolves a held action.
pub(crate) fn resolve(world: &mut World, held: Held) {
    match held {
        Held::Attack { attacker, target, kind, called } => attack(world, attacker, target, kind, called),
        Held::Area { actor, location, kind, leapers } => area(world, actor, location, kind, &leapers),
        Held::Retreat { who, value, stopped } => retreat(world, who, value, stopped),
    }
}

/// How much harder an attack or assault from `actor` into `location` is: the location's
/// cover, when the actor is outside it.
pub fn cover_into(world: &World, actor: Entity, location: Entity) -> u32 {
    if place_of(world, actor) == Some(location) {
        return 0;
    }
    view::properties(world, location)
        .iter()
        .map(|p| if let LocationProperty::Cover(n) = p { *n } else { 0 })
        .sum()
}

fn power(world: &World, e: Entity) -> u32 {
    world.get::<Attributes>(e).map_or(0, |a| a.effective(Attribute::Power))
}

fn attack(world: &mut World, attacker: Entity, target: Entity, kind: AttackKind, called: u32) {
    if !view::on_table(world, target) || !view::can_act(world, attacker) {
        return;
    }
    let rules = view::catalogue(world).rules.clone();
    let cover = place_of(world, target).map_or(0, |p| cover_into(world, attacker, p));
    let difficulty = Difficulty::of("evasion", view::evasion(world, target))
        .plus("called shots", called * rules.call_shot_difficulty)
        .plus("cover", cover);
    let power = power(world, attacker);
    let who = view::name(world, attacker);
    match kind {
        AttackKind::Melee | AttackKind::Ranged => {
            let Some((weapon_id, weapon)) = view::ready_weapon_owned(world, attacker) else {
                return;
            };
            let verb = match weapon.kind {
                WeaponKind::Melee => "strikes at",
                WeaponKind::Ranged => "shoots at",
            };
            let told = format!("{who} {verb} {}", view::name(world, target));
            let roll = rolls::roll(world, attacker, (Some(weapon.skill), Attribute::Grace), difficulty, told);
            if !roll.success {
                return;
            }
            let mounted = match weapon.kind {
                WeaponKind::Melee => view::mount_of(world, attacker).map_or(0, |(_, t)| t.melee_bonus),
                WeaponKind::Ranged => 0,
            };
            let amount = weapon.first_intention.max(0) as u32
                + roll.extra_successes.min(power)
                + called * power
                + mounted;
            let source =
                Source::by(format!("{who}'s {weapon_id}"), view::id(world, attacker), Some(weapon_id));
            damage::wounds(world, target, amount, &source);
        }
        AttackKind::Grapple => {
            let told = format!("{who} grapples {}", view::name(world, target));
            let skill = (Some(Skill::UnarmedCombat), Attribute::Grace);
            let roll = rolls::roll(world, attacker, skill, difficulty, told);
            if !roll.success {
                return;
            }
            let source = Source::by(format!("{who}'s grapple"), view::id(world, attacker), None);
            damage::stun(world, target, power, &source);
            let resisted = view::can_act(world, target)
                && rolls::roll(
                    world,
                    target,
                    skill,
                    Difficulty::of("the grapple's roll", roll.total),
                    format!("{} struggles against {who}'s grapple", view::name(world, target)),
                )
                .success;
            if !resisted {
                damage::stun(world, target, power, &source);
            }
            if called > 0 {
                let source = Source::by(format!("{who}'s called shot"), view::id(world, attacker), None);
                damage::stun(world, target, called * power, &source);
            }
        }
    }
}

/// The assault difficulty of `location` for `actor`: the location's own, else the ruleset's
/// for a location an enemy holds or one nobody hostile holds.
pub fn assault_difficulty(world: &World, actor: Entity, location: Entity) -> u32 {
    let own = view::properties(world, location)
        .iter()
        .find_map(|p| if let LocationProperty::AssaultDifficulty(n) = p { Some(*n) } else { None });
    if let Some(n) = own {
        return n;
    }
    let rules = &view::catalogue(world).rules;
    let held = view::combatants(world).into_iter().any(|c| {
        place_of(world, c) == Some(location) && view::can_act(world, c) && view::enemies(world, actor, c)
    });
    if held { rules.assault_difficulty_held } else { rules.assault_difficulty_empty }
}

fn area(world: &mut World, actor: Entity, location: Entity, kind: AreaKind, leapers: &[Entity]) {
    let rules = view::catalogue(world).rules.clone();
    let cover = cover_into(world, actor, location);
    let who = view::name(world, actor);
    match kind {
        AreaKind::Assault { team, raise } => {
            let team_tp: u32 = team.iter().map(|(_, tp, _)| tp).sum::<u32>() + raise * team.len() as u32;
            let difficulty = Difficulty::of("assault difficulty", assault_difficulty(world, actor, location))
                .plus("raise", raise)
                .plus("cover", cover);
            let members: Vec<String> =
                team.iter().map(|(m, tp, _)| format!("{} ({tp} TP)", view::name(world, *m))).collect();
            view::log(
                world,
                actor,
                LogEvent::Effect {
                    what: "assault_team",
                    detail: format!("{}; {team_tp} TP with the raise of {raise}", members.join(", ")),
                },
            );
            let told = format!("{who} leads the assault on {}", place_words(world, location));
            let roll =
                rolls::roll(world, actor, (Some(Skill::Command), Attribute::Cunning), difficulty, told);
            if roll.success {
                let source = Source::by(format!("{who}'s assault"), view::id(world, actor), None);
                damage::mass(world, location, 2 * team_tp, leapers, &source);
                for (member, _, enter) in team {
                    let from = place_of(world, member);
                    if enter
                        && view::can_act(world, member)
                        && from.is_some_and(|f| can_enter(world, f, location))
                    {
                        move_to(world, member, location, 0);
                    }
                }
            }
        }
        AreaKind::Bombard => {
            let Some((weapon_id, weapon)) = view::ready_weapon_owned(world, actor) else {
                return;
            };
            let roll = rolls::roll(
                world,
                actor,
                (Some(weapon.skill), Attribute::Grace),
                Difficulty::of("bombard difficulty", rules.bombard_difficulty).plus("cover", cover),
                format!("{who} bombards {}", place_words(world, location)),
            );
            if roll.success {
                let source =
                    Source::by(format!("{who}'s {weapon_id}"), view::id(world, actor), Some(weapon_id));
                damage::mass(world, location, weapon.first_intention.max(0) as u32, leapers, &source);
                damage::siege(world, location, weapon.siege.max(0) as u32, &source.name);
            }
        }
        AreaKind::Grenade => {
            let roll = rolls::roll(
                world,
                actor,
                (Some(Skill::Thrown), Attribute::Grace),
                Difficulty::of("grenade difficulty", rules.grenade_difficulty).plus("cover", cover),
                format!("{who} throws a grenade into {}", place_words(world, location)),
            );
            if roll.success {
                let source = Source::by(format!("{who}'s grenade"), view::id(world, actor), None);
                damage::mass(world, location, rules.grenade_mass_damage, leapers, &source);
            }
        }
    }
    let Some(field) = field(world) else {
        return;
    };
    for &leaper in leapers {
        if view::on_table(world, leaper) && place_of(world, leaper) == Some(location) {
            move_to(world, leaper, field, 0);
        }
    }
}

/// A stop attempt: Tactics with Grace against the retreat's value. Returns whether it stopped.
pub(crate) fn try_stop_retreat(world: &mut World, stopper: Entity) -> bool {
    let Some(Held::Retreat { who, value, .. }) = world.resource::<Reactions>().held.clone() else {
        return false;
    };
    let difficulty = Difficulty::of("the retreat's value", value);
    let told = format!("{} tries to stop {}'s retreat", view::name(world, stopper), view::name(world, who));
    let skill = (Some(Skill::Tactics), Attribute::Grace);
    let stopped = rolls::roll(world, stopper, skill, difficulty, told).success;
    if stopped && let Some(Held::Retreat { stopped: s, .. }) = world.resource_mut::<Reactions>().held.as_mut()
    {
        *s = true;
    }
    stopped
}

fn retreat(world: &mut World, who: Entity, value: u32, stopped: bool) {
    if stopped {
        view::log(
            world,
            who,
            LogEvent::Effect { what: "retreat_stopped", detail: format!("retreat value {value}") },
        );
    } else if view::can_act(world, who) {
        view::log(world, who, LogEvent::Effect { what: "retreat", detail: format!("retreat value {value}") });
        damage::set_status(world, who, Status::Fled);
    }
}

/// A place as a sentence names it: "the Keep", "the open field".
fn place_words(world: &World, place: Entity) -> String {
    if fray_core::location::is_field(world, place) {
        "the open field".to_owned()
    } else {
        fray_core::location::the_place(world, place)
    }
}
