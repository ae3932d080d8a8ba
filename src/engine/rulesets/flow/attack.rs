//! Attacks and defensive reactions (F-13, F-18 … F-24, F-28 … F-32, F-48 … F-51,
//! F-GAP-05, F-GAP-06, F-GAP-12, F-GAP-13, F-GAP-20, F-GAP-21).
//!
//! An attack is a skill check; if it succeeds the target's side may react (Dodge,
//! Parry, Block, Riposte, or an ally's Intercept), an opposed check settles it, and
//! the damage follows the attack's success level. [`plan`], [`reaction_options`] and
//! the damage odds are what decisions, previews and `Auto` sides read.

use bevy_ecs::prelude::*;

use super::events::FlowEvent;
use crate::engine::event::{AttackOutcome, Event, Foreseen, LeaveCause};

use super::conditions::*;
use super::movement::intercept_cells;
use super::reactions::{React, Reaction, ReactionRefusal};
use super::*;
use crate::engine::battle::{
    Map, Pending, Progress, TurnState, cell_of, check_victory, emit, entity, occupancy_for, side_of,
};
use crate::engine::board::Occupancy;
use crate::engine::command::Command;
use crate::engine::conditions::{Condition, Duration};
use crate::engine::decision::{DecisionOption, PendingDecision, Pick};
use crate::engine::dice::Dice;
use crate::engine::ruleset::BadDice;
use crate::engine::verb::Cost;
use std::collections::HashMap;
use std::sync::Arc;

use crate::engine::odds::DiceExpr;
use crate::engine::skill::{Edge, SuccessLevel, responder_wins};
use crate::engine::spec::DecisionPolicy;

/// An attack's check before the dice: skill, modifiers and edge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttackPlan {
    /// The skill rolled (Melee or Ranged).
    pub skill: String,
    /// The unit's skill value.
    pub base: i32,
    /// Effective skill after modifiers.
    pub target: i32,
    /// The modifiers, each a short phrase.
    pub modifiers: Vec<String>,
    /// Advantage or disadvantage.
    pub edge: Option<Edge>,
    /// Whether a Feint's Advantage is used up by it.
    pub uses_feint: bool,
}

/// The range penalty at `distance` for a weapon with Range `range` (F-48, F-GAP-21):
/// ceil((d − R) / R) increments of `per`.
pub fn range_penalty(distance: u32, range: u32, per: i32) -> i32 {
    if range == 0 || distance <= range {
        return 0;
    }
    let increments = (distance - range).div_ceil(range);
    increments as i32 * per
}

/// Whether `unit` gangs up on `target`: it threatens it with this weapon and an ally
/// of it threatens it too (F-49, F-GAP-20).
pub fn ganging_up(world: &World, unit: UnitId, target: UnitId, weapon: &WeaponDef) -> bool {
    let board = &world.resource::<Map>().0;
    let at = cell_of(world, target);
    if board.distance(cell_of(world, unit), at) > reach_with(world, unit, weapon) {
        return false;
    }
    active_units(world)
        .into_iter()
        .filter(|&a| a != unit && !enemies(world, a, unit))
        .any(|a| threatens(world, a, at))
}

/// The attack's check as things stand (shared by the roll and the odds).
pub fn plan(
    world: &World,
    attacker: UnitId,
    target: UnitId,
    weapon: &WeaponDef,
    kind: &AttackKind,
) -> AttackPlan {
    plan_assuming(world, attacker, target, weapon, kind, false)
}

/// [`plan`], as if the attacker had also just won a Feint against the target when
/// `feinted` (F-34; what the AI asks before feinting).
pub fn plan_assuming(
    world: &World,
    attacker: UnitId,
    target: UnitId,
    weapon: &WeaponDef,
    kind: &AttackKind,
    feinted: bool,
) -> AttackPlan {
    let config = rules(world);
    let skill_name = if weapon.ranged() || weapon.category == WeaponCategory::Spell {
        "Ranged"
    } else {
        "Melee"
    };
    let base = skill(world, attacker, skill_name);
    let mut p = AttackPlan {
        skill: skill_name.into(),
        base,
        target: base,
        modifiers: Vec::new(),
        edge: None,
        uses_feint: false,
    };
    if kind.is_reaction() {
        // F-25, F-GAP-12: a Reaction Attack is unmodified.
        p.modifiers.push("unmodified (Reaction Attack)".into());
        return p;
    }
    let board = &world.resource::<Map>().0;
    let d = board.distance(cell_of(world, attacker), cell_of(world, target));
    let add = |p: &mut AttackPlan, what: &str, v: i32| {
        if v != 0 {
            p.target += v;
            p.modifiers.push(format!("{what} {v:+}"));
        }
    };
    if weapon.ranged() {
        let pen = range_penalty(d, weapon.range, config.range_penalty);
        add(&mut p, &format!("range {d} (Range {})", weapon.range), pen);
    } else if weapon.category != WeaponCategory::Spell {
        if ganging_up(world, attacker, target, weapon) {
            add(&mut p, "gang-up", config.gang_up);
        }
        let light = matches!(
            weapon.category,
            WeaponCategory::Finesse | WeaponCategory::Brawl
        );
        // F-51: the Two-Weapon Fighting perk removes the penalty (seed L175).
        if weapon.held == Hand::Off && !light && !flow_unit(world, attacker).two_weapon_fighting {
            add(&mut p, "off-hand", config.off_hand);
        }
    }
    let feint = (feinted || condition_link(world, attacker, FEINTING) == Some(target))
        && weapon.category != WeaponCategory::Spell;
    let disarm = matches!(kind, AttackKind::Disarm { .. });
    let grappling = has(world, attacker, GRAPPLING);
    if feint {
        p.modifiers.push("advantage: feint".into());
        p.uses_feint = true;
    }
    if disarm {
        p.modifiers.push("disadvantage: disarm".into());
    }
    if grappling {
        p.modifiers.push("disadvantage: grappling".into());
    }
    p.edge = Edge::net(feint, disarm || grappling);
    p
}

