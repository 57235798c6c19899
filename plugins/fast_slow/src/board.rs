//! What a board shows of Fast & Slow: the choices with their verdicts and labels, token
//! captions, the sheet (stamina bar, limb pools, dice, weapons), the order strip in its four
//! groups once revealed, the secret Fast/Slow choice, and the traps and hazards.

use bevy_ecs::prelude::*;
use fray_core::board::{
    Choice, ChoiceKey, OrderEntry, OrderMark, OrderView, Scenery, SceneryKind, SecretView, SheetRow,
    TokenView,
};
use fray_core::prelude::{Counters, Side, TableIndex};
use fray_core::table::{can_act, enemies, id, name, on_table};

use crate::combat::{FOG, defences};
use crate::commit::{public, sequence};
use crate::data::{BoldEffect, Defence, Limb, WeaponKind};
use crate::decisions::{awaiting, validate};
use crate::intent::FastSlowIntent;
use crate::phase::{Battle, Fighter, Speed};
use crate::turns::between;

/// Every decision the board offers `e` now, each with its verdict.
pub fn choices(world: &World, e: Entity) -> Vec<Choice<FastSlowIntent>> {
    if !awaiting(world).contains(&e) {
        return Vec::new();
    }
    let battle = world.resource::<Battle>();
    let Some(f) = world.get::<Fighter>(e) else { return Vec::new() };
    let choice = |intent: FastSlowIntent, label: String| {
        let verdict = validate(world, e, &intent).map(|_| ());
        Choice::new(intent, label, verdict)
    };
    if battle.committing {
        return [Speed::Fast, Speed::Slow]
            .into_iter()
            .map(|speed| {
                let last = f.last_speed == Some(speed);
                let what = match speed {
                    Speed::Fast => "Fast turn: 2 actions, first",
                    Speed::Slow => "Slow turn: 4 Paces, 2 actions and a bold action, after the upkeep",
                };
                let mut c = choice(
                    FastSlowIntent::Commit { speed },
                    format!("{what}{}", if last { " (as last round)" } else { "" }),
                );
                if last || (f.last_speed.is_none() && speed == Speed::Slow) {
                    c.key = Some(ChoiceKey::Pass);
                }
                c
            })
            .collect();
    }
    if let Some(hit) = battle.pending.as_ref().filter(|h| h.defender == e) {
        return defences(hit, battle)
            .into_iter()
            .map(|(d, _)| {
                let die = f.sheet.defences.get(d);
                let label =
                    format!("{} (d12 + d{} + {} against DL {})", d.word(), die.die, die.bonus, hit.dl);
                choice(FastSlowIntent::Defend { defence: d }, label)
            })
            .collect();
    }
    if let Some((_, fumbler)) = battle.counter.filter(|(d, _)| *d == e) {
        let mut out: Vec<_> = f
            .sheet
            .weapons
            .iter()
            .enumerate()
            .map(|(w, weapon)| {
                choice(
                    FastSlowIntent::Counter { weapon: w },
                    format!("Counterattack {} with {}", name(world, fumbler), weapon.name),
                )
                .at(id(world, fumbler))
            })
            .collect();
        out.push(stake(world, f, &choice));
        let mut decline = choice(FastSlowIntent::Decline, "Let the fumble go".to_owned());
        decline.key = Some(ChoiceKey::Pass);
        out.push(decline);
        return out;
    }
    let mut out = Vec::new();
    let order = world.resource::<TableIndex>().order.clone();
    if battle.turn != Some(e) {
        // Free movement before round one: a drag, then its end.
        let mut end = choice(FastSlowIntent::EndTurn, "End free movement".to_owned());
        end.key = Some(ChoiceKey::EndTurn);
        return vec![end];
    }
    for &t in &order {
        if !enemies(world, e, t) || !on_table(world, t) || world.get::<Fighter>(t).is_none_or(|f| f.waiting())
        {
            continue;
        }
        for (w, weapon) in f.sheet.weapons.iter().enumerate() {
            let (target, then) = (name(world, t), second(world, e, t, w));
            let label = if weapon.kind.is_spell() {
                format!("Cast {} at {target}{then}", weapon.name)
            } else {
                format!("Attack {target} with {}{then}", weapon.name)
            };
            let attack = FastSlowIntent::Attack { target: id(world, t), weapon: w, technique: None };
            out.push(choice(attack, label.clone()).at(id(world, t)));
            for (k, technique) in f.sheet.techniques.iter().enumerate() {
                if crate::combat::check_technique(world, e, w, k).is_ok() {
                    let attack =
                        FastSlowIntent::Attack { target: id(world, t), weapon: w, technique: Some(k) };
                    out.push(choice(attack, format!("{label} + {}", technique.name)).at(id(world, t)));
                }
            }
        }
    }
    out.push(stake(world, f, &choice));
    for (skill, die) in &f.sheet.skills {
        let label = format!("Skill roll: {skill} d{die} (DL {})", battle.rules.skill_dl);
        out.push(choice(FastSlowIntent::SkillRoll { skill: skill.clone() }, label));
    }
    for (a, bold) in f.sheet.bold.iter().enumerate() {
        let targets: Vec<Entity> = match bold.effect {
            BoldEffect::Strike { .. } | BoldEffect::FollowUp { .. } => {
                order.iter().copied().filter(|&t| enemies(world, e, t) && on_table(world, t)).collect()
            }
            BoldEffect::Mend { .. } => order
                .iter()
                .copied()
                .filter(|&t| world.get::<Side>(t) == world.get::<Side>(e) && on_table(world, t))
                .collect(),
        };
        for t in targets {
            let label = format!("Bold: {} on {} (FOG d{})", bold.name, name(world, t), bold.fog);
            out.push(
                choice(FastSlowIntent::Bold { ability: a, target: id(world, t) }, label).at(id(world, t)),
            );
        }
    }
    if f.potions > 0 {
        for &t in &order {
            if world.get::<Side>(t) == world.get::<Side>(e)
                && on_table(world, t)
                && (t == e || between(world, e, t) <= 3.0)
            {
                let label = format!(
                    "Potion for {} ({} left)",
                    if t == e { "oneself".to_owned() } else { name(world, t) },
                    f.potions
                );
                out.push(choice(FastSlowIntent::Potion { target: id(world, t) }, label).at(id(world, t)));
            }
        }
    }
    out.push(if f.prone {
        choice(FastSlowIntent::Stand, "Stand up".to_owned())
    } else {
        choice(FastSlowIntent::Prone, "Go prone".to_owned())
    });
    out.push(choice(FastSlowIntent::Flee, "Flee the fight (from the battlefield's edge)".to_owned()));
    let other = "Other action: 1 action (object, skill, the GM's price)".to_owned();
    out.push(choice(FastSlowIntent::Interact { actions: 1 }, other));
    out.push(choice(
        FastSlowIntent::Interact { actions: 2 },
        "Other action: 2 actions (the GM's price)".to_owned(),
    ));
    let mut end = choice(FastSlowIntent::EndTurn, "End turn".to_owned());
    end.key = Some(ChoiceKey::EndTurn);
    out.push(end);
    out
}

