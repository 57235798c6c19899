//! The fumble table (`data/tables.ron`, weighted as the text weights it): a row drawn by its
//! weight, and each outcome the fight can see carried out; those only the GM can tell (bad
//! ground, chaos, sickness) are logged for the GM.

use bevy_ecs::prelude::*;
use fray_core::log::{GameLog, LogEvent};
use fray_core::table::{can_act, id};

use crate::combat::{Harm, harm, opportunity};
use crate::conditions::add;
use crate::data::{Condition, FumbleEffect, FumbleRow, Skill};
use crate::dice::{Flip, roll, test};
use crate::field::{allies, engaged_at, position};
use crate::phase::{Battle, Fighter, Strike};

/// What a fumble leaves for the attack it spoiled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Spoiled {
    /// The hit does 1d6 less damage.
    pub less: bool,
}

/// The row a roll of 1..=total falls on.
pub fn row_for(rows: &[FumbleRow], mut n: u32) -> Option<&FumbleRow> {
    for r in rows {
        if n <= r.weight {
            return Some(r);
        }
        n -= r.weight;
    }
    None
}

/// The fumbler `e` rolls on the table (again, for rows that say so, three times at most).
pub fn fumble(world: &mut World, e: Entity, foe: Option<Entity>, hit: bool) -> Spoiled {
    let rows = world.resource::<Battle>().tables.fumbles.clone();
    let total: u32 = rows.iter().map(|r| r.weight).sum();
    if total == 0 {
        return Spoiled::default();
    }
    for _ in 0..3 {
        let n = roll(world, Some(e), "fumble table", 1, total, 0);
        let Some(row) = row_for(&rows, n) else { break };
        let who = id(world, e);
        world
            .resource_mut::<GameLog>()
            .about(&who, LogEvent::Effect { what: "fumble", detail: format!("{}: {}", row.name, row.text) });
        match carry_out(world, e, foe, hit, &row.effect) {
            Some(spoiled) => return spoiled,
            None => continue,
        }
    }
    Spoiled::default()
}

/// Carries a row out; none when the table must be rolled again.
fn carry_out(
    world: &mut World,
    e: Entity,
    foe: Option<Entity>,
    hit: bool,
    effect: &FumbleEffect,
) -> Option<Spoiled> {
    let gm = |world: &mut World, what: &str| {
        let who = id(world, e);
        world
            .resource_mut::<GameLog>()
            .about(&who, LogEvent::Effect { what: "for_the_gm", detail: what.to_owned() });
    };
    match effect {
        FumbleEffect::TestOrDrop => {
            let two = world.get::<Fighter>(e).and_then(|f| f.weapon()).is_some_and(|w| w.two_handed);
            let mods = if two { vec![fray_core::dice::Modifier::new("two-handed", 20)] } else { Vec::new() };
            if !test(world, e, "keep hold", Some(Skill::Coordination), None, mods, Flip::None).success {
                crate::stunts::drop_weapon(world, e, None);
            }
        }
        FumbleEffect::TestOrProne => {
            if !test(world, e, "keep footing", Some(Skill::Coordination), None, Vec::new(), Flip::None)
                .success
            {
                add(world, e, Condition::Prone);
            }
        }
        FumbleEffect::GroupPeril => {
            let mut all = allies(world, e);
            all.insert(0, e);
            for a in all {
                let peril = roll(world, Some(a), "fumble Peril", 1, 10, 1);
                harm(world, a, peril, Harm::Peril, Some(e), "a fumble");
            }
        }
        FumbleEffect::LoseAp => {
            if let Some(mut f) = world.get_mut::<Fighter>(e) {
                if f.ap > 0 {
                    f.ap -= 1;
                } else {
                    f.ap_debt += 1;
                }
            }
        }
        FumbleEffect::Peril { dice, plus } => {
            let peril = roll(world, Some(e), "fumble Peril", *dice, 10, *plus as i64);
            harm(world, e, peril, Harm::Peril, None, "a fumble");
        }
        FumbleEffect::Wound { dice, plus } => {
            let hurt = roll(world, Some(e), "fumble damage", *dice, 10, *plus as i64);
            harm(world, e, hurt, Harm::Damage { ranged: false, subdue: false }, None, "a fumble");
        }
        FumbleEffect::Terrain => gm(world, "the ground around the fumbler gets worse"),
        FumbleEffect::Chaos => gm(world, "something unforeseen happens"),
        FumbleEffect::Disease => gm(world, "a Toughness test against a lingering sickness"),
        FumbleEffect::NextHitInjures => {
            if let Some(mut f) = world.get_mut::<Fighter>(e) {
                f.injure_next = true;
            }
        }
        FumbleEffect::Environment => gm(world, "a severe setback from the surroundings"),
        FumbleEffect::ItemRuined => {
            if let Some(mut f) = world.get_mut::<Fighter>(e)
                && let Some(w) = f.wielding
                && !f.sheet.weapons[w].has(crate::data::Quality::CastleForged)
            {
                f.ruined[w] = true;
            }
        }
        FumbleEffect::CarriedRuined => ruin_carried(world, e),
        FumbleEffect::Drop => crate::stunts::drop_weapon(world, e, None),
        FumbleEffect::Prone => {
            add(world, e, Condition::Prone);
        }
        FumbleEffect::LessDamage => return hit.then_some(Spoiled { less: true }),
        FumbleEffect::LoseFortune => {
            let mut f = world.get_mut::<Fighter>(e)?;
            if f.fortune == 0 {
                return None;
            }
            f.fortune -= 1;
        }
        FumbleEffect::LoseLadderPlace => crate::ladder::lose_place(world, e),
        FumbleEffect::RandomCondition => {
            let pick = [
                Condition::Blinded,
                Condition::Stunned,
                Condition::Prone,
                Condition::Defenseless,
                Condition::Disarmed,
            ];
            let c = pick[(roll(world, Some(e), "random condition", 1, pick.len() as u32, -1) as usize)
                .min(pick.len() - 1)];
            add(world, e, c);
            if c == Condition::Disarmed {
                crate::stunts::drop_weapon(world, e, None);
            }
        }
        FumbleEffect::Hamper => {
            let ally = engaged_ally(world, e, foe).unwrap_or(e);
            if let Some(mut f) = world.get_mut::<Fighter>(ally) {
                f.hampered = true;
            }
        }
        FumbleEffect::Opening => {
            if let Some(foe) = foe {
                opportunity(world, foe, e);
            }
        }
        FumbleEffect::SelfHit => {
            if hit {
                let hurt = roll(world, Some(e), "fumble damage", 1, 10, 1);
                harm(world, e, hurt, Harm::Damage { ranged: false, subdue: false }, None, "a fumble");
            } else {
                strike(world, e, e, 0);
            }
        }
        FumbleEffect::AutoHit => {
            if let Some(foe) = foe.filter(|&f| can_act(world, f)) {
                let weapon = world.get::<Fighter>(foe).and_then(|f| f.wielding);
                let p = crate::combat::rolled_hit(world, foe, e, Strike::Weapon(weapon));
                crate::combat::land(world, &p);
            }
        }
        FumbleEffect::AllyHit => {
            let ally = engaged_ally(world, e, foe).unwrap_or(e);
            strike(world, e, ally, if hit && ally != e { 3 } else { 0 });
        }
        FumbleEffect::Corruption { dice, plus } => {
            let c =
                if *dice == 0 { *plus } else { roll(world, Some(e), "Corruption", *dice, 10, *plus as i64) };
            if let Some(mut f) = world.get_mut::<Fighter>(e) {
                f.corruption += c;
            }
        }
    }
    Some(Spoiled::default())
}

