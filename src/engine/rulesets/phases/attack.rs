//! Attacks (P-03 … P-09, P-23, P-24, P-GAP-03, P-GAP-06): gathering advantage and
//! disadvantage sources, netting them into one extra die, rolling 2d6 + ATK against
//! DEF, damage and on-hit conditions. [`plan`] is also the odds the UI and AI show.

use std::cell::RefCell;
use std::rc::Rc;

use bevy_ecs::prelude::*;

use super::PhasesRules;
use super::conditions::*;
use crate::engine::battle::{TurnState, check_victory, emit, entity, name};
use crate::engine::command::CommandError;
use crate::engine::conditions::{Condition, Duration};
use crate::engine::dice::Dice;
use crate::engine::event::{Event, ExtraDie};
use crate::engine::odds::{DiceExpr, Distribution};
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

/// One source of advantage or disadvantage (P-09, P-24, P-GAP-04).
#[derive(Clone, Copy, Debug)]
enum Source {
    /// Tier difference: source `i` of `n`.
    Tier(u32, u32),
    Seized,
    Ran,
    Defending,
    Disengaged,
    Hustled,
    Charge,
}

impl Source {
    fn label(self) -> String {
        match self {
            Source::Tier(i, n) => format!("tier difference ({i}/{n})"),
            Source::Seized => "target seized the initiative".to_string(),
            Source::Ran => "target ran".to_string(),
            Source::Defending => "target is defending".to_string(),
            Source::Disengaged => "attacker disengaged".to_string(),
            Source::Hustled => "attacker hustled".to_string(),
            Source::Charge => "charge".to_string(),
        }
    }
}

/// Conditions an odds query assumes on top of the real ones (hypothetical moves).
#[derive(Clone, Copy, Default)]
pub(super) struct Assumed<'a> {
    /// Conditions the attacker's assumed move applies.
    pub attacker: &'a [String],
    /// The attacker's assumed move is a charge at the target.
    pub charging: bool,
    /// Conditions the target's assumed move applies.
    pub target: &'a [String],
}

/// Calls `f(advantage?, source)` for each source of `attacker` against `target`, in
/// the order the log names them.
fn each_source(
    world: &World,
    attacker: UnitId,
    target: UnitId,
    opportunity: bool,
    assumed: Assumed<'_>,
    mut f: impl FnMut(bool, Source),
) {
    let diff = tier(world, attacker) - tier(world, target);
    for i in 0..diff.unsigned_abs() {
        f(diff > 0, Source::Tier(i + 1, diff.unsigned_abs()));
    }
    // Each unit's conditions are read once (odds are asked often).
    let conditions = |u: UnitId| world.get::<Conditions>(entity(world, u));
    let (theirs, mine) = (conditions(target), conditions(attacker));
    let has_or = |c: Option<&Conditions>, condition: &str, assumed: &[String]| {
        c.is_some_and(|c| c.has(condition)) || assumed.iter().any(|c| c == condition)
    };
    if has_or(theirs, SEIZED, assumed.target) {
        f(true, Source::Seized);
    }
    if has_or(theirs, RUNNING, assumed.target) {
        f(true, Source::Ran);
    }
    if has_or(theirs, DEFENDING, assumed.target) {
        f(false, Source::Defending);
    }
    if has_or(mine, DISENGAGED, assumed.attacker) {
        f(false, Source::Disengaged);
    }
    if has_or(mine, HUSTLED, assumed.attacker) {
        f(false, Source::Hustled);
    }
    if !opportunity && (assumed.charging || charging_at(world, attacker, target)) {
        f(true, Source::Charge);
    }
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
    each_source(
        world,
        attacker,
        target,
        opportunity,
        Assumed::default(),
        |a, s| {
            if a {
                adv.push(s.label())
            } else {
                dis.push(s.label())
            }
        },
    );
    (adv, dis)
}

