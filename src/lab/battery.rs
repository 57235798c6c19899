//! A battery: many all-AI battles of one scenario, on several threads. Battle `i` (from 0)
//! uses seed `base + i` and is summed up on its own, so what comes back, sorted by battle,
//! is the same whatever the thread count.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

use bevy_app::App;
use bevy_ecs::world::World;
use fray_core::ai::AiLevel;
use fray_core::coverage::{Coverage, IntentCoverage};
use fray_core::fight::LoadedScenario;
use fray_core::log::{GameLog, LogEvent};
use fray_core::prelude::{Combatant, Side, Status};
use fray_core::table::TableIndex;
use serde::Serialize;

use crate::battle::{BattleSummary, play_to_end};

/// What the battery was: the scenario, its ruleset, the seeds and the limit.
#[derive(Clone, Debug, Serialize)]
pub struct Setup {
    /// The scenario's name.
    pub scenario: String,
    /// The ruleset's id.
    pub ruleset: String,
    /// Battle `i` used seed `seed + i`.
    pub seed: u64,
    /// Battles asked for.
    pub battles: u32,
    /// Each battle's limit in the ruleset's clock.
    pub limit: u32,
    /// What the clock counts, e.g. "rounds".
    pub clock: String,
    /// The two levels played one against the other, if they were (`--versus`).
    #[serde(skip)]
    pub versus: Option<[AiLevel; 2]>,
}

/// Who fights in the scenario, in scenario order, and the sides in theirs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Roster {
    /// Every combatant.
    pub combatants: Vec<Member>,
    /// Every side: id and name.
    pub sides: Vec<(String, String)>,
}

/// One combatant of the roster.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    /// Stable id.
    pub id: String,
    /// Shown name.
    pub name: String,
    /// Its side's id.
    pub side: String,
}

impl Roster {
    /// The roster of a table the scenario was spawned on.
    pub fn of(world: &World) -> Roster {
        let index = world.resource::<TableIndex>();
        let combatants = index
            .order
            .iter()
            .filter_map(|&e| {
                let c = world.get::<Combatant>(e)?;
                let side = world.get::<Side>(e)?;
                Some(Member { id: c.id.to_string(), name: c.name.clone(), side: side.0.to_string() })
            })
            .collect();
        let sides = index.sides.iter().map(|(id, name)| (id.to_string(), name.clone())).collect();
        Roster { combatants, sides }
    }
}

/// What one battle came to, for the report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BattleRecord {
    /// Its index, from 0.
    pub index: u32,
    /// Its seed.
    pub seed: u64,
    /// How it ended.
    pub summary: BattleSummary,
    /// Each combatant's part, in roster order.
    pub fighters: Vec<FighterRecord>,
    /// What the AI was offered and took, by intent kind, when counted.
    pub intents: Option<Coverage>,
    /// The AI level each side played at, in scenario order (`mixed` when its combatants'
    /// levels differ).
    pub levels: Vec<String>,
}

/// One combatant's part in one battle.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FighterRecord {
    /// Still fighting at the end.
    pub survived: bool,
    /// Damage it dealt to others, in the ruleset's units (taken, after reduction).
    pub dealt: u64,
    /// Damage it took.
    pub taken: u64,
    /// It was the first one out of the fight.
    pub fell_first: bool,
    /// Intents of its that the rules accepted.
    pub actions: u32,
}

