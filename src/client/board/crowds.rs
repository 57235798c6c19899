//! Tokens whose captions found no room, gathered into crowds and labelled "N here"; the
//! names in a crowd show while the GM's pointer is over its label.

use bevy::prelude::*;
use fray_core::prelude::Combatant;

use super::changes::LayoutDirty;
use super::names::shown_name;
use super::pieces::{CAPTION, CAPTION_GAP, CaptionExtent, Crowd, Crowded, TOKEN, Token, text};

/// How near two tokens whose captions found no room stand to share one crowd label.
const CROWD_REACH: f32 = TOKEN * 2.5;

/// Gathers the tokens whose captions found no room into crowds (those standing near one
/// another, the ones hidden from the table apart) and writes one "N here" per crowd where it
/// covers nothing, under the crowd, else beside it.
#[allow(clippy::too_many_arguments)]
pub(super) fn label_crowds(
    dirty: Res<LayoutDirty>,
    crowded: Res<Crowded>,
    palette: Res<crate::client::theme::Palette>,
    hidden: Res<crate::client::audience::HiddenFromTable>,
    mut extent: ResMut<CaptionExtent>,
    tokens: Query<&Token>,
    combatants: Query<&Combatant>,
    mut labels: Query<(
        Entity,
        &mut Crowd,
        &mut Text2d,
        &mut Transform,
        &mut crate::client::audience::Audience,
        &bevy::text::TextLayoutInfo,
        &mut TextColor,
    )>,
    mut commands: Commands,
) {
    if !dirty.0 {
        return;
    }
    let everyone: Vec<&str> = combatants.iter().map(|c| c.name.as_str()).collect();
    let mut crowds: Vec<(bool, Vec<(Vec2, String)>)> = Vec::new();
    for &(drawing, at) in &crowded.members {
        let Some(c) = tokens.get(drawing).ok().and_then(|t| combatants.get(t.0).ok()) else { continue };
        let hid = hidden.0.contains(&c.id);
        let near = |(h, members): &&mut (bool, Vec<(Vec2, String)>)| {
            *h == hid && members.iter().any(|(p, _)| p.distance(at) < CROWD_REACH)
        };
        match crowds.iter_mut().find(near) {
            Some((_, members)) => members.push((at, c.name.clone())),
            None => crowds.push((hid, vec![(at, c.name.clone())])),
        }
    }
    let mut taken = crowded.taken.clone();
    let mut framed = crowded.captions;
    let mut existing: Vec<_> = labels.iter_mut().collect();
    let used = crowds.len();
    for (i, (hid, members)) in crowds.into_iter().enumerate() {
        // One alone is named: "1 here" would say less in as much room.
        let words = match members.as_slice() {
            [(_, only)] => shown_name(only, &everyone).to_owned(),
            _ => format!("{} here", members.len()),
        };
        let names: Vec<String> = members.iter().map(|(_, n)| n.clone()).collect();
        let audience =
            if hid { crate::client::audience::Audience::Gm } else { crate::client::audience::Audience::All };
        // Its size as last laid out; a new label's is guessed until its text is laid out.
        let laid_out = existing.get(i).map(|(.., layout, _)| layout.size);
        let size = laid_out.filter(|s| *s != Vec2::ZERO).unwrap_or(Vec2::new(64.0, 20.0));
        let at = crowd_spot(&members, size, &taken);
        let drawn = Rect::from_center_size(at, size);
        taken.push(drawn);
        framed = Some(framed.map_or(drawn, |f| f.union(drawn)));
        match existing.get_mut(i) {
            Some((_, crowd, text, transform, shown, _, ink)) => {
                crowd.set_if_neq(Crowd { names });
                ink.set_if_neq(TextColor(palette.ink));
                if text.0 != words {
                    text.0 = words;
                }
                if transform.translation.truncate() != at {
                    transform.translation = at.extend(6.0);
                }
                shown.set_if_neq(audience);
            }
            None => {
                commands.spawn((
                    Crowd { names },
                    audience,
                    text(words, CAPTION, palette.ink),
                    Transform::from_translation(at.extend(6.0)),
                    Pickable::IGNORE,
                ));
            }
        }
    }
    for (label, ..) in existing.iter().skip(used) {
        commands.entity(*label).despawn();
    }
    extent.set_if_neq(CaptionExtent(framed));
}

