//! Portable unit archetypes: a unit described by what it is (a role, a tier, the
//! kind of weapon it fights with and the armour it wears) rather than by one
//! ruleset's numbers, so that one level plays under every ruleset.
//!
//! The archetypes are listed in `assets/archetypes/archetypes.ron` (built in). A level
//! gives a unit as `archetype: "archer"` (optionally with `tier: 2`) instead of its
//! stats; each ruleset realizes an archetype as its own stats, powers, weapons and
//! armour ([`crate::engine::ruleset::Ruleset::realize_archetype`], one
//! `archetype.rs` in each ruleset's folder; `docs/archetypes.md` has the tables).
//! [`realize_level`] fills in every archetype unit of a level for the level's
//! ruleset; the unit keeps its `archetype` (and `tier`), so a level can be realized
//! again for another ruleset, and saving writes the archetype, not the numbers
//! ([`as_written`]).

use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

use crate::engine::problems::{Issue, Where, unit_label};
use crate::engine::ruleset::Ruleset;
use crate::engine::spec::{Hand, Level, PowerDef, UnitDef, WeaponCategory, WeaponDef};

/// The archetypes as shipped (`assets/archetypes/archetypes.ron`).
pub const ARCHETYPES_RON: &str = include_str!("../../assets/archetypes/archetypes.ron");

/// The highest tier an archetype may have (tiers run 1 to 3).
pub const MAX_TIER: u32 = 3;

/// What a unit does on the battlefield.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Role {
    /// Holds the line in melee.
    LineInfantry,
    /// Shoots from afar.
    Archer,
    /// Fast and light: harasses and flanks.
    Skirmisher,
    /// Big, tough and hard-hitting.
    Brute,
    /// Casts spells at range; frail.
    Caster,
    /// A commander who steadies its side.
    Leader,
}

/// The kind of weapon an archetype fights with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum WeaponKind {
    /// A one-handed blade (with a shield for armoured units).
    Sword,
    /// A spear or polearm.
    Spear,
    /// Knives and daggers.
    Dagger,
    /// A bow (and a dagger up close).
    Bow,
    /// A staff: spells at range, a quarterstaff up close.
    Staff,
    /// A two-handed axe, maul or greatsword.
    GreatWeapon,
}

/// The armour an archetype wears.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum ArmourKind {
    /// No armour.
    None,
    /// Leather, padding.
    Light,
    /// Mail.
    Medium,
    /// Plate.
    Heavy,
}

impl ArmourKind {
    /// 0 for none up to 3 for heavy: the steps most rulesets scale armour by.
    pub fn weight(self) -> i32 {
        self as i32
    }
}

/// One portable archetype.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Archetype {
    /// What levels call it (`archetype: "archer"`).
    pub name: String,
    /// What it does.
    pub role: Role,
    /// Its tier when a level gives none (1 to [`MAX_TIER`]).
    pub tier: u32,
    /// The weapon it fights with.
    pub weapon: WeaponKind,
    /// The armour it wears.
    pub armour: ArmourKind,
    /// One line about it, for the docs and the editor.
    #[serde(default)]
    pub about: String,
}

static ARCHETYPES: LazyLock<Vec<Archetype>> = LazyLock::new(|| {
    let list: Vec<Archetype> = ron::from_str(ARCHETYPES_RON)
        .unwrap_or_else(|e| panic!("assets/archetypes/archetypes.ron must parse: {e}"));
    list
});

/// Every archetype, in the order of the asset file.
pub fn all() -> &'static [Archetype] {
    &ARCHETYPES
}

/// The archetype with this name.
pub fn find(name: &str) -> Option<&'static Archetype> {
    all().iter().find(|a| a.name == name)
}

