//! The components a Fiend Wake combatant carries at the table, built from its sheet.

use std::collections::BTreeMap;

use bevy_ecs::prelude::*;

use crate::data::{Armour, Attribute, Item, Skill, Weapon};

/// The stack numbers of an attribute level: the odd numbers below it and the level itself.
pub fn stack_numbers(level: u32) -> Vec<u32> {
    let mut out: Vec<u32> = (1..level).step_by(2).collect();
    if level > 0 {
        out.push(level);
    }
    out
}

/// How many stack numbers an attribute at `level` has (`stack_numbers(level).len()`).
pub fn stack_count(level: u32) -> u32 {
    if level == 0 { 0 } else { (level - 1).div_ceil(2) + 1 }
}

/// Attribute levels and how many stack numbers of each are marked by handicaps (marked from
/// the top down).
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct Attributes {
    levels: [u32; 6],
    marked: [u32; 6],
    /// Attributes marked, oldest first (a medic recovers the newest).
    history: Vec<Attribute>,
}

impl Attributes {
    /// Attributes at these levels, none marked.
    pub fn new(levels: [u32; 6]) -> Self {
        Self { levels, marked: [0; 6], history: Vec::new() }
    }

    fn i(a: Attribute) -> usize {
        a as usize
    }

    /// The level on the sheet.
    pub fn level(&self, a: Attribute) -> u32 {
        self.levels[Self::i(a)]
    }

    /// Stack numbers not marked, lowest first.
    pub fn available(&self, a: Attribute) -> Vec<u32> {
        let mut all = stack_numbers(self.level(a));
        all.truncate(all.len().saturating_sub(self.marked[Self::i(a)] as usize));
        all
    }

    /// How many stack numbers are not marked.
    pub fn available_count(&self, a: Attribute) -> u32 {
        stack_count(self.level(a)).saturating_sub(self.marked[Self::i(a)])
    }

    /// The attribute's effective value: its highest unmarked stack number (0 if none).
    pub fn effective(&self, a: Attribute) -> u32 {
        self.available(a).last().copied().unwrap_or(0)
    }

    /// How many stack numbers are marked.
    pub fn marked(&self, a: Attribute) -> u32 {
        self.marked[Self::i(a)]
    }

    /// Marks the top available stack number; returns it, or `None` if none is left.
    pub fn mark_top(&mut self, a: Attribute) -> Option<u32> {
        let top = self.available(a).last().copied()?;
        self.marked[Self::i(a)] += 1;
        self.history.push(a);
        Some(top)
    }

    /// Unmarks the most recently marked stack number; returns its attribute and number.
    pub fn recover_last(&mut self) -> Option<(Attribute, u32)> {
        let a = self.history.pop()?;
        self.marked[Self::i(a)] -= 1;
        let n = self.available(a).last().copied().unwrap_or(0);
        Some((a, n))
    }

    /// How many handicaps are marked in all.
    pub fn handicaps(&self) -> usize {
        self.history.len()
    }
}

/// Skill levels (absent skills are 0).
#[derive(Component, Clone, Debug, Default)]
pub struct Skills(pub BTreeMap<Skill, u32>);

impl Skills {
    /// The level of a skill.
    pub fn level(&self, s: Skill) -> u32 {
        self.0.get(&s).copied().unwrap_or(0)
    }
}

/// The difficulty to hit this combatant.
#[derive(Component, Clone, Copy, Debug)]
pub struct Evasion(pub u32);

/// Weapons carried and which one is ready.
#[derive(Component, Clone, Debug, Default)]
pub struct Arsenal {
    /// Weapon ids carried.
    pub carried: Vec<String>,
    /// The ready weapon's id.
    pub ready: Option<String>,
}

/// Armour worn.
#[derive(Component, Clone, Debug, Default)]
pub struct Worn {
    /// Armour id worn.
    pub armour: Option<String>,
    /// Taking it off this round: no reduction now, gone next round.
    pub doffing: bool,
}

/// Items carried.
#[derive(Component, Clone, Debug, Default)]
pub struct Inventory(pub Vec<Item>);

/// Added to the combatant's round-prep TP.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct TpAdjust(pub i32);

/// What a combatant has decided this round.
#[derive(Component, Clone, Debug, Default)]
pub struct RoundChoices {
    /// Armour paid, refused or not worn.
    pub armour_settled: bool,
    /// The secret bid, once made.
    pub bid: Option<u32>,
    /// The cede choice, once made (only asked of tied combatants).
    pub cede: Option<bool>,
    /// Agrees to end the fight.
    pub agrees_to_end: bool,
}

/// A mount's Fiend Wake data.
#[derive(Component, Clone, Debug, Default)]
pub struct MountTraits {
    /// Must be wrangled before it can be ridden.
    pub untrained: bool,
    /// The GM agrees it can be wrangled.
    pub wranglable: bool,
    /// Wrangled for this fight.
    pub wrangled: bool,
    /// The wrangling difficulty.
    pub training_difficulty: u32,
    /// TP taken off entry costs while ridden.
    pub entry_discount: u32,
    /// Added to the rider's Evasion.
    pub evasion_bonus: u32,
    /// Added to the rider's melee hits.
    pub melee_bonus: u32,
}

/// The attribute whose stack numbers handicaps mark first.
#[derive(Component, Clone, Copy, Debug)]
pub struct HandicapChoice(pub Attribute);

/// A combatant's ongoing spells and whether each is fueled.
#[derive(Component, Clone, Debug, Default)]
pub struct Spells(pub Vec<(crate::data::SpellSpec, bool)>);

/// A caltrops location, and who scattered it.
#[derive(Component, Clone, Copy, Debug)]
pub struct CaltropsOf(pub Entity);

/// A location's properties (the scenario's, or the caltrops').
#[derive(Component, Clone, Debug, Default)]
pub struct Properties(pub Vec<crate::data::LocationProperty>);

/// The scenario's catalogues and numbers.
#[derive(Resource, Clone, Debug, Default)]
pub struct Catalogue {
    /// The rules block (shared: cloning the catalogue is cheap).
    pub rules: std::sync::Arc<crate::data::FiendWakeRules>,
}

impl Catalogue {
    /// A weapon by id.
    pub fn weapon(&self, id: &str) -> Option<&Weapon> {
        self.rules.weapons.get(id)
    }

    /// An armour by id.
    pub fn armour(&self, id: &str) -> Option<&Armour> {
        self.rules.armours.get(id)
    }
}
