//! The fight's history in the window: undo and redo (buttons, Ctrl+Z / Ctrl+Y), saving,
//! autosave after every accepted intent, the offer to resume an interrupted fight at start,
//! and watching a saved fight step by step (`fray replay SAVE`). The work itself is
//! `crate::session`; this module only asks for it and shows what came of it.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy_egui::egui::{self, RichText};
use fray_core::ruleset::Rulesets;
use fray_core::session::HoldAi;

use super::board::pieces::Selection;
use super::options::PlayOptions;
use super::pointer::BoardMessage;
use crate::session::{self, Autosave, AutosavePlugin, LoadedSave};

/// How the window opened the fight, for the history controls.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub enum HistoryMode {
    /// Playing: undo, redo, save, autosave.
    #[default]
    Playing,
    /// Watching a save: step forward and back, nothing is written.
    Watching,
}

/// An interrupted fight found at start, offered for resuming before anything is autosaved
/// over it.
#[derive(Resource, Clone)]
pub struct ResumeOffer {
    /// Its autosave file.
    pub path: PathBuf,
    /// Its scenario's name.
    pub name: String,
    /// Decisions it holds.
    pub intents: usize,
}

/// Why this window does not autosave (another Fray holds the data folder): said in the top
/// bar for as long as it lasts, not only in a passing message.
#[derive(Resource, Clone, Debug)]
struct AutosaveOff(String);

/// What a person asked of the history this frame.
#[derive(Clone, Debug)]
pub enum HistoryAsk {
    /// Take back the last decision (a step back when watching).
    Undo,
    /// Play the undone decision again (a step forward when watching).
    Redo,
    /// Save the fight to a new file in the working folder.
    Save,
    /// Resume the interrupted fight offered at start.
    Resume,
    /// Keep the scenario just opened; the old autosave will be replaced.
    Decline,
    /// Let the AI decide again after an undo held it.
    ReleaseAi,
}

pub(super) fn plugin(app: &mut App) {
    app.add_plugins(AutosavePlugin).init_resource::<HistoryMode>();
}

/// Opens the fight the command line asked for instead of a fresh scenario: the autosave
/// (`--resume`) or a save to watch (`fray replay SAVE`). Returns false when neither applies.
pub(super) fn open_at_start(world: &mut World, options: &PlayOptions) -> Result<bool, String> {
    if let Some(path) = &options.watch {
        let shown = path.display().to_string();
        let save = session::read_save(world.resource::<Rulesets>(), path)
            .map_err(|e| e.report(&shown).join("\n"))?;
        let report = session::start_replay(world, &save)?;
        *world.resource_mut::<HistoryMode>() = HistoryMode::Watching;
        if report.stopped.is_some() {
            world.resource_mut::<BoardMessage>().show(report.message());
        }
        return Ok(true);
    }
    if options.resume {
        let dir =
            data_dir(options).ok_or("no data folder to resume from: set FRAY_DATA_DIR or --data-dir")?;
        hold_data_folder(world, &dir)?;
        let path = session::last_autosave_in(&dir)
            .ok_or_else(|| format!("no interrupted fight to resume in {}", dir.display()))?;
        let report = session::load(world, &path)?;
        world.resource_mut::<BoardMessage>().show(format!("resumed: {}", report.message()));
        start_autosave(world, options);
        return Ok(true);
    }
    Ok(false)
}

/// After a fresh scenario is spawned: offers an interrupted fight if there is one, else
/// turns autosave on. Scripted runs (screenshots, benchmarks) neither offer nor write.
pub(super) fn after_fresh_start(world: &mut World, options: &PlayOptions) {
    if options.screenshot.is_some() || options.stats.is_some() {
        return;
    }
    // Another Fray on this data folder: its fight is its own, neither offered nor overwritten.
    if let Some(dir) = data_dir(options)
        && let Err(why) = hold_data_folder(world, &dir)
    {
        warn!("no autosave: {why}");
        world.resource_mut::<BoardMessage>().show(format!("Autosave is off: {why}"));
        world.insert_resource(AutosaveOff(why));
        return;
    }
    let rulesets = world.resource::<Rulesets>().clone();
    let offer = data_dir(options).and_then(|d| session::last_autosave_in(&d)).and_then(|path| {
        let save: LoadedSave = session::read_save(&rulesets, &path).ok()?;
        // A fight nobody has decided anything in yet is nothing to resume.
        (save.intents() > 0).then(|| ResumeOffer {
            name: save.scenario.name().to_owned(),
            intents: save.intents(),
            path,
        })
    });
    match offer {
        Some(offer) => {
            // Nothing moves on the new table until the question is answered.
            world.insert_resource(offer);
            world.insert_resource(HoldAi);
        }
        None => start_autosave(world, options),
    }
}

