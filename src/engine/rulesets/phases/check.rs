//! Legality of `phases` commands, with a reason for every refusal, and the list of
//! legal commands the AI and property tests draw from.

use std::cell::RefCell;

use rustc_hash::FxHashMap;

use super::pools;
use super::verbs::{PhasesAction, disengage_path};
use bevy_ecs::prelude::*;

use super::answers::PhasesAnswer;
use super::conditions::*;
use super::config::MovementPowerDef;
use super::movement::{charge_options, charge_target, has, speed};
use super::{Step, round, rules};
use crate::engine::battle::{
    Map, Pending, Sides, TurnState, active_units, cell_of, entity, is_active, name, occupancy_for,
    side_of,
};
use crate::engine::board::{Cell, Occupancy};
use crate::engine::command::{Command, CommandError};
use crate::engine::decision::PendingDecision;
use crate::engine::event::Stage;
use crate::engine::spec::{ItemEffect, PowerDef};
use crate::engine::units::*;

fn stage_name(step: Step) -> &'static str {
    match step {
        Step::RoundStart => "the Initiative Phase",
        Step::Seize => "seize declarations",
        Step::Movement => "the Movement Phase",
        Step::Battle => "the Battle Phase",
        Step::End => "the End Phase",
    }
}

/// The pending decision, which one it is (by the answer it takes) and the units it
/// offers (each option names one).
fn asked(p: &PendingDecision) -> Option<(&PendingDecision, PhasesAnswer, Vec<UnitId>)> {
    let mut kind = None;
    let mut units = Vec::new();
    for c in p.answers() {
        let (k, _, us) = PhasesAnswer::of(c)?;
        if kind.replace(k).is_some_and(|was| was != k) {
            return None;
        }
        units.extend(us.iter().copied());
    }
    Some((p, kind?, units))
}

