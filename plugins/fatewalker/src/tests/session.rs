//! A FateWalker fight as a session: a person's decision undone and redone on the ambush
//! gives back the table and the log as they were, byte for byte.

use fray_core::fight;
use fray_core::intent::Inbox;
use fray_core::log::GameLog;

use super::support::{AMBUSH, app};
use crate::FateWalkerIntent;

fn log_of(app: &bevy_app::App) -> Vec<u8> {
    let mut out = Vec::new();
    app.world().resource::<GameLog>().write_jsonl(&mut out, None).expect("in memory");
    out
}

#[test]
fn undo_and_redo_of_a_reaction_give_the_same_log() {
    // The convoy is played by people: the marksman's shot waits on Mara's answer (the crew
    // plays at the simple level, whose opening shot this test was written for).
    let mut app = app(AMBUSH, 7, 600, false);
    let crew: Vec<_> = app.world().resource::<fray_core::prelude::TableIndex>().order.clone();
    for e in crew {
        app.world_mut().entity_mut(e).insert(fray_core::ai::AiLevel::Simple);
    }
    app.update();
    let asked = log_of(&app);
    let before = fight::accepted_intents(app.world());
    app.world_mut()
        .resource_mut::<Inbox<FateWalkerIntent>>()
        .submit("mara".into(), FateWalkerIntent::Decline);
    app.update();
    let answered = log_of(&app);
    assert_eq!(fight::accepted_intents(app.world()), before + 1, "Mara's answer is accepted");
    assert!(answered.len() > asked.len(), "the fight goes on after Mara's answer");
    let undone = fight::undo(app.world_mut()).expect("Mara's answer can be undone");
    assert!(undone.starts_with("mara: Decline"), "undo names what it took back: {undone}");
    assert!(log_of(&app) == asked, "after undo the log is what it was when Mara was asked");
    fight::redo(app.world_mut()).expect("the answer can be redone");
    app.update();
    assert!(log_of(&app) == answered, "redo gives the same dice and the same log");
}
