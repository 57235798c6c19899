//! FateWalker's board adapter: what its board has of its own beyond the generic one. A
//! dropped token begins moving there, in the mode chosen in the panel (riders drive, prone
//! tokens crawl), declared or taken as a preemptive action or a reaction as the moment asks;
//! the ruler says how many movement segments it takes; the question being answered is
//! spelled out; and the aim view gives the distance, range band, modifiers and the number
//! to roll against for an attack on the clicked token, with a line to it on the GM's board.

use bevy::prelude::*;
use bevy_egui::egui::{self, RichText};
use fatewalker::board::{action_label, band_word, mode_verb, mode_word};
use fatewalker::data::MoveMode;
use fatewalker::phase::{AskKind, current};
use fatewalker::{Action, FateWalker, FateWalkerIntent, FateWalkerPhase, view};
use fray_core::board::{Choice, capital, lower_first};
use fray_core::prelude::{Combatant, Rides};
use fray_core::ruleset::Ruleset;

use crate::client::adapter::{BoardAdapter, BoardAsk, DropAnswer, DropPoint, on_table};
use crate::client::audience::{Audience, GmGizmos};
use crate::client::board::pieces::Selection;
use crate::client::decisions::Focus;
use crate::client::order::{Opening, Step};

/// FateWalker's board adapter.
pub struct Board;

/// The movement mode a dragged token moves in (riders ride, prone tokens crawl).
#[derive(Resource, Clone, Copy, Debug)]
struct MoveChoice(MoveMode);

impl Default for MoveChoice {
    fn default() -> Self {
        Self(MoveMode::Run)
    }
}

/// The label on the line to the aimed-at token.
#[derive(Component)]
struct AimLabel;

impl BoardAdapter for Board {
    type Rules = FateWalker;

    fn plugin(app: &mut App) {
        app.init_resource::<MoveChoice>()
            .init_resource::<AimLine>()
            .add_systems(Startup, spawn_aim_label.in_set(Opening::Spawn))
            .add_systems(
                Update,
                (
                    hide_aim_label.run_if(not(on_table(FateWalker::ID))),
                    (aim_line, draw_aim).chain().run_if(on_table(FateWalker::ID)),
                )
                    .chain()
                    .in_set(Step::Ruleset),
            );
    }

    fn dropped(world: &World, e: Entity, drop: &DropPoint) -> DropAnswer<FateWalkerIntent> {
        let action = Action::BeginMoving { mode: mode_for(world, e), to: (drop.at[0], drop.at[1]) };
        DropAnswer::Send(match current(world) {
            FateWalkerPhase::Preempt => match fatewalker::preempt::asked(world) {
                Some(ask) if ask.responder == e && ask.kind == AskKind::Preempt => {
                    FateWalkerIntent::Preempt { action }
                }
                Some(ask) if ask.responder == e => FateWalkerIntent::Counter { action },
                _ => FateWalkerIntent::Act { action },
            },
            _ => FateWalkerIntent::Act { action },
        })
    }

    fn decision(ui: &mut egui::Ui, world: &World, e: Entity, asks: &mut Vec<BoardAsk>) {
        ui.label(question(world, e));
        ui.horizontal_wrapped(|ui| {
            ui.label("Drag your token to move:");
            let chosen = world.resource::<MoveChoice>().0;
            for mode in [MoveMode::Walk, MoveMode::Run, MoveMode::Crawl, MoveMode::Climb, MoveMode::Swim] {
                if ui.selectable_label(chosen == mode, mode_verb(mode)).clicked() {
                    asks.push(BoardAsk::Apply(Box::new(move |world: &mut World| {
                        world.resource_mut::<MoveChoice>().0 = mode;
                    })));
                }
            }
        });
        aim_view(ui, world, e);
    }

    /// Movement buttons in the chosen mode only (riders drive).
    fn keep(world: &World, choice: &Choice<FateWalkerIntent>) -> bool {
        match fatewalker::board::action_of(&choice.intent) {
            Some(Action::BeginMoving { mode, .. }) => {
                *mode == world.resource::<MoveChoice>().0 || *mode == MoveMode::Ride
            }
            _ => true,
        }
    }

    fn ruler(world: &World, e: Entity, metres: f32, _to: [f32; 2]) -> Option<String> {
        let mode = mode_for(world, e);
        let rate = view::rate(world, e, mode);
        if rate <= 0.0 {
            return Some(format!("cannot move {}", mode_word(mode)));
        }
        let n = (metres / rate).ceil().max(1.0);
        Some(format!(
            "{}: {rate:.1} m a segment, {n} segment{}",
            mode_word(mode),
            if n > 1.0 { "s" } else { "" }
        ))
    }
}

/// The mode a drag moves `e` in: riding in a vehicle, crawling when prone, else the mode
/// chosen in the panel.
fn mode_for(world: &World, e: Entity) -> MoveMode {
    if world.get::<Rides>(e).is_some() {
        MoveMode::Ride
    } else if view::prone(world, e) {
        MoveMode::Crawl
    } else {
        world.get_resource::<MoveChoice>().map_or(MoveMode::Run, |m| m.0)
    }
}

