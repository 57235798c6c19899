//! What the GM's pointer is doing on the board, read by every part that draws or moves a
//! piece: a token or mount dragged, a piece grabbed, a chip dragged, whether the board is
//! being edited, and the message the board shows back (a refusal's reason).

use std::time::Duration;

use bevy::prelude::*;

/// The board is being edited (edit mode): a drop says where a piece starts, and the layout
/// keeps its spread.
#[derive(Resource, Default, Clone, Copy, Debug, PartialEq, Eq)]
pub struct EditMode(pub bool);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Dragging>()
        .init_resource::<BoardMessage>()
        .init_resource::<Grab>()
        .init_resource::<ChipDrag>()
        .init_resource::<EditMode>();
}

/// The token being dragged, if any.
#[derive(Resource, Default)]
pub struct Dragging(pub Option<DragState>);

/// A drag in progress.
#[derive(Clone, Copy, Debug)]
pub struct DragState {
    /// The token's entity.
    pub token: Entity,
    /// The combatant it stands for (in edit mode, a mount).
    pub combatant: Entity,
}

/// A message shown big on the board for a few seconds (a refusal's reason).
#[derive(Resource)]
pub struct BoardMessage {
    /// The text.
    pub text: String,
    /// How long it stays.
    pub timer: Timer,
}

impl Default for BoardMessage {
    fn default() -> Self {
        Self { text: String::new(), timer: Timer::new(Duration::ZERO, TimerMode::Once) }
    }
}

impl BoardMessage {
    /// Shows `text` for five seconds.
    pub fn show(&mut self, text: impl Into<String>) {
        self.text = text.into();
        self.timer = Timer::new(Duration::from_secs(5), TimerMode::Once);
    }
}

/// The pointer went down on a piece (token, mount, chip): until it is released, dragging
/// moves that piece and never the camera.
#[derive(Resource, Default)]
pub struct Grab(pub bool);

/// Where on the board a point of the screen is.
pub(crate) fn pointer_world(camera: &(&Camera, &GlobalTransform), screen: Vec2) -> Option<Vec2> {
    camera.0.viewport_to_world_2d(camera.1, screen).ok()
}

/// The chip being dragged and where it is.
#[derive(Resource, Default)]
pub struct ChipDrag(pub Option<(Entity, Vec2)>);
