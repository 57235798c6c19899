//! The battery's report: win rates with their intervals, the fight's length, each
//! combatant's part. Its JSON form is documented in `docs/balance.md` ([`SCHEMA`]).

use std::fmt::Write as _;

use serde::Serialize;

use fray_core::ai::AiLevel;

use super::battery::{BattleRecord, Roster, Setup};

/// The version of the report's JSON form.
pub const SCHEMA: u32 = 1;

/// The report of one battery.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// The JSON form's version ([`SCHEMA`]).
    pub schema: u32,
    /// What was played.
    #[serde(flatten)]
    pub setup: Setup,
    /// Battles played to their end (fewer than asked when interrupted).
    pub finished: u32,
    /// Each side, in scenario order.
    pub sides: Vec<SideReport>,
    /// Battles no side won.
    pub no_winner: u32,
    /// Battles that reached the limit with more than one side standing.
    pub hit_limit: u32,
    /// How long the battles lasted.
    pub length: Length,
    /// Each combatant, in scenario order.
    pub combatants: Vec<CombatantReport>,
    /// What the AI was offered and took, by intent kind (when counted: `--json`, `--report`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub intents: Option<IntentsReport>,
    /// One AI level against the other, when played so (`--versus`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub versus: Option<VersusReport>,
}

/// A tournament: one AI level against another, the sides swapped halfway.
#[derive(Clone, Debug, Serialize)]
pub struct VersusReport {
    /// Battles played.
    pub battles: u32,
    /// Each level's wins, the first named first.
    pub levels: Vec<LevelWins>,
    /// Battles no side won.
    pub no_winner: u32,
}

/// One level's wins in a tournament.
#[derive(Clone, Debug, Serialize)]
pub struct LevelWins {
    /// `simple` or `tactical`.
    pub level: String,
    /// Battles its side won.
    pub wins: u32,
    /// Wins out of battles played.
    pub win_rate: f64,
    /// The win rate's 95% Wilson score interval.
    pub interval: [f64; 2],
}

impl VersusReport {
    /// The wins of `levels` in `records`, each battle's winner read with the level its side
    /// played at.
    fn new(levels: [AiLevel; 2], roster: &Roster, records: &[&BattleRecord]) -> VersusReport {
        let n = records.len() as u32;
        let level_won = |r: &BattleRecord| {
            let side =
                roster.sides.iter().position(|(id, _)| Some(id.as_str()) == r.summary.winner.as_deref())?;
            r.levels.get(side).cloned()
        };
        let levels = levels
            .iter()
            .map(|level| {
                let wins =
                    records.iter().filter(|r| level_won(r).as_deref() == Some(level.name())).count() as u32;
                LevelWins {
                    level: level.name().to_owned(),
                    wins,
                    win_rate: rate(wins, n),
                    interval: wilson(wins, n),
                }
            })
            .collect();
        let no_winner = records.iter().filter(|r| r.summary.winner.is_none()).count() as u32;
        VersusReport { battles: n, levels, no_winner }
    }

    /// The lines for a terminal.
    fn text(&self) -> String {
        let mut s =
            format!("\nOne AI level against the other, sides swapped halfway ({} battles):\n", self.battles);
        for l in &self.levels {
            let _ = writeln!(
                s,
                "  {:<9} wins {:>6}  [{:>6}, {:>6}]",
                l.level,
                percent(l.win_rate),
                percent(l.interval[0]),
                percent(l.interval[1])
            );
        }
        let _ = writeln!(s, "  no winner      {:>6}", percent(rate(self.no_winner, self.battles)));
        s
    }
}

/// What the AI did with what the rules offered it, by intent kind.
#[derive(Clone, Debug, Serialize)]
pub struct IntentsReport {
    /// Battles counted.
    pub battles: u32,
    /// The AI's decisions, per 100 battles.
    pub decisions_per_100: f64,
    /// Each kind the rules offered the AI at least once, by name.
    pub kinds: Vec<IntentKind>,
    /// The kinds offered but never taken.
    pub never_taken: Vec<String>,
}

/// One intent kind's figures.
#[derive(Clone, Debug, Serialize)]
pub struct IntentKind {
    /// The intent's variant ("Attack", "Main/Disarm").
    pub kind: String,
    /// At how many of the AI's decisions the rules offered it, per 100 battles.
    pub offered_per_100: f64,
    /// How many times the AI took it, per 100 battles.
    pub taken_per_100: f64,
    /// Battles in which it was taken at least once.
    pub battles_taken: u32,
}

