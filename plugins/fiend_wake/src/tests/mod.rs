//! The crate's tests, run with `cargo test -p fiend_wake`: one module per subject, on top
//! of a small scenario-style test table (`support`).

mod support;

mod actions;
mod determinism;
mod examples;
mod intents;
mod locations;
mod phases;
mod random_play;
mod sessions;
