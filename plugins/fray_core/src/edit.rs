//! Edits of a scenario, whatever its ruleset: what the scenario editor does to the parts
//! every scenario shares (locations, their accessibility, where combatants start, sides and
//! controllers). An edit changes a copy; the caller writes it as text and reads it back
//! through the ruleset, so that an edit is checked exactly as `fray check` checks a file.

use crate::ids::{CombatantId, LocationId, SideId};
use crate::scenario::Scenario;
use crate::table::Controller;

/// Where a combatant starts.
#[derive(Clone, Debug, PartialEq)]
pub enum Placement {
    /// In a location.
    Location(LocationId),
    /// In no location, at this point of the board (in the ruleset's unit).
    Field((f32, f32)),
}

/// One edit of a scenario.
#[derive(Clone, Debug, PartialEq)]
pub enum ScenarioEdit {
    /// A new location, centred here, entered from no location, with a fresh id.
    AddLocation {
        /// Its centre.
        at: (f32, f32),
    },
    /// A location's card moved.
    MoveLocation {
        /// Which.
        id: LocationId,
        /// Its new centre.
        to: (f32, f32),
    },
    /// A location renamed (its id stays: saves and intents name it).
    RenameLocation {
        /// Which.
        id: LocationId,
        /// The shown name.
        name: String,
    },
    /// A location's base entry cost.
    SetEntryCost {
        /// Which.
        id: LocationId,
        /// The cost.
        cost: u32,
    },
    /// A location removed: arrows to and from it go, and whoever stood in it (combatants,
    /// mounts) stands in no location instead.
    DeleteLocation {
        /// Which.
        id: LocationId,
    },
    /// Whether `to` may be entered from `from` (`from` may be "field", no location).
    SetEntry {
        /// The location entered from.
        from: LocationId,
        /// The location entered.
        to: LocationId,
        /// Allowed or not.
        allowed: bool,
    },
    /// Where a combatant starts (a rider leaves its mount).
    PlaceCombatant {
        /// Who.
        id: CombatantId,
        /// Where.
        at: Placement,
    },
    /// A copy of a combatant (same sheet, side and place) with a fresh id and name.
    CopyCombatant {
        /// Whom.
        id: CombatantId,
    },
    /// A combatant removed.
    DeleteCombatant {
        /// Whom.
        id: CombatantId,
    },
    /// A combatant's side.
    SetSide {
        /// Whom.
        id: CombatantId,
        /// The side's id.
        side: SideId,
    },
    /// Who decides for a combatant.
    SetController {
        /// Whom.
        id: CombatantId,
        /// A person or the AI.
        controller: Controller,
    },
}

impl ScenarioEdit {
    /// What the edit does, in a few words for people ("moved Keep").
    pub fn describe(&self) -> String {
        match self {
            ScenarioEdit::AddLocation { .. } => "added a location".to_owned(),
            ScenarioEdit::MoveLocation { id, .. } => format!("moved {id}"),
            ScenarioEdit::RenameLocation { id, name } => format!("renamed {id} to \"{name}\""),
            ScenarioEdit::SetEntryCost { id, cost } => format!("{id} costs {cost} to enter"),
            ScenarioEdit::DeleteLocation { id } => format!("deleted {id}"),
            ScenarioEdit::SetEntry { from, to, allowed: true } => format!("{to} may be entered from {from}"),
            ScenarioEdit::SetEntry { from, to, allowed: false } => {
                format!("{to} may no longer be entered from {from}")
            }
            ScenarioEdit::PlaceCombatant { id, at: Placement::Location(place) } => {
                format!("{id} starts in {place}")
            }
            ScenarioEdit::PlaceCombatant { id, .. } => format!("{id} starts in no location"),
            ScenarioEdit::CopyCombatant { id } => format!("copied {id}"),
            ScenarioEdit::DeleteCombatant { id } => format!("deleted {id}"),
            ScenarioEdit::SetSide { id, side } => format!("{id} fights for {side}"),
            ScenarioEdit::SetController { id, controller: Controller::Human } => {
                format!("{id} is played by a person")
            }
            ScenarioEdit::SetController { id, controller: Controller::Ai } => {
                format!("{id} is played by the AI")
            }
        }
    }
}

/// A scenario the editor can change: every ruleset's scenario (they all are the core's
/// [`Scenario`] with the ruleset's blocks).
pub trait EditScenario {
    /// Applies an edit to this scenario; an edit naming what is not there is refused with
    /// the reason. What the edit leaves (a location entered from itself, a cost out of
    /// range) is for the scenario's checks to judge.
    fn apply(&mut self, edit: &ScenarioEdit) -> Result<(), String>;
}

