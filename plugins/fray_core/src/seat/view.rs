//! A seat's view: the fight as one seat may know it, built from the ruleset contract's board
//! model for any ruleset. The facts every seat shares are gathered once ([`Gathered`]), then
//! each seat's view keeps what its [`Privacy`] lets it see: concealed combatants are absent
//! (their tokens, places in the order, sheets, and every log line naming them), sealed
//! choices show only that they are made, sheets follow the ruleset's declaration, and the
//! choices are those the seat decides now. Serialisable with stable ids: the same view a
//! seat's device will receive.

use std::sync::{Arc, OnceLock};

use bevy_ecs::prelude::*;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::Seat;
use crate::board::{AllocationAsk, OrderView, Privacy, SecretView, SheetRow};
use crate::ids::{CombatantId, LocationId, SideId};
use crate::intent::IntentRecord;
use crate::location::{EnteredFrom, Location};
use crate::log::{GameLog, LogEntry};
use crate::ruleset::{AnyRuleset, FightResult};
use crate::table::{Combatant, Controller, FieldPosition, Mount, Occupies, Rides, Side, Status, TableIndex};
use crate::tokens::Counters;

/// How many of the log's last lines a view holds.
pub const LOG_LINES: usize = 30;
/// How far back in the log a view looks for them (lines it may not see are skipped).
const LOG_SCAN: usize = 300;

/// What one seat may know of the fight now.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatView {
    /// Whose view it is.
    pub seat: Seat,
    /// The ruleset's id.
    pub ruleset: String,
    /// The clock for people ("Round 3").
    pub clock: String,
    /// The phase track.
    pub phase: PhaseSeen,
    /// The tokens it may see, in table order.
    pub tokens: Vec<Arc<TokenSeen>>,
    /// The locations' cards, in scenario order.
    pub cards: Arc<Vec<CardSeen>>,
    /// The order strip, if the rules show one.
    pub order: Option<OrderSeen>,
    /// Whose turn it is.
    pub acting: Vec<CombatantId>,
    /// Whom the rules wait on.
    pub waiting_on: Vec<CombatantId>,
    /// The secret choice being made, if one is.
    pub secret: Option<SecretSeen>,
    /// The decisions this seat may take now, per combatant it decides for.
    pub choices: Vec<ChoicesSeen>,
    /// Its own combatants' sheets (the GM's: its own and the AI's), and everyone's where
    /// the ruleset declares sheets public.
    pub sheets: Vec<Arc<SheetSeen>>,
    /// Counters its combatant is asked to allocate, if it may see the ask.
    pub allocation: Option<AllocationSeen>,
    /// The log's last lines it may read (at most [`LOG_LINES`]), each as the log file
    /// writes it: rolls, damage, reveals.
    pub log: Vec<Arc<Value>>,
    /// How the fight ended, once it has.
    pub result: Option<ResultSeen>,
}

/// The phase track.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PhaseSeen {
    /// The current phase's log name.
    pub name: String,
    /// Its title.
    pub title: String,
    /// The steps of its track, by title.
    pub track: Vec<String>,
    /// The current step (none once the fight is over).
    pub at: Option<usize>,
    /// The fight is over.
    pub over: bool,
}

/// A token as a seat sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TokenSeen {
    /// The combatant's stable id.
    pub id: CombatantId,
    /// Its name.
    pub name: String,
    /// Its side.
    pub side: SideId,
    /// Who decides for it.
    pub controller: Controller,
    /// Fighting, down, out...
    pub status: Status,
    /// The location it stands in.
    pub place: Option<LocationId>,
    /// Where it stands on a free board (in board units).
    pub at: Option<[f32; 2]>,
    /// The mount (or combatant) it rides, by id.
    pub rides: Option<String>,
    /// Its counters, by the log's kind id.
    pub counters: Vec<(String, u32)>,
    /// Its caption's notes.
    pub notes: Vec<String>,
    /// The states it is in, by word.
    pub marks: Vec<String>,
    /// Pips lit, of how many.
    pub pips: Option<(u32, u32)>,
    /// Concealed: only a seat that may see it has it at all.
    pub concealed: bool,
}

/// A location's card.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CardSeen {
    /// The location's stable id.
    pub id: LocationId,
    /// Its name.
    pub name: String,
    /// What entering costs, in words.
    pub cost: Option<String>,
    /// Its properties and state.
    pub notes: Vec<String>,
    /// The locations it may be entered from.
    pub entered_from: Vec<LocationId>,
}