/// The archetypes' names, comma-separated, for error messages.
pub fn names() -> String {
    all()
        .iter()
        .map(|a| a.name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The tier a unit plays at: its own `tier`, else its archetype's.
pub fn tier_of(unit: &UnitDef, archetype: &Archetype) -> u32 {
    unit.tier.unwrap_or(archetype.tier)
}

/// The names of the fields a ruleset realizes from an archetype, in schema order.
pub const REALIZED_FIELDS: &[&str] = &[
    "stats", "powers", "movement", "items", "size", "skills", "weapons", "armor", "traits",
];

/// The first field of `unit` a ruleset would realize that the unit gives itself.
fn first_realized(unit: &UnitDef) -> Option<&'static str> {
    let given = [
        !unit.stats.is_empty(),
        !unit.powers.is_empty(),
        !unit.movement.is_empty(),
        !unit.items.is_empty(),
        unit.size != Default::default(),
        !unit.skills.is_empty(),
        !unit.weapons.is_empty(),
        unit.armor != 0,
        !unit.traits.is_empty(),
    ];
    REALIZED_FIELDS
        .iter()
        .zip(given)
        .find_map(|(name, given)| given.then_some(*name))
}

/// Replaces the realized fields of `unit` by those of `from` (its name, side,
/// position, archetype, tier and icon stay).
fn set_realized(unit: &mut UnitDef, from: UnitDef) {
    unit.stats = from.stats;
    unit.powers = from.powers;
    unit.movement = from.movement;
    unit.items = from.items;
    unit.size = from.size;
    unit.skills = from.skills;
    unit.weapons = from.weapons;
    unit.armor = from.armor;
    unit.traits = from.traits;
}

/// The problems of the archetype fields of a level as written in its file: a unit
/// with an `archetype` that also gives a field the ruleset realizes (its stats,
/// powers, weapons…), and a `tier` without an `archetype`. The level layer runs this
/// on a freshly parsed level, before [`realize_level`].
pub fn written_issues(level: &Level) -> Vec<Issue> {
    let mut issues = Vec::new();
    for (index, unit) in level.units.iter().enumerate() {
        let label = unit_label(index, unit);
        match &unit.archetype {
            Some(name) => {
                if let Some(field) = first_realized(unit) {
                    issues.push(Issue {
                        at: Where::Unit {
                            index,
                            field: Some(field),
                        },
                        message: format!(
                            "{label} is archetype `{name}` and gives `{field}` too; expected \
                             one or the other: an archetype unit takes its {} from the \
                             ruleset (docs/archetypes.md)",
                            REALIZED_FIELDS.join(", ")
                        ),
                    });
                }
            }
            None if unit.tier.is_some() => issues.push(Issue {
                at: Where::Unit {
                    index,
                    field: Some("tier"),
                },
                message: format!(
                    "{label} gives `tier` without `archetype`; expected `tier` only with an \
                     archetype (the stats say a hand-written unit's tier)"
                ),
            }),
            None => {}
        }
    }
    issues
}

/// The problems of each archetype unit's name and tier: an archetype that does not
/// exist (naming the valid ones) or a tier out of range. [`crate::level::validate`]
/// runs this.
pub fn archetype_issues(level: &Level) -> Vec<Issue> {
    let mut issues = Vec::new();
    for (index, unit) in level.units.iter().enumerate() {
        let Some(name) = &unit.archetype else {
            continue;
        };
        let label = unit_label(index, unit);
        let at = |field| Where::Unit {
            index,
            field: Some(field),
        };
        match find(name) {
            None => issues.push(Issue {
                at: at("archetype"),
                message: format!(
                    "unknown archetype `{name}` for {label}; expected one of: {}",
                    names()
                ),
            }),
            Some(a) => {
                let tier = tier_of(unit, a);
                if !(1..=MAX_TIER).contains(&tier) {
                    issues.push(Issue {
                        at: at("tier"),
                        message: format!(
                            "tier {tier} for {label}; expected a tier from 1 to {MAX_TIER}"
                        ),
                    });
                }
            }
        }
    }
    issues
}

/// How `ruleset` realizes `unit`'s archetype: its realized fields, as a unit with
/// the same name, side, position, archetype, tier and icon. `None` for a unit with no
/// archetype, an unknown one or a tier out of range ([`archetype_issues`] tells).
pub fn realize_unit(
    ruleset: &dyn Ruleset,
    unit: &UnitDef,
) -> Option<Result<UnitDef, crate::engine::ruleset::RulesetError>> {
    let archetype = find(unit.archetype.as_deref()?)?;
    let tier = tier_of(unit, archetype);
    if !(1..=MAX_TIER).contains(&tier) {
        return None;
    }
    Some(ruleset.realize_archetype(archetype, tier).map(|from| {
        let mut out = unit.clone();
        set_realized(&mut out, from);
        out
    }))
}

/// Realizes every archetype unit of `level` for `ruleset`, the one the level names
/// (looked up in the catalogue: `None` for a ruleset that is not registered),
/// replacing its stats, powers, weapons and armour; returns a problem at each unit
/// the ruleset can't realize. Units without an archetype, unknown archetypes and
/// tiers out of range are left as they are ([`archetype_issues`] reports those), as
/// is every unit when `ruleset` is `None` (the level checks report it at `ruleset`).
pub fn realize_level(level: &mut Level, ruleset: Option<&dyn Ruleset>) -> Vec<Issue> {
    let Some(ruleset) = ruleset else {
        return Vec::new();
    };
    let mut issues = Vec::new();
    for (index, unit) in level.units.iter_mut().enumerate() {
        match realize_unit(ruleset, unit) {
            None => {}
            Some(Ok(realized)) => *unit = realized,
            Some(Err(e)) => issues.push(Issue {
                at: Where::Unit {
                    index,
                    field: Some("archetype"),
                },
                message: format!(
                    "ruleset `{}` can't realize archetype `{}` of {}: {e}",
                    ruleset.id(),
                    unit.archetype.as_deref().unwrap_or_default(),
                    unit_label(index, unit)
                ),
            }),
        }
    }
    issues
}

/// Switches `level` to the ruleset with id `ruleset` and returns the id it had: each
/// archetype unit that was as the old ruleset (`old`, the one the level names)
/// realizes it (or not realized at all) is realized for the new one (`new`); a unit
/// edited away from its realization keeps its numbers. Switching back undoes it (the
/// editor's ruleset switch). `old` and `new` are the catalogue's look-ups of the two
/// ids (`None`: not registered, and nothing is realized by it).
pub fn switch_ruleset(
    level: &mut Level,
    ruleset: String,
    old: Option<&dyn Ruleset>,
    new: Option<&dyn Ruleset>,
) -> String {
    let follow: Vec<bool> = level
        .units
        .iter()
        .map(|u| {
            u.archetype.is_some()
                && (first_realized(u).is_none()
                    || old
                        .and_then(|r| realize_unit(r, u))
                        .is_some_and(|r| r.is_ok_and(|r| r == *u)))
        })
        .collect();
    let previous = std::mem::replace(&mut level.ruleset, ruleset);
    if let Some(new) = new {
        for (unit, follow) in level.units.iter_mut().zip(follow) {
            if follow && let Some(Ok(realized)) = realize_unit(new, unit) {
                *unit = realized;
            }
        }
    }
    previous
}

/// Whether the level has any unit given by archetype.
pub fn has_archetypes(level: &Level) -> bool {
    level.units.iter().any(|u| u.archetype.is_some())
}

/// The level as a file writes it: each archetype unit that is as its ruleset
/// (`ruleset`, the catalogue's look-up of the one the level names) realizes it is
/// written by its archetype alone (no stats); one whose realized fields were
/// changed (say in the editor) is written with them and without its archetype, so
/// that no edit is lost.
pub fn as_written(level: &Level, ruleset: Option<&dyn Ruleset>) -> Level {
    let mut out = level.clone();
    for unit in &mut out.units {
        if unit.archetype.is_none() {
            continue;
        }
        let realized = ruleset.and_then(|r| realize_unit(r, unit));
        match realized {
            Some(Ok(r)) if r == *unit => set_realized(unit, UnitDef::default()),
            // Not realizable (unknown, or the ruleset can't): kept as it is.
            None | Some(Err(_)) if first_realized(unit).is_none() => {}
            _ => {
                unit.archetype = None;
                unit.tier = None;
            }
        }
    }
    out
}

// ------------------------------------------------------------------ realization helpers

/// A melee power (reach 1) a ruleset's realization gives.
pub fn melee_power(name: &str, damage: &str) -> PowerDef {
    PowerDef {
        name: name.into(),
        range: 1,
        ranged: false,
        damage: damage.into(),
        add_tier: true,
        on_hit: Vec::new(),
        damage_type: None,
        traits: Vec::new(),
    }
}

/// A ranged power a ruleset's realization gives.
pub fn ranged_power(name: &str, range: u32, damage: &str) -> PowerDef {
    PowerDef {
        range,
        ranged: true,
        ..melee_power(name, damage)
    }
}

/// A one-handed melee weapon (`flow`) a ruleset's realization gives.
pub fn weapon(name: &str, damage: &str) -> WeaponDef {
    WeaponDef {
        name: name.into(),
        damage: damage.into(),
        reach: 1,
        range: 0,
        category: WeaponCategory::Standard,
        two_handed: false,
        held: Hand::Main,
        on_hit: Vec::new(),
    }
}

/// `(name, value)` pairs as a stats map.
pub fn stats<const N: usize>(pairs: [(&str, i32); N]) -> std::collections::BTreeMap<String, i32> {
    pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
}

// ------------------------------------------------------------------ the docs' tables

/// One attack or weapon as the tables show it: `Bow 1d8 (ranged 10)`.
fn describe_power(p: &PowerDef) -> String {
    let mut out = format!("{} {}", p.name, p.damage);
    if p.ranged {
        out.push_str(&format!(" (ranged {})", p.range));
    } else if p.range > 1 {
        out.push_str(&format!(" (range {})", p.range));
    }
    if !p.add_tier {
        out.push_str(" no tier");
    }
    if let Some(t) = &p.damage_type {
        out.push_str(&format!(" {t}"));
    }
    for e in &p.on_hit {
        out.push_str(&format!(" +{}", e.condition));
    }
    if !p.traits.is_empty() {
        out.push_str(&format!(" [{}]", p.traits.join(", ")));
    }
    out
}

/// A `flow` weapon as the tables show it: `Spear 1d10 reach 2 Polearm 2h`.
fn describe_weapon(w: &WeaponDef) -> String {
    let mut out = w.name.clone();
    if w.category != WeaponCategory::Shield {
        out.push_str(&format!(" {}", w.damage));
    }
    if w.range > 0 {
        out.push_str(&format!(" range {}", w.range));
    } else if w.reach > 1 {
        out.push_str(&format!(" reach {}", w.reach));
    }
    if w.category != WeaponCategory::Standard {
        out.push_str(&format!(" {:?}", w.category));
    }
    if w.two_handed {
        out.push_str(" 2h");
    }
    match w.held {
        Hand::Main => {}
        Hand::Off => out.push_str(" (off hand)"),
        Hand::Stowed => out.push_str(" (stowed)"),
    }
    out
}

/// What a realized unit holds, as the three cells of a table row: its stats (in
/// the ruleset's order), its attacks (powers or weapons) and the rest (skills,
/// armour, traits, movement, items, size).
pub fn describe(ruleset: &dyn Ruleset, unit: &UnitDef) -> [String; 3] {
    let order = ruleset.stats();
    let mut stats: Vec<(&String, &i32)> = unit.stats.iter().collect();
    stats.sort_by_key(|(k, _)| order.iter().position(|s| s.name == k.as_str()));
    let stats: Vec<String> = stats.iter().map(|(k, v)| format!("{k} {v}")).collect();
    let mut attacks: Vec<String> = unit.powers.iter().map(describe_power).collect();
    attacks.extend(unit.weapons.iter().map(describe_weapon));
    let mut rest: Vec<String> = unit
        .skills
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    if unit.armor != 0 {
        rest.push(format!("armor {}", unit.armor));
    }
    rest.extend(unit.traits.iter().map(|t| format!("`{t}`")));
    rest.extend(unit.movement.iter().map(|m| format!("moves: {m}")));
    rest.extend(unit.items.iter().map(|i| format!("item: {}", i.name)));
    if unit.size != Default::default() {
        rest.push(format!("{:?}", unit.size));
    }
    [stats.join(", "), attacks.join("; "), rest.join(", ")]
}

/// The markdown table of how `ruleset` realizes every archetype at its own tier
/// (`docs/archetypes.md` has one per ruleset; a test keeps them equal).
pub fn table(ruleset: &dyn Ruleset) -> String {
    let mut out = String::from(
        "| archetype | role, tier, weapon, armour | stats | attacks | skills, armour, traits |\n\
         |---|---|---|---|---|\n",
    );
    for a in all() {
        let cells = match ruleset.realize_archetype(a, a.tier) {
            Ok(unit) => describe(ruleset, &unit),
            Err(e) => [format!("not realized: {e}"), String::new(), String::new()],
        };
        out.push_str(&format!(
            "| `{}` | {:?}, {}, {:?}, {:?} | {} | {} | {} |\n",
            a.name, a.role, a.tier, a.weapon, a.armour, cells[0], cells[1], cells[2]
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_asset_lists_every_role_once_at_least_with_tiers_in_range() {
        let roles = [
            Role::LineInfantry,
            Role::Archer,
            Role::Skirmisher,
            Role::Brute,
            Role::Caster,
            Role::Leader,
        ];
        for role in roles {
            assert!(all().iter().any(|a| a.role == role), "{role:?}");
        }
        for a in all() {
            assert!((1..=MAX_TIER).contains(&a.tier), "{}", a.name);
            assert_eq!(all().iter().filter(|b| b.name == a.name).count(), 1);
        }
        assert!(find("archer").is_some());
        assert!(find("Archer").is_none());
    }
}
