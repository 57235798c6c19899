//! What a board shows of Fiend Wake, in the core's board model: the decisions offered with
//! their labels, captions, cards, sheets, the priority order, sealed bids and harassment as
//! an allocation of TP chips. Read-only: nothing here changes the table.

use std::fmt::Write;

use bevy_ecs::prelude::*;
use fray_core::board::{
    AllocationAsk, CardView, Choice, ChoiceKey, OrderEntry, OrderMark, OrderView, QuestionView, SecretView,
    SheetRow, TokenView, capital,
};
use fray_core::ids::{CombatantId, LocationId, MountId};
use fray_core::location::{place_of, the_place, why_not_enter};
use fray_core::prelude::{Counters, Mount, TableIndex};

use crate::counters::{PENDING_TURN, SIEGE_DAMAGE, TACTICAL_POINT, TURN_TOKEN, WOUND};
use crate::data::{Attribute, LocationProperty};
use crate::decisions::awaiting;
use crate::intent::FiendWakeIntent;
use crate::phase::{ActiveTurn, AftermathStep, FiendWakePhase, Round, current};
use crate::sheet::{Arsenal, Attributes, RoundChoices, Skills, Worn, stack_count, stack_numbers};
use crate::{harassment, reactions, view};

/// The decisions offered to `e` now, each with the rules' verdict.
pub fn choices(world: &World, e: Entity) -> Vec<Choice<FiendWakeIntent>> {
    let harassing = current(world) == FiendWakePhase::Harassment;
    let mut options = crate::legal::options(world, e);
    // Harassment is built on the board as an allocation of TP chips.
    options.retain(|(i, _)| !harassing || *i == FiendWakeIntent::Pass);
    fray_core::cores::map(options, |(intent, verdict)| {
        let mut choice = Choice::new(intent.clone(), label(world, &intent), verdict);
        choice.target = target_of(&intent).cloned();
        choice.key = key(world, &intent);
        choice.folded = on_own_side(world, e, &intent);
        choice
    })
}

/// The key that takes an intent now: P passes, holds, declines or ends the turn; E ends it.
fn key(world: &World, intent: &FiendWakeIntent) -> Option<ChoiceKey> {
    let in_turn = world.resource::<ActiveTurn>().actor.is_some() && reactions::asked(world).is_none();
    match intent {
        FiendWakeIntent::EndTurn if in_turn => Some(ChoiceKey::EndTurn),
        FiendWakeIntent::Decline
        | FiendWakeIntent::Pass
        | FiendWakeIntent::Bid { tp: 0 }
        | FiendWakeIntent::Cede { cede: false } => Some(ChoiceKey::Pass),
        _ => None,
    }
}

/// Whether an intent harms someone of `e`'s own side (the rules allow it; the board lists it
/// apart): an attack, a grapple or caltrops on someone not its enemy.
fn on_own_side(world: &World, e: Entity, intent: &FiendWakeIntent) -> bool {
    let harms = matches!(
        intent,
        FiendWakeIntent::MeleeAttack { .. }
            | FiendWakeIntent::RangedAttack { .. }
            | FiendWakeIntent::Grapple { .. }
            | FiendWakeIntent::Caltrops { .. }
    );
    let target = || target_of(intent).and_then(|t| world.resource::<TableIndex>().combatant(t));
    harms && target().is_some_and(|t| t != e && !view::enemies(world, e, t))
}

/// The combatant an intent is aimed at, if any.
pub(crate) fn target_of(intent: &FiendWakeIntent) -> Option<&CombatantId> {
    match intent {
        FiendWakeIntent::MeleeAttack { target }
        | FiendWakeIntent::RangedAttack { target }
        | FiendWakeIntent::Grapple { target }
        | FiendWakeIntent::Caltrops { target }
        | FiendWakeIntent::Medic { patient: target } => Some(target),
        _ => None,
    }
}

