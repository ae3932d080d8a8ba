//! The editor window's state and what its tools, fields and dialogs do to the
//! document, with no Bevy systems in it: [`Editor`] turns pointer presses, drags,
//! typed text and +/- keys into [`EditorDoc`] calls and reports the outcome on the
//! status line. The systems in [`super::control`] only read input and call these
//! methods, so the mapping is tested headless (`tests/editor_ui.rs`).
//!
//! Nothing here panics on bad input: a refused edit, a bad number or an unwritable
//! path becomes an error on the status line and leaves the level unchanged.

use std::path::{Path, PathBuf};

use bevy::prelude::Resource;

use crate::editor::{
    DocProblem, EditorDoc, MAX_BRUSH, SIZES, SKILL_RANGE, StatField, Template, UnitSource,
    parse_traits, skill_form, stat_form, trait_hint, traits_text, unit_extras, weapon_choices,
};
use crate::engine::board::{Cell, GridKind, Terrain};
use crate::engine::ruleset::TraitOf;
use crate::engine::rulesets::{RULESETS, registry};
use crate::game::screen::cycle;
use crate::level::Level;
use crate::level::schema::{AiPolicy, Controller, DecisionPolicy, Hand, WeaponDef};

/// The tools of the palette.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tool {
    /// Paint terrain with a brush; a drag is one undo step.
    Brush,
    /// Fill a rectangle: press on one corner, release on the other.
    Rect,
    /// Flood-fill the connected region of the same terrain.
    Fill,
    /// Place a unit from the selected template (or select the unit clicked).
    Unit,
    /// Select a unit; drag it to move it.
    Select,
}

impl Tool {
    /// Every tool, in palette order.
    pub const ALL: [Tool; 5] = [
        Tool::Brush,
        Tool::Rect,
        Tool::Fill,
        Tool::Unit,
        Tool::Select,
    ];

    /// The palette label.
    pub fn label(self) -> &'static str {
        match self {
            Tool::Brush => "Brush",
            Tool::Rect => "Rect",
            Tool::Fill => "Fill",
            Tool::Unit => "Unit",
            Tool::Select => "Select",
        }
    }
}

/// The display name of a terrain kind.
pub fn terrain_name(t: Terrain) -> &'static str {
    match t {
        Terrain::Open => "Open",
        Terrain::Difficult => "Difficult",
        Terrain::Impassable => "Impassable",
        Terrain::Water => "Water",
        Terrain::Climb => "Climb",
    }
}

/// The controllers a side cycles through.
pub const CONTROLLERS: [Controller; 5] = [
    Controller::Human,
    Controller::Ai(AiPolicy::Random),
    Controller::Ai(AiPolicy::Easy),
    Controller::Ai(AiPolicy::Normal),
    Controller::Ai(AiPolicy::Hard),
];

/// The decision policies a side cycles through.
pub const DECISIONS: [DecisionPolicy; 3] = [
    DecisionPolicy::Ask,
    DecisionPolicy::Auto,
    DecisionPolicy::Never,
];

/// A short label for a controller.
pub fn controller_label(c: Controller) -> &'static str {
    match c {
        Controller::Human => "Human",
        Controller::Ai(AiPolicy::Random) => "AI random",
        Controller::Ai(AiPolicy::Easy) => "AI easy",
        Controller::Ai(AiPolicy::Normal) => "AI normal",
        Controller::Ai(AiPolicy::Hard) => "AI hard",
    }
}

/// A short label for a decision policy.
pub fn decisions_label(d: DecisionPolicy) -> &'static str {
    match d {
        DecisionPolicy::Ask => "ask",
        DecisionPolicy::Auto => "auto",
        DecisionPolicy::Never => "never",
    }
}

/// One row of the unit form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormRow {
    /// The unit's name (typed).
    Name,
    /// The unit's side (+/- cycles).
    Side,
    /// A stat of the level's ruleset (+/- or typed; empty removes an optional one).
    Stat(StatField),
    /// A skill of the level's ruleset (+/- or typed, 0–100; empty removes it).
    Skill(&'static str),
    /// The unit's size category (+/- cycles).
    Size,
    /// The unit's weapons (+/- cycles the primary, the first one, through the
    /// ruleset's template weapons and "none").
    Weapons,
    /// The unit's traits, typed as comma-separated phrases (empty: none). Shown
    /// when the ruleset reads unit traits (gives examples), or the unit has some.
    Traits,
}

/// What a text field edits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TextTarget {
    /// The selected unit's name.
    UnitName(usize),
    /// A stat of a unit.
    Stat(usize, &'static str),
    /// A skill of a unit.
    Skill(usize, &'static str),
    /// A unit's traits, comma-separated.
    UnitTraits(usize),
    /// A side's traits, comma-separated.
    SideTraits(usize),
    /// A side's name.
    SideName(usize),
    /// The path to save to (Save as).
    SavePath,
    /// The path to open.
    OpenPath,
}

/// The text field being typed into.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextEdit {
    /// What it edits.
    pub target: TextTarget,
    /// The text so far.
    pub buffer: String,
}

/// Something that would lose unsaved changes, waiting for confirmation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Guarded {
    /// Open another level.
    Open(PathBuf),
    /// Start a new level (shows the new-level dialog).
    New,
    /// Quit the program.
    Quit,
}

/// The settings of the new-level dialog.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewLevel {
    /// Hex or square.
    pub grid: GridKind,
    /// Width and height in cells.
    pub size: (u32, u32),
    /// The ruleset id (one of [`RULESETS`]).
    pub ruleset: String,
    /// The file the level will be saved to, if already chosen.
    pub path: Option<PathBuf>,
}

