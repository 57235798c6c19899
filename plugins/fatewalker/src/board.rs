//! What a board shows of FateWalker, in the core's board model: the decisions offered with
//! their labels, captions, sheets, the tick timeline, secret declarations, covers and
//! lights. Read-only: nothing here changes the table.

use bevy_ecs::prelude::*;
use fray_core::board::{
    Choice, OrderEntry, OrderMark, OrderView, Scenery, SceneryKind, SecretView, SheetRow, TokenView, capital,
    lower_first,
};
use fray_core::ids::CombatantId;
use fray_core::prelude::{FieldPosition, Mount, TableIndex};

use crate::data::{Band, MoveMode};
use crate::intent::{Action, FateWalkerIntent, Reaction};
use crate::phase::{Choice as Declared, FateWalkerPhase, TickState, current};
use crate::sheet::{Arms, Skills, Worn};
use crate::view;

/// The decisions offered to `e` now, each with the rules' verdict: answers to the question
/// first, then attacks on enemies, movement, the rest; attacks on allies folded away.
/// Movement is offered towards named places (covers, vehicles, people); anywhere else is a
/// drag on the board. A place named twice (someone standing in a cover) is offered once.
pub fn choices(world: &World, e: Entity) -> Vec<Choice<FateWalkerIntent>> {
    let mut seen = std::collections::HashSet::new();
    let mut out: Vec<(u8, Choice<FateWalkerIntent>)> = crate::legal::options(world, e)
        .into_iter()
        .filter(|(i, _)| match action_of(i) {
            Some(Action::BeginMoving { to, .. }) => named_place(world, *to).is_some(),
            _ => true,
        })
        .filter(|(i, _)| seen.insert(format!("{i:?}")))
        .map(|(intent, verdict)| {
            let rank = rank(world, e, &intent);
            let mut choice = Choice::new(intent.clone(), label(world, &intent), verdict);
            choice.target = action_of(&intent).and_then(Action::target).cloned();
            choice.folded = rank == ON_ALLIES;
            (rank, choice)
        })
        .collect();
    out.sort_by_key(|(rank, _)| *rank);
    out.into_iter().map(|(_, c)| c).collect()
}

/// The rank of attacks on one's own side: listed apart, folded.
const ON_ALLIES: u8 = 5;

fn rank(world: &World, e: Entity, intent: &FateWalkerIntent) -> u8 {
    match action_of(intent) {
        None => 0,
        Some(Action::Attack { target, .. }) => {
            let enemy =
                world.resource::<TableIndex>().combatant(target).is_some_and(|t| view::enemies(world, e, t));
            if enemy { 1 } else { ON_ALLIES }
        }
        Some(Action::BeginMoving { .. }) => 2,
        Some(_) => 3,
    }
}

/// The action an intent carries, if any.
pub fn action_of(intent: &FateWalkerIntent) -> Option<&Action> {
    match intent {
        FateWalkerIntent::Act { action }
        | FateWalkerIntent::Preempt { action }
        | FateWalkerIntent::Counter { action } => Some(action),
        _ => None,
    }
}

fn who(world: &World, id: &CombatantId) -> String {
    world.resource::<TableIndex>().combatant(id).map_or_else(|| id.to_string(), |e| view::name(world, e))
}

/// The named place a point is: a cover, a vehicle or a combatant standing there.
pub(crate) fn named_place(world: &World, to: (f32, f32)) -> Option<String> {
    let near = |p: (f32, f32)| (p.0 - to.0).abs() < 0.01 && (p.1 - to.1).abs() < 0.01;
    if let Some(c) = view::catalogue(world).0.covers.iter().find(|c| near(c.position)) {
        return Some(c.name.clone());
    }
    for (_, &m) in world.resource::<TableIndex>().mounts.iter() {
        if let Some(p) = world.get::<FieldPosition>(m)
            && near((p.0[0], p.0[1]))
            && let Some(mount) = world.get::<Mount>(m)
        {
            return Some(mount.name.clone());
        }
    }
    view::combatants(world).into_iter().find_map(|e| {
        let p = view::position(world, e);
        near((p[0], p[1])).then(|| view::name(world, e))
    })
}

fn place_name(world: &World, to: (f32, f32)) -> String {
    named_place(world, to).unwrap_or_else(|| format!("({:.0} m, {:.0} m)", to.0, to.1))
}

