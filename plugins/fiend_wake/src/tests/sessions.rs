//! Sessions that survive: saves that load to the same fight, undo and redo, and random
//! battles saved anywhere and carried on to the same log.

use crate::decisions::awaiting;
use crate::legal::legal_intents;
use crate::{FiendWakeIntent, FiendWakePhase};
use bevy_ecs::prelude::*;
use fray_core::fight as session;
use fray_core::intent::Outcomes;
use fray_core::prelude::*;
use fray_core::session::AiPacing;
use fray_core::session::IntentHistory;
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::support::{LOCKJAW, Table};

const SCENARIOS: [&str; 2] = [super::support::SWAMP, super::support::CASTLE];

fn rulesets() -> fray_core::ruleset::Rulesets {
    fray_core::ruleset::Rulesets::default().with::<crate::FiendWake>()
}

fn scenario_text(text: &str) -> String {
    text.to_owned()
}

/// A table with a session (what saves and undo need), from scenario text; not yet updated.
fn session_table(text: &str, seed: u64, max_rounds: u32) -> Table {
    Table::from_text(text, seed, false, max_rounds)
}

/// The Lockjaw table with a session, its three combatants played by the test.
fn lockjaw() -> Table {
    let mut t = session_table(LOCKJAW, 3, 100);
    t.update();
    t
}

/// Everything a person sees of the table: the log, and each combatant's counters, status
/// and place, and the phase.
fn snapshot(t: &mut Table) -> String {
    let mut out = t.log_jsonl();
    let ids: Vec<String> =
        t.world().resource::<TableIndex>().combatants.keys().map(|c| c.to_string()).collect();
    for id in ids {
        let counters: Vec<u32> = super::support::KINDS.iter().map(|&k| t.count(&id, k)).collect();
        out += &format!("{id}: {counters:?} {:?} in {}\n", t.status(&id), t.place(&id));
    }
    out + &format!("phase {:?}\n", t.phase())
}

fn undo(t: &mut Table) -> String {
    session::undo(t.world_mut()).unwrap_or_else(|e| panic!("undo should work here: {e}"))
}

fn redo(t: &mut Table) -> String {
    session::redo(t.world_mut()).unwrap_or_else(|e| panic!("redo should work here: {e}"))
}

#[test]
fn undoing_a_move_gives_back_its_tp_and_redo_moves_again() {
    let mut t = lockjaw();
    t.play_to_turns(&[("lockjaw", 0), ("imp", 0), ("archer", 0)]);
    while t.awaiting() != ["lockjaw"] {
        let who = t.awaiting()[0].clone();
        t.accept(&who, FiendWakeIntent::EndTurn);
    }
    let tp = t.tp("lockjaw");
    let before = snapshot(&mut t);
    t.accept("lockjaw", FiendWakeIntent::EnterLocation { location: "tower".into(), upgrade: false });
    assert_eq!(t.place("lockjaw"), "tower");
    assert_eq!(t.tp("lockjaw"), tp - 2, "entering the tower costs 2 TP");
    let after = snapshot(&mut t);
    let undone = undo(&mut t);
    assert!(undone.contains("EnterLocation"), "undo names what it undid: {undone}");
    assert_eq!(t.tp("lockjaw"), tp, "undoing the move gives the 2 TP back");
    assert_eq!(t.place("lockjaw"), "field", "and Lockjaw stands where he stood");
    assert_eq!(snapshot(&mut t), before, "the table is exactly as before the move, log included");
    redo(&mut t);
    assert_eq!(snapshot(&mut t), after, "redo replays the move exactly");
    assert!(session::redo(t.world_mut()).is_err(), "nothing more to redo");
}

