//! `wounds`' battle: the round (the battle's fixed turn order, delays, Free Hit
//! Slots), a unit's turn (1 AA, 1 MA, 2 BA), and what commands do: moves with the
//! free hits they draw, attacks with their aim, crit and tragedy chains, damage and
//! wounds, the extra attack, Disengage, the Bonus Action boosts, standing up,
//! channeled spells, healing items and surrender.
//!
//! One system, [`drive`], runs it all in the `Attack` stage: it starts the next turn
//! when none is on, or executes the incoming command. Every state change is a core
//! event (`emit`); only the ruleset's own bookkeeping ([`WUnit`], [`RoundState`],
//! [`TurnBudget`]) is written directly.

use std::sync::Arc;

use bevy_ecs::prelude::*;

use super::aim::{Aim, Modifiers};
use super::attack::{self, DamageTerms, Footing, Roll};
use super::config::WoundsConfig;
use super::economy::{self, Action, Budget, Gait, Slots, Trigger, Use};
use super::events::WoundsEvent;
use super::powers::{Header, parse_header};
use super::units::{Channel, WUnit};
use crate::engine::battle::{
    Map, Sides, TurnState, active_units, board_units, cell_of, check_round_limit, check_victory,
    emit, entity, halted, is_active, name, on_board, play_state, side_of,
};
use crate::engine::board::{Cell, Terrain};
use crate::engine::command::Command;
use crate::engine::conditions::{
    Condition, Duration, Magnitude, add_condition, end_where, expire_end_of_round,
    expire_turn_start,
};
use crate::engine::dice::{Dice, DiceError};
use crate::engine::event::{AttackOutcome, Event, Foreseen, LeaveCause, RollModifier, Stage};
use crate::engine::odds::DiceExpr;
use crate::engine::spec::{Controller, EffectDuration, PowerDef};
use crate::engine::units::{Conditions, Health, PlayState, Powers, SideId, UnitId};

/// The movement power of a move within the Move Action's spaces (W-07). Every move
/// is a movement of its own: the spaces it leaves are lost.
pub const MOVE: &str = "Move";
/// The movement power that also spends Bonus Actions, 2 more spaces each (W-09):
/// with the Move Action, or on its own after it.
pub const DASH: &str = "Dash";
/// The weapon of a unit that carries none (W-GAP-01).
pub const UNARMED: &str = "Unarmed";

/// The names of `wounds`' conditions.
pub mod names {
    /// Hit on 5 + Agility, can't dodge, ⅓ movement; ends when it stands (W-30).
    pub const PRONE: &str = "Prone";
    /// Hit on 5 (W-29).
    pub const FLAT_FOOTED: &str = "Flat-footed";
    /// Undetected: its next attack is a sneak attack (W-16); it moves at half speed
    /// (sneaking, W-08).
    pub const HIDDEN: &str = "Hidden";
    /// Leaves melee zones without free hits for the round (W-28, W-GAP-25).
    pub const DISENGAGED: &str = "Disengaged";
    /// Summoning sickness: no actions, no free hits, flat-footed (W-32, W-GAP-23).
    pub const SICK: &str = "Summoning sickness";
    /// Channeling a spell: flat-footed unless a Battle caster (W-33).
    pub const CHANNELING: &str = "Channeling";
    /// Its weapon is on the ground (W-31).
    pub const DISARMED: &str = "Disarmed";
    /// +1 to hit per Bonus Action, until the end of the round (W-09, W-GAP-13).
    pub const HIT_BOOST: &str = "Hit boost";
    /// +1 melee damage per Bonus Action, until the end of the round.
    pub const DAMAGE_BOOST: &str = "Damage boost";
    /// +1 defense per Bonus Action, until its next turn.
    pub const DODGE: &str = "Dodging";
    /// The extra −2 Accuracy of a Disrupting wound in the round it was dealt (W-GAP-09).
    pub const DISRUPTED: &str = "Disrupted";
    /// The conditions a power's `on_hit` may put on its target.
    pub const ON_HIT: &[&str] = &[PRONE, FLAT_FOOTED, DISARMED];
}

/// The battle's `wounds` state (held by the battle, see
/// [`crate::engine::ruleset::state`]): its configuration, the round's and the active
/// unit's bookkeeping, sheathed and dropped gear, the free hit waiting for its aim,
/// the feats' extra attacks and each unit's data.
#[derive(Clone, Debug)]
pub struct WState {
    /// The configuration in force (never changed after setup).
    pub rules: Arc<WoundsConfig>,
    /// The battle's turn order and where the round is.
    pub round: RoundState,
    /// The active unit's actions this turn.
    pub turn: TurnBudget,
    /// The active unit's steps inside each enemy's melee zone this turn.
    pub zone_steps: ZoneSteps,
    /// The free hit waiting for its aim, if any.
    pub free_hit: super::free_hit::FreeHitAsked,
    /// Sheathed weapons and what lies on the ground.
    pub gear: super::gear::Gear,
    /// The turns in which units used their feat's extra attack.
    pub feat_hits: super::extra::FeatHits,
    /// Each unit's data and bookkeeping, by [`UnitId`].
    pub units: Vec<WUnit>,
}

/// The battle's turn order and where the round is.
#[derive(Clone, Debug, Default)]
pub struct RoundState {
    /// The battle's order, fixed at its start (W-02, W-GAP-10).
    pub order: Vec<UnitId>,
    /// This round's units still to act, next first (delays included, W-GAP-12).
    pub queue: Vec<UnitId>,
    /// Whether `order` has been rolled.
    pub fixed: bool,
    /// Whether the winners' MP was refilled (W-05).
    pub refilled: bool,
}

/// The active unit's actions this turn (W-01).
#[derive(Clone, Copy, Debug, Default)]
pub struct TurnBudget {
    /// Actions left.
    pub left: Budget,
    /// Whether its Move Action has been spent on a movement (W-07; the spaces a
    /// movement leaves are lost, W-GAP-15).
    pub opened: bool,
    /// Whether it did anything yet (Delay is only before acting).
    pub acted: bool,
}

/// The active unit's steps inside each enemy's melee zone so far this turn, by
/// enemy (W-26, W-GAP-15: "moves more than 2 spaces within your melee zone" is
/// counted over the turn, not per movement). Emptied when a turn starts.
#[derive(Clone, Debug, Default)]
pub struct ZoneSteps(pub Vec<(UnitId, u32)>);

impl ZoneSteps {
    /// The steps taken inside `enemy`'s zone this turn.
    pub fn of(&self, enemy: UnitId) -> u32 {
        self.0
            .iter()
            .find(|&&(e, _)| e == enemy)
            .map_or(0, |&(_, n)| n)
    }
}

// ------------------------------------------------------------------ small readers

/// The configuration in force.
pub fn rules(world: &World) -> &WoundsConfig {
    &w_state(world).rules
}

/// The battle's `wounds` state.
pub fn w_state(world: &World) -> &WState {
    crate::engine::ruleset::state::state(world)
}

/// The battle's `wounds` state, to change it.
pub fn w_state_mut(world: &mut World) -> &mut WState {
    crate::engine::ruleset::state::state_mut(world)
}

/// A unit's `wounds` data.
pub fn wu(world: &World, unit: UnitId) -> &WUnit {
    w_state(world)
        .units
        .get(unit.0 as usize)
        .expect("every wounds unit has its data")
}

/// A unit's `wounds` data, to change.
pub(super) fn wu_mut(world: &mut World, unit: UnitId) -> &mut WUnit {
    w_state_mut(world)
        .units
        .get_mut(unit.0 as usize)
        .expect("every wounds unit has its data")
}

pub use crate::engine::conditions::has;

/// The summed magnitude of a unit's conditions named `name`.
fn total(world: &World, unit: UnitId, name: &str) -> i64 {
    world
        .get::<Conditions>(entity(world, unit))
        .map_or(0, |c| i64::from(c.total(name)))
}

/// The current round.
pub fn round(world: &World) -> u32 {
    world.resource::<TurnState>().round
}

/// What a unit's wounds change now (W-17, W-GAP-08, W-GAP-09).
pub fn mods(world: &World, unit: UnitId) -> Modifiers {
    wu(world, unit).wounds.modifiers(round(world), rules(world))
}

/// Agility with wounds.
pub fn agility(world: &World, unit: UnitId) -> i64 {
    wu(world, unit).agility + mods(world, unit).agility
}

