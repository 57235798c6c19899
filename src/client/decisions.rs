//! The decisions panel, for any ruleset: who the rules wait on, a secret choice covered
//! until the person says they are at the mouse, the ruleset adapter's own widgets, an
//! allocation built by dragging chips, the decider's choices as buttons (refused ones
//! disabled with their reason on hover), the choices aimed at a clicked token first, and
//! rings around the tokens the decider may aim at.

use bevy::prelude::*;
use bevy_egui::egui::{self, RichText};
use fray_core::board::{Choice, ChoiceKey};
use fray_core::fight::ruleset;
use fray_core::ids::CombatantId;
use fray_core::intent::IntentRecord;
use fray_core::log::GameLog;
use fray_core::prelude::{Combatant, Controller, Counters, TableIndex};
use fray_core::seat::Seat;
use fray_core::table::{id, name};

use super::adapter::{BoardAsk, board};
use super::audience::{GmGizmos, Viewer, decides, hidden_from_main, main_seat, seats};
use super::board::pieces::{Selection, TOKEN, Token};
use super::chips::AllocationPlan;

/// How many waiting people are listed by name before "and N more".
const LISTED: usize = 24;

/// What a person asked in the decisions panel, applied after drawing.
pub enum DecisionAsk {
    /// Send an intent.
    Submit(CombatantId, IntentRecord),
    /// Show this waiting person's decision in full.
    Focus(Entity),
    /// Under a secret choice's cover, this person says they are at the mouse (`None`
    /// covers it again).
    AtTheMouse(Option<Entity>),
    /// The allocation being built.
    Plan(AllocationPlan),
    /// What the ruleset's adapter asked.
    Board(BoardAsk),
    /// Where the pointer was this frame.
    Pointer {
        /// Over the decisions panel.
        over: bool,
        /// It pressed or released a button, or a key was pressed.
        clicked: bool,
    },
}

/// How long after a click the panel follows the table even under the pointer (seconds): long
/// enough to show what the click did, shorter than it takes to aim at the next button.
const FOLLOW_AFTER_CLICK: f64 = 0.4;

/// While the pointer rests over the decisions panel, the panel keeps its lines where they
/// are: those it lists stay listed (an AI that has decided, or a player who decided on a
/// phone, says so in place) and the decider's choices stay as they were, so that nothing
/// moves under the pointer; a click or a key, or the pointer leaving, lets it follow the
/// table again.
#[derive(Resource, Default)]
pub struct Held {
    /// The panel is held now.
    pub on: bool,
    /// When the pointer last clicked, in seconds since the start.
    clicked: f64,
    /// The AI deciding and the people waiting, as the panel lists them.
    ais: Vec<Entity>,
    humans: Vec<Entity>,
}

/// The person whose decision the panel shows in full, with that decision's choices and the
/// tokens it may aim at. Worked out again only when the table, the waiting list or the
/// person asked for changes: choices validate every candidate, too much for every frame on a
/// big board.
#[derive(Resource, Default)]
pub struct Focus {
    /// Who decides in the panel.
    pub decider: Option<Entity>,
    /// Their choices, as the adapter keeps them.
    pub choices: Vec<Choice<IntentRecord>>,
    /// The refused ones by label (each label once), with the reason.
    refused: Vec<(String, String)>,
    /// The refused ones in a few lines ([`refused_summary`]), worked out with the focus.
    refused_lines: Vec<String>,
    /// The person asked for (a click on "also waiting").
    asked: Option<Entity>,
    /// The person who said they are at the mouse, under a secret choice's cover.
    at_the_mouse: Option<Entity>,
    key: Option<(usize, usize, Vec<Entity>, Option<Entity>, Option<Entity>, Seat)>,
}

/// Tokens the deciding person may aim at now (ringed on the board).
#[derive(Resource, Default, Clone, Debug, PartialEq)]
pub struct Targets(pub Vec<Entity>);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Focus>().init_resource::<Targets>().init_resource::<Held>().add_systems(
        Update,
        (hold_listed, update_focus, mark_targets).chain().in_set(super::order::Step::Focus),
    );
}

