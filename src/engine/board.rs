//! The battle map: square and hex grids behind one interface.
//!
//! A [`Board`] owns the terrain of a rectangular map and answers every geometric
//! question the rules ask: neighbours, distance, lines and line of sight, reach rings
//! (threat zones), and the movement field / shortest path under terrain cost and
//! occupancy.
//!
//! Cells are always addressed as `(x, y)` = (column, row) of the map as a level author
//! sees it in the level's terrain rows. On square maps that is the geometry too
//! (8 neighbours, Chebyshev distance, every step costs 1). On hex maps the rows are
//! pointy-top hexes in "odd-r" offset layout (odd rows shifted half a hex right), and
//! geometry is done in axial coordinates with `hexx`; [`Board::to_axial`] and
//! [`Board::from_axial`] convert.

use std::collections::BTreeMap;

use hexx::{Hex, HexOrientation, OffsetHexMode};
use serde::{Deserialize, Serialize};

/// Which kind of grid a map uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GridKind {
    /// Squares with 8 neighbours; diagonal steps cost the same as orthogonal ones.
    Square,
    /// Pointy-top hexes in odd-r offset rows; 6 neighbours.
    Hex,
}

/// A cell of the map: column `x`, row `y` (see the module docs for hex maps).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub struct Cell {
    /// Column, 0 at the left.
    pub x: i32,
    /// Row, 0 at the top.
    pub y: i32,
}

impl Cell {
    /// The cell at column `x`, row `y`.
    pub const fn new(x: i32, y: i32) -> Self {
        Self { x, y }
    }
}

impl std::fmt::Display for Cell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

/// What a cell's ground is like for movement.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Terrain {
    /// Costs 1 to enter.
    #[default]
    Open,
    /// Costs 2 to enter (every ruleset doubles difficult terrain).
    Difficult,
    /// Cannot be entered; blocks line of sight.
    Impassable,
    /// Water to swim through: costs 2 to enter, like difficult terrain, in every
    /// ruleset but `wounds`, where it is swimming (half speed, a Maneuverer swims
    /// normally, W-08).
    Water,
    /// A slope, wall or ladder to climb: costs 2 to enter, like difficult terrain, in
    /// every ruleset but `wounds`, where it is climbing (half speed, W-08).
    Climb,
}

impl Terrain {
    /// Every terrain kind, in the order the editor and docs list them.
    pub const ALL: [Terrain; 5] = [
        Terrain::Open,
        Terrain::Difficult,
        Terrain::Impassable,
        Terrain::Water,
        Terrain::Climb,
    ];

    /// The character used for this terrain in a level's terrain rows.
    pub const fn symbol(self) -> char {
        match self {
            Terrain::Open => '.',
            Terrain::Difficult => '~',
            Terrain::Impassable => '#',
            Terrain::Water => 'w',
            Terrain::Climb => '^',
        }
    }

    /// The terrain written as `c` in a level's terrain rows, if any.
    pub const fn from_symbol(c: char) -> Option<Terrain> {
        match c {
            '.' => Some(Terrain::Open),
            '~' => Some(Terrain::Difficult),
            '#' => Some(Terrain::Impassable),
            'w' => Some(Terrain::Water),
            '^' => Some(Terrain::Climb),
            _ => None,
        }
    }

    /// Movement cost to enter a cell of this terrain, or `None` if it can't be entered.
    pub const fn cost(self) -> Option<u32> {
        match self {
            Terrain::Open => Some(1),
            Terrain::Difficult | Terrain::Water | Terrain::Climb => Some(2),
            Terrain::Impassable => None,
        }
    }

    /// How a level writes this terrain and what it is, for messages: `` `.` (open) ``.
    pub fn described(self) -> String {
        let what = match self {
            Terrain::Open => "open",
            Terrain::Difficult => "difficult",
            Terrain::Impassable => "impassable",
            Terrain::Water => "water",
            Terrain::Climb => "climbing",
        };
        format!("`{}` ({what})", self.symbol())
    }
}

/// How a cell's occupant affects a moving unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Occupancy {
    /// Nobody there.
    Free,
    /// An ally of the mover: it may pass through but not stop there.
    Ally,
    /// An enemy of the mover (or anything else that blocks): it may not enter.
    Blocked,
}

/// A rectangular map of terrain on a square or hex grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    kind: GridKind,
    width: u32,
    height: u32,
    /// Row-major, `width * height` cells.
    terrain: Vec<Terrain>,
}

impl Board {
    /// An all-open board of the given kind and size.
    pub fn new(kind: GridKind, width: u32, height: u32) -> Self {
        Self {
            kind,
            width,
            height,
            terrain: vec![Terrain::Open; width as usize * height as usize],
        }
    }

    /// The grid kind.
    pub fn kind(&self) -> GridKind {
        self.kind
    }

    /// Width in cells.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in cells.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Whether `cell` lies on the map.
    pub fn contains(&self, cell: Cell) -> bool {
        cell.x >= 0 && cell.y >= 0 && (cell.x as u32) < self.width && (cell.y as u32) < self.height
    }

    /// Terrain at `cell`; off-map cells read as impassable.
    pub fn terrain(&self, cell: Cell) -> Terrain {
        self.index(cell)
            .map_or(Terrain::Impassable, |i| self.terrain[i])
    }

    /// The terrain of every cell, row-major (`y * width + x`).
    pub fn terrain_cells(&self) -> &[Terrain] {
        &self.terrain
    }

    /// Sets the terrain at `cell` (ignored off the map).
    pub fn set_terrain(&mut self, cell: Cell, terrain: Terrain) {
        if let Some(i) = self.index(cell) {
            self.terrain[i] = terrain;
        }
    }

