//! Intents: accepted ones change the table and are logged; refused ones come back with a
//! reason a player can read and change nothing.

use crate::sheet::{Arsenal, Worn};
use crate::{ActiveTurn, FiendWakeIntent, FiendWakePhase};
use fray_core::log::LogEvent;
use fray_core::prelude::{CombatantId, Counters, LocationId, MountId, Status};

use super::support::{LOCKJAW, Table};
use crate::counters::*;

/// Everything a refusal must leave alone: counters, statuses, places, phase, turn.
fn snapshot(t: &mut Table) -> String {
    let world = t.world_mut();
    let mut rows: Vec<String> = world
        .query::<(bevy_ecs::entity::Entity, &Counters, Option<&Status>, Option<&fray_core::prelude::Occupies>)>()
        .iter(world)
        .map(|(e, c, s, o)| format!("{e}: {c:?} {s:?} {o:?}"))
        .collect();
    rows.sort();
    let turn = world.resource::<ActiveTurn>().clone();
    format!("{rows:?} {:?} {turn:?}", t.phase())
}

/// Submits an intent that must be refused with a reason containing `reason`, and checks
/// that the table did not change but for the logged refusal.
fn refused(t: &mut Table, who: &str, intent: FiendWakeIntent, reason: &str) {
    let before = snapshot(t);
    let log_before = t.log().len();
    match t.submit(who, intent.clone()) {
        Ok(()) => panic!("{who}'s {intent:?} should be refused ({reason})"),
        Err(r) => assert!(
            r.0.contains(reason),
            "{who}'s {intent:?}: expected a reason containing {reason:?}, got {:?}",
            r.0
        ),
    }
    assert_eq!(snapshot(t), before, "a refused {intent:?} changes nothing");
    let log = t.log();
    assert_eq!(log.len(), log_before + 1, "only the refusal is logged");
    assert!(matches!(log[log_before].event, LogEvent::IntentRejected { .. }));
}

#[test]
fn a_bid_larger_than_what_one_holds_is_refused() {
    let mut t = Table::from_ron(LOCKJAW);
    t.accept("lockjaw", FiendWakeIntent::PayArmour { tp: 1, turn_tokens: 0 });
    refused(&mut t, "lockjaw", FiendWakeIntent::Bid { tp: 6 }, "bids 6 TP but holds only 4");
    refused(
        &mut t,
        "lockjaw",
        FiendWakeIntent::EndTurn,
        "end turn is not something to do during Bid for Priority",
    );
    t.accept("lockjaw", FiendWakeIntent::Bid { tp: 4 });
    refused(
        &mut t,
        "lockjaw",
        FiendWakeIntent::Bid { tp: 1 },
        "Lockjaw has nothing to decide during Bid for Priority",
    );
}

#[test]
fn armour_must_be_paid_in_full_and_turn_tokens_count_double() {
    let mut t = Table::from_ron(LOCKJAW);
    refused(&mut t, "lockjaw", FiendWakeIntent::PayArmour { tp: 0, turn_tokens: 0 }, "the armour costs 1 TP");
    refused(
        &mut t,
        "lockjaw",
        FiendWakeIntent::PayArmour { tp: 9, turn_tokens: 0 },
        "pays 9 TP but holds only 5",
    );
    t.accept("lockjaw", FiendWakeIntent::PayArmour { tp: 0, turn_tokens: 1 });
    assert_eq!(t.tp("lockjaw"), 5, "paid with a turn token, worth 2 TP (over-paying)");
    assert_eq!(t.count("lockjaw", TURN_TOKEN), 2);
}

#[test]
fn refusing_armour_loses_all_tp_and_turns_and_doffing_drops_its_reduction() {
    let mut t = Table::from_ron(LOCKJAW);
    t.accept("lockjaw", FiendWakeIntent::RefuseArmour { doff: true });
    assert_eq!(t.tp("lockjaw"), 0);
    assert_eq!(t.count("lockjaw", TURN_TOKEN), 0);
    let lockjaw = t.e("lockjaw");
    let taken = crate::damage::wounds(t.world_mut(), lockjaw, 6, &"arrow".into());
    assert_eq!(taken, 6, "armour being taken off gives no reduction");
    assert!(t.world().get::<Worn>(lockjaw).is_some_and(|w| w.armour.is_some()), "it is off only next round");
}

