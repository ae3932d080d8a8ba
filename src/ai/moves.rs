//! Cheap movement candidates: one cost tree over the board from the mover's cell
//! instead of the ruleset's full list of legal paths (which prices a path to every
//! reachable cell for every movement power).
//!
//! How far each movement power goes is asked of the ruleset itself, generically: the
//! AI submits the path to the farthest cell of the tree to `Battle::check`, and the
//! refusal (`NotEnoughMovement { budget }`) names the power's budget; a power that
//! wants a target (`NoSuchTarget`) is a charge. Every command built here is checked
//! again before the AI submits it.

use pathfinding::prelude::{dijkstra, dijkstra_reach};

use crate::engine::battle::{Battle, occupancy_for};
use crate::engine::board::{Board, Cell, Occupancy};
use crate::engine::command::{Command, CommandError};
use crate::engine::units::UnitId;

/// The first cost cap of the tree; doubled while some power goes farther.
const FIRST_CAP: u32 = 16;
/// Extra cost per threatened cell left on a "safe" path (dominates movement cost).
const LEAVE_PENALTY: u32 = 64;

/// Every cell the mover can reach, with the cheapest cost and the step it came from.
pub(crate) struct Tree {
    width: i32,
    start: Cell,
    /// By cell index: `(parent, cost)` once reached.
    nodes: Vec<Option<(Cell, u32)>>,
    /// Cells the mover may end on, in order of cost (the start excluded).
    pub ends: Vec<Cell>,
    /// Whether the cap cut the search short.
    truncated: bool,
}

impl Tree {
    /// Cheapest paths from `start` up to `cap`, passing allies, never entering
    /// enemies (as `occupancy` says).
    pub fn build(
        board: &Board,
        start: Cell,
        cap: u32,
        occupancy: &dyn Fn(Cell) -> Occupancy,
    ) -> Tree {
        let width = board.width() as i32;
        let mut nodes = vec![None; (board.width() * board.height()) as usize];
        let mut ends = Vec::new();
        let mut truncated = false;
        let reach = dijkstra_reach(&start, |&c: &Cell| {
            board
                .neighbors(c)
                .into_iter()
                .filter(|&n| occupancy(n) != Occupancy::Blocked)
                .filter_map(|n| board.step_cost(n).map(|cost| (n, cost)))
                .collect::<Vec<_>>()
        });
        for item in reach {
            if item.total_cost > cap {
                truncated = true;
                break;
            }
            let c = item.node;
            nodes[(c.y * width + c.x) as usize] = Some((item.parent.unwrap_or(c), item.total_cost));
            if c != start && occupancy(c) == Occupancy::Free {
                ends.push(c);
            }
        }
        Tree {
            width,
            start,
            nodes,
            ends,
            truncated,
        }
    }

    /// The cheapest cost to `cell`, if reached.
    pub fn cost(&self, cell: Cell) -> Option<u32> {
        self.nodes
            .get((cell.y * self.width + cell.x) as usize)
            .and_then(|n| n.map(|(_, c)| c))
    }

    /// The cells entered on the cheapest path to `cell` (start excluded).
    pub fn path(&self, cell: Cell) -> Vec<Cell> {
        let mut out = Vec::new();
        let mut cur = cell;
        while cur != self.start {
            out.push(cur);
            match self.nodes[(cur.y * self.width + cur.x) as usize] {
                Some((parent, _)) => cur = parent,
                None => return Vec::new(),
            }
        }
        out.reverse();
        out
    }

    /// The end cell farthest away (the last one reached).
    fn farthest(&self) -> Option<Cell> {
        self.ends.last().copied()
    }
}

/// A movement power the mover can use now, and how far it goes.
#[derive(Clone, Debug)]
pub(crate) struct Power {
    /// Its name (`None` for the Disengage battle action, which has no name).
    pub name: Option<String>,
    /// Movement it allows (the cap of the tree when it goes at least that far).
    pub budget: u32,
    /// Wants an enemy to charge.
    pub charge: bool,
}

/// Builds the command that moves `unit` with `power` along `path`.
pub(crate) fn command(
    unit: UnitId,
    power: &Power,
    path: Vec<Cell>,
    target: Option<UnitId>,
) -> Command {
    match &power.name {
        Some(name) => Command::Move {
            unit,
            power: name.clone(),
            path,
            target,
        },
        None => Command::Disengage { unit, path },
    }
}

/// What a probe of one power said.
enum Probe {
    /// Goes at least the probed distance.
    Reaches,
    /// Goes this far.
    Budget(u32),
    /// Needs a target.
    Charge,
    /// Can't be used now.
    Unusable,
}