/// The people the rules wait on who are played by a person.
pub fn humans_waiting(world: &World) -> Vec<Entity> {
    let Some(rules) = ruleset(world) else { return Vec::new() };
    rules
        .awaiting(world)
        .into_iter()
        .filter(|&e| world.get::<Controller>(e).is_some_and(Controller::is_person))
        .collect()
}

/// Of `people`, those the GM window's seat decides for.
fn decided_here(world: &World, people: &[Entity]) -> Vec<Entity> {
    let seat = main_seat(world);
    people
        .iter()
        .copied()
        .filter(|&e| world.get::<Controller>(e).is_some_and(|c| decides(&seat, c)))
        .collect()
}

/// Those the panel lists: the AI's combatants deciding and the people the rules wait on (the
/// GM window's seat may see them), kept while the panel is held, unless one of them is gone
/// (a table rebuilt by undo or loading).
fn hold_listed(world: &mut World) {
    let held = world.resource::<Held>();
    if held.on && held.ais.iter().chain(&held.humans).all(|&e| world.get_entity(e).is_ok()) {
        return;
    }
    let waiting: Vec<Entity> = ruleset(world)
        .map(|rules| rules.awaiting(world).into_iter().filter(|&e| !hidden_from_main(world, e)).collect())
        .unwrap_or_default();
    let (ais, humans) =
        waiting.into_iter().partition(|&e| world.get::<Controller>(e) == Some(&Controller::Ai));
    let mut held = world.resource_mut::<Held>();
    (held.ais, held.humans) = (ais, humans);
}

fn update_focus(world: &mut World) {
    // Held under the pointer: the decider's choices stay as they were (a choice no longer
    // open is refused, with its reason, when clicked).
    let focus = world.resource::<Focus>();
    let same_seat = focus.key.as_ref().is_some_and(|k| k.5 == main_seat(world));
    if world.resource::<Held>().on && same_seat && focus.decider.is_none_or(|e| world.get_entity(e).is_ok()) {
        return;
    }
    let humans = decided_here(world, &humans_waiting(world));
    let (asked, at_the_mouse) = (world.resource::<Focus>().asked, world.resource::<Focus>().at_the_mouse);
    let key = Some((
        world.resource::<GameLog>().entries().len(),
        world.resource::<fray_core::intent::Outcomes>().0.len(),
        humans.clone(),
        asked,
        at_the_mouse,
        main_seat(world),
    ));
    if world.resource::<Focus>().key == key {
        return;
    }
    let rules = ruleset(world);
    let secret = rules.as_ref().and_then(|r| r.view().secret(world)).is_some();
    // A secret choice is shown only to the person who said they are at the mouse (a
    // player's own view holds only theirs).
    let player = matches!(main_seat(world), Seat::Player(_));
    let decider = if secret {
        at_the_mouse.filter(|e| humans.contains(e)).or_else(|| humans.first().copied().filter(|_| player))
    } else {
        asked.filter(|e| humans.contains(e)).or_else(|| humans.first().copied())
    };
    let adapter = board(world);
    let choices: Vec<Choice<IntentRecord>> = match (&rules, decider) {
        (Some(rules), Some(e)) => rules
            .choices(world, e)
            .into_iter()
            .filter(|c| adapter.as_ref().is_none_or(|a| a.keep(world, c)))
            .collect(),
        _ => Vec::new(),
    };
    let mut targets: Vec<Entity> = Vec::new();
    if !secret {
        let index = world.resource::<TableIndex>();
        for c in choices.iter().filter(|c| c.verdict.is_ok() && !c.folded) {
            if let Some(t) = c.target.as_ref().and_then(|t| index.combatant(t))
                && !targets.contains(&t)
            {
                targets.push(t);
            }
        }
    }
    let mut seen = std::collections::HashSet::new();
    let refused: Vec<(String, String)> = choices
        .iter()
        .filter_map(|c| c.verdict.as_ref().err().map(|r| (c.label.clone(), r.0.clone())))
        .filter(|(label, _)| seen.insert(label.clone()))
        .collect();
    let refused_lines = refused_summary(&refused);
    *world.resource_mut::<Focus>() =
        Focus { decider, choices, refused, refused_lines, asked, at_the_mouse, key };
    if world.resource::<Targets>().0 != targets {
        world.resource_mut::<Targets>().0 = targets;
    }
}

