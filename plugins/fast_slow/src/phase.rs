//! Fast & Slow's phases, the state of the round in progress, and each combatant's live state.

use bevy_ecs::prelude::*;
use fray_core::ids::SideId;
use fray_core::phase::Phase;
use serde::{Deserialize, Serialize};

use crate::data::{FastSlowSheet, HazardSpec, Limbs, TechniqueEffect, TrapSpec, WeaponKind};

/// The phases of a round, entering combat before the first, and the end of the fight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FastSlowPhase {
    /// Entering combat: the leadership roll (or the surprise) and the free movement.
    Opening,
    /// Everyone commits in secret to a Fast or a Slow turn; then the reveal.
    RoundStart,
    /// Fast turns: two actions, no base movement.
    FastTurns,
    /// Recurring effects and hazards, reinforcements.
    Upkeep,
    /// Slow turns: base movement, two actions and a bold action.
    SlowTurns,
    /// Effects in their last round run out.
    EndOfRound,
    /// The fight is over.
    Over,
}

impl Phase for FastSlowPhase {
    const ALL: &'static [Self] = &[
        FastSlowPhase::Opening,
        FastSlowPhase::RoundStart,
        FastSlowPhase::FastTurns,
        FastSlowPhase::Upkeep,
        FastSlowPhase::SlowTurns,
        FastSlowPhase::EndOfRound,
        FastSlowPhase::Over,
    ];
    const OVER: Self = FastSlowPhase::Over;

    fn name(self) -> &'static str {
        match self {
            FastSlowPhase::Opening => "opening",
            FastSlowPhase::RoundStart => "round_start",
            FastSlowPhase::FastTurns => "fast_turns",
            FastSlowPhase::Upkeep => "upkeep",
            FastSlowPhase::SlowTurns => "slow_turns",
            FastSlowPhase::EndOfRound => "end_of_round",
            FastSlowPhase::Over => "over",
        }
    }

    fn title(self) -> &'static str {
        match self {
            FastSlowPhase::Opening => "Entering combat",
            FastSlowPhase::RoundStart => "Round start",
            FastSlowPhase::FastTurns => "Fast turns",
            FastSlowPhase::Upkeep => "Upkeep",
            FastSlowPhase::SlowTurns => "Slow turns",
            FastSlowPhase::EndOfRound => "End of round",
            FastSlowPhase::Over => "Over",
        }
    }
}

/// A turn's speed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Speed {
    /// Two actions, first.
    Fast,
    /// Base movement, two actions and a bold action, after the upkeep.
    Slow,
}

impl Speed {
    /// Its name.
    pub fn word(self) -> &'static str {
        match self {
            Speed::Fast => "Fast",
            Speed::Slow => "Slow",
        }
    }
}

/// The fight in progress.
#[derive(Resource, Clone, Debug, Default)]
pub struct Battle {
    /// The round, from 1 (0 while entering combat).
    pub round: u32,
    /// The fight ends after this round.
    pub limit: u32,
    /// The leadership roll (or the surprise) is done.
    pub opened: bool,
    /// The round's commitments are being made.
    pub committing: bool,
    /// Sides in the order they act within each speed, first first.
    pub side_order: Vec<SideId>,
    /// The players' side.
    pub players: Option<SideId>,
    /// The side surprised into combat.
    pub surprised: Option<SideId>,
    /// Those who may still take their free movement.
    pub free_movers: Vec<Entity>,
    /// Whose turn it is.
    pub turn: Option<Entity>,
    /// An attack (or a trap) waiting for its defender's defence.
    pub pending: Option<PendingHit>,
    /// A fumble's defender, offered a counterattack on the fumbler.
    pub counter: Option<(Entity, Entity)>,
    /// The GM's choices were revealed early this round (a forced reveal).
    pub gm_revealed: bool,
    /// Traps, as they stand.
    pub traps: Vec<TrapState>,
    /// Hazards, as they stand.
    pub hazards: Vec<HazardState>,
    /// The rules block's numbers.
    pub rules: crate::data::FastSlowRules,
    /// Spellroots being sustained.
    pub sustained: Vec<Sustained>,
    /// The last hit that landed this turn, for a follow-up.
    pub last_hit: Option<LastHit>,
}

/// A spellroot sustained on a target.
#[derive(Clone, Debug, PartialEq)]
pub struct Sustained {
    /// Its caster.
    pub caster: Entity,
    /// Its target.
    pub target: Entity,
    /// The spellroot's index on the caster's sheet.
    pub weapon: usize,
    /// Upkeeps left.
    pub rounds: u32,
}

