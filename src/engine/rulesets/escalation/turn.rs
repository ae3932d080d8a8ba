//! `escalation`'s rounds and turns (E-15 … E-22, E-29, E-40 … E-43, E-49, E-50,
//! E-66, E-GAP-09, E-GAP-10, E-GAP-15, E-GAP-19): [`drive`], the one system (in
//! the `Attack` stage), starts the next turn when none is on, executes the incoming
//! command or takes the answer to a pending decision. A round raises the Escalation
//! die and orders the bands, PCs before enemies, asking a side which of its units
//! acts next; a turn starts with fresh actions and a Dying PC's death save. The
//! commands spend their action (E-21, E-22) and run: Stance, Rally, Delay, Ready
//! (and firing readied actions, E-20), Dicey Move, Stabilize, Coup de Grace,
//! Sustain, Fight in Spirit, Flee; moves and attacks are [`super::movement`] and
//! [`super::attack`].

use bevy_ecs::prelude::*;

use super::actions::ActionKind;
use super::attack::{Manner, basic_power, hurt, make_attack, pay_power, recover, strike, use_heal};
use super::conditions as names;
use super::config::EscalationConfig;
use super::end::{end_turn, last_gasp_save, save_against};
use super::events::EscalationEvent;
use super::movement::{
    disengage, engaged, finish_travel, nearby_limit, provoke, readied_move, travel,
};
use super::powers::Timing;
use super::saves::{DeathSaveOutcome, SaveResult, save_result};
use super::state::{
    Ask, Group, MOVE, TurnActions, band_name, check_roll, die_for, distance, esc, esc_mut,
    esc_state, esc_state_mut, fault, has, header_of, pool_name, roll_pool, rules, save_edge,
    spirit,
};
use super::verbs::{ACT_NOW, REACT, act_now, answering_unit};
use crate::engine::battle::{
    Incoming, Pending, Progress, Sides, TurnState, active_units, board_units, check_round_limit,
    check_victory, emit, entity, halted, is_active, on_board, play_state, side_of,
};
use crate::engine::board::Cell;
use crate::engine::command::Command;
use crate::engine::conditions::{Condition, Duration, add_condition};
use crate::engine::decision::{DecisionOption, PendingDecision, Pick};
use crate::engine::dice::Dice;
use crate::engine::event::{Event, LeaveCause, RollModifier, Stage};
use crate::engine::spec::DecisionPolicy;
use crate::engine::units::{Conditions, PlayState, Powers, SideId, UnitId};

/// The one system: starts turns, executes commands and answers.
pub fn drive(world: &mut World) {
    if halted(world) {
        return;
    }
    if world.resource::<Pending>().0.is_some() {
        let Some(answer) = world.resource_mut::<Incoming>().0.take() else {
            return;
        };
        world.resource_mut::<Pending>().0 = None;
        let ask = esc_state_mut(world).asking.0.take();
        match ask {
            Some(Ask::NextInBand) => {
                let unit = answering_unit(&answer, ACT_NOW);
                if let Some(unit) = unit {
                    start_turn(world, unit);
                }
            }
            Some(Ask::Intercept { mover, path }) => {
                let by = answering_unit(&answer, REACT);
                finish_travel(world, mover, path, by);
            }
            Some(Ask::Interrupt) => {
                if let Command::Attack {
                    unit,
                    target,
                    power: Some(power),
                    ..
                } = answer
                {
                    super::interrupts::interrupt(world, unit, target, &power);
                }
            }
            None => {}
        }
        super::interrupts::offer_interrupts(world);
        world.resource_mut::<Progress>().0 = true;
        return;
    }
    let Some(unit) = world.resource::<TurnState>().active else {
        next_turn(world);
        return;
    };
    let Some(command) = world.resource_mut::<Incoming>().0.take() else {
        if !is_active(world, unit) && !spirit(world, unit) {
            // Dropped on its own turn (an opportunity attack, Confused self-harm,
            // ongoing damage): its turn is over.
            emit(world, Event::TurnEnded { unit });
        }
        return;
    };
    execute(world, unit, command);
    super::interrupts::offer_interrupts(world);
}

