//! The client's frame in one place: the sets every client system joins, in the order they
//! run, around the rules' own set ([`DriveRules`]). A module adds its systems to one of these
//! sets and orders them only among its own; which set runs before which is decided here and
//! nowhere else. A new board feature adds a step here (or joins one) and a plugin in its
//! module.

use bevy::prelude::*;
use fray_core::DriveRules;

/// The client's frame in `Update`, step by step in the order they run. Where two steps do
/// not touch the same data their order is still fixed here, so that the frame reads as a
/// list and the schedule leaves nothing to chance (`tests` below).
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// F12 pictures and quitting (`capture`).
    Keys,
    /// The Balance panel's battles started and collected (`balance`).
    Balance,
    /// The table's screen opened or closed, table mode, its kept settings (`table`).
    TableScreen,
    /// The editor's keys, clicks, drags and reloads turned into edits (`edit`).
    Edits,
    /// A dropped token turned into an intent for the rules (`drag`).
    Drops,
    /// Autoplay and the AI's pace between decisions (the client's `mod.rs`).
    Ai,
    // The rules run here: `fray_core::DriveRules`.
    /// Who the rules conceal from the table now (`audience`).
    Concealment,
    /// The fight saved after the rules ran (`session::Autosaving`).
    Autosave,
    /// Counter chips dropped: the plan the rules answered (`chips`).
    ChipPlan,
    /// A drop's outcome, the cards lit while dragging, the board's message (`drag`).
    DropAnswers,
    /// The palette chosen and the board's background painted (`theme`).
    Palette,
    /// Tokens gliding to their places (`motion`).
    Glide,
    /// Scenery (walls, cover) the board is laid out around (`space`).
    Scenery,
    /// The board laid out: cards, tokens, captions, crowds, arrows (`board`).
    Layout,
    /// Over the laid-out board: headings, the ruler and the scale bar's label (`space`).
    Headings,
    /// Who decides now and whom they may aim at (`decisions`).
    Focus,
    /// Secret choices tagged on their tokens for the GM (`table::secrets`).
    SecretTags,
    /// Tokens hidden from the table faded in the GM's window (`audience`).
    HiddenTokens,
    /// The editor's marks and problem frames (`edit`).
    EditorMarks,
    /// Who acts, and the ring on them (`motion`): the cameras focus on them.
    Acting,
    /// Pictures on tokens, mounts and cards, and the map (`art`).
    Pictures,
    /// Condition marks on tokens (`marks`).
    Marks,
    /// Token discs and their rings (`token_art`).
    TokenArt,
    /// The GM's camera fitted between the panels and framed on the board, its tokens and
    /// texts as the steps above left them (`camera`).
    Framing,
    /// The table window's view: framed, following who acts (`table::window`).
    TableFraming,
    /// Damage floating up from the tokens hit (`damage`).
    Damage,
    /// Counter chips placed on their tokens (`chips`).
    Chips,
    /// A ruleset's own drawings over the board (its board adapter, `crate::rulesets`).
    Ruleset,
}

/// The client's start, in order.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Opening {
    /// Cameras, shapes and labels that exist whatever the scenario.
    Spawn,
    /// The scenario (or the save) opened.
    Scenario,
    /// The table window opened, when the settings or the command line ask for it.
    TableWindow,
}

/// The GM window's egui pass, in order: what is drawn later is drawn on top.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ui {
    /// The GM's panels (`panels`).
    Panels,
    /// The table's overlay in table mode (`table`).
    TableOverlay,
    /// The names in a crowd, on hover (`board`).
    CrowdNames,
}

pub(super) fn plugin(app: &mut App) {
    use Step::*;
    app.configure_sets(
        Update,
        (
            (Keys, Balance, TableScreen, Edits, Drops, Ai).chain(),
            DriveRules,
            (Concealment, Autosave, ChipPlan, DropAnswers, Palette, Glide).chain(),
            (Scenery, Layout, Headings, Focus).chain(),
            (SecretTags, HiddenTokens, EditorMarks, Acting, Pictures, Marks, TokenArt).chain(),
            (Framing, TableFraming, Damage, Chips, Ruleset).chain(),
        )
            .chain(),
    )
    .configure_sets(Update, crate::session::Autosaving.in_set(Autosave))
    .configure_sets(Startup, (Opening::Spawn, Opening::Scenario, Opening::TableWindow).chain())
    .configure_sets(
        bevy_egui::EguiPrimaryContextPass,
        (Ui::Panels, Ui::TableOverlay, Ui::CrowdNames).chain(),
    );
}

#[cfg(test)]
mod tests {
    use bevy::ecs::schedule::{LogLevel, ScheduleBuildError, ScheduleBuildSettings, ScheduleBuildWarning};
    use bevy::prelude::*;

    use crate::client::options::PlayOptions;

    /// Every client schedule, with every ruleset registered, has no two systems that touch
    /// the same data in an order left to chance.
    #[test]
    fn the_client_schedules_have_no_ambiguities() {
        // A data folder that does not exist: no settings of this machine's are read.
        let data = std::env::temp_dir().join("fray-order-test-no-such-folder");
        let mut app = App::new();
        app.insert_resource(PlayOptions { data_dir: Some(data), ..default() })
            .init_resource::<Assets<Image>>();
        super::super::add_parts(&mut app);
        let labels: Vec<_> =
            app.world().resource::<Schedules>().iter().map(|(_, schedule)| schedule.label()).collect();
        assert!(labels.len() >= 5, "the client's schedules: {labels:?}");
        let mut problems = Vec::new();
        for label in labels {
            app.edit_schedule(label, |schedule| {
                schedule.set_build_settings(ScheduleBuildSettings {
                    ambiguity_detection: LogLevel::Error,
                    use_shortnames: false,
                    ..default()
                });
            });
            app.world_mut().schedule_scope(label, |world, schedule| match schedule.initialize(world) {
                Ok(_) => {}
                // The graph still holds the systems when the build fails: name them.
                Err(ScheduleBuildError::Elevated(ScheduleBuildWarning::Ambiguity(found))) => {
                    let graph = schedule.graph();
                    for (a, b, on) in found.0.to_string(graph, world.components()) {
                        // Bevy's own systems (gizmos in `Last`) are Bevy's to order.
                        if a.starts_with("bevy") || b.starts_with("bevy") {
                            continue;
                        }
                        let on: Vec<String> = on.iter().map(|n| n.to_string()).collect();
                        problems.push(format!("{label:?}: {a} and {b}, on {}", on.join(", ")));
                    }
                }
                Err(e) => problems.push(format!("{label:?}: {}", e.to_string(schedule.graph(), world))),
            });
        }
        assert!(problems.is_empty(), "{} pairs in no order:\n{}", problems.len(), problems.join("\n"));
        // The check saw the client, not an empty schedule.
        let update = app.world().resource::<Schedules>().get(Update).map_or(0, |s| s.systems_len());
        assert!(update > 60, "{update} systems in Update");
    }
}
