//! The rulesets the engine can play, and what each one needs from a level.
//!
//! Each ruleset is a Bevy plugin adding its systems into the engine's stage sets
//! (see [`crate::engine::battle::BattleStage`]) plus a RON configuration of its constants.
//! This module is the registry: which ids exist, which unit stats each needs, and
//! how a level's `rules` overrides are checked.

use std::collections::BTreeMap;

use crate::engine::odds::DiceExpr;

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
    /// Lowest value the ruleset plays with.
    pub min: i32,
    /// Highest value the ruleset plays with.
    pub max: i32,
}

/// Most hit points a unit may have (a stat, or a ruleset's default).
pub const MAX_HP: i32 = 1_000_000;
/// Largest magnitude of a modifier stat (INT, AGI, ATK, DEF, AgiMod) and of a
/// constant added to a roll: far beyond any sensible value, small enough that no
/// sum of them overflows.
pub const MAX_MODIFIER: i32 = 1000;
/// Most squares or hexes a unit may move per Walk or Move action (its Speed).
pub const MAX_SPEED: i32 = 1000;
/// Most points of a per-turn pool (`flow` AP and RP), and the most an action or a
/// reaction may cost.
pub const MAX_POINTS: i32 = 100;
/// Most cells a weapon or power may reach or shoot.
pub const MAX_RANGE: u32 = 1000;
/// Most different totals (highest − lowest) of any dice expression a level or a
/// ruleset rolls: damage, healing, attack, save, initiative and ongoing dice. The
/// AI weighs every total of a damage roll each time it compares attacks, so this
/// bounds its work per decision: `100d100` (span 9,900) plays a battle in seconds.
pub const MAX_DICE_SPAN: i64 = 10_000;
/// Largest magnitude of any total of those dice (so that damage, even multiplied by
/// a critical, stays far from overflowing).
pub const MAX_DICE_TOTAL: i64 = 1_000_000;

/// Checks dice a level or a ruleset rolls against [`MAX_DICE_SPAN`] and
/// [`MAX_DICE_TOTAL`]. The error is a phrase to follow the dice as written, e.g.
/// "spans 19981 different totals (20 to 20000); ...".
pub fn check_dice(expr: &DiceExpr) -> Result<(), String> {
    let (lo, hi) = expr.range();
    if hi - lo > MAX_DICE_SPAN {
        return Err(format!(
            "spans {} different totals ({lo} to {hi}); dice may span at most \
             {MAX_DICE_SPAN} (e.g. `100d100`)",
            hi - lo + 1
        ));
    }
    if lo < -MAX_DICE_TOTAL || hi > MAX_DICE_TOTAL {
        return Err(format!(
            "totals {lo} to {hi}; expected totals from -{MAX_DICE_TOTAL} to {MAX_DICE_TOTAL}"
        ));
    }
    Ok(())
}

/// Parses dice a level rolls (damage, healing) and checks them with [`check_dice`].
/// The error is a phrase to follow the dice as written: "is not a dice expression
/// (at character 3: ...)" or one of [`check_dice`]'s.
pub fn parse_dice(text: &str) -> Result<DiceExpr, String> {
    let expr: DiceExpr = text
        .parse()
        .map_err(|e| format!("is not a dice expression ({e})"))?;
    check_dice(&expr)?;
    Ok(expr)
}

/// The stat spec of `stat` in `ruleset`, if the ruleset reads it.
pub fn stat_spec(ruleset: &str, stat: &str) -> Option<&'static StatSpec> {
    stat_specs(ruleset)?.iter().find(|s| s.name == stat)
}

/// Checks a unit's stats against the ruleset's ranges: the first one out of range,
/// as "`HP` is -5; expected 1 to 1000000". Unknown and missing stats are the level
/// checks' business; a ruleset's setup calls this so that a level built in code
/// can't play with values `skirmish check` refuses.
pub fn check_stats(ruleset: &str, stats: &BTreeMap<String, i32>) -> Result<(), String> {
    for (name, &v) in stats {
        if let Some(spec) = stat_spec(ruleset, name)
            && !(spec.min..=spec.max).contains(&v)
        {
            return Err(format!(
                "`{name}` is {v}; expected {} to {}",
                spec.min, spec.max
            ));
        }
    }
    Ok(())
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

/// A checked configuration of one of the rulesets.
#[derive(Clone, Debug)]
pub enum AnyConfig {
    /// `phases`.
    Phases(phases::PhasesConfig),
    /// `flow`.
    Flow(flow::FlowConfig),
}

/// The configuration a level plays with: the ruleset's checked defaults with every
/// playable override of `overrides` applied, and the problems of the others, each at
/// its key. An error if the ruleset is unknown or its configuration file does not
/// load.
pub fn level_config(
    ruleset: &str,
    overrides: &BTreeMap<String, ron::Value>,
) -> Result<(AnyConfig, Vec<config::ConfigError>), String> {
    match ruleset {
        "phases" => {
            let (c, problems) =
                config::apply_overrides(&phases::PhasesConfig::load_default()?, overrides);
            Ok((AnyConfig::Phases(c), problems))
        }
        "flow" => {
            let (c, problems) =
                config::apply_overrides(&flow::FlowConfig::load_default()?, overrides);
            Ok((AnyConfig::Flow(c), problems))
        }
        other => Err(format!("unknown ruleset `{other}`")),
    }
}
