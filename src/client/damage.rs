//! Damage shown as it lands: every `damage` entry the rules log puts a floating number over
//! its combatant's token ("-3 wounds" in red, "blocked" in grey when armour took it all). It
//! rises and fades out, then goes; hits in a row on one token stack upward. Entries already
//! in the log when the table is opened or rebuilt (undo, resume, a replay's step back) are
//! not shown.

use std::collections::HashMap;

use bevy::prelude::*;
use bevy::text::{FontWeight, TextLayoutInfo};
use fray_core::log::{GameLog, LogEntry, LogEvent};
use fray_core::prelude::TableIndex;

use super::board::pieces::{TOKEN, Token};

/// How long a float stays up, in seconds.
const LIFE: f32 = 2.5;
/// When it starts fading, in seconds.
const FADE_FROM: f32 = 1.0;
/// How far it rises over its life, in board units.
const RISE: f32 = 40.0;
/// Where the first float of a stack starts, above the token's centre.
const START_Y: f32 = TOKEN / 2.0 + 24.0;
/// The room one float takes in a stack.
const LINE: f32 = 36.0;
/// Above the token's initials, caption and counts.
const FLOAT_Z: f32 = 20.0;
/// A float's text above its backing; newer floats lie above older ones by twice that.
const TEXT_Z: f32 = 0.01;
const FONT_SIZE: f32 = 28.0;
/// Room around the text inside its dark backing.
const PADDING: Vec2 = Vec2::new(12.0, 6.0);
const BACKING: Color = Color::srgba(0.04, 0.04, 0.05, 0.85);
const HURT: Color = Color::srgb(1.0, 0.28, 0.22);
const BLOCKED: Color = Color::srgb(0.78, 0.78, 0.78);

/// A floating damage number: the dark backing, parent of its text, child of the token.
#[derive(Component, Clone, Copy, Debug)]
pub struct DamageFloat {
    /// When it appeared (`Time::elapsed_secs`).
    pub start: f32,
    /// Its height above the token's centre when it appeared.
    pub base: f32,
}

/// The text of a float, its backing's only child.
#[derive(Component)]
struct FloatText;

/// The newest log entry already looked at, and the table it belonged to.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Mark {
    newest: Option<u64>,
    table: Option<Entity>,
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (spawn_floats, animate_floats, fit_backing).chain().in_set(super::order::Step::Damage),
    );
}

/// The entries logged since the last call. The first call, a shorter log or another table
/// (a rebuild gives every combatant a new entity) only moves the mark: nothing is fresh.
fn fresh<'a>(entries: &'a [LogEntry], table: Option<Entity>, mark: &mut Option<Mark>) -> &'a [LogEntry] {
    let now = Mark { newest: entries.last().map(|e| e.seq), table };
    let before = mark.replace(now);
    match before {
        Some(b) if b.table == table && b.newest <= now.newest => {
            &entries[entries.partition_point(|e| Some(e.seq) <= b.newest)..]
        }
        _ => &[],
    }
}

/// The words and colour shown for a damage entry.
pub(in crate::client) fn label(damage: &str, reduced: u32, taken: u32) -> (String, Color) {
    let kind = match damage {
        "normal" => "damage",
        "wounds" if taken == 1 => "wound",
        other => other,
    };
    match taken {
        0 if reduced > 0 => ("blocked".to_owned(), BLOCKED),
        0 => (format!("0 {kind}"), BLOCKED),
        n if reduced > 0 => (format!("-{n} {kind} ({reduced} stopped)"), HURT),
        n => (format!("-{n} {kind}"), HURT),
    }
}

/// Where a new float starts: one line above the highest float still up on the token.
fn stack_start(live: impl IntoIterator<Item = f32>) -> f32 {
    live.into_iter().map(|y| y + LINE).fold(START_Y, f32::max)
}

/// The height over a token at `at` at which a float `size` big, starting at `base`, overlaps
/// none of the floats `taken` (each moved above the one it would overlap). Floats rise alike,
/// so two clear of each other when the second appears stay clear.
fn clear_of(taken: &[Rect], at: Vec2, size: Vec2, mut base: f32) -> f32 {
    for _ in 0..taken.len() {
        let mine = Rect::from_center_size(at + Vec2::new(0.0, base), size);
        let Some(over) =
            taken.iter().filter(|r| !r.intersect(mine).is_empty()).map(|r| r.max.y).reduce(f32::max)
        else {
            break;
        };
        base = over + size.y / 2.0 + 2.0 - at.y;
    }
    base
}

