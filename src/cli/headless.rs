//! `fray play --headless`: the AI plays every side without a window, one decision per
//! step, printing the log as it grows and autosaving after every accepted intent;
//! `--resume` carries on from the last autosave. With `--serve`, a host: the players decide
//! on their pages, the AI for every other combatant.

use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

use fray_core::log::GameLog;
use fray_core::prelude::Controller;
use fray_core::session::AiPacing;
use fray_core::session::{controllers, set_controllers};

use super::play::PlayArgs;
use crate::rulesets;
use crate::session::{self, Autosave, AutosavePlugin};

/// How many steps in a row may pass without a new log line before the player gives up.
const MAX_IDLE_STEPS: u32 = 10_000;
/// Serving, how long a step waits when nothing happened (milliseconds).
const IDLE_SERVING_MS: u64 = 5;

/// Plays to the end, the log also written to `--log` as it grows and what the table does to
/// `--status-out`. Exit 0 when the fight ends, 2 for a file that cannot be read, 1 when the
/// autosave, the log or the status cannot be written, another Fray holds the data folder, or
/// the fight stalls.
pub fn run(args: &PlayArgs) -> ExitCode {
    let Some(dir) = args.data_dir.clone().or_else(session::data_dir) else {
        eprintln!("no data folder for the autosave: pass --data-dir or set {}", session::DATA_DIR_ENV);
        return ExitCode::from(2);
    };
    let lock = match session::lock_data_folder(&dir) {
        Ok(lock) => lock,
        Err(why) => {
            eprintln!("{why}");
            return ExitCode::FAILURE;
        }
    };
    let autosave = session::autosave_path(&dir);
    let mut app = match open(args, &autosave) {
        Ok(app) => app,
        Err(code) => return code,
    };
    let world = app.world_mut();
    // Serving, the players keep their combatants; no GM sits at a headless host.
    let serving = args.serve.is_some();
    let everyone: Vec<_> = controllers(world)
        .into_iter()
        .filter(|(_, c)| !(serving && matches!(c, Controller::Player(_))))
        .map(|(id, _)| (id, Controller::Ai))
        .collect();
    set_controllers(world, &everyone);
    if let Some(addr) = args.serve
        && let Err(why) = serve(&mut app, addr, &dir)
    {
        eprintln!("{why}");
        return ExitCode::FAILURE;
    }
    let world = app.world_mut();
    world.insert_resource(AiPacing::default());
    world.insert_resource(lock);
    world.insert_resource(Autosave::to(autosave));
    app.add_plugins(AutosavePlugin);
    if !session::autosave_now(app.world_mut())
        && let Some(e) = &app.world().resource::<Autosave>().error
    {
        eprintln!("cannot autosave: {e}");
        return ExitCode::FAILURE;
    }
    let log_file = match args.log.as_ref().map(|p| (p, std::fs::File::create(p))) {
        None => None,
        Some((_, Ok(file))) => Some(std::io::BufWriter::new(file)),
        Some((path, Err(e))) => {
            eprintln!("{}: cannot write the log: {e}", path.display());
            return ExitCode::from(2);
        }
    };
    play(&mut app, log_file, StatusFile::new(args.status_out.clone()), args.pace_ms)
}

/// Starts the host on `addr`, its join codes kept in `dir`.
#[cfg(feature = "serve")]
fn serve(app: &mut bevy::app::App, addr: std::net::SocketAddr, dir: &std::path::Path) -> Result<(), String> {
    let host = crate::host::Host::start(app.world(), addr, Some(dir))?;
    eprintln!("serving on {}: the links are in the status file", host.base);
    app.insert_resource(host).add_plugins(crate::host::HostPlugin);
    Ok(())
}

#[cfg(not(feature = "serve"))]
fn serve(_: &mut bevy::app::App, _: std::net::SocketAddr, _: &std::path::Path) -> Result<(), String> {
    Err("this Fray was built without the `serve` feature: --serve is not available".to_owned())
}

/// Whether the table serves seats: then waiting on players is no stall.
fn serving(world: &bevy_ecs::world::World) -> bool {
    #[cfg(feature = "serve")]
    return world.contains_resource::<crate::host::Host>();
    #[cfg(not(feature = "serve"))]
    return {
        let _ = world;
        false
    };
}

