//! `actfast`'s rounds and turns (A-02 … … A-25, A-GAP-05,
//! A-GAP-08, A-GAP-10, A-GAP-11, A-GAP-13, A-GAP-15): [`drive`], the one system (in
//! the `Attack` stage), asks each PC to Act Fast or Act Well, sets the round's four
//! steps, starts the next turn when none is on (Burning first, then a shaken side's
//! morale roll and a broken NPC's flight), executes the incoming command or takes
//! the answer to a pending question. The commands spend their actions within their
//! slot's limits and run: moves and an attack's approach ([`super::movement`]),
//! attacks ([`super::attack`]), waiting for the next PC, standing up, putting out
//! flames, escaping holds, items.

use std::collections::BTreeMap;

use bevy_ecs::prelude::*;

use super::attack::{
    attack, best_threat, hurt, leaves, odds, percent, power_name, powers_len, reach_now, riposte,
};
use super::end::end_turn;
use super::events::ActfastEvent;
use super::morale;
use super::movement::{approach_of, path_cost, travel};
use super::order::{self, Limit, Pace, Participant, Role, Slot, Step};
use super::pool;
use super::state::{
    Asking, Morale, TurnBudget, au, au_mut, carries, conds, distance, fault, names, policy, rolls,
    round, round_state, round_state_mut, rules, turn_budget, turn_budget_mut,
};
use super::stats::Condition;
use super::verbs;
use crate::engine::battle::{
    Incoming, Map, Pending, Progress, Sides, TurnState, active_units, board_units, cell_of,
    check_round_limit, emit, entity, halted, is_active, name, occupancy_for, side_of,
};
use crate::engine::board::Cell;
use crate::engine::command::Command;
use crate::engine::conditions::{
    Condition as Cond, Duration, add_condition, end_where, expire_end_of_round,
};
use crate::engine::decision::{DecisionOption, PendingDecision, Pick};
use crate::engine::event::{Event, LeaveCause, RollModifier, Stage};
use crate::engine::spec::DecisionPolicy;
use crate::engine::units::{Conditions, PlayState, SideId, UnitId};

/// The one system: asks the round's choices, starts turns and executes commands.
pub fn drive(world: &mut World) {
    if halted(world) {
        return;
    }
    if world.resource::<Pending>().0.is_some() {
        let Some(answer) = world.resource_mut::<Incoming>().0.take() else {
            return;
        };
        world.resource_mut::<Pending>().0 = None;
        answered(world, answer);
        world.resource_mut::<Progress>().0 = true;
        return;
    }
    if !round_state(world).choosing.is_empty() {
        ask_pace(world);
        return;
    }
    if world.resource::<TurnState>().round > 0 && !round_state(world).ordered {
        set_order(world);
        return;
    }
    let Some(unit) = world.resource::<TurnState>().active else {
        next_turn(world);
        return;
    };
    if !is_active(world, unit) || turn_budget(world).actions == 0 {
        // Defeated on its own turn (a riposte, the flames), or out of actions.
        end_turn(world, unit);
        return;
    }
    let Some(command) = world.resource_mut::<Incoming>().0.take() else {
        return;
    };
    execute(world, unit, command);
}

/// The answer to the pending question.
fn answered(world: &mut World, answer: Command) {
    let asking = round_state_mut(world).asking.take();
    let cases = round_state_mut(world).cases.take();
    match (asking, answer) {
        (Some(Asking::Pace(unit)), Command::Act { verb, .. }) => {
            let fast = verb == verbs::ACT_FAST;
            let why = cases
                .map(|(f, w)| if fast { f } else { w })
                .unwrap_or_default();
            choose_pace(world, unit, if fast { Pace::Fast } else { Pace::Well }, why);
        }
        (Some(Asking::Riposte { by, against }), Command::Act { .. }) => {
            riposte(world, by, against);
        }
        (Some(Asking::Riposte { by, against }), Command::Pass { .. }) => {
            emit(world, ActfastEvent::NoRiposte { unit: by, against });
        }
        _ => {}
    }
}

