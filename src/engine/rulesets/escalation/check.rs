//! Whether a command is legal in `escalation` now, and why not (a typed refusal in
//! the game's words), and every legal command (for the AI and property tests).

use bevy_ecs::world::World;

use super::actions::ActionKind;
use super::attack::{self, NoStrike};
use super::conditions as names;
use super::movement::{self, engaged};
use super::powers::Timing;
use super::state::{self, BASIC_MELEE, BASIC_RANGED, MOVE, esc, esc_state, has, helpless, rules};
use super::turn;
use super::verbs::{self, BANDS};
use crate::engine::battle::{
    Map, Pending, TurnState, active_units, board_units, cell_of, is_active, name, occupancy_for,
    on_board, play_state, side_of,
};
use crate::engine::board::Cell;
use crate::engine::command::{Command, CommandError};
use crate::engine::units::{PlayState, Powers, UnitId};
use crate::engine::verb::{ArgValue, Args};

/// Whether `command` is legal now.
pub fn check(world: &World, command: &Command) -> Result<(), CommandError> {
    let Some(unit) = crate::engine::battle::turn_of(world, command)? else {
        return Ok(());
    };
    if state::spirit(world, unit) {
        return match command {
            Command::EndTurn { .. } => Ok(()),
            Command::Act { verb, args, .. } if verb == verbs::FIGHT_IN_SPIRIT => {
                let ally = args.unit("ally").unwrap_or(unit);
                if side_of(world, ally) != side_of(world, unit) || !is_active(world, ally) {
                    Err(CommandError::NoSuchTarget(format!(
                        "{} is not an ally in the fight",
                        name(world, ally)
                    )))
                } else {
                    Ok(())
                }
            }
            _ => Err(CommandError::Forbidden(format!(
                "{} is out of the fight: it may only Fight in Spirit (E-41) or end its turn",
                name(world, unit)
            ))),
        };
    }
    if !is_active(world, unit) {
        return Err(CommandError::Defeated(name(world, unit)));
    }
    match command {
        Command::EndTurn { .. } => Ok(()),
        Command::Move { power, path, .. } => check_move(world, unit, power, path),
        Command::Attack { target, power, .. } => {
            check_attack(world, unit, *target, power.as_deref())
        }
        Command::ActivateItem { .. } => Err(CommandError::Forbidden(
            "`escalation` units have no items to use".into(),
        )),
        Command::Act { verb, args, .. } => check_verb(world, unit, verb, args),
        _ => Err(CommandError::NoDecisionPending),
    }
}

/// A Dicey Move's `Hazard` or `Hinder` reward needs `target`, another unit in the
/// fight within Nearby, and `Hinder` its `condition` (E-40).
fn check_stunt_target(world: &World, unit: UnitId, args: &Args) -> Result<(), CommandError> {
    let Some(target) = args.unit("target") else {
        return Err(CommandError::Forbidden(
            "a Hazard or Hinder reward needs `target`: the unit within Nearby it hits (E-40)"
                .into(),
        ));
    };
    let d = world
        .resource::<Map>()
        .0
        .distance(cell_of(world, unit), cell_of(world, target));
    if target == unit || !is_active(world, target) || d > movement::nearby_limit(world) {
        return Err(CommandError::NoSuchTarget(format!(
            "{} is not another unit in the fight within Nearby of {} (E-40)",
            name(world, target),
            name(world, unit)
        )));
    }
    if args.choice("reward") == Some("Hinder") && args.choice("condition").is_none() {
        let valid: Vec<&str> = verbs::HINDERS.iter().map(|c| c.value).collect();
        return Err(CommandError::Forbidden(format!(
            "a Hinder reward needs `condition`, one of {} (E-40)",
            valid.join(", ")
        )));
    }
    Ok(())
}

/// Refuses when the turn has no action of `kind` left, nor a better one (E-22).
fn needs(world: &World, unit: UnitId, kind: ActionKind, what: &str) -> Result<(), CommandError> {
    if esc_state(world).turn.left.payer(kind).is_some() {
        Ok(())
    } else {
        Err(CommandError::Forbidden(format!(
            "{} has no {} action left for {what} (nor a better one to use instead)",
            name(world, unit),
            kind.name()
        )))
    }
}

