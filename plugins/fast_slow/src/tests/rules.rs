//! The rules one by one: the dice model, entering combat, defences, damage, the second attack.

use fray_core::log::Source;
use fray_core::prelude::Status;

use super::{CROSSING, table, who};
use crate::combat::{self, defences};
use crate::data::{Defence, Limb, WeaponKind};
use crate::dice::{attack, attack_chance, degree};
use crate::opening::{FreeMovement, free_movement};
use crate::phase::{Battle, Fighter, HitKind, PendingHit};

#[test]
fn the_designers_best_attack_hits_defence_18_exactly_three_times_in_four() {
    // Best of 2d12 (the style die a d12) + 6 (attribute) + 5 (Path) against DEF 18.
    let (hits, all) = attack_chance(Some(12), 6 + 5, 18);
    assert_eq!((hits, all), (108, 144), "every face of both dice counted");
    assert_eq!(hits as f64 / all as f64, 0.75);
}

#[test]
fn ties_succeed_with_a_skill_die_and_fail_without_one() {
    assert!(attack(5, Some(3), 5, 10).success, "5 + 5 ties 10 with a skill die: a hit");
    assert!(!attack(5, None, 5, 10).success, "the same tie without a skill: a miss");
    assert!(attack(6, None, 5, 10).success, "higher always hits");
}

#[test]
fn the_lowest_die_gives_the_degree_and_all_ones_fumble() {
    assert_eq!([1, 4, 5, 8, 9, 12].map(degree), [1, 1, 2, 2, 3, 3]);
    let r = attack(11, Some(6), 0, 3);
    assert_eq!((r.total, r.degree), (11, 2), "highest 11 + 0; lowest 6 is the second degree");
    assert!(attack(1, Some(1), 9, 3).fumble, "both dice on 1");
    assert!(attack(1, None, 9, 3).fumble, "no skill reads 1: a d12 on 1 fumbles");
    assert!(!attack(1, Some(2), 9, 3).fumble);
}

#[test]
fn the_success_roll_table_grants_free_movement() {
    let got: Vec<FreeMovement> = (1..=12).map(free_movement).collect();
    let want: Vec<FreeMovement> = (1..=12)
        .map(|f| match f {
            1..=4 => FreeMovement::None,
            5..=8 => FreeMovement::One,
            _ => FreeMovement::All,
        })
        .collect();
    assert_eq!(got, want);
}

fn hit(fast: bool, kind: HitKind, defender: bevy_ecs::entity::Entity) -> PendingHit {
    PendingHit {
        defender,
        attacker: None,
        source: "test".into(),
        source_id: "test".into(),
        kind,
        fast,
        dl: 10,
        damage: 5,
        poison: 0,
        trap: None,
        counter: false,
        to_health: false,
        weapon: None,
        technique: None,
    }
}

fn working(hit: &PendingHit, battle: &Battle) -> Vec<Defence> {
    defences(hit, battle).into_iter().filter(|(_, v)| v.is_ok()).map(|(d, _)| d).collect()
}

#[test]
fn only_brace_answers_an_attack_made_on_a_fast_turn() {
    let app = table(CROSSING, 1, false);
    let e = who(&app, "brann");
    let battle = app.world().resource::<Battle>();
    let weapon = HitKind::Attack(WeaponKind::Weapon);
    assert_eq!(working(&hit(false, weapon, e), battle), [Defence::Brace, Defence::Dodge]);
    assert_eq!(working(&hit(true, weapon, e), battle), [Defence::Brace]);
    let refused = defences(&hit(true, weapon, e), battle);
    let dodge = refused.iter().find(|(d, _)| *d == Defence::Dodge).expect("listed");
    assert_eq!(
        dodge.1.as_ref().expect_err("refused").0,
        "only Brace works against an attack made on a Fast turn"
    );
    let spell = HitKind::Attack(WeaponKind::Spell);
    assert_eq!(working(&hit(false, spell, e), battle), [Defence::Brace, Defence::Defy, Defence::Dodge]);
    assert_eq!(working(&hit(true, spell, e), battle), [Defence::Brace]);
    let intangible = HitKind::Attack(WeaponKind::IntangibleSpell);
    assert_eq!(working(&hit(true, intangible, e), battle), [Defence::Defy], "an intangible spell is Defied");
}

