//! Any bytes given to the scenario loader give a scenario or an error, never a panic; a
//! scenario it accepts can be spawned and played a few rounds by the AI.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if fray_core::scenario::read_header(text).is_err() {
        return;
    }
    match fiend_wake::parse_scenario(text) {
        Ok(scenario) => {
            let mut app = fiend_wake::table_app(&scenario, scenario.seed, 3, true);
            app.update();
        }
        Err(e) => assert!(!e.report("x.ron").is_empty(), "an error explains itself"),
    }
});
