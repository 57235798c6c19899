//! The Initiative ladder's dice, each from the table's RNG and logged: percentile tests (with
//! flips, the peril track's penalty and Incapacitated!), Fury Dice (d6, a 6 rolls again),
//! Chaos Dice, and sums of d10s.

use bevy_ecs::prelude::*;
use fray_core::dice::{Modifier, RollReading, RollRecord, TableRng};
use fray_core::log::{GameLog, LogEvent};
use fray_core::table::id;

use crate::data::Skill;
use crate::phase::Fighter;

/// What a roll is, for the log, and, where "who: what" would mislead or leave out whom it
/// is against, as a commentator says it ("Ysolt attacks Wat the cutthroat").
pub struct Said<'a> {
    /// The log's words.
    pub what: &'a str,
    /// The screens' words.
    pub told: Option<String>,
}

impl<'a> Said<'a> {
    /// `what`, told as `told`.
    pub fn told(what: &'a str, told: String) -> Self {
        Self { what, told: Some(told) }
    }
}

impl<'a> From<&'a str> for Said<'a> {
    fn from(what: &'a str) -> Self {
        Self { what, told: None }
    }
}

impl<'a> From<&'a String> for Said<'a> {
    fn from(what: &'a String) -> Self {
        Self { what, told: None }
    }
}

/// A flip of a percentile roll's digits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flip {
    /// The roll as it fell.
    None,
    /// The digits read whichever way fails, if one does.
    ToFail,
}

/// A percentile test's outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Test {
    /// The d100, 1 to 100, as read.
    pub roll: u32,
    /// The chance, every modifier counted.
    pub chance: u32,
    /// Succeeded.
    pub success: bool,
    /// The digits matched (or 100).
    pub critical: bool,
}

impl Test {
    /// A critical success.
    pub fn critical_success(&self) -> bool {
        self.success && self.critical
    }

    /// A critical failure.
    pub fn critical_failure(&self) -> bool {
        !self.success && self.critical
    }
}

fn swapped(roll: u32) -> u32 {
    if roll == 100 {
        return 100;
    }
    let (tens, units) = (roll / 10 % 10, roll % 10);
    let r = units * 10 + tens;
    if r == 0 { 100 } else { r }
}

fn critical(roll: u32) -> bool {
    roll == 100 || (roll >= 11 && roll / 10 == roll % 10)
}

/// Reads a d100 against a chance (1 to 99), flipped or not.
pub fn read(roll: u32, chance: u32, flip: Flip, tests_fail: bool) -> Test {
    let chance = chance.clamp(1, 99);
    let roll = match flip {
        Flip::ToFail if roll <= chance && swapped(roll) > chance => swapped(roll),
        _ => roll,
    };
    let success = roll <= chance && roll != 100 && !tests_fail;
    Test { roll, chance, success, critical: critical(roll) }
}

/// A skill test by `who`: its chance for `skill` (or `base` when given) with `modifiers`,
/// the peril track's penalty, Incapacitated! and a hampering fumble counted; rolled and logged.
pub fn test<'a>(
    world: &mut World,
    who: Entity,
    said: impl Into<Said<'a>>,
    skill: Option<Skill>,
    base: Option<i32>,
    mut modifiers: Vec<Modifier>,
    flip: Flip,
) -> Test {
    let (chance_base, fails, hampered) = match world.get::<Fighter>(who) {
        Some(f) => {
            let base = base.unwrap_or_else(|| skill.map_or(0, |s| f.sheet.chance(s)));
            let tests_fail = world.get_resource::<crate::phase::Battle>().is_some_and(|b| {
                f.conditions.keys().any(|c| b.tables.condition(*c).is_some_and(|r| r.tests_fail))
            });
            modifiers.extend(standing(f, skill));
            (base, tests_fail, f.hampered)
        }
        None => (base.unwrap_or(0), false, false),
    };
    let chance = chance(chance_base, &modifiers);
    let flip = if hampered { Flip::ToFail } else { flip };
    let die = world.resource_mut::<TableRng>().die(100);
    let t = read(die, chance, flip, fails);
    let mut all = vec![Modifier::new(skill.map_or("chance", Skill::word), chance_base)];
    all.extend(modifiers);
    if flip == Flip::ToFail {
        all.push(Modifier::new("flipped to fail", 0));
    }
    if fails {
        all.push(Modifier::new("incapacitated: cannot succeed", 0));
    }
    let said = said.into();
    let record = RollRecord {
        what: said.what.to_owned(),
        dice: vec![t.roll],
        modifiers: all,
        reading: RollReading::Percentile { chance: t.chance, success: t.success, critical: t.critical },
        told: said.told,
    };
    let actor = world.get::<fray_core::table::Combatant>(who).map(|_| id(world, who));
    world.resource_mut::<GameLog>().push(actor, LogEvent::Roll(record));
    t
}

