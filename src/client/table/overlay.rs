//! What the table's screen writes over the board, in large type: the ruleset's clock and
//! phase, whose turn it is or what the rules ask (and for a moment what secret choices
//! revealed), the order once it is public, and the last dice roll for a few
//! seconds, or (the lower third, for a stream) the last roll and damage kept along the bottom. Drawn in the table window, and in the GM's window in table mode. It reads only
//! what everyone sees (the ruleset's public views and the log), never a secret choice before
//! its reveal, and
//! names no combatant the GM hides from the table.

use bevy::prelude::*;
use bevy_egui::egui::{self, LayerId, RichText, UiBuilder};
use fray_core::dice::{RollReading, RollRecord};
use fray_core::fight::ruleset;
use fray_core::log::{GameLog, LogEvent};
use fray_core::prelude::TableIndex;

use super::super::audience::{hidden_from_table as hidden, names_hidden_from_table};
use super::super::words;

/// How long the last dice roll stays up, in seconds.
const ROLL_SHOWN_SECS: f32 = 5.0;
/// The room the table's top bar takes on a screen 900 points tall, left out when framing the
/// board.
pub const BAR_HEIGHT: f32 = 80.0;

/// The room the lower third takes along the bottom on a screen 900 points tall.
pub const LOWER_THIRD_HEIGHT: f32 = 84.0;

/// How much larger than at 900 points the bar's, the lower third's and the roll's type is on
/// a screen `height` points tall: never smaller, and on a taller screen (a 1080 stream) in
/// step with it, so the smallest line stays over the table's floor (2.2% of the height).
pub fn type_scale(height: f32) -> f32 {
    (height / 900.0).max(1.0)
}

/// The room the table's screen, `height` points tall, keeps from the board at its top (the
/// bar) and its bottom (the lower third, when it is on), in points.
pub fn reserved(settings: &crate::settings::TableSettings, height: f32) -> (f32, f32) {
    let k = type_scale(height);
    (round(BAR_HEIGHT * k), if settings.lower_third { round(LOWER_THIRD_HEIGHT * k) } else { 0.0 })
}

/// Whole points, for panels and margins: egui lays them out on the pixel grid.
fn round(points: f32) -> f32 {
    points.round()
}

/// The bar's and the roll's background: opaque, so that a chroma key stays flat around them.
pub(super) const BACKDROP: egui::Color32 = egui::Color32::from_rgb(18, 20, 19);

/// The newest roll in the log and when the table's screen first showed it; the same of the
/// newest secret choices revealed.
#[derive(Resource, Default)]
pub(super) struct LastRoll {
    seq: Option<u64>,
    since: f32,
    reveal: Option<u64>,
    reveal_since: f32,
}

impl LastRoll {
    /// As if the newest secret choices in `world`'s log were revealed long ago.
    pub(super) fn revealed_long_ago(world: &World) -> Self {
        let entries = world.get_resource::<GameLog>().map_or(&[][..], |l| l.entries());
        let reveal =
            entries.iter().rev().find(|e| matches!(e.event, LogEvent::Revealed { .. })).map(|e| e.seq);
        Self { reveal, reveal_since: f32::NEG_INFINITY, ..Self::default() }
    }

    /// Whether the table's screen shows a roll now (the status file's `table_roll`).
    pub(super) fn up(&self, now: f32) -> bool {
        self.seq.is_some() && now - self.since <= ROLL_SHOWN_SECS
    }
}

/// A secret choice being made, as a question for the table: "sealed declarations, 2 to come".
fn sealing(
    world: &World,
    rules: &dyn fray_core::ruleset::AnyRuleset,
) -> Option<fray_core::board::QuestionView> {
    let secret = rules.view().secret(world)?;
    let to_come = rules.awaiting(world).len();
    let what = format!("sealed {}s, {to_come} to come", secret.what);
    Some(fray_core::board::QuestionView { who: Vec::new(), what, about: Vec::new() })
}

