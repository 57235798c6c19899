//! Save files as people meet them: written by `fray sim --save`, replayed by `fray replay`,
//! broken in every way a file breaks (truncated, corrupted, from another version, edited by
//! hand), and the autosave of a headless player killed at random points.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use fray::rulesets::registry;
use fray::session::{self, parse_save_text};
use fray_core::session::SaveError;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::support::{fray, fray_without_display, scratch_dir as scratch};

fn text(out: &[u8]) -> String {
    String::from_utf8_lossy(out).into_owned()
}

/// `fray sim` on the swamp with this seed, writing its log and its save into `dir`.
fn simulate(dir: &Path, seed: u64) -> (String, String) {
    let log = dir.join("sim.jsonl");
    let save = dir.join("sim.ron");
    let seed = seed.to_string();
    let out = fray(&[
        "sim",
        "--scenario",
        "assets/scenarios/swamp.ron",
        "--seed",
        &seed,
        "--log",
        &log.display().to_string(),
        "--save",
        &save.display().to_string(),
    ]);
    assert!(out.status.success(), "fray sim failed: {}", text(&out.stderr));
    let log = std::fs::read_to_string(log).expect("the log was written");
    let save = std::fs::read_to_string(save).expect("the save was written");
    (log, save)
}

#[test]
fn a_simulated_battle_saved_replays_headless_to_the_same_log() {
    let dir = scratch("sim-replay");
    let (log, _) = simulate(&dir, 5);
    let out = fray(&["replay", &dir.join("sim.ron").display().to_string(), "--headless"]);
    assert_eq!(out.status.code(), Some(0), "replay failed: {}", text(&out.stderr));
    assert!(
        text(&out.stdout) == log,
        "fray replay --headless prints the log fray sim --log wrote, byte for byte"
    );
}

