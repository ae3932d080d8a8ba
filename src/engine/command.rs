//! Commands: every intent, from a player, the AI, a script or a test, is one of these
//! (command → check → event → apply). `check` says why an illegal command is refused.

use serde::{Deserialize, Serialize};

use crate::engine::board::Cell;
use crate::engine::dice::DiceError;
use crate::engine::units::{SideId, UnitId};

/// An intent submitted to the battle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Command {
    /// Answers a seize-the-initiative decision: these units of the deciding side seize
    /// (none to decline) (P-15).
    Seize {
        /// The deciding side.
        side: SideId,
        /// The units that seize.
        units: Vec<UnitId>,
    },
    /// Uses a movement power along `path` (the cells entered, in order).
    Move {
        /// The mover.
        unit: UnitId,
        /// Movement power name (Walk, Shift, Charge, ...).
        power: String,
        /// Cells entered, start excluded.
        path: Vec<Cell>,
        /// The enemy charged, for Charge.
        target: Option<UnitId>,
    },
    /// Attacks `target` with a power (the unit's first power if `None`) (P-23).
    Attack {
        /// The attacker.
        unit: UnitId,
        /// The target.
        target: UnitId,
        /// Power name.
        power: Option<String>,
    },
    /// Defends: attacks against the unit are at a disadvantage until its next turn (P-27).
    Defend {
        /// The defender.
        unit: UnitId,
    },
    /// Disengages as a Battle action: shifts up to 2 squares without provoking (P-28).
    Disengage {
        /// The unit.
        unit: UnitId,
        /// Cells entered, start excluded.
        path: Vec<Cell>,
    },
    /// Delays: the unit is held and may act before a later unit's turn (P-26).
    Delay {
        /// The unit.
        unit: UnitId,
    },
    /// Answers an act-from-delay decision: these held units act now (none to keep waiting).
    ActNow {
        /// The deciding side.
        side: SideId,
        /// The held units that act before the next unit.
        units: Vec<UnitId>,
    },
    /// Activates an item (P-25); `target` for items that attack.
    ActivateItem {
        /// The unit.
        unit: UnitId,
        /// Item name.
        item: String,
        /// Target of an attacking item.
        target: Option<UnitId>,
    },
    /// Ends the unit's current turn without (further) action.
    EndTurn {
        /// The unit.
        unit: UnitId,
    },
}

impl Command {
    /// The unit acting, if the command is one unit's action.
    pub fn unit(&self) -> Option<UnitId> {
        match self {
            Command::Seize { .. } | Command::ActNow { .. } => None,
            Command::Move { unit, .. }
            | Command::Attack { unit, .. }
            | Command::Defend { unit }
            | Command::Disengage { unit, .. }
            | Command::Delay { unit }
            | Command::ActivateItem { unit, .. }
            | Command::EndTurn { unit } => Some(*unit),
        }
    }
}

/// Why a command was refused (or failed while running).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// The battle is over.
    #[error("the battle is over")]
    BattleOver,
    /// There is no unit with that id.
    #[error("there is no unit #{0}")]
    NoSuchUnit(u32),
    /// The unit has been defeated.
    #[error("{0} has been defeated")]
    Defeated(String),
    /// A decision is pending and must be answered first.
    #[error("waiting for {side} to decide: {what}")]
    DecisionPending {
        /// Name of the deciding side.
        side: String,
        /// What is asked.
        what: String,
    },
    /// The command answers a decision nobody asked for.
    #[error("no such decision is pending")]
    NoDecisionPending,
    /// Not this unit's turn.
    #[error("it is not {unit}'s turn ({reason})")]
    NotYourTurn {
        /// The unit.
        unit: String,
        /// Whose turn it is / what stage.
        reason: String,
    },
    /// Wrong stage for this command.
    #[error("{0}")]
    WrongStage(String),
    /// The action was already used.
    #[error("{unit} has already {what} this round")]
    AlreadyUsed {
        /// The unit.
        unit: String,
        /// What was used.
        what: String,
    },
    /// Unknown power / item / movement power.
    #[error("{unit} has no {kind} named `{name}`")]
    Unknown {
        /// The unit.
        unit: String,
        /// "power", "item", "movement power".
        kind: &'static str,
        /// The name asked for.
        name: String,
    },
    /// Not a legal target.
    #[error("no such target: {0}")]
    NoSuchTarget(String),
    /// Target out of reach or range.
    #[error("out of reach: {0}")]
    OutOfReach(String),
    /// Path too long.
    #[error("not enough movement: the path costs {cost} but {power} allows {budget}")]
    NotEnoughMovement {
        /// Cost of the path.
        cost: u32,
        /// Budget of the power.
        budget: u32,
        /// The power.
        power: String,
    },
    /// A path step is illegal.
    #[error("path blocked: {0}")]
    PathBlocked(String),
    /// A condition forbids it.
    #[error("{0}")]
    Forbidden(String),
    /// The dice failed (scripted faces ran out or did not fit).
    #[error("dice: {0}")]
    Dice(#[from] DiceError),
}
