//! Every rule system is ordered: building the rules schedule with ambiguity detection set to
//! error succeeds.

use crate::FiendWakePlugin;
use bevy_app::App;

#[test]
fn the_rules_schedule_has_no_ambiguous_systems() {
    let mut app = App::new();
    app.add_plugins(FiendWakePlugin);
    if let Err(e) = fray_core::ruleset::check_rules_schedule(&mut app) {
        panic!("{e}");
    }
}
