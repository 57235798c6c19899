//! Seats: what each seat's view holds, and the leak test. Random fights of every ruleset's
//! bundled scenarios, two players' seats and the GM deciding, undo and redo among the
//! steps; after every step, and on a replay of the save, each seat's view is serialised and
//! searched for what it may not hold: another's sealed choice before the reveal, a
//! concealed combatant, a line the rules wrote about it while concealed, another's private
//! sheet.

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray::session;
use fray_core::fight::LoadedScenario;
use fray_core::log::GameLog;
use fray_core::prelude::{Controller, Side, TableIndex};
use fray_core::ruleset::AnyRuleset;
use fray_core::seat::{Seat, SeatView, seat_views};
use proptest::prelude::*;
use serde_json::Value;

/// Every ruleset's bundled scenarios (the toy duel's is its crate's).
const SCENARIOS: &[&str] = &[
    include_str!("../assets/scenarios/swamp.ron"),
    include_str!("../assets/scenarios/castle.ron"),
    include_str!("../assets/scenarios/fatewalker_ambush.ron"),
    include_str!("../assets/scenarios/fast_slow_crossing.ron"),
    include_str!("../assets/scenarios/fast_slow_ambush.ron"),
    include_str!("../assets/scenarios/fast_slow_flooded_vault.ron"),
    include_str!("../assets/scenarios/faction_zones_ambush.ron"),
    include_str!("../assets/scenarios/faction_zones_patrol.ron"),
    include_str!("../assets/scenarios/faction_zones_inn.ron"),
    include_str!("../assets/scenarios/faction_zones_market.ron"),
    include_str!("../assets/scenarios/faction_zones_wyrm.ron"),
    include_str!("../assets/scenarios/ap_ladder_ford.ron"),
    include_str!("../assets/scenarios/ap_ladder_tavern.ron"),
    include_str!("../plugins/toy_duel/scenarios/duel.ron"),
];

fn parse(text: &str) -> LoadedScenario {
    fray::rulesets::parse(text).unwrap_or_else(|e| panic!("{}", e.report("scenario").join("; ")))
}

/// The scenario with two players' seats: "One" plays the first combatant of the first side,
/// "Two" the first of every other side and the last of the first; the GM the rest.
fn with_seats(text: &str) -> String {
    let text = &crate::support::without_seats(text);
    let scenario = parse(text);
    let app = scenario.table_app(scenario.seed(), scenario.default_limit(), false);
    let world = app.world();
    let index = world.resource::<TableIndex>();
    let side = |e: Entity| world.get::<Side>(e).map(|s| s.0.clone());
    let first_side = index.order.first().and_then(|&e| side(e));
    let mut one = Vec::new();
    let mut two = Vec::new();
    let mut sides_seen = Vec::new();
    for &e in &index.order {
        let s = side(e);
        let id = fray_core::table::id(world, e).to_string();
        if sides_seen.contains(&s) {
            continue;
        }
        sides_seen.push(s.clone());
        if s == first_side { one.push(id) } else { two.push(id) }
    }
    if let Some(&last) = index.order.iter().rev().find(|&&e| side(e) == first_side) {
        let id = fray_core::table::id(world, last).to_string();
        if !one.contains(&id) {
            two.push(id);
        }
    }
    let list = |ids: &[String]| ids.iter().map(|i| format!("{i:?}")).collect::<Vec<_>>().join(", ");
    let body = text.trim_end().strip_suffix(')').expect("a scenario ends its brackets").trim_end();
    let comma = if body.ends_with(',') { "" } else { "," };
    format!(
        "{body}{comma} seats: [(id: \"one\", name: \"One\", combatants: [{}]), (id: \"two\", name: \"Two\", combatants: [{}])])",
        list(&one),
        list(&two)
    )
}

/// A fight of the scenario, every combatant decided by a person: a seat's or the GM.
fn fight(text: &str, seed: u64) -> App {
    let scenario = parse(text);
    let mut app = scenario.table_app(seed, scenario.default_limit(), false);
    let world = app.world_mut();
    let gm: Vec<_> = fray_core::session::controllers(world)
        .into_iter()
        .filter(|(_, c)| !matches!(c, Controller::Player(_)))
        .map(|(id, _)| (id, Controller::Gm))
        .collect();
    fray_core::session::set_controllers(world, &gm);
    fray_core::session::note_controllers(world);
    app.update();
    app
}

