//! FateWalker on the command line: `fray check`, `fray sim` with `--save`, `fray replay
//! --headless` and `fray play --headless` on the ambush scenario, and a broken file refused.

use std::path::PathBuf;
use std::process::Output;

use crate::support::{fray, scratch_file as scratch};

const AMBUSH: &str = "assets/scenarios/fatewalker_ambush.ron";

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn check_accepts_the_ambush() {
    let out = fray(&["check", AMBUSH]);
    assert!(out.status.success(), "fray check refused the ambush: {}", stderr(&out));
    assert_eq!(stdout(&out).trim(), format!("{AMBUSH}: ok (Ambush on Vell Street)"));
}

#[test]
fn sim_plays_the_ambush_to_the_end_in_ticks() {
    let out = fray(&["sim", "--scenario", AMBUSH, "--battles", "3", "--each"]);
    assert!(out.status.success(), "fray sim failed: {}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines[..3].iter().enumerate() {
        assert!(
            line.starts_with(&format!("battle {}: seed {}: winner ", i + 1, 7 + i))
                && line.contains(" ticks ("),
            "a battle line in ticks expected, got: {line}"
        );
        assert!(!line.contains("winner none"), "the ambush ends with one side standing: {line}");
    }
    assert!(text.contains("\nLength in ticks: min "), "the report counts in ticks:\n{text}");
}

#[test]
fn a_tick_limit_ends_the_fight_at_it() {
    let out = fray(&["sim", "--scenario", AMBUSH, "--max-rounds", "5"]);
    assert!(out.status.success(), "fray sim failed: {}", stderr(&out));
    let text = stdout(&out);
    let ticks: u32 = text
        .split(" after ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("a tick count expected in: {text}"));
    assert!(ticks <= 5, "--max-rounds 5 is a limit of 5 ticks for FateWalker, the fight went to {ticks}");
}

#[test]
fn a_sim_save_replays_to_the_same_log() {
    let (save, log) = (scratch("ambush-save.ron"), scratch("ambush-sim.jsonl"));
    let (save, log) = (save.display().to_string(), log.display().to_string());
    let out = fray(&["sim", "--scenario", AMBUSH, "--seed", "11", "--save", &save, "--log", &log]);
    assert!(out.status.success(), "fray sim --save failed: {}", stderr(&out));
    let saved = std::fs::read_to_string(&save).expect("the save was written");
    assert!(saved.contains("ruleset: \"fatewalker\""), "the save names its ruleset");
    let replay = fray(&["replay", &save, "--headless"]);
    assert!(replay.status.success(), "fray replay failed: {}", stderr(&replay));
    let sim_log = std::fs::read_to_string(&log).expect("the sim log was written");
    assert!(sim_log.lines().count() > 100, "a whole fight is logged");
    assert_eq!(stdout(&replay), sim_log, "the replayed log differs from the simulated one");
}

#[test]
fn headless_play_finishes_the_ambush_and_keeps_the_save() {
    let dir = scratch("play-data");
    let out = fray(&["play", AMBUSH, "--headless", "--data-dir", &dir.display().to_string()]);
    assert!(out.status.success(), "fray play --headless failed: {}", stderr(&out));
    let last = stdout(&out).lines().last().unwrap_or_default().to_owned();
    assert!(last.contains("\"phase\":\"fight_over\""), "the log ends with the fight over: {last}");
    assert!(dir.join("last-finished.ron").is_file(), "the finished fight's autosave is kept aside");
    let replay = fray(&["replay", &dir.join("last-finished.ron").display().to_string(), "--headless"]);
    assert_eq!(stdout(&replay), stdout(&out), "the autosave replays to the printed log");
}

#[test]
fn a_broken_fatewalker_file_is_refused_with_its_position() {
    let text = std::fs::read_to_string(
        PathBuf::from(
            std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").to_owned()),
        )
        .join(AMBUSH),
    )
    .expect("the ambush scenario");
    // A number where the marksman's Awareness is.
    let broken = text.replacen(
        "awareness: 5, prowess: 4, will: 4, resilience: 2",
        "awareness: \"keen\", prowess: 4, will: 4, resilience: 2",
        1,
    );
    assert_ne!(broken, text, "the test edits the marksman's sheet");
    let path = scratch("broken-ambush.ron");
    std::fs::write(&path, &broken).expect("writing the broken file");
    let shown = path.display().to_string();
    let out = fray(&["check", &shown]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "exit 2 expected: {err}");
    let line_no = broken.lines().position(|l| l.contains("\"keen\"")).map(|i| i + 1).unwrap_or_default();
    let line = err.lines().next().unwrap_or_default();
    let rest = line.strip_prefix(&format!("{shown}:")).unwrap_or_default();
    let mut parts = rest.splitn(3, ':');
    let (l, c) = (
        parts.next().and_then(|n| n.parse::<usize>().ok()),
        parts.next().and_then(|n| n.parse::<usize>().ok()),
    );
    assert_eq!(l, Some(line_no), "PATH:LINE:COL with the line of the bad value expected, got: {line}");
    assert!(c.is_some_and(|c| c > 0), "a column expected: {line}");
    // A well-formed file with a wrong id is refused with the path and the reason.
    let unknown = text.replacen("ambusher: \"kez\"", "ambusher: \"nobody\"", 1);
    std::fs::write(&path, unknown).expect("writing the second broken file");
    let out = fray(&["check", &shown]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains(&format!("{shown}: rules: ambusher 'nobody'")), "{}", stderr(&out));
}

#[test]
fn illuminations_read_by_their_names_and_by_their_old_ones_that_ron_also_uses() {
    let text = std::fs::read_to_string(
        PathBuf::from(
            std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").to_owned()),
        )
        .join(AMBUSH),
    )
    .expect("the ambush scenario");
    let lit = |level: &str| {
        text.replacen("sheet: (awareness: 4,", &format!("sheet: (illumination: {level}, awareness: 4,"), 1)
    };
    assert_ne!(lit("Dim"), text, "the test edits a sheet");
    let path = scratch("illumination.ron");
    let shown = path.display().to_string();
    // `Some` and `None` are RON's own words too: the file once failed to read at `Some,`.
    for level in ["Dim", "Dark", "Well", "Some", "None", "r#Some", "r#None"] {
        std::fs::write(&path, lit(level)).expect("writing the file");
        let out = fray(&["check", &shown]);
        assert!(out.status.success(), "illumination: {level} should read: {}", stderr(&out));
    }
    std::fs::write(&path, lit("Bright")).expect("writing the file");
    let out = fray(&["check", &shown]);
    let line_no = lit("Bright").lines().position(|l| l.contains("illumination: Bright")).map_or(0, |i| i + 1);
    assert_eq!(out.status.code(), Some(2), "an unknown level is refused");
    assert!(
        stderr(&out).starts_with(&format!("{shown}:{line_no}:")) && stderr(&out).contains("Bright"),
        "the error names the line and the level: {}",
        stderr(&out)
    );
}