impl BattleRecord {
    /// Sums up a finished battle from its table and log.
    pub fn read(index: u32, seed: u64, summary: BattleSummary, roster: &Roster, world: &World) -> Self {
        let at: BTreeMap<&str, usize> =
            roster.combatants.iter().enumerate().map(|(i, m)| (m.id.as_str(), i)).collect();
        let mut fighters = vec![FighterRecord::default(); roster.combatants.len()];
        let mut fallen = false;
        for entry in world.resource::<GameLog>().entries() {
            let Some(i) = entry.actor.as_ref().and_then(|a| at.get(a.as_str()).copied()) else {
                continue;
            };
            match &entry.event {
                LogEvent::IntentAccepted { .. } => fighters[i].actions += 1,
                LogEvent::Damage { taken, source, .. } => {
                    fighters[i].taken += u64::from(*taken);
                    if let Some(by) = source.by.as_ref().and_then(|b| at.get(b.as_str()).copied())
                        && by != i
                    {
                        fighters[by].dealt += u64::from(*taken);
                    }
                }
                LogEvent::StatusChanged { status } if *status != Status::Fighting && !fallen => {
                    fallen = true;
                    fighters[i].fell_first = true;
                }
                _ => {}
            }
        }
        for (f, m) in fighters.iter_mut().zip(&roster.combatants) {
            f.survived = summary.survivors.contains(&m.id);
        }
        let intents = world.get_resource::<IntentCoverage>().map(|c| c.counts.clone());
        let levels = roster.sides.iter().map(|(side, _)| side_level(world, side)).collect();
        BattleRecord { index, seed, summary, fighters, intents, levels }
    }
}

/// The level a side's combatants play at: `simple`, `tactical`, or `mixed`.
fn side_level(world: &World, side: &str) -> String {
    let index = world.resource::<TableIndex>();
    let on_side =
        |e: &&bevy_ecs::entity::Entity| world.get::<Side>(**e).is_some_and(|s| s.0.as_str() == side);
    let levels: std::collections::BTreeSet<AiLevel> =
        index.order.iter().filter(on_side).map(|&e| fray_core::ai::level(world, e)).collect();
    match levels.len() {
        1 => levels.first().map_or_else(String::new, |l| l.name().to_owned()),
        _ => "mixed".to_owned(),
    }
}

/// Which AI level plays each side.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Levels {
    /// The sides named at the level given (`fray sim --ai SIDE=LEVEL`); the rest as the
    /// scenario says (tactical unless it says otherwise).
    #[default]
    AsScenario,
    /// The named sides at their level.
    Sides(BTreeMap<String, AiLevel>),
    /// One level against the other (`--versus A,B`): in the first half of the battles the
    /// scenario's first side plays `A` and every other side `B`; in the second, swapped.
    Versus(AiLevel, AiLevel),
}

impl Levels {
    /// The level side `side` (the `n`th in scenario order) plays at in battle `i` of
    /// `battles`; None: as the scenario says.
    pub fn of(&self, n: usize, side: &str, i: u32, battles: u32) -> Option<AiLevel> {
        match self {
            Levels::AsScenario => None,
            Levels::Sides(map) => map.get(side).copied(),
            Levels::Versus(a, b) => {
                let swapped = i >= battles.div_ceil(2);
                Some(if (n == 0) != swapped { *a } else { *b })
            }
        }
    }

    /// Sets every combatant's level on a table spawned for battle `i`.
    fn apply(&self, world: &mut World, i: u32, battles: u32) {
        if *self == Levels::AsScenario {
            return;
        }
        let index = world.resource::<TableIndex>();
        let sides: Vec<String> = index.sides.iter().map(|(id, _)| id.to_string()).collect();
        let wanted: Vec<_> = index
            .order
            .iter()
            .filter_map(|&e| {
                let side = world.get::<Side>(e)?.0.to_string();
                let n = sides.iter().position(|s| *s == side)?;
                Some((world.get::<Combatant>(e)?.id.clone(), self.of(n, &side, i, battles)?))
            })
            .collect();
        fray_core::session::set_ai_levels(world, &wanted);
    }
}

/// What a battery plays.
pub struct Battery<'a> {
    /// The scenario.
    pub scenario: &'a LoadedScenario,
    /// Battle `i` uses seed `base + i`.
    pub base: u64,
    /// How many battles.
    pub battles: u32,
    /// The limit of each, in the ruleset's clock.
    pub limit: u32,
    /// Threads to play them on (at least one).
    pub threads: usize,
    /// The AI level of each side.
    pub levels: Levels,
}

/// What a worker hands over as each battle ends.
pub struct Finished {
    /// The battle, summed up.
    pub record: BattleRecord,
    /// Its log as JSON Lines, when asked for.
    pub log: Option<String>,
    /// Its save file's text, when asked for (the last battle only).
    pub save: Option<String>,
}