/// The choice to stake one more FOG on the next attack roll.
fn stake(
    world: &World,
    f: &Fighter,
    choice: &impl Fn(FastSlowIntent, String) -> Choice<FastSlowIntent>,
) -> Choice<FastSlowIntent> {
    let most = world.resource::<Battle>().rules.max_stake;
    choice(
        FastSlowIntent::Stake { fog: 1 },
        format!("Stake 1 FOG on the next attack roll (+1; {} of {most} staked)", f.staked),
    )
}

/// " (second attack: disadvantage)" when it would be.
fn second(world: &World, e: Entity, t: Entity, w: usize) -> &'static str {
    if crate::combat::disadvantage(world, e, t, w, true) { " (disadvantage)" } else { "" }
}

/// A token's caption notes: its speed once public (and whether it has acted), prone, torso
/// down, stamina (its turn's budget is on the sheet and in the decision panel).
pub fn token(world: &World, e: Entity) -> TokenView {
    let Some(f) = world.get::<Fighter>(e) else { return TokenView::default() };
    let mut notes = Vec::new();
    if f.waiting() {
        notes.push(format!("joins in round {}", f.joins.unwrap_or(0)));
        return TokenView { notes, ..TokenView::default() };
    }
    if let Some(speed) = f.speed.filter(|_| public(world, e)) {
        notes.push(format!("{}{}", speed.word(), if f.acted { ", done" } else { "" }));
    }
    if f.prone {
        notes.push("prone".to_owned());
    }
    if f.torso_down {
        notes.push("torso 0!".to_owned());
    }
    notes.push(format!("STA {}/{}", f.stamina, f.sheet.stamina));
    TokenView { notes, ..TokenView::default() }
}

