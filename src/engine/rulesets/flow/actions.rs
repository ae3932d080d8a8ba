//! Executing a unit's commands during its turn (F-03, F-07, F-08, F-32 … F-42,
//! F-GAP-10, F-GAP-15 … F-GAP-18, F-GAP-23). Legality is checked first by
//! [`super::check`]; here the AP are spent and the rules run, pushing frames when an
//! action provokes Reaction Attacks.

use bevy_ecs::prelude::*;

use super::events::FlowEvent;
use crate::engine::event::Event;

use super::attack::{make_attack, roll_check};
use super::conditions::*;
use super::movement::{
    path_cost, provoke, push_destination, readied_on_cast, speed, start_move, tumble_destination,
};
use super::*;
use crate::engine::battle::{Map, TurnState, emit, occupancy_for};
use crate::engine::board::Occupancy;
use crate::engine::command::Command;
use crate::engine::conditions::{Condition, Duration};
use crate::engine::items;
use crate::engine::skill::{SuccessLevel, responder_wins};
use crate::engine::spec::ItemEffect;

fn round(world: &World) -> u32 {
    world.resource::<TurnState>().round
}

fn add_condition(world: &mut World, unit: UnitId, condition: Condition) {
    if has(world, unit, &condition.name) {
        remove_condition(world, unit, &condition.name, "refreshed");
    }
    emit(world, Event::ConditionAdded { unit, condition });
}

/// Removes a condition if present.
pub fn remove_condition(world: &mut World, unit: UnitId, name: &str, reason: &str) {
    if has(world, unit, name) {
        emit(
            world,
            Event::ConditionRemoved {
                unit,
                name: name.into(),
                reason: reason.into(),
            },
        );
    }
}

/// Whether a hex is open: on the map, passable, nobody standing there.
pub fn open_hex(world: &World, cell: Cell) -> bool {
    let board = &world.resource::<Map>().0;
    board.contains(cell)
        && board.step_cost(cell).is_some()
        && !active_units(world)
            .into_iter()
            .any(|u| cell_of(world, u) == cell)
}

/// Executes a checked command of the active unit.
pub fn execute(world: &mut World, unit: UnitId, command: Command) -> Result<(), CommandError> {
    let costs = rules(world).costs;
    match command {
        Command::EndTurn { .. } => flow_state_mut(world).end_turn = true,
        Command::Move { power, path, .. } => {
            if power.eq_ignore_ascii_case("Step") {
                // F-39: 1 hex, no Reaction Attacks, once per round, outside the cap.
                declare(world, unit, "Take a Step", costs.step);
                let r = round(world);
                with_flow_unit(world, unit, |f| f.stepped = Some(r));
                start_move(world, unit, path, false);
            } else {
                let cost = path_cost(world, unit, &path)?;
                let fu = flow_unit(world, unit);
                if cost <= fu.allowance {
                    // F-GAP-10: the rest of the current Move action.
                    with_flow_unit(world, unit, |f| f.allowance -= cost);
                } else {
                    declare(world, unit, "Move", costs.move_action);
                    let budget = speed(world, unit);
                    with_flow_unit(world, unit, |f| {
                        f.moves += 1;
                        f.allowance = budget.saturating_sub(cost);
                    });
                }
                start_move(world, unit, path, true);
            }
        }
        Command::Attack { target, power, .. } => {
            let weapon = weapon_named(world, unit, power.as_deref())?;
            declare(world, unit, "Attack", costs.attack);
            let distracting = weapon.ranged() || weapon.category == WeaponCategory::Spell;
            if distracting {
                // F-26, F-GAP-12: shooting or casting in an enemy's threat range
                // provokes; the Reaction Attacks come first, and don't stop a spell (F-27).
                let spell = weapon.category == WeaponCategory::Spell;
                let what = if spell {
                    "casts a spell"
                } else {
                    "makes a ranged attack"
                };
                push_frame(
                    world,
                    Frame::Then(Later::Attack {
                        attacker: unit,
                        target,
                        weapon,
                        kind: AttackKind::Normal,
                    }),
                );
                let here = cell_of(world, unit);
                let t = threateners(world, unit, here);
                provoke(world, unit, what.into(), t);
                if spell {
                    // F-37: "when the wizard starts casting" — before the spell
                    // and the Reaction Attacks it provoked.
                    readied_on_cast(world, unit);
                }
            } else {
                make_attack(world, unit, target, weapon, AttackKind::Normal)?;
            }
        }
        Command::ActivateItem { item, target, .. } => {
            let def = world
                .get::<Items>(entity(world, unit))
                .and_then(|i| i.0.iter().find(|i| i.name == item).cloned());
            let Some(def) = def else { return Ok(()) };
            let potion = matches!(def.effect, ItemEffect::Heal(_));
            let cost = item_cost(&costs, &def);
            declare(world, unit, &format!("Use {item}"), cost);
            push_frame(
                world,
                Frame::Then(Later::Item {
                    unit,
                    item: item.clone(),
                    target,
                }),
            );
            if potion {
                // F-GAP-12: drinking a potion distracts.
                let here = cell_of(world, unit);
                let t = threateners(world, unit, here);
                provoke(world, unit, "drinks a potion".into(), t);
            }
        }
        Command::Act { verb, args, .. } => {
            flow_action(world, unit, FlowAction::from_act(&verb, &args)?)?
        }
        _ => {}
    }
    Ok(())
}

