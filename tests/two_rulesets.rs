//! The window's app holds both rules plugins: each ruleset's systems must stay idle on the
//! other's table, so a fight plays to the same log as on a table with its plugin alone,
//! including when the window opens it over an unfinished fight of the other ruleset.

use bevy_app::App;
use fray::rulesets::{self, LoadedScenario};
use fray_core::log::GameLog;
use fray_core::prelude::Controller;
use fray_core::session::{controllers, set_controllers};

fn scenario(path: &str) -> LoadedScenario {
    let full = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    rulesets::load(&full).unwrap_or_else(|e| panic!("{path}: {}", e.report(path).join("; ")))
}

fn both_plugins() -> App {
    let mut app = App::new();
    app.add_plugins((fiend_wake::FiendWakePlugin, fatewalker::FateWalkerPlugin));
    app
}

/// Opens `scenario` on the app as the window does, hands everyone to the AI and plays to the
/// end; returns the log.
fn play(app: &mut App, scenario: &LoadedScenario, seed: u64) -> Vec<u8> {
    let limit = scenario.default_limit();
    scenario.respawn(app.world_mut(), seed, limit);
    let world = app.world_mut();
    let everyone: Vec<_> = controllers(world).into_iter().map(|(id, _)| (id, Controller::Ai)).collect();
    set_controllers(world, &everyone);
    for _ in 0..50 {
        app.update();
        if fray::session::fight_over(app.world()) {
            break;
        }
    }
    assert!(fray::session::fight_over(app.world()), "{} did not end", scenario.name());
    let mut out = Vec::new();
    app.world().resource::<GameLog>().write_jsonl(&mut out, None).expect("in memory");
    out
}

fn alone(scenario: &LoadedScenario, seed: u64) -> Vec<u8> {
    let mut app = scenario.table_app(seed, scenario.default_limit(), true);
    for _ in 0..50 {
        app.update();
        if fray::session::fight_over(app.world()) {
            break;
        }
    }
    let mut out = Vec::new();
    app.world().resource::<GameLog>().write_jsonl(&mut out, None).expect("in memory");
    out
}

/// Opens `scenario` with its own controllers and runs the rules until they wait on a person:
/// a fight left in the middle.
fn leave_midway(app: &mut App, scenario: &LoadedScenario, seed: u64) {
    scenario.respawn(app.world_mut(), seed, scenario.default_limit());
    app.update();
    assert!(!fray::session::fight_over(app.world()), "{} waits on its players", scenario.name());
}

#[test]
fn each_ruleset_plays_alike_beside_the_other_and_after_it() {
    let ambush = scenario("assets/scenarios/fatewalker_ambush.ron");
    let swamp = scenario("assets/scenarios/swamp.ron");
    let mut app = both_plugins();
    let first = play(&mut app, &ambush, 7);
    assert!(first.len() > 10_000, "a whole FateWalker fight is logged");
    assert!(first == alone(&ambush, 7), "the ambush beside Fiend Wake differs from the ambush alone");
    leave_midway(&mut app, &ambush, 7);
    let second = play(&mut app, &swamp, 3);
    assert!(second == alone(&swamp, 3), "the swamp after an unfinished ambush differs from the swamp alone");
    leave_midway(&mut app, &swamp, 3);
    let third = play(&mut app, &ambush, 8);
    assert!(third == alone(&ambush, 8), "the ambush after an unfinished swamp differs from the ambush alone");
}
