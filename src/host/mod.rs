//! The host: players decide on their own phones and the stream gets an overlay page
//! (`fray play --serve`, feature `serve`). The rules run only here. Each seat has a random
//! join code; its page receives the seat's view ([`seat_views`]) when it changes (at once
//! when the seat is asked to decide, else at most 10 times a second) and
//! sends the choices it takes, which the world checks as the board's are (the seat must
//! decide for the combatant, the rules must wait on it, the choice must be one they offer
//! now) before the ruleset gets them. The overlay page has the table's seat: public only.
//!
//! - `server`: axum on a tokio runtime of its own thread; bounded channels to the world.
//! - `protocol`: the messages, versioned JSON.
//! - `codes`: the seats' join codes, kept in the data folder.
//! - `pages`: the player's page and the overlay, plain HTML served as they are.
//!
//! Meant for a local network: plain HTTP, no TLS.

mod codes;
mod pages;
pub mod protocol;
mod server;

use std::collections::{HashMap, HashSet};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use fray_core::DriveRules;
use fray_core::fight::ruleset;
use fray_core::intent::Outcomes;
use fray_core::log::{GameLog, LogEvent};
use fray_core::prelude::{Combatant, Controller, Seats, TableIndex};
use fray_core::seat::{Seat, SeatView, seat_views};
use tokio::sync::{mpsc, watch};

use self::protocol::{PageAsk, SeatMessage, ToPage, VERSION};
use self::server::{Inbound, SeatLink, Server};

/// Where `--serve` listens when given no address: every interface, a fixed port (so that
/// the links stay the same from one evening to the next).
pub const DEFAULT_ADDR: &str = "0.0.0.0:8475";
/// The most asks the world takes from pages in one frame.
const ASKS_PER_FRAME: usize = 64;
/// The least time between two publications of the views while the fight runs on by
/// itself (the AI's turns): 10 a second, as a person follows it. A page's decision, a
/// seat asked to decide and a new page are published at once.
const PUBLISH_GAP: Duration = Duration::from_millis(100);

/// One seat the host serves.
pub struct HostSeat {
    /// Whose seat: a player's, or the table's (the overlay).
    pub seat: Seat,
    /// Its name for people.
    pub name: String,
    /// Its join code.
    pub code: String,
    view: watch::Sender<server::Latest>,
    connected: Arc<AtomicUsize>,
    open: Arc<AtomicBool>,
}

impl HostSeat {
    /// The page's path on the host.
    pub fn path(&self) -> String {
        match self.seat {
            Seat::Table => format!("/overlay/{}", self.code),
            _ => format!("/seat/{}", self.code),
        }
    }

    /// How many pages are connected with its code now.
    pub fn connected(&self) -> usize {
        self.connected.load(Ordering::Relaxed)
    }
}

/// The running host: its seats and the server (stopped when the resource goes).
#[derive(Resource)]
pub struct Host {
    /// Where it listens.
    pub addr: SocketAddr,
    /// Where people reach it: the address, with this machine's address on the local network
    /// in place of "every interface".
    pub base: String,
    /// The players' seats in the scenario's order, then the table's (the overlay).
    pub seats: Vec<HostSeat>,
    inbox: mpsc::Receiver<Inbound>,
    published: Option<ViewKey>,
    /// When the views were last published.
    published_at: Option<Instant>,
    /// A page's decision was taken since then.
    decided: bool,
    /// The table's seats the host serves (a new scenario's seats are served anew).
    table_seats: Seats,
    links: server::Links,
    dir: Option<PathBuf>,
    _server: Server,
}

