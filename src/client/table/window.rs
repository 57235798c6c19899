//! The table window itself: opened and closed at run time, its camera fitted to the board (then by
//! the GM: "send view", or "follow the active combatant"), and the frame of what it shows
//! drawn on the GM's board.

use bevy::camera::RenderTarget;
use bevy::ecs::schedule::ScheduleLabel;
use bevy::prelude::*;
use bevy::window::{MonitorSelection, PrimaryWindow, WindowPosition, WindowRef, WindowResolution};
use bevy_egui::EguiSchedule;
use fray_core::fight::ruleset;
use fray_core::log::GameLog;
use fray_core::prelude::TableIndex;

use super::super::audience::{GmGizmos, camera_layers};
use super::overlay::reserved;
use super::view::TableView;
use crate::client::board::pieces::{MountToken, Token};
use crate::client::camera::view::BoardCamera;
use crate::client::camera::{BoardParts, Floor, GoalKept, Smallest, fit_scale, frame, glide, view_centre};
use crate::client::motion::{Acting, Glides, reduced};

/// The egui pass of the table window's context.
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct TableContextPass;

/// The table window, while it is open.
#[derive(Resource, Clone, Copy, Debug)]
pub struct TableWindow {
    /// The window entity.
    pub window: Entity,
}

/// The table window's camera; `framed` once it has been given a view: by the GM ("send
/// view"), or fitted to the board (`fitted`: the board's bounds, the room and the smallest
/// drawings then, fitted anew when any changes).
#[derive(Component, Default)]
pub struct TableCamera {
    framed: bool,
    fitted: Option<(Rect, Vec2, Smallest)>,
    /// The fitted view shows the board in part (the whole would be too small to read): it
    /// follows whoever acts.
    pub part: bool,
    /// The board's bounds, as of this frame.
    bounds: Rect,
    /// The overview's strip along the bottom, in points (none while the board shows whole).
    pub overview: f32,
}

impl TableCamera {
    /// The room this camera's window, `height` points tall, keeps from the board at its top
    /// (the bar) and its bottom (the lower third and the overview).
    pub fn kept(&self, settings: &crate::settings::TableSettings, height: f32) -> (f32, f32) {
        let (top, bottom) = reserved(settings, height);
        (top, bottom + self.overview)
    }

    /// The part of the board the camera (at `at`, `scale` world units a point) shows in a
    /// `window`-sized window.
    pub fn shown(
        &self,
        settings: &crate::settings::TableSettings,
        window: Vec2,
        at: Vec2,
        scale: f32,
    ) -> Rect {
        let kept = self.kept(settings, window.y);
        Rect::from_center_size(at - lift(kept, scale), room(window, kept) * scale)
    }
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (forget_closed, frame_once, find_active, follow_active, draw_frame_for_gm)
            .chain()
            .in_set(crate::client::order::Step::TableFraming),
    );
}

/// Opens the table window where the settings say.
pub(super) fn open(world: &mut World) {
    if world.contains_resource::<TableWindow>() {
        return;
    }
    let settings = world.resource::<TableView>().settings.clone();
    let position = match (settings.position, settings.monitor) {
        (Some((x, y)), _) => WindowPosition::At(IVec2::new(x, y)),
        (None, Some(n)) => WindowPosition::Centered(MonitorSelection::Index(n)),
        (None, None) => WindowPosition::Automatic,
    };
    let window = world
        .spawn(Window {
            title: "Fray — table".into(),
            resolution: WindowResolution::new(settings.size.0, settings.size.1),
            position,
            ..default()
        })
        .id();
    let clear_color = match settings.background {
        Some([r, g, b]) => ClearColorConfig::Custom(Color::srgb_u8(r, g, b)),
        None => ClearColorConfig::Default,
    };
    // Without a display (`--offscreen`) the window is never made: the camera draws into an image.
    let target = match world.get_resource::<crate::client::offscreen::Offscreen>() {
        Some(offscreen) => offscreen.target(false),
        None => RenderTarget::Window(WindowRef::Entity(window)),
    };
    world.spawn((
        Camera2d,
        TableCamera::default(),
        Camera { clear_color, ..default() },
        camera_layers(false),
        target,
        EguiSchedule::new(TableContextPass),
    ));
    world.insert_resource(TableWindow { window });
}

