//! What the rest of the client reads of the board: the drawings' components (cards, tokens,
//! mounts, captions, crowds), the selection, the spread, the sizes of tokens and texts, and
//! the board's geometry (the ruleset's unit on the board, where a card is drawn).

use std::collections::BTreeMap;

use bevy::prelude::*;
use bevy::sprite::Anchor;
use bevy::text::TextBounds;
use fray_core::board::Space;
use fray_core::fight::ruleset;
use fray_core::location::Location;
use fray_core::prelude::CounterKind;
use fray_core::prelude::TableIndex;

/// What the reach view starts from: a selected token's place, or a selected card.
#[derive(Resource, Default, Clone, Copy, Debug)]
pub struct Selection {
    /// The selected combatant (its sheet is shown).
    pub combatant: Option<Entity>,
    /// The selected location.
    pub location: Option<Entity>,
}

/// The card drawn for a location.
#[derive(Component)]
pub struct Card(pub Entity);

/// Where a card is drawn on the board: its location's rectangle, grown downwards when the
/// tokens standing on it need more room below its text (see `place_tokens`).
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct CardRect(pub Rect);

/// The card's name, at its top.
#[derive(Component)]
pub(crate) struct CardName;

/// The card's changing text: the ruleset's lines for the location ([`CardView`](fray_core::board::CardView)).
#[derive(Component)]
pub(crate) struct CardInfo(pub(crate) Entity);

/// The badge shown on a card while a token is dragged: what entering would be, or why not.
#[derive(Component)]
pub struct CardBadge;

/// The GM's own colouring of a card, over it: the reach view or the drag lights of a
/// combatant hidden from the table (which must not give away where it stands).
#[derive(Component)]
pub struct CardTint;

/// The token drawn for a combatant.
#[derive(Component)]
pub struct Token(pub Entity);

/// The token's caption: name, status and the ruleset's notes (counters are chips).
#[derive(Component)]
pub(crate) struct TokenCaption(pub(crate) Entity);

/// A token's initials, hidden when it has a picture.
#[derive(Component)]
pub(crate) struct Initials;

/// The token drawn for a mount.
#[derive(Component)]
pub struct MountToken(pub Entity);

/// A mount's name on its token, shown while no one rides it (a rider's caption names it).
#[derive(Component)]
pub(super) struct MountLabel;

/// A mount's plate that holds its picture (`art`): the plate grows to hold it left of the
/// name.
#[derive(Component)]
pub(crate) struct PlateEmblem;

/// A free mount's plate, and a ridden one's: the saddle cloth showing either side of its
/// rider's token.
pub(super) const FREE_MOUNT: Vec2 = Vec2::new(TOKEN * 1.7, TOKEN * 0.5);
pub(super) const RIDDEN_MOUNT: Vec2 = Vec2::new(TOKEN * 1.5, TOKEN * 0.6);

/// Token size on a board of cards.
pub const TOKEN: f32 = 54.0;

/// How far under a token's rim its caption starts: clear of the counts of the chips at its
/// lower corners, and of the rings round it (whoever acts, a target).
pub(crate) const CAPTION_GAP: f32 = 7.0;

/// The distance between two tokens in a card's grid, across and down: room for the
/// caption under a token and the tag over the next.
pub(super) const GRID: Vec2 = Vec2::new(TOKEN + 36.0, TOKEN + CAPTION_ROOM + 25.0);
/// The size of the board's smallest text (a card's text, a token's caption, a place's label):
/// the cameras keep it over the floor a room can read (`camera::fit::Floor`), so the larger it is
/// against the tokens and cards, the more of a board shows whole at that size.
pub const BOARD_TEXT: f32 = 18.0;
pub(super) const CARD_TEXT: f32 = BOARD_TEXT;
pub(super) const CAPTION: f32 = BOARD_TEXT;

/// The room under a token in a card for its caption's two lines.
pub(super) const CAPTION_ROOM: f32 = 2.0 * CAPTION * 1.25 + 11.0;

/// The width of each card's grid column (by location), which its captions wrap to.
#[derive(Resource, Default, PartialEq)]
pub(super) struct GridColumns(pub(super) BTreeMap<Entity, f32>);

/// The tokens whose captions found no room (each token's drawing and place), what the board's
/// drawings and texts already cover, and where the captions of tokens in no card stand, for
/// [`label_crowds`].
#[derive(Resource, Default, PartialEq)]
pub(super) struct Crowded {
    pub(super) members: Vec<(Entity, Vec2)>,
    pub(super) taken: Vec<Rect>,
    pub(super) captions: Option<Rect>,
}

/// Where the captions of the tokens in no card, the crowds' labels and the scenery (its
/// circles, labels and scale bar) stand, all in one rectangle: the cameras frame it with the
/// board, so none is cut at a window's edge.
#[derive(Resource, Default, Clone, Copy, PartialEq)]
pub struct CaptionExtent(pub Option<Rect>);

/// A crowd's label, "4 here": the names of those in it show when the GM's pointer is over it
/// (`crowd_names`).
#[derive(Component, Debug, Clone, PartialEq)]
pub struct Crowd {
    /// The names of those in the crowd, in board order.
    pub names: Vec<String>,
}

