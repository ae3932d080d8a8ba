//! Movement and what it provokes (F-26, F-37, F-39, F-41, F-44 … F-47, F-GAP-10,
//! F-GAP-12, F-GAP-13, F-GAP-23): moves run one hex at a time as [`Frame::Move`];
//! before a unit leaves a hex that enemies threaten, each of them is offered one
//! Reaction Attack per action ([`Frame::Provoke`]); readied enemies fire when it
//! enters their reach.

use bevy_ecs::prelude::*;

use super::events::FlowEvent;
use crate::engine::event::Event;

use super::attack::{Choice, make_attack, reaction_attack_option};
use super::reactions::Reaction;
use super::*;
use crate::engine::battle::{Map, Pending, Progress, emit, occupancy_for, side_of};
use crate::engine::board::{Board, Occupancy};
use crate::engine::spec::DecisionPolicy;
use crate::engine::walk::{self, Walk};

/// Hexes an ally can Intercept from (F-31, F-GAP-13): open hexes it reaches with
/// `intercept_distance` hexes of movement along a free path that are next to both
/// the ally and a melee attacker, or directly between a ranged attacker and the ally.
/// Cheapest first.
pub fn intercept_cells(world: &World, ctx: &AttackCtx, unit: UnitId) -> Vec<Cell> {
    let board = &world.resource::<Map>().0;
    let ally = cell_of(world, ctx.target);
    let from = cell_of(world, ctx.attacker);
    let at = cell_of(world, unit);
    let distance = rules(world).intercept_distance;
    let melee = !ctx.weapon.ranged() && ctx.weapon.category != WeaponCategory::Spell;
    let candidates: Vec<Cell> = if melee {
        board
            .neighbors(ally)
            .into_iter()
            .filter(|&c| board.distance(c, from) == 1)
            .collect()
    } else {
        let line = board.line(from, ally);
        line[1..line.len().saturating_sub(1).max(1)].to_vec()
    };
    // Every hex costs at least 1 to enter, so a hex farther than the intercept
    // distance is out of reach: most allies on a big map need no search at all.
    let candidates: Vec<Cell> = candidates
        .into_iter()
        .filter(|&c| board.distance(at, c) <= distance)
        .collect();
    if candidates.is_empty() {
        return Vec::new();
    }
    let field = board.movement_field(
        at,
        distance,
        &crate::engine::battle::occupancy_at(world, unit),
    );
    let mut out: Vec<(u32, Cell)> = candidates
        .into_iter()
        .filter_map(|c| field.get(&c).map(|&cost| (cost, c)))
        .collect();
    out.sort();
    out.into_iter().map(|(_, c)| c).collect()
}

/// Moves a unit along the cheapest free path to `to` without provoking (Intercept
/// movement, F-GAP-13).
pub fn slide(world: &mut World, unit: UnitId, to: Cell) {
    let from = cell_of(world, unit);
    let occupancy = occupancy_for(world, unit);
    let Some((path, _)) = world.resource::<Map>().0.path(from, to, &occupancy) else {
        return;
    };
    let mut cur = from;
    for next in path {
        let cost = world.resource::<Map>().0.step_cost(next).unwrap_or(1);
        emit(
            world,
            Event::Moved {
                unit,
                from: cur,
                to: next,
                cost,
            },
        );
        cur = next;
    }
}

/// Where a Tumble Through past `through` lands: straight through its hex (F-GAP-23).
pub fn tumble_destination(world: &World, unit: UnitId, through: UnitId) -> Cell {
    let a = Board::to_axial(cell_of(world, unit));
    let e = Board::to_axial(cell_of(world, through));
    Board::from_axial(e + (e - a))
}

/// Where a Shove pushes: the hex directly away from the shover (F-GAP-16).
pub fn push_destination(world: &World, unit: UnitId, target: UnitId) -> Cell {
    tumble_destination(world, unit, target)
}

/// Starts a move along a checked path.
pub fn start_move(world: &mut World, unit: UnitId, path: Vec<Cell>, provokes: bool) {
    let dragging = condition_link(world, unit, conditions::GRAPPLING);
    push_frame(
        world,
        Frame::Move {
            unit,
            walk: Walk::new(path, provokes),
            dragging,
        },
    );
}

/// Offers Reaction Attacks on `mover` to these enemies, one at a time (F-25, F-26).
pub fn provoke(world: &mut World, mover: UnitId, trigger: String, candidates: Vec<UnitId>) {
    if candidates.is_empty() {
        return;
    }
    push_frame(
        world,
        Frame::Provoke {
            mover,
            trigger,
            candidates: candidates.into(),
            asking: None,
        },
    );
}