/// Rolls a check and logs it; returns the level.
#[allow(clippy::too_many_arguments)]
pub fn roll_check(
    world: &mut World,
    unit: UnitId,
    skill: &str,
    purpose: String,
    target: i32,
    modifiers: Vec<String>,
    edge: Option<Edge>,
) -> Result<SuccessLevel, CommandError> {
    let checks = rules(world).checks;
    let roll = checks.roll(&mut world.resource_mut::<Dice>(), target, edge)?;
    emit(
        world,
        FlowEvent::SkillChecked {
            unit,
            skill: skill.into(),
            purpose,
            target,
            modifiers,
            edge,
            faces: roll.faces,
            roll: roll.kept,
            level: roll.level,
        },
    );
    Ok(roll.level)
}

/// A reactor's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// Who reacts.
    pub unit: UnitId,
    /// How.
    pub reaction: Reaction,
    /// Intercept: where to.
    pub to: Option<Cell>,
    /// Intercept: trade places with the ally.
    pub swap: bool,
}

/// Makes an attack: the check, then the reaction window, then the outcome.
pub fn make_attack(
    world: &mut World,
    attacker: UnitId,
    target: UnitId,
    weapon: WeaponDef,
    kind: AttackKind,
) -> Result<(), CommandError> {
    if !is_active(world, attacker) || !is_active(world, target) {
        return Ok(());
    }
    let p = plan(world, attacker, target, &weapon, &kind);
    let what = match &kind {
        AttackKind::Normal | AttackKind::Readied => "attack",
        AttackKind::Reaction => "Reaction Attack",
        AttackKind::Riposte => "Riposte attack",
        AttackKind::Disarm { .. } => "Disarm",
    };
    let purpose = format!("{what} on {} with {}", name(world, target), weapon.name);
    let odds = foresee(world, attacker, target, &weapon, &kind, &p);
    let level = roll_check(
        world,
        attacker,
        &p.skill,
        purpose,
        p.target,
        p.modifiers,
        p.edge,
    )?;
    if p.uses_feint {
        emit(
            world,
            Event::ConditionRemoved {
                unit: attacker,
                name: FEINTING.into(),
                reason: "its Advantage was used".into(),
            },
        );
    }
    if !level.success() {
        emit(
            world,
            Event::AttackResolved {
                attacker,
                target,
                power: weapon.name.clone(),
                outcome: outcome_of(level),
                damage: 0,
                odds,
            },
        );
        emit(
            world,
            FlowEvent::Missed {
                attacker,
                target,
                reason: format!("the check failed ({level})"),
            },
        );
        return Ok(());
    }
    let id = {
        let st = flow_state_mut(world);
        st.attack_seq += 1;
        st.attack_seq
    };
    let ctx = AttackCtx {
        id,
        attacker,
        target,
        weapon,
        kind,
        level,
        odds,
    };
    let options = reaction_options(world, &ctx)?;
    if options.is_empty() {
        return resolve(world, ctx, None);
    }
    match policy(world, target) {
        DecisionPolicy::Never => resolve(world, ctx, None),
        DecisionPolicy::Auto => {
            let choice = best(&options).map(|o| Choice {
                unit: o.unit,
                reaction: o.reaction,
                to: o.cells.first().copied(),
                swap: false,
            });
            resolve(world, ctx, choice)
        }
        DecisionPolicy::Ask => {
            let (a, t) = (name(world, attacker), name(world, target));
            let decision = reaction_decision(
                world,
                side_of(world, target),
                format!("{a} hits {t} with {} ({level}). React?", ctx.weapon.name),
                format!("react to {a}'s attack ({level}) on {t}"),
                &options,
            );
            world.resource_mut::<Pending>().0 = Some(decision);
            world.resource_mut::<Progress>().0 = true;
            push_frame(world, Frame::Attack(ctx));
            Ok(())
        }
    }
}

