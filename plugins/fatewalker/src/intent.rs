//! Every FateWalker decision as a typed intent. `decisions` routes each to the rule that
//! validates and applies it.

use fray_core::ids::{CombatantId, MountId};
use serde::{Deserialize, Serialize};

use crate::data::MoveMode;

/// An action: declared when the character's tick comes (or from a hold), taken as a
/// preemptive action from a hold, or as the ambusher's free opening.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Action {
    /// Attack with the weapon in hand.
    Attack {
        /// The target.
        target: CombatantId,
        /// Shoot through the target's cover (its barrier deflects) instead of around it.
        through_cover: bool,
    },
    /// Take another carried weapon in hand.
    ReadyWeapon {
        /// Its id.
        weapon: String,
    },
    /// Begin moving towards a point (metres).
    BeginMoving {
        /// How.
        mode: MoveMode,
        /// Where to.
        to: (f32, f32),
    },
    /// Drop prone.
    GoProne,
    /// Get up.
    StandUp,
    /// Get into (onto) a free vehicle close by.
    Mount {
        /// The vehicle.
        mount: MountId,
    },
    /// Get out of the vehicle.
    Dismount,
    /// Do nothing else for this many ticks.
    Wait {
        /// Ticks (at least 1).
        ticks: u32,
    },
}

impl Action {
    /// A short name for people.
    pub fn title(&self) -> &'static str {
        match self {
            Action::Attack { .. } => "attack",
            Action::ReadyWeapon { .. } => "ready a weapon",
            Action::BeginMoving { .. } => "begin moving",
            Action::GoProne => "go prone",
            Action::StandUp => "stand up",
            Action::Mount { .. } => "get in",
            Action::Dismount => "get out",
            Action::Wait { .. } => "wait",
        }
    }

    /// Whether others can react to it: everything but waiting.
    pub fn noticeable(&self) -> bool {
        !matches!(self, Action::Wait { .. })
    }

    /// The character this action is aimed at, if any.
    pub fn target(&self) -> Option<&CombatantId> {
        match self {
            Action::Attack { target, .. } => Some(target),
            _ => None,
        }
    }
}

/// A reaction to an attack: resolves with it, subtracting successes, and costs ticks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Reaction {
    /// Get out of the way (Prowess with the `dodge` skill).
    Dodge,
    /// Block a melee attack with the melee weapon in hand (Prowess with its skill).
    Parry,
}

/// A FateWalker decision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum FateWalkerIntent {
    /// Declare an action (or take the ambusher's free action).
    Act {
        /// The action.
        action: Action,
    },
    /// Declare a hold: act later at any tick, or preemptively.
    Hold,
    /// Asked while holding: go on holding.
    KeepHolding,
    /// From a hold, act before the declared action.
    Preempt {
        /// The action.
        action: Action,
    },
    /// As the target of a declared attack, defend against it.
    React {
        /// The reaction.
        reaction: Reaction,
    },
    /// React to a declared action with an action of one's own: it resolves together with
    /// the trigger (right after it, whatever the trigger did) and adds its cost to the next
    /// action tick.
    Counter {
        /// The action.
        action: Action,
    },
    /// Let the declared action be.
    Decline,
    /// At the end of a segment: keep moving as before.
    ContinueMoving,
    /// At the end of a segment: change the movement mode.
    ChangeMovement {
        /// The new mode.
        mode: MoveMode,
    },
    /// At the end of a segment: stop.
    StopMoving,
}

impl FateWalkerIntent {
    /// A short name for people.
    pub fn title(&self) -> &'static str {
        match self {
            FateWalkerIntent::Act { action } => action.title(),
            FateWalkerIntent::Hold => "hold",
            FateWalkerIntent::KeepHolding => "keep holding",
            FateWalkerIntent::Preempt { .. } => "preempt",
            FateWalkerIntent::React { .. } => "react",
            FateWalkerIntent::Counter { .. } => "counter",
            FateWalkerIntent::Decline => "decline",
            FateWalkerIntent::ContinueMoving => "keep moving",
            FateWalkerIntent::ChangeMovement { .. } => "change movement",
            FateWalkerIntent::StopMoving => "stop moving",
        }
    }
}

/// What the log shows of a secret declaration before all of its group are in.
#[derive(Clone, Copy, Debug, Serialize)]
pub enum SealedDeclaration {
    /// A declaration was made; it is revealed with the others.
    Declared,
}
