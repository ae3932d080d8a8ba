//! Pending decisions: when the rules need a choice, the engine stops and names who
//! decides and the legal options. The UI, the AI or a script answers with a command.

use serde::Serialize;

use crate::engine::board::Cell;
use crate::engine::command::Reaction;
use crate::engine::skill::SuccessLevel;
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
    /// Whether and how to react (flow, F-04, F-18 … F-31); answered by
    /// `Command::React` or `Command::Pass`.
    Reaction {
        /// What triggered it.
        trigger: Trigger,
        /// Every legal reaction of the side's units, with its odds.
        options: Vec<ReactionOption>,
    },
}

/// What a reaction answers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Trigger {
    /// An attack succeeded against `target` and may be dodged, parried, blocked,
    /// riposted or intercepted.
    Attack {
        /// The attacker.
        attacker: UnitId,
        /// The target.
        target: UnitId,
        /// The weapon.
        weapon: String,
        /// The attack's success level.
        level: SuccessLevel,
        /// Whether it is a melee attack.
        melee: bool,
        /// Whether it is itself a Reaction Attack (no advanced reactions, F-29).
        reaction_attack: bool,
    },
    /// An enemy took a triggering action in the unit's threat range (F-26, F-47).
    Provoked {
        /// The enemy.
        mover: UnitId,
        /// What it did ("leaves (3, 4)", "casts a spell", ...).
        action: String,
    },
}

/// One legal reaction, with its exact odds.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReactionOption {
    /// Who reacts.
    pub unit: UnitId,
    /// The reaction.
    pub reaction: Reaction,
    /// Its RP cost.
    pub rp: i32,
    /// Exact chance it succeeds (wins the opposed check, or the attack check succeeds).
    pub chance: f64,
    /// Expected value in HP terms (damage avoided or dealt), what `Auto` maximises.
    pub value: f64,
    /// Intercept: the hexes it can move to.
    pub cells: Vec<Cell>,
}

impl Eq for ReactionOption {}
