//! Cheap movement candidates: one cost tree over the board from the mover's cell
//! instead of the ruleset's full list of legal paths (which prices a path to every
//! reachable cell for every movement power).
//!
//! How far each movement power goes is asked of the ruleset itself, generically: the
//! AI submits the path to the farthest cell of the tree to `Battle::check`, and the
//! refusal (`NotEnoughMovement { budget }`) names the power's budget; a power that
//! wants a target (`NoSuchTarget`) is a charge. Every command built here is checked
//! again before the AI submits it.
//!
//! Speed: the searches run on [`Grid`], flat per-cell arrays (neighbours by index,
//! step costs, who stands where) built once per decision, with a bucket queue (step
//! costs are small integers) and no allocation per step.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use crate::engine::battle::Battle;
use crate::engine::board::{Board, Cell, GridKind, Occupancy};
use crate::engine::command::{Command, CommandError};
use crate::engine::rulesets::Ruleset;
use crate::engine::units::{SideId, UnitId};

/// The first cost cap of the tree; doubled while some power goes farther.
const FIRST_CAP: u32 = 16;
/// Extra cost per threatened cell left on a "safe" path (dominates movement cost).
const LEAVE_PENALTY: u32 = 64;

/// Cost of a cell not reached yet, in searches.
const UNSEEN: u32 = u32::MAX;

/// Neighbour indices by cell index, flat: the neighbours of cell `i` are
/// `list[start[i]..start[i + 1]]`.
struct Neighbours {
    start: Vec<u32>,
    list: Vec<u32>,
}

/// Shared neighbour lists.
type Adjacency = Rc<Neighbours>;

/// Board shape: hex?, width, height.
type Shape = (bool, u32, u32);

/// How many distance fields [`Grid::field`] remembers.
const FIELDS_KEPT: usize = 8;

/// A remembered distance field: shape, step costs and sorted source indices.
type FieldEntry = ((Shape, Vec<Option<u32>>, Vec<u32>), Rc<Vec<u32>>);

thread_local! {
    /// Neighbour lists by board shape: they depend only on the grid kind and size.
    static ADJACENCY: RefCell<BTreeMap<Shape, Adjacency>> =
        const { RefCell::new(BTreeMap::new()) };
    /// The last distance fields, most recent first: they depend only on the terrain
    /// and the sources (the enemies' cells), which stay put for several decisions.
    static FIELDS: RefCell<Vec<FieldEntry>> = const { RefCell::new(Vec::new()) };
    /// Bucket storage [`Buckets`] hand back, so searches don't grow new buckets.
    static SPARE_BUCKETS: RefCell<Vec<Vec<u32>>> = const { RefCell::new(Vec::new()) };
}

/// The board as flat arrays, for searches.
pub(crate) struct Grid {
    shape: Shape,
    width: i32,
    /// Neighbour indices by cell index (as `Board::neighbors` gives them).
    adjacency: Adjacency,
    /// Step cost by cell index (`None` = impassable).
    cost: Vec<Option<u32>>,
    /// Who stands on each cell: side and unit, by cell index.
    standing: Vec<Option<(SideId, UnitId)>>,
    /// The largest step cost (at least 1).
    max_cost: u32,
}

impl Grid {
    /// Reads `board` and where the active `units` (side, id, cell) stand.
    pub fn new(board: &Board, units: impl Iterator<Item = (SideId, UnitId, Cell)>) -> Grid {
        let (w, h) = (board.width(), board.height());
        let key = (board.kind() == GridKind::Hex, w, h);
        let adjacency = ADJACENCY.with(|cache| {
            cache
                .borrow_mut()
                .entry(key)
                .or_insert_with(|| {
                    let mut start = Vec::with_capacity((w * h) as usize + 1);
                    let mut list = Vec::new();
                    for y in 0..h as i32 {
                        for x in 0..w as i32 {
                            start.push(list.len() as u32);
                            list.extend(
                                board
                                    .neighbors(Cell::new(x, y))
                                    .into_iter()
                                    .map(|n| (n.y * w as i32 + n.x) as u32),
                            );
                        }
                    }
                    start.push(list.len() as u32);
                    Rc::new(Neighbours { start, list })
                })
                .clone()
        });
        let cost: Vec<Option<u32>> = board.terrain_cells().iter().map(|t| t.cost()).collect();
        let mut standing = vec![None; (w * h) as usize];
        for (side, id, cell) in units {
            if board.contains(cell) {
                standing[(cell.y * w as i32 + cell.x) as usize] = Some((side, id));
            }
        }
        let max_cost = cost.iter().flatten().copied().max().unwrap_or(1).max(1);
        Grid {
            shape: key,
            width: w as i32,
            adjacency,
            cost,
            standing,
            max_cost,
        }
    }

