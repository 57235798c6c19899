//! The egui panels: phase tracker, the decisions the rules wait for (with refused options
//! shown disabled and their reason on hover), the selected combatant's sheet, the dice log,
//! a covered panel for secret bids, and the board's messages. Large type, a UI scale setting,
//! keyboard shortcuts shown in the UI; nothing needs a modifier key or a right click.

use bevy::prelude::*;
use bevy_egui::egui::{self, LayerId, RichText, UiBuilder};
use bevy_egui::{EguiContext, EguiPrimaryContextPass, PrimaryEguiContext};
use fiend_wake::data::Attribute;
use fiend_wake::decisions::awaiting;
use fiend_wake::legal::options;
use fiend_wake::sheet::{Arsenal, Attributes, Skills, Worn};
use fiend_wake::{FwIntent, FwPhase, Round};
use fray_core::intent::Inbox;
use fray_core::log::{GameLog, LogEvent};
use fray_core::phase::CurrentPhase;
use fray_core::prelude::{Combatant, CombatantId, Controller, Counters, Side, Status, TableIndex, TokenKind};

use super::LoadError;
use super::board::Selection;
use super::camera::{BoardArea, ZoomRequest};
use super::drag::BoardMessage;

/// What the panels remember between frames.
#[derive(Resource)]
struct PanelState {
    bid_shown_for: Option<Entity>,
    scale: f32,
    path: String,
}

impl Default for PanelState {
    fn default() -> Self {
        Self { bid_shown_for: None, scale: 1.25, path: String::new() }
    }
}

/// What the person asked for this frame, applied after drawing.
enum Ask {
    Submit(CombatantId, FwIntent),
    Control(Entity, Controller),
    ShowBid(Option<Entity>),
    Zoom(f32),
    Scale(f32),
    Area(BoardArea),
    ClearSelection,
    Path(String),
    Open(String),
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<PanelState>().add_systems(EguiPrimaryContextPass, panels);
}

fn panels(world: &mut World) {
    let mut contexts = world.query_filtered::<&mut EguiContext, With<PrimaryEguiContext>>();
    let Ok(mut context) = contexts.single_mut(world) else {
        return;
    };
    let ctx = context.get_mut().clone();
    let mut asks = Vec::new();
    draw(&ctx, world, &mut asks);
    for ask in asks {
        match ask {
            Ask::Submit(who, intent) => world.resource_mut::<Inbox<FwIntent>>().submit(who, intent),
            Ask::Control(e, c) => {
                world.entity_mut(e).insert(c);
            }
            Ask::ShowBid(e) => world.resource_mut::<PanelState>().bid_shown_for = e,
            Ask::Zoom(f) => world.resource_mut::<ZoomRequest>().0 = f,
            Ask::Scale(s) => world.resource_mut::<PanelState>().scale = s,
            Ask::Path(p) => world.resource_mut::<PanelState>().path = p,
            Ask::Open(p) => open(world, &p),
            Ask::ClearSelection => *world.resource_mut::<Selection>() = Selection::default(),
            Ask::Area(area) => {
                if *world.resource::<BoardArea>() != area {
                    world.insert_resource(area);
                }
            }
        }
    }
}

/// Opens another scenario file in the window; a broken one shows its error and changes nothing.
fn open(world: &mut World, path: &str) {
    let shown = path.to_owned();
    match crate::rulesets::load(std::path::Path::new(path)) {
        Ok(scenario) => {
            scenario.respawn(world, scenario.seed(), 100);
            world.resource_mut::<LoadError>().0 = None;
            *world.resource_mut::<Selection>() = Selection::default();
            *world.resource_mut::<super::camera::Framed>() = Default::default();
        }
        Err(e) => world.resource_mut::<LoadError>().0 = Some(e.report(&shown).join("\n")),
    }
}

fn name(world: &World, e: Entity) -> String {
    world.get::<Combatant>(e).map_or_else(|| "?".to_owned(), |c| c.name.clone())
}