/// Starts the next turn: the next unit of the current group, asking its side which
/// when several could go (E-16, E-GAP-09); a new round when the groups are done.
fn next_turn(world: &mut World) {
    loop {
        let mut state = esc_state(world).round.clone();
        let Some(group) = state.groups.first_mut() else {
            let round = world.resource::<TurnState>().round;
            if round == 0 && !state.surprise_done {
                esc_state_mut(world).round.surprise_done = true;
                start_surprise(world);
                continue;
            }
            if round > 0 && check_round_limit(world) {
                return;
            }
            if !start_round(world) {
                return;
            }
            continue;
        };
        group
            .units
            .retain(|&u| on_board(world, u) || spirit(world, u));
        if group.units.is_empty() {
            state.groups.remove(0);
            esc_state_mut(world).round = state;
            continue;
        }
        let units = group.units.clone();
        esc_state_mut(world).round = state;
        if units.len() == 1 {
            start_turn(world, units[0]);
            return;
        }
        let side = side_of(world, units[0]);
        if world.resource::<Sides>().0[side.0 as usize].decisions != DecisionPolicy::Ask {
            start_turn(world, units[0]);
            return;
        }
        let decision = band_decision(world, side, &units);
        esc_state_mut(world).asking.0 = Some(Ask::NextInBand);
        world.resource_mut::<Pending>().0 = Some(decision);
        world.resource_mut::<Progress>().0 = true;
        return;
    }
}

/// The "who acts next in this band" decision (E-16, E-GAP-09): one option per
/// unit, roster order first (the AI's pick).
fn band_decision(world: &World, side: SideId, units: &[UnitId]) -> PendingDecision {
    let band = band_name(world, units[0]);
    let kind = if esc(world, units[0]).pc {
        "PCs"
    } else {
        "enemies"
    };
    let n = units.len() as f64;
    PendingDecision {
        side,
        prompt: format!("Which of your {band} {kind} acts next?"),
        about: format!("choose which of its {band} {kind} acts next"),
        pick: Pick::One,
        options: units
            .iter()
            .enumerate()
            .map(|(i, &u)| {
                DecisionOption::new(
                    act_now(side, u),
                    format!("{} acts", crate::engine::battle::name(world, u)),
                )
                .value(n - i as f64)
            })
            .collect(),
        decline: None,
        lookahead: false,
    }
}

/// Starts a round: the Escalation die, then the groups in band order, PCs before
/// enemies (E-16, E-18). False when nobody can act.
fn start_round(world: &mut World) -> bool {
    let mut units = board_units(world);
    if units.is_empty() {
        return false;
    }
    // E-41: a PC out of the fight for good keeps its turn to Fight in Spirit.
    units.extend(
        (0..world.resource::<crate::engine::battle::Roster>().0.len() as u32)
            .map(UnitId)
            .filter(|&u| spirit(world, u)),
    );
    units.sort();
    let round = world.resource::<TurnState>().round + 1;
    emit(world, Event::RoundStarted { round });
    emit(
        world,
        Event::StageStarted {
            stage: Stage::Attack,
        },
    );
    let value = rules(world).escalation(round);
    let old = esc_state(world).round.escalation;
    esc_state_mut(world).round.escalation = value;
    if value != old {
        emit(world, EscalationEvent::EscalationDie { value });
    }
    let groups = band_groups(world, &units);
    let order: Vec<UnitId> = groups.iter().flat_map(|g| g.units.clone()).collect();
    emit(
        world,
        Event::OrderSet {
            stage: Stage::Attack,
            order,
        },
    );
    let state = &mut esc_state_mut(world).round;
    state.groups = groups;
    state.delayed.clear();
    true
}

/// The Surprise Round: the level's ambushers each take one turn, in band order,
/// before round 1; the Escalation die stays 0 (E-17, E-GAP-10).
fn start_surprise(world: &mut World) {
    let names = rules(world).surprise.clone();
    if names.is_empty() {
        return;
    }
    let units: Vec<UnitId> = board_units(world)
        .into_iter()
        .filter(|&u| names.contains(&crate::engine::battle::name(world, u)))
        .collect();
    if units.is_empty() {
        return;
    }
    emit(
        world,
        EscalationEvent::SurpriseRound {
            units: units.clone(),
        },
    );
    let groups = band_groups(world, &units);
    esc_state_mut(world).round.groups = groups;
}

