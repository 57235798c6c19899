//! Each token's caption: its words (name, status, the ruleset's notes) and where it stands
//! (under its token in a card; for a token in no card, wherever it covers nothing).

use std::collections::BTreeMap;

use bevy::prelude::*;
use bevy::sprite::Anchor;
use bevy::text::TextBounds;
use fray_core::fight::ruleset;
use fray_core::location::OpenField;
use fray_core::prelude::{Combatant, Mount, Occupies, Rides, Status};

use super::changes::LayoutDirty;
use super::names::{all_names, shown_name};
use super::pieces::{
    CAPTION_GAP, CHIP_TOP, CardRect, Crowded, GridColumns, MountToken, TOKEN, TableKey, Token, TokenCaption,
    grow, table_key,
};

/// A token as the captions' placement reads it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Piece {
    pub(super) drawing: Entity,
    pub(super) at: Vec2,
    /// Half its size.
    pub(super) half: f32,
    /// It stands in a location's card: its caption stays in the card's grid.
    pub(super) in_card: bool,
}

/// What the captions are placed among: plain data, gathered by [`place_captions`].
#[derive(Debug, Default)]
pub(super) struct Board {
    /// Every token, in the order drawn.
    pub(super) tokens: Vec<Piece>,
    /// Every mount's plate.
    pub(super) mounts: Vec<Rect>,
    /// Every card.
    pub(super) cards: Vec<Rect>,
    /// Each scenery label: its circle's centre and radius, and its text's size.
    pub(super) scenery: Vec<(Vec2, f32, Vec2)>,
    /// Each caption: its token's drawing and its text's size.
    pub(super) captions: Vec<(Entity, Vec2)>,
    /// The scenery's circles, all in one rectangle.
    pub(super) circles: Option<Rect>,
}

/// Where the captions and the scenery's labels go.
#[derive(Debug, Default, PartialEq)]
pub(super) struct Placed {
    /// Each scenery label's place, in [`Board::scenery`]'s order.
    pub(super) scenery: Vec<Vec2>,
    /// Each placed caption's offset from its token, and its anchor, by the token's drawing.
    pub(super) captions: BTreeMap<Entity, (Vec2, Anchor)>,
    /// The tokens whose captions found no room, and where they stand.
    pub(super) crowd: Vec<(Entity, Vec2)>,
    /// What is drawn: tokens with their chips, mounts, labels, captions, cards.
    pub(super) taken: Vec<Rect>,
    /// The captions of the tokens in no card and the scenery, all in one rectangle.
    pub(super) extent: Option<Rect>,
}

/// The room a token takes with its chips' counts at its corners (placed for the largest
/// token).
fn square(at: Vec2, half: f32) -> Rect {
    Rect::new(at.x - half - 8.0, at.y - half - 6.0, at.x + half + 8.0, at.y + TOKEN / 2.0 + CHIP_TOP)
}

impl Board {
    /// Places a cover's name over its circle, else under it, else further off, clear of
    /// every token (and of `taken`, which gains it).
    fn place_scenery(&self, taken: &mut Vec<Rect>, extent: &mut Option<Rect>) -> Vec<Vec2> {
        let mut placed = Vec::new();
        for &(centre, radius, size) in &self.scenery {
            let lift = radius + 4.0 + size.y / 2.0;
            let spots = [1.0, -1.0, 2.0, -2.0, 3.0, -3.0, 4.0, -4.0, 5.0, -5.0].map(|k: f32| {
                centre + Vec2::new(0.0, k.signum() * (lift + (k.abs() - 1.0) * (size.y + 2.0)))
            });
            let clear = |c: &Vec2| {
                let r = Rect::from_center_size(*c, size);
                taken.iter().all(|o| o.intersect(r).is_empty())
            };
            let at = spots.iter().copied().find(clear).unwrap_or(spots[0]);
            let drawn = Rect::from_center_size(at, size);
            taken.push(drawn);
            grow(extent, drawn);
            placed.push(at);
        }
        placed
    }