fn id(world: &World, e: Entity) -> CombatantId {
    world.get::<Combatant>(e).map_or_else(|| CombatantId(String::new()), |c| c.id.clone())
}

fn draw(ctx: &egui::Context, world: &World, asks: &mut Vec<Ask>) {
    let state = world.resource::<PanelState>();
    ctx.set_zoom_factor(state.scale);
    let mut root = egui::Ui::new(
        ctx.clone(),
        "fray_root".into(),
        UiBuilder::new().layer_id(LayerId::background()).max_rect(ctx.viewport_rect()),
    );
    let top = egui::Panel::top("phases")
        .show(&mut root, |ui| phase_tracker(ui, world, asks))
        .response
        .rect
        .height();
    let right = egui::Panel::right("decisions")
        .exact_size(330.0)
        .show(&mut root, |ui| decisions(ui, world, asks))
        .response
        .rect
        .width();
    let left = egui::Panel::left("sheet")
        .exact_size(250.0)
        .show(&mut root, |ui| sheet(ui, world, asks))
        .response
        .rect
        .width();
    let bottom = egui::Panel::bottom("dice")
        .exact_size(130.0)
        .show(&mut root, |ui| dice_log(ui, world))
        .response
        .rect
        .height();
    let ppp = ctx.pixels_per_point();
    asks.push(Ask::Area(BoardArea {
        left: left * ppp,
        right: right * ppp,
        top: top * ppp,
        bottom: bottom * ppp,
    }));
    message(ctx, world);
    if let Some(error) = &world.resource::<LoadError>().0 {
        egui::Window::new("Cannot open the scenario").anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0]).show(ctx, |ui| {
            ui.label(RichText::new(error).color(egui::Color32::LIGHT_RED));
            ui.label("Fix the file and open it again (`fray play PATH`); `fray check PATH` explains every problem.");
        });
    }
    shortcuts(ctx, world, asks);
}

fn phase_tracker(ui: &mut egui::Ui, world: &World, asks: &mut Vec<Ask>) {
    let round = world.get_resource::<Round>().map_or(0, |r| r.number);
    let open = !world.resource::<TableIndex>().combatants.is_empty();
    let phase = world.get_resource::<CurrentPhase<FwPhase>>().map(|p| p.get()).filter(|_| open);
    ui.horizontal_wrapped(|ui| {
        if !open {
            ui.label(RichText::new("No scenario open").strong().size(20.0));
        } else {
            ui.label(RichText::new(format!("Round {round}")).strong().size(20.0));
        }
        for p in FwPhase::ROUND.into_iter().filter(|_| open) {
            let text = if Some(p) == phase {
                RichText::new(format!("▶ {}", p.title())).strong().size(18.0).color(egui::Color32::YELLOW)
            } else {
                RichText::new(p.title()).size(16.0)
            };
            ui.label(text);
            ui.label("›");
        }
        if phase == Some(FwPhase::CombatOver) {
            ui.label(RichText::new("■ Combat over").strong().size(18.0));
        }
        ui.separator();
        if ui.button("Zoom −").clicked() {
            asks.push(Ask::Zoom(1.2));
        }
        if ui.button("Zoom +").clicked() {
            asks.push(Ask::Zoom(1.0 / 1.2));
        }
        let mut path = world.resource::<PanelState>().path.clone();
        ui.label("Scenario file:");
        if ui.add(egui::TextEdit::singleline(&mut path).desired_width(220.0)).changed() {
            asks.push(Ask::Path(path.clone()));
        }
        if ui.button("Open").clicked() {
            asks.push(Ask::Open(path));
        }
        let scale = world.resource::<PanelState>().scale;
        if ui.button("Text −").clicked() {
            asks.push(Ask::Scale((scale - 0.1).max(0.8)));
        }
        if ui.button("Text +").clicked() {
            asks.push(Ask::Scale((scale + 0.1).min(2.5)));
        }
    });
    if let Some(round) = world.get_resource::<Round>()
        && !round.priority.is_empty()
    {
        let order: Vec<String> = round.priority.iter().map(|&e| name(world, e)).collect();
        ui.label(format!("Priority: {}", order.join(" › ")));
    }
    let waiting: Vec<String> = awaiting(world)
        .into_iter()
        .map(|e| {
            let who = if world.get::<Controller>(e) == Some(&Controller::Ai) { "AI" } else { "player" };
            format!("{} ({who})", name(world, e))
        })
        .collect();
    if !waiting.is_empty() {
        ui.label(format!("Waiting on: {}", waiting.join(", ")));
    }
}

