//! The text's examples, alternation, morale, whole fights, a golden log, random play and the
//! schedule.

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::intent::Inbox;
use fray_core::log::GameLog;
use fray_core::phase::current;
use fray_core::prelude::{Controller, Status, TableIndex};
use fray_core::ruleset::{FightResult, Ruleset, table_app};
use proptest::prelude::*;

use crate::combat::check_attack;
use crate::dice::{FirstHit, after_armour, counter_first, incapacitated, save_passes};
use crate::morale::must_check;
use crate::phase::{Battle, Fighter};
use crate::{FactionZones, FactionZonesIntent, FactionZonesPhase};

const INN: &str = include_str!("../../../../assets/scenarios/faction_zones_inn.ron");
const MARKET: &str = include_str!("../../../../assets/scenarios/faction_zones_market.ron");

fn table(text: &str, seed: u64, all_ai: bool) -> App {
    table_app::<FactionZones>(text, seed, 40, all_ai)
        .unwrap_or_else(|e| panic!("{}", e.report("scenario").join("; ")))
}

fn who(app: &App, id: &str) -> Entity {
    app.world().resource::<TableIndex>().combatant(&id.into()).unwrap_or_else(|| panic!("no {id}"))
}

fn log(app: &App) -> Vec<serde_json::Value> {
    let mut out = Vec::new();
    app.world().resource::<GameLog>().write_jsonl(&mut out, None).expect("in memory");
    String::from_utf8(out).expect("UTF-8").lines().map(|l| serde_json::from_str(l).expect("JSON")).collect()
}

fn send(app: &mut App, id: &str, intent: FactionZonesIntent) {
    let e = who(app, id);
    let verdict = FactionZones::validate(app.world(), e, &intent);
    assert!(verdict.is_ok(), "{id}: {intent:?} refused: {verdict:?}");
    app.world_mut().resource_mut::<Inbox<FactionZonesIntent>>().submit(id.into(), intent);
    app.update();
}

/// Everyone a person's: the test decides every step.
fn by_hand(text: &str) -> App {
    let mut app = table(text, 1, false);
    let all: Vec<Entity> = app.world().resource::<TableIndex>().order.clone();
    for e in all {
        app.world_mut().entity_mut(e).insert(Controller::Human);
    }
    app.update();
    app
}

#[test]
fn the_texts_round_alternates_factions_and_ends_when_both_pass_in_a_row() {
    let mut app = by_hand(INN);
    // The bandits started the fight: their leader picks who acts first.
    assert_eq!(FactionZones::awaiting(app.world()), [who(&app, "leader")]);
    send(&mut app, "leader", FactionZonesIntent::PickFirst { faction: "bandits".into() });
    for (id, intent) in [
        ("leader", FactionZonesIntent::Activate),
        ("leader", FactionZonesIntent::EndTurn),
        ("sybilla", FactionZonesIntent::Activate),
        ("sybilla", FactionZonesIntent::EndTurn),
        ("bandit_a", FactionZonesIntent::Activate),
        ("bandit_a", FactionZonesIntent::EndTurn),
        ("balthasar", FactionZonesIntent::Pass),
        ("bandit_b", FactionZonesIntent::Activate),
        ("bandit_b", FactionZonesIntent::EndTurn),
        ("balthasar", FactionZonesIntent::Activate),
        ("balthasar", FactionZonesIntent::EndTurn),
        ("bandit_c", FactionZonesIntent::Activate),
        ("bandit_c", FactionZonesIntent::EndTurn),
        ("theobald", FactionZonesIntent::Activate),
    ] {
        send(&mut app, id, intent);
    }
    assert_eq!(app.world().resource::<Battle>().round, 1, "still the first round");
    send(&mut app, "theobald", FactionZonesIntent::EndTurn);
    // The bandits must pass (all have acted), then the players must pass: the round ends.
    let passes: Vec<String> = log(&app)
        .iter()
        .filter(|l| l["kind"] == "effect" && l["what"] == "passed")
        .map(|l| l["detail"].as_str().unwrap_or_default().to_owned())
        .collect();
    assert_eq!(passes, ["party", "bandits (no one left to act)", "party (no one left to act)"]);
    assert_eq!(app.world().resource::<Battle>().round, 2, "the next round");
    assert_eq!(current::<FactionZonesPhase>(app.world()), FactionZonesPhase::RoundStart);
}

