//! Attacks against the modifier charts: range bands (the worse of weapon and sight),
//! cover around or through (the barrier deflects), prone, high ground, movement, darkness.

use super::support::{Table, YARD};
use crate::combat::{band, check};
use crate::data::Band;

fn yard_with(cover: &str, extra_rules: &str) -> Table {
    let text =
        YARD.replace("rules: (", &format!("rules: (\n        covers: [{cover}],\n        {extra_rules}"));
    Table::from_ron(&text)
}

#[test]
fn a_pistol_at_10_m_is_short_range_plus_1() {
    let t = Table::from_ron(YARD);
    let plan = check(t.world(), t.e("bo"), t.e("ann"), false).expect("Bo can shoot Ann");
    assert_eq!(plan.target_number, 5 + 1, "firearms 5, short range +1");
}

#[test]
fn cover_is_shot_around_or_through_its_barrier() {
    let t = yard_with(
        r#"(id: "wall", name: "Wall", position: (0.0, 0.5), radius: 1.0, percent: 90, material: "brick")"#,
        "",
    );
    let around = check(t.world(), t.e("bo"), t.e("ann"), false).expect("around");
    assert_eq!((around.target_number, around.barrier), (6 - 4, 0), "around 90% cover: -4");
    let through = check(t.world(), t.e("bo"), t.e("ann"), true).expect("through");
    assert_eq!((through.target_number, through.barrier), (6 - 2, 5), "through: -2 and brick's barrier 5");
    let ann_shoots = check(t.world(), t.e("ann"), t.e("bo"), false).expect("Ann shoots from cover");
    assert_eq!(ann_shoots.target_number, 6 + 1 + 2, "heavy gun 6, short +1, attacker in 90% cover +2");
    assert!(check(t.world(), t.e("ann"), t.e("bo"), true).is_err(), "Bo has no cover to shoot through");
}

#[test]
fn the_worse_of_weapon_range_and_sight_counts() {
    let t = yard_with("", "conditions: (darkness: Dark),");
    let (ann, bo) = (t.e("ann"), t.e("bo"));
    let heavy = crate::view::ready_weapon(t.world(), ann).expect("a weapon").1;
    // Dark: visible range 100 x (1 - 0.75) = 25 m; 10 m is within it.
    assert_eq!(band(t.world(), ann, bo, &heavy), Ok(Band::Short));
    let mut t = t;
    t.world_mut().entity_mut(bo).insert(fray_core::prelude::FieldPosition([22.0, 0.0]));
    assert_eq!(
        band(t.world(), ann, bo, &heavy),
        Ok(Band::Medium),
        "22 m: sight says short, the weapon medium"
    );
    t.world_mut().entity_mut(bo).insert(fray_core::prelude::FieldPosition([45.0, 0.0]));
    assert_eq!(band(t.world(), ann, bo, &heavy), Ok(Band::Long), "45 m: sight says medium, the weapon long");
    t.world_mut().entity_mut(bo).insert(fray_core::prelude::FieldPosition([60.0, 0.0]));
    assert_eq!(band(t.world(), ann, bo, &heavy), Ok(Band::Long), "60 m: long for both");
    t.world_mut().entity_mut(bo).insert(fray_core::prelude::FieldPosition([200.0, 0.0]));
    assert!(band(t.world(), ann, bo, &heavy).is_err(), "200 m is beyond 2 x long (160 m)");
}

#[test]
fn prone_targets_and_high_ground_change_the_target_number() {
    let text = YARD.replace("initiative: 6,", "initiative: 6, prone: true, elevation: 4.0,");
    let t = Table::from_ron(&text);
    let bo_shoots = check(t.world(), t.e("bo"), t.e("ann"), false).expect("Bo shoots");
    assert_eq!(bo_shoots.target_number, 5 + 1 + 2 + 1, "short +1, prone with a firearm +2, 4 m higher +1");
    let ann_shoots = check(t.world(), t.e("ann"), t.e("bo"), false).expect("Ann shoots");
    assert_eq!(ann_shoots.target_number, 6 + 1, "a prone target at 10 m is neither near nor far");
}

#[test]
fn melee_needs_reach() {
    let text = YARD.replace(r#"ready: "heavy""#, r#"ready: "knife""#);
    let mut t = Table::from_ron(&text);
    let reason = check(t.world(), t.e("ann"), t.e("bo"), false).expect_err("10 m is out of reach");
    assert!(reason.0.contains("reaches"), "{reason}");
    let bo = t.e("bo");
    t.world_mut().entity_mut(bo).insert(fray_core::prelude::FieldPosition([1.5, 0.0]));
    assert!(check(t.world(), t.e("ann"), bo, false).is_ok(), "a knife reaches 1 m, plus the free 1 m shift");
}

#[test]
fn a_fire_bottle_that_hits_sets_its_target_burning() {
    let text = YARD
        .replace(
            r#"weapons: ["heavy", "knife"], ready: "heavy""#,
            r#"weapons: ["molotov"], ready: "molotov""#,
        )
        .replace(r#"skills: {"firearms": 6, "dodge": 4}"#, r#"skills: {"throwing": 8}"#);
    let mut burned = 0;
    for seed in 0..20 {
        let mut t = Table::from_ron(&text.replace("seed: 3", &format!("seed: {seed}")));
        let bo = t.e("bo");
        t.world_mut().entity_mut(bo).insert(fray_core::prelude::FieldPosition([4.0, 0.0]));
        t.accept(
            "ann",
            crate::FateWalkerIntent::Act {
                action: crate::Action::Attack { target: "bo".into(), through_cover: false },
            },
        );
        t.accept("bo", crate::FateWalkerIntent::Decline);
        let hit =
            t.log().iter().any(|l| matches!(&l.event, fray_core::log::LogEvent::Effect { what: "hit", .. }));
        let burning = t.world().get::<crate::sheet::Afflictions>(bo).is_some_and(|a| !a.0.is_empty());
        assert_eq!(hit && crate::view::on_table(t.world(), bo), burning, "seed {seed}: a hit sets the fire");
        burned += u32::from(burning);
    }
    assert!(burned > 0, "at throwing 8 some of 20 throws hit");
}

#[test]
fn the_board_s_aim_view_names_the_band_and_the_rows_the_rules_count() {
    let t = yard_with(
        r#"(id: "wall", name: "Wall", position: (0.0, 0.5), radius: 1.0, percent: 90, material: "brick")"#,
        "",
    );
    let aim = crate::combat::aim(t.world(), t.e("bo"), t.e("ann"), false);
    assert!((aim.distance - 10.0).abs() < 1e-3, "Bo stands 10 m from Ann, the view says {}", aim.distance);
    assert_eq!(aim.band, Some(Band::Short));
    assert_eq!(aim.modifiers, vec![("short range", 1), ("target in 90% cover", -4)]);
    assert_eq!(aim.target_number, Ok(6 - 4), "the view's number is the rules' number");
    let sum: i32 = aim.modifiers.iter().map(|(_, m)| m).sum();
    assert_eq!(aim.target_number, Ok(5 + sum), "skill 5 plus the rows shown");
}
