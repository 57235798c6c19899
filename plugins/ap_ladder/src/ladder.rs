//! The initiative ladder: rolled once (1d10 + Initiative, ties by Perception Bonus, then a
//! draw; the GM's events at 2d10+2), the surprise turn for the ambushers, each turn down the
//! ladder (a combatant's turn starts by discarding its AP and gaining 3, one less stunned;
//! an event's rung strikes its area), waiting and stepping in, and the end of the turn.

use bevy_app::App;
use bevy_ecs::prelude::*;
use fray_core::dice::{RollReading, RollRecord, TableRng};
use fray_core::log::{GameLog, LogEvent};
use fray_core::phase::{RulesStep, StepProgress, go_to};
use fray_core::prelude::{Side, Status, TableIndex};
use fray_core::table::{can_act, id, set_status};

use crate::ApLadderPhase;
use crate::combat::{Harm, harm};
use crate::conditions::{add, expire, remove};
use crate::data::{Attribute, Condition, Lasts};
use crate::dice::{Said, roll};
use crate::field::{distance, position};
use crate::phase::{Battle, Fighter, Rung, RungOf};
use crate::schedule::ApLadderSystems;

/// AP gained at the start of a turn.
pub const AP_PER_TURN: u32 = 3;

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(RulesStep, roll_ladder.in_set(ApLadderSystems::Ladder))
        .add_systems(RulesStep, next_rung.in_set(ApLadderSystems::SurpriseTurn))
        .add_systems(RulesStep, next_rung.in_set(ApLadderSystems::Turns))
        .add_systems(RulesStep, end_of_turn.in_set(ApLadderSystems::EndOfTurn));
}

/// Initiative: [PB] + the rules' plus.
pub fn initiative(world: &World, e: Entity) -> u32 {
    let plus = world.resource::<Battle>().rules.numbers.initiative_plus;
    world.get::<Fighter>(e).map_or(0, |f| f.sheet.bonus(Attribute::Perception) + plus)
}

fn perception(world: &World, e: Entity) -> u32 {
    world.get::<Fighter>(e).map_or(0, |f| f.sheet.bonus(Attribute::Perception))
}

/// Rolls the ladder, places the events, applies the conditions combatants start with, and
/// opens the surprise turn (the ambushers') or the first turn.
fn roll_ladder(world: &mut World) {
    let order = world.resource::<TableIndex>().order.clone();
    let mut rolled: Vec<(Entity, u32)> = Vec::new();
    for &e in &order {
        if world.get::<Fighter>(e).is_none() {
            continue;
        }
        let init = initiative(world, e);
        let score = roll(world, Some(e), "initiative", 1, 10, init as i64);
        rolled.push((e, score));
    }
    // Highest first; ties by Perception Bonus, then a draw among those still tied.
    rolled.sort_by(|a, b| b.1.cmp(&a.1).then(perception(world, b.0).cmp(&perception(world, a.0))));
    let mut ladder: Vec<Rung> = Vec::new();
    let mut i = 0;
    while i < rolled.len() {
        let key = (rolled[i].1, perception(world, rolled[i].0));
        let mut j = i + 1;
        while j < rolled.len() && (rolled[j].1, perception(world, rolled[j].0)) == key {
            j += 1;
        }
        let mut tied: Vec<Entity> = rolled[i..j].iter().map(|r| r.0).collect();
        if tied.len() > 1 {
            tied = draw(world, &tied);
        }
        ladder.extend(tied.into_iter().map(|e| Rung { of: RungOf::Fighter(e), score: key.0, done: false }));
        i = j;
    }
    let events = world.resource::<Battle>().rules.events.len();
    for ev in 0..events {
        let score = roll(world, None, "event's place", 2, 10, 2);
        // An event goes after the combatants it ties with.
        let at = ladder.iter().position(|r| r.score < score).unwrap_or(ladder.len());
        ladder.insert(at, Rung { of: RungOf::Event(ev), score, done: false });
    }
    world.resource_mut::<Battle>().ladder = ladder;
    log_order(world, "initiative");
    for &e in &order {
        let start: Vec<Condition> =
            world.get::<Fighter>(e).map(|f| f.conditions.keys().copied().collect()).unwrap_or_default();
        for c in start {
            crate::conditions::gained(world, e, c);
        }
    }
    let ambushers = world.resource::<Battle>().rules.ambushers.clone();
    match ambushers {
        Some(side) => {
            for &e in &order {
                if world.get::<Side>(e).is_some_and(|s| s.0 != side) && world.get::<Fighter>(e).is_some() {
                    add(world, e, Condition::Surprised);
                }
            }
            world.resource_mut::<Battle>().turn = 0;
            go_to(world, ApLadderPhase::SurpriseTurn);
        }
        None => new_turn(world, 1),
    }
}