/// The table to play: the autosave resumed (`--resume`), else the scenario spawned. A file
/// that cannot be read is reported, and exits 2.
fn open(args: &PlayArgs, autosave: &std::path::Path) -> Result<bevy::app::App, ExitCode> {
    if args.resume {
        let shown = autosave.display().to_string();
        let save = session::read_save(&crate::rulesets::registry(), autosave).map_err(|e| {
            for line in e.report(&shown) {
                eprintln!("{line}");
            }
            ExitCode::from(2)
        })?;
        let (app, report) = save.headless_app();
        eprintln!("{shown}: resumed: {}", report.message());
        return Ok(app);
    }
    let path = args.path.clone().unwrap_or_else(crate::assets::default_scenario);
    let scenario = rulesets::load(&path).map_err(|e| {
        for line in e.report(&path.display().to_string()) {
            eprintln!("{line}");
        }
        ExitCode::from(2)
    })?;
    let seed = args.seed.unwrap_or_else(|| scenario.seed());
    // Serving, the scenario's seats keep their combatants (the AI plays the rest).
    Ok(scenario.table_app(seed, scenario.default_limit(), args.serve.is_none()))
}

/// Steps the table until the fight ends, printing each new log line once it is autosaved.
fn play(
    app: &mut bevy::app::App,
    mut log_file: Option<std::io::BufWriter<std::fs::File>>,
    mut status: StatusFile,
    pace_ms: u64,
) -> ExitCode {
    let mut stdout = std::io::stdout().lock();
    let mut printed = 0;
    let mut idle = 0;
    loop {
        if let Err(why) = status.write(app.world()) {
            eprintln!("{why}");
            return ExitCode::FAILURE;
        }
        app.world_mut().resource_mut::<AiPacing>().allowance = 1;
        app.update();
        if let Some(e) = &app.world().resource::<Autosave>().error {
            eprintln!("cannot autosave: {e}");
            return ExitCode::FAILURE;
        }
        // Printed only once autosaved: every line shown is in the autosave.
        let log = app.world().resource::<GameLog>();
        let len = log.entries().len();
        if let Some(out) = log_file.as_mut()
            && let Err(e) = log.write_jsonl_from(out, printed, None).and_then(|()| out.flush())
        {
            eprintln!("cannot write the log: {e}");
            return ExitCode::FAILURE;
        }
        let shown = log.write_jsonl_from(&mut stdout, printed, None).and_then(|()| stdout.flush()).is_ok();
        idle = if len == printed { idle + 1 } else { 0 };
        printed = len;
        if session::fight_over(app.world()) || !shown {
            return match status.write(app.world()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(why) => {
                    eprintln!("{why}");
                    ExitCode::FAILURE
                }
            };
        }
        let waiting = serving(app.world());
        if idle > MAX_IDLE_STEPS && !waiting {
            eprintln!("the fight stalled: nobody is deciding");
            return ExitCode::FAILURE;
        }
        if pace_ms > 0 {
            std::thread::sleep(Duration::from_millis(pace_ms));
        } else if waiting && idle > 0 {
            // Waiting on the players' pages: a step each few milliseconds, not a busy loop.
            std::thread::sleep(Duration::from_millis(IDLE_SERVING_MS));
        }
    }
}

/// `--status-out`: what the table is doing now ([`crate::battle::status`]), rewritten
/// whenever it changes.
struct StatusFile {
    path: Option<std::path::PathBuf>,
    last: Option<serde_json::Value>,
}

impl StatusFile {
    fn new(path: Option<std::path::PathBuf>) -> Self {
        Self { path, last: None }
    }

    fn write(&mut self, world: &bevy_ecs::world::World) -> Result<(), String> {
        let Some(path) = &self.path else { return Ok(()) };
        let now = serde_json::Value::Object(crate::battle::status(world));
        if self.last.as_ref() == Some(&now) {
            return Ok(());
        }
        session::write_atomically(path, now.to_string().as_bytes())
            .map_err(|e| format!("{}: cannot write the status: {e}", path.display()))?;
        self.last = Some(now);
        Ok(())
    }
}