#[test]
fn a_character_acts_once_a_round_and_a_refusal_says_why() {
    let mut app = by_hand(INN);
    send(&mut app, "leader", FactionZonesIntent::PickFirst { faction: "party".into() });
    send(&mut app, "sybilla", FactionZonesIntent::Activate);
    send(&mut app, "sybilla", FactionZonesIntent::EndTurn);
    let bandit = who(&app, "bandit_a");
    send(&mut app, "bandit_a", FactionZonesIntent::Activate);
    let sybilla = who(&app, "sybilla");
    assert!(!FactionZones::awaiting(app.world()).contains(&sybilla));
    let refused =
        FactionZones::validate(app.world(), sybilla, &FactionZonesIntent::Activate).expect_err("refused");
    assert_eq!(refused.0, "the rules are not waiting on Sybilla now");
    // Moving 3 zones at once is beyond full speed (2): the yard is 1, the loft 2 via the stairs.
    let far = FactionZones::validate(app.world(), bandit, &FactionZonesIntent::Move { zone: "loft".into() });
    assert!(far.is_ok(), "the loft is 2 zones from the taproom: {far:?}");
    send(&mut app, "bandit_a", FactionZonesIntent::Move { zone: "stairs".into() });
    // Balthasar lets him go (Sybilla, having acted, may not react).
    assert_eq!(FactionZones::awaiting(app.world()), [who(&app, "balthasar")]);
    send(&mut app, "balthasar", FactionZonesIntent::LetGo);
    send(&mut app, "bandit_a", FactionZonesIntent::Bonus);
    let more = FactionZones::validate(app.world(), bandit, &FactionZonesIntent::Move { zone: "loft".into() });
    assert!(more.is_err_and(|r| r.0.contains("may move 0 more this turn (half speed, having acted)")));
}

#[test]
fn the_texts_examples_saves_counters_darkness_and_range() {
    // The bandit (AGI 8) dodges on a 2.
    assert!(save_passes(2, 8));
    assert!(!save_passes(20, 10), "Theobald's WIT save in the dark misses on a 20");
    // Theobald (armour 2) against the leader's 5: 3; the leader takes Theobald's 4 first.
    assert_eq!(after_armour(5, 2, 3), 3);
    assert_eq!(counter_first(after_armour(4, 0, 3), after_armour(5, 2, 3)), FirstHit::Target);
    assert_eq!(counter_first(3, 3), FirstHit::Both);
    assert_eq!(after_armour(6, 5, 3), 3, "armour never above 3");
    // A bandit at 4 of 8 health is incapacitated; at 5 he is not.
    assert!(incapacitated(4, 8) && !incapacitated(5, 8));
    let mut app = by_hand(INN);
    let (sybilla, balthasar, archer, bandit) =
        (who(&app, "sybilla"), who(&app, "balthasar"), who(&app, "bandit_b"), who(&app, "bandit_a"));
    // The archer in the dark loft is not visible: no musket shot; a knife in the dark needs a WIT save.
    let shot = check_attack(app.world(), sybilla, archer, Some(0)).expect_err("refused");
    assert_eq!(shot.0, "Bandit archer is not visible: no ranged attack");
    let loft = app.world().resource::<TableIndex>().location(&"loft".into()).expect("loft");
    app.world_mut().entity_mut(sybilla).insert(fray_core::prelude::Occupies(loft));
    assert_eq!(
        check_attack(app.world(), sybilla, archer, Some(1)),
        Ok(true),
        "melee in the dark: a WIT save"
    );
    // The archer's bow (range 8) on Balthasar, 2 zones away: within half range, no save.
    assert_eq!(check_attack(app.world(), archer, balthasar, Some(0)), Ok(false));
    // A melee attack on someone in another zone is refused.
    let melee = check_attack(app.world(), balthasar, who(&app, "leader"), Some(0)).expect_err("refused");
    assert!(melee.0.contains("not nearby"), "{}", melee.0);
    assert_eq!(check_attack(app.world(), balthasar, bandit, Some(0)), Ok(false), "nearby, visible: it hits");
}