#[test]
fn undoing_a_roll_and_redoing_it_gives_the_same_dice() {
    let mut t = lockjaw();
    t.play_to_turns(&[("lockjaw", 1), ("imp", 0), ("archer", 0)]);
    assert_eq!(t.awaiting(), ["lockjaw"], "Lockjaw bid highest and acts first");
    t.accept("lockjaw", FiendWakeIntent::RangedAttack { target: "archer".into() });
    let lockjaws_rolls = |t: &mut Table| {
        snapshot(t)
            .lines()
            .filter(|l| l.contains("\"actor\":\"lockjaw\"") && l.contains("\"kind\":\"roll\""))
            .count()
    };
    let rolled = snapshot(&mut t);
    assert_eq!(lockjaws_rolls(&mut t), 1, "the attack rolled dice");
    undo(&mut t);
    assert_eq!(lockjaws_rolls(&mut t), 0, "the roll is undone");
    redo(&mut t);
    assert_eq!(snapshot(&mut t), rolled, "redo rolls the same dice: the RNG is replayed state");
    // Submitting the attack again after an undo rolls the same dice too.
    undo(&mut t);
    t.accept("lockjaw", FiendWakeIntent::RangedAttack { target: "archer".into() });
    assert_eq!(snapshot(&mut t), rolled, "the same intent from the same state rolls the same");
}

#[test]
fn undo_crosses_phase_and_round_boundaries() {
    let mut t = lockjaw();
    t.accept("lockjaw", FiendWakeIntent::PayArmour { tp: 1, turn_tokens: 0 });
    t.accept("lockjaw", FiendWakeIntent::Bid { tp: 0 });
    t.accept("imp", FiendWakeIntent::Bid { tp: 0 });
    let bidding = snapshot(&mut t);
    assert_eq!(t.phase(), FiendWakePhase::BidForPriority);
    t.accept("archer", FiendWakeIntent::Bid { tp: 0 });
    assert_ne!(t.phase(), FiendWakePhase::BidForPriority, "the last bid ends the bidding");
    undo(&mut t);
    assert_eq!(t.phase(), FiendWakePhase::BidForPriority, "undoing the last bid goes back into bidding");
    assert_eq!(t.awaiting(), ["archer"], "waiting on the archer's bid again");
    assert_eq!(snapshot(&mut t), bidding);

    // Play on until the round changes, then undo the intent that changed it.
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let round = |t: &Table| t.world().resource::<crate::Round>().number;
    let first = round(&t);
    let mut last_before = None;
    for _ in 0..500 {
        let before = snapshot(&mut t);
        let waiting = awaiting(t.world());
        let who = waiting[0];
        let legal = legal_intents(t.world(), who);
        let intent = legal[rng.random_range(0..legal.len())].clone();
        let id = t.id(who);
        t.accept(&id, intent);
        if round(&t) != first || t.phase() == FiendWakePhase::CombatOver {
            last_before = Some(before);
            break;
        }
    }
    let before = last_before.expect("the first round ends within 500 decisions");
    undo(&mut t);
    assert_eq!(round(&t), first, "undo goes back into the previous round");
    assert_eq!(snapshot(&mut t), before, "exactly as it was");
}

#[test]
fn nothing_to_undo_on_a_fresh_table_is_an_error_not_a_panic() {
    let mut t = lockjaw();
    assert!(!session::can_undo(t.world()));
    let e = session::undo(t.world_mut()).expect_err("nothing was decided yet");
    assert!(e.contains("nothing to undo"), "{e}");
    assert!(session::redo(t.world_mut()).is_err());
}

#[test]
fn undo_keeps_the_controllers_people_chose() {
    let mut t = lockjaw();
    t.accept("lockjaw", FiendWakeIntent::PayArmour { tp: 1, turn_tokens: 0 });
    let imp = t.e("imp");
    t.world_mut().entity_mut(imp).insert(Controller::Ai);
    // Hold the AI so that the test still decides.
    t.world_mut().insert_resource(AiPacing::default());
    t.update();
    t.accept("lockjaw", FiendWakeIntent::Bid { tp: 0 });
    undo(&mut t);
    assert_eq!(t.world().get::<Controller>(t.e("imp")), Some(&Controller::Ai), "the imp stays with the AI");
    let history = t.world().resource::<IntentHistory>();
    assert_eq!(history.controller_changes.len(), 1, "the hand-over is in the record: {history:?}");
}

