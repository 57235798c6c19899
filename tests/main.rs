//! The client's integration tests: one binary, one module per subject. Each ruleset's rule
//! tests live in its own crate (`cargo test -p fiend_wake`).

mod support;

mod all_rulesets;
mod board;
mod cli;
mod editor;
mod fatewalker_cli;
#[cfg(feature = "serve")]
mod host;
mod odd_files;
mod save_files;
mod seats;
mod table_screen;
mod table_settings;
