//! [`EditorDoc`]: the level being edited, its file, unsaved changes, and undo/redo.
//!
//! Every change is an [`Edit`]; applying one returns the edit that undoes it. An
//! operation (paint, place a unit, rename a side...) applies one or more edits as
//! one undo step, and everything applied between [`EditorDoc::begin_stroke`] and
//! [`EditorDoc::end_stroke`] is one step too, so a drag of the brush over fifty
//! cells undoes at once. Steps store only what changed (the painted cells, one unit,
//! one side); the rare whole-level changes (resize, grid kind, [`EditorDoc::modify`])
//! store the previous level.
//!
//! Choices, so the window can rely on them:
//! - Operations refuse what can only be a mistake of the caller or the user and
//!   say why ([`EditError`]): a cell off the map, placing or moving a unit onto
//!   impassable terrain or onto another unit, an empty or duplicate unit or side
//!   name, a stat the ruleset does not read, removing a required stat.
//! - Everything else is allowed and reported by [`EditorDoc::problems`] (the checks
//!   of `skirmish check`): a side without units, painting a wall under a unit,
//!   a Tier of 7, switching to a ruleset whose stats the units lack.
//! - Removing a side removes its units too, in the same undo step.
//! - Resizing keeps the top-left corner; units that fall off the map are removed
//!   (in the same undo step) and their names returned.
//! - Saving is always allowed, so work in progress is never lost; it returns the
//!   problems the saved file has (none for a valid level, and then the file passes
//!   `skirmish check`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::engine::board::{Cell, GridKind, Terrain};
use crate::engine::rulesets::{RULESETS, registry, stat_specs};
use crate::level::schema::{
    AiPolicy, Controller, DecisionPolicy, Level, SideDef, Size, UnitDef, WeaponDef,
};
use crate::level::validate::MAX_SIDE;
use crate::level::{Problem, load_str, save_atomic};

use super::form::{skill_form, stat_form, unit_extras};
use super::problems::{DocProblem, problems_of};
use super::skeleton::{bare_unit, skeleton};
use super::templates::Template;
use super::terrain::{
    brush_cells, char_at, flood_region, normalized_rows, on_map, rect_cells, terrain_at,
};

/// Why an editor operation was refused. The level is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    /// No unit has this index.
    #[error("there is no unit #{0}")]
    NoSuchUnit(usize),
    /// No side has this index.
    #[error("there is no side #{0}")]
    NoSuchSide(usize),
    /// No side has this name.
    #[error("there is no side `{0}`")]
    UnknownSide(String),
    /// The cell is not on the map.
    #[error("{0} is off the map")]
    OffMap(Cell),
    /// A unit can't stand on impassable terrain.
    #[error("{0} is impassable; a unit needs an open or difficult cell")]
    Impassable(Cell),
    /// Another unit stands there.
    #[error("{cell} is taken by `{by}`")]
    Occupied {
        /// The cell.
        cell: Cell,
        /// The unit standing there.
        by: String,
    },
    /// Names can't be empty.
    #[error("a name can't be empty")]
    EmptyName,
    /// Another unit or side already has this name.
    #[error("the name `{0}` is taken")]
    NameTaken(String),
    /// The level's ruleset does not read this stat.
    #[error("ruleset {ruleset} has no stat `{stat}`; its stats are: {expected}")]
    UnknownStat {
        /// The stat asked for.
        stat: String,
        /// The level's ruleset.
        ruleset: String,
        /// The stats it reads.
        expected: String,
    },
    /// The level's ruleset has no such skill (or no skills at all).
    #[error("ruleset {ruleset} has no skill `{skill}`; its skills are: {expected}")]
    UnknownSkill {
        /// The skill asked for.
        skill: String,
        /// The level's ruleset.
        ruleset: String,
        /// The skills it rolls (empty when it has none).
        expected: String,
    },
    /// The level's ruleset does not read this unit field (`size`, `weapons`).
    #[error("ruleset {ruleset} has no unit field `{field}`")]
    UnusedField {
        /// The field asked for.
        field: &'static str,
        /// The level's ruleset.
        ruleset: String,
    },
    /// A required stat can't be removed, only changed.
    #[error("stat `{0}` is required by the ruleset; it can be changed but not removed")]
    RequiredStat(String),
    /// The ruleset id is not one this build plays.
    #[error("unknown ruleset `{0}`; expected one of: {list}", list = RULESETS.join(", "))]
    UnknownRuleset(String),
    /// A template made for another ruleset.
    #[error("template `{template}` is for ruleset {for_ruleset}, but the level uses {level}")]
    WrongRuleset {
        /// The template's name.
        template: String,
        /// The ruleset it was made for.
        for_ruleset: String,
        /// The level's ruleset.
        level: String,
    },
    /// Map sizes go from 1×1 to 256×256.
    #[error("map size ({0}, {1}) is out of range; expected width and height from 1 to {MAX_SIDE}")]
    BadSize(u32, u32),
}

