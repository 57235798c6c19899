//! The board measured for framing: its bounds, and what a view must keep whole (tokens,
//! their captions and chips, cards with their names and lines), for one camera's layers.

use bevy::camera::visibility::RenderLayers;
use bevy::prelude::*;

use super::fit::{Kept, Smallest, chips_rect, token_rect};
use super::view::BoardCamera;
use crate::client::board::pieces::{CardRect, MountToken, TOKEN, Token};

/// What the cameras frame: the cards, the tokens, and the board's texts.
#[derive(bevy::ecs::system::SystemParam)]
pub(crate) struct BoardParts<'w, 's> {
    pub(super) cards: Query<'w, 's, &'static CardRect>,
    pub(super) tokens: Tokens<'w, 's>,
    pub(super) captions: Captions<'w, 's>,
    pub(super) sprites: Query<'w, 's, (&'static Sprite, &'static InheritedVisibility), With<Token>>,
    /// Each card's lines under its name.
    pub(super) infos: Query<
        'w,
        's,
        (
            &'static GlobalTransform,
            &'static bevy::text::TextLayoutInfo,
            Option<&'static bevy::text::TextBounds>,
            &'static InheritedVisibility,
            &'static ChildOf,
        ),
        With<crate::client::board::pieces::CardInfo>,
    >,
    pub(super) texts: Query<
        'w,
        's,
        (
            &'static TextFont,
            &'static GlobalTransform,
            &'static InheritedVisibility,
            Option<&'static RenderLayers>,
        ),
        With<Text2d>,
    >,
}

impl BoardParts<'_, '_> {
    /// Whether there is nothing to frame.
    pub(crate) fn is_empty(&self) -> bool {
        self.cards.is_empty() && self.tokens.is_empty()
    }

    /// A sum that changes when a token, mount or caption moves or comes or goes (cheaper to
    /// compare each frame than [`Self::kept`] is to work out).
    pub(crate) fn fingerprint(&self) -> Vec2 {
        let tokens = self.tokens.iter().map(|(at, ..)| at.translation.truncate());
        let captions =
            self.captions.iter().map(|(at, _, layout, ..)| at.translation().truncate() + layout.size);
        tokens.chain(captions).enumerate().fold(Vec2::ZERO, |sum, (i, at)| sum + at * (1.0 + i as f32 * 1e-3))
    }

    /// Where each token and mount a camera seeing `seen` draws is drawn, and each token with
    /// its caption, and with its chips: what a view in part keeps whole (a caption with its
    /// token, so that a view does not show a token whose caption it leaves out, nor a caption
    /// without its token). A token hidden from the table does not move the table's view.
    pub(crate) fn kept(&self, seen: &RenderLayers) -> Kept {
        let drawn = |layers: Option<&RenderLayers>| crate::client::audience::sees(seen, layers);
        let tokens = self.tokens.iter().filter(|(.., layers)| drawn(*layers));
        let token_of = |e: Entity| {
            self.tokens.get(e).ok().map(|(at, sprite, _, layers)| (token_rect(at, sprite), drawn(layers)))
        };
        Kept {
            tokens: tokens.clone().map(|(at, sprite, ..)| token_rect(at, sprite)).collect(),
            captions: caption_rects(&self.captions)
                .filter_map(|(owner, rect)| match token_of(owner) {
                    Some((token, true)) => Some(token.union(rect)),
                    Some((_, false)) => None,
                    None => Some(rect),
                })
                .chain(
                    tokens.filter(|(_, _, token, _)| *token).map(|(at, sprite, ..)| chips_rect(at, sprite)),
                )
                .chain(self.card_heads())
                .collect(),
        }
    }

