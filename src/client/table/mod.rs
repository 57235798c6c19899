//! The table's screen, for the players' monitor or streaming software: the board and public
//! information only, in large type. Either a second window (`--table-window`, or "Table
//! window" in the GM's top bar), or the GM's own window in table mode (F10), which hides
//! every GM panel. Its settings persist between runs (`crate::settings`).
//!
//! - `edge`: a view in part's edge: texts it would cut left out, cards' names pinned.
//! - `overlay`: the large-type bar and the last roll.
//! - `overview`: the whole board, small, below a board shown in part.
//! - `secrets`: the sealed choices the GM window's seat may see (bids, declarations), tagged.
//! - `window`: the second window, its camera, "send view" and "follow".

mod edge;
mod overlay;
mod overview;
mod secrets;
pub mod view;
pub mod window;

pub use edge::PINNED_LAYER;
pub use overlay::{BAR_HEIGHT, reserved};
pub use overview::{Marks as OverviewMarks, strip as overview_strip};

use bevy::camera::visibility::RenderLayers;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::egui;
use bevy_egui::{EguiContext, EguiPrimaryContextPass};
use fray_core::ids::CombatantId;

use self::overlay::LastRoll;
use self::view::TableView;
use self::window::{TableCamera, TableContextPass, TableWindow};
use super::audience::{self, GmHidden, camera_layers};
use super::camera::view::BoardCamera;
use super::options::PlayOptions;
use super::order::{Opening, Step, Ui};
use crate::settings;

/// How often changed settings are written, at most (seconds).
const SAVE_EVERY_SECS: f32 = 1.0;
/// How long table mode shows the way back (seconds).
const MODE_HINT_SECS: f32 = 6.0;

/// What the GM asked of the table's screen.
#[derive(Clone, Debug, PartialEq)]
pub enum TableAsk {
    /// Open (true) or close the table window.
    Window(bool),
    /// Follow the active combatant, or not.
    Follow(bool),
    /// Reduce motion on the board (both screens), or not.
    ReduceMotion(bool),
    /// The GM's window shows the whole board however small (else legibly, in part).
    WholeBoard(bool),
    /// The lower third (last roll and damage) on the table's screen, or not.
    LowerThird(bool),
    /// The colours of the panels and the board.
    Theme(crate::settings::Theme),
    /// Show the table what the GM's board shows now.
    SendView,
    /// Enter or leave table mode.
    Mode(bool),
    /// Hide (true) a combatant from the table, or show it again.
    Hide(CombatantId, bool),
}

pub(super) fn plugin(app: &mut App) {
    let options = app.world().resource::<PlayOptions>().clone();
    let dir = options.data_dir.clone().or_else(settings::config_dir);
    let (mut loaded, problem) = dir.as_deref().map(settings::load).unwrap_or_default();
    if let Some(problem) = &problem {
        warn!("table settings: {problem}");
    }
    let written = loaded.clone();
    // The command line decides over the file, and what it decided is kept.
    loaded.open |= options.table_window;
    loaded.lower_third |= options.lower_third;
    if let Some(colour) = options.chroma {
        loaded.background = Some(colour);
    }
    if let Some(n) = options.table_monitor {
        loaded.monitor = Some(n);
        loaded.position = None;
    }
    if let Some(size) = options.table_size {
        loaded.size = size;
    }
    // Scripted runs (screenshots, timings) do not change what a person set.
    let keep = !(options.screenshot.is_some() || options.stats.is_some());
    app.insert_resource(TableView {
        settings: loaded,
        mode: options.table_mode,
        dir: dir.filter(|_| keep),
        written,
        problem,
        wanted_open: None,
    })
    .init_resource::<LastRoll>()
    .init_resource::<overview::Marks>()
    .insert_resource(GmHidden(options.hide.iter().map(|id| CombatantId::from(id.as_str())).collect()))
    .add_systems(Startup, open_at_start.in_set(Opening::TableWindow))
    .add_systems(
        Update,
        (open_or_close, table_mode_key, gm_camera_layers, remember_window, write_settings)
            .chain()
            .in_set(Step::TableScreen),
    )
    .add_systems(TableContextPass, draw_table_overlay)
    .add_systems(EguiPrimaryContextPass, draw_overlay_in_table_mode.in_set(Ui::TableOverlay));
    edge::plugin(app);
    secrets::plugin(app);
    window::plugin(app);
}

