//! Plays one battle of any ruleset headless and prints its log, one readable line per event.
//!
//! `cargo run --example headless_battle -- [SCENARIO] [SEED]`
//! (default: assets/scenarios/swamp.ron with the scenario's seed).

use std::io::Write;
use std::process::ExitCode;

use fray::battle::{log, play_to_end};
use fray::rulesets;
use fray_core::log::LogEvent;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let path = args.next().unwrap_or_else(|| fray::assets::default_scenario().display().to_string());
    let scenario = match rulesets::load(path.as_ref()) {
        Ok(s) => s,
        Err(e) => {
            for line in e.report(&path) {
                eprintln!("{line}");
            }
            return ExitCode::from(2);
        }
    };
    let seed = match args.next().map(|s| s.parse::<u64>()) {
        Some(Ok(seed)) => seed,
        Some(Err(e)) => {
            eprintln!("the seed must be a whole number: {e}");
            return ExitCode::from(2);
        }
        None => scenario.seed(),
    };
    let mut app = scenario.table_app(seed, scenario.default_limit(), true);
    let rules = scenario.ruleset().clone();
    let Some(summary) = play_to_end(&mut app, 10) else {
        eprintln!("the battle did not end");
        return ExitCode::FAILURE;
    };
    let mut out = std::io::stdout().lock();
    for entry in log(&app).entries() {
        let who = entry.actor.as_ref().map_or("", |a| a.as_str());
        let what = describe(&entry.event);
        if writeln!(out, "{:<16} {:<16} {:<14} {what}", rules.clock_title(entry.clock), entry.phase, who)
            .is_err()
        {
            return ExitCode::SUCCESS;
        }
    }
    let _ = writeln!(
        out,
        "\n{} after {} {} ({}); survivors: {}",
        summary.winner.map_or_else(|| "no winner".to_owned(), |w| format!("{w} wins")),
        summary.clock,
        rules.clock().units,
        summary.reason,
        summary.survivors.join(", ")
    );
    ExitCode::SUCCESS
}

fn describe(event: &LogEvent) -> String {
    match event {
        LogEvent::Roll(r) => format!("rolls {}", r.describe()),
        LogEvent::Damage { damage, amount, reduced, taken, source } => {
            format!("takes {taken} {damage} ({amount} - {reduced} reduction) from {}", source.name)
        }
        LogEvent::IntentAccepted { intent, .. } => format!("does {}", intent.to_json()),
        LogEvent::IntentRejected { intent, reason } => format!("may not {}: {reason}", intent.to_json()),
        other => serde_json::to_string(other).unwrap_or_default(),
    }
}
