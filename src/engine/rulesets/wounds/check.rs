//! Whether a command is legal in `wounds` now, and why not (a typed refusal in the
//! game's words), and every legal command (for the AI and property tests).

use super::state::{self, w_state};
use bevy_ecs::world::World;

use super::aim::aim_of;
use super::attack::{self, Kind, NoSwing};
use super::economy::{Action, Use};
use super::movement;
use super::state::{MOVE, TurnBudget, has, names, wu};
use super::turn::{self, pay_choice};
use super::verbs::{self, ANY_PAY, DISENGAGE_PAY};
use crate::engine::battle::{
    Map, Pending, TurnState, active_units, cell_of, entity, is_active, name, occupancy_for, side_of,
};
use crate::engine::board::{Cell, Occupancy};
use crate::engine::command::{Command, CommandError};
use crate::engine::spec::ItemEffect;
use crate::engine::units::{Items, Powers, UnitId};
use crate::engine::verb::{ArgValue, Args};

/// Whether `command` is legal now.
pub fn check(world: &World, command: &Command) -> Result<(), CommandError> {
    // A free hit's aim may be answered in any spelling of the aim (W-GAP-07).
    let answer = super::free_hit::canonical(command);
    let asked = world.resource::<Pending>().0.is_some();
    let Some(unit) = crate::engine::battle::turn_of(world, if asked { &answer } else { command })?
    else {
        return Ok(());
    };
    if !is_active(world, unit) {
        return Err(CommandError::Defeated(name(world, unit)));
    }
    match command {
        Command::EndTurn { .. } => Ok(()),
        Command::Move { power, path, .. } => check_move(world, unit, power, path),
        Command::Attack {
            target,
            power,
            options,
            ..
        } => check_attack(world, unit, *target, power.as_deref(), aim_of(options)),
        Command::ActivateItem { item, .. } => check_item(world, unit, item),
        Command::Act { verb, args, .. } => check_verb(world, unit, verb, args),
        _ => Err(CommandError::NoDecisionPending),
    }
}

fn left(world: &World) -> TurnBudget {
    w_state(world).turn
}

/// Refuses when the turn can't pay `what` with `payment`.
pub(super) fn can_pay(
    world: &World,
    unit: UnitId,
    what: Use,
    payment: &[Action],
    text: &str,
) -> Result<(), CommandError> {
    let t = left(world);
    let mut budget = t.left;
    if t.opened {
        // A Move Action spent on moving is gone.
        budget.moves = 0;
    }
    budget.can_pay(what, payment).map_err(|_| {
        CommandError::Forbidden(format!(
            "{} has not {} left for {text} this turn",
            name(world, unit),
            turn::actions_text(payment)
        ))
    })
}

fn check_move(world: &World, unit: UnitId, power: &str, path: &[Cell]) -> Result<(), CommandError> {
    if power != MOVE && power != state::DASH {
        return Err(CommandError::Unknown {
            unit: name(world, unit),
            kind: "movement power",
            name: power.to_string(),
        });
    }
    if wu(world, unit).channel.is_some() {
        return Err(channeling(world, unit));
    }
    check_path(world, unit, path)?;
    let cost = movement::path_cost(world, unit, path).unwrap_or(u32::MAX);
    let dash = power == state::DASH;
    let budget = movement::reach_left(world, unit, dash);
    if cost > budget {
        return Err(CommandError::NotEnoughMovement {
            cost,
            budget,
            power: if has(world, unit, names::PRONE) {
                "a prone crawl (a third of the movement, W-30)".into()
            } else if dash {
                "the Move Action and Bonus Actions left (W-07, W-09)".into()
            } else {
                "the Move Action's spaces left (Dash spends Bonus Actions for more, W-07)".into()
            },
        });
    }
    Ok(())
}

pub(super) fn channeling(world: &World, unit: UnitId) -> CommandError {
    let c = wu(world, unit)
        .channel
        .clone()
        .map(|c| c.power)
        .unwrap_or_default();
    CommandError::Forbidden(format!(
        "{} is channeling {c}: its Attack and Move Actions go to the spell (W-33)",
        name(world, unit)
    ))
}