fn open_at_start(world: &mut World) {
    if let Some(problem) = world.resource::<TableView>().problem.clone() {
        world
            .resource_mut::<crate::client::pointer::BoardMessage>()
            .show(format!("Table settings: {problem}"));
    }
    if world.resource::<TableView>().settings.open {
        window::open(world);
    }
}

/// Opens or closes the table window as the GM asked.
fn open_or_close(world: &mut World) {
    if world.resource::<TableView>().wanted_open.is_none() {
        return;
    }
    match world.resource_mut::<TableView>().wanted_open.take() {
        Some(true) => window::open(world),
        Some(false) => window::close(world),
        None => {}
    }
}

/// Carries out what the GM asked.
pub fn apply(world: &mut World, ask: TableAsk) {
    match ask {
        // Not now: the GM's panels ask from inside egui's pass over the contexts, and the
        // table window's camera is one of them.
        TableAsk::Window(open) => world.resource_mut::<TableView>().wanted_open = Some(open),
        TableAsk::Follow(on) => world.resource_mut::<TableView>().settings.follow = on,
        TableAsk::ReduceMotion(on) => world.resource_mut::<TableView>().settings.reduce_motion = on,
        TableAsk::WholeBoard(on) => {
            world.resource_mut::<TableView>().settings.whole_board = on;
            *world.resource_mut::<super::camera::view::Framed>() = Default::default();
        }
        TableAsk::LowerThird(on) => world.resource_mut::<TableView>().settings.lower_third = on,
        TableAsk::Theme(theme) => world.resource_mut::<TableView>().settings.theme = theme,
        TableAsk::SendView => window::send_view(world),
        TableAsk::Mode(on) => world.resource_mut::<TableView>().mode = on,
        TableAsk::Hide(id, true) => {
            world.resource_mut::<GmHidden>().0.insert(id);
        }
        TableAsk::Hide(id, false) => {
            world.resource_mut::<GmHidden>().0.remove(&id);
        }
    }
}

/// The table controls in the GM's top bar.
pub fn menu(ui: &mut egui::Ui, world: &World, asks: &mut Vec<TableAsk>) {
    let view = world.resource::<TableView>();
    let open = world.contains_resource::<TableWindow>();
    if !ui.ctx().egui_wants_keyboard_input() && ui.input(|i| i.key_pressed(egui::Key::F9)) {
        asks.push(TableAsk::Window(!open));
    }
    ui.menu_button("Table screen", |ui| {
        let mut want = open;
        if ui.checkbox(&mut want, "Table window (players' screen) (F9)").changed() {
            asks.push(TableAsk::Window(want));
        }
        let mut follow = view.settings.follow;
        if ui.add_enabled(open, egui::Checkbox::new(&mut follow, "Follow the active combatant")).changed() {
            asks.push(TableAsk::Follow(follow));
        }
        if ui
            .add_enabled(open, egui::Button::new("Send this view to the table"))
            .on_hover_text(
                "The table window shows what the board shows here; the blue frame on the board is its view",
            )
            .clicked()
        {
            asks.push(TableAsk::SendView);
        }
        let mut still = view.settings.reduce_motion;
        if ui
            .checkbox(&mut still, "Reduce motion")
            .on_hover_text(
                "Tokens jump to their places instead of gliding; the active token's ring does not pulse",
            )
            .changed()
        {
            asks.push(TableAsk::ReduceMotion(still));
        }
        let mut lower = view.settings.lower_third;
        if ui
            .checkbox(&mut lower, "Lower third")
            .on_hover_text(
                "A strip along the bottom of the table's screen keeps the last roll and damage in view",
            )
            .changed()
        {
            asks.push(TableAsk::LowerThird(lower));
        }
        ui.horizontal(|ui| {
            ui.label("Theme:");
            for (theme, name) in crate::settings::Theme::ALL {
                if ui.radio(view.settings.theme == theme, name).clicked() {
                    asks.push(TableAsk::Theme(theme));
                }
            }
        });
        if ui
            .button("Table mode in this window (F10)")
            .on_hover_text("Hides every GM panel; F10 brings them back")
            .clicked()
        {
            asks.push(TableAsk::Mode(true));
        }
        if let Some(problem) = &view.problem {
            ui.label(egui::RichText::new(problem).color(egui::Color32::LIGHT_RED));
        }
    });
}

