//! Fiend Wake's scenario data: the `rules` block (numbers and catalogues), the character
//! sheet and the mount sheet. Every number a GM may want to change lives here, with the
//! defaults `RULES.md` explains.

use std::collections::BTreeMap;

use fray_core::edit::{take_named, take_weapons};
use serde::{Deserialize, Serialize};

/// The scenario's `rules` block.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FiendWakeRules {
    /// Tactical points every combatant starts a round with, before Cunning (2; fewer for a
    /// surprised side is set per combatant with `tp_adjust`).
    pub base_tp: u32,
    /// Faces of the dice rolled for skills and attributes.
    pub die_sides: u32,
    /// Tactical points a turn token is worth when spent on armour.
    pub turn_token_tp: u32,
    /// Wound threshold: `threshold_base + threshold_per_endurance * Endurance`.
    pub threshold_base: u32,
    /// See `threshold_base`.
    pub threshold_per_endurance: u32,
    /// Difficulty of an unconscious combatant's Endurance roll.
    pub unconscious_difficulty: u32,
    /// TP cost of evacuating a location as a simple action.
    pub evacuate_cost: u32,
    /// TP cost of mounting as a simple action.
    pub mount_cost: u32,
    /// TP assumed spent by an upgraded simple action without its own rule.
    pub upgrade_assumed_tp: u32,
    /// TP cost of calling a shot as a simple action.
    pub call_shot_cost: u32,
    /// Difficulty added by each called shot (each also adds the caller's Power to the damage).
    pub call_shot_difficulty: u32,
    /// TP cost of dismounting.
    pub dismount_cost: u32,
    /// Difficulty of an assault on a location no enemy of the assaulter holds.
    pub assault_difficulty_empty: u32,
    /// Difficulty of an assault on a location an enemy holds.
    pub assault_difficulty_held: u32,
    /// Difficulty of hitting a location with a siege weapon.
    pub bombard_difficulty: u32,
    /// Mass damage of a grenade.
    pub grenade_mass_damage: u32,
    /// Difficulty of a grenade throw (Thrown with Grace).
    pub grenade_difficulty: u32,
    /// Wounds dealt by caltrops to whoever begins a turn among them.
    pub caltrops_wounds: u32,
    /// TP (or wounds) to pick caltrops up.
    pub caltrops_pickup: u32,
    /// Difficulty of the medic's Medicine with Cunning roll.
    pub medic_difficulty: u32,
    /// Wounds from a failed wrangling.
    pub wrangle_wounds: u32,
    /// TP cost of the intercept reaction.
    pub intercept_cost: u32,
    /// TP cost of the clear-out reaction.
    pub clear_out_cost: u32,
    /// TP cost of trying to stop a retreating enemy.
    pub stop_retreat_cost: u32,
    /// Weapons by id.
    pub weapons: BTreeMap<String, Weapon>,
    /// Armours by id.
    pub armours: BTreeMap<String, Armour>,
}

/// A combatant brought from another scenario brings the weapons and the armour its sheet
/// names, where this scenario lacks them (under names of their own where it has others).
impl fray_core::edit::EditRules<Sheet, MountSheet> for FiendWakeRules {
    fn take_for_combatant(&mut self, from: &Self, sheet: &mut Sheet) {
        take_weapons(&mut self.weapons, &from.weapons, &mut sheet.weapons, &mut sheet.ready);
        if let Some(a) = &mut sheet.armour {
            take_named(&mut self.armours, &from.armours, a);
        }
    }
}

impl Default for FiendWakeRules {
    fn default() -> Self {
        Self {
            base_tp: 2,
            die_sides: 10,
            turn_token_tp: 2,
            threshold_base: 4,
            threshold_per_endurance: 2,
            unconscious_difficulty: 7,
            evacuate_cost: 0,
            mount_cost: 1,
            upgrade_assumed_tp: 2,
            call_shot_cost: 1,
            call_shot_difficulty: 2,
            dismount_cost: 0,
            assault_difficulty_empty: 5,
            assault_difficulty_held: 8,
            bombard_difficulty: 5,
            grenade_mass_damage: 8,
            grenade_difficulty: 5,
            caltrops_wounds: 2,
            caltrops_pickup: 6,
            medic_difficulty: 7,
            wrangle_wounds: 12,
            intercept_cost: 2,
            clear_out_cost: 1,
            stop_retreat_cost: 1,
            weapons: BTreeMap::new(),
            armours: BTreeMap::new(),
        }
    }
}

