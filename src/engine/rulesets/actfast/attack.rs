//! `actfast`'s attacks as the battle plays them (A-06 …, A-GAP-03
//! … A-GAP-06, A-GAP-09, A-GAP-12): the [`Swing`] a unit would make with a weapon
//! (pool, reading, armor), its exact [`odds`] for the previews and the AI, the
//! attack itself with its damage after armor per die and the conditions it leaves
//! (a unit made Slow acts last), a riposte after a failed melee attack, and what
//! damage does (a PC Down, an NPC dead, its side's morale shaken, A-17, A-GAP-13).
//! The arithmetic is in [`super::pool`].

use bevy_ecs::prelude::*;

use super::config::ActfastConfig;
use super::events::ActfastEvent;
use super::morale::{self, Trigger};
use super::movement::{approach_path, release};
use super::order::{self, Step};
use super::pool::{self, Grade};
use super::state::{
    Asking, au, au_mut, conds, distance, fault, names, policy, rolls, round, round_state,
    round_state_mut, rules,
};
use super::stats::{AttackKind, Condition};
use super::verbs;
use crate::engine::battle::{
    Map, Pending, Progress, active_units, board_units, cell_of, check_victory, emit, entity,
    is_active, name, play_state, side_of,
};
use crate::engine::command::Command;
use crate::engine::conditions::{Condition as Cond, Duration, add_condition};
use crate::engine::decision::{DecisionOption, PendingDecision, Pick};
use crate::engine::event::{AttackOutcome, Event, Foreseen, LeaveCause};
use crate::engine::spec::{DecisionPolicy, EffectDuration, PowerDef};
use crate::engine::units::{Health, PlayState, Powers, UnitId};

/// A weapon as an attack uses it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weapon {
    /// Its name (the power's).
    pub name: String,
    /// Damage dice: how many, of how many sides.
    pub dice: (u32, u32),
    /// Melee (Class + STR, Melee band) or ranged (Class + DEX, ranged bands).
    pub kind: AttackKind,
    /// Conditions a hit puts on the target.
    pub on_hit: Vec<crate::engine::spec::EffectDef>,
}

/// The weapon `power` names (the unit's first when `None`).
pub fn weapon(world: &World, unit: UnitId, power: Option<&str>) -> Option<Weapon> {
    let powers = &world.get::<Powers>(entity(world, unit))?.0;
    let p = match power {
        Some(n) => powers.iter().find(|p| p.name == n)?,
        None => powers.first()?,
    };
    weapon_of(p)
}

/// The weapon a (set-up) power is: its damage must be `NdM`.
pub fn weapon_of(p: &PowerDef) -> Option<Weapon> {
    let dice = super::config::weapon_dice(&p.damage).ok()?;
    Some(Weapon {
        name: p.name.clone(),
        dice,
        kind: if p.ranged {
            AttackKind::Ranged
        } else {
            AttackKind::Melee
        },
        on_hit: p.on_hit.clone(),
    })
}

/// An attack's pool and where its dice come from.
#[derive(Clone, Debug, PartialEq)]
pub struct Swing {
    /// The weapon.
    pub weapon: Weapon,
    /// Dice in the pool (0 or fewer: the empty-pool roll, A-GAP-04).
    pub pool: i32,
    /// The parts: `("Class", 1)`, `("STR", 2)`, `("Orc is Prone", 2)`.
    pub parts: Vec<(String, i32)>,
    /// The target can't defend itself (Immobilized, A-GAP-12).
    pub auto: bool,
    /// The target's armor.
    pub armor: i32,
}

/// The swing `attacker` would make at `target` with `power` now.
pub fn swing(
    world: &World,
    attacker: UnitId,
    target: UnitId,
    power: Option<&str>,
) -> Option<Swing> {
    let cfg = rules(world);
    let w = weapon(world, attacker, power)?;
    let me = au(world, attacker);
    let (stat_name, stat) = match w.kind {
        AttackKind::Melee => ("STR", me.strength),
        AttackKind::Ranged => ("DEX", me.dexterity),
    };
    let mut parts = vec![
        ("Class".to_string(), me.class),
        (stat_name.to_string(), stat),
    ];
    for c in conds(world, attacker) {
        let d = c.dice_own(cfg);
        if d != 0 {
            parts.push((format!("{}: {}", name(world, attacker), c.name()), d));
        }
    }
    let theirs = conds(world, target);
    for &c in &theirs {
        let d = c.dice_against(cfg, w.kind);
        if d != 0 {
            parts.push((format!("{}: {}", name(world, target), c.name()), d));
        }
    }
    let pool = pool::attack_pool(
        cfg,
        me.class,
        stat,
        w.kind,
        &conds(world, attacker),
        &theirs,
    );
    Some(Swing {
        weapon: w,
        pool,
        parts,
        auto: pool::auto_success(cfg, &theirs),
        armor: au(world, target).armor,
    })
}

