//! The egui panels, for any ruleset: the phase track and the order strip at the top, the
//! decisions on the right (`decisions`), the selected combatant's sheet on the left, the
//! dice log at the bottom, and the board's messages. Large type, a UI scale setting,
//! keyboard shortcuts shown in the UI; nothing needs a modifier key or a right click.

use bevy::prelude::*;
use bevy_egui::egui::{self, LayerId, RichText, UiBuilder};
use bevy_egui::{EguiContext, EguiPrimaryContextPass, PrimaryEguiContext};
use fray_core::ai::AiLevel;
use fray_core::board::OrderMark;
use fray_core::fight::ruleset;
use fray_core::log::{GameLog, LogEvent};
use fray_core::prelude::{Combatant, Controller, Side, SideIndex, Status, TableIndex};
use fray_core::table::name;

use super::audience::{GmHidden, Seen, Viewer, hidden_from_main, main_seat, seats};
use super::board::pieces::Selection;
use super::camera::view::{BoardArea, ZoomRequest};
use super::decisions::{self, DecisionAsk};
use super::history::HistoryAsk;
use super::options::LoadError;
use super::pointer::BoardMessage;
use super::table::TableAsk;
use super::table::view::TableView;
use super::words;

/// What the panels remember between frames.
#[derive(Resource)]
struct PanelState {
    scale: f32,
    path: String,
    /// The top bar's height when the decisions panel was last followed: held under the
    /// pointer, the bar grows no shorter, so the panel below it stays put.
    top: f32,
}

impl Default for PanelState {
    fn default() -> Self {
        Self { scale: 1.25, path: String::new(), top: 0.0 }
    }
}

