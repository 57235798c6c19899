//! The form beside the board: a location's or combatant's name, cost, properties and sheet,
//! what may be added from templates, the file's own commands, and the confirmations.

use bevy::prelude::*;
use bevy_egui::egui;
use bevy_egui::egui::RichText;
use fray_core::edit::ScenarioEdit;
use fray_core::fight::Session;
use fray_core::ids::LocationId;
use fray_core::location::{EnteredFrom, Location, OpenField};
use fray_core::prelude::TableIndex;
use fray_core::ruleset::Rulesets;
use fray_core::table::{Mount, Rides};

use super::keys::keys;
use super::state::{CardTool, EditAsk, Editor};
use crate::client::board::pieces::Selection;
use crate::lab::sweep::SheetNumber;

/// The editor's panel (beside the board, in place of the decisions): the tools, the file,
/// the selected location's or combatant's form, and the file's problems.
pub(crate) fn panel(ui: &mut egui::Ui, world: &World, asks: &mut Vec<EditAsk>) {
    let editor = world.resource::<Editor>();
    let Some(session) = world.get_resource::<Session>() else { return };
    ui.heading("Editing the scenario");
    let file = session.scenario.path.as_ref().map_or("no file yet".to_owned(), |p| p.display().to_string());
    let unsaved = if editor.unsaved(world) { " · unsaved changes" } else { "" };
    ui.label(format!("{} · {file}{unsaved}", session.scenario.name()));
    if !editor.problems.is_empty() {
        ui.label(
            RichText::new("The file on disk is broken; the board shows the last good version:")
                .color(egui::Color32::LIGHT_RED),
        );
        for problem in &editor.problems {
            ui.label(RichText::new(problem).color(egui::Color32::LIGHT_RED));
        }
    }
    history_row(ui, editor, asks);
    ui.separator();
    if crate::client::board::pieces::space(world).locations {
        cards_help(ui, editor, asks);
    }
    ui.label("Drag a token or a mount to where it starts; drop a combatant on a mount to have it ride.");
    add_form(ui, world, editor, asks);
    mounts_form(ui, world, editor, asks);
    super::seats::seats_form(ui, world, asks);
    super::scenery::add_form(ui, world, asks);
    ui.separator();
    let selection = *world.resource::<Selection>();
    if let Some(place) = selection.location.filter(|&p| world.get::<OpenField>(p).is_none()) {
        location_form(ui, world, editor, place, asks);
    } else if let Some(who) = selection.combatant.filter(|&e| world.get_entity(e).is_ok()) {
        combatant_form(ui, world, editor, who, asks);
    } else if !super::scenery::piece_form(ui, world, editor, asks) {
        ui.label("Click a card, a token or a circle of scenery to edit it.");
    }
    ui.separator();
    file_form(ui, world, editor, asks);
    confirm_dialog(ui.ctx(), editor, asks);
    super::problems::draw_problem_words(ui.ctx(), world);
    super::scenery::drag_words(ui.ctx(), world);
    keys(ui.ctx(), world, asks);
    let typing = ui.ctx().egui_wants_keyboard_input();
    if typing != editor.typing {
        asks.push(EditAsk::Typing(typing));
    }
}

/// Undo, redo, save, and back to play.
fn history_row(ui: &mut egui::Ui, editor: &Editor, asks: &mut Vec<EditAsk>) {
    ui.horizontal_wrapped(|ui| {
        let (undo, redo) = editor.steps();
        if ui.add_enabled(undo > 0, egui::Button::new("Undo (Ctrl+Z)")).clicked() {
            asks.push(EditAsk::Undo);
        }
        if ui.add_enabled(redo > 0, egui::Button::new("Redo (Ctrl+Y)")).clicked() {
            asks.push(EditAsk::Redo);
        }
        if ui.button("Save (Ctrl+S)").clicked() {
            asks.push(EditAsk::Save);
        }
        let play = ui.add_enabled(
            editor.problems.is_empty(),
            egui::Button::new(RichText::new("Play this (F2)").strong()),
        );
        if play.on_disabled_hover_text("fix the file's problems first").clicked() {
            asks.push(EditAsk::Toggle);
        }
    });
}

