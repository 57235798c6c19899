//! The Initiative ladder's data as scenarios give it (RON): the rules block (the field, the
//! ambushers, covers and areas, the GM's events, the numbers the text leaves open), the
//! sheet (attributes, trained skills, armour, weapons and their qualities), mounts, and the
//! tables bundled in `data/tables.ron` (conditions, fumbles, movement sub-types).

use std::collections::BTreeMap;

use fray_core::edit::{Round, RoundScenery, SceneryList, free_name, round_scenery_of};
use fray_core::ids::SideId;
use serde::{Deserialize, Serialize};

/// The seven primary attributes, in percent; a bonus is the tens digit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Attribute {
    /// Fighting: [CB] is added to damage.
    Combat,
    /// Strength: [BB] in the Damage Threshold.
    Brawn,
    /// Quickness: [AB] sets Movement.
    Agility,
    /// Senses: [PB] sets Initiative.
    Perception,
    /// Wits.
    Intelligence,
    /// Resolve: [WB] sets the Peril Threshold.
    Willpower,
    /// Presence: [FB] allies or foes a speech reaches.
    Fellowship,
}

/// The skills a fight tests. A skill a sheet does not list is untrained: its chance is the
/// attribute alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Skill {
    /// Clubs, knives, spears.
    SimpleMelee,
    /// Swords, axes, polearms.
    MartialMelee,
    /// Slings, bows, thrown things.
    SimpleRanged,
    /// Crossbows, firearms.
    MartialRanged,
    /// Grappling, pushing, jumping.
    Athletics,
    /// Dodging, balance, deft hands.
    Coordination,
    /// Noticing.
    Awareness,
    /// Tricks.
    Guile,
    /// Enduring.
    Toughness,
    /// Rallying.
    Leadership,
    /// Threats.
    Intimidate,
    /// Magick.
    Incantation,
    /// Reading a foe.
    Scrutinize,
    /// Riding a mount.
    Ride,
    /// Driving a vehicle.
    Drive,
    /// Calming a beast.
    HandleAnimal,
    /// Sneaking.
    Stealth,
    /// Soldiering (resisting a Breaker).
    Warfare,
    /// Binding wounds.
    Heal,
}

impl Skill {
    /// The attribute it is tested with.
    pub fn attribute(self) -> Attribute {
        match self {
            Skill::SimpleMelee | Skill::MartialMelee | Skill::SimpleRanged | Skill::MartialRanged => {
                Attribute::Combat
            }
            Skill::Athletics | Skill::Toughness => Attribute::Brawn,
            Skill::Coordination | Skill::Ride | Skill::Drive | Skill::Stealth => Attribute::Agility,
            Skill::Awareness | Skill::Scrutinize => Attribute::Perception,
            Skill::Incantation | Skill::Warfare | Skill::Heal => Attribute::Intelligence,
            Skill::Guile | Skill::Intimidate | Skill::HandleAnimal => Attribute::Fellowship,
            Skill::Leadership => Attribute::Fellowship,
        }
    }

    /// Its name.
    pub fn word(self) -> &'static str {
        match self {
            Skill::SimpleMelee => "Simple Melee",
            Skill::MartialMelee => "Martial Melee",
            Skill::SimpleRanged => "Simple Ranged",
            Skill::MartialRanged => "Martial Ranged",
            Skill::Athletics => "Athletics",
            Skill::Coordination => "Coordination",
            Skill::Awareness => "Awareness",
            Skill::Guile => "Guile",
            Skill::Toughness => "Toughness",
            Skill::Leadership => "Leadership",
            Skill::Intimidate => "Intimidate",
            Skill::Incantation => "Incantation",
            Skill::Scrutinize => "Scrutinize",
            Skill::Ride => "Ride",
            Skill::Drive => "Drive",
            Skill::HandleAnimal => "Handle Animal",
            Skill::Stealth => "Stealth",
            Skill::Warfare => "Warfare",
            Skill::Heal => "Heal",
        }
    }
}

/// A combatant's attributes, in percent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Attributes {
    /// Combat.
    pub combat: u32,
    /// Brawn.
    pub brawn: u32,
    /// Agility.
    pub agility: u32,
    /// Perception.
    pub perception: u32,
    /// Intelligence.
    pub intelligence: u32,
    /// Willpower.
    pub willpower: u32,
    /// Fellowship.
    pub fellowship: u32,
}

