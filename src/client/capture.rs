//! `--screenshot OUT.png`: once the board has settled, save a picture of the whole window
//! through Bevy's screenshot API, then exit. Also the hooks scripted checks use: `--log`
//! (written as it grows), `--status-out` (what the table is doing now), `--exit-after`,
//! `--layout-out`, `--glide-picture`, and Ctrl+Q, which closes the window.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk};
use serde_json::Value;

use super::options::PlayOptions;

/// Frames to wait before the picture: enough for fonts, layout and the first rules pass.
const SETTLE_FRAMES: u32 = 45;

#[derive(Resource, Default)]
struct Capture {
    frames: u32,
    requested: bool,
    /// Pictures captured so far, and the frame of the last one.
    captured: u32,
    saved_at: Option<u32>,
    /// `--layout-out` is written.
    layout_written: bool,
    /// The editor's revision the layout was last written for, and the frame it changed.
    layout_revision: u64,
    revision_at: u32,
    /// The log's length when the board last changed: tokens move between cards as the rules
    /// play, so the layout is written again once they have glided to their places (and the
    /// seat the GM's window showed, and the token being dragged).
    layout_log: (usize, Option<fray_core::seat::Seat>, Option<Entity>, Option<Entity>),
    /// Frames in a row in which the board's layout had nothing to redo: a picture or a layout
    /// taken sooner could catch a token moved and its caption not yet placed again.
    quiet: u32,
    /// Where the board's cameras looked in the last frame: a view framed again (a panel grown,
    /// the window resized, a pan) writes the layout again.
    views: Vec<[f32; 7]>,
}

/// How many frames in a row the layout must have had nothing to redo before a picture or a
/// layout is taken.
const QUIET_FRAMES: u32 = 2;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, (picture_on_key, quit_on_key).in_set(super::order::Step::Keys));
    app.init_resource::<Capture>().init_resource::<Pictures>().add_systems(
        Last,
        (capture, glide_picture, exit_after, write_layout, write_log, write_status).chain(),
    );
}

/// Pictures saved with F12 so far (the status file counts them once on disk).
#[derive(Resource, Default)]
struct Pictures {
    taken: u32,
    paths: Vec<PathBuf>,
}

/// F12 saves a picture of the window in the working folder, to share the board (and one of
/// the table window beside it, when it is open).
fn picture_on_key(
    keys: Res<ButtonInput<KeyCode>>,
    table: Option<Res<super::table::window::TableWindow>>,
    mut pictures: ResMut<Pictures>,
    mut commands: Commands,
) {
    if keys.just_pressed(KeyCode::F12) {
        pictures.taken += 1;
        let path = PathBuf::from(format!("fray-picture-{}.png", pictures.taken));
        info!("saving a picture of the window to {}", path.display());
        if let Some(table) = table {
            let beside = table_picture_path(&path);
            pictures.paths.push(beside.clone());
            commands.spawn(Screenshot::window(table.window)).observe(save_to_disk(beside));
        }
        pictures.paths.push(path.clone());
        commands.spawn(Screenshot::primary_window()).observe(save_to_disk(path));
    }
}

/// Ctrl+Q closes the window (the log and status are written on the way out).
fn quit_on_key(keys: Res<ButtonInput<KeyCode>>, mut exit: MessageWriter<AppExit>) {
    let ctrl = keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]);
    if ctrl && keys.just_pressed(KeyCode::KeyQ) {
        exit.write(AppExit::Success);
    }
}

fn exit_after(time: Res<Time>, options: Res<PlayOptions>, mut exit: MessageWriter<AppExit>) {
    if options.exit_after.is_some_and(|secs| time.elapsed_secs() >= secs) {
        exit.write(AppExit::Success);
    }
}