#[test]
fn a_ranged_shot_beyond_half_range_needs_a_wit_save_and_is_refused_after_moving() {
    let mut app = by_hand(MARKET);
    let (crossbow, boss) = (who(&app, "crossbow"), who(&app, "boss"));
    // The crossbow (range 6) from the square to the quay: 2 zones, within half range.
    assert_eq!(check_attack(app.world(), crossbow, boss, Some(0)), Ok(false));
    // After moving: a WIT save even within half range.
    app.world_mut().get_mut::<Fighter>(crossbow).expect("fighter").moved = 1;
    assert_eq!(check_attack(app.world(), crossbow, boss, Some(0)), Ok(true));
    // The pistol (range 4) from the quay to the square: 2 zones, not beyond half range (2*2 = 4).
    assert_eq!(check_attack(app.world(), boss, crossbow, Some(1)), Ok(false));
    let warehouse = app.world().resource::<TableIndex>().location(&"warehouse".into()).expect("warehouse");
    app.world_mut().entity_mut(boss).insert(fray_core::prelude::Occupies(warehouse));
    assert_eq!(check_attack(app.world(), boss, crossbow, Some(1)), Ok(true), "3 zones: beyond half range");
    app.world_mut().get_mut::<Fighter>(boss).expect("fighter").moved = 1;
    let refused = check_attack(app.world(), boss, crossbow, Some(1)).expect_err("refused");
    assert!(refused.0.contains("beyond half range"), "{}", refused.0);
}

#[test]
fn morale_is_checked_when_a_faction_falls_to_half_this_round_or_one_alone_to_half_health() {
    assert!(must_check(4, 3, 2, None), "4 reduced to 2 this round");
    assert!(!must_check(4, 2, 1, None), "already at half before this round");
    assert!(!must_check(4, 4, 3, None), "3 of 4 stand");
    assert!(must_check(1, 1, 1, Some((8, 4, 8))), "alone, reduced to half health");
    assert!(!must_check(1, 1, 1, Some((4, 3, 8))), "alone, already at half");
}

#[test]
fn the_ai_plays_both_scenarios_to_their_end() {
    for (name, text) in [("inn", INN), ("market", MARKET), ("wyrm", WYRM)] {
        for seed in 0..40 {
            let mut app = table(text, seed, true);
            app.update();
            assert_eq!(
                current::<FactionZonesPhase>(app.world()),
                FactionZonesPhase::Over,
                "{name} seed {seed}"
            );
            let result = app.world().resource::<FightResult>();
            assert!(result.clock <= 40, "{name} seed {seed}: {result:?}");
        }
    }
}

#[test]
fn the_inn_with_seed_4_replays_its_golden_log_byte_for_byte() {
    let golden = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/inn_seed4.jsonl");
    let mut app = table(INN, 4, true);
    app.update();
    let mut out = Vec::new();
    app.world().resource::<GameLog>().write_jsonl(&mut out, None).expect("in memory");
    let text = String::from_utf8(out).expect("UTF-8");
    let same = fray_core::log::matches_golden(&golden, &text).unwrap_or_else(|e| panic!("{e}"));
    assert!(same, "the inn's log for seed 4 differs from the golden file");
}

