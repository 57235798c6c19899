//! Dragging combatant tokens, for any ruleset: while a token is dragged, every card says what
//! entering it would be (in the ruleset's words) or "no entry"; the drop becomes
//! the intent the ruleset's board adapter makes of it (enter a location, begin moving there).
//! A refused move slides back and the reason is shown on the board.

use bevy::prelude::*;
use fray_core::fight::ruleset;
use fray_core::intent::{IntentRecord, Outcomes};
use fray_core::location::{place_of, reach};
use fray_core::prelude::{Combatant, FieldPosition, TableIndex};

use super::adapter::{DropAnswer, board};
use super::audience::{Audience, hidden_from_table};
use super::board::pieces::{
    Card, CardBadge, CardTint, MountToken, Selection, TOKEN, Token, card_at, space, to_unit,
};
use super::camera::view::BoardCamera;
use super::order::Step;
use super::pointer::{BoardMessage, DragState, Dragging, EditMode, Grab, pointer_world};

/// An intent sent by a drop: the number of outcomes before it and who sent it, until its
/// outcome is reported.
#[derive(Resource, Default)]
pub struct PendingDrop(pub Option<(usize, String)>);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<PendingDrop>()
        .add_observer(grab)
        .add_observer(drag_start)
        .add_observer(drag)
        .add_observer(drag_end)
        .init_resource::<Dropped>()
        .add_systems(Update, send_drop.in_set(Step::Drops))
        .add_systems(Update, (tick_message, light_cards, report_outcome).chain().in_set(Step::DropAnswers))
        .add_systems(PreUpdate, release);
}

fn grab(
    press: On<Pointer<Press>>,
    pieces: Query<(), Or<(With<Token>, With<MountToken>, With<super::board::pieces::Chip>)>>,
    mut grab: ResMut<Grab>,
) {
    if pieces.contains(press.entity) {
        grab.0 = true;
    }
}

fn release(buttons: Res<ButtonInput<MouseButton>>, mut grab: ResMut<Grab>) {
    if grab.0 && !buttons.pressed(MouseButton::Left) {
        grab.0 = false;
    }
}