fn rules(world: &World) -> std::sync::Arc<dyn AnyRuleset> {
    fray_core::fight::ruleset(world).expect("a fight is open")
}

const SEATS: [&str; 2] = ["one", "two"];

fn all_seats() -> Vec<Seat> {
    let mut seats = vec![Seat::Gm, Seat::Table];
    seats.extend(SEATS.iter().map(|s| Seat::Player((*s).into())));
    seats
}

/// Takes one accepted choice of someone the rules wait on (`pick` chooses which); false when
/// the rules wait on nobody.
fn step(app: &mut App, pick: (usize, usize)) -> bool {
    let world = app.world();
    let rules = rules(world);
    let awaiting = rules.awaiting(world);
    if awaiting.is_empty() {
        return false;
    }
    let e = awaiting[pick.0 % awaiting.len()];
    let accepted: Vec<_> = rules.choices(world, e).into_iter().filter(|c| c.verdict.is_ok()).collect();
    let Some(choice) = accepted.get(pick.1 % accepted.len().max(1)) else { return false };
    let who = fray_core::table::id(world, e);
    let intent = choice.intent.clone();
    rules.submit(app.world_mut(), who, &intent);
    app.update();
    true
}

/// Every string in `value`, and every key, each with where it is.
fn strings<'v>(value: &'v Value, out: &mut Vec<(String, &'v str)>) {
    walk(value, String::new(), true, out);
}

/// The strings in `value` (and its keys, with `keys`), each with where it is.
fn walk<'v>(value: &'v Value, at: String, keys: bool, out: &mut Vec<(String, &'v str)>) {
    match value {
        Value::String(s) => out.push((at, s)),
        Value::Array(items) => {
            items.iter().enumerate().for_each(|(i, v)| walk(v, format!("{at}/{i}"), keys, out))
        }
        Value::Object(map) => {
            for (k, v) in map {
                if keys {
                    out.push((at.clone(), k));
                }
                walk(v, format!("{at}/{k}"), keys, out);
            }
        }
        _ => {}
    }
}

/// Whether `text` holds `name` other than as part of a longer name in `names`.
fn said(text: &str, name: &str, names: &[String]) -> bool {
    let longer = names.iter().filter(|n| n.len() > name.len() && n.contains(name));
    let rest = longer.fold(text.to_owned(), |rest, n| rest.replace(n.as_str(), ""));
    rest.contains(name)
}

/// The strings of `view` said of combatant `who` (values, not keys): its token, order
/// entry, sealed entry, sheet and its log lines from `since` on, each with where it is.
fn said_of<'v>(view: &'v Value, who: &str, since: u64) -> Vec<(String, &'v str)> {
    let mut out = Vec::new();
    let parts = [("tokens", "id"), ("sheets", "who"), ("log", "actor")];
    for (list, key) in parts {
        for (i, item) in view[list].as_array().into_iter().flatten().enumerate() {
            let recent = list != "log" || item["seq"].as_u64().is_some_and(|s| s >= since);
            if item[key] == who && recent {
                walk(item, format!("/{list}/{i}"), false, &mut out);
            }
        }
    }
    for (list, at) in [("/order/entries", "/order/entries"), ("/secret/chosen", "/secret/chosen")] {
        for (i, item) in view.pointer(list).and_then(Value::as_array).into_iter().flatten().enumerate() {
            if item["who"] == who {
                walk(item, format!("{at}/{i}"), false, &mut out);
            }
        }
    }
    out
}

