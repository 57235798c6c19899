//! The host's figures (`--serve`, #47), printed:
//! - a page's decision to every seat's updated view, on loopback, with 8 seats' pages
//!   connected (the swamp, its 11 combatants shared among them): median and 95th percentile;
//! - the main world's update on the big board, the AI deciding once a frame and the frames
//!   paced as a window's (60 a second), with the host and 8 seats' pages connected against
//!   no host: median, mean and 99th percentile of 300 frames, three runs of each, alternated.
//!
//! `cargo run --release --example big_board > /tmp/big.ron`, then
//! `cargo run --release --example host_bench -- /tmp/big.ron`. See `docs/benchmarks.md`.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use bevy::prelude::*;
use fray::host::{Host, HostPlugin};
use fray_core::session::AiPacing;
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

/// Seats in both figures.
const SEATS: usize = 8;
/// Decisions timed from a page.
const DECISIONS: usize = 100;
/// Frames timed per run on the big board.
const FRAMES: usize = 300;
/// A window's frame: the frames are started this far apart (the wait is not timed).
const FRAME: Duration = Duration::from_micros(16_667);

fn main() {
    let big = std::env::args().nth(1).unwrap_or_else(|| "/tmp/big.ron".to_owned());
    let swamp = std::fs::read_to_string("assets/scenarios/swamp.ron").expect("the swamp");
    round_trips(&swamp);
    let big = std::fs::read_to_string(&big)
        .unwrap_or_else(|e| panic!("{big}: {e} (make it with the big_board example)"));
    frame_times(&big);
}

/// `text` with its seats replaced by one seat for each list of combatants in `per_seat`.
fn with_seats(text: &str, per_seat: &[Vec<String>]) -> String {
    let seats: Vec<String> = per_seat
        .iter()
        .enumerate()
        .map(|(i, ids)| {
            let ids: Vec<String> = ids.iter().map(|id| format!("\"{id}\"")).collect();
            format!("(id: \"p{i}\", name: \"Player {i}\", combatants: [{}])", ids.join(", "))
        })
        .collect();
    let body = match text.find("seats: [") {
        Some(at) => text[..at].to_owned(),
        None => format!("{},\n", text.trim_end().trim_end_matches(')')),
    };
    format!("{body}seats: [{}],\n)\n", seats.join(", "))
}

/// A table of `text` with a host on loopback; the seats' page links.
fn hosted(text: &str, all_ai: bool) -> (App, Vec<String>) {
    let scenario = fray::rulesets::parse(text).expect("the scenario parses");
    let mut app = scenario.table_app(scenario.seed(), scenario.default_limit(), all_ai);
    let host = Host::start(app.world(), "127.0.0.1:0".parse().expect("an address"), None).expect("the host");
    let links =
        host.seats.iter().filter(|s| s.seat != fray_core::seat::Seat::Table).map(|s| host.url(s)).collect();
    app.insert_resource(host).add_plugins(HostPlugin);
    (app, links)
}

/// Connects a page to each link on a thread of its own and does `work` with what they
/// receive (each message with its seat and when it came); `done` once it is through.
fn pages<W: AsyncWork>(
    links: Vec<String>,
    done: Arc<AtomicBool>,
    work: W,
) -> std::thread::JoinHandle<Vec<f64>> {
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
        runtime.block_on(async move {
            let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
            let mut senders = Vec::new();
            for (i, link) in links.iter().enumerate() {
                let url = link.replacen("http://", "ws://", 1).replacen("/seat/", "/ws/", 1);
                let (socket, _) = tokio_tungstenite::connect_async_with_config(url, None, true)
                    .await
                    .expect("a page connects");
                let (sink, mut stream) = socket.split();
                senders.push(sink);
                let (tx, read) = (tx.clone(), W::READS);
                tokio::spawn(async move {
                    while let Some(Ok(message)) = stream.next().await {
                        let Message::Text(text) = message else { continue };
                        // Read as a page reads it only where the work looks inside.
                        let value = if read {
                            serde_json::from_str::<Value>(&text).unwrap_or_default()
                        } else {
                            Value::Null
                        };
                        if tx.send((i, Instant::now(), value)).is_err() {
                            break;
                        }
                    }
                });
            }
            // The pages' tasks hold the only senders now: the channel closes when they end.
            drop(tx);
            let found = work.run(senders, rx).await;
            done.store(true, Ordering::Relaxed);
            found
        })
    })
}

type Sink = futures_util::stream::SplitSink<
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>,
    Message,
>;
type Received = tokio::sync::mpsc::UnboundedReceiver<(usize, Instant, Value)>;

/// What the pages do once connected; the times it found.
trait AsyncWork: Send + 'static {
    /// Whether it reads the messages (else they are only received, not parsed: the host's
    /// timing is not to pay for a page's work on this machine's two cores).
    const READS: bool = true;
    fn run(self, senders: Vec<Sink>, rx: Received) -> impl std::future::Future<Output = Vec<f64>> + Send;
}

/// Takes a choice from whichever seat has one and times until every seat has a new view.
struct Decide;

