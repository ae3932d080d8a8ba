//! `escalation`'s battle: the round (initiative bands, the Escalation die, who acts
//! next in a band), a unit's turn (actions, death saves, end-of-turn ongoing damage
//! and saves), and what commands do (moves with opportunity attacks and Intercepts,
//! Disengage, attacks, stances, Rally, Delay, Stabilize, Coup de Grace, Flee).
//!
//! One system, [`drive`], runs it all in the `Attack` stage: it starts the next turn
//! when none is on, executes the incoming command, or takes the answer to a pending
//! decision ([`Ask`]). Every state change is a core event (`emit`); only the
//! ruleset's own bookkeeping ([`EscUnit`], [`RoundState`], [`TurnActions`]) is
//! written directly.

use std::sync::Arc;

use bevy_ecs::prelude::*;

use super::actions::{ActionKind, Actions};
use super::attack::{self, Attack, Outcome};
use super::conditions as names;
use super::config::EscalationConfig;
use super::events::EscalationEvent;
use super::interrupts::{InterruptQueue, Triggered};
use super::powers::{Timing, Trigger};
use super::saves::{DeathSaveOutcome, SaveResult, first_death_save_disadvantage, save_result};
use super::units::{EscUnit, Stance};
use crate::engine::battle::{
    Fault, Incoming, Map, Pending, Progress, Sides, TurnState, active_units, board_units, cell_of,
    check_round_limit, check_victory, emit, entity, halted, is_active, on_board, play_state,
    side_of,
};
use crate::engine::board::Cell;
use crate::engine::command::Command;
use crate::engine::conditions::{Condition, Duration, add_condition, end_where, expire_turn_end};
use crate::engine::decision::{DecisionOption, PendingDecision, Pick};
use crate::engine::dice::{Dice, DiceError};
use crate::engine::event::{AttackOutcome, Event, Foreseen, LeaveCause, RollModifier, Stage};
use crate::engine::odds::{DiceExpr, Distribution};
use crate::engine::spec::{DecisionPolicy, EffectDuration};
use crate::engine::units::{Conditions, Health, PlayState, Powers, SideId, UnitId};

/// The name of the Melee stance's basic attack (E-07).
pub const BASIC_MELEE: &str = "Basic Melee Attack";
/// The name of the Ranged stance's basic attack (E-08).
pub const BASIC_RANGED: &str = "Basic Ranged Attack";
/// The movement power of a Move action.
pub const MOVE: &str = "Move";
use super::conditions::ONGOING;

/// The battle's `escalation` state (held by the battle, see
/// [`crate::engine::ruleset::state`]): its configuration, the round's and the active
/// unit's bookkeeping, the question pending, the queued interrupt triggers and
/// each unit's data.
#[derive(Clone, Debug)]
pub struct EscState {
    /// The configuration in force (never changed after setup).
    pub rules: Arc<EscalationConfig>,
    /// Where the round is.
    pub round: RoundState,
    /// The active unit's actions this turn.
    pub turn: TurnActions,
    /// What a pending decision is about.
    pub asking: Asking,
    /// The triggers of the command being executed (E-24).
    pub interrupts: InterruptQueue,
    /// Each unit's data and bookkeeping, by [`UnitId`].
    pub units: Vec<EscUnit>,
}

/// Where the round is.
#[derive(Clone, Debug, Default)]
pub struct RoundState {
    /// The Escalation die now (E-18).
    pub escalation: i32,
    /// The groups still to act this round, first = acting now: each a band, PCs or
    /// enemies, and its units still to act (E-16).
    pub groups: Vec<Group>,
    /// Units that delayed this round and have not yet acted (E-19).
    pub delayed: Vec<UnitId>,
    /// Whether the Surprise Round has been played (E-17, E-GAP-10).
    pub surprise_done: bool,
}

/// The units of one band and one kind (PCs or enemies) still to act this round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// The band's index.
    pub band: usize,
    /// PCs or enemies.
    pub pc: bool,
    /// Its units still to act, in roster order.
    pub units: Vec<UnitId>,
}

/// The active unit's actions this turn.
#[derive(Clone, Copy, Debug, Default)]
pub struct TurnActions {
    /// What is left.
    pub left: Actions,
    /// Whether it did anything yet (Delay is only at the start, E-19).
    pub acted: bool,
}

/// What a pending decision is about, to act on its answer.
#[derive(Clone, Debug, Default)]
pub struct Asking(pub Option<Ask>);

/// A question the battle waits on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ask {
    /// Which unit of this group acts next (E-16, E-GAP-09).
    NextInBand,
    /// Whether a unit uses an Interrupt power on what an enemy just did (E-24).
    Interrupt,
    /// Whether a Free unit intercepts `mover` walking `path` (E-39, E-GAP-13).
    Intercept {
        /// The moving enemy.
        mover: UnitId,
        /// The cells it would enter.
        path: Vec<Cell>,
    },
}

// ------------------------------------------------------------------ small readers

/// The configuration in force.
pub fn rules(world: &World) -> &EscalationConfig {
    &esc_state(world).rules
}

/// The battle's `escalation` state.
pub fn esc_state(world: &World) -> &EscState {
    crate::engine::ruleset::state::state(world)
}

/// The battle's `escalation` state, to change it.
pub fn esc_state_mut(world: &mut World) -> &mut EscState {
    crate::engine::ruleset::state::state_mut(world)
}

/// A unit's `escalation` data.
pub fn esc(world: &World, unit: UnitId) -> &EscUnit {
    esc_state(world)
        .units
        .get(unit.0 as usize)
        .expect("every escalation unit has its data")
}

pub(super) fn esc_mut(world: &mut World, unit: UnitId) -> &mut EscUnit {
    esc_state_mut(world)
        .units
        .get_mut(unit.0 as usize)
        .expect("every escalation unit has its data")
}

pub use crate::engine::conditions::has;

/// The names of a unit's conditions, with Vulnerable when it is so by nature.
pub fn condition_names(world: &World, unit: UnitId) -> Vec<String> {
    let mut out: Vec<String> = world
        .get::<Conditions>(entity(world, unit))
        .map(|c| c.0.iter().map(|c| c.name.clone()).collect())
        .unwrap_or_default();
    if esc(world, unit).vulnerable && !out.iter().any(|n| n == names::VULNERABLE) {
        out.push(names::VULNERABLE.into());
    }
    out
}

fn distance(world: &World, a: UnitId, b: UnitId) -> u32 {
    world
        .resource::<Map>()
        .0
        .distance(cell_of(world, a), cell_of(world, b))
}

/// The active enemies adjacent to `unit`: those it is engaged with (E-32, E-GAP-01).
pub fn engaged(world: &World, unit: UnitId) -> Vec<UnitId> {
    let side = side_of(world, unit);
    active_units(world)
        .into_iter()
        .filter(|&u| u != unit && side_of(world, u) != side && distance(world, unit, u) == 1)
        .collect()
}

/// The enemies that get an opportunity attack when `unit` moves or makes a ranged
/// attack: engaged, in Melee stance, not Grabbed (E-36, E-38, E-58), and not
/// popped off this turn by a `Pop off` power (E-37).
pub fn provoked_by(world: &World, unit: UnitId) -> Vec<UnitId> {
    let popped: Vec<UnitId> = world
        .get::<Conditions>(entity(world, unit))
        .map(|c| {
            c.0.iter()
                .filter(|c| c.name == names::POPPED_OFF)
                .filter_map(|c| c.source)
                .collect()
        })
        .unwrap_or_default();
    engaged(world, unit)
        .into_iter()
        .filter(|&e| esc(world, e).stance == Stance::Melee && !has(world, e, names::GRABBED))
        .filter(|e| !popped.contains(e))
        .collect()
}

/// The band of `unit` in words.
pub fn band_name(world: &World, unit: UnitId) -> String {
    let band = esc(world, unit).band;
    rules(world)
        .initiative_bands
        .get(band)
        .cloned()
        .unwrap_or_default()
}

/// The Escalation die the battle shows (E-18).
pub fn battle_die(world: &World) -> i32 {
    esc_state(world).round.escalation
}

/// The Escalation die as `unit` counts it for everything the die feeds — an
/// `Escalation X+` power (E-30), Rally's save bonus (E-43), its attacks when it
/// adds the die to them: the battle's die, or 0 when it is Shaken (E-63).
pub fn die_for(world: &World, unit: UnitId) -> i32 {
    let names = condition_names(world, unit);
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    super::conditions::escalation_for(&refs, battle_die(world))
}

/// The Escalation die as `unit` adds it to its attacks: [`die_for`], or 0 if it
/// does not add the die to attacks (E-18, E-63, E-GAP-05).
pub fn escalation_of(world: &World, unit: UnitId) -> i32 {
    if esc(world, unit).uses_escalation {
        die_for(world, unit)
    } else {
        0
    }
}

/// Whether a Dying PC or a Helpless unit may be the target of a Coup de Grace
/// (E-44, E-60, E-GAP-15).
pub fn helpless(world: &World, unit: UnitId) -> bool {
    play_state(world, unit) == PlayState::Dying || has(world, unit, names::HELPLESS)
}

fn fault(world: &mut World, e: DiceError) {
    world.resource_mut::<Fault>().0 = Some(e.into());
}

// ------------------------------------------------------------------ strikes

/// How an attack's hit damage is rolled.
#[derive(Clone, Debug)]
pub enum DamageRoll {
    /// Level dice of the stance die (+ Volition as the attack's bonus), E-07.
    Stance,
    /// A power's own damage expression.
    Expr(DiceExpr),
}

/// Everything an attack of `attacker` on `target` needs, for the rules and the
/// previews alike.
#[derive(Clone, Debug)]
pub struct Strike {
    /// The attack's name.
    pub name: String,
    /// Its numbers.
    pub attack: Attack,
    /// How its hit damage is rolled.
    pub roll: DamageRoll,
    /// Named sources of Advantage and Disadvantage.
    pub edge: super::conditions::Edge,
    /// Modifiers in words: Level, Volition, Escalation.
    pub modifiers: Vec<RollModifier>,
    /// Conditions a hit causes.
    pub on_hit: Vec<crate::engine::spec::EffectDef>,
    /// Whether it is a ranged attack (provokes when engaged, E-36).
    pub ranged: bool,
    /// The defense's name.
    pub defense: &'static str,
    /// Its hit damage dice are averaged, not rolled (E-11).
    pub averaged: bool,
    /// Its header: frequency, provokes, cost, action (E-26 … E-30).
    pub header: super::powers::Header,
}