/// `units` in their band groups, in the order they act (E-16).
fn band_groups(world: &World, units: &[UnitId]) -> Vec<Group> {
    let entrants: Vec<super::initiative::Entrant> = units
        .iter()
        .map(|&u| super::initiative::Entrant {
            unit: u,
            band: esc(world, u).band,
            pc: esc(world, u).pc,
        })
        .collect();
    super::initiative::groups(&entrants)
        .into_iter()
        .map(|units| Group {
            band: esc(world, units[0]).band,
            pc: esc(world, units[0]).pc,
            units,
        })
        .collect()
}

/// Starts `unit`'s turn: fresh actions; a Stunned unit loses its Move action
/// (E-66); a Dying PC makes its death save (E-49, E-50, E-GAP-15).
fn start_turn(world: &mut World, unit: UnitId) {
    if let Some(g) = esc_state_mut(world).round.groups.first_mut() {
        g.units.retain(|&u| u != unit);
    }
    esc_state_mut(world).round.delayed.retain(|&u| u != unit);
    esc_mut(world, unit).turns += 1;
    esc_state_mut(world).turn = TurnActions::default();
    emit(
        world,
        Event::TurnStarted {
            unit,
            stage: Stage::Attack,
        },
    );
    if esc_mut(world, unit).ready.take().is_some() {
        emit(world, EscalationEvent::ReadyLapsed { unit });
    }
    if let Some(kind) = esc_mut(world, unit).lost.take() {
        let t = &mut esc_state_mut(world).turn;
        match kind {
            ActionKind::Quick => t.left.quick = false,
            ActionKind::Move => t.left.moves = false,
            ActionKind::Standard => t.left.standard = false,
        }
        emit(
            world,
            EscalationEvent::ActionSpent {
                unit,
                what: format!(
                    "its readied {} action went off before this turn",
                    kind.name()
                ),
                needs: kind,
                spent: kind,
            },
        );
    }
    if play_state(world, unit) == PlayState::Dying {
        death_save(world, unit);
        return;
    }
    if esc(world, unit).last_gasp.is_some() {
        last_gasp_save(world, unit, true);
        if !is_active(world, unit) && world.resource::<TurnState>().active == Some(unit) {
            emit(world, Event::TurnEnded { unit });
            return;
        }
    }
    if has(world, unit, names::STUNNED) || has(world, unit, names::HELPLESS) {
        esc_state_mut(world).turn.left.moves = false;
        emit(
            world,
            EscalationEvent::ActionSpent {
                unit,
                what: "lost to Stunned".into(),
                needs: ActionKind::Move,
                spent: ActionKind::Move,
            },
        );
    }
}

/// A Dying PC's death save at the start of its turn (E-49, E-50, E-GAP-15).
fn death_save(world: &mut World, unit: UnitId) {
    let me = esc(world, unit).clone();
    let disadvantage = if me.death.failures == 0 && !me.saved_since_drop {
        me.death_save_disadvantage
    } else {
        0
    };
    let net = save_edge(world, unit) - disadvantage;
    let (faces, kept, natural) = match roll_pool(world, net) {
        Ok(r) => r,
        Err(e) => return fault(world, e),
    };
    let c = rules(world).clone();
    let result = save_result(
        natural,
        0,
        i64::from(c.death_save_target),
        i64::from(c.crit_at),
    );
    emit(
        world,
        Event::Rolled {
            unit,
            purpose: "a death save".into(),
            dice: pool_name(net),
            faces,
            kept,
            modifiers: Vec::new(),
            total: natural as i32,
            target: Some(c.death_save_target),
            against: None,
            outcome: match result {
                SaveResult::Fail => "failure",
                SaveResult::Success => "success",
                SaveResult::Crit => "crit",
            }
            .into(),
        },
    );
    let outcome = {
        let m = esc_mut(world, unit);
        m.saved_since_drop = true;
        m.death.record(result, c.death_save_failures)
    };
    match outcome {
        DeathSaveOutcome::Recovers | DeathSaveOutcome::RecoversNow => {
            if let Err(e) = recover(world, unit) {
                return fault(world, e);
            }
            emit(
                world,
                Event::Defeated {
                    unit,
                    state: PlayState::Active,
                    cause: Some(LeaveCause::Recovered),
                    by: None,
                },
            );
            let now = outcome == DeathSaveOutcome::RecoversNow;
            emit(world, EscalationEvent::Recovered { unit, now });
            {
                let m = esc_mut(world, unit);
                m.saved_since_drop = false;
                m.death_save_disadvantage = 0;
            }
            if !now {
                emit(world, Event::TurnEnded { unit });
            }
        }
        DeathSaveOutcome::Failed | DeathSaveOutcome::Dies => {
            let m = esc(world, unit);
            emit(
                world,
                EscalationEvent::DeathSaveFailed {
                    unit,
                    failures: m.death.failures,
                    limit: c.death_save_failures,
                    stabilized: m.death.stabilized,
                },
            );
            if outcome == DeathSaveOutcome::Dies {
                emit(
                    world,
                    Event::Defeated {
                        unit,
                        state: PlayState::Dead,
                        cause: Some(LeaveCause::Died),
                        by: None,
                    },
                );
                emit(world, Event::TurnEnded { unit });
                check_victory(world);
            } else {
                emit(world, Event::TurnEnded { unit });
            }
        }
    }
}