/// The chance a [`test`] of `skill` by `who` with `modifiers` would have now, as the test
/// reads it (its standing counted; 0 where no test of its can succeed), to show before a
/// choice.
pub fn odds_of(world: &World, who: Entity, skill: Skill, modifiers: &[Modifier]) -> u32 {
    let Some(f) = world.get::<Fighter>(who) else { return 0 };
    let fails = world
        .get_resource::<crate::phase::Battle>()
        .is_some_and(|b| f.conditions.keys().any(|c| b.tables.condition(*c).is_some_and(|r| r.tests_fail)));
    if fails {
        return 0;
    }
    let mut all = modifiers.to_vec();
    all.extend(standing(f, Some(skill)));
    chance(f.sheet.chance(skill), &all)
}

/// A test's chance: its base and every modifier, clamped to 1–99.
pub fn chance(base: i32, modifiers: &[Modifier]) -> u32 {
    (base + modifiers.iter().map(|m| m.value as i32).sum::<i32>()).clamp(1, 99) as u32
}

/// What `f`'s state adds to every test of `skill`: the peril track's penalty, its injuries.
pub fn standing(f: &Fighter, skill: Option<crate::data::Skill>) -> Vec<Modifier> {
    let mut out = Vec::new();
    let penalty = peril_penalty(f.peril);
    if penalty != 0 {
        out.push(Modifier::new("peril", penalty));
    }
    out.extend(crate::injuries::test_modifiers(f, skill));
    out
}

/// The sum of [`standing`].
pub fn standing_sum(f: &Fighter, skill: Option<crate::data::Skill>) -> i32 {
    standing(f, skill).iter().map(|m| m.value as i32).sum()
}

/// The peril track's penalty to skill tests: -10 a step from "ignore 1 rank".
pub fn peril_penalty(peril: u32) -> i32 {
    match peril {
        0 | 1 => 0,
        p => -10 * (p.min(4) as i32 - 1),
    }
}

/// Rolls `n` Fury Dice (d6; a 6 rolls again and adds, five times at most), logged.
pub fn fury<'a>(world: &mut World, who: Option<Entity>, n: u32, said: impl Into<Said<'a>>) -> u32 {
    let mut dice = Vec::new();
    for _ in 0..n {
        let mut again = 0;
        loop {
            let d = world.resource_mut::<TableRng>().die(6);
            dice.push(d);
            again += 1;
            if d != 6 || again > 5 {
                break;
            }
        }
    }
    log_sum(world, who, said.into(), dice, 0)
}

/// Rolls `n` dice of `faces` plus `plus`, logged; the total.
pub fn roll<'a>(
    world: &mut World,
    who: Option<Entity>,
    said: impl Into<Said<'a>>,
    n: u32,
    faces: u32,
    plus: i64,
) -> u32 {
    let dice: Vec<u32> = (0..n).map(|_| world.resource_mut::<TableRng>().die(faces)).collect();
    log_sum(world, who, said.into(), dice, plus)
}

/// One Chaos Die (d6), logged.
pub fn chaos(world: &mut World, who: Option<Entity>, what: &str) -> u32 {
    roll(world, who, what, 1, 6, 0)
}

fn log_sum(world: &mut World, who: Option<Entity>, said: Said, dice: Vec<u32>, plus: i64) -> u32 {
    let mut record = RollRecord::sum(said.what, dice, plus);
    record.told = said.told;
    let total = match record.reading {
        RollReading::Sum { total, .. } => total.max(0) as u32,
        _ => 0,
    };
    let actor = who.filter(|&e| world.get::<Fighter>(e).is_some()).map(|e| id(world, e));
    world.resource_mut::<GameLog>().push(actor, LogEvent::Roll(record));
    total
}

/// A condition's row says so for anything `f` bears.
pub fn any_condition(world: &World, f: &Fighter, pred: impl Fn(&crate::data::ConditionRow) -> bool) -> bool {
    if f.conditions.is_empty() {
        return false;
    }
    let tables = &world.resource::<crate::phase::Battle>().tables;
    f.conditions.keys().any(|&c| tables.condition(c).is_some_and(&pred))
}

/// Whether `f` bears a condition that stops it acting (a choked one may still escape).
pub fn cannot_act(world: &World, f: &Fighter) -> bool {
    any_condition(world, f, |r| r.no_actions)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matching_digits_are_critical_and_a_flip_to_fail_swaps_them_only_to_fail() {
        assert!(read(33, 50, Flip::None, false).critical_success());
        assert!(read(77, 50, Flip::None, false).critical_failure());
        assert!(read(100, 99, Flip::None, false).critical_failure(), "100 always fails critically");
        let t = read(27, 50, Flip::ToFail, false);
        assert_eq!((t.roll, t.success), (72, false), "27 flipped to fail reads 72 against 50");
        let t = read(21, 50, Flip::ToFail, false);
        assert_eq!((t.roll, t.success), (21, true), "12 would succeed too: 21 stands");
        assert!(!read(5, 50, Flip::None, true).success, "incapacitated: nothing succeeds");
        assert_eq!(peril_penalty(1), 0);
        assert_eq!(peril_penalty(3), -20);
    }
}
