//! Benchmark: the AI's decisions, at each level.
//!
//! `cargo run --release --example ai_bench [-- BATTLES]`
//!
//! For every bundled scenario, every side played by the AI at one level, then the other: how
//! long one decision takes (median, 99th percentile, slowest; timed around each decision
//! alone) and battles per second, on one thread. Then Fiend Wake 8 v 8 (the field of
//! `bench_battles`) at each level, three runs alternated, battles per second on one thread:
//! the tactical AI's rate against the simple one's, in the same run.

#[path = "common/mod.rs"]
mod common;

use std::time::Instant;

use bevy_app::App;
use fray::battle::play_to_end;
use fray_core::ai::{AiLevel, DecisionTimes};
use fray_core::fight::LoadedScenario;
use fray_core::prelude::TableIndex;

/// Every combatant at `level`.
fn set_level(app: &mut App, level: AiLevel) {
    let world = app.world_mut();
    let all: Vec<_> = world.resource::<TableIndex>().order.clone();
    for e in all {
        world.entity_mut(e).insert(level);
    }
}

/// Plays `battles` (seeds 1, 2…) at `level` on one thread: (battles per second, every
/// decision's time in ns).
fn play(scenario: &LoadedScenario, level: AiLevel, battles: u64, timed: bool) -> Option<(f64, Vec<u64>)> {
    let limit = scenario.default_limit();
    let mut app = scenario.table_app(1, limit, true);
    let mut times = Vec::new();
    let start = Instant::now();
    for seed in 1..=battles {
        if seed > 1 {
            scenario.start(app.world_mut(), seed, limit, true);
        }
        set_level(&mut app, level);
        if timed {
            app.world_mut().insert_resource(DecisionTimes::default());
        }
        play_to_end(&mut app, 10)?;
        if let Some(t) = app.world_mut().remove_resource::<DecisionTimes>() {
            times.extend(t.0);
        }
    }
    Some((battles as f64 / start.elapsed().as_secs_f64(), times))
}

fn percentile(sorted: &[u64], q: f64) -> f64 {
    let i = ((sorted.len() as f64 * q).ceil() as usize).clamp(1, sorted.len().max(1)) - 1;
    sorted.get(i).map_or(0.0, |&ns| ns as f64 / 1000.0)
}

fn main() {
    let battles: u64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(50);
    println!("Every bundled scenario, every side at one AI level, {battles} battles on one thread");
    println!(
        "{:<26} {:<9} {:>10} {:>11} {:>10} {:>10} {:>11}",
        "scenario", "level", "decisions", "median µs", "p99 µs", "max µs", "battles/s"
    );
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(root.join("assets/scenarios"))
        .map(|dir| dir.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.sort();
    let mut all: Vec<(AiLevel, u64)> = Vec::new();
    for path in files.iter().filter(|p| p.extension().is_some_and(|e| e == "ron")) {
        let Ok(scenario) = fray::rulesets::load(path) else {
            eprintln!("{}: does not load", path.display());
            continue;
        };
        let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        for level in AiLevel::ALL {
            let Some((rate, mut times)) = play(&scenario, level, battles, true) else {
                eprintln!("{name}: a battle did not end");
                continue;
            };
            all.extend(times.iter().map(|&t| (level, t)));
            times.sort_unstable();
            println!(
                "{:<26} {:<9} {:>10} {:>11.1} {:>10.1} {:>10.1} {:>11.1}",
                name,
                level.name(),
                times.len(),
                percentile(&times, 0.5),
                percentile(&times, 0.99),
                percentile(&times, 1.0),
                rate
            );
        }
    }
    for level in AiLevel::ALL {
        let mut times: Vec<u64> = all.iter().filter(|(l, _)| *l == level).map(|(_, t)| *t).collect();
        times.sort_unstable();
        println!(
            "all scenarios, {:<9} {} decisions: median {:.1} µs, p99 {:.1} µs (target: 2,000 and 20,000)",
            level.name(),
            times.len(),
            percentile(&times, 0.5),
            percentile(&times, 0.99)
        );
    }
    println!();
    let Ok(field) = fray::rulesets::parse(&common::scenario(8)) else {
        eprintln!("the 8 v 8 field does not parse");
        return;
    };
    println!(
        "Fiend Wake 8 v 8, one thread, battles per second (three runs, alternated; {} battles each)",
        battles * 10
    );
    let mut rates = [Vec::new(), Vec::new()];
    for _ in 0..3 {
        for (i, level) in AiLevel::ALL.into_iter().enumerate() {
            if let Some((rate, _)) = play(&field, level, battles * 10, false) {
                rates[i].push(rate);
            }
        }
    }
    for (i, level) in AiLevel::ALL.into_iter().enumerate() {
        rates[i].sort_by(f64::total_cmp);
        let shown: Vec<String> = rates[i].iter().map(|r| format!("{r:.0}")).collect();
        println!(
            "  {:<9} {} (median {:.0})",
            level.name(),
            shown.join(", "),
            rates[i].get(1).copied().unwrap_or(0.0)
        );
    }
    if let (Some(s), Some(t)) = (rates[0].get(1), rates[1].get(1)) {
        println!("  tactical / simple: {:.2} (target: at least 0.33)", t / s);
    }
}