fn not_stuck(world: &World, unit: UnitId) -> Result<(), CommandError> {
    if has(world, unit, names::STUCK) {
        Err(CommandError::Forbidden(format!(
            "{} is Stuck: it can't move or disengage (E-65)",
            name(world, unit)
        )))
    } else {
        Ok(())
    }
}

fn check_move(world: &World, unit: UnitId, power: &str, path: &[Cell]) -> Result<(), CommandError> {
    if power != MOVE {
        return Err(CommandError::Unknown {
            unit: name(world, unit),
            kind: "movement power",
            name: power.to_string(),
        });
    }
    needs(world, unit, ActionKind::Move, "a move")?;
    not_stuck(world, unit)?;
    check_path(world, unit, path, MOVE)
}

/// A path of adjacent, enterable cells, not through enemies, ending on a free cell,
/// within the Move action's squares (E-GAP-01, E-GAP-14).
pub fn check_path(
    world: &World,
    unit: UnitId,
    path: &[Cell],
    power: &str,
) -> Result<(), CommandError> {
    let cost = crate::engine::battle::check_steps(world, unit, path, Default::default())?;
    let budget = rules(world).speed;
    if cost > budget {
        return Err(CommandError::NotEnoughMovement {
            cost,
            budget,
            power: power.to_string(),
        });
    }
    Ok(())
}

fn check_attack(
    world: &World,
    unit: UnitId,
    target: UnitId,
    power: Option<&str>,
) -> Result<(), CommandError> {
    let heal = power.is_some_and(|p| state::header_of(world, unit, p).heal);
    if heal {
        // A non-attack Heal power: the unit itself or an ally in the fight (E-47).
        if side_of(world, target) != side_of(world, unit) || !on_board(world, target) {
            return Err(CommandError::NoSuchTarget(format!(
                "{} heals the unit itself or an ally; {} is neither (E-47)",
                power.unwrap_or_default(),
                name(world, target)
            )));
        }
    } else if target == unit || !is_active(world, target) {
        // E-31: "enemies" may be allies the attacker means harm: any other unit in play.
        return Err(CommandError::NoSuchTarget(format!(
            "{} is not in the fight",
            name(world, target)
        )));
    }
    if let Ok(s) = attack::strike(world, unit, target, power) {
        match s.header.timing {
            Timing::Action => needs(world, unit, s.header.action, &s.name)?,
            Timing::Free => {
                let me = esc(world, unit);
                if me.free_used.contains(&(s.name.clone(), me.turns)) {
                    return Err(CommandError::AlreadyUsed {
                        unit: name(world, unit),
                        what: format!("used its Free power {} this turn (E-21)", s.name),
                    });
                }
            }
            Timing::Interrupt(t) => {
                return Err(CommandError::Forbidden(format!(
                    "{} is an Interrupt power: {} uses it off its turn, when `Interrupt: {}` \
                     happens (E-24)",
                    s.name,
                    name(world, unit),
                    t.words()
                )));
            }
        }
    } else {
        needs(world, unit, ActionKind::Standard, "an attack")?;
    }
    usable_now(world, unit, target, power)
}