/// The secret choices just revealed, for a few seconds after the table's screen first showed
/// them: "Revealed: Lockjaw 3 TP · Brannoc 0 TP" (none chosen by a combatant hidden from the
/// table; a choice the ruleset has no words for is left out).
fn revealed(
    (world, names): (&World, &Names),
    rules: &dyn fray_core::ruleset::AnyRuleset,
    entries: &[fray_core::log::LogEntry],
    last: &mut LastRoll,
    now: f32,
) -> Option<String> {
    let (seq, choices) = entries.iter().rev().find_map(|e| match &e.event {
        LogEvent::Revealed { choices, .. } => Some((e.seq, choices)),
        _ => None,
    })?;
    if last.reveal != Some(seq) {
        (last.reveal, last.reveal_since) = (Some(seq), now);
    }
    if now - last.reveal_since > ROLL_SHOWN_SECS {
        return None;
    }
    let index = world.resource::<TableIndex>();
    let said: Vec<String> = choices
        .iter()
        .filter_map(|c| {
            let who = index.combatant(&c.actor).filter(|&e| !hidden(world, e))?;
            let what = rules.view().revealed(world, &c.choice)?;
            Some(format!("{} {what}", names.of(world, who)))
        })
        .collect();
    (!said.is_empty()).then(|| format!("Revealed: {}", said.join(" · ")))
}

/// A question as the table may read it: "Brannoc: intercept the attack?"; none if everyone
/// asked is hidden from the table.
fn question(world: &World, names: &Names, asked: Option<fray_core::board::QuestionView>) -> Option<String> {
    let asked = asked?;
    if asked.about.iter().any(|&e| hidden(world, e)) {
        return None;
    }
    if asked.who.is_empty() {
        return Some(fray_core::board::capital(&asked.what));
    }
    let names: Vec<String> =
        asked.who.iter().filter(|&&e| !hidden(world, e)).map(|&e| names.of(world, e)).collect();
    match names.as_slice() {
        [] => None,
        [one] => Some(format!("{one}: {}", asked.what)),
        [a, b] => Some(format!("{a} and {b}: {}", asked.what)),
        [a, rest @ ..] => Some(format!("{a} and {} more: {}", rest.len(), asked.what)),
    }
}

/// The names the table's screen gives combatants: those their captions give them ("Aldric"
/// for "Sir Aldric"), so the bar and the board read alike, and its lines stay short.
struct Names(Vec<String>);

impl Names {
    fn read(world: &World) -> Self {
        Self(crate::client::board::names::all_names(world))
    }

    fn of(&self, world: &World, e: Entity) -> String {
        let all: Vec<&str> = self.0.iter().map(String::as_str).collect();
        crate::client::board::names::shown_name(&fray_core::table::name(world, e), &all).into_owned()
    }
}

/// A one-line label of `text` at type `size`, made smaller where it would not fit the room
/// left on its line, down to the table's `floor`; cut with "…" only past that.
fn fitted(
    ui: &mut egui::Ui,
    text: String,
    (size, floor): (f32, f32),
    (colour, strong): (egui::Color32, bool),
) {
    let wide = ui.painter().layout_no_wrap(text.clone(), egui::FontId::proportional(size), colour).size().x;
    let room = ui.available_width();
    // A little under the exact ratio: type does not scale quite in step with its size.
    let size = if wide > room && wide > 0.0 { (size * room / wide * 0.97).floor().max(floor) } else { size };
    let words = RichText::new(text).size(size).color(colour);
    ui.add(egui::Label::new(if strong { words.strong() } else { words }).truncate());
}

/// What lies on a screen, in points, that the roll keeps clear of when it can: the tokens
/// first, then the board's words (cards' names, captions, scenery's names, the ruler's); and
/// the overview's strip along the bottom, which it never covers.
#[derive(Default)]
pub(super) struct Beneath {
    pub tokens: Vec<egui::Rect>,
    pub names: Vec<egui::Rect>,
    /// The overview's height (none without one).
    pub below: f32,
}

