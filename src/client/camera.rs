//! The board camera: pan by dragging the empty field, zoom with the wheel or the panel's
//! buttons. It never moves by itself, and never while a token is dragged or egui holds the
//! pointer.

use super::board::{CardRect, MountToken, TOKEN, Token};
use bevy::camera::visibility::RenderLayers;
use bevy::camera::{CameraOutputMode, Viewport};
use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll};
use bevy::prelude::*;
use bevy::render::render_resource::BlendState;
use bevy::sprite::{SpritePickingCamera, SpritePickingMode, SpritePickingSettings};
use bevy::window::PrimaryWindow;
use bevy_egui::EguiContexts;
use bevy_egui::{EguiGlobalSettings, PrimaryEguiContext};

use super::drag::Dragging;

/// The board's camera.
#[derive(Component)]
pub struct BoardCamera;

/// A zoom request from the panels (factor, 1 = none).
#[derive(Resource, Default)]
pub struct ZoomRequest(pub f32);

/// The room the panels leave for the board, in physical pixels from each window edge.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub struct BoardArea {
    /// Left panel width.
    pub left: f32,
    /// Right panel width.
    pub right: f32,
    /// Top panel height.
    pub top: f32,
    /// Bottom panel height.
    pub bottom: f32,
}

impl BoardArea {
    /// Whether a point in the window's physical pixels lies on the board, between the panels.
    pub fn holds(&self, window: &Window, p: Vec2) -> bool {
        let (w, h) = (window.physical_width() as f32, window.physical_height() as f32);
        p.x >= self.left && p.x <= w - self.right && p.y >= self.top && p.y <= h - self.bottom
    }
}

/// The panel room, window size and board bounds the board was last framed for; once a
/// person pans or zooms, the camera never moves by itself again.
#[derive(Resource, Default)]
pub(super) struct Framed {
    key: Option<(BoardArea, Vec2, Rect)>,
    by_hand: bool,
    /// Frames left in which the board settling (cards growing, captions placed) may
    /// reframe it; later only the window and the panels do, so a move never shifts the view
    /// under the pointer.
    settling: u32,
}

/// How long a table opened (or rebuilt) settles, in frames: the board is laid out well
/// before the layout file is written (`capture`).
const SETTLE: u32 = 40;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ZoomRequest>()
        .init_resource::<BoardArea>()
        .init_resource::<Framed>()
        .add_systems(Startup, spawn_camera)
        .add_systems(Update, (fit_viewport, frame_board.after(super::board::Layout), pan_and_zoom).chain());
}

/// Keeps the camera's viewport to the room between the panels.
fn fit_viewport(
    area: Res<BoardArea>,
    window: Single<&Window, With<PrimaryWindow>>,
    mut camera: Single<&mut Camera, With<BoardCamera>>,
) {
    let (w, h) = (window.physical_width() as f32, window.physical_height() as f32);
    let size = Vec2::new(w - area.left - area.right, h - area.top - area.bottom);
    if size.x < 50.0 || size.y < 50.0 {
        camera.viewport = None;
        return;
    }
    let viewport = Viewport {
        physical_position: UVec2::new(area.left as u32, area.top as u32),
        physical_size: UVec2::new(size.x as u32, size.y as u32),
        ..default()
    };
    if camera.viewport.as_ref().is_none_or(|v| {
        v.physical_position != viewport.physical_position || v.physical_size != viewport.physical_size
    }) {
        camera.viewport = Some(viewport);
    }
}

/// Frames the whole board when the table and the panels are there, again while it settles (its
/// cards drawn closer or farther apart, a card grown; never while a token is dragged or the
/// scenario edited), and whenever the panels or the window change size.
fn frame_board(
    mut framed: ResMut<Framed>,
    area: Res<BoardArea>,
    window: Single<&Window, With<PrimaryWindow>>,
    cards: Query<&CardRect>,
    tokens: Tokens,
    camera: Single<(&mut Transform, &mut Projection), With<BoardCamera>>,
    index: Res<fray_core::prelude::TableIndex>,
    editor: Res<super::edit::Editor>,
    dragging: Res<Dragging>,
    spread: Res<super::board::Spread>,
    captions: Res<super::board::CaptionExtent>,
) {
    // Each edit puts a new table up: the view stays where the person is working. A board
    // laid out again (a card outgrew its room) settles anew too.
    if (index.is_changed() || spread.is_changed()) && !editor.on {
        framed.settling = SETTLE;
    }
    framed.settling = framed.settling.saturating_sub(1);
    if framed.by_hand || *area == BoardArea::default() || (cards.is_empty() && tokens.is_empty()) {
        return;
    }
    let bounds = board_bounds(&cards, &tokens, captions.0);
    let key = Some((*area, window.size(), bounds));
    let settled = framed.settling == 0;
    let still = editor.on || dragging.0.is_some();
    if framed.key.is_some_and(|(a, w, shown)| {
        a == *area && w == window.size() && (settled || still || shown == bounds)
    }) {
        return;
    }
    let scale = window.scale_factor();
    let room = Vec2::new(
        (window.physical_width() as f32 - area.left - area.right) / scale,
        (window.physical_height() as f32 - area.top - area.bottom) / scale,
    );
    let (mut transform, mut projection) = camera.into_inner();
    if let Projection::Orthographic(ortho) = &mut *projection {
        let size = bounds.size();
        ortho.scale = (size.x / room.x).max(size.y / room.y).max(0.3) * 1.05;
    }
    transform.translation = bounds.center().extend(transform.translation.z);
    framed.key = key;
}