/// How cards are dragged, joined and added.
fn cards_help(ui: &mut egui::Ui, editor: &Editor, asks: &mut Vec<EditAsk>) {
    ui.label(RichText::new("Cards").strong());
    ui.horizontal_wrapped(|ui| {
        ui.label("Drag a card to:");
        if ui.radio(editor.tool == CardTool::Move, "move it").clicked() {
            asks.push(EditAsk::Tool(CardTool::Move));
        }
        if ui.radio(editor.tool == CardTool::Connect, "draw an arrow (C)").clicked() {
            asks.push(EditAsk::Tool(CardTool::Connect));
        }
    });
    let mut both = editor.both_ways;
    if ui.checkbox(&mut both, "arrows both ways (or hold Shift)").changed() {
        asks.push(EditAsk::BothWays(both));
    }
    ui.label("An arrow means: the card it points to may be entered from the other. Click an arrow (red under the pointer) to take it away.");
    if ui.button("Add a location (A: under the pointer)").clicked() {
        asks.push(EditAsk::AddLocation);
    }
    ui.label("Selected card: R rename · N entered from the open field on/off · Delete");
}

/// The selected location's form.
fn location_form(ui: &mut egui::Ui, world: &World, editor: &Editor, place: Entity, asks: &mut Vec<EditAsk>) {
    let Some(location) = world.get::<Location>(place) else { return };
    let id = location.id.clone();
    ui.label(RichText::new(format!("Location {id}")).strong());
    ui.horizontal(|ui| {
        ui.label("Name:");
        let mut name = match &editor.name_draft {
            Some((draft_id, text)) if *draft_id == id => text.clone(),
            _ => location.name.clone(),
        };
        let output =
            egui::TextEdit::singleline(&mut name).desired_width(170.0).id_salt("location name").show(ui);
        let field = output.response.response.clone();
        if editor.focus_name {
            // The whole name selected: what is typed replaces it.
            field.request_focus();
            let mut state = output.state;
            let all = egui::text_selection::CCursorRange::two(
                egui::text::CCursor::new(0),
                egui::text::CCursor::new(name.chars().count()),
            );
            state.cursor.set_char_range(Some(all));
            state.store(ui.ctx(), field.id);
            asks.push(EditAsk::NameFocused);
        }
        if field.changed() {
            asks.push(EditAsk::NameDraft(Some((id.clone(), name.clone()))));
        }
        let done = field.lost_focus() || ui.input(|i| i.key_pressed(egui::Key::Enter)) && field.has_focus();
        if done && name != location.name {
            asks.push(EditAsk::Edit(vec![ScenarioEdit::RenameLocation { id: id.clone(), name }]));
        }
    });
    ui.label("Entered from (× takes it away):");
    let sources = world.get::<EnteredFrom>(place).map(|f| f.0.clone()).unwrap_or_default();
    let field_id = LocationId::field();
    let mut from_field = false;
    for source in sources {
        let Some(from) = world.get::<Location>(source) else { continue };
        let shown = if from.id == field_id {
            from_field = true;
            "the open field".to_owned()
        } else {
            from.name.clone()
        };
        if ui.button(format!("× {shown}")).clicked() {
            asks.push(EditAsk::Edit(vec![ScenarioEdit::SetEntry {
                from: from.id.clone(),
                to: id.clone(),
                allowed: false,
            }]));
        }
    }
    if !from_field && ui.button("+ the open field").clicked() {
        asks.push(EditAsk::Edit(vec![ScenarioEdit::SetEntry {
            from: field_id,
            to: id.clone(),
            allowed: true,
        }]));
    }
    properties_form(ui, world, editor, &id, asks);
    if ui.button(RichText::new("Delete this location").color(egui::Color32::LIGHT_RED)).clicked() {
        asks.push(EditAsk::DeleteLocation(id));
    }
}

