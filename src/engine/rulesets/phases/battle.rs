//! Battle Phase (P-13, P-22 … P-28, P-GAP-07, P-GAP-10, P-GAP-13): units act in
//! descending initiative, one battle action each; delayed units may step in before a
//! later unit's turn.

use super::pools;
use super::verbs::{PhasesAction, disengage_path};
use bevy_ecs::prelude::*;

use super::answers::PhasesAnswer;
use super::conditions::*;
use super::events::PhasesEvent;
use super::movement::{execute_move, has, spend, take_answer, take_incoming};
use super::{Step, attack, guarded, round, round_mut};
use crate::engine::battle::{
    Pending, Progress, Sides, TurnState, emit, halted, is_active, side_of,
};
use crate::engine::command::{Command, CommandError};
use crate::engine::conditions::{Condition, Duration, end_where};
use crate::engine::decision::{DecisionOption, PendingDecision, Pick};
use crate::engine::event::{Event, Stage};
use crate::engine::items;
use crate::engine::spec::{DecisionPolicy, ItemEffect};
use crate::engine::units::*;

/// Runs the Battle Phase.
pub fn battle_phase(world: &mut World) {
    guarded(world, |world| {
        loop {
            if halted(world) || round(world).step != Step::Battle {
                return Ok(());
            }
            if !battle_step(world)? {
                return Ok(());
            }
        }
    });
}

/// The act-from-delay decision (P-26, P-GAP-13) for `side`'s `held` units
/// (descending initiative) before `next` starts its turn: one option per held unit,
/// `ActNow(units: [unit])`, any several of them (merged into one `ActNow`), or
/// keep waiting. Acting is worth 1 to each (a side delays only to act later), so
/// the AI acts as soon as it is asked.
pub fn act_now_decision(
    world: &World,
    side: SideId,
    next: UnitId,
    held: &[UnitId],
) -> PendingDecision {
    let name = |u: UnitId| crate::engine::battle::name(world, u);
    PendingDecision {
        side,
        prompt: format!("Before {} acts: do your delayed units act now?", name(next)),
        about: format!(
            "decide which held units act now, before {}'s turn",
            name(next)
        ),
        pick: Pick::Several,
        options: held
            .iter()
            .map(|&u| {
                let act = PhasesAnswer::ActNow.by(side, vec![u]);
                DecisionOption::new(act, format!("{} acts now", name(u))).value(1.0)
            })
            .collect(),
        decline: Some(DecisionOption::new(
            PhasesAnswer::ActNow.by(side, Vec::new()),
            "Keep waiting",
        )),
        lookahead: false,
    }
}

/// One step; false when waiting for input.
fn battle_step(world: &mut World) -> Result<bool, CommandError> {
    if let Some(active) = world.resource::<TurnState>().active {
        return act(world, active);
    }
    if world.resource::<Pending>().0.is_some() {
        return answer_delay_window(world);
    }
    // Drop units that left play.
    loop {
        let front = round(world).queue.front().copied();
        match front {
            Some(u) if !is_active(world, u) => {
                round_mut(world).queue.pop_front();
            }
            _ => break,
        }
    }
    let next = round(world).queue.front().copied();
    let Some(next) = next else {
        // Held units that never declared act at the end of the phase (P-GAP-13).
        let held = round(world).held.clone();
        if let Some(&u) = held.iter().find(|&&u| is_active(world, u)) {
            round_mut(world).held.retain(|&h| h != u);
            emit(world, PhasesEvent::ActedFromDelay { unit: u });
            start_turn(world, u);
            return Ok(true);
        }
        round_mut(world).step = Step::End;
        emit(
            world,
            Event::StageStarted {
                stage: Stage::EndOfTurn,
            },
        );
        return Ok(false);
    };
    // The delay window before `next` starts (P-26: declare before its turn starts).
    let window_open = round(world).window.as_ref().map(|w| w.0);
    if window_open != Some(next) {
        let held: Vec<UnitId> = round(world).held.clone();
        let mut sides: Vec<SideId> = Vec::new();
        for &u in &held {
            let s = side_of(world, u);
            let asks = world.resource::<Sides>().0[s.0 as usize].decisions == DecisionPolicy::Ask;
            if asks && is_active(world, u) && !sides.contains(&s) {
                sides.push(s);
            }
        }
        let flow = round_mut(world);
        flow.window = Some((next, sides.into()));
        flow.acting_now.clear();
    }
    let side = round_mut(world)
        .window
        .as_mut()
        .and_then(|w| w.1.pop_front());
    if let Some(side) = side {
        let held: Vec<UnitId> = round(world)
            .held
            .iter()
            .copied()
            .filter(|&u| side_of(world, u) == side && is_active(world, u))
            .collect();
        let decision = act_now_decision(world, side, next, &held);
        world.resource_mut::<Pending>().0 = Some(decision);
        world.resource_mut::<Progress>().0 = true;
        return Ok(false);
    }
    // Window closed: declared units first (descending initiative), then `next`. A
    // declared unit that left play since (one acting before it defeated it) doesn't.
    let gone: Vec<UnitId> = round(world)
        .acting_now
        .iter()
        .copied()
        .filter(|&u| !is_active(world, u))
        .collect();
    let flow = round_mut(world);
    flow.acting_now.retain(|u| !gone.contains(u));
    flow.held.retain(|u| !gone.contains(u));
    let unit = if flow.acting_now.is_empty() {
        flow.queue.pop_front();
        flow.window = None;
        next
    } else {
        let first = flow.acting_now.remove(0);
        flow.held.retain(|h| *h != first);
        emit(world, PhasesEvent::ActedFromDelay { unit: first });
        first
    };
    start_turn(world, unit);
    Ok(true)
}