impl Strike {
    /// The hit damage dice's distribution.
    pub fn dice(&self) -> Distribution {
        if self.averaged {
            return Distribution::constant(self.averaged_total());
        }
        match &self.roll {
            DamageRoll::Stance => Distribution::die(self.attack.die)
                .sum_n(self.attack.dice)
                .unwrap_or_else(|_| Distribution::constant(0)),
            DamageRoll::Expr(e) => e.distribution(),
        }
    }
}

impl Strike {
    /// Whether a hit deals no damage (a power whose damage expression can't top 0):
    /// Confused's save applies to it (E-54).
    pub fn deals_no_damage(&self) -> bool {
        match &self.roll {
            DamageRoll::Stance => false,
            DamageRoll::Expr(e) => e.distribution().max() + self.attack.bonus <= 0,
        }
    }

    /// The averaged total of its hit damage dice (E-11, E-GAP-21).
    pub fn averaged_total(&self) -> i64 {
        match &self.roll {
            DamageRoll::Stance => EscalationConfig::averaged(self.attack.dice, self.attack.die),
            DamageRoll::Expr(e) => e.mean().floor() as i64,
        }
    }
}

/// Why a strike can't be made.
pub enum NoStrike {
    /// No such power.
    Unknown,
    /// The power needs the other stance.
    Stance(Stance),
    /// Out of its reach; the reach.
    Reach(u32),
}

/// The strike `attacker` would make on `target` with `power` (`None`: its stance's
/// basic attack), as things stand.
pub fn strike(
    world: &World,
    attacker: UnitId,
    target: UnitId,
    power: Option<&str>,
) -> Result<Strike, NoStrike> {
    let me = esc(world, attacker);
    let basic = power.unwrap_or(match me.stance {
        Stance::Melee => BASIC_MELEE,
        Stance::Ranged => BASIC_RANGED,
    });
    let d = distance(world, attacker, target);
    let source = match basic {
        BASIC_MELEE | BASIC_RANGED => {
            let stance = if basic == BASIC_MELEE {
                Stance::Melee
            } else {
                Stance::Ranged
            };
            if me.stance != stance {
                return Err(NoStrike::Stance(stance));
            }
            Source {
                name: basic.to_string(),
                roll: DamageRoll::Stance,
                ranged: stance == Stance::Ranged,
                reach: if stance == Stance::Ranged {
                    me.ranged_reach
                } else {
                    1
                },
                bonus: me.volition - me.exhausted,
                on_hit: Vec::new(),
                damage_type: None,
                traits: Vec::new(),
            }
        }
        other => {
            let powers = world.get::<Powers>(entity(world, attacker));
            let Some(p) = powers.and_then(|p| p.0.iter().find(|p| p.name == other)) else {
                return Err(NoStrike::Unknown);
            };
            let expr: DiceExpr = p.damage.parse().map_err(|_| NoStrike::Unknown)?;
            Source {
                name: p.name.clone(),
                roll: DamageRoll::Expr(expr),
                ranged: p.ranged,
                reach: p.range,
                bonus: 0,
                on_hit: p.on_hit.clone(),
                damage_type: p.damage_type.clone(),
                traits: p.traits.clone(),
            }
        }
    };
    let Source {
        name,
        roll,
        ranged,
        reach,
        bonus,
        on_hit,
        damage_type: types,
        traits,
    } = source;
    let mut header = super::powers::parse_header(&traits).unwrap_or_default();
    // E-09: `As a basic attack` deals the basic attack's hit and miss damage.
    let (roll, bonus) = if header.as_basic {
        (DamageRoll::Stance, me.volition - me.exhausted)
    } else {
        (roll, bonus)
    };
    // E-59: a Hampered enemy's first listed attack is its basic attack, with its
    // non-damage effects stripped (ongoing damage is damage, and stays).
    let on_hit = if hampered_attack(world, attacker).as_deref() == Some(name.as_str()) {
        header.pop_off = false;
        on_hit
            .into_iter()
            .filter(|e| parse_effect(&e.condition).is_some_and(|(c, _)| c == ONGOING))
            .collect()
    } else {
        on_hit
    };
    if d > reach {
        return Err(NoStrike::Reach(reach));
    }
    let kind = types
        .as_deref()
        .and_then(super::harm::damage_type)
        .unwrap_or(super::harm::DEFAULT_TYPE);
    let them = esc(world, target);
    let target_names = condition_names(world, target);
    let my_names = condition_names(world, attacker);
    let t: Vec<&str> = target_names.iter().map(String::as_str).collect();
    let m: Vec<&str> = my_names.iter().map(String::as_str).collect();
    let grabbing = world
        .get::<Conditions>(entity(world, target))
        .is_some_and(|c| {
            c.0.iter()
                .any(|c| c.name == names::GRABBED && c.source == Some(attacker))
        });
    let edge = super::conditions::attack_edge(&m, &t, grabbing);
    let weak = super::harm::is_weak(&[kind], &them.weak);
    let vulnerable = super::conditions::vulnerable(&t);
    let crit_at = i64::from(rules(world).crit_at) - i64::from(weak) - i64::from(vulnerable);
    let escalation = escalation_of(world, attacker);
    let volition = me.volition - me.exhausted;
    let mut modifiers = vec![
        RollModifier::new("Level", me.level),
        RollModifier::new("Volition", volition),
    ];
    if escalation != 0 {
        modifiers.push(RollModifier::new("Escalation", escalation));
    }
    // E-02: the defense the power names (AC for a basic attack).
    let defense = header.defense.stat();
    let stats = world
        .get::<crate::engine::units::Stats>(entity(world, target))
        .map(|s| s.get(defense))
        .unwrap_or(10);
    let attack = Attack {
        modifier: i64::from(me.level) + i64::from(volition) + i64::from(escalation),
        net_advantage: edge.net(),
        defense: i64::from(stats) - i64::from(them.exhausted),
        crit_at,
        crit_fail_at: i64::from(rules(world).crit_fail_at),
        dice: me.level.max(1) as u32,
        die: me.stance_die(),
        bonus: i64::from(bonus),
        resist: super::harm::resistance(&[kind], &them.resist),
        miss_damage: i64::from(me.miss_damage),
    };
    let from = rules(world).average_dice_from;
    let count = match &roll {
        DamageRoll::Stance => attack.dice,
        DamageRoll::Expr(e) => e.dice_count(),
    };
    Ok(Strike {
        header,
        averaged: from > 0 && count >= from,
        name,
        attack,
        roll,
        edge,
        modifiers,
        on_hit,
        ranged,
        defense,
    })
}

/// Where an attack's numbers come from: a basic attack or a power.
struct Source {
    name: String,
    roll: DamageRoll,
    ranged: bool,
    reach: u32,
    bonus: i32,
    on_hit: Vec<crate::engine::spec::EffectDef>,
    damage_type: Option<String>,
    traits: Vec<String>,
}

/// The dice of a 3d6 pool with `net` net Advantage, as the log writes them:
/// `3d6`, `4d6kh3`, `5d6kl3` (E-GAP-02).
pub fn pool_name(net: i32) -> String {
    match net {
        0 => "3d6".into(),
        n if n > 0 => format!("{}d6kh3", 3 + n),
        n => format!("{}d6kl3", 3 + n.unsigned_abs()),
    }
}

/// Rolls a 3d6 pool with `net` net Advantage: every face, the kept ones, and the
/// natural roll (E-GAP-02).
fn roll_pool(world: &mut World, net: i32) -> Result<(Vec<u32>, Vec<u32>, i64), DiceError> {
    let faces = world
        .resource_mut::<Dice>()
        .roll_many(3 + net.unsigned_abs(), 6)?;
    let kept: Vec<u32> = if net == 0 {
        faces.clone()
    } else {
        let mut sorted = faces.clone();
        sorted.sort_unstable();
        if net > 0 {
            sorted[sorted.len() - 3..].to_vec()
        } else {
            sorted[..3].to_vec()
        }
    };
    let natural = attack::natural(&faces, net);
    Ok((faces, kept, natural))
}

/// Rolls a 3d6 check (with `net` net Advantage) plus `modifiers` against `target`
/// and tells it as a success or a failure; whether it succeeded (E-GAP-02,
/// E-GAP-03).
fn check_roll(
    world: &mut World,
    unit: UnitId,
    purpose: String,
    net: i32,
    modifiers: Vec<RollModifier>,
    target: i32,
) -> Result<bool, DiceError> {
    let (faces, kept, natural) = roll_pool(world, net)?;
    let total = natural as i32 + modifiers.iter().map(|m| m.value).sum::<i32>();
    let ok = total >= target;
    emit(
        world,
        Event::Rolled {
            unit,
            purpose,
            dice: pool_name(net),
            faces,
            kept,
            modifiers,
            total,
            target: Some(target),
            against: None,
            outcome: if ok { "success" } else { "failure" }.into(),
        },
    );
    Ok(ok)
}

/// Net Advantage on `unit`'s saves from its conditions (E-41, E-56).
fn save_edge(world: &World, unit: UnitId) -> i32 {
    save_edge_words(world, unit).net()
}

/// The Advantage and Disadvantage on `unit`'s saves, with their sources (E-41,
/// E-56).
fn save_edge_words(world: &World, unit: UnitId) -> super::conditions::Edge {
    let names_now = condition_names(world, unit);
    let refs: Vec<&str> = names_now.iter().map(String::as_str).collect();
    super::conditions::save_edge(&refs)
}

/// The edge of a roll in words for its purpose: "Basic Melee Attack (1 Disadvantage:
/// Dazed)".
fn with_edge(purpose: &str, edge: &super::conditions::Edge) -> String {
    let mut parts = Vec::new();
    if !edge.advantage.is_empty() {
        parts.push(format!(
            "{} Advantage: {}",
            edge.advantage.len(),
            edge.advantage.join(", ")
        ));
    }
    if !edge.disadvantage.is_empty() {
        parts.push(format!(
            "{} Disadvantage: {}",
            edge.disadvantage.len(),
            edge.disadvantage.join(", ")
        ));
    }
    if parts.is_empty() {
        purpose.to_string()
    } else {
        format!("{purpose} ({})", parts.join("; "))
    }
}

/// How an attack comes about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Manner {
    /// An attack action.
    Normal,
    /// An opportunity attack (E-38): a free Basic Melee Attack.
    Opportunity,
    /// A Coup de Grace: a natural crit (E-44, E-GAP-06).
    CoupDeGrace,
}

