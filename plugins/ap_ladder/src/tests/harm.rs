//! Harm that lasts: injuries (the Chaos Dice, Vicious, Weak, Pummeling, Dangerous, Detonate,
//! an ill omen), what an injury does, bleeding and binding it; mounts struck, out of control,
//! bucked off and slain; Recoil, Volatile, Gas, Maker's mark and Distraction.

use bevy_app::App;
use fray_core::log::Source;
use fray_core::prelude::Rides;

use super::rules::{fighter, place, sheet, turn_of};
use super::{log_values, table, who};
use crate::combat::{Harm, damage_threshold, harm_with};
use crate::conditions::add;
use crate::data::{Condition, Severity, Skill};
use crate::injuries::{self, Blow};
use crate::intent::{Aim, ApLadderIntent, MoveKind};
use crate::mounts::Steed;
use crate::phase::{Battle, Fighter};

/// How many rolls of this name the log holds.
fn rolls(app: &App, what: &str) -> usize {
    log_values(app).iter().filter(|l| l["kind"] == "roll" && l["what"] == what).count()
}

/// The last roll of this name.
fn last_roll(app: &App, what: &str) -> Option<serde_json::Value> {
    log_values(app).into_iter().rev().find(|l| l["kind"] == "roll" && l["what"] == what)
}

/// X (side a, `x_weapons`, the first in hand) beside Y (side b, a sword in hand), an ally Z of
/// Y's beside it, and Far (side b) out of reach.
fn scene(x_weapons: &str) -> String {
    let sheet = sheet(40, 30);
    format!(
        r#"Scenario(name: "harm", ruleset: "ap_ladder", sides: [(id: "a", name: "A"), (id: "b", name: "B")],
           combatants: [(id: "x", name: "X", side: "a", position: (0.0, 0.0), sheet: {sheet},
                         weapons: [{x_weapons}], wields: Some(0))),
                        (id: "y", name: "Y", side: "b", position: (1.0, 0.0), sheet: {sheet},
                         skills: {{Heal: 20}},
                         weapons: [(id: "sword", name: "Sword", kind: Melee, skill: MartialMelee, damage: 2)],
                         wields: Some(0))),
                        (id: "z", name: "Z", side: "b", position: (1.8, 0.9), sheet: {sheet}, skills: {{Heal: 30}})),
                        (id: "far", name: "Far", side: "b", position: (9.0, 9.0), sheet: {sheet}))])"#
    )
}

const CLUB: &str = r#"(id: "club", name: "Club", kind: Melee, skill: SimpleMelee, damage: 3)"#;

#[test]
fn a_blow_rolls_chaos_dice_for_an_injury_from_moderately_wounded_on_and_vicious_rolls_one_more() {
    for (step, dice) in [(1u32, 0usize), (2, 1), (3, 2), (4, 3)] {
        for vicious in [false, true] {
            let mut app = table(&scene(CLUB), 1, false);
            let y = who(&app, "y");
            let blow = Blow { vicious, ..Blow::default() };
            injuries::after_blow(app.world_mut(), y, step - 1, step, false, &blow);
            let expected = if step < 2 { 0 } else { dice + usize::from(vicious) };
            assert_eq!(rolls(&app, "injury Chaos Die"), expected, "to step {step}, vicious {vicious}");
        }
    }
    let mut app = table(&scene(CLUB), 1, false);
    let y = who(&app, "y");
    injuries::after_blow(app.world_mut(), y, 3, 4, true, &Blow::default());
    assert_eq!(rolls(&app, "injury Chaos Die"), 0, "a subduing blow never injures");
}

#[test]
fn detonate_injures_grievously_weak_never_worse_than_serious_pummeling_only_moderately() {
    let mut app = table(&scene(CLUB), 1, false);
    let y = who(&app, "y");
    let w = app.world_mut();
    let grievous = Blow { grievous: true, ..Blow::default() };
    assert_eq!(injuries::severity_of(w, y, 0, 1, &grievous, false), Some(Severity::Grievous), "any harm");
    let weak = Blow { weak: true, ..grievous };
    assert_eq!(injuries::severity_of(w, y, 0, 1, &weak, false), Some(Severity::Serious));
    let pummel = Blow { pummeling: true, ..grievous };
    assert_eq!(injuries::severity_of(w, y, 0, 1, &pummel, false), Some(Severity::Moderate));
    assert_eq!(injuries::severity_of(w, y, 2, 2, &grievous, false), None, "no step down, no injury");
    let plain = Blow::default();
    assert_eq!(
        injuries::severity_of(w, y, 2, 3, &plain, true),
        Some(Severity::Serious),
        "an omen: as wounded"
    );
    assert_eq!(
        injuries::severity_of(w, y, 0, 1, &plain, true),
        Some(Severity::Moderate),
        "an omen when light"
    );
}