/// One step of the move on top of the frame stack.
pub fn advance_move(world: &mut World) -> Result<(), CommandError> {
    let Some(Frame::Move {
        unit,
        mut walk,
        dragging,
    }) = top_frame(world)
    else {
        return Ok(());
    };
    let pop = |world: &mut World| {
        pop_frame(world);
    };
    if !is_active(world, unit) || walk.is_done() {
        pop(world);
        return Ok(());
    }
    let cur = cell_of(world, unit);
    // F-47, F-GAP-12: before it leaves a threatened hex, each threatener (once per
    // action) may make a Reaction Attack; it resolves before the move goes on.
    let step = walk.next(cur, |from| threateners(world, unit, from));
    if let Some(Frame::Move { walk: w, .. }) = top_frame_mut(world) {
        *w = walk.clone();
    }
    let next = match step {
        walk::Step::Triggered { by, .. } => {
            provoke(world, unit, format!("leaves {cur}"), by);
            return Ok(());
        }
        walk::Step::Enter { to, .. } => to,
        walk::Step::Done => {
            pop(world);
            return Ok(());
        }
    };
    // The path was checked when the move began, but a reaction on the way (an
    // Intercept, a Shove) can put a unit on it. An enemy can't be passed and a move
    // can't end on anyone (F-45), so the mover stops; if it was passing through an
    // ally's hex it steps back to the nearest open hex (PROPOSED, like F-GAP-12).
    let occupancy = move_occupancy(world, unit);
    let taken = match occupancy(next) {
        Occupancy::Free => false,
        Occupancy::Ally => walk.is_done(),
        Occupancy::Blocked => true,
    };
    if taken {
        pop(world);
        emit(
            world,
            Event::MovementStopped {
                unit,
                reason: format!("{next} was taken during the move"),
            },
        );
        if occupancy(cur) != Occupancy::Free
            && let Some(open) = nearest_open(world, cur, &occupancy)
        {
            emit(
                world,
                Event::Moved {
                    unit,
                    from: cur,
                    to: open,
                    cost: 0,
                },
            );
        }
        return Ok(());
    }
    let cost = world.resource::<Map>().0.step_cost(next).unwrap_or(1);
    emit(
        world,
        Event::Moved {
            unit,
            from: cur,
            to: next,
            cost,
        },
    );
    if let Some(d) = dragging.filter(|&d| is_active(world, d)) {
        let from = cell_of(world, d);
        if from != cur {
            emit(
                world,
                Event::Moved {
                    unit: d,
                    from,
                    to: cur,
                    cost: 0,
                },
            );
        }
    }
    // F-39: a Take a Step (the one move that provokes nothing) sets readied
    // actions off only if the level says so (`step_triggers_readied`).
    if walk.provokes || rules(world).step_triggers_readied {
        readied_triggers(world, unit, cur, next);
    }
    Ok(())
}

/// The open hex nearest to `from` that a unit can step to (allies passable), for a
/// mover that must not stay where another unit stands.
fn nearest_open(world: &World, from: Cell, occupancy: &impl Fn(Cell) -> Occupancy) -> Option<Cell> {
    let board = &world.resource::<Map>().0;
    let field = board.movement_field(from, 6, occupancy);
    field
        .iter()
        .filter(|&(&c, _)| c != from && occupancy(c) == Occupancy::Free)
        .min_by_key(|&(&c, &cost)| (cost, c))
        .map(|(&c, _)| c)
}

/// How far a unit's readied action reaches, and the weapon of a readied attack
/// (`None` if that weapon can't attack now): an attack's weapon reach, or its Range
/// if ranged; a Shove the hexes next to it; anything else its threat range (F-37,
/// F-46, F-47).
fn ready_reach(
    world: &World,
    unit: UnitId,
    then: &ReadyAction,
) -> Option<(u32, Option<WeaponDef>)> {
    Some(match then {
        ReadyAction::Attack { weapon } => {
            let weapon = weapon_named(world, unit, weapon.as_deref()).ok()?;
            let reach = if weapon.ranged() {
                weapon.range
            } else {
                reach_with(world, unit, &weapon)
            };
            (reach, Some(weapon))
        }
        ReadyAction::Shove { .. } => (1, None),
        _ => (threat_reach(world, unit), None),
    })
}

