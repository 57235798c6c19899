//! The crate's tests, run with `cargo test -p fatewalker`: one module per subject, on top
//! of a small scenario-style test table (`support`).

mod support;

mod attack_rules;
mod determinism;
mod dice_rules;
mod random_play;
mod scenario;
mod session;
mod timeline;
mod wound_rules;
