//! Whether a window can open here: the client draws through X11 (no Wayland support is built
//! in), so it needs `DISPLAY` to name an X server it can reach. Asked before a window command
//! starts, so that a machine without one gets a reason and exit 1, not winit's panic.

use std::ffi::OsStr;
use std::os::unix::net::UnixStream;

/// What to do instead, said after the reason.
const INSTEAD: &str = "run it on a desktop, under an X server such as Xvfb \
(`xvfb-run -a fray play ...`), or without a window: `fray play SCENARIO --headless` plays \
in the terminal, `fray replay SAVE --headless` prints a save's log, and \
`fray play SCENARIO --stats N --offscreen` times frames";

/// Why no window can open, if none can (`DISPLAY` read from the environment).
pub fn missing() -> Option<String> {
    why_not(std::env::var_os("DISPLAY").as_deref(), reachable)
}

/// Why no window can open on `display`, asking `reach` whether its X server answers.
fn why_not(display: Option<&OsStr>, reach: impl Fn(&str) -> bool) -> Option<String> {
    let Some(display) = display.filter(|d| !d.is_empty()) else {
        return Some(format!("no display to open a window on: DISPLAY is not set; {INSTEAD}"));
    };
    let display = display.to_string_lossy();
    (!reach(&display)).then(|| format!("no X server answers on DISPLAY={display}; {INSTEAD}"))
}

/// Whether the X server of a display name answers. Only a local display (`:N`) is tried, by
/// its socket file and then the abstract socket of the same name; any other form is left
/// for the window to try.
fn reachable(display: &str) -> bool {
    let Some(number) = local_display_number(display) else { return true };
    let path = format!("/tmp/.X11-unix/X{number}");
    if UnixStream::connect(&path).is_ok() {
        return true;
    }
    abstract_socket(&path)
}

/// The number of a local display name (`:0`, `:99.0`), none for any other form.
fn local_display_number(display: &str) -> Option<u32> {
    let rest = display.strip_prefix(':')?;
    rest.split('.').next()?.parse().ok()
}

#[cfg(target_os = "linux")]
fn abstract_socket(path: &str) -> bool {
    use std::os::linux::net::SocketAddrExt;
    let Ok(addr) = std::os::unix::net::SocketAddr::from_abstract_name(path.as_bytes()) else {
        return false;
    };
    UnixStream::connect_addr(&addr).is_ok()
}

#[cfg(not(target_os = "linux"))]
fn abstract_socket(_: &str) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use std::ffi::OsStr;

    use super::{local_display_number, why_not};

    #[test]
    fn no_display_set_is_said_with_what_to_do_instead() {
        for display in [None, Some(OsStr::new(""))] {
            let why = why_not(display, |_| true).expect("no display");
            assert!(why.contains("DISPLAY is not set"), "{why}");
            assert!(why.contains("--headless") && why.contains("Xvfb"), "{why}");
        }
    }

    #[test]
    fn a_display_whose_server_does_not_answer_is_named() {
        let why = why_not(Some(OsStr::new(":42")), |_| false).expect("no server");
        assert!(why.contains("DISPLAY=:42"), "{why}");
        assert_eq!(why_not(Some(OsStr::new(":0")), |_| true), None);
    }

    #[test]
    fn only_a_local_display_is_tried() {
        assert_eq!(local_display_number(":99"), Some(99));
        assert_eq!(local_display_number(":1.0"), Some(1));
        assert_eq!(local_display_number("host:0"), None);
        assert_eq!(local_display_number(":x"), None);
    }
}
