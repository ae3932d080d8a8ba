//! `skirmish script`.

use std::process::ExitCode;

/// Runs `skirmish script`.
pub fn run(file: &std::path::Path, json: bool) -> ExitCode {
    todo!("{file:?} {json}")
}
