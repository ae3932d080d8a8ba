//! Legality of `flow` commands, with a reason for every refusal (typed reasons for
//! reactions), and the list of legal commands the AI and property tests draw from.

use bevy_ecs::prelude::*;

use super::actions::{free_for, free_hand, ground_item};
use super::attack::reaction_legal;
use super::conditions::*;
use super::movement::{path_cost, speed, tumble_destination};
use super::*;
use crate::engine::battle::{Map, Pending, TurnState, find, name, side_of};
use crate::engine::command::{Command, Reaction, ReactionRefusal};
use crate::engine::spec::ItemEffect;

fn side_name(world: &World, s: SideId) -> String {
    world
        .resource::<Sides>()
        .0
        .get(s.0 as usize)
        .map_or("?".to_string(), |s| s.name.clone())
}

/// What a pending decision asks, with its options, for error messages.
pub fn describe_pending(world: &World) -> Option<(SideId, String)> {
    let p = world.resource::<Pending>().0.as_ref()?;
    let what = match flow_state(world).stack.0.last() {
        Some(Frame::Attack(ctx)) => format!(
            "a reaction to {}'s attack on {}",
            name(world, ctx.attacker),
            name(world, ctx.target)
        ),
        Some(Frame::Provoke { mover, trigger, .. }) => {
            format!("a Reaction Attack on {} ({trigger})", name(world, *mover))
        }
        _ => return Some((p.side, "a decision".into())),
    };
    let opts: Vec<String> = p
        .options
        .iter()
        .map(|o| format!("{} {:.1}%", o.label, o.chance.unwrap_or(1.0) * 100.0))
        .collect();
    Some((
        p.side,
        format!(
            "{what}; answer with React ({}) or Pass",
            if opts.is_empty() {
                "no options".to_string()
            } else {
                opts.join(", ")
            }
        ),
    ))
}

fn refuse(
    world: &World,
    unit: UnitId,
    reaction: Reaction,
    reason: ReactionRefusal,
) -> CommandError {
    CommandError::IllegalReaction {
        unit: name(world, unit),
        reaction,
        reason,
    }
}

fn check_react(
    world: &World,
    side: SideId,
    unit: UnitId,
    reaction: Reaction,
    to: Option<Cell>,
) -> Result<(), CommandError> {
    let pending = &world.resource::<Pending>().0;
    if find(world, unit).is_none() {
        return Err(CommandError::NoSuchUnit(unit.0));
    }
    let Some(p) = pending else {
        // A second answer to an attack that was already reacted to (F-11).
        let last = flow_state(world).last_reaction;
        if last.is_some_and(|(_, u)| u == unit) {
            return Err(refuse(
                world,
                unit,
                reaction,
                ReactionRefusal::AlreadyReacted,
            ));
        }
        return Err(CommandError::NoDecisionPending);
    };
    let asked = p.side;
    if asked != side {
        let (s, what) = describe_pending(world).unwrap_or((asked, String::new()));
        return Err(CommandError::DecisionPending {
            side: side_name(world, s),
            what,
        });
    }
    if side_of(world, unit) != side {
        return Err(refuse(
            world,
            unit,
            reaction,
            ReactionRefusal::NotOffered(format!(
                "{} is not on {}'s side",
                name(world, unit),
                side_name(world, side)
            )),
        ));
    }
    // The frame on top is what is being reacted to.
    match flow_state(world).stack.0.last() {
        Some(Frame::Attack(ctx)) => {
            let last = flow_state(world).last_reaction;
            if last == Some((ctx.id, unit)) {
                return Err(refuse(
                    world,
                    unit,
                    reaction,
                    ReactionRefusal::AlreadyReacted,
                ));
            }
            reaction_legal(world, ctx, unit, reaction)
                .map_err(|r| refuse(world, unit, reaction, r))?;
            if reaction == Reaction::Intercept
                && let Some(c) = to
            {
                // The hexes the decision offers this unit's Intercept.
                let cells: Vec<Cell> = p
                    .answers()
                    .filter_map(|c| match c {
                        Command::React {
                            unit: u,
                            reaction: Reaction::Intercept,
                            to: Some(c),
                            ..
                        } if *u == unit => Some(*c),
                        _ => None,
                    })
                    .collect();
                if !cells.contains(&c) {
                    let list: Vec<String> = cells.iter().map(|c| c.to_string()).collect();
                    return Err(refuse(
                        world,
                        unit,
                        reaction,
                        ReactionRefusal::BadIntercept(format!(
                            "{c} is not a hex it can intercept from; it can use {}",
                            list.join(", ")
                        )),
                    ));
                }
            }
            Ok(())
        }
        Some(Frame::Provoke {
            mover,
            trigger: action,
            asking,
            ..
        }) => {
            if reaction != Reaction::ReactionAttack {
                return Err(refuse(
                    world,
                    unit,
                    reaction,
                    ReactionRefusal::WrongAttack(format!(
                        "{} {action}: only a Reaction Attack answers that",
                        name(world, *mover)
                    )),
                ));
            }
            let asked_unit = *asking;
            if asked_unit != Some(unit) {
                let why = if threatens(world, unit, cell_of(world, *mover)) {
                    format!(
                        "the offer is to {}; {} is asked in its turn",
                        asked_unit.map_or("nobody".into(), |u| name(world, u)),
                        name(world, unit)
                    )
                } else {
                    format!("{} is not in its threat range", name(world, *mover))
                };
                return Err(refuse(
                    world,
                    unit,
                    reaction,
                    ReactionRefusal::OutOfReach(why),
                ));
            }
            let need = rules(world).reaction_costs.reaction_attack;
            let have = pool(world, unit, pools::RP);
            if have < need {
                return Err(refuse(
                    world,
                    unit,
                    reaction,
                    ReactionRefusal::NoRp { have, need },
                ));
            }
            Ok(())
        }
        _ => Err(CommandError::NoDecisionPending),
    }
}

