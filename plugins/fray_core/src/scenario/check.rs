//! The core's checks of a scenario: counts, ids, references, sizes and pictures. The ruleset
//! checks its own blocks and adds its problems to the same list.

use std::collections::{BTreeMap, BTreeSet};

use super::{
    MAX_COMBATANTS, MAX_COORDINATE, MAX_LOCATIONS, MAX_MOUNTS, MAX_SEATS, MapSpec, Scenario, image_problem,
    on_board,
};
use crate::ids::LocationId;

/// The ids a scenario declares, by kind ("no location" among the locations).
struct Ids {
    sides: BTreeSet<String>,
    locations: BTreeSet<String>,
    mounts: BTreeSet<String>,
}

impl<R, S, M, P> Scenario<R, S, M, P> {
    /// Checks everything the core knows about: ids, references, sizes. The ruleset checks
    /// its own blocks and adds its problems to the same list.
    pub fn core_problems(&self) -> Vec<String> {
        let mut problems = Vec::new();
        let ids = self.id_problems(&mut problems);
        self.image_problems(&mut problems);
        if let Some(map) = &self.map {
            map_problems(map, &mut problems);
        }
        self.location_problems(&ids, &mut problems);
        self.rider_problems(&ids, &mut problems);
        self.seat_problems(&mut problems);
        problems
    }

    /// Too many of anything, fewer than two sides, and ids empty, repeated or reserved.
    fn id_problems(&self, p: &mut Vec<String>) -> Ids {
        if self.combatants.len() > MAX_COMBATANTS {
            p.push(format!("{} combatants; at most {MAX_COMBATANTS} are allowed", self.combatants.len()));
        }
        if self.locations.len() > MAX_LOCATIONS {
            p.push(format!("{} locations; at most {MAX_LOCATIONS} are allowed", self.locations.len()));
        }
        if self.mounts.len() > MAX_MOUNTS {
            p.push(format!("{} mounts; at most {MAX_MOUNTS} are allowed", self.mounts.len()));
        }
        if self.sides.len() < 2 {
            p.push("a fight needs at least two sides".to_owned());
        }
        let sides = unique_ids(p, "side", self.sides.iter().map(|s| s.id.as_str()));
        let mut locations = unique_ids(p, "location", self.locations.iter().map(|l| l.id.as_str()));
        if locations.contains(LocationId::FIELD) {
            p.push(format!(
                "location id '{}' is reserved for the open field; pick another id",
                LocationId::FIELD
            ));
        }
        locations.insert(LocationId::FIELD.to_owned());
        let mounts = unique_ids(p, "mount", self.mounts.iter().map(|m| m.id.as_str()));
        let combatants = unique_ids(p, "combatant", self.combatants.iter().map(|c| c.id.as_str()));
        for both in mounts.intersection(&combatants) {
            p.push(format!(
                "combatant '{both}' has a mount's id: give one of them another (a sheet is named by its id)"
            ));
        }
        Ids { sides, locations, mounts }
    }

    /// A picture that is not a PNG inside the assets.
    fn image_problems(&self, p: &mut Vec<String>) {
        let images = self.locations.iter().map(|l| ("location", l.id.as_str(), &l.image));
        let images = images.chain(self.mounts.iter().map(|m| ("mount", m.id.as_str(), &m.image)));
        let images = images.chain(self.combatants.iter().map(|c| ("combatant", c.id.as_str(), &c.image)));
        for (kind, id, image) in images {
            if let Some(why) = image.as_deref().and_then(image_problem) {
                p.push(format!("{kind} '{id}': {why}"));
            }
        }
    }

    /// A location entered from one that is not there or from itself, off the board, or of
    /// an absurd size.
    fn location_problems(&self, ids: &Ids, p: &mut Vec<String>) {
        for l in &self.locations {
            for from in l.entered_from.iter().flatten() {
                if !ids.locations.contains(from.as_str()) {
                    p.push(format!(
                        "location '{}': entered_from names '{from}', which is not a location of this scenario",
                        l.id
                    ));
                }
                if from == &l.id {
                    p.push(format!("location '{}': entered_from names itself", l.id));
                }
            }
            check_coords(p, &format!("location '{}'", l.id), Some(l.position));
            if !(l.size.0 > 0.0 && l.size.1 > 0.0 && l.size.0 <= MAX_COORDINATE && l.size.1 <= MAX_COORDINATE)
            {
                p.push(format!(
                    "location '{}': size {:?} must be positive and at most {MAX_COORDINATE}",
                    l.id, l.size
                ));
            }
        }
    }