    /// The neighbours of cell number `i`, by index (in `Board::neighbors` order).
    fn neighbours(&self, i: usize) -> &[u32] {
        let a = &self.adjacency;
        &a.list[a.start[i] as usize..a.start[i + 1] as usize]
    }

    /// Index of a cell on the map.
    pub fn index(&self, cell: Cell) -> usize {
        (cell.y * self.width + cell.x) as usize
    }

    fn cell(&self, index: usize) -> Cell {
        Cell::new(index as i32 % self.width, index as i32 / self.width)
    }

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.cost.len()
    }

    /// Who stands on `cell` as `mover` (of `side`) sees it: allies passable, enemies
    /// blocking (as `occupancy_for` says).
    pub fn occupancy(&self, index: usize, side: SideId, mover: UnitId) -> Occupancy {
        match self.standing[index] {
            None => Occupancy::Free,
            Some((_, id)) if id == mover => Occupancy::Free,
            Some((s, _)) if s == side => Occupancy::Ally,
            Some(_) => Occupancy::Blocked,
        }
    }

    /// Cheapest cost from any of `sources` to every cell over terrain, ignoring units
    /// (`u32::MAX` = unreachable). Remembered for the next few calls.
    pub fn field(&self, sources: impl Iterator<Item = Cell>) -> Rc<Vec<u32>> {
        let mut starts: Vec<u32> = sources
            .map(|s| self.index(s))
            .filter(|&i| i < self.len())
            .map(|i| i as u32)
            .collect();
        starts.sort_unstable();
        starts.dedup();
        FIELDS.with(|cache| {
            let mut cache = cache.borrow_mut();
            let hit = cache.iter().position(|((shape, cost, s), _)| {
                *shape == self.shape && *s == starts && *cost == self.cost
            });
            let entry = match hit {
                Some(i) => cache.remove(i),
                None => {
                    let field = Rc::new(self.search_field(&starts));
                    ((self.shape, self.cost.clone(), starts), field)
                }
            };
            let field = entry.1.clone();
            cache.insert(0, entry);
            cache.truncate(FIELDS_KEPT);
            field
        })
    }

    fn search_field(&self, starts: &[u32]) -> Vec<u32> {
        let mut dist = vec![u32::MAX; self.len()];
        let mut queue = Buckets::new(self.max_cost);
        for &i in starts {
            dist[i as usize] = 0;
            queue.push(0, i);
        }
        // Only distances come out, so the order within a bucket doesn't matter.
        while let Some((d, bucket)) = queue.next_bucket(false) {
            for &i in &bucket {
                if dist[i as usize] != d {
                    continue;
                }
                for &n in self.neighbours(i as usize) {
                    let Some(c) = self.cost[n as usize] else {
                        continue;
                    };
                    let nd = d + c;
                    if nd < dist[n as usize] {
                        dist[n as usize] = nd;
                        queue.push(nd, n);
                    }
                }
            }
            queue.recycle(bucket);
        }
        dist
    }
}

/// A bucket queue for searches whose steps cost at least 1 and at most a known
/// bound: a ring of buckets by cost. It pops the cheapest bucket whole, sorted by cell index when
/// asked, so a search visits cells in the same order a binary heap of
/// `Reverse((cost, index))` would.
struct Buckets {
    /// Buckets by cost modulo their number (a power of two).
    ring: Vec<Vec<u32>>,
    /// The number of buckets less one (a mask).
    mask: usize,
    /// Cost of the next bucket to look at.
    at: u32,
    /// Entries in the ring.
    pending: usize,
}

impl Buckets {
    /// A queue for steps costing at most `max_step` (at least 1).
    fn new(max_step: u32) -> Buckets {
        let len = (max_step as usize + 1).next_power_of_two();
        let mut ring = SPARE_BUCKETS.with(|spare| std::mem::take(&mut *spare.borrow_mut()));
        ring.resize_with(len, Vec::new);
        Buckets {
            ring,
            mask: len - 1,
            at: 0,
            pending: 0,
        }
    }

    /// Adds `index` at cost `d` (not below the bucket being visited, nor more than
    /// the largest step beyond it).
    fn push(&mut self, d: u32, index: u32) {
        let slot = d as usize & self.mask;
        self.ring[slot].push(index);
        self.pending += 1;
    }

    /// The cheapest non-empty bucket and its cost, taken out of the ring (give its
    /// storage back with [`Buckets::recycle`]); `None` when the queue is empty.
    fn next_bucket(&mut self, sorted: bool) -> Option<(u32, Vec<u32>)> {
        if self.pending == 0 {
            return None;
        }
        loop {
            let slot = self.at as usize & self.mask;
            let d = self.at;
            self.at += 1;
            if !self.ring[slot].is_empty() {
                let mut bucket = std::mem::take(&mut self.ring[slot]);
                self.pending -= bucket.len();
                if sorted {
                    bucket.sort_unstable();
                }
                return Some((d, bucket));
            }
        }
    }