/// A token's drag starts; in edit mode a mount's too (it is placed where it is dropped).
fn drag_start(
    start: On<Pointer<DragStart>>,
    tokens: Query<&Token>,
    mounts: Query<&MountToken>,
    mode: Res<EditMode>,
    mut dragging: ResMut<Dragging>,
) {
    let editing = mode.0;
    let piece = tokens.get(start.entity).map(|t| t.0).ok();
    let piece = piece.or_else(|| mounts.get(start.entity).ok().filter(|_| editing).map(|m| m.0));
    if let Some(piece) = piece {
        dragging.0 = Some(DragState { token: start.entity, combatant: piece });
    }
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

/// A drop to send: the combatant and the board point, worked out by the observer and sent by
/// a system with the world at hand.
#[derive(Resource, Default)]
pub(crate) struct Dropped(pub(crate) Option<(Entity, Vec2)>);

fn drag_end(
    end: On<Pointer<DragEnd>>,
    mut dragging: ResMut<Dragging>,
    camera: Single<(&Camera, &GlobalTransform), With<BoardCamera>>,
    mut dropped: ResMut<Dropped>,
) {
    let Some(state) = dragging.0.take().filter(|d| d.token == end.entity) else {
        return;
    };
    if let Some(at) = pointer_world(&camera.into_inner(), end.pointer_location.position) {
        dropped.0 = Some((state.combatant, at));
    }
}

/// Turns a drop into the intent the ruleset's adapter makes of it, and sends it.
fn send_drop(world: &mut World) {
    let Some((e, at)) = world.resource_mut::<Dropped>().0.take() else {
        return;
    };
    let Some(rules) = ruleset(world) else {
        return;
    };
    // Another seat's view moves only its own; the GM's anyone (the rules judge the move).
    let seat = super::audience::main_seat(world);
    let controller = world.get::<fray_core::prelude::Controller>(e).cloned().unwrap_or_default();
    if seat != fray_core::seat::Seat::Gm && !super::audience::decides(&seat, &controller) {
        let who = fray_core::table::name(world, e);
        let seats = super::audience::seats(world);
        let words =
            format!("{who} is not moved in {}'s view; the GM view (G) moves anyone", seat.describe(&seats));
        world.resource_mut::<BoardMessage>().show(words);
        return;
    }
    let drop = drop_point(world, e, at);
    let answer = match board(world) {
        Some(adapter) => adapter.dropped(world, e, &drop),
        None => unadapted_drop(world, e, &drop),
    };
    match answer {
        DropAnswer::Send(intent) => {
            let who = fray_core::table::id(world, e);
            let before = world.resource::<Outcomes>().0.len();
            world.resource_mut::<PendingDrop>().0 = Some((before, who.to_string()));
            rules.submit(world, who, &intent);
        }
        // Where a token stands in no location changes no rule: only where it is drawn.
        DropAnswer::Place => {
            world.entity_mut(e).insert(FieldPosition(drop.at));
        }
        DropAnswer::Nothing => {}
    }
}

/// Where a piece `e` dropped at board point `at` lands: the card there, a mount there, and the
/// scenario's point in the ruleset's unit.
pub(crate) fn drop_point(world: &mut World, e: Entity, at: Vec2) -> super::adapter::DropPoint {
    let card = card_at(at, &super::board::pieces::card_rects(world));
    let mut mounts = world.query::<(&MountToken, &Transform)>();
    let mount = mounts
        .iter(world)
        .find(|(m, t)| m.0 != e && (t.translation.truncate() - at).abs().max_element() < TOKEN * 0.5)
        .map(|(m, _)| m.0);
    // The field is drawn spread with the cards (`board::pieces::Spread`): the rules read the
    // scenario's point.
    let placed = world.resource::<super::board::pieces::Spread>().back(at);
    super::adapter::DropPoint { at: to_unit(&space(world), placed), card, mount }
}

/// A drop on the board of a ruleset with no adapter: on a board of cards, a token in no
/// location dropped on no card is drawn there (a free position there carries no rule);
/// anything else slides back.
fn unadapted_drop(world: &World, e: Entity, drop: &super::adapter::DropPoint) -> DropAnswer<IntentRecord> {
    let in_field = place_of(world, e).is_some_and(|p| fray_core::location::is_field(world, p));
    if space(world).locations && in_field && drop.card.is_none() && drop.mount.is_none() {
        DropAnswer::Place
    } else {
        DropAnswer::Nothing
    }
}

/// Shows the reason when the rules refused a dropped token's move.
fn report_outcome(
    outcomes: Res<Outcomes>,
    index: Res<TableIndex>,
    people: Query<&Combatant>,
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
        let name = index.combatant(&outcome.actor).and_then(|e| people.get(e).ok()).map(|c| c.name.as_str());
        message.show(format!("{}: {reason}", name.unwrap_or(&who)));
    }
    pending.0 = None;
}

const DIM: Color = Color::srgb(0.40, 0.38, 0.34);