/// Asks the next PC how it acts this round (A-02, A-GAP-10); a side that answers
/// by itself takes the better case.
fn ask_pace(world: &mut World) {
    let unit = round_state_mut(world).choosing.remove(0);
    if !is_active(world, unit) {
        world.resource_mut::<Progress>().0 = true;
        return;
    }
    let (fast, well) = pace_case(world, unit);
    let side = side_of(world, unit);
    if policy(world, side) != DecisionPolicy::Ask {
        let (pace, why) = if fast.0 > well.0 {
            (Pace::Fast, fast.1)
        } else {
            (Pace::Well, well.1)
        };
        choose_pace(world, unit, pace, why);
        return;
    }
    let who = name(world, unit);
    let option = |verb: &str, label: String, value: f64| {
        DecisionOption::new(
            Command::Act {
                unit,
                verb: verb.into(),
                args: crate::engine::verb::Args::new(),
            },
            label,
        )
        .value(value)
    };
    let npcs = side_names(world, false);
    let chosen = chosen_so_far(world);
    let prompt = if npcs_surprised(world) {
        format!(
            "Round {}: how does {who} act? {npcs} is caught by surprise and acts last \
             (A-04): Act Fast: 1 action, first. Act Well: 2 actions, still before \
             them.{chosen}",
            round(world)
        )
    } else {
        format!(
            "Round {}: how does {who} act? Act Fast: 1 action, before {npcs}. Act Well: \
             2 actions, after them.{chosen}",
            round(world)
        )
    };
    round_state_mut(world).asking = Some(Asking::Pace(unit));
    round_state_mut(world).cases = Some((fast.1.clone(), well.1.clone()));
    world.resource_mut::<Pending>().0 = Some(PendingDecision {
        side,
        prompt,
        about: format!("choose how {who} acts this round"),
        pick: Pick::One,
        options: vec![
            option(
                verbs::ACT_FAST,
                format!("{who}: Act Fast - {}", fast.1),
                fast.0,
            ),
            option(
                verbs::ACT_WELL,
                format!("{who}: Act Well - {}", well.1),
                well.0,
            ),
        ],
        decline: None,
        lookahead: false,
    });
    world.resource_mut::<Progress>().0 = true;
}

/// Whether the NPCs are caught by surprise this round: they act after every PC
/// (A-04, A-GAP-15).
fn npcs_surprised(world: &World) -> bool {
    let cfg = rules(world);
    round_state(world).surprised.is_some_and(|side| {
        order::surprise_active(cfg, round(world))
            && board_units(world)
                .into_iter()
                .any(|u| side_of(world, u) == side && !au(world, u).pc)
    })
}

/// The names of the PC sides (`pc`) or the NPC sides, "the opponents" when several.
fn side_names(world: &World, pc: bool) -> String {
    let sides = world.resource::<Sides>().0.clone();
    let mut names: Vec<String> = Vec::new();
    for (i, s) in sides.iter().enumerate() {
        let any = board_units(world)
            .into_iter()
            .any(|u| side_of(world, u) == SideId(i as u32) && au(world, u).pc == pc);
        if any {
            names.push(s.name.clone());
        }
    }
    match names.len() {
        1 => names.remove(0),
        _ if pc => "the players".into(),
        _ => "the opponents".into(),
    }
}

/// " So far: Ann Act Fast." — the choices made this round.
fn chosen_so_far(world: &World) -> String {
    let made: Vec<String> = active_units(world)
        .into_iter()
        .filter_map(|u| {
            au(world, u).pace.map(|p| {
                format!(
                    "{} {}",
                    name(world, u),
                    match p {
                        Pace::Fast => "Act Fast",
                        Pace::Well => "Act Well",
                    }
                )
            })
        })
        .collect();
    if made.is_empty() {
        String::new()
    } else {
        format!(" So far: {}.", made.join(", "))
    }
}

fn choose_pace(world: &mut World, unit: UnitId, pace: Pace, why: String) {
    au_mut(world, unit).pace = Some(pace);
    emit(
        world,
        ActfastEvent::PaceChosen {
            unit,
            pace: match pace {
                Pace::Fast => "Act Fast",
                Pace::Well => "Act Well",
            }
            .into(),
            why,
        },
    );
}