#[test]
fn damage_wears_stamina_first_then_overflows_into_one_limbs_pool() {
    let mut app = table(CROSSING, 3, false);
    let e = who(&app, "brann");
    app.world_mut().get_mut::<Fighter>(e).expect("fighter").stamina = 2;
    let before = app.world().get::<Fighter>(e).expect("fighter").health;
    let taken = combat::damage(app.world_mut(), e, 5, 1, Source::named("test"), false);
    let f = app.world().get::<Fighter>(e).expect("fighter");
    assert_eq!(f.stamina, 0, "stamina takes the first 2");
    let lost: u32 = Limb::ALL.iter().map(|&l| before.get(l) - f.health.get(l)).sum();
    let hurt: Vec<Limb> = Limb::ALL.into_iter().filter(|&l| before.get(l) != f.health.get(l)).collect();
    assert_eq!((lost, hurt.len()), (2, 1), "5 - 1 reduced - 2 stamina = 2 into one limb: {hurt:?}");
    assert_eq!(taken, 4);
}

#[test]
fn a_head_at_zero_kills_and_a_torso_at_zero_must_be_healed_before_the_end() {
    let mut app = table(CROSSING, 3, false);
    let e = who(&app, "brann");
    // Blows straight to the health pools until one lands on the head.
    let mut f = app.world().get::<Fighter>(e).expect("fighter").clone();
    f.health = crate::data::Limbs { head: 1, torso: 6, left_arm: 4, right_arm: 4, left_leg: 4, right_leg: 4 };
    app.world_mut().entity_mut(e).insert(f);
    for _ in 0..40 {
        combat::damage(app.world_mut(), e, 1, 0, Source::named("test"), true);
        if app.world().get::<Fighter>(e).expect("fighter").health.head == 0 {
            break;
        }
    }
    assert_eq!(app.world().get::<Fighter>(e).expect("fighter").health.head, 0, "40 hits reach the head");
    assert_eq!(app.world().get::<Status>(e), Some(&Status::Dead), "a head at zero kills");

    let mut app = table(CROSSING, 4, false);
    let e = who(&app, "odo");
    let mut f = app.world().get::<Fighter>(e).expect("fighter").clone();
    f.stamina = 0;
    f.health = crate::data::Limbs { head: 9, torso: 1, left_arm: 0, right_arm: 0, left_leg: 0, right_leg: 0 };
    app.world_mut().entity_mut(e).insert(f);
    for _ in 0..60 {
        combat::damage(app.world_mut(), e, 1, 0, Source::named("test"), true);
        if app.world().get::<Fighter>(e).expect("fighter").health.torso == 0 {
            break;
        }
    }
    let f = app.world().get::<Fighter>(e).expect("fighter");
    assert!(f.torso_down, "the torso reached zero");
    let rolled = super::log_values(&app)
        .iter()
        .any(|l| l["actor"] == "odo" && l["kind"] == "roll" && l["what"] == "Defy to stay conscious");
    assert!(rolled, "a Defy roll to stay conscious");
    crate::ending::finish(app.world_mut(), "test");
    assert_eq!(app.world().get::<Status>(e), Some(&Status::Dead), "unhealed at the end: dead");
}

