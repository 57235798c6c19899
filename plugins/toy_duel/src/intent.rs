//! The toy duel's one decision.

use fray_core::ids::CombatantId;
use serde::{Deserialize, Serialize};

/// A toy duel decision.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ToyIntent {
    /// Spend every spark held on a strike at an enemy still standing.
    Strike {
        /// The enemy.
        target: CombatantId,
    },
}
