//! Edit mode, for any ruleset: the open scenario changed on the board it is played on.
//! Cards are dragged to move them or to draw an arrow from one to another (the location
//! dropped on may then be entered from the dragged one), tokens and mounts are dragged to
//! where they start (a combatant dropped on a mount rides it), arrows are clicked away, and
//! a form beside the board names, prices, sets properties and sheets, adds from templates
//! and deletes.
//!
//! Every edit is a [`ScenarioEdit`] made through the ruleset contract and read back as
//! `fray check` reads a file: a refused edit changes nothing and says why. The table shows
//! the fight at its start, the AI held; undo, redo, saving (atomically, the comments at the
//! top kept) and "Play this" work on whole scenarios. A file changed on disk by a text
//! editor is read again within a second; a broken one is shown in words, the last good
//! version kept on the board.

mod problems;
mod scenery;
mod templates;

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::egui::{self, RichText};
use fray_core::edit::{Placement, ScenarioEdit};
use fray_core::fight::{LoadedScenario, Session};
use fray_core::ids::{CombatantId, LocationId};
use fray_core::location::{EnteredFrom, Location, OpenField};
use fray_core::prelude::{Controller, Occupies, TableIndex};
use fray_core::ruleset::Rulesets;
use fray_core::session::HoldAi;
use fray_core::table::{Mount, Rides};

use super::board::{Card, CardRect, Selection, Spread, TOKEN, Token, arrows, card_at};
use super::camera::{BoardArea, BoardCamera};
use super::drag::{BoardMessage, Grab, pointer_world};
use super::order::Step;
use crate::lab::sweep::SheetNumber;

/// What a card dragged in edit mode does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CardTool {
    /// Moves the card.
    #[default]
    Move,
    /// Draws an arrow from it to the card it is dropped on.
    Connect,
}

/// The editor's state: on or off, the scenarios to go back and forth to, the file.
#[derive(Resource, Default)]
pub struct Editor {
    /// Edit mode is on.
    pub on: bool,
    /// What a card drag does.
    pub tool: CardTool,
    /// Arrows drawn go both ways (as Shift held at the drop does).
    pub both_ways: bool,
    /// Counts the scenarios shown since the window opened (each edit, undo, redo, reload).
    pub revision: u64,
    undo: Vec<LoadedScenario>,
    redo: Vec<LoadedScenario>,
    /// The text last read from or written to the file.
    saved: Option<std::sync::Arc<str>>,
    /// The file's problems when it was last read from disk, if it is broken.
    pub problems: Vec<String>,
    /// The file's modification time and length when last looked at.
    seen: Option<(SystemTime, u64)>,
    /// The fight's autosave, set aside while editing.
    autosave: Option<crate::session::Autosave>,
    /// A location to delete once the person confirms (people stand in it).
    confirm_delete: Option<(LocationId, String, usize)>,
    /// The location name being typed, and for which location.
    name_draft: Option<(LocationId, String)>,
    /// Give the name field the keyboard (a location was just added).
    focus_name: bool,
    /// A text field of the form had the keyboard at the end of the last frame.
    typing: bool,
    /// A sheet number being dragged or typed: who, its path, the value so far.
    number_draft: Option<(String, String, f64)>,
    /// The path typed for "Save as" and "New".
    path_draft: String,
    /// The ruleset picked for a new scenario.
    new_ruleset: String,
    /// The templates of the open scenario's ruleset (its id), read once.
    templates: Option<(&'static str, std::sync::Arc<Vec<templates::Template>>)>,
    /// The template and the side picked for "Add".
    template_pick: usize,
    side_pick: usize,
    /// A property's words being typed: which location, which property, the words so far.
    words_draft: Option<(LocationId, usize, String)>,
    /// A sheet being rewritten as text: whose, and the text so far.
    sheet_draft: Option<(String, String)>,
}

impl Editor {
    /// Whether the scenario differs from the file.
    pub fn unsaved(&self, world: &World) -> bool {
        let text = world.get_resource::<Session>().map(|s| s.scenario.text.clone());
        text.is_some_and(|t| self.saved.as_ref() != Some(&t))
    }

    /// Steps that can be undone and redone.
    pub fn steps(&self) -> (usize, usize) {
        (self.undo.len(), self.redo.len())
    }