/// Something `e` carries is Ruined!: one of its weapons not in hand, whole and at hand, drawn
/// at random (castle-forged ones never break), else its armour, else the GM says what.
pub(crate) fn ruin_carried(world: &mut World, e: Entity) {
    let Some(f) = world.get::<Fighter>(e) else { return };
    let carried: Vec<usize> = (0..f.sheet.weapons.len())
        .filter(|&i| Some(i) != f.wielding && !f.ruined[i] && !f.lost[i])
        .filter(|&i| !f.sheet.weapons[i].has(crate::data::Quality::CastleForged))
        .collect();
    let armour = !f.sheet.armour.ruined && f.sheet.armour.threshold > 0;
    let what = if !carried.is_empty() {
        let n = roll(world, Some(e), "which weapon breaks", 1, carried.len() as u32, -1) as usize;
        let i = carried[n.min(carried.len() - 1)];
        let mut f = world.get_mut::<Fighter>(e).expect("the fumbler");
        f.ruined[i] = true;
        f.sheet.weapons[i].name.clone()
    } else if armour {
        let mut f = world.get_mut::<Fighter>(e).expect("the fumbler");
        f.sheet.armour.ruined = true;
        f.sheet.armour.name.clone()
    } else {
        let who = id(world, e);
        let detail = "something the fumbler carries is Ruined!: the GM says what".to_owned();
        world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what: "for_the_gm", detail });
        return;
    };
    let who = id(world, e);
    world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what: "ruined", detail: what });
}

/// An ally of `e` engaged with it or with its foe.
fn engaged_ally(world: &World, e: Entity, foe: Option<Entity>) -> Option<Entity> {
    let at = position(world, e);
    let there = foe.map(|f| position(world, f));
    allies(world, e).into_iter().find(|&a| {
        engaged_at(world, at, position(world, a))
            || there.is_some_and(|t| engaged_at(world, t, position(world, a)))
    })
}

/// The fumbler's own weapon strikes `t` (itself or an ally), its threshold raised by `raise`.
pub(crate) fn strike(world: &mut World, e: Entity, t: Entity, raise: u32) {
    let weapon = world.get::<Fighter>(e).and_then(|f| f.wielding);
    let p = crate::combat::rolled_hit(world, e, t, Strike::Weapon(weapon));
    // The raise is lent for this blow, on top of whatever else raises the threshold.
    if let Some(mut f) = world.get_mut::<Fighter>(t) {
        f.threshold_lent = raise;
    }
    crate::combat::land(world, &p);
    if let Some(mut f) = world.get_mut::<Fighter>(t) {
        f.threshold_lent = 0;
    }
}
