//! The unit form: which stats the editor shows for a ruleset, and their defaults.
//!
//! Everything here is asked of the ruleset through the
//! [`crate::engine::ruleset::Ruleset`] seam: the fields are its stat declarations
//! (`stats`), a blank unit's values its `editor_defaults`, and a ruleset with
//! percentile skills, sizes and weapons (`skills`, `uses_equipment`: `flow` today)
//! also gets a field per skill ([`skill_form`]), a size field and a weapons field
//! whose choices are the weapons of that ruleset's unit templates
//! ([`weapon_choices`]). A ruleset that reads traits (`trait_examples`) gets a
//! traits field for units and sides: one line of comma-separated phrases
//! ([`parse_traits`], [`traits_text`]) with its examples as the hint
//! ([`trait_hint`]). A new ruleset gets its form without any change here.

use crate::engine::ruleset::{Ruleset, TraitOf};
use crate::engine::rulesets::registry;
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

/// The hint of the traits field of a unit or a side in `ruleset`: its examples,
/// "e.g. Fast, Ranged, Resist Fire 14+"; `None` for a ruleset that gives none (it
/// reads no such traits, and the field is not offered) or an unknown one.
pub fn trait_hint(ruleset: &str, of: TraitOf) -> Option<String> {
    registry::get(ruleset).and_then(|r| trait_hint_of(r, of))
}

/// [`trait_hint`] of a ruleset given itself (registered or not).
pub fn trait_hint_of(rules: &dyn Ruleset, of: TraitOf) -> Option<String> {
    let examples = rules.trait_examples(of);
    (!examples.is_empty()).then(|| format!("e.g. {}", examples.join(", ")))
}

/// The phrases typed into a traits field: split at commas, each trimmed, empty
/// ones dropped (an empty field is no traits).
pub fn parse_traits(text: &str) -> Vec<String> {
    text.split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(str::to_string)
        .collect()
}

/// Traits as their field shows them: `Fast, Resist Fire 14+` (empty for none).
pub fn traits_text(traits: &[String]) -> String {
    traits.join(", ")
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
    fn traits_fields_read_and_show_comma_separated_phrases() {
        assert_eq!(
            parse_traits(" Fast,Resist Fire 14+ , ,Weak Cold,"),
            ["Fast", "Resist Fire 14+", "Weak Cold"]
        );
        assert!(parse_traits("  ").is_empty() && parse_traits(",").is_empty());
        let traits = parse_traits("Fast, Resist Fire 14+");
        assert_eq!(traits_text(&traits), "Fast, Resist Fire 14+");
        assert_eq!(parse_traits(&traits_text(&traits)), traits);
        assert_eq!(traits_text(&[]), "");
    }

    #[test]
    fn a_traits_field_is_offered_exactly_when_the_ruleset_gives_examples() {
        for rules in registry::all() {
            for of in [TraitOf::Unit, TraitOf::Side] {
                let examples = rules.trait_examples(of);
                let hint = trait_hint(rules.id(), of);
                assert_eq!(hint.is_some(), !examples.is_empty(), "{}", rules.id());
                if let Some(hint) = hint {
                    assert_eq!(hint, format!("e.g. {}", examples.join(", ")));
                }
            }
        }
        assert_eq!(trait_hint("phases", TraitOf::Unit), None);
        assert_eq!(trait_hint("nope", TraitOf::Side), None);
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
