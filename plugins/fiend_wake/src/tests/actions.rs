//! Fiend Wake's full actions, simple actions, reactions and spells, one scenario each, with
//! their refusals. Skill levels of 10 against Evasion 0 (or 99) make the dice certain where a
//! test needs a hit (or a miss).

use crate::damage;
use crate::data::Attribute;
use crate::sheet::{Attributes, MountTraits, Spells};
use crate::view::entry_cost;
use crate::{ActiveTurn, FiendWakeIntent, FiendWakePhase};
use fray_core::log::{LogEntry, LogEvent};
use fray_core::prelude::{CombatantId, Counters, LocationId, MountId, Rides, Status};

use super::support::Table;
use crate::counters::*;

/// Everyone is human-controlled. "ace" and "pal" (side a) stand in no location; "foe" and
/// "foe2" (side b) hold the tower; "runner" (side b) stands in no location.
const ARENA: &str = r#"
Scenario(
    name: "Arena", ruleset: "fiend_wake", seed: 5,
    rules: (
        weapons: {
            "rifle": (name: "Rifle", kind: Ranged, skill: Firearms, first_intention: 5, second_intention: 1, ready_cost: 2),
            "sword": (name: "Sword", kind: Melee, skill: Blades, first_intention: 4, second_intention: 2),
            "cannon": (name: "Cannon", kind: Ranged, skill: Artillery, first_intention: 3, second_intention: 1, siege: 1),
        },
        armours: { "light": (name: "Light", reduction: 1, encumbrance: 1) },
    ),
    sides: [(id: "a", name: "A"), (id: "b", name: "B")],
    locations: [
        (id: "tower", name: "Tower", entry_cost: 2, properties: [RubblePerSiege(1), CollapsesAt(2), Cover(2)]),
        (id: "hut", name: "Hut"),
    ],
    mounts: [
        (id: "horse", name: "Horse", sheet: (entry_discount: 1, evasion_bonus: 2, melee_bonus: 3)),
        (id: "boar", name: "Boar", sheet: (untrained: true, wranglable: true, training_difficulty: 8)),
        (id: "mule", name: "Mule", sheet: (untrained: true, training_difficulty: 8)),
    ],
    combatants: [
        (id: "ace", name: "Ace", side: "a", controller: Human, sheet: (
            attributes: (power: 3, grace: 1, cunning: 5, endurance: 3, resolve: 2, spirit: 3), evasion: 0,
            skills: {Firearms: 10, Blades: 10, UnarmedCombat: 10, Command: 10, Artillery: 10, Thrown: 10,
                     Medicine: 10, Totemism: 10, Tactics: 10},
            weapons: ["rifle", "sword", "cannon"], ready: "rifle", items: [Grenade, Caltrops],
            spells: [(name: "Ward", upkeep: 1, effect: Reduction(2)), (name: "Mend", upkeep: 2, effect: Regenerate(3))])),
        (id: "pal", name: "Pal", side: "a", controller: Human, sheet: (
            attributes: (power: 2, grace: 1, cunning: 5, endurance: 2, resolve: 2, spirit: 2), evasion: 0,
            skills: {Firearms: 10, Tactics: 10, Blades: 10}, weapons: ["rifle"], ready: "rifle", armour: "light")),
        (id: "foe", name: "Foe", side: "b", controller: Human, location: "tower", sheet: (
            attributes: (power: 2, grace: 1, cunning: 5, endurance: 2, resolve: 2, spirit: 2), evasion: 0,
            weapons: ["sword"], ready: "sword")),
        (id: "foe2", name: "Foe two", side: "b", controller: Human, location: "tower", sheet: (
            attributes: (power: 2, grace: 1, cunning: 5, endurance: 2, resolve: 2, spirit: 2), evasion: 0,
            weapons: ["sword"], ready: "sword")),
        (id: "runner", name: "Runner", side: "b", controller: Human, sheet: (
            attributes: (power: 1, grace: 1, cunning: 5, endurance: 1, resolve: 2, spirit: 2), evasion: 0,
            weapons: ["sword"], ready: "sword")),
    ],
)
"#;