/// One legal reaction, with its exact odds: what `flow` offers in a reaction
/// decision, checks an answer against and lets an `Auto` side pick from.
#[derive(Clone, Debug, PartialEq)]
pub struct ReactionOption {
    /// Who reacts.
    pub unit: UnitId,
    /// The reaction.
    pub reaction: Reaction,
    /// Its RP cost.
    pub rp: i32,
    /// Exact chance it succeeds (wins the opposed check, or the attack check succeeds).
    pub chance: f64,
    /// Expected value in HP terms (damage avoided or dealt), what `Auto` maximises.
    pub value: f64,
    /// Intercept: the hexes it can move to.
    pub cells: Vec<Cell>,
}

/// A reaction decision for `side` (F-04, F-18 … F-31): each reaction in `options`
/// is one option answered by `React` (an Intercept one per hex it can move to),
/// with its chance, value and RP cost; `Pass` ("No reaction") declines.
pub fn reaction_decision(
    world: &World,
    side: SideId,
    prompt: String,
    about: String,
    options: &[ReactionOption],
) -> PendingDecision {
    let mut out = Vec::new();
    for o in options {
        let to: Vec<Option<Cell>> = if o.cells.is_empty() {
            vec![None]
        } else {
            o.cells.iter().map(|&c| Some(c)).collect()
        };
        for to in to {
            let mut label = format!("{} {}", name(world, o.unit), o.reaction);
            if let Some(c) = to {
                label += &format!(" to {c}");
            }
            let react = React {
                to,
                ..React::new(side, o.unit, o.reaction)
            }
            .command();
            out.push(
                DecisionOption::new(react, label)
                    .chance(o.chance)
                    .value(o.value)
                    .cost(Cost::new(pools::RP, o.rp)),
            );
        }
    }
    PendingDecision {
        side,
        prompt,
        about,
        pick: Pick::One,
        options: out,
        decline: Some(DecisionOption::new(Command::Pass { side }, "No reaction")),
        lookahead: false,
    }
}

/// The option an `Auto` side takes: highest value above 0, cheaper first on ties.
pub fn best(options: &[ReactionOption]) -> Option<&ReactionOption> {
    let mut best: Option<&ReactionOption> = None;
    for o in options.iter().filter(|o| o.value > 1e-9) {
        let better = match best {
            None => true,
            Some(b) => {
                o.value > b.value + 1e-9 || ((o.value - b.value).abs() <= 1e-9 && o.rp < b.rp)
            }
        };
        if better {
            best = Some(o);
        }
    }
    best
}

fn melee_attack(ctx: &AttackCtx) -> bool {
    !ctx.weapon.ranged() && ctx.weapon.category != WeaponCategory::Spell
}

fn holds_melee_weapon(world: &World, unit: UnitId) -> bool {
    world
        .get::<Equipment>(entity(world, unit))
        .is_some_and(|e| {
            e.held()
                .any(|w| w.attacks() && !w.ranged() && w.category != WeaponCategory::Spell)
        })
}

fn holds_shield(world: &World, unit: UnitId) -> bool {
    world
        .get::<Equipment>(entity(world, unit))
        .is_some_and(|e| e.held().any(|w| w.category == WeaponCategory::Shield))
}

