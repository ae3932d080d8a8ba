//! Problems a ruleset or the level checks find in a battle description
//! ([`crate::engine::spec`]), and where each one is: a [`Where`] names the place as a
//! path of fields from the top of the description, which the level layer turns into
//! `file:line:col`.

/// One step of a path from the top of a level file to a place in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathStep {
    /// A named field of a struct, e.g. `units` or `pos`.
    Field(&'static str),
    /// The n-th element (0-based) of a list or tuple.
    Index(usize),
    /// The entry of a map with this (string) key, e.g. a stat name.
    Key(String),
    /// The n-th character (0-based) inside a string; one past the end means the
    /// closing quote.
    Char(usize),
    /// A named field whose name is known only at run time (a verb's argument in a
    /// scenario), like [`PathStep::Field`].
    Named(String),
}

/// Which power of a unit an issue is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PowerRef {
    /// The n-th entry of the unit's `powers`.
    Listed(usize),
    /// The power inside the `Power(...)` effect of the unit's n-th item.
    Item(usize),
}

/// Where in a level an issue is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Where {
    /// The level as a whole.
    Level,
    /// A top-level field of the level, e.g. `version`, `ruleset`, `size`, `sides`.
    Field(&'static str),
    /// A row of the terrain (0-based, top row first).
    TerrainRow(usize),
    /// A character of the terrain: `row` and `col` 0-based; `col` may be one past the
    /// end of a short row.
    TerrainCell {
        /// Row, 0 at the top.
        row: usize,
        /// Character index in the row, 0 at the left.
        col: usize,
    },
    /// A side, or one of its fields.
    Side {
        /// Index in `sides`.
        index: usize,
        /// Field name, or `None` for the whole side.
        field: Option<&'static str>,
    },
    /// A unit, or one of its fields.
    Unit {
        /// Index in `units`.
        index: usize,
        /// Field name, or `None` for the whole unit.
        field: Option<&'static str>,
    },
    /// A stat of a unit, by name.
    Stat {
        /// Index in `units`.
        unit: usize,
        /// The stat name as written.
        stat: String,
    },
    /// A power of a unit, or one of its fields (any field of the power by name:
    /// `range`, `damage`, `damage_type`...).
    Power {
        /// Index in `units`.
        unit: usize,
        /// Which power.
        power: PowerRef,
        /// Field name, or `None` for the whole power.
        field: Option<&'static str>,
    },
    /// An `on_hit` effect of a power (its `condition`).
    OnHit {
        /// Index in `units`.
        unit: usize,
        /// Which power.
        power: PowerRef,
        /// Index in the power's `on_hit`.
        effect: usize,
    },
    /// An entry of a unit's `movement` list.
    Movement {
        /// Index in `units`.
        unit: usize,
        /// Index in the unit's `movement`.
        entry: usize,
    },
    /// An item of a unit, or one of its fields.
    Item {
        /// Index in `units`.
        unit: usize,
        /// Index in the unit's `items`.
        item: usize,
        /// Field name, or `None` for the whole item.
        field: Option<&'static str>,
    },
    /// A skill of a unit, by name (flow).
    Skill {
        /// Index in `units`.
        unit: usize,
        /// The skill name as written.
        skill: String,
    },
    /// A weapon of a unit, or one of its fields (flow).
    Weapon {
        /// Index in `units`.
        unit: usize,
        /// Index in the unit's `weapons`.
        weapon: usize,
        /// Field name, or `None` for the whole weapon.
        field: Option<&'static str>,
    },
    /// A phrase of a unit's `traits` list (a trait the ruleset reads, or refuses).
    UnitTrait {
        /// Index in `units`.
        unit: usize,
        /// Index in the unit's `traits`.
        index: usize,
    },
    /// A phrase of a side's `traits` list.
    SideTrait {
        /// Index in `sides`.
        side: usize,
        /// Index in the side's `traits`.
        index: usize,
    },
    /// An entry of the level's `rules` overrides, by key.
    Rule(String),
    /// The `victory` conditions, or one of their fields.
    Victory(Option<&'static str>),
}

impl Where {
    /// The path from the top of the level file to this place.
    pub fn path(&self) -> Vec<PathStep> {
        use PathStep::{Char, Field, Index, Key};
        let opt = |f: &Option<&'static str>| f.iter().map(|f| Field(f)).collect::<Vec<_>>();
        match self {
            Where::Level => vec![],
            Where::Field(f) => vec![Field(f)],
            Where::TerrainRow(r) => vec![Field("terrain"), Index(*r)],
            Where::TerrainCell { row, col } => vec![Field("terrain"), Index(*row), Char(*col)],
            Where::Side { index, field } => {
                let mut p = vec![Field("sides"), Index(*index)];
                p.extend(opt(field));
                p
            }
            Where::Unit { index, field } => {
                let mut p = unit_path(*index);
                p.extend(opt(field));
                p
            }
            Where::Stat { unit, stat } => {
                let mut p = unit_path(*unit);
                p.extend([Field("stats"), Key(stat.clone())]);
                p
            }
            Where::Power { unit, power, field } => {
                let mut p = power_path(*unit, *power);
                p.extend(opt(field));
                p
            }
            Where::OnHit {
                unit,
                power,
                effect,
            } => {
                let mut p = power_path(*unit, *power);
                p.extend([Field("on_hit"), Index(*effect), Field("condition")]);
                p
            }
            Where::Movement { unit, entry } => {
                let mut p = unit_path(*unit);
                p.extend([Field("movement"), Index(*entry)]);
                p
            }
            Where::Item { unit, item, field } => {
                let mut p = unit_path(*unit);
                p.extend([Field("items"), Index(*item)]);
                p.extend(opt(field));
                p
            }
            Where::Skill { unit, skill } => {
                let mut p = unit_path(*unit);
                p.extend([Field("skills"), Key(skill.clone())]);
                p
            }
            Where::Weapon {
                unit,
                weapon,
                field,
            } => {
                let mut p = unit_path(*unit);
                p.extend([Field("weapons"), Index(*weapon)]);
                p.extend(opt(field));
                p
            }
            Where::UnitTrait { unit, index } => {
                let mut p = unit_path(*unit);
                p.extend([Field("traits"), Index(*index)]);
                p
            }
            Where::SideTrait { side, index } => {
                vec![Field("sides"), Index(*side), Field("traits"), Index(*index)]
            }
            Where::Rule(key) => vec![Field("rules"), Key(key.clone())],
            Where::Victory(field) => {
                let mut p = vec![Field("victory")];
                p.extend(opt(field));
                p
            }
        }
    }
}

fn unit_path(unit: usize) -> Vec<PathStep> {
    vec![PathStep::Field("units"), PathStep::Index(unit)]
}

fn power_path(unit: usize, power: PowerRef) -> Vec<PathStep> {
    let mut p = unit_path(unit);
    match power {
        PowerRef::Listed(i) => p.extend([PathStep::Field("powers"), PathStep::Index(i)]),
        // `effect: Power((...))`: the locator looks through the one-element variant.
        PowerRef::Item(i) => p.extend([
            PathStep::Field("items"),
            PathStep::Index(i),
            PathStep::Field("effect"),
        ]),
    }
    p
}

/// One semantic problem of a level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Issue {
    /// Where it is.
    pub at: Where,
    /// What is wrong and what was expected.
    pub message: String,
}

