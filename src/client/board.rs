//! Draws the table for any ruleset: a card per location (name, what entering costs, where it
//! is entered from, the ruleset's notes), arrows for accessibility, a token per combatant
//! and per mount, in its card or at its free position on the ruleset's scale. Positions
//! follow the rule state every frame, so a refused move simply slides back.

use std::collections::BTreeMap;

use bevy::prelude::*;
use bevy::sprite::Anchor;
use bevy::text::{Justify, TextBounds, TextLayout};
use fray_core::board::Space;
use fray_core::fight::{Session, ruleset};
use fray_core::location::{EnteredFrom, Location, OpenField};
use fray_core::prelude::{Combatant, FieldPosition, Mount, Occupies, Rides, SideIndex, Status, TableIndex};

use super::drag::Dragging;
use super::order::{Step, Ui};

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

/// The card's changing text: the ruleset's lines for the location ([`CardView`](fray_core::board::CardView)).
#[derive(Component)]
pub(super) struct CardInfo(pub(super) Entity);

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
pub(super) struct TokenCaption(pub(super) Entity);

/// A token's initials, hidden when it has a picture.
#[derive(Component)]
pub(super) struct Initials;

/// The token drawn for a mount.
#[derive(Component)]
pub struct MountToken(pub Entity);

/// A mount's name on its token, shown while no one rides it (a rider's caption names it).
#[derive(Component)]
struct MountLabel;

/// A mount's plate that holds its picture (`art`): the plate grows to hold it left of the
/// name.
#[derive(Component)]
pub(super) struct PlateEmblem;

/// A free mount's plate, and a ridden one's: the saddle cloth showing either side of its
/// rider's token.
const FREE_MOUNT: Vec2 = Vec2::new(TOKEN * 1.7, TOKEN * 0.5);
const RIDDEN_MOUNT: Vec2 = Vec2::new(TOKEN * 1.5, TOKEN * 0.6);

/// Token size on a board of cards.
pub const TOKEN: f32 = 54.0;

/// How far under a token's rim its caption starts: clear of the counts of the chips at its
/// lower corners, and of the rings round it (whoever acts, a target).
pub(crate) const CAPTION_GAP: f32 = 7.0;

/// The width of a column of tokens in no location, and the height of a row in it.
const COLUMN: f32 = TOKEN + 30.0;
const FIELD_ROW: f32 = TOKEN + 34.0;
/// Rows in a column of tokens in no location.
const FIELD_ROWS: usize = 4;

/// The distance between two tokens in a card's grid, across and down: room for the
/// caption under a token and the tag over the next.
const GRID: Vec2 = Vec2::new(TOKEN + 36.0, TOKEN + CAPTION_ROOM + 25.0);
/// The size of the board's smallest text (a card's text, a token's caption, a place's label):
/// the cameras keep it over the floor a room can read (`camera::Floor`), so the larger it is
/// against the tokens and cards, the more of a board shows whole at that size.
pub const BOARD_TEXT: f32 = 18.0;
const CARD_TEXT: f32 = BOARD_TEXT;
const CAPTION: f32 = BOARD_TEXT;

/// The room under a token in a card for its caption's two lines.
const CAPTION_ROOM: f32 = 2.0 * CAPTION * 1.25 + 11.0;

/// The width of each card's grid column (by location), which its captions wrap to.
#[derive(Resource, Default, PartialEq)]
struct GridColumns(BTreeMap<Entity, f32>);

/// Whether anything the board's layout reads changed since the last frame's layout: the
/// pieces' places and sizes, who stands where, the texts' laid-out sizes, the cards, a
/// mount's plate widened for its picture, the drawings removed, and the resources the layout
/// follows. Laying out 200 tokens and their captions every frame cost a fifth of a big
/// board's frame; unchanged, the layout stays.
#[derive(Resource, Default)]
pub(crate) struct LayoutDirty(pub(crate) bool);

/// The tokens whose captions found no room (each token's drawing and place), what the board's
/// drawings and texts already cover, and where the captions of tokens in no card stand, for
/// [`label_crowds`].
#[derive(Resource, Default, PartialEq)]
struct Crowded {
    members: Vec<(Entity, Vec2)>,
    taken: Vec<Rect>,
    captions: Option<Rect>,
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

/// How near two tokens whose captions found no room stand to share one crowd label.
const CROWD_REACH: f32 = TOKEN * 2.5;

/// What [`note_layout_changes`] looks at.
#[derive(bevy::ecs::system::SystemParam)]
struct LayoutChanged<'w, 's> {
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
    cards: Query<'w, 's, (), Or<(Changed<CardRect>, Changed<super::space::SceneryLabel>)>>,
    gone_tokens: RemovedComponents<'w, 's, Token>,
    gone_mounts: RemovedComponents<'w, 's, MountToken>,
    gone_cards: RemovedComponents<'w, 's, Card>,
    gone_places: RemovedComponents<'w, 's, Occupies>,
    index: Res<'w, TableIndex>,
    dragging: Res<'w, Dragging>,
    editor: Res<'w, super::edit::Editor>,
    spread: Res<'w, Spread>,
    columns: Res<'w, GridColumns>,
    palette: Res<'w, super::theme::Palette>,
    hidden: Res<'w, crate::client::table::audience::HiddenFromTable>,
}

/// Sets [`LayoutDirty`] before the layout runs. What the layout itself changes is seen at the
/// next frame, which lays out once more and changes nothing.
fn note_layout_changes(mut changed: LayoutChanged, mut dirty: ResMut<LayoutDirty>) {
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
            || self.editor.is_changed()
            || self.spread.is_changed()
            || self.columns.is_changed()
            || self.palette.is_changed()
            || self.hidden.is_changed()
    }
}

