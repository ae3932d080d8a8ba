//! Rounds and turns (F-02 … F-09, F-12, F-16, F-35, F-37, F-40, F-43, F-GAP-08,
//! F-GAP-09, F-GAP-18, F-GAP-19, F-GAP-22): initiative once per battle, the
//! surprise round, turn start refills, the driver that runs commands and frames and
//! answers reaction decisions, and the end of each turn and round.

use bevy_ecs::prelude::*;

use super::events::FlowEvent;
use crate::engine::event::{Event, Stage};
use crate::engine::schedule::TurnQueue;

use super::actions::{execute, remove_condition, run_deferred};
use super::attack::{Choice, resolve};
use super::conditions::*;
use super::movement::{advance_move, advance_provoke, answer_provoke};
use super::*;
use crate::engine::battle::{
    Incoming, Pending, TurnState, check_round_limit, check_victory, emit, halted, side_of,
};
use crate::engine::command::Command;
use crate::engine::dice::Dice;
use crate::engine::initiative::roll_off;

fn max_points(world: &World, unit: UnitId, p: Pool) -> i32 {
    let stats = world.get::<Stats>(entity(world, unit));
    let (stat, default) = match p {
        pools::AP => ("AP", rules(world).ap),
        _ => ("RP", rules(world).rp),
    };
    stats
        .and_then(|s| s.0.get(stat).copied())
        .unwrap_or(default)
}

fn surprisers(world: &World) -> Vec<SideId> {
    let names = &rules(world).surprisers;
    world
        .resource::<Sides>()
        .0
        .iter()
        .enumerate()
        .filter(|(_, s)| names.iter().any(|n| n.eq_ignore_ascii_case(&s.name)))
        .map(|(i, _)| SideId(i as u32))
        .collect()
}

/// Starts a round: the first rolls initiative and fills the pools (F-02, F-09,
/// F-12, F-43); later ones apply Ready's moves in the order (F-37) and give the
/// surprised their FP after a Surprise Round.
pub fn round_start(world: &mut World) {
    if halted(world) || flow_state(world).step != Step::RoundStart {
        return;
    }
    guarded(world, |world| {
        let round = world.resource::<TurnState>().round + 1;
        emit(world, Event::RoundStarted { round });
        if round == 1 {
            emit(
                world,
                Event::StageStarted {
                    stage: Stage::Initiative,
                },
            );
            let order = roll_initiative(world)?;
            emit(
                world,
                Event::OrderSet {
                    stage: Stage::Attack,
                    order: order.clone(),
                },
            );
            flow_state_mut(world).queue = TurnQueue::new(order);
            let surprising = surprisers(world);
            let start_fp = rules(world).start_fp;
            for u in active_units(world) {
                let surprised = !surprising.is_empty() && !surprising.contains(&side_of(world, u));
                with_flow_unit(world, u, |f| f.surprised = surprised);
                let (ap, rp, fp) = if surprised {
                    (0, 0, 0)
                } else {
                    (
                        max_points(world, u, pools::AP),
                        max_points(world, u, pools::RP),
                        start_fp,
                    )
                };
                set_points(world, u, pools::AP, ap, "start of combat");
                set_points(world, u, pools::RP, rp, "start of combat");
                set_points(world, u, pools::FP, fp, "start of combat");
            }
            if !surprising.is_empty() {
                emit(
                    world,
                    FlowEvent::SurpriseRound {
                        surprisers: surprising,
                    },
                );
                flow_state_mut(world).surprise_round = true;
            }
        } else {
            let reorders = std::mem::take(&mut flow_state_mut(world).reorders);
            if !reorders.is_empty() {
                let mut queue = flow_state(world).queue.clone();
                for (unit, before) in reorders {
                    queue.move_before(unit, before);
                }
                emit(
                    world,
                    Event::OrderSet {
                        stage: Stage::Attack,
                        order: queue.order().to_vec(),
                    },
                );
                flow_state_mut(world).queue = queue;
            }
            if std::mem::take(&mut flow_state_mut(world).surprise_round) {
                // F-43: the surprised get their FP at the start of the first normal round.
                let start_fp = rules(world).start_fp;
                for u in active_units(world) {
                    if flow_unit(world, u).surprised {
                        change_points(world, u, pools::FP, start_fp, "first normal round");
                    }
                }
            }
        }
        emit(
            world,
            Event::StageStarted {
                stage: Stage::Attack,
            },
        );
        let st = flow_state_mut(world);
        st.queue.restart();
        st.step = Step::Turns;
        Ok(())
    });
}