impl Attributes {
    /// An attribute's value.
    pub fn get(&self, a: Attribute) -> u32 {
        match a {
            Attribute::Combat => self.combat,
            Attribute::Brawn => self.brawn,
            Attribute::Agility => self.agility,
            Attribute::Perception => self.perception,
            Attribute::Intelligence => self.intelligence,
            Attribute::Willpower => self.willpower,
            Attribute::Fellowship => self.fellowship,
        }
    }

    /// An attribute's bonus: its tens digit.
    pub fn bonus(&self, a: Attribute) -> u32 {
        self.get(a) / 10
    }
}

/// A weapon's (or an armour's) quality, as the qualities table names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Quality {
    /// +1 damage held in two hands.
    Adaptable,
    /// Cannot be disarmed.
    Arming,
    /// Fires while engaged; the defender's reaction is flipped to fail.
    Artillery,
    /// -10 to resist a Disarm made with it.
    Binding,
    /// Forbids Charge, Maneuver and Run while wielded.
    Brace,
    /// A Finesse weapon it parries may be Ruined! (1 AP more; the attacker resists with Warfare).
    Breaker,
    /// Its injuries bleed.
    Dangerous,
    /// A hit blasts everyone within the burst template (a 6-yard circle) around the target.
    Detonate,
    /// A hit sets the foe, and those engaged with it, on fire unless each passes Coordination.
    Fiery,
    /// +10 to Parry with it.
    Defensive,
    /// A hit forces a Resist against a Takedown, flipped to fail.
    Entangling,
    /// Taking aim with it in hand makes each engaged foe resist Dirty Tricks (Awareness) or be
    /// blinded.
    Distraction,
    /// -10 to the defender's Dodge or Parry.
    Fast,
    /// [AB] instead of [CB] for damage.
    Finesse,
    /// May Dodge with Athletics.
    Flexible,
    /// Fires while engaged; cannot be dodged or parried.
    Gunpowder,
    /// Thrown or shot, it makes no hit: a cloud of choking gas (a 6-yard circle) comes down
    /// around the target; whoever is in it takes Peril at once and at each of its turns' start.
    Gas,
    /// A shield useless until fixed on the ground (1 AP): medium cover there, and the one
    /// person beside it parries ranged attacks as with a Protective weapon.
    FreeStanding,
    /// Armour: no Coordination to Dodge, no Incantation.
    Heavy,
    /// A hit sets the foe on fire unless it passes Coordination; then the flame is out.
    Immolate,
    /// Deals no damage.
    Ineffective,
    /// +1 damage to the melee weapon in the primary hand, held in the off-hand (`off_hand`).
    Light,
    /// A weapon: +5 to strike with it; a shield: +1 Damage Threshold while at hand; armour:
    /// lighter (encumbrance is not tracked).
    MakersMark,
    /// +10 to Dodge.
    Natural,
    /// Usable in cramped spaces without a malus.
    Personal,
    /// A hit sprays the foes in a cone from the wielder through the target (16 yards long,
    /// 1 yard wide at its start, 5 at its end).
    Shrapnel,
    /// A hit blasts everyone within the explosion template (a 10-yard circle) around the
    /// target.
    Siege,
    /// A hit forces a Toughness Resist or a shove out of the engagement.
    Powerful,
    /// Parries ranged attacks.
    Protective,
    /// [BB] instead of [CB] for damage; Moderate Injuries only, which never bleed.
    Pummeling,
    /// +1 Fury Die for +1 AP.
    Punishing,
    /// Fired, the wielder resists with Toughness or is shoved out of the engagement; a critical
    /// failure injures its arm as badly as it is wounded.
    Recoil,
    /// Three shots before reloading.
    Repeating,
    /// Cannot be ruined.
    CastleForged,
    /// +10 to the defender's Dodge or Parry.
    Slow,
    /// Thrown, it makes no hit: a cloud (a 6-yard circle) comes down around the target.
    Smoke,
    /// Thrown at short range only.
    Throwing,
    /// A shield: a Fortune Point spent turns a weapon's blow aside, destroying it.
    Splintered,
    /// One Chaos Die more for an injury.
    Vicious,
    /// After a critical failure with it, a Chaos Die: 1 to 5 it misfires (useless for the
    /// fight), 6 it explodes in its wielder's hands (2d10+2 damage, no reaction).
    Volatile,
    /// Nine shots before reloading.
    Volley,
    /// A hit sets the foe on fire unless it passes Coordination; harmed, it gains 3
    /// Corruption.
    Wytchfyre,
    /// No Grievous Injuries: a Serious one instead.
    Weak,
}

