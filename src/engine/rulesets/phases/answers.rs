//! `phases`' answers to its decisions — Seize (P-15) and ActNow (P-26) — as it
//! declares them, carried by [`Command::Answer`], and the typed [`PhasesAnswer`]
//! such an answer becomes at the folder's boundary.

use crate::engine::command::Command;
use crate::engine::units::{SideId, UnitId};
use crate::engine::verb::{ArgKind, ArgSpec, ArgValue, Args, VerbSpec};

/// The answers `phases` declares: `Seize(side: "Blue", units: ["Knight"])` and
/// `ActNow(side: "Blue", units: ["Archer"])`; no units declines.
pub const ANSWERS: &[VerbSpec] = &[
    VerbSpec::answer(
        "Seize",
        "these `units` of the deciding side seize the initiative: they move first and \
         battle last, and attackers gain advantage against them this round (P-15); none \
         to decline",
        UNITS,
    ),
    VerbSpec::answer(
        "ActNow",
        "these held `units` of the deciding side act now, before the next unit's turn \
         (P-26); none to keep waiting",
        UNITS,
    ),
];

const UNITS: &[ArgSpec] = &[ArgSpec::optional("units", ArgKind::Units)];

/// Which of `phases`' answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PhasesAnswer {
    /// Who seizes the initiative (P-15).
    Seize,
    /// Which held units act now (P-26).
    ActNow,
}

impl PhasesAnswer {
    /// The answer as declared.
    pub fn verb(self) -> &'static str {
        match self {
            PhasesAnswer::Seize => "Seize",
            PhasesAnswer::ActNow => "ActNow",
        }
    }

    /// The answer of `side` naming `units` (none: the decline).
    pub fn by(self, side: SideId, units: Vec<UnitId>) -> Command {
        Command::Answer {
            side,
            verb: self.verb().into(),
            args: Args::new().with("units", ArgValue::Units(units)),
        }
    }

    /// Which answer a command is, by which side, naming which units.
    pub fn of(command: &Command) -> Option<(PhasesAnswer, SideId, &[UnitId])> {
        let Command::Answer { side, verb, args } = command else {
            return None;
        };
        let answer = [PhasesAnswer::Seize, PhasesAnswer::ActNow]
            .into_iter()
            .find(|a| a.verb() == verb)?;
        Some((answer, *side, args.unit_list("units")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_is_its_declared_verb_and_back() {
        for (answer, spec) in [PhasesAnswer::Seize, PhasesAnswer::ActNow]
            .into_iter()
            .zip(ANSWERS)
        {
            assert_eq!(answer.verb(), spec.name);
            let command = answer.by(SideId(1), vec![UnitId(2), UnitId(0)]);
            let Command::Answer { args, .. } = &command else {
                panic!("not an answer: {command:?}");
            };
            assert_eq!(spec.normalize(args.clone()).as_ref(), Ok(args));
            assert_eq!(
                PhasesAnswer::of(&command),
                Some((answer, SideId(1), &[UnitId(2), UnitId(0)][..]))
            );
            // Left out, the units are none: the decline.
            assert_eq!(
                spec.normalize(Args::new()),
                Ok(Args::new().with("units", ArgValue::Units(Vec::new())))
            );
        }
    }
}
