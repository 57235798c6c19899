//! The components a FateWalker combatant carries, and the table's catalogue (tables,
//! weapons, armours, covers, conditions) shared as a resource.

use std::collections::BTreeMap;
use std::sync::Arc;

use bevy_ecs::prelude::*;

use crate::data::{
    Armour, Conditions, Cover, DamageType, Defaults, Illumination, MountSheet, MoveMode, Tables, Weapon,
};
use crate::dice::DamageDice;

/// Attributes.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Traits {
    /// Dice of the initiative roll; ties of declaration are broken by it.
    pub awareness: u32,
    /// Dice of attacks and reactions.
    pub prowess: u32,
    /// Dice of the consciousness roll.
    pub will: u32,
    /// Damage per source the temporary wounds may take.
    pub resilience: u32,
    /// Metres walked per segment, before wounds.
    pub speed: u32,
}

/// Skill levels (a skill's level is its rolls' target number).
#[derive(Component, Clone, Debug, Default)]
pub struct Skills(pub BTreeMap<String, u32>);

impl Skills {
    /// The level of a skill (0 when untrained).
    pub fn level(&self, skill: &str) -> u32 {
        self.0.get(skill).copied().unwrap_or(0)
    }
}

/// Senses and how the character is seen.
#[derive(Component, Clone, Copy, Debug)]
pub struct Senses {
    /// Metres seen clearly.
    pub visible_range: f32,
    /// Body size (10 is a person).
    pub size: u32,
    /// IR imaging.
    pub ir: bool,
    /// How well lit the character is.
    pub illumination: Illumination,
}

/// Carried weapons and the one in hand.
#[derive(Component, Clone, Debug, Default)]
pub struct Arms {
    /// Catalogue ids.
    pub carried: Vec<String>,
    /// The weapon in hand.
    pub ready: Option<String>,
}

/// Worn armour (catalogue id).
#[derive(Component, Clone, Debug, Default)]
pub struct Worn(pub Option<String>);

/// Prone or standing, and how high above the street.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct Stance {
    /// Lying down.
    pub prone: bool,
    /// Metres above the street.
    pub elevation: f32,
}

/// A combatant's place on the tick timeline.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ActionClock {
    /// The next tick at which the character may declare an action.
    pub next: u32,
    /// Holding an action: may declare at any tick and act preemptively.
    pub holding: bool,
    /// Has rolled initiative (late joiners have not, until they notice the fight).
    pub joined: bool,
    /// Becomes aware of the fight at this tick.
    pub joins_at: Option<u32>,
    /// A starting tick set by the GM.
    pub fixed_initiative: Option<u32>,
}

/// Moving: mode, destination and the current segment.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct Motion {
    /// How.
    pub mode: MoveMode,
    /// Where to, in metres.
    pub to: [f32; 2],
    /// The tick the current segment ends (the distance is covered then).
    pub segment_end: u32,
}

/// A damage-over-time effect (bleeding, fire, poison).
#[derive(Clone, Debug, PartialEq)]
pub struct Affliction {
    /// What it is, for the log.
    pub what: String,
    /// Every this many ticks.
    pub every: u32,
    /// This much damage.
    pub damage: u32,
    /// Next tick it strikes.
    pub next: u32,
    /// Times left (`None`: until the fight ends).
    pub remaining: Option<u32>,
    /// Armour absorbs it.
    pub absorbed: bool,
    /// Stun damage.
    pub stun: bool,
}

/// Damage-over-time effects on a combatant.
#[derive(Component, Clone, Debug, Default)]
pub struct Afflictions(pub Vec<Affliction>);

/// A vehicle's traits (on a core `Mount`).
#[derive(Component, Clone, Debug, Default)]
pub struct Vehicle(pub MountSheet);

/// The table's tables and catalogues.
#[derive(Resource, Clone, Debug)]
pub struct Catalogue(pub Arc<CatalogueData>);

/// What the [`Catalogue`] shares.
#[derive(Clone, Debug)]
pub struct CatalogueData {
    /// The tables.
    pub tables: Tables,
    /// Weapons by id.
    pub weapons: BTreeMap<String, Weapon>,
    /// Damage dice of each weapon, parsed.
    pub damage: BTreeMap<String, DamageDice>,
    /// Armours by id.
    pub armours: BTreeMap<String, Armour>,
    /// Covers.
    pub covers: Vec<Cover>,
    /// Light and weather.
    pub conditions: Conditions,
}

impl Default for Catalogue {
    fn default() -> Self {
        Catalogue::new(&crate::data::FateWalkerRules::default())
    }
}

impl Catalogue {
    /// The defaults with a scenario's rules block laid over them.
    pub fn new(rules: &crate::data::FateWalkerRules) -> Catalogue {
        let defaults = Defaults::embedded();
        let mut weapons = defaults.weapons;
        weapons.extend(rules.weapons.clone());
        let mut armours = defaults.armours;
        armours.extend(rules.armours.clone());
        let damage = weapons
            .iter()
            .filter_map(|(id, w)| Some((id.clone(), DamageDice::parse(&w.damage).ok()?)))
            .collect();
        Catalogue(Arc::new(CatalogueData {
            tables: rules.tables.clone().unwrap_or(defaults.tables),
            weapons,
            damage,
            armours,
            covers: rules.covers.clone(),
            conditions: rules.conditions.clone(),
        }))
    }

    /// The tables.
    pub fn tables(&self) -> &Tables {
        &self.0.tables
    }

    /// A weapon by id.
    pub fn weapon(&self, id: &str) -> Option<&Weapon> {
        self.0.weapons.get(id)
    }

    /// A weapon's damage dice.
    pub fn damage(&self, id: &str) -> DamageDice {
        self.0.damage.get(id).cloned().unwrap_or_default()
    }

    /// An armour by id.
    pub fn armour(&self, id: &str) -> Option<&Armour> {
        self.0.armours.get(id)
    }

    /// A barrier-chart rating (0 for an unknown material).
    pub fn barrier(&self, material: &str) -> u32 {
        self.0.tables.barriers.get(material).copied().unwrap_or(0)
    }

    /// Absorb and deflection of an armour against a damage type.
    pub fn protection(&self, armour: Option<&str>, t: DamageType) -> (u32, u32) {
        armour.and_then(|a| self.armour(a)).map_or((0, 0), |a| (a.absorb, a.deflection.against(t)))
    }
}