/// What the person answers now, in words (the declared action in a preempt step).
fn question(world: &World, e: Entity) -> String {
    match current(world) {
        FateWalkerPhase::Ambush => "The ambush: take the free opening action.".to_owned(),
        FateWalkerPhase::Declare if view::clock(world, e).holding => {
            "Holding: act now, or keep holding.".to_owned()
        }
        FateWalkerPhase::Declare => "Declare an action (or hold).".to_owned(),
        FateWalkerPhase::Preempt => {
            let Some(ask) = fatewalker::preempt::asked(world) else { return String::new() };
            let about = fatewalker::preempt::asked_about(world, &ask)
                .map(|(actor, action)| {
                    format!(
                        "{} declared: {}",
                        view::name(world, actor),
                        lower_first(&action_label(world, &action))
                    )
                })
                .unwrap_or_default();
            match ask.kind {
                AskKind::Preempt => format!("{about}. Act first from your hold?"),
                AskKind::React => format!("{about}. React?"),
            }
        }
        FateWalkerPhase::FreeActions => {
            "A movement segment ends: keep moving, change mode or stop.".to_owned()
        }
        _ => String::new(),
    }
}

/// The token clicked on the board, when it is someone other than the decider.
fn aimed_at(world: &World, e: Entity) -> Option<Entity> {
    world.resource::<Selection>().combatant.filter(|&t| t != e && world.get::<Combatant>(t).is_some())
}

/// With a token clicked: the distance, range band, weapon, every modifier that applies and
/// the number to roll against (around its cover and through it, when that differs).
fn aim_view(ui: &mut egui::Ui, world: &World, e: Entity) {
    let Some(t) = aimed_at(world, e) else { return };
    egui::Frame::group(ui.style()).show(ui, |ui| {
        ui.label(RichText::new(format!("Aiming at {}", view::name(world, t))).strong());
        for through in [false, true] {
            let aim = fatewalker::combat::aim(world, e, t, through);
            if through && aim.target_number == fatewalker::combat::aim(world, e, t, false).target_number {
                continue;
            }
            let weapon = aim.weapon.clone().unwrap_or_else(|| "no weapon".to_owned());
            let band =
                aim.band.map_or_else(|| "melee or no band".to_owned(), |b| format!("{} range", band_word(b)));
            ui.label(format!(
                "{:.1} m · {band} · {weapon}{}",
                aim.distance,
                if through { " · through cover" } else { "" }
            ));
            let rows: Vec<String> = aim.modifiers.iter().map(|(what, m)| format!("{what} {m:+}")).collect();
            ui.label(if rows.is_empty() {
                "No modifiers".to_owned()
            } else {
                format!("Modifiers: {}", rows.join(", "))
            });
            match &aim.target_number {
                Ok(n) => ui.label(format!("Roll against {n}")),
                Err(r) => ui.label(
                    RichText::new(format!("Refused: {}", capital(&r.0))).color(egui::Color32::LIGHT_RED),
                ),
            };
        }
    });
}

fn spawn_aim_label(mut commands: Commands) {
    commands.spawn((
        AimLabel,
        // The aim line is the GM's tool, not the table's.
        Audience::Gm,
        Text2d::new(""),
        TextFont { font_size: FontSize::Px(18.0), ..default() },
        TextColor(Color::srgb(1.0, 0.95, 0.55)),
        Transform::from_xyz(0.0, 0.0, 8.0),
        Visibility::Hidden,
    ));
}

fn hide_aim_label(mut label: Single<&mut Visibility, With<AimLabel>>) {
    label.set_if_neq(Visibility::Hidden);
}

/// The aim line to draw this frame: from, to, words.
#[derive(Resource, Default)]
struct AimLine(Option<(Vec2, Vec2, String)>);

/// Works out the line from the decider to the clicked token, with the distance and band.
fn aim_line(world: &mut World) {
    let reading = world.resource::<Focus>().decider.and_then(|e| {
        let t = aimed_at(world, e)?;
        let aim = fatewalker::combat::aim(world, e, t, false);
        let band = match (aim.band, &aim.weapon) {
            (Some(b), _) => format!("{} range", band_word(b)),
            (None, Some(_)) => "melee".to_owned(),
            (None, None) => "no weapon".to_owned(),
        };
        let board = |e: Entity| Vec2::from(view::position(world, e)) * fatewalker::UNITS_PER_METRE;
        Some((board(e), board(t), format!("{:.1} m, {band}", aim.distance)))
    });
    world.resource_mut::<AimLine>().0 = reading;
}

/// Draws the aim line and its label, for the GM.
fn draw_aim(
    line: Res<AimLine>,
    mut label: Single<(&mut Text2d, &mut Transform, &mut Visibility), With<AimLabel>>,
    mut gizmos: Gizmos<GmGizmos>,
) {
    let (text, transform, visibility) = &mut *label;
    let Some((from, to, words)) = &line.0 else {
        visibility.set_if_neq(Visibility::Hidden);
        return;
    };
    gizmos.line_2d(*from, *to, Color::srgb(1.0, 0.55, 0.45));
    transform.translation = ((*from + *to) / 2.0 + Vec2::new(0.0, 16.0)).extend(8.0);
    if text.0 != *words {
        text.0 = words.clone();
    }
    visibility.set_if_neq(Visibility::Visible);
}
