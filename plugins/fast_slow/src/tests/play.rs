//! Whole fights: the AI to the end on every bundled scenario, the secret choice, surprise and
//! the forced reveal, traps, hazards and reinforcements, a person's moves, a golden log,
//! random legal play, and the schedule.

use bevy_app::App;
use fray_core::intent::Inbox;
use fray_core::phase::current;
use fray_core::prelude::{Counters, Status, TableIndex};
use fray_core::ruleset::{BoardView, FightResult, Ruleset};
use proptest::prelude::*;

use super::{AMBUSH, CROSSING, VAULT, log_values, table, who};
use crate::combat::FOG;
use crate::phase::{Battle, Fighter, Speed};
use crate::{FastSlow, FastSlowIntent, FastSlowPhase};

fn kinds(app: &App, kind: &str) -> Vec<serde_json::Value> {
    log_values(app).into_iter().filter(|l| l["kind"] == kind).collect()
}

#[test]
fn the_ai_plays_every_bundled_scenario_to_its_end() {
    for (name, text) in [("crossing", CROSSING), ("ambush", AMBUSH), ("vault", VAULT)] {
        for seed in 0..30 {
            let mut app = table(text, seed, true);
            app.update();
            assert_eq!(current::<FastSlowPhase>(app.world()), FastSlowPhase::Over, "{name} seed {seed} ends");
            let result = app.world().resource::<FightResult>();
            assert!(result.clock <= 30, "{name} seed {seed}: {result:?}");
            let ended = kinds(&app, "battle_ended");
            assert_eq!(ended.len(), 1, "{name} seed {seed}: one end");
            assert!(kinds(&app, "effect").iter().any(|l| l["what"] == "experience"), "XP shown at the end");
        }
    }
}

#[test]
fn commitments_stay_sealed_in_the_log_until_all_are_made_then_are_revealed_together() {
    let mut app = table(CROSSING, 2, false);
    app.update();
    let phase = current::<FastSlowPhase>(app.world());
    if phase == FastSlowPhase::Opening {
        // The free movers are people: end their free movement.
        for e in FastSlow::awaiting(app.world()) {
            let id = fray_core::table::id(app.world(), e);
            app.world_mut().resource_mut::<Inbox<FastSlowIntent>>().submit(id, FastSlowIntent::EndTurn);
        }
        app.update();
    }
    assert_eq!(current::<FastSlowPhase>(app.world()), FastSlowPhase::RoundStart);
    let brann = who(&app, "brann");
    assert_eq!(FastSlow::awaiting(app.world()), [brann], "the AI has committed; Brann, a person's, has not");
    let secret = FastSlow::secret(app.world()).expect("a secret choice");
    assert_eq!(secret.sealed.len(), 5, "five sealed choices: {secret:?}");
    assert!(FastSlow::order(app.world()).is_none(), "no order before the reveal");
    let gorm = who(&app, "gorm");
    let speed_shown = |app: &App| {
        FastSlow::token(app.world(), gorm)
            .notes
            .iter()
            .any(|n| n.starts_with("Fast") || n.starts_with("Slow"))
    };
    assert!(!speed_shown(&app), "a token never shows a sealed choice");
    let accepted = kinds(&app, "intent_accepted");
    assert!(accepted.iter().all(|l| l["intent"] == "Commit"), "sealed in the log: {accepted:?}");
    assert!(kinds(&app, "revealed").is_empty());
    app.world_mut()
        .resource_mut::<Inbox<FastSlowIntent>>()
        .submit("brann".into(), FastSlowIntent::Commit { speed: Speed::Slow });
    app.update();
    let revealed = kinds(&app, "revealed");
    assert_eq!(revealed.len(), 1, "one reveal");
    assert_eq!(revealed[0]["choices"].as_array().map(Vec::len), Some(6), "all six at once");
    assert!(FastSlow::order(app.world()).is_some(), "the order is public now");
    assert!(speed_shown(&app), "once revealed, the token shows it");
}

