//! Edits of the players' seats: a seat added, renamed or deleted, and a combatant handed to
//! the GM, the AI or a seat.

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::{EditRules, ScenarioEdit};
use crate::ids::{CombatantId, SeatId};
use crate::scenario::{LocationProperty, Scenario, SeatSpec};
use crate::table::Controller;

impl<R, S, M, P> Scenario<R, S, M, P>
where
    R: Serialize + DeserializeOwned + EditRules<S, M>,
    S: Clone + Serialize + DeserializeOwned,
    M: Clone + Serialize + DeserializeOwned + Default,
    P: Serialize + DeserializeOwned + LocationProperty,
{
    /// Hands a combatant to the GM, the AI (leaving any seat) or a seat (leaving the others;
    /// its own `controller` stays, for when the seat goes).
    pub(super) fn set_controller(&mut self, id: &CombatantId, controller: &Controller) -> Result<(), String> {
        self.combatant(id)?;
        if let Controller::Player(seat) = controller {
            let at = self.seats.iter().position(|s| &s.id == seat).ok_or_else(|| no_seat(seat))?;
            self.unseat(id);
            self.seats[at].combatants.push(id.clone());
        } else {
            self.unseat(id);
            self.combatant(id)?.controller = controller.clone();
        }
        Ok(())
    }

    /// Takes a combatant out of every seat.
    pub(super) fn unseat(&mut self, id: &CombatantId) {
        for seat in &mut self.seats {
            seat.combatants.retain(|c| c != id);
        }
    }

    /// Adds, renames or deletes a seat.
    pub(super) fn edit_seats(&mut self, edit: &ScenarioEdit) -> Result<(), String> {
        match edit {
            ScenarioEdit::AddSeat => {
                let free = |n: &usize| !self.seats.iter().any(|s| s.id.as_str() == format!("seat_{n}"));
                let n = (1..).find(free).unwrap_or(0);
                self.seats.push(SeatSpec {
                    id: SeatId::from(format!("seat_{n}")),
                    name: format!("Player {n}"),
                    combatants: Vec::new(),
                });
            }
            ScenarioEdit::RenameSeat { id, name } => {
                let name = name.trim();
                if name.is_empty() {
                    return Err(format!("seat '{id}': a name cannot be empty"));
                }
                let seat = self.seats.iter_mut().find(|s| &s.id == id).ok_or_else(|| no_seat(id))?;
                seat.name = name.to_owned();
            }
            ScenarioEdit::DeleteSeat { id } => {
                let at = self.seats.iter().position(|s| &s.id == id).ok_or_else(|| no_seat(id))?;
                self.seats.remove(at);
            }
            _ => {}
        }
        Ok(())
    }
}

fn no_seat(id: &SeatId) -> String {
    format!("no seat '{id}' in this scenario")
}