/// The tokens of combatants and mounts, for framing.
pub(super) type Tokens<'w, 's> =
    Query<'w, 's, &'static Transform, (Or<(With<Token>, With<MountToken>)>, Without<BoardCamera>)>;

/// The world rectangle holding every card and token with its caption and tags (`captions`:
/// where the captions of tokens in no card stand).
pub(super) fn board_bounds(cards: &Query<&CardRect>, tokens: &Tokens, captions: Option<Rect>) -> Rect {
    let mut bounds = cards
        .iter()
        .map(|c| c.0)
        .reduce(|a, b| a.union(b))
        .unwrap_or(Rect { min: Vec2::splat(f32::MAX), max: Vec2::splat(f32::MIN) });
    for t in tokens {
        let at = t.translation.truncate();
        bounds = bounds.union(Rect::from_corners(
            at - Vec2::new(TOKEN, TOKEN * 1.3),
            at + Vec2::new(TOKEN, TOKEN * 0.8),
        ));
    }
    captions.map_or(bounds, |c| bounds.union(c))
}

/// The board's camera draws into the room between the panels; egui has its own camera over
/// the whole window, drawing nothing else.
fn spawn_camera(
    mut commands: Commands,
    mut egui: ResMut<EguiGlobalSettings>,
    offscreen: Option<Res<super::offscreen::Offscreen>>,
) {
    egui.auto_create_primary_context = false;
    // Only this camera picks: the table's screen is for looking at.
    commands.insert_resource(SpritePickingSettings {
        require_markers: true,
        picking_mode: SpritePickingMode::BoundingBox,
    });
    let board = commands
        .spawn((Camera2d, BoardCamera, SpritePickingCamera, super::table::audience::camera_layers(true)))
        .id();
    let panels = commands
        .spawn((
            PrimaryEguiContext,
            Camera2d,
            RenderLayers::none(),
            Camera {
                order: 1,
                output_mode: CameraOutputMode::Write {
                    blend_state: Some(BlendState::ALPHA_BLENDING),
                    clear_color: ClearColorConfig::None,
                },
                clear_color: ClearColorConfig::Custom(Color::NONE),
                ..default()
            },
        ))
        .id();
    if let Some(offscreen) = offscreen {
        commands.entity(board).insert(offscreen.target(true));
        commands.entity(panels).insert(offscreen.target(true));
    }
}

fn pan_and_zoom(
    mut contexts: EguiContexts,
    buttons: Res<ButtonInput<MouseButton>>,
    motion: Res<AccumulatedMouseMotion>,
    scroll: Res<AccumulatedMouseScroll>,
    dragging: Res<Dragging>,
    grab: Res<super::drag::Grab>,
    chip: Res<super::chips::ChipDrag>,
    mut request: ResMut<ZoomRequest>,
    mut framed: ResMut<Framed>,
    area: Res<BoardArea>,
    window: Single<&Window, With<PrimaryWindow>>,
    mut panning: Local<bool>,
    camera: Single<(&mut Transform, &mut Projection), With<BoardCamera>>,
) {
    let (mut transform, mut projection) = camera.into_inner();
    // The panels are drawn on egui's background layer, which egui does not count as "over
    // egui": the board's own room between the panels decides.
    let over_board = window.physical_cursor_position().is_some_and(|p| area.holds(&window, p));
    let Projection::Orthographic(ortho) = &mut *projection else {
        return;
    };
    if request.0 > 0.0 {
        ortho.scale = (ortho.scale * request.0).clamp(0.3, 4.0);
        request.0 = 0.0;
        framed.by_hand = true;
    }
    let egui_busy =
        contexts.ctx_mut().is_ok_and(|ctx| ctx.egui_wants_pointer_input() || ctx.is_pointer_over_egui());
    let free = over_board && !egui_busy && dragging.0.is_none() && !grab.0 && chip.0.is_none();
    // A pan starts with a press on the empty board and lasts until the button is released.
    if buttons.just_pressed(MouseButton::Left) {
        *panning = free;
    }
    if !buttons.pressed(MouseButton::Left) || dragging.0.is_some() || grab.0 || chip.0.is_some() {
        *panning = false;
    }
    if free && scroll.delta.y != 0.0 {
        ortho.scale = (ortho.scale * (1.0 - scroll.delta.y * 0.1)).clamp(0.3, 4.0);
        framed.by_hand = true;
    }
    if *panning && motion.delta != Vec2::ZERO {
        transform.translation.x -= motion.delta.x * ortho.scale;
        transform.translation.y += motion.delta.y * ortho.scale;
        framed.by_hand = true;
    }
}
