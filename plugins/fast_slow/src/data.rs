//! Fast & Slow's scenario data: the rules block (numbers the text leaves open, traps,
//! hazards) and the combatant sheet (stamina, limb pools, dice, weapons, bold actions).
//! Every number a GM may want to change lives here, in the scenario's RON.

use std::collections::BTreeMap;

use fray_core::edit::{Round, RoundScenery, SceneryList, free_name, round_scenery_of};
use fray_core::ids::SideId;
use serde::{Deserialize, Serialize};

/// The scenario's `rules` block.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FastSlowRules {
    /// The players' side (it wins leadership ties and gets the free movement).
    pub players: Option<SideId>,
    /// A side surprised into combat: no leadership roll, it goes last, and it accrues no
    /// FOG in round one.
    pub surprised: Option<SideId>,
    /// Paces of base movement on a Slow turn, and of one move action.
    pub paces: f32,
    /// Paces of free movement the success roll grants.
    pub free_paces: f32,
    /// The Defy roll's DL to stay conscious when the torso's pool reaches zero.
    pub torso_defy_dl: u32,
    /// Points a potion restores (torso first, then stamina).
    pub potion_heal: u32,
    /// Reach within which a potion is given to someone else, in Paces.
    pub hand_reach: f32,
    /// FOG one may stake on an attack roll at most (each staked point adds 1).
    pub max_stake: u32,
    /// The DL of a skill roll made as an action in combat.
    pub skill_dl: u32,
    /// Paces from the battlefield's edge within which one may flee on a Slow turn.
    pub flee_reach: f32,
    /// Base Paces it costs to go prone, and to stand up.
    pub prone_cost: f32,
    /// See `prone_cost`.
    pub stand_cost: f32,
    /// Width and height of the battlefield, in Paces, centred on (0, 0).
    pub field: (f32, f32),
    /// Traps on the field.
    pub traps: Vec<TrapSpec>,
    /// Hazards that act in the upkeep.
    pub hazards: Vec<HazardSpec>,
}

/// Its sheets name no catalogue of the rules block: nothing to take along.
impl fray_core::edit::EditRules<FastSlowSheet, ()> for FastSlowRules {
    fn scenery_kinds(&self) -> Vec<(&'static str, &'static str)> {
        vec![
            ("trap", "springs on whoever ends a move in it"),
            ("hazard", "grows and hurts everyone in it each upkeep"),
        ]
    }

    fn round_scenery(&self) -> Vec<RoundScenery> {
        let mut all = round_scenery_of("trap", &self.traps);
        all.extend(round_scenery_of("hazard", &self.hazards));
        all
    }

    fn scenery_list(&mut self, kind: &str) -> Option<&mut dyn SceneryList> {
        match kind {
            "trap" => Some(&mut self.traps),
            "hazard" => Some(&mut self.hazards),
            _ => None,
        }
    }
}

impl Round for TrapSpec {
    fn disc(&mut self) -> (&mut (f32, f32), &mut f32) {
        (&mut self.at, &mut self.radius)
    }

    fn name(&self) -> String {
        self.name.clone()
    }

    fn taken(&self) -> Vec<String> {
        vec![self.id.clone(), self.name.clone()]
    }

    fn made(like: Option<&Self>, at: (f32, f32), taken: &[String]) -> Self {
        let plain = TrapSpec {
            id: String::new(),
            name: String::new(),
            at,
            radius: 1.0,
            dl: 8,
            damage: 2,
            defences: vec![Defence::Dodge],
        };
        let made = like.cloned().unwrap_or(plain);
        TrapSpec { id: free_name("trap", "_", taken), name: free_name("Trap", " ", taken), at, ..made }
    }
}

impl Round for HazardSpec {
    fn disc(&mut self) -> (&mut (f32, f32), &mut f32) {
        (&mut self.at, &mut self.radius)
    }