/// Closes the table window.
pub(super) fn close(world: &mut World) {
    let Some(table) = world.remove_resource::<TableWindow>() else {
        return;
    };
    let mut cameras = world.query_filtered::<Entity, With<TableCamera>>();
    for camera in cameras.iter(world).collect::<Vec<_>>() {
        world.despawn(camera);
    }
    if let Ok(window) = world.get_entity_mut(table.window) {
        window.despawn();
    }
}

/// When the table window was closed by its own close button: its camera goes too.
fn forget_closed(
    table: Option<Res<TableWindow>>,
    windows: Query<(), With<Window>>,
    cameras: Query<Entity, With<TableCamera>>,
    mut commands: Commands,
) {
    if table.is_some_and(|t| !windows.contains(t.window)) {
        commands.remove_resource::<TableWindow>();
        for camera in &cameras {
            commands.entity(camera).despawn();
        }
    }
}

/// The room a `window`-sized table window shows the board in, between the bar at its top
/// and the lower third (`kept`: the room each takes, from [`reserved`]).
fn room(window: Vec2, kept: (f32, f32)) -> Vec2 {
    Vec2::new(window.x, window.y - kept.0 - kept.1).max(Vec2::splat(50.0))
}

/// How far above the room's centre the camera's is, in world units at `scale`.
fn lift(kept: (f32, f32), scale: f32) -> Vec2 {
    Vec2::new(0.0, (kept.0 - kept.1) / 2.0 * scale)
}

/// The orthographic scale and centre that show `bounds` whole in a `window`-sized window
/// between the bar and the lower third (`kept`).
pub(super) fn fit(bounds: Rect, window: Vec2, kept: (f32, f32)) -> (f32, Vec2) {
    let scale = fit_scale(bounds, room(window, kept)).clamp(0.05, 20.0);
    (scale, bounds.center() + lift(kept, scale))
}

/// Frames the board as soon as there is one (whole, unless that is too small to read: then
/// in part, around whoever acts), again while it settles (cards drawn closer or farther apart,
/// a card grown), and when the window changes size, unless the GM sent a view or the table
/// follows the active combatant.
fn frame_once(
    table: Option<Res<TableWindow>>,
    windows: Query<&Window>,
    board: BoardParts,
    mut camera: Query<
        (&mut TableCamera, &mut Transform, &mut Projection, &bevy::camera::visibility::RenderLayers),
        (Without<Token>, Without<MountToken>),
    >,
    follow: Res<TableView>,
    index: Res<TableIndex>,
    spread: Res<crate::client::board::pieces::Spread>,
    captions: Res<crate::client::board::pieces::CaptionExtent>,
    acting: Res<Acting>,
    mut settling: Local<u32>,
) {
    // While a table opened (or laid out again) settles, its bounds changing reframe it (as on
    // the GM's camera); later only the window's size does.
    if index.is_changed() || spread.is_changed() {
        *settling = 40;
    }
    *settling = settling.saturating_sub(1);
    let Some(table) = table else { return };
    let (Ok(window), Ok((mut state, mut transform, mut projection, layers))) =
        (windows.get(table.window), camera.single_mut())
    else {
        return;
    };
    if board.is_empty() {
        return;
    }
    let bounds = board.bounds(captions.0);
    state.bounds = bounds;
    let kept = state.kept(&follow.settings, window.height());
    let room = room(window.size(), kept);
    let known = state.fitted.filter(|(_, size, _)| *size == room);
    let smallest = match known {
        Some((.., small)) if *settling == 0 => small,
        _ => board.smallest(layers),
    };
    let holds =
        known.is_some_and(|(shown, _, small)| *settling == 0 || (shown == bounds && small == smallest));
    if state.framed && (follow.settings.follow || state.fitted.is_none() || holds) {
        return;
    }
    let focus = acting.focus(true).unwrap_or(transform.translation.truncate());
    let most = Floor::table(window.height()).most(smallest);
    let keep = board.kept(layers);
    // Framed with no overview first: a board shown in part gets one, and the part shown
    // above it is framed again in the room left.
    let bare = reserved(&follow.settings, window.height());
    let full = self::room(window.size(), bare);
    let mut shown = frame(bounds, full, most, focus, &keep);
    state.overview = super::overview::strip(full.y, !shown.whole);
    let kept = state.kept(&follow.settings, window.height());
    let room = self::room(window.size(), kept);
    if !shown.whole {
        shown = frame(bounds, room, most, focus, &keep);
    }
    if let Projection::Orthographic(ortho) = &mut *projection {
        ortho.scale = shown.scale;
    }
    transform.translation = (shown.centre + lift(kept, shown.scale)).extend(transform.translation.z);
    state.framed = true;
    state.fitted = Some((bounds, room, smallest));
    state.part = !shown.whole;
}

