//! The Fiend Wake text's own worked examples, played on a table.

use crate::damage;
use crate::data::Attribute;
use crate::sheet::{Attributes, stack_numbers};
use fray_core::log::LogEvent;
use fray_core::prelude::Status;

use super::support::{LOCKJAW, Table};
use crate::counters::*;

#[test]
fn stack_numbers_are_the_odd_numbers_below_the_level_and_the_level() {
    assert_eq!(stack_numbers(5), vec![1, 3, 5], "Cunning 5 has stack numbers 1, 3, 5");
    assert_eq!(stack_numbers(4), vec![1, 3, 4], "Resolve 4 has stack numbers 1, 3, 4");
    assert_eq!(stack_numbers(1), vec![1]);
    assert_eq!(stack_numbers(0), Vec::<u32>::new());
}

#[test]
fn cunning_5_gives_5_tactical_points_and_resolve_4_three_turn_tokens() {
    let mut t = Table::from_ron(LOCKJAW);
    assert_eq!(t.tp("lockjaw"), 5, "2 base TP plus one per Cunning stack number (1, 3, 5)");
    assert_eq!(t.token_entities("lockjaw", TACTICAL_POINT), 5, "five TP token entities");
    assert_eq!(t.count("lockjaw", TURN_TOKEN), 3, "one turn token per Resolve stack number");
    assert_eq!(t.token_entities("lockjaw", TURN_TOKEN), 3);
}

#[test]
fn three_stun_leave_lockjaw_two_tactical_points() {
    let mut t = Table::from_ron(LOCKJAW);
    let lockjaw = t.e("lockjaw");
    damage::stun(t.world_mut(), lockjaw, 3, &"powder kegs".into());
    t.update();
    assert_eq!(t.tp("lockjaw"), 2, "stun costs TP: 5 - 3 = 2");
    assert_eq!(t.token_entities("lockjaw", TACTICAL_POINT), 2, "token entities follow");
    assert_eq!(t.count("lockjaw", TURN_TOKEN), 3, "stun within the TP held costs no turn token");
}

#[test]
fn stun_beyond_the_tp_held_costs_turn_tokens() {
    let mut t = Table::from_ron(LOCKJAW);
    let lockjaw = t.e("lockjaw");
    damage::stun(t.world_mut(), lockjaw, 9, &"a mighty blow".into());
    t.update();
    assert_eq!(t.tp("lockjaw"), 0);
    assert_eq!(t.count("lockjaw", TURN_TOKEN), 1, "4 stuns past the TP cost 2 turn tokens");
}

#[test]
fn six_wounds_against_light_armour_put_five_on_the_track() {
    let mut t = Table::from_ron(LOCKJAW);
    let lockjaw = t.e("lockjaw");
    let taken = damage::wounds(t.world_mut(), lockjaw, 6, &"an arrow".into());
    t.update();
    assert_eq!(taken, 5, "light armour's 1 reduction ignores one wound");
    assert_eq!(t.count("lockjaw", WOUND), 5);
    assert_eq!(t.token_entities("lockjaw", WOUND), 5, "five wound tokens on the track");
}

#[test]
fn reduction_never_heals() {
    let mut t = Table::from_ron(LOCKJAW);
    let lockjaw = t.e("lockjaw");
    damage::wounds(t.world_mut(), lockjaw, 4, &"a stone".into());
    let taken = damage::wounds(t.world_mut(), lockjaw, 1, &"a pebble".into());
    assert_eq!(taken, 0, "1 wound against 1 reduction is no damage");
    assert_eq!(t.count("lockjaw", WOUND), 3, "and removes none from the track");
}

#[test]
fn a_full_wound_threshold_marks_the_top_spirit_stack_number_and_clears_the_track() {
    let mut t = Table::from_ron(LOCKJAW);
    let lockjaw = t.e("lockjaw");
    // Endurance 3: threshold 4 + 2 * 3 = 10 (RULES.md, "Wounds").
    damage::wounds(t.world_mut(), lockjaw, 6, &"arrow".into());
    damage::wounds(t.world_mut(), lockjaw, 6, &"arrow".into());
    t.update();
    let attributes = t.world().get::<Attributes>(lockjaw).expect("Lockjaw has attributes").clone();
    assert_eq!(attributes.available(Attribute::Spirit), vec![1], "Spirit 3's top stack number (3) is marked");
    assert_eq!(t.count("lockjaw", WOUND), 0, "the track is cleared");
    assert_eq!(t.token_entities("lockjaw", WOUND), 0);
    assert_eq!(t.status("lockjaw"), Status::Fighting, "one Spirit stack number is left");
    let marked = t.log().iter().any(|e| {
        matches!(&e.event, LogEvent::Effect { what: "handicap", detail } if detail.contains("stack number 3"))
    });
    assert!(marked, "the handicap is logged");
}

#[test]
fn the_last_spirit_stack_number_knocks_out_and_a_handicap_beyond_it_kills() {
    let mut t = Table::from_ron(LOCKJAW);
    let imp = t.e("imp");
    damage::handicap(t.world_mut(), imp, "test");
    assert_eq!(t.status("imp"), Status::Fighting, "Spirit 2 has stack numbers 1 and 2");
    damage::handicap(t.world_mut(), imp, "test");
    assert_eq!(t.status("imp"), Status::Unconscious, "no Spirit left: unconscious");
    t.update();
    assert_eq!(t.tp("imp"), 0, "an unconscious combatant keeps no TP");
    damage::handicap(t.world_mut(), imp, "test");
    assert_eq!(t.status("imp"), Status::Dead);
}

#[test]
fn an_unconscious_combatant_rolls_endurance_against_7_at_the_end_of_the_round() {
    let mut t = Table::from_ron(LOCKJAW);
    let imp = t.e("imp");
    damage::handicap(t.world_mut(), imp, "test");
    damage::handicap(t.world_mut(), imp, "test");
    t.play_to_turns(&[("lockjaw", 0), ("archer", 0)]);
    while t.phase() == crate::FiendWakePhase::ExecuteTurns || t.phase() == crate::FiendWakePhase::Aftermath {
        let who = t.awaiting()[0].clone();
        let intent = if t.world().resource::<crate::ActiveTurn>().actor.is_some() {
            crate::FiendWakeIntent::EndTurn
        } else {
            crate::FiendWakeIntent::Pass
        };
        t.accept(&who, intent);
    }
    while t.phase() == crate::FiendWakePhase::Harassment {
        let who = t.awaiting()[0].clone();
        t.accept(&who, crate::FiendWakeIntent::Pass);
    }
    let roll = t
        .log()
        .into_iter()
        .find_map(|e| match e.event {
            LogEvent::Roll(r) if e.actor.as_ref().is_some_and(|a| a.as_str() == "imp") => {
                Some(super::support::roll(r))
            }
            _ => None,
        })
        .expect("the unconscious imp rolled");
    assert_eq!(roll.what, "Endurance");
    assert_eq!(roll.difficulty, 7);
    assert_eq!(roll.dice.len(), 2, "Endurance 2 has two stack numbers: two dice");
    let expected = if roll.success { Status::Unconscious } else { Status::Dead };
    assert_eq!(t.status("imp"), expected, "a failed roll is a handicap, and with no Spirit left, death");
}