impl Default for NewLevel {
    fn default() -> Self {
        Self {
            grid: GridKind::Square,
            size: (10, 8),
            ruleset: registry::default_id().to_string(),
            path: None,
        }
    }
}

impl NewLevel {
    /// The grids the chosen ruleset is played on (both if it is unknown).
    fn grids(&self) -> &'static [GridKind] {
        registry::get(&self.ruleset).map_or(&[GridKind::Square, GridKind::Hex], |r| r.grids())
    }

    /// Whether the ruleset is played on more than one grid (so `G` switches).
    pub fn grid_choice(&self) -> bool {
        self.grids().len() > 1
    }

    /// Switches between hex and square, if the ruleset is played on both.
    pub fn toggle_grid(&mut self) {
        let grids = self.grids();
        let i = grids.iter().position(|g| *g == self.grid);
        if let Some(&g) = grids.get(i.map_or(0, |i| (i + 1) % grids.len())) {
            self.grid = g;
        }
    }

    /// The next ruleset the engine knows; the grid follows it if the ruleset is
    /// not played on the current one.
    pub fn next_ruleset(&mut self) {
        let i = RULESETS.iter().position(|r| *r == self.ruleset);
        let next = i.map_or(0, |i| (i + 1) % RULESETS.len());
        if let Some(r) = RULESETS.get(next) {
            self.ruleset = r.to_string();
        }
        let grids = self.grids();
        if !grids.contains(&self.grid)
            && let Some(&g) = grids.first()
        {
            self.grid = g;
        }
    }

    /// Grows or shrinks the map, within 4..=60 cells a side.
    pub fn resize(&mut self, dw: i32, dh: i32) {
        let clamp = |v: u32, d: i32| (v as i32 + d).clamp(4, 60) as u32;
        self.size = (clamp(self.size.0, dw), clamp(self.size.1, dh));
    }
}

/// A dialog over the editor; while one is open, the map and panels take no input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Modal {
    /// Create a new level.
    NewLevel(NewLevel),
    /// Save as: type a path (the text field is [`Editor::typing`]).
    SaveAs,
    /// Open: type a path or pick one of the listed levels.
    Open(Vec<PathBuf>),
    /// Unsaved changes: discard them and go on?
    Confirm(Guarded),
}

/// A press on the map in progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Drag {
    /// A brush stroke; the last cell painted.
    Stroke(Cell),
    /// A rectangle from this corner.
    Rect(Cell),
    /// Moving this unit.
    Move(usize),
}

/// What the window must do after an editor operation.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// Nothing more.
    None,
    /// Start a battle on this level (playtest).
    Playtest(Box<Level>),
    /// Quit the program.
    Quit,
}

/// The editor window's state: the document and everything the panels show.
#[derive(Resource, Debug)]
pub struct Editor {
    /// The level being edited.
    pub doc: EditorDoc,
    /// Bumped when another document is opened or created (views rebuild).
    pub generation: u64,
    /// The active tool.
    pub tool: Tool,
    /// The terrain painted.
    pub terrain: Terrain,
    /// Brush size, 1..=[`MAX_BRUSH`].
    pub brush: u32,
    /// The whole template library.
    pub templates: Vec<Template>,
    /// Index into [`Self::placeable`]: 0 is a blank unit.
    pub template: usize,
    /// The selected side: new units join it; the sides keys act on it.
    pub side: usize,
    /// The selected unit.
    pub selected: Option<usize>,
    /// The selected row of the unit form.
    pub field: usize,
    /// The text field being typed into.
    pub typing: Option<TextEdit>,
    /// The open dialog.
    pub modal: Option<Modal>,
    /// The keyboard cursor.
    pub cursor: Option<Cell>,
    /// The cell tools act on: under the pointer, or the cursor when it moved last.
    pub hovered: Option<Cell>,
    /// The press in progress.
    pub drag: Option<Drag>,
    /// Status line: text and whether it is an error.
    pub status: Option<(String, bool)>,
    /// The problems of the level, refreshed when it changes.
    pub problems: Vec<DocProblem>,
    /// `(generation, revision)` the problems were computed for.
    problems_for: Option<(u64, u64)>,
    /// The problem `NextProblem` jumps to next.
    pub problem_index: usize,
    /// A cell the camera should center on (set by jumps to problems).
    pub jump: Option<Cell>,
}

impl Editor {
    /// An editor on `doc` with the template library `templates`.
    pub fn new(doc: EditorDoc, templates: Vec<Template>) -> Self {
        let mut ed = Self {
            doc,
            generation: 0,
            tool: Tool::Brush,
            terrain: Terrain::Impassable,
            brush: 1,
            templates,
            template: 0,
            side: 0,
            selected: None,
            field: 0,
            typing: None,
            modal: None,
            cursor: None,
            hovered: None,
            drag: None,
            status: None,
            problems: Vec::new(),
            problems_for: None,
            problem_index: 0,
            jump: None,
        };
        ed.refresh();
        ed
    }

    /// Sets a success message.
    pub fn ok(&mut self, msg: impl Into<String>) {
        self.status = Some((msg.into(), false));
    }

    /// Sets an error message.
    pub fn err(&mut self, msg: impl Into<String>) {
        self.status = Some((msg.into(), true));
    }

    /// Replaces the document (open, new) and resets the selection.
    pub fn replace_doc(&mut self, doc: EditorDoc) {
        self.doc = doc;
        self.generation += 1;
        self.selected = None;
        self.drag = None;
        self.typing = None;
        self.cursor = None;
        self.hovered = None;
        self.side = 0;
        self.template = 0;
        self.field = 0;
        self.problem_index = 0;
        self.refresh();
    }

