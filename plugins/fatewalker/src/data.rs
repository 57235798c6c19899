//! FateWalker's data: the tables (modifiers, range bands, movement rates, tick costs, the
//! default wound chart), the weapon and armour catalogues, and the scenario's `rules` block,
//! character sheet and vehicle sheet. The defaults live in `data/defaults.ron`, embedded in
//! the crate; a scenario may replace the tables and add to the catalogues.

use std::collections::BTreeMap;

use fray_core::edit::{
    Round, RoundScenery, SceneryList, free_name, round_scenery_of, take_named, take_weapons,
};
use fray_core::ids::{CombatantId, SideId};
use serde::{Deserialize, Serialize};

/// The embedded default tables and catalogues.
pub const DEFAULTS_RON: &str = include_str!("../data/defaults.ron");

/// Stats and skills above this are refused as absurd.
pub const MAX_STAT: u32 = 30;

/// The scenario's `rules` block.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FateWalkerRules {
    /// Replaces the default tables when given.
    pub tables: Option<Tables>,
    /// Weapons added to (or replacing ids of) the default catalogue.
    pub weapons: BTreeMap<String, Weapon>,
    /// Armours added to (or replacing ids of) the default catalogue.
    pub armours: BTreeMap<String, Armour>,
    /// Things to hide behind.
    pub covers: Vec<Cover>,
    /// Light and weather.
    pub conditions: Conditions,
    /// Surprise penalty in ticks, by side, added to that side's initiative.
    pub surprise: BTreeMap<SideId, u32>,
    /// The combatant who takes the free action before initiative (an ambush).
    pub ambusher: Option<CombatantId>,
    /// Scripted events at given ticks (tick 0: before initiative, opening the fight).
    pub events: Vec<ScriptedEvent>,
}

/// A combatant brought from another scenario brings the weapons and the armour its sheet
/// names, where this scenario lacks them (under names of their own where it has others).
impl fray_core::edit::EditRules<Sheet, MountSheet> for FateWalkerRules {
    fn take_for_combatant(&mut self, from: &Self, sheet: &mut Sheet) {
        take_weapons(&mut self.weapons, &from.weapons, &mut sheet.weapons, &mut sheet.ready);
        if let Some(a) = &mut sheet.armour {
            take_named(&mut self.armours, &from.armours, a);
        }
    }

    fn scenery_kinds(&self) -> Vec<(&'static str, &'static str)> {
        vec![
            ("cover", "whoever stands still within it is in its cover"),
            ("light", "no darkness penalty within it"),
        ]
    }

    fn round_scenery(&self) -> Vec<RoundScenery> {
        let mut all = round_scenery_of("cover", &self.covers);
        all.extend(round_scenery_of("light", &self.conditions.lights));
        all
    }

    fn scenery_list(&mut self, kind: &str) -> Option<&mut dyn SceneryList> {
        match kind {
            "cover" => Some(&mut self.covers),
            "light" => Some(&mut self.conditions.lights),
            _ => None,
        }
    }
}

impl Round for Cover {
    fn disc(&mut self) -> (&mut (f32, f32), &mut f32) {
        (&mut self.position, &mut self.radius)
    }

    fn name(&self) -> String {
        self.name.clone()
    }

    fn taken(&self) -> Vec<String> {
        vec![self.id.clone(), self.name.clone()]
    }

    fn made(like: Option<&Self>, at: (f32, f32), taken: &[String]) -> Self {
        let plain = Cover {
            id: String::new(),
            name: String::new(),
            position: at,
            radius: 1.5,
            percent: 50,
            material: "brick".to_owned(),
        };
        let made = like.cloned().unwrap_or(plain);
        Cover {
            id: free_name("cover", "_", taken),
            name: free_name("Cover", " ", taken),
            position: at,
            ..made
        }
    }
}

/// Something that happens at a given tick whatever anyone does: a bomb, a trap, a collapse.
/// It damages everyone within its radius.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScriptedEvent {
    /// The tick it happens (0: before initiative).
    pub tick: u32,
    /// What it is, for the log.
    pub name: String,
    /// Where, in metres.
    pub position: (f32, f32),
    /// Everyone within this many metres is hit.
    pub radius: f32,
    /// Damage dice, e.g. "4x3/2x1" (rolled for each one hit).
    pub damage: String,
    /// Target number of the damage roll.
    pub damage_target: u32,
    /// Damage type (armour deflection applies).
    pub damage_type: DamageType,
    /// Deals stun damage.
    #[serde(default)]
    pub stun: bool,
}

