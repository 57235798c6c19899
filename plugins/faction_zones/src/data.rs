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
    /// Faces of an impaired attack's die (unarmed, held back): whatever the weapon.
    pub impaired_die: u32,
    /// Faces of the die a hazard (a pit, a fire) rolls on one shoved into it, as direct damage.
    pub hazard_die: u32,
    /// Faces of the durability die rolled after the fight for each weapon and armour used; a 1
    /// damages it (a damaged one breaks).
    pub durability_die: u32,
    /// Damage before armour that breaks damaged armour.
    pub breaks_armour: u32,
    /// Faces of the die one falling from a moving mount takes, as direct damage.
    pub fall_die: u32,
}

/// Its sheets name no catalogue of the rules block: nothing to take along.
impl fray_core::edit::EditRules<FactionZonesSheet, ()> for FactionZonesRules {}

impl Default for FactionZonesRules {
    fn default() -> Self {
        Self {
            initiative: None,
            speed: 2,
            save_die: 20,
            max_armour: 3,
            impaired_die: 4,
            hazard_die: 6,
            durability_die: 6,
            breaks_armour: 8,
            fall_die: 4,
        }
    }
}

/// What a zone has of its own, or toward one neighbour (its border with it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ZoneProperty {
    /// Complete darkness: no one in it is visible (melee needs a WIT save; no ranged attack).
    Dark,
    /// Cover: +1 armour to those in it.
    Cover,
    /// A hazard (a pit, a fire, a ledge): one shoved here takes the hazard's die, direct.
    Hazard,
    /// Behind a barrier (a parapet, arrow slits): attacks from other zones are blocked; one
    /// who peeks out to shoot may be countered through it, and it counts as cover then.
    Barrier,
    /// A way out of the battlefield (a gate, the road): one may flee the fight from here.
    Exit,
    /// Its border with that zone gives cover (a low wall, a hedge): +1 armour to those here
    /// against attacks from there.
    CoverFrom(fray_core::ids::LocationId),
    /// Its border with that zone is a barrier (a parapet, a palisade): attacks from there on
    /// those here are blocked; one here who shoots out may be countered through it, as cover.
    BarrierFrom(fray_core::ids::LocationId),
}

/// Entering a zone costs nothing of its own: an older file's `entry_cost` is dropped.
impl fray_core::scenario::LocationProperty for ZoneProperty {}

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
    /// A vehicle (a cart, a boat): it carries its passengers and never attacks.
    #[serde(default)]
    pub vehicle: bool,
    /// A mount or vehicle: how many riders or passengers it carries (0: none).
    #[serde(default)]
    pub carries: u32,
    /// At the start, riding this mount (a combatant id of its side, in its zone).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rides: Option<String>,
    /// Its full speed in zones; none: the rules block's `speed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speed: Option<u32>,
    /// Concealed at the start of the fight (an ambusher): it plays the bonus round.
    #[serde(default)]
    pub concealed: bool,
    /// Its armour is damaged: a hit of `breaks_armour` or more before armour breaks it.
    #[serde(default)]
    pub armour_damaged: bool,
    /// A shield's armour, added to the armour's (0: no shield).
    #[serde(default)]
    pub shield: u32,
    /// Its shield is damaged: a hit of `breaks_armour` or more before armour breaks it, before
    /// the armour.
    #[serde(default)]
    pub shield_damaged: bool,
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
    /// Held in both hands: attacking with it lets go of a grabbed character.
    #[serde(default)]
    pub two_handed: bool,
    /// Damaged (worn): a 1 on its damage die breaks it.
    #[serde(default)]
    pub damaged: bool,
    /// An improvised weapon (a chair, a bottle, a lantern): handled as damaged from the start.
    #[serde(default)]
    pub improvised: bool,
}