fn probe(battle: &Battle, unit: UnitId, power: &Power, path: Vec<Cell>) -> Probe {
    match battle.check(&command(unit, power, path, None)) {
        Ok(()) => Probe::Reaches,
        Err(CommandError::NotEnoughMovement { budget, .. }) => Probe::Budget(budget),
        Err(CommandError::NoSuchTarget(_)) if power.name.is_some() => Probe::Charge,
        Err(_) => Probe::Unusable,
    }
}

/// The movement options of `unit` now: the tree of cells and the powers that can
/// be used, each with its budget. `names` are the movement powers to try (`None`
/// for the Disengage battle action). Empty when the unit can't move now.
pub(crate) fn options(
    battle: &Battle,
    unit: UnitId,
    names: &[Option<String>],
) -> Option<(Tree, Vec<Power>)> {
    let world = battle.world();
    let board = &world.resource::<crate::engine::battle::Map>().0;
    let occupancy = occupancy_for(world, unit);
    let start = crate::engine::battle::cell_of(world, unit);
    // A one-step probe first: most of the time (wrong stage, slowed, used) nothing
    // moves and no tree is needed.
    let step = board
        .neighbors(start)
        .into_iter()
        .find(|&n| occupancy(n) == Occupancy::Free && board.step_cost(n) == Some(1));
    let mut candidates: Vec<Power> = Vec::new();
    for name in names {
        let power = Power {
            name: name.clone(),
            budget: 0,
            charge: false,
        };
        let ok = match step {
            Some(n) => !matches!(probe(battle, unit, &power, vec![n]), Probe::Unusable),
            // Boxed in or only rough ground around: decide with the tree.
            None => true,
        };
        if ok {
            candidates.push(power);
        }
    }
    if candidates.is_empty() {
        return None;
    }
    let limit = (board.width() + board.height()) * 2;
    let mut cap = FIRST_CAP;
    loop {
        let tree = Tree::build(board, start, cap, &occupancy);
        let far = tree.farthest()?;
        let far_cost = tree.cost(far).unwrap_or(0);
        let mut powers = Vec::new();
        let mut wants_more = false;
        for p in &candidates {
            match probe(battle, unit, p, tree.path(far)) {
                Probe::Reaches => {
                    wants_more |= tree.truncated;
                    powers.push(Power {
                        budget: far_cost,
                        ..p.clone()
                    });
                }
                Probe::Budget(b) => powers.push(Power {
                    budget: b.min(far_cost),
                    ..p.clone()
                }),
                Probe::Charge => powers.push(Power {
                    budget: far_cost,
                    charge: true,
                    ..p.clone()
                }),
                Probe::Unusable => {}
            }
        }
        if wants_more && cap < limit {
            cap = (cap * 2).min(limit);
            continue;
        }
        powers.retain(|p| p.budget > 0);
        if powers.is_empty() {
            return None;
        }
        return Some((tree, powers));
    }
}

/// A path from `start` to `goal` on which every step ends closer to `target`'s cell
/// (what a charge needs), cheapest first.
pub(crate) fn charge_path(
    board: &Board,
    start: Cell,
    goal: Cell,
    target: Cell,
    occupancy: &dyn Fn(Cell) -> Occupancy,
) -> Option<Vec<Cell>> {
    let (cells, _) = dijkstra(
        &start,
        |&c: &Cell| {
            let d = board.distance(c, target);
            board
                .neighbors(c)
                .into_iter()
                .filter(|&n| board.distance(n, target) < d && occupancy(n) != Occupancy::Blocked)
                .filter_map(|n| board.step_cost(n).map(|cost| (n, cost)))
                .collect::<Vec<_>>()
        },
        |&c| c == goal,
    )?;
    Some(cells[1..].to_vec())
}

/// The cheapest path from `start` to `goal` that leaves as few threatened cells as it
/// can (`threat(cell)` = how many enemies threaten it).
pub(crate) fn safe_path(
    board: &Board,
    start: Cell,
    goal: Cell,
    threat: &dyn Fn(Cell) -> u32,
    occupancy: &dyn Fn(Cell) -> Occupancy,
) -> Option<Vec<Cell>> {
    let (cells, _) = dijkstra(
        &start,
        |&c: &Cell| {
            let leave = threat(c) * LEAVE_PENALTY;
            board
                .neighbors(c)
                .into_iter()
                .filter(|&n| occupancy(n) != Occupancy::Blocked)
                .filter_map(|n| board.step_cost(n).map(|cost| (n, cost + leave)))
                .collect::<Vec<_>>()
        },
        |&c| c == goal,
    )?;
    Some(cells[1..].to_vec())
}

/// The movement cost of a path.
pub(crate) fn cost_of(board: &Board, path: &[Cell]) -> u32 {
    path.iter().filter_map(|&c| board.step_cost(c)).sum()
}