/// Draws the bar and the last roll into `ctx` (`beneath`: what the roll keeps clear of).
pub(super) fn draw(ctx: &egui::Context, world: &World, last: &mut LastRoll, beneath: &Beneath) {
    let now = world.get_resource::<Time>().map_or(0.0, Time::elapsed_secs);
    let log = world.get_resource::<GameLog>();
    let entries = log.map_or(&[][..], |l| l.entries());
    let rules = ruleset(world);
    let k = type_scale(ctx.viewport_rect().height());
    let names = Names::read(world);
    let reveal = rules.as_ref().and_then(|r| revealed((world, &names), r.as_ref(), entries, last, now));
    // The table's floor: no line smaller than 2.2% of the screen's height.
    let floor = (ctx.viewport_rect().height() * 0.022).ceil();
    let lower_third = world.get_resource::<super::view::TableView>().is_some_and(|v| v.settings.lower_third);
    // The roll: in the lower third when it is on; else a box where one is free of the board's
    // tokens and words, else a line in the bar in place of the order, for its few seconds.
    let roll = if lower_third { None } else { shown_roll(world, entries, last, now) };
    let (roll_box_at, roll_in_bar) = match roll {
        Some(roll) => match roll_place(ctx, &roll, beneath, k) {
            Some(at) => (Some((roll, at)), None),
            None => (None, Some(roll)),
        },
        None => (None, None),
    };
    let mut root = egui::Ui::new(
        ctx.clone(),
        "fray_table_root".into(),
        UiBuilder::new().layer_id(LayerId::background()).max_rect(ctx.viewport_rect()),
    );
    let bar = egui::Frame::new().fill(BACKDROP).inner_margin(egui::Margin::symmetric(12, 6));
    egui::Panel::top("table_bar").frame(bar).exact_size(round(BAR_HEIGHT * k)).show(&mut root, |ui| {
        let Some(rules) = &rules else { return };
        // One line: the clock, the phase and whose turn it is; the order on a second.
        ui.horizontal(|ui| {
            if let Some(session) = world.get_resource::<fray_core::fight::Session>() {
                let name =
                    RichText::new(session.scenario.name()).size(27.0 * k).color(egui::Color32::LIGHT_BLUE);
                ui.label(name);
                ui.label(RichText::new("·").size(27.0 * k).color(egui::Color32::WHITE));
            }
            let clock = rules.clock_title(log.map_or(0, GameLog::clock));
            ui.label(RichText::new(clock).strong().size(30.0 * k).color(egui::Color32::WHITE));
            let phase = rules.phase(world).title;
            ui.label(RichText::new(format!("· {phase}")).size(27.0 * k).color(egui::Color32::YELLOW));
            let acting: Vec<String> = rules
                .view()
                .acting(world)
                .into_iter()
                .filter(|&e| !hidden(world, e))
                .map(|e| names.of(world, e))
                .collect();
            // What the rules ask now, else whose turn it is.
            let asked = rules.view().question(world).or_else(|| sealing(world, rules.as_ref()));
            let words = match question(world, &names, asked) {
                Some(said) => Some(format!("· {said}")),
                None => match acting.as_slice() {
                    [] => None,
                    [one] => Some(format!("· Turn: {one}")),
                    all => Some(format!("· Acting: {}", all.join(", "))),
                },
            };
            if let Some(words) = words {
                fitted(ui, words, (27.0 * k, floor), (egui::Color32::YELLOW, true));
            }
        });
        // The second line: what a secret choice revealed, for a moment (the order it makes
        // follows); else the roll, where the board has no room for its box; else the order.
        if let Some(reveal) = reveal {
            fitted(ui, reveal, (22.0 * k, floor), (egui::Color32::YELLOW, true));
            return;
        }
        if let Some(roll) = roll_in_bar {
            fitted(ui, format!("{}: {}", roll.caption, roll.sum), (22.0 * k, floor), (roll.colour, true));
            return;
        }
        // The order as the ruleset makes it public (Fiend Wake's once the bids are revealed).
        if let Some(order) = order_line(world, rules.as_ref(), &names) {
            fitted(ui, order, (22.0 * k, floor), (egui::Color32::WHITE, false));
        }
    });
    if lower_third {
        egui::Panel::bottom("table_lower_third")
            .frame(bar)
            .exact_size(round(LOWER_THIRD_HEIGHT * k))
            .show(&mut root, |ui| draw_lower_third(ui, world, entries, k));
    }
    if let Some((roll, at)) = roll_box_at {
        roll_box(ctx, roll, at, k);
    }
}

