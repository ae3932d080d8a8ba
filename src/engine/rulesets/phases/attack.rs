//! Attacks (P-03 … P-09, P-23, P-24, P-GAP-03, P-GAP-06): gathering advantage and
//! disadvantage sources, netting them into one extra die, rolling 2d6 + ATK against
//! DEF, damage and on-hit conditions. [`plan`] is also the odds the UI and AI show.

use bevy_ecs::prelude::*;

use super::PhasesRules;
use super::conditions::*;
use crate::engine::battle::{TurnState, check_victory, emit, entity, name};
use crate::engine::command::CommandError;
use crate::engine::conditions::{Condition, Duration};
use crate::engine::dice::Dice;
use crate::engine::event::{Event, ExtraDie};
use crate::engine::odds::DiceExpr;
use crate::engine::units::*;
use crate::level::schema::{EffectDuration, PowerDef};

/// Everything about an attack before the dice: sources, the dice expression, the
/// modifier and the number to reach.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttackPlan {
    /// Named advantage sources (P-09).
    pub advantage: Vec<String>,
    /// Named disadvantage sources (P-09).
    pub disadvantage: Vec<String>,
    /// The extra die after netting (P-GAP-03), if any.
    pub extra_die: Option<ExtraDie>,
    /// The roll: e.g. `2d6+1d8kh2`.
    pub expr: DiceExpr,
    /// ATK.
    pub modifier: i32,
    /// Target DEF.
    pub defense: i32,
}

impl AttackPlan {
    /// Exact chance the attack succeeds (total ≥ DEF, P-23).
    pub fn chance(&self) -> f64 {
        self.expr
            .distribution()
            .prob_at_least((self.defense - self.modifier) as i64)
    }
}

fn tier(world: &World, unit: UnitId) -> i32 {
    world
        .get::<Stats>(entity(world, unit))
        .map_or(1, |s| s.get("Tier"))
}

fn has(world: &World, unit: UnitId, condition: &str) -> bool {
    world
        .get::<Conditions>(entity(world, unit))
        .is_some_and(|c| c.has(condition))
}

/// Sources of advantage and disadvantage for `attacker` against `target` (P-09,
/// P-24, P-GAP-04): tier difference counts once per tier; other sources count once
/// however often they apply (P-GAP-03).
pub fn sources(
    world: &World,
    attacker: UnitId,
    target: UnitId,
    opportunity: bool,
) -> (Vec<String>, Vec<String>) {
    let mut adv = Vec::new();
    let mut dis = Vec::new();
    let diff = tier(world, attacker) - tier(world, target);
    for i in 0..diff.unsigned_abs() {
        let s = format!("tier difference ({}/{})", i + 1, diff.unsigned_abs());
        if diff > 0 { adv.push(s) } else { dis.push(s) }
    }
    if has(world, target, SEIZED) {
        adv.push("target seized the initiative".to_string());
    }
    if has(world, target, RUNNING) {
        adv.push("target ran".to_string());
    }
    if has(world, target, DEFENDING) {
        dis.push("target is defending".to_string());
    }
    if has(world, attacker, DISENGAGED) {
        dis.push("attacker disengaged".to_string());
    }
    if has(world, attacker, HUSTLED) {
        dis.push("attacker hustled".to_string());
    }
    if !opportunity && charging_at(world, attacker, target) {
        adv.push("charge".to_string());
    }
    (adv, dis)
}

fn charging_at(world: &World, attacker: UnitId, target: UnitId) -> bool {
    world
        .get::<Conditions>(entity(world, attacker))
        .and_then(|c| c.get(CHARGING))
        .is_some_and(|c| c.about == Some(target))
}

/// The attack before rolling (shared by the roll and the odds).
pub fn plan(world: &World, attacker: UnitId, target: UnitId, opportunity: bool) -> AttackPlan {
    let config = &world.resource::<PhasesRules>().0;
    let (advantage, disadvantage) = sources(world, attacker, target, opportunity);
    let (a, d) = (advantage.len() as i32, disadvantage.len() as i32);
    let net = if config.net_sources {
        a - d
    } else if a > 0 && d > 0 {
        0
    } else {
        a - d
    };
    let extra_die = config
        .extra_die(net.unsigned_abs(), net > 0)
        .map(|sides| ExtraDie {
            sides,
            advantage: net > 0,
        });
    let base = config.attack_dice.trim().to_string();
    let text = match extra_die {
        None => base,
        Some(x) => {
            let kept = base
                .split(['d', 'D'])
                .next()
                .and_then(|n| n.parse::<u32>().ok())
                .unwrap_or(1);
            let keep = if x.advantage { "kh" } else { "kl" };
            format!("{base}+1d{}{keep}{kept}", x.sides)
        }
    };
    let expr = text
        .parse()
        .unwrap_or_else(|_| "2d6".parse().expect("2d6 parses"));
    let stats = |u: UnitId| {
        world
            .get::<Stats>(entity(world, u))
            .cloned()
            .unwrap_or_default()
    };
    AttackPlan {
        advantage,
        disadvantage,
        extra_die,
        expr,
        modifier: stats(attacker).get("ATK"),
        defense: stats(target).get("DEF"),
    }
}