fn flow_action(world: &mut World, unit: UnitId, action: FlowAction) -> Result<(), CommandError> {
    let costs = rules(world).costs;
    let r = round(world);
    match action {
        FlowAction::Disarm { target, take, to } => {
            let weapon = attack_weapons(world, unit)
                .into_iter()
                .find(|w| !w.ranged() && w.category != WeaponCategory::Spell)
                .unwrap_or_else(|| unarmed(world));
            declare(world, unit, "Disarm", costs.disarm);
            make_attack(world, unit, target, weapon, AttackKind::Disarm { take, to })?;
        }
        FlowAction::Draw { weapon } => {
            declare(world, unit, &format!("Draw {weapon}"), costs.draw);
            draw(world, unit, &weapon);
        }
        FlowAction::Sheathe { weapon } => {
            declare(world, unit, &format!("Sheathe {weapon}"), costs.sheathe);
            let eq = world
                .get::<Equipment>(entity(world, unit))
                .cloned()
                .unwrap_or_default();
            if let Some(w) = eq.get(&weapon) {
                emit(
                    world,
                    Event::HeldChanged {
                        unit,
                        item: w.name.clone(),
                        hand: Hand::Stowed,
                    },
                );
            }
        }
        FlowAction::Feint { target } => {
            declare(world, unit, "Feint", costs.feint);
            with_flow_unit(world, unit, |f| f.feinted = Some(r));
            // F-34, F-GAP-17: the feinter uses the higher of Melee/Deception, the
            // target answers with the higher of Melee/Agility (its choice).
            let won = opposed(
                world,
                (unit, best_of(world, unit, &["Melee", "Deception"])),
                (target, best_of(world, target, &["Melee", "Agility"])),
                "Feint",
            )?;
            if won {
                let turns = flow_unit(world, unit).turns;
                let mut c = Condition::new(FEINTING, Duration::EndOfOwnTurn(turns + 1));
                c.about = Some(target);
                add_condition(world, unit, c);
            }
        }
        FlowAction::FlowState => {
            declare(world, unit, "Flow State", costs.flow_state);
            let turns = flow_unit(world, unit).turns;
            add_condition(
                world,
                unit,
                Condition::new(FLOW_STATE, Duration::EndOfOwnTurn(turns)),
            );
        }
        FlowAction::Grapple { target } => {
            declare(world, unit, "Grapple", costs.grapple);
            let won = opposed(
                world,
                (unit, ("Athletics".into(), skill(world, unit, "Athletics"))),
                (
                    target,
                    ("Athletics".into(), skill(world, target, "Athletics")),
                ),
                "Grapple",
            )?;
            if won {
                let mut g = Condition::new(GRAPPLING, Duration::UntilRemoved);
                g.about = Some(target);
                add_condition(world, unit, g);
                let mut d = Condition::new(GRAPPLED, Duration::UntilRemoved);
                d.source = Some(unit);
                add_condition(world, target, d);
            }
        }
        FlowAction::BreakFree => {
            // F-36, F-GAP-15: 0 AP, once per round; the rest of the turn is lost.
            declare(world, unit, "Break Free", 0);
            with_flow_unit(world, unit, |f| f.broke_free = Some(r));
            if let Some(grappler) = condition_link(world, unit, GRAPPLED) {
                let breaker = ("Athletics".to_string(), skill(world, unit, "Athletics"));
                let level_b = roll_check(
                    world,
                    unit,
                    &breaker.0,
                    "break free".into(),
                    breaker.1,
                    vec![],
                    None,
                )?;
                let hold = skill(world, grappler, "Athletics");
                let level_g = roll_check(
                    world,
                    grappler,
                    "Athletics",
                    "keep the grapple".into(),
                    hold,
                    vec![],
                    None,
                )?;
                let wins = responder_wins(level_g, level_b);
                emit(
                    world,
                    FlowEvent::OpposedCheck {
                        actor: grappler,
                        responder: unit,
                        actor_level: level_g,
                        counted_as: level_g,
                        responder_level: level_b,
                        responder_wins: wins,
                    },
                );
                if wins {
                    end_grapple(world, grappler, unit, "broke free");
                }
            }
            flow_state_mut(world).end_turn = true;
        }
        FlowAction::Release => {
            if let Some(target) = condition_link(world, unit, GRAPPLING) {
                end_grapple(world, unit, target, "released");
            }
        }
        FlowAction::Ready { weapon } => {
            ready(
                world,
                unit,
                ReadyAction::Attack { weapon },
                ReadyTrigger::EntersReach,
            )?;
        }
        FlowAction::ReadyOn { then, on } => ready(world, unit, then, on)?,
        FlowAction::Shove { target, effect } => {
            declare(world, unit, "Shove", costs.shove);
            with_flow_unit(world, unit, |f| f.shoved = Some(r));
            shove(world, unit, target, effect)?;
        }
        FlowAction::TotalDefense => {
            // F-40: ends the turn; +1 RP and Advantage on reactions until the next turn.
            declare(world, unit, "Total Defense", costs.total_defense);
            let extra = rules(world).total_defense_rp;
            change_points(world, unit, pools::RP, extra, "Total Defense");
            add_condition(
                world,
                unit,
                Condition::new(TOTAL_DEFENSE, Duration::UntilOwnNextTurn),
            );
            flow_state_mut(world).end_turn = true;
        }
        FlowAction::Tumble { through } => {
            declare(world, unit, "Tumble Through", costs.tumble);
            let dest = tumble_destination(world, unit, through);
            let value = skill(world, unit, "Agility");
            let purpose = format!(
                "Tumble Through past {}",
                crate::engine::battle::name(world, through)
            );
            let level = roll_check(world, unit, "Agility", purpose, value, vec![], None)?;
            if level.success() {
                // F-41: straight through, provoking nothing; it doesn't count as movement.
                let from = cell_of(world, unit);
                emit(
                    world,
                    Event::Moved {
                        unit,
                        from,
                        to: dest,
                        cost: 0,
                    },
                );
            } else {
                emit(
                    world,
                    Event::MovementStopped {
                        unit,
                        reason: "the tumble failed: it stays put".into(),
                    },
                );
                // Only the enemy it tried to pass may react.
                let here = cell_of(world, unit);
                let t: Vec<UnitId> = threateners(world, unit, here)
                    .into_iter()
                    .filter(|&u| u == through)
                    .collect();
                provoke(world, unit, "fails to tumble past".into(), t);
            }
        }
        FlowAction::StandUp => {
            declare(world, unit, "Stand Up", costs.stand_up);
            push_frame(
                world,
                Frame::Then(Later::Action {
                    unit,
                    action: FlowAction::StandUp,
                }),
            );
            let here = cell_of(world, unit);
            let t = threateners(world, unit, here);
            provoke(world, unit, "stands up".into(), t);
        }
        FlowAction::PickUp { item } => {
            declare(world, unit, &format!("Pick up {item}"), costs.pick_up);
            if let Some((cell, w)) = ground_item(world, unit, &item) {
                let eq = world
                    .get::<Equipment>(entity(world, unit))
                    .cloned()
                    .unwrap_or_default();
                let hand = free_hand(&eq, &w).unwrap_or(Hand::Stowed);
                emit(
                    world,
                    Event::ItemPickedUp {
                        unit,
                        item: w.name,
                        cell,
                        hand,
                    },
                );
            }
        }
        FlowAction::Drop { item } => {
            // F-42: a free action.
            let cell = cell_of(world, unit);
            let eq = world
                .get::<Equipment>(entity(world, unit))
                .cloned()
                .unwrap_or_default();
            if let Some(w) = eq.get(&item) {
                emit(
                    world,
                    Event::ItemDropped {
                        unit,
                        item: w.name.clone(),
                        cell,
                    },
                );
            }
        }
    }
    Ok(())
}

