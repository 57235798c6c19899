//! What the AI was offered and what it took, intent kind by intent kind: the balance lab's
//! coverage (`fray sim --json`'s `intents`). While the table holds an [`IntentCoverage`],
//! every intent the AI submits is counted with the kinds the rules offered it at that
//! moment (those they would accept), asked of the ruleset through the resource's own
//! function, so that the core needs no ruleset here.

use std::collections::{BTreeMap, BTreeSet};

use bevy_ecs::prelude::*;
use serde_json::Value;

use crate::table::Controller;

/// The kinds the rules would accept from a combatant now (its ruleset's choices, by kind).
pub type OfferedBy = Box<dyn Fn(&World, Entity) -> Vec<String> + Send + Sync>;

/// The AI's decisions counted by intent kind, kept in the world while the lab wants them.
#[derive(Resource)]
pub struct IntentCoverage {
    /// Asks the ruleset what it offers.
    pub offered_by: OfferedBy,
    /// What was counted.
    pub counts: Coverage,
}

impl IntentCoverage {
    /// Counting afresh, asking `offered_by`.
    pub fn new(offered_by: OfferedBy) -> Self {
        Self { offered_by, counts: Coverage::default() }
    }
}

/// Counts per intent kind.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Coverage {
    /// The AI's decisions counted.
    pub decisions: u64,
    /// Per kind: at how many of them the rules offered it.
    pub offered: BTreeMap<String, u64>,
    /// Per kind: how many times the AI took it and the rules accepted it.
    pub taken: BTreeMap<String, u64>,
}

/// An intent's kind, read from its JSON: the variant's name, and the inner variant's where
/// the variant wraps another enum (`"Main/Attack"`, `"Free/Sprint"`). A struct's fields
/// (lower case) end it.
pub fn kind(intent: &Value) -> String {
    let variant = |name: &str| name.chars().next().is_some_and(char::is_uppercase);
    match intent {
        Value::String(name) => name.clone(),
        Value::Object(map) if map.len() == 1 => {
            let (name, inner) = map.iter().next().map_or(("", &Value::Null), |(k, v)| (k.as_str(), v));
            let deeper = match inner {
                Value::String(s) if variant(s) => Some(s.clone()),
                Value::Object(m) if m.len() == 1 && m.keys().all(|k| variant(k)) => Some(kind(inner)),
                _ => None,
            };
            deeper.map_or_else(|| name.to_owned(), |d| format!("{name}/{d}"))
        }
        _ => "other".to_owned(),
    }
}

/// The kinds offered to `e` now, if the table counts coverage and `e` is the AI's.
pub(crate) fn offered(world: &World, e: Entity) -> Option<BTreeSet<String>> {
    let coverage = world.get_resource::<IntentCoverage>()?;
    (world.get::<Controller>(e) == Some(&Controller::Ai))
        .then(|| (coverage.offered_by)(world, e).into_iter().collect())
}

/// Counts one decision of the AI: what was offered, and what it took if the rules accepted
/// it (a kind taken counts as offered, whatever the ruleset's list said).
pub(crate) fn count(world: &mut World, mut offered: BTreeSet<String>, taken: Option<String>) {
    let Some(mut coverage) = world.get_resource_mut::<IntentCoverage>() else { return };
    let counts = &mut coverage.counts;
    counts.decisions += 1;
    if let Some(taken) = taken {
        *counts.taken.entry(taken.clone()).or_default() += 1;
        offered.insert(taken);
    }
    for kind in offered {
        *counts.offered.entry(kind).or_default() += 1;
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn an_intents_kind_is_its_variant_and_the_variant_it_wraps() {
        assert_eq!(kind(&json!("EndTurn")), "EndTurn");
        assert_eq!(kind(&json!({"Attack": {"target": "imp", "weapon": 0}})), "Attack");
        assert_eq!(kind(&json!({"Free": "Sprint"})), "Free/Sprint");
        assert_eq!(kind(&json!({"Main": {"Attack": {"target": "imp"}}})), "Main/Attack");
        assert_eq!(kind(&json!({"Bid": 3})), "Bid");
        assert_eq!(kind(&json!({"Commit": {"speed": "Fast"}})), "Commit");
        assert_eq!(kind(&json!(7)), "other");
    }
}
