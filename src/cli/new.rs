//! `fray new --ruleset ID PATH`: writes a small valid scenario of a ruleset to start from.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;

use crate::rulesets;

/// Arguments of `fray new`.
#[derive(Args, Debug)]
pub struct NewArgs {
    /// The ruleset's id (`fiend_wake`, `fatewalker`…; a wrong one lists them).
    #[arg(long)]
    pub ruleset: String,
    /// The scenario file to write; an existing file is never overwritten.
    pub path: PathBuf,
}

/// Writes the ruleset's template (exit 0), or says why not (exit 2).
pub fn run(args: &NewArgs) -> ExitCode {
    match write_template(&args.ruleset, &args.path) {
        Ok(words) => {
            println!("{words}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(2)
        }
    }
}

/// Writes the template of ruleset `id` to `path`, never over an existing file: what was
/// written and what to do next, or why nothing was.
pub fn write_template(id: &str, path: &Path) -> Result<String, String> {
    let shown = path.display();
    let registry = rulesets::registry();
    let Some(ruleset) = registry.iter().find(|r| r.id() == id) else {
        let ids: Vec<&str> = registry.iter().map(|r| r.id()).collect();
        return Err(format!("--ruleset {id}: no such ruleset (Fray plays {})", ids.join(", ")));
    };
    if path.exists() {
        return Err(format!("{shown}: already exists; name a new file (nothing was written)"));
    }
    crate::session::write_atomically(path, ruleset.template().as_bytes())
        .map_err(|e| format!("{shown}: cannot be written: {e}"))?;
    Ok(format!(
        "{shown}: a new {} scenario; `fray check {shown}` checks it, `fray play {shown} --edit` edits it on the board",
        ruleset.name()
    ))
}
