//! Counter tokens: tactical points, turn tokens, wounds, siege damage... are entities that
//! belong to a combatant or a location through the [`TokenOf`] relationship.
//!
//! The rules read and change the numbers in [`Counters`] on the owner; once the rules wait
//! again, [`sync_token_entities`] spawns or despawns token entities until they match, so
//! whoever looks at the table between updates sees the two agree.

use bevy_ecs::prelude::*;
use serde::{Deserialize, Serialize};

/// What a counter token counts. Rulesets use the kinds they need.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TokenKind {
    /// A tactical point (Fiend Wake's spendable focus).
    TacticalPoint,
    /// A turn the combatant may still take this round.
    TurnToken,
    /// The turn a combatant has set in front of itself, about to be resolved.
    PendingTurn,
    /// A wound on the wounds-sustained track.
    Wound,
    /// Siege damage tallied on a location.
    SiegeDamage,
}

impl TokenKind {
    /// Every kind, in a fixed order.
    pub const ALL: [TokenKind; 5] = [
        TokenKind::TacticalPoint,
        TokenKind::TurnToken,
        TokenKind::PendingTurn,
        TokenKind::Wound,
        TokenKind::SiegeDamage,
    ];

    const fn index(self) -> usize {
        self as usize
    }

    /// A name for people.
    pub fn label(self) -> &'static str {
        match self {
            TokenKind::TacticalPoint => "tactical point",
            TokenKind::TurnToken => "turn token",
            TokenKind::PendingTurn => "pending turn",
            TokenKind::Wound => "wound",
            TokenKind::SiegeDamage => "siege damage",
        }
    }
}

/// A counter token on the table.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct CounterToken(pub TokenKind);

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
pub struct Counters([u32; TokenKind::ALL.len()]);

impl Counters {
    /// How many tokens of this kind.
    pub fn get(&self, kind: TokenKind) -> u32 {
        self.0[kind.index()]
    }
}

/// Asked to take more tokens than the owner has.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("needs {wanted} {} but holds {held}", kind.label())]
pub struct NotEnoughTokens {
    /// The kind asked for.
    pub kind: TokenKind,
    /// How many were asked for.
    pub wanted: u32,
    /// How many the owner holds.
    pub held: u32,
}

impl Counters {
    /// Adds `n` tokens of `kind`.
    pub fn add(&mut self, kind: TokenKind, n: u32) {
        self.0[kind.index()] = self.0[kind.index()].saturating_add(n);
    }

    /// Takes `n` tokens of `kind`, or changes nothing if there are fewer.
    pub fn remove(&mut self, kind: TokenKind, n: u32) -> Result<(), NotEnoughTokens> {
        let held = self.get(kind);
        if held < n {
            return Err(NotEnoughTokens { kind, wanted: n, held });
        }
        self.0[kind.index()] = held - n;
        Ok(())
    }

    /// Takes up to `n` tokens of `kind`; returns how many were taken.
    pub fn remove_up_to(&mut self, kind: TokenKind, n: u32) -> u32 {
        let taken = n.min(self.get(kind));
        self.0[kind.index()] -= taken;
        taken
    }

    /// Takes every token of `kind`; returns how many there were.
    pub fn clear(&mut self, kind: TokenKind) -> u32 {
        core::mem::take(&mut self.0[kind.index()])
    }
}

/// Spawns and despawns counter-token entities until they match every changed [`Counters`].
pub fn sync_token_entities(
    mut commands: Commands,
    owners: Query<(Entity, &Counters, Option<&Tokens>), Changed<Counters>>,
    tokens: Query<&CounterToken>,
) {
    for (owner, counters, owned) in &owners {
        let mut held = [0u32; TokenKind::ALL.len()];
        for token in owned.into_iter().flat_map(|t| t.iter()) {
            let Ok(CounterToken(kind)) = tokens.get(token) else {
                continue;
            };
            let i = kind.index();
            if held[i] < counters.0[i] {
                held[i] += 1;
            } else {
                commands.entity(token).despawn();
            }
        }
        for kind in TokenKind::ALL {
            for _ in held[kind.index()]..counters.get(kind) {
                commands.spawn((CounterToken(kind), TokenOf(owner)));
            }
        }
    }
}