/// Spends the action `needs` for `what` (a better one if that one is gone, E-22)
/// and tells it.
pub(super) fn spend(world: &mut World, unit: UnitId, needs: ActionKind, what: &str) {
    let t = &mut esc_state_mut(world).turn;
    t.acted = true;
    let Some(spent) = t.left.spend(needs) else {
        return;
    };
    emit(
        world,
        EscalationEvent::ActionSpent {
            unit,
            what: what.into(),
            needs,
            spent,
        },
    );
}

/// Executes the active unit's command (already checked); a `Pop off` power then
/// pops its user off the enemies it attacked, skipping the Disengage check: its
/// moves provoke no opportunity attack from them until the end of its turn (E-37).
fn execute(world: &mut World, unit: UnitId, command: Command) {
    let popped = match &command {
        Command::Attack { target, power, .. } => strike(world, unit, *target, power.as_deref())
            .ok()
            .filter(|s| s.header.pop_off)
            .map(|s| {
                let mut them = vec![*target];
                if s.header.all_engaged {
                    them.extend(engaged(world, unit).into_iter().filter(|u| u != target));
                }
                them
            })
            .unwrap_or_default(),
        _ => Vec::new(),
    };
    perform(world, unit, command);
    if !is_active(world, unit) || halted(world) {
        return;
    }
    let turn = esc(world, unit).turns;
    for enemy in popped {
        add_condition(
            world,
            unit,
            Condition::new(names::POPPED_OFF, Duration::EndOfTurnOf { unit, turn })
                .with_source(enemy),
        );
    }
}