    fn name(&self) -> String {
        self.name.clone()
    }

    fn taken(&self) -> Vec<String> {
        vec![self.id.clone(), self.name.clone()]
    }

    fn made(like: Option<&Self>, at: (f32, f32), taken: &[String]) -> Self {
        let plain = HazardSpec {
            id: String::new(),
            name: String::new(),
            at,
            radius: 1.5,
            grows: 0.0,
            damage: 1,
            to_health: false,
        };
        let made = like.cloned().unwrap_or(plain);
        HazardSpec { id: free_name("hazard", "_", taken), name: free_name("Hazard", " ", taken), at, ..made }
    }
}

impl Default for FastSlowRules {
    fn default() -> Self {
        Self {
            players: None,
            surprised: None,
            paces: 4.0,
            free_paces: 4.0,
            torso_defy_dl: 8,
            potion_heal: 4,
            hand_reach: 1.5,
            flee_reach: 1.0,
            max_stake: 3,
            skill_dl: 8,
            prone_cost: 1.0,
            stand_cost: 2.0,
            field: (24.0, 16.0),
            traps: Vec::new(),
            hazards: Vec::new(),
        }
    }
}

/// A trap: it springs on whoever ends a move within its radius.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrapSpec {
    /// Stable id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its centre, in Paces.
    pub at: (f32, f32),
    /// Its radius, in Paces.
    #[serde(default = "one_pace")]
    pub radius: f32,
    /// The DL of the defence against it.
    pub dl: u32,
    /// Damage when it triggers.
    pub damage: u32,
    /// The defences that work against it (Dodge, Handle).
    pub defences: Vec<Defence>,
}

fn one_pace() -> f32 {
    1.0
}

/// A hazard: in each upkeep it grows and hurts everyone in it.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HazardSpec {
    /// Stable id.
    pub id: String,
    /// Its name ("rising water").
    pub name: String,
    /// Its centre, in Paces.
    pub at: (f32, f32),
    /// Its radius at the start, in Paces.
    pub radius: f32,
    /// Paces its radius grows in each upkeep, before it strikes.
    #[serde(default)]
    pub grows: f32,
    /// Damage to everyone in it, in each upkeep.
    pub damage: u32,
    /// The damage goes straight to a limb's pool, past stamina.
    #[serde(default)]
    pub to_health: bool,
}

/// A combatant's sheet.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FastSlowSheet {
    /// Stamina points: damage wears these first.
    pub stamina: u32,
    /// The health pools of the head, torso, arms and legs.
    pub health: Limbs,
    /// The Difficulty an attack must beat.
    pub difficulty: u32,
    /// Toughness: what a Brace takes off stamina damage, times 1 to 3.
    #[serde(default)]
    pub toughness: u32,
    /// Attributes by name (an attack adds the one its weapon names).
    #[serde(default)]
    pub attributes: BTreeMap<String, u32>,
    /// Skills by name, each with the faces of its die (4 to 12).
    #[serde(default)]
    pub skills: BTreeMap<String, u32>,
    /// The four defences.
    pub defences: Defences,
    /// Weapons and spellroots.
    pub weapons: Vec<WeaponSpec>,
    /// Bold actions (a Path's abilities, paid in FOG).
    #[serde(default)]
    pub bold: Vec<BoldSpec>,
    /// Techniques: effects tacked onto an attack, unlocked by a skill's die.
    #[serde(default)]
    pub techniques: Vec<TechniqueSpec>,
    /// The side's leader (its leadership roll); else the side's first combatant rolls.
    #[serde(default)]
    pub leader: bool,
    /// Added to the leadership roll.
    #[serde(default)]
    pub leadership: u32,
    /// An ability that makes the GM reveal Fast/Slow choices before the players commit.
    #[serde(default)]
    pub forces_reveal: bool,
    /// Potions carried.
    #[serde(default)]
    pub potions: u32,
    /// Arrives with the reinforcements in this round's upkeep.
    #[serde(default)]
    pub joins: Option<u32>,
}