/// The arena in Execute Turns with Ace's turn first and 4 TP (everyone else 7 TP).
fn arena() -> Table {
    let mut t = Table::from_ron(ARENA);
    // Pal wears armour: pay it.
    t.accept("pal", FiendWakeIntent::PayArmour { tp: 1, turn_tokens: 0 });
    for (who, bid) in [("ace", 3), ("pal", 2), ("foe", 1), ("foe2", 0), ("runner", 0)] {
        t.accept(who, FiendWakeIntent::Bid { tp: bid });
    }
    while t.phase() == FiendWakePhase::Cede {
        let who = t.awaiting()[0].clone();
        t.accept(&who, FiendWakeIntent::Cede { cede: false });
    }
    assert_eq!(t.awaiting(), vec!["ace"], "Ace bid most and plays first");
    set_tp(&mut t, "ace", 4);
    for who in ["pal", "foe", "foe2", "runner"] {
        set_tp(&mut t, who, 7);
    }
    t
}

fn set_tp(t: &mut Table, who: &str, tp: u32) {
    let e = t.e(who);
    let mut c = t.world_mut().get_mut::<Counters>(e).expect("a combatant has counters");
    c.clear(TACTICAL_POINT);
    c.add(TACTICAL_POINT, tp);
}

fn id(s: &str) -> CombatantId {
    CombatantId::from(s)
}

fn loc(s: &str) -> LocationId {
    LocationId::from(s)
}

fn wounds(t: &Table, who: &str) -> u32 {
    t.count(who, WOUND)
}

fn refused(t: &mut Table, who: &str, intent: FiendWakeIntent, reason: &str) {
    match t.submit(who, intent.clone()) {
        Ok(()) => panic!("{who}'s {intent:?} should be refused ({reason})"),
        Err(r) => assert!(r.0.contains(reason), "{intent:?}: expected {reason:?}, got {:?}", r.0),
    }
}

fn effects<'a>(log: &'a [LogEntry], what: &str) -> Vec<&'a LogEntry> {
    log.iter().filter(|e| matches!(&e.event, LogEvent::Effect { what: w, .. } if *w == what)).collect()
}

fn damage_to(log: &[LogEntry], who: &str) -> Vec<(u32, u32)> {
    log.iter()
        .filter(|e| e.actor.as_ref().is_some_and(|a| a.as_str() == who))
        .filter_map(|e| match &e.event {
            LogEvent::Damage { amount, taken, .. } => Some((*amount, *taken)),
            _ => None,
        })
        .collect()
}

#[test]
fn eight_mass_damage_against_one_who_leaps_away_is_four() {
    let mut t = arena();
    let (tower, foe) = (t.e("tower"), t.e("foe"));
    damage::mass(t.world_mut(), tower, 8, &[foe], &"a grenade".into());
    assert_eq!(damage_to(&t.log(), "foe"), vec![(4, 4)], "halved before reduction");
    assert_eq!(damage_to(&t.log(), "foe2"), vec![(8, 8)], "who stays takes it all");
    assert_eq!(wounds(&t, "runner"), 0, "outside the area");
}

#[test]
fn a_grenade_lets_occupants_clear_out_and_hits_the_rest_with_mass_damage() {
    let mut t = arena();
    t.accept("ace", FiendWakeIntent::ThrowGrenade { location: loc("tower") });
    assert_eq!(t.awaiting(), vec!["foe"], "occupants are asked, in order, whether to clear out");
    t.accept("foe", FiendWakeIntent::ClearOut);
    assert_eq!(t.tp("foe"), 6, "clearing out costs 1 TP");
    t.accept("foe2", FiendWakeIntent::Decline);
    assert_eq!(damage_to(&t.log(), "foe"), vec![(4, 4)], "8 mass damage, halved for the one who leapt");
    assert_eq!(damage_to(&t.log(), "foe2"), vec![(8, 8)]);
    assert_eq!(t.place("foe"), "field", "who clears out ends in no location");
    assert_eq!(t.place("foe2"), "tower");
    assert_eq!(t.awaiting(), vec!["ace"], "then Ace's turn goes on");
    refused(
        &mut t,
        "ace",
        FiendWakeIntent::ThrowGrenade { location: loc("tower") },
        "Ace carries no grenade",
    );
    t.accept("ace", FiendWakeIntent::EndTurn);
    let e = t.e("ace");
    let inventory = t.world().get::<crate::sheet::Inventory>(e).expect("an inventory").0.clone();
    assert_eq!(inventory, vec![crate::data::Item::Caltrops], "the grenade is gone");
}