impl Host {
    /// Starts serving the seats of the table in `world` on `addr`, their codes kept in `dir`
    /// (none: new codes each time).
    pub fn start(world: &World, addr: SocketAddr, dir: Option<&Path>) -> Result<Host, String> {
        let players = world.get_resource::<Seats>().cloned().unwrap_or_default();
        let (seats, by_code) = host_seats(&players, dir, &[])?;
        let links: server::Links = Arc::new(std::sync::RwLock::new(by_code));
        let (to_world, inbox) = mpsc::channel(server::INBOX);
        let server = server::start(addr, links.clone(), to_world)?;
        let base = format!("http://{}", reachable(server.addr));
        let dir = dir.map(Path::to_path_buf);
        Ok(Host {
            addr: server.addr,
            base,
            seats,
            inbox,
            published: None,
            published_at: None,
            decided: false,
            table_seats: players,
            links,
            dir,
            _server: server,
        })
    }

    /// Serves the seats of another table (the GM opened another scenario) in place of
    /// these: every page is closed, and one whose seat the new table has too comes back to
    /// it by itself (its code is kept in the data folder); the overlay's link stays.
    fn reseat(&mut self, players: Seats) -> Result<(), String> {
        let (seats, by_code) = host_seats(&players, self.dir.as_deref(), &self.seats)?;
        for old in &self.seats {
            old.open.store(false, Ordering::Relaxed);
        }
        *self.links.write().map_err(|_| "the host's seats cannot be changed now".to_owned())? = by_code;
        while let Ok(ask) = self.inbox.try_recv() {
            let _ = ask.reply.try_send(server::refused("the GM opened another fight: reload the page"));
        }
        self.seats = seats;
        self.table_seats = players;
        self.published = None;
        Ok(())
    }

    /// Ends the access of the seat at `index`: its pages are closed and its link stops
    /// working; it gets a new link to give (again, or to someone else).
    pub fn end_access(&mut self, index: usize) -> Result<(), String> {
        let Some(seat) = self.seats.get_mut(index) else { return Ok(()) };
        seat.open.store(false, Ordering::Relaxed);
        let code = codes::renew(self.dir.as_deref(), &seat.seat)?;
        let open = Arc::new(AtomicBool::new(true));
        let link = SeatLink {
            index,
            overlay: seat.seat == Seat::Table,
            view: seat.view.subscribe(),
            connected: seat.connected.clone(),
            open: open.clone(),
        };
        let mut links =
            self.links.write().map_err(|_| "the host's seats cannot be changed now".to_owned())?;
        links.remove(&seat.code);
        links.insert(code.clone(), link);
        seat.code = code;
        seat.open = open;
        Ok(())
    }

    /// A seat's page, as a link to give its player.
    pub fn url(&self, seat: &HostSeat) -> String {
        format!("{}{}", self.base, seat.path())
    }

    /// The host as the status file tells it: where it listens, each seat's link, who is
    /// connected.
    pub fn status(&self) -> serde_json::Value {
        let seats: Vec<_> = self
            .seats
            .iter()
            .filter(|s| s.seat != Seat::Table)
            .map(|s| {
                let id = match &s.seat {
                    Seat::Player(id) => id.to_string(),
                    _ => String::new(),
                };
                serde_json::json!({"seat": id, "name": s.name, "url": self.url(s), "connected": s.connected()})
            })
            .collect();
        let overlay = self.seats.iter().find(|s| s.seat == Seat::Table);
        serde_json::json!({
            "address": self.addr.to_string(),
            "seats": seats,
            "overlay": overlay.map(|s| self.url(s)),
            "overlay_connected": overlay.map_or(0, HostSeat::connected),
        })
    }
}

/// The seats the host serves for `players` and the table's (the overlay), their codes those
/// of the same seats in `known`, else kept in `dir`; the network side's links, by code.
fn host_seats(
    players: &Seats,
    dir: Option<&Path>,
    known: &[HostSeat],
) -> Result<(Vec<HostSeat>, HashMap<String, SeatLink>), String> {
    let mut wanted: Vec<(Seat, String)> =
        players.0.iter().map(|(id, name)| (Seat::Player(id.clone()), name.clone())).collect();
    wanted.push((Seat::Table, "The table".to_owned()));
    let codes = codes::for_seats(dir, wanted.iter().map(|(seat, _)| seat))?;
    let mut seats = Vec::new();
    let mut by_code = HashMap::new();
    for (index, ((seat, name), code)) in wanted.into_iter().zip(codes).enumerate() {
        let code = known.iter().find(|k| k.seat == seat).map_or(code, |k| k.code.clone());
        let (view, seen) = watch::channel::<server::Latest>(None);
        let (connected, open) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicBool::new(true)));
        let overlay = seat == Seat::Table;
        by_code.insert(
            code.clone(),
            SeatLink { index, overlay, view: seen, connected: connected.clone(), open: open.clone() },
        );
        seats.push(HostSeat { seat, name, code, view, connected, open });
    }
    Ok((seats, by_code))
}

