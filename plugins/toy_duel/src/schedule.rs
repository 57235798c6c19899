//! The toy duel's phase chain, configured in this one place.

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::phase::{RulesStep, RulesetSystems, in_phase};
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
    app.configure_sets(
        RulesStep,
        (
            ToySystems::Gather.run_if(in_phase(ToyPhase::Gather).and_then(goes_on)),
            ToySystems::Strike.run_if(in_phase(ToyPhase::Strike).and_then(goes_on)),
            ToySystems::Decisions.run_if(in_phase(ToyPhase::Over).or_else(goes_on)),
            ToySystems::Ending.run_if(not(in_phase(ToyPhase::Over))),
        )
            .chain()
            .in_set(RulesetSystems(ToyDuel::ID)),
    );
}