#[test]
fn a_potion_on_an_empty_torso_saves_its_drinker_from_dying_at_the_end() {
    let mut app = table(CROSSING, 4, false);
    let e = who(&app, "brann");
    let mut f = app.world().get::<Fighter>(e).expect("fighter").clone();
    f.health.torso = 0;
    f.torso_down = true;
    app.world_mut().entity_mut(e).insert(f);
    combat::heal(app.world_mut(), e, 4, true, "potion");
    let f = app.world().get::<Fighter>(e).expect("fighter");
    assert!(!f.torso_down && f.health.torso == 4, "healed: {:?}", f.health);
    crate::ending::finish(app.world_mut(), "test");
    assert_ne!(app.world().get::<Status>(e), Some(&Status::Dead));
}

#[test]
fn the_second_attack_of_a_turn_rolls_its_skill_die_at_disadvantage() {
    let mut app = table(CROSSING, 5, false);
    let (e, t) = (who(&app, "brann"), who(&app, "bandit_a"));
    crate::turns::place(app.world_mut(), t, [-6.0, 1.0]);
    assert!(!combat::disadvantage(app.world(), e, t, 0, true), "the first attack");
    app.world_mut().get_mut::<Fighter>(e).expect("fighter").actions = 2;
    let plan = combat::AttackPlan {
        target: t,
        weapon: 0,
        bonus: 0,
        costs_action: true,
        counter: false,
        technique: None,
    };
    combat::attack(app.world_mut(), e, plan);
    app.world_mut().resource_mut::<Battle>().pending = None;
    assert!(combat::disadvantage(app.world(), e, t, 0, true), "the second, paid with an action");
    assert!(!combat::disadvantage(app.world(), e, t, 0, false), "an attack costing no action is exempt");
    combat::attack(app.world_mut(), e, plan);
    let rolls: Vec<usize> = super::log_values(&app)
        .iter()
        .filter(|l| l["actor"] == "brann" && l["kind"] == "roll")
        .map(|l| l["dice"].as_array().map_or(0, Vec::len))
        .collect();
    assert_eq!(rolls, [2, 3], "d12 + d8, then d12 + two d8 keeping the lower");
}

#[test]
fn one_flees_on_a_slow_turn_from_the_battlefields_edge_only() {
    use fray_core::phase::CurrentPhase;
    use fray_core::ruleset::Ruleset;

    use crate::phase::Speed;
    use crate::{FastSlow, FastSlowIntent, FastSlowPhase};
    let mut app = table(CROSSING, 5, false);
    let e = who(&app, "brann");
    app.world_mut().insert_resource(CurrentPhase::new(FastSlowPhase::SlowTurns));
    app.world_mut().resource_mut::<Battle>().turn = Some(e);
    app.world_mut().get_mut::<Fighter>(e).expect("fighter").speed = Some(Speed::Slow);
    let refused = FastSlow::validate(app.world(), e, &FastSlowIntent::Flee).expect_err("refused").0;
    assert!(refused.contains("Paces from the battlefield's edge"), "{refused}");
    crate::turns::place(app.world_mut(), e, [-11.5, 1.0]);
    assert!(
        FastSlow::validate(app.world(), e, &FastSlowIntent::Flee).is_ok(),
        "half a Pace from the west edge"
    );
    app.world_mut().get_mut::<Fighter>(e).expect("fighter").speed = Some(Speed::Fast);
    let fast = FastSlow::validate(app.world(), e, &FastSlowIntent::Flee).expect_err("refused").0;
    assert_eq!(fast, "fleeing takes a Slow turn");
}

/// A hit of `attacker`'s first weapon on `defender`, with a technique.
fn landed(
    attacker: bevy_ecs::entity::Entity,
    defender: bevy_ecs::entity::Entity,
    technique: Option<crate::data::TechniqueEffect>,
) -> PendingHit {
    PendingHit {
        attacker: Some(attacker),
        weapon: Some(0),
        technique,
        ..hit(false, HitKind::Attack(WeaponKind::Weapon), defender)
    }
}

