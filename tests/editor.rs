//! The scenario editor's edits, headless: a castle built from a new Fiend Wake scenario
//! edit by edit, each checked as `fray check` checks a file; refused edits say why and
//! change nothing; what the editor saves reads back as the same scenario and plays.

use fray::rulesets;
use fray_core::edit::{Placement, ScenarioEdit};
use fray_core::fight::LoadedScenario;
use fray_core::ids::{CombatantId, LocationId, MountId};
use fray_core::location::reach;
use fray_core::prelude::TableIndex;

fn template(id: &str) -> LoadedScenario {
    let registry = rulesets::registry();
    let ruleset = registry.get(id).unwrap_or_else(|| panic!("no ruleset {id}"));
    rulesets::parse(ruleset.template()).unwrap_or_else(|e| panic!("{id}'s template: {e}"))
}

fn edit(scenario: &LoadedScenario, edit: ScenarioEdit) -> LoadedScenario {
    rulesets::registry()
        .edit(scenario, &edit)
        .unwrap_or_else(|p| panic!("{edit:?} refused: {}", p.join("; ")))
}

fn entry(from: &str, to: &str, allowed: bool) -> ScenarioEdit {
    ScenarioEdit::SetEntry { from: LocationId::from(from), to: LocationId::from(to), allowed }
}

/// Adds a location at `at` (it takes the first free id, `location_N`) and names it `name`.
fn add(scenario: &LoadedScenario, id: &LocationId, name: &str, at: (f32, f32)) -> LoadedScenario {
    let added = edit(scenario, ScenarioEdit::AddLocation { at });
    edit(&added, ScenarioEdit::RenameLocation { id: id.clone(), name: name.to_owned() })
}

/// Barbican, gatehouse, courtyard, keep (`location_1..4`), each entered only from the one
/// before it, built from a new Fiend Wake scenario edit by edit; the hero in the barbican,
/// the foe in the keep.
fn castle() -> LoadedScenario {
    let mut castle = template("fiend_wake");
    castle = edit(&castle, ScenarioEdit::DeleteLocation { id: "yard".into() });
    castle = edit(&castle, ScenarioEdit::DeleteLocation { id: "keep".into() });
    let mut ids = Vec::new();
    for (n, name) in ["Barbican", "Gatehouse", "Courtyard", "Keep"].into_iter().enumerate() {
        let id = LocationId::from(format!("location_{}", n + 1));
        castle = add(&castle, &id, name, (n as f32 * 300.0, 0.0));
        ids.push(id);
    }
    // Each part entered only from the one before it; the barbican from no location.
    for pair in ids.windows(2) {
        castle = edit(&castle, entry(pair[0].as_str(), pair[1].as_str(), true));
        castle = edit(&castle, entry(LocationId::FIELD, pair[1].as_str(), false));
    }
    castle = edit(
        &castle,
        ScenarioEdit::PlaceCombatant { id: "hero".into(), at: Placement::Location(ids[0].clone()) },
    );
    castle = edit(
        &castle,
        ScenarioEdit::PlaceCombatant { id: "foe".into(), at: Placement::Location(ids[3].clone()) },
    );
    castle
}

#[test]
fn a_castle_built_edit_by_edit_shows_its_keep_three_moves_from_the_barbican() {
    let castle = castle();
    let ids: Vec<LocationId> = (1..=4).map(|n| LocationId::from(format!("location_{n}"))).collect();
    assert!(castle.text.starts_with("// A new Fiend Wake scenario"), "the comments at the top are kept");

    let app = castle.table_app(1, castle.default_limit(), true);
    let world = app.world();
    let index = world.resource::<TableIndex>();
    let place = |id: &LocationId| index.location(id).unwrap_or_else(|| panic!("{id} not on the table"));
    let hero = index.combatant(&CombatantId::from("hero")).expect("hero");
    let from = fray_core::location::place_of(world, hero).expect("the hero stands somewhere");
    assert_eq!(from, place(&ids[0]), "the hero starts in the barbican");
    let moves = reach(world, from, 5);
    let keep = moves.iter().find(|(p, _)| *p == place(&ids[3])).map(|(_, d)| *d);
    assert_eq!(keep, Some(3), "the keep is three moves from the barbican: {moves:?}");
}

