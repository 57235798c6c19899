//! The action table and the weapon qualities one by one, on a small field set up by hand:
//! what each costs, what it adds to the roll or the damage, what it forbids.

use bevy_app::App;
use bevy_ecs::prelude::*;

use super::rules::{fighter, place, sheet, turn_of};
use super::{log_values, table, who};
use crate::combat::{AttackPlan, plan_attack};
use crate::data::{Condition, Reaction};
use crate::intent::{ApLadderIntent, MoveKind, PushWay, StuntKind};
use crate::phase::{Battle, Fighter};

/// X (side A, wielding its first weapon) one yard from Y (side B, a sword); Z of side B
/// beside Y; four allies of X out of the way; a field 40 by 20 yards with a patch of hard
/// ground at (-10, 5).
fn field(x_weapons: &str) -> String {
    let sheet = sheet(40, 30);
    let allies: String = (0..5)
        .map(|n| {
            format!(
                r#"(id: "a{n}", name: "A{n}", side: "a", position: (-18.0, {}.0), sheet: {sheet})),"#,
                n * 2 - 9
            )
        })
        .collect();
    format!(
        r#"Scenario(name: "actions", ruleset: "ap_ladder", sides: [(id: "a", name: "A"), (id: "b", name: "B")],
           rules: (field: (40.0, 20.0), areas: [(id: "mud", name: "Mud", kind: Hard, at: (-10.0, 5.0), radius: 2.0)]),
           combatants: [(id: "x", name: "X", side: "a", position: (0.0, 0.0), sheet: {sheet},
                         weapons: [{x_weapons}], wields: Some(0), skills: {{Leadership: 30}})),
                        {allies}
                        (id: "y", name: "Y", side: "b", position: (1.0, 0.0), sheet: {sheet},
                         weapons: [(id: "sword", name: "Sword", kind: Melee, skill: MartialMelee, damage: 2, qualities: [Defensive])],
                         wields: Some(0))),
                        (id: "z", name: "Z", side: "b", position: (1.0, 9.0), sheet: {sheet}))])"#
    )
}

/// A weapon of `kind` (`Melee`, `Ranged`, `Thrown`): damage 2, short range 5 yards.
fn weapon(name: &str, kind: &str, qualities: &str) -> String {
    let skill = if kind == "Melee" { "MartialMelee" } else { "MartialRanged" };
    format!(
        r#"(id: "{}", name: "{name}", kind: {kind}, skill: {skill}, damage: 2, range: 5.0, qualities: [{qualities}])"#,
        name.to_lowercase()
    )
}

/// X's turn open on the field, X wielding weapon `w`.
fn x_wielding(text: &str, w: usize) -> (App, Entity, Entity) {
    x_wielding_seeded(text, w, 1)
}

/// X's turn open on the field with this seed, X wielding weapon `w`.
fn x_wielding_seeded(text: &str, w: usize, seed: u64) -> (App, Entity, Entity) {
    let mut app = table(text, seed, false);
    let x = turn_of(&mut app, "x");
    app.world_mut().get_mut::<Fighter>(x).expect("fighter").wielding = Some(w);
    let y = who(&app, "y");
    (app, x, y)
}

fn plan(app: &App, x: Entity, y: Entity) -> AttackPlan {
    plan_attack(app.world(), x, y, None, 0, false).unwrap_or_else(|r| panic!("refused: {}", r.0))
}

fn refusal(app: &App, x: Entity, y: Entity) -> String {
    plan_attack(app.world(), x, y, None, 0, false).expect_err("refused").0.to_string()
}

fn modifier(plan: &AttackPlan, what: &str) -> Option<i64> {
    plan.modifiers.iter().find(|m| m.what == what).map(|m| m.value)
}