    /// Forgets what was typed and not yet set (names, numbers, words, sheets).
    fn drop_drafts(&mut self) {
        self.name_draft = None;
        self.number_draft = None;
        self.words_draft = None;
        self.sheet_draft = None;
    }
}

/// What a person asked of the editor this frame.
#[derive(Clone, Debug)]
pub enum EditAsk {
    /// Edit mode on or off (off: "Play this").
    Toggle,
    /// Make these edits, as one step.
    Edit(Vec<ScenarioEdit>),
    /// Delete a location, asking first if anyone stands in it.
    DeleteLocation(LocationId),
    /// The person answered the question about deleting.
    ConfirmDelete(bool),
    /// A new location at the pointer (the centre of the board when the pointer is not on it).
    AddLocation,
    /// Take back the last edit.
    Undo,
    /// Make the undone edit again.
    Redo,
    /// Write the scenario to its file.
    Save,
    /// Write it to another file, which it then is.
    SaveAs(String),
    /// Write a ruleset's template to a new file and edit it.
    New(String, String),
    /// The card tool.
    Tool(CardTool),
    /// Arrows both ways.
    BothWays(bool),
    /// The name typed so far.
    NameDraft(Option<(LocationId, String)>),
    /// The path typed so far.
    PathDraft(String),
    /// The ruleset picked for a new scenario.
    NewRuleset(String),
    /// The name field took the keyboard.
    NameFocused,
    /// Give the selected location's name field the keyboard.
    Rename,
    /// A text field has the keyboard, or no longer.
    Typing(bool),
    /// A sheet number dragged or typed so far (who, its path, the value).
    NumberDraft(Option<(String, String, f64)>),
    /// The template picked for "Add".
    PickTemplate(usize),
    /// The side picked for "Add".
    PickSide(usize),
    /// Add the picked template (under the pointer when it is on the board).
    AddPiece,
    /// A property's words typed so far.
    WordsDraft(Option<(LocationId, usize, String)>),
    /// A sheet's text typed so far (whose, the text).
    SheetDraft(Option<(String, String)>),
    /// A combatant's or mount's whole sheet rewritten.
    SetSheet {
        /// Whose.
        who: String,
        /// The sheet as the file writes it.
        sheet: String,
    },
    /// A new piece of round scenery of this kind, mid-view.
    AddScenery(String),
    /// The piece of scenery selected (its kind and place in its list), or none.
    PickScenery(Option<(String, usize)>),
    /// One number of a combatant's or mount's sheet (its path as `--vary` names it).
    SetNumber {
        /// The combatant's or mount's id.
        who: String,
        /// The number's path in the sheet.
        field: String,
        /// Its new value.
        value: f64,
    },
}

/// A card being dragged in edit mode.
#[derive(Resource, Default)]
pub struct CardDrag(pub Option<CardDragState>);

/// Where a card drag stands.
#[derive(Clone, Copy, Debug)]
pub struct CardDragState {
    /// The location of the card.
    pub place: Entity,
    /// From the pointer to the card's centre, on the board.
    offset: Vec2,
    /// The pointer, on the board.
    pub at: Vec2,
    /// Drawing an arrow rather than moving.
    pub connect: bool,
}

/// Edits worked out by observers, made by a system with the world at hand.
#[derive(Resource, Default)]
struct Queued(Vec<EditAsk>);

pub(super) fn plugin(app: &mut App) {
    scenery::plugin(app);
    app.init_resource::<Editor>()
        .init_resource::<CardDrag>()
        .init_resource::<Queued>()
        .add_observer(press_card)
        .add_observer(card_drag_start)
        .add_observer(card_drag)
        .add_observer(card_drag_end)
        .add_systems(
            Update,
            (ctrl_keys, click_arrow, scenery::drag_scenery, reload_from_disk, make_queued)
                .chain()
                .in_set(Step::Edits),
        )
        .init_resource::<EditMarks>()
        .init_resource::<problems::ProblemMarks>()
        .init_resource::<problems::Refused>()
        .add_systems(
            Update,
            (
                (problems::find_problem_marks, problems::draw_problem_frames).chain(),
                (find_edit_marks, draw_edit_marks).chain(),
                scenery::draw_picked,
            )
                .chain()
                .in_set(Step::EditorMarks),
        );
}

/// Whether edit mode is on.
pub fn editing(world: &World) -> bool {
    world.get_resource::<Editor>().is_some_and(|e| e.on)
}

/// Turns edit mode on for the scenario on the table: the fight so far is left (its
/// autosave kept, for `--resume`), and the scenario is shown at its start, the AI held.
pub fn enter(world: &mut World) {
    let Some(scenario) = world.get_resource::<Session>().map(|s| s.scenario.clone()) else {
        return;
    };
    let autosave = world.remove_resource::<crate::session::Autosave>();
    let seen = scenario.path.as_deref().and_then(file_stamp);
    {
        let mut editor = world.resource_mut::<Editor>();
        editor.on = true;
        editor.autosave = autosave;
        editor.undo.clear();
        editor.redo.clear();
        editor.problems.clear();
        editor.saved = scenario.path.is_some().then(|| scenario.text.clone());
        editor.seen = seen;
        if editor.path_draft.is_empty() {
            editor.path_draft = scenario.path.as_ref().map(|p| p.display().to_string()).unwrap_or_default();
        }
    }
    *world.resource_mut::<super::chips::AllocationPlan>() = Default::default();
    show(world, scenario);
    world
        .resource_mut::<BoardMessage>()
        .show("Edit mode: the scenario at its start; F2 or \"Play this\" to fight it");
}

/// Leaves edit mode and starts a fight on the scenario as edited ("Play this"); refused
/// while the file on disk is broken.
fn play(world: &mut World) {
    let problems = world.resource::<Editor>().problems.len();
    if problems > 0 {
        world
            .resource_mut::<BoardMessage>()
            .show(format!("The file has {problems} problem(s): fix it before playing (see the editor)"));
        return;
    }
    let Some(scenario) = world.get_resource::<Session>().map(|s| s.scenario.clone()) else {
        return;
    };
    let autosave = {
        let mut editor = world.resource_mut::<Editor>();
        editor.on = false;
        editor.undo.clear();
        editor.redo.clear();
        editor.confirm_delete = None;
        editor.autosave.take()
    };
    let reselect = selected_ids(world);
    scenario.start(world, scenario.seed(), scenario.default_limit(), false);
    reselect_ids(world, reselect);
    world.remove_resource::<HoldAi>();
    if let Some(autosave) = autosave {
        world.insert_resource(autosave);
    }
    world.resource_mut::<Editor>().revision += 1;
    world.resource_mut::<BoardMessage>().show(format!("Playing \"{}\"", scenario.name()));
}

/// Puts `scenario` on the table at its start, the AI held, the selection kept by id.
fn show(world: &mut World, scenario: LoadedScenario) {
    let reselect = selected_ids(world);
    let ruleset = scenario.ruleset().id();
    if world.resource::<Editor>().templates.as_ref().is_none_or(|(id, _)| *id != ruleset)
        && let Some(registry) = world.get_resource::<Rulesets>()
    {
        let list = templates::templates(registry, &scenario);
        let mut editor = world.resource_mut::<Editor>();
        (editor.templates, editor.template_pick) = (Some((ruleset, list)), 0);
    }
    scenario.start(world, scenario.seed(), scenario.default_limit(), false);
    world.insert_resource(HoldAi);
    reselect_ids(world, reselect);
    world.resource_mut::<Editor>().revision += 1;
    world.resource_mut::<problems::Refused>().0 = None;
}

type SelectedIds = (Option<CombatantId>, Option<LocationId>);

fn selected_ids(world: &World) -> SelectedIds {
    let selection = *world.resource::<Selection>();
    let combatant =
        selection.combatant.filter(|&e| world.get_entity(e).is_ok()).map(|e| fray_core::table::id(world, e));
    let location = selection.location.and_then(|e| world.get::<Location>(e)).map(|l| l.id.clone());
    (combatant, location)
}

fn reselect_ids(world: &mut World, (combatant, location): SelectedIds) {
    let index = world.resource::<TableIndex>();
    let selection = Selection {
        combatant: combatant.and_then(|id| index.combatant(&id)),
        location: location.and_then(|id| index.location(&id)),
    };
    *world.resource_mut::<Selection>() = selection;
}

/// Makes `edits` as one step: each through the ruleset and its checks; the first refused
/// one says why and nothing changes.
/// Whether the edits were made.
fn make(world: &mut World, edits: Vec<ScenarioEdit>) -> bool {
    let Some(current) = world.get_resource::<Session>().map(|s| s.scenario.clone()) else {
        return false;
    };
    let Some(registry) = world.get_resource::<Rulesets>().cloned() else { return false };
    let mut next = current.clone();
    for edit in &edits {
        match registry.edit(&next, edit) {
            Ok(edited) => next = edited,
            Err(problems) => {
                refuse(world, current, problems);
                return false;
            }
        }
    }
    let words: Vec<String> = edits.iter().map(ScenarioEdit::describe).collect();
    commit(world, current, next, words.join("; "));
    true
}

/// One number of a sheet set: the text rewritten where the file writes it, then read back
/// through the ruleset's checks (which say when the value is out of its range).
fn set_number(world: &mut World, who: &str, field: &str, value: f64) {
    let rewrite = |text: &str| crate::lab::sweep::set_sheet_number(text, who, field, value);
    rewrite_text(world, rewrite, format!("{who}'s {field} is {value}"));
}

/// The scenario's text rewritten by `rewrite`, read back through the ruleset's checks: shown
/// with `words`, or refused with the reason.
fn rewrite_text(world: &mut World, rewrite: impl Fn(&str) -> Result<String, String>, words: String) {
    let Some(current) = world.get_resource::<Session>().map(|s| s.scenario.clone()) else {
        return;
    };
    let Some(registry) = world.get_resource::<Rulesets>().cloned() else { return };
    let next =
        rewrite(&current.text).map_err(|e| vec![e]).and_then(|text| registry.read_edited(&current, &text));
    match next {
        Ok(next) => commit(world, current, next, words),
        Err(why) => refuse(world, current, why),
    }
}

/// An edit refused: the scenario as it was put back (a card dragged is drawn where it was
/// dropped until then), and the reason shown on the board and at the item.
fn refuse(world: &mut World, current: LoadedScenario, problems: Vec<String>) {
    show(world, current);
    world.resource_mut::<BoardMessage>().show(format!("Refused: {}", problems.join("; ")));
    problems::Refused::set(world, problems);
}

/// Puts the edited scenario `next` on the board, `current` on the undo stack.
fn commit(world: &mut World, current: LoadedScenario, next: LoadedScenario, words: String) {
    let before = world.resource::<TableIndex>().locations.keys().cloned().collect::<Vec<_>>();
    let people = world.resource::<TableIndex>().combatants.keys().cloned().collect::<Vec<_>>();
    {
        let mut editor = world.resource_mut::<Editor>();
        editor.undo.push(current);
        editor.redo.clear();
        editor.drop_drafts();
    }
    show(world, next);
    // A location just added is selected, its name ready to be typed.
    let added =
        world.resource::<TableIndex>().locations.iter().find(|(id, _)| !before.contains(id)).map(|(_, &e)| e);
    if let Some(place) = added {
        *world.resource_mut::<Selection>() = Selection { combatant: None, location: Some(place) };
        world.resource_mut::<Editor>().focus_name = true;
    }
    // So is a combatant just added, its form shown.
    let added = world
        .resource::<TableIndex>()
        .combatants
        .iter()
        .find(|(id, _)| !people.contains(id))
        .map(|(_, &e)| e);
    if let Some(who) = added {
        *world.resource_mut::<Selection>() = Selection { combatant: Some(who), location: None };
    }
    world.resource_mut::<BoardMessage>().show(words);
}

/// Undo (`back`) or redo.
fn step(world: &mut World, back: bool) {
    let Some(current) = world.get_resource::<Session>().map(|s| s.scenario.clone()) else {
        return;
    };
    let target = {
        let mut editor = world.resource_mut::<Editor>();
        let taken = if back { editor.undo.pop() } else { editor.redo.pop() };
        if taken.is_some() {
            if back {
                editor.redo.push(current)
            } else {
                editor.undo.push(current)
            }
            // A draft typed over the scenario undone would bring it back.
            editor.drop_drafts();
        }
        taken
    };
    match target {
        Some(scenario) => {
            show(world, scenario);
            let words = if back { "Undone" } else { "Redone" };
            world.resource_mut::<BoardMessage>().show(words);
        }
        None => {
            let words = if back { "nothing to undo" } else { "nothing to redo" };
            world.resource_mut::<BoardMessage>().show(words);
        }
    }
}

/// Writes the scenario to `path` (its own file when `None`), atomically.
fn save(world: &mut World, path: Option<PathBuf>) {
    let Some(scenario) = world.get_resource::<Session>().map(|s| s.scenario.clone()) else {
        return;
    };
    let Some(path) = path.or(scenario.path.clone()) else {
        world.resource_mut::<BoardMessage>().show("No file yet: type a path and \"Save as\"");
        return;
    };
    match crate::session::write_atomically(&path, scenario.text.as_bytes()) {
        Ok(()) => {
            if let Some(mut session) = world.get_resource_mut::<Session>() {
                session.scenario.path = Some(path.clone());
            }
            let mut editor = world.resource_mut::<Editor>();
            editor.saved = Some(scenario.text.clone());
            editor.seen = file_stamp(&path);
            editor.problems.clear();
            editor.path_draft = path.display().to_string();
            world.resource_mut::<BoardMessage>().show(format!("Saved to {}", path.display()));
        }
        // The work stays on the table and in memory.
        Err(e) => world
            .resource_mut::<BoardMessage>()
            .show(format!("{}: cannot be written ({e}); nothing is lost, try another path", path.display())),
    }
}

/// Writes a ruleset's template to a new file and opens it in edit mode.
fn new_scenario(world: &mut World, ruleset: &str, path: &str) {
    let path = PathBuf::from(path.trim());
    let written = crate::cli::new::write_template(ruleset, &path).and_then(|_| {
        crate::rulesets::load(&path).map_err(|e| e.report(&path.display().to_string()).join("; "))
    });
    match written {
        Ok(scenario) => {
            // The fight on the table is left as entering edit mode leaves it.
            let was_on = editing(world);
            if was_on {
                play_quietly_off(world);
            }
            scenario.start(world, scenario.seed(), scenario.default_limit(), false);
            *world.resource_mut::<Selection>() = Selection::default();
            *world.resource_mut::<super::camera::Framed>() = Default::default();
            enter(world);
        }
        Err(e) => world.resource_mut::<BoardMessage>().show(e),
    }
}

/// Edit mode off without starting a fight (another scenario is about to be opened).
fn play_quietly_off(world: &mut World) {
    let autosave = {
        let mut editor = world.resource_mut::<Editor>();
        editor.on = false;
        editor.autosave.take()
    };
    if let Some(autosave) = autosave {
        world.insert_resource(autosave);
    }
}

/// Carries out one request.
pub(super) fn apply(world: &mut World, ask: EditAsk) {
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
            let unit = super::board::to_unit(&super::board::space(world), point);
            let at = ((unit[0] * 10.0).round() / 10.0, (unit[1] * 10.0).round() / 10.0);
            if !make(world, vec![ScenarioEdit::AddScenery { kind: kind.clone(), at }]) {
                return;
            }
            // The new piece, last of its kind, is selected.
            let pieces =
                world.get_resource::<Session>().map(|s| s.scenario.round_scenery().0).unwrap_or_default();
            let last = pieces.iter().filter(|p| p.kind == kind).map(|p| p.index).max();
            world.resource_mut::<scenery::SceneryEdit>().picked = last.map(|index| (kind, index));
        }
        EditAsk::PickScenery(picked) => world.resource_mut::<scenery::SceneryEdit>().picked = picked,
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
    let card = card_at(point, &super::board::card_rects(world));
    let at = match card.and_then(|c| world.get::<Location>(c)) {
        Some(location) => Placement::Location(location.id.clone()),
        None => {
            let unit =
                super::board::to_unit(&super::board::space(world), world.resource::<Spread>().back(point));
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

/// Whether a window point (logical pixels) lies on the board, between the panels.
fn over_board(world: &mut World, area: &BoardArea, p: Vec2) -> bool {
    let mut windows = world.query_filtered::<&Window, With<PrimaryWindow>>();
    windows.iter(world).next().is_some_and(|window| area.holds(window, p * window.scale_factor()))
}

fn file_stamp(path: &Path) -> Option<(SystemTime, u64)> {
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.modified().ok()?, meta.len()))
}

fn press_card(
    press: On<Pointer<Press>>,
    editor: Res<Editor>,
    cards: Query<(), With<Card>>,
    mut grab: ResMut<Grab>,
) {
    if editor.on && cards.contains(press.entity) {
        grab.0 = true;
    }
}

fn card_drag_start(
    start: On<Pointer<DragStart>>,
    editor: Res<Editor>,
    cards: Query<(&Card, &Transform)>,
    camera: Single<(&Camera, &GlobalTransform), With<BoardCamera>>,
    mut drag: ResMut<CardDrag>,
) {
    let Ok((card, transform)) = cards.get(start.entity) else { return };
    if !editor.on || drag.0.is_some() {
        return;
    }
    let Some(at) = pointer_world(&camera.into_inner(), start.pointer_location.position) else { return };
    drag.0 = Some(CardDragState {
        place: card.0,
        offset: transform.translation.truncate() - at,
        at,
        connect: editor.tool == CardTool::Connect,
    });
}

fn card_drag(
    moved: On<Pointer<Drag>>,
    cards: Query<&Card>,
    spread: Res<Spread>,
    camera: Single<(&Camera, &GlobalTransform), With<BoardCamera>>,
    mut drag: ResMut<CardDrag>,
    mut locations: Query<&mut Location>,
) {
    let Some(state) = drag.0.as_mut().filter(|d| cards.get(moved.entity).is_ok_and(|c| c.0 == d.place))
    else {
        return;
    };
    let Some(at) = pointer_world(&camera.into_inner(), moved.pointer_location.position) else { return };
    state.at = at;
    if !state.connect
        && let Ok(mut location) = locations.get_mut(state.place)
    {
        // Drawn where it is dragged until the edit is made (or refused, which puts it back).
        location.position = spread.back(at + state.offset).into();
    }
}

fn card_drag_end(
    end: On<Pointer<DragEnd>>,
    cards: Query<(&Card, &CardRect)>,
    keys: Res<ButtonInput<KeyCode>>,
    editor: Res<Editor>,
    spread: Res<Spread>,
    locations: Query<(&Location, Option<&EnteredFrom>)>,
    mut drag: ResMut<CardDrag>,
    mut queued: ResMut<Queued>,
    mut message: ResMut<BoardMessage>,
) {
    if !cards.get(end.entity).is_ok_and(|(c, _)| drag.0.is_some_and(|d| d.place == c.0)) {
        return;
    }
    let Some(state) = drag.0.take() else { return };
    let Ok((source, _)) = locations.get(state.place) else { return };
    if !state.connect {
        let to = spread.back(state.at + state.offset).round();
        queued.0.push(EditAsk::Edit(vec![ScenarioEdit::MoveLocation {
            id: source.id.clone(),
            to: (to.x, to.y),
        }]));
        return;
    }
    let rects: Vec<(Entity, Rect)> = cards.iter().map(|(c, r)| (c.0, r.0)).collect();
    let Some(target) = card_at(state.at, &rects).filter(|&t| t != state.place) else { return };
    let Ok((target_location, _)) = locations.get(target) else { return };
    let both = editor.both_ways || keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    // Arrows already there are left as they are.
    let has = |from: Entity, to: Entity| {
        locations.get(to).is_ok_and(|(_, e)| e.is_some_and(|e| e.0.contains(&from)))
    };
    let mut edits = Vec::new();
    for (from, to, f, t) in
        [(state.place, target, source, target_location), (target, state.place, target_location, source)]
            .into_iter()
            .take(if both { 2 } else { 1 })
    {
        if !has(from, to) {
            edits.push(ScenarioEdit::SetEntry { from: f.id.clone(), to: t.id.clone(), allowed: true });
        }
    }
    if edits.is_empty() {
        message.show("That arrow is already there");
    } else {
        queued.0.push(EditAsk::Edit(edits));
    }
}

/// Makes what the observers queued.
fn make_queued(world: &mut World) {
    let asks = std::mem::take(&mut world.resource_mut::<Queued>().0);
    for ask in asks {
        apply(world, ask);
    }
}

/// A drop of a combatant's token in edit mode: where it starts (a card, else the field).
pub(super) fn place_dropped(
    world: &mut World,
    e: Entity,
    card: Option<Entity>,
    field: [f32; 2],
    mount: Option<Entity>,
) {
    let at = match card.and_then(|c| world.get::<Location>(c)) {
        Some(location) => Placement::Location(location.id.clone()),
        None => Placement::Field((field[0].round(), field[1].round())),
    };
    let mount_id = |m: Entity| world.get::<Mount>(m).map(|m| m.id.clone());
    let edit = match (mount_id(e), mount.and_then(mount_id)) {
        (Some(id), _) => ScenarioEdit::PlaceMount { id, at },
        (None, Some(mount)) => ScenarioEdit::Ride { id: fray_core::table::id(world, e), mount },
        (None, None) => ScenarioEdit::PlaceCombatant { id: fray_core::table::id(world, e), at },
    };
    make(world, vec![edit]);
}

/// How near (in window pixels) a click must fall to an arrow to take it away.
const ARROW_REACH: f32 = 10.0;

/// The arrow under a board point, if one is within `reach` board units.
fn arrow_at(world: &mut World, at: Vec2, reach: f32) -> Option<(Entity, Entity, Vec<Vec2>)> {
    let drawn = super::board::card_rects(world).into_iter().collect();
    let mut locations = world.query_filtered::<(Entity, &EnteredFrom), Without<OpenField>>();
    let entered: Vec<(Entity, EnteredFrom)> =
        locations.iter(world).map(|(e, f)| (e, EnteredFrom(f.0.clone()))).collect();
    arrows(&drawn, entered.iter().map(|(e, f)| (*e, f)))
        .into_iter()
        .map(|a| {
            let d = a.2.windows(2).map(|w| distance_to_segment(at, w[0], w[1])).fold(f32::INFINITY, f32::min);
            (a, d)
        })
        .filter(|(_, d)| *d <= reach)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(a, _)| a)
}

