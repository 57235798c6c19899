//! The structured battle log: every phase change, intent, roll, damage and status change,
//! in order. Written as JSON Lines (one object per line) on request; see the README.

use std::io::{self, Write};

use bevy_ecs::prelude::*;
use serde::Serialize;

use crate::dice::RollRecord;
use crate::ids::CombatantId;
use crate::intent::IntentRecord;
use crate::table::Status;

/// One line of the log.
#[derive(Clone, Debug, Serialize)]
pub struct LogEntry {
    /// Position in the log, from 0.
    pub seq: u64,
    /// The ruleset's clock: the round (or the tick, for tick-timeline rulesets).
    pub round: u32,
    /// The phase it happened in.
    pub phase: &'static str,
    /// Who acted or was affected, if anyone.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub actor: Option<CombatantId>,
    /// What happened.
    #[serde(flatten)]
    pub event: LogEvent,
}

/// What happened. Serialised with a `kind` field naming the variant.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum LogEvent {
    /// The battle began.
    BattleStarted {
        /// Scenario name.
        scenario: String,
        /// Ruleset id.
        ruleset: String,
        /// RNG seed.
        seed: u64,
    },
    /// A new round (or tick) began.
    RoundStarted,
    /// A phase began.
    PhaseStarted,
    /// An intent was accepted and applied.
    IntentAccepted {
        /// The intent.
        intent: IntentRecord,
    },
    /// An intent was refused; nothing changed.
    IntentRejected {
        /// The intent.
        intent: IntentRecord,
        /// Why, in words.
        reason: String,
    },
    /// Dice were rolled.
    Roll(RollRecord),
    /// Tokens were gained or lost for a rule reason.
    Tokens {
        /// What kind.
        token: crate::tokens::CounterKind,
        /// How many gained (positive) or lost (negative).
        change: i64,
        /// How many held after.
        total: u32,
        /// The rule that did it.
        reason: &'static str,
    },
    /// Damage landed on the actor.
    Damage {
        /// The ruleset's damage kind ("stun", "wounds"...).
        damage: &'static str,
        /// Before reduction.
        amount: u32,
        /// Removed by reduction.
        reduced: u32,
        /// What was suffered.
        taken: u32,
        /// Where it came from.
        source: String,
    },
    /// The actor moved.
    Moved {
        /// From this location id.
        from: String,
        /// To this location id.
        to: String,
        /// Tactical points (or other cost) paid.
        cost: u32,
    },
    /// The actor's status changed.
    StatusChanged {
        /// The new status.
        status: Status,
    },
    /// The actor's turn began.
    TurnStarted,
    /// The actor's turn ended.
    TurnEnded,
    /// Secret bids revealed together.
    BidsRevealed {
        /// Each combatant's bid, in scenario order.
        bids: Vec<(CombatantId, u32)>,
    },
    /// The priority order for the round, first to act first.
    PriorityOrder {
        /// Combatant ids.
        order: Vec<CombatantId>,
    },
    /// A ruleset-specific effect on the actor, e.g. a marked stack number.
    Effect {
        /// What happened.
        what: &'static str,
        /// Its detail.
        detail: String,
    },
    /// The battle is over.
    BattleEnded {
        /// The side left standing, if exactly one.
        winner: Option<String>,
        /// Rounds played.
        rounds: u32,
        /// Combatants still fighting.
        survivors: Vec<CombatantId>,
        /// Why it ended.
        reason: String,
    },
}

/// The log of one battle.
#[derive(Resource, Debug, Default, Clone)]
pub struct GameLog {
    entries: Vec<LogEntry>,
    round: u32,
    phase: &'static str,
}

impl GameLog {
    /// Appends an event in the current round and phase.
    pub fn push(&mut self, actor: Option<CombatantId>, event: LogEvent) {
        self.entries.push(LogEntry {
            seq: self.entries.len() as u64,
            round: self.round,
            phase: self.phase,
            actor,
            event,
        });
    }

    /// Appends an event about a combatant.
    pub fn about(&mut self, actor: &CombatantId, event: LogEvent) {
        self.push(Some(actor.clone()), event);
    }

    /// Sets the clock for following entries.
    pub fn set_round(&mut self, round: u32) {
        self.round = round;
    }

    /// The clock.
    pub fn round(&self) -> u32 {
        self.round
    }

    /// Sets the phase name for following entries.
    pub fn set_phase(&mut self, phase: &'static str) {
        self.phase = phase;
    }

    /// Every entry, oldest first.
    pub fn entries(&self) -> &[LogEntry] {
        &self.entries
    }

    /// Writes the log as JSON Lines, adding `battle` to each object when given.
    pub fn write_jsonl(&self, out: &mut impl Write, battle: Option<u32>) -> io::Result<()> {
        self.write_jsonl_from(out, 0, battle)
    }

    /// Writes the entries from position `from` on as JSON Lines (a log printed as it grows).
    pub fn write_jsonl_from(&self, out: &mut impl Write, from: usize, battle: Option<u32>) -> io::Result<()> {
        for entry in self.entries.iter().skip(from) {
            let mut value = serde_json::to_value(entry).map_err(io::Error::other)?;
            if let (Some(b), Some(map)) = (battle, value.as_object_mut()) {
                map.insert("battle".to_owned(), b.into());
            }
            serde_json::to_writer(&mut *out, &value).map_err(io::Error::other)?;
            out.write_all(b"\n")?;
        }
        Ok(())
    }
}
