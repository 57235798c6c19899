//! The toy duel's phase chain, configured in this one place.

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::phase::chain_phases;
use fray_core::ruleset::Ruleset;

use crate::ToyDuel;
use crate::phase::ToyPhase;
use crate::strike::goes_on;

/// One set per phase, in order, then the decisions set and the check for the fight's end;
/// the phases and the decisions run only while two sides or more are standing.
#[derive(SystemSet, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ToySystems {
    /// Gather: a new round, a spark for everyone standing.
    Gather,
    /// Strike: once everyone standing has struck, back to gathering.
    Strike,
    /// Every pass: the AI decides, then queued intents are validated and applied.
    Decisions,
    /// Every pass: the fight ends the moment one side or none is left standing.
    Ending,
}

pub(crate) fn plugin(app: &mut App) {
    // Order new phases here.
    chain_phases(
        app,
        ToyDuel::ID,
        &[(ToySystems::Gather, ToyPhase::Gather), (ToySystems::Strike, ToyPhase::Strike)],
        (ToySystems::Decisions, ToySystems::Ending),
        goes_on,
    );
}
