//! The arithmetic of an `actfast` attack, once, for the rules and the previews: the
//! pool size (Class + STR or DEX, A-07, plus the conditions' dice, A-09, A-18 …
//! A-24, which add up, A-GAP-11), reading the rolled dice (the highest die on the
//! skill-check scale, A-08, A-GAP-03; a pool of 0 or fewer reads the lowest of 2d6
//! and is never Critical, A-GAP-04; an Immobilized target is hit automatically,
//! A-GAP-12), and damage (armor per die floored at 0, a Partial halved after armor,
//! a Critical's extra die, A-15, A-GAP-03, A-GAP-05). The functions on faces are
//! what the systems roll, in the order the dice are drawn (RULES.md §0): the pool,
//! then the damage dice. [`grade_odds`] and [`damage_distribution`] give the exact
//! odds of the same numbers.

use std::collections::BTreeSet;

use crate::engine::odds::{Distribution, OddsError, count_at_least, highest_die, lowest_die};

use super::config::ActfastConfig;
use super::stats::{AttackKind, Condition};

/// How a roll reads on the skill-check scale (A-08, A-GAP-03).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Grade {
    /// 1–3: a miss.
    Failure,
    /// 4–5: a hit, damage halved after armor.
    Partial,
    /// 6: a hit, full damage.
    Success,
    /// Two or more 6s: a hit with an extra damage die.
    Critical,
}

/// The dice conditions add to an attack of `kind` (A-09, A-18 … A-24): each
/// condition of the attacker's own (Restrained −2d) and each of the target's
/// (Prone ∓2d, Grappled +1d melee, Fear +1d), each distinct condition once; they add
/// up (A-GAP-11).
pub fn condition_dice(
    cfg: &ActfastConfig,
    kind: AttackKind,
    attacker: &[Condition],
    target: &[Condition],
) -> i32 {
    let own: BTreeSet<Condition> = attacker.iter().copied().collect();
    let against: BTreeSet<Condition> = target.iter().copied().collect();
    own.iter().map(|c| c.dice_own(cfg)).sum::<i32>()
        + against
            .iter()
            .map(|c| c.dice_against(cfg, kind))
            .sum::<i32>()
}

/// The pool of an attack: Class bonus + `stat` (STR for melee, DEX
/// for ranged) + the conditions' dice. It may be 0 or less (see [`throw`]).
pub fn attack_pool(
    cfg: &ActfastConfig,
    class: i32,
    stat: i32,
    kind: AttackKind,
    attacker: &[Condition],
    target: &[Condition],
) -> i32 {
    class + stat + condition_dice(cfg, kind, attacker, target)
}

/// The pool of an escape from a grapple or a restraint: Class bonus + STR
/// (A-GAP-11).
pub fn escape_pool(class: i32, strength: i32) -> i32 {
    class + strength
}

/// What to roll for a pool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Throw {
    /// How many dice.
    pub dice: u32,
    /// Whether the lowest die is read (a pool of 0 or fewer, A-GAP-04) rather than
    /// the highest.
    pub lowest: bool,
}

/// The dice a pool of `pool` rolls: that many, read highest; for 0 or fewer,
/// [`ActfastConfig::empty_pool_dice`] read lowest (A-GAP-04).
pub fn throw(cfg: &ActfastConfig, pool: i32) -> Throw {
    match u32::try_from(pool) {
        Ok(n) if n >= 1 => Throw {
            dice: n,
            lowest: false,
        },
        _ => Throw {
            dice: cfg.empty_pool_dice,
            lowest: true,
        },
    }
}

/// A rolled pool, read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reading {
    /// The die read: the highest (the lowest for a pool of 0 or fewer).
    pub face: u32,
    /// What it means.
    pub grade: Grade,
}

/// Whether a target's conditions make attacks against it succeed (A-21, A-GAP-12).
pub fn auto_success(cfg: &ActfastConfig, target: &[Condition]) -> bool {
    cfg.immobilized_auto_success && target.contains(&Condition::Immobilized)
}

