//! The editor's keys: Delete, Escape, arrows and Ctrl+Z, Ctrl+Y, Ctrl+S.

use bevy::prelude::*;
use bevy_egui::egui;
use fray_core::edit::ScenarioEdit;
use fray_core::ids::LocationId;
use fray_core::location::{EnteredFrom, Location, OpenField};

use super::state::{CardTool, EditAsk, Editor, Queued};
use crate::client::board::pieces::Selection;
use crate::client::pointer::EditMode;

/// The editor's keys: none while a text field has the keyboard, nor in the frame it lets
/// go of it (keys typed quickly after a name and its Enter arrive in one frame: they were
/// the field's, not commands).
pub(super) fn keys(ctx: &egui::Context, world: &World, asks: &mut Vec<EditAsk>) {
    let editor = world.resource::<Editor>();
    if ctx.egui_wants_keyboard_input() || editor.typing {
        return;
    }
    let selection = *world.resource::<Selection>();
    ctx.input(|i| {
        // Ctrl+Z, Ctrl+Y and Ctrl+S are read in order by `ctrl_keys`.
        if i.modifiers.command {
            return;
        }
        if i.key_pressed(egui::Key::A) && crate::client::board::pieces::space(world).locations {
            asks.push(EditAsk::AddLocation);
        }
        if i.key_pressed(egui::Key::T) {
            asks.push(EditAsk::AddPiece);
        }
        if i.key_pressed(egui::Key::C) {
            let tool = if editor.tool == CardTool::Connect { CardTool::Move } else { CardTool::Connect };
            asks.push(EditAsk::Tool(tool));
        }
        let combatant = selection.combatant.filter(|&e| world.get_entity(e).is_ok());
        let location = selection
            .location
            .filter(|&p| world.get::<OpenField>(p).is_none())
            .and_then(|p| world.get::<Location>(p).map(|l| (p, l.id.clone())));
        if i.key_pressed(egui::Key::D)
            && let Some(who) = combatant
        {
            asks.push(EditAsk::Edit(vec![ScenarioEdit::CopyCombatant {
                id: fray_core::table::id(world, who),
            }]));
        }
        if let Some((place, id)) = location {
            if i.key_pressed(egui::Key::R) {
                asks.push(EditAsk::Rename);
            }
            if i.key_pressed(egui::Key::N) {
                let field = LocationId::field();
                let from_field = world.get::<EnteredFrom>(place).is_some_and(|f| {
                    f.0.iter().any(|&s| world.get::<Location>(s).is_some_and(|l| l.id == field))
                });
                asks.push(EditAsk::Edit(vec![ScenarioEdit::SetEntry {
                    from: field,
                    to: id.clone(),
                    allowed: !from_field,
                }]));
            }
            if i.key_pressed(egui::Key::Delete) {
                asks.push(EditAsk::DeleteLocation(id));
            }
        } else if let Some(who) = combatant
            && i.key_pressed(egui::Key::Delete)
        {
            asks.push(EditAsk::Edit(vec![ScenarioEdit::DeleteCombatant {
                id: fray_core::table::id(world, who),
            }]));
        }
    });
}

/// Ctrl+Z, Ctrl+Y and Ctrl+S in edit mode, read key by key in the order they came, so that a
/// Ctrl pressed and let go within one frame still counts (Ctrl+Z and Ctrl+Y are the name
/// field's own while it has the keyboard).
pub(super) fn ctrl_keys(
    mut keys: MessageReader<bevy::input::keyboard::KeyboardInput>,
    mut held: Local<bool>,
    (editor, mode): (Res<Editor>, Res<EditMode>),
    mut queued: ResMut<Queued>,
) {
    for key in keys.read() {
        let down = key.state.is_pressed();
        match key.key_code {
            KeyCode::ControlLeft | KeyCode::ControlRight | KeyCode::SuperLeft | KeyCode::SuperRight => {
                *held = down;
            }
            _ if !(*held && down && mode.0) => {}
            KeyCode::KeyZ if !editor.typing => queued.0.push(EditAsk::Undo),
            KeyCode::KeyY if !editor.typing => queued.0.push(EditAsk::Redo),
            KeyCode::KeyS => queued.0.push(EditAsk::Save),
            _ => {}
        }
    }
}
