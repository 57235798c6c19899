//! Edits of a scenario, whatever its ruleset: what the scenario editor does to the parts
//! every scenario shares (locations, their accessibility and properties, combatants and
//! mounts: where they start, who rides what, sides and controllers; the players' seats). An
//! edit changes a copy; the caller writes it as text and reads it back
//! through the ruleset, so that an edit is checked exactly as `fray check` checks a file.

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::ids::{CombatantId, LocationId, MountId, SeatId, SideId};
use crate::scenario::{CombatantSpec, LocationProperty, MountSpec, Scenario};
use crate::table::Controller;

mod scenery;
mod seats;

pub use scenery::{Round, RoundScenery, SceneryList, free_name, round_scenery_of};

/// Where a combatant or a mount starts.
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
    /// A location's properties, each written as the scenario file writes it (`Cover(1)`).
    SetProperties {
        /// Which.
        id: LocationId,
        /// All of them, in order.
        properties: Vec<String>,
    },
    /// A combatant made from a template: its spec as the scenario file writes one (a
    /// combatant of another scenario), given a fresh id and name here, on `side`, at `at`.
    AddCombatant {
        /// The template.
        spec: String,
        /// The rules block of the template's scenario, as its file writes it: what the
        /// sheet names from its catalogues and this scenario lacks is taken from there
        /// ([`EditRules`]); empty takes nothing.
        rules: String,
        /// The side it fights for.
        side: SideId,
        /// Where it starts.
        at: Placement,
    },
    /// A mount made from a template (a mount of another scenario), as [`Self::AddCombatant`].
    AddMount {
        /// The template.
        spec: String,
        /// The rules block of the template's scenario, as for [`Self::AddCombatant`].
        rules: String,
        /// Where it starts.
        at: Placement,
    },
    /// A piece of round scenery (a cover, a light…) placed and sized.
    PlaceScenery {
        /// Its kind, as the ruleset names it.
        kind: String,
        /// Its place in its kind's list.
        index: usize,
        /// Its centre, in the ruleset's unit.
        at: (f32, f32),
        /// Its radius, in the ruleset's unit.
        radius: f32,
    },
    /// A new piece of round scenery of `kind` at `at`, like the last of its kind.
    AddScenery {
        /// Its kind.
        kind: String,
        /// Its centre.
        at: (f32, f32),
    },
    /// A piece of round scenery taken away.
    DeleteScenery {
        /// Its kind.
        kind: String,
        /// Its place in its kind's list.
        index: usize,
    },
    /// Where a mount starts; its rider goes with it.
    PlaceMount {
        /// Which.
        id: MountId,
        /// Where.
        at: Placement,
    },
    /// A combatant starts on a mount, where the mount stands.
    Ride {
        /// The rider.
        id: CombatantId,
        /// The mount.
        mount: MountId,
    },
    /// A copy of a mount (same sheet and place, no rider) with a fresh id and name.
    CopyMount {
        /// Which.
        id: MountId,
    },
    /// A mount removed; its rider starts where it stood, on foot.
    DeleteMount {
        /// Which.
        id: MountId,
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
    /// Who decides for a combatant: the GM, the AI, or a player's seat (the combatant then
    /// leaves any other seat).
    SetController {
        /// Whom.
        id: CombatantId,
        /// The GM, a seat or the AI.
        controller: Controller,
    },
    /// A new player's seat, with a fresh id and no combatants yet.
    AddSeat,
    /// A seat's player renamed (its id stays: saves name it).
    RenameSeat {
        /// Which.
        id: SeatId,
        /// The new name.
        name: String,
    },
    /// A seat removed: its combatants go back to their own controller.
    DeleteSeat {
        /// Which.
        id: SeatId,
    },
}