/// An action in words.
pub fn action_label(world: &World, action: &Action) -> String {
    match action {
        Action::Attack { target, through_cover } => {
            format!("Attack {}{}", who(world, target), if *through_cover { " through cover" } else { "" })
        }
        Action::ReadyWeapon { weapon } => {
            let name =
                view::catalogue(world).weapon(weapon).map_or_else(|| weapon.clone(), |w| w.name.clone());
            format!("Ready the {}", name.to_lowercase())
        }
        Action::BeginMoving { mode, to } => {
            format!("{} to {}", capital(mode_verb(*mode)), place_name(world, *to))
        }
        Action::Mount { mount } => {
            let index = world.resource::<TableIndex>();
            let name = index.mounts.get(mount).and_then(|&m| world.get::<Mount>(m));
            format!("Get in the {}", name.map_or_else(|| mount.to_string(), |m| m.name.to_lowercase()))
        }
        Action::Wait { ticks } => format!("Wait {ticks} tick{}", if *ticks == 1 { "" } else { "s" }),
        other => capital(other.title()),
    }
}

/// A readable label for an intent.
pub fn label(world: &World, intent: &FateWalkerIntent) -> String {
    match intent {
        FateWalkerIntent::Act { action } => action_label(world, action),
        FateWalkerIntent::Preempt { action } => {
            format!("Preempt: {}", lower_first(&action_label(world, action)))
        }
        FateWalkerIntent::Counter { action } => {
            format!("React: {}", lower_first(&action_label(world, action)))
        }
        FateWalkerIntent::React { reaction: Reaction::Dodge } => "Dodge".to_owned(),
        FateWalkerIntent::React { reaction: Reaction::Parry } => "Parry".to_owned(),
        FateWalkerIntent::Hold => "Hold the action".to_owned(),
        FateWalkerIntent::KeepHolding => "Keep holding".to_owned(),
        FateWalkerIntent::Decline => "Let it be".to_owned(),
        FateWalkerIntent::ContinueMoving => "Keep moving".to_owned(),
        FateWalkerIntent::ChangeMovement { mode } => format!("Change to {}", mode_word(*mode)),
        FateWalkerIntent::StopMoving => "Stop moving".to_owned(),
    }
}

/// A movement mode as a word ("walking").
pub fn mode_word(mode: MoveMode) -> &'static str {
    match mode {
        MoveMode::Walk => "walking",
        MoveMode::Run => "running",
        MoveMode::Climb => "climbing",
        MoveMode::Crawl => "crawling",
        MoveMode::Ride => "riding",
        MoveMode::Swim => "swimming",
    }
}

/// A movement mode as a verb ("walk").
pub fn mode_verb(mode: MoveMode) -> &'static str {
    match mode {
        MoveMode::Walk => "walk",
        MoveMode::Run => "run",
        MoveMode::Climb => "climb",
        MoveMode::Crawl => "crawl",
        MoveMode::Ride => "drive",
        MoveMode::Swim => "swim",
    }
}

/// A range band as a word.
pub fn band_word(band: Band) -> &'static str {
    match band {
        Band::Short => "short",
        Band::Medium => "medium",
        Band::Long => "long",
        Band::Extreme => "extreme",
    }
}

/// The weapon in hand, stance, movement, cover and wounds; where a mover is heading.
pub fn token(world: &World, e: Entity) -> TokenView {
    let mut notes = Vec::new();
    if view::clock(world, e).holding {
        notes.push("HOLD".to_owned());
    }
    if let Some((_, w)) = view::ready_weapon(world, e) {
        notes.push(w.name.to_lowercase());
    }
    if view::prone(world, e) {
        notes.push("prone".to_owned());
    }
    let motion = view::motion(world, e);
    if let Some(m) = motion {
        notes.push(mode_word(m.mode).to_owned());
    }
    if let Some((percent, _)) = view::cover(world, e) {
        notes.push(format!("{percent}% cover"));
    }
    let penalty = view::wound_penalty(world, e);
    if penalty > 0 {
        notes.push(format!("wounds -{penalty}"));
    }
    TokenView { notes, heading: motion.map(|m| m.to), ..TokenView::default() }
}

