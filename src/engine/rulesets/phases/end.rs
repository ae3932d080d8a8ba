//! End Phase (P-29, P-GAP-14): one saving throw per save-ends or sustained effect,
//! then round-bound durations expire and the next round starts.

use bevy_ecs::prelude::*;

use super::events::PhasesEvent;
use super::{Step, guarded, phases_state, round, round_mut};
use crate::engine::battle::{
    TurnState, active_units, check_round_limit, emit, entity, halted, is_active,
};
use crate::engine::command::CommandError;
use crate::engine::conditions::{self, Duration};
use crate::engine::dice::Dice;
use crate::engine::event::Event;
use crate::engine::units::*;

/// Runs the End Phase.
pub fn end_phase(world: &mut World) {
    if halted(world) || round(world).step != Step::End {
        return;
    }
    guarded(world, |world| {
        saving_throws(world)?;
        expire(world);
        if !check_round_limit(world) {
            round_mut(world).step = Step::RoundStart;
        }
        Ok(())
    });
}

/// P-29: for every effect that needs a save, roll once: a 7+ ends a save-ends effect
/// (rolled by its bearer) or sustains a sustained one (rolled by its maintainer,
/// P-GAP-14). Units in roster order, effects in the order they were added.
pub fn saving_throws(world: &mut World) -> Result<(), CommandError> {
    let config = phases_state(world).rules.clone();
    let expr = &config.save_dice;
    for bearer in active_units(world) {
        let conditions = world
            .get::<Conditions>(entity(world, bearer))
            .cloned()
            .unwrap_or_default();
        for c in conditions.0 {
            let roller = match c.duration {
                Duration::SaveEnds => bearer,
                Duration::Sustained(by) if is_active(world, by) => by,
                Duration::Sustained(_) => {
                    emit(
                        world,
                        Event::ConditionRemoved {
                            unit: bearer,
                            name: c.name.clone(),
                            reason: "whoever sustained it left play".into(),
                        },
                    );
                    continue;
                }
                _ => continue,
            };
            let roll = expr.roll(&mut world.resource_mut::<Dice>())?;
            let total = roll.total as i32;
            let success = total >= config.save_target;
            emit(
                world,
                PhasesEvent::SaveRolled {
                    unit: roller,
                    bearer,
                    condition: c.name.clone(),
                    faces: roll.faces.iter().map(|&(_, f)| f).collect(),
                    total,
                    target: config.save_target,
                    success,
                },
            );
            let ends = match c.duration {
                Duration::SaveEnds => success,
                _ => !success,
            };
            if ends {
                let reason = if success { "saved" } else { "not sustained" };
                emit(
                    world,
                    Event::ConditionRemoved {
                        unit: bearer,
                        name: c.name.clone(),
                        reason: reason.into(),
                    },
                );
            }
        }
    }
    Ok(())
}

/// Ends conditions that last until the end of this round (P-15, P-GAP-04, P-GAP-11).
pub fn expire(world: &mut World) {
    let round = world.resource::<TurnState>().round;
    conditions::expire_end_of_round(world, round);
}