#[test]
fn a_technique_rides_on_a_hit_that_lands_and_a_follow_up_is_reduced_as_the_hit_was() {
    use crate::phase::Reduction;
    let mut app = table(CROSSING, 8, false);
    let (odo, gorm) = (who(&app, "odo"), who(&app, "gorm"));
    let pinning = 0;
    assert!(combat::check_bold(app.world(), odo, pinning, gorm).is_err(), "no hit yet: no follow-up");
    let knock = landed(odo, gorm, Some(crate::data::TechniqueEffect::Knockdown));
    combat::land(app.world_mut(), &knock, Reduction::Toughness(2));
    assert!(app.world().get::<Fighter>(gorm).expect("fighter").prone, "the knockdown rides on the hit");
    app.world_mut().get_mut::<Fighter>(odo).expect("fighter").speed = Some(crate::phase::Speed::Slow);
    assert!(combat::check_bold(app.world(), odo, pinning, gorm).is_ok(), "a follow-up after the hit");
    let stamina = app.world().get::<Fighter>(gorm).expect("fighter").stamina;
    combat::bold(app.world_mut(), odo, pinning, gorm);
    let damage: Vec<serde_json::Value> = super::log_values(&app)
        .into_iter()
        .filter(|l| l["kind"] == "damage" && l["source"]["name"] == "Pinning shot")
        .collect();
    assert_eq!(damage.len(), 1, "one separate source: {damage:?}");
    // Gorm's Toughness is 1: the Brace that took 2 off the hit takes 2 off the follow-up too.
    assert_eq!((damage[0]["amount"].as_u64(), damage[0]["reduced"].as_u64()), (Some(2), Some(2)));
    assert_eq!(app.world().get::<Fighter>(gorm).expect("fighter").stamina, stamina);
    assert!(
        super::log_values(&app)
            .iter()
            .any(|l| l["kind"] == "tokens" && l["actor"] == "odo" && l["token"] == "fog")
    );
}

#[test]
fn staked_fog_adds_to_the_next_attack_roll_only_up_to_the_limit() {
    let mut app = table(CROSSING, 9, false);
    let (e, t) = (who(&app, "brann"), who(&app, "bandit_a"));
    crate::turns::place(app.world_mut(), t, [-6.0, 1.0]);
    app.world_mut().get_mut::<Fighter>(e).expect("fighter").actions = 2;
    assert!(combat::check_stake(app.world(), e, 3).is_ok());
    assert!(combat::check_stake(app.world(), e, 4).is_err(), "at most 3");
    combat::stake(app.world_mut(), e, 2);
    assert!(combat::check_stake(app.world(), e, 2).is_err(), "2 staked, 2 more is past 3");
    let plan = combat::AttackPlan {
        target: t,
        weapon: 0,
        bonus: 0,
        costs_action: true,
        counter: false,
        technique: None,
    };
    combat::attack(app.world_mut(), e, plan);
    let roll = super::log_values(&app)
        .into_iter()
        .rfind(|l| l["kind"] == "roll" && l["actor"] == "brann")
        .expect("a roll");
    let staked = roll["modifiers"]
        .as_array()
        .expect("modifiers")
        .iter()
        .any(|m| m["what"] == "FOG staked" && m["value"] == 2);
    assert!(staked, "the stake is itemised: {roll}");
    assert_eq!(roll["modifier"], 5, "might 3 + 2 staked");
    assert_eq!(app.world().get::<Fighter>(e).expect("fighter").staked, 0, "spent on that roll");
}

#[test]
fn a_skill_roll_costs_an_action_and_is_logged_against_the_skill_dl() {
    let mut app = table(CROSSING, 9, false);
    let e = who(&app, "odo");
    app.world_mut().get_mut::<Fighter>(e).expect("fighter").actions = 2;
    assert!(combat::check_skill(app.world(), e, "lockpicking").is_err(), "not on the sheet");
    combat::skill_roll(app.world_mut(), e, "bows");
    assert_eq!(app.world().get::<Fighter>(e).expect("fighter").actions, 1);
    let roll = super::log_values(&app).into_iter().rfind(|l| l["kind"] == "roll").expect("a roll");
    assert_eq!((roll["what"].as_str(), roll["difficulty"].as_u64()), (Some("skill roll: bows"), Some(8)));
}