/// The readied units in play that are enemies of `of` and wait for `on`, in roster
/// order (asked at every step of every move).
fn readied_enemies(world: &World, of: UnitId, on: ReadyTrigger) -> Vec<(UnitId, Readied)> {
    let mut readied: Vec<(UnitId, Readied)> = flow_state(world)
        .units
        .iter()
        .enumerate()
        .filter_map(|(i, f)| {
            let ready = f.ready.clone().filter(|r| r.on == on)?;
            Some((UnitId(i as u32), ready))
        })
        .collect();
    readied.retain(|&(r, _)| is_active(world, r) && enemies(world, r, of));
    readied
}

/// Sets a readied action off (F-37, F-GAP-18): it is used up, its unit's initiative
/// slot moves to just before `by` from the next round, and the action (an attack
/// with `weapon`, else [`Later::Readied`]) waits on top of the frame stack.
fn fire(world: &mut World, unit: UnitId, by: UnitId, ready: Readied, weapon: Option<WeaponDef>) {
    with_flow_unit(world, unit, |f| f.ready = None);
    let event = match ready.classic_attack() {
        Some(_) => FlowEvent::ReadyTriggered { unit, by },
        None => FlowEvent::ReadiedActionTriggered {
            unit,
            by,
            action: ready.then.describe(),
        },
    };
    emit(world, event);
    flow_state_mut(world).reorders.push((unit, by));
    let later = match weapon {
        Some(weapon) => Later::Attack {
            attacker: unit,
            target: by,
            weapon,
            kind: AttackKind::Readied,
        },
        None => Later::Readied {
            unit,
            by,
            then: ready.then,
        },
    };
    push_frame(world, Frame::Then(later));
}

/// F-37, F-GAP-18: an enemy readied "when an enemy enters my reach" fires when
/// `mover` enters the reach of its readied action ([`ready_reach`]); its initiative
/// slot moves to just before the mover from the next round.
fn readied_triggers(world: &mut World, mover: UnitId, from: Cell, to: Cell) {
    // Which readied enemies the step triggers, read first (each trigger only
    // changes its own unit, the frame stack and the reorders, none of which the
    // test reads), then fired in roster order.
    let triggered: Vec<(UnitId, Readied, Option<WeaponDef>)> = {
        let readied = readied_enemies(world, mover, ReadyTrigger::EntersReach);
        let board = &world.resource::<Map>().0;
        readied
            .into_iter()
            .filter_map(|(r, ready)| {
                let (reach, weapon) = ready_reach(world, r, &ready.then)?;
                let here = cell_of(world, r);
                (board.distance(here, to) <= reach && board.distance(here, from) > reach)
                    .then_some((r, ready, weapon))
            })
            .collect()
    };
    for (r, ready, weapon) in triggered {
        fire(world, r, mover, ready, weapon);
    }
}

/// F-37: enemies readied "when the wizard starts casting" fire as `caster`
/// declares a spell, before it resolves: an attack or a Shove only on a caster in
/// its reach, anything else wherever the caster is.
pub fn readied_on_cast(world: &mut World, caster: UnitId) {
    let readied = readied_enemies(world, caster, ReadyTrigger::Casts);
    if readied.is_empty() {
        return;
    }
    let at = cell_of(world, caster);
    let mut triggered = Vec::new();
    for (r, ready) in readied {
        let Some((reach, weapon)) = ready_reach(world, r, &ready.then) else {
            continue;
        };
        let needs_reach = matches!(
            ready.then,
            ReadyAction::Attack { .. } | ReadyAction::Shove { .. }
        );
        if !needs_reach || world.resource::<Map>().0.distance(cell_of(world, r), at) <= reach {
            triggered.push((r, ready, weapon));
        }
    }
    for (r, ready, weapon) in triggered {
        fire(world, r, caster, ready, weapon);
    }
}

/// The path of a readied Move to `to` (F-37): the cheapest free one, if it is
/// within one Move action's hexes (F-44).
pub fn readied_path(world: &World, unit: UnitId, to: Cell) -> Option<Vec<Cell>> {
    let occupancy = move_occupancy(world, unit);
    let (path, cost) = world
        .resource::<Map>()
        .0
        .path(cell_of(world, unit), to, &occupancy)?;
    (cost <= speed(world, unit) && !path.is_empty()).then_some(path)
}