/// A path of adjacent, enterable squares, not through enemies, ending on a free
/// square (W-GAP-20, W-GAP-24).
pub fn check_path(world: &World, unit: UnitId, path: &[Cell]) -> Result<(), CommandError> {
    crate::engine::battle::check_steps(
        world,
        unit,
        path,
        crate::engine::battle::PathWords {
            through_enemy: ": no moving through enemies (W-GAP-24)",
            ends_occupied: " (W-GAP-24)",
            ..Default::default()
        },
    )
    .map(|_| ())
}

fn check_attack(
    world: &World,
    unit: UnitId,
    target: UnitId,
    power: Option<&str>,
    aim: Option<&str>,
) -> Result<(), CommandError> {
    if target == unit || !is_active(world, target) {
        return Err(CommandError::NoSuchTarget(format!(
            "{} is not in the fight",
            name(world, target)
        )));
    }
    if side_of(world, target) == side_of(world, unit) {
        return Err(CommandError::NoSuchTarget(format!(
            "{} is on {}'s side",
            name(world, target),
            name(world, unit)
        )));
    }
    if wu(world, unit).channel.is_some() {
        return Err(channeling(world, unit));
    }
    let kind = attack::kind_now(world, unit);
    let s = match attack::swing(world, unit, target, power, aim, kind) {
        Ok(s) => s,
        Err(NoSwing::Unknown) => {
            return Err(CommandError::Unknown {
                unit: name(world, unit),
                kind: "weapon or spell",
                name: power.unwrap_or_default().to_string(),
            });
        }
        Err(NoSwing::Aim(why)) => return Err(CommandError::Forbidden(why)),
        Err(NoSwing::Sight) => {
            return Err(CommandError::OutOfReach(format!(
                "{} can't see {}",
                name(world, unit),
                name(world, target)
            )));
        }
        Err(NoSwing::Reach(r)) => {
            let d = world
                .resource::<Map>()
                .0
                .distance(cell_of(world, unit), cell_of(world, target));
            return Err(CommandError::OutOfReach(format!(
                "{} is {d} squares away; {} reaches {r}",
                name(world, target),
                power.unwrap_or("the attack")
            )));
        }
    };
    if super::gear::sheathed(world, unit, &s.name) {
        return Err(CommandError::Forbidden(format!(
            "{}'s {} is sheathed: draw it first (Draw, W-06, W-07, W-09) or attack with \
             another weapon",
            name(world, unit),
            s.name
        )));
    }
    if has(world, unit, names::DISARMED) && !s.header.spell && s.name != state::UNARMED {
        return Err(CommandError::Forbidden(format!(
            "{} is disarmed: pick up its weapon first (key P, W-31) or fight Unarmed",
            name(world, unit)
        )));
    }
    if super::magic::helps(world, unit, power) {
        return Err(CommandError::Forbidden(format!(
            "{} attacks nobody: Invoke it on {} or an ally (W-19, W-28)",
            s.name,
            name(world, unit)
        )));
    }
    spell_costs(world, unit, &s)?;
    if s.header.spell {
        return Ok(());
    }
    match kind {
        Kind::Extra => can_pay(
            world,
            unit,
            Use::ExtraAttack,
            &[Action::Move, Action::Bonus, Action::Bonus],
            "the extra attack (its Attack Action is spent, W-10)",
        ),
        _ => Ok(()),
    }
}

/// Refuses a spell (or a power with an MP cost) the caster can't pay: its MP, and
/// an Attack or Move Action for its cast time (W-12).
pub(super) fn spell_costs(
    world: &World,
    unit: UnitId,
    s: &attack::Swing,
) -> Result<(), CommandError> {
    if s.header.mp > wu(world, unit).mp {
        return Err(CommandError::Forbidden(format!(
            "{} costs {} MP; {} has {}",
            s.name,
            s.header.mp,
            name(world, unit),
            wu(world, unit).mp
        )));
    }
    let t = left(world);
    if s.header.spell {
        let actions = t.left.attack + u32::from(t.move_left());
        if actions == 0 {
            return Err(CommandError::Forbidden(format!(
                "{} has no Attack or Move Action left to pay the cast time of {} (W-12)",
                name(world, unit),
                s.name
            )));
        }
    }
    Ok(())
}

