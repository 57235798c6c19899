//! An edit made: the scenario's text rewritten through the ruleset contract, read back as
//! `fray check` reads a file (a refused edit changes nothing and says why), and the table
//! shown at the fight's start; undo and redo step between whole scenarios.

use bevy::prelude::*;
use fray_core::edit::ScenarioEdit;
use fray_core::fight::{LoadedScenario, Session};
use fray_core::prelude::TableIndex;
use fray_core::ruleset::Rulesets;
use fray_core::session::HoldAi;

use super::state::{Editor, reselect_ids, selected_ids};
use crate::client::board::pieces::Selection;
use crate::client::pointer::BoardMessage;

/// Puts `scenario` on the table at its start, the AI held, the selection kept by id.
pub(super) fn show(world: &mut World, scenario: LoadedScenario) {
    let reselect = selected_ids(world);
    let ruleset = scenario.ruleset().id();
    if world.resource::<Editor>().templates.as_ref().is_none_or(|(id, _)| *id != ruleset)
        && let Some(registry) = world.get_resource::<Rulesets>()
    {
        let list = super::templates::templates(registry, &scenario);
        let mut editor = world.resource_mut::<Editor>();
        (editor.templates, editor.template_pick) = (Some((ruleset, list)), 0);
    }
    scenario.start(world, scenario.seed(), scenario.default_limit(), false);
    world.insert_resource(HoldAi);
    reselect_ids(world, reselect);
    world.resource_mut::<Editor>().revision += 1;
    world.resource_mut::<super::problems::Refused>().0 = None;
}

/// Makes `edits` as one step: each through the ruleset and its checks; the first refused
/// one says why and nothing changes.
/// Whether the edits were made.
pub(super) fn make(world: &mut World, edits: Vec<ScenarioEdit>) -> bool {
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
pub(super) fn set_number(world: &mut World, who: &str, field: &str, value: f64) {
    let rewrite = |text: &str| crate::lab::sweep::set_sheet_number(text, who, field, value);
    rewrite_text(world, rewrite, format!("{who}'s {field} is {value}"));
}

/// The scenario's text rewritten by `rewrite`, read back through the ruleset's checks: shown
/// with `words`, or refused with the reason.
pub(super) fn rewrite_text(
    world: &mut World,
    rewrite: impl Fn(&str) -> Result<String, String>,
    words: String,
) {
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
    super::problems::Refused::set(world, problems);
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
pub(super) fn step(world: &mut World, back: bool) {
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