#[test]
fn the_fumbles_ill_omen_makes_the_next_harmful_blow_injure_without_dice() {
    let mut app = table(&scene(CLUB), 3, false);
    let y = who(&app, "y");
    app.world_mut().get_mut::<Fighter>(y).expect("fighter").injure_next = true;
    // Y's threshold is its [BB] 4: a blow of 4 moves it one step, to lightly wounded.
    harm_with(
        app.world_mut(),
        y,
        4,
        Harm::Damage { ranged: false, subdue: false },
        None,
        &Source::named("test"),
    );
    let f = fighter(&app, "y");
    assert_eq!(f.damage, 1, "lightly wounded");
    assert_eq!(f.injuries.len(), 1, "injured by the omen");
    assert_eq!(f.injuries[0].severity, Severity::Moderate);
    assert!(!f.injure_next, "the omen is spent");
    assert_eq!(rolls(&app, "injury Chaos Die"), 0, "no dice");
}

#[test]
fn an_injury_does_what_its_row_says_while_it_lasts() {
    let mut app = table(&scene(CLUB), 1, false);
    let y = who(&app, "y");
    let movement = fighter(&app, "y").movement(3);
    let (threshold, _) = damage_threshold(app.world(), y, false);
    injuries::injure(app.world_mut(), y, Severity::Serious, Aim::Arms, false, true);
    let f = fighter(&app, "y");
    assert_eq!(f.injuries[0].name, "Stress fracture", "the text's name for a serious arm injury");
    assert!(f.lost[0], "the sword falls");
    let melee = injuries::test_modifiers(f, Some(Skill::MartialMelee));
    assert_eq!(melee.iter().map(|m| m.value).sum::<i64>(), -10, "{melee:?}");
    assert!(injuries::test_modifiers(f, Some(Skill::Awareness)).is_empty(), "other skills untouched");
    injuries::injure(app.world_mut(), y, Severity::Moderate, Aim::Legs, false, true);
    assert_eq!(fighter(&app, "y").movement(3), movement - 1.0, "a twisted knee: a yard slower");
    injuries::injure(app.world_mut(), y, Severity::Serious, Aim::Body, false, true);
    assert_eq!(damage_threshold(app.world(), y, false).0, threshold - 1, "a torn flank: threshold -1");
    assert!(fighter(&app, "y").has(Condition::Bleeding), "a torn flank bleeds");
    // A Dangerous blow's injury bleeds; a Pummeling one's never.
    let mut app = table(&scene(CLUB), 1, false);
    let y = who(&app, "y");
    injuries::injure(app.world_mut(), y, Severity::Moderate, Aim::Head, true, true);
    assert!(fighter(&app, "y").has(Condition::Bleeding), "Dangerous: it bleeds");
    let z = who(&app, "z");
    injuries::injure(app.world_mut(), z, Severity::Serious, Aim::Body, true, false);
    assert!(!fighter(&app, "z").has(Condition::Bleeding), "Pummeling: never bleeds");
}

#[test]
fn a_bleeding_one_loses_a_step_on_a_chaos_six_at_its_turns_start_until_a_heal_test_binds_it() {
    let (mut bled, mut held) = (false, false);
    for seed in 0..40 {
        let mut app = table(&scene(CLUB), seed, false);
        let y = who(&app, "y");
        add(app.world_mut(), y, Condition::Bleeding);
        let _ = turn_of(&mut app, "y");
        let die = last_roll(&app, "bleeding Chaos Die").expect("a Chaos Die at the turn's start");
        let six = die["total"] == 6;
        assert_eq!(fighter(&app, "y").damage, u32::from(six), "seed {seed}: one step on a 6 only");
        bled |= six;
        held |= !six;
    }
    assert!(bled && held, "both outcomes over 40 seeds");
    let (mut bound, mut not) = (0, 0);
    for seed in 0..30 {
        let mut app = table(&scene(CLUB), seed, false);
        let y = who(&app, "y");
        add(app.world_mut(), y, Condition::Bleeding);
        let z = turn_of(&mut app, "z");
        let far = who(&app, "far");
        let x = who(&app, "x");
        app.world_mut().get_mut::<Fighter>(far).expect("fighter").ap = 3;
        app.world_mut().get_mut::<Fighter>(x).expect("fighter").ap = 3;
        let refused = injuries::check_bind(app.world(), far, y).expect_err("too far");
        assert_eq!(refused.0, "Y is out of reach: stand beside it");
        assert_eq!(
            injuries::check_bind(app.world(), x, y).expect_err("a foe").0,
            "Y is not an ally in the fight"
        );
        assert_eq!(injuries::check_bind(app.world(), z, z).expect_err("whole").0, "Z is not bleeding");
        assert_eq!(injuries::check_bind(app.world(), z, y), Ok(()));
        injuries::bind(app.world_mut(), z, y);
        assert_eq!(fighter(&app, "z").ap, 1, "2 AP");
        let heal = last_roll(&app, "binding Y's wound").expect("a Heal test");
        let passed = heal["success"] == true;
        assert_eq!(!fighter(&app, "y").has(Condition::Bleeding), passed, "seed {seed}: bound when it passes");
        if passed { bound += 1 } else { not += 1 }
    }
    assert!(bound > 0 && not > 0, "both outcomes: {bound} bound, {not} not");
}