fn bar(now: u32, max: u32) -> String {
    let filled = if max == 0 { 0 } else { (now * 10).div_ceil(max).min(10) } as usize;
    format!("{}{}", "■".repeat(filled), "□".repeat(10 - filled))
}

/// The sheet: stamina as a bar, the limb pools, dice, weapons, bold actions, this turn.
pub fn sheet(world: &World, e: Entity) -> Vec<SheetRow> {
    let Some(f) = world.get::<Fighter>(e) else { return Vec::new() };
    let mut rows = vec![
        SheetRow::heading(format!("Stamina {}/{}", f.stamina, f.sheet.stamina)),
        SheetRow::line(bar(f.stamina, f.sheet.stamina)),
        SheetRow::heading("Health"),
    ];
    for limb in Limb::ALL {
        let (now, max) = (f.health.get(limb), f.sheet.health.get(limb));
        let warn = match limb {
            Limb::Head if now == 0 => " (dead)",
            Limb::Torso if now == 0 => " (heal before the end, or die)",
            _ => "",
        };
        rows.push(SheetRow::line(format!("{:<9} {now:>2}/{max:<2} {}{warn}", limb.word(), bar(now, max))));
    }
    rows.push(SheetRow::heading(format!(
        "Difficulty {} · Toughness {}",
        f.sheet.difficulty, f.sheet.toughness
    )));
    let defences: Vec<String> = Defence::ALL
        .iter()
        .map(|&d| {
            let dd = f.sheet.defences.get(d);
            format!("{} d{}+{}", d.word(), dd.die, dd.bonus)
        })
        .collect();
    rows.push(SheetRow::line(defences.join(" · ")));
    rows.push(SheetRow::heading("Weapons and spellroots"));
    for w in &f.sheet.weapons {
        let skill = w
            .skill
            .as_ref()
            .and_then(|s| f.sheet.skills.get(s).map(|d| format!("{s} d{d}")))
            .unwrap_or_else(|| "no skill".to_owned());
        let attr = w
            .attribute
            .as_ref()
            .map(|a| format!(" + {a} {}", f.sheet.attributes.get(a).copied().unwrap_or(0)))
            .unwrap_or_default();
        let kind = match w.kind {
            WeaponKind::Weapon => "",
            WeaponKind::Spell => ", spell",
            WeaponKind::IntangibleSpell => ", intangible spell",
        };
        rows.push(SheetRow::line(format!(
            "{}: d12 + {skill}{attr}, damage {}/{}/{}, reach {}{kind}",
            w.name, w.damage[0], w.damage[1], w.damage[2], w.reach
        )));
    }
    if !f.sheet.bold.is_empty() {
        rows.push(SheetRow::heading("Bold actions"));
        for b in &f.sheet.bold {
            let what = match b.effect {
                BoldEffect::Strike { bonus, .. } => format!("a free attack +{bonus}"),
                BoldEffect::Mend { amount } => format!("restores {amount} stamina"),
                BoldEffect::FollowUp { damage } => format!("{damage} more after a hit"),
            };
            rows.push(SheetRow::line(format!("{}: {what}, FOG d{}", b.name, b.fog)));
        }
    }
    if !f.sheet.techniques.is_empty() {
        rows.push(SheetRow::heading("Techniques"));
        for t in &f.sheet.techniques {
            let what = match &t.effect {
                crate::data::TechniqueEffect::Knockdown => "knocks down".to_owned(),
                crate::data::TechniqueEffect::Shove { paces } => format!("shoves {paces} Paces"),
                crate::data::TechniqueEffect::Bleed { rounds } => format!("bleeds {rounds} rounds"),
            };
            rows.push(SheetRow::line(format!("{} ({} d{}+): {what}", t.name, t.skill, t.unlock)));
        }
    }
    let fog = world.get::<Counters>(e).map_or(0, |c| c.get(FOG));
    let table: u32 = world
        .resource::<TableIndex>()
        .order
        .iter()
        .filter_map(|&c| world.get::<Counters>(c))
        .map(|c| c.get(FOG))
        .sum();
    rows.push(SheetRow::line(format!("FOG {fog} (the table's total {table}) · potions {}", f.potions)));
    if world.resource::<Battle>().turn == Some(e) {
        rows.push(SheetRow::line(format!(
            "This turn: {} action{} · {:.1} base Paces · bold action {}",
            f.actions,
            if f.actions == 1 { "" } else { "s" },
            f.paces,
            if f.bold_used || f.speed != Some(Speed::Slow) { "not available" } else { "ready" }
        )));
    }
    if f.poisoned > 0 {
        rows.push(SheetRow::line(format!(
            "Poisoned: {} round{}",
            f.poisoned,
            if f.poisoned == 1 { "" } else { "s" }
        )));
    }
    rows
}