/// Found from outside: `fray replay SAVE` with no display panicked in winit.
#[test]
fn replaying_in_a_window_with_no_display_says_what_to_do_instead() {
    let dir = scratch("replay-no-display");
    simulate(&dir, 5);
    let out = fray_without_display(&["replay", &dir.join("sim.ron").display().to_string()]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("DISPLAY is not set") && stderr.contains("--headless"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn the_save_of_several_battles_is_the_last_one() {
    let dir = scratch("sim-battles");
    let save = dir.join("last.ron");
    let out = fray(&[
        "sim",
        "--scenario",
        "assets/scenarios/castle.ron",
        "--seed",
        "20",
        "--battles",
        "3",
        "--save",
        &save.display().to_string(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let loaded = session::read_save(&registry(), &save).expect("the save reads");
    assert_eq!(loaded.seed(), 22, "battle 3 of seeds 20, 21, 22");
    let (app, report) = loaded.headless_app();
    assert_eq!(report.stopped, None);
    assert!(fray::session::fight_over(app.world()), "the saved battle was played to its end");
}

/// Writes `bytes` as a save, replays it headless, expects `code` and a stderr line that
/// starts with the path and contains `expected`.
fn replay_fails(dir: &Path, name: &str, bytes: &[u8], code: i32, expected: &str) -> Output {
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("writing the broken save");
    let shown = path.display().to_string();
    let out = fray(&["replay", &shown, "--headless"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "{name}: exit {code} expected; stderr: {stderr}");
    assert!(!stderr.contains("panicked"), "{name}: fray replay panicked: {stderr}");
    assert!(
        stderr.lines().any(|l| l.starts_with(&format!("{shown}:")) && l.contains(expected)),
        "{name}: expected a line `{shown}:...{expected}...`, got:\n{stderr}"
    );
    out
}

#[test]
fn a_truncated_save_names_the_line_and_column_where_it_breaks() {
    let dir = scratch("truncated");
    let (_, save) = simulate(&dir, 5);
    let cut = &save[..save.len() * 2 / 3];
    let error = parse_save_text(&registry(), cut).err().expect("a truncated save does not load");
    assert!(matches!(error, SaveError::File(fray_core::scenario::ScenarioError::Syntax { .. })), "{error:?}");
    let out = replay_fails(&dir, "cut.ron", cut.as_bytes(), 2, "");
    let line = text(&out.stderr);
    let shown = dir.join("cut.ron").display().to_string();
    let rest = line.trim_start_matches(&format!("{shown}:"));
    let mut parts = rest.splitn(3, ':');
    let (l, c) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    assert!(
        l.parse::<usize>().is_ok() && c.parse::<usize>().is_ok(),
        "PATH:LINE:COL: message expected, got {line}"
    );
}

#[test]
fn corrupted_bytes_and_other_versions_are_refused_with_a_reason() {
    let dir = scratch("corrupted");
    let (_, save) = simulate(&dir, 5);
    let mut bytes = save.clone().into_bytes();
    bytes[200] = 0xff;
    bytes[201] = 0xfe;
    replay_fails(&dir, "bytes.ron", &bytes, 2, "UTF-8");
    let other = save.replacen("version: 2,", "version: 7,", 1);
    replay_fails(&dir, "v7.ron", other.as_bytes(), 2, "save format version 7 is not supported");
    assert_eq!(parse_save_text(&registry(), &other).err(), Some(SaveError::Version(7)));
    replay_fails(&dir, "empty.ron", b"", 2, "");
    replay_fails(&dir, "scenario.ron", b"Scenario(name: \"x\")", 2, "");
    let missing = dir.join("missing.ron").display().to_string();
    let out = fray(&["replay", &missing, "--headless"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).starts_with(&format!("{missing}: cannot read the file")),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn unknown_ids_in_a_save_are_named() {
    let dir = scratch("unknown-ids");
    let (_, save) = simulate(&dir, 5);
    let ghost_controller = save.replacen("(\"brannoc\", Ai)", "(\"ghost\", Ai)", 1);
    replay_fails(
        &dir,
        "ghost.ron",
        ghost_controller.as_bytes(),
        2,
        "'ghost' is not a combatant of the scenario",
    );

    // An intent by someone the scenario lacks: loaded up to it, and said so.
    let ghost_actor = save.replacen("actor: \"brannoc\"", "actor: \"ghost\"", 1);
    let out =
        replay_fails(&dir, "ghost-actor.ron", ghost_actor.as_bytes(), 3, "there is no combatant 'ghost'");
    assert!(text(&out.stderr).contains("intent #2"), "{}", text(&out.stderr));
    assert!(text(&out.stdout).lines().count() > 1, "the log up to the bad intent is printed");

    let broken_scenario = save.replacen("Scenario(", "Scenari(", 1);
    replay_fails(&dir, "scenario.ron", broken_scenario.as_bytes(), 2, "(in the embedded scenario)");
}

#[test]
fn a_save_whose_intent_no_longer_validates_loads_up_to_it_and_says_so() {
    let dir = scratch("invalid-intent");
    let (log, save) = simulate(&dir, 5);
    // Brannoc's armour, paid with TP he does not have.
    let edited = save.replacen(
        "actor: \"brannoc\", intent: PayArmour(tp: 1, turn_tokens: 0)",
        "actor: \"brannoc\", intent: PayArmour(tp: 90, turn_tokens: 0)",
        1,
    );
    assert_ne!(edited, save, "the test edits the save");
    let loaded = parse_save_text(&registry(), &edited).expect("the edited save still parses");
    let (app, report) = loaded.headless_app();
    let stop = report.stopped.clone().expect("the edited intent stops the replay");
    assert_eq!(stop.index, 1, "the second intent is the edited one");
    assert!(stop.intent.contains("PayArmour"), "{stop:?}");
    assert_eq!(report.replayed, 1, "the intent before it is loaded");
    assert!(report.message().contains("no longer validates"), "{}", report.message());
    let partial = fray::battle::log(&app).entries().len();
    assert!(partial > 1 && partial < log.lines().count(), "the table holds the fight up to the bad intent");

    let out = replay_fails(&dir, "edited.ron", edited.as_bytes(), 3, "intent #2 (brannoc: PayArmour");
    let printed = text(&out.stdout);
    assert!(log.starts_with(&printed), "the printed log is the start of the real one");
}

/// Reads the lines a child prints, as it prints them.
fn collect_stdout(child: &mut std::process::Child) -> (Arc<Mutex<Vec<String>>>, std::thread::JoinHandle<()>) {
    let lines = Arc::new(Mutex::new(Vec::new()));
    let stdout = child.stdout.take().expect("stdout is piped");
    let sink = Arc::clone(&lines);
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            sink.lock().expect("the line list").push(line);
        }
    });
    (lines, reader)
}

/// The headless player, killed with SIGKILL at random moments and resumed each time: every
/// log line it printed before a kill (it prints only what is autosaved) is in the autosave,
/// the autosave always reads whole, and the fight finally ends with the log of an
/// uninterrupted `fray sim`.
#[test]
fn a_killed_headless_player_resumes_with_everything_it_accepted() {
    let dir = scratch("crash");
    let data = dir.join("data");
    let (reference, _) = simulate(&dir, 9);
    let autosave = session::autosave_path(&data);
    let finished = data.join(session::FINISHED_FILE);
    let seed =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    // Every run before the last is killed; run `attempt` follows `attempt` kills.
    for attempt in 0..9 {
        let resume = autosave.exists();
        let mut args = vec!["play", "--headless", "--pace-ms", "2", "--data-dir"];
        let data_arg = data.display().to_string();
        args.push(&data_arg);
        if resume {
            args.push("--resume");
        } else {
            args.extend(["assets/scenarios/swamp.ron", "--seed", "9"]);
        }
        let mut child = Command::new(env!("CARGO_BIN_EXE_fray"))
            .args(&args)
            .current_dir(
                std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").to_owned()),
            )
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the headless player starts");
        let (lines, reader) = collect_stdout(&mut child);
        let last = attempt == 8;
        if !last {
            std::thread::sleep(Duration::from_millis(rng.random_range(20..300)));
            // `Child::kill` is SIGKILL on Unix: no chance to clean up.
            let _ = child.kill();
        }
        let status = child.wait().expect("the player is reaped");
        reader.join().expect("the reader ends");
        let printed = lines.lock().expect("the line list").clone();
        eprintln!(
            "crash test: run {attempt}: resume {resume}, {} lines printed, exit {status}",
            printed.len()
        );
        if status.success() {
            assert!(finished.exists() && !autosave.exists(), "a finished fight leaves no autosave to resume");
            let done = session::read_save(&registry(), &finished).expect("the finished fight's save reads");
            let (app, _) = done.headless_app();
            let mut log = Vec::new();
            fray::battle::log(&app).write_jsonl(&mut log, None).expect("in memory");
            assert!(
                text(&log) == reference,
                "the resumed fight ends with the uninterrupted log (kill seed {seed})"
            );
            let whole: Vec<&str> = reference.lines().collect();
            assert!(printed == whole, "the last run printed the whole log (kill seed {seed})");
            return;
        }
        if !autosave.exists() {
            assert!(printed.is_empty(), "nothing is printed before the first autosave (kill seed {seed})");
            continue;
        }
        let save = session::read_save(&registry(), &autosave)
            .unwrap_or_else(|e| panic!("the autosave is never half-written, but: {e} (kill seed {seed})"));
        let (app, report) = save.headless_app();
        assert_eq!(report.stopped, None, "the autosave replays whole (kill seed {seed})");
        let mut log = Vec::new();
        fray::battle::log(&app).write_jsonl(&mut log, None).expect("in memory");
        let log = text(&log);
        let saved: Vec<&str> = log.lines().collect();
        assert!(
            printed.len() <= saved.len() && saved.iter().zip(&printed).all(|(a, b)| a == b),
            "every line printed before the kill ({}) is in the autosave ({}) (kill seed {seed})",
            printed.len(),
            saved.len()
        );
    }
    panic!("the fight did not end (kill seed {seed})");
}

/// A played swamp battle's save text, made in memory.
fn swamp_save(seed: u64) -> String {
    let text = std::fs::read_to_string(
        Path::new(
            &std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").to_owned()),
        )
        .join("assets/scenarios/swamp.ron"),
    )
    .expect("the swamp scenario");
    let scenario = fray::rulesets::parse(&text).expect("the swamp parses");
    let mut app = scenario.table_app(seed, 100, true);
    app.update();
    session::save_string(app.world()).expect("saving")
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 300, ..Default::default() })]

    /// Any edit of a save gives a save or an error, never a panic; a save that reads opens
    /// (up to its first intent that no longer validates), never panicking either.
    #[test]
    fn a_mangled_save_never_panics_the_loader(
        edits in proptest::collection::vec(
            (proptest::prelude::any::<usize>(), 0..4u8, proptest::prelude::any::<char>()),
            1..6,
        ),
    ) {
        let text = fray_core::scenario::mangle(&swamp_save(5), &edits);
        match parse_save_text(&registry(), &text) {
            Ok(save) => {
                let (_, report) = save.headless_app();
                proptest::prop_assert!(report.replayed <= report.total);
            }
            Err(e) => proptest::prop_assert!(!e.report("x.ron").is_empty(), "an error explains itself"),
        }
    }
}

#[test]
fn resuming_with_no_autosave_says_where_it_looked() {
    let dir = scratch("no-autosave");
    let data = dir.join("data");
    let shown = session::autosave_path(&data).display().to_string();
    let out = fray(&["play", "--headless", "--resume", "--data-dir", &data.display().to_string()]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).starts_with(&format!("{shown}: cannot read the file")),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn the_autosave_follows_every_accepted_intent_undo_included() {
    use crate::support::{Board, LOCKJAW};
    let dir = scratch("autosave-follows");
    let path = session::autosave_path(&dir);
    let mut t = Board::from_ron(LOCKJAW);
    t.app.add_plugins(session::AutosavePlugin);
    t.world_mut().insert_resource(session::Autosave::to(path.clone()));
    t.app.update();
    let intents = |path: &std::path::Path| {
        let save =
            session::read_save(&registry(), path).unwrap_or_else(|e| panic!("the autosave reads: {e}"));
        save.intents()
    };
    assert_eq!(intents(&path), 0, "the fight is autosaved from its start");
    t.choose("lockjaw", "Pay armour: 1 TP");
    assert_eq!(intents(&path), 1, "autosaved after the accepted intent");
    assert_eq!(
        session::last_autosave_in(&dir),
        Some(path.clone()),
        "an interrupted fight is there to resume"
    );
    let before = t.log_jsonl();
    t.choose("lockjaw", "Bid 2 TP");
    assert_eq!(intents(&path), 2);
    session::undo(t.world_mut()).expect("the bid can be undone");
    t.app.update();
    assert_eq!(intents(&path), 1, "and after the undo");
    let mut resumed = Board::from_ron(LOCKJAW);
    let report = session::load(resumed.world_mut(), &path).expect("the autosave loads");
    assert_eq!((report.replayed, report.total), (1, 1));
    assert_eq!(resumed.log_jsonl(), before, "resuming gives the table that was autosaved");
    // The AI plays the fight out.
    let everyone: Vec<_> = fray_core::session::controllers(t.world())
        .into_iter()
        .map(|(id, _)| (id, fray_core::prelude::Controller::Ai))
        .collect();
    fray_core::session::set_controllers(t.world_mut(), &everyone);
    t.app.update();
    assert!(session::fight_over(t.world()), "the fight ends");
    assert!(!path.exists(), "a finished fight is not offered for resuming");
    assert!(dir.join(session::FINISHED_FILE).exists(), "it is kept as the last finished fight");
    assert_eq!(session::last_autosave_in(&dir), None);
}

#[test]
fn saves_written_before_the_ruleset_contract_still_load_and_replay_to_their_end() {
    // Written by `fray sim --save` before this change: the winner, clock and survivors it printed.
    let saves = [
        ("castle-seed3.ron", "defenders", 4, "castellan, gate_warden, keep_archer, wall_archer"),
        ("ambush-seed4.ron", "convoy", 48, "ivo, lena, sol, tomas"),
    ];
    for (file, winner, clock, survivors) in saves {
        let path = Path::new(
            &std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").to_owned()),
        )
        .join("tests/fixtures/saves")
        .join(file);
        let save = session::read_save(&registry(), &path)
            .unwrap_or_else(|e| panic!("{file}: {}", e.report(file).join("; ")));
        let (app, report) = save.headless_app();
        // Today's rules end a fight the moment one side is left: a save whose last foe fell
        // mid-round stops replaying there, its later intents refused as after the fight.
        if let Some(stop) = &report.stopped {
            assert_eq!(
                stop.reason,
                "the fight is over",
                "{file}: every intent replays: {}",
                report.message()
            );
        }
        assert!(session::fight_over(app.world()), "{file}: the saved fight was played to its end");
        let result = app.world().resource::<fray_core::ruleset::FightResult>();
        assert_eq!(result.winner.as_ref().map(|w| w.as_str()), Some(winner), "{file}: the same winner");
        assert_eq!(result.clock, clock, "{file}: it ends at the same point");
        let mut app = app;
        let summary = fray::battle::play_to_end(&mut app, 1).expect("a result");
        assert_eq!(summary.survivors.join(", "), survivors, "{file}: the same survivors");
    }
}

#[test]
fn seats_and_hand_overs_to_a_seat_are_kept_by_saves_undo_and_replay() {
    use fray_core::prelude::Controller;
    let text = crate::support::without_seats(include_str!("../assets/scenarios/fast_slow_crossing.ron"));
    let body = text.trim_end().strip_suffix(')').expect("a scenario ends its brackets").trim_end();
    let comma = if body.ends_with(',') { "" } else { "," };
    let text = format!(r#"{body}{comma} seats: [(id: "anna", name: "Anna", combatants: ["brann"])])"#);
    let mut board = crate::support::Board::from_ron(&text);
    let anna = Controller::Player("anna".into());
    let of = |board: &crate::support::Board, id: &str| board.world().get::<Controller>(board.e(id)).cloned();
    assert_eq!(of(&board, "brann"), Some(anna.clone()), "the seat plays Brann from the start");
    assert_eq!(board.awaiting(), ["brann"], "the rules wait on Anna's Brann");
    let odo = board.e("odo");
    board.world_mut().entity_mut(odo).insert(anna.clone());
    board.choose("brann", "Slow turn: 4 Paces, 2 actions and a bold action, after the upkeep");
    let saved = session::save_string(board.world()).expect("saved");
    assert!(saved.contains(r#"("brann", Player("anna"))"#), "the start's controllers:\n{saved}");
    assert!(saved.contains(r#"controller: Player("anna")"#), "Odo handed to Anna is in the record:\n{saved}");
    let save = parse_save_text(&registry(), &saved).expect("the save reads back");
    let (replayed, report) = save.headless_app();
    assert!(report.stopped.is_none(), "{}", report.message());
    let replayed = crate::support::Board { app: replayed };
    assert_eq!((of(&replayed, "brann"), of(&replayed, "odo")), (Some(anna.clone()), Some(anna.clone())));
    session::undo(board.world_mut()).expect("Brann's choice is undone");
    assert_eq!(of(&board, "odo"), Some(anna.clone()), "undo keeps the controllers of now");
    let unknown = saved.replace(r#"Player("anna")"#, r#"Player("bo")"#);
    let refused = parse_save_text(&registry(), &unknown).err().map(|e| e.to_string());
    assert_eq!(refused.as_deref(), Some("controllers: 'bo' is not a seat of the scenario"));
}
