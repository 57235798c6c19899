//! Who sees what. Each window draws one seat's view, built in the core
//! (`fray_core::seat::drawn_views`) from the ruleset's declared privacy: the GM's window the
//! seat in [`Viewer`] (the GM's, a player's while the mouse is passed to them, or the
//! table's), the table's window and table mode the table seat's. A combatant a seat may not
//! see is absent from its view, and so from its window, with everything attached to its
//! token; a combatant the GM hides from the table by hand ([`GmHidden`]) is left out of every
//! seat but the GM's. Both windows draw one world, so what each draws is told to its camera by
//! render layers: [`GM_LAYER`] for the GM's window alone, [`TABLE_LAYER`] for the table's
//! alone, 0 for both. Drawings marked [`Audience::Gm`] (secret tags, an allocation being
//! built, target rings, the ruler) are aids for whoever holds the mouse: the GM's window only.

use std::collections::HashSet;

use bevy::camera::visibility::RenderLayers;
use bevy::prelude::*;
use fray_core::ids::CombatantId;
use fray_core::prelude::{Combatant, Controller, Seats, TableIndex};
use fray_core::seat::{Seat, SeatView, drawn_views};

use crate::client::board::pieces::{Card, Chip, ChipShadow, Token};
use crate::client::order::{Opening, Step};

/// Drawn in the GM's window only.
pub const GM_LAYER: usize = 1;
/// Drawn on the table's window only.
pub const TABLE_LAYER: usize = 2;

/// Which window a drawing is for, of those whose seat sees its owner; drawings without one
/// are for both.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Audience {
    /// Both windows.
    #[default]
    All,
    /// The GM's window only.
    Gm,
    /// The table's window only.
    Table,
}

/// The seat the GM's window draws (in table mode it draws the table's, whatever this says).
#[derive(Resource, Clone, Debug, PartialEq)]
pub struct Viewer {
    /// Whose view.
    pub seat: Seat,
    /// The mouse was passed to this player for a secret choice: once they have made it, the
    /// window turns to the table's view.
    pub passed: bool,
    /// The window turned to the table's view when a player passed the mouse on: once the
    /// secret is out, it turns back to the GM's view when someone at this screen decides.
    pub returns: bool,
}

impl Viewer {
    /// The table's view, chosen by the GM (it stays until G).
    pub fn table() -> Self {
        Self { seat: Seat::Table, passed: false, returns: false }
    }
}

impl Default for Viewer {
    fn default() -> Self {
        Self { seat: Seat::Gm, passed: false, returns: false }
    }
}

/// Combatants the GM keeps off every screen but the GM's own (by stable id, so undo keeps
/// them hidden): `--hide`, or the sheet's "Hidden from the table".
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct GmHidden(pub HashSet<CombatantId>);

/// Combatants the table's screen does not show: absent from the table seat's view, or hidden
/// by the GM.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct HiddenFromTable(pub HashSet<CombatantId>);

/// Board texts the table's screen leaves out: those its view in part would cut at an edge
/// (a caption half in view, a card's lines under the bar). Filled by `table::edge`.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct CutOnTable(pub HashSet<Entity>);

/// Combatants the GM's window does not show now: absent from its seat's view (none for the
/// GM's own).
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct HiddenFromMain(pub HashSet<CombatantId>);

/// The views the two windows draw, as the rules last left the table.
#[derive(Resource, Clone, Debug, Default)]
pub struct Seen {
    /// The GM window's seat's.
    pub main: Option<SeatView>,
    /// The table seat's.
    pub table: Option<SeatView>,
}

/// The seat the GM's window draws now: the table's in table mode, the GM's in edit mode.
pub fn main_seat(world: &World) -> Seat {
    let mode = world.get_resource::<crate::client::table::view::TableView>().is_some_and(|v| v.mode);
    let editing = world.get_resource::<crate::client::pointer::EditMode>().is_some_and(|m| m.0);
    match world.get_resource::<Viewer>() {
        _ if mode => Seat::Table,
        _ if editing => Seat::Gm,
        Some(viewer) => viewer.seat.clone(),
        None => Seat::Gm,
    }
}

/// The table's players' seats (none before a scenario is open).
pub fn seats(world: &World) -> Seats {
    world.get_resource::<Seats>().cloned().unwrap_or_default()
}

/// Whether the GM's window may decide for a combatant with this controller: the GM's view
/// for anyone a person plays, a player's for their own, the table's for no one.
pub fn decides(seat: &Seat, controller: &Controller) -> bool {
    match seat {
        Seat::Gm => controller.is_person(),
        Seat::Player(_) => seat.decides(controller),
        Seat::Table => false,
    }
}

