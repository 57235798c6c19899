//! The Initiative ladder's phases, the fight in progress (the ladder, whose turn, an attack
//! waiting on its defender, chokeholds, dropped weapons) and each combatant's live state.

use std::collections::BTreeMap;

use bevy_ecs::prelude::*;
use fray_core::phase::Phase;

use crate::data::{ApLadderRules, ApLadderSheet, Condition, Lasts, Reaction, Tables};

/// The phases: the ladder is rolled once, a surprise turn may follow, then turns and their
/// ends alternate until the fight is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ApLadderPhase {
    /// Everyone rolls 1d10 + Initiative; the GM's events are placed at 2d10+2.
    Ladder,
    /// The ambushers act; the surprised cannot react.
    SurpriseTurn,
    /// Down the ladder, each combatant's turn with 3 AP (and each event's rung).
    Turns,
    /// The end of the turn: ongoing effects run, some conditions end.
    EndOfTurn,
    /// The fight is over.
    Over,
}

impl Phase for ApLadderPhase {
    const ALL: &'static [Self] = &[
        ApLadderPhase::Ladder,
        ApLadderPhase::SurpriseTurn,
        ApLadderPhase::Turns,
        ApLadderPhase::EndOfTurn,
        ApLadderPhase::Over,
    ];
    const OVER: Self = ApLadderPhase::Over;

    fn name(self) -> &'static str {
        match self {
            ApLadderPhase::Ladder => "ladder",
            ApLadderPhase::SurpriseTurn => "surprise_turn",
            ApLadderPhase::Turns => "turns",
            ApLadderPhase::EndOfTurn => "end_of_turn",
            ApLadderPhase::Over => "over",
        }
    }

    fn title(self) -> &'static str {
        match self {
            ApLadderPhase::Ladder => "Initiative ladder",
            ApLadderPhase::SurpriseTurn => "Surprise turn",
            ApLadderPhase::Turns => "Turns",
            ApLadderPhase::EndOfTurn => "End of the turn",
            ApLadderPhase::Over => "Over",
        }
    }
}

/// Who stands on a rung of the ladder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RungOf {
    /// A combatant.
    Fighter(Entity),
    /// One of the GM's events (its index in the rules).
    Event(usize),
}

/// A rung: who, and the score that placed it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rung {
    /// Who.
    pub of: RungOf,
    /// 1d10 + Initiative, or 2d10+2 for an event.
    pub score: u32,
    /// Has had its go this turn.
    pub done: bool,
}

/// What strikes in an attack waiting on its defender.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strike {
    /// A weapon (its index) or fists (none).
    Weapon(Option<usize>),
    /// A mount's trample.
    Trample,
}

/// An attack that hit, waiting on its defender's reaction.
#[derive(Clone, Debug, PartialEq)]
pub struct PendingAttack {
    /// The cause's number: a missed reaction is not tried again against it.
    pub cause: u64,
    /// The attacker.
    pub attacker: Entity,
    /// The defender.
    pub defender: Entity,
    /// What strikes.
    pub strike: Strike,
    /// Reactions allowed against it (before AP and conditions).
    pub allowed: Vec<Reaction>,
    /// The attack's modifiers in total: the defender's is the opposite.
    pub difficulty: i32,
    /// Quality modifiers to the defender's Dodge or Parry (Fast -10, Slow +10).
    pub defence_mod: i32,
    /// Flip the defender's reaction to fail (Artillery).
    pub flip_defence: bool,
    /// Fury Dice in its damage.
    pub fury: u32,
    /// The hit location.
    pub location: &'static str,
    /// A subduing attack.
    pub subdue: bool,
    /// A ranged attack (cover counts).
    pub ranged: bool,
    /// A fumble's 1d6 less damage.
    pub less: bool,
    /// Aimed at the defender's mount: the mount takes the harm.
    pub at_mount: bool,
}

impl PendingAttack {
    /// A plain melee hit of `strike` with one Fury Die at `location`, that no reaction
    /// answers: the base the other hits are made from.
    pub fn new(
        cause: u64,
        attacker: Entity,
        defender: Entity,
        strike: Strike,
        location: &'static str,
    ) -> Self {
        Self {
            cause,
            attacker,
            defender,
            strike,
            allowed: Vec::new(),
            difficulty: 0,
            defence_mod: 0,
            flip_defence: false,
            fury: 1,
            location,
            subdue: false,
            ranged: false,
            less: false,
            at_mount: false,
        }
    }
}

