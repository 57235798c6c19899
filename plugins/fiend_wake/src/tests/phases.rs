//! The round's phases run in order; a phase that needs input waits, one that does not
//! hands over within the same update.

use crate::{ActiveTurn, FiendWakeIntent, FiendWakePhase, Round};
use fray_core::log::LogEvent;

use super::support::{LOCKJAW, Table};

fn phases_started(t: &Table) -> Vec<&'static str> {
    t.log().iter().filter(|e| matches!(e.event, LogEvent::PhaseStarted)).map(|e| e.phase).collect()
}

/// Ends every turn, passes every aftermath and harassment decision, until the next round.
fn pass_round(t: &mut Table) {
    let start = t.world().resource::<Round>().number;
    while t.world().resource::<Round>().number == start && t.phase() != FiendWakePhase::CombatOver {
        let who = t.awaiting().first().cloned().expect("someone is awaited while the round goes on");
        let intent = match t.phase() {
            _ if t.world().resource::<ActiveTurn>().actor.is_some() => FiendWakeIntent::EndTurn,
            FiendWakePhase::RoundPrep => FiendWakeIntent::PayArmour { tp: 1, turn_tokens: 0 },
            FiendWakePhase::BidForPriority => FiendWakeIntent::Bid { tp: 0 },
            FiendWakePhase::Cede => FiendWakeIntent::Cede { cede: false },
            _ => FiendWakeIntent::Pass,
        };
        t.accept(&who, intent);
    }
}

#[test]
fn a_waiting_phase_waits_for_its_intents() {
    let mut t = Table::from_ron(LOCKJAW);
    assert_eq!(t.phase(), FiendWakePhase::RoundPrep);
    assert_eq!(t.awaiting(), vec!["lockjaw"], "Lockjaw owes his armour's encumbrance");
    for _ in 0..5 {
        t.update();
    }
    assert_eq!(t.phase(), FiendWakePhase::RoundPrep, "nothing moves without the decision");
}

#[test]
fn a_phase_that_needs_nothing_hands_over_in_the_same_update() {
    let mut t = Table::from_ron(LOCKJAW);
    t.accept("lockjaw", FiendWakeIntent::PayArmour { tp: 1, turn_tokens: 0 });
    assert_eq!(
        t.phase(),
        FiendWakePhase::BidForPriority,
        "round prep ends in the update that settled the armour"
    );
    t.accept("lockjaw", FiendWakeIntent::Bid { tp: 3 });
    t.accept("imp", FiendWakeIntent::Bid { tp: 1 });
    t.accept("archer", FiendWakeIntent::Bid { tp: 2 });
    assert_eq!(t.phase(), FiendWakePhase::ExecuteTurns, "with no ties, the reveal goes straight to turns");
    assert_eq!(t.awaiting(), vec!["lockjaw"], "the top bidder plays the first pending turn");
}

#[test]
fn a_round_runs_its_phases_in_the_order_of_the_text() {
    let mut t = Table::from_ron(LOCKJAW);
    pass_round(&mut t);
    assert_eq!(
        phases_started(&t),
        vec![
            "bid_for_priority",
            "cede",
            "execute_turns",
            "aftermath",
            "harassment",
            "end_of_round",
            "round_prep"
        ],
        "round prep, bidding (all bid 0: a tie, so cede), turns, aftermath, harassment, end"
    );
    assert_eq!(t.world().resource::<Round>().number, 2);
}

#[test]
fn bids_are_revealed_together_and_spent() {
    let mut t = Table::from_ron(LOCKJAW);
    t.accept("lockjaw", FiendWakeIntent::PayArmour { tp: 1, turn_tokens: 0 });
    t.accept("lockjaw", FiendWakeIntent::Bid { tp: 3 });
    assert_eq!(t.tp("lockjaw"), 4, "a bid is spent only at the reveal");
    assert!(
        !t.log().iter().any(|e| matches!(e.event, LogEvent::Revealed { .. })),
        "nothing is revealed while bids are missing"
    );
    let sealed = t.log_jsonl().lines().rev().find(|l| l.contains("intent_accepted")).map(str::to_owned);
    assert!(
        sealed.is_some_and(|l| !l.contains("\"tp\"")),
        "the log does not show a bid's amount before the reveal"
    );
    t.accept("imp", FiendWakeIntent::Bid { tp: 0 });
    t.accept("archer", FiendWakeIntent::Bid { tp: 1 });
    assert_eq!(t.tp("lockjaw"), 1, "4 - 3 after the reveal");
    let revealed = t
        .log()
        .iter()
        .any(|e| matches!(&e.event, LogEvent::Revealed { what: "bid", choices } if choices.len() == 3));
    assert!(revealed, "all three bids are revealed in one entry");
}

