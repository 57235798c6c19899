//! Where each token and mount stands: in its location's card (a grid under the card's text,
//! the card growing down to hold it), at its free position on the ruleset's scale, else in
//! its side's column beside the cards; and the cards' spread, worked out while a table settles.
//!
//! [`Table`] is what the layout reads of the rules (gathered by [`place_tokens`]); its methods
//! work out the [`Layout`] from it as plain data, which the system then applies.

use std::collections::BTreeMap;

use bevy::prelude::*;
use fray_core::board::Space;
use fray_core::fight::Session;
use fray_core::location::{Location, OpenField};
use fray_core::prelude::{FieldPosition, Occupies, Rides, SideIndex, TableIndex};

use super::changes::LayoutDirty;
use super::pieces::{
    CAPTION_ROOM, CARD_HEADER, Card, CardInfo, CardRect, FREE_MOUNT, FREE_TOKEN, GRID, GridColumns,
    MountLabel, MountToken, NO_CARDS, PlateEmblem, RIDDEN_MOUNT, Spread, TAG_ROOM, TOKEN, Token,
    TokenCaption, card_rect, to_board,
};
use crate::client::motion::Goal;
use crate::client::pointer::{Dragging, EditMode};

/// The width of a column of tokens in no location, and the height of a row in it.
const COLUMN: f32 = TOKEN + 30.0;
const FIELD_ROW: f32 = TOKEN + 34.0;
/// Rows in a column of tokens in no location.
const FIELD_ROWS: usize = 4;

/// How long a table opened (or rebuilt) settles, in frames: its cards' spread is worked out
/// meanwhile, well before the layout file is written (`capture`).
const SETTLE_FRAMES: u32 = 30;

/// A combatant where the rules stand it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Standing {
    pub(super) who: Entity,
    /// Its location (the open field's, if in none).
    pub(super) place: Entity,
    /// Its free position in the ruleset's unit: its own, else (a rider) its mount's.
    pub(super) free: Option<[f32; 2]>,
    pub(super) side: u16,
}

/// What the token layout reads of the table.
pub(super) struct Table<'a> {
    pub(super) space: Space,
    /// Every location, and whether it is the open field.
    pub(super) places: BTreeMap<Entity, (&'a Location, bool)>,
    /// The height of each card's text as last laid out, by location.
    pub(super) text_height: BTreeMap<Entity, f32>,
    /// The size of each combatant's caption as last laid out.
    pub(super) caption_size: BTreeMap<Entity, Vec2>,
    /// The combatants in table order.
    pub(super) standing: Vec<Standing>,
    /// Where whatever stands at a position of its own in the open field stands (tokens, free
    /// mounts), in the ruleset's unit.
    pub(super) free: Vec<[f32; 2]>,
    /// The mounts drawn.
    pub(super) mounts: Vec<MountStanding>,
}

/// A mount where the rules stand it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct MountStanding {
    pub(super) mount: Entity,
    /// Its location, if it stands in one.
    pub(super) place: Option<Entity>,
    /// Its free position in the ruleset's unit.
    pub(super) free: Option<[f32; 2]>,
    /// Who rides it.
    pub(super) rider: Option<Entity>,
}

/// A card's grid of tokens: under its text, the card growing down to hold it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Grid {
    pub(super) place: Entity,
    /// The location's own rectangle, as the scenario places it.
    pub(super) own: Rect,
    /// The card's height with its grid.
    pub(super) height: f32,
    /// From one token to the next, across and down.
    pub(super) step: Vec2,
    pub(super) per_row: usize,
}

/// Where everything stands, worked out from a [`Table`].
#[derive(Debug, Default, PartialEq)]
pub(super) struct Layout {
    /// Each combatant's token.
    pub(super) at: BTreeMap<Entity, Vec2>,
    /// The width of each card's grid column (its captions wrap to it).
    pub(super) columns: BTreeMap<Entity, f32>,
    /// Each card (by location, in the order asked for): its rectangle and its centre.
    pub(super) cards: Vec<(Entity, Rect, Vec2)>,
    /// Each mount's place, and whether it is ridden.
    pub(super) mounts: BTreeMap<Entity, (Vec2, bool)>,
}

