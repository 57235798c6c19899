//! The balance lab: many all-AI battles of one scenario, summed up for a GM preparing an
//! encounter ("is this fight too hard?"), for every ruleset through the ruleset contract.
//! `fray sim` prints, writes and charts it; the window's Balance panel shows it.

pub mod battery;
pub mod html;
pub mod report;
pub mod sweep;

use serde::Serialize;

pub use battery::{Battery, BattleRecord, Roster, Setup};
pub use report::Report;
pub use sweep::Vary;

/// A sweep's results: one report per value of the varied field.
#[derive(Clone, Debug, Serialize)]
pub struct Sweep {
    /// The JSON form's version ([`report::SCHEMA`]).
    pub schema: u32,
    /// The varied field, e.g. `ogre.vitality`.
    pub vary: String,
    /// Each value's report, in order.
    pub points: Vec<SweepPoint>,
}

/// One value of a sweep.
#[derive(Clone, Debug, Serialize)]
pub struct SweepPoint {
    /// The field's value.
    pub value: f64,
    /// The battery's report at it.
    pub report: Report,
}

impl Sweep {
    /// The sweep for a terminal: each value's win rates and median length.
    pub fn text(&self) -> String {
        use std::fmt::Write as _;
        let Some(first) = self.points.first() else { return String::new() };
        let mut s = format!(
            "{} ({}): {} battles per value from seed {}, varying {}\n\n{:>8}",
            first.report.setup.scenario,
            first.report.setup.ruleset,
            first.report.setup.battles,
            first.report.setup.seed,
            self.vary,
            "value"
        );
        for side in &first.report.sides {
            let _ = write!(s, "  {:>24}", format!("{} wins", side.name));
        }
        let _ = writeln!(s, "  {:>9}  median {}", "no winner", first.report.setup.clock);
        for p in &self.points {
            let _ = write!(s, "{:>8}", p.value);
            for side in &p.report.sides {
                let cell = format!(
                    "{} [{}, {}]",
                    report::percent(side.win_rate),
                    report::percent(side.interval[0]),
                    report::percent(side.interval[1])
                );
                let _ = write!(s, "  {cell:>24}");
            }
            let _ = writeln!(s, "  {:>9}  {}", p.report.no_winner, p.report.length.median);
        }
        if let Some(last) = self.points.last()
            && last.report.finished < last.report.setup.battles
        {
            let _ = writeln!(
                s,
                "interrupted: the last value has {} of {} battles",
                last.report.finished, last.report.setup.battles
            );
        }
        s
    }
}