/// The pool in words: `Class 1 + STR 2 + 2d (Orc is Prone) = 5d6`.
pub fn pool_text(cfg: &ActfastConfig, s: &Swing) -> String {
    let mut text = String::new();
    for (i, (what, n)) in s.parts.iter().enumerate() {
        if i < 2 {
            if i > 0 {
                text += " + ";
            }
            text += &format!("{what} {n}");
        } else {
            text += &format!(" {} {}d ({what})", if *n < 0 { "-" } else { "+" }, n.abs());
        }
    }
    let t = pool::throw(cfg, s.pool);
    if t.lowest {
        text += &format!(
            " = {} dice: roll {}d{} and read the lowest (A-GAP-04)",
            s.pool, t.dice, cfg.pool_die
        );
    } else {
        text += &format!(" = {}d{}", t.dice, cfg.pool_die);
    }
    text
}

/// A chance as a whole per cent for the player's eye: clamped to 0–100, so float
/// noise never reads "-0%" or "101%".
pub fn percent(p: f64) -> String {
    // `+ 0.0` turns a negative zero into a positive one.
    format!("{:.0}%", (p * 100.0).clamp(0.0, 100.0) + 0.0)
}

/// A grade in words (A-GAP-03).
pub fn grade_text(g: Grade) -> &'static str {
    match g {
        Grade::Failure => "Failure: a miss",
        Grade::Partial => "Partial: a hit for half damage",
        Grade::Success => "Success: a hit",
        Grade::Critical => "Critical: a hit with an extra damage die",
    }
}

pub(super) fn powers_len(world: &World, unit: UnitId) -> usize {
    world
        .get::<Powers>(entity(world, unit))
        .map_or(0, |p| p.0.len())
}

pub(super) fn power_name(world: &World, unit: UnitId, i: usize) -> String {
    world
        .get::<Powers>(entity(world, unit))
        .map(|p| p.0[i].name.clone())
        .unwrap_or_default()
}

/// Whether `unit` could attack `target` with `power` now (from where it stands, or
/// with a melee attack's approach).
pub fn reach_now(world: &World, unit: UnitId, target: UnitId, power: Option<&str>) -> bool {
    let Some(w) = weapon(world, unit, power) else {
        return false;
    };
    let cfg = rules(world);
    let d = distance(world, unit, target);
    match w.kind {
        AttackKind::Melee => {
            cfg.in_reach(true, d)
                || (cfg.can_charge(d) && approach_path(world, unit, target).is_some())
        }
        AttackKind::Ranged => {
            cfg.in_reach(false, d)
                && world
                    .resource::<Map>()
                    .0
                    .line_of_sight(cell_of(world, unit), cell_of(world, target))
        }
    }
}

/// The most damage `by` can expect to deal `to` in one attack, wherever they stand.
pub fn best_threat(world: &World, by: UnitId, to: UnitId) -> f64 {
    (0..powers_len(world, by))
        .filter_map(|i| odds(world, by, to, Some(&power_name(world, by, i))))
        .map(|(_, e, _)| e)
        .fold(0.0, f64::max)
}

/// Exact odds of an attack: hit chance, expected damage after armor, chance to
/// bring the target to 0 HP (A-08, A-15, A-GAP-03 … A-GAP-05).
pub fn odds(
    world: &World,
    attacker: UnitId,
    target: UnitId,
    power: Option<&str>,
) -> Option<(f64, f64, f64)> {
    let s = swing(world, attacker, target, power)?;
    let cfg = rules(world);
    let hp = world.get::<Health>(entity(world, target))?.hp;
    let grades = pool::grade_odds(cfg, s.pool, s.auto).ok()?;
    let dist = pool::damage_distribution(cfg, s.pool, s.weapon.dice, s.armor, s.auto).ok()?;
    Some((
        grades.hit(),
        dist.mean(),
        dist.prob_at_least(i64::from(hp.max(1))),
    ))
}

