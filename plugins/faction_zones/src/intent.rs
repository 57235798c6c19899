//! Factions in zones' decisions.

use fray_core::ids::{CombatantId, LocationId, SideId};
use serde::{Deserialize, Serialize};

/// A Factions in zones decision. Saves store it by its serde form: never rename a variant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FactionZonesIntent {
    /// The initiative holder picks the faction that acts first this round.
    PickFirst {
        /// The faction.
        faction: SideId,
    },
    /// Take this character's turn now (its faction's activation).
    Activate,
    /// The faction passes.
    Pass,
    /// Move to a zone.
    Move {
        /// The zone.
        zone: LocationId,
    },
    /// Attack (the main action); a nearby incapacitated target is killed outright.
    Attack {
        /// The target.
        target: CombatantId,
        /// The weapon's index on the sheet; none: unarmed.
        weapon: Option<usize>,
    },
    /// Another main action (distract, intimidate, a consumable...): the table resolves it.
    Main,
    /// A bonus action (pick up, open a door, a few words...): the table resolves it.
    Bonus,
    /// End the turn.
    EndTurn,
    /// React to an attack by dodging (an AGI save): spends the turn.
    Dodge,
    /// React to an attack by countering with a weapon: spends the turn.
    Counter {
        /// The weapon's index on the sheet; none: unarmed.
        weapon: Option<usize>,
    },
    /// Take the attack without reacting.
    TakeIt,
    /// React to an attack by hiding behind a nearby willing ally, who becomes the target.
    HideBehind {
        /// The ally.
        ally: CombatantId,
    },
    /// React to an attack on a nearby ally by guarding it: become the target (spends the turn).
    Guard,
    /// React to a nearby enemy moving away: an opportunity attack (spends the turn).
    OpportunityAttack {
        /// The weapon's index on the sheet; none: unarmed.
        weapon: Option<usize>,
    },
    /// Let a nearby enemy move away.
    LetGo,
    /// Spend the turn surrendering: out of the fight.
    Surrender,
}