/// Whether `unit` may use `reaction` against this attack, and if not, why (F-10,
/// F-11, F-18 … F-20, F-24, F-29 … F-31, F-GAP-15).
pub fn reaction_legal(
    world: &World,
    ctx: &AttackCtx,
    unit: UnitId,
    reaction: Reaction,
) -> Result<(), ReactionRefusal> {
    let who = name(world, unit);
    if reaction == Reaction::ReactionAttack {
        return Err(ReactionRefusal::WrongAttack(
            "a Reaction Attack answers a provoking action, not an attack (dodge, parry, block, riposte or intercept it)".into(),
        ));
    }
    if !is_active(world, unit) {
        return Err(ReactionRefusal::NotOffered(format!("{who} is out of play")));
    }
    if unit != ctx.target {
        if enemies(world, unit, ctx.target) {
            return Err(ReactionRefusal::NotOffered(format!(
                "{who} is not on {}'s side",
                name(world, ctx.target)
            )));
        }
        if reaction != Reaction::Intercept {
            return Err(ReactionRefusal::NotOffered(format!(
                "only {} can {reaction} this attack; an ally can only Intercept",
                name(world, ctx.target)
            )));
        }
    } else if reaction == Reaction::Intercept {
        return Err(ReactionRefusal::NotOffered(
            "the target itself cannot Intercept; an ally can".into(),
        ));
    }
    if has(world, unit, GRAPPLED) {
        return Err(ReactionRefusal::Grappled);
    }
    let need = rules(world).reaction_costs.of(reaction);
    let have = pool(world, unit, pools::RP);
    if have < need {
        return Err(ReactionRefusal::NoRp { have, need });
    }
    if ctx.kind.is_reaction() && matches!(reaction, Reaction::Riposte | Reaction::Intercept) {
        return Err(ReactionRefusal::AgainstReactionAttack);
    }
    let spell = ctx.weapon.category == WeaponCategory::Spell;
    match reaction {
        Reaction::Dodge => Ok(()),
        Reaction::Parry | Reaction::Riposte => {
            if !melee_attack(ctx) {
                return Err(ReactionRefusal::WrongAttack(format!(
                    "{reaction} only works against melee attacks (F-19)"
                )));
            }
            if !holds_melee_weapon(world, unit) {
                return Err(ReactionRefusal::NoMeleeWeapon);
            }
            if size(world, ctx.attacker) as u32 > size(world, unit) as u32 + 1 {
                return Err(ReactionRefusal::TooLarge);
            }
            if reaction == Reaction::Riposte
                && reaction_weapon(world, unit, cell_of(world, ctx.attacker)).is_none()
            {
                return Err(ReactionRefusal::OutOfReach(format!(
                    "{} is out of {who}'s reach for the counterattack",
                    name(world, ctx.attacker)
                )));
            }
            Ok(())
        }
        Reaction::Block => {
            if spell {
                return Err(ReactionRefusal::WrongAttack(
                    "a spell can't be blocked".into(),
                ));
            }
            if holds_shield(world, unit) {
                Ok(())
            } else {
                Err(ReactionRefusal::NoShield)
            }
        }
        Reaction::Intercept => {
            if intercept_cells(world, ctx, unit).is_empty() {
                let how = if melee_attack(ctx) {
                    "next to both"
                } else {
                    "directly between them"
                };
                return Err(ReactionRefusal::OutOfReach(format!(
                    "{who} cannot reach a hex {how} within {} hexes (F-31)",
                    rules(world).intercept_distance
                )));
            }
            Ok(())
        }
        Reaction::ReactionAttack => unreachable!("handled above"),
    }
}

/// The skill a reaction rolls, and the unit's value in it.
pub fn reaction_skill(world: &World, unit: UnitId, reaction: Reaction) -> (String, i32) {
    match reaction {
        Reaction::Dodge => {
            let (ag, at) = (
                skill(world, unit, "Agility"),
                skill(world, unit, "Athletics"),
            );
            if at > ag {
                ("Athletics".into(), at)
            } else {
                ("Agility".into(), ag)
            }
        }
        Reaction::Parry | Reaction::Riposte => ("Melee".into(), skill(world, unit, "Melee")),
        Reaction::Block => ("Endurance".into(), skill(world, unit, "Endurance")),
        Reaction::Intercept => ("Agility".into(), skill(world, unit, "Agility")),
        Reaction::ReactionAttack => ("Melee".into(), skill(world, unit, "Melee")),
    }
}

/// The edge of a reaction check: Advantage under Total Defense (F-40).
pub fn reaction_edge(world: &World, unit: UnitId) -> Option<Edge> {
    has(world, unit, TOTAL_DEFENSE).then_some(Edge::Advantage)
}

/// What the attack's level counts as against this reaction: one higher for a larger
/// attacker against a Parry or Riposte (F-24, F-GAP-13).
pub fn counted_as(
    world: &World,
    ctx: &AttackCtx,
    unit: UnitId,
    reaction: Reaction,
) -> SuccessLevel {
    let parry = matches!(reaction, Reaction::Parry | Reaction::Riposte);
    if parry && size(world, ctx.attacker) > size(world, unit) {
        ctx.level.bumped()
    } else {
        ctx.level
    }
}

/// Exact chance a reaction wins its opposed check.
pub fn reaction_chance(world: &World, ctx: &AttackCtx, unit: UnitId, reaction: Reaction) -> f64 {
    let (_, value) = reaction_skill(world, unit, reaction);
    let need = counted_as(world, ctx, unit, reaction);
    rules(world)
        .checks
        .chance_at_least(value, reaction_edge(world, unit), need)
}

/// Every damage roll a battle can make — each weapon's, each attacking item's and
/// Unarmed's — parsed, checked against the dice limits and with its exact outcomes
/// computed once, when the battle is set up (F-GAP-06). The odds the AI weighs many
/// times per turn read them here, by the damage text, without parsing.
#[derive(Clone, Debug, Default)]
pub struct DamageDice(HashMap<String, Arc<Damage>>);

/// One damage roll: its dice and their exact `(total, probability)` outcomes.
#[derive(Clone, Debug, PartialEq)]
pub struct Damage {
    /// The dice.
    pub expr: DiceExpr,
    /// Every possible total with its probability, in ascending order of total.
    pub outcomes: Vec<(i64, f64)>,
}