#[test]
fn a_cannon_s_one_siege_damage_tallies_on_the_tower_and_rubble_raises_its_cost() {
    let mut t = arena();
    t.accept("ace", FiendWakeIntent::Arm { weapon: "cannon".into(), upgrade: false });
    t.accept("ace", FiendWakeIntent::Bombard { location: loc("tower") });
    t.accept("foe", FiendWakeIntent::Decline);
    t.accept("foe2", FiendWakeIntent::Decline);
    assert_eq!(t.count("tower", SIEGE_DAMAGE), 1, "one siege damage on the tower");
    assert_eq!(t.token_entities("tower", SIEGE_DAMAGE), 1, "as a token");
    assert_eq!(entry_cost(t.world(), t.e("tower")), 3, "rubble: 2 + 1");
    assert_eq!(wounds(&t, "foe"), 3, "the shot's first intention lands as mass damage");
    assert!(!effects(&t.log(), "siege").is_empty());
}

#[test]
fn a_location_collapses_at_its_siege_limit() {
    let mut t = arena();
    let tower = t.e("tower");
    damage::siege(t.world_mut(), tower, 2, "a test");
    assert_eq!(t.place("foe"), "field", "occupants fall into no location");
    t.accept("ace", FiendWakeIntent::EndTurn);
    refused(
        &mut t,
        "pal",
        FiendWakeIntent::EnterLocation { location: loc("tower"), upgrade: false },
        "the Tower cannot be entered from anywhere",
    );
}

#[test]
fn an_assault_with_a_team_spending_3_tp_deals_6_mass_damage_and_lets_the_team_in() {
    let mut t = arena();
    t.accept(
        "ace",
        FiendWakeIntent::Assault {
            location: loc("tower"),
            supporters: vec![id("pal")],
            tp: 1,
            raise: 0,
            enter: true,
        },
    );
    assert_eq!(t.awaiting(), vec!["pal"], "the supporter is called first");
    t.accept("pal", FiendWakeIntent::Support { tp: 2, enter: false });
    t.accept("foe", FiendWakeIntent::Decline);
    t.accept("foe2", FiendWakeIntent::Decline);
    assert_eq!(damage_to(&t.log(), "foe"), vec![(6, 6)], "twice the team's 3 TP");
    assert_eq!(t.place("ace"), "tower", "Ace enters for free");
    assert_eq!(t.tp("ace"), 3, "Ace paid only his 1 TP of the assault");
    assert_eq!(t.place("pal"), "field", "Pal chose to stay out");
    assert_eq!(t.tp("pal"), 5);
    assert_eq!(effects(&t.log(), "assault_team").len(), 1);
}

#[test]
fn raising_an_assault_s_difficulty_counts_as_tp_for_every_member() {
    let mut t = arena();
    t.accept(
        "ace",
        FiendWakeIntent::Assault {
            location: loc("tower"),
            supporters: vec![id("pal")],
            tp: 1,
            raise: 2,
            enter: false,
        },
    );
    t.accept("pal", FiendWakeIntent::Support { tp: 1, enter: false });
    t.accept("foe", FiendWakeIntent::Decline);
    t.accept("foe2", FiendWakeIntent::Decline);
    let roll = t.log().into_iter().find_map(|e| match e.event {
        LogEvent::Roll(r) if r.what == "Command with Cunning" => Some(super::support::roll(r)),
        _ => None,
    });
    assert_eq!(
        roll.expect("the Command roll").difficulty,
        8 + 2 + 2,
        "held: 8, raise 2, the tower's cover 2"
    );
    assert_eq!(damage_to(&t.log(), "foe"), vec![(12, 12)], "(1 + 1 + 2 x 2 members) x 2");
}