    /// Each shown card's name and lines with the top of its grid: its head, as wide as the card
    /// and its lines may be, from its top edge (the name between, `CARD_HEADER` above the
    /// lines' top) down past the lines by the first row of tokens (no lower than the card's
    /// bottom), so that a view shows neither a card's first row without its name nor a sliver
    /// of its side.
    pub(super) fn card_heads(&self) -> impl Iterator<Item = Rect> {
        self.infos.iter().filter(|(.., shown, _)| shown.get()).map(|(at, layout, bounds, _, card)| {
            let scale = at.scale().truncate();
            let width = bounds.and_then(|b| b.width).unwrap_or(layout.size.x).max(layout.size.x);
            let (x, top) = (at.translation().x, at.translation().y);
            let lines_end = top - layout.size.y * scale.y;
            let first_row = lines_end
                - (crate::client::board::pieces::TAG_ROOM + crate::client::board::pieces::TOKEN) * scale.y;
            let half_width = width * scale.x / 2.0;
            let card = self.cards.get(card.parent()).ok().map(|c| c.0);
            let bottom = card.map_or(first_row, |c| first_row.max(c.min.y).min(lines_end));
            let left = card.map_or(x - half_width, |c| c.min.x.min(x - half_width));
            let right = card.map_or(x + half_width, |c| c.max.x.max(x + half_width));
            Rect::new(left, bottom, right, top + crate::client::board::pieces::CARD_HEADER * scale.y)
        })
    }

    /// The board's bounds (`captions`: where the captions of tokens in no card stand).
    pub(crate) fn bounds(&self, captions: Option<Rect>) -> Rect {
        board_bounds(&self.cards, &self.tokens, captions)
    }

    /// The smallest text and token a camera drawing `layers` shows now.
    pub(crate) fn smallest(&self, layers: &RenderLayers) -> Smallest {
        let text = self
            .texts
            .iter()
            .filter(|(_, _, shown, on)| shown.get() && crate::client::audience::sees(layers, *on))
            .map(|(font, at, ..)| match font.font_size {
                bevy::text::FontSize::Px(px) => px * at.scale().y,
                _ => f32::MAX,
            })
            .fold(f32::MAX, f32::min);
        let token = self
            .sprites
            .iter()
            .filter(|(_, shown)| shown.get())
            .filter_map(|(sprite, _)| sprite.custom_size.map(|s| s.min_element()))
            .fold(f32::MAX, f32::min);
        // Before anything is drawn: the sizes the board is made with.
        Smallest {
            text: if text == f32::MAX { crate::client::board::pieces::BOARD_TEXT } else { text },
            token: if token == f32::MAX { crate::client::board::pieces::TOKEN } else { token },
        }
    }
}

/// Where each token's caption is drawn, for keeping it whole in a view with its token.
type Captions<'w, 's> = Query<
    'w,
    's,
    (
        &'static GlobalTransform,
        &'static bevy::sprite::Anchor,
        &'static bevy::text::TextLayoutInfo,
        Option<&'static bevy::text::TextBounds>,
        &'static InheritedVisibility,
        &'static ChildOf,
    ),
    With<crate::client::board::pieces::TokenCaption>,
>;

/// The token each shown caption belongs to (the caption is its child) and the room the caption
/// takes on the board (one frame behind a token just moved).
fn caption_rects(captions: &Captions) -> impl Iterator<Item = (Entity, Rect)> {
    captions.iter().filter(|(_, _, layout, _, shown, _)| shown.get() && layout.size != Vec2::ZERO).map(
        |(at, anchor, layout, bounds, _, owner)| {
            (
                owner.parent(),
                crate::client::board::pieces::text_rect(at, Some(anchor), layout.size, bounds, true),
            )
        },
    )
}