/// Carries out the active unit's command.
fn perform(world: &mut World, unit: UnitId, command: Command) {
    match command {
        Command::EndTurn { .. } => end_turn(world, unit),
        Command::Move { path, .. } => {
            spend(world, unit, ActionKind::Move, MOVE);
            travel(world, unit, path, true);
        }
        Command::Attack { target, power, .. } => {
            let Ok(s) = strike(world, unit, target, power.as_deref()) else {
                return;
            };
            if s.header.timing == Timing::Free {
                // E-21: no action spent; each Free power once a turn.
                let turn = esc(world, unit).turns;
                esc_mut(world, unit).free_used.push((s.name.clone(), turn));
                esc_state_mut(world).turn.acted = true;
            } else {
                spend(world, unit, s.header.action, &s.name);
            }
            pay_power(world, unit, &s);
            // E-36: a ranged attack while engaged provokes; so does a power that
            // says so (E-28).
            if (s.ranged || s.header.provokes) && !provoke(world, unit) {
                return;
            }
            if s.header.heal {
                return use_heal(world, unit, target, s.header.free_recovery);
            }
            if !fire_readied(world, unit) {
                return;
            }
            make_attack(world, unit, target, power.as_deref(), Manner::Normal);
        }
        Command::Act { verb, args, .. } => match verb.as_str() {
            super::verbs::DISENGAGE => {
                if let Some(to) = args.cell("to") {
                    disengage(world, unit, to, args.unit("except"));
                }
            }
            super::verbs::STANCE => {
                spend(world, unit, ActionKind::Quick, "switch stance");
                let stance = esc(world, unit).stance.other();
                esc_mut(world, unit).stance = stance;
                let basic = basic_power(esc(world, unit));
                let e = entity(world, unit);
                if let Some(mut powers) = world.get_mut::<Powers>(e)
                    && let Some(first) = powers.0.first_mut()
                {
                    *first = basic;
                }
                emit(
                    world,
                    EscalationEvent::StanceSwitched {
                        unit,
                        stance: stance.name().into(),
                    },
                );
            }
            super::verbs::RALLY => rally(world, unit),
            super::verbs::DELAY => {
                if let Some(band) = args.choice("band") {
                    delay(world, unit, band);
                }
            }
            super::verbs::STABILIZE => {
                if let Some(target) = args.unit("target") {
                    spend(world, unit, ActionKind::Standard, "Stabilize");
                    esc_mut(world, target).death.stabilized = true;
                    emit(world, EscalationEvent::Stabilized { unit, target });
                }
            }
            super::verbs::COUP_DE_GRACE => {
                if let Some(target) = args.unit("target") {
                    for kind in [ActionKind::Standard, ActionKind::Move, ActionKind::Quick] {
                        spend(world, unit, kind, "Coup de Grace");
                    }
                    if !fire_readied(world, unit) {
                        return;
                    }
                    make_attack(world, unit, target, None, Manner::CoupDeGrace);
                }
            }
            super::verbs::READY => ready(world, unit, &args),
            super::verbs::DICEY_MOVE => dicey_move(world, unit, &args),
            super::verbs::GRANT_SAVE => {
                if let Some(target) = args.unit("target") {
                    spend(world, unit, ActionKind::Standard, "grant a Last Gasp save");
                    last_gasp_save(world, target, false);
                }
            }
            super::verbs::SUSTAIN => {
                if let Some(power) = args.name("power") {
                    sustain(world, unit, power);
                }
            }
            super::verbs::FIGHT_IN_SPIRIT => {
                let (Some(ally), Some(boon)) = (args.unit("ally"), args.choice("boon")) else {
                    return;
                };
                let name = match boon {
                    "Attacks" => names::SPIRIT_ATTACKS,
                    "Saves" => names::SPIRIT_SAVES,
                    _ => names::SPIRIT_GUARD,
                };
                let turn = esc(world, unit).turns + 1;
                add_condition(
                    world,
                    ally,
                    Condition::new(name, Duration::EndOfTurnOf { unit, turn }).with_source(unit),
                );
                emit(world, Event::TurnEnded { unit });
            }
            super::verbs::FLEE => {
                let side = side_of(world, unit);
                emit(world, EscalationEvent::Fled { side });
                for u in board_units(world) {
                    if side_of(world, u) == side {
                        emit(
                            world,
                            Event::Defeated {
                                unit: u,
                                state: PlayState::Fled,
                                cause: Some(LeaveCause::Fled),
                                by: None,
                            },
                        );
                    }
                }
                if world.resource::<TurnState>().active.is_some() {
                    emit(world, Event::TurnEnded { unit });
                }
                check_victory(world);
            }
            _ => {}
        },
        _ => {}
    }
}

/// Rally (a Standard action): heal with a Recovery, then save against one
/// save-ends effect (11+) or one-round effect (13+) with the Escalation die
/// added (E-43).
fn rally(world: &mut World, unit: UnitId) {
    spend(world, unit, ActionKind::Standard, "Rally");
    if let Err(e) = recover(world, unit) {
        return fault(world, e);
    }
    let first = world.get::<Conditions>(entity(world, unit)).and_then(|c| {
        c.0.iter()
            .find(|c| {
                matches!(
                    c.duration,
                    Duration::SaveEnds | Duration::EndOfTurnOf { .. }
                )
            })
            .cloned()
    });
    if let Some(c) = first {
        let target = match c.duration {
            Duration::SaveEnds => rules(world).save_target,
            _ => 13,
        };
        // E-43 / E-63: a Shaken unit counts the die as 0 here too.
        let bonus = die_for(world, unit);
        if let Err(e) = save_against(world, unit, &c.name, bonus, target) {
            fault(world, e);
        }
    }
}