/// A logged draw putting `tied` in order.
fn draw(world: &mut World, tied: &[Entity]) -> Vec<Entity> {
    let dice: Vec<u32> = tied.iter().map(|_| world.resource_mut::<TableRng>().die(1000)).collect();
    let mut order: Vec<(Entity, u32)> = tied.iter().copied().zip(dice.iter().copied()).collect();
    order.sort_by_key(|o| std::cmp::Reverse(o.1));
    let among = tied.iter().map(|&e| id(world, e)).collect();
    let ids = order.iter().map(|(e, _)| id(world, *e)).collect();
    let record = RollRecord {
        what: "initiative tie".to_owned(),
        dice,
        modifiers: Vec::new(),
        reading: RollReading::Draw { among, order: ids },
        told: Some("A draw breaks the initiative tie".to_owned()),
    };
    world.resource_mut::<GameLog>().push(None, LogEvent::Roll(record));
    order.into_iter().map(|(e, _)| e).collect()
}

/// Logs the ladder's combatants in order.
pub fn log_order(world: &mut World, reason: &'static str) {
    let order = world
        .resource::<Battle>()
        .ladder
        .iter()
        .filter_map(|r| match r.of {
            RungOf::Fighter(e) => Some(id(world, e)),
            RungOf::Event(_) => None,
        })
        .collect();
    world.resource_mut::<GameLog>().push(None, LogEvent::Order { order, reason });
}

/// Opens turn `n`: every rung to go again.
fn new_turn(world: &mut World, n: u32) {
    {
        let mut battle = world.resource_mut::<Battle>();
        battle.turn = n;
        for r in &mut battle.ladder {
            r.done = false;
        }
        battle.holding.clear();
        battle.passed = (usize::MAX, Vec::new());
    }
    world.resource_mut::<GameLog>().set_clock(n);
    world.resource_mut::<GameLog>().push(None, LogEvent::RoundStarted);
    go_to(world, ApLadderPhase::Turns);
}

/// Who may take a turn now: able, and an ambusher in the surprise turn.
fn may_go(world: &World, e: Entity) -> bool {
    let battle = world.resource::<Battle>();
    if !can_act(world, e) {
        return false;
    }
    match (battle.turn, &battle.rules.ambushers) {
        (0, Some(side)) => world.get::<Side>(e).is_some_and(|s| &s.0 == side),
        _ => true,
    }
}

/// Whether rung `i` will go (a combatant able to, an event past the surprise turn).
fn goes(world: &World, i: usize) -> bool {
    let battle = world.resource::<Battle>();
    match battle.ladder.get(i).map(|r| r.of) {
        Some(RungOf::Fighter(e)) => may_go(world, e),
        Some(RungOf::Event(_)) => battle.turn > 0,
        None => false,
    }
}