/// Whether the pointer rests over the decisions panel (drawn in `panel`), and clicked or
/// pressed a key: the panel is held while it rests there.
pub fn pointer(ctx: &egui::Context, panel: egui::Rect) -> DecisionAsk {
    let over = ctx.pointer_hover_pos().is_some_and(|p| panel.contains(p));
    let clicked = ctx.input(|i| {
        let key = i.events.iter().any(|e| matches!(e, egui::Event::Key { pressed: true, .. }));
        i.pointer.any_pressed() || i.pointer.any_released() || key
    });
    DecisionAsk::Pointer { over, clicked }
}

/// Carries out what the panel asked.
pub fn apply(world: &mut World, ask: DecisionAsk) {
    match ask {
        DecisionAsk::Submit(who, intent) => {
            if let Some(rules) = ruleset(world) {
                rules.submit(world, who, &intent);
            }
        }
        DecisionAsk::Focus(e) => world.resource_mut::<Focus>().asked = Some(e),
        DecisionAsk::AtTheMouse(e) => {
            world.resource_mut::<Focus>().at_the_mouse = e;
            // The window turns to the seat of whoever came to the mouse: theirs alone.
            if let Some(controller) = e.and_then(|e| world.get::<Controller>(e)).cloned() {
                let passed = matches!(controller, Controller::Player(_));
                *world.resource_mut::<Viewer>() =
                    Viewer { seat: Seat::of(&controller), passed, returns: false };
            }
        }
        DecisionAsk::Plan(plan) => *world.resource_mut::<AllocationPlan>() = plan,
        DecisionAsk::Board(BoardAsk::Submit(who, intent)) => apply(world, DecisionAsk::Submit(who, intent)),
        DecisionAsk::Board(BoardAsk::Apply(change)) => {
            change(world);
            world.resource_mut::<Focus>().key = None;
        }
        DecisionAsk::Pointer { over, clicked } => {
            let now = world.resource::<Time>().elapsed_secs_f64();
            let mut held = world.resource_mut::<Held>();
            if clicked {
                held.clicked = now;
            }
            let on = over && now - held.clicked > FOLLOW_AFTER_CLICK;
            if held.on != on {
                held.on = on;
            }
        }
    }
}

/// Whether passing the mouse for combatant `e` turns the window to a player's view.
fn passed_to(world: &World, e: Entity) -> bool {
    matches!(world.get::<Controller>(e), Some(Controller::Player(_)))
}

/// Whose view the GM's window shows, when not the GM's, and the way back.
fn seat_line(ui: &mut egui::Ui, world: &World, seat: &Seat) {
    let words = match seat {
        Seat::Gm => return,
        Seat::Table => "The table's view: nobody decides here.".to_owned(),
        Seat::Player(_) => format!("{}'s view: only what they may see.", seat.describe(&seats(world))),
    };
    ui.label(RichText::new(words).strong().color(egui::Color32::LIGHT_BLUE));
    ui.label("The GM's view returns with the “GM view” button at the top (or the G key).");
    ui.separator();
}

/// A choice's words, with its key when it has one.
fn words(choice: &Choice<IntentRecord>) -> String {
    match choice.key {
        Some(key) => format!("{} ({})", choice.label, key.letter()),
        None => choice.label.clone(),
    }
}

