//! `--screenshot OUT.png`: once the board has settled, save a picture of the whole window
//! through Bevy's screenshot API, then exit. Also the hooks scripted checks use: `--log`
//! (written when the window closes), `--exit-after`, `--layout-out`.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk};

use super::PlayOptions;

/// Frames to wait before the picture: enough for fonts, layout and the first rules pass.
const SETTLE_FRAMES: u32 = 45;

#[derive(Resource, Default)]
struct Capture {
    frames: u32,
    requested: bool,
    /// Pictures captured so far, and the frame of the last one.
    captured: u32,
    saved_at: Option<u32>,
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, picture_on_key);
    app.init_resource::<Capture>()
        .add_systems(Last, (capture, exit_after, write_layout, write_log_on_exit).chain());
}

/// F12 saves a picture of the window in the working folder, to share the board (and one of
/// the table window beside it, when it is open).
fn picture_on_key(
    keys: Res<ButtonInput<KeyCode>>,
    table: Option<Res<super::table::window::TableWindow>>,
    mut commands: Commands,
    mut taken: Local<u32>,
) {
    if keys.just_pressed(KeyCode::F12) {
        *taken += 1;
        let path = PathBuf::from(format!("fray-picture-{}.png", *taken));
        info!("saving a picture of the window to {}", path.display());
        if let Some(table) = table {
            commands.spawn(Screenshot::window(table.window)).observe(save_to_disk(table_picture_path(&path)));
        }
        commands.spawn(Screenshot::primary_window()).observe(save_to_disk(path));
    }
}

fn exit_after(time: Res<Time>, options: Res<PlayOptions>, mut exit: MessageWriter<AppExit>) {
    if options.exit_after.is_some_and(|secs| time.elapsed_secs() >= secs) {
        exit.write(AppExit::Success);
    }
}

/// Screen positions (logical pixels from the window's top left) of every card and token.
fn write_layout(
    options: Res<PlayOptions>,
    state: Res<Capture>,
    mut written: Local<bool>,
    camera: Single<(&Camera, &GlobalTransform), With<super::camera::BoardCamera>>,
    cards: Query<(&super::board::Card, &GlobalTransform)>,
    tokens: Query<(&super::board::Token, &GlobalTransform)>,
    locations: Query<&fray_core::location::Location>,
    combatants: Query<&fray_core::prelude::Combatant>,
    chips: Query<(&super::chips::Chip, &GlobalTransform, &Visibility)>,
    table: Query<(&Camera, &GlobalTransform), With<super::table::window::TableCamera>>,
) {
    let Some(path) = &options.layout_out else {
        return;
    };
    if *written || state.frames < SETTLE_FRAMES {
        return;
    }
    let (camera, at) = camera.into_inner();
    let screen = |t: &GlobalTransform| camera.world_to_viewport(at, t.translation()).ok().map(|p| [p.x, p.y]);
    let mut out = serde_json::Map::new();
    for (card, t) in &cards {
        if let (Ok(l), Some(p)) = (locations.get(card.0), screen(t)) {
            out.insert(format!("location:{}", l.id), serde_json::json!(p));
        }
    }
    for (token, t) in &tokens {
        if let (Ok(c), Some(p)) = (combatants.get(token.0), screen(t)) {
            out.insert(format!("combatant:{}", c.id), serde_json::json!(p));
        }
    }
    // With the table window open, where its picture shows each token.
    if let Ok((table, at)) = table.single() {
        for (token, t) in &tokens {
            if let (Ok(c), Ok(p)) = (combatants.get(token.0), table.world_to_viewport(at, t.translation())) {
                out.insert(format!("table:combatant:{}", c.id), serde_json::json!([p.x, p.y]));
            }
        }
    }
    for (chip, t, shown) in &chips {
        if let (Ok(c), Some(p)) = (combatants.get(chip.owner), screen(t))
            && *shown != Visibility::Hidden
            && chip.kind == fray_core::prelude::TokenKind::TacticalPoint
        {
            out.insert(format!("tp_chip:{}", c.id), serde_json::json!(p));
        }
    }
    if let Err(e) = std::fs::write(path, serde_json::Value::Object(out).to_string()) {
        error!("cannot write the layout to {}: {e}", path.display());
    }
    *written = true;
}

fn write_log_on_exit(
    options: Res<PlayOptions>,
    exits: MessageReader<AppExit>,
    log: Option<Res<fray_core::log::GameLog>>,
) {
    let (Some(path), Some(log)) = (&options.log, log) else {
        return;
    };
    if exits.is_empty() {
        return;
    }
    let mut out = Vec::new();
    if log.write_jsonl(&mut out, None).is_err() || std::fs::write(path, out).is_err() {
        error!("cannot write the log to {}", path.display());
    }
}

fn capture(
    mut commands: Commands,
    options: Res<PlayOptions>,
    mut state: ResMut<Capture>,
    mut exit: MessageWriter<AppExit>,
    autoplay: Res<super::Autoplay>,
    table: Option<Res<super::table::window::TableWindow>>,
) {
    state.frames += 1;
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
    if !state.requested && state.frames >= SETTLE_FRAMES {
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