impl DamageDice {
    /// Adds the damage dice `text` (a level's or the configuration's), or says why
    /// they can't be rolled (see [`crate::engine::ruleset::parse_dice`]).
    pub fn insert(&mut self, text: &str) -> Result<(), BadDice> {
        if !self.0.contains_key(text) {
            let expr = crate::engine::ruleset::parse_dice(text)?;
            let outcomes = expr.distribution().outcomes();
            self.0
                .insert(text.to_string(), Arc::new(Damage { expr, outcomes }));
        }
        Ok(())
    }

    /// The damage dice `text`, if the battle was set up with them.
    pub fn get(&self, text: &str) -> Option<&Damage> {
        self.0.get(text).map(|d| &**d)
    }
}

/// A weapon's damage roll, as the battle's setup checked it; an error for damage
/// dice the battle was not set up with (every weapon of the level, every attacking
/// item and Unarmed are).
pub fn damage_of<'w>(world: &'w World, weapon: &WeaponDef) -> Result<&'w Damage, CommandError> {
    flow_state(world).damage.get(&weapon.damage).ok_or_else(|| {
        CommandError::Forbidden(format!(
            "weapon {}: damage `{}` was not checked when the battle was set up",
            weapon.name, weapon.damage
        ))
    })
}

/// Damage a hit at `level` would deal to `victim`, as exact `(amount, probability)`
/// pairs (F-GAP-06).
pub fn damage_outcomes(
    world: &World,
    victim: UnitId,
    weapon: &WeaponDef,
    level: SuccessLevel,
    multiplier: i32,
) -> Result<Vec<(i64, f64)>, CommandError> {
    let config = rules(world);
    let damage = damage_of(world, weapon)?;
    let armor = world.get::<Armor>(entity(world, victim)).map_or(0, |a| a.0) as i64;
    let mut out: Vec<(i64, f64)> = Vec::new();
    for &(x, p) in &damage.outcomes {
        let raw = if level == SuccessLevel::Critical {
            (x + config.critical_bonus as i64) * multiplier as i64
        } else {
            x + config.level_bonus(level) as i64
        };
        let amount = (raw - armor).max(0);
        // The amount never decreases as the total grows (the multiplier is at least
        // 1), so equal amounts are neighbours: merging into the last entry sums in
        // the same order as searching the whole list did, in linear time.
        match out.last_mut() {
            Some(e) if e.0 == amount => e.1 += p,
            _ => out.push((amount, p)),
        }
    }
    Ok(out)
}

/// Expected damage and kill chance of a hit.
pub fn hit_odds(
    world: &World,
    victim: UnitId,
    weapon: &WeaponDef,
    level: SuccessLevel,
    multiplier: i32,
) -> Result<(f64, f64), CommandError> {
    let hp = world
        .get::<Health>(entity(world, victim))
        .map_or(0, |h| h.hp) as i64;
    let outcomes = damage_outcomes(world, victim, weapon, level, multiplier)?;
    let mean = outcomes.iter().map(|(a, p)| *a as f64 * p).sum();
    let kill = outcomes
        .iter()
        .filter(|(a, _)| *a >= hp)
        .map(|(_, p)| p)
        .sum();
    Ok((mean, kill))
}

fn normal_multiplier(world: &World, level: SuccessLevel) -> i32 {
    if level == SuccessLevel::Critical {
        rules(world).crit_multiplier
    } else {
        1
    }
}

/// Expected damage, kill chance and chance to succeed of an attack's check, over
/// every success level (before any reaction).
pub fn attack_odds(
    world: &World,
    attacker: UnitId,
    target: UnitId,
    weapon: &WeaponDef,
    kind: &AttackKind,
) -> Result<(f64, f64, f64), CommandError> {
    attack_odds_assuming(world, attacker, target, weapon, kind, false)
}

/// [`attack_odds`], as if the attacker had also just won a Feint against the target
/// when `feinted` (see [`plan_assuming`]).
pub fn attack_odds_assuming(
    world: &World,
    attacker: UnitId,
    target: UnitId,
    weapon: &WeaponDef,
    kind: &AttackKind,
    feinted: bool,
) -> Result<(f64, f64, f64), CommandError> {
    let p = plan_assuming(world, attacker, target, weapon, kind, feinted);
    let mut chance = 0.0;
    let mut dmg = 0.0;
    let mut kill = 0.0;
    for (level, pl) in rules(world).checks.level_odds(p.target, p.edge) {
        if !level.success() || pl == 0.0 {
            continue;
        }
        chance += pl;
        if matches!(kind, AttackKind::Disarm { .. }) {
            continue;
        }
        let (m, k) = hit_odds(
            world,
            target,
            weapon,
            level,
            normal_multiplier(world, level),
        )?;
        dmg += pl * m;
        kill += pl * k;
    }
    Ok((chance, dmg, kill))
}

