//! Random battles: every decision a random legal intent, with the table's invariants
//! checked after every step; and all-AI battles on many seeds. Both must end.

use fray_core::prelude::Status;
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::support::Table;
use crate::decisions::awaiting;
use crate::legal::legal_intents;
use crate::{Action, FateWalkerIntent, FateWalkerPhase};

/// Every random battle ends within this many ticks (the table's limit)...
const MAX_TICKS: u32 = 240;
/// ...and this many decisions.
const MAX_DECISIONS: u32 = 6_000;

/// Checks what must hold between any two steps of any battle.
fn invariants(t: &Table) -> Result<(), TestCaseError> {
    let now = t.tick();
    prop_assert!(now <= MAX_TICKS, "the clock passed the limit: {now}");
    for e in crate::view::combatants(t.world()) {
        let id = t.id(e);
        let status = t.status(&id);
        let clock = t.clock(&id);
        let chart = t.chart(&id);
        prop_assert!(chart.glancing <= chart.glancing_boxes, "{id}: temporary wounds overflow");
        prop_assert!(chart.mortal <= chart.mortal_boxes, "{id}: mortal wounds overflow");
        prop_assert_eq!(
            chart.dead(),
            status == Status::Dead,
            "{} is dead exactly when the mortal boxes are full",
            id
        );
        if status.can_act() && clock.joined && !clock.holding && t.phase() != FateWalkerPhase::FightOver {
            prop_assert!(
                clock.next >= now,
                "{id}'s next action tick {} is behind the clock {now}",
                clock.next
            );
        }
        if !status.can_act() {
            prop_assert!(!clock.holding, "{id} is {status:?} but holds");
            prop_assert!(!awaiting(t.world()).contains(&e), "the rules wait on {id}, who is {status:?}");
        }
    }
    Ok(())
}

/// Picks a random legal intent, favouring attacks so that battles end.
fn pick(rng: &mut ChaCha8Rng, legal: &[FateWalkerIntent]) -> FateWalkerIntent {
    let attacks: Vec<&FateWalkerIntent> = legal
        .iter()
        .filter(|i| {
            matches!(
                i,
                FateWalkerIntent::Act { action: Action::Attack { .. } }
                    | FateWalkerIntent::Preempt { action: Action::Attack { .. } }
            )
        })
        .collect();
    if !attacks.is_empty() && rng.random_bool(0.6) {
        return attacks[rng.random_range(0..attacks.len())].clone();
    }
    legal[rng.random_range(0..legal.len())].clone()
}

fn random_battle(seed: u64) -> Result<(), TestCaseError> {
    let mut t = Table::ambush(seed, false, MAX_TICKS);
    {
        let world = t.world_mut();
        let people: Vec<_> = crate::view::combatants(world);
        for e in people {
            world.entity_mut(e).insert(fray_core::prelude::Controller::Gm);
        }
    }
    t.update();
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    for _ in 0..MAX_DECISIONS {
        invariants(&t)?;
        if t.phase() == FateWalkerPhase::FightOver {
            return Ok(());
        }
        let waiting = awaiting(t.world());
        prop_assert!(!waiting.is_empty(), "the table waits on nobody in {:?}", t.phase());
        let who = waiting[rng.random_range(0..waiting.len())];
        let legal = legal_intents(t.world(), who);
        let id = t.id(who);
        prop_assert!(!legal.is_empty(), "{} is awaited in {:?} but has no legal intent", id, t.phase());
        let intent = pick(&mut rng, &legal);
        if let Err(reason) = t.submit(&id, intent.clone()) {
            return Err(TestCaseError::fail(format!("a legal {intent:?} by {id} was refused: {reason}")));
        }
    }
    Err(TestCaseError::fail(format!("no end after {MAX_DECISIONS} decisions")))
}

fn ai_battle(seed: u64) -> Result<(), TestCaseError> {
    let mut t = Table::ambush(seed, true, 600);
    t.update();
    invariants_at_end(&t)?;
    prop_assert_eq!(t.phase(), FateWalkerPhase::FightOver, "an all-AI battle ends in one update");
    let refused = t.refusals();
    prop_assert!(refused.is_empty(), "the AI only submits legal intents: {:?}", refused);
    Ok(())
}

fn invariants_at_end(t: &Table) -> Result<(), TestCaseError> {
    let result = t.world().get_resource::<fray_core::ruleset::FightResult>();
    prop_assert!(result.is_some(), "a finished fight records its result");
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_legal_battles_keep_the_table_consistent_and_end(seed in any::<u64>()) {
        random_battle(seed)?;
    }

    #[test]
    fn ai_battles_are_legal_and_end(seed in any::<u64>()) {
        ai_battle(seed)?;
    }

    /// Any edit of the scenario file gives a scenario or an error, never a panic.
    #[test]
    fn a_mangled_scenario_never_panics_the_loader(
        edits in proptest::collection::vec((any::<usize>(), 0..4u8, any::<char>()), 1..6),
    ) {
        let text = fray_core::scenario::mangle(super::support::AMBUSH, &edits);
        if let Err(e) = crate::parse_scenario(&text) {
            prop_assert!(!e.report("x.ron").is_empty(), "an error explains itself");
        }
    }
}