/// Whether `command` is legal now.
pub fn check(world: &World, command: &Command) -> Result<(), CommandError> {
    match command {
        Command::React {
            side,
            unit,
            reaction,
            to,
            ..
        } => return check_react(world, *side, *unit, *reaction, *to),
        Command::Pass { side } => {
            let Some(p) = &world.resource::<Pending>().0 else {
                return Err(CommandError::NoDecisionPending);
            };
            if p.side != *side {
                let (s, what) = describe_pending(world).unwrap_or((p.side, String::new()));
                return Err(CommandError::DecisionPending {
                    side: side_name(world, s),
                    what,
                });
            }
            return Ok(());
        }
        Command::Seize { .. } | Command::ActNow { .. } => {
            return Err(CommandError::WrongStage(
                "flow has no seizing or delaying (use Ready, F-37)".into(),
            ));
        }
        _ => {}
    }
    if let Some((s, what)) = describe_pending(world) {
        return Err(CommandError::DecisionPending {
            side: side_name(world, s),
            what,
        });
    }
    let Some(unit) = command.unit() else {
        return Ok(());
    };
    let who = name(world, unit);
    if !is_active(world, unit) {
        return Err(CommandError::Defeated(who));
    }
    let turn = world.resource::<TurnState>();
    if turn.active != Some(unit) {
        let reason = match turn.active {
            Some(a) => format!("it is {}'s turn", name(world, a)),
            None => "nobody is acting".into(),
        };
        return Err(CommandError::NotYourTurn { unit: who, reason });
    }
    let config = rules(world);
    let costs = config.costs;
    let round = turn.round;
    let fu = flow_unit(world, unit);
    let ap = pool(world, unit, pools::AP);
    let need = |cost: i32, what: &str| -> Result<(), CommandError> {
        if ap < cost {
            return Err(CommandError::NotEnoughPoints {
                unit: who.clone(),
                pool: pools::AP,
                have: ap,
                need: cost,
                what: what.into(),
            });
        }
        Ok(())
    };
    let grappled = has(world, unit, GRAPPLED);
    let allowed_grappled = matches!(command, Command::EndTurn { .. })
        || matches!(
            FlowAction::of(command),
            Some(FlowAction::BreakFree | FlowAction::Drop { .. })
        );
    if grappled && !allowed_grappled {
        return Err(CommandError::Forbidden(format!(
            "{who} is grappled: it can only try to break free (F-36)"
        )));
    }
    match command {
        Command::EndTurn { .. } => Ok(()),
        Command::Move { power, path, .. } => {
            if has(world, unit, PRONE) {
                return Err(CommandError::Forbidden(format!(
                    "{who} is prone: stand up first"
                )));
            }
            if power.eq_ignore_ascii_case("Step") {
                if fu.stepped == Some(round) {
                    return Err(CommandError::AlreadyUsed {
                        unit: who,
                        what: "taken a step".into(),
                    });
                }
                need(costs.step, "Take a Step")?;
                let cost = path_cost(world, unit, path)?;
                if path.len() != 1 || cost != 1 {
                    return Err(CommandError::NotEnoughMovement {
                        cost,
                        budget: 1,
                        power: "Take a Step".into(),
                    });
                }
                Ok(())
            } else if power.eq_ignore_ascii_case("Move") || power.eq_ignore_ascii_case("Walk") {
                let cost = path_cost(world, unit, path)?;
                if cost <= fu.allowance {
                    return Ok(());
                }
                if fu.moves >= config.max_move_actions {
                    return Err(CommandError::Forbidden(format!(
                        "{who} has already spent {} AP on movement this turn (F-08); Take a Step still moves 1 hex",
                        config.max_move_actions
                    )));
                }
                need(costs.move_action, "a Move action")?;
                let budget = speed(world, unit);
                if cost > budget {
                    return Err(CommandError::NotEnoughMovement {
                        cost,
                        budget,
                        power: "Move".into(),
                    });
                }
                Ok(())
            } else {
                Err(CommandError::Unknown {
                    unit: who,
                    kind: "movement power",
                    name: power.clone(),
                })
            }
        }
        Command::Attack { target, power, .. } => {
            let weapon = weapon_named(world, unit, power.as_deref())?;
            need(costs.attack, "an attack")?;
            enemy_target(world, unit, *target)?;
            if let Some(g) = condition_link(world, unit, GRAPPLING)
                && g != *target
            {
                return Err(CommandError::Forbidden(format!(
                    "{who} is grappling {} and can only attack it (F-GAP-15)",
                    name(world, g)
                )));
            }
            in_range(world, unit, *target, &weapon)
        }
        Command::ActivateItem { item, target, .. } => {
            let it = world
                .get::<Items>(entity(world, unit))
                .and_then(|i| i.0.iter().find(|i| &i.name == item))
                .ok_or_else(|| CommandError::Unknown {
                    unit: who.clone(),
                    kind: "item",
                    name: item.clone(),
                })?;
            if it.uses == 0 {
                return Err(CommandError::Forbidden(format!(
                    "{who}'s {item} has no uses left"
                )));
            }
            let cost = item_cost(&costs, it);
            need(cost, item)?;
            match (&it.effect, target) {
                (ItemEffect::Power(p), Some(t)) => {
                    enemy_target(world, unit, *t)?;
                    let d = world
                        .resource::<Map>()
                        .0
                        .distance(cell_of(world, unit), cell_of(world, *t));
                    if d > p.range {
                        return Err(CommandError::OutOfReach(format!(
                            "{} is {d} hexes away; {} reaches {}",
                            name(world, *t),
                            p.name,
                            p.range
                        )));
                    }
                    Ok(())
                }
                (ItemEffect::Power(_), None) => {
                    Err(CommandError::NoSuchTarget(format!("{item} needs a target")))
                }
                _ => Ok(()),
            }
        }
        Command::Act { verb, args, .. } => {
            check_action(world, unit, &FlowAction::from_act(verb, args)?, &need)
        }
        _ => Err(CommandError::WrongStage("not a flow command".into())),
    }
}

