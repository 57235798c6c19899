//! Whole fights: the AI to the end on both bundled scenarios, the surprise turn, events on
//! the ladder (and how the screens tell their rolls), a golden log, random legal play keeping the table consistent, the schedule.

use bevy_app::App;
use fray_core::intent::Inbox;
use fray_core::phase::current;
use fray_core::prelude::{Status, TableIndex};
use fray_core::ruleset::{FightResult, Ruleset};
use proptest::prelude::*;

use super::{FORD, TAVERN, log_values, table};
use crate::intent::MoveKind;
use crate::phase::{Battle, Fighter};
use crate::{ApLadder, ApLadderIntent, ApLadderPhase};

#[test]
fn the_ai_plays_both_scenarios_to_their_end() {
    for (name, text) in [("ford", FORD), ("tavern", TAVERN)] {
        let mut decided = 0;
        for seed in 0..40 {
            let mut app = table(text, seed, true);
            app.update();
            assert_eq!(current::<ApLadderPhase>(app.world()), ApLadderPhase::Over, "{name} seed {seed} ends");
            let result = app.world().resource::<FightResult>();
            decided += usize::from(result.winner.is_some());
            let log = log_values(&app);
            assert_eq!(
                log.iter().filter(|l| l["kind"] == "battle_ended").count(),
                1,
                "{name} seed {seed}: one end"
            );
        }
        assert!(decided >= 30, "{name}: most fights are won by someone ({decided} of 40)");
    }
}

#[test]
fn the_ford_opens_with_the_brigands_surprise_turn_and_the_river_surges_on_its_rung() {
    let mut app = table(FORD, 3, true);
    app.update();
    let log = log_values(&app);
    let surprise: Vec<_> =
        log.iter().filter(|l| l["phase"] == "surprise_turn" && l["kind"] == "turn_started").collect();
    assert!(!surprise.is_empty(), "a surprise turn");
    assert!(
        surprise.iter().all(|l| l["actor"].as_str().is_some_and(|a| a.starts_with("brig"))),
        "only brigands act in it"
    );
    assert!(log.iter().any(|l| l["kind"] == "effect" && l["what"] == "event"), "the surge comes on its rung");
    let reacted_surprised =
        log.iter().any(|l| l["phase"] == "surprise_turn" && l["kind"] == "effect" && l["what"] == "avoided");
    assert!(!reacted_surprised, "the surprised never react in the surprise turn");
    // The screens tell the surge's roll as what befalls whom, an attack as who attacks whom.
    let entries = app.world().resource::<fray_core::log::GameLog>().entries();
    let rolls: Vec<&fray_core::dice::RollRecord> = entries
        .iter()
        .filter_map(|e| match &e.event {
            fray_core::log::LogEvent::Roll(r) => Some(r),
            _ => None,
        })
        .collect();
    let surge = rolls.iter().find(|r| r.what == "The river surges").expect("the surge strikes someone");
    let told = surge.told.as_deref().unwrap_or_default();
    assert!(told.starts_with("The river surges: ") && told.ends_with(" is caught"), "{told}");
    let attack = rolls.iter().find(|r| r.what.starts_with("attack on ")).expect("an attack");
    let told = attack.told.as_deref().unwrap_or_default();
    assert!(told.contains(" attacks ") && told.ends_with(&attack.what["attack on ".len()..]), "{told}");
}

/// Checks the table's invariants after a step.
fn consistent(app: &App, context: &str) {
    let world = app.world();
    let battle = world.resource::<Battle>();
    for &e in &world.resource::<TableIndex>().order {
        let f = world.get::<Fighter>(e).expect("fighter");
        assert!(f.ap <= 3, "{context}: never more than 3 AP");
        assert!(f.damage <= 5 && f.peril <= 5, "{context}: tracks within their ends");
        if let Some(m) = world.get::<fray_core::prelude::Rides>(e).map(|r| r.0) {
            let steed = world.get::<crate::mounts::Steed>(m);
            assert!(steed.is_some_and(|s| s.damage < 5), "{context}: a rider's mount stands, not slain");
        }
        let status = world.get::<Status>(e).copied();
        if status == Some(Status::Dead) {
            assert!(battle.acting != Some(e), "{context}: the slain never act");
            assert!(!ApLadder::awaiting(world).contains(&e), "{context}: the slain are never asked");
        }
    }
}