/// Whether `unit` can act or make free hits: in play and not summoning-sick
/// (W-GAP-23).
pub fn able(world: &World, unit: UnitId) -> bool {
    is_active(world, unit) && !has(world, unit, names::SICK)
}

/// How `unit` stands against an attack by a hidden (`sneak`) or seen attacker
/// (W-16, W-29, W-30, W-33, W-GAP-23).
pub fn footing(world: &World, unit: UnitId, sneak: bool) -> Footing {
    let channeling = (has(world, unit, names::CHANNELING)
        || has(world, unit, super::magic::UPKEEPING))
        && !wu(world, unit).feats.battle_caster;
    if sneak || channeling || has(world, unit, names::FLAT_FOOTED) || has(world, unit, names::SICK)
    {
        Footing::FlatFooted
    } else if has(world, unit, names::PRONE) {
        Footing::Prone
    } else {
        Footing::Normal
    }
}

/// Whether `cell` is in `unit`'s melee zone (W-25).
pub fn in_zone_of(world: &World, unit: UnitId, cell: Cell) -> bool {
    economy::in_zone(cell_of(world, unit), wu(world, unit).zone, cell)
}

/// The enemies in whose melee zone `unit` stands, able to hit it.
pub fn zoned_by(world: &World, unit: UnitId) -> Vec<UnitId> {
    let at = cell_of(world, unit);
    active_units(world)
        .into_iter()
        .filter(|&e| side_of(world, e) != side_of(world, unit) && in_zone_of(world, e, at))
        .collect()
}

fn fault(world: &mut World, e: DiceError) {
    world.resource_mut::<crate::engine::battle::Fault>().0 = Some(e.into());
}

// ------------------------------------------------------------------ attacks

/// What kind of attack a swing is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// With the Attack Action (W-13).
    Normal,
    /// The extra attack: Move Action + 2 Bonus Actions, no Strength, no feats
    /// (W-10, W-GAP-22).
    Extra,
    /// A free hit (W-26, W-GAP-14): a normal melee attack, but a natural 1 is just
    /// a miss.
    Free,
    /// A tragedy's free critical hit: hits automatically, ×2, no chain (W-24,
    /// W-GAP-18).
    FreeCrit,
}

/// An attack's numbers, as the rules roll it and the previews show it.
#[derive(Clone, Debug, PartialEq)]
pub struct Swing {
    /// The power or weapon.
    pub name: String,
    /// Where it aims.
    pub aim: Aim,
    /// The named parts of what is added to the d20.
    pub parts: Vec<RollModifier>,
    /// Their sum.
    pub modifier: i64,
    /// The number to reach.
    pub defense: i64,
    /// How the target stands.
    pub footing: Footing,
    /// What is added to the dice and taken off.
    pub terms: DamageTerms,
    /// The dice: weapon, Weapon focus, sneak.
    pub dice: DiceExpr,
    /// A melee weapon (Strength, free hits).
    pub melee: bool,
    /// The power's header.
    pub header: Header,
    /// The kind of attack.
    pub kind: Kind,
    /// A sneak attack (W-16).
    pub sneak: bool,
}

/// Why an attack can't be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoSwing {
    /// The unit has no power of that name.
    Unknown,
    /// The target is out of reach (the reach or range given).
    Reach(u32),
    /// No line of sight for a ranged attack.
    Sight,
    /// A bad aim (the message).
    Aim(String),
}

/// The power `unit` attacks with: the named one, or its first.
pub fn power_of(world: &World, unit: UnitId, power: Option<&str>) -> Option<PowerDef> {
    let powers = world.get::<Powers>(entity(world, unit))?;
    match power {
        Some(p) => powers.0.iter().find(|x| x.name == p).cloned().or_else(|| {
            // Anyone can fight with its fists (a disarmed unit, W-31).
            (p == UNARMED).then(|| unarmed(rules(world)))
        }),
        None => powers.0.first().cloned(),
    }
}

/// The melee weapon `unit` hits with off its turn: its first melee power, else
/// its fists (W-GAP-14).
pub fn melee_power(world: &World, unit: UnitId) -> PowerDef {
    if has(world, unit, names::DISARMED) {
        // Its weapon is on the ground (W-31).
        return unarmed(rules(world));
    }
    world
        .get::<Powers>(entity(world, unit))
        .and_then(|p| {
            p.0.iter()
                .find(|p| {
                    !p.ranged
                        && !parse_header(&p.traits).unwrap_or_default().spell
                        && !super::gear::sheathed(world, unit, &p.name)
                })
                .cloned()
        })
        .unwrap_or_else(|| unarmed(rules(world)))
}

/// The table's Unarmed weapon.
pub fn unarmed(config: &WoundsConfig) -> PowerDef {
    let w = config.weapon(UNARMED);
    PowerDef {
        name: UNARMED.into(),
        range: 1,
        ranged: false,
        damage: w.map_or_else(|| "1d3".into(), |w| w.damage.clone()),
        add_tier: false,
        on_hit: Vec::new(),
        damage_type: None,
        traits: Vec::new(),
    }
}

/// The kind of attack the active `unit` makes now with its Attack Action or, when
/// that is spent, the extra attack (W-10).
pub fn kind_now(world: &World, unit: UnitId) -> Kind {
    if world.resource::<TurnState>().active == Some(unit) && w_state(world).turn.left.attack == 0 {
        Kind::Extra
    } else {
        Kind::Normal
    }
}

/// The numbers of `attacker` attacking `target` with `power` (its first if `None`)
/// aimed at `aim` (Center Mass if `None`), as things stand.
pub fn swing(
    world: &World,
    attacker: UnitId,
    target: UnitId,
    power: Option<&str>,
    aim: Option<&str>,
    kind: Kind,
) -> Result<Swing, NoSwing> {
    let p = match kind {
        Kind::Free | Kind::FreeCrit => power
            .and_then(|n| power_of(world, attacker, Some(n)))
            .unwrap_or_else(|| melee_power(world, attacker)),
        _ => power_of(world, attacker, power).ok_or(NoSwing::Unknown)?,
    };
    let header = parse_header(&p.traits).unwrap_or_default();
    if header.summon {
        return Err(NoSwing::Aim(format!(
            "{} summons a creature, it attacks nobody: use Summon (W-32)",
            p.name
        )));
    }
    let aim = Aim::from_command(aim).map_err(NoSwing::Aim)?;
    if header.spell && aim != Aim::CenterMass {
        return Err(NoSwing::Aim(format!(
            "{} is a spell: only physical attacks aim (W-17, W-GAP-07)",
            p.name
        )));
    }
    let config = rules(world);
    let me = wu(world, attacker);
    let melee = !p.ranged && !header.spell;
    let (from, to) = (cell_of(world, attacker), cell_of(world, target));
    let board = &world.resource::<Map>().0;
    let d = board.distance(from, to);
    let reach = if melee { me.zone.max(p.range) } else { p.range };
    if d > reach {
        return Err(NoSwing::Reach(reach));
    }
    if !melee && !board.line_of_sight(from, to) {
        return Err(NoSwing::Sight);
    }
    let m = mods(world, attacker);
    let extra = kind == Kind::Extra;
    let sneak = has(world, attacker, names::HIDDEN);
    let mut parts = vec![RollModifier::new("Accuracy", me.accuracy as i32)];
    if m.accuracy != 0 {
        parts.push(RollModifier::new("wounds", m.accuracy as i32));
    }
    if !header.spell && aim == Aim::CenterMass {
        parts.push(RollModifier::new(
            "Center Mass",
            aim.accuracy_bonus(config) as i32,
        ));
    }
    let allies: Vec<Cell> = active_units(world)
        .into_iter()
        .filter(|&u| u != attacker && side_of(world, u) == side_of(world, attacker))
        .map(|u| cell_of(world, u))
        .collect();
    if attack::flanks(from, to, allies) {
        parts.push(RollModifier::new(
            "from behind",
            config.flanking_bonus as i32,
        ));
    }
    let hit_boost = total(world, attacker, names::HIT_BOOST);
    if hit_boost != 0 {
        parts.push(RollModifier::new("Bonus Action", hit_boost as i32));
    }
    let modifier = parts.iter().map(|p| i64::from(p.value)).sum();
    let footing = footing(world, target, sneak);
    let dodge = total(world, target, names::DODGE);
    let defense = attack::defense(config, agility(world, target), footing, dodge);
    let strength = me.strength + m.strength;
    let terms = DamageTerms {
        flat: if header.spell {
            0
        } else {
            attack::flat_damage(
                strength,
                total(world, attacker, names::DAMAGE_BOOST),
                melee,
                extra,
            )
        },
        armor: wu(world, target).armor,
        aim,
    };
    let mut text = p.damage.clone();
    if !extra
        && me.feats.weapon_focus.contains(&p.name)
        && let Some(sides) = p
            .damage
            .parse::<DiceExpr>()
            .ok()
            .and_then(|e| e.first_die())
    {
        text += &format!("+1d{sides}");
    }
    if sneak {
        text += &format!("+1d{}", config.sneak_die);
        if me.feats.sneak_attack && !extra {
            text += &format!("+1d{}", config.sneak_die);
        }
    }
    let dice = text
        .parse::<DiceExpr>()
        .map_err(|e| NoSwing::Aim(format!("damage `{text}`: {e}")))?;
    Ok(Swing {
        name: p.name,
        aim,
        parts,
        modifier,
        defense,
        footing,
        terms,
        dice,
        melee,
        header,
        kind,
        sneak,
    })
}