/// What `view` (of a seat other than the GM's) holds that it may not; empty when nothing.
fn leaks(world: &World, view: &SeatView) -> Vec<String> {
    let rules = rules(world);
    let board = rules.view();
    let privacy = board.privacy();
    let seat = &view.seat;
    let controller = |e: Entity| world.get::<Controller>(e).cloned().unwrap_or_default();
    let whole = serde_json::to_value(view).expect("a view serialises");
    let mut found = Vec::new();
    // Concealed combatants: neither their id nor their name anywhere.
    let mut all = Vec::new();
    strings(&whole, &mut all);
    let index = world.resource::<TableIndex>();
    let names: Vec<String> = index.order.iter().map(|&e| fray_core::table::name(world, e)).collect();
    for &e in &world.resource::<TableIndex>().order {
        if !board.token(world, e).concealed || seat.may_see(privacy.concealed, &controller(e)) {
            continue;
        }
        let (id, name) = (fray_core::table::id(world, e), fray_core::table::name(world, e));
        let named = |s: &str| s == id.as_str() || said(s, &name, &names);
        // The winner is a side, public, whose id may be a combatant's too (the wyrm's).
        if let Some((at, s)) = all.iter().find(|(at, s)| named(s) && at != "/result/winner") {
            found.push(format!("concealed {id} named in \"{s}\" at {at}"));
        }
    }
    // Sealed choices: what another seat's combatant chose shows nowhere said of it (its
    // token, its place in the order, its entry in the secret, its sheet, its log lines),
    // and its intent as played is in no log line.
    if let Some(secret) = board.secret(world) {
        let history = world.resource::<fray_core::session::IntentHistory>();
        for (e, text) in secret.sealed {
            if seat.may_see(privacy.sealed, &controller(e)) {
                continue;
            }
            let who = fray_core::table::id(world, e);
            // Its last accepted intent, and the log's line for it (the sealed form, if sealed).
            let played = history.entries.iter().rev().find(|r| r.accepted && r.actor == who);
            let played = played.map(|r| serde_json::to_value(&r.intent).expect("an intent serialises"));
            let entries = world.resource::<GameLog>().entries();
            let accepted = |l: &&fray_core::log::LogEntry| {
                l.actor.as_ref() == Some(&who)
                    && matches!(l.event, fray_core::log::LogEvent::IntentAccepted { .. })
            };
            let since = entries.iter().rev().find(accepted).map_or(u64::MAX, |l| l.seq);
            let said_of_it = said_of(&whole, who.as_str(), since);
            if let Some((at, s)) = said_of_it.iter().find(|(_, s)| s.contains(text.as_str())) {
                found.push(format!("{who}'s sealed '{text}' in \"{s}\" at {at}"));
            }
            let shows = |line: &Value| {
                line["actor"] == who.as_str()
                    && line["seq"].as_u64().is_some_and(|s| s >= since)
                    && played.is_some()
                    && line.get("intent") == played.as_ref()
            };
            if let Some(line) = view.log.iter().find(|line| shows(line)) {
                found.push(format!("{who}'s sealed intent in the log: {line}"));
            }
        }
    }
    // Log lines written about someone concealed from this seat.
    let entries = world.resource::<GameLog>().entries();
    for line in &view.log {
        let seq = line["seq"].as_u64().and_then(|s| usize::try_from(s).ok()).unwrap_or(usize::MAX);
        let Some(entry) = entries.get(seq) else {
            found.push(format!("a log line with no seq: {line}"));
            continue;
        };
        let actor = entry.actor.as_ref().and_then(|a| world.resource::<TableIndex>().combatant(a));
        if entry.concealed && !actor.is_some_and(|e| seat.may_see(privacy.concealed, &controller(e))) {
            found.push(format!("a line written while its actor was concealed: {line}"));
        }
    }
    // Sheets: only those the ruleset lets this seat read.
    for sheet in &view.sheets {
        let e = world.resource::<TableIndex>().combatant(&sheet.who);
        if !e.is_some_and(|e| seat.may_see(privacy.sheets, &controller(e))) {
            found.push(format!("{}'s private sheet", sheet.who));
        }
    }
    found
}

