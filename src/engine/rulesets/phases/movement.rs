//! Movement Phase (P-12, P-15 … P-21, P-GAP-04, P-GAP-08, P-GAP-09, P-GAP-12):
//! seize declarations, then each unit uses one movement power, step by step,
//! provoking opportunity attacks when it leaves a threatened square.

use super::pools;

use bevy_ecs::prelude::*;

use super::conditions::*;
use super::config::MovementPowerDef;
use super::events::PhasesEvent;
use super::initiative::{battle_order, movement_order};
use super::{Step, attack, guarded, round, round_mut, rules};
use crate::engine::battle::{
    Incoming, Map, Pending, Progress, Sides, TurnState, cell_of, emit, entity, halted, is_active,
    occupancy_for, side_of,
};
use crate::engine::board::{Cell, Occupancy};
use crate::engine::command::{Command, CommandError};
use crate::engine::conditions::{Condition, Duration};
use crate::engine::decision::{DecisionOption, PendingDecision, Pick};
use crate::engine::event::{Event, Stage};
use crate::engine::spec::DecisionPolicy;
use crate::engine::units::*;
use crate::engine::walk::{self, Walk};

/// Runs the Movement Phase: seize declarations, then movement turns in order.
pub fn movement_phase(world: &mut World) {
    guarded(world, |world| {
        loop {
            if halted(world) {
                return Ok(());
            }
            match round(world).step {
                Step::Seize => {
                    if !seize_step(world) {
                        return Ok(());
                    }
                }
                Step::Movement => {
                    if !movement_step(world)? {
                        return Ok(());
                    }
                }
                _ => return Ok(()),
            }
        }
    });
}

/// The seize decision (P-15, P-GAP-12) for `side`'s `eligible` units (ascending
/// initiative): one option per unit, `Seize(units: [unit])`, any several of them
/// (merged into one `Seize`), or nobody. Each option is worth [`seize_value`].
pub fn seize_decision(world: &World, side: SideId, eligible: &[UnitId]) -> PendingDecision {
    let name = |u: UnitId| crate::engine::battle::name(world, u);
    PendingDecision {
        side,
        prompt: "Seize the initiative? A seizer moves first and battles last; attackers \
                 gain advantage against it this round."
            .into(),
        about: "decide which units seize the initiative".into(),
        pick: Pick::Several,
        options: eligible
            .iter()
            .map(|&u| {
                let seize = Command::Seize {
                    side,
                    units: vec![u],
                };
                DecisionOption::new(seize, format!("{} seizes", name(u)))
                    .value(seize_value(world, u))
            })
            .collect(),
        decline: Some(DecisionOption::new(
            Command::Seize {
                side,
                units: vec![],
            },
            "Nobody seizes",
        )),
        lookahead: true,
    }
}

/// Movement a unit without a Speed stat is assumed to have when judging a seize
/// (the guess the AI made before it asked the ruleset; kept so AI choices stay the
/// same).
const GUESSED_SPEED: u32 = 6;

/// What seizing the initiative is worth to `unit` (P-15): the best chance of a
/// kill (50% or more) on an enemy just out of its reach that it could reach this
/// round and that could otherwise walk away first; 0 when no such kill is likely or
/// when an enemy already threatens it (a seizer battles last). The `Normal` AI
/// seizes with every unit worth more than 0.
pub fn seize_value(world: &World, unit: UnitId) -> f64 {
    let board = &world.resource::<Map>().0;
    let units = &world.resource::<crate::engine::battle::Roster>().0;
    let me = entity(world, unit);
    let (Some(my), Some(at)) = (world.get::<Unit>(me), world.get::<Position>(me)) else {
        return 0.0;
    };
    let (my_side, at) = (my.side, at.0);
    // Enemies still in play, in roster order.
    let enemies: Vec<(UnitId, Cell, u32)> = units
        .iter()
        .enumerate()
        .filter(|(_, e)| world.get::<PlayState>(**e).is_none_or(|s| s.is_active()))
        .filter_map(|(i, &e)| {
            let side = world.get::<Unit>(e)?.side;
            let cell = world.get::<Position>(e)?.0;
            let reach = world.get::<Reach>(e).map_or(1, |r| r.0);
            (side != my_side).then_some((UnitId(i as u32), cell, reach))
        })
        .collect();
    if enemies
        .iter()
        .any(|&(_, cell, reach)| board.distance(cell, at) <= reach)
    {
        return 0.0;
    }
    let powers: Vec<(String, u32)> = world
        .get::<Powers>(me)
        .map(|p| p.0.iter().map(|d| (d.name.clone(), d.range)).collect())
        .unwrap_or_default();
    let range = powers.iter().map(|p| p.1).max().unwrap_or(1);
    let speed = world
        .get::<Stats>(me)
        .and_then(|s| s.0.get("Speed").copied())
        .map_or(GUESSED_SPEED, |s| s.max(0) as u32);
    let mut best = 0.0;
    for &(target, cell, _) in &enemies {
        let d = board.distance(at, cell);
        if d <= range || d > speed + range {
            continue;
        }
        for (power, _) in &powers {
            let odds = super::preview::odds(
                world,
                unit,
                target,
                Some(power),
                crate::engine::ruleset::Assume::default(),
            );
            if let Some(o) = odds
                && o.kill_chance >= 0.5
                && o.kill_chance > best
            {
                best = o.kill_chance;
            }
        }
    }
    best
}

