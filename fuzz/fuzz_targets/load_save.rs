//! Any bytes given to the save loader give a save or an error, never a panic; a save it
//! accepts opens on a table (replayed up to its first invalid intent) without a panic. The
//! steps are those of `fray::session::parse_save_text` and `LoadedSave::open` for Fiend Wake.
#![no_main]

use bevy_ecs::world::World;
use fiend_wake::FwIntent;
use fray_core::session::{open_record, parse_save, read_save_header, read_save_scenario};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(header) = read_save_header(text) else { return };
    if header.ruleset != fiend_wake::RULESET_ID {
        return;
    }
    let Ok((scenario_text, _)) = read_save_scenario(text) else { return };
    let Ok(scenario) = fiend_wake::parse_scenario(&scenario_text) else { return };
    let ids: Vec<_> = scenario.combatants.iter().map(|c| c.id.clone()).collect();
    let Ok(save) = parse_save::<FwIntent>(text, &ids) else { return };
    let mut app = fiend_wake::table_app(&scenario, save.seed, save.max_rounds, false);
    let rebuild =
        |w: &mut World| fiend_wake::load::reset_world(w, &scenario, save.seed, save.max_rounds, false);
    let report =
        open_record(app.world_mut(), rebuild, &save.controllers, &save.intents, &save.controller_changes);
    assert!(report.replayed <= report.total);
    assert_eq!(report.stopped.is_none(), report.replayed == report.total);
});