/// Delay: the unit's band becomes a lower one for the rest of the battle, and it
/// acts there this round (E-19).
fn delay(world: &mut World, unit: UnitId, band: &str) {
    let Some(b) = band_index(rules(world), band) else {
        return;
    };
    let name = rules(world).initiative_bands[b].clone();
    esc_mut(world, unit).band = b;
    esc_mut(world, unit).turns -= 1;
    emit(world, EscalationEvent::Delayed { unit, band: name });
    let pc = esc(world, unit).pc;
    {
        let state = &mut esc_state_mut(world).round;
        state.delayed.push(unit);
        let key = |g: &Group| (g.band, !g.pc);
        match state.groups.iter().position(|g| g.band == b && g.pc == pc) {
            Some(i) => {
                state.groups[i].units.push(unit);
                state.groups[i].units.sort();
            }
            None => {
                let at = state
                    .groups
                    .iter()
                    .position(|g| key(g) > (b, !pc))
                    .unwrap_or(state.groups.len());
                state.groups.insert(
                    at,
                    Group {
                        band: b,
                        pc,
                        units: vec![unit],
                    },
                );
            }
        }
    }
    emit(world, Event::TurnEnded { unit });
}

/// The band a Delay's value names ("VerySlow" is "Very Slow"), by index.
pub fn band_index(config: &EscalationConfig, value: &str) -> Option<usize> {
    let squash = |s: &str| s.replace(' ', "").to_ascii_lowercase();
    config
        .initiative_bands
        .iter()
        .position(|n| squash(n) == squash(value))
}

/// The action type readying `power` or a Move to `to` takes (E-20): a Move, the
/// power's own action, or a Standard action for the stance's basic attack.
pub fn ready_kind(
    world: &World,
    unit: UnitId,
    power: Option<&str>,
    to: Option<Cell>,
) -> ActionKind {
    match (to, power) {
        (Some(_), _) => ActionKind::Move,
        (None, Some(p)) => header_of(world, unit, p).action,
        (None, None) => ActionKind::Standard,
    }
}

/// Whether a readied action waits for an enemy Nearby (a Move, a non-attack power)
/// rather than one in its attack's reach (E-20).
fn ready_waits_nearby(world: &World, unit: UnitId, ready: &super::units::Readied) -> bool {
    ready.to.is_some()
        || ready
            .power
            .as_deref()
            .is_some_and(|p| header_of(world, unit, p).heal)
}

/// Ready (E-20): spends the readied action's type (a Standard for an attack or a
/// Standard power, a Move for a Move, a Quick for a Quick power) and waits for its
/// trigger until the unit's next turn.
fn ready(world: &mut World, unit: UnitId, args: &crate::engine::verb::Args) {
    let power = args.name("power").map(str::to_string);
    let to = args.cell("to");
    let kind = ready_kind(world, unit, power.as_deref(), to);
    let what = match (to, &power) {
        (Some(c), _) => format!("a Move to {c}"),
        (None, Some(p)) => p.clone(),
        (None, None) => basic_power(esc(world, unit)).name,
    };
    spend(world, unit, kind, "Ready");
    let round = world.resource::<TurnState>().round;
    let readied = super::units::Readied {
        power,
        to,
        kind,
        round,
    };
    let when = if ready_waits_nearby(world, unit, &readied) {
        "before the first enemy Nearby moves a step or attacks"
    } else {
        "before the first enemy in its reach moves a step or attacks"
    };
    esc_mut(world, unit).ready = Some(readied);
    emit(
        world,
        EscalationEvent::Readied {
            unit,
            attack: what,
            when: when.into(),
        },
    );
}

