//! The pages the host serves, plain HTML with their scripts inline: no build step, no
//! request beyond the host.

/// The host's root: where to go instead.
pub const HOME: &str = "<!doctype html><meta charset=utf-8><meta name=viewport content='width=device-width'>\
<title>Fray</title><body style='font:20px system-ui;padding:24px'>This is a Fray table. \
Open the link (or scan the code) your GM gives you for your seat.</body>";
/// A player's page: the seat's view, its choices as buttons.
pub const SEAT: &str = include_str!("pages/seat.html");
/// The stream's overlay: the table's view on a transparent page.
pub const OVERLAY: &str = include_str!("pages/overlay.html");
