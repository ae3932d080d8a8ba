//! A `wounds` attack, its arithmetic and its play. The arithmetic, once, for the
//! rules and the previews: the defense number (W-13, W-29, W-30, W-GAP-13),
//! flanking (W-15 / W-GAP-17), the hit with its natural 20 and natural 1 (W-20,
//! W-22, W-GAP-05), the crit chain (W-21), what the attacked unit may do back after
//! a natural 1 (W-23, W-24, W-GAP-18), and the damage steps (W-18, W-GAP-04). The
//! functions on faces are what the systems roll, in the order the dice are drawn
//! (RULES.md §0): d20, the chain's d4 then d6, the damage dice, the Fatal d4.
//! [`odds`] gives the exact distribution of the same numbers.
//!
//! The attack as the battle plays it: the [`Swing`] a unit would make with a weapon
//! or spell (W-10, W-16, W-31, W-GAP-01, W-GAP-08), [`make_attack`] with its aim,
//! crit chain and tragedy (W-19 … W-24, W-GAP-02, W-GAP-06, W-GAP-14), damage and the
//! wounds it leaves (W-17 … W-19, W-EX-1 … W-EX-6), and the aim the AI and an
//! unasked side choose from the exact odds (W-GAP-07).

use bevy_ecs::prelude::*;

use super::aim::Aim;
use super::config::WoundsConfig;
use super::end::settle;
use super::events::WoundsEvent;
use super::powers::{Header, parse_header};
use super::state::{
    UNARMED, able, agility, fault, footing, has, in_zone_of, mods, names, round, rules, total,
    w_state, wu, wu_mut,
};
use super::turn::offer_stand;
use crate::engine::battle::{
    Map, TurnState, active_units, cell_of, emit, entity, is_active, name, play_state, side_of,
};
use crate::engine::board::Cell;
use crate::engine::conditions::{Condition, Duration, Magnitude, add_condition, end_where};
use crate::engine::dice::{Dice, DiceError};
use crate::engine::event::{AttackOutcome, Event, Foreseen, LeaveCause, RollModifier};
use crate::engine::odds::{
    ChainEffect, ChainStep, DiceExpr, Distribution, OddsError, Outcome, Outcomes, chain,
};
use crate::engine::spec::{EffectDuration, PowerDef};
use crate::engine::units::{Health, PlayState, Powers, UnitId};

/// How a unit stands when it is attacked (W-29, W-30).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Footing {
    /// Dodging normally.
    Normal,
    /// Snuck up on, tied up, paralyzed, channeling, attacked by an undetected unit:
    /// hit on 5 (W-29).
    FlatFooted,
    /// Lying down: hit on 5 + Agility; can't dodge (W-30).
    Prone,
}

/// The defense number an attack must reach (W-13, W-29, W-30, W-EX-6): Agility + 10,
/// plus `dodge` (the Bonus Action dodge boost, W-09, W-GAP-13) only when dodging;
/// 5 flat-footed; 5 + Agility prone.
pub fn defense(cfg: &WoundsConfig, agility: i64, footing: Footing, dodge: i64) -> i64 {
    match footing {
        Footing::Normal => agility + cfg.defense_base + dodge,
        Footing::FlatFooted => cfg.flat_footed_defense,
        Footing::Prone => cfg.prone_defense + agility,
    }
}

/// The square "behind" `target` seen from `attacker`: the one directly opposite the
/// attacker across the target, T − sign(A − T) per axis (W-GAP-17).
pub fn flanking_square(attacker: Cell, target: Cell) -> Cell {
    Cell {
        x: target.x - (attacker.x - target.x).signum(),
        y: target.y - (attacker.y - target.y).signum(),
    }
}

/// Whether `attacker` flanks `target`: an ally of the attacker stands on the
/// [`flanking_square`] (W-15, W-GAP-17).
pub fn flanks(attacker: Cell, target: Cell, allies: impl IntoIterator<Item = Cell>) -> bool {
    let behind = flanking_square(attacker, target);
    attacker != target && allies.into_iter().any(|c| c == behind)
}