/// F10 enters or leaves table mode.
fn table_mode_key(keys: Res<ButtonInput<KeyCode>>, mut view: ResMut<TableView>) {
    if keys.just_pressed(KeyCode::F10) {
        view.mode = !view.mode;
    }
}

/// In table mode the GM's camera draws what the table's would (and its background).
fn gm_camera_layers(
    view: Res<TableView>,
    mut camera: Query<(&mut RenderLayers, &mut Camera), With<BoardCamera>>,
) {
    if !view.is_changed() {
        return;
    }
    let wanted = camera_layers(!view.mode);
    for (mut layers, mut camera) in &mut camera {
        if *layers != wanted {
            *layers = wanted.clone();
        }
        let clear = match (view.mode, view.settings.background) {
            (true, Some([r, g, b])) => ClearColorConfig::Custom(Color::srgb_u8(r, g, b)),
            _ => ClearColorConfig::Default,
        };
        camera.clear_color = clear;
    }
}

/// Keeps the table window's place, size and state in the settings.
fn remember_window(
    mut view: ResMut<TableView>,
    table: Option<Res<TableWindow>>,
    windows: Query<Ref<Window>, Without<PrimaryWindow>>,
) {
    let open = table.is_some();
    let window = table.as_ref().and_then(|t| windows.get(t.window).ok());
    // Only an opened, closed, moved or resized window changes anything.
    if open == view.settings.open && !window.as_ref().is_some_and(|w| w.is_changed()) {
        return;
    }
    let mut settings = view.settings.clone();
    settings.open = open;
    if let Some(window) = window {
        settings.size = (window.width().round() as u32, window.height().round() as u32);
        if let WindowPosition::At(p) = window.position {
            settings.position = Some((p.x, p.y));
        }
    }
    if settings != view.settings {
        view.settings = settings;
    }
}

/// Writes the settings when they changed, at most once a second.
fn write_settings(time: Res<Time>, mut view: ResMut<TableView>, mut since: Local<f32>) {
    *since += time.delta_secs();
    if *since < SAVE_EVERY_SECS || view.settings == view.written {
        return;
    }
    *since = 0.0;
    let Some(dir) = view.dir.clone() else { return };
    let settings = view.settings.clone();
    match settings::save(&dir, &settings) {
        Ok(()) => view.written = settings,
        Err(e) => {
            warn!("table settings not kept: {e}");
            view.written = settings;
            view.problem = Some(e);
        }
    }
}

/// Every text the table's screen writes for this world, as a 1280x720 table window would
/// (drawn off screen), secret choices revealed a while ago: what a check reads to prove a
/// secret stays off the table.
pub fn screen_texts(world: &World) -> Vec<String> {
    screen_texts_at(world, egui::vec2(1280.0, 720.0)).into_iter().map(|(text, _)| text).collect()
}

/// The same, in the moment the newest secret choices are revealed.
pub fn screen_texts_as_revealed(world: &World) -> Vec<String> {
    let size = egui::vec2(1280.0, 720.0);
    texts_drawn(world, size, LastRoll::default()).into_iter().map(|(text, _)| text).collect()
}

