//! The Balance panel (B, or the top bar's button): the balance lab (`crate::lab`) on the open
//! scenario. Its battles run on background threads, each on a table of its own, so the
//! fight on the board is never touched and no frame waits on them; the panel shows their
//! progress, then the win rates with their intervals and the length histogram. The results
//! stay until another scenario is opened.

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

use bevy::prelude::*;
use bevy_egui::egui::{self, Color32, RichText};
use egui_plot::{Bar, BarChart, Line, Plot};
use fray_core::fight::Session;

use super::options::PlayOptions;
use crate::lab::battery::{Keep, Levels, cores};
use crate::lab::report::percent;
use crate::lab::{Battery, Report};

/// The panel's state.
#[derive(Resource)]
pub(super) struct Balance {
    /// The panel is shown.
    pub open: bool,
    /// Battles per run.
    pub battles: u32,
    run: Option<Run>,
    /// Frames drawn while the last run was under way (the check that none waits on it).
    frames: u32,
    /// The last run's report (or why it failed), and the scenario text it is of.
    result: Option<(Arc<str>, Result<Report, String>)>,
}

impl Default for Balance {
    fn default() -> Self {
        Self { open: false, battles: 1000, run: None, frames: 0, result: None }
    }
}

/// A run under way.
struct Run {
    progress: Arc<Progress>,
    total: u32,
    of: Arc<str>,
}

/// What the background run and the panel share.
#[derive(Default)]
struct Progress {
    done: AtomicU32,
    stop: AtomicBool,
    report: Mutex<Option<Result<Report, String>>>,
}

/// What the person asked of the panel.
pub(super) enum BalanceAsk {
    Toggle,
    Battles(u32),
    Run,
    Stop,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Balance>()
        .add_systems(Update, (start_from_options, collect).chain().in_set(super::order::Step::Balance));
}

/// `--balance N`: the panel opens and runs N battles once the scenario is open.
fn start_from_options(world: &mut World, mut started: Local<bool>) {
    let Some(n) = world.resource::<PlayOptions>().balance else { return };
    if *started || !world.contains_resource::<Session>() {
        return;
    }
    *started = true;
    let mut balance = world.resource_mut::<Balance>();
    balance.open = true;
    balance.battles = n;
    apply(world, BalanceAsk::Run);
}

/// Takes a finished run's report; drops results of a scenario no longer open.
fn collect(mut balance: ResMut<Balance>, session: Option<Res<Session>>) {
    let text = session.map(|s| s.scenario.text.clone());
    let same = |of: &Arc<str>| text.as_ref().is_some_and(|t| Arc::ptr_eq(t, of) || **t == **of);
    if balance.run.as_ref().is_some_and(|r| !same(&r.of))
        && let Some(run) = balance.run.take()
    {
        run.progress.stop.store(true, Ordering::Relaxed);
    }
    if balance.result.as_ref().is_some_and(|(of, _)| !same(of)) {
        balance.result = None;
    }
    if balance.run.is_some() {
        balance.frames += 1;
    }
    let finished = balance.run.as_ref().and_then(|r| r.progress.report.try_lock().ok()?.take());
    if let Some(report) = finished
        && let Some(run) = balance.run.take()
    {
        balance.result = Some((run.of, report));
    }
}