#[test]
fn an_assault_needs_a_supporter_able_to_pay_and_comes_from_outside() {
    let mut t = arena();
    let assault = |supporters: Vec<CombatantId>, location: &str| FiendWakeIntent::Assault {
        location: loc(location),
        supporters,
        tp: 1,
        raise: 0,
        enter: false,
    };
    refused(&mut t, "ace", assault(vec![], "tower"), "needs at least one supporter");
    set_tp(&mut t, "pal", 0);
    refused(&mut t, "ace", assault(vec![id("pal")], "tower"), "none of the supporters called can pay 1 TP");
    refused(&mut t, "ace", assault(vec![id("pal")], "field"), "needs a location, not the open field");
    set_tp(&mut t, "pal", 3);
    refused(&mut t, "ace", assault(vec![id("pal"), id("pal")], "tower"), "named twice");
    refused(&mut t, "ace", assault(vec![id("foe")], "tower"), "inside the location");
}

#[test]
fn a_grapple_stuns_by_power_and_again_when_not_resisted() {
    let mut t = arena();
    t.accept("ace", FiendWakeIntent::Grapple { target: id("runner") });
    // Ace's roll: 10 + a d10 against Evasion 0; the runner resists with a d10 against it.
    assert_eq!(t.tp("runner"), 7 - 3 - 3, "two stuns of Power 3: the resistance roll cannot reach 11");
    let stuns: Vec<_> =
        t.log().into_iter().filter(|e| matches!(e.event, LogEvent::Damage { damage: "stun", .. })).collect();
    assert_eq!(stuns.len(), 2);
    refused(
        &mut t,
        "ace",
        FiendWakeIntent::Grapple { target: id("runner") },
        "full action of this turn is already taken",
    );
}

#[test]
fn a_grapple_needs_a_local_target() {
    let mut t = arena();
    refused(&mut t, "ace", FiendWakeIntent::Grapple { target: id("foe") }, "a grapple needs a local target");
}

#[test]
fn caltrops_are_scattered_around_someone_in_no_location_and_picked_up_for_6_tp() {
    let mut t = arena();
    refused(
        &mut t,
        "ace",
        FiendWakeIntent::Caltrops { target: id("foe") },
        "around a combatant in the open field",
    );
    t.accept("ace", FiendWakeIntent::Caltrops { target: id("runner") });
    assert_eq!(t.place("runner"), "caltrops_ace", "a caltrops location now surrounds the runner");
    assert_eq!(effects(&t.log(), "caltrops").len(), 1, "the scattering is logged");
    t.accept("ace", FiendWakeIntent::EndTurn);
    // Pal's turn, then the foes', then the runner's: it begins among the caltrops.
    for who in ["pal", "foe", "foe2"] {
        t.accept(who, FiendWakeIntent::EndTurn);
    }
    assert_eq!(t.awaiting(), vec!["runner"]);
    assert_eq!(wounds(&t, "runner"), 2, "2 wounds to whoever begins a turn there");
    t.accept("runner", FiendWakeIntent::EndTurn);
    set_tp(&mut t, "ace", 5);
    refused(
        &mut t,
        "ace",
        FiendWakeIntent::PickUpCaltrops { location: loc("caltrops_ace"), take_wounds: false },
        "costs 6 TP but Ace holds only 5",
    );
    set_tp(&mut t, "ace", 6);
    t.accept("ace", FiendWakeIntent::PickUpCaltrops { location: loc("caltrops_ace"), take_wounds: false });
    assert_eq!(t.tp("ace"), 0);
    assert_eq!(t.place("runner"), "field");
    assert!(t.world().resource::<fray_core::prelude::TableIndex>().location(&loc("caltrops_ace")).is_none());
}

