//! Attacks (P-03 … P-09, P-23, P-24, P-GAP-03, P-GAP-06): gathering advantage and
//! disadvantage sources, netting them into one extra die, rolling 2d6 + ATK against
//! DEF, damage and on-hit conditions. [`plan`] is also the odds the UI and AI show.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use bevy_ecs::prelude::*;

use super::conditions::*;
use super::events::PhasesEvent;
use super::{PhasesConfig, phases_state, rules};
use crate::engine::battle::{TurnState, check_victory, emit, entity, name};
use crate::engine::command::CommandError;
use crate::engine::conditions::{Condition, Duration};
use crate::engine::dice::Dice;
use crate::engine::event::{AttackOutcome, Event, ExtraDie, Foreseen, LeaveCause};
use crate::engine::odds::{DiceExpr, Distribution};
use crate::engine::spec::{EffectDuration, PowerDef};
use crate::engine::units::*;

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

/// The extra die after netting `a` advantage and `d` disadvantage sources
/// (P-GAP-03), with its slot in the configuration's table.
fn net_die(world: &World, a: i32, d: i32) -> Option<(ExtraDie, usize)> {
    let config = rules(world);
    let net = if config.net_sources {
        a - d
    } else if a > 0 && d > 0 {
        0
    } else {
        a - d
    };
    let advantage = net > 0;
    let slot = config.extra_die_slot(net.unsigned_abs(), advantage)?;
    let table = if advantage {
        &config.advantage_dice
    } else {
        &config.disadvantage_dice
    };
    Some((
        ExtraDie {
            sides: table[slot].get(),
            advantage,
        },
        slot,
    ))
}

/// One attack roll: its dice and their exact distribution.
#[derive(Clone, Debug)]
struct Roll {
    expr: DiceExpr,
    odds: Arc<Distribution>,
}

impl Roll {
    fn new(config: &PhasesConfig, extra_die: Option<ExtraDie>) -> Result<Roll, String> {
        let expr = config.attack_roll(extra_die).map_err(|e| {
            format!(
                "attack_dice `{}` with an extra die: {e}",
                config.attack_dice
            )
        })?;
        let odds = Arc::new(expr.distribution());
        Ok(Roll { expr, odds })
    }
}

/// The attack roll for every number of advantage or disadvantage sources (P-03 …
/// P-08), built and computed once when the battle is set up from the checked
/// configuration: `attack_dice` alone, and with each extra die of the tables.
#[derive(Clone, Debug)]
pub struct AttackRolls {
    plain: Roll,
    /// By slot of `advantage_dice`.
    advantage: Vec<Roll>,
    /// By slot of `disadvantage_dice`.
    disadvantage: Vec<Roll>,
}

impl AttackRolls {
    /// Every attack roll of a configuration.
    pub fn new(config: &PhasesConfig) -> Result<AttackRolls, String> {
        let with = |table: &[crate::engine::dice::Sides], advantage: bool| {
            table
                .iter()
                .map(|s| {
                    Roll::new(
                        config,
                        Some(ExtraDie {
                            sides: s.get(),
                            advantage,
                        }),
                    )
                })
                .collect::<Result<Vec<_>, _>>()
        };
        Ok(AttackRolls {
            plain: Roll::new(config, None)?,
            advantage: with(&config.advantage_dice, true)?,
            disadvantage: with(&config.disadvantage_dice, false)?,
        })
    }

    /// The roll with this extra die (from [`net_die`]).
    fn get(&self, extra: Option<(ExtraDie, usize)>) -> &Roll {
        match extra {
            None => &self.plain,
            Some((x, slot)) if x.advantage => &self.advantage[slot],
            Some((_, slot)) => &self.disadvantage[slot],
        }
    }
}

/// Damage distributions the fast odds path reuses, per thread, by (damage dice, bonus).
type DamageCache = Vec<(String, i32, Option<Rc<Distribution>>)>;
thread_local! {
    static DAMAGES: RefCell<DamageCache> = const { RefCell::new(Vec::new()) };
}