/// What kind of attack a weapon makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WeaponKind {
    /// Strikes foes within reach.
    Melee,
    /// Shot, with distance steps of its range.
    Ranged,
    /// Thrown: at short range only.
    Thrown,
    /// Magick at this many AP (1 petty, 2 lesser, 3 greater), an Incantation test.
    Spell {
        /// Its AP cost.
        ap: u32,
    },
}

/// How large a weapon is, for cramped spaces.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum WeaponSize {
    /// Knives, fists: no malus anywhere.
    Personal,
    /// Swords, clubs.
    #[default]
    Regular,
    /// Spears, greatswords.
    Long,
    /// Pikes, polearms: strike 1 yard farther.
    Reach,
}

/// A weapon, a shield or a spell on a sheet.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Weapon {
    /// Stable id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Melee, ranged, thrown or a spell.
    pub kind: WeaponKind,
    /// The skill it is used with.
    pub skill: Skill,
    /// Added to damage.
    #[serde(default)]
    pub damage: i32,
    /// Its qualities.
    #[serde(default)]
    pub qualities: Vec<Quality>,
    /// Short range in yards (ranged and thrown); medium is twice it, long thrice, extreme four times.
    #[serde(default)]
    pub range: f32,
    /// AP to load after each shot (or after its Repeating or Volley shots).
    #[serde(default)]
    pub load: u32,
    /// Held in two hands.
    #[serde(default)]
    pub two_handed: bool,
    /// Its size in cramped spaces.
    #[serde(default)]
    pub size: WeaponSize,
    /// A shield (splinter shield ruins it).
    #[serde(default)]
    pub shield: bool,
    /// Ruined! at the start (-3 damage; a shield cannot parry).
    #[serde(default)]
    pub ruined: bool,
}

impl Weapon {
    /// It has this quality.
    pub fn has(&self, q: Quality) -> bool {
        self.qualities.contains(&q)
    }

    /// Shots between loads (0: loads nothing).
    pub fn shots(&self) -> u32 {
        if self.load == 0 {
            0
        } else if self.has(Quality::Volley) {
            9
        } else if self.has(Quality::Repeating) {
            3
        } else {
            1
        }
    }

    /// It strikes in melee.
    pub fn melee(&self) -> bool {
        self.kind == WeaponKind::Melee
    }
}

/// Armour worn.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Armour {
    /// Its name.
    pub name: String,
    /// Added to the Damage Threshold.
    pub threshold: u32,
    /// Its qualities (Heavy).
    #[serde(default)]
    pub qualities: Vec<Quality>,
    /// Ruined!: adds nothing.
    #[serde(default)]
    pub ruined: bool,
}

/// A combatant's sheet.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ApLadderSheet {
    /// Attributes, in percent.
    pub attributes: Attributes,
    /// Trained skills: percent added to the attribute (10 a rank).
    #[serde(default)]
    pub skills: BTreeMap<Skill, u32>,
    /// Armour.
    #[serde(default)]
    pub armour: Armour,
    /// Weapons, shields and spells; fists are always at hand.
    #[serde(default)]
    pub weapons: Vec<Weapon>,
    /// The weapon in hand at the start (an index of `weapons`; none: fists).
    #[serde(default)]
    pub wields: Option<usize>,
    /// A Light weapon held in the other hand (an index of `weapons`): +1 damage to the melee
    /// weapon in hand.
    #[serde(default)]
    pub off_hand: Option<usize>,
    /// Fate Points: one spent saves from Slain!.
    #[serde(default)]
    pub fate: u32,
    /// Fortune Points.
    #[serde(default)]
    pub fortune: u32,
    /// Size: 1 a person, 2 twice an ogre's, 3 thrice.
    #[serde(default = "one")]
    pub size: u32,
    /// Knows Counterspell.
    #[serde(default)]
    pub counterspell: bool,
    /// Carries an Arcane Tome or Prayer Book (Channel power).
    #[serde(default)]
    pub tome: bool,
    /// Conditions at the start (Intoxicated, Prone…).
    #[serde(default)]
    pub conditions: Vec<Condition>,
}

fn one() -> u32 {
    1
}

impl ApLadderSheet {
    /// A skill's chance: the attribute plus the trained ranks.
    pub fn chance(&self, s: Skill) -> i32 {
        (self.attributes.get(s.attribute()) + self.skills.get(&s).copied().unwrap_or(0)) as i32
    }

