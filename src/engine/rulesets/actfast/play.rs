//! `actfast`'s battle: the round (each PC's choice of Act Fast or Act Well, then the
//! four steps), a unit's turn (its actions and their limits), and what commands do:
//! moves, attacks read by the highest die with their approach and damage after
//! armor per die, ripostes, standing up, putting out flames, escaping holds, items,
//! morale and flight.
//!
//! One system, [`drive`], runs it all in the `Attack` stage: it asks the round's
//! choices, starts the next turn when none is on, or executes the incoming command
//! (or the answer to a pending question). Every state change is a core event
//! (`emit`); only the ruleset's own bookkeeping ([`AUnit`], [`RoundState`],
//! [`TurnBudget`]) is written directly.

use std::collections::BTreeMap;
use std::sync::Arc;

use bevy_ecs::prelude::*;

use super::config::ActfastConfig;
use super::events::ActfastEvent;
use super::morale::{self, SideTally, Trigger};
use super::order::{self, Limit, Pace, Participant, Role, Slot, Step};
use super::pool::{self, Grade};
use super::stats::{AttackKind, CONDITIONS, Condition};
use super::units::AUnit;
use super::verbs;
use crate::engine::battle::{
    Incoming, Map, Pending, Progress, Roster, Sides, TurnState, active_units, board_units, cell_of,
    check_round_limit, check_victory, emit, entity, halted, is_active, name, occupancy_for,
    on_board, play_state, side_of,
};
use crate::engine::board::{Cell, Occupancy};
use crate::engine::command::Command;
use crate::engine::conditions::{
    Condition as Cond, Duration, add_condition, end_where, expire_end_of_round, expire_turn_end,
};
use crate::engine::decision::{DecisionOption, PendingDecision, Pick};
use crate::engine::dice::{Dice, DiceError};
use crate::engine::event::{AttackOutcome, Event, Foreseen, LeaveCause, RollModifier, Stage};
use crate::engine::spec::{Controller, DecisionPolicy, EffectDuration, PowerDef};
use crate::engine::units::{Conditions, Health, PlayState, Powers, SideId, UnitId};

/// The movement power of a Move action (A-GAP-02).
pub const MOVE: &str = "Move";

/// Conditions only the battle gives (beside A-18 … A-25).
pub mod names {
    /// A side's morale is shaken: its NPCs roll at their next step.
    pub const WAVERING: &str = "Wavering";
    /// Broken by morale: it flees to the nearest edge (A-GAP-13).
    pub const FLEEING: &str = "Fleeing";
}

/// The battle's `actfast` state (held by the battle, see
/// [`crate::engine::ruleset::state`]): its configuration, the round's and the
/// active unit's bookkeeping and each unit's data.
#[derive(Clone, Debug)]
pub struct AState {
    /// The configuration in force (never changed after setup).
    pub rules: Arc<ActfastConfig>,
    /// Who acts when this round, and what the battle is asking.
    pub round: RoundState,
    /// The active unit's turn.
    pub turn: TurnBudget,
    /// Each unit's data and bookkeeping, by [`UnitId`].
    pub units: Vec<AUnit>,
}

/// Who acts when this round, and what the battle is asking.
#[derive(Clone, Debug, Default)]
pub struct RoundState {
    /// PCs still to choose their pace this round, next first (A-02, A-GAP-10).
    pub choosing: Vec<UnitId>,
    /// Whether the round's order has been set (after the choices).
    pub ordered: bool,
    /// The round's slots still to come, next first.
    pub queue: Vec<Slot<UnitId>>,
    /// The step of each unit this round (for the order shown).
    pub steps: Vec<(UnitId, Step, u32)>,
    /// The side caught by surprise, if any.
    pub surprised: Option<SideId>,
    /// What each NPC side has lost and which morale triggers fired (A-GAP-13).
    pub morale: BTreeMap<SideId, Morale>,
    /// The question pending, if any.
    pub asking: Option<Asking>,
    /// The case for each answer of the pending pace question (Fast, Well).
    pub cases: Option<(String, String)>,
    /// The slot of the turn in progress (a unit that waits goes back in the queue
    /// with it, A-GAP-10).
    pub current: Option<Slot<UnitId>>,
    /// Units whose turn started this round (what happens at a turn's start happens
    /// once, however often it waits).
    pub started: Vec<UnitId>,
    /// Units that waited this round (each may wait once a round).
    pub waited: Vec<UnitId>,
}

/// An NPC side's morale.
#[derive(Clone, Debug, Default)]
pub struct Morale {
    /// Its losses.
    pub tally: SideTally,
    /// Triggers fired so far (each once per encounter).
    pub fired: Vec<Trigger>,
    /// When a trigger fired (round and step), if its NPCs have yet to roll: they
    /// roll at the start of the next NPC step after it (A-GAP-13).
    pub due: Option<(u32, Step)>,
}

/// A pending question.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Asking {
    /// How this PC acts this round.
    Pace(UnitId),
    /// Whether `by` ripostes `against`'s failed attack.
    Riposte {
        /// The defender.
        by: UnitId,
        /// The attacker.
        against: UnitId,
    },
}