/// A knight riding a destrier, and a foe with a heavy axe beside it.
fn riders() -> String {
    let sheet = sheet(40, 30);
    format!(
        r#"Scenario(name: "mounted", ruleset: "ap_ladder", sides: [(id: "a", name: "A"), (id: "b", name: "B")],
           mounts: [(id: "horse", name: "Destrier", position: (0.0, 0.0), sheet: (kind: Destrier, agility_bonus: 4, brawn_bonus: 6, barding: 2))],
           combatants: [(id: "k", name: "Knight", side: "a", rides: "horse", sheet: {sheet}, skills: {{Ride: 20, HandleAnimal: 10}})),
                        (id: "y", name: "Y", side: "b", position: (1.0, 0.0), sheet: {sheet},
                         weapons: [(id: "axe", name: "Axe", kind: Melee, skill: MartialMelee, damage: 9)], wields: Some(0)))])"#
    )
}

#[test]
fn a_blow_at_a_mount_meets_its_own_threshold_and_track_and_no_reaction() {
    let mut app = table(&riders(), 1, false);
    let y = turn_of(&mut app, "y");
    let k = who(&app, "k");
    let m = crate::mounts::mount_of(app.world(), k).expect("the knight rides");
    let (threshold, parts) = crate::mounts::threshold(app.world(), m);
    assert_eq!(threshold, 8, "[BB] 6 and barding 2: {parts:?}");
    let choices = crate::board::choices(app.world(), y);
    let offered = choices.iter().find(|c| matches!(&c.intent, ApLadderIntent::StrikeMount { .. }));
    assert!(offered.is_some_and(|c| c.label.starts_with("Strike Knight's Destrier with Axe")), "offered");
    let mut hit = false;
    for seed in 0..20 {
        let mut app = table(&riders(), seed, false);
        let y = turn_of(&mut app, "y");
        let k = who(&app, "k");
        app.world_mut().get_mut::<Fighter>(k).expect("fighter").ap = 3;
        let plan = crate::combat::plan_mount_attack(app.world(), y, k).expect("in reach");
        assert!(plan.allowed.is_empty(), "a mount does not react");
        crate::combat::attack(app.world_mut(), y, plan);
        assert!(app.world().resource::<Battle>().pending.is_none(), "no reaction asked");
        assert_eq!(fighter(&app, "k").damage, 0, "the rider is not harmed");
        let log = log_values(&app);
        let to_mount = |l: &serde_json::Value| {
            l["what"] == "hit" && l["detail"].as_str().is_some_and(|d| d.ends_with("to the mount"))
        };
        if !log.iter().any(to_mount) {
            continue;
        }
        hit = true;
        let steed = crate::mounts::mount_of(app.world(), k).and_then(|m| app.world().get::<Steed>(m));
        let damage = steed.map_or(0, |s| s.damage);
        if log.iter().any(|l| l["what"] == "mount_harmed") {
            assert!(damage > 0, "seed {seed}: harmed, a step down its own track");
        } else {
            assert!(
                log.iter().any(|l| l["what"] == "mount_unharmed"),
                "seed {seed}: weighed against its threshold"
            );
            assert_eq!(damage, 0, "seed {seed}");
        }
    }
    assert!(hit, "a hit on the mount in 20 seeds");
    let mut app = table(&riders(), 1, false);
    let _ = turn_of(&mut app, "y");
    let refused = crate::combat::plan_mount_attack(app.world(), who(&app, "k"), who(&app, "y"));
    assert_eq!(refused.expect_err("Y rides nothing").0, "Y rides nothing");
}