/// The order strip.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OrderSeen {
    /// Its title.
    pub title: String,
    /// Who comes when, first first.
    pub entries: Vec<OrderEntrySeen>,
    /// Happenings placed in it: before which entry, and what.
    pub events: Vec<(usize, String)>,
    /// A ladder (drawn as a column).
    pub ladder: bool,
    /// Its entries are a sequence; none for groups in no fixed order.
    pub numbered: bool,
}

/// One place in the order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OrderEntrySeen {
    /// Who.
    pub who: CombatantId,
    /// When, in words.
    pub when: String,
    /// Where it stands.
    pub mark: crate::board::OrderMark,
}

/// A secret choice being made: who has chosen, and what only where this seat may know.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SecretSeen {
    /// What is chosen ("bid").
    pub what: String,
    /// Those who have chosen.
    pub chosen: Vec<SealedSeen>,
}

/// One sealed choice.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SealedSeen {
    /// Who chose.
    pub who: CombatantId,
    /// What, for a seat that may know before the reveal.
    pub choice: Option<String>,
}

/// The decisions one combatant may take now.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChoicesSeen {
    /// Who decides.
    pub who: CombatantId,
    /// Its choices, refused ones with their reasons.
    pub choices: Arc<Vec<ChoiceSeen>>,
}

/// One decision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChoiceSeen {
    /// Words on its button.
    pub label: String,
    /// Why the rules would refuse it now; none: they would accept it.
    pub refused: Option<String>,
    /// The combatant it is aimed at.
    pub target: Option<CombatantId>,
    /// Listed apart (attacks on one's own side).
    pub folded: bool,
    /// The intent it sends, as saves write it.
    pub intent: IntentSeen,
}

/// A choice's intent: the rules' own while the view stays in the process, written as a
/// save writes it (JSON) once the view is serialised; read back as that JSON.
#[derive(Clone, Debug)]
pub enum IntentSeen {
    /// As the rules offered it.
    Rules(IntentRecord),
    /// As read back from a serialised view.
    Json(Value),
}

impl IntentSeen {
    /// The intent as a save writes it.
    pub fn to_json(&self) -> Value {
        match self {
            IntentSeen::Rules(intent) => intent.to_json(),
            IntentSeen::Json(value) => value.clone(),
        }
    }
}

impl PartialEq for IntentSeen {
    /// Equal when written the same.
    fn eq(&self, other: &Self) -> bool {
        self.to_json() == other.to_json()
    }
}

impl Serialize for IntentSeen {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            IntentSeen::Rules(intent) => intent.serialize(s),
            IntentSeen::Json(value) => value.serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for IntentSeen {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Value::deserialize(d).map(IntentSeen::Json)
    }
}

/// A sheet.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SheetSeen {
    /// Whose.
    pub who: CombatantId,
    /// Its lines: (a heading, the words).
    pub rows: Vec<(bool, String)>,
}

/// Counters one combatant is asked to allocate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AllocationSeen {
    /// Who allocates.
    pub who: CombatantId,
    /// The kind, by its log id.
    pub kind: String,
    /// Who may be given some.
    pub targets: Vec<CombatantId>,
    /// What to do, in words.
    pub hint: String,
}

/// How the fight ended.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResultSeen {
    /// The side left standing, if one.
    pub winner: Option<SideId>,
    /// Why it ended.
    pub reason: String,
}

fn rows(sheet: Vec<SheetRow>) -> Vec<(bool, String)> {
    sheet.into_iter().map(|r| (r.heading, r.text)).collect()
}

/// One seat's view of the fight on `world`, which `rules` plays.
pub fn seat_view(world: &World, rules: &dyn AnyRuleset, seat: &Seat) -> SeatView {
    Gathered::new(world, rules, true).views(core::slice::from_ref(seat)).remove(0)
}

/// Several seats' views at once: what they share is read from the rules once.
pub fn seat_views(world: &World, rules: &dyn AnyRuleset, seats: &[Seat]) -> Vec<SeatView> {
    Gathered::new(world, rules, true).views(seats)
}

/// Several seats' views as a screen draws them: all but the choices (left empty), which a
/// screen asks of the rules for the one person deciding at it; validating every candidate
/// of every seat is too much to redo at each step of a big board.
pub fn drawn_views(world: &World, rules: &dyn AnyRuleset, seats: &[Seat]) -> Vec<SeatView> {
    Gathered::new(world, rules, false).views(seats)
}