/// The active unit's turn (A-GAP-02, A-GAP-07, A-22).
#[derive(Clone, Copy, Debug, Default)]
pub struct TurnBudget {
    /// Actions left.
    pub actions: u32,
    /// Attacks made this turn.
    pub attacks: u32,
    /// Whether it moved (a Move, or an attack's approach).
    pub moved: bool,
    /// Whether it did something other than moving (a feared unit then stays, A-GAP-14).
    pub other: bool,
    /// The limits of its slot.
    pub limit: Limit,
}

// ------------------------------------------------------------------ small readers

/// The configuration in force.
pub fn rules(world: &World) -> &ActfastConfig {
    &actfast_state(world).rules
}

/// The battle's `actfast` state.
pub fn actfast_state(world: &World) -> &AState {
    crate::engine::ruleset::state::state(world)
}

/// The battle's `actfast` state, to change it.
pub fn actfast_state_mut(world: &mut World) -> &mut AState {
    crate::engine::ruleset::state::state_mut(world)
}

/// Who acts when this round, and what the battle is asking.
pub fn round_state(world: &World) -> &RoundState {
    &actfast_state(world).round
}

/// The round's bookkeeping, to change it.
pub fn round_state_mut(world: &mut World) -> &mut RoundState {
    &mut actfast_state_mut(world).round
}

/// The active unit's turn.
pub fn turn_budget(world: &World) -> &TurnBudget {
    &actfast_state(world).turn
}

/// The active unit's turn, to change it.
pub fn turn_budget_mut(world: &mut World) -> &mut TurnBudget {
    &mut actfast_state_mut(world).turn
}

/// A unit's `actfast` data.
pub fn au(world: &World, unit: UnitId) -> &AUnit {
    actfast_state(world)
        .units
        .get(unit.0 as usize)
        .expect("every actfast unit has its data")
}

fn au_mut(world: &mut World, unit: UnitId) -> &mut AUnit {
    actfast_state_mut(world)
        .units
        .get_mut(unit.0 as usize)
        .expect("every actfast unit has its data")
}

/// The current round (0 before the first).
pub fn round(world: &World) -> u32 {
    world.resource::<TurnState>().round
}