/// How far a table is from settled: frames left, and the height each card's spread was worked
/// out for.
#[derive(Default)]
struct Settle {
    frames: u32,
    /// Frames left of a table's opening settle: its tokens go straight to their places.
    opening: u32,
    planned: BTreeMap<Entity, f32>,
}

/// The least room kept between two cards once grown.
const CARD_GAP: f32 = 24.0;
/// How long a table opened (or rebuilt) settles, in frames: its cards' spread is worked out
/// meanwhile, well before the layout file is written (`capture`).
const SETTLE_FRAMES: u32 = 30;

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

/// The room a token standing in no card keeps clear around it (with its caption) when a
/// board of cards is drawn tight.
const PIECE: Vec2 = Vec2::new(TOKEN + 36.0, TOKEN + CAPTION_ROOM + 25.0);
/// The most room kept between two cards on a board of cards, for the arrow between them
/// (cards nearer in the scenario keep what they have there, at least [`CARD_GAP`]).
const LINK_ROOM: f32 = 110.0;
/// The shape of the screen a board of cards is drawn for: the table's, under its bar.
const WIDE: f32 = 1.9;
/// The spreads tried, across and down: a fifth to fourfold, in steps of 5%.
const STEPS: std::ops::RangeInclusive<u32> = 4..=80;
fn step(k: u32) -> f32 {
    k as f32 * 0.05
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

    /// The spread for `cards` (each its scenario rectangle, grown down to its height) and the
    /// tokens standing at `pieces` in no card: on a board of cards (`compact`) the one that
    /// makes the board smallest on a [`WIDE`] screen while every two cards keep room for an
    /// arrow ([`LINK_ROOM`]) and no two pieces or piece and card come closer than [`PIECE`];
    /// else the least even spread, at least 1, at which no two cards come closer than
    /// [`CARD_GAP`]. What touches in the scenario itself is left to touch.
    fn update(&mut self, cards: &[(Rect, f32)], pieces: &[Vec2], compact: bool) {
        let centre = cards.iter().map(|(r, _)| r.center()).sum::<Vec2>() / cards.len().max(1) as f32;
        let factor = if compact {
            let pieces = pieces.iter().map(|&p| {
                let room = Rect::from_center_size(p, PIECE);
                (room, room.height())
            });
            let all: Vec<(Rect, f32, bool)> =
                cards.iter().map(|&(r, h)| (r, h, true)).chain(pieces.map(|(r, h)| (r, h, false))).collect();
            smallest(&all, centre)
        } else {
            Vec2::splat(even(cards, centre))
        };
        let wanted = Spread { centre, factor };
        if *self != wanted {
            *self = wanted;
        }
    }
}

/// A card's rectangle drawn at spread `factor` from `centre`: its scenario rectangle `r`
/// moved, `h` tall from its top.
fn drawn_card(r: Rect, h: f32, centre: Vec2, factor: Vec2) -> Rect {
    let c = centre + (r.center() - centre) * factor;
    let top = c.y + r.height() / 2.0;
    Rect::new(c.x - r.width() / 2.0, top - h, c.x + r.width() / 2.0, top)
}

/// The least even spread (at least 1, at most 4) at which no two cards come closer than
/// [`CARD_GAP`].
fn even(cards: &[(Rect, f32)], centre: Vec2) -> f32 {
    let apart = |factor: f32| {
        let drawn: Vec<Rect> =
            cards.iter().map(|&(r, h)| drawn_card(r, h, centre, Vec2::splat(factor))).collect();
        (0..drawn.len()).all(|i| {
            (i + 1..drawn.len())
                .all(|j| near(cards[i].0, cards[j].0, 0.0) || !near(drawn[i], drawn[j], CARD_GAP))
        })
    };
    STEPS.map(step).filter(|&f| f >= 1.0).find(|&f| apart(f)).unwrap_or(4.0)
}

/// The spread, across and down, that draws the board smallest on a [`WIDE`] screen with room
/// for an arrow between every two cards (`true`), each a rectangle grown down to its height,
/// and pieces (`false`) clear of each other and of the cards. Two are clear of each other once
/// far enough apart across or down: each pair needs a spread across, or one down, of at
/// least its threshold.
fn smallest(drawn: &[(Rect, f32, bool)], centre: Vec2) -> Vec2 {
    let no_cards = !drawn.iter().any(|d| d.2);
    let mut pairs: Vec<(f32, f32)> = Vec::new();
    for (i, &(a, ha, card_a)) in drawn.iter().enumerate() {
        for &(b, hb, card_b) in &drawn[i + 1..] {
            // Two cards keep the room they have in the scenario, up to [`LINK_ROOM`]; cards
            // that touch there come no closer than they are, nor (on a board with no card at
            // all) do pieces; else pieces that touch are left to (a rider at its mount's place,
            // a piece on a card is moved clear of it later).
            let apart =
                (a.min.x - b.max.x).max(b.min.x - a.max.x).max(a.min.y - b.max.y).max(b.min.y - a.max.y);
            let room = if card_a && card_b { apart.clamp(CARD_GAP, LINK_ROOM) } else { 0.0 };
            let apart_pieces = no_cards && a.center().distance(b.center()) >= 1.0;
            let (room, most) = match (near(a, b, 0.0), card_a, card_b) {
                (false, ..) => (room, f32::MAX),
                (true, true, true) => (0.0, 1.0),
                (true, false, false) if apart_pieces => (0.0, 1.0),
                (true, ..) => continue,
            };
            let dx = (a.center().x - b.center().x).abs();
            let across = ((a.width() + b.width()) / 2.0 + room) / dx.max(1e-3);
            // The upper one's grown bottom over the lower one's top.
            let ((up, hu), low) = if a.center().y >= b.center().y { ((a, ha), b) } else { ((b, hb), a) };
            let dy = up.center().y - low.center().y;
            let down = (hu - up.height() / 2.0 + low.height() / 2.0 + room) / dy.max(1e-3);
            pairs.push((across.min(most), down.min(most)));
        }
    }
    let size = |factor: Vec2| {
        let board = drawn
            .iter()
            .map(|&(r, h, _)| drawn_card(r, h, centre, factor))
            .reduce(|a, b| a.union(b))
            .unwrap_or(NO_CARDS);
        (board.width() / WIDE).max(board.height())
    };
    // For each spread across, the least down that clears every pair not cleared across.
    let tried: Vec<(f32, Vec2)> = STEPS
        .map(step)
        .filter_map(|fx| {
            let need = pairs.iter().filter(|p| p.0 > fx + 1e-4).map(|p| p.1).fold(0.0, f32::max);
            let fy = STEPS.map(step).find(|&f| f >= need - 1e-4)?;
            Some((size(Vec2::new(fx, fy)), Vec2::new(fx, fy)))
        })
        .collect();
    // Of the spreads within 2% of the smallest, the one nearest the scenario's proportions.
    let least = tried.iter().map(|t| t.0).fold(f32::MAX, f32::min);
    tried
        .iter()
        .filter(|t| t.0 <= least * 1.02)
        .min_by(|a, b| (a.1.x - a.1.y).abs().total_cmp(&(b.1.x - b.1.y).abs()))
        .map_or(Vec2::ONE, |t| t.1)
}