fn enemy_target(world: &World, unit: UnitId, target: UnitId) -> Result<(), CommandError> {
    if find(world, target).is_none() {
        return Err(CommandError::NoSuchTarget(format!(
            "there is no unit #{}",
            target.0
        )));
    }
    let t = name(world, target);
    if !is_active(world, target) {
        return Err(CommandError::NoSuchTarget(format!("{t} has been defeated")));
    }
    if !enemies(world, unit, target) {
        return Err(CommandError::NoSuchTarget(format!(
            "{t} is on {}'s side",
            name(world, unit)
        )));
    }
    Ok(())
}

fn in_range(
    world: &World,
    unit: UnitId,
    target: UnitId,
    weapon: &WeaponDef,
) -> Result<(), CommandError> {
    let board = &world.resource::<Map>().0;
    let (from, to) = (cell_of(world, unit), cell_of(world, target));
    let d = board.distance(from, to);
    let t = name(world, target);
    if weapon.ranged() {
        if !board.line_of_sight(from, to) {
            return Err(CommandError::OutOfReach(format!(
                "no line of sight from {from} to {t} at {to}"
            )));
        }
        return Ok(());
    }
    let reach = reach_with(world, unit, weapon);
    if d > reach {
        return Err(CommandError::OutOfReach(format!(
            "{t} is {d} hexes away; {} with {} has Reach {reach}",
            name(world, unit),
            weapon.name
        )));
    }
    Ok(())
}

