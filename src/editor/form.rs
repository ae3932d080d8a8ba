//! The unit form: which stats the editor shows for a ruleset, and their defaults.
//!
//! Everything here is asked of the ruleset through the
//! [`crate::engine::rulesets::Ruleset`] seam: the fields are its stat declarations
//! (`stats`), a blank unit's values its `editor_defaults`, and a ruleset with
//! percentile skills, sizes and weapons (`skills`, `uses_equipment`: `flow` today)
//! also gets a field per skill ([`skill_form`]), a size field and a weapons field
//! whose choices are the weapons of that ruleset's unit templates
//! ([`weapon_choices`]). A new ruleset gets its form without any change here.

use crate::engine::rulesets::{Ruleset, registry};
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
    let Some(rules) = registry::get(ruleset) else {
        return Vec::new();
    };
    rules
        .stats()
        .iter()
        .map(|spec| StatField {
            name: spec.name,
            required: spec.required,
            about: spec.about,
            default: spec.required.then(|| default_value(rules, spec.name)),
        })
        .collect()
}

/// The skills `ruleset` rolls, in its declaration order (each is a numeric field
/// of the form); empty for a ruleset without skills or an unknown one.
pub fn skill_form(ruleset: &str) -> &'static [&'static str] {
    registry::get(ruleset).map_or(&[], |r| r.skills())
}

/// Whether `ruleset` reads a unit's `size` and `weapons` (its units carry
/// equipment); `false` for an unknown one.
pub fn unit_extras(ruleset: &str) -> bool {
    registry::get(ruleset).is_some_and(|r| r.uses_equipment())
}

/// The weapons the form offers for units of `ruleset`: every weapon of the
/// templates made for it, in template order, each name once; none for a ruleset
/// whose units carry no equipment.
pub fn weapon_choices(ruleset: &str, templates: &[Template]) -> Vec<WeaponDef> {
    let mut choices: Vec<WeaponDef> = Vec::new();
    if !unit_extras(ruleset) {
        return choices;
    }
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

/// A valid, unremarkable value for a required stat of a new blank unit: the
/// ruleset's editor default, else 0.
fn default_value(rules: &dyn Ruleset, stat: &str) -> i32 {
    rules
        .editor_defaults()
        .iter()
        .find(|(name, _)| *name == stat)
        .map_or(0, |&(_, v)| v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_ruleset_form_is_its_stats_with_its_defaults_for_the_required_ones() {
        for rules in registry::all() {
            let form = stat_form(rules.id());
            assert_eq!(form.len(), rules.stats().len(), "{}", rules.id());
            for (field, spec) in form.iter().zip(rules.stats()) {
                assert_eq!((field.name, field.required), (spec.name, spec.required));
                let listed = rules.editor_defaults().iter().find(|d| d.0 == spec.name);
                let expected = spec.required.then(|| listed.map_or(0, |d| d.1));
                assert_eq!(field.default, expected, "{} {}", rules.id(), spec.name);
            }
            assert_eq!(skill_form(rules.id()), rules.skills());
            assert_eq!(unit_extras(rules.id()), rules.uses_equipment());
        }
        assert!(stat_form("nope").is_empty());
        assert!(skill_form("nope").is_empty() && !unit_extras("nope"));
    }

    #[test]
    fn only_rulesets_with_equipment_offer_weapons() {
        let templates = super::super::load_default_templates().unwrap();
        for rules in registry::all() {
            let choices = weapon_choices(rules.id(), &templates);
            if !rules.uses_equipment() {
                assert!(choices.is_empty(), "{}", rules.id());
            }
            let mut names: Vec<_> = choices.into_iter().map(|w| w.name).collect();
            let n = names.len();
            names.sort();
            names.dedup();
            assert_eq!(names.len(), n, "each weapon once");
        }
    }
}
