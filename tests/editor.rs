//! The scenario editor's edits, headless: a castle built from a new Fiend Wake scenario
//! edit by edit, each checked as `fray check` checks a file; refused edits say why and
//! change nothing.

use fray::rulesets;
use fray_core::edit::{Placement, ScenarioEdit};
use fray_core::fight::LoadedScenario;
use fray_core::ids::{CombatantId, LocationId};
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

#[test]
fn a_castle_built_edit_by_edit_shows_its_keep_three_moves_from_the_barbican() {
    let mut castle = template("fiend_wake");
    castle = edit(&castle, ScenarioEdit::DeleteLocation { id: "yard".into() });
    castle = edit(&castle, ScenarioEdit::DeleteLocation { id: "keep".into() });
    let mut ids = Vec::new();
    for (n, name) in ["Barbican", "Gatehouse", "Courtyard", "Keep"].into_iter().enumerate() {
        let id = LocationId(format!("location_{}", n + 1));
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
    let absurd = registry
        .edit(&scenario, &ScenarioEdit::SetEntryCost { id: "keep".into(), cost: 1000 })
        .err()
        .expect("refused");
    assert!(absurd.iter().any(|p| p.contains("location 'keep'") && p.contains("entry_cost")), "{absurd:?}");
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
        // What the editor writes plays headless.
        let mut app = removed.table_app(1, removed.default_limit(), true);
        for _ in 0..5 {
            app.update();
        }
        let log = app.world().resource::<fray_core::log::GameLog>().entries().len();
        assert!(log > 1, "{}: the edited scenario's fight went nowhere ({log} log entries)", ruleset.id());
    }
}
