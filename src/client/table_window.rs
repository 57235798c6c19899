//! `--table-window`: a second window for the players' screen or streaming software. It shows
//! the board and public information only (round, phase, the revealed priority order, the
//! last dice roll), in large type; its camera frames the board once and never moves again.
//! It reads only the rule state everyone sees and the log, never a pending bid or choice.

use bevy::camera::RenderTarget;
use bevy::ecs::schedule::ScheduleLabel;
use bevy::prelude::*;
use bevy::window::{WindowRef, WindowResolution};
use bevy_egui::egui::{self, LayerId, RichText, UiBuilder};
use bevy_egui::{EguiContext, EguiSchedule};
use fiend_wake::FwPhase;
use fiend_wake::phase::Round;
use fray_core::location::{Location, OpenField};
use fray_core::log::{GameLog, LogEvent};
use fray_core::phase::CurrentPhase;
use fray_core::prelude::Combatant;

use super::PlayOptions;
use super::board::Token;
use super::camera::BoardCamera;

/// How long the last dice roll stays up, in seconds.
const ROLL_SHOWN_SECS: f32 = 5.0;
/// The room the top bar takes, in logical pixels, left out when framing the board.
const BAR_HEIGHT: f32 = 150.0;

/// The bar's and the roll's background: opaque, so that a chroma key stays flat around them.
const BACKDROP: egui::Color32 = egui::Color32::from_rgb(18, 20, 19);

/// The table window, when `--table-window` asked for it.
#[derive(Resource, Clone, Copy, Debug)]
pub struct TableWindow {
    /// The window entity.
    pub window: Entity,
}

/// The table window's camera: a fixed view of the board, never panned or zoomed.
#[derive(Component)]
struct TableCamera;

/// The egui pass of the table window's context.
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
struct TableContextPass;

/// The newest roll in the log and when the table window first saw it.
#[derive(Default)]
struct LastRoll {
    seq: Option<u64>,
    since: f32,
}

pub(super) fn plugin(app: &mut App) {
    if !app.world().resource::<PlayOptions>().table_window {
        return;
    }
    app.add_systems(Startup, spawn_table_window)
        .add_systems(Update, frame_once.after(super::board::Layout))
        .add_systems(TableContextPass, draw_overlay);
}

fn spawn_table_window(mut commands: Commands, options: Res<PlayOptions>) {
    let window = commands
        .spawn(Window {
            title: "Fray — table".into(),
            resolution: WindowResolution::new(1280, 720),
            ..default()
        })
        .id();
    let clear_color = match options.chroma {
        Some([r, g, b]) => ClearColorConfig::Custom(Color::srgb_u8(r, g, b)),
        None => ClearColorConfig::Default,
    };
    commands.spawn((
        Camera2d,
        TableCamera,
        Camera { clear_color, ..default() },
        RenderTarget::Window(WindowRef::Entity(window)),
        EguiSchedule::new(TableContextPass),
    ));
    commands.insert_resource(TableWindow { window });
}

/// Frames the whole board once, as soon as there is one; the camera then stays put.
fn frame_once(
    mut framed: Local<bool>,
    table: Res<TableWindow>,
    windows: Query<&Window>,
    locations: Query<&Location, Without<OpenField>>,
    tokens: Query<&Transform, (With<Token>, Without<BoardCamera>)>,
    mut camera: Query<(&mut Transform, &mut Projection), (With<TableCamera>, Without<Token>)>,
    session: Option<Res<crate::session::Session>>,
) {
    if *framed || (locations.is_empty() && tokens.is_empty()) {
        return;
    }
    let (Ok(window), Ok((mut transform, mut projection))) = (windows.get(table.window), camera.single_mut())
    else {
        return;
    };
    let fiend_wake = super::fatewalker::on_fiend_wake(session);
    let bounds = super::camera::board_bounds(&locations, &tokens, fiend_wake);
    let room = Vec2::new(window.width(), window.height() - BAR_HEIGHT).max(Vec2::splat(50.0));
    let mut scale = 1.0;
    if let Projection::Orthographic(ortho) = &mut *projection {
        let size = bounds.size();
        scale = (size.x / room.x).max(size.y / room.y).max(0.3) * 1.05;
        ortho.scale = scale;
    }
    // The bar covers the top: centre the board in the room below it.
    let centre = bounds.center() + Vec2::new(0.0, BAR_HEIGHT / 2.0 * scale);
    transform.translation = centre.extend(transform.translation.z);
    *framed = true;
}