/// The order as the ruleset makes it public (Fiend Wake's once the bids are revealed), in one
/// line: the bar keeps its height, and the board below stays in view.
fn order_line(world: &World, rules: &dyn fray_core::ruleset::AnyRuleset, names: &Names) -> Option<String> {
    let order = rules.view().order(world).filter(|o| !o.entries.is_empty())?;
    let mut listed: Vec<String> = Vec::new();
    let (mut n, mut head) = (0, None);
    for (i, entry) in order.entries.iter().enumerate() {
        // The GM's events on a ladder are public: they sit in the line where they come.
        listed.extend(order.events.iter().filter(|ev| ev.before == i).map(|ev| format!("({})", ev.what)));
        // A sequence is numbered; groups in no fixed order are headed instead (the
        // head kept for the group's first one shown).
        if !order.numbered && !entry.when.is_empty() {
            head = Some(entry.when.as_str());
        }
        if !hidden(world, entry.who) {
            n += 1;
            let name = names.of(world, entry.who);
            // A group's members are listed after its head with commas.
            match (order.numbered, head.take(), listed.last_mut()) {
                (true, ..) => listed.push(format!("{n}. {name}")),
                (false, None, Some(group)) => group.push_str(&format!(", {name}")),
                (false, None, None) => listed.push(name),
                (false, Some(head), _) => listed.push(format!("{head}: {name}")),
            }
        }
    }
    let after = order.events.iter().filter(|ev| ev.before >= order.entries.len());
    listed.extend(after.map(|ev| format!("({})", ev.what)));
    Some(format!("{}: {}", order.title, listed.join("   ")))
}

/// The lower third: the newest roll and the newest damage the table may see, one line each.
fn draw_lower_third(ui: &mut egui::Ui, world: &World, entries: &[fray_core::log::LogEntry], k: f32) {
    let index = world.resource::<TableIndex>();
    // Who an entry is about, when the table may see it (none: no one in particular).
    let shown = |e: &fray_core::log::LogEntry| -> Option<String> {
        let who = e.actor.as_ref().and_then(|id| index.combatant(id));
        match who {
            Some(c) if hidden(world, c) => None,
            Some(c) => Some(fray_core::table::name(world, c)),
            None => Some(String::new()),
        }
    };
    let roll = entries.iter().rev().find_map(|e| match &e.event {
        LogEvent::Roll(roll) => shown(e)
            .map(|who| (who, roll))
            .filter(|(who, roll)| !names_hidden_from_table(world, &words::roll_caption(who, roll))),
        _ => None,
    });
    let line = match roll {
        Some((who, roll)) => {
            let (caption, sum, colour) = roll_words(world, &who, roll);
            (format!("{caption}   {sum}"), colour)
        }
        None => ("No roll yet".to_owned(), egui::Color32::GRAY),
    };
    ui.add(egui::Label::new(RichText::new(line.0).strong().size(30.0 * k).color(line.1)).truncate());
    let damage = entries.iter().rev().find_map(|e| match &e.event {
        LogEvent::Damage { damage, reduced, taken, .. } => {
            shown(e).map(|who| (who, damage, *reduced, *taken))
        }
        _ => None,
    });
    let line = match damage {
        Some((who, damage, reduced, taken)) => {
            let (words, _) = crate::client::damage::label(damage, reduced, taken);
            format!("{who}: {words}")
        }
        None => "No damage yet".to_owned(),
    };
    ui.add(egui::Label::new(RichText::new(line).size(26.0 * k).color(egui::Color32::WHITE)).truncate());
}

