//! Factions in zones' board adapter: a token dropped on a zone's card moves there, sprinting
//! when only a sprint reaches it (the rules refuse it, with the reason, beyond the turn's
//! movement); the decision panel says what is being answered.

use bevy::prelude::*;
use bevy_egui::egui;
use faction_zones::phase::Battle;
use faction_zones::{FactionZones, FactionZonesIntent};
use fray_core::location::place_id;
use fray_core::ruleset::Ruleset;
use fray_core::table::name;

use crate::client::adapter::{BoardAdapter, BoardAsk, DropAnswer, DropPoint};

/// Factions in zones' board adapter.
pub struct Board;

impl BoardAdapter for Board {
    type Rules = FactionZones;

    fn dropped(world: &World, e: Entity, drop: &DropPoint) -> DropAnswer<FactionZonesIntent> {
        match drop.card {
            Some(zone) if FactionZones::awaiting(world).contains(&e) => {
                // Walking if it reaches, else sprinting if that reaches, else the walk's refusal.
                let walk = FactionZonesIntent::Move { zone: place_id(world, zone), sprint: false };
                let sprint = FactionZonesIntent::Move { zone: place_id(world, zone), sprint: true };
                if FactionZones::validate(world, e, &walk).is_err()
                    && FactionZones::validate(world, e, &sprint).is_ok()
                {
                    DropAnswer::Send(sprint)
                } else {
                    DropAnswer::Send(walk)
                }
            }
            _ => DropAnswer::Nothing,
        }
    }

    fn decision(ui: &mut egui::Ui, world: &World, e: Entity, _asks: &mut Vec<BoardAsk>) {
        let battle = world.resource::<Battle>();
        let words = if let Some(p) = battle.pending.as_ref().filter(|p| p.target == e) {
            format!("{} attacks: react (spending this round's turn), or take it.", name(world, p.attacker))
        } else if battle.active == Some(e) {
            "Your turn: drag to a zone to move, or act.".to_owned()
        } else if battle.to_act.is_none() {
            "Your faction holds the initiative: pick who acts first this round.".to_owned()
        } else {
            "Your faction's activation: take this character's turn, or pass.".to_owned()
        };
        ui.label(words);
    }
}
