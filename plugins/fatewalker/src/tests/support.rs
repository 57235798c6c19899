//! A small test table: built from RON text or the ambush scenario, driven by intents, read
//! by stable ids. Tests read as scenarios on top of it.

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::intent::{Inbox, Outcomes, Verdict};
use fray_core::log::{GameLog, LogEntry};
use fray_core::phase::CurrentPhase;
use fray_core::prelude::*;

use crate::decisions::awaiting;
use crate::sheet::ActionClock;
use crate::wounds::WoundChart;
use crate::{FateWalker, FateWalkerIntent, FateWalkerPhase, FateWalkerScenario, parse_scenario};

/// The repository's ambush scenario.
pub const AMBUSH: &str = include_str!("../../../../assets/scenarios/fatewalker_ambush.ron");

/// A yard for the text's examples: Ann (Awareness 5) with a heavy gun whose attack costs 7
/// ticks, starting at tick 4; Bo (Awareness 3) with a pistol, starting at tick 6. Both
/// are played by the test.
pub const YARD: &str = r#"
Scenario(
    name: "Test yard",
    ruleset: "fatewalker",
    seed: 3,
    rules: (
        weapons: {
            "heavy": (name: "Heavy gun", kind: Firearm, skill: "firearms", ticks: 7, damage: "6x1/6x3",
                      damage_target: 5, damage_type: Ballistic, range: (20.0, 40.0, 80.0)),
        },
    ),
    sides: [(id: "a", name: "Side A"), (id: "b", name: "Side B")],
    combatants: [
        (id: "ann", name: "Ann", side: "a", controller: Human, position: (0.0, 0.0),
         sheet: (awareness: 5, prowess: 4, will: 3, resilience: 3, speed: 5, initiative: 4,
                 skills: {"firearms": 6, "dodge": 4}, weapons: ["heavy", "knife"], ready: "heavy")),
        (id: "bo", name: "Bo", side: "b", controller: Human, position: (10.0, 0.0),
         sheet: (awareness: 3, prowess: 4, will: 3, resilience: 3, speed: 5, initiative: 6,
                 skills: {"firearms": 5, "dodge": 3}, weapons: ["pistol"], ready: "pistol")),
    ],
)
"#;

/// A table under test.
pub struct Table {
    /// The headless app.
    pub app: App,
}

impl Table {
    /// A table from RON text (controllers as the text says), settled until it waits.
    pub fn from_ron(text: &str) -> Self {
        let scenario = parse(text);
        let mut table = Table { app: app(text, scenario.seed, 600, false) };
        table.update();
        table
    }

    /// The ambush scenario with this seed, not yet run.
    pub fn ambush(seed: u64, all_ai: bool, max_ticks: u32) -> Self {
        Table { app: app(AMBUSH, seed, max_ticks, all_ai) }
    }

    /// Runs the rules until they wait.
    pub fn update(&mut self) {
        self.app.update();
    }

    /// The world.
    pub fn world(&self) -> &World {
        self.app.world()
    }

    /// The world, mutably.
    pub fn world_mut(&mut self) -> &mut World {
        self.app.world_mut()
    }

    /// The entity of a combatant id.
    pub fn e(&self, id: &str) -> Entity {
        self.world()
            .resource::<TableIndex>()
            .combatant(&CombatantId::from(id))
            .unwrap_or_else(|| panic!("no combatant '{id}'"))
    }

    /// A combatant's id.
    pub fn id(&self, e: Entity) -> String {
        self.world().get::<Combatant>(e).map(|c| c.id.to_string()).unwrap_or_default()
    }

    /// Submits an intent, runs the rules, and returns what became of it.
    pub fn submit(&mut self, who: &str, intent: FateWalkerIntent) -> Verdict {
        let before = self.world().resource::<Outcomes>().0.len();
        self.world_mut()
            .resource_mut::<Inbox<FateWalkerIntent>>()
            .submit(CombatantId::from(who), intent.clone());
        self.update();
        let outcomes = &self.world().resource::<Outcomes>().0;
        outcomes[before..]
            .iter()
            .find(|o| o.actor.as_str() == who)
            .unwrap_or_else(|| panic!("{who}'s {intent:?} was not handled"))
            .result
            .clone()
    }

    /// Submits an intent that must be accepted.
    pub fn accept(&mut self, who: &str, intent: FateWalkerIntent) {
        if let Err(e) = self.submit(who, intent.clone()) {
            panic!("{who}'s {intent:?} should be accepted, but was refused: {e}");
        }
    }

    /// Submits an intent that must be refused; returns the reason.
    pub fn refuse(&mut self, who: &str, intent: FateWalkerIntent) -> String {
        match self.submit(who, intent.clone()) {
            Ok(()) => panic!("{who}'s {intent:?} should be refused, but was accepted"),
            Err(r) => r.0,
        }
    }

    /// The phase now.
    pub fn phase(&self) -> FateWalkerPhase {
        self.world().resource::<CurrentPhase<FateWalkerPhase>>().get()
    }

    /// The current tick.
    pub fn tick(&self) -> u32 {
        self.world().resource::<crate::Clock>().tick
    }

    /// A combatant's action clock.
    pub fn clock(&self, id: &str) -> ActionClock {
        *self.world().get::<ActionClock>(self.e(id)).expect("a combatant has an action clock")
    }

    /// A combatant's wound chart.
    pub fn chart(&self, id: &str) -> WoundChart {
        self.world().get::<WoundChart>(self.e(id)).expect("a combatant has a wound chart").clone()
    }

    /// A combatant's status.
    pub fn status(&self, id: &str) -> Status {
        *self.world().get::<Status>(self.e(id)).expect("a combatant has a status")
    }

    /// Ids of the combatants the rules wait on.
    pub fn awaiting(&self) -> Vec<String> {
        awaiting(self.world()).into_iter().map(|e| self.id(e)).collect()
    }

    /// The log's entries.
    pub fn log(&self) -> Vec<LogEntry> {
        self.world().resource::<GameLog>().entries().to_vec()
    }

    /// Outcomes refused so far, in words.
    pub fn refusals(&self) -> Vec<String> {
        self.world()
            .resource::<Outcomes>()
            .0
            .iter()
            .filter_map(|o| o.result.as_ref().err().map(|r| format!("{} {:?}: {r}", o.actor, o.intent)))
            .collect()
    }
}

/// A headless table with a session for scenario text.
pub fn app(text: &str, seed: u64, max_ticks: u32, all_ai: bool) -> App {
    fray_core::ruleset::table_app::<FateWalker>(text, seed, max_ticks, all_ai)
        .unwrap_or_else(|e| panic!("test scenario does not parse: {}", e.report("test").join("; ")))
}

/// Parses a test scenario, failing the test with the problems.
pub fn parse(text: &str) -> FateWalkerScenario {
    parse_scenario(text).unwrap_or_else(|e| panic!("test scenario does not parse: {e}"))
}