    /// Keeps selections valid after the level changed (undo can remove a unit) and
    /// recomputes the problems when the level changed.
    pub fn refresh(&mut self) {
        let level = self.doc.level();
        if self.selected.is_some_and(|i| i >= level.units.len()) {
            self.selected = None;
        }
        self.side = self.side.min(level.sides.len().saturating_sub(1));
        self.template = self.template.min(self.placeable().len().saturating_sub(1));
        self.field = self.field.min(self.form().len().saturating_sub(1));
        let key = (self.generation, self.doc.revision());
        if self.problems_for != Some(key) {
            self.problems = self.doc.problems();
            self.problems_for = Some(key);
        }
    }

    // ----- palette -----

    /// The templates usable in this level's ruleset.
    pub fn placeable(&self) -> Vec<&Template> {
        let ruleset = &self.doc.level().ruleset;
        self.templates
            .iter()
            .filter(|t| &t.ruleset == ruleset)
            .collect()
    }

    /// The name of the selected template (`Blank` for a unit with default stats).
    pub fn template_name(&self) -> String {
        match self.template.checked_sub(1) {
            None => "Blank".into(),
            Some(i) => self
                .placeable()
                .get(i)
                .map_or("Blank".into(), |t| t.name.clone()),
        }
    }

    /// Moves the template selection by `delta` (wrapping; 0 is Blank).
    pub fn cycle_template(&mut self, delta: i32) {
        let n = self.placeable().len() as i32 + 1;
        self.template = (self.template as i32 + delta).rem_euclid(n) as usize;
        let name = self.template_name();
        self.ok(format!("Template: {name}"));
    }

    /// Picks a tool.
    pub fn set_tool(&mut self, tool: Tool) {
        self.tool = tool;
        self.drag = None;
        self.doc.end_stroke();
        self.ok(format!("Tool: {}", tool.label()));
    }

    /// Picks the next terrain kind the engine knows.
    pub fn cycle_terrain(&mut self) {
        self.set_terrain(cycle(&Terrain::ALL, self.terrain, 1));
    }

    /// Picks a terrain kind (and the brush, if a unit tool was active).
    pub fn set_terrain(&mut self, terrain: Terrain) {
        self.terrain = terrain;
        if matches!(self.tool, Tool::Unit | Tool::Select) {
            self.tool = Tool::Brush;
        }
        self.ok(format!("Terrain: {}", terrain_name(terrain)));
    }

    /// Changes the brush size by `delta`, within 1..=[`MAX_BRUSH`].
    pub fn resize_brush(&mut self, delta: i32) {
        self.brush = (self.brush as i32 + delta).clamp(1, MAX_BRUSH as i32) as u32;
        self.ok(format!("Brush size {}", self.brush));
    }

    // ----- the map -----

    /// A press (mouse button or the apply key) on `cell` with the active tool.
    pub fn press(&mut self, cell: Cell) {
        self.drag = None;
        match self.tool {
            Tool::Brush => {
                self.doc.begin_stroke();
                self.doc.paint(cell, self.brush, self.terrain);
                self.drag = Some(Drag::Stroke(cell));
            }
            Tool::Rect => self.drag = Some(Drag::Rect(cell)),
            Tool::Fill => {
                let n = self.doc.flood_fill(cell, self.terrain);
                self.ok(format!(
                    "Filled {n} cell{} with {}",
                    plural(n),
                    terrain_name(self.terrain)
                ));
            }
            Tool::Unit => match self.doc.unit_at(cell) {
                Some(i) => self.select(Some(i)),
                None => self.place(cell),
            },
            Tool::Select => {
                self.select(self.doc.unit_at(cell));
                if let Some(i) = self.selected {
                    self.drag = Some(Drag::Move(i));
                }
            }
        }
        self.refresh();
    }

    /// The pointer (or cursor) moved to `cell` while pressed: paints along the way.
    pub fn drag_to(&mut self, cell: Cell) {
        if let Some(Drag::Stroke(last)) = self.drag {
            if last == cell {
                return;
            }
            for c in line(last, cell).into_iter().skip(1) {
                self.doc.paint(c, self.brush, self.terrain);
            }
            self.drag = Some(Drag::Stroke(cell));
            self.refresh();
        }
    }

    /// The press ended on `cell` (`None`: off the map).
    pub fn release(&mut self, cell: Option<Cell>) {
        match (self.drag.take(), cell) {
            (Some(Drag::Stroke(_)), _) => {
                let before = self.doc.can_undo();
                self.doc.end_stroke();
                if before {
                    self.ok(format!("Painted {}", terrain_name(self.terrain)));
                }
            }
            (Some(Drag::Rect(a)), Some(b)) => {
                let n = self.doc.fill_rect(a, b, self.terrain);
                self.ok(format!(
                    "Filled {n} cell{} from {a} to {b} with {}",
                    plural(n),
                    terrain_name(self.terrain)
                ));
            }
            (Some(Drag::Move(i)), Some(to)) => {
                let from = self.doc.level().units.get(i).map(|u| u.cell());
                if from.is_some_and(|f| f != to) {
                    match self.doc.move_unit(i, to) {
                        Ok(()) => self.ok(format!("Moved {} to {to}", self.unit_name(i))),
                        Err(e) => self.err(e.to_string()),
                    }
                }
            }
            _ => {}
        }
        self.refresh();
    }