    /// All cells of the map, row by row.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        (0..self.height as i32)
            .flat_map(move |y| (0..self.width as i32).map(move |x| Cell::new(x, y)))
    }

    /// On-map neighbours of `cell` (8 on squares, 6 on hexes), in a fixed order.
    pub fn neighbors(&self, cell: Cell) -> Vec<Cell> {
        match self.kind {
            GridKind::Square => SQUARE_STEPS
                .iter()
                .map(|&(dx, dy)| Cell::new(cell.x + dx, cell.y + dy))
                .filter(|&n| self.contains(n))
                .collect(),
            GridKind::Hex => Self::to_axial(cell)
                .all_neighbors()
                .into_iter()
                .map(Self::from_axial)
                .filter(|&n| self.contains(n))
                .collect(),
        }
    }

    /// Grid distance: Chebyshev on squares, hex distance on hexes.
    #[inline]
    pub fn distance(&self, a: Cell, b: Cell) -> u32 {
        match self.kind {
            GridKind::Square => a.x.abs_diff(b.x).max(a.y.abs_diff(b.y)),
            GridKind::Hex => Self::to_axial(a).unsigned_distance_to(Self::to_axial(b)),
        }
    }

    /// The cells on the straight line from `a` to `b`, both included.
    pub fn line(&self, a: Cell, b: Cell) -> Vec<Cell> {
        // Always trace from the smaller end so that a line and its reverse cover the
        // same cells: line of sight is then symmetric even where rounding is a tie.
        let (from, to) = if a <= b { (a, b) } else { (b, a) };
        let mut cells = match self.kind {
            GridKind::Square => bresenham(from, to),
            GridKind::Hex => Self::to_axial(from)
                .line_to(Self::to_axial(to))
                .map(Self::from_axial)
                .collect(),
        };
        if from != a {
            cells.reverse();
        }
        cells
    }

    /// Whether `b` can be seen from `a`: no impassable cell strictly between them on
    /// the line (units do not block sight).
    pub fn line_of_sight(&self, a: Cell, b: Cell) -> bool {
        let cells = self.line(a, b);
        let between = &cells[1..cells.len().saturating_sub(1).max(1)];
        // Only on-map walls block: a hex line hugging the map's ragged odd-r edge may
        // round into a half-hex notch outside the map, which hides nothing.
        !between
            .iter()
            .any(|&c| self.contains(c) && self.terrain(c) == Terrain::Impassable)
    }

    /// On-map cells at distance 1..=`reach` from `center` (the center excluded): the
    /// cells a unit with that reach threatens. Sorted.
    pub fn within(&self, center: Cell, reach: u32) -> Vec<Cell> {
        let mut cells: Vec<Cell> = match self.kind {
            GridKind::Square => {
                // Clamp the square of reach to the map so a huge reach stays cheap.
                let r = i64::from(reach);
                let clamp_x = |v: i64| v.clamp(0, i64::from(self.width)) as i32;
                let clamp_y = |v: i64| v.clamp(0, i64::from(self.height)) as i32;
                let (x0, x1) = (
                    clamp_x(i64::from(center.x) - r),
                    clamp_x(i64::from(center.x) + r + 1),
                );
                let (y0, y1) = (
                    clamp_y(i64::from(center.y) - r),
                    clamp_y(i64::from(center.y) + r + 1),
                );
                (y0..y1)
                    .flat_map(|y| (x0..x1).map(move |x| Cell::new(x, y)))
                    .filter(|&c| c != center)
                    .collect()
            }
            GridKind::Hex => {
                // No on-map cell is farther than this, so a larger reach adds nothing.
                let farthest = self
                    .distance(center, Cell::new(0, 0))
                    .saturating_add(self.width.saturating_add(self.height));
                let origin = Self::to_axial(center);
                origin
                    .range(reach.min(farthest))
                    .filter(|&h| h != origin)
                    .map(Self::from_axial)
                    .filter(|&c| self.contains(c))
                    .collect()
            }
        };
        cells.sort_unstable();
        cells
    }

    /// Every cell a unit at `start` can end a move on with at most `budget` movement,
    /// with its cheapest cost (start included at cost 0). Entering costs the target
    /// cell's terrain cost; `occupancy` says who stands where: allies may be passed
    /// through but not ended on, blocked cells are never entered.
    pub fn movement_field(
        &self,
        start: Cell,
        budget: u32,
        occupancy: &dyn Fn(Cell) -> Occupancy,
    ) -> std::collections::BTreeMap<Cell, u32> {
        let mut field = BTreeMap::from([(start, 0)]);
        let can_end = |c: Cell| c != start && occupancy(c) == Occupancy::Free;
        // One Dijkstra search on either grid: it visits cells cheapest first, so it
        // stops at the first one over budget, and prices every cell as it goes
        // (pricing each reachable hex with an A* of its own was quadratic in the
        // reach).
        let reach = pathfinding::prelude::dijkstra_reach(&start, |&c: &Cell| match self.kind {
            GridKind::Square => self.square_steps(c, occupancy),
            GridKind::Hex => self.hex_steps(c, occupancy),
        });
        for item in reach.take_while(|item| item.total_cost <= budget) {
            if can_end(item.node) {
                field.insert(item.node, item.total_cost);
            }
        }
        field
    }

    /// The cheapest path from `start` to `goal` under the same costs as
    /// [`Board::movement_field`], as the cells entered (start excluded, goal last) and
    /// its total cost; `None` when unreachable or when `goal` can't be ended on.
    /// Deterministic: ties break the same way every time.
    pub fn path(
        &self,
        start: Cell,
        goal: Cell,
        occupancy: &dyn Fn(Cell) -> Occupancy,
    ) -> Option<(Vec<Cell>, u32)> {
        if goal == start {
            return Some((Vec::new(), 0));
        }
        if occupancy(goal) != Occupancy::Free || self.enter_cost(goal, occupancy).is_none() {
            return None;
        }
        match self.kind {
            GridKind::Square => {
                let (cells, cost) = pathfinding::prelude::astar(
                    &start,
                    |&c: &Cell| self.square_steps(c, occupancy),
                    |&c: &Cell| self.distance(c, goal),
                    |&c: &Cell| c == goal,
                )?;
                Some((cells[1..].to_vec(), cost))
            }
            GridKind::Hex => self.hex_path(start, goal, occupancy),
        }
    }

    /// Cost of entering `cell` from a neighbour, `None` when it can't be entered.
    pub fn step_cost(&self, cell: Cell) -> Option<u32> {
        self.terrain(cell).cost()
    }

    /// Axial hex coordinate of `cell` (hex maps; odd-r offset → axial).
    pub fn to_axial(cell: Cell) -> hexx::Hex {
        Hex::from_offset_coordinates([cell.x, cell.y], OffsetHexMode::Odd, HexOrientation::Pointy)
    }

    /// The cell at axial hex coordinate `hex` (axial → odd-r offset).
    pub fn from_axial(hex: hexx::Hex) -> Cell {
        let [x, y] = hex.to_offset_coordinates(OffsetHexMode::Odd, HexOrientation::Pointy);
        Cell::new(x, y)
    }

    /// Row-major index of an on-map `cell` into `terrain`.
    fn index(&self, cell: Cell) -> Option<usize> {
        self.contains(cell)
            .then(|| cell.y as usize * self.width as usize + cell.x as usize)
    }

    /// Cost for a mover to enter `cell`: `None` off the map, on impassable terrain or
    /// where [`Occupancy::Blocked`]. Allies do not change the cost (passing through
    /// is allowed; whether the mover may stop there is the caller's business).
    fn enter_cost(&self, cell: Cell, occupancy: &dyn Fn(Cell) -> Occupancy) -> Option<u32> {
        if !self.contains(cell) || occupancy(cell) == Occupancy::Blocked {
            return None;
        }
        self.step_cost(cell)
    }

    /// Square-grid successors of `cell` with their entry costs, in [`SQUARE_STEPS`]
    /// order so that searches break ties the same way every time.
    fn square_steps(&self, cell: Cell, occupancy: &dyn Fn(Cell) -> Occupancy) -> Vec<(Cell, u32)> {
        self.neighbors(cell)
            .into_iter()
            .filter_map(|n| self.enter_cost(n, occupancy).map(|c| (n, c)))
            .collect()
    }

    /// Hex-grid successors of `cell` with their entry costs, in hexx's neighbour
    /// order.
    fn hex_steps(&self, cell: Cell, occupancy: &dyn Fn(Cell) -> Occupancy) -> Vec<(Cell, u32)> {
        Self::to_axial(cell)
            .all_neighbors()
            .into_iter()
            .map(Self::from_axial)
            .filter_map(|n| self.enter_cost(n, occupancy).map(|c| (n, c)))
            .collect()
    }

    /// Cheapest hex path from `start` to `goal` with hexx's A*, as in [`Board::path`]
    /// but without checking whether `goal` may be ended on.
    fn hex_path(
        &self,
        start: Cell,
        goal: Cell,
        occupancy: &dyn Fn(Cell) -> Occupancy,
    ) -> Option<(Vec<Cell>, u32)> {
        let origin = Self::to_axial(start);
        // hexx also asks for the start hex's own cost; standing there is free.
        let hexes = hexx::algorithms::a_star(origin, Self::to_axial(goal), |_, to| {
            if to == origin {
                Some(0)
            } else {
                self.enter_cost(Self::from_axial(to), occupancy)
            }
        })?;
        let cells: Vec<Cell> = hexes.into_iter().skip(1).map(Self::from_axial).collect();
        let cost = cells
            .iter()
            .map(|&c| self.terrain(c).cost().unwrap_or(0))
            .sum();
        Some((cells, cost))
    }
}

