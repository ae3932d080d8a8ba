//! What several stages of `escalation`'s battle use: its state ([`EscState`] — the
//! round, the active unit's actions, the question pending, each unit's data), the
//! small readers over it (the Escalation die as a unit counts it, E-18, E-30,
//! E-63, E-GAP-05; bands, E-16, E-GAP-09; Helpless, E-44, E-60; Fighting in Spirit,
//! E-41), and the 3d6 pool every check rolls with its Advantage and Disadvantage
//! (E-GAP-02, E-GAP-03, E-56).

use std::sync::Arc;

use bevy_ecs::prelude::*;

use super::actions::Actions;
use super::attack;
use super::conditions as names;
use super::config::EscalationConfig;
use super::interrupts::InterruptQueue;
use super::units::EscUnit;
use crate::engine::battle::{Fault, Map, cell_of, emit, entity, play_state};
use crate::engine::board::Cell;
use crate::engine::dice::{Dice, DiceError};
use crate::engine::event::{Event, RollModifier};
use crate::engine::units::{Conditions, PlayState, Powers, UnitId};

/// The name of the Melee stance's basic attack (E-07).
pub const BASIC_MELEE: &str = "Basic Melee Attack";

/// The name of the Ranged stance's basic attack (E-08).
pub const BASIC_RANGED: &str = "Basic Ranged Attack";

/// The movement power of a Move action.
pub const MOVE: &str = "Move";

/// The battle's `escalation` state (held by the battle, see
/// [`crate::engine::ruleset::state`]): its configuration, the round's and the active
/// unit's bookkeeping, the question pending, the queued interrupt triggers and
/// each unit's data.
#[derive(Clone, Debug)]
pub struct EscState {
    /// The configuration in force (never changed after setup).
    pub rules: Arc<EscalationConfig>,
    /// Where the round is.
    pub round: RoundState,
    /// The active unit's actions this turn.
    pub turn: TurnActions,
    /// What a pending decision is about.
    pub asking: Asking,
    /// The triggers of the command being executed (E-24).
    pub interrupts: InterruptQueue,
    /// Each unit's data and bookkeeping, by [`UnitId`].
    pub units: Vec<EscUnit>,
}

/// Where the round is.
#[derive(Clone, Debug, Default)]
pub struct RoundState {
    /// The Escalation die now (E-18).
    pub escalation: i32,
    /// The groups still to act this round, first = acting now: each a band, PCs or
    /// enemies, and its units still to act (E-16).
    pub groups: Vec<Group>,
    /// Units that delayed this round and have not yet acted (E-19).
    pub delayed: Vec<UnitId>,
    /// Whether the Surprise Round has been played (E-17, E-GAP-10).
    pub surprise_done: bool,
}

/// The units of one band and one kind (PCs or enemies) still to act this round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// The band's index.
    pub band: usize,
    /// PCs or enemies.
    pub pc: bool,
    /// Its units still to act, in roster order.
    pub units: Vec<UnitId>,
}

/// The active unit's actions this turn.
#[derive(Clone, Copy, Debug, Default)]
pub struct TurnActions {
    /// What is left.
    pub left: Actions,
    /// Whether it did anything yet (Delay is only at the start, E-19).
    pub acted: bool,
}

/// What a pending decision is about, to act on its answer.
#[derive(Clone, Debug, Default)]
pub struct Asking(pub Option<Ask>);

/// A question the battle waits on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ask {
    /// Which unit of this group acts next (E-16, E-GAP-09).
    NextInBand,
    /// Whether a unit uses an Interrupt power on what an enemy just did (E-24).
    Interrupt,
    /// Whether a Free unit intercepts `mover` walking `path` (E-39, E-GAP-13).
    Intercept {
        /// The moving enemy.
        mover: UnitId,
        /// The cells it would enter.
        path: Vec<Cell>,
    },
}

/// The configuration in force.
pub fn rules(world: &World) -> &EscalationConfig {
    &esc_state(world).rules
}

/// The battle's `escalation` state.
pub fn esc_state(world: &World) -> &EscState {
    crate::engine::ruleset::state::state(world)
}

/// The battle's `escalation` state, to change it.
pub fn esc_state_mut(world: &mut World) -> &mut EscState {
    crate::engine::ruleset::state::state_mut(world)
}

/// A unit's `escalation` data.
pub fn esc(world: &World, unit: UnitId) -> &EscUnit {
    esc_state(world)
        .units
        .get(unit.0 as usize)
        .expect("every escalation unit has its data")
}

pub(super) fn esc_mut(world: &mut World, unit: UnitId) -> &mut EscUnit {
    esc_state_mut(world)
        .units
        .get_mut(unit.0 as usize)
        .expect("every escalation unit has its data")
}

pub use crate::engine::conditions::has;

/// The names of a unit's conditions, with Vulnerable when it is so by nature.
pub fn condition_names(world: &World, unit: UnitId) -> Vec<String> {
    let mut out: Vec<String> = world
        .get::<Conditions>(entity(world, unit))
        .map(|c| c.0.iter().map(|c| c.name.clone()).collect())
        .unwrap_or_default();
    if esc(world, unit).vulnerable && !out.iter().any(|n| n == names::VULNERABLE) {
        out.push(names::VULNERABLE.into());
    }
    out
}

pub(super) fn distance(world: &World, a: UnitId, b: UnitId) -> u32 {
    world
        .resource::<Map>()
        .0
        .distance(cell_of(world, a), cell_of(world, b))
}

