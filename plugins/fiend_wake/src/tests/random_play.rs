//! Random battles: every decision a random legal intent (or the AI's), with the table's
//! invariants checked after every step. Many seeds, both scenarios.

use crate::decisions::awaiting;
use crate::legal::legal_intents;
use crate::{FiendWakeIntent, FiendWakePhase, Round};
use fray_core::prelude::{Counters, Status};
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::support::Table;
use crate::counters::*;

const SCENARIOS: [&str; 2] = [super::support::SWAMP, super::support::CASTLE];
/// Every random battle ends within this many rounds (the table's round limit)...
const MAX_ROUNDS: u32 = 12;
/// ...and this many decisions.
const MAX_DECISIONS: u32 = 20_000;

/// Checks what must hold between any two steps of any battle.
fn invariants(t: &mut Table) -> Result<(), TestCaseError> {
    let mismatches = t.token_mismatches();
    prop_assert!(mismatches.is_empty(), "token entities disagree with the counters: {mismatches:?}");
    let world = t.world_mut();
    for (counters, status) in world.query::<(&Counters, &Status)>().iter(world) {
        let tp = counters.get(TACTICAL_POINT);
        prop_assert!(tp < 100, "TP out of range (an underflow?): {tp}");
        if !status.can_act() {
            for kind in [TACTICAL_POINT, TURN_TOKEN, PENDING_TURN] {
                prop_assert_eq!(counters.get(kind), 0, "a combatant who is {:?} holds {:?}", status, kind);
            }
        }
    }
    Ok(())
}

/// Picks a random legal intent, favouring attacks so that battles end.
fn pick(rng: &mut ChaCha8Rng, legal: &[FiendWakeIntent]) -> FiendWakeIntent {
    let attacks: Vec<&FiendWakeIntent> = legal
        .iter()
        .filter(|i| {
            matches!(
                i,
                FiendWakeIntent::MeleeAttack { .. }
                    | FiendWakeIntent::RangedAttack { .. }
                    | FiendWakeIntent::Harass { .. }
            )
        })
        .collect();
    if !attacks.is_empty() && rng.random_bool(0.6) {
        return attacks[rng.random_range(0..attacks.len())].clone();
    }
    legal[rng.random_range(0..legal.len())].clone()
}

fn random_battle(scenario: &str, seed: u64) -> Result<(), TestCaseError> {
    let mut t = Table::from_text(scenario, seed, false, MAX_ROUNDS);
    // Every combatant is driven by this test.
    {
        let world = t.world_mut();
        let people: Vec<_> = world
            .query::<(bevy_ecs::entity::Entity, &fray_core::prelude::Combatant)>()
            .iter(world)
            .map(|(e, _)| e)
            .collect();
        for e in people {
            world.entity_mut(e).insert(fray_core::prelude::Controller::Gm);
        }
    }
    t.update();
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    for _ in 0..MAX_DECISIONS {
        invariants(&mut t)?;
        if t.phase() == FiendWakePhase::CombatOver {
            let round = t.world().resource::<Round>().number;
            prop_assert!(round <= MAX_ROUNDS, "ended after round {round}");
            return Ok(());
        }
        let waiting = awaiting(t.world());
        prop_assert!(!waiting.is_empty(), "the table waits on nobody in {:?}", t.phase());
        let who = waiting[rng.random_range(0..waiting.len())];
        prop_assert!(
            t.world().get::<Status>(who).is_some_and(|s| s.can_act()),
            "the rules wait on someone who cannot act"
        );
        let legal = legal_intents(t.world(), who);
        prop_assert!(
            !legal.is_empty(),
            "{} is awaited in {:?} but has no legal intent",
            t.id(who),
            t.phase()
        );
        let intent = pick(&mut rng, &legal);
        let id = t.id(who);
        if let Err(reason) = t.submit(&id, intent.clone()) {
            return Err(TestCaseError::fail(format!("a legal {intent:?} by {id} was refused: {reason}")));
        }
    }
    Err(TestCaseError::fail(format!("no end after {MAX_DECISIONS} decisions")))
}

fn ai_battle(scenario: &str, seed: u64) -> Result<(), TestCaseError> {
    let mut t = Table::from_text(scenario, seed, true, MAX_ROUNDS);
    t.update();
    invariants(&mut t)?;
    prop_assert_eq!(t.phase(), FiendWakePhase::CombatOver, "an all-AI battle ends in one update");
    let refused: Vec<String> = t
        .world()
        .resource::<fray_core::intent::Outcomes>()
        .0
        .iter()
        .filter_map(|o| o.result.as_ref().err().map(|r| format!("{} {:?}: {r}", o.actor, o.intent)))
        .collect();
    prop_assert!(refused.is_empty(), "the AI only submits legal intents: {refused:?}");
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn random_legal_battles_keep_the_table_consistent_and_end(seed in any::<u64>(), which in 0..2usize) {
        random_battle(SCENARIOS[which], seed)?;
    }

    #[test]
    fn ai_battles_are_legal_and_end(seed in any::<u64>(), which in 0..2usize) {
        ai_battle(SCENARIOS[which], seed)?;
    }
}

/// After a combatant stops fighting, the log shows no accepted intent of theirs.
fn nobody_out_of_the_fight_acts(t: &Table) -> Result<(), TestCaseError> {
    let mut out: std::collections::BTreeSet<String> = std::collections::BTreeSet::new();
    for entry in t.log() {
        let who = entry.actor.as_ref().map(|a| a.to_string()).unwrap_or_default();
        match &entry.event {
            fray_core::log::LogEvent::StatusChanged { status } if !status.can_act() => {
                out.insert(who);
            }
            fray_core::log::LogEvent::StatusChanged { .. } => {
                // Revived by a medic.
                out.remove(&who);
            }
            fray_core::log::LogEvent::IntentAccepted { intent, .. } => {
                prop_assert!(!out.contains(&who), "{who} acted after leaving the fight: {intent:?}");
            }
            _ => {}
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn out_of_the_fight_means_no_more_actions(seed in any::<u64>(), which in 0..2usize) {
        let mut t = Table::from_text(SCENARIOS[which], seed, true, MAX_ROUNDS);
        t.update();
        nobody_out_of_the_fight_acts(&t)?;
    }

    /// Any edit of a scenario file gives a scenario or an error, never a panic.
    #[test]
    fn a_mangled_scenario_never_panics_the_loader(
        which in 0..2usize,
        edits in proptest::collection::vec((any::<usize>(), 0..4u8, any::<char>()), 1..6),
    ) {
        let text = fray_core::scenario::mangle(SCENARIOS[which], &edits);
        if let Err(e) = crate::parse_scenario(&text) {
            prop_assert!(!e.report("x.ron").is_empty(), "an error explains itself");
        }
    }
}