    /// Mounts and combatants in places, on sides and on mounts that are not there; a mount
    /// ridden twice; a rider apart from its mount; anything off the board.
    fn rider_problems(&self, ids: &Ids, p: &mut Vec<String>) {
        for m in &self.mounts {
            if let Some(at) = &m.location
                && !ids.locations.contains(at.as_str())
            {
                p.push(format!("mount '{}': location '{at}' is not a location of this scenario", m.id));
            }
            check_coords(p, &format!("mount '{}'", m.id), m.position);
        }
        let mut ridden: BTreeMap<&str, &str> = BTreeMap::new();
        for c in &self.combatants {
            if !ids.sides.contains(c.side.as_str()) {
                p.push(format!("combatant '{}': side '{}' is not a side of this scenario", c.id, c.side));
            }
            if let Some(at) = &c.location
                && !ids.locations.contains(at.as_str())
            {
                p.push(format!("combatant '{}': location '{at}' is not a location of this scenario", c.id));
            }
            if let Some(mount) = &c.rides {
                if !ids.mounts.contains(mount.as_str()) {
                    p.push(format!(
                        "combatant '{}': rides '{mount}', which is not a mount of this scenario",
                        c.id
                    ));
                } else if let Some(other) = ridden.insert(mount.as_str(), c.id.as_str()) {
                    p.push(format!("combatant '{}': mount '{mount}' is already ridden by '{other}'", c.id));
                } else if let Some(spec) = self.mounts.iter().find(|m| &m.id == mount)
                    && c.location.is_some()
                    && c.location != spec.location
                {
                    p.push(format!(
                        "combatant '{}': starts in '{}' but its mount '{mount}' stands elsewhere; a rider stands where its mount stands",
                        c.id,
                        c.location.as_ref().map_or("field", |l| l.as_str())
                    ));
                }
            }
            check_coords(p, &format!("combatant '{}'", c.id), c.position);
        }
    }
}

impl<R, S, M, P> Scenario<R, S, M, P> {
    /// Too many seats, seat ids empty or repeated, a seat with no name, a seat naming a
    /// combatant that is not there or that another seat has, a combatant whose own
    /// `controller` names a seat.
    fn seat_problems(&self, p: &mut Vec<String>) {
        if self.seats.len() > MAX_SEATS {
            p.push(format!("{} seats; at most {MAX_SEATS} are allowed", self.seats.len()));
        }
        unique_ids(p, "seat", self.seats.iter().map(|s| s.id.as_str()));
        let mut taken: BTreeMap<&str, &str> = BTreeMap::new();
        for seat in &self.seats {
            if seat.name.trim().is_empty() {
                p.push(format!("seat '{}': give the player a name", seat.id));
            }
            for c in &seat.combatants {
                if !self.combatants.iter().any(|spec| &spec.id == c) {
                    p.push(format!("seat '{}': '{c}' is not a combatant of this scenario", seat.id));
                } else if let Some(other) = taken.insert(c.as_str(), seat.id.as_str()) {
                    p.push(format!("seat '{}': '{c}' already sits with seat '{other}'", seat.id));
                }
            }
        }
        for c in &self.combatants {
            if let crate::table::Controller::Player(seat) = &c.controller {
                p.push(format!(
                    "combatant '{}': controller names seat '{seat}'; list the combatant in that seat's `combatants` instead",
                    c.id
                ));
            }
        }
    }
}

/// A map picture that is not there, scaled absurdly, or centred far off.
fn map_problems(map: &MapSpec, p: &mut Vec<String>) {
    if let Some(why) = image_problem(&map.image) {
        p.push(format!("map: {why}"));
    }
    if !(map.scale.is_finite() && map.scale > 0.0 && map.scale <= 1000.0) {
        p.push(format!("map: scale {} must be above 0 and at most 1000", map.scale));
    }
    if !on_board(map.centre) {
        p.push("map: its centre is absurdly far".to_owned());
    }
}

fn unique_ids<'a>(
    problems: &mut Vec<String>,
    what: &str,
    ids: impl Iterator<Item = &'a str>,
) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    for id in ids {
        if id.is_empty() {
            problems.push(format!("a {what} has an empty id"));
        } else if !seen.insert(id.to_owned()) {
            problems.push(format!("duplicate {what} id '{id}'"));
        }
    }
    seen
}

fn check_coords(problems: &mut Vec<String>, what: &str, at: Option<(f32, f32)>) {
    if let Some((x, y)) = at
        && !on_board((x, y))
    {
        problems.push(format!(
            "{what}: position ({x}, {y}) is off the board (at most {MAX_COORDINATE} either way)"
        ));
    }
}
