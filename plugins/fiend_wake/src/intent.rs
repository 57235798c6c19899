//! Every decision a Fiend Wake player takes, as a typed intent. `decisions` routes each to
//! the rule that validates and applies it.

use fray_core::ids::{CombatantId, LocationId, MountId};
use serde::{Deserialize, Serialize};

/// A Fiend Wake decision. Simple actions carry `upgrade`: taken as the turn's full action,
/// their TP cost is waived.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum FiendWakeIntent {
    /// Round prep: pay armour encumbrance with TP and turn tokens (over-paying is allowed).
    PayArmour {
        /// Tactical points spent.
        tp: u32,
        /// Turn tokens spent, each worth `turn_token_tp`.
        turn_tokens: u32,
    },
    /// Round prep: do not pay; lose all TP and turn tokens; `doff` spends the round taking
    /// the armour off.
    RefuseArmour {
        /// Take the armour off.
        doff: bool,
    },
    /// Secret bid of TP for priority.
    Bid {
        /// Tactical points committed.
        tp: u32,
    },
    /// A tied bidder's choice to act after the others it ties with.
    Cede {
        /// Cede (true) or hold (false).
        cede: bool,
    },
    /// Make a carried weapon ready (simple action; also allowed in the aftermath).
    Arm {
        /// The weapon id.
        weapon: String,
        /// Taken as the full action.
        upgrade: bool,
    },
    /// Enter a location accessible from where the combatant stands (simple action).
    EnterLocation {
        /// The location id.
        location: LocationId,
        /// Taken as the full action.
        upgrade: bool,
    },
    /// Leave the current location for no location (simple action).
    Evacuate {
        /// Taken as the full action.
        upgrade: bool,
    },
    /// Leave the combat scene (simple action, from no location).
    Retreat {
        /// TP spent on the retreat (its value; added to Endurance when upgraded).
        tp: u32,
        /// Taken as the full action.
        upgrade: bool,
    },
    /// Climb onto a local free mount (simple action).
    Mount {
        /// The mount id.
        mount: MountId,
        /// Taken as the full action.
        upgrade: bool,
    },
    /// Leave the mount (simple action).
    Dismount,
    /// Call the coming attack's shot: harder to hit, the caller's Power more damage (simple
    /// action, can be repeated; upgraded it is assumed to cost Power).
    CallShot {
        /// Taken as the full action.
        upgrade: bool,
    },
    /// Something the rules do not cover, at the TP price the GM set (simple action).
    OddBall {
        /// What is attempted, for the log.
        what: String,
        /// The GM's price in TP.
        tp: u32,
    },
    /// Odd-ball behaviour as the full action: Tactics with the attribute the GM deems
    /// fitting, against the GM's difficulty.
    OddBallRoll {
        /// What is attempted, for the log.
        what: String,
        /// The attribute rolled with Tactics.
        attribute: crate::data::Attribute,
        /// The GM's difficulty.
        difficulty: u32,
    },
    /// Full action: grapple a local combatant.
    Grapple {
        /// The target.
        target: CombatantId,
    },
    /// Full action: assault a location from outside with supporters.
    Assault {
        /// The location assaulted.
        location: LocationId,
        /// Combatants invited to support (each will be asked).
        supporters: Vec<CombatantId>,
        /// TP the assaulter spends on it.
        tp: u32,
        /// Voluntary difficulty increase (each point counts as 1 TP per team member).
        raise: u32,
        /// Enter the location for free on success.
        enter: bool,
    },
    /// Full action: fire the ready siege weapon at a location.
    Bombard {
        /// The location.
        location: LocationId,
    },
    /// Full action: throw a grenade into a location.
    ThrowGrenade {
        /// The location.
        location: LocationId,
    },
    /// Full action: scatter caltrops around a combatant in no location.
    Caltrops {
        /// The combatant.
        target: CombatantId,
    },
    /// Full action: pick up one's caltrops, paying TP or taking wounds.
    PickUpCaltrops {
        /// The caltrops location.
        location: LocationId,
        /// Take the wounds instead of paying TP.
        take_wounds: bool,
    },
    /// Full action: Medicine with Cunning to recover a handicap of an unconscious local.
    Medic {
        /// The patient.
        patient: CombatantId,
    },
    /// Full action: wrangle an untrained local animal (the GM must have allowed it) and ride
    /// it on success.
    Wrangle {
        /// The animal.
        mount: MountId,
    },
    /// Reaction: take the attack aimed at a local ally.
    Intercept,
    /// Reaction: leap away from a location under assault, artillery or grenade.
    ClearOut,
    /// Reaction: try to keep a retreating enemy in the fight.
    StopRetreat,
    /// Answer to an assault's call: join its team with this many TP (at least 1).
    Support {
        /// TP spent.
        tp: u32,
        /// Enter the location for free on success.
        enter: bool,
    },
    /// Decline the reaction or call one is asked about.
    Decline,
    /// Aftermath: keep these spells fueled (the others lapse).
    FuelSpells {
        /// Spell names.
        spells: Vec<String>,
    },
    /// Choose the attribute handicaps mark first (allowed at any time).
    ChooseHandicap {
        /// The attribute.
        attribute: crate::data::Attribute,
    },
    /// Full action: attack with the ready melee weapon.
    MeleeAttack {
        /// A local combatant or one in no location.
        target: CombatantId,
    },
    /// Full action: attack with the ready ranged weapon.
    RangedAttack {
        /// Anyone on the table.
        target: CombatantId,
    },
    /// End the turn (discards the pending turn token).
    EndTurn,
    /// Aftermath: spend no (more) TP.
    Pass,
    /// Harassment: TP allocated to targets the ready weapon could hit. Empty passes.
    Harass {
        /// (target, TP) pairs.
        allocations: Vec<(CombatantId, u32)>,
    },
    /// Agree (or stop agreeing) that the fight should end; allowed at any time.
    AgreeToEnd {
        /// Agree.
        agree: bool,
    },
}