/// Frames the table window anew (another scenario was opened).
pub fn reframe(world: &mut World) {
    let mut cameras = world.query::<&mut TableCamera>();
    for mut camera in cameras.iter_mut(world) {
        camera.framed = false;
        camera.fitted = None;
        camera.part = false;
        camera.overview = 0.0;
    }
}

/// Sends the GM's view of the board to the table: the table shows at least what lies
/// between the GM's panels. Stops following.
pub(super) fn send_view(world: &mut World) {
    let Some(table) = world.get_resource::<TableWindow>().copied() else { return };
    let Some(size) = world.get::<Window>(table.window).map(Window::size) else { return };
    let mut gm = world.query_filtered::<(&Camera, &Transform, &Projection), With<BoardCamera>>();
    let Ok((camera, transform, Projection::Orthographic(ortho))) = gm.single(world) else { return };
    let Some(room) = camera.logical_viewport_size() else { return };
    let shown = Rect::from_center_size(transform.translation.truncate(), room * ortho.scale);
    let (scale, centre) = fit(shown, size, reserved(&world.resource::<TableView>().settings, size.y));
    let mut tables = world.query::<(&mut TableCamera, &mut Transform, &mut Projection)>();
    if let Ok((mut state, mut transform, mut projection)) = tables.single_mut(world) {
        if let Projection::Orthographic(ortho) = &mut *projection {
            ortho.scale = scale;
        }
        transform.translation = centre.extend(transform.translation.z);
        state.framed = true;
        state.fitted = None;
        state.part = false;
        state.overview = 0.0;
        info!("the table window now shows {shown:?} of the board");
    }
    world.resource_mut::<TableView>().settings.follow = false;
}

/// The combatant the table follows: whose turn it is, else whoever acted last; never one
/// the GM hides from the table.
fn active(world: &World) -> Option<Entity> {
    let shown = |e: &Entity| !super::super::audience::hidden_from_table(world, *e);
    let acting = ruleset(world).and_then(|r| r.view().acting(world).into_iter().find(shown));
    let index = world.get_resource::<TableIndex>()?;
    acting.or_else(|| {
        let log = world.get_resource::<GameLog>()?;
        log.entries().iter().rev().filter_map(|e| index.combatant(e.actor.as_ref()?)).find(shown)
    })
}

/// Who the table follows now, worked out after the rules ran.
#[derive(Resource, Default)]
struct Followed(Option<Entity>);

fn find_active(world: &mut World) {
    if !world.resource::<TableView>().settings.follow || !world.contains_resource::<TableWindow>() {
        return;
    }
    let who = active(world);
    world.insert_resource(Followed(who));
}

