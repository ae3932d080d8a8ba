//! `flow`'s reactions (F-10, F-18 … F-31) as the answer it declares to its reaction
//! decisions: `React(side: "Blue", unit: "Duelist", reaction: Parry)`, carried by
//! [`Command::Answer`], and the typed [`React`] such an answer becomes at the
//! folder's boundary (the rules match on the typed reaction; everything outside this
//! folder sees an answer).

use serde::{Deserialize, Serialize};

use crate::engine::board::Cell;
use crate::engine::command::{Command, CommandError};
use crate::engine::units::{SideId, UnitId};
use crate::engine::verb::{ArgKind, ArgSpec, ArgValue, Args, ChoiceSpec, VerbSpec};

/// The reactions of `flow` (F-10), with their RP costs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Reaction {
    /// Higher of Agility/Athletics against a melee or ranged attack (F-18).
    Dodge,
    /// Melee against a melee attack (F-19, F-24).
    Parry,
    /// Endurance against a melee or ranged attack; needs a shield (F-20).
    Block,
    /// An unmodified melee attack on an enemy that provoked it (F-25, F-47).
    ReactionAttack,
    /// Parry, then a Reaction Attack if the parry wins (F-30).
    Riposte,
    /// Move up to 3 hexes and take an ally's attack (F-31).
    Intercept,
}

impl Reaction {
    /// Every reaction, in the order the answer's choice lists them.
    pub const ALL: [Reaction; 6] = [
        Reaction::Dodge,
        Reaction::Parry,
        Reaction::Block,
        Reaction::ReactionAttack,
        Reaction::Riposte,
        Reaction::Intercept,
    ];

    /// The reaction as written in a scenario (`ReactionAttack`; [`Display`] gives
    /// the words, `Reaction Attack`).
    ///
    /// [`Display`]: std::fmt::Display
    pub fn syntax(self) -> &'static str {
        match self {
            Reaction::Dodge => "Dodge",
            Reaction::Parry => "Parry",
            Reaction::Block => "Block",
            Reaction::ReactionAttack => "ReactionAttack",
            Reaction::Riposte => "Riposte",
            Reaction::Intercept => "Intercept",
        }
    }

    /// The reaction written `text` in a scenario.
    pub fn from_syntax(text: &str) -> Option<Reaction> {
        Reaction::ALL.into_iter().find(|r| r.syntax() == text)
    }
}

impl std::fmt::Display for Reaction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Reaction::Dodge => "Dodge",
            Reaction::Parry => "Parry",
            Reaction::Block => "Block",
            Reaction::ReactionAttack => "Reaction Attack",
            Reaction::Riposte => "Riposte",
            Reaction::Intercept => "Intercept",
        })
    }
}

/// Why a reaction is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReactionRefusal {
    /// Not enough RP (F-10).
    #[error("it has {have} RP and this reaction costs {need}")]
    NoRp {
        /// RP left.
        have: i32,
        /// RP needed.
        need: i32,
    },
    /// The enemy is out of its reach.
    #[error("{0}")]
    OutOfReach(String),
    /// Block needs a shield in hand (F-20).
    #[error("it has no shield in hand (Block needs one)")]
    NoShield,
    /// Parry and Riposte need a melee weapon in hand.
    #[error("it has no melee weapon in hand")]
    NoMeleeWeapon,
    /// Only one reaction per attack (F-11).
    #[error("it already reacted to this attack (one reaction per attack, F-11)")]
    AlreadyReacted,
    /// The reaction doesn't work against this kind of attack.
    #[error("{0}")]
    WrongAttack(String),
    /// Can't parry an enemy more than one size larger (F-24).
    #[error("the attacker is more than one size category larger (F-24)")]
    TooLarge,
    /// A grappled unit can't react (F-GAP-15).
    #[error("it is grappled")]
    Grappled,
    /// No advanced reactions against a Reaction Attack (F-29).
    #[error("no Riposte or Intercept against a Reaction Attack (F-29)")]
    AgainstReactionAttack,
    /// The unit has no such option in this decision.
    #[error("{0}")]
    NotOffered(String),
    /// The intercept hex is not one it can use.
    #[error("{0}")]
    BadIntercept(String),
}

