//! The short list a new combatant or mount is made from, for any ruleset: the combatants and
//! mounts of the ruleset's own template and of the bundled scenarios it plays, each once by
//! name. A template is a piece of a checked scenario, so what it adds is a sheet the
//! ruleset already accepted.

use std::path::Path;
use std::sync::Arc;

use fray_core::edit::Piece;
use fray_core::fight::LoadedScenario;
use fray_core::ruleset::Rulesets;

/// One template: a combatant or a mount, and the scenario it comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Template {
    /// The scenario's name.
    pub from: String,
    /// The combatant or mount.
    pub piece: Piece,
}

impl Template {
    /// How the list shows it: "Imp brute (Castle)", "Destrier, a mount (Swamp)".
    pub fn label(&self) -> String {
        let kind = if self.piece.mount { ", a mount" } else { "" };
        format!("{}{kind} ({})", self.piece.name, self.from)
    }
}

/// The templates for `scenario`'s ruleset: its template's pieces, then the bundled
/// scenarios' in file order (the folder of [`crate::assets::default_scenario`]); a name listed once.
pub fn templates(registry: &Rulesets, scenario: &LoadedScenario) -> Arc<Vec<Template>> {
    let ruleset = scenario.ruleset().id();
    let default = crate::assets::default_scenario();
    let folder = default.parent().unwrap_or(Path::new("."));
    let mut files: Vec<_> = std::fs::read_dir(folder)
        .map(|dir| dir.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "ron"));
    files.sort();
    let template = registry.parse(scenario.ruleset().template()).ok();
    let bundled = files.iter().filter_map(|path| registry.load(path).ok());
    let mut list: Vec<Template> = Vec::new();
    for source in template.into_iter().chain(bundled).filter(|s| s.ruleset().id() == ruleset) {
        for piece in source.pieces() {
            if !list.iter().any(|t| t.piece.mount == piece.mount && t.piece.name == piece.name) {
                list.push(Template { from: source.name().to_owned(), piece });
            }
        }
    }
    Arc::new(list)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fiend_wake_templates_hold_combatants_and_mounts_of_its_bundled_scenarios_once_each() {
        let registry = crate::rulesets::registry();
        let castle = registry.load(Path::new("assets/scenarios/castle.ron")).expect("castle");
        let list = templates(&registry, &castle);
        assert!(list.iter().any(|t| t.piece.mount), "a mount among {list:?}");
        assert!(list.iter().any(|t| !t.piece.mount && t.from == "The castle at Grimmholt"), "{list:?}");
        let names: Vec<_> = list.iter().map(|t| (t.piece.mount, t.piece.name.clone())).collect();
        let once: std::collections::BTreeSet<_> = names.iter().collect();
        assert_eq!(once.len(), names.len(), "each name once: {names:?}");
        // A template says nothing of where it stood.
        assert!(list.iter().all(|t| t.piece.spec.contains("location:None,")), "{list:?}");
    }
}