/// What the person asked for this frame, applied after drawing.
enum Ask {
    Decision(DecisionAsk),
    Control(Entity, Controller),
    Level(Vec<Entity>, AiLevel),
    Zoom(f32),
    Fit,
    Scale(f32),
    /// The top bar's height, followed.
    Top(f32),
    Area(BoardArea),
    ClearSelection,
    CloseLoadError,
    Path(String),
    Open(String),
    History(HistoryAsk),
    Table(TableAsk),
    Balance(super::balance::BalanceAsk),
    #[cfg(feature = "serve")]
    Invite(super::invite::InviteAsk),
    Edit(super::edit::EditAsk),
    /// The GM's window back to the GM's view.
    GmView,
    /// The GM's window to the table's view.
    TableView,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<PanelState>()
        .add_systems(EguiPrimaryContextPass, panels.in_set(super::order::Ui::Panels));
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
        let height = ctx.viewport_rect().height();
        let (top, bottom) = super::table::reserved(&world.resource::<TableView>().settings, height);
        // A board shown in part leaves room for its overview along the bottom.
        let part = world.resource::<super::camera::view::Framed>().part;
        let bottom = bottom + super::table::overview_strip(height - top - bottom, part);
        let ppp = ctx.pixels_per_point();
        let area = BoardArea { top: top * ppp, bottom: bottom * ppp, ..default() };
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
    // egui may draw a frame twice (its multi-pass mode) with the same input: only the pass
    // that is shown acts, or a key or a click would be acted on twice.
    if ctx.will_discard() {
        return;
    }
    for ask in asks {
        match ask {
            Ask::Decision(ask) => decisions::apply(world, ask),
            Ask::Control(e, c) => {
                if let Ok(mut entity) = world.get_entity_mut(e) {
                    entity.insert(c);
                }
                // What each seat sees depends on who controls whom.
                world.resource_mut::<Viewer>().set_changed();
            }
            Ask::Level(people, level) => {
                for e in people {
                    if let Ok(mut entity) = world.get_entity_mut(e) {
                        entity.insert(level);
                    }
                }
            }
            Ask::Zoom(f) => world.resource_mut::<ZoomRequest>().0 = f,
            Ask::Fit => *world.resource_mut::<super::camera::view::Framed>() = Default::default(),
            Ask::Scale(s) => world.resource_mut::<PanelState>().scale = s,
            Ask::Top(top) => world.resource_mut::<PanelState>().top = top,
            Ask::Path(p) => world.resource_mut::<PanelState>().path = p,
            Ask::Open(p) => open(world, &p),
            Ask::History(h) => super::history::apply(world, h),
            Ask::Table(a) => super::table::apply(world, a),
            Ask::Balance(a) => super::balance::apply(world, a),
            #[cfg(feature = "serve")]
            Ask::Invite(a) => super::invite::apply(world, a),
            Ask::Edit(a) => super::edit::apply(world, a),
            Ask::ClearSelection => *world.resource_mut::<Selection>() = Selection::default(),
            Ask::CloseLoadError => world.resource_mut::<LoadError>().0 = None,
            Ask::GmView => *world.resource_mut::<Viewer>() = Viewer::default(),
            Ask::TableView => {
                *world.resource_mut::<Viewer>() = Viewer::table();
            }
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
    if path.trim().is_empty() {
        let hint = "Type the path of a scenario file first, e.g. assets/scenarios/swamp.ron.";
        world.resource_mut::<LoadError>().0 = Some(hint.to_owned());
        return;
    }
    let shown = path.to_owned();
    match crate::rulesets::load(std::path::Path::new(path)) {
        Ok(scenario) => {
            scenario.start(world, scenario.seed(), scenario.default_limit(), false);
            world.resource_mut::<LoadError>().0 = None;
            *world.resource_mut::<Selection>() = Selection::default();
            *world.resource_mut::<super::camera::view::Framed>() = Default::default();
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
    let held = world.resource::<decisions::Held>().on;
    let least = if held { state.top } else { 0.0 };
    let top = egui::Panel::top("phases")
        .min_size(least)
        .show(&mut root, |ui| top_bar(ui, world, asks))
        .response
        .rect
        .height();
    if !held {
        asks.push(Ask::Top(top));
    }
    let right = egui::Panel::right("decisions")
        .exact_size(DECISIONS_WIDTH)
        .show(&mut root, |ui| {
            if super::edit::editing(world) {
                let mut edits = Vec::new();
                egui::ScrollArea::vertical().show(ui, |ui| super::edit::panel(ui, world, &mut edits));
                asks.extend(edits.into_iter().map(Ask::Edit));
                return;
            }
            let mut decided = Vec::new();
            decisions::panel(ui, world, &mut decided);
            asks.extend(decided.into_iter().map(Ask::Decision));
        })
        .response
        .rect;
    asks.push(Ask::Decision(decisions::pointer(ctx, right)));
    let right = right.width();
    // A ladder stands at the top of the sheet's column, the sheet below it: one column, so
    // that the board keeps the width its text needs to stay readable.
    let ladder =
        ruleset(world).and_then(|r| r.view().order(world)).filter(|o| o.ladder).map(|o| seen_order(world, o));
    let left = egui::Panel::left("sheet")
        .exact_size(SHEET_WIDTH)
        .show(&mut root, |ui| {
            if let Some(order) = &ladder {
                ladder_column(ui, world, order);
                ui.separator();
            }
            egui::ScrollArea::vertical().id_salt("sheet").show(ui, |ui| {
                sheet(ui, world, asks);
                ui.separator();
                help(ui, world);
            });
        })
        .response
        .rect
        .width();
    // Sized to its content: one line until there is a roll, then a few.
    let bottom = egui::Panel::bottom("dice")
        .resizable(false)
        .show(&mut root, |ui| dice_log(ui, world))
        .response
        .rect
        .height();
    // What the panels leave: the board's room, where floating windows stand.
    let room = root.available_rect_before_wrap();
    let ppp = ctx.pixels_per_point();
    asks.push(Ask::Area(BoardArea {
        left: left * ppp,
        right: right * ppp,
        top: top * ppp,
        bottom: bottom * ppp,
    }));
    message(ctx, world, top, room);
    if let Some(error) = &world.resource::<LoadError>().0 {
        egui::Window::new("Cannot open the scenario").anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0]).show(ctx, |ui| {
            ui.label(RichText::new(error).color(egui::Color32::LIGHT_RED));
            ui.label("Fix the file and open it again (`fray play PATH`); `fray check PATH` explains every problem.");
            if ui.button("Close").clicked() {
                asks.push(Ask::CloseLoadError);
            }
        });
    }
    shortcuts(ctx, world, asks);
    let mut balance = Vec::new();
    super::balance::window(ctx, world, room, &mut balance);
    asks.extend(balance.into_iter().map(Ask::Balance));
    #[cfg(feature = "serve")]
    {
        let mut invite = Vec::new();
        super::invite::window(ctx, world, &mut invite);
        asks.extend(invite.into_iter().map(Ask::Invite));
    }
    let mut history = Vec::new();
    super::history::resume_dialog(ctx, world, &mut history);
    asks.extend(history.into_iter().map(Ask::History));
}

/// The clock and the phase track (▶ the current step), the window's controls, then the
/// order strip and who the rules wait on.
fn top_bar(ui: &mut egui::Ui, world: &World, asks: &mut Vec<Ask>) {
    let open = !world.resource::<TableIndex>().combatants.is_empty();
    let editing = super::edit::editing(world);
    // In edit mode the table stands at the fight's start: no clock, order or waiting.
    let rules = ruleset(world).filter(|_| open && !editing);
    ui.horizontal_wrapped(|ui| {
        match &rules {
            None if editing => {
                ui.label(RichText::new("Edit mode").strong().size(20.0).color(egui::Color32::YELLOW));
            }
            None => {
                ui.label(RichText::new("No scenario open").strong().size(20.0));
            }
            Some(rules) => phase_track(ui, world, rules.as_ref()),
        }
        ui.separator();
        seat_buttons(ui, world, asks);
        view_buttons(ui, world, asks);
        file_buttons(ui, world, editing, asks);
        ui.separator();
        let scale = world.resource::<PanelState>().scale;
        if ui.button("Text −").clicked() {
            asks.push(Ask::Scale((scale - 0.1).max(0.8)));
        }
        if ui.button("Text +").clicked() {
            asks.push(Ask::Scale((scale + 0.1).min(2.5)));
        }
        ui.separator();
        if ui.button("Balance").on_hover_text("B: how this fight goes over many battles").clicked() {
            asks.push(Ask::Balance(super::balance::BalanceAsk::Toggle));
        }
        #[cfg(feature = "serve")]
        {
            let mut invite = Vec::new();
            super::invite::button(ui, world, &mut invite);
            asks.extend(invite.into_iter().map(Ask::Invite));
        }
        let mut table = Vec::new();
        super::table::menu(ui, world, &mut table);
        asks.extend(table.into_iter().map(Ask::Table));
    });
    let Some(rules) = rules else { return };
    let waiting: Vec<Entity> =
        rules.awaiting(world).into_iter().filter(|&e| !hidden_from_main(world, e)).collect();
    if let Some(order) = rules.view().order(world).filter(|o| !o.ladder) {
        order_strip(ui, world, &seen_order(world, order), &waiting);
    }
    waiting_line(ui, world, &waiting);
}

/// The order as the GM window's seat may see it: those it may not see taken out, the
/// happenings kept where they stood among the rest.
fn seen_order(world: &World, mut order: fray_core::board::OrderView) -> fray_core::board::OrderView {
    let shown: Vec<bool> = order.entries.iter().map(|o| !hidden_from_main(world, o.who)).collect();
    if shown.iter().all(|s| *s) {
        return order;
    }
    for event in &mut order.events {
        event.before = shown[..event.before.min(shown.len())].iter().filter(|s| **s).count();
    }
    let mut kept = shown.into_iter();
    order.entries.retain(|_| kept.next().unwrap_or(true));
    order
}

/// The way back to the GM's view, or to the table's: what the monitor shows everyone.
fn seat_buttons(ui: &mut egui::Ui, world: &World, asks: &mut Vec<Ask>) {
    if main_seat(world) != fray_core::seat::Seat::Gm {
        let gm = ui.button(RichText::new("GM view (G)").strong());
        if gm.on_hover_text("Show the GM's view: everything, every secret").clicked() {
            asks.push(Ask::GmView);
        }
    } else if ui
        .button("Table view (T)")
        .on_hover_text("Show what the table may see (no sealed choice, no hidden combatant) until G")
        .clicked()
    {
        asks.push(Ask::TableView);
    }
}

/// The clock, and the phase track with the current step marked.
fn phase_track(ui: &mut egui::Ui, world: &World, rules: &dyn fray_core::ruleset::AnyRuleset) {
    if let Some(session) = world.get_resource::<fray_core::fight::Session>() {
        ui.label(RichText::new(session.scenario.name()).strong().size(20.0).color(egui::Color32::LIGHT_BLUE));
        ui.label("·");
    }
    let clock = world.resource::<GameLog>().clock();
    ui.label(RichText::new(rules.clock_title(clock)).strong().size(20.0));
    let phase = rules.phase(world);
    for (i, step) in phase.track.iter().enumerate() {
        let text = if phase.at == Some(i) {
            RichText::new(format!("▶ {step}")).strong().size(18.0).color(egui::Color32::YELLOW)
        } else {
            RichText::new(*step).size(16.0)
        };
        ui.label(text);
        ui.label("›");
    }
    if phase.over {
        ui.label(RichText::new(format!("■ {}", phase.title)).strong().size(18.0));
    }
}

/// Zoom, fit, and (in the GM's window) whether the whole board is shown however small.
fn view_buttons(ui: &mut egui::Ui, world: &World, asks: &mut Vec<Ask>) {
    if ui.button("Zoom −").clicked() {
        asks.push(Ask::Zoom(1.2));
    }
    if ui.button("Zoom +").clicked() {
        asks.push(Ask::Zoom(1.0 / 1.2));
    }
    let fit = "the whole board, as large as fits; a board too big to read whole is shown around whoever acts, and follows the turn";
    if ui.button("Fit").on_hover_text(fit).clicked() {
        asks.push(Ask::Fit);
    }
    let view = world.resource::<super::table::view::TableView>();
    if !view.mode {
        let whole = view.settings.whole_board;
        let part = world.resource::<super::camera::view::Framed>().part;
        let now = if part && !whole { "\n(now: part of the board is shown)" } else { "" };
        let tip = format!(
            "on: the whole board however small its text; off: a board whose text would drop under 12 px is shown in part, around whoever acts (pan by dragging the field){now}"
        );
        if ui.selectable_label(whole, "Whole board").on_hover_text(tip).clicked() {
            asks.push(Ask::Table(super::table::TableAsk::WholeBoard(!whole)));
        }
    }
}

/// The scenario file to open, edit mode, and (in play) undo and redo.
fn file_buttons(ui: &mut egui::Ui, world: &World, editing: bool, asks: &mut Vec<Ask>) {
    let mut path = world.resource::<PanelState>().path.clone();
    ui.label("Scenario file:");
    if ui.add(egui::TextEdit::singleline(&mut path).desired_width(220.0)).changed() {
        asks.push(Ask::Path(path.clone()));
    }
    if ui.button("Open").clicked() {
        asks.push(Ask::Open(path));
    }
    ui.separator();
    let words = if editing { "Play this (F2)" } else { "Edit scenario (F2)" };
    let tip = "edit mode: change the scenario on the board (the fight so far stays in its autosave)";
    if ui.selectable_label(editing, words).on_hover_text(tip).clicked() {
        asks.push(Ask::Edit(super::edit::EditAsk::Toggle));
    }
    // In edit mode the editor's panel has its own undo and redo.
    if !editing {
        let mut history = Vec::new();
        super::history::controls(ui, world, &mut history);
        asks.extend(history.into_iter().map(Ask::History));
    }
}

/// The order strip. Each entry stays on one line; the strip wraps between entries. A long
/// order shows the entries around the first to act, and counts the others.
fn order_strip(ui: &mut egui::Ui, world: &World, order: &fray_core::board::OrderView, waiting: &[Entity]) {
    let names = super::board::names::all_names(world);
    let everyone: Vec<&str> = names.iter().map(String::as_str).collect();
    let first = order.entries.iter().position(|e| e.mark == OrderMark::Now || waiting.contains(&e.who));
    let from = first.unwrap_or(0).saturating_sub(2).min(order.entries.len().saturating_sub(ORDER_SHOWN));
    let to = (from + ORDER_SHOWN).min(order.entries.len());
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new(format!("{}:", order.title)).strong());
        if from > 0 {
            ui.label(format!("… {from} before |"));
        }
        for (i, entry) in order.entries.iter().enumerate().take(to).skip(from) {
            for event in order.events.iter().filter(|ev| ev.before == i) {
                ui.label(RichText::new(format!("event: {}", event.what)).italics());
                ui.label("|");
            }
            let asked = waiting.contains(&entry.who);
            let first = super::board::names::shown_name(&name(world, entry.who), &everyone).into_owned();
            let when = if entry.when.is_empty() { String::new() } else { format!(": {}", entry.when) };
            let now = if entry.mark == OrderMark::Now { " · now" } else { "" };
            let deciding = if asked { " · deciding" } else { "" };
            let text = RichText::new(format!("{} {first}{when}{now}{deciding}", entry.mark.sign()));
            let text = if entry.mark == OrderMark::Now || asked {
                text.strong().color(egui::Color32::YELLOW)
            } else {
                text
            };
            ui.add(egui::Label::new(text).wrap_mode(egui::TextWrapMode::Extend));
            ui.label("|");
        }
        if to < order.entries.len() {
            ui.label(format!("… and {} more", order.entries.len() - to));
        }
        for event in order.events.iter().filter(|ev| ev.before >= order.entries.len()) {
            ui.label(RichText::new(format!("event: {}", event.what)).italics());
        }
    });
}