#[test]
fn fast_and_slow_weapons_shift_the_defence_and_gunpowder_leaves_none_even_point_blank() {
    let text = field(
        &[
            weapon("Rapier", "Melee", "Fast"),
            weapon("Maul", "Melee", "Slow"),
            weapon("Bow", "Ranged", ""),
            weapon("Pistol", "Ranged", "Gunpowder"),
        ]
        .join(", "),
    );
    let (mut app, x, y) = x_wielding(&text, 0);
    assert_eq!(plan(&app, x, y).defence_mod, -10, "Fast: -10 to the defender's reaction");
    app.world_mut().get_mut::<Fighter>(x).expect("fighter").wielding = Some(1);
    assert_eq!(plan(&app, x, y).defence_mod, 10, "Slow: +10");
    app.world_mut().get_mut::<Fighter>(x).expect("fighter").wielding = Some(2);
    assert_eq!(refusal(&app, x, y), "X is engaged: no ranged attack but with a Gunpowder weapon");
    app.world_mut().get_mut::<Fighter>(x).expect("fighter").wielding = Some(3);
    let shot = plan(&app, x, y);
    assert!(shot.ranged, "a Gunpowder weapon fires while engaged");
    assert!(shot.allowed.is_empty(), "a Gunpowder shot is neither dodged nor parried");
}

#[test]
fn each_range_step_costs_ten_extreme_range_rolls_no_fury_die_and_thrown_weapons_reach_short_only() {
    let text = field(&[weapon("Bow", "Ranged", ""), weapon("Axe", "Thrown", "")].join(", "));
    let (mut app, x, y) = x_wielding(&text, 0);
    let steps = [(4.0, None, 1), (8.0, Some(-10), 1), (14.0, Some(-20), 1), (19.0, Some(-30), 0)];
    for (yards, step, fury) in steps {
        place(&mut app, "y", [yards, 0.0]);
        let shot = plan(&app, x, y);
        let taken = shot.modifiers.iter().find(|m| m.what.ends_with("range")).map(|m| m.value);
        assert_eq!((taken, shot.fury), (step, fury), "at {yards} yards with a 5-yard short range");
    }
    place(&mut app, "x", [-2.0, 0.0]);
    assert_eq!(refusal(&app, x, y), "Y is 21.0 yards away: beyond extreme range (20 yards)");
    place(&mut app, "x", [0.0, 0.0]);
    app.world_mut().get_mut::<Fighter>(x).expect("fighter").wielding = Some(1);
    place(&mut app, "y", [4.0, 0.0]);
    assert!(plan(&app, x, y).ranged, "an axe is thrown at short range");
    place(&mut app, "y", [8.0, 0.0]);
    assert_eq!(refusal(&app, x, y), "Axe is thrown at short range only (5 yards); Y is 8.0 away");
}

#[test]
fn punishing_costs_an_ap_for_a_fury_die_a_called_shot_two_ap_and_all_out_ten_a_chaos_die() {
    let text = field(&[weapon("Club", "Melee", ""), weapon("Flail", "Melee", "Punishing")].join(", "));
    let (mut app, x, y) = x_wielding(&text, 0);
    let plain = plan(&app, x, y);
    assert_eq!((plain.ap, plain.fury), (1, 1));
    let refused = plan_attack(app.world(), x, y, None, 0, true).expect_err("not Punishing");
    assert_eq!(refused.0, "Club is not Punishing");
    app.world_mut().get_mut::<Fighter>(x).expect("fighter").wielding = Some(1);
    let punishing = plan_attack(app.world(), x, y, None, 0, true).expect("Punishing");
    assert_eq!((punishing.ap, punishing.fury), (2, 2), "one AP more, one Fury Die more");
    let called = plan_attack(app.world(), x, y, Some(crate::intent::Aim::Head), 0, false).expect("called");
    assert_eq!(called.ap, 2, "a called shot takes 2 AP");
    assert_eq!(modifier(&called, "called shot: head"), Some(-30));
    assert!(called.allowed.is_empty(), "a called shot is neither dodged nor parried");
    let all_out = plan_attack(app.world(), x, y, None, 2, false).expect("all-out");
    assert_eq!((modifier(&all_out, "all-out"), all_out.all_out), (Some(20), 2), "+10 a Chaos Die");
    let refused = plan_attack(app.world(), x, y, None, 4, false).expect_err("four");
    assert_eq!(refused.0, "all-out adds at most +30: three Chaos Dice");
    app.world_mut().get_mut::<Fighter>(x).expect("fighter").ap = 1;
    let refused = plan_attack(app.world(), x, y, None, 0, true).expect_err("one AP");
    assert_eq!(refused.0, "it costs 2 AP; 1 left");
}