/// What Act Fast and Act Well are each worth to `unit` now, with the case for each
/// in words (the AI takes the better; the log tells why).
///
/// Act Fast is one attack now plus, if it drops the target, the attack that target
/// would have made on the unit; Act Well is two attacks after the opponents have
/// acted (each a little less sure: the target may move or fall first). With nobody
/// in reach, two actions (a move and an attack) beat one.
pub fn pace_case(world: &World, unit: UnitId) -> ((f64, String), (f64, String)) {
    let mut best: Option<(f64, UnitId, f64, f64)> = None;
    for t in active_units(world) {
        if side_of(world, t) == side_of(world, unit) {
            continue;
        }
        let Some(power) = (0..powers_len(world, unit)).find_map(|i| {
            let p = power_name(world, unit, i);
            reach_now(world, unit, t, Some(&p)).then_some(p)
        }) else {
            continue;
        };
        let Some((_, exp, kill)) = odds(world, unit, t, Some(&power)) else {
            continue;
        };
        let threat = best_threat(world, t, unit);
        let fast = exp + kill * (1.0 + threat);
        if best.is_none_or(|b| fast > b.0) {
            best = Some((fast, t, exp, kill));
        }
    }
    match best {
        None => (
            (0.5, "nobody in reach: one move before the opponents".into()),
            (
                1.5,
                "nobody in reach: two actions, to close in and strike".into(),
            ),
        ),
        Some((_, t, exp, _)) if npcs_surprised(world) => {
            // Both paces act before surprised opponents: two actions beat one.
            let who = name(world, t);
            (
                (
                    exp,
                    format!("one attack on {who}, {exp:.1} expected damage"),
                ),
                (
                    2.0 * exp,
                    format!(
                        "the opponents are surprised and act last: two attacks on {who}, \
                         {exp:.1} expected each"
                    ),
                ),
            )
        }
        Some((fast, t, exp, kill)) => {
            let who = name(world, t);
            (
                (
                    fast,
                    format!(
                        "{} to drop {who} before it acts, {exp:.1} expected damage",
                        percent(kill)
                    ),
                ),
                (
                    1.8 * exp,
                    format!("two attacks on {who} after the opponents, {exp:.1} expected each"),
                ),
            )
        }
    }
}

/// Sets the round's order once every PC has chosen (A-03, A-04, A-GAP-15).
fn set_order(world: &mut World) {
    let cfg = rules(world).clone();
    let r = round(world);
    let surprised = round_state(world).surprised;
    let units = board_units(world);
    let mut parts = Vec::new();
    let mut surprised_role = None;
    for &u in &units {
        let a = au(world, u);
        let role = if a.pc {
            Role::Pc(a.pace.unwrap_or(Pace::Well))
        } else {
            Role::Npc
        };
        if Some(side_of(world, u)) == surprised {
            surprised_role = Some(role.side());
        }
        parts.push(Participant {
            unit: u,
            role,
            conditions: conds(world, u),
        });
    }
    let slots = order::round_order(&cfg, r, surprised_role, &parts);
    // Stunned units miss this turn: the condition lasts exactly that turn.
    for &u in &units {
        if !slots.iter().any(|s| s.unit == u) && carries(world, u, Condition::Stunned) {
            emit(
                world,
                ActfastEvent::CannotAct {
                    unit: u,
                    why: "Stunned: it misses its turn (A-23)".into(),
                },
            );
            end_where(world, u, "it missed its turn", |c| {
                c.name == Condition::Stunned.name()
            });
        }
    }
    let names = |s: Step| match s {
        Step::ActFast => "1. Act Fast",
        Step::Opponents => "2. Opponents",
        Step::ActWell => "3. Act Well",
        Step::Slow => "4. Slow",
    };
    let mut steps: Vec<(String, Vec<(UnitId, u32)>)> = Vec::new();
    for s in &slots {
        let label = names(s.step).to_string();
        match steps.last_mut() {
            Some((l, us)) if *l == label => us.push((s.unit, s.actions)),
            _ => steps.push((label, vec![(s.unit, s.actions)])),
        }
    }
    emit(world, ActfastEvent::Steps { steps });
    let state = round_state_mut(world);
    state.steps = slots.iter().map(|s| (s.unit, s.step, s.actions)).collect();
    state.queue = slots;
    state.ordered = true;
}

