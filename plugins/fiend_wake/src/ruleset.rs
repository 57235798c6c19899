//! How Fiend Wake plugs into the table: its [`Ruleset`] implementation, the one place the
//! core and the client learn of it.

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::board::{
    AllocationAsk, CardView, Choice, CounterLook, OrderView, Privacy, QuestionView, SecretView, Seen,
    SheetRow, Space, TokenView,
};
use fray_core::edit::PropertyChoice;
use fray_core::ids::CombatantId;
use fray_core::intent::Verdict;
use fray_core::ruleset::{BoardView, Clock, Editing, Ruleset, ScenarioFacts};
use fray_core::scenario::ScenarioError;

use crate::intent::FiendWakeIntent;
use crate::load::FiendWakeScenario;
use crate::phase::{ActiveTurn, FiendWakePhase, Round};
use crate::{board, decisions, load, reactions, sheet};

/// The Fiend Wake ruleset.
pub struct FiendWake;

impl Ruleset for FiendWake {
    const ID: &'static str = "fiend_wake";
    const NAME: &'static str = "Fiend Wake";
    const CLOCK: Clock = Clock { unit: "round", units: "rounds", default_limit: 100 };
    const SPACE: Space = Space::LOCATIONS;
    const COUNTERS: &'static [CounterLook] = crate::counters::LOOKS;

    type Scenario = FiendWakeScenario;
    type Intent = FiendWakeIntent;
    type Phase = FiendWakePhase;

    fn build(app: &mut App) {
        app.init_resource::<Round>()
            .init_resource::<ActiveTurn>()
            .init_resource::<crate::phase::TurnEnds>()
            .init_resource::<reactions::Reactions>()
            .init_resource::<sheet::Catalogue>();
        crate::schedule::plugin(app);
        crate::round_prep::plugin(app);
        crate::bidding::plugin(app);
        crate::turns::plugin(app);
        crate::aftermath::plugin(app);
        crate::spells::plugin(app);
        crate::harassment::plugin(app);
        crate::end_of_round::plugin(app);
        crate::decisions::plugin(app);
    }

    fn parse(text: &str) -> Result<FiendWakeScenario, ScenarioError> {
        load::parse_scenario(text)
    }

    fn facts(scenario: &FiendWakeScenario) -> ScenarioFacts {
        scenario.facts()
    }

    fn spawn(world: &mut World, scenario: &FiendWakeScenario, seed: u64, limit: u32) {
        load::spawn_scenario(world, scenario, seed, limit);
    }

    fn clear(world: &mut World) {
        world.insert_resource(reactions::Reactions::default());
        world.insert_resource(ActiveTurn::default());
        world.insert_resource(crate::phase::TurnEnds::default());
    }

    fn park(world: &mut World) {
        world.insert_resource(ActiveTurn::default());
    }

    fn awaiting(world: &World) -> Vec<Entity> {
        decisions::awaiting(world)
    }

    fn validate(world: &World, e: Entity, intent: &FiendWakeIntent) -> Verdict {
        decisions::validate(world, e, intent).map(|_| ())
    }

    fn choices(world: &World, e: Entity) -> Vec<Choice<FiendWakeIntent>> {
        board::choices(world, e)
    }
}

impl BoardView for FiendWake {
    // Sheets: a player knows their own, the GM every fiend's; bids sealed till the reveal.
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
        board::acting(world)
    }

    fn secret(world: &World) -> Option<SecretView> {
        board::secret(world)
    }

    /// A bid: "3 TP".
    fn revealed(_world: &World, choice: &serde_json::Value) -> Option<String> {
        let tp = choice.pointer("/Bid/tp")?.as_u64()?;
        Some(format!("{tp} TP"))
    }

    fn question(world: &World) -> Option<QuestionView> {
        board::question(world)
    }

    fn allocation(world: &World) -> Option<AllocationAsk> {
        board::allocation(world)
    }

    fn allocate(_world: &World, _who: Entity, given: &[(CombatantId, u32)]) -> Option<FiendWakeIntent> {
        Some(board::allocate(given))
    }
}

impl Editing for FiendWake {
    const TEMPLATE: &'static str = include_str!("../scenarios/template.ron");
    const LOCATION_PROPERTIES: &'static [PropertyChoice] = &[
        PropertyChoice { text: "EntryCost(2)", about: "tactical points to enter it (1 when not given)" },
        PropertyChoice { text: "Cover(1)", about: "attacks and assaults from outside are this much harder" },
        PropertyChoice { text: "AssaultDifficulty(8)", about: "the difficulty of assaulting it" },
        PropertyChoice {
            text: "RubblePerSiege(1)",
            about: "each siege point raises its entry cost this much",
        },
        PropertyChoice { text: "CollapsesAt(4)", about: "it collapses with this much siege damage" },
        PropertyChoice { text: "WoundsAtTurnStart(1)", about: "wounds to whoever begins a turn here" },
        PropertyChoice { text: "Note(\"\")", about: "words for the table, no rule" },
    ];
}