/// The six health pools.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Limbs {
    /// Head: at zero, death.
    pub head: u32,
    /// Torso: at zero, Defy or fall, and die unless healed before the end.
    pub torso: u32,
    /// Left arm.
    pub left_arm: u32,
    /// Right arm.
    pub right_arm: u32,
    /// Left leg.
    pub left_leg: u32,
    /// Right leg.
    pub right_leg: u32,
}

/// A limb, as the d6 hit location names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Limb {
    /// 1.
    Head,
    /// 2.
    Torso,
    /// 3.
    LeftArm,
    /// 4.
    RightArm,
    /// 5.
    LeftLeg,
    /// 6 (the text prints "Left Leg" twice; the second is read as the right leg).
    RightLeg,
}

impl Limb {
    /// Every limb, in the d6's order.
    pub const ALL: [Limb; 6] =
        [Limb::Head, Limb::Torso, Limb::LeftArm, Limb::RightArm, Limb::LeftLeg, Limb::RightLeg];

    /// The limb a d6 face hits.
    pub fn of_face(face: u32) -> Limb {
        Limb::ALL[(face.clamp(1, 6) - 1) as usize]
    }

    /// Its name for people.
    pub fn word(self) -> &'static str {
        match self {
            Limb::Head => "head",
            Limb::Torso => "torso",
            Limb::LeftArm => "left arm",
            Limb::RightArm => "right arm",
            Limb::LeftLeg => "left leg",
            Limb::RightLeg => "right leg",
        }
    }
}

impl Limbs {
    /// One pool.
    pub fn get(&self, limb: Limb) -> u32 {
        match limb {
            Limb::Head => self.head,
            Limb::Torso => self.torso,
            Limb::LeftArm => self.left_arm,
            Limb::RightArm => self.right_arm,
            Limb::LeftLeg => self.left_leg,
            Limb::RightLeg => self.right_leg,
        }
    }

    /// One pool, to change.
    pub fn get_mut(&mut self, limb: Limb) -> &mut u32 {
        match limb {
            Limb::Head => &mut self.head,
            Limb::Torso => &mut self.torso,
            Limb::LeftArm => &mut self.left_arm,
            Limb::RightArm => &mut self.right_arm,
            Limb::LeftLeg => &mut self.left_leg,
            Limb::RightLeg => &mut self.right_leg,
        }
    }
}

/// The four defences.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Defence {
    /// Holding firm: reduces stamina damage; the only defence against a Fast turn's attack.
    Brace,
    /// Resisting a spell (intangible spells must be Defied).
    Defy,
    /// Getting out of the way: no damage and 1 to 3 Paces back.
    Dodge,
    /// Dealing with a trap: stall, reset or disable it.
    Handle,
}

impl Defence {
    /// Every defence.
    pub const ALL: [Defence; 4] = [Defence::Brace, Defence::Defy, Defence::Dodge, Defence::Handle];

    /// Its name.
    pub fn word(self) -> &'static str {
        match self {
            Defence::Brace => "Brace",
            Defence::Defy => "Defy",
            Defence::Dodge => "Dodge",
            Defence::Handle => "Handle",
        }
    }
}

/// A defence's die and bonus, per defence.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Defences {
    /// Brace.
    pub brace: DefenceDie,
    /// Defy.
    pub defy: DefenceDie,
    /// Dodge.
    pub dodge: DefenceDie,
    /// Handle.
    pub handle: DefenceDie,
}

impl Defences {
    /// One defence's die and bonus.
    pub fn get(&self, d: Defence) -> DefenceDie {
        match d {
            Defence::Brace => self.brace,
            Defence::Defy => self.defy,
            Defence::Dodge => self.dodge,
            Defence::Handle => self.handle,
        }
    }
}

