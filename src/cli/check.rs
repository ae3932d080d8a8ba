//! `skirmish check`.

use std::process::ExitCode;

/// Runs `skirmish check`.
pub fn run(files: &[std::path::PathBuf]) -> ExitCode {
    todo!("{files:?}")
}
