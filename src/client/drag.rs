//! Dragging combatant tokens: while a token is dragged, every location it can enter from
//! where it stands shows its TP cost and the others say why not; dropping on a location sends
//! an enter intent, on the open field an evacuate intent, on a free mount a mount intent. A
//! refused move slides back and the reason is shown on the board.

use std::time::Duration;

use bevy::prelude::*;
use fiend_wake::FwIntent;
use fray_core::DriveRules;
use fray_core::intent::{Inbox, Outcomes};
use fray_core::location::{Location, OpenField, place_of, reach, why_not_enter};
use fray_core::prelude::{Combatant, FieldPosition, Mount};

use super::board::{Card, CardBadge, MountToken, Selection, TOKEN, Token, card_at};
use super::camera::BoardCamera;

/// The token being dragged, if any.
#[derive(Resource, Default)]
pub struct Dragging(pub Option<DragState>);

/// A drag in progress.
#[derive(Clone, Copy, Debug)]
pub struct DragState {
    /// The token's entity.
    pub token: Entity,
    /// The combatant it stands for.
    pub combatant: Entity,
}

/// A message shown big on the board for a few seconds (a refusal's reason).
#[derive(Resource)]
pub struct BoardMessage {
    /// The text.
    pub text: String,
    /// How long it stays.
    pub timer: Timer,
}

impl Default for BoardMessage {
    fn default() -> Self {
        Self { text: String::new(), timer: Timer::new(Duration::ZERO, TimerMode::Once) }
    }
}

impl BoardMessage {
    /// Shows `text` for five seconds.
    pub fn show(&mut self, text: impl Into<String>) {
        self.text = text.into();
        self.timer = Timer::new(Duration::from_secs(5), TimerMode::Once);
    }
}

/// An intent sent by a drop, whose outcome is still to be reported.
#[derive(Resource, Default)]
struct PendingDrop(Option<(usize, String)>);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Dragging>()
        .init_resource::<BoardMessage>()
        .init_resource::<PendingDrop>()
        .add_observer(drag_start)
        .add_observer(drag)
        .add_observer(drag_end)
        .add_systems(Update, (report_outcome, light_cards, tick_message).after(DriveRules));
}

fn drag_start(start: On<Pointer<DragStart>>, tokens: Query<&Token>, mut dragging: ResMut<Dragging>) {
    if let Ok(token) = tokens.get(start.entity) {
        dragging.0 = Some(DragState { token: start.entity, combatant: token.0 });
    }
}

fn pointer_world(camera: &(&Camera, &GlobalTransform), screen: Vec2) -> Option<Vec2> {
    camera.0.viewport_to_world_2d(camera.1, screen).ok()
}

fn drag(
    moved: On<Pointer<Drag>>,
    dragging: Res<Dragging>,
    camera: Single<(&Camera, &GlobalTransform), With<BoardCamera>>,
    mut transforms: Query<&mut Transform>,
) {
    if dragging.0.is_none_or(|d| d.token != moved.entity) {
        return;
    }
    if let (Some(at), Ok(mut transform)) = (
        pointer_world(&camera.into_inner(), moved.pointer_location.position),
        transforms.get_mut(moved.entity),
    ) {
        transform.translation = at.extend(5.0);
    }
}

fn drag_end(
    end: On<Pointer<DragEnd>>,
    mut dragging: ResMut<Dragging>,
    camera: Single<(&Camera, &GlobalTransform), With<BoardCamera>>,
    locations: Query<(Entity, &Location), Without<OpenField>>,
    mount_tokens: Query<(&MountToken, &Transform)>,
    mounts: Query<&Mount>,
    combatants: Query<(&Combatant, &fray_core::prelude::Occupies)>,
    field: Query<(), With<OpenField>>,
    outcomes: Res<Outcomes>,
    mut inbox: ResMut<Inbox<FwIntent>>,
    mut pending: ResMut<PendingDrop>,
    mut commands: Commands,
) {
    let Some(state) = dragging.0.take().filter(|d| d.token == end.entity) else {
        return;
    };
    let Some(at) = pointer_world(&camera.into_inner(), end.pointer_location.position) else {
        return;
    };
    let Ok((combatant, occupies)) = combatants.get(state.combatant) else {
        return;
    };
    let on_mount = mount_tokens
        .iter()
        .find(|(_, t)| (t.translation.truncate() - at).abs().max_element() < TOKEN * 0.5)
        .and_then(|(m, _)| mounts.get(m.0).ok());
    let intent = if let Some(mount) = on_mount {
        Some(FwIntent::Mount { mount: mount.id.clone(), upgrade: false })
    } else if let Some(target) = card_at(at, &locations) {
        locations
            .get(target)
            .ok()
            .map(|(_, l)| FwIntent::EnterLocation { location: l.id.clone(), upgrade: false })
    } else if !field.contains(occupies.0) {
        Some(FwIntent::Evacuate { upgrade: false })
    } else {
        // Moving within no location changes no rule: only where the token is drawn.
        commands.entity(state.combatant).insert(FieldPosition([at.x, at.y]));
        None
    };
    if let Some(intent) = intent {
        pending.0 = Some((outcomes.0.len(), combatant.id.0.clone()));
        inbox.submit(combatant.id.clone(), intent);
    }
}