    /// Places a unit of the selected template and side on `cell` and selects it.
    pub fn place(&mut self, cell: Cell) {
        let Some(side) = self
            .doc
            .level()
            .sides
            .get(self.side)
            .map(|s| s.name.clone())
        else {
            self.err("Add a side first (Insert)");
            return;
        };
        let templates = self.placeable();
        let template = self
            .template
            .checked_sub(1)
            .and_then(|i| templates.get(i).copied())
            .cloned();
        let source = match &template {
            Some(t) => UnitSource::Template(t),
            None => UnitSource::Blank,
        };
        match self.doc.place_unit(source, &side, cell) {
            Ok(i) => {
                self.selected = Some(i);
                self.field = 0;
                self.ok(format!("Placed {} ({side}) at {cell}", self.unit_name(i)));
            }
            Err(e) => self.err(e.to_string()),
        }
        self.refresh();
    }

    fn unit_name(&self, i: usize) -> String {
        self.doc
            .level()
            .units
            .get(i)
            .map_or_else(String::new, |u| u.name.clone())
    }

    /// Selects a unit (or nothing), and its side.
    pub fn select(&mut self, unit: Option<usize>) {
        self.selected = unit;
        self.field = 0;
        if let Some(i) = unit {
            let level = self.doc.level();
            if let Some(side) = level
                .units
                .get(i)
                .and_then(|u| level.sides.iter().position(|s| s.name == u.side))
            {
                self.side = side;
            }
            self.ok(format!("Selected {}", self.unit_name(i)));
        }
    }

    /// Deletes the selected unit.
    pub fn delete_selected(&mut self) {
        let Some(i) = self.selected else {
            self.err("No unit selected (Select tool: V, then click a unit)");
            return;
        };
        let name = self.unit_name(i);
        match self.doc.delete_unit(i) {
            Ok(()) => {
                self.selected = None;
                self.ok(format!("Deleted {name}"));
            }
            Err(e) => self.err(e.to_string()),
        }
        self.refresh();
    }

    /// Moves the keyboard cursor by `(dx, dy)`, clamped to the map.
    pub fn move_cursor(&mut self, dx: i32, dy: i32) {
        let (w, h) = self.doc.level().size;
        let start = self
            .cursor
            .or(self.hovered)
            .unwrap_or(Cell::new(w as i32 / 2, h as i32 / 2));
        let next = Cell::new(
            (start.x + dx).clamp(0, w as i32 - 1),
            (start.y + dy).clamp(0, h as i32 - 1),
        );
        self.cursor = Some(next);
        self.hovered = Some(next);
    }

    // ----- unit form -----

    /// The rows of the unit form for the level's ruleset (empty without a
    /// selected unit).
    pub fn form(&self) -> Vec<FormRow> {
        if self.selected.is_none() {
            return Vec::new();
        }
        let ruleset = &self.doc.level().ruleset;
        let mut rows = vec![FormRow::Name, FormRow::Side];
        rows.extend(stat_form(ruleset).into_iter().map(FormRow::Stat));
        rows.extend(skill_form(ruleset).iter().map(|&s| FormRow::Skill(s)));
        if unit_extras(ruleset) {
            rows.extend([FormRow::Size, FormRow::Weapons]);
        }
        let has_traits = self
            .selected
            .and_then(|i| self.doc.level().units.get(i))
            .is_some_and(|u| !u.traits.is_empty());
        if has_traits || trait_hint(ruleset, TraitOf::Unit).is_some() {
            rows.push(FormRow::Traits);
        }
        rows
    }

    /// Whether side `index` shows a traits field: the ruleset reads side traits
    /// (gives examples), or the side has some (so they can be removed).
    pub fn side_traits_shown(&self, index: usize) -> bool {
        let level = self.doc.level();
        level.sides.get(index).is_some_and(|s| !s.traits.is_empty())
            || trait_hint(&level.ruleset, TraitOf::Side).is_some()
    }

    /// The tip of a traits field: how to type it and the ruleset's examples
    /// ("comma-separated, empty = none; e.g. Fast, Ranged").
    pub fn traits_tip(&self, of: TraitOf) -> String {
        let ruleset = &self.doc.level().ruleset;
        match trait_hint(ruleset, of) {
            Some(hint) => format!("comma-separated, empty = none; {hint}"),
            None => format!(
                "ruleset {ruleset} reads no {} traits: empty the field to remove them",
                of.noun()
            ),
        }
    }

    /// The value a form row shows for the selected unit.
    pub fn row_value(&self, row: FormRow) -> String {
        let Some(unit) = self.selected.and_then(|i| self.doc.level().units.get(i)) else {
            return String::new();
        };
        match row {
            FormRow::Name => unit.name.clone(),
            FormRow::Side => unit.side.clone(),
            FormRow::Stat(f) => unit
                .stats
                .get(f.name)
                .map_or_else(String::new, |v| v.to_string()),
            FormRow::Skill(s) => unit
                .skills
                .get(s)
                .map_or_else(String::new, |v| v.to_string()),
            FormRow::Size => crate::engine::log::size_name(unit.size).to_string(),
            FormRow::Weapons => unit
                .weapons
                .iter()
                .map(|w| w.name.as_str())
                .collect::<Vec<_>>()
                .join(", "),
            FormRow::Traits => traits_text(&unit.traits),
        }
    }

    /// The weapons the weapons row cycles through: those of the level's ruleset's
    /// templates.
    pub fn weapon_choices(&self) -> Vec<WeaponDef> {
        weapon_choices(&self.doc.level().ruleset, &self.templates)
    }

    /// Moves the form selection by `delta` (wrapping).
    pub fn move_field(&mut self, delta: i32) {
        let n = self.form().len() as i32;
        if n > 0 {
            self.field = (self.field as i32 + delta).rem_euclid(n) as usize;
        }
    }