#[test]
fn a_charge_and_six_foes_to_one_each_add_a_fury_die_to_a_blow() {
    let text = field(&weapon("Club", "Melee", ""));
    let (mut app, x, y) = x_wielding(&text, 0);
    app.world_mut().get_mut::<Fighter>(x).expect("fighter").charged = true;
    assert_eq!(plan(&app, x, y).fury, 2, "a charge adds a Fury Die");
    app.world_mut().get_mut::<Fighter>(x).expect("fighter").charged = false;
    // Five allies of X round Y: six foes on Y alone.
    let round = [[1.0, 1.0], [2.0, 1.0], [2.0, 0.0], [2.0, -1.0], [1.0, -1.0]];
    for (n, at) in round.iter().take(4).enumerate() {
        place(&mut app, &format!("a{n}"), *at);
    }
    assert_eq!(plan(&app, x, y).fury, 1, "five to one is not enough");
    place(&mut app, "a4", round[4]);
    assert_eq!(plan(&app, x, y).fury, 2, "six to one adds a Fury Die");
    place(&mut app, "z", [0.5, 1.0]);
    assert_eq!(plan(&app, x, y).fury, 1, "Z engaged beside Y: six to two");
}

#[test]
fn hard_ground_and_a_brace_weapon_forbid_charge_maneuver_and_run_but_not_a_walk() {
    let text = field(&[weapon("Club", "Melee", ""), weapon("Pike", "Melee", "Brace")].join(", "));
    let (mut app, x, _) = x_wielding(&text, 0);
    place(&mut app, "y", [10.0, -8.0]);
    place(&mut app, "x", [-10.0, 0.0]);
    for how in [MoveKind::Charge, MoveKind::Maneuver, MoveKind::Run] {
        let through = crate::moves::plan_move(app.world(), x, [-10.0, 6.0], how).expect_err("hard ground");
        assert_eq!(through.0, format!("no {} through hard terrain", how.word()));
    }
    crate::moves::plan_move(app.world(), x, [-10.0, 5.0], MoveKind::Walk).expect("a walk crosses mud");
    crate::moves::plan_move(app.world(), x, [-4.0, 0.0], MoveKind::Run).expect("a run on open ground");
    app.world_mut().get_mut::<Fighter>(x).expect("fighter").wielding = Some(1);
    let braced = crate::moves::plan_move(app.world(), x, [-4.0, 0.0], MoveKind::Run).expect_err("Brace");
    assert_eq!(braced.0, "no run while wielding a Brace weapon");
}

#[test]
fn taking_aim_adds_ten_an_ap_once_a_turn_and_the_first_swap_of_a_turn_is_free() {
    let text = field(&[weapon("Bow", "Ranged", ""), weapon("Knife", "Melee", "")].join(", "));
    let (mut app, x, y) = x_wielding(&text, 0);
    place(&mut app, "y", [4.0, 0.0]);
    assert_eq!(
        crate::specials::check_aim(app.world(), x, 3).expect_err("3 AP").0,
        "taking aim costs 1 AP (+10) or 2 AP (+20)"
    );
    assert_eq!(crate::specials::check_aim(app.world(), x, 2), Ok(()));
    crate::specials::aim(app.world_mut(), x, 2);
    assert_eq!(fighter(&app, "x").ap, 1);
    assert_eq!(modifier(&plan(&app, x, y), "aim"), Some(20));
    assert_eq!(crate::specials::check_aim(app.world(), x, 1).expect_err("twice").0, "aim is taken already");
    assert_eq!(crate::specials::check_swap(app.world(), x, Some(1)), Ok(0), "the first swap is free");
    crate::specials::swap(app.world_mut(), x, Some(1), 0);
    assert_eq!(fighter(&app, "x").wielding, Some(1));
    assert_eq!(crate::specials::check_swap(app.world(), x, Some(0)), Ok(1), "the next costs an AP");
    crate::ladder::start_turn(app.world_mut(), x);
    assert_eq!(crate::specials::check_swap(app.world(), x, Some(0)), Ok(0), "free again next turn");
    assert_eq!(fighter(&app, "x").aim, 0, "aim lasts its turn");
}

