//! Battle files written before the rulesets' own words left the core's commands
//! (issue 30): `Seize` and `ActNow` (`phases`, `escalation`) and `React` (`flow`,
//! `escalation`) were core commands then, and `Attack` had the fields `aim`
//! (`wounds`) and `approach` (`actfast`), `Move` the field `target` (`phases`'
//! Charge). They read as the [`Command::Answer`]s and the attack and move options
//! they are now, with the same values, so every saved battle and replay keeps
//! loading and replaying unchanged.

use serde::de::{EnumAccess, Visitor};
use serde::{Deserialize, Deserializer};

use crate::engine::board::Cell;
use crate::engine::command::Command;
use crate::engine::units::{SideId, UnitId};
use crate::engine::verb::{ArgValue, Args};
use crate::variant::{Ident, Replay};

/// The commands of a battle file, old ones read as today's.
pub(super) fn commands<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Command>, D::Error> {
    let stored = Vec::<Stored>::deserialize(d)?;
    Ok(stored.into_iter().map(|s| s.0).collect())
}

/// One command of a battle file.
struct Stored(Command);

/// Today's commands, then the old ones.
const NAMES: &[&str] = &[
    "Move",
    "Attack",
    "ActivateItem",
    "EndTurn",
    "Answer",
    "Pass",
    "Act",
    "Seize",
    "ActNow",
    "React",
];

impl<'de> Deserialize<'de> for Stored {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_enum("Command", NAMES, StoredVisitor)
    }
}

struct StoredVisitor;

impl<'de> Visitor<'de> for StoredVisitor {
    type Value = Stored;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a command, e.g. `EndTurn(unit: (0))`")
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Stored, A::Error> {
        let (Ident(name), variant) = data.variant::<Ident>()?;
        let replay = Replay { name, variant };
        let command = if OLD.contains(&replay.name.as_str()) {
            Old::deserialize(replay)?.into()
        } else {
            Command::deserialize(replay)?
        };
        Ok(Stored(command))
    }
}

/// The commands whose first format differs: read by [`Old`].
const OLD: &[&str] = &["Seize", "ActNow", "React", "Attack", "Move"];

/// The commands of the first battle-file format that are answers now, and the
/// attacks and moves, read in either format.
#[derive(Deserialize)]
enum Old {
    Attack {
        unit: UnitId,
        target: UnitId,
        power: Option<String>,
        #[serde(default)]
        aim: Option<String>,
        #[serde(default)]
        approach: Vec<Cell>,
        #[serde(default)]
        options: Args,
    },
    Move {
        unit: UnitId,
        power: String,
        path: Vec<Cell>,
        #[serde(default)]
        target: Option<UnitId>,
        #[serde(default)]
        options: Args,
    },
    Seize {
        side: SideId,
        units: Vec<UnitId>,
    },
    ActNow {
        side: SideId,
        units: Vec<UnitId>,
    },
    React {
        side: SideId,
        unit: UnitId,
        /// The reaction's name as written (`ReactionAttack`).
        reaction: Ident,
        #[serde(default)]
        to: Option<Cell>,
        #[serde(default)]
        swap: bool,
    },
}

impl From<Old> for Command {
    /// The answer with the arguments in the order its ruleset declares them (an
    /// unset `to` or `swap` left out), so it equals the answer the ruleset offers;
    /// the attack or move with its old fields as its options.
    fn from(old: Old) -> Command {
        let (verb, side, args) = match old {
            Old::Attack {
                unit,
                target,
                power,
                aim,
                approach,
                options,
            } => {
                let approach = (!approach.is_empty()).then_some(ArgValue::Cells(approach));
                let old = Args::new()
                    .with_opt("aim", aim.map(ArgValue::Name))
                    .with_opt("approach", approach);
                return Command::Attack {
                    unit,
                    target,
                    power,
                    options: old.and(options),
                };
            }
            Old::Move {
                unit,
                power,
                path,
                target,
                options,
            } => {
                let old = Args::new().with_opt("target", target.map(ArgValue::Unit));
                return Command::Move {
                    unit,
                    power,
                    path,
                    options: old.and(options),
                };
            }
            Old::Seize { side, units } => ("Seize", side, units_arg(units)),
            Old::ActNow { side, units } => ("ActNow", side, units_arg(units)),
            Old::React {
                side,
                unit,
                reaction: Ident(reaction),
                to,
                swap,
            } => {
                let mut args = Args::new()
                    .with("unit", ArgValue::Unit(unit))
                    .with("reaction", ArgValue::Choice(reaction));
                if let Some(to) = to {
                    args = args.with("to", ArgValue::Cell(to));
                }
                if swap {
                    args = args.with("swap", ArgValue::Flag(true));
                }
                ("React", side, args)
            }
        };
        Command::Answer {
            side,
            verb: verb.into(),
            args,
        }
    }
}

fn units_arg(units: Vec<UnitId>) -> Args {
    Args::new().with("units", ArgValue::Units(units))
}
