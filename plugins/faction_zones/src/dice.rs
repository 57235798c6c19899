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

/// Dice a `attacker`-sized character rolls for damage on a `target`-sized one: doubled for
/// each size it is larger.
pub fn dice_count(attacker: crate::data::Size, target: crate::data::Size) -> u32 {
    1 << attacker.step().saturating_sub(target.step()).min(8)
}

/// Damage rolled by a smaller attacker, halved for each size it is smaller (rounded up: the
/// text's 3 on a wyrm deals 2).
pub fn scaled_damage(rolled: u32, attacker: crate::data::Size, target: crate::data::Size) -> u32 {
    let steps = target.step().saturating_sub(attacker.step()).min(8);
    rolled.div_ceil(1 << steps)
}

/// A ranged weapon's range against a target: halved for each size it is smaller, doubled for
/// each size it is larger.
pub fn scaled_range(range: u32, attacker: crate::data::Size, target: crate::data::Size) -> u32 {
    let (a, t) = (attacker.step(), target.step());
    if t >= a { range << (t - a).min(8) } else { range >> (a - t).min(8) }
}