#[test]
fn undo_and_a_save_keep_the_ai_levels_chosen() {
    use fray_core::ai::AiLevel;
    let mut t = lockjaw();
    t.accept("lockjaw", FiendWakeIntent::PayArmour { tp: 1, turn_tokens: 0 });
    let imp = t.e("imp");
    t.world_mut().entity_mut(imp).insert(AiLevel::Simple);
    t.accept("lockjaw", FiendWakeIntent::Bid { tp: 0 });
    undo(&mut t);
    let level = |t: &Table, id: &str| t.world().get::<AiLevel>(t.e(id)).copied();
    assert_eq!(level(&t, "imp"), Some(AiLevel::Simple), "undo keeps the level the GM chose");
    let saved = session::save_string(t.world()).expect("saving");
    assert!(saved.contains("ai_levels") && saved.contains("simple"), "{saved}");
    let loaded = load_text(&saved);
    assert_eq!(
        (level(&loaded, "imp"), level(&loaded, "lockjaw")),
        (Some(AiLevel::Simple), Some(AiLevel::Tactical))
    );
    // A save with every level the default says nothing of them.
    let imp = t.e("imp");
    t.world_mut().entity_mut(imp).insert(AiLevel::Tactical);
    assert!(!session::save_string(t.world()).expect("saving").contains("ai_levels"));
}

/// One step of a random fight: a person (the test) submits a random legal intent for a
/// combatant it controls (sometimes an illegal one, which is refused and logged), or the AI
/// is let take one decision, or now and then a combatant changes hands.
fn random_step(t: &mut Table, rng: &mut ChaCha8Rng) {
    let world = t.world();
    if rng.random_range(0..40) == 0 {
        let order = world.resource::<TableIndex>().order.clone();
        let e = order[rng.random_range(0..order.len())];
        let other = match world.get::<Controller>(e) {
            Some(Controller::Ai) => Controller::Gm,
            _ => Controller::Ai,
        };
        t.world_mut().entity_mut(e).insert(other);
        t.update();
        return;
    }
    let people: Vec<Entity> = awaiting(world)
        .into_iter()
        .filter(|&e| world.get::<Controller>(e) == Some(&Controller::Gm))
        .collect();
    if people.is_empty() || rng.random_range(0..4) == 0 {
        t.world_mut().resource_mut::<AiPacing>().allowance = 1;
        t.update();
        // An allowance the AI did not use is not carried over (a save does not keep it).
        t.world_mut().resource_mut::<AiPacing>().allowance = 0;
        return;
    }
    let who = people[rng.random_range(0..people.len())];
    let id = t.id(who);
    let intent = if rng.random_range(0..15) == 0 {
        FiendWakeIntent::Retreat { tp: 99, upgrade: false }
    } else {
        let legal = legal_intents(t.world(), who);
        if legal.is_empty() { FiendWakeIntent::Pass } else { legal[rng.random_range(0..legal.len())].clone() }
    };
    t.world_mut()
        .resource_mut::<fray_core::intent::Inbox<FiendWakeIntent>>()
        .submit(CombatantId::from(id), intent);
    t.update();
}

/// A random fight's table: the scenario's controllers, mixed at random, the AI paced by
/// the test.
fn random_table(which: usize, seed: u64, mix: u64) -> Table {
    let text = scenario_text(SCENARIOS[which]);
    let mut t = session_table(&text, seed, 12);
    let order = t.world().resource::<TableIndex>().order.clone();
    for (i, e) in order.into_iter().enumerate() {
        let c = if mix >> (i % 64) & 1 == 1 { Controller::Ai } else { Controller::Gm };
        t.world_mut().entity_mut(e).insert(c);
    }
    t.world_mut().insert_resource(AiPacing::default());
    t.update();
    t
}

fn over(t: &Table) -> bool {
    t.phase() == FiendWakePhase::CombatOver
}

/// Plays random steps until the fight ends (at most `max` steps). Returns whether it ended.
fn play_on(t: &mut Table, rng: &mut ChaCha8Rng, max: u32) -> bool {
    for _ in 0..max {
        if over(t) {
            return true;
        }
        random_step(t, rng);
    }
    over(t)
}

