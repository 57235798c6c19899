//! Fiend Wake's counter tokens, and how a board draws each kind as chips.

use fray_core::board::{ChipShape, Corner, CounterLook, CounterOwner};
use fray_core::tokens::CounterKind;

/// A tactical point: Fiend Wake's spendable focus.
pub const TACTICAL_POINT: CounterKind = CounterKind::new(0, "tactical_point", "tactical point");
/// A turn the combatant may still take this round.
pub const TURN_TOKEN: CounterKind = CounterKind::new(1, "turn_token", "turn token");
/// The turn a combatant has set in front of itself, about to be resolved.
pub const PENDING_TURN: CounterKind = CounterKind::new(2, "pending_turn", "pending turn");
/// A wound on the wounds-sustained track.
pub const WOUND: CounterKind = CounterKind::new(3, "wound", "wound");
/// Siege damage tallied on a location.
pub const SIEGE_DAMAGE: CounterKind = CounterKind::new(4, "siege_damage", "siege damage");

const BLACK: [u8; 3] = [0, 0, 0];

/// Every kind, drawn as chips: gold discs of TP at a token's top left, blue squares of turn
/// tokens at its top right, a white triangle for the pending turn at its bottom left, red
/// diamonds of wounds at its bottom right; grey squares of siege damage on a card.
pub const LOOKS: &[CounterLook] = &[
    CounterLook {
        kind: TACTICAL_POINT,
        shape: ChipShape::Disc,
        colour: [242, 199, 51],
        ink: BLACK,
        corner: Corner::TopLeft,
        legend: "gold discs TP",
        on: CounterOwner::Combatants,
    },
    CounterLook {
        kind: TURN_TOKEN,
        shape: ChipShape::Square,
        colour: [140, 204, 255],
        ink: BLACK,
        corner: Corner::TopRight,
        legend: "blue squares turn tokens",
        on: CounterOwner::Combatants,
    },
    CounterLook {
        kind: PENDING_TURN,
        shape: ChipShape::Triangle,
        colour: [255, 255, 255],
        ink: BLACK,
        corner: Corner::BottomLeft,
        legend: "white triangles pending turn",
        on: CounterOwner::Combatants,
    },
    CounterLook {
        kind: WOUND,
        shape: ChipShape::Diamond,
        colour: [230, 38, 38],
        ink: [255, 255, 255],
        corner: Corner::BottomRight,
        legend: "red diamonds wounds",
        on: CounterOwner::Combatants,
    },
    CounterLook {
        kind: SIEGE_DAMAGE,
        shape: ChipShape::Square,
        colour: [89, 84, 77],
        ink: [255, 255, 255],
        corner: Corner::TopRight,
        legend: "grey squares siege damage (cards)",
        on: CounterOwner::Locations,
    },
];
