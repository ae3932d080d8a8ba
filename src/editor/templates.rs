//! The unit template library: `assets/units/*.ron`, units to place quickly.
//!
//! A template is a unit without a side or a place, for one ruleset (its id, as a
//! level names it); `assets/units/knight.ron` reads:
//!
//! ```ron
//! (
//!     ruleset: …,
//!     name: "Knight",
//!     about: "Armoured swordsman. Tier 2.",
//!     stats: {"INT": 0, "AGI": 1, "ATK": 3, "DEF": 13, "Tier": 2},
//!     powers: [(name: "Longsword", damage: "1d8")],
//! )
//! ```
//!
//! `stats`, `powers`, `movement` and `items` (and, for `flow`, `size`, `skills`,
//! `weapons` and `armor`; for a ruleset that reads them, `traits`) are written as in
//! a level (docs/levels.md) and checked by the same rules; `about` is an optional one-line
//! description for the editor's palette.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::engine::board::Cell;
use crate::level::load::locate_path;
use crate::level::schema::{ItemDef, PowerDef, Size, UnitDef, WeaponDef};
use crate::level::validate::{PathStep, Where, validate};
use crate::level::{Level, Problem};

use super::skeleton::bare_unit;

/// A unit template: everything about a unit but its side and cell.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Template {
    /// The ruleset it is made for; it can only be placed in levels of that ruleset.
    pub ruleset: String,
    /// The name placed units get (numbered when taken: `Knight 2`).
    pub name: String,
    /// A one-line description for the palette.
    #[serde(default)]
    pub about: String,
    /// Stats by name, as the ruleset declares them.
    #[serde(default)]
    pub stats: BTreeMap<String, i32>,
    /// Attack powers; empty means the ruleset's default power.
    #[serde(default)]
    pub powers: Vec<PowerDef>,
    /// Extra movement powers, by name.
    #[serde(default)]
    pub movement: Vec<String>,
    /// Items.
    #[serde(default)]
    pub items: Vec<ItemDef>,
    /// Size category (`flow`).
    #[serde(default)]
    pub size: Size,
    /// Percentile skills by name (`flow`).
    #[serde(default)]
    pub skills: BTreeMap<String, i32>,
    /// Weapons carried (`flow`); the editor's weapon choices come from these.
    #[serde(default)]
    pub weapons: Vec<WeaponDef>,
    /// Flat damage reduction (`flow`).
    #[serde(default)]
    pub armor: i32,
    /// Phrases the ruleset reads about the unit (`Fast`, `Resist Fire 14+`...),
    /// checked by the ruleset as in a level.
    #[serde(default)]
    pub traits: Vec<String>,
    /// The icon its units show (see [`crate::level::icons`]); by default one its
    /// weapons or powers call for.
    #[serde(default)]
    pub icon: Option<String>,
}

impl Template {
    /// A unit made from this template, named `name`, of side `side`, on `cell`.
    pub fn unit(&self, name: &str, side: &str, cell: Cell) -> UnitDef {
        let mut unit = bare_unit(name, side, cell);
        unit.stats = self.stats.clone();
        unit.powers = self.powers.clone();
        unit.movement = self.movement.clone();
        unit.items = self.items.clone();
        unit.size = self.size;
        unit.skills = self.skills.clone();
        unit.weapons = self.weapons.clone();
        unit.armor = self.armor;
        unit.traits = self.traits.clone();
        unit.icon = self.icon.clone();
        unit
    }
}

/// The template directory: `units/` under `$SKIRMISH_ASSETS`, or `assets/units`.
pub fn templates_dir() -> PathBuf {
    crate::engine::ruleset::config::assets_dir().join("units")
}