/// Readied actions that `trigger` sets off by acting (a step or an attack) go off
/// first, in roster order (E-20): a readied attack when `trigger` is within its
/// reach; a readied Move or non-attack power when `trigger` is Nearby. In the
/// round it was readied, the readier's band becomes the trigger's; in a later round
/// its next turn lacks the readied action's type. False when `trigger` no longer
/// stands.
pub(super) fn fire_readied(world: &mut World, trigger: UnitId) -> bool {
    let side = side_of(world, trigger);
    for r in active_units(world) {
        let Some(ready) = esc(world, r).ready.clone() else {
            continue;
        };
        if side_of(world, r) == side {
            continue;
        }
        let fires = if ready_waits_nearby(world, r, &ready) {
            distance(world, r, trigger) <= nearby_limit(world)
        } else {
            strike(world, r, trigger, ready.power.as_deref()).is_ok()
        };
        if !fires {
            continue;
        }
        esc_mut(world, r).ready = None;
        let round = world.resource::<TurnState>().round;
        if round == ready.round {
            let band = esc(world, trigger).band;
            esc_mut(world, r).band = band;
        } else {
            esc_mut(world, r).lost = Some(ready.kind);
        }
        emit(world, EscalationEvent::ReadiedFires { unit: r, trigger });
        if let Some(to) = ready.to {
            readied_move(world, r, to);
        } else {
            if let Some(p) = ready.power.as_deref()
                && let Ok(s) = strike(world, r, r, Some(p))
            {
                pay_power(world, r, &s);
            }
            if ready_waits_nearby(world, r, &ready) {
                let free = ready
                    .power
                    .as_deref()
                    .and_then(|p| strike(world, r, r, Some(p)).ok())
                    .is_some_and(|s| s.header.free_recovery);
                use_heal(world, r, r, free);
            } else {
                make_attack(world, r, trigger, ready.power.as_deref(), Manner::Normal);
            }
        }
        if !is_active(world, trigger) || halted(world) {
            return false;
        }
    }
    true
}

/// A Dicey Move (a Move action): 3d6 + Volition against the Difficulty; success
/// gives the reward until the end of the unit's next turn (E-40, E-GAP-19).
fn dicey_move(world: &mut World, unit: UnitId, args: &crate::engine::verb::Args) {
    let Some(difficulty) = args.choice("difficulty").and_then(super::verbs::difficulty) else {
        return;
    };
    spend(world, unit, ActionKind::Move, "Dicey Move");
    let volition = esc(world, unit).volition - esc(world, unit).exhausted;
    let modifiers = vec![RollModifier::new("Volition", volition)];
    let ok = match check_roll(world, unit, "a Dicey Move".into(), 0, modifiers, difficulty) {
        Ok(ok) => ok,
        Err(e) => return fault(world, e),
    };
    if !ok {
        return;
    }
    let turn = esc(world, unit).turns + 1;
    let lasts = Duration::EndOfTurnOf { unit, turn };
    match (args.choice("reward"), args.unit("ally")) {
        (Some("Hazard" | "Hinder"), _) => stunt(world, unit, args, lasts),
        (Some("Aid"), Some(ally)) => {
            add_condition(
                world,
                ally,
                Condition::new(names::DICEY_AID, lasts).with_source(unit),
            );
        }
        _ => {
            add_condition(
                world,
                unit,
                Condition::new(names::DICEY_EDGE, lasts).with_source(unit),
            );
        }
    }
}

/// A Dicey Move's reward on another unit (E-40): `Hazard` deals Level d6
/// environmental damage to `target` (no attack roll, so no crit or resistance);
/// `Hinder` puts `condition` on it until `lasts` (the end of the mover's next turn,
/// E-GAP-19).
fn stunt(world: &mut World, unit: UnitId, args: &crate::engine::verb::Args, lasts: Duration) {
    let Some(target) = args.unit("target") else {
        return;
    };
    if args.choice("reward") == Some("Hinder") {
        if let Some(c) = args.choice("condition") {
            add_condition(world, target, Condition::new(c, lasts).with_source(unit));
        }
        return;
    }
    let level = esc(world, unit).level.max(1) as u32;
    match world.resource_mut::<Dice>().roll_many(level, 6) {
        Ok(faces) => {
            let amount = crate::engine::dice::sum(&faces);
            hurt(world, target, faces, amount, false, Some(unit));
        }
        Err(e) => fault(world, e),
    }
}

/// Sustain (E-29): the action that started the power, and its Sustain roll (3d6 ≥
/// X); on a success its effects last through this turn's end.
fn sustain(world: &mut World, unit: UnitId, power: &str) {
    let h = header_of(world, unit, power);
    spend(world, unit, h.action, &format!("sustain {power}"));
    let ok = if h.sustain > 0 {
        let purpose = format!("a Sustain for {power}");
        match check_roll(world, unit, purpose, 0, Vec::new(), h.sustain as i32) {
            Ok(ok) => ok,
            Err(e) => return fault(world, e),
        }
    } else {
        true
    };
    if ok {
        let me = esc_mut(world, unit);
        let turn = me.turns;
        for s in me.sustaining.iter_mut().filter(|s| s.power == power) {
            s.kept = turn;
        }
    }
}
