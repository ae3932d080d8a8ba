//! What a ruleset refuses, typed: [`RulesetError`] from the fallible methods of
//! [`super::Ruleset`] (`setup`, `check_overrides`, `check_trait`,
//! `realize_archetype`), [`BadDice`] from
//! [`super::check_dice`] and [`super::parse_dice`], [`BadStat`] from
//! [`super::check_stats`], and [`ConfigError`], one constant of a configuration.
//!
//! Each variant says where (the unit, the power, the constant) and what; its
//! `Display` is the sentence a user reads (`skirmish check`, `sim`, the window), so
//! code that only reports an error writes it with `{}` and code that reacts to one
//! matches on it.

use super::TraitOf;
use crate::engine::odds::ExprError;
use crate::engine::spec::PowerDef;

/// A constant of a ruleset configuration the ruleset can't play with: which one and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ConfigError {
    /// The constant: a top-level field name, as a level's `rules` key writes it.
    pub key: String,
    /// What is wrong and what was expected, naming the constant as written.
    pub message: String,
}

impl ConfigError {
    /// A problem with the constant `key`.
    pub fn new(key: &str, message: impl Into<String>) -> Self {
        Self {
            key: key.into(),
            message: message.into(),
        }
    }
}

/// Dice a level or a ruleset may not roll. Displays as a phrase to follow the dice
/// as written: "`1d` is not a dice expression (at character 3: ...)".
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BadDice {
    /// The text is no dice expression; the parser's reason and place.
    #[error("is not a dice expression ({0})")]
    Syntax(ExprError),
    /// More different totals than [`super::MAX_DICE_SPAN`], from `lo` to `hi`.
    #[error(
        "spans {} different totals ({lo} to {hi}); dice may span at most {} (e.g. `100d100`)",
        hi - lo + 1,
        super::MAX_DICE_SPAN
    )]
    TooWide {
        /// The lowest total.
        lo: i64,
        /// The highest total.
        hi: i64,
    },
    /// A total beyond [`super::MAX_DICE_TOTAL`] either way.
    #[error(
        "totals {lo} to {hi}; expected totals from -{max} to {max}",
        max = super::MAX_DICE_TOTAL
    )]
    TooLarge {
        /// The lowest total.
        lo: i64,
        /// The highest total.
        hi: i64,
    },
}

/// A unit stat out of the range its ruleset plays with ([`super::StatSpec`]):
/// "`HP` is -5; expected 1 to 1000000".
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{name}` is {value}; expected {min} to {max}")]
pub struct BadStat {
    /// The stat, as level files write it.
    pub name: String,
    /// Its value in the level.
    pub value: i32,
    /// The lowest value the ruleset plays with.
    pub min: i32,
    /// The highest value the ruleset plays with.
    pub max: i32,
}

/// What is wrong with one unit of a level ([`RulesetError::Unit`]), after the
/// unit's name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UnitProblem {
    /// A stat out of range.
    #[error(transparent)]
    Stat(#[from] BadStat),
    /// Damage dice it can't roll, of one of its powers, weapons or items (`of`:
    /// "power", "weapon", "item"), with the dice as written and why.
    #[error("{of} {name}: damage `{dice}` {why}")]
    Damage {
        /// What carries the dice: "power", "weapon" or "item".
        of: &'static str,
        /// Its name.
        name: String,
        /// The dice as written.
        dice: String,
        /// Why they can't be rolled, a phrase to follow them.
        why: String,
    },
    /// Healing dice of one of its items it can't roll.
    #[error("item {item}: heals `{dice}`, which {why}")]
    Heal {
        /// The item's name.
        item: String,
        /// The dice as written.
        dice: String,
        /// Why they can't be rolled.
        why: BadDice,
    },
    /// Something else wrong with one of its powers (its `traits`, ...).
    #[error("power {power}: {why}")]
    Power {
        /// The power's name.
        power: String,
        /// What is wrong, in the ruleset's words.
        why: String,
    },
    /// Something else the ruleset can't play (a trait, a field only it reads), in
    /// its words.
    #[error("{0}")]
    Other(String),
}

impl UnitProblem {
    /// The damage dice of `power` (as the ruleset plays it) it can't roll, and why.
    pub fn damage(power: &PowerDef, why: impl std::fmt::Display) -> Self {
        UnitProblem::Damage {
            of: "power",
            name: power.name.clone(),
            dice: power.damage.clone(),
            why: why.to_string(),
        }
    }
}

/// Why a ruleset can't set up a level, can't take a level's `rules` overrides or
/// doesn't read a trait phrase. Its `Display` is the message a user reads.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesetError {
    /// Its configuration (the file `assets/rulesets/<id>.ron`, or the compiled-in
    /// copy) does not load or can't be played: where (`file:line:col`) and why.
    #[error("{0}")]
    Config(String),
    /// A level's `rules` overrides it can't play, each at its key (an unknown key, a
    /// value of the wrong type or out of range); shown joined by "; ".
    #[error("{}", join(.0))]
    Overrides(Vec<ConfigError>),
    /// A constant of its configuration (or the level's override of it) names a
    /// side the level does not have.
    #[error("{key}: no side named `{side}`")]
    NoSuchSide {
        /// The constant, e.g. `surprisers`.
        key: &'static str,
        /// The side it names.
        side: String,
    },
    /// A constant of its configuration holds dice it can't roll.
    #[error("{key} `{dice}` {why}")]
    ConfigDice {
        /// The constant, e.g. `unarmed_damage`.
        key: &'static str,
        /// The dice as written.
        dice: String,
        /// Why they can't be rolled.
        why: BadDice,
    },
    /// A unit names a side the level does not have.
    #[error("unit {unit} has unknown side {side}")]
    UnknownSide {
        /// The unit's name.
        unit: String,
        /// The side it names.
        side: String,
    },
    /// A unit it can't play: its name and what is wrong with it.
    #[error("unit {unit}: {problem}")]
    Unit {
        /// The unit's name.
        unit: String,
        /// What is wrong with it.
        problem: UnitProblem,
    },
    /// A trait phrase it does not read: why not, naming the valid ones.
    #[error("{0}")]
    Trait(String),
    /// It reads no traits of units (or of sides) at all.
    #[error("`{ruleset}` reads no {} traits", of.noun())]
    NoTraits {
        /// The ruleset's id.
        ruleset: &'static str,
        /// Whose traits.
        of: TraitOf,
    },
    /// It has no archetypes to realize (the trait's default).
    #[error("ruleset `{ruleset}` realizes no archetypes")]
    NoArchetypes {
        /// The ruleset's id.
        ruleset: &'static str,
    },
    /// An archetype it can't realize at a tier: why, in the ruleset's words.
    #[error("{0}")]
    Archetype(String),
}

impl RulesetError {
    /// A problem of the unit named `unit`.
    pub fn unit(unit: &str, problem: impl Into<UnitProblem>) -> Self {
        RulesetError::Unit {
            unit: unit.to_string(),
            problem: problem.into(),
        }
    }
}

/// The messages of `problems`, joined by "; ".
fn join(problems: &[ConfigError]) -> String {
    let messages: Vec<&str> = problems.iter().map(|p| p.message.as_str()).collect();
    messages.join("; ")
}