/// The grade of a die read `face` when `at_success` rolled dice show
/// [`ActfastConfig::success_at`] or more (A-GAP-03), for a pool of `pool`
/// (A-GAP-04: 0 or fewer is never Critical by default); `auto` makes anything short
/// of a Success one (A-GAP-12).
fn grade(cfg: &ActfastConfig, pool: i32, face: u32, at_success: u32, auto: bool) -> Grade {
    let may_crit = pool >= 1 || cfg.empty_pool_critical;
    let g = if face >= cfg.success_at {
        if may_crit && at_success >= cfg.critical_count {
            Grade::Critical
        } else {
            Grade::Success
        }
    } else if face >= cfg.partial_at {
        Grade::Partial
    } else {
        Grade::Failure
    };
    if auto { g.max(Grade::Success) } else { g }
}

/// Reads the rolled `faces` of a pool of `pool` (A-08, A-GAP-03, A-GAP-04, A-EX-6):
/// the highest die (the lowest for 0 or fewer) on the skill-check scale; two or more
/// dice at [`ActfastConfig::success_at`] make a Critical. `auto_success` (an
/// Immobilized target, A-GAP-12) turns a Failure or a Partial into a Success; a
/// Critical stays one. An empty `faces` reads as a Failure on face 0.
pub fn read(cfg: &ActfastConfig, pool: i32, faces: &[u32], auto_success: bool) -> Reading {
    let t = throw(cfg, pool);
    let face = if t.lowest {
        faces.iter().copied().min()
    } else {
        faces.iter().copied().max()
    }
    .unwrap_or(0);
    let at_success = faces.iter().filter(|&&f| f >= cfg.success_at).count() as u32;
    Reading {
        face,
        grade: grade(cfg, pool, face, at_success, auto_success),
    }
}

/// Whether an escape pool's `faces` free the unit: the die read reaches
/// [`ActfastConfig::escape_target`] (A-GAP-11: Partial or better).
pub fn escapes(cfg: &ActfastConfig, pool: i32, faces: &[u32]) -> bool {
    read(cfg, pool, faces, false).face >= cfg.escape_target
}

/// How many damage dice a hit of `grade` rolls with a weapon of `weapon_dice` dice:
/// none on a Failure, one more on a Critical (A-GAP-03).
pub fn damage_dice(cfg: &ActfastConfig, weapon_dice: u32, grade: Grade) -> u32 {
    match grade {
        Grade::Failure => 0,
        Grade::Partial | Grade::Success => weapon_dice,
        Grade::Critical => weapon_dice + cfg.critical_extra_dice,
    }
}

/// One damage die after armor: reduced by `armor`, floored at 0 (A-15, A-GAP-05).
pub fn armored(face: u32, armor: i32) -> i64 {
    (i64::from(face) - i64::from(armor)).max(0)
}

/// The damage of a hit of `grade` whose damage dice show `faces`, against `armor`
/// (A-15, A-GAP-03, A-GAP-05, A-EX-3, A-EX-6): every die reduced by armor and
/// floored at 0, summed; a Partial divided by [`ActfastConfig::partial_divisor`],
/// rounded down; a Failure deals none.
pub fn damage(cfg: &ActfastConfig, grade: Grade, faces: &[u32], armor: i32) -> i64 {
    let total: i64 = faces.iter().map(|&f| armored(f, armor)).sum();
    match grade {
        Grade::Failure => 0,
        Grade::Partial => total.div_euclid(i64::from(cfg.partial_divisor)),
        Grade::Success | Grade::Critical => total,
    }
}

/// Burning's damage at the start of the unit's turn (A-25, A-GAP-05, A-EX-5): the
/// die's face, reduced by armor when [`ActfastConfig::burning_armor`] is on.
pub fn burning_damage(cfg: &ActfastConfig, face: u32, armor: i32) -> i64 {
    if cfg.burning_armor {
        armored(face, armor)
    } else {
        i64::from(face)
    }
}

/// The exact distribution of the die a pool of `pool` reads (A-08, A-GAP-04): the
/// highest of `pool` dice, or the lowest of the empty-pool dice.
pub fn read_distribution(cfg: &ActfastConfig, pool: i32) -> Result<Distribution, OddsError> {
    let t = throw(cfg, pool);
    if t.lowest {
        lowest_die(t.dice, cfg.pool_die)
    } else {
        highest_die(t.dice, cfg.pool_die)
    }
}