#[test]
fn turn_actions_belong_to_the_active_combatant() {
    let mut t = Table::from_ron(LOCKJAW);
    t.play_to_turns(&[("lockjaw", 2), ("imp", 1), ("archer", 0)]);
    refused(&mut t, "imp", FiendWakeIntent::EndTurn, "it is Lockjaw's turn");
    refused(&mut t, "nobody", FiendWakeIntent::EndTurn, "there is no combatant 'nobody'");
    refused(
        &mut t,
        "lockjaw",
        FiendWakeIntent::MeleeAttack { target: CombatantId::from("imp") },
        "the ready rifle is a ranged weapon",
    );
}

#[test]
fn entering_a_location_pays_its_cost_and_moves_the_combatant() {
    let mut t = Table::from_ron(LOCKJAW);
    t.play_to_turns(&[("lockjaw", 3), ("imp", 0), ("archer", 0)]);
    assert_eq!(t.tp("lockjaw"), 1);
    refused(
        &mut t,
        "lockjaw",
        FiendWakeIntent::EnterLocation { location: LocationId::from("tower"), upgrade: false },
        "costs 2 TP but Lockjaw holds only 1",
    );
    t.accept(
        "lockjaw",
        FiendWakeIntent::EnterLocation { location: LocationId::from("raft"), upgrade: false },
    );
    assert_eq!(t.place("lockjaw"), "raft");
    assert_eq!(t.tp("lockjaw"), 0, "the raft costs 1 TP");
    let moved = t.log().iter().any(
        |e| matches!(&e.event, LogEvent::Moved { from, to, cost: 1 } if from.as_str() == "field" && to.as_str() == "raft"),
    );
    assert!(moved, "the move is logged");
    refused(
        &mut t,
        "lockjaw",
        FiendWakeIntent::EnterLocation { location: LocationId::from("tower"), upgrade: false },
        "the Tower can only be entered from the open field",
    );
    t.accept("lockjaw", FiendWakeIntent::Evacuate { upgrade: false });
    assert_eq!(t.place("lockjaw"), "field");
}

#[test]
fn an_upgraded_simple_action_waives_its_cost_and_takes_the_full_action() {
    let mut t = Table::from_ron(LOCKJAW);
    t.play_to_turns(&[("lockjaw", 4), ("imp", 0), ("archer", 0)]);
    assert_eq!(t.tp("lockjaw"), 0);
    t.accept(
        "lockjaw",
        FiendWakeIntent::EnterLocation { location: LocationId::from("tower"), upgrade: true },
    );
    assert_eq!(t.place("lockjaw"), "tower");
    refused(
        &mut t,
        "lockjaw",
        FiendWakeIntent::RangedAttack { target: CombatantId::from("imp") },
        "the full action of this turn is already taken",
    );
}

#[test]
fn arming_readies_a_carried_weapon() {
    let mut t = Table::from_ron(LOCKJAW);
    t.play_to_turns(&[("lockjaw", 0), ("imp", 1), ("archer", 2)]);
    // The archer bid most: its turn first; end it, and the imp's.
    t.accept("archer", FiendWakeIntent::EndTurn);
    t.accept("imp", FiendWakeIntent::EndTurn);
    refused(
        &mut t,
        "lockjaw",
        FiendWakeIntent::Arm { weapon: "sword".into(), upgrade: false },
        "carries no 'sword'",
    );
    refused(
        &mut t,
        "lockjaw",
        FiendWakeIntent::Arm { weapon: "rifle".into(), upgrade: false },
        "already ready",
    );
    t.accept("lockjaw", FiendWakeIntent::Arm { weapon: "axe".into(), upgrade: false });
    let lockjaw = t.e("lockjaw");
    assert_eq!(t.world().get::<Arsenal>(lockjaw).and_then(|a| a.ready.clone()).as_deref(), Some("axe"));
    assert_eq!(t.tp("lockjaw"), 3, "the axe costs 1 TP to ready");
}

