//! What several stages of `wounds`' battle use: its state ([`WState`] — the round's
//! fixed order and queue, the active unit's budget, the steps it took in melee
//! zones, each unit's data), the condition names, and the small readers over them:
//! modifiers from wounds (W-17), Agility, whether a unit can act (W-32, W-GAP-23),
//! its footing (flat-footed, prone, W-29, W-30) and the melee zones it stands in
//! (W-25, W-26).

use std::sync::Arc;

use bevy_ecs::prelude::*;

use super::aim::Modifiers;
use super::attack::Footing;
use super::config::WoundsConfig;
use super::economy::{self, Budget};
use super::units::WUnit;
use crate::engine::battle::{TurnState, active_units, cell_of, entity, is_active, side_of};
use crate::engine::board::Cell;
use crate::engine::dice::DiceError;
use crate::engine::units::{Conditions, UnitId};

/// The movement power of a move within the Move Action's spaces (W-07). Every move
/// is a movement of its own: the spaces it leaves are lost.
pub const MOVE: &str = "Move";

/// The movement power that also spends Bonus Actions, 2 more spaces each (W-09):
/// with the Move Action, or on its own after it.
pub const DASH: &str = "Dash";

/// The weapon of a unit that carries none (W-GAP-01).
pub const UNARMED: &str = "Unarmed";

/// The names of `wounds`' conditions.
pub mod names {
    /// Hit on 5 + Agility, can't dodge, ⅓ movement; ends when it stands (W-30).
    pub const PRONE: &str = "Prone";
    /// Hit on 5 (W-29).
    pub const FLAT_FOOTED: &str = "Flat-footed";
    /// Undetected: its next attack is a sneak attack (W-16); it moves at half speed
    /// (sneaking, W-08).
    pub const HIDDEN: &str = "Hidden";
    /// Leaves melee zones without free hits for the round (W-28, W-GAP-25).
    pub const DISENGAGED: &str = "Disengaged";
    /// Summoning sickness: no actions, no free hits, flat-footed (W-32, W-GAP-23).
    pub const SICK: &str = "Summoning sickness";
    /// Channeling a spell: flat-footed unless a Battle caster (W-33).
    pub const CHANNELING: &str = "Channeling";
    /// Its weapon is on the ground (W-31).
    pub const DISARMED: &str = "Disarmed";
    /// +1 to hit per Bonus Action, until the end of the round (W-09, W-GAP-13).
    pub const HIT_BOOST: &str = "Hit boost";
    /// +1 melee damage per Bonus Action, until the end of the round.
    pub const DAMAGE_BOOST: &str = "Damage boost";
    /// +1 defense per Bonus Action, until its next turn.
    pub const DODGE: &str = "Dodging";
    /// The extra −2 Accuracy of a Disrupting wound in the round it was dealt (W-GAP-09).
    pub const DISRUPTED: &str = "Disrupted";
    /// The conditions a power's `on_hit` may put on its target.
    pub const ON_HIT: &[&str] = &[PRONE, FLAT_FOOTED, DISARMED];
}

/// The battle's `wounds` state (held by the battle, see
/// [`crate::engine::ruleset::state`]): its configuration, the round's and the active
/// unit's bookkeeping, sheathed and dropped gear, the free hit waiting for its aim,
/// the feats' extra attacks and each unit's data.
#[derive(Clone, Debug)]
pub struct WState {
    /// The configuration in force (never changed after setup).
    pub rules: Arc<WoundsConfig>,
    /// The battle's turn order and where the round is.
    pub round: RoundState,
    /// The active unit's actions this turn.
    pub turn: TurnBudget,
    /// The active unit's steps inside each enemy's melee zone this turn.
    pub zone_steps: ZoneSteps,
    /// The free hit waiting for its aim, if any.
    pub free_hit: super::free_hit::FreeHitAsked,
    /// Sheathed weapons and what lies on the ground.
    pub gear: super::gear::Gear,
    /// The turns in which units used their feat's extra attack.
    pub feat_hits: super::extra::FeatHits,
    /// Each unit's data and bookkeeping, by [`UnitId`].
    pub units: Vec<WUnit>,
}

/// The battle's turn order and where the round is.
#[derive(Clone, Debug, Default)]
pub struct RoundState {
    /// The battle's order, fixed at its start (W-02, W-GAP-10).
    pub order: Vec<UnitId>,
    /// This round's units still to act, next first (delays included, W-GAP-12).
    pub queue: Vec<UnitId>,
    /// Whether `order` has been rolled.
    pub fixed: bool,
    /// Whether the winners' MP was refilled (W-05).
    pub refilled: bool,
}

