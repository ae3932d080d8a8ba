//! How a `wounds` turn ends, and the battle with it (W-05, W-GAP-21): after harm
//! the battle may be won or an AI side may lose the will to fight and surrender;
//! the winners' MP is refilled.

use bevy_ecs::prelude::*;

use super::events::WoundsEvent;
use super::state::{rules, w_state_mut, wu_mut};
use crate::engine::battle::{
    Sides, TurnState, board_units, check_victory, emit, entity, is_active, side_of,
};
use crate::engine::event::{Event, LeaveCause};
use crate::engine::spec::Controller;
use crate::engine::units::{Health, PlayState, SideId, UnitId};

/// After harm: the battle may be won, or an AI side may lose the will to fight
/// (W-05, W-GAP-21).
pub fn settle(world: &mut World) {
    if check_victory(world) {
        return refill(world);
    }
    let config = rules(world).clone();
    let sides = world.resource::<Sides>().0.clone();
    for (i, side) in sides.iter().enumerate() {
        if !matches!(side.controller, Controller::Ai(_)) {
            continue;
        }
        let id = SideId(i as u32);
        let (mut left, mut start) = (0i64, 0i64);
        let mut standing = false;
        for u in 0..world.resource::<crate::engine::battle::Roster>().0.len() as u32 {
            let u = UnitId(u);
            if side_of(world, u) != id {
                continue;
            }
            let h = *world
                .get::<Health>(entity(world, u))
                .expect("units have health");
            start += i64::from(h.max);
            if is_active(world, u) {
                standing = true;
                left += i64::from(h.hp.max(0));
            }
        }
        if standing && config.ai_surrenders(left, start) {
            let why = format!(
                " ({}% of its starting HP left, below {}%)",
                left * 100 / start.max(1),
                config.ai_surrender_percent
            );
            surrender(world, id, why);
            return;
        }
    }
}

/// `side` gives up: its units leave the battle (W-05, W-GAP-21).
pub fn surrender(world: &mut World, side: SideId, why: String) {
    emit(world, WoundsEvent::Surrendered { side, why });
    for u in board_units(world) {
        if side_of(world, u) == side {
            emit(
                world,
                Event::Defeated {
                    unit: u,
                    state: PlayState::Surrendered,
                    cause: Some(LeaveCause::Fled),
                    by: None,
                },
            );
        }
    }
    if let Some(a) = world.resource::<TurnState>().active
        && side_of(world, a) == side
    {
        emit(world, Event::TurnEnded { unit: a });
    }
    if check_victory(world) {
        refill(world);
    }
}

/// The winners' MP is refilled (W-05), once.
fn refill(world: &mut World) {
    if let Some(Some(side)) = world.resource::<TurnState>().ended
        && !std::mem::replace(&mut w_state_mut(world).round.refilled, true)
    {
        emit(world, WoundsEvent::MpRefilled { side });
        for u in 0..world.resource::<crate::engine::battle::Roster>().0.len() as u32 {
            let u = UnitId(u);
            if side_of(world, u) == side {
                let me = wu_mut(world, u);
                me.mp = me.max_mp;
            }
        }
    }
}

/// Ends `unit`'s turn.
pub fn end_turn(world: &mut World, unit: UnitId) {
    if world.resource::<TurnState>().active == Some(unit) {
        emit(world, Event::TurnEnded { unit });
    }
}