#[test]
fn a_medic_recovers_a_handicap_of_an_unconscious_local() {
    let mut t = arena();
    refused(&mut t, "ace", FiendWakeIntent::Medic { patient: id("pal") }, "Pal is not unconscious");
    let pal = t.e("pal");
    damage::handicap(t.world_mut(), pal, "test");
    damage::handicap(t.world_mut(), pal, "test");
    assert_eq!(t.status("pal"), Status::Unconscious);
    t.accept("ace", FiendWakeIntent::Medic { patient: id("pal") });
    assert_eq!(t.status("pal"), Status::Fighting, "Medicine 10 with Cunning beats 7: Pal wakes");
    let attributes = t.world().get::<Attributes>(pal).expect("attributes").clone();
    assert_eq!(attributes.available(Attribute::Spirit), vec![1]);
    assert_eq!(effects(&t.log(), "handicap_recovered").len(), 1);
}

#[test]
fn calling_a_shot_raises_the_difficulty_and_adds_power() {
    let mut t = arena();
    t.accept("ace", FiendWakeIntent::CallShot { upgrade: false });
    assert_eq!(t.tp("ace"), 3, "a called shot costs 1 TP");
    t.accept("ace", FiendWakeIntent::RangedAttack { target: id("runner") });
    let roll = t.log().into_iter().rev().find_map(|e| match e.event {
        LogEvent::Roll(r) => Some(super::support::roll(r)),
        _ => None,
    });
    assert_eq!(roll.expect("a roll").difficulty, 2, "Evasion 0 + 2 for the called shot");
    assert_eq!(
        damage_to(&t.log(), "runner"),
        vec![(5 + 3, 8)],
        "first intention 5 + Power 3 (one die: no precision)"
    );
    assert_eq!(t.world().resource::<ActiveTurn>().called, 0, "the call is used up by the attack");
}

#[test]
fn a_called_shot_that_misses_its_new_difficulty_misses_entirely() {
    let mut t = arena();
    let runner = t.e("runner");
    t.world_mut().get_mut::<crate::sheet::Evasion>(runner).expect("evasion").0 = 19;
    t.accept("ace", FiendWakeIntent::CallShot { upgrade: false });
    t.accept("ace", FiendWakeIntent::RangedAttack { target: id("runner") });
    assert!(damage_to(&t.log(), "runner").is_empty(), "10 + a d10 may reach 19 but never 21");
    refused(&mut t, "ace", FiendWakeIntent::CallShot { upgrade: true }, "cannot take the full action");
}

#[test]
fn riding_gives_the_mount_s_movement_and_advantages() {
    let mut t = arena();
    t.accept("ace", FiendWakeIntent::Mount { mount: MountId::from("horse"), upgrade: false });
    assert_eq!(t.tp("ace"), 3);
    assert_eq!(
        crate::view::entry_cost_for(t.world(), t.e("ace"), t.e("hut")),
        0,
        "the horse's discount of 1"
    );
    assert_eq!(crate::view::evasion(t.world(), t.e("ace")), 2, "the horse's evasion bonus");
    t.accept("ace", FiendWakeIntent::EnterLocation { location: loc("hut"), upgrade: false });
    assert_eq!(t.tp("ace"), 3, "entering the hut on horseback costs nothing");
    let horse = t.e("horse");
    assert_eq!(t.world().get::<fray_core::prelude::Occupies>(horse).map(|o| o.0), Some(t.e("hut")));
    t.accept("ace", FiendWakeIntent::Evacuate { upgrade: false });
    t.accept("ace", FiendWakeIntent::Arm { weapon: "sword".into(), upgrade: false });
    t.accept("ace", FiendWakeIntent::MeleeAttack { target: id("runner") });
    assert_eq!(
        damage_to(&t.log(), "runner"),
        vec![(4 + 3, 7)],
        "the sword's 4 and the horse's melee bonus of 3"
    );
    t.accept("ace", FiendWakeIntent::Dismount);
    assert!(t.world().get::<Rides>(t.e("ace")).is_none());
    refused(&mut t, "ace", FiendWakeIntent::Dismount, "Ace is not riding");
}

