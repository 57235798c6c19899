//! Fast & Slow's board adapter: a dropped token moves there (base Paces first, then move
//! actions of 4 Paces, not split), the ruler says what the drag would spend or why it is too
//! far, and the decision panel says what is being answered (the DL of a defence, a fumble).

use bevy::prelude::*;
use bevy_egui::egui;
use fast_slow::phase::{Battle, Fighter};
use fast_slow::turns::{budget, plan_move, position};
use fast_slow::{FastSlow, FastSlowIntent, FastSlowPhase};
use fray_core::phase::current;
use fray_core::ruleset::Ruleset;
use fray_core::table::name;

use crate::client::adapter::{BoardAdapter, BoardAsk, DropAnswer, DropPoint};

/// Fast & Slow's board adapter.
pub struct Board;

impl BoardAdapter for Board {
    type Rules = FastSlow;

    fn dropped(world: &World, e: Entity, drop: &DropPoint) -> DropAnswer<FastSlowIntent> {
        if !FastSlow::awaiting(world).contains(&e) {
            return DropAnswer::Nothing;
        }
        DropAnswer::Send(FastSlowIntent::Move { to: (drop.at[0], drop.at[1]) })
    }

    fn decision(ui: &mut egui::Ui, world: &World, e: Entity, _asks: &mut Vec<BoardAsk>) {
        ui.label(question(world, e));
    }

    fn ruler(world: &World, e: Entity, _paces: f32, to: [f32; 2]) -> Option<String> {
        let (base, _) = budget(world, e);
        Some(match plan_move(world, e, to) {
            Ok(plan) if plan.actions == 0 => format!("{:.1} of {base:.1} base Paces", plan.paces),
            Ok(plan) => format!(
                "{:.1} base Paces + {} move action{} (not split)",
                plan.base,
                plan.actions,
                if plan.actions == 1 { "" } else { "s" }
            ),
            Err(why) => format!("too far: {}", why.0),
        })
    }
}

/// What the person answers now, in words.
fn question(world: &World, e: Entity) -> String {
    let battle = world.resource::<Battle>();
    if let Some(hit) = battle.pending.as_ref().filter(|h| h.defender == e) {
        let fast = if hit.fast { " It was made on a Fast turn: only Brace." } else { "" };
        return format!(
            "{} hits: defend against DL {} ({} damage undefended).{fast}",
            hit.source, hit.dl, hit.damage
        );
    }
    if let Some((_, fumbler)) = battle.counter.filter(|(d, _)| *d == e) {
        return format!("{} fumbled: counterattack, or let it go.", name(world, fumbler));
    }
    match current::<FastSlowPhase>(world) {
        FastSlowPhase::Opening => {
            "Free movement before round one: drag your token (4 Paces), then end it.".to_owned()
        }
        FastSlowPhase::RoundStart => "Choose a Fast or a Slow turn, in secret.".to_owned(),
        _ => {
            let at = position(world, e);
            let f = world.get::<Fighter>(e);
            format!(
                "Your turn at ({:.1}, {:.1}): drag to move, or act. {}",
                at[0],
                at[1],
                f.map_or(String::new(), |f| format!(
                    "{} action{} left.",
                    f.actions,
                    if f.actions == 1 { "" } else { "s" }
                ))
            )
        }
    }
}