/// The top bar and the last roll, in large type.
fn draw_overlay(
    mut context: Single<&mut EguiContext, With<TableCamera>>,
    time: Res<Time>,
    mut last: Local<LastRoll>,
    log: Option<Res<GameLog>>,
    round: Option<Res<Round>>,
    phase: Option<Res<CurrentPhase<FwPhase>>>,
    session: Option<Res<crate::session::Session>>,
    combatants: Query<&Combatant>,
) {
    let ctx = context.get_mut().clone();
    let fiend_wake = super::fatewalker::on_fiend_wake(session);
    let entries = log.as_ref().map_or(&[][..], |l| l.entries());
    let mut root = egui::Ui::new(
        ctx.clone(),
        "fray_table_root".into(),
        UiBuilder::new().layer_id(LayerId::background()).max_rect(ctx.viewport_rect()),
    );
    let bar = egui::Frame::new().fill(BACKDROP).inner_margin(12.0);
    egui::Panel::top("table_bar").frame(bar).show(&mut root, |ui| {
        ui.horizontal_wrapped(|ui| {
            // FateWalker has no rounds: its log counts half-second ticks instead.
            let clock = match (&round, &log) {
                (Some(r), _) if fiend_wake => format!("Round {}", r.number),
                (_, Some(l)) if !fiend_wake => {
                    format!("Tick {} ({:.1} s)", l.round(), l.round() as f32 / 2.0)
                }
                _ => String::new(),
            };
            ui.label(RichText::new(clock).strong().size(40.0).color(egui::Color32::WHITE));
            let phase_name = match (&phase, entries.last()) {
                (Some(p), _) if fiend_wake => Some(p.get().title().to_string()),
                (_, Some(entry)) => Some(entry.phase.replace('_', " ")),
                _ => None,
            };
            if let Some(name) = phase_name {
                ui.label(RichText::new(format!("· {name}")).size(36.0).color(egui::Color32::YELLOW));
            }
        });
        // The order is public only once the bids are revealed.
        if let Some(r) = round.as_ref().filter(|r| fiend_wake && r.revealed && !r.priority.is_empty()) {
            let names: Vec<String> = r
                .priority
                .iter()
                .enumerate()
                .map(|(i, e)| {
                    let name = combatants.get(*e).map_or("?", |c| c.name.as_str());
                    format!("{}. {name}", i + 1)
                })
                .collect();
            ui.label(
                RichText::new(format!("Priority: {}", names.join("   ")))
                    .size(26.0)
                    .color(egui::Color32::WHITE),
            );
        }
    });
    let newest = entries.iter().rev().find_map(|e| match &e.event {
        LogEvent::Roll(roll) => Some((e.seq, e.actor.clone(), roll)),
        _ => None,
    });
    let Some((seq, actor, roll)) = newest else {
        return;
    };
    if last.seq != Some(seq) {
        *last = LastRoll { seq: Some(seq), since: time.elapsed_secs() };
    }
    if time.elapsed_secs() - last.since > ROLL_SHOWN_SECS {
        return;
    }
    let who = actor
        .and_then(|id| combatants.iter().find(|c| c.id == id).map(|c| c.name.clone()))
        .unwrap_or_default();
    let verdict = if roll.success {
        ("success", egui::Color32::LIGHT_GREEN)
    } else {
        ("miss", egui::Color32::LIGHT_RED)
    };
    let dice: Vec<String> = roll.dice.iter().map(u32::to_string).collect();
    egui::Area::new("table_roll".into()).anchor(egui::Align2::CENTER_BOTTOM, [0.0, -30.0]).show(&ctx, |ui| {
        egui::Frame::new().fill(BACKDROP).inner_margin(18.0).corner_radius(10.0).show(ui, |ui| {
            let what = RichText::new(format!("{who}: {}", roll.what)).size(32.0).color(egui::Color32::WHITE);
            ui.add(egui::Label::new(what).extend());
            ui.add(
                egui::Label::new(
                    RichText::new(format!(
                        "[{}] + {} = {} vs {} — {}",
                        dice.join(" "),
                        roll.modifier,
                        roll.value,
                        roll.difficulty,
                        verdict.0
                    ))
                    .strong()
                    .size(48.0)
                    .color(verdict.1),
                )
                .extend(),
            );
        });
    });
}