/// Once settled, every drawing of the board in each window (`screen_layout`), for scripted
/// drags and the layout check; written again after each edit and (without `--screenshot`)
/// each step of the rules, once the tokens have glided to their places (the status says
/// `layout: false` until then).
fn write_layout(world: &mut World) {
    let Some(path) = world.resource::<PlayOptions>().layout_out.clone() else {
        return;
    };
    // With `--screenshot` the layout is the picture's: written once.
    let follow = world.resource::<PlayOptions>().screenshot.is_none();
    // In edit mode the layout is written again once each edit's table has settled.
    let revision = world.resource::<super::edit::Editor>().revision;
    // A step of the rules, the GM window turned to another seat's view, a drag begun or
    // ended (the ruler's words are checked too), or a token clicked (its choices first in the
    // panel).
    let log = (
        world.get_resource::<fray_core::log::GameLog>().map_or(0, |l| l.entries().len()),
        Some(super::audience::main_seat(world)),
        world.resource::<super::pointer::Dragging>().0.map(|d| d.token),
        world.resource::<super::board::pieces::Selection>().combatant,
    );
    let gliding = world.get_resource::<super::motion::Glides>().is_some_and(super::motion::Glides::under_way);
    let views = views(world);
    let mut state = world.resource_mut::<Capture>();
    // The board laid out again, or a view framed again, after the layout was written (a card
    // outgrew its room, a panel grew): written again once it settles.
    if follow && state.layout_written && (views != state.views || state.quiet == 0) {
        state.revision_at = state.frames;
        state.layout_written = false;
    }
    state.views = views;
    if revision != state.layout_revision {
        state.layout_revision = revision;
        state.revision_at = state.frames;
        state.layout_written = false;
    }
    if log != state.layout_log {
        state.layout_log = log;
        if state.layout_written && follow {
            state.revision_at = state.frames;
            state.layout_written = false;
        }
    }
    let moved = state.revision_at > 0 && gliding;
    // The picture's layout is written in the frame the picture is asked for.
    let early = if follow {
        moved
            || state.quiet < QUIET_FRAMES
            || state.frames < SETTLE_FRAMES.max(state.revision_at + SETTLE_FRAMES / 2)
    } else {
        !state.requested
    };
    if state.layout_written || early {
        return;
    }
    let drawn = super::screen_layout::collect(world);
    if let Err(e) = crate::session::write_atomically(&path, Value::Array(drawn).to_string().as_bytes()) {
        error!("cannot write the layout to {}: {e}", path.display());
    }
    world.resource_mut::<Capture>().layout_written = true;
}

/// Where each camera drawing the board looks: its place, scale and viewport.
fn views(world: &mut World) -> Vec<[f32; 7]> {
    let mut cameras = world.query_filtered::<(&Camera, &GlobalTransform, &Projection), Or<(
        With<super::camera::view::BoardCamera>,
        With<super::table::window::TableCamera>,
    )>>();
    cameras
        .iter(world)
        .map(|(camera, at, projection)| {
            let scale = match projection {
                Projection::Orthographic(o) => o.scale,
                _ => 1.0,
            };
            let (x, y, w, h) = camera.viewport.as_ref().map_or((0, 0, 0, 0), |v| {
                (v.physical_position.x, v.physical_position.y, v.physical_size.x, v.physical_size.y)
            });
            let t = at.translation();
            [t.x, t.y, scale, x as f32, y as f32, w as f32, h as f32]
        })
        .collect()
}

/// Writes the log's new lines to `--log` as it grows; the log of a table rebuilt or opened
/// anew (undo, loading, another scenario) is written whole.
fn write_log(
    options: Res<PlayOptions>,
    log: Option<Res<fray_core::log::GameLog>>,
    index: Option<Res<fray_core::prelude::TableIndex>>,
    mut written: Local<usize>,
) {
    let (Some(path), Some(log)) = (&options.log, log) else {
        return;
    };
    let len = log.entries().len();
    let rebuilt = index.is_some_and(|i| i.is_changed());
    if len == *written && !rebuilt {
        return;
    }
    let result = (|| -> std::io::Result<()> {
        use std::io::Write;
        let mut out = Vec::new();
        if rebuilt || len < *written || *written == 0 {
            log.write_jsonl(&mut out, None)?;
            std::fs::write(path, out)
        } else {
            log.write_jsonl_from(&mut out, *written, None)?;
            let mut file = std::fs::OpenOptions::new().append(true).create(true).open(path)?;
            file.write_all(&out)
        }
    })();
    match result {
        Ok(()) => *written = len,
        Err(e) => error!("cannot write the log to {}: {e}", path.display()),
    }
}

