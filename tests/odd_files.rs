//! Files that are not plain files, and files made elsewhere: named pipes and devices where
//! Fray reads or writes, symbolic links it writes through, a byte-order mark, an id with a
//! line break in an error, a data folder another Fray holds, and `fray play --headless` with
//! the options it honours or refuses.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use crate::support::scratch_dir;

const SWAMP: &str = "assets/scenarios/swamp.ron";

/// The project folder, where `fray` runs.
fn project() -> PathBuf {
    PathBuf::from(
        std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").to_owned()),
    )
}

/// Runs `fray` with `args`, killed after 60 seconds: a command that hangs fails the test
/// instead of hanging it.
fn fray_within(args: &[&str]) -> Output {
    let child = Command::new(env!("CARGO_BIN_EXE_fray"))
        .args(args)
        .current_dir(project())
        .env_remove(fray::session::DATA_DIR_ENV)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the fray binary runs");
    let pid = child.id().to_string();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || tx.send(child.wait_with_output()));
    match rx.recv_timeout(Duration::from_secs(60)) {
        Ok(out) => out.expect("its output"),
        Err(_) => {
            let _ = Command::new("kill").args(["-9", &pid]).status();
            panic!("fray {args:?} still runs after 60 s: it hangs");
        }
    }
}

fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo").arg(path).status().expect("mkfifo runs");
    assert!(made.success(), "a named pipe at {}", path.display());
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_named_pipe_is_refused_wherever_a_scenario_or_a_save_is_read() {
    let dir = scratch_dir("fifo-read");
    let fifo = dir.join("scenario.ron");
    mkfifo(&fifo);
    let shown = fifo.display().to_string();
    let data = dir.display().to_string();
    for args in [
        vec!["check", &shown],
        vec!["sim", "--scenario", &shown],
        vec!["replay", &shown, "--headless"],
        vec!["play", &shown, "--headless", "--data-dir", &data],
    ] {
        let out = fray_within(&args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.starts_with(&format!("{shown}: ")) && err.contains("a named pipe (FIFO), not a regular file"),
            "{args:?}: {err}"
        );
    }
    // The autosave `--resume` reads.
    mkfifo(&dir.join(fray::session::AUTOSAVE_FILE));
    let out = fray_within(&["play", "--headless", "--resume", "--data-dir", &data]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("not a regular file"), "{}", stderr(&out));
    // A device too, before a byte of it is read.
    let out = fray_within(&["check", "/dev/zero"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).starts_with("/dev/zero: ") && stderr(&out).contains("a device"), "{}", stderr(&out));
}

#[test]
fn a_file_too_large_is_refused_before_it_is_read_whole() {
    let path = scratch_dir("large").join("huge.ron");
    let file = std::fs::File::create(&path).expect("a file");
    file.set_len(fray_core::scenario::MAX_FILE_BYTES + 1).expect("sparse");
    let shown = path.display().to_string();
    let out = fray_within(&["check", &shown]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("more than a scenario"), "{}", stderr(&out));
}