/// Deals `amount` damage to `unit` (from `source`, if anyone); at 0 HP a PC is
/// Down, an NPC dead (A-GAP-06).
pub fn hurt(world: &mut World, unit: UnitId, faces: Vec<u32>, amount: i32, source: Option<UnitId>) {
    let Some(h) = world.get::<Health>(entity(world, unit)).copied() else {
        return;
    };
    // HP stop at 0: a PC is Down and an NPC dead there, overkill is not owed back
    // (A-GAP-06).
    let hp = (h.hp - amount.max(0)).max(0);
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
    if hp <= 0 && play_state(world, unit) == PlayState::Active {
        let state = if au(world, unit).pc {
            PlayState::Down
        } else {
            PlayState::Dead
        };
        leaves(world, unit, state, LeaveCause::Damage, source);
    }
}

/// `unit` leaves play in `state`: its holds end, its side's morale may be shaken
/// (A-17, A-GAP-13), and the battle may be over.
pub(super) fn leaves(
    world: &mut World,
    unit: UnitId,
    state: PlayState,
    cause: LeaveCause,
    by: Option<UnitId>,
) {
    emit(
        world,
        Event::Defeated {
            unit,
            state,
            cause: Some(cause),
            by,
        },
    );
    release(world, unit, true);
    if !au(world, unit).pc {
        shaken(world, unit, state);
    }
    check_victory(world);
}

/// An NPC of `unit`'s side is out of the fight: the triggers that fire shake the
/// side (A-17, A-GAP-13).
fn shaken(world: &mut World, unit: UnitId, state: PlayState) {
    let cfg = rules(world).clone();
    let side = side_of(world, unit);
    let leader = au(world, unit).leader;
    let now = (
        round(world),
        round_state(world)
            .current
            .as_ref()
            .map_or(Step::ActFast, |s| s.step),
    );
    let (fired, why) = {
        let rs = round_state_mut(world);
        let Some(m) = rs.morale.get_mut(&side) else {
            return;
        };
        m.tally.lost += 1;
        if state == PlayState::Dead {
            m.tally.killed += 1;
        }
        if leader {
            m.tally.leader_defeated = true;
        }
        let new = morale::new_triggers(&cfg, &m.tally, &m.fired);
        m.fired.extend(new.iter().copied());
        if !new.is_empty() && m.due.is_none() {
            m.due = Some(now);
        }
        let why: Vec<&str> = new
            .iter()
            .map(|t| match t {
                Trigger::FirstDeath => "its first NPC was killed",
                Trigger::HalfLost => "it has lost half its number",
                Trigger::LeaderDefeated => "its leader is down",
            })
            .collect();
        (!new.is_empty(), why.join(", "))
    };
    if !fired {
        return;
    }
    emit(world, ActfastEvent::MoraleShaken { side, why });
    for u in active_units(world) {
        if side_of(world, u) == side && !au(world, u).fleeing {
            add_condition(world, u, Cond::new(names::WAVERING, Duration::UntilRemoved));
        }
    }
}