/// Makes an attack: the Invisible check, the roll, damage, conditions, Confused
/// self-harm, and a drop to 0 (E-02 … E-14, E-54, E-61). A power that strikes
/// every engaged enemy rolls against each of them, all rolls before any damage
/// (E-06).
pub fn make_attack(
    world: &mut World,
    attacker: UnitId,
    target: UnitId,
    power: Option<&str>,
    manner: Manner,
) {
    let Ok(first) = strike(world, attacker, target, power) else {
        return;
    };
    let all = manner == Manner::Normal && first.header.all_engaged;
    let targets = if all {
        let mut t = engaged(world, attacker);
        t.retain(|&u| u != target);
        t.insert(0, target);
        t
    } else {
        vec![target]
    };
    let mut rolled = Vec::new();
    for t in targets {
        if let Some(r) = attack_roll(world, attacker, t, power, manner) {
            rolled.push((t, r));
        }
        if halted(world) {
            return;
        }
    }
    for (t, (s, natural, outcome, foreseen)) in rolled {
        attack_effect(world, attacker, t, &s, natural, (outcome, foreseen));
    }
    if manner == Manner::Normal && first.deals_no_damage() {
        confused_ability(world, attacker);
    }
}

/// E-54, second half: a Confused unit that uses a non-attack ability (a `Heal`
/// power) or an attack that deals no damage makes an 11+ save (Enervated's
/// Disadvantage counts, E-56); on a failure it deals damage equal to its tier to
/// itself.
fn confused_ability(world: &mut World, unit: UnitId) {
    if !has(world, unit, names::CONFUSED) || !is_active(world, unit) || halted(world) {
        return;
    }
    let edge = save_edge_words(world, unit);
    let purpose = with_edge(
        "a save against Confused (an ability that deals no damage)",
        &edge,
    );
    let target = rules(world).save_target;
    match check_roll(world, unit, purpose, edge.net(), Vec::new(), target) {
        Ok(true) => {}
        Ok(false) => {
            emit(world, EscalationEvent::ConfusedSelfHarm { unit });
            let tier = esc(world, unit).tier;
            hurt(world, unit, Vec::new(), tier, false, Some(unit));
        }
        Err(e) => fault(world, e),
    }
}

/// A `Heal` power used on `target` (the user or an ally): it heals using one of
/// its Recoveries (E-47, E-48); a Dying PC so healed is back up, as after a
/// successful death save (E-51). Then Confused's save for a non-attack ability
/// (E-54).
pub(super) fn use_heal(world: &mut World, unit: UnitId, target: UnitId, free: bool) {
    let dying = play_state(world, target) == PlayState::Dying;
    if let Err(e) = recover_with(world, target, free, unit) {
        return fault(world, e);
    }
    if dying {
        emit(
            world,
            Event::Defeated {
                unit: target,
                state: PlayState::Active,
                cause: Some(LeaveCause::Recovered),
                by: Some(unit),
            },
        );
        emit(
            world,
            EscalationEvent::Recovered {
                unit: target,
                now: false,
            },
        );
        let m = esc_mut(world, target);
        m.saved_since_drop = false;
        m.death_save_disadvantage = 0;
    }
    confused_ability(world, unit);
}

/// Pays for using a power: marks an Encounter, Daily or Recharge power used and
/// spends its Power (E-27, E-30).
pub(super) fn pay_power(world: &mut World, unit: UnitId, s: &Strike) {
    let h = s.header;
    if h.frequency != super::powers::Frequency::AtWill || h.spend > 0 {
        let me = esc_mut(world, unit);
        if h.frequency != super::powers::Frequency::AtWill {
            me.used.push(s.name.clone());
        }
        me.power_points -= h.spend;
    }
}

/// The roll of one attack (after the Invisible check): the strike, its natural
/// roll and outcome; `None` when it has no effect.
fn attack_roll(
    world: &mut World,
    attacker: UnitId,
    target: UnitId,
    power: Option<&str>,
    manner: Manner,
) -> Option<(Strike, i64, Outcome, Option<Foreseen>)> {
    let power = if manner == Manner::Opportunity {
        Some(BASIC_MELEE)
    } else {
        power
    };
    let s = strike(world, attacker, target, power).ok()?;
    // The record's odds, from the state before any die of the attack; a Coup de
    // Grace is a crit whatever it rolls, and has none.
    let foreseen = (manner != Manner::CoupDeGrace)
        .then(|| super::ruleset::odds_of(world, &s, target))
        .flatten()
        .map(|(o, crit)| Foreseen {
            hit: o.chance,
            crit,
            expected_damage: o.expected_damage,
        });
    // E-61: attacking an Invisible unit needs an 11+ save first.
    if has(world, target, names::INVISIBLE) {
        let target_n = i64::from(rules(world).save_target);
        // A save like any other: Enervated's Disadvantage counts (E-56).
        let net = save_edge(world, attacker);
        let (faces, kept, natural) = match roll_pool(world, net) {
            Ok(r) => r,
            Err(e) => {
                fault(world, e);
                return None;
            }
        };
        let ok = natural >= target_n;
        emit(
            world,
            Event::Rolled {
                unit: attacker,
                purpose: with_edge(
                    "a save to find an Invisible target",
                    &save_edge_words(world, attacker),
                ),
                dice: pool_name(net),
                faces,
                kept,
                modifiers: Vec::new(),
                total: natural as i32,
                target: Some(target_n as i32),
                against: Some(target),
                outcome: if ok { "found" } else { "no effect" }.into(),
            },
        );
        if !ok {
            return None;
        }
    }
    let net = s.attack.net_advantage;
    if has(world, attacker, names::DICEY_EDGE) {
        end_where(world, attacker, "used on this attack", |c| {
            c.name == names::DICEY_EDGE
        });
    }
    let (faces, kept, rolled) = match roll_pool(world, net) {
        Ok(r) => r,
        Err(e) => {
            fault(world, e);
            return None;
        }
    };
    // E-44 / E-GAP-06: a Coup de Grace counts as a natural crit; its natural roll
    // still meets a resistance (E-GAP-07: doubled, then halved).
    let natural = rolled;
    let outcome = if manner == Manner::CoupDeGrace {
        Outcome::Crit
    } else {
        attack::classify(&s.attack, natural)
    };
    let word = match outcome {
        Outcome::CritFail => "crit fail",
        Outcome::Miss => "miss",
        Outcome::Hit => "hit",
        Outcome::Crit => "crit",
    };
    // E-02: the roll names the defense it is against.
    let purpose = match manner {
        Manner::Normal => format!("{} vs {}", s.name, s.defense),
        Manner::Opportunity => format!("an opportunity attack ({} vs {})", s.name, s.defense),
        Manner::CoupDeGrace => format!("a Coup de Grace ({} vs {})", s.name, s.defense),
    };
    emit(
        world,
        Event::Rolled {
            unit: attacker,
            purpose: with_edge(&purpose, &s.edge),
            dice: pool_name(net),
            faces,
            kept,
            modifiers: s.modifiers.clone(),
            total: (rolled + s.attack.modifier) as i32,
            target: Some(s.attack.defense as i32),
            against: Some(target),
            outcome: word.into(),
        },
    );
    Some((s, natural, outcome, foreseen))
}

/// What a rolled attack does: damage, conditions, Confused self-harm (E-07, E-54).
fn attack_effect(
    world: &mut World,
    attacker: UnitId,
    target: UnitId,
    s: &Strike,
    natural: i64,
    (outcome, foreseen): (Outcome, Option<Foreseen>),
) {
    let (dice_faces, dice_total) = match outcome {
        Outcome::Hit | Outcome::Crit => match roll_damage(world, s) {
            Ok(r) => r,
            Err(e) => return fault(world, e),
        },
        _ => (Vec::new(), 0),
    };
    let dealt = attack::damage_as(&s.attack, outcome, natural, dice_total);
    let hit = matches!(outcome, Outcome::Hit | Outcome::Crit);
    let queue = &mut esc_state_mut(world).interrupts;
    for what in [Trigger::Attacked, Trigger::Hit] {
        if what == Trigger::Attacked || hit {
            queue.0.push(Triggered {
                what,
                by: attacker,
                victim: target,
            });
        }
    }
    if hit {
        // E-58: remembered for a Grabbed attacker's Disengage this round.
        let round = world.resource::<TurnState>().round;
        let me = esc_mut(world, attacker);
        me.hits.retain(|&(_, r)| r == round);
        me.hits.push((target, round));
    }
    emit(
        world,
        Event::AttackResolved {
            attacker,
            target,
            power: s.name.clone(),
            outcome: outcome_of(outcome),
            damage: dealt as i32,
            odds: foreseen,
        },
    );
    if dealt > 0 || matches!(outcome, Outcome::Hit | Outcome::Crit) {
        hurt(
            world,
            target,
            dice_faces,
            dealt as i32,
            outcome == Outcome::Crit,
            Some(attacker),
        );
    }
    if matches!(outcome, Outcome::Hit | Outcome::Crit) && on_board(world, target) {
        let turns = esc(world, attacker).turns;
        for effect in &s.on_hit {
            let duration = match effect.lasts {
                EffectDuration::SaveEnds => Duration::SaveEnds,
                EffectDuration::Sustained => Duration::Sustained(attacker),
                // E-GAP-18: a one-round effect lasts to the end of the applier's
                // next turn.
                EffectDuration::EndOfRound => Duration::EndOfTurnOf {
                    unit: attacker,
                    turn: turns + 1,
                },
            };
            let (name, magnitude) = parse_effect(&effect.condition)
                .map_or((effect.condition.as_str(), None), |(n, m)| (n, m));
            let mut condition = Condition::new(name, duration).with_source(attacker);
            if let Some(m) = magnitude {
                condition = condition.with_magnitude(crate::engine::conditions::Magnitude::Flat(m));
            }
            if s.header.last_gasp && esc(world, target).pc && esc(world, target).last_gasp.is_none()
            {
                // E-52: the PC saves against it like a death save instead.
                condition.duration = Duration::UntilRemoved;
                let hp = world
                    .get::<Health>(entity(world, target))
                    .map_or(0, |h| h.hp);
                esc_mut(world, target).last_gasp = Some(super::units::LastGasp {
                    condition: name.to_string(),
                    hp,
                    failures: 0,
                });
            }
            add_condition(world, target, condition);
            if effect.lasts == EffectDuration::Sustained {
                esc_mut(world, attacker)
                    .sustaining
                    .push(super::units::Sustained {
                        power: s.name.clone(),
                        target,
                        condition: name.to_string(),
                        since: turns,
                        kept: turns,
                    });
            }
        }
    }
    // E-54: a Confused attacker with an odd natural roll takes half the base damage.
    if has(world, attacker, names::CONFUSED) && is_active(world, attacker) {
        let base = match outcome {
            Outcome::Hit | Outcome::Crit => dice_total + s.attack.bonus,
            Outcome::Miss => s.attack.miss_damage,
            Outcome::CritFail => 0,
        };
        let own = super::conditions::confused_self_damage(natural, base);
        if own > 0 {
            emit(world, EscalationEvent::ConfusedSelfHarm { unit: attacker });
            hurt(
                world,
                attacker,
                Vec::new(),
                own as i32,
                false,
                Some(attacker),
            );
        }
    }
}

