//! What a board shows of Factions in zones: the choices with their verdicts, zone cards (dark,
//! cover, how far a dragged character would go), token captions, the sheet, and the faction
//! bar: whose activation it is, the passes in a row, who has acted.

use bevy_ecs::prelude::*;
use fray_core::board::{CardView, Choice, ChoiceKey, OrderEntry, OrderMark, OrderView, SheetRow, TokenView};
use fray_core::prelude::{Side, TableIndex};
use fray_core::table::{can_act, enemies, id, name, on_table};

use crate::activation::factions_in_the_fight;
use crate::combat::{check_attack, weapon};
use crate::data::ZoneProperty;
use crate::decisions::{awaiting, validate};
use crate::intent::FactionZonesIntent;
use crate::phase::{Battle, Fighter, ZoneProperties};
use crate::turns::{distance, movement_left, zone};

/// Every decision the board offers `e` now, each with its verdict.
pub fn choices(world: &World, e: Entity) -> Vec<Choice<FactionZonesIntent>> {
    if !awaiting(world).contains(&e) {
        return Vec::new();
    }
    let battle = world.resource::<Battle>();
    let choice = |intent: FactionZonesIntent, label: String| {
        let verdict = validate(world, e, &intent).map(|_| ());
        Choice::new(intent, label, verdict)
    };
    let sides = &world.resource::<TableIndex>().sides;
    let side_name = |s: &fray_core::ids::SideId| {
        sides.iter().find(|(x, _)| x == s).map_or(s.to_string(), |(_, n)| n.clone())
    };
    if battle.to_act.is_none() {
        return factions_in_the_fight(world)
            .into_iter()
            .map(|s| {
                choice(
                    FactionZonesIntent::PickFirst { faction: s.clone() },
                    format!("{} act first", side_name(&s)),
                )
            })
            .collect();
    }
    let weapons = |who: Entity| {
        let n = world.get::<Fighter>(who).map_or(0, |f| f.sheet.weapons.len());
        (0..n).map(Some).chain([None]).collect::<Vec<_>>()
    };
    if let Some(l) = battle.leaving.as_ref().filter(|l| l.asked.contains(&e)) {
        let mut out: Vec<_> = weapons(e)
            .into_iter()
            .map(|w| {
                let wname = weapon(world, e, w).map_or_else(String::new, |x| x.name);
                let label =
                    format!("Opportunity attack on {} with {wname} (spends your turn)", name(world, l.mover));
                choice(FactionZonesIntent::OpportunityAttack { weapon: w }, label).at(id(world, l.mover))
            })
            .collect();
        let mut go = choice(FactionZonesIntent::LetGo, format!("Let {} go", name(world, l.mover)));
        go.key = Some(ChoiceKey::Pass);
        out.push(go);
        return out;
    }
    if let Some(p) = battle.pending.as_ref().filter(|p| p.target != e) {
        let label = format!("Guard {} (become the target; spends your turn)", name(world, p.target));
        return vec![choice(FactionZonesIntent::Guard, label)];
    }
    if let Some(p) = battle.pending.as_ref().filter(|p| p.target == e) {
        let mut out =
            vec![choice(FactionZonesIntent::Dodge, "Dodge (AGI save; spends your turn)".to_owned())];
        for w in weapons(e) {
            let wname = weapon(world, e, w).map_or_else(String::new, |x| x.name);
            out.push(
                choice(
                    FactionZonesIntent::Counter { weapon: w },
                    format!("Counter {} with {wname} (spends your turn)", name(world, p.attacker)),
                )
                .at(id(world, p.attacker)),
            );
        }
        let order = world.resource::<TableIndex>().order.clone();
        for a in order
            .into_iter()
            .filter(|&a| a != e && !enemies(world, a, e) && crate::turns::nearby(world, a, e))
        {
            let label = format!("Hide behind {} (spends your turn)", name(world, a));
            out.push(choice(FactionZonesIntent::HideBehind { ally: id(world, a) }, label).at(id(world, a)));
        }
        let mut take = choice(FactionZonesIntent::TakeIt, "Take the attack".to_owned());
        take.key = Some(ChoiceKey::Pass);
        out.push(take);
        return out;
    }
    if battle.active != Some(e) {
        let mut pass = choice(
            FactionZonesIntent::Pass,
            format!("Pass ({})", side_name(&battle.to_act.clone().unwrap_or_else(|| "".into()))),
        );
        pass.key = Some(ChoiceKey::Pass);
        let surrender = choice(FactionZonesIntent::Surrender, "Surrender (spends the turn)".to_owned());
        return vec![
            choice(FactionZonesIntent::Activate, format!("Take {}'s turn", name(world, e))),
            pass,
            surrender,
        ];
    }
    let mut out = Vec::new();
    let order = world.resource::<TableIndex>().order.clone();
    for &t in &order {
        if !enemies(world, e, t) || !on_table(world, t) {
            continue;
        }
        for w in weapons(e) {
            let wname = weapon(world, e, w).map_or_else(String::new, |x| x.name);
            let how = match check_attack(world, e, t, w) {
                Ok(true) => " (WIT save to hit)",
                _ if !can_act(world, t) => " (death blow if nearby)",
                _ => "",
            };
            let intent = FactionZonesIntent::Attack { target: id(world, t), weapon: w };
            out.push(choice(intent, format!("Attack {} with {wname}{how}", name(world, t))).at(id(world, t)));
        }
    }
    out.push(choice(
        FactionZonesIntent::Main,
        "Other main action (distract, intimidate, a consumable...)".to_owned(),
    ));
    out.push(choice(
        FactionZonesIntent::Bonus,
        "Bonus action (pick up, open a door, a few words...)".to_owned(),
    ));
    out.push(choice(FactionZonesIntent::Surrender, "Surrender (spends the turn)".to_owned()));
    let mut end = choice(FactionZonesIntent::EndTurn, "End turn".to_owned());
    end.key = Some(ChoiceKey::EndTurn);
    out.push(end);
    out
}

