//! How Factions in zones plugs into the table: its `Ruleset` implementation.

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::board::{
    CardView, Choice, OrderView, Privacy, QuestionView, Seen, SheetRow, Space, TokenView,
};
use fray_core::edit::PropertyChoice;
use fray_core::intent::Verdict;
use fray_core::ruleset::{BoardView, Clock, Editing, Ruleset, ScenarioFacts};
use fray_core::scenario::ScenarioError;

use crate::intent::FactionZonesIntent;
use crate::load::{FactionZonesScenario, parse_scenario, spawn_scenario};
use crate::phase::{Battle, FactionZonesPhase};
use crate::{activation, board, decisions, ending, morale, schedule};

/// Factions in zones.
pub struct FactionZones;

impl Ruleset for FactionZones {
    const ID: &'static str = "faction_zones";
    const NAME: &'static str = "Factions in zones";
    const CLOCK: Clock = Clock { unit: "round", units: "rounds", default_limit: 40 };
    const SPACE: Space = Space::LOCATIONS;

    type Scenario = FactionZonesScenario;
    type Intent = FactionZonesIntent;
    type Phase = FactionZonesPhase;

    fn build(app: &mut App) {
        app.init_resource::<Battle>();
        schedule::plugin(app);
        activation::plugin(app);
        morale::plugin(app);
        ending::plugin(app);
        decisions::plugin(app);
    }

    fn parse(text: &str) -> Result<FactionZonesScenario, ScenarioError> {
        parse_scenario(text)
    }

    fn facts(s: &FactionZonesScenario) -> ScenarioFacts {
        s.facts()
    }

    fn spawn(world: &mut World, scenario: &FactionZonesScenario, seed: u64, limit: u32) {
        spawn_scenario(world, scenario, seed, limit);
    }

    fn clear(world: &mut World) {
        world.insert_resource(Battle::default());
    }

    fn park(world: &mut World) {
        world.insert_resource(Battle::default());
    }

    fn awaiting(world: &World) -> Vec<Entity> {
        decisions::awaiting(world)
    }

    fn validate(world: &World, e: Entity, intent: &FactionZonesIntent) -> Verdict {
        decisions::validate(world, e, intent).map(|_| ())
    }

    fn choices(world: &World, e: Entity) -> Vec<Choice<FactionZonesIntent>> {
        board::choices(world, e)
    }
}

impl BoardView for FactionZones {
    // The concealed stay off the players' screens (their own controller's aside).
    const PRIVACY: Privacy = Privacy {
        sheets: Seen::Controller,
        sealed: Seen::Controller,
        concealed: Seen::Controller,
        allocation: Seen::Controller,
    };

    fn token(world: &World, e: Entity) -> TokenView {
        board::token(world, e)
    }

    fn card(world: &World, place: Entity) -> CardView {
        board::card(world, place)
    }

    fn entry(world: &World, e: Entity, place: Entity) -> Result<String, String> {
        board::entry(world, e, place)
    }

    fn sheet(world: &World, e: Entity) -> Vec<SheetRow> {
        board::sheet(world, e)
    }

    fn order(world: &World) -> Option<OrderView> {
        board::order(world)
    }

    fn acting(world: &World) -> Vec<Entity> {
        world.resource::<Battle>().active.into_iter().collect()
    }

    fn question(world: &World) -> Option<QuestionView> {
        crate::board::question(world)
    }
}

impl Editing for FactionZones {
    const TEMPLATE: &'static str = include_str!("../scenarios/template.ron");
    const LOCATION_PROPERTIES: &'static [PropertyChoice] = &[
        PropertyChoice { text: "Cover", about: "+1 armour to those in it" },
        PropertyChoice { text: "Barrier", about: "attacks from other zones are blocked" },
        PropertyChoice { text: "Dark", about: "no one in it is seen" },
        PropertyChoice { text: "Hazard", about: "one shoved here takes the hazard's die" },
        PropertyChoice { text: "Exit", about: "a way out: one may flee the fight from here" },
    ];
}