/// Who the rules wait on, and whether a player or the AI decides for each.
fn waiting_line(ui: &mut egui::Ui, world: &World, waiting: &[Entity]) {
    let mut names: Vec<String> = waiting
        .iter()
        .take(WAITING_SHOWN)
        .map(|&e| {
            let controller = world.get::<Controller>(e).cloned().unwrap_or_default();
            let who = match controller {
                Controller::Ai => "AI".to_owned(),
                Controller::Gm => "GM".to_owned(),
                Controller::Player(_) => seats(world).who(&controller),
            };
            format!("{} ({who})", name(world, e))
        })
        .collect();
    if waiting.len() > WAITING_SHOWN {
        names.push(format!("and {} more", waiting.len() - WAITING_SHOWN));
    }
    if !names.is_empty() {
        ui.label(format!("Waiting on: {}", names.join(", ")));
    }
}

/// How many entries of a turn order the GM's top bar shows (a big board's order is 200 long).
const ORDER_SHOWN: usize = 16;
/// How many of those waiting the top bar names.
const WAITING_SHOWN: usize = 8;

/// A ladder, top first: each rung's mark, name and words (the one deciding in yellow), and
/// the happenings where they sit.
/// The side panels' widths, in points: narrow enough that at 1600x900 most boards show whole
/// with no text under 12 px.
const SHEET_WIDTH: f32 = 224.0;
const DECISIONS_WIDTH: f32 = 264.0;

