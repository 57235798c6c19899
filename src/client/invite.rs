//! "Invite players": the host in the GM's window (`--serve`, or the top bar's button). A
//! window lists each seat's link with its QR code, who is connected, and a way to end a
//! seat's access; the overlay's link for streaming software below.

use bevy::prelude::*;
use bevy_egui::egui::{self, RichText};
use fray_core::prelude::Controller;
use fray_core::seat::Seat;

use super::options::PlayOptions;
use super::order::{Opening, Step};
use crate::host::{DEFAULT_ADDR, Host, HostPlugin, HostSeat, HostStep};

/// The invite window: open or not, and what went wrong starting the host.
#[derive(Resource, Default)]
pub struct Invite {
    /// The window is shown.
    pub open: bool,
    /// Why the host could not start, for the GM.
    pub problem: Option<String>,
}

/// What the GM asked of the host.
#[derive(Clone, Debug, PartialEq)]
pub enum InviteAsk {
    /// Show or hide the window (starting the host the first time).
    Toggle,
    /// End the access of the seat at this place in the host's list.
    EndAccess(usize),
    /// Hand the combatants of the seat at this place to another controller (a dropped
    /// phone: to the AI or the GM).
    HandTo(usize, Controller),
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Invite>()
        .add_plugins(HostPlugin)
        // The pages' choices right where the board's drops and the AI's are; the views once
        // the frame is done with.
        .configure_sets(Update, (Step::Ai, HostStep::TakeAsks).chain())
        .configure_sets(Update, (Step::Ruleset, HostStep::Publish).chain())
        .add_systems(Startup, serve_at_start.after(Opening::TableWindow));
}

/// `--serve`: the host from the start, its window open.
fn serve_at_start(world: &mut World) {
    if let Some(addr) = world.resource::<PlayOptions>().serve {
        start(world, addr);
    }
}

/// Starts the host on `addr`, its codes kept in the data folder, and opens the window.
fn start(world: &mut World, addr: std::net::SocketAddr) {
    let options = world.resource::<PlayOptions>();
    let dir = options.data_dir.clone().or_else(crate::session::data_dir);
    let started = Host::start(world, addr, dir.as_deref());
    let mut invite = world.resource_mut::<Invite>();
    invite.open = true;
    match started {
        Ok(host) => {
            info!("serving on {}", host.base);
            invite.problem = None;
            world.insert_resource(host);
        }
        Err(why) => invite.problem = Some(why),
    }
}

/// Carries out what the GM asked.
pub fn apply(world: &mut World, ask: InviteAsk) {
    match ask {
        InviteAsk::Toggle if !world.contains_resource::<Host>() => match DEFAULT_ADDR.parse() {
            Ok(addr) => start(world, addr),
            Err(e) => world.resource_mut::<Invite>().problem = Some(format!("{DEFAULT_ADDR}: {e}")),
        },
        InviteAsk::Toggle => {
            let mut invite = world.resource_mut::<Invite>();
            invite.open = !invite.open;
        }
        InviteAsk::EndAccess(index) => {
            let ended = world.get_resource_mut::<Host>().map(|mut host| host.end_access(index));
            if let Some(Err(why)) = ended {
                world.resource_mut::<Invite>().problem = Some(why);
            }
        }
        InviteAsk::HandTo(index, to) => hand_to(world, index, to),
    }
}

/// Gives the combatants of the host's seat at `index` to `to`, as the sheet's controller
/// picker does (the rules note the change in the fight's record).
fn hand_to(world: &mut World, index: usize, to: Controller) {
    let seat = world.get_resource::<Host>().and_then(|h| h.seats.get(index)).map(|s| s.seat.clone());
    let Some(Seat::Player(id)) = seat else { return };
    let theirs = Controller::Player(id);
    let mut all = world.query::<(Entity, &Controller)>();
    let handed: Vec<Entity> = all.iter(world).filter(|(_, c)| **c == theirs).map(|(e, _)| e).collect();
    for e in handed {
        world.entity_mut(e).insert(to.clone());
    }
    // What each seat sees depends on who controls whom.
    world.resource_mut::<super::audience::Viewer>().set_changed();
}

/// The top bar's button.
pub fn button(ui: &mut egui::Ui, world: &World, asks: &mut Vec<InviteAsk>) {
    let serving = world.get_resource::<Host>().map(|h| h.seats.iter().filter(|s| s.connected() > 0).count());
    let label = match serving {
        Some(n) => format!("Players ({n} in)"),
        None => "Invite players".to_owned(),
    };
    let hint = "Each player decides on their phone; the stream gets an overlay page";
    if ui.button(label).on_hover_text(hint).clicked() {
        asks.push(InviteAsk::Toggle);
    }
}

/// The invite window, when open.
pub fn window(ctx: &egui::Context, world: &World, asks: &mut Vec<InviteAsk>) {
    let invite = world.resource::<Invite>();
    if !invite.open {
        return;
    }
    let mut open = true;
    let window = egui::Window::new("Invite players").open(&mut open).default_width(560.0).vscroll(true);
    window.default_pos(egui::pos2(300.0, 120.0)).show(ctx, |ui| {
        if let Some(problem) = &invite.problem {
            ui.colored_label(egui::Color32::LIGHT_RED, problem);
        }
        let Some(host) = world.get_resource::<Host>() else { return };
        ui.label("Each player opens their seat's link (or scans its code) on a phone on this network.");
        for (index, seat) in host.seats.iter().enumerate() {
            ui.separator();
            seat_row(ui, host, seat, index, asks);
        }
        ui.separator();
        ui.small("Plain HTTP, for the local network only: anyone with a link can use that seat.");
    });
    if !open {
        asks.push(InviteAsk::Toggle);
    }
}