/// Whether `unit` may use `power` (`None`: its basic attack) on `target` now,
/// action economy aside: the power's use (E-27, E-30), a Staggered target (E-45),
/// Hampered (E-59), the stance and reach, Grabbed (E-58). An Interrupt is checked
/// with this too (E-24).
pub fn usable_now(
    world: &World,
    unit: UnitId,
    target: UnitId,
    power: Option<&str>,
) -> Result<(), CommandError> {
    if let Ok(s) = attack::strike(world, unit, target, power) {
        let h = s.header;
        check_use(world, unit, &s.name, &h)?;
        if h.staggered_target && !has(world, target, names::STAGGERED) {
            return Err(CommandError::NoSuchTarget(format!(
                "{} needs a Staggered target (at or below half its HP); {} is not (E-45)",
                s.name,
                name(world, target)
            )));
        }
    }
    let basic = power.is_none_or(|p| p == BASIC_MELEE || p == BASIC_RANGED);
    if let Some(first) = attack::hampered_attack(world, unit) {
        if power != Some(first.as_str()) {
            return Err(CommandError::Forbidden(format!(
                "{} is Hampered: an enemy's basic attack is its first listed attack, \
                 {first}, without its non-damage effects (E-59)",
                name(world, unit)
            )));
        }
    } else if !basic && has(world, unit, names::HAMPERED) {
        return Err(CommandError::Forbidden(format!(
            "{} is Hampered: only basic attacks (E-59)",
            name(world, unit)
        )));
    }
    match attack::strike(world, unit, target, power) {
        Ok(s) => {
            if s.ranged && has(world, unit, names::GRABBED) {
                return Err(CommandError::Forbidden(format!(
                    "{} is Grabbed: no ranged attacks (E-58)",
                    name(world, unit)
                )));
            }
            Ok(())
        }
        Err(NoStrike::Unknown) => Err(CommandError::Unknown {
            unit: name(world, unit),
            kind: "attack",
            name: power.unwrap_or_default().to_string(),
        }),
        Err(NoStrike::Stance(s)) => Err(CommandError::Forbidden(format!(
            "{} needs {} stance; {} is in {} stance (switch stance first: a Quick action, key I)",
            power.unwrap_or_default(),
            s.name(),
            name(world, unit),
            s.other().name()
        ))),
        Err(NoStrike::Reach(r)) => {
            let d = world
                .resource::<Map>()
                .0
                .distance(cell_of(world, unit), cell_of(world, target));
            let band = rules(world)
                .bands
                .name_of(d)
                .unwrap_or("out of range")
                .to_string();
            Err(CommandError::OutOfReach(format!(
                "{} is {band} ({d} squares away); the attack reaches {}",
                name(world, target),
                if r == 1 {
                    "Engaged enemies only (adjacent)".to_string()
                } else {
                    format!("{r} squares")
                }
            )))
        }
    }
}

/// Whether `unit` may use its power `power` with header `h` now: not an Encounter,
/// Daily or Recharge power already used (E-27), its Power cost (E-30), its
/// `Escalation X+` against the die the battle shows, which a Shaken unit counts as
/// 0 (E-30, E-63), and its `Escalation even` / `Escalation odd` against the die as
/// the unit counts it, which at 0 is neither (E-18).
fn check_use(
    world: &World,
    unit: UnitId,
    power: &str,
    h: &super::powers::Header,
) -> Result<(), CommandError> {
    let me = esc(world, unit);
    if h.frequency != super::powers::Frequency::AtWill && me.used.iter().any(|u| u == power) {
        return Err(CommandError::AlreadyUsed {
            unit: name(world, unit),
            what: format!("used {power}, which comes back only at a rest (E-27)"),
        });
    }
    if h.spend > me.power_points {
        return Err(CommandError::Forbidden(format!(
            "{power} costs {} Power; {} has {} (E-30)",
            h.spend,
            name(world, unit),
            me.power_points
        )));
    }
    if h.escalation.is_none() && h.parity.is_none() {
        return Ok(());
    }
    // The die as the unit counts it: 0 when Shaken (E-63).
    let counted = state::die_for(world, unit);
    if let Some(x) = h.escalation
        && counted < x
    {
        let die = state::battle_die(world);
        let shaken = if counted != die {
            format!(
                ", but {} is Shaken and counts it as 0 (E-63)",
                name(world, unit)
            )
        } else {
            String::new()
        };
        return Err(CommandError::Forbidden(format!(
            "{power} needs the Escalation die at {x} or more; it is {die}{shaken} (E-30)"
        )));
    }
    if let Some(even) = h.parity
        && super::harm::escalation_is_even(counted) != Some(even)
    {
        return Err(CommandError::Forbidden(format!(
            "{power} needs the Escalation die {}; it is {counted}{} (E-18)",
            if even { "even" } else { "odd" },
            if counted == 0 {
                ", which is neither even nor odd"
            } else {
                ""
            }
        )));
    }
    Ok(())
}