/// Every text the table's screen writes for this world on a screen `size` points large (drawn
/// off screen), with the largest font size in it: what a test reads for the table's floor.
pub fn screen_texts_at(world: &World, size: egui::Vec2) -> Vec<(String, f32)> {
    texts_drawn(world, size, LastRoll::revealed_long_ago(world))
}

/// The texts drawn off screen, the last roll and reveal as `last` saw them.
fn texts_drawn(world: &World, size: egui::Vec2, mut last: LastRoll) -> Vec<(String, f32)> {
    let ctx = egui::Context::default();
    let input =
        egui::RawInput { screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, size)), ..default() };
    // The first frame sizes the panels (and leaves out what falls outside them): use the second.
    let mut output = ctx
        .run_ui(input.clone(), |ui| overlay::draw(ui.ctx(), world, &mut last, &overlay::Beneath::default()));
    output.textures_delta.clear();
    let mut output =
        ctx.run_ui(input, |ui| overlay::draw(ui.ctx(), world, &mut last, &overlay::Beneath::default()));
    // No renderer takes the font texture: let it go.
    output.textures_delta.clear();
    let mut texts = Vec::new();
    for clipped in &output.shapes {
        each_text(&clipped.shape, &mut |text| {
            let font = text.galley.job.sections.iter().map(|s| s.format.font_id.size).fold(0.0, f32::max);
            texts.push((text.galley.text().to_owned(), font));
        });
    }
    texts
}

/// Each text in an egui shape (its nested shapes' too).
pub(in crate::client) fn each_text(shape: &egui::Shape, f: &mut dyn FnMut(&egui::epaint::TextShape)) {
    match shape {
        egui::Shape::Text(text) => f(text),
        egui::Shape::Vec(shapes) => shapes.iter().for_each(|s| each_text(s, f)),
        _ => {}
    }
}

/// The bar and the roll in the table window.
pub(in crate::client) fn draw_table_overlay(world: &mut World) {
    let mut contexts = world.query_filtered::<&mut EguiContext, With<TableCamera>>();
    let Ok(mut context) = contexts.single_mut(world) else { return };
    let ctx = context.get_mut().clone();
    let mut cameras = world.query::<(&TableCamera, &Transform, &Projection)>();
    let strip = cameras.single(world).map_or(0.0, |(state, ..)| state.overview);
    let mut beneath =
        overlay::Beneath { below: strip, ..covered::<TableCamera>(world, ctx.pixels_per_point()) };
    pin_names::<TableCamera>(world, &ctx, &mut beneath, true);
    world.resource_scope(|world, mut last: Mut<LastRoll>| overlay::draw(&ctx, world, &mut last, &beneath));
    // The whole board, small, below a part shown legibly.
    let Ok((state, at, Projection::Orthographic(ortho))) = cameras.single(world) else { return };
    let settings = world.resource::<TableView>().settings.clone();
    let size = ctx.viewport_rect().size();
    let shown = state.shown(&settings, Vec2::new(size.x, size.y), at.translation.truncate(), ortho.scale);
    let marks = draw_overview::<TableCamera>(world, &ctx, shown, (strip, reserved(&settings, size.y).1));
    world.resource_mut::<overview::Marks>().table = overview::layout("table", &marks, ctx.zoom_factor());
}

/// Draws the overview of the board a camera marked `M` shows in part (`shown` of it) into a
/// strip `strip.0` points tall above the lower third (`strip.1` points), when there is one;
/// where its marks stand.
fn draw_overview<M: Component>(
    world: &mut World,
    ctx: &egui::Context,
    shown: Rect,
    (height, below): (f32, f32),
) -> Vec<(String, egui::Rect)> {
    if height <= 0.0 {
        return Vec::new();
    }
    let screen = ctx.viewport_rect();
    let strip = egui::Rect::from_min_max(
        egui::pos2(screen.min.x, screen.max.y - below - height),
        egui::pos2(screen.max.x, screen.max.y - below),
    );
    overview::Board::read::<M>(world, shown).draw(ctx, strip)
}

