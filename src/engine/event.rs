//! Events: what happened, in order. Executing a command emits events and one place
//! applies them ([`crate::engine::battle::emit`]); the list is the combat log, the
//! replay and what the view animates.

use serde::Serialize;

use crate::engine::board::Cell;
use crate::engine::conditions::Condition;
use crate::engine::units::{SideId, UnitId};

/// The stages of a round, shared by every ruleset (each names them its own way).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Stage {
    /// Rolling initiative and ordering turns.
    Initiative,
    /// Moving (phases: Movement Phase).
    Movement,
    /// Acting (phases: Battle Phase).
    Attack,
    /// Saves, ongoing damage and durations (phases: End Phase).
    EndOfTurn,
}

/// The extra die of an advantaged or disadvantaged roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ExtraDie {
    /// Sides of the die.
    pub sides: u32,
    /// Advantage (keep highest) or disadvantage (keep lowest).
    pub advantage: bool,
}

/// Something that happened in a battle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Event {
    /// A new round began.
    RoundStarted {
        /// Round number, from 1.
        round: u32,
    },
    /// A stage of the round began.
    StageStarted {
        /// The stage.
        stage: Stage,
    },
    /// A unit rolled initiative.
    InitiativeRolled {
        /// The unit.
        unit: UnitId,
        /// Faces rolled.
        faces: Vec<u32>,
        /// Modifier added (INT + AGI).
        modifier: i32,
        /// Total.
        total: i32,
    },
    /// A tied unit rolled to break the tie.
    TieBreakRolled {
        /// The unit.
        unit: UnitId,
        /// The face.
        face: u32,
    },
    /// The turn order of a stage was set.
    OrderSet {
        /// The stage.
        stage: Stage,
        /// Units in the order they act.
        order: Vec<UnitId>,
    },
    /// A unit seized the initiative (P-15).
    Seized {
        /// The unit.
        unit: UnitId,
    },
    /// A unit's turn began.
    TurnStarted {
        /// The unit.
        unit: UnitId,
        /// The stage.
        stage: Stage,
    },
    /// A unit used a movement power.
    MovementPowerUsed {
        /// The unit.
        unit: UnitId,
        /// The power.
        power: String,
        /// Its budget in squares.
        budget: u32,
    },
    /// A unit stepped into a cell.
    Moved {
        /// The unit.
        unit: UnitId,
        /// From.
        from: Cell,
        /// To.
        to: Cell,
        /// Movement spent on this step.
        cost: u32,
    },
    /// Leaving a threatened cell provoked an opportunity attack (P-20).
    OpportunityAttack {
        /// The threatening unit that attacks.
        attacker: UnitId,
        /// The mover.
        mover: UnitId,
        /// The cell being left.
        cell: Cell,
    },
    /// A unit's movement stopped early.
    MovementStopped {
        /// The unit.
        unit: UnitId,
        /// Why.
        reason: String,
    },
    /// An attack roll.
    AttackRolled {
        /// Attacker.
        attacker: UnitId,
        /// Target.
        target: UnitId,
        /// Power used.
        power: String,
        /// Named sources of advantage.
        advantage: Vec<String>,
        /// Named sources of disadvantage.
        disadvantage: Vec<String>,
        /// The extra die after netting, if any.
        extra_die: Option<ExtraDie>,
        /// Every face rolled, in order.
        faces: Vec<u32>,
        /// The faces kept.
        kept: Vec<u32>,
        /// Modifier added (ATK).
        modifier: i32,
        /// Total.
        total: i32,
        /// Defense needed.
        defense: i32,
        /// Whether it hit.
        hit: bool,
    },
    /// Damage dealt.
    Damaged {
        /// The unit hurt.
        unit: UnitId,
        /// Damage dice faces.
        faces: Vec<u32>,
        /// Damage dealt.
        amount: i32,
        /// HP left.
        hp: i32,
    },
    /// HP restored.
    Healed {
        /// The unit.
        unit: UnitId,
        /// Faces rolled.
        faces: Vec<u32>,
        /// HP restored.
        amount: i32,
        /// HP now.
        hp: i32,
    },
    /// A unit left play.
    Defeated {
        /// The unit.
        unit: UnitId,
    },
    /// A condition was added.
    ConditionAdded {
        /// The unit.
        unit: UnitId,
        /// The condition.
        condition: Condition,
    },
    /// A condition ended.
    ConditionRemoved {
        /// The unit.
        unit: UnitId,
        /// Condition name.
        name: String,
        /// Why it ended.
        reason: String,
    },
    /// A saving throw (P-29).
    SaveRolled {
        /// The unit rolling.
        unit: UnitId,
        /// The unit carrying the effect.
        bearer: UnitId,
        /// The condition.
        condition: String,
        /// Faces.
        faces: Vec<u32>,
        /// Total.
        total: i32,
        /// Target number.
        target: i32,
        /// Whether it succeeded (ends a save-ends effect, keeps a sustained one).
        success: bool,
    },
    /// A unit defended (P-27).
    Defended {
        /// The unit.
        unit: UnitId,
    },
    /// A unit delayed (P-26).
    Delayed {
        /// The unit.
        unit: UnitId,
    },
    /// A held unit acts now.
    ActedFromDelay {
        /// The unit.
        unit: UnitId,
    },
    /// An item was used.
    ItemUsed {
        /// The unit.
        unit: UnitId,
        /// Item name.
        item: String,
        /// Uses left.
        uses_left: u32,
    },
    /// A unit's turn ended.
    TurnEnded {
        /// The unit.
        unit: UnitId,
    },
    /// The battle ended.
    BattleEnded {
        /// The winning side, or `None` for a draw.
        winner: Option<SideId>,
        /// Rounds played.
        rounds: u32,
    },
}
