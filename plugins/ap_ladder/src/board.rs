//! What a board shows of the Initiative ladder: the choices with their verdicts, AP and
//! chances; token captions (AP, conditions, wounds); the sheet; the ladder as the order strip
//! with the GM's events; covers, areas and dropped weapons as scenery.

use bevy_ecs::prelude::*;
use fray_core::board::{
    Choice, ChoiceKey, OrderEntry, OrderMark, OrderView, Pips, Scenery, SceneryKind, SheetRow, TokenMark,
    TokenView,
};
use fray_core::table::{can_act, id, name};

use crate::combat::{damage_threshold, peril_threshold, plan_attack};
use crate::conditions::label;
use crate::data::{Attribute, CoverLevel, WeaponKind};
use crate::decisions::{awaiting, validate};
use crate::field::{between, distance, foes, position};
use crate::intent::{Aim, ApLadderIntent, MoveKind, PushWay, StuntKind};
use crate::phase::{Battle, DAMAGE_TRACK, Fighter, PERIL_TRACK, RungOf};

/// AP as pips: filled for those left.
pub fn pips(ap: u32) -> String {
    format!("{}{}", "■".repeat(ap.min(3) as usize), "□".repeat(3usize.saturating_sub(ap as usize)))
}

/// The chance of a planned attack, every modifier counted.
fn chance(world: &World, e: Entity, plan: &crate::combat::AttackPlan) -> u32 {
    let base = world.get::<Fighter>(e).map_or(0, |f| f.sheet.chance(plan.skill));
    let standing = world.get::<Fighter>(e).map_or(0, |f| crate::dice::standing_sum(f, Some(plan.skill)));
    crate::dice::chance(base + standing, &plan.modifiers)
}