/// The decisions panel.
pub fn panel(ui: &mut egui::Ui, world: &World, asks: &mut Vec<DecisionAsk>) {
    ui.heading("Decisions");
    if *world.resource::<super::history::HistoryMode>() == super::history::HistoryMode::Watching {
        ui.label("Watching a saved fight: step forward and back with the buttons at the top (or the Left and Right keys); nobody decides.");
        return;
    }
    let Some(rules) = ruleset(world) else { return };
    let held = world.resource::<Held>();
    let (ais, humans) = (&held.ais, &held.humans);
    let waiting = rules.awaiting(world);
    let seat = main_seat(world);
    seat_line(ui, world, &seat);
    let focus = world.resource::<Focus>();
    let secret = rules.view().secret(world);
    egui::ScrollArea::vertical().show(ui, |ui| {
        // After an undo the AI waits until asked to go on (the top bar's button).
        let held_ai = fray_core::session::ai_held(world);
        for &e in ais.iter().take(LISTED) {
            let state = match (waiting.contains(&e), held_ai) {
                (false, _) => "has decided.",
                (true, true) => "waits: “Let the AI decide again” (top bar) lets it go on.",
                (true, false) => "is deciding…",
            };
            ui.label(format!("{} (AI) {state}", name(world, e)));
        }
        if ais.len() > LISTED {
            ui.label(format!("… and {} more (AI)", ais.len() - LISTED));
        }
        if humans.is_empty() && ais.is_empty() && !rules.over(world) {
            ui.label("The rules move on to where someone decides…");
        }
        if let Some(secret) = &secret {
            if seat == Seat::Gm && humans.iter().any(|&e| passed_to(world, e)) {
                // On one monitor everyone sees: the GM's view shows every sealed choice.
                ui.label(
                    RichText::new(
                        "Everyone sees the GM's view: turn to the table's view (T) before the players look.",
                    )
                    .color(egui::Color32::LIGHT_RED),
                );
            }
            // Always one line, "0 bids" too: the buttons below stay where they are as bids come in.
            let what = secret.what;
            let made = fray_core::words::count(secret.sealed.len() as u64, what, &format!("{what}s"));
            ui.label(format!("{made} made in secret, revealed when all are in."));
            for &e in humans.iter().take(LISTED) {
                if focus.decider == Some(e) {
                    continue;
                }
                if matches!(seat, Seat::Player(_)) && decided_here(world, &[e]).is_empty() {
                    // One player at the mouse at a time: the next is asked once the window
                    // has turned to the table's view.
                    continue;
                }
                ui.separator();
                at_the_mouse(ui, world, e, waiting.contains(&e), secret.what, asks);
            }
            if humans.len() > LISTED {
                ui.label(format!("… and {} more after these", humans.len() - LISTED));
            }
        }
        let Some(e) = focus.decider else { return };
        ui.separator();
        ui.label(RichText::new(format!("{} decides", name(world, e))).strong().size(18.0));
        if let Some(adapter) = board(world) {
            let mut adapter_asks = Vec::new();
            adapter.decision(ui, world, e, &mut adapter_asks);
            asks.extend(adapter_asks.into_iter().map(DecisionAsk::Board));
        }
        allocation(ui, world, e, asks);
        choices(ui, world, e, focus, secret.is_some(), asks);
        if secret.is_some() {
            return;
        }
        let others: Vec<Entity> = decided_here(world, humans).into_iter().filter(|&o| o != e).collect();
        if !others.is_empty() {
            ui.separator();
            ui.label("Also waiting (click to decide for them):");
            ui.horizontal_wrapped(|ui| {
                for &o in others.iter().take(LISTED) {
                    if ui.button(name(world, o)).clicked() {
                        asks.push(DecisionAsk::Focus(o));
                    }
                }
                if others.len() > LISTED {
                    ui.label(format!("… and {} more", others.len() - LISTED));
                }
            });
        }
    });
}