/// One step of the Reaction-Attack offers on top of the frame stack.
pub fn advance_provoke(world: &mut World) -> Result<(), CommandError> {
    let Some(Frame::Provoke {
        mover,
        trigger,
        mut candidates,
        ..
    }) = top_frame(world)
    else {
        return Ok(());
    };
    let cost = rules(world).reaction_costs.reaction_attack;
    while let Some(c) = candidates.pop_front() {
        if !is_active(world, mover) {
            break;
        }
        if !can_react(world, c)
            || pool(world, c, pools::RP) < cost
            || !threatens(world, c, cell_of(world, mover))
        {
            continue;
        }
        let Some(option) = reaction_attack_option(world, c, mover)? else {
            continue;
        };
        if let Some(Frame::Provoke {
            candidates: left, ..
        }) = top_frame_mut(world)
        {
            *left = candidates.clone();
        }
        emit(
            world,
            FlowEvent::ReactionAttackProvoked {
                attacker: c,
                target: mover,
                trigger: trigger.clone(),
            },
        );
        match policy(world, c) {
            DecisionPolicy::Never => continue,
            DecisionPolicy::Auto => {
                if option.value > 1e-9 {
                    return take_reaction_attack(world, c, mover);
                }
                continue;
            }
            DecisionPolicy::Ask => {
                if let Some(Frame::Provoke { asking, .. }) = top_frame_mut(world) {
                    *asking = Some(c);
                }
                let m = crate::engine::battle::name(world, mover);
                let decision = super::attack::reaction_decision(
                    world,
                    side_of(world, c),
                    format!("{m} {trigger}: make a Reaction Attack?"),
                    format!("react as {m} {trigger}"),
                    &[option],
                );
                world.resource_mut::<Pending>().0 = Some(decision);
                world.resource_mut::<Progress>().0 = true;
                return Ok(());
            }
        }
    }
    pop_frame(world);
    Ok(())
}

/// Answers a pending Reaction-Attack offer.
pub fn answer_provoke(world: &mut World, choice: Option<Choice>) -> Result<(), CommandError> {
    let Some(Frame::Provoke { mover, asking, .. }) = top_frame(world) else {
        return Ok(());
    };
    if let Some(Frame::Provoke { asking, .. }) = top_frame_mut(world) {
        *asking = None;
    }
    match (choice, asking) {
        (Some(c), Some(a)) if c.unit == a && c.reaction == Reaction::ReactionAttack => {
            take_reaction_attack(world, a, mover)
        }
        _ => Ok(()),
    }
}

fn take_reaction_attack(
    world: &mut World,
    unit: UnitId,
    mover: UnitId,
) -> Result<(), CommandError> {
    let Some(weapon) = reaction_weapon(world, unit, cell_of(world, mover)) else {
        return Ok(());
    };
    emit(
        world,
        FlowEvent::Reacted {
            unit,
            reaction: Reaction::ReactionAttack,
            against: mover,
        },
    );
    let cost = rules(world).reaction_costs.reaction_attack;
    change_points(world, unit, pools::RP, -cost, "Reaction Attack");
    make_attack(world, unit, mover, weapon, AttackKind::Reaction)
}

/// How other units stand in the way of `unit`'s move: allies may be passed and
/// enemies not (F-45) — except that a grappler dragging its target can't pass
/// anyone, since both move together and the dragged unit follows into every hex the
/// grappler leaves (F-GAP-15).
pub fn move_occupancy(world: &World, unit: UnitId) -> impl Fn(Cell) -> Occupancy + use<> {
    let occupancy = occupancy_for(world, unit);
    let dragging = condition_link(world, unit, conditions::GRAPPLING).is_some();
    move |cell| match occupancy(cell) {
        Occupancy::Ally if dragging => Occupancy::Blocked,
        other => other,
    }
}

/// The cost of entering each hex of a path, or why it can't be walked (F-45: allies
/// may be passed, enemies not; the move must end on an open hex; F-GAP-15: a
/// grappler dragging its target passes nobody).
pub fn path_cost(world: &World, unit: UnitId, path: &[Cell]) -> Result<u32, CommandError> {
    let occupancy = crate::engine::battle::occupancy_at(world, unit);
    let dragging = condition_link(world, unit, conditions::GRAPPLING);
    let words = crate::engine::battle::PathWords {
        through_enemy: " (only Tumble Through passes an enemy, F-45)",
        ends_occupied: " (F-45)",
        apart: true,
    };
    let drag = |_: Cell, c: Cell, here: Occupancy| match dragging {
        Some(d) if here == Occupancy::Ally => Err(CommandError::PathBlocked(format!(
            "dragging {} it can't pass the ally on {c}: both move together (F-GAP-15)",
            crate::engine::battle::name(world, d)
        ))),
        _ => Ok(()),
    };
    crate::engine::battle::check_steps_with(world, unit, path, occupancy, words, drag)
}

/// A unit's hexes per Move action (F-44).
pub fn speed(world: &World, unit: UnitId) -> u32 {
    world
        .get::<Stats>(crate::engine::battle::entity(world, unit))
        .and_then(|s| s.0.get("Speed").copied())
        .map_or(rules(world).speed, |s| s.max(0) as u32)
}