/// Ends a turn whose holder fell; offers those waiting to step in before the next rung; starts
/// the next rung's go; when none is left, those still waiting go, then the turn moves on.
fn next_rung(world: &mut World) {
    let battle = world.resource::<Battle>();
    if battle.pending.is_some() || battle.offer.is_some() {
        return;
    }
    if let Some(e) = battle.acting {
        if !can_act(world, e) {
            end_turn(world, e);
        }
        return;
    }
    let holding: Vec<Entity> = battle.holding.iter().copied().filter(|&h| can_act(world, h)).collect();
    world.resource_mut::<Battle>().holding = holding.clone();
    let next = world.resource::<Battle>().ladder.iter().position(|r| !r.done);
    let Some(i) = next else {
        // The turn's last rung has gone: those still waiting act now, in order.
        if let Some(&h) = holding.first() {
            step_in(world, h, None);
            return;
        }
        if world.resource::<Battle>().turn == 0 {
            let order = world.resource::<TableIndex>().order.clone();
            for e in order {
                remove(world, e, Condition::Surprised);
            }
            new_turn(world, 1);
        } else {
            go_to(world, ApLadderPhase::EndOfTurn);
        }
        return;
    };
    if goes(world, i) {
        let mut battle = world.resource_mut::<Battle>();
        if battle.passed.0 != i {
            battle.passed = (i, Vec::new());
        }
        let asked = holding.iter().copied().find(|h| !battle.passed.1.contains(h));
        if let Some(h) = asked {
            battle.offer = Some(h);
            world.resource_mut::<StepProgress>().mark();
            return;
        }
    }
    world.resource_mut::<Battle>().ladder[i].done = true;
    match world.resource::<Battle>().ladder[i].of {
        RungOf::Event(ev) if world.resource::<Battle>().turn > 0 => event(world, ev),
        RungOf::Event(_) => {}
        RungOf::Fighter(e) if may_go(world, e) => start_turn(world, e),
        RungOf::Fighter(_) => {}
    }
    world.resource_mut::<StepProgress>().mark();
}

/// The rung a waiting one is offered to step in before, and whose it is.
pub fn offered_rung(world: &World) -> Option<(usize, RungOf)> {
    let battle = world.resource::<Battle>();
    battle.offer?;
    let i = battle.ladder.iter().position(|r| !r.done)?;
    Some((i, battle.ladder[i].of))
}

/// Whether stepping in before that rung takes a Scrutinize test: it is a foe's turn.
pub fn needs_scrutiny(world: &World, e: Entity) -> bool {
    matches!(offered_rung(world), Some((_, RungOf::Fighter(o))) if fray_core::table::enemies(world, e, o))
}

/// The waiting `e` tries to step in before the offered rung: before a foe's turn a Scrutinize
/// test (a miss lets that turn go, not tried again against it); else at once.
pub fn interrupt(world: &mut World, e: Entity) {
    let Some((i, of)) = offered_rung(world) else { return };
    let foe = needs_scrutiny(world, e);
    world.resource_mut::<Battle>().offer = None;
    if foe {
        let (what, told) = match of {
            RungOf::Fighter(o) => {
                let o = fray_core::table::name(world, o);
                (
                    format!("interrupt {o}"),
                    format!("{} tries to step in before {o}", fray_core::table::name(world, e)),
                )
            }
            RungOf::Event(_) => {
                ("interrupt".to_owned(), format!("{} tries to step in", fray_core::table::name(world, e)))
            }
        };
        let t = crate::dice::test(
            world,
            e,
            crate::dice::Said::told(&what, told),
            Some(crate::data::Skill::Scrutinize),
            None,
            Vec::new(),
            crate::dice::Flip::None,
        );
        if !t.success {
            world.resource_mut::<Battle>().passed.1.push(e);
            return;
        }
    }
    step_in(world, e, Some(i));
}

/// The waiting `e` lets the offered rung go.
pub fn keep_waiting(world: &mut World, e: Entity) {
    let mut battle = world.resource_mut::<Battle>();
    battle.offer = None;
    battle.passed.1.push(e);
}