/// One person's way to their secret choice: a player is passed the mouse while everyone else
/// looks away; a combatant the GM plays is the GM's to decide. One who has decided meanwhile
/// (on a phone, while the panel is held) keeps the place, the button saying so.
fn at_the_mouse(
    ui: &mut egui::Ui,
    world: &World,
    e: Entity,
    waiting: bool,
    what: &str,
    asks: &mut Vec<DecisionAsk>,
) {
    let who = name(world, e);
    let (line, button) = if passed_to(world, e) {
        (format!("Pass the mouse to {who}; everyone else looks away."), format!("I am {who}: show my {what}"))
    } else {
        (format!("{who} is the GM's to decide."), format!("Decide {who}'s {what}"))
    };
    ui.label(RichText::new(line).strong());
    let button = if waiting { button } else { format!("{who}'s {what} is in") };
    if ui.add_enabled(waiting, egui::Button::new(button)).clicked() {
        asks.push(DecisionAsk::AtTheMouse(Some(e)));
    }
}

/// The decider's choices as buttons: those on a clicked token first, then the accepted ones,
/// those folded away (attacks on allies), and the refused ones disabled with their reason.
fn choices(
    ui: &mut egui::Ui,
    world: &World,
    e: Entity,
    focus: &Focus,
    secret: bool,
    asks: &mut Vec<DecisionAsk>,
) {
    let all = &focus.choices;
    let who = id(world, e);
    let send = |choice: &Choice<IntentRecord>, asks: &mut Vec<DecisionAsk>| {
        asks.push(DecisionAsk::Submit(who.clone(), choice.intent.clone()));
        if secret {
            asks.push(DecisionAsk::AtTheMouse(None));
        }
    };
    on_clicked_target(ui, world, e, all, &mut |c, asks| send(c, asks), asks);
    for choice in all.iter().filter(|c| c.verdict.is_ok() && !c.folded) {
        if ui.button(words(choice)).clicked() {
            send(choice, asks);
        }
    }
    let folded: Vec<&Choice<IntentRecord>> = all.iter().filter(|c| c.verdict.is_ok() && c.folded).collect();
    if !folded.is_empty() {
        ui.collapsing(format!("Against your own side ({})", folded.len()), |ui| {
            for choice in folded {
                if ui.button(words(choice)).clicked() {
                    send(choice, asks);
                }
            }
        });
    }
    if !focus.refused.is_empty() {
        ui.label(RichText::new("Not possible now:").weak());
        for line in &focus.refused_lines {
            ui.label(RichText::new(line).weak());
        }
        ui.collapsing(format!("Show all {}, with their reasons", focus.refused.len()), |ui| {
            for (label, reason) in &focus.refused {
                ui.add_enabled(false, egui::Button::new(label)).on_disabled_hover_text(reason);
            }
        });
    }
}

/// The most lines the refused choices are summed up in; the rest wait behind "Show all".
const SUMMARY_LINES: usize = 4;

