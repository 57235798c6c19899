//! Edit mode, for any ruleset: the open scenario changed on the board it is played on.
//! Cards are dragged to move them or to draw an arrow from one to another (the location
//! dropped on may then be entered from the dragged one), tokens and mounts are dragged to
//! where they start (a combatant dropped on a mount rides it), arrows are clicked away, and
//! a form beside the board names, prices, sets properties and sheets, adds from templates
//! and deletes.
//!
//! Every edit is a `ScenarioEdit` made through the ruleset contract and read back as
//! `fray check` reads a file: a refused edit changes nothing and says why. The table shows
//! the fight at its start, the AI held; undo, redo, saving (atomically, the comments at the
//! top kept) and "Play this" work on whole scenarios. A file changed on disk by a text
//! editor is read again within a second; a broken one is shown in words, the last good
//! version kept on the board.
//!
//! In parts: `state` (the editor and its requests), `commit` (an edit made, undone or
//! redone), `files` (saving, a new scenario, the file read again), `mode` (in and out of
//! edit mode), `apply` (each request carried out), `input` (the board's drags and
//! clicks), `marks`, `forms` (the panel), `seats` (who plays whom), `keys`; `problems`,
//! `scenery` and `templates` for what a broken file, the scenery and "Add" need.

mod apply;
mod commit;
mod files;
mod forms;
mod input;
mod keys;
mod marks;
mod mode;
mod problems;
mod scenery;
mod seats;
mod state;
mod templates;

pub(crate) use apply::apply;
pub(crate) use forms::panel;
pub(crate) use mode::enter;
pub(crate) use state::{EditAsk, Editor, editing, status};

use bevy::prelude::*;

use super::order::Step;

pub(crate) fn plugin(app: &mut App) {
    scenery::plugin(app);
    app.init_resource::<Editor>()
        .init_resource::<state::CardDrag>()
        .init_resource::<state::Queued>()
        .add_observer(input::press_card)
        .add_observer(input::card_drag_start)
        .add_observer(input::card_drag)
        .add_observer(input::card_drag_end)
        .add_systems(
            Update,
            (
                keys::ctrl_keys,
                input::click_arrow,
                scenery::drag_scenery,
                files::reload_from_disk,
                apply::make_queued,
                input::place_drop,
            )
                .chain()
                .in_set(Step::Edits),
        )
        .init_resource::<marks::EditMarks>()
        .init_resource::<problems::ProblemMarks>()
        .init_resource::<problems::Refused>()
        .add_systems(
            Update,
            (
                (problems::find_problem_marks, problems::draw_problem_frames).chain(),
                (marks::find_edit_marks, marks::draw_edit_marks).chain(),
                scenery::draw_picked,
            )
                .chain()
                .in_set(Step::EditorMarks),
        );
}
