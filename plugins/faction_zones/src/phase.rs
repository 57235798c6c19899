//! Factions in zones' phases, the round in progress, and each character's live state.

use bevy_ecs::prelude::*;
use fray_core::ids::SideId;
use fray_core::phase::Phase;

use crate::data::{FactionZonesRules, FactionZonesSheet};

/// The phases of a round, and the end of the fight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FactionZonesPhase {
    /// A new round: the initiative holder picks the faction that acts first.
    RoundStart,
    /// Factions alternate activating a character or passing.
    Activations,
    /// Morale checks.
    EndOfRound,
    /// The fight is over.
    Over,
}

impl Phase for FactionZonesPhase {
    const ALL: &'static [Self] = &[
        FactionZonesPhase::RoundStart,
        FactionZonesPhase::Activations,
        FactionZonesPhase::EndOfRound,
        FactionZonesPhase::Over,
    ];
    const OVER: Self = FactionZonesPhase::Over;

    fn name(self) -> &'static str {
        match self {
            FactionZonesPhase::RoundStart => "round_start",
            FactionZonesPhase::Activations => "activations",
            FactionZonesPhase::EndOfRound => "end_of_round",
            FactionZonesPhase::Over => "over",
        }
    }

    fn title(self) -> &'static str {
        match self {
            FactionZonesPhase::RoundStart => "Round start",
            FactionZonesPhase::Activations => "Activations",
            FactionZonesPhase::EndOfRound => "End of round",
            FactionZonesPhase::Over => "Over",
        }
    }
}

/// The fight in progress.
#[derive(Resource, Clone, Debug, Default)]
pub struct Battle {
    /// The round, from 1.
    pub round: u32,
    /// The fight ends after this round.
    pub limit: u32,
    /// The faction holding the initiative.
    pub initiative: Option<SideId>,
    /// This round has begun (the pick is awaited or made).
    pub started: bool,
    /// The faction whose activation it is.
    pub to_act: Option<SideId>,
    /// Passes in a row.
    pub passes: u32,
    /// The character taking its turn.
    pub active: Option<Entity>,
    /// An attack waiting for its target's reaction.
    pub pending: Option<PendingAttack>,
    /// A move away from nearby enemies, waiting for their opportunity attacks.
    pub leaving: Option<Leaving>,
    /// An attack on several targets (a blast, spread dice): its targets answer one at a time.
    pub several: Option<Several>,
    /// Those still to take their part of this activation (a mount and its riders act together).
    pub joint: Vec<Entity>,
    /// Each faction's number of characters at the start of the fight.
    pub original: Vec<(SideId, u32)>,
    /// Each faction's characters standing at the start of the round.
    pub standing_at_start: Vec<(SideId, u32)>,
    /// The rules block's numbers.
    pub rules: FactionZonesRules,
    /// This round is the ambushers' bonus round: only the concealed act.
    pub bonus_round: bool,
}

/// An attack that will hit unless its target reacts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingAttack {
    /// The attacker.
    pub attacker: Entity,
    /// The target.
    pub target: Entity,
    /// The attacker's weapon (none: unarmed).
    pub weapon: Option<usize>,
    /// The target is already someone else's stand-in (hidden behind, or guarding).
    pub redirected: bool,
    /// What the attack does: damage, held back or not, or a non-lethal effect.
    pub how: AttackHow,
    /// A stunt the attacker proposes instead of the damage, for the target to accept or not.
    pub stunt: Option<crate::intent::StuntEffect>,
    /// The target may react (a surprised or grabbed target may only take it, or accept a stunt).
    pub reactable: bool,
    /// One of several targets (a blast, spread dice): no one hides behind or guards, and one
    /// target at most counters.
    pub shared: bool,
}

/// An attack on several targets: those still to answer or be hit, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Several {
    /// Who made it.
    pub attacker: Entity,
    /// With what.
    pub weapon: Option<usize>,
    /// Targets not hit yet, each with what lands on it.
    pub left: std::collections::VecDeque<(Entity, AttackHow)>,
    /// One of its targets countered it: no other may.
    pub countered: bool,
    /// Made by a concealed attacker: no one may react.
    pub surprise: bool,
}

/// What an attack does when it lands.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum AttackHow {
    /// The weapon's damage.
    #[default]
    Damage,
    /// Held back: impaired damage.
    HeldBack,
    /// The weapon's damage on this many dice: a share of a larger attacker's spread dice.
    Dice(u32),
    /// A non-lethal attack: a STR save or its effect.
    NonLethal(crate::intent::NonLethal),
}