#[test]
fn a_hurt_mount_not_handled_balks_on_its_riders_next_turn_and_a_critical_failure_bucks_the_rider_off() {
    let (mut calm, mut balked, mut bucked) = (0, 0, 0);
    for seed in 0..200 {
        let mut app = table(&riders(), seed, false);
        let k = who(&app, "k");
        let horse = crate::mounts::mount_of(app.world(), k).expect("rides");
        crate::mounts::handle_animal(app.world_mut(), k);
        let t = last_roll(&app, "Handle Animal").expect("a Handle Animal test");
        if t["success"] == true {
            calm += 1;
            let _ = turn_of(&mut app, "k");
            assert!(
                crate::moves::plan_move(app.world(), k, [3.0, 0.0], MoveKind::Walk).is_ok(),
                "seed {seed}"
            );
        } else if t["critical"] == true {
            bucked += 1;
            assert!(app.world().get::<Rides>(k).is_none(), "seed {seed}: bucked off");
            assert!(fighter(&app, "k").has(Condition::Prone), "and prone");
            assert!(app.world().get_entity(horse).is_err(), "the mount fled the field");
            assert!(last_roll(&app, "bucked off").is_some(), "1d10+1 damage rolled");
        } else {
            balked += 1;
            let k = turn_of(&mut app, "k");
            let refused =
                crate::moves::plan_move(app.world(), k, [3.0, 0.0], MoveKind::Walk).expect_err("balks");
            assert_eq!(
                refused.0,
                "Destrier is out of control: it will not move this turn (Handle Animal failed); dismount to go on foot"
            );
            crate::ladder::end_turn(app.world_mut(), k);
            crate::ladder::start_turn(app.world_mut(), k);
            assert!(
                crate::moves::plan_move(app.world(), k, [3.0, 0.0], MoveKind::Walk).is_ok(),
                "one turn only"
            );
        }
    }
    assert!(
        calm > 0 && balked > 0 && bucked > 0,
        "every outcome: {calm} calm, {balked} balked, {bucked} bucked"
    );
}

#[test]
fn a_mount_slain_falls_and_throws_its_rider_and_its_injuries_slow_it() {
    let mut app = table(&riders(), 1, false);
    // No injury to bring a Handle Animal test (and perhaps a fall) before the mount is slain.
    app.world_mut().resource_mut::<Battle>().rules.numbers.injury_dice = (0, 0, 0);
    let k = who(&app, "k");
    let horse = crate::mounts::mount_of(app.world(), k).expect("rides");
    let pace = crate::moves::subtype(app.world(), k).expect("mounted").1;
    let knee =
        app.world().resource::<Battle>().tables.injuries.iter().find(|r| r.name == "Twisted knee").cloned();
    app.world_mut().get_mut::<Steed>(horse).expect("steed").injuries.push(knee.expect("a row"));
    assert_eq!(crate::moves::subtype(app.world(), k).expect("mounted").1, pace - 1.0, "a yard slower");
    for _ in 0..3 {
        crate::mounts::harm_mount(app.world_mut(), k, 60, &Blow::default());
    }
    assert!(app.world().get_entity(horse).is_err(), "the slain mount leaves the field");
    assert!(app.world().get::<Rides>(k).is_none(), "its rider is down");
    assert!(fighter(&app, "k").has(Condition::Prone), "thrown down, prone");
    assert!(log_values(&app).iter().any(|l| l["what"] == "mount_slain"));
}

/// A gun with `qualities` (no loading).
fn gun(qualities: &str) -> String {
    format!(
        r#"(id: "gun", name: "Gun", kind: Ranged, skill: MartialRanged, damage: 3, range: 10.0, qualities: [Gunpowder, {qualities}])"#
    )
}