#[test]
fn inspiring_words_are_spoken_once_a_fight_shifted_by_the_speakers_wounds() {
    assert_eq!((0..5).map(crate::specials::condition_modifier).collect::<Vec<_>>(), [20, 10, 0, -10, -20]);
    let text = field(&weapon("Club", "Melee", ""));
    let mut inspired = false;
    for seed in 0..20 {
        let mut app = table(&text, seed, false);
        let x = turn_of(&mut app, "x");
        place(&mut app, "a0", [-2.0, 0.0]);
        crate::specials::check_speech(app.world(), x, true).expect("A0 hears");
        crate::specials::speech(app.world_mut(), x, true);
        assert_eq!(fighter(&app, "x").ap, 2);
        let spoken = crate::specials::check_speech(app.world(), x, true).expect_err("once");
        assert_eq!(spoken.0, "Inspiring words is spoken once a fight");
        let test = log_values(&app)
            .into_iter()
            .rfind(|l| l["kind"] == "roll" && l["what"] == "Inspiring words")
            .expect("a Leadership test");
        if test["success"] == true {
            assert!(fighter(&app, "a0").has(Condition::Inspired), "seed {seed}: A0 inspired");
            assert!(!fighter(&app, "a1").has(Condition::Inspired), "A1 is out of hearing");
            inspired = true;
        } else {
            assert!(!fighter(&app, "a0").has(Condition::Inspired), "seed {seed}: a failed speech");
        }
    }
    assert!(inspired, "some speech in 20 seeds succeeds");
}

#[test]
fn a_defensive_weapon_parries_ten_better_and_a_fast_blow_is_ten_harder_to_answer() {
    let text = field(&[weapon("Club", "Melee", ""), weapon("Rapier", "Melee", "Fast")].join(", "));
    let (mut app, x, y) = x_wielding(&text, 0);
    app.world_mut().get_mut::<Fighter>(y).expect("fighter").ap = 1;
    let chance = |app: &mut App, r: Reaction| {
        let cause = app.world_mut().resource_mut::<Battle>().cause();
        let mut p =
            crate::phase::PendingAttack::new(cause, x, y, crate::phase::Strike::Weapon(Some(0)), "body");
        p.allowed = vec![Reaction::Dodge, Reaction::Parry];
        p.defence_mod = plan(app, x, y).defence_mod;
        let found = crate::combat::reactions(app.world(), &p).into_iter().find(|(k, _)| *k == r);
        found.and_then(|(_, v)| v.ok()).expect("allowed")
    };
    let (dodge, parry) = (chance(&mut app, Reaction::Dodge), chance(&mut app, Reaction::Parry));
    let f = fighter(&app, "y");
    let (coordination, melee) =
        (f.sheet.chance(crate::data::Skill::Coordination), f.sheet.chance(crate::data::Skill::MartialMelee));
    assert_eq!((dodge, parry), (coordination, melee + 10), "the Defensive sword parries at +10");
    app.world_mut().get_mut::<Fighter>(x).expect("fighter").wielding = Some(1);
    assert_eq!(chance(&mut app, Reaction::Parry), melee, "a Fast rapier's -10 takes it back");
}

#[test]
fn an_ineffective_weapon_harms_no_one_and_loading_fills_volley_and_repeating_weapons() {
    let text = field(&weapon("Feather", "Melee", "Ineffective"));
    let (mut app, x, y) = x_wielding(&text, 0);
    let cause = app.world_mut().resource_mut::<Battle>().cause();
    let p = crate::phase::PendingAttack {
        fury: 6,
        ..crate::phase::PendingAttack::new(cause, x, y, crate::phase::Strike::Weapon(Some(0)), "body")
    };
    crate::combat::land(app.world_mut(), &p);
    assert_eq!(fighter(&app, "y").damage, 0);
    let log = log_values(&app);
    assert!(log.iter().any(|l| l["what"] == "no_damage" && l["detail"] == "Ineffective"), "logged");
    assert!(!log.iter().any(|l| l["what"] == "Fury Dice"), "no damage rolled");
    let loads = |q: &str| {
        let w = format!(
            r#"(id: "xbow", name: "Crossbow", kind: Ranged, skill: MartialRanged, damage: 3, range: 10.0, load: 2, qualities: [{q}])"#
        );
        let (mut app, x, _) = x_wielding(&field(&w), 0);
        app.world_mut().get_mut::<Fighter>(x).expect("fighter").loaded[0] = 0;
        let w = crate::specials::check_load(app.world(), x).expect("empty");
        crate::specials::load(app.world_mut(), x, w);
        (fighter(&app, "x").ap, fighter(&app, "x").loaded[0])
    };
    assert_eq!(loads(""), (1, 1), "2 AP to load one shot");
    assert_eq!(loads("Repeating"), (1, 3), "a Repeating weapon holds 3");
    assert_eq!(loads("Volley"), (1, 9), "a Volley weapon 9");
}

