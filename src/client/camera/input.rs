//! The camera spawned, and moved by hand: the empty field dragged to pan, the wheel or the
//! panel's buttons to zoom.

use bevy::camera::CameraOutputMode;
use bevy::camera::visibility::RenderLayers;
use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll};
use bevy::prelude::*;
use bevy::render::render_resource::BlendState;
use bevy::sprite::{SpritePickingCamera, SpritePickingMode, SpritePickingSettings};
use bevy::window::PrimaryWindow;
use bevy_egui::{EguiContexts, EguiGlobalSettings, PrimaryEguiContext};

use super::view::{BoardArea, BoardCamera, Framed, ZoomRequest};
use crate::client::pointer::Dragging;

/// The board's camera draws into the room between the panels; egui has its own camera over
/// the whole window, drawing nothing else.
pub(super) fn spawn_camera(
    mut commands: Commands,
    mut egui: ResMut<EguiGlobalSettings>,
    offscreen: Option<Res<crate::client::offscreen::Offscreen>>,
) {
    egui.auto_create_primary_context = false;
    // Only this camera picks: the table's screen is for looking at.
    commands.insert_resource(SpritePickingSettings {
        require_markers: true,
        picking_mode: SpritePickingMode::BoundingBox,
    });
    let board = commands
        .spawn((Camera2d, BoardCamera, SpritePickingCamera, crate::client::audience::camera_layers(true)))
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

pub(super) fn pan_and_zoom(
    mut contexts: EguiContexts,
    buttons: Res<ButtonInput<MouseButton>>,
    motion: Res<AccumulatedMouseMotion>,
    scroll: Res<AccumulatedMouseScroll>,
    dragging: Res<Dragging>,
    grab: Res<crate::client::pointer::Grab>,
    chip: Res<crate::client::pointer::ChipDrag>,
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