impl IntentsReport {
    /// The counts of `records` (those that have them), or none if none has.
    fn new(records: &[&BattleRecord]) -> Option<IntentsReport> {
        let counted: Vec<_> = records.iter().filter_map(|r| r.intents.as_ref()).collect();
        let battles = u32::try_from(counted.len()).unwrap_or(u32::MAX);
        if battles == 0 {
            return None;
        }
        let per_100 = |total: u64| round(total as f64 * 100.0 / f64::from(battles));
        let mut kinds: std::collections::BTreeMap<&str, (u64, u64, u32)> = Default::default();
        for c in &counted {
            for (kind, n) in &c.offered {
                kinds.entry(kind).or_default().0 += n;
            }
            for (kind, n) in &c.taken {
                let k = kinds.entry(kind).or_default();
                k.1 += n;
                k.2 += 1;
            }
        }
        let never_taken =
            kinds.iter().filter(|(_, k)| k.1 == 0).map(|(name, _)| (*name).to_owned()).collect();
        Some(IntentsReport {
            battles,
            decisions_per_100: per_100(counted.iter().map(|c| c.decisions).sum()),
            kinds: kinds
                .into_iter()
                .map(|(kind, (offered, taken, battles_taken))| IntentKind {
                    kind: kind.to_owned(),
                    offered_per_100: per_100(offered),
                    taken_per_100: per_100(taken),
                    battles_taken,
                })
                .collect(),
            never_taken,
        })
    }

    /// The table for a terminal.
    fn text(&self) -> String {
        let mut s = String::new();
        let width = self.kinds.iter().map(|k| k.kind.chars().count()).max().unwrap_or(0).max(11);
        let _ = writeln!(
            s,
            "\nThe AI's decisions by intent kind, per 100 battles ({:.1} decisions):",
            self.decisions_per_100
        );
        let _ = writeln!(s, "  {:<width$} {:>9} {:>9} {:>8}", "intent kind", "offered", "taken", "battles");
        for k in &self.kinds {
            let _ = writeln!(
                s,
                "  {:<width$} {:>9.1} {:>9.1} {:>8}",
                k.kind, k.offered_per_100, k.taken_per_100, k.battles_taken
            );
        }
        let never = if self.never_taken.is_empty() { "none".to_owned() } else { self.never_taken.join(", ") };
        let _ = writeln!(s, "Offered but never taken: {never}");
        s
    }
}

/// One side's results.
#[derive(Clone, Debug, Serialize)]
pub struct SideReport {
    /// Stable id.
    pub id: String,
    /// Shown name.
    pub name: String,
    /// Battles won.
    pub wins: u32,
    /// Wins out of battles finished.
    pub win_rate: f64,
    /// The win rate's 95% Wilson score interval.
    pub interval: [f64; 2],
    /// Battles at whose end none of its members was still fighting.
    pub wiped: u32,
    /// Wiped out of battles finished.
    pub wipe_rate: f64,
    /// The AI level it played at: `simple`, `tactical`, `mixed` (its combatants' differ) or
    /// `varies` (from battle to battle, as in a tournament).
    pub ai: String,
}

/// The fight's length in the ruleset's clock.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Length {
    /// Shortest.
    pub min: u32,
    /// 10th percentile (nearest rank).
    pub p10: u32,
    /// Median (nearest rank).
    pub median: u32,
    /// 90th percentile (nearest rank).
    pub p90: u32,
    /// Longest.
    pub max: u32,
    /// Mean.
    pub mean: f64,
    /// `[length, battles]` for every length that occurred, shortest first.
    pub histogram: Vec<[u32; 2]>,
}

/// One combatant's results.
#[derive(Clone, Debug, Serialize)]
pub struct CombatantReport {
    /// Stable id.
    pub id: String,
    /// Shown name.
    pub name: String,
    /// Its side's id.
    pub side: String,
    /// Battles it ended still fighting, out of battles finished.
    pub survival_rate: f64,
    /// Mean damage dealt per battle, in the ruleset's units.
    pub damage_dealt: f64,
    /// Mean damage taken per battle.
    pub damage_taken: f64,
    /// How often it was the first one out of the fight.
    pub fell_first_rate: f64,
    /// Mean accepted intents per battle.
    pub actions: f64,
}