fn check_item(world: &World, unit: UnitId, item: &str) -> Result<(), CommandError> {
    let found = world
        .get::<Items>(entity(world, unit))
        .and_then(|i| i.0.iter().find(|i| i.name == item).cloned());
    let Some(def) = found else {
        return Err(CommandError::Unknown {
            unit: name(world, unit),
            kind: "item",
            name: item.to_string(),
        });
    };
    if def.uses == 0 {
        return Err(CommandError::Forbidden(format!("{item} is used up")));
    }
    if !matches!(def.effect, ItemEffect::Heal(_)) {
        return Err(CommandError::Forbidden(format!(
            "`wounds` units only use healing items; {item} is not one"
        )));
    }
    let t = left(world);
    if !t.move_left() && t.left.attack == 0 {
        return Err(CommandError::Forbidden(format!(
            "{} has no Move or Attack Action left to use {item}",
            name(world, unit)
        )));
    }
    Ok(())
}

fn check_verb(world: &World, unit: UnitId, verb: &str, args: &Args) -> Result<(), CommandError> {
    if let Some(r) = super::gear::check(world, unit, verb, args)
        .or_else(|| super::extra::check(world, unit, verb, args))
        .or_else(|| super::summon::check(world, unit, verb, args))
    {
        return r;
    }
    let t = left(world);
    match verb {
        verbs::DISENGAGE => {
            if has(world, unit, names::DISENGAGED) {
                return Err(CommandError::AlreadyUsed {
                    unit: name(world, unit),
                    what: "disengaged".into(),
                });
            }
            let payment: &[Action] = match args.choice("pay") {
                Some("BA") => &[Action::Bonus, Action::Bonus],
                _ => &[Action::Attack],
            };
            can_pay(world, unit, Use::Disengage, payment, "Disengage")
        }
        verbs::HIT_BOOST | verbs::DAMAGE_BOOST | verbs::DODGE => {
            if verb == verbs::DODGE
                && state::footing(world, unit, false) != super::attack::Footing::Normal
            {
                return Err(CommandError::Forbidden(format!(
                    "{} is flat-footed or prone: a dodge bonus would not count (W-GAP-13)",
                    name(world, unit)
                )));
            }
            if t.left.bonus == 0 {
                return Err(CommandError::Forbidden(format!(
                    "{} has no Bonus Action left this turn",
                    name(world, unit)
                )));
            }
            Ok(())
        }
        verbs::STAND | verbs::PICK_UP => {
            let (cond, text) = if verb == verbs::STAND {
                (names::PRONE, "is not prone")
            } else {
                (
                    names::DISARMED,
                    "is not disarmed (W-31); to pick up something lying nearby, name its \
                     `item` (W-06)",
                )
            };
            if !has(world, unit, cond) {
                return Err(CommandError::Forbidden(format!(
                    "{} {text}",
                    name(world, unit)
                )));
            }
            let Some(a) = pay_choice(args.choice("pay")) else {
                return Err(CommandError::Forbidden("pay with AA, MA or BA".into()));
            };
            can_pay(world, unit, Use::StandUp, &[a], verb)
        }
        verbs::DELAY => {
            if t.acted {
                return Err(CommandError::Forbidden(
                    "Delay is only at the start of a turn, before any action (W-04)".into(),
                ));
            }
            let after = args.unit("after").unwrap_or(unit);
            if !w_state(world).round.queue.contains(&after) {
                return Err(CommandError::NoSuchTarget(format!(
                    "{} does not act later this round: a unit may only wait for a later one \
                     (W-GAP-12)",
                    name(world, after)
                )));
            }
            Ok(())
        }
        verbs::INVOKE => super::magic::check_invoke(world, unit, args),
        verbs::CANCEL => super::magic::check_cancel(world, unit),
        verbs::TOGGLE => super::magic::check_toggle(world, unit),
        verbs::SURRENDER => Ok(()),
        other => Err(CommandError::Forbidden(format!(
            "`wounds` has no action `{other}`"
        ))),
    }
}