/// A readable label for an intent.
pub fn label(world: &World, intent: &FiendWakeIntent) -> String {
    let index = world.resource::<TableIndex>();
    let who = |c: &CombatantId| index.combatant(c).map_or_else(|| c.to_string(), |e| view::name(world, e));
    let place = |l: &LocationId| index.location(l).map_or_else(|| l.to_string(), |p| the_place(world, p));
    let mount = |m: &MountId| {
        let name = index.mount(m).and_then(|e| world.get::<Mount>(e)).map(|m| m.name.clone());
        name.unwrap_or_else(|| m.to_string())
    };
    let upgraded = |u: bool| if u { " (full action)" } else { "" };
    match intent {
        FiendWakeIntent::Bid { tp } => format!("Bid {tp} TP"),
        FiendWakeIntent::PayArmour { tp, turn_tokens } => {
            let tokens = format!("{turn_tokens} turn token{}", if *turn_tokens == 1 { "" } else { "s" });
            match (tp, turn_tokens) {
                (_, 0) => format!("Pay armour: {tp} TP"),
                (0, _) => format!("Pay armour: {tokens}"),
                _ => format!("Pay armour: {tp} TP and {tokens}"),
            }
        }
        FiendWakeIntent::RefuseArmour { doff: true } => {
            "Refuse armour and take it off (every TP and turn token lost this round)".into()
        }
        FiendWakeIntent::RefuseArmour { doff: false } => {
            "Refuse armour (every TP and turn token lost this round)".into()
        }
        FiendWakeIntent::Intercept => reaction_label(world, "Intercept"),
        FiendWakeIntent::ClearOut => reaction_label(world, "Clear out"),
        FiendWakeIntent::StopRetreat => reaction_label(world, "Stop"),
        FiendWakeIntent::Cede { cede: true } => "Cede priority".into(),
        FiendWakeIntent::Cede { cede: false } => "Hold priority".into(),
        FiendWakeIntent::Arm { weapon, upgrade } => format!("Arm: {weapon}{}", upgraded(*upgrade)),
        FiendWakeIntent::EnterLocation { location, upgrade } => {
            format!("Enter {}{}", place(location), upgraded(*upgrade))
        }
        FiendWakeIntent::Evacuate { upgrade } => format!("Evacuate{}", upgraded(*upgrade)),
        FiendWakeIntent::Retreat { tp, upgrade } => format!("Retreat ({tp} TP){}", upgraded(*upgrade)),
        FiendWakeIntent::Mount { mount: m, upgrade } => format!("Mount {}{}", mount(m), upgraded(*upgrade)),
        FiendWakeIntent::Wrangle { mount: m } => format!("Wrangle {}", mount(m)),
        FiendWakeIntent::Bombard { location } => format!("Bombard {}", place(location)),
        FiendWakeIntent::ThrowGrenade { location } => format!("Throw a grenade into {}", place(location)),
        FiendWakeIntent::PickUpCaltrops { location, take_wounds } => format!(
            "Pick up the caltrops in {}{}",
            place(location),
            if *take_wounds { ", taking the wounds" } else { "" }
        ),
        FiendWakeIntent::MeleeAttack { target } => format!("Melee attack {}", who(target)),
        FiendWakeIntent::RangedAttack { target } => format!("Ranged attack {}", who(target)),
        FiendWakeIntent::Grapple { target } => format!("Grapple {}", who(target)),
        FiendWakeIntent::Medic { patient } => format!("Tend to {}", who(patient)),
        FiendWakeIntent::Caltrops { target } => format!("Caltrops around {}", who(target)),
        FiendWakeIntent::Harass { allocations } if allocations.is_empty() => "Harass nobody".into(),
        FiendWakeIntent::Harass { allocations } => {
            let parts: Vec<String> =
                allocations.iter().map(|(t, tp)| format!("{} ({tp} TP)", who(t))).collect();
            format!("Harass {}", parts.join(", "))
        }
        FiendWakeIntent::Pass if current(world) == FiendWakePhase::Harassment => "Harass nobody".into(),
        FiendWakeIntent::Assault { location, supporters, tp, raise, .. } => {
            // A long team is named by its first few.
            let mut team: Vec<String> = supporters.iter().take(3).map(who).collect();
            if supporters.len() > 3 {
                team.push(format!("{} more", supporters.len() - 3));
            }
            format!("Assault {} with {} ({tp} TP, raise {raise})", place(location), team.join(", "))
        }
        FiendWakeIntent::Support { tp, enter } => {
            format!("Support with {tp} TP{}", if *enter { " and enter" } else { "" })
        }
        FiendWakeIntent::FuelSpells { spells } => {
            format!("Fuel: {}", if spells.is_empty() { "none".into() } else { spells.join(", ") })
        }
        other => capital(other.title()),
    }
}

/// A reaction's button, saying what it answers: "Intercept Imp brute's attack on Lockjaw",
/// "Clear out of the Raft before the grenade", "Stop Imp's retreat".
fn reaction_label(world: &World, verb: &str) -> String {
    use crate::reactions::{AreaKind, Held, Reactions};
    let name = |e: Entity| view::name(world, e);
    match world.get_resource::<Reactions>().and_then(|r| r.held.as_ref()) {
        Some(Held::Attack { attacker, target, .. }) => {
            format!("{verb} {}'s attack on {}", name(*attacker), name(*target))
        }
        Some(Held::Area { actor, location, kind, .. }) => {
            let what = match kind {
                AreaKind::Assault { .. } => format!("{}'s assault", name(*actor)),
                AreaKind::Bombard => format!("{}'s shot", name(*actor)),
                AreaKind::Grenade => format!("{}'s grenade", name(*actor)),
            };
            format!("{verb} of {} before {what}", the_place(world, *location))
        }
        Some(Held::Retreat { who, .. }) => format!("{verb} {}'s retreat", name(*who)),
        None => verb.to_owned(),
    }
}