/// "Add": a combatant or a mount from the ruleset's templates, on a side.
fn add_form(ui: &mut egui::Ui, world: &World, editor: &Editor, asks: &mut Vec<EditAsk>) {
    let Some((_, list)) = &editor.templates else { return };
    let Some(picked) = list.get(editor.template_pick) else { return };
    ui.horizontal(|ui| {
        ui.label("Add");
        let width = ui.available_width() - 20.0;
        egui::ComboBox::from_id_salt("add template")
            .width(width)
            .truncate()
            .selected_text(picked.label())
            .show_ui(ui, |ui| {
                for (n, template) in list.iter().enumerate() {
                    if ui.selectable_label(n == editor.template_pick, template.label()).clicked() {
                        asks.push(EditAsk::PickTemplate(n));
                    }
                }
            });
    });
    ui.horizontal(|ui| {
        if !picked.piece.mount {
            let sides = &world.resource::<TableIndex>().sides;
            let shown = sides.get(editor.side_pick).map_or("", |(_, name)| name.as_str());
            let width = ui.available_width() - 80.0;
            egui::ComboBox::from_id_salt("add side")
                .width(width)
                .truncate()
                .selected_text(format!("for {shown}"))
                .show_ui(ui, |ui| {
                    for (n, (_, name)) in sides.iter().enumerate() {
                        if ui.selectable_label(n == editor.side_pick, name).clicked() {
                            asks.push(EditAsk::PickSide(n));
                        }
                    }
                });
        }
        let add = ui.button("Add (T)").on_hover_text("T adds it under the pointer; the button, mid-board");
        if add.clicked() {
            asks.push(EditAsk::AddPiece);
        }
    });
}

/// The scenario's mounts, each with its rider, to copy or delete, and its sheet.
fn mounts_form(ui: &mut egui::Ui, world: &World, editor: &Editor, asks: &mut Vec<EditAsk>) {
    let index = world.resource::<TableIndex>();
    if index.mounts.is_empty() {
        return;
    }
    let header = egui::CollapsingHeader::new(format!("Mounts ({})", index.mounts.len())).id_salt("mounts");
    header.show(ui, |ui| {
        for (id, &e) in &index.mounts {
            let Some(mount) = world.get::<Mount>(e) else { continue };
            let rider = index.order.iter().find(|&&c| world.get::<Rides>(c).is_some_and(|r| r.0 == e));
            let rider = rider.map_or("no rider".to_owned(), |&c| {
                format!("ridden by {}", fray_core::table::name(world, c))
            });
            ui.label(RichText::new(format!("{} ({id}), {rider}", mount.name)).strong());
            ui.horizontal(|ui| {
                if ui.small_button("Copy").clicked() {
                    asks.push(EditAsk::Edit(vec![ScenarioEdit::CopyMount { id: id.clone() }]));
                }
                if ui.small_button(RichText::new("Delete").color(egui::Color32::LIGHT_RED)).clicked() {
                    asks.push(EditAsk::Edit(vec![ScenarioEdit::DeleteMount { id: id.clone() }]));
                }
            });
            sheet_form(ui, world, editor, id.as_str(), false, asks);
        }
    });
}