/// The refused choices in a few lines: one per kind of action (a label's first word) with how
/// many and the reason when they all share it (else the commonest one); kinds whose reasons
/// end alike ("… is not something to do during Round Prep") share one line; at most
/// [`SUMMARY_LINES`], the last saying how many more lines the full list would take.
pub(crate) fn refused_summary(refused: &[(String, String)]) -> Vec<String> {
    let mut kinds: Vec<(&str, Vec<&str>)> = Vec::new();
    for (label, reason) in refused {
        let kind = label.split_whitespace().next().unwrap_or_default();
        match kinds.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, reasons)) => reasons.push(reason),
            None => kinds.push((kind, vec![reason])),
        }
    }
    let mut rows: Vec<(&str, usize, String)> = kinds
        .into_iter()
        .map(|(kind, reasons)| {
            let mut counts: Vec<(&str, usize)> = Vec::new();
            for r in &reasons {
                match counts.iter_mut().find(|(c, _)| c == r) {
                    Some((_, n)) => *n += 1,
                    None => counts.push((r, 1)),
                }
            }
            let (common, n) = counts.iter().copied().max_by_key(|&(_, n)| n).unwrap_or_default();
            let why = if n == reasons.len() { common.to_owned() } else { format!("{common} ({n} of them)") };
            (kind, reasons.len(), why)
        })
        .collect();
    let head = |kind: &str, n: usize| if n == 1 { kind.to_owned() } else { format!("{kind}, {n} choices") };
    let mut lines = Vec::new();
    while let Some(tail) = shared_tail(&rows) {
        let (alike, rest): (Vec<_>, Vec<_>) =
            rows.into_iter().partition(|(_, _, why)| ends_with_words(why, &tail));
        rows = rest;
        // Kinds sharing a reason are named alone: "Bid, Retreat, Call and 2 more".
        let heads: Vec<&str> = alike.iter().map(|(kind, _, _)| *kind).collect();
        let named = match heads.len() {
            n if n > 4 => format!("{} and {} more", heads[..3].join(", "), n - 3),
            _ => heads.join(", "),
        };
        let tail = tail.strip_prefix("is ").or_else(|| tail.strip_prefix("are ")).unwrap_or(&tail);
        lines.push(format!("{named}: {tail}"));
    }
    lines.extend(rows.into_iter().map(|(kind, n, why)| format!("{}: {why}", head(kind, n))));
    if lines.len() > SUMMARY_LINES {
        let more = lines.len() - (SUMMARY_LINES - 1);
        lines.truncate(SUMMARY_LINES - 1);
        lines.push(format!("… {more} more lines in the full list"));
    }
    lines
}

/// The longest ending of at least four words that the reasons of three kinds or more share,
/// past the first word of each (so that the kind's own words are not part of it).
fn shared_tail(rows: &[(&str, usize, String)]) -> Option<String> {
    let mut tails: Vec<(String, usize)> = Vec::new();
    for (_, _, why) in rows {
        let words: Vec<&str> = why.split_whitespace().collect();
        for from in 1..words.len().saturating_sub(3) {
            let tail = words[from..].join(" ");
            match tails.iter_mut().find(|(t, _)| *t == tail) {
                Some((_, n)) => *n += 1,
                None => tails.push((tail, 1)),
            }
        }
    }
    tails
        .into_iter()
        .filter(|(_, n)| *n >= 3)
        .max_by_key(|(t, n)| (*n, t.split_whitespace().count()))
        .map(|(t, _)| t)
}

/// Whether `text` ends with the words of `tail`, a whole word boundary before it.
fn ends_with_words(text: &str, tail: &str) -> bool {
    text.strip_suffix(tail).is_some_and(|head| head.ends_with(' '))
}

/// With a token clicked on the board, the decider's choices on it come first.
fn on_clicked_target(
    ui: &mut egui::Ui,
    world: &World,
    e: Entity,
    all: &[Choice<IntentRecord>],
    send: &mut dyn FnMut(&Choice<IntentRecord>, &mut Vec<DecisionAsk>),
    asks: &mut Vec<DecisionAsk>,
) {
    let Some(t) =
        world.resource::<Selection>().combatant.filter(|&t| t != e && world.get::<Combatant>(t).is_some())
    else {
        if all.iter().any(|c| c.verdict.is_ok() && c.target.is_some()) {
            ui.label("Click a ringed token (◎) on the board to aim at it.");
        }
        return;
    };
    let target = id(world, t);
    // What is done to one's own side is in its folded list, never the button a click gives.
    let aimed: Vec<&Choice<IntentRecord>> =
        all.iter().filter(|c| c.target.as_ref() == Some(&target) && !c.folded).collect();
    if aimed.is_empty() {
        return;
    }
    egui::Frame::group(ui.style()).show(ui, |ui| {
        ui.label(RichText::new(format!("On {} (clicked on the board)", name(world, t))).strong());
        for choice in aimed {
            let button = egui::Button::new(RichText::new(words(choice)).size(18.0));
            match &choice.verdict {
                Ok(()) => {
                    if ui.add(button).clicked() {
                        send(choice, asks);
                    }
                }
                // The reason reads beside the grey button, without hovering.
                Err(reason) => {
                    ui.add_enabled(false, button).on_disabled_hover_text(reason.0.clone());
                    ui.label(RichText::new(format!("Not now: {}", reason.0)).color(egui::Color32::LIGHT_RED));
                }
            }
        }
    });
}