fn act(unit: UnitId, verb: &str, args: Vec<(&str, ArgValue)>) -> Command {
    Command::Act {
        unit,
        verb: verb.into(),
        args: args.into_iter().fold(Args::new(), |a, (n, v)| a.with(n, v)),
    }
}

/// Every legal command now. Attacks are listed unaimed (Center Mass); any aim is
/// legal for a physical attack. Surrender is left out (no AI should pick it at
/// random).
pub fn legal(world: &World) -> Vec<Command> {
    if let Some(p) = &world.resource::<Pending>().0 {
        return p.answers().cloned().collect();
    }
    let Some(unit) = world.resource::<TurnState>().active else {
        return Vec::new();
    };
    let mut out = vec![Command::EndTurn { unit }];
    if !is_active(world, unit) {
        return out;
    }
    let board = &world.resource::<Map>().0;
    let occupancy = occupancy_for(world, unit);
    let start = cell_of(world, unit);
    // A channeling unit's actions go to its spell (W-33): it doesn't move.
    let channeling = wu(world, unit).channel.is_some();
    let walk = movement::reach_left(world, unit, false);
    let field = board.movement_field(start, movement::reach_left(world, unit, true), &occupancy);
    for (&goal, &cost) in &field {
        if channeling || goal == start || occupancy(goal) != Occupancy::Free {
            continue;
        }
        if let Some((path, _)) = board.path(start, goal, &occupancy) {
            // Dash only where a plain move can't go.
            let power = if cost <= walk { MOVE } else { state::DASH };
            out.push(Command::move_along(unit, power, path));
        }
    }
    let mut powers: Vec<Option<String>> = vec![None];
    if let Some(p) = world.get::<Powers>(entity(world, unit)) {
        powers.extend(p.0.iter().skip(1).map(|p| Some(p.name.clone())));
    }
    if has(world, unit, names::DISARMED) || super::gear::any_sheathed(world, unit) {
        powers.push(Some(state::UNARMED.into()));
    }
    let side = side_of(world, unit);
    for target in active_units(world) {
        if side_of(world, target) == side {
            continue;
        }
        for power in &powers {
            out.push(Command::attack(unit, target, power.clone()));
        }
    }
    if let Some(items) = world.get::<Items>(entity(world, unit)) {
        for i in &items.0 {
            out.push(Command::ActivateItem {
                unit,
                item: i.name.clone(),
                target: None,
            });
        }
    }
    out.extend(super::magic::commands(world, unit));
    for pay in DISENGAGE_PAY {
        out.push(act(
            unit,
            verbs::DISENGAGE,
            vec![("pay", ArgValue::Choice(pay.value.into()))],
        ));
    }
    for v in [verbs::HIT_BOOST, verbs::DAMAGE_BOOST, verbs::DODGE] {
        out.push(act(unit, v, Vec::new()));
    }
    for v in [verbs::STAND, verbs::PICK_UP] {
        for pay in ANY_PAY {
            out.push(act(
                unit,
                v,
                vec![("pay", ArgValue::Choice(pay.value.into()))],
            ));
        }
    }
    out.extend(super::gear::commands(world, unit));
    out.extend(super::extra::commands(world, unit));
    out.extend(super::summon::commands(world, unit));
    for &after in &w_state(world).round.queue {
        out.push(act(
            unit,
            verbs::DELAY,
            vec![("after", ArgValue::Unit(after))],
        ));
    }
    out.retain(|c| matches!(c, Command::Move { .. }) || check(world, c).is_ok());
    out
}
