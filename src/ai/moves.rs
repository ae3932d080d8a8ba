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
use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};
use std::rc::Rc;

use crate::engine::battle::Battle;
use crate::engine::board::{Board, Cell, GridKind, Occupancy, Terrain};
use crate::engine::command::{Command, CommandError};
use crate::engine::ruleset::Ruleset;
use crate::engine::units::{SideId, UnitId};
use crate::engine::verb::{ArgKind, ArgValue, Args};

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

/// A remembered distance field: shape, step costs, sorted source indices, the
/// distances and, by cell, the source its distance is measured from (so the field
/// can be brought up to date when a few sources move, see [`Grid::field`]).
struct FieldEntry {
    shape: Shape,
    cost: Costs,
    starts: Vec<u32>,
    dist: Rc<Vec<u32>>,
    label: Vec<u32>,
}

/// The most sources that may differ (left plus arrived) for a field to be brought
/// up to date from a remembered one instead of searched anew.
const FIELD_UPDATE_MAX: usize = 16;

/// The fewest cells a board needs for fields to be brought up to date rather than
/// searched anew: on a small board (the 24×24 bench level) a whole search costs
/// less than the update's bookkeeping.
const FIELD_UPDATE_CELLS: usize = 64 * 64;

/// Step costs by cell index (`None` = impassable), shared by the decisions of a
/// battle.
type Costs = Rc<Vec<Option<u32>>>;

/// A board's shape and terrain, its step costs and the largest step cost.
type CostEntry = (Shape, Vec<Terrain>, Costs, u32);

/// Who stands on each cell (side and unit), by cell index.
type Standing = Vec<Option<(SideId, UnitId)>>;

thread_local! {
    /// Neighbour lists by board shape: they depend only on the grid kind and size.
    static ADJACENCY: RefCell<BTreeMap<Shape, Adjacency>> =
        const { RefCell::new(BTreeMap::new()) };
    /// The last distance fields, most recent first: they depend only on the terrain
    /// and the sources (the enemies' cells), which stay put for several decisions.
    static FIELDS: RefCell<Vec<FieldEntry>> = const { RefCell::new(Vec::new()) };
    /// Bucket storage [`Buckets`] hand back, so searches don't grow new buckets.
    static SPARE_BUCKETS: RefCell<Vec<Vec<u32>>> = const { RefCell::new(Vec::new()) };
    /// The last board's terrain and its step costs: the terrain doesn't change
    /// during a battle, so each decision shares one cost array (and the distance
    /// fields recognise it without comparing it cell by cell).
    /// (With the largest step cost.)
    static COSTS: RefCell<Option<CostEntry>> = const { RefCell::new(None) };
    /// The `standing` array a [`Grid`] hands back, all empty.
    static SPARE_STANDING: RefCell<Option<Standing>> = const { RefCell::new(None) };
    /// Per-cell search storage [`Tree`]s hand back (all unreached), so a search
    /// touches only the cells it reaches instead of clearing whole-board arrays.
    static SPARE_NODES: RefCell<Vec<Vec<(u32, u32)>>> = const { RefCell::new(Vec::new()) };
}

/// The board as flat arrays, for searches.
pub(crate) struct Grid {
    shape: Shape,
    width: i32,
    /// Neighbour indices by cell index (as `Board::neighbors` gives them).
    adjacency: Adjacency,
    /// Step cost by cell index (`None` = impassable).
    cost: Costs,
    /// Who stands on each cell: side and unit, by cell index. Borrowed from a
    /// per-thread spare and handed back, cleared, on drop (a decision on a big map
    /// doesn't clear a whole-board array for a few hundred units).
    standing: Standing,
    /// The cells of `standing` that hold a unit.
    placed: Vec<u32>,
    /// The largest step cost (at least 1).
    max_cost: u32,
}

