//! Times the views of 8 seats (the GM, the table and six players, who take over every
//! combatant) computed together, on a Fiend Wake fight at two moments: the first Round Prep
//! (every combatant asked to pay for its armour), and a turn once the log is `LOG` lines long (the
//! rules wait on one combatant, whose seat gets its whole list of choices), reached by
//! decisions taken in turn among those the rules accept. Here, beside
//! the rules it plays, so that a release build takes minutes (no renderer).
//!
//! `cargo run --release --example big_board > /tmp/big.ron`, then
//! `cargo run --release -p fiend_wake --example seat_views -- /tmp/big.ron` (any Fiend Wake
//! scenario; see `docs/benchmarks.md`). Target: under 1 ms for the 8 views on the big board.
//! It also times the views as the client's windows build them at each step
//! (`fray_core::seat::drawn_views`: no lists of choices).

use std::process::ExitCode;
use std::time::Instant;

use bevy_app::App;
use fiend_wake::FiendWake;
use fray_core::prelude::{Controller, Seats, TableIndex};
use fray_core::ruleset::{AnyRuleset, Ruleset};
use fray_core::seat::{Seat, drawn_views, seat_views};

/// How long the log grows before the first moment is timed.
const LOG: usize = 3000;
/// Timed runs at each moment: at most this many, for at most `BUDGET` seconds.
const RUNS: usize = 300;
/// Seconds each measurement may take.
const BUDGET: f64 = 3.0;

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!(
            "usage: seat_views SCENARIO (e.g. the big board: cargo run --example big_board > /tmp/big.ron)"
        );
        return ExitCode::from(2);
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::from(2);
        }
    };
    let mut app =
        match fray_core::ruleset::table_app::<FiendWake>(&text, 1, FiendWake::CLOCK.default_limit, false) {
            Ok(app) => app,
            Err(e) => {
                e.report(&path).iter().for_each(|line| eprintln!("{line}"));
                return ExitCode::from(2);
            }
        };
    app.update();
    let rules = fray_core::fight::ruleset(app.world()).expect("a fight is open");
    let logged = |app: &App| app.world().resource::<fray_core::log::GameLog>().entries().len();
    let seats = take_over(&mut app);
    time(&app, rules.as_ref(), &seats, &path);
    play_until(&mut app, rules.as_ref(), |app| logged(app) >= LOG);
    time(&app, rules.as_ref(), &seats, &path);
    ExitCode::SUCCESS
}

/// Takes decisions in turn among those the rules accept until `done` (or the rules wait on
/// nobody).
fn play_until(app: &mut App, rules: &dyn AnyRuleset, done: impl Fn(&App) -> bool) {
    for turn in 0.. {
        if done(app) {
            return;
        }
        let world = app.world();
        let Some(&e) = rules.awaiting(world).first() else { return };
        let accepted: Vec<_> = rules.choices(world, e).into_iter().filter(|c| c.verdict.is_ok()).collect();
        let Some(choice) = accepted.get(turn % accepted.len().max(1)) else { return };
        let (who, intent) = (fray_core::table::id(world, e), choice.intent.clone());
        rules.submit(app.world_mut(), who, &intent);
        app.update();
    }
}

/// Six players, each deciding for every sixth combatant; the seats to time.
fn take_over(app: &mut App) -> Vec<Seat> {
    let world = app.world_mut();
    let seats = (0..6).map(|i| (format!("p{i}").as_str().into(), format!("Player {i}"))).collect();
    world.insert_resource(Seats(seats));
    let order = world.resource::<TableIndex>().order.clone();
    for (i, e) in order.into_iter().enumerate() {
        world.entity_mut(e).insert(Controller::Player(format!("p{}", i % 6).as_str().into()));
    }
    app.update();
    let mut seats = vec![Seat::Gm, Seat::Table];
    seats.extend((0..6).map(|i| Seat::Player(format!("p{i}").as_str().into())));
    seats
}

fn time(app: &App, rules: &dyn AnyRuleset, seats: &[Seat], path: &str) {
    let world = app.world();
    let median = |mut times: Vec<f64>| {
        times.sort_by(f64::total_cmp);
        (times[times.len() / 2], times[times.len() * 95 / 100], times.len())
    };
    let times = timed(|| drop(seat_views(world, rules, seats)));
    let views = seat_views(world, rules, seats);
    let bytes: usize = views.iter().map(|v| serde_json::to_string(v).map_or(0, |s| s.len())).sum();
    // The rules' own lists of choices, for those they wait on, apart.
    let mut offered = 0;
    let own =
        timed(|| offered = rules.awaiting(world).into_iter().map(|e| rules.choices(world, e).len()).sum());
    let people = world.resource::<TableIndex>().order.len();
    let log = world.resource::<fray_core::log::GameLog>().entries().len();
    let (phase, waiting) = (rules.phase(world).title, rules.awaiting(world).len());
    println!("{path}: {people} combatants, {log} log lines; {phase}, the rules wait on {waiting}");
    let ((m, p95, runs), (own_m, _, _)) = (median(times), median(own));
    println!(
        "  {} seats' views together: median {m:.3} ms, p95 {p95:.3} ms ({runs} runs); {bytes} bytes as JSON",
        seats.len()
    );
    println!("  of which the rules' own choices ({offered} offered): median {own_m:.3} ms");
    // What a screen computes at each step: the same views, choices left to the one deciding.
    let (m, p95, runs) = median(timed(|| drop(drawn_views(world, rules, seats))));
    println!(
        "  the same views as screens draw them (no choices): median {m:.3} ms, p95 {p95:.3} ms ({runs} runs)"
    );
}

/// Milliseconds each run of `f` took: at most `RUNS` runs, for at most `BUDGET` seconds.
fn timed(mut f: impl FnMut()) -> Vec<f64> {
    let mut times = Vec::with_capacity(RUNS);
    while times.len() < RUNS && times.iter().sum::<f64>() < BUDGET * 1000.0 {
        let start = Instant::now();
        f();
        times.push(start.elapsed().as_secs_f64() * 1000.0);
    }
    times
}
