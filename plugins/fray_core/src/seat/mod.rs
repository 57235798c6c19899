//! Who is looking: the GM, a player's seat, or the table (the public screen, a stream's
//! spectator). Each seat sees the fight through its own view ([`SeatView`], built by
//! [`seat_views`] from the ruleset contract's board model and its [`Privacy`]), so a screen,
//! a page or a file shows only what its viewer may know.
//!
//! [`Privacy`]: crate::board::Privacy

use bevy_ecs::prelude::*;
use serde::{Deserialize, Serialize};

use crate::board::Seen;
use crate::ids::{CombatantId, SeatId};
use crate::table::{Controller, Seats, TableIndex};

mod view;

pub use view::{
    CardSeen, ChoiceSeen, ChoicesSeen, IntentSeen, OrderEntrySeen, OrderSeen, PhaseSeen, SealedSeen,
    SeatView, SecretSeen, SheetSeen, TokenSeen, drawn_views, says, seat_view, seat_views,
};

/// Who is looking at the fight.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Seat {
    /// The game master: everything.
    Gm,
    /// A player: what is public, and all of what their combatants know.
    Player(SeatId),
    /// The table's screen: what is public.
    Table,
}

impl Seat {
    /// Reads a seat as the command line names it: `gm`, `table`, `player:NAME` (a seat's
    /// name or id) or `combatant:ID` (the seat that controls it: the GM's for the GM's and
    /// the AI's combatants).
    pub fn parse(text: &str, world: &World) -> Result<Seat, String> {
        match text.split_once(':') {
            None if text == "gm" => Ok(Seat::Gm),
            None if text == "table" => Ok(Seat::Table),
            Some(("player", who)) => player(world, who),
            Some(("combatant", id)) => {
                let id = CombatantId::from(id);
                let e = world.resource::<TableIndex>().combatant(&id).ok_or_else(|| {
                    format!("there is no combatant '{id}' (combatant:ID names one of the scenario's)")
                })?;
                Ok(Seat::of(world.get::<Controller>(e).unwrap_or(&Controller::Ai)))
            }
            _ => Err(format!("'{text}' is no seat: say gm, table, player:NAME or combatant:ID")),
        }
    }

    /// The seat that decides for a combatant with this controller (the GM's for the AI's).
    pub fn of(controller: &Controller) -> Seat {
        match controller {
            Controller::Player(seat) => Seat::Player(seat.clone()),
            Controller::Gm | Controller::Ai => Seat::Gm,
        }
    }

    /// Whether this seat may see a fact that `seen` guards about a combatant with this
    /// controller.
    pub fn may_see(&self, seen: Seen, controller: &Controller) -> bool {
        match (self, seen) {
            (Seat::Gm, _) | (_, Seen::Public) => true,
            (Seat::Player(seat), Seen::Controller) => {
                matches!(controller, Controller::Player(s) if s == seat)
            }
            _ => false,
        }
    }

    /// Whether this seat decides for a combatant with this controller (the GM for the
    /// GM's own; the AI decides for the rest).
    pub fn decides(&self, controller: &Controller) -> bool {
        match (self, controller) {
            (Seat::Gm, Controller::Gm) => true,
            (Seat::Player(seat), Controller::Player(s)) => s == seat,
            _ => false,
        }
    }

    /// Whether a combatant with this controller is this seat's own: the player's, or the
    /// GM's own and the AI's for the GM (the monsters the GM runs).
    pub fn owns(&self, controller: &Controller) -> bool {
        match (self, controller) {
            (Seat::Gm, Controller::Gm | Controller::Ai) => true,
            (Seat::Player(seat), Controller::Player(s)) => s == seat,
            _ => false,
        }
    }

    /// The seat in words ("the GM", "Anna", "the table").
    pub fn describe(&self, seats: &Seats) -> String {
        match self {
            Seat::Gm => "the GM".to_owned(),
            Seat::Player(seat) => seats.name(seat),
            Seat::Table => "the table".to_owned(),
        }
    }
}

/// The player's seat named `who` (by name, or by id).
fn player(world: &World, who: &str) -> Result<Seat, String> {
    let seats = world.get_resource::<Seats>().map(|s| s.0.clone()).unwrap_or_default();
    let found = seats
        .iter()
        .find(|(_, name)| name == who)
        .or_else(|| seats.iter().find(|(id, _)| id.as_str() == who));
    match found {
        Some((id, _)) => Ok(Seat::Player(id.clone())),
        None if seats.is_empty() => {
            Err(format!("there is no seat '{who}': the scenario has no players' seats"))
        }
        None => {
            let names: Vec<&str> = seats.iter().map(|(_, n)| n.as_str()).collect();
            Err(format!("there is no seat '{who}' (the seats: {})", names.join(", ")))
        }
    }
}

#[cfg(test)]
mod tests;