/// A character moving away from nearby enemies who may still react.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Leaving {
    /// Who moves.
    pub mover: Entity,
    /// To which zone.
    pub to: Entity,
    /// How many zones.
    pub zones: u32,
    /// Enemies still to answer: an opportunity attack, or let go.
    pub asked: Vec<Entity>,
}

/// A zone's properties (dark, cover).
#[derive(Component, Clone, Debug, Default)]
pub struct ZoneProperties(pub Vec<crate::data::ZoneProperty>);

/// A character's sheet and live state.
#[derive(Component, Clone, Debug)]
pub struct Fighter {
    /// The sheet as the scenario gave it.
    pub sheet: FactionZonesSheet,
    /// Health now.
    pub health: u32,
    /// Health at the start of the round (morale of one fighting alone).
    pub health_at_start: u32,
    /// Has taken its turn this round (or spent it reacting).
    pub acted: bool,
    /// Zones moved this turn.
    pub moved: u32,
    /// The main action of this turn is spent.
    pub main_used: bool,
    /// Bonus actions spent this turn.
    pub bonus_used: u32,
    /// Passed a morale check: immune for the rest of the fight.
    pub steady: bool,
    /// Held by this character (a grapple), while it fights on.
    pub grabbed_by: Option<Entity>,
    /// Weapons knocked from its hands (by sheet index), each lying in a zone.
    pub dropped: Vec<(usize, Entity)>,
    /// Weapons a disarmer took from its hands (by sheet index), with who holds each now.
    pub taken: Vec<(usize, Entity)>,
    /// The mount it rides (while both fight and share a zone).
    pub rides: Option<Entity>,
    /// Reserved its part of a joint activation: no turn this round, its reaction kept.
    pub reserved: bool,
    /// Sprinting this turn: its speeds doubled (a bonus action).
    pub sprinting: bool,
    /// Concealed: enemies cannot see or target it; its attacks take them by surprise.
    pub concealed: bool,
    /// Its gear's wear: which weapons were used, are damaged or broke; the same of its armour.
    pub gear: Gear,
}

/// A character's gear through the fight (weapons by sheet index).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Gear {
    /// Weapons used to attack at least once.
    pub used: Vec<usize>,
    /// Weapons damaged (from the sheet, or by the durability roll).
    pub damaged: Vec<usize>,
    /// Weapons broken: gone for the rest of the fight.
    pub broken: Vec<usize>,
    /// Its armour took a hit.
    pub armour_used: bool,
    /// Its armour is damaged.
    pub armour_damaged: bool,
    /// Its armour broke: it counts as none.
    pub armour_broken: bool,
    /// Its shield took a hit.
    pub shield_used: bool,
    /// Its shield is damaged.
    pub shield_damaged: bool,
    /// Its shield broke: it counts as none.
    pub shield_broken: bool,
}

impl Fighter {
    /// A fighter fresh from its sheet.
    pub fn new(sheet: FactionZonesSheet) -> Self {
        Self {
            concealed: sheet.concealed,
            gear: Gear {
                damaged: (0..sheet.weapons.len())
                    .filter(|&w| sheet.weapons[w].damaged || sheet.weapons[w].improvised)
                    .collect(),
                armour_damaged: sheet.armour_damaged,
                shield_damaged: sheet.shield_damaged,
                ..Gear::default()
            },
            health: sheet.health,
            health_at_start: sheet.health,
            sheet,
            acted: false,
            moved: 0,
            main_used: false,
            bonus_used: 0,
            steady: false,
            grabbed_by: None,
            dropped: Vec::new(),
            taken: Vec::new(),
            rides: None,
            reserved: false,
            sprinting: false,
        }
    }

    /// Actions taken this turn.
    pub fn actions(&self) -> u32 {
        u32::from(self.main_used) + self.bonus_used
    }

    /// Whether its weapon `w` (a sheet index) is in its hands (not knocked away nor broken).
    pub fn holds(&self, w: usize) -> bool {
        !self.dropped.iter().any(|(d, _)| *d == w)
            && !self.gear.broken.contains(&w)
            && !self.taken.iter().any(|(t, _)| *t == w)
    }

    /// Its armour now, its shield's included (none of what broke).
    pub fn armour(&self) -> u32 {
        self.body_armour() + self.shield()
    }

    /// Its worn armour now (none once broken).
    pub fn body_armour(&self) -> u32 {
        if self.gear.armour_broken { 0 } else { self.sheet.armour }
    }

    /// Its shield's armour now (none once broken).
    pub fn shield(&self) -> u32 {
        if self.gear.shield_broken { 0 } else { self.sheet.shield }
    }
}
