//! The table objects every ruleset shares: combatants, mounts, sides, controllers, and the
//! "occupies" and "rides" relationships.

use std::collections::BTreeMap;

use bevy_ecs::prelude::*;
use serde::{Deserialize, Serialize};

use crate::ids::{CombatantId, LocationId, MountId, SeatId, SideId};
use crate::tokens::Counters;

/// A combatant on the table.
#[derive(Component, Clone, Debug)]
#[require(Counters, Status, Controller, crate::ai::AiLevel)]
pub struct Combatant {
    /// Stable id.
    pub id: CombatantId,
    /// Shown name.
    pub name: String,
}

/// The side a combatant fights for.
#[derive(Component, Clone, Debug, PartialEq, Eq)]
#[require(SideIndex)]
pub struct Side(pub SideId);

/// The position of the combatant's side in the scenario's list of sides: a cheap way to
/// tell friends from enemies.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SideIndex(pub u16);

/// Who takes a combatant's decisions.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Controller {
    /// The game master, at the board (older files and saves say `Human`).
    #[serde(alias = "Human")]
    Gm,
    /// A player's seat (the scenario's `seats` say who sits where).
    Player(SeatId),
    /// The rules' own simple policy.
    #[default]
    Ai,
}

impl Controller {
    /// Whether a person decides (the GM or a player), not the AI.
    pub fn is_person(&self) -> bool {
        !matches!(self, Controller::Ai)
    }
}

/// The players' seats at the table, in the scenario's order, with their shown names.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct Seats(pub Vec<(SeatId, String)>);

impl Seats {
    /// A seat's shown name (its id if it has none).
    pub fn name(&self, id: &SeatId) -> String {
        self.0.iter().find(|(s, _)| s == id).map_or_else(|| id.to_string(), |(_, n)| n.clone())
    }

    /// Who a controller is, for people: "the GM", a player's name, "the AI".
    pub fn who(&self, controller: &Controller) -> String {
        match controller {
            Controller::Gm => "the GM".to_owned(),
            Controller::Player(seat) => self.name(seat),
            Controller::Ai => "the AI".to_owned(),
        }
    }

    /// Every controller a combatant may be given: the GM, each seat, the AI.
    pub fn choices(&self) -> Vec<Controller> {
        let seats = self.0.iter().map(|(id, _)| Controller::Player(id.clone()));
        core::iter::once(Controller::Gm).chain(seats).chain([Controller::Ai]).collect()
    }
}

/// Whether a combatant is still in the fight.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Conscious and on the field.
    #[default]
    Fighting,
    /// Out of action until revived.
    Unconscious,
    /// Out for good.
    Dead,
    /// Left the combat scene.
    Fled,
    /// Gave up, hands raised: on the table (it may be attacked), not fighting.
    Surrendered,
}

impl Status {
    /// May take turns and decisions.
    pub fn can_act(self) -> bool {
        self == Status::Fighting
    }
}

/// A mount a combatant can ride.
#[derive(Component, Clone, Debug)]
#[require(Counters)]
pub struct Mount {
    /// Stable id.
    pub id: MountId,
    /// Shown name.
    pub name: String,
}

/// Where a combatant or mount stands on the board when it is in no location (board units).
#[derive(Component, Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct FieldPosition(pub [f32; 2]);

/// The location (or the open field) a combatant or mount occupies.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
#[relationship(relationship_target = Occupants)]
pub struct Occupies(pub Entity);

/// Everyone occupying a location.
#[derive(Component, Debug, Default)]
#[relationship_target(relationship = Occupies)]
pub struct Occupants(Vec<Entity>);

/// The mount a combatant is riding.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
#[relationship(relationship_target = RiddenBy)]
pub struct Rides(pub Entity);

/// The rider of a mount (at most one).
#[derive(Component, Debug)]
#[relationship_target(relationship = Rides)]
pub struct RiddenBy(Entity);

impl RiddenBy {
    /// The rider.
    pub fn rider(&self) -> Entity {
        self.0
    }
}

/// Finds table entities by their stable ids. Filled when a scenario is spawned.
#[derive(Resource, Debug, Default, Clone)]
pub struct TableIndex {
    /// Combatants by id.
    pub combatants: BTreeMap<CombatantId, Entity>,
    /// Locations by id, the open field included.
    pub locations: BTreeMap<LocationId, Entity>,
    /// Mounts by id.
    pub mounts: BTreeMap<MountId, Entity>,
    /// Sides in scenario order, with their names.
    pub sides: Vec<(SideId, String)>,
    /// Combatants in scenario order (the order AI and tie-breaks iterate in).
    pub order: Vec<Entity>,
    /// Locations in scenario order, the open field excluded.
    pub location_order: Vec<Entity>,
}

