//! Intents: every decision a player (or the AI) takes is a typed intent queued in an
//! [`Inbox`]. The ruleset validates each one; an accepted one is applied and logged, a
//! rejected one changes nothing and comes back with a [`Rejection`] a player can read.

use std::collections::VecDeque;
use std::sync::Arc;

use bevy_ecs::prelude::*;
use serde::{Serialize, Serializer};

use crate::ids::CombatantId;

/// An intent and the combatant it speaks for.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Submitted<I> {
    /// Who decides.
    pub actor: CombatantId,
    /// What.
    pub intent: I,
}

/// Intents waiting for the rules, oldest first.
#[derive(Resource, Debug)]
pub struct Inbox<I>(pub VecDeque<Submitted<I>>);

impl<I> Default for Inbox<I> {
    fn default() -> Self {
        Self(VecDeque::new())
    }
}

impl<I> Inbox<I> {
    /// Queues an intent.
    pub fn submit(&mut self, actor: CombatantId, intent: I) {
        self.0.push_back(Submitted { actor, intent });
    }
}

/// Why the rules refused an intent, in words for the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
#[error("{0}")]
pub struct Rejection(pub String);

impl Rejection {
    /// A rejection with this reason.
    pub fn new(reason: impl Into<String>) -> Self {
        Self(reason.into())
    }
}

/// Shorthand for a validation result.
pub type Verdict<T = ()> = Result<T, Rejection>;

/// What happened to one submitted intent.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// Who submitted it.
    pub actor: CombatantId,
    /// The intent, for display and logs.
    pub intent: IntentRecord,
    /// Accepted, or the reason it was not.
    pub result: Verdict,
}

/// Every outcome, oldest first; the board shows the last rejection, tests read them.
#[derive(Resource, Debug, Default)]
pub struct Outcomes(pub Vec<Outcome>);

impl Outcomes {
    /// The newest outcome.
    pub fn last(&self) -> Option<&Outcome> {
        self.0.last()
    }
}

/// Any serialisable intent, kept for the log without knowing its ruleset.
#[derive(Clone)]
pub struct IntentRecord(Arc<dyn ErasedIntent>);

impl IntentRecord {
    /// Wraps an intent.
    pub fn new<I: Serialize + core::fmt::Debug + Send + Sync + 'static>(intent: I) -> Self {
        Self(Arc::new(intent))
    }

    /// The intent as JSON.
    pub fn to_json(&self) -> serde_json::Value {
        self.0.to_json()
    }

    /// The intent, if it is an `I`.
    pub fn downcast<I: 'static>(&self) -> Option<&I> {
        self.0.as_any().downcast_ref::<I>()
    }
}

impl PartialEq for IntentRecord {
    /// The same record (a clone of it), not an equal intent of another record.
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl core::fmt::Debug for IntentRecord {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.0.debug(f)
    }
}

impl Serialize for IntentRecord {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_json().serialize(s)
    }
}

trait ErasedIntent: Send + Sync {
    fn to_json(&self) -> serde_json::Value;
    fn debug(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result;
    fn as_any(&self) -> &dyn core::any::Any;
}

impl<T: Serialize + core::fmt::Debug + Send + Sync + 'static> ErasedIntent for T {
    fn as_any(&self) -> &dyn core::any::Any {
        self
    }
    fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or(serde_json::Value::Null)
    }
    fn debug(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        core::fmt::Debug::fmt(self, f)
    }
}

/// `validate` while `goes_on` (the ruleset's "two sides or more are in the fight") holds; once
/// the fight is decided, before the ruleset's end check has closed it, every intent is
/// refused: no one acts after the last foe falls, and a replay of the record, which runs the
/// rules between two intents, refuses it the same way.
pub fn while_fighting<I, P>(
    goes_on: fn(&World) -> bool,
    validate: fn(&World, Entity, &I) -> Verdict<P>,
) -> impl FnOnce(&World, Entity, &I) -> Verdict<P> {
    move |world, e, intent| {
        if goes_on(world) { validate(world, e, intent) } else { Err(Rejection::new("the fight is over")) }
    }
}

/// Validates and applies one intent now, the same way for every ruleset: the acceptance (or
/// the refusal and its reason) is logged before the intent's effects, the outcome is kept in
/// [`Outcomes`], the intent is recorded for saves and undo with the RNG position it was
/// submitted at, and the rules step is marked as having made progress. `shown` is what the
/// log and outcomes show of the intent (a secret bid is sealed), `validate` checks it against
/// the table and `apply` carries out what it planned. Returns the verdict.
pub fn submit_now<I, P>(
    world: &mut World,
    submitted: Submitted<I>,
    shown: impl FnOnce(&World, Option<Entity>, &I) -> IntentRecord,
    validate: impl FnOnce(&World, Entity, &I) -> Verdict<P>,
    apply: impl FnOnce(&mut World, Entity, P),
) -> Verdict
where
    I: Serialize + core::fmt::Debug + Send + Sync + 'static,
{
    let Submitted { actor, intent } = submitted;
    let why = crate::ai::take_why(world);
    let rng = crate::session::rng_for_submit(world);
    let e = world.resource::<crate::table::TableIndex>().combatant(&actor);
    let record = shown(world, e, &intent);
    // A sealed choice's reason would tell the choice: the log keeps none.
    let why = why.filter(|_| record.to_json() == serde_json::to_value(&intent).unwrap_or_default());
    // The balance lab's count of what the AI was offered, taken before anything changes.
    let offered = e.and_then(|e| crate::coverage::offered(world, e));
    let checked = match e {
        None => Err(Rejection::new(format!("there is no combatant '{actor}'"))),
        Some(e) => validate(world, e, &intent).map(|plan| (e, plan)),
    };
    let event = match &checked {
        Ok(_) => crate::log::LogEvent::IntentAccepted { intent: record.clone(), why: why.clone() },
        Err(r) => crate::log::LogEvent::IntentRejected { intent: record.clone(), reason: r.0.clone() },
    };
    world.resource_mut::<crate::log::GameLog>().about(&actor, event);
    let result = checked.map(|(e, plan)| apply(world, e, plan));
    world.resource_mut::<Outcomes>().0.push(Outcome {
        actor: actor.clone(),
        intent: record,
        result: result.clone(),
    });
    let intent = IntentRecord::new(intent);
    if let Some(offered) = offered {
        let taken = result.is_ok().then(|| crate::coverage::kind(&intent.to_json()));
        crate::coverage::count(world, offered, taken);
    }
    let why = why.filter(|_| result.is_ok());
    crate::session::record(
        world,
        crate::session::Recorded { actor, intent, accepted: result.is_ok(), rng, why },
    );
    world.resource_mut::<crate::phase::StepProgress>().mark();
    result
}
