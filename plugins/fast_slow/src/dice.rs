//! The dice arithmetic of Fast & Slow, as pure functions: an attack's or a defence's reading
//! of its dice, and the degree the lowest die gives. The rules roll with `TableRng` and read
//! the faces here; the tests enumerate every face to compute exact chances.

/// How a d12 and a skill (or defence) die read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reading {
    /// The highest die plus the bonuses.
    pub total: u32,
    /// Whether it succeeded.
    pub success: bool,
    /// The degree the lowest die gives: 1 (1–4), 2 (5–8) or 3 (9–12).
    pub degree: u32,
    /// Every die shows 1.
    pub fumble: bool,
}

/// The degree of a lowest die: each 4-point range is a degree.
pub fn degree(lowest: u32) -> u32 {
    lowest.saturating_sub(1) / 4 + 1
}

/// An attack: the d12 and the skill die (`None`: no skill, read as a 1), the bonuses added to
/// the highest, against the target's Difficulty. Higher succeeds; a tie succeeds only with a
/// skill die.
pub fn attack(d12: u32, skill: Option<u32>, bonus: u32, difficulty: u32) -> Reading {
    let other = skill.unwrap_or(1);
    let total = d12.max(other) + bonus;
    let success = total > difficulty || (total == difficulty && skill.is_some());
    Reading { total, success, degree: degree(d12.min(other).min(12)), fumble: d12 == 1 && other == 1 }
}

/// A defence: the d12 and the defence die, the bonus added to the highest, against the DL.
/// Only higher succeeds.
pub fn defence(d12: u32, die: u32, bonus: u32, dl: u32) -> Reading {
    let total = d12.max(die) + bonus;
    Reading { total, success: total > dl, degree: degree(d12.min(die).min(12)), fumble: d12 == 1 && die == 1 }
}

/// The exact chance, as (hits, outcomes), that an attack with a skill die of `skill` faces
/// (none: no skill) and `bonus` beats `difficulty`, over every face of the dice.
#[cfg(test)]
pub fn attack_chance(skill: Option<u32>, bonus: u32, difficulty: u32) -> (u64, u64) {
    let faces: Vec<Option<u32>> = match skill {
        Some(s) => (1..=s).map(Some).collect(),
        None => vec![None],
    };
    let mut hits = 0;
    let mut all = 0;
    for d12 in 1..=12 {
        for &s in &faces {
            all += 1;
            if attack(d12, s, bonus, difficulty).success {
                hits += 1;
            }
        }
    }
    (hits, all)
}