/// Every decision the board offers `e` now, each with its verdict.
pub fn choices(world: &World, e: Entity) -> Vec<Choice<ApLadderIntent>> {
    if !awaiting(world).contains(&e) {
        return Vec::new();
    }
    let Some(f) = world.get::<Fighter>(e) else { return Vec::new() };
    let choice = |intent: ApLadderIntent, label: String| {
        let verdict = validate(world, e, &intent).map(|_| ());
        Choice::new(intent, label, verdict)
    };
    let battle = world.resource::<Battle>();
    if let Some(p) = battle.pending.as_ref().filter(|p| p.defender == e) {
        let mut out: Vec<_> = crate::combat::odds(world, p)
            .into_iter()
            .map(|(r, v)| {
                let label = match &v {
                    Ok(c) => format!("{} (1 AP of {}, {c}% — a critical keeps the AP)", r.word(), f.ap),
                    Err(_) => format!("{} (1 AP)", r.word()),
                };
                choice(ApLadderIntent::React { reaction: r }, label)
            })
            .collect();
        let mut take = choice(ApLadderIntent::TakeIt, "Take the hit (no reaction)".to_owned());
        take.key = Some(ChoiceKey::Pass);
        out.push(take);
        return out;
    }
    if battle.followers.first() == Some(&e)
        && let Some(who) = battle.followed
    {
        let mut stay = choice(ApLadderIntent::StayPut, "Stay where you are".to_owned());
        stay.key = Some(ChoiceKey::Pass);
        return vec![
            choice(ApLadderIntent::Follow, format!("Follow {} (free, beside it)", name(world, who))),
            stay,
        ];
    }
    if battle.offer == Some(e) {
        let whose = match crate::ladder::offered_rung(world) {
            Some((_, crate::phase::RungOf::Fighter(o))) => format!("{}'s turn", name(world, o)),
            Some((_, crate::phase::RungOf::Event(i))) => {
                battle.rules.events.get(i).map_or_else(String::new, |ev| ev.name.clone())
            }
            None => String::new(),
        };
        let test = if crate::ladder::needs_scrutiny(world, e) {
            format!(", Scrutinize {}%", f.sheet.chance(crate::data::Skill::Scrutinize).clamp(1, 99))
        } else {
            String::new()
        };
        let mut keep = choice(ApLadderIntent::KeepWaiting, format!("Keep waiting: let {whose} go"));
        keep.key = Some(ChoiceKey::Pass);
        return vec![
            choice(ApLadderIntent::Interrupt, format!("Step in before {whose} ({} AP{test})", f.ap)),
            keep,
        ];
    }
    let mut out = Vec::new();
    if f.has(crate::data::Condition::Choked) {
        let odds = crate::dice::odds_of(world, e, crate::data::Skill::Athletics, &[]);
        out.push(choice(ApLadderIntent::Escape, format!("Resist the chokehold (Athletics, 0 AP, {odds}%)")));
    }
    let weapon = f.weapon().map_or("fists".to_owned(), |w| w.name.clone());
    for t in foes(world, e) {
        let tid = id(world, t);
        let attack = |called: Option<Aim>, all_out: u32, punishing: bool| ApLadderIntent::Attack {
            target: tid.clone(),
            called,
            all_out,
            punishing,
            press: false,
        };
        let plain = attack(None, 0, false);
        let label = match plan_attack(world, e, t, None, 0, false) {
            Ok(p) => {
                format!("Attack {} with {weapon} ({} AP, {}%)", name(world, t), p.ap, chance(world, e, &p))
            }
            Err(_) => format!("Attack {} with {weapon}", name(world, t)),
        };
        out.push(choice(plain, label).at(tid.clone()));
        if let Ok(p) = plan_attack(world, e, t, None, 0, false).and_then(crate::combat::pressed) {
            let press = ApLadderIntent::Attack {
                target: tid.clone(),
                called: None,
                all_out: 0,
                punishing: false,
                press: true,
            };
            let label = format!(
                "Attack {}, ignoring {weapon}'s size for a Chaos Die ({}%; a 6 fumbles)",
                name(world, t),
                chance(world, e, &p)
            );
            out.push(choice(press, label).at(tid.clone()));
        }
        for aim in [Aim::Head, Aim::Arms, Aim::Legs, Aim::Body] {
            let mut c = choice(
                attack(Some(aim), 0, false),
                format!("Called shot at {}'s {} (2 AP, no dodge or parry)", name(world, t), aim.word()),
            )
            .at(tid.clone());
            c.folded = true;
            out.push(c);
        }
        let mut all = choice(
            attack(None, 1, false),
            format!("All-out on {} (+10, a Chaos Die: a 6 fumbles)", name(world, t)),
        )
        .at(tid.clone());
        all.folded = true;
        out.push(all);
        if f.weapon().is_some_and(|w| w.has(crate::data::Quality::Punishing)) {
            out.push(
                choice(
                    attack(None, 0, true),
                    format!("Punishing blow on {} (2 AP, +1 Fury Die)", name(world, t)),
                )
                .at(tid.clone()),
            );
        }
        if let Some(m) = crate::mounts::mount_of(world, t) {
            let horse = world.get::<fray_core::prelude::Mount>(m).map_or("mount", |m| m.name.as_str());
            let strike = ApLadderIntent::StrikeMount { rider: tid.clone() };
            let label = match crate::combat::plan_mount_attack(world, e, t) {
                Ok(p) => format!(
                    "Strike {}'s {horse} with {weapon} ({} AP, {}%, it cannot react)",
                    name(world, t),
                    p.ap,
                    chance(world, e, &p)
                ),
                Err(_) => format!("Strike {}'s {horse} with {weapon}", name(world, t)),
            };
            let mut c = choice(strike, label).at(tid.clone());
            c.folded = true;
            out.push(c);
        }
        if world.get::<fray_core::prelude::Rides>(e).is_some() {
            out.push(
                choice(
                    ApLadderIntent::Trample { target: tid.clone() },
                    format!("Trample {} (1 AP, only a Dodge answers)", name(world, t)),
                )
                .at(tid.clone()),
            );
        }
        for kind in [
            StuntKind::Takedown,
            StuntKind::Disarm,
            StuntKind::StunningBlow,
            StuntKind::DirtyTricks,
            StuntKind::Push { takedown: false, way: PushWay::Back },
            StuntKind::Push { takedown: true, way: PushWay::Back },
            StuntKind::Push { takedown: false, way: PushWay::Left },
            StuntKind::Push { takedown: false, way: PushWay::Right },
            StuntKind::Push { takedown: true, way: PushWay::Left },
            StuntKind::Push { takedown: true, way: PushWay::Right },
            StuntKind::Chokehold,
            StuntKind::Knockout,
            StuntKind::SplinterShield,
        ] {
            let ap = crate::stunts::ap_of(kind);
            // The odds on both sides: the Resist is free and always rolled (see RULES.md).
            let (mine, resist) = crate::stunts::stunt_odds(world, e, t, kind);
            let resist = resist.map_or_else(String::new, |r| format!(", Resist {r}%"));
            let mut c = choice(
                ApLadderIntent::Stunt { target: tid.clone(), kind },
                format!("{} on {} ({ap} AP, {mine}%{resist})", kind.word(), name(world, t)),
            )
            .at(tid.clone());
            c.folded = c.verdict.is_err() || kind != StuntKind::Takedown;
            out.push(c);
        }
        if between(world, e, t) > crate::field::engagement(world) {
            for how in [MoveKind::Charge, MoveKind::Walk] {
                if let Some(to) = toward(world, e, t, how) {
                    let ap =
                        crate::moves::plan_move(world, e, to, how).map_or(crate::moves::ap_of(how), |p| p.ap);
                    let mut c = choice(
                        ApLadderIntent::Move { to: (to[0], to[1]), how },
                        format!("{} toward {} ({ap} AP)", cap(how.word()), name(world, t)),
                    )
                    .at(tid.clone());
                    c.folded = how == MoveKind::Walk;
                    out.push(c);
                }
            }
        }
    }
    out.push(choice(ApLadderIntent::GetUp, "Get up (2 AP, 1 with Coordination)".to_owned()));
    if crate::specials::check_put_out(world, e).is_ok() {
        out.push(choice(ApLadderIntent::PutOutFire, "Beat out the flames (2 AP, Coordination)".to_owned()));
    }
    for t in bleeding_friends(world, e) {
        let heal = f.sheet.chance(crate::data::Skill::Heal)
            + crate::dice::standing_sum(f, Some(crate::data::Skill::Heal));
        let whose = if t == e { "your".to_owned() } else { format!("{}'s", name(world, t)) };
        let ap = world.resource::<Battle>().rules.numbers.bind_ap;
        let mut c = choice(
            ApLadderIntent::BindWound { target: id(world, t) },
            format!("Bind {whose} bleeding wound ({ap} AP, Heal {}%)", heal.clamp(1, 99)),
        );
        c.folded = c.verdict.is_err();
        out.push(c);
    }
    if crate::specials::check_fix(world, e).is_ok() {
        out.push(choice(
            ApLadderIntent::FixShield,
            "Fix the shield on the ground here (1 AP: medium cover)".to_owned(),
        ));
    }
    if world.get::<fray_core::prelude::Rides>(e).is_some() {
        out.push(choice(ApLadderIntent::Dismount, "Dismount (as getting up)".to_owned()));
    }
    for (mid, &m) in &world.resource::<fray_core::prelude::TableIndex>().mounts {
        if crate::moves::check_mount(world, e, Some(m)).is_ok() {
            let what =
                world.get::<fray_core::prelude::Mount>(m).map_or_else(|| mid.to_string(), |m| m.name.clone());
            out.push(choice(
                ApLadderIntent::Mount { mount: mid.clone() },
                format!("Mount the {what} (as getting up)"),
            ));
        }
    }
    out.push(choice(
        ApLadderIntent::KeepChokehold,
        "Keep the chokehold (3 AP: 1d10 + [BB] Peril)".to_owned(),
    ));
    out.push(choice(ApLadderIntent::LetGo, "Let the chokehold go".to_owned()));
    out.push(choice(ApLadderIntent::TakeAim { ap: 1 }, "Take aim (1 AP: +10)".to_owned()));
    out.push(choice(ApLadderIntent::TakeAim { ap: 2 }, "Take aim (2 AP: +20)".to_owned()));
    out.push(choice(ApLadderIntent::InspiringWords, "Inspiring words (1 AP, once a fight)".to_owned()));
    out.push(choice(ApLadderIntent::LitanyOfHatred, "Litany of hatred (1 AP, once a fight)".to_owned()));
    out.push(choice(ApLadderIntent::ChannelPower, "Channel power (1 AP: +10 to the next spell)".to_owned()));
    out.push(choice(ApLadderIntent::Load, format!("Load {weapon} (the AP it needs)")));
    out.push(choice(ApLadderIntent::Subdue, "Subdue (1 AP: the next attack does not kill)".to_owned()));
    let swap_cost = if f.swaps > 0 { "1 AP" } else { "free" };
    for (w, weapon) in f.sheet.weapons.iter().enumerate() {
        let mut c = choice(
            ApLadderIntent::Swap { weapon: Some(w) },
            format!("Take {} in hand ({swap_cost})", weapon.name),
        );
        c.folded = c.verdict.is_err();
        out.push(c);
    }
    let mut fists = choice(ApLadderIntent::Swap { weapon: None }, format!("Fists ({swap_cost})"));
    fists.folded = true;
    out.push(fists);
    out.push(choice(ApLadderIntent::Wait, "Wait: keep the AP, step in later this turn".to_owned()));
    let left = if f.ap > 0 { format!(" ({} AP left unspent)", f.ap) } else { String::new() };
    let mut end = choice(ApLadderIntent::EndTurn, format!("End turn{left}"));
    end.key = Some(ChoiceKey::EndTurn);
    out.push(end);
    out
}

