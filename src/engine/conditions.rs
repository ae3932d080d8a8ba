//! Conditions with durations (RULES.md X-08): the shared model every ruleset uses
//! for effects like Defending, Slowed or Disengaged.

use serde::{Deserialize, Serialize};

use crate::engine::units::UnitId;

/// A named effect on a unit and how long it lasts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Condition {
    /// Name; the ruleset gives names their effects.
    pub name: String,
    /// When it ends.
    pub duration: Duration,
    /// Who caused it, if anyone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<UnitId>,
    /// The unit it concerns, for effects aimed at someone (a Charge's target).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub about: Option<UnitId>,
}

impl Condition {
    /// A condition with no source or subject.
    pub fn new(name: impl Into<String>, duration: Duration) -> Self {
        Self {
            name: name.into(),
            duration,
            source: None,
            about: None,
        }
    }
}

/// Duration kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Duration {
    /// Ends at the end of the given round.
    EndOfRound(u32),
    /// Ends when its owner's next turn starts (phases: next Battle-Phase turn).
    UntilOwnNextTurn,
    /// Ends when its owner makes a saving throw.
    SaveEnds,
    /// Lasts while the given unit makes its sustain saves.
    Sustained(UnitId),
    /// Ends at the end of its owner's n-th turn of the battle (flow: Feint lasts to
    /// the end of the feinter's next turn, Flow State to the end of this one).
    EndOfOwnTurn(u32),
    /// Lasts until a rule removes it (grappled, prone).
    UntilRemoved,
}

impl std::fmt::Display for Condition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name)?;
        match self.duration {
            Duration::EndOfRound(r) => write!(f, " (until end of round {r})"),
            Duration::UntilOwnNextTurn => write!(f, " (until its next turn)"),
            Duration::SaveEnds => write!(f, " (save ends)"),
            Duration::Sustained(_) => write!(f, " (sustained)"),
            Duration::EndOfOwnTurn(_) => write!(f, " (until the end of its turn)"),
            Duration::UntilRemoved => Ok(()),
        }
    }
}
