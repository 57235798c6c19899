//! The Fray client: the board window and the command line.
#![forbid(missing_docs)]

pub mod assets;
pub mod battle;
pub mod cli;
pub mod client;
#[cfg(feature = "serve")]
pub mod host;
pub mod lab;
pub mod rulesets;
pub mod session;
pub mod settings;