/// Square-grid steps to the 8 neighbours, row by row (the fixed neighbour order).
const SQUARE_STEPS: [(i32, i32); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

/// The cells of Bresenham's line from `a` to `b`, both included, in order.
fn bresenham(a: Cell, b: Cell) -> Vec<Cell> {
    let (dx, dy) = ((b.x - a.x).abs(), -(b.y - a.y).abs());
    let (sx, sy) = ((b.x - a.x).signum(), (b.y - a.y).signum());
    let mut err = dx + dy;
    let mut cur = a;
    let mut cells = Vec::with_capacity(dx.max(-dy) as usize + 1);
    loop {
        cells.push(cur);
        if cur == b {
            return cells;
        }
        let e2 = 2 * err;
        if e2 >= dy {
            err += dy;
            cur.x += sx;
        }
        if e2 <= dx {
            err += dx;
            cur.y += sy;
        }
    }
}

/// The first thing wrong with a path, as [`Board::check_path`] finds it walking cell
/// by cell; each ruleset tells it in its own words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathFault<E> {
    /// The path has no cell.
    Empty,
    /// `cell`, entered from `from`, is off the map.
    OffMap {
        /// The cell.
        cell: Cell,
        /// The cell before it.
        from: Cell,
    },
    /// `cell` is not next to `from`, the cell before it.
    NotNext {
        /// The cell.
        cell: Cell,
        /// The cell before it.
        from: Cell,
    },
    /// `cell` can't be entered (impassable terrain).
    Impassable(Cell),
    /// An enemy stands on `cell`.
    Enemy(Cell),
    /// The ruleset's own rule refused a step.
    Rule(E),
    /// Someone stands on `cell`, the last one: a move can't end there.
    EndTaken(Cell),
}

