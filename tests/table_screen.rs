//! What the table's screen writes (read off screen from its egui output): the bids stay
//! secret until revealed, and a combatant the GM hides is never named.

use fiend_wake::FwIntent;
use fray::client::table::audience::HiddenFromTable;
use fray::client::table::screen_texts;
use fray_core::prelude::CombatantId;

use crate::support::{LOCKJAW, Table};

fn priority_line(table: &Table) -> Option<String> {
    screen_texts(table.world()).into_iter().find(|t| t.starts_with("Priority:"))
}

#[test]
fn sealed_bids_stay_off_the_table_until_revealed() {
    let mut table = Table::from_ron(LOCKJAW);
    table.accept("lockjaw", FwIntent::PayArmour { tp: 1, turn_tokens: 0 });
    table.accept("lockjaw", FwIntent::Bid { tp: 3 });
    table.accept("imp", FwIntent::Bid { tp: 1 });
    let sealed = screen_texts(table.world());
    assert!(sealed.iter().any(|t| t.contains("Bid for Priority")), "the bar names the phase: {sealed:?}");
    assert_eq!(priority_line(&table), None, "no order before the reveal: {sealed:?}");
    assert!(!sealed.iter().any(|t| t.contains("bid") || t.contains('3')), "no bid amount: {sealed:?}");
    table.accept("archer", FwIntent::Bid { tp: 0 });
    let order = priority_line(&table)
        .unwrap_or_else(|| panic!("no order once revealed: {:?}", screen_texts(table.world())));
    assert_eq!(order, "Priority: 1. Lockjaw   2. Imp   3. Imp archer");
    let texts = screen_texts(table.world());
    assert!(texts.iter().any(|t| t == "Turn: Lockjaw"), "the bar says whose turn it is: {texts:?}");
}

#[test]
fn a_hidden_combatant_is_not_named_on_the_table() {
    let mut table = Table::from_ron(LOCKJAW);
    table.world_mut().insert_resource(HiddenFromTable([CombatantId::from("imp")].into_iter().collect()));
    table.play_to_turns(&[("lockjaw", 3), ("imp", 2), ("archer", 1)]);
    assert_eq!(priority_line(&table).as_deref(), Some("Priority: 1. Lockjaw   2. Imp archer"));
    // Once the imp's turn comes, the bar names nobody rather than the hidden imp.
    table.accept("lockjaw", FwIntent::EndTurn);
    let imp = table.e("imp");
    assert_eq!(table.world().resource::<fiend_wake::ActiveTurn>().actor, Some(imp), "the imp's turn");
    let texts = screen_texts(table.world());
    assert!(
        !texts.iter().any(|t| t.starts_with("Turn:")),
        "a hidden combatant's turn is not named: {texts:?}"
    );
}
