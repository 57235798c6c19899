//! The board window: the table drawn in 2D with draggable tokens and egui panels, for any
//! ruleset, the rules running in the same app. One plugin per module; this one assembles
//! them, registers every ruleset (`crate::rulesets`) and loads the scenario. A ruleset's own
//! widgets are its board adapter's (`adapter`).

pub mod adapter;
mod art;
pub mod audience;
mod balance;
pub mod board;
mod camera;
mod capture;
pub mod chips;
mod damage;
pub mod decisions;
mod drag;
mod edit;
mod history;
#[cfg(feature = "serve")]
mod invite;
mod marks;
mod motion;
mod offscreen;
pub mod options;
pub mod order;
mod panels;
mod pointer;
mod reasons;
mod screen_layout;
mod space;
mod stats;
pub mod table;
mod theme;
mod token_art;
mod words;

use std::time::Duration;

use bevy::prelude::*;
use bevy::render::RenderPlugin;
use bevy::render::settings::WgpuSettings;
use bevy::window::{ExitCondition, WindowResolution};
use bevy_egui::EguiPlugin;
use fray_core::fight::ruleset;
use fray_core::prelude::Controller;
use fray_core::ruleset::AddRuleset;
use fray_core::session::AiPacing;

use crate::rulesets;
pub use options::PlayOptions;
use options::{AiPause, Autoplay, LoadError};

/// The client: window, board, panels, and every ruleset's rules and board adapter.
pub struct ClientPlugin(pub PlayOptions);

impl Plugin for ClientPlugin {
    fn build(&self, app: &mut App) {
        stats::mark_start();

        let render = if self.0.no_render {
            RenderPlugin { render_creation: WgpuSettings { backends: None, ..default() }.into(), ..default() }
        } else {
            RenderPlugin::default()
        };
        let window = if self.0.offscreen {
            // No display: no window system, the loop runs by itself, cameras draw into images.
            WindowPlugin { primary_window: None, exit_condition: ExitCondition::DontExit, ..default() }
        } else {
            WindowPlugin {
                primary_window: Some(Window {
                    title: "Fray".into(),
                    resolution: {
                        let (w, h) = self.0.window_size.unwrap_or((1600, 900));
                        WindowResolution::new(w, h)
                    },
                    ..default()
                }),
                ..default()
            }
        };
        // Pictures a scenario names are read from the project's assets/ folder, wherever
        // the binary runs from.
        let assets = bevy::asset::AssetPlugin {
            file_path: crate::assets::assets_dir().display().to_string(),
            ..default()
        };
        let mut plugins = DefaultPlugins.set(window).set(render).set(assets);
        if self.0.offscreen {
            plugins = plugins.disable::<bevy::winit::WinitPlugin>();
        }
        app.add_plugins(plugins);
        if self.0.offscreen {
            app.add_plugins(bevy::app::ScheduleRunnerPlugin::run_loop(Duration::ZERO));
            offscreen::plugin(app);
        }
        app.add_plugins(EguiPlugin::default()).insert_resource(self.0.clone());
        add_parts(app);
        if single_threaded_main() {
            use bevy::ecs::schedule::ScheduleLabel;
            for label in
                [First.intern(), PreUpdate.intern(), Update.intern(), PostUpdate.intern(), Last.intern()]
            {
                app.edit_schedule(label, |s| {
                    s.set_executor(bevy::ecs::schedule::SingleThreadedExecutor::new());
                });
            }
        }
    }
}

/// Every part of the client and every ruleset, without the window, the renderer or egui:
/// what the schedule-order test builds too.
fn add_parts(app: &mut App) {
    let mut boards = adapter::Boards::default();
    for registration in crate::rulesets::all() {
        app.add_any_ruleset(registration.rules.clone());
        if let Some(board) = registration.board {
            board.plugin(app);
            boards.0.push((registration.rules.id(), board));
        }
    }
    app.insert_resource(boards)
        .insert_resource(ClearColor(Color::srgb(0.11, 0.14, 0.12)))
        .init_resource::<LoadError>()
        .init_resource::<Autoplay>()
        .insert_resource(AiPacing::default())
        .insert_resource(AiPause(Timer::new(Duration::from_millis(600), TimerMode::Repeating)))
        .add_systems(Startup, load_scenario.in_set(order::Opening::Scenario))
        .add_systems(Update, (autoplay, pace_ai).chain().in_set(order::Step::Ai));
    order::plugin(app);
    camera::plugin(app);
    pointer::plugin(app);
    audience::plugin(app);
    board::plugin(app);
    token_art::plugin(app);
    marks::plugin(app);
    art::plugin(app);
    motion::plugin(app);
    theme::plugin(app);
    drag::plugin(app);
    edit::plugin(app);
    chips::plugin(app);
    damage::plugin(app);
    space::plugin(app);
    decisions::plugin(app);
    panels::plugin(app);
    balance::plugin(app);
    capture::plugin(app);
    screen_layout::plugin(app);
    history::plugin(app);
    table::plugin(app);
    stats::plugin(app);
    #[cfg(feature = "serve")]
    invite::plugin(app);
}

