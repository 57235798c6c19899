//! Any bytes given to the save loader give a save or an error, never a panic; a save it
//! accepts opens on a table (replayed up to its first invalid intent) without a panic. The
//! steps are those of `fray::session::parse_save_text` and `LoadedSave::open`.
#![no_main]

use fray_core::fight::read_save_text;
use fray_core::ruleset::Rulesets;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let rulesets = Rulesets::default().with::<fiend_wake::FiendWake>().with::<fatewalker::FateWalker>();
    let Ok(save) = read_save_text(&rulesets, text) else { return };
    let (_, report) = save.headless_app();
    assert!(report.replayed <= report.total);
    assert_eq!(report.stopped.is_none(), report.replayed == report.total);
});