/// A defence die (4 to 12 faces) and the bonus added to the highest die.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DefenceDie {
    /// Faces of the defence die.
    pub die: u32,
    /// Added to the highest die.
    #[serde(default)]
    pub bonus: u32,
}

/// A weapon or a spellroot.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeaponSpec {
    /// Stable id (the log's `weapon`).
    pub id: String,
    /// Its name.
    pub name: String,
    /// The skill that gives proficiency (its die is rolled with the d12); none: a 1.
    #[serde(default)]
    pub skill: Option<String>,
    /// The attribute added to the highest die.
    #[serde(default)]
    pub attribute: Option<String>,
    /// Other bonuses added to the highest die.
    #[serde(default)]
    pub bonus: u32,
    /// Damage by degree: the lowest die 1–4, 5–8, 9–12.
    pub damage: [u32; 3],
    /// How far it reaches, in Paces.
    #[serde(default = "melee_reach")]
    pub reach: f32,
    /// A weapon, or a tangible or intangible spellroot.
    #[serde(default)]
    pub kind: WeaponKind,
    /// Rounds of poison a hit leaves (1 stamina damage in each upkeep).
    #[serde(default)]
    pub poison: u32,
    /// It strikes the health pools directly, past stamina.
    #[serde(default)]
    pub to_health: bool,
    /// A spellroot its caster may sustain on a target it hit: FOG and the effect again in
    /// each upkeep.
    #[serde(default)]
    pub sustain: Option<SustainSpec>,
}

/// How a spellroot is sustained.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SustainSpec {
    /// Faces of the FOG die its caster rolls in each upkeep.
    pub fog: u32,
    /// Upkeeps it lasts; it runs out at the end of the round of the last.
    pub rounds: u32,
}

/// A technique.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TechniqueSpec {
    /// Its name.
    pub name: String,
    /// The skill it belongs to (weapons of that skill can use it).
    pub skill: String,
    /// The faces the skill's die needs for it to be unlocked.
    #[serde(default = "eight")]
    pub unlock: u32,
    /// What it adds to a hit.
    pub effect: TechniqueEffect,
}

fn eight() -> u32 {
    8
}

/// What a technique adds to a hit that lands.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum TechniqueEffect {
    /// The target falls prone.
    Knockdown,
    /// The target is pushed straight away from the attacker.
    Shove {
        /// Paces.
        paces: f32,
    },
    /// The target bleeds: 1 stamina in each upkeep for some rounds.
    Bleed {
        /// Rounds.
        rounds: u32,
    },
}

fn melee_reach() -> f32 {
    1.5
}

/// What kind of attack a weapon makes: it decides the defences that work against it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum WeaponKind {
    /// A weapon: Braced or Dodged.
    #[default]
    Weapon,
    /// A tangible spellroot: Braced, Dodged or Defied.
    Spell,
    /// An intangible spellroot: Defied only.
    IntangibleSpell,
}

impl WeaponKind {
    /// A spellroot (a second cast in a turn is at disadvantage, apart from attacks).
    pub fn is_spell(self) -> bool {
        self != WeaponKind::Weapon
    }
}

/// A bold action.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoldSpec {
    /// Its name.
    pub name: String,
    /// Faces of the die rolled for its FOG cost at each use.
    pub fog: u32,
    /// What it does.
    pub effect: BoldEffect,
}

/// What a bold action does.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum BoldEffect {
    /// An attack with one's weapon (by index) and a bonus, costing no action.
    Strike {
        /// The weapon's index on the sheet.
        weapon: usize,
        /// Added to the highest die.
        bonus: u32,
    },
    /// Restores stamina to oneself or someone within hand's reach.
    Mend {
        /// Stamina restored.
        amount: u32,
    },
    /// Damage after one's own attack hit the target this turn: a separate source, reduced
    /// again as the hit was.
    FollowUp {
        /// Damage.
        damage: u32,
    },
}
