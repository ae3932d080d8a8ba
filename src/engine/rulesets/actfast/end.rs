//! The end of an `actfast` turn: conditions that last to the end of its unit's turn
//! end (conditions that last the round end as the next round starts, in
//! [`super::turn`]).

use bevy_ecs::prelude::*;

use super::state::au;
use crate::engine::battle::{TurnState, emit, on_board};
use crate::engine::conditions::expire_turn_end;
use crate::engine::event::Event;
use crate::engine::units::UnitId;

/// Ends `unit`'s turn: conditions that last to the end of its turn end.
pub fn end_turn(world: &mut World, unit: UnitId) {
    if world.resource::<TurnState>().active != Some(unit) {
        return;
    }
    let turns = au(world, unit).turns;
    emit(world, Event::TurnEnded { unit });
    if on_board(world, unit) {
        expire_turn_end(world, unit, turns, "its turn ended");
    }
}