#[test]
fn wrangling_an_animal_the_gm_allowed_rides_it_and_a_failure_costs_12_wounds() {
    let mut t = arena();
    refused(
        &mut t,
        "ace",
        FiendWakeIntent::Wrangle { mount: MountId::from("mule") },
        "the GM has not agreed",
    );
    refused(
        &mut t,
        "ace",
        FiendWakeIntent::Wrangle { mount: MountId::from("horse") },
        "the horse is trained",
    );
    refused(
        &mut t,
        "ace",
        FiendWakeIntent::Mount { mount: MountId::from("boar"), upgrade: false },
        "must be wrangled first",
    );
    t.accept("ace", FiendWakeIntent::Wrangle { mount: MountId::from("boar") });
    let boar = t.e("boar");
    assert!(t.world().get::<MountTraits>(boar).is_some_and(|m| m.wrangled), "Totemism 10 with Power beats 8");
    assert_eq!(t.world().get::<Rides>(t.e("ace")).map(|r| r.0), Some(boar));

    let mut t = arena();
    let boar = t.e("boar");
    t.world_mut().get_mut::<MountTraits>(boar).expect("traits").training_difficulty = 30;
    t.accept("ace", FiendWakeIntent::Wrangle { mount: MountId::from("boar") });
    assert_eq!(
        damage_to(&t.log(), "ace"),
        vec![(12, 10)],
        "the animal's flailing: 12 wounds, less the Ward's 2"
    );
    assert!(t.world().get::<Rides>(t.e("ace")).is_none());
}

#[test]
fn odd_ball_behaviour_costs_the_gm_s_price_or_rolls_tactics_as_the_full_action() {
    let mut t = arena();
    t.accept("ace", FiendWakeIntent::OddBall { what: "swing on the chandelier".into(), tp: 3 });
    assert_eq!(t.tp("ace"), 1);
    refused(
        &mut t,
        "ace",
        FiendWakeIntent::OddBall { what: "again".into(), tp: 3 },
        "costs 3 TP but Ace holds only 1",
    );
    refused(
        &mut t,
        "ace",
        FiendWakeIntent::OddBall { what: " ".into(), tp: 0 },
        "say what the odd-ball behaviour is",
    );
    t.accept(
        "ace",
        FiendWakeIntent::OddBallRoll {
            what: "talk the foe down".into(),
            attribute: Attribute::Cunning,
            difficulty: 9,
        },
    );
    let roll = t.log().into_iter().rev().find_map(|e| match e.event {
        LogEvent::Roll(r) => Some(super::support::roll(r)),
        _ => None,
    });
    let roll = roll.expect("a Tactics roll");
    assert_eq!((roll.what.as_str(), roll.difficulty), ("Tactics with Cunning", 9));
    assert_eq!(effects(&t.log(), "odd_ball").len(), 2);
}

#[test]
fn upgraded_simple_actions_are_logged_with_the_tp_they_are_assumed_to_cost() {
    let mut t = arena();
    t.accept("ace", FiendWakeIntent::Arm { weapon: "sword".into(), upgrade: true });
    let upgraded = effects(&t.log(), "upgraded").into_iter().map(|e| e.event.clone()).collect::<Vec<_>>();
    assert!(
        matches!(&upgraded[..], [LogEvent::Effect { detail, .. }] if detail == "assumed to cost 3 TP"),
        "arming: Grace 1 or 3, whichever is greater: {upgraded:?}"
    );
    assert_eq!(t.tp("ace"), 4, "the TP cost is waived");
}

#[test]
fn an_upgraded_retreat_is_worth_endurance_plus_the_tp_spent() {
    let mut t = arena();
    t.accept("ace", FiendWakeIntent::Retreat { tp: 2, upgrade: true });
    assert_eq!(t.tp("ace"), 2, "the 2 extra TP are spent");
    assert_eq!(t.awaiting(), vec!["runner"], "the runner, an enemy in no location, may try to stop it");
    t.accept("runner", FiendWakeIntent::Decline);
    assert_eq!(t.status("ace"), Status::Fled);
    let value = effects(&t.log(), "retreat").into_iter().map(|e| e.event.clone()).next();
    assert!(
        matches!(value, Some(LogEvent::Effect { detail, .. }) if detail == "retreat value 5"),
        "Endurance 3 + 2 TP"
    );
}

