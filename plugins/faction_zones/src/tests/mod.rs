//! Factions in zones played headless.

mod play;