/// Every legal reaction of the target's side to an attack, with exact odds.
pub fn reaction_options(
    world: &World,
    ctx: &AttackCtx,
) -> Result<Vec<ReactionOption>, CommandError> {
    let costs = rules(world).reaction_costs;
    let mult = normal_multiplier(world, ctx.level);
    let (dmg_t, kill_t) = hit_odds(world, ctx.target, &ctx.weapon, ctx.level, mult)?;
    let disarm = matches!(ctx.kind, AttackKind::Disarm { .. });
    // A Disarm does no damage but costs the weapon; count it as a few HP.
    let stake_t = if disarm { 3.0 } else { dmg_t + 10.0 * kill_t };
    let mut out = Vec::new();
    for r in [
        Reaction::Dodge,
        Reaction::Parry,
        Reaction::Block,
        Reaction::Riposte,
    ] {
        if reaction_legal(world, ctx, ctx.target, r).is_err() {
            continue;
        }
        let chance = reaction_chance(world, ctx, ctx.target, r);
        let mut value = chance * stake_t;
        if r == Reaction::Riposte
            && let Some(w) = reaction_weapon(world, ctx.target, cell_of(world, ctx.attacker))
        {
            let (_, d, k) = attack_odds(world, ctx.target, ctx.attacker, &w, &AttackKind::Riposte)?;
            value += chance * (d + 10.0 * k);
        }
        out.push(ReactionOption {
            unit: ctx.target,
            reaction: r,
            rp: costs.of(r),
            chance,
            value,
            cells: Vec::new(),
        });
    }
    let side = side_of(world, ctx.target);
    for ally in active_units(world) {
        if ally == ctx.target || side_of(world, ally) != side {
            continue;
        }
        if reaction_legal(world, ctx, ally, Reaction::Intercept).is_err() {
            continue;
        }
        let chance = reaction_chance(world, ctx, ally, Reaction::Intercept);
        let (dmg_i, kill_i) = hit_odds(world, ally, &ctx.weapon, ctx.level, mult)?;
        let stake_i = if disarm { 3.0 } else { dmg_i + 10.0 * kill_i };
        out.push(ReactionOption {
            unit: ally,
            reaction: Reaction::Intercept,
            rp: costs.intercept,
            chance,
            value: chance * (stake_t - stake_i),
            cells: intercept_cells(world, ctx, ally),
        });
    }
    Ok(out)
}

/// Settles an attack that succeeded, with the reaction chosen (if any).
pub fn resolve(
    world: &mut World,
    ctx: AttackCtx,
    choice: Option<Choice>,
) -> Result<(), CommandError> {
    let Some(choice) = choice else {
        let mult = normal_multiplier(world, ctx.level);
        return hit(world, &ctx, ctx.target, mult);
    };
    let unit = choice.unit;
    let reaction = choice.reaction;
    emit(
        world,
        FlowEvent::Reacted {
            unit,
            reaction,
            against: ctx.attacker,
        },
    );
    let cost = rules(world).reaction_costs.of(reaction);
    change_points(world, unit, pools::RP, -cost, &reaction.to_string());
    flow_state_mut(world).last_reaction = Some((ctx.id, unit));
    if reaction == Reaction::Intercept {
        return intercept(world, ctx, &choice);
    }
    let (skill_name, value) = reaction_skill(world, unit, reaction);
    let purpose = format!("{reaction} against {}", name(world, ctx.attacker));
    let edge = reaction_edge(world, unit);
    let mods = if edge.is_some() {
        vec!["advantage: Total Defense".to_string()]
    } else {
        vec![]
    };
    let level = roll_check(world, unit, &skill_name, purpose, value, mods, edge)?;
    let as_level = counted_as(world, &ctx, unit, reaction);
    let wins = responder_wins(as_level, level);
    emit(
        world,
        FlowEvent::OpposedCheck {
            actor: ctx.attacker,
            responder: unit,
            actor_level: ctx.level,
            counted_as: as_level,
            responder_level: level,
            responder_wins: wins,
        },
    );
    if wins {
        emit(world, record(&ctx, ctx.target, AttackOutcome::Miss, 0));
        emit(
            world,
            FlowEvent::Missed {
                attacker: ctx.attacker,
                target: ctx.target,
                reason: format!("{}'s {reaction} won", name(world, unit)),
            },
        );
        reaction_fp(world, unit);
        // F-22 (and Block, F-GAP-13): a critical reaction against a non-critical
        // attack gets its RP back (1 RP; a Riposte's parry likewise).
        if level == SuccessLevel::Critical && ctx.level != SuccessLevel::Critical {
            let back = rules(world).reaction_costs.parry.min(cost);
            change_points(world, unit, pools::RP, back, "critical reaction (F-22)");
        }
        if reaction == Reaction::Riposte
            && let Some(w) = reaction_weapon(world, unit, cell_of(world, ctx.attacker))
        {
            make_attack(world, unit, ctx.attacker, w, AttackKind::Riposte)?;
        }
        return Ok(());
    }
    let fumbled = level == SuccessLevel::CriticalFailure
        && matches!(
            reaction,
            Reaction::Dodge | Reaction::Parry | Reaction::Riposte
        );
    let mult = if ctx.level == SuccessLevel::Critical && fumbled {
        rules(world).crit_vs_fumbled_reaction
    } else {
        normal_multiplier(world, ctx.level)
    };
    hit(world, &ctx, ctx.target, mult)
}