/// One step of the seize declarations; false when waiting for an answer.
fn seize_step(world: &mut World) -> bool {
    if world.resource::<Pending>().0.is_some() {
        let Some(Command::Seize { units, .. }) =
            take_incoming(world, |c| matches!(c, Command::Seize { .. }))
        else {
            return false;
        };
        world.resource_mut::<Pending>().0 = None;
        let round = world.resource::<TurnState>().round;
        for u in units {
            emit(world, PhasesEvent::Seized { unit: u });
            attack::add_condition(
                world,
                u,
                Condition::new(SEIZED, Duration::EndOfRound(round)),
            );
            round_mut(world).seizers.push(u);
        }
        return true;
    }
    let next = round_mut(world).to_ask.pop_front();
    if let Some(side) = next {
        let policy = world.resource::<Sides>().0[side.0 as usize].decisions;
        let eligible: Vec<UnitId> = round(world)
            .descending
            .iter()
            .rev()
            .copied()
            .filter(|&u| side_of(world, u) == side && is_active(world, u))
            .collect();
        if policy == DecisionPolicy::Ask && !eligible.is_empty() {
            let decision = seize_decision(world, side, &eligible);
            world.resource_mut::<Pending>().0 = Some(decision);
            world.resource_mut::<Progress>().0 = true;
            return false;
        }
        return true;
    }
    let flow = round(world);
    let order = movement_order(&flow.descending, &flow.seizers);
    emit(
        world,
        Event::OrderSet {
            stage: Stage::Movement,
            order: order.clone(),
        },
    );
    let flow = round_mut(world);
    flow.queue = order.into();
    flow.step = Step::Movement;
    true
}

/// Takes the incoming command if it matches.
pub(super) fn take_incoming(
    world: &mut World,
    matches: impl Fn(&Command) -> bool,
) -> Option<Command> {
    let mut incoming = world.resource_mut::<Incoming>();
    if incoming.0.as_ref().is_some_and(matches) {
        incoming.0.take()
    } else {
        None
    }
}

/// One step of the movement turns; false when waiting for a command.
fn movement_step(world: &mut World) -> Result<bool, CommandError> {
    let Some(active) = world.resource::<TurnState>().active else {
        let next = loop {
            match round_mut(world).queue.pop_front() {
                Some(u) if is_active(world, u) => break Some(u),
                Some(_) => continue,
                None => break None,
            }
        };
        let Some(unit) = next else {
            // Movement Phase over: Battle Phase in descending order (P-13).
            emit(
                world,
                Event::StageStarted {
                    stage: Stage::Attack,
                },
            );
            let flow = round(world);
            let order = battle_order(&flow.descending, &flow.seizers);
            emit(
                world,
                Event::OrderSet {
                    stage: Stage::Attack,
                    order: order.clone(),
                },
            );
            let flow = round_mut(world);
            flow.queue = order.into();
            flow.step = Step::Battle;
            return Ok(false);
        };
        emit(
            world,
            Event::TurnStarted {
                unit,
                stage: Stage::Movement,
            },
        );
        let blocked = rules(world).slowed_at_start_blocks;
        if blocked && has(world, unit, SLOWED) {
            // P-18 / P-GAP-09: Slowed at the start of movement means no movement.
            emit(
                world,
                Event::MovementStopped {
                    unit,
                    reason: "Slowed: it cannot move (P-18)".into(),
                },
            );
            emit(world, Event::TurnEnded { unit });
        }
        return Ok(true);
    };
    match take_incoming(world, |c| {
        matches!(c, Command::Move { .. } | Command::EndTurn { .. })
    }) {
        Some(Command::Move {
            unit,
            power,
            path,
            target,
        }) => {
            let def = rules(world)
                .movement_power(&power)
                .cloned()
                .ok_or_else(|| CommandError::Unknown {
                    unit: String::new(),
                    kind: "movement power",
                    name: power,
                })?;
            spend(world, unit, pools::MOVEMENT_POWER, &def.name);
            execute_move(world, unit, &def, &path, target)?;
            if !halted(world) {
                emit(world, Event::TurnEnded { unit });
            }
            Ok(true)
        }
        Some(_) => {
            emit(world, Event::TurnEnded { unit: active });
            Ok(true)
        }
        None => Ok(false),
    }
}

