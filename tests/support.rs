//! Helpers shared by the client's tests: the `fray` binary, scratch folders.

/// Runs the `fray` binary in the project folder, with no data folder from the environment.
pub fn fray(args: &[&str]) -> std::process::Output {
    fray_command(args).output().expect("the fray binary runs")
}

/// Runs the `fray` binary as [`fray`] does, on a machine with no display.
pub fn fray_without_display(args: &[&str]) -> std::process::Output {
    fray_command(args)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("the fray binary runs")
}

fn fray_command(args: &[&str]) -> std::process::Command {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_fray"));
    command
        .args(args)
        .current_dir(
            std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").to_owned()),
        )
        .env_remove(fray::session::DATA_DIR_ENV);
    command
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

/// A Fiend Wake table of the rule text's examples: Lockjaw against two imps, everyone
/// played by a person (the test).
pub const LOCKJAW: &str = include_str!("fixtures/lockjaw.ron");

/// A headless table of any ruleset with its session, driven as a person at the board
/// drives it: by the labels of the choices the board offers.
pub struct Board {
    /// The headless app.
    pub app: bevy_app::App,
}

impl Board {
    /// A table from scenario text (its own seed, controllers as the text says), settled
    /// until it waits.
    pub fn from_ron(text: &str) -> Self {
        let scenario = fray::rulesets::parse(text)
            .unwrap_or_else(|e| panic!("test scenario does not parse: {}", e.report("test").join("; ")));
        let mut board = Board { app: scenario.table_app(scenario.seed(), scenario.default_limit(), false) };
        board.app.update();
        board
    }

    /// The world.
    pub fn world(&self) -> &bevy_ecs::world::World {
        self.app.world()
    }

    /// The world, mutably.
    pub fn world_mut(&mut self) -> &mut bevy_ecs::world::World {
        self.app.world_mut()
    }

    /// The ruleset on the table.
    pub fn rules(&self) -> std::sync::Arc<dyn fray_core::ruleset::AnyRuleset> {
        fray_core::fight::ruleset(self.world()).expect("a fight is open")
    }

    /// The entity of a combatant id.
    pub fn e(&self, id: &str) -> bevy_ecs::entity::Entity {
        let index = self.world().resource::<fray_core::prelude::TableIndex>();
        index.combatant(&id.into()).unwrap_or_else(|| panic!("no combatant '{id}'"))
    }

    /// Ids of the combatants the rules wait on.
    pub fn awaiting(&self) -> Vec<String> {
        let world = self.world();
        self.rules().awaiting(world).into_iter().map(|e| fray_core::table::id(world, e).to_string()).collect()
    }

    /// Takes the choice labelled `label` for `who`, as a click on its button does, and runs
    /// the rules; it must be offered and accepted.
    pub fn choose(&mut self, who: &str, label: &str) {
        let e = self.e(who);
        let rules = self.rules();
        let choices = rules.choices(self.world(), e);
        let Some(choice) = choices.iter().find(|c| c.label == label) else {
            let offered: Vec<&str> = choices.iter().map(|c| c.label.as_str()).collect();
            panic!("{who} is not offered '{label}'; offered: {offered:?}");
        };
        if let Err(reason) = &choice.verdict {
            panic!("{who}'s '{label}' is refused: {reason}");
        }
        let before = self.world().resource::<fray_core::intent::Outcomes>().0.len();
        rules.submit(self.world_mut(), who.into(), &choice.intent);
        self.app.update();
        let outcomes = &self.world().resource::<fray_core::intent::Outcomes>().0;
        let outcome = outcomes[before..].iter().find(|o| o.actor.as_str() == who);
        assert!(
            outcome.is_some_and(|o| o.result.is_ok()),
            "{who}'s '{label}' should be accepted: {outcome:?}"
        );
    }

    /// The log, as JSON Lines.
    pub fn log_jsonl(&self) -> String {
        let mut out = Vec::new();
        self.world().resource::<fray_core::log::GameLog>().write_jsonl(&mut out, None).expect("in memory");
        String::from_utf8(out).expect("the log is UTF-8")
    }
}

/// A scenario's text without its players' seats (written last, as the bundled ones are), so a
/// test can give it seats of its own.
pub fn without_seats(text: &str) -> String {
    let cut = text.find("\n    // Who plays whom").or_else(|| text.find("\n    seats: ["));
    match cut {
        Some(at) => format!("{}\n)\n", &text[..at]),
        None => text.to_owned(),
    }
}
