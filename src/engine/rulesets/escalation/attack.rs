//! The arithmetic of an `escalation` attack, once, for the rules and the previews:
//! the natural roll of a 3d6 pool netted for Advantage (E-GAP-02), crits and crit
//! fails (E-04, E-05, E-13, E-14, E-GAP-06), the hit (E-02, E-03), hit damage doubled
//! on a crit (E-GAP-07) and halved by a resistance the natural roll does not beat
//! (E-12), and miss damage (E-07). The functions on faces are what the systems roll;
//! [`odds`] gives the exact distribution of the same numbers.

use crate::engine::odds::{Distribution, OddsError, netted_pool};

/// The natural roll a crit needs: 17+, 16+ against a type the target is Weak to or
/// a Vulnerable target, 15+ when both (E-04, E-13, E-14).
pub fn crit_threshold(weak: bool, vulnerable: bool) -> i64 {
    17 - i64::from(weak) - i64::from(vulnerable)
}

/// The natural roll of a 3d6 pool with `net` net Advantage (negative: Disadvantage):
/// the 3 highest faces with Advantage, the 3 lowest with Disadvantage, summed
/// (E-GAP-02).
pub fn natural(faces: &[u32], net: i32) -> i64 {
    let mut f: Vec<u32> = faces.to_vec();
    f.sort_unstable();
    let kept: &[u32] = if net >= 0 {
        &f[f.len().saturating_sub(3)..]
    } else {
        &f[..f.len().min(3)]
    };
    kept.iter().map(|&x| i64::from(x)).sum()
}

/// How an attack roll came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Outcome {
    /// Natural 3: a miss with no miss effects (E-05, E-GAP-06).
    CritFail,
    /// Total below the defense.
    Miss,
    /// Total at or above the defense (E-03).
    Hit,
    /// Natural at or above the crit threshold: a hit whatever the defense, double
    /// damage (E-04, E-GAP-06).
    Crit,
}

/// What an attack needs besides its dice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Attack {
    /// Everything added to the natural roll: Level + Volition + Escalation + bonuses
    /// (E-02).
    pub modifier: i64,
    /// Net Advantage (negative: Disadvantage), E-GAP-02.
    pub net_advantage: i32,
    /// The defense attacked: AC, PD or MD.
    pub defense: i64,
    /// The natural roll that crits ([`crit_threshold`]).
    pub crit_at: i64,
    /// The natural roll at or below which it crit-fails (E-05; the config's
    /// `crit_fail_at`, 3 by default).
    pub crit_fail_at: i64,
    /// Hit damage dice: how many (Level) and their size (the stance die), E-07.
    pub dice: u32,
    /// Size of the damage dice.
    pub die: u32,
    /// Added to the hit damage (Volition).
    pub bonus: i64,
    /// "Resist X+": a natural roll below X halves the damage (E-12).
    pub resist: Option<i64>,
    /// Damage on a miss: 0 or Level, by class (E-07).
    pub miss_damage: i64,
}

/// The outcome of a natural roll (E-03, E-04, E-05, E-GAP-06).
pub fn classify(attack: &Attack, natural: i64) -> Outcome {
    if natural <= attack.crit_fail_at {
        Outcome::CritFail
    } else if natural >= attack.crit_at {
        Outcome::Crit
    } else if natural + attack.modifier >= attack.defense {
        Outcome::Hit
    } else {
        Outcome::Miss
    }
}

/// The damage a roll deals, from the natural roll and the sum of the damage dice
/// (ignored on a miss): (dice + bonus), ×2 on a crit, then halved (rounded down)
/// when the natural roll is below the resistance; miss damage on a plain miss,
/// nothing on a crit fail (E-07, E-12, E-GAP-06, E-GAP-07). Never negative.
pub fn damage(attack: &Attack, natural: i64, dice_total: i64) -> i64 {
    damage_as(attack, classify(attack, natural), natural, dice_total)
}

