//! Where Fray finds its bundled files: the `assets/` folder and the default scenario.

/// The scenario `fray` opens when given none.
pub const DEFAULT_SCENARIO: &str = "assets/scenarios/swamp.ron";

/// The `assets/` folder: under the current folder, else where the project was built.
pub fn assets_dir() -> std::path::PathBuf {
    let here = std::path::PathBuf::from("assets");
    let found =
        if here.is_dir() { here } else { std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets") };
    std::path::absolute(&found).unwrap_or(found)
}

/// The default scenario: under the current folder, else where the project was built.
pub fn default_scenario() -> std::path::PathBuf {
    let here = std::path::PathBuf::from(DEFAULT_SCENARIO);
    if here.exists() { here } else { std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(DEFAULT_SCENARIO) }
}
