//! The ambush scenario: it parses, the AI plays it to the end legally; broken scenarios are
//! explained, never a panic.

use super::support::{AMBUSH, Table};
use crate::{FwkPhase, parse_scenario};

#[test]
fn the_ambush_parses_with_its_cover_vehicle_and_ambusher() {
    let s = parse_scenario(AMBUSH).unwrap_or_else(|e| panic!("the ambush parses: {e}"));
    assert_eq!(s.ruleset, crate::RULESET_ID);
    assert_eq!(s.rules.ambusher.as_ref().map(|a| a.0.as_str()), Some("kez"), "the marksman opens the fight");
    assert_eq!(s.mounts.len(), 1, "the sedan is a vehicle");
    assert!(s.rules.covers.len() >= 3, "a wall, a van and a dumpster give cover");
}

#[test]
fn the_ai_plays_the_ambush_to_the_end_with_legal_intents() {
    for seed in 0..8 {
        let mut t = Table::ambush(seed, true, 600);
        t.update();
        assert_eq!(t.phase(), FwkPhase::FightOver, "seed {seed}: an all-AI ambush ends in one update");
        let refused = t.refusals();
        assert!(refused.is_empty(), "seed {seed}: the AI submits only legal intents: {refused:?}");
        let result = t.world().get_resource::<crate::FightResult>().expect("a result is recorded");
        assert!(result.ticks <= 600, "seed {seed}: ended by tick 600, not {}", result.ticks);
        eprintln!("seed {seed}: {result:?}");
    }
}
