//! `actfast`'s movement (A-13, A-GAP-02, A-GAP-11): what a path costs in squares
//! (difficult squares cost more), the approach a melee attack may take first, the
//! steps one by one, and the holds a unit leaves behind when it moves away.

use bevy_ecs::prelude::*;

use super::state::{au, distance, rules};
use super::stats::Condition;
use crate::engine::battle::{Map, board_units, cell_of, emit, name, occupancy_for};
use crate::engine::board::{Cell, Occupancy};
use crate::engine::conditions::end_where;
use crate::engine::event::Event;
use crate::engine::units::UnitId;
use crate::engine::verb::{ArgKind, ArgSpec, ArgValue, Args};

/// Grapples and restraints `source` holds end when it leaves play or is no longer
/// next to the held unit (A-GAP-11).
pub(super) fn release(world: &mut World, source: UnitId, gone: bool) {
    for u in board_units(world) {
        if u == source {
            continue;
        }
        let next_to = !gone && distance(world, u, source) <= 1;
        if next_to {
            continue;
        }
        end_where(world, u, &format!("{} let go", name(world, source)), |c| {
            c.source == Some(source)
                && (c.name == Condition::Grappled.name() || c.name == Condition::Restrained.name())
        });
    }
}

/// What a path costs in squares: a difficult square costs
/// [`ActfastConfig::difficult_cost`] (A-GAP-02); `None` through an impassable one.
pub fn path_cost(world: &World, path: &[Cell]) -> Option<u32> {
    let board = &world.resource::<Map>().0;
    let difficult = rules(world).difficult_cost;
    path.iter()
        .map(|&c| {
            board
                .step_cost(c)
                .map(|k| if k > 1 { difficult } else { 1 })
        })
        .sum()
}

/// The option `actfast` declares for its attacks: `approach`, the cells a melee
/// attack moves through first (A-13; left out, it attacks from where it stands).
pub const ATTACK_OPTIONS: &[ArgSpec] = &[ArgSpec::optional(APPROACH, ArgKind::Cells)];

const APPROACH: &str = "approach";

/// The approach an attack's options name (none: from where it stands).
pub fn approach_of(options: &Args) -> &[Cell] {
    options.cells(APPROACH)
}

/// The options of an attack moving along `path` first (none if it is empty).
pub fn approach_options(path: Vec<Cell>) -> Args {
    Args::new().with_opt(
        APPROACH,
        (!path.is_empty()).then_some(ArgValue::Cells(path)),
    )
}

/// The shortest approach of a melee attack on `target` (A-13, A-GAP-02): up to the
/// unit's Move squares to a free square next to the target; `None` when the target
/// is not in the charge band or no such square can be reached.
pub fn approach_path(world: &World, unit: UnitId, target: UnitId) -> Option<Vec<Cell>> {
    let cfg = rules(world);
    let d = distance(world, unit, target);
    if d <= 1 || !cfg.can_charge(d) {
        return None;
    }
    let board = &world.resource::<Map>().0;
    let occupancy = occupancy_for(world, unit);
    let start = cell_of(world, unit);
    let goal_cell = cell_of(world, target);
    let moves = au(world, unit).moves;
    board
        .movement_field(start, moves, &occupancy)
        .into_iter()
        .filter(|&(c, _)| {
            c != start && board.distance(c, goal_cell) == 1 && occupancy(c) == Occupancy::Free
        })
        .filter_map(|(c, _)| {
            let (path, _) = board.path(start, c, &occupancy)?;
            let cost = path_cost(world, &path)?;
            (cost <= moves).then_some((cost, c, path))
        })
        .min_by_key(|(cost, c, _)| (*cost, *c))
        .map(|(_, _, p)| p)
}

/// Moves `mover` along `path`; holds it leaves behind end (A-GAP-11).
pub(super) fn travel(world: &mut World, mover: UnitId, path: Vec<Cell>) {
    if path.is_empty() {
        return;
    }
    for to in path {
        let from = cell_of(world, mover);
        let cost = path_cost(world, &[to]).unwrap_or(1);
        emit(
            world,
            Event::Moved {
                unit: mover,
                from,
                to,
                cost,
            },
        );
    }
    release(world, mover, false);
}
