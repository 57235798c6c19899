//! What every ruleset's AI shares: the level each AI combatant plays at ([`AiLevel`]), the
//! few words it gives for a decision ([`say_why`]: the log keeps them with the intent, and a
//! replay gives them back), the generator a tactical AI may draw on ([`decision_rng`]), never
//! the table's, and the decisions' timing for the benchmark ([`timed`]).

use bevy_ecs::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// How an AI combatant decides.
#[derive(
    Component, Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum AiLevel {
    /// The first AI: a plain, predictable policy (walks forward and swings).
    Simple,
    /// Weighs every kind of decision the rules offer, by the situation.
    #[default]
    Tactical,
}

impl AiLevel {
    /// Every level, the default last.
    pub const ALL: [AiLevel; 2] = [AiLevel::Simple, AiLevel::Tactical];

    /// Its name in files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            AiLevel::Simple => "simple",
            AiLevel::Tactical => "tactical",
        }
    }
}

impl core::str::FromStr for AiLevel {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        AiLevel::ALL
            .into_iter()
            .find(|l| l.name() == s)
            .ok_or_else(|| format!("unknown AI level '{s}' (known: simple, tactical)"))
    }
}

impl core::fmt::Display for AiLevel {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// The level `e` plays at (tactical when it has none).
pub fn level(world: &World, e: Entity) -> AiLevel {
    world.get::<AiLevel>(e).copied().unwrap_or_default()
}

/// While present, how long each AI decision took, in nanoseconds, in order (the AI benchmark
/// reads it: `examples/bench_battles`).
#[derive(Resource, Debug, Default)]
pub struct DecisionTimes(pub Vec<u64>);

/// Runs an AI's decision, timed when the table keeps [`DecisionTimes`].
pub fn timed<T>(world: &mut World, decide: impl FnOnce(&mut World) -> T) -> T {
    if !world.contains_resource::<DecisionTimes>() {
        return decide(world);
    }
    let start = std::time::Instant::now();
    let decided = decide(world);
    let took = u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX);
    world.resource_mut::<DecisionTimes>().0.push(took);
    decided
}

/// The decision for `e` at its level: `simple`'s (no reason given) or `tactical`'s, with its
/// reason.
pub fn at_level<I>(
    world: &World,
    e: Entity,
    simple: impl FnOnce(&World, Entity) -> I,
    tactical: impl FnOnce(&World, Entity) -> (I, String),
) -> (I, Option<String>) {
    match level(world, e) {
        AiLevel::Simple => (simple(world, e), None),
        AiLevel::Tactical => {
            let (intent, why) = tactical(world, e);
            (intent, Some(why))
        }
    }
}

/// Takes an AI's decision ([`timed`]) and gives its reason ([`say_why`]) for the intent the
/// caller submits next.
pub fn decided<I>(world: &mut World, decide: impl FnOnce(&mut World) -> (I, Option<String>)) -> I {
    let (intent, why) = timed(world, decide);
    if let Some(why) = why {
        say_why(world, why);
    }
    intent
}

/// The reason given for the intent about to be submitted; the core takes it as it records
/// the intent.
#[derive(Resource, Debug, Default)]
pub struct Why(pub Option<String>);

/// Gives the reason for the intent the AI submits next ("charges Hulda: she is wounded").
pub fn say_why(world: &mut World, why: impl Into<String>) {
    world.insert_resource(Why(Some(why.into())));
}

/// Takes the reason given for the intent being submitted, if one was.
pub(crate) fn take_why(world: &mut World) -> Option<String> {
    world.get_resource_mut::<Why>().and_then(|mut w| w.0.take())
}

/// The AI's own generator for the decision about to be taken: the fight's seed on a stream
/// of its own per decision (the table's dice are stream 0), so the same seed gives the same
/// decisions, and the AI neither draws from nor foresees the table's dice.
pub fn decision_rng(world: &World) -> ChaCha8Rng {
    let seed = world.get_resource::<crate::dice::TableRng>().map_or([0; 32], |r| r.seed());
    let index = world.get_resource::<crate::session::IntentHistory>().map_or(0, |h| h.entries.len() as u64);
    let mut rng = ChaCha8Rng::from_seed(seed);
    rng.set_stream(index + 1);
    rng
}

#[cfg(test)]
mod tests {
    use rand::RngExt;

    use super::*;

    #[test]
    fn the_decision_generator_is_not_the_tables() {
        let mut world = World::new();
        world.insert_resource(crate::dice::TableRng::seeded(7));
        let mut table = crate::dice::TableRng::seeded(7);
        let mut ai = decision_rng(&world);
        let ours: Vec<u32> = (0..8).map(|_| ai.random_range(1..=6)).collect();
        let dice: Vec<u32> = (0..8).map(|_| table.die(6)).collect();
        assert_ne!(ours, dice, "the AI's stream is not the table's dice");
        let again: Vec<u32> = (0..8).map(|_| decision_rng(&world).random_range(1..=1000)).collect();
        assert!(again.windows(2).all(|w| w[0] == w[1]), "the same decision, the same draws");
        assert_eq!(world.resource::<crate::dice::TableRng>().word_pos(), 0, "the table's dice untouched");
    }

    #[test]
    fn a_level_reads_from_its_name() {
        assert_eq!("simple".parse::<AiLevel>(), Ok(AiLevel::Simple));
        assert_eq!("tactical".parse::<AiLevel>(), Ok(AiLevel::Tactical));
        assert!("clever".parse::<AiLevel>().expect_err("no such level").contains("simple, tactical"));
    }
}
