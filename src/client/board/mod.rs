//! Draws the table for any ruleset: a card per location (name, what entering costs, where it
//! is entered from, the ruleset's notes), arrows for accessibility, a token per combatant
//! and per mount, in its card or at its free position on the ruleset's scale. Positions
//! follow the rule state every frame, so a refused move simply slides back.
//!
//! The board is worked out in stages, one file each, run in this order in
//! [`Step::Layout`](crate::client::order::Step::Layout):
//! - `spawn`: a drawing appears with each location, combatant and mount, goes with it, and
//!   a click selects it;
//! - `changes`: whether anything the layout reads changed (else the layout stays);
//! - `tokens`: where each token and mount stands, how tall each card grows, and how far
//!   apart the cards are drawn (`spread` works that out);
//! - `cards`: the cards drawn at their size, with their texts;
//! - `captions`: each token's caption written, and placed where it covers nothing;
//! - `crowds`: tokens whose captions found no room labelled "N here";
//! - `arrows`: which card may be entered from which, routed round the cards between.
//!
//! `pieces` holds what the rest of the client reads of the board (the drawings' components,
//! sizes and the board's geometry); `names` the names captions and strips give combatants.

pub mod arrows;
mod captions;
mod cards;
pub mod changes;
mod crowds;
pub mod names;
pub mod pieces;
mod spawn;
mod spread;
mod tokens;

use bevy::prelude::*;

use crate::client::order::{Step, Ui};
use changes::LayoutDirty;
use pieces::{CaptionExtent, Crowded, GridColumns, Selection, Spread};

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Selection>()
        .init_resource::<Spread>()
        .init_resource::<GridColumns>()
        .init_resource::<LayoutDirty>()
        .init_resource::<Crowded>()
        .init_resource::<CaptionExtent>()
        .init_resource::<arrows::ArrowPaths>()
        .add_systems(bevy_egui::EguiPrimaryContextPass, crowds::crowd_names.in_set(Ui::CrowdNames))
        .add_observer(spawn::select)
        .add_observer(spawn::spawn_card)
        .add_observer(spawn::spawn_token)
        .add_observer(spawn::spawn_mount_token)
        .add_systems(
            Update,
            (
                spawn::despawn_orphans,
                changes::note_layout_changes,
                tokens::place_tokens,
                cards::size_cards,
                cards::write_card_info,
                captions::write_captions,
                captions::place_captions,
                cards::place_badges,
                crowds::label_crowds,
                arrows::draw_arrows,
            )
                .chain()
                .in_set(Step::Layout),
        );
}
