//! Tokens whose captions found no room, gathered into crowds and labelled "N here"; the
//! names in a crowd show while the GM's pointer is over its label.

use bevy::prelude::*;
use fray_core::prelude::Combatant;

use super::changes::LayoutDirty;
use super::names::shown_name;
use super::pieces::{CAPTION, CAPTION_GAP, CaptionExtent, Crowd, Crowded, TOKEN, Token, grow, text};
use crate::client::audience::Audience;

/// How near two tokens whose captions found no room stand to share one crowd label.
const CROWD_REACH: f32 = TOKEN * 2.5;

/// A crowd: whether it is hidden from the table, and where each in it stands, with its name.
pub(super) type Gathered = (bool, Vec<(Vec2, String)>);

/// Gathers tokens (where each stands, its name, whether it is hidden from the table) into
/// crowds: each joins the first crowd of its kind with a member near enough, else starts one.
pub(super) fn gather(tokens: impl IntoIterator<Item = (Vec2, String, bool)>) -> Vec<Gathered> {
    let mut crowds: Vec<Gathered> = Vec::new();
    for (at, name, hid) in tokens {
        let near = |(h, members): &&mut Gathered| {
            *h == hid && members.iter().any(|(p, _)| p.distance(at) < CROWD_REACH)
        };
        match crowds.iter_mut().find(near) {
            Some((_, members)) => members.push((at, name)),
            None => crowds.push((hid, vec![(at, name)])),
        }
    }
    crowds
}

/// A crowd's label, worked out.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Label {
    /// "4 here", or the name of one alone.
    pub(super) words: String,
    /// The names of those in the crowd.
    pub(super) names: Vec<String>,
    /// For the GM only (its crowd is hidden from the table).
    pub(super) hidden: bool,
    pub(super) at: Vec2,
}

/// The label of each crowd, in order, placed clear of `taken` and of the labels before it
/// (`sizes`: each label's size as last laid out, by index), and `framed` grown to hold them.
pub(super) fn labels(
    crowds: Vec<Gathered>,
    everyone: &[&str],
    sizes: &[Vec2],
    mut taken: Vec<Rect>,
    mut framed: Option<Rect>,
) -> (Vec<Label>, Option<Rect>) {
    let mut out = Vec::new();
    for (i, (hidden, members)) in crowds.into_iter().enumerate() {
        // One alone is named: "1 here" would say less in as much room.
        let words = match members.as_slice() {
            [(_, only)] => shown_name(only, everyone).into_owned(),
            _ => format!("{} here", members.len()),
        };
        // A new label's size is guessed until its text is laid out.
        let size = sizes.get(i).copied().filter(|s| *s != Vec2::ZERO).unwrap_or(Vec2::new(64.0, 20.0));
        let at = crowd_spot(&members, size, &taken);
        let drawn = Rect::from_center_size(at, size);
        taken.push(drawn);
        grow(&mut framed, drawn);
        let names = members.into_iter().map(|(_, n)| n).collect();
        out.push(Label { words, names, hidden, at });
    }
    (out, framed)
}

/// Gathers the tokens whose captions found no room into crowds (those standing near one
/// another, the ones hidden from the table apart) and writes one "N here" per crowd where it
/// covers nothing, under the crowd, else beside it.
#[allow(clippy::too_many_arguments)]
pub(super) fn label_crowds(
    dirty: Res<LayoutDirty>,
    crowded: Res<Crowded>,
    palette: Res<crate::client::theme::Palette>,
    hidden: Res<crate::client::audience::HiddenFromTable>,
    main_hidden: Res<crate::client::audience::HiddenFromMain>,
    mut extent: ResMut<CaptionExtent>,
    tokens: Query<&Token>,
    combatants: Query<&Combatant>,
    mut existing: Query<(
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
    let crowds = gather(crowded.members.iter().filter_map(|&(drawing, at)| {
        let c = tokens.get(drawing).ok().and_then(|t| combatants.get(t.0).ok())?;
        // One the GM's window's seat may not see is in no crowd it shows.
        (!main_hidden.0.contains(&c.id)).then(|| (at, c.name.clone(), hidden.0.contains(&c.id)))
    }));
    let sizes: Vec<Vec2> = existing.iter().map(|(.., layout, _)| layout.size).collect();
    let (labels, framed) = labels(crowds, &everyone, &sizes, crowded.taken.clone(), crowded.captions);
    let mut existing: Vec<_> = existing.iter_mut().collect();
    for (i, label) in labels.iter().enumerate() {
        let audience = if label.hidden { Audience::Gm } else { Audience::All };
        let crowd = Crowd { names: label.names.clone() };
        match existing.get_mut(i) {
            Some((_, old, text, transform, shown, _, ink)) => {
                old.set_if_neq(crowd);
                ink.set_if_neq(TextColor(palette.ink));
                if text.0 != label.words {
                    text.0 = label.words.clone();
                }
                if transform.translation.truncate() != label.at {
                    transform.translation = label.at.extend(6.0);
                }
                shown.set_if_neq(audience);
            }
            None => {
                commands.spawn((
                    crowd,
                    audience,
                    text(label.words.clone(), CAPTION, palette.ink),
                    Transform::from_translation(label.at.extend(6.0)),
                    Pickable::IGNORE,
                ));
            }
        }
    }
    for (label, ..) in existing.iter().skip(labels.len()) {
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
    fn tokens_near_one_another_share_a_crowd_and_the_hidden_ones_keep_apart() {
        let crowds = gather([
            (Vec2::new(0.0, 0.0), "Bran".to_owned(), false),
            (Vec2::new(60.0, 0.0), "Hale".to_owned(), false),
            (Vec2::new(30.0, 0.0), "Spy".to_owned(), true),
            (Vec2::new(900.0, 0.0), "Odo".to_owned(), false),
        ]);
        let names: Vec<Vec<&str>> =
            crowds.iter().map(|(_, m)| m.iter().map(|(_, n)| n.as_str()).collect()).collect();
        assert_eq!(names, [vec!["Bran", "Hale"], vec!["Spy"], vec!["Odo"]]);
        let (labels, framed) = labels(crowds, &["Bran", "Hale", "Spy", "Odo"], &[], Vec::new(), None);
        let words: Vec<&str> = labels.iter().map(|l| l.words.as_str()).collect();
        assert_eq!(words, ["2 here", "Spy", "Odo"], "one alone is named");
        assert!(labels[1].hidden && !labels[0].hidden);
        let framed = framed.expect("the labels are framed");
        assert!(labels.iter().all(|l| framed.contains(l.at)));
    }

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
