//! `fray new --ruleset ID PATH`: writes a small valid scenario of a ruleset to start from.

use std::path::PathBuf;
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
    let shown = args.path.display();
    let registry = rulesets::registry();
    let Some(ruleset) = registry.iter().find(|r| r.id() == args.ruleset) else {
        let ids: Vec<&str> = registry.iter().map(|r| r.id()).collect();
        eprintln!("--ruleset {}: no such ruleset (Fray plays {})", args.ruleset, ids.join(", "));
        return ExitCode::from(2);
    };
    if args.path.exists() {
        eprintln!("{shown}: already exists; name a new file (nothing was written)");
        return ExitCode::from(2);
    }
    match crate::session::write_atomically(&args.path, ruleset.template().as_bytes()) {
        Ok(()) => {
            println!(
                "{shown}: a new {} scenario; `fray check {shown}` checks it, `fray play {shown}` opens it",
                ruleset.name()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{shown}: cannot be written: {e}");
            ExitCode::from(2)
        }
    }
}