/// Whether `command` is legal now.
pub fn check(world: &World, command: &Command) -> Result<(), CommandError> {
    let pending = &world.resource::<Pending>().0;
    let sides = &world.resource::<Sides>().0;
    let side_name = |s: SideId| {
        sides
            .get(s.0 as usize)
            .map_or("?".to_string(), |s| s.name.clone())
    };
    match PhasesAnswer::of(command) {
        Some((PhasesAnswer::Seize, side, units)) => {
            let side = &side;
            let Some((p, PhasesAnswer::Seize, eligible)) = pending.as_ref().and_then(asked) else {
                return Err(CommandError::NoDecisionPending);
            };
            if p.side != *side {
                return Err(CommandError::DecisionPending {
                    side: side_name(p.side),
                    what: "who seizes the initiative".into(),
                });
            }
            if let Some(u) = units.iter().find(|u| !eligible.contains(u)) {
                return Err(CommandError::Forbidden(format!(
                    "{} cannot seize for {}",
                    name(world, *u),
                    side_name(*side)
                )));
            }
            return Ok(());
        }
        Some((PhasesAnswer::ActNow, side, units)) => {
            let side = &side;
            let Some((p, PhasesAnswer::ActNow, held)) = pending.as_ref().and_then(asked) else {
                return Err(CommandError::NoDecisionPending);
            };
            if p.side != *side {
                return Err(CommandError::DecisionPending {
                    side: side_name(p.side),
                    what: "whether delayed units act".into(),
                });
            }
            if let Some(u) = units.iter().find(|u| !held.contains(u)) {
                return Err(CommandError::Forbidden(format!(
                    "{} is not delaying",
                    name(world, *u)
                )));
            }
            return Ok(());
        }
        None if matches!(command, Command::Answer { .. } | Command::Pass { .. }) => {
            return Err(CommandError::WrongStage(
                "phases has no reactions (React and Pass answer flow decisions)".into(),
            ));
        }
        None => {}
    }
    if let Some(p) = pending {
        let what = match asked(p).map(|(_, a, _)| a) {
            Some(PhasesAnswer::Seize) => "who seizes the initiative (answer with Seize)",
            Some(PhasesAnswer::ActNow) => "whether delayed units act now (answer with ActNow)",
            None => "a decision",
        };
        return Err(CommandError::DecisionPending {
            side: side_name(p.side),
            what: what.into(),
        });
    }
    let Some(unit) = command.unit() else {
        return Ok(());
    };
    // Named only for a refusal: checks run often (the AI probes with them).
    let who = || name(world, unit);
    if !is_active(world, unit) {
        return Err(CommandError::Defeated(who()));
    }
    let step = round(world).step;
    let turn = world.resource::<TurnState>();
    if turn.active != Some(unit) {
        let reason = match turn.active {
            Some(a) => format!("it is {}'s turn in {}", name(world, a), stage_name(step)),
            None => format!("nobody is acting in {}", stage_name(step)),
        };
        return Err(CommandError::NotYourTurn {
            unit: who(),
            reason,
        });
    }
    let pool = |p: Pool| {
        world
            .get::<ActionPool>(entity(world, unit))
            .map_or(0, |a| a.left(p))
    };
    match command {
        Command::EndTurn { .. } => Ok(()),
        Command::Move {
            power,
            path,
            options,
            ..
        } => {
            let target = &charge_target(options);
            if step != Step::Movement {
                return Err(CommandError::WrongStage(format!(
                    "movement powers are used in the Movement Phase, not in {} (use Disengage to move in battle)",
                    stage_name(step)
                )));
            }
            if pool(pools::MOVEMENT_POWER) < 1 {
                return Err(CommandError::AlreadyUsed {
                    unit: who(),
                    what: "used its movement power".into(),
                });
            }
            let def = movement_power_of(world, unit, power)?;
            if has(world, unit, SLOWED) {
                return Err(CommandError::Forbidden(format!(
                    "{} is Slowed and cannot move (P-18)",
                    who()
                )));
            }
            validate_path(world, unit, def, path, *target).map(|_| ())
        }
        _ if step != Step::Battle => Err(CommandError::WrongStage(format!(
            "battle actions are taken in the Battle Phase, not in {}",
            stage_name(step)
        ))),
        _ if pool(pools::BATTLE_ACTION) < 1 => Err(CommandError::AlreadyUsed {
            unit: who(),
            what: "taken its battle action".into(),
        }),
        Command::Attack { target, power, .. } => {
            if has(world, unit, RUNNING) {
                return Err(CommandError::Forbidden(format!(
                    "{} ran this round and cannot attack (Run)",
                    who()
                )));
            }
            let def = power_named(world, unit, power.as_deref())?;
            check_target(world, unit, *target, &def)
        }
        Command::Act { .. } => match PhasesAction::of(command) {
            Some(PhasesAction::Defend) => Ok(()),
            Some(PhasesAction::Disengage { to }) => {
                let def = disengage_power(world)?;
                let path = disengage_path(world, unit, to)?;
                validate_path(world, unit, &def, &path, None).map(|_| ())
            }
            Some(PhasesAction::Delay) => {
                if round(world).delayed.contains(&unit) {
                    return Err(CommandError::AlreadyUsed {
                        unit: who(),
                        what: "delayed".into(),
                    });
                }
                Ok(())
            }
            // The battle has checked the verb against its declaration.
            None => Err(CommandError::WrongStage("phases has no such action".into())),
        },
        Command::ActivateItem { item, target, .. } => {
            let it = world
                .get::<Items>(entity(world, unit))
                .and_then(|i| i.0.iter().find(|i| &i.name == item))
                .ok_or_else(|| CommandError::Unknown {
                    unit: who(),
                    kind: "item",
                    name: item.clone(),
                })?;
            if it.uses == 0 {
                return Err(CommandError::Forbidden(format!(
                    "{}'s {item} has no uses left",
                    who()
                )));
            }
            match (&it.effect, target) {
                (ItemEffect::Power(p), Some(t)) => check_target(world, unit, *t, p),
                (ItemEffect::Power(_), None) => {
                    Err(CommandError::NoSuchTarget(format!("{item} needs a target")))
                }
                _ => Ok(()),
            }
        }
        Command::Answer { .. } => Ok(()),
        Command::Pass { .. } => Err(CommandError::WrongStage("phases has no reactions".into())),
    }
}

/// The unit's power with this name, or its first power.
pub fn power_named(
    world: &World,
    unit: UnitId,
    power: Option<&str>,
) -> Result<PowerDef, CommandError> {
    let powers = world
        .get::<Powers>(entity(world, unit))
        .map(|p| p.0.clone())
        .unwrap_or_default();
    match power {
        None => powers
            .first()
            .cloned()
            .ok_or_else(|| CommandError::Unknown {
                unit: name(world, unit),
                kind: "power",
                name: "(any)".into(),
            }),
        Some(p) => powers
            .iter()
            .find(|d| d.name.eq_ignore_ascii_case(p))
            .cloned()
            .ok_or_else(|| CommandError::Unknown {
                unit: name(world, unit),
                kind: "power",
                name: p.into(),
            }),
    }
}