impl Table<'_> {
    /// The token size of the table's space.
    pub(super) fn token(&self) -> f32 {
        if self.space.locations { TOKEN } else { FREE_TOKEN }
    }

    /// The top of a card's grid: under its name and its text as last laid out.
    fn grid_top(&self, place: Entity, location: &Location) -> f32 {
        card_rect(location, 0.0).max.y
            - CARD_HEADER
            - self.text_height.get(&place).copied().unwrap_or(16.0)
            - TAG_ROOM
    }

    /// Each card's grid. A grid is as wide as the widest caption standing in it (captions in a
    /// card wrap to its width, see `captions`), with room for the chips' counts at the corners
    /// of the token beside it; its rows as tall as its tallest caption needs.
    pub(super) fn grids(&self) -> Vec<Grid> {
        let mut cell: BTreeMap<Entity, Vec2> = BTreeMap::new();
        let mut members: BTreeMap<Entity, usize> = BTreeMap::new();
        for s in &self.standing {
            if let Some(size) = self.caption_size.get(&s.who) {
                let c = cell.entry(s.place).or_insert(Vec2::new(GRID.x, CAPTION_ROOM));
                *c = c.max(*size + Vec2::new(26.0, 11.0));
            }
            if self.places.get(&s.place).is_some_and(|(_, field)| !field) {
                *members.entry(s.place).or_default() += 1;
            }
        }
        let mut grids = Vec::new();
        for (&place, &n) in &members {
            let Some((location, _)) = self.places.get(&place) else { continue };
            let own = card_rect(location, 0.0);
            let cell = cell.get(&place).copied().unwrap_or(Vec2::new(GRID.x, CAPTION_ROOM));
            // Across: never wider than the card; down: a token, its tags and its caption.
            let step = Vec2::new(cell.x.min((own.width() - 10.0).max(TOKEN)), GRID.y - CAPTION_ROOM + cell.y);
            let per_row = ((own.width() - 10.0) / step.x).max(1.0) as usize;
            let rows = n.div_ceil(per_row) as f32;
            let below_text = own.max.y - self.grid_top(place, location);
            let height = below_text + (rows - 1.0) * step.y + TOKEN + cell.y;
            grids.push(Grid { place, own, height: height.max(own.height()), step, per_row });
        }
        grids
    }

    /// The height each card of `cards` (by location, in that order) is planned at while the
    /// spread is worked out, with its rectangle as the scenario places it. On a board of free
    /// positions every card keeps a row to spare.
    pub(super) fn planned_heights(&self, cards: &[Entity], grids: &[Grid]) -> Vec<(Entity, Rect, f32)> {
        cards
            .iter()
            .filter_map(|&place| {
                let location = self.places.get(&place)?.0;
                let own = card_rect(location, 0.0);
                let one_row = own.max.y - self.grid_top(place, location) + TOKEN + CAPTION_ROOM;
                let grid = grids.iter().find(|g| g.place == place);
                let height = match (self.space.locations, grid) {
                    (true, Some(g)) => g.height,
                    (true, None) => own.height(),
                    (false, Some(g)) => g.height + g.step.y,
                    (false, None) => one_row,
                };
                Some((place, own, height.max(own.height())))
            })
            .collect()
    }

    /// The cards as drawn at `spread` (their own heights), which the side columns stand beside.
    fn cards_extent(&self, spread: Spread) -> Rect {
        self.places
            .values()
            .filter(|(_, field)| !field)
            .map(|(l, _)| {
                let own = card_rect(l, 0.0);
                let shift = spread.out(own.center()) - own.center();
                Rect::from_corners(own.min + shift, own.max + shift)
            })
            .reduce(|a, b| a.union(b))
            .unwrap_or(NO_CARDS)
    }

    /// Where the tokens of those in the open field stand at `spread`: at their free position,
    /// else in their side's column beside the cards.
    fn in_field(&self, spread: Spread) -> Vec<(Entity, Vec2)> {
        let cards = self.cards_extent(spread);
        let mut slots: BTreeMap<(Entity, u16), usize> = BTreeMap::new();
        let mut at = Vec::new();
        for s in &self.standing {
            if !self.places.get(&s.place).is_some_and(|(_, field)| *field) {
                continue;
            }
            let n = *slots.entry((s.place, s.side)).and_modify(|n| *n += 1).or_insert(0);
            let place = s.free.map(|p| spread.out(to_board(&self.space, p)));
            at.push((s.who, place.unwrap_or_else(|| field_slot(cards, s.side, n))));
        }
        at
    }

    /// The layout: the open field's tokens placed at `field_spread` (the spread the frame
    /// began with), the cards and their grids at `spread`; `cards` are the cards' locations in
    /// the order their rectangles are kept clear of in.
    pub(super) fn layout(
        &self,
        grids: &[Grid],
        cards: &[Entity],
        field_spread: Spread,
        spread: Spread,
    ) -> Layout {
        let mut layout = Layout::default();
        let in_field = self.in_field(field_spread);
        for grid in grids {
            layout.columns.insert(grid.place, grid.step.x);
            let Some((location, _)) = self.places.get(&grid.place) else { continue };
            let shift = spread.out(grid.own.center()) - grid.own.center();
            let top = self.grid_top(grid.place, location) + shift.y;
            let first = Vec2::new(grid.own.min.x + shift.x + 5.0 + grid.step.x / 2.0, top - TOKEN / 2.0);
            let members = self.standing.iter().filter(|s| s.place == grid.place);
            for (n, s) in members.enumerate() {
                let cell = Vec2::new((n % grid.per_row) as f32, -((n / grid.per_row) as f32));
                layout.at.insert(s.who, first + cell * grid.step);
            }
        }
        for &place in cards {
            let Some((location, _)) = self.places.get(&place) else { continue };
            let own = card_rect(location, 0.0);
            let height = grids.iter().find(|g| g.place == place).map_or(own.height(), |g| g.height);
            let shift = spread.out(own.center()) - own.center();
            let rect = Rect::from_corners(own.max + shift, Vec2::new(own.min.x, own.max.y - height) + shift);
            layout.cards.push((place, rect, spread.out(Vec2::from(location.position))));
        }
        // A token in no location is never drawn on a card (it would seem to stand in it).
        let drawn: Vec<Rect> = layout.cards.iter().map(|c| c.1.inflate(self.token() / 2.0 + 8.0)).collect();
        for (who, at) in in_field {
            layout.at.insert(who, clear_of(at, &drawn));
        }
        for m in &self.mounts {
            let rider = m.rider.and_then(|r| layout.at.get(&r)).copied();
            let free = m.free.map(|p| spread.out(to_board(&self.space, p)));
            let card = m.place.and_then(|p| layout.cards.iter().find(|c| c.0 == p)).map(|c| c.1);
            layout.mounts.insert(m.mount, (mount_spot(rider, free, card), rider.is_some()));
        }
        layout
    }
}

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