/// A combatant as every seat's view starts from it (its sheet read only if a seat may see
/// it). The views share what they hold of it.
struct Person {
    e: Entity,
    token: Arc<TokenSeen>,
    sheet: OnceLock<Arc<SheetSeen>>,
}

/// What every seat's view is cut from, read once.
struct Gathered<'w> {
    world: &'w World,
    rules: &'w dyn AnyRuleset,
    privacy: Privacy,
    people: Vec<Person>,
    cards: Arc<Vec<CardSeen>>,
    /// What the rules say for every seat alike, asked once.
    phase: PhaseSeen,
    clock: String,
    acting: Vec<Entity>,
    awaiting: Vec<Entity>,
    order: Option<OrderView>,
    secret: Option<SecretView>,
    allocation: Option<AllocationAsk>,
    result: Option<ResultSeen>,
    /// Whether the views list the choices.
    with_choices: bool,
    /// The log's last lines, newest first, each turned into what the file writes only
    /// once a view needs it.
    log: Vec<(&'w LogEntry, OnceLock<Arc<Value>>)>,
    /// The lists of choices of those the rules wait on, once [`Gathered::views`] asks.
    choices: Vec<(Entity, Arc<Vec<ChoiceSeen>>)>,
}

impl<'w> Gathered<'w> {
    fn new(world: &'w World, rules: &'w dyn AnyRuleset, with_choices: bool) -> Self {
        let board = rules.view();
        let index = world.resource::<TableIndex>();
        let people = crate::cores::map(index.order.clone(), |e| {
            Some(Person { e, token: Arc::new(token(world, rules, e)?), sheet: OnceLock::new() })
        });
        let people = people.into_iter().flatten().collect();
        let cards =
            Arc::new(index.location_order.iter().filter_map(|&place| card(world, rules, place)).collect());
        let entries = world.get_resource::<GameLog>().map_or(&[][..], |log| log.entries());
        let log = entries.iter().rev().take(LOG_SCAN).map(|entry| (entry, OnceLock::new())).collect();
        let phase = rules.phase(world);
        let clock = world.get_resource::<GameLog>().map_or(0, |l| l.clock());
        Self {
            world,
            rules,
            privacy: board.privacy(),
            people,
            cards,
            log,
            phase: PhaseSeen {
                name: phase.name.to_owned(),
                title: phase.title.to_owned(),
                track: phase.track.iter().map(|s| (*s).to_owned()).collect(),
                at: phase.at,
                over: phase.over,
            },
            clock: rules.clock_title(clock),
            acting: board.acting(world),
            awaiting: rules.awaiting(world),
            order: board.order(world),
            secret: board.secret(world),
            allocation: board.allocation(world),
            result: world
                .get_resource::<FightResult>()
                .map(|r| ResultSeen { winner: r.winner.clone(), reason: r.reason.clone() }),
            with_choices,
            choices: Vec::new(),
        }
    }

    /// The views of `seats`: the sheets they need and the lists of choices of those they
    /// decide for first, each once, on every core; then each seat's view.
    fn views(mut self, seats: &[Seat]) -> Vec<SeatView> {
        let privacy = self.privacy;
        let sheet_seen = |p: &Person| seats.iter().any(|s| s.may_see(privacy.sheets, &p.token.controller));
        crate::cores::for_each(&self.people, |p| {
            if sheet_seen(p) {
                self.sheet(p);
            }
        });
        if self.with_choices {
            let world = self.world;
            let decided =
                |e: Entity| world.get::<Controller>(e).is_some_and(|c| seats.iter().any(|s| s.decides(c)));
            let asked: Vec<Entity> = self.awaiting.iter().copied().filter(|&e| decided(e)).collect();
            self.choices = crate::cores::map(asked, |e| (e, Arc::new(self.choices_of(e))));
        }
        // Each seat's view is work enough to spread, even two of them.
        seats.par_iter().map(|seat| self.view(seat)).collect()
    }

    fn controller(&self, id: &CombatantId) -> Controller {
        let e = self.world.resource::<TableIndex>().combatant(id);
        e.and_then(|e| self.world.get::<Controller>(e)).cloned().unwrap_or_default()
    }

