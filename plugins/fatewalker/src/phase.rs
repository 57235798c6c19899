//! FateWalker's phases, the tick clock, and the state of the tick in progress.

use std::collections::{BTreeSet, VecDeque};

use bevy_ecs::prelude::*;
use fray_core::phase::Phase;

use crate::intent::{Action, Reaction};

/// The steps of a fight: the opening, then the steps of every tick, and the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FateWalkerPhase {
    /// Scripted events of tick 0 and the ambusher's free action, before initiative.
    Ambush,
    /// Everyone aware of the fight rolls initiative.
    Initiative,
    /// The clock moves to the next tick where something happens; that tick's events
    /// (late joiners, bleeding and damage over time, movement segments) take place.
    TickEvents,
    /// Characters whose tick has come, or who hold, declare, highest Awareness first
    /// (equal Awareness: together and in secret).
    Declare,
    /// Holders may act preemptively and targets declare reactions to the declared actions.
    Preempt,
    /// Preemptive actions resolve, then the declared actions with their reactions.
    Resolve,
    /// Free actions: movers at the end of a segment continue, change mode or stop.
    FreeActions,
    /// The fight is over.
    FightOver,
}

impl Phase for FateWalkerPhase {
    const ALL: &'static [Self] = &[
        FateWalkerPhase::Ambush,
        FateWalkerPhase::Initiative,
        FateWalkerPhase::TickEvents,
        FateWalkerPhase::Declare,
        FateWalkerPhase::Preempt,
        FateWalkerPhase::Resolve,
        FateWalkerPhase::FreeActions,
        FateWalkerPhase::FightOver,
    ];
    const OVER: Self = FateWalkerPhase::FightOver;

    fn name(self) -> &'static str {
        match self {
            FateWalkerPhase::Ambush => "ambush",
            FateWalkerPhase::Initiative => "initiative",
            FateWalkerPhase::TickEvents => "tick_events",
            FateWalkerPhase::Declare => "declare",
            FateWalkerPhase::Preempt => "preempt",
            FateWalkerPhase::Resolve => "resolve",
            FateWalkerPhase::FreeActions => "free_actions",
            FateWalkerPhase::FightOver => "fight_over",
        }
    }

    fn title(self) -> &'static str {
        match self {
            FateWalkerPhase::Ambush => "Ambush",
            FateWalkerPhase::Initiative => "Initiative",
            FateWalkerPhase::TickEvents => "Tick events",
            FateWalkerPhase::Declare => "Declarations",
            FateWalkerPhase::Preempt => "Preemptions and reactions",
            FateWalkerPhase::Resolve => "Resolution",
            FateWalkerPhase::FreeActions => "Free actions",
            FateWalkerPhase::FightOver => "Fight over",
        }
    }

    /// The opening (ambush, initiative) is one track, the steps of a tick another.
    fn track(self) -> Vec<Self> {
        match self {
            FateWalkerPhase::Ambush | FateWalkerPhase::Initiative => {
                vec![FateWalkerPhase::Ambush, FateWalkerPhase::Initiative]
            }
            _ => FateWalkerPhase::TICK.to_vec(),
        }
    }
}

impl FateWalkerPhase {
    /// The steps of one tick, in order.
    pub const TICK: [FateWalkerPhase; 5] = [
        FateWalkerPhase::TickEvents,
        FateWalkerPhase::Declare,
        FateWalkerPhase::Preempt,
        FateWalkerPhase::Resolve,
        FateWalkerPhase::FreeActions,
    ];
}

/// The tick counter.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// The current tick (0 before the first).
    pub tick: u32,
    /// The tick before the current one.
    pub previous: u32,
    /// The fight ends after this tick.
    pub max_ticks: u32,
}

/// What a declarer chose.
#[derive(Clone, Debug, PartialEq)]
pub enum Choice {
    /// An action.
    Act(Action),
    /// Begin holding.
    Hold,
    /// Go on holding.
    KeepHolding,
}

/// One declaration of the current group.
#[derive(Clone, Debug, PartialEq)]
pub struct Declaration {
    /// Who.
    pub actor: Entity,
    /// What.
    pub choice: Choice,
}

/// What a responder is asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AskKind {
    /// A holder: act before the declared action?
    Preempt,
    /// An aware enemy (the target first): react to the declared action?
    React,
}

/// One question of the preempt step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ask {
    /// Who is asked.
    pub responder: Entity,
    /// Which declaration of the group it answers.
    pub declaration: usize,
    /// Preempt or react.
    pub kind: AskKind,
}

/// The state of the tick in progress.
#[derive(Resource, Clone, Debug, Default)]
pub struct TickState {
    /// Characters who have declared this tick.
    pub declared: BTreeSet<Entity>,
    /// The group declaring now (equal Awareness), in scenario order.
    pub group: Vec<Entity>,
    /// The group's declarations so far.
    pub declarations: Vec<Declaration>,
    /// Questions of the preempt step still to ask.
    pub asks: VecDeque<Ask>,
    /// Preemptive actions declared: (holder, action, declaration answered).
    pub preempts: Vec<(Entity, Action, usize)>,
    /// Defensive reactions declared: (responder, reaction, declaration answered).
    pub reactions: Vec<(Entity, Reaction, usize)>,
    /// Actions declared as reactions: (responder, action, declaration answered).
    pub counters: Vec<(Entity, Action, usize)>,
    /// Responders who answered one of the group's actions (and may answer no other).
    pub responded: BTreeSet<Entity>,
    /// Movers asked about their movement this tick who have not answered.
    pub movers: Vec<Entity>,
    /// Whether the free-actions step has listed this tick's movers.
    pub movers_listed: bool,
    /// Whether the ambusher's free action has been taken.
    pub ambush_done: bool,
    /// Whether the scripted events of tick 0 have happened.
    pub opening_events_done: bool,
}

/// Moves the table to `phase` from an exclusive system.
pub(crate) fn go_to(world: &mut World, phase: FateWalkerPhase) {
    fray_core::phase::go_to(world, phase);
}

/// The phase now.
pub fn current(world: &World) -> FateWalkerPhase {
    fray_core::phase::current(world)
}
