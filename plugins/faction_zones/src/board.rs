//! What a board shows of Factions in zones: the choices with their verdicts, zone cards (dark,
//! cover, how far a dragged character would go), token captions, the sheet, and the faction
//! bar: whose activation it is, the passes in a row, who has acted.

use bevy_ecs::prelude::*;
use fray_core::board::{
    CardView, Choice, ChoiceKey, OrderEntry, OrderMark, OrderView, QuestionView, SheetRow, TokenView,
};
use fray_core::phase::current;
use fray_core::prelude::{Side, Status, TableIndex};
use fray_core::table::{can_act, enemies, id, name, on_table, status};

use crate::activation::factions_in_the_fight;
use crate::combat::{check_attack, weapon};
use crate::data::ZoneProperty;
use crate::decisions::{awaiting, validate};
use crate::intent::{FactionZonesIntent, NonLethal, StuntEffect};
use crate::phase::{Battle, FactionZonesPhase, Fighter, ZoneProperties};
use crate::turns::{distance, movement_left, zone};

/// What the rules ask besides a character's turn: the first faction, opportunity attacks, a
/// target's reaction, the faction choosing who acts.
pub fn question(world: &World) -> Option<QuestionView> {
    let battle = world.resource::<Battle>();
    let waiting = awaiting(world);
    if waiting.is_empty() || current::<FactionZonesPhase>(world) != FactionZonesPhase::Activations {
        let what = "which faction acts first?".to_owned();
        return (!waiting.is_empty()).then_some(QuestionView { who: waiting, what, about: Vec::new() });
    }
    if let Some(l) = &battle.leaving {
        let what = format!("opportunity attack on {}?", name(world, l.mover));
        return Some(QuestionView { who: waiting, what, about: vec![l.mover] });
    }
    if let Some(p) = &battle.pending {
        let what = format!("dodge, counter or take {}'s attack?", name(world, p.attacker));
        return Some(QuestionView { who: vec![p.target], what, about: vec![p.attacker] });
    }
    if battle.active.is_some() {
        return None;
    }
    let faction = battle.to_act.as_ref()?;
    let sides = &world.resource::<TableIndex>().sides;
    let named =
        sides.iter().find(|(s, _)| s == faction).map_or_else(|| faction.to_string(), |(_, n)| n.clone());
    Some(QuestionView { who: Vec::new(), what: format!("{named}: who acts next?"), about: Vec::new() })
}

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
    // The weapons in hand, and bare hands.
    let weapons = |who: Entity| {
        let Some(f) = world.get::<Fighter>(who) else { return vec![None] };
        (0..f.sheet.weapons.len()).filter(|&w| f.holds(w)).map(Some).chain([None]).collect::<Vec<_>>()
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
        let mut out = Vec::new();
        if let Some(effect) = &p.stunt {
            let label = format!("Accept the stunt: {} instead of the damage", stunt_words(effect));
            out.push(choice(FactionZonesIntent::AcceptStunt, label));
        }
        if p.reactable {
            out.push(choice(FactionZonesIntent::Dodge, "Dodge (AGI save; spends your turn)".to_owned()));
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
            for (kind, words) in non_lethal_kinds(world, e, p.attacker) {
                let label =
                    format!("Counter: {} (spends your turn)", words.replace("{}", &name(world, p.attacker)));
                out.push(
                    choice(FactionZonesIntent::CounterNonLethal { kind }, label).at(id(world, p.attacker)),
                );
            }
            let order = world.resource::<TableIndex>().order.clone();
            for a in order.into_iter().filter(|&a| {
                a != e
                    && crate::turns::nearby(world, a, e)
                    && (!enemies(world, a, e) || crate::non_lethal::grabbed_by(world, a) == Some(e))
            }) {
                let label = format!("Hide behind {} (spends your turn)", name(world, a));
                out.push(
                    choice(FactionZonesIntent::HideBehind { ally: id(world, a) }, label).at(id(world, a)),
                );
            }
        }
        let mut take = choice(FactionZonesIntent::TakeIt, "Take the attack".to_owned());
        take.key = Some(ChoiceKey::Pass);
        out.push(take);
        return out;
    }
    let grabbed = crate::non_lethal::grabbed_by(world, e).map(|g| name(world, g));
    let break_free = |g: &str| {
        choice(FactionZonesIntent::BreakFree, format!("Try to break free of {g} (STR save; the whole turn)"))
    };
    if battle.active != Some(e) {
        let mut pass = choice(
            FactionZonesIntent::Pass,
            format!("Pass ({})", side_name(&battle.to_act.clone().unwrap_or_else(|| "".into()))),
        );
        pass.key = Some(ChoiceKey::Pass);
        let surrender = choice(FactionZonesIntent::Surrender, "Surrender (spends the turn)".to_owned());
        let first = match &grabbed {
            Some(g) => break_free(g),
            None => choice(FactionZonesIntent::Activate, format!("Take {}'s turn", name(world, e))),
        };
        return vec![first, pass, surrender, flee(world, e)];
    }
    let mut out = Vec::new();
    let mut end = choice(FactionZonesIntent::EndTurn, "End turn".to_owned());
    end.key = Some(ChoiceKey::EndTurn);
    if let Some(g) = &grabbed {
        out.push(break_free(g));
        out.push(choice(FactionZonesIntent::Surrender, "Surrender (spends the turn)".to_owned()));
        out.push(end);
        return out;
    }
    let order = world.resource::<TableIndex>().order.clone();
    for &t in &order {
        // No one may target the concealed: a refused button would say they are there.
        if !enemies(world, e, t) || !on_table(world, t) || crate::stealth::concealed(world, t) {
            continue;
        }
        let tid = id(world, t);
        for w in weapons(e) {
            let wname = weapon(world, e, w).map_or_else(String::new, |x| x.name);
            let how = match check_attack(world, e, t, w) {
                Ok(true) => " (WIT save to hit)",
                _ if status(world, t) == Status::Surrendered => " (surrendered: harm frees it to fight)",
                _ if !can_act(world, t) => " (death blow if nearby)",
                _ => "",
            };
            let intent = FactionZonesIntent::Attack { target: tid.clone(), weapon: w, hold_back: false };
            out.push(choice(intent, format!("Attack {} with {wname}{how}", name(world, t))).at(tid.clone()));
        }
        if !can_act(world, t) {
            continue;
        }
        // Held back and stunts: offered with the weapons that reach.
        for w in weapons(e).into_iter().filter(|&w| check_attack(world, e, t, w).is_ok()) {
            let Some(x) = weapon(world, e, w).filter(|x| !x.blast) else { continue };
            if w.is_some() {
                let intent = FactionZonesIntent::Attack { target: tid.clone(), weapon: w, hold_back: true };
                let label = format!("Hold back on {} with {} (impaired damage)", name(world, t), x.name);
                out.push(choice(intent, label).at(tid.clone()));
            }
        }
        if let Some(w) = weapons(e)
            .into_iter()
            .find(|&w| check_attack(world, e, t, w).is_ok() && weapon(world, e, w).is_some_and(|x| !x.blast))
        {
            for effect in [StuntEffect::Incapacitated, StuntEffect::Disarmed, StuntEffect::Surrenders] {
                let label = format!(
                    "Stunt on {}: propose {} instead of the damage",
                    name(world, t),
                    stunt_words(&effect)
                );
                let intent = FactionZonesIntent::Stunt { target: tid.clone(), weapon: w, effect };
                out.push(choice(intent, label).at(tid.clone()));
            }
        }
        if crate::turns::nearby(world, e, t) {
            for (kind, words) in non_lethal_kinds(world, e, t) {
                let label = format!("{} (STR save)", capitalised(&words.replace("{}", &name(world, t))));
                out.push(
                    choice(FactionZonesIntent::NonLethal { target: tid.clone(), kind }, label)
                        .at(tid.clone()),
                );
            }
        }
    }
    for w in weapons(e) {
        if let Some((intent, label)) = spread_choice(world, e, w, &order) {
            out.push(choice(intent, label));
        }
    }
    for &a in &order {
        if a != e && !enemies(world, a, e) && crate::non_lethal::grabbed_by(world, a).is_some() {
            let label = format!("Free {} (STR save; the main action)", name(world, a));
            out.push(choice(FactionZonesIntent::Free { ally: id(world, a) }, label).at(id(world, a)));
        }
    }
    if let Some(f) = world.get::<Fighter>(e) {
        for &(w, _) in &f.dropped {
            let wname = f.sheet.weapons.get(w).map_or_else(String::new, |x| x.name.clone());
            out.push(choice(
                FactionZonesIntent::PickUp { weapon: w },
                format!("Pick up the {wname} (bonus action)"),
            ));
        }
    }
    if let Some(m) = crate::mounts::mount_of(world, e) {
        let label = format!("Dismount from {} (a zone of movement)", name(world, m));
        out.push(choice(FactionZonesIntent::Dismount, label));
    }
    for &m in &order {
        if world.get::<Fighter>(m).is_some_and(|f| f.sheet.carries > 0) && m != e && !enemies(world, e, m) {
            let label = format!("Mount {} (a zone of movement)", name(world, m));
            out.push(choice(FactionZonesIntent::Mount { mount: id(world, m) }, label).at(id(world, m)));
        }
    }
    if crate::mounts::party_of(world, e).len() > 1 {
        let label = "Reserve this part (no turn this round; the reaction kept)".to_owned();
        out.push(choice(FactionZonesIntent::Reserve, label));
    }
    out.push(choice(
        FactionZonesIntent::Sprint,
        "Sprint (bonus action: speeds doubled this turn)".to_owned(),
    ));
    out.push(choice(FactionZonesIntent::Hide, "Hide (out of sight: concealed again)".to_owned()));
    out.push(choice(
        FactionZonesIntent::Main,
        "Other main action (distract, intimidate, a consumable...)".to_owned(),
    ));
    out.push(choice(
        FactionZonesIntent::Bonus,
        "Bonus action (pick up, open a door, a few words...)".to_owned(),
    ));
    out.push(choice(FactionZonesIntent::Surrender, "Surrender (spends the turn)".to_owned()));
    out.push(flee(world, e));
    out.push(end);
    out
}

