//! The host on loopback (`fray play --headless --serve`): players' pages decide over
//! WebSockets, each seat receives only what it may know, and what a page may not do is
//! refused with a reason.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

use crate::support::{scratch_dir, without_seats};

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// The host process, killed when dropped.
struct Hosting(Child);

impl Drop for Hosting {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts a headless host of `scenario` on a free port; its status's `host` part once up.
fn host(scenario: &str, dir: &Path) -> (Hosting, Value) {
    let status = dir.join("status.json");
    let child = Command::new(env!("CARGO_BIN_EXE_fray"))
        .args(["play", scenario, "--headless", "--serve", "127.0.0.1:0", "--pace-ms", "2"])
        .arg("--data-dir")
        .arg(dir)
        .arg("--status-out")
        .arg(&status)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the fray binary runs");
    let hosting = Hosting(child);
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let read = std::fs::read_to_string(&status).ok().and_then(|t| serde_json::from_str::<Value>(&t).ok());
        if let Some(host) = read.and_then(|s| s.get("host").cloned()) {
            return (hosting, host);
        }
        assert!(Instant::now() < deadline, "the host wrote no status with its links");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Each player's seat's link in the host's status.
fn seat_urls(status: &Value) -> Vec<String> {
    let seats = status["seats"].as_array().expect("seats");
    seats.iter().map(|s| s["url"].as_str().expect("a link").to_owned()).collect()
}

/// A page's socket for the page at `url`.
async fn join(url: &str) -> Socket {
    let ws =
        url.replacen("http://", "ws://", 1).replacen("/seat/", "/ws/", 1).replacen("/overlay/", "/ws/", 1);
    tokio_tungstenite::connect_async(ws).await.expect("the host takes the socket").0
}

/// The next message on `socket`, or none within `wait`.
async fn next(socket: &mut Socket, wait: Duration) -> Option<Value> {
    loop {
        match tokio::time::timeout(wait, socket.next()).await {
            Ok(Some(Ok(Message::Text(text)))) => {
                return Some(serde_json::from_str(&text).expect("the host sends JSON"));
            }
            Ok(Some(Ok(_))) => continue,
            _ => return None,
        }
    }
}

/// The next message of `kind`, the others read on the way checked with `each`.
async fn next_of(socket: &mut Socket, kind: &str, each: &mut impl FnMut(&Value)) -> Value {
    loop {
        let message = next(socket, Duration::from_secs(60)).await.unwrap_or_else(|| panic!("no {kind} came"));
        each(&message);
        if message["kind"] == kind {
            return message;
        }
    }
}

async fn send(socket: &mut Socket, message: &Value) {
    socket.send(Message::text(message.to_string())).await.expect("sent");
}

/// The combatants `view`'s seat decides for: those its choices are for.
fn deciding(view: &Value) -> Vec<String> {
    view["choices"]
        .as_array()
        .map_or_else(Vec::new, |c| c.iter().map(|g| g["who"].as_str().unwrap_or("").to_owned()).collect())
}

/// The seat's own combatants in a view message.
fn own(message: &Value) -> Vec<String> {
    let seat = message["view"]["seat"]["player"].as_str().unwrap_or("");
    message["view"]["tokens"]
        .as_array()
        .map(|ts| {
            ts.iter()
                .filter(|t| t["controller"]["Player"] == seat)
                .map(|t| t["id"].as_str().unwrap_or("").to_owned())
                .collect()
        })
        .unwrap_or_default()
}

/// The leak test's property for one message: a sealed choice shows what was chosen only to
/// the seat that chose it (never to another seat, never to the overlay).
fn keeps_secrets(message: &Value) {
    if message["kind"] != "view" {
        return;
    }
    let mine = own(message);
    for sealed in message["view"]["secret"]["chosen"].as_array().into_iter().flatten() {
        let who = sealed["who"].as_str().unwrap_or("");
        assert!(
            sealed["choice"].is_null() || mine.iter().any(|m| m == who),
            "{} saw {who}'s sealed choice: {sealed}",
            message["seat"]
        );
    }
}

/// The first choice the rules would take for the first combatant the view asks of.
fn a_choice(view: &Value) -> Option<(String, Value)> {
    let group = view["choices"].as_array()?.first()?;
    let choice = group["choices"].as_array()?.iter().find(|c| c["refused"].is_null())?;
    Some((group["who"].as_str()?.to_owned(), choice["intent"].clone()))
}

#[test]
fn four_phones_bid_in_secret_and_play_a_fiend_wake_round_on_loopback() {
    let dir = scratch_dir("host-swamp");
    let (_host, status) = host("assets/scenarios/swamp.ron", &dir);
    let urls = seat_urls(&status);
    assert_eq!(urls.len(), 4, "the swamp's four seats: {status}");
    let codes: Vec<&str> = urls.iter().map(|u| u.rsplit('/').next().unwrap_or("")).collect();
    assert!(codes.iter().all(|c| c.len() >= 20), "unguessable codes: {codes:?}");
    let overlay = status["overlay"].as_str().expect("an overlay link").to_owned();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
    runtime.block_on(async {
        let mut seats = Vec::new();
        for url in &urls {
            seats.push(join(url).await);
        }
        let mut table = join(&overlay).await;
        let mut check = keeps_secrets;
        // Until each seat has decided in secret (the bids) and the round has gone on.
        let (mut taken, mut decided, mut sealed) = (0, [false; 4], [false; 4]);
        let deadline = Instant::now() + Duration::from_secs(120);
        let mut last = vec![Value::Null; 4];
        while sealed.iter().any(|d| !d) || taken < 8 {
            assert!(
                Instant::now() < deadline,
                "the pages played no round: {taken} decisions, {decided:?}, bids {sealed:?}"
            );
            for (i, socket) in seats.iter_mut().enumerate() {
                let Some(message) = next(socket, Duration::from_millis(200)).await else { continue };
                check(&message);
                if message["kind"] == "view" {
                    last[i] = message.clone();
                    if let Some((who, intent)) = a_choice(&message["view"]) {
                        send(socket, &json!({"v": 1, "kind": "decide", "who": who, "intent": intent})).await;
                        let answer = next_of(socket, "taken", &mut |m| {
                            check(m);
                            assert_ne!(m["kind"], "refused", "a choice the view offered was refused: {m}");
                        })
                        .await;
                        assert_eq!(answer["v"], 1, "versioned");
                        taken += 1;
                        decided[i] = true;
                        // A choice made while a secret one is open: the seat's bid.
                        sealed[i] |= !message["view"]["secret"].is_null();
                    }
                }
            }
            while let Some(message) = next(&mut table, Duration::from_millis(1)).await {
                check(&message);
                assert!(deciding(&message["view"]).is_empty(), "the overlay decides nothing");
            }
        }
        // A seat may not decide for another seat's combatant (whatever it sends for it).
        let theirs = own(&last[1]).first().cloned().expect("seat 2 has a combatant");
        send(&mut seats[0], &json!({"v": 1, "kind": "decide", "who": theirs, "intent": "Pass"})).await;
        let refused = next_of(&mut seats[0], "refused", &mut check).await;
        assert!(refused["reason"].as_str().unwrap_or("").contains("not yours"), "{refused}");
        // Nor send what is no message.
        seats[0].send(Message::text("not json")).await.expect("sent");
        let refused = next_of(&mut seats[0], "refused", &mut check).await;
        assert!(refused["reason"].as_str().unwrap_or("").contains("not JSON"), "{refused}");
        // An unknown code is no seat.
        let unknown =
            urls[0].rsplit_once('/').map(|(base, _)| format!("{base}/nobodyscode")).expect("a link");
        let ws = unknown.replacen("http://", "ws://", 1).replacen("/seat/", "/ws/", 1);
        assert!(tokio_tungstenite::connect_async(ws).await.is_err(), "an unknown code is refused");
        // Coming back with the same link gives the whole view at once.
        drop(seats.remove(0));
        let mut again = join(&urls[0]).await;
        let view = next_of(&mut again, "view", &mut check).await;
        assert_eq!(view["view"]["seat"]["player"], last[0]["view"]["seat"]["player"], "the same seat");
        assert!(view["view"]["tokens"].as_array().is_some_and(|t| !t.is_empty()), "the whole view");
    });
}

#[test]
fn a_page_sending_too_fast_is_slowed_and_a_phone_commits_a_slow_turn() {
    let dir = scratch_dir("host-ford");
    let (_host, status) = host("assets/scenarios/fast_slow_crossing.ron", &dir);
    let url = status["seats"][0]["url"].as_str().expect("Brann's seat").to_owned();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
    runtime.block_on(async {
        let mut brann = join(&url).await;
        let mut check = keeps_secrets;
        // Brann's page is asked Fast or Slow; a click on Slow is taken.
        let slow = loop {
            let view = next_of(&mut brann, "view", &mut check).await;
            let choices = view["view"]["choices"].as_array().cloned().unwrap_or_default();
            let slow = choices
                .iter()
                .flat_map(|g| g["choices"].as_array().cloned().unwrap_or_default())
                .find(|c| c["label"].as_str().is_some_and(|l| l.contains("Slow")) && c["refused"].is_null());
            if let Some(slow) = slow {
                break slow;
            }
        };
        send(&mut brann, &json!({"v": 1, "kind": "decide", "who": "brann", "intent": slow["intent"]})).await;
        next_of(&mut brann, "taken", &mut check).await;
        // The same decision again is stale: refused, not taken twice.
        send(&mut brann, &json!({"v": 1, "kind": "decide", "who": "brann", "intent": slow["intent"]})).await;
        let stale = next_of(&mut brann, "refused", &mut check).await;
        assert!(!stale["reason"].as_str().unwrap_or("").is_empty(), "{stale}");
        // More than 20 messages in a second: the rest are refused, the page stays connected.
        for _ in 0..30 {
            send(&mut brann, &json!({"v": 1, "kind": "decide", "who": "brann", "intent": "Pass"})).await;
        }
        let mut slowed = false;
        while let Some(message) = next(&mut brann, Duration::from_secs(5)).await {
            if message["reason"].as_str().is_some_and(|r| r.contains("in a second")) {
                slowed = true;
                break;
            }
        }
        assert!(slowed, "the page was not slowed down");
    });
}

/// The first choice offered in `view` whose label starts with `word`, and for whom (not one
/// of `done`).
fn choice_labelled(view: &Value, word: &str, done: &[String]) -> Option<(String, Value)> {
    view["choices"].as_array()?.iter().find_map(|group| {
        if done.iter().any(|d| group["who"] == d.as_str()) {
            return None;
        }
        let choices = group["choices"].as_array()?;
        let found = choices
            .iter()
            .find(|c| c["refused"].is_null() && c["label"].as_str().is_some_and(|l| l.starts_with(word)))?;
        Some((group["who"].as_str()?.to_owned(), found["intent"].clone()))
    })
}

/// Whether a view message's log holds the reveal of the turn speeds.
fn revealed(message: &Value) -> bool {
    message["view"]["log"].as_array().is_some_and(|log| log.iter().any(|l| l["kind"] == "revealed"))
}

#[test]
fn four_phones_commit_fast_or_slow_and_the_reveal_waits_for_the_last() {
    let dir = scratch_dir("host-ford-four");
    let ford = without_seats(include_str!("../assets/scenarios/fast_slow_crossing.ron"));
    let seats = r#"    seats: [
        (id: "p1", name: "Anna", combatants: ["brann"]),
        (id: "p2", name: "Bo", combatants: ["ysolde"]),
        (id: "p3", name: "Cai", combatants: ["odo"]),
        (id: "p4", name: "Dee", combatants: ["gorm", "bandit_a", "bandit_b"]),
    ],
)
"#;
    let path = dir.join("ford_four_seats.ron");
    std::fs::write(&path, format!("{}\n{seats}", ford.trim_end().trim_end_matches(')'))).expect("written");
    let (_host, status) = host(path.to_str().expect("a path"), &dir);
    let urls = seat_urls(&status);
    assert_eq!(urls.len(), 4, "four seats: {status}");
    let overlay = status["overlay"].as_str().expect("an overlay link").to_owned();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
    runtime.block_on(async {
        let mut pages = Vec::new();
        for url in &urls {
            pages.push(join(url).await);
        }
        pages.push(join(&overlay).await);
        let mut check = keeps_secrets;
        // Every seat's page is asked Fast or Slow for each of its combatants (the opening's
        // other choices taken as offered); nothing is revealed while any is asked.
        let mut committed: Vec<String> = Vec::new();
        // A view read while a page waited for its answer, to act on next (the host sends a
        // view only when it changes: one dropped here may be the last this page gets).
        let mut unread: Vec<Option<Value>> = vec![None; pages.len()];
        let deadline = Instant::now() + Duration::from_secs(120);
        while committed.len() < 6 {
            assert!(Instant::now() < deadline, "the commitments never came: {committed:?}");
            for (i, page) in pages.iter_mut().enumerate() {
                let message = match unread[i].take() {
                    Some(message) => message,
                    None => {
                        let Some(message) = next(page, Duration::from_millis(100)).await else { continue };
                        check(&message);
                        message
                    }
                };
                assert!(!revealed(&message), "revealed after {committed:?} of 6 committed: {message}");
                if i == 4 || message["kind"] != "view" {
                    continue;
                }
                let view = &message["view"];
                // Alternately Slow and Fast, one combatant at a time.
                let word = if committed.len().is_multiple_of(2) { "Slow" } else { "Fast" };
                let choice = choice_labelled(view, word, &committed).map(|c| (c, true)).or_else(|| {
                    let other = view["secret"].is_null().then(|| a_choice(view)).flatten();
                    other.map(|c| (c, false))
                });
                let Some(((who, intent), commit)) = choice else { continue };
                send(page, &json!({"v": 1, "kind": "decide", "who": who, "intent": intent})).await;
                // A view read before an earlier decision of this page may offer a stale one.
                let answer = loop {
                    let message = next(page, Duration::from_secs(60)).await.expect("an answer");
                    check(&message);
                    assert!(!revealed(&message) || committed.len() == 5, "revealed too soon: {message}");
                    if message["kind"] == "taken" || message["kind"] == "refused" {
                        break message;
                    }
                    if message["kind"] == "view" {
                        unread[i] = Some(message);
                    }
                };
                assert!(!commit || answer["kind"] == "taken", "a commitment offered was refused: {answer}");
                if commit {
                    committed.push(who);
                }
            }
        }
        // The last one in: every page, the overlay's too, is shown the reveal.
        for (page, unread) in pages.iter_mut().zip(unread) {
            let shown = match unread.filter(revealed) {
                Some(message) => message,
                None => loop {
                    let message = next_of(page, "view", &mut check).await;
                    if revealed(&message) {
                        break message;
                    }
                },
            };
            let line =
                shown["view"]["log"].as_array().and_then(|l| l.iter().find(|l| l["kind"] == "revealed"));
            let choices = line.and_then(|l| l["choices"].as_array()).map_or(0, Vec::len);
            assert_eq!(choices, 6, "every choice revealed at once: {line:?}");
        }
        let mut sorted = committed.clone();
        sorted.sort();
        assert_eq!(sorted, ["bandit_a", "bandit_b", "brann", "gorm", "odo", "ysolde"], "each committed once");
    });
}