/// `e` stops waiting and its turn goes on now, its rung moved before rung `before` (or to the
/// bottom of the ladder), the place it keeps.
fn step_in(world: &mut World, e: Entity, before: Option<usize>) {
    {
        let mut battle = world.resource_mut::<Battle>();
        battle.holding.retain(|&h| h != e);
        if let Some(mine) = battle.rung_of(e) {
            let mut rung = battle.ladder.remove(mine);
            rung.done = true;
            let at = match before {
                Some(b) if b > mine => b - 1,
                Some(b) => b,
                None => battle.ladder.len(),
            };
            battle.ladder.insert(at, rung);
        }
    }
    let who = id(world, e);
    world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what: "steps_in", detail: String::new() });
    log_order(world, "wait");
    start_turn(world, e);
}

/// An event's rung: logged, and its area struck.
fn event(world: &mut World, ev: usize) {
    let Some(spec) = world.resource::<Battle>().rules.events.get(ev).cloned() else { return };
    world
        .resource_mut::<GameLog>()
        .push(None, LogEvent::Effect { what: "event", detail: format!("{}: {}", spec.name, spec.text) });
    let Some(at) = spec.at else { return };
    let order = world.resource::<TableIndex>().order.clone();
    for e in order {
        if !can_act(world, e) || distance(position(world, e), [at.0, at.1]) > spec.radius + crate::field::EPS
        {
            continue;
        }
        let caught = format!("{}: {} is caught", spec.name, fray_core::table::name(world, e));
        if spec.damage > 0 {
            let d = roll(world, Some(e), Said::told(&spec.name, caught.clone()), 1, 10, spec.damage as i64);
            harm(world, e, d, Harm::Damage { ranged: false, subdue: false }, None, &spec.name);
        }
        if spec.peril > 0 && can_act(world, e) {
            let p = roll(world, Some(e), Said::told(&spec.name, caught), 1, 10, spec.peril as i64);
            harm(world, e, p, Harm::Peril, None, &spec.name);
        }
    }
}

/// Starts `e`'s turn: leftover AP discarded, 3 gained (less a stun or a fumble's debt); the
/// conditions that end now end; a helpless one's turn passes at once.
pub fn start_turn(world: &mut World, e: Entity) {
    let waited = world.get::<Fighter>(e).is_some_and(|f| f.waited);
    world.resource_mut::<Battle>().acting = Some(e);
    let who = id(world, e);
    world.resource_mut::<GameLog>().about(&who, LogEvent::TurnStarted);
    if waited {
        if let Some(mut f) = world.get_mut::<Fighter>(e) {
            f.waited = false;
        }
        return;
    }
    expire(world, e, Lasts::NextTurnStart);
    // The table's AP lost to the conditions held (stunned: one), then stunned ends.
    let lost_to_conditions = crate::conditions::ap_lost(world, e);
    remove(world, e, Condition::Stunned);
    if let Some(mut f) = world.get_mut::<Fighter>(e) {
        let lost = lost_to_conditions + f.ap_debt;
        f.ap = AP_PER_TURN.saturating_sub(lost);
        f.ap_debt = 0;
        f.running = false;
        f.charged = false;
        f.aim = 0;
        f.subdue = false;
        f.channel = false;
        f.swaps = 0;
        f.has_waited = false;
        f.turns += 1;
    }
    for c in world.resource_mut::<Battle>().chokes.iter_mut().filter(|c| c.holder == e) {
        c.kept = false;
    }
    let ap = world.get::<Fighter>(e).map_or(0, |f| f.ap);
    world
        .resource_mut::<GameLog>()
        .about(&who, LogEvent::Effect { what: "action_points", detail: format!("{ap} AP") });
    crate::combat::burn(world, e);
    crate::combat::gas(world, e);
    crate::injuries::bleed(world, e);
    crate::mounts::turn_starts(world, e);
    let helpless = world
        .get::<Fighter>(e)
        .is_some_and(|f| crate::dice::cannot_act(world, f) && !f.has(Condition::Choked));
    if helpless {
        end_turn(world, e);
    }
}