/// Why a save failed. The file on disk is unchanged (or, if the error came after
/// the rename, already the new one).
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    /// The level has never been saved: use [`EditorDoc::save_as`].
    #[error("the level has no file yet; choose where to save it")]
    NoPath,
    /// Writing failed.
    #[error("cannot save {path}: {source}")]
    Io {
        /// The file being written.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
}

/// One primitive change of a level. [`Edit::apply`] returns its inverse.
#[derive(Clone, Debug, PartialEq)]
pub enum Edit {
    /// Sets terrain characters, in order (the rows must already cover the cells).
    Terrain(Vec<(Cell, char)>),
    /// Replaces all terrain rows (used to normalize their shape before painting).
    TerrainRows(Vec<String>),
    /// Inserts a unit at this roster index.
    InsertUnit(usize, UnitDef),
    /// Removes the unit at this roster index.
    RemoveUnit(usize),
    /// Replaces the unit at this roster index.
    SetUnit(usize, UnitDef),
    /// Inserts a side at this index.
    InsertSide(usize, SideDef),
    /// Removes the side at this index (its units are not touched).
    RemoveSide(usize),
    /// Replaces the side at this index (units are not touched).
    SetSide(usize, SideDef),
    /// Sets the level's display name.
    Name(String),
    /// Sets the level's ruleset id.
    Ruleset(String),
    /// Replaces the whole level.
    Level(Box<Level>),
}

impl Edit {
    /// Applies this edit to `level` and returns the edit that undoes it; on error
    /// `level` is unchanged.
    pub fn apply(self, level: &mut Level) -> Result<Edit, EditError> {
        let unit_index =
            |i: usize, len: usize| (i < len).then_some(i).ok_or(EditError::NoSuchUnit(i));
        let side_index =
            |i: usize, len: usize| (i < len).then_some(i).ok_or(EditError::NoSuchSide(i));
        Ok(match self {
            Edit::Terrain(changes) => Edit::Terrain(set_chars(level, &changes)?),
            Edit::TerrainRows(rows) => {
                Edit::TerrainRows(std::mem::replace(&mut level.terrain, rows))
            }
            Edit::InsertUnit(i, unit) => {
                unit_index(i, level.units.len() + 1)?;
                level.units.insert(i, unit);
                Edit::RemoveUnit(i)
            }
            Edit::RemoveUnit(i) => {
                unit_index(i, level.units.len())?;
                Edit::InsertUnit(i, level.units.remove(i))
            }
            Edit::SetUnit(i, unit) => {
                unit_index(i, level.units.len())?;
                Edit::SetUnit(i, std::mem::replace(&mut level.units[i], unit))
            }
            Edit::InsertSide(i, side) => {
                side_index(i, level.sides.len() + 1)?;
                level.sides.insert(i, side);
                Edit::RemoveSide(i)
            }
            Edit::RemoveSide(i) => {
                side_index(i, level.sides.len())?;
                Edit::InsertSide(i, level.sides.remove(i))
            }
            Edit::SetSide(i, side) => {
                side_index(i, level.sides.len())?;
                Edit::SetSide(i, std::mem::replace(&mut level.sides[i], side))
            }
            Edit::Name(name) => Edit::Name(std::mem::replace(&mut level.name, name)),
            // Archetype units follow the ruleset (see `archetype::switch_ruleset`).
            Edit::Ruleset(id) => {
                let (old, new) = (registry::get(&level.ruleset), registry::get(&id));
                Edit::Ruleset(crate::engine::archetype::switch_ruleset(
                    level, id, old, new,
                ))
            }
            Edit::Level(new) => Edit::Level(Box::new(std::mem::replace(level, *new))),
        })
    }
}

/// Sets terrain characters in order; returns the previous characters in reverse
/// order (applying them restores the rows even when a cell appears twice).
fn set_chars(level: &mut Level, changes: &[(Cell, char)]) -> Result<Vec<(Cell, char)>, EditError> {
    // Check every cell first so a bad one leaves the rows untouched.
    let mut rows: BTreeMap<usize, Vec<char>> = BTreeMap::new();
    for &(cell, _) in changes {
        let row = usize::try_from(cell.y)
            .ok()
            .and_then(|y| level.terrain.get(y).map(|r| (y, r)));
        let fits =
            row.is_some_and(|(_, r)| usize::try_from(cell.x).is_ok_and(|x| x < r.chars().count()));
        match row {
            Some((y, r)) if fits => {
                rows.entry(y).or_insert_with(|| r.chars().collect());
            }
            _ => return Err(EditError::OffMap(cell)),
        }
    }
    let mut old = Vec::with_capacity(changes.len());
    for &(cell, ch) in changes {
        if let Some(row) = rows.get_mut(&(cell.y as usize)) {
            let slot = &mut row[cell.x as usize];
            old.push((cell, *slot));
            *slot = ch;
        }
    }
    for (y, chars) in rows {
        level.terrain[y] = chars.into_iter().collect();
    }
    old.reverse();
    Ok(old)
}

