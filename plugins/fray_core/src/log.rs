//! The structured battle log: every phase change, intent, roll, damage and status change,
//! in order, the same for every ruleset. Written as JSON Lines (one object per line); its
//! schema is `docs/log.md` ([`SCHEMA`]).

use std::collections::BTreeMap;
use std::io::{self, Write};

use bevy_ecs::prelude::*;
use serde::Serialize;

use crate::dice::RollRecord;
use crate::ids::{CombatantId, LocationId, SideId};
use crate::intent::IntentRecord;
use crate::table::Status;

/// The log's schema version, written in its first line (`docs/log.md`).
pub const SCHEMA: u32 = 2;

/// One line of the log.
#[derive(Clone, Debug, Serialize)]
pub struct LogEntry {
    /// Position in the log, from 0.
    pub seq: u64,
    /// The ruleset's clock: the round, the tick...
    pub clock: u32,
    /// The phase it happened in.
    pub phase: &'static str,
    /// Who acted or was affected, if anyone.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub actor: Option<CombatantId>,
    /// What happened.
    #[serde(flatten)]
    pub event: LogEvent,
    /// Written about a combatant while the rules kept it concealed: only the seats that may
    /// see that combatant read this line ([`crate::board::Privacy::concealed`]). The log
    /// file does not say it.
    #[serde(skip)]
    pub concealed: bool,
}

/// What happened. Serialised with a `kind` field naming the variant.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum LogEvent {
    /// The battle began (always the first line).
    BattleStarted {
        /// The log's schema ([`SCHEMA`]).
        schema: u32,
        /// Scenario name.
        scenario: String,
        /// Ruleset id.
        ruleset: String,
        /// RNG seed.
        seed: u64,
        /// What the clock counts: `round`, `tick`...
        clock_unit: &'static str,
        /// Every stable id of the scenario with its display name.
        names: BTreeMap<String, String>,
    },
    /// A new round (or tick) began.
    RoundStarted,
    /// A phase began.
    PhaseStarted,
    /// An intent was accepted and applied.
    IntentAccepted {
        /// The intent.
        intent: IntentRecord,
        /// Why the AI chose it, in a few words (the AI's tactical level says).
        #[serde(skip_serializing_if = "Option::is_none")]
        why: Option<String>,
    },
    /// An intent was refused; nothing changed.
    IntentRejected {
        /// The intent.
        intent: IntentRecord,
        /// Why, in words.
        reason: String,
    },
    /// Secret choices made together were revealed.
    Revealed {
        /// What was chosen: `bid`, `declaration`...
        what: &'static str,
        /// Each chooser's choice, in the order they were made.
        choices: Vec<Revealed>,
    },
    /// The order of play was set or changed.
    Order {
        /// Combatant ids, first to act first.
        order: Vec<CombatantId>,
        /// Why, in words.
        reason: &'static str,
    },
    /// The actor's next action comes at a tick (tick rulesets).
    NextAction {
        /// The tick.
        tick: u32,
        /// It holds its action instead (acting whenever it likes).
        holding: bool,
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
        source: Source,
    },
    /// The actor moved.
    Moved {
        /// From this location id.
        from: LocationId,
        /// To this location id.
        to: LocationId,
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
    /// A ruleset-specific effect on the actor, e.g. a marked stack number.
    Effect {
        /// What happened.
        what: &'static str,
        /// Its detail.
        detail: String,
    },
    /// The battle is over (always the last line).
    BattleEnded {
        /// The side left standing, if exactly one.
        winner: Option<SideId>,
        /// The clock when it ended.
        clock: u32,
        /// Combatants still fighting.
        survivors: Vec<CombatantId>,
        /// Why it ended.
        reason: String,
    },
}

/// One secret choice, revealed.
#[derive(Clone, Debug, Serialize)]
pub struct Revealed {
    /// Who chose.
    pub actor: CombatantId,
    /// What, as JSON (the intent, or the ruleset's own shape of it).
    pub choice: serde_json::Value,
}