/// Whether two rectangles come closer than `gap`.
fn near(a: Rect, b: Rect, gap: f32) -> bool {
    a.min.x < b.max.x + gap && b.min.x < a.max.x + gap && a.min.y < b.max.y + gap && b.min.y < a.max.y + gap
}

/// The room above a card's text: its name.
pub(super) const CARD_HEADER: f32 = 30.0;
/// The room over a token in a card's grid for its top chips and their counts.
pub const TAG_ROOM: f32 = 32.0;
/// How far over a token of the largest size the counts of its top chips reach (the chips sit
/// at that token's corners whatever the token's size, see `chips.rs`): a caption over a
/// token in the field clears them, and no more.
const CHIP_TOP: f32 = 14.0;

/// The cards drawn together when the scenario has no card (the side columns stand around
/// this).
const NO_CARDS: Rect = Rect { min: Vec2::new(-500.0, -150.0), max: Vec2::new(500.0, 150.0) };

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

/// The rectangle a location's card is drawn in, `height` tall from its top.
pub fn card_rect(location: &Location, height: f32) -> Rect {
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

const SIDE_COLOURS: [Color; 4] = [
    Color::srgb(0.25, 0.45, 0.85),
    Color::srgb(0.80, 0.25, 0.22),
    Color::srgb(0.30, 0.65, 0.30),
    Color::srgb(0.75, 0.60, 0.20),
];

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Selection>()
        .init_resource::<Spread>()
        .init_resource::<GridColumns>()
        .init_resource::<LayoutDirty>()
        .init_resource::<Crowded>()
        .init_resource::<CaptionExtent>()
        .add_systems(bevy_egui::EguiPrimaryContextPass, crowd_names.in_set(Ui::CrowdNames))
        .add_observer(select)
        .add_observer(spawn_card)
        .add_observer(spawn_token)
        .add_observer(spawn_mount_token)
        .add_systems(
            Update,
            (
                despawn_orphans,
                note_layout_changes,
                place_tokens,
                size_cards,
                write_card_info,
                write_captions,
                place_captions,
                label_crowds,
                draw_arrows,
            )
                .chain()
                .in_set(Step::Layout),
        );
}

/// Clicking a token selects its combatant; clicking a card selects its location.
fn select(
    click: On<Pointer<Click>>,
    tokens: Query<&Token>,
    cards: Query<&Card>,
    mut selection: ResMut<Selection>,
) {
    if let Ok(token) = tokens.get(click.entity) {
        *selection = Selection { combatant: Some(token.0), location: None };
    } else if let Ok(card) = cards.get(click.entity) {
        *selection = Selection { combatant: None, location: Some(card.0) };
    }
}

/// A board text of `size` pixels.
pub(crate) fn text(value: impl Into<String>, size: f32, colour: Color) -> impl Bundle {
    (Text2d::new(value), TextFont { font_size: FontSize::Px(size), ..default() }, TextColor(colour))
}

fn spawn_card(add: On<Add, Location>, locations: Query<(&Location, Has<OpenField>)>, mut commands: Commands) {
    let Ok((location, field)) = locations.get(add.entity) else {
        return;
    };
    if field {
        return;
    }
    let size = Vec2::from(location.size);
    let at = Vec2::from(location.position);
    commands
        .spawn((
            Card(add.entity),
            CardRect(card_rect(location, size.y)),
            Sprite::from_color(Color::srgb(0.78, 0.72, 0.58), size),
            Anchor::CENTER,
            Transform::from_translation(at.extend(0.0)),
            Pickable::default(),
        ))
        .with_children(|card| {
            card.spawn((
                text(
                    location.name.clone(),
                    (size.x / (location.name.chars().count() as f32 * 0.62)).clamp(BOARD_TEXT, 22.0),
                    Color::BLACK,
                ),
                Transform::from_xyz(0.0, size.y / 2.0 - 16.0, 0.1),
            ));
            card.spawn((
                CardInfo(add.entity),
                text("", CARD_TEXT, Color::srgb(0.15, 0.12, 0.08)),
                TextBounds::new_horizontal(size.x - 12.0),
                Anchor::TOP_CENTER,
                Transform::from_xyz(0.0, size.y / 2.0 - CARD_HEADER, 0.1),
            ));
            card.spawn((
                CardTint,
                crate::client::table::audience::Audience::Gm,
                Sprite::from_color(Color::NONE, size),
                Anchor::CENTER,
                Transform::from_xyz(0.0, 0.0, 0.05),
                Visibility::Hidden,
            ));
            card.spawn((
                CardBadge,
                text("", 26.0, Color::srgb(0.05, 0.05, 0.05)),
                Transform::from_xyz(0.0, -size.y / 2.0 + 18.0, 0.3),
            ));
        });
}