/// The embedded defaults: tables and catalogues.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Defaults {
    /// The tables.
    pub tables: Tables,
    /// Standard weapons.
    pub weapons: BTreeMap<String, Weapon>,
    /// Standard armours.
    pub armours: BTreeMap<String, Armour>,
}

impl Defaults {
    /// The embedded defaults. They are checked by the crate's tests, so they always parse.
    pub fn embedded() -> Defaults {
        fray_core::scenario::parse_ron(DEFAULTS_RON).expect("data/defaults.ron parses (tested)")
    }
}

/// Every number of the rule text's charts and the crate's interpretations.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tables {
    /// Faces of a die, numbered from 0 (ten: 0 to 9).
    pub die_faces: u32,
    /// Initiative: `base + surprise - successes`, at least `minimum`.
    pub initiative: InitiativeTable,
    /// Successes an attack needs to hit.
    pub hit_successes: u32,
    /// Fewer successes than this is a critical failure.
    pub critical_below: u32,
    /// Tick costs of actions, reactions and movement changes.
    pub ticks: TickCosts,
    /// Ticks in a movement segment.
    pub segment_ticks: u32,
    /// Metres covered per segment, as a multiple of Speed, by movement mode (riding uses the
    /// vehicle's speed instead).
    pub movement: BTreeMap<MoveMode, f32>,
    /// Every this many wound penalties take 1 from Speed.
    pub wound_penalties_per_speed: u32,
    /// Metres a character may shift for free as part of another action.
    pub free_shift: f32,
    /// Metres within which a vehicle may be mounted.
    pub mount_reach: f32,
    /// The ranged combat modifier chart.
    pub ranged: RangedTable,
    /// The melee combat modifier chart.
    pub melee: MeleeTable,
    /// The range and visibility chart.
    pub visibility: VisibilityTable,
    /// The barrier chart: material to barrier rating.
    pub barriers: BTreeMap<String, u32>,
    /// Melee reach in metres by weapon size.
    pub reach: BTreeMap<Reach, f32>,
    /// The wound chart of a character whose sheet names none.
    pub wound_chart: WoundChartSpec,
    /// The consciousness roll after stun damage on a half-filled chart.
    pub consciousness: ConsciousnessTable,
    /// Temporary wounds heal every this many ticks of a long scene (0: never during a fight).
    pub temporary_wound_ticks: u32,
}

/// Initiative numbers.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InitiativeTable {
    /// From which successes are taken (10).
    pub base: u32,
    /// Target number of the Awareness roll (4).
    pub target: u32,
    /// The earliest starting tick (1).
    pub minimum: u32,
}

/// Tick costs.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TickCosts {
    /// Begin moving (2).
    pub begin_moving: u32,
    /// Change movement type while moving.
    pub change_movement: u32,
    /// Stop moving.
    pub stop_moving: u32,
    /// Ready another carried weapon.
    pub ready_weapon: u32,
    /// Drop prone.
    pub go_prone: u32,
    /// Get up from prone.
    pub stand_up: u32,
    /// Get into a vehicle.
    pub mount: u32,
    /// Get out of a vehicle.
    pub dismount: u32,
    /// The dodge reaction.
    pub dodge: u32,
    /// The parry reaction.
    pub parry: u32,
}

/// Movement modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum MoveMode {
    /// Walking.
    Walk,
    /// Running.
    Run,
    /// Climbing.
    Climb,
    /// Crawling (prone).
    Crawl,
    /// Riding a vehicle or mount.
    Ride,
    /// Swimming.
    Swim,
}

impl MoveMode {
    /// Every mode.
    pub const ALL: [MoveMode; 6] =
        [MoveMode::Walk, MoveMode::Run, MoveMode::Climb, MoveMode::Crawl, MoveMode::Ride, MoveMode::Swim];
}

/// The ranged combat modifier chart (target-number modifiers).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RangedTable {
    /// Attacker prone with a firearm or crossbow.
    pub attacker_prone_firearm: i32,
    /// Attacker prone with a bow or a thrown weapon.
    pub attacker_prone_other: i32,
    /// (metres higher, modifier) rows, highest first wins: high ground, very high ground.
    pub high_ground: Vec<(f32, i32)>,
    /// Attacker in 50% cover.
    pub attacker_cover_50: i32,
    /// Attacker in 90% cover.
    pub attacker_cover_90: i32,
    /// Attacker walking.
    pub attacker_walking: i32,
    /// Attacker running.
    pub attacker_running: i32,
    /// By effective range band.
    pub band: BTreeMap<Band, i32>,
    /// Target immobile (an unconscious target).
    pub target_immobile: i32,
    /// Target prone within this many metres: the modifier.
    pub target_prone_near: (f32, i32),
    /// Target prone beyond this many metres: the modifier.
    pub target_prone_far: (f32, i32),
    /// Target moving: (metres per segment at least, modifier) rows; the last row that
    /// applies wins.
    pub target_moving: Vec<(f32, i32)>,
    /// Beyond the last `target_moving` row: every this many metres more, this modifier more.
    pub target_moving_beyond: (f32, i32),
    /// Target in 50% cover, shooting around it.
    pub target_cover_50: i32,
    /// Target in 90% cover, shooting around it.
    pub target_cover_90: i32,
    /// Shooting through 50% cover (the barrier then deflects).
    pub through_cover_50: i32,
    /// Shooting through 90% cover.
    pub through_cover_90: i32,
}