/// How messages name a unit: "unit `Knight`", or "unit #3" without a name.
pub fn unit_label(index: usize, unit: &crate::engine::spec::UnitDef) -> String {
    if unit.name.trim().is_empty() {
        format!("unit #{}", index + 1)
    } else {
        format!("unit `{}`", unit.name)
    }
}

/// The issue of unit `index` of `level` setting `field`, which `ruleset` does not
/// read and would ignore: at that field, naming the level, the unit, the field and
/// the ruleset, with `why` in brackets (the rulesets that read it, or what the
/// ruleset does instead).
pub fn unread_unit_field(
    level: &crate::engine::spec::Level,
    index: usize,
    field: &'static str,
    ruleset: &str,
    why: &str,
) -> Issue {
    let unit = &level.units[index];
    Issue {
        at: Where::Unit {
            index,
            field: Some(field),
        },
        message: format!(
            "level `{}`: {} sets `{field}`, which `{ruleset}` does not read ({why}); expected \
             no `{field}`",
            level.name,
            unit_label(index, unit)
        ),
    }
}

/// The issues of the units of `level` that set `field` (`set` tells whether a unit
/// does), for a ruleset that does not read it: `why` says how it does without.
pub fn unread_fields(
    level: &crate::engine::spec::Level,
    field: &'static str,
    set: impl Fn(&crate::engine::spec::UnitDef) -> bool,
    ruleset: &str,
    why: &str,
) -> Vec<Issue> {
    (0..level.units.len())
        .filter(|&i| set(&level.units[i]))
        .map(|i| unread_unit_field(level, i, field, ruleset, why))
        .collect()
}

/// The issues of the units of `level` that set `movement` (movement powers of
/// their own), for a ruleset that reads none: `why` says how its units move.
pub fn unread_movement(level: &crate::engine::spec::Level, ruleset: &str, why: &str) -> Vec<Issue> {
    unread_fields(level, "movement", |u| !u.movement.is_empty(), ruleset, why)
}

/// How messages name a side: "side `Blue`", or "side #2" without a name.
pub fn side_label(index: usize, side: &crate::engine::spec::SideDef) -> String {
    if side.name.trim().is_empty() {
        format!("side #{}", index + 1)
    } else {
        format!("side `{}`", side.name)
    }
}
