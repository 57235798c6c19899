//! Motion that helps the eye: a token (or mount) the rules put somewhere glides there, most
//! of the way in a quarter second, so a move reads as a move, and a refused drop slides back
//! the same way; the token of whoever acts now is ringed in white on both screens (on the
//! GM's only for a combatant hidden from the table). "Reduce motion" (the Table screen menu,
//! kept in the settings; `FRAY_REDUCE_MOTION=1` for scripted checks) puts tokens straight in
//! place and stops the ring's pulse.

use bevy::prelude::*;
use fray_core::fight::ruleset;

use super::audience::{GmGizmos, hidden_from_main, hidden_from_table};
use super::board::pieces::{MountToken, Token};
use super::order::Step;
use super::pointer::Dragging;
use super::table::view::TableView;

/// How fast a gliding token closes the gap: most of it (95%) in a quarter second.
const GLIDE_RATE: f32 = 12.0;

/// Where the board wants a token or mount: it glides there (see the module).
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct Goal {
    /// The place, with its depth.
    pub at: Vec3,
    /// Placed at least once (the first placement is immediate).
    placed: bool,
    /// On its way.
    moving: bool,
}

/// Glides begun since the start, and those under way (for `--status-out`: a check sees a
/// refused drop slide back).
#[derive(Resource, Default, Clone, Copy, Debug)]
pub struct Glides {
    /// Begun since the start.
    pub begun: u32,
    /// Under way now.
    pub moving: u32,
    /// The GM's camera is gliding to whoever acts.
    pub board_camera: bool,
    /// The table window's camera is.
    pub table_camera: bool,
}

impl Glides {
    /// Whether anything on either screen is still moving.
    pub fn under_way(&self) -> bool {
        self.moving > 0 || self.board_camera || self.table_camera
    }
}

impl Goal {
    /// Aims at `at`, if that is not already the aim: it glides there, or with `jump` goes
    /// straight there (a table settling as it opens moves every token at once, which helps
    /// no eye).
    pub fn aim(&mut self, at: Vec3, jump: bool) {
        if self.at != at {
            self.at = at;
            if jump {
                self.placed = false;
            }
        }
    }
}

/// The tokens of those who act now: place, where the token is drawn now (the ring follows a
/// token on its way), size, hidden from the table; and, while no one acts, where those the
/// rules wait on stand (hidden from the table or not).
#[derive(Resource, Default)]
pub(super) struct Acting(Vec<(Vec2, Vec2, f32, bool)>, Vec<(Vec2, bool)>);

impl Acting {
    /// Where the first of those who act stands (while no one acts, of those the rules wait
    /// on), for a view that follows the turn: on the table's screen (`for_table`), one the
    /// table may see.
    pub(super) fn focus(&self, for_table: bool) -> Option<Vec2> {
        let acting = self.0.iter().map(|(at, _, _, hidden)| (*at, *hidden));
        acting.chain(self.1.iter().copied()).find(|(_, hidden)| !(for_table && *hidden)).map(|(at, _)| at)
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Acting>()
        .init_resource::<Glides>()
        // Tokens glide before the board is laid out, so that what the layout places by them (a
        // crowd's label) stands where they are drawn in the same frame.
        .add_systems(Update, glide.in_set(Step::Glide))
        .add_systems(Update, (find_acting, ring_acting).chain().in_set(Step::Acting));
}

/// Whether motion is off: the GM's setting, or the environment for scripted checks.
pub fn reduced(view: &TableView) -> bool {
    view.settings.reduce_motion || std::env::var_os("FRAY_REDUCE_MOTION").is_some_and(|v| v == "1")
}

fn glide(
    time: Res<Time>,
    view: Res<TableView>,
    dragging: Res<Dragging>,
    mut glides: ResMut<Glides>,
    mut moving: Query<(Entity, &mut Goal, &mut Transform), Or<(With<Token>, With<MountToken>)>>,
) {
    let off = reduced(&view);
    let step = 1.0 - (-GLIDE_RATE * time.delta_secs()).exp();
    let mut under_way = 0;
    for (drawing, mut goal, mut transform) in &mut moving {
        if dragging.0.as_ref().is_some_and(|d| d.token == drawing) {
            continue;
        }
        let now = transform.translation;
        if now == goal.at {
            continue;
        }
        let gap = goal.at - now;
        let jump = off || !goal.placed || gap.truncate().length() < 0.5;
        if !jump && !goal.moving {
            glides.begun += 1;
        }
        goal.moving = !jump;
        under_way += u32::from(!jump);
        transform.translation = if jump { goal.at } else { (now + gap * step).with_z(goal.at.z) };
        goal.placed = true;
    }
    if glides.moving != under_way {
        glides.moving = under_way;
    }
}

fn find_acting(world: &mut World) {
    let Some(rules) = ruleset(world) else { return };
    let acting = rules.view().acting(world);
    let waiting = if acting.is_empty() { rules.awaiting(world) } else { Vec::new() };
    let mut tokens = world.query::<(&Token, &Goal, &Sprite, &Transform)>();
    let found: Vec<(Vec2, Vec2, f32, bool)> = tokens
        .iter(world)
        .filter(|(t, ..)| acting.contains(&t.0) && !hidden_from_main(world, t.0))
        .map(|(t, g, s, drawn)| {
            let size = s.custom_size.map_or(0.0, |s| s.x);
            (g.at.truncate(), drawn.translation.truncate(), size, hidden_from_table(world, t.0))
        })
        .collect();
    // The first the rules wait on that the GM's window may see, and the first the table may.
    let mut place = |who: Entity| {
        let at = tokens.iter(world).find(|(t, ..)| t.0 == who).map(|(_, g, ..)| g.at.truncate())?;
        Some((at, hidden_from_table(world, who)))
    };
    let for_gm = waiting.iter().filter(|&&w| !hidden_from_main(world, w)).find_map(|&w| place(w));
    let for_table = waiting.iter().filter_map(|&w| place(w)).find(|(_, hidden)| !hidden);
    let waited: Vec<(Vec2, bool)> = for_gm.into_iter().chain(for_table).collect();
    let mut kept = world.resource_mut::<Acting>();
    kept.0 = found;
    kept.1 = waited;
}

/// The rings round an acting token, as shares of its size, and how far they pulse: close round
/// its rim, inside the rings round a target and clear of its caption.
const RINGS: [f32; 2] = [0.52, 0.55];
const PULSE: f32 = 0.02;

/// How far from its centre the outer ring round an acting token reaches, as a share of its
/// size (a view keeps it whole).
pub(super) const RING_REACH: f32 = RINGS[1] + PULSE;

/// Two white rings round each acting token, pulsing gently unless motion is reduced.
fn ring_acting(
    acting: Res<Acting>,
    time: Res<Time>,
    view: Res<TableView>,
    mut everyone: Gizmos,
    mut gm: Gizmos<GmGizmos>,
) {
    let pulse = if reduced(&view) { 0.0 } else { (time.elapsed_secs() * 4.0).sin() * PULSE };
    for &(_, at, size, hidden) in &acting.0 {
        for r in RINGS {
            let radius = size * (r + pulse);
            if hidden {
                gm.circle_2d(at, radius, Color::WHITE);
            } else {
                everyone.circle_2d(at, radius, Color::WHITE);
            }
        }
    }
}