/// The library shipped with the game, compiled in.
const BUILTIN: &[(&str, &str)] = &[
    ("archer.ron", include_str!("../../assets/units/archer.ron")),
    ("cleric.ron", include_str!("../../assets/units/cleric.ron")),
    ("goblin.ron", include_str!("../../assets/units/goblin.ron")),
    ("knight.ron", include_str!("../../assets/units/knight.ron")),
    ("ogre.ron", include_str!("../../assets/units/ogre.ron")),
    ("shaman.ron", include_str!("../../assets/units/shaman.ron")),
    (
        "sellsword.ron",
        include_str!("../../assets/units/sellsword.ron"),
    ),
    (
        "halberdier.ron",
        include_str!("../../assets/units/halberdier.ron"),
    ),
    ("scout.ron", include_str!("../../assets/units/scout.ron")),
    (
        "escalation_fighter.ron",
        include_str!("../../assets/units/escalation_fighter.ron"),
    ),
    (
        "escalation_ranger.ron",
        include_str!("../../assets/units/escalation_ranger.ron"),
    ),
    (
        "escalation_priest.ron",
        include_str!("../../assets/units/escalation_priest.ron"),
    ),
    (
        "escalation_wizard.ron",
        include_str!("../../assets/units/escalation_wizard.ron"),
    ),
    (
        "escalation_goblin.ron",
        include_str!("../../assets/units/escalation_goblin.ron"),
    ),
    (
        "escalation_orc.ron",
        include_str!("../../assets/units/escalation_orc.ron"),
    ),
    (
        "escalation_harpy.ron",
        include_str!("../../assets/units/escalation_harpy.ron"),
    ),
    (
        "escalation_ogre.ron",
        include_str!("../../assets/units/escalation_ogre.ron"),
    ),
    (
        "wounds_swordsman.ron",
        include_str!("../../assets/units/wounds_swordsman.ron"),
    ),
    (
        "wounds_spearman.ron",
        include_str!("../../assets/units/wounds_spearman.ron"),
    ),
    (
        "wounds_bowman.ron",
        include_str!("../../assets/units/wounds_bowman.ron"),
    ),
    (
        "wounds_brute.ron",
        include_str!("../../assets/units/wounds_brute.ron"),
    ),
    (
        "wounds_cutthroat.ron",
        include_str!("../../assets/units/wounds_cutthroat.ron"),
    ),
    (
        "wounds_mage.ron",
        include_str!("../../assets/units/wounds_mage.ron"),
    ),
    (
        "actfast_fighter.ron",
        include_str!("../../assets/units/actfast_fighter.ron"),
    ),
    (
        "actfast_archer.ron",
        include_str!("../../assets/units/actfast_archer.ron"),
    ),
    (
        "actfast_mage.ron",
        include_str!("../../assets/units/actfast_mage.ron"),
    ),
    (
        "actfast_brigand.ron",
        include_str!("../../assets/units/actfast_brigand.ron"),
    ),
    (
        "actfast_chief.ron",
        include_str!("../../assets/units/actfast_chief.ron"),
    ),
    (
        "actfast_skeleton.ron",
        include_str!("../../assets/units/actfast_skeleton.ron"),
    ),
    (
        "actfast_wight.ron",
        include_str!("../../assets/units/actfast_wight.ron"),
    ),
];

/// The templates from [`templates_dir`], or the compiled-in library when that
/// directory does not exist.
pub fn load_default_templates() -> Result<Vec<Template>, Vec<Problem>> {
    let dir = templates_dir();
    if dir.is_dir() {
        return load_templates(&dir);
    }
    collect(
        BUILTIN
            .iter()
            .map(|(file, text)| parse_template(text, &format!("<builtin>/{file}"))),
    )
}

/// Loads every `*.ron` file of `dir` (in file name order) as a template. Every
/// problem of every file is returned at `file:line:col`: RON syntax, unknown
/// fields, an unknown ruleset, stats the ruleset does not declare or a missing
/// required one, bad dice, unknown movement powers or conditions, and two
/// templates with the same name.
pub fn load_templates(dir: &Path) -> Result<Vec<Template>, Vec<Problem>> {
    let problem = |file: &Path, message: String| Problem {
        file: file.display().to_string(),
        line: 1,
        col: 1,
        message,
    };
    let entries =
        std::fs::read_dir(dir).map_err(|e| vec![problem(dir, format!("cannot read: {e}"))])?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron") && p.is_file())
        .collect();
    files.sort();
    collect(files.iter().map(|path| {
        let file = path.display().to_string();
        match std::fs::read_to_string(path) {
            Ok(text) => parse_template(&text, &file),
            Err(e) => Err(vec![problem(path, format!("cannot read: {e}"))]),
        }
    }))
}

/// All templates, or all problems (including duplicate names).
fn collect(
    results: impl Iterator<Item = Result<(Template, Problem), Vec<Problem>>>,
) -> Result<Vec<Template>, Vec<Problem>> {
    let mut templates = Vec::new();
    let mut problems = Vec::new();
    let mut names: BTreeMap<String, String> = BTreeMap::new();
    for result in results {
        match result {
            Ok((template, mut at_name)) => {
                if let Some(first) = names.get(&template.name) {
                    at_name.message = format!(
                        "duplicate template name `{}` ({first} has it too); expected unique names",
                        template.name
                    );
                    problems.push(at_name);
                } else {
                    names.insert(template.name.clone(), at_name.file.clone());
                    templates.push(template);
                }
            }
            Err(mut p) => problems.append(&mut p),
        }
    }
    if problems.is_empty() {
        Ok(templates)
    } else {
        Err(problems)
    }
}

