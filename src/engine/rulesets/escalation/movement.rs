//! `escalation`'s movement (E-32, E-35 … E-39, E-57, E-58, E-GAP-01, E-GAP-11 …
//! E-GAP-13): who is engaged and who makes opportunity attacks, the opportunity
//! attacks a move or a ranged attack provokes before it starts, the Intercept a
//! Free enemy may make on a unit approaching its ally (a pending decision), the
//! steps one by one with readied actions firing on the way, Disengage and a readied
//! Move.

use bevy_ecs::prelude::*;

use super::actions::ActionKind;
use super::attack::{Manner, make_attack};
use super::conditions as names;
use super::events::EscalationEvent;
use super::state::{Ask, check_roll, distance, esc, esc_state_mut, fault, has, rules};
use super::turn::{fire_readied, spend};
use super::units::Stance;
use super::verbs::intercept;
use crate::engine::battle::{
    Map, Pending, Progress, Sides, TurnState, active_units, cell_of, emit, entity, halted,
    is_active, side_of,
};
use crate::engine::board::Cell;
use crate::engine::command::Command;
use crate::engine::conditions::end_where;
use crate::engine::decision::{DecisionOption, PendingDecision, Pick};
use crate::engine::event::Event;
use crate::engine::spec::DecisionPolicy;
use crate::engine::units::{Conditions, SideId, UnitId};

/// The active enemies adjacent to `unit`: those it is engaged with (E-32, E-GAP-01).
pub fn engaged(world: &World, unit: UnitId) -> Vec<UnitId> {
    let side = side_of(world, unit);
    active_units(world)
        .into_iter()
        .filter(|&u| u != unit && side_of(world, u) != side && distance(world, unit, u) == 1)
        .collect()
}

/// The enemies that get an opportunity attack when `unit` moves or makes a ranged
/// attack: engaged, in Melee stance, not Grabbed (E-36, E-38, E-58), and not
/// popped off this turn by a `Pop off` power (E-37).
pub fn provoked_by(world: &World, unit: UnitId) -> Vec<UnitId> {
    let popped: Vec<UnitId> = world
        .get::<Conditions>(entity(world, unit))
        .map(|c| {
            c.0.iter()
                .filter(|c| c.name == names::POPPED_OFF)
                .filter_map(|c| c.source)
                .collect()
        })
        .unwrap_or_default();
    engaged(world, unit)
        .into_iter()
        .filter(|&e| esc(world, e).stance == Stance::Melee && !has(world, e, names::GRABBED))
        .filter(|e| !popped.contains(e))
        .collect()
}

/// Opportunity attacks on `unit` from the engaged enemies in Melee stance, before
/// it moves or shoots (E-36, E-38, E-GAP-12). False when it no longer stands.
pub(super) fn provoke(world: &mut World, unit: UnitId) -> bool {
    for enemy in provoked_by(world, unit) {
        if !is_active(world, enemy) {
            continue;
        }
        emit(
            world,
            EscalationEvent::Provoked {
                attacker: enemy,
                mover: unit,
            },
        );
        make_attack(world, enemy, unit, None, Manner::Opportunity);
        if !is_active(world, unit) || halted(world) {
            return false;
        }
    }
    true
}

/// Moves `mover` along `path`: opportunity attacks first when `provokes`, then the
/// Intercept question to the other side, then the steps (E-38, E-39).
pub(super) fn travel(world: &mut World, mover: UnitId, path: Vec<Cell>, provokes: bool) {
    if provokes && !provoke(world, mover) {
        return;
    }
    let candidates = interceptors(world, mover, &path);
    let Some(&(first, _)) = candidates.first() else {
        return finish_travel(world, mover, path, None);
    };
    let side = side_of(world, first);
    match world.resource::<Sides>().0[side.0 as usize].decisions {
        DecisionPolicy::Never => finish_travel(world, mover, path, None),
        DecisionPolicy::Auto => finish_travel(world, mover, path, Some(first)),
        DecisionPolicy::Ask => {
            let decision = intercept_decision(world, side, mover, &candidates);
            esc_state_mut(world).asking.0 = Some(Ask::Intercept { mover, path });
            world.resource_mut::<Pending>().0 = Some(decision);
            world.resource_mut::<Progress>().0 = true;
        }
    }
}

fn intercept_decision(
    world: &World,
    side: SideId,
    mover: UnitId,
    candidates: &[(UnitId, UnitId)],
) -> PendingDecision {
    let n = |u: UnitId| crate::engine::battle::name(world, u);
    let allies: Vec<String> = candidates.iter().map(|&(_, a)| n(a)).collect();
    let ally = allies.first().cloned().unwrap_or_default();
    PendingDecision {
        side,
        prompt: format!("{} is moving to engage {ally}. Intercept?", n(mover)),
        about: format!("intercept {} on its way to {ally}", n(mover)),
        pick: Pick::One,
        options: candidates
            .iter()
            .map(|&(u, a)| {
                DecisionOption::new(
                    intercept(side, u),
                    format!("{} intercepts (protects {})", n(u), n(a)),
                )
                .value(1.0)
            })
            .collect(),
        decline: Some(DecisionOption::new(Command::Pass { side }, "Let it pass")),
        lookahead: false,
    }
}