/// Shows the reason when the rules refused a dropped token's move.
fn report_outcome(
    outcomes: Res<Outcomes>,
    mut pending: ResMut<PendingDrop>,
    mut message: ResMut<BoardMessage>,
) {
    let Some((before, who)) = pending.0.clone() else {
        return;
    };
    let Some(outcome) = outcomes.0.iter().skip(before).find(|o| o.actor.as_str() == who) else {
        return;
    };
    if let Err(reason) = &outcome.result {
        message.show(format!("{who}: {reason}"));
    }
    pending.0 = None;
}

/// While a token is dragged: accessible locations are lit and show their TP cost, the others
/// are dimmed and say so (number and words, not colour alone).
fn light_cards(world: &mut World) {
    let dragging = world.resource::<Dragging>().0;
    let from = dragging.and_then(|d| place_of(world, d.combatant).map(|p| (d.combatant, p)));
    if from.is_none() {
        show_reach(world);
        return;
    }
    let mut cards = world.query::<(Entity, &Card)>();
    let looks: Vec<(Entity, Color)> = cards
        .iter(world)
        .map(|(drawing, card)| {
            let colour = match from {
                None => Color::srgb(0.78, 0.72, 0.58),
                Some((_, p)) if why_not_enter(world, p, card.0).is_none() => Color::srgb(1.0, 0.88, 0.45),
                Some(_) => Color::srgb(0.40, 0.38, 0.34),
            };
            (drawing, colour)
        })
        .collect();
    let mut badges = world.query::<(Entity, &CardBadge)>();
    let words: Vec<(Entity, String)> = badges
        .iter(world)
        .map(|(drawing, badge)| {
            let value = match from {
                None => String::new(),
                Some((_, p)) if p == badge.0 => "here".to_owned(),
                Some((who, p)) => match why_not_enter(world, p, badge.0) {
                    None => format!("enter: {} TP", fiend_wake::view::entry_cost_for(world, who, badge.0)),
                    Some(_) => "no entry".to_owned(),
                },
            };
            (drawing, value)
        })
        .collect();
    paint(world, looks, words);
}

/// The reach view: with a token or card selected (and nothing dragged), every card says how
/// many moves away it is, in words and colour, ignoring turns and TP.
fn show_reach(world: &mut World) {
    let selection = *world.resource::<Selection>();
    let from = selection.location.or_else(|| selection.combatant.and_then(|c| place_of(world, c)));
    let moves: Vec<(Entity, u32)> = from.map(|p| reach(world, p, 3)).unwrap_or_default();
    let mut cards = world.query::<(Entity, &Card)>();
    let looks: Vec<(Entity, Color)> = cards
        .iter(world)
        .map(|(drawing, card)| {
            let colour = match (from, moves.iter().find(|(p, _)| *p == card.0).map(|(_, d)| *d)) {
                (None, _) => Color::srgb(0.78, 0.72, 0.58),
                (Some(_), Some(0)) => Color::srgb(0.60, 0.78, 0.95),
                (Some(_), Some(1)) => Color::srgb(0.55, 0.85, 0.50),
                (Some(_), Some(2)) => Color::srgb(0.90, 0.85, 0.40),
                (Some(_), Some(_)) => Color::srgb(0.95, 0.62, 0.35),
                (Some(_), None) => Color::srgb(0.40, 0.38, 0.34),
            };
            (drawing, colour)
        })
        .collect();
    let mut badges = world.query::<(Entity, &CardBadge)>();
    let words: Vec<(Entity, String)> = badges
        .iter(world)
        .map(|(drawing, badge)| {
            let value = match (from, moves.iter().find(|(p, _)| *p == badge.0).map(|(_, d)| *d)) {
                (None, _) => String::new(),
                (Some(_), Some(0)) => "here".to_owned(),
                (Some(_), Some(1)) => "1 move".to_owned(),
                (Some(_), Some(d)) => format!("{d} moves"),
                (Some(_), None) => "over 3 moves".to_owned(),
            };
            (drawing, value)
        })
        .collect();
    paint(world, looks, words);
}

fn paint(world: &mut World, looks: Vec<(Entity, Color)>, words: Vec<(Entity, String)>) {
    for (drawing, colour) in looks {
        if let Some(mut sprite) = world.get_mut::<Sprite>(drawing) {
            sprite.color = colour;
        }
    }
    for (drawing, value) in words {
        if let Some(mut text) = world.get_mut::<Text2d>(drawing)
            && text.0 != value
        {
            text.0 = value;
        }
    }
}

fn tick_message(time: Res<Time>, mut message: ResMut<BoardMessage>) {
    message.timer.tick(time.delta());
}