/// An attack's outcome as the record of an attack tells it: a natural 3 is a
/// critical failure, a crit (a Coup de Grace included) a critical hit.
pub fn outcome_of(outcome: Outcome) -> AttackOutcome {
    match outcome {
        Outcome::CritFail => AttackOutcome::CriticalFailure,
        Outcome::Miss => AttackOutcome::Miss,
        Outcome::Hit => AttackOutcome::Hit,
        Outcome::Crit => AttackOutcome::Critical,
    }
}

/// Rolls a strike's hit damage: the faces and the dice's total.
fn roll_damage(world: &mut World, s: &Strike) -> Result<(Vec<u32>, i64), DiceError> {
    if s.averaged {
        return Ok((Vec::new(), s.averaged_total()));
    }
    match &s.roll {
        DamageRoll::Stance => {
            let faces = world
                .resource_mut::<Dice>()
                .roll_many(s.attack.dice, s.attack.die)?;
            let total = faces.iter().map(|&f| i64::from(f)).sum();
            Ok((faces, total))
        }
        DamageRoll::Expr(e) => {
            let r = e.roll(&mut world.resource_mut::<Dice>())?;
            Ok((r.faces.iter().map(|&(_, f)| f).collect(), r.total))
        }
    }
}

/// Deals `amount` damage to `unit`; at 0 HP or less a PC is Dying and an enemy dies
/// (E-46), and the battle may end.
pub fn hurt(
    world: &mut World,
    unit: UnitId,
    faces: Vec<u32>,
    amount: i32,
    crit: bool,
    source: Option<UnitId>,
) {
    let Some(h) = world.get::<Health>(entity(world, unit)).copied() else {
        return;
    };
    let hp = h.hp.saturating_sub(amount.max(0));
    emit(
        world,
        Event::Damaged {
            unit,
            faces,
            amount: amount.max(0),
            hp,
            source,
        },
    );
    staggered(world, unit);
    if hp > 0 || play_state(world, unit) != PlayState::Active {
        return;
    }
    if esc(world, unit).pc {
        let disadvantage = first_death_save_disadvantage(crit, hp, h.max);
        {
            let me = esc_mut(world, unit);
            me.death_save_disadvantage = disadvantage;
            me.dropped_by_crit = crit;
        }
        emit(
            world,
            Event::Defeated {
                unit,
                state: PlayState::Dying,
                cause: Some(LeaveCause::Damage),
                by: source,
            },
        );
    } else {
        emit(
            world,
            Event::Defeated {
                unit,
                state: PlayState::Dead,
                cause: Some(LeaveCause::Damage),
                by: source,
            },
        );
    }
    check_victory(world);
}

/// Staggered (E-45, E-GAP-16): a unit at or below half its maximum HP (rounded
/// down) and above 0 is Staggered. Called after every change of HP: the condition
/// starts (a log line) when the unit drops to half, and ends when it is healed
/// above half or drops to 0.
pub fn staggered(world: &mut World, unit: UnitId) {
    let Some(h) = world.get::<Health>(entity(world, unit)).copied() else {
        return;
    };
    let now = super::harm::staggered(h.hp, h.max);
    match (now, has(world, unit, names::STAGGERED)) {
        (true, false) => {
            add_condition(
                world,
                unit,
                Condition::new(names::STAGGERED, Duration::UntilRemoved),
            );
        }
        (false, true) => {
            let reason = if h.hp > 0 {
                "healed above half its HP"
            } else {
                "down to 0 HP"
            };
            end_where(world, unit, reason, |c| c.name == names::STAGGERED);
        }
        _ => {}
    }
}

/// Heals `unit` with a Recovery (E-47, E-48): a PC rolls Level dice of its recovery
/// die plus Volition (halved with no Recoveries left), an enemy 1d6 per Level; from
/// 0 HP when it was Dying (E-50). Returns the HP healed.
pub fn recover(world: &mut World, unit: UnitId) -> Result<i32, DiceError> {
    recover_with(world, unit, false, unit)
}

/// [`recover`], or with `free` a Free Recovery (E-47): the same dice, never halved,
/// and no Recovery spent nor Exhausted penalty.
fn recover_with(
    world: &mut World,
    unit: UnitId,
    free: bool,
    healer: UnitId,
) -> Result<i32, DiceError> {
    let me = esc(world, unit).clone();
    let (n, die, bonus) = if me.pc {
        (me.level.max(1) as u32, me.recovery_die, me.volition)
    } else {
        (me.level.max(1) as u32, 6, 0)
    };
    // E-48: the recovery dice rolled, or their average when the level says so.
    let faces = if rules(world).average_recovery {
        Vec::new()
    } else {
        world.resource_mut::<Dice>().roll_many(n, die)?
    };
    let dice = if rules(world).average_recovery {
        super::saves::averaged_recovery(n, die)
    } else {
        crate::engine::dice::sum(&faces)
    };
    let rolled = dice + bonus;
    let healed = if free {
        rolled.max(0)
    } else {
        super::saves::recovery_heal(rolled, me.recoveries)
    };
    let h = *world
        .get::<Health>(entity(world, unit))
        .expect("units have health");
    let from = if play_state(world, unit) == PlayState::Dying {
        0
    } else {
        h.hp
    };
    let hp = (from + healed).min(h.max);
    emit(
        world,
        Event::Healed {
            unit,
            faces,
            amount: hp - from,
            hp,
            source: Some(healer),
        },
    );
    staggered(world, unit);
    if free {
        // A Free Recovery spends nothing (E-47).
    } else if me.recoveries > 0 {
        let left = me.recoveries - 1;
        esc_mut(world, unit).recoveries = left;
        emit(world, EscalationEvent::RecoverySpent { unit, left });
    } else {
        let penalty = me.exhausted + 1;
        esc_mut(world, unit).exhausted = penalty;
        emit(world, EscalationEvent::Exhausted { unit, penalty });
    }
    Ok(healed)
}

// ------------------------------------------------------------------ the round

/// The one system: starts turns, executes commands and answers.
pub fn drive(world: &mut World) {
    if halted(world) {
        return;
    }
    if world.resource::<Pending>().0.is_some() {
        let Some(answer) = world.resource_mut::<Incoming>().0.take() else {
            return;
        };
        world.resource_mut::<Pending>().0 = None;
        let ask = esc_state_mut(world).asking.0.take();
        match ask {
            Some(Ask::NextInBand) => {
                let unit = match answer {
                    Command::ActNow { units, .. } => units.first().copied(),
                    _ => None,
                };
                if let Some(unit) = unit {
                    start_turn(world, unit);
                }
            }
            Some(Ask::Intercept { mover, path }) => {
                let by = match answer {
                    Command::React { unit, .. } => Some(unit),
                    _ => None,
                };
                finish_travel(world, mover, path, by);
            }
            Some(Ask::Interrupt) => {
                if let Command::Attack {
                    unit,
                    target,
                    power: Some(power),
                    ..
                } = answer
                {
                    super::interrupts::interrupt(world, unit, target, &power);
                }
            }
            None => {}
        }
        super::interrupts::offer_interrupts(world);
        world.resource_mut::<Progress>().0 = true;
        return;
    }
    let Some(unit) = world.resource::<TurnState>().active else {
        next_turn(world);
        return;
    };
    let Some(command) = world.resource_mut::<Incoming>().0.take() else {
        if !is_active(world, unit) && !spirit(world, unit) {
            // Dropped on its own turn (an opportunity attack, Confused self-harm,
            // ongoing damage): its turn is over.
            emit(world, Event::TurnEnded { unit });
        }
        return;
    };
    execute(world, unit, command);
    super::interrupts::offer_interrupts(world);
}

/// Starts the next turn: the next unit of the current group, asking its side which
/// when several could go (E-16, E-GAP-09); a new round when the groups are done.
fn next_turn(world: &mut World) {
    loop {
        let mut state = esc_state(world).round.clone();
        let Some(group) = state.groups.first_mut() else {
            let round = world.resource::<TurnState>().round;
            if round == 0 && !state.surprise_done {
                esc_state_mut(world).round.surprise_done = true;
                start_surprise(world);
                continue;
            }
            if round > 0 && check_round_limit(world) {
                return;
            }
            if !start_round(world) {
                return;
            }
            continue;
        };
        group
            .units
            .retain(|&u| on_board(world, u) || spirit(world, u));
        if group.units.is_empty() {
            state.groups.remove(0);
            esc_state_mut(world).round = state;
            continue;
        }
        let units = group.units.clone();
        esc_state_mut(world).round = state;
        if units.len() == 1 {
            start_turn(world, units[0]);
            return;
        }
        let side = side_of(world, units[0]);
        if world.resource::<Sides>().0[side.0 as usize].decisions != DecisionPolicy::Ask {
            start_turn(world, units[0]);
            return;
        }
        let decision = band_decision(world, side, &units);
        esc_state_mut(world).asking.0 = Some(Ask::NextInBand);
        world.resource_mut::<Pending>().0 = Some(decision);
        world.resource_mut::<Progress>().0 = true;
        return;
    }
}

/// The "who acts next in this band" decision (E-16, E-GAP-09): one option per
/// unit, roster order first (the AI's pick).
fn band_decision(world: &World, side: SideId, units: &[UnitId]) -> PendingDecision {
    let band = band_name(world, units[0]);
    let kind = if esc(world, units[0]).pc {
        "PCs"
    } else {
        "enemies"
    };
    let n = units.len() as f64;
    PendingDecision {
        side,
        prompt: format!("Which of your {band} {kind} acts next?"),
        about: format!("choose which of its {band} {kind} acts next"),
        pick: Pick::One,
        options: units
            .iter()
            .enumerate()
            .map(|(i, &u)| {
                DecisionOption::new(
                    Command::ActNow {
                        side,
                        units: vec![u],
                    },
                    format!("{} acts", crate::engine::battle::name(world, u)),
                )
                .value(n - i as f64)
            })
            .collect(),
        decline: None,
        lookahead: false,
    }
}

