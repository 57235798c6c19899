//! FateWalker's panels, drawn inside the window's panels (`client::panels`): the tick and
//! its steps in the top bar, the tick timeline strip, the decision the rules wait for (the
//! accepted intents as buttons, refused ones disabled with their reason on hover), the aim
//! view on a clicked target, the selected combatant's sheet, and the dice log.

use bevy::prelude::*;
use bevy_egui::egui::{self, RichText};
use fatewalker::data::MoveMode;
use fatewalker::decisions::awaiting;
use fatewalker::phase::{AskKind, Choice, FwkPhase, TickState, current};
use fatewalker::sheet::{Arms, Skills, Worn};
use fatewalker::{Action, FwkIntent, Reaction, view};
use fray_core::DriveRules;
use fray_core::intent::{Inbox, Verdict};
use fray_core::log::{GameLog, LogEvent};
use fray_core::prelude::{CombatantId, Controller, Side, TableIndex};

use super::board::{band_word, mode_word};
use super::on_fatewalker;
use crate::client::board::Selection;

/// What the person asked for in a FateWalker panel this frame, applied after drawing.
pub enum FwkAsk {
    /// Send an intent.
    Submit(CombatantId, FwkIntent),
    /// Show this waiting person's decision in full.
    Focus(Entity),
    /// The movement mode a drag uses.
    Mode(MoveMode),
    /// Hand a combatant to a person or the AI.
    Control(Entity, Controller),
}

/// The movement mode a dragged token moves in (riders ride, prone tokens crawl).
#[derive(Resource, Clone, Copy, Debug)]
pub struct MoveChoice(pub MoveMode);

impl Default for MoveChoice {
    fn default() -> Self {
        Self(MoveMode::Run)
    }
}

/// The person whose decision is shown in full, their options with the rules' verdicts, and
/// the tokens they may attack: worked out again only when the table or the ask changes.
#[derive(Resource, Default)]
pub struct FwkFocus {
    /// Who decides in the panel.
    pub decider: Option<Entity>,
    /// Their options and verdicts.
    pub options: Vec<(FwkIntent, Verdict)>,
    /// The tokens they may attack now.
    pub targets: Vec<Entity>,
    asked: Option<Entity>,
    key: Option<(usize, usize, Vec<Entity>, Option<Entity>)>,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<MoveChoice>()
        .init_resource::<FwkFocus>()
        .add_systems(Update, update_focus.after(DriveRules).run_if(on_fatewalker));
}

/// Applies one ask.
pub fn apply(world: &mut World, ask: FwkAsk) {
    match ask {
        FwkAsk::Submit(who, intent) => world.resource_mut::<Inbox<FwkIntent>>().submit(who, intent),
        FwkAsk::Focus(e) => {
            let mut focus = world.resource_mut::<FwkFocus>();
            focus.asked = Some(e);
            focus.key = None;
        }
        FwkAsk::Mode(mode) => world.resource_mut::<MoveChoice>().0 = mode,
        FwkAsk::Control(e, c) => {
            if let Ok(mut entity) = world.get_entity_mut(e) {
                entity.insert(c);
            }
        }
    }
}

fn humans_waiting(world: &World) -> Vec<Entity> {
    awaiting(world).into_iter().filter(|&e| world.get::<Controller>(e) == Some(&Controller::Human)).collect()
}

fn update_focus(world: &mut World) {
    let humans = humans_waiting(world);
    let asked = world.resource::<FwkFocus>().asked;
    let key = Some((
        world.resource::<GameLog>().entries().len(),
        world.resource::<fray_core::intent::Outcomes>().0.len(),
        humans.clone(),
        asked,
    ));
    if world.resource::<FwkFocus>().key == key {
        return;
    }
    let decider = asked.filter(|e| humans.contains(e)).or_else(|| humans.first().copied());
    let options = decider.map(|e| fatewalker::legal::options(world, e)).unwrap_or_default();
    let index = world.resource::<TableIndex>();
    let mut targets = Vec::new();
    for (intent, verdict) in &options {
        if verdict.is_ok()
            && let Some(t) = action_of(intent).and_then(Action::target).and_then(|c| index.combatant(c))
            && decider.is_some_and(|e| view::enemies(world, e, t))
            && !targets.contains(&t)
        {
            targets.push(t);
        }
    }
    *world.resource_mut::<FwkFocus>() = FwkFocus { decider, options, targets, asked, key };
}

/// The action an intent carries, if any.
fn action_of(intent: &FwkIntent) -> Option<&Action> {
    match intent {
        FwkIntent::Act { action } | FwkIntent::Preempt { action } | FwkIntent::Counter { action } => {
            Some(action)
        }
        _ => None,
    }
}