    /// The skill is trained.
    pub fn trained(&self, s: Skill) -> bool {
        self.skills.contains_key(&s)
    }

    /// An attribute's bonus.
    pub fn bonus(&self, a: Attribute) -> u32 {
        self.attributes.bonus(a)
    }
}

/// A mount or a vehicle's sheet.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ApLadderMount {
    /// Which sub-type of movement it gives.
    pub kind: Option<MoveSubtype>,
    /// Its Agility Bonus.
    #[serde(default)]
    pub agility_bonus: u32,
    /// Its Brawn Bonus (a trample's damage; its Damage Threshold).
    #[serde(default)]
    pub brawn_bonus: u32,
    /// Its barding: added to its Damage Threshold.
    #[serde(default)]
    pub barding: u32,
}

/// A movement sub-type (the sub-types table): +1 AP, a skill test at the start of the
/// movement, a distance of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum MoveSubtype {
    /// Climbing.
    Climbing,
    /// Sneaking.
    Sneaking,
    /// Swimming.
    Swimming,
    /// On a dog sled.
    DogSled,
    /// On a dray horse.
    DrayHorse,
    /// On a stagecoach or wagon.
    Wagon,
    /// On a palfrey.
    Palfrey,
    /// On a fancy coach.
    FancyCoach,
    /// On a rouncey.
    Rouncey,
    /// On a carriage.
    Carriage,
    /// On a courser.
    Courser,
    /// On a chariot.
    Chariot,
    /// On a destrier.
    Destrier,
    /// Flying.
    Flying,
}

/// A sub-type's row: which bonus, plus what, tested with which skill.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SubtypeRow {
    /// The sub-type.
    pub subtype: MoveSubtype,
    /// Its name.
    pub name: String,
    /// The bonus the distance starts from ([AB] or [BB], the mount's when mounted).
    pub bonus: Attribute,
    /// Added to the bonus.
    pub plus: i32,
    /// Never less than this.
    pub minimum: u32,
    /// The test at the start of the movement.
    pub skill: Skill,
    /// A vehicle (driven: Drive) rather than a beast (ridden).
    #[serde(default)]
    pub vehicle: bool,
}

/// The conditions of the conditions table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Condition {
    /// No Counterspell, Dodge or Parry.
    Blinded,
    /// No action but a Resist to escape.
    Choked,
    /// No reaction.
    Defenseless,
    /// The primary hand's weapon lies 3 yards away; that hand is useless until the next turn.
    Disarmed,
    /// Defenseless and unable to act; an attack slays.
    Helpless,
    /// No skill test succeeds.
    Incapacitated,
    /// +1 Damage and Peril Thresholds.
    Inspired,
    /// -1 Damage and Peril Thresholds.
    Intimidated,
    /// +3 Damage Threshold.
    Intoxicated,
    /// Unconscious and Helpless.
    KnockedOut,
    /// On the ground: +1D6 Fury Die taken.
    Prone,
    /// Dead.
    Slain,
    /// One AP less at the next turn's start.
    Stunned,
    /// +1D6 Fury Die taken, no reaction.
    Surprised,
    /// Burning: damage at the start of each of its turns until put out.
    OnFire,
    /// Sneaking past a Stealth test: no ranged attack from beyond an engagement, no
    /// opportunity attack on its sneaking moves; lifted once it acts openly or is struck.
    Unseen,
    /// An injury bleeds: a Chaos Die at each of its turns' start, a 6 one step down the damage
    /// track, until the wound is bound.
    Bleeding,
}

/// The reactions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Reaction {
    /// Dispels a spell (1 AP).
    Counterspell,
    /// Avoids a melee or ranged attack (1 AP).
    Dodge,
    /// Avoids a melee attack (1 AP).
    Parry,
    /// Withstands an effect (0 AP).
    Resist,
}

impl Reaction {
    /// Its name.
    pub fn word(self) -> &'static str {
        match self {
            Reaction::Counterspell => "Counterspell",
            Reaction::Dodge => "Dodge",
            Reaction::Parry => "Parry",
            Reaction::Resist => "Resist",
        }
    }
}

/// When a condition ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Lasts {
    /// At the start of the bearer's next turn.
    NextTurnStart,
    /// At the end of the bearer's next turn.
    NextTurnEnd,
    /// Until the fight ends (or another effect lifts it).
    Combat,
    /// Until an action lifts it (getting up, a chokehold let go, waking).
    Lifted,
}