/// Keeps the armour payments that pay exactly (all TP, or all turn tokens): the rules accept
/// every over-payment too, but a list of them all helps nobody.
fn worth_a_button(world: &World, e: Entity, intent: &FwIntent) -> bool {
    let FwIntent::PayArmour { tp, turn_tokens } = intent else {
        return true;
    };
    let per = fiend_wake::view::catalogue(world).rules.turn_token_tp.max(1);
    let cost = fiend_wake::view::encumbrance(world, e).unwrap_or(0);
    (*turn_tokens == 0 && *tp == cost) || (*tp == 0 && *turn_tokens == cost.div_ceil(per))
}

/// A readable label for an intent.
fn label(world: &World, intent: &FwIntent) -> String {
    let index = world.resource::<TableIndex>();
    let who = |c: &CombatantId| index.combatant(c).map_or_else(|| c.to_string(), |e| name(world, e));
    let upgraded = |u: bool| if u { " (full action)" } else { "" };
    match intent {
        FwIntent::Bid { tp } => format!("Bid {tp} TP"),
        FwIntent::PayArmour { tp, turn_tokens } => format!("Pay armour: {tp} TP, {turn_tokens} turn tokens"),
        FwIntent::RefuseArmour { doff } => {
            if *doff {
                "Refuse armour and take it off".into()
            } else {
                "Refuse armour".into()
            }
        }
        FwIntent::Cede { cede } => {
            if *cede {
                "Cede priority".into()
            } else {
                "Hold priority".into()
            }
        }
        FwIntent::Arm { weapon, upgrade } => format!("Arm: {weapon}{}", upgraded(*upgrade)),
        FwIntent::EnterLocation { location, upgrade } => format!("Enter {location}{}", upgraded(*upgrade)),
        FwIntent::Evacuate { upgrade } => format!("Evacuate{}", upgraded(*upgrade)),
        FwIntent::Retreat { tp, upgrade } => format!("Retreat ({tp} TP){}", upgraded(*upgrade)),
        FwIntent::Mount { mount, upgrade } => format!("Mount {mount}{}", upgraded(*upgrade)),
        FwIntent::MeleeAttack { target } => format!("Melee attack {}", who(target)),
        FwIntent::RangedAttack { target } => format!("Ranged attack {}", who(target)),
        FwIntent::Grapple { target } => format!("Grapple {}", who(target)),
        FwIntent::Medic { patient } => format!("Tend to {}", who(patient)),
        FwIntent::Caltrops { target } => format!("Caltrops around {}", who(target)),
        FwIntent::Harass { allocations } if allocations.is_empty() => "Harass nobody".into(),
        FwIntent::Harass { allocations } => {
            let parts: Vec<String> =
                allocations.iter().map(|(t, tp)| format!("{} ({tp} TP)", who(t))).collect();
            format!("Harass {}", parts.join(", "))
        }
        FwIntent::Assault { location, supporters, tp, raise, .. } => {
            let team: Vec<String> = supporters.iter().map(who).collect();
            format!("Assault {location} with {} ({tp} TP, raise {raise})", team.join(", "))
        }
        FwIntent::Support { tp, enter } => {
            format!("Support with {tp} TP{}", if *enter { " and enter" } else { "" })
        }
        FwIntent::FuelSpells { spells } => {
            format!("Fuel: {}", if spells.is_empty() { "none".into() } else { spells.join(", ") })
        }
        other => other.title().to_owned(),
    }
}