/// `attacker` attacks `target` (A-07, A-08, A-15, A-GAP-03 … A-GAP-05, A-GAP-12):
/// the pool read by its highest die, damage dice less armor each, halved on a
/// Partial; a failed melee attack may be riposted (A-06, A-GAP-09).
pub fn attack(
    world: &mut World,
    attacker: UnitId,
    target: UnitId,
    power: Option<&str>,
    is_riposte: bool,
) {
    let Some(s) = swing(world, attacker, target, power) else {
        return;
    };
    let cfg = rules(world).clone();
    // The record's odds, from the state before the dice.
    let foreseen = foresee(&cfg, &s);
    let t = pool::throw(&cfg, s.pool);
    let faces = match rolls(world, t.dice, cfg.pool_die) {
        Ok(f) => f,
        Err(e) => return fault(world, e),
    };
    let reading = pool::read(&cfg, s.pool, &faces, s.auto);
    let what = match (is_riposte, s.weapon.kind) {
        (true, _) => "a riposte",
        (false, AttackKind::Melee) => "a melee attack",
        (false, AttackKind::Ranged) => "a ranged attack",
    };
    let mut outcome = grade_text(reading.grade).to_string();
    if s.auto {
        outcome += &format!(" ({} can't defend itself, A-GAP-12)", name(world, target));
    }
    emit(
        world,
        Event::Rolled {
            unit: attacker,
            purpose: format!("{what} with {} ({})", s.weapon.name, pool_text(&cfg, &s)),
            dice: format!("{}d{}", t.dice, cfg.pool_die),
            faces: faces.clone(),
            kept: vec![reading.face],
            modifiers: Vec::new(),
            total: reading.face as i32,
            target: None,
            against: Some(target),
            outcome,
        },
    );
    let record = |outcome, damage| Event::AttackResolved {
        attacker,
        target,
        power: s.weapon.name.clone(),
        outcome,
        damage,
        odds: foreseen,
    };
    if reading.grade == Grade::Failure {
        emit(world, record(AttackOutcome::Miss, 0));
        if s.weapon.kind == AttackKind::Melee && !is_riposte {
            offer_riposte(world, target, attacker, reading.grade);
        }
        return;
    }
    let (n, sides) = s.weapon.dice;
    let n = pool::damage_dice(&cfg, n, reading.grade);
    let dmg_faces = match rolls(world, n, sides) {
        Ok(f) => f,
        Err(e) => return fault(world, e),
    };
    let dmg = pool::damage(&cfg, reading.grade, &dmg_faces, s.armor);
    let after: Vec<String> = dmg_faces
        .iter()
        .map(|&f| pool::armored(f, s.armor).to_string())
        .collect();
    let mut how = if s.armor > 0 {
        format!("Armor {} on each die: {}", s.armor, after.join(" + "))
    } else {
        String::new()
    };
    if reading.grade == Grade::Partial {
        if !how.is_empty() {
            how += ", ";
        }
        how += &format!("halved (Partial, rounded down): {dmg}");
    } else if !how.is_empty() {
        how += &format!(" = {dmg}");
    }
    emit(
        world,
        Event::Rolled {
            unit: attacker,
            purpose: format!("damage with {}", s.weapon.name),
            dice: format!("{n}d{sides}"),
            faces: dmg_faces.clone(),
            kept: dmg_faces.clone(),
            modifiers: Vec::new(),
            total: dmg as i32,
            target: None,
            against: Some(target),
            outcome: how,
        },
    );
    emit(world, record(outcome_of(reading.grade), dmg as i32));
    hurt(world, target, dmg_faces, dmg as i32, Some(attacker));
    if is_active(world, target) {
        for e in &s.weapon.on_hit {
            inflict(world, attacker, target, &e.condition, e.lasts);
        }
    }
}

/// A grade as the record of an attack tells it: Failure is a miss, Partial a
/// partial hit, Success a hit, Critical a critical hit (actfast has no critical
/// failure: a pool of no dice is read by its lowest die, a Failure).
pub fn outcome_of(grade: Grade) -> AttackOutcome {
    match grade {
        Grade::Failure => AttackOutcome::Miss,
        Grade::Partial => AttackOutcome::Partial,
        Grade::Success => AttackOutcome::Hit,
        Grade::Critical => AttackOutcome::Critical,
    }
}

/// The exact odds of a swing for the record: the chance of any hit, of a
/// Critical, and the expected damage — the numbers of [`odds`] and the preview.
fn foresee(cfg: &ActfastConfig, s: &Swing) -> Option<Foreseen> {
    let grades = pool::grade_odds(cfg, s.pool, s.auto).ok()?;
    let dist = pool::damage_distribution(cfg, s.pool, s.weapon.dice, s.armor, s.auto).ok()?;
    Some(Foreseen {
        hit: grades.hit(),
        crit: grades.critical,
        expected_damage: dist.mean(),
    })
}