#[test]
fn an_edit_the_checks_refuse_says_why_and_names_the_item() {
    let scenario = template("fiend_wake");
    let registry = rulesets::registry();
    let onto_itself = registry.edit(&scenario, &entry("keep", "keep", true)).err().expect("refused");
    assert!(
        onto_itself.iter().any(|p| p.contains("location 'keep'") && p.contains("itself")),
        "{onto_itself:?}"
    );
    let absurd =
        ScenarioEdit::SetProperties { id: "keep".into(), properties: vec!["EntryCost(1000)".into()] };
    let absurd = registry.edit(&scenario, &absurd).err().expect("refused");
    assert!(
        absurd.iter().any(|p| p.contains("location 'keep'") && p.contains("entry cost 1000")),
        "{absurd:?}"
    );
    let unknown = registry
        .edit(&scenario, &ScenarioEdit::MoveLocation { id: "moat".into(), to: (0.0, 0.0) })
        .err()
        .expect("refused");
    assert_eq!(unknown, vec!["no location 'moat' in this scenario".to_owned()]);
    let twice = registry.edit(&scenario, &entry("yard", "keep", true)).err().expect("refused");
    assert!(twice[0].contains("already"), "{twice:?}");
}

#[test]
fn deleting_an_occupied_location_leaves_its_occupants_in_no_location() {
    let scenario = template("fiend_wake");
    let edited = edit(&scenario, ScenarioEdit::DeleteLocation { id: "yard".into() });
    assert!(!edited.text.contains("\"yard\""), "no arrow or occupant names the yard any more");
    let edited = edit(&edited, ScenarioEdit::DeleteLocation { id: "keep".into() });
    let app = edited.table_app(1, edited.default_limit(), true);
    let world = app.world();
    let foe = world.resource::<TableIndex>().combatant(&CombatantId::from("foe")).expect("foe");
    let place = fray_core::location::place_of(world, foe).expect("somewhere");
    assert!(fray_core::location::is_field(world, place), "the foe stands in no location");
}

/// The fight `scenario` gives with every side played by the AI, as its log (JSON Lines),
/// played to its end or for `updates` updates.
fn fight_log(scenario: &LoadedScenario, updates: usize) -> String {
    let mut app = scenario.table_app(7, scenario.default_limit(), true);
    for _ in 0..updates {
        if fray_core::fight::fight_over(app.world()) {
            break;
        }
        app.update();
    }
    let mut out = Vec::new();
    app.world().resource::<fray_core::log::GameLog>().write_jsonl(&mut out, None).expect("in memory");
    String::from_utf8(out).expect("the log is UTF-8")
}

