//! `skirmish check`: validates level files.
//!
//! Prints one line per problem to stdout, `FILE:LINE:COL: message`, and one
//! `ok: FILE (name, N units, ruleset)` line per valid file to stderr, so stdout holds
//! only problems (for editors and scripts). Exits 0 when every file is valid, 1
//! otherwise. It never panics: an unreadable file is a problem at `FILE:1:1`, a file
//! that is not UTF-8 one at the first byte that is not. Control characters in a
//! file name (a newline...) are escaped, so each problem stays on one line.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use crate::level::load::shown_path;
use crate::level::{Problem, load_file};

/// Runs `skirmish check`.
pub fn run(files: &[PathBuf]) -> ExitCode {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let stderr = std::io::stderr();
    let mut err = stderr.lock();
    let mut all_ok = true;
    for file in files {
        let name = file.display().to_string();
        let shown = shown_path(file);
        // A panic here would be a bug in the checks; report it like any problem.
        let result = std::panic::catch_unwind(|| load_file(file)).unwrap_or_else(|_| {
            Err(vec![Problem {
                file: name.clone(),
                line: 1,
                col: 1,
                message: "internal error while checking this file (please report it)".into(),
            }])
        });
        // Write errors (e.g. a closed pipe) are ignored: the exit code still tells.
        match result {
            Ok(level) => {
                let _ = writeln!(
                    err,
                    "ok: {shown} ({}, {} units, {})",
                    level.name,
                    level.units.len(),
                    level.ruleset
                );
            }
            Err(problems) => {
                all_ok = false;
                for p in problems {
                    // `Problem` shows the file name with control characters escaped:
                    // one problem, one line.
                    let _ = writeln!(out, "{p}");
                }
            }
        }
    }
    let _ = out.flush();
    if all_ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