/// Starts the next turn in this round's queue; a new round when it is empty.
fn next_turn(world: &mut World) {
    loop {
        let next = {
            let state = round_state_mut(world);
            if state.queue.is_empty() {
                None
            } else {
                Some(state.queue.remove(0))
            }
        };
        match next {
            Some(s) if is_active(world, s.unit) => {
                start_turn(world, s);
                return;
            }
            Some(_) => continue,
            None => {
                let r = round(world);
                if r > 0 {
                    expire_end_of_round(world, r);
                    if check_round_limit(world) {
                        return;
                    }
                }
                start_round(world);
                return;
            }
        }
    }
}

/// Starts a round: fresh reactions (A-05, A-GAP-08), and every PC that chooses is
/// asked. A PC does not choose when it is Slow or Stunned or its side is
/// caught by surprise this round: it acts in step 4 whatever it says.
fn start_round(world: &mut World) {
    if active_units(world).is_empty() {
        return;
    }
    let r = round(world) + 1;
    emit(world, Event::RoundStarted { round: r });
    emit(
        world,
        Event::StageStarted {
            stage: Stage::Attack,
        },
    );
    let cfg = rules(world).clone();
    let surprised = round_state(world)
        .surprised
        .filter(|_| order::surprise_active(&cfg, r));
    let mut choosing = Vec::new();
    for u in active_units(world) {
        let reactions = order::reactions(&cfg, &conds(world, u));
        let slow = carries(world, u, Condition::Slow) || carries(world, u, Condition::Stunned);
        let caught = surprised == Some(side_of(world, u));
        let a = au_mut(world, u);
        a.reactions = reactions;
        a.pace = None;
        if a.pc && !slow && !caught && !a.fleeing {
            choosing.push(u);
        }
    }
    let state = round_state_mut(world);
    state.choosing = choosing;
    state.started.clear();
    state.waited.clear();
    state.ordered = false;
    state.queue.clear();
    state.steps.clear();
}

/// Starts a slot's turn: morale first if its side is shaken (A-GAP-13), then the
/// flames; a fleeing NPC runs for the edge.
fn start_turn(world: &mut World, slot: Slot<UnitId>) {
    let unit = slot.unit;
    let side = side_of(world, unit);
    round_state_mut(world).current = Some(slot.clone());
    let again = round_state(world).started.contains(&unit);
    if again {
        // Back after waiting (A-GAP-10): its turn goes on as it was.
        emit(
            world,
            Event::TurnStarted {
                unit,
                stage: Stage::Attack,
            },
        );
        *turn_budget_mut(world) = TurnBudget {
            actions: turn_actions(world, &slot),
            limit: turn_limit(world, &slot),
            ..Default::default()
        };
        return;
    }
    round_state_mut(world).started.push(unit);
    if carries(world, unit, Condition::Stunned) {
        // Stunned after the round's order was set: it misses this turn.
        emit(
            world,
            ActfastEvent::CannotAct {
                unit,
                why: "Stunned: it misses its turn (A-23)".into(),
            },
        );
        end_where(world, unit, "it missed its turn", |c| {
            c.name == Condition::Stunned.name()
        });
        round_state_mut(world).current = None;
        return;
    }
    let now = (round(world), slot.step);
    if !au(world, unit).pc
        && round_state(world)
            .morale
            .get(&side)
            .and_then(|m| m.due)
            .is_some_and(|fired| now > fired)
    {
        roll_morale(world, side);
        if halted(world) || !is_active(world, unit) {
            return;
        }
    }
    au_mut(world, unit).turns += 1;
    emit(
        world,
        Event::TurnStarted {
            unit,
            stage: Stage::Attack,
        },
    );
    *turn_budget_mut(world) = TurnBudget {
        actions: turn_actions(world, &slot),
        limit: turn_limit(world, &slot),
        ..Default::default()
    };
    if carries(world, unit, Condition::Burning) {
        burn(world, unit);
        if halted(world) || !is_active(world, unit) {
            return;
        }
    }
    if au(world, unit).fleeing {
        flee(world, unit);
    }
}

