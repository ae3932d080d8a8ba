//! What several stages of `actfast`'s battle use: its state ([`AState`] — the
//! round's choices, order, steps and morale tallies, the question pending, the
//! active unit's budget, each unit's data), the battle's own condition names, and
//! the small readers over them (conditions carried, A-18 … A-25; distance in
//! squares, A-GAP-01; who decides for a side).

use std::collections::BTreeMap;
use std::sync::Arc;

use bevy_ecs::prelude::*;

use super::config::ActfastConfig;
use super::morale::{SideTally, Trigger};
use super::order::{Limit, Slot, Step};
use super::stats::{CONDITIONS, Condition};
use super::units::AUnit;
use crate::engine::battle::{Map, Roster, Sides, TurnState, cell_of, entity};
use crate::engine::dice::{Dice, DiceError};
use crate::engine::spec::{Controller, DecisionPolicy};
use crate::engine::units::{Conditions, SideId, UnitId};

/// The movement power of a Move action (A-GAP-02).
pub const MOVE: &str = "Move";

/// Conditions only the battle gives (beside A-18 … A-25).
pub mod names {
    /// A side's morale is shaken: its NPCs roll at their next step.
    pub const WAVERING: &str = "Wavering";
    /// Broken by morale: it flees to the nearest edge (A-GAP-13).
    pub const FLEEING: &str = "Fleeing";
}

/// The battle's `actfast` state (held by the battle, see
/// [`crate::engine::ruleset::state`]): its configuration, the round's and the
/// active unit's bookkeeping and each unit's data.
#[derive(Clone, Debug)]
pub struct AState {
    /// The configuration in force (never changed after setup).
    pub rules: Arc<ActfastConfig>,
    /// Who acts when this round, and what the battle is asking.
    pub round: RoundState,
    /// The active unit's turn.
    pub turn: TurnBudget,
    /// Each unit's data and bookkeeping, by [`UnitId`].
    pub units: Vec<AUnit>,
}

/// Who acts when this round, and what the battle is asking.
#[derive(Clone, Debug, Default)]
pub struct RoundState {
    /// PCs still to choose their pace this round, next first (A-02, A-GAP-10).
    pub choosing: Vec<UnitId>,
    /// Whether the round's order has been set (after the choices).
    pub ordered: bool,
    /// The round's slots still to come, next first.
    pub queue: Vec<Slot<UnitId>>,
    /// The step of each unit this round (for the order shown).
    pub steps: Vec<(UnitId, Step, u32)>,
    /// The side caught by surprise, if any.
    pub surprised: Option<SideId>,
    /// What each NPC side has lost and which morale triggers fired (A-GAP-13).
    pub morale: BTreeMap<SideId, Morale>,
    /// The question pending, if any.
    pub asking: Option<Asking>,
    /// The case for each answer of the pending pace question (Fast, Well).
    pub cases: Option<(String, String)>,
    /// The slot of the turn in progress (a unit that waits goes back in the queue
    /// with it, A-GAP-10).
    pub current: Option<Slot<UnitId>>,
    /// Units whose turn started this round (what happens at a turn's start happens
    /// once, however often it waits).
    pub started: Vec<UnitId>,
    /// Units that waited this round (each may wait once a round).
    pub waited: Vec<UnitId>,
}

/// An NPC side's morale.
#[derive(Clone, Debug, Default)]
pub struct Morale {
    /// Its losses.
    pub tally: SideTally,
    /// Triggers fired so far (each once per encounter).
    pub fired: Vec<Trigger>,
    /// When a trigger fired (round and step), if its NPCs have yet to roll: they
    /// roll at the start of the next NPC step after it (A-GAP-13).
    pub due: Option<(u32, Step)>,
}

/// A pending question.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Asking {
    /// How this PC acts this round.
    Pace(UnitId),
    /// Whether `by` ripostes `against`'s failed attack.
    Riposte {
        /// The defender.
        by: UnitId,
        /// The attacker.
        against: UnitId,
    },
}

/// The active unit's turn (A-GAP-02, A-GAP-07, A-22).
#[derive(Clone, Copy, Debug, Default)]
pub struct TurnBudget {
    /// Actions left.
    pub actions: u32,
    /// Attacks made this turn.
    pub attacks: u32,
    /// Whether it moved (a Move, or an attack's approach).
    pub moved: bool,
    /// Whether it did something other than moving (a feared unit then stays, A-GAP-14).
    pub other: bool,
    /// The limits of its slot.
    pub limit: Limit,
}