/// How an attack roll came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Roll {
    /// A natural 1: an auto fail whatever the total (W-22); the tragedy chain follows.
    Fumble,
    /// Total below the defense.
    Miss,
    /// Total at or above the defense (W-13).
    Hit,
    /// A natural 20: a hit whatever the defense, with the crit chain (W-20,
    /// W-GAP-05).
    Crit,
}

/// The outcome of a natural d20 roll with `modifier` against `defense` (W-13, W-20,
/// W-22, W-GAP-05).
pub fn classify(cfg: &WoundsConfig, natural: i64, modifier: i64, defense: i64) -> Roll {
    if natural <= cfg.fumble_at {
        Roll::Fumble
    } else if natural >= cfg.crit_at {
        Roll::Crit
    } else if natural + modifier >= defense {
        Roll::Hit
    } else {
        Roll::Miss
    }
}

/// Where a crit chain stopped (W-21).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Crit {
    /// Damage multiplied by this: ×2 a critical, ×4 a super critical.
    Multiplier(i64),
    /// The third link: the target is defeated instantly, no damage rolled.
    Defeated,
}

/// The crit chain from its faces (W-20, W-21, W-EX-3): the d4 (`super_face`), then
/// the d6 (`decisive_face`), which is only rolled when the d4 escalated (`None`
/// otherwise; a missing face counts as no escalation).
pub fn crit_chain(cfg: &WoundsConfig, super_face: u32, decisive_face: Option<u32>) -> Crit {
    if super_face < cfg.super_face {
        return Crit::Multiplier(cfg.crit_multiplier);
    }
    match decisive_face {
        Some(f) if f >= cfg.decisive_face => Crit::Defeated,
        _ => Crit::Multiplier(cfg.crit_multiplier * 2),
    }
}

/// Where a tragedy chain stopped (W-22, W-23, W-24).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fumble {
    /// A plain auto fail.
    AutoFail,
    /// The d4 showed 4: a tragedy.
    Tragedy,
    /// Then the d6 showed 6: a fatal blow.
    FatalBlow,
}

/// What the attacked unit may do back after a natural 1 (W-24, W-GAP-14, W-GAP-18).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Retaliation {
    /// Nothing.
    None,
    /// A free hit, using one of its Free Hit Slots (W-24, W-27).
    FreeHit,
    /// A free critical hit even with no slot left: it hits automatically for ×2
    /// damage, with no further chain (W-24, W-GAP-18).
    FreeCrit,
    /// The attacker is killed instantly (W-24).
    FatalBlow,
}

/// What follows a natural 1 (W-24, W-GAP-14, W-GAP-18, W-EX-4): only when the
/// attacker stood in the attacked unit's melee zone (`in_zone`) and the roll was no
/// free hit itself (free hits never chain); a plain auto fail gives a free hit only
/// when the attacked unit has a slot left; a tragedy a free critical hit whatever
/// its slots; a fatal blow kills.
pub fn retaliation(
    fumble: Fumble,
    in_zone: bool,
    was_free_hit: bool,
    slots_left: u32,
) -> Retaliation {
    if !in_zone || was_free_hit {
        return Retaliation::None;
    }
    match fumble {
        Fumble::AutoFail if slots_left > 0 => Retaliation::FreeHit,
        Fumble::AutoFail => Retaliation::None,
        Fumble::Tragedy => Retaliation::FreeCrit,
        Fumble::FatalBlow => Retaliation::FatalBlow,
    }
}

/// What a hit adds to its dice and what the target takes off (W-GAP-04).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DamageTerms {
    /// Added to the dice before the multiplier: the Strength modifier (melee, not
    /// the extra attack W-10) + the Bonus Action damage boost (melee, W-09).
    pub flat: i64,
    /// Taken off after the multiplier: armor, resistances, guarding (W-GAP-03).
    pub armor: i64,
    /// Where the attack aims (W-17).
    pub aim: Aim,
}

/// The flat part of a hit's damage (W-GAP-01, W-GAP-04, W-10, W-09): Strength and
/// the damage boost for a melee weapon, nothing for a ranged one, and no Strength
/// on the extra attack.
pub fn flat_damage(strength: i64, damage_boost: i64, melee: bool, extra_attack: bool) -> i64 {
    if !melee {
        return 0;
    }
    damage_boost + if extra_attack { 0 } else { strength }
}