impl Board {
    /// Walks `path` (the cells entered, start excluded) from `start` cell by cell, as
    /// every grid ruleset checks a move (X-05): each cell on the map, next to the one
    /// before it, enterable, with no enemy on it by `occupancy` (allies may be
    /// passed), then `rule(from, to, occupancy of to)`, the ruleset's own rule for the
    /// step (`phases`: a charge's steps close in; `flow`: a grappler dragging its
    /// target passes nobody); the last cell free. Returns the path's cost in terrain
    /// costs, or the first fault found in that order.
    pub fn check_path<E>(
        &self,
        start: Cell,
        path: &[Cell],
        occupancy: impl Fn(Cell) -> Occupancy,
        mut rule: impl FnMut(Cell, Cell, Occupancy) -> Result<(), E>,
    ) -> Result<u32, PathFault<E>> {
        let Some(&end) = path.last() else {
            return Err(PathFault::Empty);
        };
        let mut at = start;
        let mut cost = 0;
        for &cell in path {
            if !self.contains(cell) {
                return Err(PathFault::OffMap { cell, from: at });
            }
            if self.distance(at, cell) != 1 {
                return Err(PathFault::NotNext { cell, from: at });
            }
            let Some(step) = self.step_cost(cell) else {
                return Err(PathFault::Impassable(cell));
            };
            let here = occupancy(cell);
            if here == Occupancy::Blocked {
                return Err(PathFault::Enemy(cell));
            }
            rule(at, cell, here).map_err(PathFault::Rule)?;
            cost += step;
            at = cell;
        }
        if occupancy(end) != Occupancy::Free {
            return Err(PathFault::EndTaken(end));
        }
        Ok(cost)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    const KINDS: [GridKind; 2] = [GridKind::Square, GridKind::Hex];

    /// A board from terrain rows written with [`Terrain::symbol`]s.
    fn board(kind: GridKind, rows: &[&str]) -> Board {
        let mut b = Board::new(kind, rows[0].len() as u32, rows.len() as u32);
        for (y, row) in rows.iter().enumerate() {
            for (x, ch) in row.chars().enumerate() {
                let t = Terrain::from_symbol(ch).expect("terrain symbol");
                b.set_terrain(Cell::new(x as i32, y as i32), t);
            }
        }
        b
    }

    fn nobody(_: Cell) -> Occupancy {
        Occupancy::Free
    }

    /// X-05: a path is walked cell by cell and its first fault is the one told: off
    /// the map, not next to the cell before, impassable, an enemy on it, then the
    /// ruleset's own rule, and the last cell must be free; allies may be passed, and
    /// the cost is the terrain's.
    #[test]
    fn x05_check_path_finds_the_first_fault_in_order() {
        let b = board(GridKind::Square, &["..~#", "...."]);
        let (a, e) = (c(1, 1), c(2, 1));
        let who = occ(&[a], &[e]);
        let any = |_: Cell, _: Cell, _: Occupancy| Ok::<(), &str>(());
        let walk = |path: &[Cell]| b.check_path(c(0, 0), path, &who, any);
        assert_eq!(walk(&[c(1, 0), c(2, 0)]), Ok(3), "difficult costs 2");
        assert_eq!(walk(&[c(1, 1), c(1, 0)]), Ok(2), "an ally is passed");
        assert_eq!(walk(&[]), Err(PathFault::Empty));
        let off = c(-1, 0);
        assert_eq!(
            walk(&[off]),
            Err(PathFault::OffMap {
                cell: off,
                from: c(0, 0)
            })
        );
        let far = c(2, 0);
        assert_eq!(
            walk(&[far]),
            Err(PathFault::NotNext {
                cell: far,
                from: c(0, 0)
            })
        );
        let wall = c(3, 0);
        assert_eq!(
            walk(&[c(1, 0), c(2, 0), wall]),
            Err(PathFault::Impassable(wall))
        );
        assert_eq!(walk(&[c(1, 0), e]), Err(PathFault::Enemy(e)));
        assert_eq!(walk(&[c(1, 0), a]), Err(PathFault::EndTaken(a)));
        // The ruleset's rule sees each step after the shared checks, in order.
        let mut seen = Vec::new();
        let rule = |from: Cell, to: Cell, here: Occupancy| {
            seen.push((from, to, here));
            if to == c(1, 0) { Err("no") } else { Ok(()) }
        };
        let r = b.check_path(c(0, 0), &[a, c(1, 0)], &who, rule);
        assert_eq!(r, Err(PathFault::Rule("no")));
        assert_eq!(
            seen,
            vec![(c(0, 0), a, Occupancy::Ally), (a, c(1, 0), Occupancy::Free)]
        );
    }

    /// Occupancy with the given allies and blockers, everyone else free.
    fn occ(allies: &[Cell], blocked: &[Cell]) -> impl Fn(Cell) -> Occupancy + use<> {
        let (allies, blocked) = (allies.to_vec(), blocked.to_vec());
        move |c| {
            if blocked.contains(&c) {
                Occupancy::Blocked
            } else if allies.contains(&c) {
                Occupancy::Ally
            } else {
                Occupancy::Free
            }
        }
    }

    fn c(x: i32, y: i32) -> Cell {
        Cell::new(x, y)
    }

    #[test]
    fn new_board_is_open_and_off_map_is_impassable() {
        for kind in KINDS {
            let mut b = Board::new(kind, 4, 3);
            assert_eq!((b.kind(), b.width(), b.height()), (kind, 4, 3));
            assert_eq!(b.cells().count(), 12);
            assert!(
                b.cells()
                    .all(|c| b.contains(c) && b.terrain(c) == Terrain::Open)
            );
            for off in [c(-1, 0), c(0, -1), c(4, 0), c(0, 3), c(i32::MIN, i32::MAX)] {
                assert!(!b.contains(off));
                assert_eq!(b.terrain(off), Terrain::Impassable);
                assert_eq!(b.step_cost(off), None);
                b.set_terrain(off, Terrain::Open); // ignored
                assert!(!b.contains(off));
            }
            b.set_terrain(c(3, 2), Terrain::Difficult);
            assert_eq!(b.terrain(c(3, 2)), Terrain::Difficult);
            assert_eq!(b.step_cost(c(3, 2)), Some(2));
            assert_eq!(b.terrain(c(2, 2)), Terrain::Open);
        }
    }

    #[test]
    fn square_neighbors_are_the_eight_around() {
        let b = Board::new(GridKind::Square, 5, 5);
        let n = b.neighbors(c(2, 2));
        assert_eq!(
            n,
            vec![
                c(1, 1),
                c(2, 1),
                c(3, 1),
                c(1, 2),
                c(3, 2),
                c(1, 3),
                c(2, 3),
                c(3, 3)
            ]
        );
        assert_eq!(b.neighbors(c(0, 0)), vec![c(1, 0), c(0, 1), c(1, 1)]);
        assert_eq!(b.neighbors(c(4, 2)).len(), 5);
    }

    /// RULES §0: square distance is Chebyshev `max(|dx|,|dy|)`.
    #[test]
    fn square_distance_is_chebyshev() {
        let b = Board::new(GridKind::Square, 10, 10);
        assert_eq!(b.distance(c(0, 0), c(0, 0)), 0);
        assert_eq!(b.distance(c(0, 0), c(1, 1)), 1);
        assert_eq!(b.distance(c(0, 0), c(3, 5)), 5);
        assert_eq!(b.distance(c(7, 2), c(1, 4)), 6);
        assert_eq!(b.distance(c(-3, 0), c(0, 0)), 3);
    }

    /// RULES §0 hex conventions: axial neighbours are (±1,0), (0,±1), (+1,-1), (-1,+1)
    /// around every cell, even and odd rows alike.
    #[test]
    fn grid_conventions_hex_neighbours_are_the_six_axial_steps() {
        let b = Board::new(GridKind::Hex, 9, 9);
        let expected: BTreeSet<(i32, i32)> =
            [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)].into();
        for y in 1..8 {
            for x in 1..8 {
                let cell = c(x, y);
                let h = Board::to_axial(cell);
                let n = b.neighbors(cell);
                assert_eq!(n.len(), 6, "{cell}");
                let deltas: BTreeSet<(i32, i32)> = n
                    .iter()
                    .map(|&m| {
                        let a = Board::to_axial(m);
                        (a.x - h.x, a.y - h.y)
                    })
                    .collect();
                assert_eq!(deltas, expected, "{cell}");
                assert!(n.iter().all(|&m| b.distance(cell, m) == 1));
            }
        }
    }

