//! What the benchmark examples share: the Fiend Wake N v N field they play.

use std::fmt::Write as _;

/// A Fiend Wake scenario of `per_side` v `per_side`: rifles and axes on an open field with one
/// tower.
pub fn scenario(per_side: usize) -> String {
    let mut combatants = String::new();
    for side in ["red", "blue"] {
        for i in 0..per_side {
            let (weapon, skill) = if i % 2 == 0 { ("rifle", "Firearms: 2") } else { ("axe", "Blades: 2") };
            let location = if i % 4 == 1 { "location: \"tower\"," } else { "" };
            let _ = write!(
                combatants,
                r#"(id: "{side}_{i}", name: "{side} {i}", side: "{side}", {location}
                    sheet: (attributes: (power: 3, grace: 3, cunning: 3, endurance: 3, resolve: 3, spirit: 3),
                            evasion: 7, skills: {{{skill}, Tactics: {t}}}, weapons: ["{weapon}"], ready: "{weapon}", armour: "light")),"#,
                t = i % 3
            );
        }
    }
    format!(
        r#"Scenario(name: "bench", ruleset: "fiend_wake",
            rules: (
                weapons: {{
                    "rifle": (name: "Rifle", kind: Ranged, skill: Firearms, first_intention: 5, second_intention: 1, ready_cost: 2),
                    "axe": (name: "Axe", kind: Melee, skill: Blades, first_intention: 5, second_intention: 2, ready_cost: 1),
                }},
                armours: {{ "light": (name: "Light", reduction: 1, encumbrance: 1) }},
            ),
            sides: [(id: "red", name: "Red"), (id: "blue", name: "Blue")],
            locations: [(id: "tower", name: "Tower", entry_cost: 2)],
            combatants: [{combatants}])"#
    )
}