/// The address people reach `addr` at: on every interface, this machine's address on the
/// local network (found without sending anything), else the loopback.
fn reachable(addr: SocketAddr) -> SocketAddr {
    if !addr.ip().is_unspecified() {
        return addr;
    }
    let local = std::net::UdpSocket::bind("0.0.0.0:0")
        .and_then(|s| s.connect("192.0.2.1:9").map(|()| s))
        .and_then(|s| s.local_addr())
        .map(|a| a.ip())
        .ok()
        .filter(|ip| !ip.is_unspecified());
    SocketAddr::new(local.unwrap_or(std::net::Ipv4Addr::LOCALHOST.into()), addr.port())
}

/// Serves the seats: takes the pages' choices before the rules run, publishes the views
/// after. Add it to an app that holds a [`Host`] (or may, later: it does nothing without).
pub struct HostPlugin;

/// The host's two steps in `Update`, for an app that orders its own steps around the rules.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HostStep {
    /// The pages' choices handed to the rules.
    TakeAsks,
    /// Each seat's view published.
    Publish,
}

impl Plugin for HostPlugin {
    fn build(&self, app: &mut App) {
        app.configure_sets(Update, (HostStep::TakeAsks, DriveRules, HostStep::Publish).chain()).add_systems(
            Update,
            (take_asks.in_set(HostStep::TakeAsks), publish_views.in_set(HostStep::Publish)),
        );
    }
}

/// The pages' asks, each checked as the board's are and answered to its page.
fn take_asks(world: &mut World) {
    if !world.contains_resource::<Host>() {
        return;
    }
    world.resource_scope(|world, mut host: Mut<Host>| {
        let host = host.bypass_change_detection();
        let players = world.get_resource::<Seats>().cloned().unwrap_or_default();
        if players != host.table_seats
            && let Err(why) = host.reseat(players)
        {
            bevy::log::error!("host: {why}");
        }
        take_each(world, host);
    });
}

/// [`take_asks`] with the host in hand.
fn take_each(world: &mut World, host: &mut Host) {
    for _ in 0..ASKS_PER_FRAME {
        let Ok(ask) = host.inbox.try_recv() else { break };
        let seat = host.seats.get(ask.seat).filter(|s| Arc::ptr_eq(&s.open, &ask.link));
        let Some(seat) = seat else {
            let _ = ask.reply.try_send(server::refused("this link has no seat now: ask the GM for yours"));
            continue;
        };
        let taken = decide(world, &seat.seat, ask.message.ask);
        let answer = match &taken {
            Ok(()) => ToPage::Taken { v: VERSION }.text(),
            Err(why) => {
                bevy::log::warn!("host: {} was refused: {why}", seat.name);
                server::refused(why)
            }
        };
        // A page that reads no answers loses its own; the world never waits.
        let _ = ask.reply.try_send(answer);
        // One decision a frame: the next ask is checked against what the rules made of it.
        if taken.is_ok() {
            host.decided = true;
            break;
        }
    }
}