/// A chokehold kept on a victim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choke {
    /// Who holds.
    pub holder: Entity,
    /// Who is choked.
    pub victim: Entity,
    /// Kept up (3 AP) on the holder's turn now running, or set this turn.
    pub kept: bool,
    /// The cause's number (the victim's missed Resist is not tried again this turn).
    pub cause: u64,
}

/// A weapon lying on the field.
#[derive(Clone, Debug, PartialEq)]
pub struct Dropped {
    /// Its owner.
    pub owner: Entity,
    /// Its index on the owner's sheet.
    pub weapon: usize,
    /// Where it lies, in yards.
    pub at: [f32; 2],
}

/// The fight in progress.
#[derive(Resource, Clone, Debug, Default)]
pub struct Battle {
    /// The turn, from 1 (0 for the surprise turn).
    pub turn: u32,
    /// The fight ends after this turn.
    pub limit: u32,
    /// The ladder, first first.
    pub ladder: Vec<Rung>,
    /// Whose turn it is.
    pub acting: Option<Entity>,
    /// An attack waiting on its defender.
    pub pending: Option<PendingAttack>,
    /// Chokeholds kept.
    pub chokes: Vec<Choke>,
    /// Weapons on the ground.
    pub dropped: Vec<Dropped>,
    /// Where Free-standing shields stand fixed on the ground.
    pub fixed: Vec<[f32; 2]>,
    /// The rules block.
    pub rules: ApLadderRules,
    /// The tables in force.
    pub tables: Tables,
    /// Causes numbered so far.
    pub causes: u64,
    /// Those who wait (holding their AP), first first.
    pub holding: Vec<Entity>,
    /// A waiting one asked whether it steps in before the next rung.
    pub offer: Option<Entity>,
    /// The rung the offers are about, and those who let it go.
    pub passed: (usize, Vec<Entity>),
    /// Foes a step aside left, each asked whether it follows (free), and whom.
    pub followers: Vec<Entity>,
    /// The one who stepped aside.
    pub followed: Option<Entity>,
}

impl Battle {
    /// A new cause's number.
    pub fn cause(&mut self) -> u64 {
        self.causes += 1;
        self.causes
    }

    /// The rung of a combatant.
    pub fn rung_of(&self, e: Entity) -> Option<usize> {
        self.ladder.iter().position(|r| r.of == RungOf::Fighter(e))
    }
}

/// The damage condition track, from Unharmed (0) to Slain! (5).
pub const DAMAGE_TRACK: [&str; 6] =
    ["unharmed", "lightly wounded", "moderately wounded", "seriously wounded", "grievously wounded", "slain"];

/// The peril condition track, from Unhindered (0) to Incapacitated! (5).
pub const PERIL_TRACK: [&str; 6] =
    ["unhindered", "imperiled", "ignore 1 rank", "ignore 2 ranks", "ignore 3 ranks", "incapacitated"];