/// Ends `e`'s turn: a chokehold not kept is let go; a load left half-done leaves it
/// Defenseless; conditions lasting to this turn's end end.
pub fn end_turn(world: &mut World, e: Entity) {
    {
        let mut battle = world.resource_mut::<Battle>();
        battle.acting = None;
        battle.followers.clear();
        battle.followed = None;
    }
    let unkept: Vec<Entity> = world
        .resource::<Battle>()
        .chokes
        .iter()
        .filter(|c| c.holder == e && !c.kept)
        .map(|c| c.victim)
        .collect();
    for v in unkept {
        crate::stunts::release(world, e, v, "not kept");
    }
    expire(world, e, Lasts::NextTurnEnd);
    crate::mounts::turn_ends(world, e);
    let half_loaded = world.get::<Fighter>(e).is_some_and(|f| f.loading.iter().any(|&l| l > 0));
    // Aim, a charge, subduing and channelled power last for the turn only.
    if let Some(mut f) = world.get_mut::<Fighter>(e) {
        f.hampered = false;
        f.waited = false;
        f.aim = 0;
        f.charged = false;
        f.subdue = false;
        f.channel = false;
    }
    if half_loaded && can_act(world, e) {
        add(world, e, Condition::Defenseless);
    }
    let who = id(world, e);
    world.resource_mut::<GameLog>().about(&who, LogEvent::TurnEnded);
    world.resource_mut::<StepProgress>().mark();
}

/// Waits: `e` keeps its AP and steps in later this turn, before any rung it chooses (a
/// Scrutinize test before a foe's turn), or after the last one.
pub fn wait(world: &mut World, e: Entity) {
    {
        let mut battle = world.resource_mut::<Battle>();
        battle.acting = None;
        battle.holding.push(e);
    }
    if let Some(mut f) = world.get_mut::<Fighter>(e) {
        f.waited = true;
        f.has_waited = true;
    }
    let who = id(world, e);
    world.resource_mut::<GameLog>().about(&who, LogEvent::Effect { what: "waits", detail: String::new() });
    world.resource_mut::<StepProgress>().mark();
}

/// A fumble: `e` drops one place down the ladder. Each rung keeps whether it has gone this
/// turn: a fumbler whose turn it is does not go again, and the one it passes is not skipped.
pub fn lose_place(world: &mut World, e: Entity) {
    let Some(mine) = world.resource::<Battle>().rung_of(e) else { return };
    {
        let mut battle = world.resource_mut::<Battle>();
        if mine + 1 >= battle.ladder.len() {
            return;
        }
        battle.ladder.swap(mine, mine + 1);
        // The offers to those waiting follow the rung they were about.
        if battle.passed.0 == mine {
            battle.passed.0 = mine + 1;
        } else if battle.passed.0 == mine + 1 {
            battle.passed.0 = mine;
        }
    }
    log_order(world, "fumble");
}

/// The end of the turn: the knocked out count down and wake; the limit; the next turn.
fn end_of_turn(world: &mut World) {
    count_down(world);
    let (turn, limit) = {
        let b = world.resource::<Battle>();
        (b.turn, b.limit)
    };
    if turn >= limit {
        crate::ending::finish(world, "the turn limit was reached");
        return;
    }
    new_turn(world, turn + 1);
}

/// The knocked out and subdued count a turn down; those whose time is up wake.
pub fn count_down(world: &mut World) {
    let order = world.resource::<TableIndex>().order.clone();
    for e in order {
        let Some(mut f) = world.get_mut::<Fighter>(e) else { continue };
        if f.out_for == 0 {
            continue;
        }
        f.out_for -= 1;
        if f.out_for == 0 && world.get::<Status>(e) == Some(&Status::Unconscious) {
            remove(world, e, Condition::KnockedOut);
            remove(world, e, Condition::Helpless);
            // A subduing blow's Incapacitated! ends with the helplessness, unless the peril
            // track still holds it there.
            if world.get::<Fighter>(e).is_some_and(|f| f.peril < 5) {
                remove(world, e, Condition::Incapacitated);
            }
            set_status(world, e, Status::Fighting);
            let who = id(world, e);
            world
                .resource_mut::<GameLog>()
                .about(&who, LogEvent::Effect { what: "woke", detail: String::new() });
        }
    }
}