/// A Move's destination `to` must be reachable with one Move action (E-GAP-01).
fn check_destination(
    world: &World,
    unit: UnitId,
    to: Cell,
    what: &str,
) -> Result<(), CommandError> {
    let occupancy = crate::engine::battle::occupancy_at(world, unit);
    let board = &world.resource::<Map>().0;
    let Some((path, _)) = board.path(cell_of(world, unit), to, &occupancy) else {
        return Err(CommandError::PathBlocked(format!(
            "{} can't get to {to}",
            name(world, unit)
        )));
    };
    check_path(world, unit, &path, what)
}

fn check_verb(world: &World, unit: UnitId, verb: &str, args: &Args) -> Result<(), CommandError> {
    let me = esc(world, unit);
    match verb {
        verbs::DISENGAGE => {
            needs(world, unit, ActionKind::Move, "Disengage")?;
            not_stuck(world, unit)?;
            let from = engaged(world, unit);
            if from.is_empty() {
                return Err(CommandError::Forbidden(format!(
                    "{} is not engaged: it can simply move",
                    name(world, unit)
                )));
            }
            if let Some(x) = args.unit("except") {
                if !from.contains(&x) {
                    return Err(CommandError::NoSuchTarget(format!(
                        "{} is not engaged with {}",
                        name(world, x),
                        name(world, unit)
                    )));
                }
                if from.len() == 1 {
                    return Err(CommandError::Forbidden(format!(
                        "{} is the only enemy engaged with {}: it can simply move",
                        name(world, x),
                        name(world, unit)
                    )));
                }
            }
            let to = args.cell("to").unwrap_or(cell_of(world, unit));
            check_destination(world, unit, to, verbs::DISENGAGE)
        }
        verbs::STANCE => needs(world, unit, ActionKind::Quick, "switching stance"),
        verbs::RALLY => {
            // E-47: with no Recoveries left Rally still heals, halved, and the
            // unit takes -1 to Volition and all Defenses (`recover`).
            needs(world, unit, ActionKind::Standard, "Rally")
        }
        verbs::DELAY => {
            if esc_state(world).turn.acted {
                return Err(CommandError::Forbidden(
                    "Delay is only at the start of a turn, before any action (E-19)".into(),
                ));
            }
            let value = args.choice("band").unwrap_or_default();
            let config = rules(world);
            match turn::band_index(config, value) {
                Some(b)
                    if super::initiative::may_delay(me.band, b, config.initiative_bands.len()) =>
                {
                    Ok(())
                }
                Some(_) => Err(CommandError::Forbidden(format!(
                    "{} is in the {} band; it may only delay to a lower (later) band",
                    name(world, unit),
                    config.initiative_bands[me.band]
                ))),
                None => Err(CommandError::Forbidden(format!(
                    "no band named `{value}`; the bands are {}",
                    config.initiative_bands.join(", ")
                ))),
            }
        }
        verbs::STABILIZE => {
            needs(world, unit, ActionKind::Standard, "Stabilize")?;
            let target = args.unit("target").unwrap_or(unit);
            let next_to = world
                .resource::<Map>()
                .0
                .distance(cell_of(world, unit), cell_of(world, target))
                == 1;
            if side_of(world, target) != side_of(world, unit)
                || play_state(world, target) != PlayState::Dying
            {
                Err(CommandError::NoSuchTarget(format!(
                    "{} is not a Dying ally",
                    name(world, target)
                )))
            } else if !next_to {
                Err(CommandError::OutOfReach(format!(
                    "{} must be next to {} to stabilize it (E-GAP-23)",
                    name(world, unit),
                    name(world, target)
                )))
            } else if esc(world, target).death.stabilized {
                Err(CommandError::Forbidden(format!(
                    "{} is already stabilized",
                    name(world, target)
                )))
            } else {
                Ok(())
            }
        }
        verbs::COUP_DE_GRACE => {
            let t = esc_state(world).turn.left;
            if !(t.quick && t.moves && t.standard) {
                return Err(CommandError::Forbidden(
                    "a Coup de Grace spends the Standard, Move and Quick actions: all must be \
                     left (E-44)"
                        .into(),
                ));
            }
            let target = args.unit("target").unwrap_or(unit);
            if side_of(world, target) == side_of(world, unit) || !helpless(world, target) {
                return Err(CommandError::NoSuchTarget(format!(
                    "{} is not a helpless enemy (E-44, E-60)",
                    name(world, target)
                )));
            }
            let d = world
                .resource::<Map>()
                .0
                .distance(cell_of(world, unit), cell_of(world, target));
            if d != 1 {
                return Err(CommandError::OutOfReach(format!(
                    "{} must be engaged with {} (adjacent)",
                    name(world, unit),
                    name(world, target)
                )));
            }
            Ok(())
        }
        verbs::READY => {
            let power = args.name("power");
            let to = args.cell("to");
            if power.is_some() && to.is_some() {
                return Err(CommandError::Forbidden(
                    "ready one action: a power (`power`) or a Move (`to`), not both (E-20)".into(),
                ));
            }
            if let Some(p) = power {
                let known = world
                    .get::<Powers>(crate::engine::battle::entity(world, unit))
                    .is_some_and(|ps| ps.0.iter().any(|x| x.name == p));
                if !known {
                    return Err(CommandError::Unknown {
                        unit: name(world, unit),
                        kind: "power",
                        name: p.to_string(),
                    });
                }
                let h = state::header_of(world, unit, p);
                if h.timing != Timing::Action {
                    return Err(CommandError::Forbidden(format!(
                        "{p} is a Free or Interrupt power; only a Quick, Move or Standard \
                         action can be readied (E-20)"
                    )));
                }
                check_use(world, unit, p, &h)?;
            }
            let kind = turn::ready_kind(world, unit, power, to);
            needs(world, unit, kind, "Ready")?;
            if let Some(to) = to {
                not_stuck(world, unit)?;
                check_destination(world, unit, to, "a readied Move")?;
            }
            Ok(())
        }
        verbs::DICEY_MOVE => {
            needs(world, unit, ActionKind::Move, "a Dicey Move")?;
            if matches!(args.choice("reward"), Some("Hazard" | "Hinder")) {
                check_stunt_target(world, unit, args)?;
            }
            if args.choice("reward") == Some("Aid") {
                let Some(ally) = args.unit("ally") else {
                    return Err(CommandError::Forbidden(
                        "an Aid reward needs `ally`: the ally whose next Disengage gets the \
                         Advantage"
                            .into(),
                    ));
                };
                let next_to = world
                    .resource::<Map>()
                    .0
                    .distance(cell_of(world, unit), cell_of(world, ally))
                    == 1;
                if ally == unit || side_of(world, ally) != side_of(world, unit) || !next_to {
                    return Err(CommandError::NoSuchTarget(format!(
                        "{} is not an ally next to {}",
                        name(world, ally),
                        name(world, unit)
                    )));
                }
            }
            Ok(())
        }
        verbs::FIGHT_IN_SPIRIT => Err(CommandError::Forbidden(format!(
            "{} is still in the fight; Fight in Spirit is for a PC out of it for good (E-41)",
            name(world, unit)
        ))),
        verbs::GRANT_SAVE => {
            needs(world, unit, ActionKind::Standard, "granting a save")?;
            let target = args.unit("target").unwrap_or(unit);
            if target == unit
                || side_of(world, target) != side_of(world, unit)
                || esc(world, target).last_gasp.is_none()
            {
                return Err(CommandError::NoSuchTarget(format!(
                    "{} is not an ally under a Last Gasp effect (E-52)",
                    name(world, target)
                )));
            }
            Ok(())
        }
        verbs::SUSTAIN => {
            let power = args.name("power").unwrap_or_default();
            let turn = me.turns;
            let mine: Vec<_> = me.sustaining.iter().filter(|s| s.power == power).collect();
            if mine.is_empty() {
                return Err(CommandError::Forbidden(format!(
                    "{} has no effect of `{power}` to sustain (E-29)",
                    name(world, unit)
                )));
            }
            if mine.iter().all(|s| s.kept == turn) {
                return Err(CommandError::AlreadyUsed {
                    unit: name(world, unit),
                    what: format!("sustained {power} this turn"),
                });
            }
            let h = state::header_of(world, unit, power);
            needs(world, unit, h.action, &format!("sustaining {power}"))
        }
        verbs::FLEE => Ok(()),
        other => Err(CommandError::Forbidden(format!(
            "`escalation` has no action `{other}`"
        ))),
    }
}

