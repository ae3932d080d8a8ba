//! The arithmetic of a `wounds` attack, once, for the rules and the previews: the
//! defense number (W-13, W-29, W-30, W-GAP-13), flanking (W-15 / W-GAP-17), the
//! hit with its natural 20 and natural 1 (W-20, W-22, W-GAP-05), the crit chain
//! (W-21), what the attacked unit may do back after a natural 1 (W-23, W-24,
//! W-GAP-18), and the damage
//! steps (W-18, W-GAP-04). The functions on faces are what the systems roll, in the
//! order the dice are drawn (RULES.md §0): d20, the chain's d4 then d6, the damage
//! dice, the Fatal d4. [`odds`] gives the exact distribution of the same numbers.

use crate::engine::board::Cell;
use crate::engine::odds::{
    ChainEffect, ChainStep, Distribution, OddsError, Outcome, Outcomes, chain,
};

use super::aim::Aim;
use super::config::WoundsConfig;

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