/// Where the roll may stand on a `screen` (its type `k` times the 900-point size): the bottom's
/// middle first, then its corners, then the top corners under the bar; then, for a crowded
/// board, a quarter of the way in from each side along the bottom and the top, the top's
/// middle, and the middle of each side. Each an anchor, its offset, and the screen it is
/// aligned in.
fn roll_spots(screen: egui::Rect, k: f32) -> Vec<(egui::Align2, egui::Vec2, egui::Rect)> {
    use egui::Align2 as A;
    let m = round(30.0 * k);
    let top = round(BAR_HEIGHT * k) + m;
    let quarter = round(screen.width() / 4.0);
    [
        (A::CENTER_BOTTOM, egui::vec2(0.0, -m)),
        (A::LEFT_BOTTOM, egui::vec2(m, -m)),
        (A::RIGHT_BOTTOM, egui::vec2(-m, -m)),
        (A::RIGHT_TOP, egui::vec2(-m, top)),
        (A::LEFT_TOP, egui::vec2(m, top)),
        (A::CENTER_BOTTOM, egui::vec2(-quarter, -m)),
        (A::CENTER_BOTTOM, egui::vec2(quarter, -m)),
        (A::CENTER_TOP, egui::vec2(0.0, top)),
        (A::CENTER_TOP, egui::vec2(-quarter, top)),
        (A::CENTER_TOP, egui::vec2(quarter, top)),
        (A::LEFT_CENTER, egui::vec2(m, top / 2.0)),
        (A::RIGHT_CENTER, egui::vec2(-m, top / 2.0)),
    ]
    .into_iter()
    .map(|(align, offset)| (align, offset, screen))
    .collect()
}

/// Which of `spots` a roll `size` large stands at: the `previous` one while it covers no
/// token and no board word, else the first such; none if every spot covers one.
fn roll_spot(
    spots: &[(egui::Align2, egui::Vec2, egui::Rect)],
    size: egui::Vec2,
    beneath: &Beneath,
    previous: Option<usize>,
) -> Option<usize> {
    let free = |(align, offset, screen): &(egui::Align2, egui::Vec2, egui::Rect)| {
        // A few points to spare: the box as drawn may come out a little larger than measured.
        let at = align.align_size_within_rect(size, *screen).translate(*offset).expand(4.0);
        !beneath.tokens.iter().chain(&beneath.names).any(|t| t.intersects(at))
    };
    match previous {
        Some(p) if spots.get(p).is_some_and(free) => Some(p),
        _ => spots.iter().position(free),
    }
}

/// The newest roll the table may see while it is up (a few seconds): its caption, outcome and
/// colour, and whether it came this frame. None made by or naming a hidden combatant.
struct Shown {
    caption: String,
    sum: String,
    colour: egui::Color32,
    fresh: bool,
}

fn shown_roll(
    world: &World,
    entries: &[fray_core::log::LogEntry],
    last: &mut LastRoll,
    now: f32,
) -> Option<Shown> {
    let (seq, actor, roll) = entries.iter().rev().find_map(|e| match &e.event {
        LogEvent::Roll(roll) => Some((e.seq, e.actor.clone(), roll)),
        _ => None,
    })?;
    let fresh = last.seq != Some(seq);
    if fresh {
        (last.seq, last.since) = (Some(seq), now);
    }
    if now - last.since > ROLL_SHOWN_SECS {
        return None;
    }
    let who = actor.and_then(|id| world.resource::<TableIndex>().combatant(&id));
    if who.is_some_and(|e| hidden(world, e)) {
        return None;
    }
    let who = who.map(|e| fray_core::table::name(world, e)).unwrap_or_default();
    let (caption, sum, colour) = roll_words(world, &who, roll);
    (!names_hidden_from_table(world, &caption)).then_some(Shown { caption, sum, colour, fresh })
}

