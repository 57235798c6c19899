//! Counter tokens: tactical points, turn tokens, wounds, siege damage... are entities that
//! belong to a combatant or a location through the [`TokenOf`] relationship. Which kinds
//! there are is the ruleset's to declare ([`CounterKind`] constants in its crate).
//!
//! The rules read and change the numbers in [`Counters`] on the owner; once the rules wait
//! again, [`sync_token_entities`] spawns or despawns token entities until they match, so
//! whoever looks at the table between updates sees the two agree.

use core::cmp::Ordering;
use core::hash::{Hash, Hasher};

use bevy_ecs::prelude::*;
use serde::{Serialize, Serializer};

/// How many counter kinds one ruleset may declare.
pub const MAX_COUNTER_KINDS: usize = 8;

/// What a counter token counts: a constant a ruleset declares, with its place among the
/// ruleset's kinds (`index`, below [`MAX_COUNTER_KINDS`]), the id the log writes and a name
/// for people. Kinds compare by index: they are compared within one ruleset.
#[derive(Clone, Copy, Debug)]
pub struct CounterKind {
    index: u8,
    id: &'static str,
    label: &'static str,
}

impl CounterKind {
    /// A kind; `index` must be below [`MAX_COUNTER_KINDS`] (checked when the constant is built).
    pub const fn new(index: u8, id: &'static str, label: &'static str) -> Self {
        assert!((index as usize) < MAX_COUNTER_KINDS, "a ruleset declares at most 8 counter kinds");
        Self { index, id, label }
    }

    /// Its place among its ruleset's kinds.
    pub const fn index(self) -> usize {
        self.index as usize
    }

    /// The id the log writes, e.g. `tactical_point`.
    pub const fn id(self) -> &'static str {
        self.id
    }

    /// A name for people, e.g. "tactical point".
    pub const fn label(self) -> &'static str {
        self.label
    }
}

impl PartialEq for CounterKind {
    fn eq(&self, other: &Self) -> bool {
        self.index == other.index
    }
}

impl Eq for CounterKind {}

impl Hash for CounterKind {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.index.hash(state);
    }
}

impl PartialOrd for CounterKind {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for CounterKind {
    fn cmp(&self, other: &Self) -> Ordering {
        self.index.cmp(&other.index)
    }
}

impl Serialize for CounterKind {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id)
    }
}

/// A counter token on the table.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct CounterToken(pub CounterKind);

/// The token belongs to this combatant or location.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
#[relationship(relationship_target = Tokens)]
pub struct TokenOf(pub Entity);

/// All counter tokens of a combatant or location (despawned with it).
#[derive(Component, Debug, Default)]
#[relationship_target(relationship = TokenOf, linked_spawn)]
pub struct Tokens(Vec<Entity>);

/// How many tokens of each kind an owner holds; kept in step with its token entities by
/// [`sync_token_entities`].
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    counts: [u32; MAX_COUNTER_KINDS],
    kinds: [Option<CounterKind>; MAX_COUNTER_KINDS],
}

/// Asked to take more tokens than the owner has.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("needs {wanted} {} but holds {held}", kind.label())]
pub struct NotEnoughTokens {
    /// The kind asked for.
    pub kind: CounterKind,
    /// How many were asked for.
    pub wanted: u32,
    /// How many the owner holds.
    pub held: u32,
}

impl Counters {
    /// How many tokens of this kind.
    pub fn get(&self, kind: CounterKind) -> u32 {
        self.counts[kind.index()]
    }

    /// Every kind held or once held, with its count, in the ruleset's order.
    pub fn iter(&self) -> impl Iterator<Item = (CounterKind, u32)> + '_ {
        self.kinds.iter().zip(self.counts).filter_map(|(k, n)| Some(((*k)?, n)))
    }

    /// Adds `n` tokens of `kind`.
    pub fn add(&mut self, kind: CounterKind, n: u32) {
        let i = kind.index();
        self.kinds[i] = Some(kind);
        self.counts[i] = self.counts[i].saturating_add(n);
    }

    /// Takes `n` tokens of `kind`, or changes nothing if there are fewer.
    pub fn remove(&mut self, kind: CounterKind, n: u32) -> Result<(), NotEnoughTokens> {
        let held = self.get(kind);
        if held < n {
            return Err(NotEnoughTokens { kind, wanted: n, held });
        }
        self.counts[kind.index()] = held - n;
        Ok(())
    }

    /// Takes up to `n` tokens of `kind`; returns how many were taken.
    pub fn remove_up_to(&mut self, kind: CounterKind, n: u32) -> u32 {
        let taken = n.min(self.get(kind));
        self.counts[kind.index()] -= taken;
        taken
    }

    /// Takes every token of `kind`; returns how many there were.
    pub fn clear(&mut self, kind: CounterKind) -> u32 {
        core::mem::take(&mut self.counts[kind.index()])
    }
}

/// Spawns and despawns counter-token entities until they match every changed [`Counters`].
pub fn sync_token_entities(
    mut commands: Commands,
    owners: Query<(Entity, &Counters, Option<&Tokens>), Changed<Counters>>,
    tokens: Query<&CounterToken>,
) {
    for (owner, counters, owned) in &owners {
        let mut held = [0u32; MAX_COUNTER_KINDS];
        for token in owned.into_iter().flat_map(|t| t.iter()) {
            let Ok(CounterToken(kind)) = tokens.get(token) else {
                continue;
            };
            let i = kind.index();
            if held[i] < counters.counts[i] {
                held[i] += 1;
            } else {
                commands.entity(token).despawn();
            }
        }
        for (kind, count) in counters.iter() {
            for _ in held[kind.index()]..count {
                commands.spawn((CounterToken(kind), TokenOf(owner)));
            }
        }
    }
}
