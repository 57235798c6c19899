//! Every rule system is ordered: building the rules schedule with ambiguity detection set to
//! error succeeds.

use crate::FiendWakePlugin;
use bevy_app::App;
use bevy_ecs::schedule::{LogLevel, ScheduleBuildSettings};
use fray_core::phase::RulesStep;

#[test]
fn the_rules_schedule_has_no_ambiguous_systems() {
    let mut app = App::new();
    app.add_plugins(FiendWakePlugin);
    app.edit_schedule(RulesStep, |schedule| {
        schedule.set_build_settings(ScheduleBuildSettings {
            ambiguity_detection: LogLevel::Error,
            ..Default::default()
        });
    });
    let built =
        app.world_mut().schedule_scope(RulesStep, |world, schedule| schedule.initialize(world).map(|_| ()));
    if let Err(e) = built {
        panic!("the rules schedule has ambiguities or cycles:\n{e}");
    }
}