impl Drop for Grid {
    /// Clears the cells units stood on and keeps the array for the next grid.
    fn drop(&mut self) {
        let mut standing = std::mem::take(&mut self.standing);
        for &i in &self.placed {
            standing[i as usize] = None;
        }
        SPARE_STANDING.with(|spare| *spare.borrow_mut() = Some(standing));
    }
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
        let terrain = board.terrain_cells();
        let (cost, max_cost) = COSTS.with(|cache| {
            let mut cache = cache.borrow_mut();
            match &*cache {
                Some((shape, t, cost, max)) if *shape == key && t.as_slice() == terrain => {
                    (cost.clone(), *max)
                }
                _ => {
                    let cost: Costs = Rc::new(terrain.iter().map(|t| t.cost()).collect());
                    let max = cost.iter().flatten().copied().max().unwrap_or(1).max(1);
                    *cache = Some((key, terrain.to_vec(), cost.clone(), max));
                    (cost, max)
                }
            }
        });
        let mut standing = SPARE_STANDING
            .with(|spare| spare.borrow_mut().take())
            .filter(|s| s.len() == (w * h) as usize)
            .unwrap_or_else(|| vec![None; (w * h) as usize]);
        let mut placed = Vec::new();
        for (side, id, cell) in units {
            if board.contains(cell) {
                let i = (cell.y * w as i32 + cell.x) as usize;
                standing[i] = Some((side, id));
                placed.push(i as u32);
            }
        }
        Grid {
            shape: key,
            width: w as i32,
            adjacency,
            cost,
            standing,
            placed,
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
    ///
    /// Sources (the enemies' cells) change a few at a time between decisions: a
    /// remembered field of the same terrain whose sources differ by a few is
    /// brought up to date (from the new sources, then again around the cells whose
    /// distance came from a source that left) instead of searched anew over the
    /// whole board. The distances are the same either way: only which of several
    /// equally near sources a cell is measured from may differ.
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
            let same_board = |e: &FieldEntry| {
                e.shape == self.shape && (Rc::ptr_eq(&e.cost, &self.cost) || e.cost == self.cost)
            };
            let hit = cache
                .iter()
                .position(|e| e.starts == starts && same_board(e));
            let entry = match hit {
                Some(i) => cache.remove(i),
                None => {
                    // The remembered field of this board with the fewest different
                    // sources, if few enough.
                    let base = cache
                        .iter()
                        .enumerate()
                        .filter(|_| self.len() >= FIELD_UPDATE_CELLS)
                        .filter(|(_, e)| same_board(e))
                        .map(|(i, e)| (differ(&e.starts, &starts), i))
                        .filter(|&(d, _)| d <= FIELD_UPDATE_MAX)
                        .min();
                    match base {
                        Some((_, i)) => {
                            let old = cache.remove(i);
                            let mut dist =
                                Rc::try_unwrap(old.dist).unwrap_or_else(|rc| (*rc).clone());
                            let mut label = old.label;
                            self.update_field(&mut dist, &mut label, &old.starts, &starts);
                            FieldEntry {
                                shape: self.shape,
                                cost: self.cost.clone(),
                                starts,
                                dist: Rc::new(dist),
                                label,
                            }
                        }
                        None => {
                            let (dist, label) = self.search_field(&starts);
                            FieldEntry {
                                shape: self.shape,
                                cost: self.cost.clone(),
                                starts,
                                dist: Rc::new(dist),
                                label,
                            }
                        }
                    }
                }
            };
            let field = entry.dist.clone();
            cache.insert(0, entry);
            cache.truncate(FIELDS_KEPT);
            field
        })
    }

    /// The distance field of `starts` and, by cell, the source each distance is
    /// measured from.
    fn search_field(&self, starts: &[u32]) -> (Vec<u32>, Vec<u32>) {
        let mut dist = vec![u32::MAX; self.len()];
        let mut label = vec![u32::MAX; self.len()];
        let mut queue = Buckets::new(self.max_cost);
        for &i in starts {
            dist[i as usize] = 0;
            label[i as usize] = i;
            queue.push(0, i);
        }
        // Only distances come out, so the order within a bucket doesn't matter.
        while let Some((d, bucket)) = queue.next_bucket(false) {
            for &i in &bucket {
                if dist[i as usize] != d {
                    continue;
                }
                self.relax(i, d, &mut dist, &mut label, |nd, n| queue.push(nd, n));
            }
            queue.recycle(bucket);
        }
        (dist, label)
    }

    /// Brings the field of sources `old` (`dist`, `label`) up to date for sources
    /// `new`. Every cell keeps the invariant "`dist` is the cost from the source
    /// `label`, and no source is cheaper": arrived sources first lower what they
    /// reach sooner; then the cells measured from a source that left are searched
    /// again from their neighbours that are still measured from a source in play
    /// (those keep their distance: a source leaving only lengthens distances).
    fn update_field(&self, dist: &mut [u32], label: &mut [u32], old: &[u32], new: &[u32]) {
        let arrived: Vec<u32> = new
            .iter()
            .copied()
            .filter(|s| old.binary_search(s).is_err())
            .collect();
        let left: Vec<u32> = old
            .iter()
            .copied()
            .filter(|s| new.binary_search(s).is_err())
            .collect();
        let mut heap = BinaryHeap::new();
        for &a in &arrived {
            dist[a as usize] = 0;
            label[a as usize] = a;
            heap.push(Reverse((0, a)));
        }
        self.settle(dist, label, &mut heap);
        if left.is_empty() {
            return;
        }
        let mut lost = Vec::new();
        for (i, l) in label.iter_mut().enumerate() {
            if *l != u32::MAX && left.binary_search(l).is_ok() {
                *l = u32::MAX;
                dist[i] = u32::MAX;
                lost.push(i);
            }
        }
        for &i in &lost {
            let Some(c) = self.cost[i] else {
                continue;
            };
            for &n in self.neighbours(i) {
                let d = dist[n as usize];
                if d != u32::MAX && d + c < dist[i] {
                    dist[i] = d + c;
                    label[i] = label[n as usize];
                }
            }
            if dist[i] != u32::MAX {
                heap.push(Reverse((dist[i], i as u32)));
            }
        }
        self.settle(dist, label, &mut heap);
    }

    /// Runs the search of [`Grid::update_field`] from the cells in `heap`.
    fn settle(
        &self,
        dist: &mut [u32],
        label: &mut [u32],
        heap: &mut BinaryHeap<Reverse<(u32, u32)>>,
    ) {
        while let Some(Reverse((d, i))) = heap.pop() {
            if dist[i as usize] != d {
                continue;
            }
            self.relax(i, d, dist, label, |nd, n| heap.push(Reverse((nd, n))));
        }
    }

    /// Lowers the distance of each neighbour of cell `i` (at distance `d`) that is
    /// cheaper to reach through it, gives it `i`'s source, and hands it to `push`
    /// with its new distance: the step both field searches share.
    #[inline]
    fn relax(
        &self,
        i: u32,
        d: u32,
        dist: &mut [u32],
        label: &mut [u32],
        mut push: impl FnMut(u32, u32),
    ) {
        for &n in self.neighbours(i as usize) {
            let Some(c) = self.cost[n as usize] else {
                continue;
            };
            let nd = d + c;
            if nd < dist[n as usize] {
                dist[n as usize] = nd;
                label[n as usize] = label[i as usize];
                push(nd, n);
            }
        }
    }
}