/// A move of a kind drawn from every kind (run, maneuver, step aside, cover and sneak too,
/// which the choices do not offer: they are drags) to a spot near `e`, if the rules allow it.
fn random_move(
    world: &bevy_ecs::world::World,
    e: bevy_ecs::entity::Entity,
    pick: u16,
) -> Option<ApLadderIntent> {
    let how = MoveKind::ALL[usize::from(pick / 3) % MoveKind::ALL.len()];
    let at = crate::field::position(world, e);
    let angle = f32::from(pick / 21) * 0.9;
    let yards = match how {
        MoveKind::Maneuver | MoveKind::StepAside | MoveKind::TakeCover | MoveKind::Sneak => 0.9,
        _ => 1.0 + f32::from(pick / 7 % 12),
    };
    let intent = ApLadderIntent::Move { to: (at[0] + yards * angle.cos(), at[1] + yards * angle.sin()), how };
    ApLadder::validate(world, e, &intent).is_ok().then_some(intent)
}

/// A fight played by `picks`, checked after every step; the kinds of the drawn moves sent.
fn random_fight(text: &str, seed: u64, picks: &[u16]) -> Vec<MoveKind> {
    let mut moved = Vec::new();
    let mut app = table(text, seed, false);
    app.update();
    let mut i = 0;
    for step in 0..4000 {
        if current::<ApLadderPhase>(app.world()) == ApLadderPhase::Over {
            return moved;
        }
        let waiting = ApLadder::awaiting(app.world());
        assert!(!waiting.is_empty(), "seed {seed} step {step}: the rules wait on someone until the end");
        for e in waiting {
            let ok: Vec<ApLadderIntent> = ApLadder::choices(app.world(), e)
                .into_iter()
                .filter(|c| c.verdict.is_ok())
                .map(|c| c.intent)
                .collect();
            assert!(!ok.is_empty(), "seed {seed} step {step}: someone asked has a choice");
            let pick = picks[i % picks.len()];
            i += 1;
            // A third of the picks among the choices offered, a third a move of any kind to a
            // spot nearby (where the rules allow it), the rest the AI's.
            let intent = match pick % 3 {
                0 => ok[pick as usize % ok.len()].clone(),
                1 => match random_move(app.world(), e, pick) {
                    Some(intent @ ApLadderIntent::Move { how, .. }) => {
                        moved.push(how);
                        intent
                    }
                    _ => crate::ai::simple::choose(app.world(), e),
                },
                _ => crate::ai::simple::choose(app.world(), e),
            };
            let id = fray_core::table::id(app.world(), e);
            app.world_mut().resource_mut::<Inbox<ApLadderIntent>>().submit(id, intent);
        }
        app.update();
        consistent(&app, &format!("seed {seed} step {step}"));
    }
    panic!("seed {seed}: the fight did not end in 4000 steps");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn random_legal_play_keeps_the_table_consistent_and_every_fight_ends(
        seed in 0u64..1_000_000,
        scenario in 0usize..2,
        picks in proptest::collection::vec(any::<u16>(), 1..64),
    ) {
        random_fight([FORD, TAVERN][scenario], seed, &picks);
    }
}

#[test]
fn random_play_moves_by_every_kind_a_drag_can_make() {
    let mut kinds: Vec<MoveKind> = Vec::new();
    // Fights until every kind has been drawn (taking cover needs a fighter beside cover).
    for seed in 0..200u64 {
        if MoveKind::ALL.iter().all(|how| kinds.contains(how)) {
            break;
        }
        let picks: Vec<u16> = (0..64u16).map(|i| i.wrapping_mul(37).wrapping_add(seed as u16 * 11)).collect();
        kinds.extend(random_fight([FORD, TAVERN][seed as usize % 2], seed, &picks));
    }
    for how in MoveKind::ALL {
        assert!(kinds.contains(&how), "random play never moved by {how:?}: {kinds:?}");
    }
}

#[test]
fn two_thousand_ai_fights_end_with_the_table_consistent() {
    for seed in 0..2000 {
        let text = [FORD, TAVERN][seed as usize % 2];
        let mut app = table(text, seed, true);
        app.update();
        assert_eq!(current::<ApLadderPhase>(app.world()), ApLadderPhase::Over, "seed {seed}");
        consistent(&app, &format!("seed {seed}"));
    }
}

// The golden log, determinism, a reused table, a recorded fight replayed, the schedule.
fray_core::ruleset_tests!(crate::ruleset::ApLadder, FORD, seed 2, limit 20, golden "tests/golden/ford_seed2.jsonl");