/// The exact chance of each grade of an attack.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GradeOdds {
    /// Chance of a Failure (a miss).
    pub failure: f64,
    /// Chance of a Partial hit.
    pub partial: f64,
    /// Chance of a Success.
    pub success: f64,
    /// Chance of a Critical.
    pub critical: f64,
}

impl GradeOdds {
    /// The chance of `grade`.
    pub fn of(&self, grade: Grade) -> f64 {
        match grade {
            Grade::Failure => self.failure,
            Grade::Partial => self.partial,
            Grade::Success => self.success,
            Grade::Critical => self.critical,
        }
    }

    /// The chance of a hit of any grade.
    pub fn hit(&self) -> f64 {
        self.partial + self.success + self.critical
    }
}

/// The exact chance of each grade for a pool of `pool` (A-08, A-GAP-03, A-GAP-04,
/// A-GAP-12), as [`read`] grades every roll.
pub fn grade_odds(
    cfg: &ActfastConfig,
    pool: i32,
    auto_success: bool,
) -> Result<GradeOdds, OddsError> {
    let t = throw(cfg, pool);
    let face = read_distribution(cfg, pool)?;
    let reach_success = face.prob_at_least(i64::from(cfg.success_at));
    // A Critical needs the die read at success_at (which, reading the highest, one
    // die at success_at already gives) and critical_count dice there.
    let critical = if pool < 1 && !cfg.empty_pool_critical {
        0.0
    } else if t.lowest {
        // Reading the lowest at success_at puts every die there.
        if t.dice >= cfg.critical_count {
            reach_success
        } else {
            0.0
        }
    } else {
        count_at_least(t.dice, cfg.pool_die, cfg.success_at)?
            .prob_at_least(i64::from(cfg.critical_count))
    };
    let failure = face.prob_at_most(i64::from(cfg.partial_at) - 1);
    let partial = 1.0 - failure - reach_success;
    let success = reach_success - critical;
    Ok(if auto_success {
        GradeOdds {
            failure: 0.0,
            partial: 0.0,
            success: success + partial + failure,
            critical,
        }
    } else {
        GradeOdds {
            failure,
            partial,
            success,
            critical,
        }
    })
}

/// The exact damage of `dice` dice with `sides` sides, each reduced by `armor` and
/// floored at 0 (A-15, A-GAP-05).
pub fn armored_dice(dice: u32, sides: u32, armor: i32) -> Result<Distribution, OddsError> {
    if dice == 0 {
        return Ok(Distribution::constant(0));
    }
    Distribution::die(sides)
        .map(|f| (f - i64::from(armor)).max(0))?
        .sum_n(dice)
}

/// The exact damage of one attack with a pool of `pool` and a weapon of `weapon`
/// `(dice, sides)` against `armor`, misses included as 0 (A-15, A-GAP-03,
/// A-GAP-05): what [`read`], [`damage_dice`] and [`damage`] give over every roll.
pub fn damage_distribution(
    cfg: &ActfastConfig,
    pool: i32,
    weapon: (u32, u32),
    armor: i32,
    auto_success: bool,
) -> Result<Distribution, OddsError> {
    let odds = grade_odds(cfg, pool, auto_success)?;
    let (n, sides) = weapon;
    let full = armored_dice(n, sides, armor)?;
    let half = full.div_floor(cfg.partial_divisor);
    let crit = armored_dice(damage_dice(cfg, n, Grade::Critical), sides, armor)?;
    let miss = Distribution::constant(0);
    Distribution::mixture(&[
        (odds.failure, &miss),
        (odds.partial, &half),
        (odds.success, &full),
        (odds.critical, &crit),
    ])
}