/// The roll's box: its size on a screen of type scale `k`.
fn roll_size(ctx: &egui::Context, roll: &Shown, k: f32) -> egui::Vec2 {
    let line = |text: &str, size: f32| {
        ctx.fonts_mut(|f| {
            f.layout_no_wrap(text.to_owned(), egui::FontId::proportional(size), egui::Color32::WHITE)
        })
        .size()
    };
    let (caption, sum) = (line(&roll.caption, 32.0 * k), line(&roll.sum, 48.0 * k));
    let margin = 2.0 * round(18.0 * k);
    let gap = ctx.global_style().spacing.item_spacing.y;
    egui::vec2(caption.x.max(sum.x) + margin, caption.y + gap + sum.y + margin)
}

/// Where the roll's box stands: at the spot that covers no token and no board word (the
/// last one while it stays free, so the box does not hop about as tokens glide); none where
/// every spot covers one (the roll then reads in the bar).
fn roll_place(ctx: &egui::Context, roll: &Shown, beneath: &Beneath, k: f32) -> Option<egui::Pos2> {
    let id = egui::Id::new("table_roll");
    let size = roll_size(ctx, roll, k);
    let previous = ctx.data(|d| d.get_temp::<usize>(id));
    let mut room = ctx.content_rect();
    room.max.y -= beneath.below;
    let spots = roll_spots(room, k);
    let chosen = roll_spot(&spots, size, beneath, previous)?;
    ctx.data_mut(|d| d.insert_temp(id, chosen));
    // Placed in the room above the overview (an anchor would align it to the whole screen).
    let (align, offset, room) = spots[chosen];
    Some(align.align_size_within_rect(size, room).translate(offset).min)
}

/// The roll, big, at `at`.
fn roll_box(ctx: &egui::Context, roll: Shown, at: egui::Pos2, k: f32) {
    let id = egui::Id::new("table_roll");
    // A new roll is measured, unseen, in its first frame: placed by the last roll's size it
    // would stand partly off the screen for a frame.
    egui::Area::new(id).fixed_pos(at).sizing_pass(roll.fresh).show(ctx, |ui| {
        egui::Frame::new().fill(BACKDROP).inner_margin(round(18.0 * k)).corner_radius(round(10.0 * k)).show(
            ui,
            |ui| {
                let what = RichText::new(roll.caption).size(32.0 * k).color(egui::Color32::WHITE);
                ui.add(egui::Label::new(what).extend());
                let sum = RichText::new(roll.sum).strong().size(48.0 * k).color(roll.colour);
                ui.add(egui::Label::new(sum).extend());
            },
        );
    });
}

/// A roll's caption (who, what), its outcome and the outcome's colour. A draw reads by whom
/// it put first: its numbers tell a viewer nothing.
fn roll_words(world: &World, who: &str, roll: &RollRecord) -> (String, String, egui::Color32) {
    let caption = words::roll_caption(who, roll);
    match &roll.reading {
        RollReading::Draw { order, .. } => {
            let first = order.first().map(|id| words::who(world, id)).unwrap_or_default();
            let caption =
                if roll.told.is_some() { caption } else { format!("{caption}: a draw breaks the tie") };
            (caption, format!("{first} first"), egui::Color32::WHITE)
        }
        _ => {
            let (sum, colour) = roll_line(roll);
            (caption, sum, colour)
        }
    }
}

/// The roll's outcome as its kind reads, and its colour (success or miss).
fn roll_line(roll: &RollRecord) -> (String, egui::Color32) {
    let (verdict, colour) = if roll.success() {
        ("success", egui::Color32::LIGHT_GREEN)
    } else {
        ("miss", egui::Color32::LIGHT_RED)
    };
    let dice: Vec<String> = roll.dice.iter().map(u32::to_string).collect();
    let dice = dice.join(" ");
    let line = match &roll.reading {
        RollReading::BestPlus { modifier, total, difficulty, .. } => {
            format!("[{dice}] + {modifier} = {total} vs {difficulty} — {verdict}")
        }
        RollReading::Successes { target, successes, .. } => {
            format!("[{dice}] vs {target}: {successes} success{}", if *successes == 1 { "" } else { "es" })
        }
        RollReading::Sum { modifier, total } => format!("[{dice}] {modifier:+} = {total}"),
        RollReading::Percentile { chance, critical, .. } => {
            format!("[{dice}] vs {chance}% — {}{verdict}", if *critical { "critical " } else { "" })
        }
        RollReading::Draw { .. } => "a draw".to_owned(),
    };
    (line, colour)
}