/// The actions of a slot's turn: a unit made Slow since the round's order was set
/// takes 1.
fn turn_actions(world: &World, slot: &Slot<UnitId>) -> u32 {
    if carries(world, slot.unit, Condition::Slow) {
        slot.actions.min(rules(world).slow_actions)
    } else {
        slot.actions
    }
}

/// The limits of a slot's turn: a Slow NPC moves or attacks.
fn turn_limit(world: &World, slot: &Slot<UnitId>) -> Limit {
    let mut limit = slot.limit;
    if carries(world, slot.unit, Condition::Slow) && !au(world, slot.unit).pc {
        limit.move_or_attack = true;
        limit.max_attacks = Some(limit.max_attacks.unwrap_or(1).min(1));
    }
    limit
}

/// The PC after which `unit` may wait (A-GAP-10: players choose their order
/// within a step): the next unit of its side in the same step, if it has not acted
/// yet this turn nor waited this round.
pub fn wait_after(world: &World, unit: UnitId) -> Option<UnitId> {
    let state = round_state(world);
    if state.waited.contains(&unit) {
        return None;
    }
    let current = state.current.as_ref().filter(|s| s.unit == unit)?;
    let t = turn_budget(world);
    if t.actions < turn_actions(world, current) || t.moved || t.other || t.attacks > 0 {
        return None;
    }
    let side = side_of(world, unit);
    state
        .queue
        .iter()
        .take_while(|s| s.step == current.step)
        .find(|s| side_of(world, s.unit) == side && is_active(world, s.unit))
        .map(|s| s.unit)
}

/// `unit` lets the next PC of its step go first and takes its turn right after it
/// (A-GAP-10).
fn wait(world: &mut World, unit: UnitId) {
    let Some(after) = wait_after(world, unit) else {
        return;
    };
    let state = round_state_mut(world);
    let Some(slot) = state.current.take() else {
        return;
    };
    let at = state
        .queue
        .iter()
        .position(|s| s.unit == after)
        .map_or(0, |i| i + 1);
    state.queue.insert(at, slot);
    state.waited.push(unit);
    emit(world, ActfastEvent::Waited { unit, after });
    emit(world, Event::TurnEnded { unit });
}

/// Burning (A-25, A-GAP-05): a die of damage at the start of the turn, less armor.
fn burn(world: &mut World, unit: UnitId) {
    let cfg = rules(world).clone();
    let faces = match rolls(world, 1, cfg.burning_die) {
        Ok(f) => f,
        Err(e) => return fault(world, e),
    };
    let armor = au(world, unit).armor;
    let dmg = pool::burning_damage(&cfg, faces[0], armor);
    emit(
        world,
        Event::Rolled {
            unit,
            purpose: "the flames (Burning, A-25)".into(),
            dice: format!("1d{}", cfg.burning_die),
            faces: faces.clone(),
            kept: faces.clone(),
            modifiers: if cfg.burning_armor && armor > 0 {
                vec![RollModifier {
                    name: "Armor".into(),
                    value: -(faces[0].min(armor as u32) as i32),
                }]
            } else {
                Vec::new()
            },
            total: dmg as i32,
            target: None,
            against: None,
            outcome: format!("{dmg} damage"),
        },
    );
    let source = crate::engine::conditions::source_of(world, unit, Condition::Burning.name());
    hurt(world, unit, faces, dmg as i32, source);
}

