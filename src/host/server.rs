//! The network side of the host: axum on a tokio runtime of its own thread. It serves the
//! pages and each seat's WebSocket; it knows seats only by their codes, reads and limits what
//! pages send, and hands well-formed asks to the Bevy world through a bounded channel. The
//! world answers each page through the page's own bounded channel and publishes each seat's
//! view in a `watch` (only the latest view is kept: a slow page never holds the world up).

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::serve::ListenerExt;
use tokio::sync::{mpsc, oneshot, watch};

use super::pages;
use super::protocol::{self, FromPage, MAX_MESSAGE, MAX_PER_SECOND, SeatMessage, ToPage, VERSION};

/// How many asks from pages may wait for the world.
pub const INBOX: usize = 256;
/// A seat's latest view, as the world publishes it.
pub type Latest = Option<Arc<SeatMessage>>;

/// How many answers may wait for one page.
const REPLIES: usize = 16;

/// An ask from a page, for the world.
#[derive(Debug)]
pub struct Inbound {
    /// The seat's place in the host's list.
    pub seat: usize,
    /// The link's own flag: the world takes the ask only if the seat still has this link
    /// (not after the GM ended its access or opened another fight).
    pub link: Arc<AtomicBool>,
    /// What the page asked.
    pub message: FromPage,
    /// The page's own channel, for the answer.
    pub reply: mpsc::Sender<String>,
}

/// One seat as the network side knows it.
#[derive(Clone)]
pub struct SeatLink {
    /// Its place in the host's list.
    pub index: usize,
    /// The spectator's seat (the overlay page) rather than a player's.
    pub overlay: bool,
    /// The latest view (none before the first).
    pub view: watch::Receiver<Latest>,
    /// How many pages are connected with its code now.
    pub connected: Arc<AtomicUsize>,
    /// Whether its code still admits anyone (the GM may end a seat's access).
    pub open: Arc<AtomicBool>,
}

/// The seats by code: the world gives a seat a new code when the GM ends its access.
pub type Links = Arc<RwLock<HashMap<String, SeatLink>>>;

/// What every request reads: the seats by code, and the world's inbox.
#[derive(Clone)]
struct Shared {
    seats: Links,
    inbox: mpsc::Sender<Inbound>,
}

impl Shared {
    /// The seat with this code, if any.
    fn seat(&self, code: &str) -> Option<SeatLink> {
        self.seats.read().ok()?.get(code).cloned()
    }
}

/// The running server: stops when dropped (the runtime shut down, its thread joined).
pub struct Server {
    /// Where it listens.
    pub addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Listens on `addr` (port 0: a free one) and serves `seats` (by code) on a thread of its
/// own; asks go to `inbox`.
pub fn start(addr: SocketAddr, seats: Links, inbox: mpsc::Sender<Inbound>) -> Result<Server, String> {
    // Bound here, so that a port in use is told at once and port 0 is known.
    let listener = std::net::TcpListener::bind(addr).map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let addr = listener.local_addr().map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    listener.set_nonblocking(true).map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let shared = Shared { seats, inbox };
    let (stop, stopped) = oneshot::channel();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .enable_time()
        .build()
        .map_err(|e| format!("cannot start the host's runtime: {e}"))?;
    let thread = std::thread::Builder::new()
        .name("fray-host".into())
        .spawn(move || serve(runtime, listener, shared, stopped))
        .map_err(|e| format!("cannot start the host's thread: {e}"))?;
    Ok(Server { addr, stop: Some(stop), thread: Some(thread) })
}

/// The network thread: serves until told to stop, then drops every connection.
fn serve(
    runtime: tokio::runtime::Runtime,
    listener: std::net::TcpListener,
    shared: Shared,
    stopped: oneshot::Receiver<()>,
) {
    runtime.block_on(async move {
        let listener = match tokio::net::TcpListener::from_std(listener) {
            // Small messages go at once (no 40 ms wait for an acknowledgement).
            Ok(l) => l.tap_io(|stream| {
                let _ = stream.set_nodelay(true);
            }),
            Err(e) => {
                bevy::log::error!("the host cannot listen: {e}");
                return;
            }
        };
        let app = Router::new()
            .route("/", get(home))
            .route("/seat/{code}", get(seat_page))
            .route("/overlay/{code}", get(overlay_page))
            .route("/ws/{code}", get(socket))
            .with_state(shared);
        tokio::select! {
            served = axum::serve(listener, app) => {
                if let Err(e) = served {
                    bevy::log::error!("the host stopped: {e}");
                }
            }
            _ = stopped => {}
        }
    });
    runtime.shutdown_timeout(Duration::from_millis(500));
}

async fn home() -> Html<&'static str> {
    Html(pages::HOME)
}

/// A seat's code as a page may use it: known, open, and of the kind asked.
fn admit(shared: &Shared, code: &str, overlay: bool) -> Result<SeatLink, (StatusCode, &'static str)> {
    match shared.seat(code) {
        Some(link) if link.overlay == overlay && link.open.load(Ordering::Relaxed) => Ok(link),
        Some(link) if link.overlay == overlay => {
            Err((StatusCode::FORBIDDEN, "The GM has ended this seat's access."))
        }
        _ => Err((StatusCode::NOT_FOUND, "No seat has this code: ask the GM for your link.")),
    }
}