/// Where a world rectangle the camera marked `M` draws lies on its window, in egui points
/// (`ppp` pixels each), and the camera's layers.
fn on_screen<M: Component>(
    world: &mut World,
    ppp: f32,
) -> Option<(impl Fn(Rect) -> Option<egui::Rect> + use<M>, RenderLayers)> {
    let mut cameras = world.query_filtered::<(&Camera, &GlobalTransform, &RenderLayers), With<M>>();
    let (camera, at, layers) = cameras.single(world).ok()?;
    let (camera, at) = (camera.clone(), *at);
    let scale = camera.target_scaling_factor().unwrap_or(1.0);
    let to_screen = move |r: Rect| {
        let a = camera.world_to_viewport(&at, r.min.extend(0.0)).ok()?;
        let b = camera.world_to_viewport(&at, r.max.extend(0.0)).ok()?;
        // Viewport points count from the window's corner already (a viewport's offset included).
        let point = |p: Vec2| p * scale / ppp;
        let (a, b) = (point(a), point(b));
        Some(egui::Rect::from_two_pos(egui::pos2(a.x, a.y), egui::pos2(b.x, b.y)))
    };
    Some((to_screen, layers.clone()))
}

/// The names of the cards the table's view in part leaves out, pinned on the screen of the
/// camera marked `M` (the table window's: `window`) clear of `beneath`, which then keeps
/// them clear too (the roll's box).
fn pin_names<M: Component>(
    world: &mut World,
    ctx: &egui::Context,
    beneath: &mut overlay::Beneath,
    window: bool,
) {
    // The pins are worked out for one screen: the table window while it is open.
    if world.resource::<edge::Pinned>().window != window {
        return;
    }
    let Some((to_screen, _)) = on_screen::<M>(world, ctx.pixels_per_point()) else { return };
    let floor = super::camera::Floor::table(ctx.viewport_rect().height()).text;
    let placed = edge::draw(ctx, world.resource::<edge::Pinned>(), &to_screen, beneath, floor);
    beneath.names.extend(placed);
}

/// Where each token the camera marked `M` draws lies on its window, and each card's name, in
/// egui points (`ppp` pixels each): what the roll keeps clear of (tokens first).
fn covered<M: Component>(world: &mut World, ppp: f32) -> overlay::Beneath {
    let Some((on_screen, layers)) = on_screen::<M>(world, ppp) else { return overlay::Beneath::default() };
    let seen =
        |shown: &InheritedVisibility, on: Option<&RenderLayers>| shown.get() && audience::sees(&layers, on);
    let mut tokens = world.query_filtered::<
        (&GlobalTransform, &Sprite, &InheritedVisibility, Option<&RenderLayers>),
        With<super::board::pieces::Token>,
    >();
    let tokens = tokens
        .iter(world)
        .filter(|(_, _, shown, on)| seen(shown, *on))
        .filter_map(|(t, sprite, ..)| {
            let size = sprite.custom_size.unwrap_or(Vec2::splat(super::board::pieces::TOKEN));
            on_screen(Rect::from_center_size(t.translation().truncate(), size))
        })
        .collect();
    let mut cards =
        world.query::<(&super::board::pieces::CardRect, &InheritedVisibility, Option<&RenderLayers>)>();
    let mut names: Vec<egui::Rect> = cards
        .iter(world)
        .filter(|(_, shown, on)| seen(shown, *on))
        .filter_map(|(card, ..)| {
            let r = card.0;
            on_screen(Rect::new(r.min.x, r.max.y - super::board::pieces::CARD_HEADER, r.max.x, r.max.y))
        })
        .collect();
    // Every word on the board: captions, cards' lines, scenery's names, the ruler's.
    let mut texts = world.query_filtered::<(
        &GlobalTransform,
        &bevy::text::TextLayoutInfo,
        Option<&bevy::text::TextBounds>,
        Option<&bevy::text::TextLayout>,
        Option<&bevy::sprite::Anchor>,
        &InheritedVisibility,
        Option<&RenderLayers>,
    ), With<Text2d>>();
    names.extend(texts.iter(world).filter(|(.., shown, on)| seen(shown, *on)).filter_map(
        |(at, layout, bounds, justify, anchor, ..)| {
            let centred = justify.is_some_and(|j| j.justify == bevy::text::Justify::Center);
            let rect = super::board::pieces::text_rect(at, anchor, layout.size, bounds, centred);
            (layout.size != Vec2::ZERO).then(|| on_screen(rect)).flatten()
        },
    ));
    overlay::Beneath { tokens, names, below: 0.0 }
}