/// The Free units that may intercept `mover` walking `path`, each with the ally it
/// protects (E-35, E-39, E-GAP-13): the path ends next to an ally it did not start
/// next to; the interceptor is not engaged, within Nearby of that ally, flies if
/// the mover flies, and can reach a cell next to the mover's path this move.
pub fn interceptors(world: &World, mover: UnitId, path: &[Cell]) -> Vec<(UnitId, UnitId)> {
    let Some(&end) = path.last() else {
        return Vec::new();
    };
    let board = &world.resource::<Map>().0;
    let start = cell_of(world, mover);
    let side = side_of(world, mover);
    let nearby = nearby_limit(world);
    let flying = esc(world, mover).flying;
    let mut out = Vec::new();
    let actives = active_units(world);
    for &ally in &actives {
        let at = cell_of(world, ally);
        if side_of(world, ally) == side
            || board.distance(end, at) != 1
            || board.distance(start, at) <= 1
        {
            continue;
        }
        for &u in &actives {
            if u == ally
                || side_of(world, u) != side_of(world, ally)
                || out.iter().any(|&(o, _)| o == u)
                || !engaged(world, u).is_empty()
                || board.distance(cell_of(world, u), at) > nearby
                || (flying && !esc(world, u).flying)
            {
                continue;
            }
            if intercept_point(world, u, mover, path).is_some() {
                out.push((u, ally));
            }
        }
    }
    out
}

/// The farthest distance that is still Nearby (E-GAP-01: 7).
pub fn nearby_limit(world: &World) -> u32 {
    let bands = &rules(world).bands;
    bands
        .index_of("Nearby")
        .and_then(|i| bands.span(i))
        .map_or(7, |(_, hi)| hi)
}

/// Where `by` stops `mover` walking `path`: the first step index whose cell `by`
/// can stand next to with one move, and that cell (E-GAP-13).
fn intercept_point(
    world: &World,
    by: UnitId,
    mover: UnitId,
    path: &[Cell],
) -> Option<(usize, Cell)> {
    let board = &world.resource::<Map>().0;
    let speed = rules(world).speed;
    let mover_at = cell_of(world, mover);
    let base = crate::engine::battle::occupancy_for(world, by);
    let occupancy = move |c: Cell| {
        if c == mover_at {
            crate::engine::board::Occupancy::Free
        } else {
            base(c)
        }
    };
    let field = board.movement_field(cell_of(world, by), speed, &occupancy);
    let stands = crate::engine::battle::occupancy_for(world, mover);
    for (k, &step) in path.iter().enumerate() {
        // The mover must be able to stop there (not on an ally's cell).
        if stands(step) != crate::engine::board::Occupancy::Free {
            continue;
        }
        let best = field
            .iter()
            .filter(|&(&c, _)| {
                board.distance(c, step) == 1 && !path[..=k].contains(&c) && c != mover_at
            })
            .min_by_key(|&(&c, &cost)| (cost, c))
            .map(|(&c, _)| c);
        if let Some(c) = best {
            return Some((k, c));
        }
    }
    None
}

/// The steps of a move; stopped by `by`'s Intercept when it intercepts (E-39).
pub(super) fn finish_travel(world: &mut World, mover: UnitId, path: Vec<Cell>, by: Option<UnitId>) {
    let before = engaged(world, mover);
    finish_steps(world, mover, path, by);
    super::interrupts::queue_engagements(world, mover, &before);
}

/// The steps of [`finish_travel`].
fn finish_steps(world: &mut World, mover: UnitId, path: Vec<Cell>, by: Option<UnitId>) {
    let stop = by.and_then(|u| intercept_point(world, u, mover, &path).map(|p| (u, p)));
    let until = stop.map_or(path.len(), |(_, (k, _))| k + 1);
    for &to in &path[..until] {
        step(world, mover, to);
        // Readied attacks wait for a cell the mover could stop on (not an ally's).
        if can_stop(world, mover, to) && !fire_readied(world, mover) {
            return;
        }
    }
    if let Some((u, (_, cell))) = stop {
        emit(
            world,
            Event::MovementStopped {
                unit: mover,
                reason: format!("intercepted by {}", crate::engine::battle::name(world, u)),
            },
        );
        let ally = interceptors_ally(world, mover, &path, u);
        let occupancy = crate::engine::battle::occupancy_for(world, u);
        let route = world
            .resource::<Map>()
            .0
            .path(cell_of(world, u), cell, &occupancy);
        if let Some((cells, _)) = route {
            for to in cells {
                step(world, u, to);
            }
        }
        emit(
            world,
            EscalationEvent::Intercepted {
                unit: u,
                mover,
                ally,
            },
        );
    }
}

