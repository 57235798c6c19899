//! How FateWalker plugs into the table: its [`Ruleset`] implementation, the one place the
//! core and the client learn of it.

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::board::{Choice, OrderView, Privacy, Scenery, SecretView, Seen, SheetRow, Space, TokenView};
use fray_core::intent::Verdict;
use fray_core::ruleset::{BoardView, Clock, Editing, Ruleset, ScenarioFacts};
use fray_core::scenario::ScenarioError;
use serde::Deserialize;

use crate::intent::FateWalkerIntent;
use crate::load::FateWalkerScenario;
use crate::phase::{Clock as TickClock, FateWalkerPhase, TickState};
use crate::{board, decisions, load};

/// The FateWalker ruleset.
pub struct FateWalker;

impl Ruleset for FateWalker {
    const ID: &'static str = "fatewalker";
    const NAME: &'static str = "FateWalker";
    // Ticks of half a second: five minutes of fighting when nobody sets a limit.
    const CLOCK: Clock = Clock { unit: "tick", units: "ticks", default_limit: 600 };
    const SPACE: Space = Space::free("m", crate::UNITS_PER_METRE);

    type Scenario = FateWalkerScenario;
    type Intent = FateWalkerIntent;
    type Phase = FateWalkerPhase;

    fn build(app: &mut App) {
        app.init_resource::<TickClock>()
            .init_resource::<TickState>()
            .init_resource::<crate::sheet::Catalogue>()
            .init_resource::<load::SurprisePenalties>()
            .init_resource::<crate::initiative::Ambusher>()
            .init_resource::<crate::clock::Script>();
        crate::schedule::plugin(app);
        crate::initiative::plugin(app);
        crate::clock::plugin(app);
        crate::declare::plugin(app);
        crate::preempt::plugin(app);
        crate::resolve::plugin(app);
        crate::movement::plugin(app);
        crate::decisions::plugin(app);
    }

    fn parse(text: &str) -> Result<FateWalkerScenario, ScenarioError> {
        load::parse_scenario(text)
    }

    fn facts(scenario: &FateWalkerScenario) -> ScenarioFacts {
        scenario.facts()
    }

    fn spawn(world: &mut World, scenario: &FateWalkerScenario, seed: u64, limit: u32) {
        load::spawn_scenario(world, scenario, seed, limit);
    }

    fn awaiting(world: &World) -> Vec<Entity> {
        decisions::awaiting(world)
    }

    fn validate(world: &World, e: Entity, intent: &FateWalkerIntent) -> Verdict {
        decisions::validate(world, e, intent).map(|_| ())
    }

    fn choices(world: &World, e: Entity) -> Vec<Choice<FateWalkerIntent>> {
        board::choices(world, e)
    }

    fn clock_title(tick: u32) -> String {
        format!("Tick {tick} ({:.1} s)", tick as f32 / 2.0)
    }
}

impl BoardView for FateWalker {
    // Sheets: each their own; simultaneous declarations sealed till all are in.
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
        board::acting(world)
    }

    fn secret(world: &World) -> Option<SecretView> {
        board::secret(world)
    }

    /// A declaration, as its button reads.
    fn revealed(world: &World, choice: &serde_json::Value) -> Option<String> {
        let intent = FateWalkerIntent::deserialize(choice).ok()?;
        Some(board::label(world, &intent))
    }

    fn scenery(world: &World) -> Vec<Scenery> {
        board::scenery(world)
    }
}

impl Editing for FateWalker {
    const TEMPLATE: &'static str = include_str!("../scenarios/template.ron");
}