/// Rolls one die of a chain and tells it; whether it reached `face`.
fn chain_die(
    world: &mut World,
    unit: UnitId,
    purpose: String,
    sides: u32,
    face: u32,
) -> Result<bool, DiceError> {
    let f = world.resource_mut::<Dice>().roll(sides)?;
    let ok = f >= face;
    emit(
        world,
        Event::Rolled {
            unit,
            purpose,
            dice: format!("d{sides}"),
            faces: vec![f],
            kept: vec![f],
            modifiers: Vec::new(),
            total: f as i32,
            target: Some(face as i32),
            against: None,
            outcome: if ok { "it escalates" } else { "it stops" }.into(),
        },
    );
    Ok(ok)
}

/// `attacker` attacks `target` (checked for a command; free hits and free crits
/// come from the rules). The dice in order: d20, the chain's d4 then d6, the damage
/// dice, the Fatal d4 (RULES.md §0, W-EX-3).
pub fn make_attack(
    world: &mut World,
    attacker: UnitId,
    target: UnitId,
    power: Option<&str>,
    aim: Option<&str>,
    kind: Kind,
) {
    if let Err(e) = attack_inner(world, attacker, target, power, aim, kind) {
        fault(world, e);
    }
}

fn attack_inner(
    world: &mut World,
    attacker: UnitId,
    target: UnitId,
    power: Option<&str>,
    aim: Option<&str>,
    kind: Kind,
) -> Result<(), DiceError> {
    let Ok(s) = swing(world, attacker, target, power, aim, kind) else {
        return Ok(());
    };
    let config = rules(world).clone();
    // The record's odds, from the state before the dice (the preview's numbers).
    let foreseen = foresee(world, &config, &s, target);
    let record = |outcome, damage| Event::AttackResolved {
        attacker,
        target,
        power: s.name.clone(),
        outcome,
        damage,
        odds: foreseen,
    };
    if s.sneak {
        end_where(world, attacker, "it attacked and is seen", |c| {
            c.name == names::HIDDEN
        });
    }
    let aim_text = if s.header.spell {
        String::new()
    } else {
        format!(", aimed {}", s.aim.name())
    };
    let (multiplier, critical) = if kind == Kind::FreeCrit {
        emit(
            world,
            WoundsEvent::Chain {
                unit: attacker,
                became: format!(
                    "a free critical hit on {}{aim_text} (x2, W-24)",
                    name(world, target)
                ),
            },
        );
        (config.crit_multiplier, true)
    } else {
        let natural = world.resource_mut::<Dice>().roll(20)?;
        let roll = attack::classify(&config, i64::from(natural), s.modifier, s.defense);
        let what = match kind {
            Kind::Free => "a free hit",
            Kind::Extra => "the extra attack (no Strength, no feats)",
            _ => "an attack",
        };
        emit(
            world,
            Event::Rolled {
                unit: attacker,
                purpose: format!("{what} with {}{aim_text}", s.name),
                dice: "d20".into(),
                faces: vec![natural],
                kept: vec![natural],
                modifiers: s.parts.clone(),
                total: natural as i32 + s.modifier as i32,
                target: Some(s.defense as i32),
                against: Some(target),
                outcome: match roll {
                    Roll::Crit => "natural 20: critical hit".into(),
                    Roll::Hit => "hit".into(),
                    Roll::Miss => "miss".into(),
                    Roll::Fumble => "natural 1: it fails".into(),
                },
            },
        );
        if matches!(roll, Roll::Miss | Roll::Fumble) {
            let outcome = if roll == Roll::Miss {
                AttackOutcome::Miss
            } else {
                AttackOutcome::CriticalFailure
            };
            emit(world, record(outcome, 0));
        }
        match roll {
            Roll::Miss => return Ok(()),
            Roll::Fumble => {
                if kind != Kind::Free {
                    return tragedy(world, attacker, target);
                }
                return Ok(());
            }
            Roll::Hit => (1, false),
            Roll::Crit => {
                let up = chain_die(
                    world,
                    attacker,
                    format!(
                        "the crit chain (a {} makes it super critical)",
                        config.super_face
                    ),
                    config.super_die,
                    config.super_face,
                )?;
                if !up {
                    (config.crit_multiplier, true)
                } else {
                    emit(
                        world,
                        WoundsEvent::Chain {
                            unit: attacker,
                            became: format!("a super critical (x{})", config.crit_multiplier * 2),
                        },
                    );
                    let slay = chain_die(
                        world,
                        attacker,
                        format!(
                            "the crit chain (a {} defeats {} instantly)",
                            config.decisive_face,
                            name(world, target)
                        ),
                        config.decisive_die,
                        config.decisive_face,
                    )?;
                    if slay {
                        let hp = world
                            .get::<Health>(entity(world, target))
                            .map_or(0, |h| h.hp);
                        emit(world, record(AttackOutcome::Critical, hp.max(0)));
                        slay_unit(world, target, attacker, "the crit chain (W-21)");
                        return Ok(());
                    }
                    (config.crit_multiplier * 2, true)
                }
            }
        }
    };
    let r = s.dice.roll(&mut world.resource_mut::<Dice>())?;
    let net = attack::net_damage(r.total, &s.terms, multiplier);
    let fatal_face = if attack::rolls_fatal_die(&config, &s.terms, net) {
        Some(world.resource_mut::<Dice>().roll(config.fatal_die)?)
    } else {
        None
    };
    let dealt = attack::deal(&config, &s.terms, r.total, multiplier, fatal_face);
    let faces: Vec<u32> = r.faces.iter().map(|&(_, f)| f).collect();
    if let Some(f) = fatal_face {
        emit(
            world,
            Event::Rolled {
                unit: attacker,
                purpose: format!(
                    "the Fatal aim (a {} adds {})",
                    config.fatal_face, config.fatal_bonus
                ),
                dice: format!("d{}", config.fatal_die),
                faces: vec![f],
                kept: vec![f],
                modifiers: Vec::new(),
                total: f as i32,
                target: Some(config.fatal_face as i32),
                against: Some(target),
                outcome: if dealt.fatal {
                    format!("+{} damage", config.fatal_bonus)
                } else {
                    "nothing more".into()
                },
            },
        );
    }
    let outcome = if critical {
        AttackOutcome::Critical
    } else {
        AttackOutcome::Hit
    };
    emit(world, record(outcome, dealt.damage.max(0) as i32));
    hurt(world, target, faces, dealt.damage as i32, Some(attacker));
    if dealt.wound && is_active(world, target) {
        wound(world, target, s.aim, attacker);
    }
    if is_active(world, target) {
        for effect in power_of(world, attacker, Some(&s.name))
            .map(|p| p.on_hit)
            .unwrap_or_default()
        {
            on_hit(world, target, attacker, &effect.condition, effect.lasts);
        }
    }
    settle(world);
    Ok(())
}

/// The exact odds of a swing for the record of an attack: the preview's chance to
/// hit and expected damage (on the target's HP now), and the chance of a natural 20.
fn foresee(world: &World, config: &WoundsConfig, s: &Swing, target: UnitId) -> Option<Foreseen> {
    let o = cached_odds(config, s)?;
    let hp = world.get::<Health>(entity(world, target))?.hp;
    let (expected_damage, _) = damage_and_kill(&o, hp);
    Some(Foreseen {
        hit: o.hit,
        crit: o.crit,
        expected_damage,
    })
}