#[test]
fn melee_reaches_local_combatants_and_those_in_no_location_only() {
    let mut t = Table::from_ron(LOCKJAW);
    t.play_to_turns(&[("lockjaw", 0), ("imp", 2), ("archer", 1)]);
    refused(
        &mut t,
        "imp",
        FiendWakeIntent::MeleeAttack { target: CombatantId::from("archer") },
        "a melee weapon reaches local combatants and those in the open field",
    );
    t.accept("imp", FiendWakeIntent::MeleeAttack { target: CombatantId::from("lockjaw") });
    assert!(t.world().resource::<ActiveTurn>().full_action_used);
    let rolled = t.log().iter().rev().find_map(|e| match &e.event {
        LogEvent::Roll(r) => Some(super::support::roll(r)),
        _ => None,
    });
    let roll = rolled.expect("the attack rolled");
    assert_eq!(roll.what, "UnarmedCombat with Grace");
    assert_eq!(roll.difficulty, 6, "against Lockjaw's Evasion");
    let wounds = t.count("lockjaw", WOUND);
    let expected = if roll.success { 3 + roll.extra_successes.min(2) - 1 } else { 0 };
    assert_eq!(wounds, expected, "first intention 3 plus precision up to Power 2, less 1 reduction");
}

#[test]
fn retreat_leaves_the_scene_from_no_location() {
    let mut t = Table::from_ron(LOCKJAW);
    t.play_to_turns(&[("lockjaw", 0), ("imp", 0), ("archer", 3)]);
    refused(&mut t, "archer", FiendWakeIntent::Retreat { tp: 1, upgrade: false }, "evacuate the Tower first");
    t.accept("archer", FiendWakeIntent::Evacuate { upgrade: false });
    refused(&mut t, "archer", FiendWakeIntent::Retreat { tp: 0, upgrade: false }, "costs at least 1 TP");
    t.accept("archer", FiendWakeIntent::Retreat { tp: 1, upgrade: false });
    assert_eq!(t.awaiting(), vec!["lockjaw"], "an enemy in no location may try to stop the retreat");
    assert_eq!(t.status("archer"), Status::Fighting, "the retreat waits for the answer");
    t.accept("lockjaw", FiendWakeIntent::Decline);
    assert_eq!(t.status("archer"), Status::Fled);
    assert_ne!(t.awaiting(), vec!["archer"], "a combatant who fled takes no more turns");
    refused(&mut t, "archer", FiendWakeIntent::EndTurn, "Imp archer is fled and cannot act");
}

#[test]
fn harassment_spends_tp_on_reachable_targets_one_instance_each() {
    let mut t = Table::from_ron(LOCKJAW);
    t.play_to_turns(&[("lockjaw", 0), ("imp", 0), ("archer", 0)]);
    while t.phase() != FiendWakePhase::Harassment {
        let who = t.awaiting()[0].clone();
        let intent = if t.world().resource::<ActiveTurn>().actor.is_some() {
            FiendWakeIntent::EndTurn
        } else {
            FiendWakeIntent::Pass
        };
        t.accept(&who, intent);
    }
    let order: Vec<String> = t.world().resource::<crate::Round>().priority.iter().map(|&e| t.id(e)).collect();
    let (lowest, next) = (order[2].clone(), order[1].clone());
    assert_eq!(t.awaiting(), vec![lowest.clone()], "the lowest priority harasses first");
    refused(
        &mut t,
        &lowest,
        FiendWakeIntent::Harass { allocations: vec![(CombatantId::from("lockjaw"), 9)] },
        "allocates 9 TP but holds only",
    );
    refused(
        &mut t,
        &lowest,
        FiendWakeIntent::Harass {
            allocations: vec![(CombatantId::from("lockjaw"), 1), (CombatantId::from("lockjaw"), 1)],
        },
        "names Lockjaw twice",
    );
    t.accept(&lowest, FiendWakeIntent::Harass { allocations: vec![] });
    assert_eq!(t.awaiting(), vec![next.clone()], "then the next lowest");
    t.accept(&next, FiendWakeIntent::Harass { allocations: vec![(CombatantId::from("lockjaw"), 3)] });
    assert_eq!(t.count("lockjaw", WOUND), 2, "claws' second intention 1 x 3 TP, less 1 reduction");
}