/// A combatant's sheet and live state.
#[derive(Component, Clone, Debug)]
pub struct Fighter {
    /// The sheet as the scenario gave it.
    pub sheet: ApLadderSheet,
    /// Action Points now.
    pub ap: u32,
    /// Steps down the damage track.
    pub damage: u32,
    /// Steps down the peril track.
    pub peril: u32,
    /// Conditions now, and when each ends.
    pub conditions: BTreeMap<Condition, Lasts>,
    /// The weapon in hand (none: fists).
    pub wielding: Option<usize>,
    /// Shots loaded, by weapon.
    pub loaded: Vec<u32>,
    /// AP already put into loading, by weapon.
    pub loading: Vec<u32>,
    /// Ruined weapons, by index.
    pub ruined: Vec<bool>,
    /// Weapons lost (lying on the field), by index.
    pub lost: Vec<bool>,
    /// Immolate weapons whose flame is out after a hit, by index.
    pub doused: Vec<bool>,
    /// Ran this turn: +3 Damage Threshold until its next turn.
    pub running: bool,
    /// Damage Threshold lent for one blow (an ally struck by a fumble on a hit: +3).
    pub threshold_lent: u32,
    /// Charged at least 3 yards this turn: its next melee hit adds a Fury Die.
    pub charged: bool,
    /// Took aim: added to its next attack or stunt this turn.
    pub aim: i32,
    /// Its next attack this turn subdues.
    pub subdue: bool,
    /// Channelled power: +10 to its next spell this turn.
    pub channel: bool,
    /// Weapons swapped this turn.
    pub swaps: u32,
    /// The cover it is behind (an index of the rules' covers).
    pub cover: Option<usize>,
    /// Has spoken its Inspiring words this fight.
    pub inspired_others: bool,
    /// Has chanted its Litany of hatred this fight.
    pub litany_spoken: bool,
    /// Was inspired by words this fight (once only).
    pub inspired_once: bool,
    /// Corruption gained.
    pub corruption: u32,
    /// Fate Points left.
    pub fate: u32,
    /// Fortune Points left.
    pub fortune: u32,
    /// The sub-type whose test it passed (a mount's, swimming, climbing), until hurt or out of it.
    pub steady_in: Option<crate::data::MoveSubtype>,
    /// AP lost at the next turn's start (a fumble).
    pub ap_debt: u32,
    /// Its tests flip to fail until the end of its next turn (a fumble).
    pub hampered: bool,
    /// Reactions missed, by cause: not tried again.
    pub missed: Vec<(u64, Reaction)>,
    /// Turns left unconscious or helpless (knocked out, subdued).
    pub out_for: u32,
    /// Holds its AP (Wait): its turn goes on when it steps in.
    pub waited: bool,
    /// Has waited this turn (once a turn).
    pub has_waited: bool,
    /// Has taken at least one turn (stunned at the first turn's start counts).
    pub turns: u32,
    /// Injuries taken this fight.
    pub injuries: Vec<crate::data::InjuryRow>,
    /// The next blow that harms it injures it (a fumble).
    pub injure_next: bool,
}

impl Fighter {
    /// A fighter fresh from its sheet.
    pub fn new(sheet: ApLadderSheet) -> Self {
        let n = sheet.weapons.len();
        let loaded = sheet.weapons.iter().map(|w| w.shots()).collect();
        let ruined = sheet.weapons.iter().map(|w| w.ruined).collect();
        let conditions = sheet.conditions.iter().map(|&c| (c, Lasts::Combat)).collect();
        Self {
            ap: 0,
            damage: 0,
            peril: 0,
            conditions,
            wielding: sheet.wields.filter(|&w| w < n),
            loaded,
            loading: vec![0; n],
            ruined,
            lost: vec![false; n],
            doused: vec![false; n],
            running: false,
            threshold_lent: 0,
            charged: false,
            aim: 0,
            subdue: false,
            channel: false,
            swaps: 0,
            cover: None,
            inspired_others: false,
            litany_spoken: false,
            inspired_once: false,
            corruption: 0,
            fate: sheet.fate,
            fortune: sheet.fortune,
            steady_in: None,
            ap_debt: 0,
            hampered: false,
            missed: Vec::new(),
            out_for: 0,
            waited: false,
            has_waited: false,
            turns: 0,
            injuries: Vec::new(),
            injure_next: false,
            sheet,
        }
    }

    /// It bears this condition.
    pub fn has(&self, c: Condition) -> bool {
        self.conditions.contains_key(&c)
    }

    /// Movement in yards: [AB] + the rules' plus, less what injuries take (one yard is left).
    pub fn movement(&self, plus: u32) -> f32 {
        let full = self.sheet.bonus(crate::data::Attribute::Agility) + plus;
        let slower: u32 = self
            .injuries
            .iter()
            .flat_map(|i| &i.effects)
            .map(|e| if let crate::data::InjuryEffect::Slower(y) = e { *y } else { 0 })
            .sum();
        full.saturating_sub(slower).max(1) as f32
    }

    /// The weapon in hand, if any (fists otherwise).
    pub fn weapon(&self) -> Option<&crate::data::Weapon> {
        self.wielding.and_then(|w| self.sheet.weapons.get(w))
    }
}