impl ScenarioEdit {
    /// What the edit does, in a few words for people ("moved Keep").
    pub fn describe(&self) -> String {
        match self {
            ScenarioEdit::AddLocation { .. } => "added a location".to_owned(),
            ScenarioEdit::MoveLocation { id, .. } => format!("moved {id}"),
            ScenarioEdit::RenameLocation { id, name } => format!("renamed {id} to \"{name}\""),
            ScenarioEdit::DeleteLocation { id } => format!("deleted {id}"),
            ScenarioEdit::SetProperties { id, properties } if properties.is_empty() => {
                format!("{id} has no properties")
            }
            ScenarioEdit::SetProperties { id, properties } => {
                let names: Vec<&str> = properties.iter().map(|p| p.split('(').next().unwrap_or(p)).collect();
                format!("{id}'s properties: {}", names.join(", "))
            }
            ScenarioEdit::PlaceScenery { kind, index, at, radius } => {
                format!("{kind} {} at ({}, {}), radius {radius}", index + 1, at.0, at.1)
            }
            ScenarioEdit::AddScenery { kind, .. } => format!("added a {kind}"),
            ScenarioEdit::DeleteScenery { kind, index } => format!("deleted {kind} {}", index + 1),
            ScenarioEdit::AddCombatant { spec, .. } => format!("added {}", named(spec, "a combatant")),
            ScenarioEdit::AddMount { spec, .. } => format!("added {}", named(spec, "a mount")),
            ScenarioEdit::PlaceMount { id, at: Placement::Location(place) } => {
                format!("{id} starts in {place}")
            }
            ScenarioEdit::PlaceMount { id, .. } => format!("{id} starts in the open field"),
            ScenarioEdit::Ride { id, mount } => format!("{id} rides {mount}"),
            ScenarioEdit::CopyMount { id } => format!("copied {id}"),
            ScenarioEdit::DeleteMount { id } => format!("deleted {id}"),
            ScenarioEdit::SetEntry { from, to, allowed: true } => format!("{to} may be entered from {from}"),
            ScenarioEdit::SetEntry { from, to, allowed: false } => {
                format!("{to} may no longer be entered from {from}")
            }
            ScenarioEdit::PlaceCombatant { id, at: Placement::Location(place) } => {
                format!("{id} starts in {place}")
            }
            ScenarioEdit::PlaceCombatant { id, .. } => format!("{id} starts in the open field"),
            ScenarioEdit::CopyCombatant { id } => format!("copied {id}"),
            ScenarioEdit::DeleteCombatant { id } => format!("deleted {id}"),
            ScenarioEdit::SetSide { id, side } => format!("{id} fights for {side}"),
            ScenarioEdit::SetController { id, controller: Controller::Gm } => {
                format!("{id} is played by the GM")
            }
            ScenarioEdit::SetController { id, controller: Controller::Player(seat) } => {
                format!("{id} is played by seat {seat}")
            }
            ScenarioEdit::SetController { id, controller: Controller::Ai } => {
                format!("{id} is played by the AI")
            }
            ScenarioEdit::AddSeat => "added a seat".to_owned(),
            ScenarioEdit::RenameSeat { id, name } => format!("seat {id} is \"{name}\""),
            ScenarioEdit::DeleteSeat { id } => format!("deleted seat {id}"),
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

    /// A location's properties, each as the file writes it (empty for a location not there).
    fn properties(&self, id: &LocationId) -> Vec<String>;

    /// Its combatants and mounts as templates for another scenario of the same ruleset.
    fn pieces(&self) -> Vec<Piece>;

    /// Its round scenery (covers, lights…).
    fn round_scenery(&self) -> Vec<RoundScenery>;

    /// The kinds of round scenery its rules block holds, each with a few words.
    fn scenery_kinds(&self) -> Vec<(&'static str, &'static str)>;
}

/// A property a ruleset's locations may have, as the editor offers it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PropertyChoice {
    /// The property as the file writes it, with a usual value (`Cover(1)`).
    pub text: &'static str,
    /// What it does, in a few words.
    pub about: &'static str,
}

/// What the editor does to a ruleset's rules block: take from another scenario's what a
/// combatant or a mount brought from there names in its catalogues (a weapon, an armour),
/// and place, size, add and delete the round scenery it holds (covers, lights, traps…). Every
/// method has a default for a block with none of it.
pub trait EditRules<S, M> {
    /// Adds what `sheet` names from `from`'s catalogues and this block lacks; where this
    /// block has a different entry of the same name, the one brought gets a name of its own
    /// and the sheet is made to name that ([`take_named`]).
    fn take_for_combatant(&mut self, _from: &Self, _sheet: &mut S) {}
    /// The same for a mount's sheet.
    fn take_for_mount(&mut self, _from: &Self, _sheet: &mut M) {}
    /// The kinds of round scenery it holds, each with a few words ("cover", "hides…").
    fn scenery_kinds(&self) -> Vec<(&'static str, &'static str)> {
        Vec::new()
    }
    /// Its round scenery, kind by kind in list order.
    fn round_scenery(&self) -> Vec<RoundScenery> {
        Vec::new()
    }
    /// The list of `kind`, to place, add to and delete from.
    fn scenery_list(&mut self, _kind: &str) -> Option<&mut dyn SceneryList> {
        None
    }
}

/// Brings catalogue entry `name` from `from` into `into`, and says the name it has there:
/// its own where `into` lacks it or holds the same entry, else the first free or equal one
/// of `name_2`, `name_3`… (so a sheet never silently holds another scenario's "light"
/// armour under this one's "light"). A name `from` lacks is left as it is.
pub fn take_named<T: Clone + PartialEq>(
    into: &mut std::collections::BTreeMap<String, T>,
    from: &std::collections::BTreeMap<String, T>,
    name: &mut String,
) {
    let Some(entry) = from.get(name.as_str()) else { return };
    let fits = |key: &str| into.get(key).is_none_or(|here| here == entry);
    let key = if fits(name) {
        name.clone()
    } else {
        (2..).map(|n| format!("{name}_{n}")).find(|k| fits(k)).unwrap_or_else(|| name.clone())
    };
    into.entry(key.clone()).or_insert_with(|| entry.clone());
    *name = key;
}

/// [`take_named`] for each weapon a sheet carries, its ready weapon following the name its
/// carried one gets.
pub fn take_weapons<T: Clone + PartialEq>(
    into: &mut std::collections::BTreeMap<String, T>,
    from: &std::collections::BTreeMap<String, T>,
    carried: &mut [String],
    ready: &mut Option<String>,
) {
    let was_ready = ready.clone();
    for w in carried {
        let was = w.clone();
        take_named(into, from, w);
        if was_ready.as_ref() == Some(&was) {
            *ready = Some(w.clone());
        }
    }
}

/// A combatant or a mount of a scenario, as a template ([`ScenarioEdit::AddCombatant`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    /// A mount, not a combatant.
    pub mount: bool,
    /// Its id there.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its side there (none for a mount).
    pub side: Option<SideId>,
    /// Its spec, as the file writes it.
    pub spec: String,
    /// Its scenario's rules block, as the file writes it.
    pub rules: String,
}