/// Hands a page's choice to the rules, or says why not.
fn decide(world: &mut World, seat: &Seat, ask: PageAsk) -> Result<(), String> {
    let PageAsk::Decide { who, intent } = ask;
    let rules = ruleset(world).ok_or("no fight is open")?;
    let e = world
        .resource::<TableIndex>()
        .combatant(&who)
        .ok_or_else(|| format!("there is no combatant '{who}'"))?;
    let name = fray_core::table::name(world, e);
    let controller = world.get::<Controller>(e).cloned().unwrap_or(Controller::Ai);
    if !seat.decides(&controller) {
        return Err(format!("{name} is not yours to decide for"));
    }
    if !rules.awaiting(world).contains(&e) {
        return Err(format!("the rules are not waiting on {name} now: that decision was taken"));
    }
    let choice = rules
        .choices(world, e)
        .into_iter()
        .find(|c| c.intent.to_json() == intent)
        .ok_or_else(|| format!("that is not a choice {name} has now"))?;
    choice.verdict.map_err(|refused| refused.0)?;
    rules.submit(world, who, &choice.intent);
    Ok(())
}

/// The rolls in `view`'s log as the board tells them, by the line's `seq`: each where its
/// sentence names no one of `people` the view does not hold (the sentence is not in the
/// log's line, so the view's own filtering never read it). `told` keeps each sentence once
/// for every seat.
fn told_rolls(
    log: &GameLog,
    view: &SeatView,
    people: &[String],
    told: &mut HashMap<u64, Option<String>>,
) -> Vec<(u64, String)> {
    // Who this view does not hold, if anyone (most views hold everyone).
    let unseen: Vec<&String> = if view.tokens.len() < people.len() {
        let seen: HashSet<&str> = view.tokens.iter().map(|t| t.name.as_str()).collect();
        people.iter().filter(|p| !seen.contains(p.as_str())).collect()
    } else {
        Vec::new()
    };
    let names: Vec<&str> = people.iter().map(String::as_str).collect();
    view.log
        .iter()
        .filter_map(|line| {
            let seq = line.get("seq")?.as_u64()?;
            let sentence = told.entry(seq).or_insert_with(|| {
                let entry = log.entries().get(usize::try_from(seq).ok()?)?;
                let LogEvent::Roll(roll) = &entry.event else { return None };
                Some(format!("{}: {}", roll.told.as_ref()?, roll.outcome()))
            });
            let sentence = sentence.as_ref()?;
            let hidden = unseen.iter().any(|name| fray_core::seat::says(sentence, name, &names));
            (!hidden).then(|| (seq, sentence.clone()))
        })
        .collect()
}

/// What the views depend on, cheap to compare each frame: the log, the outcomes, the table,
/// who the rules wait on, who watches.
#[derive(Clone, PartialEq)]
struct ViewKey {
    log: usize,
    outcomes: usize,
    table: u32,
    waiting: Vec<Entity>,
    /// Which seats have a page connected (only theirs are worked out).
    connected: Vec<bool>,
}