/// Clock, place, traits, skills, weapons, armour and the wound chart.
pub fn sheet(world: &World, e: Entity) -> Vec<SheetRow> {
    let mut rows = Vec::new();
    let c = view::clock(world, e);
    rows.push(SheetRow::line(if c.holding {
        "Holding an action".to_owned()
    } else {
        format!("Next action: tick {}", c.next)
    }));
    let [x, y] = view::position(world, e);
    rows.push(SheetRow::line(format!("At ({x:.1} m, {y:.1} m), {:.0} m up", view::elevation(world, e))));
    if let Some(m) = view::motion(world, e) {
        rows.push(SheetRow::line(format!(
            "{} to ({:.1}, {:.1}), segment ends at tick {}",
            capital(mode_word(m.mode)),
            m.to[0],
            m.to[1],
            m.segment_end
        )));
    }
    if let Some((percent, barrier)) = view::cover(world, e) {
        rows.push(SheetRow::line(format!("In {percent}% cover (barrier {barrier})")));
    }
    let t = view::traits(world, e);
    rows.push(SheetRow::line(format!(
        "Awareness {} · Prowess {} · Will {} · Resilience {} · Speed {} (now {})",
        t.awareness,
        t.prowess,
        t.will,
        t.resilience,
        t.speed,
        view::speed(world, e)
    )));
    if let Some(skills) = world.get::<Skills>(e) {
        let list: Vec<String> = skills.0.iter().map(|(s, l)| format!("{s} {l}")).collect();
        rows.push(SheetRow::line(format!("Skills: {}", list.join(", "))));
    }
    if let Some(arms) = world.get::<Arms>(e) {
        rows.push(SheetRow::line(format!(
            "Ready: {}",
            arms.ready.clone().unwrap_or_else(|| "nothing".into())
        )));
        rows.push(SheetRow::line(format!("Carries: {}", arms.carried.join(", "))));
    }
    if let Some(worn) = world.get::<Worn>(e) {
        rows.push(SheetRow::line(format!("Armour: {}", worn.0.clone().unwrap_or_else(|| "none".into()))));
    }
    if let Some(chart) = world.get::<crate::wounds::WoundChart>(e) {
        rows.push(SheetRow::line(format!(
            "Wounds: {} of {} temporary, {} marked ({} stun), {} of {} mortal; penalty −{}",
            chart.glancing,
            chart.glancing_boxes,
            chart.filled(),
            chart.stun_marks(),
            chart.mortal,
            chart.mortal_boxes,
            chart.wound_penalty()
        )));
    }
    rows
}

/// The tick timeline: who may act now first, then by next action tick; holders, late
/// joiners and the fallen in words.
pub fn order(world: &World) -> Option<OrderView> {
    let board = view::board(world);
    let index = world.resource::<TableIndex>();
    let mut rows: Vec<_> = board.combatants.iter().collect();
    rows.sort_by_key(|c| {
        (!c.status.can_act(), !c.may_act_now, c.waiting_to_join, c.holding, c.next_action_tick)
    });
    let entries = rows
        .into_iter()
        .filter_map(|c| {
            let who = index.combatant(&c.id)?;
            let (mark, when) = if !c.status.can_act() {
                (OrderMark::Out, format!("{:?}", c.status).to_lowercase())
            } else if c.waiting_to_join {
                let joins = view::clock(world, who).joins_at;
                (
                    OrderMark::Joining,
                    joins.map_or_else(|| "before initiative".to_owned(), |n| format!("joins at {n}")),
                )
            } else if c.holding {
                (OrderMark::Holding, "HOLD".to_owned())
            } else if c.may_act_now {
                (OrderMark::Now, format!("tick {}", c.next_action_tick))
            } else {
                (OrderMark::Later, format!("tick {}", c.next_action_tick))
            };
            Some(OrderEntry { who, when, mark })
        })
        .collect();
    Some(OrderView { title: "Timeline", entries, events: Vec::new(), ladder: false, numbered: true })
}

/// Who may act at this tick.
pub fn acting(world: &World) -> Vec<Entity> {
    let board = view::board(world);
    let index = world.resource::<TableIndex>();
    board
        .combatants
        .iter()
        .filter(|c| c.may_act_now && c.status.can_act())
        .filter_map(|c| index.combatant(&c.id))
        .collect()
}

/// Declarations of equal Awareness, made together and in secret until the group is in.
pub fn secret(world: &World) -> Option<SecretView> {
    let state = world.get_resource::<TickState>()?;
    if current(world) != FateWalkerPhase::Declare || state.group.len() < 2 {
        return None;
    }
    // Going on holding declares nothing new.
    let sealed = state
        .declarations
        .iter()
        .filter_map(|d| match &d.choice {
            Declared::Act(action) => Some((d.actor, lower_first(&action_label(world, action)))),
            Declared::Hold => Some((d.actor, "hold".to_owned())),
            Declared::KeepHolding => None,
        })
        .collect();
    Some(SecretView { what: "declaration", sealed })
}

/// Covers (a double ring for 90%) and street lights.
pub fn scenery(world: &World) -> Vec<Scenery> {
    let catalogue = view::catalogue(world);
    let covers = catalogue.0.covers.iter().map(|c| Scenery {
        kind: SceneryKind::Cover { strong: c.percent >= 90 },
        at: [c.position.0, c.position.1],
        radius: c.radius,
        label: Some(format!("{} ({}%)", c.name, c.percent)),
    });
    let lights = catalogue.0.conditions.lights.iter().map(|&((x, y), radius)| Scenery {
        kind: SceneryKind::Light,
        at: [x, y],
        radius,
        label: None,
    });
    covers.chain(lights).collect()
}