fn decisions(ui: &mut egui::Ui, world: &World, asks: &mut Vec<Ask>) {
    ui.heading("Decisions");
    let phase = world.get_resource::<CurrentPhase<FwPhase>>().map(|p| p.get());
    let shown_for = world.resource::<PanelState>().bid_shown_for;
    egui::ScrollArea::vertical().show(ui, |ui| {
        for e in awaiting(world) {
            ui.separator();
            let who = name(world, e);
            if world.get::<Controller>(e) == Some(&Controller::Ai) {
                ui.label(format!("{who} (AI) is deciding…"));
                continue;
            }
            let secret = phase == Some(FwPhase::BidForPriority);
            if secret && shown_for != Some(e) {
                ui.label(
                    RichText::new(format!("Pass the mouse to {who}; everyone else looks away.")).strong(),
                );
                if ui.button(format!("I am {who}: show my bid")).clicked() {
                    asks.push(Ask::ShowBid(Some(e)));
                }
                continue;
            }
            ui.label(RichText::new(format!("{who} decides")).strong().size(18.0));
            let all: Vec<_> = options(world, e)
                .into_iter()
                .filter(|(i, v)| v.is_err() || worth_a_button(world, e, i))
                .collect();
            for (intent, _) in all.iter().filter(|(_, v)| v.is_ok()) {
                if ui.button(label(world, intent)).clicked() {
                    asks.push(Ask::Submit(id(world, e), intent.clone()));
                    if secret {
                        asks.push(Ask::ShowBid(None));
                    }
                }
            }
            let refused: Vec<_> = all.iter().filter_map(|(i, v)| v.as_ref().err().map(|r| (i, r))).collect();
            ui.collapsing(format!("Not possible now ({})", refused.len()), |ui| {
                for (intent, reason) in refused {
                    ui.add_enabled(false, egui::Button::new(label(world, intent)))
                        .on_disabled_hover_text(reason.0.clone());
                }
            });
        }
    });
}

fn sheet(ui: &mut egui::Ui, world: &World, asks: &mut Vec<Ask>) {
    ui.heading("Combatant");
    let selection = *world.resource::<Selection>();
    if selection.combatant.is_some() || selection.location.is_some() {
        ui.label("Reach view: cards show how many moves away they are (turns and TP aside).");
        if ui.button("Clear the selection").clicked() {
            asks.push(Ask::ClearSelection);
        }
    }
    if let Some(l) = selection.location {
        ui.label(RichText::new(fray_core::location::place_name(world, l)).strong().size(20.0));
    }
    let Some(e) = selection.combatant.filter(|&e| world.get::<Combatant>(e).is_some()) else {
        ui.label("Click a token to see its sheet, or a card for its reach. Drag a token onto a location to enter it.");
        return;
    };
    ui.label(RichText::new(name(world, e)).strong().size(20.0));
    if let Some(side) = world.get::<Side>(e) {
        ui.label(format!("Side: {}", side.0));
    }
    let status = world.get::<Status>(e).copied().unwrap_or_default();
    ui.label(format!("Status: {status:?}"));
    let controller = world.get::<Controller>(e).copied().unwrap_or_default();
    let (now, other) = match controller {
        Controller::Ai => ("AI", Controller::Human),
        Controller::Human => ("a player", Controller::Ai),
    };
    ui.label(format!("Controlled by {now}"));
    if ui.button("Switch AI / player").clicked() {
        asks.push(Ask::Control(e, other));
    }
    if let Some(counters) = world.get::<Counters>(e) {
        ui.label(format!(
            "TP {} · turn tokens {} · pending {} · wounds {}",
            counters.get(TokenKind::TacticalPoint),
            counters.get(TokenKind::TurnToken),
            counters.get(TokenKind::PendingTurn),
            counters.get(TokenKind::Wound)
        ));
    }
    if let Some(attributes) = world.get::<Attributes>(e) {
        ui.label(RichText::new("Stack numbers (marked in brackets)").strong());
        for a in Attribute::ALL {
            let all = fiend_wake::sheet::stack_numbers(attributes.level(a));
            let free = attributes.available(a).len();
            let shown: Vec<String> = all
                .iter()
                .enumerate()
                .map(|(i, n)| if i < free { n.to_string() } else { format!("[{n}]") })
                .collect();
            ui.label(format!("{a:?} {}: {}", attributes.level(a), shown.join(" ")));
        }
    }
    if let Some(skills) = world.get::<Skills>(e) {
        let list: Vec<String> = skills.0.iter().map(|(s, l)| format!("{s:?} {l}")).collect();
        ui.label(format!("Skills: {}", list.join(", ")));
    }
    if let Some(arsenal) = world.get::<Arsenal>(e) {
        ui.label(format!("Ready: {}", arsenal.ready.clone().unwrap_or_else(|| "nothing".into())));
        ui.label(format!("Carries: {}", arsenal.carried.join(", ")));
    }
    if let Some(worn) = world.get::<Worn>(e) {
        ui.label(format!(
            "Armour: {}{}",
            worn.armour.clone().unwrap_or_else(|| "none".into()),
            if worn.doffing { " (coming off)" } else { "" }
        ));
    }
}