/// Whether `unit` could end a move on `cell` (nobody else stands there).
fn can_stop(world: &World, unit: UnitId, cell: Cell) -> bool {
    crate::engine::battle::occupancy_for(world, unit)(cell) == crate::engine::board::Occupancy::Free
}

/// The ally an interceptor protects: the unit of its side next to the path's end.
fn interceptors_ally(world: &World, mover: UnitId, path: &[Cell], by: UnitId) -> UnitId {
    let end = path.last().copied().unwrap_or(cell_of(world, mover));
    let board = &world.resource::<Map>().0;
    active_units(world)
        .into_iter()
        .find(|&a| {
            a != by
                && side_of(world, a) == side_of(world, by)
                && board.distance(end, cell_of(world, a)) == 1
        })
        .unwrap_or(by)
}

/// One step of a move.
fn step(world: &mut World, unit: UnitId, to: Cell) {
    let from = cell_of(world, unit);
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
}

/// Disengage (a Move action): 3d6 against 11 + 1 per engaged enemy after the first;
/// success pops off them all and moves to `to`, failure loses the Move action
/// (E-37, E-58, E-GAP-11).
pub(super) fn disengage(world: &mut World, unit: UnitId, to: Cell, except: Option<UnitId>) {
    spend(world, unit, ActionKind::Move, "Disengage");
    let mut enemies = engaged(world, unit);
    enemies.retain(|&e| Some(e) != except);
    let difficulty = rules(world).disengage_difficulty(enemies.len() as u32);
    // E-58: Grabbed gives 1 Disadvantage to disengage from the grabber, unless the
    // unit hit it with an attack this round.
    let round = world.resource::<TurnState>().round;
    let hits = esc(world, unit).hits.clone();
    let grabbed = world
        .get::<Conditions>(entity(world, unit))
        .is_some_and(|c| {
            c.0.iter().any(|c| {
                c.name == names::GRABBED
                    && c.source
                        .is_some_and(|s| enemies.contains(&s) && !hits.contains(&(s, round)))
            })
        });
    let aided = has(world, unit, names::DICEY_AID);
    let net = i32::from(aided) - i32::from(grabbed);
    if aided {
        end_where(world, unit, "used on this Disengage", |c| {
            c.name == names::DICEY_AID
        });
    }
    let purpose = match (aided, grabbed) {
        (true, true) => "Disengage (1 Advantage: Dicey Aid; 1 Disadvantage: Grabbed)",
        (true, false) => "Disengage (1 Advantage: Dicey Aid)",
        (false, true) => "Disengage (1 Disadvantage: Grabbed)",
        (false, false) => "Disengage",
    };
    // E-37: success is 3d6 >= the Difficulty.
    let ok = match check_roll(world, unit, purpose.into(), net, Vec::new(), difficulty) {
        Ok(ok) => ok,
        Err(e) => return fault(world, e),
    };
    if !ok {
        emit(
            world,
            Event::MovementStopped {
                unit,
                reason: "failed to disengage: the Move action is lost".into(),
            },
        );
        return;
    }
    // E-GAP-11: an engaged enemy it chose not to disengage from still gets its
    // opportunity attack when it moves.
    if let Some(x) = except
        && provoked_by(world, unit).contains(&x)
    {
        emit(
            world,
            EscalationEvent::Provoked {
                attacker: x,
                mover: unit,
            },
        );
        make_attack(world, x, unit, None, Manner::Opportunity);
        if !is_active(world, unit) || halted(world) {
            return;
        }
    }
    let occupancy = crate::engine::battle::occupancy_for(world, unit);
    let route = world
        .resource::<Map>()
        .0
        .path(cell_of(world, unit), to, &occupancy);
    if let Some((cells, _)) = route {
        travel(world, unit, cells, false);
    }
}

/// A readied Move (E-20): the unit walks to the cell it named, provoking
/// opportunity attacks as any move does (E-38); it goes nowhere when the cell is
/// taken or out of one Move's reach by then.
pub(super) fn readied_move(world: &mut World, unit: UnitId, to: Cell) {
    let occupancy = crate::engine::battle::occupancy_for(world, unit);
    let route = world
        .resource::<Map>()
        .0
        .path(cell_of(world, unit), to, &occupancy);
    let Some((cells, _)) = route.filter(|(_, cost)| *cost <= rules(world).speed) else {
        emit(
            world,
            Event::MovementStopped {
                unit,
                reason: format!("its readied Move can't reach {to} now"),
            },
        );
        return;
    };
    if !provoke(world, unit) {
        return;
    }
    let before = engaged(world, unit);
    for c in cells {
        step(world, unit, c);
    }
    super::interrupts::queue_engagements(world, unit, &before);
}
