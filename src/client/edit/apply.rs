//! Carries out each [`EditAsk`](super::state::EditAsk), from the form, the keys or the board.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use fray_core::edit::{Placement, ScenarioEdit};
use fray_core::fight::Session;
use fray_core::location::Location;
use fray_core::prelude::{Occupies, TableIndex};

use super::commit::{make, rewrite_text, set_number, step};
use super::files::{new_scenario, save};
use super::input::over_board;
use super::mode::{enter, play};
use super::state::{EditAsk, Editor, Queued, editing};
use crate::client::board::pieces::{Spread, card_at};
use crate::client::camera::view::{BoardArea, BoardCamera};
use crate::client::pointer::pointer_world;

/// Carries out one request.
pub(crate) fn apply(world: &mut World, ask: EditAsk) {
    match ask {
        EditAsk::Toggle if editing(world) => play(world),
        EditAsk::Toggle => enter(world),
        _ if !editing(world) => {}
        EditAsk::Edit(edits) => {
            make(world, edits);
        }
        EditAsk::DeleteLocation(id) => {
            let place = world.resource::<TableIndex>().location(&id);
            let mut occupying = world.query::<&Occupies>();
            let people = occupying.iter(world).filter(|o| Some(o.0) == place).count();
            let name = place.and_then(|e| world.get::<Location>(e)).map(|l| l.name.clone());
            if people == 0 {
                make(world, vec![ScenarioEdit::DeleteLocation { id }]);
            } else {
                world.resource_mut::<Editor>().confirm_delete = Some((id, name.unwrap_or_default(), people));
            }
        }
        EditAsk::ConfirmDelete(yes) => {
            if let Some((id, ..)) = world.resource_mut::<Editor>().confirm_delete.take()
                && yes
            {
                make(world, vec![ScenarioEdit::DeleteLocation { id }]);
            }
        }
        EditAsk::AddLocation => {
            let point = add_point(world);
            let at = world.resource::<Spread>().back(point).round();
            make(world, vec![ScenarioEdit::AddLocation { at: (at.x, at.y) }]);
        }
        EditAsk::PickTemplate(n) => world.resource_mut::<Editor>().template_pick = n,
        EditAsk::PickSide(n) => world.resource_mut::<Editor>().side_pick = n,
        EditAsk::AddPiece => add_piece(world),
        EditAsk::WordsDraft(draft) => world.resource_mut::<Editor>().words_draft = draft,
        EditAsk::SheetDraft(draft) => world.resource_mut::<Editor>().sheet_draft = draft,
        EditAsk::SetSheet { who, sheet } => {
            let rewrite = |text: &str| crate::lab::sweep::set_sheet_text(text, &who, &sheet);
            rewrite_text(world, rewrite, format!("{who}'s sheet rewritten"));
        }
        EditAsk::AddScenery(kind) => {
            let point = add_point(world);
            let point = world.resource::<Spread>().back(point);
            let unit =
                crate::client::board::pieces::to_unit(&crate::client::board::pieces::space(world), point);
            let at = ((unit[0] * 10.0).round() / 10.0, (unit[1] * 10.0).round() / 10.0);
            if !make(world, vec![ScenarioEdit::AddScenery { kind: kind.clone(), at }]) {
                return;
            }
            // The new piece, last of its kind, is selected.
            let pieces =
                world.get_resource::<Session>().map(|s| s.scenario.round_scenery().0).unwrap_or_default();
            let last = pieces.iter().filter(|p| p.kind == kind).map(|p| p.index).max();
            world.resource_mut::<super::scenery::SceneryEdit>().picked = last.map(|index| (kind, index));
        }
        EditAsk::PickScenery(picked) => world.resource_mut::<super::scenery::SceneryEdit>().picked = picked,
        EditAsk::Undo => step(world, true),
        EditAsk::Redo => step(world, false),
        EditAsk::Save => save(world, None),
        EditAsk::SaveAs(path) => save(world, Some(PathBuf::from(path.trim()))),
        EditAsk::New(ruleset, path) => new_scenario(world, &ruleset, &path),
        EditAsk::Tool(tool) => world.resource_mut::<Editor>().tool = tool,
        EditAsk::BothWays(both) => world.resource_mut::<Editor>().both_ways = both,
        EditAsk::NameDraft(draft) => world.resource_mut::<Editor>().name_draft = draft,
        EditAsk::PathDraft(path) => world.resource_mut::<Editor>().path_draft = path,
        EditAsk::NewRuleset(id) => world.resource_mut::<Editor>().new_ruleset = id,
        EditAsk::NameFocused => world.resource_mut::<Editor>().focus_name = false,
        EditAsk::Rename => world.resource_mut::<Editor>().focus_name = true,
        EditAsk::Typing(typing) => world.resource_mut::<Editor>().typing = typing,
        EditAsk::NumberDraft(draft) => world.resource_mut::<Editor>().number_draft = draft,
        EditAsk::SetNumber { who, field, value } => {
            world.resource_mut::<Editor>().number_draft = None;
            set_number(world, &who, &field, value);
        }
    }
}

/// The picked template added as a combatant (on the picked side) or a mount, where
/// [`add_point`] says: on the card there, else at that point of the field.
fn add_piece(world: &mut World) {
    let editor = world.resource::<Editor>();
    let Some(template) =
        editor.templates.as_ref().and_then(|(_, list)| list.get(editor.template_pick)).cloned()
    else {
        return;
    };
    // The picked side, or the first where the scenario has fewer sides now.
    let sides = &world.resource::<TableIndex>().sides;
    let side = sides.get(editor.side_pick).or(sides.first()).map(|(id, _)| id.clone());
    let point = add_point(world);
    let card = card_at(point, &crate::client::board::pieces::card_rects(world));
    let at = match card.and_then(|c| world.get::<Location>(c)) {
        Some(location) => Placement::Location(location.id.clone()),
        None => {
            let unit = crate::client::board::pieces::to_unit(
                &crate::client::board::pieces::space(world),
                world.resource::<Spread>().back(point),
            );
            Placement::Field((unit[0].round(), unit[1].round()))
        }
    };
    let (spec, rules) = (template.piece.spec, template.piece.rules);
    let edit = match (template.piece.mount, side) {
        (true, _) => ScenarioEdit::AddMount { spec, rules, at },
        (false, Some(side)) => ScenarioEdit::AddCombatant { spec, rules, side, at },
        (false, None) => return,
    };
    make(world, vec![edit]);
}

/// Where something added goes: under the pointer when it is on the board, else the middle
/// of the view; as drawn (spread with the cards, [`Spread`]).
fn add_point(world: &mut World) -> Vec2 {
    let mut windows = world.query_filtered::<&Window, With<PrimaryWindow>>();
    let cursor = windows.iter(world).next().and_then(Window::cursor_position);
    let area = *world.resource::<BoardArea>();
    let on_board = cursor.filter(|p| over_board(world, &area, *p));
    let mut cameras = world.query_filtered::<(&Camera, &GlobalTransform), With<BoardCamera>>();
    let Some(camera) = cameras.iter(world).next() else { return Vec2::ZERO };
    on_board.and_then(|p| pointer_world(&camera, p)).unwrap_or_else(|| camera.1.translation().truncate())
}

/// Makes what the observers queued.
pub(super) fn make_queued(world: &mut World) {
    let asks = std::mem::take(&mut world.resource_mut::<Queued>().0);
    for ask in asks {
        apply(world, ask);
    }
}