/// Enough steps for any random fight of at most 12 rounds.
const MAX_STEPS: u32 = 50_000;

/// Opens save text on a fresh headless table, paced like the original.
fn load_text(text: &str) -> Table {
    let save =
        session::read_save_text(&rulesets(), text).unwrap_or_else(|e| panic!("the save reads back: {e}"));
    let (mut app, report) = save.headless_app();
    assert_eq!(report.stopped, None, "every intent replays: {}", report.message());
    app.world_mut().insert_resource(AiPacing::default());
    let mut t = Table { app };
    t.update();
    t
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// A random fight saved at a random point, loaded and carried on gives the log of the
    /// fight played without a break, byte for byte.
    #[test]
    fn a_fight_saved_anywhere_loads_and_carries_on_to_the_same_log(
        which in 0..2usize, seed in any::<u64>(), mix in any::<u64>(), split in 0..400u32,
    ) {
        let mut whole = random_table(which, seed, mix);
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xfeed);
        prop_assert!(play_on(&mut whole, &mut rng, MAX_STEPS), "the unbroken fight ends");

        let mut first = random_table(which, seed, mix);
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xfeed);
        play_on(&mut first, &mut rng, split);
        let text = session::save_string(first.world()).map_err(TestCaseError::fail)?;
        let mut resumed = load_text(&text);
        prop_assert_eq!(snapshot(&mut resumed), snapshot(&mut first), "loading gives the saved table");
        prop_assert!(play_on(&mut resumed, &mut rng, MAX_STEPS), "the resumed fight ends");
        prop_assert!(resumed.log_jsonl() == whole.log_jsonl(), "the carried-on log differs from the unbroken one");
        let again = session::save_string(resumed.world()).map_err(TestCaseError::fail)?;
        let unbroken = session::save_string(whole.world()).map_err(TestCaseError::fail)?;
        let diff = again.lines().zip(unbroken.lines()).enumerate().find(|(_, (a, b))| a != b).map(|(i, (a, b))| format!("line {}: {a} // {b}", i + 1));
        prop_assert!(again == unbroken, "and so does the save: {diff:?}");
    }

    /// Random intents with random undos and redos leave the table exactly as the intents
    /// that were not undone, submitted one after the other on a fresh table.
    #[test]
    fn undo_and_redo_equal_the_fight_without_the_undone_intents(
        which in 0..2usize, seed in any::<u64>(), ops in proptest::collection::vec(0..10u8, 1..120),
    ) {
        let text = scenario_text(SCENARIOS[which]);
        let mut t = session_table(&text, seed, 12).all_human();
        t.update();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        // The test's own account: what was submitted and not undone, and what can be redone.
        let mut kept: Vec<(String, FiendWakeIntent, bool)> = Vec::new();
        let mut redo_steps: Vec<Vec<(String, FiendWakeIntent, bool)>> = Vec::new();
        for op in ops {
            if over(&t) { break; }
            match op {
                0 | 1 => {
                    let result = session::undo(t.world_mut());
                    match kept.iter().rposition(|k| k.2) {
                        Some(last) => {
                            prop_assert!(result.is_ok(), "undo refused: {:?}", result);
                            redo_steps.push(kept.split_off(last));
                        }
                        None => prop_assert!(result.is_err(), "undo with nothing accepted"),
                    }
                }
                2 => {
                    let result = session::redo(t.world_mut());
                    match redo_steps.pop() {
                        Some(step) => {
                            prop_assert!(result.is_ok(), "redo refused: {:?}", result);
                            kept.extend(step);
                        }
                        None => prop_assert!(result.is_err(), "redo with nothing undone"),
                    }
                }
                _ => {
                    let waiting = awaiting(t.world());
                    prop_assert!(!waiting.is_empty(), "the table waits on nobody in {:?}", t.phase());
                    let who = waiting[rng.random_range(0..waiting.len())];
                    let id = t.id(who);
                    let intent = if op == 9 {
                        FiendWakeIntent::Retreat { tp: 99, upgrade: false }
                    } else {
                        let legal = legal_intents(t.world(), who);
                        legal[rng.random_range(0..legal.len())].clone()
                    };
                    let accepted = t.submit(&id, intent.clone()).is_ok();
                    if accepted {
                        redo_steps.clear();
                    }
                    kept.push((id, intent, accepted));
                }
            }
        }
        let mut fresh = session_table(&text, seed, 12).all_human();
        fresh.update();
        for (id, intent, accepted) in &kept {
            prop_assert_eq!(fresh.submit(id, intent.clone()).is_ok(), *accepted, "{} {:?}", id, intent);
        }
        prop_assert_eq!(snapshot(&mut t), snapshot(&mut fresh));
        // And what is saved after undoing loads to the same table.
        let saved = session::save_string(t.world()).map_err(TestCaseError::fail)?;
        let mut loaded = load_text(&saved);
        prop_assert_eq!(snapshot(&mut loaded), snapshot(&mut fresh));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// The AI deciding inside the rules' own passes (unpaced, as `fray sim` plays) is
    /// replayed exactly by re-submitting its intents one by one.
    #[test]
    fn any_saved_all_ai_battle_replays_to_the_same_log(which in 0..2usize, seed in any::<u64>()) {
        all_ai_round_trip(SCENARIOS[which], seed);
    }
}