pub(super) use crate::engine::conditions::has;

/// Spends one unit of a pool on `what` (a movement power, "Attack", ...).
pub(super) fn spend(world: &mut World, unit: UnitId, pool: Pool, what: &str) {
    let left = world
        .get::<ActionPool>(entity(world, unit))
        .map_or(0, |p| p.left(pool));
    set_pool(world, unit, pool, (left - 1).max(0), what);
}

/// Sets a unit's pool to `value` through a quiet [`Event::PointsChanged`] (the log
/// already tells the spending and the new round in other lines); nothing when it
/// already holds `value`, or the unit has no pools.
pub(super) fn set_pool(world: &mut World, unit: UnitId, pool: Pool, value: i32, reason: &str) {
    let Some(before) = world
        .get::<ActionPool>(entity(world, unit))
        .map(|p| p.left(pool))
    else {
        return;
    };
    if before == value {
        return;
    }
    emit(
        world,
        Event::PointsChanged {
            unit,
            pool,
            delta: value - before,
            now: value,
            reason: reason.into(),
            quiet: true,
        },
    );
}

/// Units that threaten `cell` against `mover`: enemies in play within their reach
/// (P-19), in roster order.
pub fn threateners(world: &World, mover: UnitId, cell: Cell) -> Vec<UnitId> {
    let side = side_of(world, mover);
    let board = &world.resource::<Map>().0;
    // Asked at every step of every move: one query over the units' table, then
    // the roster order of the few found.
    let mut found: Vec<UnitId> = crate::engine::battle::standing(world)
        .into_iter()
        .filter(|b| b.state.is_active() && b.side != side)
        .filter(|b| {
            let reach = world.get::<Reach>(b.entity).map_or(1, |r| r.0);
            board.distance(b.cell, cell) <= reach
        })
        .filter_map(|b| crate::engine::battle::unit_of(world, b.entity))
        .filter(|&u| u != mover && melee_power(world, u).is_some())
        .collect();
    found.sort_unstable();
    found
}

/// The power a unit uses for opportunity attacks: its first melee power, else the
/// ruleset default (P-GAP-08).
pub fn melee_power(world: &World, unit: UnitId) -> Option<crate::engine::spec::PowerDef> {
    let powers = world.get::<Powers>(entity(world, unit))?;
    powers
        .0
        .iter()
        .find(|p| !p.ranged)
        .cloned()
        .or_else(|| Some(rules(world).default_power.clone()))
}

/// How many opportunity attacks moving along `path` would provoke, for previews:
/// each enemy that could make one (see [`opportunity_foes`]) counts once if some
/// cell the mover leaves is within its reach.
pub fn provocations(world: &World, mover: UnitId, def: &MovementPowerDef, path: &[Cell]) -> usize {
    if !def.provokes {
        return 0;
    }
    let foes = opportunity_foes(world, mover);
    let board = &world.resource::<Map>().0;
    let mut seen = vec![false; foes.len()];
    let mut cur = cell_of(world, mover);
    for &next in path {
        for (i, &(c, reach)) in foes.iter().enumerate() {
            if !seen[i] && board.distance(c, cur) <= reach {
                seen[i] = true;
            }
        }
        cur = next;
    }
    seen.iter().filter(|&&s| s).count()
}

/// What [`opportunity_foes`] reads of every unit (kept in the world:
/// [`crate::engine::queries`]).
pub(super) type FoeQuery = (
    Entity,
    &'static Position,
    &'static Unit,
    Option<&'static PlayState>,
    Option<&'static Reach>,
    Has<Powers>,
);