/// The extra die after netting `a` advantage and `d` disadvantage sources (P-GAP-03).
fn net_die(world: &World, a: i32, d: i32) -> Option<ExtraDie> {
    let config = &world.resource::<PhasesRules>().0;
    let net = if config.net_sources {
        a - d
    } else if a > 0 && d > 0 {
        0
    } else {
        a - d
    };
    config
        .extra_die(net.unsigned_abs(), net > 0)
        .map(|sides| ExtraDie {
            sides,
            advantage: net > 0,
        })
}

/// The attack roll's dice: the base dice plus the extra die, keeping as many dice as
/// the base rolls (e.g. `2d6+1d8kh2`).
fn roll_text(base: &str, extra_die: Option<ExtraDie>) -> String {
    let base = base.trim().to_string();
    match extra_die {
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
    }
}

fn roll_expr(base: &str, extra_die: Option<ExtraDie>) -> DiceExpr {
    roll_text(base, extra_die)
        .parse()
        .unwrap_or_else(|_| "2d6".parse().expect("2d6 parses"))
}

/// Distributions the fast odds path reuses, per thread: attack rolls by (base dice,
/// extra die) and damage by (damage dice, bonus).
type RollCache = Vec<(String, Option<ExtraDie>, Rc<Distribution>)>;
type DamageCache = Vec<(String, i32, Option<Rc<Distribution>>)>;
thread_local! {
    static ROLLS: RefCell<RollCache> = const { RefCell::new(Vec::new()) };
    static DAMAGES: RefCell<DamageCache> = const { RefCell::new(Vec::new()) };
}

fn roll_distribution(base: &str, extra_die: Option<ExtraDie>) -> Rc<Distribution> {
    ROLLS.with(|cache| {
        let mut cache = cache.borrow_mut();
        if let Some((_, _, d)) = cache.iter().find(|(b, x, _)| *x == extra_die && b == base) {
            return d.clone();
        }
        let d = Rc::new(roll_expr(base, extra_die).distribution());
        cache.push((base.to_string(), extra_die, d.clone()));
        d
    })
}

fn damage_distribution(
    world: &World,
    attacker: UnitId,
    power: &PowerDef,
) -> Option<Rc<Distribution>> {
    let bonus = if power.add_tier {
        tier(world, attacker)
    } else {
        0
    };
    DAMAGES.with(|cache| {
        let mut cache = cache.borrow_mut();
        if let Some((_, _, d)) = cache
            .iter()
            .find(|(t, b, _)| *b == bonus && *t == power.damage)
        {
            return d.clone();
        }
        let d = damage_expr(world, attacker, power)
            .ok()
            .map(|e| Rc::new(e.distribution()));
        cache.push((power.damage.clone(), bonus, d.clone()));
        d
    })
}

/// The numbers of an attack's preview (chance, expected damage, kill chance) without
/// building its text, with `assumed` conditions; the same numbers as [`plan`] and
/// the preview give when nothing is assumed.
pub(super) fn odds(
    world: &World,
    attacker: UnitId,
    target: UnitId,
    power: &PowerDef,
    assumed: Assumed<'_>,
) -> Option<(f64, f64, f64)> {
    let (mut a, mut d) = (0, 0);
    each_source(world, attacker, target, false, assumed, |adv, _| {
        if adv { a += 1 } else { d += 1 }
    });
    let extra_die = net_die(world, a, d);
    let config = &world.resource::<PhasesRules>().0;
    let stat = |u: UnitId, name: &str| {
        world
            .get::<Stats>(entity(world, u))
            .map_or(0, |s| s.get(name))
    };
    let threshold = stat(target, "DEF") - stat(attacker, "ATK");
    let chance = roll_distribution(&config.attack_dice, extra_die).prob_at_least(threshold as i64);
    let damage = damage_distribution(world, attacker, power)?;
    let hp = world
        .get::<Health>(entity(world, target))
        .map_or(0, |h| h.hp);
    Some((
        chance,
        chance * damage.mean().max(0.0),
        chance * damage.prob_at_least(hp as i64),
    ))
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
    let extra_die = net_die(world, advantage.len() as i32, disadvantage.len() as i32);
    let expr = roll_expr(&config.attack_dice, extra_die);
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