async fn seat_page(State(shared): State<Shared>, Path(code): Path<String>) -> Response {
    match admit(&shared, &code, false) {
        Ok(_) => ([(header::CACHE_CONTROL, "no-store")], Html(pages::SEAT)).into_response(),
        Err(refused) => refused.into_response(),
    }
}

async fn overlay_page(State(shared): State<Shared>, Path(code): Path<String>) -> Response {
    match admit(&shared, &code, true) {
        Ok(_) => ([(header::CACHE_CONTROL, "no-store")], Html(pages::OVERLAY)).into_response(),
        Err(refused) => refused.into_response(),
    }
}

async fn socket(
    State(shared): State<Shared>,
    Path(code): Path<String>,
    upgrade: WebSocketUpgrade,
) -> Response {
    let link = match shared.seat(&code) {
        Some(link) if link.open.load(Ordering::Relaxed) => link,
        _ => return (StatusCode::NOT_FOUND, "No seat has this code.").into_response(),
    };
    // Larger messages than the protocol reads are answered, not cut off: up to 4 times over.
    upgrade.max_message_size(MAX_MESSAGE * 4).on_upgrade(move |socket| connected(socket, link, shared.inbox))
}

/// One page's connection: its seat's views out, its asks in, until either side goes.
async fn connected(mut socket: WebSocket, link: SeatLink, inbox: mpsc::Sender<Inbound>) {
    link.connected.fetch_add(1, Ordering::Relaxed);
    let (reply, mut replies) = mpsc::channel::<String>(REPLIES);
    let mut view = link.view.clone();
    let mut window = (Instant::now(), 0u32);
    // The whole view at once, on connecting (and reconnecting); then each that differs
    // from the last one sent.
    let mut sent = view.borrow_and_update().clone();
    let mut going = match &sent {
        Some(first) => socket.send(Message::Text(first.text().into())).await.is_ok(),
        None => true,
    };
    let mut check = tokio::time::interval(Duration::from_millis(500));
    while going && link.open.load(Ordering::Relaxed) {
        // Biased, answers first: the world queues an ask's answer before it publishes the
        // view that ask led to, so the page reads "taken" before the view it made.
        going = tokio::select! {
            biased;
            Some(answer) = replies.recv() => socket.send(Message::Text(answer.into())).await.is_ok(),
            changed = view.changed() => match changed {
                Ok(()) => {
                    let now = view.borrow_and_update().clone();
                    match now {
                        Some(now) if sent.as_deref() != Some(&*now) => {
                            let text = now.text();
                            sent = Some(now);
                            socket.send(Message::Text(text.into())).await.is_ok()
                        }
                        _ => true,
                    }
                }
                Err(_) => false,
            },
            received = socket.recv() => match received {
                Some(Ok(Message::Text(text))) => {
                    let answer = take(&link, text.as_str(), &mut window, &inbox, &reply);
                    match answer {
                        Some(refusal) => socket.send(Message::Text(refusal.into())).await.is_ok(),
                        None => true,
                    }
                }
                Some(Ok(Message::Binary(_))) => {
                    let refusal = refused("binary messages are not read: send JSON text");
                    socket.send(Message::Text(refusal.into())).await.is_ok()
                }
                Some(Ok(_)) => true,
                Some(Err(_)) | None => false,
            },
            _ = check.tick() => true,
        };
    }
    let _ = socket.send(Message::Close(None)).await;
    link.connected.fetch_sub(1, Ordering::Relaxed);
}

/// A page's message read, limited and handed to the world; the refusal to answer at once,
/// if any.
fn take(
    link: &SeatLink,
    text: &str,
    (since, count): &mut (Instant, u32),
    inbox: &mpsc::Sender<Inbound>,
    reply: &mpsc::Sender<String>,
) -> Option<String> {
    if since.elapsed() >= Duration::from_secs(1) {
        *since = Instant::now();
        *count = 0;
    }
    *count += 1;
    if *count > MAX_PER_SECOND {
        bevy::log::warn!("host: seat {} sent more than {MAX_PER_SECOND} messages in a second", link.index);
        return Some(refused(&format!("more than {MAX_PER_SECOND} messages in a second: slow down")));
    }
    let message = match protocol::read(text) {
        Ok(message) => message,
        Err(why) => {
            bevy::log::warn!("host: seat {}: {why}", link.index);
            return Some(refused(&why));
        }
    };
    if link.overlay {
        return Some(refused("the overlay only watches: it decides nothing"));
    }
    let ask = Inbound { seat: link.index, link: link.open.clone(), message, reply: reply.clone() };
    match inbox.try_send(ask) {
        Ok(()) => None,
        Err(_) => Some(refused("the host is busy: try again in a moment")),
    }
}

/// A refusal as a page reads it.
pub fn refused(reason: &str) -> String {
    ToPage::Refused { v: VERSION, reason: reason.to_owned() }.text()
}
