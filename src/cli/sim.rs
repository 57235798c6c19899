//! `fray sim`: the AI plays every side of a scenario to the end, many times on every core,
//! and the balance lab sums it up (`crate::lab`).

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

use clap::Args;
use fray_core::fight::LoadedScenario;
use indicatif::{ProgressBar, ProgressStyle};

use fray_core::ai::AiLevel;

use crate::lab::battery::{Finished, Keep, Levels, cores};
use crate::lab::{Battery, BattleRecord, Report, Sweep, SweepPoint, Vary, html};
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
    /// Threads to play on (default: every core). The results do not depend on it.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
    /// Prints one line per battle (the default for a single battle).
    #[arg(long)]
    pub each: bool,
    /// Writes the report as JSON here (schema: docs/balance.md).
    #[arg(long, value_name = "OUT")]
    pub json: Option<PathBuf>,
    /// Writes the report as one self-contained HTML page with charts here.
    #[arg(long, value_name = "OUT.html")]
    pub report: Option<PathBuf>,
    /// Reruns the battles for each value of a sheet's number:
    /// COMBATANT.FIELD=FROM..TO[:STEP], e.g. ogre.attributes.power=2..6.
    #[arg(long, value_name = "SPEC")]
    pub vary: Option<String>,
    /// Writes the JSON Lines log of every battle here.
    #[arg(long)]
    pub log: Option<PathBuf>,
    /// Writes the save file of the battle played (the last one of several) here, for
    /// `fray replay`.
    #[arg(long)]
    pub save: Option<PathBuf>,
    /// The AI level a side plays at: SIDE=simple or SIDE=tactical (repeatable; the other
    /// sides play as the scenario says, tactical unless it says otherwise).
    #[arg(long, value_name = "SIDE=LEVEL", conflicts_with = "versus")]
    pub ai: Vec<String>,
    /// One AI level against the other, e.g. tactical,simple: the scenario's first side plays
    /// the first and every other side the second in the first half of the battles, swapped
    /// in the second half; the report gives each level's wins.
    #[arg(long, value_name = "A,B")]
    pub versus: Option<String>,
}

/// The levels `--ai` and `--versus` ask for, checked against the scenario's sides.
fn levels(args: &SimArgs, scenario: &LoadedScenario) -> Result<Levels, String> {
    if let Some(pair) = &args.versus {
        let named: Vec<&str> = pair.split(',').map(str::trim).collect();
        let [a, b] = named[..] else {
            return Err(format!("--versus {pair}: name two levels, e.g. tactical,simple"));
        };
        let (a, b) = (a.parse::<AiLevel>(), b.parse::<AiLevel>());
        return Ok(Levels::Versus(
            a.map_err(|e| format!("--versus: {e}"))?,
            b.map_err(|e| format!("--versus: {e}"))?,
        ));
    }
    if args.ai.is_empty() {
        return Ok(Levels::AsScenario);
    }
    let sides: Vec<String> = scenario.side_ids().iter().map(ToString::to_string).collect();
    let mut map = BTreeMap::new();
    for spec in &args.ai {
        let (side, level) = spec
            .split_once('=')
            .ok_or_else(|| format!("--ai {spec}: write SIDE=LEVEL, e.g. bandits=simple"))?;
        if !sides.iter().any(|s| s == side) {
            return Err(format!(
                "--ai {spec}: the scenario has no side '{side}' (its sides: {})",
                sides.join(", ")
            ));
        }
        map.insert(side.to_owned(), level.parse::<AiLevel>().map_err(|e| format!("--ai {spec}: {e}"))?);
    }
    Ok(Levels::Sides(map))
}

/// Set by Ctrl+C: no new battle starts, and the report of those finished is printed.
static STOP: AtomicBool = AtomicBool::new(false);