/// `at` moved out of each rectangle of `drawn` it stands in, in turn, to its nearest edge.
fn clear_of(mut at: Vec2, drawn: &[Rect]) -> Vec2 {
    for r in drawn {
        if !r.contains(at) {
            continue;
        }
        let out = [
            Vec2::new(r.min.x, at.y),
            Vec2::new(r.max.x, at.y),
            Vec2::new(at.x, r.min.y),
            Vec2::new(at.x, r.max.y),
        ];
        let here = at;
        at = out.into_iter().min_by(|a, b| a.distance(here).total_cmp(&b.distance(here))).unwrap_or(here);
    }
    at
}

/// Where a mount stands: under its rider's token, else at its free position, else (free in a
/// location) in its card's lower right corner.
fn mount_spot(rider: Option<Vec2>, free: Option<Vec2>, card: Option<Rect>) -> Vec2 {
    match rider {
        Some(rider) => rider + Vec2::new(0.0, -TOKEN * 0.2),
        None => free
            .or_else(|| {
                card.map(|r| {
                    Vec2::new(r.max.x, r.min.y) + FREE_MOUNT * Vec2::new(-0.5, 0.5) + Vec2::new(-4.0, 4.0)
                })
            })
            .unwrap_or_default(),
    }
}

/// A mount's plate: a ridden one's saddle cloth, or a free one's holding its name (`label`
/// wide) and its emblem left of it (a square) when it has one.
fn mount_plate(ridden: bool, labels: &[f32], emblem: bool) -> Vec2 {
    if ridden {
        return RIDDEN_MOUNT;
    }
    let emblem = if emblem { FREE_MOUNT.y } else { 0.0 };
    let mut plate = FREE_MOUNT;
    for width in labels {
        plate.x = plate.x.max(width + FREE_MOUNT.y * 0.5) + emblem;
    }
    plate
}

/// How far a table is from settled: frames left, and the height each card's spread was worked
/// out for.
#[derive(Default)]
pub(super) struct Settle {
    frames: u32,
    /// Frames left of a table's opening settle: its tokens go straight to their places.
    opening: u32,
    planned: BTreeMap<Entity, f32>,
}