/// A Shove's opposed Athletics check and its effect (F-38, F-GAP-16): the chosen
/// effect on a success, both on a Hard success or better. (The AP and the once per
/// round are the caller's: a Shove action, or a readied one going off.)
fn shove(
    world: &mut World,
    unit: UnitId,
    target: UnitId,
    effect: ShoveEffect,
) -> Result<(), CommandError> {
    let (won, level) = opposed_level(
        world,
        (unit, ("Athletics".into(), skill(world, unit, "Athletics"))),
        (
            target,
            ("Athletics".into(), skill(world, target, "Athletics")),
        ),
        "Shove",
    )?;
    if won {
        // F-38: the chosen effect; Hard or better does both.
        let both = level >= SuccessLevel::Hard;
        if both || effect == ShoveEffect::PushBack {
            let to = push_destination(world, unit, target);
            let from = cell_of(world, target);
            let open = open_hex(world, to);
            if open {
                emit(
                    world,
                    Event::Moved {
                        unit: target,
                        from,
                        to,
                        cost: 0,
                    },
                );
            } else {
                emit(
                    world,
                    Event::MovementStopped {
                        unit: target,
                        reason: format!("the push to {to} is blocked (F-GAP-16)"),
                    },
                );
            }
        }
        if both || effect == ShoveEffect::KnockProne {
            add_condition(world, target, Condition::new(PRONE, Duration::UntilRemoved));
        }
    }
    Ok(())
}

