//! How the Initiative ladder plugs into the table: its `Ruleset` implementation.

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::board::{Choice, OrderView, Privacy, Scenery, Seen, SheetRow, Space, TokenView};
use fray_core::intent::Verdict;
use fray_core::ruleset::{BoardView, Clock, Editing, Ruleset, ScenarioFacts};
use fray_core::scenario::ScenarioError;

use crate::intent::ApLadderIntent;
use crate::load::{ApLadderScenario, parse_scenario, spawn_scenario};
use crate::phase::{ApLadderPhase, Battle, Fighter};
use crate::{board, decisions, ending, ladder, schedule};

/// The Initiative ladder.
pub struct ApLadder;

/// Board units a yard takes.
pub const UNITS_PER_YARD: f32 = 34.0;

impl Ruleset for ApLadder {
    const ID: &'static str = "ap_ladder";
    const NAME: &'static str = "Initiative ladder";
    const CLOCK: Clock = Clock { unit: "turn", units: "turns", default_limit: 20 };
    const SPACE: Space = Space::free("yd", UNITS_PER_YARD);

    type Scenario = ApLadderScenario;
    type Intent = ApLadderIntent;
    type Phase = ApLadderPhase;

    fn build(app: &mut App) {
        app.init_resource::<Battle>();
        schedule::plugin(app);
        ladder::plugin(app);
        ending::plugin(app);
        decisions::plugin(app);
    }

    fn parse(text: &str) -> Result<ApLadderScenario, ScenarioError> {
        parse_scenario(text)
    }

    fn facts(s: &ApLadderScenario) -> ScenarioFacts {
        s.facts()
    }

    fn spawn(world: &mut World, scenario: &ApLadderScenario, seed: u64, limit: u32) {
        spawn_scenario(world, scenario, seed, limit);
    }

    fn clear(world: &mut World) {
        world.insert_resource(Battle::default());
    }

    fn park(world: &mut World) {
        world.insert_resource(Battle::default());
        let mut q = world.query_filtered::<Entity, With<Fighter>>();
        let all: Vec<Entity> = q.iter(world).collect();
        for e in all {
            world.entity_mut(e).remove::<Fighter>();
        }
    }

    fn awaiting(world: &World) -> Vec<Entity> {
        decisions::awaiting(world)
    }

    fn validate(world: &World, e: Entity, intent: &ApLadderIntent) -> Verdict {
        decisions::validate(world, e, intent).map(|_| ())
    }

    fn choices(world: &World, e: Entity) -> Vec<Choice<ApLadderIntent>> {
        board::choices(world, e)
    }

    fn clock_title(clock: u32) -> String {
        if clock == 0 { "Before turn 1".to_owned() } else { format!("Turn {clock}") }
    }
}

impl BoardView for ApLadder {
    // Sheets: each their own (the ladder, rolls and damage are public).
    const PRIVACY: Privacy = Privacy {
        sheets: Seen::Controller,
        sealed: Seen::Controller,
        concealed: Seen::Controller,
        allocation: Seen::Controller,
    };

    fn token(world: &World, e: Entity) -> TokenView {
        board::token(world, e)
    }

    fn sheet(world: &World, e: Entity) -> Vec<SheetRow> {
        board::sheet(world, e)
    }

    fn order(world: &World) -> Option<OrderView> {
        board::order(world)
    }

    fn acting(world: &World) -> Vec<Entity> {
        world.resource::<Battle>().acting.into_iter().collect()
    }

    fn scenery(world: &World) -> Vec<Scenery> {
        board::scenery(world)
    }
}

impl Editing for ApLadder {
    const TEMPLATE: &'static str = include_str!("../scenarios/template.ron");
}
