//! Every registered ruleset in one app, as the window has them: the one rules schedule is
//! ordered whole, and each ruleset's systems stay idle on another's table, so a fight plays
//! to the same log as on a table of its ruleset alone, including when the window opens it
//! over an unfinished fight of another ruleset.

use bevy_app::App;
use fray::rulesets;
use fray_core::fight::LoadedScenario;
use fray_core::log::GameLog;
use fray_core::prelude::Controller;
use fray_core::ruleset::AddRuleset;
use fray_core::session::{controllers, set_controllers};

fn scenario(path: &str) -> LoadedScenario {
    let full = std::path::Path::new(
        &std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").to_owned()),
    )
    .join(path);
    rulesets::load(&full).unwrap_or_else(|e| panic!("{path}: {}", e.report(path).join("; ")))
}

/// An app with every registered ruleset, as the window has.
fn every_ruleset() -> App {
    let mut app = App::new();
    for registration in rulesets::all() {
        app.add_any_ruleset(registration.rules);
    }
    app
}

fn log_of(app: &App) -> Vec<u8> {
    let mut out = Vec::new();
    app.world().resource::<GameLog>().write_jsonl(&mut out, None).expect("in memory");
    out
}

/// Opens `scenario` on the app as the window does, hands everyone to the AI and plays to the
/// end; returns the log.
fn play(app: &mut App, scenario: &LoadedScenario, seed: u64) -> Vec<u8> {
    scenario.start(app.world_mut(), seed, scenario.default_limit(), false);
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
    log_of(app)
}

fn alone(scenario: &LoadedScenario, seed: u64) -> Vec<u8> {
    let mut app = scenario.table_app(seed, scenario.default_limit(), true);
    for _ in 0..50 {
        app.update();
        if fray::session::fight_over(app.world()) {
            break;
        }
    }
    log_of(&app)
}

/// Opens `scenario` with its own controllers and runs the rules until they wait on a person:
/// a fight left in the middle.
fn leave_midway(app: &mut App, scenario: &LoadedScenario, seed: u64) {
    scenario.start(app.world_mut(), seed, scenario.default_limit(), false);
    app.update();
    assert!(!fray::session::fight_over(app.world()), "{} waits on its players", scenario.name());
}

#[test]
fn the_rules_schedule_with_every_ruleset_has_no_ambiguous_systems() {
    let mut app = every_ruleset();
    assert!(rulesets::all().len() >= 3, "every ruleset is registered");
    if let Err(e) = fray_core::ruleset::check_rules_schedule(&mut app) {
        panic!("{e}");
    }
}

#[test]
fn each_ruleset_plays_alike_beside_the_others_and_after_them() {
    let ambush = scenario("assets/scenarios/fatewalker_ambush.ron");
    let swamp = scenario("assets/scenarios/swamp.ron");
    let duel = scenario("plugins/toy_duel/scenarios/duel.ron");
    let ford = scenario("assets/scenarios/fast_slow_crossing.ron");
    let inn = scenario("assets/scenarios/faction_zones_inn.ron");
    let ford_ladder = scenario("assets/scenarios/ap_ladder_ford.ron");
    let mut app = every_ruleset();
    let first = play(&mut app, &ambush, 7);
    assert!(first.len() > 10_000, "a whole FateWalker fight is logged");
    assert!(first == alone(&ambush, 7), "the ambush beside the others differs from the ambush alone");
    leave_midway(&mut app, &ambush, 7);
    let second = play(&mut app, &swamp, 3);
    assert!(second == alone(&swamp, 3), "the swamp after an unfinished ambush differs from the swamp alone");
    leave_midway(&mut app, &swamp, 3);
    let third = play(&mut app, &duel, 5);
    assert!(third == alone(&duel, 5), "the toy duel after an unfinished swamp differs from the duel alone");
    leave_midway(&mut app, &duel, 5);
    let fourth = play(&mut app, &ford, 7);
    assert!(fourth == alone(&ford, 7), "the Fast & Slow ford after an unfinished duel differs from it alone");
    leave_midway(&mut app, &ford, 7);
    let inn_log = play(&mut app, &inn, 4);
    assert!(inn_log == alone(&inn, 4), "the inn after an unfinished ford differs from the inn alone");
    leave_midway(&mut app, &inn, 4);
    let ladder_log = play(&mut app, &ford_ladder, 2);
    assert!(
        ladder_log == alone(&ford_ladder, 2),
        "the ladder's ford after an unfinished inn differs from it alone"
    );
    let fifth = play(&mut app, &ambush, 8);
    assert!(fifth == alone(&ambush, 8), "the ambush after the others differs from the ambush alone");
}

