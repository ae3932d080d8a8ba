//! `wounds`' movement (W-07 … W-09, W-26, W-27, W-30, W-EX-5, W-EX-8, W-GAP-14,
//! W-GAP-15, W-GAP-20, W-GAP-25): how far a unit may move now (its gait, the Move
//! Action's spaces and Bonus Actions' Dash), what a path costs, the free hits a path
//! draws (leaving a melee zone, the 3rd step inside one) and the steps one by one,
//! each free hit resolved before the step that draws it while the hitter has a Free
//! Hit Slot.

use bevy_ecs::prelude::*;

use super::attack::Kind;
use super::economy::{self, Gait, Trigger};
use super::events::WoundsEvent;
use super::state::{able, has, mods, names, rules, w_state, w_state_mut, wu, wu_mut};
use crate::engine::battle::{
    Map, TurnState, active_units, cell_of, emit, halted, is_active, side_of,
};
use crate::engine::board::{Cell, Terrain};
use crate::engine::event::Event;
use crate::engine::units::UnitId;

/// How the active `unit` moves now (W-08, W-30): prone crawls at ⅓, a hidden unit
/// sneaks at half speed unless it is a Maneuverer, and a `Burdened` one (carrying
/// its maximum capacity) moves at half speed. Swimming and climbing are per square
/// ([`path_cost`]).
pub fn gait(world: &World, unit: UnitId) -> Gait {
    let me = wu(world, unit);
    Gait {
        prone: has(world, unit, names::PRONE),
        half: (has(world, unit, names::HIDDEN) && !me.feats.maneuverer) || me.burdened,
    }
}

/// The spaces `unit` has moved and may still move this turn when it opens its
/// Move Action if needed and spends `extra` more Bonus Actions (W-07, W-09, W-EX-8).
fn allowance(world: &World, unit: UnitId, opened: bool, extra: u32) -> u32 {
    economy::movement(
        rules(world),
        wu(world, unit).movement,
        &mods(world, unit),
        opened,
        extra,
        gait(world, unit),
    )
}

/// How a move of `cost` spaces is paid now: whether it takes the Move Action and
/// how many Bonus Actions it spends on 2 more spaces each (none unless `dash`);
/// `None` when the actions left are not enough. Every move is a movement of its
/// own (W-07, W-GAP-15): the Move Action's spaces come with the first one only,
/// and what a movement leaves is lost; a later one is a Dash on Bonus Actions.
pub fn move_plan(world: &World, unit: UnitId, cost: u32, dash: bool) -> Option<(bool, u32)> {
    let t = w_state(world).turn;
    let with_ma = t.move_left();
    if !with_ma && !dash {
        return None;
    }
    let most = if dash { t.left.bonus } else { 0 };
    (0..=most)
        .find(|&more| allowance(world, unit, with_ma, more) >= cost)
        .map(|more| (with_ma, more))
}

/// The most spaces `unit` can move with one more movement now, with its Bonus
/// Actions if `dash`.
pub fn reach_left(world: &World, unit: UnitId, dash: bool) -> u32 {
    let t = w_state(world).turn;
    let with_ma = t.move_left();
    if !with_ma && !dash {
        return 0;
    }
    allowance(world, unit, with_ma, if dash { t.left.bonus } else { 0 })
}

/// The cost in spaces of `unit` moving along a path (W-GAP-20: difficult squares
/// cost 2, diagonals 1). Swimming into water and climbing onto a climbing square
/// is half speed (W-08): such a square costs `half_divisor` spaces (2), except water
/// for a Maneuverer, who swims normally.
pub fn path_cost(world: &World, unit: UnitId, path: &[Cell]) -> Option<u32> {
    let config = rules(world);
    let board = &world.resource::<Map>().0;
    let swims = wu(world, unit).feats.maneuverer;
    path.iter()
        .map(|&c| {
            let k = board.step_cost(c)?;
            Some(match board.terrain(c) {
                Terrain::Water if swims => 1,
                Terrain::Water | Terrain::Climb => config.half_divisor.max(1),
                _ => economy::step_cost(config, k > 1),
            })
        })
        .sum()
}