/// [`damage`] for a roll whose outcome is given: a Coup de Grace is a crit whatever
/// its natural roll, and that natural roll still meets the resistance (E-44,
/// E-GAP-06, E-GAP-07: doubled, then halved).
pub fn damage_as(attack: &Attack, outcome: Outcome, natural: i64, dice_total: i64) -> i64 {
    let dealt = match outcome {
        Outcome::CritFail => return 0,
        Outcome::Miss => return attack.miss_damage.max(0),
        Outcome::Hit => dice_total + attack.bonus,
        Outcome::Crit => 2 * (dice_total + attack.bonus),
    };
    let dealt = dealt.max(0);
    match attack.resist {
        Some(x) if natural < x => dealt.div_euclid(2),
        _ => dealt,
    }
}

/// Exact odds of an attack: the chance of each outcome and the damage it deals.
#[derive(Clone, Debug, PartialEq)]
pub struct Odds {
    /// Chance of a hit, crits included.
    pub hit: f64,
    /// Chance of a crit.
    pub crit: f64,
    /// Chance of a natural 3.
    pub crit_fail: f64,
    /// Damage dealt, every outcome included (a miss deals its miss damage).
    pub damage: Distribution,
}

/// The exact odds of `attack`, computed from the same rules as [`damage`].
pub fn odds(attack: &Attack) -> Result<Odds, OddsError> {
    odds_with(attack, &Distribution::die(attack.die).sum_n(attack.dice)?)
}

