//! Fray's integration tests: one binary, one module per subject.

mod support;

mod ambiguity;
mod board;
mod cli;
mod determinism;
mod fatewalker_cli;
mod fatewalker_session;
mod fiend_wake_actions;
mod fiend_wake_examples;
mod intents;
mod locations;
mod phases;
mod random_play;
mod save_files;
mod sessions;
mod table_screen;
mod table_settings;
mod two_rulesets;