#[test]
fn a_saved_all_ai_battle_replays_to_the_same_log_and_the_same_save() {
    all_ai_round_trip(SCENARIOS[0], 7);
}

fn all_ai_round_trip(path: &str, seed: u64) {
    let text = scenario_text(path);
    let mut t = session_table(&text, seed, 100);
    let everyone: Vec<Entity> = t.world().resource::<TableIndex>().order.clone();
    for e in everyone {
        t.world_mut().entity_mut(e).insert(Controller::Ai);
    }
    t.update();
    assert!(over(&t), "an all-AI battle ends in one update");
    let saved = session::save_string(t.world()).expect("saving");
    let loaded = load_text(&saved);
    assert!(loaded.log_jsonl() == t.log_jsonl(), "the replayed log is byte for byte the played one");
    assert_eq!(session::save_string(loaded.world()).expect("saving again"), saved);
    let outcomes = loaded.world().resource::<Outcomes>().0.len();
    assert_eq!(outcomes, t.world().resource::<Outcomes>().0.len());
}

#[test]
fn a_watched_save_steps_forward_and_back_with_the_log_in_step() {
    let text = scenario_text(SCENARIOS[1]);
    let mut t = session_table(&text, 4, 100);
    let everyone: Vec<Entity> = t.world().resource::<TableIndex>().order.clone();
    for e in everyone {
        t.world_mut().entity_mut(e).insert(Controller::Ai);
    }
    t.update();
    let full = t.log_jsonl();
    let saved = session::save_string(t.world()).expect("saving");
    let save = session::read_save_text(&rulesets(), &saved).expect("reading");
    let mut watch = Table { app: save.scenario.table_app(save.seed(), save.limit(), false) };
    let report = session::start_replay(watch.world_mut(), &save).expect("the replay opens");
    assert_eq!(report.stopped, None);
    let (at, total) = session::position(watch.world());
    assert_eq!(at, 0, "a watched fight starts at its start");
    assert!(total > 10, "and every step of it is ahead: {total}");
    let mut logs = vec![watch.log_jsonl()];
    for _ in 0..total {
        redo(&mut watch);
        logs.push(watch.log_jsonl());
    }
    watch.update();
    assert!(watch.log_jsonl() == full, "stepping through every step gives the whole log; the AI stays held");
    assert!(session::redo(watch.world_mut()).is_err(), "the end of the fight");
    for back in (0..total).rev() {
        undo(&mut watch);
        assert!(watch.log_jsonl() == logs[back], "stepping back to step {back} shows its log");
    }
    assert_eq!(session::position(watch.world()), (0, total));
}
