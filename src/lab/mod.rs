//! The balance lab: many all-AI battles of one scenario, summed up for a GM preparing an
//! encounter ("is this fight too hard?"), for every ruleset through the ruleset contract.
//! `fray sim` prints, writes and charts it; the window's Balance panel shows it.

pub mod battery;
pub mod html;
pub mod report;
pub mod sweep;

pub use battery::{Battery, BattleRecord, Roster, Setup};
pub use report::Report;
pub use sweep::{Sweep, SweepPoint, Vary};