/// Net damage before a Fatal bonus (W-GAP-04): (dice + flat) × multiplier − armor,
/// never below 0. `dice` is the weapon dice and the sneak dice (W-16), which the
/// multiplier doubles too.
pub fn net_damage(dice: i64, terms: &DamageTerms, multiplier: i64) -> i64 {
    ((dice + terms.flat) * multiplier - terms.armor).max(0)
}

/// What one hit dealt.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dealt {
    /// The damage instance: net damage, plus the Fatal bonus when it came.
    pub damage: i64,
    /// Whether the net damage dealt a wound (W-18).
    pub wound: bool,
    /// Whether the Fatal d4 added its 16 (W-17, W-GAP-06).
    pub fatal: bool,
}

/// Whether one attack's net damage deals a wound: 6 or more (W-18).
pub fn is_wound(cfg: &WoundsConfig, net: i64) -> bool {
    net >= cfg.wound_threshold
}

/// The damage of a hit from its dice total, its multiplier (1, or the crit
/// chain's) and the Fatal d4 (`None` when it is not rolled: no wound, or not aimed
/// Fatal). A wound aimed Fatal adds 16 after reductions on a 4 (W-GAP-04, W-EX-1,
/// W-EX-3).
pub fn deal(
    cfg: &WoundsConfig,
    terms: &DamageTerms,
    dice: i64,
    multiplier: i64,
    fatal_face: Option<u32>,
) -> Dealt {
    let net = net_damage(dice, terms, multiplier);
    let wound = is_wound(cfg, net);
    let fatal = wound && terms.aim == Aim::Fatal && fatal_face.is_some_and(|f| f >= cfg.fatal_face);
    Dealt {
        damage: net + if fatal { cfg.fatal_bonus } else { 0 },
        wound,
        fatal,
    }
}

/// Whether the Fatal d4 is rolled after a hit: a wound aimed Fatal (W-17).
pub fn rolls_fatal_die(cfg: &WoundsConfig, terms: &DamageTerms, net: i64) -> bool {
    terms.aim == Aim::Fatal && is_wound(cfg, net)
}

/// The special outcome of an attack that is not a number of damage: the target
/// defeated instantly (W-21).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Defeated;

/// Exact odds of an attack.
#[derive(Clone, Debug, PartialEq)]
pub struct Odds {
    /// Chance to hit, crits included.
    pub hit: f64,
    /// Chance of a natural 20.
    pub crit: f64,
    /// Chance of a natural 1.
    pub fumble: f64,
    /// Chance of a tragedy (the fatal blow included).
    pub tragedy: f64,
    /// Chance of a tragedy escalated to a fatal blow.
    pub fatal_blow: f64,
    /// Chance of a wound (and its aim's effect; an instant defeat is none).
    pub wound: f64,
    /// Chance that the Fatal d4 adds its 16.
    pub fatal_bonus: f64,
    /// Damage dealt (0 on a miss), or [`Defeated`].
    pub damage: Outcomes<Defeated>,
}

/// The crit chain as a distribution of multipliers and [`Defeated`] (W-21).
fn crit_outcomes(cfg: &WoundsConfig) -> Result<Outcomes<Defeated>, OddsError> {
    chain(
        cfg.crit_multiplier,
        &[
            ChainStep {
                sides: cfg.super_die,
                at_least: cfg.super_face,
                effect: ChainEffect::Multiply(2),
            },
            ChainStep {
                sides: cfg.decisive_die,
                at_least: cfg.decisive_face,
                effect: ChainEffect::Become(Defeated),
            },
        ],
    )
}

/// Chance that a die with `sides` faces shows at least `face`.
fn at_least(sides: u32, face: u32) -> f64 {
    let sides = sides.max(1);
    f64::from((sides + 1).saturating_sub(face.max(1)).min(sides)) / f64::from(sides)
}

