//! The unit form: which stats the editor shows for a ruleset, and their defaults.
//!
//! The fields come from the ruleset's own stat declarations
//! ([`crate::engine::rulesets::stat_specs`]), so a ruleset that reads different
//! stats gets a different form without any change here. A ruleset with percentile
//! skills, sizes and weapons (`flow`) also gets a field per skill ([`skill_form`],
//! from the ruleset's own skill list), a size field and a weapons field whose
//! choices are the weapons of that ruleset's unit templates ([`weapon_choices`]).

use crate::engine::rulesets::{flow, stat_specs};
use crate::level::schema::{Size, WeaponDef};

use super::templates::Template;

/// The size categories, smallest first: what the size field cycles through.
pub const SIZES: [Size; 5] = [
    Size::Small,
    Size::Medium,
    Size::Large,
    Size::Huge,
    Size::Gargantuan,
];

/// The lowest and highest value the form offers for a skill (percentile).
pub const SKILL_RANGE: (i32, i32) = (0, 100);

/// One stat field of the unit form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatField {
    /// The stat name as written in level files (case-sensitive).
    pub name: &'static str,
    /// Whether a unit must give it; optional stats are derived by the ruleset when
    /// left out (the form shows them empty).
    pub required: bool,
    /// What it means, as the ruleset describes it (a tooltip).
    pub about: &'static str,
    /// The value a new blank unit gets for a required stat; `None` for optional
    /// stats, which a blank unit leaves out.
    pub default: Option<i32>,
}

/// The unit form of `ruleset`, in the ruleset's declaration order; empty for an
/// unknown ruleset.
pub fn stat_form(ruleset: &str) -> Vec<StatField> {
    stat_specs(ruleset)
        .unwrap_or_default()
        .iter()
        .map(|spec| StatField {
            name: spec.name,
            required: spec.required,
            about: spec.about,
            default: spec.required.then(|| default_value(ruleset, spec.name)),
        })
        .collect()
}

/// The skills `ruleset` rolls, in its declaration order (each is a numeric field
/// of the form); empty for a ruleset without skills or an unknown one.
pub fn skill_form(ruleset: &str) -> &'static [&'static str] {
    match ruleset {
        "flow" => flow::SKILLS,
        _ => &[],
    }
}

/// Whether `ruleset` reads a unit's `size` and `weapons` (the rulesets with skills
/// do: skills, size and weapons come together in the level format).
pub fn unit_extras(ruleset: &str) -> bool {
    !skill_form(ruleset).is_empty()
}

/// The weapons the form offers for units of `ruleset`: every weapon of the
/// templates made for it, in template order, each name once.
pub fn weapon_choices(ruleset: &str, templates: &[Template]) -> Vec<WeaponDef> {
    let mut choices: Vec<WeaponDef> = Vec::new();
    for weapon in templates
        .iter()
        .filter(|t| t.ruleset == ruleset)
        .flat_map(|t| &t.weapons)
    {
        if !choices.iter().any(|w| w.name == weapon.name) {
            choices.push(weapon.clone());
        }
    }
    choices
}

/// A valid, unremarkable value for a required stat of a new blank unit.
///
/// The stat declarations carry no defaults, so the typical values of `phases`
/// (RULES.md §1: ATK +2, DEF 11, Tier 1) live here; any other stat starts at 0.
fn default_value(ruleset: &str, stat: &str) -> i32 {
    match (ruleset, stat) {
        ("phases", "ATK") => 2,
        ("phases", "DEF") => 11,
        ("phases", "Tier") => 1,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phases_form_lists_its_stats_with_defaults_for_the_required_ones() {
        let form = stat_form("phases");
        let names: Vec<_> = form.iter().map(|f| f.name).collect();
        assert_eq!(names, ["INT", "AGI", "ATK", "DEF", "Tier", "HP", "Speed"]);
        let tier = form.iter().find(|f| f.name == "Tier");
        assert_eq!(tier.and_then(|f| f.default), Some(1));
        let hp = form.iter().find(|f| f.name == "HP");
        assert_eq!(hp.map(|f| (f.required, f.default)), Some((false, None)));
        assert!(stat_form("nope").is_empty());
        assert!(skill_form("phases").is_empty() && !unit_extras("phases"));
    }

    #[test]
    fn flow_form_has_skills_and_the_template_weapons() {
        assert_eq!(skill_form("flow"), flow::SKILLS);
        assert!(unit_extras("flow"));
        let templates = super::super::load_default_templates().unwrap();
        let names: Vec<_> = weapon_choices("flow", &templates)
            .into_iter()
            .map(|w| w.name)
            .collect();
        assert!(names.len() >= 3, "{names:?}");
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), names.len());
        assert!(weapon_choices("phases", &templates).is_empty());
    }
}