/// The movement power used by the Disengage battle action (P-28).
pub fn disengage_power(world: &World) -> Result<MovementPowerDef, CommandError> {
    let config = rules(world);
    config
        .movement_powers
        .iter()
        .find(|p| p.battle_action)
        .cloned()
        .ok_or_else(|| {
            CommandError::Forbidden("this configuration has no battle-action movement power".into())
        })
}

fn movement_power_of<'w>(
    world: &'w World,
    unit: UnitId,
    power: &str,
) -> Result<&'w MovementPowerDef, CommandError> {
    let known = world
        .get::<MovementPowers>(entity(world, unit))
        .is_some_and(|m| m.0.iter().any(|p| p.eq_ignore_ascii_case(power)));
    let def = rules(world).movement_power(power);
    match def {
        Some(d) if known => Ok(d),
        _ => Err(CommandError::Unknown {
            unit: name(world, unit),
            kind: "movement power",
            name: power.into(),
        }),
    }
}

fn check_target(
    world: &World,
    unit: UnitId,
    target: UnitId,
    power: &PowerDef,
) -> Result<(), CommandError> {
    if crate::engine::battle::find(world, target).is_none() {
        return Err(CommandError::NoSuchTarget(format!(
            "there is no unit #{}",
            target.0
        )));
    }
    let t = name(world, target);
    if !is_active(world, target) {
        return Err(CommandError::NoSuchTarget(format!("{t} has been defeated")));
    }
    if side_of(world, target) == side_of(world, unit) {
        return Err(CommandError::NoSuchTarget(format!(
            "{t} is on {}'s side",
            name(world, unit)
        )));
    }
    let board = &world.resource::<Map>().0;
    let (from, to) = (cell_of(world, unit), cell_of(world, target));
    let d = board.distance(from, to);
    if d > power.range {
        return Err(CommandError::OutOfReach(format!(
            "{t} is {d} squares away; {} reaches {}",
            power.name, power.range
        )));
    }
    if power.ranged && !board.line_of_sight(from, to) {
        return Err(CommandError::OutOfReach(format!(
            "no line of sight from {from} to {t} at {to}"
        )));
    }
    Ok(())
}

/// Checks a path for a movement power and returns its cost.
pub fn validate_path(
    world: &World,
    unit: UnitId,
    def: &MovementPowerDef,
    path: &[Cell],
    target: Option<UnitId>,
) -> Result<u32, CommandError> {
    validate_path_among(
        world,
        unit,
        def,
        path,
        target,
        crate::engine::battle::occupancy_at(world, unit),
    )
}

/// [`validate_path`] with who stands where already read (as [`occupancy_for`] says).
pub fn validate_path_among(
    world: &World,
    unit: UnitId,
    def: &MovementPowerDef,
    path: &[Cell],
    target: Option<UnitId>,
    occupancy: impl Fn(Cell) -> Occupancy,
) -> Result<u32, CommandError> {
    let board = &world.resource::<Map>().0;
    let Some(&last) = path.last() else {
        return Err(CommandError::PathBlocked(
            "the path is empty (use EndTurn to stay put)".into(),
        ));
    };
    let goal = if def.charge {
        let t = target.ok_or_else(|| {
            CommandError::NoSuchTarget(format!("{} needs an enemy to charge", def.name))
        })?;
        if !is_active(world, t) || side_of(world, t) == side_of(world, unit) {
            return Err(CommandError::NoSuchTarget(format!(
                "{} is not an enemy in play",
                name(world, t)
            )));
        }
        Some(cell_of(world, t))
    } else {
        None
    };
    let words = crate::engine::battle::PathWords {
        apart: true,
        ..Default::default()
    };
    // P-GAP-04: every step of a charge ends closer to its target.
    let charge = |cur: Cell, c: Cell, _: Occupancy| match goal {
        Some(g) if board.distance(c, g) >= board.distance(cur, g) => {
            Err(CommandError::PathBlocked(format!(
                "charging: the step to {c} does not end closer to the target"
            )))
        }
        _ => Ok(()),
    };
    let cost =
        crate::engine::battle::check_steps_with(world, unit, path, occupancy, words, charge)?;
    let budget = def.distance.budget(speed(world, unit));
    if cost > budget {
        return Err(CommandError::NotEnoughMovement {
            cost,
            budget,
            power: def.name.clone(),
        });
    }
    if let Some(g) = goal
        && board.distance(last, g) != 1
    {
        return Err(CommandError::OutOfReach(
            "a charge must end next to its target".into(),
        ));
    }
    Ok(cost)
}