#[test]
fn a_surprised_party_rolls_no_leadership_goes_last_and_accrues_no_fog_in_round_one() {
    let mut app = table(AMBUSH, 1, false);
    app.update();
    assert!(kinds(&app, "roll").iter().all(|l| l["what"] != "leadership"), "no leadership roll");
    assert_eq!(
        app.world().resource::<Battle>().side_order,
        [fray_core::ids::SideId::from("goblins"), fray_core::ids::SideId::from("party")]
    );
    // Predator Instinct: the goblins' choices are revealed before the party commits.
    let revealed = kinds(&app, "revealed");
    assert_eq!(revealed.len(), 1, "the GM's side revealed first: {revealed:?}");
    assert!(
        revealed[0]["choices"]
            .as_array()
            .expect("choices")
            .iter()
            .all(|c| c["actor"].as_str().is_some_and(|a| a.starts_with("gob")))
    );
    for id in ["vask", "lene"] {
        app.world_mut()
            .resource_mut::<Inbox<FastSlowIntent>>()
            .submit(id.into(), FastSlowIntent::Commit { speed: Speed::Slow });
    }
    app.update();
    // Play on until Vask's Slow turn in round one.
    let vask = who(&app, "vask");
    for _ in 0..20 {
        if app.world().resource::<Battle>().turn == Some(vask) {
            break;
        }
        for e in FastSlow::awaiting(app.world()) {
            let intent = crate::ai::simple::choose(app.world(), e);
            let id = fray_core::table::id(app.world(), e);
            app.world_mut().resource_mut::<Inbox<FastSlowIntent>>().submit(id, intent);
        }
        app.update();
    }
    assert_eq!(app.world().resource::<Battle>().turn, Some(vask), "Vask's turn came");
    let verdict =
        FastSlow::validate(app.world(), vask, &FastSlowIntent::Bold { ability: 0, target: "gob_1".into() });
    assert_eq!(verdict.expect_err("refused").0, "a surprised side accrues no FOG in the first round");
}

#[test]
fn a_move_past_the_turns_pace_budget_is_refused_with_its_reason_and_changes_nothing() {
    let mut app = table(CROSSING, 6, false);
    // Everyone the AI's but Brann; play until Brann's turn.
    let brann = who(&app, "brann");
    for _ in 0..30 {
        app.update();
        if app.world().resource::<Battle>().turn == Some(brann) {
            break;
        }
        for e in FastSlow::awaiting(app.world()) {
            let intent = if app.world().resource::<Battle>().committing {
                FastSlowIntent::Commit { speed: Speed::Slow }
            } else if e == brann && current::<FastSlowPhase>(app.world()) == FastSlowPhase::Opening {
                FastSlowIntent::EndTurn
            } else {
                crate::ai::simple::choose(app.world(), e)
            };
            let id = fray_core::table::id(app.world(), e);
            app.world_mut().resource_mut::<Inbox<FastSlowIntent>>().submit(id, intent);
        }
    }
    assert_eq!(app.world().resource::<Battle>().turn, Some(brann), "Brann's Slow turn");
    let at = crate::turns::position(app.world(), brann);
    let far = FastSlowIntent::Move { to: (at[0] + 12.5, at[1]) };
    let refused = FastSlow::validate(app.world(), brann, &far).expect_err("refused").0;
    assert!(refused.contains("beyond this turn's movement: 12.0 at most"), "{refused}");
    // 6 Paces: 4 base and a move action (the rest of it lost).
    let stay = FastSlowIntent::Move { to: (at[0], at[1]) };
    let refused = FastSlow::validate(app.world(), brann, &stay).expect_err("refused").0;
    assert_eq!(refused, "Brann is already there");
    let six = FastSlowIntent::Move { to: (at[0] + 6.0, at[1]) };
    assert!(FastSlow::validate(app.world(), brann, &six).is_ok());
    app.world_mut().resource_mut::<Inbox<FastSlowIntent>>().submit("brann".into(), six);
    app.update();
    let f = app.world().get::<Fighter>(brann).expect("fighter");
    assert_eq!((f.paces, f.actions), (0.0, 1), "base spent, one move action spent");
}

#[test]
fn a_combatant_placed_off_the_field_is_refused_by_name() {
    let text = CROSSING.replace("position: (9.5, -3.0)", "position: (-542.5, 300.0)");
    let problems = match crate::load::parse_scenario(&text) {
        Err(fray_core::scenario::ScenarioError::Invalid(problems)) => problems,
        other => panic!("refused as invalid: {:?}", other.map(|_| ())),
    };
    assert_eq!(
        problems,
        vec![
            "combatant 'bandit_b': position (-542.5, 300) is off the field (24 by 14 Paces, centred on (0, 0))"
        ]
    );
}