/// Each seat's view, published where it changed.
fn publish_views(world: &mut World) {
    let Some(rules) = ruleset(world).filter(|_| world.contains_resource::<Host>()) else { return };
    let key = ViewKey {
        log: world.get_resource::<GameLog>().map_or(0, |l| l.entries().len()),
        outcomes: world.get_resource::<Outcomes>().map_or(0, |o| o.0.len()),
        table: world.get_resource_change_ticks::<TableIndex>().map_or(0, |t| t.changed.get()),
        waiting: rules.awaiting(world),
        connected: world
            .get_resource::<Host>()
            .map_or_else(Vec::new, |h| h.seats.iter().map(|s| s.connected() > 0).collect()),
    };
    if !world.get_resource::<Host>().is_some_and(|h| due(h, &key, world)) {
        return;
    }
    let people: Vec<String> = world.query::<&Combatant>().iter(world).map(|c| c.name.clone()).collect();
    let Some(host) = world.get_resource::<Host>() else { return };
    // Only the seats a page watches: a seat's first page gets its view a frame later.
    let watched: Vec<&HostSeat> =
        host.seats.iter().zip(&key.connected).filter(|(_, c)| **c).map(|(s, _)| s).collect();
    for seat in host.seats.iter().zip(&key.connected).filter(|(_, c)| !**c).map(|(s, _)| s) {
        seat.view.send_if_modified(|old| old.take().is_some());
    }
    let seats: Vec<Seat> = watched.iter().map(|s| s.seat.clone()).collect();
    let views = seat_views(world, rules.as_ref(), &seats);
    let scenario = world
        .get_resource::<fray_core::fight::Session>()
        .map(|s| s.scenario.name().to_owned())
        .unwrap_or_default();
    let players: Vec<(String, String)> = world
        .get_resource::<Seats>()
        .map_or_else(Vec::new, |s| s.0.iter().map(|(id, n)| (id.to_string(), n.clone())).collect());
    // Kept as data: the network thread writes each into text as it sends it (and sends
    // none that is what the page already has).
    let (mut told, empty) = (HashMap::new(), GameLog::default());
    let log = world.get_resource::<GameLog>().unwrap_or(&empty);
    for (seat, view) in watched.into_iter().zip(views) {
        let rolls = told_rolls(log, &view, &people, &mut told);
        let (players, scenario) = (players.clone(), scenario.clone());
        let message = SeatMessage { seat: seat.name.clone(), scenario, players, rolls, view };
        seat.view.send_replace(Some(Arc::new(message)));
    }
    if let Some(mut host) = world.get_resource_mut::<Host>() {
        let host = host.bypass_change_detection();
        (host.published, host.published_at, host.decided) = (Some(key), Some(Instant::now()), false);
    }
}

/// Whether the views go out now, `key` being what they depend on: not while it is what was
/// published; at once for a page's decision, a new page, or a seat the rules begin to wait
/// on; else no sooner than [`PUBLISH_GAP`] after the last time.
fn due(host: &Host, key: &ViewKey, world: &World) -> bool {
    let Some(last) = &host.published else { return true };
    if last == key {
        return false;
    }
    let decides =
        |e: Entity| world.get::<Controller>(e).is_some_and(|c| host.seats.iter().any(|s| s.seat.decides(c)));
    let asked = key.waiting.iter().any(|&e| !last.waiting.contains(&e) && decides(e));
    host.decided
        || asked
        || last.connected != key.connected
        || host.published_at.is_none_or(|at| at.elapsed() >= PUBLISH_GAP)
}

#[cfg(test)]
mod tests {
    use fray_core::ids::SeatId;

    use super::*;

    /// A host of one seat on a free port, on a table with no fight.
    fn host() -> Host {
        let mut world = World::new();
        world.insert_resource(Seats(vec![(SeatId::from("anna"), "Anna".to_owned())]));
        Host::start(&world, "127.0.0.1:0".parse().expect("an address"), None).expect("the host starts")
    }

    async fn opens(host: &Host, code: &str) -> bool {
        let url = format!("ws://{}/ws/{code}", host.addr);
        tokio_tungstenite::connect_async(url).await.is_ok()
    }

    /// The socket's address of the page at `url` (a seat's or the overlay's).
    fn socket(url: &str) -> String {
        url.replacen("http://", "ws://", 1).replacen("/seat/", "/ws/", 1).replacen("/overlay/", "/ws/", 1)
    }

    type Page = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

    /// Steps `app` until `page` receives a message that `wanted` takes.
    fn step_until(
        app: &mut App,
        runtime: &tokio::runtime::Runtime,
        page: &mut Page,
        wanted: impl Fn(&serde_json::Value) -> bool,
    ) -> serde_json::Value {
        use futures_util::StreamExt;
        for _ in 0..2_000 {
            app.update();
            let wait = std::time::Duration::from_millis(5);
            let next = runtime.block_on(async { tokio::time::timeout(wait, page.next()).await });
            if let Ok(Some(Ok(tokio_tungstenite::tungstenite::Message::Text(text)))) = next {
                let message: serde_json::Value = serde_json::from_str(&text).expect("JSON");
                if wanted(&message) {
                    return message;
                }
            }
        }
        panic!("the page never received what it waited for");
    }