/// A hit that landed: who, on whom, and what the defence took off it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LastHit {
    /// The attacker.
    pub attacker: Entity,
    /// The target.
    pub target: Entity,
    /// What the target's defence took off it.
    pub reduction: Reduction,
}

/// What a defence takes off a hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reduction {
    /// Nothing.
    None,
    /// Toughness times this.
    Toughness(u32),
    /// All of it.
    All,
}

/// A trap and what has become of it.
#[derive(Clone, Debug)]
pub struct TrapState {
    /// The trap.
    pub spec: TrapSpec,
    /// Disabled for good.
    pub disabled: bool,
    /// Stalled until the end of this round.
    pub stalled_until: Option<u32>,
}

impl TrapState {
    /// It springs on whoever ends a move in it.
    pub fn armed(&self) -> bool {
        !self.disabled && self.stalled_until.is_none()
    }
}

/// A hazard and its radius now.
#[derive(Clone, Debug)]
pub struct HazardState {
    /// The hazard.
    pub spec: HazardSpec,
    /// Its radius now, in Paces.
    pub radius: f32,
}

/// A hit that landed, waiting for the defender's defence.
#[derive(Clone, Debug, PartialEq)]
pub struct PendingHit {
    /// Who defends.
    pub defender: Entity,
    /// The attacker (none: a trap).
    pub attacker: Option<Entity>,
    /// What strikes, in words ("Orc's axe", "pit trap").
    pub source: String,
    /// The weapon's id, or the trap's.
    pub source_id: String,
    /// The attack's kind (weapon, spell) or a trap.
    pub kind: HitKind,
    /// The attack was made on a Fast turn: only Brace works.
    pub fast: bool,
    /// The DL the defence must beat: the attack's total, or the trap's DL.
    pub dl: u32,
    /// Damage if undefended.
    pub damage: u32,
    /// Rounds of poison it leaves.
    pub poison: u32,
    /// The trap's index, for a trap.
    pub trap: Option<usize>,
    /// A fumble: the defender may counterattack once it has defended.
    pub counter: bool,
    /// It strikes the health pools directly.
    pub to_health: bool,
    /// The weapon's index on the attacker's sheet.
    pub weapon: Option<usize>,
    /// A technique tacked on.
    pub technique: Option<TechniqueEffect>,
}

/// What made a hit: it decides the defences that work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HitKind {
    /// A weapon or a spellroot.
    Attack(WeaponKind),
    /// A trap, with the defences its data lists.
    Trap,
}

/// A combatant's sheet and live state.
#[derive(Component, Clone, Debug)]
pub struct Fighter {
    /// The sheet as the scenario gave it.
    pub sheet: FastSlowSheet,
    /// Stamina now.
    pub stamina: u32,
    /// Health pools now.
    pub health: Limbs,
    /// This round's speed, once chosen.
    pub speed: Option<Speed>,
    /// Last round's speed (the default offered).
    pub last_speed: Option<Speed>,
    /// Has taken this round's turn.
    pub acted: bool,
    /// Actions left this turn.
    pub actions: u32,
    /// Base Paces left this turn.
    pub paces: f32,
    /// The bold action of this turn is used.
    pub bold_used: bool,
    /// Attacks that cost an action, made this turn.
    pub attacks: u32,
    /// Spellroots cast at an action's cost this turn.
    pub casts: u32,
    /// Fumbled this round: no counterattack.
    pub fumbled: bool,
    /// Lying prone.
    pub prone: bool,
    /// Rounds of poison left.
    pub poisoned: u32,
    /// The torso's pool reached zero: dies at the end unless healed.
    pub torso_down: bool,
    /// Potions left.
    pub potions: u32,
    /// Waiting to arrive with the reinforcements in this round's upkeep.
    pub joins: Option<u32>,
    /// FOG staked on the next attack roll.
    pub staked: u32,
}

impl Fighter {
    /// A fighter fresh from its sheet.
    pub fn new(sheet: FastSlowSheet) -> Self {
        Self {
            stamina: sheet.stamina,
            health: sheet.health,
            potions: sheet.potions,
            joins: sheet.joins,
            sheet,
            speed: None,
            last_speed: None,
            acted: false,
            actions: 0,
            paces: 0.0,
            bold_used: false,
            attacks: 0,
            casts: 0,
            fumbled: false,
            prone: false,
            poisoned: 0,
            torso_down: false,
            staked: 0,
        }
    }

    /// Still waiting off the field for its reinforcement's round.
    pub fn waiting(&self) -> bool {
        self.joins.is_some()
    }
}
