//! Semantic checks of a parsed level: the rules `skirmish check` enforces.
//!
//! [`validate`] collects every problem of a [`Level`] (never just the first) as
//! [`Issue`]s. Each issue says where it is as a [`Where`], a structured place in the
//! level (a unit's field, a terrain character, a rules key...); [`Where::path`] turns
//! it into [`PathStep`]s that [`crate::level::load`] follows through the source text
//! to report `file:line:col`.

use std::collections::BTreeMap;

use crate::engine::board::{GridKind, Terrain};
use crate::engine::ruleset::{MAX_RANGE, Ruleset, StatSpec, TraitOf, parse_dice};
use crate::engine::rulesets::{RULESETS, registry, stat_specs};

use super::schema::{ItemEffect, Level, PowerDef, Size, UnitDef};
pub use crate::engine::problems::{Issue, PathStep, PowerRef, Where, side_label, unit_label};

/// The only level format version.
pub const FORMAT_VERSION: u32 = 1;

/// The largest width and height a map may have.
pub const MAX_SIDE: u32 = 256;

/// Checks a parsed level against every rule of the format and its ruleset; returns
/// all problems found (empty when the level is valid).
pub fn validate(level: &Level) -> Vec<Issue> {
    let mut c = Checker {
        level,
        issues: Vec::new(),
        specs: stat_specs(&level.ruleset),
        size_ok: false,
    };
    c.version();
    c.ruleset();
    c.size();
    c.terrain();
    c.sides();
    c.units();
    c.issues
        .extend(crate::engine::archetype::archetype_issues(level));
    c.rules();
    c.victory();
    c.max_commands();
    c.issues
}

struct Checker<'a> {
    level: &'a Level,
    issues: Vec<Issue>,
    specs: Option<&'static [StatSpec]>,
    size_ok: bool,
}