impl ReactionRefusal {
    /// The command error refusing `unit` (its name) the `reaction` for this reason:
    /// "Duelist cannot Parry: it has no melee weapon in hand".
    pub fn refuse(self, unit: impl Into<String>, reaction: Reaction) -> CommandError {
        CommandError::Cannot {
            unit: unit.into(),
            what: reaction.to_string(),
            reason: self.to_string(),
        }
    }
}

const REACTIONS: &[ChoiceSpec] = &[
    ChoiceSpec {
        value: "Dodge",
        label: "Dodge",
    },
    ChoiceSpec {
        value: "Parry",
        label: "Parry",
    },
    ChoiceSpec {
        value: "Block",
        label: "Block",
    },
    ChoiceSpec {
        value: "ReactionAttack",
        label: "Reaction Attack",
    },
    ChoiceSpec {
        value: "Riposte",
        label: "Riposte",
    },
    ChoiceSpec {
        value: "Intercept",
        label: "Intercept",
    },
];

/// The answers `flow` declares: `React`.
pub const ANSWERS: &[VerbSpec] = &[VerbSpec::answer(
    "React",
    "`unit` of the deciding side reacts with `reaction` (F-18 … F-31); an Intercept \
     may name the hex it moves to (`to`) and trade places with the ally (`swap`, F-31)",
    &[
        ArgSpec::required("unit", ArgKind::Unit),
        ArgSpec::required("reaction", ArgKind::Choice(REACTIONS)),
        ArgSpec::optional("to", ArgKind::Cell),
        ArgSpec::optional("swap", ArgKind::Flag),
    ],
)];

/// A `React` answer as the rules see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct React {
    /// The deciding side.
    pub side: SideId,
    /// The reacting unit.
    pub unit: UnitId,
    /// The reaction.
    pub reaction: Reaction,
    /// Intercept: the hex to move to.
    pub to: Option<Cell>,
    /// Intercept: push the ally 1 hex on and take its place.
    pub swap: bool,
}

impl React {
    /// `unit` of `side` reacts with `reaction` (no Intercept hex, no swap).
    pub fn new(side: SideId, unit: UnitId, reaction: Reaction) -> Self {
        Self {
            side,
            unit,
            reaction,
            to: None,
            swap: false,
        }
    }

    /// The answer that submits it (arguments in declared order).
    pub fn command(&self) -> Command {
        let mut args = Args::new()
            .with("unit", ArgValue::Unit(self.unit))
            .with("reaction", ArgValue::Choice(self.reaction.syntax().into()));
        if let Some(to) = self.to {
            args = args.with("to", ArgValue::Cell(to));
        }
        if self.swap {
            args = args.with("swap", ArgValue::Flag(true));
        }
        Command::Answer {
            side: self.side,
            verb: "React".into(),
            args,
        }
    }

    /// The reaction a command answers with, if it is a well-formed `React`.
    pub fn of(command: &Command) -> Option<React> {
        let Command::Answer { side, verb, args } = command else {
            return None;
        };
        if verb != "React" {
            return None;
        }
        Some(React {
            side: *side,
            unit: args.unit("unit")?,
            reaction: Reaction::from_syntax(args.choice("reaction")?)?,
            to: args.cell("to"),
            swap: args.flag("swap"),
        })
    }
}

impl From<React> for Command {
    fn from(react: React) -> Command {
        react.command()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reaction_goes_through_its_answer_and_back() {
        for reaction in Reaction::ALL {
            let react = React {
                to: Some(Cell::new(2, 3)),
                swap: reaction == Reaction::Intercept,
                ..React::new(SideId(1), UnitId(4), reaction)
            };
            let command = react.command();
            let Command::Answer { args, .. } = &command else {
                panic!("not an answer: {command:?}");
            };
            assert_eq!(ANSWERS[0].normalize(args.clone()).as_ref(), Ok(args));
            assert_eq!(React::of(&command), Some(react));
        }
        assert_eq!(React::of(&Command::Pass { side: SideId(0) }), None);
    }
}
