//! The rulesets the engine can play, and what each one needs from a level.
//!
//! Each ruleset is a Bevy plugin adding its systems into the engine's stage sets
//! (see [`crate::engine::battle::BattleStage`]) plus a RON configuration of its constants.
//! This module is the registry: which ids exist, which unit stats each needs, and
//! how a level's `rules` overrides are checked.

use std::collections::BTreeMap;

pub mod config;
pub mod flow;
pub mod phases;

/// A unit stat a ruleset reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatSpec {
    /// Name as written in level files.
    pub name: &'static str,
    /// Whether a level must give it (otherwise the ruleset derives a default).
    pub required: bool,
    /// What it means, for error messages and the editor.
    pub about: &'static str,
}

/// Ids of the rulesets this build plays.
pub const RULESETS: &[&str] = &["phases", "flow"];

/// The stats a ruleset reads, or `None` for an unknown ruleset id.
pub fn stat_specs(ruleset: &str) -> Option<&'static [StatSpec]> {
    match ruleset {
        "phases" => Some(phases::STATS),
        "flow" => Some(flow::STATS),
        _ => None,
    }
}

/// Checks a level's `rules` overrides against the ruleset's configuration: every key
/// must name a constant and every value must have its type.
pub fn check_overrides(
    ruleset: &str,
    overrides: &BTreeMap<String, ron::Value>,
) -> Result<(), String> {
    match ruleset {
        "phases" => phases::PhasesConfig::load_default()
            .and_then(|base| base.with_overrides(overrides))
            .map(|_| ()),
        "flow" => flow::FlowConfig::load_default()
            .and_then(|base| base.with_overrides(overrides))
            .map(|_| ()),
        other => Err(format!("unknown ruleset `{other}`")),
    }
}