/// Plays the battles and prints the report.
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
    // An output that cannot be written is found before the battles are played.
    for path in [&args.json, &args.report, &args.log, &args.save].into_iter().flatten() {
        if let Err(why) = writable(path) {
            eprintln!("{why}");
            return ExitCode::from(2);
        }
    }
    let levels = match levels(args, &scenario) {
        Ok(levels) => levels,
        Err(why) => {
            eprintln!("{why}");
            return ExitCode::from(2);
        }
    };
    // Without a handler (one is set already), Ctrl+C ends the process as usual.
    let _ = ctrlc::set_handler(|| STOP.store(true, Ordering::Relaxed));
    let outcome = match &args.vary {
        Some(spec) => sweep(args, &scenario, spec, &levels),
        None => battery(args, &scenario, levels),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Input(why)) => {
            eprintln!("{why}");
            ExitCode::from(2)
        }
        Err(Failure::Run(why)) => {
            eprintln!("{why}");
            ExitCode::FAILURE
        }
    }
}

/// Why `fray sim` stopped: bad input (exit 2) or a failure on the way (exit 1).
enum Failure {
    Input(String),
    Run(String),
}

fn plan<'a>(args: &SimArgs, scenario: &'a LoadedScenario, levels: Levels) -> Battery<'a> {
    Battery {
        scenario,
        base: args.seed.unwrap_or_else(|| scenario.seed()),
        battles: args.battles,
        limit: args.max_rounds.unwrap_or_else(|| scenario.default_limit()),
        threads: args.threads.map_or_else(cores, |t| t as usize),
        levels,
    }
}

