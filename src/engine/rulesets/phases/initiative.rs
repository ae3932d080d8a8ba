//! Initiative Phase (P-10 … P-14, P-GAP-01, P-GAP-02): every unit rolls
//! 2d6 + INT + AGI each round; tied units roll a d6 until the tie breaks (the shared
//! roll-off of [`crate::engine::initiative`], bounded in rounds).

use bevy_ecs::prelude::*;

use super::movement::set_pool;
use super::{PhasesFlow, Step, guarded, phases_state, pools, round, round_mut};
use crate::engine::battle::{Sides, TurnState, active_units, emit, entity, halted, side_of};
use crate::engine::command::CommandError;
use crate::engine::dice::Dice;
use crate::engine::event::{Event, Stage};
use crate::engine::initiative::roll_off;
use crate::engine::units::*;

/// Starts a round: rolls initiative, orders units, resets action pools, and opens
/// the Movement Phase with seize declarations.
pub fn start_round(world: &mut World) {
    if halted(world) || round(world).step != Step::RoundStart {
        return;
    }
    guarded(world, |world| {
        let round = world.resource::<TurnState>().round + 1;
        emit(world, Event::RoundStarted { round });
        emit(
            world,
            Event::StageStarted {
                stage: Stage::Initiative,
            },
        );
        let descending = roll_initiative(world)?;
        for &u in &descending {
            for pool in [pools::MOVEMENT_POWER, pools::BATTLE_ACTION] {
                set_pool(world, u, pool, 1, "new round");
            }
        }
        // Sides declare seizing in ascending initiative of their first unit (P-GAP-12).
        let mut to_ask = Vec::new();
        for &u in descending.iter().rev() {
            let s = side_of(world, u);
            if !to_ask.contains(&s) {
                to_ask.push(s);
            }
        }
        let sides = world.resource::<Sides>().0.len();
        to_ask.retain(|s| (s.0 as usize) < sides);
        let flow = round_mut(world);
        *flow = PhasesFlow {
            step: Step::Seize,
            descending,
            to_ask: to_ask.into(),
            ..PhasesFlow::default()
        };
        emit(
            world,
            Event::StageStarted {
                stage: Stage::Movement,
            },
        );
        Ok(())
    });
}

/// Rolls initiative for every unit in play (roster order) and returns them highest
/// first, ties broken by the shared, bounded roll-off on the tie die
/// ([`crate::engine::initiative::roll_off`], P-14, P-GAP-02).
pub fn roll_initiative(world: &mut World) -> Result<Vec<UnitId>, CommandError> {
    let config = phases_state(world).rules.clone();
    let expr = &config.initiative_dice;
    let mut totals = Vec::new();
    for u in active_units(world) {
        let stats = world
            .get::<Stats>(entity(world, u))
            .cloned()
            .unwrap_or_default();
        let modifier = stats.get("INT") + stats.get("AGI");
        let roll = expr.roll(&mut world.resource_mut::<Dice>())?;
        let total = roll.total as i32 + modifier;
        emit(
            world,
            Event::InitiativeRolled {
                unit: u,
                faces: roll.faces.iter().map(|&(_, f)| f).collect(),
                modifier,
                total,
            },
        );
        totals.push((u, total));
    }
    // Stable sort keeps roster order inside a tie until the roll-off decides.
    totals.sort_by_key(|t| std::cmp::Reverse(t.1));
    let mut order = Vec::new();
    let mut i = 0;
    while i < totals.len() {
        let j = totals[i..]
            .iter()
            .take_while(|t| t.1 == totals[i].1)
            .count()
            + i;
        let mut group: Vec<UnitId> = totals[i..j].iter().map(|t| t.0).collect();
        group.sort();
        order.extend(roll_off(world, group, config.tie_die)?);
        i = j;
    }
    Ok(order)
}

/// Movement order (P-12, P-15, P-GAP-12): seizers first in ascending initiative,
/// then everyone else in ascending initiative.
pub fn movement_order(descending: &[UnitId], seizers: &[UnitId]) -> Vec<UnitId> {
    let ascending = descending.iter().rev();
    let (first, rest): (Vec<UnitId>, Vec<UnitId>) = ascending.partition(|u| seizers.contains(u));
    first.into_iter().chain(rest).collect()
}

/// Battle order (P-13, P-15, P-GAP-12): non-seizers in descending initiative, then
/// seizers in descending initiative.
pub fn battle_order(descending: &[UnitId], seizers: &[UnitId]) -> Vec<UnitId> {
    let (last, first): (Vec<UnitId>, Vec<UnitId>) =
        descending.iter().partition(|u| seizers.contains(u));
    first.into_iter().chain(last).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn p_12_p_13_p_15_orders_from_initiative() {
        // P-EX-4 ordering: Knight 0, Goblin 1, Rogue 2, Ogre 3 highest first.
        let d = [UnitId(0), UnitId(1), UnitId(2), UnitId(3)];
        assert_eq!(
            movement_order(&d, &[]),
            [UnitId(3), UnitId(2), UnitId(1), UnitId(0)]
        );
        assert_eq!(battle_order(&d, &[]), d);
        // The Knight seizes: moves first, battles last.
        assert_eq!(
            movement_order(&d, &[UnitId(0)]),
            [UnitId(0), UnitId(3), UnitId(2), UnitId(1)]
        );
        assert_eq!(
            battle_order(&d, &[UnitId(0)]),
            [UnitId(1), UnitId(2), UnitId(3), UnitId(0)]
        );
    }
}