fn distance_to_segment(p: Vec2, a: Vec2, b: Vec2) -> f32 {
    let ab = b - a;
    let t = ((p - a).dot(ab) / ab.length_squared().max(1e-6)).clamp(0.0, 1.0);
    p.distance(a + ab * t)
}

/// The board point under the pointer and board units per window pixel, when the pointer
/// is on the board.
fn pointer_on_board(world: &mut World) -> Option<(Vec2, f32)> {
    let mut windows = world.query_filtered::<&Window, With<PrimaryWindow>>();
    let cursor = windows.iter(world).next().and_then(Window::cursor_position)?;
    let area = *world.resource::<BoardArea>();
    if !over_board(world, &area, cursor) {
        return None;
    }
    let mut cameras = world.query_filtered::<(&Camera, &GlobalTransform, &Projection), With<BoardCamera>>();
    let (camera, transform, projection) = cameras.iter(world).next()?;
    let scale = match projection {
        Projection::Orthographic(o) => o.scale,
        _ => 1.0,
    };
    Some((pointer_world(&(camera, transform), cursor)?, scale))
}

/// A click (pressed and released in place) on the empty board near an arrow takes the
/// arrow away.
fn click_arrow(world: &mut World, mut pressed: Local<Option<Vec2>>) {
    if !editing(world) {
        return;
    }
    let buttons = world.resource::<ButtonInput<MouseButton>>();
    let (down, up) = (buttons.just_pressed(MouseButton::Left), buttons.just_released(MouseButton::Left));
    if !down && !up {
        return;
    }
    let Some((at, scale)) = pointer_on_board(world) else {
        *pressed = None;
        return;
    };
    // A quick click may be pressed and released within one frame.
    if down {
        *pressed = Some(at);
    }
    if !up {
        return;
    }
    let Some(from) = pressed.take() else { return };
    let busy = world.resource::<Grab>().0 || world.resource::<CardDrag>().0.is_some();
    if busy || from.distance(at) > 4.0 * scale || card_at(at, &super::board::card_rects(world)).is_some() {
        return;
    }
    let mut tokens = world.query_filtered::<&Transform, With<Token>>();
    if tokens.iter(world).any(|t| t.translation.truncate().distance(at) < TOKEN / 2.0) {
        return;
    }
    let Some((from, to, ..)) = arrow_at(world, at, ARROW_REACH * scale) else { return };
    let id = |e: Entity| world.get::<Location>(e).map(|l| l.id.clone());
    if let (Some(from), Some(to)) = (id(from), id(to)) {
        make(world, vec![ScenarioEdit::SetEntry { from, to, allowed: false }]);
    }
}