/// A condition's row: its effects, read by the rules.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConditionRow {
    /// The condition.
    pub condition: Condition,
    /// Its label on tokens.
    pub label: String,
    /// Its mark on tokens: a PNG under `assets/`.
    #[serde(default)]
    pub icon: Option<String>,
    /// Reactions it forbids.
    #[serde(default)]
    pub blocks: Vec<Reaction>,
    /// No reaction at all.
    #[serde(default)]
    pub no_reactions: bool,
    /// No action (a choked character may still Resist).
    #[serde(default)]
    pub no_actions: bool,
    /// Extra Fury Dice (d6) in the damage it takes.
    #[serde(default)]
    pub fury_taken: u32,
    /// Added to the Damage Threshold.
    #[serde(default)]
    pub damage_threshold: i32,
    /// Added to the Peril Threshold.
    #[serde(default)]
    pub peril_threshold: i32,
    /// AP less at the start of each turn that finds it held (stunned then ends).
    #[serde(default)]
    pub ap_lost: u32,
    /// Corruption gained with it.
    #[serde(default)]
    pub corruption: u32,
    /// No skill test succeeds.
    #[serde(default)]
    pub tests_fail: bool,
    /// An attack on it hits and slays.
    #[serde(default)]
    pub slain_by_attack: bool,
    /// When it ends.
    pub lasts: Lasts,
}

/// What a fumble does, where the fight can see it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum FumbleEffect {
    /// A Coordination test (+20 for a two-handed weapon), else the weapon in hand drops.
    TestOrDrop,
    /// A Coordination test, else Prone.
    TestOrProne,
    /// The fumbler and its allies suffer this much mental Peril (1d10+1).
    GroupPeril,
    /// The next AP is lost.
    LoseAp,
    /// Physical Peril: dice of ten and a bonus.
    Peril {
        /// d10s.
        dice: u32,
        /// Added.
        plus: u32,
    },
    /// Damage to oneself: dice of ten and a bonus.
    Wound {
        /// d10s.
        dice: u32,
        /// Added.
        plus: u32,
    },
    /// The GM makes the ground worse (logged for the GM).
    Terrain,
    /// The weapon in hand is Ruined!.
    ItemRuined,
    /// Something carried is Ruined!: a weapon not in hand (drawn at random), else the armour,
    /// else the GM says what.
    CarriedRuined,
    /// The weapon in hand drops.
    Drop,
    /// Prone.
    Prone,
    /// A hit does 1d6 less damage; a miss rolls again on the table.
    LessDamage,
    /// A Fortune Point is lost; none left: roll again.
    LoseFortune,
    /// One place down the ladder.
    LoseLadderPlace,
    /// A random condition (Blinded, Stunned, Prone, Defenseless or Disarmed).
    RandomCondition,
    /// An engaged ally's tests flip to fail until the end of its next turn (oneself if none).
    Hamper,
    /// The foe strikes back at once with an opportunity attack.
    Opening,
    /// Something unforeseen: the GM narrates it (logged).
    Chaos,
    /// A miss strikes oneself; a hit hurts oneself for 1d10+1 too.
    SelfHit,
    /// The foe hits back at once, automatically.
    AutoHit,
    /// A Toughness test against a lingering disease (logged for the GM).
    Disease,
    /// The next hit that harms the fumbler injures it, no dice rolled.
    NextHitInjures,
    /// A miss strikes an engaged ally; a hit also strikes it (its threshold +3); oneself if none.
    AllyHit,
    /// Corruption: dice of ten and a bonus.
    Corruption {
        /// d10s.
        dice: u32,
        /// Added.
        plus: u32,
    },
    /// A severe setback from the surroundings (logged for the GM).
    Environment,
}

/// A fumble table row.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FumbleRow {
    /// Its weight: the chance is the weight over the table's total.
    pub weight: u32,
    /// Its name.
    pub name: String,
    /// What it does.
    pub effect: FumbleEffect,
    /// In words, for the log.
    pub text: String,
}

/// How bad an injury is: the damage condition it comes with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Severity {
    /// Comes with Moderately Wounded.
    Moderate,
    /// Comes with Seriously Wounded.
    Serious,
    /// Comes with Grievously Wounded.
    Grievous,
}

