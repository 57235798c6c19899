//! Any bytes given to the scenario loader give a scenario or an error, never a panic; a
//! scenario it accepts can be spawned and played a few rounds (or ticks) by the AI. Every
//! ruleset reads through the contract, as `fray check` and `fray sim` do.
#![no_main]

use fray_core::ruleset::Rulesets;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let rulesets = Rulesets::default().with::<fiend_wake::FiendWake>().with::<fatewalker::FateWalker>();
    match rulesets.parse(text) {
        Ok(scenario) => {
            let mut app = scenario.table_app(scenario.seed(), 3, true);
            app.update();
        }
        Err(e) => assert!(!e.report("x.ron").is_empty(), "an error explains itself"),
    }
});
