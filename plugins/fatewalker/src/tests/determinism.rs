//! The standard tests of a ruleset (`fray_core::testing`): the ambush's golden log for seed 7
//! byte for byte, the same seed giving the same log, a reused table, a recorded fight
//! replayed, the rules schedule's order. `FRAY_BLESS=1` rewrites the golden file after an
//! intended rule change.

use super::support::AMBUSH;
use crate::ruleset::FateWalker;

fray_core::ruleset_tests!(FateWalker, AMBUSH, seed 7, limit 600, golden "tests/golden/ambush_seed7.jsonl");