/// Draws a carried weapon or shield into a free hand (F-33; the AP are the caller's).
fn draw(world: &mut World, unit: UnitId, weapon: &str) {
    let eq = world
        .get::<Equipment>(entity(world, unit))
        .cloned()
        .unwrap_or_default();
    let hand = if eq.hand_free(Hand::Main) {
        Hand::Main
    } else {
        Hand::Off
    };
    if let Some(w) = eq.get(weapon) {
        emit(
            world,
            Event::HeldChanged {
                unit,
                item: w.name.clone(),
                hand,
            },
        );
    }
}

/// Readies an action on a trigger (F-37): the action's AP are set aside now
/// (F-GAP-18); a readied attack names the weapon it will use.
fn ready(
    world: &mut World,
    unit: UnitId,
    then: ReadyAction,
    on: ReadyTrigger,
) -> Result<(), CommandError> {
    let then = match then {
        ReadyAction::Attack { weapon } => ReadyAction::Attack {
            weapon: Some(weapon_named(world, unit, weapon.as_deref())?.name),
        },
        other => other,
    };
    let ap = then.ap_cost(&rules(world).costs);
    declare(world, unit, "Ready (AP set aside)", ap);
    let readied = Readied { then, on, ap };
    with_flow_unit(world, unit, |f| f.ready = Some(readied.clone()));
    let event = match readied.classic_attack() {
        Some(weapon) => FlowEvent::Readied {
            unit,
            weapon: weapon.to_string(),
            ap,
        },
        None => FlowEvent::ReadiedAction {
            unit,
            action: readied.then.describe(),
            trigger: on.describe().into(),
            ap,
        },
    };
    emit(world, event);
    Ok(())
}