/// With "follow" on, the table's camera glides to the active combatant's token; a view that
/// shows the board in part glides to whoever acts, as near as it can while it stays on the
/// board.
fn follow_active(
    view: Res<TableView>,
    time: Res<Time>,
    followed: Option<Res<Followed>>,
    acting: Res<Acting>,
    table: Option<Res<TableWindow>>,
    windows: Query<&Window>,
    tokens: Query<(&Token, &Transform), Without<TableCamera>>,
    board: BoardParts,
    mut camera: Query<
        (&TableCamera, &mut Transform, &Projection, &bevy::camera::visibility::RenderLayers),
        (Without<Token>, Without<MountToken>),
    >,
    mut glides: ResMut<Glides>,
    mut worked_out: Local<GoalKept>,
) {
    let Ok((state, mut transform, projection, layers)) = camera.single_mut() else {
        // The window closed: nothing glides.
        if glides.table_camera {
            glides.table_camera = false;
        }
        return;
    };
    let scale = match projection {
        Projection::Orthographic(o) => o.scale,
        _ => 1.0,
    };
    let focus = if view.settings.follow {
        let who = followed.and_then(|f| f.0);
        tokens.iter().find(|(t, _)| Some(t.0) == who).map(|(_, at)| at.translation.truncate())
    } else {
        acting.focus(true).filter(|_| state.part)
    };
    let window = table.and_then(|t| windows.get(t.window).ok());
    let kept = state.kept(&view.settings, window.map_or(0.0, Window::height));
    let goal = focus.zip(window).map(|(focus, window)| {
        // "Follow" centres the one who acts; a view in part keeps to the board.
        let goal = if view.settings.follow {
            focus
        } else {
            // What the GM's view keeps whole, worked out again only when something moved.
            let key = (focus, scale, board.fingerprint());
            worked_out.get(key, || {
                view_centre(state.bounds, room(window.size(), kept) * scale, focus, &board.kept(layers))
            })
        };
        goal + lift(kept, scale)
    });
    let gliding = goal.is_some_and(|goal| glide(&mut transform, goal, reduced(&view), time.delta_secs()));
    if glides.table_camera != gliding {
        glides.table_camera = gliding;
    }
}

/// Outlines on the GM's board what the table's screen shows.
fn draw_frame_for_gm(
    table: Option<Res<TableWindow>>,
    view: Res<TableView>,
    windows: Query<&Window, Without<PrimaryWindow>>,
    camera: Query<(&TableCamera, &Transform, &Projection)>,
    mut gizmos: Gizmos<GmGizmos>,
) {
    let (Some(table), false) = (table, view.mode) else { return };
    let (Ok(window), Ok((state, transform, Projection::Orthographic(ortho)))) =
        (windows.get(table.window), camera.single())
    else {
        return;
    };
    let shown = state.shown(&view.settings, window.size(), transform.translation.truncate(), ortho.scale);
    gizmos.rect_2d(Isometry2d::from_translation(shown.center()), shown.size(), Color::srgb(0.35, 0.85, 1.0));
}

#[cfg(test)]
mod tests {
    use super::fit;
    use bevy::prelude::*;

    #[test]
    fn a_fitted_view_holds_the_whole_rectangle_between_the_bar_and_the_lower_third() {
        let bounds = Rect::new(-500.0, -200.0, 700.0, 400.0);
        let window = Vec2::new(1280.0, 720.0);
        for (top, bottom) in [(92.0, 0.0), (92.0, 84.0)] {
            let (scale, centre) = fit(bounds, window, (top, bottom));
            // The window's rows top..(height - bottom), in world units around the camera.
            let room = Vec2::new(window.x, window.y - top - bottom) * scale;
            let room_centre = centre - Vec2::new(0.0, (top - bottom) / 2.0 * scale);
            let shown = Rect::from_center_size(room_centre, room);
            assert!(
                shown.contains(bounds.min) && shown.contains(bounds.max),
                "{shown:?} must hold {bounds:?}"
            );
            // Tight: one side of the rectangle touches the view's edge.
            let slack = (shown.size() - bounds.size()).min_element();
            assert!(slack.abs() < 1.0, "the view is not fitted: slack {slack}");
        }
    }
}