fn combatant_form(ui: &mut egui::Ui, world: &World, editor: &Editor, who: Entity, asks: &mut Vec<EditAsk>) {
    let id = fray_core::table::id(world, who);
    ui.label(RichText::new(format!("{} ({id})", fray_core::table::name(world, who))).strong());
    let index = world.resource::<TableIndex>();
    let side = world.get::<fray_core::prelude::SideIndex>(who).map(|s| s.0 as usize);
    ui.horizontal_wrapped(|ui| {
        ui.label("Side:");
        for (n, (side_id, side_name)) in index.sides.iter().enumerate() {
            if ui.radio(side == Some(n), side_name).clicked() && side != Some(n) {
                asks.push(EditAsk::Edit(vec![ScenarioEdit::SetSide {
                    id: id.clone(),
                    side: side_id.clone(),
                }]));
            }
        }
    });
    super::seats::played_by(ui, world, who, &id, asks);
    ui.horizontal(|ui| {
        if ui.button("Copy (D)").clicked() {
            asks.push(EditAsk::Edit(vec![ScenarioEdit::CopyCombatant { id: id.clone() }]));
        }
        if ui.button(RichText::new("Delete").color(egui::Color32::LIGHT_RED)).clicked() {
            asks.push(EditAsk::Edit(vec![ScenarioEdit::DeleteCombatant { id: id.clone() }]));
        }
    });
    sheet_form(ui, world, editor, id.as_str(), true, asks);
}

/// A location's properties from the ruleset's own list: each one's number or words set in
/// place, taken away with ×, added from the list.
/// A property's number, dragged or typed: the draft is kept while the field is busy, and
/// once it is done, a number that differs is written.
fn number_field(
    ui: &mut egui::Ui,
    editor: &Editor,
    (key, number): ((String, String), f64),
    write: impl FnOnce(f64) -> EditAsk,
    asks: &mut Vec<EditAsk>,
) {
    let draft = match &editor.number_draft {
        Some((who, field, v)) if (who, field) == (&key.0, &key.1) => Some(*v),
        _ => None,
    };
    let mut value = draft.unwrap_or(number);
    let response = ui.add(egui::DragValue::new(&mut value).speed(0.1).fixed_decimals(0));
    let busy = response.dragged() || response.has_focus();
    if !busy && (response.changed() || draft.is_some()) {
        if value.round() != number {
            asks.push(write(value.round()));
        }
        asks.push(EditAsk::NumberDraft(None));
    } else if response.changed() {
        asks.push(EditAsk::NumberDraft(Some((key.0, key.1, value))));
    }
}

fn properties_form(
    ui: &mut egui::Ui,
    world: &World,
    editor: &Editor,
    id: &LocationId,
    asks: &mut Vec<EditAsk>,
) {
    let Some(session) = world.get_resource::<Session>() else { return };
    let choices = session.scenario.ruleset().location_properties();
    if choices.is_empty() {
        return;
    }
    let properties = session.scenario.properties(id);
    let set = |n: usize, text: Option<String>| {
        let mut next = properties.clone();
        match text {
            Some(text) if n < next.len() => next[n] = text,
            Some(text) => next.push(text),
            None => drop(next.remove(n)),
        }
        EditAsk::Edit(vec![ScenarioEdit::SetProperties { id: id.clone(), properties: next }])
    };
    ui.label("Properties (× takes one away):");
    for (n, text) in properties.iter().enumerate() {
        ui.horizontal(|ui| {
            if ui.small_button("×").clicked() {
                asks.push(set(n, None));
            }
            let (name, argument) = property_parts(text);
            ui.label(name);
            match argument {
                Argument::Number(number) => {
                    let key = (id.as_str().to_owned(), format!("property {n}"));
                    let write = |value: f64| set(n, Some(format!("{name}({value})")));
                    number_field(ui, editor, (key, number), write, asks);
                }
                Argument::Words(words) => {
                    let mut shown = match &editor.words_draft {
                        Some((at, k, draft)) if at == id && *k == n => draft.clone(),
                        _ => words.clone(),
                    };
                    let field =
                        ui.add(egui::TextEdit::singleline(&mut shown).desired_width(190.0).id_salt((
                            "words",
                            id.as_str(),
                            n,
                        )));
                    if field.changed() {
                        asks.push(EditAsk::WordsDraft(Some((id.clone(), n, shown.clone()))));
                    }
                    if field.lost_focus() && shown != words {
                        let written = ron::to_string(&shown).unwrap_or_default();
                        asks.push(set(n, Some(format!("{name}({written})"))));
                    }
                }
                Argument::None => {}
            }
        });
    }
    egui::ComboBox::from_id_salt(("add property", id.as_str())).selected_text("+ a property").show_ui(
        ui,
        |ui| {
            for choice in choices {
                let name = property_parts(choice.text).0;
                if ui.selectable_label(false, name).on_hover_text(choice.about).clicked() {
                    asks.push(set(properties.len(), Some(choice.text.to_owned())));
                }
            }
        },
    );
}