/// The free hits moving `mover` along `path` draws, in the order they come: before
/// which step, from whom and why (W-26, W-GAP-14, W-GAP-15, W-GAP-25). Slots are
/// not checked.
pub fn free_hits(world: &World, mover: UnitId, path: &[Cell]) -> Vec<(usize, UnitId, Trigger)> {
    let config = rules(world);
    let mut full = vec![cell_of(world, mover)];
    full.extend_from_slice(path);
    let disengaged = has(world, mover, names::DISENGAGED);
    let order = &w_state(world).round.order;
    // The turn's count is the active unit's.
    let mine = world.resource::<TurnState>().active == Some(mover);
    let steps = &w_state(world).zone_steps;
    let before = |e| if mine { steps.of(e) } else { 0 };
    let mut out: Vec<(usize, UnitId, Trigger)> = active_units(world)
        .into_iter()
        .filter(|&e| side_of(world, e) != side_of(world, mover) && able(world, e))
        .filter_map(|e| {
            economy::free_hit_trigger(
                config,
                cell_of(world, e),
                wu(world, e).zone,
                &full,
                disengaged,
                before(e),
            )
            .map(|(i, why)| (i, e, why))
        })
        .collect();
    out.sort_by_key(|&(i, e, _)| (i, order.iter().position(|&u| u == e)));
    out
}

/// Moves `mover` along `path`, each free hit it draws resolved before the step that
/// draws it, as long as the hitter has a Free Hit Slot (W-26, W-27, W-GAP-14,
/// W-GAP-15, W-EX-5).
pub(super) fn travel(world: &mut World, mover: UnitId, path: Vec<Cell>) {
    let hits = free_hits(world, mover, &path);
    count_zone_steps(world, mover, &path);
    walk(
        world,
        Walk {
            mover,
            path,
            hits,
            resolved: 0,
            step: 0,
        },
    );
}

/// A movement under way: its path, the free hits it draws and how far it got. A
/// free hit whose aim the hitter's side is asked for (W-GAP-07) stops it; the
/// answer resumes it ([`super::free_hit`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Walk {
    /// The moving unit.
    pub mover: UnitId,
    /// The cells it enters, in order.
    pub path: Vec<Cell>,
    /// The free hits it draws ([`free_hits`]), in the order they come.
    pub hits: Vec<(usize, UnitId, Trigger)>,
    /// How many of `hits` are resolved.
    pub resolved: usize,
    /// The next step to take (an index into `path`).
    pub step: usize,
}

/// Takes the rest of a movement's steps, each free hit resolved before the step
/// that draws it as long as the hitter has a Free Hit Slot (W-26, W-27, W-GAP-14,
/// W-GAP-15, W-EX-5); stops when a free hit's aim is asked for.
pub fn walk(world: &mut World, mut w: Walk) {
    let mover = w.mover;
    while let Some(&to) = w.path.get(w.step) {
        while let Some(&(_, hitter, why)) = w.hits.get(w.resolved).filter(|h| h.0 == w.step) {
            w.resolved += 1;
            if !able(world, hitter) || !is_active(world, mover) {
                continue;
            }
            if !wu_mut(world, hitter).slots.spend() {
                emit(
                    world,
                    WoundsEvent::NoSlot {
                        unit: hitter,
                        mover,
                    },
                );
                continue;
            }
            let left = wu(world, hitter).slots.left();
            emit(
                world,
                WoundsEvent::FreeHit {
                    attacker: hitter,
                    mover,
                    why: match why {
                        Trigger::Leaves => "leaves the melee zone".into(),
                        Trigger::StepsInside => format!(
                            "moves a {} space inside the melee zone",
                            ordinal(rules(world).free_hit_step)
                        ),
                    },
                    slots_left: left,
                },
            );
            if super::free_hit::strike(world, hitter, mover, Kind::Free, Some(w.clone())) {
                return;
            }
        }
        if !is_active(world, mover) || halted(world) {
            return;
        }
        let from = cell_of(world, mover);
        let cost = path_cost(world, mover, &[to]).unwrap_or(1);
        emit(
            world,
            Event::Moved {
                unit: mover,
                from,
                to,
                cost,
            },
        );
        w.step += 1;
    }
}

/// Adds the steps of `path` inside each enemy's melee zone to the mover's count
/// for the turn ([`ZoneSteps`], W-26, W-GAP-15).
fn count_zone_steps(world: &mut World, mover: UnitId, path: &[Cell]) {
    let mut full = vec![cell_of(world, mover)];
    full.extend_from_slice(path);
    let added: Vec<(UnitId, u32)> = active_units(world)
        .into_iter()
        .filter(|&e| side_of(world, e) != side_of(world, mover))
        .map(|e| {
            let n = economy::steps_inside(cell_of(world, e), wu(world, e).zone, &full);
            (e, n)
        })
        .filter(|&(_, n)| n > 0)
        .collect();
    let steps = &mut w_state_mut(world).zone_steps;
    for (e, n) in added {
        match steps.0.iter_mut().find(|(u, _)| *u == e) {
            Some((_, m)) => *m += n,
            None => steps.0.push((e, n)),
        }
    }
}

fn ordinal(n: u32) -> String {
    match n {
        1 => "1st".into(),
        2 => "2nd".into(),
        3 => "3rd".into(),
        n => format!("{n}th"),
    }
}