/// Melee or ranged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WeaponKind {
    /// Hits local combatants and combatants in no location.
    Melee,
    /// Hits anyone, in any location.
    Ranged,
}

/// A weapon in the scenario's catalogue.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Weapon {
    /// Shown name.
    pub name: String,
    /// Melee or ranged.
    pub kind: WeaponKind,
    /// The skill rolled to attack with it.
    pub skill: Skill,
    /// Wounds on a hit.
    pub first_intention: i32,
    /// Wounds per tactical point allocated in harassment.
    pub second_intention: i32,
    /// TP to make it ready (arm yourself).
    #[serde(default = "one")]
    pub ready_cost: i32,
    /// Siege damage per hit on a location (used by later rules; 0 for most weapons).
    #[serde(default)]
    pub siege: i32,
}

fn one() -> i32 {
    1
}

/// An armour in the scenario's catalogue.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Armour {
    /// Shown name.
    pub name: String,
    /// Wounds removed from each discrete instance of damage.
    pub reduction: i32,
    /// TP (or turn tokens) to pay each round prep to keep wearing it.
    pub encumbrance: i32,
}

/// The six attributes. Each has stack numbers: the odd numbers below its level and the
/// level itself (5 gives 1, 3, 5; 4 gives 1, 3, 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Attribute {
    /// Raw strength: damage bonuses and grapples.
    Power,
    /// Agility and aim: attack rolls.
    Grace,
    /// Wits: one TP per stack number at round prep; Command and Medicine rolls.
    Cunning,
    /// Toughness: wound threshold and unconscious rolls.
    Endurance,
    /// Nerve (the text also says Vitality): one turn token per stack number.
    Resolve,
    /// Life: handicaps mark its stack numbers; none left means unconscious.
    Spirit,
}

impl Attribute {
    /// Every attribute in sheet order.
    pub const ALL: [Attribute; 6] = [
        Attribute::Power,
        Attribute::Grace,
        Attribute::Cunning,
        Attribute::Endurance,
        Attribute::Resolve,
        Attribute::Spirit,
    ];

    /// The name a sheet shows.
    pub fn name(self) -> &'static str {
        match self {
            Attribute::Power => "Power",
            Attribute::Grace => "Grace",
            Attribute::Cunning => "Cunning",
            Attribute::Endurance => "Endurance",
            Attribute::Resolve => "Resolve",
            Attribute::Spirit => "Spirit",
        }
    }
}

/// Skills a sheet may list (absent skills are at level 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Skill {
    /// Priority tie-breaks, odd-ball behaviour.
    Tactics,
    /// Leading assaults.
    Command,
    /// Grapples and fists.
    UnarmedCombat,
    /// Healing handicaps.
    Medicine,
    /// Handling animals.
    Totemism,
    /// Rifles, pistols.
    Firearms,
    /// Bows, crossbows.
    Archery,
    /// Swords, axes, daggers.
    Blades,
    /// Clubs, hammers, maces.
    Bludgeons,
    /// Spears, pikes.
    Polearms,
    /// Grenades, javelins, stones.
    Thrown,
    /// Cannons, catapults.
    Artillery,
}

impl Skill {
    /// The name a sheet shows.
    pub fn name(self) -> &'static str {
        match self {
            Skill::Tactics => "Tactics",
            Skill::Command => "Command",
            Skill::UnarmedCombat => "Unarmed combat",
            Skill::Medicine => "Medicine",
            Skill::Totemism => "Totemism",
            Skill::Firearms => "Firearms",
            Skill::Archery => "Archery",
            Skill::Blades => "Blades",
            Skill::Bludgeons => "Bludgeons",
            Skill::Polearms => "Polearms",
            Skill::Thrown => "Thrown",
            Skill::Artillery => "Artillery",
        }
    }
}