/// The ladder at the top of the sheet's column: one line a rung, at most half the column high
/// (scrolled beyond).
fn ladder_column(ui: &mut egui::Ui, world: &World, order: &fray_core::board::OrderView) {
    ui.heading(order.title);
    let waiting: Vec<Entity> = ruleset(world)
        .map(|r| r.awaiting(world))
        .unwrap_or_default()
        .into_iter()
        .filter(|&e| !hidden_from_main(world, e))
        .collect();
    let event = |ui: &mut egui::Ui, what: &str| {
        ui.label(
            RichText::new(format!("event {what}")).italics().color(egui::Color32::from_rgb(220, 190, 120)),
        );
    };
    let half = ui.available_height() / 2.0;
    egui::ScrollArea::vertical().id_salt("ladder").max_height(half).show(ui, |ui| {
        for (i, entry) in order.entries.iter().enumerate() {
            for ev in order.events.iter().filter(|ev| ev.before == i) {
                event(ui, &ev.what);
            }
            let asked = waiting.contains(&entry.who);
            let text = RichText::new(format!("{} {}", entry.mark.sign(), name(world, entry.who))).strong();
            let text =
                if entry.mark == OrderMark::Now || asked { text.color(egui::Color32::YELLOW) } else { text };
            let deciding = if asked { " · deciding" } else { "" };
            ui.horizontal_wrapped(|ui| {
                ui.label(text);
                ui.label(format!("{}{deciding}", entry.when));
            });
        }
        for ev in order.events.iter().filter(|ev| ev.before >= order.entries.len()) {
            event(ui, &ev.what);
        }
    });
}