/// A progress bar on stderr when it is a terminal, for runs longer than a glance.
fn progress(total: u64) -> ProgressBar {
    if !std::io::stderr().is_terminal() || total < 50 {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(total);
    if let Ok(style) =
        ProgressStyle::with_template("{bar:40} {pos}/{len} battles, {elapsed} (about {eta} left)")
    {
        bar.set_style(style);
    }
    bar
}

/// One battery: the report on stdout, and the files asked for.
fn battery(args: &SimArgs, scenario: &LoadedScenario, levels: Levels) -> Result<(), Failure> {
    let battery = plan(args, scenario, levels);
    let clock = scenario.ruleset().clock().units;
    let mut log = match &args.log {
        Some(path) => Some(BufWriter::new(
            File::create(path)
                .map_err(|e| Failure::Input(format!("{}: cannot write the log: {e}", path.display())))?,
        )),
        None => None,
    };
    let coverage = args.json.is_some() || args.report.is_some();
    let keep = Keep { logs: log.is_some(), last_save: args.save.is_some(), coverage };
    let each = args.each || args.battles == 1;
    let bar = progress(u64::from(args.battles));
    let mut stdout = std::io::stdout().lock();
    // Battles end in any order; lines and logs go out in battle order.
    let mut waiting: BTreeMap<u32, Finished> = BTreeMap::new();
    let mut next = 0u32;
    let mut records: Vec<BattleRecord> = Vec::new();
    let mut save: Option<String> = None;
    let mut failure: Option<Failure> = None;
    let ran = battery.run(keep, &STOP, |finished| {
        bar.inc(1);
        waiting.insert(finished.record.index, finished);
        while let Some(f) = waiting.remove(&next) {
            next += 1;
            if failure.is_some() {
                continue;
            }
            // A closed pipe (`fray sim ... | head`) ends the output quietly.
            if each && writeln!(stdout, "{}", line(&f.record, clock)).is_err() {
                STOP.store(true, Ordering::Relaxed);
            }
            if let (Some(out), Some(text)) = (log.as_mut(), &f.log)
                && let Err(e) = out.write_all(text.as_bytes())
            {
                failure = Some(Failure::Run(format!("cannot write the log: {e}")));
                STOP.store(true, Ordering::Relaxed);
            }
            save = f.save.or(save.take());
            records.push(f.record);
        }
    });
    bar.finish_and_clear();
    let roster = ran.map_err(Failure::Run)?;
    if let Some(failure) = failure {
        return Err(failure);
    }
    let report = Report::new(battery.setup(), &roster, &records);
    if args.battles > 1 {
        let gap = if each { "\n" } else { "" };
        let _ = write!(stdout, "{gap}{}", report.text());
    }
    if let Some(out) = log.as_mut() {
        out.flush().map_err(|e| Failure::Run(format!("cannot write the log: {e}")))?;
    }
    if let (Some(path), Some(text)) = (&args.save, save) {
        write(path, &text, "the save")?;
    }
    if let Some(path) = &args.json {
        let json = serde_json::to_string_pretty(&report).map_err(|e| Failure::Run(e.to_string()))?;
        write(path, &(json + "\n"), "the JSON report")?;
    }
    if let Some(path) = &args.report {
        write(path, &html::page(&report).map_err(Failure::Run)?, "the HTML report")?;
    }
    Ok(())
}

/// A sweep: one battery per value of the varied field.
fn sweep(args: &SimArgs, scenario: &LoadedScenario, spec: &str, levels: &Levels) -> Result<(), Failure> {
    if args.log.is_some() || args.save.is_some() || args.each {
        return Err(Failure::Input(
            "--vary reports each value's battles; --log, --save and --each are for one battery".to_owned(),
        ));
    }
    let vary = Vary::parse(spec).map_err(Failure::Input)?;
    vary.check(&scenario.text).map_err(Failure::Input)?;
    let bar = progress(u64::from(args.battles) * vary.values.len() as u64);
    let mut points = Vec::new();
    for &value in &vary.values {
        if STOP.load(Ordering::Relaxed) {
            break;
        }
        let text = vary.apply(&scenario.text, value).map_err(Failure::Input)?;
        let varied = rulesets::parse(&text).map_err(|e| {
            let lines = e.report(&format!("{} with {}={value}", args.scenario.display(), vary.name()));
            Failure::Input(lines.join("\n"))
        })?;
        let battery = plan(args, &varied, levels.clone());
        let mut records = Vec::new();
        let roster = battery
            .run(Keep::default(), &STOP, |f| {
                bar.inc(1);
                records.push(f.record);
            })
            .map_err(Failure::Run)?;
        points.push(SweepPoint { value, report: Report::new(battery.setup(), &roster, &records) });
    }
    bar.finish_and_clear();
    let sweep = Sweep { schema: crate::lab::report::SCHEMA, vary: vary.name(), points };
    let _ = write!(std::io::stdout().lock(), "{}", sweep.text());
    if let Some(path) = &args.json {
        let json = serde_json::to_string_pretty(&sweep).map_err(|e| Failure::Run(e.to_string()))?;
        write(path, &(json + "\n"), "the JSON report")?;
    }
    if let Some(path) = &args.report {
        write(path, &html::sweep_page(&sweep).map_err(Failure::Run)?, "the HTML report")?;
    }
    Ok(())
}

/// One battle's line.
fn line(r: &BattleRecord, clock: &str) -> String {
    let s = &r.summary;
    format!(
        "battle {}: seed {}: winner {} after {} {clock} ({}); survivors: {}",
        r.index + 1,
        r.seed,
        s.winner.as_deref().unwrap_or("none"),
        s.clock,
        s.reason,
        if s.survivors.is_empty() { "none".to_owned() } else { s.survivors.join(", ") }
    )
}

/// Whether a file can be written at `path`: a named pipe or a device (`/dev/stdout`) is
/// written to as it is; else the folder of the file (through a symbolic link, its target's)
/// exists and takes a new file (tried with a temporary one, removed at once), and it is not a
/// folder itself.
fn writable(path: &Path) -> Result<(), String> {
    let shown = path.display();
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_dir() => return Err(format!("{shown}: is a folder; name a file to write")),
        Ok(meta) if !meta.is_file() => return Ok(()),
        _ => {}
    }
    let target = crate::session::link_target(path).map_err(|e| format!("{shown}: cannot be written: {e}"))?;
    let dir = target.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if !dir.is_dir() {
        return Err(format!("{shown}: cannot be written: no folder {}", dir.display()));
    }
    let probe = dir.join(format!(".fray-sim-probe.{}", std::process::id()));
    match File::create(&probe) {
        Ok(_) => {
            let _ = std::fs::remove_file(&probe);
            Ok(())
        }
        Err(e) => Err(format!("{shown}: cannot be written: {e}")),
    }
}

fn write(path: &Path, text: &str, what: &str) -> Result<(), Failure> {
    crate::session::write_atomically(path, text.as_bytes())
        .map_err(|e| Failure::Run(format!("{}: cannot write {what}: {e}", path.display())))
}
