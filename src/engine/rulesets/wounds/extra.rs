//! Two more of `wounds`' actions: fleeing the battle (W-05) and the free hit a feat's
//! extra attack grants (W-26).
//!
//! - **Flee** (W-05: "all units from one team are defeated, flee the battle, or lose
//!   the will to fight"): a unit standing on a square at the map's edge steps off the
//!   map with its Move Action and leaves the battle (`Fled`). Stepping off is moving
//!   out of every melee zone it stands in, so it can't flee from an enemy's melee
//!   zone unless it has disengaged (W-28), nor while prone (it must stand, W-30). A
//!   side whose last unit flees loses. Surrender (W-GAP-21) stays the AI's way out.
//! - **Extra attack** (W-26: a free hit "when a feat you possess grants you an
//!   additional attack action"): a unit with the feat `Extra attack` may, once in
//!   each of its turns, make a free hit on an enemy its melee weapon reaches. It
//!   costs no action but uses a Free Hit Slot (W-27), and is a free hit in every way
//!   (W-GAP-14: a natural 1 is just a miss).

use super::state::{self, w_state, w_state_mut};
use bevy_ecs::prelude::*;

use super::attack::{self, Kind};
use super::economy::{Action, Use};
use super::end;
use super::events::WoundsEvent;
use super::state::{names, wu};
use super::turn;
use super::verbs;
use crate::engine::battle::{Map, cell_of, emit, is_active, name, side_of};
use crate::engine::command::{Command, CommandError};
use crate::engine::event::Event;
use crate::engine::units::{PlayState, UnitId};
use crate::engine::verb::{ArgValue, Args};

/// The turns in which units used their feat's extra attack: (unit, its turn count).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FeatHits(pub Vec<(UnitId, u32)>);

/// Whether Flee or the feat's extra attack is legal now; `None` for any other verb.
pub fn check(
    world: &World,
    unit: UnitId,
    verb: &str,
    args: &Args,
) -> Option<Result<(), CommandError>> {
    let who = name(world, unit);
    let result = match verb {
        verbs::FLEE => {
            let board = &world.resource::<Map>().0;
            let (w, h) = (board.width(), board.height());
            let at = cell_of(world, unit);
            let edge = at.x == 0 || at.y == 0 || at.x + 1 == w as i32 || at.y + 1 == h as i32;
            let holders: Vec<String> = state::zoned_by(world, unit)
                .into_iter()
                .filter(|&e| state::able(world, e))
                .map(|e| name(world, e))
                .collect();
            if !edge {
                Err(CommandError::Forbidden(format!(
                    "{who} is not on the map's edge: only a unit on an edge square can flee \
                     the battle (W-05)"
                )))
            } else if state::has(world, unit, names::PRONE) {
                Err(CommandError::Forbidden(format!(
                    "{who} is prone: it must stand up before it can flee (W-30, W-05)"
                )))
            } else if !holders.is_empty() && !state::has(world, unit, names::DISENGAGED) {
                Err(CommandError::Forbidden(format!(
                    "{who} stands in the melee zone of {}: disengage first to flee (W-28, \
                     W-05)",
                    holders.join(", ")
                )))
            } else {
                super::check::can_pay(
                    world,
                    unit,
                    Use::Move,
                    &[Action::Move],
                    "fleeing the battle (W-05)",
                )
            }
        }
        verbs::FEAT_HIT => check_feat_hit(world, unit, args),
        _ => return None,
    };
    Some(result)
}

fn check_feat_hit(world: &World, unit: UnitId, args: &Args) -> Result<(), CommandError> {
    let who = name(world, unit);
    let me = wu(world, unit);
    if !me.feats.extra_attack {
        return Err(CommandError::Forbidden(format!(
            "{who} has no feat that grants an extra attack (W-26)"
        )));
    }
    if w_state(world).feat_hits.0.contains(&(unit, me.turns)) {
        return Err(CommandError::Forbidden(format!(
            "{who} has already made its feat's extra attack this turn (once a turn, W-26)"
        )));
    }
    if me.slots.left() == 0 {
        return Err(CommandError::Forbidden(format!(
            "{who} has no Free Hit Slot left this round for its feat's extra attack (W-26, \
             W-27)"
        )));
    }
    let Some(target) = args.unit("target") else {
        return Err(CommandError::NoSuchTarget("name the target (W-26)".into()));
    };
    if target == unit || !is_active(world, target) || side_of(world, target) == side_of(world, unit)
    {
        return Err(CommandError::NoSuchTarget(format!(
            "{} is not an enemy in the fight",
            name(world, target)
        )));
    }
    let aim = args.choice("aim");
    match attack::swing(world, unit, target, None, aim, Kind::Free) {
        Ok(_) => Ok(()),
        Err(attack::NoSwing::Aim(why)) => Err(CommandError::Forbidden(why)),
        Err(_) => Err(CommandError::OutOfReach(format!(
            "{} is out of the reach of {who}'s melee weapon: the feat's extra attack is a \
             free hit (W-26, W-GAP-14)",
            name(world, target)
        ))),
    }
}

/// Does Flee or the feat's extra attack (already checked); false for any other verb.
pub fn act(world: &mut World, unit: UnitId, verb: &str, args: &Args) -> bool {
    match verb {
        verbs::FLEE => {
            turn::pay(
                world,
                unit,
                Use::Move,
                &[Action::Move],
                "flee the battle (W-05)",
            );
            emit(
                world,
                Event::Defeated {
                    unit,
                    state: PlayState::Fled,
                    cause: Some(crate::engine::event::LeaveCause::Fled),
                    by: None,
                },
            );
            emit(world, Event::TurnEnded { unit });
            end::settle(world);
            true
        }
        verbs::FEAT_HIT => {
            let Some(target) = args.unit("target") else {
                return false;
            };
            let turn = wu(world, unit).turns;
            w_state_mut(world).feat_hits.0.push((unit, turn));
            state::wu_mut(world, unit).slots.spend();
            let slots_left = wu(world, unit).slots.left();
            emit(
                world,
                WoundsEvent::FreeHit {
                    attacker: unit,
                    mover: target,
                    why: "faces an extra attack granted by a feat (W-26)".into(),
                    slots_left,
                },
            );
            attack::make_attack(world, unit, target, None, args.choice("aim"), Kind::Free);
            true
        }
        _ => false,
    }
}

/// The Flee and extra-attack commands to try for `unit` (the caller keeps the legal
/// ones). Flee is listed only for a side a person plays (the window offers it
/// there): an AI side never flees, as no AI should run at random; it surrenders.
pub fn commands(world: &World, unit: UnitId) -> Vec<Command> {
    let side = side_of(world, unit);
    let human = world.resource::<crate::engine::battle::Sides>().0[side.0 as usize].controller
        == crate::engine::spec::Controller::Human;
    let mut out = Vec::new();
    if human {
        out.push(Command::Act {
            unit,
            verb: verbs::FLEE.into(),
            args: Args::new(),
        });
    }
    if wu(world, unit).feats.extra_attack {
        out.extend(
            crate::engine::battle::active_units(world)
                .into_iter()
                .filter(|&t| side_of(world, t) != side)
                .map(|t| Command::Act {
                    unit,
                    verb: verbs::FEAT_HIT.into(),
                    args: Args::new().with("target", ArgValue::Unit(t)),
                }),
        );
    }
    out
}