/// After a natural 1 (not a free hit): the tragedy chain's d4 and d6, then what the
/// attacked unit may do back (W-23, W-24, W-GAP-18, W-EX-4).
fn tragedy(world: &mut World, attacker: UnitId, target: UnitId) -> Result<(), DiceError> {
    let config = rules(world).clone();
    let mut fumble = attack::Fumble::AutoFail;
    if chain_die(
        world,
        attacker,
        format!(
            "the tragedy chain (a {} makes it a tragedy)",
            config.super_face
        ),
        config.super_die,
        config.super_face,
    )? {
        emit(
            world,
            WoundsEvent::Chain {
                unit: attacker,
                became: "a tragedy".into(),
            },
        );
        fumble = attack::Fumble::Tragedy;
        if chain_die(
            world,
            attacker,
            format!(
                "the tragedy chain (a {} is a fatal blow)",
                config.decisive_face
            ),
            config.decisive_die,
            config.decisive_face,
        )? {
            fumble = attack::Fumble::FatalBlow;
        }
    }
    if !able(world, target) {
        return Ok(());
    }
    let in_zone = in_zone_of(world, target, cell_of(world, attacker));
    let slots = wu(world, target).slots.left();
    match attack::retaliation(fumble, in_zone, false, slots) {
        attack::Retaliation::None => {
            if in_zone && fumble == attack::Fumble::AutoFail {
                emit(
                    world,
                    WoundsEvent::NoSlot {
                        unit: target,
                        mover: attacker,
                    },
                );
            }
        }
        attack::Retaliation::FreeHit => {
            wu_mut(world, target).slots.spend();
            let left = wu(world, target).slots.left();
            emit(
                world,
                WoundsEvent::FreeHit {
                    attacker: target,
                    mover: attacker,
                    why: "rolled a natural 1 in its melee zone".into(),
                    slots_left: left,
                },
            );
            super::free_hit::strike(world, target, attacker, Kind::Free, None);
        }
        attack::Retaliation::FreeCrit => {
            super::free_hit::strike(world, target, attacker, Kind::FreeCrit, None);
        }
        attack::Retaliation::FatalBlow => {
            slay_unit(
                world,
                attacker,
                target,
                "a fatal blow after a tragedy (W-24)",
            );
        }
    }
    Ok(())
}

/// Defeats `unit` instantly (W-21, W-24, W-GAP-02: its HP goes to 0).
fn slay_unit(world: &mut World, unit: UnitId, by: UnitId, how: &str) {
    emit(
        world,
        WoundsEvent::Slain {
            unit,
            by,
            how: how.into(),
        },
    );
    let hp = world.get::<Health>(entity(world, unit)).map_or(0, |h| h.hp);
    if hp > 0 {
        emit(
            world,
            Event::Damaged {
                unit,
                faces: Vec::new(),
                amount: hp,
                hp: 0,
                source: Some(by),
            },
        );
    }
    emit(
        world,
        Event::Defeated {
            unit,
            state: PlayState::Dead,
            cause: Some(LeaveCause::Slain),
            by: Some(by),
        },
    );
    super::gear::drop_belongings(world, unit);
    settle(world);
}

/// Deals `amount` damage to `unit` (from `source`, if anyone); at 0 HP or less it
/// is defeated (W-GAP-02).
pub fn hurt(world: &mut World, unit: UnitId, faces: Vec<u32>, amount: i32, source: Option<UnitId>) {
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
    if hp <= 0 && play_state(world, unit) == PlayState::Active {
        emit(
            world,
            Event::Defeated {
                unit,
                state: PlayState::Down,
                cause: Some(LeaveCause::Damage),
                by: source,
            },
        );
        super::gear::drop_belongings(world, unit);
    }
}

/// What a wound of `aim` does, in words (W-17).
pub fn wound_effect(config: &WoundsConfig, aim: Aim) -> String {
    match aim {
        Aim::Fatal => "no lasting effect beyond the blow".into(),
        Aim::Slowing => format!(
            "movement -{}, Agility -{}",
            config.slowing_movement, config.slowing_agility
        ),
        Aim::Weakening => format!(
            "Strength -{}, {} Bonus Action less",
            config.weakening_strength, config.weakening_bonus_actions
        ),
        Aim::Disrupting => format!(
            "Accuracy -{} this round, -{} for the battle",
            config.disrupting_round_accuracy, config.disrupting_accuracy
        ),
        Aim::CenterMass => "no effect (Center Mass, W-GAP-07)".into(),
    }
}

/// The condition a wound shows as.
pub fn wound_name(aim: Aim) -> String {
    format!("Wounded ({})", aim.name())
}

/// Deals `unit` a wound of `aim` (W-17, W-18, W-GAP-08): tracked with its round,
/// shown as a condition that one healing instance of 6+ ends.
fn wound(world: &mut World, unit: UnitId, aim: Aim, by: UnitId) {
    let config = rules(world).clone();
    emit(
        world,
        WoundsEvent::Wounded {
            unit,
            aim: aim.name().into(),
            effect: wound_effect(&config, aim),
        },
    );
    if !is_active(world, unit) {
        return;
    }
    let r = round(world);
    if !wu_mut(world, unit).wounds.inflict(aim, r, &config) {
        return;
    }
    let at_least = config.heal_removes_wound as i32;
    add_condition(
        world,
        unit,
        Condition::new(wound_name(aim), Duration::UntilHealed { at_least }).with_source(by),
    );
    if aim == Aim::Disrupting {
        let extra = config.disrupting_round_accuracy - config.disrupting_accuracy;
        add_condition(
            world,
            unit,
            Condition::new(names::DISRUPTED, Duration::EndOfRound(r))
                .with_magnitude(Magnitude::Flat(-(extra as i32)))
                .with_source(by),
        );
    }
}

/// A healing instance of `amount` HP on `unit`: 6 or more removes its most recent
/// wound (W-19, W-GAP-08).
pub fn healed(world: &mut World, unit: UnitId, amount: i32) {
    let config = rules(world).clone();
    let Some(w) = wu_mut(world, unit).wounds.heal(i64::from(amount), &config) else {
        return;
    };
    wound_gone(world, unit, w, &format!("healed by {amount}"));
}

/// Tells that `unit`'s wound `w` is gone, `why`, and ends what it did (W-19).
pub fn wound_gone(world: &mut World, unit: UnitId, w: super::aim::Wound, why: &str) {
    emit(
        world,
        WoundsEvent::WoundHealed {
            unit,
            aim: w.aim.name().into(),
        },
    );
    emit(
        world,
        Event::ConditionRemoved {
            unit,
            name: wound_name(w.aim),
            reason: why.into(),
        },
    );
    if w.aim == Aim::Disrupting && w.round == round(world) {
        end_where(world, unit, "its wound healed", |c| {
            c.name == names::DISRUPTED
        });
    }
}

/// A power's `on_hit` condition on its target.
fn on_hit(
    world: &mut World,
    target: UnitId,
    source: UnitId,
    condition: &str,
    lasts: EffectDuration,
) {
    let Some(&cond) = names::ON_HIT
        .iter()
        .find(|n| n.eq_ignore_ascii_case(condition.trim()))
    else {
        return;
    };
    if has(world, target, cond) {
        return;
    }
    let r = round(world);
    let duration = match cond {
        names::FLAT_FOOTED if lasts == EffectDuration::EndOfRound => Duration::EndOfRound(r),
        names::FLAT_FOOTED => Duration::EndOfRound(r + 1),
        _ => Duration::UntilAction,
    };
    add_condition(
        world,
        target,
        Condition::new(cond, duration).with_source(source),
    );
    if cond == names::PRONE {
        offer_stand(world, target);
    }
}

/// Actions `unit` can still spend from its next turn to stand up now: those its
/// next turn will have (W-30, W-GAP-19).
pub fn next_turn_actions(world: &World, unit: UnitId) -> Vec<Action> {
    let next = next_budget(world, unit);
    [Action::Bonus, Action::Move, Action::Attack]
        .into_iter()
        .filter(|&a| next.left(a) > 0)
        .collect()
}