#[test]
fn entangling_forces_a_takedown_resist_flipped_to_fail_and_powerful_a_push_resist() {
    for (quality, resist, flipped) in
        [("Entangling", "Resist Takedown", true), ("Powerful", "Resist Push", false)]
    {
        let text = field(&weapon("Net", "Melee", quality));
        let (mut app, x, y) = x_wielding(&text, 0);
        let cause = app.world_mut().resource_mut::<Battle>().cause();
        let p = crate::phase::PendingAttack::new(cause, x, y, crate::phase::Strike::Weapon(Some(0)), "body");
        crate::combat::land(app.world_mut(), &p);
        let log = log_values(&app);
        let test = log.iter().find(|l| l["kind"] == "roll" && l["what"] == resist);
        let test = test.unwrap_or_else(|| panic!("{quality}: Y resists after the hit; log {log:?}"));
        assert_eq!(test.to_string().contains("flipped to fail"), flipped, "{quality}: {test}");
    }
}

#[test]
fn a_trample_takes_a_mount_and_an_engaged_foe_and_only_a_dodge_answers_it() {
    let text = field(&weapon("Club", "Melee", ""));
    let (app, x, y) = x_wielding(&text, 0);
    assert_eq!(
        crate::specials::check_trample(app.world(), x, y).expect_err("on foot").0,
        "trampling takes a mount or a vehicle"
    );
    let sheet = super::rules::sheet(40, 30);
    let text = format!(
        r#"Scenario(name: "trample", ruleset: "ap_ladder", sides: [(id: "a", name: "A"), (id: "b", name: "B")],
           mounts: [(id: "horse", name: "Destrier", position: (0.0, 0.0), sheet: (kind: Destrier, agility_bonus: 4, brawn_bonus: 6))],
           combatants: [(id: "k", name: "Knight", side: "a", rides: "horse", sheet: {sheet}, skills: {{Ride: 20}})),
                        (id: "y", name: "Y", side: "b", position: (1.0, 0.0), sheet: {sheet}))])"#
    );
    let mut asked = false;
    for seed in 0..30 {
        let mut app = table(&text, seed, false);
        let k = turn_of(&mut app, "k");
        let y = who(&app, "y");
        app.world_mut().get_mut::<Fighter>(y).expect("fighter").ap = 1;
        assert_eq!(crate::specials::check_trample(app.world(), k, y), Ok(()));
        crate::specials::trample(app.world_mut(), k, y);
        assert_eq!(fighter(&app, "k").ap, 2);
        if let Some(p) = app.world().resource::<Battle>().pending.clone() {
            assert_eq!(p.allowed, [Reaction::Dodge], "seed {seed}: only a Dodge answers a trample");
            assert_eq!(p.strike, crate::phase::Strike::Trample);
            asked = true;
        }
    }
    assert!(asked, "some trample in 30 seeds hits");
}

