//! FateWalker on the board: tokens at free positions in metres on a scaled board, covers, a
//! scale bar, a ruler while dragging, the aim view, the tick timeline and the decisions
//! panel. While a FateWalker table is open the Fiend Wake board systems are gated off (see
//! [`on_fiend_wake`]) and these run; both rules plugins are in the app, each idle unless its
//! own phase resource says a fight is on.

mod board;
mod drag;
pub(super) mod panels;

use std::time::Duration;

use bevy::prelude::*;
use fatewalker::FateWalkerPlugin;
use fatewalker::decisions::AiPacing;
use fray_core::DriveRules;

use crate::rulesets::RulesetScenario;
use crate::session::Session;

/// Board units per metre: the board's scale (the scale bar shows it).
pub const UNITS_PER_METRE: f32 = 25.0;

/// The delay between two FateWalker AI decisions, so that people can follow them.
#[derive(Resource, Clone, Debug)]
struct AiPause(Timer);

pub(super) fn plugin(app: &mut App) {
    app.add_plugins(FateWalkerPlugin)
        .insert_resource(AiPacing::default())
        .insert_resource(AiPause(Timer::new(Duration::from_millis(600), TimerMode::Repeating)))
        .add_systems(Update, pace_ai.before(DriveRules).run_if(on_fatewalker));
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

/// Lets the AI take one decision per pause.
fn pace_ai(time: Res<Time>, mut pause: ResMut<AiPause>, mut pacing: ResMut<AiPacing>) {
    if pause.0.tick(time.delta()).just_finished() {
        pacing.allowance = 1;
    }
}