/// Every NPC of a shaken side rolls morale (A-16, A-GAP-13): a roll above its
/// morale save breaks it; next to a PC it surrenders, otherwise it flees.
fn roll_morale(world: &mut World, side: SideId) {
    if let Some(m) = round_state_mut(world).morale.get_mut(&side) {
        m.due = None;
    }
    let cfg = rules(world).clone();
    for u in active_units(world) {
        if side_of(world, u) != side || au(world, u).fleeing || au(world, u).pc {
            continue;
        }
        let faces = match rolls(world, cfg.morale_dice, morale::MORALE_DIE) {
            Ok(f) => f,
            Err(e) => return fault(world, e),
        };
        let a = au(world, u).clone();
        let total = morale::morale_total(&cfg, &faces, a.leadership);
        let breaks = morale::breaks(&cfg, &faces, a.leadership, a.morale);
        emit(
            world,
            Event::Rolled {
                unit: u,
                purpose: "morale (A-16)".into(),
                dice: format!("{}d{}", cfg.morale_dice, morale::MORALE_DIE),
                faces: faces.clone(),
                kept: faces.clone(),
                modifiers: if a.leadership != 0 {
                    vec![RollModifier {
                        name: "Leadership".into(),
                        value: cfg.morale_leadership_sign * a.leadership,
                    }]
                } else {
                    Vec::new()
                },
                total: total as i32,
                target: Some(a.morale),
                against: None,
                outcome: if breaks {
                    format!("above {}: it breaks", a.morale)
                } else {
                    format!("not above {}: it holds", a.morale)
                },
            },
        );
        end_where(world, u, "it rolled morale", |c| c.name == names::WAVERING);
        if !breaks {
            continue;
        }
        let next_to_pc = active_units(world)
            .into_iter()
            .find(|&p| au(world, p).pc && distance(world, u, p) <= 1);
        match morale::broken(&cfg, next_to_pc.is_some()) {
            morale::Broken::Surrenders => {
                let pc = next_to_pc.map(|p| name(world, p)).unwrap_or_default();
                emit(
                    world,
                    ActfastEvent::Broke {
                        unit: u,
                        how: format!("next to {pc}, it throws down its arms"),
                    },
                );
                leaves(world, u, PlayState::Surrendered, LeaveCause::Fled, None);
                if halted(world) {
                    return;
                }
            }
            morale::Broken::Flees => {
                emit(
                    world,
                    ActfastEvent::Broke {
                        unit: u,
                        how: "it runs for the edge of the field".into(),
                    },
                );
                au_mut(world, u).fleeing = true;
                add_condition(world, u, Cond::new(names::FLEEING, Duration::UntilRemoved));
            }
        }
    }
}

/// A fleeing NPC spends every action moving toward the nearest edge and leaves
/// play there (A-GAP-13); one that can't get away surrenders.
fn flee(world: &mut World, unit: UnitId) {
    let board = world.resource::<Map>().0.clone();
    let start = cell_of(world, unit);
    let on_edge = |c: Cell| {
        c.x == 0 || c.y == 0 || c.x as u32 + 1 == board.width() || c.y as u32 + 1 == board.height()
    };
    let occupancy = occupancy_for(world, unit);
    let route = if on_edge(start) {
        Some(Vec::new())
    } else {
        let field = board.movement_field(start, board.width() * board.height() * 2, &occupancy);
        field
            .iter()
            .filter(|(c, _)| on_edge(**c))
            .min_by_key(|(c, cost)| (**cost, **c))
            .and_then(|(&goal, _)| board.path(start, goal, &occupancy))
            .map(|(p, _)| p)
    };
    let Some(route) = route else {
        emit(
            world,
            ActfastEvent::Broke {
                unit,
                how: "cornered, it throws down its arms".into(),
            },
        );
        leaves(world, unit, PlayState::Surrendered, LeaveCause::Fled, None);
        return;
    };
    let moves = au(world, unit).moves;
    let actions = turn_budget(world).actions;
    let mut budget = moves * actions;
    let mut taken = Vec::new();
    for c in route {
        let cost = path_cost(world, &[c]).unwrap_or(1);
        if cost > budget {
            break;
        }
        budget -= cost;
        taken.push(c);
    }
    for _ in 0..actions {
        spend(world, unit, "flee");
    }
    travel(world, unit, taken);
    if is_active(world, unit) && on_edge(cell_of(world, unit)) {
        leaves(world, unit, PlayState::Fled, LeaveCause::Fled, None);
    }
}

fn spend(world: &mut World, unit: UnitId, what: &str) {
    let left = {
        let t = turn_budget_mut(world);
        t.actions = t.actions.saturating_sub(1);
        t.actions
    };
    emit(
        world,
        ActfastEvent::Spent {
            unit,
            what: what.into(),
            left,
        },
    );
}

