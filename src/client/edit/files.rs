//! The scenario's file: saved atomically (its opening comments kept), a new one started,
//! and read again when a text editor changes it on disk.

use std::path::PathBuf;
use std::time::Duration;

use bevy::prelude::*;
use fray_core::fight::Session;
use fray_core::ruleset::Rulesets;

use super::commit::show;
use super::mode::{enter, play_quietly_off};
use super::state::{Editor, editing, file_stamp};
use crate::client::board::pieces::Selection;
use crate::client::pointer::BoardMessage;

/// Writes the scenario to `path` (its own file when `None`), atomically.
pub(super) fn save(world: &mut World, path: Option<PathBuf>) {
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
pub(super) fn new_scenario(world: &mut World, ruleset: &str, path: &str) {
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
            *world.resource_mut::<crate::client::camera::view::Framed>() = Default::default();
            enter(world);
        }
        Err(e) => world.resource_mut::<BoardMessage>().show(e),
    }
}

/// Reads the scenario file again when a text editor changed it (looked at twice a second).
pub(super) fn reload_from_disk(world: &mut World, mut last: Local<Option<Duration>>) {
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
