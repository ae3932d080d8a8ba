//! Helpers for scenario tests: small levels built in code and scripted dice.
#![allow(dead_code)]

use std::collections::BTreeMap;

use skirmish::engine::board::{Cell, GridKind};
use skirmish::engine::dice::Dice;
use skirmish::engine::event::{Event, Stage};
use skirmish::engine::rulesets::new_battle;
use skirmish::engine::rulesets::phases::events::PhasesEvent;
use skirmish::engine::units::UnitId;
use skirmish::engine::{Awaiting, Battle, Command};
use skirmish::level::schema::*;

/// A phases unit: INT sets its initiative (faces are usually all 1s).
pub fn unit(
    name: &str,
    side: &str,
    pos: (i32, i32),
    int: i32,
    tier: i32,
    atk: i32,
    def: i32,
) -> UnitDef {
    let mut stats = BTreeMap::new();
    for (k, v) in [
        ("INT", int),
        ("AGI", 0),
        ("ATK", atk),
        ("DEF", def),
        ("Tier", tier),
    ] {
        stats.insert(k.to_string(), v);
    }
    UnitDef {
        name: name.into(),
        side: side.into(),
        pos,
        stats,
        powers: vec![],
        movement: vec![],
        items: vec![],
        ..Default::default()
    }
}

/// A square phases level with sides Blue and Red that never get optional decisions.
pub fn level(size: (u32, u32), terrain: &[&str], units: Vec<UnitDef>) -> Level {
    Level {
        name: "test".into(),
        version: 1,
        ruleset: "phases".into(),
        grid: GridKind::Square,
        size,
        terrain: terrain.iter().map(|s| s.to_string()).collect(),
        sides: ["Blue", "Red"]
            .iter()
            .map(|n| SideDef {
                name: n.to_string(),
                controller: Controller::Human,
                decisions: DecisionPolicy::Never,
                traits: Vec::new(),
            })
            .collect(),
        units,
        rules: BTreeMap::new(),
        victory: Victory::default(),
        seed: None,
    }
}

/// A battle with these faces.
pub fn battle(level: &Level, faces: &[u32]) -> Battle {
    new_battle(level, Dice::scripted(faces.iter().copied())).expect("test level sets up")
}

/// Id by name.
pub fn id(b: &Battle, name: &str) -> UnitId {
    b.unit_id(name).unwrap_or_else(|| panic!("no unit {name}"))
}

/// Ends every movement turn until the Battle Phase starts.
pub fn skip_movement(b: &mut Battle) {
    while let Awaiting::Unit(u, Stage::Movement) = b.awaiting() {
        b.submit(Command::EndTurn { unit: u }).expect("end turn");
    }
}

/// Ends every turn until the given stage of the given round (or the battle ends).
pub fn skip_to(b: &mut Battle, round: u32, stage: Stage) {
    loop {
        if b.turn().round >= round && b.turn().stage == stage {
            return;
        }
        match b.awaiting() {
            Awaiting::Unit(u, _) => {
                b.submit(Command::EndTurn { unit: u }).expect("end turn");
            }
            other => panic!("cannot skip past {other:?}"),
        }
    }
}

/// The active unit's name.
pub fn active(b: &Battle) -> String {
    match b.awaiting() {
        Awaiting::Unit(u, _) => b.unit_name(u),
        other => format!("{other:?}"),
    }
}

/// The attack rolls (`phases` narration) in these events.
pub fn attacks(events: &[Event]) -> Vec<PhasesEvent> {
    events
        .iter()
        .filter_map(|e| e.narration::<PhasesEvent>())
        .filter(|e| matches!(e, PhasesEvent::AttackRolled { .. }))
        .cloned()
        .collect()
}

/// The (hit, kept faces highest first, total, extra die sides) of an attack event.
pub fn attack_summary(e: &PhasesEvent) -> (bool, Vec<u32>, i32, Option<u32>) {
    match e {
        PhasesEvent::AttackRolled {
            hit,
            kept,
            total,
            extra_die,
            ..
        } => {
            let mut kept = kept.clone();
            kept.sort_unstable_by(|a, b| b.cmp(a));
            (*hit, kept, *total, extra_die.map(|x| x.sides))
        }
        _ => panic!("not an attack: {e:?}"),
    }
}

/// A cell.
pub fn c(x: i32, y: i32) -> Cell {
    Cell::new(x, y)
}

/// The HP of a unit.
pub fn hp(b: &Battle, name: &str) -> i32 {
    b.units()
        .into_iter()
        .find(|u| u.name == name)
        .map(|u| u.hp)
        .expect("unit")
}

/// The cell of a unit.
pub fn cell(b: &Battle, name: &str) -> Cell {
    b.units()
        .into_iter()
        .find(|u| u.name == name)
        .map(|u| u.cell)
        .expect("unit")
}

/// Condition names of a unit.
pub fn conditions(b: &Battle, name: &str) -> Vec<String> {
    b.units()
        .into_iter()
        .find(|u| u.name == name)
        .map(|u| u.conditions)
        .expect("unit")
}

/// Loads a shipped scenario, lets `patch` change it or its level, and runs it.
pub fn run_patched(
    path: &str,
    patch: impl FnOnce(&mut skirmish::script::Scenario, &mut Level),
) -> skirmish::script::Run {
    let full = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    let (mut scenario, mut level) = skirmish::script::load(&full).expect("scenario loads");
    patch(&mut scenario, &mut level);
    skirmish::script::run(&scenario, &level).expect("battle sets up")
}

/// Runs a shipped scenario to its end; every command must be accepted.
pub fn run(path: &str) -> Battle {
    let run = run_patched(path, |_, _| {});
    assert!(run.error.is_none(), "{path}: {}", run.error.unwrap());
    run.battle
}

/// Runs only the first `n` commands of a shipped scenario.
pub fn run_first(path: &str, n: usize) -> Battle {
    let run = run_patched(path, |s, _| s.commands.truncate(n));
    assert!(run.error.is_none(), "{path}: {}", run.error.unwrap());
    run.battle
}
