//! The players' seats in the editor: who plays each combatant (the GM, a seat, the AI; one,
//! or the whole side at once), and the seats themselves, added, named and removed.

use bevy::prelude::*;
use bevy_egui::egui;
use bevy_egui::egui::RichText;
use fray_core::edit::ScenarioEdit;
use fray_core::ids::{CombatantId, SeatId};
use fray_core::prelude::{Controller, Seats, SideIndex, TableIndex};

use super::state::EditAsk;

/// "Played by": the GM, each seat, the AI; and the same for everyone on the combatant's side.
pub(super) fn played_by(
    ui: &mut egui::Ui,
    world: &World,
    who: Entity,
    id: &CombatantId,
    asks: &mut Vec<EditAsk>,
) {
    let controller = world.get::<Controller>(who).cloned().unwrap_or_default();
    let seats = world.get_resource::<Seats>().cloned().unwrap_or_default();
    ui.horizontal_wrapped(|ui| {
        ui.label("Played by:");
        for choice in seats.choices() {
            if ui.radio(choice == controller, seats.who(&choice)).clicked() && choice != controller {
                asks.push(EditAsk::Edit(vec![ScenarioEdit::SetController {
                    id: id.clone(),
                    controller: choice,
                }]));
            }
        }
    });
    let side = world.get::<SideIndex>(who).copied();
    let index = world.resource::<TableIndex>();
    let others: Vec<ScenarioEdit> = index
        .order
        .iter()
        .filter(|&&e| world.get::<SideIndex>(e).copied() == side)
        .filter(|&&e| world.get::<Controller>(e) != Some(&controller))
        .map(|&e| ScenarioEdit::SetController {
            id: fray_core::table::id(world, e),
            controller: controller.clone(),
        })
        .collect();
    let words = format!("Whole side played by {}", seats.who(&controller));
    if ui.add_enabled(!others.is_empty(), egui::Button::new(words)).clicked() {
        asks.push(EditAsk::Edit(others));
    }
}

/// The seats: each player's name (typed in place) and whom they play, removed with ×; and
/// a button for another seat.
pub(super) fn seats_form(ui: &mut egui::Ui, world: &World, asks: &mut Vec<EditAsk>) {
    let seats = world.get_resource::<Seats>().cloned().unwrap_or_default();
    let header = egui::CollapsingHeader::new(format!("Players' seats ({})", seats.0.len())).id_salt("seats");
    header.show(ui, |ui| {
        for (id, name) in &seats.0 {
            ui.horizontal(|ui| {
                name_field(ui, id, name, asks);
                let delete = ui.small_button(RichText::new("×").color(egui::Color32::LIGHT_RED));
                if delete
                    .on_hover_text("Remove the seat: its combatants go back to the GM or the AI")
                    .clicked()
                {
                    asks.push(EditAsk::Edit(vec![ScenarioEdit::DeleteSeat { id: id.clone() }]));
                }
            });
            ui.label(format!("plays {}", played(world, id)));
        }
        if ui.button("Add a seat").clicked() {
            asks.push(EditAsk::Edit(vec![ScenarioEdit::AddSeat]));
        }
    });
}

/// A seat's player name: the draft is kept while it is typed, and written once the field is
/// left or Enter pressed.
fn name_field(ui: &mut egui::Ui, id: &SeatId, name: &str, asks: &mut Vec<EditAsk>) {
    let key = egui::Id::new(("seat name", id.as_str()));
    let mut text = ui.data(|d| d.get_temp::<String>(key)).unwrap_or_else(|| name.to_owned());
    let field = ui.add(egui::TextEdit::singleline(&mut text).desired_width(140.0).id_salt(key));
    if field.changed() {
        ui.data_mut(|d| d.insert_temp(key, text.clone()));
    }
    if field.lost_focus() {
        ui.data_mut(|d| d.remove::<String>(key));
        if text.trim() != name && !text.trim().is_empty() {
            asks.push(EditAsk::Edit(vec![ScenarioEdit::RenameSeat { id: id.clone(), name: text }]));
        }
    }
}

/// The names of the combatants a seat plays, or "nobody yet".
fn played(world: &World, seat: &SeatId) -> String {
    let index = world.resource::<TableIndex>();
    let names: Vec<String> = index
        .order
        .iter()
        .filter(|&&e| matches!(world.get::<Controller>(e), Some(Controller::Player(s)) if s == seat))
        .map(|&e| fray_core::table::name(world, e))
        .collect();
    if names.is_empty() { "nobody yet".to_owned() } else { names.join(", ") }
}