#[cfg(test)]
mod tests {
    use super::{Beneath, egui, roll_spot, roll_spots};

    #[test]
    fn the_roll_stands_where_no_token_or_word_is_and_stays_put_while_that_spot_stays_free() {
        let screen = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1280.0, 720.0));
        // The first five spots; the others are for a crowded board (the next test).
        let all = roll_spots(screen, 1.0);
        let spots = &all[..5];
        let size = egui::vec2(460.0, 130.0);
        let on = |tokens: &[egui::Rect], names: &[egui::Rect]| Beneath {
            tokens: tokens.to_vec(),
            names: names.to_vec(),
            below: 0.0,
        };
        let token_at = |at: egui::Pos2| egui::Rect::from_center_size(at, egui::vec2(60.0, 60.0));
        let token = |x: f32, y: f32| token_at(egui::pos2(x, y));
        assert_eq!(
            roll_spot(spots, size, &on(&[], &[]), None),
            Some(0),
            "the bottom's middle on an empty board"
        );
        let middle = token(640.0, 620.0);
        assert_eq!(
            roll_spot(spots, size, &on(&[middle], &[]), None),
            Some(1),
            "a token there: the lower left"
        );
        let left = token(150.0, 620.0);
        assert_eq!(roll_spot(spots, size, &on(&[middle, left], &[]), None), Some(2), "then the lower right");
        assert_eq!(roll_spot(spots, size, &on(&[middle], &[]), Some(4)), Some(4), "kept while it stays free");
        // A card's name where the lower left would stand: the lower right.
        let name = egui::Rect::from_min_size(egui::pos2(40.0, 560.0), egui::vec2(200.0, 30.0));
        assert_eq!(roll_spot(spots, size, &on(&[middle], &[name]), None), Some(2), "clear of the name");
        // Something under every spot: no spot (the roll reads in the bar instead).
        let everywhere: Vec<egui::Rect> = spots
            .iter()
            .map(|(a, o, s)| token_at(a.align_size_within_rect(size, *s).translate(*o).center()))
            .collect();
        assert_eq!(roll_spot(spots, size, &on(&everywhere, &[]), Some(3)), None, "no spot is free");
        let under_first = egui::Rect::from_center_size(everywhere[0].center(), egui::vec2(200.0, 30.0));
        assert_eq!(
            roll_spot(spots, size, &on(&everywhere[1..], &[under_first]), None),
            None,
            "nor over a word"
        );
    }

    #[test]
    fn on_a_crowded_board_the_roll_finds_a_spot_along_the_sides_and_keeps_above_the_overview() {
        // The Initiative ladder's ford in table mode: a word under each of the first five spots.
        let screen = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1600.0, 654.0));
        let spots = roll_spots(screen, 1.0);
        let size = egui::vec2(524.0, 131.0);
        let placed = |i: usize| {
            let (align, offset, screen) = spots[i];
            align.align_size_within_rect(size, screen).translate(offset)
        };
        let words: Vec<egui::Rect> = (0..5)
            .map(|i| egui::Rect::from_center_size(placed(i).center(), egui::vec2(80.0, 30.0)))
            .collect();
        let beneath = Beneath { tokens: Vec::new(), names: words, below: 0.0 };
        let chosen = roll_spot(&spots, size, &beneath, Some(4)).expect("a free spot");
        assert!(chosen >= 5, "a spot further along: {chosen}");
        assert!(!beneath.names.iter().any(|w| w.intersects(placed(chosen))), "clear of every word");
        // Every spot stands within the room it was given (the overview is below it).
        assert!((0..spots.len()).all(|i| screen.contains_rect(placed(i))), "within the room");
    }
}