/// Starts a round: the Escalation die, then the groups in band order, PCs before
/// enemies (E-16, E-18). False when nobody can act.
fn start_round(world: &mut World) -> bool {
    let mut units = board_units(world);
    if units.is_empty() {
        return false;
    }
    // E-41: a PC out of the fight for good keeps its turn to Fight in Spirit.
    units.extend(
        (0..world.resource::<crate::engine::battle::Roster>().0.len() as u32)
            .map(UnitId)
            .filter(|&u| spirit(world, u)),
    );
    units.sort();
    let round = world.resource::<TurnState>().round + 1;
    emit(world, Event::RoundStarted { round });
    emit(
        world,
        Event::StageStarted {
            stage: Stage::Attack,
        },
    );
    let value = rules(world).escalation(round);
    let old = esc_state(world).round.escalation;
    esc_state_mut(world).round.escalation = value;
    if value != old {
        emit(world, EscalationEvent::EscalationDie { value });
    }
    let groups = band_groups(world, &units);
    let order: Vec<UnitId> = groups.iter().flat_map(|g| g.units.clone()).collect();
    emit(
        world,
        Event::OrderSet {
            stage: Stage::Attack,
            order,
        },
    );
    let state = &mut esc_state_mut(world).round;
    state.groups = groups;
    state.delayed.clear();
    true
}

/// The Surprise Round: the level's ambushers each take one turn, in band order,
/// before round 1; the Escalation die stays 0 (E-17, E-GAP-10).
fn start_surprise(world: &mut World) {
    let names = rules(world).surprise.clone();
    if names.is_empty() {
        return;
    }
    let units: Vec<UnitId> = board_units(world)
        .into_iter()
        .filter(|&u| names.contains(&crate::engine::battle::name(world, u)))
        .collect();
    if units.is_empty() {
        return;
    }
    emit(
        world,
        EscalationEvent::SurpriseRound {
            units: units.clone(),
        },
    );
    let groups = band_groups(world, &units);
    esc_state_mut(world).round.groups = groups;
}

/// `units` in their band groups, in the order they act (E-16).
fn band_groups(world: &World, units: &[UnitId]) -> Vec<Group> {
    let entrants: Vec<super::initiative::Entrant> = units
        .iter()
        .map(|&u| super::initiative::Entrant {
            unit: u,
            band: esc(world, u).band,
            pc: esc(world, u).pc,
        })
        .collect();
    super::initiative::groups(&entrants)
        .into_iter()
        .map(|units| Group {
            band: esc(world, units[0]).band,
            pc: esc(world, units[0]).pc,
            units,
        })
        .collect()
}

/// Starts `unit`'s turn: fresh actions; a Stunned unit loses its Move action
/// (E-66); a Dying PC makes its death save (E-49, E-50, E-GAP-15).
fn start_turn(world: &mut World, unit: UnitId) {
    if let Some(g) = esc_state_mut(world).round.groups.first_mut() {
        g.units.retain(|&u| u != unit);
    }
    esc_state_mut(world).round.delayed.retain(|&u| u != unit);
    esc_mut(world, unit).turns += 1;
    esc_state_mut(world).turn = TurnActions::default();
    emit(
        world,
        Event::TurnStarted {
            unit,
            stage: Stage::Attack,
        },
    );
    if esc_mut(world, unit).ready.take().is_some() {
        emit(world, EscalationEvent::ReadyLapsed { unit });
    }
    if let Some(kind) = esc_mut(world, unit).lost.take() {
        let t = &mut esc_state_mut(world).turn;
        match kind {
            ActionKind::Quick => t.left.quick = false,
            ActionKind::Move => t.left.moves = false,
            ActionKind::Standard => t.left.standard = false,
        }
        emit(
            world,
            EscalationEvent::ActionSpent {
                unit,
                what: format!(
                    "its readied {} action went off before this turn",
                    kind.name()
                ),
                needs: kind,
                spent: kind,
            },
        );
    }
    if play_state(world, unit) == PlayState::Dying {
        death_save(world, unit);
        return;
    }
    if esc(world, unit).last_gasp.is_some() {
        last_gasp_save(world, unit, true);
        if !is_active(world, unit) && world.resource::<TurnState>().active == Some(unit) {
            emit(world, Event::TurnEnded { unit });
            return;
        }
    }
    if has(world, unit, names::STUNNED) || has(world, unit, names::HELPLESS) {
        esc_state_mut(world).turn.left.moves = false;
        emit(
            world,
            EscalationEvent::ActionSpent {
                unit,
                what: "lost to Stunned".into(),
                needs: ActionKind::Move,
                spent: ActionKind::Move,
            },
        );
    }
}

/// A Dying PC's death save at the start of its turn (E-49, E-50, E-GAP-15).
fn death_save(world: &mut World, unit: UnitId) {
    let me = esc(world, unit).clone();
    let disadvantage = if me.death.failures == 0 && !me.saved_since_drop {
        me.death_save_disadvantage
    } else {
        0
    };
    let net = save_edge(world, unit) - disadvantage;
    let (faces, kept, natural) = match roll_pool(world, net) {
        Ok(r) => r,
        Err(e) => return fault(world, e),
    };
    let c = rules(world).clone();
    let result = save_result(
        natural,
        0,
        i64::from(c.death_save_target),
        i64::from(c.crit_at),
    );
    emit(
        world,
        Event::Rolled {
            unit,
            purpose: "a death save".into(),
            dice: pool_name(net),
            faces,
            kept,
            modifiers: Vec::new(),
            total: natural as i32,
            target: Some(c.death_save_target),
            against: None,
            outcome: match result {
                SaveResult::Fail => "failure",
                SaveResult::Success => "success",
                SaveResult::Crit => "crit",
            }
            .into(),
        },
    );
    let outcome = {
        let m = esc_mut(world, unit);
        m.saved_since_drop = true;
        m.death.record(result, c.death_save_failures)
    };
    match outcome {
        DeathSaveOutcome::Recovers | DeathSaveOutcome::RecoversNow => {
            if let Err(e) = recover(world, unit) {
                return fault(world, e);
            }
            emit(
                world,
                Event::Defeated {
                    unit,
                    state: PlayState::Active,
                    cause: Some(LeaveCause::Recovered),
                    by: None,
                },
            );
            let now = outcome == DeathSaveOutcome::RecoversNow;
            emit(world, EscalationEvent::Recovered { unit, now });
            {
                let m = esc_mut(world, unit);
                m.saved_since_drop = false;
                m.death_save_disadvantage = 0;
            }
            if !now {
                emit(world, Event::TurnEnded { unit });
            }
        }
        DeathSaveOutcome::Failed | DeathSaveOutcome::Dies => {
            let m = esc(world, unit);
            emit(
                world,
                EscalationEvent::DeathSaveFailed {
                    unit,
                    failures: m.death.failures,
                    limit: c.death_save_failures,
                    stabilized: m.death.stabilized,
                },
            );
            if outcome == DeathSaveOutcome::Dies {
                emit(
                    world,
                    Event::Defeated {
                        unit,
                        state: PlayState::Dead,
                        cause: Some(LeaveCause::Died),
                        by: None,
                    },
                );
                emit(world, Event::TurnEnded { unit });
                check_victory(world);
            } else {
                emit(world, Event::TurnEnded { unit });
            }
        }
    }
}

/// Ends `unit`'s turn: ongoing damage first, then saves against save-ends effects
/// (E-23, E-62, E-GAP-03), then one-round effects it applied expire (E-GAP-18).
pub fn end_turn(world: &mut World, unit: UnitId) {
    let ongoing: i32 = world
        .get::<Conditions>(entity(world, unit))
        .map(|c| c.total(ONGOING))
        .unwrap_or(0);
    if ongoing > 0 && is_active(world, unit) {
        // The ongoing damage is the doing of whoever caused the first of it.
        let source = world.get::<Conditions>(entity(world, unit)).and_then(|c| {
            c.0.iter()
                .find(|c| c.name == ONGOING)
                .and_then(|c| c.source)
        });
        hurt(world, unit, Vec::new(), ongoing, false, source);
    }
    if on_board(world, unit) && !halted(world) {
        let saves: Vec<String> = world
            .get::<Conditions>(entity(world, unit))
            .map(|c| {
                c.0.iter()
                    .filter(|c| matches!(c.duration, Duration::SaveEnds))
                    .map(|c| c.name.clone())
                    .collect()
            })
            .unwrap_or_default();
        for name in saves {
            if let Err(e) = save_against(world, unit, &name, 0, rules(world).save_target) {
                return fault(world, e);
            }
        }
    }
    let turn = esc(world, unit).turns;
    expire_turn_end(world, unit, turn, "its source's turn ended");
    // E-29: sustained effects not sustained this turn end with it.
    let lapsed: Vec<super::units::Sustained> = {
        let me = esc_mut(world, unit);
        let (keep, lapse) = me.sustaining.drain(..).partition(|s| s.kept == turn);
        me.sustaining = keep;
        lapse
    };
    for l in lapsed {
        if on_board(world, l.target) {
            end_where(world, l.target, "no longer sustained", |c| {
                c.name == l.condition && c.duration == Duration::Sustained(unit)
            });
        }
    }
    if world.resource::<TurnState>().active == Some(unit) {
        emit(world, Event::TurnEnded { unit });
    }
}

/// Rolls a save against the condition `name` on `unit` (3d6 + `bonus` ≥ `target`,
/// Enervated: 1 Disadvantage, E-56, E-GAP-03); ends it on a success.
fn save_against(
    world: &mut World,
    unit: UnitId,
    name: &str,
    bonus: i32,
    target: i32,
) -> Result<bool, DiceError> {
    let modifiers = if bonus != 0 {
        vec![RollModifier::new("Escalation", bonus)]
    } else {
        Vec::new()
    };
    let net = save_edge(world, unit);
    let ok = check_roll(
        world,
        unit,
        format!("a save against {name}"),
        net,
        modifiers,
        target,
    )?;
    if ok {
        // Same-named conditions don't stack (E-GAP-18): this ends the one.
        end_where(world, unit, "saved", |c| c.name == name);
    }
    Ok(ok)
}

/// Reads an effect name a level writes: a condition, or `Ongoing N` (E-62) with
/// its damage.
pub fn parse_effect(name: &str) -> Option<(&'static str, Option<i32>)> {
    let words: Vec<&str> = name.split_whitespace().collect();
    match words.as_slice() {
        [w, n] if w.eq_ignore_ascii_case(ONGOING) => {
            let n: i32 = n
                .parse()
                .ok()
                .filter(|n| (1..=crate::engine::ruleset::MAX_HP).contains(n))?;
            Some((ONGOING, Some(n)))
        }
        [_, ..] => names::NAMES
            .iter()
            .find(|c| c.eq_ignore_ascii_case(name.trim()) && **c != ONGOING)
            .map(|&c| (c, None)),
        [] => None,
    }
}

