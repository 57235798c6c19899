//! Factions in zones' scenario data: the rules block, zone properties and the character
//! sheet. Every number a GM may want to change lives here, in the scenario's RON.

use fray_core::ids::SideId;
use serde::{Deserialize, Serialize};

/// The scenario's `rules` block.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FactionZonesRules {
    /// The faction that started the fight (it holds the initiative); none: drawn at random.
    pub initiative: Option<SideId>,
    /// Zones a character moves at full speed (half of it with actions).
    pub speed: u32,
    /// Faces of the die a save rolls (a save passes on a roll at most the score).
    pub save_die: u32,
    /// The most armour a target has, cover included.
    pub max_armour: u32,
}

impl Default for FactionZonesRules {
    fn default() -> Self {
        Self { initiative: None, speed: 2, save_die: 20, max_armour: 3 }
    }
}

/// What a zone has of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ZoneProperty {
    /// Complete darkness: no one in it is visible (melee needs a WIT save; no ranged attack).
    Dark,
    /// Cover: +1 armour to those in it.
    Cover,
}

/// A character's sheet.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FactionZonesSheet {
    /// Health: at half or less, incapacitated; at zero, dead.
    pub health: u32,
    /// Armour (0 to 3), taken off every hit.
    #[serde(default)]
    pub armour: u32,
    /// Strength score (saves roll at most this on the save die).
    pub str: u32,
    /// Agility score (dodging).
    pub agi: u32,
    /// Wits score (hard shots, morale).
    pub wit: u32,
    /// Weapons; none: unarmed (d4, impaired).
    #[serde(default)]
    pub weapons: Vec<WeaponSpec>,
    /// Immune to fear, and so to morale.
    #[serde(default)]
    pub fearless: bool,
    /// Its size.
    #[serde(default)]
    pub size: Size,
}

/// Sizes, smallest first: each step between attacker and target scales damage and range.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Size {
    /// A cat, a fairy.
    Tiny,
    /// A child, a goblin, a dog.
    Small,
    /// A human.
    #[default]
    Medium,
    /// A horse, an ogre, a wyrm.
    Large,
    /// A dragon, a giant: it melees up to 1 zone away.
    Massive,
}

impl Size {
    /// Its step on the scale.
    pub fn step(self) -> u32 {
        self as u32
    }
}

/// A weapon.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeaponSpec {
    /// Stable id (the log's `weapon`).
    pub id: String,
    /// Its name.
    pub name: String,
    /// Faces of its damage die.
    pub damage: u32,
    /// Its range in zones; none: a melee weapon (nearby targets only: in the same zone).
    #[serde(default)]
    pub range: Option<u32>,
    /// A blast: it hits every character in a zone (melee: the attacker's, not the attacker).
    #[serde(default)]
    pub blast: bool,
}
