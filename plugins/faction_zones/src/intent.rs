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
        /// Sprint first (a bonus action doubling the turn's speeds) if not sprinting yet.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        sprint: bool,
    },
    /// Attack (the main action); a nearby incapacitated target is killed outright.
    Attack {
        /// The target.
        target: CombatantId,
        /// The weapon's index on the sheet; none: unarmed.
        weapon: Option<usize>,
        /// Hold back: impaired damage (the impaired die, whatever the weapon).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        hold_back: bool,
    },
    /// A larger attacker's melee attack (the main action) with its dice spread over several
    /// smaller enemies within reach: every die of the attack, one at least each.
    Spread {
        /// The weapon's index on the sheet; none: unarmed.
        weapon: Option<usize>,
        /// Each target with its dice.
        shares: Vec<Share>,
    },
    /// A non-lethal attack (the main action) on a nearby enemy: a STR save or its effect.
    NonLethal {
        /// The target.
        target: CombatantId,
        /// Disarm, shove or grapple.
        kind: NonLethal,
    },
    /// Attack proposing a stunt instead of the damage; the target accepts it or not.
    Stunt {
        /// The target.
        target: CombatantId,
        /// The weapon's index on the sheet; none: unarmed.
        weapon: Option<usize>,
        /// The effect proposed.
        effect: StuntEffect,
    },
    /// Sprint this turn (a bonus action): the turn's speeds doubled.
    Sprint,
    /// Hide (the main action), out of every enemy's sight: concealed again.
    Hide,
    /// Pick up a weapon knocked from one's hands, lying in this zone (a bonus action).
    PickUp {
        /// The weapon's index on the sheet.
        weapon: usize,
    },
    /// Free a grabbed nearby ally (the main action): a STR save.
    Free {
        /// The ally.
        ally: CombatantId,
    },
    /// A grabbed character spends its turn trying to break free: a STR save.
    BreakFree,
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
    /// Counter with a non-lethal attack on the attacker (resolved after a damaging attack).
    CounterNonLethal {
        /// Disarm, shove or grapple.
        kind: NonLethal,
    },
    /// Accept the stunt proposed instead of the damage (no reaction).
    AcceptStunt,
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
    /// Get on a mount or vehicle of one's side nearby (a zone of movement).
    Mount {
        /// The mount.
        mount: CombatantId,
    },
    /// Get off one's mount (a zone of movement).
    Dismount,
    /// Reserve one's part of a joint activation (a mount and its riders): no turn this round,
    /// the reaction kept.
    Reserve,
    /// Spend the turn fleeing the fight from a zone marked Exit (an AGI save against pursuers
    /// as fast).
    Flee,
}

/// A target's share of spread dice.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Share {
    /// The target.
    pub target: CombatantId,
    /// Its dice.
    pub dice: u32,
}

/// A non-lethal attack.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum NonLethal {
    /// The target drops this weapon (its sheet index).
    Disarm {
        /// The weapon's index on the target's sheet.
        weapon: usize,
    },
    /// The target is pushed: within its zone (into its hazard, if any), or, by a larger
    /// shover, up to 1, 2, 4 or 8 zones away.
    Shove {
        /// The zone pushed to; none: half a zone, within its own.
        to: Option<LocationId>,
    },
    /// The target is grabbed: it can only try to break free.
    Grapple,
}

/// An attack stunt's effect, instead of the damage.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum StuntEffect {
    /// The target drops every weapon it holds.
    Disarmed,
    /// The target is incapacitated (out of the fight, on the table).
    Incapacitated,
    /// The target surrenders.
    Surrenders,
    /// Anything else the GM approves, in words (logged; the table carries it out).
    Other {
        /// The effect.
        words: String,
    },
}