/// Rolls 1d10 + AgiMod for every unit (roster order) and orders them: total, then
/// AgiMod, then PCs first, then the shared, bounded roll-off on the tie die
/// ([`crate::engine::initiative::roll_off`], F-02, F-GAP-08).
pub fn roll_initiative(world: &mut World) -> Result<Vec<UnitId>, CommandError> {
    let die = rules(world).initiative_die.get();
    let tie_die = rules(world).tie_die;
    let mut rows = Vec::new();
    for u in active_units(world) {
        let agi = world
            .get::<Stats>(entity(world, u))
            .map_or(0, |s| s.get("AgiMod"));
        let face = world.resource_mut::<Dice>().roll(die)?;
        let total = face as i32 + agi;
        emit(
            world,
            Event::InitiativeRolled {
                unit: u,
                faces: vec![face],
                modifier: agi,
                total,
            },
        );
        rows.push((u, (total, agi, flow_unit(world, u).pc)));
    }
    rows.sort_by_key(|r| std::cmp::Reverse(r.1));
    let mut order = Vec::new();
    let mut i = 0;
    while i < rows.len() {
        let j = rows[i..].iter().take_while(|r| r.1 == rows[i].1).count() + i;
        let group: Vec<UnitId> = rows[i..j].iter().map(|r| r.0).collect();
        order.extend(roll_off(world, group, tie_die)?);
        i = j;
    }
    Ok(order)
}

/// Runs turns: answers pending reactions, advances suspended frames, starts turns
/// and executes the active unit's commands, until input is needed.
pub fn drive(world: &mut World) {
    guarded(world, |world| {
        loop {
            if halted(world) {
                return Ok(());
            }
            if world.resource::<Pending>().0.is_some() {
                if !answer(world)? {
                    return Ok(());
                }
                continue;
            }
            let top = top_frame(world);
            if let Some(frame) = top {
                advance(world, frame)?;
                continue;
            }
            if flow_state(world).step != Step::Turns {
                return Ok(());
            }
            let Some(active) = world.resource::<TurnState>().active else {
                if !next_turn(world) {
                    return Ok(());
                }
                continue;
            };
            let out_of_ap = rules(world).auto_end_turn && pool(world, active, pools::AP) <= 0;
            if flow_state(world).end_turn || out_of_ap || !is_active(world, active) {
                flow_state_mut(world).step = Step::TurnEnd;
                return Ok(());
            }
            let cmd = {
                let mut incoming = world.resource_mut::<Incoming>();
                if incoming
                    .0
                    .as_ref()
                    .is_some_and(|c| c.unit() == Some(active))
                {
                    incoming.0.take()
                } else {
                    None
                }
            };
            let Some(cmd) = cmd else { return Ok(()) };
            execute(world, active, cmd)?;
        }
    });
}

fn advance(world: &mut World, frame: Frame) -> Result<(), CommandError> {
    match frame {
        Frame::Move { .. } => advance_move(world),
        Frame::Provoke {
            asking: Some(_), ..
        } => answer_provoke(world, None),
        Frame::Provoke { .. } => advance_provoke(world),
        Frame::Attack(ctx) => {
            pop_frame(world);
            resolve(world, ctx, None)
        }
        Frame::Then(d) => {
            pop_frame(world);
            run_deferred(world, d)
        }
    }
}

/// Applies the answer to a pending reaction decision; false if none came in.
fn answer(world: &mut World) -> Result<bool, CommandError> {
    let cmd = {
        let mut incoming = world.resource_mut::<Incoming>();
        if incoming
            .0
            .as_ref()
            .is_some_and(|c| matches!(c, Command::React { .. } | Command::Pass { .. }))
        {
            incoming.0.take()
        } else {
            None
        }
    };
    let Some(cmd) = cmd else { return Ok(false) };
    world.resource_mut::<Pending>().0 = None;
    let choice = match cmd {
        Command::React {
            unit,
            reaction,
            to,
            swap,
            ..
        } => Some(Choice {
            unit,
            reaction,
            to,
            swap,
        }),
        _ => None,
    };
    match top_frame(world) {
        Some(Frame::Attack(ctx)) => {
            pop_frame(world);
            resolve(world, ctx, choice)?;
        }
        Some(Frame::Provoke { .. }) => answer_provoke(world, choice)?,
        _ => {}
    }
    Ok(true)
}

/// Starts the next unit's turn, or ends the round; false when the round ended.
fn next_turn(world: &mut World) -> bool {
    let surprising = surprisers(world);
    let surprise = flow_state(world).surprise_round;
    // Taken out while the eligibility test reads the world, then put back.
    let mut queue = std::mem::take(&mut flow_state_mut(world).queue);
    let next = queue.next_where(|u| {
        is_active(world, u) && (!surprise || surprising.contains(&side_of(world, u)))
    });
    flow_state_mut(world).queue = queue;
    let Some(u) = next else {
        flow_state_mut(world).step = Step::RoundEnd;
        return false;
    };
    start_turn(world, u);
    true
}