/// The cell and reach of each enemy in play of `mover` that could make an
/// opportunity attack (one with powers), read with one query over the units' table
/// (in its order: a count doesn't depend on it).
fn opportunity_foes(world: &World, mover: UnitId) -> Vec<(Cell, u32)> {
    let side = side_of(world, mover);
    let me = crate::engine::battle::find(world, mover);
    // Every battle world registers the components read (`Battle::app`).
    crate::engine::queries::read::<FoeQuery, _>(world, |q| {
        q.iter()
            .filter(|&(e, _, who, state, _, powers)| {
                Some(e) != me
                    && powers
                    && who.side != side
                    && state.copied().unwrap_or_default().is_active()
            })
            .map(|(_, at, _, _, reach, _)| (at.0, reach.map_or(1, |r| r.0)))
            .collect()
    })
    .unwrap_or_default()
}

/// Moves `unit` along a checked `path` with movement power `def`, resolving
/// opportunity attacks before each threatened square is left (P-20, P-GAP-08) and
/// stopping if the mover is Slowed (P-18) or defeated.
pub fn execute_move(
    world: &mut World,
    unit: UnitId,
    def: &MovementPowerDef,
    path: &[Cell],
    target: Option<UnitId>,
) -> Result<(), CommandError> {
    let speed = speed(world, unit);
    emit(
        world,
        PhasesEvent::MovementPowerUsed {
            unit,
            power: def.name.clone(),
            budget: def.distance.budget(speed),
        },
    );
    let round = world.resource::<TurnState>().round;
    for name in &def.applies {
        let duration = match name.as_str() {
            // P-21 / P-GAP-11: until the end of the next round.
            DISENGAGED => Duration::EndOfRound(round + 1),
            _ => Duration::EndOfRound(round),
        };
        attack::add_condition(world, unit, Condition::new(name.clone(), duration));
    }
    if def.charge {
        let mut c = Condition::new(CHARGING, Duration::EndOfRound(round));
        c.about = target;
        attack::add_condition(world, unit, c);
    }
    let mut walk = Walk::new(path.to_vec(), def.provokes);
    let mut cur = cell_of(world, unit);
    // Where the mover could last have stopped: it may pass allies but never end on one.
    let mut last_free = cur;
    loop {
        match walk.next(cur, |from| threateners(world, unit, from)) {
            walk::Step::Triggered { by, .. } => {
                for t in by {
                    emit(
                        world,
                        PhasesEvent::OpportunityAttack {
                            attacker: t,
                            mover: unit,
                            cell: cur,
                        },
                    );
                    let Some(power) = melee_power(world, t) else {
                        continue;
                    };
                    attack::resolve(world, t, unit, &power, true)?;
                    if !is_active(world, unit) || halted(world) {
                        return Ok(());
                    }
                    if has(world, unit, SLOWED) {
                        emit(
                            world,
                            Event::MovementStopped {
                                unit,
                                reason: format!("Slowed at {cur}: movement ends (P-18)"),
                            },
                        );
                        step_back_off_ally(world, unit, cur, last_free);
                        return Ok(());
                    }
                }
            }
            walk::Step::Enter { from, to } => {
                let cost = world.resource::<Map>().0.step_cost(to).unwrap_or(1);
                emit(
                    world,
                    Event::Moved {
                        unit,
                        from,
                        to,
                        cost,
                    },
                );
                cur = to;
                if crate::engine::battle::occupancy_at(world, unit)(cur) == Occupancy::Free {
                    last_free = cur;
                }
            }
            walk::Step::Done => return Ok(()),
        }
    }
}

/// A move stopped on an ally's square (Slowed while passing through) ends on the last
/// square the mover could have stopped on instead, so no two units share a cell.
fn step_back_off_ally(world: &mut World, unit: UnitId, cur: Cell, last_free: Cell) {
    if cur != last_free && occupancy_for(world, unit)(cur) != Occupancy::Free {
        let reason = format!("it cannot stop on an ally's square: back to {last_free}");
        emit(world, Event::MovementStopped { unit, reason });
        emit(
            world,
            Event::Moved {
                unit,
                from: cur,
                to: last_free,
                cost: 0,
            },
        );
    }
}

/// A unit's Speed (stat, else the configured default).
pub fn speed(world: &World, unit: UnitId) -> u32 {
    let stats = world.get::<Stats>(entity(world, unit));
    match stats.and_then(|s| s.0.get("Speed")) {
        Some(&s) => s.max(0) as u32,
        None => rules(world).speed,
    }
}
