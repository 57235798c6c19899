//! How the screens word what the log holds: combatants by their display names (ids are for
//! files and the command line), and a tie-break draw by who it put first.

use bevy::prelude::*;
use fray_core::dice::{RollReading, RollRecord};
use fray_core::ids::CombatantId;
use fray_core::prelude::TableIndex;

/// A combatant's display name (its id only if it is no longer on the table's index).
pub fn who(world: &World, id: &CombatantId) -> String {
    let e = world.resource::<TableIndex>().combatant(id);
    e.map_or_else(|| id.to_string(), |e| fray_core::table::name(world, e))
}

/// A roll's caption as a commentator says it: the ruleset's words (who does what to whom),
/// else "who: what".
pub fn roll_caption(who: &str, roll: &RollRecord) -> String {
    match &roll.told {
        Some(told) => told.clone(),
        None if who.is_empty() => roll.what.clone(),
        None => format!("{who}: {}", roll.what),
    }
}

/// A roll's line in a list of rolls: its caption and its dice.
pub fn roll_line(world: &World, who: &str, roll: &RollRecord) -> String {
    match (&roll.told, &roll.reading) {
        (_, RollReading::Draw { order, .. }) => draw(world, order),
        (Some(told), _) => format!("{told}: {}", roll.outcome()),
        (None, _) if who.is_empty() => roll.describe(),
        (None, _) => format!("{who}: {}", roll.describe()),
    }
}

/// "a draw breaks the tie: Lockjaw first, then Gorm and Hulda".
pub fn draw(world: &World, order: &[CombatantId]) -> String {
    let names: Vec<String> = order.iter().map(|id| who(world, id)).collect();
    match names.split_first() {
        None => "a draw breaks the tie".to_owned(),
        Some((first, [])) => format!("a draw breaks the tie: {first} first"),
        Some((first, rest)) => format!("a draw breaks the tie: {first} first, then {}", and_list(rest)),
    }
}

/// "A", "A and B", "A, B and C".
fn and_list(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [only] => only.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn lists_read_as_sentences() {
        let names = |n: &[&str]| n.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        assert_eq!(super::and_list(&names(&["Gorm"])), "Gorm");
        assert_eq!(super::and_list(&names(&["Gorm", "Hulda"])), "Gorm and Hulda");
        assert_eq!(super::and_list(&names(&["Gorm", "Hulda", "Odo"])), "Gorm, Hulda and Odo");
    }
}