    /// The intent of Brann's Slow turn, if his page's view offers it.
    fn slow(message: &serde_json::Value) -> Option<serde_json::Value> {
        let choices = message["view"]["choices"].as_array()?.first()?["choices"].as_array()?;
        let slow =
            choices.iter().find(|c| c["label"].as_str().is_some_and(|l| l.starts_with("Slow turn")))?;
        Some(slow["intent"].clone())
    }

    #[test]
    fn the_gms_undo_takes_back_a_phones_choice_and_every_page_sees_it() {
        use futures_util::SinkExt;
        let text = include_str!("../../assets/scenarios/fast_slow_crossing.ron");
        let scenario = crate::rulesets::parse(text).expect("the ford parses");
        let mut app = scenario.table_app(scenario.seed(), scenario.default_limit(), false);
        let host =
            Host::start(app.world(), "127.0.0.1:0".parse().expect("an address"), None).expect("a host");
        let (brann, table) = (host.url(&host.seats[0]), host.url(&host.seats[1]));
        app.insert_resource(host).add_plugins(HostPlugin);
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
        let mut page =
            runtime.block_on(tokio_tungstenite::connect_async(socket(&brann))).expect("Brann's page").0;
        let mut overlay =
            runtime.block_on(tokio_tungstenite::connect_async(socket(&table))).expect("the overlay").0;
        let asked = step_until(&mut app, &runtime, &mut page, |m| slow(m).is_some());
        // The AI holds still after Brann's choice: the GM's undo takes back his, not the AI's.
        app.world_mut().insert_resource(fray_core::session::HoldAi);
        let decide = serde_json::json!({"v": 1, "kind": "decide", "who": "brann", "intent": slow(&asked)});
        runtime
            .block_on(page.send(tokio_tungstenite::tungstenite::Message::text(decide.to_string())))
            .expect("sent");
        step_until(&mut app, &runtime, &mut page, |m| m["kind"] == "view" && slow(m).is_none());
        let moved_on =
            step_until(&mut app, &runtime, &mut overlay, |m| m["view"]["phase"]["name"] != "round_start");
        assert_ne!(
            moved_on["view"]["phase"]["name"], "round_start",
            "every choice was in: the round went on"
        );
        let undone = fray_core::fight::undo(app.world_mut()).expect("the GM undoes");
        assert!(undone.to_lowercase().contains("brann"), "Brann's choice taken back: {undone}");
        let again = step_until(&mut app, &runtime, &mut page, |m| slow(m).is_some());
        assert_eq!(again["view"]["phase"]["name"], "round_start", "Brann's page is asked again");
        step_until(&mut app, &runtime, &mut overlay, |m| m["view"]["phase"]["name"] == "round_start");
    }

    /// The names of the combatants concealed from `seat` that `message` holds anywhere
    /// (an id as a whole string, a name within any text, the rolls as told included), in
    /// the text the page receives.
    fn concealed_named(world: &World, seat: &Seat, message: &SeatMessage) -> Vec<String> {
        fn strings(value: &serde_json::Value, out: &mut Vec<String>) {
            match value {
                serde_json::Value::String(s) => out.push(s.clone()),
                serde_json::Value::Array(items) => items.iter().for_each(|v| strings(v, out)),
                serde_json::Value::Object(map) => map.iter().for_each(|(k, v)| {
                    out.push(k.clone());
                    strings(v, out);
                }),
                _ => {}
            }
        }
        let rules = ruleset(world).expect("a fight");
        let (board, index) = (rules.view(), world.resource::<TableIndex>());
        let names: Vec<String> = index.order.iter().map(|&e| fray_core::table::name(world, e)).collect();
        let others: Vec<&str> = names.iter().map(String::as_str).collect();
        let sent: serde_json::Value = serde_json::from_str(&message.text()).expect("JSON");
        let mut all = Vec::new();
        strings(&sent, &mut all);
        let mut found = Vec::new();
        for &e in &index.order {
            let controller = world.get::<Controller>(e).cloned().unwrap_or_default();
            if !board.token(world, e).concealed || seat.may_see(board.privacy().concealed, &controller) {
                continue;
            }
            let (id, name) = (fray_core::table::id(world, e), fray_core::table::name(world, e));
            let named = all.iter().find(|s| *s == id.as_str() || fray_core::seat::says(s, &name, &others));
            found.extend(named.map(|s| format!("{name} in \"{s}\"")));
        }
        found
    }

