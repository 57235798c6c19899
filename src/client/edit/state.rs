//! The editor's state: what edit mode is doing ([`Editor`]: the tool, undo and redo, the
//! file as last read, the drafts being typed), the requests made of it ([`EditAsk`]), a card
//! being dragged, the selection kept by stable id across edits.

use std::path::Path;
use std::time::SystemTime;

use bevy::prelude::*;
use fray_core::edit::ScenarioEdit;
use fray_core::fight::{LoadedScenario, Session};
use fray_core::ids::{CombatantId, LocationId};
use fray_core::location::Location;
use fray_core::prelude::TableIndex;

use crate::client::board::pieces::Selection;
use crate::client::pointer::EditMode;

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
    /// What a card drag does.
    pub tool: CardTool,
    /// Arrows drawn go both ways (as Shift held at the drop does).
    pub both_ways: bool,
    /// Counts the scenarios shown since the window opened (each edit, undo, redo, reload).
    pub revision: u64,
    pub(super) undo: Vec<LoadedScenario>,
    pub(super) redo: Vec<LoadedScenario>,
    /// The text last read from or written to the file.
    pub(super) saved: Option<std::sync::Arc<str>>,
    /// The file's problems when it was last read from disk, if it is broken.
    pub problems: Vec<String>,
    /// The file's modification time and length when last looked at.
    pub(super) seen: Option<(SystemTime, u64)>,
    /// The fight's autosave, set aside while editing.
    pub(super) autosave: Option<crate::session::Autosave>,
    /// A location to delete once the person confirms (people stand in it).
    pub(super) confirm_delete: Option<(LocationId, String, usize)>,
    /// The location name being typed, and for which location.
    pub(super) name_draft: Option<(LocationId, String)>,
    /// Give the name field the keyboard (a location was just added).
    pub(super) focus_name: bool,
    /// A text field of the form had the keyboard at the end of the last frame.
    pub(super) typing: bool,
    /// A sheet number being dragged or typed: who, its path, the value so far.
    pub(super) number_draft: Option<(String, String, f64)>,
    /// The path typed for "Save as" and "New".
    pub(super) path_draft: String,
    /// The ruleset picked for a new scenario.
    pub(super) new_ruleset: String,
    /// The templates of the open scenario's ruleset (its id), read once.
    pub(super) templates: Option<(&'static str, std::sync::Arc<Vec<super::templates::Template>>)>,
    /// The template and the side picked for "Add".
    pub(super) template_pick: usize,
    pub(super) side_pick: usize,
    /// A property's words being typed: which location, which property, the words so far.
    pub(super) words_draft: Option<(LocationId, usize, String)>,
    /// A sheet being rewritten as text: whose, and the text so far.
    pub(super) sheet_draft: Option<(String, String)>,
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
    pub(super) fn drop_drafts(&mut self) {
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
    pub(super) offset: Vec2,
    /// The pointer, on the board.
    pub at: Vec2,
    /// Drawing an arrow rather than moving.
    pub connect: bool,
}

/// Edits worked out by observers, made by a system with the world at hand.
#[derive(Resource, Default)]
pub(super) struct Queued(pub(super) Vec<EditAsk>);

/// Whether edit mode is on.
pub fn editing(world: &World) -> bool {
    world.get_resource::<EditMode>().is_some_and(|e| e.0)
}

type SelectedIds = (Option<CombatantId>, Option<LocationId>);

pub(super) fn selected_ids(world: &World) -> SelectedIds {
    let selection = *world.resource::<Selection>();
    let combatant =
        selection.combatant.filter(|&e| world.get_entity(e).is_ok()).map(|e| fray_core::table::id(world, e));
    let location = selection.location.and_then(|e| world.get::<Location>(e)).map(|l| l.id.clone());
    (combatant, location)
}

pub(super) fn reselect_ids(world: &mut World, (combatant, location): SelectedIds) {
    let index = world.resource::<TableIndex>();
    let selection = Selection {
        combatant: combatant.and_then(|id| index.combatant(&id)),
        location: location.and_then(|id| index.location(&id)),
    };
    *world.resource_mut::<Selection>() = selection;
}

/// The editor in the status file (`--status-out`).
pub(crate) fn status(world: &World) -> serde_json::Value {
    let editor = world.resource::<Editor>();
    let (undo, redo) = editor.steps();
    let (combatant, location) = selected_ids(world);
    serde_json::json!({
        "on": world.resource::<EditMode>().0,
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

pub(super) fn file_stamp(path: &Path) -> Option<(SystemTime, u64)> {
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.modified().ok()?, meta.len()))
}