    /// Odd-r layout: odd rows are shifted half a hex right.
    #[test]
    fn hex_odd_rows_are_shifted_right() {
        let b = Board::new(GridKind::Hex, 4, 4);
        // Odd row 1: the hexes above are (0,0) and (1,0); (-1,1) is off the map.
        let odd: BTreeSet<Cell> = b.neighbors(c(0, 1)).into_iter().collect();
        assert_eq!(odd, [c(0, 0), c(1, 0), c(1, 1), c(0, 2), c(1, 2)].into());
        // Even row 2: the hexes above are (0,1) and (1,1).
        let even: BTreeSet<Cell> = b.neighbors(c(1, 2)).into_iter().collect();
        assert_eq!(
            even,
            [c(0, 1), c(1, 1), c(0, 2), c(2, 2), c(0, 3), c(1, 3)].into()
        );
        // A corner of an even row has only 2 on-map neighbours.
        assert_eq!(b.neighbors(c(0, 0)), vec![c(1, 0), c(0, 1)]);
    }

    /// RULES §0: hex distance = (|dq| + |dr| + |dq+dr|) / 2 in axial coordinates
    /// (also F-GAP-21: ranges are hex distances).
    #[test]
    fn grid_conventions_hex_distance_formula() {
        let b = Board::new(GridKind::Hex, 9, 9);
        assert_eq!(b.distance(c(0, 0), c(2, 0)), 2);
        assert_eq!(b.distance(c(0, 0), c(0, 1)), 1);
        assert_eq!(b.distance(c(0, 0), c(1, 1)), 2);
        assert_eq!(b.distance(c(0, 0), c(0, 2)), 2);
        assert_eq!(b.distance(c(1, 1), c(1, 2)), 1);
        assert_eq!(b.distance(c(0, 0), c(4, 8)), 8);
        assert_eq!(b.distance(c(0, 0), c(8, 8)), 12);
        for a in b.cells() {
            for z in b.cells() {
                let (ha, hz) = (Board::to_axial(a), Board::to_axial(z));
                let (dq, dr) = (hz.x - ha.x, hz.y - ha.y);
                let formula = (dq.abs() + dr.abs() + (dq + dr).abs()) / 2;
                assert_eq!(b.distance(a, z), formula as u32, "{a} {z}");
                assert_eq!(b.distance(a, z), b.distance(z, a));
            }
        }
    }

    #[test]
    fn axial_conversion_examples_and_round_trip() {
        assert_eq!(Board::to_axial(c(0, 0)), Hex::new(0, 0));
        assert_eq!(Board::to_axial(c(0, 1)), Hex::new(0, 1));
        assert_eq!(Board::to_axial(c(0, 2)), Hex::new(-1, 2));
        assert_eq!(Board::to_axial(c(3, 3)), Hex::new(2, 3));
        assert_eq!(Board::to_axial(c(0, -1)), Hex::new(1, -1));
        for y in -25..25 {
            for x in -25..25 {
                let cell = c(x, y);
                let h = Board::to_axial(cell);
                assert_eq!(h.y, y, "rows are axial r");
                assert_eq!(Board::from_axial(h), cell);
            }
        }
        for h in Hex::ZERO.range(30) {
            assert_eq!(Board::to_axial(Board::from_axial(h)), h);
        }
    }

    /// F-EX-4 / F-46: on hexes Reach 1 threatens 6 hexes, Reach 2 18, Reach 3 36
    /// (3N(N+1), RULES §0).
    #[test]
    fn f_ex_4_hex_reach_threatens_6_18_36() {
        let b = Board::new(GridKind::Hex, 21, 21);
        for (center, reach, count) in [
            (c(10, 10), 1, 6),
            (c(10, 10), 2, 18),
            (c(10, 10), 3, 36),
            (c(9, 9), 1, 6),
            (c(9, 9), 2, 18),
            (c(9, 9), 3, 36),
            (c(10, 10), 5, 90),
        ] {
            let zone = b.within(center, reach);
            assert_eq!(zone.len(), count, "{center} reach {reach}");
            assert!(zone.is_sorted());
            assert!(
                zone.iter()
                    .all(|&z| (1..=reach).contains(&b.distance(center, z)))
            );
        }
        assert_eq!(b.within(c(10, 10), 0), vec![]);
        // F-EX-4: an enemy 2 hexes away is in a Reach 2 threat zone, not Reach 1.
        let enemy = c(12, 10);
        assert!(b.within(c(10, 10), 2).contains(&enemy));
        assert!(!b.within(c(10, 10), 1).contains(&enemy));
    }

    /// P-19: a unit threatens the 8 squares around it (24 / 48 with reach 2 / 3).
    #[test]
    fn p_19_square_threat_zones_8_24_48() {
        let b = Board::new(GridKind::Square, 21, 21);
        for (reach, count) in [(1, 8), (2, 24), (3, 48)] {
            let zone = b.within(c(10, 10), reach);
            assert_eq!(zone.len(), count);
            assert!(zone.is_sorted());
        }
        // Sorted by `Cell`'s order: column, then row.
        assert_eq!(b.within(c(0, 0), 1), vec![c(0, 1), c(1, 0), c(1, 1)]);
    }