/// A float's depth on its token: newer above older (cycling after 64), so that floats of
/// neighbouring tokens overlap whole rather than interleaving text and backing.
fn depth(seq: u64) -> f32 {
    FLOAT_Z + (seq % 64) as f32 * 2.0 * TEXT_Z
}

/// Height gained and opacity at `age` seconds.
fn motion(age: f32) -> (f32, f32) {
    let t = (age / LIFE).clamp(0.0, 1.0);
    let alpha = 1.0 - ((age - FADE_FROM) / (LIFE - FADE_FROM)).clamp(0.0, 1.0);
    (RISE * t, alpha)
}

/// A float over the token of each combatant who took damage since the last frame.
fn spawn_floats(
    time: Res<Time>,
    log: Option<Res<GameLog>>,
    index: Option<Res<TableIndex>>,
    mut mark: Local<Option<Mark>>,
    tokens: Query<(Entity, &Token, &GlobalTransform, Option<&Children>)>,
    floats: Query<(&Transform, &GlobalTransform, &Sprite), With<DamageFloat>>,
    mut commands: Commands,
) {
    let (Some(log), Some(index)) = (log, index) else { return };
    let new = fresh(log.entries(), index.order.first().copied(), &mut mark);
    if !new.iter().any(|e| matches!(e.event, LogEvent::Damage { .. })) {
        return;
    }
    let drawings: HashMap<Entity, (Entity, Vec2, Option<&Children>)> = tokens
        .iter()
        .map(|(drawing, token, at, children)| (token.0, (drawing, at.translation().truncate(), children)))
        .collect();
    // Every float up, on any token, where it is on the board: a new one keeps clear of them.
    let mut taken: Vec<Rect> = floats
        .iter()
        .map(|(_, at, sprite)| {
            Rect::from_center_size(at.translation().truncate(), sprite.custom_size.unwrap_or_default())
        })
        .collect();
    // Floats spawned this frame are not children yet: their heights are kept here.
    let mut spawned: Vec<(Entity, f32)> = Vec::new();
    for entry in new {
        let LogEvent::Damage { damage, reduced, taken: lost, .. } = &entry.event else { continue };
        let Some(combatant) = entry.actor.as_ref().and_then(|id| index.combatant(id)) else { continue };
        let Some(&(drawing, at, children)) = drawings.get(&combatant) else { continue };
        let up =
            children.into_iter().flatten().filter_map(|&c| floats.get(c).ok()).map(|(t, ..)| t.translation.y);
        let mine = spawned.iter().filter(|(d, _)| *d == drawing).map(|&(_, y)| y);
        let (words, colour) = label(damage, *reduced, *lost);
        let estimate = Vec2::new(words.chars().count() as f32 * FONT_SIZE * 0.6, FONT_SIZE) + PADDING * 2.0;
        let base = clear_of(&taken, at, estimate, stack_start(up.chain(mine)));
        taken.push(Rect::from_center_size(at + Vec2::new(0.0, base), estimate));
        spawned.push((drawing, base));
        commands
            .spawn((
                DamageFloat { start: time.elapsed_secs(), base },
                Sprite::from_color(BACKING, estimate),
                Transform::from_xyz(0.0, base, depth(entry.seq)),
                Pickable::IGNORE,
                ChildOf(drawing),
            ))
            .with_child((
                FloatText,
                Text2d::new(words),
                TextFont { font_size: FontSize::Px(FONT_SIZE), weight: FontWeight::BOLD, ..default() },
                TextColor(colour),
                Transform::from_xyz(0.0, 0.0, TEXT_Z),
                Pickable::IGNORE,
            ));
    }
}

