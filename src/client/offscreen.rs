//! `--offscreen` (with `--stats`): the board drawn into images instead of windows, so that a
//! machine without a display (a GPU server) can time the real renderer. The GM's cameras draw
//! into a 1600x900 image, the table window's camera into a 1280x720 one; nothing is shown.

use bevy::camera::{ImageRenderTarget, RenderTarget};
use bevy::prelude::*;
use bevy::render::render_resource::TextureFormat;

/// The images the cameras draw into.
#[derive(Resource, Clone)]
pub struct Offscreen {
    /// In place of the GM's window.
    pub primary: Handle<Image>,
    /// In place of the table window.
    pub table: Handle<Image>,
}

impl Offscreen {
    /// Where a camera for the GM (`for_gm`) or the table draws.
    pub fn target(&self, for_gm: bool) -> RenderTarget {
        let image = if for_gm { &self.primary } else { &self.table };
        RenderTarget::Image(ImageRenderTarget::from(image.clone()))
    }
}

pub(super) fn plugin(app: &mut App) {
    let mut images = app.world_mut().resource_mut::<Assets<Image>>();
    let mut target = |w, h| images.add(Image::new_target_texture(w, h, TextureFormat::Rgba8UnormSrgb, None));
    let offscreen = Offscreen { primary: target(1600, 900), table: target(1280, 720) };
    app.insert_resource(offscreen);
}
