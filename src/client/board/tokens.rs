//! Where each token and mount stands: in its location's card (a grid under the card's text,
//! the card growing down to hold it), at its free position on the ruleset's scale, else in
//! its side's column beside the cards; and the cards' spread, worked out while a table settles.

use std::collections::BTreeMap;

use bevy::prelude::*;
use fray_core::board::Space;
use fray_core::fight::Session;
use fray_core::location::{Location, OpenField};
use fray_core::prelude::{FieldPosition, Occupies, Rides, SideIndex, TableIndex};

use super::changes::LayoutDirty;
use super::pieces::{
    CAPTION_ROOM, CARD_HEADER, Card, CardInfo, CardRect, FREE_MOUNT, FREE_TOKEN, GRID, GridColumns,
    MountLabel, MountToken, NO_CARDS, PlateEmblem, RIDDEN_MOUNT, Spread, TAG_ROOM, TOKEN, Token,
    TokenCaption, card_rect, to_board,
};
use crate::client::pointer::{Dragging, EditMode};

/// The width of a column of tokens in no location, and the height of a row in it.
const COLUMN: f32 = TOKEN + 30.0;
const FIELD_ROW: f32 = TOKEN + 34.0;
/// Rows in a column of tokens in no location.
const FIELD_ROWS: usize = 4;

/// How far a table is from settled: frames left, and the height each card's spread was worked
/// out for.
#[derive(Default)]
pub(super) struct Settle {
    frames: u32,
    /// Frames left of a table's opening settle: its tokens go straight to their places.
    opening: u32,
    planned: BTreeMap<Entity, f32>,
}

/// How long a table opened (or rebuilt) settles, in frames: its cards' spread is worked out
/// meanwhile, well before the layout file is written (`capture`).
const SETTLE_FRAMES: u32 = 30;

/// The place of the `n`-th token of side `side` standing in no location with no position of
/// its own: columns beside the cards, even sides on the left, odd on the right.
fn field_slot(cards: Rect, side: u16, n: usize) -> Vec2 {
    let column = (n / FIELD_ROWS) as f32 * COLUMN;
    let x =
        if side.is_multiple_of(2) { cards.min.x - COLUMN - column } else { cards.max.x + COLUMN + column };
    let y =
        cards.center().y + (FIELD_ROWS as f32 - 1.0) / 2.0 * FIELD_ROW - (n % FIELD_ROWS) as f32 * FIELD_ROW;
    Vec2::new(x, y)
}