/// F-31, F-GAP-13: the interceptor moves (no Reaction Attacks), may trade places with
/// the ally, then rolls Agility against the attack; if it wins it takes the hit.
fn intercept(world: &mut World, ctx: AttackCtx, choice: &Choice) -> Result<(), CommandError> {
    let unit = choice.unit;
    let cells = intercept_cells(world, &ctx, unit);
    let to = choice
        .to
        .filter(|c| cells.contains(c))
        .or_else(|| cells.first().copied());
    if let Some(to) = to {
        super::movement::slide(world, unit, to);
    }
    if choice.swap {
        let board = world.resource::<Map>().0.clone();
        let (me, ally) = (cell_of(world, unit), cell_of(world, ctx.target));
        let beyond = Board::from_axial(
            Board::to_axial(ally) + (Board::to_axial(ally) - Board::to_axial(me)),
        );
        let open = board.contains(beyond)
            && board.step_cost(beyond).is_some()
            && occupancy_for(world, ctx.target)(beyond) == Occupancy::Free
            && board.distance(me, ally) == 1;
        if open {
            emit(
                world,
                Event::Moved {
                    unit: ctx.target,
                    from: ally,
                    to: beyond,
                    cost: 0,
                },
            );
            emit(
                world,
                Event::Moved {
                    unit,
                    from: me,
                    to: ally,
                    cost: 0,
                },
            );
        } else {
            emit(
                world,
                Event::MovementStopped {
                    unit,
                    reason: format!("no open hex at {beyond} to move the ally to: no swap"),
                },
            );
        }
    }
    let (skill_name, value) = reaction_skill(world, unit, Reaction::Intercept);
    let edge = reaction_edge(world, unit);
    let purpose = format!("Intercept against {}", name(world, ctx.attacker));
    let level = roll_check(world, unit, &skill_name, purpose, value, vec![], edge)?;
    let wins = responder_wins(ctx.level, level);
    emit(
        world,
        FlowEvent::OpposedCheck {
            actor: ctx.attacker,
            responder: unit,
            actor_level: ctx.level,
            counted_as: ctx.level,
            responder_level: level,
            responder_wins: wins,
        },
    );
    let mult = normal_multiplier(world, ctx.level);
    if wins {
        emit(
            world,
            FlowEvent::Intercepted {
                interceptor: unit,
                ally: ctx.target,
                attacker: ctx.attacker,
            },
        );
        reaction_fp(world, unit);
        hit(world, &ctx, unit, mult)
    } else {
        hit(world, &ctx, ctx.target, mult)
    }
}

use crate::engine::board::Board;

