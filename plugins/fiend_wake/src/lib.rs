//! Fiend Wake: tactical points and turn tokens, secret bids for priority, pending turns,
//! aftermath and harassment, on strategic locations. Interpretations of the rule text are
//! in `RULES.md` beside this crate.
//!
//! Where to find a rule: the phase chain is in [`schedule`]; each phase has its module
//! ([`round_prep`], [`bidding`], [`turns`], [`aftermath`], [`harassment`],
//! [`end_of_round`]); turn actions are in [`actions`]; damage in [`damage`]; dice in
//! [`rolls`]; the AI in [`ai`]; scenario data in [`data`] and [`load`].
#![forbid(missing_docs)]

pub mod actions;
pub mod aftermath;
pub mod ai;
pub mod bidding;
pub mod damage;
pub mod data;
pub mod decisions;
pub mod end_of_round;
pub mod harassment;
pub mod intent;
pub mod legal;
pub mod load;
pub mod phase;
pub mod reactions;
pub mod resolve;
pub mod rolls;
pub mod round_prep;
pub mod schedule;
pub mod sheet;
pub mod spells;
pub mod turns;
pub mod view;

use bevy_app::{App, Plugin};
use fray_core::FrayCorePlugin;
use fray_core::intent::Inbox;
use fray_core::session::{IntentHistory, NoteControllers, RedoStack, note_controllers};

pub use intent::FwIntent;
pub use load::{FwScenario, RULESET_ID, parse_scenario, reset_table, spawn_scenario, table_app};
pub use phase::{ActiveTurn, FightResult, FwPhase, Round};
pub use schedule::FiendWakeSystems;

/// The Fiend Wake ruleset. Adds the core if it is not there yet.
pub struct FiendWakePlugin;

impl Plugin for FiendWakePlugin {
    fn build(&self, app: &mut App) {
        if !app.is_plugin_added::<FrayCorePlugin>() {
            app.add_plugins(FrayCorePlugin);
        }
        app.init_resource::<Inbox<FwIntent>>()
            .init_resource::<IntentHistory<FwIntent>>()
            .init_resource::<RedoStack<FwIntent>>()
            .insert_resource(NoteControllers(note_controllers::<FwIntent>))
            .init_resource::<Round>()
            .init_resource::<ActiveTurn>()
            .init_resource::<reactions::Reactions>()
            .init_resource::<sheet::Catalogue>()
            .insert_resource(fray_core::phase::CurrentPhase::new(FwPhase::CombatOver));
        schedule::plugin(app);
        round_prep::plugin(app);
        bidding::plugin(app);
        turns::plugin(app);
        aftermath::plugin(app);
        spells::plugin(app);
        harassment::plugin(app);
        end_of_round::plugin(app);
        decisions::plugin(app);
    }
}
