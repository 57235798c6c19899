//! What the table's screen writes (read off screen from its egui output): a secret choice
//! (Fiend Wake's bids) stays off it until revealed, and a combatant the GM hides is never
//! named; a roll says who does what to whom.

use fray::client::audience::HiddenFromTable;
use fray::client::table::{screen_texts, screen_texts_as_revealed};
use fray_core::prelude::CombatantId;

use crate::support::{Board, LOCKJAW};

fn order_line(table: &Board) -> Option<String> {
    screen_texts(table.world()).into_iter().find(|t| t.starts_with("Priority:"))
}

/// Pays Lockjaw's armour, and has everyone bid as given.
fn bid(table: &mut Board, bids: &[(&str, u32)]) {
    table.choose("lockjaw", "Pay armour: 1 TP");
    for (who, tp) in bids {
        table.choose(who, &format!("Bid {tp} TP"));
    }
}

#[test]
fn sealed_bids_stay_off_the_table_until_revealed() {
    let mut table = Board::from_ron(LOCKJAW);
    bid(&mut table, &[("lockjaw", 3), ("imp", 1)]);
    let sealed = screen_texts(table.world());
    assert!(sealed.iter().any(|t| t.contains("Bid for Priority")), "the bar names the phase: {sealed:?}");
    assert_eq!(order_line(&table), None, "no order before the reveal: {sealed:?}");
    let asked = "· Sealed bids for priority, 1 to come";
    assert!(sealed.iter().any(|t| t == asked), "the bar says what the rules wait for: {sealed:?}");
    let others = sealed.iter().filter(|t| *t != asked);
    assert!(!others.clone().any(|t| t.contains("bid") || t.contains('3')), "no bid amount: {sealed:?}");
    table.choose("archer", "Bid 0 TP");
    let order = order_line(&table)
        .unwrap_or_else(|| panic!("no order once revealed: {:?}", screen_texts(table.world())));
    assert_eq!(order, "Priority: 1. Lockjaw   2. Imp   3. Imp archer");
    let texts = screen_texts(table.world());
    assert!(texts.iter().any(|t| t == "· Turn: Lockjaw"), "the bar says whose turn it is: {texts:?}");
    // In the moment of the reveal, the bar says what each bid.
    let revealed = screen_texts_as_revealed(table.world());
    let said = "Revealed: Lockjaw 3 TP · Imp 1 TP · Imp archer 0 TP";
    assert!(revealed.iter().any(|t| t == said), "the bids as revealed: {revealed:?}");
}

#[test]
fn a_hidden_combatant_is_not_named_on_the_table() {
    let mut table = Board::from_ron(LOCKJAW);
    table.world_mut().insert_resource(HiddenFromTable([CombatantId::from("imp")].into_iter().collect()));
    bid(&mut table, &[("lockjaw", 3), ("imp", 2), ("archer", 1)]);
    assert_eq!(order_line(&table).as_deref(), Some("Priority: 1. Lockjaw   2. Imp archer"));
    // Once the imp's turn comes, the bar names nobody rather than the hidden imp.
    table.choose("lockjaw", "End turn");
    assert_eq!(table.awaiting(), ["imp"], "the imp's turn");
    let texts = screen_texts(table.world());
    assert!(!texts.iter().any(|t| t.contains("Turn:")), "a hidden combatant's turn is not named: {texts:?}");
}

#[test]
fn fast_and_slow_choices_stay_off_the_table_until_all_are_revealed() {
    let mut table = Board::from_ron(include_str!("../assets/scenarios/fast_slow_crossing.ron"));
    assert_eq!(table.awaiting(), ["brann"], "the AI has chosen in secret; Brann, a person's, has not");
    let sealed = screen_texts(table.world());
    assert!(!sealed.iter().any(|t| t.starts_with("Turns:")), "no order before the reveal: {sealed:?}");
    let asked = "· Sealed Fast or Slow turns, 1 to come";
    assert!(sealed.iter().any(|t| t == asked), "the bar says what the rules wait for: {sealed:?}");
    let others = sealed.iter().filter(|t| *t != asked);
    assert!(
        !others.clone().any(|t| t.contains("Fast") || t.contains("Slow ")),
        "no choice shown: {sealed:?}"
    );
    table.choose("brann", "Slow turn: 4 Paces, 2 actions and a bold action, after the upkeep");
    let texts = screen_texts(table.world());
    assert!(texts.iter().any(|t| t.starts_with("Turns:")), "the order once all are revealed: {texts:?}");
    let revealed = screen_texts_as_revealed(table.world());
    let said = revealed.iter().find(|t| t.starts_with("Revealed: ")).expect("the choices as revealed");
    assert!(said.contains("Brann Slow"), "{said}");
}

#[test]
fn the_bars_smallest_line_keeps_to_the_tables_floor_on_a_stream_sized_screen() {
    use bevy_egui::egui::vec2;
    let mut table = Board::from_ron(LOCKJAW);
    bid(&mut table, &[("lockjaw", 3), ("imp", 1), ("archer", 0)]);
    for size in [vec2(1280.0, 720.0), vec2(1600.0, 900.0), vec2(1920.0, 1080.0), vec2(2560.0, 1440.0)] {
        let texts = fray::client::table::screen_texts_at(table.world(), size);
        assert!(texts.iter().any(|(t, _)| t.starts_with("Priority:")), "the order line is drawn: {texts:?}");
        // 2.2% of the height, in the points egui draws in (the table window's, one a pixel).
        let floor = 0.022 * size.y;
        let small: Vec<_> = texts.iter().filter(|(_, font)| *font < floor).collect();
        assert!(small.is_empty(), "at {size:?}, under {floor:.1} px: {small:?}");
    }
}

#[test]
fn factions_are_headed_not_numbered_and_the_bar_says_who_is_asked_what() {
    // The inn opens on the bandits' attack on Balthasar, who is asked how he meets it.
    let table = Board::from_ron(include_str!("../assets/scenarios/faction_zones_inn.ron"));
    let texts = screen_texts(table.world());
    let asked = "· Balthasar: dodge, counter or take Bandit leader's attack?";
    assert!(texts.iter().any(|t| t == asked), "whom the rules wait on, and why: {texts:?}");
    let order = texts.iter().find(|t| t.starts_with("Factions:")).expect("the factions line");
    assert!(order.starts_with("Factions: The party: Balthasar"), "headed by faction: {order}");
    assert!(order.contains("The bandits to act: Bandit leader"), "each faction heads its own: {order}");
    assert!(!order.contains("1. "), "factions act in no fixed order: {order}");
    assert!(order.contains("Balthasar, Sybilla"), "a faction's members after its head, with commas: {order}");
}

#[test]
fn the_roll_on_the_table_says_who_does_what_to_whom() {
    let mut table = Board::from_ron(LOCKJAW);
    bid(&mut table, &[("lockjaw", 3), ("imp", 1), ("archer", 0)]);
    table.choose("lockjaw", "Ranged attack Imp");
    let texts = screen_texts_as_revealed(table.world());
    assert!(texts.iter().any(|t| t == "Lockjaw shoots at Imp"), "the roll's caption: {texts:?}");
    assert!(!texts.iter().any(|t| t.contains("Firearms")), "not the ruleset's log words: {texts:?}");
    // A roll that names a combatant hidden from the table is not shown.
    table.world_mut().insert_resource(HiddenFromTable([CombatantId::from("imp")].into_iter().collect()));
    let texts = screen_texts_as_revealed(table.world());
    assert!(!texts.iter().any(|t| t.contains("shoots at")), "the hidden Imp's roll: {texts:?}");
}