fn answer_delay_window(world: &mut World) -> Result<bool, CommandError> {
    let Some(units) = take_answer(world, PhasesAnswer::ActNow) else {
        return Ok(false);
    };
    world.resource_mut::<Pending>().0 = None;
    let descending = round(world).descending.clone();
    let flow = round_mut(world);
    flow.acting_now.extend(units);
    flow.acting_now
        .sort_by_key(|u| descending.iter().position(|d| d == u));
    Ok(true)
}

/// Starts a unit's Battle turn; Defend ends now (P-GAP-10).
fn start_turn(world: &mut World, unit: UnitId) {
    emit(
        world,
        Event::TurnStarted {
            unit,
            stage: Stage::Attack,
        },
    );
    let reason = "its turn started (P-GAP-10)";
    crate::engine::conditions::expire_turn_start(world, unit, reason);
    // A movement power's Defending lasts the round (`applies`), but Defend's effect
    // ends at the defender's Battle turn all the same.
    if has(world, unit, DEFENDING) {
        emit(
            world,
            Event::ConditionRemoved {
                unit,
                name: DEFENDING.into(),
                reason: reason.into(),
            },
        );
    }
}

/// Executes the active unit's battle command, if one came in.
fn act(world: &mut World, unit: UnitId) -> Result<bool, CommandError> {
    let Some(cmd) = take_incoming(world, |c| c.unit() == Some(unit)) else {
        return Ok(false);
    };
    match cmd {
        Command::Attack { target, power, .. } => {
            let def = super::check::power_named(world, unit, power.as_deref())?;
            spend(world, unit, pools::BATTLE_ACTION, "Attack");
            attack::resolve(world, unit, target, &def, false)?;
        }
        Command::Act { .. } => match PhasesAction::of(&cmd) {
            Some(PhasesAction::Defend) => {
                spend(world, unit, pools::BATTLE_ACTION, "Defend");
                emit(world, PhasesEvent::Defended { unit });
                attack::add_condition(
                    world,
                    unit,
                    Condition::new(DEFENDING, Duration::UntilOwnNextTurn),
                );
            }
            Some(PhasesAction::Disengage { to }) => {
                spend(world, unit, pools::BATTLE_ACTION, "Disengage");
                let def = super::check::disengage_power(world)?;
                let path = disengage_path(world, unit, to)?;
                execute_move(world, unit, &def, &path, None)?;
            }
            Some(PhasesAction::Delay) => {
                emit(world, PhasesEvent::Delayed { unit });
                let flow = round_mut(world);
                flow.held.push(unit);
                flow.delayed.push(unit);
            }
            None => {}
        },
        Command::ActivateItem { item, target, .. } => {
            spend(world, unit, pools::BATTLE_ACTION, &item);
            activate_item(world, unit, &item, target)?;
        }
        _ => {}
    }
    if !halted(world) {
        emit(world, Event::TurnEnded { unit });
    }
    Ok(true)
}

fn activate_item(
    world: &mut World,
    unit: UnitId,
    name: &str,
    target: Option<UnitId>,
) -> Result<(), CommandError> {
    let item = items::use_item(world, unit, name).ok_or_else(|| CommandError::Unknown {
        unit: String::new(),
        kind: "item",
        name: name.into(),
    })?;
    match item.effect {
        ItemEffect::Heal(dice) => {
            items::heal(world, unit, &dice, &item.name)?;
        }
        ItemEffect::Power(power) => {
            if let Some(t) = target {
                attack::resolve(world, unit, t, &power, false)?;
            }
        }
        ItemEffect::Cleanse => {
            let reason = format!("cleansed by {}", item.name);
            end_where(world, unit, &reason, |c| c.duration == Duration::SaveEnds);
        }
    }
    Ok(())
}