/// The `actfast` conditions a unit carries (A-18 … A-25), each once.
pub fn conds(world: &World, unit: UnitId) -> Vec<Condition> {
    let mut out: Vec<Condition> = world
        .get::<Conditions>(entity(world, unit))
        .map(|c| {
            c.0.iter()
                .filter_map(|c| Condition::from_name(&c.name))
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out.dedup();
    out
}

/// Whether a unit carries a condition.
pub fn carries(world: &World, unit: UnitId, c: Condition) -> bool {
    crate::engine::conditions::has(world, unit, c.name())
}

/// Squares between two units (Chebyshev on squares, A-GAP-01).
pub fn distance(world: &World, a: UnitId, b: UnitId) -> u32 {
    world
        .resource::<Map>()
        .0
        .distance(cell_of(world, a), cell_of(world, b))
}

fn fault(world: &mut World, e: DiceError) {
    world.resource_mut::<crate::engine::battle::Fault>().0 = Some(e.into());
}

fn rolls(world: &mut World, n: u32, sides: u32) -> Result<Vec<u32>, DiceError> {
    let dice = &mut *world.resource_mut::<Dice>();
    (0..n).map(|_| dice.roll(sides)).collect()
}

// ------------------------------------------------------------------ weapons and pools

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

// ------------------------------------------------------------------ the round

/// The one system: asks the round's choices, starts turns and executes commands.
pub fn drive(world: &mut World) {
    if halted(world) {
        return;
    }
    if world.resource::<Pending>().0.is_some() {
        let Some(answer) = world.resource_mut::<Incoming>().0.take() else {
            return;
        };
        world.resource_mut::<Pending>().0 = None;
        answered(world, answer);
        world.resource_mut::<Progress>().0 = true;
        return;
    }
    if !round_state(world).choosing.is_empty() {
        ask_pace(world);
        return;
    }
    if world.resource::<TurnState>().round > 0 && !round_state(world).ordered {
        set_order(world);
        return;
    }
    let Some(unit) = world.resource::<TurnState>().active else {
        next_turn(world);
        return;
    };
    if !is_active(world, unit) || turn_budget(world).actions == 0 {
        // Defeated on its own turn (a riposte, the flames), or out of actions.
        end_turn(world, unit);
        return;
    }
    let Some(command) = world.resource_mut::<Incoming>().0.take() else {
        return;
    };
    execute(world, unit, command);
}

/// The answer to the pending question.
fn answered(world: &mut World, answer: Command) {
    let asking = round_state_mut(world).asking.take();
    let cases = round_state_mut(world).cases.take();
    match (asking, answer) {
        (Some(Asking::Pace(unit)), Command::Act { verb, .. }) => {
            let fast = verb == verbs::ACT_FAST;
            let why = cases
                .map(|(f, w)| if fast { f } else { w })
                .unwrap_or_default();
            choose_pace(world, unit, if fast { Pace::Fast } else { Pace::Well }, why);
        }
        (Some(Asking::Riposte { by, against }), Command::Act { .. }) => {
            riposte(world, by, against);
        }
        (Some(Asking::Riposte { by, against }), Command::Pass { .. }) => {
            emit(world, ActfastEvent::NoRiposte { unit: by, against });
        }
        _ => {}
    }
}

fn policy(world: &World, side: SideId) -> DecisionPolicy {
    world.resource::<Sides>().0[side.0 as usize].decisions
}

/// Asks the next PC how it acts this round (A-02, A-GAP-10); a side that answers
/// by itself takes the better case.
fn ask_pace(world: &mut World) {
    let unit = round_state_mut(world).choosing.remove(0);
    if !is_active(world, unit) {
        world.resource_mut::<Progress>().0 = true;
        return;
    }
    let (fast, well) = pace_case(world, unit);
    let side = side_of(world, unit);
    if policy(world, side) != DecisionPolicy::Ask {
        let (pace, why) = if fast.0 > well.0 {
            (Pace::Fast, fast.1)
        } else {
            (Pace::Well, well.1)
        };
        choose_pace(world, unit, pace, why);
        return;
    }
    let who = name(world, unit);
    let option = |verb: &str, label: String, value: f64| {
        DecisionOption::new(
            Command::Act {
                unit,
                verb: verb.into(),
                args: crate::engine::verb::Args::new(),
            },
            label,
        )
        .value(value)
    };
    let npcs = side_names(world, false);
    let chosen = chosen_so_far(world);
    let prompt = if npcs_surprised(world) {
        format!(
            "Round {}: how does {who} act? {npcs} is caught by surprise and acts last \
             (A-04): Act Fast: 1 action, first. Act Well: 2 actions, still before \
             them.{chosen}",
            round(world)
        )
    } else {
        format!(
            "Round {}: how does {who} act? Act Fast: 1 action, before {npcs}. Act Well: \
             2 actions, after them.{chosen}",
            round(world)
        )
    };
    round_state_mut(world).asking = Some(Asking::Pace(unit));
    round_state_mut(world).cases = Some((fast.1.clone(), well.1.clone()));
    world.resource_mut::<Pending>().0 = Some(PendingDecision {
        side,
        prompt,
        about: format!("choose how {who} acts this round"),
        pick: Pick::One,
        options: vec![
            option(
                verbs::ACT_FAST,
                format!("{who}: Act Fast - {}", fast.1),
                fast.0,
            ),
            option(
                verbs::ACT_WELL,
                format!("{who}: Act Well - {}", well.1),
                well.0,
            ),
        ],
        decline: None,
        lookahead: false,
    });
    world.resource_mut::<Progress>().0 = true;
}

/// Whether the NPCs are caught by surprise this round: they act after every PC
/// (A-04, A-GAP-15).
fn npcs_surprised(world: &World) -> bool {
    let cfg = rules(world);
    round_state(world).surprised.is_some_and(|side| {
        order::surprise_active(cfg, round(world))
            && board_units(world)
                .into_iter()
                .any(|u| side_of(world, u) == side && !au(world, u).pc)
    })
}

/// The names of the PC sides (`pc`) or the NPC sides, "the opponents" when several.
fn side_names(world: &World, pc: bool) -> String {
    let sides = world.resource::<Sides>().0.clone();
    let mut names: Vec<String> = Vec::new();
    for (i, s) in sides.iter().enumerate() {
        let any = board_units(world)
            .into_iter()
            .any(|u| side_of(world, u) == SideId(i as u32) && au(world, u).pc == pc);
        if any {
            names.push(s.name.clone());
        }
    }
    match names.len() {
        1 => names.remove(0),
        _ if pc => "the players".into(),
        _ => "the opponents".into(),
    }
}

/// " So far: Ann Act Fast." — the choices made this round.
fn chosen_so_far(world: &World) -> String {
    let made: Vec<String> = active_units(world)
        .into_iter()
        .filter_map(|u| {
            au(world, u).pace.map(|p| {
                format!(
                    "{} {}",
                    name(world, u),
                    match p {
                        Pace::Fast => "Act Fast",
                        Pace::Well => "Act Well",
                    }
                )
            })
        })
        .collect();
    if made.is_empty() {
        String::new()
    } else {
        format!(" So far: {}.", made.join(", "))
    }
}

fn choose_pace(world: &mut World, unit: UnitId, pace: Pace, why: String) {
    au_mut(world, unit).pace = Some(pace);
    emit(
        world,
        ActfastEvent::PaceChosen {
            unit,
            pace: match pace {
                Pace::Fast => "Act Fast",
                Pace::Well => "Act Well",
            }
            .into(),
            why,
        },
    );
}

/// What Act Fast and Act Well are each worth to `unit` now, with the case for each
/// in words (the AI takes the better; the log tells why).
///
/// Act Fast is one attack now plus, if it drops the target, the attack that target
/// would have made on the unit; Act Well is two attacks after the opponents have
/// acted (each a little less sure: the target may move or fall first). With nobody
/// in reach, two actions (a move and an attack) beat one.
pub fn pace_case(world: &World, unit: UnitId) -> ((f64, String), (f64, String)) {
    let mut best: Option<(f64, UnitId, f64, f64)> = None;
    for t in active_units(world) {
        if side_of(world, t) == side_of(world, unit) {
            continue;
        }
        let Some(power) = (0..powers_len(world, unit)).find_map(|i| {
            let p = power_name(world, unit, i);
            reach_now(world, unit, t, Some(&p)).then_some(p)
        }) else {
            continue;
        };
        let Some((_, exp, kill)) = odds(world, unit, t, Some(&power)) else {
            continue;
        };
        let threat = best_threat(world, t, unit);
        let fast = exp + kill * (1.0 + threat);
        if best.is_none_or(|b| fast > b.0) {
            best = Some((fast, t, exp, kill));
        }
    }
    match best {
        None => (
            (0.5, "nobody in reach: one move before the opponents".into()),
            (
                1.5,
                "nobody in reach: two actions, to close in and strike".into(),
            ),
        ),
        Some((_, t, exp, _)) if npcs_surprised(world) => {
            // Both paces act before surprised opponents: two actions beat one.
            let who = name(world, t);
            (
                (
                    exp,
                    format!("one attack on {who}, {exp:.1} expected damage"),
                ),
                (
                    2.0 * exp,
                    format!(
                        "the opponents are surprised and act last: two attacks on {who}, \
                         {exp:.1} expected each"
                    ),
                ),
            )
        }
        Some((fast, t, exp, kill)) => {
            let who = name(world, t);
            (
                (
                    fast,
                    format!(
                        "{} to drop {who} before it acts, {exp:.1} expected damage",
                        percent(kill)
                    ),
                ),
                (
                    1.8 * exp,
                    format!("two attacks on {who} after the opponents, {exp:.1} expected each"),
                ),
            )
        }
    }
}

fn powers_len(world: &World, unit: UnitId) -> usize {
    world
        .get::<Powers>(entity(world, unit))
        .map_or(0, |p| p.0.len())
}

fn power_name(world: &World, unit: UnitId, i: usize) -> String {
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

/// Sets the round's order once every PC has chosen (A-03, A-04, A-GAP-15).
fn set_order(world: &mut World) {
    let cfg = rules(world).clone();
    let r = round(world);
    let surprised = round_state(world).surprised;
    let units = board_units(world);
    let mut parts = Vec::new();
    let mut surprised_role = None;
    for &u in &units {
        let a = au(world, u);
        let role = if a.pc {
            Role::Pc(a.pace.unwrap_or(Pace::Well))
        } else {
            Role::Npc
        };
        if Some(side_of(world, u)) == surprised {
            surprised_role = Some(role.side());
        }
        parts.push(Participant {
            unit: u,
            role,
            conditions: conds(world, u),
        });
    }
    let slots = order::round_order(&cfg, r, surprised_role, &parts);
    // Stunned units miss this turn: the condition lasts exactly that turn.
    for &u in &units {
        if !slots.iter().any(|s| s.unit == u) && carries(world, u, Condition::Stunned) {
            emit(
                world,
                ActfastEvent::CannotAct {
                    unit: u,
                    why: "Stunned: it misses its turn (A-23)".into(),
                },
            );
            end_where(world, u, "it missed its turn", |c| {
                c.name == Condition::Stunned.name()
            });
        }
    }
    let names = |s: Step| match s {
        Step::ActFast => "1. Act Fast",
        Step::Opponents => "2. Opponents",
        Step::ActWell => "3. Act Well",
        Step::Slow => "4. Slow",
    };
    let mut steps: Vec<(String, Vec<(UnitId, u32)>)> = Vec::new();
    for s in &slots {
        let label = names(s.step).to_string();
        match steps.last_mut() {
            Some((l, us)) if *l == label => us.push((s.unit, s.actions)),
            _ => steps.push((label, vec![(s.unit, s.actions)])),
        }
    }
    emit(world, ActfastEvent::Steps { steps });
    let state = round_state_mut(world);
    state.steps = slots.iter().map(|s| (s.unit, s.step, s.actions)).collect();
    state.queue = slots;
    state.ordered = true;
}

/// Starts the next turn in this round's queue; a new round when it is empty.
fn next_turn(world: &mut World) {
    loop {
        let next = {
            let state = round_state_mut(world);
            if state.queue.is_empty() {
                None
            } else {
                Some(state.queue.remove(0))
            }
        };
        match next {
            Some(s) if is_active(world, s.unit) => {
                start_turn(world, s);
                return;
            }
            Some(_) => continue,
            None => {
                let r = round(world);
                if r > 0 {
                    expire_end_of_round(world, r);
                    if check_round_limit(world) {
                        return;
                    }
                }
                start_round(world);
                return;
            }
        }
    }
}

/// Starts a round: fresh reactions (A-05, A-GAP-08), and every PC that chooses is
/// asked. A PC does not choose when it is Slow or Stunned or its side is
/// caught by surprise this round: it acts in step 4 whatever it says.
fn start_round(world: &mut World) {
    if active_units(world).is_empty() {
        return;
    }
    let r = round(world) + 1;
    emit(world, Event::RoundStarted { round: r });
    emit(
        world,
        Event::StageStarted {
            stage: Stage::Attack,
        },
    );
    let cfg = rules(world).clone();
    let surprised = round_state(world)
        .surprised
        .filter(|_| order::surprise_active(&cfg, r));
    let mut choosing = Vec::new();
    for u in active_units(world) {
        let reactions = order::reactions(&cfg, &conds(world, u));
        let slow = carries(world, u, Condition::Slow) || carries(world, u, Condition::Stunned);
        let caught = surprised == Some(side_of(world, u));
        let a = au_mut(world, u);
        a.reactions = reactions;
        a.pace = None;
        if a.pc && !slow && !caught && !a.fleeing {
            choosing.push(u);
        }
    }
    let state = round_state_mut(world);
    state.choosing = choosing;
    state.started.clear();
    state.waited.clear();
    state.ordered = false;
    state.queue.clear();
    state.steps.clear();
}

/// Starts a slot's turn: morale first if its side is shaken (A-GAP-13), then the
/// flames; a fleeing NPC runs for the edge.
fn start_turn(world: &mut World, slot: Slot<UnitId>) {
    let unit = slot.unit;
    let side = side_of(world, unit);
    round_state_mut(world).current = Some(slot.clone());
    let again = round_state(world).started.contains(&unit);
    if again {
        // Back after waiting (A-GAP-10): its turn goes on as it was.
        emit(
            world,
            Event::TurnStarted {
                unit,
                stage: Stage::Attack,
            },
        );
        *turn_budget_mut(world) = TurnBudget {
            actions: turn_actions(world, &slot),
            limit: turn_limit(world, &slot),
            ..Default::default()
        };
        return;
    }
    round_state_mut(world).started.push(unit);
    if carries(world, unit, Condition::Stunned) {
        // Stunned after the round's order was set: it misses this turn.
        emit(
            world,
            ActfastEvent::CannotAct {
                unit,
                why: "Stunned: it misses its turn (A-23)".into(),
            },
        );
        end_where(world, unit, "it missed its turn", |c| {
            c.name == Condition::Stunned.name()
        });
        round_state_mut(world).current = None;
        return;
    }
    let now = (round(world), slot.step);
    if !au(world, unit).pc
        && round_state(world)
            .morale
            .get(&side)
            .and_then(|m| m.due)
            .is_some_and(|fired| now > fired)
    {
        roll_morale(world, side);
        if halted(world) || !is_active(world, unit) {
            return;
        }
    }
    au_mut(world, unit).turns += 1;
    emit(
        world,
        Event::TurnStarted {
            unit,
            stage: Stage::Attack,
        },
    );
    *turn_budget_mut(world) = TurnBudget {
        actions: turn_actions(world, &slot),
        limit: turn_limit(world, &slot),
        ..Default::default()
    };
    if carries(world, unit, Condition::Burning) {
        burn(world, unit);
        if halted(world) || !is_active(world, unit) {
            return;
        }
    }
    if au(world, unit).fleeing {
        flee(world, unit);
    }
}

/// The actions of a slot's turn: a unit made Slow since the round's order was set
/// takes 1.
fn turn_actions(world: &World, slot: &Slot<UnitId>) -> u32 {
    if carries(world, slot.unit, Condition::Slow) {
        slot.actions.min(rules(world).slow_actions)
    } else {
        slot.actions
    }
}

/// The limits of a slot's turn: a Slow NPC moves or attacks.
fn turn_limit(world: &World, slot: &Slot<UnitId>) -> Limit {
    let mut limit = slot.limit;
    if carries(world, slot.unit, Condition::Slow) && !au(world, slot.unit).pc {
        limit.move_or_attack = true;
        limit.max_attacks = Some(limit.max_attacks.unwrap_or(1).min(1));
    }
    limit
}

/// The PC after which `unit` may wait (A-GAP-10: players choose their order
/// within a step): the next unit of its side in the same step, if it has not acted
/// yet this turn nor waited this round.
pub fn wait_after(world: &World, unit: UnitId) -> Option<UnitId> {
    let state = round_state(world);
    if state.waited.contains(&unit) {
        return None;
    }
    let current = state.current.as_ref().filter(|s| s.unit == unit)?;
    let t = turn_budget(world);
    if t.actions < turn_actions(world, current) || t.moved || t.other || t.attacks > 0 {
        return None;
    }
    let side = side_of(world, unit);
    state
        .queue
        .iter()
        .take_while(|s| s.step == current.step)
        .find(|s| side_of(world, s.unit) == side && is_active(world, s.unit))
        .map(|s| s.unit)
}

/// `unit` lets the next PC of its step go first and takes its turn right after it
/// (A-GAP-10).
fn wait(world: &mut World, unit: UnitId) {
    let Some(after) = wait_after(world, unit) else {
        return;
    };
    let state = round_state_mut(world);
    let Some(slot) = state.current.take() else {
        return;
    };
    let at = state
        .queue
        .iter()
        .position(|s| s.unit == after)
        .map_or(0, |i| i + 1);
    state.queue.insert(at, slot);
    state.waited.push(unit);
    emit(world, ActfastEvent::Waited { unit, after });
    emit(world, Event::TurnEnded { unit });
}

/// Burning (A-25, A-GAP-05): a die of damage at the start of the turn, less armor.
fn burn(world: &mut World, unit: UnitId) {
    let cfg = rules(world).clone();
    let faces = match rolls(world, 1, cfg.burning_die) {
        Ok(f) => f,
        Err(e) => return fault(world, e),
    };
    let armor = au(world, unit).armor;
    let dmg = pool::burning_damage(&cfg, faces[0], armor);
    emit(
        world,
        Event::Rolled {
            unit,
            purpose: "the flames (Burning, A-25)".into(),
            dice: format!("1d{}", cfg.burning_die),
            faces: faces.clone(),
            kept: faces.clone(),
            modifiers: if cfg.burning_armor && armor > 0 {
                vec![RollModifier {
                    name: "Armor".into(),
                    value: -(faces[0].min(armor as u32) as i32),
                }]
            } else {
                Vec::new()
            },
            total: dmg as i32,
            target: None,
            against: None,
            outcome: format!("{dmg} damage"),
        },
    );
    let source = crate::engine::conditions::source_of(world, unit, Condition::Burning.name());
    hurt(world, unit, faces, dmg as i32, source);
}

/// Ends `unit`'s turn: conditions that last to the end of its turn end.
pub fn end_turn(world: &mut World, unit: UnitId) {
    if world.resource::<TurnState>().active != Some(unit) {
        return;
    }
    let turns = au(world, unit).turns;
    emit(world, Event::TurnEnded { unit });
    if on_board(world, unit) {
        expire_turn_end(world, unit, turns, "its turn ended");
    }
}

// ------------------------------------------------------------------ harm and morale

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
fn leaves(
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

/// Grapples and restraints `source` holds end when it leaves play or is no longer
/// next to the held unit (A-GAP-11).
fn release(world: &mut World, source: UnitId, gone: bool) {
    for u in board_units(world) {
        if u == source {
            continue;
        }
        let next_to = !gone && distance(world, u, source) <= 1;
        if next_to {
            continue;
        }
        end_where(world, u, &format!("{} let go", name(world, source)), |c| {
            c.source == Some(source)
                && (c.name == Condition::Grappled.name() || c.name == Condition::Restrained.name())
        });
    }
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

/// Every NPC of a shaken side rolls morale (A-16, A-GAP-13): a roll above its
/// morale save breaks it; next to a PC it surrenders, otherwise it flees.
fn roll_morale(world: &mut World, side: SideId) {
    if let Some(m) = round_state_mut(world).morale.get_mut(&side) {
        m.due = None;
    }
    let cfg = rules(world).clone();
    for u in active_units(world) {
        if side_of(world, u) != side || au(world, u).fleeing || au(world, u).pc {
            continue;
        }
        let faces = match rolls(world, cfg.morale_dice, morale::MORALE_DIE) {
            Ok(f) => f,
            Err(e) => return fault(world, e),
        };
        let a = au(world, u).clone();
        let total = morale::morale_total(&cfg, &faces, a.leadership);
        let breaks = morale::breaks(&cfg, &faces, a.leadership, a.morale);
        emit(
            world,
            Event::Rolled {
                unit: u,
                purpose: "morale (A-16)".into(),
                dice: format!("{}d{}", cfg.morale_dice, morale::MORALE_DIE),
                faces: faces.clone(),
                kept: faces.clone(),
                modifiers: if a.leadership != 0 {
                    vec![RollModifier {
                        name: "Leadership".into(),
                        value: cfg.morale_leadership_sign * a.leadership,
                    }]
                } else {
                    Vec::new()
                },
                total: total as i32,
                target: Some(a.morale),
                against: None,
                outcome: if breaks {
                    format!("above {}: it breaks", a.morale)
                } else {
                    format!("not above {}: it holds", a.morale)
                },
            },
        );
        end_where(world, u, "it rolled morale", |c| c.name == names::WAVERING);
        if !breaks {
            continue;
        }
        let next_to_pc = active_units(world)
            .into_iter()
            .find(|&p| au(world, p).pc && distance(world, u, p) <= 1);
        match morale::broken(&cfg, next_to_pc.is_some()) {
            morale::Broken::Surrenders => {
                let pc = next_to_pc.map(|p| name(world, p)).unwrap_or_default();
                emit(
                    world,
                    ActfastEvent::Broke {
                        unit: u,
                        how: format!("next to {pc}, it throws down its arms"),
                    },
                );
                leaves(world, u, PlayState::Surrendered, LeaveCause::Fled, None);
                if halted(world) {
                    return;
                }
            }
            morale::Broken::Flees => {
                emit(
                    world,
                    ActfastEvent::Broke {
                        unit: u,
                        how: "it runs for the edge of the field".into(),
                    },
                );
                au_mut(world, u).fleeing = true;
                add_condition(world, u, Cond::new(names::FLEEING, Duration::UntilRemoved));
            }
        }
    }
}

/// A fleeing NPC spends every action moving toward the nearest edge and leaves
/// play there (A-GAP-13); one that can't get away surrenders.
fn flee(world: &mut World, unit: UnitId) {
    let board = world.resource::<Map>().0.clone();
    let start = cell_of(world, unit);
    let on_edge = |c: Cell| {
        c.x == 0 || c.y == 0 || c.x as u32 + 1 == board.width() || c.y as u32 + 1 == board.height()
    };
    let occupancy = occupancy_for(world, unit);
    let route = if on_edge(start) {
        Some(Vec::new())
    } else {
        let field = board.movement_field(start, board.width() * board.height() * 2, &occupancy);
        field
            .iter()
            .filter(|(c, _)| on_edge(**c))
            .min_by_key(|(c, cost)| (**cost, **c))
            .and_then(|(&goal, _)| board.path(start, goal, &occupancy))
            .map(|(p, _)| p)
    };
    let Some(route) = route else {
        emit(
            world,
            ActfastEvent::Broke {
                unit,
                how: "cornered, it throws down its arms".into(),
            },
        );
        leaves(world, unit, PlayState::Surrendered, LeaveCause::Fled, None);
        return;
    };
    let moves = au(world, unit).moves;
    let actions = turn_budget(world).actions;
    let mut budget = moves * actions;
    let mut taken = Vec::new();
    for c in route {
        let cost = path_cost(world, &[c]).unwrap_or(1);
        if cost > budget {
            break;
        }
        budget -= cost;
        taken.push(c);
    }
    for _ in 0..actions {
        spend(world, unit, "flee");
    }
    travel(world, unit, taken);
    if is_active(world, unit) && on_edge(cell_of(world, unit)) {
        leaves(world, unit, PlayState::Fled, LeaveCause::Fled, None);
    }
}

// ------------------------------------------------------------------ commands

fn spend(world: &mut World, unit: UnitId, what: &str) {
    let left = {
        let t = turn_budget_mut(world);
        t.actions = t.actions.saturating_sub(1);
        t.actions
    };
    emit(
        world,
        ActfastEvent::Spent {
            unit,
            what: what.into(),
            left,
        },
    );
}

/// What a path costs in squares: a difficult square costs
/// [`ActfastConfig::difficult_cost`] (A-GAP-02); `None` through an impassable one.
pub fn path_cost(world: &World, path: &[Cell]) -> Option<u32> {
    let board = &world.resource::<Map>().0;
    let difficult = rules(world).difficult_cost;
    path.iter()
        .map(|&c| {
            board
                .step_cost(c)
                .map(|k| if k > 1 { difficult } else { 1 })
        })
        .sum()
}

/// The shortest approach of a melee attack on `target` (A-13, A-GAP-02): up to the
/// unit's Move squares to a free square next to the target; `None` when the target
/// is not in the charge band or no such square can be reached.
pub fn approach_path(world: &World, unit: UnitId, target: UnitId) -> Option<Vec<Cell>> {
    let cfg = rules(world);
    let d = distance(world, unit, target);
    if d <= 1 || !cfg.can_charge(d) {
        return None;
    }
    let board = &world.resource::<Map>().0;
    let occupancy = occupancy_for(world, unit);
    let start = cell_of(world, unit);
    let goal_cell = cell_of(world, target);
    let moves = au(world, unit).moves;
    board
        .movement_field(start, moves, &occupancy)
        .into_iter()
        .filter(|&(c, _)| {
            c != start && board.distance(c, goal_cell) == 1 && occupancy(c) == Occupancy::Free
        })
        .filter_map(|(c, _)| {
            let (path, _) = board.path(start, c, &occupancy)?;
            let cost = path_cost(world, &path)?;
            (cost <= moves).then_some((cost, c, path))
        })
        .min_by_key(|(cost, c, _)| (*cost, *c))
        .map(|(_, _, p)| p)
}

/// Executes the active unit's command (already checked).
fn execute(world: &mut World, unit: UnitId, command: Command) {
    match command {
        Command::EndTurn { .. } => end_turn(world, unit),
        Command::Move { path, .. } => {
            let stands = carries(world, unit, Condition::Prone);
            let actions = turn_budget(world).actions;
            let cost = order::move_cost(actions, &conds(world, unit)).unwrap_or(1);
            if stands {
                spend(world, unit, "stand up");
                end_where(world, unit, "it stood up", |c| {
                    c.name == Condition::Prone.name()
                });
            }
            for _ in u32::from(stands)..cost {
                spend(world, unit, "move");
            }
            turn_budget_mut(world).moved = true;
            travel(world, unit, path);
        }
        Command::Attack {
            target,
            power,
            approach,
            ..
        } => {
            spend(world, unit, "attack");
            {
                let t = turn_budget_mut(world);
                t.attacks += 1;
                t.other = true;
                if !approach.is_empty() {
                    t.moved = true;
                }
            }
            travel(world, unit, approach);
            if is_active(world, unit) && is_active(world, target) {
                attack(world, unit, target, power.as_deref(), false);
            }
        }
        Command::ActivateItem { item, .. } => {
            spend(world, unit, &format!("use {item}"));
            turn_budget_mut(world).other = true;
            let Some(def) = crate::engine::items::use_item(world, unit, &item) else {
                return;
            };
            if let crate::engine::spec::ItemEffect::Heal(dice) = &def.effect
                && let Err(e) = crate::engine::items::heal(world, unit, dice, &item)
            {
                world.resource_mut::<crate::engine::battle::Fault>().0 = Some(e);
            }
        }
        Command::Act { verb, .. } => act(world, unit, &verb),
        _ => {}
    }
}

fn act(world: &mut World, unit: UnitId, verb: &str) {
    if verb == verbs::WAIT {
        return wait(world, unit);
    }
    turn_budget_mut(world).other = true;
    match verb {
        verbs::STAND => {
            spend(world, unit, "stand up");
            end_where(world, unit, "it stood up", |c| {
                c.name == Condition::Prone.name()
            });
        }
        verbs::EXTINGUISH => {
            spend(world, unit, "put out the flames");
            end_where(world, unit, "the flames are out", |c| {
                c.name == Condition::Burning.name()
            });
        }
        verbs::ESCAPE => {
            spend(world, unit, "escape");
            let cfg = rules(world).clone();
            let a = au(world, unit).clone();
            let pool_n = pool::escape_pool(a.class, a.strength);
            let t = pool::throw(&cfg, pool_n);
            let faces = match rolls(world, t.dice, cfg.pool_die) {
                Ok(f) => f,
                Err(e) => return fault(world, e),
            };
            let reading = pool::read(&cfg, pool_n, &faces, false);
            let free = pool::escapes(&cfg, pool_n, &faces);
            emit(
                world,
                Event::Rolled {
                    unit,
                    purpose: format!(
                        "to escape (Class {} + STR {}, A-GAP-11)",
                        a.class, a.strength
                    ),
                    dice: format!("{}d{}", t.dice, cfg.pool_die),
                    faces: faces.clone(),
                    kept: vec![reading.face],
                    modifiers: Vec::new(),
                    total: reading.face as i32,
                    target: Some(cfg.escape_target as i32),
                    against: None,
                    outcome: if free { "it breaks free" } else { "still held" }.into(),
                },
            );
            if free {
                end_where(world, unit, "it broke free", |c| {
                    c.name == Condition::Grappled.name() || c.name == Condition::Restrained.name()
                });
            }
        }
        _ => {}
    }
}

/// Moves `mover` along `path`; holds it leaves behind end (A-GAP-11).
fn travel(world: &mut World, mover: UnitId, path: Vec<Cell>) {
    if path.is_empty() {
        return;
    }
    for to in path {
        let from = cell_of(world, mover);
        let cost = path_cost(world, &[to]).unwrap_or(1);
        emit(
            world,
            Event::Moved {
                unit: mover,
                from,
                to,
                cost,
            },
        );
    }
    release(world, mover, false);
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
fn riposte(world: &mut World, by: UnitId, against: UnitId) {
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

/// The battle's opening: conditions units start with, and each NPC side's
/// starting number for morale.
pub fn opening(world: &mut World, starts: Vec<(UnitId, Vec<Condition>)>) {
    for (u, cs) in starts {
        for c in cs {
            world
                .get_mut::<Conditions>(entity(world, u))
                .expect("units have conditions")
                .0
                .push(Cond::new(c.name(), Duration::UntilRemoved));
        }
    }
    let mut morale: BTreeMap<SideId, Morale> = BTreeMap::new();
    for u in board_units(world) {
        if !au(world, u).pc {
            morale.entry(side_of(world, u)).or_default().tally.start += 1;
        }
    }
    round_state_mut(world).morale = morale;
}

/// Whether a side is played by the AI.
pub fn ai_side(world: &World, side: SideId) -> bool {
    matches!(
        world.resource::<Sides>().0[side.0 as usize].controller,
        Controller::Ai(_)
    )
}

/// The name of each condition, for the level check's message.
pub fn condition_names() -> Vec<&'static str> {
    CONDITIONS.iter().map(|c| c.name).collect()
}

/// The units still to act this round, by step, the active unit first.
pub fn steps_left(world: &World) -> Vec<(Step, UnitId)> {
    let state = round_state(world);
    let mut out = Vec::new();
    if let Some(a) = world.resource::<TurnState>().active
        && let Some(&(_, s, _)) = state.steps.iter().find(|(u, _, _)| *u == a)
    {
        out.push((s, a));
    }
    out.extend(state.queue.iter().map(|s| (s.step, s.unit)));
    out
}

/// Roster order of the units (for stable listings).
pub fn roster_len(world: &World) -> usize {
    world.resource::<Roster>().0.len()
}