impl Settle {
    /// One frame of settling: whether the tokens jump to their places, and the cards' planned
    /// heights while the spread is to be worked out again. The spread is worked out while a
    /// table settles, then kept: the board never shifts under people's eyes as tokens come and
    /// go, nor as a scenario is edited (each edit puts a new table up). A board of cards is
    /// worked out again when a card outgrows it.
    fn advance(
        &mut self,
        new_table: bool,
        editing: bool,
        table: &Table,
        grids: &[Grid],
        cards: &[Entity],
    ) -> (bool, Option<Vec<(Rect, f32)>>) {
        if new_table && !editing {
            self.frames = SETTLE_FRAMES;
            self.opening = SETTLE_FRAMES;
        }
        let jump = self.opening > 0;
        self.opening = self.opening.saturating_sub(1);
        let grown = grids.iter().any(|g| self.planned.get(&g.place).is_some_and(|&h| g.height > h + 0.5));
        if grown && table.space.locations && !editing {
            self.frames = self.frames.max(1);
        }
        if self.frames == 0 {
            return (jump, None);
        }
        self.frames -= 1;
        let heights = table.planned_heights(cards, grids);
        self.planned = heights.iter().map(|&(place, _, h)| (place, h)).collect();
        (jump, Some(heights.into_iter().map(|(_, own, h)| (own, h)).collect()))
    }
}

/// Sizes a card and moves it to its centre, touching only what changes.
fn put_card(mut rect: Mut<CardRect>, mut transform: Mut<Transform>, wanted: Rect, centre: Vec2) {
    rect.set_if_neq(CardRect(wanted));
    let centre = centre.extend(transform.translation.z);
    if transform.translation != centre {
        transform.translation = centre;
    }
}

