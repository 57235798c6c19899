//! The table window's settings file: kept between runs, and a broken one costs nothing.

use fray::settings::{self, SETTINGS_FILE, TableSettings};

use crate::support::scratch_dir;

fn scratch(name: &str) -> std::path::PathBuf {
    scratch_dir(&format!("table-settings-{name}"))
}

#[test]
fn settings_survive_a_save_and_a_load() {
    let dir = scratch("round-trip");
    let (fresh, problem) = settings::load(&dir);
    assert_eq!((fresh, problem), (TableSettings::default(), None), "no file: the defaults, no complaint");
    let kept = TableSettings {
        open: true,
        monitor: Some(1),
        position: Some((1920, 40)),
        size: (1600, 900),
        background: Some([0, 255, 0]),
        follow: true,
        reduce_motion: true,
        lower_third: true,
        theme: fray::settings::Theme::HighContrast,
        whole_board: true,
    };
    settings::save(&dir, &kept).expect("the settings are written");
    assert_eq!(settings::load(&dir), (kept, None));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_file_from_an_older_version_keeps_what_it_has() {
    let dir = scratch("older");
    std::fs::write(dir.join(SETTINGS_FILE), "(open: true, size: (800, 600))").expect("a settings file");
    let (loaded, problem) = settings::load(&dir);
    assert_eq!(problem, None);
    assert!(loaded.open && loaded.size == (800, 600) && !loaded.follow && loaded.background.is_none());
    assert!(!loaded.lower_third, "a setting the file does not name is off");
    assert!(!loaded.whole_board, "a GM's window kept legible unless asked");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_broken_file_is_moved_aside_with_where_and_why() {
    let dir = scratch("broken");
    let text = "(open: true,\n size: (800, \"wide\"))";
    std::fs::write(dir.join(SETTINGS_FILE), text).expect("a settings file");
    let (loaded, problem) = settings::load(&dir);
    assert_eq!(loaded, TableSettings::default(), "the defaults are used");
    let problem = problem.expect("the problem is reported");
    assert!(problem.contains(&format!("{SETTINGS_FILE}:2:")), "names the file and line: {problem}");
    let aside = dir.join(format!("{SETTINGS_FILE}.broken"));
    assert_eq!(std::fs::read_to_string(&aside).ok().as_deref(), Some(text), "nothing of the file is lost");
    assert!(!dir.join(SETTINGS_FILE).exists(), "the broken file no longer stands in the way");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_absurd_size_is_brought_back_to_a_window_size() {
    let dir = scratch("size");
    std::fs::write(dir.join(SETTINGS_FILE), "(size: (0, 4000000000))").expect("a settings file");
    let (loaded, _) = settings::load(&dir);
    assert_eq!(loaded.size, (320, 8192));
    let _ = std::fs::remove_dir_all(&dir);
}