/// The budget `unit`'s next turn starts with: fresh (its Bonus Actions less its
/// Weakening wounds), less the actions it already spent standing up off-turn
/// (W-01, W-30, W-GAP-19).
pub fn next_budget(world: &World, unit: UnitId) -> Budget {
    let me = wu(world, unit);
    let mut budget = Budget::turn_with(me.bonus_actions, &mods(world, unit));
    for &a in &me.owed {
        budget.take(a);
    }
    budget
}

/// A unit knocked prone off its turn may stand up at once with an action of its
/// next turn (W-30, W-GAP-19): its side is asked (the first option, a Bonus
/// Action, is the automatic answer), unless another question is already waiting.
fn offer_stand(world: &mut World, unit: UnitId) {
    if world.resource::<TurnState>().active == Some(unit)
        || !able(world, unit)
        || world
            .resource::<crate::engine::battle::Pending>()
            .0
            .is_some()
    {
        return;
    }
    let side = side_of(world, unit);
    let pays = next_turn_actions(world, unit);
    if pays.is_empty() {
        return;
    }
    let stand = |a: Action| Command::Act {
        unit,
        verb: super::verbs::STAND.into(),
        args: crate::engine::verb::Args::new().with(
            "pay",
            crate::engine::verb::ArgValue::Choice(pay_value(a).into()),
        ),
    };
    match world.resource::<Sides>().0[side.0 as usize].decisions {
        crate::engine::spec::DecisionPolicy::Never => {}
        crate::engine::spec::DecisionPolicy::Auto => stand_off_turn(world, unit, pays[0]),
        crate::engine::spec::DecisionPolicy::Ask => {
            let who = name(world, unit);
            let n = pays.len() as f64;
            let options = pays
                .iter()
                .enumerate()
                .map(|(i, &a)| {
                    crate::engine::decision::DecisionOption::new(
                        stand(a),
                        format!(
                            "{who} stands up with its next turn's {}",
                            actions_text(&[a])
                        ),
                    )
                    .value(n - i as f64)
                })
                .collect();
            world.resource_mut::<crate::engine::battle::Pending>().0 =
                Some(crate::engine::decision::PendingDecision {
                    side,
                    prompt: format!(
                        "{who} is knocked prone. Stand up now with an action of its next turn?"
                    ),
                    about: format!("decide whether {who} stands up off its turn"),
                    pick: crate::engine::decision::Pick::One,
                    options,
                    decline: Some(crate::engine::decision::DecisionOption::new(
                        Command::Pass { side },
                        format!("{who} stays prone"),
                    )),
                    lookahead: false,
                });
            world.resource_mut::<crate::engine::battle::Progress>().0 = true;
        }
    }
}

/// `unit` stands up off its turn, paying `a` from its next turn (W-30, W-GAP-19).
fn stand_off_turn(world: &mut World, unit: UnitId, a: Action) {
    wu_mut(world, unit).owed.push(a);
    emit(
        world,
        WoundsEvent::Spent {
            unit,
            what: "stand up off its turn (from its next turn)".into(),
            actions: actions_text(&[a]),
        },
    );
    end_where(world, unit, "it stood up", |c| c.name == names::PRONE);
}

/// After harm: the battle may be won, or an AI side may lose the will to fight
/// (W-05, W-GAP-21).
pub fn settle(world: &mut World) {
    if check_victory(world) {
        return refill(world);
    }
    let config = rules(world).clone();
    let sides = world.resource::<Sides>().0.clone();
    for (i, side) in sides.iter().enumerate() {
        if !matches!(side.controller, Controller::Ai(_)) {
            continue;
        }
        let id = SideId(i as u32);
        let (mut left, mut start) = (0i64, 0i64);
        let mut standing = false;
        for u in 0..world.resource::<crate::engine::battle::Roster>().0.len() as u32 {
            let u = UnitId(u);
            if side_of(world, u) != id {
                continue;
            }
            let h = *world
                .get::<Health>(entity(world, u))
                .expect("units have health");
            start += i64::from(h.max);
            if is_active(world, u) {
                standing = true;
                left += i64::from(h.hp.max(0));
            }
        }
        if standing && config.ai_surrenders(left, start) {
            let why = format!(
                " ({}% of its starting HP left, below {}%)",
                left * 100 / start.max(1),
                config.ai_surrender_percent
            );
            surrender(world, id, why);
            return;
        }
    }
}

/// `side` gives up: its units leave the battle (W-05, W-GAP-21).
pub fn surrender(world: &mut World, side: SideId, why: String) {
    emit(world, WoundsEvent::Surrendered { side, why });
    for u in board_units(world) {
        if side_of(world, u) == side {
            emit(
                world,
                Event::Defeated {
                    unit: u,
                    state: PlayState::Surrendered,
                    cause: Some(LeaveCause::Fled),
                    by: None,
                },
            );
        }
    }
    if let Some(a) = world.resource::<TurnState>().active
        && side_of(world, a) == side
    {
        emit(world, Event::TurnEnded { unit: a });
    }
    if check_victory(world) {
        refill(world);
    }
}

/// The winners' MP is refilled (W-05), once.
fn refill(world: &mut World) {
    if let Some(Some(side)) = world.resource::<TurnState>().ended
        && !std::mem::replace(&mut w_state_mut(world).round.refilled, true)
    {
        emit(world, WoundsEvent::MpRefilled { side });
        for u in 0..world.resource::<crate::engine::battle::Roster>().0.len() as u32 {
            let u = UnitId(u);
            if side_of(world, u) == side {
                let me = wu_mut(world, u);
                me.mp = me.max_mp;
            }
        }
    }
}

/// The aim with the best expected value for `attacker` on `target` (W-17): expected
/// damage, a kill counted as the target's HP, and each wound's effect valued in HP.
pub fn best_aim(
    world: &World,
    attacker: UnitId,
    target: UnitId,
    power: Option<&str>,
    kind: Kind,
) -> Aim {
    let mut best = (f64::MIN, Aim::CenterMass);
    for aim in Aim::ALL {
        let Some(v) = aim_value(world, attacker, target, power, aim, kind) else {
            continue;
        };
        if v > best.0 {
            best = (v, aim);
        }
    }
    best.1
}

/// The value in HP of an aim (see [`best_aim`]); `None` if the attack can't aim so.
pub fn aim_value(
    world: &World,
    attacker: UnitId,
    target: UnitId,
    power: Option<&str>,
    aim: Aim,
    kind: Kind,
) -> Option<f64> {
    let s = swing(world, attacker, target, power, Some(aim.name()), kind).ok()?;
    let o = cached_odds(rules(world), &s)?;
    let hp = world.get::<Health>(entity(world, target))?.hp.max(1);
    let (capped, killed) = damage_and_kill(&o, hp);
    let me = wu(world, target);
    let effect = match aim {
        Aim::Slowing => 3.0,
        Aim::Weakening => 2.0 + (me.strength.max(0) as f64).min(3.0),
        Aim::Disrupting => 3.0,
        Aim::Fatal | Aim::CenterMass => 0.0,
    };
    Some(capped + killed * f64::from(hp) * 0.5 + (o.wound - killed).max(0.0) * effect)
}

/// The expected damage of an attack's odds on a target with `hp` HP left (an
/// instant defeat counts as `hp`, and so does any damage beyond it), and its exact
/// chance to defeat the target.
pub fn damage_and_kill(o: &attack::Odds, hp: i32) -> (f64, f64) {
    let hp = hp.max(1);
    let expected = o
        .damage
        .outcomes()
        .iter()
        .map(|(outcome, p)| {
            p * match outcome {
                crate::engine::odds::Outcome::Value(v) => (*v as f64).min(f64::from(hp)),
                crate::engine::odds::Outcome::Special(_) => f64::from(hp),
            }
        })
        .sum();
    let kill = o.damage.prob_at_least(i64::from(hp)) + o.damage.prob_special(&attack::Defeated);
    (expected, kill)
}