/// The bar and the roll in the GM's window, in table mode (the panels are not drawn then).
fn draw_overlay_in_table_mode(world: &mut World, mut entered: Local<Option<f32>>) {
    if !world.resource::<TableView>().mode {
        *entered = None;
        world.resource_mut::<overview::Marks>().gm.clear();
        return;
    }
    let now = world.resource::<Time>().elapsed_secs();
    let since = *entered.get_or_insert(now);
    let mut contexts = world.query_filtered::<&mut EguiContext, With<bevy_egui::PrimaryEguiContext>>();
    let Ok(mut context) = contexts.single_mut(world) else { return };
    let ctx = context.get_mut().clone();
    // The whole board, small, below a part shown legibly (the panels left room for it).
    let (top, below) = reserved(&world.resource::<TableView>().settings, ctx.viewport_rect().height());
    let part = world.resource::<super::camera::view::Framed>().part;
    let strip = overview::strip(ctx.viewport_rect().height() - top - below, part);
    let mut beneath =
        overlay::Beneath { below: strip, ..covered::<BoardCamera>(world, ctx.pixels_per_point()) };
    pin_names::<BoardCamera>(world, &ctx, &mut beneath, false);
    world.resource_scope(|world, mut last: Mut<LastRoll>| overlay::draw(&ctx, world, &mut last, &beneath));
    let mut cameras = world.query_filtered::<(&Camera, &Transform, &Projection), With<BoardCamera>>();
    let shown = match cameras.single(world) {
        Ok((camera, at, Projection::Orthographic(ortho))) => camera
            .logical_viewport_size()
            .map(|room| Rect::from_center_size(at.translation.truncate(), room * ortho.scale)),
        _ => None,
    };
    let marks = match shown {
        Some(shown) => draw_overview::<BoardCamera>(world, &ctx, shown, (strip, below)),
        None => Vec::new(),
    };
    world.resource_mut::<overview::Marks>().gm = overview::layout("table", &marks, ctx.zoom_factor());
    // A reminder of the way back, for the first few seconds only (the screen may be streamed).
    if now - since < MODE_HINT_SECS {
        // Above the lower third, when it is shown.
        let (_, below) = reserved(&world.resource::<TableView>().settings, ctx.viewport_rect().height());
        let at = [-12.0, -12.0 - below];
        egui::Area::new("table_mode_hint".into()).anchor(egui::Align2::RIGHT_BOTTOM, at).show(&ctx, |ui| {
            ui.label(egui::RichText::new("Table mode: F10 brings the GM panels back").size(18.0));
        });
    }
}

/// Whether the table's screen shows the last dice roll now (it covers part of the board for a
/// few seconds): scripted checks wait for it to go before taking a picture to compare.
pub(super) fn roll_up(world: &World) -> bool {
    let now = world.get_resource::<Time>().map_or(0.0, Time::elapsed_secs);
    world.get_resource::<LastRoll>().is_some_and(|last| last.up(now))
}