impl Checker<'_> {
    fn push(&mut self, at: Where, message: String) {
        self.issues.push(Issue { at, message });
    }

    fn version(&mut self) {
        let v = self.level.version;
        if v != FORMAT_VERSION {
            self.push(
                Where::Field("version"),
                format!("unsupported level format version {v}; expected {FORMAT_VERSION}"),
            );
        }
    }

    fn ruleset(&mut self) {
        let r = &self.level.ruleset;
        if !RULESETS.contains(&r.as_str()) {
            self.push(
                Where::Field("ruleset"),
                format!(
                    "unknown ruleset `{r}`; expected one of: {}",
                    RULESETS.join(", ")
                ),
            );
        }
    }

    fn size(&mut self) {
        let (w, h) = self.level.size;
        self.size_ok = (1..=MAX_SIDE).contains(&w) && (1..=MAX_SIDE).contains(&h);
        if !self.size_ok {
            self.push(
                Where::Field("size"),
                format!(
                    "map size ({w}, {h}) is out of range; expected width and height from 1 to {MAX_SIDE}"
                ),
            );
        }
    }

    fn terrain(&mut self) {
        let level = self.level;
        if level.terrain.is_empty() {
            return;
        }
        let (w, h) = level.size;
        if self.size_ok && level.terrain.len() != h as usize {
            self.push(
                Where::Field("terrain"),
                format!(
                    "terrain has {} rows but the map is {h} rows high; expected exactly {h} rows \
                     of {w} characters, or no terrain at all (all open)",
                    level.terrain.len()
                ),
            );
        }
        for (row, text) in level.terrain.iter().enumerate() {
            // One issue per row, at its first bad character, however many there are:
            // the work and the output stay linear in the size of the file.
            let mut len = 0;
            let mut first_bad = None;
            let mut bad = 0usize;
            for (col, ch) in text.chars().enumerate() {
                len = col + 1;
                if Terrain::from_symbol(ch).is_none() {
                    first_bad.get_or_insert((col, ch));
                    bad += 1;
                }
            }
            if let Some((col, ch)) = first_bad {
                let more = match bad - 1 {
                    0 => String::new(),
                    1 => " and 1 more in this row".to_string(),
                    n => format!(" and {n} more in this row"),
                };
                self.push(
                    Where::TerrainCell { row, col },
                    format!(
                        "bad terrain character '{}' at ({col}, {row}){more}; expected {}",
                        ch.escape_debug(),
                        terrain_kinds()
                    ),
                );
            }
            if self.size_ok && len != w as usize {
                // Point at the first extra character, or at the end of a short row.
                let col = len.min(w as usize);
                self.push(
                    Where::TerrainCell { row, col },
                    format!(
                        "terrain row {row} has {len} characters; expected {w} (the map's width)"
                    ),
                );
            }
        }
    }

    /// The terrain at a cell, if the terrain rows give one.
    fn terrain_at(&self, x: i32, y: i32) -> Option<Terrain> {
        let row = self.level.terrain.get(usize::try_from(y).ok()?)?;
        let ch = row.chars().nth(usize::try_from(x).ok()?)?;
        Terrain::from_symbol(ch)
    }

    fn sides(&mut self) {
        let level = self.level;
        if level.sides.len() < 2 {
            self.push(
                Where::Field("sides"),
                format!(
                    "a battle needs at least 2 sides; found {}",
                    level.sides.len()
                ),
            );
        }
        let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
        for (index, side) in level.sides.iter().enumerate() {
            let at = Where::Side {
                index,
                field: Some("name"),
            };
            if side.name.trim().is_empty() {
                self.push(
                    at,
                    format!("side #{} has an empty name; expected a name", index + 1),
                );
            } else if let Some(first) = seen.get(side.name.as_str()) {
                self.push(
                    at,
                    format!(
                        "duplicate side name `{}` (side #{} has it too); expected unique names",
                        side.name,
                        first + 1
                    ),
                );
            } else {
                seen.insert(&side.name, index);
                if !level.units.iter().any(|u| u.side == side.name) {
                    self.push(
                        at,
                        format!(
                            "side `{}` has no units; expected at least one unit per side",
                            side.name
                        ),
                    );
                }
            }
        }
    }

    fn units(&mut self) {
        let level = self.level;
        let (w, h) = level.size;
        let side_names: Vec<&str> = level.sides.iter().map(|s| s.name.as_str()).collect();
        let mut names: BTreeMap<&str, usize> = BTreeMap::new();
        let mut cells: BTreeMap<(i32, i32), usize> = BTreeMap::new();

        for (index, unit) in level.units.iter().enumerate() {
            let field = |f| Where::Unit {
                index,
                field: Some(f),
            };
            let label = unit_label(index, unit);

            if unit.name.trim().is_empty() {
                self.push(
                    field("name"),
                    format!("unit #{} has an empty name; expected a name", index + 1),
                );
            } else if let Some(first) = names.get(unit.name.as_str()) {
                self.push(
                    field("name"),
                    format!(
                        "duplicate unit name `{}` (unit #{} has it too); expected unique names",
                        unit.name,
                        first + 1
                    ),
                );
            } else {
                names.insert(&unit.name, index);
            }

            if !side_names.contains(&unit.side.as_str()) {
                self.push(
                    field("side"),
                    format!(
                        "unknown side `{}` for {label}; expected one of: {}",
                        unit.side,
                        side_names.join(", ")
                    ),
                );
            }

            let (x, y) = unit.pos;
            if self.size_ok {
                let on_map = x >= 0 && y >= 0 && (x as u32) < w && (y as u32) < h;
                if !on_map {
                    self.push(
                        field("pos"),
                        format!(
                            "{label} at ({x}, {y}) is off the map; expected a column from 0 to {} \
                             and a row from 0 to {}",
                            w - 1,
                            h - 1
                        ),
                    );
                } else if self.terrain_at(x, y) == Some(Terrain::Impassable) {
                    self.push(
                        field("pos"),
                        format!(
                            "{label} at ({x}, {y}) stands on impassable terrain `#`; expected an \
                             open `.` or difficult `~` cell"
                        ),
                    );
                }
            }
            if let Some(first) = cells.get(&(x, y)) {
                let other = &level.units[*first].name;
                self.push(
                    field("pos"),
                    format!(
                        "{label} at ({x}, {y}) is on the same cell as unit `{other}`; expected \
                         one unit per cell"
                    ),
                );
            } else {
                cells.insert((x, y), index);
            }

            self.stats(index, &label);
            // Fields only some rulesets use (skills, weapons, armor, powers, movement)
            // are each ruleset's business (`check_level`).

            for (p, power) in unit.powers.iter().enumerate() {
                self.power(index, PowerRef::Listed(p), power, &label);
            }

            // `movement` names are the ruleset's business (`check_level`).

            for (item, def) in unit.items.iter().enumerate() {
                match &def.effect {
                    ItemEffect::Heal(dice) => {
                        if let Err(e) = parse_dice(dice) {
                            self.push(
                                Where::Item {
                                    unit: index,
                                    item,
                                    field: Some("effect"),
                                },
                                format!(
                                    "item `{}` of {label} heals `{dice}`, which {e}; expected \
                                     e.g. `2d4` or `1d8+2`",
                                    def.name
                                ),
                            );
                        }
                    }
                    ItemEffect::Power(power) => {
                        self.power(index, PowerRef::Item(item), power, &label);
                    }
                    ItemEffect::Cleanse => {}
                }
                self.item_ap(index, item, &label);
            }
        }
    }

    /// An item's own AP cost: only where the ruleset reads one, in its range
    /// ([`crate::engine::ruleset::LevelSchema::item_ap`]).
    fn item_ap(&mut self, unit: usize, item: usize, label: &str) {
        let def = &self.level.units[unit].items[item];
        let Some(ap) = def.ap else { return };
        let Some(ruleset) = registry::get(&self.level.ruleset) else {
            return; // unknown ruleset, reported once at `ruleset`
        };
        let message = match ruleset.item_ap() {
            None => format!(
                "item `{}` of {label} sets `ap`, which `{}` does not read; expected no `ap`",
                def.name, self.level.ruleset
            ),
            Some(range) if !range.contains(&ap) => format!(
                "item `{}` of {label} costs ap {ap}; expected {} to {}",
                def.name,
                range.start(),
                range.end()
            ),
            Some(_) => return,
        };
        let at = Where::Item {
            unit,
            item,
            field: Some("ap"),
        };
        self.push(at, message);
    }

    fn stats(&mut self, index: usize, label: &str) {
        let Some(specs) = self.specs else {
            return; // unknown ruleset, reported once at `ruleset`
        };
        let unit = &self.level.units[index];
        if unit.archetype.is_some() && unit.stats.is_empty() {
            return; // not realized: its archetype's problem is reported at `archetype`
        }
        let ruleset = &self.level.ruleset;
        let expected = specs
            .iter()
            .map(|s| {
                if s.required {
                    s.name.to_string()
                } else {
                    format!("{} (optional)", s.name)
                }
            })
            .collect::<Vec<_>>()
            .join(", ");

        for name in unit.stats.keys() {
            if specs.iter().any(|s| s.name == name) {
                continue;
            }
            let hint = specs
                .iter()
                .find(|s| s.name.eq_ignore_ascii_case(name))
                .map(|s| format!(" (did you mean `{}`?)", s.name))
                .unwrap_or_default();
            self.push(
                Where::Stat {
                    unit: index,
                    stat: name.clone(),
                },
                format!(
                    "unknown stat `{name}`{hint} for {label} in ruleset {ruleset}; expected: {expected}"
                ),
            );
        }

        let missing: Vec<&str> = specs
            .iter()
            .filter(|s| s.required && !unit.stats.contains_key(s.name))
            .map(|s| s.name)
            .collect();
        if !missing.is_empty() {
            let plural = if missing.len() == 1 { "" } else { "s" };
            self.push(
                Where::Unit {
                    index,
                    field: Some("stats"),
                },
                format!(
                    "{label} is missing required stat{plural} {}; ruleset {ruleset} expects: {expected}",
                    missing.join(", ")
                ),
            );
        }

        // The ranges the ruleset plays with (its stat specs).
        for (stat, &v) in &unit.stats {
            let Some(spec) = specs.iter().find(|s| s.name == stat) else {
                continue;
            };
            if !(spec.min..=spec.max).contains(&v) {
                self.push(
                    Where::Stat {
                        unit: index,
                        stat: stat.clone(),
                    },
                    format!("{label} has {stat} {v}; expected {}", expected_range(spec)),
                );
            }
        }
    }

    fn power(&mut self, unit: usize, power: PowerRef, def: &PowerDef, label: &str) {
        let at = |field| Where::Power {
            unit,
            power,
            field: Some(field),
        };
        let name = &def.name;
        if !(1..=MAX_RANGE).contains(&def.range) {
            self.push(
                at("range"),
                format!(
                    "power `{name}` of {label} has range {}; expected 1 to {MAX_RANGE}",
                    def.range
                ),
            );
        }
        if let Err(e) = parse_dice(&def.damage) {
            self.push(
                at("damage"),
                format!(
                    "power `{name}` of {label} has damage `{}`, which {e}; expected e.g. `1d8` \
                     or `2d6+1`",
                    def.damage
                ),
            );
        }
        // `on_hit` conditions are the ruleset's business (`check_level`).
    }

    fn rules(&mut self) {
        let level = self.level;
        if !RULESETS.contains(&level.ruleset.as_str()) {
            return; // reported at `ruleset`
        }
        let Some(ruleset) = registry::get(&level.ruleset) else {
            return;
        };
        let grids = ruleset.grids();
        if !grids.contains(&level.grid) {
            let kind = |g: &GridKind| match g {
                GridKind::Hex => "hexes",
                GridKind::Square => "squares",
            };
            let played: Vec<&str> = grids.iter().map(kind).collect();
            let expected: Vec<String> = grids.iter().map(|g| format!("`grid: {g:?}`")).collect();
            self.push(
                Where::Field("grid"),
                format!(
                    "ruleset {} is played on {}; expected {}",
                    ruleset.id(),
                    played.join(" or "),
                    expected.join(" or ")
                ),
            );
        }
        // Each bad override at its own key (the ruleset checks each one).
        for p in ruleset.override_problems(&level.rules) {
            let at = if p.key.is_empty() {
                Where::Field("ruleset")
            } else if level.rules.contains_key(&p.key) {
                Where::Rule(p.key)
            } else {
                Where::Field("rules")
            };
            self.push(at, p.message);
        }
        // The phrases of `traits` lists, each at its place.
        self.issues.extend(trait_issues(ruleset, level));
        // Fields of another ruleset's units.
        self.issues.extend(unread_field_issues(ruleset, level));
        // Icons name pictures the game has.
        for (index, def) in level.units.iter().enumerate() {
            if let Some(icon) = &def.icon
                && let Err(e) = crate::level::icons::check_icon(icon)
            {
                self.push(
                    Where::Unit {
                        index,
                        field: Some("icon"),
                    },
                    format!("{}: {e}", unit_label(index, def)),
                );
            }
        }
        // What only its configuration can tell (names it defines or refers to).
        self.issues.extend(ruleset.check_level(level));
    }

    fn victory(&mut self) {
        if self.level.victory.max_rounds == Some(0) {
            self.push(
                Where::Victory(Some("max_rounds")),
                "max_rounds is 0; expected 1 or more (or leave it out for no limit)".into(),
            );
        }
    }

    /// `victory.max_commands`: the command limit of an AI-vs-AI battle, at least 1.
    fn max_commands(&mut self) {
        if self.level.victory.max_commands == Some(0) {
            self.push(
                Where::Victory(Some("max_commands")),
                "max_commands is 0; expected 1 or more (or leave it out for the default, \
                 derived from the units and the round limit)"
                    .into(),
            );
        }
    }
}