fn data_dir(options: &PlayOptions) -> Option<PathBuf> {
    options.data_dir.clone().or_else(session::data_dir)
}

/// This window's lock on the data folder, taken if it is not held yet; refused, saying why,
/// when another Fray holds it.
fn hold_data_folder(world: &mut World, dir: &std::path::Path) -> Result<(), String> {
    if !world.contains_resource::<session::DataFolderLock>() {
        world.insert_resource(session::lock_data_folder(dir)?);
    }
    Ok(())
}

fn start_autosave(world: &mut World, options: &PlayOptions) {
    if let Some(dir) = data_dir(options) {
        if let Err(why) = hold_data_folder(world, &dir) {
            warn!("no autosave: {why}");
            world.insert_resource(AutosaveOff(why));
            return;
        }
        world.insert_resource(Autosave::to(session::autosave_path(&dir)));
    }
}

/// The history controls for the top bar, and their keys.
pub(super) fn controls(ui: &mut egui::Ui, world: &World, asks: &mut Vec<HistoryAsk>) {
    let watching = *world.resource::<HistoryMode>() == HistoryMode::Watching;
    let (back, forward) = if watching { ("◀ Step back", "Step forward ▶") } else { ("Undo", "Redo") };
    let keys = if watching { ("Left key", "Right key") } else { ("Ctrl+Z", "Ctrl+Y") };
    if ui
        .add_enabled(session::can_undo(world), egui::Button::new(format!("{back} ({})", keys.0)))
        .on_disabled_hover_text("nothing to take back")
        .clicked()
    {
        asks.push(HistoryAsk::Undo);
    }
    if ui
        .add_enabled(session::can_redo(world), egui::Button::new(format!("{forward} ({})", keys.1)))
        .on_disabled_hover_text("nothing to play again")
        .clicked()
    {
        asks.push(HistoryAsk::Redo);
    }
    if watching {
        let (now, total) = session::position(world);
        ui.label(RichText::new(format!("Watching a save: decision {now} of {total}")).strong());
    } else {
        if ui.button("Save").clicked() {
            asks.push(HistoryAsk::Save);
        }
        if world.contains_resource::<HoldAi>()
            && !world.contains_resource::<ResumeOffer>()
            && ui.button("Let the AI decide again").clicked()
        {
            asks.push(HistoryAsk::ReleaseAi);
        }
        match world.get_resource::<Autosave>() {
            Some(auto) if auto.error.is_some() => {
                ui.label(RichText::new("autosave failed (see the message)").color(egui::Color32::LIGHT_RED));
            }
            Some(_) => {
                ui.label(format!(
                    "autosaved, {}",
                    fray_core::words::count(session::accepted_intents(world) as u64, "decision", "decisions")
                ));
            }
            None => {
                if let Some(AutosaveOff(why)) = world.get_resource::<AutosaveOff>() {
                    ui.label(RichText::new("autosave off").color(egui::Color32::LIGHT_RED))
                        .on_hover_text(why);
                }
            }
        }
    }
    let ctx = ui.ctx().clone();
    if ctx.egui_wants_keyboard_input() {
        return;
    }
    let (undo, redo) = ctx.input(|i| {
        if watching {
            (i.key_pressed(egui::Key::ArrowLeft), i.key_pressed(egui::Key::ArrowRight))
        } else {
            (
                i.modifiers.command && i.key_pressed(egui::Key::Z),
                i.modifiers.command && i.key_pressed(egui::Key::Y),
            )
        }
    });
    if undo {
        asks.push(HistoryAsk::Undo);
    }
    if redo {
        asks.push(HistoryAsk::Redo);
    }
}