/// Applies what the person asked.
pub(super) fn apply(world: &mut World, ask: BalanceAsk) {
    match ask {
        BalanceAsk::Toggle => {
            let mut balance = world.resource_mut::<Balance>();
            balance.open = !balance.open;
        }
        BalanceAsk::Battles(n) => world.resource_mut::<Balance>().battles = n.clamp(1, 1_000_000),
        BalanceAsk::Stop => {
            if let Some(run) = &world.resource::<Balance>().run {
                run.progress.stop.store(true, Ordering::Relaxed);
            }
        }
        BalanceAsk::Run => {
            let Some(session) = world.get_resource::<Session>() else { return };
            let (scenario, seed, limit) = (session.scenario.clone(), session.seed, session.limit);
            let total = world.resource::<Balance>().battles;
            let progress = Arc::new(Progress::default());
            let shared = progress.clone();
            let of = scenario.text.clone();
            let spawned = std::thread::Builder::new().name("balance".into()).spawn(move || {
                // One core is left to the window.
                let battery = Battery {
                    scenario: &scenario,
                    base: seed,
                    battles: total,
                    limit,
                    threads: (cores() - 1).max(1),
                    levels: Levels::AsScenario,
                };
                let mut records = Vec::new();
                let ran = battery.run(Keep::default(), &shared.stop, |f| {
                    shared.done.fetch_add(1, Ordering::Relaxed);
                    records.push(f.record);
                });
                let report = ran.map(|roster| Report::new(battery.setup(), &roster, &records));
                if let Ok(mut slot) = shared.report.lock() {
                    *slot = Some(report);
                }
            });
            let mut balance = world.resource_mut::<Balance>();
            match spawned {
                Ok(_) => {
                    balance.run = Some(Run { progress, total, of });
                    balance.frames = 0;
                }
                Err(e) => balance.result = Some((of, Err(format!("cannot start the battles: {e}")))),
            }
        }
    }
}

/// The panel, when open, in the board's `room` (the order strip and panels stay in view).
pub(super) fn window(ctx: &egui::Context, world: &World, room: egui::Rect, asks: &mut Vec<BalanceAsk>) {
    let balance = world.resource::<Balance>();
    if !balance.open {
        return;
    }
    let mut open = true;
    egui::Window::new("Balance")
        .open(&mut open)
        // Shown at once: a picture taken as it opens shows it whole.
        .fade_in(false)
        .fade_out(false)
        .default_pos(room.left_top() + egui::vec2(20.0, 10.0))
        .constrain_to(room)
        .default_width(460.0)
        .default_height(660.0)
        .resizable(true)
        // Taller than the screen once "Each combatant" is open: the panel scrolls.
        .vscroll(true)
        .show(ctx, |ui| {
            ui.label("The AI plays every side of this scenario, many times, on tables of its own: the fight on the board is untouched.");
            ui.horizontal(|ui| {
                let mut n = balance.battles;
                ui.label("Battles:");
                let running = balance.run.is_some();
                if ui.add_enabled(!running, egui::DragValue::new(&mut n).range(1..=1_000_000).speed(10)).changed() {
                    asks.push(BalanceAsk::Battles(n));
                }
                if running {
                    if ui.button("Stop").clicked() {
                        asks.push(BalanceAsk::Stop);
                    }
                } else if ui.button("Run").clicked() {
                    asks.push(BalanceAsk::Run);
                }
            });
            if let Some(run) = &balance.run {
                let done = run.progress.done.load(Ordering::Relaxed);
                let bar = egui::ProgressBar::new(done as f32 / run.total.max(1) as f32)
                    .text(format!("{done} of {} battles", run.total));
                ui.add(bar);
                ui.ctx().request_repaint();
            }
            match balance.result.as_ref().map(|(_, r)| r) {
                Some(Ok(report)) => results(ui, report),
                Some(Err(why)) => {
                    ui.label(RichText::new(why).color(Color32::LIGHT_RED));
                }
                None if balance.run.is_none() => {
                    ui.label("Run to see who wins, how often, and how long the fight lasts.");
                }
                None => {}
            }
        });
    if !open {
        asks.push(BalanceAsk::Toggle);
    }
}

/// Each side's colour in the charts: the board's, in scenario order (then again).
const COLOURS: [Color32; 4] = [colour(0), colour(1), colour(2), colour(3)];

/// The lengths of the battles: no side's colour.
const LENGTHS: Color32 = Color32::from_gray(170);

const fn colour(i: usize) -> Color32 {
    let [r, g, b] = super::theme::SIDE_COLOURS[i];
    Color32::from_rgb((r * 255.0) as u8, (g * 255.0) as u8, (b * 255.0) as u8)
}