#[test]
fn the_vault_springs_traps_raises_the_water_and_brings_reinforcements() {
    let mut seen = (false, false, false);
    for seed in 0..20 {
        let mut app = table(VAULT, seed, true);
        app.update();
        let effects = kinds(&app, "effect");
        seen.0 |= effects.iter().any(|l| l["what"] == "trap_sprung");
        seen.1 |= kinds(&app, "damage").iter().any(|l| l["source"]["name"] == "Rising water");
        seen.2 |= effects.iter().any(|l| l["what"] == "arrived");
    }
    assert_eq!(seen, (true, true, true), "traps, water and reinforcements each happen in 20 fights");
}

/// Checks the table's invariants after a step.
fn consistent(app: &App, context: &str) {
    let world = app.world();
    for &e in &world.resource::<TableIndex>().order {
        let f = world.get::<Fighter>(e).expect("fighter");
        assert!(f.stamina <= f.sheet.stamina, "{context}: stamina within its maximum");
        for limb in crate::data::Limb::ALL {
            assert!(f.health.get(limb) <= f.sheet.health.get(limb), "{context}: pools within their maximum");
        }
        let status = world.get::<Status>(e).copied();
        if f.health.head == 0 {
            assert_eq!(status, Some(Status::Dead), "{context}: a head at zero is dead");
        }
        if status != Some(Status::Fighting) {
            assert!(!FastSlow::awaiting(world).contains(&e), "{context}: the fallen are never asked");
        }
        assert!(world.get::<Counters>(e).is_some_and(|c| c.get(FOG) <= 1000));
    }
}

fn random_fight(text: &str, seed: u64, picks: &[u16]) {
    let mut app = table(text, seed, false);
    app.update();
    let mut i = 0;
    for step in 0..3000 {
        if current::<FastSlowPhase>(app.world()) == FastSlowPhase::Over {
            return;
        }
        let waiting = FastSlow::awaiting(app.world());
        assert!(!waiting.is_empty(), "seed {seed} step {step}: the rules wait on someone until the end");
        for e in waiting {
            let ok: Vec<FastSlowIntent> = FastSlow::choices(app.world(), e)
                .into_iter()
                .filter(|c| c.verdict.is_ok())
                .map(|c| c.intent)
                .collect();
            assert!(!ok.is_empty(), "seed {seed} step {step}: someone asked has a choice");
            // Mostly the AI's choice, sometimes a random legal one (never end a turn at random
            // too often: fights must end).
            let pick = picks[i % picks.len()];
            i += 1;
            let intent = if pick.is_multiple_of(3) {
                ok[pick as usize % ok.len()].clone()
            } else {
                crate::ai::simple::choose(app.world(), e)
            };
            let id = fray_core::table::id(app.world(), e);
            app.world_mut().resource_mut::<Inbox<FastSlowIntent>>().submit(id, intent);
        }
        app.update();
        consistent(&app, &format!("seed {seed} step {step}"));
    }
    panic!("seed {seed}: the fight did not end in 3000 steps");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn random_legal_play_keeps_the_table_consistent_and_every_fight_ends(
        seed in 0u64..1_000_000,
        scenario in 0usize..3,
        picks in proptest::collection::vec(any::<u16>(), 1..64),
    ) {
        random_fight([CROSSING, AMBUSH, VAULT][scenario], seed, &picks);
    }
}

#[test]
fn a_thousand_ai_fights_end_with_the_table_consistent() {
    for seed in 0..1000 {
        let text = [CROSSING, AMBUSH, VAULT][seed as usize % 3];
        let mut app = table(text, seed, true);
        app.update();
        assert_eq!(current::<FastSlowPhase>(app.world()), FastSlowPhase::Over, "seed {seed}");
        consistent(&app, &format!("seed {seed}"));
    }
}