/// Reads the scenario file again when a text editor changed it (looked at twice a second).
fn reload_from_disk(world: &mut World, mut last: Local<Option<Duration>>) {
    if !editing(world) {
        return;
    }
    let now = world.resource::<Time<Real>>().elapsed();
    if last.is_some_and(|t| now - t < Duration::from_millis(500)) {
        return;
    }
    *last = Some(now);
    let Some(current) = world.get_resource::<Session>().map(|s| s.scenario.clone()) else { return };
    let Some(path) = current.path.clone() else { return };
    let stamp = file_stamp(&path);
    if stamp.is_none() || world.resource::<Editor>().seen == stamp {
        return;
    }
    world.resource_mut::<Editor>().seen = stamp;
    let shown = path.display().to_string();
    let read = fray_core::scenario::read_text(&path).and_then(|text| {
        let registry = world.resource::<Rulesets>();
        registry.parse(&text).map(|s| (s, text))
    });
    match read {
        Ok((mut scenario, text)) => {
            world.resource_mut::<Editor>().problems.clear();
            if *text == *current.text {
                return;
            }
            scenario.path = Some(path);
            {
                let mut editor = world.resource_mut::<Editor>();
                editor.undo.push(current);
                editor.redo.clear();
                editor.saved = Some(scenario.text.clone());
                editor.name_draft = None;
            }
            show(world, scenario);
            world.resource_mut::<BoardMessage>().show(format!("{shown} changed on disk: read again"));
        }
        Err(e) => {
            world.resource_mut::<Editor>().problems = e.report(&shown);
            world.resource_mut::<BoardMessage>().show(format!(
                "{shown} changed on disk and is broken: the last good version stays on the board"
            ));
        }
    }
}