/// The melee combat modifier chart (target-number modifiers).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeleeTable {
    /// Attacker prone.
    pub attacker_prone: i32,
    /// Attacker running.
    pub attacker_running: i32,
    /// Target prone.
    pub target_prone: i32,
    /// Target moving: (metres per segment at least, modifier) rows; the last that applies wins.
    pub target_moving: Vec<(f32, i32)>,
    /// Beyond the last row: every this many metres more, this modifier more.
    pub target_moving_beyond: (f32, i32),
}

/// Effective range bands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Band {
    /// Short.
    Short,
    /// Medium.
    Medium,
    /// Long.
    Long,
    /// Extreme.
    Extreme,
}

/// The range and visibility chart.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VisibilityTable {
    /// (up to this multiple of visible range, band) rows, in order; beyond the last the
    /// target cannot be seen well enough to shoot.
    pub bands: Vec<(f32, Band)>,
    /// Visible range change by darkness or weather (fractions: -0.25 is -25%).
    pub darkness: BTreeMap<Darkness, f32>,
    /// With IR imaging, a darkness penalty is at worst this.
    pub ir_floor: f32,
    /// Visible range change by target size: (smallest size, largest size, fraction) rows.
    pub sizes: Vec<(u32, u32, f32)>,
}

/// Light and weather.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Darkness {
    /// Daylight, clear.
    #[default]
    Clear,
    /// Low light, light fog or light rain.
    Low,
    /// Bright night, fog or rain.
    Night,
    /// Dark night, heavy fog or heavy rain.
    Dark,
}

/// How well a target is lit. `Dark` and `Dim` were once `None` and `Some`, names RON also
/// gives its options; the old names still read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Illumination {
    /// Unlit.
    #[default]
    #[serde(alias = "None")]
    Dark,
    /// Some light on it: darkness penalties halved.
    #[serde(alias = "Some")]
    Dim,
    /// Well lit: darkness penalties ignored.
    Well,
}

/// Weapon sizes for melee reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Reach {
    /// Short: grapples, knives.
    S,
    /// Medium: strikes, swords.
    M,
    /// Long: kicks, polearms.
    L,
}

/// The roll to stay conscious.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConsciousnessTable {
    /// Target number of the Will roll.
    pub target: u32,
    /// Successes needed to stay conscious.
    pub needed: u32,
}

/// A wound chart's shape.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WoundChartSpec {
    /// Boxes of temporary wounds.
    pub glancing: u32,
    /// Columns of normal wounds, filled left to right, each top to bottom.
    pub columns: Vec<ColumnSpec>,
    /// Boxes of mortal wounds; the character dies when all are filled.
    pub mortal: u32,
}

/// One column of normal wounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ColumnSpec {
    /// Boxes in the column.
    pub boxes: u32,
    /// Wound penalty once the column holds a mark.
    pub wound: u32,
    /// Speed penalty once the column holds a mark.
    pub movement: u32,
}

/// How a weapon is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WeaponKind {
    /// Hand to hand.
    Melee,
    /// Guns and crossbows.
    Firearm,
    /// Bows.
    Bow,
    /// Thrown.
    Thrown,
}

impl WeaponKind {
    /// A weapon that attacks at range.
    pub fn ranged(self) -> bool {
        self != WeaponKind::Melee
    }
}

/// Damage types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum DamageType {
    /// Blades, fists, blunt objects.
    Physical,
    /// Bullets and arrows.
    Ballistic,
    /// Fire, lasers, electricity.
    Energy,
}

/// Damage dealt over time after a hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DotSpec {
    /// Every this many ticks...
    pub every: u32,
    /// ...this much damage...
    pub damage: u32,
    /// ...this many times.
    pub times: u32,
    /// Whether armour absorbs it.
    #[serde(default)]
    pub absorbed: bool,
}