    /// Gives back a visited bucket's storage to the ring (or drops it when the ring
    /// got a new one meanwhile).
    fn recycle(&mut self, mut bucket: Vec<u32>) {
        bucket.clear();
        let slot = (self.at as usize).wrapping_sub(1) & self.mask;
        if self.ring[slot].is_empty() {
            self.ring[slot] = bucket;
        }
    }
}

impl Drop for Buckets {
    /// Keeps the (emptied) buckets for the next search.
    fn drop(&mut self) {
        let mut ring = std::mem::take(&mut self.ring);
        ring.iter_mut().for_each(Vec::clear);
        SPARE_BUCKETS.with(|spare| {
            let mut spare = spare.borrow_mut();
            if spare.len() < ring.len() {
                *spare = ring;
            }
        });
    }
}

/// Every cell the mover can reach, with the cheapest cost and the step it came from.
pub(crate) struct Tree {
    width: i32,
    start: Cell,
    /// By cell index: `(parent index, cost)` once reached.
    nodes: Vec<Option<(u32, u32)>>,
    /// Cells the mover may end on, in order of cost (the start excluded).
    pub ends: Vec<Cell>,
    /// Whether the cap cut the search short.
    truncated: bool,
}

impl Tree {
    /// Cheapest paths from `start` up to `cap`, passing allies, never entering
    /// enemies. With `leave`, leaving a cell also costs `leave(cell) ×
    /// LEAVE_PENALTY` (a path that leaves as few threatened cells as it can).
    pub fn build(
        grid: &Grid,
        start: Cell,
        cap: u32,
        mover: (SideId, UnitId),
        leave: Option<&[u32]>,
    ) -> Tree {
        Tree::search(grid, start, cap, mover, leave, None)
    }

    /// Like [`Tree::build`] with no cap, but stops once every cell of `targets` is
    /// settled: their paths are the same as in the whole tree (a settled cell's
    /// path only goes through cells settled before it); other cells may be missing
    /// and `ends` is incomplete.
    pub fn build_for(
        grid: &Grid,
        start: Cell,
        mover: (SideId, UnitId),
        leave: Option<&[u32]>,
        targets: &[Cell],
    ) -> Tree {
        Tree::search(grid, start, u32::MAX, mover, leave, Some(targets))
    }

