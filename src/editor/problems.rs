//! Live validation: the problems of the level being edited, each with the cell to
//! jump to and its place in the file as it would be saved.

use crate::engine::board::Cell;
use crate::level::validate::{Where, validate};
use crate::level::{Level, load::locate, to_ron_string};

/// One problem of the level being edited: the same checks and messages as
/// `skirmish check`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DocProblem {
    /// What is wrong and what was expected.
    pub message: String,
    /// Where in the level it is.
    pub at: Where,
    /// The map cell to jump to: the unit's cell for problems about a unit (its
    /// position, stats, powers, items, traits...), the cell for a terrain character, the
    /// row's first cell for a terrain row. `None` for problems about the level as a
    /// whole or a side. May be off the map (for a unit placed off it).
    pub cell: Option<Cell>,
    /// 1-based `(line, column)` in the file as [`crate::level::save_atomic`] writes
    /// it, so it matches `skirmish check` after saving.
    pub line_col: Option<(usize, usize)>,
}

impl std::fmt::Display for DocProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some((line, col)) = self.line_col {
            write!(f, "{line}:{col}: ")?;
        }
        f.write_str(&self.message)
    }
}

/// The problems of `level`, in the order `validate` finds them.
pub(crate) fn problems_of(level: &Level) -> Vec<DocProblem> {
    let issues = validate(level);
    if issues.is_empty() {
        return Vec::new();
    }
    let text = to_ron_string(level);
    issues
        .into_iter()
        .map(|issue| DocProblem {
            cell: cell_of(level, &issue.at),
            line_col: locate(&text, &issue.at),
            message: issue.message,
            at: issue.at,
        })
        .collect()
}

/// The cell a place in the level is about, if any.
pub fn cell_of(level: &Level, at: &Where) -> Option<Cell> {
    let unit = |index: usize| level.units.get(index).map(|u| u.cell());
    match at {
        Where::TerrainCell { row, col } => Some(Cell::new(*col as i32, *row as i32)),
        Where::TerrainRow(row) => Some(Cell::new(0, *row as i32)),
        Where::Unit { index, .. } => unit(*index),
        Where::Stat { unit: index, .. }
        | Where::Power { unit: index, .. }
        | Where::OnHit { unit: index, .. }
        | Where::Movement { unit: index, .. }
        | Where::Item { unit: index, .. }
        | Where::UnitTrait { unit: index, .. } => unit(*index),
        // The level as a whole, a top-level field, a side, a rules entry, victory.
        _ => None,
    }
}