/// The selected combatant's sheet: name, side, status, who controls it, whether the table
/// sees it, then the ruleset's lines; or the selected location and its reach.
fn sheet(ui: &mut egui::Ui, world: &World, asks: &mut Vec<Ask>) {
    ui.heading("Combatant");
    let selection = *world.resource::<Selection>();
    // Cards to reach and drop on: a board of locations with some listed.
    let locations = ruleset(world).is_none_or(|r| r.space().locations)
        && world.get_resource::<TableIndex>().is_some_and(|i| !i.location_order.is_empty());
    if locations && (selection.combatant.is_some() || selection.location.is_some()) {
        ui.label("Reach view: cards show how many moves away they are (turns and costs aside).");
        if ui.button("Clear the selection").clicked() {
            asks.push(Ask::ClearSelection);
        }
    }
    if let Some(l) = selection.location {
        ui.label(RichText::new(fray_core::location::place_name(world, l)).strong().size(20.0));
    }
    let Some(e) =
        selection.combatant.filter(|&e| world.get::<Combatant>(e).is_some() && !hidden_from_main(world, e))
    else {
        ui.label(if locations {
            "Click a token to see its sheet, or a card for its reach. Drag a token onto a card to move it there."
        } else {
            "Click a token to see its sheet; while someone decides, clicking another token aims at it. Drag a token to move it."
        });
        return;
    };
    let id = fray_core::table::id(world, e);
    let gm = main_seat(world) == fray_core::seat::Seat::Gm;
    let mut hidden = world.resource::<GmHidden>().0.contains(&id);
    let by_rules = !hidden && world.resource::<super::audience::HiddenFromTable>().0.contains(&id);
    if gm && by_rules {
        ui.label(RichText::new("Concealed by the rules: not on the table's screen").weak());
    } else if gm
        && ui
            .checkbox(&mut hidden, "Hidden from the table")
            .on_hover_text("The table's screen does not draw this combatant, its chips or its rolls")
            .changed()
    {
        asks.push(Ask::Table(TableAsk::Hide(id.clone(), hidden)));
    }
    ui.label(RichText::new(name(world, e)).strong().size(20.0));
    if let Some(side) = world.get::<Side>(e) {
        ui.label(format!("Side: {}", side.0));
    }
    let status = world.get::<Status>(e).copied().unwrap_or_default();
    ui.label(format!("Status: {status:?}"));
    if !gm {
        // Another seat's view: the sheet as that seat has it, or none.
        let view = world.resource::<Seen>().main.as_ref();
        let Some(sheet) = view.and_then(|v| v.sheets.iter().find(|s| s.who == id)) else {
            ui.label(RichText::new("Not your sheet: only its player and the GM see it.").weak());
            return;
        };
        for (heading, text) in &sheet.rows {
            ui.label(if *heading { RichText::new(text).strong() } else { RichText::new(text) });
        }
        return;
    }
    controller_picker(ui, world, e, asks);
    let Some(rules) = ruleset(world) else { return };
    for row in rules.view().sheet(world, e) {
        if row.heading {
            ui.label(RichText::new(row.text).strong());
        } else {
            ui.label(row.text);
        }
    }
}