/// `e` and its allies on the field who bleed, `e` first.
pub fn bleeding_friends(world: &World, e: Entity) -> Vec<Entity> {
    let bleeds = |o: Entity| {
        world
            .get::<Fighter>(o)
            .is_some_and(|f| f.has(crate::data::Condition::Bleeding) && !f.has(crate::data::Condition::Slain))
    };
    let order = &world.resource::<fray_core::prelude::TableIndex>().order;
    let mut out: Vec<Entity> = order.iter().copied().filter(|&o| o == e && bleeds(o)).collect();
    out.extend(
        order.iter().copied().filter(|&o| o != e && bleeds(o) && !fray_core::table::enemies(world, e, o)),
    );
    out
}

fn cap(s: &str) -> String {
    fray_core::board::capital(s)
}

/// A point beside `t` that `e` could reach with this kind of move (a free one beside it for a
/// charge).
fn toward(world: &World, e: Entity, t: Entity, how: MoveKind) -> Option<[f32; 2]> {
    if how == MoveKind::Charge {
        let ok = |p: &[f32; 2]| crate::moves::plan_move(world, e, *p, how).is_ok();
        if let Some(p) = crate::field::beside(world, e, t).into_iter().find(ok) {
            return Some(p);
        }
    }
    let (from, there) = (position(world, e), position(world, t));
    let gap = distance(from, there);
    let go = (gap - crate::field::close_in(world)).min(crate::moves::reach(world, e, how)).max(0.0);
    if go < 0.05 {
        return None;
    }
    let k = go / gap.max(1e-3);
    Some([from[0] + (there[0] - from[0]) * k, from[1] + (there[1] - from[1]) * k])
}