/// `--glide-picture PATH`: in the first frame a token glides after a person dropped one (a
/// refused drop sliding back, or the token going to its place), a picture of the window and
/// the layout of that frame (`PATH.json`), so a check sees the token on its way.
fn glide_picture(world: &mut World, mut state: Local<(bool, bool)>) {
    let Some(path) = world.resource::<PlayOptions>().glide_picture.clone() else { return };
    let (dropped, taken) = &mut *state;
    if *taken {
        return;
    }
    if world.resource::<super::pointer::Dragging>().0.is_some() {
        *dropped = true;
        return;
    }
    let gliding = world.get_resource::<super::motion::Glides>().is_some_and(|g| g.moving > 0);
    if !*dropped || !gliding {
        return;
    }
    *taken = true;
    let drawn = super::screen_layout::collect(world);
    let layout = path.with_extension("json");
    if let Err(e) = crate::session::write_atomically(&layout, Value::Array(drawn).to_string().as_bytes()) {
        error!("cannot write the glide's layout to {}: {e}", layout.display());
    }
    info!("saving a picture of a glide to {}", path.display());
    world.spawn(Screenshot::primary_window()).observe(save_to_disk(path));
}

/// Rewrites `--status-out` whenever what it says changed: the ruleset, clock and phase, who
/// the rules wait on (and which of them a person plays), whose turn it is, who decides in the panel, the
/// outcomes and the last one, the log's length, pictures saved, whether the layout is
/// written and the table window open.
fn write_status(world: &mut World, mut last: Local<Option<serde_json::Value>>) {
    let Some(path) = world.resource::<PlayOptions>().status_out.clone() else {
        return;
    };
    let status = status(world);
    if last.as_ref() == Some(&status) {
        return;
    }
    let text = status.to_string();
    *last = Some(status);
    if let Err(e) = crate::session::write_atomically(&path, text.as_bytes()) {
        error!("cannot write the status to {}: {e}", path.display());
    }
}

fn status(world: &World) -> serde_json::Value {
    let ids = |es: &[Entity]| -> Vec<String> {
        es.iter().map(|&e| fray_core::table::id(world, e).to_string()).collect()
    };
    let humans = super::decisions::humans_waiting(world);
    let focus = world.get_resource::<super::decisions::Focus>().and_then(|f| f.decider);
    let dragging = world
        .resource::<super::pointer::Dragging>()
        .0
        .map(|d| fray_core::table::id(world, d.combatant).to_string())
        .or_else(|| {
            let (chip, _) = world.resource::<super::pointer::ChipDrag>().0?;
            let owner = world.get::<super::board::pieces::Chip>(chip)?.owner;
            Some(format!("chip:{}", fray_core::table::id(world, owner)))
        });
    let pictures = world.resource::<Pictures>();
    let saved = pictures.paths.iter().filter(|p| p.exists()).count();
    let mut status = crate::battle::status(world);
    let window = serde_json::json!({
        "humans": ids(&humans),
        "focus": focus.map(|e| fray_core::table::id(world, e).to_string()),
        // The GM window's seat, as `--seat` names it: "gm", "table" or "player:ID".
        "seat": match super::audience::main_seat(world) {
            fray_core::seat::Seat::Gm => "gm".to_owned(),
            fray_core::seat::Seat::Table => "table".to_owned(),
            fray_core::seat::Seat::Player(id) => format!("player:{id}"),
        },
        "dragging": dragging,
        // The combatants whose tokens the mouse is over, as the board's picking sees it: a
        // scripted click presses once the pointer is seen there.
        "hovered": hovered(world),
        "plan": world.resource::<super::chips::AllocationPlan>().given(world),
        "pictures": saved,
        "glide_picture": world.resource::<PlayOptions>().glide_picture.as_ref().is_some_and(|p| p.exists()),
        "layout": world.resource::<Capture>().layout_written,
        "glides": world.get_resource::<super::motion::Glides>().map_or(0, |g| g.begun),
        "gliding": world.get_resource::<super::motion::Glides>().map_or(0, |g| g.moving),
        "table_window": world.contains_resource::<super::table::window::TableWindow>(),
        "table_roll": super::table::roll_up(world),
        "autoplay": world.resource::<super::options::Autoplay>().0.is_some(),
        "balance": super::balance::status(world),
        "edit": super::edit::status(world),
        "layout_revision": world.resource::<Capture>().layout_written.then(|| world.resource::<Capture>().layout_revision),
    });
    if let Value::Object(window) = window {
        status.extend(window);
    }
    Value::Object(status)
}