/// Saves `scenario` as the editor saves it, reads that back, and asserts it is the same
/// scenario: the same facts, written the same again (scenario types skip no field when
/// written, so equal text is equal scenarios), and the same fight from the same seed.
fn assert_round_trips(scenario: &LoadedScenario, what: &str) {
    let saved = scenario.to_ron().unwrap_or_else(|e| panic!("{what}: not written: {e}"));
    let again = rulesets::parse(&saved).unwrap_or_else(|e| panic!("{what}: the saved text is refused: {e}"));
    assert_eq!(again.name(), scenario.name(), "{what}");
    assert_eq!(again.seed(), scenario.seed(), "{what}");
    assert_eq!(again.combatant_ids(), scenario.combatant_ids(), "{what}");
    assert_eq!(again.location_ids(), scenario.location_ids(), "{what}");
    assert_eq!(again.side_ids(), scenario.side_ids(), "{what}");
    assert_eq!(again.ruleset().id(), scenario.ruleset().id(), "{what}");
    assert_eq!(again.to_ron().expect("written"), saved, "{what}: written again, the text changes");
    let before = fight_log(scenario, 400);
    // An edit may leave one side alone: that fight ends as it opens.
    let ended = before.lines().last().is_some_and(|l| l.contains(r#""kind":"battle_ended""#));
    assert!(before.lines().count() > 3 || ended, "{what}: the fight went nowhere:\n{before}");
    assert_eq!(fight_log(&again, 400), before, "{what}: the saved scenario plays another fight");
}

#[test]
fn every_bundled_scenario_saved_with_no_edit_reads_back_the_same() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<_> = std::fs::read_dir(root.join("assets/scenarios"))
        .expect("assets/scenarios")
        .map(|e| e.expect("a directory entry").path())
        .collect();
    files.push(root.join("plugins/toy_duel/scenarios/duel.ron"));
    files.sort();
    assert!(files.len() >= 12, "the bundled scenarios: {files:?}");
    for path in files {
        let scenario = rulesets::registry().load(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_round_trips(&scenario, &path.display().to_string());
        let comments = scenario.text.lines().take_while(|l| l.starts_with("//")).count();
        let saved = scenario.to_ron().expect("written");
        assert_eq!(saved.lines().take_while(|l| l.starts_with("//")).count(), comments, "{}", path.display());
    }
}

/// One edit drawn at random, naming ids that exist or are likely to (`location_N` is what
/// adding a location names it); many are refused, which is part of the test.
fn random_edit(scenario: &LoadedScenario, kind: u8, a: usize, b: usize, at: (f32, f32)) -> ScenarioEdit {
    let mut places: Vec<LocationId> = scenario.location_ids().to_vec();
    places.push(LocationId::from(LocationId::FIELD));
    places.push(LocationId::from(format!("location_{}", a % 4 + 1)));
    let place = |n: usize| places[n % places.len()].clone();
    let ids = scenario.combatant_ids();
    let who = ids[a % ids.len()].clone();
    let pieces = scenario.pieces();
    let mounts: Vec<_> = pieces.iter().filter(|p| p.mount).map(|p| MountId::from(p.id.clone())).collect();
    let mount =
        |n: usize| mounts.get(n % mounts.len().max(1)).cloned().unwrap_or_else(|| MountId::from("none"));
    let choices = scenario.ruleset().location_properties();
    let (scenery, kinds) = scenario.round_scenery();
    let scenery_kind = |n: usize| kinds.get(n % kinds.len().max(1)).map_or("none", |k| k.0).to_owned();
    let piece = |n: usize| {
        scenery.get(n % scenery.len().max(1)).map_or(("none".to_owned(), 0), |p| (p.kind.to_owned(), p.index))
    };
    match kind % 19 {
        16 => ScenarioEdit::AddScenery { kind: scenery_kind(b), at: (at.0 / 50.0, at.1 / 50.0) },
        17 => {
            let (kind, index) = piece(a);
            ScenarioEdit::PlaceScenery {
                kind,
                index,
                at: (at.0 / 50.0, at.1 / 50.0),
                radius: (b % 8) as f32 * 0.5,
            }
        }
        18 => {
            let (kind, index) = piece(b);
            ScenarioEdit::DeleteScenery { kind, index }
        }
        10 => ScenarioEdit::SetProperties {
            id: place(a),
            properties: choices
                .iter()
                .enumerate()
                .filter(|(n, _)| b >> n & 1 == 1)
                .map(|(_, c)| c.text.into())
                .collect(),
        },
        11 => {
            // A combatant or a mount, from the pieces the scenarios hold.
            let piece = &pieces[b % pieces.len()];
            let (spec, rules) = (piece.spec.clone(), piece.rules.clone());
            let at = if b.is_multiple_of(2) { Placement::Location(place(a)) } else { Placement::Field(at) };
            match piece.mount {
                true => ScenarioEdit::AddMount { spec, rules, at },
                false => {
                    let side = scenario.side_ids()[a % scenario.side_ids().len()].clone();
                    ScenarioEdit::AddCombatant { spec, rules, side, at }
                }
            }
        }
        12 => ScenarioEdit::PlaceMount { id: mount(a), at: Placement::Location(place(b)) },
        13 => ScenarioEdit::Ride { id: who, mount: mount(b) },
        14 => ScenarioEdit::CopyMount { id: mount(b) },
        15 => ScenarioEdit::DeleteMount { id: mount(b) },
        0 => ScenarioEdit::AddLocation { at },
        1 => ScenarioEdit::MoveLocation { id: place(a), to: at },
        2 => ScenarioEdit::RenameLocation { id: place(a), name: format!("Place {b}") },
        3 => ScenarioEdit::SetProperties {
            id: place(a),
            properties: choices.get(b % choices.len().max(1)).map(|c| c.text.into()).into_iter().collect(),
        },
        4 => ScenarioEdit::DeleteLocation { id: place(a) },
        5 => ScenarioEdit::SetEntry { from: place(a), to: place(b), allowed: !b.is_multiple_of(3) },
        6 if b.is_multiple_of(2) => {
            ScenarioEdit::PlaceCombatant { id: who, at: Placement::Location(place(b)) }
        }
        6 => ScenarioEdit::PlaceCombatant { id: who, at: Placement::Field(at) },
        7 => ScenarioEdit::CopyCombatant { id: who },
        8 if ids.len() > 2 => ScenarioEdit::DeleteCombatant { id: who },
        _ => ScenarioEdit::SetSide {
            id: who,
            side: scenario.side_ids()[b % scenario.side_ids().len()].clone(),
        },
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 24, ..Default::default() })]
    /// Scenarios the editor can make (any ruleset's template, then random edits, the refused
    /// ones changing nothing) save and read back as the same scenario.
    #[test]
    fn scenarios_made_by_random_edits_read_back_the_same(
        ruleset in 0..6usize,
        edits in proptest::collection::vec(
            (0..19u8, 0..64usize, 0..64usize, (-900.0..900.0f32, -600.0..600.0f32)),
            1..16,
        ),
    ) {
        let registry = rulesets::registry();
        let id = registry.ids()[ruleset % registry.ids().len()];
        let mut scenario = template(id);
        let mut made = 0;
        for (kind, a, b, at) in edits {
            let edit = random_edit(&scenario, kind, a, b, at);
            if let Ok(edited) = registry.edit(&scenario, &edit) {
                scenario = edited;
                made += 1;
            }
        }
        assert_round_trips(&scenario, &format!("{id} after {made} edits"));
    }
}

