//! `fray sim`: the AI plays every side of a scenario to the end.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::battle::{log, play_to_end};
use crate::rulesets;

/// Arguments of `fray sim`.
#[derive(Args, Debug)]
pub struct SimArgs {
    /// The scenario file.
    #[arg(long)]
    pub scenario: PathBuf,
    /// RNG seed (default: the scenario's). Battle i (from 0) uses seed + i.
    #[arg(long)]
    pub seed: Option<u64>,
    /// How many battles to play.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub battles: u32,
    /// The limit of each battle in the ruleset's clock (rounds, ticks…); by default the
    /// ruleset's own (its RULES.md says which).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub max_rounds: Option<u32>,
    /// Writes the JSON Lines log of every battle here.
    #[arg(long)]
    pub log: Option<PathBuf>,
    /// Writes the save file of the battle played (the last one of several) here, for
    /// `fray replay`.
    #[arg(long)]
    pub save: Option<PathBuf>,
}

/// Plays the battles and prints the summaries.
pub fn run(args: &SimArgs) -> ExitCode {
    let shown = args.scenario.display().to_string();
    let scenario = match rulesets::load(&args.scenario) {
        Ok(s) => s,
        Err(e) => {
            for line in e.report(&shown) {
                eprintln!("{line}");
            }
            return ExitCode::from(2);
        }
    };
    let mut out = match &args.log {
        Some(path) => match File::create(path) {
            Ok(f) => Some(BufWriter::new(f)),
            Err(e) => {
                eprintln!("{}: cannot write the log: {e}", path.display());
                return ExitCode::from(2);
            }
        },
        None => None,
    };
    let base = args.seed.unwrap_or_else(|| scenario.seed());
    let limit = args.max_rounds.unwrap_or_else(|| scenario.default_limit());
    // A closed pipe (`fray sim ... | head`) ends the output quietly.
    let mut stdout = std::io::stdout().lock();
    let mut wins: BTreeMap<String, u32> = BTreeMap::new();
    let mut rounds = 0u64;
    let mut app = scenario.table_app(base, limit, true);
    let clock = scenario.ruleset().clock().units;
    for i in 0..args.battles {
        let seed = base.wrapping_add(u64::from(i));
        if i > 0 {
            scenario.start(app.world_mut(), seed, limit, true);
        }
        let Some(summary) = play_to_end(&mut app, 10) else {
            eprintln!("battle {}: did not end (seed {seed})", i + 1);
            return ExitCode::FAILURE;
        };
        let winner = summary.winner.clone().unwrap_or_else(|| "none".to_owned());
        let printed = writeln!(
            stdout,
            "battle {}: seed {seed}: winner {winner} after {} {} ({}); survivors: {}",
            i + 1,
            summary.clock,
            clock,
            summary.reason,
            if summary.survivors.is_empty() { "none".to_owned() } else { summary.survivors.join(", ") }
        );
        if printed.is_err() {
            return ExitCode::SUCCESS;
        }
        *wins.entry(winner).or_default() += 1;
        rounds += u64::from(summary.clock);
        if let Some(out) = out.as_mut() {
            let battle = (args.battles > 1).then_some(i + 1);
            if let Err(e) = log(&app).write_jsonl(out, battle) {
                eprintln!("cannot write the log: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    if args.battles > 1 {
        let tally: Vec<String> = wins.iter().map(|(side, n)| format!("{side} {n}")).collect();
        let _ = writeln!(
            stdout,
            "{} battles: wins: {}; mean {clock} {:.2}",
            args.battles,
            tally.join(", "),
            rounds as f64 / f64::from(args.battles)
        );
    }
    if let Some(path) = &args.save
        && let Err(e) = crate::session::save(app.world(), path)
    {
        eprintln!("{e}");
        return ExitCode::FAILURE;
    }
    if let Some(mut out) = out
        && let Err(e) = out.flush()
    {
        eprintln!("cannot write the log: {e}");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