impl FiendWakeIntent {
    /// A short name for people.
    pub fn title(&self) -> &'static str {
        match self {
            FiendWakeIntent::PayArmour { .. } => "pay for armour",
            FiendWakeIntent::RefuseArmour { .. } => "refuse armour",
            FiendWakeIntent::Bid { .. } => "bid",
            FiendWakeIntent::Cede { .. } => "cede",
            FiendWakeIntent::Arm { .. } => "arm yourself",
            FiendWakeIntent::EnterLocation { .. } => "enter location",
            FiendWakeIntent::Evacuate { .. } => "evacuate location",
            FiendWakeIntent::Retreat { .. } => "retreat",
            FiendWakeIntent::Mount { .. } => "mount",
            FiendWakeIntent::MeleeAttack { .. } => "melee attack",
            FiendWakeIntent::RangedAttack { .. } => "ranged attack",
            FiendWakeIntent::EndTurn => "end turn",
            FiendWakeIntent::Pass => "pass",
            FiendWakeIntent::Harass { .. } => "harass",
            FiendWakeIntent::AgreeToEnd { .. } => "agree to end",
            FiendWakeIntent::Dismount => "dismount",
            FiendWakeIntent::CallShot { .. } => "call your shot",
            FiendWakeIntent::OddBall { .. } => "odd-ball behaviour",
            FiendWakeIntent::OddBallRoll { .. } => "odd-ball roll",
            FiendWakeIntent::Grapple { .. } => "grapple",
            FiendWakeIntent::Assault { .. } => "assault",
            FiendWakeIntent::Bombard { .. } => "bombard",
            FiendWakeIntent::ThrowGrenade { .. } => "throw a grenade",
            FiendWakeIntent::Caltrops { .. } => "caltrops",
            FiendWakeIntent::PickUpCaltrops { .. } => "pick up caltrops",
            FiendWakeIntent::Medic { .. } => "medic",
            FiendWakeIntent::Wrangle { .. } => "wrangle",
            FiendWakeIntent::Intercept => "intercept",
            FiendWakeIntent::ClearOut => "clear out",
            FiendWakeIntent::StopRetreat => "stop a retreat",
            FiendWakeIntent::Support { .. } => "support",
            FiendWakeIntent::Decline => "decline",
            FiendWakeIntent::FuelSpells { .. } => "fuel spells",
            FiendWakeIntent::ChooseHandicap { .. } => "choose handicap",
        }
    }
}

/// What the log shows of a bid before the reveal: nothing but that it was made.
#[derive(Clone, Copy, Debug, Serialize)]
pub enum SealedBid {
    /// A bid was made; its amount is revealed with the others.
    Bid,
}
