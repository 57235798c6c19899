//! How Fast & Slow plugs into the table: its `Ruleset` implementation.

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::board::{
    ChipShape, Choice, Corner, CounterLook, CounterOwner, OrderView, Privacy, Scenery, SecretView, Seen,
    SheetRow, Space, TokenView,
};
use fray_core::intent::Verdict;
use fray_core::ruleset::{BoardView, Clock, Editing, Ruleset, ScenarioFacts};
use fray_core::scenario::ScenarioError;

use crate::combat::FOG;
use crate::intent::FastSlowIntent;
use crate::load::{FastSlowScenario, parse_scenario, spawn_scenario};
use crate::phase::{Battle, FastSlowPhase, Fighter};
use crate::{board, commit, decisions, ending, opening, schedule, turns, upkeep};

/// Fast & Slow turns.
pub struct FastSlow;

/// Board units a Pace takes.
pub const UNITS_PER_PACE: f32 = 40.0;

impl Ruleset for FastSlow {
    const ID: &'static str = "fast_slow";
    const NAME: &'static str = "Fast & Slow";
    const CLOCK: Clock = Clock { unit: "round", units: "rounds", default_limit: 30 };
    const SPACE: Space = Space::free("paces", UNITS_PER_PACE);
    const COUNTERS: &'static [CounterLook] = &[CounterLook {
        kind: FOG,
        shape: ChipShape::Disc,
        colour: [150, 95, 210],
        ink: [255, 255, 255],
        corner: Corner::TopRight,
        legend: "purple discs FOG",
        on: CounterOwner::Combatants,
    }];

    type Scenario = FastSlowScenario;
    type Intent = FastSlowIntent;
    type Phase = FastSlowPhase;

    fn build(app: &mut App) {
        app.init_resource::<Battle>();
        schedule::plugin(app);
        opening::plugin(app);
        commit::plugin(app);
        turns::plugin(app);
        upkeep::plugin(app);
        ending::plugin(app);
        decisions::plugin(app);
    }

    fn parse(text: &str) -> Result<FastSlowScenario, ScenarioError> {
        parse_scenario(text)
    }

    fn facts(s: &FastSlowScenario) -> ScenarioFacts {
        s.facts()
    }

    fn spawn(world: &mut World, scenario: &FastSlowScenario, seed: u64, limit: u32) {
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

    fn validate(world: &World, e: Entity, intent: &FastSlowIntent) -> Verdict {
        decisions::validate(world, e, intent).map(|_| ())
    }

    fn choices(world: &World, e: Entity) -> Vec<Choice<FastSlowIntent>> {
        board::choices(world, e)
    }
}

impl BoardView for FastSlow {
    // Sheets: each their own; the Fast or Slow choice sealed till all have chosen.
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
        world.resource::<Battle>().turn.into_iter().collect()
    }

    fn secret(world: &World) -> Option<SecretView> {
        board::secret(world)
    }

    /// A turn's speed, as the log holds it: "Fast" or "Slow".
    fn revealed(_world: &World, choice: &serde_json::Value) -> Option<String> {
        choice.as_str().map(str::to_owned)
    }

    fn scenery(world: &World) -> Vec<Scenery> {
        board::scenery(world)
    }
}

impl Editing for FastSlow {
    const TEMPLATE: &'static str = include_str!("../scenarios/template.ron");
}
