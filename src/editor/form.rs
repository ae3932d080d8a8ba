//! The unit form: which stats the editor shows for a ruleset, and their defaults.
//!
//! The fields come from the ruleset's own stat declarations
//! ([`crate::engine::rulesets::stat_specs`]), so a ruleset that reads different
//! stats gets a different form without any change here.

use crate::engine::rulesets::stat_specs;

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
    }
}