/// The names on mounts' plates.
type MountLabels<'w, 's> = Query<
    'w,
    's,
    (&'static mut Visibility, &'static mut Transform, &'static bevy::text::TextLayoutInfo),
    (With<MountLabel>, Without<Card>),
>;

/// Shows a mount's labels only while no one rides it, beside its emblem if it has one;
/// returns their widths.
fn put_mount_labels(children: &Children, labels: &mut MountLabels, ridden: bool, emblem: bool) -> Vec<f32> {
    let shown = if ridden { Visibility::Hidden } else { Visibility::Inherited };
    let mut widths = Vec::new();
    for child in children.iter() {
        if let Ok((mut label, mut place, text)) = labels.get_mut(child) {
            label.set_if_neq(shown);
            widths.push(text.size.x);
            let x = if !ridden && emblem { FREE_MOUNT.y / 2.0 } else { 0.0 };
            if place.translation.x != x {
                place.translation.x = x;
            }
        }
    }
    widths
}

/// Places every token, mount and card: gathers the [`Table`], settles the spread, and applies
/// the [`Layout`]. Runs only when something it reads changed (or while a table settles).
#[allow(clippy::too_many_arguments)]
pub(super) fn place_tokens(
    session: Option<Res<Session>>,
    index: Res<TableIndex>,
    dragging: Res<Dragging>,
    combatants: Query<(&Occupies, Option<&FieldPosition>, &SideIndex, Option<&Rides>)>,
    places: Query<(Entity, &Location, Has<OpenField>)>,
    mount_places: Query<(&Occupies, Option<&FieldPosition>)>,
    infos: Query<(&CardInfo, &bevy::text::TextLayoutInfo)>,
    captions: Query<(&TokenCaption, &bevy::text::TextLayoutInfo)>,
    mut spread: ResMut<Spread>,
    mut columns: ResMut<GridColumns>,
    mut settle: Local<Settle>,
    mut cards: Query<(&Card, &mut CardRect, &mut Transform), (Without<Token>, Without<MountToken>)>,
    mut tokens: Query<(Entity, &Token, &mut Goal, &mut Sprite), Without<MountToken>>,
    mut mounts: Query<
        (Entity, &MountToken, &mut Goal, &mut Sprite, &Children, Has<PlateEmblem>),
        Without<Token>,
    >,
    mut labels: MountLabels,
    (mode, mut dirty): (Res<EditMode>, ResMut<LayoutDirty>),
) {
    if !dirty.0 && settle.frames == 0 {
        return;
    }
    // The captions are placed again after this.
    dirty.0 = true;
    let places: BTreeMap<Entity, (&Location, bool)> = places.iter().map(|(e, l, f)| (e, (l, f))).collect();
    let table = Table {
        space: session.map_or(Space::LOCATIONS, |s| s.ruleset().space()),
        text_height: infos.iter().map(|(i, layout)| (i.0, layout.size.y)).collect(),
        caption_size: captions.iter().map(|(c, l)| (c.0, l.size)).collect(),
        standing: standing(&index, &combatants, &mount_places, &places),
        free: mount_places
            .iter()
            .filter(|(o, _)| places.get(&o.0).is_some_and(|(_, field)| *field))
            .filter_map(|(_, f)| f.map(|p| p.0))
            .collect(),
        mounts: mounts_standing(&index, &combatants, &mount_places, mounts.iter().map(|m| m.1.0)),
        places,
    };
    let grids = table.grids();
    let order: Vec<Entity> = cards.iter().map(|(c, ..)| c.0).collect();
    let field_spread = *spread;
    let (jump, heights) = settle.advance(index.is_changed(), mode.0, &table, &grids, &order);
    if let Some(heights) = heights {
        let pieces: Vec<Vec2> = table.free.iter().map(|&p| to_board(&table.space, p)).collect();
        spread.update(&heights, &pieces, table.space.locations);
    }
    let layout = table.layout(&grids, &order, field_spread, *spread);
    columns.set_if_neq(GridColumns(layout.columns.clone()));
    let drawn: BTreeMap<Entity, (Rect, Vec2)> = layout.cards.iter().map(|&(e, r, c)| (e, (r, c))).collect();
    for (card, rect, transform) in &mut cards {
        if let Some(&(wanted, centre)) = drawn.get(&card.0) {
            put_card(rect, transform, wanted, centre);
        }
    }
    let dragged = |drawing: Entity| dragging.0.as_ref().is_some_and(|d| d.token == drawing);
    let size = Vec2::splat(table.token());
    for (drawing, token, mut goal, mut sprite) in &mut tokens {
        if sprite.custom_size != Some(size) {
            sprite.custom_size = Some(size);
        }
        if let Some(pos) = layout.at.get(&token.0).filter(|_| !dragged(drawing)) {
            goal.aim(pos.extend(2.0), jump);
        }
    }
    for (drawing, m, mut goal, mut sprite, children, emblem) in &mut mounts {
        let Some(&(pos, ridden)) = layout.mounts.get(&m.0) else { continue };
        let widths = put_mount_labels(children, &mut labels, ridden, emblem);
        let plate = mount_plate(ridden, &widths, emblem);
        if sprite.custom_size != Some(plate) {
            sprite.custom_size = Some(plate);
        }
        // A mount dragged in edit mode follows the pointer.
        if !dragged(drawing) {
            goal.aim(pos.extend(1.5), jump);
        }
    }
}

/// Every combatant standing in a location, in table order, with its free position (a rider
/// with none of its own stands where its mount stands).
fn standing(
    index: &TableIndex,
    combatants: &Query<(&Occupies, Option<&FieldPosition>, &SideIndex, Option<&Rides>)>,
    mount_places: &Query<(&Occupies, Option<&FieldPosition>)>,
    places: &BTreeMap<Entity, (&Location, bool)>,
) -> Vec<Standing> {
    index
        .order
        .iter()
        .filter_map(|&who| {
            let (occupies, own, side, rides) = combatants.get(who).ok()?;
            places.get(&occupies.0)?;
            let mounted = || rides.and_then(|r| mount_places.get(r.0).ok()).and_then(|(_, f)| f.map(|p| p.0));
            Some(Standing { who, place: occupies.0, free: own.map(|p| p.0).or_else(mounted), side: side.0 })
        })
        .collect()
}

/// Every mount drawn (`drawn`), where it stands and who rides it (the last in table order).
fn mounts_standing(
    index: &TableIndex,
    combatants: &Query<(&Occupies, Option<&FieldPosition>, &SideIndex, Option<&Rides>)>,
    mount_places: &Query<(&Occupies, Option<&FieldPosition>)>,
    drawn: impl Iterator<Item = Entity>,
) -> Vec<MountStanding> {
    let riders: BTreeMap<Entity, Entity> = index
        .order
        .iter()
        .filter_map(|&c| combatants.get(c).ok().and_then(|(_, _, _, r)| r.map(|r| (r.0, c))))
        .collect();
    drawn
        .map(|mount| {
            let (place, free) =
                mount_places.get(mount).map_or((None, None), |(o, f)| (Some(o.0), f.map(|p| p.0)));
            MountStanding { mount, place, free, rider: riders.get(&mount).copied() }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use fray_core::ids::LocationId;

    use super::*;

    fn entity(n: u32) -> Entity {
        Entity::from_raw_u32(n).expect("a valid index")
    }

    fn location(x: f32, y: f32, w: f32, h: f32) -> Location {
        Location { id: LocationId::from("here"), name: "Here".into(), position: [x, y], size: [w, h] }
    }

    fn standing(who: u32, place: Entity, side: u16) -> Standing {
        Standing { who: entity(who), place, free: None, side }
    }

    fn table<'a>(places: &[(Entity, &'a Location, bool)], standing: Vec<Standing>) -> Table<'a> {
        Table {
            space: Space::LOCATIONS,
            places: places.iter().map(|&(e, l, f)| (e, (l, f))).collect(),
            text_height: BTreeMap::new(),
            caption_size: BTreeMap::new(),
            standing,
            free: Vec::new(),
            mounts: Vec::new(),
        }
    }

    #[test]
    fn tokens_in_a_card_fill_its_grid_in_rows_and_the_card_grows_to_hold_them() {
        let hall = entity(100);
        let room = location(0.0, 0.0, 200.0, 150.0);
        let five: Vec<Standing> = (1..=5).map(|n| standing(n, hall, 0)).collect();
        let table = table(&[(hall, &room, false)], five.clone());
        let grids = table.grids();
        let grid = grids[0];
        assert_eq!(grid.per_row, 2, "two tokens a row in a card 200 wide");
        let layout = table.layout(&grids, &[hall], Spread::default(), Spread::default());
        let at = |s: &Standing| layout.at[&s.who];
        assert_eq!(at(&five[0]).y, at(&five[1]).y, "side by side");
        assert_eq!(at(&five[2]).x, at(&five[0]).x, "the third starts the next row");
        assert!(at(&five[2]).y < at(&five[0]).y, "under the first");
        let (_, rect, centre) = layout.cards[0];
        assert!(rect.height() > 150.0, "grown: {rect:?}");
        assert_eq!(rect.max.y, 75.0, "from the location's own top");
        assert_eq!(centre, Vec2::ZERO, "its centre where the scenario puts it");
        for s in &five {
            assert!(rect.contains(at(s)), "{:?} inside the card {rect:?}", at(s));
        }
    }

    #[test]
    fn a_token_in_no_location_stands_in_its_sides_column_clear_of_the_cards() {
        let (field, hall) = (entity(100), entity(101));
        let (open, room) = (location(0.0, 0.0, 1.0, 1.0), location(0.0, 0.0, 200.0, 150.0));
        let mut on_a_card = standing(3, field, 0);
        on_a_card.free = Some([10.0, 10.0]);
        let people = vec![standing(1, field, 0), standing(2, field, 1), on_a_card];
        let table = table(&[(field, &open, true), (hall, &room, false)], people.clone());
        let layout = table.layout(&table.grids(), &[hall], Spread::default(), Spread::default());
        let at = |n: usize| layout.at[&people[n].who];
        assert!(at(0).x < -100.0, "an even side left of the cards: {}", at(0));
        assert!(at(1).x > 100.0, "an odd side right of them: {}", at(1));
        let rect = layout.cards[0].1.inflate(TOKEN / 2.0 + 8.0);
        assert!(
            !rect.contains(at(2)) || rect.min.x == at(2).x || rect.max.y == at(2).y,
            "moved off the card"
        );
        assert!((at(2) - Vec2::new(10.0, 10.0)).length() > 40.0, "to its nearest edge: {}", at(2));
    }

    #[test]
    fn a_mount_stands_under_its_rider_else_free_else_in_its_cards_corner() {
        let card = Rect::new(0.0, 0.0, 200.0, 100.0);
        let rider = Vec2::new(50.0, 50.0);
        assert_eq!(mount_spot(Some(rider), None, Some(card)), rider + Vec2::new(0.0, -TOKEN * 0.2));
        assert_eq!(mount_spot(None, Some(Vec2::new(7.0, 8.0)), Some(card)), Vec2::new(7.0, 8.0));
        let corner = mount_spot(None, None, Some(card));
        assert!(card.contains(corner) && corner.x > 150.0 && corner.y < 50.0, "lower right: {corner}");
        assert_eq!(mount_plate(true, &[300.0], true), RIDDEN_MOUNT, "a saddle cloth whatever its name");
        assert_eq!(mount_plate(false, &[10.0], false), FREE_MOUNT, "a short name fits the plate");
        assert!(mount_plate(false, &[200.0], true).x > 200.0 + FREE_MOUNT.y, "a long name and its emblem");
    }
}