/// Where a combatant's token goes: in its location's card (a grid under the card's text, the
/// card growing downwards to hold it), or in no location at its free position (its mount's
/// for a rider) on the ruleset's scale, else in its side's column beside the cards. Mounts
/// stand under their rider, or free.
#[allow(clippy::too_many_arguments)]
pub(super) fn place_tokens(
    session: Option<Res<Session>>,
    index: Res<TableIndex>,
    dragging: Res<Dragging>,
    combatants: Query<(&Occupies, Option<&FieldPosition>, &SideIndex, Option<&Rides>)>,
    places: Query<(&Location, Has<OpenField>)>,
    mount_places: Query<(&Occupies, Option<&FieldPosition>)>,
    infos: Query<(&CardInfo, &bevy::text::TextLayoutInfo)>,
    captions: Query<(&TokenCaption, &bevy::text::TextLayoutInfo)>,
    mut spread: ResMut<Spread>,
    mut columns: ResMut<GridColumns>,
    mut settle: Local<Settle>,
    mut cards: Query<(&Card, &mut CardRect, &mut Transform), (Without<Token>, Without<MountToken>)>,
    mut tokens: Query<(Entity, &Token, &mut crate::client::motion::Goal, &mut Sprite), Without<MountToken>>,
    mut mount_tokens: Query<
        (Entity, &MountToken, &mut crate::client::motion::Goal, &mut Sprite, &Children, Has<PlateEmblem>),
        Without<Token>,
    >,
    mut labels: Query<
        (&mut Visibility, &mut Transform, &bevy::text::TextLayoutInfo),
        (With<MountLabel>, Without<Card>),
    >,
    (mode, mut dirty): (Res<EditMode>, ResMut<LayoutDirty>),
) {
    if !dirty.0 && settle.frames == 0 {
        return;
    }
    // The captions are placed again after this.
    dirty.0 = true;
    let space = session.map_or(Space::LOCATIONS, |s| s.ruleset().space());
    let size = if space.locations { TOKEN } else { FREE_TOKEN };
    // The cards as drawn at their spread, which the side columns stand beside.
    let all_cards = places
        .iter()
        .filter(|(_, field)| !field)
        .map(|(l, _)| {
            let own = card_rect(l, 0.0);
            let shift = spread.out(own.center()) - own.center();
            Rect::from_corners(own.min + shift, own.max + shift)
        })
        .reduce(|a, b| a.union(b))
        .unwrap_or(NO_CARDS);
    // The top of each card's grid: under its name and its text as last laid out.
    let text_height: BTreeMap<Entity, f32> = infos.iter().map(|(i, layout)| (i.0, layout.size.y)).collect();
    let grid_top = |place: Entity, location: &Location| {
        card_rect(location, 0.0).max.y
            - CARD_HEADER
            - text_height.get(&place).copied().unwrap_or(16.0)
            - TAG_ROOM
    };
    // A card's grid is as wide as the widest caption standing in it (captions in a card wrap
    // to its width, see `place_captions`), with room for the chips' counts at the corners of
    // the token beside it; its rows as tall as its tallest caption needs.
    let caption_size: BTreeMap<Entity, Vec2> = captions.iter().map(|(c, l)| (c.0, l.size)).collect();
    let mut column: BTreeMap<Entity, Vec2> = BTreeMap::new();
    for &c in &index.order {
        if let (Ok((occupies, ..)), Some(size)) = (combatants.get(c), caption_size.get(&c)) {
            let cell = column.entry(occupies.0).or_insert(Vec2::new(GRID.x, CAPTION_ROOM));
            *cell = cell.max(*size + Vec2::new(26.0, 11.0));
        }
    }
    let mut slots: BTreeMap<(Entity, u16), usize> = BTreeMap::new();
    let mut in_cards: BTreeMap<Entity, Vec<Entity>> = BTreeMap::new();
    let mut heights_of: BTreeMap<Entity, f32> = BTreeMap::new();
    let mut in_field: Vec<Entity> = Vec::new();
    let mut at: BTreeMap<Entity, Vec2> = BTreeMap::new();
    for &c in &index.order {
        let Ok((occupies, own, side, rides)) = combatants.get(c) else { continue };
        let Ok((_, field)) = places.get(occupies.0) else { continue };
        let key = (occupies.0, if field { side.0 } else { 0 });
        let n = *slots.entry(key).and_modify(|n| *n += 1).or_insert(0);
        // A rider with no place of its own stands where its mount stands.
        let free = own
            .map(|p| p.0)
            .or_else(|| rides.and_then(|r| mount_places.get(r.0).ok()).and_then(|(_, f)| f.map(|p| p.0)));
        if field {
            let place = free.map(|p| spread.out(to_board(&space, p)));
            at.insert(c, place.unwrap_or_else(|| field_slot(all_cards, side.0, n)));
            in_field.push(c);
        } else {
            in_cards.entry(occupies.0).or_default().push(c);
        }
    }
    // Each card's grid: under its text, the card growing down to hold it. Each card's height
    // first, then how far apart the cards must stand for none to cover another.
    let mut needs: Vec<(Entity, Rect, f32, Vec2, usize)> = Vec::new();
    for (&place, members) in &in_cards {
        let Ok((location, _)) = places.get(place) else { continue };
        let own = card_rect(location, 0.0);
        let cell = column.get(&place).copied().unwrap_or(Vec2::new(GRID.x, CAPTION_ROOM));
        // Across: never wider than the card; down: a token, its tags and its caption.
        let step = Vec2::new(cell.x.min((own.width() - 10.0).max(TOKEN)), GRID.y - CAPTION_ROOM + cell.y);
        let per_row = ((own.width() - 10.0) / step.x).max(1.0) as usize;
        let rows = members.len().div_ceil(per_row) as f32;
        let below_text = own.max.y - grid_top(place, location);
        let height = below_text + (rows - 1.0) * step.y + TOKEN + cell.y;
        needs.push((place, own, height.max(own.height()), step, per_row));
    }
    // The spread is worked out while a table settles, then kept: the board never shifts
    // under people's eyes as tokens come and go, nor as a scenario is edited (each edit puts
    // a new table up). A board of free positions keeps a row to spare in every card; a board
    // of cards is drawn as tight as its cards are, and worked out again when one outgrows it.
    let Settle { frames: settling, opening, planned } = &mut *settle;
    if index.is_changed() && !mode.0 {
        *settling = SETTLE_FRAMES;
        *opening = SETTLE_FRAMES;
    }
    let jump = *opening > 0;
    *opening = opening.saturating_sub(1);
    let grown = needs.iter().any(|n| planned.get(&n.0).is_some_and(|&h| n.2 > h + 0.5));
    if grown && space.locations && !mode.0 {
        *settling = (*settling).max(1);
    }
    if *settling > 0 {
        *settling -= 1;
        planned.clear();
        let heights: Vec<(Rect, f32)> = cards
            .iter()
            .filter_map(|(card, ..)| {
                let location = places.get(card.0).ok()?.0;
                let own = card_rect(location, 0.0);
                let one_row = own.max.y - grid_top(card.0, location) + TOKEN + CAPTION_ROOM;
                let need = needs.iter().find(|n| n.0 == card.0);
                let height = match (space.locations, need) {
                    (true, Some(n)) => n.2,
                    (true, None) => own.height(),
                    (false, Some(n)) => n.2 + n.3.y,
                    (false, None) => one_row,
                };
                planned.insert(card.0, height.max(own.height()));
                Some((own, height.max(own.height())))
            })
            .collect();
        // Whatever stands at a position of its own in no card: tokens, free mounts.
        let pieces: Vec<Vec2> = mount_places
            .iter()
            .filter(|(o, _)| places.get(o.0).is_ok_and(|(_, field)| field))
            .filter_map(|(_, f)| f.map(|p| to_board(&space, p.0)))
            .collect();
        spread.update(&heights, &pieces, space.locations);
    }
    let spread = *spread;
    let mut widths = BTreeMap::new();
    for (place, own, height, step, per_row) in needs {
        widths.insert(place, step.x);
        let Ok((location, _)) = places.get(place) else { continue };
        let shift = spread.out(own.center()) - own.center();
        let top = grid_top(place, location) + shift.y;
        let first = Vec2::new(own.min.x + shift.x + 5.0 + step.x / 2.0, top - TOKEN / 2.0);
        for (n, &c) in in_cards[&place].iter().enumerate() {
            at.insert(c, first + Vec2::new((n % per_row) as f32, -((n / per_row) as f32)) * step);
        }
        heights_of.insert(place, height);
    }
    columns.set_if_neq(GridColumns(widths));
    for (card, mut rect, mut transform) in &mut cards {
        let Ok((location, _)) = places.get(card.0) else { continue };
        let own = card_rect(location, 0.0);
        let height = heights_of.get(&card.0).copied().unwrap_or(own.height());
        let shift = spread.out(own.center()) - own.center();
        let wanted =
            CardRect(Rect::from_corners(own.max + shift, Vec2::new(own.min.x, own.max.y - height) + shift));
        if *rect != wanted {
            *rect = wanted;
        }
        let centre = spread.out(Vec2::from(location.position)).extend(transform.translation.z);
        if transform.translation != centre {
            transform.translation = centre;
        }
    }
    // A token in no location is never drawn on a card (it would seem to stand in it): it
    // stands clear of the card's nearest edge.
    let drawn: Vec<Rect> = cards.iter().map(|(_, r, _)| r.0.inflate(size / 2.0 + 8.0)).collect();
    for c in in_field {
        let Some(pos) = at.get_mut(&c) else { continue };
        for r in &drawn {
            if !r.contains(*pos) {
                continue;
            }
            let out = [
                Vec2::new(r.min.x, pos.y),
                Vec2::new(r.max.x, pos.y),
                Vec2::new(pos.x, r.min.y),
                Vec2::new(pos.x, r.max.y),
            ];
            let here = *pos;
            *pos =
                out.into_iter().min_by(|a, b| a.distance(here).total_cmp(&b.distance(here))).unwrap_or(here);
        }
    }
    for (drawing, token, mut goal, mut sprite) in &mut tokens {
        if sprite.custom_size != Some(Vec2::splat(size)) {
            sprite.custom_size = Some(Vec2::splat(size));
        }
        if dragging.0.as_ref().is_some_and(|d| d.token == drawing) {
            continue;
        }
        if let Some(pos) = at.get(&token.0) {
            goal.aim(pos.extend(2.0), jump);
        }
    }
    let riders: BTreeMap<Entity, Entity> = index
        .order
        .iter()
        .filter_map(|&c| combatants.get(c).ok().and_then(|(_, _, _, r)| r.map(|r| (r.0, c))))
        .collect();
    let drawn: BTreeMap<Entity, Rect> = cards.iter().map(|(c, r, _)| (c.0, r.0)).collect();
    for (drawing, m, mut goal, mut sprite, children, emblem) in &mut mount_tokens {
        let ridden = riders.get(&m.0).and_then(|rider| at.get(rider));
        let shown = if ridden.is_some() { Visibility::Hidden } else { Visibility::Inherited };
        // A free mount's plate holds its name, and its emblem left of it (a square).
        let emblem = if emblem { FREE_MOUNT.y } else { 0.0 };
        let mut plate = if ridden.is_some() { RIDDEN_MOUNT } else { FREE_MOUNT };
        for child in children.iter() {
            if let Ok((mut label, mut place, layout)) = labels.get_mut(child) {
                label.set_if_neq(shown);
                if ridden.is_none() {
                    plate.x = plate.x.max(layout.size.x + FREE_MOUNT.y * 0.5) + emblem;
                }
                let x = if ridden.is_none() { emblem / 2.0 } else { 0.0 };
                if place.translation.x != x {
                    place.translation.x = x;
                }
            }
        }
        if sprite.custom_size != Some(plate) {
            sprite.custom_size = Some(plate);
        }
        let pos = match ridden {
            Some(rider) => *rider + Vec2::new(0.0, -TOKEN * 0.2),
            // A free mount in a location waits in the card's lower right corner.
            None => mount_places
                .get(m.0)
                .ok()
                .and_then(|(o, f)| {
                    f.map(|p| spread.out(to_board(&space, p.0))).or_else(|| {
                        drawn.get(&o.0).map(|r| {
                            Vec2::new(r.max.x, r.min.y)
                                + FREE_MOUNT * Vec2::new(-0.5, 0.5)
                                + Vec2::new(-4.0, 4.0)
                        })
                    })
                })
                .unwrap_or_default(),
        };
        // A mount dragged in edit mode follows the pointer.
        if dragging.0.as_ref().is_none_or(|d| d.token != drawing) {
            goal.aim(pos.extend(1.5), jump);
        }
    }
}
