//! Benchmark: headless all-AI battles played to the end.
//!
//! `cargo run --release --example bench_battles [-- SECONDS_PER_MEASURE [LEVEL]]`
//!
//! `LEVEL` (`simple` or `tactical`) plays the N v N battles at that AI level; by default the
//! scenario's (tactical).
//!
//! First, Fiend Wake N v N battles (rifles and axes on an open field with one tower) for
//! N = 4, 8, 16, 32 and 64 on one core: as many as fit in the time given (2 s by default)
//! per size, with battles per second, the cost per battle, and the cost per
//! combatant-round, whose flatness shows how close to linear the cost grows. Then every
//! bundled scenario of every ruleset through the balance lab's battery (what `fray sim`
//! runs): battles per second on one core and on every core, and the speed-up.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use fray::battle::play_to_end;
use fray::lab::Battery;
use fray::lab::battery::{Keep, Levels, cores};

#[path = "common/mod.rs"]
mod common;

use common::scenario;

fn main() {
    let seconds: f64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(2.0);
    let level: Option<fray_core::ai::AiLevel> = std::env::args().nth(2).and_then(|s| s.parse().ok());
    let shown = level.map_or_else(|| "as the scenario says".to_owned(), |l| l.name().to_owned());
    println!("Fiend Wake headless battles, AI ({shown}) on every side, one thread ({seconds} s per size)");
    println!(
        "{:>8} {:>10} {:>14} {:>12} {:>11} {:>22}",
        "size", "battles", "battles/s", "ms/battle", "rounds", "us/combatant-round"
    );
    for per_side in [4usize, 8, 16, 32, 64] {
        let text = scenario(per_side);
        let parsed = match fray::rulesets::parse(&text) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("the benchmark scenario does not parse: {e}");
                return;
            }
        };
        let budget = Duration::from_secs_f64(seconds);
        let start = Instant::now();
        let (mut battles, mut rounds) = (0u64, 0u64);
        // One table app per size, reset between battles (as `fray sim --battles` does).
        let mut app = parsed.table_app(0, 200, true);
        while start.elapsed() < budget || battles < 3 {
            if battles > 0 {
                parsed.start(app.world_mut(), battles, 200, true);
            }
            if let Some(level) = level {
                let everyone = app.world().resource::<fray_core::prelude::TableIndex>().order.clone();
                for e in everyone {
                    app.world_mut().entity_mut(e).insert(level);
                }
            }
            match play_to_end(&mut app, 10) {
                Some(summary) => rounds += u64::from(summary.clock),
                None => {
                    eprintln!("a {per_side} v {per_side} battle did not end (seed {battles})");
                    return;
                }
            }
            battles += 1;
        }
        let elapsed = start.elapsed().as_secs_f64();
        let combatant_rounds = rounds as f64 * (2 * per_side) as f64;
        println!(
            "{:>8} {:>10} {:>14.1} {:>12.3} {:>11.2} {:>22.2}",
            format!("{per_side}v{per_side}"),
            battles,
            battles as f64 / elapsed,
            elapsed * 1000.0 / battles as f64,
            rounds as f64 / battles as f64,
            elapsed * 1e6 / combatant_rounds
        );
    }
    println!();
    every_ruleset(seconds);
}

/// Every bundled scenario through the battery, on one core and on all of them.
fn every_ruleset(seconds: f64) {
    let all = cores();
    println!("Every bundled scenario, AI on every side: battles per second ({seconds} s per measure)");
    println!(
        "{:<14} {:<28} {:>10} {:>14} {:>9}",
        "ruleset",
        "scenario",
        "1 core",
        format!("{all} cores"),
        "speed-up"
    );
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(root.join("assets/scenarios"))
        .map(|dir| dir.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.push(root.join("plugins/toy_duel/scenarios/duel.ron"));
    files.sort();
    for path in files.iter().filter(|p| p.extension().is_some_and(|e| e == "ron")) {
        let scenario = match fray::rulesets::load(path) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("{}: {e}", path.display());
                continue;
            }
        };
        // One battery of `battles` on `threads`: its battles per second.
        let rate = |battles: u32, threads: usize| -> Option<f64> {
            let limit = scenario.default_limit();
            let battery =
                Battery { scenario: &scenario, base: 1, battles, limit, threads, levels: Levels::AsScenario };
            let start = Instant::now();
            if let Err(e) = battery.run(Keep::default(), &AtomicBool::new(false), |_| {}) {
                eprintln!("{}: {e}", path.display());
                return None;
            }
            Some(f64::from(battles) / start.elapsed().as_secs_f64())
        };
        // Calibrated on one core to last about `seconds` there; the same battles on all.
        let Some(first) = rate(16, 1) else { continue };
        let battles = ((first * seconds) as u32).clamp(16, 1_000_000);
        let (Some(one), Some(many)) = (rate(battles, 1), rate(battles, all)) else { continue };
        let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        println!(
            "{:<14} {:<28} {:>10.1} {:>14.1} {:>8.2}x",
            scenario.ruleset().id(),
            name,
            one,
            many,
            many / one
        );
    }
}