/// The exact distribution of a power's damage for this attacker (cached per thread);
/// `None` only for damage dice that do not parse, which a battle's setup refuses.
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
    odds_as(world, attacker, target, power, assumed, false)
}

/// [`odds`] of an attack that is an opportunity attack or not (an opportunity
/// attack is no charge, P-20).
fn odds_as(
    world: &World,
    attacker: UnitId,
    target: UnitId,
    power: &PowerDef,
    assumed: Assumed<'_>,
    opportunity: bool,
) -> Option<(f64, f64, f64)> {
    let (mut a, mut d) = (0, 0);
    each_source(world, attacker, target, opportunity, assumed, |adv, _| {
        if adv { a += 1 } else { d += 1 }
    });
    let extra_die = net_die(world, a, d);
    let stat = |u: UnitId, name: &str| {
        world
            .get::<Stats>(entity(world, u))
            .map_or(0, |s| s.get(name))
    };
    let threshold = stat(target, "DEF") - stat(attacker, "ATK");
    let chance = phases_state(world)
        .rolls
        .get(extra_die)
        .odds
        .prob_at_least(threshold as i64);
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
    let (advantage, disadvantage) = sources(world, attacker, target, opportunity);
    let net = net_die(world, advantage.len() as i32, disadvantage.len() as i32);
    let expr = phases_state(world).rolls.get(net).expr.clone();
    let extra_die = net.map(|(x, _)| x);
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

/// Rolls an attack and applies its outcome. Returns whether it hit.
pub fn resolve(
    world: &mut World,
    attacker: UnitId,
    target: UnitId,
    power: &PowerDef,
    opportunity: bool,
) -> Result<bool, CommandError> {
    let plan = plan(world, attacker, target, opportunity);
    // The record's odds, from the state before the dice; phases has no crits.
    let foreseen = odds_as(
        world,
        attacker,
        target,
        power,
        Assumed::default(),
        opportunity,
    )
    .map(|(hit, expected_damage, _)| Foreseen {
        hit,
        crit: 0.0,
        expected_damage,
    });
    let roll = plan.expr.roll(&mut world.resource_mut::<Dice>())?;
    let total = roll.total as i32 + plan.modifier;
    let hit = total >= plan.defense;
    let record = |outcome, damage| Event::AttackResolved {
        attacker,
        target,
        power: power.name.clone(),
        outcome,
        damage,
        odds: foreseen,
    };
    emit(
        world,
        PhasesEvent::AttackRolled {
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
    if !hit {
        emit(world, record(AttackOutcome::Miss, 0));
    } else {
        let dmg = damage_expr(world, attacker, power)?.roll(&mut world.resource_mut::<Dice>())?;
        let amount = dmg.total.max(0) as i32;
        emit(world, record(AttackOutcome::Hit, amount));
        damage(
            world,
            target,
            dmg.faces.iter().map(|&(_, f)| f).collect(),
            amount,
            Some(attacker),
        );
        if crate::engine::battle::is_active(world, target) {
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
                        magnitude: None,
                    },
                );
            }
        }
    }
    Ok(hit)
}

/// Deals damage (from `source`, if anyone); a unit at 0 HP or less is defeated
/// (P-GAP-05).
pub fn damage(
    world: &mut World,
    unit: UnitId,
    faces: Vec<u32>,
    amount: i32,
    source: Option<UnitId>,
) {
    let hp = world.get::<Health>(entity(world, unit)).map_or(0, |h| h.hp) - amount;
    emit(
        world,
        Event::Damaged {
            unit,
            faces,
            amount,
            hp,
            source,
        },
    );
    if hp <= 0 {
        emit(
            world,
            Event::Defeated {
                unit,
                state: PlayState::Down,
                cause: Some(LeaveCause::Damage),
                by: source,
            },
        );
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
