//! The Initiative ladder's board adapter: a dropped token moves there by the movement action
//! chosen above the decider's choices (by default the cheapest that reaches: a walk, a
//! charge, a run; a take cover when the drop lands behind cover); while dragging, the ruler
//! says what each movement action that goes there would cost (walk, step aside, take cover,
//! sneak, charge, maneuver, run), whose opportunity attacks it would provoke and which would
//! not;
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
        // The other movement actions that would go there too, cheapest first, with those that
        // would slip away from the opportunity attacks this one provokes.
        let provoked = !plan.provokes.is_empty();
        let others: Vec<String> = MoveKind::ALL
            .into_iter()
            .filter(|&how| how != chosen)
            .filter_map(|how| {
                let p = plan_move(world, e, to, how).ok()?;
                let safe = if provoked && p.provokes.is_empty() { " without the attack" } else { "" };
                Some(format!("{} {}{safe}", how.word(), p.ap))
            })
            .collect();
        let or = if others.is_empty() { String::new() } else { format!("\nor {}", others.join(", ")) };
        let oa = if plan.provokes.is_empty() && plan.met.is_empty() {
            String::new()
        } else {
            let who: Vec<String> = plan.provokes.iter().chain(&plan.met).map(|&t| name(world, t)).collect();
            format!("\nprovokes an opportunity attack: {}", who.join(", "))
        };
        Some(format!("{} {} AP{or}{oa}", chosen.word(), plan.ap))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fray_core::prelude::{FieldPosition, TableIndex};

    const TAVERN: &str = include_str!("../../../assets/scenarios/ap_ladder_tavern.ron");

    /// The tavern with Bran's turn opened by hand, Perrin engaged beside him.
    fn bran_engaged() -> (App, Entity) {
        let mut app = fray_core::ruleset::table_app::<ApLadder>(TAVERN, 9, 20, false)
            .unwrap_or_else(|e| panic!("{}", e.report("scenario").join("; ")));
        let who = |app: &App, id: &str| app.world().resource::<TableIndex>().combatant(&id.into()).expect(id);
        let (bran, perrin) = (who(&app, "bran"), who(&app, "perrin"));
        app.world_mut().entity_mut(bran).insert(FieldPosition([-1.8, 0.5]));
        app.world_mut().entity_mut(perrin).insert(FieldPosition([-1.8, -0.6]));
        fray_core::phase::go_to(app.world_mut(), ap_ladder::ApLadderPhase::Turns);
        ap_ladder::ladder::start_turn(app.world_mut(), bran);
        (app, bran)
    }

    #[test]
    fn the_ruler_costs_every_move_that_goes_there_and_names_those_that_slip_away() {
        let (app, bran) = bran_engaged();
        // A yard away from Perrin: a walk provokes him; a step aside or a maneuver does not.
        let near = Board::ruler(app.world(), bran, 1.0, [-1.8, 1.5]).expect("words");
        assert!(near.starts_with("walk 1 AP"), "the cheapest first: {near}");
        assert!(near.contains("step aside 1 without the attack"), "{near}");
        assert!(near.contains("maneuver 2 without the attack"), "{near}");
        assert!(near.contains("provokes an opportunity attack: Perrin"), "{near}");
        // Four yards: past a step aside's or a maneuver's yard.
        let far = Board::ruler(app.world(), bran, 4.0, [-2.0, 4.5]).expect("words");
        assert!(far.starts_with("walk 1 AP") && far.contains("run 3"), "{far}");
        assert!(!far.contains("maneuver") && !far.contains("step aside"), "{far}");
        // Past a run: refused with its reason.
        let beyond = Board::ruler(app.world(), bran, 40.0, [-41.8, 0.5]).expect("words");
        assert!(beyond.starts_with("refused: "), "{beyond}");
    }
}
