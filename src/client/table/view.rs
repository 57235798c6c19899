//! The table's screen as the GM set it ([`TableView`]): its settings (kept between runs) and
//! whether the GM's window shows it (table mode). Read by every part the settings change:
//! motion, the theme, the cameras.

use std::path::PathBuf;

use bevy::prelude::*;

use crate::settings::TableSettings;

/// The table's screen as the GM set it.
#[derive(Resource, Clone, Debug, Default)]
pub struct TableView {
    /// What persists between runs.
    pub settings: TableSettings,
    /// The GM's window shows the table's screen (every GM panel hidden).
    pub mode: bool,
    /// Where the settings live (none: not kept).
    pub(super) dir: Option<PathBuf>,
    /// The settings as last written.
    pub(super) written: TableSettings,
    /// A problem with the settings file, shown once in the GM window.
    pub problem: Option<String>,
    /// The GM asked to open (or close) the table window; done at the next update.
    pub(super) wanted_open: Option<bool>,
}
