//! `skirmish dice`.

use std::process::ExitCode;

/// Runs `skirmish dice`.
pub fn run(expr: &str, json: bool) -> ExitCode {
    todo!("{expr} {json}")
}
