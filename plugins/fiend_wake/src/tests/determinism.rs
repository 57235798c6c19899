//! The standard tests of a ruleset (`fray_core::testing`): the swamp's golden log for seed 7
//! byte for byte, the same seed giving the same log, a reused table, a recorded fight
//! replayed, the rules schedule's order. `FRAY_BLESS=1` rewrites the golden file after an
//! intended rule change.

use super::support::SWAMP;
use crate::ruleset::FiendWake;

fray_core::ruleset_tests!(FiendWake, SWAMP, seed 7, limit 100, golden "tests/golden/swamp_seed7.jsonl");
