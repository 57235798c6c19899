//! The Initiative ladder's board adapter: a dropped token moves there by the movement action
//! chosen above the decider's choices (by default the cheapest that reaches: a walk, a
//! charge, a run; a take cover when the drop lands behind cover); while dragging, the ruler
//! says what each movement action would cost and whose opportunity attacks it would provoke;
//! the decision panel says what is being answered.

use ap_ladder::combat::odds;
use ap_ladder::field::{distance, position};
use ap_ladder::intent::MoveKind;
use ap_ladder::moves::{plan_move, reach};
use ap_ladder::phase::{Battle, Fighter};
use ap_ladder::{ApLadder, ApLadderIntent};
use bevy::prelude::*;
use bevy_egui::egui;
use fray_core::ruleset::Ruleset;
use fray_core::table::name;

use crate::client::adapter::{BoardAdapter, BoardAsk, DropAnswer, DropPoint};

/// The Initiative ladder's board adapter.
pub struct Board;

/// The movement action a drop makes (none: the cheapest that reaches).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveMode(pub Option<MoveKind>);

/// The movement action a drop at `to` makes: the chosen one, else the cheapest that is allowed.
fn pick(world: &World, e: Entity, to: [f32; 2]) -> MoveKind {
    if let Some(how) = world.get_resource::<MoveMode>().and_then(|m| m.0) {
        return how;
    }
    let cover = plan_move(world, e, to, MoveKind::TakeCover);
    if cover.is_ok() {
        return MoveKind::TakeCover;
    }
    // The cheapest allowed; none: the first that goes that far, to be refused with its reason.
    let kinds = [MoveKind::Walk, MoveKind::Charge, MoveKind::Run];
    let yards = distance(position(world, e), to);
    kinds
        .into_iter()
        .find(|&how| plan_move(world, e, to, how).is_ok())
        .or_else(|| kinds.into_iter().find(|&how| reach(world, e, how) + 1e-3 >= yards))
        .unwrap_or(MoveKind::Run)
}

impl BoardAdapter for Board {
    type Rules = ApLadder;

    fn plugin(app: &mut App) {
        app.init_resource::<MoveMode>();
    }

    fn dropped(world: &World, e: Entity, drop: &DropPoint) -> DropAnswer<ApLadderIntent> {
        if !ApLadder::awaiting(world).contains(&e) {
            return DropAnswer::Nothing;
        }
        let how = pick(world, e, drop.at);
        DropAnswer::Send(ApLadderIntent::Move { to: (drop.at[0], drop.at[1]), how })
    }

    fn decision(ui: &mut egui::Ui, world: &World, e: Entity, asks: &mut Vec<BoardAsk>) {
        let battle = world.resource::<Battle>();
        if let Some(p) = battle.pending.as_ref().filter(|p| p.defender == e) {
            let odds: Vec<String> = odds(world, p)
                .into_iter()
                .map(|(r, v)| match v {
                    Ok(c) => format!("{} {c}% for 1 AP", r.word()),
                    Err(why) => format!("{}: {}", r.word(), why.0),
                })
                .collect();
            ui.label(format!("{} hits: react, or take it. {}.", name(world, p.attacker), odds.join(" · ")));
            return;
        }
        let ap = world.get::<Fighter>(e).map_or(0, |f| f.ap);
        ui.label(format!("Your turn, {ap} AP left: drag your token to move, or act."));
        let now = world.get_resource::<MoveMode>().copied().unwrap_or_default();
        ui.horizontal_wrapped(|ui| {
            ui.label("A drag moves by:");
            let mut set = |ui: &mut egui::Ui, mode: Option<MoveKind>, label: &str| {
                if ui.selectable_label(now.0 == mode, label).clicked() {
                    asks.push(BoardAsk::Apply(Box::new(move |world: &mut World| {
                        world.insert_resource(MoveMode(mode));
                    })));
                }
            };
            set(ui, None, "cheapest");
            for how in MoveKind::ALL {
                set(ui, Some(how), how.word());
            }
        });
    }

    fn ruler(world: &World, e: Entity, _yards: f32, to: [f32; 2]) -> Option<String> {
        let chosen = pick(world, e, to);
        let plan = match plan_move(world, e, to, chosen) {
            Ok(plan) => plan,
            Err(why) => return Some(format!("refused: {}", why.0)),
        };
        // The other movement actions that would go there too, by their cost.
        let others: Vec<String> = [MoveKind::Walk, MoveKind::Charge, MoveKind::Run, MoveKind::TakeCover]
            .into_iter()
            .filter(|&how| how != chosen)
            .filter_map(|how| plan_move(world, e, to, how).ok().map(|p| format!("{} {}", how.word(), p.ap)))
            .collect();
        let or = if others.is_empty() { String::new() } else { format!(" (or {})", others.join(", ")) };
        let oa = if plan.provokes.is_empty() && plan.met.is_empty() {
            String::new()
        } else {
            let who: Vec<String> = plan.provokes.iter().chain(&plan.met).map(|&t| name(world, t)).collect();
            format!("\nprovokes an opportunity attack: {}", who.join(", "))
        };
        Some(format!("{} {} AP{or}{oa}", chosen.word(), plan.ap))
    }
}