/// Armour, then marked stack numbers; the counters are chips.
pub fn token(world: &World, e: Entity) -> TokenView {
    let mut notes = Vec::new();
    // The armour by what it stops (its name is on the sheet; the id is the file's).
    if let Some(worn) = world.get::<Worn>(e).filter(|w| w.armour.is_some()) {
        let reduction =
            worn.armour.as_ref().and_then(|id| crate::view::catalogue(world).armour(id).map(|a| a.reduction));
        notes.push(match reduction {
            _ if worn.doffing => "armour off".to_owned(),
            Some(n) => format!("armour {n}"),
            None => "armour".to_owned(),
        });
    }
    let marked: u32 = world
        .get::<Attributes>(e)
        .map_or(0, |a| Attribute::ALL.iter().map(|&x| stack_count(a.level(x)) - a.available_count(x)).sum());
    if marked > 0 {
        notes.push(format!("{marked} marked"));
    }
    TokenView { notes, ..TokenView::default() }
}

/// The entry cost with rubble; siege damage and the properties.
pub fn card(world: &World, place: Entity) -> CardView {
    let siege = view::count(world, place, SIEGE_DAMAGE);
    let mut notes: Vec<String> = view::properties(world, place)
        .iter()
        .filter_map(|p| match p {
            LocationProperty::Note(_) | LocationProperty::EntryCost(_) => None,
            LocationProperty::WoundsAtTurnStart(n) => Some(format!("{n} wounds at turn start")),
            LocationProperty::RubblePerSiege(n) => Some(format!("rubble +{n}/siege")),
            LocationProperty::CollapsesAt(n) => Some(format!("collapses at {n}")),
            LocationProperty::Cover(n) => Some(format!("cover {n}")),
            LocationProperty::AssaultDifficulty(n) => Some(format!("assault {n}")),
        })
        .collect();
    if siege > 0 {
        notes.insert(0, format!("SIEGE {siege}"));
    }
    CardView { cost: Some(format!("{} TP", view::entry_cost(world, place))), notes }
}

/// While `e` is dragged: what entering `place` costs it, or that it may not.
pub fn entry(world: &World, e: Entity, place: Entity) -> Result<String, String> {
    let from = place_of(world, e).ok_or_else(|| "not on the board".to_owned())?;
    match why_not_enter(world, from, place) {
        None => Ok(format!("enter: {} TP", view::entry_cost_for(world, e, place))),
        Some(_) => Err("no entry".to_owned()),
    }
}

/// Counters, stack numbers, skills, weapons and armour.
pub fn sheet(world: &World, e: Entity) -> Vec<SheetRow> {
    let mut rows = Vec::with_capacity(12);
    if let Some(counters) = world.get::<Counters>(e) {
        rows.push(SheetRow::line(format!(
            "TP {} · turn tokens {} · pending {} · wounds {}",
            counters.get(TACTICAL_POINT),
            counters.get(TURN_TOKEN),
            counters.get(PENDING_TURN),
            counters.get(WOUND)
        )));
    }
    if let Some(attributes) = world.get::<Attributes>(e) {
        rows.push(SheetRow::heading("Stack numbers (marked in brackets)"));
        for a in Attribute::ALL {
            let level = attributes.level(a);
            let free = attributes.available_count(a) as usize;
            let mut line = String::with_capacity(32);
            line.push_str(a.name());
            line.push(' ');
            number(&mut line, level);
            line.push(':');
            for (i, n) in stack_numbers(level).into_iter().enumerate() {
                line.push_str(if i < free { " " } else { " [" });
                number(&mut line, n);
                if i >= free {
                    line.push(']');
                }
            }
            rows.push(SheetRow::line(line));
        }
    }
    if let Some(skills) = world.get::<Skills>(e) {
        let mut line = String::with_capacity(16 * skills.0.len() + 8);
        line.push_str("Skills:");
        for (i, (skill, level)) in skills.0.iter().enumerate() {
            line.push_str(if i == 0 { " " } else { ", " });
            line.push_str(skill.name());
            line.push(' ');
            number(&mut line, *level);
        }
        rows.push(SheetRow::line(line));
    }
    // Gear by the names people read (the ids are the scenario file's).
    let catalogue = crate::view::catalogue(world);
    let weapon = |id: &String| catalogue.weapon(id).map_or_else(|| id.clone(), |w| w.name.clone());
    if let Some(arsenal) = world.get::<Arsenal>(e) {
        rows.push(SheetRow::line(format!(
            "Ready: {}",
            arsenal.ready.as_ref().map_or_else(|| "nothing".into(), weapon)
        )));
        let carried: Vec<String> = arsenal.carried.iter().map(weapon).collect();
        rows.push(SheetRow::line(format!("Carries: {}", carried.join(", "))));
    }
    if let Some(worn) = world.get::<Worn>(e) {
        let armour = |id: &String| catalogue.armour(id).map_or_else(|| id.clone(), |a| a.name.clone());
        rows.push(SheetRow::line(format!(
            "Armour: {}{}",
            worn.armour.as_ref().map_or_else(|| "none".into(), armour),
            if worn.doffing { " (coming off)" } else { "" }
        )));
    }
    rows
}

