//! What the UI and the AI ask `phases` before acting: exact attack odds with the
//! modifiers behind them, move costs and provocations, turn orders and pools.

use super::pools;
use bevy_ecs::prelude::*;

use super::check::{power_named, validate_path};
use super::conditions::RUNNING;
use super::initiative::{battle_order, movement_order};
use super::movement::provocations;
use super::{Step, attack, round, rules};
use crate::engine::battle::entity;
use crate::engine::board::Cell;
use crate::engine::ruleset::{Assume, AttackOdds, AttackPreview, MovePreview};
use crate::engine::units::*;

/// Exact odds of an attack (P-23 with P-03 … P-09, P-GAP-03), damage and kill chance.
pub fn attack(
    world: &World,
    attacker: UnitId,
    target: UnitId,
    power: Option<&str>,
) -> Option<AttackPreview> {
    let power = power_named(world, attacker, power).ok()?;
    let plan = attack::plan(world, attacker, target, false);
    let chance = plan.chance();
    let damage = attack::damage_expr(world, attacker, &power)
        .ok()?
        .distribution();
    let hp = world
        .get::<Health>(entity(world, target))
        .map_or(0, |h| h.hp);
    let mut modifiers: Vec<String> = plan
        .advantage
        .iter()
        .map(|s| format!("advantage: {s}"))
        .collect();
    modifiers.extend(
        plan.disadvantage
            .iter()
            .map(|s| format!("disadvantage: {s}")),
    );
    if let Some(x) = plan.extra_die {
        let how = if x.advantage {
            "advantage"
        } else {
            "disadvantage"
        };
        modifiers.push(format!("net: {how} die d{}", x.sides));
    }
    Some(AttackPreview {
        chance,
        expected_damage: chance * damage.mean().max(0.0),
        kill_chance: chance * damage.prob_at_least(hp as i64),
        modifiers,
        roll: format!("{} {:+} vs DEF {}", plan.expr, plan.modifier, plan.defense),
    })
}

/// The numbers of [`attack()`] without its text, under hypothetical moves: the
/// conditions an assumed movement power applies (Hustled, Disengaged, Running), and a
/// charge at the target (P-GAP-04). An attacker assumed to Run can't attack: `None`.
pub fn odds(
    world: &World,
    attacker: UnitId,
    target: UnitId,
    power: Option<&str>,
    assume: Assume<'_>,
) -> Option<AttackOdds> {
    let powers = world.get::<Powers>(entity(world, attacker))?;
    let power = match power {
        None => powers.0.first()?,
        Some(p) => powers.0.iter().find(|d| d.name.eq_ignore_ascii_case(p))?,
    };
    let config = rules(world);
    let def = |name: Option<&str>| name.and_then(|n| config.movement_power(n));
    let mine = def(assume.attacker_moved);
    if mine.is_some_and(|d| d.applies.iter().any(|c| c == RUNNING)) {
        return None;
    }
    let assumed = attack::Assumed {
        attacker: mine.map_or(&[], |d| &d.applies[..]),
        charging: mine.is_some_and(|d| d.charge),
        target: def(assume.target_moved).map_or(&[], |d| &d.applies[..]),
    };
    let (chance, expected_damage, kill_chance) =
        attack::odds(world, attacker, target, power, assumed)?;
    Some(AttackOdds {
        chance,
        expected_damage,
        kill_chance,
    })
}

/// Cost and opportunity attacks of a move along `path` with movement power `power`.
pub fn movement(world: &World, unit: UnitId, power: &str, path: &[Cell]) -> MovePreview {
    let Some(def) = rules(world).movement_power(power) else {
        return MovePreview::default();
    };
    let cost = validate_path(world, unit, def, path, None).unwrap_or_else(|_| {
        let board = &world.resource::<crate::engine::battle::Map>().0;
        path.iter().filter_map(|&c| board.step_cost(c)).sum()
    });
    let provocations = provocations(world, unit, def, path);
    MovePreview {
        cost,
        provocations,
        ..MovePreview::default()
    }
}

/// "Movement order" and "Battle order" of the round (P-12, P-13, P-15).
pub fn turn_order(world: &World) -> Vec<(String, Vec<UnitId>)> {
    let flow = round(world);
    if flow.step == Step::RoundStart {
        return Vec::new();
    }
    vec![
        (
            "Movement order".into(),
            movement_order(&flow.descending, &flow.seizers),
        ),
        (
            "Battle order".into(),
            battle_order(&flow.descending, &flow.seizers),
        ),
    ]
}

/// The unit's movement power and battle action left this round.
pub fn pools(world: &World, unit: UnitId) -> Vec<(String, i32)> {
    let pool = world
        .get::<ActionPool>(entity(world, unit))
        .cloned()
        .unwrap_or_default();
    vec![
        ("Movement power".into(), pool.left(pools::MOVEMENT_POWER)),
        ("Battle action".into(), pool.left(pools::BATTLE_ACTION)),
    ]
}