/// Where a placed unit comes from.
#[derive(Clone, Copy, Debug)]
pub enum UnitSource<'a> {
    /// A unit with the ruleset's required stats at their defaults
    /// ([`crate::editor::StatField::default`]) and nothing else.
    Blank,
    /// A copy of a template from the library.
    Template(&'a Template),
}

/// A side with a name, a controller and a decision policy.
fn side_def(name: &str, controller: Controller, decisions: DecisionPolicy) -> SideDef {
    let mut side: SideDef = skeleton(r#"(name: "")"#);
    side.name = name.to_string();
    side.controller = controller;
    side.decisions = decisions;
    side
}

/// `base`, or `base 2`, `base 3`, ... : the first that `taken` does not reject.
fn unique_name(base: &str, taken: impl Fn(&str) -> bool) -> String {
    let base = base.trim();
    let base = if base.is_empty() { "Unit" } else { base };
    if !taken(base) {
        return base.to_string();
    }
    (2..)
        .map(|n| format!("{base} {n}"))
        .find(|name| !taken(name))
        .unwrap_or_else(|| base.to_string())
}

/// The level being edited, with its file, unsaved-changes state and history.
#[derive(Clone, Debug)]
pub struct EditorDoc {
    level: Level,
    path: Option<PathBuf>,
    /// Undo steps: each is a list of edits applied last-to-first.
    undo: Vec<Vec<Edit>>,
    /// Redo steps, the same way.
    redo: Vec<Vec<Edit>>,
    /// The step of the stroke in progress, if one is.
    stroke: Option<Vec<Edit>>,
    /// `undo.len()` when the level was last saved or opened; `None` when that
    /// state can no longer be reached by undo or redo.
    clean: Option<usize>,
    /// Counts changes of the level (edits, undos, redos).
    revision: u64,
}

impl EditorDoc {
    /// A new level: an open map of `grid` and `size` under `ruleset`, with two
    /// sides, `Blue` (human) and `Red` (AI, `Normal`), and no units. It has no file
    /// yet and nothing to save.
    pub fn new_level(
        name: &str,
        grid: GridKind,
        size: (u32, u32),
        ruleset: &str,
    ) -> Result<Self, EditError> {
        check_size(size)?;
        check_ruleset(ruleset)?;
        let mut level: Level = skeleton(
            r#"(name: "", ruleset: "", grid: Square, size: (1, 1), sides: [], units: [])"#,
        );
        level.name = name.to_string();
        level.ruleset = ruleset.to_string();
        level.grid = grid;
        level.size = size;
        level.terrain = normalized_rows(&[], size);
        level.sides = vec![
            side_def("Blue", Controller::Human, DecisionPolicy::Ask),
            side_def(
                "Red",
                Controller::Ai(AiPolicy::Normal),
                DecisionPolicy::Never,
            ),
        ];
        Ok(Self::from_level(level, None))
    }

    /// Edits `level`, which belongs to `path` if given; nothing to save yet.
    pub fn from_level(level: Level, path: Option<PathBuf>) -> Self {
        Self {
            level,
            path,
            undo: Vec::new(),
            redo: Vec::new(),
            stroke: None,
            clean: Some(0),
            revision: 0,
        }
    }

    /// Opens a level file. A level that parses but breaks the format's rules
    /// opens anyway (to be fixed; [`Self::problems`] lists what is wrong); a file
    /// that can't be read or parsed gives its problems at `file:line:col`.
    pub fn open(path: &Path) -> Result<Self, Vec<Problem>> {
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| {
            vec![Problem {
                file: file.clone(),
                line: 1,
                col: 1,
                message: format!("cannot read: {e}"),
            }]
        })?;
        let level = match load_str(&text, &file) {
            Ok(level) => level,
            Err(problems) => {
                let mut level = parse_unchecked(&text).ok_or(problems)?;
                // Its archetype units as far as they can be (problems() tells the rest).
                let ruleset = registry::get(&level.ruleset);
                let _ = crate::engine::archetype::realize_level(&mut level, ruleset);
                level
            }
        };
        Ok(Self::from_level(level, Some(path.to_path_buf())))
    }

    /// The level as it is now.
    pub fn level(&self) -> &Level {
        &self.level
    }

    /// The file the level was opened from or last saved to.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// Whether there are changes since the level was opened or last saved (undoing
    /// back to the saved state makes it clean again).
    pub fn is_dirty(&self) -> bool {
        self.stroke.as_ref().is_some_and(|s| !s.is_empty()) || self.clean != Some(self.undo.len())
    }

    /// A number that changes whenever the level changes (an edit, an undo, a
    /// redo) and only then: the window recomputes [`Self::problems`] and redraws
    /// the map when it differs from the one it last saw, instead of every frame.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// Whether there is a step to undo.
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty() || self.stroke.as_ref().is_some_and(|s| !s.is_empty())
    }

    /// Whether there is a step to redo.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Every problem `skirmish check` would report for the level as it is now,
    /// with the cell to jump to where the problem is about a unit or a terrain
    /// cell, and its line and column in the file as it would be saved.
    pub fn problems(&self) -> Vec<DocProblem> {
        problems_of(&self.level)
    }

    // ----- history -----

    /// Starts a stroke: every change until [`Self::end_stroke`] is one undo step.
    /// Starting a stroke while one is open ends the open one first.
    pub fn begin_stroke(&mut self) {
        self.end_stroke();
        self.stroke = Some(Vec::new());
    }

    /// Ends the stroke in progress, if any, making its changes one undo step (none
    /// if it changed nothing).
    pub fn end_stroke(&mut self) {
        if let Some(step) = self.stroke.take()
            && !step.is_empty()
        {
            self.push_step(step);
        }
    }

    /// Undoes the last step (ending a stroke in progress first); `false` if there
    /// was nothing to undo.
    pub fn undo(&mut self) -> bool {
        self.end_stroke();
        let Some(step) = self.undo.pop() else {
            return false;
        };
        let inverse = self.replay(step);
        self.redo.push(inverse);
        self.revision += 1;
        true
    }

    /// Redoes the last undone step; `false` if there was nothing to redo.
    pub fn redo(&mut self) -> bool {
        self.end_stroke();
        let Some(step) = self.redo.pop() else {
            return false;
        };
        let inverse = self.replay(step);
        self.undo.push(inverse);
        self.revision += 1;
        true
    }

    /// Applies a recorded step (last edit first) and returns its inverse step.
    fn replay(&mut self, step: Vec<Edit>) -> Vec<Edit> {
        let mut inverse = Vec::with_capacity(step.len());
        for edit in step.into_iter().rev() {
            // Recorded steps are inverses of edits that applied, so they apply.
            if let Ok(back) = edit.apply(&mut self.level) {
                inverse.push(back);
            }
        }
        inverse
    }

    fn push_step(&mut self, step: Vec<Edit>) {
        if self.clean.is_some_and(|c| c > self.undo.len()) {
            self.clean = None; // the saved state was in the discarded redo steps
        }
        self.redo.clear();
        self.undo.push(step);
    }

    /// Applies `edits` in order as one step (or as part of the open stroke). If one
    /// fails, the ones before it are undone and the level is unchanged.
    pub fn apply(&mut self, edits: Vec<Edit>) -> Result<(), EditError> {
        let mut inverses = Vec::with_capacity(edits.len());
        for edit in edits {
            match edit.apply(&mut self.level) {
                Ok(inverse) => inverses.push(inverse),
                Err(e) => {
                    self.replay(inverses);
                    return Err(e);
                }
            }
        }
        if inverses.is_empty() {
            return Ok(());
        }
        self.revision += 1;
        match &mut self.stroke {
            Some(stroke) => {
                if self.clean.is_some_and(|c| c > self.undo.len()) {
                    self.clean = None;
                }
                self.redo.clear();
                stroke.extend(inverses);
            }
            None => self.push_step(inverses),
        }
        Ok(())
    }

    /// Changes anything about the level in `change` as one undo step (storing the
    /// previous level): for the rarely edited fields such as `seed`, `victory` and
    /// `rules`. Nothing is recorded if `change` leaves the level as it was.
    pub fn modify(&mut self, change: impl FnOnce(&mut Level)) {
        let mut next = self.level.clone();
        change(&mut next);
        if next != self.level {
            // A whole-level replacement always applies.
            let _ = self.apply(vec![Edit::Level(Box::new(next))]);
        }
    }

    // ----- level -----

    /// Sets the level's display name.
    pub fn set_name(&mut self, name: &str) {
        if self.level.name != name {
            let _ = self.apply(vec![Edit::Name(name.to_string())]);
        }
    }

    /// Switches the ruleset. Units keep their stats; those the new ruleset does
    /// not read, or lacks, show up in [`Self::problems`].
    pub fn set_ruleset(&mut self, ruleset: &str) -> Result<(), EditError> {
        check_ruleset(ruleset)?;
        if self.level.ruleset != ruleset {
            self.apply(vec![Edit::Ruleset(ruleset.to_string())])?;
        }
        Ok(())
    }

    /// Switches between square and hex grids (cells keep their coordinates).
    pub fn set_grid(&mut self, grid: GridKind) {
        self.modify(|level| level.grid = grid);
    }

    /// Resizes the map, keeping its top-left corner: new cells are open, cut cells
    /// are dropped, and units that fall off the map are removed. Returns the
    /// removed units' names. One undo step.
    pub fn resize(&mut self, size: (u32, u32)) -> Result<Vec<String>, EditError> {
        check_size(size)?;
        let mut removed = Vec::new();
        let fits = |(w, h): (u32, u32), (x, y): (i32, i32)| {
            x >= 0 && y >= 0 && (x as u32) < w && (y as u32) < h
        };
        self.modify(|level| {
            let old = level.size;
            level.size = size;
            level.terrain = normalized_rows(&level.terrain, size);
            // Units already off the old map (a malformed file) are left to problems().
            level.units.retain(|u| {
                let keep = fits(size, u.pos) || !fits(old, u.pos);
                if !keep {
                    removed.push(u.name.clone());
                }
                keep
            });
        });
        Ok(removed)
    }

    // ----- terrain -----

    /// Paints `terrain` with a brush of `size` centered on `center` (see
    /// [`crate::editor::terrain::brush_cells`]); returns how many cells changed.
    /// Inside a stroke this adds to the stroke's undo step.
    pub fn paint(&mut self, center: Cell, size: u32, terrain: Terrain) -> usize {
        let cells = brush_cells(&self.level, center, size);
        self.set_cells(&cells, terrain)
    }

    /// Fills the rectangle with corners `a` and `b` (clipped to the map) with
    /// `terrain`; returns how many cells changed.
    pub fn fill_rect(&mut self, a: Cell, b: Cell, terrain: Terrain) -> usize {
        let cells = rect_cells(&self.level, a, b);
        self.set_cells(&cells, terrain)
    }

    /// Fills the connected region of `start`'s terrain (4-connected on squares,
    /// 6-connected on hexes) with `terrain`; returns how many cells changed.
    pub fn flood_fill(&mut self, start: Cell, terrain: Terrain) -> usize {
        let cells = flood_region(&self.level, start);
        self.set_cells(&cells, terrain)
    }

    /// Sets every on-map cell of `cells` to `terrain` as one step (or as part of the
    /// open stroke); returns how many cells changed.
    pub fn set_cells(&mut self, cells: &[Cell], terrain: Terrain) -> usize {
        let ch = terrain.symbol();
        let mut changes: Vec<(Cell, char)> = cells
            .iter()
            .copied()
            .filter(|&c| char_at(&self.level, c).is_some_and(|old| old != ch))
            .map(|c| (c, ch))
            .collect();
        changes.sort_unstable();
        changes.dedup();
        if changes.is_empty() {
            return 0;
        }
        let mut edits = Vec::with_capacity(2);
        let rows = normalized_rows(&self.level.terrain, self.level.size);
        if rows != self.level.terrain {
            edits.push(Edit::TerrainRows(rows));
        }
        let changed = changes.len();
        edits.push(Edit::Terrain(changes));
        // The rows cover the map after normalizing, and every cell is on the map.
        match self.apply(edits) {
            Ok(()) => changed,
            Err(_) => 0,
        }
    }

    // ----- units -----

    /// The index of the unit standing on `cell`, if any.
    pub fn unit_at(&self, cell: Cell) -> Option<usize> {
        self.level.units.iter().position(|u| u.cell() == cell)
    }

    /// The index of the unit named `name`, if any.
    pub fn unit_named(&self, name: &str) -> Option<usize> {
        self.level.units.iter().position(|u| u.name == name)
    }

    /// The index of the side named `name`, if any.
    pub fn side_named(&self, name: &str) -> Option<usize> {
        self.level.sides.iter().position(|s| s.name == name)
    }

    /// Places a new unit of side `side` on `cell`, at the end of the roster, and
    /// returns its index. Its name is the template's (or `Unit`), made unique with
    /// a number: `Knight`, `Knight 2`, ...
    pub fn place_unit(
        &mut self,
        source: UnitSource<'_>,
        side: &str,
        cell: Cell,
    ) -> Result<usize, EditError> {
        if self.side_named(side).is_none() {
            return Err(EditError::UnknownSide(side.to_string()));
        }
        self.check_free(cell, None)?;
        let unit = match source {
            UnitSource::Blank => {
                let mut unit = bare_unit(&self.fresh_unit_name("Unit"), side, cell);
                for field in stat_form(&self.level.ruleset) {
                    if let Some(value) = field.default {
                        unit.stats.insert(field.name.to_string(), value);
                    }
                }
                unit
            }
            UnitSource::Template(template) => {
                if template.ruleset != self.level.ruleset {
                    return Err(EditError::WrongRuleset {
                        template: template.name.clone(),
                        for_ruleset: template.ruleset.clone(),
                        level: self.level.ruleset.clone(),
                    });
                }
                template.unit(&self.fresh_unit_name(&template.name), side, cell)
            }
        };
        let index = self.level.units.len();
        self.apply(vec![Edit::InsertUnit(index, unit)])?;
        Ok(index)
    }

    /// A unit name not used yet: `base`, `base 2`, `base 3`, ...
    pub fn fresh_unit_name(&self, base: &str) -> String {
        unique_name(base, |n| self.unit_named(n).is_some())
    }

    /// Moves a unit to `cell` (on the map, not impassable, not taken by another
    /// unit).
    pub fn move_unit(&mut self, index: usize, cell: Cell) -> Result<(), EditError> {
        let mut unit = self.unit(index)?.clone();
        if unit.cell() == cell {
            return Ok(());
        }
        self.check_free(cell, Some(index))?;
        unit.pos = (cell.x, cell.y);
        self.apply(vec![Edit::SetUnit(index, unit)])
    }

    /// Deletes a unit.
    pub fn delete_unit(&mut self, index: usize) -> Result<(), EditError> {
        self.unit(index)?;
        self.apply(vec![Edit::RemoveUnit(index)])
    }

    /// Renames a unit (not empty, not another unit's name; surrounding spaces are
    /// trimmed).
    pub fn rename_unit(&mut self, index: usize, name: &str) -> Result<(), EditError> {
        let name = name.trim();
        let mut unit = self.unit(index)?.clone();
        if unit.name == name {
            return Ok(());
        }
        if name.is_empty() {
            return Err(EditError::EmptyName);
        }
        if self.unit_named(name).is_some() {
            return Err(EditError::NameTaken(name.to_string()));
        }
        unit.name = name.to_string();
        self.apply(vec![Edit::SetUnit(index, unit)])
    }

    /// Moves a unit to another (existing) side.
    pub fn set_unit_side(&mut self, index: usize, side: &str) -> Result<(), EditError> {
        let mut unit = self.unit(index)?.clone();
        if self.side_named(side).is_none() {
            return Err(EditError::UnknownSide(side.to_string()));
        }
        if unit.side == side {
            return Ok(());
        }
        unit.side = side.to_string();
        self.apply(vec![Edit::SetUnit(index, unit)])
    }

    /// Sets (`Some`) or removes (`None`) a stat of a unit. Only stats the level's
    /// ruleset reads can be set ([`crate::editor::stat_form`]); required ones can't
    /// be removed. Any stat the ruleset does not read can be removed (left over
    /// after switching rulesets, say). Values are not range-checked here: a Tier of
    /// 7 is allowed and listed by [`Self::problems`].
    pub fn set_stat(
        &mut self,
        index: usize,
        stat: &str,
        value: Option<i32>,
    ) -> Result<(), EditError> {
        let mut unit = self.unit(index)?.clone();
        let ruleset = &self.level.ruleset;
        let specs =
            stat_specs(ruleset).ok_or_else(|| EditError::UnknownRuleset(ruleset.clone()))?;
        let spec = specs.iter().find(|s| s.name == stat);
        match (spec, value) {
            (None, Some(_)) => {
                return Err(EditError::UnknownStat {
                    stat: stat.to_string(),
                    ruleset: ruleset.clone(),
                    expected: specs.iter().map(|s| s.name).collect::<Vec<_>>().join(", "),
                });
            }
            (Some(spec), None) if spec.required => {
                return Err(EditError::RequiredStat(stat.to_string()));
            }
            (_, Some(v)) => {
                if unit.stats.insert(stat.to_string(), v) == Some(v) {
                    return Ok(());
                }
            }
            (_, None) => {
                if unit.stats.remove(stat).is_none() {
                    return Ok(());
                }
            }
        }
        self.apply(vec![Edit::SetUnit(index, unit)])
    }

    /// Sets (`Some`) or removes (`None`, the ruleset's untrained value then applies)
    /// a skill of a unit. The skill must be one the level's ruleset rolls
    /// ([`skill_form`]); the value is not checked ([`Self::problems`] reports one out
    /// of range). One undo step.
    pub fn set_skill(
        &mut self,
        index: usize,
        skill: &str,
        value: Option<i32>,
    ) -> Result<(), EditError> {
        let mut unit = self.unit(index)?.clone();
        let ruleset = &self.level.ruleset;
        let skills = skill_form(ruleset);
        if !skills.contains(&skill) {
            return Err(EditError::UnknownSkill {
                skill: skill.to_string(),
                ruleset: ruleset.clone(),
                expected: skills.join(", "),
            });
        }
        let changed = match value {
            Some(v) => unit.skills.insert(skill.to_string(), v) != Some(v),
            None => unit.skills.remove(skill).is_some(),
        };
        if !changed {
            return Ok(());
        }
        self.apply(vec![Edit::SetUnit(index, unit)])
    }

    /// Sets a unit's size category, for a ruleset that reads it ([`unit_extras`]).
    /// One undo step.
    pub fn set_size(&mut self, index: usize, size: Size) -> Result<(), EditError> {
        self.check_extra("size")?;
        let mut unit = self.unit(index)?.clone();
        if unit.size == size {
            return Ok(());
        }
        unit.size = size;
        self.apply(vec![Edit::SetUnit(index, unit)])
    }

    /// Replaces a unit's weapons (the first is its primary weapon), for a ruleset
    /// that reads them ([`unit_extras`]). Not checked further; [`Self::problems`]
    /// reports bad dice or hands. One undo step.
    pub fn set_weapons(&mut self, index: usize, weapons: Vec<WeaponDef>) -> Result<(), EditError> {
        self.check_extra("weapons")?;
        let mut unit = self.unit(index)?.clone();
        if unit.weapons == weapons {
            return Ok(());
        }
        unit.weapons = weapons;
        self.apply(vec![Edit::SetUnit(index, unit)])
    }

    /// Replaces a unit's traits (the phrases its ruleset reads, e.g. `Fast`,
    /// `Resist Fire 14+`; [`crate::editor::parse_traits`] reads a typed field). One
    /// undo step. Not checked here: [`Self::problems`] lists each phrase the
    /// ruleset refuses, at that phrase. Allowed in any ruleset, so traits left over
    /// from another ruleset can be removed.
    pub fn set_unit_traits(&mut self, index: usize, traits: Vec<String>) -> Result<(), EditError> {
        let mut unit = self.unit(index)?.clone();
        if unit.traits == traits {
            return Ok(());
        }
        unit.traits = traits;
        self.apply(vec![Edit::SetUnit(index, unit)])
    }

    /// Refuses a `flow`-style unit field in a ruleset that does not read it.
    fn check_extra(&self, field: &'static str) -> Result<(), EditError> {
        if unit_extras(&self.level.ruleset) {
            Ok(())
        } else {
            Err(EditError::UnusedField {
                field,
                ruleset: self.level.ruleset.clone(),
            })
        }
    }

    /// Replaces a unit's definition wholesale (powers, items, movement...): the
    /// escape hatch for fields without an operation of their own. Not checked;
    /// [`Self::problems`] reports what is wrong.
    pub fn set_unit(&mut self, index: usize, unit: UnitDef) -> Result<(), EditError> {
        if *self.unit(index)? != unit {
            self.apply(vec![Edit::SetUnit(index, unit)])?;
        }
        Ok(())
    }

    fn unit(&self, index: usize) -> Result<&UnitDef, EditError> {
        self.level
            .units
            .get(index)
            .ok_or(EditError::NoSuchUnit(index))
    }

    /// Whether a unit (other than `mover`) could stand on `cell`.
    fn check_free(&self, cell: Cell, mover: Option<usize>) -> Result<(), EditError> {
        if !on_map(&self.level, cell) {
            return Err(EditError::OffMap(cell));
        }
        if terrain_at(&self.level, cell) == Some(Terrain::Impassable) {
            return Err(EditError::Impassable(cell));
        }
        if let Some(other) = self.unit_at(cell).filter(|&i| Some(i) != mover) {
            return Err(EditError::Occupied {
                cell,
                by: self.level.units[other].name.clone(),
            });
        }
        Ok(())
    }

    // ----- sides -----

    /// Adds a side (human, asks for decisions) at the end of the list; returns its
    /// index.
    pub fn add_side(&mut self, name: &str) -> Result<usize, EditError> {
        let name = self.check_side_name(name, None)?;
        let index = self.level.sides.len();
        let side = side_def(&name, Controller::Human, DecisionPolicy::Ask);
        self.apply(vec![Edit::InsertSide(index, side)])?;
        Ok(index)
    }

    /// A side name not used yet: `base`, `base 2`, ...
    pub fn fresh_side_name(&self, base: &str) -> String {
        unique_name(base, |n| self.side_named(n).is_some())
    }

    /// Removes a side and all its units, as one undo step; returns the removed
    /// units' names.
    pub fn remove_side(&mut self, index: usize) -> Result<Vec<String>, EditError> {
        let side = self.side(index)?.name.clone();
        let mut edits = Vec::new();
        let mut removed = Vec::new();
        // From the back, so the indices of the units still to remove stay valid.
        for (i, unit) in self.level.units.iter().enumerate().rev() {
            if unit.side == side {
                edits.push(Edit::RemoveUnit(i));
                removed.push(unit.name.clone());
            }
        }
        edits.push(Edit::RemoveSide(index));
        removed.reverse();
        self.apply(edits)?;
        Ok(removed)
    }

    /// Renames a side and updates its units, as one undo step.
    pub fn rename_side(&mut self, index: usize, name: &str) -> Result<(), EditError> {
        let old = self.side(index)?.clone();
        if old.name == name.trim() {
            return Ok(());
        }
        let name = self.check_side_name(name, Some(index))?;
        let mut side = old.clone();
        side.name = name.clone();
        let mut edits = vec![Edit::SetSide(index, side)];
        for (i, unit) in self.level.units.iter().enumerate() {
            if unit.side == old.name {
                let mut unit = unit.clone();
                unit.side = name.clone();
                edits.push(Edit::SetUnit(i, unit));
            }
        }
        self.apply(edits)
    }

    /// Sets who plays a side: a person, or the AI with a policy.
    pub fn set_controller(
        &mut self,
        index: usize,
        controller: Controller,
    ) -> Result<(), EditError> {
        let mut side = self.side(index)?.clone();
        if side.controller != controller {
            side.controller = controller;
            self.apply(vec![Edit::SetSide(index, side)])?;
        }
        Ok(())
    }

    /// Sets how a side answers optional decisions when nobody is asked.
    pub fn set_decisions(
        &mut self,
        index: usize,
        decisions: DecisionPolicy,
    ) -> Result<(), EditError> {
        let mut side = self.side(index)?.clone();
        if side.decisions != decisions {
            side.decisions = decisions;
            self.apply(vec![Edit::SetSide(index, side)])?;
        }
        Ok(())
    }

    /// Replaces a side's traits (`escalation`: `PCs` or `Enemies`), as
    /// [`Self::set_unit_traits`] does a unit's. One undo step.
    pub fn set_side_traits(&mut self, index: usize, traits: Vec<String>) -> Result<(), EditError> {
        let mut side = self.side(index)?.clone();
        if side.traits != traits {
            side.traits = traits;
            self.apply(vec![Edit::SetSide(index, side)])?;
        }
        Ok(())
    }

    fn side(&self, index: usize) -> Result<&SideDef, EditError> {
        self.level
            .sides
            .get(index)
            .ok_or(EditError::NoSuchSide(index))
    }

    /// The trimmed name if it is not empty and no other side has it.
    fn check_side_name(&self, name: &str, except: Option<usize>) -> Result<String, EditError> {
        let name = name.trim();
        if name.is_empty() {
            return Err(EditError::EmptyName);
        }
        if self.side_named(name).is_some_and(|i| Some(i) != except) {
            return Err(EditError::NameTaken(name.to_string()));
        }
        Ok(name.to_string())
    }

    // ----- files -----

    /// Saves to the level's file atomically (a temporary file renamed over it; the
    /// previous version kept as `<name>.bak`). Saving is allowed with problems, so
    /// nothing is lost; the problems of the saved level are returned (empty for a
    /// valid level, whose file then passes `skirmish check`).
    pub fn save(&mut self) -> Result<Vec<DocProblem>, SaveError> {
        let path = self.path.clone().ok_or(SaveError::NoPath)?;
        self.save_as(&path)
    }

    /// Saves to `path` (atomically, as [`Self::save`]) and makes it the level's
    /// file.
    pub fn save_as(&mut self, path: &Path) -> Result<Vec<DocProblem>, SaveError> {
        self.end_stroke();
        save_atomic(path, &self.level).map_err(|source| SaveError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        self.path = Some(path.to_path_buf());
        self.clean = Some(self.undo.len());
        Ok(self.problems())
    }
}

/// A level that parses, without the semantic checks.
fn parse_unchecked(text: &str) -> Option<Level> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
        .from_str(text)
        .ok()
}

fn check_size((w, h): (u32, u32)) -> Result<(), EditError> {
    if (1..=MAX_SIDE).contains(&w) && (1..=MAX_SIDE).contains(&h) {
        Ok(())
    } else {
        Err(EditError::BadSize(w, h))
    }
}

fn check_ruleset(ruleset: &str) -> Result<(), EditError> {
    if RULESETS.contains(&ruleset) {
        Ok(())
    } else {
        Err(EditError::UnknownRuleset(ruleset.to_string()))
    }
}