fn who(world: &World, id: &CombatantId) -> String {
    world.resource::<TableIndex>().combatant(id).map_or_else(|| id.to_string(), |e| view::name(world, e))
}

/// A named place a move goes to: a cover, a vehicle, a combatant, else its coordinates.
fn place_name(world: &World, to: (f32, f32)) -> String {
    let near = |p: (f32, f32)| (p.0 - to.0).abs() < 0.01 && (p.1 - to.1).abs() < 0.01;
    if let Some(c) = view::catalogue(world).0.covers.iter().find(|c| near(c.position)) {
        return c.name.clone();
    }
    for (_, &m) in world.resource::<TableIndex>().mounts.iter() {
        if let Some(p) = world.get::<fray_core::prelude::FieldPosition>(m)
            && near((p.0[0], p.0[1]))
            && let Some(mount) = world.get::<fray_core::prelude::Mount>(m)
        {
            return mount.name.clone();
        }
    }
    for e in view::combatants(world) {
        let p = view::position(world, e);
        if near((p[0], p[1])) {
            return view::name(world, e);
        }
    }
    format!("({:.0} m, {:.0} m)", to.0, to.1)
}

fn action_label(world: &World, action: &Action) -> String {
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
            let name = index.mounts.get(mount).and_then(|&m| world.get::<fray_core::prelude::Mount>(m));
            format!("Get in the {}", name.map_or_else(|| mount.to_string(), |m| m.name.to_lowercase()))
        }
        Action::Wait { ticks } => format!("Wait {ticks} tick{}", if *ticks == 1 { "" } else { "s" }),
        other => capital(other.title()),
    }
}

fn mode_verb(mode: MoveMode) -> &'static str {
    match mode {
        MoveMode::Walk => "walk",
        MoveMode::Run => "run",
        MoveMode::Climb => "climb",
        MoveMode::Crawl => "crawl",
        MoveMode::Ride => "drive",
        MoveMode::Swim => "swim",
    }
}

fn lower_first(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |c| c.to_lowercase().chain(chars).collect())
}

fn capital(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

/// A readable label for an intent.
pub fn label(world: &World, intent: &FwkIntent) -> String {
    match intent {
        FwkIntent::Act { action } => action_label(world, action),
        FwkIntent::Preempt { action } => format!("Preempt: {}", lower_first(&action_label(world, action))),
        FwkIntent::Counter { action } => format!("React: {}", lower_first(&action_label(world, action))),
        FwkIntent::React { reaction: Reaction::Dodge } => "Dodge".to_owned(),
        FwkIntent::React { reaction: Reaction::Parry } => "Parry".to_owned(),
        FwkIntent::Hold => "Hold the action".to_owned(),
        FwkIntent::KeepHolding => "Keep holding".to_owned(),
        FwkIntent::Decline => "Let it be".to_owned(),
        FwkIntent::ContinueMoving => "Keep moving".to_owned(),
        FwkIntent::ChangeMovement { mode } => format!("Change to {}", mode_word(*mode)),
        FwkIntent::StopMoving => "Stop moving".to_owned(),
    }
}

/// Movement buttons are offered for named places only (and the chosen mode); anywhere else
/// is a drag on the board.
fn worth_a_button(world: &World, intent: &FwkIntent) -> bool {
    match action_of(intent) {
        Some(Action::BeginMoving { mode, to }) => {
            let chosen = world.resource::<MoveChoice>().0;
            (*mode == chosen || *mode == MoveMode::Ride) && !place_name(world, *to).starts_with('(')
        }
        _ => true,
    }
}

/// The top bar's start: the tick and the steps of a tick, the current one marked ▶.
pub fn clock_title(ui: &mut egui::Ui, world: &World) {
    let tick = view::tick(world);
    let phase = current(world);
    ui.label(RichText::new(format!("Tick {tick} ({:.1} s)", tick as f32 / 2.0)).strong().size(20.0));
    let opening = [FwkPhase::Ambush, FwkPhase::Initiative];
    let steps: Vec<FwkPhase> =
        if opening.contains(&phase) { opening.to_vec() } else { FwkPhase::TICK.to_vec() };
    for p in steps {
        let text = if p == phase {
            RichText::new(format!("▶ {}", p.title())).strong().size(18.0).color(egui::Color32::YELLOW)
        } else {
            RichText::new(p.title()).size(16.0)
        };
        ui.label(text);
        ui.label("›");
    }
    if phase == FwkPhase::FightOver {
        ui.label(RichText::new("■ Fight over").strong().size(18.0));
    }
}

/// The tick timeline: every combatant by next action tick, those who may act now first
/// (▶), holders marked HOLD, late joiners and the fallen in words.
pub fn timeline(ui: &mut egui::Ui, world: &World) {
    let board = view::board(world);
    let mut rows: Vec<_> = board.combatants.iter().collect();
    let fallen = |c: &&view::CombatantView| !c.status.can_act();
    rows.sort_by_key(|c| (fallen(c), !c.may_act_now, c.waiting_to_join, c.holding, c.next_action_tick));
    let waiting: Vec<Entity> = awaiting(world);
    let index = world.resource::<TableIndex>();
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new("Timeline:").strong());
        for c in rows {
            let asked = index.combatant(&c.id).is_some_and(|e| waiting.contains(&e));
            let first = c.name.split_whitespace().next().unwrap_or_default();
            let (mark, when) = if !c.status.can_act() {
                ("✝", format!("{:?}", c.status).to_lowercase())
            } else if c.waiting_to_join {
                let joins = index.combatant(&c.id).and_then(|e| view::clock(world, e).joins_at);
                ("…", joins.map_or_else(|| "before initiative".to_owned(), |n| format!("joins at {n}")))
            } else if c.holding {
                ("⏸", "HOLD".to_owned())
            } else {
                (if c.may_act_now { "▶" } else { "·" }, format!("tick {}", c.next_action_tick))
            };
            let now = if c.may_act_now { " · may act now" } else { "" };
            let deciding = if asked { " · deciding" } else { "" };
            let text = RichText::new(format!("{mark} {first}: {when}{now}{deciding}"));
            let text = if c.may_act_now || asked { text.strong().color(egui::Color32::YELLOW) } else { text };
            // Each entry stays on one line; the strip wraps between entries.
            ui.add(egui::Label::new(text).wrap_mode(egui::TextWrapMode::Extend));
            ui.label("|");
        }
    });
}