/// The exact odds of a swing, computed once per thread: the AI and the previews ask
/// the same few attacks many times. The key holds the configuration's fingerprint,
/// so battles under different constants in one thread each get their own odds.
/// Emptied past a few thousand entries.
pub fn cached_odds(config: &WoundsConfig, s: &Swing) -> Option<std::sync::Arc<attack::Odds>> {
    use std::cell::RefCell;
    use std::collections::HashMap;
    type Key = (u64, i64, i64, DamageTerms, DiceExpr, bool);
    thread_local! {
        static CACHE: RefCell<HashMap<Key, std::sync::Arc<attack::Odds>>> =
            RefCell::new(HashMap::new());
    }
    let free_crit = s.kind == Kind::FreeCrit;
    let key = (
        config.fingerprint(),
        s.modifier,
        s.defense,
        s.terms,
        s.dice.clone(),
        free_crit,
    );
    if let Some(o) = CACHE.with(|c| c.borrow().get(&key).cloned()) {
        return Some(o);
    }
    let dist = s.dice.distribution();
    let o = if free_crit {
        attack::free_crit_odds(config, &s.terms, &dist).ok()?
    } else {
        attack::odds(config, s.modifier, s.defense, &s.terms, &dist).ok()?
    };
    let o = std::sync::Arc::new(o);
    CACHE.with(|c| {
        let mut c = c.borrow_mut();
        if c.len() > 4096 {
            c.clear();
        }
        c.insert(key, o.clone());
    });
    Some(o)
}

// ------------------------------------------------------------------ the round

/// The one system: starts turns and executes commands.
pub fn drive(world: &mut World) {
    if halted(world) {
        return;
    }
    if world
        .resource::<crate::engine::battle::Pending>()
        .0
        .is_some()
    {
        // The questions: a free hit's aim (W-GAP-07), stand up off-turn (W-30).
        let Some(answer) = world
            .resource_mut::<crate::engine::battle::Incoming>()
            .0
            .take()
        else {
            return;
        };
        world.resource_mut::<crate::engine::battle::Pending>().0 = None;
        if super::free_hit::answer(world, &answer) {
            world.resource_mut::<crate::engine::battle::Progress>().0 = true;
            return;
        }
        if let Command::Act { unit, args, .. } = answer
            && let Some(a) = pay_choice(args.choice("pay"))
        {
            stand_off_turn(world, unit, a);
        }
        world.resource_mut::<crate::engine::battle::Progress>().0 = true;
        return;
    }
    let Some(unit) = world.resource::<TurnState>().active else {
        next_turn(world);
        return;
    };
    let Some(command) = world
        .resource_mut::<crate::engine::battle::Incoming>()
        .0
        .take()
    else {
        if !is_active(world, unit) {
            // Defeated on its own turn (a free hit, a fatal blow): its turn is over.
            emit(world, Event::TurnEnded { unit });
        }
        return;
    };
    execute(world, unit, command);
}

/// Starts the next turn in this round's queue; a new round when it is empty.
fn next_turn(world: &mut World) {
    loop {
        let next = {
            let state = &mut w_state_mut(world).round;
            if state.queue.is_empty() {
                None
            } else {
                Some(state.queue.remove(0))
            }
        };
        match next {
            Some(u) if on_board(world, u) => {
                start_turn(world, u);
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
                if !start_round(world) {
                    return;
                }
            }
        }
    }
}

/// Fixes the battle's order at its start (W-02, W-03, W-GAP-10, W-GAP-11): ties
/// roll a d20 each.
fn fix_order(world: &mut World) -> Result<(), DiceError> {
    let units = board_units(world);
    let entrants: Vec<super::initiative::Entrant<UnitId>> = units
        .iter()
        .map(|&u| super::initiative::Entrant {
            unit: u,
            agility: wu(world, u).agility,
            initiator: wu(world, u).initiator,
        })
        .collect();
    let mut rolled: Vec<(UnitId, u32)> = Vec::new();
    let order = {
        let dice = &mut *world.resource_mut::<Dice>();
        super::initiative::order(&entrants, |u| {
            let f = dice.roll(20)?;
            rolled.push((u, f));
            Ok(f)
        })?
    };
    for (unit, face) in rolled {
        emit(world, Event::TieBreakRolled { unit, face });
    }
    emit(
        world,
        WoundsEvent::OrderFixed {
            order: order.clone(),
        },
    );
    let state = &mut w_state_mut(world).round;
    state.order = order;
    state.fixed = true;
    Ok(())
}

/// Starts a round: the battle's order (fixed in round 1), fresh Free Hit Slots from
/// the current Agility (W-05, W-27, W-GAP-16). False when nobody can act.
fn start_round(world: &mut World) -> bool {
    if board_units(world).is_empty() {
        return false;
    }
    if !w_state(world).round.fixed
        && let Err(e) = fix_order(world)
    {
        fault(world, e);
        return false;
    }
    let r = round(world) + 1;
    emit(world, Event::RoundStarted { round: r });
    if r == 1 {
        opening_states(world);
    }
    emit(
        world,
        Event::StageStarted {
            stage: Stage::Attack,
        },
    );
    let config = rules(world).clone();
    let mut slots = Vec::new();
    for u in board_units(world) {
        let s = Slots::new_round(&config, agility(world, u));
        wu_mut(world, u).slots = s;
        slots.push((u, s.left()));
    }
    emit(world, WoundsEvent::Slots { slots });
    let order: Vec<UnitId> = w_state(world)
        .round
        .order
        .iter()
        .copied()
        .filter(|&u| on_board(world, u))
        .collect();
    emit(
        world,
        Event::OrderSet {
            stage: Stage::Attack,
            order: order.clone(),
        },
    );
    w_state_mut(world).round.queue = order;
    true
}

/// Starts `unit`'s turn: a fresh 1 AA, 1 MA and 2 BA less its Weakening wounds;
/// its dodge ends; a summoning-sick unit can't act (W-GAP-23); a channeled spell
/// takes this turn's actions first (W-33).
fn start_turn(world: &mut World, unit: UnitId) {
    wu_mut(world, unit).turns += 1;
    emit(
        world,
        Event::TurnStarted {
            unit,
            stage: Stage::Attack,
        },
    );
    expire_turn_start(world, unit, "its turn started");
    let left = next_budget(world, unit);
    wu_mut(world, unit).owed.clear();
    w_state_mut(world).zone_steps.0.clear();
    w_state_mut(world).turn = TurnBudget {
        left,
        ..Default::default()
    };
    if has(world, unit, names::SICK) {
        emit(
            world,
            WoundsEvent::CannotAct {
                unit,
                why: "summoning sickness (W-GAP-23)".into(),
            },
        );
        emit(world, Event::TurnEnded { unit });
        return;
    }
    super::magic::turn_starts(world, unit);
    if wu(world, unit).channel.is_some() {
        channel(world, unit);
    }
}

/// Ends `unit`'s turn.
pub fn end_turn(world: &mut World, unit: UnitId) {
    if world.resource::<TurnState>().active == Some(unit) {
        emit(world, Event::TurnEnded { unit });
    }
}

// ------------------------------------------------------------------ commands

/// The text of a set of actions: "1 AA", "1 MA + 2 BA".
pub fn actions_text(payment: &[Action]) -> String {
    let mut parts = Vec::new();
    for (a, label) in [
        (Action::Attack, "AA"),
        (Action::Move, "MA"),
        (Action::Bonus, "BA"),
    ] {
        let n = payment.iter().filter(|&&p| p == a).count();
        if n > 0 {
            parts.push(format!("{n} {label}"));
        }
    }
    parts.join(" + ")
}

/// Spends `mp` of `unit`'s MP (a spell's cost, an upkeep).
pub(super) fn spend_mp(world: &mut World, unit: UnitId, mp: i64) {
    if mp > 0 {
        wu_mut(world, unit).mp -= mp;
    }
}

/// Spends `payment` for `what` and tells it.
pub(super) fn pay(world: &mut World, unit: UnitId, what: Use, payment: &[Action], text: &str) {
    let ok = {
        let t = &mut w_state_mut(world).turn;
        t.acted = true;
        t.left.pay(what, payment).is_ok()
    };
    if ok {
        emit(
            world,
            WoundsEvent::Spent {
                unit,
                what: text.into(),
                actions: actions_text(payment),
            },
        );
    }
}

/// The `pay` choice that names an action (the inverse of [`pay_choice`]).
pub fn pay_value(a: Action) -> &'static str {
    match a {
        Action::Attack => "AA",
        Action::Move => "MA",
        Action::Bonus => "BA",
    }
}

/// The action a `pay` choice names.
pub fn pay_choice(value: Option<&str>) -> Option<Action> {
    match value? {
        "AA" => Some(Action::Attack),
        "MA" => Some(Action::Move),
        "BA" => Some(Action::Bonus),
        _ => None,
    }
}

