//! The Initiative ladder's phase chain, configured in this one place: the ladder, the
//! surprise turn, the turns down the ladder, the end of each turn.

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::phase::chain_phases;
use fray_core::ruleset::Ruleset;

use crate::ApLadder;
use crate::ending::goes_on;
use crate::phase::ApLadderPhase;

/// One set per phase, in order, then the decisions and the check for the fight's end. The
/// phases and the decisions run only while two sides or more are in the fight (once the fight
/// is over, the decisions only refuse what comes in).
#[derive(SystemSet, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ApLadderSystems {
    /// Once: initiative rolled, events placed, the surprised marked.
    Ladder,
    /// The ambushers' turns; then the surprise ends and turn 1 opens.
    SurpriseTurn,
    /// Down the ladder: the next rung's go once the last one ended.
    Turns,
    /// Ongoing effects count down; the limit; the next turn.
    EndOfTurn,
    /// Every pass: the AI decides, then queued intents are validated and applied.
    Decisions,
    /// Every pass: the fight ends when one side or none is left.
    Ending,
}

pub(crate) fn plugin(app: &mut App) {
    // Order new phases here.
    chain_phases(
        app,
        ApLadder::ID,
        &[
            (ApLadderSystems::Ladder, ApLadderPhase::Ladder),
            (ApLadderSystems::SurpriseTurn, ApLadderPhase::SurpriseTurn),
            (ApLadderSystems::Turns, ApLadderPhase::Turns),
            (ApLadderSystems::EndOfTurn, ApLadderPhase::EndOfTurn),
        ],
        (ApLadderSystems::Decisions, ApLadderSystems::Ending),
        goes_on,
    );
}