/// What the person answers now, in words (the declared action in a preempt step).
fn question(world: &World, e: Entity) -> String {
    match current(world) {
        FwkPhase::Ambush => "The ambush: take the free opening action.".to_owned(),
        FwkPhase::Declare => {
            let c = view::clock(world, e);
            if c.holding {
                "Holding: act now, or keep holding.".to_owned()
            } else {
                "Declare an action (or hold).".to_owned()
            }
        }
        FwkPhase::Preempt => {
            let Some(ask) = fatewalker::preempt::asked(world) else { return String::new() };
            let about = fatewalker::preempt::asked_about(world, &ask)
                .map(|(actor, action)| {
                    format!(
                        "{} declared: {}",
                        view::name(world, actor),
                        lower_first(&action_label(world, &action))
                    )
                })
                .unwrap_or_default();
            match ask.kind {
                AskKind::Preempt => format!("{about}. Act first from your hold?"),
                AskKind::React => format!("{about}. React?"),
            }
        }
        FwkPhase::FreeActions => "A movement segment ends: keep moving, change mode or stop.".to_owned(),
        _ => String::new(),
    }
}

/// The decisions panel.
pub fn decisions(ui: &mut egui::Ui, world: &World, asks: &mut Vec<FwkAsk>) {
    let waiting = awaiting(world);
    let (ais, humans): (Vec<Entity>, Vec<Entity>) =
        waiting.into_iter().partition(|&e| world.get::<Controller>(e) == Some(&Controller::Ai));
    let focus = world.resource::<FwkFocus>();
    egui::ScrollArea::vertical().show(ui, |ui| {
        for &e in &ais {
            ui.label(format!("{} (AI) is deciding…", view::name(world, e)));
        }
        if current(world) == FwkPhase::Declare {
            let sealed = world
                .resource::<TickState>()
                .declarations
                .iter()
                .filter(|d| d.choice != Choice::KeepHolding)
                .count();
            if sealed > 0 {
                ui.label(format!("{sealed} declaration(s) made, revealed when the group is in."));
            }
        }
        let Some(e) = focus.decider else {
            if humans.is_empty() && ais.is_empty() && current(world) != FwkPhase::FightOver {
                ui.label("The clock runs to the next tick where something happens…");
            }
            return;
        };
        ui.separator();
        ui.label(RichText::new(format!("{} decides", view::name(world, e))).strong().size(18.0));
        ui.label(question(world, e));
        ui.horizontal_wrapped(|ui| {
            ui.label("Drag your token to move:");
            let chosen = world.resource::<MoveChoice>().0;
            for mode in [MoveMode::Walk, MoveMode::Run, MoveMode::Crawl, MoveMode::Climb, MoveMode::Swim] {
                if ui.selectable_label(chosen == mode, mode_verb(mode)).clicked() {
                    asks.push(FwkAsk::Mode(mode));
                }
            }
        });
        aimed(ui, world, e, &focus.options, asks);
        let shown: Vec<&(FwkIntent, Verdict)> =
            focus.options.iter().filter(|(i, _)| worth_a_button(world, i)).collect();
        let mut accepted: Vec<&FwkIntent> = shown.iter().filter(|(_, v)| v.is_ok()).map(|(i, _)| i).collect();
        accepted.sort_by_key(|i| rank(world, e, i));
        let (main, on_allies): (Vec<&FwkIntent>, Vec<&FwkIntent>) =
            accepted.into_iter().partition(|i| rank(world, e, i) < ON_ALLIES);
        for intent in main {
            if ui.button(label(world, intent)).clicked() {
                asks.push(FwkAsk::Submit(view::id(world, e), intent.clone()));
            }
        }
        if !on_allies.is_empty() {
            ui.collapsing(format!("Attacks on allies ({})", on_allies.len()), |ui| {
                for intent in on_allies {
                    if ui.button(label(world, intent)).clicked() {
                        asks.push(FwkAsk::Submit(view::id(world, e), intent.clone()));
                    }
                }
            });
        }
        let mut refused: Vec<(String, String)> = Vec::new();
        for (intent, verdict) in &shown {
            if let Err(r) = verdict {
                let l = label(world, intent);
                if !refused.iter().any(|(x, _)| *x == l) {
                    refused.push((l, r.0.clone()));
                }
            }
        }
        ui.collapsing(format!("Not possible now ({})", refused.len()), |ui| {
            for (l, reason) in refused {
                ui.add_enabled(false, egui::Button::new(l)).on_disabled_hover_text(reason);
            }
        });
        let others: Vec<Entity> = humans.iter().copied().filter(|&o| o != e).collect();
        if !others.is_empty() {
            ui.separator();
            ui.label("Also waiting (click to decide for them):");
            ui.horizontal_wrapped(|ui| {
                for o in others {
                    if ui.button(view::name(world, o)).clicked() {
                        asks.push(FwkAsk::Focus(o));
                    }
                }
            });
        }
    });
}