impl TableIndex {
    /// The combatant with this id.
    pub fn combatant(&self, id: &CombatantId) -> Option<Entity> {
        self.combatants.get(id).copied()
    }

    /// The location with this id.
    pub fn location(&self, id: &LocationId) -> Option<Entity> {
        self.locations.get(id).copied()
    }

    /// The mount with this id.
    pub fn mount(&self, id: &MountId) -> Option<Entity> {
        self.mounts.get(id).copied()
    }

    /// "No location" (absent only before a scenario is spawned).
    pub fn field(&self) -> Option<Entity> {
        self.location(&LocationId::field())
    }
}

/// The picture a combatant, a mount or a location is drawn with: a PNG under `assets/`.
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct Art(pub String);

/// The picture under the board, if the scenario names one.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct BoardMap(pub Option<crate::scenario::MapSpec>);

/// A combatant's stable id (empty for an entity that is not one).
pub fn id(world: &World, e: Entity) -> CombatantId {
    world.get::<Combatant>(e).map_or_else(|| CombatantId::from(""), |c| c.id.clone())
}

/// A combatant's shown name.
pub fn name(world: &World, e: Entity) -> String {
    world.get::<Combatant>(e).map_or_else(|| "someone".to_owned(), |c| c.name.clone())
}

/// A combatant's status (dead for an entity that is not one).
pub fn status(world: &World, e: Entity) -> Status {
    world.get::<Status>(e).copied().unwrap_or(Status::Dead)
}

/// Conscious and in the fight.
pub fn can_act(world: &World, e: Entity) -> bool {
    status(world, e).can_act()
}

/// Fights on by its status alone: the [`crate::ruleset::Fights`] of a ruleset with no test of
/// its own.
pub fn fights_by_status(_: &World, _: Entity, status: Status) -> bool {
    status.can_act()
}

/// Still on the table (fighting, unconscious or surrendered): can be targeted.
pub fn on_table(world: &World, e: Entity) -> bool {
    matches!(status(world, e), Status::Fighting | Status::Unconscious | Status::Surrendered)
}

/// Every combatant's entity, side and status through one kept query: a ruleset asks whether
/// its fight goes on several times a pass, and looking each combatant's components up by type
/// cost a sixth of a battle.
#[derive(Resource)]
pub struct SidesAndStatus(std::sync::Mutex<QueryState<(Entity, &'static SideIndex, &'static Status)>>);

impl FromWorld for SidesAndStatus {
    fn from_world(world: &mut World) -> Self {
        Self(std::sync::Mutex::new(QueryState::new(world)))
    }
}

/// Whether combatants of two sides or more pass `fights` (given each one's status; it stops
/// at the second side): a ruleset's test that its fight goes on, cheap enough for a run
/// condition.
pub fn two_sides_fight(world: &World, fights: impl Fn(Entity, Status) -> bool) -> bool {
    let mut first = None;
    // `fights` is asked only of a combatant that would change the answer.
    let mut two = |e: Entity, side: SideIndex, status: Status| {
        if first == Some(side) || !fights(e, status) {
            return false;
        }
        first.replace(side).is_some()
    };
    // A world built without `FrayCorePlugin` keeps no query: look each combatant up.
    let Some(kept) = world.get_resource::<SidesAndStatus>() else {
        let order = &world.resource::<TableIndex>().order;
        return order
            .iter()
            .any(|&e| world.get::<SideIndex>(e).is_some_and(|&s| two(e, s, status(world, e))));
    };
    let mut query = kept.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    query.update_archetypes(world);
    query.iter_manual(world).any(|(e, &side, &status)| two(e, side, status))
}

/// Whether two combatants fight on different sides.
pub fn enemies(world: &World, a: Entity, b: Entity) -> bool {
    match (world.get::<SideIndex>(a), world.get::<SideIndex>(b)) {
        (Some(x), Some(y)) => x != y,
        _ => false,
    }
}

/// Sets a combatant's status and logs the change; the dead stay dead.
pub fn set_status(world: &mut World, e: Entity, status: Status) {
    let Some(mut now) = world.get_mut::<Status>(e) else { return };
    if *now == status || *now == Status::Dead {
        return;
    }
    *now = status;
    let who = id(world, e);
    world.resource_mut::<crate::log::GameLog>().about(&who, crate::log::LogEvent::StatusChanged { status });
}