#[test]
fn a_sustained_spell_costs_fog_and_strikes_again_in_the_upkeep_until_it_runs_out() {
    let mut seen = (false, false, false);
    for seed in 0..30 {
        let mut app = table(CROSSING, seed, true);
        app.update();
        let log = log_values(&app);
        seen.0 |= log.iter().any(|l| l["kind"] == "effect" && l["what"] == "sustained");
        seen.1 |= log.iter().any(|l| {
            l["phase"] == "upkeep"
                && l["kind"] == "tokens"
                && l["reason"] == "sustain"
                && l["actor"] == "ysolde"
        });
        seen.2 |= log.iter().any(|l| l["kind"] == "effect" && l["what"] == "sustain_ran_out");
    }
    assert_eq!(
        seen,
        (true, true, true),
        "Ysolde's ember dart is sustained, paid for, and runs out in 30 fights"
    );
}

/// The crossing by hand, its bandits all dead but Gorm, on the brink, whom `doom` sets up;
/// everyone committed Slow in round 1, the table moved to `phase`.
fn last_bandit(seed: u64, phase: FastSlowPhase, doom: impl Fn(&mut Fighter)) -> App {
    let mut app = table(CROSSING, seed, false);
    let order = app.world().resource::<TableIndex>().order.clone();
    let gorm = who(&app, "gorm");
    for e in order {
        app.world_mut().entity_mut(e).insert(fray_core::prelude::Controller::Gm);
        let bandit = app.world().get::<fray_core::prelude::Side>(e).is_some_and(|s| s.0 == "bandits");
        if bandit && e != gorm {
            fray_core::table::set_status(app.world_mut(), e, Status::Dead);
        }
        let mut f = app.world_mut().get_mut::<Fighter>(e).expect("fighter");
        f.speed = Some(Speed::Slow);
        f.joins = None;
    }
    doom(&mut app.world_mut().get_mut::<Fighter>(gorm).expect("fighter"));
    app.world_mut().resource_mut::<Battle>().round = 1;
    fray_core::phase::go_to(app.world_mut(), phase);
    app
}

#[test]
fn the_last_foe_falling_in_the_upkeep_ends_the_fight_before_any_slow_turn() {
    // Poison bites Gorm, on his last point everywhere: where the d6 puts it decides if he falls.
    let mut fell = 0;
    for seed in 0..40 {
        let mut app = last_bandit(seed, FastSlowPhase::Upkeep, |f| {
            f.stamina = 0;
            f.poisoned = 1;
            for limb in crate::data::Limb::ALL {
                *f.health.get_mut(limb) = 1;
            }
        });
        let before = log_values(&app).len();
        app.update();
        let after = &log_values(&app)[before..];
        let gorm = who(&app, "gorm");
        if fray_core::table::can_act(app.world(), gorm) {
            continue;
        }
        fell += 1;
        assert_eq!(current::<FastSlowPhase>(app.world()), FastSlowPhase::Over, "seed {seed}: over");
        let last = after.last().expect("lines");
        assert_eq!(last["kind"], "battle_ended", "seed {seed}: the end is the last line");
        assert_eq!(last["winner"], "party");
        for l in after {
            let kind = l["kind"].as_str().unwrap_or("");
            let going_on = ["turn_started", "round_started", "intent_accepted", "moved"].contains(&kind)
                || kind == "phase_started" && l["phase"] != "over"
                || l["phase"] == "slow_turns"
                || l["phase"] == "end_of_round";
            assert!(!going_on, "seed {seed}: nothing happens once the bandits are gone: {l}");
        }
    }
    assert!(fell > 0, "Gorm falls to the poison in some of 40 seeds");
}

#[test]
fn the_round_limit_ends_the_fight_with_no_winner() {
    // Gorm's torso is at zero, unhealed: he dies as the fight ends, leaving the party alone.
    let mut app = last_bandit(1, FastSlowPhase::RoundStart, |f| f.torso_down = true);
    app.world_mut().resource_mut::<Battle>().limit = 1;
    app.update();
    let result = app.world().resource::<FightResult>();
    assert_eq!(result.winner, None, "the limit: no winner ({})", result.reason);
    assert!(result.reason.starts_with("the round limit"), "{}", result.reason);
    assert_eq!(app.world().get::<Status>(who(&app, "gorm")), Some(&Status::Dead), "unhealed, he dies");
}

// The golden log, determinism, a reused table, a recorded fight replayed, the schedule.
fray_core::ruleset_tests!(crate::ruleset::FastSlow, CROSSING, seed 7, limit 30, golden "tests/golden/crossing_seed7.jsonl");