/// Every legal command now. Flee is left out: a random player would end every
/// battle by fleeing.
pub fn legal(world: &World) -> Vec<Command> {
    if let Some(p) = &world.resource::<Pending>().0 {
        return p.answers().cloned().collect();
    }
    let Some(unit) = world.resource::<TurnState>().active else {
        return Vec::new();
    };
    let mut out = vec![Command::EndTurn { unit }];
    if state::spirit(world, unit) {
        for ally in active_units(world) {
            for b in verbs::BOONS {
                out.push(act(
                    unit,
                    verbs::FIGHT_IN_SPIRIT,
                    vec![
                        ("ally", ArgValue::Unit(ally)),
                        ("boon", ArgValue::Choice(b.value.into())),
                    ],
                ));
            }
        }
        out.retain(|c| check(world, c).is_ok());
        return out;
    }
    let board = &world.resource::<Map>().0;
    let occupancy = occupancy_for(world, unit);
    let start = cell_of(world, unit);
    let field = board.movement_field(start, rules(world).speed, &occupancy);
    let engaged_now = !engaged(world, unit).is_empty();
    for &goal in field.keys() {
        if goal == start {
            continue;
        }
        if let Some((path, _)) = board.path(start, goal, &occupancy) {
            out.push(Command::move_along(unit, MOVE, path));
            if engaged_now {
                out.push(act(
                    unit,
                    verbs::DISENGAGE,
                    vec![("to", ArgValue::Cell(goal))],
                ));
            }
        }
    }
    let mut powers: Vec<Option<String>> = vec![None];
    if let Some(p) = world.get::<Powers>(crate::engine::battle::entity(world, unit)) {
        powers.extend(p.0.iter().skip(1).map(|p| Some(p.name.clone())));
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
    out.push(act(unit, verbs::STANCE, Vec::new()));
    out.push(act(unit, verbs::RALLY, Vec::new()));
    out.push(act(unit, verbs::READY, Vec::new()));
    let mut sustained: Vec<String> = esc(world, unit)
        .sustaining
        .iter()
        .map(|s| s.power.clone())
        .collect();
    sustained.dedup();
    for p in sustained {
        out.push(act(
            unit,
            verbs::SUSTAIN,
            vec![("power", ArgValue::Name(p))],
        ));
    }
    for b in BANDS {
        out.push(act(
            unit,
            verbs::DELAY,
            vec![("band", ArgValue::Choice(b.value.into()))],
        ));
    }
    for target in board_units(world) {
        out.push(act(
            unit,
            verbs::STABILIZE,
            vec![("target", ArgValue::Unit(target))],
        ));
        out.push(act(
            unit,
            verbs::GRANT_SAVE,
            vec![("target", ArgValue::Unit(target))],
        ));
        out.push(act(
            unit,
            verbs::COUP_DE_GRACE,
            vec![("target", ArgValue::Unit(target))],
        ));
    }
    out.retain(|c| check(world, c).is_ok());
    out
}

fn act(unit: UnitId, verb: &str, args: Vec<(&str, ArgValue)>) -> Command {
    Command::Act {
        unit,
        verb: verb.into(),
        args: args.into_iter().fold(Args::new(), |a, (n, v)| a.with(n, v)),
    }
}
