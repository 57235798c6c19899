//! Bid for Priority: secret bids of TP, revealed together; highest first; tied bidders may
//! cede, then Tactics decides, then a random draw.

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::dice::{RollReading, RollRecord, TableRng};
use fray_core::intent::{IntentRecord, Rejection, Verdict};
use fray_core::log::{LogEvent, Revealed};
use fray_core::phase::RulesStep;

use crate::counters::TACTICAL_POINT;
use crate::data::Skill;
use crate::phase::{FiendWakePhase, Round, go_to};
use crate::schedule::FiendWakeSystems;
use crate::sheet::{RoundChoices, Skills};
use crate::view;

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(RulesStep, reveal_bids.in_set(FiendWakeSystems::BidForPriority))
        .add_systems(RulesStep, settle_priority.in_set(FiendWakeSystems::Cede));
}

/// Whether `e` has yet to bid.
pub(crate) fn owes_bid(world: &World, e: Entity) -> bool {
    view::can_act(world, e) && world.get::<RoundChoices>(e).is_some_and(|c| c.bid.is_none())
}

/// Whether `e` is tied and has yet to choose whether to cede.
pub(crate) fn owes_cede(world: &World, e: Entity) -> bool {
    world.resource::<Round>().tied.contains(&e)
        && view::can_act(world, e)
        && world.get::<RoundChoices>(e).is_some_and(|c| c.cede.is_none())
}

/// Combatants who have not bid yet.
pub(crate) fn awaiting_bids(world: &World) -> Vec<Entity> {
    view::combatants(world).into_iter().filter(|&e| owes_bid(world, e)).collect()
}

/// Tied combatants who have not chosen whether to cede.
pub(crate) fn awaiting_cedes(world: &World) -> Vec<Entity> {
    let tied = world.resource::<Round>().tied.clone();
    tied.into_iter().filter(|&e| owes_cede(world, e)).collect()
}

/// Checks a bid.
pub(crate) fn check_bid(world: &World, e: Entity, tp: u32) -> Verdict {
    let held = view::count(world, e, TACTICAL_POINT);
    if tp > held {
        return Err(Rejection::new(format!("bids {tp} TP but holds only {held}")));
    }
    Ok(())
}

/// Records a secret bid (TP are spent at the reveal).
pub(crate) fn bid(world: &mut World, e: Entity, tp: u32) {
    if let Some(mut c) = world.get_mut::<RoundChoices>(e) {
        c.bid = Some(tp);
    }
}

/// Records a cede choice.
pub(crate) fn cede(world: &mut World, e: Entity, cede: bool) {
    if let Some(mut c) = world.get_mut::<RoundChoices>(e) {
        c.cede = Some(cede);
    }
}

fn bids(world: &World) -> Vec<(Entity, u32)> {
    view::combatants(world)
        .into_iter()
        .filter(|&e| view::can_act(world, e))
        .filter_map(|e| Some((e, world.get::<RoundChoices>(e)?.bid?)))
        .collect()
}

/// When every bid is in: spends them, reveals them together, and finds the ties.
fn reveal_bids(world: &mut World) {
    if world.resource::<Round>().revealed || !awaiting_bids(world).is_empty() {
        return;
    }
    let bids = bids(world);
    for &(e, tp) in &bids {
        view::lose(world, e, TACTICAL_POINT, tp, "bid for priority");
    }
    let choices = bids
        .iter()
        .map(|&(e, tp)| Revealed {
            actor: view::id(world, e),
            choice: IntentRecord::new(crate::FiendWakeIntent::Bid { tp }).to_json(),
        })
        .collect();
    view::log_table(world, LogEvent::Revealed { what: "bid", choices });
    let tied: Vec<Entity> =
        bids.iter().filter(|(e, tp)| bids.iter().any(|(o, t)| o != e && t == tp)).map(|&(e, _)| e).collect();
    let has_ties = !tied.is_empty();
    {
        let mut round = world.resource_mut::<Round>();
        round.revealed = true;
        round.tied = tied;
    }
    let next = if has_ties { FiendWakePhase::Cede } else { FiendWakePhase::ExecuteTurns };
    if !has_ties {
        order_priority(world);
    }
    go_to(world, next);
}

/// When every tied combatant has chosen: orders priority.
fn settle_priority(world: &mut World) {
    if !awaiting_cedes(world).is_empty() {
        return;
    }
    order_priority(world);
    go_to(world, FiendWakePhase::ExecuteTurns);
}

/// Highest bid first; among equal bids, those who hold before those who cede, then higher
/// Tactics, then a random draw (made only for combatants still tied).
fn order_priority(world: &mut World) {
    let mut keyed: Vec<(Entity, u32, bool, u32, u32)> = bids(world)
        .into_iter()
        .map(|(e, bid)| {
            let ceded = world.get::<RoundChoices>(e).and_then(|c| c.cede).unwrap_or(false);
            let tactics = world.get::<Skills>(e).map_or(0, |s| s.level(Skill::Tactics));
            (e, bid, ceded, tactics, 0)
        })
        .collect();
    let still_tied: Vec<usize> = (0..keyed.len())
        .filter(|&i| {
            keyed
                .iter()
                .enumerate()
                .any(|(j, k)| j != i && (k.1, k.2, k.3) == (keyed[i].1, keyed[i].2, keyed[i].3))
        })
        .collect();
    let draws: Vec<(Entity, u32)> = {
        let mut rng = world.resource_mut::<TableRng>();
        still_tied.iter().map(|&i| (keyed[i].0, rng.below(1 << 20) as u32)).collect()
    };
    for (i, &(_, draw)) in still_tied.iter().zip(&draws) {
        keyed[*i].4 = draw;
    }
    keyed.sort_by(|a, b| b.1.cmp(&a.1).then(a.2.cmp(&b.2)).then(b.3.cmp(&a.3)).then(b.4.cmp(&a.4)));
    let order: Vec<Entity> = keyed.iter().map(|k| k.0).collect();
    if !draws.is_empty() {
        log_draw(world, &draws, &order);
    }
    let shown = order.iter().map(|&e| view::id(world, e)).collect();
    view::log_table(world, LogEvent::Order { order: shown, reason: "priority: bids, cedes, Tactics, draws" });
    world.resource_mut::<Round>().priority = order;
}

/// Logs the random draw that broke the last ties: a number per tied bidder, highest first.
fn log_draw(world: &mut World, draws: &[(Entity, u32)], order: &[Entity]) {
    let among = draws.iter().map(|&(e, _)| view::id(world, e)).collect();
    let order =
        order.iter().filter(|e| draws.iter().any(|(d, _)| d == *e)).map(|&e| view::id(world, e)).collect();
    let record = RollRecord {
        what: "a draw among bidders still tied".to_owned(),
        dice: draws.iter().map(|&(_, d)| d).collect(),
        modifiers: Vec::new(),
        reading: RollReading::Draw { among, order },
        told: None,
    };
    view::log_table(world, LogEvent::Roll(record));
}