/// A token's AP as pips (while it can act); its caption: wounds and peril when not whole,
/// cover, running, injuries, its mount's state; its conditions as marks.
pub fn token(world: &World, e: Entity) -> TokenView {
    let Some(f) = world.get::<Fighter>(e) else { return TokenView::default() };
    let mut notes = Vec::new();
    let pips = can_act(world, e).then_some(Pips { full: f.ap, of: 3 });
    if f.damage > 0 {
        notes.push(DAMAGE_TRACK[f.damage as usize].to_owned());
    }
    if f.peril > 0 {
        notes.push(PERIL_TRACK[f.peril as usize].to_owned());
    }
    let tables = &world.resource::<Battle>().tables;
    let marks = f
        .conditions
        .keys()
        .map(|c| TokenMark {
            label: label(world, *c),
            icon: tables.condition(*c).and_then(|r| r.icon.clone()),
        })
        .collect();
    if let Some(level) = crate::field::cover_level(world, e) {
        notes.push(format!("{} cover", level.word()));
    }
    if f.running {
        notes.push("running".to_owned());
    }
    match f.injuries.len() {
        0 => {}
        1 => notes.push("1 injury".to_owned()),
        n => notes.push(format!("{n} injuries")),
    }
    if let Some(m) = crate::mounts::mount_of(world, e)
        && let Some(s) =
            world.get::<crate::mounts::Steed>(m).filter(|s| **s != crate::mounts::Steed::default())
    {
        notes.push(format!("mount {}", s.words()));
    }
    TokenView { notes, marks, pips, ..TokenView::default() }
}