/// Executes the active unit's command (already checked).
fn execute(world: &mut World, unit: UnitId, command: Command) {
    match command {
        Command::EndTurn { .. } => end_turn(world, unit),
        Command::Move { path, .. } => {
            let stands = carries(world, unit, Condition::Prone);
            let actions = turn_budget(world).actions;
            let cost = order::move_cost(actions, &conds(world, unit)).unwrap_or(1);
            if stands {
                spend(world, unit, "stand up");
                end_where(world, unit, "it stood up", |c| {
                    c.name == Condition::Prone.name()
                });
            }
            for _ in u32::from(stands)..cost {
                spend(world, unit, "move");
            }
            turn_budget_mut(world).moved = true;
            travel(world, unit, path);
        }
        Command::Attack {
            target,
            power,
            options,
            ..
        } => {
            let approach = approach_of(&options).to_vec();
            spend(world, unit, "attack");
            {
                let t = turn_budget_mut(world);
                t.attacks += 1;
                t.other = true;
                if !approach.is_empty() {
                    t.moved = true;
                }
            }
            travel(world, unit, approach);
            if is_active(world, unit) && is_active(world, target) {
                attack(world, unit, target, power.as_deref(), false);
            }
        }
        Command::ActivateItem { item, .. } => {
            spend(world, unit, &format!("use {item}"));
            turn_budget_mut(world).other = true;
            let Some(def) = crate::engine::items::use_item(world, unit, &item) else {
                return;
            };
            if let crate::engine::spec::ItemEffect::Heal(dice) = &def.effect
                && let Err(e) = crate::engine::items::heal(world, unit, dice, &item)
            {
                world.resource_mut::<crate::engine::battle::Fault>().0 = Some(e);
            }
        }
        Command::Act { verb, .. } => act(world, unit, &verb),
        _ => {}
    }
}

fn act(world: &mut World, unit: UnitId, verb: &str) {
    if verb == verbs::WAIT {
        return wait(world, unit);
    }
    turn_budget_mut(world).other = true;
    match verb {
        verbs::STAND => {
            spend(world, unit, "stand up");
            end_where(world, unit, "it stood up", |c| {
                c.name == Condition::Prone.name()
            });
        }
        verbs::EXTINGUISH => {
            spend(world, unit, "put out the flames");
            end_where(world, unit, "the flames are out", |c| {
                c.name == Condition::Burning.name()
            });
        }
        verbs::ESCAPE => {
            spend(world, unit, "escape");
            let cfg = rules(world).clone();
            let a = au(world, unit).clone();
            let pool_n = pool::escape_pool(a.class, a.strength);
            let t = pool::throw(&cfg, pool_n);
            let faces = match rolls(world, t.dice, cfg.pool_die) {
                Ok(f) => f,
                Err(e) => return fault(world, e),
            };
            let reading = pool::read(&cfg, pool_n, &faces, false);
            let free = pool::escapes(&cfg, pool_n, &faces);
            emit(
                world,
                Event::Rolled {
                    unit,
                    purpose: format!(
                        "to escape (Class {} + STR {}, A-GAP-11)",
                        a.class, a.strength
                    ),
                    dice: format!("{}d{}", t.dice, cfg.pool_die),
                    faces: faces.clone(),
                    kept: vec![reading.face],
                    modifiers: Vec::new(),
                    total: reading.face as i32,
                    target: Some(cfg.escape_target as i32),
                    against: None,
                    outcome: if free { "it breaks free" } else { "still held" }.into(),
                },
            );
            if free {
                end_where(world, unit, "it broke free", |c| {
                    c.name == Condition::Grappled.name() || c.name == Condition::Restrained.name()
                });
            }
        }
        _ => {}
    }
}

/// The battle's opening: conditions units start with, and each NPC side's
/// starting number for morale.
pub fn opening(world: &mut World, starts: Vec<(UnitId, Vec<Condition>)>) {
    for (u, cs) in starts {
        for c in cs {
            world
                .get_mut::<Conditions>(entity(world, u))
                .expect("units have conditions")
                .0
                .push(Cond::new(c.name(), Duration::UntilRemoved));
        }
    }
    let mut morale: BTreeMap<SideId, Morale> = BTreeMap::new();
    for u in board_units(world) {
        if !au(world, u).pc {
            morale.entry(side_of(world, u)).or_default().tally.start += 1;
        }
    }
    round_state_mut(world).morale = morale;
}