fn results(ui: &mut egui::Ui, report: &Report) {
    ui.separator();
    let stopped = if report.finished < report.setup.battles { " (stopped)" } else { "" };
    ui.label(RichText::new(format!("{} battles{stopped}", report.finished)).strong());
    egui::Grid::new("balance_sides").striped(true).show(ui, |ui| {
        for heading in ["side", "wins", "95% interval", "wiped out"] {
            ui.label(RichText::new(heading).strong());
        }
        ui.end_row();
        for (i, side) in report.sides.iter().enumerate() {
            ui.label(RichText::new(&side.name).color(COLOURS[i % COLOURS.len()]));
            ui.label(percent(side.win_rate));
            ui.label(format!("{} to {}", percent(side.interval[0]), percent(side.interval[1])));
            ui.label(percent(side.wipe_rate));
            ui.end_row();
        }
        ui.label("no winner");
        ui.label(format!("{}", report.no_winner));
        ui.label(format!("{} at the limit", report.hit_limit));
        ui.end_row();
    });
    wins_chart(ui, report);
    length_chart(ui, report);
    egui::CollapsingHeader::new("Each combatant").id_salt("balance_each").show(ui, |ui| {
        egui::Grid::new("balance_combatants").striped(true).show(ui, |ui| {
            for heading in ["combatant", "survives", "dealt", "taken", "falls first"] {
                ui.label(RichText::new(heading).strong());
            }
            ui.end_row();
            let sides: Vec<&str> = report.sides.iter().map(|x| x.id.as_str()).collect();
            for c in &report.combatants {
                let i = sides.iter().position(|x| *x == c.side).unwrap_or(0);
                ui.label(RichText::new(&c.name).color(COLOURS[i % COLOURS.len()]));
                ui.label(percent(c.survival_rate));
                ui.label(format!("{:.1}", c.damage_dealt));
                ui.label(format!("{:.1}", c.damage_taken));
                ui.label(percent(c.fell_first_rate));
                ui.end_row();
            }
        });
        ui.label("Damage in the ruleset's own units, mean per battle.");
    });
}

/// Each side's wins, with its 95% interval.
fn wins_chart(ui: &mut egui::Ui, report: &Report) {
    Plot::new("balance_wins")
        .height(150.0)
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .include_y(0.0)
        .include_y(1.0)
        .show_x(false)
        .show_grid([false, true])
        .y_axis_formatter(|mark, _| format!("{:.0}%", mark.value * 100.0))
        .x_axis_formatter(|_, _| String::new())
        .show(ui, |plot| {
            for (i, side) in report.sides.iter().enumerate() {
                let x = i as f64;
                let colour = COLOURS[i % COLOURS.len()];
                let bar = Bar::new(x, side.win_rate).width(0.6).fill(colour).name(&side.name);
                plot.bar_chart(BarChart::new(side.name.clone(), vec![bar]).color(colour));
                let [lo, hi] = side.interval;
                plot.line(
                    Line::new(format!("{} interval", side.name), vec![[x, lo], [x, hi]])
                        .color(Color32::WHITE)
                        .width(3.0),
                );
            }
        });
}

/// How long the battles were.
fn length_chart(ui: &mut egui::Ui, report: &Report) {
    let l = &report.length;
    ui.label(format!(
        "Length in {}: min {}, 10% {}, median {}, 90% {}, max {}",
        report.setup.clock, l.min, l.p10, l.median, l.p90, l.max
    ));
    Plot::new("balance_length")
        .height(150.0)
        .x_axis_label(report.setup.clock.clone())
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .include_y(0.0)
        .show(ui, |plot| {
            let bars = l
                .histogram
                .iter()
                .map(|h| Bar::new(f64::from(h[0]), f64::from(h[1])).width(0.9).fill(LENGTHS))
                .collect();
            plot.bar_chart(BarChart::new(report.setup.clock.clone(), bars).color(Color32::from_gray(170)));
        });
}

/// The panel's state for `--status-out`.
pub(super) fn status(world: &World) -> serde_json::Value {
    let balance = world.resource::<Balance>();
    let run = balance.run.as_ref();
    serde_json::json!({
        "open": balance.open,
        "running": run.is_some(),
        "done": run.map(|r| r.progress.done.load(Ordering::Relaxed)),
        "total": run.map(|r| r.total),
        "frames_during_run": balance.frames,
        "finished": balance.result.as_ref().and_then(|(_, r)| r.as_ref().ok()).map(|r| r.finished),
    })
}
