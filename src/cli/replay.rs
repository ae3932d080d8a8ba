//! `skirmish replay FILE [--check]`: plays a battle file's commands again headless
//! and checks the log event by event against the record. Without `--check` it
//! prints the replayed log and the result. Exit 0 when the battle reproduces, 1 when
//! the file can't be read or the battle does not reproduce (with the first
//! diverging event or refused command).

use std::path::Path;
use std::process::ExitCode;

use crate::engine::Awaiting;
use crate::level::load::shown_path;
use crate::replay::BattleFile;

/// Runs `skirmish replay`.
pub fn run(file: &Path, check: bool) -> ExitCode {
    let shown = shown_path(file);
    let battle_file = match BattleFile::load(file) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("skirmish replay: {e}");
            return ExitCode::FAILURE;
        }
    };
    if battle_file.level_unchanged() == Some(false) {
        eprintln!(
            "skirmish replay: {shown}: the level file {} has changed since the battle was \
             played; replaying the copy embedded in the battle file",
            battle_file.level_path.as_deref().unwrap_or("?")
        );
    }
    match battle_file.replay() {
        Ok(battle) => {
            if !check {
                for line in crate::script::log_lines(&battle) {
                    println!("{line}");
                }
            }
            let state = match battle.awaiting() {
                Awaiting::Over(Some(side)) => format!("{} won", battle.side_name(side)),
                Awaiting::Over(None) => "a draw".into(),
                _ => "unfinished".into(),
            };
            println!(
                "{shown}: reproduces exactly ({} commands, {} events; {state})",
                battle_file.commands.len(),
                battle_file.events.len()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("skirmish replay: {shown}: does not reproduce: {e}");
            ExitCode::FAILURE
        }
    }
}