/// The arrows only edit mode draws, found each frame: (path, colour).
#[derive(Resource, Default)]
struct EditMarks(Vec<(Vec<Vec2>, Color)>);

fn draw_edit_marks(marks: Res<EditMarks>, mut gizmos: Gizmos) {
    for (path, colour) in &marks.0 {
        super::board::draw_path(&mut gizmos, path, *colour);
    }
}

/// In edit mode: the arrow being drawn, and the arrow a click would take away, in red.
fn find_edit_marks(world: &mut World) {
    world.resource_mut::<EditMarks>().0.clear();
    if !editing(world) {
        return;
    }
    let drag = world.resource::<CardDrag>().0;
    let from = drag.filter(|d| d.connect).and_then(|d| {
        let rects = super::board::card_rects(world);
        rects.iter().find(|(e, _)| *e == d.place).map(|(_, r)| (r.center(), d.at))
    });
    let hovered = if drag.is_none() && !world.resource::<Grab>().0 {
        pointer_on_board(world)
            .filter(|(at, _)| card_at(*at, &super::board::card_rects(world)).is_none())
            .and_then(|(at, scale)| arrow_at(world, at, ARROW_REACH * scale))
    } else {
        None
    };
    let mut marks = world.resource_mut::<EditMarks>();
    if let Some((start, end)) = from {
        marks.0.push((vec![start, end], Color::srgb(1.0, 0.85, 0.2)));
    }
    if let Some((.., path)) = hovered {
        marks.0.push((path, Color::srgb(1.0, 0.25, 0.2)));
    }
}

/// The editor's panel (beside the board, in place of the decisions): the tools, the file,
/// the selected location's or combatant's form, and the file's problems.
pub(super) fn panel(ui: &mut egui::Ui, world: &World, asks: &mut Vec<EditAsk>) {
    let editor = world.resource::<Editor>();
    let Some(session) = world.get_resource::<Session>() else { return };
    ui.heading("Editing the scenario");
    let file = session.scenario.path.as_ref().map_or("no file yet".to_owned(), |p| p.display().to_string());
    let unsaved = if editor.unsaved(world) { " · unsaved changes" } else { "" };
    ui.label(format!("{} · {file}{unsaved}", session.scenario.name()));
    if !editor.problems.is_empty() {
        ui.label(
            RichText::new("The file on disk is broken; the board shows the last good version:")
                .color(egui::Color32::LIGHT_RED),
        );
        for problem in &editor.problems {
            ui.label(RichText::new(problem).color(egui::Color32::LIGHT_RED));
        }
    }
    ui.horizontal_wrapped(|ui| {
        let (undo, redo) = editor.steps();
        if ui.add_enabled(undo > 0, egui::Button::new("Undo (Ctrl+Z)")).clicked() {
            asks.push(EditAsk::Undo);
        }
        if ui.add_enabled(redo > 0, egui::Button::new("Redo (Ctrl+Y)")).clicked() {
            asks.push(EditAsk::Redo);
        }
        if ui.button("Save (Ctrl+S)").clicked() {
            asks.push(EditAsk::Save);
        }
        let play = ui.add_enabled(
            editor.problems.is_empty(),
            egui::Button::new(RichText::new("Play this (F2)").strong()),
        );
        if play.on_disabled_hover_text("fix the file's problems first").clicked() {
            asks.push(EditAsk::Toggle);
        }
    });
    ui.separator();
    let space = super::board::space(world);
    if space.locations {
        ui.label(RichText::new("Cards").strong());
        ui.horizontal_wrapped(|ui| {
            ui.label("Drag a card to:");
            if ui.radio(editor.tool == CardTool::Move, "move it").clicked() {
                asks.push(EditAsk::Tool(CardTool::Move));
            }
            if ui.radio(editor.tool == CardTool::Connect, "draw an arrow (C)").clicked() {
                asks.push(EditAsk::Tool(CardTool::Connect));
            }
        });
        let mut both = editor.both_ways;
        if ui.checkbox(&mut both, "arrows both ways (or hold Shift)").changed() {
            asks.push(EditAsk::BothWays(both));
        }
        ui.label("An arrow means: the card it points to may be entered from the other. Click an arrow (red under the pointer) to take it away.");
        if ui.button("Add a location (A: under the pointer)").clicked() {
            asks.push(EditAsk::AddLocation);
        }
        ui.label("Selected card: R rename · N entered from no location on/off · Delete");
    }
    ui.label("Drag a token or a mount to where it starts; drop a combatant on a mount to have it ride.");
    add_form(ui, world, editor, asks);
    mounts_form(ui, world, editor, asks);
    scenery::add_form(ui, world, asks);
    ui.separator();
    let selection = *world.resource::<Selection>();
    if let Some(place) = selection.location.filter(|&p| world.get::<OpenField>(p).is_none()) {
        location_form(ui, world, editor, place, asks);
    } else if let Some(who) = selection.combatant.filter(|&e| world.get_entity(e).is_ok()) {
        combatant_form(ui, world, editor, who, asks);
    } else if !scenery::piece_form(ui, world, editor, asks) {
        ui.label("Click a card, a token or a circle of scenery to edit it.");
    }
    ui.separator();
    file_form(ui, world, editor, asks);
    confirm_dialog(ui.ctx(), editor, asks);
    problems::draw_problem_words(ui.ctx(), world);
    scenery::drag_words(ui.ctx(), world);
    keys(ui.ctx(), world, asks);
    let typing = ui.ctx().egui_wants_keyboard_input();
    if typing != editor.typing {
        asks.push(EditAsk::Typing(typing));
    }
}