/// The attribute block of a sheet.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AttributeSpec {
    /// Power.
    pub power: i32,
    /// Grace.
    pub grace: i32,
    /// Cunning.
    pub cunning: i32,
    /// Endurance.
    pub endurance: i32,
    /// Resolve (Vitality).
    pub resolve: i32,
    /// Spirit.
    pub spirit: i32,
}

/// Items carried (used by the rules of the next Fiend Wake issue).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Item {
    /// A grenade.
    Grenade,
    /// A bag of caltrops.
    Caltrops,
}

/// A Fiend Wake character sheet.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sheet {
    /// Attributes.
    pub attributes: AttributeSpec,
    /// The difficulty to hit this combatant.
    pub evasion: i32,
    /// Skill levels.
    #[serde(default)]
    pub skills: BTreeMap<Skill, i32>,
    /// Weapon ids carried (from the rules' catalogue).
    #[serde(default)]
    pub weapons: Vec<String>,
    /// The weapon ready when the fight starts, if any.
    #[serde(default)]
    pub ready: Option<String>,
    /// Armour id worn, if any.
    #[serde(default)]
    pub armour: Option<String>,
    /// Items carried.
    #[serde(default)]
    pub items: Vec<Item>,
    /// Added to the round-prep TP (negative for a surprised combatant).
    #[serde(default)]
    pub tp_adjust: i32,
    /// The attribute whose stack numbers handicaps mark first (Spirit when absent).
    #[serde(default)]
    pub handicaps_to: Option<Attribute>,
    /// Ongoing spells.
    #[serde(default)]
    pub spells: Vec<SpellSpec>,
}

/// A Fiend Wake mount sheet.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MountSheet {
    /// An untrained animal must be wrangled before it can be ridden.
    pub untrained: bool,
    /// The GM agrees this untrained animal can be wrangled.
    pub wranglable: bool,
    /// Difficulty of the wrangling roll.
    pub training_difficulty: i32,
    /// TP taken off each entry cost while riding (the mount's movement).
    pub entry_discount: i32,
    /// Added to the rider's Evasion.
    pub evasion_bonus: i32,
    /// Added to the rider's melee hits.
    pub melee_bonus: i32,
}

/// What an ongoing spell does while it is fueled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SpellEffect {
    /// Adds to damage reduction.
    Reduction(i32),
    /// Adds to Evasion.
    Evasion(i32),
    /// Removes this many wounds from the track when fueled.
    Regenerate(i32),
}

/// An ongoing magical effect a combatant can keep fueled in the aftermath.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpellSpec {
    /// Shown name (also its id on this combatant).
    pub name: String,
    /// TP to fuel it for the next round.
    pub upkeep: i32,
    /// What it does while fueled.
    pub effect: SpellEffect,
    /// Fueled when the fight starts.
    #[serde(default = "yes")]
    pub active: bool,
}

fn yes() -> bool {
    true
}

/// Attributes and numbers above this are refused as absurd.
pub const MAX_STAT: i32 = 30;

/// A property of a location with an effect the rules apply.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum LocationProperty {
    /// Tactical points to enter it, before rubble ([`DEFAULT_ENTRY_COST`] when not given).
    EntryCost(u32),
    /// Whoever begins a turn here takes this many wounds (caltrops).
    WoundsAtTurnStart(u32),
    /// Each point of siege damage on the location raises its entry cost by this much (rubble).
    RubblePerSiege(u32),
    /// With this much siege damage the location collapses: its occupants fall to no location
    /// and it can no longer be entered.
    CollapsesAt(u32),
    /// Attacks and assaults made into the location from outside are this much harder.
    Cover(u32),
    /// The difficulty of assaulting this location (instead of the ruleset's default).
    AssaultDifficulty(u32),
    /// Text for the table; no rule effect.
    Note(String),
}

/// What entering a location costs when the scenario gives no [`LocationProperty::EntryCost`].
pub const DEFAULT_ENTRY_COST: u32 = 1;
/// Entry costs above this are refused as absurd.
pub const MAX_ENTRY_COST: u32 = 100;

impl fray_core::scenario::LocationProperty for LocationProperty {
    /// Files before entry costs were Fiend Wake's own wrote `entry_cost: n` on a location.
    fn from_entry_cost(cost: u32) -> Option<Self> {
        Some(LocationProperty::EntryCost(cost))
    }
}
