//! The board model: what a ruleset tells any board about its table, in the core's terms. A
//! ruleset fills these from its own state in its [`Ruleset`](crate::ruleset::Ruleset) view
//! functions; a board draws them and never reads a ruleset's own components. Where tokens
//! stand is the core's own table ([`Occupies`](crate::table::Occupies),
//! [`FieldPosition`](crate::table::FieldPosition), [`Rides`](crate::table::Rides)); counters
//! are [`Counters`](crate::tokens::Counters); rolls, damage and revealed secrets are in the
//! log.

use bevy_ecs::entity::Entity;
use serde::{Deserialize, Serialize};

use crate::ids::CombatantId;
use crate::intent::Verdict;
use crate::tokens::CounterKind;

/// How a ruleset lays its battlefield out.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Space {
    /// Locations (or zones) are drawn as cards, with their accessibility arrows.
    pub locations: bool,
    /// The unit of free positions ([`FieldPosition`](crate::table::FieldPosition)).
    pub unit: Unit,
}

/// The unit of free positions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Unit {
    /// Its short name, e.g. "m" (empty for plain board units).
    pub short: &'static str,
    /// How many board units one unit takes.
    pub board: f32,
    /// Distances matter to the rules: the board draws a scale bar and a ruler in this unit.
    pub measured: bool,
}

impl Unit {
    /// Plain board units: free positions only say where a token is drawn.
    pub const BOARD: Unit = Unit { short: "", board: 1.0, measured: false };
}

impl Space {
    /// Cards for locations; tokens outside them stand where the board puts them.
    pub const LOCATIONS: Space = Space { locations: true, unit: Unit::BOARD };

    /// No locations: every token at its position in `unit`, `board` board units each.
    pub const fn free(short: &'static str, board: f32) -> Space {
        Space { locations: false, unit: Unit { short, board, measured: true } }
    }
}

/// How one kind of counter is drawn as chips: shape, colours, and the corner of its owner's
/// token where its stack stands (on a location: the card's corner).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CounterLook {
    /// The kind.
    pub kind: CounterKind,
    /// Its chips' shape.
    pub shape: ChipShape,
    /// Its chips' colour (sRGB).
    pub colour: [u8; 3],
    /// The colour of the count written on the stack (sRGB).
    pub ink: [u8; 3],
    /// Where its stack stands.
    pub corner: Corner,
    /// Its line in the board's legend, e.g. "gold discs TP".
    pub legend: &'static str,
    /// Whose counters they are: a combatant's (its token shows the count) or a location's
    /// (its card shows the chips).
    pub on: CounterOwner,
}

/// Who holds a kind of counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CounterOwner {
    /// Combatants.
    Combatants,
    /// Locations.
    Locations,
}

/// A chip's shape: kinds differ by shape and corner as well as colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChipShape {
    /// A round chip.
    Disc,
    /// A square chip.
    Square,
    /// A triangle, point up.
    Triangle,
    /// A diamond.
    Diamond,
}

/// A corner of a token or card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Corner {
    /// Top left.
    TopLeft,
    /// Top right.
    TopRight,
    /// Bottom left.
    BottomLeft,
    /// Bottom right.
    BottomRight,
}

/// One decision a person could take now, as the board offers it.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice<I> {
    /// The intent sent when it is taken.
    pub intent: I,
    /// Words on its button.
    pub label: String,
    /// Whether the rules would accept it now, or why not.
    pub verdict: Verdict,
    /// The combatant it is aimed at: the board rings it, and lists the choice under that
    /// token when it is clicked.
    pub target: Option<CombatantId>,
    /// The key that takes it.
    pub key: Option<ChoiceKey>,
    /// Listed apart and folded away (attacks on one's own side).
    pub folded: bool,
}

impl<I> Choice<I> {
    /// A choice with its label and verdict, aimed at nobody, with no key.
    pub fn new(intent: I, label: impl Into<String>, verdict: Verdict) -> Self {
        Self { intent, label: label.into(), verdict, target: None, key: None, folded: false }
    }

    /// Aimed at `target`.
    pub fn at(mut self, target: CombatantId) -> Self {
        self.target = Some(target);
        self
    }

