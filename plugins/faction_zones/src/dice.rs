//! Saves and damage dice as pure functions.

/// A save passes when the die shows at most the score.
pub fn save_passes(roll: u32, score: u32) -> bool {
    roll <= score
}

/// Damage after armour (capped), never below zero.
pub fn after_armour(damage: u32, armour: u32, max_armour: u32) -> u32 {
    damage.saturating_sub(armour.min(max_armour))
}

/// Whether a character with `health` of `max` left is incapacitated: half or less.
pub fn incapacitated(health: u32, max: u32) -> bool {
    health * 2 <= max
}

/// Who a counter hits first, from what each would suffer after armour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirstHit {
    /// The target (it suffers more).
    Target,
    /// The attacker (it suffers more).
    Attacker,
    /// Both at once (a tie).
    Both,
}

/// A counter's order: whoever suffers more is hit first.
pub fn counter_first(on_target: u32, on_attacker: u32) -> FirstHit {
    match on_target.cmp(&on_attacker) {
        core::cmp::Ordering::Greater => FirstHit::Target,
        core::cmp::Ordering::Less => FirstHit::Attacker,
        core::cmp::Ordering::Equal => FirstHit::Both,
    }
}
