//! Sealed bids on the GM's board: while Fiend Wake's bids are secret, each combatant who
//! has bid carries a magenta tag with the amount above its token, for the GM's eyes only
//! (the table sees the amounts once they are revealed). The colour is one nothing else on
//! the board uses, so a check can look for it in both windows' pictures.

use bevy::prelude::*;
use fiend_wake::Round;
use fiend_wake::sheet::RoundChoices;

use super::audience::{Audience, layers};
use crate::client::board::{TOKEN, Token};

/// The tag's colour: pure magenta, used by nothing else on the board.
pub const SEALED_BID: Color = Color::srgb(1.0, 0.0, 1.0);

/// The tag over a token, with the amount it shows.
#[derive(Component)]
struct SealedBid(u32);

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, show_sealed_bids.after(crate::client::board::Layout));
}

/// Adds, rewrites or removes each token's tag as bids are made and revealed.
#[allow(clippy::type_complexity)]
fn show_sealed_bids(
    round: Option<Res<Round>>,
    changed: Query<(), Or<(Changed<RoundChoices>, Added<Token>)>>,
    tokens: Query<(Entity, &Token, Option<&Children>)>,
    choices: Query<&RoundChoices>,
    mut tags: Query<(&mut SealedBid, &Children)>,
    mut texts: Query<&mut Text2d>,
    mut commands: Commands,
) {
    // Bids change only with the round's choices (and new tokens to tag).
    if !round.as_ref().is_some_and(|r| r.is_changed()) && changed.is_empty() {
        return;
    }
    let secret = round.is_some_and(|r| r.prepared && !r.revealed);
    for (drawing, token, children) in &tokens {
        let bid = choices.get(token.0).ok().and_then(|c| c.bid).filter(|_| secret);
        let tag = children.and_then(|kids| kids.iter().find(|&k| tags.contains(k)));
        match (bid, tag) {
            (Some(tp), None) => {
                commands.entity(drawing).with_child(tag_bundle(tp));
            }
            (Some(tp), Some(tag)) => {
                let Ok((mut shown, kids)) = tags.get_mut(tag) else { continue };
                if shown.0 != tp {
                    shown.0 = tp;
                    for &k in kids {
                        if let Ok(mut text) = texts.get_mut(k) {
                            text.0 = format!("bid {tp}");
                        }
                    }
                }
            }
            (None, Some(tag)) => commands.entity(tag).despawn(),
            (None, None) => {}
        }
    }
}

fn tag_bundle(tp: u32) -> impl Bundle {
    (
        SealedBid(tp),
        // Its layer from the first frame, not only once `audience` has looked at it.
        Audience::Gm,
        layers(Audience::Gm, false),
        Sprite::from_color(SEALED_BID, Vec2::new(50.0, 22.0)),
        Transform::from_xyz(0.0, TOKEN / 2.0 + 13.0, 4.0),
        Pickable::IGNORE,
        children![(
            Audience::Gm,
            layers(Audience::Gm, false),
            Text2d::new(format!("bid {tp}")),
            TextFont { font_size: bevy::text::FontSize::Px(15.0), ..default() },
            TextColor(Color::WHITE),
            Transform::from_xyz(0.0, 0.0, 0.1),
            Pickable::IGNORE,
        )],
    )
}