impl Severity {
    /// Its name.
    pub fn word(self) -> &'static str {
        match self {
            Severity::Moderate => "moderate",
            Severity::Serious => "serious",
            Severity::Grievous => "grievous",
        }
    }

    /// The severity that comes with a step of the damage track (2 moderately … 4 grievously
    /// wounded); none for the others.
    pub fn of_step(step: u32) -> Option<Severity> {
        match step {
            2 => Some(Severity::Moderate),
            3 => Some(Severity::Serious),
            4 => Some(Severity::Grievous),
            _ => None,
        }
    }
}

/// What an injury does while it lasts (the rest of the fight), where the fight can see it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum InjuryEffect {
    /// Added to the tests of these skills (every test when the list is empty).
    Tests {
        /// The skills; empty: all.
        skills: Vec<Skill>,
        /// Added, e.g. -10.
        amount: i32,
    },
    /// Yards off Movement (one yard is always left).
    Slower(u32),
    /// Added to the Damage Threshold.
    Threshold(i32),
    /// When it is taken: the weapon in hand falls.
    Drop,
    /// When it is taken: prone.
    Prone,
    /// When it is taken: stunned.
    Stunned,
}

/// An injury table row.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InjuryRow {
    /// Its name.
    pub name: String,
    /// How bad it is.
    pub severity: Severity,
    /// Where it is (the hit location).
    pub region: crate::intent::Aim,
    /// What it does.
    #[serde(default)]
    pub effects: Vec<InjuryEffect>,
    /// It bleeds.
    #[serde(default)]
    pub bleeds: bool,
}

impl InjuryRow {
    /// Its effects in words, e.g. "-10 to Athletics, 2 yards slower, bleeds".
    pub fn summary(&self) -> String {
        let mut parts: Vec<String> = self
            .effects
            .iter()
            .map(|e| match e {
                InjuryEffect::Tests { skills, amount } if skills.is_empty() => {
                    format!("{amount:+} to every test")
                }
                InjuryEffect::Tests { skills, amount } => {
                    let names: Vec<&str> = skills.iter().map(|s| s.word()).collect();
                    format!("{amount:+} to {}", names.join(", "))
                }
                InjuryEffect::Slower(y) => format!("{y} yd slower"),
                InjuryEffect::Threshold(t) => format!("Damage Threshold {t:+}"),
                InjuryEffect::Drop => "drops the weapon in hand".to_owned(),
                InjuryEffect::Prone => "falls prone".to_owned(),
                InjuryEffect::Stunned => "stunned".to_owned(),
            })
            .collect();
        if self.bleeds {
            parts.push("bleeds".to_owned());
        }
        parts.join(", ")
    }
}

/// The tables shipped with the ruleset (`data/tables.ron`); a scenario may replace any.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tables {
    /// The conditions table.
    pub conditions: Vec<ConditionRow>,
    /// The fumble table.
    pub fumbles: Vec<FumbleRow>,
    /// The movement sub-types.
    pub subtypes: Vec<SubtypeRow>,
    /// The injury table (a scenario's tables without one keep the bundled injuries).
    #[serde(default = "bundled_injuries")]
    pub injuries: Vec<InjuryRow>,
}

/// The bundled injury table.
fn bundled_injuries() -> Vec<InjuryRow> {
    Tables::default().injuries
}

/// The tables as bundled.
pub const TABLES: &str = include_str!("../data/tables.ron");

impl Default for Tables {
    fn default() -> Self {
        // Read once: every battle of a balance run starts from them.
        static BUNDLED: std::sync::OnceLock<Tables> = std::sync::OnceLock::new();
        // The bundled file is checked by a test; an unreadable one would be a build defect.
        let read = || {
            fray_core::scenario::parse_ron(TABLES).unwrap_or(Tables {
                conditions: Vec::new(),
                fumbles: Vec::new(),
                subtypes: Vec::new(),
                injuries: Vec::new(),
            })
        };
        BUNDLED.get_or_init(read).clone()
    }
}

impl Tables {
    /// A condition's row.
    pub fn condition(&self, c: Condition) -> Option<&ConditionRow> {
        self.conditions.iter().find(|r| r.condition == c)
    }

    /// A sub-type's row.
    pub fn subtype(&self, s: MoveSubtype) -> Option<&SubtypeRow> {
        self.subtypes.iter().find(|r| r.subtype == s)
    }
}

/// How well a cover protects.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum CoverLevel {
    /// A crate or a barrel: +3.
    Low,
    /// A waist-high wall: +6.
    Medium,
    /// A pillar: +9.
    High,
    /// Cannot be targeted by ranged attacks.
    Full,
}