/// The exact odds of `attack` whose hit damage dice total `dice` (a power's own
/// damage expression instead of the stance dice).
pub fn odds_with(attack: &Attack, dice: &Distribution) -> Result<Odds, OddsError> {
    let natural = netted_pool(3, 6, 3, attack.net_advantage)?.distribution();
    let (mut hit, mut crit, mut crit_fail) = (0.0, 0.0, 0.0);
    for (n, p) in natural.outcomes() {
        match classify(attack, n) {
            Outcome::CritFail => crit_fail += p,
            Outcome::Miss => {}
            Outcome::Hit => hit += p,
            Outcome::Crit => {
                hit += p;
                crit += p;
            }
        }
    }
    let damage = natural.branch(|n| {
        dice.map(|d| damage(attack, n, d))
            .unwrap_or_else(|_| Distribution::constant(0))
    })?;
    Ok(Odds {
        hit,
        crit,
        crit_fail,
        damage,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The E-EX-1 PC: Level 3, Volition +2, Escalation 2, d8 stance, against AC 19.
    fn e_ex_1() -> Attack {
        Attack {
            modifier: 3 + 2 + 2,
            net_advantage: 0,
            defense: 19,
            crit_at: crit_threshold(false, false),
            crit_fail_at: 3,
            dice: 3,
            die: 8,
            bonus: 2,
            resist: None,
            miss_damage: 3,
        }
    }

    /// E-EX-1: natural 12 + 3 + 2 + 2 = 19 hits AC 19; 3d8 [6, 1, 5] + 2 = 14. Shaken:
    /// Escalation 0 and 1 Disadvantage, [4, 5, 3, 1] keeps 1, 3, 4 = 8, 13 misses for
    /// Level miss damage 3.
    #[test]
    fn e_ex_1_hit_and_shaken_miss() {
        let a = e_ex_1();
        let n = natural(&[4, 5, 3], 0);
        assert_eq!(n, 12);
        assert_eq!(classify(&a, n), Outcome::Hit, "E-03: 19 >= 19 hits");
        assert_eq!(damage(&a, n, 6 + 1 + 5), 14, "E-07: 3d8 + Volition");

        let shaken = Attack {
            modifier: 3 + 2,
            net_advantage: -1,
            ..a
        };
        let n = natural(&[4, 5, 3, 1], -1);
        assert_eq!(n, 8, "E-GAP-02: 1 Disadvantage keeps the 3 lowest");
        assert_eq!(classify(&shaken, n), Outcome::Miss);
        assert_eq!(damage(&shaken, n, 0), 3, "E-07: Level miss damage");
    }

    /// E-EX-2: the crit thresholds, and crit damage doubled (E-GAP-07).
    #[test]
    fn e_ex_2_crit_thresholds_and_doubling() {
        assert!(16 < crit_threshold(false, false), "E-04: 16 is no crit");
        assert!(16 >= crit_threshold(true, false), "E-13: weak crits on 16");
        assert!(
            15 >= crit_threshold(true, true),
            "E-13: weak + vulnerable on 15"
        );
        assert!(16 >= crit_threshold(false, true), "E-14: vulnerable on 16");
        let a = Attack {
            defense: 40,
            ..e_ex_1()
        };
        assert_eq!(
            classify(&a, 17),
            Outcome::Crit,
            "E-GAP-06: a crit always hits"
        );
        assert_eq!(damage(&a, 17, 3 + 3 + 2), 20, "E-EX-2: (8 + 2) x 2");
        assert_eq!(classify(&e_ex_1(), 3), Outcome::CritFail, "E-05");
        assert_eq!(
            damage(&e_ex_1(), 3, 0),
            0,
            "E-GAP-06: no miss damage on a 3"
        );
    }

    /// E-EX-3: Resist fire 14+: a natural 13 halves 17 to 8; a natural 14 deals 17.
    #[test]
    fn e_ex_3_resistance_halves_rounding_down() {
        let a = Attack {
            modifier: 10,
            defense: 10,
            dice: 1,
            die: 20,
            bonus: 0,
            resist: Some(14),
            ..e_ex_1()
        };
        assert_eq!(damage(&a, 13, 17), 8, "E-12");
        assert_eq!(damage(&a, 14, 17), 17, "E-12");
    }

    /// The odds are the rules: brute force over every face of the pool and of the
    /// damage dice gives the same distribution, with 1 Advantage, none, and 2
    /// Disadvantage, against a resistance (E-02 … E-07, E-12, E-GAP-02).
    #[test]
    fn odds_match_brute_force() {
        for net in [1, 0, -2] {
            let a = Attack {
                net_advantage: net,
                modifier: 5,
                defense: 16,
                crit_at: crit_threshold(true, false),
                crit_fail_at: 3,
                dice: 2,
                die: 4,
                bonus: 1,
                resist: Some(12),
                miss_damage: 2,
            };
            let pool = 3 + net.unsigned_abs();
            let mut counts = std::collections::BTreeMap::<i64, u64>::new();
            let (mut hits, mut crits, mut fails, mut total) = (0u64, 0u64, 0u64, 0u64);
            for i in 0..6u32.pow(pool) {
                let faces: Vec<u32> = (0..pool).map(|k| i / 6u32.pow(k) % 6 + 1).collect();
                let n = natural(&faces, net);
                match classify(&a, n) {
                    Outcome::CritFail => fails += 16,
                    Outcome::Miss => {}
                    Outcome::Hit => hits += 16,
                    Outcome::Crit => {
                        hits += 16;
                        crits += 16;
                    }
                }
                for d1 in 1..=4 {
                    for d2 in 1..=4 {
                        *counts.entry(damage(&a, n, d1 + d2)).or_default() += 1;
                        total += 1;
                    }
                }
            }
            let o = odds(&a).unwrap();
            let close = |x: f64, y: f64| (x - y).abs() < 1e-12;
            assert!(close(o.hit, hits as f64 / total as f64), "net {net}: hit");
            assert!(
                close(o.crit, crits as f64 / total as f64),
                "net {net}: crit"
            );
            assert!(close(o.crit_fail, fails as f64 / total as f64), "net {net}");
            for (v, c) in counts {
                assert!(
                    close(o.damage.prob(v), c as f64 / total as f64),
                    "net {net}: {v}"
                );
            }
        }
    }
}