/// A larger attacker's melee dice spread evenly over the smaller enemies it reaches and sees,
/// when there are two or more (any other split is the intent's to name).
fn spread_choice(
    world: &World,
    e: Entity,
    w: Option<usize>,
    order: &[Entity],
) -> Option<(FactionZonesIntent, String)> {
    let x = weapon(world, e, w).filter(|x| x.range.is_none() && !x.blast)?;
    let size = crate::combat::size;
    let targets: Vec<Entity> = order
        .iter()
        .copied()
        .filter(|&t| size(world, t) < size(world, e) && check_attack(world, e, t, w) == Ok(false))
        .collect();
    let pool = crate::combat::spread_pool(world, e, &targets);
    if targets.len() < 2 || pool < 2 {
        return None;
    }
    let mut dice = vec![0; targets.len().min(pool as usize)];
    for k in 0..pool as usize {
        let n = dice.len();
        dice[k % n] += 1;
    }
    let shares: Vec<crate::intent::Share> = dice
        .iter()
        .zip(&targets)
        .map(|(&n, &t)| crate::intent::Share { target: id(world, t), dice: n })
        .collect();
    let words: Vec<String> =
        dice.iter().zip(&targets).map(|(n, &t)| format!("{} {n}", name(world, t))).collect();
    let label = format!("Spread the {}'s {pool} dice: {} (the main action)", x.name, words.join(", "));
    Some((FactionZonesIntent::Spread { weapon: w, shares }, label))
}