fn spawn_token(add: On<Add, Combatant>, combatants: Query<(&Combatant, &SideIndex)>, mut commands: Commands) {
    let Ok((combatant, side)) = combatants.get(add.entity) else {
        return;
    };
    let colour = SIDE_COLOURS[side.0 as usize % SIDE_COLOURS.len()];
    let initials: String = combatant
        .name
        .split_whitespace()
        .filter_map(|w| w.chars().next())
        .filter(|c| c.is_alphanumeric())
        .take(2)
        .collect();
    commands
        .spawn((
            Token(add.entity),
            super::motion::Goal::default(),
            Sprite::from_color(colour, Vec2::splat(TOKEN)),
            Transform::from_xyz(0.0, 0.0, 2.0),
            Pickable::default(),
        ))
        .with_children(|token| {
            token.spawn((
                Initials,
                text(initials, 20.0, Color::WHITE),
                Transform::from_xyz(0.0, 0.0, 0.1),
                Pickable::IGNORE,
            ));
            token.spawn((
                TokenCaption(add.entity),
                text("", CAPTION, Color::WHITE),
                TextBounds::UNBOUNDED,
                TextLayout::justify(Justify::Center),
                Anchor::TOP_CENTER,
                Transform::from_xyz(0.0, -TOKEN / 2.0 - CAPTION_GAP, 0.1),
                Pickable::IGNORE,
            ));
        });
}

fn spawn_mount_token(add: On<Add, Mount>, mounts: Query<&Mount>, mut commands: Commands) {
    let Ok(mount) = mounts.get(add.entity) else {
        return;
    };
    commands
        .spawn((
            MountToken(add.entity),
            super::motion::Goal::default(),
            Sprite::from_color(Color::srgb(0.45, 0.32, 0.18), FREE_MOUNT),
            Transform::from_xyz(0.0, 0.0, 1.5),
            Pickable::default(),
        ))
        .with_children(|m| {
            m.spawn((
                MountLabel,
                text(mount.name.clone(), CAPTION, Color::WHITE),
                Transform::from_xyz(0.0, 0.0, 0.1),
                Pickable::IGNORE,
            ));
        });
}

/// Removes drawings of table objects that are gone (picked-up caltrops, a reset table).
fn despawn_orphans(
    mut commands: Commands,
    cards: Query<(Entity, &Card)>,
    tokens: Query<(Entity, &Token)>,
    mounts: Query<(Entity, &MountToken)>,
    alive: Query<()>,
) {
    let gone = |e: Entity| alive.get(e).is_err();
    for (drawing, of) in cards.iter().map(|(d, c)| (d, c.0)).chain(tokens.iter().map(|(d, t)| (d, t.0))) {
        if gone(of) {
            commands.entity(drawing).despawn();
        }
    }
    for (drawing, m) in &mounts {
        if gone(m.0) {
            commands.entity(drawing).despawn();
        }
    }
}

