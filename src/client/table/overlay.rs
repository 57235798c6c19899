//! What the table's screen writes over the board, in large type: the round (or tick) and
//! phase, the priority order once the bids are revealed, and the last dice roll for a few
//! seconds. Drawn in the table window, and in the GM's window in table mode. It reads only
//! what everyone sees (the rule state on the board and the log), never a pending bid or
//! choice, and names no combatant the GM hides from the table.

use bevy::prelude::*;
use bevy_egui::egui::{self, LayerId, RichText, UiBuilder};
use fiend_wake::FwPhase;
use fiend_wake::phase::Round;
use fray_core::log::{GameLog, LogEvent};
use fray_core::phase::CurrentPhase;
use fray_core::prelude::TableIndex;

use super::audience::hidden_from_table as hidden;
use crate::client::fatewalker::is_fatewalker;

/// How long the last dice roll stays up, in seconds.
const ROLL_SHOWN_SECS: f32 = 5.0;
/// The room the table's top bar takes, in logical pixels, left out when framing the board.
pub const BAR_HEIGHT: f32 = 150.0;

/// The bar's and the roll's background: opaque, so that a chroma key stays flat around them.
const BACKDROP: egui::Color32 = egui::Color32::from_rgb(18, 20, 19);

/// The newest roll in the log and when the table's screen first showed it.
#[derive(Resource, Default)]
pub(super) struct LastRoll {
    seq: Option<u64>,
    since: f32,
}

/// Draws the bar and the last roll into `ctx`.
pub(super) fn draw(ctx: &egui::Context, world: &World, last: &mut LastRoll) {
    let now = world.get_resource::<Time>().map_or(0.0, Time::elapsed_secs);
    let fiend_wake = !is_fatewalker(world);
    let log = world.get_resource::<GameLog>();
    let entries = log.map_or(&[][..], |l| l.entries());
    let round = world.get_resource::<Round>();
    let mut root = egui::Ui::new(
        ctx.clone(),
        "fray_table_root".into(),
        UiBuilder::new().layer_id(LayerId::background()).max_rect(ctx.viewport_rect()),
    );
    let bar = egui::Frame::new().fill(BACKDROP).inner_margin(12.0);
    egui::Panel::top("table_bar").frame(bar).exact_size(BAR_HEIGHT).show(&mut root, |ui| {
        ui.horizontal_wrapped(|ui| {
            // FateWalker has no rounds: its log counts half-second ticks instead.
            let clock = match (round, log) {
                (Some(r), _) if fiend_wake => format!("Round {}", r.number),
                (_, Some(l)) if !fiend_wake => {
                    format!("Tick {} ({:.1} s)", l.round(), l.round() as f32 / 2.0)
                }
                _ => String::new(),
            };
            ui.label(RichText::new(clock).strong().size(40.0).color(egui::Color32::WHITE));
            let phase = world.get_resource::<CurrentPhase<FwPhase>>();
            let phase_name = match (phase, entries.last()) {
                (Some(p), _) if fiend_wake => Some(p.get().title().to_string()),
                (_, Some(entry)) => Some(entry.phase.replace('_', " ")),
                _ => None,
            };
            if let Some(name) = phase_name {
                ui.label(RichText::new(format!("· {name}")).size(36.0).color(egui::Color32::YELLOW));
            }
        });
        if let Some(now) = acting_now(world, fiend_wake) {
            let now = RichText::new(now).strong().size(30.0).color(egui::Color32::YELLOW);
            ui.add(egui::Label::new(now).truncate());
        }
        // The order is public only once the bids are revealed.
        if let Some(r) = round.filter(|r| fiend_wake && r.revealed && !r.priority.is_empty()) {
            let names: Vec<String> = r
                .priority
                .iter()
                .filter(|&&e| !hidden(world, e))
                .enumerate()
                .map(|(i, &e)| format!("{}. {}", i + 1, fray_core::table::name(world, e)))
                .collect();
            let order = RichText::new(format!("Priority: {}", names.join("   ")))
                .size(24.0)
                .color(egui::Color32::WHITE);
            // One line: the bar keeps its height, and the board below stays in view.
            ui.add(egui::Label::new(order).truncate());
        }
    });
    last_roll(ctx, world, entries, last, now);
}

/// Whose turn it is (Fiend Wake), or who may act this tick (FateWalker), leaving out those
/// the GM hides.
fn acting_now(world: &World, fiend_wake: bool) -> Option<String> {
    if fiend_wake {
        let actor = world.get_resource::<fiend_wake::ActiveTurn>()?.actor?;
        let playing =
            world.get_resource::<CurrentPhase<FwPhase>>().is_some_and(|p| p.get() == FwPhase::ExecuteTurns);
        return (playing && !hidden(world, actor))
            .then(|| format!("Turn: {}", fray_core::table::name(world, actor)));
    }
    let index = world.resource::<TableIndex>();
    let names: Vec<String> = fatewalker::view::board(world)
        .combatants
        .into_iter()
        .filter(|c| c.may_act_now && c.status.can_act())
        .filter(|c| index.combatant(&c.id).is_none_or(|e| !hidden(world, e)))
        .map(|c| c.name)
        .collect();
    (!names.is_empty()).then(|| format!("Acting now: {}", names.join(", ")))
}

/// The newest roll, big, for a few seconds (not one made by a hidden combatant).
fn last_roll(
    ctx: &egui::Context,
    world: &World,
    entries: &[fray_core::log::LogEntry],
    last: &mut LastRoll,
    now: f32,
) {
    let newest = entries.iter().rev().find_map(|e| match &e.event {
        LogEvent::Roll(roll) => Some((e.seq, e.actor.clone(), roll)),
        _ => None,
    });
    let Some((seq, actor, roll)) = newest else {
        return;
    };
    if last.seq != Some(seq) {
        *last = LastRoll { seq: Some(seq), since: now };
    }
    if now - last.since > ROLL_SHOWN_SECS {
        return;
    }
    let who = actor.and_then(|id| world.resource::<TableIndex>().combatant(&id));
    if who.is_some_and(|e| hidden(world, e)) {
        return;
    }
    let who = who.map(|e| fray_core::table::name(world, e)).unwrap_or_default();
    let verdict = if roll.success {
        ("success", egui::Color32::LIGHT_GREEN)
    } else {
        ("miss", egui::Color32::LIGHT_RED)
    };
    let dice: Vec<String> = roll.dice.iter().map(u32::to_string).collect();
    egui::Area::new("table_roll".into()).anchor(egui::Align2::CENTER_BOTTOM, [0.0, -30.0]).show(ctx, |ui| {
        egui::Frame::new().fill(BACKDROP).inner_margin(18.0).corner_radius(10.0).show(ui, |ui| {
            let what = RichText::new(format!("{who}: {}", roll.what)).size(32.0).color(egui::Color32::WHITE);
            ui.add(egui::Label::new(what).extend());
            // FateWalker counts the dice that reach a target number; Fiend Wake adds a skill.
            let sum = if is_fatewalker(world) {
                let plural = if roll.value == 1 { "" } else { "es" };
                format!("[{}] vs {}: {} success{plural}", dice.join(" "), roll.difficulty, roll.value)
            } else {
                format!(
                    "[{}] + {} = {} vs {} — {}",
                    dice.join(" "),
                    roll.modifier,
                    roll.value,
                    roll.difficulty,
                    verdict.0
                )
            };
            ui.add(egui::Label::new(RichText::new(sum).strong().size(48.0).color(verdict.1)).extend());
        });
    });
}