#[test]
fn mounting_takes_a_free_local_trained_mount() {
    let text = r#"Scenario(name: "Stable", ruleset: "fiend_wake",
        sides: [(id: "a", name: "A"), (id: "b", name: "B")],
        locations: [(id: "stable", name: "Stable")],
        mounts: [
            (id: "horse", name: "Horse"),
            (id: "pony", name: "Pony"),
            (id: "stallion", name: "Stallion", location: "stable"),
            (id: "boar", name: "Boar", sheet: (untrained: true, training_difficulty: 8)),
        ],
        combatants: [
            (id: "x", name: "X", side: "a", controller: Human, sheet: (attributes: (power: 2, grace: 2, cunning: 3, endurance: 2, resolve: 2, spirit: 2), evasion: 5, skills: {Tactics: 1})),
            (id: "y", name: "Y", side: "b", controller: Human, rides: "pony", sheet: (attributes: (power: 2, grace: 2, cunning: 1, endurance: 2, resolve: 2, spirit: 2), evasion: 5)),
        ])"#;
    let mut t = Table::from_ron(text);
    t.accept("x", FiendWakeIntent::Bid { tp: 1 });
    t.accept("y", FiendWakeIntent::Bid { tp: 0 });
    refused(
        &mut t,
        "x",
        FiendWakeIntent::Mount { mount: MountId::from("pony"), upgrade: false },
        "the pony is already ridden by Y",
    );
    refused(
        &mut t,
        "x",
        FiendWakeIntent::Mount { mount: MountId::from("stallion"), upgrade: false },
        "is not local",
    );
    refused(
        &mut t,
        "x",
        FiendWakeIntent::Mount { mount: MountId::from("boar"), upgrade: false },
        "untrained",
    );
    refused(
        &mut t,
        "x",
        FiendWakeIntent::Mount { mount: MountId::from("yak"), upgrade: false },
        "there is no mount 'yak'",
    );
    t.accept("x", FiendWakeIntent::Mount { mount: MountId::from("horse"), upgrade: false });
    let horse = t.e("horse");
    let x = t.e("x");
    assert_eq!(t.world().get::<fray_core::prelude::Rides>(x).map(|r| r.0), Some(horse));
    assert_eq!(t.tp("x"), 2, "4 TP - 1 bid - 1 to mount");
    refused(
        &mut t,
        "x",
        FiendWakeIntent::Mount { mount: MountId::from("horse"), upgrade: false },
        "already riding",
    );
    t.accept("x", FiendWakeIntent::EnterLocation { location: LocationId::from("stable"), upgrade: false });
    assert_eq!(t.place("x"), "stable");
    let horse_place = t.world().get::<fray_core::prelude::Occupies>(horse).map(|o| o.0);
    assert_eq!(horse_place, Some(t.e("stable")), "the mount moves with its rider");
}

#[test]
fn agreeing_to_end_ends_the_fight_at_the_end_of_the_round() {
    let mut t = Table::from_ron(LOCKJAW);
    for who in ["lockjaw", "imp", "archer"] {
        t.accept(who, FiendWakeIntent::AgreeToEnd { agree: true });
    }
    t.accept("lockjaw", FiendWakeIntent::PayArmour { tp: 1, turn_tokens: 0 });
    while t.phase() != FiendWakePhase::CombatOver {
        let who = t.awaiting()[0].clone();
        let intent = match t.phase() {
            _ if t.world().resource::<ActiveTurn>().actor.is_some() => FiendWakeIntent::EndTurn,
            FiendWakePhase::BidForPriority => FiendWakeIntent::Bid { tp: 0 },
            FiendWakePhase::Cede => FiendWakeIntent::Cede { cede: false },
            _ => FiendWakeIntent::Pass,
        };
        t.accept(&who, intent);
    }
    let result = t.world().resource::<fray_core::ruleset::FightResult>().clone();
    assert_eq!(result.reason, "every conscious combatant agreed to end the fight");
    assert_eq!(result.clock, 1);
    refused(&mut t, "lockjaw", FiendWakeIntent::EndTurn, "the fight is over");
}

