//! The `phases` ruleset (seed 000, RULES.md §1): Initiative → Movement Phase (lowest
//! initiative first, seizing allowed) → Battle Phase (highest first, Delay allowed) →
//! End Phase (saving throws), with 2d6 + ATK ≥ DEF attacks and one extra die for
//! advantage or disadvantage.
//!
//! Systems: [`initiative::start_round`] in `Initiative`, [`movement::movement_phase`]
//! in `Movement`, [`battle::battle_phase`] in `Attack`, [`end::end_phase`] in
//! `EndOfTurn`. Legality lives in [`check`], attack maths (shared with the odds the
//! UI shows) in [`attack`]. [`Phases`] is what the engine, the editor and the AI
//! ask of it (the [`crate::engine::ruleset::Ruleset`] seam).

pub mod answers;
pub mod archetype;
pub mod attack;
pub mod battle;
pub mod check;
pub mod config;
pub mod end;
pub mod events;
pub mod initiative;
pub mod movement;
pub mod preview;
pub mod ruleset;
pub mod verbs;

#[cfg(test)]
mod decision_tests;
#[cfg(test)]
mod play_state_tests;

/// The pools of `phases`: one of each per turn.
pub mod pools {
    use crate::engine::units::Pool;
    /// One movement power per Movement Phase.
    pub const MOVEMENT_POWER: Pool = Pool::new("MovementPower", "movement power");
    /// One battle action per Battle Phase.
    pub const BATTLE_ACTION: Pool = Pool::new("BattleAction", "battle action");
}

use std::collections::VecDeque;
use std::sync::Arc;

use bevy_app::{App, Plugin};
use bevy_ecs::prelude::*;

pub use config::PhasesConfig;
pub use ruleset::Phases;

use crate::engine::battle::{BattleSchedule, BattleStage, Roster, ruleset_is};
use crate::engine::ruleset::{
    MAX_HP, MAX_MODIFIER, MAX_SPEED, RulesetError, StatSpec, UnitProblem, check_unit_stats,
    parse_dice, side_index, unit_basics,
};
use crate::engine::spec::Level;
use crate::engine::units::*;

/// The stats a `phases` unit has (P-01, P-GAP-05).
pub const STATS: &[StatSpec] = &[
    StatSpec {
        name: "INT",
        required: true,
        about: "added to initiative (P-11)",
        min: -MAX_MODIFIER,
        max: MAX_MODIFIER,
    },
    StatSpec {
        name: "AGI",
        required: true,
        about: "added to initiative (P-11)",
        min: -MAX_MODIFIER,
        max: MAX_MODIFIER,
    },
    StatSpec {
        name: "ATK",
        required: true,
        about: "attack modifier: 2d6 + ATK (P-23)",
        min: -MAX_MODIFIER,
        max: MAX_MODIFIER,
    },
    StatSpec {
        name: "DEF",
        required: true,
        about: "defense: attacks hit on >= DEF (P-23)",
        min: -MAX_MODIFIER,
        max: MAX_MODIFIER,
    },
    StatSpec {
        name: "Tier",
        required: true,
        about: "1, 2 or 3; tier difference gives advantage (P-24)",
        min: 1,
        max: 3,
    },
    StatSpec {
        name: "HP",
        required: false,
        about: "hit points; default 10 x Tier (P-GAP-05)",
        min: 1,
        max: MAX_HP,
    },
    StatSpec {
        name: "Speed",
        required: false,
        about: "squares per Walk; default 6 (P-GAP-04)",
        min: 0,
        max: MAX_SPEED,
    },
];

/// Condition names `phases` gives effects to.
pub mod conditions {
    /// Loses all remaining movement; can't start moving (P-18, P-GAP-09).
    pub const SLOWED: &str = "Slowed";
    /// Attacks against it have 1 disadvantage source (P-27).
    pub const DEFENDING: &str = "Defending";
    /// Attacks against it have 1 advantage source this round (P-15).
    pub const SEIZED: &str = "Seized";
    /// Its attacks have 1 disadvantage source until the end of the next round (P-21).
    pub const DISENGAGED: &str = "Disengaged";
    /// Its attacks have 1 disadvantage source this round (Hustle, P-GAP-04).
    pub const HUSTLED: &str = "Hustled";
    /// Can't Attack; attackers have 1 advantage source this round (Run, P-GAP-04).
    pub const RUNNING: &str = "Running";
    /// First attack against the charged enemy has 1 advantage source (Charge, P-GAP-04).
    pub const CHARGING: &str = "Charging";
    /// Conditions a level's powers may apply.
    pub const APPLICABLE: &[&str] = &[SLOWED];
    /// Conditions a movement power may put on the unit using it (`applies`).
    pub const SELF_APPLICABLE: &[&str] = &[DISENGAGED, HUSTLED, RUNNING, SLOWED, DEFENDING];
}

/// The battle's `phases` state (held by the battle, see
/// [`crate::engine::ruleset::state`]): its configuration, its attack rolls and the
/// round's bookkeeping. `phases` keeps nothing per unit beyond the engine's own
/// components.
#[derive(Clone, Debug)]
pub struct PhasesState {
    /// The configuration in force for this battle (never changed after setup).
    pub rules: Arc<PhasesConfig>,
    /// Every attack roll of the configuration (never changed after setup).
    pub rolls: Arc<attack::AttackRolls>,
    /// The round's bookkeeping.
    pub round: PhasesFlow,
}