#[test]
fn stopping_a_retreat_takes_tactics_with_grace_beating_its_value() {
    let mut t = arena();
    t.accept("ace", FiendWakeIntent::EndTurn);
    t.accept("pal", FiendWakeIntent::EndTurn);
    t.accept("foe", FiendWakeIntent::EndTurn);
    t.accept("foe2", FiendWakeIntent::EndTurn);
    // The runner retreats for 1 TP; Ace (Tactics 10) and Pal may try to stop it.
    t.accept("runner", FiendWakeIntent::Retreat { tp: 1, upgrade: false });
    assert_eq!(t.awaiting(), vec!["ace"]);
    t.accept("ace", FiendWakeIntent::StopRetreat);
    assert_eq!(t.status("runner"), Status::Fighting, "10 + a d10 beats a retreat value of 1");
    assert_eq!(effects(&t.log(), "retreat_stopped").len(), 1);
    assert_eq!(t.awaiting(), vec!["runner"], "Pal is not asked again: the retreat is already stopped");
    refused(&mut t, "pal", FiendWakeIntent::StopRetreat, "it is Runner's turn");
}

#[test]
fn a_friend_may_intercept_an_attack_once() {
    let mut t = arena();
    t.accept("ace", FiendWakeIntent::EndTurn);
    t.accept("pal", FiendWakeIntent::EndTurn);
    // Foe strikes out of the tower at Ace in no location; Pal, beside Ace, may intercept.
    t.accept("foe", FiendWakeIntent::MeleeAttack { target: id("ace") });
    assert_eq!(t.awaiting(), vec!["pal"]);
    refused(&mut t, "ace", FiendWakeIntent::Intercept, "Pal is being asked whether to intercept the attack");
    refused(&mut t, "pal", FiendWakeIntent::ClearOut, "asked whether to intercept the attack");
    t.accept("pal", FiendWakeIntent::Intercept);
    assert_eq!(t.tp("pal"), 5, "intercepting costs 2 TP");
    assert_eq!(wounds(&t, "ace"), 0, "the attack went to Pal");
    assert_eq!(damage_to(&t.log(), "pal"), vec![(4, 3)], "the sword's 4, less Pal's light armour");
}

#[test]
fn attacks_into_a_location_from_outside_face_its_cover() {
    let mut t = arena();
    t.accept("ace", FiendWakeIntent::RangedAttack { target: id("foe") });
    t.accept("foe2", FiendWakeIntent::Decline);
    let roll = t.log().into_iter().rev().find_map(|e| match e.event {
        LogEvent::Roll(r) => Some(super::support::roll(r)),
        _ => None,
    });
    assert_eq!(roll.expect("a roll").difficulty, 2, "Evasion 0 + the tower's cover 2, shooting into it");
}