    /// The same choice with its intent changed by `f` (into another type).
    pub fn map<J>(self, f: impl FnOnce(I) -> J) -> Choice<J> {
        let Choice { intent, label, verdict, target, key, folded } = self;
        Choice { intent: f(intent), label, verdict, target, key, folded }
    }
}

/// Keys the board binds to a choice (shown on the board in words).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChoiceKey {
    /// P: pass, hold, decline, or whatever "nothing more" is now.
    Pass,
    /// E: end the turn.
    EndTurn,
}

impl ChoiceKey {
    /// The key's letter.
    pub fn letter(self) -> char {
        match self {
            ChoiceKey::Pass => 'P',
            ChoiceKey::EndTurn => 'E',
        }
    }
}

/// The order strip under the phase track: a priority list, a tick timeline, a ladder, which
/// faction may activate...
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OrderView {
    /// Its title, e.g. "Priority" or "Timeline".
    pub title: &'static str,
    /// Who comes when, first first.
    pub entries: Vec<OrderEntry>,
    /// Happenings placed in the order that are no combatant (the GM's events on a ladder).
    pub events: Vec<OrderEvent>,
    /// A ladder: drawn as a column beside the board, top first, rather than a strip.
    pub ladder: bool,
    /// Its entries are a sequence (a number says each one's place); none for groups that
    /// act in no fixed order (the factions), whose `when` heads each group.
    pub numbered: bool,
}

/// A happening in the order: no combatant, a name and where it sits.
#[derive(Clone, Debug, PartialEq)]
pub struct OrderEvent {
    /// It comes before `entries[before]` (after the last entry when `before` is their count).
    pub before: usize,
    /// What it is, in words.
    pub what: String,
}

/// One combatant's place in the order.
#[derive(Clone, Debug, PartialEq)]
pub struct OrderEntry {
    /// Who.
    pub who: Entity,
    /// When, in words ("tick 12", "joins at 24"); empty when the place says it all.
    pub when: String,
    /// Where it stands.
    pub mark: OrderMark,
}

/// Where a combatant stands in the order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OrderMark {
    /// May act now.
    Now,
    /// Acts later.
    Later,
    /// Holds an action.
    Holding,
    /// Not in the fight yet.
    Joining,
    /// Has had its turn this round.
    Done,
    /// Out of the fight.
    Out,
}

impl OrderMark {
    /// Its sign on the strip.
    pub fn sign(self) -> &'static str {
        match self {
            OrderMark::Now => "▶",
            OrderMark::Later => "·",
            OrderMark::Holding => "⏸",
            OrderMark::Joining => "…",
            OrderMark::Done => "✔",
            OrderMark::Out => "✝",
        }
    }
}

/// A choice people make in secret, all together (Fiend Wake's bids, FateWalker's
/// declarations of equal Awareness): the board covers each person's options until they say
/// it is them at the mouse, and shows who has chosen but never what, but to the GM.
#[derive(Clone, Debug, PartialEq)]
pub struct SecretView {
    /// What is chosen, e.g. "bid" or "declaration".
    pub what: &'static str,
    /// Those who have chosen, each with what they chose in a few words (the GM's board
    /// tags their token with it; nothing else shows it before the reveal).
    pub sealed: Vec<(Entity, String)>,
}

/// What the rules ask now, other than the turn being played, as a table's top line says it:
/// whom ("Brannoc") and what ("intercept the attack?", "bid for priority"). Public: a
/// screen leaves out of `who` anyone it may not see, and says nothing if that leaves none.
#[derive(Clone, Debug, PartialEq)]
pub struct QuestionView {
    /// Who is asked (none: the table as a whole, e.g. "bids for priority: 3 to come").
    pub who: Vec<Entity>,
    /// What is asked, in a few words.
    pub what: String,
    /// Those `what` names: a screen that may not see one of them shows no question.
    pub about: Vec<Entity>,
}

/// Who may see a kind of fact: a ruleset declares it for each kind in its [`Privacy`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Seen {
    /// Everyone, the table's screen (and a stream) included.
    Public,
    /// The seat that controls the combatant, and the GM.
    Controller,
    /// The GM only.
    Gm,
}