/// A readied action going off (F-37): done now if it still can be (its AP were set
/// aside when it was readied), else lost with the reason. A Step or a Move starts
/// a move (a Step provokes nothing, F-39); a Shove is on the unit that set it off.
fn run_readied(
    world: &mut World,
    unit: UnitId,
    by: UnitId,
    then: ReadyAction,
) -> Result<(), CommandError> {
    if !is_active(world, unit) {
        return Ok(());
    }
    if let Err(e) = super::check::readied_legal(world, unit, by, &then) {
        let reason = e.to_string();
        emit(world, FlowEvent::ReadyLost { unit, reason });
        return Ok(());
    }
    let r = round(world);
    match then {
        ReadyAction::Attack { weapon } => {
            let w = weapon_named(world, unit, weapon.as_deref())?;
            make_attack(world, unit, by, w, AttackKind::Readied)?;
        }
        ReadyAction::Step { to } => {
            with_flow_unit(world, unit, |f| f.stepped = Some(r));
            start_move(world, unit, vec![to], false);
        }
        ReadyAction::Move { to } => {
            if let Some(path) = super::movement::readied_path(world, unit, to) {
                start_move(world, unit, path, true);
            }
        }
        ReadyAction::Shove { effect } => {
            with_flow_unit(world, unit, |f| f.shoved = Some(r));
            shove(world, unit, by, effect)?;
        }
        ReadyAction::Draw { weapon } => draw(world, unit, &weapon),
    }
    Ok(())
}

/// A weapon on the ground at or next to the unit, by name.
pub fn ground_item(world: &World, unit: UnitId, item: &str) -> Option<(Cell, WeaponDef)> {
    let board = &world.resource::<Map>().0;
    let here = cell_of(world, unit);
    world
        .resource::<GroundItems>()
        .0
        .iter()
        .find(|(c, w)| board.distance(*c, here) <= 1 && w.name.eq_ignore_ascii_case(item))
        .cloned()
}

/// The hand a weapon can go into, if any.
pub fn free_hand(eq: &Equipment, w: &WeaponDef) -> Option<Hand> {
    if w.two_handed {
        (eq.hand_free(Hand::Main) && eq.hand_free(Hand::Off)).then_some(Hand::Main)
    } else if eq.hand_free(Hand::Main) {
        Some(Hand::Main)
    } else if eq.hand_free(Hand::Off) {
        Some(Hand::Off)
    } else {
        None
    }
}

fn end_grapple(world: &mut World, grappler: UnitId, held: UnitId, why: &str) {
    remove_condition(world, grappler, GRAPPLING, why);
    remove_condition(world, held, GRAPPLED, why);
}

/// The higher of some skills, with its name.
pub fn best_of(world: &World, unit: UnitId, skills: &[&str]) -> (String, i32) {
    let mut best = (skills[0].to_string(), skill(world, unit, skills[0]));
    for &s in &skills[1..] {
        let v = skill(world, unit, s);
        if v > best.1 {
            best = (s.to_string(), v);
        }
    }
    best
}

/// An opposed check: the actor rolls, then the responder; the responder wins ties
/// (F-GAP-03). Returns whether the actor won.
fn opposed(
    world: &mut World,
    actor: (UnitId, (String, i32)),
    responder: (UnitId, (String, i32)),
    what: &str,
) -> Result<bool, CommandError> {
    opposed_level(world, actor, responder, what).map(|(won, _)| won)
}

fn opposed_level(
    world: &mut World,
    (a, (askill, aval)): (UnitId, (String, i32)),
    (r, (rskill, rval)): (UnitId, (String, i32)),
    what: &str,
) -> Result<(bool, SuccessLevel), CommandError> {
    let edge = if has(world, a, GRAPPLING) {
        Some(crate::engine::skill::Edge::Disadvantage)
    } else {
        None
    };
    let mods = if edge.is_some() {
        vec!["disadvantage: grappling".to_string()]
    } else {
        vec![]
    };
    let rname = crate::engine::battle::name(world, r);
    let la = roll_check(
        world,
        a,
        &askill,
        format!("{what} on {rname}"),
        aval,
        mods,
        edge,
    )?;
    let aname = crate::engine::battle::name(world, a);
    let lr = roll_check(
        world,
        r,
        &rskill,
        format!("resist {aname}'s {what}"),
        rval,
        vec![],
        None,
    )?;
    let wins = responder_wins(la, lr);
    emit(
        world,
        FlowEvent::OpposedCheck {
            actor: a,
            responder: r,
            actor_level: la,
            counted_as: la,
            responder_level: lr,
            responder_wins: wins,
        },
    );
    Ok((!wins && la.success(), la))
}