fn check(app: &App, when: &str) -> Result<Vec<SeatView>, TestCaseError> {
    let world = app.world();
    let views = seat_views(world, rules(world).as_ref(), &all_seats());
    for view in &views[1..] {
        let found = leaks(world, view);
        prop_assert!(found.is_empty(), "{when}: {:?} sees {}", view.seat, found.join("; "));
    }
    Ok(views)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// After every step, undo, redo, and on the save replayed, no seat's view holds what it
    /// may not; the replay shows every seat what the fight showed it.
    #[test]
    fn no_seat_is_shown_what_it_may_not_know(
        which in 0..SCENARIOS.len(),
        seed in 0u64..1000,
        steps in proptest::collection::vec((0u8..12, any::<usize>(), any::<usize>()), 1..64),
    ) {
        let text = with_seats(SCENARIOS[which]);
        let mut app = fight(&text, seed);
        check(&app, "at the start")?;
        for (i, (what, a, b)) in steps.into_iter().enumerate() {
            let world = app.world_mut();
            let done = match what {
                10 => session::undo(world).map(|_| "undo"),
                11 => session::redo(world).map(|_| "redo"),
                _ => Ok("a choice"),
            };
            if what < 10 && !step(&mut app, (a, b)) {
                break;
            }
            app.update();
            check(&app, &format!("step {i} ({})", done.unwrap_or("nothing to undo or redo")))?;
        }
        let before = check(&app, "at the end")?;
        let saved = session::save_string(app.world()).map_err(TestCaseError::fail)?;
        let save = fray::session::parse_save_text(&fray::rulesets::registry(), &saved)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let (mut replayed, report) = save.headless_app();
        prop_assert!(report.stopped.is_none(), "{}", report.message());
        replayed.update();
        let after = check(&replayed, "replayed")?;
        prop_assert_eq!(before, after, "the replay shows each seat what the fight showed it");
    }
}

#[test]
fn replay_prints_a_seats_view_after_every_step_as_json_lines() {
    let text = with_seats(include_str!("../assets/scenarios/fast_slow_crossing.ron"));
    let mut app = fight(&text, 3);
    for i in 0..6 {
        assert!(step(&mut app, (i, i)), "the rules wait on someone");
    }
    let path = crate::support::scratch_file("seat_views.ron");
    std::fs::write(&path, session::save_string(app.world()).expect("saved")).expect("written");
    let intents = app.world().resource::<fray_core::session::IntentHistory>().entries.len();
    let path = path.to_str().expect("a UTF-8 path");
    let out = crate::support::fray(&["replay", path, "--headless", "--seat", "player:One"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let lines: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is one view"))
        .collect();
    assert_eq!(lines.len(), intents + 1, "a view at the start and after every intent");
    let last: SeatView = serde_json::from_value(lines[intents].clone()).expect("a seat's view reads back");
    assert_eq!(last, seat_views(app.world(), rules(app.world()).as_ref(), &[Seat::Player("one".into())])[0]);
    let bad = crate::support::fray(&["replay", path, "--headless", "--seat", "player:Nobody"]);
    assert_eq!(bad.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&bad.stderr).trim(),
        "--seat: there is no seat 'Nobody' (the seats: One, Two)"
    );
}

/// The AI plays for the GM: its reasons for its decisions are in the GM's view of the log
/// alone, never in the table's nor a player's (nor, so, on a phone's page).
#[test]
fn only_the_gms_view_of_the_log_gives_the_ais_reasons() {
    let text = with_seats(include_str!("../assets/scenarios/faction_zones_toll_bridge.ron"));
    let scenario = parse(&text);
    let mut app = scenario.table_app(7, scenario.default_limit(), true);
    let reasons = |view: &SeatView| view.log.iter().filter(|line| line.get("why").is_some()).count();
    let mut gm_read = 0;
    for _ in 0..10 {
        app.update();
        let world = app.world();
        let views = seat_views(world, rules(world).as_ref(), &all_seats());
        gm_read += reasons(&views[0]);
        for view in &views[1..] {
            assert_eq!(reasons(view), 0, "{:?} is shown the AI's reasons", view.seat);
            assert!(!view.log.is_empty(), "{:?} reads the log", view.seat);
        }
        if session::fight_over(world) {
            break;
        }
    }
    assert!(gm_read > 0, "the GM reads the AI's reasons");
}