/// What a property carries, as the file writes it.
#[derive(Debug, PartialEq)]
enum Argument {
    None,
    Number(f64),
    Words(String),
}

/// A property's name and argument: `Cover(2)` is ("Cover", a number), `Note("…")` words,
/// `Dark` none. Anything else is shown as written, as a name.
fn property_parts(text: &str) -> (&str, Argument) {
    let Some((name, rest)) = text.split_once('(') else { return (text, Argument::None) };
    let inner = rest.strip_suffix(')').unwrap_or(rest);
    if let Ok(number) = inner.trim().parse::<f64>() {
        (name, Argument::Number(number))
    } else if let Ok(words) = ron::from_str::<String>(inner) {
        (name, Argument::Words(words))
    } else {
        (text, Argument::None)
    }
}

/// The sheet's numbers as the file writes them, each in a field: dragged or typed, a value is
/// read back through the ruleset's checks when let go, and refused with the reason when out
/// of its range. Other parts of a sheet (lists, names, words) are edited in the file.
fn sheet_form(
    ui: &mut egui::Ui,
    world: &World,
    editor: &Editor,
    id: &str,
    open: bool,
    asks: &mut Vec<EditAsk>,
) {
    let Some(session) = world.get_resource::<Session>() else { return };
    egui::CollapsingHeader::new("Sheet").id_salt(("sheet", id)).default_open(open).show(ui, |ui| {
        let text = &session.scenario.text;
        let read = per_text(ui.ctx(), ("sheet numbers read", id), text, || {
            std::sync::Arc::new(crate::lab::sweep::sheet_numbers(text, id))
        });
        let numbers = match read.as_ref() {
            Ok(numbers) => numbers.clone(),
            Err(e) => {
                ui.label(e);
                return;
            }
        };
        egui::Grid::new(("sheet numbers", id)).num_columns(2).striped(true).show(ui, |ui| {
            for number in numbers {
                ui.label(number.field.replace('.', " · "));
                let key = (id.to_owned(), number.field.clone());
                let draft = match &editor.number_draft {
                    Some((who, field, v)) if (who, field) == (&key.0, &key.1) => Some(*v),
                    _ => None,
                };
                let mut value = draft.unwrap_or(number.value);
                let drag = egui::DragValue::new(&mut value).speed(if number.whole { 0.1 } else { 0.05 });
                let drag = if number.whole { drag.fixed_decimals(0) } else { drag.max_decimals(2) };
                let response = ui.add(drag);
                let response = accepted_range_hint(ui.ctx(), world, id, &number, response);
                let busy = response.dragged() || response.has_focus();
                // Set once let go (a drag released, a typed value entered), not at every step.
                if !busy && (response.changed() || draft.is_some()) {
                    let value = if number.whole { value.round() } else { value };
                    if value != number.value {
                        asks.push(EditAsk::SetNumber { who: key.0, field: key.1, value });
                    } else {
                        asks.push(EditAsk::NumberDraft(None));
                    }
                } else if response.changed() {
                    asks.push(EditAsk::NumberDraft(Some((key.0, key.1, value))));
                }
                ui.end_row();
            }
        });
        sheet_text_form(ui, editor, text, id, asks);
    });
}