/// Where the round is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Step {
    /// A new round must start (initiative).
    #[default]
    RoundStart,
    /// Sides are declaring who seizes the initiative.
    Seize,
    /// Movement Phase turns.
    Movement,
    /// Battle Phase turns.
    Battle,
    /// End Phase.
    End,
}

/// The round's bookkeeping: orders, seizers, delays.
#[derive(Clone, Debug, Default)]
pub struct PhasesFlow {
    /// Current step.
    pub step: Step,
    /// This round's initiative order, highest first, ties broken (P-13, P-14).
    pub descending: Vec<UnitId>,
    /// Units that seized the initiative this round (P-15).
    pub seizers: Vec<UnitId>,
    /// Sides still to declare seizing.
    pub to_ask: VecDeque<SideId>,
    /// Units still to act in the current pass.
    pub queue: VecDeque<UnitId>,
    /// Delayed units waiting to act (P-26).
    pub held: Vec<UnitId>,
    /// Units that delayed this round (they may not delay twice).
    pub delayed: Vec<UnitId>,
    /// The unit whose delay window is open, and the sides still to answer.
    pub window: Option<(UnitId, VecDeque<SideId>)>,
    /// Held units that declared to act before the window's unit.
    pub acting_now: Vec<UnitId>,
}

/// The `phases` systems in the engine's stage sets.
pub struct PhasesPlugin;

impl Plugin for PhasesPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            BattleSchedule,
            (
                initiative::start_round.in_set(BattleStage::Initiative),
                movement::movement_phase.in_set(BattleStage::Movement),
                battle::battle_phase.in_set(BattleStage::Attack),
                end::end_phase.in_set(BattleStage::EndOfTurn),
            )
                .run_if(ruleset_is("phases")),
        );
        app.init_resource::<crate::engine::queries::CachedQuery<movement::FoeQuery>>();
    }
}

/// Spawns the level's units with `phases` stats and inserts the ruleset's state
/// (the seam's `setup`, see [`Phases`]).
pub fn setup(world: &mut World, level: &Level) -> Result<(), RulesetError> {
    let config = crate::engine::ruleset::config::for_level::<PhasesConfig>(&level.rules)?;
    let rolls = attack::AttackRolls::new(&config).map_err(RulesetError::Config)?;
    let mut roster = Vec::new();
    for (i, def) in level.units.iter().enumerate() {
        let side = side_index(level, def)?;
        // What `skirmish check` refuses, the engine does not play either.
        check_unit_stats(STATS, def)?;
        let item_powers = def.items.iter().filter_map(|item| match &item.effect {
            crate::engine::spec::ItemEffect::Power(p) => Some(p),
            _ => None,
        });
        for power in def.powers.iter().chain(item_powers) {
            parse_dice(&power.damage)
                .map_err(|e| RulesetError::unit(&def.name, UnitProblem::damage(power, e)))?;
        }
        for item in &def.items {
            if let crate::engine::spec::ItemEffect::Heal(dice) = &item.effect {
                parse_dice(dice).map_err(|why| {
                    let (item, dice) = (item.name.clone(), dice.clone());
                    RulesetError::unit(&def.name, UnitProblem::Heal { item, dice, why })
                })?;
            }
        }
        let stats = Stats(def.stats.clone());
        let max = if def.stats.contains_key("HP") {
            stats.get("HP")
        } else {
            config.hp_per_tier * stats.get("Tier").max(1)
        };
        let powers = if def.powers.is_empty() {
            vec![config.default_power.clone()]
        } else {
            def.powers.clone()
        };
        let movement = config
            .movement_powers
            .iter()
            .map(|p| p.name.clone())
            .chain(def.movement.iter().cloned())
            .collect();
        let e = world
            .spawn((
                unit_basics(i, def, side, max),
                Reach(1),
                ActionPool::default(),
                Powers(powers),
                MovementPowers(movement),
                Items(def.items.clone()),
                Initiative::default(),
            ))
            .id();
        roster.push(e);
    }
    world.insert_resource(Roster(roster));
    crate::engine::ruleset::state::insert(
        world,
        PhasesState {
            rules: Arc::new(config),
            rolls: Arc::new(rolls),
            round: PhasesFlow::default(),
        },
    );
    Ok(())
}

/// The battle's `phases` state.
pub fn phases_state(world: &World) -> &PhasesState {
    crate::engine::ruleset::state::state(world)
}

/// The configuration in force.
pub fn rules(world: &World) -> &PhasesConfig {
    &phases_state(world).rules
}

/// The round's bookkeeping.
pub fn round(world: &World) -> &PhasesFlow {
    &phases_state(world).round
}

/// The round's bookkeeping, to change it.
pub fn round_mut(world: &mut World) -> &mut PhasesFlow {
    &mut crate::engine::ruleset::state::state_mut::<PhasesState>(world).round
}

/// Runs a rules step, turning an error (the dice ran out) into the battle's fault.
fn guarded(
    world: &mut World,
    step: impl FnOnce(&mut World) -> Result<(), crate::engine::command::CommandError>,
) {
    if let Err(e) = step(world) {
        world.resource_mut::<crate::engine::battle::Fault>().0 = Some(e);
    }
}