    /// Where each caption goes: a token in a card's under it; a token in no card's where it
    /// covers no other token, tag, mount, card or caption (under its token, else to its right,
    /// to its left or over it, else a line further down or aside), within the span of the
    /// tokens and cards when it can be; else it joins its crowd. Tokens in cards first, then
    /// left to right.
    pub(super) fn place(&self) -> Placed {
        let mut taken: Vec<Rect> = self.tokens.iter().map(|t| square(t.at, t.half)).collect();
        // Across, the tokens and cards span this: a caption kept within it is not cut where a
        // view shows the board in part and stops at its side.
        let across = taken
            .iter()
            .chain(&self.cards)
            .fold((f32::MAX, f32::MIN), |(lo, hi), r| (lo.min(r.min.x), hi.max(r.max.x)));
        taken.extend(&self.mounts);
        let mut extent = self.circles;
        let scenery = self.place_scenery(&mut taken, &mut extent);
        let mut order = self.tokens.clone();
        order.sort_by(|a, b| {
            (!a.in_card, a.at.x, a.drawing)
                .partial_cmp(&(!b.in_card, b.at.x, b.drawing))
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        let mut placed = Placed { scenery, ..default() };
        for token in order {
            for &(_, size) in self.captions.iter().filter(|c| c.0 == token.drawing) {
                match caption_spot(token, size, across, &taken, &self.cards) {
                    Some((spot, rect)) => {
                        taken.push(rect);
                        if !token.in_card {
                            grow(&mut extent, rect);
                        }
                        placed.captions.insert(token.drawing, spot);
                    }
                    // With no room left, the caption joins its crowd's "N here" (`crowds`).
                    None => placed.crowd.push((token.drawing, token.at)),
                }
            }
        }
        taken.extend(&self.cards);
        placed.taken = taken;
        placed.extent = extent;
        placed
    }
}

/// Where a caption `size` large goes beside `token`, and the rectangle it covers there; none
/// when every spot near enough to read as its token's is taken.
fn caption_spot(
    token: Piece,
    size: Vec2,
    across: (f32, f32),
    taken: &[Rect],
    cards: &[Rect],
) -> Option<((Vec2, Anchor), Rect)> {
    let (h, at) = (token.half, token.at);
    // Under the token, clear of the counts of the chips at its lower corners.
    let below = (Vec2::new(0.0, -h - CAPTION_GAP), Anchor::TOP_CENTER);
    let spots = [
        below,
        (Vec2::new(h + 10.0, 0.0), Anchor::CENTER_LEFT),
        (Vec2::new(-h - 10.0, 0.0), Anchor::CENTER_RIGHT),
        (Vec2::new(0.0, TOKEN / 2.0 + CHIP_TOP), Anchor::BOTTOM_CENTER),
    ];
    let rect = |(offset, anchor): &(Vec2, Anchor)| {
        let min = at + *offset - size * (anchor.0 + 0.5);
        Rect::from_corners(min, min + size)
    };
    if token.in_card || size == Vec2::ZERO {
        return Some((below, rect(&below)));
    }
    let free = |spot: &(Vec2, Anchor)| {
        let r = rect(spot);
        let clear = |o: &Rect| o.intersect(r).is_empty();
        taken.iter().all(clear) && cards.iter().all(clear)
    };
    // In a crowd, further down or aside, a line at a time; further off, a caption would no
    // longer read as its token's (it joins its crowd's "N here").
    let further = (1..=2).flat_map(|k| {
        let down = Vec2::new(0.0, -(size.y + 2.0) * k as f32);
        [(below.0 + down, below.1), (spots[1].0 + down, spots[1].1), (spots[2].0 + down, spots[2].1)]
    });
    // A spot within the span of the tokens and cards first (a caption past the outermost token
    // would stick out of a view in part): over that token rather than beside it.
    let within = |spot: &(Vec2, Anchor)| {
        let r = rect(spot);
        r.min.x >= across.0 && r.max.x <= across.1
    };
    let mut all = spots.into_iter().chain(further);
    let spot = all.clone().find(|s| free(s) && within(s)).or_else(|| all.find(free))?;
    Some((spot, rect(&spot)))
}

/// Places the captions of the tokens and the scenery's labels ([`Board::place`]), the scale
/// bar under everything, and keeps what the crowds' labels must keep clear of ([`Crowded`]).
/// Placed on the board, so no screen shows an overlap whatever its zoom.
#[allow(clippy::too_many_arguments)]
pub(super) fn place_captions(
    palette: Res<crate::client::theme::Palette>,
    tokens: Query<(Entity, &Token, &Transform, &Sprite)>,
    occupies: Query<&Occupies>,
    fields: Query<(), With<OpenField>>,
    mounts: Query<(&Transform, &Sprite), With<MountToken>>,
    mut scenery: Query<
        (&mut Transform, &bevy::text::TextLayoutInfo, &crate::client::space::SceneryLabel),
        (With<crate::client::space::Scenery>, Without<Token>, Without<MountToken>),
    >,
    cards: Query<&CardRect>,
    columns: Res<GridColumns>,
    mut captions: Query<
        (
            &ChildOf,
            &mut bevy::text::TextLayoutInfo,
            &mut Transform,
            &mut Anchor,
            &mut TextColor,
            &mut TextBounds,
            &mut Visibility,
        ),
        (With<TokenCaption>, Without<Token>, Without<MountToken>, Without<crate::client::space::Scenery>),
    >,
    (dirty, mut crowded, mut drawn): (Res<LayoutDirty>, ResMut<Crowded>, ResMut<crate::client::space::Drawn>),
) {
    if !dirty.0 {
        return;
    }
    let in_card = |combatant: Entity| occupies.get(combatant).is_ok_and(|o| !fields.contains(o.0));
    let board = Board {
        tokens: tokens
            .iter()
            .map(|(drawing, token, t, s)| Piece {
                drawing,
                at: t.translation.truncate(),
                half: s.custom_size.map_or(TOKEN, |s| s.x) / 2.0,
                in_card: in_card(token.0),
            })
            .collect(),
        mounts: mounts
            .iter()
            .filter_map(|(t, s)| Some(Rect::from_center_size(t.translation.truncate(), s.custom_size?)))
            .collect(),
        cards: cards.iter().map(|r| r.0).collect(),
        scenery: scenery.iter().map(|(_, layout, label)| (label.at, label.radius, layout.size)).collect(),
        captions: captions.iter().map(|(p, l, ..)| (p.parent(), l.size)).collect(),
        circles: drawn.circles(),
    };
    let mut placed = board.place();
    put_scenery_labels(scenery.iter_mut().map(|(t, ..)| t), &placed.scenery);
    put_scale_bar(&mut placed, &mut drawn);
    crowded.set_if_neq(Crowded { members: placed.crowd, taken: placed.taken, captions: placed.extent });
    // A caption in a card wraps to the width of the card's grid column.
    let wrap: BTreeMap<Entity, f32> = tokens
        .iter()
        .filter_map(|(e, t, ..)| Some((e, *columns.0.get(&occupies.get(t.0).ok()?.0)? - 8.0)))
        .collect();
    let carded: Vec<Entity> = board.tokens.iter().filter(|t| t.in_card).map(|t| t.drawing).collect();
    for (parent, mut layout, mut transform, mut anchor, mut ink, mut bounds, mut visibility) in &mut captions
    {
        let token = parent.parent();
        let hidden = crowded.members.iter().any(|(t, _)| *t == token);
        visibility.set_if_neq(if hidden { Visibility::Hidden } else { Visibility::Inherited });
        let width = wrap.get(&token).copied();
        if bounds.width != width {
            bounds.width = width;
        }
        // On a card, the card's ink; on the field, the field's.
        let wanted_ink = if carded.contains(&token) { palette.card_ink } else { palette.ink };
        if ink.0 != wanted_ink {
            ink.0 = wanted_ink;
        }
        if let Some(&(offset, spot)) = placed.captions.get(&token) {
            put_caption(offset, spot, &mut transform, &mut anchor, &mut layout);
        }
    }
}

/// The scale bar under everything drawn (tokens, captions, cards, the scenery and its names),
/// from their left edge: it crosses none of them. What is placed then keeps clear of it.
fn put_scale_bar(placed: &mut Placed, drawn: &mut crate::client::space::Drawn) {
    if let Some(under) = placed.taken.iter().copied().chain(drawn.circles()).reduce(|a, b| a.union(b)) {
        let start = crate::client::space::bar_start(under);
        if drawn.bar_start().is_some_and(|s| s != start) {
            drawn.put_bar(start);
        }
    }
    if let Some(bar) = drawn.bar_rect() {
        grow(&mut placed.extent, bar);
        // A crowd's "N here" keeps clear of it too.
        placed.taken.push(bar);
    }
}

/// Moves the scenery's labels to their places.
fn put_scenery_labels<'a>(labels: impl Iterator<Item = Mut<'a, Transform>>, places: &[Vec2]) {
    for (mut transform, at) in labels.zip(places) {
        if transform.translation.truncate() != *at {
            transform.translation = at.extend(transform.translation.z);
        }
    }
}

/// Moves a caption to its offset and anchor, touching only what changes.
fn put_caption(
    offset: Vec2,
    spot: Anchor,
    transform: &mut Mut<Transform>,
    anchor: &mut Mut<Anchor>,
    layout: &mut Mut<bevy::text::TextLayoutInfo>,
) {
    if transform.translation.truncate() != offset {
        transform.translation = offset.extend(transform.translation.z);
    }
    if **anchor != spot {
        **anchor = spot;
        // Bevy works out a text's bounds for culling again only when its layout changes, not
        // its anchor: a caption moved beside its token would be culled by the old bounds
        // where it stands across a view's edge.
        layout.set_changed();
    }
}

/// Name and status in words, then the ruleset's notes and its marks' words (their pictures are
/// `marks`'); the counters are chips. Rewritten
/// only when the rules changed something (logged), the table, or what the table may see.
pub(super) fn write_captions(
    world: &mut World,
    captions: &mut QueryState<(Entity, &TokenCaption)>,
    mut seen: Local<Option<(TableKey, Vec<fray_core::ids::CombatantId>)>>,
) {
    let mut hidden: Vec<_> =
        world.resource::<crate::client::audience::HiddenFromTable>().0.iter().cloned().collect();
    hidden.sort();
    let key = Some((table_key(world, captions.iter(world).count()), hidden));
    if *seen == key {
        return;
    }
    let hidden = key.as_ref().map(|k| k.1.clone()).unwrap_or_default();
    *seen = key;
    let Some(rules) = ruleset(world) else { return };
    let all: Vec<(Entity, Entity)> = captions.iter(world).map(|(d, c)| (d, c.0)).collect();
    let names = all_names(world);
    let everyone: Vec<&str> = names.iter().map(String::as_str).collect();
    for (drawing, e) in all {
        let Some(c) = world.get::<Combatant>(e) else { continue };
        let status = world.get::<Status>(e).copied().unwrap_or_default();
        let state = match status {
            Status::Fighting => String::new(),
            other => format!(" [{}]", format!("{other:?}").to_uppercase()),
        };
        let mut first = shown_name(&c.name, &everyone).into_owned();
        if let Some(mount) = world.get::<Rides>(e).and_then(|r| world.get::<Mount>(r.0)) {
            first = format!("{first} on {}", mount.name);
        }
        let view = rules.view().token(world, e);
        let mut notes = view.notes;
        notes.extend(view.marks.into_iter().map(|m| m.label));
        // The rules' own word ("concealed") says it already.
        if hidden.contains(&c.id) && !view.concealed {
            notes.push("hidden".to_owned());
        }
        let value = if notes.is_empty() {
            format!("{first}{state}")
        } else {
            format!("{first}{state}\n{}", notes.join(", "))
        };
        if let Some(mut text) = world.get_mut::<Text2d>(drawing)
            && text.0 != value
        {
            text.0 = value;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entity(n: u32) -> Entity {
        Entity::from_raw_u32(n).expect("a valid index")
    }

    fn token(n: u32, x: f32, y: f32, in_card: bool) -> Piece {
        Piece { drawing: entity(n), at: Vec2::new(x, y), half: TOKEN / 2.0, in_card }
    }

    #[test]
    fn a_caption_goes_under_its_token_else_beside_it_clear_of_other_tokens() {
        let size = Vec2::new(60.0, 20.0);
        // Alone: under it.
        let alone =
            Board { tokens: vec![token(1, 0.0, 0.0, false)], captions: vec![(entity(1), size)], ..default() };
        let placed = alone.place();
        assert_eq!(placed.captions[&entity(1)].1, Anchor::TOP_CENTER);
        assert!(placed.crowd.is_empty());
        // Another token just under it: its caption moves aside, clear of that token.
        let board = Board {
            tokens: vec![token(1, 0.0, 0.0, false), token(2, 0.0, -70.0, false)],
            captions: vec![(entity(1), size)],
            ..default()
        };
        let placed = board.place();
        let (offset, anchor) = placed.captions[&entity(1)];
        assert_ne!(anchor, Anchor::TOP_CENTER, "not under: {offset}");
        let min = offset - size * (anchor.0 + 0.5);
        let caption = Rect::from_corners(min, min + size);
        assert!(caption.intersect(square(Vec2::new(0.0, -70.0), TOKEN / 2.0)).is_empty(), "{caption:?}");
        assert!(placed.extent.is_some_and(|e| e.contains(caption.center())), "framed with the board");
    }

    #[test]
    fn a_caption_in_a_card_stays_under_its_token_and_one_with_no_room_joins_its_crowd() {
        let size = Vec2::new(60.0, 20.0);
        let card = Rect::new(-200.0, -200.0, 200.0, 200.0);
        let board = Board {
            tokens: vec![token(1, 0.0, 0.0, true), token(2, 300.0, 0.0, false)],
            // The card covers the field token's every spot but one far off: it has no room.
            cards: vec![card, Rect::new(240.0, -200.0, 600.0, 200.0)],
            captions: vec![(entity(1), size), (entity(2), size)],
            ..default()
        };
        let placed = board.place();
        assert_eq!(placed.captions[&entity(1)].1, Anchor::TOP_CENTER, "under, in its card");
        assert_eq!(placed.crowd, vec![(entity(2), Vec2::new(300.0, 0.0))]);
        assert!(!placed.captions.contains_key(&entity(2)));
        assert!(placed.taken.contains(&card), "the cards are what is drawn too");
    }
}