#[test]
fn a_recoil_weapon_fired_shoves_a_wielder_who_fails_toughness_and_a_critical_failure_injures_its_arm() {
    let (mut held, mut shoved, mut injured) = (0, 0, 0);
    for seed in 0..150 {
        let mut app = table(&scene(&gun("Recoil")), seed, false);
        let x = turn_of(&mut app, "x");
        app.world_mut().get_mut::<Fighter>(x).expect("fighter").damage = 3;
        let y = who(&app, "y");
        let plan = crate::combat::plan_attack(app.world(), x, y, None, 0, false).expect("point blank");
        crate::combat::attack(app.world_mut(), x, plan);
        let Some(resist) = last_roll(&app, "Resist Recoil") else {
            // A fumble struck the wielder down before the kick.
            assert!(!fray_core::table::can_act(app.world(), x), "seed {seed}: a wielder on its feet resists");
            continue;
        };
        let at = crate::field::position(app.world(), x);
        if resist["success"] == true {
            held += 1;
            assert_eq!(at, [0.0, 0.0], "seed {seed}: held its ground");
            continue;
        }
        shoved += 1;
        assert!(at[0] < -1.0, "seed {seed}: shoved away from Y out of the engagement, at {at:?}");
        if resist["critical"] == true {
            injured += 1;
            let f = fighter(&app, "x");
            assert_eq!(f.injuries.last().map(|i| i.name.as_str()), Some("Stress fracture"), "seed {seed}");
        }
    }
    assert!(held > 0 && shoved > 0 && injured > 0, "{held} held, {shoved} shoved, {injured} injured");
}

#[test]
fn a_volatile_weapon_after_a_critical_failure_misfires_or_explodes_on_a_chaos_six() {
    let (mut misfired, mut exploded) = (0, 0);
    for seed in 0..30 {
        let mut app = table(&scene(&gun("Volatile")), seed, false);
        let x = who(&app, "x");
        crate::combat::volatile(app.world_mut(), x, 0);
        let die = last_roll(&app, "Volatile Chaos Die").expect("a Chaos Die");
        let f = fighter(&app, "x");
        assert!(f.lost[0] && f.wielding.is_none(), "seed {seed}: the gun is useless either way");
        if die["total"] == 6 {
            exploded += 1;
            assert!(f.ruined[0], "destroyed");
            assert!(last_roll(&app, "Volatile explosion").is_some(), "2d10+2 in the wielder's hands");
        } else {
            misfired += 1;
            assert!(!f.ruined[0] && last_roll(&app, "Volatile explosion").is_none(), "a misfire only");
        }
    }
    assert!(misfired > 0 && exploded > 0, "{misfired} misfired, {exploded} exploded");
    let mut app = table(&scene(&gun("Fast")), 1, false);
    let x = who(&app, "x");
    crate::combat::volatile(app.world_mut(), x, 0);
    assert!(last_roll(&app, "Volatile Chaos Die").is_none(), "only a Volatile weapon");
}

#[test]
fn a_gas_bomb_makes_no_hit_but_a_cloud_that_chokes_whoever_is_in_it_now_and_at_their_turns_start() {
    let bomb = r#"(id: "bomb", name: "Gas bomb", kind: Thrown, skill: Athletics, damage: 0, range: 8.0, qualities: [Gas])"#;
    let mut app = table(&scene(bomb), 2, false);
    let x = turn_of(&mut app, "x");
    place(&mut app, "y", [6.0, 0.0]);
    place(&mut app, "z", [7.5, 1.0]);
    let y = who(&app, "y");
    let plan = crate::combat::plan_attack(app.world(), x, y, None, 0, false).expect("in throwing range");
    crate::combat::attack(app.world_mut(), x, plan);
    assert!(app.world().resource::<Battle>().pending.is_none(), "no hit, no reaction");
    let cloud = app
        .world()
        .resource::<Battle>()
        .rules
        .areas
        .iter()
        .find(|a| a.kind == crate::data::AreaKind::Gas)
        .cloned();
    assert_eq!(cloud.map(|c| (c.at, c.radius)), Some(((6.0, 0.0), 3.0)), "a 6-yard cloud around Y");
    let choked: Vec<String> = log_values(&app)
        .iter()
        .filter(|l| l["kind"] == "roll" && l["what"] == "choking gas")
        .map(|l| l["actor"].as_str().unwrap_or("").to_owned())
        .collect();
    assert_eq!(choked, ["y", "z"], "those in the cloud choke at once; X and Far are clear");
    let before = rolls(&app, "choking gas");
    let _ = turn_of(&mut app, "y");
    assert_eq!(rolls(&app, "choking gas"), before + 1, "and again at Y's turn's start");
}