/// Plays a fight with random legal choices mixed with the AI's; checks the invariants.
fn random_fight(text: &str, seed: u64, picks: &[u16]) {
    let mut app = table(text, seed, false);
    let all: Vec<Entity> = app.world().resource::<TableIndex>().order.clone();
    for &e in &all {
        app.world_mut().entity_mut(e).insert(Controller::Human);
    }
    app.update();
    let mut i = 0;
    for step in 0..5000 {
        if current::<FactionZonesPhase>(app.world()) == FactionZonesPhase::Over {
            check_log(&app, seed);
            return;
        }
        let waiting = FactionZones::awaiting(app.world());
        assert!(!waiting.is_empty(), "seed {seed} step {step}: someone is asked until the end");
        let e = waiting[picks[i % picks.len()] as usize % waiting.len()];
        let ok: Vec<FactionZonesIntent> = FactionZones::choices(app.world(), e)
            .into_iter()
            .filter(|c| c.verdict.is_ok())
            .map(|c| c.intent)
            .collect();
        assert!(!ok.is_empty(), "seed {seed} step {step}: the one asked has a choice");
        let pick = picks[(i + 1) % picks.len()];
        i += 2;
        let intent = if pick.is_multiple_of(3) {
            ok[pick as usize % ok.len()].clone()
        } else {
            crate::ai::choose(app.world(), e)
        };
        assert!(
            FactionZones::validate(app.world(), e, &intent).is_ok(),
            "seed {seed} step {step}: {intent:?} is legal"
        );
        let id = fray_core::table::id(app.world(), e);
        app.world_mut().resource_mut::<Inbox<FactionZonesIntent>>().submit(id, intent);
        app.update();
        for &c in &all {
            let f = app.world().get::<Fighter>(c).expect("fighter");
            assert!(f.health <= f.sheet.health, "seed {seed}: health within its maximum");
            if f.health == 0 {
                assert_eq!(app.world().get::<Status>(c), Some(&Status::Dead), "seed {seed}: no health, dead");
            }
        }
    }
    panic!("seed {seed}: the fight did not end in 5000 steps");
}