    /// The seats issue's leak property on the wire: the river road ambush played out on
    /// several seeds, its escort on two players' pages and the overlay watching, and every
    /// message each page is sent (each seat's view as published, written as the network
    /// thread writes it) names no combatant while that one is concealed from the seat.
    #[test]
    fn no_page_is_sent_a_combatant_concealed_from_its_seat() {
        let ambush = include_str!("../../assets/scenarios/faction_zones_ambush.ron");
        let seats = r#"seats: [(id: "anna", name: "Anna", combatants: ["aldo", "bettina"]),
            (id: "cora", name: "Cora", combatants: ["corin"])],"#;
        let text = format!("{}    {seats}\n)\n", ambush.trim_end().trim_end_matches(')'));
        let scenario = crate::rulesets::parse(&text).expect("the ambush parses");
        let (mut sent, mut while_hidden) = (0, 0);
        for seed in 0..12 {
            let mut app = scenario.table_app(seed, scenario.default_limit(), false);
            let (checked, hidden) = play_out_checking_leaks(&mut app);
            (sent, while_hidden) = (sent + checked, while_hidden + hidden);
        }
        assert!(sent > 100, "{sent} messages checked");
        assert!(while_hidden > 10, "{while_hidden} messages sent while someone was concealed");
    }

    /// Plays `app`'s fight out with a host and a page on each seat, the players deciding
    /// from their pages as a person would, each message published checked; how many, and
    /// how many of them were sent while a combatant was concealed from their seat.
    fn play_out_checking_leaks(app: &mut App) -> (usize, usize) {
        use futures_util::{SinkExt, StreamExt};
        let host =
            Host::start(app.world(), "127.0.0.1:0".parse().expect("an address"), None).expect("a host");
        let urls: Vec<String> = host.seats.iter().map(|s| host.url(s)).collect();
        app.insert_resource(host).add_plugins(HostPlugin);
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
        let mut pages: Vec<Page> = urls
            .iter()
            .map(|url| runtime.block_on(tokio_tungstenite::connect_async(socket(url))).expect("a page").0)
            .collect();
        let (mut sent, mut while_hidden, mut last) = (0, 0, vec![None; urls.len()]);
        for _ in 0..100_000 {
            app.update();
            let world = app.world();
            let host = world.resource::<Host>();
            let mut asks = Vec::new();
            for (index, (seat, before)) in host.seats.iter().zip(&mut last).enumerate() {
                let Some(message) = seat.view.borrow().clone() else { continue };
                if before.as_ref().is_some_and(|b: &Arc<SeatMessage>| Arc::ptr_eq(b, &message)) {
                    continue;
                }
                sent += 1;
                let named = concealed_named(world, &seat.seat, &message);
                assert!(named.is_empty(), "{} was sent {}", seat.name, named.join("; "));
                while_hidden +=
                    usize::from(message.view.tokens.len() < world.resource::<TableIndex>().order.len());
                // The player decides as a page would: the first choice the rules would take.
                let value: serde_json::Value = serde_json::from_str(&message.text()).expect("JSON");
                if let Some(group) = value["view"]["choices"].as_array().and_then(|c| c.first()) {
                    let choices = group["choices"].as_array().into_iter().flatten();
                    if let Some(choice) = choices.into_iter().find(|c| c["refused"].is_null()) {
                        let ask = serde_json::json!({"v": 1, "kind": "decide", "who": group["who"], "intent": choice["intent"]});
                        asks.push((index, ask.to_string()));
                    }
                }
                *before = Some(message);
            }
            if world.contains_resource::<fray_core::ruleset::FightResult>() {
                return (sent, while_hidden);
            }
            runtime.block_on(async {
                for (index, ask) in asks {
                    let _ = pages[index].send(tokio_tungstenite::tungstenite::Message::text(ask)).await;
                }
                // What the pages were sent is read (a page that reads nothing is not served).
                for page in &mut pages {
                    while let Ok(Some(_)) = tokio::time::timeout(std::time::Duration::ZERO, page.next()).await
                    {
                    }
                }
                tokio::time::sleep(std::time::Duration::from_micros(200)).await;
            });
        }
        panic!("the ambush was not played out");
    }

    #[test]
    fn another_scenario_opened_is_served_with_its_seats_and_the_links_kept() {
        use futures_util::StreamExt;
        let ford = crate::rulesets::parse(include_str!("../../assets/scenarios/fast_slow_crossing.ron"))
            .expect("the ford parses");
        let mut app = ford.table_app(ford.seed(), ford.default_limit(), false);
        let host =
            Host::start(app.world(), "127.0.0.1:0".parse().expect("an address"), None).expect("a host");
        let (player, table, addr) = (host.seats[0].code.clone(), host.seats[1].code.clone(), host.addr);
        app.insert_resource(host).add_plugins(HostPlugin);
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
        let join = |code: &str| {
            let url = format!("ws://{addr}/ws/{code}");
            runtime.block_on(tokio_tungstenite::connect_async(url)).expect("a page").0
        };
        let mut page = join(&player);
        step_until(&mut app, &runtime, &mut page, |m| m["kind"] == "view");
        // The GM opens the Thornwood ambush (two seats) in the same window.
        let thornwood = crate::rulesets::parse(include_str!("../../assets/scenarios/fast_slow_ambush.ron"))
            .expect("the Thornwood parses");
        thornwood.start(app.world_mut(), thornwood.seed(), thornwood.default_limit(), false);
        let closed = (0..2_000).any(|_| {
            app.update();
            let wait = std::time::Duration::from_millis(5);
            let next = runtime.block_on(async { tokio::time::timeout(wait, page.next()).await });
            matches!(
                next,
                Ok(None | Some(Err(_)) | Some(Ok(tokio_tungstenite::tungstenite::Message::Close(_))))
            )
        });
        assert!(closed, "the old fight's page was closed");
        let host = app.world().resource::<Host>();
        let names: Vec<&str> = host.seats.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["Player 1", "Player 2", "The table"], "the new fight's seats");
        assert_eq!(host.seats[0].code, player, "Player 1's link is the same");
        assert_eq!(host.seats[2].code, table, "the overlay's link is the same");
        assert_ne!(host.seats[1].code, player, "Player 2 has a link of its own");
        let mut again = join(&player);
        let view = step_until(&mut app, &runtime, &mut again, |m| m["kind"] == "view");
        assert_eq!(view["scenario"], "Ambush in the Thornwood", "the page came back to the new fight");
    }

    #[test]
    fn ending_a_seats_access_closes_its_link_and_gives_it_a_new_one() {
        let mut host = host();
        assert_eq!(host.seats.len(), 2, "Anna's seat and the table's");
        assert!(host.url(&host.seats[1]).contains("/overlay/"), "the table's seat is the overlay");
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
        let old = host.seats[0].code.clone();
        assert!(runtime.block_on(opens(&host, &old)), "the seat's link admits");
        assert!(!runtime.block_on(opens(&host, "nobody")), "an unknown code does not");
        host.end_access(0).expect("access ended");
        let new = host.seats[0].code.clone();
        assert_ne!(new, old);
        assert!(!runtime.block_on(opens(&host, &old)), "the old link no longer admits");
        assert!(runtime.block_on(opens(&host, &new)), "the new one does");
        assert!(runtime.block_on(opens(&host, &host.seats[1].code)), "the other seats keep theirs");
    }
}