/// F-09, F-GAP-09: AP and RP refill to their maximum (temporary RP lapse), Total
/// Defense and an untriggered Ready end, a grappler pays its upkeep (F-GAP-15).
fn start_turn(world: &mut World, unit: UnitId) {
    emit(
        world,
        Event::TurnStarted {
            unit,
            stage: Stage::Attack,
        },
    );
    with_flow_unit(world, unit, |f| {
        f.turns += 1;
        f.moves = 0;
        f.allowance = 0;
        f.surprised = false;
    });
    flow_state_mut(world).end_turn = false;
    let ap = max_points(world, unit, pools::AP);
    let rp = max_points(world, unit, pools::RP);
    set_points(world, unit, pools::AP, ap, "turn start");
    set_points(world, unit, pools::RP, rp, "turn start");
    crate::engine::conditions::expire_turn_start(world, unit, "its turn started");
    if let Some(ready) = flow_unit(world, unit).ready {
        with_flow_unit(world, unit, |f| f.ready = None);
        let what = match ready.classic_attack() {
            Some(_) => "attack".to_string(),
            None => ready.then.describe(),
        };
        emit(
            world,
            Event::MovementStopped {
                unit,
                reason: format!("its readied {what} lapsed; the AP set aside are lost (F-GAP-18)"),
            },
        );
    }
    if has(world, unit, GRAPPLING) {
        let upkeep = rules(world).costs.grapple_upkeep;
        if pool(world, unit, pools::AP) >= upkeep {
            declare(world, unit, "Keep the grapple", upkeep);
        } else if let Some(t) = condition_link(world, unit, GRAPPLING) {
            remove_condition(world, unit, GRAPPLING, "could not pay the upkeep");
            remove_condition(world, t, GRAPPLED, "the grappler let go");
        }
    }
}

/// End of a turn, then end of the round.
pub fn end_steps(world: &mut World) {
    if halted(world) {
        return;
    }
    let step = flow_state(world).step;
    guarded(world, |world| {
        match step {
            Step::TurnEnd => {
                if let Some(u) = world.resource::<TurnState>().active {
                    end_turn(world, u)?;
                }
                if !halted(world) {
                    flow_state_mut(world).step = Step::Turns;
                }
            }
            Step::RoundEnd => {
                emit(
                    world,
                    Event::StageStarted {
                        stage: Stage::EndOfTurn,
                    },
                );
                expire(world);
                if !check_round_limit(world) {
                    flow_state_mut(world).step = Step::RoundStart;
                }
            }
            _ => {}
        }
        Ok(())
    });
}

/// F-06, F-16, F-35, F-GAP-22: ongoing effects, then FP decay (not after Flow
/// State), then effects lasting to the end of this turn, unused AP, TurnEnded.
fn end_turn(world: &mut World, unit: UnitId) -> Result<(), CommandError> {
    flow_state_mut(world).end_turn = false;
    if is_active(world, unit) {
        let ongoing = rules(world).ongoing.clone();
        for (cond, dice) in ongoing {
            if !has(world, unit, &cond) || !is_active(world, unit) {
                continue;
            }
            let source = crate::engine::conditions::source_of(world, unit, &cond);
            let roll = dice.roll(&mut world.resource_mut::<Dice>())?;
            let amount = roll.total.max(0) as i32;
            let hp = world.get::<Health>(entity(world, unit)).map_or(0, |h| h.hp) - amount;
            emit(
                world,
                Event::Damaged {
                    unit,
                    faces: roll.faces.iter().map(|&(_, f)| f).collect(),
                    amount,
                    hp,
                    source,
                },
            );
            if hp <= 0 {
                emit(
                    world,
                    Event::Defeated {
                        unit,
                        state: PlayState::Down,
                        cause: Some(crate::engine::event::LeaveCause::Damage),
                        by: source,
                    },
                );
                super::attack::release_grapples(world, unit);
                if check_victory(world) {
                    return Ok(());
                }
            }
        }
    }
    if is_active(world, unit) {
        if has(world, unit, FLOW_STATE) {
            remove_condition(world, unit, FLOW_STATE, "FP kept (F-35)");
        } else {
            let decay = rules(world).fp_decay;
            change_points(world, unit, pools::FP, -decay, "end-of-turn decay (F-16)");
        }
        let turns = flow_unit(world, unit).turns;
        crate::engine::conditions::expire_turn_end(world, unit, turns, "end of its turn");
        set_points(world, unit, pools::AP, 0, "unused AP lost (F-07)");
    }
    emit(world, Event::TurnEnded { unit });
    Ok(())
}

/// Ends conditions lasting until the end of this round (F-05).
fn expire(world: &mut World) {
    let round = world.resource::<TurnState>().round;
    crate::engine::conditions::expire_end_of_round(world, round);
}
