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
}

impl Terrain {
    /// Every terrain kind, in the order the editor and docs list them.
    pub const ALL: [Terrain; 3] = [Terrain::Open, Terrain::Difficult, Terrain::Impassable];

    /// The character used for this terrain in a level's terrain rows.
    pub const fn symbol(self) -> char {
        match self {
            Terrain::Open => '.',
            Terrain::Difficult => '~',
            Terrain::Impassable => '#',
        }
    }

    /// The terrain written as `c` in a level's terrain rows, if any.
    pub const fn from_symbol(c: char) -> Option<Terrain> {
        match c {
            '.' => Some(Terrain::Open),
            '~' => Some(Terrain::Difficult),
            '#' => Some(Terrain::Impassable),
            _ => None,
        }
    }

    /// Movement cost to enter a cell of this terrain, or `None` if it can't be entered.
    pub const fn cost(self) -> Option<u32> {
        match self {
            Terrain::Open => Some(1),
            Terrain::Difficult => Some(2),
            Terrain::Impassable => None,
        }
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
        todo!("{kind:?} {width} {height}")
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
        todo!("{cell}")
    }

    /// Terrain at `cell`; off-map cells read as impassable.
    pub fn terrain(&self, cell: Cell) -> Terrain {
        todo!("{cell}")
    }

    /// Sets the terrain at `cell` (ignored off the map).
    pub fn set_terrain(&mut self, cell: Cell, terrain: Terrain) {
        todo!("{cell} {terrain:?}")
    }

    /// All cells of the map, row by row.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        (0..self.height as i32).flat_map(move |y| (0..self.width as i32).map(move |x| Cell::new(x, y)))
    }

    /// On-map neighbours of `cell` (8 on squares, 6 on hexes), in a fixed order.
    pub fn neighbors(&self, cell: Cell) -> Vec<Cell> {
        todo!("{cell}")
    }

    /// Grid distance: Chebyshev on squares, hex distance on hexes.
    pub fn distance(&self, a: Cell, b: Cell) -> u32 {
        todo!("{a} {b}")
    }

    /// The cells on the straight line from `a` to `b`, both included.
    pub fn line(&self, a: Cell, b: Cell) -> Vec<Cell> {
        todo!("{a} {b}")
    }

    /// Whether `b` can be seen from `a`: no impassable cell strictly between them on
    /// the line (units do not block sight).
    pub fn line_of_sight(&self, a: Cell, b: Cell) -> bool {
        todo!("{a} {b}")
    }

    /// On-map cells at distance 1..=`reach` from `center` (the center excluded): the
    /// cells a unit with that reach threatens. Sorted.
    pub fn within(&self, center: Cell, reach: u32) -> Vec<Cell> {
        todo!("{center} {reach}")
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
        todo!("{start} {budget} {:?}", occupancy(start))
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
        todo!("{start} {goal} {:?}", occupancy(start))
    }

    /// Cost of entering `cell` from a neighbour, `None` when it can't be entered.
    pub fn step_cost(&self, cell: Cell) -> Option<u32> {
        self.terrain(cell).cost()
    }

    /// Axial hex coordinate of `cell` (hex maps; odd-r offset → axial).
    pub fn to_axial(cell: Cell) -> hexx::Hex {
        todo!("{cell}")
    }

    /// The cell at axial hex coordinate `hex` (axial → odd-r offset).
    pub fn from_axial(hex: hexx::Hex) -> Cell {
        todo!("{hex:?}")
    }
}