/// Every bundled scenario and every ruleset's template, with a name.
fn every_scenario_text() -> Vec<(String, String)> {
    let root = std::path::PathBuf::from(
        std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").to_owned()),
    );
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(root.join("assets/scenarios"))
        .expect("the scenarios folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    files.sort();
    let mut texts: Vec<(String, String)> = files
        .into_iter()
        .map(|p| (p.display().to_string(), std::fs::read_to_string(&p).expect("a scenario file")))
        .collect();
    for r in rulesets::registry().iter() {
        texts.push((format!("{}'s template", r.id()), r.template().to_owned()));
    }
    texts
}

#[test]
fn every_scenario_written_again_reads_back_to_the_same_fight() {
    let texts = every_scenario_text();
    assert!(texts.len() >= 12 + 6, "the bundled scenarios and a template a ruleset");
    for (name, text) in texts {
        let first =
            rulesets::parse(&text).unwrap_or_else(|e| panic!("{name}: {}", e.report(&name).join("; ")));
        let written = first.to_ron().unwrap_or_else(|e| panic!("{name}: cannot be written: {e}"));
        let second = rulesets::parse(&written).unwrap_or_else(|e| {
            panic!("{name}: the written text reads back: {}\n{written}", e.report(&name).join("; "))
        });
        assert_eq!(second.to_ron().as_deref(), Ok(written.as_str()), "{name}: writing again changes nothing");
        assert_eq!(second.name(), first.name());
        let comments = |t: &str| t.lines().take_while(|l| l.starts_with("//")).count();
        assert_eq!(comments(&written), comments(&text), "{name}: the comments at the top are kept");
        assert_eq!(second.combatant_ids(), first.combatant_ids(), "{name}: the same combatants");
        // The same fight: one battle of each from one seed logs the same, line for line.
        let fight = |s: &LoadedScenario| {
            let mut app = s.table_app(3, s.default_limit(), true);
            fray::battle::play_to_end(&mut app, 10).unwrap_or_else(|| panic!("{name}: the fight ends"));
            log_of(&app)
        };
        assert!(fight(&first) == fight(&second), "{name}: the written scenario plays another fight");
    }
}

/// Kinds of log lines that mean someone acted or a turn, round or reaction began.
const GOING_ON: [&str; 7] =
    ["round_started", "turn_started", "intent_accepted", "moved", "damage", "revealed", "next_action"];

#[test]
fn a_fight_decided_between_two_steps_ends_before_anyone_acts_in_every_ruleset() {
    // Every bundled scenario, its AI stopped after a few decisions, then everyone but the
    // first side still fighting struck dead by hand: the next run of the rules ends the
    // fight with nothing else happening first.
    use fray_core::prelude::{Side, Status, TableIndex};
    use fray_core::session::AiPacing;
    let mut checked = 0;
    for (name, text) in every_scenario_text() {
        let scenario =
            rulesets::parse(&text).unwrap_or_else(|e| panic!("{name}: {}", e.report(&name).join("; ")));
        for stop in [1u32, 3, 9, 27] {
            let mut app = scenario.table_app(scenario.seed(), scenario.default_limit(), true);
            app.world_mut().insert_resource(AiPacing::default());
            for _ in 0..stop {
                app.world_mut().resource_mut::<AiPacing>().allowance = 1;
                app.update();
            }
            if fray::session::fight_over(app.world()) {
                continue;
            }
            let world = app.world_mut();
            let order = world.resource::<TableIndex>().order.clone();
            let side_of = |world: &bevy_ecs::world::World, e| world.get::<Side>(e).map(|s| s.0.clone());
            let keep =
                order.iter().find(|&&e| fray_core::table::can_act(world, e)).and_then(|&e| side_of(world, e));
            for e in order {
                if side_of(world, e) != keep {
                    fray_core::table::set_status(world, e, Status::Dead);
                }
            }
            let before = world.resource::<GameLog>().entries().len();
            app.world_mut().resource_mut::<AiPacing>().allowance = 1;
            app.update();
            let lines: Vec<serde_json::Value> = String::from_utf8(log_of(&app))
                .expect("UTF-8")
                .lines()
                .skip(before)
                .map(|l| serde_json::from_str(l).expect("JSON"))
                .collect();
            assert!(fray::session::fight_over(app.world()), "{name} after {stop} steps: the fight ends");
            assert_eq!(
                lines.last().map(|l| l["kind"].clone()),
                Some("battle_ended".into()),
                "{name}: {lines:?}"
            );
            for (i, l) in lines.iter().enumerate() {
                let kind = l["kind"].as_str().unwrap_or("");
                assert!(!GOING_ON.contains(&kind), "{name} after {stop} steps: {l} once one side is left");
                // No phase begins but the over phase, just before the end.
                let next = lines.get(i + 1).map(|n| n["kind"].clone());
                assert!(
                    kind != "phase_started" || next == Some("battle_ended".into()),
                    "{name} after {stop} steps: {l} once one side is left"
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 20, "fights stopped midway: {checked}");
}

#[test]
fn every_button_reads_apart_and_by_display_names_in_every_bundled_scenario() {
    // Every combatant the GM's: each decision taken by a button, one accepted after another.
    let mut decisions = 0;
    for (name, text) in every_scenario_text() {
        let scenario =
            rulesets::parse(&text).unwrap_or_else(|e| panic!("{name}: {}", e.report(&name).join("; ")));
        let mut app = scenario.table_app(scenario.seed(), scenario.default_limit(), false);
        let people = app.world().resource::<fray_core::prelude::TableIndex>().order.clone();
        for e in people {
            app.world_mut().entity_mut(e).insert(Controller::Gm);
        }
        app.update();
        let ids = stable_ids(app.world());
        let rules = fray_core::fight::ruleset(app.world()).expect("a fight is open");
        for step in 0..60 {
            let world = app.world();
            let Some(&e) = rules.awaiting(world).first() else { break };
            let choices = rules.choices(world, e);
            let mut labels: Vec<&str> = choices.iter().map(|c| c.label.as_str()).collect();
            for label in &labels {
                let id = label
                    .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .find(|w| ids.iter().any(|id| id == w));
                assert!(id.is_none(), "{name}, step {step}: the button '{label}' shows the id {id:?}");
            }
            labels.sort_unstable();
            let twice = labels.windows(2).find(|w| w[0] == w[1]);
            assert!(
                twice.is_none(),
                "{name}, step {step}: two buttons read '{}'",
                twice.map_or("", |w| w[0])
            );
            let accepted: Vec<_> = choices.iter().filter(|c| c.verdict.is_ok()).collect();
            let Some(choice) = accepted.get(step % accepted.len().max(1)) else { break };
            let (who, intent) = (fray_core::table::id(world, e), choice.intent.clone());
            rules.submit(app.world_mut(), who, &intent);
            app.update();
            decisions += 1;
        }
    }
    assert!(decisions > 18 * 20, "the fights went on: {decisions} decisions");
}

/// The stable ids of a table that differ from every display name: those a person should
/// never read (`keep_archer`, `brig_2`).
fn stable_ids(world: &bevy_ecs::world::World) -> Vec<String> {
    use fray_core::location::Location;
    use fray_core::prelude::{Combatant, Mount, TableIndex};
    let index = world.resource::<TableIndex>();
    let mut ids = Vec::new();
    let mut names = Vec::new();
    for (id, &e) in &index.combatants {
        ids.push(id.to_string());
        names.extend(world.get::<Combatant>(e).map(|c| c.name.clone()));
    }
    for (id, &e) in &index.locations {
        ids.push(id.to_string());
        names.extend(world.get::<Location>(e).map(|l| l.name.clone()));
    }
    for (id, &e) in &index.mounts {
        ids.push(id.to_string());
        names.extend(world.get::<Mount>(e).map(|m| m.name.clone()));
    }
    let said = |id: &str| names.iter().any(|n| n.split_whitespace().any(|w| w == id));
    ids.retain(|id| !said(id));
    ids
}