/// How far apart the cards of a board are drawn: their positions (and those of tokens in no
/// location) moved from their centre by `factor`, across and down. On a board of cards the
/// cards, each grown to hold its tokens, are drawn as close as their arrows allow, so that
/// the whole board fits a wide screen as large as it can be; a board of free positions keeps
/// its proportions and only spreads until its cards (each with a row to spare) clear each
/// other. It is set while a table settles and then kept, so that the board does not breathe
/// as tokens come and go (on a board of cards, until a card outgrows its room); a drop in
/// the field is read back through it.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct Spread {
    /// The centre of the cards as the scenario places them.
    pub centre: Vec2,
    /// How much farther from it everything is drawn, across and down (1: as placed).
    pub factor: Vec2,
}

impl Default for Spread {
    fn default() -> Self {
        Self { centre: Vec2::ZERO, factor: Vec2::ONE }
    }
}

impl Spread {
    /// Where a point of the scenario is drawn.
    pub fn out(&self, at: Vec2) -> Vec2 {
        self.centre + (at - self.centre) * self.factor
    }

    /// The scenario's point drawn at `at`.
    pub fn back(&self, at: Vec2) -> Vec2 {
        self.centre + (at - self.centre) / self.factor
    }
}

/// The room above a card's text: its name.
pub(crate) const CARD_HEADER: f32 = 30.0;
/// The room over a token in a card's grid for its top chips and their counts.
pub const TAG_ROOM: f32 = 32.0;
/// How far over a token of the largest size the counts of its top chips reach (the chips sit
/// at that token's corners whatever the token's size, see `chips.rs`): a caption over a
/// token in the field clears them, and no more.
pub(super) const CHIP_TOP: f32 = 14.0;

/// The cards drawn together when the scenario has no card (the side columns stand around
/// this).
pub(super) const NO_CARDS: Rect = Rect { min: Vec2::new(-500.0, -150.0), max: Vec2::new(500.0, 150.0) };

/// The rectangle a location's card is drawn in, `height` tall from its top.
pub(super) fn card_rect(location: &Location, height: f32) -> Rect {
    let size = Vec2::from(location.size);
    let top = Vec2::from(location.position) + Vec2::new(0.0, size.y / 2.0);
    Rect::from_corners(top - Vec2::new(size.x / 2.0, 0.0), top + Vec2::new(size.x / 2.0, -height.max(size.y)))
}

/// Token size on a board of free positions (people stand a metre or two apart).
pub const FREE_TOKEN: f32 = TOKEN * 0.72;

/// The layout of the ruleset on the table (cards when none is open).
pub fn space(world: &World) -> Space {
    ruleset(world).map_or(Space::LOCATIONS, |r| r.space())
}

/// Where a point in the ruleset's unit lies on the board.
pub fn to_board(space: &Space, at: [f32; 2]) -> Vec2 {
    Vec2::from(at) * space.unit.board
}

/// A board point in the ruleset's unit.
pub fn to_unit(space: &Space, at: Vec2) -> [f32; 2] {
    (at / space.unit.board).into()
}

/// A board text of `size` pixels.
pub(crate) fn text(value: impl Into<String>, size: f32, colour: Color) -> impl Bundle {
    (Text2d::new(value), TextFont { font_size: FontSize::Px(size), ..default() }, TextColor(colour))
}

/// What the drawn texts depend on: the log's length (every rule change is logged), the
/// table's index (a new or rebuilt table) and how many drawings there are.
pub type TableKey = (usize, u32, usize);

/// The current [`TableKey`], for `drawings` drawings.
pub fn table_key(world: &World, drawings: usize) -> TableKey {
    let log = world.get_resource::<fray_core::log::GameLog>().map_or(0, |l| l.entries().len());
    let index = world.get_resource_change_ticks::<TableIndex>().map_or(0, |t| t.changed.get());
    (log, index, drawings)
}

/// The location whose card covers this board point, if any.
pub fn card_at(point: Vec2, cards: &[(Entity, Rect)]) -> Option<Entity> {
    cards.iter().find_map(|&(e, r)| r.contains(point).then_some(e))
}

/// Every card's location and where the card is drawn.
pub fn card_rects(world: &mut World) -> Vec<(Entity, Rect)> {
    let mut cards = world.query::<(&Card, &CardRect)>();
    cards.iter(world).map(|(c, r)| (c.0, r.0)).collect()
}

/// A chip drawn for one counter-token entity.
#[derive(Component, Clone, Copy, Debug)]
pub struct Chip {
    /// The counter token.
    pub counter: Entity,
    /// Its owner (combatant or location).
    pub owner: Entity,
    /// What it counts.
    pub kind: CounterKind,
}

/// A stand-in, on the table's screen only, for a chip the GM has moved while building an
/// allocation (the plan is secret until it is sent).
#[derive(Component)]
pub struct ChipShadow(pub Entity);

/// A board text's world rectangle: its laid-out glyphs, placed in its box (as wide as its
/// bounds) by its anchor, and in the box by its justification.
pub(crate) fn text_rect(
    at: &GlobalTransform,
    anchor: Option<&Anchor>,
    size: Vec2,
    bounds: Option<&TextBounds>,
    centred: bool,
) -> Rect {
    let scale = at.scale().truncate();
    let boxed = Vec2::new(bounds.and_then(|b| b.width).unwrap_or(size.x).max(size.x), size.y) * scale;
    let a = anchor.map_or(Vec2::ZERO, |a| a.0);
    let mut min = at.translation().truncate() - boxed * (a + 0.5);
    if centred {
        min.x += (boxed.x - size.x * scale.x) / 2.0;
    }
    Rect::from_corners(min, min + size * scale)
}

/// `extent` grown to hold `r` (or `r` alone, where there was none).
pub(super) fn grow(extent: &mut Option<Rect>, r: Rect) {
    *extent = Some(extent.map_or(r, |e| e.union(r)));
}
