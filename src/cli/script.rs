//! `skirmish script FILE [--json]`: run a scenario, print its event log and the final
//! state of every unit.

use crate::engine::units::PlayState;
use std::path::Path;
use std::process::ExitCode;

use crate::engine::battle::Awaiting;
use crate::level::load::shown_path;
use crate::script::{self, Run};

/// Runs `skirmish script`.
pub fn run(file: &Path, json: bool, save_battle: Option<&Path>) -> ExitCode {
    let (scenario, level) = match script::load(file) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let run = match script::run(&scenario, &level) {
        Ok(run) => run,
        Err(e) => {
            eprintln!("{}: {e}", shown_path(file));
            return ExitCode::FAILURE;
        }
    };
    print_run(&run, json);
    if let Some(out) = save_battle {
        let dice = match &scenario.dice {
            script::DiceSpec::Seed(s) => crate::replay::DiceSource::Seed(*s),
            script::DiceSpec::Faces(f) => crate::replay::DiceSource::Faces(f.clone()),
        };
        let source = match &scenario.level {
            script::LevelRef::File(p) => file.parent().map(|d| d.join(p)),
            _ => None,
        };
        let battle =
            crate::replay::BattleFile::record(&run.battle, &run.level, dice, source.as_deref());
        if let Err(e) = battle.save(out) {
            eprintln!("{}: {e}", shown_path(file));
            return ExitCode::FAILURE;
        }
        eprintln!(
            "{}: {} commands written to {}",
            shown_path(file),
            battle.commands.len(),
            out.display()
        );
    }
    match &run.error {
        Some(e) => {
            eprintln!("{}: {e}", shown_path(file));
            ExitCode::FAILURE
        }
        None => ExitCode::SUCCESS,
    }
}

fn print_run(run: &Run, json: bool) {
    let battle = &run.battle;
    if json {
        for line in script::json_lines(run) {
            println!("{line}");
        }
        let final_state =
            serde_json::json!({ "final": battle.units(), "waiting_for": waiting(run) });
        println!("{final_state}");
        return;
    }
    let mut last = usize::MAX;
    for (i, event) in battle.events().iter().enumerate() {
        // Quiet bookkeeping events have no line (their command's header waits for one).
        let Some(line) = crate::engine::log::line(battle.world(), event) else {
            continue;
        };
        let cause = run.caused_by.get(i).copied().unwrap_or(0);
        if cause != last && cause > 0 {
            println!("> command #{cause}");
        }
        last = cause;
        println!("  {line}");
    }
    println!();
    println!("Final state (round {}):", battle.turn().round);
    println!(
        "  {:<14} {:<8} {:>8} {:>8}  conditions",
        "unit", "side", "cell", "hp"
    );
    for u in battle.units() {
        // Out of play, the state says why ("defeated" at 0 HP, "fled" ...).
        let hp = match u.state {
            PlayState::Active => format!("{}/{}", u.hp, u.max_hp),
            PlayState::Down => "defeated".to_string(),
            PlayState::Dying => format!("dying {}/{}", u.hp, u.max_hp),
            state => state.word().to_string(),
        };
        println!(
            "  {:<14} {:<8} {:>8} {:>8}  {}",
            u.name,
            u.side,
            format!("{},{}", u.cell.x, u.cell.y),
            hp,
            u.conditions.join(", ")
        );
    }
    println!("Waiting for: {}", waiting(run));
}

fn waiting(run: &Run) -> String {
    let b = &run.battle;
    match b.awaiting() {
        Awaiting::Unit(u, stage) => {
            format!("{}'s turn ({})", b.unit_name(u), b.stage_name(stage))
        }
        Awaiting::Decision(_) => crate::script::describe_awaiting(b),
        Awaiting::Over(Some(w)) => format!("nothing: {} won", b.side_name(w)),
        Awaiting::Over(None) => "nothing: the battle is over".to_string(),
    }
}