/// From the log: a character takes at most one turn a round, and a round ends only after
/// every faction in the fight passed in a row.
fn check_log(app: &App, seed: u64) {
    let mut turns: Vec<(u64, String)> = Vec::new();
    let mut passes_in_a_row = 0;
    for l in log(app) {
        match l["kind"].as_str() {
            Some("turn_started") => {
                let key =
                    (l["clock"].as_u64().unwrap_or(0), l["actor"].as_str().unwrap_or_default().to_owned());
                assert!(!turns.contains(&key), "seed {seed}: {key:?} took two turns in a round");
                turns.push(key);
                passes_in_a_row = 0;
            }
            Some("effect") if l["what"] == "passed" => passes_in_a_row += 1,
            Some("phase_started") if l["phase"] == "end_of_round" => {
                assert!(passes_in_a_row >= 2, "seed {seed}: a round ended after {passes_in_a_row} passes");
                passes_in_a_row = 0;
            }
            _ => {}
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn random_legal_play_keeps_the_table_consistent_and_every_fight_ends(
        seed in 0u64..1_000_000,
        picks in proptest::collection::vec(any::<u16>(), 2..64),
    ) {
        random_fight([INN, MARKET, WYRM][(seed % 3) as usize], seed, &picks);
    }
}

#[test]
fn the_rules_schedule_has_no_ambiguous_systems() {
    let mut app = App::new();
    app.add_plugins(crate::FactionZonesPlugin);
    if let Err(e) = fray_core::ruleset::check_rules_schedule(&mut app) {
        panic!("{e}");
    }
}

#[test]
fn dragging_a_character_of_the_faction_to_act_takes_its_turn_and_moves_it() {
    let mut app = by_hand(INN);
    send(&mut app, "leader", FactionZonesIntent::PickFirst { faction: "party".into() });
    let theobald = who(&app, "theobald");
    let loft =
        FactionZones::validate(app.world(), theobald, &FactionZonesIntent::Move { zone: "loft".into() });
    // The yard's wall blocks the way up: round by the taproom and the stairs, 3 zones.
    assert!(
        loft.is_err_and(|r| r.0 == "Loft is 3 zones away; Theobald may move 2 more this turn (full speed)")
    );
    send(&mut app, "theobald", FactionZonesIntent::Move { zone: "taproom".into() });
    assert_eq!(app.world().resource::<Battle>().active, Some(theobald), "his turn began");
    send(&mut app, "bandit_c", FactionZonesIntent::LetGo);
    let far =
        FactionZones::validate(app.world(), theobald, &FactionZonesIntent::Move { zone: "loft".into() });
    assert!(
        far.is_err_and(|r| r.0 == "Loft is 2 zones away; Theobald may move 1 more this turn (full speed)")
    );
}

#[test]
fn moving_away_from_nearby_enemies_draws_their_opportunity_attacks_then_the_move_goes_on() {
    let mut app = by_hand(INN);
    send(&mut app, "leader", FactionZonesIntent::PickFirst { faction: "bandits".into() });
    // The bandit in the taproom, beside Balthasar and Sybilla, makes for the stairs.
    send(&mut app, "bandit_a", FactionZonesIntent::Move { zone: "stairs".into() });
    let (balthasar, sybilla, bandit) = (who(&app, "balthasar"), who(&app, "sybilla"), who(&app, "bandit_a"));
    assert_eq!(FactionZones::awaiting(app.world()), [balthasar, sybilla], "both may strike as he leaves");
    send(&mut app, "sybilla", FactionZonesIntent::LetGo);
    assert!(
        crate::turns::nearby(app.world(), bandit, balthasar),
        "not gone while Balthasar may still strike"
    );
    send(&mut app, "balthasar", FactionZonesIntent::OpportunityAttack { weapon: Some(0) });
    let hit = log(&app)
        .iter()
        .any(|l| l["kind"] == "damage" && l["actor"] == "bandit_a" && l["source"]["by"] == "balthasar");
    assert!(hit, "the opportunity attack lands: the mover, on its own turn, cannot react");
    assert!(app.world().get::<Fighter>(balthasar).expect("fighter").acted, "it spent Balthasar's turn");
    if fray_core::table::can_act(app.world(), bandit) {
        assert!(
            !crate::turns::nearby(app.world(), bandit, balthasar),
            "standing, the bandit goes on to the stairs"
        );
    }
}

#[test]
fn a_target_may_hide_behind_an_ally_and_an_ally_may_guard() {
    let mut app = by_hand(INN);
    send(&mut app, "leader", FactionZonesIntent::PickFirst { faction: "bandits".into() });
    send(&mut app, "bandit_a", FactionZonesIntent::Activate);
    send(&mut app, "bandit_a", FactionZonesIntent::Attack { target: "sybilla".into(), weapon: Some(0) });
    let (balthasar, sybilla) = (who(&app, "balthasar"), who(&app, "sybilla"));
    assert_eq!(
        FactionZones::awaiting(app.world()),
        [sybilla, balthasar],
        "Sybilla reacts, or Balthasar guards her"
    );
    send(&mut app, "sybilla", FactionZonesIntent::HideBehind { ally: "balthasar".into() });
    assert_eq!(app.world().resource::<Battle>().pending.as_ref().map(|p| p.target), Some(balthasar));
    let again = FactionZones::validate(
        app.world(),
        balthasar,
        &FactionZonesIntent::HideBehind { ally: "sybilla".into() },
    );
    assert!(again.is_err_and(|r| r.0 == "this attack already changed its target"));
    send(&mut app, "balthasar", FactionZonesIntent::Dodge);
    assert!(
        app.world().get::<Fighter>(sybilla).expect("fighter").acted
            && app.world().get::<Fighter>(balthasar).expect("fighter").acted
    );

    let mut app = by_hand(INN);
    send(&mut app, "leader", FactionZonesIntent::PickFirst { faction: "bandits".into() });
    send(&mut app, "bandit_a", FactionZonesIntent::Activate);
    send(&mut app, "bandit_a", FactionZonesIntent::Attack { target: "sybilla".into(), weapon: Some(0) });
    send(&mut app, "balthasar", FactionZonesIntent::Guard);
    let took = log(&app).iter().any(|l| l["kind"] == "damage" && l["actor"] == "balthasar");
    assert!(took, "the guard takes the attack at once, with no reaction of its own");
    assert!(
        !app.world().get::<Fighter>(who(&app, "sybilla")).expect("fighter").acted,
        "Sybilla keeps her turn"
    );
}

#[test]
fn surrendering_spends_the_turn_and_leaves_the_fight() {
    let mut app = by_hand(INN);
    send(&mut app, "leader", FactionZonesIntent::PickFirst { faction: "bandits".into() });
    send(&mut app, "bandit_c", FactionZonesIntent::Surrender);
    assert_eq!(app.world().get::<Status>(who(&app, "bandit_c")), Some(&Status::Fled));
    assert_eq!(app.world().resource::<Battle>().to_act, Some("party".into()), "the party's activation next");
}

const WYRM: &str = include_str!("../../../../assets/scenarios/faction_zones_wyrm.ron");

#[test]
fn size_scales_damage_dice_and_range_as_the_texts_wyrm_and_human_do() {
    use crate::data::Size;
    use crate::dice::{dice_count, scaled_damage, scaled_range};
    assert_eq!(dice_count(Size::Large, Size::Medium), 2, "the bite: 2d8 on a medium character");
    assert_eq!(dice_count(Size::Large, Size::Small), 4, "4d8 on a small one");
    assert_eq!(dice_count(Size::Medium, Size::Large), 1);
    assert_eq!(scaled_damage(3, Size::Medium, Size::Large), 2, "a human's 3 on the wyrm deals 2");
    assert_eq!(scaled_range(8, Size::Medium, Size::Large), 16, "the bow reaches 16 against the wyrm");
    assert_eq!(scaled_range(8, Size::Large, Size::Small), 2, "halved per size against smaller targets");
    let mut app = by_hand(WYRM);
    let (wyrm, osric, maud) = (who(&app, "wyrm"), who(&app, "osric"), who(&app, "maud"));
    // Maud's bow from the stream to the ledge: 2 zones, within half of the doubled range (16).
    assert_eq!(check_attack(app.world(), maud, wyrm, Some(0)), Ok(false));
    // In its dark cave the wyrm is not visible: no ranged attack.
    let cave = app.world().resource::<TableIndex>().location(&"cave".into()).expect("cave");
    app.world_mut().entity_mut(wyrm).insert(fray_core::prelude::Occupies(cave));
    assert!(check_attack(app.world(), maud, wyrm, Some(0)).is_err_and(|r| r.0.contains("not visible")));
    let ledge = app.world().resource::<TableIndex>().location(&"ledge".into()).expect("ledge");
    app.world_mut().entity_mut(wyrm).insert(fray_core::prelude::Occupies(ledge));
    crate::combat::hit(app.world_mut(), wyrm, osric, Some(0));
    let bite = log(&app).into_iter().rfind(|l| l["kind"] == "roll" && l["actor"] == "wyrm").expect("a roll");
    assert_eq!(bite["dice"].as_array().map(Vec::len), Some(2), "two dice on a medium target: {bite}");
}

#[test]
fn the_fire_breath_burns_everyone_in_a_zone_at_one_die_whatever_their_size() {
    let mut app = by_hand(WYRM);
    let wyrm = who(&app, "wyrm");
    let ledge = app.world().resource::<TableIndex>().location(&"ledge".into()).expect("ledge");
    app.world_mut().entity_mut(wyrm).insert(fray_core::prelude::Occupies(ledge));
    // Maud and Pip both stand in the stream; Osric in the scree.
    let (maud, pip) = (who(&app, "maud"), who(&app, "pip"));
    assert!(crate::turns::nearby(app.world(), maud, pip));
    crate::combat::attack(app.world_mut(), wyrm, maud, Some(1), false);
    let burnt: Vec<serde_json::Value> = log(&app)
        .into_iter()
        .filter(|l| l["kind"] == "damage" && l["source"]["weapon"] == "breath")
        .collect();
    let who_burnt: Vec<&str> = burnt.iter().filter_map(|l| l["actor"].as_str()).collect();
    assert_eq!(who_burnt, ["maud", "pip"], "everyone in the stream, none else");
    let rolls = log(&app).into_iter().filter(|l| l["kind"] == "roll" && l["actor"] == "wyrm").count();
    assert_eq!(rolls, 2, "one d6 each, small or not");
}