/// Every phrase of the units' and sides' `traits` that `ruleset` does not read
/// ([`Ruleset::check_trait`]), each at that phrase, its message naming the unit or
/// side, the phrase and the ruleset's reason. An empty phrase is refused whatever
/// the ruleset, with its examples ([`crate::engine::ruleset::LevelSchema::trait_examples`]) if it gives any.
/// [`validate`] runs this with the level's ruleset; a test or a tool can run it
/// with a ruleset that is not registered.
pub fn trait_issues(ruleset: &dyn Ruleset, level: &Level) -> Vec<Issue> {
    let check = |of: TraitOf, label: &str, phrase: &str| -> Option<String> {
        if phrase.trim().is_empty() {
            let examples = ruleset.trait_examples(of);
            let why = match ruleset.check_trait(of, phrase) {
                Err(why) if examples.is_empty() => why.to_string(),
                _ if examples.is_empty() => "expected a phrase".to_string(),
                _ => format!("expected a phrase, e.g. {}", examples.join(", ")),
            };
            return Some(format!("{label} has an empty trait; {why}"));
        }
        ruleset
            .check_trait(of, phrase)
            .err()
            .map(|why| format!("{label} trait `{phrase}`: {why}"))
    };
    let mut issues = Vec::new();
    for (side, def) in level.sides.iter().enumerate() {
        let label = side_label(side, def);
        for (index, phrase) in def.traits.iter().enumerate() {
            if let Some(message) = check(TraitOf::Side, &label, phrase) {
                let at = Where::SideTrait { side, index };
                issues.push(Issue { at, message });
            }
        }
    }
    for (unit, def) in level.units.iter().enumerate() {
        let label = unit_label(unit, def);
        for (index, phrase) in def.traits.iter().enumerate() {
            if let Some(message) = check(TraitOf::Unit, &label, phrase) {
                let at = Where::UnitTrait { unit, index };
                issues.push(Issue { at, message });
            }
        }
    }
    issues
}

