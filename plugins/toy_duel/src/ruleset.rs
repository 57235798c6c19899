//! How the toy duel plugs into the table: its `Ruleset` implementation.

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::board::{ChipShape, Choice, Corner, CounterLook, CounterOwner, Privacy, Seen, Space};
use fray_core::intent::Verdict;
use fray_core::ruleset::{BoardView, Clock, Editing, Ruleset, ScenarioFacts};
use fray_core::scenario::ScenarioError;
use fray_core::table::{enemies, id, name};

use crate::intent::ToyIntent;
use crate::load::{ToyScenario, parse_scenario, spawn_scenario};
use crate::phase::{Duel, ToyPhase};
use crate::strike::SPARK;
use crate::{decisions, schedule, strike};

/// The toy duel.
pub struct ToyDuel;

impl Ruleset for ToyDuel {
    const ID: &'static str = "toy_duel";
    const NAME: &'static str = "Toy duel";
    const CLOCK: Clock = Clock { unit: "round", units: "rounds", default_limit: 50 };
    const SPACE: Space = Space::LOCATIONS;
    const COUNTERS: &'static [CounterLook] = &[CounterLook {
        kind: SPARK,
        shape: ChipShape::Diamond,
        colour: [255, 170, 40],
        ink: [0, 0, 0],
        corner: Corner::TopLeft,
        legend: "orange diamonds sparks",
        on: CounterOwner::Combatants,
    }];

    type Scenario = ToyScenario;
    type Intent = ToyIntent;
    type Phase = ToyPhase;

    fn build(app: &mut App) {
        app.init_resource::<Duel>();
        schedule::plugin(app);
        strike::plugin(app);
        decisions::plugin(app);
    }

    fn parse(text: &str) -> Result<ToyScenario, ScenarioError> {
        parse_scenario(text)
    }

    fn facts(s: &ToyScenario) -> ScenarioFacts {
        s.facts()
    }

    fn spawn(world: &mut World, scenario: &ToyScenario, seed: u64, limit: u32) {
        spawn_scenario(world, scenario, seed, limit);
    }

    fn awaiting(world: &World) -> Vec<Entity> {
        decisions::awaiting(world)
    }

    fn validate(world: &World, e: Entity, intent: &ToyIntent) -> Verdict {
        decisions::validate(world, e, intent).map(|_| ())
    }

    /// A strike at each enemy, standing or not (a fallen one says why not).
    fn choices(world: &World, e: Entity) -> Vec<Choice<ToyIntent>> {
        if !decisions::awaiting(world).contains(&e) {
            return Vec::new();
        }
        let order = world.resource::<fray_core::prelude::TableIndex>().order.clone();
        order
            .into_iter()
            .filter(|&t| enemies(world, e, t))
            .map(|t| {
                let intent = ToyIntent::Strike { target: id(world, t) };
                let verdict = Self::validate(world, e, &intent);
                Choice::new(intent, format!("Strike {}", name(world, t)), verdict).at(id(world, t))
            })
            .collect()
    }
}

impl BoardView for ToyDuel {
    // A toy: its sheets (it draws none) are open; the rest as every ruleset keeps it.
    const PRIVACY: Privacy = Privacy {
        sheets: Seen::Public,
        sealed: Seen::Controller,
        concealed: Seen::Controller,
        allocation: Seen::Controller,
    };
}

impl Editing for ToyDuel {
    const TEMPLATE: &'static str = include_str!("../scenarios/duel.ron");
}