/// Damage dice of a power for this attacker (P-GAP-06: dice + Tier).
pub fn damage_expr(
    world: &World,
    attacker: UnitId,
    power: &PowerDef,
) -> Result<DiceExpr, CommandError> {
    let bonus = if power.add_tier {
        tier(world, attacker)
    } else {
        0
    };
    let text = if bonus != 0 {
        format!("{}+{bonus}", power.damage)
    } else {
        power.damage.clone()
    };
    text.parse().map_err(|e| {
        CommandError::Forbidden(format!(
            "power {}: damage `{}`: {e}",
            power.name, power.damage
        ))
    })
}

/// Expected damage of one attack: chance × mean damage.
pub fn expected_damage(world: &World, attacker: UnitId, target: UnitId, power: &PowerDef) -> f64 {
    let p = plan(world, attacker, target, false).chance();
    damage_expr(world, attacker, power).map_or(0.0, |d| p * d.distribution().mean().max(0.0))
}

/// Rolls an attack and applies its outcome. Returns whether it hit.
pub fn resolve(
    world: &mut World,
    attacker: UnitId,
    target: UnitId,
    power: &PowerDef,
    opportunity: bool,
) -> Result<bool, CommandError> {
    let plan = plan(world, attacker, target, opportunity);
    let roll = plan.expr.roll(&mut world.resource_mut::<Dice>())?;
    let total = roll.total as i32 + plan.modifier;
    let hit = total >= plan.defense;
    emit(
        world,
        Event::AttackRolled {
            attacker,
            target,
            power: power.name.clone(),
            advantage: plan.advantage,
            disadvantage: plan.disadvantage,
            extra_die: plan.extra_die,
            faces: roll.faces.iter().map(|&(_, f)| f).collect(),
            kept: roll.kept,
            modifier: plan.modifier,
            total,
            defense: plan.defense,
            hit,
        },
    );
    if !opportunity && charging_at(world, attacker, target) {
        emit(
            world,
            Event::ConditionRemoved {
                unit: attacker,
                name: CHARGING.into(),
                reason: "its charge attack was made".into(),
            },
        );
    }
    if hit {
        let dmg = damage_expr(world, attacker, power)?.roll(&mut world.resource_mut::<Dice>())?;
        damage(
            world,
            target,
            dmg.faces.iter().map(|&(_, f)| f).collect(),
            dmg.total.max(0) as i32,
        );
        if world.get::<Defeated>(entity(world, target)).is_none() {
            let round = world.resource::<TurnState>().round;
            for effect in &power.on_hit {
                let duration = match effect.lasts {
                    EffectDuration::SaveEnds => Duration::SaveEnds,
                    EffectDuration::Sustained => Duration::Sustained(attacker),
                    EffectDuration::EndOfRound => Duration::EndOfRound(round),
                };
                add_condition(
                    world,
                    target,
                    Condition {
                        name: effect.condition.clone(),
                        duration,
                        source: Some(attacker),
                        about: None,
                    },
                );
            }
        }
    }
    Ok(hit)
}

/// Deals damage; a unit at 0 HP or less is defeated (P-GAP-05).
pub fn damage(world: &mut World, unit: UnitId, faces: Vec<u32>, amount: i32) {
    let hp = world.get::<Health>(entity(world, unit)).map_or(0, |h| h.hp) - amount;
    emit(
        world,
        Event::Damaged {
            unit,
            faces,
            amount,
            hp,
        },
    );
    if hp <= 0 {
        emit(world, Event::Defeated { unit });
        check_victory(world);
    }
}

/// Adds a condition unless one of the same name is already there (same-name effects
/// don't stack, P-GAP-03); a repeated one refreshes a longer round duration.
pub fn add_condition(world: &mut World, unit: UnitId, condition: Condition) {
    let existing = world
        .get::<Conditions>(entity(world, unit))
        .and_then(|c| c.get(&condition.name).cloned());
    if let Some(old) = existing {
        if old == condition {
            return;
        }
        let refresh = matches!(
            (old.duration, condition.duration),
            (Duration::EndOfRound(a), Duration::EndOfRound(b)) if b > a
        ) || old.about != condition.about;
        if !refresh {
            return;
        }
        emit(
            world,
            Event::ConditionRemoved {
                unit,
                name: old.name.clone(),
                reason: "refreshed".into(),
            },
        );
    }
    emit(world, Event::ConditionAdded { unit, condition });
}

/// A one-line description of an attack's odds, for logs and prompts.
pub fn describe(world: &World, attacker: UnitId, target: UnitId) -> String {
    let p = plan(world, attacker, target, false);
    format!(
        "{} vs {}: {} + {} vs DEF {} → {:.1}%",
        name(world, attacker),
        name(world, target),
        p.expr,
        p.modifier,
        p.defense,
        p.chance() * 100.0
    )
}
