//! FateWalker: no rounds. Time runs in ticks of half a second; each action pushes its
//! actor's next action tick forward by its cost. Success-counting dice, damage dice that
//! promote and demote, armour and barriers, and a wound chart with stun, bleeding and death.
//! Interpretations of the rule text are in `RULES.md` beside this crate.
//!
//! Where to find a rule: the phase chain is in [`schedule`]; the opening in [`initiative`];
//! each step of a tick has its module ([`clock`] for tick events, [`declare`], [`preempt`],
//! [`resolve`], [`movement`] for segments and free actions); actions in [`actions`]; attacks
//! in [`combat`]; dice in [`dice`] and [`rolls`]; wounds in [`wounds`] and [`damage`]; the
//! AI in [`ai`]; scenario data in [`data`] (defaults in `data/defaults.ron`) and [`load`].
#![forbid(missing_docs)]

pub mod actions;
pub mod ai;
pub mod clock;
pub mod combat;
pub mod damage;
pub mod data;
pub mod decisions;
pub mod declare;
pub mod dice;
pub mod initiative;
pub mod intent;
pub mod legal;
pub mod load;
pub mod movement;
pub mod phase;
pub mod preempt;
pub mod resolve;
pub mod rolls;
pub mod schedule;
pub mod sheet;
pub mod view;
pub mod wounds;

#[cfg(test)]
mod tests;

use bevy_app::{App, Plugin};
use fray_core::FrayCorePlugin;
use fray_core::intent::Inbox;
use fray_core::session::{IntentHistory, NoteControllers, RedoStack, note_controllers};

pub use intent::{Action, FwkIntent, Reaction};
pub use load::{
    FwkScenario, RULESET_ID, parse_scenario, reset_table, reset_world, spawn_scenario, table_app,
};
pub use phase::{Clock, FightResult, FwkPhase, fight_over};
pub use schedule::FateWalkerSystems;

/// The FateWalker ruleset. Adds the core if it is not there yet.
pub struct FateWalkerPlugin;

impl Plugin for FateWalkerPlugin {
    fn build(&self, app: &mut App) {
        if !app.is_plugin_added::<FrayCorePlugin>() {
            app.add_plugins(FrayCorePlugin);
        }
        app.init_resource::<Inbox<FwkIntent>>()
            .init_resource::<IntentHistory<FwkIntent>>()
            .init_resource::<RedoStack<FwkIntent>>()
            .insert_resource(NoteControllers(note_controllers::<FwkIntent>))
            .init_resource::<Clock>()
            .init_resource::<phase::TickState>()
            .init_resource::<sheet::Catalogue>()
            .init_resource::<load::SurprisePenalties>()
            .init_resource::<initiative::Ambusher>()
            .init_resource::<clock::Script>()
            .insert_resource(fray_core::phase::CurrentPhase::new(FwkPhase::FightOver));
        schedule::plugin(app);
        initiative::plugin(app);
        clock::plugin(app);
        declare::plugin(app);
        preempt::plugin(app);
        resolve::plugin(app);
        movement::plugin(app);
        decisions::plugin(app);
    }
}