/// A unit field only some rulesets read: its name, whether a unit sets it, and
/// whether a ruleset reads it (by what the ruleset declares).
type UnitField = (&'static str, fn(&UnitDef) -> bool, fn(&dyn Ruleset) -> bool);

/// The unit fields only some rulesets read (`flow`'s today): a size, weapons and
/// armor where the ruleset's units carry equipment ([`Ruleset::uses_equipment`]),
/// skills where it rolls some ([`Ruleset::skills`]). The ruleset that reads one
/// checks its values ([`Ruleset::check_level`]).
const RULESET_UNIT_FIELDS: [UnitField; 4] = [
    (
        "size",
        |u| u.size != Size::default(),
        |r| r.uses_equipment(),
    ),
    (
        "skills",
        |u| !u.skills.is_empty(),
        |r| !r.skills().is_empty(),
    ),
    ("weapons", |u| !u.weapons.is_empty(), |r| r.uses_equipment()),
    ("armor", |u| u.armor != 0, |r| r.uses_equipment()),
];

/// Every unit field the level sets that `ruleset` does not read (of
/// [`RULESET_UNIT_FIELDS`]), each at that field, its message naming the level, the
/// unit, the field and the rulesets that read it: it would be ignored, so it is
/// refused. [`validate`] runs this with the level's ruleset; a test or a tool can
/// run it with a ruleset that is not registered.
pub fn unread_field_issues(ruleset: &dyn Ruleset, level: &Level) -> Vec<Issue> {
    let mut issues = Vec::new();
    for (index, unit) in level.units.iter().enumerate() {
        for (field, set, reads) in RULESET_UNIT_FIELDS {
            if !set(unit) || reads(ruleset) {
                continue;
            }
            let readers: Vec<String> = registry::all()
                .into_iter()
                .filter(|r| reads(*r))
                .map(|r| format!("`{}`", r.id()))
                .collect();
            let who = match readers.as_slice() {
                [] => "no ruleset reads it".to_string(),
                [one] => format!("only {one} reads it"),
                several => format!("only {} read it", several.join(", ")),
            };
            issues.push(crate::engine::problems::unread_unit_field(
                level,
                index,
                field,
                ruleset.id(),
                &who,
            ));
        }
    }
    issues
}

/// The values a stat may take, in words: "1, 2 or 3", "0 or 1", "1 to 1000000".
fn expected_range(spec: &StatSpec) -> String {
    match spec.max - spec.min {
        0 => spec.min.to_string(),
        1 => format!("{} or {}", spec.min, spec.max),
        2 => format!("{}, {} or {}", spec.min, spec.min + 1, spec.max),
        _ => format!("{} to {}", spec.min, spec.max),
    }
}

/// The valid terrain characters in words: `` `.` (open), `~` (difficult), … or `^`
/// (climbing) ``.
fn terrain_kinds() -> String {
    let mut all: Vec<String> = Terrain::ALL.iter().map(|t| t.described()).collect();
    let last = all.pop().unwrap_or_default();
    format!("{} or {last}", all.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::schema::{SideDef, UnitDef};

    fn unit(name: &str, side: &str, pos: (i32, i32)) -> UnitDef {
        UnitDef {
            name: name.into(),
            side: side.into(),
            pos,
            stats: [("INT", 1), ("AGI", 1), ("ATK", 2), ("DEF", 11), ("Tier", 1)]
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
            powers: vec![],
            movement: vec![],
            items: vec![],
            ..Default::default()
        }
    }

    fn side(name: &str) -> SideDef {
        SideDef {
            name: name.into(),
            controller: Default::default(),
            decisions: Default::default(),
            traits: Vec::new(),
        }
    }

    fn level() -> Level {
        Level {
            name: "t".into(),
            version: 1,
            ruleset: registry::default_id().into(),
            grid: GridKind::Square,
            size: (4, 3),
            terrain: vec!["....".into(), ".#..".into(), "..~.".into()],
            sides: vec![side("A"), side("B")],
            units: vec![unit("a", "A", (0, 0)), unit("b", "B", (3, 2))],
            rules: BTreeMap::new(),
            victory: Default::default(),
            seed: None,
        }
    }

    #[test]
    fn minimal_level_is_valid() {
        assert_eq!(validate(&level()), vec![]);
    }

    #[test]
    fn collects_every_problem() {
        let mut l = level();
        l.version = 2;
        l.ruleset = "nope".into();
        l.units[0].pos = (1, 1);
        l.units[1].side = "C".into();
        let issues = validate(&l);
        let places: Vec<_> = issues.iter().map(|i| i.at.clone()).collect();
        assert!(places.contains(&Where::Field("version")), "{issues:?}");
        assert!(places.contains(&Where::Field("ruleset")), "{issues:?}");
        assert!(places.contains(&Where::Unit {
            index: 0,
            field: Some("pos")
        }));
        assert!(places.contains(&Where::Unit {
            index: 1,
            field: Some("side")
        }));
        // Side B now has no units.
        assert!(places.contains(&Where::Side {
            index: 1,
            field: Some("name")
        }));
    }

    #[test]
    fn a_ruleset_says_which_grids_it_is_played_on() {
        // flow is played on hexes (RULES.md §5): a square flow level is refused at
        // `grid`, by the ruleset's `grids()`, not by a branch here.
        let hex_only = registry::all()
            .into_iter()
            .find(|r| r.grids() == [GridKind::Hex])
            .expect("a ruleset played on hexes only");
        let mut l = level();
        l.ruleset = hex_only.id().into();
        l.units.clear();
        let issues = validate(&l);
        let grid: Vec<_> = issues
            .iter()
            .filter(|i| i.at == Where::Field("grid"))
            .collect();
        assert_eq!(grid.len(), 1, "{issues:?}");
        assert_eq!(
            grid[0].message,
            format!(
                "ruleset {} is played on hexes; expected `grid: Hex`",
                hex_only.id()
            )
        );
        l.grid = GridKind::Hex;
        assert!(
            validate(&l).iter().all(|i| i.at != Where::Field("grid")),
            "{:?}",
            validate(&l)
        );
    }

    #[test]
    fn stats_are_checked_against_the_ruleset() {
        let mut l = level();
        l.units[0].stats.remove("DEF");
        l.units[0].stats.insert("Int".into(), 3);
        l.units[1].stats.insert("Tier".into(), 4);
        let issues = validate(&l);
        assert_eq!(issues.len(), 3, "{issues:?}");
        assert!(
            issues[0].message.contains("did you mean `INT`"),
            "{issues:?}"
        );
        assert!(issues[1].message.contains("missing required stat DEF"));
        assert_eq!(
            issues[2].at,
            Where::Stat {
                unit: 1,
                stat: "Tier".into()
            }
        );
    }

    #[test]
    fn terrain_shape_and_characters() {
        let mut l = level();
        l.terrain[1] = ".x...".into();
        let issues = validate(&l);
        let places: Vec<_> = issues.iter().map(|i| i.at.clone()).collect();
        assert_eq!(
            places,
            vec![
                Where::TerrainCell { row: 1, col: 1 },
                Where::TerrainCell { row: 1, col: 4 }
            ]
        );
    }

    #[test]
    fn every_trait_is_asked_of_the_ruleset_and_refused_at_its_phrase() {
        // phases reads no traits: each phrase is refused with the ruleset's words.
        let mut l = level();
        l.units[1].traits = vec!["Fast".into(), "Resist Fire 14+".into()];
        l.sides[0].traits = vec!["PCs".into()];
        l.units[0].traits = vec![" ".into()];
        let issues = validate(&l);
        let got: Vec<(Where, &str)> = issues
            .iter()
            .map(|i| (i.at.clone(), i.message.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                (
                    Where::SideTrait { side: 0, index: 0 },
                    "side `A` trait `PCs`: `phases` reads no side traits"
                ),
                (
                    Where::UnitTrait { unit: 0, index: 0 },
                    "unit `a` has an empty trait; `phases` reads no unit traits"
                ),
                (
                    Where::UnitTrait { unit: 1, index: 0 },
                    "unit `b` trait `Fast`: `phases` reads no unit traits"
                ),
                (
                    Where::UnitTrait { unit: 1, index: 1 },
                    "unit `b` trait `Resist Fire 14+`: `phases` reads no unit traits"
                ),
            ]
        );
        // An unknown ruleset is reported once, at `ruleset`, and its traits not.
        l.ruleset = "nope".into();
        let issues = validate(&l);
        assert_eq!(issues.len(), 1, "{issues:?}");
        assert_eq!(issues[0].at, Where::Field("ruleset"));
    }

    #[test]
    fn trait_paths_lead_to_the_nth_phrase() {
        use PathStep::*;
        assert_eq!(
            Where::UnitTrait { unit: 3, index: 1 }.path(),
            vec![Field("units"), Index(3), Field("traits"), Index(1)]
        );
        assert_eq!(
            Where::SideTrait { side: 0, index: 2 }.path(),
            vec![Field("sides"), Index(0), Field("traits"), Index(2)]
        );
    }

    #[test]
    fn paths_reach_into_item_powers() {
        let at = Where::OnHit {
            unit: 2,
            power: PowerRef::Item(1),
            effect: 0,
        };
        use PathStep::*;
        assert_eq!(
            at.path(),
            vec![
                Field("units"),
                Index(2),
                Field("items"),
                Index(1),
                Field("effect"),
                Field("on_hit"),
                Index(0),
                Field("condition")
            ]
        );
    }

    /// A `size` square phases level with a swordsman in opposite corners and a
    /// wall across the middle (with a gap at its end).
    fn big_map(size: (u32, u32)) -> Level {
        use crate::level::schema::{Controller, DecisionPolicy, PowerDef, Victory};
        let (w, h) = size;
        let mut terrain: Vec<String> = vec![".".repeat(w as usize); h as usize];
        terrain[h as usize / 2] = format!("{}..", "#".repeat(w as usize - 2));
        let sword = PowerDef {
            name: "Sword".into(),
            range: 1,
            ranged: false,
            damage: "1d8".into(),
            add_tier: true,
            on_hit: vec![],
            damage_type: None,
            traits: Vec::new(),
        };
        let mut blue = unit("Knight", "Blue", (1, 1));
        blue.powers = vec![sword.clone()];
        let mut red = unit("Orc", "Red", (w as i32 - 2, h as i32 - 2));
        red.powers = vec![sword];
        Level {
            name: "Big".into(),
            version: FORMAT_VERSION,
            ruleset: "phases".into(),
            grid: crate::engine::board::GridKind::Square,
            size,
            terrain,
            sides: ["Blue", "Red"]
                .into_iter()
                .map(|n| SideDef {
                    controller: Controller::Human,
                    decisions: DecisionPolicy::Never,
                    ..side(n)
                })
                .collect(),
            units: vec![blue, red],
            rules: Default::default(),
            victory: Victory::default(),
            seed: None,
        }
    }

    /// Maps go up to 256×256 (issue 18): such a level loads from its RON text, and
    /// the AI plays its first commands on it (moving across the map).
    #[test]
    fn a_256_by_256_level_loads_and_plays() {
        use rand::SeedableRng;
        let text = crate::level::to_ron_string(&big_map((256, 256)));
        let level = crate::level::load_str(&text, "big.ron").unwrap_or_else(|p| panic!("{p:?}"));
        assert_eq!(level.size, (256, 256));
        let level = crate::ai::sim::ai_level(&level, &[]);
        let mut battle =
            crate::engine::rulesets::new_battle(&level, crate::engine::dice::Dice::seeded(3))
                .expect("a 256x256 level sets up");
        let cells = |b: &crate::engine::Battle| {
            (0..2)
                .map(|i| crate::engine::battle::cell_of(b.world(), crate::engine::units::UnitId(i)))
                .collect::<Vec<_>>()
        };
        let start = cells(&battle);
        let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(3);
        for _ in 0..8 {
            let command = crate::ai::choose(&battle, crate::ai::AiPolicy::Normal, &mut rng)
                .expect("the AI has a command");
            battle.submit(command).expect("the AI's command is legal");
        }
        assert_ne!(cells(&battle), start, "nobody moved in 8 commands");
    }

    /// One cell more than 256 either way is refused, at load and in the editor,
    /// with the limit in the message.
    #[test]
    fn a_257_cell_map_is_refused_with_the_limit() {
        for size in [(257, 10), (10, 257)] {
            let text = crate::level::to_ron_string(&big_map(size));
            let problems = crate::level::load_str(&text, "big.ron").expect_err("257 is too big");
            let expected = format!(
                "map size ({}, {}) is out of range; expected width and height from 1 to 256",
                size.0, size.1
            );
            assert!(
                problems.iter().any(|p| p.to_string().contains(&expected)),
                "{problems:?}"
            );
        }
        use crate::editor::EditorDoc;
        use crate::engine::board::GridKind;
        assert!(EditorDoc::new_level("Big", GridKind::Hex, (256, 256), "phases").is_ok());
        let Err(refused) = EditorDoc::new_level("Big", GridKind::Hex, (257, 256), "phases") else {
            panic!("the editor accepts 257");
        };
        assert!(refused.to_string().contains("from 1 to 256"), "{refused}");
    }
}