fn in_threat(world: &World, unit: UnitId, target: UnitId) -> Result<(), CommandError> {
    enemy_target(world, unit, target)?;
    if !threatens(world, unit, cell_of(world, target)) {
        return Err(CommandError::OutOfReach(format!(
            "{} is outside {}'s reach",
            name(world, target),
            name(world, unit)
        )));
    }
    Ok(())
}

fn not_larger(world: &World, unit: UnitId, target: UnitId, what: &str) -> Result<(), CommandError> {
    if size(world, target) > size(world, unit) {
        return Err(CommandError::Forbidden(format!(
            "{what} only targets units of {}'s size or smaller; {} is {}",
            name(world, unit),
            name(world, target),
            crate::engine::log::size_name(size(world, target))
        )));
    }
    Ok(())
}

fn check_action(
    world: &World,
    unit: UnitId,
    action: &FlowAction,
    need: &dyn Fn(i32, &str) -> Result<(), CommandError>,
) -> Result<(), CommandError> {
    // Its verb's declared cost, in the configured amount (a level may change it).
    let cost = action.ap_cost(&rules(world).costs);
    let who = name(world, unit);
    let round = world.resource::<TurnState>().round;
    let fu = flow_unit(world, unit);
    let eq = world
        .get::<Equipment>(entity(world, unit))
        .cloned()
        .unwrap_or_default();
    let carried = |w: &str| {
        eq.get(w).cloned().ok_or_else(|| CommandError::Unknown {
            unit: who.clone(),
            kind: "weapon",
            name: w.into(),
        })
    };
    match action {
        FlowAction::Disarm { target, to, .. } => {
            need(cost, "Disarm")?;
            in_threat(world, unit, *target)?;
            not_larger(world, unit, *target, "Disarm (F-32)")?;
            if let Some(c) = to
                && !world.resource::<Map>().0.contains(*c)
            {
                return Err(CommandError::PathBlocked(format!("{c} is off the map")));
            }
            Ok(())
        }
        FlowAction::Draw { weapon } => {
            let w = carried(weapon)?;
            if w.held != Hand::Stowed {
                return Err(CommandError::Forbidden(format!(
                    "{who}'s {} is already in hand",
                    w.name
                )));
            }
            if free_hand(&eq, &w).is_none() {
                return Err(CommandError::Forbidden(format!(
                    "{who} has no free hand for {} (sheathe something first)",
                    w.name
                )));
            }
            need(cost, "Draw")
        }
        FlowAction::Sheathe { weapon } => {
            let w = carried(weapon)?;
            if w.held == Hand::Stowed {
                return Err(CommandError::Forbidden(format!(
                    "{who}'s {} is already stowed",
                    w.name
                )));
            }
            need(cost, "Sheathe")
        }
        FlowAction::Feint { target } => {
            if fu.feinted == Some(round) {
                return Err(CommandError::AlreadyUsed {
                    unit: who,
                    what: "feinted".into(),
                });
            }
            need(cost, "Feint")?;
            in_threat(world, unit, *target)
        }
        FlowAction::FlowState => {
            if has(world, unit, FLOW_STATE) {
                return Err(CommandError::AlreadyUsed {
                    unit: who,
                    what: "entered Flow State".into(),
                });
            }
            need(cost, "Flow State")
        }
        FlowAction::Grapple { target } => {
            if has(world, unit, GRAPPLING) {
                return Err(CommandError::Forbidden(format!(
                    "{who} is already grappling"
                )));
            }
            need(cost, "Grapple")?;
            in_threat(world, unit, *target)?;
            if world
                .resource::<Map>()
                .0
                .distance(cell_of(world, unit), cell_of(world, *target))
                != 1
            {
                return Err(CommandError::OutOfReach(format!(
                    "{} must be next to {who} to be grappled",
                    name(world, *target)
                )));
            }
            not_larger(world, unit, *target, "Grapple (F-36)")
        }
        FlowAction::BreakFree => {
            if !has(world, unit, GRAPPLED) {
                return Err(CommandError::Forbidden(format!("{who} is not grappled")));
            }
            if fu.broke_free == Some(round) {
                return Err(CommandError::AlreadyUsed {
                    unit: who,
                    what: "tried to break free".into(),
                });
            }
            Ok(())
        }
        FlowAction::Release => {
            if !has(world, unit, GRAPPLING) {
                return Err(CommandError::Forbidden(format!(
                    "{who} is not grappling anyone"
                )));
            }
            Ok(())
        }
        FlowAction::Ready { weapon } => {
            if fu.ready.is_some() {
                return Err(CommandError::AlreadyUsed {
                    unit: who,
                    what: "readied an action".into(),
                });
            }
            weapon_named(world, unit, weapon.as_deref())?;
            need(cost, "readying an attack")
        }
        FlowAction::ReadyOn { then, .. } => {
            if fu.ready.is_some() {
                return Err(CommandError::AlreadyUsed {
                    unit: who,
                    what: "readied an action".into(),
                });
            }
            let board = &world.resource::<Map>().0;
            let here = cell_of(world, unit);
            // Where a readied Step or Move goes must be a hex it can enter; whether it
            // is still free is seen when the action goes off.
            let reachable = |to: &Cell, most: u32, what: &str| {
                if !board.contains(*to) || board.step_cost(*to).is_none() {
                    return Err(CommandError::PathBlocked(format!(
                        "{to} is off the map or impassable: no readied {what} there (F-37)"
                    )));
                }
                let d = board.distance(here, *to);
                if d == 0 || d > most {
                    return Err(CommandError::OutOfReach(format!(
                        "{to} is {d} hexes from {who}; a readied {what} goes 1 to {most} (F-37)"
                    )));
                }
                Ok(())
            };
            match then {
                ReadyAction::Attack { weapon } => {
                    weapon_named(world, unit, weapon.as_deref())?;
                }
                ReadyAction::Step { to } => reachable(to, 1, "Step (F-39)")?,
                ReadyAction::Move { to } => reachable(to, speed(world, unit), "Move (F-44)")?,
                ReadyAction::Shove { .. } => {}
                ReadyAction::Draw { weapon } => {
                    if carried(weapon)?.held != Hand::Stowed {
                        return Err(CommandError::Forbidden(format!(
                            "{who}'s {weapon} is already in hand: nothing to ready a Draw of (F-33)"
                        )));
                    }
                }
            }
            need(cost, "readying an action")
        }
        FlowAction::Shove { target, .. } => {
            if fu.shoved == Some(round) {
                return Err(CommandError::AlreadyUsed {
                    unit: who,
                    what: "shoved".into(),
                });
            }
            need(cost, "Shove")?;
            in_threat(world, unit, *target)?;
            if world
                .resource::<Map>()
                .0
                .distance(cell_of(world, unit), cell_of(world, *target))
                != 1
            {
                return Err(CommandError::OutOfReach(format!(
                    "{} must be next to {who} to be shoved",
                    name(world, *target)
                )));
            }
            not_larger(world, unit, *target, "Shove (F-38)")
        }
        FlowAction::TotalDefense => need(cost, "Total Defense"),
        FlowAction::Tumble { through } => {
            if has(world, unit, PRONE) {
                return Err(CommandError::Forbidden(format!(
                    "{who} is prone: stand up first"
                )));
            }
            enemy_target(world, unit, *through)?;
            let board = &world.resource::<Map>().0;
            if board.distance(cell_of(world, unit), cell_of(world, *through)) != 1 {
                return Err(CommandError::OutOfReach(format!(
                    "{who} must be next to {} to tumble past it (F-41)",
                    name(world, *through)
                )));
            }
            if size(world, *through) > Size::Medium {
                return Err(CommandError::Forbidden(format!(
                    "{} is larger than Medium: no tumbling through it (F-41)",
                    name(world, *through)
                )));
            }
            let dest = tumble_destination(world, unit, *through);
            if !free_for(world, unit, dest) {
                return Err(CommandError::PathBlocked(format!(
                    "the hex beyond {}, {dest}, is not open (F-GAP-23)",
                    name(world, *through)
                )));
            }
            need(cost, "Tumble Through")
        }
        FlowAction::StandUp => {
            if !has(world, unit, PRONE) {
                return Err(CommandError::Forbidden(format!("{who} is not prone")));
            }
            need(cost, "Stand Up")
        }
        FlowAction::PickUp { item } => {
            let Some((_, w)) = ground_item(world, unit, item) else {
                return Err(CommandError::NoSuchTarget(format!(
                    "no {item} lies on or next to {who}'s hex"
                )));
            };
            if free_hand(&eq, &w).is_none() {
                return Err(CommandError::Forbidden(format!(
                    "{who} has no free hand for {}",
                    w.name
                )));
            }
            need(cost, "Pick Up")
        }
        FlowAction::Drop { item } => {
            let w = carried(item)?;
            if w.held == Hand::Stowed {
                return Err(CommandError::Forbidden(format!(
                    "{who}'s {} is not in hand",
                    w.name
                )));
            }
            Ok(())
        }
    }
}