#[test]
fn a_makers_mark_adds_five_to_strike_and_a_marked_shield_one_to_the_threshold() {
    let marked = r#"(id: "blade", name: "Fine blade", kind: Melee, skill: MartialMelee, damage: 2, qualities: [MakersMark]),
                    (id: "shield", name: "Marked shield", kind: Melee, skill: MartialMelee, damage: 0, qualities: [MakersMark], shield: true)"#;
    let mut app = table(&scene(marked), 1, false);
    let x = turn_of(&mut app, "x");
    let y = who(&app, "y");
    let plan = crate::combat::plan_attack(app.world(), x, y, None, 0, false).expect("in reach");
    assert!(plan.modifiers.iter().any(|m| m.what == "maker's mark" && m.value == 5), "{:?}", plan.modifiers);
    let (with, parts) = damage_threshold(app.world(), x, false);
    assert!(parts.iter().any(|m| m.what == "Marked shield (maker's mark)" && m.value == 1), "{parts:?}");
    app.world_mut().get_mut::<Fighter>(x).expect("fighter").lost[1] = true;
    assert_eq!(damage_threshold(app.world(), x, false).0, with - 1, "a lost shield adds nothing");
}

#[test]
fn taking_aim_with_a_distraction_weapon_makes_engaged_foes_resist_dirty_tricks_or_be_blinded() {
    let whip =
        r#"(id: "whip", name: "Whip", kind: Melee, skill: SimpleMelee, damage: 0, qualities: [Distraction])"#;
    let (mut blinded, mut resisted) = (0, 0);
    for seed in 0..30 {
        let mut app = table(&scene(whip), seed, false);
        let x = turn_of(&mut app, "x");
        crate::specials::aim(app.world_mut(), x, 1);
        let log = log_values(&app);
        let asked: Vec<&str> = log
            .iter()
            .filter(|l| l["kind"] == "roll" && l["what"] == "Resist Dirty tricks")
            .filter_map(|l| l["actor"].as_str())
            .collect();
        assert_eq!(asked, ["y"], "seed {seed}: the one engaged foe, with Awareness");
        let passed = last_roll(&app, "Resist Dirty tricks").is_some_and(|l| l["success"] == true);
        assert_eq!(fighter(&app, "y").has(Condition::Blinded), !passed, "seed {seed}");
        if passed { resisted += 1 } else { blinded += 1 }
    }
    assert!(blinded > 0 && resisted > 0, "{blinded} blinded, {resisted} resisted");
    let mut app = table(&scene(CLUB), 1, false);
    let x = turn_of(&mut app, "x");
    crate::specials::aim(app.world_mut(), x, 1);
    assert_eq!(rolls(&app, "Resist Dirty tricks"), 0, "a plain club distracts no one");
}

