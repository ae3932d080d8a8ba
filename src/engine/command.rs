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
    /// Answers a reaction decision (flow, F-18 … F-31): `unit` of the deciding side
    /// reacts. `to` is where an Intercept moves; `swap` also trades places with the
    /// ally (F-31).
    React {
        /// The deciding side.
        side: SideId,
        /// The reacting unit.
        unit: UnitId,
        /// The reaction.
        reaction: Reaction,
        /// Intercept: the hex to move to.
        #[serde(default)]
        to: Option<Cell>,
        /// Intercept: push the ally 1 hex on and take its place.
        #[serde(default)]
        swap: bool,
    },
    /// Declines a pending decision (no reaction).
    Pass {
        /// The deciding side.
        side: SideId,
    },
    /// A `flow` special action (F-32 … F-42).
    Flow {
        /// The unit.
        unit: UnitId,
        /// The action.
        action: FlowAction,
    },
}

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

/// What a Shove tries to do (F-38), chosen before rolling.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ShoveEffect {
    /// Push the target 1 hex directly away.
    PushBack,
    /// Knock the target prone.
    KnockProne,
}

/// The special actions of `flow` (F-32 … F-42); Take a Step is
/// `Command::Move { power: "Step", .. }`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FlowAction {
    /// Attack at Disadvantage to make the target drop its weapon (F-32). On a Hard
    /// success or better, `take` takes it (with a free hand) or `to` places it.
    Disarm {
        /// The target.
        target: UnitId,
        /// Take the item into a free hand.
        #[serde(default)]
        take: bool,
        /// Or put it on this open hex.
        #[serde(default)]
        to: Option<Cell>,
    },
    /// Draw a weapon or shield into a free hand (F-33).
    Draw {
        /// Weapon name.
        weapon: String,
    },
    /// Stow a held weapon or shield (F-33).
    Sheathe {
        /// Weapon name.
        weapon: String,
    },
    /// Opposed Melee/Deception for Advantage on the next attack on the target (F-34).
    Feint {
        /// The target.
        target: UnitId,
    },
    /// Keep all FP at the end of this turn (F-35).
    FlowState,
    /// Opposed Athletics: on success both are grappled (F-36).
    Grapple {
        /// The target.
        target: UnitId,
    },
    /// The grappled unit's opposed Athletics check to break free (F-36, F-GAP-15).
    BreakFree,
    /// The grappler lets go.
    Release,
    /// Ready an attack on the first enemy that enters reach (F-37, F-GAP-18).
    Ready {
        /// The weapon to attack with (the first held one if `None`).
        #[serde(default)]
        weapon: Option<String>,
    },
    /// Opposed Athletics to push back or knock prone (F-38).
    Shove {
        /// The target.
        target: UnitId,
        /// What to try.
        effect: ShoveEffect,
    },
    /// End the turn: +1 RP and Advantage on reactions until the next turn (F-40).
    TotalDefense,
    /// Agility check to pass through an adjacent enemy's hex (F-41, F-GAP-23).
    Tumble {
        /// The enemy to tumble past.
        through: UnitId,
    },
    /// Stand up from prone (provokes Reaction Attacks, F-26).
    StandUp,
    /// Pick up a weapon lying on the unit's hex or next to it (F-GAP-17).
    PickUp {
        /// Item name.
        item: String,
    },
    /// Drop a held item: a free action (F-42).
    Drop {
        /// Item name.
        item: String,
    },
}

impl Command {
    /// The unit acting, if the command is one unit's action.
    pub fn unit(&self) -> Option<UnitId> {
        match self {
            Command::Seize { .. }
            | Command::ActNow { .. }
            | Command::React { .. }
            | Command::Pass { .. } => None,
            Command::Move { unit, .. }
            | Command::Attack { unit, .. }
            | Command::Defend { unit }
            | Command::Disengage { unit, .. }
            | Command::Delay { unit }
            | Command::ActivateItem { unit, .. }
            | Command::EndTurn { unit }
            | Command::Flow { unit, .. } => Some(*unit),
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
    /// A reaction that is not legal, and why (flow).
    #[error("{unit} cannot {reaction}: {reason}")]
    IllegalReaction {
        /// The unit.
        unit: String,
        /// The reaction asked for.
        reaction: Reaction,
        /// Why not.
        reason: ReactionRefusal,
    },
    /// Not enough action, reaction or flow points.
    #[error("{unit} has {have} {pool} but {what} costs {need}")]
    NotEnoughPoints {
        /// The unit.
        unit: String,
        /// The pool.
        pool: crate::engine::units::Pool,
        /// What is left.
        have: i32,
        /// What the action costs.
        need: i32,
        /// The action.
        what: String,
    },
    /// The dice failed (scripted faces ran out or did not fit).
    #[error("dice: {0}")]
    Dice(#[from] DiceError),
}

/// Why a reaction is refused (flow).
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
