//! Whether anything the board's layout reads changed since the last frame ([`LayoutDirty`]).

use bevy::prelude::*;
use fray_core::location::Location;
use fray_core::prelude::{FieldPosition, Occupies, Rides, SideIndex, TableIndex};

use super::pieces::{Card, CardRect, GridColumns, MountToken, PlateEmblem, Spread, Token};
use crate::client::pointer::{Dragging, EditMode};

/// Whether anything the board's layout reads changed since the last frame's layout: the
/// pieces' places and sizes, who stands where, the texts' laid-out sizes, the cards, a
/// mount's plate widened for its picture, the drawings removed, and the resources the layout
/// follows. Laying out 200 tokens and their captions every frame cost a fifth of a big
/// board's frame; unchanged, the layout stays.
#[derive(Resource, Default)]
pub(crate) struct LayoutDirty(pub(crate) bool);

/// What [`note_layout_changes`] looks at.
#[derive(bevy::ecs::system::SystemParam)]
pub(super) struct LayoutChanged<'w, 's> {
    pieces:
        Query<'w, 's, (), (Or<(With<Token>, With<MountToken>)>, Or<(Changed<Transform>, Changed<Sprite>)>)>,
    standing: Query<
        'w,
        's,
        (),
        Or<(
            Changed<Occupies>,
            Changed<FieldPosition>,
            Changed<Rides>,
            Changed<SideIndex>,
            Changed<Location>,
        )>,
    >,
    texts: Query<'w, 's, (), Changed<bevy::text::TextLayoutInfo>>,
    plates: Query<'w, 's, (), Added<PlateEmblem>>,
    cards: Query<'w, 's, (), Or<(Changed<CardRect>, Changed<crate::client::space::SceneryLabel>)>>,
    gone_tokens: RemovedComponents<'w, 's, Token>,
    gone_mounts: RemovedComponents<'w, 's, MountToken>,
    gone_cards: RemovedComponents<'w, 's, Card>,
    gone_places: RemovedComponents<'w, 's, Occupies>,
    index: Res<'w, TableIndex>,
    dragging: Res<'w, Dragging>,
    mode: Res<'w, EditMode>,
    spread: Res<'w, Spread>,
    columns: Res<'w, GridColumns>,
    palette: Res<'w, crate::client::theme::Palette>,
    hidden: Res<'w, crate::client::audience::HiddenFromTable>,
    main_hidden: Res<'w, crate::client::audience::HiddenFromMain>,
}

/// Sets [`LayoutDirty`] before the layout runs. What the layout itself changes is seen at the
/// next frame, which lays out once more and changes nothing.
pub(super) fn note_layout_changes(mut changed: LayoutChanged, mut dirty: ResMut<LayoutDirty>) {
    dirty.0 = changed.any();
}

impl LayoutChanged<'_, '_> {
    /// Whether to lay out again (reads the removals, so call it once a run).
    fn any(&mut self) -> bool {
        let removed = [
            self.gone_tokens.read().count(),
            self.gone_mounts.read().count(),
            self.gone_cards.read().count(),
            self.gone_places.read().count(),
        ];
        removed.iter().any(|&n| n > 0)
            || !self.pieces.is_empty()
            || !self.standing.is_empty()
            || !self.texts.is_empty()
            || !self.plates.is_empty()
            || !self.cards.is_empty()
            || self.index.is_changed()
            || self.dragging.is_changed()
            || self.mode.is_changed()
            || self.spread.is_changed()
            || self.columns.is_changed()
            || self.palette.is_changed()
            || self.hidden.is_changed()
            || self.main_hidden.is_changed()
    }
}