impl CoverLevel {
    /// What it adds to the Damage Threshold against ranged attacks.
    pub fn threshold(self) -> u32 {
        match self {
            CoverLevel::Low => 3,
            CoverLevel::Medium => 6,
            CoverLevel::High => 9,
            CoverLevel::Full => 0,
        }
    }

    /// Its name.
    pub fn word(self) -> &'static str {
        match self {
            CoverLevel::Low => "low",
            CoverLevel::Medium => "medium",
            CoverLevel::High => "high",
            CoverLevel::Full => "full",
        }
    }
}

/// A solid cover on the field.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CoverSpec {
    /// Stable id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its centre, in yards.
    pub at: (f32, f32),
    /// Who stands within this many yards of it is behind it.
    pub radius: f32,
    /// How well it protects.
    pub level: CoverLevel,
}

/// What an area of the field is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AreaKind {
    /// Hard terrain: no Charge, Maneuver or Run through it.
    Hard,
    /// Cramped: Regular and larger weapons -10.
    Cramped,
    /// Bad visibility: -10 to attack into or out of it.
    Fog,
    /// Darkness: -30.
    Dark,
    /// Higher ground: +10 to attack from it at those below.
    High,
    /// Deep water: moving in it is swimming.
    Water,
    /// A wall or a cliff: moving on it is climbing.
    Climb,
    /// A gap (a ditch, a chasm): no one stands in it; a run jumps it.
    Gap,
    /// A smoke cloud: bad visibility, and no shot beyond short range from inside it.
    Smoke,
    /// A cloud of gas: bad visibility, and Peril to whoever is in it at its turn's start.
    Gas,
}

impl AreaKind {
    /// Its name.
    pub fn word(self) -> &'static str {
        match self {
            AreaKind::Hard => "hard terrain",
            AreaKind::Cramped => "cramped",
            AreaKind::Fog => "bad visibility",
            AreaKind::Dark => "darkness",
            AreaKind::High => "higher ground",
            AreaKind::Water => "deep water: swimming",
            AreaKind::Climb => "climbing",
            AreaKind::Gap => "a gap: run and jump it",
            AreaKind::Smoke => "smoke: no long shots from inside",
            AreaKind::Gas => "gas: choking",
        }
    }
}

/// An area of the field (a disc).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AreaSpec {
    /// Stable id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// What it is.
    pub kind: AreaKind,
    /// Its centre, in yards.
    pub at: (f32, f32),
    /// Its radius, in yards.
    pub radius: f32,
    /// Higher ground's height in yards: above 0, it is entered from below only by a run that
    /// leaps onto it.
    #[serde(default, skip_serializing_if = "is_level")]
    pub height: f32,
}

fn is_level(height: &f32) -> bool {
    *height == 0.0
}

/// An environmental event the GM places on the ladder (at 2d10+2).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventSpec {
    /// Stable id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// What happens, for the log.
    pub text: String,
    /// Where it strikes (none: nowhere, a narrated happening).
    #[serde(default)]
    pub at: Option<(f32, f32)>,
    /// Its radius, in yards.
    #[serde(default)]
    pub radius: f32,
    /// Damage: 1d10 plus this, against each one's Damage Threshold (0: none).
    #[serde(default)]
    pub damage: u32,
    /// Peril: 1d10 plus this, against each one's Peril Threshold (0: none).
    #[serde(default)]
    pub peril: u32,
}