/// Where a combatant's token goes: in its location's card (a grid under the card's text, the
/// card growing downwards to hold it), or in no location at its free position (its mount's
/// for a rider) on the ruleset's scale, else in its side's column beside the cards. Mounts
/// stand under their rider, or free.
#[allow(clippy::too_many_arguments)]
fn place_tokens(
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
    mut tokens: Query<(Entity, &Token, &mut super::motion::Goal, &mut Sprite), Without<MountToken>>,
    mut mount_tokens: Query<
        (Entity, &MountToken, &mut super::motion::Goal, &mut Sprite, &Children, Has<PlateEmblem>),
        Without<Token>,
    >,
    mut labels: Query<
        (&mut Visibility, &mut Transform, &bevy::text::TextLayoutInfo),
        (With<MountLabel>, Without<Card>),
    >,
    (editor, mut dirty): (Res<super::edit::Editor>, ResMut<LayoutDirty>),
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
    if index.is_changed() && !editor.on {
        *settling = SETTLE_FRAMES;
        *opening = SETTLE_FRAMES;
    }
    let jump = *opening > 0;
    *opening = opening.saturating_sub(1);
    let grown = needs.iter().any(|n| planned.get(&n.0).is_some_and(|&h| n.2 > h + 0.5));
    if grown && space.locations && !editor.on {
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

/// Draws each card at its [`CardRect`]: the card and the GM's tint over it grow downwards
/// from the location's own rectangle, the drop badge stays at the bottom.
fn size_cards(
    cards: Query<(Entity, &Card, &CardRect, &Children), Changed<CardRect>>,
    locations: Query<&Location>,
    mut sprites: Query<(&mut Sprite, &mut Anchor)>,
    mut badges: Query<&mut Transform, With<CardBadge>>,
) {
    for (drawing, card, rect, children) in &cards {
        let Ok(location) = locations.get(card.0) else { continue };
        let own = Vec2::from(location.size);
        let size = rect.0.size();
        // The location's centre stays where it is: the anchor moves up the grown card.
        let anchor = Anchor(Vec2::new(0.0, 0.5 - own.y / 2.0 / size.y.max(1.0)));
        for part in std::iter::once(drawing).chain(children.iter()) {
            if let Ok((mut sprite, mut at)) = sprites.get_mut(part) {
                sprite.custom_size = Some(size);
                *at = anchor;
            }
            if let Ok(mut badge) = badges.get_mut(part) {
                badge.translation.y = own.y / 2.0 - size.y + 18.0;
            }
        }
    }
}

/// Moves the caption of each token standing in no card where it covers no other token, tag,
/// mount, card or caption: under its token, else to its right, to its left or over it (else
/// under it). Placed on the board, so no screen shows an overlap whatever its zoom.
#[allow(clippy::too_many_arguments)]
fn place_captions(
    palette: Res<super::theme::Palette>,
    tokens: Query<(Entity, &Token, &Transform, &Sprite)>,
    occupies: Query<&Occupies>,
    fields: Query<(), With<OpenField>>,
    mounts: Query<(&Transform, &Sprite), With<MountToken>>,
    mut scenery: Query<
        (&mut Transform, &bevy::text::TextLayoutInfo, &super::space::SceneryLabel),
        (With<super::space::Scenery>, Without<Token>, Without<MountToken>),
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
        (With<TokenCaption>, Without<Token>, Without<MountToken>, Without<super::space::Scenery>),
    >,
    (dirty, mut crowded, mut drawn): (Res<LayoutDirty>, ResMut<Crowded>, ResMut<super::space::Drawn>),
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
        let start = super::space::bar_start(under);
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

/// Gathers the tokens whose captions found no room into crowds (those standing near one
/// another, the ones hidden from the table apart) and writes one "N here" per crowd where it
/// covers nothing, under the crowd, else beside it.
#[allow(clippy::too_many_arguments)]
fn label_crowds(
    dirty: Res<LayoutDirty>,
    crowded: Res<Crowded>,
    palette: Res<super::theme::Palette>,
    hidden: Res<crate::client::table::audience::HiddenFromTable>,
    mut extent: ResMut<CaptionExtent>,
    tokens: Query<&Token>,
    combatants: Query<&Combatant>,
    mut labels: Query<(
        Entity,
        &mut Crowd,
        &mut Text2d,
        &mut Transform,
        &mut crate::client::table::audience::Audience,
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
        let audience = if hid {
            crate::client::table::audience::Audience::Gm
        } else {
            crate::client::table::audience::Audience::All
        };
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
fn crowd_names(
    mut contexts: bevy_egui::EguiContexts,
    window: Single<&Window, With<bevy::window::PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform), With<super::camera::BoardCamera>>,
    labels: Query<(&Crowd, &GlobalTransform, &bevy::text::TextLayoutInfo, &InheritedVisibility)>,
) {
    let Some(at) = window.cursor_position().and_then(|p| super::drag::pointer_world(&camera, p)) else {
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

/// Each card's cost to enter, where it is entered from, and the ruleset's notes.
fn write_card_info(
    world: &mut World,
    infos: &mut QueryState<(Entity, &CardInfo)>,
    mut seen: Local<Option<TableKey>>,
) {
    // Card texts change only with the rules (logged) or a new table.
    let key = Some(table_key(world, infos.iter(world).count()));
    if *seen == key {
        return;
    }
    *seen = key;
    let Some(rules) = ruleset(world) else { return };
    let texts: Vec<(Entity, String)> = infos
        .iter(world)
        .filter_map(|(drawing, info)| Some((drawing, card_info(world, rules.as_ref(), info.0)?)))
        .collect();
    for (drawing, value) in texts {
        if let Some(mut text) = world.get_mut::<Text2d>(drawing)
            && text.0 != value
        {
            text.0 = value;
        }
    }
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

fn card_info(world: &World, rules: &dyn fray_core::ruleset::AnyRuleset, place: Entity) -> Option<String> {
    let from = world.get::<EnteredFrom>(place)?;
    let sources: Vec<String> = from.0.iter().map(|&f| fray_core::location::place_name(world, f)).collect();
    let sources = if sources.is_empty() { "nowhere".to_owned() } else { sources.join(" / ") };
    let card = rules.card(world, place);
    let mut lines = vec![match card.cost {
        Some(cost) => format!("{cost}, from {sources}"),
        None => format!("from {sources}"),
    }];
    if !card.notes.is_empty() {
        lines.push(card.notes.join(", "));
    }
    Some(lines.join("\n"))
}

/// Words that may open a name before the one it goes by ("Sir Aldric" goes by Aldric).
const TITLES: [&str; 14] = [
    "Sir", "Lady", "Lord", "Dame", "Master", "Mistress", "Captain", "Brother", "Sister", "Father", "Mother",
    "Old", "Saint", "Doctor",
];

/// The longest whole name a caption gives a combatant whose short name another shares (a
/// longer one would widen a card's grid, and the board, for one caption).
const WHOLE_NAME_MAX: usize = 15;

/// The name a caption or a strip gives a combatant among `all` (every combatant's name at the
/// table): its short name, or where another with another whole name goes by the same short
/// name ("Bandit leader" beside "Bandit") its whole name when short enough, else its name
/// without a closing remark in brackets ("Imp archer 2" for "Imp archer 2 (tower)": the
/// core numbers names that share a stem, so that one is a single combatant's).
pub(crate) fn shown_name<'a>(name: &'a str, all: &[&str]) -> &'a str {
    let short = short_name(name);
    let shared = all.iter().any(|n| *n != name && short_name(n) == short);
    let stem = fray_core::scenario::name_stem(name).0;
    if !shared {
        short
    } else if name.chars().count() <= WHOLE_NAME_MAX {
        name
    } else if stem.chars().count() <= WHOLE_NAME_MAX {
        stem
    } else {
        short
    }
}

/// Every combatant's name at the table, for [`shown_name`].
pub(crate) fn all_names(world: &World) -> Vec<String> {
    world
        .try_query::<&Combatant>()
        .map_or_else(Vec::new, |mut q| q.iter(world).map(|c| c.name.clone()).collect())
}

/// A combatant's short name: the first word of its name, past a title.
pub(crate) fn short_name(name: &str) -> &str {
    let mut words = name.split_whitespace();
    let first = words.next().unwrap_or_default();
    match words.next() {
        Some(next) if TITLES.contains(&first) => next,
        _ => first,
    }
}

/// Name and status in words, then the ruleset's notes and its marks' words (their pictures are
/// `marks`'); the counters are chips. Rewritten
/// only when the rules changed something (logged), the table, or what the table may see.
fn write_captions(
    world: &mut World,
    captions: &mut QueryState<(Entity, &TokenCaption)>,
    mut seen: Local<Option<(TableKey, Vec<fray_core::ids::CombatantId>)>>,
) {
    let mut hidden: Vec<_> =
        world.resource::<crate::client::table::audience::HiddenFromTable>().0.iter().cloned().collect();
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

/// Arrows from each location to those that may be entered from it, card edge to card edge,
/// bent round the cards in their way.
fn draw_arrows(
    mut gizmos: Gizmos,
    palette: Res<super::theme::Palette>,
    locations: Query<(Entity, Ref<EnteredFrom>), Without<OpenField>>,
    cards: Query<(&Card, &CardRect)>,
    mut paths: Local<(BTreeMap<Entity, Rect>, usize, Vec<(Entity, Entity, Vec<Vec2>)>)>,
) {
    // The paths are worked out again only when a card moved or grew, or an arrow changed.
    let drawn: BTreeMap<Entity, Rect> = cards.iter().map(|(c, r)| (c.0, r.0)).collect();
    let changed = locations.iter().any(|(_, f)| f.is_changed());
    if changed || paths.0 != drawn || paths.1 != locations.iter().len() {
        let found = arrows(&drawn, locations.iter().map(|(e, f)| (e, f.into_inner())));
        *paths = (drawn, locations.iter().len(), found);
    }
    for (.., path) in &paths.2 {
        draw_path(&mut gizmos, path, palette.arrow);
    }
}

/// An arrow along `path` (a line of points), its head as long as a straight arrow's of that
/// length.
pub(crate) fn draw_path(gizmos: &mut Gizmos, path: &[Vec2], colour: Color) {
    let [.., before, end] = path[..] else { return };
    let length: f32 = path.windows(2).map(|w| w[0].distance(w[1])).sum();
    if path.len() > 2 {
        gizmos.linestrip_2d(path[..path.len() - 1].iter().copied(), colour);
    }
    gizmos.arrow_2d(before, end, colour).with_tip_length(length / 10.0);
}

/// The accessibility arrows as drawn between the cards `drawn`: (entered from, entered, the
/// path from the first card's edge to the second's), straight, or bent round the other cards
/// where a straight one would cross them.
pub fn arrows<'a>(
    drawn: &BTreeMap<Entity, Rect>,
    entered: impl Iterator<Item = (Entity, &'a EnteredFrom)>,
) -> Vec<(Entity, Entity, Vec<Vec2>)> {
    let mut found = Vec::new();
    for (to, from) in entered {
        let Some(&target) = drawn.get(&to) else { continue };
        for &f in &from.0 {
            let Some(&source) = drawn.get(&f) else { continue };
            let others: Vec<Rect> = drawn
                .iter()
                .filter(|(e, _)| **e != f && **e != to)
                .map(|(_, r)| r.inflate(ARROW_CLEARANCE))
                .collect();
            found.push((f, to, arrow_path(source, target, &others)));
        }
    }
    found
}

/// How far an arrow keeps from a card it passes.
const ARROW_CLEARANCE: f32 = 6.0;
/// The room left between an arrow's head and the card it points at.
const ARROW_GAP: f32 = 4.0;

/// The path of an arrow from card `source` to card `target`: straight, edge to edge, unless
/// that crosses one of the cards `others`; then the least bent curve that crosses none (both
/// arrows between two cards bend the same way, so that they lie on one line), else straight.
fn arrow_path(source: Rect, target: Rect, others: &[Rect]) -> Vec<Vec2> {
    let (a, b) = (source.center(), target.center());
    let dir = (b - a).normalize_or_zero();
    let out = |r: &Rect| {
        let half = r.half_size();
        (half.x / dir.x.abs().max(1e-3)).min(half.y / dir.y.abs().max(1e-3))
    };
    let straight = vec![a + dir * out(&source), b - dir * (out(&target) + ARROW_GAP)];
    let clear = |path: &[Vec2]| path.windows(2).all(|w| others.iter().all(|r| !segment_hits(w[0], w[1], *r)));
    if clear(&straight) || a.distance(b) < 1.0 {
        return straight;
    }
    let one_way = if (a.x, a.y) < (b.x, b.y) { b - a } else { a - b };
    let normal = one_way.perp().normalize_or_zero();
    let length = a.distance(b);
    for k in 1..=8 {
        for side in [1.0, -1.0] {
            let control = (a + b) / 2.0 + normal * side * length * 0.15 * k as f32;
            let path = curve(a, control, b, source, target);
            if clear(&path) {
                return path;
            }
        }
    }
    straight
}

/// A quadratic curve from `a` through `control` to `b` as a line of points, from where it
/// leaves `source` to just short of where it enters `target`.
fn curve(a: Vec2, control: Vec2, b: Vec2, source: Rect, target: Rect) -> Vec<Vec2> {
    let at = |t: f32| a * (1.0 - t) * (1.0 - t) + control * 2.0 * (1.0 - t) * t + b * t * t;
    // The last `t` inside `inside` going from `from` toward `to` (the curve crosses its edge once).
    let edge = |inside: Rect, mut from: f32, mut to: f32| {
        for _ in 0..16 {
            let mid = (from + to) / 2.0;
            if inside.contains(at(mid)) {
                from = mid;
            } else {
                to = mid;
            }
        }
        to
    };
    let (t0, t1) = (edge(source, 0.0, 1.0), edge(target, 1.0, 0.0));
    const STEPS: usize = 20;
    let mut path: Vec<Vec2> = (0..=STEPS).map(|i| at(t0 + (t1 - t0) * i as f32 / STEPS as f32)).collect();
    if let [.., before, end] = path[..] {
        let back = (end - before).normalize_or_zero() * ARROW_GAP;
        if let Some(last) = path.last_mut() {
            *last -= back;
        }
    }
    path
}

/// Whether the segment from `p` to `q` passes through the rectangle `r`.
fn segment_hits(p: Vec2, q: Vec2, r: Rect) -> bool {
    let d = q - p;
    let (mut t0, mut t1) = (0.0f32, 1.0f32);
    for (towards, room) in
        [(-d.x, p.x - r.min.x), (d.x, r.max.x - p.x), (-d.y, p.y - r.min.y), (d.y, r.max.y - p.y)]
    {
        if towards == 0.0 {
            if room < 0.0 {
                return false;
            }
            continue;
        }
        let t = room / towards;
        if towards < 0.0 {
            t0 = t0.max(t);
        } else {
            t1 = t1.min(t);
        }
        if t0 > t1 {
            return false;
        }
    }
    true
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_caption_names_the_first_word_past_a_title() {
        assert_eq!(short_name("Sir Aldric"), "Aldric");
        assert_eq!(short_name("Mael the carter"), "Mael");
        assert_eq!(short_name("Sir"), "Sir", "a title alone is the name");
        assert_eq!(short_name("Sirius Black"), "Sirius");
        assert_eq!(short_name(""), "");
    }

    #[test]
    fn an_arrow_bends_round_a_card_in_its_way_and_both_ways_bend_alike() {
        let box_at = |x: f32, y: f32| Rect::from_center_size(Vec2::new(x, y), Vec2::new(120.0, 90.0));
        let (left, middle, right) = (box_at(-300.0, 0.0), box_at(0.0, -10.0), box_at(300.0, 0.0));
        // Nothing in the way: straight, edge to edge.
        let straight = arrow_path(left, right, &[]);
        assert_eq!(straight, vec![Vec2::new(-240.0, 0.0), Vec2::new(236.0, 0.0)]);
        let there = arrow_path(left, right, &[middle.inflate(ARROW_CLEARANCE)]);
        let back = arrow_path(right, left, &[middle.inflate(ARROW_CLEARANCE)]);
        for path in [&there, &back] {
            assert!(path.len() > 2, "bent: {path:?}");
            for w in path.windows(2) {
                assert!(!segment_hits(w[0], w[1], middle), "crosses the middle card at {w:?}");
            }
        }
        assert!(
            left.inflate(1.0).contains(there[0]) && !left.inflate(-1.0).contains(there[0]),
            "from the edge"
        );
        let end = *there.last().unwrap_or(&Vec2::ZERO);
        assert!(!right.contains(end) && right.inflate(ARROW_GAP + 1.0).contains(end), "to the edge: {end}");
        let apex =
            |p: &[Vec2]| p.iter().map(|v| v.y).fold(0.0, |a: f32, y| if y.abs() > a.abs() { y } else { a });
        assert_eq!(apex(&there).signum(), apex(&back).signum(), "both ways on one side");
    }

    #[test]
    fn a_short_name_another_shares_gives_way_to_a_short_whole_name() {
        let all = ["Sir Aldric", "Bandit leader", "Bandit", "Bandit", "Raider", "Raider crossbowman"];
        assert_eq!(shown_name("Sir Aldric", &all), "Aldric");
        assert_eq!(shown_name("Bandit leader", &all), "Bandit leader");
        assert_eq!(shown_name("Bandit", &all), "Bandit", "the same whole name tells nothing more");
        assert_eq!(shown_name("Raider crossbowman", &all), "Raider", "too long for a caption");
        // Names the core numbered (a stem two or more share).
        let all = [
            "Imp 1",
            "Imp 2",
            "Imp archer 1 (tower)",
            "Imp archer 2 (tower)",
            "Warden 3 (relief)",
            "Warden 1",
        ];
        assert_eq!(shown_name("Imp 2", &all), "Imp 2");
        assert_eq!(shown_name("Imp archer 2 (tower)", &all), "Imp archer 2", "its remark left off");
        assert_eq!(shown_name("Warden 3 (relief)", &all), "Warden 3");
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

    /// A card of `w` by `h` centred at (`x`, `y`), drawn `h` tall.
    fn card(x: f32, y: f32, w: f32, h: f32) -> (Rect, f32) {
        (Rect::from_center_size(Vec2::new(x, y), Vec2::new(w, h)), h)
    }

    /// The smallest gap between any two cards as drawn at `spread`.
    fn least_gap(cards: &[(Rect, f32)], spread: &Spread) -> f32 {
        let drawn: Vec<Rect> =
            cards.iter().map(|&(r, h)| drawn_card(r, h, spread.centre, spread.factor)).collect();
        let mut least = f32::MAX;
        for (i, a) in drawn.iter().enumerate() {
            for b in &drawn[i + 1..] {
                let gap =
                    (a.min.x - b.max.x).max(b.min.x - a.max.x).max(a.min.y - b.max.y).max(b.min.y - a.max.y);
                least = least.min(gap);
            }
        }
        least
    }

    #[test]
    fn cards_far_apart_are_drawn_closer_keeping_room_for_their_arrows() {
        // A row of three cards 800 apart, and one far below the middle one.
        let cards = [
            card(-800.0, 0.0, 200.0, 150.0),
            card(0.0, 0.0, 200.0, 150.0),
            card(800.0, 0.0, 200.0, 150.0),
            card(0.0, -900.0, 200.0, 150.0),
        ];
        let mut spread = Spread::default();
        spread.update(&cards, &[], true);
        assert!(spread.factor.x < 1.0 && spread.factor.y < 1.0, "drawn closer: {:?}", spread.factor);
        let gap = least_gap(&cards, &spread);
        assert!(gap >= LINK_ROOM - 1.0, "room for an arrow between every two: {gap}");
        // Not much more than that: the board is as small as its arrows allow.
        assert!(gap <= LINK_ROOM + 60.0, "drawn tight: {gap}");
    }

    #[test]
    fn a_grown_card_pushes_the_card_below_it_away() {
        // Two cards 300 apart; the upper one grown to 500 tall by its tokens.
        let cards = [
            (Rect::from_center_size(Vec2::ZERO, Vec2::new(200.0, 150.0)), 500.0),
            card(0.0, -300.0, 200.0, 150.0),
        ];
        let mut spread = Spread::default();
        spread.update(&cards, &[], true);
        let gap = least_gap(&cards, &spread);
        assert!(gap >= LINK_ROOM - 1.0, "the grown card does not cover the one below: {gap}");
    }

    #[test]
    fn cards_that_touch_in_the_scenario_never_overlap() {
        let cards = [
            card(-100.0, 0.0, 200.0, 150.0),
            card(100.0, 0.0, 200.0, 150.0),
            card(0.0, -1000.0, 200.0, 150.0),
        ];
        let mut spread = Spread::default();
        spread.update(&cards, &[], true);
        assert!(least_gap(&cards, &spread) >= -0.01, "at {:?}", spread.factor);
    }

    #[test]
    fn tokens_in_no_card_keep_clear_of_each_other_and_of_the_cards() {
        let cards = [card(-600.0, 0.0, 200.0, 150.0), card(600.0, 0.0, 200.0, 150.0)];
        let pieces = [Vec2::new(0.0, 400.0), Vec2::new(0.0, -400.0), Vec2::new(300.0, 0.0)];
        let mut spread = Spread::default();
        spread.update(&cards, &pieces, true);
        let rooms: Vec<Rect> = pieces.iter().map(|&p| Rect::from_center_size(spread.out(p), PIECE)).collect();
        let drawn: Vec<Rect> =
            cards.iter().map(|&(r, h)| drawn_card(r, h, spread.centre, spread.factor)).collect();
        for (i, a) in rooms.iter().enumerate() {
            for b in rooms[i + 1..].iter().chain(&drawn) {
                assert!(!near(*a, *b, -0.5), "{a:?} overlaps {b:?} at {:?}", spread.factor);
            }
        }
    }

    #[test]
    fn tokens_close_together_with_no_cards_come_no_closer_than_they_stand() {
        // The toy duel: two pairs, each 120 apart down (less than a token's room), far across.
        let pieces = [
            Vec2::new(-220.0, 0.0),
            Vec2::new(-220.0, -120.0),
            Vec2::new(220.0, 0.0),
            Vec2::new(220.0, -120.0),
        ];
        let mut spread = Spread::default();
        spread.update(&[], &pieces, true);
        let room = |p: Vec2| Rect::from_center_size(p, PIECE);
        for (i, &a) in pieces.iter().enumerate() {
            for &b in &pieces[i + 1..] {
                let (da, db) = (spread.out(a), spread.out(b));
                if near(room(a), room(b), 0.0) {
                    assert!(
                        da.distance(db) >= a.distance(b) - 0.01,
                        "{a} and {b} closer at {:?}",
                        spread.factor
                    );
                } else {
                    assert!(!near(room(da), room(db), -0.5), "{a} and {b} overlap at {:?}", spread.factor);
                }
            }
        }
        assert!(near(room(pieces[0]), room(pieces[1]), 0.0), "the pair is close in the scenario");
        // A rider at its mount's place stays with it, and leaves the board as tight as it was.
        spread.update(&[], &[Vec2::ZERO, Vec2::ZERO, Vec2::new(800.0, 0.0)], true);
        assert!(spread.factor.y < 1.0 && spread.factor.x < 1.0, "{:?}", spread.factor);
    }

    #[test]
    fn a_board_of_free_positions_keeps_its_proportions_and_only_spreads() {
        let cards =
            [card(0.0, 0.0, 200.0, 150.0), card(150.0, 0.0, 200.0, 150.0), card(2000.0, 0.0, 200.0, 150.0)];
        let mut spread = Spread::default();
        spread.update(&cards, &[], false);
        assert_eq!(spread.factor.x, spread.factor.y);
        assert!(spread.factor.x >= 1.0);
        // The first two overlap in the scenario: left as they are; the third is far.
        assert_eq!(spread.factor, Vec2::ONE);
        // Two cards 10 apart spread evenly until 24 lie between them, the far one with them.
        let close =
            [card(0.0, 0.0, 200.0, 150.0), card(210.0, 0.0, 200.0, 150.0), card(0.0, 900.0, 200.0, 150.0)];
        spread.update(&close, &[], false);
        assert_eq!(spread.factor.x, spread.factor.y, "proportions kept");
        assert!(spread.factor.x > 1.0, "spread apart: {:?}", spread.factor);
        assert!(least_gap(&close, &spread) >= CARD_GAP, "{}", least_gap(&close, &spread));
    }
}
