//! What a page and the host say to each other over a seat's WebSocket: JSON text, each
//! message carrying the protocol's version.

use fray_core::ids::CombatantId;
use fray_core::seat::SeatView;
use serde::{Deserialize, Serialize};

/// The protocol's version: a page speaking another is answered with a refusal.
pub const VERSION: u32 = 1;
/// The largest message a page may send, in bytes.
pub const MAX_MESSAGE: usize = 16 * 1024;
/// The most messages a page may send in a second.
pub const MAX_PER_SECOND: u32 = 20;

/// A page's message.
#[derive(Clone, Debug, Deserialize)]
pub struct FromPage {
    /// The protocol's version the page speaks.
    pub v: u32,
    /// What it asks.
    #[serde(flatten)]
    pub ask: PageAsk,
}

/// What a page may ask.
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PageAsk {
    /// Take one of the choices the seat's view offers `who`: its intent as the view wrote it.
    Decide {
        /// The combatant deciding.
        who: CombatantId,
        /// The choice's intent, as the view gave it.
        intent: serde_json::Value,
    },
}

/// The host's message to a page.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ToPage<'a> {
    /// The seat's view now: sent on connecting and whenever it changes.
    View {
        /// The protocol's version.
        v: u32,
        /// The seat's name for people ("Anna's seat", "The table").
        seat: &'a str,
        /// The scenario's name.
        scenario: &'a str,
        /// Whom each other seat is (for naming players on the overlay): seat id to name.
        players: &'a [(String, String)],
        /// The rolls in the view's log as the board tells them ("Wat the cutthroat is caught by
        /// the river: [5] + 2 = 7 against 10: failure"), by the log line's `seq`.
        rolls: &'a [(u64, String)],
        /// The view.
        view: &'a SeatView,
    },
    /// The host refused what this page asked, and why.
    Refused {
        /// The protocol's version.
        v: u32,
        /// Why, in words for the player.
        reason: String,
    },
    /// The host took the decision (the next view shows what it did).
    Taken {
        /// The protocol's version.
        v: u32,
    },
}

impl ToPage<'_> {
    /// The message as the socket sends it.
    pub fn text(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| {
            serde_json::json!({"kind": "refused", "v": VERSION, "reason": e.to_string()}).to_string()
        })
    }
}

/// A seat's view with what its page shows beside it: kept as data by the world and turned
/// into text on the network thread, as it is sent (not on the world's frame).
#[derive(Clone, Debug, PartialEq)]
pub struct SeatMessage {
    /// The seat's name for people.
    pub seat: String,
    /// The scenario's name.
    pub scenario: String,
    /// Seat id to player's name.
    pub players: Vec<(String, String)>,
    /// The rolls as the board tells them, by `seq`.
    pub rolls: Vec<(u64, String)>,
    /// The view.
    pub view: SeatView,
}

impl SeatMessage {
    /// The message as the socket sends it.
    pub fn text(&self) -> String {
        let SeatMessage { seat, scenario, players, rolls, view } = self;
        ToPage::View { v: VERSION, seat, scenario, players, rolls, view }.text()
    }
}

/// Reads a page's message: JSON of this version, or why not.
pub fn read(text: &str) -> Result<FromPage, String> {
    if text.len() > MAX_MESSAGE {
        return Err(format!("the message is {} bytes; at most {MAX_MESSAGE} are read", text.len()));
    }
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("the message is not JSON: {e}"))?;
    let v = value.get("v").and_then(serde_json::Value::as_u64);
    if v != Some(u64::from(VERSION)) {
        return Err(format!("the page speaks protocol {v:?}; this host speaks {VERSION}: reload the page"));
    }
    serde_json::from_value(value).map_err(|e| format!("the message is not one the host knows: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_is_read_only_as_json_of_this_version_and_size() {
        let ok = read(r#"{"v":1,"kind":"decide","who":"brann","intent":{"Commit":"Slow"}}"#).expect("read");
        let PageAsk::Decide { who, intent } = ok.ask;
        assert_eq!((who.as_str(), intent["Commit"].as_str()), ("brann", Some("Slow")));
        assert!(read("not json").expect_err("not JSON").contains("not JSON"));
        assert!(
            read(r#"{"v":2,"kind":"decide","who":"a","intent":1}"#)
                .expect_err("another version")
                .contains("protocol")
        );
        assert!(
            read(r#"{"v":1,"kind":"cheat"}"#).expect_err("no such ask").contains("not one the host knows")
        );
        let huge = format!(r#"{{"v":1,"kind":"decide","who":"a","intent":"{}"}}"#, "x".repeat(MAX_MESSAGE));
        assert!(read(&huge).expect_err("too large").contains("at most"));
    }
}