/// Who may see each kind of a ruleset's facts, beyond what every board shows (names,
/// places, statuses, counters, token captions, cards, the order strip and the log's public
/// lines). Every ruleset declares it (`BoardView::PRIVACY`); a seat's view
/// ([`crate::seat`]) keeps each fact from the seats that may not see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Privacy {
    /// A combatant's sheet ([`crate::ruleset::BoardView::sheet`]).
    pub sheets: Seen,
    /// What a combatant chose in a secret choice, before the reveal ([`SecretView::sealed`]);
    /// the others see only that it has chosen.
    pub sealed: Seen,
    /// A concealed combatant ([`TokenView::concealed`]): its token, its place in the order,
    /// and the log's lines about it while it is concealed (its moves, its rolls).
    pub concealed: Seen,
    /// Counters being allocated, before they are sent ([`AllocationAsk`]).
    pub allocation: Seen,
}

/// What a token shows besides its name.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TokenView {
    /// The caption's second line: weapon, stance, marks... in a few words each.
    pub notes: Vec<String>,
    /// The states it is in (conditions): each a small picture on the token's upper rim (the
    /// first three), and its word in the caption after the notes.
    pub marks: Vec<TokenMark>,
    /// A resource spent and regained each turn, as pips along the token's lower rim (the
    /// Initiative ladder's AP).
    pub pips: Option<Pips>,
    /// Where it is heading (free positions, in the space's unit), if it is moving.
    pub heading: Option<[f32; 2]>,
    /// The rules keep it off the table's screen (a concealed character): the GM's board shows
    /// it faded, the table window not at all, until the rules reveal it.
    pub concealed: bool,
}

/// A state a token is in, as its ruleset names and pictures it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TokenMark {
    /// Its word, e.g. "prone".
    pub label: String,
    /// Its picture: a PNG under `assets/`; none: the word only.
    pub icon: Option<String>,
}

/// Pips: `full` of `of` lit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pips {
    /// Lit.
    pub full: u32,
    /// In all.
    pub of: u32,
}

/// What a location's card says besides its name and where it is entered from.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CardView {
    /// What entering costs, in words (e.g. "2 TP").
    pub cost: Option<String>,
    /// Its properties and state, in a few words each.
    pub notes: Vec<String>,
}

/// A line of a combatant's sheet.
#[derive(Clone, Debug, PartialEq)]
pub struct SheetRow {
    /// A heading (drawn strong) or a plain line.
    pub heading: bool,
    /// The words.
    pub text: String,
}

impl SheetRow {
    /// A plain line.
    pub fn line(text: impl Into<String>) -> Self {
        Self { heading: false, text: text.into() }
    }

    /// A heading.
    pub fn heading(text: impl Into<String>) -> Self {
        Self { heading: true, text: text.into() }
    }
}

/// Scenery of a free-position board: covers, lights.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenery {
    /// What it is.
    pub kind: SceneryKind,
    /// Its centre, in the space's unit.
    pub at: [f32; 2],
    /// Its radius, in the space's unit.
    pub radius: f32,
    /// Its label on the board, if any.
    pub label: Option<String>,
}

/// Kinds of scenery.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SceneryKind {
    /// Something to hide behind; `strong` covers are drawn with a double ring.
    Cover {
        /// A strong cover.
        strong: bool,
    },
    /// A light: a dim circle.
    Light,
    /// A trap: a red circle while armed, grey once stalled or disabled.
    Trap {
        /// It springs on whoever ends a move in it.
        armed: bool,
    },
    /// A hazard's area (rising water, fire): a blue circle.
    Hazard,
    /// Ground of a nature of its own (hard terrain, fog, darkness, high ground): a tan circle.
    Terrain,
}

/// A person allocates counters of one kind among targets (Fiend Wake's harassment): the
/// board lets them drag chips onto the targets' tokens, or use − and + in the panel, and
/// sends the ruleset's intent for the allocation.
#[derive(Clone, Debug, PartialEq)]
pub struct AllocationAsk {
    /// Who allocates.
    pub who: Entity,
    /// The kind of counter given.
    pub kind: CounterKind,
    /// Who may be given some.
    pub targets: Vec<Entity>,
    /// What to do, in words, for the panel.
    pub hint: String,
}

/// `text` with its first letter raised ("round" → "Round").
pub fn capital(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

/// `text` with its first letter lowered ("Strike Hulda" → "strike Hulda").
pub fn lower_first(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |c| c.to_lowercase().chain(chars).collect())
}