/// The 95% Wilson score interval of `k` successes in `n` trials (`[0, 1]` when `n` is 0).
pub fn wilson(k: u32, n: u32) -> [f64; 2] {
    if n == 0 {
        return [0.0, 1.0];
    }
    let (k, n) = (f64::from(k), f64::from(n));
    let z = 1.959_963_984_540_054_f64;
    let p = k / n;
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    [round((centre - half).max(0.0)), round((centre + half).min(1.0))]
}

/// The nearest-rank percentile `q` (0..=1) of sorted values.
fn percentile(sorted: &[u32], q: f64) -> u32 {
    if sorted.is_empty() {
        return 0;
    }
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// Four decimals: the JSON stays readable and the same on every machine.
fn round(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

fn rate(k: u32, n: u32) -> f64 {
    if n == 0 { 0.0 } else { round(f64::from(k) / f64::from(n)) }
}

impl Report {
    /// Sums up the battles played (in any order: they are sorted by index first).
    pub fn new(setup: Setup, roster: &Roster, records: &[BattleRecord]) -> Report {
        let mut records: Vec<&BattleRecord> = records.iter().collect();
        records.sort_by_key(|r| r.index);
        let n = records.len() as u32;
        let side_of = |i: usize| roster.combatants[i].side.as_str();
        let sides = roster
            .sides
            .iter()
            .map(|(id, name)| {
                let wins = records.iter().filter(|r| r.summary.winner.as_deref() == Some(id.as_str())).count()
                    as u32;
                let wiped = records
                    .iter()
                    .filter(|r| {
                        let members =
                            r.fighters.iter().enumerate().filter(|(i, _)| side_of(*i) == id.as_str());
                        members.clone().count() > 0 && members.clone().all(|(_, f)| !f.survived)
                    })
                    .count() as u32;
                SideReport {
                    id: id.clone(),
                    name: name.clone(),
                    wins,
                    win_rate: rate(wins, n),
                    interval: wilson(wins, n),
                    wiped,
                    wipe_rate: rate(wiped, n),
                    ai: side_level(&records, side_index(roster, id)),
                }
            })
            .collect();
        let no_winner = records.iter().filter(|r| r.summary.winner.is_none()).count() as u32;
        let hit_limit = records
            .iter()
            .filter(|r| {
                let mut standing: Vec<&str> = r
                    .fighters
                    .iter()
                    .enumerate()
                    .filter(|(_, f)| f.survived)
                    .map(|(i, _)| side_of(i))
                    .collect();
                standing.sort_unstable();
                standing.dedup();
                r.summary.winner.is_none() && standing.len() > 1
            })
            .count() as u32;
        let combatants = roster
            .combatants
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let sum = |f: &dyn Fn(&BattleRecord) -> u64| records.iter().map(|r| f(r)).sum::<u64>();
                let mean = |total: u64| if n == 0 { 0.0 } else { round(total as f64 / f64::from(n)) };
                CombatantReport {
                    id: m.id.clone(),
                    name: m.name.clone(),
                    side: m.side.clone(),
                    survival_rate: rate(records.iter().filter(|r| r.fighters[i].survived).count() as u32, n),
                    damage_dealt: mean(sum(&|r| r.fighters[i].dealt)),
                    damage_taken: mean(sum(&|r| r.fighters[i].taken)),
                    fell_first_rate: rate(
                        records.iter().filter(|r| r.fighters[i].fell_first).count() as u32,
                        n,
                    ),
                    actions: mean(sum(&|r| u64::from(r.fighters[i].actions))),
                }
            })
            .collect();
        let versus = setup.versus.map(|levels| VersusReport::new(levels, roster, &records));
        Report {
            schema: SCHEMA,
            setup,
            finished: n,
            sides,
            no_winner,
            hit_limit,
            length: length(records.iter().map(|r| r.summary.clock).collect()),
            combatants,
            intents: IntentsReport::new(&records),
            versus,
        }
    }

    /// The report for a terminal.
    pub fn text(&self) -> String {
        let mut s = String::new();
        let setup = &self.setup;
        let _ = writeln!(
            s,
            "{} ({}): {} battles from seed {}, limit {} {}",
            setup.scenario, setup.ruleset, self.finished, setup.seed, setup.limit, setup.clock
        );
        if self.finished < setup.battles {
            let _ = writeln!(s, "interrupted: {} of {} battles finished", self.finished, setup.battles);
        }
        let width = self.sides.iter().map(|x| x.name.chars().count()).max().unwrap_or(0).max(9);
        let _ = writeln!(s, "\nWins (95% interval)            wiped out  AI");
        for side in &self.sides {
            let _ = writeln!(
                s,
                "  {:<width$} {:>6}  [{:>6}, {:>6}]  {:>6}  {}",
                side.name,
                percent(side.win_rate),
                percent(side.interval[0]),
                percent(side.interval[1]),
                percent(side.wipe_rate),
                side.ai,
            );
        }
        let _ = writeln!(
            s,
            "  {:<width$} {:>6}  ({} reached the limit)",
            "no winner",
            percent(rate(self.no_winner, self.finished)),
            self.hit_limit
        );
        let l = &self.length;
        let _ = writeln!(
            s,
            "\nLength in {}: min {}, 10% {}, median {}, 90% {}, max {} (mean {:.2})",
            setup.clock, l.min, l.p10, l.median, l.p90, l.max, l.mean
        );
        let names = self.combatants.iter().map(|c| c.name.chars().count()).max().unwrap_or(0).max(9);
        let _ = writeln!(
            s,
            "\n  {:<names$} {:<12} {:>8} {:>7} {:>7} {:>10} {:>8}",
            "combatant", "side", "survives", "dealt", "taken", "falls 1st", "actions"
        );
        for c in &self.combatants {
            let _ = writeln!(
                s,
                "  {:<names$} {:<12} {:>8} {:>7.2} {:>7.2} {:>10} {:>8.2}",
                c.name,
                c.side,
                percent(c.survival_rate),
                c.damage_dealt,
                c.damage_taken,
                percent(c.fell_first_rate),
                c.actions
            );
        }
        let _ = writeln!(s, "(damage in the ruleset's own units, means per battle)");
        if let Some(versus) = &self.versus {
            s.push_str(&versus.text());
        }
        if let Some(intents) = &self.intents {
            s.push_str(&intents.text());
        }
        s
    }
}