/// Fleeing the fight, with how it would go.
fn flee(world: &World, e: Entity) -> Choice<FactionZonesIntent> {
    let how = match crate::chase::check_flee(world, e) {
        Ok(crate::chase::Flight::Save) => " (AGI save; the turn)",
        _ => " (the turn)",
    };
    let intent = FactionZonesIntent::Flee;
    let verdict = validate(world, e, &intent).map(|_| ());
    Choice::new(intent, format!("Flee the fight{how}"), verdict)
}

/// A stunt's effect in a few words.
pub fn stunt_words(effect: &StuntEffect) -> String {
    match effect {
        StuntEffect::Disarmed => "being disarmed".to_owned(),
        StuntEffect::Incapacitated => "being knocked out".to_owned(),
        StuntEffect::Surrenders => "surrendering".to_owned(),
        StuntEffect::Other { words } => words.clone(),
    }
}

fn capitalised(words: &str) -> String {
    let mut c = words.chars();
    c.next().map_or_else(String::new, |f| f.to_uppercase().chain(c).collect())
}

/// The non-lethal attacks `a` may try on `t`, in words with `{}` for `t`'s name: grapple,
/// shove (in place, or to each zone a larger shover reaches), disarm of each weapon `t` holds.
fn non_lethal_kinds(world: &World, a: Entity, t: Entity) -> Vec<(NonLethal, String)> {
    let mut out = vec![
        (NonLethal::Grapple, "grapple {}".to_owned()),
        (NonLethal::Shove { to: None }, "shove {}".to_owned()),
    ];
    let reach = crate::non_lethal::shove_reach(world, a, t);
    if reach > 0
        && let Some(from) = zone(world, t)
    {
        for &z in &world.resource::<TableIndex>().location_order {
            if distance(world, from, z).is_some_and(|d| d > 0 && d <= reach) {
                let words = format!("shove {{}} into {}", fray_core::location::place_name(world, z));
                let to = Some(fray_core::location::place_id(world, z));
                out.push((NonLethal::Shove { to }, words));
            }
        }
    }
    if let Some(f) = world.get::<Fighter>(t) {
        for (w, x) in f.sheet.weapons.iter().enumerate().filter(|(w, _)| f.holds(*w)) {
            out.push((NonLethal::Disarm { weapon: w }, format!("disarm {{}} of the {}", x.name)));
        }
    }
    out
}