/// Whether the table's screen leaves combatant `e` out.
pub fn hidden_from_table(world: &World, e: Entity) -> bool {
    let hidden = world.get_resource::<HiddenFromTable>();
    hidden.is_some_and(|h| !h.0.is_empty() && h.0.contains(&fray_core::table::id(world, e)))
}

/// Whether `text` names a combatant the table's screen leaves out (a roll told "Kez shoots
/// at Mara" while Mara hides).
pub fn names_hidden_from_table(world: &World, text: &str) -> bool {
    let Some(hidden) = world.get_resource::<HiddenFromTable>().filter(|h| !h.0.is_empty()) else {
        return false;
    };
    let index = world.resource::<TableIndex>();
    let names: Vec<String> = index.order.iter().map(|&e| fray_core::table::name(world, e)).collect();
    let others: Vec<&str> = names.iter().map(String::as_str).collect();
    hidden
        .0
        .iter()
        .filter_map(|id| index.combatant(id))
        .any(|e| fray_core::seat::says(text, &fray_core::table::name(world, e), &others))
}

/// Whether the GM's window leaves combatant `e` out.
pub fn hidden_from_main(world: &World, e: Entity) -> bool {
    let hidden = world.get_resource::<HiddenFromMain>();
    hidden.is_some_and(|h| !h.0.is_empty() && h.0.contains(&fray_core::table::id(world, e)))
}

/// Gizmos for the GM's eyes only (target rings, the ruler, the table's frame).
#[derive(Default, Reflect, GizmoConfigGroup)]
pub struct GmGizmos;

/// The layers a camera for the GM (`for_gm`) or for the table draws.
pub fn camera_layers(for_gm: bool) -> RenderLayers {
    RenderLayers::from_layers(&[0, if for_gm { GM_LAYER } else { TABLE_LAYER }])
}

/// Whether a camera seeing `camera` draws a drawing on `on` (layer 0 where it has none).
pub fn sees(camera: &RenderLayers, on: Option<&RenderLayers>) -> bool {
    camera.intersects(on.unwrap_or(&RenderLayers::layer(0)))
}

