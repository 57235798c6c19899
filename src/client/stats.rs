//! `--stats FRAMES`: the board's frame-time benchmark. Once the board has settled, times the
//! main world's update (every schedule from `First` to `Last`: rules, AI, board, picking,
//! egui panels; not the render world, which runs beside it) over that many frames, then
//! prints those times, the start-up time and the resident memory, and exits. It also gives
//! the frame interval (what the screen gets, rendering included) and the whole process's CPU
//! time per frame (every thread: the render world and, without a GPU, Mesa's rasterizer).

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use bevy::prelude::*;
use fray_core::location::Location;
use fray_core::prelude::{Combatant, CounterToken};

use super::board::pieces::Chip;
use super::options::PlayOptions;

/// When the client began building its app.
static STARTED: OnceLock<Instant> = OnceLock::new();

/// Frames the board gets to settle before timing starts.
const SETTLE: u32 = 60;

#[derive(Resource, Default)]
struct Stats {
    frames: u32,
    began: Option<Instant>,
    first_update: Option<Duration>,
    samples: Vec<Duration>,
    /// When timing began, and the process's CPU time then.
    timing_from: Option<(Instant, Duration)>,
}

/// Marks the start of the client, for the start-up time.
pub(super) fn mark_start() {
    STARTED.get_or_init(Instant::now);
}

pub(super) fn plugin(app: &mut App) {
    if app.world().resource::<PlayOptions>().stats.is_none() {
        return;
    }
    app.init_resource::<Stats>().add_systems(First, begin).add_systems(Last, end);
}

fn begin(mut stats: ResMut<Stats>) {
    stats.began = Some(Instant::now());
}

fn end(
    mut stats: ResMut<Stats>,
    options: Res<PlayOptions>,
    combatants: Query<(), With<Combatant>>,
    locations: Query<(), With<Location>>,
    counters: Query<(), With<CounterToken>>,
    chips: Query<(), With<Chip>>,
    mut exit: MessageWriter<AppExit>,
) {
    let Some(began) = stats.began else { return };
    let took = began.elapsed();
    stats.frames += 1;
    if stats.first_update.is_none() {
        stats.first_update = STARTED.get().map(|s| s.elapsed());
    }
    let wanted = options.stats.unwrap_or(0);
    if stats.frames <= SETTLE {
        return;
    }
    if stats.timing_from.is_none() {
        stats.timing_from = Some((Instant::now(), process_cpu().unwrap_or_default()));
        return;
    }
    stats.samples.push(took);
    if stats.samples.len() < wanted as usize {
        return;
    }
    let mut ms: Vec<f64> = stats.samples.iter().map(|d| d.as_secs_f64() * 1000.0).collect();
    let blocks = block_means(&ms);
    ms.sort_by(f64::total_cmp);
    let at = |q: f64| ms[((ms.len() - 1) as f64 * q).round() as usize];
    let mean = ms.iter().sum::<f64>() / ms.len() as f64;
    println!(
        "board: {} combatants, {} locations (with the open field), {} counter tokens, {} chips drawn",
        combatants.iter().count(),
        locations.iter().count(),
        counters.iter().count(),
        chips.iter().count()
    );
    println!(
        "main-world update per frame over {} frames (after {SETTLE} settling): mean {mean:.3} ms, median {:.3} ms, p95 {:.3} ms, max {:.3} ms",
        ms.len(),
        at(0.5),
        at(0.95),
        at(1.0)
    );
    println!("mean by block of {BLOCK} frames, in order: {blocks}");
    if let Some(first) = stats.first_update {
        println!(
            "start-up: first update finished {:.0} ms after the app began building",
            first.as_secs_f64() * 1000.0
        );
    }
    if let Some((from, cpu_from)) = stats.timing_from {
        let frames = ms.len() as f64;
        let interval = from.elapsed().as_secs_f64() * 1000.0 / frames;
        let cpu = process_cpu().map(|c| format!("{:.2} ms", (c - cpu_from).as_secs_f64() * 1000.0 / frames));
        println!(
            "frame interval (rendering included): mean {interval:.2} ms ({:.0} frames/s); process CPU time per frame, all threads: {}",
            1000.0 / interval,
            cpu.unwrap_or_else(|| "unknown (no /proc)".into())
        );
    }
    println!("resident memory: {}", resident_memory().unwrap_or_else(|| "unknown (no /proc)".into()));
    exit.write(AppExit::Success);
}

/// Frames in one block of the run's breakdown.
const BLOCK: usize = 100;

/// The mean of each block of `BLOCK` frames, in the order they ran ("2.31 2.20 1.42 ms"):
/// a run whose first frames cost more than its last shows it.
fn block_means(ms: &[f64]) -> String {
    let means: Vec<String> =
        ms.chunks(BLOCK).map(|c| format!("{:.2}", c.iter().sum::<f64>() / c.len() as f64)).collect();
    format!("{} ms", means.join(" "))
}

/// The process's user and system CPU time so far, from /proc (Linux; 10 ms steps).
fn process_cpu() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which may hold spaces) start at its closing ')'.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

/// VmRSS from /proc (Linux).
fn resident_memory() -> Option<String> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(format!("{:.1} MiB", kib / 1024.0))
}