fn dice_log(ui: &mut egui::Ui, world: &World) {
    ui.label(RichText::new("Dice (newest first)").strong());
    egui::ScrollArea::vertical().show(ui, |ui| {
        for entry in world.resource::<GameLog>().entries().iter().rev().take(60) {
            if let LogEvent::Roll(r) = &entry.event {
                let who = entry.actor.as_ref().map_or("", |a| a.as_str());
                ui.label(format!(
                    "Round {} · {who}: {} {:?} + {} = {} against {} → {}{}",
                    entry.round,
                    r.what,
                    r.dice,
                    r.modifier,
                    r.value,
                    r.difficulty,
                    if r.success { "success" } else { "failure" },
                    if r.extra_successes > 0 {
                        format!(" ({} extra)", r.extra_successes)
                    } else {
                        String::new()
                    }
                ));
            }
        }
    });
}

fn message(ctx: &egui::Context, world: &World) {
    let message = world.resource::<BoardMessage>();
    if message.text.is_empty() || message.timer.is_finished() {
        return;
    }
    egui::Area::new("board_message".into()).anchor(egui::Align2::CENTER_TOP, [0.0, 90.0]).show(ctx, |ui| {
        egui::Frame::popup(ui.style()).show(ui, |ui| {
            ui.label(RichText::new(format!("✋ {}", message.text)).size(22.0).strong());
        });
    });
}

/// E ends the active human turn, P passes or declines; shown in the UI.
fn shortcuts(ctx: &egui::Context, world: &World, asks: &mut Vec<Ask>) {
    egui::Area::new("shortcuts".into()).anchor(egui::Align2::LEFT_BOTTOM, [260.0, -140.0]).show(ctx, |ui| {
        ui.label(
            "Keys: E end turn · P pass (bid 0, hold, decline) · wheel or Zoom buttons to zoom · drag the field to pan",
        );
    });
    if ctx.egui_wants_keyboard_input() {
        return;
    }
    let Some(e) =
        awaiting(world).into_iter().find(|&e| world.get::<Controller>(e) == Some(&Controller::Human))
    else {
        return;
    };
    let intent = if ctx.input(|i| i.key_pressed(egui::Key::E)) {
        Some(FwIntent::EndTurn)
    } else if ctx.input(|i| i.key_pressed(egui::Key::P)) {
        let phase = world.get_resource::<CurrentPhase<FwPhase>>().map(|p| p.get());
        Some(if fiend_wake::reactions::asked(world).is_some() {
            FwIntent::Decline
        } else if world.resource::<fiend_wake::ActiveTurn>().actor.is_some() {
            FwIntent::EndTurn
        } else {
            match phase {
                Some(FwPhase::BidForPriority) => FwIntent::Bid { tp: 0 },
                Some(FwPhase::Cede) => FwIntent::Cede { cede: false },
                _ => FwIntent::Pass,
            }
        })
    } else {
        None
    };
    if let Some(intent) = intent {
        asks.push(Ask::Submit(id(world, e), intent));
    }
}