impl<R, S: Clone, M, P> EditScenario for Scenario<R, S, M, P> {
    fn apply(&mut self, edit: &ScenarioEdit) -> Result<(), String> {
        match edit {
            ScenarioEdit::AddLocation { at } => {
                let n = (1..).find(|n| !self.locations.iter().any(|l| l.id.0 == format!("location_{n}")));
                let n = n.unwrap_or(0);
                self.locations.push(crate::scenario::LocationSpec {
                    id: LocationId(format!("location_{n}")),
                    name: format!("Location {n}"),
                    entered_from: None,
                    entry_cost: 1,
                    properties: Vec::new(),
                    position: *at,
                    size: (200.0, 140.0),
                });
            }
            ScenarioEdit::MoveLocation { id, to } => self.location(id)?.position = *to,
            ScenarioEdit::RenameLocation { id, name } => {
                let name = name.trim();
                if name.is_empty() {
                    return Err(format!("location '{id}': a name cannot be empty"));
                }
                self.location(id)?.name = name.to_owned();
            }
            ScenarioEdit::SetEntryCost { id, cost } => self.location(id)?.entry_cost = *cost,
            ScenarioEdit::DeleteLocation { id } => {
                self.location(id)?;
                self.locations.retain(|l| &l.id != id);
                for l in &mut self.locations {
                    if let Some(from) = &mut l.entered_from {
                        from.retain(|f| f != id);
                    }
                }
                for c in self.combatants.iter_mut().filter(|c| c.location.as_ref() == Some(id)) {
                    c.location = None;
                }
                for m in self.mounts.iter_mut().filter(|m| m.location.as_ref() == Some(id)) {
                    m.location = None;
                }
            }
            ScenarioEdit::SetEntry { from, to, allowed } => {
                if from.0 != LocationId::FIELD && !self.locations.iter().any(|l| &l.id == from) {
                    return Err(format!("no location '{from}' in this scenario"));
                }
                let target = self.location(to)?;
                // Absent: entered from no location only.
                let list = target.entered_from.get_or_insert_with(|| vec![LocationId::field()]);
                let there = list.contains(from);
                match (allowed, there) {
                    (true, false) => list.push(from.clone()),
                    (false, true) => list.retain(|f| f != from),
                    (true, true) => return Err(format!("{to} may already be entered from {from}")),
                    (false, false) => return Err(format!("{to} may not be entered from {from} already")),
                }
            }
            ScenarioEdit::PlaceCombatant { id, at } => {
                let c = self.combatant(id)?;
                c.rides = None;
                match at {
                    Placement::Location(place) if place.0 == LocationId::FIELD => {
                        c.location = None;
                        c.position = None;
                    }
                    Placement::Location(place) => {
                        c.location = Some(place.clone());
                        c.position = None;
                    }
                    Placement::Field(point) => {
                        c.location = None;
                        c.position = Some(*point);
                    }
                }
            }
            ScenarioEdit::CopyCombatant { id } => {
                let mut copy = self.combatant(id)?.clone();
                let n = (2..).find(|n| !self.combatants.iter().any(|c| c.id.0 == format!("{id}_{n}")));
                let n = n.unwrap_or(0);
                copy.id = CombatantId(format!("{id}_{n}"));
                copy.name = format!("{} {n}", copy.name);
                // A copy cannot ride the same mount.
                copy.rides = None;
                self.combatants.push(copy);
            }
            ScenarioEdit::DeleteCombatant { id } => {
                self.combatant(id)?;
                self.combatants.retain(|c| &c.id != id);
            }
            ScenarioEdit::SetSide { id, side } => self.combatant(id)?.side = side.clone(),
            ScenarioEdit::SetController { id, controller } => self.combatant(id)?.controller = *controller,
        }
        Ok(())
    }
}

impl<R, S, M, P> Scenario<R, S, M, P> {
    fn location(&mut self, id: &LocationId) -> Result<&mut crate::scenario::LocationSpec<P>, String> {
        self.locations
            .iter_mut()
            .find(|l| &l.id == id)
            .ok_or_else(|| format!("no location '{id}' in this scenario"))
    }

    fn combatant(&mut self, id: &CombatantId) -> Result<&mut crate::scenario::CombatantSpec<S>, String> {
        self.combatants
            .iter_mut()
            .find(|c| &c.id == id)
            .ok_or_else(|| format!("no combatant '{id}' in this scenario"))
    }
}