    #[test]
    fn within_clips_to_the_map_and_survives_huge_reach() {
        for kind in KINDS {
            let b = Board::new(kind, 6, 5);
            let all_but_center = b.within(c(2, 2), u32::MAX);
            assert_eq!(all_but_center.len(), 29, "{kind:?}");
            assert!(!all_but_center.contains(&c(2, 2)));
            assert_eq!(
                b.within(c(0, 0), 1),
                b.neighbors(c(0, 0))
                    .into_iter()
                    .collect::<BTreeSet<_>>()
                    .into_iter()
                    .collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn square_line_is_bresenham_with_both_ends() {
        let b = Board::new(GridKind::Square, 10, 10);
        assert_eq!(b.line(c(3, 3), c(3, 3)), vec![c(3, 3)]);
        assert_eq!(
            b.line(c(0, 0), c(3, 0)),
            vec![c(0, 0), c(1, 0), c(2, 0), c(3, 0)]
        );
        assert_eq!(b.line(c(0, 0), c(2, 2)), vec![c(0, 0), c(1, 1), c(2, 2)]);
        assert_eq!(
            b.line(c(0, 0), c(4, 2)),
            vec![c(0, 0), c(1, 1), c(2, 1), c(3, 2), c(4, 2)]
        );
    }

    #[test]
    fn lines_step_between_neighbours_and_reverse_exactly() {
        for kind in KINDS {
            let b = Board::new(kind, 9, 8);
            for a in b.cells() {
                for z in b.cells() {
                    let line = b.line(a, z);
                    assert_eq!(line.first(), Some(&a));
                    assert_eq!(line.last(), Some(&z));
                    assert_eq!(line.len() as u32, b.distance(a, z) + 1, "{kind:?} {a} {z}");
                    assert!(line.windows(2).all(|w| b.distance(w[0], w[1]) == 1));
                    let mut back = b.line(z, a);
                    back.reverse();
                    assert_eq!(line, back, "{kind:?} {a} {z}");
                }
            }
        }
    }

    #[test]
    fn hex_line_matches_hexx_line_to() {
        let b = Board::new(GridKind::Hex, 9, 9);
        let (a, z) = (c(1, 1), c(6, 7));
        let expected: Vec<Cell> = Board::to_axial(a)
            .line_to(Board::to_axial(z))
            .map(Board::from_axial)
            .collect();
        assert_eq!(b.line(a, z), expected);
    }

    #[test]
    fn line_of_sight_blocked_by_impassable_only() {
        for kind in KINDS {
            let mut b = Board::new(kind, 7, 3);
            let (a, z) = (c(0, 1), c(5, 1));
            assert!(b.line_of_sight(a, z));
            b.set_terrain(c(3, 1), Terrain::Difficult);
            assert!(
                b.line_of_sight(a, z),
                "{kind:?}: difficult terrain does not block"
            );
            b.set_terrain(c(2, 1), Terrain::Impassable);
            assert!(!b.line_of_sight(a, z), "{kind:?}: a wall between blocks");
            assert!(!b.line_of_sight(z, a), "{kind:?}: and from the other side");
            // Walls at the ends (e.g. shooting at a unit on a ledge) do not block.
            assert!(b.line_of_sight(a, c(2, 1)));
            assert!(b.line_of_sight(c(2, 1), a));
            // Adjacent and same-cell sight is never blocked.
            assert!(b.line_of_sight(c(1, 1), c(2, 1)));
            assert!(b.line_of_sight(a, a));
            // A line that does not cross the wall still sees.
            assert!(b.line_of_sight(c(0, 0), c(5, 0)));
        }
    }

    #[test]
    fn hex_line_of_sight_diagonal_wall() {
        let mut b = Board::new(GridKind::Hex, 9, 9);
        let (a, z) = (c(1, 1), c(6, 7));
        let line = b.line(a, z);
        assert!(b.line_of_sight(a, z));
        b.set_terrain(line[3], Terrain::Impassable);
        assert!(!b.line_of_sight(a, z));
        assert!(!b.line_of_sight(z, a));
    }

    /// hexx may round a line that runs exactly along hex edges into the half-hex
    /// notch outside an odd-r map's ragged side; that off-map cell hides nothing.
    #[test]
    fn hex_line_of_sight_along_the_ragged_edge() {
        let b = Board::new(GridKind::Hex, 16, 15);
        let (a, z) = (c(0, 2), c(0, 12));
        assert!(b.line(a, z).iter().any(|&x| !b.contains(x)));
        assert!(b.line_of_sight(a, z));
        assert!(b.line_of_sight(z, a));
    }

    /// P-17: difficult terrain costs two squares of movement for each square moved
    /// through.
    #[test]
    fn p_17_difficult_terrain_costs_two_squares() {
        let b = board(GridKind::Square, &["..~~."]);
        let field = b.movement_field(c(0, 0), 10, &nobody);
        assert_eq!(
            field,
            BTreeMap::from([
                (c(0, 0), 0),
                (c(1, 0), 1),
                (c(2, 0), 3),
                (c(3, 0), 5),
                (c(4, 0), 6)
            ])
        );
        let field = b.movement_field(c(0, 0), 4, &nobody);
        assert_eq!(
            field.keys().copied().collect::<Vec<_>>(),
            vec![c(0, 0), c(1, 0), c(2, 0)]
        );
    }

    /// P-GAP-15: a diagonal step costs 1 like an orthogonal one; difficult terrain
    /// costs 2 per square, diagonals included.
    #[test]
    fn p_gap_15_diagonal_step_costs_one_difficult_two() {
        let mut b = Board::new(GridKind::Square, 5, 5);
        let field = b.movement_field(c(2, 2), 1, &nobody);
        assert_eq!(field.len(), 9);
        assert!(b.neighbors(c(2, 2)).iter().all(|n| field[n] == 1));
        assert_eq!(
            b.path(c(0, 0), c(3, 3), &nobody),
            Some((vec![c(1, 1), c(2, 2), c(3, 3)], 3))
        );

        b.set_terrain(c(3, 3), Terrain::Difficult);
        b.set_terrain(c(1, 1), Terrain::Difficult);
        let field = b.movement_field(c(2, 2), 1, &nobody);
        assert!(!field.contains_key(&c(3, 3)) && !field.contains_key(&c(1, 1)));
        assert_eq!(field.len(), 7);
        let field = b.movement_field(c(2, 2), 2, &nobody);
        assert_eq!(field[&c(3, 3)], 2);
        assert_eq!(field[&c(1, 1)], 2);
        // Two diagonal-ish steps around the difficult square cost 2...
        assert_eq!(field[&c(4, 3)], 2);
        // ...but (4,4) is only 2 steps away through the difficult (3,3): 2 + 1.
        assert!(!field.contains_key(&c(4, 4)));
        assert_eq!(b.movement_field(c(2, 2), 3, &nobody)[&c(4, 4)], 3);
    }

    /// P-EX-5: mover M at (0,0) with squares 3 and 4 west of it difficult walks west:
    /// 1 + 1 + 2 + 2 = 6, so with Walk 6 it ends 4 squares west and cannot reach 5.
    /// The example walks along the row, so the row is a corridor here (on an open
    /// board the cheapest route would step around the first difficult square).
    #[test]
    fn p_ex_5_walk_west_through_difficult_costs_6() {
        // M at column 5 of the corridor; E (enemy) just east of it, blocking.
        let b = board(GridKind::Square, &["########", ".~~.....", "########"]);
        let (m, e) = (c(5, 1), c(6, 1));
        let occupancy = occ(&[], &[e]);
        let field = b.movement_field(m, 6, &occupancy);
        assert_eq!(field[&c(4, 1)], 1);
        assert_eq!(field[&c(3, 1)], 2);
        assert_eq!(field[&c(2, 1)], 4);
        assert_eq!(field[&c(1, 1)], 6, "4 west costs 6");
        assert!(!field.contains_key(&c(0, 1)), "5 west is out of reach");
        assert!(
            !field.contains_key(&e),
            "the enemy's square is never entered"
        );
        assert_eq!(
            b.path(m, c(1, 1), &occupancy),
            Some((vec![c(4, 1), c(3, 1), c(2, 1), c(1, 1)], 6))
        );
        assert_eq!(b.path(m, c(0, 1), &occupancy).map(|p| p.1), Some(7));
    }

    /// P-EX-5 on an open board: the movement field reports the cheapest cost, and
    /// stepping diagonally around the first difficult square is cheaper than the
    /// straight walk the example describes.
    #[test]
    fn p_ex_5_open_board_cheapest_route_steps_around() {
        let b = board(GridKind::Square, &["........", ".~~.....", "........"]);
        let field = b.movement_field(c(5, 1), 6, &nobody);
        assert_eq!(field[&c(1, 1)], 5);
        assert_eq!(field[&c(0, 1)], 5);
    }

    #[test]
    fn hex_movement_field_with_difficult_ring() {
        let mut b = Board::new(GridKind::Hex, 9, 9);
        let start = c(4, 4);
        for n in b.neighbors(start) {
            b.set_terrain(n, Terrain::Difficult);
        }
        assert_eq!(
            b.movement_field(start, 1, &nobody),
            BTreeMap::from([(start, 0)])
        );
        let field = b.movement_field(start, 2, &nobody);
        assert_eq!(field.len(), 7);
        assert!(b.neighbors(start).iter().all(|n| field[n] == 2));
        let field = b.movement_field(start, 3, &nobody);
        assert_eq!(field.len(), 19);
        assert!(
            b.within(start, 2)
                .iter()
                .all(|n| field[n] == b.distance(start, *n) + 1)
        );
        // Budget 0: only the start.
        assert_eq!(
            b.movement_field(start, 0, &nobody),
            BTreeMap::from([(start, 0)])
        );
    }

    #[test]
    fn hex_movement_field_open_counts() {
        let b = Board::new(GridKind::Hex, 21, 21);
        for (budget, count) in [(1, 7), (2, 19), (3, 37)] {
            let field = b.movement_field(c(10, 10), budget, &nobody);
            assert_eq!(field.len(), count);
            assert!(field.iter().all(|(&k, &v)| v == b.distance(c(10, 10), k)));
        }
    }

    #[test]
    fn enemies_block_allies_pass_but_are_not_end_cells() {
        for kind in KINDS {
            // A one-row corridor is a straight line on both grids.
            let b = board(kind, &["......"]);
            let start = c(0, 0);
            let blocker = occ(&[], &[c(2, 0)]);
            assert_eq!(
                b.movement_field(start, 10, &blocker),
                BTreeMap::from([(c(0, 0), 0), (c(1, 0), 1)]),
                "{kind:?}"
            );
            assert_eq!(b.path(start, c(3, 0), &blocker), None);
            assert_eq!(b.path(start, c(2, 0), &blocker), None);

            let ally = occ(&[c(2, 0)], &[]);
            let field = b.movement_field(start, 4, &ally);
            assert_eq!(
                field,
                BTreeMap::from([(c(0, 0), 0), (c(1, 0), 1), (c(3, 0), 3), (c(4, 0), 4)]),
                "{kind:?}"
            );
            assert_eq!(b.path(start, c(2, 0), &ally), None, "can't stop on an ally");
            assert_eq!(
                b.path(start, c(3, 0), &ally),
                Some((vec![c(1, 0), c(2, 0), c(3, 0)], 3)),
                "{kind:?}: passes through the ally"
            );
        }
    }

    #[test]
    fn own_cell_occupancy_is_ignored_and_start_costs_nothing() {
        for kind in KINDS {
            let b = Board::new(kind, 4, 4);
            let me = c(1, 1);
            for own in [Occupancy::Ally, Occupancy::Blocked] {
                let occupancy = move |x: Cell| if x == me { own } else { Occupancy::Free };
                let field = b.movement_field(me, 1, &occupancy);
                assert_eq!(field[&me], 0);
                assert_eq!(field.len(), 1 + b.neighbors(me).len(), "{kind:?}");
                assert_eq!(b.path(me, me, &occupancy), Some((vec![], 0)));
                assert!(b.path(me, c(3, 3), &occupancy).is_some());
            }
        }
    }

    #[test]
    fn path_avoids_walls_and_reports_unreachable() {
        for kind in KINDS {
            let b = board(kind, &[".#...", ".#.#.", "...#."]);
            let (cells, cost) = b.path(c(0, 0), c(4, 0), &nobody).expect("a way round");
            assert_eq!(cells.last(), Some(&c(4, 0)));
            assert!(cells.iter().all(|&x| b.terrain(x) != Terrain::Impassable));
            assert_eq!(cost, cells.len() as u32);
            assert_eq!(b.movement_field(c(0, 0), 100, &nobody)[&c(4, 0)], cost);
            assert_eq!(b.path(c(0, 0), c(1, 0), &nobody), None, "goal is a wall");
            assert_eq!(b.path(c(0, 0), c(9, 9), &nobody), None, "goal off the map");
            let walled = board(kind, &["..#.."]);
            assert_eq!(walled.path(c(0, 0), c(4, 0), &nobody), None);
        }
    }

    #[test]
    fn path_is_deterministic_with_many_ties() {
        for kind in KINDS {
            let b = Board::new(kind, 12, 12);
            let first = b.path(c(0, 0), c(9, 11), &nobody).expect("open board");
            assert_eq!(first.1, b.distance(c(0, 0), c(9, 11)));
            for _ in 0..20 {
                assert_eq!(
                    b.clone().path(c(0, 0), c(9, 11), &nobody).as_ref(),
                    Some(&first)
                );
            }
        }
    }

    #[test]
    fn huge_budget_is_cheap_and_complete() {
        for kind in KINDS {
            let mut b = Board::new(kind, 12, 10);
            b.set_terrain(c(5, 5), Terrain::Difficult);
            let all = b.movement_field(c(0, 0), u32::MAX, &nobody);
            assert_eq!(all.len(), 120, "{kind:?}");
            assert_eq!(all, b.movement_field(c(0, 0), 500, &nobody));
        }
    }

    /// Cheapest costs by plain relaxation, as an independent check of the searches.
    fn oracle(
        b: &Board,
        start: Cell,
        occupancy: &dyn Fn(Cell) -> Occupancy,
    ) -> BTreeMap<Cell, u32> {
        let mut cost = BTreeMap::from([(start, 0u32)]);
        let mut changed = true;
        while changed {
            changed = false;
            for cell in b.cells() {
                if cell == start || occupancy(cell) == Occupancy::Blocked {
                    continue;
                }
                let Some(step) = b.terrain(cell).cost() else {
                    continue;
                };
                let best = b
                    .neighbors(cell)
                    .iter()
                    .filter_map(|n| cost.get(n))
                    .min()
                    .map(|m| m + step);
                if let Some(best) = best
                    && cost.get(&cell).is_none_or(|&old| best < old)
                {
                    cost.insert(cell, best);
                    changed = true;
                }
            }
        }
        cost
    }

    fn arb_case() -> impl Strategy<Value = (Board, Vec<Occupancy>, usize, u32)> {
        (
            prop_oneof![Just(GridKind::Square), Just(GridKind::Hex)],
            1u32..8,
            1u32..8,
        )
            .prop_flat_map(|(kind, w, h)| {
                let n = (w * h) as usize;
                let terrain = prop::collection::vec(
                    prop_oneof![
                        5 => Just(Terrain::Open),
                        2 => Just(Terrain::Difficult),
                        1 => Just(Terrain::Impassable),
                    ],
                    n,
                );
                let occupancy = prop::collection::vec(
                    prop_oneof![
                        6 => Just(Occupancy::Free),
                        1 => Just(Occupancy::Ally),
                        1 => Just(Occupancy::Blocked),
                    ],
                    n,
                );
                (Just((kind, w, h)), terrain, occupancy, 0..n, 0u32..14)
            })
            .prop_map(|((kind, w, h), terrain, occupancy, start, budget)| {
                let mut b = Board::new(kind, w, h);
                let cells: Vec<Cell> = b.cells().collect();
                for (cell, t) in cells.into_iter().zip(terrain) {
                    b.set_terrain(cell, t);
                }
                (b, occupancy, start, budget)
            })
    }

    proptest! {
        #[test]
        fn field_and_paths_match_a_brute_force_oracle((b, occupants, start, budget) in arb_case()) {
            let cells: Vec<Cell> = b.cells().collect();
            let start = cells[start];
            let occupancy = |x: Cell| {
                cells.iter().position(|&y| y == x).map_or(Occupancy::Free, |i| occupants[i])
            };
            let cheapest = oracle(&b, start, &occupancy);
            let endable = |x: Cell| x == start || occupancy(x) == Occupancy::Free;
            let expected: BTreeMap<Cell, u32> = cheapest
                .iter()
                .filter(|&(&x, &k)| k <= budget && endable(x))
                .map(|(&x, &k)| (x, k))
                .collect();
            prop_assert_eq!(b.movement_field(start, budget, &occupancy), expected);

            for &goal in &cells {
                let found = b.path(start, goal, &occupancy);
                match cheapest.get(&goal).filter(|_| endable(goal)) {
                    None => prop_assert_eq!(found, None),
                    Some(&k) => {
                        let (steps, cost) = found.expect("reachable goal has a path");
                        prop_assert_eq!(cost, k);
                        prop_assert_eq!(steps.last().copied().unwrap_or(start), goal);
                        let mut prev = start;
                        let mut total = 0;
                        for &s in &steps {
                            prop_assert_eq!(b.distance(prev, s), 1);
                            prop_assert!(occupancy(s) != Occupancy::Blocked);
                            total += b.step_cost(s).expect("passable");
                            prev = s;
                        }
                        prop_assert_eq!(total, cost);
                        prop_assert_eq!(b.path(start, goal, &occupancy), Some((steps, cost)));
                    }
                }
            }
        }

        #[test]
        fn line_of_sight_is_symmetric((b, _occupants, start, _budget) in arb_case()) {
            let cells: Vec<Cell> = b.cells().collect();
            let a = cells[start];
            for &z in &cells {
                prop_assert_eq!(b.line_of_sight(a, z), b.line_of_sight(z, a));
                let line = b.line(a, z);
                // Only on-map walls strictly between the ends block.
                let clear = line.len() < 3
                    || line[1..line.len() - 1]
                        .iter()
                        .all(|&x| !b.contains(x) || b.terrain(x) != Terrain::Impassable);
                prop_assert_eq!(b.line_of_sight(a, z), clear);
            }
        }
    }
}