#[test]
fn a_castle_made_in_the_editor_plays_headless_with_fray_sim() {
    let castle = castle();
    let path = crate::support::scratch_file("editor_castle.ron");
    std::fs::write(&path, castle.to_ron().expect("written")).expect("saved");
    let shown = path.display().to_string();
    let out = crate::support::fray(&["sim", "--scenario", &shown, "--battles", "4", "--seed", "2", "--each"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let battles = stdout.lines().filter(|l| l.starts_with("battle ") && l.contains(": seed ")).count();
    assert_eq!(battles, 4, "{stdout}");
}

#[test]
fn every_rulesets_template_takes_the_shared_edits() {
    for ruleset in rulesets::registry().iter() {
        let scenario = template(ruleset.id());
        let first = scenario.combatant_ids()[0].clone();
        let copied = edit(&scenario, ScenarioEdit::CopyCombatant { id: first.clone() });
        assert_eq!(copied.combatant_ids().len(), scenario.combatant_ids().len() + 1, "{}", ruleset.id());
        // A ruleset that wants everyone in a zone refuses the field, naming who.
        let to_field = ScenarioEdit::PlaceCombatant { id: first.clone(), at: Placement::Field((3.0, 4.0)) };
        let moved = match rulesets::registry().edit(&copied, &to_field) {
            Ok(moved) => moved,
            Err(problems) => {
                assert!(problems.iter().any(|p| p.contains(&format!("combatant '{first}'"))), "{problems:?}");
                copied
            }
        };
        let removed = edit(&moved, ScenarioEdit::DeleteCombatant { id: first });
        assert_eq!(removed.combatant_ids().len(), scenario.combatant_ids().len(), "{}", ruleset.id());
        // What the editor writes plays headless: the fight's log grows past the table's setting up.
        let set_up = fight_log(&removed, 0).lines().count();
        let played = fight_log(&removed, 50).lines().count();
        assert!(
            played > set_up,
            "{}: the edited fight went nowhere ({set_up} → {played} entries)",
            ruleset.id()
        );
    }
}

#[test]
fn a_sheet_number_set_in_the_editor_is_read_back_through_the_rulesets_checks() {
    let scenario = template("fiend_wake");
    let numbers = fray::lab::sweep::sheet_numbers(&scenario.text, "hero").expect("the hero's sheet");
    let first = numbers.first().expect("the hero's sheet has numbers");
    let text = fray::lab::sweep::set_sheet_number(&scenario.text, "hero", &first.field, first.value + 1.0)
        .expect("written");
    let edited = rulesets::parse(&text).expect("a value one up is allowed");
    let again = fray::lab::sweep::sheet_numbers(&edited.text, "hero").expect("read again");
    assert_eq!(again[0].value, first.value + 1.0, "{}", first.field);
    assert!(edited.text.starts_with("// A new Fiend Wake scenario"), "the comments are kept");
    // Out of its range: the ruleset's own check refuses it, naming the combatant.
    let absurd =
        fray::lab::sweep::set_sheet_number(&scenario.text, "hero", &first.field, 100000.0).expect("written");
    match rulesets::parse(&absurd) {
        Err(fray_core::scenario::ScenarioError::Invalid(problems)) => {
            assert!(problems.iter().any(|p| p.contains("combatant 'hero'")), "{problems:?}")
        }
        other => {
            panic!("{} = 100000 should be refused: {:?}", first.field, other.map(|s| s.name().to_owned()))
        }
    }
}

#[test]
fn location_properties_are_set_from_the_rulesets_list_and_a_wrong_one_is_refused() {
    for (ruleset, place) in [("fiend_wake", "keep"), ("faction_zones", "")] {
        let scenario = template(ruleset);
        let place =
            if place.is_empty() { scenario.location_ids()[0].clone() } else { LocationId::from(place) };
        let choices = scenario.ruleset().location_properties();
        assert!(!choices.is_empty(), "{ruleset} offers its properties");
        // Every property the editor offers is one the ruleset reads.
        let all: Vec<String> = choices.iter().map(|c| c.text.to_owned()).collect();
        let set = edit(&scenario, ScenarioEdit::SetProperties { id: place.clone(), properties: all.clone() });
        assert_eq!(set.properties(&place), all, "{ruleset}: read back as written");
        let cleared = edit(&set, ScenarioEdit::SetProperties { id: place.clone(), properties: Vec::new() });
        assert!(cleared.properties(&place).is_empty());
        let wrong = ScenarioEdit::SetProperties { id: place.clone(), properties: vec!["Moat(3)".into()] };
        let Err(problems) = rulesets::registry().edit(&set, &wrong) else {
            panic!("Moat is not a {ruleset} property")
        };
        assert!(
            problems[0].contains(&format!("location '{place}'")) && problems[0].contains("Moat(3)"),
            "{problems:?}"
        );
    }
}

#[test]
fn combatants_and_mounts_added_from_another_scenario_ride_move_and_play() {
    let registry = rulesets::registry();
    let swamp = registry.load(std::path::Path::new("assets/scenarios/swamp.ron")).expect("swamp");
    let pieces = swamp.pieces();
    let horse = pieces.iter().find(|p| p.mount).expect("the swamp has a mount");
    let someone = pieces.iter().find(|p| !p.mount).expect("the swamp has combatants");
    let mut castle = template("fiend_wake");
    let before = castle.combatant_ids().len();
    let side = castle.side_ids()[0].clone();
    let yard = LocationId::from("yard");
    for _ in 0..2 {
        let at = Placement::Location(yard.clone());
        let (spec, rules) = (someone.spec.clone(), someone.rules.clone());
        castle = edit(&castle, ScenarioEdit::AddCombatant { spec, rules, side: side.clone(), at });
    }
    let ids = castle.combatant_ids().to_vec();
    assert_eq!(ids.len(), before + 2);
    assert_eq!(ids[before].as_str(), someone.id, "the template's id when free");
    assert_eq!(ids[before + 1].as_str(), format!("{}_2", someone.id), "then a fresh one");
    let (spec, rules) = (horse.spec.clone(), horse.rules.clone());
    castle = edit(&castle, ScenarioEdit::AddMount { spec, rules, at: Placement::Field((50.0, 0.0)) });
    // The first combatant brought its weapons (the swamp's) along, and only those.
    for weapon in ["\"rifle\":", "\"axe\":"] {
        assert!(castle.text.contains(weapon), "{weapon} taken along");
    }
    assert!(!castle.text.contains("\"cannon\":"), "a weapon no one added carries is not taken");
    // The swamp's "light" armour differs from the template's: it comes as "light_2", worn
    // by both newcomers, and the template's own stays.
    assert!(castle.text.contains("Gambeson") && castle.text.contains("Light flak jacket"), "both armours");
    assert_eq!(castle.text.matches("armour: Some(\"light_2\")").count(), 2, "{}", castle.text);
    let mount = MountId::from(horse.id.clone());
    let rider = ids[before].clone();
    castle = edit(&castle, ScenarioEdit::Ride { id: rider.clone(), mount: mount.clone() });
    // A second rider on the same mount is refused, saying who rides it.
    let other = ScenarioEdit::Ride { id: ids[before + 1].clone(), mount: mount.clone() };
    let Err(problems) = registry.edit(&castle, &other) else { panic!("one rider a mount") };
    assert!(problems[0].contains(rider.as_str()), "{problems:?}");
    // The mount moved into the keep takes its rider with it.
    castle =
        edit(&castle, ScenarioEdit::PlaceMount { id: mount.clone(), at: Placement::Location("keep".into()) });
    let app = castle.table_app(1, castle.default_limit(), true);
    let world = app.world();
    let index = world.resource::<TableIndex>();
    let keep = index.location(&LocationId::from("keep")).expect("keep");
    let rider_e = index.combatant(&rider).expect("rider");
    assert_eq!(fray_core::location::place_of(world, rider_e), Some(keep), "the rider went with its mount");
    assert!(world.get::<fray_core::table::Rides>(rider_e).is_some());
    // Deleted, the mount leaves its rider on foot where it stood.
    let copied = edit(&castle, ScenarioEdit::CopyMount { id: mount.clone() });
    assert_eq!(copied.pieces().iter().filter(|p| p.mount).count(), 2);
    let gone = edit(&castle, ScenarioEdit::DeleteMount { id: mount });
    let app = gone.table_app(1, gone.default_limit(), true);
    let world = app.world();
    let index = world.resource::<TableIndex>();
    let rider_e = index.combatant(&rider).expect("rider");
    assert_eq!(fray_core::location::place_of(world, rider_e), index.location(&LocationId::from("keep")));
    assert!(world.get::<fray_core::table::Rides>(rider_e).is_none());
    assert_round_trips(&gone, "a castle with pieces from the swamp");
    let played = fight_log(&gone, 50).lines().count();
    assert!(played > fight_log(&gone, 0).lines().count(), "the fight went nowhere");
}

#[test]
fn round_scenery_is_added_placed_sized_and_deleted_in_every_ruleset_that_has_it() {
    let registry = rulesets::registry();
    let mut seen = 0;
    for ruleset in registry.iter() {
        let scenario = template(ruleset.id());
        let kinds = scenario.round_scenery().1;
        for (kind, _) in kinds {
            seen += 1;
            let count = |s: &LoadedScenario| s.round_scenery().0.iter().filter(|p| p.kind == kind).count();
            let before = count(&scenario);
            let added = edit(&scenario, ScenarioEdit::AddScenery { kind: kind.into(), at: (1.0, 1.0) });
            assert_eq!(count(&added), before + 1, "{} {kind}", ruleset.id());
            let place =
                ScenarioEdit::PlaceScenery { kind: kind.into(), index: before, at: (2.0, -1.0), radius: 1.5 };
            let placed = edit(&added, place);
            let piece = placed.round_scenery().0.into_iter().find(|p| p.kind == kind && p.index == before);
            let piece = piece.unwrap_or_else(|| panic!("{} {kind} placed", ruleset.id()));
            assert_eq!((piece.at, piece.radius), ((2.0, -1.0), 1.5), "{} {kind}", ruleset.id());
            // A second one added is like the last and named apart from it.
            let again = edit(&placed, ScenarioEdit::AddScenery { kind: kind.into(), at: (0.0, 0.0) });
            let names: Vec<String> =
                again.round_scenery().0.into_iter().filter(|p| p.kind == kind).map(|p| p.name).collect();
            if kind != "light" {
                let apart: std::collections::BTreeSet<&String> = names.iter().collect();
                assert_eq!(apart.len(), names.len(), "{} {kind}: {names:?}", ruleset.id());
            }
            let kind_pieces: Vec<_> =
                again.round_scenery().0.into_iter().filter(|p| p.kind == kind).collect();
            let (last, new) = (&kind_pieces[before], &kind_pieces[before + 1]);
            assert_eq!(new.radius, last.radius, "{} {kind}: like the last", ruleset.id());
            assert_round_trips(&again, &format!("{} with {kind}s", ruleset.id()));
            let deleted = edit(&placed, ScenarioEdit::DeleteScenery { kind: kind.into(), index: before });
            assert_eq!(count(&deleted), before, "{} {kind}", ruleset.id());
            let gone = ScenarioEdit::DeleteScenery { kind: kind.into(), index: before + 5 };
            let Err(problems) = registry.edit(&scenario, &gone) else { panic!("no such {kind}") };
            assert!(problems[0].contains(&format!("no {kind} {}", before + 6)), "{problems:?}");
        }
        let Err(problems) =
            registry.edit(&scenario, &ScenarioEdit::AddScenery { kind: "moat".into(), at: (0.0, 0.0) })
        else {
            panic!("{} has no moats", ruleset.id())
        };
        assert_eq!(problems, vec!["no moat in this ruleset".to_owned()]);
    }
    assert_eq!(seen, 6, "covers and lights, traps and hazards, covers and areas");
}

#[test]
fn a_sheet_rewritten_as_text_is_read_back_through_the_checks() {
    let registry = rulesets::registry();
    let scenario = template("fiend_wake");
    let span = fray::lab::sweep::sheet_span(&scenario.text, "hero").expect("the hero's sheet");
    let sheet = &scenario.text[span];
    assert!(sheet.contains("armour: \"light\""), "{sheet}");
    // Unarmoured: taken, the rest of the file untouched.
    let bare = fray::lab::sweep::set_sheet_text(
        &scenario.text,
        "hero",
        &sheet.replace("armour: \"light\"", "armour: None"),
    )
    .expect("written");
    let read = registry.read_edited(&scenario, &bare).unwrap_or_else(|p| panic!("{p:?}"));
    assert!(read.text.contains("armour: None") && read.text.starts_with("// A new Fiend Wake scenario"));
    // An armour the scenario's rules do not list: refused, naming the hero and the armour.
    let plate =
        fray::lab::sweep::set_sheet_text(&scenario.text, "hero", &sheet.replace("\"light\"", "\"plate\""))
            .expect("written");
    let Err(problems) = registry.read_edited(&scenario, &plate) else {
        panic!("plate is not in rules.armours")
    };
    assert!(problems.iter().any(|p| p.contains("combatant 'hero'") && p.contains("plate")), "{problems:?}");
}

#[test]
fn only_fiend_wake_offers_an_entry_cost_and_an_older_files_entry_cost_loads_everywhere() {
    for ruleset in rulesets::registry().iter() {
        let offers = ruleset.location_properties().iter().any(|c| c.text.starts_with("EntryCost"));
        assert_eq!(offers, ruleset.id() == "fiend_wake", "{}: entry cost offered", ruleset.id());
    }
    // Files before entry costs were Fiend Wake's wrote one on every location, whatever the
    // ruleset: elsewhere it meant nothing, and it is dropped.
    let zones = template("faction_zones").to_ron().expect("written");
    let old = zones.replacen("name: \"West\",", "name: \"West\", entry_cost: 1,", 1);
    assert!(old.contains("entry_cost: 1"), "the older form is tested: {zones}");
    let read = rulesets::parse(&old).unwrap_or_else(|e| panic!("{}", e.report("old").join("; ")));
    let written = read.to_ron().expect("written");
    assert!(!written.contains("entry_cost") && !written.contains("EntryCost"), "{written}");
    assert_eq!(written, zones, "nothing else changes");
}

#[test]
fn seats_are_added_named_given_combatants_and_removed_in_every_ruleset() {
    use fray_core::prelude::{Controller, Seats};
    let registry = rulesets::registry();
    for ruleset in registry.iter() {
        let mut s = template(ruleset.id());
        for seat_edit in [
            ScenarioEdit::AddSeat,
            ScenarioEdit::AddSeat,
            ScenarioEdit::RenameSeat { id: "seat_1".into(), name: " Anna ".into() },
        ] {
            s = edit(&s, seat_edit);
        }
        let ids = s.combatant_ids().to_vec();
        let (first, second) = (ids[0].clone(), ids[1 % ids.len()].clone());
        let to = |who: &CombatantId, seat: &str| ScenarioEdit::SetController {
            id: who.clone(),
            controller: Controller::Player(seat.into()),
        };
        s = edit(&s, to(&first, "seat_1"));
        s = edit(&s, to(&second, "seat_2"));
        s = edit(&s, to(&first, "seat_2"));
        assert_round_trips(&s, ruleset.id());
        let refused = registry.edit(&s, &to(&first, "nobody")).err().unwrap_or_default();
        assert_eq!(refused, ["no seat 'nobody' in this scenario"], "{}", ruleset.id());
        let app = s.table_app(7, s.default_limit(), false);
        let world = app.world();
        let index = world.resource::<TableIndex>();
        let controller =
            |id: &CombatantId| index.combatant(id).and_then(|e| world.get::<Controller>(e)).cloned();
        assert_eq!(controller(&first), Some(Controller::Player("seat_2".into())), "{}", ruleset.id());
        assert_eq!(controller(&second), Some(Controller::Player("seat_2".into())), "{}", ruleset.id());
        let names: Vec<String> = world.resource::<Seats>().0.iter().map(|(_, n)| n.clone()).collect();
        assert_eq!(names, ["Anna", "Player 2"], "{}", ruleset.id());
        let gone = edit(&s, ScenarioEdit::DeleteSeat { id: "seat_2".into() });
        let app = gone.table_app(7, gone.default_limit(), false);
        let e = app.world().resource::<TableIndex>().combatant(&first).expect("still there");
        let back = app.world().get::<Controller>(e);
        assert!(!matches!(back, Some(Controller::Player(_))), "{}: its seat is gone: {back:?}", ruleset.id());
    }
}