/// An allocation of counters among targets (dragged chips, or − and + here), then sent.
fn allocation(ui: &mut egui::Ui, world: &World, e: Entity, asks: &mut Vec<DecisionAsk>) {
    let Some(rules) = ruleset(world) else { return };
    let Some(ask) = rules.view().allocation(world).filter(|a| a.who == e) else { return };
    let plan = world.resource::<AllocationPlan>();
    let held = world.get::<Counters>(e).map_or(0, |c| c.get(ask.kind));
    ui.label(format!("{} {} of {held} left.", ask.hint, held.saturating_sub(plan.total())));
    if ask.targets.is_empty() {
        ui.label("Nobody can be given any.");
    }
    let check = |plan: &AllocationPlan| plan.intent(world).map(|i| rules.validate(world, e, &i));
    for &t in &ask.targets {
        let given = plan.allocations.iter().find(|(x, _)| *x == t).map_or(0, |(_, n)| *n);
        ui.horizontal(|ui| {
            if ui.add_enabled(given > 0, egui::Button::new(" − ")).clicked() {
                asks.push(DecisionAsk::Plan(plan.changed(t, -1)));
            }
            ui.label(RichText::new(given.to_string()).strong());
            let more = plan.changed(t, 1);
            let plus = match check(&more) {
                Some(Err(reason)) => {
                    ui.add_enabled(false, egui::Button::new(" + ")).on_disabled_hover_text(reason.0);
                    None
                }
                _ => Some(ui.button(" + ")),
            };
            if plus.is_some_and(|b| b.clicked()) {
                asks.push(DecisionAsk::Plan(more));
            }
            ui.label(name(world, t));
        });
    }
    if plan.allocations.is_empty() {
        return;
    }
    if let Some(intent) = plan.intent(world) {
        let given: Vec<String> =
            plan.allocations.iter().map(|&(t, n)| format!("{} {n}", name(world, t))).collect();
        let send = egui::Button::new(RichText::new(format!("Send: {} (Enter)", given.join(", "))).size(18.0));
        match rules.validate(world, e, &intent) {
            Ok(()) => {
                if ui.add(send).clicked() {
                    asks.push(DecisionAsk::Submit(id(world, e), intent));
                }
            }
            Err(reason) => {
                ui.add_enabled(false, send).on_disabled_hover_text(reason.0);
            }
        }
    }
    if ui.button("Take all chips back").clicked() {
        asks.push(DecisionAsk::Plan(AllocationPlan { allocations: Vec::new(), ..plan.clone() }));
    }
}

/// The intent a key sends now, for the person deciding in the panel (else the first person
/// the rules wait on: P passes under a secret choice's cover, the choice staying unseen):
/// E the choice marked "end turn", P the one marked "pass" (else "end turn"), Enter the
/// allocation being built.
pub fn shortcut(ctx: &egui::Context, world: &World) -> Option<DecisionAsk> {
    if ctx.egui_wants_keyboard_input() {
        return None;
    }
    let (end, pass, enter) = ctx.input(|i| {
        (i.key_pressed(egui::Key::E), i.key_pressed(egui::Key::P), i.key_pressed(egui::Key::Enter))
    });
    if !(end || pass || enter) {
        return None;
    }
    let focus = world.resource::<Focus>();
    let e = focus.decider.or_else(|| decided_here(world, &humans_waiting(world)).first().copied())?;
    if enter {
        let plan = world.resource::<AllocationPlan>();
        let intent = plan.intent(world).filter(|_| plan.who == Some(e) && !plan.allocations.is_empty())?;
        return Some(DecisionAsk::Submit(id(world, e), intent));
    }
    let choices = match focus.decider {
        Some(_) => focus.choices.clone(),
        None => ruleset(world)?.choices(world, e),
    };
    let take = |key: ChoiceKey| choices.iter().find(|c| c.key == Some(key) && c.verdict.is_ok());
    let choice = if end {
        take(ChoiceKey::EndTurn)
    } else {
        take(ChoiceKey::Pass).or_else(|| take(ChoiceKey::EndTurn))
    };
    choice.map(|c| DecisionAsk::Submit(id(world, e), c.intent.clone()))
}

