//! The egui panels: phase tracker, the decisions the rules wait for (with refused options
//! shown disabled and their reason on hover), the selected combatant's sheet, the dice log,
//! a covered panel for secret bids, and the board's messages. Large type, a UI scale setting,
//! keyboard shortcuts shown in the UI; nothing needs a modifier key or a right click.

use bevy::prelude::*;
use bevy_egui::egui::{self, LayerId, RichText, UiBuilder};
use bevy_egui::{EguiContext, EguiPrimaryContextPass, PrimaryEguiContext};
use fiend_wake::data::Attribute;
use fiend_wake::decisions::{awaiting, validate};
use fiend_wake::legal::options;
use fiend_wake::sheet::{Arsenal, Attributes, Skills, Worn};
use fiend_wake::{FwIntent, FwPhase, Round};
use fray_core::intent::Inbox;
use fray_core::log::{GameLog, LogEvent};
use fray_core::phase::CurrentPhase;
use fray_core::prelude::{Combatant, CombatantId, Controller, Counters, Side, Status, TableIndex, TokenKind};
use fray_core::table::{id, name};

use super::LoadError;
use super::board::Selection;
use super::camera::{BoardArea, ZoomRequest};
use super::chips::{HarassPlan, LEGEND};
use super::drag::BoardMessage;
use super::fatewalker::is_fatewalker;
use super::fatewalker::panels::{self as fwk, FwkAsk};
use super::history::HistoryAsk;
use super::table::audience::{GmGizmos, HiddenFromTable};
use super::table::{TableAsk, TableView};

/// What the panels remember between frames.
#[derive(Resource)]
struct PanelState {
    bid_shown_for: Option<Entity>,
    focus: Option<Entity>,
    scale: f32,
    path: String,
}

impl Default for PanelState {
    fn default() -> Self {
        Self { bid_shown_for: None, focus: None, scale: 1.25, path: String::new() }
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
    Plan(HarassPlan),
    Focus(Entity),
    History(HistoryAsk),
    Fatewalker(FwkAsk),
    Table(TableAsk),
}

/// Tokens the deciding person may pick as targets now (marked on the board).
#[derive(Resource, Default, Clone, Debug, PartialEq)]
pub struct Targets(pub Vec<Entity>);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<PanelState>()
        .init_resource::<Targets>()
        .add_systems(EguiPrimaryContextPass, panels)
        .init_resource::<Focus>()
        .add_systems(Update, update_focus.after(fray_core::DriveRules))
        .add_systems(Update, mark_targets.after(super::board::Layout));
}

fn panels(world: &mut World) {
    let mut contexts = world.query_filtered::<&mut EguiContext, With<PrimaryEguiContext>>();
    let Ok(mut context) = contexts.single_mut(world) else {
        return;
    };
    let ctx = context.get_mut().clone();
    // Table mode: no GM panel (but the offer to resume, which holds the AI until answered);
    // the board lies below the table's bar.
    if world.resource::<TableView>().mode {
        let area = BoardArea { top: super::table::BAR_HEIGHT * ctx.pixels_per_point(), ..default() };
        if *world.resource::<BoardArea>() != area {
            world.insert_resource(area);
        }
        let mut history = Vec::new();
        super::history::resume_dialog(&ctx, world, &mut history);
        for ask in history {
            super::history::apply(world, ask);
        }
        return;
    }
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
            Ask::History(h) => super::history::apply(world, h),
            Ask::Fatewalker(a) => fwk::apply(world, a),
            Ask::Table(a) => super::table::apply(world, a),
            Ask::Focus(e) => world.resource_mut::<PanelState>().focus = Some(e),
            Ask::Plan(plan) => *world.resource_mut::<HarassPlan>() = plan,
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
            scenario.respawn(world, scenario.seed(), scenario.default_limit());
            world.resource_mut::<LoadError>().0 = None;
            *world.resource_mut::<Selection>() = Selection::default();
            *world.resource_mut::<super::camera::Framed>() = Default::default();
            super::table::window::reframe(world);
        }
        Err(e) => world.resource_mut::<LoadError>().0 = Some(e.report(&shown).join("\n")),
    }
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
    let mut history = Vec::new();
    super::history::resume_dialog(ctx, world, &mut history);
    asks.extend(history.into_iter().map(Ask::History));
}