/// The selected location's form.
fn location_form(ui: &mut egui::Ui, world: &World, editor: &Editor, place: Entity, asks: &mut Vec<EditAsk>) {
    let Some(location) = world.get::<Location>(place) else { return };
    let id = location.id.clone();
    ui.label(RichText::new(format!("Location {id}")).strong());
    ui.horizontal(|ui| {
        ui.label("Name:");
        let mut name = match &editor.name_draft {
            Some((draft_id, text)) if *draft_id == id => text.clone(),
            _ => location.name.clone(),
        };
        let output =
            egui::TextEdit::singleline(&mut name).desired_width(170.0).id_salt("location name").show(ui);
        let field = output.response.response.clone();
        if editor.focus_name {
            // The whole name selected: what is typed replaces it.
            field.request_focus();
            let mut state = output.state;
            let all = egui::text_selection::CCursorRange::two(
                egui::text::CCursor::new(0),
                egui::text::CCursor::new(name.chars().count()),
            );
            state.cursor.set_char_range(Some(all));
            state.store(ui.ctx(), field.id);
            asks.push(EditAsk::NameFocused);
        }
        if field.changed() {
            asks.push(EditAsk::NameDraft(Some((id.clone(), name.clone()))));
        }
        let done = field.lost_focus() || ui.input(|i| i.key_pressed(egui::Key::Enter)) && field.has_focus();
        if done && name != location.name {
            asks.push(EditAsk::Edit(vec![ScenarioEdit::RenameLocation { id: id.clone(), name }]));
        }
    });
    ui.horizontal(|ui| {
        ui.label(format!("Entry cost: {}", location.entry_cost));
        if ui.add_enabled(location.entry_cost > 0, egui::Button::new(" − ")).clicked() {
            asks.push(EditAsk::Edit(vec![ScenarioEdit::SetEntryCost {
                id: id.clone(),
                cost: location.entry_cost - 1,
            }]));
        }
        if ui.button(" + ").clicked() {
            asks.push(EditAsk::Edit(vec![ScenarioEdit::SetEntryCost {
                id: id.clone(),
                cost: location.entry_cost + 1,
            }]));
        }
    });
    ui.label("Entered from (× takes it away):");
    let sources = world.get::<EnteredFrom>(place).map(|f| f.0.clone()).unwrap_or_default();
    let field_id = LocationId::field();
    let mut from_field = false;
    for source in sources {
        let Some(from) = world.get::<Location>(source) else { continue };
        let shown = if from.id == field_id {
            from_field = true;
            "no location".to_owned()
        } else {
            from.name.clone()
        };
        if ui.button(format!("× {shown}")).clicked() {
            asks.push(EditAsk::Edit(vec![ScenarioEdit::SetEntry {
                from: from.id.clone(),
                to: id.clone(),
                allowed: false,
            }]));
        }
    }
    if !from_field && ui.button("+ no location").clicked() {
        asks.push(EditAsk::Edit(vec![ScenarioEdit::SetEntry {
            from: field_id,
            to: id.clone(),
            allowed: true,
        }]));
    }
    properties_form(ui, world, editor, &id, asks);
    if ui.button(RichText::new("Delete this location").color(egui::Color32::LIGHT_RED)).clicked() {
        asks.push(EditAsk::DeleteLocation(id));
    }
}

/// "Add": a combatant or a mount from the ruleset's templates, on a side.
fn add_form(ui: &mut egui::Ui, world: &World, editor: &Editor, asks: &mut Vec<EditAsk>) {
    let Some((_, list)) = &editor.templates else { return };
    let Some(picked) = list.get(editor.template_pick) else { return };
    ui.horizontal(|ui| {
        ui.label("Add");
        let width = ui.available_width() - 20.0;
        egui::ComboBox::from_id_salt("add template")
            .width(width)
            .truncate()
            .selected_text(picked.label())
            .show_ui(ui, |ui| {
                for (n, template) in list.iter().enumerate() {
                    if ui.selectable_label(n == editor.template_pick, template.label()).clicked() {
                        asks.push(EditAsk::PickTemplate(n));
                    }
                }
            });
    });
    ui.horizontal(|ui| {
        if !picked.piece.mount {
            let sides = &world.resource::<TableIndex>().sides;
            let shown = sides.get(editor.side_pick).map_or("", |(_, name)| name.as_str());
            let width = ui.available_width() - 80.0;
            egui::ComboBox::from_id_salt("add side")
                .width(width)
                .truncate()
                .selected_text(format!("for {shown}"))
                .show_ui(ui, |ui| {
                    for (n, (_, name)) in sides.iter().enumerate() {
                        if ui.selectable_label(n == editor.side_pick, name).clicked() {
                            asks.push(EditAsk::PickSide(n));
                        }
                    }
                });
        }
        let add = ui.button("Add (T)").on_hover_text("T adds it under the pointer; the button, mid-board");
        if add.clicked() {
            asks.push(EditAsk::AddPiece);
        }
    });
}

/// The scenario's mounts, each with its rider, to copy or delete, and its sheet.
fn mounts_form(ui: &mut egui::Ui, world: &World, editor: &Editor, asks: &mut Vec<EditAsk>) {
    let index = world.resource::<TableIndex>();
    if index.mounts.is_empty() {
        return;
    }
    let header = egui::CollapsingHeader::new(format!("Mounts ({})", index.mounts.len())).id_salt("mounts");
    header.show(ui, |ui| {
        for (id, &e) in &index.mounts {
            let Some(mount) = world.get::<Mount>(e) else { continue };
            let rider = index.order.iter().find(|&&c| world.get::<Rides>(c).is_some_and(|r| r.0 == e));
            let rider = rider.map_or("no rider".to_owned(), |&c| {
                format!("ridden by {}", fray_core::table::name(world, c))
            });
            ui.label(RichText::new(format!("{} ({id}), {rider}", mount.name)).strong());
            ui.horizontal(|ui| {
                if ui.small_button("Copy").clicked() {
                    asks.push(EditAsk::Edit(vec![ScenarioEdit::CopyMount { id: id.clone() }]));
                }
                if ui.small_button(RichText::new("Delete").color(egui::Color32::LIGHT_RED)).clicked() {
                    asks.push(EditAsk::Edit(vec![ScenarioEdit::DeleteMount { id: id.clone() }]));
                }
            });
            sheet_form(ui, world, editor, id.as_str(), false, asks);
        }
    });
}

fn combatant_form(ui: &mut egui::Ui, world: &World, editor: &Editor, who: Entity, asks: &mut Vec<EditAsk>) {
    let id = fray_core::table::id(world, who);
    ui.label(RichText::new(format!("{} ({id})", fray_core::table::name(world, who))).strong());
    let index = world.resource::<TableIndex>();
    let side = world.get::<fray_core::prelude::SideIndex>(who).map(|s| s.0 as usize);
    ui.horizontal_wrapped(|ui| {
        ui.label("Side:");
        for (n, (side_id, side_name)) in index.sides.iter().enumerate() {
            if ui.radio(side == Some(n), side_name).clicked() && side != Some(n) {
                asks.push(EditAsk::Edit(vec![ScenarioEdit::SetSide {
                    id: id.clone(),
                    side: side_id.clone(),
                }]));
            }
        }
    });
    let controller = world.get::<Controller>(who).copied();
    ui.horizontal(|ui| {
        ui.label("Played by:");
        for (c, words) in [(Controller::Human, "a person"), (Controller::Ai, "the AI")] {
            if ui.radio(controller == Some(c), words).clicked() && controller != Some(c) {
                asks.push(EditAsk::Edit(vec![ScenarioEdit::SetController { id: id.clone(), controller: c }]));
            }
        }
    });
    ui.horizontal(|ui| {
        if ui.button("Copy (D)").clicked() {
            asks.push(EditAsk::Edit(vec![ScenarioEdit::CopyCombatant { id: id.clone() }]));
        }
        if ui.button(RichText::new("Delete").color(egui::Color32::LIGHT_RED)).clicked() {
            asks.push(EditAsk::Edit(vec![ScenarioEdit::DeleteCombatant { id: id.clone() }]));
        }
    });
    sheet_form(ui, world, editor, id.as_str(), true, asks);
}