/// One seat: its name, who is in, its link and code, and the way to end its access.
fn seat_row(ui: &mut egui::Ui, host: &Host, seat: &HostSeat, index: usize, asks: &mut Vec<InviteAsk>) {
    let url = host.url(seat);
    ui.horizontal(|ui| {
        qr(ui, &url, 132.0);
        ui.vertical(|ui| {
            let overlay = seat.seat == Seat::Table;
            let title = if overlay {
                "Overlay for the stream (the table's view)".to_owned()
            } else {
                seat.name.clone()
            };
            ui.label(RichText::new(title).strong().size(18.0));
            let (dot, colour) = match seat.connected() {
                0 => ("not connected".to_owned(), egui::Color32::GRAY),
                n => (format!("connected ({n})"), egui::Color32::LIGHT_GREEN),
            };
            ui.colored_label(colour, dot);
            ui.add(egui::Label::new(RichText::new(&url).monospace()).selectable(true));
            if overlay {
                ui.small("In OBS: a Browser source, 1920x1080; ?layout=top or ?layout=side moves it.");
            }
            ui.horizontal(|ui| {
                if ui.button("End access").on_hover_text("Close its pages and give it a new link").clicked() {
                    asks.push(InviteAsk::EndAccess(index));
                }
                if overlay {
                    return;
                }
                let hint = "A dropped phone: its combatants decide by the AI (or at the GM's mouse)";
                if ui.button("Hand to the AI").on_hover_text(hint).clicked() {
                    asks.push(InviteAsk::HandTo(index, Controller::Ai));
                }
                if ui.button("Hand to the GM").on_hover_text(hint).clicked() {
                    asks.push(InviteAsk::HandTo(index, Controller::Gm));
                }
            });
        });
    });
}

/// `text` as a QR code, `side` points square.
fn qr(ui: &mut egui::Ui, text: &str, side: f32) {
    let (rect, _) = ui.allocate_exact_size(egui::vec2(side, side), egui::Sense::hover());
    let Ok(code) = qrcode::QrCode::new(text.as_bytes()) else { return };
    let width = code.width();
    let colours = code.to_colors();
    // A quiet zone of two modules round it.
    let cell = side / (width + 4) as f32;
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 0.0, egui::Color32::WHITE);
    for (i, colour) in colours.iter().enumerate() {
        if *colour == qrcode::Color::Dark {
            let (x, y) = ((i % width + 2) as f32, (i / width + 2) as f32);
            let at = rect.min + egui::vec2(x * cell, y * cell);
            painter.rect_filled(
                egui::Rect::from_min_size(at, egui::vec2(cell, cell)),
                0.0,
                egui::Color32::BLACK,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use fray_core::ruleset::{FightResult, open_record};
    use fray_core::session::IntentHistory;
    use fray_core::testing::log_of;

    use super::super::audience::Viewer;
    use super::*;

    /// Player 1's phone drops at the ford while the rules wait on Brann: the GM hands the
    /// seat to the AI, which plays on for him, and the fight's record (the AI's choices
    /// before, the change of hands at its place, the AI's for Brann after) replays onto a
    /// fresh table to the same log, Brann the AI's at its end.
    #[test]
    fn a_seat_handed_to_the_ai_plays_on_and_its_fight_replays_exactly() {
        let text = include_str!("../../assets/scenarios/fast_slow_crossing.ron");
        let scenario = crate::rulesets::parse(text).expect("the ford parses");
        let (seed, limit) = (scenario.seed(), scenario.default_limit());
        let mut app = scenario.table_app(seed, limit, false);
        let host =
            Host::start(app.world(), "127.0.0.1:0".parse().expect("an address"), None).expect("a host");
        app.insert_resource(host).insert_resource(Viewer::default()).add_plugins(HostPlugin);
        app.update();
        let brann = app.world().resource::<fray_core::prelude::TableIndex>().combatant(&"brann".into());
        let brann = brann.expect("Brann");
        let rules = fray_core::fight::ruleset(app.world()).expect("a fight");
        assert_eq!(rules.awaiting(app.world()), vec![brann], "the rules wait on Brann's phone alone");
        let before = app.world().resource::<IntentHistory>().entries.len();
        apply(app.world_mut(), InviteAsk::HandTo(0, Controller::Ai));
        for _ in 0..100 {
            app.update();
            if app.world().contains_resource::<FightResult>() {
                break;
            }
        }
        assert!(app.world().contains_resource::<FightResult>(), "the AI played the fight out");
        let history = app.world().resource::<IntentHistory>().clone();
        let handed = history.controller_changes.iter().find(|c| c.combatant.as_str() == "brann");
        let handed = handed.expect("the change of hands is in the record");
        assert_eq!((handed.at, &handed.controller), (before, &Controller::Ai), "at its place");
        let his = history.entries[before..].iter().filter(|r| r.accepted && r.actor.as_str() == "brann");
        assert!(his.count() > 0, "the AI decided for Brann after");
        let mut fresh = scenario.table_app(seed, limit, false);
        let replayed = open_record(
            fresh.world_mut(),
            scenario.ruleset().as_ref(),
            &|w| scenario.rebuild(w, seed, limit, false),
            &history.start,
            &history.entries,
            &history.controller_changes,
        );
        assert!(replayed.stopped.is_none(), "every recorded intent replays: {}", replayed.message());
        assert!(log_of(&app) == log_of(&fresh), "the replay gives the same log");
        let index = fresh.world().resource::<fray_core::prelude::TableIndex>();
        let again = index.combatant(&"brann".into()).and_then(|e| fresh.world().get::<Controller>(e));
        assert_eq!(again, Some(&Controller::Ai), "and Brann is the AI's after it, as at the table");
    }
}