/// How many of two sorted, deduplicated lists' entries are in only one of them.
fn differ(a: &[u32], b: &[u32]) -> usize {
    let (mut i, mut j, mut n) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => {
                n += 1;
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                n += 1;
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                i += 1;
                j += 1;
            }
        }
    }
    n + (a.len() - i) + (b.len() - j)
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

/// Marks a settled cell in the parent field of [`Tree`]'s per-cell storage while
/// searching (cell indices stay below it: maps are at most 256×256).
const SETTLED: u32 = 1 << 31;

/// Every cell the mover can reach, with the cheapest cost and the step it came from.
pub(crate) struct Tree {
    width: i32,
    start: Cell,
    /// By cell index: `(parent index, cost)`, cost [`UNSEEN`] where not reached.
    /// Borrowed from a per-thread pool and handed back, cleared, on drop.
    nodes: Vec<(u32, u32)>,
    /// The cells whose entry in `nodes` the search wrote (to clear them on drop).
    touched: Vec<u32>,
    /// Cells the mover may end on, in order of cost (the start excluded).
    pub ends: Vec<Cell>,
    /// Whether the cap cut the search short.
    truncated: bool,
}

impl Drop for Tree {
    /// Clears the cells the search reached and gives the storage back to the pool.
    fn drop(&mut self) {
        let mut nodes = std::mem::take(&mut self.nodes);
        for &i in &self.touched {
            nodes[i as usize] = (0, UNSEEN);
        }
        SPARE_NODES.with(|spare| {
            let mut spare = spare.borrow_mut();
            if spare.len() < 4 {
                spare.push(nodes);
            }
        });
    }
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
        // Cost and parent by cell index; `UNSEEN` cost = not reached. Only the cells
        // reached are written (and listed in `touched`), so the search costs what it
        // reaches, not the size of the board.
        let mut nodes = SPARE_NODES
            .with(|spare| spare.borrow_mut().pop())
            .filter(|n| n.len() == grid.len())
            .unwrap_or_else(|| vec![(0, UNSEEN); grid.len()]);
        let mut touched: Vec<u32> = Vec::new();
        let mut ends = Vec::new();
        let mut wanted: Vec<usize> = Vec::new();
        for &t in targets.unwrap_or(&[]) {
            let i = grid.index(t);
            if i < grid.len() && !wanted.contains(&i) {
                wanted.push(i);
            }
        }
        let mut missing = wanted.len();
        let max_leave = leave.map_or(0, |l| l.iter().copied().max().unwrap_or(0));
        // What entering cell `n` costs this mover (0: it can't, impassable or an
        // enemy there).
        let enter = |n: usize| match grid.cost[n] {
            Some(c) if grid.occupancy(n, side, mover) != Occupancy::Blocked => c,
            _ => 0,
        };
        let mut queue = Buckets::new(grid.max_cost + max_leave * LEAVE_PENALTY);
        let s = grid.index(start);
        nodes[s] = (s as u32, 0);
        touched.push(s as u32);
        queue.push(0, s as u32);
        'search: while let Some((d, bucket)) = queue.next_bucket(true) {
            if d > cap {
                break;
            }
            for &i in &bucket {
                let i = i as usize;
                if nodes[i].0 & SETTLED != 0 || nodes[i].1 < d {
                    continue;
                }
                nodes[i].0 |= SETTLED;
                if i != s && grid.occupancy(i, side, mover) == Occupancy::Free {
                    ends.push(grid.cell(i));
                }
                let extra = leave.map_or(0, |l| l[i] * LEAVE_PENALTY);
                for &n in grid.neighbours(i) {
                    let n = n as usize;
                    if nodes[n].0 & SETTLED != 0 {
                        continue;
                    }
                    let c = enter(n);
                    if c == 0 {
                        continue;
                    }
                    let nd = d + c + extra;
                    if nd < nodes[n].1 {
                        if nodes[n].1 == UNSEEN {
                            touched.push(n as u32);
                        }
                        nodes[n] = (i as u32, nd);
                        queue.push(nd, n as u32);
                    }
                }
                if targets.is_some() && wanted.contains(&i) {
                    missing -= 1;
                    if missing == 0 {
                        break 'search;
                    }
                }
            }
            queue.recycle(bucket);
        }
        // Cells reached but not settled lie beyond the cap (or the targets): they
        // count as not reached.
        let mut truncated = false;
        for &i in &touched {
            let node = &mut nodes[i as usize];
            if node.0 & SETTLED != 0 {
                node.0 &= !SETTLED;
            } else {
                truncated = true;
                node.1 = UNSEEN;
            }
        }
        Tree {
            width: grid.width,
            start,
            nodes,
            touched,
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
            .filter(|n| n.1 != UNSEEN)
            .map(|n| n.1)
    }

    /// The cells entered on the cheapest path to `cell` (start excluded).
    pub fn path(&self, cell: Cell) -> Vec<Cell> {
        let mut out = Vec::with_capacity(16);
        let mut cur = cell;
        while cur != self.start {
            out.push(cur);
            match self.nodes.get((cur.y * self.width + cur.x) as usize) {
                Some(&(parent, cost)) if cost != UNSEEN => {
                    cur = Cell::new(parent as i32 % self.width, parent as i32 / self.width)
                }
                _ => return Vec::new(),
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
/// the unnamed power the ruleset's [`crate::engine::ruleset::AiHints::unprovoking_move`] (`None` if it has
/// none).
/// The move options that charge `target`: the ruleset's move option that takes a
/// unit (`phases`' `target`), if it declares one.
fn charge_options(rules: &dyn Ruleset, target: UnitId) -> Args {
    rules
        .move_options()
        .iter()
        .find(|a| a.kind == ArgKind::Unit)
        .map_or_else(Args::new, |a| {
            Args::new().with(a.name, ArgValue::Unit(target))
        })
}

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
            options: target.map_or_else(Args::new, |t| charge_options(rules, t)),
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
