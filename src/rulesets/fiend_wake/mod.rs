//! Fiend Wake's board adapter: what its board has of its own beyond the generic one. A
//! token dropped on a card enters that location, on a free mount mounts it, on the open
//! field leaves its location; and the cede dialog shows the revealed bids and who is tied.

use bevy::prelude::*;
use bevy_egui::egui::{self, RichText};
use fiend_wake::{FiendWake, FiendWakeIntent, FiendWakePhase, Round};
use fray_core::location::{Location, is_field, place_of};
use fray_core::prelude::Mount;
use fray_core::table::name;

use crate::client::adapter::{BoardAdapter, BoardAsk, DropAnswer, DropPoint};

/// Fiend Wake's board adapter.
pub struct Board;

impl BoardAdapter for Board {
    type Rules = FiendWake;

    fn dropped(world: &World, e: Entity, drop: &DropPoint) -> DropAnswer<FiendWakeIntent> {
        if let Some(mount) = drop.mount.and_then(|m| world.get::<Mount>(m)) {
            return DropAnswer::Send(FiendWakeIntent::Mount { mount: mount.id.clone(), upgrade: false });
        }
        if let Some(location) = drop.card.and_then(|c| world.get::<Location>(c)) {
            return DropAnswer::Send(FiendWakeIntent::EnterLocation {
                location: location.id.clone(),
                upgrade: false,
            });
        }
        match place_of(world, e) {
            Some(place) if !is_field(world, place) => {
                DropAnswer::Send(FiendWakeIntent::Evacuate { upgrade: false })
            }
            // Moving within no location changes no rule: only where the token is drawn.
            _ => DropAnswer::Place,
        }
    }

    fn decision(ui: &mut egui::Ui, world: &World, e: Entity, _asks: &mut Vec<BoardAsk>) {
        if fiend_wake::phase::current(world) == FiendWakePhase::Cede {
            cede(ui, world, e);
        }
    }
}

/// The cede choice after a tie: every bid shown, and who is tied with whom.
fn cede(ui: &mut egui::Ui, world: &World, e: Entity) {
    let Some(round) = world.get_resource::<Round>() else { return };
    let bid = |c: Entity| world.get::<fiend_wake::sheet::RoundChoices>(c).and_then(|c| c.bid);
    let mine = bid(e);
    egui::Frame::group(ui.style()).show(ui, |ui| {
        ui.label(RichText::new("Bids revealed").strong());
        for c in fiend_wake::view::combatants(world).into_iter().filter(|&c| bid(c).is_some()) {
            let tp = bid(c).unwrap_or_default();
            let tie =
                if round.tied.contains(&c) && Some(tp) == mine && c != e { "  (tied with you)" } else { "" };
            ui.label(format!("{}: {tp} TP{tie}", name(world, c)));
        }
    });
    ui.label("A tie: holding acts before those who cede; among equals, Tactics then a draw decides.");
}
