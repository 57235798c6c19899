//! Fast & Slow's decisions: every one a person or the AI takes.

use fray_core::ids::CombatantId;
use serde::{Deserialize, Serialize};

use crate::data::Defence;
use crate::phase::Speed;

/// A Fast & Slow decision. Saves store it by its serde form: never rename a variant.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum FastSlowIntent {
    /// Round start: commit in secret to a Fast or a Slow turn.
    Commit {
        /// The turn's speed.
        speed: Speed,
    },
    /// Move to a point (Paces): base movement first, then move actions of 4 Paces each.
    Move {
        /// Where to, in Paces.
        to: (f32, f32),
    },
    /// An attack (an action) with a weapon or spellroot of one's sheet.
    Attack {
        /// The target.
        target: CombatantId,
        /// The weapon's index on the sheet.
        weapon: usize,
        /// A technique of the sheet tacked on (by index).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        technique: Option<usize>,
    },
    /// Stake FOG on one's next attack roll: each point adds 1 to its total.
    Stake {
        /// FOG staked.
        fog: u32,
    },
    /// A skill roll (an action) against the scenario's skill DL.
    SkillRoll {
        /// The skill.
        skill: String,
    },
    /// A bold action (Slow turns, one a turn), its FOG cost rolled.
    Bold {
        /// The ability's index on the sheet.
        ability: usize,
        /// Its target (oneself for a Mend on oneself).
        target: CombatantId,
    },
    /// The defence against a hit that landed.
    Defend {
        /// Which.
        defence: Defence,
    },
    /// A counterattack on a fumbler (no action).
    Counter {
        /// The weapon's index on the sheet.
        weapon: usize,
    },
    /// Let a fumble go unpunished.
    Decline,
    /// Drink a potion, or give one to someone within hand's reach (an action).
    Potion {
        /// Who drinks.
        target: CombatantId,
    },
    /// Go prone (base Paces).
    Prone,
    /// Stand up (base Paces, or a move action).
    Stand,
    /// Another action the GM prices: an object interaction or anything uncodified.
    Interact {
        /// Its price in actions (1 or 2).
        actions: u32,
    },
    /// End one's turn (or one's free movement).
    EndTurn,
    /// Leave the fight from the battlefield's edge (a Slow turn).
    Flee,
}

/// What the log shows of a commitment before the reveal: that it was made, not what.
#[derive(Clone, Debug, Serialize)]
pub enum SealedCommit {
    /// A Fast or Slow turn was chosen.
    Commit,
}
