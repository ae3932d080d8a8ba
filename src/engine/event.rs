//! Events: what happened, in order. Executing a command emits events and one place
//! applies them ([`crate::engine::battle::emit`]); the list is the combat log, the
//! replay and what the view animates.

use serde::Serialize;

use crate::engine::board::Cell;
use crate::engine::command::Reaction;
use crate::engine::conditions::Condition;
use crate::engine::skill::{Edge, SuccessLevel};
use crate::engine::units::{PlayState, Pool, SideId, UnitId};
use crate::level::schema::Hand;

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
    /// A unit left play, or its play state changed (a dying unit died or was
    /// brought back: `state: Active`).
    Defeated {
        /// The unit.
        unit: UnitId,
        /// Its state now; JSON leaves out `Down` (0 HP, removed), the state of
        /// every `Defeated` before states existed.
        #[serde(skip_serializing_if = "PlayState::is_down")]
        state: PlayState,
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
    /// A unit declared an action and spent its AP (flow, F-03, F-08).
    ActionDeclared {
        /// The unit.
        unit: UnitId,
        /// The action ("Move", "Attack", "Feint", ...).
        action: String,
        /// AP spent.
        ap: i32,
        /// AP left.
        left: i32,
        /// The pool spent from (flow's AP); not in the JSON log, which names it `ap`.
        #[serde(skip)]
        pool: Pool,
    },
    /// A pool changed other than by declaring an action: RP spent or refilled, FP
    /// gained or decayed, AP refilled (flow).
    PointsChanged {
        /// The unit.
        unit: UnitId,
        /// The pool.
        pool: Pool,
        /// The change.
        delta: i32,
        /// The new value.
        now: i32,
        /// Why ("hit", "decay", "turn start", ...).
        reason: String,
    },
    /// A percentile skill check (flow, F-GAP-01, F-GAP-02).
    SkillChecked {
        /// Who rolled.
        unit: UnitId,
        /// The skill.
        skill: String,
        /// What for ("attack on Orc", "Parry", ...).
        purpose: String,
        /// Effective skill: succeed at or under it.
        target: i32,
        /// The modifiers behind the target ("gang-up +10", ...).
        modifiers: Vec<String>,
        /// Advantage or disadvantage, if any.
        edge: Option<Edge>,
        /// Faces in the order drawn.
        faces: Vec<u32>,
        /// The roll that counts.
        roll: u32,
        /// Its level.
        level: SuccessLevel,
    },
    /// An opposed check was settled (flow, F-GAP-03).
    OpposedCheck {
        /// The acting side (attacker, feinter, shover, grappler).
        actor: UnitId,
        /// The responding side (defender, target).
        responder: UnitId,
        /// The actor's level.
        actor_level: SuccessLevel,
        /// What the actor's level counts as (a larger attacker against a Parry, F-24).
        counted_as: SuccessLevel,
        /// The responder's level.
        responder_level: SuccessLevel,
        /// Whether the responder won (ties go to the responder).
        responder_wins: bool,
    },
    /// A unit reacted (flow, F-10).
    Reacted {
        /// The reacting unit.
        unit: UnitId,
        /// The reaction.
        reaction: Reaction,
        /// The enemy it reacts to.
        against: UnitId,
    },
    /// An enemy's action in a unit's threat range provoked a Reaction Attack (F-25 … F-26, F-47).
    ReactionAttackProvoked {
        /// The unit that may attack.
        attacker: UnitId,
        /// The enemy that provoked it.
        target: UnitId,
        /// What it did.
        trigger: String,
    },
    /// An attack hit: how its damage is worked out (flow, F-GAP-06).
    Struck {
        /// Attacker.
        attacker: UnitId,
        /// The unit hit.
        target: UnitId,
        /// Weapon.
        weapon: String,
        /// The attack's real success level (damage follows it, F-24).
        level: SuccessLevel,
        /// Damage bonus of the level.
        bonus: i32,
        /// 1, or 2 for a critical, 3 against a critically failed Dodge/Parry (F-23).
        multiplier: i32,
        /// Armor subtracted after the multiplier.
        armor: i32,
    },
    /// An attack did no harm.
    Missed {
        /// Attacker.
        attacker: UnitId,
        /// Target.
        target: UnitId,
        /// Why ("the check failed", "parried", ...).
        reason: String,
    },
    /// An ally took an attack in the target's place (F-31).
    Intercepted {
        /// The interceptor.
        interceptor: UnitId,
        /// The ally it protected.
        ally: UnitId,
        /// The attacker.
        attacker: UnitId,
    },
    /// A carried weapon changed hands: drawn, sheathed (F-33).
    HeldChanged {
        /// The unit.
        unit: UnitId,
        /// The weapon.
        item: String,
        /// Where it is now.
        hand: Hand,
    },
    /// A unit dropped an item, or had it knocked away (F-32, F-42).
    ItemDropped {
        /// The unit that had it.
        unit: UnitId,
        /// The item.
        item: String,
        /// Where it lies.
        cell: Cell,
    },
    /// A unit picked an item up from the ground.
    ItemPickedUp {
        /// The unit.
        unit: UnitId,
        /// The item.
        item: String,
        /// Where it lay.
        cell: Cell,
        /// The hand it went to.
        hand: Hand,
    },
    /// A disarmer took its target's item into a free hand (F-32).
    ItemTaken {
        /// The disarmer.
        unit: UnitId,
        /// The disarmed unit.
        from: UnitId,
        /// The item.
        item: String,
        /// The hand it went to.
        hand: Hand,
    },
    /// A unit readied an attack on the first enemy to enter its reach (F-37).
    Readied {
        /// The unit.
        unit: UnitId,
        /// The weapon.
        weapon: String,
        /// AP set aside.
        ap: i32,
    },
    /// A readied action went off; the unit now acts just before `by` (F-37, F-GAP-18).
    ReadyTriggered {
        /// The readied unit.
        unit: UnitId,
        /// The unit that triggered it.
        by: UnitId,
    },
    /// A surprise round: only these sides act (F-43).
    SurpriseRound {
        /// The surprising sides.
        surprisers: Vec<SideId>,
    },
    /// The battle ended.
    BattleEnded {
        /// The winning side, or `None` for a draw.
        winner: Option<SideId>,
        /// Rounds played.
        rounds: u32,
    },
}