    fn view(&self, seat: &Seat) -> SeatView {
        let (world, rules, privacy) = (self.world, self.rules, self.privacy);
        let hidden: Vec<&Person> = self
            .people
            .iter()
            .filter(|p| p.token.concealed && !seat.may_see(privacy.concealed, &p.token.controller))
            .collect();
        let shown = |e: Entity| !hidden.iter().any(|p| p.e == e);
        let id = |e: Entity| crate::table::id(world, e);
        let ids = |list: &[Entity]| list.iter().copied().filter(|&e| shown(e)).map(id).collect::<Vec<_>>();
        SeatView {
            seat: seat.clone(),
            ruleset: rules.id().to_owned(),
            clock: self.clock.clone(),
            phase: self.phase.clone(),
            tokens: self.people.iter().filter(|p| shown(p.e)).map(|p| p.token.clone()).collect(),
            cards: self.cards.clone(),
            order: self.order(&shown),
            acting: ids(&self.acting),
            waiting_on: ids(&self.awaiting),
            secret: self.secret(seat, &shown),
            choices: self.choices(seat),
            sheets: self
                .people
                .iter()
                .filter(|p| shown(p.e) && seat.may_see(privacy.sheets, &p.token.controller))
                .map(|p| self.sheet(p).clone())
                .collect(),
            allocation: self.allocation(seat),
            log: self.log(seat, &hidden),
            result: self.result.clone(),
        }
    }

    fn sheet<'p>(&self, p: &'p Person) -> &'p Arc<SheetSeen> {
        let rows = || rows(self.rules.view().sheet(self.world, p.e));
        p.sheet.get_or_init(|| Arc::new(SheetSeen { who: p.token.id.clone(), rows: rows() }))
    }

    fn order(&self, shown: &dyn Fn(Entity) -> bool) -> Option<OrderSeen> {
        let order = self.order.as_ref()?;
        let kept = |before: usize| {
            order.entries[..before.min(order.entries.len())].iter().filter(|o| shown(o.who)).count()
        };
        Some(OrderSeen {
            title: order.title.to_owned(),
            entries: order
                .entries
                .iter()
                .filter(|o| shown(o.who))
                .map(|o| OrderEntrySeen {
                    who: crate::table::id(self.world, o.who),
                    when: o.when.clone(),
                    mark: o.mark,
                })
                .collect(),
            events: order.events.iter().map(|ev| (kept(ev.before), ev.what.clone())).collect(),
            ladder: order.ladder,
            numbered: order.numbered,
        })
    }

    fn secret(&self, seat: &Seat, shown: &dyn Fn(Entity) -> bool) -> Option<SecretSeen> {
        let secret = self.secret.as_ref()?;
        let chosen = secret
            .sealed
            .iter()
            .filter(|(e, _)| shown(*e))
            .map(|(e, choice)| {
                let who = crate::table::id(self.world, *e);
                let may = seat.may_see(self.privacy.sealed, &self.controller(&who));
                SealedSeen { who, choice: may.then(|| choice.clone()) }
            })
            .collect();
        Some(SecretSeen { what: secret.what.to_owned(), chosen })
    }

    fn choices(&self, seat: &Seat) -> Vec<ChoicesSeen> {
        let world = self.world;
        self.choices
            .iter()
            .filter(|(e, _)| world.get::<Controller>(*e).is_some_and(|c| seat.decides(c)))
            .map(|(e, choices)| ChoicesSeen { who: crate::table::id(world, *e), choices: choices.clone() })
            .collect()
    }

    /// The choices the rules offer `e` now, refused ones with their reasons.
    fn choices_of(&self, e: Entity) -> Vec<ChoiceSeen> {
        crate::cores::map(self.rules.choices(self.world, e), |c| ChoiceSeen {
            label: c.label,
            refused: c.verdict.err().map(|r| r.0),
            target: c.target,
            folded: c.folded,
            intent: IntentSeen::Rules(c.intent),
        })
    }

    fn allocation(&self, seat: &Seat) -> Option<AllocationSeen> {
        let world = self.world;
        let ask = self.allocation.as_ref()?;
        let who = crate::table::id(world, ask.who);
        seat.may_see(self.privacy.allocation, &self.controller(&who)).then(|| AllocationSeen {
            who,
            kind: ask.kind.id().to_owned(),
            targets: ask.targets.iter().map(|&e| crate::table::id(world, e)).collect(),
            hint: ask.hint.clone(),
        })
    }

    /// The last lines this seat may read: none written about a combatant it may not see
    /// while that one was concealed, and none naming one hidden from it now.
    fn log(&self, seat: &Seat, hidden: &[&Person]) -> Vec<Arc<Value>> {
        let others: Vec<&str> = self.people.iter().map(|p| p.token.name.as_str()).collect();
        let mut lines: Vec<Arc<Value>> = self
            .log
            .iter()
            .filter(|(entry, _)| {
                let actor = entry.actor.as_ref();
                !entry.concealed
                    || actor.is_some_and(|a| seat.may_see(self.privacy.concealed, &self.controller(a)))
            })
            .map(|(entry, value)| {
                value.get_or_init(|| Arc::new(serde_json::to_value(entry).unwrap_or(Value::Null)))
            })
            .filter(|value| !hidden.iter().any(|p| names(value, &p.token.id, &p.token.name, &others)))
            .take(LOG_LINES)
            .map(|value| if *seat == Seat::Gm { value.clone() } else { without_reason(value) })
            .collect();
        lines.reverse();
        lines
    }
}