    /// +/- on the selected form row: a stat goes up or down by `delta` (from its
    /// default, or 0, when unset); the side cycles through the sides.
    pub fn adjust(&mut self, delta: i32) {
        let Some(unit) = self.selected else {
            self.err("No unit selected");
            return;
        };
        let Some(row) = self.form().get(self.field).copied() else {
            return;
        };
        let result = match row {
            FormRow::Name => {
                self.err("Press Enter to type a new name");
                return;
            }
            FormRow::Traits => {
                let tip = self.traits_tip(TraitOf::Unit);
                self.err(format!("Press Enter to type the traits ({tip})"));
                return;
            }
            FormRow::Side => {
                let level = self.doc.level();
                let n = level.sides.len() as i32;
                let current = level
                    .units
                    .get(unit)
                    .and_then(|u| level.sides.iter().position(|s| s.name == u.side))
                    .unwrap_or(0) as i32;
                let next = (current + delta).rem_euclid(n.max(1)) as usize;
                match level.sides.get(next).map(|s| s.name.clone()) {
                    Some(side) => {
                        self.side = next;
                        self.doc.set_unit_side(unit, &side)
                    }
                    None => return,
                }
            }
            FormRow::Stat(f) => {
                let current = self
                    .doc
                    .level()
                    .units
                    .get(unit)
                    .and_then(|u| u.stats.get(f.name).copied())
                    .or(f.default)
                    .unwrap_or(0);
                let value = current.saturating_add(delta);
                let r = self.doc.set_stat(unit, f.name, Some(value));
                if r.is_ok() {
                    self.ok(format!("{} = {value}", f.name));
                }
                r
            }
            FormRow::Skill(skill) => {
                let current = self
                    .doc
                    .level()
                    .units
                    .get(unit)
                    .and_then(|u| u.skills.get(skill).copied())
                    .unwrap_or(0);
                let value = current
                    .saturating_add(delta)
                    .clamp(SKILL_RANGE.0, SKILL_RANGE.1);
                let r = self.doc.set_skill(unit, skill, Some(value));
                if r.is_ok() {
                    self.ok(format!("{skill} = {value}"));
                }
                r
            }
            FormRow::Size => {
                let current = self.doc.level().units.get(unit).map(|u| u.size);
                let at = SIZES.iter().position(|&s| Some(s) == current).unwrap_or(1);
                let size =
                    SIZES[(at as i32 + delta.signum()).rem_euclid(SIZES.len() as i32) as usize];
                let r = self.doc.set_size(unit, size);
                if r.is_ok() {
                    self.ok(format!("Size: {}", crate::engine::log::size_name(size)));
                }
                r
            }
            FormRow::Weapons => {
                let choices = self.weapon_choices();
                if choices.is_empty() {
                    self.err("No unit template of this ruleset has weapons to choose from");
                    return;
                }
                let mut weapons = self
                    .doc
                    .level()
                    .units
                    .get(unit)
                    .map(|u| u.weapons.clone())
                    .unwrap_or_default();
                // Positions 0..n are the choices, n is "no primary weapon".
                let n = choices.len() as i32;
                let at = weapons
                    .first()
                    .map_or(Some(n), |w| {
                        choices
                            .iter()
                            .position(|c| c.name == w.name)
                            .map(|i| i as i32)
                    })
                    .unwrap_or(if delta > 0 { -1 } else { n });
                let next = (at + delta.signum()).rem_euclid(n + 1);
                let msg = match choices.get(next as usize) {
                    Some(choice) => {
                        let mut weapon = choice.clone();
                        weapon.held = Hand::Main;
                        let msg = format!("Primary weapon: {}", weapon.name);
                        match weapons.first_mut() {
                            Some(first) => *first = weapon,
                            None => weapons.push(weapon),
                        }
                        msg
                    }
                    None => {
                        if !weapons.is_empty() {
                            weapons.remove(0);
                        }
                        "Primary weapon removed".to_string()
                    }
                };
                let r = self.doc.set_weapons(unit, weapons);
                if r.is_ok() {
                    self.ok(msg);
                }
                r
            }
        };
        if let Err(e) = result {
            self.err(e.to_string());
        }
        self.refresh();
    }

    /// Starts typing into the selected form row.
    pub fn edit_field(&mut self) {
        let Some(unit) = self.selected else {
            self.err("No unit selected");
            return;
        };
        let Some(row) = self.form().get(self.field).copied() else {
            return;
        };
        let target = match row {
            FormRow::Name => TextTarget::UnitName(unit),
            FormRow::Side | FormRow::Size | FormRow::Weapons => {
                self.adjust(1);
                return;
            }
            FormRow::Stat(f) => TextTarget::Stat(unit, f.name),
            FormRow::Skill(s) => TextTarget::Skill(unit, s),
            FormRow::Traits => TextTarget::UnitTraits(unit),
        };
        let buffer = self.row_value(row);
        self.typing = Some(TextEdit { target, buffer });
    }

    /// Starts typing a new name for the selected side.
    pub fn edit_side_name(&mut self) {
        if let Some(side) = self.doc.level().sides.get(self.side) {
            self.typing = Some(TextEdit {
                target: TextTarget::SideName(self.side),
                buffer: side.name.clone(),
            });
        }
    }

