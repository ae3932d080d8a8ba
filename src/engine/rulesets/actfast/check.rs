//! Whether a command is legal in `actfast` now, and why not (a typed refusal in the
//! game's words), and every legal command (for the AI, the window and property
//! tests).

use bevy_ecs::world::World;

use super::attack::weapon;
use super::movement;
use super::state::{self, MOVE, TurnBudget, au, carries, distance, rules, turn_budget};
use super::stats::{AttackKind, Condition};
use super::turn;
use super::verbs;
use crate::engine::battle::{
    Map, Pending, TurnState, active_units, cell_of, entity, is_active, name, occupancy_for, side_of,
};
use crate::engine::board::{Cell, Occupancy};
use crate::engine::command::{Command, CommandError};
use crate::engine::spec::ItemEffect;
use crate::engine::units::{Conditions, Items, Powers, UnitId};
use crate::engine::verb::Args;

/// Whether `command` is legal now.
pub fn check(world: &World, command: &Command) -> Result<(), CommandError> {
    let Some(unit) = crate::engine::battle::turn_of(world, command)? else {
        return Ok(());
    };
    if !is_active(world, unit) {
        return Err(CommandError::Defeated(name(world, unit)));
    }
    match command {
        Command::EndTurn { .. } => Ok(()),
        Command::Move { power, path, .. } => check_move(world, unit, power, path),
        Command::Attack {
            target,
            power,
            options,
            ..
        } => check_attack(
            world,
            unit,
            *target,
            power.as_deref(),
            movement::approach_of(options),
        ),
        Command::ActivateItem { item, .. } => check_item(world, unit, item),
        Command::Act { verb, .. } => check_verb(world, unit, verb),
        _ => Err(CommandError::NoDecisionPending),
    }
}

fn budget(world: &World) -> TurnBudget {
    *turn_budget(world)
}

fn forbid(text: String) -> Result<(), CommandError> {
    Err(CommandError::Forbidden(text))
}

/// A unit with no action left, or a feared unit that fled this turn and may only
/// go on fleeing (A-GAP-14).
fn can_act(world: &World, unit: UnitId, what: &str) -> Result<(), CommandError> {
    let t = budget(world);
    if t.actions == 0 {
        return forbid(format!(
            "{} has no action left this turn",
            name(world, unit)
        ));
    }
    if carries(world, unit, Condition::Fear) && t.moved && what != MOVE {
        return forbid(format!(
            "{} is fleeing its fear this turn: every action must be a Move away from it \
             (A-24, A-GAP-14)",
            name(world, unit)
        ));
    }
    Ok(())
}

/// What a unit's conditions forbid about moving (A-18 … A-24), in words.
fn cant_move(world: &World, unit: UnitId) -> Option<String> {
    let who = name(world, unit);
    if carries(world, unit, Condition::Immobilized) {
        return Some(format!("{who} is Immobilized: it can't move (A-21)"));
    }
    if carries(world, unit, Condition::Grappled) {
        return Some(format!(
            "{who} is Grappled: it can't move (A-19); Escape (key G) first"
        ));
    }
    None
}

/// Where a feared unit's fear comes from: the condition's source, else the nearest
/// enemy.
fn fear_source(world: &World, unit: UnitId) -> Option<UnitId> {
    let source = world
        .get::<Conditions>(entity(world, unit))?
        .0
        .iter()
        .find(|c| c.name == Condition::Fear.name())
        .and_then(|c| c.source)
        .filter(|&s| is_active(world, s));
    source.or_else(|| {
        active_units(world)
            .into_iter()
            .filter(|&e| side_of(world, e) != side_of(world, unit))
            .min_by_key(|&e| (distance(world, unit, e), e))
    })
}

fn check_move(world: &World, unit: UnitId, power: &str, path: &[Cell]) -> Result<(), CommandError> {
    if power != MOVE {
        return Err(CommandError::Unknown {
            unit: name(world, unit),
            kind: "movement power",
            name: power.to_string(),
        });
    }
    can_act(world, unit, MOVE)?;
    if let Some(why) = cant_move(world, unit) {
        return forbid(why);
    }
    let t = budget(world);
    let who = name(world, unit);
    let conds = state::conds(world, unit);
    // A Restrained unit's Move is its entire turn: not once it has acted.
    let acted = t.moved || t.other || t.attacks > 0;
    let restrained_late = conds.contains(&Condition::Restrained) && acted;
    if restrained_late || super::order::move_cost(t.actions, &conds).is_none() {
        return forbid(if conds.contains(&Condition::Prone) && !restrained_late {
            format!(
                "{who} is Prone: standing up takes an action before it moves (A-18), and it \
                 has {} left; Stand up (key J) first",
                t.actions
            )
        } else {
            format!(
                "{who} is Restrained: a Move takes its whole turn (A-20), and it has acted already"
            )
        });
    }
    if t.limit.move_or_attack && t.attacks > 0 {
        return forbid(format!(
            "{who} is a Slow NPC: it moves or attacks, not both (A-22)"
        ));
    }
    if carries(world, unit, Condition::Fear) {
        if t.other {
            return forbid(format!(
                "{who} is afraid and did something else this turn: it stays in place (A-24, \
                 A-GAP-14)"
            ));
        }
        if let (Some(src), Some(&end)) = (fear_source(world, unit), path.last()) {
            let board = &world.resource::<Map>().0;
            let from = cell_of(world, src);
            if board.distance(end, from) <= board.distance(cell_of(world, unit), from) {
                return forbid(format!(
                    "{who} is afraid of {}: a Move must end farther from it (A-24, A-GAP-14)",
                    name(world, src)
                ));
            }
        }
    }
    check_path(world, unit, path)?;
    let cost = movement::path_cost(world, path).unwrap_or(u32::MAX);
    let budget = au(world, unit).moves;
    if cost > budget {
        return Err(CommandError::NotEnoughMovement {
            cost,
            budget,
            power: "a Move action (A-GAP-02)".into(),
        });
    }
    Ok(())
}