/// The numbers the text leaves open (every one read in `RULES.md`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Numbers {
    /// Movement is [AB] plus this, in yards.
    pub movement_plus: u32,
    /// Initiative is [PB] plus this.
    pub initiative_plus: u32,
    /// The Peril Threshold is [WB] plus this.
    pub peril_plus: u32,
    /// Each step of damage over a threshold this many points moves one more step down.
    pub step: u32,
    /// Steps one hit moves down at most.
    pub max_steps: u32,
    /// Yards within which two foes are engaged.
    pub engaged: f32,
    /// Yards a Reach weapon strikes.
    pub reach: f32,
    /// Yards a speech carries (Inspiring words, Litany of hatred).
    pub hearing: f32,
    /// Yards a disarmed weapon lands away.
    pub disarm_yards: f32,
    /// Yards a push moves the foe back.
    pub push_yards: f32,
    /// Yards a push to the side moves the foe.
    pub push_side_yards: f32,
    /// Yards from which a dropped weapon may be picked up.
    pub pick_up: f32,
    /// Yards of run-up a jump needs.
    pub run_up: f32,
    /// Points of Brawn Bonus a yard of jump takes.
    pub jump_per: u32,
    /// Points of Brawn Bonus a yard of leap (upward) takes.
    pub leap_per: u32,
    /// The radius of a smoke cloud or a Detonate blast (the text's 6-yard burst template is
    /// its width).
    pub burst: f32,
    /// The radius of a Siege blast (the 10-yard explosion template).
    pub explosion: f32,
    /// A Shrapnel cone's length, and its width at its start and at its end, in yards.
    pub cone: (f32, f32, f32),
    /// Burning: 1d10 plus this at the start of each of the burning one's turns.
    pub burn_plus: u32,
    /// AP to put a fire out (a Coordination test).
    pub put_out_ap: u32,
    /// Chaos Dice rolled for an injury by a blow that leaves its victim moderately,
    /// seriously, grievously wounded; any 6 injures.
    pub injury_dice: (u32, u32, u32),
    /// AP to bind a bleeding wound (a Heal test).
    pub bind_ap: u32,
    /// Added to the 1d10 of Peril a gas cloud does.
    pub gas_plus: u32,
}

impl Default for Numbers {
    fn default() -> Self {
        Self {
            movement_plus: 3,
            initiative_plus: 3,
            peril_plus: 3,
            step: 6,
            max_steps: 3,
            engaged: 1.5,
            reach: 2.5,
            hearing: 12.0,
            disarm_yards: 3.0,
            push_yards: 2.0,
            push_side_yards: 1.0,
            pick_up: 1.0,
            run_up: 6.0,
            jump_per: 3,
            leap_per: 6,
            burst: 3.0,
            explosion: 5.0,
            cone: (16.0, 1.0, 5.0),
            burn_plus: 1,
            put_out_ap: 2,
            injury_dice: (1, 2, 3),
            bind_ap: 2,
            gas_plus: 3,
        }
    }
}

/// The rules block of a scenario.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ApLadderRules {
    /// The field's width and height in yards, centred on (0, 0).
    pub field: (f32, f32),
    /// The side that ambushes: a surprise turn opens the fight.
    pub ambushers: Option<SideId>,
    /// The whole field is cramped.
    pub cramped: bool,
    /// Covers.
    pub covers: Vec<CoverSpec>,
    /// Areas.
    pub areas: Vec<AreaSpec>,
    /// The GM's events on the ladder.
    pub events: Vec<EventSpec>,
    /// Open numbers.
    pub numbers: Numbers,
    /// Replaces the bundled tables.
    pub tables: Option<Tables>,
}

/// Its sheets name no catalogue of the rules block: nothing to take along.
impl fray_core::edit::EditRules<ApLadderSheet, ApLadderMount> for ApLadderRules {
    fn scenery_kinds(&self) -> Vec<(&'static str, &'static str)> {
        vec![("cover", "who stands within it is behind it"), ("area", "hard terrain, fog, water… within it")]
    }

    fn round_scenery(&self) -> Vec<RoundScenery> {
        let mut all = round_scenery_of("cover", &self.covers);
        all.extend(round_scenery_of("area", &self.areas));
        all
    }

    fn scenery_list(&mut self, kind: &str) -> Option<&mut dyn SceneryList> {
        match kind {
            "cover" => Some(&mut self.covers),
            "area" => Some(&mut self.areas),
            _ => None,
        }
    }
}

impl Round for CoverSpec {
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
        let level = like.map_or(CoverLevel::Medium, |l| l.level);
        let radius = like.map_or(1.2, |l| l.radius);
        CoverSpec {
            id: free_name("cover", "_", taken),
            name: free_name("Cover", " ", taken),
            at,
            radius,
            level,
        }
    }
}

impl Round for AreaSpec {
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
        let kind = like.map_or(AreaKind::Hard, |l| l.kind);
        let radius = like.map_or(3.0, |l| l.radius);
        let height = like.map_or(0.0, |l| l.height);
        AreaSpec {
            id: free_name("area", "_", taken),
            name: free_name("Area", " ", taken),
            kind,
            at,
            radius,
            height,
        }
    }
}

impl Default for ApLadderRules {
    fn default() -> Self {
        Self {
            field: (30.0, 20.0),
            ambushers: None,
            cramped: false,
            covers: Vec::new(),
            areas: Vec::new(),
            events: Vec::new(),
            numbers: Numbers::default(),
            tables: None,
        }
    }
}