/// How the active `unit` moves now (W-08, W-30): prone crawls at ⅓, a hidden unit
/// sneaks at half speed unless it is a Maneuverer, and a `Burdened` one (carrying
/// its maximum capacity) moves at half speed. Swimming and climbing are per square
/// ([`path_cost`]).
pub fn gait(world: &World, unit: UnitId) -> Gait {
    let me = wu(world, unit);
    Gait {
        prone: has(world, unit, names::PRONE),
        half: (has(world, unit, names::HIDDEN) && !me.feats.maneuverer) || me.burdened,
    }
}

/// The spaces `unit` has moved and may still move this turn when it opens its
/// Move Action if needed and spends `extra` more Bonus Actions (W-07, W-09, W-EX-8).
fn allowance(world: &World, unit: UnitId, opened: bool, extra: u32) -> u32 {
    economy::movement(
        rules(world),
        wu(world, unit).movement,
        &mods(world, unit),
        opened,
        extra,
        gait(world, unit),
    )
}

/// How a move of `cost` spaces is paid now: whether it takes the Move Action and
/// how many Bonus Actions it spends on 2 more spaces each (none unless `dash`);
/// `None` when the actions left are not enough. Every move is a movement of its
/// own (W-07, W-GAP-15): the Move Action's spaces come with the first one only,
/// and what a movement leaves is lost; a later one is a Dash on Bonus Actions.
pub fn move_plan(world: &World, unit: UnitId, cost: u32, dash: bool) -> Option<(bool, u32)> {
    let t = w_state(world).turn;
    let with_ma = !t.opened && t.left.moves > 0;
    if !with_ma && !dash {
        return None;
    }
    let most = if dash { t.left.bonus } else { 0 };
    (0..=most)
        .find(|&more| allowance(world, unit, with_ma, more) >= cost)
        .map(|more| (with_ma, more))
}

/// The most spaces `unit` can move with one more movement now, with its Bonus
/// Actions if `dash`.
pub fn reach_left(world: &World, unit: UnitId, dash: bool) -> u32 {
    let t = w_state(world).turn;
    let with_ma = !t.opened && t.left.moves > 0;
    if !with_ma && !dash {
        return 0;
    }
    allowance(world, unit, with_ma, if dash { t.left.bonus } else { 0 })
}

/// The cost in spaces of `unit` moving along a path (W-GAP-20: difficult squares
/// cost 2, diagonals 1). Swimming into water and climbing onto a climbing square
/// is half speed (W-08): such a square costs `half_divisor` spaces (2), except water
/// for a Maneuverer, who swims normally.
pub fn path_cost(world: &World, unit: UnitId, path: &[Cell]) -> Option<u32> {
    let config = rules(world);
    let board = &world.resource::<Map>().0;
    let swims = wu(world, unit).feats.maneuverer;
    path.iter()
        .map(|&c| {
            let k = board.step_cost(c)?;
            Some(match board.terrain(c) {
                Terrain::Water if swims => 1,
                Terrain::Water | Terrain::Climb => config.half_divisor.max(1),
                _ => economy::step_cost(config, k > 1),
            })
        })
        .sum()
}

/// The free hits moving `mover` along `path` draws, in the order they come: before
/// which step, from whom and why (W-26, W-GAP-14, W-GAP-15, W-GAP-25). Slots are
/// not checked.
pub fn free_hits(world: &World, mover: UnitId, path: &[Cell]) -> Vec<(usize, UnitId, Trigger)> {
    let config = rules(world);
    let mut full = vec![cell_of(world, mover)];
    full.extend_from_slice(path);
    let disengaged = has(world, mover, names::DISENGAGED);
    let order = &w_state(world).round.order;
    // The turn's count is the active unit's.
    let mine = world.resource::<TurnState>().active == Some(mover);
    let steps = &w_state(world).zone_steps;
    let before = |e| if mine { steps.of(e) } else { 0 };
    let mut out: Vec<(usize, UnitId, Trigger)> = active_units(world)
        .into_iter()
        .filter(|&e| side_of(world, e) != side_of(world, mover) && able(world, e))
        .filter_map(|e| {
            economy::free_hit_trigger(
                config,
                cell_of(world, e),
                wu(world, e).zone,
                &full,
                disengaged,
                before(e),
            )
            .map(|(i, why)| (i, e, why))
        })
        .collect();
    out.sort_by_key(|&(i, e, _)| (i, order.iter().position(|&u| u == e)));
    out
}

/// Executes the active unit's command (already checked).
fn execute(world: &mut World, unit: UnitId, command: Command) {
    match command {
        Command::EndTurn { .. } => end_turn(world, unit),
        Command::Move { path, power, .. } => {
            let Some(cost) = path_cost(world, unit, &path) else {
                return;
            };
            let Some((open, more)) = move_plan(world, unit, cost, power == DASH) else {
                return;
            };
            if open {
                pay(world, unit, Use::Move, &[Action::Move], "move");
                w_state_mut(world).turn.opened = true;
            }
            for _ in 0..more {
                pay(
                    world,
                    unit,
                    Use::ExtraMove,
                    &[Action::Bonus],
                    "2 more spaces",
                );
            }
            travel(world, unit, path);
        }
        Command::Attack {
            target, power, aim, ..
        } => {
            let kind = kind_now(world, unit);
            let Ok(s) = swing(world, unit, target, power.as_deref(), aim.as_deref(), kind) else {
                return;
            };
            if s.header.mp > 0 {
                let left = wu(world, unit).mp - s.header.mp;
                wu_mut(world, unit).mp = left;
            }
            if s.header.spell {
                return cast(world, unit, target, &s.name, s.header.cast);
            }
            match kind {
                Kind::Extra => pay(
                    world,
                    unit,
                    Use::ExtraAttack,
                    &[Action::Move, Action::Bonus, Action::Bonus],
                    "the extra attack",
                ),
                _ => pay(world, unit, Use::Attack, &[Action::Attack], "attack"),
            }
            make_attack(world, unit, target, power.as_deref(), aim.as_deref(), kind);
        }
        Command::ActivateItem { item, .. } => {
            let payment = if w_state(world).turn.left.moves > 0 {
                Action::Move
            } else {
                Action::Attack
            };
            pay(world, unit, Use::PickUp, &[payment], &format!("use {item}"));
            let Some(def) = crate::engine::items::use_item(world, unit, &item) else {
                return;
            };
            if let crate::engine::spec::ItemEffect::Heal(dice) = &def.effect {
                match crate::engine::items::heal(world, unit, dice, &item) {
                    Ok(amount) => healed(world, unit, amount),
                    Err(e) => world.resource_mut::<crate::engine::battle::Fault>().0 = Some(e),
                }
            }
        }
        Command::Act { verb, args, .. } => act(world, unit, &verb, &args),
        _ => {}
    }
}