/// The band of `unit` in words.
pub fn band_name(world: &World, unit: UnitId) -> String {
    let band = esc(world, unit).band;
    rules(world)
        .initiative_bands
        .get(band)
        .cloned()
        .unwrap_or_default()
}

/// The Escalation die the battle shows (E-18).
pub fn battle_die(world: &World) -> i32 {
    esc_state(world).round.escalation
}

/// The Escalation die as `unit` counts it for everything the die feeds — an
/// `Escalation X+` power (E-30), Rally's save bonus (E-43), its attacks when it
/// adds the die to them: the battle's die, or 0 when it is Shaken (E-63).
pub fn die_for(world: &World, unit: UnitId) -> i32 {
    let names = condition_names(world, unit);
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    super::conditions::escalation_for(&refs, battle_die(world))
}

/// The Escalation die as `unit` adds it to its attacks: [`die_for`], or 0 if it
/// does not add the die to attacks (E-18, E-63, E-GAP-05).
pub fn escalation_of(world: &World, unit: UnitId) -> i32 {
    if esc(world, unit).uses_escalation {
        die_for(world, unit)
    } else {
        0
    }
}

/// Whether a Dying PC or a Helpless unit may be the target of a Coup de Grace
/// (E-44, E-60, E-GAP-15).
pub fn helpless(world: &World, unit: UnitId) -> bool {
    play_state(world, unit) == PlayState::Dying || has(world, unit, names::HELPLESS)
}

pub(super) fn fault(world: &mut World, e: DiceError) {
    world.resource_mut::<Fault>().0 = Some(e.into());
}

/// The dice of a 3d6 pool with `net` net Advantage, as the log writes them:
/// `3d6`, `4d6kh3`, `5d6kl3` (E-GAP-02).
pub fn pool_name(net: i32) -> String {
    match net {
        0 => "3d6".into(),
        n if n > 0 => format!("{}d6kh3", 3 + n),
        n => format!("{}d6kl3", 3 + n.unsigned_abs()),
    }
}

/// Rolls a 3d6 pool with `net` net Advantage: every face, the kept ones, and the
/// natural roll (E-GAP-02).
pub(super) fn roll_pool(
    world: &mut World,
    net: i32,
) -> Result<(Vec<u32>, Vec<u32>, i64), DiceError> {
    let faces = world
        .resource_mut::<Dice>()
        .roll_many(3 + net.unsigned_abs(), 6)?;
    let kept: Vec<u32> = if net == 0 {
        faces.clone()
    } else {
        let mut sorted = faces.clone();
        sorted.sort_unstable();
        if net > 0 {
            sorted[sorted.len() - 3..].to_vec()
        } else {
            sorted[..3].to_vec()
        }
    };
    let natural = attack::natural(&faces, net);
    Ok((faces, kept, natural))
}

/// Rolls a 3d6 check (with `net` net Advantage) plus `modifiers` against `target`
/// and tells it as a success or a failure; whether it succeeded (E-GAP-02,
/// E-GAP-03).
pub(super) fn check_roll(
    world: &mut World,
    unit: UnitId,
    purpose: String,
    net: i32,
    modifiers: Vec<RollModifier>,
    target: i32,
) -> Result<bool, DiceError> {
    let (faces, kept, natural) = roll_pool(world, net)?;
    let total = natural as i32 + modifiers.iter().map(|m| m.value).sum::<i32>();
    let ok = total >= target;
    emit(
        world,
        Event::Rolled {
            unit,
            purpose,
            dice: pool_name(net),
            faces,
            kept,
            modifiers,
            total,
            target: Some(target),
            against: None,
            outcome: if ok { "success" } else { "failure" }.into(),
        },
    );
    Ok(ok)
}

/// Net Advantage on `unit`'s saves from its conditions (E-41, E-56).
pub(super) fn save_edge(world: &World, unit: UnitId) -> i32 {
    save_edge_words(world, unit).net()
}

/// The Advantage and Disadvantage on `unit`'s saves, with their sources (E-41,
/// E-56).
pub(super) fn save_edge_words(world: &World, unit: UnitId) -> super::conditions::Edge {
    let names_now = condition_names(world, unit);
    let refs: Vec<&str> = names_now.iter().map(String::as_str).collect();
    super::conditions::save_edge(&refs)
}

/// The edge of a roll in words for its purpose: "Basic Melee Attack (1 Disadvantage:
/// Dazed)".
pub(super) fn with_edge(purpose: &str, edge: &super::conditions::Edge) -> String {
    let mut parts = Vec::new();
    if !edge.advantage.is_empty() {
        parts.push(format!(
            "{} Advantage: {}",
            edge.advantage.len(),
            edge.advantage.join(", ")
        ));
    }
    if !edge.disadvantage.is_empty() {
        parts.push(format!(
            "{} Disadvantage: {}",
            edge.disadvantage.len(),
            edge.disadvantage.join(", ")
        ));
    }
    if parts.is_empty() {
        purpose.to_string()
    } else {
        format!("{purpose} ({})", parts.join("; "))
    }
}

/// Whether `unit` is a PC out of the fight for good, who may still Fight in Spirit
/// on its turn (E-41).
pub fn spirit(world: &World, unit: UnitId) -> bool {
    play_state(world, unit) == PlayState::Dead && esc(world, unit).pc
}

/// The header of `unit`'s power `power` (a basic attack's is the default).
pub fn header_of(world: &World, unit: UnitId, power: &str) -> super::powers::Header {
    world
        .get::<Powers>(entity(world, unit))
        .and_then(|p| p.0.iter().find(|p| p.name == power))
        .and_then(|p| super::powers::parse_header(&p.traits).ok())
        .unwrap_or_default()
}
