//! A small test table: built from RON text or a scenario file of the repository, driven by
//! intents, read by stable ids. Tests read as scenarios on top of it.

use std::collections::BTreeMap;

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::intent::{Inbox, Outcomes, Verdict};
use fray_core::phase::CurrentPhase;
use fray_core::prelude::*;
use fray_core::ruleset::table_app;

use crate::counters::{PENDING_TURN, SIEGE_DAMAGE, TACTICAL_POINT, TURN_TOKEN, WOUND};
use crate::decisions::awaiting;
use crate::{FiendWake, FiendWakeIntent, FiendWakePhase};

/// The repository's scenarios.
pub const SWAMP: &str = include_str!("../../../../assets/scenarios/swamp.ron");
/// See [`SWAMP`].
pub const CASTLE: &str = include_str!("../../../../assets/scenarios/castle.ron");

/// Every counter kind, in the ruleset's order.
pub const KINDS: [CounterKind; 5] = [TACTICAL_POINT, TURN_TOKEN, PENDING_TURN, WOUND, SIEGE_DAMAGE];

/// A headless table with a session for scenario text.
pub fn app(text: &str, seed: u64, max_rounds: u32, all_ai: bool) -> App {
    table_app::<FiendWake>(text, seed, max_rounds, all_ai)
        .unwrap_or_else(|e| panic!("test scenario does not parse: {}", e.report("test").join("; ")))
}

/// A table of the Fiend Wake text's examples: Lockjaw (Cunning 5, Resolve 4, light armour)
/// against two imps, everyone controlled by a person (the test).
pub const LOCKJAW: &str = include_str!("../../../../tests/fixtures/lockjaw.ron");

/// A table under test.
pub struct Table {
    /// The headless app.
    pub app: App,
}

impl Table {
    /// A table from RON text (controllers as the text says, its own seed), settled until it
    /// waits.
    pub fn from_ron(text: &str) -> Self {
        let seed = crate::parse_scenario(text).map_or(0, |s| s.seed);
        let mut table = Table { app: app(text, seed, 100, false) };
        table.update();
        table
    }

    /// A table from scenario text with this seed, not yet run.
    pub fn from_text(text: &str, seed: u64, all_ai: bool, max_rounds: u32) -> Self {
        Table { app: app(text, seed, max_rounds, all_ai) }
    }