/// The tokens of combatants and mounts, for framing.
pub(crate) type Tokens<'w, 's> = Query<
    'w,
    's,
    (&'static Transform, Option<&'static Sprite>, Has<Token>, Option<&'static RenderLayers>),
    (Or<(With<Token>, With<MountToken>)>, Without<BoardCamera>),
>;

/// The world rectangle holding every card and token with its caption and tags (`captions`:
/// where the captions of tokens in no card stand).
pub(crate) fn board_bounds(cards: &Query<&CardRect>, tokens: &Tokens, captions: Option<Rect>) -> Rect {
    let mut bounds = cards
        .iter()
        .map(|c| c.0)
        .reduce(|a, b| a.union(b))
        .unwrap_or(Rect { min: Vec2::splat(f32::MAX), max: Vec2::splat(f32::MIN) });
    for (t, ..) in tokens {
        let at = t.translation.truncate();
        bounds = bounds.union(Rect::from_corners(
            at - Vec2::new(TOKEN, TOKEN * 1.3),
            at + Vec2::new(TOKEN, TOKEN * 0.8),
        ));
    }
    captions.map_or(bounds, |c| bounds.union(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_caption_is_kept_with_its_token_and_a_card_with_its_name_and_lines() {
        use bevy::ecs::system::RunSystemOnce;
        let mut world = World::new();
        let token = world
            .spawn((
                Token(Entity::PLACEHOLDER),
                Transform::from_xyz(100.0, 200.0, 0.0),
                Sprite::from_color(Color::WHITE, Vec2::splat(40.0)),
            ))
            .id();
        let layout = |w: f32, h: f32| bevy::text::TextLayoutInfo { size: Vec2::new(w, h), ..default() };
        world.spawn((
            crate::client::board::pieces::TokenCaption(Entity::PLACEHOLDER),
            ChildOf(token),
            GlobalTransform::from(Transform::from_xyz(100.0, 170.0, 0.0)),
            bevy::sprite::Anchor::TOP_CENTER,
            layout(60.0, 30.0),
            InheritedVisibility::VISIBLE,
        ));
        // A token drawn only on another layer (hidden from the table), with its caption.
        let hidden = world
            .spawn((
                Token(Entity::PLACEHOLDER),
                Transform::from_xyz(-300.0, 0.0, 0.0),
                Sprite::from_color(Color::WHITE, Vec2::splat(40.0)),
                RenderLayers::layer(5),
            ))
            .id();
        world.spawn((
            crate::client::board::pieces::TokenCaption(Entity::PLACEHOLDER),
            ChildOf(hidden),
            GlobalTransform::from(Transform::from_xyz(-300.0, -30.0, 0.0)),
            bevy::sprite::Anchor::TOP_CENTER,
            layout(60.0, 30.0),
            InheritedVisibility::VISIBLE,
        ));
        // A tall card and a short one, each with its lines 24 high, 24 under its top.
        for (x, bottom) in [(500.0, 150.0), (900.0, 250.0)] {
            let card = world
                .spawn(crate::client::board::pieces::CardRect(Rect::new(x - 90.0, bottom, x + 90.0, 324.0)))
                .id();
            world.spawn((
                crate::client::board::pieces::CardInfo(Entity::PLACEHOLDER),
                ChildOf(card),
                GlobalTransform::from(Transform::from_xyz(x, 300.0, 0.0)),
                bevy::text::TextBounds::new_horizontal(150.0),
                layout(120.0, 24.0),
                InheritedVisibility::VISIBLE,
            ));
        }
        let kept =
            world.run_system_once(|parts: BoardParts| parts.kept(&RenderLayers::layer(0))).expect("runs");
        assert_eq!(kept.tokens, [Rect::new(80.0, 180.0, 120.0, 220.0)]);
        // The caption (70..130, 140..170) with its token above it.
        assert!(kept.captions.contains(&Rect::new(70.0, 140.0, 130.0, 220.0)), "{:?}", kept.captions);
        // The chips round the token.
        assert!(kept.captions.contains(&Rect::new(64.0, 164.0, 136.0, 236.0)), "{:?}", kept.captions);
        // Each card's lines, as wide as the card, its name above them and its first row of
        // tokens under them (32 for their chips, 54 for the tokens), no lower than its bottom.
        assert!(kept.captions.contains(&Rect::new(410.0, 190.0, 590.0, 330.0)), "{:?}", kept.captions);
        assert!(kept.captions.contains(&Rect::new(810.0, 250.0, 990.0, 330.0)), "{:?}", kept.captions);
        // Nothing of the hidden token, for a camera that does not draw it; for one that does,
        // it and its caption.
        assert!(kept.captions.iter().all(|c| c.max.x < -300.0 || c.min.x > -300.0), "{:?}", kept.captions);
        let all = world.run_system_once(|parts: BoardParts| parts.kept(&RenderLayers::from_layers(&[0, 5])));
        let all = all.expect("runs");
        assert!(all.tokens.contains(&Rect::new(-320.0, -20.0, -280.0, 20.0)), "{:?}", all.tokens);
        assert!(all.captions.contains(&Rect::new(-330.0, -60.0, -270.0, 20.0)), "{:?}", all.captions);
    }
}