/// The names in a crowd, in a tooltip while the GM's pointer is over its "N here".
pub(super) fn crowd_names(
    mut contexts: bevy_egui::EguiContexts,
    window: Single<&Window, With<bevy::window::PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform), With<crate::client::camera::view::BoardCamera>>,
    labels: Query<(&Crowd, &GlobalTransform, &bevy::text::TextLayoutInfo, &InheritedVisibility)>,
) {
    let Some(at) = window.cursor_position().and_then(|p| crate::client::pointer::pointer_world(&camera, p))
    else {
        return;
    };
    let over = labels.iter().find(|(_, place, layout, shown)| {
        shown.get() && Rect::from_center_size(place.translation().truncate(), layout.size).contains(at)
    });
    let (Some((crowd, ..)), Ok(ctx)) = (over, contexts.ctx_mut()) else { return };
    let names = crowd.names.join("\n");
    use bevy_egui::egui;
    let id = egui::Id::new("crowd names");
    egui::Tooltip::always_open(ctx.clone(), egui::LayerId::background(), id, egui::PopupAnchor::Pointer)
        .show(|ui| ui.label(names));
}

/// Where a crowd's label goes: under the crowd's lowest token, else right or left of it, a
/// line further at a time, clear of everything in `taken` (else the first place tried).
fn crowd_spot(members: &[(Vec2, String)], size: Vec2, taken: &[Rect]) -> Vec2 {
    let (min, max) = members.iter().fold((Vec2::MAX, Vec2::MIN), |(lo, hi), (p, _)| (lo.min(*p), hi.max(*p)));
    let centre = (min + max) / 2.0;
    let step = size.y + 2.0;
    let mut spots = (0..8).flat_map(|k| {
        let k = k as f32;
        [
            Vec2::new(centre.x, min.y - TOKEN / 2.0 - CAPTION_GAP - size.y / 2.0 - k * step),
            Vec2::new(max.x + TOKEN / 2.0 + 10.0 + size.x / 2.0, centre.y - k * step),
            Vec2::new(min.x - TOKEN / 2.0 - 10.0 - size.x / 2.0, centre.y - k * step),
        ]
    });
    let clear = |at: &Vec2| {
        let r = Rect::from_center_size(*at, size);
        taken.iter().all(|o| o.intersect(r).is_empty())
    };
    let under = Vec2::new(centre.x, min.y - TOKEN / 2.0 - CAPTION_GAP - size.y / 2.0);
    spots.find(clear).unwrap_or(under)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_crowds_label_goes_under_it_else_beside_it_clear_of_what_is_drawn() {
        let crowd = [(Vec2::new(0.0, 0.0), "Bran".to_owned()), (Vec2::new(30.0, 10.0), "Hale".to_owned())];
        let size = Vec2::new(60.0, 20.0);
        let at = crowd_spot(&crowd, size, &[]);
        assert_eq!(at.x, 15.0, "centred under the crowd");
        assert!(at.y + size.y / 2.0 <= -TOKEN / 2.0, "under the lowest token: {at}");
        // Something already drawn under the crowd: the label goes elsewhere, clear of it.
        let under = Rect::new(-200.0, -400.0, 200.0, -TOKEN / 2.0);
        let moved = crowd_spot(&crowd, size, &[under]);
        assert!(under.intersect(Rect::from_center_size(moved, size)).is_empty(), "clear: {moved}");
        assert!(moved.x > 30.0 + TOKEN / 2.0 || moved.x < -TOKEN / 2.0, "beside the crowd: {moved}");
    }
}