fn act(world: &mut World, unit: UnitId, verb: &str, args: &crate::engine::verb::Args) {
    use super::verbs;
    if super::gear::act(world, unit, verb, args)
        || super::extra::act(world, unit, verb, args)
        || super::summon::act(world, unit, verb, args)
    {
        return;
    }
    let r = round(world);
    match verb {
        verbs::DISENGAGE => {
            let payment: &[Action] = if args.choice("pay") == Some("BA") {
                &[Action::Bonus, Action::Bonus]
            } else {
                &[Action::Attack]
            };
            pay(world, unit, Use::Disengage, payment, "Disengage");
            add_condition(
                world,
                unit,
                Condition::new(names::DISENGAGED, Duration::EndOfRound(r)),
            );
        }
        verbs::HIT_BOOST | verbs::DAMAGE_BOOST | verbs::DODGE => {
            let (what, cond, duration) = match verb {
                verbs::HIT_BOOST => ("+1 to hit", names::HIT_BOOST, Duration::EndOfRound(r)),
                verbs::DAMAGE_BOOST => (
                    "+1 melee damage",
                    names::DAMAGE_BOOST,
                    Duration::EndOfRound(r),
                ),
                _ => ("+1 dodge", names::DODGE, Duration::UntilOwnNextTurn),
            };
            let config = rules(world);
            let n = match verb {
                verbs::HIT_BOOST => config.ba_hit_bonus,
                verbs::DAMAGE_BOOST => config.ba_damage_bonus,
                _ => config.ba_dodge_bonus,
            };
            let use_ = match verb {
                verbs::HIT_BOOST => Use::HitBoost,
                verbs::DAMAGE_BOOST => Use::DamageBoost,
                _ => Use::DodgeBoost,
            };
            pay(world, unit, use_, &[Action::Bonus], what);
            add_condition(
                world,
                unit,
                Condition::new(cond, duration).with_magnitude(Magnitude::Flat(n as i32)),
            );
        }
        verbs::STAND | verbs::PICK_UP => {
            let Some(payment) = pay_choice(args.choice("pay")) else {
                return;
            };
            let (use_, cond, text) = if verb == verbs::STAND {
                (Use::StandUp, names::PRONE, "stand up")
            } else {
                (Use::PickUp, names::DISARMED, "pick up its weapon")
            };
            pay(world, unit, use_, &[payment], text);
            end_where(world, unit, text, |c| c.name == cond);
        }
        verbs::DELAY => {
            let Some(after) = args.unit("after") else {
                return;
            };
            let mut with_me = vec![unit];
            with_me.extend(w_state(world).round.queue.iter().copied());
            // The unit is first; after the delay the order is the rest of the round.
            if let Ok(queue) = super::initiative::delay(&with_me, unit, after) {
                w_state_mut(world).round.queue = queue;
                emit(world, WoundsEvent::Delayed { unit, after });
                emit(world, Event::TurnEnded { unit });
            }
        }
        verbs::INVOKE => super::magic::invoke(world, unit, args),
        verbs::CANCEL => super::magic::cancel(world, unit),
        verbs::TOGGLE => super::magic::toggle(world, unit),
        verbs::SURRENDER => {
            let side = side_of(world, unit);
            surrender(world, side, String::new());
        }
        _ => {}
    }
}

/// Moves `mover` along `path`, each free hit it draws resolved before the step that
/// draws it, as long as the hitter has a Free Hit Slot (W-26, W-27, W-GAP-14,
/// W-GAP-15, W-EX-5).
fn travel(world: &mut World, mover: UnitId, path: Vec<Cell>) {
    let hits = free_hits(world, mover, &path);
    count_zone_steps(world, mover, &path);
    walk(
        world,
        Walk {
            mover,
            path,
            hits,
            resolved: 0,
            step: 0,
        },
    );
}

/// A movement under way: its path, the free hits it draws and how far it got. A
/// free hit whose aim the hitter's side is asked for (W-GAP-07) stops it; the
/// answer resumes it ([`super::free_hit`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Walk {
    /// The moving unit.
    pub mover: UnitId,
    /// The cells it enters, in order.
    pub path: Vec<Cell>,
    /// The free hits it draws ([`free_hits`]), in the order they come.
    pub hits: Vec<(usize, UnitId, Trigger)>,
    /// How many of `hits` are resolved.
    pub resolved: usize,
    /// The next step to take (an index into `path`).
    pub step: usize,
}

/// Takes the rest of a movement's steps, each free hit resolved before the step
/// that draws it as long as the hitter has a Free Hit Slot (W-26, W-27, W-GAP-14,
/// W-GAP-15, W-EX-5); stops when a free hit's aim is asked for.
pub fn walk(world: &mut World, mut w: Walk) {
    let mover = w.mover;
    while let Some(&to) = w.path.get(w.step) {
        while let Some(&(_, hitter, why)) = w.hits.get(w.resolved).filter(|h| h.0 == w.step) {
            w.resolved += 1;
            if !able(world, hitter) || !is_active(world, mover) {
                continue;
            }
            if !wu_mut(world, hitter).slots.spend() {
                emit(
                    world,
                    WoundsEvent::NoSlot {
                        unit: hitter,
                        mover,
                    },
                );
                continue;
            }
            let left = wu(world, hitter).slots.left();
            emit(
                world,
                WoundsEvent::FreeHit {
                    attacker: hitter,
                    mover,
                    why: match why {
                        Trigger::Leaves => "leaves the melee zone".into(),
                        Trigger::StepsInside => format!(
                            "moves a {} space inside the melee zone",
                            ordinal(rules(world).free_hit_step)
                        ),
                    },
                    slots_left: left,
                },
            );
            if super::free_hit::strike(world, hitter, mover, Kind::Free, Some(w.clone())) {
                return;
            }
        }
        if !is_active(world, mover) || halted(world) {
            return;
        }
        let from = cell_of(world, mover);
        let cost = path_cost(world, mover, &[to]).unwrap_or(1);
        emit(
            world,
            Event::Moved {
                unit: mover,
                from,
                to,
                cost,
            },
        );
        w.step += 1;
    }
}

/// Adds the steps of `path` inside each enemy's melee zone to the mover's count
/// for the turn ([`ZoneSteps`], W-26, W-GAP-15).
fn count_zone_steps(world: &mut World, mover: UnitId, path: &[Cell]) {
    let mut full = vec![cell_of(world, mover)];
    full.extend_from_slice(path);
    let added: Vec<(UnitId, u32)> = active_units(world)
        .into_iter()
        .filter(|&e| side_of(world, e) != side_of(world, mover))
        .map(|e| {
            let n = economy::steps_inside(cell_of(world, e), wu(world, e).zone, &full);
            (e, n)
        })
        .filter(|&(_, n)| n > 0)
        .collect();
    let steps = &mut w_state_mut(world).zone_steps;
    for (e, n) in added {
        match steps.0.iter_mut().find(|(u, _)| *u == e) {
            Some((_, m)) => *m += n,
            None => steps.0.push((e, n)),
        }
    }
}

fn ordinal(n: u32) -> String {
    match n {
        1 => "1st".into(),
        2 => "2nd".into(),
        3 => "3rd".into(),
        n => format!("{n}th"),
    }
}

/// A spell with a cast time of `cast` actions (W-12): paid with the Attack and Move
/// Actions left; what the turn can't pay is channeled, the caster flat-footed until
/// it goes off (W-33).
pub(super) fn cast(world: &mut World, unit: UnitId, target: UnitId, power: &str, cast: u32) {
    wu_mut(world, unit).channel = Some(Channel {
        power: power.into(),
        target,
        left: cast,
    });
    channel(world, unit);
}

/// Pays what the turn can of a channeled spell, and casts it when it is paid.
fn channel(world: &mut World, unit: UnitId) {
    let Some(mut c) = wu(world, unit).channel.clone() else {
        return;
    };
    while c.left > 0 {
        let t = w_state(world).turn.left;
        let payment = if t.attack > 0 {
            Action::Attack
        } else if t.moves > 0 && !w_state(world).turn.opened {
            Action::Move
        } else {
            break;
        };
        pay(
            world,
            unit,
            Use::CastTime,
            &[payment],
            &format!("cast time of {}", c.power),
        );
        c.left -= 1;
    }
    if c.left > 0 {
        wu_mut(world, unit).channel = Some(c);
        if !has(world, unit, names::CHANNELING) {
            add_condition(
                world,
                unit,
                Condition::new(names::CHANNELING, Duration::UntilRemoved),
            );
        }
        return;
    }
    wu_mut(world, unit).channel = None;
    end_where(world, unit, "the spell is cast", |c| {
        c.name == names::CHANNELING
    });
    let why = if !is_active(world, c.target) {
        Some("its target is gone")
    } else if swing(world, unit, c.target, Some(&c.power), None, Kind::Normal).is_err() {
        Some("its target is out of reach")
    } else {
        None
    };
    match why {
        // A helping spell takes effect instead of attacking (W-19, W-28).
        None if super::magic::go_off(world, unit, c.target, &c.power) => {}
        None => make_attack(world, unit, c.target, Some(&c.power), None, Kind::Normal),
        Some(why) => emit(
            world,
            WoundsEvent::CannotAct {
                unit,
                why: format!("{} fizzles: {why} (W-33)", c.power),
            },
        ),
    }
}

/// A summoned unit's sickness and a hidden unit's cover as the battle starts
/// (W-16, W-GAP-23).
fn opening_states(world: &mut World) {
    for u in board_units(world) {
        let me = wu(world, u).clone();
        if me.summoned {
            add_condition(
                world,
                u,
                Condition::new(names::SICK, Duration::EndOfRound(1)),
            );
        }
        if me.hidden {
            add_condition(
                world,
                u,
                Condition::new(names::HIDDEN, Duration::UntilAction),
            );
        }
    }
}