/// The layers of a drawing for `audience`, of an owner the GM's window (`main`) and the
/// table's (`table`) show or not.
pub fn layers(audience: Audience, main: bool, table: bool) -> RenderLayers {
    let (main, table) = match audience {
        Audience::All => (main, table),
        Audience::Gm => (main, false),
        Audience::Table => (false, table),
    };
    match (main, table) {
        (true, true) => RenderLayers::layer(0),
        (true, false) => RenderLayers::layer(GM_LAYER),
        (false, true) => RenderLayers::layer(TABLE_LAYER),
        (false, false) => RenderLayers::none(),
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Viewer>()
        .init_resource::<GmHidden>()
        .init_resource::<HiddenFromTable>()
        .init_resource::<HiddenFromMain>()
        .init_resource::<CutOnTable>()
        .init_resource::<Seen>()
        .add_systems(Update, (end_passing, see).chain().in_set(Step::Concealment))
        .add_systems(Update, fade_hidden_tokens.in_set(Step::HiddenTokens))
        .init_gizmo_group::<GmGizmos>()
        .add_systems(Startup, gm_gizmos_layer.in_set(Opening::Spawn))
        .add_systems(
            PostUpdate,
            assign_layers.before(bevy::camera::visibility::VisibilitySystems::CheckVisibility),
        );
}

/// Once the player the mouse was passed to has made their secret choice (they decide for
/// no one the rules still wait on, or the secret is out), the GM's window turns to the
/// table's view; once the secret is out and the rules wait on someone decided at this screen
/// (the GM's, or a player's with no page connected), it turns back to the GM's view, saying
/// so. The G and T keys choose a view that stays.
fn end_passing(world: &mut World, mut seen: Local<Option<crate::client::board::pieces::TableKey>>) {
    let viewer = world.resource::<Viewer>().clone();
    let key = Some(crate::client::board::pieces::table_key(world, 0));
    if !(viewer.passed || viewer.returns) || *seen == key {
        return;
    }
    *seen = key;
    let Some(rules) = fray_core::fight::ruleset(world) else { return };
    let secret = rules.view().secret(world).is_some();
    let waiting = rules.awaiting(world);
    let still =
        secret && waiting.iter().any(|&e| world.get::<Controller>(e).is_some_and(|c| viewer.seat.decides(c)));
    if viewer.passed && !still {
        *world.resource_mut::<Viewer>() = Viewer { seat: Seat::Table, passed: false, returns: true };
    }
    if secret || !(viewer.passed || viewer.returns) {
        return;
    }
    let Some(next) = waiting.into_iter().find(|&e| at_this_screen(world, e)) else { return };
    *world.resource_mut::<Viewer>() = Viewer::default();
    let words = format!("Back to the GM's view: {} decides.", fray_core::table::name(world, next));
    if let Some(mut message) = world.get_resource_mut::<crate::client::pointer::BoardMessage>() {
        message.show(words);
    }
}

/// Whether combatant `e`'s decisions are made at this screen: the GM's, or a player's whose
/// seat has no page connected.
fn at_this_screen(world: &World, e: Entity) -> bool {
    match world.get::<Controller>(e) {
        Some(Controller::Gm) => true,
        Some(Controller::Player(seat)) => !on_a_page(world, seat),
        _ => false,
    }
}

/// Whether a page is connected for the player's seat `seat`.
#[cfg(feature = "serve")]
fn on_a_page(world: &World, seat: &fray_core::ids::SeatId) -> bool {
    world.get_resource::<crate::host::Host>().is_some_and(|host| {
        host.seats.iter().any(|s| s.seat == Seat::Player(seat.clone()) && s.connected() > 0)
    })
}

#[cfg(not(feature = "serve"))]
fn on_a_page(_: &World, _: &fray_core::ids::SeatId) -> bool {
    false
}

/// Builds the two windows' views again whenever the table, the GM window's seat, a
/// controller or the GM's hiding changed, and what each window leaves out.
fn see(world: &mut World, mut seen: Local<Option<SeeKey>>) {
    let main = main_seat(world);
    let ticks = |t: Option<bevy::ecs::change_detection::ComponentTicks>| t.map_or(0, |t| t.changed.get());
    let key = Some((
        crate::client::board::pieces::table_key(world, 0),
        main.clone(),
        ticks(world.get_resource_change_ticks::<Viewer>()),
        ticks(world.get_resource_change_ticks::<GmHidden>()),
    ));
    if *seen == key {
        return;
    }
    *seen = key;
    let Some(rules) = fray_core::fight::ruleset(world) else { return };
    // The GM's window showing the table's view shares it.
    let seats = if main == Seat::Table { vec![Seat::Table] } else { vec![main.clone(), Seat::Table] };
    let mut views = drawn_views(world, rules.as_ref(), &seats).into_iter();
    let Some(main_view) = views.next() else { return };
    let table_view = views.next().unwrap_or_else(|| main_view.clone());
    let everyone: Vec<CombatantId> =
        world.resource::<TableIndex>().order.iter().map(|&e| fray_core::table::id(world, e)).collect();
    let by_gm = world.resource::<GmHidden>().0.clone();
    let left_out = |view: &SeatView, gm: bool| -> HashSet<CombatantId> {
        let shown: HashSet<&CombatantId> = view.tokens.iter().map(|t| &t.id).collect();
        everyone.iter().filter(|id| !shown.contains(id) || (!gm && by_gm.contains(*id))).cloned().collect()
    };
    let table = HiddenFromTable(left_out(&table_view, false));
    let main_hidden = HiddenFromMain(left_out(&main_view, main == Seat::Gm));
    if *world.resource::<HiddenFromTable>() != table {
        world.insert_resource(table);
    }
    if *world.resource::<HiddenFromMain>() != main_hidden {
        world.insert_resource(main_hidden);
    }
    world.insert_resource(Seen { main: Some(main_view), table: Some(table_view) });
}

type SeeKey = (crate::client::board::pieces::TableKey, Seat, u32, u32);

/// A token the table does not see is faded in the GM's window, to know it.
fn fade_hidden_tokens(
    hidden: Res<HiddenFromTable>,
    added: Query<(), Added<Token>>,
    combatants: Query<&Combatant>,
    mut tokens: Query<(&Token, &mut Sprite)>,
) {
    if !hidden.is_changed() && added.is_empty() {
        return;
    }
    for (token, mut sprite) in &mut tokens {
        let alpha =
            if combatants.get(token.0).is_ok_and(|c| hidden.0.contains(&c.id)) { HIDDEN_ALPHA } else { 1.0 };
        if sprite.color.alpha() != alpha {
            sprite.color.set_alpha(alpha);
        }
    }
}

/// How opaque the GM sees a token hidden from the table.
const HIDDEN_ALPHA: f32 = 0.4;

fn gm_gizmos_layer(mut store: ResMut<GizmoConfigStore>) {
    store.config_mut::<GmGizmos>().0.render_layers = RenderLayers::layer(GM_LAYER);
}

/// Gives every drawing its layers: its audience's, among the windows whose seat sees its
/// owner. Runs when something relevant changed.
#[allow(clippy::type_complexity)]
pub(in crate::client) fn assign_layers(
    hidden: Res<HiddenFromTable>,
    main_hidden: Res<HiddenFromMain>,
    cut: Res<CutOnTable>,
    changed: Query<(), Or<(Added<Token>, Added<Chip>, Changed<Audience>, Added<ChildOf>)>>,
    tokens: Query<(Entity, &Token)>,
    chips: Query<(Entity, &Chip)>,
    loose: Query<
        Entity,
        (With<Audience>, Without<ChildOf>, Without<Chip>, Without<Token>, Without<ChipShadow>),
    >,
    shadows: Query<(Entity, &ChipShadow)>,
    cards: Query<Entity, With<Card>>,
    children: Query<&Children>,
    audiences: Query<&Audience>,
    combatants: Query<&Combatant>,
    current: Query<&RenderLayers>,
    mut commands: Commands,
) {
    if !hidden.is_changed() && !main_hidden.is_changed() && !cut.is_changed() && changed.is_empty() {
        return;
    }
    // Whom the GM's window and the table's show of an owner.
    let shown = |owner: Entity| match combatants.get(owner) {
        Ok(c) => (!main_hidden.0.contains(&c.id), !hidden.0.contains(&c.id)),
        Err(_) => (true, true),
    };
    let mut set = |e: Entity, wanted: RenderLayers| {
        if current.get(e).map_or(wanted != RenderLayers::layer(0), |now| *now != wanted) {
            commands.entity(e).insert(wanted);
        }
    };
    let give_tree = |root: Entity, (main, table): (bool, bool), set: &mut dyn FnMut(Entity, RenderLayers)| {
        let mut stack = vec![root];
        while let Some(e) = stack.pop() {
            let table = table && !cut.0.contains(&e);
            set(e, layers(audiences.get(e).copied().unwrap_or_default(), main, table));
            if let Ok(kids) = children.get(e) {
                stack.extend(kids.iter());
            }
        }
    };
    for (drawing, token) in &tokens {
        give_tree(drawing, shown(token.0), &mut set);
    }
    for (drawing, chip) in &chips {
        give_tree(drawing, shown(chip.owner), &mut set);
    }
    for (drawing, shadow) in &shadows {
        let owner = chips.get(shadow.0).map_or((true, true), |(_, chip)| shown(chip.owner));
        give_tree(drawing, owner, &mut set);
    }
    // Drawings of no token: cards' GM-only parts, the ruler's labels.
    for e in cards.iter().chain(&loose) {
        give_tree(e, (true, true), &mut set);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_window_draws_only_what_its_seat_sees() {
        let table = camera_layers(false);
        let gm = camera_layers(true);
        let on = |l: &RenderLayers| (l.intersects(&gm), l.intersects(&table));
        assert_eq!(on(&layers(Audience::All, true, true)), (true, true));
        assert_eq!(on(&layers(Audience::All, true, false)), (true, false), "hidden from the table");
        assert_eq!(
            on(&layers(Audience::All, false, true)),
            (false, true),
            "hidden from the GM window's seat"
        );
        assert_eq!(on(&layers(Audience::All, false, false)), (false, false));
        assert_eq!(on(&layers(Audience::Gm, true, true)), (true, false), "a mouse aid stays off the table");
        assert_eq!(on(&layers(Audience::Gm, false, true)), (false, false), "nothing of an unseen token");
        assert_eq!(on(&layers(Audience::Table, true, true)), (false, true));
        assert_eq!(on(&layers(Audience::Table, true, false)), (false, false));
    }

    /// The ford with the views worked out for the GM's window's `seat`.
    fn ford(seat: Seat) -> App {
        let text = include_str!("../../assets/scenarios/fast_slow_crossing.ron");
        let scenario = crate::rulesets::parse(text).expect("the ford parses");
        let mut app = scenario.table_app(scenario.seed(), scenario.default_limit(), false);
        app.update();
        app.insert_resource(Viewer { passed: matches!(seat, Seat::Player(_)), seat, returns: false })
            .init_resource::<GmHidden>()
            .init_resource::<HiddenFromTable>()
            .init_resource::<HiddenFromMain>()
            .init_resource::<Seen>()
            .add_systems(Update, (end_passing, see).chain());
        app.update();
        app
    }

    fn tags(app: &App) -> Vec<(String, Option<String>)> {
        let seen = app.world().resource::<Seen>();
        let secret = seen.main.as_ref().and_then(|v| v.secret.clone()).expect("a secret choice");
        secret.chosen.into_iter().map(|c| (c.who.to_string(), c.choice)).collect()
    }

    #[test]
    fn a_player_at_the_mouse_sees_no_other_sealed_choice_then_the_window_comes_back_to_the_gm() {
        let gm = ford(Seat::Gm);
        assert_eq!(tags(&gm).len(), 5, "the AI's five sealed choices");
        assert!(tags(&gm).iter().all(|(_, c)| c.is_some()), "the GM's view holds what each chose");
        let mut player = ford(Seat::Player("p1".into()));
        assert!(tags(&player).iter().all(|(_, c)| c.is_none()), "Player 1 sees only that they chose");
        let table = player.world().resource::<Seen>().table.clone().expect("the table's view");
        assert!(table.secret.expect("sealed").chosen.iter().all(|c| c.choice.is_none()));
        let rules = fray_core::fight::ruleset(player.world()).expect("a fight");
        let brann = player.world().resource::<TableIndex>().combatant(&"brann".into()).expect("Brann");
        let slow = rules.choices(player.world(), brann).into_iter().find(|c| c.label.starts_with("Slow"));
        player.init_resource::<crate::client::pointer::BoardMessage>();
        rules.submit(player.world_mut(), "brann".into(), &slow.expect("a Slow turn").intent);
        player.update();
        player.update();
        // The secret is out, and the rules wait on Brann, played at this screen (no phone):
        // the window goes past the table's view back to the GM's, saying so.
        let waiting = rules.awaiting(player.world());
        assert_eq!(waiting, vec![brann], "the rules wait on Brann's turn");
        assert_eq!(*player.world().resource::<Viewer>(), Viewer::default());
        let said = player.world().resource::<crate::client::pointer::BoardMessage>().text.clone();
        assert_eq!(said, "Back to the GM's view: Brann decides.");
        let main = player.world().resource::<Seen>().main.clone().expect("the window's view");
        assert_eq!(main.seat, Seat::Gm);
    }

    #[test]
    fn a_view_the_gm_chose_stays_and_the_table_view_holds_while_the_secret_does() {
        let mut gm = ford(Seat::Gm);
        gm.init_resource::<crate::client::pointer::BoardMessage>();
        // The window turned to the table's view as a pass-the-mouse round went on: while
        // Brann's choice is still to come, it stays there.
        gm.insert_resource(Viewer { seat: Seat::Table, passed: false, returns: true });
        gm.update();
        assert_eq!(gm.world().resource::<Viewer>().seat, Seat::Table, "Brann's choice is still to come");
        // The GM's own T is a view that stays, whoever the rules wait on next.
        gm.insert_resource(Viewer::table());
        let rules = fray_core::fight::ruleset(gm.world()).expect("a fight");
        let brann = gm.world().resource::<TableIndex>().combatant(&"brann".into()).expect("Brann");
        let slow = rules.choices(gm.world(), brann).into_iter().find(|c| c.label.starts_with("Slow"));
        rules.submit(gm.world_mut(), "brann".into(), &slow.expect("a Slow turn").intent);
        gm.update();
        assert_eq!(*gm.world().resource::<Viewer>(), Viewer::table(), "a view the GM chose stays");
    }

    #[test]
    fn a_combatant_the_gm_hides_leaves_every_window_but_the_gms() {
        let mut app = ford(Seat::Gm);
        app.world_mut().resource_mut::<GmHidden>().0.insert("gorm".into());
        app.update();
        assert!(app.world().resource::<HiddenFromTable>().0.contains(&CombatantId::from("gorm")));
        assert!(app.world().resource::<HiddenFromMain>().0.is_empty(), "the GM sees everyone");
        app.insert_resource(Viewer { seat: Seat::Player("p1".into()), passed: false, returns: false });
        app.update();
        let main = &app.world().resource::<HiddenFromMain>().0;
        assert!(main.contains(&CombatantId::from("gorm")), "a player's view leaves him out: {main:?}");
    }

    #[test]
    fn the_gm_window_decides_by_its_seat() {
        let anna = Controller::Player("anna".into());
        let bo = Controller::Player("bo".into());
        assert!(decides(&Seat::Gm, &anna) && decides(&Seat::Gm, &Controller::Gm));
        assert!(!decides(&Seat::Gm, &Controller::Ai));
        assert!(decides(&Seat::Player("anna".into()), &anna));
        assert!(!decides(&Seat::Player("anna".into()), &bo));
        assert!(!decides(&Seat::Player("anna".into()), &Controller::Gm));
        assert!(!decides(&Seat::Table, &anna));
    }
}