/// A zone card's notes.
pub fn card(world: &World, place: Entity) -> CardView {
    let notes = world
        .get::<ZoneProperties>(place)
        .map(|p| {
            p.0.iter()
                .map(|q| {
                    let toward = |z: &fray_core::ids::LocationId| {
                        let at = world.resource::<TableIndex>().location(z);
                        at.map_or_else(|| z.to_string(), |l| fray_core::location::place_name(world, l))
                    };
                    match q {
                        ZoneProperty::Dark => "dark".to_owned(),
                        ZoneProperty::Cover => "cover +1".to_owned(),
                        ZoneProperty::Hazard => "hazard".to_owned(),
                        ZoneProperty::Barrier => "barrier: blocks attacks".to_owned(),
                        ZoneProperty::Exit => "exit: flee from here".to_owned(),
                        ZoneProperty::CoverFrom(z) => format!("cover +1 against {}", toward(z)),
                        ZoneProperty::BarrierFrom(z) => format!("barrier: blocks {}", toward(z)),
                    }
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
    let zone = fray_core::location::place_id(world, place);
    let sprinting = world.get::<Fighter>(e).is_some_and(|f| f.sprinting);
    let walk = FactionZonesIntent::Move { zone: zone.clone(), sprint: false };
    let sprint = FactionZonesIntent::Move { zone, sprint: true };
    if validate(world, e, &walk).is_ok() {
        Ok(if sprinting { format!("{words}, sprinting") } else { words })
    } else if validate(world, e, &sprint).is_ok() {
        Ok(format!("{words}, sprinting"))
    } else {
        Err(words)
    }
}

/// A token's caption notes: health, acted, steady, concealed, grabbed or holding, weapons
/// knocked away; and, while a character takes its turn, how its ranged weapons reach each
/// enemy ("in range", "WIT save to hit", "out of range").
pub fn token(world: &World, e: Entity) -> TokenView {
    let Some(f) = world.get::<Fighter>(e) else { return TokenView::default() };
    let mut notes = vec![format!("HP {}/{}", f.health, f.sheet.health)];
    if f.acted {
        notes.push("acted".to_owned());
    }
    if f.steady {
        notes.push("steady".to_owned());
    }
    if f.concealed {
        notes.push("concealed".to_owned());
    }
    if f.sprinting {
        notes.push("sprinting".to_owned());
    }
    if f.reserved {
        notes.push("reserved".to_owned());
    }
    if let Some(m) = crate::mounts::mount_of(world, e) {
        notes.push(format!("riding {}", first_name(world, m)));
    }
    let riders: Vec<String> =
        crate::mounts::riders(world, e).into_iter().map(|r| first_name(world, r)).collect();
    if !riders.is_empty() {
        notes.push(format!("carries {}", riders.join(", ")));
    }
    if let Some(g) = crate::non_lethal::grabbed_by(world, e) {
        notes.push(format!("grabbed by {}", first_name(world, g)));
    }
    for t in crate::non_lethal::held_by(world, e) {
        notes.push(format!("holds {}", first_name(world, t)));
    }
    if !f.dropped.is_empty() {
        notes.push(format!(
            "{} weapon{} dropped",
            f.dropped.len(),
            if f.dropped.len() == 1 { "" } else { "s" }
        ));
    }
    if let Some(reach) = world.resource::<Battle>().active.and_then(|a| ranged_reach(world, a, e)) {
        notes.push(reach.to_owned());
    }
    TokenView { notes, concealed: f.concealed, ..TokenView::default() }
}

fn first_name(world: &World, e: Entity) -> String {
    name(world, e).split_whitespace().next().unwrap_or_default().to_owned()
}

/// How the best of `a`'s ranged weapons reaches enemy `t`: none when `a` has no ranged weapon
/// in hand or `t` is no enemy on the table.
pub fn ranged_reach(world: &World, a: Entity, t: Entity) -> Option<&'static str> {
    if !enemies(world, a, t) || !on_table(world, t) || crate::stealth::concealed(world, t) {
        return None;
    }
    let f = world.get::<Fighter>(a)?;
    let ranged: Vec<usize> =
        (0..f.sheet.weapons.len()).filter(|&w| f.holds(w) && f.sheet.weapons[w].range.is_some()).collect();
    if ranged.is_empty() {
        return None;
    }
    let verdicts: Vec<_> = ranged.iter().map(|&w| check_attack(world, a, t, Some(w))).collect();
    Some(if verdicts.contains(&Ok(false)) {
        "in range"
    } else if verdicts.contains(&Ok(true)) {
        "WIT save to hit"
    } else {
        "out of range"
    })
}

/// The sheet.
pub fn sheet(world: &World, e: Entity) -> Vec<SheetRow> {
    let Some(f) = world.get::<Fighter>(e) else { return Vec::new() };
    let s = &f.sheet;
    let mut rows = vec![
        SheetRow::heading(format!("Health {}/{} · armour {}", f.health, s.health, armour_words(f))),
        SheetRow::line(format!(
            "STR {} · AGI {} · WIT {}{}",
            s.str,
            s.agi,
            s.wit,
            if s.fearless { " · fearless" } else { "" }
        )),
    ];
    let speed = crate::turns::speed(world, e);
    let mut moves = format!("Speed {speed} zone{}", if speed == 1 { "" } else { "s" });
    if s.carries > 0 {
        moves.push_str(&format!(" · carries {}", s.carries));
    }
    if let Some(m) = crate::mounts::mount_of(world, e) {
        moves.push_str(&format!(" · riding {} (attacks impaired)", name(world, m)));
    }
    rows.push(SheetRow::line(moves));
    rows.push(SheetRow::heading("Weapons"));
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

/// Its armour in words: worn and shield, what is damaged or broke.
fn armour_words(f: &Fighter) -> String {
    let state = |broken: bool, damaged: bool| {
        if broken {
            " (broke)"
        } else if damaged {
            " (damaged)"
        } else {
            ""
        }
    };
    let worn = format!("{}{}", f.sheet.armour, state(f.gear.armour_broken, f.gear.armour_damaged));
    if f.sheet.shield == 0 {
        return worn;
    }
    let shield = state(f.gear.shield_broken, f.gear.shield_damaged);
    format!("{} = {worn} + shield {}{shield}", f.armour(), f.sheet.shield)
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
    Some(OrderView { title: "Factions", entries, events: Vec::new(), ladder: false, numbered: false })
}