    fn search(
        grid: &Grid,
        start: Cell,
        cap: u32,
        (side, mover): (SideId, UnitId),
        leave: Option<&[u32]>,
        targets: Option<&[Cell]>,
    ) -> Tree {
        // Cost and parent by cell index; `UNSEEN` cost = not reached.
        let mut nodes: Vec<(u32, u32)> = vec![(0, UNSEEN); grid.len()];
        let mut done = vec![false; grid.len()];
        let mut ends = Vec::with_capacity(grid.len());
        let mut wanted = vec![false; if targets.is_some() { grid.len() } else { 0 }];
        let mut missing = 0;
        for &t in targets.unwrap_or(&[]) {
            let i = grid.index(t);
            if i < wanted.len() && !wanted[i] {
                wanted[i] = true;
                missing += 1;
            }
        }
        let max_leave = leave.map_or(0, |l| l.iter().copied().max().unwrap_or(0));
        // What entering each cell costs this mover (0: it can't, impassable or an
        // enemy there).
        let enter: Vec<u32> = (0..grid.len())
            .map(|n| match grid.cost[n] {
                Some(c) if grid.occupancy(n, side, mover) != Occupancy::Blocked => c,
                _ => 0,
            })
            .collect();
        let mut queue = Buckets::new(grid.max_cost + max_leave * LEAVE_PENALTY);
        let s = grid.index(start);
        nodes[s] = (s as u32, 0);
        queue.push(0, s as u32);
        'search: while let Some((d, bucket)) = queue.next_bucket(true) {
            if d > cap {
                break;
            }
            for &i in &bucket {
                let i = i as usize;
                if done[i] || nodes[i].1 < d {
                    continue;
                }
                done[i] = true;
                if i != s && grid.occupancy(i, side, mover) == Occupancy::Free {
                    ends.push(grid.cell(i));
                }
                let extra = leave.map_or(0, |l| l[i] * LEAVE_PENALTY);
                for &n in grid.neighbours(i) {
                    let n = n as usize;
                    let c = enter[n];
                    if c == 0 || done[n] {
                        continue;
                    }
                    let nd = d + c + extra;
                    if nd < nodes[n].1 {
                        nodes[n] = (i as u32, nd);
                        queue.push(nd, n as u32);
                    }
                }
                if targets.is_some() && wanted[i] {
                    missing -= 1;
                    if missing == 0 {
                        break 'search;
                    }
                }
            }
            queue.recycle(bucket);
        }
        // Cells reached but not settled lie beyond the cap (or the targets).
        let mut truncated = false;
        let nodes = nodes
            .into_iter()
            .zip(done)
            .map(|((parent, cost), done)| {
                truncated |= cost != UNSEEN && !done;
                done.then_some((parent, cost))
            })
            .collect();
        Tree {
            width: grid.width,
            start,
            nodes,
            ends,
            truncated,
        }
    }

    /// The cheapest cost to `cell`, if reached.
    pub fn cost(&self, cell: Cell) -> Option<u32> {
        if cell.x < 0 || cell.y < 0 || cell.x >= self.width {
            return None;
        }
        self.nodes
            .get((cell.y * self.width + cell.x) as usize)
            .and_then(|n| n.map(|(_, c)| c))
    }

    /// The cells entered on the cheapest path to `cell` (start excluded).
    pub fn path(&self, cell: Cell) -> Vec<Cell> {
        let mut out = Vec::with_capacity(16);
        let mut cur = cell;
        while cur != self.start {
            out.push(cur);
            match self.nodes[(cur.y * self.width + cur.x) as usize] {
                Some((parent, _)) => {
                    cur = Cell::new(parent as i32 % self.width, parent as i32 / self.width)
                }
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
    /// Its name (`None` for the ruleset's unprovoking move, `phases`' Disengage
    /// battle action, which is no movement power).
    pub name: Option<String>,
    /// Movement it allows (the cap of the tree when it goes at least that far).
    pub budget: u32,
    /// Wants an enemy to charge.
    pub charge: bool,
}

/// Builds the command that moves `unit` with `power` along `path`: a `Move`, or for
/// the unnamed power the ruleset's [`Ruleset::unprovoking_move`] (`None` if it has
/// none).
pub(crate) fn command(
    rules: &dyn Ruleset,
    unit: UnitId,
    power: &Power,
    path: Vec<Cell>,
    target: Option<UnitId>,
) -> Option<Command> {
    match &power.name {
        Some(name) => Some(Command::Move {
            unit,
            power: name.clone(),
            path,
            target,
        }),
        None => rules.unprovoking_move(unit, &path),
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
    let Some(command) = command(battle.rules(), unit, power, path, None) else {
        return Probe::Unusable;
    };
    match battle.check(&command) {
        Ok(()) => Probe::Reaches,
        Err(CommandError::NotEnoughMovement { budget, .. }) => Probe::Budget(budget),
        Err(CommandError::NoSuchTarget(_)) if power.name.is_some() => Probe::Charge,
        Err(_) => Probe::Unusable,
    }
}

/// The movement options of `unit` (of `side`, at `start`) now: the tree of cells and
/// the powers that can be used, each with its budget. `names` are the movement
/// powers to try (`None` for the Disengage battle action). Empty when the unit can't
/// move now.
pub(crate) fn options(
    battle: &Battle,
    grid: &Grid,
    (side, unit, start): (SideId, UnitId, Cell),
    names: &[Option<String>],
) -> Option<(Tree, Vec<Power>)> {
    // A one-step probe first: most of the time (wrong stage, slowed, used) nothing
    // moves and no tree is needed.
    let step = grid
        .neighbours(grid.index(start))
        .iter()
        .map(|&n| n as usize)
        .find(|&n| grid.occupancy(n, side, unit) == Occupancy::Free && grid.cost[n] == Some(1))
        .map(|n| grid.cell(n));
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
    let limit = (grid.width as u32 + (grid.len() as u32 / grid.width as u32)) * 2;
    let mut cap = FIRST_CAP;
    loop {
        let tree = Tree::build(grid, start, cap, (side, unit), None);
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
    grid: &Grid,
    (side, unit): (SideId, UnitId),
    start: Cell,
    goal: Cell,
    target: Cell,
) -> Option<Vec<Cell>> {
    let (cells, _) = pathfinding::prelude::dijkstra(
        &start,
        |&c: &Cell| {
            let d = board.distance(c, target);
            grid.neighbours(grid.index(c))
                .iter()
                .map(|&n| n as usize)
                .filter(move |&n| grid.occupancy(n, side, unit) != Occupancy::Blocked)
                .filter_map(|n| grid.cost[n].map(|cost| (grid.cell(n), cost)))
                .filter(move |&(n, _)| board.distance(n, target) < d)
        },
        |&c| c == goal,
    )?;
    Some(cells[1..].to_vec())
}

/// The movement cost of a path.
pub(crate) fn cost_of(board: &Board, path: &[Cell]) -> u32 {
    path.iter().filter_map(|&c| board.step_cost(c)).sum()
}