/// A path of adjacent, enterable squares, not through enemies, ending on a free
/// square.
pub fn check_path(world: &World, unit: UnitId, path: &[Cell]) -> Result<(), CommandError> {
    crate::engine::battle::check_steps(
        world,
        unit,
        path,
        crate::engine::battle::PathWords {
            through_enemy: ": no moving through enemies",
            ends_occupied: "",
            ..Default::default()
        },
    )
    .map(|_| ())
}

fn check_attack(
    world: &World,
    unit: UnitId,
    target: UnitId,
    power: Option<&str>,
    approach: &[Cell],
) -> Result<(), CommandError> {
    let who = name(world, unit);
    let them = name(world, target);
    if target == unit || !is_active(world, target) {
        return Err(CommandError::NoSuchTarget(format!(
            "{them} is not in the fight"
        )));
    }
    if side_of(world, target) == side_of(world, unit) {
        return Err(CommandError::NoSuchTarget(format!(
            "{them} is on {who}'s side"
        )));
    }
    let Some(w) = weapon(world, unit, power) else {
        return Err(CommandError::Unknown {
            unit: who,
            kind: "weapon",
            name: power.unwrap_or_default().to_string(),
        });
    };
    can_act(world, unit, "attack")?;
    if carries(world, unit, Condition::Immobilized) {
        return forbid(format!("{who} is Immobilized: it can't attack (A-21)"));
    }
    let t = budget(world);
    if let Some(max) = t.limit.max_attacks
        && t.attacks >= max
    {
        return forbid(format!(
            "{who} has made its attack this turn: an NPC makes at most {max} a turn (A-GAP-07)"
        ));
    }
    if t.limit.move_or_attack && (t.moved || !approach.is_empty()) {
        return forbid(format!(
            "{who} is a Slow NPC: it moves or attacks, not both (A-22)"
        ));
    }
    let cfg = rules(world);
    let d = distance(world, unit, target);
    let band = cfg.band(d).unwrap_or("Distant");
    match w.kind {
        AttackKind::Ranged => {
            if !approach.is_empty() {
                return forbid(format!(
                    "{} is a ranged weapon: a ranged attack includes no approach; Move first",
                    w.name
                ));
            }
            if !cfg.in_reach(false, d) {
                return Err(CommandError::OutOfReach(format!(
                    "{them} is {d} squares away ({band} range): ranged attacks reach {} \
                     (A-10, A-11, A-GAP-01)",
                    cfg.ranged_bands.join(", ")
                )));
            }
            if !world
                .resource::<Map>()
                .0
                .line_of_sight(cell_of(world, unit), cell_of(world, target))
            {
                return Err(CommandError::OutOfReach(format!("{who} can't see {them}")));
            }
            Ok(())
        }
        AttackKind::Melee if approach.is_empty() => {
            if cfg.in_reach(true, d) {
                return Ok(());
            }
            Err(CommandError::OutOfReach(if cfg.can_charge(d) {
                format!(
                    "{them} is {d} squares away ({band} range): a melee attack from there \
                     includes its approach (A-13); give the squares it moves through"
                )
            } else {
                format!(
                    "{them} is {d} squares away ({band} range): a melee attack reaches the \
                     Melee band, or moves in from {} range (A-13, A-14)",
                    cfg.charge_band
                )
            }))
        }
        AttackKind::Melee => {
            if cfg.in_reach(true, d) {
                return forbid(format!(
                    "{who} is next to {them} already: attack without an approach"
                ));
            }
            if !cfg.can_charge(d) {
                return Err(CommandError::OutOfReach(format!(
                    "{them} is {d} squares away ({band} range): a melee attack moves in only \
                     from {} range (A-13)",
                    cfg.charge_band
                )));
            }
            if let Some(why) = cant_move(world, unit) {
                return forbid(why);
            }
            for (c, text) in [
                (
                    Condition::Prone,
                    "Prone: stand up (key J) before it moves (A-18)",
                ),
                (
                    Condition::Restrained,
                    "Restrained: a Move takes its whole turn (A-20)",
                ),
                (
                    Condition::Fear,
                    "afraid: it moves only away from its fear (A-24)",
                ),
            ] {
                if carries(world, unit, c) {
                    return forbid(format!("{who} is {text}"));
                }
            }
            check_path(world, unit, approach)?;
            let cost = movement::path_cost(world, approach).unwrap_or(u32::MAX);
            let moves = au(world, unit).moves;
            if cost > moves {
                return Err(CommandError::NotEnoughMovement {
                    cost,
                    budget: moves,
                    power: "the approach of a melee attack (A-13, A-GAP-02)".into(),
                });
            }
            let end = *approach.last().expect("not empty");
            if world
                .resource::<Map>()
                .0
                .distance(end, cell_of(world, target))
                != 1
            {
                return forbid(format!("the approach must end next to {them} (A-GAP-02)"));
            }
            Ok(())
        }
    }
}

