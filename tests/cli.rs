//! The command line, run as a person would: `fray check` on good and broken files, and
//! `fray sim` on the project's scenarios.

use std::path::Path;

use crate::support::{fray, fray_without_display, scratch_file as scratch};

/// Writes `text` to a file, runs `fray check` on it, expects exit 2 and a line starting
/// with the path and containing `expected`.
fn check_fails(name: &str, text: &[u8], expected: &str) {
    let path = scratch(name);
    std::fs::write(&path, text).expect("writing the broken file");
    let shown = path.display().to_string();
    let out = fray(&["check", &shown]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{name}: exit 2 expected; stderr: {stderr}");
    assert!(!stderr.contains("panicked"), "{name}: fray check panicked: {stderr}");
    assert!(
        stderr.lines().any(|l| l.starts_with(&format!("{shown}:")) && l.contains(expected)),
        "{name}: expected a line `{shown}:...{expected}...`, got:\n{stderr}"
    );
}

fn swamp_text() -> String {
    std::fs::read_to_string(
        Path::new(
            &std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").to_owned()),
        )
        .join("assets/scenarios/swamp.ron"),
    )
    .expect("the swamp scenario")
}

#[test]
fn check_accepts_the_project_scenarios() {
    for s in ["assets/scenarios/swamp.ron", "assets/scenarios/castle.ron"] {
        let out = fray(&["check", s]);
        assert!(out.status.success(), "{s}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(String::from_utf8_lossy(&out.stdout).contains(": ok"));
    }
}

#[test]
fn check_reports_syntax_and_type_errors_with_line_and_column() {
    let swamp = swamp_text();
    let truncated = &swamp[..swamp.len() / 2];
    check_fails("truncated.ron", truncated.as_bytes(), "");
    let path = scratch("truncated.ron").display().to_string();
    let out = fray(&["check", &path]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let line = stderr.lines().next().unwrap_or_default();
    let rest = line.strip_prefix(&format!("{path}:")).unwrap_or_default();
    let mut parts = rest.splitn(3, ':');
    let (l, c) = (parts.next().unwrap_or_default(), parts.next().unwrap_or_default());
    assert!(l.parse::<u32>().is_ok() && c.parse::<u32>().is_ok(), "PATH:LINE:COL expected, got {line}");

    let wrong_type = swamp.replace("base_tp: 2", "base_tp: \"two\"");
    check_fails("wrong_type.ron", wrong_type.as_bytes(), "Expected");
    let line_of = wrong_type.lines().position(|l| l.contains("\"two\"")).expect("the edit is there") + 1;
    let path = scratch("wrong_type.ron").display().to_string();
    let out = fray(&["check", &path]);
    assert!(
        String::from_utf8_lossy(&out.stderr).starts_with(&format!("{path}:{line_of}:")),
        "the type error points at line {line_of}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let misspelt =
        swamp.replace("entered_from: [\"field\", \"raft\"]", "entered_frum: [\"field\", \"raft\"]");
    check_fails("misspelt.ron", misspelt.as_bytes(), "entered_frum");
    check_fails("empty.ron", b"", "");
    check_fails("binary.ron", &[0xff, 0xfe, 0x00, 0x13, 0x37, 0x80], "");
    let deep = format!("Scenario(name: {}1{})", "[".repeat(500), "]".repeat(500));
    check_fails("deep.ron", deep.as_bytes(), "");
}

#[test]
fn check_reports_semantic_errors_precisely() {
    let swamp = swamp_text();
    check_fails(
        "unknown_edge.ron",
        swamp
            .replace("entered_from: [\"field\", \"raft\"]", "entered_from: [\"field\", \"ship\"]")
            .as_bytes(),
        "location 'mound': entered_from names 'ship', which is not a location of this scenario",
    );
    check_fails(
        "duplicate.ron",
        swamp.replace("id: \"dorga\"", "id: \"brannoc\"").as_bytes(),
        "duplicate combatant id 'brannoc'",
    );
    check_fails(
        "negative.ron",
        swamp.replace("power: 3, grace: 3, cunning: 5", "power: 3, grace: -2, cunning: 5").as_bytes(),
        "combatant 'lockjaw': Grace is -2; it cannot be negative",
    );
    check_fails(
        "absurd.ron",
        swamp.replace("EntryCost(2)", "EntryCost(4000000)").as_bytes(),
        "location 'tower': entry cost 4000000 is absurd",
    );
    check_fails(
        "unknown_side.ron",
        swamp
            .replace("side: \"imps\", location: \"tower\"", "side: \"goblins\", location: \"tower\"")
            .as_bytes(),
        "side 'goblins' is not a side of this scenario",
    );
    check_fails(
        "unknown_weapon.ron",
        swamp
            .replace("weapons: [\"rifle\"], ready: \"rifle\"", "weapons: [\"musket\"], ready: \"rifle\"")
            .as_bytes(),
        "carries weapon 'musket', which is not in rules.weapons",
    );
    let castle = std::fs::read_to_string(
        Path::new(
            &std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").to_owned()),
        )
        .join("assets/scenarios/castle.ron"),
    )
    .expect("the castle scenario");
    check_fails(
        "missing_mount.ron",
        castle.replace("rides: \"destrier\"", "rides: \"pegasus\"").as_bytes(),
        "combatant 'sir_oswin': rides 'pegasus', which is not a mount of this scenario",
    );
    check_fails(
        "unknown_ruleset.ron",
        swamp.replace("ruleset: \"fiend_wake\"", "ruleset: \"chess\"").as_bytes(),
        "unknown ruleset 'chess'",
    );
    let many: String = (0..1100)
        .map(|i| format!("(id: \"c{i}\", name: \"C\", side: \"imps\", sheet: (attributes: (power: 1, grace: 1, cunning: 1, endurance: 1, resolve: 1, spirit: 1), evasion: 5)),"))
        .collect();
    check_fails(
        "crowd.ron",
        swamp.replacen("combatants: [", &format!("combatants: [{many}"), 1).as_bytes(),
        "1111 combatants; at most 1024 are allowed",
    );
    let missing = scratch("no_such_file.ron");
    let out = fray(&["check", &missing.display().to_string()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read the file"));
}

#[test]
fn sim_plays_battles_to_the_end_and_writes_the_log() {
    let log = scratch("castle.jsonl");
    let shown = log.display().to_string();
    let out = fray(&[
        "sim",
        "--scenario",
        "assets/scenarios/castle.ron",
        "--seed",
        "5",
        "--battles",
        "3",
        "--each",
        "--log",
        &shown,
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines[0].starts_with("battle 1: seed 5: winner "), "{}", lines[0]);
    assert!(lines[2].starts_with("battle 3: seed 7: "), "{}", lines[2]);
    assert!(
        lines[3].is_empty() && lines[4].starts_with("The castle at Grimmholt (fiend_wake): 3 battles"),
        "{stdout}"
    );
    let text = std::fs::read_to_string(&log).expect("the log was written");
    let battles: std::collections::BTreeSet<u64> = text
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("each line is JSON"))
        .map(|v| v["battle"].as_u64().expect("each line names its battle"))
        .collect();
    assert_eq!(battles.into_iter().collect::<Vec<_>>(), vec![1, 2, 3]);
    assert_eq!(text.lines().filter(|l| l.contains("\"kind\":\"battle_ended\"")).count(), 3);
}

#[test]
fn sim_refuses_a_broken_scenario_with_its_error() {
    let path = scratch("broken_for_sim.ron");
    std::fs::write(&path, "Scenario(").expect("writing");
    let out = fray(&["sim", "--scenario", &path.display().to_string()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with(&path.display().to_string()));
}

/// `fray sim` on the castle with these extra arguments, writing its JSON report; the report.
fn castle_report(name: &str, extra: &[&str]) -> serde_json::Value {
    let json = scratch(name);
    let shown = json.display().to_string();
    let mut args = vec!["sim", "--scenario", "assets/scenarios/castle.ron", "--seed", "3", "--json", &shown];
    args.extend_from_slice(extra);
    let out = fray(&args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&json).expect("the JSON report was written");
    serde_json::from_str(&text).expect("the report is JSON")
}

#[test]
fn the_balance_report_is_the_same_whatever_the_thread_count() {
    let one = scratch("threads-1.json");
    let four = scratch("threads-4.json");
    for (path, threads) in [(&one, "1"), (&four, "4")] {
        let shown = path.display().to_string();
        let out = fray(&[
            "sim",
            "--scenario",
            "assets/scenarios/castle.ron",
            "--battles",
            "60",
            "--threads",
            threads,
            "--json",
            &shown,
        ]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    let (one, four) = (std::fs::read(&one).expect("written"), std::fs::read(&four).expect("written"));
    assert!(one == four, "--threads 1 and --threads 4 wrote different reports");
}

#[test]
fn the_balance_report_adds_up() {
    let r = castle_report("adds-up.json", &["--battles", "80"]);
    assert_eq!(
        (r["schema"].as_u64(), r["battles"].as_u64(), r["finished"].as_u64()),
        (Some(1), Some(80), Some(80))
    );
    assert_eq!(r["ruleset"], "fiend_wake");
    let sides = r["sides"].as_array().expect("sides");
    assert_eq!(sides.len(), 2);
    let wins: u64 = sides.iter().map(|s| s["wins"].as_u64().expect("wins")).sum();
    assert_eq!(wins + r["no_winner"].as_u64().expect("no_winner"), 80, "every battle is a win or none");
    for s in sides {
        let (lo, p, hi) = (s["interval"][0].as_f64(), s["win_rate"].as_f64(), s["interval"][1].as_f64());
        let (lo, p, hi) = (lo.expect("lo"), p.expect("rate"), hi.expect("hi"));
        assert!(0.0 <= lo && lo <= p && p <= hi && hi <= 1.0 && hi - lo > 0.0, "{s}");
    }
    let length = &r["length"];
    let counted: u64 =
        length["histogram"].as_array().expect("histogram").iter().map(|h| h[1].as_u64().expect("n")).sum();
    assert_eq!(counted, 80, "the histogram holds every battle");
    let at = |k: &str| length[k].as_u64().expect(k);
    assert!(
        at("min") <= at("p10")
            && at("p10") <= at("median")
            && at("median") <= at("p90")
            && at("p90") <= at("max")
    );
    let combatants = r["combatants"].as_array().expect("combatants");
    assert_eq!(combatants.len(), 9, "every combatant of the castle");
    let first: f64 = combatants.iter().map(|c| c["fell_first_rate"].as_f64().expect("rate")).sum();
    assert!((first - 1.0).abs() < 0.01, "someone falls first in every battle of the castle: {first}");
    let dealt: f64 = combatants.iter().map(|c| c["damage_dealt"].as_f64().expect("dealt")).sum();
    let taken: f64 = combatants.iter().map(|c| c["damage_taken"].as_f64().expect("taken")).sum();
    assert!(dealt > 0.0 && dealt <= taken + 0.01, "damage dealt by combatants is part of the damage taken");
    // What the AI did with what it was offered: a kind is taken at most at each decision it
    // was offered at, the kinds taken add up to at most the decisions, and those never
    // taken are named.
    let intents = &r["intents"];
    assert_eq!(intents["battles"], 80, "{intents}");
    let kinds = intents["kinds"].as_array().expect("kinds");
    let of = |k: &serde_json::Value, f: &str| k[f].as_f64().expect(f);
    assert!(kinds.iter().all(|k| of(k, "taken_per_100") <= of(k, "offered_per_100")), "{intents}");
    let taken: f64 = kinds.iter().map(|k| of(k, "taken_per_100")).sum();
    assert!(taken > 0.0 && taken <= of(intents, "decisions_per_100") + 0.01, "{intents}");
    let never: Vec<&str> = kinds
        .iter()
        .filter(|k| k["taken_per_100"] == 0.0)
        .map(|k| k["kind"].as_str().expect("a kind"))
        .collect();
    assert_eq!(intents["never_taken"], serde_json::json!(never), "{intents}");
    for kind in ["Bid", "EndTurn"] {
        assert!(
            kinds.iter().any(|k| k["kind"] == kind && of(k, "taken_per_100") > 0.0),
            "{kind} taken: {intents}"
        );
    }
}

#[test]
fn sim_plays_each_side_at_the_level_asked_and_says_so() {
    let sides = |r: &serde_json::Value| -> Vec<String> {
        r["sides"]
            .as_array()
            .expect("sides")
            .iter()
            .map(|s| s["ai"].as_str().expect("ai").to_owned())
            .collect()
    };
    let r = castle_report("levels-default.json", &["--battles", "4"]);
    assert_eq!(sides(&r), ["tactical", "tactical"], "tactical by default");
    assert!(r.get("versus").is_none(), "no tournament asked");
    let first = r["sides"][0]["id"].as_str().expect("an id").to_owned();
    let r = castle_report("levels-ai.json", &["--battles", "4", "--ai", &format!("{first}=simple")]);
    assert_eq!(sides(&r), ["simple", "tactical"]);
    // A side the scenario does not have, or a level Fray does not know: refused, naming them.
    for (spec, says) in
        [("nobody=simple", "no side 'nobody'"), (&*format!("{first}=clever"), "unknown AI level 'clever'")]
    {
        let out = fray(&["sim", "--scenario", "assets/scenarios/castle.ron", "--ai", spec]);
        assert_eq!(out.status.code(), Some(2), "{spec}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(says),
            "{spec}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let out = fray(&[
        "sim",
        "--scenario",
        "assets/scenarios/castle.ron",
        "--ai",
        "x=simple",
        "--versus",
        "tactical,simple",
    ]);
    assert_eq!(out.status.code(), Some(2), "--ai and --versus together are refused");
}

#[test]
fn a_tournament_swaps_the_levels_halfway_and_counts_each_levels_wins() {
    let json = scratch("versus.json");
    let shown = json.display().to_string();
    let args = ["sim", "--scenario", "assets/scenarios/castle.ron", "--seed", "3", "--battles", "40"];
    let out = fray(&[&args[..], &["--versus", "tactical,simple", "--each", "--json", &shown]].concat());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let r: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).expect("written")).expect("JSON");
    let versus = &r["versus"];
    assert_eq!(versus["battles"], 40, "{versus}");
    let levels = versus["levels"].as_array().expect("levels");
    let names: Vec<&str> = levels.iter().map(|l| l["level"].as_str().expect("level")).collect();
    assert_eq!(names, ["tactical", "simple"]);
    for side in r["sides"].as_array().expect("sides") {
        assert_eq!(side["ai"], "varies", "each side played both levels: {side}");
    }
    // The first level plays the defenders in battles 1-20 and the raiders in 21-40.
    let lines = String::from_utf8_lossy(&out.stdout).into_owned();
    let won = |range: std::ops::RangeInclusive<usize>, side: &str| {
        range
            .filter(|i| {
                lines.lines().any(|l| {
                    l.starts_with(&format!("battle {i}: ")) && l.contains(&format!("winner {side} "))
                })
            })
            .count() as u64
    };
    let tactical = won(1..=20, "defenders") + won(21..=40, "raiders");
    let simple = won(1..=20, "raiders") + won(21..=40, "defenders");
    assert_eq!(
        (levels[0]["wins"].as_u64(), levels[1]["wins"].as_u64()),
        (Some(tactical), Some(simple)),
        "{lines}"
    );
    assert_eq!(tactical + simple + versus["no_winner"].as_u64().expect("no winner"), 40, "{versus}");
    for l in levels {
        let (lo, p, hi) = (l["interval"][0].as_f64(), l["win_rate"].as_f64(), l["interval"][1].as_f64());
        let (lo, p, hi) = (lo.expect("lo"), p.expect("rate"), hi.expect("hi"));
        assert!(0.0 <= lo && lo <= p && p <= hi && hi <= 1.0, "{l}");
    }
}

/// The kinds of intent the AI took in 60 battles of a bundled scenario (`--json`'s `intents`).
fn taken(scenario: &str, extra: &[&str]) -> Vec<String> {
    let json = scratch(&format!("taken-{scenario}-{}.json", extra.join("-").replace('=', "-")));
    let shown = json.display().to_string();
    let path = format!("assets/scenarios/{scenario}.ron");
    let out = fray(&[&["sim", "--scenario", &path, "--battles", "60", "--json", &shown][..], extra].concat());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let r: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).expect("written")).expect("JSON");
    let kinds = r["intents"]["kinds"].as_array().expect("kinds").clone();
    kinds
        .iter()
        .filter(|k| k["taken_per_100"].as_f64() > Some(0.0))
        .map(|k| k["kind"].as_str().expect("kind").to_owned())
        .collect()
}

#[test]
fn the_tactical_ai_takes_what_the_scenarios_made_for_it_call_for_and_the_simple_one_does_not() {
    // Each scenario sets up situations the first AI never answered (docs/balance.md).
    let cases = [
        (
            "faction_zones_toll_bridge",
            &["Spread", "NonLethal", "Guard", "Sprint", "Stunt", "TakeIt"][..],
            ["bridge", "goblins"],
        ),
        ("faction_zones_hillfort", &["Pass", "Hide", "AcceptStunt"][..], ["hillfolk", "raiders"]),
        ("faction_zones_patrol", &["Dismount", "Reserve"][..], ["patrol", "highwaymen"]),
        ("fiend_wake_crossroads", &["Grapple", "RefuseArmour", "Retreat"][..], ["outriders", "imps"]),
        ("fatewalker_yard", &["Hold", "ChangeMovement"][..], ["dock", "raiders"]),
        ("fast_slow_watchtower", &["Potion", "Stake", "Flee"][..], ["patrol", "tower"]),
        (
            "ap_ladder_tollgate",
            &["StrikeMount", "FixShield", "TakeAim", "LitanyOfHatred", "Wait"][..],
            ["knights", "gate"],
        ),
    ];
    for (scenario, kinds, sides) in cases {
        let tactical = taken(scenario, &[]);
        let missing: Vec<&&str> = kinds.iter().filter(|k| !tactical.iter().any(|t| t == *k)).collect();
        assert!(missing.is_empty(), "{scenario}: the tactical AI never took {missing:?} (took {tactical:?})");
        // Every side at the simple level: none of them.
        let [a, b] = sides.map(|side| format!("{side}=simple"));
        let simple = taken(scenario, &["--ai", &a, "--ai", &b]);
        let used: Vec<&&str> = kinds.iter().filter(|k| simple.iter().any(|t| t == *k)).collect();
        assert!(used.is_empty(), "{scenario}: the simple AI took {used:?}");
    }
}

#[test]
fn the_html_report_is_one_page_with_its_charts() {
    let page = scratch("report.html");
    let shown = page.display().to_string();
    let out =
        fray(&["sim", "--scenario", "assets/scenarios/castle.ron", "--battles", "20", "--report", &shown]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let html = std::fs::read_to_string(&page).expect("the page was written");
    assert_eq!(html.matches("<svg").count(), 3, "win rates, length and damage charts");
    assert!(html.contains("Garrison of Grimmholt") && html.contains("Castellan Wendel"));
    assert!(
        html.contains("What the AI chose") && html.contains("Offered but never taken"),
        "the intents' table"
    );
    for outside in ["<script", "<link", " src=", "url("] {
        assert!(!html.contains(outside), "the page loads nothing from outside: {outside}");
    }
}

#[test]
fn a_sweep_writes_a_field_the_file_leaves_to_its_default() {
    let r = castle_report("sweep-default.json", &["--battles", "60", "--vary", "castellan.tp_adjust=0..3:3"]);
    let points = r["points"].as_array().expect("points");
    let values: Vec<f64> = points.iter().map(|p| p["value"].as_f64().expect("value")).collect();
    assert_eq!(values, vec![0.0, 3.0], "both values played: {r}");
    // The same seeds play other fights once the field is written: the value reached the sheet.
    assert_ne!(points[0]["report"]["combatants"], points[1]["report"]["combatants"], "{r}");
}

#[test]
fn a_sweep_reruns_the_battles_for_each_value() {
    let r = castle_report("sweep.json", &["--battles", "30", "--vary", "castellan.evasion=3..13:5"]);
    assert_eq!(r["vary"], "castellan.evasion");
    let points = r["points"].as_array().expect("points");
    let values: Vec<f64> = points.iter().map(|p| p["value"].as_f64().expect("value")).collect();
    assert_eq!(values, vec![3.0, 8.0, 13.0]);
    assert!(points.iter().all(|p| p["report"]["finished"] == 30));
    let defenders = |i: usize| points[i]["report"]["sides"][0]["wins"].as_u64().expect("wins");
    assert!(defenders(2) > defenders(0), "a harder-to-hit castellan wins the castle more often");
}

#[test]
fn a_sweep_of_a_field_that_is_not_there_names_it_and_the_ones_that_are() {
    let out = fray(&[
        "sim",
        "--scenario",
        "assets/scenarios/castle.ron",
        "--vary",
        "castellan.attributes.x.y=1..3",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("'attributes.x.y' is not a number") && err.contains("attributes.power"), "{err}");
    // A field the sheet does not have is refused by the ruleset's reading, which names it.
    let out =
        fray(&["sim", "--scenario", "assets/scenarios/castle.ron", "--vary", "castellan.vitality=1..3"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("castellan.vitality=1") && err.contains("`vitality`") && err.contains("`evasion`"),
        "{err}"
    );
    let out =
        fray(&["sim", "--scenario", "assets/scenarios/castle.ron", "--vary", "castellan.evasion=-2..0"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("castellan.evasion=-2"), "the refused value is named: {err}");
}

#[test]
fn sim_refuses_outputs_it_cannot_write_before_playing() {
    for (flag, path) in
        [("--json", "/no/such/folder/out.json"), ("--report", "/proc/version"), ("--log", "/tmp")]
    {
        let out = fray(&["sim", "--scenario", "assets/scenarios/castle.ron", "--battles", "5", flag, path]);
        assert_eq!(out.status.code(), Some(2), "{flag} {path}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with(&format!("{path}: ")), "the error names the path: {err}");
        assert!(out.stdout.is_empty(), "nothing was played: {}", String::from_utf8_lossy(&out.stdout));
    }
    let out = fray(&["sim", "--scenario", "assets/scenarios/castle.ron", "--battles", "0"]);
    assert_eq!(out.status.code(), Some(2), "no battles is refused");
}

#[test]
fn fray_new_writes_a_scenario_of_every_ruleset_that_checks_and_plays() {
    let dir = crate::support::scratch_dir("new-scenarios");
    let ids: Vec<&str> = fray::rulesets::registry().iter().map(|r| r.id()).collect();
    assert_eq!(ids.len(), 6, "every registered ruleset: {ids:?}");
    for id in ids {
        let path = dir.join(format!("{id}.ron")).display().to_string();
        let out = fray(&["new", "--ruleset", id, &path]);
        assert!(out.status.success(), "{id}: {}", String::from_utf8_lossy(&out.stderr));
        let out = fray(&["check", &path]);
        assert!(out.status.success(), "{id}'s template checks: {}", String::from_utf8_lossy(&out.stderr));
        let out = fray(&["sim", "--scenario", &path, "--battles", "3"]);
        assert!(out.status.success(), "{id}'s template plays: {}", String::from_utf8_lossy(&out.stderr));
        let text = std::fs::read_to_string(&path).expect("written");
        assert!(text.contains(&format!("ruleset: \"{id}\"")), "{id}: the file names its ruleset");
        // Never over an existing file.
        let again = fray(&["new", "--ruleset", id, &path]);
        assert_eq!(again.status.code(), Some(2), "{id}: an existing file is refused");
        assert_eq!(std::fs::read_to_string(&path).expect("still there"), text, "{id}: nothing overwritten");
    }
    let out = fray(&["new", "--ruleset", "chess", &dir.join("x.ron").display().to_string()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no such ruleset") && err.contains("fiend_wake"), "{err}");
}

#[test]
fn a_window_size_that_is_no_size_is_refused_before_any_window_opens() {
    for (size, words) in [
        ("1920", "no window size"),
        ("axb", "no window size"),
        ("100x100", "320 to 7680"),
        ("9000x900", "320 to 7680"),
    ] {
        let out = fray(&["play", "--table-size", size]);
        assert_eq!(out.status.code(), Some(2), "{size}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(words) && err.contains(size), "{size}: {err}");
    }
    let out = fray(&["play", "--window-size", "10x10"]);
    assert_eq!(out.status.code(), Some(2));
}

/// Found from outside: every command that opens a window panicked in winit with no display.
/// Each says what is missing and what to do instead, and exits 1.
#[test]
fn window_commands_with_no_display_say_what_to_do_instead() {
    for args in [
        &[][..],
        &["play", "assets/scenarios/swamp.ron"][..],
        &["play", "assets/scenarios/swamp.ron", "--stats", "1", "--no-render"][..],
        &["play", "assets/scenarios/castle.ron", "--edit"][..],
    ] {
        let out = fray_without_display(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "fray {args:?}: {stderr}");
        assert!(stderr.contains("DISPLAY is not set"), "fray {args:?}: {stderr}");
        assert!(stderr.contains("--headless") && stderr.contains("Xvfb"), "fray {args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "fray {args:?}: {stderr}");
    }
}

/// Found from outside: `fray check` said "wields weapon Some(2)", Rust's words in a message.
#[test]
fn check_names_a_missing_wielded_weapon_by_its_number() {
    let text = std::fs::read_to_string("assets/scenarios/ap_ladder_tavern.ron").expect("the tavern");
    let broken = text.replacen("wields: Some(0))", "wields: Some(7))", 1);
    assert_ne!(broken, text, "the tavern wields a weapon");
    check_fails("wields_nothing.ron", broken.as_bytes(), "wields weapon 7, which the sheet lacks");
    let out = fray(&["check", &scratch("wields_nothing.ron").display().to_string()]);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("Some("), "no Rust words");
}