    /// Starts typing the traits of the selected side, if it shows a traits field
    /// ([`Self::side_traits_shown`]); otherwise says that the ruleset reads none.
    pub fn edit_side_traits(&mut self) {
        let Some(side) = self.doc.level().sides.get(self.side) else {
            return;
        };
        if !self.side_traits_shown(self.side) {
            let ruleset = self.doc.level().ruleset.clone();
            self.err(format!("Ruleset {ruleset} reads no side traits"));
            return;
        }
        let msg = format!(
            "Traits of {}: {}",
            side.name,
            self.traits_tip(TraitOf::Side)
        );
        self.typing = Some(TextEdit {
            target: TextTarget::SideTraits(self.side),
            buffer: traits_text(&side.traits),
        });
        self.ok(msg);
    }

    /// Applies the typed text to its target and stops typing. Returns what the
    /// window must do (opening a file can ask for confirmation first).
    pub fn commit_text(&mut self) -> Outcome {
        let Some(edit) = self.typing.take() else {
            return Outcome::None;
        };
        let text = edit.buffer.trim().to_string();
        let result = match edit.target {
            TextTarget::UnitName(i) => self
                .doc
                .rename_unit(i, &text)
                .map(|()| format!("Renamed the unit to {text}")),
            TextTarget::Stat(i, stat) if text.is_empty() => self
                .doc
                .set_stat(i, stat, None)
                .map(|()| format!("{stat} left to the ruleset")),
            TextTarget::Stat(i, stat) => match text.parse::<i32>() {
                Ok(v) => self
                    .doc
                    .set_stat(i, stat, Some(v))
                    .map(|()| format!("{stat} = {v}")),
                Err(_) => {
                    self.err(format!("{stat}: `{text}` is not a whole number"));
                    self.typing = Some(TextEdit {
                        target: TextTarget::Stat(i, stat),
                        buffer: edit.buffer,
                    });
                    return Outcome::None;
                }
            },
            TextTarget::Skill(i, skill) if text.is_empty() => self
                .doc
                .set_skill(i, skill, None)
                .map(|()| format!("{skill} left untrained")),
            TextTarget::Skill(i, skill) => match text.parse::<i32>() {
                Ok(v) if (SKILL_RANGE.0..=SKILL_RANGE.1).contains(&v) => self
                    .doc
                    .set_skill(i, skill, Some(v))
                    .map(|()| format!("{skill} = {v}")),
                _ => {
                    self.err(format!(
                        "{skill}: `{text}` is not a whole number from {} to {}",
                        SKILL_RANGE.0, SKILL_RANGE.1
                    ));
                    self.typing = Some(TextEdit {
                        target: TextTarget::Skill(i, skill),
                        buffer: edit.buffer,
                    });
                    return Outcome::None;
                }
            },
            TextTarget::SideName(i) => self
                .doc
                .rename_side(i, &text)
                .map(|()| format!("Renamed the side to {text}")),
            TextTarget::UnitTraits(i) => {
                let (name, current) = match self.doc.level().units.get(i) {
                    Some(u) => (u.name.clone(), u.traits.clone()),
                    None => (String::new(), Vec::new()),
                };
                self.set_traits(&name, &current, &text, |doc, traits| {
                    doc.set_unit_traits(i, traits)
                })
            }
            TextTarget::SideTraits(i) => {
                let (name, current) = match self.doc.level().sides.get(i) {
                    Some(s) => (s.name.clone(), s.traits.clone()),
                    None => (String::new(), Vec::new()),
                };
                self.set_traits(&name, &current, &text, |doc, traits| {
                    doc.set_side_traits(i, traits)
                })
            }
            TextTarget::SavePath => {
                self.save_as(&text);
                return Outcome::None;
            }
            TextTarget::OpenPath => {
                if text.is_empty() {
                    self.err("Type the path of a level to open");
                    self.typing = Some(TextEdit {
                        target: TextTarget::OpenPath,
                        buffer: String::new(),
                    });
                    return Outcome::None;
                }
                self.modal = None;
                return self.request(Guarded::Open(PathBuf::from(text)));
            }
        };
        match result {
            Ok(msg) => self.ok(msg),
            Err(e) => self.err(e.to_string()),
        }
        self.refresh();
        Outcome::None
    }

    /// Sets the traits typed as `text` (comma-separated) of `name`, whose traits are
    /// `current`, with `set`; text that shows the current traits changes nothing
    /// (so a phrase with a comma in it, read from a file, is kept).
    fn set_traits(
        &mut self,
        name: &str,
        current: &[String],
        text: &str,
        set: impl FnOnce(&mut EditorDoc, Vec<String>) -> Result<(), crate::editor::EditError>,
    ) -> Result<String, crate::editor::EditError> {
        if text == traits_text(current) {
            return Ok(format!("{name}: traits unchanged"));
        }
        let traits = parse_traits(text);
        let shown = traits_text(&traits);
        set(&mut self.doc, traits)?;
        Ok(if shown.is_empty() {
            format!("{name}: no traits")
        } else {
            format!("{name}: traits {shown}")
        })
    }

    /// Stops typing without changing anything; closes a path dialog.
    pub fn cancel(&mut self) {
        if self.typing.take().is_some() {
            if matches!(self.modal, Some(Modal::SaveAs | Modal::Open(_))) {
                self.modal = None;
            }
            self.ok("Cancelled");
            return;
        }
        if self.modal.take().is_some() {
            self.ok("Cancelled");
            return;
        }
        if self.drag.take().is_some() {
            self.doc.end_stroke();
        }
        self.selected = None;
    }

    // ----- sides -----

    /// Selects the next side.
    pub fn cycle_side(&mut self) {
        let n = self.doc.level().sides.len();
        if n > 0 {
            self.side = (self.side + 1) % n;
            let name = self.doc.level().sides[self.side].name.clone();
            self.ok(format!("Side: {name}"));
        }
    }