/// The offer to resume an interrupted fight, shown until answered.
pub(super) fn resume_dialog(ctx: &egui::Context, world: &World, asks: &mut Vec<HistoryAsk>) {
    let Some(offer) = world.get_resource::<ResumeOffer>() else { return };
    egui::Window::new("An interrupted fight").anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0]).show(
        ctx,
        |ui| {
            ui.label(format!(
                "The last fight, \"{}\", did not end ({} decisions). Resume it?",
                offer.name, offer.intents
            ));
            ui.horizontal(|ui| {
                if ui.button(RichText::new("Resume that fight").size(20.0)).clicked() {
                    asks.push(HistoryAsk::Resume);
                }
                if ui.button(RichText::new("Start this one (the old fight is dropped)").size(20.0)).clicked()
                {
                    asks.push(HistoryAsk::Decline);
                }
            });
        },
    );
}

/// Carries out one request.
pub(super) fn apply(world: &mut World, ask: HistoryAsk) {
    let watching = *world.resource::<HistoryMode>() == HistoryMode::Watching;
    let rebuilds = matches!(ask, HistoryAsk::Undo | HistoryAsk::Resume);
    let result = match ask {
        HistoryAsk::Undo => session::undo(world).map(|_| {
            // The AI would only decide the same again: it waits until asked to go on.
            if !watching {
                world.insert_resource(HoldAi);
            }
            format!("Undone: {} decisions on the table", session::accepted_intents(world))
        }),
        HistoryAsk::Redo => session::redo(world)
            .map(|_| format!("Redone: {} decisions on the table", session::accepted_intents(world))),
        HistoryAsk::Save => save_to_new_file(world),
        HistoryAsk::ReleaseAi => {
            world.remove_resource::<HoldAi>();
            Ok("the AI decides again".to_owned())
        }
        HistoryAsk::Resume => {
            let Some(offer) = world.remove_resource::<ResumeOffer>() else { return };
            world.remove_resource::<HoldAi>();
            let options = world.resource::<PlayOptions>().clone();
            let result =
                session::load(world, &offer.path).map(|report| format!("resumed: {}", report.message()));
            start_autosave(world, &options);
            result
        }
        HistoryAsk::Decline => {
            world.remove_resource::<ResumeOffer>();
            world.remove_resource::<HoldAi>();
            let options = world.resource::<PlayOptions>().clone();
            start_autosave(world, &options);
            return;
        }
    };
    // Undo and loading rebuild the table: a selection would name a stale entity.
    if rebuilds {
        *world.resource_mut::<Selection>() = Selection::default();
    }
    match result {
        // Watching, the top bar's count says where the fight stands.
        Ok(_) if watching => {}
        Ok(text) | Err(text) => world.resource_mut::<BoardMessage>().show(text),
    }
}

fn save_to_new_file(world: &mut World) -> Result<String, String> {
    let path = (1..10_000)
        .map(|n| PathBuf::from(format!("fray-save-{n}.ron")))
        .find(|p| !p.exists())
        .ok_or("no free file name for the save")?;
    session::save(world, &path)?;
    Ok(format!("saved to {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_window_on_a_data_folder_another_fray_holds_says_autosave_is_off_while_it_lasts() {
        let dir = std::env::temp_dir().join(format!("fray-held-folder-{}", std::process::id()));
        let _other = session::lock_data_folder(&dir).expect("the first Fray holds the folder");
        let mut world = World::new();
        world.init_resource::<BoardMessage>();
        after_fresh_start(&mut world, &PlayOptions { data_dir: Some(dir.clone()), ..default() });
        assert!(world.get_resource::<Autosave>().is_none(), "no autosave into a held folder");
        let off = world.get_resource::<AutosaveOff>().expect("the top bar says autosave is off");
        assert!(off.0.contains("another Fray"), "{}", off.0);
        assert!(world.resource::<BoardMessage>().text.starts_with("Autosave is off"));
        std::fs::remove_dir_all(&dir).ok();
    }
}