/// Who decides for the combatant, and a button for each other choice: the GM, each
/// player's seat, the AI.
fn controller_picker(ui: &mut egui::Ui, world: &World, e: Entity, asks: &mut Vec<Ask>) {
    let controller = world.get::<Controller>(e).cloned().unwrap_or_default();
    let seats = seats(world);
    ui.label(format!("Controlled by {}", seats.who(&controller)));
    ui.horizontal_wrapped(|ui| {
        for choice in seats.choices() {
            let label = match &choice {
                Controller::Gm => "GM".to_owned(),
                Controller::Ai => "AI".to_owned(),
                Controller::Player(_) => seats.who(&choice),
            };
            if ui.selectable_label(choice == controller, label).clicked() && choice != controller {
                asks.push(Ask::Control(e, choice));
            }
        }
    });
    if controller == Controller::Ai {
        ai_level_picker(ui, world, e, asks);
    }
    // Also once handed to a person: the GM may want to know why the AI did what it did.
    super::reasons::show(ui, world, e);
}

/// The AI's level for the combatant, and the same for every AI combatant of its side at a
/// click.
fn ai_level_picker(ui: &mut egui::Ui, world: &World, e: Entity, asks: &mut Vec<Ask>) {
    let level = fray_core::ai::level(world, e);
    ui.horizontal_wrapped(|ui| {
        ui.label("AI level:");
        for choice in AiLevel::ALL {
            if ui.selectable_label(choice == level, choice.name()).clicked() && choice != level {
                asks.push(Ask::Level(vec![e], choice));
            }
        }
        let side = world.get::<SideIndex>(e).copied();
        let index = world.resource::<TableIndex>();
        let mates: Vec<Entity> = index
            .order
            .iter()
            .copied()
            .filter(|&m| {
                world.get::<SideIndex>(m).copied() == side
                    && world.get::<Controller>(m) == Some(&Controller::Ai)
            })
            .collect();
        let all_same = mates.iter().all(|&m| fray_core::ai::level(world, m) == level);
        if ui
            .add_enabled(!all_same, egui::Button::new("Whole side"))
            .on_hover_text("Every AI combatant of this side at this level")
            .clicked()
        {
            asks.push(Ask::Level(mates, level));
        }
    });
}

