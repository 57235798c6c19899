//! The toy duel's phase chain, configured in this one place.

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::phase::{RulesStep, RulesetSystems, in_phase};
use fray_core::ruleset::Ruleset;

use crate::ToyDuel;
use crate::phase::ToyPhase;

/// One set per phase, in order, then the decisions set.
#[derive(SystemSet, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ToySystems {
    /// Gather: a new round, a spark for everyone standing.
    Gather,
    /// Strike: once everyone standing has struck, back to gathering.
    Strike,
    /// Every pass: the AI decides, then queued intents are validated and applied.
    Decisions,
}

pub(crate) fn plugin(app: &mut App) {
    // Order new phases here.
    app.configure_sets(
        RulesStep,
        (
            ToySystems::Gather.run_if(in_phase(ToyPhase::Gather)),
            ToySystems::Strike.run_if(in_phase(ToyPhase::Strike)),
            ToySystems::Decisions,
        )
            .chain()
            .in_set(RulesetSystems(ToyDuel::ID)),
    );
}