    /// Hands every combatant to the test (human control).
    pub fn all_human(mut self) -> Self {
        let world = self.world_mut();
        let people: Vec<Entity> = world.query_filtered::<Entity, With<Combatant>>().iter(world).collect();
        for e in people {
            world.entity_mut(e).insert(Controller::Gm);
        }
        self
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

    /// The entity of a combatant, location or mount id.
    pub fn e(&self, id: &str) -> Entity {
        let index = self.world().resource::<TableIndex>();
        index
            .combatant(&CombatantId::from(id))
            .or_else(|| index.location(&LocationId::from(id)))
            .or_else(|| index.mount(&MountId::from(id)))
            .unwrap_or_else(|| panic!("no table object '{id}'"))
    }

    /// Submits an intent, runs the rules, and returns what became of it.
    pub fn submit(&mut self, who: &str, intent: FiendWakeIntent) -> Verdict {
        let before = self.world().resource::<Outcomes>().0.len();
        self.world_mut()
            .resource_mut::<Inbox<FiendWakeIntent>>()
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
    pub fn accept(&mut self, who: &str, intent: FiendWakeIntent) {
        if let Err(e) = self.submit(who, intent.clone()) {
            panic!("{who}'s {intent:?} should be accepted, but was refused: {e}");
        }
    }

    /// Tokens of a kind an owner holds, as the rules count them.
    pub fn count(&self, id: &str, kind: CounterKind) -> u32 {
        self.world().get::<Counters>(self.e(id)).map_or(0, |c| c.get(kind))
    }

    /// Tactical points held.
    pub fn tp(&self, id: &str) -> u32 {
        self.count(id, TACTICAL_POINT)
    }

    /// Token entities of a kind that belong to an owner.
    pub fn token_entities(&mut self, id: &str, kind: CounterKind) -> u32 {
        let owner = self.e(id);
        let world = self.world_mut();
        world
            .query::<(&CounterToken, &TokenOf)>()
            .iter(world)
            .filter(|(t, of)| t.0 == kind && of.0 == owner)
            .count() as u32
    }

    /// The phase now.
    pub fn phase(&self) -> FiendWakePhase {
        self.world().resource::<CurrentPhase<FiendWakePhase>>().get()
    }

    /// Ids of the combatants the rules wait on.
    pub fn awaiting(&self) -> Vec<String> {
        awaiting(self.world()).into_iter().map(|e| self.id(e)).collect()
    }

    /// A combatant's id.
    pub fn id(&self, e: Entity) -> String {
        self.world().get::<Combatant>(e).map(|c| c.id.to_string()).unwrap_or_default()
    }

    /// A combatant's status.
    pub fn status(&self, id: &str) -> Status {
        *self.world().get::<Status>(self.e(id)).expect("a combatant has a status")
    }

    /// The id of the place a combatant stands in.
    pub fn place(&self, id: &str) -> String {
        let place = self.world().get::<Occupies>(self.e(id)).expect("everyone occupies a place").0;
        self.world().get::<Location>(place).expect("a place is a location").id.to_string()
    }

    /// The log, as JSON Lines.
    pub fn log_jsonl(&self) -> String {
        let mut out = Vec::new();
        self.world().resource::<GameLog>().write_jsonl(&mut out, None).expect("writing to memory");
        String::from_utf8(out).expect("the log is UTF-8")
    }

    /// The log's entries.
    pub fn log(&self) -> Vec<LogEntry> {
        self.world().resource::<GameLog>().entries().to_vec()
    }

    /// Plays round prep and bidding for the Lockjaw table: armour paid, bids as given,
    /// nobody cedes. Ends in Execute Turns.
    pub fn play_to_turns(&mut self, bids: &[(&str, u32)]) {
        if self.phase() == FiendWakePhase::RoundPrep {
            self.accept("lockjaw", FiendWakeIntent::PayArmour { tp: 1, turn_tokens: 0 });
        }
        for (who, tp) in bids {
            self.accept(who, FiendWakeIntent::Bid { tp: *tp });
        }
        while self.phase() == FiendWakePhase::Cede {
            let who = self.awaiting()[0].clone();
            self.accept(&who, FiendWakeIntent::Cede { cede: false });
        }
        assert_eq!(self.phase(), FiendWakePhase::ExecuteTurns, "after bidding the table executes turns");
    }

    /// Every owner's counters against the token entities that belong to it.
    pub fn token_mismatches(&mut self) -> Vec<String> {
        let world = self.world_mut();
        let mut held: BTreeMap<(Entity, CounterKind), u32> = BTreeMap::new();
        for (t, of) in world.query::<(&CounterToken, &TokenOf)>().iter(world) {
            *held.entry((of.0, t.0)).or_default() += 1;
        }
        let mut out = Vec::new();
        for (owner, counters) in world.query::<(Entity, &Counters)>().iter(world) {
            for kind in KINDS {
                let entities = held.get(&(owner, kind)).copied().unwrap_or(0);
                if entities != counters.get(kind) {
                    out.push(format!(
                        "{owner}: {kind:?}: counters say {}, entities {entities}",
                        counters.get(kind)
                    ));
                }
            }
        }
        out
    }
}

/// A Fiend Wake roll as the tests read it.
#[derive(Clone, Debug)]
pub struct Roll {
    /// What was rolled.
    pub what: String,
    /// The faces.
    pub dice: Vec<u32>,
    /// The number to reach.
    pub difficulty: u32,
    /// Whether it was reached.
    pub success: bool,
    /// Other dice that alone would have succeeded.
    pub extra_successes: u32,
}

/// Reads a logged roll (Fiend Wake rolls are `best_plus`).
pub fn roll(r: impl std::borrow::Borrow<fray_core::dice::RollRecord>) -> Roll {
    let r = r.borrow();
    match r.reading {
        fray_core::dice::RollReading::BestPlus { difficulty, success, extra_successes, .. } => {
            Roll { what: r.what.clone(), dice: r.dice.clone(), difficulty, success, extra_successes }
        }
        _ => panic!("Fiend Wake rolls a best die plus a skill: {r:?}"),
    }
}