/// One line with the newest roll; unfolded, the rolls before it in a few lines of their own.
/// Its height changes only when the GM folds or unfolds it, so the board is not reframed
/// under the pointer when the first roll comes.
fn dice_log(ui: &mut egui::Ui, world: &World) {
    let Some(rules) = ruleset(world) else { return };
    let seat = main_seat(world);
    let gm = seat == fray_core::seat::Seat::Gm;
    let rolls: Vec<String> = world
        .resource::<GameLog>()
        .entries()
        .iter()
        .rev()
        .filter(|entry| gm || readable(world, &seat, entry))
        .filter_map(|entry| match &entry.event {
            LogEvent::Roll(r) => {
                let who = entry.actor.as_ref().map(|a| words::who(world, a)).unwrap_or_default();
                Some(format!("{} · {}", rules.clock_title(entry.clock), words::roll_line(world, &who, r)))
            }
            _ => None,
        })
        .take(60)
        .collect();
    let last = rolls.first().map_or("no roll yet", String::as_str);
    // One line whatever the roll says: a wrapped line would change the board's room.
    ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Truncate);
    egui::CollapsingHeader::new(RichText::new(format!("Dice (newest first): {last}")).strong())
        .id_salt("dice_log")
        .default_open(false)
        .show(ui, |ui| {
            let height = DICE_LINES * ui.text_style_height(&egui::TextStyle::Body);
            egui::ScrollArea::vertical()
                .min_scrolled_height(height)
                .max_height(height)
                .auto_shrink(false)
                .show(ui, |ui| {
                    for roll in rolls.iter().skip(1) {
                        ui.label(roll);
                    }
                });
        });
}