/// The active unit's actions this turn (W-01).
#[derive(Clone, Copy, Debug, Default)]
pub struct TurnBudget {
    /// Actions left.
    pub left: Budget,
    /// Whether its Move Action has been spent on a movement (W-07; the spaces a
    /// movement leaves are lost, W-GAP-15).
    pub opened: bool,
    /// Whether it did anything yet (Delay is only before acting).
    pub acted: bool,
}

impl TurnBudget {
    /// Whether the Move Action can still be spent: not spent, and not on a movement
    /// (whose leftover spaces are lost, W-GAP-15).
    pub fn move_left(&self) -> bool {
        self.left.moves > 0 && !self.opened
    }
}

/// The active unit's steps inside each enemy's melee zone so far this turn, by
/// enemy (W-26, W-GAP-15: "moves more than 2 spaces within your melee zone" is
/// counted over the turn, not per movement). Emptied when a turn starts.
#[derive(Clone, Debug, Default)]
pub struct ZoneSteps(pub Vec<(UnitId, u32)>);

impl ZoneSteps {
    /// The steps taken inside `enemy`'s zone this turn.
    pub fn of(&self, enemy: UnitId) -> u32 {
        self.0
            .iter()
            .find(|&&(e, _)| e == enemy)
            .map_or(0, |&(_, n)| n)
    }
}

/// The configuration in force.
pub fn rules(world: &World) -> &WoundsConfig {
    &w_state(world).rules
}

/// The battle's `wounds` state.
pub fn w_state(world: &World) -> &WState {
    crate::engine::ruleset::state::state(world)
}

/// The battle's `wounds` state, to change it.
pub fn w_state_mut(world: &mut World) -> &mut WState {
    crate::engine::ruleset::state::state_mut(world)
}

/// A unit's `wounds` data.
pub fn wu(world: &World, unit: UnitId) -> &WUnit {
    w_state(world)
        .units
        .get(unit.0 as usize)
        .expect("every wounds unit has its data")
}

/// A unit's `wounds` data, to change.
pub(super) fn wu_mut(world: &mut World, unit: UnitId) -> &mut WUnit {
    w_state_mut(world)
        .units
        .get_mut(unit.0 as usize)
        .expect("every wounds unit has its data")
}

pub use crate::engine::conditions::has;

/// The summed magnitude of a unit's conditions named `name`.
pub(super) fn total(world: &World, unit: UnitId, name: &str) -> i64 {
    world
        .get::<Conditions>(entity(world, unit))
        .map_or(0, |c| i64::from(c.total(name)))
}

/// The current round.
pub fn round(world: &World) -> u32 {
    world.resource::<TurnState>().round
}

/// What a unit's wounds change now (W-17, W-GAP-08, W-GAP-09).
pub fn mods(world: &World, unit: UnitId) -> Modifiers {
    wu(world, unit).wounds.modifiers(round(world), rules(world))
}

/// Agility with wounds.
pub fn agility(world: &World, unit: UnitId) -> i64 {
    wu(world, unit).agility + mods(world, unit).agility
}

/// Whether `unit` can act or make free hits: in play and not summoning-sick
/// (W-GAP-23).
pub fn able(world: &World, unit: UnitId) -> bool {
    is_active(world, unit) && !has(world, unit, names::SICK)
}

/// How `unit` stands against an attack by a hidden (`sneak`) or seen attacker
/// (W-16, W-29, W-30, W-33, W-GAP-23).
pub fn footing(world: &World, unit: UnitId, sneak: bool) -> Footing {
    let channeling = (has(world, unit, names::CHANNELING)
        || has(world, unit, super::magic::UPKEEPING))
        && !wu(world, unit).feats.battle_caster;
    if sneak || channeling || has(world, unit, names::FLAT_FOOTED) || has(world, unit, names::SICK)
    {
        Footing::FlatFooted
    } else if has(world, unit, names::PRONE) {
        Footing::Prone
    } else {
        Footing::Normal
    }
}

/// Whether `cell` is in `unit`'s melee zone (W-25).
pub fn in_zone_of(world: &World, unit: UnitId, cell: Cell) -> bool {
    economy::in_zone(cell_of(world, unit), wu(world, unit).zone, cell)
}

/// The enemies in whose melee zone `unit` stands, able to hit it.
pub fn zoned_by(world: &World, unit: UnitId) -> Vec<UnitId> {
    let at = cell_of(world, unit);
    active_units(world)
        .into_iter()
        .filter(|&e| side_of(world, e) != side_of(world, unit) && in_zone_of(world, e, at))
        .collect()
}

pub(super) fn fault(world: &mut World, e: DiceError) {
    world.resource_mut::<crate::engine::battle::Fault>().0 = Some(e.into());
}
