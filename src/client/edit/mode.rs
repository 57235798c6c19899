//! Entering edit mode, and leaving it: "Play this" starts a fight on the scenario as edited.

use bevy::prelude::*;
use fray_core::fight::Session;
use fray_core::session::HoldAi;

use super::commit::show;
use super::state::{Editor, file_stamp, reselect_ids, selected_ids};
use crate::client::pointer::{BoardMessage, EditMode};

/// Turns edit mode on for the scenario on the table: the fight so far is left (its
/// autosave kept, for `--resume`), and the scenario is shown at its start, the AI held.
pub fn enter(world: &mut World) {
    let Some(scenario) = world.get_resource::<Session>().map(|s| s.scenario.clone()) else {
        return;
    };
    let autosave = world.remove_resource::<crate::session::Autosave>();
    let seen = scenario.path.as_deref().and_then(file_stamp);
    world.resource_mut::<EditMode>().0 = true;
    {
        let mut editor = world.resource_mut::<Editor>();
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
    *world.resource_mut::<crate::client::chips::AllocationPlan>() = Default::default();
    show(world, scenario);
    world
        .resource_mut::<BoardMessage>()
        .show("Edit mode: the scenario at its start; F2 or \"Play this\" to fight it");
}

/// Leaves edit mode and starts a fight on the scenario as edited ("Play this"); refused
/// while the file on disk is broken.
pub(super) fn play(world: &mut World) {
    let problems = world.resource::<Editor>().problems.len();
    if problems > 0 {
        world.resource_mut::<BoardMessage>().show(format!(
            "The file has {}: fix it before playing (see the editor)",
            fray_core::words::count(problems as u64, "problem", "problems")
        ));
        return;
    }
    let Some(scenario) = world.get_resource::<Session>().map(|s| s.scenario.clone()) else {
        return;
    };
    world.resource_mut::<EditMode>().0 = false;
    let autosave = {
        let mut editor = world.resource_mut::<Editor>();
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

/// Edit mode off without starting a fight (another scenario is about to be opened).
pub(super) fn play_quietly_off(world: &mut World) {
    world.resource_mut::<EditMode>().0 = false;
    let autosave = world.resource_mut::<Editor>().autosave.take();
    if let Some(autosave) = autosave {
        world.insert_resource(autosave);
    }
}