/// The attack a Hampered enemy may use (E-59): its first listed power, which
/// counts as its basic attack, stripped of non-damage effects. `None` when `unit`
/// is not Hampered, is a PC (PCs keep their stance's basic attack), or lists no
/// power (then the stance's basic attack stands).
pub fn hampered_attack(world: &World, unit: UnitId) -> Option<String> {
    if esc(world, unit).pc || !has(world, unit, names::HAMPERED) {
        return None;
    }
    world
        .get::<Powers>(entity(world, unit))?
        .0
        .iter()
        .filter(|p| p.name != BASIC_MELEE && p.name != BASIC_RANGED)
        // A `Heal` power is no attack (E-47).
        .find(|p| !super::powers::parse_header(&p.traits).is_ok_and(|h| h.heal))
        .map(|p| p.name.clone())
}

// ------------------------------------------------------------------ commands

/// Spends the action `needs` for `what` (a better one if that one is gone, E-22)
/// and tells it.
fn spend(world: &mut World, unit: UnitId, needs: ActionKind, what: &str) {
    let t = &mut esc_state_mut(world).turn;
    t.acted = true;
    let Some(spent) = t.left.spend(needs) else {
        return;
    };
    emit(
        world,
        EscalationEvent::ActionSpent {
            unit,
            what: what.into(),
            needs,
            spent,
        },
    );
}

/// Executes the active unit's command (already checked); a `Pop off` power then
/// pops its user off the enemies it attacked, skipping the Disengage check: its
/// moves provoke no opportunity attack from them until the end of its turn (E-37).
fn execute(world: &mut World, unit: UnitId, command: Command) {
    let popped = match &command {
        Command::Attack { target, power, .. } => strike(world, unit, *target, power.as_deref())
            .ok()
            .filter(|s| s.header.pop_off)
            .map(|s| {
                let mut them = vec![*target];
                if s.header.all_engaged {
                    them.extend(engaged(world, unit).into_iter().filter(|u| u != target));
                }
                them
            })
            .unwrap_or_default(),
        _ => Vec::new(),
    };
    perform(world, unit, command);
    if !is_active(world, unit) || halted(world) {
        return;
    }
    let turn = esc(world, unit).turns;
    for enemy in popped {
        add_condition(
            world,
            unit,
            Condition::new(names::POPPED_OFF, Duration::EndOfTurnOf { unit, turn })
                .with_source(enemy),
        );
    }
}

/// Carries out the active unit's command.
fn perform(world: &mut World, unit: UnitId, command: Command) {
    match command {
        Command::EndTurn { .. } => end_turn(world, unit),
        Command::Move { path, .. } => {
            spend(world, unit, ActionKind::Move, MOVE);
            travel(world, unit, path, true);
        }
        Command::Attack { target, power, .. } => {
            let Ok(s) = strike(world, unit, target, power.as_deref()) else {
                return;
            };
            if s.header.timing == Timing::Free {
                // E-21: no action spent; each Free power once a turn.
                let turn = esc(world, unit).turns;
                esc_mut(world, unit).free_used.push((s.name.clone(), turn));
                esc_state_mut(world).turn.acted = true;
            } else {
                spend(world, unit, s.header.action, &s.name);
            }
            pay_power(world, unit, &s);
            // E-36: a ranged attack while engaged provokes; so does a power that
            // says so (E-28).
            if (s.ranged || s.header.provokes) && !provoke(world, unit) {
                return;
            }
            if s.header.heal {
                return use_heal(world, unit, target, s.header.free_recovery);
            }
            if !fire_readied(world, unit) {
                return;
            }
            make_attack(world, unit, target, power.as_deref(), Manner::Normal);
        }
        Command::Act { verb, args, .. } => match verb.as_str() {
            super::verbs::DISENGAGE => {
                if let Some(to) = args.cell("to") {
                    disengage(world, unit, to, args.unit("except"));
                }
            }
            super::verbs::STANCE => {
                spend(world, unit, ActionKind::Quick, "switch stance");
                let stance = esc(world, unit).stance.other();
                esc_mut(world, unit).stance = stance;
                let basic = basic_power(esc(world, unit));
                let e = entity(world, unit);
                if let Some(mut powers) = world.get_mut::<Powers>(e)
                    && let Some(first) = powers.0.first_mut()
                {
                    *first = basic;
                }
                emit(
                    world,
                    EscalationEvent::StanceSwitched {
                        unit,
                        stance: stance.name().into(),
                    },
                );
            }
            super::verbs::RALLY => rally(world, unit),
            super::verbs::DELAY => {
                if let Some(band) = args.choice("band") {
                    delay(world, unit, band);
                }
            }
            super::verbs::STABILIZE => {
                if let Some(target) = args.unit("target") {
                    spend(world, unit, ActionKind::Standard, "Stabilize");
                    esc_mut(world, target).death.stabilized = true;
                    emit(world, EscalationEvent::Stabilized { unit, target });
                }
            }
            super::verbs::COUP_DE_GRACE => {
                if let Some(target) = args.unit("target") {
                    for kind in [ActionKind::Standard, ActionKind::Move, ActionKind::Quick] {
                        spend(world, unit, kind, "Coup de Grace");
                    }
                    if !fire_readied(world, unit) {
                        return;
                    }
                    make_attack(world, unit, target, None, Manner::CoupDeGrace);
                }
            }
            super::verbs::READY => ready(world, unit, &args),
            super::verbs::DICEY_MOVE => dicey_move(world, unit, &args),
            super::verbs::GRANT_SAVE => {
                if let Some(target) = args.unit("target") {
                    spend(world, unit, ActionKind::Standard, "grant a Last Gasp save");
                    last_gasp_save(world, target, false);
                }
            }
            super::verbs::SUSTAIN => {
                if let Some(power) = args.name("power") {
                    sustain(world, unit, power);
                }
            }
            super::verbs::FIGHT_IN_SPIRIT => {
                let (Some(ally), Some(boon)) = (args.unit("ally"), args.choice("boon")) else {
                    return;
                };
                let name = match boon {
                    "Attacks" => names::SPIRIT_ATTACKS,
                    "Saves" => names::SPIRIT_SAVES,
                    _ => names::SPIRIT_GUARD,
                };
                let turn = esc(world, unit).turns + 1;
                add_condition(
                    world,
                    ally,
                    Condition::new(name, Duration::EndOfTurnOf { unit, turn }).with_source(unit),
                );
                emit(world, Event::TurnEnded { unit });
            }
            super::verbs::FLEE => {
                let side = side_of(world, unit);
                emit(world, EscalationEvent::Fled { side });
                for u in board_units(world) {
                    if side_of(world, u) == side {
                        emit(
                            world,
                            Event::Defeated {
                                unit: u,
                                state: PlayState::Fled,
                                cause: Some(LeaveCause::Fled),
                                by: None,
                            },
                        );
                    }
                }
                if world.resource::<TurnState>().active.is_some() {
                    emit(world, Event::TurnEnded { unit });
                }
                check_victory(world);
            }
            _ => {}
        },
        _ => {}
    }
}

/// Opportunity attacks on `unit` from the engaged enemies in Melee stance, before
/// it moves or shoots (E-36, E-38, E-GAP-12). False when it no longer stands.
pub(super) fn provoke(world: &mut World, unit: UnitId) -> bool {
    for enemy in provoked_by(world, unit) {
        if !is_active(world, enemy) {
            continue;
        }
        emit(
            world,
            EscalationEvent::Provoked {
                attacker: enemy,
                mover: unit,
            },
        );
        make_attack(world, enemy, unit, None, Manner::Opportunity);
        if !is_active(world, unit) || halted(world) {
            return false;
        }
    }
    true
}

/// Moves `mover` along `path`: opportunity attacks first when `provokes`, then the
/// Intercept question to the other side, then the steps (E-38, E-39).
fn travel(world: &mut World, mover: UnitId, path: Vec<Cell>, provokes: bool) {
    if provokes && !provoke(world, mover) {
        return;
    }
    let candidates = interceptors(world, mover, &path);
    let Some(&(first, _)) = candidates.first() else {
        return finish_travel(world, mover, path, None);
    };
    let side = side_of(world, first);
    match world.resource::<Sides>().0[side.0 as usize].decisions {
        DecisionPolicy::Never => finish_travel(world, mover, path, None),
        DecisionPolicy::Auto => finish_travel(world, mover, path, Some(first)),
        DecisionPolicy::Ask => {
            let decision = intercept_decision(world, side, mover, &candidates);
            esc_state_mut(world).asking.0 = Some(Ask::Intercept { mover, path });
            world.resource_mut::<Pending>().0 = Some(decision);
            world.resource_mut::<Progress>().0 = true;
        }
    }
}

fn intercept_decision(
    world: &World,
    side: SideId,
    mover: UnitId,
    candidates: &[(UnitId, UnitId)],
) -> PendingDecision {
    let n = |u: UnitId| crate::engine::battle::name(world, u);
    let allies: Vec<String> = candidates.iter().map(|&(_, a)| n(a)).collect();
    let ally = allies.first().cloned().unwrap_or_default();
    PendingDecision {
        side,
        prompt: format!("{} is moving to engage {ally}. Intercept?", n(mover)),
        about: format!("intercept {} on its way to {ally}", n(mover)),
        pick: Pick::One,
        options: candidates
            .iter()
            .map(|&(u, a)| {
                DecisionOption::new(
                    Command::React {
                        side,
                        unit: u,
                        reaction: crate::engine::command::Reaction::Intercept,
                        to: None,
                        swap: false,
                    },
                    format!("{} intercepts (protects {})", n(u), n(a)),
                )
                .value(1.0)
            })
            .collect(),
        decline: Some(DecisionOption::new(Command::Pass { side }, "Let it pass")),
        lookahead: false,
    }
}

/// The Free units that may intercept `mover` walking `path`, each with the ally it
/// protects (E-35, E-39, E-GAP-13): the path ends next to an ally it did not start
/// next to; the interceptor is not engaged, within Nearby of that ally, flies if
/// the mover flies, and can reach a cell next to the mover's path this move.
pub fn interceptors(world: &World, mover: UnitId, path: &[Cell]) -> Vec<(UnitId, UnitId)> {
    let Some(&end) = path.last() else {
        return Vec::new();
    };
    let board = &world.resource::<Map>().0;
    let start = cell_of(world, mover);
    let side = side_of(world, mover);
    let nearby = nearby_limit(world);
    let flying = esc(world, mover).flying;
    let mut out = Vec::new();
    let actives = active_units(world);
    for &ally in &actives {
        let at = cell_of(world, ally);
        if side_of(world, ally) == side
            || board.distance(end, at) != 1
            || board.distance(start, at) <= 1
        {
            continue;
        }
        for &u in &actives {
            if u == ally
                || side_of(world, u) != side_of(world, ally)
                || out.iter().any(|&(o, _)| o == u)
                || !engaged(world, u).is_empty()
                || board.distance(cell_of(world, u), at) > nearby
                || (flying && !esc(world, u).flying)
            {
                continue;
            }
            if intercept_point(world, u, mover, path).is_some() {
                out.push((u, ally));
            }
        }
    }
    out
}

