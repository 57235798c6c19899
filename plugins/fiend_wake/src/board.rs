//! What a board shows of Fiend Wake, in the core's board model: the decisions offered with
//! their labels, captions, cards, sheets, the priority order, sealed bids and harassment as
//! an allocation of TP chips. Read-only: nothing here changes the table.

use bevy_ecs::prelude::*;
use fray_core::board::{
    AllocationAsk, CardView, Choice, ChoiceKey, OrderEntry, OrderMark, OrderView, SecretView, SheetRow,
    TokenView, capital,
};
use fray_core::ids::CombatantId;
use fray_core::location::{place_of, why_not_enter};
use fray_core::prelude::{Counters, TableIndex};

use crate::counters::{PENDING_TURN, SIEGE_DAMAGE, TACTICAL_POINT, TURN_TOKEN, WOUND};
use crate::data::{Attribute, LocationProperty};
use crate::decisions::awaiting;
use crate::intent::FiendWakeIntent;
use crate::phase::{ActiveTurn, FiendWakePhase, Round, current};
use crate::sheet::{Arsenal, Attributes, RoundChoices, Skills, Worn, stack_numbers};
use crate::{harassment, reactions, view};

/// The decisions offered to `e` now, each with the rules' verdict.
pub fn choices(world: &World, e: Entity) -> Vec<Choice<FiendWakeIntent>> {
    let harassing = current(world) == FiendWakePhase::Harassment;
    crate::legal::options(world, e)
        .into_iter()
        // Harassment is built on the board as an allocation of TP chips.
        .filter(|(i, _)| !harassing || *i == FiendWakeIntent::Pass)
        .filter(|(i, v)| v.is_err() || worth_a_button(world, e, i))
        .map(|(intent, verdict)| {
            let mut choice = Choice::new(intent.clone(), label(world, &intent), verdict);
            choice.target = target_of(&intent).cloned();
            choice.key = key(world, &intent);
            choice
        })
        .collect()
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

/// Keeps the armour payments that pay exactly (all TP, or all turn tokens): the rules accept
/// every over-payment too, but a list of them all helps nobody.
fn worth_a_button(world: &World, e: Entity, intent: &FiendWakeIntent) -> bool {
    let FiendWakeIntent::PayArmour { tp, turn_tokens } = intent else {
        return true;
    };
    let per = view::catalogue(world).rules.turn_token_tp.max(1);
    let cost = view::encumbrance(world, e).unwrap_or(0);
    (*turn_tokens == 0 && *tp == cost) || (*tp == 0 && *turn_tokens == cost.div_ceil(per))
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
    let upgraded = |u: bool| if u { " (full action)" } else { "" };
    match intent {
        FiendWakeIntent::Bid { tp } => format!("Bid {tp} TP"),
        FiendWakeIntent::PayArmour { tp, turn_tokens } => {
            format!("Pay armour: {tp} TP, {turn_tokens} turn tokens")
        }
        FiendWakeIntent::RefuseArmour { doff: true } => "Refuse armour and take it off".into(),
        FiendWakeIntent::RefuseArmour { doff: false } => "Refuse armour".into(),
        FiendWakeIntent::Cede { cede: true } => "Cede priority".into(),
        FiendWakeIntent::Cede { cede: false } => "Hold priority".into(),
        FiendWakeIntent::Arm { weapon, upgrade } => format!("Arm: {weapon}{}", upgraded(*upgrade)),
        FiendWakeIntent::EnterLocation { location, upgrade } => {
            format!("Enter {location}{}", upgraded(*upgrade))
        }
        FiendWakeIntent::Evacuate { upgrade } => format!("Evacuate{}", upgraded(*upgrade)),
        FiendWakeIntent::Retreat { tp, upgrade } => format!("Retreat ({tp} TP){}", upgraded(*upgrade)),
        FiendWakeIntent::Mount { mount, upgrade } => format!("Mount {mount}{}", upgraded(*upgrade)),
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
            let team: Vec<String> = supporters.iter().map(who).collect();
            format!("Assault {location} with {} ({tp} TP, raise {raise})", team.join(", "))
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

/// Armour, then marked stack numbers; the counters are chips.
pub fn token(world: &World, e: Entity) -> TokenView {
    let mut notes = Vec::new();
    if let Some(armour) = world.get::<Worn>(e).and_then(|w| w.armour.as_ref()) {
        notes.push(armour.clone());
    }
    let marked: usize = world.get::<Attributes>(e).map_or(0, |a| {
        Attribute::ALL.iter().map(|&x| stack_numbers(a.level(x)).len() - a.available(x).len()).sum()
    });
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
    let mut rows = Vec::new();
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
            let all = stack_numbers(attributes.level(a));
            let free = attributes.available(a).len();
            let shown: Vec<String> = all
                .iter()
                .enumerate()
                .map(|(i, n)| if i < free { n.to_string() } else { format!("[{n}]") })
                .collect();
            rows.push(SheetRow::line(format!("{a:?} {}: {}", attributes.level(a), shown.join(" "))));
        }
    }
    if let Some(skills) = world.get::<Skills>(e) {
        let list: Vec<String> = skills.0.iter().map(|(s, l)| format!("{s:?} {l}")).collect();
        rows.push(SheetRow::line(format!("Skills: {}", list.join(", "))));
    }
    if let Some(arsenal) = world.get::<Arsenal>(e) {
        rows.push(SheetRow::line(format!(
            "Ready: {}",
            arsenal.ready.clone().unwrap_or_else(|| "nothing".into())
        )));
        rows.push(SheetRow::line(format!("Carries: {}", arsenal.carried.join(", "))));
    }
    if let Some(worn) = world.get::<Worn>(e) {
        rows.push(SheetRow::line(format!(
            "Armour: {}{}",
            worn.armour.clone().unwrap_or_else(|| "none".into()),
            if worn.doffing { " (coming off)" } else { "" }
        )));
    }
    rows
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
    Some(OrderView { title: "Priority", entries, events: Vec::new(), ladder: false })
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