/// The damage of a hit with multiplier `m`, and its chances of a wound and of the
/// Fatal bonus (W-18, W-GAP-04, W-GAP-06).
fn hit_odds(
    cfg: &WoundsConfig,
    terms: &DamageTerms,
    dice: &Distribution,
    m: i64,
) -> Result<(Distribution, f64, f64), OddsError> {
    let p_fatal = at_least(cfg.fatal_die, cfg.fatal_face);
    let (mut wound, mut fatal) = (0.0, 0.0);
    for (d, p) in dice.outcomes() {
        let net = net_damage(d, terms, m);
        if is_wound(cfg, net) {
            wound += p;
            if terms.aim == Aim::Fatal {
                fatal += p * p_fatal;
            }
        }
    }
    let damage = dice.branch(|d| {
        let net = net_damage(d, terms, m);
        if rolls_fatal_die(cfg, terms, net) {
            Distribution::either(
                p_fatal,
                &Distribution::constant(net + cfg.fatal_bonus),
                &Distribution::constant(net),
            )
            .unwrap_or_else(|_| Distribution::constant(net))
        } else {
            Distribution::constant(net)
        }
    })?;
    Ok((damage, wound, fatal))
}

/// The exact odds of a tragedy's free critical hit (W-24, W-GAP-18): it hits, ×2.
pub fn free_crit_odds(
    cfg: &WoundsConfig,
    terms: &DamageTerms,
    dice: &Distribution,
) -> Result<Odds, OddsError> {
    let (damage, wound, fatal) = hit_odds(cfg, terms, dice, cfg.crit_multiplier)?;
    Ok(Odds {
        hit: 1.0,
        crit: 1.0,
        fumble: 0.0,
        tragedy: 0.0,
        fatal_blow: 0.0,
        wound,
        fatal_bonus: fatal,
        damage: Outcomes::values(damage),
    })
}