/// The two rings round a token the decider may aim at, as shares of its size: outside the
/// rings round whoever acts (a token may be both), clear of its caption.
pub(super) const TARGET_RINGS: [f32; 2] = [0.59, 0.62];

/// Two yellow rings round each token the decider may aim at.
fn mark_targets(
    targets: Res<Targets>,
    tokens: Query<(&Token, &Transform, &Sprite)>,
    mut gizmos: Gizmos<GmGizmos>,
) {
    for (token, transform, sprite) in &tokens {
        if targets.0.contains(&token.0) {
            let at = transform.translation.truncate();
            let size = sprite.custom_size.map_or(TOKEN, |s| s.x);
            for r in TARGET_RINGS {
                gizmos.circle_2d(at, size * r, Color::srgb(1.0, 0.95, 0.3));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{TARGET_RINGS, refused_summary};
    use crate::client::board::pieces::{CAPTION_GAP, FREE_TOKEN, TOKEN};
    use crate::client::motion::RING_REACH;

    #[test]
    fn the_rings_round_a_token_nest_and_leave_its_caption_clear() {
        for size in [TOKEN, FREE_TOKEN] {
            let caption_top = size / 2.0 + CAPTION_GAP;
            assert!(
                size * RING_REACH < size * TARGET_RINGS[0],
                "the acting rings inside the targets' at {size}"
            );
            assert!(size * TARGET_RINGS[1] < caption_top, "the target rings over the caption at {size}");
            assert!(size * RING_REACH > size / 2.0, "the acting rings outside the token's rim at {size}");
        }
    }

    #[test]
    fn refused_choices_are_summed_up_by_kind_with_their_reason() {
        let r = |l: &str, why: &str| (l.to_owned(), why.to_owned());
        let refused = vec![
            r("Melee Ana", "out of reach"),
            r("Melee Bo", "out of reach"),
            r("Melee Cy", "already down"),
            r("Shoot Ana", "no ammunition"),
        ];
        assert_eq!(
            refused_summary(&refused),
            vec!["Melee, 3 choices: out of reach (2 of them)".to_owned(), "Shoot: no ammunition".to_owned()]
        );
    }

    #[test]
    fn kinds_refused_for_the_same_reason_share_a_line_and_the_summary_stays_short() {
        let r = |l: &str, why: &str| (l.to_owned(), why.to_owned());
        let wrong = |what: &str| format!("{what} is not something to do during Round Prep");
        let refused = vec![
            r("Bid 1", &wrong("bid")),
            r("Bid 2", &wrong("bid")),
            r("Pay armour", "the armour costs 1 TP this round"),
            r("Retreat to Keep", &wrong("retreat")),
            r("Call your shot", &wrong("call your shot")),
            r("Clear out", &wrong("clear out")),
            r("End turn", &wrong("end turn")),
        ];
        assert_eq!(
            refused_summary(&refused),
            vec![
                "Bid, Retreat, Call and 2 more: not something to do during Round Prep".to_owned(),
                "Pay: the armour costs 1 TP this round".to_owned(),
            ]
        );
        // Many different reasons: a few lines, and how many more there are.
        let many: Vec<_> = (0..9).map(|i| r(&format!("Kind{i} x"), &format!("reason {i}"))).collect();
        let lines = refused_summary(&many);
        assert_eq!(lines.len(), 4);
        assert_eq!(lines[3], "… 6 more lines in the full list");
    }
}