/// Whether `unit`'s readied action can be done now that `by` set it off (F-37): the
/// checks of the action itself, its AP aside (they were set aside when it was
/// readied). A held unit does nothing (F-36); a Step or a Move needs the unit up
/// and a free way (F-39: a Step once per round, 1 hex; a Move within its hexes,
/// F-44); a Shove and a Draw are checked as those actions, the Shove on `by`.
pub fn readied_legal(
    world: &World,
    unit: UnitId,
    by: UnitId,
    then: &ReadyAction,
) -> Result<(), CommandError> {
    let who = name(world, unit);
    if has(world, unit, GRAPPLED) {
        return Err(CommandError::Forbidden(format!(
            "{who} is grappled: it can only try to break free (F-36)"
        )));
    }
    let moving = matches!(then, ReadyAction::Step { .. } | ReadyAction::Move { .. });
    if moving && has(world, unit, PRONE) {
        return Err(CommandError::Forbidden(format!(
            "{who} is prone: stand up first"
        )));
    }
    let paid = |_: i32, _: &str| Ok(());
    match then {
        ReadyAction::Attack { .. } => Ok(()),
        ReadyAction::Step { to } => {
            let round = world.resource::<TurnState>().round;
            if flow_unit(world, unit).stepped == Some(round) {
                return Err(CommandError::AlreadyUsed {
                    unit: who,
                    what: "taken a step".into(),
                });
            }
            let cost = path_cost(world, unit, &[*to])?;
            if cost != 1 {
                return Err(CommandError::NotEnoughMovement {
                    cost,
                    budget: 1,
                    power: "Take a Step".into(),
                });
            }
            Ok(())
        }
        ReadyAction::Move { to } => {
            let Some(path) = super::movement::readied_path(world, unit, *to) else {
                return Err(CommandError::PathBlocked(format!(
                    "no free path to {to} within {who}'s {} hexes (F-44)",
                    speed(world, unit)
                )));
            };
            path_cost(world, unit, &path).map(|_| ())
        }
        ReadyAction::Shove { effect } => check_action(
            world,
            unit,
            &FlowAction::Shove {
                target: by,
                effect: *effect,
            },
            &paid,
        ),
        ReadyAction::Draw { weapon } => check_action(
            world,
            unit,
            &FlowAction::Draw {
                weapon: weapon.clone(),
            },
            &paid,
        ),
    }
}

