//! Why the AI did what it did: the reasons it logged for a combatant's latest turn, on the
//! sheet (`panels`), kept once the combatant is handed to a person.

use bevy::prelude::*;
use bevy_egui::egui::{self, RichText};
use fray_core::ids::CombatantId;
use fray_core::log::{GameLog, LogEvent};
use fray_core::prelude::Combatant;

/// One italic line with the reasons for the combatant's latest turn; nothing when the AI
/// never decided for it.
pub(super) fn show(ui: &mut egui::Ui, world: &World, e: Entity) {
    match latest(world, e).as_slice() {
        [] => {}
        [why] => {
            ui.label(RichText::new(format!("The AI's last reason: {why}")).italics());
        }
        many => {
            ui.label(
                RichText::new(format!("The AI's last reasons, newest first: {}", many.join("; "))).italics(),
            );
        }
    }
}

/// The reasons the AI gave for the combatant's latest decisions in the same turn (the log's
/// clock), newest first, three different ones at most: a turn's last is most often its end,
/// after the blow.
fn latest(world: &World, e: Entity) -> Vec<String> {
    let Some(c) = world.get::<Combatant>(e) else { return Vec::new() };
    reasons_in(world.resource::<GameLog>(), &c.id)
}

fn reasons_in(log: &GameLog, id: &CombatantId) -> Vec<String> {
    let mut clock = None;
    let mut out = Vec::new();
    for entry in log.entries().iter().rev().take(400) {
        let LogEvent::IntentAccepted { why: Some(why), .. } = &entry.event else { continue };
        if entry.actor.as_ref() != Some(id) {
            continue;
        }
        if *clock.get_or_insert(entry.clock) != entry.clock || out.len() == 3 {
            break;
        }
        // The same reason twice in a row (two blows at one foe) is said once.
        if out.last() != Some(why) {
            out.push(why.clone());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use fray_core::intent::IntentRecord;
    use fray_core::log::{GameLog, LogEvent};

    #[test]
    fn the_sheet_gives_the_ais_reasons_for_its_turn_newest_first_each_once() {
        let mut log = GameLog::default();
        let said = |log: &mut GameLog, who: &str, why: &str| {
            let event =
                LogEvent::IntentAccepted { intent: IntentRecord::new(why.to_owned()), why: Some(why.into()) };
            log.about(&who.into(), event);
        };
        log.set_clock(1);
        said(&mut log, "friar", "speaks its litany");
        log.set_clock(2);
        said(&mut log, "friar", "strikes the mount");
        said(&mut log, "hew", "attacks the knight");
        said(&mut log, "friar", "strikes the mount");
        said(&mut log, "friar", "ends its turn");
        let reasons = super::reasons_in(&log, &"friar".into());
        assert_eq!(reasons, ["ends its turn", "strikes the mount"], "this turn's only, a repeat once");
        assert_eq!(super::reasons_in(&log, &"hew".into()), ["attacks the knight"]);
        assert!(super::reasons_in(&log, &"tam".into()).is_empty());
    }
}
