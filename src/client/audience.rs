//! Who sees what: the GM's camera draws render layers 0 and [`GM_LAYER`], the table's (and
//! the GM's own in table mode) layers 0 and [`TABLE_LAYER`]. Drawings marked
//! [`Audience::Gm`] (secret choices, an allocation being built, target rings, the ruler) stay
//! off the table; a combatant the GM hides from the table, or the rules conceal, is drawn for
//! the GM only, with everything attached to its token and its chips.

use std::collections::HashSet;

use bevy::camera::visibility::RenderLayers;
use bevy::prelude::*;
use fray_core::ids::CombatantId;
use fray_core::prelude::Combatant;

use crate::client::board::pieces::{Card, Chip, ChipShadow, Token};
use crate::client::order::{Opening, Step};

/// Drawn for the GM only.
pub const GM_LAYER: usize = 1;
/// Drawn on the table only (a stand-in for something the GM sees moved).
pub const TABLE_LAYER: usize = 2;

/// Whose screen a drawing is for; drawings without one are for everyone.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Audience {
    /// Both screens.
    #[default]
    All,
    /// The GM's screen only.
    Gm,
    /// The table's screen only.
    Table,
}

/// Combatants the GM keeps off the table's screen (by stable id, so undo keeps them hidden).
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct HiddenFromTable(pub HashSet<CombatantId>);

/// Those the rules concealed when last asked (the ruleset's `TokenView::concealed`): each
/// newly concealed joins [`HiddenFromTable`], each revealed leaves it; the GM may still show or
/// hide anyone by hand in between.
#[derive(Resource, Clone, Debug, Default)]
struct ConcealedByRules(HashSet<CombatantId>);

/// Whether the GM hides combatant `e` from the table.
pub fn hidden_from_table(world: &World, e: Entity) -> bool {
    world.get_resource::<HiddenFromTable>().is_some_and(|h| h.0.contains(&fray_core::table::id(world, e)))
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

/// The layers of a drawing for `audience`, on a token hidden from the table or not.
pub fn layers(audience: Audience, hidden: bool) -> RenderLayers {
    match (audience, hidden) {
        (Audience::All, false) => RenderLayers::layer(0),
        (Audience::Gm, _) | (Audience::All, true) => RenderLayers::layer(GM_LAYER),
        (Audience::Table, false) => RenderLayers::layer(TABLE_LAYER),
        (Audience::Table, true) => RenderLayers::none(),
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<HiddenFromTable>()
        .init_resource::<ConcealedByRules>()
        .add_systems(Update, sync_concealed.in_set(Step::Concealment))
        .add_systems(Update, fade_hidden_tokens.in_set(Step::HiddenTokens))
        .init_gizmo_group::<GmGizmos>()
        .add_systems(Startup, gm_gizmos_layer.in_set(Opening::Spawn))
        .add_systems(
            PostUpdate,
            assign_layers.before(bevy::camera::visibility::VisibilitySystems::CheckVisibility),
        );
}

/// Asks the rules who is concealed whenever the table changed, and hides or shows those whose
/// concealment changed.
fn sync_concealed(world: &mut World, mut seen: Local<Option<crate::client::board::pieces::TableKey>>) {
    let key = Some(crate::client::board::pieces::table_key(world, 0));
    if *seen == key {
        return;
    }
    *seen = key;
    let Some(rules) = fray_core::fight::ruleset(world) else { return };
    let order =
        world.get_resource::<fray_core::prelude::TableIndex>().map(|i| i.order.clone()).unwrap_or_default();
    let now: HashSet<CombatantId> = order
        .into_iter()
        .filter(|&e| rules.view().token(world, e).concealed)
        .map(|e| fray_core::table::id(world, e))
        .collect();
    let before = std::mem::replace(&mut world.resource_mut::<ConcealedByRules>().0, now.clone());
    if now == before {
        return;
    }
    let mut hidden = world.resource_mut::<HiddenFromTable>();
    for id in now.difference(&before) {
        hidden.0.insert(id.clone());
    }
    for id in before.difference(&now) {
        hidden.0.remove(id);
    }
}

/// The GM sees a hidden combatant's token faded, to know the table does not see it.
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

/// Gives every drawing its layers: its audience's, and the GM's alone for all that belongs to
/// a hidden combatant. Runs when something relevant changed.
#[allow(clippy::type_complexity)]
fn assign_layers(
    hidden: Res<HiddenFromTable>,
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
    if !hidden.is_changed() && changed.is_empty() {
        return;
    }
    let is_hidden = |owner: Entity| combatants.get(owner).is_ok_and(|c| hidden.0.contains(&c.id));
    let mut set = |e: Entity, wanted: RenderLayers| {
        if current.get(e).map_or(wanted != RenderLayers::layer(0), |now| *now != wanted) {
            commands.entity(e).insert(wanted);
        }
    };
    let give_tree = |root: Entity, hid: bool, set: &mut dyn FnMut(Entity, RenderLayers)| {
        let mut stack = vec![root];
        while let Some(e) = stack.pop() {
            set(e, layers(audiences.get(e).copied().unwrap_or_default(), hid));
            if let Ok(kids) = children.get(e) {
                stack.extend(kids.iter());
            }
        }
    };
    for (drawing, token) in &tokens {
        give_tree(drawing, is_hidden(token.0), &mut set);
    }
    for (drawing, chip) in &chips {
        give_tree(drawing, is_hidden(chip.owner), &mut set);
    }
    for (drawing, shadow) in &shadows {
        let hid = chips.get(shadow.0).is_ok_and(|(_, chip)| is_hidden(chip.owner));
        give_tree(drawing, hid, &mut set);
    }
    // Drawings of no token: cards' GM-only parts, the ruler's labels.
    for e in cards.iter().chain(&loose) {
        give_tree(e, false, &mut set);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gm_drawings_and_hidden_tokens_stay_off_the_table() {
        let table = camera_layers(false);
        let gm = camera_layers(true);
        let seen = |layers: &RenderLayers, by: &RenderLayers| layers.intersects(by);
        assert!(seen(&layers(Audience::All, false), &table) && seen(&layers(Audience::All, false), &gm));
        assert!(!seen(&layers(Audience::Gm, false), &table), "a GM drawing must not reach the table");
        assert!(seen(&layers(Audience::Gm, false), &gm));
        assert!(!seen(&layers(Audience::All, true), &table), "a hidden token must not reach the table");
        assert!(seen(&layers(Audience::All, true), &gm), "the GM still sees a hidden token");
        assert!(seen(&layers(Audience::Table, false), &table) && !seen(&layers(Audience::Table, false), &gm));
        assert!(!seen(&layers(Audience::Table, true), &table), "nothing of a hidden token reaches the table");
    }
}