#[test]
fn tied_bidders_may_cede_and_tactics_then_orders_them() {
    let mut t = Table::from_ron(LOCKJAW);
    t.accept("lockjaw", FiendWakeIntent::PayArmour { tp: 1, turn_tokens: 0 });
    for who in ["lockjaw", "imp", "archer"] {
        t.accept(who, FiendWakeIntent::Bid { tp: 1 });
    }
    assert_eq!(t.phase(), FiendWakePhase::Cede, "equal bids ask whether to cede");
    t.accept("lockjaw", FiendWakeIntent::Cede { cede: false });
    t.accept("imp", FiendWakeIntent::Cede { cede: true });
    t.accept("archer", FiendWakeIntent::Cede { cede: false });
    let order: Vec<String> = t.world().resource::<Round>().priority.iter().map(|&e| t.id(e)).collect();
    assert_eq!(order, vec!["lockjaw", "archer", "imp"], "Tactics 3 beats 0; the imp ceded to act after them");
}

#[test]
fn pending_turns_go_in_priority_order_until_the_tokens_run_out_then_the_top_bidder_gets_one_more() {
    let mut t = Table::from_ron(LOCKJAW);
    t.play_to_turns(&[("lockjaw", 3), ("imp", 2), ("archer", 1)]);
    while t.phase() == FiendWakePhase::ExecuteTurns || t.world().resource::<ActiveTurn>().actor.is_some() {
        let who = t.awaiting()[0].clone();
        t.accept(&who, FiendWakeIntent::EndTurn);
    }
    let turns: Vec<String> = t
        .log()
        .iter()
        .filter(|e| matches!(e.event, LogEvent::TurnStarted))
        .map(|e| e.actor.clone().expect("a turn has an actor").to_string())
        .collect();
    assert_eq!(
        turns,
        vec!["lockjaw", "imp", "archer", "lockjaw", "imp", "archer", "lockjaw", "lockjaw"],
        "Resolve 4 gives Lockjaw 3 turns, Resolve 2 the imps 2 each; the last is the aftermath's extra turn"
    );
    assert_eq!(t.world().resource::<Round>().turns_executed, 7, "the extra turn is not counted");
}

#[test]
fn a_round_without_turns_ends_the_fight() {
    let text = r#"Scenario(name: "Everyone refuses", ruleset: "fiend_wake",
        rules: (armours: {"plate": (name: "Plate", reduction: 3, encumbrance: 3)}),
        sides: [(id: "a", name: "A"), (id: "b", name: "B")],
        combatants: [
            (id: "x", name: "X", side: "a", controller: Human, sheet: (attributes: (power: 1, grace: 1, cunning: 1, endurance: 1, resolve: 1, spirit: 1), evasion: 5, armour: "plate")),
            (id: "y", name: "Y", side: "b", controller: Human, sheet: (attributes: (power: 1, grace: 1, cunning: 1, endurance: 1, resolve: 1, spirit: 1), evasion: 5, armour: "plate")),
        ])"#;
    let mut t = Table::from_ron(text);
    t.accept("x", FiendWakeIntent::RefuseArmour { doff: false });
    t.accept("y", FiendWakeIntent::RefuseArmour { doff: true });
    t.accept("x", FiendWakeIntent::Bid { tp: 0 });
    t.accept("y", FiendWakeIntent::Bid { tp: 0 });
    t.accept("x", FiendWakeIntent::Cede { cede: false });
    t.accept("y", FiendWakeIntent::Cede { cede: false });
    assert_eq!(
        t.phase(),
        FiendWakePhase::CombatOver,
        "no turn tokens, no turns: the fight ends before the aftermath"
    );
    let result = t.world().resource::<fray_core::ruleset::FightResult>().clone();
    assert_eq!(result.reason, "no turns were executed this round");
    assert!(!phases_started(&t).contains(&"aftermath"));
}
