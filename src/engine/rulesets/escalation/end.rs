//! The end of an `escalation` turn (E-23, E-29, E-52, E-56, E-62, E-GAP-03,
//! E-GAP-18): ongoing damage first, then a save against each save-ends effect, then
//! one-round effects the unit applied expire and sustained effects it did not
//! sustain end (Sustain, the action, is in [`super::turn`]); and Last Gasp saves (at
//! the start of the PC's turn or granted by an ally).

use bevy_ecs::prelude::*;

use super::attack::{hurt, staggered};
use super::conditions::ONGOING;
use super::events::EscalationEvent;
use super::state::{check_roll, esc, esc_mut, fault, rules, save_edge};
use crate::engine::battle::{
    TurnState, check_victory, emit, entity, halted, is_active, on_board, play_state,
};
use crate::engine::conditions::{Duration, end_where, expire_turn_end};
use crate::engine::dice::DiceError;
use crate::engine::event::{Event, LeaveCause, RollModifier};
use crate::engine::units::{Conditions, Health, PlayState, UnitId};

/// Ends `unit`'s turn: ongoing damage first, then saves against save-ends effects
/// (E-23, E-62, E-GAP-03), then one-round effects it applied expire (E-GAP-18).
pub fn end_turn(world: &mut World, unit: UnitId) {
    let ongoing: i32 = world
        .get::<Conditions>(entity(world, unit))
        .map(|c| c.total(ONGOING))
        .unwrap_or(0);
    if ongoing > 0 && is_active(world, unit) {
        // The ongoing damage is the doing of whoever caused the first of it.
        let source = world.get::<Conditions>(entity(world, unit)).and_then(|c| {
            c.0.iter()
                .find(|c| c.name == ONGOING)
                .and_then(|c| c.source)
        });
        hurt(world, unit, Vec::new(), ongoing, false, source);
    }
    if on_board(world, unit) && !halted(world) {
        let saves: Vec<String> = world
            .get::<Conditions>(entity(world, unit))
            .map(|c| {
                c.0.iter()
                    .filter(|c| matches!(c.duration, Duration::SaveEnds))
                    .map(|c| c.name.clone())
                    .collect()
            })
            .unwrap_or_default();
        for name in saves {
            if let Err(e) = save_against(world, unit, &name, 0, rules(world).save_target) {
                return fault(world, e);
            }
        }
    }
    let turn = esc(world, unit).turns;
    expire_turn_end(world, unit, turn, "its source's turn ended");
    // E-29: sustained effects not sustained this turn end with it.
    let lapsed: Vec<super::units::Sustained> = {
        let me = esc_mut(world, unit);
        let (keep, lapse) = me.sustaining.drain(..).partition(|s| s.kept == turn);
        me.sustaining = keep;
        lapse
    };
    for l in lapsed {
        if on_board(world, l.target) {
            end_where(world, l.target, "no longer sustained", |c| {
                c.name == l.condition && c.duration == Duration::Sustained(unit)
            });
        }
    }
    if world.resource::<TurnState>().active == Some(unit) {
        emit(world, Event::TurnEnded { unit });
    }
}

/// Rolls a save against the condition `name` on `unit` (3d6 + `bonus` ≥ `target`,
/// Enervated: 1 Disadvantage, E-56, E-GAP-03); ends it on a success.
pub(super) fn save_against(
    world: &mut World,
    unit: UnitId,
    name: &str,
    bonus: i32,
    target: i32,
) -> Result<bool, DiceError> {
    let modifiers = if bonus != 0 {
        vec![RollModifier::new("Escalation", bonus)]
    } else {
        Vec::new()
    };
    let net = save_edge(world, unit);
    let ok = check_roll(
        world,
        unit,
        format!("a save against {name}"),
        net,
        modifiers,
        target,
    )?;
    if ok {
        // Same-named conditions don't stack (E-GAP-18): this ends the one.
        end_where(world, unit, "saved", |c| c.name == name);
    }
    Ok(ok)
}

/// A Last Gasp save (E-52): a death save as if below 0 HP (13+). A success ends the
/// effect and the PC keeps the HP it had when it began; a failure counts toward 4
/// (`counts`: not when an ally granted the save), and at 4 the effect takes hold:
/// the PC is out of the fight.
pub(super) fn last_gasp_save(world: &mut World, unit: UnitId, counts: bool) {
    let Some(gasp) = esc(world, unit).last_gasp.clone() else {
        return;
    };
    let c = rules(world).clone();
    let net = save_edge(world, unit);
    let purpose = format!("a Last Gasp save against {}", gasp.condition);
    let ok = match check_roll(world, unit, purpose, net, Vec::new(), c.death_save_target) {
        Ok(ok) => ok,
        Err(e) => return fault(world, e),
    };
    if ok {
        esc_mut(world, unit).last_gasp = None;
        let name = gasp.condition.clone();
        end_where(world, unit, "Last Gasp save", |c| c.name == name);
        let h = *world
            .get::<Health>(entity(world, unit))
            .expect("units have health");
        if h.hp != gasp.hp && play_state(world, unit) == PlayState::Active {
            let hp = gasp.hp.min(h.max);
            emit(
                world,
                Event::Healed {
                    unit,
                    faces: Vec::new(),
                    amount: hp - h.hp,
                    hp,
                    source: None,
                },
            );
            staggered(world, unit);
        }
        return;
    }
    if !counts {
        return;
    }
    let failures = gasp.failures + 1;
    if let Some(g) = esc_mut(world, unit).last_gasp.as_mut() {
        g.failures = failures;
    }
    emit(
        world,
        EscalationEvent::DeathSaveFailed {
            unit,
            failures,
            limit: c.death_save_failures,
            stabilized: false,
        },
    );
    if failures >= c.death_save_failures {
        emit(
            world,
            Event::Defeated {
                unit,
                state: PlayState::Down,
                cause: Some(LeaveCause::Condition),
                by: crate::engine::conditions::source_of(world, unit, &gasp.condition),
            },
        );
        check_victory(world);
    }
}