#[test]
fn whoever_begins_a_turn_in_caltrops_takes_two_wounds() {
    let text = r#"Scenario(name: "Caltrops", ruleset: "fiend_wake",
        sides: [(id: "a", name: "A"), (id: "b", name: "B")],
        locations: [(id: "caltrops", name: "Caltrops", properties: [WoundsAtTurnStart(2)])],
        combatants: [
            (id: "x", name: "X", side: "a", controller: Human, location: "caltrops", sheet: (attributes: (power: 2, grace: 2, cunning: 3, endurance: 2, resolve: 2, spirit: 2), evasion: 5)),
            (id: "y", name: "Y", side: "b", controller: Human, sheet: (attributes: (power: 2, grace: 2, cunning: 1, endurance: 2, resolve: 2, spirit: 2), evasion: 5)),
        ])"#;
    let mut t = Table::from_ron(text);
    t.accept("x", FiendWakeIntent::Bid { tp: 1 });
    t.accept("y", FiendWakeIntent::Bid { tp: 0 });
    assert_eq!(t.awaiting(), vec!["x"]);
    assert_eq!(t.count("x", WOUND), 2, "the caltrops strike as X's turn begins");
    t.accept("x", FiendWakeIntent::Evacuate { upgrade: false });
    t.accept("x", FiendWakeIntent::EndTurn);
    assert_eq!(t.count("y", WOUND), 0, "Y begins in no location: no caltrops");
}

/// Found from outside: the sheet read "Armour: light" and "Skills: UnarmedCombat 2", ids and
/// Rust names where people read names.
#[test]
fn the_sheet_names_gear_and_skills_as_people_read_them() {
    let t = Table::from_ron(super::support::SWAMP);
    let lines = |id: &str| -> String {
        crate::board::sheet(t.world(), t.e(id)).into_iter().map(|r| r.text).collect::<Vec<_>>().join("\n")
    };
    let lockjaw = lines("lockjaw");
    assert!(lockjaw.contains("Ready: Rifle") && lockjaw.contains("Carries: Rifle, Axe"), "{lockjaw}");
    assert!(lockjaw.contains("Armour: Light flak jacket"), "{lockjaw}");
    let all: String = ["imp_1", "lockjaw", "brannoc"].into_iter().map(lines).collect();
    assert!(!all.contains("UnarmedCombat"), "{all}");
}

/// Buttons and captions say what they are about: a reaction names the attack it answers,
/// refusing armour its cost, a token its armour by what it stops (not the file's id).
#[test]
fn a_reaction_names_what_it_answers_and_a_token_its_armour() {
    use crate::reactions::{AttackKind, Held, Reactions};
    let mut t = Table::from_ron(super::support::SWAMP);
    let (brute, lockjaw) = (t.e("imp_brute"), t.e("lockjaw"));
    t.world_mut().resource_mut::<Reactions>().held =
        Some(Held::Attack { attacker: brute, target: lockjaw, kind: AttackKind::Melee, called: 0 });
    let label = |t: &Table, intent: FiendWakeIntent| crate::board::label(t.world(), &intent);
    assert_eq!(label(&t, FiendWakeIntent::Intercept), "Intercept Imp brute's attack on Lockjaw Gorgenbrew");
    assert_eq!(
        label(&t, FiendWakeIntent::RefuseArmour { doff: false }),
        "Refuse armour (every TP and turn token lost this round)"
    );
    let notes = crate::board::token(t.world(), lockjaw).notes;
    assert_eq!(notes.first().map(String::as_str), Some("armour 1"), "{notes:?}");
    t.world_mut().get_mut::<Worn>(lockjaw).expect("worn").doffing = true;
    assert_eq!(crate::board::token(t.world(), lockjaw).notes.first().map(String::as_str), Some("armour off"));
}