/// A location's properties from the ruleset's own list: each one's number or words set in
/// place, taken away with ×, added from the list.
fn properties_form(
    ui: &mut egui::Ui,
    world: &World,
    editor: &Editor,
    id: &LocationId,
    asks: &mut Vec<EditAsk>,
) {
    let Some(session) = world.get_resource::<Session>() else { return };
    let choices = session.scenario.ruleset().location_properties();
    if choices.is_empty() {
        return;
    }
    let properties = session.scenario.properties(id);
    let set = |n: usize, text: Option<String>| {
        let mut next = properties.clone();
        match text {
            Some(text) if n < next.len() => next[n] = text,
            Some(text) => next.push(text),
            None => drop(next.remove(n)),
        }
        EditAsk::Edit(vec![ScenarioEdit::SetProperties { id: id.clone(), properties: next }])
    };
    ui.label("Properties (× takes one away):");
    for (n, text) in properties.iter().enumerate() {
        ui.horizontal(|ui| {
            if ui.small_button("×").clicked() {
                asks.push(set(n, None));
            }
            let (name, argument) = property_parts(text);
            ui.label(name);
            match argument {
                Argument::Number(number) => {
                    let key = (id.as_str().to_owned(), format!("property {n}"));
                    let draft = match &editor.number_draft {
                        Some((who, field, v)) if (who, field) == (&key.0, &key.1) => Some(*v),
                        _ => None,
                    };
                    let mut value = draft.unwrap_or(number);
                    let response = ui.add(egui::DragValue::new(&mut value).speed(0.1).fixed_decimals(0));
                    let busy = response.dragged() || response.has_focus();
                    if !busy && (response.changed() || draft.is_some()) {
                        if value.round() != number {
                            asks.push(set(n, Some(format!("{name}({})", value.round()))));
                        }
                        asks.push(EditAsk::NumberDraft(None));
                    } else if response.changed() {
                        asks.push(EditAsk::NumberDraft(Some((key.0, key.1, value))));
                    }
                }
                Argument::Words(words) => {
                    let mut shown = match &editor.words_draft {
                        Some((at, k, draft)) if at == id && *k == n => draft.clone(),
                        _ => words.clone(),
                    };
                    let field =
                        ui.add(egui::TextEdit::singleline(&mut shown).desired_width(190.0).id_salt((
                            "words",
                            id.as_str(),
                            n,
                        )));
                    if field.changed() {
                        asks.push(EditAsk::WordsDraft(Some((id.clone(), n, shown.clone()))));
                    }
                    if field.lost_focus() && shown != words {
                        let written = ron::to_string(&shown).unwrap_or_default();
                        asks.push(set(n, Some(format!("{name}({written})"))));
                    }
                }
                Argument::None => {}
            }
        });
    }
    egui::ComboBox::from_id_salt(("add property", id.as_str())).selected_text("+ a property").show_ui(
        ui,
        |ui| {
            for choice in choices {
                let name = property_parts(choice.text).0;
                if ui.selectable_label(false, name).on_hover_text(choice.about).clicked() {
                    asks.push(set(properties.len(), Some(choice.text.to_owned())));
                }
            }
        },
    );
}

/// What a property carries, as the file writes it.
#[derive(Debug, PartialEq)]
enum Argument {
    None,
    Number(f64),
    Words(String),
}

/// A property's name and argument: `Cover(2)` is ("Cover", a number), `Note("…")` words,
/// `Dark` none. Anything else is shown as written, as a name.
fn property_parts(text: &str) -> (&str, Argument) {
    let Some((name, rest)) = text.split_once('(') else { return (text, Argument::None) };
    let inner = rest.strip_suffix(')').unwrap_or(rest);
    if let Ok(number) = inner.trim().parse::<f64>() {
        (name, Argument::Number(number))
    } else if let Ok(words) = ron::from_str::<String>(inner) {
        (name, Argument::Words(words))
    } else {
        (text, Argument::None)
    }
}

/// The sheet's numbers as the file writes them, each in a field: dragged or typed, a value is
/// read back through the ruleset's checks when let go, and refused with the reason when out
/// of its range. Other parts of a sheet (lists, names, words) are edited in the file.
fn sheet_form(
    ui: &mut egui::Ui,
    world: &World,
    editor: &Editor,
    id: &str,
    open: bool,
    asks: &mut Vec<EditAsk>,
) {
    let Some(session) = world.get_resource::<Session>() else { return };
    egui::CollapsingHeader::new("Sheet").id_salt(("sheet", id)).default_open(open).show(ui, |ui| {
        let text = &session.scenario.text;
        let read = per_text(ui.ctx(), ("sheet numbers read", id), text, || {
            std::sync::Arc::new(crate::lab::sweep::sheet_numbers(text, id))
        });
        let numbers = match read.as_ref() {
            Ok(numbers) => numbers.clone(),
            Err(e) => {
                ui.label(e);
                return;
            }
        };
        egui::Grid::new(("sheet numbers", id)).num_columns(2).striped(true).show(ui, |ui| {
            for number in numbers {
                ui.label(number.field.replace('.', " · "));
                let key = (id.to_owned(), number.field.clone());
                let draft = match &editor.number_draft {
                    Some((who, field, v)) if (who, field) == (&key.0, &key.1) => Some(*v),
                    _ => None,
                };
                let mut value = draft.unwrap_or(number.value);
                let drag = egui::DragValue::new(&mut value).speed(if number.whole { 0.1 } else { 0.05 });
                let drag = if number.whole { drag.fixed_decimals(0) } else { drag.max_decimals(2) };
                let response = ui.add(drag);
                let response = accepted_range_hint(ui.ctx(), world, id, &number, response);
                let busy = response.dragged() || response.has_focus();
                // Set once let go (a drag released, a typed value entered), not at every step.
                if !busy && (response.changed() || draft.is_some()) {
                    let value = if number.whole { value.round() } else { value };
                    if value != number.value {
                        asks.push(EditAsk::SetNumber { who: key.0, field: key.1, value });
                    } else {
                        asks.push(EditAsk::NumberDraft(None));
                    }
                } else if response.changed() {
                    asks.push(EditAsk::NumberDraft(Some((key.0, key.1, value))));
                }
                ui.end_row();
            }
        });
        sheet_text_form(ui, editor, text, id, asks);
    });
}

/// The whole sheet as the file writes it, to change its lists, names and words: applied by
/// writing it back into the file's text and reading that through the ruleset's checks (a
/// refusal says why and keeps what was typed).
fn sheet_text_form(
    ui: &mut egui::Ui,
    editor: &Editor,
    text: &std::sync::Arc<str>,
    id: &str,
    asks: &mut Vec<EditAsk>,
) {
    let read = per_text(ui.ctx(), ("sheet text read", id), text, || {
        let span = crate::lab::sweep::sheet_span(text, id).ok()?;
        // Shown without the file's indentation, given it back when applied.
        let indent = text[span.clone()]
            .lines()
            .skip(1)
            .filter(|l| !l.trim().is_empty())
            .map(|l| l.len() - l.trim_start().len())
            .min()
            .unwrap_or(0);
        Some((indent, std::sync::Arc::<str>::from(reindent(&text[span], indent, false))))
    });
    let Some((indent, written)) = read else { return };
    let written = &*written;
    egui::CollapsingHeader::new("As written (lists, names, words)").id_salt(("sheet text", id)).show(
        ui,
        |ui| {
            let mut shown = match &editor.sheet_draft {
                Some((who, draft)) if who == id => draft.clone(),
                _ => written.to_owned(),
            };
            let field = egui::TextEdit::multiline(&mut shown)
                .code_editor()
                .desired_width(f32::INFINITY)
                .desired_rows(4)
                .id_salt(("sheet text field", id));
            if ui.add(field).changed() {
                asks.push(EditAsk::SheetDraft(Some((id.to_owned(), shown.clone()))));
            }
            ui.horizontal(|ui| {
                let changed = shown != written;
                if ui.add_enabled(changed, egui::Button::new("Apply")).clicked() {
                    asks.push(EditAsk::SetSheet {
                        who: id.to_owned(),
                        sheet: reindent(&shown, indent, true),
                    });
                }
                if ui.add_enabled(changed, egui::Button::new("As it was")).clicked() {
                    asks.push(EditAsk::SheetDraft(None));
                }
            });
        },
    );
}

/// What `read` makes of the scenario's text, kept in egui's memory under `key` until the
/// text changes: read once per text, not every frame.
fn per_text<T: Clone + Send + Sync + 'static>(
    ctx: &egui::Context,
    key: impl egui::AsId,
    text: &std::sync::Arc<str>,
    read: impl FnOnce() -> T,
) -> T {
    let key = egui::Id::new(key);
    let kept = ctx.data(|d| d.get_temp::<(std::sync::Arc<str>, T)>(key));
    if let Some((from, value)) = kept
        && std::sync::Arc::ptr_eq(&from, text)
    {
        return value;
    }
    let value = read();
    ctx.data_mut(|d| d.insert_temp(key, (text.clone(), value.clone())));
    value
}