#[test]
fn a_weapons_size_difficulty_is_ignored_for_a_chaos_die_whose_six_fumbles() {
    let text = scene(CLUB).replace(r#"sides: ["#, r#"rules: (cramped: true), sides: ["#);
    let mut app = table(&text, 1, false);
    let x = turn_of(&mut app, "x");
    let y = who(&app, "y");
    let plan = crate::combat::plan_attack(app.world(), x, y, None, 0, false).expect("in reach");
    assert!(
        plan.modifiers.iter().any(|m| m.what == "cramped space" && m.value == -10),
        "{:?}",
        plan.modifiers
    );
    let pressed = crate::combat::pressed(plan).expect("a club in a cramped room");
    assert!(!pressed.modifiers.iter().any(|m| m.what == "cramped space"), "the -10 ignored");
    let (mut fumbled, mut clean) = (0, 0);
    for seed in 0..40 {
        let mut app = table(&text, seed, false);
        let x = turn_of(&mut app, "x");
        let intent = ApLadderIntent::Attack {
            target: "y".into(),
            called: None,
            all_out: 0,
            punishing: false,
            press: true,
        };
        let sent = crate::decisions::submit(
            app.world_mut(),
            fray_core::intent::Submitted { actor: "x".into(), intent },
        );
        assert_eq!(sent, Ok(()), "seed {seed}");
        let die = last_roll(&app, "Chaos Die for the weapon's size").expect("the Chaos Die");
        let fumble = log_values(&app).iter().any(|l| l["kind"] == "effect" && l["what"] == "fumble");
        let attack = last_roll(&app, "attack on Y").expect("the attack roll");
        let critical_miss = attack["success"] == false && attack["critical"] == true;
        if die["total"] == 6 {
            assert!(fumble, "seed {seed}: a 6 fumbles");
        } else {
            assert!(!fumble || critical_miss, "seed {seed}: no fumble but a critical miss's own");
        }
        if fumble {
            fumbled += 1
        } else {
            clean += 1
        }
        assert!(
            fighter(&app, "x").ap < 3 || !fray_core::table::can_act(app.world(), x),
            "the attack's AP spent"
        );
    }
    assert!(fumbled > 0 && clean > 0, "{fumbled} fumbled, {clean} clean");
    // In the open, nothing to ignore.
    let mut app = table(&scene(CLUB), 1, false);
    let x = turn_of(&mut app, "x");
    let y = who(&app, "y");
    let plan = crate::combat::plan_attack(app.world(), x, y, None, 0, false).expect("in reach");
    let refused = crate::combat::pressed(plan).expect_err("no cramp");
    assert_eq!(refused.0, "no difficulty from the weapon's size to ignore here");
}

/// Every hit in `log` lands where the d10 rolled just before it says: a "hit" line with no
/// "hit location" roll of its own before it (since the last hit) fails. Returns how many.
fn hits_with_their_location(log: &[serde_json::Value]) -> usize {
    let mut rolled: Option<&'static str> = None;
    let mut hits = 0;
    for l in log {
        if l["kind"] == "roll" && l["what"] == "hit location" {
            let d10 = l["dice"][0].as_u64().expect("a d10") as u32;
            rolled = Some(crate::combat::hit_location(d10));
        }
        if l["kind"] == "effect" && l["what"] == "hit" {
            let at = rolled.take().unwrap_or_else(|| panic!("a hit with no location rolled: {l}"));
            let detail = l["detail"].as_str().unwrap_or("");
            assert!(detail.ends_with(&format!("to the {at}")), "{detail} lands where the d10 said: {at}");
            hits += 1;
        }
    }
    hits
}

#[test]
fn the_fumble_rows_that_strike_roll_where_the_blow_lands() {
    use crate::data::{FumbleEffect, FumbleRow};
    // Y fumbles against X with Z, its ally, engaged beside it.
    for (effect, struck) in
        [(FumbleEffect::SelfHit, "y"), (FumbleEffect::AutoHit, "y"), (FumbleEffect::AllyHit, "z")]
    {
        for seed in 0..6 {
            let mut app = table(&scene(CLUB), seed, false);
            let (x, y) = (who(&app, "x"), who(&app, "y"));
            let row =
                FumbleRow { weight: 1, name: "forced".into(), effect: effect.clone(), text: String::new() };
            app.world_mut().resource_mut::<Battle>().tables.fumbles = vec![row];
            let before = log_values(&app).len();
            crate::fumble::fumble(app.world_mut(), y, Some(x), false);
            let log = &log_values(&app)[before..];
            assert_eq!(
                hits_with_their_location(log),
                1,
                "{effect:?}, seed {seed}: one blow, on {struck}: {log:?}"
            );
            let hit = log.iter().find(|l| l["what"] == "hit").expect("the blow");
            assert_eq!(hit["actor"], struck, "{effect:?} strikes {struck}");
        }
    }
}

#[test]
fn a_shot_that_fails_critically_into_an_engagement_rolls_where_it_strikes_the_ally() {
    let sheet = sheet(40, 30);
    let text = format!(
        r#"Scenario(name: "into", ruleset: "ap_ladder", sides: [(id: "a", name: "A"), (id: "b", name: "B")],
           combatants: [(id: "x", name: "X", side: "a", position: (-8.0, 0.0), sheet: {sheet},
                         weapons: [(id: "bow", name: "Bow", kind: Ranged, skill: SimpleRanged, damage: 1, range: 16.0)],
                         wields: Some(0))),
                        (id: "y", name: "Y", side: "b", position: (1.0, 0.0), sheet: {sheet})),
                        (id: "z", name: "Z", side: "a", position: (1.8, 0.9), sheet: {sheet}))])"#
    );
    let mut struck = 0;
    for seed in 0..400 {
        let mut app = table(&text, seed, false);
        let x = turn_of(&mut app, "x");
        let y = who(&app, "y");
        let plan = crate::combat::plan_attack(app.world(), x, y, None, 0, false).expect("a shot at Y");
        assert!(plan.into_ally.is_some(), "Z is engaged with Y");
        let before = log_values(&app).len();
        crate::combat::attack(app.world_mut(), x, plan);
        let log = &log_values(&app)[before..];
        let Some(at) = log.iter().position(|l| l["what"] == "struck_by_ally") else { continue };
        assert!(hits_with_their_location(&log[at..]) >= 1, "seed {seed}: Z's blow rolls its place: {log:?}");
        struck += 1;
    }
    assert!(struck > 0, "a critical failure into the engagement comes up in 400 seeds");
}

/// The tollgate with `id` to act: its speeches spoken (they come first), at `at` when given.
fn tollgate_turn(id: &str, at: Option<[f32; 2]>) -> App {
    let mut app = table(super::TOLLGATE, 1, false);
    let e = turn_of(&mut app, id);
    if let Some(at) = at {
        place(&mut app, id, at);
    }
    let mut f = app.world_mut().get_mut::<Fighter>(e).expect("fighter");
    (f.litany_spoken, f.inspired_others) = (true, true);
    app
}