/// Every legal command now (filtered through [`check`]).
pub fn legal(world: &World) -> Vec<Command> {
    let mut out = Vec::new();
    if let Some(p) = &world.resource::<Pending>().0 {
        // Nobody, then each offered unit alone.
        out.extend(p.answers().cloned());
        return out;
    }
    let turn = world.resource::<TurnState>();
    let Some(unit) = turn.active else { return out };
    out.push(Command::EndTurn { unit });
    let board = &world.resource::<Map>().0;
    let occupancy = occupancy_for(world, unit);
    let start = cell_of(world, unit);
    // The cheapest path to each cell, searched once: the movement powers' fields
    // overlap (Walk's lies within Run's), and a charge ends in one of them too.
    let paths: RefCell<FxHashMap<Cell, Option<Vec<Cell>>>> = RefCell::default();
    let path_to = |c: Cell| -> Option<Vec<Cell>> {
        paths
            .borrow_mut()
            .entry(c)
            .or_insert_with(|| board.path(start, c, &occupancy).map(|(p, _)| p))
            .clone()
    };
    // The cells a movement power's budget reaches.
    let field_of = |def: &MovementPowerDef| {
        board.movement_field(start, def.distance.budget(speed(world, unit)), &occupancy)
    };
    let moves = |def: &MovementPowerDef| -> Vec<Vec<Cell>> {
        field_of(def)
            .keys()
            .filter(|&&c| c != start)
            .filter_map(|&c| path_to(c))
            .collect()
    };
    let enemies: Vec<UnitId> = active_units(world)
        .into_iter()
        .filter(|&u| side_of(world, u) != side_of(world, unit))
        .collect();
    match turn.stage {
        Stage::Movement => {
            let names = world
                .get::<MovementPowers>(entity(world, unit))
                .map(|m| m.0.clone())
                .unwrap_or_default();
            let config = rules(world);
            for n in names {
                let Some(def) = config.movement_power(&n) else {
                    continue;
                };
                if def.charge {
                    // Only the cells next to an enemy that the charge's budget
                    // reaches: a path to any other is refused for its length (on a
                    // big map, searching paths to every far enemy was most of it).
                    let field = field_of(def);
                    for &t in &enemies {
                        for c in board.within(cell_of(world, t), 1) {
                            if !field.contains_key(&c) {
                                continue;
                            }
                            if let Some(path) = path_to(c) {
                                out.push(Command::Move {
                                    unit,
                                    power: def.name.clone(),
                                    path,
                                    options: charge_options(t),
                                });
                            }
                        }
                    }
                } else {
                    for path in moves(def) {
                        out.push(Command::move_along(unit, def.name.clone(), path));
                    }
                }
            }
        }
        Stage::Attack => {
            out.push(PhasesAction::Defend.by(unit));
            out.push(PhasesAction::Delay.by(unit));
            let powers = world
                .get::<Powers>(entity(world, unit))
                .map(|p| p.0.clone())
                .unwrap_or_default();
            for p in &powers {
                for &t in &enemies {
                    out.push(Command::attack(unit, t, Some(p.name.clone())));
                }
            }
            if let Ok(def) = disengage_power(world) {
                // Each reachable cell once, by the shortest way (`disengage_path`).
                for path in moves(&def) {
                    if let Some(&to) = path.last() {
                        out.push(PhasesAction::Disengage { to }.by(unit));
                    }
                }
            }
            let items = world
                .get::<Items>(entity(world, unit))
                .map(|i| i.0.clone())
                .unwrap_or_default();
            for it in items {
                match it.effect {
                    ItemEffect::Power(_) => {
                        out.extend(enemies.iter().map(|&t| Command::ActivateItem {
                            unit,
                            item: it.name.clone(),
                            target: Some(t),
                        }))
                    }
                    _ => out.push(Command::ActivateItem {
                        unit,
                        item: it.name.clone(),
                        target: None,
                    }),
                }
            }
        }
        _ => {}
    }
    out.retain(|c| check(world, c).is_ok());
    out
}