/// The farthest distance that is still Nearby (E-GAP-01: 7).
pub fn nearby_limit(world: &World) -> u32 {
    let bands = &rules(world).bands;
    bands
        .index_of("Nearby")
        .and_then(|i| bands.span(i))
        .map_or(7, |(_, hi)| hi)
}

/// Where `by` stops `mover` walking `path`: the first step index whose cell `by`
/// can stand next to with one move, and that cell (E-GAP-13).
fn intercept_point(
    world: &World,
    by: UnitId,
    mover: UnitId,
    path: &[Cell],
) -> Option<(usize, Cell)> {
    let board = &world.resource::<Map>().0;
    let speed = rules(world).speed;
    let mover_at = cell_of(world, mover);
    let base = crate::engine::battle::occupancy_for(world, by);
    let occupancy = move |c: Cell| {
        if c == mover_at {
            crate::engine::board::Occupancy::Free
        } else {
            base(c)
        }
    };
    let field = board.movement_field(cell_of(world, by), speed, &occupancy);
    let stands = crate::engine::battle::occupancy_for(world, mover);
    for (k, &step) in path.iter().enumerate() {
        // The mover must be able to stop there (not on an ally's cell).
        if stands(step) != crate::engine::board::Occupancy::Free {
            continue;
        }
        let best = field
            .iter()
            .filter(|&(&c, _)| {
                board.distance(c, step) == 1 && !path[..=k].contains(&c) && c != mover_at
            })
            .min_by_key(|&(&c, &cost)| (cost, c))
            .map(|(&c, _)| c);
        if let Some(c) = best {
            return Some((k, c));
        }
    }
    None
}

/// The steps of a move; stopped by `by`'s Intercept when it intercepts (E-39).
fn finish_travel(world: &mut World, mover: UnitId, path: Vec<Cell>, by: Option<UnitId>) {
    let before = engaged(world, mover);
    finish_steps(world, mover, path, by);
    super::interrupts::queue_engagements(world, mover, &before);
}

/// The steps of [`finish_travel`].
fn finish_steps(world: &mut World, mover: UnitId, path: Vec<Cell>, by: Option<UnitId>) {
    let stop = by.and_then(|u| intercept_point(world, u, mover, &path).map(|p| (u, p)));
    let until = stop.map_or(path.len(), |(_, (k, _))| k + 1);
    for &to in &path[..until] {
        step(world, mover, to);
        // Readied attacks wait for a cell the mover could stop on (not an ally's).
        if can_stop(world, mover, to) && !fire_readied(world, mover) {
            return;
        }
    }
    if let Some((u, (_, cell))) = stop {
        emit(
            world,
            Event::MovementStopped {
                unit: mover,
                reason: format!("intercepted by {}", crate::engine::battle::name(world, u)),
            },
        );
        let ally = interceptors_ally(world, mover, &path, u);
        let occupancy = crate::engine::battle::occupancy_for(world, u);
        let route = world
            .resource::<Map>()
            .0
            .path(cell_of(world, u), cell, &occupancy);
        if let Some((cells, _)) = route {
            for to in cells {
                step(world, u, to);
            }
        }
        emit(
            world,
            EscalationEvent::Intercepted {
                unit: u,
                mover,
                ally,
            },
        );
    }
}

/// Whether `unit` could end a move on `cell` (nobody else stands there).
fn can_stop(world: &World, unit: UnitId, cell: Cell) -> bool {
    crate::engine::battle::occupancy_for(world, unit)(cell) == crate::engine::board::Occupancy::Free
}

/// The ally an interceptor protects: the unit of its side next to the path's end.
fn interceptors_ally(world: &World, mover: UnitId, path: &[Cell], by: UnitId) -> UnitId {
    let end = path.last().copied().unwrap_or(cell_of(world, mover));
    let board = &world.resource::<Map>().0;
    active_units(world)
        .into_iter()
        .find(|&a| {
            a != by
                && side_of(world, a) == side_of(world, by)
                && board.distance(end, cell_of(world, a)) == 1
        })
        .unwrap_or(by)
}

/// One step of a move.
fn step(world: &mut World, unit: UnitId, to: Cell) {
    let from = cell_of(world, unit);
    let cost = world.resource::<Map>().0.step_cost(to).unwrap_or(1);
    emit(
        world,
        Event::Moved {
            unit,
            from,
            to,
            cost,
        },
    );
}

/// Disengage (a Move action): 3d6 against 11 + 1 per engaged enemy after the first;
/// success pops off them all and moves to `to`, failure loses the Move action
/// (E-37, E-58, E-GAP-11).
fn disengage(world: &mut World, unit: UnitId, to: Cell, except: Option<UnitId>) {
    spend(world, unit, ActionKind::Move, "Disengage");
    let mut enemies = engaged(world, unit);
    enemies.retain(|&e| Some(e) != except);
    let difficulty = rules(world).disengage_difficulty(enemies.len() as u32);
    // E-58: Grabbed gives 1 Disadvantage to disengage from the grabber, unless the
    // unit hit it with an attack this round.
    let round = world.resource::<TurnState>().round;
    let hits = esc(world, unit).hits.clone();
    let grabbed = world
        .get::<Conditions>(entity(world, unit))
        .is_some_and(|c| {
            c.0.iter().any(|c| {
                c.name == names::GRABBED
                    && c.source
                        .is_some_and(|s| enemies.contains(&s) && !hits.contains(&(s, round)))
            })
        });
    let aided = has(world, unit, names::DICEY_AID);
    let net = i32::from(aided) - i32::from(grabbed);
    if aided {
        end_where(world, unit, "used on this Disengage", |c| {
            c.name == names::DICEY_AID
        });
    }
    let purpose = match (aided, grabbed) {
        (true, true) => "Disengage (1 Advantage: Dicey Aid; 1 Disadvantage: Grabbed)",
        (true, false) => "Disengage (1 Advantage: Dicey Aid)",
        (false, true) => "Disengage (1 Disadvantage: Grabbed)",
        (false, false) => "Disengage",
    };
    // E-37: success is 3d6 >= the Difficulty.
    let ok = match check_roll(world, unit, purpose.into(), net, Vec::new(), difficulty) {
        Ok(ok) => ok,
        Err(e) => return fault(world, e),
    };
    if !ok {
        emit(
            world,
            Event::MovementStopped {
                unit,
                reason: "failed to disengage: the Move action is lost".into(),
            },
        );
        return;
    }
    // E-GAP-11: an engaged enemy it chose not to disengage from still gets its
    // opportunity attack when it moves.
    if let Some(x) = except
        && provoked_by(world, unit).contains(&x)
    {
        emit(
            world,
            EscalationEvent::Provoked {
                attacker: x,
                mover: unit,
            },
        );
        make_attack(world, x, unit, None, Manner::Opportunity);
        if !is_active(world, unit) || halted(world) {
            return;
        }
    }
    let occupancy = crate::engine::battle::occupancy_for(world, unit);
    let route = world
        .resource::<Map>()
        .0
        .path(cell_of(world, unit), to, &occupancy);
    if let Some((cells, _)) = route {
        travel(world, unit, cells, false);
    }
}

/// Rally (a Standard action): heal with a Recovery, then save against one
/// save-ends effect (11+) or one-round effect (13+) with the Escalation die
/// added (E-43).
fn rally(world: &mut World, unit: UnitId) {
    spend(world, unit, ActionKind::Standard, "Rally");
    if let Err(e) = recover(world, unit) {
        return fault(world, e);
    }
    let first = world.get::<Conditions>(entity(world, unit)).and_then(|c| {
        c.0.iter()
            .find(|c| {
                matches!(
                    c.duration,
                    Duration::SaveEnds | Duration::EndOfTurnOf { .. }
                )
            })
            .cloned()
    });
    if let Some(c) = first {
        let target = match c.duration {
            Duration::SaveEnds => rules(world).save_target,
            _ => 13,
        };
        // E-43 / E-63: a Shaken unit counts the die as 0 here too.
        let bonus = die_for(world, unit);
        if let Err(e) = save_against(world, unit, &c.name, bonus, target) {
            fault(world, e);
        }
    }
}

/// Delay: the unit's band becomes a lower one for the rest of the battle, and it
/// acts there this round (E-19).
fn delay(world: &mut World, unit: UnitId, band: &str) {
    let Some(b) = band_index(rules(world), band) else {
        return;
    };
    let name = rules(world).initiative_bands[b].clone();
    esc_mut(world, unit).band = b;
    esc_mut(world, unit).turns -= 1;
    emit(world, EscalationEvent::Delayed { unit, band: name });
    let pc = esc(world, unit).pc;
    {
        let state = &mut esc_state_mut(world).round;
        state.delayed.push(unit);
        let key = |g: &Group| (g.band, !g.pc);
        match state.groups.iter().position(|g| g.band == b && g.pc == pc) {
            Some(i) => {
                state.groups[i].units.push(unit);
                state.groups[i].units.sort();
            }
            None => {
                let at = state
                    .groups
                    .iter()
                    .position(|g| key(g) > (b, !pc))
                    .unwrap_or(state.groups.len());
                state.groups.insert(
                    at,
                    Group {
                        band: b,
                        pc,
                        units: vec![unit],
                    },
                );
            }
        }
    }
    emit(world, Event::TurnEnded { unit });
}

/// The band a Delay's value names ("VerySlow" is "Very Slow"), by index.
pub fn band_index(config: &EscalationConfig, value: &str) -> Option<usize> {
    let squash = |s: &str| s.replace(' ', "").to_ascii_lowercase();
    config
        .initiative_bands
        .iter()
        .position(|n| squash(n) == squash(value))
}

/// The basic attack of a unit's stance as a power (E-07, E-08): the first of its
/// [`Powers`], what the AI and the window list.
pub fn basic_power(me: &EscUnit) -> crate::engine::spec::PowerDef {
    let (name, range, ranged, die) = match me.stance {
        Stance::Melee => (BASIC_MELEE, 1, false, me.melee_die),
        Stance::Ranged => (BASIC_RANGED, me.ranged_reach, true, me.ranged_die),
    };
    crate::engine::spec::PowerDef {
        name: name.into(),
        range,
        ranged,
        damage: format!("{}d{die}{:+}", me.level.max(1), me.volition),
        add_tier: false,
        on_hit: Vec::new(),
        damage_type: None,
        traits: Vec::new(),
    }
}

