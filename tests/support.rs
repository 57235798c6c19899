//! A small test table: built from RON text or a scenario file, driven by intents, read by
//! stable ids. Tests read as scenarios on top of it.

use std::collections::BTreeMap;
use std::path::Path;

use bevy_app::App;
use bevy_ecs::prelude::*;
use fiend_wake::decisions::awaiting;
use fiend_wake::{FwIntent, FwPhase, parse_scenario, table_app};
use fray_core::intent::{Inbox, Outcomes, Verdict};
use fray_core::phase::CurrentPhase;
use fray_core::prelude::*;

/// A table of the Fiend Wake text's examples: Lockjaw (Cunning 5, Resolve 4, light armour)
/// against two imps, everyone controlled by a person (the test).
pub const LOCKJAW: &str = r#"
Scenario(
    name: "Lockjaw's examples",
    ruleset: "fiend_wake",
    seed: 3,
    rules: (
        weapons: {
            "rifle": (name: "Rifle", kind: Ranged, skill: Firearms, first_intention: 5, second_intention: 1, ready_cost: 2),
            "axe": (name: "Axe", kind: Melee, skill: Blades, first_intention: 4, second_intention: 2),
            "claws": (name: "Claws", kind: Melee, skill: UnarmedCombat, first_intention: 3, second_intention: 1, ready_cost: 0),
        },
        armours: { "light": (name: "Light flak jacket", reduction: 1, encumbrance: 1) },
    ),
    sides: [(id: "earthhewn", name: "Earthhewn"), (id: "imps", name: "Imps")],
    locations: [
        (id: "tower", name: "Tower", entry_cost: 2),
        (id: "raft", name: "Raft"),
    ],
    combatants: [
        (id: "lockjaw", name: "Lockjaw", side: "earthhewn", controller: Human,
         sheet: (attributes: (power: 3, grace: 3, cunning: 5, endurance: 3, resolve: 4, spirit: 3),
                 evasion: 6, skills: {Tactics: 3, Firearms: 3, Blades: 2},
                 weapons: ["rifle", "axe"], ready: "rifle", armour: "light")),
        (id: "imp", name: "Imp", side: "imps", controller: Human,
         sheet: (attributes: (power: 2, grace: 4, cunning: 1, endurance: 2, resolve: 2, spirit: 2),
                 evasion: 7, skills: {UnarmedCombat: 2}, weapons: ["claws"], ready: "claws")),
        (id: "archer", name: "Imp archer", side: "imps", controller: Human, location: "tower",
         sheet: (attributes: (power: 1, grace: 4, cunning: 2, endurance: 2, resolve: 2, spirit: 2),
                 evasion: 6, weapons: ["claws"], ready: "claws")),
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
        let scenario = parse_scenario(text).unwrap_or_else(|e| panic!("test scenario does not parse: {e}"));
        let mut table = Table { app: table_app(&scenario, scenario.seed, 100, false) };
        table.update();
        table
    }

    /// A table from a scenario file of the project, with this seed.
    pub fn from_file(path: &str, seed: u64, all_ai: bool, max_rounds: u32) -> Self {
        let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
            .unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
        let scenario = parse_scenario(&text).unwrap_or_else(|e| panic!("{path} does not parse: {e}"));
        Table { app: table_app(&scenario, seed, max_rounds, all_ai) }
    }

    /// Hands every combatant to the test (human control).
    pub fn all_human(mut self) -> Self {
        let world = self.world_mut();
        let people: Vec<Entity> = world.query_filtered::<Entity, With<Combatant>>().iter(world).collect();
        for e in people {
            world.entity_mut(e).insert(Controller::Human);
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
    pub fn submit(&mut self, who: &str, intent: FwIntent) -> Verdict {
        let before = self.world().resource::<Outcomes>().0.len();
        self.world_mut().resource_mut::<Inbox<FwIntent>>().submit(CombatantId::from(who), intent.clone());
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
    pub fn accept(&mut self, who: &str, intent: FwIntent) {
        if let Err(e) = self.submit(who, intent.clone()) {
            panic!("{who}'s {intent:?} should be accepted, but was refused: {e}");
        }
    }

    /// Tokens of a kind an owner holds, as the rules count them.
    pub fn count(&self, id: &str, kind: TokenKind) -> u32 {
        self.world().get::<Counters>(self.e(id)).map_or(0, |c| c.get(kind))
    }

    /// Tactical points held.
    pub fn tp(&self, id: &str) -> u32 {
        self.count(id, TokenKind::TacticalPoint)
    }

    /// Token entities of a kind that belong to an owner.
    pub fn token_entities(&mut self, id: &str, kind: TokenKind) -> u32 {
        let owner = self.e(id);
        let world = self.world_mut();
        world
            .query::<(&CounterToken, &TokenOf)>()
            .iter(world)
            .filter(|(t, of)| t.0 == kind && of.0 == owner)
            .count() as u32
    }

    /// The phase now.
    pub fn phase(&self) -> FwPhase {
        self.world().resource::<CurrentPhase<FwPhase>>().get()
    }

    /// Ids of the combatants the rules wait on.
    pub fn awaiting(&self) -> Vec<String> {
        awaiting(self.world()).into_iter().map(|e| self.id(e)).collect()
    }

    /// A combatant's id.
    pub fn id(&self, e: Entity) -> String {
        self.world().get::<Combatant>(e).map(|c| c.id.0.clone()).unwrap_or_default()
    }

    /// A combatant's status.
    pub fn status(&self, id: &str) -> Status {
        *self.world().get::<Status>(self.e(id)).expect("a combatant has a status")
    }

    /// The id of the place a combatant stands in.
    pub fn place(&self, id: &str) -> String {
        let place = self.world().get::<Occupies>(self.e(id)).expect("everyone occupies a place").0;
        self.world().get::<Location>(place).expect("a place is a location").id.0.clone()
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
        if self.phase() == FwPhase::RoundPrep {
            self.accept("lockjaw", FwIntent::PayArmour { tp: 1, turn_tokens: 0 });
        }
        for (who, tp) in bids {
            self.accept(who, FwIntent::Bid { tp: *tp });
        }
        while self.phase() == FwPhase::Cede {
            let who = self.awaiting()[0].clone();
            self.accept(&who, FwIntent::Cede { cede: false });
        }
        assert_eq!(self.phase(), FwPhase::ExecuteTurns, "after bidding the table executes turns");
    }

    /// Every owner's counters against the token entities that belong to it.
    pub fn token_mismatches(&mut self) -> Vec<String> {
        let world = self.world_mut();
        let mut held: BTreeMap<(Entity, TokenKind), u32> = BTreeMap::new();
        for (t, of) in world.query::<(&CounterToken, &TokenOf)>().iter(world) {
            *held.entry((of.0, t.0)).or_default() += 1;
        }
        let mut out = Vec::new();
        for (owner, counters) in world.query::<(Entity, &Counters)>().iter(world) {
            for kind in TokenKind::ALL {
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

/// Runs the `fray` binary in the project folder, with no data folder from the environment.
pub fn fray(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_fray"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove(fray::session::DATA_DIR_ENV)
        .output()
        .expect("the fray binary runs")
}

/// A path for a file named `name` (unique across the test binary) in this run's scratch
/// folder; the folder is made, the file is not.
pub fn scratch_file(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("fray-tests-{}", std::process::id())).join("files");
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir.join(name)
}

/// A fresh, empty scratch folder named `name` (unique across the test binary).
pub fn scratch_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("fray-tests-{}", std::process::id())).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

/// `text` after a few random edits, as a proptest draws them: at a place, remove (0), insert
/// (1) or replace (2) a character, or cut the text there (3).
pub fn mangle(text: &str, edits: &[(proptest::sample::Index, u8, char)]) -> String {
    let mut text: Vec<char> = text.chars().collect();
    for &(ref at, op, c) in edits {
        if text.is_empty() {
            break;
        }
        let i = at.index(text.len());
        match op {
            0 => {
                text.remove(i);
            }
            1 => text.insert(i, c),
            2 => text[i] = c,
            _ => text.truncate(i),
        }
    }
    text.into_iter().collect()
}
