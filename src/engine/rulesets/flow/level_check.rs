//! What `skirmish check` asks of a `flow` level's units beyond their stats: known
//! skills in range, armor, weapons with valid dice, reach and hands (F-GAP-17's
//! two hands), and no `phases` powers or movement powers.

use crate::engine::problems::{Issue, Where, unit_label};
use crate::engine::ruleset::{MAX_HP, MAX_RANGE, parse_dice};
use crate::engine::rulesets::flow::{MAX_SKILL, SKILLS, potion_ap_problem};
use crate::engine::spec::{Hand, Level};

/// The problems of every unit's `flow` fields, each at its place.
pub fn units_problems(level: &Level) -> Vec<Issue> {
    let mut out = Vec::new();
    for (index, unit) in level.units.iter().enumerate() {
        unit_problems(level, index, &unit_label(index, unit), &mut out);
    }
    out
}

fn push(out: &mut Vec<Issue>, at: Where, message: String) {
    out.push(Issue { at, message });
}

/// flow: known skills in 0..=200, weapons with valid dice and sensible hands,
/// no phases powers or movement powers.
fn unit_problems(level: &Level, index: usize, label: &str, out: &mut Vec<Issue>) {
    let unit = &level.units[index];
    for (name, &v) in &unit.skills {
        let at = Where::Skill {
            unit: index,
            skill: name.clone(),
        };
        if !SKILLS.contains(&name.as_str()) {
            let hint = SKILLS
                .iter()
                .find(|s| s.eq_ignore_ascii_case(name))
                .map(|s| format!(" (did you mean `{s}`?)"))
                .unwrap_or_default();
            push(
                out,
                at,
                format!(
                    "unknown skill `{name}`{hint} for {label}; expected: {}",
                    SKILLS.join(", ")
                ),
            );
        } else if !(0..=MAX_SKILL).contains(&v) {
            push(
                out,
                at,
                format!("{label} has {name} {v}; expected a percentile from 0 to {MAX_SKILL}"),
            );
        }
    }
    if !(0..=MAX_HP).contains(&unit.armor) {
        push(
            out,
            Where::Unit {
                index,
                field: Some("armor"),
            },
            format!("{label} has armor {}; expected 0 to {MAX_HP}", unit.armor),
        );
    }

    if !unit.powers.is_empty() {
        push(
            out,
            Where::Unit {
                index,
                field: Some("powers"),
            },
            format!("{label} lists powers, which flow does not use; expected `weapons`"),
        );
    }
    if !unit.movement.is_empty() {
        push(
            out,
            Where::Unit {
                index,
                field: Some("movement"),
            },
            format!(
                "{label} lists movement powers, which flow does not use (every unit has Move and Step)"
            ),
        );
    }
    // F-08, seed L40: a potion costs `costs.potion`; its own `ap` is refused here
    // (an `ap` out of range on any item is the level check's, `LevelSchema::item_ap`).
    for (item, def) in unit.items.iter().enumerate() {
        if let Some(message) = potion_ap_problem(def, &format!(" of {label}")) {
            let at = Where::Item {
                unit: index,
                item,
                field: Some("ap"),
            };
            push(out, at, message);
        }
    }
    let mut names: Vec<&str> = Vec::new();
    // In hand: two-handed items, and one-handed items per hand.
    let (mut two, mut main, mut off) = (0, 0, 0);
    for (i, w) in unit.weapons.iter().enumerate() {
        let at = |field| Where::Weapon {
            unit: index,
            weapon: i,
            field: Some(field),
        };
        if names.iter().any(|n| n.eq_ignore_ascii_case(&w.name)) {
            push(
                out,
                at("name"),
                format!(
                    "{label} carries two weapons named `{}`; expected unique names",
                    w.name
                ),
            );
        }
        names.push(&w.name);
        if let Err(e) = parse_dice(&w.damage) {
            push(
                out,
                at("damage"),
                format!(
                    "weapon `{}` of {label} has damage `{}`, which {e}; expected e.g. `1d8`",
                    w.name, w.damage
                ),
            );
        }
        if !(1..=MAX_RANGE).contains(&w.reach) {
            push(
                out,
                at("reach"),
                format!(
                    "weapon `{}` of {label} has reach {}; expected 1 to {MAX_RANGE}",
                    w.name, w.reach
                ),
            );
        }
        if w.range > MAX_RANGE {
            push(
                out,
                at("range"),
                format!(
                    "weapon `{}` of {label} has range {}; expected 0 (melee) to {MAX_RANGE}",
                    w.name, w.range
                ),
            );
        }
        match w.held {
            Hand::Stowed => {}
            _ if w.two_handed => two += 1,
            Hand::Main => main += 1,
            Hand::Off => off += 1,
        }
        if w.two_handed && w.held == Hand::Off {
            push(
                out,
                at("held"),
                format!(
                    "two-handed `{}` of {label} is held in the off hand; expected Main or Stowed",
                    w.name
                ),
            );
        }
    }
    if two > 1 || (two == 1 && main + off > 0) || main > 1 || off > 1 {
        push(
            out,
            Where::Unit {
                index,
                field: Some("weapons"),
            },
            format!(
                "{label} holds more than two hands can (one item per hand, two-handed weapons fill both); stow some with `held: Stowed`"
            ),
        );
    }
}