/// Whether the main world's schedules run on one thread: they do unless `FRAY_EXECUTOR=multi`.
/// Waking the task pool's threads for the board's many small systems costs more than the
/// systems do, on 2 cores and on 16 alike (measured with `--stats`: `docs/benchmarks.md`).
fn single_threaded_main() -> bool {
    std::env::var("FRAY_EXECUTOR").as_deref() != Ok("multi")
}

/// Selects the combatant or location `--select` names, on a scenario or a resumed fight.
fn select_at_start(world: &mut World, options: &PlayOptions) {
    let Some(id) = &options.select else { return };
    let index = world.resource::<fray_core::prelude::TableIndex>();
    let selection = board::pieces::Selection {
        combatant: index.combatant(&id.as_str().into()),
        location: index.location(&id.as_str().into()),
    };
    world.insert_resource(selection);
}

/// Opens the scenario; a broken file leaves an empty table and its error on screen.
fn load_scenario(world: &mut World) {
    let options = world.resource::<PlayOptions>().clone();
    match history::open_at_start(world, &options) {
        Ok(true) => {
            select_at_start(world, &options);
            return;
        }
        Ok(false) => {}
        Err(e) => {
            world.resource_mut::<LoadError>().0 = Some(e);
            return;
        }
    }
    match rulesets::load(&options.scenario) {
        Ok(scenario) => {
            let seed = options.seed.unwrap_or_else(|| scenario.seed());
            scenario.start(world, seed, scenario.default_limit(), false);
            select_at_start(world, &options);
            let index = world.resource::<fray_core::prelude::TableIndex>();
            let unknown: Vec<&str> = options
                .hide
                .iter()
                .filter(|id| index.combatant(&id.as_str().into()).is_none())
                .map(String::as_str)
                .collect();
            if !unknown.is_empty() {
                let words = format!("--hide: no combatant {} in this scenario", unknown.join(", "));
                warn!("{words}");
                world.resource_mut::<pointer::BoardMessage>().show(words);
            }
            let phases = scenario.ruleset().phase_names();
            if let Some(phase) = options.autoplay_until.clone().filter(|p| !phases.contains(&p.as_str())) {
                // Another ruleset's phase: autoplay would never end; the players keep their sides.
                let words = format!(
                    "--autoplay-until: {} has no phase '{phase}' ({})",
                    scenario.ruleset().name(),
                    phases.join(", ")
                );
                warn!("{words}");
                world.resource_mut::<pointer::BoardMessage>().show(words);
            } else if let Some(phase) = options.autoplay_until.clone() {
                let mut controllers = world.query::<(Entity, &mut Controller)>();
                let saved = controllers
                    .iter_mut(world)
                    .map(|(e, mut c)| (e, std::mem::replace(&mut *c, Controller::Ai)))
                    .collect();
                world.resource_mut::<Autoplay>().0 = Some((phase, saved));
            }
            history::after_fresh_start(world, &options);
            if options.edit {
                edit::enter(world);
            }
        }
        Err(e) => {
            let shown = options.scenario.display().to_string();
            world.resource_mut::<LoadError>().0 = Some(e.report(&shown).join("\n"));
        }
    }
}

/// Lets the AI take one decision per pause (per frame while autoplaying).
fn pace_ai(
    time: Res<Time>,
    autoplay: Res<Autoplay>,
    mut pause: ResMut<AiPause>,
    mut pacing: ResMut<AiPacing>,
) {
    if pause.0.tick(time.delta()).just_finished() || autoplay.0.is_some() {
        pacing.allowance = 1;
    }
}

/// Ends autoplay when the wanted phase waits on one of the scenario's players.
fn autoplay(world: &mut World) {
    let Some((phase, saved)) = world.resource::<Autoplay>().0.clone() else {
        return;
    };
    let Some(rules) = ruleset(world) else { return };
    let now = rules.phase(world);
    let waiting = rules.awaiting(world);
    if saved.is_empty() {
        // The players have their sides back: wait for the AI's sides to finish this phase.
        let ai_asked = waiting.iter().any(|&e| world.get::<Controller>(e) == Some(&Controller::Ai));
        if now.over || now.name != phase || !ai_asked {
            world.resource_mut::<Autoplay>().0 = None;
        }
        return;
    }
    let asked = waiting.into_iter().any(|e| saved.iter().any(|(s, c)| *s == e && c.is_person()));
    if now.over || (now.name == phase && asked) {
        for (e, controller) in saved {
            if let Ok(mut entity) = world.get_entity_mut(e) {
                entity.insert(controller);
            }
        }
        world.resource_mut::<Autoplay>().0 = Some((phase, Vec::new()));
    }
}