/// The order strip, once the round's choices are public: fast then slow, each side in the
/// entering order, with who has acted.
pub fn order(world: &World) -> Option<OrderView> {
    let battle = world.resource::<Battle>();
    if battle.committing || battle.round == 0 {
        return None;
    }
    let sides = &world.resource::<TableIndex>().sides;
    let side_name = |e: Entity| {
        world
            .get::<Side>(e)
            .and_then(|s| sides.iter().find(|(id, _)| *id == s.0).map(|(_, n)| n.clone()))
            .unwrap_or_default()
    };
    let mut entries = Vec::new();
    for speed in [Speed::Fast, Speed::Slow] {
        for e in sequence(world, speed) {
            let acted = world.get::<Fighter>(e).is_some_and(|f| f.acted);
            let mark = if !can_act(world, e) {
                OrderMark::Out
            } else if battle.turn == Some(e) {
                OrderMark::Now
            } else if acted {
                OrderMark::Done
            } else {
                OrderMark::Later
            };
            entries.push(OrderEntry { who: e, when: format!("{} · {}", speed.word(), side_name(e)), mark });
        }
    }
    let order = &world.resource::<TableIndex>().order;
    for &e in order {
        if let Some(r) = world.get::<Fighter>(e).and_then(|f| f.joins) {
            entries.push(OrderEntry {
                who: e,
                when: format!("arrives in round {r}'s upkeep"),
                mark: OrderMark::Joining,
            });
        }
    }
    Some(OrderView { title: "Turns", entries, events: Vec::new(), ladder: false, numbered: true })
}

/// The secret Fast/Slow choice while it is being made.
pub fn secret(world: &World) -> Option<SecretView> {
    let battle = world.resource::<Battle>();
    if !battle.committing {
        return None;
    }
    let sealed = world
        .resource::<TableIndex>()
        .order
        .iter()
        .filter(|&&e| !public(world, e))
        .filter_map(|&e| world.get::<Fighter>(e)?.speed.map(|s| (e, s.word().to_owned())))
        .collect();
    Some(SecretView { what: "Fast or Slow turn", sealed })
}

/// Traps and hazards.
pub fn scenery(world: &World) -> Vec<Scenery> {
    let battle = world.resource::<Battle>();
    let traps = battle.traps.iter().map(|t| Scenery {
        kind: SceneryKind::Trap { armed: t.armed() },
        at: [t.spec.at.0, t.spec.at.1],
        radius: t.spec.radius,
        label: Some(format!(
            "{} ({}, DL {})",
            t.spec.name,
            if t.disabled {
                "disabled"
            } else if t.stalled_until.is_some() {
                "stalled"
            } else {
                "armed"
            },
            t.spec.dl
        )),
    });
    let hazards = battle.hazards.iter().map(|h| Scenery {
        kind: SceneryKind::Hazard,
        at: [h.spec.at.0, h.spec.at.1],
        radius: h.radius,
        label: Some(format!("{} ({} a round)", h.spec.name, h.spec.damage)),
    });
    traps.chain(hazards).collect()
}
