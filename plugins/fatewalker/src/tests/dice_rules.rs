//! The dice: the text's deflection example, promotion and demotion at the ends, pierce on
//! zeros, wounded dice, and an attack roll against the modifier charts.

use crate::data::Defaults;
use crate::dice::{DamageDice, DamageNotationError, Pool};

fn dice(text: &str) -> DamageDice {
    DamageDice::parse(text).unwrap_or_else(|e| panic!("{text} is valid damage: {e}"))
}

#[test]
fn the_texts_example_6x1_6x3_against_deflection_4_becomes_10x1_2x3() {
    let mut d = dice("6x1/6x3");
    d.shift(-4);
    assert_eq!(d.to_string(), "10x1/2x3", "deflection demotes the higher dice first, one per point");
    assert_eq!(d.count(), 12, "demotion keeps the dice while they are above 1");
}

#[test]
fn net_successes_promote_the_lower_dice_first() {
    let mut d = dice("3x3/3x1");
    d.shift(2);
    assert_eq!(d.to_string(), "1x1/5x3", "each success promotes one die worth 1 to 3");
}

#[test]
fn promotions_past_the_last_low_die_step_the_dice_up_a_value() {
    let mut d = dice("3x3/3x1");
    d.shift(3);
    assert_eq!(d.to_string(), "6x3", "every 1 has become a 3");
    d.shift(2);
    assert_eq!(d.to_string(), "4x3/2x5", "further promotions turn 3s into 5s");
}

#[test]
fn demotions_of_all_1s_remove_dice_until_none_are_left() {
    let mut d = dice("2x3/1x1");
    d.shift(-2);
    assert_eq!(d.to_string(), "3x1", "the 3s step down to 1s first");
    d.shift(-1);
    assert_eq!(d.to_string(), "2x1", "a demoted 1 is removed");
    d.shift(-5);
    assert_eq!(d.count(), 0, "the roll can be demoted away entirely");
    assert_eq!(d.to_string(), "no dice");
}

#[test]
fn deflection_and_net_successes_cancel_each_other() {
    let mut a = dice("6x1/6x3");
    a.shift(3 - 3);
    assert_eq!(a.to_string(), "6x1/6x3", "3 net successes against deflection 3 leave the dice as they are");
}

#[test]
fn zeros_pierce_armour_and_other_successes_do_not() {
    let d = dice("2x3/2x1");
    // Rolled highest value first: 3, 3, 1, 1.
    let (normal, piercing) = d.score(&[0, 4, 0, 7], 5);
    assert_eq!(piercing, 3 + 1, "the 0s on a 3 and a 1 pierce");
    assert_eq!(normal, 3, "the 4 under target 5 succeeds as ordinary damage; the 7 misses");
}

#[test]
fn damage_notation_is_checked() {
    assert_eq!(dice("3x3/3x1").count(), 6);
    assert!(matches!(DamageDice::parse("3x4"), Err(DamageNotationError::EvenValue(_))), "die values are odd");
    assert!(matches!(DamageDice::parse("1x1/1x3/1x5"), Err(DamageNotationError::TooManyKinds(_))));
    assert!(matches!(DamageDice::parse("three"), Err(DamageNotationError::Malformed(_))));
}

#[test]
fn a_wounded_die_rolls_at_half_the_target_number() {
    let pool = Pool::new(4, 5, 1);
    assert_eq!((pool.sound, pool.wounded, pool.wounded_target()), (3, 1, 2), "one wounded die at 5 / 2 = 2");
    assert_eq!(pool.successes(&[4, 4, 4, 4]), 3, "a 4 succeeds on a sound die, not on the wounded one");
    assert_eq!(pool.successes(&[9, 9, 9, 1]), 1, "a 1 succeeds on the wounded die");
}

#[test]
fn once_every_die_is_wounded_further_penalties_take_dice_away() {
    let pool = Pool::new(3, 4, 5);
    assert_eq!((pool.sound, pool.wounded), (0, 1), "3 dice wounded, then 2 more penalties remove 2 of them");
    assert_eq!(Pool::new(2, 4, 9).dice(), 0, "a pool can be wounded away entirely");
}

#[test]
fn the_embedded_defaults_parse_and_every_weapon_has_valid_damage() {
    let d = Defaults::embedded();
    for (id, w) in &d.weapons {
        assert!(
            DamageDice::parse(&w.damage).is_ok(),
            "default weapon '{id}' has valid damage '{}'",
            w.damage
        );
    }
    assert_eq!(d.weapons["knife"].damage, "3x3/3x1", "the text's average knife");
    assert_eq!(d.tables.initiative.base, 10);
    assert_eq!(d.tables.segment_ticks, 6);
}