/// The rank of attacks on one's own side: listed apart, folded.
const ON_ALLIES: u8 = 5;

/// Button order: answers to the question first, then attacks on enemies, movement, the
/// rest, and attacks on allies last.
fn rank(world: &World, e: Entity, intent: &FwkIntent) -> u8 {
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

/// With a token clicked on the board: the distance, range band and modifiers of an attack
/// on it, and the decider's actions on it first.
fn aimed(
    ui: &mut egui::Ui,
    world: &World,
    e: Entity,
    options: &[(FwkIntent, Verdict)],
    asks: &mut Vec<FwkAsk>,
) {
    let Some(t) = world
        .resource::<Selection>()
        .combatant
        .filter(|&t| t != e && world.get::<fray_core::prelude::Combatant>(t).is_some())
    else {
        if !world.resource::<FwkFocus>().targets.is_empty() {
            ui.label(
                "Click a ringed token (◎) on the board to aim at it: range band and modifiers are shown.",
            );
        }
        return;
    };
    let target = view::id(world, t);
    egui::Frame::group(ui.style()).show(ui, |ui| {
        ui.label(RichText::new(format!("On {} (clicked on the board)", view::name(world, t))).strong());
        for through in [false, true] {
            let aim = fatewalker::combat::aim(world, e, t, through);
            if through && aim.target_number == fatewalker::combat::aim(world, e, t, false).target_number {
                continue;
            }
            let weapon = aim.weapon.clone().unwrap_or_else(|| "no weapon".to_owned());
            let band =
                aim.band.map_or_else(|| "melee or no band".to_owned(), |b| format!("{} range", band_word(b)));
            ui.label(format!(
                "{:.1} m · {band} · {weapon}{}",
                aim.distance,
                if through { " · through cover" } else { "" }
            ));
            let rows: Vec<String> = aim.modifiers.iter().map(|(what, m)| format!("{what} {m:+}")).collect();
            ui.label(if rows.is_empty() {
                "No modifiers".to_owned()
            } else {
                format!("Modifiers: {}", rows.join(", "))
            });
            match &aim.target_number {
                Ok(n) => ui.label(format!("Roll against {n}")),
                Err(r) => {
                    ui.label(RichText::new(format!("Refused: {}", r.0)).color(egui::Color32::LIGHT_RED))
                }
            };
        }
        for (intent, verdict) in
            options.iter().filter(|(i, _)| action_of(i).and_then(Action::target) == Some(&target))
        {
            let button = egui::Button::new(RichText::new(label(world, intent)).size(18.0));
            match verdict {
                Ok(()) => {
                    if ui.add(button).clicked() {
                        asks.push(FwkAsk::Submit(view::id(world, e), intent.clone()));
                    }
                }
                Err(reason) => {
                    ui.add_enabled(false, button).on_disabled_hover_text(reason.0.clone());
                }
            }
        }
    });
}

/// The selected combatant's sheet.
pub fn sheet(ui: &mut egui::Ui, world: &World, asks: &mut Vec<FwkAsk>) {
    let Some(e) = world
        .resource::<Selection>()
        .combatant
        .filter(|&e| world.get::<fray_core::prelude::Combatant>(e).is_some())
    else {
        ui.label("Click a token to see its sheet; while someone decides, clicking another token aims at it. Drag a token to move it.");
        return;
    };
    ui.label(RichText::new(view::name(world, e)).strong().size(20.0));
    if let Some(side) = world.get::<Side>(e) {
        ui.label(format!("Side: {}", side.0));
    }
    ui.label(format!("Status: {:?}", view::status(world, e)));
    let controller = world.get::<Controller>(e).copied().unwrap_or_default();
    let (now, other) = match controller {
        Controller::Ai => ("AI", Controller::Human),
        Controller::Human => ("a player", Controller::Ai),
    };
    ui.label(format!("Controlled by {now}"));
    if ui.button("Switch AI / player").clicked() {
        asks.push(FwkAsk::Control(e, other));
    }
    let c = view::clock(world, e);
    ui.label(if c.holding {
        "Holding an action".to_owned()
    } else {
        format!("Next action: tick {}", c.next)
    });
    let [x, y] = view::position(world, e);
    ui.label(format!("At ({x:.1} m, {y:.1} m), {:.0} m up", view::elevation(world, e)));
    if let Some(m) = view::motion(world, e) {
        ui.label(format!(
            "{} to ({:.1}, {:.1}), segment ends at tick {}",
            capital(mode_word(m.mode)),
            m.to[0],
            m.to[1],
            m.segment_end
        ));
    }
    if let Some((percent, barrier)) = view::cover(world, e) {
        ui.label(format!("In {percent}% cover (barrier {barrier})"));
    }
    let t = view::traits(world, e);
    ui.label(format!(
        "Awareness {} · Prowess {} · Will {} · Resilience {} · Speed {} (now {})",
        t.awareness,
        t.prowess,
        t.will,
        t.resilience,
        t.speed,
        view::speed(world, e)
    ));
    if let Some(skills) = world.get::<Skills>(e) {
        let list: Vec<String> = skills.0.iter().map(|(s, l)| format!("{s} {l}")).collect();
        ui.label(format!("Skills: {}", list.join(", ")));
    }
    if let Some(arms) = world.get::<Arms>(e) {
        ui.label(format!("Ready: {}", arms.ready.clone().unwrap_or_else(|| "nothing".into())));
        ui.label(format!("Carries: {}", arms.carried.join(", ")));
    }
    if let Some(worn) = world.get::<Worn>(e) {
        ui.label(format!("Armour: {}", worn.0.clone().unwrap_or_else(|| "none".into())));
    }
    if let Some(chart) = world.get::<fatewalker::wounds::WoundChart>(e) {
        ui.label(format!(
            "Wounds: {} of {} temporary, {} marked ({} stun), {} of {} mortal; penalty −{}",
            chart.glancing,
            chart.glancing_boxes,
            chart.filled(),
            chart.stun_marks(),
            chart.mortal,
            chart.mortal_boxes,
            chart.wound_penalty()
        ));
    }
}

/// The dice, newest first, with the tick.
pub fn dice_log(ui: &mut egui::Ui, world: &World) {
    ui.label(RichText::new("Dice (newest first)").strong());
    egui::ScrollArea::vertical().show(ui, |ui| {
        for entry in world.resource::<GameLog>().entries().iter().rev().take(60) {
            if let LogEvent::Roll(r) = &entry.event {
                let who = entry.actor.as_ref().map_or("", |a| a.as_str());
                ui.label(format!(
                    "Tick {} · {who}: {} {:?}, target number {}: {} success{}{}",
                    entry.round,
                    r.what,
                    r.dice,
                    r.difficulty,
                    r.value,
                    if r.value == 1 { "" } else { "es" },
                    if r.success { "" } else { " (not enough)" }
                ));
            }
        }
    });
}
