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
    table_key,
};

/// Moves the caption of each token standing in no card where it covers no other token, tag,
/// mount, card or caption: under its token, else to its right, to its left or over it (else
/// under it). Placed on the board, so no screen shows an overlap whatever its zoom.
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
    let half = |s: &Sprite| s.custom_size.map_or(TOKEN, |s| s.x) / 2.0;
    // A token with its chips' counts at its corners (placed for the largest token).
    let square = |at: Vec2, h: f32| {
        Rect::new(at.x - h - 8.0, at.y - h - 6.0, at.x + h + 8.0, at.y + TOKEN / 2.0 + CHIP_TOP)
    };
    let mut taken: Vec<Rect> =
        tokens.iter().map(|(_, _, t, s)| square(t.translation.truncate(), half(s))).collect();
    // Across, the tokens and cards span this: a caption kept within it is not cut where a view
    // shows the board in part and stops at its side.
    let across = taken
        .iter()
        .chain(cards.iter().map(|c| &c.0))
        .fold((f32::MAX, f32::MIN), |(lo, hi), r| (lo.min(r.min.x), hi.max(r.max.x)));
    taken.extend(mounts.iter().filter_map(|(t, s)| {
        s.custom_size.map(|size| Rect::from_center_size(t.translation.truncate(), size))
    }));
    // A cover's name over its circle, else under it, else further off: clear of every token.
    // The scenery is framed with the board: its circles, every label and the scale bar.
    let mut extent: Option<Rect> = drawn.circles();
    let grow = |extent: &mut Option<Rect>, r: Rect| *extent = Some(extent.map_or(r, |e| e.union(r)));
    for (mut transform, layout, label) in &mut scenery {
        let lift = label.radius + 4.0 + layout.size.y / 2.0;
        let spots = [1.0, -1.0, 2.0, -2.0, 3.0, -3.0, 4.0, -4.0, 5.0, -5.0].map(|k: f32| {
            label.at + Vec2::new(0.0, k.signum() * (lift + (k.abs() - 1.0) * (layout.size.y + 2.0)))
        });
        let clear = |c: &Vec2| {
            let r = Rect::from_center_size(*c, layout.size);
            taken.iter().all(|o| o.intersect(r).is_empty())
        };
        let at = spots.iter().copied().find(clear).unwrap_or(spots[0]);
        taken.push(Rect::from_center_size(at, layout.size));
        grow(&mut extent, Rect::from_center_size(at, layout.size));
        if transform.translation.truncate() != at {
            transform.translation = at.extend(transform.translation.z);
        }
    }
    // A caption in a card wraps to the width of the card's grid column.
    let wrap: BTreeMap<Entity, f32> = tokens
        .iter()
        .filter_map(|(e, t, ..)| Some((e, *columns.0.get(&occupies.get(t.0).ok()?.0)? - 8.0)))
        .collect();
    let cards: Vec<Rect> = cards.iter().map(|r| r.0).collect();
    let sizes: BTreeMap<Entity, f32> = tokens.iter().map(|(e, _, _, s)| (e, half(s))).collect();
    let mut order: Vec<(Entity, Vec2)> =
        tokens.iter().map(|(e, _, t, _)| (e, t.translation.truncate())).collect();
    // Tokens in cards first (their captions stay in the grid), then left to right.
    // Standing in a location's card: its caption stays in the card's grid.
    let carded: std::collections::HashSet<Entity> = tokens
        .iter()
        .filter(|(_, t, ..)| occupies.get(t.0).is_ok_and(|o| !fields.contains(o.0)))
        .map(|(e, ..)| e)
        .collect();
    order.sort_by(|a, b| {
        let free = |e: Entity| !carded.contains(&e);
        (free(a.0), a.1.x, a.0).partial_cmp(&(free(b.0), b.1.x, b.0)).unwrap_or(std::cmp::Ordering::Equal)
    });
    let mut by_token: BTreeMap<Entity, Vec<usize>> = BTreeMap::new();
    let found: Vec<_> = captions.iter().map(|(p, l, ..)| (p.parent(), l.size)).collect();
    for (i, (token, _)) in found.iter().enumerate() {
        by_token.entry(*token).or_default().push(i);
    }
    let mut wanted: BTreeMap<Entity, (Vec2, Anchor)> = BTreeMap::new();
    let mut crowd: Vec<(Entity, Vec2)> = Vec::new();
    for (token, at) in order {
        let h = sizes.get(&token).copied().unwrap_or(TOKEN / 2.0);
        for &i in by_token.get(&token).into_iter().flatten() {
            let size = found[i].1;
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
            let in_card = carded.contains(&token);
            let free = |spot: &(Vec2, Anchor)| {
                let r = rect(spot);
                let clear = |o: &Rect| o.intersect(r).is_empty();
                taken.iter().all(clear) && cards.iter().all(clear)
            };
            // In a crowd, further down or aside, a line at a time; further off, a caption
            // would no longer read as its token's (it joins its crowd's "N here").
            let further = (1..=2).flat_map(|k| {
                let down = Vec2::new(0.0, -(size.y + 2.0) * k as f32);
                [(below.0 + down, below.1), (spots[1].0 + down, spots[1].1), (spots[2].0 + down, spots[2].1)]
            });
            // A spot within the span of the tokens and cards first (a caption past the outermost
            // token would stick out of a view in part): over that token rather than beside it.
            let within = |spot: &(Vec2, Anchor)| {
                let r = rect(spot);
                r.min.x >= across.0 && r.max.x <= across.1
            };
            let spot = if in_card || size == Vec2::ZERO {
                Some(below)
            } else {
                let mut all = spots.into_iter().chain(further);
                all.clone().find(|s| free(s) && within(s)).or_else(|| all.find(free))
            };
            // With no room left, the caption joins its crowd's "N here" (`label_crowds`).
            let Some(spot) = spot else {
                crowd.push((token, at));
                continue;
            };
            taken.push(rect(&spot));
            if !in_card {
                extent = Some(extent.map_or(rect(&spot), |e: Rect| e.union(rect(&spot))));
            }
            wanted.insert(token, spot);
        }
    }
    taken.extend(cards);
    // The scale bar under everything drawn (tokens, captions, cards, the scenery and its
    // names), from their left edge: it crosses none of them.
    if let Some(under) = taken.iter().copied().chain(drawn.circles()).reduce(|a, b| a.union(b)) {
        let start = crate::client::space::bar_start(under);
        if drawn.bar_start().is_some_and(|s| s != start) {
            drawn.put_bar(start);
        }
    }
    if let Some(bar) = drawn.bar_rect() {
        grow(&mut extent, bar);
        // A crowd's "N here" keeps clear of it too.
        taken.push(bar);
    }
    crowded.set_if_neq(Crowded { members: crowd, taken, captions: extent });
    for (parent, mut layout, mut transform, mut anchor, mut ink, mut bounds, mut visibility) in &mut captions
    {
        let hidden = crowded.members.iter().any(|(t, _)| *t == parent.parent());
        visibility.set_if_neq(if hidden { Visibility::Hidden } else { Visibility::Inherited });
        let width = wrap.get(&parent.parent()).copied();
        if bounds.width != width {
            bounds.width = width;
        }
        // On a card, the card's ink; on the field, the field's.
        let wanted_ink = if carded.contains(&parent.parent()) { palette.card_ink } else { palette.ink };
        if ink.0 != wanted_ink {
            ink.0 = wanted_ink;
        }
        let Some((offset, spot)) = wanted.get(&parent.parent()) else { continue };
        if transform.translation.truncate() != *offset {
            transform.translation = offset.extend(transform.translation.z);
        }
        if *anchor != *spot {
            *anchor = *spot;
            // Bevy works out a text's bounds for culling again only when its layout changes,
            // not its anchor: a caption moved beside its token would be culled by the old
            // bounds where it stands across a view's edge.
            layout.set_changed();
        }
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
        let mut first = shown_name(&c.name, &everyone).to_owned();
        if let Some(mount) = world.get::<Rides>(e).and_then(|r| world.get::<Mount>(r.0)) {
            first = format!("{first} on {}", mount.name);
        }
        let view = rules.token(world, e);
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