    /// Adds a side with a fresh name and selects it.
    pub fn add_side(&mut self) {
        let name = self.doc.fresh_side_name("Side");
        match self.doc.add_side(&name) {
            Ok(i) => {
                self.side = i;
                self.ok(format!("Added side {name} (F2 renames it)"));
            }
            Err(e) => self.err(e.to_string()),
        }
        self.refresh();
    }

    /// Removes the selected side and its units.
    pub fn remove_side(&mut self) {
        let Some(name) = self
            .doc
            .level()
            .sides
            .get(self.side)
            .map(|s| s.name.clone())
        else {
            return;
        };
        match self.doc.remove_side(self.side) {
            Ok(units) if units.is_empty() => self.ok(format!("Removed side {name}")),
            Ok(units) => self.ok(format!(
                "Removed side {name} and its units: {}",
                units.join(", ")
            )),
            Err(e) => self.err(e.to_string()),
        }
        self.selected = None;
        self.refresh();
    }

    /// Gives the selected side the next controller (human, then the AI policies).
    pub fn cycle_controller(&mut self) {
        let Some(side) = self.doc.level().sides.get(self.side) else {
            return;
        };
        let next = cycle(&CONTROLLERS, side.controller, 1);
        let name = side.name.clone();
        match self.doc.set_controller(self.side, next) {
            Ok(()) => self.ok(format!("{name}: {}", controller_label(next))),
            Err(e) => self.err(e.to_string()),
        }
        self.refresh();
    }

    /// Gives the selected side the next decision policy (ask, auto, never).
    pub fn cycle_decisions(&mut self) {
        let Some(side) = self.doc.level().sides.get(self.side) else {
            return;
        };
        let next = cycle(&DECISIONS, side.decisions, 1);
        let name = side.name.clone();
        match self.doc.set_decisions(self.side, next) {
            Ok(()) => self.ok(format!("{name}: decisions {}", decisions_label(next))),
            Err(e) => self.err(e.to_string()),
        }
        self.refresh();
    }

    // ----- problems -----

    /// Jumps the cursor (and the camera) to problem `i`'s cell.
    pub fn jump_to_problem(&mut self, i: usize) {
        let Some(p) = self.problems.get(i) else {
            self.ok("No problems");
            return;
        };
        self.problem_index = i;
        let msg = p.to_string();
        match p.cell {
            Some(cell) => {
                let (w, h) = self.doc.level().size;
                let clamped =
                    Cell::new(cell.x.clamp(0, w as i32 - 1), cell.y.clamp(0, h as i32 - 1));
                self.cursor = Some(clamped);
                self.hovered = Some(clamped);
                self.jump = Some(clamped);
                if let Some(u) = self.doc.unit_at(cell) {
                    self.select(Some(u));
                }
                self.err(format!("{cell}: {msg}"));
            }
            None => self.err(msg),
        }
    }

    /// Jumps to the next problem.
    pub fn next_problem(&mut self) {
        if self.problems.is_empty() {
            self.ok("No problems: the level passes `skirmish check`");
            return;
        }
        let i = if self.status.as_ref().is_some_and(|(_, e)| *e) {
            (self.problem_index + 1) % self.problems.len()
        } else {
            self.problem_index % self.problems.len()
        };
        self.jump_to_problem(i);
    }

    // ----- history and files -----

    /// Undoes the last step.
    pub fn undo(&mut self) {
        self.drag = None;
        if self.doc.undo() {
            self.ok("Undone");
        } else {
            self.err("Nothing to undo");
        }
        self.refresh();
    }

    /// Redoes the last undone step.
    pub fn redo(&mut self) {
        self.drag = None;
        if self.doc.redo() {
            self.ok("Redone");
        } else {
            self.err("Nothing to redo");
        }
        self.refresh();
    }

    /// Saves to the level's file, or opens the Save-as dialog when it has none.
    pub fn save(&mut self) {
        self.drag = None;
        if self.doc.path().is_none() {
            self.open_save_as();
            return;
        }
        match self.doc.save() {
            Ok(problems) => self.saved(&problems),
            Err(e) => self.err(e.to_string()),
        }
    }

    fn saved(&mut self, problems: &[DocProblem]) {
        let file = self.file_label();
        if problems.is_empty() {
            self.ok(format!("Saved {file}"));
        } else {
            self.err(format!(
                "Saved {file}, with {} problem{} (see the list)",
                problems.len(),
                plural(problems.len())
            ));
        }
    }

    /// Shows the Save-as dialog with the current path filled in.
    pub fn open_save_as(&mut self) {
        let buffer = self
            .doc
            .path()
            .map_or_else(|| "levels/new.ron".to_string(), |p| p.display().to_string());
        self.modal = Some(Modal::SaveAs);
        self.typing = Some(TextEdit {
            target: TextTarget::SavePath,
            buffer,
        });
    }

    /// Saves to `path` (`.ron` added when it has no extension).
    pub fn save_as(&mut self, path: &str) {
        let path = path.trim();
        if path.is_empty() {
            self.err("Type a file name to save to");
            self.typing = Some(TextEdit {
                target: TextTarget::SavePath,
                buffer: String::new(),
            });
            return;
        }
        let mut path = PathBuf::from(path);
        if path.extension().is_none() {
            path.set_extension("ron");
        }
        match self.doc.save_as(&path) {
            Ok(problems) => {
                self.modal = None;
                self.saved(&problems);
            }
            Err(e) => {
                self.err(e.to_string());
                self.modal = Some(Modal::SaveAs);
                self.typing = Some(TextEdit {
                    target: TextTarget::SavePath,
                    buffer: path.display().to_string(),
                });
            }
        }
    }

