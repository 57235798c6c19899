//! The colour themes (the Table screen menu, kept in the settings): dark, light, and high
//! contrast for a projector or a far screen. Each sets the panels' egui visuals and the
//! board's colours: the field, the cards, the captions, scenery names and the arrows.

use bevy::prelude::*;
use bevy_egui::{EguiContext, PrimaryEguiContext, egui};

use super::order::Step;
use super::table::view::TableView;
use crate::settings::Theme;

/// Each side's colour (sRGB), in scenario order (then again): its tokens on the board and
/// its bars in the Balance charts, under every theme.
pub const SIDE_COLOURS: [[f32; 3]; 4] =
    [[0.25, 0.45, 0.85], [0.80, 0.25, 0.22], [0.30, 0.65, 0.30], [0.75, 0.60, 0.20]];

/// The board's colours under the theme in use.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct Palette {
    /// The empty field.
    pub field: Color,
    /// A location's card.
    pub card: Color,
    /// Captions and names standing on the field.
    pub ink: Color,
    /// Captions on a card.
    pub card_ink: Color,
    /// The arrows of accessibility.
    pub arrow: Color,
    /// How much of the field's colour is laid over a scenario's map, so that the ink still
    /// reads on it (the bundled maps are dark).
    pub map_wash: f32,
}

impl Palette {
    /// The board's colours under `theme`.
    pub fn of(theme: Theme) -> Self {
        match theme {
            Theme::Dark => Palette {
                field: Color::srgb(0.11, 0.14, 0.12),
                card: Color::srgb(0.78, 0.72, 0.58),
                ink: Color::WHITE,
                card_ink: Color::srgb(0.12, 0.09, 0.05),
                arrow: Color::srgb(0.95, 0.85, 0.35),
                map_wash: 0.0,
            },
            Theme::Light => Palette {
                field: Color::srgb(0.84, 0.86, 0.80),
                card: Color::srgb(0.96, 0.91, 0.78),
                ink: Color::srgb(0.08, 0.08, 0.10),
                card_ink: Color::srgb(0.08, 0.08, 0.10),
                arrow: Color::srgb(0.62, 0.36, 0.02),
                map_wash: 0.75,
            },
            Theme::HighContrast => Palette {
                field: Color::BLACK,
                card: Color::srgb(1.0, 1.0, 0.92),
                ink: Color::WHITE,
                card_ink: Color::BLACK,
                arrow: Color::srgb(1.0, 0.9, 0.0),
                map_wash: 0.55,
            },
        }
    }
}

impl Default for Palette {
    fn default() -> Self {
        Palette::of(Theme::Dark)
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Palette>()
        .add_systems(Update, (choose_palette, paint_board).chain().in_set(Step::Palette));
}

/// The panels' egui look under `theme`.
pub fn visuals(theme: Theme) -> egui::Visuals {
    match theme {
        Theme::Dark => egui::Visuals::dark(),
        Theme::Light => egui::Visuals::light(),
        Theme::HighContrast => {
            let mut v = egui::Visuals::dark();
            v.override_text_color = Some(egui::Color32::WHITE);
            v.panel_fill = egui::Color32::BLACK;
            v.window_fill = egui::Color32::BLACK;
            v.extreme_bg_color = egui::Color32::BLACK;
            v.widgets.noninteractive.bg_stroke = egui::Stroke::new(1.5, egui::Color32::WHITE);
            v.widgets.inactive.bg_stroke = egui::Stroke::new(1.5, egui::Color32::WHITE);
            v.widgets.inactive.weak_bg_fill = egui::Color32::from_gray(30);
            v.widgets.hovered.bg_stroke = egui::Stroke::new(2.0, egui::Color32::YELLOW);
            v.selection.bg_fill = egui::Color32::from_rgb(0, 90, 200);
            v
        }
    }
}

/// Takes the theme from the settings: the palette, the field's colour and the panels' look.
fn choose_palette(
    view: Res<TableView>,
    mut palette: ResMut<Palette>,
    mut clear: ResMut<ClearColor>,
    mut contexts: Query<&mut EguiContext, With<PrimaryEguiContext>>,
    mut shown: Local<Option<Theme>>,
) {
    let theme = view.settings.theme;
    if *shown == Some(theme) && !contexts.is_empty() {
        return;
    }
    let Ok(mut context) = contexts.single_mut() else { return };
    context.get_mut().set_visuals(visuals(theme));
    let wanted = Palette::of(theme);
    if *palette != wanted {
        *palette = wanted;
    }
    clear.0 = wanted.field;
    *shown = Some(theme);
}

/// Paints scenery names in the palette's ink (new ones too); captions take theirs where they
/// are placed (`board::captions`), cards theirs where the reach view leaves them plain
/// (`drag::light_cards`).
fn paint_board(palette: Res<Palette>, mut inks: Query<&mut TextColor, With<super::space::Scenery>>) {
    for mut ink in &mut inks {
        if ink.0 != palette.ink {
            ink.0 = palette.ink;
        }
    }
}
