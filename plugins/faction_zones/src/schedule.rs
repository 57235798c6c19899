//! Factions in zones' phase chain, configured in this one place.

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::phase::chain_phases;
use fray_core::ruleset::Ruleset;

use crate::FactionZones;
use crate::ending::goes_on;
use crate::phase::FactionZonesPhase;

/// One set per phase, in order, then the decisions and the check for the fight's end. The
/// phases and the decisions run only while two factions or more are in the fight (once the
/// fight is over, the decisions only refuse what comes in).
#[derive(SystemSet, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FactionZonesSystems {
    /// A new round; the initiative holder's pick.
    RoundStart,
    /// Alternating activations: a faction with no one left passes; all passing ends the round.
    Activations,
    /// Morale checks, then the next round.
    EndOfRound,
    /// Every pass: the AI decides, then queued intents are validated and applied.
    Decisions,
    /// Every pass: the fight ends when one faction or none is left.
    Ending,
}

pub(crate) fn plugin(app: &mut App) {
    // Order new phases here.
    chain_phases(
        app,
        FactionZones::ID,
        &[
            (FactionZonesSystems::RoundStart, FactionZonesPhase::RoundStart),
            (FactionZonesSystems::Activations, FactionZonesPhase::Activations),
            (FactionZonesSystems::EndOfRound, FactionZonesPhase::EndOfRound),
        ],
        (FactionZonesSystems::Decisions, FactionZonesSystems::Ending),
        goes_on,
    );
}