/// Puts the condition a hit causes on `target` (A-18 … A-25, A-GAP-11): Prone,
/// Burning, Grappled and Restrained last until ended by their own rule, Stunned
/// for one turn, the others until the end of the target's next turn (or the round,
/// as the power says).
fn inflict(
    world: &mut World,
    source: UnitId,
    target: UnitId,
    condition: &str,
    lasts: EffectDuration,
) {
    let Some(c) = Condition::from_name(condition) else {
        return;
    };
    let duration = match c {
        Condition::Prone
        | Condition::Burning
        | Condition::Grappled
        | Condition::Restrained
        | Condition::Stunned => Duration::UntilRemoved,
        _ => match lasts {
            EffectDuration::EndOfRound => Duration::EndOfRound(round(world)),
            _ => Duration::EndOfOwnTurn(au(world, target).turns + 1),
        },
    };
    add_condition(
        world,
        target,
        Cond::new(c.name(), duration).with_source(source),
    );
    if c == Condition::Slow {
        act_last(world, target);
    }
}

/// A unit made Slow after the round's order was set acts last for the rest of the
/// round: its coming turn moves to step 4, players first.
fn act_last(world: &mut World, unit: UnitId) {
    let cfg = rules(world).clone();
    let pcs: Vec<UnitId> = board_units(world)
        .into_iter()
        .filter(|&u| au(world, u).pc)
        .collect();
    let state = round_state_mut(world);
    if !state.ordered || !order::demote_to_slow(&cfg, &mut state.queue, unit, |u| pcs.contains(&u))
    {
        return;
    }
    for s in state.steps.iter_mut().filter(|s| s.0 == unit) {
        s.1 = Step::Slow;
        s.2 = s.2.min(cfg.slow_actions);
    }
    emit(world, ActfastEvent::ActsLast { unit });
}

/// A failed melee attack on `by`: it may riposte `against` with its reaction
/// (A-06, A-GAP-09); its side is asked, or answers by itself.
fn offer_riposte(world: &mut World, by: UnitId, against: UnitId, grade: Grade) {
    let cfg = rules(world).clone();
    if !is_active(world, by)
        || au(world, by).fleeing
        || distance(world, by, against) > 1
        || !order::may_riposte(
            &cfg,
            AttackKind::Melee,
            grade,
            false,
            au(world, by).reactions,
            &conds(world, by),
        )
    {
        return;
    }
    let Some(power) = (0..powers_len(world, by))
        .map(|i| power_name(world, by, i))
        .find(|p| weapon(world, by, Some(p)).is_some_and(|w| w.kind == AttackKind::Melee))
    else {
        return;
    };
    let Some((chance, exp, kill)) = odds(world, by, against, Some(&power)) else {
        return;
    };
    let side = side_of(world, by);
    match policy(world, side) {
        DecisionPolicy::Never => {}
        DecisionPolicy::Auto => riposte(world, by, against),
        DecisionPolicy::Ask => {
            let who = name(world, by);
            let them = name(world, against);
            let answer = Command::Act {
                unit: by,
                verb: verbs::RIPOSTE.into(),
                args: crate::engine::verb::Args::new(),
            };
            round_state_mut(world).asking = Some(Asking::Riposte { by, against });
            world.resource_mut::<Pending>().0 = Some(PendingDecision {
                side,
                prompt: format!(
                    "{them}'s attack on {who} fails. Riposte with {power}? ({} to hit, \
                     {exp:.1} expected damage; its reaction this round)",
                    percent(chance)
                ),
                about: format!("decide whether {who} ripostes {them}"),
                pick: Pick::One,
                options: vec![
                    DecisionOption::new(answer, format!("{who} ripostes"))
                        .chance(chance)
                        .value(exp + kill * 3.0),
                ],
                decline: Some(DecisionOption::new(
                    Command::Pass { side },
                    format!("{who} holds its reaction"),
                )),
                lookahead: false,
            });
            world.resource_mut::<Progress>().0 = true;
        }
    }
}

/// `by` ripostes `against` (A-06, A-GAP-09): its reaction, one melee attack that
/// can't be riposted.
pub(super) fn riposte(world: &mut World, by: UnitId, against: UnitId) {
    if !is_active(world, by) || !is_active(world, against) {
        return;
    }
    {
        let a = au_mut(world, by);
        a.reactions = a.reactions.saturating_sub(1);
    }
    emit(world, ActfastEvent::Riposte { unit: by, against });
    let power = (0..powers_len(world, by))
        .map(|i| power_name(world, by, i))
        .find(|p| weapon(world, by, Some(p)).is_some_and(|w| w.kind == AttackKind::Melee));
    attack(world, by, against, power.as_deref(), true);
}