/// The combatants whose tokens the mouse pointer is over.
fn hovered(world: &World) -> Vec<String> {
    let Some(map) = world.get_resource::<bevy::picking::hover::HoverMap>() else { return Vec::new() };
    let over = map.get(&bevy::picking::pointer::PointerId::Mouse);
    over.into_iter()
        .flat_map(|hits| hits.keys())
        .filter_map(|&e| world.get::<super::board::pieces::Token>(e))
        .map(|t| fray_core::table::id(world, t.0).to_string())
        .collect()
}

#[allow(clippy::too_many_arguments)]
fn capture(
    mut commands: Commands,
    options: Res<PlayOptions>,
    mut state: ResMut<Capture>,
    mut exit: MessageWriter<AppExit>,
    autoplay: Res<super::options::Autoplay>,
    table: Option<Res<super::table::window::TableWindow>>,
    glides: Option<Res<super::motion::Glides>>,
    layout: Option<Res<super::board::changes::LayoutDirty>>,
    texts: Query<(), Changed<bevy::text::TextLayoutInfo>>,
) {
    state.frames += 1;
    // A text laid out again this frame (a caption rewritten after the layout ran) is placed
    // again only in the next: not quiet yet.
    let redone = layout.is_some_and(|l| l.0) || !texts.is_empty();
    state.quiet = if redone { 0 } else { state.quiet.saturating_add(1) };
    // The board settles once autoplay has handed over to the players.
    if autoplay.0.is_some() {
        state.frames = state.frames.min(SETTLE_FRAMES / 2);
    }
    let Some(path) = options.screenshot.clone() else {
        return;
    };
    // With `--table-window`, the table window is saved beside it as `OUT-table.png`.
    let mut pictures = vec![(None, path.clone())];
    if let Some(table) = table {
        pictures.push((Some(table.window), table_picture_path(&path)));
    }
    // The picture waits for the tokens to rest (the AI may be moving them), not forever; but
    // never in a frame whose layout was redone (a caption grown and not yet placed again).
    let resting = state.quiet >= QUIET_FRAMES
        && (glides.is_none_or(|g| !g.under_way()) || state.frames > SETTLE_FRAMES + 300);
    if !state.requested && state.frames >= SETTLE_FRAMES && resting {
        state.requested = true;
        for (window, to) in pictures.iter().cloned() {
            let screenshot = window.map_or_else(Screenshot::primary_window, Screenshot::window);
            commands.spawn(screenshot).observe(save_to_disk(to)).observe(
                |_: On<ScreenshotCaptured>, mut state: ResMut<Capture>| {
                    state.captured += 1;
                    state.saved_at = Some(state.frames);
                },
            );
        }
    }
    // Give the writer a few frames after the last capture, then leave.
    let all = state.captured as usize == pictures.len() && pictures.iter().all(|(_, p)| p.exists());
    if all && state.saved_at.is_some_and(|at| state.frames > at + 10) {
        exit.write(AppExit::Success);
    }
    if state.frames > SETTLE_FRAMES + 600 {
        error!("no screenshot after 600 frames; giving up");
        exit.write(AppExit::error());
    }
}

/// `OUT.png` becomes `OUT-table.png`, beside it.
fn table_picture_path(path: &std::path::Path) -> std::path::PathBuf {
    let stem = path.file_stem().map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    let name = match path.extension() {
        Some(ext) => format!("{stem}-table.{}", ext.to_string_lossy()),
        None => format!("{stem}-table"),
    };
    path.with_file_name(name)
}

#[cfg(test)]
mod tests {
    use super::table_picture_path;
    use std::path::Path;

    #[test]
    fn the_table_picture_lies_beside_the_window_picture() {
        assert_eq!(table_picture_path(Path::new("/tmp/out.png")), Path::new("/tmp/out-table.png"));
        assert_eq!(table_picture_path(Path::new("shot")), Path::new("shot-table"), "no extension kept");
    }
}