/// Every legal command now (filtered through [`check()`]).
pub fn legal(world: &World) -> Vec<Command> {
    let mut out = Vec::new();
    if let Some(p) = &world.resource::<Pending>().0 {
        // `Pass`, then each reaction (an Intercept once per hex).
        out.extend(p.answers().cloned());
        out.retain(|c| check(world, c).is_ok());
        return out;
    }
    let Some(unit) = world.resource::<TurnState>().active else {
        return out;
    };
    out.push(Command::EndTurn { unit });
    let board = &world.resource::<Map>().0;
    let occupancy = super::movement::move_occupancy(world, unit);
    let start = cell_of(world, unit);
    let fu = flow_unit(world, unit);
    let budget = if fu.allowance > 0 && fu.moves >= rules(world).max_move_actions {
        fu.allowance
    } else {
        speed(world, unit).max(fu.allowance)
    };
    let field = board.movement_field(start, budget, &occupancy);
    for &c in field.keys().filter(|&&c| c != start) {
        if let Some((path, _)) = board.path(start, c, &occupancy) {
            out.push(Command::Move {
                unit,
                power: "Move".into(),
                path,
                target: None,
            });
        }
    }
    for n in board.neighbors(start) {
        out.push(Command::Move {
            unit,
            power: "Step".into(),
            path: vec![n],
            target: None,
        });
    }
    let foes: Vec<UnitId> = active_units(world)
        .into_iter()
        .filter(|&u| enemies(world, u, unit))
        .collect();
    for w in attack_weapons(world, unit) {
        for &t in &foes {
            out.push(Command::Attack {
                unit,
                target: t,
                power: Some(w.name.clone()),
                aim: None,
                approach: Vec::new(),
            });
        }
    }
    let mut actions = vec![
        FlowAction::FlowState,
        FlowAction::TotalDefense,
        FlowAction::BreakFree,
        FlowAction::Release,
        FlowAction::StandUp,
        FlowAction::Ready { weapon: None },
    ];
    for &t in &foes {
        actions.extend([
            FlowAction::Feint { target: t },
            FlowAction::Grapple { target: t },
            FlowAction::Disarm {
                target: t,
                take: true,
                to: None,
            },
            FlowAction::Shove {
                target: t,
                effect: ShoveEffect::PushBack,
            },
            FlowAction::Shove {
                target: t,
                effect: ShoveEffect::KnockProne,
            },
            FlowAction::Tumble { through: t },
        ]);
    }
    if let Some(eq) = world.get::<Equipment>(entity(world, unit)) {
        for w in &eq.0 {
            actions.push(FlowAction::Draw {
                weapon: w.name.clone(),
            });
            actions.push(FlowAction::Sheathe {
                weapon: w.name.clone(),
            });
            actions.push(FlowAction::Drop {
                item: w.name.clone(),
            });
        }
    }
    for (_, w) in &world.resource::<GroundItems>().0 {
        actions.push(FlowAction::PickUp {
            item: w.name.clone(),
        });
    }
    out.extend(actions.into_iter().map(|action| action.by(unit)));
    if let Some(items) = world.get::<Items>(entity(world, unit)) {
        for it in &items.0 {
            match it.effect {
                ItemEffect::Power(_) => out.extend(foes.iter().map(|&t| Command::ActivateItem {
                    unit,
                    item: it.name.clone(),
                    target: Some(t),
                })),
                _ => out.push(Command::ActivateItem {
                    unit,
                    item: it.name.clone(),
                    target: None,
                }),
            }
        }
    }
    out.retain(|c| check(world, c).is_ok());
    out
}
