//! Terrain geometry for the editor: which cells a brush, a rectangle or a flood
//! fill covers, and reading a level's terrain rows cell by cell.
//!
//! Level terrain is kept as the file has it, rows of characters (`.` open, `~`
//! difficult, `#` impassable, `w` water, `^` climbing: [`Terrain::ALL`]). An empty
//! list means all open, and a malformed row
//! (too short, or an unknown character) is read as it is: a missing character
//! reads as open. Painting first normalizes the rows to the map's size
//! ([`normalized_rows`]), as its own undoable step.

use pathfinding::prelude::bfs_reach;

use crate::engine::board::{Board, Cell, GridKind, Terrain};
use crate::level::Level;

/// The largest brush size; a brush of size `n` covers the cells within distance
/// `n - 1` of its center.
pub const MAX_BRUSH: u32 = 9;

/// The character at `cell` as the level's rows have it (`.` where a row or the
/// whole terrain is missing); `None` off the map.
pub fn char_at(level: &Level, cell: Cell) -> Option<char> {
    if !on_map(level, cell) {
        return None;
    }
    let ch = level
        .terrain
        .get(cell.y as usize)
        .and_then(|row| row.chars().nth(cell.x as usize))
        .unwrap_or(Terrain::Open.symbol());
    Some(ch)
}

/// The terrain at `cell`, if it is on the map and its character is a known one.
pub fn terrain_at(level: &Level, cell: Cell) -> Option<Terrain> {
    char_at(level, cell).and_then(Terrain::from_symbol)
}

/// Whether `cell` lies on the level's map.
pub fn on_map(level: &Level, cell: Cell) -> bool {
    let (w, h) = level.size;
    cell.x >= 0 && cell.y >= 0 && (cell.x as u32) < w && (cell.y as u32) < h
}

/// The terrain rows resized to exactly the map's size: missing rows and characters
/// are open `.`, characters beyond the width are dropped.
pub fn normalized_rows(rows: &[String], (w, h): (u32, u32)) -> Vec<String> {
    (0..h as usize)
        .map(|y| {
            let row = rows.get(y).map(String::as_str).unwrap_or("");
            let mut out: String = row.chars().take(w as usize).collect();
            let missing = (w as usize).saturating_sub(out.chars().count());
            out.extend(std::iter::repeat_n(Terrain::Open.symbol(), missing));
            out
        })
        .collect()
}

/// A board with the level's grid kind and size (terrain all open): the geometry
/// only.
fn geometry(level: &Level) -> Board {
    Board::new(level.grid, level.size.0, level.size.1)
}

/// The on-map cells a brush of `size` (clamped to 1..=[`MAX_BRUSH`]) centered on
/// `center` covers, sorted: a square of side `2 * size - 1` on square grids, a hex
/// of radius `size - 1` on hex grids. Empty when the center is off the map.
pub fn brush_cells(level: &Level, center: Cell, size: u32) -> Vec<Cell> {
    if !on_map(level, center) {
        return Vec::new();
    }
    let reach = size.clamp(1, MAX_BRUSH) - 1;
    let mut cells = geometry(level).within(center, reach);
    cells.push(center);
    cells.sort_unstable();
    cells
}

/// The on-map cells of the rectangle with corners `a` and `b` (both included, in
/// any order), row by row.
pub fn rect_cells(level: &Level, a: Cell, b: Cell) -> Vec<Cell> {
    let (w, h) = (level.size.0 as i32, level.size.1 as i32);
    let (x0, x1) = (a.x.min(b.x).max(0), a.x.max(b.x).min(w - 1));
    let (y0, y1) = (a.y.min(b.y).max(0), a.y.max(b.y).min(h - 1));
    (y0..=y1)
        .flat_map(|y| (x0..=x1).map(move |x| Cell::new(x, y)))
        .collect()
}

/// The connected region of cells with the same terrain character as `start`,
/// sorted: 4-connected (orthogonal steps) on square grids, 6-connected on hex
/// grids. Empty when `start` is off the map.
pub fn flood_region(level: &Level, start: Cell) -> Vec<Cell> {
    let Some(target) = char_at(level, start) else {
        return Vec::new();
    };
    let board = geometry(level);
    let same = |c: &Cell| char_at(level, *c) == Some(target);
    let mut cells: Vec<Cell> = bfs_reach(start, |&c: &Cell| {
        let steps: Vec<Cell> = match level.grid {
            GridKind::Square => [(1, 0), (-1, 0), (0, 1), (0, -1)]
                .into_iter()
                .map(|(dx, dy)| Cell::new(c.x + dx, c.y + dy))
                .filter(|n| board.contains(*n))
                .collect(),
            GridKind::Hex => board.neighbors(c),
        };
        steps.into_iter().filter(same)
    })
    .collect();
    cells.sort_unstable();
    cells
}