/// The action type readying `power` or a Move to `to` takes (E-20): a Move, the
/// power's own action, or a Standard action for the stance's basic attack.
pub fn ready_kind(
    world: &World,
    unit: UnitId,
    power: Option<&str>,
    to: Option<Cell>,
) -> ActionKind {
    match (to, power) {
        (Some(_), _) => ActionKind::Move,
        (None, Some(p)) => header_of(world, unit, p).action,
        (None, None) => ActionKind::Standard,
    }
}

/// Whether a readied action waits for an enemy Nearby (a Move, a non-attack power)
/// rather than one in its attack's reach (E-20).
fn ready_waits_nearby(world: &World, unit: UnitId, ready: &super::units::Readied) -> bool {
    ready.to.is_some()
        || ready
            .power
            .as_deref()
            .is_some_and(|p| header_of(world, unit, p).heal)
}

/// Ready (E-20): spends the readied action's type (a Standard for an attack or a
/// Standard power, a Move for a Move, a Quick for a Quick power) and waits for its
/// trigger until the unit's next turn.
fn ready(world: &mut World, unit: UnitId, args: &crate::engine::verb::Args) {
    let power = args.name("power").map(str::to_string);
    let to = args.cell("to");
    let kind = ready_kind(world, unit, power.as_deref(), to);
    let what = match (to, &power) {
        (Some(c), _) => format!("a Move to {c}"),
        (None, Some(p)) => p.clone(),
        (None, None) => basic_power(esc(world, unit)).name,
    };
    spend(world, unit, kind, "Ready");
    let round = world.resource::<TurnState>().round;
    let readied = super::units::Readied {
        power,
        to,
        kind,
        round,
    };
    let when = if ready_waits_nearby(world, unit, &readied) {
        "before the first enemy Nearby moves a step or attacks"
    } else {
        "before the first enemy in its reach moves a step or attacks"
    };
    esc_mut(world, unit).ready = Some(readied);
    emit(
        world,
        EscalationEvent::Readied {
            unit,
            attack: what,
            when: when.into(),
        },
    );
}

/// Readied actions that `trigger` sets off by acting (a step or an attack) go off
/// first, in roster order (E-20): a readied attack when `trigger` is within its
/// reach; a readied Move or non-attack power when `trigger` is Nearby. In the
/// round it was readied, the readier's band becomes the trigger's; in a later round
/// its next turn lacks the readied action's type. False when `trigger` no longer
/// stands.
fn fire_readied(world: &mut World, trigger: UnitId) -> bool {
    let side = side_of(world, trigger);
    for r in active_units(world) {
        let Some(ready) = esc(world, r).ready.clone() else {
            continue;
        };
        if side_of(world, r) == side {
            continue;
        }
        let fires = if ready_waits_nearby(world, r, &ready) {
            distance(world, r, trigger) <= nearby_limit(world)
        } else {
            strike(world, r, trigger, ready.power.as_deref()).is_ok()
        };
        if !fires {
            continue;
        }
        esc_mut(world, r).ready = None;
        let round = world.resource::<TurnState>().round;
        if round == ready.round {
            let band = esc(world, trigger).band;
            esc_mut(world, r).band = band;
        } else {
            esc_mut(world, r).lost = Some(ready.kind);
        }
        emit(world, EscalationEvent::ReadiedFires { unit: r, trigger });
        if let Some(to) = ready.to {
            readied_move(world, r, to);
        } else {
            if let Some(p) = ready.power.as_deref()
                && let Ok(s) = strike(world, r, r, Some(p))
            {
                pay_power(world, r, &s);
            }
            if ready_waits_nearby(world, r, &ready) {
                let free = ready
                    .power
                    .as_deref()
                    .and_then(|p| strike(world, r, r, Some(p)).ok())
                    .is_some_and(|s| s.header.free_recovery);
                use_heal(world, r, r, free);
            } else {
                make_attack(world, r, trigger, ready.power.as_deref(), Manner::Normal);
            }
        }
        if !is_active(world, trigger) || halted(world) {
            return false;
        }
    }
    true
}

/// A readied Move (E-20): the unit walks to the cell it named, provoking
/// opportunity attacks as any move does (E-38); it goes nowhere when the cell is
/// taken or out of one Move's reach by then.
fn readied_move(world: &mut World, unit: UnitId, to: Cell) {
    let occupancy = crate::engine::battle::occupancy_for(world, unit);
    let route = world
        .resource::<Map>()
        .0
        .path(cell_of(world, unit), to, &occupancy);
    let Some((cells, _)) = route.filter(|(_, cost)| *cost <= rules(world).speed) else {
        emit(
            world,
            Event::MovementStopped {
                unit,
                reason: format!("its readied Move can't reach {to} now"),
            },
        );
        return;
    };
    if !provoke(world, unit) {
        return;
    }
    let before = engaged(world, unit);
    for c in cells {
        step(world, unit, c);
    }
    super::interrupts::queue_engagements(world, unit, &before);
}

/// A Dicey Move (a Move action): 3d6 + Volition against the Difficulty; success
/// gives the reward until the end of the unit's next turn (E-40, E-GAP-19).
fn dicey_move(world: &mut World, unit: UnitId, args: &crate::engine::verb::Args) {
    let Some(difficulty) = args.choice("difficulty").and_then(super::verbs::difficulty) else {
        return;
    };
    spend(world, unit, ActionKind::Move, "Dicey Move");
    let volition = esc(world, unit).volition - esc(world, unit).exhausted;
    let modifiers = vec![RollModifier::new("Volition", volition)];
    let ok = match check_roll(world, unit, "a Dicey Move".into(), 0, modifiers, difficulty) {
        Ok(ok) => ok,
        Err(e) => return fault(world, e),
    };
    if !ok {
        return;
    }
    let turn = esc(world, unit).turns + 1;
    let lasts = Duration::EndOfTurnOf { unit, turn };
    match (args.choice("reward"), args.unit("ally")) {
        (Some("Hazard" | "Hinder"), _) => stunt(world, unit, args, lasts),
        (Some("Aid"), Some(ally)) => {
            add_condition(
                world,
                ally,
                Condition::new(names::DICEY_AID, lasts).with_source(unit),
            );
        }
        _ => {
            add_condition(
                world,
                unit,
                Condition::new(names::DICEY_EDGE, lasts).with_source(unit),
            );
        }
    }
}

/// A Dicey Move's reward on another unit (E-40): `Hazard` deals Level d6
/// environmental damage to `target` (no attack roll, so no crit or resistance);
/// `Hinder` puts `condition` on it until `lasts` (the end of the mover's next turn,
/// E-GAP-19).
fn stunt(world: &mut World, unit: UnitId, args: &crate::engine::verb::Args, lasts: Duration) {
    let Some(target) = args.unit("target") else {
        return;
    };
    if args.choice("reward") == Some("Hinder") {
        if let Some(c) = args.choice("condition") {
            add_condition(world, target, Condition::new(c, lasts).with_source(unit));
        }
        return;
    }
    let level = esc(world, unit).level.max(1) as u32;
    match world.resource_mut::<Dice>().roll_many(level, 6) {
        Ok(faces) => {
            let amount = crate::engine::dice::sum(&faces);
            hurt(world, target, faces, amount, false, Some(unit));
        }
        Err(e) => fault(world, e),
    }
}

/// Whether `unit` is a PC out of the fight for good, who may still Fight in Spirit
/// on its turn (E-41).
pub fn spirit(world: &World, unit: UnitId) -> bool {
    play_state(world, unit) == PlayState::Dead && esc(world, unit).pc
}

/// The header of `unit`'s power `power` (a basic attack's is the default).
pub fn header_of(world: &World, unit: UnitId, power: &str) -> super::powers::Header {
    world
        .get::<Powers>(entity(world, unit))
        .and_then(|p| p.0.iter().find(|p| p.name == power))
        .and_then(|p| super::powers::parse_header(&p.traits).ok())
        .unwrap_or_default()
}

/// Sustain (E-29): the action that started the power, and its Sustain roll (3d6 ≥
/// X); on a success its effects last through this turn's end.
fn sustain(world: &mut World, unit: UnitId, power: &str) {
    let h = header_of(world, unit, power);
    spend(world, unit, h.action, &format!("sustain {power}"));
    let ok = if h.sustain > 0 {
        let purpose = format!("a Sustain for {power}");
        match check_roll(world, unit, purpose, 0, Vec::new(), h.sustain as i32) {
            Ok(ok) => ok,
            Err(e) => return fault(world, e),
        }
    } else {
        true
    };
    if ok {
        let me = esc_mut(world, unit);
        let turn = me.turns;
        for s in me.sustaining.iter_mut().filter(|s| s.power == power) {
            s.kept = turn;
        }
    }
}

/// A Last Gasp save (E-52): a death save as if below 0 HP (13+). A success ends the
/// effect and the PC keeps the HP it had when it began; a failure counts toward 4
/// (`counts`: not when an ally granted the save), and at 4 the effect takes hold:
/// the PC is out of the fight.
fn last_gasp_save(world: &mut World, unit: UnitId, counts: bool) {
    let Some(gasp) = esc(world, unit).last_gasp.clone() else {
        return;
    };
    let c = rules(world).clone();
    let net = save_edge(world, unit);
    let purpose = format!("a Last Gasp save against {}", gasp.condition);
    let ok = match check_roll(world, unit, purpose, net, Vec::new(), c.death_save_target) {
        Ok(ok) => ok,
        Err(e) => return fault(world, e),
    };
    if ok {
        esc_mut(world, unit).last_gasp = None;
        let name = gasp.condition.clone();
        end_where(world, unit, "Last Gasp save", |c| c.name == name);
        let h = *world
            .get::<Health>(entity(world, unit))
            .expect("units have health");
        if h.hp != gasp.hp && play_state(world, unit) == PlayState::Active {
            let hp = gasp.hp.min(h.max);
            emit(
                world,
                Event::Healed {
                    unit,
                    faces: Vec::new(),
                    amount: hp - h.hp,
                    hp,
                    source: None,
                },
            );
            staggered(world, unit);
        }
        return;
    }
    if !counts {
        return;
    }
    let failures = gasp.failures + 1;
    if let Some(g) = esc_mut(world, unit).last_gasp.as_mut() {
        g.failures = failures;
    }
    emit(
        world,
        EscalationEvent::DeathSaveFailed {
            unit,
            failures,
            limit: c.death_save_failures,
            stabilized: false,
        },
    );
    if failures >= c.death_save_failures {
        emit(
            world,
            Event::Defeated {
                unit,
                state: PlayState::Down,
                cause: Some(LeaveCause::Condition),
                by: crate::engine::conditions::source_of(world, unit, &gasp.condition),
            },
        );
        check_victory(world);
    }
}