/// Runs work deferred until the Reaction Attacks an action provoked were resolved.
pub fn run_deferred(world: &mut World, d: Later) -> Result<(), CommandError> {
    match d {
        Later::Attack {
            attacker,
            target,
            weapon,
            kind,
        } => make_attack(world, attacker, target, weapon, kind),
        Later::Action { unit, action } => {
            if is_active(world, unit) && action == FlowAction::StandUp {
                remove_condition(world, unit, PRONE, "stood up");
            }
            Ok(())
        }
        Later::Item { unit, item, target } => use_item(world, unit, &item, target),
        Later::Readied { unit, by, then } => run_readied(world, unit, by, then),
    }
}

fn use_item(
    world: &mut World,
    unit: UnitId,
    name: &str,
    target: Option<UnitId>,
) -> Result<(), CommandError> {
    if !is_active(world, unit) {
        return Ok(());
    }
    let Some(item) = items::use_item(world, unit, name) else {
        return Ok(());
    };
    match item.effect {
        ItemEffect::Heal(dice) => {
            items::heal(world, unit, &dice, &item.name)?;
        }
        ItemEffect::Power(p) => {
            if let Some(t) = target {
                let weapon = WeaponDef {
                    name: p.name.clone(),
                    damage: p.damage.clone(),
                    reach: if p.ranged { 1 } else { p.range },
                    range: if p.ranged { p.range } else { 0 },
                    category: WeaponCategory::Standard,
                    two_handed: false,
                    held: Hand::Main,
                    // Ongoing conditions, as a weapon's (the level checks name them).
                    on_hit: p.on_hit.iter().map(|e| e.condition.clone()).collect(),
                };
                make_attack(world, unit, t, weapon, AttackKind::Normal)?;
            }
        }
        ItemEffect::Cleanse => {
            let ongoing: Vec<String> = rules(world).ongoing.keys().cloned().collect();
            for c in ongoing {
                remove_condition(world, unit, &c, &format!("cleansed by {}", item.name));
            }
        }
    }
    Ok(())
}

/// F-32: the Disarm hit: the target drops its first held item. Normal: next to it
/// (the engine picks the first open neighbour for the target); Hard / Major /
/// Critical: the disarmer takes it with a free hand (`take`) or puts it on an open
/// hex within 2 / 3 / 4 of the target (`to`), else it falls next to the target.
pub fn disarmed(
    world: &mut World,
    attacker: UnitId,
    victim: UnitId,
    level: SuccessLevel,
    take: bool,
    to: Option<Cell>,
) -> Result<(), CommandError> {
    let eq = world
        .get::<Equipment>(entity(world, victim))
        .cloned()
        .unwrap_or_default();
    let Some(item) = eq.held().next().cloned() else {
        emit(
            world,
            FlowEvent::Missed {
                attacker,
                target: victim,
                reason: "nothing in hand to disarm".into(),
            },
        );
        return Ok(());
    };
    let radius = match level {
        SuccessLevel::Hard => 2,
        SuccessLevel::Major => 3,
        SuccessLevel::Critical => 4,
        _ => 1,
    };
    let board = world.resource::<Map>().0.clone();
    let at = cell_of(world, victim);
    if radius > 1 {
        let mine = world
            .get::<Equipment>(entity(world, attacker))
            .cloned()
            .unwrap_or_default();
        if take && let Some(hand) = free_hand(&mine, &item) {
            emit(
                world,
                Event::ItemTaken {
                    unit: attacker,
                    from: victim,
                    item: item.name,
                    hand,
                },
            );
            return Ok(());
        }
        if let Some(c) = to
            && board.distance(at, c) <= radius
            && open_hex(world, c)
        {
            emit(
                world,
                Event::ItemDropped {
                    unit: victim,
                    item: item.name,
                    cell: c,
                },
            );
            return Ok(());
        }
    }
    let cell = board
        .neighbors(at)
        .into_iter()
        .find(|&c| open_hex(world, c))
        .unwrap_or(at);
    emit(
        world,
        Event::ItemDropped {
            unit: victim,
            item: item.name,
            cell,
        },
    );
    Ok(())
}

/// Whether a hex is open for the unit to be pushed or tumble into.
pub fn free_for(world: &World, unit: UnitId, cell: Cell) -> bool {
    let board = &world.resource::<Map>().0;
    board.contains(cell)
        && board.step_cost(cell).is_some()
        && occupancy_for(world, unit)(cell) == Occupancy::Free
}