/// A weapon.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Weapon {
    /// Shown name.
    pub name: String,
    /// Melee, firearm, bow or thrown.
    pub kind: WeaponKind,
    /// The skill whose level is the attack's target number.
    pub skill: String,
    /// Ticks an attack with it costs.
    pub ticks: u32,
    /// Damage dice, e.g. "3x3/3x1".
    pub damage: String,
    /// Target number of the damage roll.
    pub damage_target: u32,
    /// Damage type.
    pub damage_type: DamageType,
    /// Short, medium and long range limits in metres (ranged weapons).
    #[serde(default)]
    pub range: Option<(f32, f32, f32)>,
    /// Melee size.
    #[serde(default = "medium")]
    pub reach: Reach,
    /// Deals stun damage.
    #[serde(default)]
    pub stun: bool,
    /// Image magnification of its sight.
    #[serde(default = "one")]
    pub magnification: f32,
    /// Damage over time on a hit.
    #[serde(default)]
    pub dot: Option<DotSpec>,
}

fn medium() -> Reach {
    Reach::M
}

fn one() -> f32 {
    1.0
}

/// Deflection by damage type.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Deflection {
    /// Against physical damage.
    pub physical: u32,
    /// Against ballistic damage.
    pub ballistic: u32,
    /// Against energy damage.
    pub energy: u32,
}

impl Deflection {
    /// The deflection against a damage type.
    pub fn against(&self, t: DamageType) -> u32 {
        match t {
            DamageType::Physical => self.physical,
            DamageType::Ballistic => self.ballistic,
            DamageType::Energy => self.energy,
        }
    }
}

/// An armour.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Armour {
    /// Shown name.
    pub name: String,
    /// Damage absorbed from every attack.
    pub absorb: u32,
    /// Damage dice demoted, by type.
    #[serde(default)]
    pub deflection: Deflection,
}

/// Something to hide behind, standing on the field.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cover {
    /// Stable id.
    pub id: String,
    /// Shown name.
    pub name: String,
    /// Centre, in metres.
    pub position: (f32, f32),
    /// Whoever stands still within this many metres is in its cover.
    pub radius: f32,
    /// 50 or 90 (% of the body hidden).
    pub percent: u32,
    /// A material of the barrier chart.
    pub material: String,
}

/// Light and weather of the scene.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Conditions {
    /// Darkness or weather.
    pub darkness: Darkness,
    /// Lights: (centre, radius in metres); no darkness penalty on a target within one.
    pub lights: Vec<((f32, f32), f32)>,
}

/// A character sheet.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sheet {
    /// Senses and reactions: dice of the initiative roll.
    pub awareness: u32,
    /// Dice of attack and dodge rolls.
    pub prowess: u32,
    /// Dice of the consciousness roll; with Prowess, the bleeding interval.
    pub will: u32,
    /// Damage per source that may go to temporary wounds.
    pub resilience: u32,
    /// Metres walked in a segment.
    pub speed: u32,
    /// Metres seen clearly.
    #[serde(default = "default_visible_range")]
    pub visible_range: f32,
    /// Body size (10 is a person).
    #[serde(default = "default_size")]
    pub size: u32,
    /// Skill levels by name: a skill's level is its rolls' target number.
    #[serde(default)]
    pub skills: BTreeMap<String, u32>,
    /// Carried weapons (catalogue ids).
    #[serde(default)]
    pub weapons: Vec<String>,
    /// The weapon in hand.
    #[serde(default)]
    pub ready: Option<String>,
    /// Worn armour (catalogue id).
    #[serde(default)]
    pub armour: Option<String>,
    /// The character's own wound chart; absent, the table's.
    #[serde(default)]
    pub wound_chart: Option<WoundChartSpec>,
    /// Starts prone.
    #[serde(default)]
    pub prone: bool,
    /// Metres above the street.
    #[serde(default)]
    pub elevation: f32,
    /// Has IR imaging.
    #[serde(default)]
    pub ir: bool,
    /// How well lit the character is.
    #[serde(default)]
    pub illumination: Illumination,
    /// A starting tick set by the GM: no initiative roll.
    #[serde(default)]
    pub initiative: Option<u32>,
    /// Becomes aware of the fight at this tick and rolls initiative then.
    #[serde(default)]
    pub joins_at: Option<u32>,
}

fn default_visible_range() -> f32 {
    100.0
}

fn default_size() -> u32 {
    10
}

/// A vehicle or mount's sheet.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MountSheet {
    /// Metres covered per segment when ridden.
    pub speed: f32,
    /// Cover it gives its rider (0, 50 or 90).
    pub cover: u32,
    /// Barrier-chart material of that cover.
    pub material: Option<String>,
}

impl Default for MountSheet {
    fn default() -> Self {
        Self { speed: 10.0, cover: 0, material: None }
    }
}