#[test]
fn a_push_shoves_two_yards_back_or_one_to_either_side_and_a_takedown_costs_an_ap_more() {
    let text = field(&weapon("Club", "Melee", ""));
    // X at (0, 0) faces Y at (1, 0): back is east, X's left north, its right south.
    for (way, to) in [(PushWay::Back, [3.0, 0.0]), (PushWay::Left, [1.0, 1.0]), (PushWay::Right, [1.0, -1.0])]
    {
        let kind = StuntKind::Push { takedown: false, way };
        let (app, x, y) = x_wielding(&text, 0);
        assert_eq!(crate::stunts::check_stunt(app.world(), x, y, kind), Ok(1), "{way:?}");
        let both = StuntKind::Push { takedown: true, way };
        assert_eq!(crate::stunts::check_stunt(app.world(), x, y, both), Ok(2), "{way:?} with a takedown");
        let offered = crate::board::choices(app.world(), x);
        let label = format!("{} on Y (1 AP", kind.word());
        assert!(
            offered.iter().any(|c| c.intent == ApLadderIntent::Stunt { target: "y".into(), kind }
                && c.label.starts_with(&label)),
            "{way:?}: offered as {label:?}"
        );
        // Played on several seeds: where it lands, Y stands exactly there; else it stays.
        let mut landed = 0;
        for seed in 1..40 {
            let (mut app, x, y) = x_wielding_seeded(&text, 0, seed);
            crate::stunts::stunt(app.world_mut(), x, y, kind, 1);
            let at = crate::field::position(app.world(), y);
            if at != [1.0, 0.0] {
                assert!((at[0] - to[0]).abs() < 1e-4 && (at[1] - to[1]).abs() < 1e-4, "{way:?}: Y at {at:?}");
                landed += 1;
            }
        }
        assert!(landed > 0, "{way:?}: no push landed in 39 seeds");
    }
    // The log says which way only for a side push (older logs stay as they were).
    let back = serde_json::to_string(&StuntKind::Push { takedown: false, way: PushWay::Back }).expect("json");
    assert_eq!(back, r#"{"Push":{"takedown":false}}"#);
    let left = serde_json::to_string(&StuntKind::Push { takedown: false, way: PushWay::Left }).expect("json");
    assert_eq!(left, r#"{"Push":{"takedown":false,"way":"Left"}}"#);
    let old: StuntKind = serde_json::from_str(&back).expect("an old push");
    assert_eq!(old, StuntKind::Push { takedown: false, way: PushWay::Back });
}

#[test]
fn a_reaction_takes_the_opposite_of_the_attacks_size_modifier_both_ways() {
    let sheet = sheet(40, 30);
    let club = r#"weapons: [(id: "club", name: "Club", kind: Melee, skill: SimpleMelee, damage: 1)], wields: Some(0)"#;
    let text = format!(
        r#"Scenario(name: "giant", ruleset: "ap_ladder", sides: [(id: "a", name: "A"), (id: "b", name: "B")],
           combatants: [(id: "giant", name: "Giant", side: "a", position: (0.0, 0.0), sheet: {sheet}, size: 3, {club})),
                        (id: "villager", name: "Villager", side: "b", position: (1.0, 0.0), sheet: {sheet}, {club}))])"#
    );
    // The defender's chances against an attack by `by` on `on`, and the attack's size modifier.
    let answer = |by: &str, on: &str| {
        let mut app = table(&text, 1, false);
        let attacker = turn_of(&mut app, by);
        let defender = who(&app, on);
        app.world_mut().get_mut::<Fighter>(defender).expect("fighter").ap = 1;
        let plan = plan_attack(app.world(), attacker, defender, None, 0, false).expect("in reach");
        let size = plan.modifiers.iter().find(|m| m.what == "size").map_or(0, |m| m.value);
        let cause = app.world_mut().resource_mut::<Battle>().cause();
        let p = crate::phase::PendingAttack {
            allowed: plan.allowed.clone(),
            difficulty: plan.modifiers.iter().map(|m| m.value as i32).sum(),
            ..crate::phase::PendingAttack::new(cause, attacker, defender, plan.strike, "body")
        };
        let chance = |r: Reaction| {
            let found = crate::combat::reactions(app.world(), &p).into_iter().find(|(k, _)| *k == r);
            found.and_then(|(_, v)| v.ok()).expect("allowed")
        };
        let f = fighter(&app, on);
        let skills = (
            f.sheet.chance(crate::data::Skill::Coordination),
            f.sheet.chance(crate::data::Skill::SimpleMelee),
        );
        (size, (chance(Reaction::Dodge), chance(Reaction::Parry)), skills)
    };
    let (size, chances, (dodge, parry)) = answer("giant", "villager");
    assert_eq!(size, -20, "the giant's blow at a villager two sizes smaller: -20");
    assert_eq!(chances, (dodge + 20, parry + 20), "so the villager answers it at +20");
    let (size, chances, (dodge, parry)) = answer("villager", "giant");
    assert_eq!(size, 20, "the villager's blow at a giant: +20");
    assert_eq!(chances, (dodge - 20, parry - 20), "so the giant answers it at -20");
}
