//! Pending decisions: when the rules need a choice, the engine stops and names who
//! decides and the legal options. The UI, the AI or a script answers with a command.

use serde::Serialize;

use crate::engine::units::{SideId, UnitId};

/// A choice the battle is waiting for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PendingDecision {
    /// The side that decides.
    pub side: SideId,
    /// What is asked.
    pub kind: DecisionKind,
}

/// The kinds of decision.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum DecisionKind {
    /// Which of these units seize the initiative this round (P-15, P-GAP-12); answered
    /// by `Command::Seize`.
    SeizeInitiative {
        /// Units of the side that may seize, in ascending initiative.
        eligible: Vec<UnitId>,
    },
    /// Whether held (delayed) units act before `next` starts its turn (P-26,
    /// P-GAP-13); answered by `Command::ActNow`.
    ActFromDelay {
        /// The unit about to start its Battle turn.
        next: UnitId,
        /// Held units of the side, in descending initiative.
        held: Vec<UnitId>,
    },
}
