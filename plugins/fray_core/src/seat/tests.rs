use bevy_ecs::prelude::*;

use super::Seat;
use crate::board::Seen;
use crate::ids::{CombatantId, SeatId};
use crate::table::{Combatant, Controller, Seats, TableIndex};

fn anna() -> Controller {
    Controller::Player(SeatId::from("anna"))
}

#[test]
fn each_seat_sees_what_its_privacy_allows() {
    let (gm, table, anna_seat, bo_seat) =
        (Seat::Gm, Seat::Table, Seat::Player("anna".into()), Seat::Player("bo".into()));
    for seen in [Seen::Public, Seen::Controller, Seen::Gm] {
        assert!(gm.may_see(seen, &anna()), "the GM sees everything");
    }
    assert!(table.may_see(Seen::Public, &anna()));
    assert!(!table.may_see(Seen::Controller, &Controller::Gm), "the table sees nobody's private facts");
    assert!(anna_seat.may_see(Seen::Controller, &anna()), "Anna sees her own");
    assert!(!bo_seat.may_see(Seen::Controller, &anna()), "Bo does not see Anna's");
    assert!(!anna_seat.may_see(Seen::Gm, &anna()), "GM-only facts stay the GM's");
    assert!(gm.decides(&Controller::Gm) && !gm.decides(&Controller::Ai) && !gm.decides(&anna()));
    assert!(anna_seat.decides(&anna()) && !bo_seat.decides(&anna()) && !table.decides(&Controller::Gm));
}

#[test]
fn seats_are_named_on_the_command_line_by_role_player_or_combatant() {
    let mut world = World::new();
    world.insert_resource(Seats(vec![("anna".into(), "Anna".to_owned())]));
    let brann = world.spawn((Combatant { id: "brann".into(), name: "Brann".into() }, anna())).id();
    let odo = world.spawn((Combatant { id: "odo".into(), name: "Odo".into() }, Controller::Ai)).id();
    let mut index = TableIndex::default();
    index.combatants.insert(CombatantId::from("brann"), brann);
    index.combatants.insert(CombatantId::from("odo"), odo);
    world.insert_resource(index);
    let parse = |text: &str| Seat::parse(text, &world);
    assert_eq!(parse("gm"), Ok(Seat::Gm));
    assert_eq!(parse("table"), Ok(Seat::Table));
    assert_eq!(parse("player:Anna"), Ok(Seat::Player("anna".into())));
    assert_eq!(parse("player:anna"), Ok(Seat::Player("anna".into())), "by id too");
    assert_eq!(parse("combatant:brann"), Ok(Seat::Player("anna".into())));
    assert_eq!(parse("combatant:odo"), Ok(Seat::Gm), "the AI's combatants are the GM's to see");
    assert_eq!(parse("player:Bo"), Err("there is no seat 'Bo' (the seats: Anna)".to_owned()));
    assert!(parse("combatant:x").is_err_and(|e| e.contains("no combatant 'x'")));
    assert!(parse("everyone").is_err_and(|e| e.contains("gm, table, player:NAME or combatant:ID")));
}