    /// Shows the Open dialog with the levels in `dir`.
    pub fn open_dialog(&mut self, dir: &Path) {
        let mut list: Vec<PathBuf> = std::fs::read_dir(dir)
            .map(|entries| {
                entries
                    .filter_map(Result::ok)
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|e| e == "ron") && p.is_file())
                    .collect()
            })
            .unwrap_or_default();
        list.sort();
        self.modal = Some(Modal::Open(list));
        self.typing = Some(TextEdit {
            target: TextTarget::OpenPath,
            buffer: String::new(),
        });
    }

    /// Asks to confirm when there are unsaved changes; otherwise does it.
    pub fn request(&mut self, action: Guarded) -> Outcome {
        self.doc.end_stroke();
        if self.doc.is_dirty() {
            self.typing = None;
            self.modal = Some(Modal::Confirm(action));
            return Outcome::None;
        }
        self.perform(action)
    }

    /// Does a guarded action without asking (after confirmation).
    pub fn perform(&mut self, action: Guarded) -> Outcome {
        self.modal = None;
        self.typing = None;
        match action {
            Guarded::Quit => return Outcome::Quit,
            Guarded::New => {
                let level = self.doc.level();
                self.modal = Some(Modal::NewLevel(NewLevel {
                    grid: level.grid,
                    size: level.size,
                    ruleset: level.ruleset.clone(),
                    path: None,
                }));
            }
            Guarded::Open(path) => self.open(&path),
        }
        Outcome::None
    }

    /// Opens a level file (one with problems opens too; they are listed).
    pub fn open(&mut self, path: &Path) {
        match EditorDoc::open(path) {
            Ok(doc) => {
                self.replace_doc(doc);
                let n = self.problems.len();
                if n == 0 {
                    self.ok(format!("Opened {}", path.display()));
                } else {
                    self.err(format!(
                        "Opened {} with {n} problem{} (P jumps to them)",
                        path.display(),
                        plural(n)
                    ));
                }
            }
            Err(problems) => {
                let first = problems.first().map_or_else(String::new, |p| p.to_string());
                self.err(format!("Cannot open {}: {first}", path.display()));
            }
        }
    }

    /// Creates the level of the new-level dialog.
    pub fn create(&mut self, new: &NewLevel) {
        let name = new.path.as_ref().and_then(|p| p.file_stem()).map_or_else(
            || "New level".to_string(),
            |s| s.to_string_lossy().into_owned(),
        );
        match EditorDoc::new_level(&name, new.grid, new.size, &new.ruleset) {
            Ok(doc) => {
                let doc = match &new.path {
                    Some(p) => EditorDoc::from_level(doc.level().clone(), Some(p.clone())),
                    None => doc,
                };
                self.modal = None;
                self.replace_doc(doc);
                self.ok(format!(
                    "New {} level {}x{} under {}: paint terrain, place units, Ctrl+S saves",
                    crate::engine::log::grid_name(new.grid),
                    new.size.0,
                    new.size.1,
                    new.ruleset
                ));
            }
            Err(e) => self.err(e.to_string()),
        }
    }

    /// The level to playtest, or why not: a level with problems can't be played.
    pub fn playtest(&mut self) -> Outcome {
        self.doc.end_stroke();
        self.drag = None;
        self.refresh();
        if let Some(first) = self.problems.first() {
            let n = self.problems.len();
            let msg = format!(
                "Can't playtest: {n} problem{} to fix first ({first})",
                plural(n)
            );
            self.problem_index = 0;
            self.err(msg);
            return Outcome::None;
        }
        Outcome::Playtest(Box::new(self.doc.level().clone()))
    }

    /// The file name for the status line, with `*` when there are unsaved changes.
    pub fn file_label(&self) -> String {
        let name = self.doc.path().map_or_else(
            || "(unsaved)".to_string(),
            |p| {
                p.file_name().map_or_else(
                    || p.display().to_string(),
                    |n| n.to_string_lossy().into_owned(),
                )
            },
        );
        let dirty = if self.doc.is_dirty() { "*" } else { "" };
        format!("{name}{dirty}")
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// The cells on a straight line from `a` to `b`, both included (so a fast drag
/// paints without gaps).
pub fn line(a: Cell, b: Cell) -> Vec<Cell> {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let steps = dx.abs().max(dy.abs());
    if steps == 0 {
        return vec![a];
    }
    (0..=steps)
        .map(|i| {
            let t = i as f32 / steps as f32;
            Cell::new(
                a.x + (dx as f32 * t).round() as i32,
                a.y + (dy as f32 * t).round() as i32,
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_new_level_dialog_offers_only_the_rulesets_grids() {
        let mut new = NewLevel::default();
        assert_eq!(new.ruleset, registry::default_id());
        assert!(new.grid_choice());
        new.toggle_grid();
        assert_eq!(new.grid, GridKind::Hex);
        new.toggle_grid();
        assert_eq!(new.grid, GridKind::Square);
        // flow is played on hexes: choosing it moves the grid, and G keeps it there.
        let hex_only = registry::all()
            .into_iter()
            .find(|r| r.grids() == [GridKind::Hex])
            .expect("a ruleset played on hexes only");
        while new.ruleset != hex_only.id() {
            new.next_ruleset();
        }
        assert_eq!(new.grid, GridKind::Hex);
        assert!(!new.grid_choice());
        new.toggle_grid();
        assert_eq!(new.grid, GridKind::Hex);
    }
}