/// The configuration in force.
pub fn rules(world: &World) -> &ActfastConfig {
    &actfast_state(world).rules
}

/// The battle's `actfast` state.
pub fn actfast_state(world: &World) -> &AState {
    crate::engine::ruleset::state::state(world)
}

/// The battle's `actfast` state, to change it.
pub fn actfast_state_mut(world: &mut World) -> &mut AState {
    crate::engine::ruleset::state::state_mut(world)
}

/// Who acts when this round, and what the battle is asking.
pub fn round_state(world: &World) -> &RoundState {
    &actfast_state(world).round
}

/// The round's bookkeeping, to change it.
pub fn round_state_mut(world: &mut World) -> &mut RoundState {
    &mut actfast_state_mut(world).round
}

/// The active unit's turn.
pub fn turn_budget(world: &World) -> &TurnBudget {
    &actfast_state(world).turn
}

/// The active unit's turn, to change it.
pub fn turn_budget_mut(world: &mut World) -> &mut TurnBudget {
    &mut actfast_state_mut(world).turn
}

/// A unit's `actfast` data.
pub fn au(world: &World, unit: UnitId) -> &AUnit {
    actfast_state(world)
        .units
        .get(unit.0 as usize)
        .expect("every actfast unit has its data")
}

pub(super) fn au_mut(world: &mut World, unit: UnitId) -> &mut AUnit {
    actfast_state_mut(world)
        .units
        .get_mut(unit.0 as usize)
        .expect("every actfast unit has its data")
}

/// The current round (0 before the first).
pub fn round(world: &World) -> u32 {
    world.resource::<TurnState>().round
}

/// The `actfast` conditions a unit carries (A-18 … A-25), each once.
pub fn conds(world: &World, unit: UnitId) -> Vec<Condition> {
    let mut out: Vec<Condition> = world
        .get::<Conditions>(entity(world, unit))
        .map(|c| {
            c.0.iter()
                .filter_map(|c| Condition::from_name(&c.name))
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out.dedup();
    out
}

/// Whether a unit carries a condition.
pub fn carries(world: &World, unit: UnitId, c: Condition) -> bool {
    crate::engine::conditions::has(world, unit, c.name())
}

/// Squares between two units (Chebyshev on squares, A-GAP-01).
pub fn distance(world: &World, a: UnitId, b: UnitId) -> u32 {
    world
        .resource::<Map>()
        .0
        .distance(cell_of(world, a), cell_of(world, b))
}

pub(super) fn fault(world: &mut World, e: DiceError) {
    world.resource_mut::<crate::engine::battle::Fault>().0 = Some(e.into());
}

pub(super) fn rolls(world: &mut World, n: u32, sides: u32) -> Result<Vec<u32>, DiceError> {
    let dice = &mut *world.resource_mut::<Dice>();
    (0..n).map(|_| dice.roll(sides)).collect()
}

pub(super) fn policy(world: &World, side: SideId) -> DecisionPolicy {
    world.resource::<Sides>().0[side.0 as usize].decisions
}

/// Whether a side is played by the AI.
pub fn ai_side(world: &World, side: SideId) -> bool {
    matches!(
        world.resource::<Sides>().0[side.0 as usize].controller,
        Controller::Ai(_)
    )
}

/// The name of each condition, for the level check's message.
pub fn condition_names() -> Vec<&'static str> {
    CONDITIONS.iter().map(|c| c.name).collect()
}

/// The units still to act this round, by step, the active unit first.
pub fn steps_left(world: &World) -> Vec<(Step, UnitId)> {
    let state = round_state(world);
    let mut out = Vec::new();
    if let Some(a) = world.resource::<TurnState>().active
        && let Some(&(_, s, _)) = state.steps.iter().find(|(u, _, _)| *u == a)
    {
        out.push((s, a));
    }
    out.extend(state.queue.iter().map(|s| (s.step, s.unit)));
    out
}

/// Roster order of the units (for stable listings).
pub fn roster_len(world: &World) -> usize {
    world.resource::<Roster>().0.len()
}
