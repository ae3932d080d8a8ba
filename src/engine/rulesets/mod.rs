//! The catalogue: the rulesets this build plays, and their look-up by id.
//!
//! Each ruleset lives in its own folder (`phases/`, `flow/`, ...): a Bevy plugin
//! adding its systems into the engine's stage sets (see
//! [`crate::engine::battle::BattleStage`]), a RON configuration of its constants, and
//! one type implementing the core's [`crate::engine::ruleset::Ruleset`] trait — what the battle, the level
//! checks, the editor and the AI ask it. A ruleset knows only the core
//! ([`crate::engine::ruleset`] and the other files of `src/engine`), never the
//! catalogue or another ruleset; the core knows no ruleset.
//!
//! The catalogue sits above them: the [`registry`] is the one list of rulesets, and
//! everything that starts from a ruleset's id — level loading and checks, the
//! command line, the AI's simulator, scripts, the editor and the window — looks it up
//! there ([`RULESETS`], [`stat_specs`], [`check_overrides`] and [`new_battle`] are
//! thin front ends to it). `docs/rulesets.md` explains how to write a ruleset.

use std::collections::BTreeMap;

use crate::engine::battle::Battle;
use crate::engine::dice::Dice;
use crate::engine::ruleset::StatSpec;
use crate::engine::spec::Level;

pub mod actfast;
pub mod escalation;
pub mod flow;
pub mod phases;
pub mod registry;
pub mod wounds;

/// The ids of every registered ruleset, in registry order (built-ins first):
/// dereferences to a slice, `RULESETS.contains(&id)`, `RULESETS.join(", ")`. Reads
/// [`registry::ids`] each time, so a ruleset registered later is listed too.
pub static RULESETS: Rulesets = Rulesets;

/// The type of [`RULESETS`].
#[derive(Clone, Copy, Debug)]
pub struct Rulesets;

impl std::ops::Deref for Rulesets {
    type Target = [&'static str];

    fn deref(&self) -> &[&'static str] {
        registry::ids()
    }
}

impl IntoIterator for Rulesets {
    type Item = &'static &'static str;
    type IntoIter = std::slice::Iter<'static, &'static str>;

    fn into_iter(self) -> Self::IntoIter {
        registry::ids().iter()
    }
}

/// The stats a ruleset reads, or `None` for an unknown ruleset id.
pub fn stat_specs(ruleset: &str) -> Option<&'static [StatSpec]> {
    registry::get(ruleset).map(|r| r.stats())
}

/// Checks a level's `rules` overrides against the ruleset's configuration: every key
/// must name a constant and every value must have its type.
pub fn check_overrides(
    ruleset: &str,
    overrides: &BTreeMap<String, ron::Value>,
) -> Result<(), String> {
    registry::get(ruleset)
        .ok_or_else(|| format!("unknown ruleset `{ruleset}`"))?
        .check_overrides(overrides)
        .map_err(|e| e.to_string())
}

/// Sets up a battle on a (validated) level with the given dice under the ruleset the
/// level names, looked up in the [`registry`], and plays it up to the first point
/// that needs input (see [`Battle::from_level_with`]).
pub fn new_battle(level: &Level, dice: Dice) -> Result<Battle, String> {
    let ruleset = registry::get(&level.ruleset).ok_or_else(|| {
        format!(
            "unknown ruleset `{}`; expected one of: {}",
            level.ruleset,
            registry::ids().join(", ")
        )
    })?;
    Battle::from_level_with(ruleset, level, dice)
}
