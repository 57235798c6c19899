//! End of the round: unconscious combatants roll Endurance or take a handicap; leftover
//! TP and turns are lost; the fight ends when one side (or none) is left standing, when
//! every conscious combatant agrees, or at the round limit. Otherwise a new round begins.

use std::collections::BTreeSet;

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::phase::RulesStep;
use fray_core::prelude::Side;
use fray_core::table::Status;

use crate::counters::{PENDING_TURN, TACTICAL_POINT, TURN_TOKEN};
use crate::damage;
use crate::data::Attribute;
use crate::phase::{FiendWakePhase, Round, go_to};
use crate::rolls;
use crate::rolls::Difficulty;
use crate::schedule::FiendWakeSystems;
use crate::sheet::RoundChoices;
use crate::view;

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(RulesStep, end_round.in_set(FiendWakeSystems::EndOfRound))
        .add_systems(RulesStep, check_end.in_set(FiendWakeSystems::Ending));
}

/// Whether two sides or more are still standing: a run condition of every phase and of the
/// decisions, so that once at most one side is left no turn, round or reaction starts and no
/// one acts.
pub fn goes_on(world: &World) -> bool {
    fray_core::table::two_sides_fight(world, |e, status| fray_core::table::fights_by_status(world, e, status))
}

/// The fight ends the moment one side or none is left standing, whatever the phase.
fn check_end(world: &mut World) {
    if !goes_on(world) {
        finish_fight(world, "one side or none is left standing");
    }
}

fn end_round(world: &mut World) {
    let difficulty = view::catalogue(world).rules.unconscious_difficulty;
    for e in view::combatants(world) {
        if view::status(world, e) == Status::Unconscious {
            let told = format!("{}, unconscious, holds on", view::name(world, e));
            let difficulty = Difficulty::of("unconscious", difficulty);
            let roll = rolls::roll(world, e, (None, Attribute::Endurance), difficulty, told);
            if !roll.success {
                damage::handicap(world, e, "unconscious");
            }
        }
    }
    for e in view::combatants(world) {
        for kind in [TACTICAL_POINT, TURN_TOKEN, PENDING_TURN] {
            view::lose(world, e, kind, u32::MAX, "round over");
        }
    }
    let standing = standing_sides(world);
    let all_agree = view::combatants(world)
        .into_iter()
        .filter(|&e| view::can_act(world, e))
        .all(|e| world.get::<RoundChoices>(e).is_some_and(|c| c.agrees_to_end));
    let round = world.resource::<Round>();
    if standing.len() <= 1 {
        finish_fight(world, "one side or none is left standing");
    } else if all_agree {
        finish_fight(world, "every conscious combatant agreed to end the fight");
    } else if round.number >= round.max_rounds {
        finish_fight(world, "the round limit was reached");
    } else {
        world.resource_mut::<Round>().prepared = false;
        go_to(world, FiendWakePhase::RoundPrep);
    }
}

/// Sides with at least one combatant still fighting.
pub fn standing_sides(world: &World) -> BTreeSet<fray_core::ids::SideId> {
    view::combatants(world)
        .into_iter()
        .filter(|&e| view::can_act(world, e))
        .filter_map(|e| world.get::<Side>(e).map(|s| s.0.clone()))
        .collect()
}

/// Ends the fight, recording the result.
pub(crate) fn finish_fight(world: &mut World, reason: &str) {
    let standing = standing_sides(world);
    let winner = (standing.len() == 1).then(|| standing.into_iter().next()).flatten();
    let rounds = world.resource::<Round>().number;
    // A turn or a question left open by a fight decided in the middle of it.
    world.insert_resource(crate::phase::ActiveTurn::default());
    world.insert_resource(crate::reactions::Reactions::default());
    fray_core::ruleset::end_fight::<FiendWakePhase>(
        world,
        winner,
        rounds,
        reason,
        fray_core::table::fights_by_status,
    );
}