#[test]
fn a_sustained_spell_strikes_in_as_many_upkeeps_whether_cast_on_a_fast_or_a_slow_turn() {
    use crate::phase::Reduction;
    for slow in [false, true] {
        let mut app = table(CROSSING, 3, false);
        let (ysolde, gorm) = (who(&app, "ysolde"), who(&app, "gorm"));
        app.world_mut().get_mut::<Fighter>(gorm).expect("fighter").stamina = 1000;
        // A Slow turn comes after its round's upkeep, a Fast turn before it.
        if slow {
            crate::upkeep::upkeep(app.world_mut());
        }
        combat::land(app.world_mut(), &landed(ysolde, gorm, None), Reduction::None);
        if !slow {
            crate::upkeep::upkeep(app.world_mut());
        }
        for _ in 0..5 {
            crate::upkeep::end_of_round(app.world_mut());
            if super::log_values(&app).iter().any(|l| l["what"] == "sustain_ran_out") {
                break;
            }
            crate::upkeep::upkeep(app.world_mut());
        }
        let struck = super::log_values(&app)
            .iter()
            .filter(|l| {
                l["kind"] == "roll"
                    && l["what"].as_str().is_some_and(|w| w.starts_with("Ember dart sustained"))
            })
            .count();
        assert_eq!(
            struck,
            2,
            "cast on a {} turn: the dart's 2 rounds are 2 upkeeps",
            if slow { "Slow" } else { "Fast" }
        );
    }
}

#[test]
fn numbers_no_fight_can_use_are_refused_each_with_its_field_named() {
    use fray_core::ruleset::Ruleset;
    let text = CROSSING
        .replace("effect: Knockdown)", "effect: Shove(paces: 1e30))")
        .replace("bonus: 3))],", "bonus: 4000000000))],")
        .replace("reach: 8.0, kind: Spell,", "reach: 8.0, kind: Spell, poison: 4294967295,")
        .replace("potions: 1)),", "potions: 1, joins: 4000000000)),");
    let err = crate::FastSlow::parse(&text).expect_err("refused");
    let all = err.to_string();
    for part in [
        "combatant 'brann': technique 'Hamstring': Shove paces 1000000000000000000000000000000",
        "combatant 'brann': bold action 'Crushing blow': Strike bonus 4000000000; it must be 0 to 100",
        "combatant 'ysolde': weapon 'ember_dart': poison 4294967295; it lasts 0 to 100 rounds",
        "combatant 'brann': joins in round 4000000000",
    ] {
        assert!(all.contains(part), "{part} in: {all}");
    }
    let bleed = CROSSING.replace("effect: Knockdown)", "effect: Bleed(rounds: 0))");
    let err = crate::FastSlow::parse(&bleed).expect_err("refused").to_string();
    assert!(err.contains("Bleed rounds 0; it lasts 1 to 100 rounds"), "{err}");
}

#[test]
fn a_spell_is_cast_at_its_target_and_a_weapon_attacks_with() {
    let mut app = table(CROSSING, 9, false);
    let ysolde = who(&app, "ysolde");
    // Ysolde's Fast turn.
    fray_core::phase::go_to(app.world_mut(), crate::phase::FastSlowPhase::FastTurns);
    {
        let mut battle = app.world_mut().resource_mut::<Battle>();
        (battle.committing, battle.pending, battle.counter, battle.turn) = (false, None, None, Some(ysolde));
    }
    let labels: Vec<String> =
        crate::board::choices(app.world(), ysolde).into_iter().map(|c| c.label).collect();
    assert!(labels.iter().any(|l| l.starts_with("Cast Ember dart at ")), "{labels:?}");
    assert!(!labels.iter().any(|l| l.starts_with("Cast ") && l.contains(" with ")), "{labels:?}");
}
