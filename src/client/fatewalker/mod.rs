//! FateWalker on the board: tokens at free positions in metres on a scaled board, covers, a
//! scale bar, a ruler while dragging, the aim view, the tick timeline and the decisions
//! panel. While a FateWalker table is open the Fiend Wake board systems are gated off (see
//! [`on_fiend_wake`]) and these run; both rules plugins are in the app, each idle unless its
//! own phase resource says a fight is on.

mod board;
mod drag;
pub(super) mod panels;

use bevy::prelude::*;
use fatewalker::FateWalkerPlugin;

use crate::rulesets::RulesetScenario;
use crate::session::Session;

/// Board units per metre: the board's scale (the scale bar shows it).
pub const UNITS_PER_METRE: f32 = 25.0;

pub(super) fn plugin(app: &mut App) {
    // The AI's pace is the client's, for either ruleset (see `client::pace_ai`).
    app.add_plugins(FateWalkerPlugin);
    board::plugin(app);
    drag::plugin(app);
    panels::plugin(app);
}

/// Whether the table in the window plays FateWalker.
pub fn is_fatewalker(world: &World) -> bool {
    world
        .get_resource::<Session>()
        .is_some_and(|s| matches!(s.scenario.rules, RulesetScenario::Fatewalker(_)))
}

/// Run condition: a FateWalker table is open.
pub fn on_fatewalker(session: Option<Res<Session>>) -> bool {
    session.is_some_and(|s| matches!(s.scenario.rules, RulesetScenario::Fatewalker(_)))
}

/// Run condition: the Fiend Wake board systems run (a Fiend Wake table, or none open).
pub fn on_fiend_wake(session: Option<Res<Session>>) -> bool {
    !on_fatewalker(session)
}

/// A point in metres on the board.
pub fn to_board(metres: [f32; 2]) -> Vec2 {
    Vec2::from(metres) * UNITS_PER_METRE
}

/// A board point in metres.
pub fn to_metres(at: Vec2) -> [f32; 2] {
    (at / UNITS_PER_METRE).into()
}