/// The sheet: tracks, thresholds, AP, attributes, skills, weapons, conditions.
pub fn sheet(world: &World, e: Entity) -> Vec<SheetRow> {
    let Some(f) = world.get::<Fighter>(e) else { return Vec::new() };
    let (dt, dt_parts) = damage_threshold(world, e, false);
    let (pt, _) = peril_threshold(world, e);
    let parts: Vec<String> = dt_parts.iter().map(|m| format!("{} {:+}", m.what, m.value)).collect();
    let mut rows = vec![
        SheetRow::heading(format!("AP {} {}", pips(f.ap), f.ap)),
        SheetRow::line(format!(
            "Damage: {} ({}/5) · Threshold {dt} ({})",
            DAMAGE_TRACK[f.damage as usize],
            f.damage,
            parts.join(", ")
        )),
        SheetRow::line(format!("Peril: {} ({}/5) · Threshold {pt}", PERIL_TRACK[f.peril as usize], f.peril)),
    ];
    if !f.conditions.is_empty() {
        let all: Vec<String> = f.conditions.keys().map(|c| label(world, *c)).collect();
        rows.push(SheetRow::line(format!("Conditions: {}", all.join(", "))));
    }
    for i in &f.injuries {
        rows.push(SheetRow::line(format!("Injury: {} ({}) — {}", i.name, i.severity.word(), i.summary())));
    }
    if let Some(m) = crate::mounts::mount_of(world, e)
        && let Some(s) = world.get::<crate::mounts::Steed>(m)
    {
        let horse = world.get::<fray_core::prelude::Mount>(m).map_or("Mount", |m| m.name.as_str());
        let (dt, _) = crate::mounts::threshold(world, m);
        rows.push(SheetRow::line(format!("Riding {horse}: {} ({}/5) · Threshold {dt}", s.words(), s.damage)));
        for i in &s.injuries {
            rows.push(SheetRow::line(format!(
                "{horse}'s injury: {} ({}) — {}",
                i.name,
                i.severity.word(),
                i.summary()
            )));
        }
    }
    let a = &f.sheet.attributes;
    let plus = &world.resource::<Battle>().rules.numbers;
    rows.push(SheetRow::heading("Attributes (bonus)"));
    rows.push(SheetRow::line(format!(
        "Combat {} ({}) · Brawn {} ({}) · Agility {} ({}) · Perception {} ({})",
        a.combat,
        a.combat / 10,
        a.brawn,
        a.brawn / 10,
        a.agility,
        a.agility / 10,
        a.perception,
        a.perception / 10
    )));
    rows.push(SheetRow::line(format!(
        "Intelligence {} · Willpower {} · Fellowship {} · Movement {} yd · Initiative {}",
        a.intelligence,
        a.willpower,
        a.fellowship,
        f.movement(plus.movement_plus),
        f.sheet.bonus(Attribute::Perception) + plus.initiative_plus
    )));
    if !f.sheet.skills.is_empty() {
        let skills: Vec<String> =
            f.sheet.skills.keys().map(|s| format!("{} {}%", s.word(), f.sheet.chance(*s))).collect();
        rows.push(SheetRow::line(format!("Trained: {}", skills.join(", "))));
    }
    rows.push(SheetRow::heading("Weapons"));
    for (i, w) in f.sheet.weapons.iter().enumerate() {
        let hand = if f.wielding == Some(i) {
            "in hand: "
        } else if f.lost[i] && f.ruined[i] && w.shield {
            "destroyed: "
        } else if f.lost[i] {
            "on the ground: "
        } else if f.sheet.off_hand == Some(i) {
            "off-hand: "
        } else {
            ""
        };
        let kind = match w.kind {
            WeaponKind::Melee => "melee".to_owned(),
            WeaponKind::Ranged => format!("ranged {} yd", w.range),
            WeaponKind::Thrown => format!("thrown {} yd", w.range),
            WeaponKind::Spell { ap } => format!("spell {ap} AP, {} yd", w.range),
        };
        let q: Vec<String> = w.qualities.iter().map(|q| format!("{q:?}")).collect();
        let load =
            if w.load > 0 { format!(", load {} AP ({} loaded)", w.load, f.loaded[i]) } else { String::new() };
        let ruined = if f.ruined[i] { ", Ruined!" } else { "" };
        rows.push(SheetRow::line(format!(
            "{hand}{}: {} {}% , damage +{}{load}{ruined}{}",
            w.name,
            kind,
            f.sheet.chance(w.skill),
            w.damage,
            if q.is_empty() { String::new() } else { format!(" [{}]", q.join(", ")) }
        )));
    }
    rows.push(SheetRow::line(format!(
        "Fate {} · Fortune {} · Corruption {}",
        f.fate, f.fortune, f.corruption
    )));
    rows
}

