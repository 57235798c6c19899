//! FateWalker's dice, as pure functions: success-counting pools (a die succeeds when it
//! shows less than the target number; dice are numbered from 0), wounded dice, and damage
//! dice with their promotion and demotion. See RULES.md, "Dice" and "Damage".

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

/// A skill roll's pool after wound penalties.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pool {
    /// Dice at the full target number.
    pub sound: u32,
    /// Wounded dice, at half the target number (rounded down).
    pub wounded: u32,
    /// The target number.
    pub target: u32,
}

impl Pool {
    /// `dice` dice at `target`, with `wound_penalty` dice wounded; once every die is
    /// wounded, each further penalty takes a die away.
    pub fn new(dice: u32, target: u32, wound_penalty: u32) -> Pool {
        let wounded = wound_penalty.min(dice);
        let lost = wound_penalty - wounded;
        let wounded_left = wounded.saturating_sub(lost);
        Pool { sound: dice - wounded, wounded: wounded_left, target }
    }

    /// The wounded dice's target number.
    pub fn wounded_target(&self) -> u32 {
        self.target / 2
    }

    /// Dice rolled.
    pub fn dice(&self) -> u32 {
        self.sound + self.wounded
    }

    /// Counts successes among `faces`: the first `sound` faces are the sound dice.
    pub fn successes(&self, faces: &[u32]) -> u32 {
        faces
            .iter()
            .enumerate()
            .filter(|&(i, &f)| {
                let target = if (i as u32) < self.sound { self.target } else { self.wounded_target() };
                f < target
            })
            .count() as u32
    }
}

/// Why a damage notation cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DamageNotationError {
    /// Not `COUNTxVALUE` groups separated by `/`.
    #[error("damage '{0}' is not written like 3x3/3x1 (dice x value, at most two groups)")]
    Malformed(String),
    /// A die value that is not odd.
    #[error("damage '{0}': die values are odd numbers (1, 3, 5...)")]
    EvenValue(String),
    /// More than two groups.
    #[error("damage '{0}': a damage roll has at most two kinds of dice")]
    TooManyKinds(String),
}

/// Damage dice: how many dice of each value (odd: 1, 3, 5...).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DamageDice(pub BTreeMap<u32, u32>);

impl DamageDice {
    /// Reads `3x3/3x1`: three dice worth 3 and three worth 1.
    pub fn parse(text: &str) -> Result<DamageDice, DamageNotationError> {
        let malformed = || DamageNotationError::Malformed(text.to_owned());
        let mut dice = BTreeMap::new();
        let groups: Vec<&str> = text.split('/').map(str::trim).collect();
        if groups.len() > 2 {
            return Err(DamageNotationError::TooManyKinds(text.to_owned()));
        }
        for group in groups {
            let (count, value) = group.split_once(['x', 'X']).ok_or_else(malformed)?;
            let count: u32 = count.trim().parse().map_err(|_| malformed())?;
            let value: u32 = value.trim().parse().map_err(|_| malformed())?;
            if value.is_multiple_of(2) {
                return Err(DamageNotationError::EvenValue(text.to_owned()));
            }
            if count > 100 || value > 99 {
                return Err(malformed());
            }
            *dice.entry(value).or_insert(0) += count;
        }
        let dice = DamageDice(dice.into_iter().filter(|&(_, n)| n > 0).collect());
        if dice.0.is_empty() {
            return Err(malformed());
        }
        Ok(dice)
    }

    /// Number of dice.
    pub fn count(&self) -> u32 {
        self.0.values().sum()
    }

    /// Promotes one die of the lowest value by one step (1 to 3, 3 to 5...).
    pub fn promote_one(&mut self) {
        let Some((&low, _)) = self.0.iter().next() else { return };
        self.take(low);
        *self.0.entry(low + 2).or_insert(0) += 1;
    }

    /// Demotes one die of the highest value by one step; a die worth 1 is removed.
    pub fn demote_one(&mut self) {
        let Some((&high, _)) = self.0.iter().next_back() else { return };
        self.take(high);
        if high > 1 {
            *self.0.entry(high - 2).or_insert(0) += 1;
        }
    }

    /// Promotes (positive) or demotes (negative) `steps` times.
    pub fn shift(&mut self, steps: i32) {
        for _ in 0..steps.unsigned_abs() {
            if steps > 0 { self.promote_one() } else { self.demote_one() }
        }
    }

    fn take(&mut self, value: u32) {
        if let Some(n) = self.0.get_mut(&value) {
            *n -= 1;
            if *n == 0 {
                self.0.remove(&value);
            }
        }
    }

    /// The dice's values, highest first, one entry per die (the order they are rolled in).
    pub fn values(&self) -> Vec<u32> {
        self.0.iter().rev().flat_map(|(&v, &n)| std::iter::repeat_n(v, n as usize)).collect()
    }

    /// Scores rolled faces against `target`: (damage that armour may absorb, damage from
    /// dice showing 0, which pierces armour).
    pub fn score(&self, faces: &[u32], target: u32) -> (u32, u32) {
        let mut normal = 0;
        let mut piercing = 0;
        for (value, &face) in self.values().into_iter().zip(faces) {
            if face >= target {
                continue;
            }
            if face == 0 { piercing += value } else { normal += value }
        }
        (normal, piercing)
    }
}

impl fmt::Display for DamageDice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str("no dice");
        }
        let parts: Vec<String> = self.0.iter().map(|(v, n)| format!("{n}x{v}")).collect();
        f.write_str(&parts.join("/"))
    }
}