impl<R, S, M, P> EditScenario for Scenario<R, S, M, P>
where
    R: Serialize + DeserializeOwned + EditRules<S, M>,
    S: Clone + Serialize + DeserializeOwned,
    M: Clone + Serialize + DeserializeOwned + Default,
    P: Serialize + DeserializeOwned + LocationProperty,
{
    fn round_scenery(&self) -> Vec<RoundScenery> {
        self.rules.round_scenery()
    }

    fn scenery_kinds(&self) -> Vec<(&'static str, &'static str)> {
        self.rules.scenery_kinds()
    }

    fn properties(&self, id: &LocationId) -> Vec<String> {
        let Some(location) = self.locations.iter().find(|l| &l.id == id) else { return Vec::new() };
        location.properties.iter().filter_map(|p| ron::to_string(p).ok()).collect()
    }

    fn pieces(&self) -> Vec<Piece> {
        let rules = ron::to_string(&self.rules).unwrap_or_default();
        let combatants = self.combatants.iter().filter_map(|c| {
            let mut c = c.clone();
            (c.rides, c.location, c.position) = (None, None, None);
            let spec = ron::to_string(&c).ok()?;
            Some(Piece {
                mount: false,
                id: c.id.to_string(),
                name: c.name,
                side: Some(c.side),
                spec,
                rules: rules.clone(),
            })
        });
        let mounts = self.mounts.iter().filter_map(|m| {
            let mut m = m.clone();
            (m.location, m.position) = (None, None);
            let spec = ron::to_string(&m).ok()?;
            Some(Piece {
                mount: true,
                id: m.id.to_string(),
                name: m.name,
                side: None,
                spec,
                rules: rules.clone(),
            })
        });
        combatants.chain(mounts).collect()
    }

    fn apply(&mut self, edit: &ScenarioEdit) -> Result<(), String> {
        match edit {
            ScenarioEdit::AddLocation { at } => self.add_location(*at),
            ScenarioEdit::MoveLocation { id, to } => self.location(id)?.position = *to,
            ScenarioEdit::RenameLocation { id, name } => {
                let name = name.trim();
                if name.is_empty() {
                    return Err(format!("location '{id}': a name cannot be empty"));
                }
                self.location(id)?.name = name.to_owned();
            }
            ScenarioEdit::SetProperties { id, properties } => {
                let read = properties
                    .iter()
                    .map(|p| {
                        ron::from_str::<P>(p)
                            .map_err(|e| format!("location '{id}': property {p}: {}", e.code))
                    })
                    .collect::<Result<Vec<P>, String>>()?;
                self.location(id)?.properties = read;
            }
            ScenarioEdit::DeleteLocation { id } => self.delete_location(id)?,
            ScenarioEdit::SetEntry { from, to, allowed } => self.set_entry(from, to, *allowed)?,
            ScenarioEdit::PlaceScenery { kind, index, at, radius } => {
                let list = self.scenery(kind)?;
                if !list.place(*index, *at, *radius) {
                    return Err(format!("no {kind} {} in this scenario", index + 1));
                }
            }
            ScenarioEdit::AddScenery { kind, at } => self.scenery(kind)?.add(*at),
            ScenarioEdit::DeleteScenery { kind, index } => {
                if !self.scenery(kind)?.remove(*index) {
                    return Err(format!("no {kind} {} in this scenario", index + 1));
                }
            }
            ScenarioEdit::AddCombatant { spec, rules, side, at } => {
                self.add_combatant(spec, rules, side, at)?
            }
            ScenarioEdit::AddMount { spec, rules, at } => self.add_mount(spec, rules, at)?,
            ScenarioEdit::PlaceMount { id, at } => self.place_mount(id, at)?,
            ScenarioEdit::Ride { id, mount } => self.ride(id, mount)?,
            ScenarioEdit::CopyMount { id } => self.copy_mount(id)?,
            ScenarioEdit::DeleteMount { id } => self.delete_mount(id)?,
            ScenarioEdit::PlaceCombatant { id, at } => {
                let c = self.combatant(id)?;
                c.rides = None;
                (c.location, c.position) = placed(at);
            }
            ScenarioEdit::CopyCombatant { id } => self.copy_combatant(id)?,
            ScenarioEdit::DeleteCombatant { id } => {
                self.combatant(id)?;
                self.combatants.retain(|c| &c.id != id);
                self.unseat(id);
            }
            ScenarioEdit::SetSide { id, side } => self.combatant(id)?.side = side.clone(),
            ScenarioEdit::SetController { id, controller } => self.set_controller(id, controller)?,
            ScenarioEdit::AddSeat | ScenarioEdit::RenameSeat { .. } | ScenarioEdit::DeleteSeat { .. } => {
                self.edit_seats(edit)?;
            }
        }
        Ok(())
    }
}