impl AsyncWork for Decide {
    async fn run(self, mut senders: Vec<Sink>, mut rx: Received) -> Vec<f64> {
        let mut last = vec![Value::Null; senders.len()];
        let mut times = Vec::new();
        while times.len() < DECISIONS {
            // The latest view of each seat, until one of them may decide.
            while let Ok((i, _, message)) = rx.try_recv() {
                if message["kind"] == "view" {
                    last[i] = message;
                }
            }
            let Some((i, who, intent)) = last.iter().enumerate().find_map(|(i, m)| {
                let group = m["view"]["choices"].as_array()?.first()?;
                let choice = group["choices"].as_array()?.iter().find(|c| c["refused"].is_null())?;
                Some((i, group["who"].clone(), choice["intent"].clone()))
            }) else {
                match tokio::time::timeout(Duration::from_secs(5), rx.recv()).await {
                    Ok(Some((i, _, message))) if message["kind"] == "view" => last[i] = message,
                    Ok(Some(_)) => {}
                    _ => break,
                }
                continue;
            };
            let asked = json!({"v": 1, "kind": "decide", "who": who, "intent": intent});
            let start = Instant::now();
            if senders[i].send(Message::text(asked.to_string())).await.is_err() {
                break;
            }
            // Every seat's next view (no one else decides: each combatant is a seat's).
            let mut fresh = vec![false; senders.len()];
            while fresh.iter().any(|f| !f) {
                match tokio::time::timeout(Duration::from_secs(2), rx.recv()).await {
                    Ok(Some((seat, at, message))) if message["kind"] == "view" => {
                        fresh[seat] = true;
                        last[seat] = message;
                        if fresh.iter().all(|f| *f) {
                            times.push(at.duration_since(start).as_secs_f64() * 1000.0);
                        }
                    }
                    Ok(Some(_)) => {}
                    _ => {
                        eprintln!("a seat's view did not change within 2 s: {fresh:?}");
                        break;
                    }
                }
            }
        }
        times
    }
}

/// Reads every view, as pages do, and times nothing.
struct Watch;

impl AsyncWork for Watch {
    const READS: bool = false;

    async fn run(self, _senders: Vec<Sink>, mut rx: Received) -> Vec<f64> {
        while rx.recv().await.is_some() {}
        Vec::new()
    }
}

/// Times each of [`DECISIONS`] decisions from a page to every seat's updated view.
fn round_trips(swamp: &str) {
    let scenario = fray::rulesets::parse(swamp).expect("the swamp parses");
    let all = scenario.combatant_ids();
    let ids: Vec<Vec<String>> = (0..SEATS)
        .map(|s| {
            all.iter().enumerate().filter(|(c, _)| c % SEATS == s).map(|(_, id)| id.to_string()).collect()
        })
        .collect();
    let (mut app, links) = hosted(&with_seats(swamp, &ids), false);
    let done = Arc::new(AtomicBool::new(false));
    let pages = pages(links, done.clone(), Decide);
    while !done.load(Ordering::Relaxed) {
        app.update();
        std::thread::sleep(Duration::from_millis(1));
    }
    let mut times = pages.join().expect("the pages ran");
    times.sort_by(f64::total_cmp);
    let at =
        |q: f64| times.get(((times.len() as f64 - 1.0) * q).round() as usize).copied().unwrap_or(f64::NAN);
    println!(
        "decision to every seat's view, {SEATS} seats, loopback: {} decisions, median {:.2} ms, p95 {:.2} ms, max {:.2} ms",
        times.len(),
        at(0.5),
        at(0.95),
        at(1.0)
    );
}

/// The main-world update of [`FRAMES`] frames on the big board, the AI deciding once a
/// frame, with the host and 8 pages or with none: median, mean and 99th percentile.
fn frames(big: &str, host: bool) -> [f64; 3] {
    let (mut app, done, pages) = if host {
        let (app, links) = hosted(big, true);
        let done = Arc::new(AtomicBool::new(false));
        let pages = pages(links, done.clone(), Watch);
        (app, done, Some(pages))
    } else {
        let scenario = fray::rulesets::parse(big).expect("the big board parses");
        (scenario.table_app(scenario.seed(), scenario.default_limit(), true), Arc::default(), None)
    };
    app.world_mut().insert_resource(AiPacing::default());
    // Every page connected before timing.
    while host && app.world().resource::<Host>().seats.iter().filter(|s| s.connected() > 0).count() < SEATS {
        app.update();
    }
    let mut times = Vec::new();
    for frame in 0..FRAMES + 30 {
        app.world_mut().resource_mut::<AiPacing>().allowance = 1;
        let start = Instant::now();
        app.update();
        let took = start.elapsed();
        if frame >= 30 {
            times.push(took.as_secs_f64() * 1000.0);
        }
        std::thread::sleep(FRAME.saturating_sub(took));
    }
    drop(app);
    if let Some(pages) = pages {
        let _ = pages.join();
    }
    drop(done);
    times.sort_by(f64::total_cmp);
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    [times[times.len() / 2], mean, times[times.len() * 99 / 100]]
}

/// The main world's update with and without the host, alternated, three runs each.
fn frame_times(big: &str) {
    let per_seat: Vec<Vec<String>> =
        (0..SEATS).map(|s| (0..200).filter(|c| c % SEATS == s).map(|c| format!("c{c}")).collect()).collect();
    let big = with_seats(big, &per_seat);
    let (mut none, mut hosting) = (Vec::new(), Vec::new());
    for _ in 0..3 {
        none.push(frames(&big, false));
        hosting.push(frames(&big, true));
    }
    for (what, runs) in [("no host", &none), ("host + 8 pages", &hosting)] {
        let shown: Vec<String> =
            runs.iter().map(|[m, mean, p99]| format!("median {m:.3} mean {mean:.3} p99 {p99:.3}")).collect();
        println!("big board main-world update, {FRAMES} frames, {what}: {} ms", shown.join(" | "));
    }
    let median = |runs: &[[f64; 3]], at: usize| {
        let mut v: Vec<f64> = runs.iter().map(|r| r[at]).collect();
        v.sort_by(f64::total_cmp);
        v[1]
    };
    for (at, what) in [(0, "median"), (1, "mean")] {
        let (a, b) = (median(&none, at), median(&hosting, at));
        println!(
            "{what}, median of three: no host {a:.3} ms, host + {SEATS} pages {b:.3} ms: {:+.3} ms",
            b - a
        );
    }
}