/// Parses and checks one template; on success also returns a problem placed at its
/// `name` (message to be filled in), for reporting duplicates.
fn parse_template(text: &str, file: &str) -> Result<(Template, Problem), Vec<Problem>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let at = |(line, col): (usize, usize), message: String| Problem {
        file: file.to_string(),
        line,
        col,
        message: message.replace(['\n', '\r'], " "),
    };
    let template: Template = ron::from_str(text).map_err(|e| {
        let pos = (e.span.start.line.max(1), e.span.start.col.max(1));
        vec![at(pos, describe(&e.code))]
    })?;
    // Check the unit as a level would: alone in a one-cell level of its ruleset,
    // keeping only what is about the unit (and the ruleset).
    let mut level: Level = ron::from_str(
        r#"(name: "", ruleset: "", grid: Square, size: (1, 1), sides: [(name: "S")], units: [])"#,
    )
    .map_err(|e| vec![at((1, 1), format!("internal: {e}"))])?;
    level.ruleset = template.ruleset.clone();
    level
        .units
        .push(template.unit(&template.name, "S", Cell::new(0, 0)));
    let problems: Vec<Problem> = validate(&level)
        .into_iter()
        .filter_map(|issue| {
            let key = match &issue.at {
                Where::Field("ruleset") => Key::Field("ruleset"),
                Where::Unit {
                    field: Some("stats"),
                    ..
                } => Key::Field("stats"),
                Where::Stat { stat, .. } => Key::Str(stat.clone()),
                Where::Power { .. } | Where::OnHit { .. } => Key::Field("powers"),
                Where::Movement { .. } => Key::Field("movement"),
                Where::Item { .. } => Key::Field("items"),
                Where::Skill { skill, .. } => Key::Str(skill.clone()),
                Where::Weapon { .. } => Key::Field("weapons"),
                Where::UnitTrait { index, .. } => {
                    Key::Path(vec![PathStep::Field("traits"), PathStep::Index(*index)])
                }
                Where::Unit {
                    field: Some(field @ ("size" | "skills" | "weapons" | "armor")),
                    ..
                } => Key::Field(field),
                _ => return None,
            };
            // Power problems inside items are found under `items`.
            let key = match (&issue.at, key) {
                (
                    Where::Power {
                        power: crate::level::validate::PowerRef::Item(_),
                        ..
                    }
                    | Where::OnHit {
                        power: crate::level::validate::PowerRef::Item(_),
                        ..
                    },
                    _,
                ) => Key::Field("items"),
                (_, key) => key,
            };
            Some(at(find(text, &key).unwrap_or((1, 1)), issue.message))
        })
        .collect();
    if !problems.is_empty() {
        return Err(problems);
    }
    let name_at = at(
        find(text, &Key::Field("name")).unwrap_or((1, 1)),
        String::new(),
    );
    Ok((template, name_at))
}

/// What to look for in a template's text to place a problem.
enum Key {
    /// A field name followed by `:`.
    Field(&'static str),
    /// A quoted string (a stat name in `stats`).
    Str(String),
    /// A place found by the level locator ([`locate_path`]), e.g. the n-th phrase
    /// of `traits`.
    Path(Vec<PathStep>),
}

/// The 1-based line and column of the first occurrence of `key` outside comments
/// (a best-effort search: templates are small and flat).
fn find(text: &str, key: &Key) -> Option<(usize, usize)> {
    if let Key::Path(path) = key {
        return locate_path(text, path);
    }
    let mut in_line_comment = false;
    let mut in_string = false;
    let bytes = text.as_bytes();
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if in_line_comment {
            in_line_comment = b != b'\n';
        } else if in_string {
            match b {
                b'\\' => i += 1,
                b'"' => in_string = false,
                _ => {}
            }
        } else if bytes[i..].starts_with(b"//") {
            in_line_comment = true;
        } else {
            let rest = &bytes[i..];
            let hit = match key {
                Key::Field(name) => {
                    rest.starts_with(name.as_bytes())
                        && (i == 0 || !ident(bytes[i - 1]))
                        && rest[name.len()..].iter().find(|b| !b.is_ascii_whitespace())
                            == Some(&b':')
                }
                Key::Str(s) => rest.starts_with(format!("\"{s}\"").as_bytes()),
                Key::Path(_) => false,
            };
            if hit {
                let before = &text[..i];
                let line = 1 + before.matches('\n').count();
                let start = before.rfind('\n').map_or(0, |n| n + 1);
                return Some((line, 1 + before[start..].chars().count()));
            }
            in_string = b == b'"';
        }
        i += 1;
    }
    None
}

/// A readable message for a RON error in a template.
fn describe(code: &ron::Error) -> String {
    match code {
        ron::Error::NoSuchStructField {
            expected, found, ..
        } => format!(
            "unknown field `{found}` in a template; expected one of: {}",
            expected.join(", ")
        ),
        ron::Error::MissingStructField { field, .. } => {
            format!("missing field `{field}`; it is required")
        }
        other => other.to_string(),
    }
}