#[test]
fn spells_are_fueled_in_the_aftermath_or_lapse() {
    let mut t = arena();
    let ace = t.e("ace");
    assert_eq!(crate::view::reduction(t.world(), ace), 2, "the Ward is on when the fight starts");
    damage::wounds(t.world_mut(), ace, 5, &"test".into());
    assert_eq!(wounds(&t, "ace"), 3);
    for who in ["ace", "pal", "foe", "foe2", "runner"] {
        t.accept(who, FiendWakeIntent::EndTurn);
    }
    while t.phase() == FiendWakePhase::ExecuteTurns || t.world().resource::<ActiveTurn>().actor.is_some() {
        let who = t.awaiting()[0].clone();
        t.accept(&who, FiendWakeIntent::EndTurn);
    }
    assert_eq!(t.awaiting(), vec!["ace"], "Ace is asked to fuel his spells");
    set_tp(&mut t, "ace", 3);
    refused(
        &mut t,
        "ace",
        FiendWakeIntent::FuelSpells { spells: vec!["Ward".into(), "Nope".into()] },
        "knows no spell 'Nope'",
    );
    set_tp(&mut t, "ace", 2);
    refused(
        &mut t,
        "ace",
        FiendWakeIntent::FuelSpells { spells: vec!["Ward".into(), "Mend".into()] },
        "fueling costs 3 TP",
    );
    t.accept("ace", FiendWakeIntent::FuelSpells { spells: vec!["Mend".into()] });
    assert_eq!(wounds(&t, "ace"), 0, "Mend regenerates 3 wounds when fueled");
    assert_eq!(crate::view::reduction(t.world(), ace), 0, "the unfueled Ward lapsed");
    let spells = t
        .world()
        .get::<Spells>(ace)
        .expect("spells")
        .0
        .iter()
        .map(|(s, on)| (s.name.clone(), *on))
        .collect::<Vec<_>>();
    assert_eq!(spells, vec![("Ward".to_owned(), false), ("Mend".to_owned(), true)]);
    assert_eq!(effects(&t.log(), "spell_lapsed").len(), 1);
}

#[test]
fn a_combatant_may_choose_which_attribute_its_handicaps_mark() {
    let mut t = arena();
    t.accept("ace", FiendWakeIntent::ChooseHandicap { attribute: Attribute::Cunning });
    let ace = t.e("ace");
    damage::handicap(t.world_mut(), ace, "test");
    let attributes = t.world().get::<Attributes>(ace).expect("attributes").clone();
    assert_eq!(attributes.available(Attribute::Cunning), vec![1, 3], "Cunning 5 loses its top stack number");
    assert_eq!(attributes.available(Attribute::Spirit), vec![1, 3], "Spirit untouched");
    assert_eq!(t.status("ace"), Status::Fighting);
}

#[test]
fn answers_are_refused_when_nobody_asked() {
    let mut t = arena();
    refused(&mut t, "ace", FiendWakeIntent::Intercept, "is not something to do during a turn");
    refused(&mut t, "pal", FiendWakeIntent::Decline, "it is Ace's turn");
}

#[test]
fn only_a_ready_siege_weapon_bombards_and_only_a_location() {
    let mut t = arena();
    refused(
        &mut t,
        "ace",
        FiendWakeIntent::Bombard { location: loc("tower") },
        "the rifle is not a siege weapon",
    );
    t.accept("ace", FiendWakeIntent::Arm { weapon: "cannon".into(), upgrade: false });
    refused(
        &mut t,
        "ace",
        FiendWakeIntent::Bombard { location: loc("field") },
        "needs a location, not the open field",
    );
    refused(&mut t, "ace", FiendWakeIntent::Bombard { location: loc("moon") }, "there is no location 'moon'");
}

#[test]
fn an_upgraded_mount_is_assumed_to_cost_power_and_an_upgraded_entry_effective_grace() {
    let mut t = arena();
    t.accept("ace", FiendWakeIntent::Mount { mount: MountId::from("horse"), upgrade: true });
    t.accept("ace", FiendWakeIntent::EndTurn);
    t.accept("pal", FiendWakeIntent::EnterLocation { location: loc("hut"), upgrade: true });
    let details: Vec<(String, String)> = effects(&t.log(), "upgraded")
        .into_iter()
        .map(|e| match &e.event {
            LogEvent::Effect { detail, .. } => {
                (e.actor.clone().map(|a| a.to_string()).unwrap_or_default(), detail.clone())
            }
            _ => unreachable!("effects() keeps effects only"),
        })
        .collect();
    assert_eq!(
        details,
        vec![
            ("ace".to_owned(), "assumed to cost 3 TP".to_owned()),
            ("pal".to_owned(), "assumed to cost 1 TP".to_owned())
        ],
        "Ace's Power 3; Pal's effective Grace 1"
    );
    assert_eq!((t.tp("ace"), t.tp("pal")), (4, 7), "upgrades waive the TP cost");
}
