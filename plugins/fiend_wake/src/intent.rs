//! Every decision a Fiend Wake player takes, as a typed intent. `decisions` routes each to
//! the rule that validates and applies it.

use fray_core::ids::{CombatantId, LocationId, MountId};
use serde::{Deserialize, Serialize};

/// A Fiend Wake decision. Simple actions carry `upgrade`: taken as the turn's full action,
/// their TP cost is waived.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FwIntent {
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

impl FwIntent {
    /// A short name for people.
    pub fn title(&self) -> &'static str {
        match self {
            FwIntent::PayArmour { .. } => "pay for armour",
            FwIntent::RefuseArmour { .. } => "refuse armour",
            FwIntent::Bid { .. } => "bid",
            FwIntent::Cede { .. } => "cede",
            FwIntent::Arm { .. } => "arm yourself",
            FwIntent::EnterLocation { .. } => "enter location",
            FwIntent::Evacuate { .. } => "evacuate location",
            FwIntent::Retreat { .. } => "retreat",
            FwIntent::Mount { .. } => "mount",
            FwIntent::MeleeAttack { .. } => "melee attack",
            FwIntent::RangedAttack { .. } => "ranged attack",
            FwIntent::EndTurn => "end turn",
            FwIntent::Pass => "pass",
            FwIntent::Harass { .. } => "harass",
            FwIntent::AgreeToEnd { .. } => "agree to end",
        }
    }
}

/// What the log shows of a bid before the reveal: nothing but that it was made.
#[derive(Clone, Copy, Debug, Serialize)]
pub enum SealedBid {
    /// A bid was made; its amount is revealed with the others.
    Bid,
}
