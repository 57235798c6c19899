//! The end of the fight: at most one faction has anyone fighting, or the round limit. Then a
//! durability roll for every weapon, shield and armour used: a 1 damages it, or breaks it if
//! it was damaged already.

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::dice::{RollRecord, TableRng};
use fray_core::log::{GameLog, LogEvent};
use fray_core::phase::RulesStep;
use fray_core::ruleset::end_fight;
use fray_core::table::{id, name};

use crate::activation::{factions_in_the_fight, fighting};
use crate::phase::{Battle, FactionZonesPhase, Fighter};
use crate::schedule::FactionZonesSystems;

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(RulesStep, check_end.in_set(FactionZonesSystems::Ending));
}

/// Whether two factions or more are still in the fight: a run condition of every phase and of
/// the decisions, so that once at most one is left no turn, round or reaction starts and no one
/// acts; only the durability rolls follow.
pub fn goes_on(world: &World) -> bool {
    fray_core::table::two_sides_fight(world, |e, status| fighting(world, e, status))
}

fn check_end(world: &mut World) {
    if !goes_on(world) {
        finish(world, "one faction or none is left fighting");
    }
}

/// Ends the fight.
pub fn finish(world: &mut World, reason: &str) {
    let sides = factions_in_the_fight(world);
    let winner = (sides.len() == 1).then(|| sides[0].clone());
    let clock = world.resource::<Battle>().round;
    {
        let mut battle = world.resource_mut::<Battle>();
        battle.active = None;
        battle.pending = None;
        battle.leaving = None;
        battle.several = None;
        battle.joint.clear();
        battle.to_act = None;
    }
    durability_rolls(world);
    end_fight::<FactionZonesPhase>(world, winner, clock, reason, fighting);
}

/// After the fight: a durability roll for each weapon and armour used, in scenario order.
fn durability_rolls(world: &mut World) {
    let die = world.resource::<Battle>().rules.durability_die;
    let order = world.resource::<fray_core::prelude::TableIndex>().order.clone();
    for e in order {
        let Some(f) = world.get::<Fighter>(e) else { continue };
        // Each item with its id (for the log) and its name (for the screens).
        let mut items: Vec<(Item, String, String)> = f
            .gear
            .used
            .iter()
            .filter(|w| !f.gear.broken.contains(w))
            .filter_map(|&w| {
                f.sheet.weapons.get(w).map(|x| (Item::Weapon(w), x.id.clone(), x.name.to_lowercase()))
            })
            .collect();
        if f.gear.shield_used && !f.gear.shield_broken {
            items.push((Item::Shield, "shield".to_owned(), "shield".to_owned()));
        }
        if f.gear.armour_used && !f.gear.armour_broken {
            items.push((Item::Armour, "armour".to_owned(), "armour".to_owned()));
        }
        for (item, what, shown) in items {
            let roll = world.resource_mut::<TableRng>().die(die);
            let told = format!("Wear on {}'s {shown} (a 1 damages it)", name(world, e));
            let record = RollRecord::sum(format!("durability: {what}"), vec![roll], 0).told(told);
            let who = id(world, e);
            world.resource_mut::<GameLog>().about(&who, LogEvent::Roll(record));
            if roll != 1 {
                continue;
            }
            let Some(mut f) = world.get_mut::<Fighter>(e) else { continue };
            let g = &mut f.gear;
            let broke = match item {
                Item::Weapon(w) if g.damaged.contains(&w) => {
                    g.broken.push(w);
                    true
                }
                Item::Weapon(w) => {
                    g.damaged.push(w);
                    false
                }
                Item::Shield => wear_out(&mut g.shield_damaged, &mut g.shield_broken),
                Item::Armour => wear_out(&mut g.armour_damaged, &mut g.armour_broken),
            };
            let what_now = if broke { "gear_broke" } else { "gear_damaged" };
            world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what: what_now, detail: what });
        }
    }
}

/// What a durability roll is for.
enum Item {
    /// A weapon, by sheet index.
    Weapon(usize),
    Shield,
    Armour,
}

/// A 1 on the durability die: damaged, or broken if damaged already (then true).
fn wear_out(damaged: &mut bool, broken: &mut bool) -> bool {
    if *damaged {
        *broken = true;
    }
    *damaged = true;
    *broken
}