/// The edits [`EditScenario::apply`] hands on, one each.
impl<R, S, M, P> Scenario<R, S, M, P>
where
    R: Serialize + DeserializeOwned + EditRules<S, M>,
    S: Clone + Serialize + DeserializeOwned,
    M: Clone + Serialize + DeserializeOwned + Default,
    P: Serialize + DeserializeOwned + LocationProperty,
{
    /// A location at `at`, with the first free id `location_N`.
    fn add_location(&mut self, at: (f32, f32)) {
        let n = (1..).find(|n| !self.locations.iter().any(|l| l.id.as_str() == format!("location_{n}")));
        let n = n.unwrap_or(0);
        self.locations.push(crate::scenario::LocationSpec {
            id: LocationId::from(format!("location_{n}")),
            name: format!("Location {n}"),
            entered_from: None,
            properties: Vec::new(),
            position: at,
            size: (200.0, 140.0),
            image: None,
        });
    }

    /// A location gone: no arrow leads from it, and who stood in it stands in no location.
    fn delete_location(&mut self, id: &LocationId) -> Result<(), String> {
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
        Ok(())
    }

    /// Whether `to` may be entered from `from`; refused when it already is as asked.
    fn set_entry(&mut self, from: &LocationId, to: &LocationId, allowed: bool) -> Result<(), String> {
        if from.as_str() != LocationId::FIELD && !self.locations.iter().any(|l| &l.id == from) {
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
        Ok(())
    }

    /// The ruleset's list of one kind of scenery.
    fn scenery(&mut self, kind: &str) -> Result<&mut dyn SceneryList, String> {
        self.rules.scenery_list(kind).ok_or_else(|| format!("no {kind} in this ruleset"))
    }

    /// A combatant from a template (a fresh id where its own is taken), with what its
    /// scenario's rules say of its weapons and armour.
    fn add_combatant(
        &mut self,
        spec: &str,
        rules: &str,
        side: &SideId,
        at: &Placement,
    ) -> Result<(), String> {
        let mut c: CombatantSpec<S> =
            ron::from_str(spec).map_err(|e| format!("a combatant template: {}", e.code))?;
        if let Some(from) = read_rules::<R>(rules)? {
            self.rules.take_for_combatant(&from, &mut c.sheet);
        }
        let (id, n) = fresh(c.id.as_str(), &self.piece_ids());
        c.id = CombatantId::from(id);
        if let Some(n) = n {
            c.name = format!("{} {n}", c.name);
        }
        (c.side, c.rides) = (side.clone(), None);
        (c.location, c.position) = placed(at);
        self.combatants.push(c);
        Ok(())
    }

    /// A mount from a template, as [`Self::add_combatant`].
    fn add_mount(&mut self, spec: &str, rules: &str, at: &Placement) -> Result<(), String> {
        let mut m: MountSpec<M> = ron::from_str(spec).map_err(|e| format!("a mount template: {}", e.code))?;
        if let Some(from) = read_rules::<R>(rules)? {
            self.rules.take_for_mount(&from, &mut m.sheet);
        }
        let (id, n) = fresh(m.id.as_str(), &self.piece_ids());
        m.id = MountId::from(id);
        if let Some(n) = n {
            m.name = format!("{} {n}", m.name);
        }
        (m.location, m.position) = placed(at);
        self.mounts.push(m);
        Ok(())
    }

    /// A mount placed, its rider with it.
    fn place_mount(&mut self, id: &MountId, at: &Placement) -> Result<(), String> {
        let place = placed(at);
        let m = self.mount(id)?;
        (m.location, m.position) = place.clone();
        for c in self.combatants.iter_mut().filter(|c| c.rides.as_ref() == Some(id)) {
            (c.location, c.position) = (place.0.clone(), None);
        }
        Ok(())
    }

    /// A copy of a mount, under a fresh id and a numbered name.
    fn copy_mount(&mut self, id: &MountId) -> Result<(), String> {
        let mut copy = self.mount(id)?.clone();
        let (fresh_id, n) = fresh(id.as_str(), &self.piece_ids());
        copy.id = MountId::from(fresh_id);
        copy.name = format!("{} {}", copy.name, n.unwrap_or(2));
        self.mounts.push(copy);
        Ok(())
    }

    /// A mount gone; its rider stays where it stood.
    fn delete_mount(&mut self, id: &MountId) -> Result<(), String> {
        let m = self.mount(id)?.clone();
        self.mounts.retain(|x| &x.id != id);
        for c in self.combatants.iter_mut().filter(|c| c.rides.as_ref() == Some(id)) {
            (c.rides, c.location, c.position) = (None, m.location.clone(), m.position);
        }
        Ok(())
    }

    /// A copy of a combatant, under a fresh id and a numbered name, riding nothing.
    fn copy_combatant(&mut self, id: &CombatantId) -> Result<(), String> {
        let mut copy = self.combatant(id)?.clone();
        let (fresh_id, n) = fresh(id.as_str(), &self.piece_ids());
        copy.id = CombatantId::from(fresh_id);
        copy.name = format!("{} {}", copy.name, n.unwrap_or(2));
        // A copy cannot ride the same mount.
        copy.rides = None;
        self.combatants.push(copy);
        Ok(())
    }

    /// `id` rides `mount`, where the mount stands; refused if another rides it.
    fn ride(&mut self, id: &CombatantId, mount: &MountId) -> Result<(), String> {
        let location = self.mount(mount)?.location.clone();
        if let Some(other) = self.combatants.iter().find(|c| c.rides.as_ref() == Some(mount) && &c.id != id) {
            return Err(format!("{mount} is already ridden by {}", other.id));
        }
        let c = self.combatant(id)?;
        (c.rides, c.location, c.position) = (Some(mount.clone()), location, None);
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

    fn combatant(&mut self, id: &CombatantId) -> Result<&mut CombatantSpec<S>, String> {
        self.combatants
            .iter_mut()
            .find(|c| &c.id == id)
            .ok_or_else(|| format!("no combatant '{id}' in this scenario"))
    }

    fn mount(&mut self, id: &MountId) -> Result<&mut MountSpec<M>, String> {
        self.mounts
            .iter_mut()
            .find(|m| &m.id == id)
            .ok_or_else(|| format!("no mount '{id}' in this scenario"))
    }

    /// The ids of its combatants and mounts (one namespace: the sheet form and `--vary`
    /// name a sheet by its id).
    fn piece_ids(&self) -> Vec<&str> {
        let combatants = self.combatants.iter().map(|c| c.id.as_str());
        combatants.chain(self.mounts.iter().map(|m| m.id.as_str())).collect()
    }
}

/// The name a template's spec gives, else `otherwise`.
fn named(spec: &str, otherwise: &str) -> String {
    #[derive(serde::Deserialize)]
    struct Named {
        name: String,
    }
    ron::from_str::<Named>(spec).map_or_else(|_| otherwise.to_owned(), |n| n.name)
}

/// A template's rules block (none when empty).
fn read_rules<R: DeserializeOwned>(rules: &str) -> Result<Option<R>, String> {
    if rules.trim().is_empty() {
        return Ok(None);
    }
    ron::from_str(rules).map(Some).map_err(|e| format!("a template's rules: {}", e.code))
}

/// A placement as a spec's `location` and `position`.
fn placed(at: &Placement) -> (Option<LocationId>, Option<(f32, f32)>) {
    match at {
        Placement::Location(place) if place.as_str() == LocationId::FIELD => (None, None),
        Placement::Location(place) => (Some(place.clone()), None),
        Placement::Field(point) => (None, Some(*point)),
    }
}

/// `base` if no id in `taken` is, else `base_N` with the first free N from 2 (and N).
fn fresh(base: &str, taken: &[&str]) -> (String, Option<u32>) {
    if !taken.contains(&base) {
        return (base.to_owned(), None);
    }
    let n = (2..).find(|n| !taken.contains(&format!("{base}_{n}").as_str())).unwrap_or(0);
    (format!("{base}_{n}"), Some(n))
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::take_weapons;

    #[test]
    fn a_weapon_brought_under_a_fresh_name_stays_the_ready_one() {
        let mut here = BTreeMap::from([("axe".to_owned(), 5), ("bow".to_owned(), 2)]);
        let there = BTreeMap::from([("axe".to_owned(), 7), ("bow".to_owned(), 2), ("pike".to_owned(), 4)]);
        let mut carried = vec!["axe".to_owned(), "bow".to_owned(), "pike".to_owned()];
        let mut ready = Some("axe".to_owned());
        take_weapons(&mut here, &there, &mut carried, &mut ready);
        assert_eq!(carried, ["axe_2", "bow", "pike"], "a clash renamed, a same entry and a new one kept");
        assert_eq!(ready.as_deref(), Some("axe_2"), "the ready weapon follows its new name");
        assert_eq!((here["axe"], here["axe_2"], here["pike"]), (5, 7, 4));
    }
}