/// Where damage came from: its name for people, and the ids of what dealt it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Source {
    /// In words, e.g. "Imp's claws", "caltrops".
    pub name: String,
    /// The combatant who dealt it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by: Option<CombatantId>,
    /// The weapon's id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weapon: Option<String>,
    /// The location it came from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub place: Option<LocationId>,
}

impl From<&str> for Source {
    fn from(name: &str) -> Self {
        Source::named(name)
    }
}

impl Source {
    /// Damage named only in words (a scripted event, bleeding, a wild animal).
    pub fn named(name: impl Into<String>) -> Self {
        Self { name: name.into(), ..Default::default() }
    }

    /// Dealt by a combatant, with a weapon when there is one.
    pub fn by(name: impl Into<String>, by: CombatantId, weapon: Option<String>) -> Self {
        Self { name: name.into(), by: Some(by), weapon, place: None }
    }

    /// Dealt by a location.
    pub fn place(name: impl Into<String>, place: LocationId) -> Self {
        Self { name: name.into(), place: Some(place), ..Default::default() }
    }
}

/// The log of one battle.
#[derive(Resource, Debug, Default, Clone)]
pub struct GameLog {
    entries: Vec<LogEntry>,
    clock: u32,
    phase: &'static str,
    concealed: std::collections::BTreeSet<CombatantId>,
}

impl GameLog {
    /// Appends an event in the current round and phase.
    pub fn push(&mut self, actor: Option<CombatantId>, event: LogEvent) {
        let concealed = actor.as_ref().is_some_and(|a| self.concealed.contains(a));
        self.entries.push(LogEntry {
            seq: self.entries.len() as u64,
            clock: self.clock,
            phase: self.phase,
            actor,
            event,
            concealed,
        });
    }

    /// From now on, lines about `who` are written concealed (`true`) or public: a ruleset
    /// that conceals a combatant says so here the moment it does, and when it reveals it.
    pub fn set_concealed(&mut self, who: &CombatantId, concealed: bool) {
        if concealed {
            self.concealed.insert(who.clone());
        } else {
            self.concealed.remove(who);
        }
    }

    /// This log's room for entries in an empty log, leaving this one empty: a table that plays
    /// battle after battle (the balance lab) starts each log without growing it afresh.
    pub fn emptied(&mut self) -> GameLog {
        let mut entries = std::mem::take(&mut self.entries);
        entries.clear();
        GameLog { entries, ..GameLog::default() }
    }

    /// Appends an event about a combatant.
    pub fn about(&mut self, actor: &CombatantId, event: LogEvent) {
        self.push(Some(actor.clone()), event);
    }

    /// Sets the clock for following entries.
    pub fn set_clock(&mut self, clock: u32) {
        self.clock = clock;
    }

    /// The clock.
    pub fn clock(&self) -> u32 {
        self.clock
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

/// Whether `log` is byte for byte the golden log at `path` (with `FRAY_BLESS` set, it first
/// writes `log` there). For rulesets' determinism tests.
pub fn matches_golden(path: &std::path::Path, log: &str) -> Result<bool, String> {
    if std::env::var_os("FRAY_BLESS").is_some() {
        std::fs::write(path, log).map_err(|e| format!("writing {}: {e}", path.display()))?;
    }
    let expected = std::fs::read_to_string(path)
        .map_err(|e| format!("{} (FRAY_BLESS=1 writes it): {e}", path.display()))?;
    Ok(log == expected)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_emptied_log_starts_afresh_in_the_old_ones_room() {
        let mut old = GameLog::default();
        old.set_clock(3);
        old.set_phase("strike");
        for _ in 0..100 {
            old.push(None, LogEvent::RoundStarted);
        }
        let room = old.entries.capacity();

        let new = old.emptied();

        assert!(new.entries().is_empty());
        assert_eq!((new.clock(), new.phase), (0, ""));
        assert_eq!(new.entries.capacity(), room);
        assert!(old.entries().is_empty());
    }
}