/// A log line without the AI's reason for its decision: the AI plays for the GM, and its
/// reasons are the GM's to read.
fn without_reason(value: &Arc<Value>) -> Arc<Value> {
    match value.as_object() {
        Some(line) if line.contains_key("why") => {
            let mut line = line.clone();
            line.remove("why");
            Arc::new(Value::Object(line))
        }
        _ => value.clone(),
    }
}

/// Whether `value` names a combatant: its id as a whole string (or key), or its name within
/// any string, where it is not part of a longer name of someone else (`others`).
fn names(value: &Value, id: &CombatantId, name: &str, others: &[&str]) -> bool {
    match value {
        Value::String(s) => s == id.as_str() || says(s, name, others),
        Value::Array(items) => items.iter().any(|v| names(v, id, name, others)),
        Value::Object(map) => map.iter().any(|(k, v)| k == id.as_str() || names(v, id, name, others)),
        _ => false,
    }
}

/// Whether `text` says `name`, other than within one of `others` ("Cutthroat" is not said
/// by "Cutthroat brute").
pub fn says(text: &str, name: &str, others: &[&str]) -> bool {
    if name.is_empty() || !text.contains(name) {
        return false;
    }
    let mut rest = text.to_owned();
    for other in others.iter().filter(|o| o.len() > name.len() && o.contains(name)) {
        rest = rest.replace(*other, "");
    }
    rest.contains(name)
}

fn token(world: &World, rules: &dyn AnyRuleset, e: Entity) -> Option<TokenSeen> {
    let combatant = world.get::<Combatant>(e)?;
    let view = rules.view().token(world, e);
    let place = world.get::<Occupies>(e).and_then(|o| world.get::<Location>(o.0)).map(|l| l.id.clone());
    let rides = world.get::<Rides>(e).and_then(|r| {
        let mount = world.get::<Mount>(r.0).map(|m| m.id.to_string());
        mount.or_else(|| world.get::<Combatant>(r.0).map(|c| c.id.to_string()))
    });
    Some(TokenSeen {
        id: combatant.id.clone(),
        name: combatant.name.clone(),
        side: world.get::<Side>(e).map_or_else(|| SideId::from(""), |s| s.0.clone()),
        controller: world.get::<Controller>(e).cloned().unwrap_or_default(),
        status: world.get::<Status>(e).copied().unwrap_or_default(),
        place,
        at: world.get::<FieldPosition>(e).map(|p| p.0),
        rides,
        counters: world
            .get::<Counters>(e)
            .map(|c| c.iter().filter(|(_, n)| *n > 0).map(|(k, n)| (k.id().to_owned(), n)).collect())
            .unwrap_or_default(),
        notes: view.notes,
        marks: view.marks.into_iter().map(|m| m.label).collect(),
        pips: view.pips.map(|p| (p.full, p.of)),
        concealed: view.concealed,
    })
}

fn card(world: &World, rules: &dyn AnyRuleset, place: Entity) -> Option<CardSeen> {
    let location = world.get::<Location>(place)?;
    let view = rules.view().card(world, place);
    let entered_from = world
        .get::<EnteredFrom>(place)
        .map(|from| from.0.iter().filter_map(|&f| world.get::<Location>(f).map(|l| l.id.clone())).collect())
        .unwrap_or_default();
    Some(CardSeen {
        id: location.id.clone(),
        name: location.name.clone(),
        cost: view.cost,
        notes: view.notes,
        entered_from,
    })
}