/// A zone card's notes.
pub fn card(world: &World, place: Entity) -> CardView {
    let notes = world
        .get::<ZoneProperties>(place)
        .map(|p| {
            p.0.iter()
                .map(|q| {
                    match q {
                        ZoneProperty::Dark => "dark",
                        ZoneProperty::Cover => "cover +1",
                    }
                    .to_owned()
                })
                .collect()
        })
        .unwrap_or_default();
    CardView { cost: None, notes }
}

/// A card's badge while `e` is dragged: how many zones away, and whether it is in reach now.
pub fn entry(world: &World, e: Entity, place: Entity) -> Result<String, String> {
    let from = zone(world, e).ok_or_else(|| "in no zone".to_owned())?;
    let d = distance(world, from, place).ok_or_else(|| "no way there".to_owned())?;
    if d == 0 {
        return Ok("here".to_owned());
    }
    let words = format!("{d} zone{}", if d == 1 { "" } else { "s" });
    let battle = world.resource::<Battle>();
    let choosing = battle.active.is_none() && battle.pending.is_none();
    let left = if battle.active == Some(e) {
        movement_left(world, e)
    } else if choosing && crate::activation::candidates(world).contains(&e) {
        battle.rules.speed
    } else {
        0
    };
    if d <= left { Ok(words) } else { Err(words) }
}

/// A token's caption notes.
pub fn token(world: &World, e: Entity) -> TokenView {
    let Some(f) = world.get::<Fighter>(e) else { return TokenView::default() };
    let mut notes = vec![format!("HP {}/{}", f.health, f.sheet.health)];
    if f.acted {
        notes.push("acted".to_owned());
    }
    if f.steady {
        notes.push("steady".to_owned());
    }
    TokenView { notes, heading: None }
}

/// The sheet.
pub fn sheet(world: &World, e: Entity) -> Vec<SheetRow> {
    let Some(f) = world.get::<Fighter>(e) else { return Vec::new() };
    let s = &f.sheet;
    let mut rows = vec![
        SheetRow::heading(format!("Health {}/{} · armour {}", f.health, s.health, s.armour)),
        SheetRow::line(format!(
            "STR {} · AGI {} · WIT {}{}",
            s.str,
            s.agi,
            s.wit,
            if s.fearless { " · fearless" } else { "" }
        )),
        SheetRow::heading("Weapons"),
    ];
    for w in &s.weapons {
        let range = w.range.map_or_else(|| "melee".to_owned(), |r| format!("range {r}"));
        rows.push(SheetRow::line(format!("{}: d{}, {range}", w.name, w.damage)));
    }
    rows.push(SheetRow::line("Bare hands: d4, melee"));
    if world.resource::<Battle>().active == Some(e) {
        rows.push(SheetRow::line(format!(
            "This turn: moved {} zone{}, {} more; {} action{} taken",
            f.moved,
            if f.moved == 1 { "" } else { "s" },
            movement_left(world, e),
            f.actions(),
            if f.actions() == 1 { "" } else { "s" }
        )));
    }
    rows
}

/// The faction bar: every faction's characters, whose activation it is and the passes in a row.
pub fn order(world: &World) -> Option<OrderView> {
    let battle = world.resource::<Battle>();
    if battle.round == 0 {
        return None;
    }
    let sides = world.resource::<TableIndex>().sides.clone();
    let mut entries = Vec::new();
    for (side, side_name) in &sides {
        let to_act = battle.to_act.as_ref() == Some(side);
        let passes = match battle.passes {
            0 => String::new(),
            1 => ", 1 pass in a row".to_owned(),
            n => format!(", {n} passes in a row"),
        };
        let head = if to_act { format!("{side_name} to act{passes}") } else { side_name.clone() };
        let all: Vec<Entity> = world
            .resource::<TableIndex>()
            .order
            .iter()
            .copied()
            .filter(|&e| world.get::<Side>(e).is_some_and(|s| &s.0 == side))
            .collect();
        for e in all {
            let mark = if !can_act(world, e) {
                OrderMark::Out
            } else if battle.active == Some(e) {
                OrderMark::Now
            } else if world.get::<Fighter>(e).is_some_and(|f| f.acted) {
                OrderMark::Done
            } else {
                OrderMark::Later
            };
            // The faction's words on its first character only.
            let when = if entries
                .last()
                .is_some_and(|l: &OrderEntry| world.get::<Side>(l.who).is_some_and(|s| &s.0 == side))
            {
                String::new()
            } else {
                head.clone()
            };
            entries.push(OrderEntry { who: e, when, mark });
        }
    }
    Some(OrderView { title: "Factions", entries })
}