/// Floats rise and fade; spent ones (and any whose token went away) are despawned.
fn animate_floats(
    time: Res<Time>,
    mut floats: Query<(Entity, &DamageFloat, &mut Transform, &mut Sprite, Option<&Children>, Has<ChildOf>)>,
    mut texts: Query<&mut TextColor, With<FloatText>>,
    mut commands: Commands,
) {
    for (float, state, mut transform, mut sprite, children, on_token) in &mut floats {
        let age = time.elapsed_secs() - state.start;
        if age >= LIFE || !on_token {
            commands.entity(float).try_despawn();
            continue;
        }
        let (rise, alpha) = motion(age);
        transform.translation.y = state.base + rise;
        sprite.color = BACKING.with_alpha(BACKING.alpha() * alpha);
        for &child in children.into_iter().flatten() {
            if let Ok(mut colour) = texts.get_mut(child) {
                colour.0.set_alpha(alpha);
            }
        }
    }
}

/// Sizes each backing to its text once the text is laid out.
fn fit_backing(
    texts: Query<(&ChildOf, &TextLayoutInfo), (With<FloatText>, Changed<TextLayoutInfo>)>,
    mut backings: Query<&mut Sprite, With<DamageFloat>>,
) {
    for (parent, layout) in &texts {
        if layout.size.x > 0.0
            && let Ok(mut sprite) = backings.get_mut(parent.parent())
        {
            sprite.custom_size = Some(layout.size + PADDING * 2.0);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use bevy::time::TimeUpdateStrategy;
    use fray_core::ids::CombatantId;

    use super::*;

    fn damage(log: &mut GameLog, who: &str, taken: u32) {
        let event =
            LogEvent::Damage { damage: "wounds", amount: 3, reduced: 3 - taken, taken, source: "x".into() };
        log.about(&CombatantId::from(who), event);
    }

    #[test]
    fn only_entries_logged_since_the_last_look_are_fresh() {
        let table = Some(Entity::from_raw_u32(7).expect("a valid index"));
        let mut log = GameLog::default();
        damage(&mut log, "a", 2);
        let mut mark = None;
        assert!(fresh(log.entries(), table, &mut mark).is_empty(), "the first look shows nothing old");
        damage(&mut log, "b", 1);
        damage(&mut log, "c", 0);
        let new = fresh(log.entries(), table, &mut mark);
        assert_eq!(new.iter().map(|e| e.seq).collect::<Vec<_>>(), [1, 2], "the two entries since");
        assert!(fresh(log.entries(), table, &mut mark).is_empty(), "nothing new, nothing shown");
    }

    #[test]
    fn a_rewound_or_rebuilt_log_shows_nothing() {
        let table = Some(Entity::from_raw_u32(7).expect("a valid index"));
        let mut long = GameLog::default();
        (0..5).for_each(|_| damage(&mut long, "a", 1));
        let mut mark = None;
        fresh(long.entries(), table, &mut mark);
        let mut short = GameLog::default();
        (0..3).for_each(|_| damage(&mut short, "a", 1));
        assert!(fresh(short.entries(), table, &mut mark).is_empty(), "undo: a shorter log");
        damage(&mut short, "a", 1);
        assert_eq!(fresh(short.entries(), table, &mut mark).len(), 1, "then new hits show again");
        let rebuilt = Some(Entity::from_raw_u32(9).expect("a valid index"));
        (0..4).for_each(|_| damage(&mut short, "a", 1));
        assert!(fresh(short.entries(), rebuilt, &mut mark).is_empty(), "resume: a longer log on a new table");
    }

    #[test]
    fn labels_say_what_got_through() {
        assert_eq!(label("wounds", 1, 3), ("-3 wounds (1 stopped)".to_owned(), HURT));
        assert_eq!(label("wounds", 0, 1), ("-1 wound".to_owned(), HURT));
        assert_eq!(label("normal", 0, 2), ("-2 damage".to_owned(), HURT));
        assert_eq!(label("wounds", 4, 0), ("blocked".to_owned(), BLOCKED));
        assert_eq!(label("stun", 0, 0), ("0 stun".to_owned(), BLOCKED));
    }

    #[test]
    fn a_float_keeps_clear_of_the_floats_of_tokens_nearby() {
        let size = Vec2::new(120.0, 40.0);
        // A neighbour's float just where this one would start: it goes above it.
        let theirs = Rect::from_center_size(Vec2::new(30.0, START_Y), size);
        let base = clear_of(&[theirs], Vec2::ZERO, size, START_Y);
        assert!(Rect::from_center_size(Vec2::new(0.0, base), size).intersect(theirs).is_empty(), "{base}");
        assert!(base > START_Y && base <= START_Y + size.y + 2.0, "just above: {base}");
        // Far off, nothing moves.
        let far = Rect::from_center_size(Vec2::new(500.0, START_Y), size);
        assert_eq!(clear_of(&[far], Vec2::ZERO, size, START_Y), START_Y);
    }

    #[test]
    fn hits_in_a_row_stack_upward() {
        assert_eq!(stack_start([]), START_Y, "alone: just above the token");
        assert_eq!(stack_start([START_Y]), START_Y + LINE);
        assert_eq!(stack_start([START_Y + 30.0, START_Y + LINE]), START_Y + 2.0 * LINE, "above the highest");
        assert!(depth(8) > depth(7) + TEXT_Z, "a newer float's backing covers an older float's text");
    }

    /// A table with one combatant, "a", and its token drawing.
    fn board() -> (App, Entity) {
        let mut app = App::new();
        app.add_plugins(MinimalPlugins)
            .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(100)))
            .init_resource::<GameLog>();
        plugin(&mut app);
        let combatant = app.world_mut().spawn_empty().id();
        let mut index = TableIndex::default();
        index.combatants.insert(CombatantId::from("a"), combatant);
        index.order.push(combatant);
        app.insert_resource(index);
        let token = app.world_mut().spawn((Token(combatant), Transform::default())).id();
        (app, token)
    }

    /// The floats on `token`, lowest first, with their words.
    fn floats_on(app: &mut App, token: Entity) -> Vec<(f32, String)> {
        let world = app.world_mut();
        let mut floats = world.query::<(&DamageFloat, &ChildOf, &Children)>();
        let mut texts = world.query::<&Text2d>();
        let mut out: Vec<(f32, String)> = floats
            .iter(world)
            .filter(|(_, parent, _)| parent.parent() == token)
            .map(|(f, _, children)| {
                let words = children.iter().find_map(|c| texts.get(world, c).ok()).map(|t| t.0.clone());
                (f.base, words.unwrap_or_default())
            })
            .collect();
        out.sort_by(|a, b| a.0.total_cmp(&b.0));
        out
    }

    #[test]
    fn a_hit_floats_over_its_token_then_goes() {
        let (mut app, token) = board();
        damage(&mut app.world_mut().resource_mut::<GameLog>(), "a", 2);
        app.update();
        assert!(floats_on(&mut app, token).is_empty(), "damage logged before the first frame is old");
        damage(&mut app.world_mut().resource_mut::<GameLog>(), "a", 3);
        damage(&mut app.world_mut().resource_mut::<GameLog>(), "a", 0);
        app.update();
        let shown = floats_on(&mut app, token);
        let words: Vec<&str> = shown.iter().map(|(_, w)| w.as_str()).collect();
        assert_eq!(words, ["-3 wounds", "blocked"], "both hits, in order, the later one above");
        assert!(shown[1].0 - shown[0].0 >= LINE, "stacked, not overlapping: {shown:?}");
        for _ in 0..30 {
            app.update();
        }
        assert!(floats_on(&mut app, token).is_empty(), "gone after {LIFE} s");
    }

    #[test]
    fn a_rebuilt_table_does_not_replay_its_damage() {
        let (mut app, token) = board();
        app.update();
        // A resumed fight: a new table, its log longer than the one before.
        let mut log = GameLog::default();
        (0..4).for_each(|_| damage(&mut log, "a", 1));
        app.insert_resource(log);
        let combatant = app.world_mut().spawn_empty().id();
        app.world_mut().resource_mut::<TableIndex>().order = vec![combatant];
        app.world_mut().resource_mut::<TableIndex>().combatants.insert(CombatantId::from("a"), combatant);
        app.world_mut().entity_mut(token).insert(Token(combatant));
        app.update();
        assert!(floats_on(&mut app, token).is_empty(), "the resumed fight's old hits are not shown");
    }

    #[test]
    fn floats_rise_then_fade_out() {
        assert_eq!(motion(0.0), (0.0, 1.0));
        assert_eq!(motion(FADE_FROM).1, 1.0, "fully shown until the fade starts");
        let (rise, alpha) = motion(LIFE);
        assert_eq!((rise, alpha), (RISE, 0.0), "gone at the end of its life");
        assert!(motion(LIFE * 0.8).1 < motion(LIFE * 0.6).1, "fading");
    }
}
