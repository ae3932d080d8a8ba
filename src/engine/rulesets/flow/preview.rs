//! What the UI and the AI ask `flow` before acting: exact odds of an attack's check
//! with the modifiers behind it, damage and kill chances over every success level,
//! move costs and the Reaction Attacks a move would offer, the initiative order and
//! a unit's AP / RP / FP.

use std::collections::BTreeSet;

use bevy_ecs::prelude::*;

use super::actions::best_of;
use super::attack::{attack_odds, attack_odds_assuming, plan};
use super::conditions::GRAPPLING;
use super::movement::path_cost;
use super::*;
use crate::engine::command::Command;
use crate::engine::ruleset::{AttackPreview, MovePreview};

/// Exact odds of an attack as things stand (F-GAP-01, F-GAP-02, F-GAP-06); the chance
/// is that the check succeeds, before the target's optional reaction.
pub fn attack(
    world: &World,
    attacker: UnitId,
    target: UnitId,
    power: Option<&str>,
) -> Option<AttackPreview> {
    let weapon = weapon_named(world, attacker, power).ok()?;
    let p = plan(world, attacker, target, &weapon, &AttackKind::Normal);
    let (chance, expected_damage, kill_chance) =
        attack_odds(world, attacker, target, &weapon, &AttackKind::Normal).ok()?;
    let edge = match p.edge {
        Some(crate::engine::skill::Edge::Advantage) => " with advantage",
        Some(crate::engine::skill::Edge::Disadvantage) => " with disadvantage",
        None => "",
    };
    Some(AttackPreview {
        chance,
        expected_damage,
        kill_chance,
        modifiers: p.modifiers.clone(),
        roll: format!(
            "d{}{edge} <= {} {} {}",
            super::rules(world).checks.constants().die,
            p.target,
            p.skill,
            weapon.damage
        ),
    })
}

/// The numbers of [`attack()`]; of the assumptions only a won Feint changes them
/// (movement changes no odds in `flow`).
pub fn odds(
    world: &World,
    attacker: UnitId,
    target: UnitId,
    power: Option<&str>,
    assume: crate::engine::ruleset::Assume<'_>,
) -> Option<crate::engine::ruleset::AttackOdds> {
    let weapon = weapon_named(world, attacker, power).ok()?;
    let (chance, expected_damage, kill_chance) = attack_odds_assuming(
        world,
        attacker,
        target,
        &weapon,
        &AttackKind::Normal,
        assume.feinted,
    )
    .ok()?;
    Some(crate::engine::ruleset::AttackOdds {
        chance,
        expected_damage,
        kill_chance,
    })
}

/// Exact chance that a Feint wins its opposed check (F-34, F-GAP-03, F-GAP-17): the
/// feinter's better of Melee/Deception (at a disadvantage while grappling, as it
/// rolls) against the target's better of Melee/Agility, ties to the target. `None`
/// for any other command.
pub fn action_chance(world: &World, command: &Command) -> Option<f64> {
    let Command::Act { unit, .. } = command else {
        return None;
    };
    let Some(FlowAction::Feint { target }) = FlowAction::of(command) else {
        return None;
    };
    let target = &target;
    let checks = &rules(world).checks;
    let edge = has(world, *unit, GRAPPLING).then_some(crate::engine::skill::Edge::Disadvantage);
    let actor = checks.level_odds(best_of(world, *unit, &["Melee", "Deception"]).1, edge);
    let responder = checks.level_odds(best_of(world, *target, &["Melee", "Agility"]).1, None);
    let mut won = 0.0;
    for (a, pa) in actor {
        for (r, pr) in responder {
            if !crate::engine::skill::responder_wins(a, r) {
                won += pa * pr;
            }
        }
    }
    Some(won)
}

/// Cost and provocations of a move: `Move` costs hexes (AP aside), `Step` provokes
/// nothing (F-39); otherwise every enemy threatening a hex left may react (F-47).
pub fn movement(world: &World, unit: UnitId, power: &str, path: &[Cell]) -> MovePreview {
    let cost = path_cost(world, unit, path).unwrap_or_else(|_| {
        let board = &world.resource::<Map>().0;
        path.iter().filter_map(|&c| board.step_cost(c)).sum()
    });
    if power.eq_ignore_ascii_case("Step") {
        return MovePreview {
            cost,
            ..MovePreview::default()
        };
    }
    let threats = Threats::against(world, unit);
    let mut seen = BTreeSet::new();
    let mut cur = cell_of(world, unit);
    for &next in path {
        seen.extend(threats.at(cur));
        cur = next;
    }
    MovePreview {
        cost,
        provocations: seen.len(),
        ..MovePreview::default()
    }
}

/// The initiative order (F-02, F-05), rolled once for the battle.
pub fn turn_order(world: &World) -> Vec<(String, Vec<UnitId>)> {
    let st = flow_state(world);
    if st.queue.order().is_empty() {
        return Vec::new();
    }
    let label = if st.surprise_round {
        "Initiative (Surprise Round: surprisers only)"
    } else {
        "Initiative"
    };
    vec![(label.into(), st.queue.order().to_vec())]
}

/// AP, RP and FP (F-07, F-09, F-12), and hexes left of the current Move action.
pub fn pools(world: &World, unit: UnitId) -> Vec<(String, i32)> {
    vec![
        ("AP".into(), pool(world, unit, pools::AP)),
        ("RP".into(), pool(world, unit, pools::RP)),
        ("FP".into(), pool(world, unit, pools::FP)),
        ("Move left".into(), flow_unit(world, unit).allowance as i32),
    ]
}