/// Writes `n` after `line` (a digit pushed as it is, without the formatting machinery: a
/// sheet is written for every combatant at every step).
fn number(line: &mut String, n: u32) {
    match char::from_digit(n, 10) {
        Some(digit) => line.push(digit),
        None => {
            let _ = write!(line, "{n}");
        }
    }
}

/// The priority order, once the bids are revealed: whose turn it is marked, the fallen out.
pub fn order(world: &World) -> Option<OrderView> {
    let round = world.get_resource::<Round>()?;
    if !round.revealed || round.priority.is_empty() {
        return None;
    }
    let actor = world.get_resource::<ActiveTurn>().and_then(|t| t.actor);
    let entries = round
        .priority
        .iter()
        .map(|&who| {
            let mark = if !view::can_act(world, who) {
                OrderMark::Out
            } else if actor == Some(who) {
                OrderMark::Now
            } else {
                OrderMark::Later
            };
            OrderEntry { who, when: String::new(), mark }
        })
        .collect();
    Some(OrderView { title: "Priority", entries, events: Vec::new(), ladder: false, numbered: true })
}

/// Whose turn is being played.
pub fn acting(world: &World) -> Vec<Entity> {
    let turn = world.get_resource::<ActiveTurn>().and_then(|t| t.actor);
    turn.filter(|_| current(world) == FiendWakePhase::ExecuteTurns).into_iter().collect()
}

/// The bids, while they are secret: who has bid, and how much (for the GM).
pub fn secret(world: &World) -> Option<SecretView> {
    if current(world) != FiendWakePhase::BidForPriority {
        return None;
    }
    let sealed = view::combatants(world)
        .into_iter()
        .filter_map(|e| Some((e, format!("bid {}", world.get::<RoundChoices>(e)?.bid?))))
        .collect();
    Some(SecretView { what: "bid", sealed })
}

/// What the rules ask besides a turn: a reaction, armour, the bids, a tie, harassment, the
/// aftermath.
pub fn question(world: &World) -> Option<QuestionView> {
    if let Some((e, q)) = reactions::asked(world) {
        return Some(QuestionView { who: vec![e], what: format!("{}?", q.title()), about: Vec::new() });
    }
    let waiting = awaiting(world);
    let what = match current(world) {
        FiendWakePhase::RoundPrep => "pay for armour?".to_owned(),
        FiendWakePhase::BidForPriority => {
            let bids = format!("{} to come", waiting.len());
            let what = format!("sealed bids for priority, {bids}");
            return Some(QuestionView { who: Vec::new(), what, about: Vec::new() });
        }
        FiendWakePhase::Cede => {
            let bid = waiting.first().and_then(|&e| world.get::<RoundChoices>(e)?.bid).unwrap_or(0);
            format!("tied on {bid} TP, cede priority or hold?")
        }
        FiendWakePhase::Harassment => "whom to harass?".to_owned(),
        FiendWakePhase::Aftermath if world.resource::<Round>().aftermath == AftermathStep::FuelSpells => {
            "which spells to fuel?".to_owned()
        }
        FiendWakePhase::Aftermath => "ready a weapon?".to_owned(),
        FiendWakePhase::ExecuteTurns | FiendWakePhase::EndOfRound | FiendWakePhase::CombatOver => {
            return None;
        }
    };
    (!waiting.is_empty()).then_some(QuestionView { who: waiting, what, about: Vec::new() })
}

/// Harassment: the harasser allocates TP among the enemies its ready weapon reaches.
pub fn allocation(world: &World) -> Option<AllocationAsk> {
    if current(world) != FiendWakePhase::Harassment {
        return None;
    }
    let who = awaiting(world).into_iter().next()?;
    Some(AllocationAsk {
        who,
        kind: TACTICAL_POINT,
        targets: harassment::reachable(world, who),
        hint:
            "Drag your TP chips (the gold discs at the top left of your token) onto targets, or use − and +."
                .to_owned(),
    })
}

/// The harassment intent for an allocation.
pub fn allocate(given: &[(CombatantId, u32)]) -> FiendWakeIntent {
    FiendWakeIntent::Harass { allocations: given.to_vec() }
}