/// Colours the cards and writes their badges: while a token is dragged, accessible locations
/// are lit with the ruleset's words for entering and the others dimmed ("no entry"); otherwise the reach view of
/// the selection. Number and words, not colour alone.
fn light_cards(
    world: &mut World,
    cards: &mut QueryState<(), With<Card>>,
    mut seen: Local<
        Option<(
            Option<Entity>,
            (Option<Entity>, Option<Entity>),
            bool,
            super::board::pieces::TableKey,
            Color,
        )>,
    >,
) {
    // A plain card is the theme's colour.
    let plain = world.resource::<super::theme::Palette>().card;
    // A mount dragged in edit mode enters nowhere by itself.
    let dragging = world
        .resource::<Dragging>()
        .0
        .filter(|d| world.get::<fray_core::table::Combatant>(d.combatant).is_some());
    let selection = *world.resource::<Selection>();
    // Lights cast from a combatant hidden from the table are the GM's alone.
    let source = dragging.map(|d| d.combatant).or(selection.combatant);
    let secret = source.is_some_and(|e| hidden_from_table(world, e));
    let key = Some((
        dragging.map(|d| d.combatant),
        (selection.combatant, selection.location),
        secret,
        super::board::pieces::table_key(world, cards.iter(world).count()),
        plain,
    ));
    if *seen == key {
        return;
    }
    *seen = key;
    let Some(rules) = ruleset(world) else { return };
    let looks: Vec<(Entity, Color, String)> = match dragging
        .and_then(|d| place_of(world, d.combatant).map(|p| (d.combatant, p)))
    {
        Some((who, from)) => card_looks(world, |world, place| match rules.view().entry(world, who, place) {
            _ if place == from => (plain, "here".to_owned()),
            Ok(words) => (Color::srgb(1.0, 0.88, 0.45), words),
            Err(words) => (DIM, words),
        }),
        None => reach_looks(world, plain),
    };
    let badge_audience = if secret { Audience::Gm } else { Audience::All };
    for (card, colour, words) in looks {
        let (public, tint) = if secret { (plain, Some(colour)) } else { (colour, None) };
        if let Some(mut sprite) = world.get_mut::<Sprite>(card)
            && sprite.color != public
        {
            sprite.color = public;
        }
        for part in world.get::<Children>(card).map(|c| c.to_vec()).unwrap_or_default() {
            if world.get::<CardTint>(part).is_some() {
                if let Some(colour) = tint
                    && let Some(mut sprite) = world.get_mut::<Sprite>(part)
                {
                    sprite.color = colour;
                }
                if let Some(mut shown) = world.get_mut::<Visibility>(part) {
                    shown.set_if_neq(if tint.is_some() { Visibility::Inherited } else { Visibility::Hidden });
                }
            }
            if world.get::<CardBadge>(part).is_none() {
                continue;
            }
            if world.get::<Audience>(part) != Some(&badge_audience) {
                world.entity_mut(part).insert(badge_audience);
            }
            if let Some(mut text) = world.get_mut::<Text2d>(part)
                && text.0 != words
            {
                text.0 = words.clone();
            }
        }
    }
}

/// Each card drawing with the colour and badge `look` gives its location.
fn card_looks(
    world: &mut World,
    look: impl Fn(&World, Entity) -> (Color, String),
) -> Vec<(Entity, Color, String)> {
    let mut cards = world.query::<(Entity, &Card)>();
    let cards: Vec<(Entity, Entity)> = cards.iter(world).map(|(drawing, card)| (drawing, card.0)).collect();
    cards
        .into_iter()
        .map(|(drawing, place)| {
            let (colour, words) = look(world, place);
            (drawing, colour, words)
        })
        .collect()
}

/// The reach view: with a token or card selected, every card says how many moves away it is,
/// ignoring turns and costs.
fn reach_looks(world: &mut World, plain: Color) -> Vec<(Entity, Color, String)> {
    let selection = *world.resource::<Selection>();
    let from = selection.location.or_else(|| selection.combatant.and_then(|c| place_of(world, c)));
    let moves: Vec<(Entity, u32)> = from.map(|p| reach(world, p, 3)).unwrap_or_default();
    card_looks(world, |_, place| match (from, moves.iter().find(|(p, _)| *p == place).map(|(_, d)| *d)) {
        (None, _) => (plain, String::new()),
        (Some(_), Some(0)) => (Color::srgb(0.60, 0.78, 0.95), "here".to_owned()),
        (Some(_), Some(1)) => (Color::srgb(0.55, 0.85, 0.50), "1 move".to_owned()),
        (Some(_), Some(2)) => (Color::srgb(0.90, 0.85, 0.40), "2 moves".to_owned()),
        (Some(_), Some(d)) => (Color::srgb(0.95, 0.62, 0.35), format!("{d} moves")),
        (Some(_), None) => (DIM, "over 3 moves".to_owned()),
    })
}

fn tick_message(time: Res<Time>, mut message: ResMut<BoardMessage>) {
    message.timer.tick(time.delta());
}