/// The whole sheet as the file writes it, to change its lists, names and words: applied by
/// writing it back into the file's text and reading that through the ruleset's checks (a
/// refusal says why and keeps what was typed).
fn sheet_text_form(
    ui: &mut egui::Ui,
    editor: &Editor,
    text: &std::sync::Arc<str>,
    id: &str,
    asks: &mut Vec<EditAsk>,
) {
    let read = per_text(ui.ctx(), ("sheet text read", id), text, || {
        let span = crate::lab::sweep::sheet_span(text, id).ok()?;
        // Shown without the file's indentation, given it back when applied.
        let indent = text[span.clone()]
            .lines()
            .skip(1)
            .filter(|l| !l.trim().is_empty())
            .map(|l| l.len() - l.trim_start().len())
            .min()
            .unwrap_or(0);
        Some((indent, std::sync::Arc::<str>::from(reindent(&text[span], indent, false))))
    });
    let Some((indent, written)) = read else { return };
    let written = &*written;
    egui::CollapsingHeader::new("As written (lists, names, words)").id_salt(("sheet text", id)).show(
        ui,
        |ui| {
            let mut shown = match &editor.sheet_draft {
                Some((who, draft)) if who == id => draft.clone(),
                _ => written.to_owned(),
            };
            let field = egui::TextEdit::multiline(&mut shown)
                .code_editor()
                .desired_width(f32::INFINITY)
                .desired_rows(4)
                .id_salt(("sheet text field", id));
            if ui.add(field).changed() {
                asks.push(EditAsk::SheetDraft(Some((id.to_owned(), shown.clone()))));
            }
            ui.horizontal(|ui| {
                let changed = shown != written;
                if ui.add_enabled(changed, egui::Button::new("Apply")).clicked() {
                    asks.push(EditAsk::SetSheet {
                        who: id.to_owned(),
                        sheet: reindent(&shown, indent, true),
                    });
                }
                if ui.add_enabled(changed, egui::Button::new("As it was")).clicked() {
                    asks.push(EditAsk::SheetDraft(None));
                }
            });
        },
    );
}

/// What `read` makes of the scenario's text, kept in egui's memory under `key` until the
/// text changes: read once per text, not every frame.
fn per_text<T: Clone + Send + Sync + 'static>(
    ctx: &egui::Context,
    key: impl egui::AsId,
    text: &std::sync::Arc<str>,
    read: impl FnOnce() -> T,
) -> T {
    let key = egui::Id::new(key);
    let kept = ctx.data(|d| d.get_temp::<(std::sync::Arc<str>, T)>(key));
    if let Some((from, value)) = kept
        && std::sync::Arc::ptr_eq(&from, text)
    {
        return value;
    }
    let value = read();
    ctx.data_mut(|d| d.insert_temp(key, (text.clone(), value.clone())));
    value
}

/// Lines after the first with `indent` spaces taken off (or put back, `back`).
fn reindent(text: &str, indent: usize, back: bool) -> String {
    let pad = " ".repeat(indent);
    let mut lines = text.lines();
    let first = lines.next().unwrap_or_default().to_owned();
    lines.fold(first, |out, line| {
        let line = match back {
            true if !line.is_empty() => format!("{pad}{line}"),
            true => String::new(),
            false => line.strip_prefix(pad.as_str()).unwrap_or(line.trim_start()).to_owned(),
        };
        out + "\n" + &line
    })
}

/// A sheet number's hover text: the values the ruleset's checks take now, found once per
/// scenario text and number when the pointer first rests on it (`accepted_range`).
fn accepted_range_hint(
    ctx: &egui::Context,
    world: &World,
    who: &str,
    number: &SheetNumber,
    response: egui::Response,
) -> egui::Response {
    let (Some(session), Some(registry)) = (world.get_resource::<Session>(), world.get_resource::<Rulesets>())
    else {
        return response;
    };
    type Known = (std::sync::Arc<str>, (Option<f64>, Option<f64>));
    let key = egui::Id::new(("accepted range", who, number.field.as_str()));
    let text = &session.scenario.text;
    let known = ctx.data(|d| d.get_temp::<Known>(key)).filter(|(t, _)| std::sync::Arc::ptr_eq(t, text));
    let range = match known {
        Some((_, range)) => range,
        None if response.hovered() => {
            let accepts = |edited: &str| registry.read_edited(&session.scenario, edited).is_ok();
            let range = crate::lab::sweep::accepted_range(text, who, number, accepts);
            ctx.data_mut(|d| d.insert_temp(key, (text.clone(), range)));
            range
        }
        None => return response,
    };
    let words = match range {
        (Some(low), Some(high)) => format!("the rules take {low} to {high} here"),
        (Some(low), None) => format!("the rules take {low} or more here"),
        (None, Some(high)) => format!("the rules take {high} or less here"),
        (None, None) => "the rules take any value here".to_owned(),
    };
    response.on_hover_text(words)
}

