//! The Fray client: the command line today, the board window next.
#![forbid(missing_docs)]

pub mod battle;
pub mod cli;
pub mod rulesets;

/// The scenario `fray` opens when given none.
pub const DEFAULT_SCENARIO: &str = "assets/scenarios/swamp.ron";
