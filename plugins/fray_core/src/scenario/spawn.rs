//! A scenario's core objects spawned onto the table ("no location", locations, mounts and
//! combatants, with their relationships), and the table cleared for the next one.

use std::collections::BTreeMap;

use bevy_ecs::prelude::*;

use super::Scenario;
use crate::dice::TableRng;
use crate::ids::{LocationId, MountId};
use crate::location::{EnteredFrom, Location, OpenField};
use crate::log::{GameLog, LogEvent};
use crate::table::{
    Art, BoardMap, Combatant, FieldPosition, Mount, Occupies, Rides, Seats, Side, SideIndex, TableIndex,
};

impl<R, S, M, P> Scenario<R, S, M, P> {
    /// Spawns the table objects: "no location", locations, mounts and combatants, with their
    /// relationships, and starts the log in `first_phase`, its clock counting `clock_unit`s.
    /// Returns the index of stable ids. The ruleset then adds its components.
    pub fn spawn_core(
        &self,
        world: &mut World,
        seed: u64,
        first_phase: &'static str,
        clock_unit: &'static str,
    ) -> TableIndex {
        let mut index = TableIndex {
            sides: self.sides.iter().map(|s| (s.id.clone(), s.name.clone())).collect(),
            ..Default::default()
        };
        world.insert_resource(BoardMap(self.map.clone()));
        world.insert_resource(Seats(self.seats.iter().map(|s| (s.id.clone(), s.name.clone())).collect()));
        let field = self.spawn_locations(world, &mut index);
        let mount_places = self.spawn_mounts(world, &mut index, field);
        let shown = self.combatant_names();
        self.spawn_combatants(world, &mut index, (field, &mount_places), &shown);
        // A table playing battle after battle keeps the last log's room (the balance lab).
        let mut log =
            world.get_resource_mut::<GameLog>().map_or_else(GameLog::default, |mut old| old.emptied());
        log.set_phase(first_phase);
        log.push(
            None,
            LogEvent::BattleStarted {
                schema: crate::log::SCHEMA,
                scenario: self.name.clone(),
                ruleset: self.ruleset.clone(),
                seed,
                clock_unit,
                names: self.names_with(&shown),
            },
        );
        world.insert_resource(log);
        world.insert_resource(TableRng::seeded(seed));
        world.insert_resource(index.clone());
        index
    }

    /// "No location" and every location, with what each may be entered from; returns "no
    /// location".
    fn spawn_locations(&self, world: &mut World, index: &mut TableIndex) -> Entity {
        let field = world
            .spawn((
                Location {
                    id: LocationId::field(),
                    name: "the open field".to_owned(),
                    position: [0.0, 0.0],
                    size: [0.0, 0.0],
                },
                OpenField,
                EnteredFrom::default(),
            ))
            .id();
        index.locations.insert(LocationId::field(), field);
        for l in &self.locations {
            let mut e = world.spawn(Location {
                id: l.id.clone(),
                name: l.name.clone(),
                position: [l.position.0, l.position.1],
                size: [l.size.0, l.size.1],
            });
            if let Some(image) = &l.image {
                e.insert(Art(image.clone()));
            }
            let e = e.id();
            index.locations.insert(l.id.clone(), e);
            index.location_order.push(e);
        }
        for l in &self.locations {
            let from: Vec<Entity> = match &l.entered_from {
                None => vec![field],
                Some(ids) => ids.iter().filter_map(|id| index.location(id)).collect(),
            };
            let e = index.locations[&l.id];
            world.entity_mut(e).insert(EnteredFrom(from));
        }
        field
    }

    /// Every mount where it stands; returns each one's place.
    fn spawn_mounts(
        &self,
        world: &mut World,
        index: &mut TableIndex,
        field: Entity,
    ) -> BTreeMap<MountId, Entity> {
        let mut mount_places = BTreeMap::new();
        for m in &self.mounts {
            let at = place(index, &m.location, field);
            let mut e = world.spawn((Mount { id: m.id.clone(), name: m.name.clone() }, Occupies(at)));
            if let Some((x, y)) = m.position {
                e.insert(FieldPosition([x, y]));
            }
            if let Some(image) = &m.image {
                e.insert(Art(image.clone()));
            }
            index.mounts.insert(m.id.clone(), e.id());
            mount_places.insert(m.id.clone(), at);
        }
        mount_places
    }

    /// Every combatant under its shown name, where it stands (a rider where its mount does).
    fn spawn_combatants(
        &self,
        world: &mut World,
        index: &mut TableIndex,
        (field, mount_places): (Entity, &BTreeMap<MountId, Entity>),
        shown: &[String],
    ) {
        for (c, name) in self.combatants.iter().zip(shown.iter().cloned()) {
            let mount = c.rides.as_ref().and_then(|m| index.mount(m));
            let at = c
                .rides
                .as_ref()
                .and_then(|m| mount_places.get(m).copied())
                .unwrap_or_else(|| place(index, &c.location, field));
            let side = self.sides.iter().position(|s| s.id == c.side).unwrap_or(0) as u16;
            let mut e = world.spawn((
                Combatant { id: c.id.clone(), name },
                Side(c.side.clone()),
                SideIndex(side),
                self.controller_of(c),
                c.ai,
                Occupies(at),
            ));
            if let Some(mount) = mount {
                e.insert(Rides(mount));
            }
            if let Some((x, y)) = c.position {
                e.insert(FieldPosition([x, y]));
            }
            if let Some(image) = &c.image {
                e.insert(Art(image.clone()));
            }
            let id = e.id();
            index.combatants.insert(c.id.clone(), id);
            index.order.push(id);
        }
    }
}

/// The location a spec names, else "no location".
fn place(index: &TableIndex, at: &Option<LocationId>, field: Entity) -> Entity {
    at.as_ref().and_then(|id| index.locations.get(id).copied()).unwrap_or(field)
}

/// Despawns every table object (locations, mounts, combatants and their tokens) and resets
/// the core's resources, so that another scenario can be spawned into the same app.
pub fn clear_table(world: &mut World) {
    let mut doomed: Vec<Entity> = Vec::new();
    doomed.extend(world.query_filtered::<Entity, With<Combatant>>().iter(world));
    doomed.extend(world.query_filtered::<Entity, With<Mount>>().iter(world));
    doomed.extend(world.query_filtered::<Entity, With<Location>>().iter(world));
    doomed.extend(world.query_filtered::<Entity, With<crate::tokens::CounterToken>>().iter(world));
    for e in doomed {
        if let Ok(entity) = world.get_entity_mut(e) {
            entity.despawn();
        }
    }
    world.insert_resource(crate::intent::Outcomes::default());
    world.insert_resource(crate::phase::StepProgress::default());
    world.insert_resource(TableIndex::default());
    world.remove_resource::<crate::ruleset::FightResult>();
    world.remove_resource::<crate::phase::RulesHalted>();
}