/// Whether another seat than the GM's may read a log line: none written about a combatant
/// while it was concealed (but its own), and none by or naming one it may not see.
fn readable(world: &World, seat: &fray_core::seat::Seat, entry: &fray_core::log::LogEntry) -> bool {
    let index = world.resource::<TableIndex>();
    let actor = entry.actor.as_ref().and_then(|a| index.combatant(a));
    let own = actor.and_then(|e| world.get::<Controller>(e)).is_some_and(|c| seat.decides(c));
    if entry.concealed && !own {
        return false;
    }
    let hidden = &world.resource::<super::audience::HiddenFromMain>().0;
    if entry.actor.as_ref().is_some_and(|a| hidden.contains(a)) {
        return false;
    }
    let LogEvent::Roll(roll) = &entry.event else { return true };
    let said = format!("{} {}", roll.describe(), roll.told.as_deref().unwrap_or_default());
    !hidden.iter().any(|id| index.combatant(id).is_some_and(|e| said.contains(name(world, e).as_str())))
}

/// Earlier rolls the open dice log shows without scrolling.
const DICE_LINES: f32 = 4.0;

/// The board's message (a refused move, the window turning to another view) over the top of
/// the board's room, below the top bar: never over the priority strip or a panel.
fn message(ctx: &egui::Context, world: &World, top: f32, room: egui::Rect) {
    let message = world.resource::<BoardMessage>();
    if message.text.is_empty() || message.timer.is_finished() {
        return;
    }
    let x = room.center().x - ctx.viewport_rect().center().x;
    egui::Area::new("board_message".into()).anchor(egui::Align2::CENTER_TOP, [x, top + 8.0]).show(
        ctx,
        |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.set_min_width(420.0);
                ui.set_max_width(640.0);
                ui.label(RichText::new(format!("✋ {}", message.text)).size(22.0).strong());
            });
        },
    );
}

/// E, P and Enter take the decider's choices marked for them; G and T turn the window to the
/// GM's view and the table's; B opens the balance lab.
fn shortcuts(ctx: &egui::Context, world: &World, asks: &mut Vec<Ask>) {
    if !ctx.egui_wants_keyboard_input() && ctx.input(|i| i.key_pressed(egui::Key::F2)) {
        asks.push(Ask::Edit(super::edit::EditAsk::Toggle));
    }
    if super::edit::editing(world) {
        return;
    }
    if let Some(ask) = decisions::shortcut(ctx, world) {
        asks.push(Ask::Decision(ask));
    }
    if !ctx.egui_wants_keyboard_input() && ctx.input(|i| i.key_pressed(egui::Key::G)) {
        asks.push(Ask::GmView);
    }
    if !ctx.egui_wants_keyboard_input() && ctx.input(|i| i.key_pressed(egui::Key::T)) {
        asks.push(Ask::TableView);
    }
    if !ctx.egui_wants_keyboard_input() && ctx.input(|i| i.key_pressed(egui::Key::B)) {
        asks.push(Ask::Balance(super::balance::BalanceAsk::Toggle));
    }
}

/// The keys and the chips' legend, under the sheet, folded away on request.
fn help(ui: &mut egui::Ui, world: &World) {
    egui::CollapsingHeader::new(RichText::new("Keys and chips").strong()).default_open(true).show(ui, |ui| {
        for line in [
            "E end turn · P pass (hold, decline) · Enter send an allocation",
            "B balance · F2 edit the scenario · F9 table window · F10 table mode · F12 save a picture",
            "Wheel or Zoom to zoom · drag the field to pan · Fit frames the board again",
        ] {
            ui.label(line);
        }
        if let Some(legend) = super::chips::legend(world) {
            ui.label(legend);
        }
        ui.label("◎ ringed tokens: targets for the deciding player (click one to aim)");
        ui.label("Rings round a token: orange wounded · blue-grey unconscious · dark red dead · grey fled · white surrendered · pale blue hidden from the table");
        ui.label("Rims: each side has its own pattern (plain, double, dashed, dotted)");
    });
}