#[test]
fn a_scenario_with_a_byte_order_mark_reads_as_without() {
    let path = scratch_dir("bom").join("swamp.ron");
    let text = std::fs::read_to_string(project().join(SWAMP)).expect("the swamp");
    std::fs::write(&path, format!("\u{feff}{text}")).expect("written");
    let out = fray_within(&["check", &path.display().to_string()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = fray_within(&["sim", "--scenario", &path.display().to_string(), "--battles", "2"]);
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn an_id_with_a_line_break_keeps_each_problem_on_one_line() {
    let path = scratch_dir("newline-id").join("odd.ron");
    let text = std::fs::read_to_string(project().join(SWAMP))
        .expect("the swamp")
        .replacen(r#"id: "lockjaw""#, r#"id: "lock\njaw""#, 1)
        .replacen(r#"id: "hulda""#, r#"id: "lock\njaw""#, 1);
    std::fs::write(&path, text).expect("written");
    let shown = path.display().to_string();
    let out = fray_within(&["check", &shown]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.lines().all(|l| l.starts_with(&format!("{shown}: "))), "every line names the file: {err}");
    assert!(err.contains(r"duplicate combatant id 'lock\njaw'"), "the id escaped: {err}");
}

#[test]
fn outputs_go_through_links_and_into_pipes_and_devices_never_replacing_them() {
    let dir = scratch_dir("outputs");
    let castle = "assets/scenarios/castle.ron";
    // `--json /dev/stdout` prints the JSON.
    let out = fray_within(&["sim", "--scenario", castle, "--battles", "3", "--json", "/dev/stdout"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let printed = String::from_utf8_lossy(&out.stdout);
    assert!(printed.contains("\"schema\""), "the JSON report on standard output: {printed}");
    // A symbolic link: its target is written, the link stays a link.
    let target = dir.join("target.json");
    let link = dir.join("link.json");
    std::os::unix::fs::symlink(&target, &link).expect("a link");
    let out =
        fray_within(&["sim", "--scenario", castle, "--battles", "3", "--json", &link.display().to_string()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(std::fs::symlink_metadata(&link).expect("the link").file_type().is_symlink(), "still a link");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&target).expect("the target written")).expect("JSON");
    assert!(json["schema"].is_number());
    // A named pipe: written into while someone reads it, and still a pipe after.
    let fifo = dir.join("save.fifo");
    mkfifo(&fifo);
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).expect("read from the pipe"))
    };
    let out = fray_within(&["sim", "--scenario", castle, "--save", &fifo.display().to_string()]);
    if !out.status.success() {
        let _ = std::fs::OpenOptions::new().write(true).open(&fifo); // lets the reader go
        panic!("{}", stderr(&out));
    }
    let save = reader.join().expect("the reader");
    assert!(save.contains("scenario"), "the save came through the pipe: {save}");
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::metadata(&fifo).expect("there").file_type().is_fifo(), "the pipe is not replaced");
    // A device that takes nothing: the error is said, the device left as it is.
    let out = fray_within(&["sim", "--scenario", castle, "--json", "/dev/full"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).starts_with("/dev/full: cannot write the JSON report"), "{}", stderr(&out));
    assert!(std::fs::metadata("/dev/full").expect("there").file_type().is_char_device(), "still a device");
}

#[test]
fn a_data_folder_another_fray_holds_is_refused_saying_so() {
    let dir = scratch_dir("held");
    let held = fray::session::lock_data_folder(&dir).expect("this test holds it");
    let data = dir.display().to_string();
    let out = fray_within(&["play", SWAMP, "--headless", "--data-dir", &data]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("another Fray is playing with this data folder"), "{}", stderr(&out));
    assert!(out.stdout.is_empty(), "nothing played");
    drop(held);
    let out = fray_within(&["play", SWAMP, "--headless", "--data-dir", &data]);
    assert!(out.status.success(), "free again: {}", stderr(&out));
}

#[test]
fn headless_play_writes_its_log_and_status_and_refuses_the_windows_options() {
    let dir = scratch_dir("headless-files");
    let (log, status) = (dir.join("fight.jsonl"), dir.join("status.json"));
    let data = dir.display().to_string();
    let (log_s, status_s) = (log.display().to_string(), status.display().to_string());
    let out = fray_within(&[
        "play",
        SWAMP,
        "--headless",
        "--data-dir",
        &data,
        "--log",
        &log_s,
        "--status-out",
        &status_s,
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let written = std::fs::read(&log).expect("the log");
    assert!(!written.is_empty() && written == out.stdout, "the log file is what was printed");
    let status: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&status).expect("the status")).expect("JSON");
    assert_eq!(status["over"], true, "{status}");
    assert_eq!(status["ruleset"], "fiend_wake");
    assert_eq!(status["log"].as_u64(), Some(String::from_utf8_lossy(&written).lines().count() as u64));
    for option in
        [["--screenshot", "x.png"], ["--layout-out", "x.json"], ["--exit-after", "1"], ["--select", "hulda"]]
    {
        let out = fray_within(&["play", SWAMP, "--headless", "--data-dir", &data, option[0], option[1]]);
        assert_eq!(out.status.code(), Some(2), "{option:?} is refused");
        assert!(
            stderr(&out).contains("cannot be used with") && stderr(&out).contains(option[0]),
            "{}",
            stderr(&out)
        );
    }
    let out = fray_within(&["play", SWAMP, "--headless", "--data-dir", &data, "--table-window"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}