fn check_item(world: &World, unit: UnitId, item: &str) -> Result<(), CommandError> {
    let found = world
        .get::<Items>(entity(world, unit))
        .and_then(|i| i.0.iter().find(|i| i.name == item).cloned());
    let Some(def) = found else {
        return Err(CommandError::Unknown {
            unit: name(world, unit),
            kind: "item",
            name: item.to_string(),
        });
    };
    if def.uses == 0 {
        return forbid(format!("{item} is used up"));
    }
    if !matches!(def.effect, ItemEffect::Heal(_)) {
        return forbid(format!(
            "`actfast` units only use healing items; {item} is not one"
        ));
    }
    can_act(world, unit, "item")
}

fn check_verb(world: &World, unit: UnitId, verb: &str) -> Result<(), CommandError> {
    let who = name(world, unit);
    if verb == verbs::WAIT {
        return match turn::wait_after(world, unit) {
            Some(_) => Ok(()),
            None => forbid(format!(
                "{who} can wait once a round, before it acts, for a later unit of its side \
                 in the same step (A-GAP-10)"
            )),
        };
    }
    let (needs, text) = match verb {
        verbs::STAND => (vec![Condition::Prone], "is not Prone"),
        verbs::EXTINGUISH => (vec![Condition::Burning], "is not Burning"),
        verbs::ESCAPE => (
            vec![Condition::Grappled, Condition::Restrained],
            "is neither Grappled nor Restrained",
        ),
        verbs::ACT_FAST | verbs::ACT_WELL | verbs::RIPOSTE => {
            return forbid(format!(
                "{verb} answers a question of the battle (the round's choice, a riposte); \
                 none is asked now"
            ));
        }
        other => return forbid(format!("`actfast` has no action `{other}`")),
    };
    if !needs.iter().any(|&c| carries(world, unit, c)) {
        return forbid(format!("{who} {text}"));
    }
    can_act(world, unit, verb)
}

fn act(unit: UnitId, verb: &str) -> Command {
    Command::Act {
        unit,
        verb: verb.into(),
        args: Args::new(),
    }
}

/// Every legal command now. A melee attack on an enemy in Close range comes with
/// its shortest approach ([`movement::approach_path`]).
pub fn legal(world: &World) -> Vec<Command> {
    if let Some(p) = &world.resource::<Pending>().0 {
        return p.answers().cloned().collect();
    }
    let Some(unit) = world.resource::<TurnState>().active else {
        return Vec::new();
    };
    let mut out = vec![Command::EndTurn { unit }];
    if !is_active(world, unit) || budget(world).actions == 0 {
        return out;
    }
    let board = &world.resource::<Map>().0;
    let occupancy = occupancy_for(world, unit);
    let start = cell_of(world, unit);
    let moves = au(world, unit).moves;
    for (goal, _) in board.movement_field(start, moves, &occupancy) {
        if goal == start || occupancy(goal) != Occupancy::Free {
            continue;
        }
        if let Some((path, _)) = board.path(start, goal, &occupancy) {
            out.push(Command::move_along(unit, MOVE, path));
        }
    }
    let powers: Vec<String> = world
        .get::<Powers>(entity(world, unit))
        .map(|p| p.0.iter().map(|p| p.name.clone()).collect())
        .unwrap_or_default();
    let side = side_of(world, unit);
    let cfg = rules(world);
    for target in active_units(world) {
        if side_of(world, target) == side {
            continue;
        }
        let d = distance(world, unit, target);
        for (i, p) in powers.iter().enumerate() {
            let power = (i > 0).then(|| p.clone());
            let approach = match weapon(world, unit, Some(p)).map(|w| w.kind) {
                Some(AttackKind::Melee) if !cfg.in_reach(true, d) => {
                    match movement::approach_path(world, unit, target) {
                        Some(path) => path,
                        None => continue,
                    }
                }
                _ => Vec::new(),
            };
            out.push(Command::Attack {
                unit,
                target,
                power,
                options: movement::approach_options(approach),
            });
        }
    }
    if let Some(items) = world.get::<Items>(entity(world, unit)) {
        for i in &items.0 {
            out.push(Command::ActivateItem {
                unit,
                item: i.name.clone(),
                target: None,
            });
        }
    }
    for v in [verbs::STAND, verbs::EXTINGUISH, verbs::ESCAPE, verbs::WAIT] {
        out.push(act(unit, v));
    }
    out.retain(|c| check(world, c).is_ok());
    out
}