/// The attack lands on `victim`: damage by level (or the Disarm effect), FP, kills,
/// ongoing effects (F-13, F-15, F-23, F-GAP-06, F-GAP-22).
pub fn hit(
    world: &mut World,
    ctx: &AttackCtx,
    victim: UnitId,
    multiplier: i32,
) -> Result<(), CommandError> {
    let config = rules(world).clone();
    let attacker = ctx.attacker;
    let (fp, why) = if ctx.level == SuccessLevel::Critical {
        (config.fp_crit, "critical hit")
    } else {
        (config.fp_hit, "hit")
    };
    if let AttackKind::Disarm { take, to } = &ctx.kind {
        emit(world, record(ctx, victim, outcome_of(ctx.level), 0));
        change_points(world, attacker, pools::FP, fp, why);
        return super::actions::disarmed(world, attacker, victim, ctx.level, *take, *to);
    }
    let expr = damage_of(world, &ctx.weapon)?.expr.clone();
    let roll = expr.roll(&mut world.resource_mut::<Dice>())?;
    let armor = world.get::<Armor>(entity(world, victim)).map_or(0, |a| a.0);
    let (bonus, raw) = if ctx.level == SuccessLevel::Critical {
        (
            config.critical_bonus,
            (roll.total as i32 + config.critical_bonus) * multiplier,
        )
    } else {
        let b = config.level_bonus(ctx.level);
        (b, roll.total as i32 + b)
    };
    emit(
        world,
        FlowEvent::Struck {
            attacker,
            target: victim,
            weapon: ctx.weapon.name.clone(),
            level: ctx.level,
            bonus,
            multiplier: if ctx.level == SuccessLevel::Critical {
                multiplier
            } else {
                1
            },
            armor,
        },
    );
    let amount = (raw - armor).max(0);
    let hp = world
        .get::<Health>(entity(world, victim))
        .map_or(0, |h| h.hp)
        - amount;
    emit(world, record(ctx, victim, outcome_of(ctx.level), amount));
    emit(
        world,
        Event::Damaged {
            unit: victim,
            faces: roll.faces.iter().map(|&(_, f)| f).collect(),
            amount,
            hp,
            source: Some(attacker),
        },
    );
    change_points(world, attacker, pools::FP, fp, why);
    if ctx.kind.is_reaction() {
        reaction_fp(world, attacker);
    }
    if hp <= 0 {
        emit(
            world,
            Event::Defeated {
                unit: victim,
                state: PlayState::Down,
                cause: Some(LeaveCause::Damage),
                by: Some(attacker),
            },
        );
        if enemies(world, attacker, victim) {
            change_points(world, attacker, pools::FP, config.fp_kill, "killing blow");
        }
        release_grapples(world, victim);
        check_victory(world);
        return Ok(());
    }
    let round = world.resource::<TurnState>().round;
    for c in &ctx.weapon.on_hit {
        if has(world, victim, c) {
            continue;
        }
        let mut cond = Condition::new(
            c.clone(),
            Duration::EndOfRound(round + config.ongoing_rounds.saturating_sub(1)),
        );
        cond.source = Some(attacker);
        emit(
            world,
            Event::ConditionAdded {
                unit: victim,
                condition: cond,
            },
        );
    }
    Ok(())
}

/// A check's success level as the record of an attack tells it: a critical
/// failure, a failure (a miss), a Critical (a critical hit); Normal, Hard and Major
/// successes are hits.
pub fn outcome_of(level: SuccessLevel) -> AttackOutcome {
    match level {
        SuccessLevel::CriticalFailure => AttackOutcome::CriticalFailure,
        SuccessLevel::Failure => AttackOutcome::Miss,
        SuccessLevel::Normal | SuccessLevel::Hard | SuccessLevel::Major => AttackOutcome::Hit,
        SuccessLevel::Critical => AttackOutcome::Critical,
    }
}

/// The record of an attack in flight that came out `outcome` on `victim`.
fn record(ctx: &AttackCtx, victim: UnitId, outcome: AttackOutcome, damage: i32) -> Event {
    Event::AttackResolved {
        attacker: ctx.attacker,
        target: victim,
        power: ctx.weapon.name.clone(),
        outcome,
        damage,
        odds: ctx.odds,
    }
}

/// The exact odds of an attack before its check, for its record: the preview's
/// chance and expected damage (before any reaction) and the chance of a Critical.
fn foresee(
    world: &World,
    attacker: UnitId,
    target: UnitId,
    weapon: &WeaponDef,
    kind: &AttackKind,
    p: &AttackPlan,
) -> Option<Foreseen> {
    let (hit, expected_damage, _) = attack_odds(world, attacker, target, weapon, kind).ok()?;
    let crit = rules(world)
        .checks
        .level_odds(p.target, p.edge)
        .into_iter()
        .filter(|(level, _)| *level == SuccessLevel::Critical)
        .map(|(_, pl)| pl)
        .sum();
    Some(Foreseen {
        hit,
        crit,
        expected_damage,
    })
}

/// Ends the grapples a unit that left play was part of.
pub fn release_grapples(world: &mut World, unit: UnitId) {
    for other in active_units(world) {
        for (c, link) in [(GRAPPLED, GRAPPLED), (GRAPPLING, GRAPPLING)] {
            if condition_link(world, other, link) == Some(unit) {
                emit(
                    world,
                    Event::ConditionRemoved {
                        unit: other,
                        name: c.into(),
                        reason: format!("{} left play", name(world, unit)),
                    },
                );
            }
        }
    }
}

/// The exact chance and value of a Reaction Attack by `unit` on `mover` (F-25).
pub fn reaction_attack_option(
    world: &World,
    unit: UnitId,
    mover: UnitId,
) -> Result<Option<ReactionOption>, CommandError> {
    let Some(w) = reaction_weapon(world, unit, cell_of(world, mover)) else {
        return Ok(None);
    };
    let (chance, d, k) = attack_odds(world, unit, mover, &w, &AttackKind::Reaction)?;
    Ok(Some(ReactionOption {
        unit,
        reaction: Reaction::ReactionAttack,
        rp: rules(world).reaction_costs.reaction_attack,
        chance,
        value: d + 10.0 * k,
        cells: Vec::new(),
    }))
}

/// A unit's name.
fn name(world: &World, unit: UnitId) -> String {
    crate::engine::battle::name(world, unit)
}