/// What the battery should keep of each battle besides its record.
#[derive(Clone, Copy, Debug, Default)]
pub struct Keep {
    /// Each battle's log.
    pub logs: bool,
    /// The last battle's save.
    pub last_save: bool,
    /// What the AI was offered and took, by intent kind (asking the rules for their
    /// choices at every decision: slower).
    pub coverage: bool,
}

impl Battery<'_> {
    /// What the battery plays, for its report.
    pub fn setup(&self) -> Setup {
        let ruleset = self.scenario.ruleset();
        Setup {
            scenario: self.scenario.name().to_owned(),
            ruleset: ruleset.id().to_owned(),
            seed: self.base,
            battles: self.battles,
            limit: self.limit,
            clock: ruleset.clock().units.to_owned(),
            versus: match self.levels {
                Levels::Versus(a, b) => Some([a, b]),
                _ => None,
            },
        }
    }

    /// Plays the battles, handing each over to `done` as it ends (in any order; `done` runs
    /// on the calling thread), and returns the roster the records follow. Stops starting new
    /// battles once `stop` is set. An error names a battle that did not end.
    pub fn run(
        &self,
        keep: Keep,
        stop: &AtomicBool,
        mut done: impl FnMut(Finished),
    ) -> Result<Roster, String> {
        // One table spawned to read who fights.
        let roster = Roster::of(self.scenario.table_app(self.base, self.limit, true).world());
        let next = AtomicU32::new(0);
        let failed: Mutex<Option<String>> = Mutex::new(None);
        let (send, receive) = std::sync::mpsc::channel::<Finished>();
        std::thread::scope(|scope| {
            for _ in 0..self.threads.max(1) {
                let send = send.clone();
                let (next, failed, roster) = (&next, &failed, &roster);
                scope.spawn(move || {
                    let mut app: Option<App> = None;
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= self.battles || stop.load(Ordering::Relaxed) {
                            break;
                        }
                        match self.play(&mut app, i, roster, keep) {
                            Ok(finished) => {
                                if send.send(finished).is_err() {
                                    break;
                                }
                            }
                            Err(why) => {
                                stop.store(true, Ordering::Relaxed);
                                if let Ok(mut f) = failed.lock() {
                                    f.get_or_insert(why);
                                }
                                break;
                            }
                        }
                    }
                });
            }
            drop(send);
            for finished in receive {
                done(finished);
            }
        });
        match failed.into_inner().ok().flatten() {
            Some(why) => Err(why),
            None => Ok(roster),
        }
    }

    /// Plays battle `i` on this worker's table (spawned afresh on it).
    fn play(&self, app: &mut Option<App>, i: u32, roster: &Roster, keep: Keep) -> Result<Finished, String> {
        let seed = self.base.wrapping_add(u64::from(i));
        let app = match app {
            Some(app) => {
                self.scenario.start(app.world_mut(), seed, self.limit, true);
                app
            }
            None => app.insert(self.scenario.table_app(seed, self.limit, true)),
        };
        self.levels.apply(app.world_mut(), i, self.battles);
        if keep.coverage {
            let rules = self.scenario.ruleset().clone();
            app.insert_resource(IntentCoverage::new(Box::new(move |world, e| {
                let offered = rules.choices(world, e).into_iter().filter(|c| c.verdict.is_ok());
                offered.map(|c| fray_core::coverage::kind(&c.intent.to_json())).collect()
            })));
        }
        let summary =
            play_to_end(app, 10).ok_or_else(|| format!("battle {}: did not end (seed {seed})", i + 1))?;
        let world = app.world();
        let log = if keep.logs {
            let mut out = Vec::new();
            let battle = (self.battles > 1).then_some(i + 1);
            world.resource::<GameLog>().write_jsonl(&mut out, battle).map_err(|e| format!("the log: {e}"))?;
            Some(String::from_utf8_lossy(&out).into_owned())
        } else {
            None
        };
        let save = if keep.last_save && i + 1 == self.battles {
            Some(fray_core::fight::save_string(world)?)
        } else {
            None
        };
        Ok(Finished { record: BattleRecord::read(i, seed, summary, roster, world), log, save })
    }
}

/// Every core this process may use.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}