/// The ladder, top to bottom: each combatant's score and AP, the events where they sit.
pub fn order(world: &World) -> Option<OrderView> {
    let battle = world.resource::<Battle>();
    if battle.ladder.is_empty() {
        return None;
    }
    let mut entries = Vec::new();
    let mut events = Vec::new();
    for r in &battle.ladder {
        match r.of {
            RungOf::Fighter(e) => {
                let mark = if !can_act(world, e) {
                    OrderMark::Out
                } else if battle.acting == Some(e) {
                    OrderMark::Now
                } else if world.get::<Fighter>(e).is_some_and(|f| f.waited) {
                    OrderMark::Holding
                } else if r.done {
                    OrderMark::Done
                } else {
                    OrderMark::Later
                };
                let ap = world.get::<Fighter>(e).map_or(0, |f| f.ap);
                entries.push(OrderEntry { who: e, when: format!("{} · AP {}", r.score, pips(ap)), mark });
            }
            RungOf::Event(i) => {
                let what = battle.rules.events.get(i).map_or_else(String::new, |ev| ev.name.clone());
                events.push(fray_core::board::OrderEvent {
                    before: entries.len(),
                    what: format!("{} · {what}", r.score),
                });
            }
        }
    }
    Some(OrderView { title: "Ladder", entries, events, ladder: true, numbered: true })
}

/// Covers, areas and dropped weapons.
pub fn scenery(world: &World) -> Vec<Scenery> {
    let battle = world.resource::<Battle>();
    let covers = battle.rules.covers.iter().map(|c| Scenery {
        kind: SceneryKind::Cover { strong: c.level >= CoverLevel::Medium },
        at: [c.at.0, c.at.1],
        radius: c.radius,
        label: Some(format!(
            "{} ({} cover{})",
            c.name,
            c.level.word(),
            match c.level {
                CoverLevel::Full => ": no ranged target".to_owned(),
                l => format!(" +{}", l.threshold()),
            }
        )),
    });
    let areas = battle.rules.areas.iter().map(|a| Scenery {
        kind: SceneryKind::Terrain,
        at: [a.at.0, a.at.1],
        radius: a.radius,
        label: Some(if a.height > 0.0 {
            format!("{} ({}, {:.0} yd up)", a.name, a.kind.word(), a.height)
        } else {
            format!("{} ({})", a.name, a.kind.word())
        }),
    });
    let dropped = battle.dropped.iter().map(|d| Scenery {
        kind: SceneryKind::Trap { armed: false },
        at: d.at,
        radius: 0.4,
        label: world
            .get::<Fighter>(d.owner)
            .map(|f| format!("{}'s {}", name(world, d.owner), f.sheet.weapons[d.weapon].name)),
    });
    covers.chain(areas).chain(dropped).collect()
}