/// The expected damage of one attack after armor (see [`damage_distribution`]).
pub fn expected_damage(
    cfg: &ActfastConfig,
    pool: i32,
    weapon: (u32, u32),
    armor: i32,
    auto_success: bool,
) -> Result<f64, OddsError> {
    Ok(damage_distribution(cfg, pool, weapon, armor, auto_success)?.mean())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ruleset::config::load_default;
    use std::collections::BTreeMap;

    use AttackKind::{Melee, Ranged};
    use Condition::*;

    fn cfg() -> ActfastConfig {
        load_default().unwrap()
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    /// Every sequence of `n` faces of a `sides`-sided die.
    fn all_faces(n: u32, sides: u32) -> Vec<Vec<u32>> {
        let mut out = vec![Vec::new()];
        for _ in 0..n {
            out = out
                .into_iter()
                .flat_map(|v| {
                    (1..=sides).map(move |f| {
                        let mut w = v.clone();
                        w.push(f);
                        w
                    })
                })
                .collect();
        }
        out
    }

    /// A-EX-2 / A-07 / A-09 / A-18 / A-19 / A-20 / A-24: Class 1, STR 2, DEX 1.
    #[test]
    fn a_ex_2_pools() {
        let c = cfg();
        // Melee vs Prone: 3 + 2 = 5d6; faces 1, 3, 2, 5, 4 read 5.
        let p = attack_pool(&c, 1, 2, Melee, &[], &[Prone]);
        assert_eq!(p, 5, "A-18");
        assert_eq!(
            throw(&c, p),
            Throw {
                dice: 5,
                lowest: false
            }
        );
        assert_eq!(read(&c, p, &[1, 3, 2, 5, 4], false).face, 5, "A-08");
        // Melee vs Grappled and Fearful: 3 + 1 + 1 = 5d6 (A-GAP-11: they add up).
        assert_eq!(attack_pool(&c, 1, 2, Melee, &[], &[Grappled, Fear]), 5);
        // A Restrained attacker, melee vs Prone: 3 − 2 + 2 = 3d6.
        assert_eq!(attack_pool(&c, 1, 2, Melee, &[Restrained], &[Prone]), 3);
        // Ranged vs Prone: 2 − 2 = 0 → 2d6 read lowest: faces 6, 2 read 2.
        let r = attack_pool(&c, 1, 1, Ranged, &[], &[Prone]);
        assert_eq!(r, 0);
        assert_eq!(
            throw(&c, r),
            Throw {
                dice: 2,
                lowest: true
            }
        );
        assert_eq!(
            read(&c, r, &[6, 2], false),
            Reading {
                face: 2,
                grade: Grade::Failure
            }
        );
    }

    /// A-09 / A-19 / A-24 / A-GAP-11: +Nd adds N dice, −Nd removes them; a ranged
    /// attack ignores Grappled, not Fear; a condition counts once however often it
    /// is listed; conditions that add no dice change nothing.
    #[test]
    fn a_09_dice_modifiers() {
        let c = cfg();
        assert_eq!(attack_pool(&c, 2, 1, Ranged, &[], &[Grappled]), 3, "A-19");
        assert_eq!(attack_pool(&c, 2, 1, Ranged, &[], &[Fear]), 4, "A-24");
        assert_eq!(attack_pool(&c, 2, 1, Melee, &[], &[Prone, Prone]), 5);
        assert_eq!(
            attack_pool(&c, 2, 1, Melee, &[Slow, Burning, Stunned], &[Slow, Burning]),
            3
        );
        assert_eq!(attack_pool(&c, 0, 1, Ranged, &[Restrained], &[Prone]), -3);
        assert_eq!(
            throw(&c, -3),
            Throw {
                dice: 2,
                lowest: true
            },
            "A-GAP-04"
        );
    }

    /// A-EX-6 / A-GAP-03 / A-08: [2, 6, 6] Critical; [6, 4] Success; [5, 3]
    /// Partial; [3, 1, 2] Failure; a Partial 1d6 = 5 vs Armor 1 deals 2.
    #[test]
    fn a_ex_6_reading_the_highest_die() {
        let c = cfg();
        let grades: Vec<Grade> = [&[2, 6, 6][..], &[6, 4], &[5, 3], &[3, 1, 2]]
            .iter()
            .map(|f| read(&c, f.len() as i32, f, false).grade)
            .collect();
        assert_eq!(
            grades,
            [
                Grade::Critical,
                Grade::Success,
                Grade::Partial,
                Grade::Failure
            ]
        );
        assert_eq!(damage(&c, Grade::Partial, &[5], 1), 2);
        // A Critical rolls one more damage die; a Failure none.
        assert_eq!(damage_dice(&c, 2, Grade::Critical), 3);
        assert_eq!(damage_dice(&c, 2, Grade::Success), 2);
        assert_eq!(damage_dice(&c, 2, Grade::Failure), 0);
        assert_eq!(damage(&c, Grade::Failure, &[6], 0), 0);
    }

    /// A-EX-3 / A-15 / A-GAP-05: 2d6 showing 4, 1: Armor 0 → 5, 1 → 3, 2 → 2,
    /// 4 → 0 (each die floored at 0).
    #[test]
    fn a_ex_3_armor_per_die() {
        let c = cfg();
        let dealt: Vec<i64> = [0, 1, 2, 4]
            .iter()
            .map(|&a| damage(&c, Grade::Success, &[4, 1], a))
            .collect();
        assert_eq!(dealt, [5, 3, 2, 0]);
    }

    /// A-GAP-04 / A-EX-2: a pool of 0 or fewer reads the lowest of 2d6 and is
    /// never Critical (a switch makes it one on two 6s).
    #[test]
    fn a_gap_04_empty_pool() {
        let mut c = cfg();
        assert_eq!(read(&c, 0, &[6, 6], false).grade, Grade::Success);
        assert_eq!(read(&c, -2, &[5, 4], false).grade, Grade::Partial);
        assert_eq!(read(&c, 0, &[6, 3], false).grade, Grade::Failure);
        c.empty_pool_critical = true;
        assert_eq!(read(&c, 0, &[6, 6], false).grade, Grade::Critical);
        assert_eq!(read(&c, 0, &[6, 5], false).grade, Grade::Partial);
    }

    /// A-21 / A-GAP-12: attacks against an Immobilized unit succeed; two 6s still
    /// make a Critical; the switch turns it off.
    #[test]
    fn a_gap_12_immobilized_auto_success() {
        let mut c = cfg();
        let auto = auto_success(&c, &[Prone, Immobilized]);
        assert!(auto);
        assert!(!auto_success(&c, &[Prone]));
        assert_eq!(read(&c, 2, &[1, 2], auto).grade, Grade::Success);
        assert_eq!(read(&c, 2, &[5, 2], auto).grade, Grade::Success);
        assert_eq!(read(&c, 3, &[6, 1, 6], auto).grade, Grade::Critical);
        assert_eq!(read(&c, 0, &[1, 1], auto).grade, Grade::Success);
        c.immobilized_auto_success = false;
        assert!(!auto_success(&c, &[Immobilized]));
    }

    /// A-GAP-11: escaping takes Class + STR dice and a 4 or better.
    #[test]
    fn a_gap_11_escape() {
        let c = cfg();
        let p = escape_pool(1, 1);
        assert_eq!(p, 2);
        assert!(escapes(&c, p, &[4, 1]));
        assert!(!escapes(&c, p, &[3, 3]));
        // A pool of 0 reads the lowest of 2d6.
        assert!(!escapes(&c, escape_pool(0, 0), &[6, 3]));
        assert!(escapes(&c, escape_pool(-1, 0), &[5, 4]));
    }

    /// A-EX-5 / A-25 / A-GAP-05: Burning 1d6 = 5 against Armor 1 deals 4; armor
    /// can be switched off for it.
    #[test]
    fn a_ex_5_burning_damage() {
        let mut c = cfg();
        assert_eq!(burning_damage(&c, 5, 1), 4);
        assert_eq!(burning_damage(&c, 1, 3), 0);
        c.burning_armor = false;
        assert_eq!(burning_damage(&c, 5, 1), 5);
    }

    /// A-08 / A-GAP-03 / A-GAP-04: the exact odds of 2d6 (failure 9/36, partial
    /// 16/36, success 10/36, critical 1/36), of 1d6 and of an empty pool (the
    /// lowest of 2d6: failure 27/36, partial 8/36, success 1/36, never critical).
    #[test]
    fn a_gap_03_exact_grade_odds() {
        let c = cfg();
        let two = grade_odds(&c, 2, false).unwrap();
        assert!(close(two.failure, 9.0 / 36.0), "{two:?}");
        assert!(close(two.partial, 16.0 / 36.0), "{two:?}");
        assert!(close(two.success, 10.0 / 36.0), "{two:?}");
        assert!(close(two.critical, 1.0 / 36.0), "{two:?}");
        let one = grade_odds(&c, 1, false).unwrap();
        assert!(close(one.failure, 0.5) && close(one.partial, 2.0 / 6.0));
        assert!(close(one.success, 1.0 / 6.0) && one.critical == 0.0);
        let zero = grade_odds(&c, 0, false).unwrap();
        assert!(close(zero.failure, 27.0 / 36.0), "{zero:?}");
        assert!(close(zero.partial, 8.0 / 36.0), "{zero:?}");
        assert!(close(zero.success, 1.0 / 36.0), "{zero:?}");
        assert_eq!(zero.critical, 0.0);
        let read = read_distribution(&c, 2).unwrap();
        assert!(close(read.prob(6), 11.0 / 36.0));
        // A-GAP-12: against an Immobilized target every roll hits.
        let auto = grade_odds(&c, 2, true).unwrap();
        assert!(close(auto.hit(), 1.0) && close(auto.critical, 1.0 / 36.0));
    }

    /// A-GAP-03 / A-GAP-05: one die, 1d6 weapon, no armor: a Partial (2/6) deals
    /// floor(d6 / 2), mean 1.5; a Success (1/6) 3.5 → 13/12 expected.
    #[test]
    fn a_gap_05_expected_damage() {
        let c = cfg();
        let e = expected_damage(&c, 1, (1, 6), 0, false).unwrap();
        assert!(close(e, 13.0 / 12.0), "{e}");
        // Armor 6 stops every d6.
        assert_eq!(expected_damage(&c, 3, (2, 6), 6, false).unwrap(), 0.0);
    }

    /// A-08 / A-GAP-03 / A-GAP-04 / A-GAP-12 / A-15: over every roll of pools −1 … 4
    /// and their damage dice, [`read`], [`damage_dice`] and [`damage`] give exactly
    /// [`grade_odds`] and [`damage_distribution`], for 1d6 and 2d6 weapons, armor
    /// 0 … 2, with and without an Immobilized target.
    #[test]
    fn a_08_exact_odds_match_every_roll() {
        let c = cfg();
        for pool in -1..=4 {
            let t = throw(&c, pool);
            let rolls = all_faces(t.dice, 6);
            let p_roll = 1.0 / rolls.len() as f64;
            for auto in [false, true] {
                let mut grades: BTreeMap<Grade, f64> = BTreeMap::new();
                for f in &rolls {
                    *grades.entry(read(&c, pool, f, auto).grade).or_default() += p_roll;
                }
                let odds = grade_odds(&c, pool, auto).unwrap();
                for g in [
                    Grade::Failure,
                    Grade::Partial,
                    Grade::Success,
                    Grade::Critical,
                ] {
                    let brute = grades.get(&g).copied().unwrap_or(0.0);
                    assert!(close(odds.of(g), brute), "pool {pool} {g:?}: {odds:?}");
                }
                for weapon in [(1, 6), (2, 6)] {
                    for armor in 0..=2 {
                        let mut dist: BTreeMap<i64, f64> = BTreeMap::new();
                        for f in &rolls {
                            let g = read(&c, pool, f, auto).grade;
                            let dmg_rolls = all_faces(damage_dice(&c, weapon.0, g), weapon.1);
                            let p_dmg = p_roll / dmg_rolls.len() as f64;
                            for d in &dmg_rolls {
                                *dist.entry(damage(&c, g, d, armor)).or_default() += p_dmg;
                            }
                        }
                        let exact = damage_distribution(&c, pool, weapon, armor, auto).unwrap();
                        for (&v, &p) in &dist {
                            assert!(
                                close(exact.prob(v), p),
                                "pool {pool} {weapon:?} armor {armor} dmg {v}"
                            );
                        }
                        let total: f64 = dist.values().sum();
                        assert!(close(total, 1.0));
                    }
                }
            }
        }
    }
}