/// Lines after the first with `indent` spaces taken off (or put back, `back`).
fn reindent(text: &str, indent: usize, back: bool) -> String {
    let pad = " ".repeat(indent);
    let mut lines = text.lines();
    let first = lines.next().unwrap_or_default().to_owned();
    lines.fold(first, |out, line| {
        let line = match back {
            true if !line.is_empty() => format!("{pad}{line}"),
            true => String::new(),
            false => line.strip_prefix(pad.as_str()).unwrap_or(line.trim_start()).to_owned(),
        };
        out + "\n" + &line
    })
}

/// A sheet number's hover text: the values the ruleset's checks take now, found once per
/// scenario text and number when the pointer first rests on it (`accepted_range`).
fn accepted_range_hint(
    ctx: &egui::Context,
    world: &World,
    who: &str,
    number: &SheetNumber,
    response: egui::Response,
) -> egui::Response {
    let (Some(session), Some(registry)) = (world.get_resource::<Session>(), world.get_resource::<Rulesets>())
    else {
        return response;
    };
    type Known = (std::sync::Arc<str>, (Option<f64>, Option<f64>));
    let key = egui::Id::new(("accepted range", who, number.field.as_str()));
    let text = &session.scenario.text;
    let known = ctx.data(|d| d.get_temp::<Known>(key)).filter(|(t, _)| std::sync::Arc::ptr_eq(t, text));
    let range = match known {
        Some((_, range)) => range,
        None if response.hovered() => {
            let accepts = |edited: &str| registry.read_edited(&session.scenario, edited).is_ok();
            let range = crate::lab::sweep::accepted_range(text, who, number, accepts);
            ctx.data_mut(|d| d.insert_temp(key, (text.clone(), range)));
            range
        }
        None => return response,
    };
    let words = match range {
        (Some(low), Some(high)) => format!("the rules take {low} to {high} here"),
        (Some(low), None) => format!("the rules take {low} or more here"),
        (None, Some(high)) => format!("the rules take {high} or less here"),
        (None, None) => "the rules take any value here".to_owned(),
    };
    response.on_hover_text(words)
}

fn file_form(ui: &mut egui::Ui, world: &World, editor: &Editor, asks: &mut Vec<EditAsk>) {
    ui.label(RichText::new("File").strong());
    let mut path = editor.path_draft.clone();
    if ui.add(egui::TextEdit::singleline(&mut path).desired_width(300.0).id_salt("edit path")).changed() {
        asks.push(EditAsk::PathDraft(path.clone()));
    }
    ui.horizontal_wrapped(|ui| {
        if ui.add_enabled(!path.trim().is_empty(), egui::Button::new("Save as")).clicked() {
            asks.push(EditAsk::SaveAs(path.clone()));
        }
        let rulesets = world.resource::<Rulesets>();
        let chosen = if editor.new_ruleset.is_empty() {
            world.get_resource::<Session>().map_or("fiend_wake".to_owned(), |s| s.ruleset().id().to_owned())
        } else {
            editor.new_ruleset.clone()
        };
        egui::ComboBox::from_id_salt("new ruleset").selected_text(&chosen).show_ui(ui, |ui| {
            for r in rulesets.iter() {
                if ui.selectable_label(r.id() == chosen, r.name()).clicked() {
                    asks.push(EditAsk::NewRuleset(r.id().to_owned()));
                }
            }
        });
        if ui
            .add_enabled(!path.trim().is_empty(), egui::Button::new("New"))
            .on_hover_text(
                "writes a small scenario of this ruleset to the path (never over a file) and edits it",
            )
            .clicked()
        {
            asks.push(EditAsk::New(chosen, path));
        }
    });
}

fn confirm_dialog(ctx: &egui::Context, editor: &Editor, asks: &mut Vec<EditAsk>) {
    let Some((_, name, people)) = &editor.confirm_delete else { return };
    egui::Window::new("Delete a location").anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0]).show(ctx, |ui| {
        ui.label(format!("{people} stand in {name}. Delete it? They will start in no location."));
        ui.horizontal(|ui| {
            if ui.button("Delete it (Enter)").clicked() || ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                asks.push(EditAsk::ConfirmDelete(true));
            }
            if ui.button("Keep it (Esc)").clicked() || ui.input(|i| i.key_pressed(egui::Key::Escape)) {
                asks.push(EditAsk::ConfirmDelete(false));
            }
        });
    });
}

/// The editor's keys: none while a text field has the keyboard, nor in the frame it lets
/// go of it (keys typed quickly after a name and its Enter arrive in one frame: they were
/// the field's, not commands).
fn keys(ctx: &egui::Context, world: &World, asks: &mut Vec<EditAsk>) {
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
        if i.key_pressed(egui::Key::A) && super::board::space(world).locations {
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
fn ctrl_keys(
    mut keys: MessageReader<bevy::input::keyboard::KeyboardInput>,
    mut held: Local<bool>,
    editor: Res<Editor>,
    mut queued: ResMut<Queued>,
) {
    for key in keys.read() {
        let down = key.state.is_pressed();
        match key.key_code {
            KeyCode::ControlLeft | KeyCode::ControlRight | KeyCode::SuperLeft | KeyCode::SuperRight => {
                *held = down;
            }
            _ if !(*held && down && editor.on) => {}
            KeyCode::KeyZ if !editor.typing => queued.0.push(EditAsk::Undo),
            KeyCode::KeyY if !editor.typing => queued.0.push(EditAsk::Redo),
            KeyCode::KeyS => queued.0.push(EditAsk::Save),
            _ => {}
        }
    }
}

/// The editor in the status file (`--status-out`).
pub(super) fn status(world: &World) -> serde_json::Value {
    let editor = world.resource::<Editor>();
    let (undo, redo) = editor.steps();
    let (combatant, location) = selected_ids(world);
    serde_json::json!({
        "on": editor.on,
        "selected": combatant.map(|c| c.0).or(location.map(|l| l.0)),
        "typing": editor.typing,
        "dragging_card": world
            .resource::<CardDrag>()
            .0
            .and_then(|d| world.get::<Location>(d.place))
            .map(|l| l.id.0.clone()),
        "revision": editor.revision,
        "undo": undo,
        "redo": redo,
        "unsaved": editor.unsaved(world),
        "problems": editor.problems,
        "path": world.get_resource::<Session>().and_then(|s| s.scenario.path.as_ref()).map(|p| p.display().to_string()),
    })
}

#[cfg(test)]
mod tests {
    use super::{Argument, property_parts};

    #[test]
    fn a_sheet_shown_without_its_indentation_is_given_it_back() {
        let written = "(\n        power: 3,\n          weapons: [],\n\n    )";
        let shown = super::reindent(written, 4, false);
        assert_eq!(shown, "(\n    power: 3,\n      weapons: [],\n\n)");
        assert_eq!(super::reindent(&shown, 4, true), written);
    }

    #[test]
    fn a_property_is_read_as_its_name_and_a_number_words_or_nothing() {
        assert_eq!(property_parts("Cover(2)"), ("Cover", Argument::Number(2.0)));
        assert_eq!(
            property_parts("Note(\"A \\\"gate\\\" (old)\")"),
            ("Note", Argument::Words("A \"gate\" (old)".into()))
        );
        assert_eq!(property_parts("Dark"), ("Dark", Argument::None));
        // Something else is shown whole, as a name.
        assert_eq!(property_parts("Odd(1, 2)"), ("Odd(1, 2)", Argument::None));
    }
}