fn phase_tracker(ui: &mut egui::Ui, world: &World, asks: &mut Vec<Ask>) {
    let round = world.get_resource::<Round>().map_or(0, |r| r.number);
    let open = !world.resource::<TableIndex>().combatants.is_empty();
    let fatewalker = is_fatewalker(world);
    let phase =
        world.get_resource::<CurrentPhase<FwPhase>>().map(|p| p.get()).filter(|_| open && !fatewalker);
    ui.horizontal_wrapped(|ui| {
        if !open {
            ui.label(RichText::new("No scenario open").strong().size(20.0));
        } else if fatewalker {
            fwk::clock_title(ui, world);
        } else {
            ui.label(RichText::new(format!("Round {round}")).strong().size(20.0));
        }
        for p in FwPhase::ROUND.into_iter().filter(|_| open && !fatewalker) {
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
        ui.separator();
        let mut history = Vec::new();
        super::history::controls(ui, world, &mut history);
        asks.extend(history.into_iter().map(Ask::History));
        ui.separator();
        let scale = world.resource::<PanelState>().scale;
        if ui.button("Text −").clicked() {
            asks.push(Ask::Scale((scale - 0.1).max(0.8)));
        }
        if ui.button("Text +").clicked() {
            asks.push(Ask::Scale((scale + 0.1).min(2.5)));
        }
        ui.separator();
        let mut table = Vec::new();
        super::table::menu(ui, world, &mut table);
        asks.extend(table.into_iter().map(Ask::Table));
    });
    if fatewalker && open {
        fwk::timeline(ui, world);
    }
    if let Some(round) = world.get_resource::<Round>()
        && !round.priority.is_empty()
        && !fatewalker
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

/// How many waiting people are listed by name before "and N more".
const LISTED: usize = 24;

fn decisions(ui: &mut egui::Ui, world: &World, asks: &mut Vec<Ask>) {
    ui.heading("Decisions");
    let phase = world.get_resource::<CurrentPhase<FwPhase>>().map(|p| p.get());
    let secret = phase == Some(FwPhase::BidForPriority);
    let focus = world.resource::<Focus>();
    if *world.resource::<super::history::HistoryMode>() == super::history::HistoryMode::Watching {
        ui.label("Watching a saved fight: step forward and back with the buttons at the top (or the Left and Right keys); nobody decides.");
        return;
    }
    if is_fatewalker(world) {
        let mut fatewalker = Vec::new();
        fwk::decisions(ui, world, &mut fatewalker);
        asks.extend(fatewalker.into_iter().map(Ask::Fatewalker));
        return;
    }
    let waiting = awaiting(world);
    let (ais, humans): (Vec<Entity>, Vec<Entity>) =
        waiting.into_iter().partition(|&e| world.get::<Controller>(e) == Some(&Controller::Ai));
    egui::ScrollArea::vertical().show(ui, |ui| {
        for &e in ais.iter().take(LISTED) {
            ui.label(format!("{} (AI) is deciding…", name(world, e)));
        }
        if ais.len() > LISTED {
            ui.label(format!("… and {} more (AI)", ais.len() - LISTED));
        }
        if secret {
            for &e in humans.iter().take(LISTED) {
                ui.separator();
                let who = name(world, e);
                if focus.decider == Some(e) {
                    ui.label(RichText::new(format!("{who} bids")).strong().size(18.0));
                    choices(ui, world, e, &focus.options, true, asks);
                    continue;
                }
                ui.label(
                    RichText::new(format!("Pass the mouse to {who}; everyone else looks away.")).strong(),
                );
                if ui.button(format!("I am {who}: show my bid")).clicked() {
                    asks.push(Ask::ShowBid(Some(e)));
                }
            }
            if humans.len() > LISTED {
                ui.label(format!("… and {} more bidders after these", humans.len() - LISTED));
            }
            return;
        }
        let Some(e) = focus.decider else { return };
        ui.separator();
        ui.label(RichText::new(format!("{} decides", name(world, e))).strong().size(18.0));
        match phase {
            Some(FwPhase::Harassment) => harassment(ui, world, e, asks),
            Some(FwPhase::Cede) => cede(ui, world, e, asks),
            _ => choices(ui, world, e, &focus.options, false, asks),
        }
        let others: Vec<Entity> = humans.iter().copied().filter(|&o| o != e).collect();
        if !others.is_empty() {
            ui.separator();
            ui.label("Also waiting (click to decide for them):");
            ui.horizontal_wrapped(|ui| {
                for &o in others.iter().take(LISTED) {
                    if ui.button(name(world, o)).clicked() {
                        asks.push(Ask::Focus(o));
                    }
                }
                if others.len() > LISTED {
                    ui.label(format!("… and {} more", others.len() - LISTED));
                }
            });
        }
    });
}

/// The decider's options as buttons: the possible ones first, the refused ones disabled
/// with their reason on hover.
fn choices(
    ui: &mut egui::Ui,
    world: &World,
    e: Entity,
    options: &[(FwIntent, fray_core::intent::Verdict)],
    secret: bool,
    asks: &mut Vec<Ask>,
) {
    let all: Vec<&(FwIntent, fray_core::intent::Verdict)> =
        options.iter().filter(|(i, v)| v.is_err() || worth_a_button(world, e, i)).collect();
    on_clicked_target(ui, world, e, &all, asks);
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

/// The combatant an intent is aimed at, if any.
fn target_of(intent: &FwIntent) -> Option<&CombatantId> {
    match intent {
        FwIntent::MeleeAttack { target }
        | FwIntent::RangedAttack { target }
        | FwIntent::Grapple { target }
        | FwIntent::Caltrops { target }
        | FwIntent::Medic { patient: target } => Some(target),
        _ => None,
    }
}

/// With a token clicked on the board, the decider's actions on it come first.
fn on_clicked_target(
    ui: &mut egui::Ui,
    world: &World,
    e: Entity,
    all: &[&(FwIntent, fray_core::intent::Verdict)],
    asks: &mut Vec<Ask>,
) {
    let Some(t) = world.resource::<Selection>().combatant.filter(|&t| t != e) else {
        if all.iter().any(|(i, v)| v.is_ok() && target_of(i).is_some()) {
            ui.label("Click a marked token (◎) on the board to aim at it.");
        }
        return;
    };
    let target = id(world, t);
    let aimed: Vec<_> = all.iter().filter(|(i, _)| target_of(i) == Some(&target)).collect();
    if aimed.is_empty() {
        return;
    }
    egui::Frame::group(ui.style()).show(ui, |ui| {
        ui.label(RichText::new(format!("On {} (clicked on the board)", name(world, t))).strong());
        for (intent, verdict) in aimed {
            let button = egui::Button::new(RichText::new(label(world, intent)).size(18.0));
            match verdict {
                Ok(()) => {
                    if ui.add(button).clicked() {
                        asks.push(Ask::Submit(id(world, e), intent.clone()));
                    }
                }
                Err(reason) => {
                    ui.add_enabled(false, button).on_disabled_hover_text(reason.0.clone());
                }
            }
        }
    });
}

/// Harassment: TP given target by target (dragged chips, or − / + here), then sent.
fn harassment(ui: &mut egui::Ui, world: &World, e: Entity, asks: &mut Vec<Ask>) {
    let plan = world.resource::<HarassPlan>();
    let held = world.get::<Counters>(e).map_or(0, |c| c.get(TokenKind::TacticalPoint));
    ui.label(format!(
        "Drag your TP chips (the gold discs at the top left of your token) onto targets, or use − and +. {} of {held} TP left.",
        held.saturating_sub(plan.total())
    ));
    let targets = fiend_wake::harassment::reachable(world, e);
    if targets.is_empty() {
        ui.label("The ready weapon reaches nobody.");
    }
    for t in targets {
        let given = plan.allocations.iter().find(|(x, _)| *x == t).map_or(0, |(_, tp)| *tp);
        ui.horizontal(|ui| {
            if ui.add_enabled(given > 0, egui::Button::new(" − ")).clicked() {
                asks.push(Ask::Plan(plan.changed(t, -1)));
            }
            ui.label(RichText::new(format!("{given} TP")).strong());
            let more = plan.changed(t, 1);
            let check = validate(world, e, &more.intent(world));
            let plus = ui.add_enabled(check.is_ok(), egui::Button::new(" + "));
            if let Err(reason) = &check {
                plus.on_disabled_hover_text(reason.0.clone());
            } else if plus.clicked() {
                asks.push(Ask::Plan(more));
            }
            ui.label(name(world, t));
        });
    }
    let intent = plan.intent(world);
    if !plan.allocations.is_empty() {
        let send = egui::Button::new(RichText::new(format!("{} (Enter)", label(world, &intent))).size(18.0));
        match validate(world, e, &intent) {
            Ok(_) => {
                if ui.add(send).clicked() {
                    asks.push(Ask::Submit(id(world, e), intent));
                }
            }
            Err(reason) => {
                ui.add_enabled(false, send).on_disabled_hover_text(reason.0);
            }
        }
        if ui.button("Take all chips back").clicked() {
            asks.push(Ask::Plan(HarassPlan { harasser: plan.harasser, allocations: Vec::new() }));
        }
    }
    if ui.button("Harass nobody (P)").clicked() {
        asks.push(Ask::Submit(id(world, e), FwIntent::Pass));
    }
}

/// The bids as revealed together this round, from the log.
fn revealed_bids(world: &World) -> Vec<(CombatantId, u32)> {
    let entries = world.resource::<GameLog>().entries();
    entries
        .iter()
        .rev()
        .find_map(|entry| match &entry.event {
            LogEvent::BidsRevealed { bids } => Some(bids.clone()),
            _ => None,
        })
        .unwrap_or_default()
}

/// The cede choice after a tie: every bid shown, who is tied with whom, and the two answers.
fn cede(ui: &mut egui::Ui, world: &World, e: Entity, asks: &mut Vec<Ask>) {
    let index = world.resource::<TableIndex>();
    let bids = revealed_bids(world);
    let mine = bids.iter().find(|(c, _)| *c == id(world, e)).map(|(_, tp)| *tp);
    egui::Frame::group(ui.style()).show(ui, |ui| {
        ui.label(RichText::new("Bids revealed").strong());
        for (c, tp) in &bids {
            let who = index.combatant(c).map_or_else(|| c.to_string(), |x| name(world, x));
            let tie = if Some(*tp) == mine && *c != id(world, e) { "  (tied with you)" } else { "" };
            ui.label(format!("{who}: {tp} TP{tie}"));
        }
    });
    ui.label("A tie: holding acts before those who cede; among equals, Tactics then a draw decides.");
    if ui.button(RichText::new("Hold priority (P)").size(20.0)).clicked() {
        asks.push(Ask::Submit(id(world, e), FwIntent::Cede { cede: false }));
    }
    if ui.button(RichText::new("Cede priority").size(20.0)).clicked() {
        asks.push(Ask::Submit(id(world, e), FwIntent::Cede { cede: true }));
    }
}

/// The person whose decision the panel shows in full, with that decision's options and the
/// tokens it may aim at. Worked out again only when the table, the waiting list or the
/// person asked for changes: options validate every intent, which is too much every frame
/// on a big board.
#[derive(Resource, Default)]
pub struct Focus {
    /// Who decides in the panel.
    pub decider: Option<Entity>,
    /// Their options and verdicts.
    pub options: Vec<(FwIntent, fray_core::intent::Verdict)>,
    key: Option<(usize, usize, Vec<Entity>, Option<Entity>, Option<Entity>)>,
}

fn update_focus(world: &mut World) {
    let humans: Vec<Entity> = awaiting(world)
        .into_iter()
        .filter(|&e| world.get::<Controller>(e) == Some(&Controller::Human))
        .collect();
    let state = world.resource::<PanelState>();
    let (asked, shown_for) = (state.focus, state.bid_shown_for);
    let key = Some((
        world.resource::<GameLog>().entries().len(),
        world.resource::<fray_core::intent::Outcomes>().0.len(),
        humans.clone(),
        asked,
        shown_for,
    ));
    if world.resource::<Focus>().key == key {
        return;
    }
    let secret =
        world.get_resource::<CurrentPhase<FwPhase>>().map(|p| p.get()) == Some(FwPhase::BidForPriority);
    let decider = if secret {
        shown_for.filter(|e| humans.contains(e))
    } else {
        asked.filter(|e| humans.contains(e)).or_else(|| humans.first().copied())
    };
    let options = decider.map(|e| options(world, e)).unwrap_or_default();
    let mut targets: Vec<Entity> = Vec::new();
    if !secret {
        let index = world.resource::<TableIndex>();
        for (intent, verdict) in &options {
            if verdict.is_ok()
                && let Some(t) = target_of(intent).and_then(|c| index.combatant(c))
                && !targets.contains(&t)
            {
                targets.push(t);
            }
        }
    }
    *world.resource_mut::<Focus>() = Focus { decider, options, key };
    if world.resource::<Targets>().0 != targets {
        world.resource_mut::<Targets>().0 = targets;
    }
}

/// A ring around each token the decider may aim at.
fn mark_targets(
    targets: Res<Targets>,
    tokens: Query<(&super::board::Token, &Transform)>,
    mut gizmos: Gizmos<GmGizmos>,
) {
    for (token, transform) in &tokens {
        if targets.0.contains(&token.0) {
            let at = transform.translation.truncate();
            gizmos.circle_2d(at, super::board::TOKEN * 0.78, Color::srgb(1.0, 0.95, 0.3));
            gizmos.circle_2d(at, super::board::TOKEN * 0.72, Color::srgb(1.0, 0.95, 0.3));
        }
    }
}

fn sheet(ui: &mut egui::Ui, world: &World, asks: &mut Vec<Ask>) {
    ui.heading("Combatant");
    if let Some(e) = world.resource::<Selection>().combatant.filter(|&e| world.get::<Combatant>(e).is_some())
    {
        let id = fray_core::table::id(world, e);
        let mut hidden = world.resource::<HiddenFromTable>().0.contains(&id);
        if ui
            .checkbox(&mut hidden, "Hidden from the table")
            .on_hover_text("The table's screen does not draw this combatant, its chips or its rolls")
            .changed()
        {
            asks.push(Ask::Table(TableAsk::Hide(id, hidden)));
        }
    }
    if is_fatewalker(world) {
        let mut fatewalker = Vec::new();
        fwk::sheet(ui, world, &mut fatewalker);
        asks.extend(fatewalker.into_iter().map(Ask::Fatewalker));
        return;
    }
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
    if is_fatewalker(world) {
        return fwk::dice_log(ui, world);
    }
    ui.label(RichText::new("Dice (newest first)").strong());
    egui::ScrollArea::vertical().show(ui, |ui| {
        for entry in world.resource::<GameLog>().entries().iter().rev().take(60) {
            if let LogEvent::Roll(r) = &entry.event {
                let who = entry.actor.as_ref().map_or("", |a| a.as_str());
                ui.label(format!(
                    "Round {} · {who}: {} {:?} + {} = {} against {}: {}{}",
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
            ui.set_min_width(420.0);
            ui.set_max_width(640.0);
            ui.label(RichText::new(format!("✋ {}", message.text)).size(22.0).strong());
        });
    });
}

/// E ends the active human turn, P passes or declines; shown in the UI.
fn shortcuts(ctx: &egui::Context, world: &World, asks: &mut Vec<Ask>) {
    // FateWalker's keys are none but F12; its panel says how to move and aim.
    if is_fatewalker(world) {
        return;
    }
    egui::Area::new("shortcuts".into()).anchor(egui::Align2::LEFT_BOTTOM, [260.0, -140.0]).show(ctx, |ui| {
        ui.label(
            "Keys: E end turn · P pass (bid 0, hold, decline) · Enter send the harassment · F9 table window · F10 table mode · F12 save a picture · wheel or Zoom buttons to zoom · drag the field to pan",
        );
        ui.label(LEGEND);
        ui.label("◎ ringed tokens: targets for the deciding player (click one to aim)");
    });
    if ctx.egui_wants_keyboard_input() {
        return;
    }
    let first_human =
        || awaiting(world).into_iter().find(|&e| world.get::<Controller>(e) == Some(&Controller::Human));
    let Some(e) = world.resource::<Focus>().decider.or_else(first_human) else {
        return;
    };
    let harassing =
        world.get_resource::<CurrentPhase<FwPhase>>().map(|p| p.get()) == Some(FwPhase::Harassment);
    let plan = world.resource::<HarassPlan>();
    let intent = if ctx.input(|i| i.key_pressed(egui::Key::E)) {
        Some(FwIntent::EndTurn)
    } else if harassing && !plan.allocations.is_empty() && ctx.input(|i| i.key_pressed(egui::Key::Enter)) {
        Some(plan.intent(world))
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