/// The exact odds of an attack with `modifier` against `defense` whose dice (weapon
/// and sneak) total `dice`, computed from the same rules as [`classify`],
/// [`crit_chain`], [`retaliation`] and [`deal`].
pub fn odds(
    cfg: &WoundsConfig,
    modifier: i64,
    defense: i64,
    terms: &DamageTerms,
    dice: &Distribution,
) -> Result<Odds, OddsError> {
    let natural = Distribution::die(20);
    let crits = crit_outcomes(cfg)?;
    let p_super = at_least(cfg.super_die, cfg.super_face);
    let p_decisive = at_least(cfg.decisive_die, cfg.decisive_face);
    let hit = |m: i64| hit_odds(cfg, terms, dice, m);
    let (mut p_hit, mut p_crit, mut p_fumble) = (0.0, 0.0, 0.0);
    let (mut wound, mut fatal) = (0.0, 0.0);
    let mut parts: Vec<(f64, Outcomes<Defeated>)> = Vec::new();
    let plain = hit(1)?;
    for (n, p) in natural.outcomes() {
        match classify(cfg, n, modifier, defense) {
            Roll::Fumble => {
                p_fumble += p;
                parts.push((p, Outcomes::value(0)));
            }
            Roll::Miss => parts.push((p, Outcomes::value(0))),
            Roll::Hit => {
                p_hit += p;
                wound += p * plain.1;
                fatal += p * plain.2;
                parts.push((p, Outcomes::values(plain.0.clone())));
            }
            Roll::Crit => {
                p_hit += p;
                p_crit += p;
                let mut crit_parts = Vec::new();
                for (o, q) in crits.outcomes() {
                    match o {
                        Outcome::Value(m) => {
                            let (d, w, f) = hit(m)?;
                            wound += p * q * w;
                            fatal += p * q * f;
                            crit_parts.push((q, Outcomes::values(d)));
                        }
                        Outcome::Special(s) => crit_parts.push((q, Outcomes::special(s))),
                    }
                }
                parts.push((p, Outcomes::mixture(&crit_parts)?));
            }
        }
    }
    Ok(Odds {
        hit: p_hit,
        crit: p_crit,
        fumble: p_fumble,
        tragedy: p_fumble * p_super,
        fatal_blow: p_fumble * p_super * p_decisive,
        wound,
        fatal_bonus: fatal,
        damage: Outcomes::mixture(&parts)?,
    })
}

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
    if flanks(from, to, allies) {
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
    let defense = defense(config, agility(world, target), footing, dodge);
    let strength = me.strength + m.strength;
    let terms = DamageTerms {
        flat: if header.spell {
            0
        } else {
            flat_damage(
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
        let roll = classify(&config, i64::from(natural), s.modifier, s.defense);
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
    let net = net_damage(r.total, &s.terms, multiplier);
    let fatal_face = if rolls_fatal_die(&config, &s.terms, net) {
        Some(world.resource_mut::<Dice>().roll(config.fatal_die)?)
    } else {
        None
    };
    let dealt = deal(&config, &s.terms, r.total, multiplier, fatal_face);
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
    let mut fumble = Fumble::AutoFail;
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
        fumble = Fumble::Tragedy;
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
            fumble = Fumble::FatalBlow;
        }
    }
    if !able(world, target) {
        return Ok(());
    }
    let in_zone = in_zone_of(world, target, cell_of(world, attacker));
    let slots = wu(world, target).slots.left();
    match retaliation(fumble, in_zone, false, slots) {
        Retaliation::None => {
            if in_zone && fumble == Fumble::AutoFail {
                emit(
                    world,
                    WoundsEvent::NoSlot {
                        unit: target,
                        mover: attacker,
                    },
                );
            }
        }
        Retaliation::FreeHit => {
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
        Retaliation::FreeCrit => {
            super::free_hit::strike(world, target, attacker, Kind::FreeCrit, None);
        }
        Retaliation::FatalBlow => {
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
    swing_value(world, target, &s)
}

/// The value in HP of swing `s` at `target` (see [`aim_value`]): its expected damage
/// (an instant defeat and overkill count as the HP left), half the HP left again
/// for its chance to defeat, and its aim's effect for the chance of a wound that
/// doesn't defeat.
pub fn swing_value(world: &World, target: UnitId, s: &Swing) -> Option<f64> {
    let aim = s.aim;
    let o = cached_odds(rules(world), s)?;
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
pub fn damage_and_kill(o: &Odds, hp: i32) -> (f64, f64) {
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
    let kill = o.damage.prob_at_least(i64::from(hp)) + o.damage.prob_special(&Defeated);
    (expected, kill)
}

/// The exact odds of a swing, computed once per thread: the AI and the previews ask
/// the same few attacks many times. The key holds the configuration's fingerprint,
/// so battles under different constants in one thread each get their own odds.
/// Emptied past a few thousand entries.
pub fn cached_odds(config: &WoundsConfig, s: &Swing) -> Option<std::sync::Arc<Odds>> {
    use std::cell::RefCell;
    use std::collections::HashMap;
    type Key = (u64, i64, i64, DamageTerms, DiceExpr, bool);
    thread_local! {
        static CACHE: RefCell<HashMap<Key, std::sync::Arc<Odds>>> =
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
        free_crit_odds(config, &s.terms, &dist).ok()?
    } else {
        odds(config, s.modifier, s.defense, &s.terms, &dist).ok()?
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ruleset::config::load_default;

    fn cfg() -> WoundsConfig {
        load_default().unwrap()
    }

    /// The W-EX-1 attacker's longsword hit on the W-EX-1 target: Strength +2,
    /// armor 1.
    fn ex1(aim: Aim) -> DamageTerms {
        DamageTerms {
            flat: flat_damage(2, 0, true, false),
            armor: 1,
            aim,
        }
    }

    fn close(a: f64, b: f64) {
        assert!((a - b).abs() < 1e-12, "{a} != {b}");
    }

    /// W-EX-6 / W-13 / W-29 / W-30: Agility +3 is 13, flat-footed 5, prone 8;
    /// Agility −2 prone is 3.
    #[test]
    fn w_ex_6_defense_numbers() {
        let c = cfg();
        assert_eq!(defense(&c, 3, Footing::Normal, 0), 13);
        assert_eq!(defense(&c, 3, Footing::FlatFooted, 0), 5);
        assert_eq!(defense(&c, 3, Footing::Prone, 0), 8);
        assert_eq!(defense(&c, -2, Footing::Prone, 0), 3);
    }

    /// W-GAP-13: a dodge boost raises the defense while dodging, not while
    /// flat-footed or prone; two boosts stack.
    #[test]
    fn w_gap_13_dodge_only_when_dodging() {
        let c = cfg();
        assert_eq!(defense(&c, 3, Footing::Normal, 2 * c.ba_dodge_bonus), 15);
        assert_eq!(defense(&c, 3, Footing::FlatFooted, 1), 5);
        assert_eq!(defense(&c, 3, Footing::Prone, 1), 8);
    }

    /// W-20 / W-22 / W-GAP-05: a natural 20 hits against any defense, a natural 1
    /// misses against any.
    #[test]
    fn w_gap_05_natural_20_hits_natural_1_misses() {
        let c = cfg();
        assert_eq!(classify(&c, 20, -5, 40), Roll::Crit);
        assert_eq!(classify(&c, 1, 50, 5), Roll::Fumble);
        assert_eq!(classify(&c, 19, 0, 20), Roll::Miss);
    }

    /// W-15 / W-GAP-17: +1 when an ally stands directly opposite across the target,
    /// orthogonally or diagonally; nowhere else.
    #[test]
    fn w_gap_17_flanking_square() {
        let t = Cell { x: 3, y: 5 };
        assert_eq!(flanking_square(Cell { x: 2, y: 5 }, t), Cell { x: 4, y: 5 });
        assert_eq!(flanking_square(Cell { x: 2, y: 4 }, t), Cell { x: 4, y: 6 });
        assert!(flanks(
            Cell { x: 2, y: 4 },
            t,
            [Cell { x: 0, y: 0 }, Cell { x: 4, y: 6 }]
        ));
        assert!(!flanks(Cell { x: 2, y: 4 }, t, [Cell { x: 4, y: 5 }]));
    }

    /// W-EX-1 / W-13 / W-18 / W-GAP-04: d20 = 9 + 3 = 12 ≥ 12 hits; d8 = 5 →
    /// 5 + 2 − 1 = 6 net: a wound. d8 = 4 → 5: no wound.
    #[test]
    fn w_ex_1_hit_and_wound() {
        let c = cfg();
        let m = 3 + Aim::Slowing.accuracy_bonus(&c);
        assert_eq!(
            classify(&c, 9, m, defense(&c, 2, Footing::Normal, 0)),
            Roll::Hit
        );
        let t = ex1(Aim::Slowing);
        assert_eq!(
            deal(&c, &t, 5, 1, None),
            Dealt {
                damage: 6,
                wound: true,
                fatal: false
            }
        );
        assert_eq!(
            deal(&c, &t, 4, 1, None),
            Dealt {
                damage: 5,
                wound: false,
                fatal: false
            }
        );
    }

    /// W-EX-3 / W-21 / W-GAP-04 / W-GAP-06: d20 = 20, d4 = 4 (super), d6 = 2 → ×4;
    /// d8 = 3: (3 + 2) × 4 − 1 = 19, a Fatal wound, d4 = 4 → 35. A d6 of 6 defeats
    /// instantly.
    #[test]
    fn w_ex_3_crit_chain_and_fatal() {
        let c = cfg();
        assert_eq!(crit_chain(&c, 4, Some(2)), Crit::Multiplier(4));
        assert_eq!(crit_chain(&c, 4, Some(6)), Crit::Defeated);
        assert_eq!(crit_chain(&c, 3, None), Crit::Multiplier(2));
        let t = ex1(Aim::Fatal);
        assert!(rolls_fatal_die(&c, &t, net_damage(3, &t, 4)));
        assert_eq!(
            deal(&c, &t, 3, 4, Some(4)),
            Dealt {
                damage: 35,
                wound: true,
                fatal: true
            }
        );
        assert_eq!(deal(&c, &t, 3, 4, Some(3)).damage, 19);
        // The 16 is neither multiplied nor reduced, and needs a wound.
        assert_eq!(
            deal(&c, &t, 1, 1, Some(4)),
            Dealt {
                damage: 2,
                wound: false,
                fatal: false
            }
        );
    }

    /// W-GAP-04 / W-GAP-03 / W-16: sneak dice are multiplied, armor comes off after,
    /// net damage is never negative; ranged weapons add no Strength (W-GAP-01), the
    /// extra attack neither (W-10).
    #[test]
    fn w_gap_04_damage_steps() {
        let t = DamageTerms {
            flat: 1,
            armor: 3,
            aim: Aim::CenterMass,
        };
        // d6 = 2 and sneak d4 = 3, Strength +1, crit: (2 + 3 + 1) × 2 − 3 = 9.
        assert_eq!(net_damage(5, &t, 2), 9);
        assert_eq!(net_damage(1, &t, 1), 0);
        assert_eq!(flat_damage(2, 1, true, false), 3);
        assert_eq!(flat_damage(2, 1, false, false), 0);
        assert_eq!(flat_damage(2, 1, true, true), 1);
    }

    /// W-GAP-18 / W-GAP-14: outside the melee zone a tragedy only misses; a free
    /// hit's natural 1 never chains. Inside it, a plain auto fail gives a free hit
    /// only with a slot left, a tragedy a free crit without one, a fatal blow kills.
    #[test]
    fn w_gap_18_tragedy_needs_the_melee_zone() {
        for f in [Fumble::AutoFail, Fumble::Tragedy, Fumble::FatalBlow] {
            assert_eq!(retaliation(f, false, false, 3), Retaliation::None);
            assert_eq!(retaliation(f, true, true, 3), Retaliation::None);
        }
        let inside = |f, slots| retaliation(f, true, false, slots);
        assert_eq!(inside(Fumble::AutoFail, 0), Retaliation::None);
        assert_eq!(inside(Fumble::AutoFail, 1), Retaliation::FreeHit);
        assert_eq!(inside(Fumble::Tragedy, 0), Retaliation::FreeCrit);
        assert_eq!(inside(Fumble::FatalBlow, 0), Retaliation::FatalBlow);
    }

    /// W-EX-1 odds, exact: +3 against 12 aiming Slowing hits on 9-20 (12/20); Center
    /// Mass on 8-20. Damage: a plain hit d8 + 1; a crit 2d8... ×2 − 1 (3/4), ×4 − 1
    /// (5/24), or defeated (1/24); a wound on net ≥ 6.
    #[test]
    fn w_ex_1_exact_odds() {
        let c = cfg();
        let d8 = Distribution::die(8);
        let m = 3 + Aim::Slowing.accuracy_bonus(&c);
        let o = odds(&c, m, 12, &ex1(Aim::Slowing), &d8).unwrap();
        close(o.hit, 12.0 / 20.0);
        close(o.crit, 1.0 / 20.0);
        close(o.fumble, 1.0 / 20.0);
        close(o.tragedy, 1.0 / 80.0);
        close(o.fatal_blow, 1.0 / 480.0);
        close(o.damage.prob(0), 8.0 / 20.0);
        close(o.damage.prob(2), 11.0 / 20.0 / 8.0);
        close(o.damage.prob_special(&Defeated), 1.0 / 480.0);
        // 39 = (8 + 2) × 4 − 1, a super critical's best.
        close(o.damage.prob(39), 1.0 / 20.0 * 5.0 / 24.0 / 8.0);
        // Hit: d8 ≥ 5 (1/2); crit ×2: d8 ≥ 2 (7/8); ×4: always.
        close(o.wound, 611.0 / 1920.0);
        close(o.fatal_bonus, 0.0);
        let cm = odds(
            &c,
            3 + Aim::CenterMass.accuracy_bonus(&c),
            12,
            &ex1(Aim::CenterMass),
            &d8,
        )
        .unwrap();
        close(cm.hit, 13.0 / 20.0);
    }

    /// W-17 / W-GAP-04 / W-GAP-06: aimed Fatal, a quarter of the wounds add 16; 35
    /// comes from a crit ×2 with d8 = 8 or a super critical with d8 = 3, each with
    /// the Fatal 4, or a super critical with d8 = 7 without it.
    #[test]
    fn w_17_fatal_odds() {
        let c = cfg();
        let m = 3 + Aim::Fatal.accuracy_bonus(&c);
        let o = odds(&c, m, 12, &ex1(Aim::Fatal), &Distribution::die(8)).unwrap();
        close(o.wound, 611.0 / 1920.0);
        close(o.fatal_bonus, 611.0 / 1920.0 / 4.0);
        let crit = 1.0 / 20.0;
        close(
            o.damage.prob(35),
            crit * 3.0 / 4.0 / 8.0 / 4.0
                + crit * 5.0 / 24.0 / 8.0 / 4.0
                + crit * 5.0 / 24.0 / 8.0 * 3.0 / 4.0,
        );
        let total: f64 = o.damage.outcomes().iter().map(|(_, p)| p).sum();
        close(total, 1.0);
    }
}