fn tactical(app: &App, id: &str) -> (ApLadderIntent, String) {
    let (intent, why) = crate::ai::choose(app.world(), who(app, id));
    (intent, why.expect("the tactical AI gives its reason"))
}

#[test]
fn the_tactical_ai_strikes_a_horse_its_blow_can_hurt_and_a_rider_of_a_balking_horse_walks() {
    // Sir Garin's full harness (threshold 12) turns Hew's bill (a mean blow of 11.2), his
    // palfrey's hide (4) does not: Hew strikes the horse.
    let app = tollgate_turn("hew", Some([-11.0, -3.0]));
    let (intent, why) = tactical(&app, "hew");
    assert_eq!(intent, ApLadderIntent::StrikeMount { rider: "garin".into() }, "{why}");
    assert!(why.contains("Damage Threshold 12") && why.contains("mount's 4"), "{why}");
    // Sir Roul's mail (7) does not turn it: Hew strikes the knight.
    let app = tollgate_turn("hew", Some([-11.0, 3.0]));
    let (intent, why) = tactical(&app, "hew");
    assert!(
        matches!(&intent, ApLadderIntent::Attack { target, .. } if target.as_str() == "roul"),
        "{intent:?}: {why}"
    );
    // Garin's palfrey balks, no foe near: he gets down to walk on, and not before it calms
    // does he get back on.
    let mut app = tollgate_turn("garin", None);
    let garin = who(&app, "garin");
    let bay = crate::mounts::mount_of(app.world(), garin).expect("he rides");
    app.world_mut().get_mut::<crate::mounts::Steed>(bay).expect("a steed").balking = true;
    let (intent, why) = tactical(&app, "garin");
    assert_eq!(intent, ApLadderIntent::Dismount, "{why}");
    assert_eq!(why, "gets down to go on foot: Bay palfrey will not move this turn");
    let submitted = fray_core::intent::Submitted { actor: "garin".into(), intent };
    assert_eq!(crate::decisions::submit(app.world_mut(), submitted), Ok(()));
    assert_eq!(crate::mounts::mount_of(app.world(), garin), None, "on foot");
    app.world_mut().get_mut::<Fighter>(garin).expect("fighter").ap = 3;
    assert!(matches!(tactical(&app, "garin").0, ApLadderIntent::Move { .. }), "the horse still balks");
    app.world_mut().get_mut::<crate::mounts::Steed>(bay).expect("a steed").balking = false;
    let (intent, why) = tactical(&app, "garin");
    assert_eq!(intent, ApLadderIntent::Mount { mount: "bay".into() }, "{why}");
    // Roul's palfrey one wound from Slain!: he gets down before it falls under him.
    let mut app = tollgate_turn("roul", None);
    let grey = crate::mounts::mount_of(app.world(), who(&app, "roul")).expect("he rides");
    app.world_mut().get_mut::<crate::mounts::Steed>(grey).expect("a steed").damage = 4;
    let (intent, why) = tactical(&app, "roul");
    assert_eq!(intent, ApLadderIntent::Dismount, "{why}");
    assert_eq!(why, "gets down before Grey palfrey falls under it: one more wound slays it");
}

#[test]
fn a_tactical_rider_tramples_when_the_trample_would_harm_more_than_his_blow() {
    // Sir Garin's longsword (15.4 in the mean, two Fury Dice) lands more harm than his
    // palfrey's trample (1d10 + 4): he strikes, whether or not the foe may dodge. The squire's
    // arming sword (12.4) against his rouncey's trample (1d10 + 6): he tramples, the more
    // surely at Tam, whose old hauberk bars the dodge that alone answers a trample.
    for (rider, foe, tramples) in [("garin", "hew", false), ("garin", "tam", false), ("piers", "tam", true)] {
        let mut app = tollgate_turn(rider, None);
        let at = crate::field::position(app.world(), who(&app, rider));
        place(&mut app, foe, [at[0] + 1.0, at[1]]);
        let (intent, why) = tactical(&app, rider);
        let target = match &intent {
            ApLadderIntent::Trample { target } if tramples => target,
            ApLadderIntent::Attack { target, .. } if !tramples => target,
            _ => panic!("{rider} at {foe}: {intent:?}, {why}"),
        };
        assert_eq!(target.as_str(), foe, "{why}");
    }
}