fn side_index(roster: &Roster, id: &str) -> usize {
    roster.sides.iter().position(|(s, _)| s == id).unwrap_or(usize::MAX)
}

/// The level side `n` played at over the battles: the one level, or `varies`.
fn side_level(records: &[&BattleRecord], n: usize) -> String {
    let mut levels = records.iter().filter_map(|r| r.levels.get(n));
    let first = levels.next().cloned().unwrap_or_default();
    if levels.all(|l| *l == first) { first } else { "varies".to_owned() }
}

fn length(mut clocks: Vec<u32>) -> Length {
    clocks.sort_unstable();
    let Some((&min, &max)) = clocks.first().zip(clocks.last()) else { return Length::default() };
    let mut histogram: Vec<[u32; 2]> = Vec::new();
    for &c in &clocks {
        match histogram.last_mut() {
            Some(last) if last[0] == c => last[1] += 1,
            _ => histogram.push([c, 1]),
        }
    }
    Length {
        min,
        p10: percentile(&clocks, 0.1),
        median: percentile(&clocks, 0.5),
        p90: percentile(&clocks, 0.9),
        max,
        mean: round(clocks.iter().map(|&c| f64::from(c)).sum::<f64>() / clocks.len() as f64),
        histogram,
    }
}

/// `0.4123` as `41.2%`.
pub fn percent(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_the_textbook_figures() {
        // 81 of 263: the interval of Wilson (1927) as Newcombe (1998) gives it, 0.2553-0.3662.
        assert_eq!(wilson(81, 263), [0.2553, 0.3662]);
        // None of ten: the lower bound is 0, the upper 0.2775.
        assert_eq!(wilson(0, 10), [0.0, 0.2775]);
        assert_eq!(wilson(10, 10), [0.7225, 1.0]);
    }

    #[test]
    fn percentiles_are_nearest_rank() {
        let v: Vec<u32> = (1..=10).collect();
        assert_eq!((percentile(&v, 0.1), percentile(&v, 0.5), percentile(&v, 0.9)), (1, 5, 9));
        assert_eq!(percentile(&[7], 0.9), 7);
        let l = length(vec![3, 1, 3, 2]);
        assert_eq!(l.histogram, vec![[1, 1], [2, 1], [3, 2]]);
        assert_eq!((l.min, l.median, l.max, l.mean), (1, 2, 3, 2.25));
    }
}