fn file_form(ui: &mut egui::Ui, world: &World, editor: &Editor, asks: &mut Vec<EditAsk>) {
    ui.label(RichText::new("File").strong());
    let mut path = editor.path_draft.clone();
    if ui.add(egui::TextEdit::singleline(&mut path).desired_width(300.0).id_salt("edit path")).changed() {
        asks.push(EditAsk::PathDraft(path.clone()));
    }
    ui.horizontal_wrapped(|ui| {
        if ui.add_enabled(!path.trim().is_empty(), egui::Button::new("Save as")).clicked() {
            asks.push(EditAsk::SaveAs(path.clone()));
        }
        let rulesets = world.resource::<Rulesets>();
        let chosen = if editor.new_ruleset.is_empty() {
            world.get_resource::<Session>().map_or("fiend_wake".to_owned(), |s| s.ruleset().id().to_owned())
        } else {
            editor.new_ruleset.clone()
        };
        egui::ComboBox::from_id_salt("new ruleset").selected_text(&chosen).show_ui(ui, |ui| {
            for r in rulesets.iter() {
                if ui.selectable_label(r.id() == chosen, r.name()).clicked() {
                    asks.push(EditAsk::NewRuleset(r.id().to_owned()));
                }
            }
        });
        if ui
            .add_enabled(!path.trim().is_empty(), egui::Button::new("New"))
            .on_hover_text(
                "writes a small scenario of this ruleset to the path (never over a file) and edits it",
            )
            .clicked()
        {
            asks.push(EditAsk::New(chosen, path));
        }
    });
}

fn confirm_dialog(ctx: &egui::Context, editor: &Editor, asks: &mut Vec<EditAsk>) {
    let Some((_, name, people)) = &editor.confirm_delete else { return };
    egui::Window::new("Delete a location").anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0]).show(ctx, |ui| {
        ui.label(format!("{people} stand in {name}. Delete it? They will start in the open field."));
        ui.horizontal(|ui| {
            if ui.button("Delete it (Enter)").clicked() || ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                asks.push(EditAsk::ConfirmDelete(true));
            }
            if ui.button("Keep it (Esc)").clicked() || ui.input(|i| i.key_pressed(egui::Key::Escape)) {
                asks.push(EditAsk::ConfirmDelete(false));
            }
        });
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sheet_shown_without_its_indentation_is_given_it_back() {
        let written = "(\n        power: 3,\n          weapons: [],\n\n    )";
        let shown = super::reindent(written, 4, false);
        assert_eq!(shown, "(\n    power: 3,\n      weapons: [],\n\n)");
        assert_eq!(super::reindent(&shown, 4, true), written);
    }

    #[test]
    fn a_property_is_read_as_its_name_and_a_number_words_or_nothing() {
        assert_eq!(property_parts("Cover(2)"), ("Cover", Argument::Number(2.0)));
        assert_eq!(
            property_parts("Note(\"A \\\"gate\\\" (old)\")"),
            ("Note", Argument::Words("A \"gate\" (old)".into()))
        );
        assert_eq!(property_parts("Dark"), ("Dark", Argument::None));
        // Something else is shown whole, as a name.
        assert_eq!(property_parts("Odd(1, 2)"), ("Odd(1, 2)", Argument::None));
    }
}
