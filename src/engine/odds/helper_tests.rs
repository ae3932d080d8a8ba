//! Brute-force tests of the odds helpers: for small cases every combination of faces
//! is enumerated and every probability compared (tolerance 1e-12). Tests of a rule
//! name its id (RULES.md §2–§4).

use super::*;
use std::collections::BTreeMap;

const TOL: f64 = 1e-12;

/// Calls `f` with every combination of faces of dice with these sides, and its
/// probability.
fn each_roll(sides: &[u32], mut f: impl FnMut(&[u32], f64)) {
    let p = 1.0 / sides.iter().map(|&s| f64::from(s)).product::<f64>();
    let mut faces = vec![1_u32; sides.len()];
    loop {
        f(&faces, p);
        let mut i = 0;
        loop {
            if i == faces.len() {
                return;
            }
            if faces[i] < sides[i] {
                faces[i] += 1;
                break;
            }
            faces[i] = 1;
            i += 1;
        }
    }
}

/// The brute-force distribution of `value(faces)`.
fn brute<K: Ord>(sides: &[u32], mut value: impl FnMut(&[u32]) -> K) -> BTreeMap<K, f64> {
    let mut out = BTreeMap::new();
    each_roll(sides, |faces, p| {
        *out.entry(value(faces)).or_insert(0.0) += p
    });
    out
}

/// Every probability of `d` equals the brute force's, and they have the same support.
fn assert_same(what: &str, d: &Distribution, b: &BTreeMap<i64, f64>) {
    let got = d.outcomes();
    assert_eq!(
        got.iter().map(|&(v, _)| v).collect::<Vec<_>>(),
        b.keys().copied().collect::<Vec<_>>(),
        "{what}: support"
    );
    for (v, p) in got {
        let want = b[&v];
        assert!(
            (p - want).abs() < TOL,
            "{what}: P({v}) = {p}, brute force {want}"
        );
    }
    let total: f64 = b.values().sum();
    assert!(
        (total - 1.0).abs() < TOL,
        "{what}: brute force sums to {total}"
    );
}

fn sum(faces: &[u32]) -> i64 {
    faces.iter().map(|&f| i64::from(f)).sum()
}

/// The `keep` highest (or lowest) faces, summed.
fn keep_sum(faces: &[u32], highest: bool, keep: usize) -> i64 {
    let mut sorted = faces.to_vec();
    sorted.sort_unstable();
    if highest {
        sorted.reverse();
    }
    sum(&sorted[..keep])
}

// --- Map and clamp ---

/// A-15, A-GAP-05, A-EX-3: armor subtracts from every damage die, each floored at 0:
/// a per-die map before summing agrees with subtracting from every face of the roll.
#[test]
fn a15_armor_per_die_matches_brute_force() {
    for n in 1..=4_u32 {
        for armor in 0..=6_i64 {
            let per_die = Distribution::die(6).map(|f| (f - armor).max(0)).unwrap();
            let d = per_die.sum_n(n).unwrap();
            let b = brute(&vec![6; n as usize], |faces| {
                faces.iter().map(|&f| (i64::from(f) - armor).max(0)).sum()
            });
            assert_same(&format!("A-15: {n}d6 vs armor {armor}"), &d, &b);
        }
    }
    // A-EX-3: 2d6 faces 4, 1 → 5, 3, 2, 0 for armor 0, 1, 2, 4: every one possible.
    for (armor, want) in [(0, 5), (1, 3), (2, 2), (4, 0)] {
        let faces_value = (4_i64 - armor).max(0) + (1_i64 - armor).max(0);
        assert_eq!(faces_value, want, "A-EX-3: armor {armor}");
        let d = Distribution::die(6)
            .map(|f| (f - armor).max(0))
            .unwrap()
            .sum_n(2)
            .unwrap();
        assert!(d.prob(want) > 0.0, "A-EX-3: armor {armor}");
    }
}

/// A-GAP-03, A-EX-6: a Partial hit halves the damage after armor, rounding down:
/// 1d6 = 5 against armor 1 → floor(4 / 2) = 2.
#[test]
fn a_gap_03_partial_halves_after_armor() {
    for armor in 0..=3_i64 {
        let d = Distribution::die(6)
            .map(|f| (f - armor).max(0))
            .unwrap()
            .sum_n(2)
            .unwrap()
            .div_floor(2);
        let b = brute(&[6, 6], |faces| {
            faces
                .iter()
                .map(|&f| (i64::from(f) - armor).max(0))
                .sum::<i64>()
                / 2
        });
        assert_same(&format!("A-GAP-03: half of 2d6 vs armor {armor}"), &d, &b);
    }
    let one = Distribution::die(6)
        .map(|f| (f - 1).max(0))
        .unwrap()
        .div_floor(2);
    assert!(
        (one.prob(2) - 2.0 / 6.0).abs() < TOL,
        "A-EX-6: 5 → 2 (and 6 → 2)"
    );
}

/// E-12, E-EX-3: resist halving rounds down (17 → 8); division rounds toward minus
/// infinity for negative totals; clamps merge what they cut.
#[test]
fn e12_halving_and_clamps_match_brute_force() {
    assert_eq!(
        Distribution::constant(17).div_floor(2).outcomes(),
        vec![(8, 1.0)]
    );
    let e: DiceExpr = "1d20-1d4".parse().unwrap();
    let d = e.distribution();
    let sides = [20, 4];
    let value = |f: &[u32]| i64::from(f[0]) - i64::from(f[1]);
    assert_same(
        "half of 1d20-1d4",
        &d.div_floor(2),
        &brute(&sides, |f| value(f).div_euclid(2)),
    );
    assert_same(
        "third",
        &d.div_floor(3),
        &brute(&sides, |f| value(f).div_euclid(3)),
    );
    assert_same("d0 is d1", &d.div_floor(0), &brute(&sides, value));
    assert_same(
        "clamp",
        &d.clamp(0, 15),
        &brute(&sides, |f| value(f).clamp(0, 15)),
    );
    assert_same(
        "floor at 0",
        &d.clamp(0, i64::MAX),
        &brute(&sides, |f| value(f).max(0)),
    );
    let all_hi = d.clamp(5, 2).outcomes();
    assert_eq!(all_hi.len(), 1, "lo > hi: all become hi");
    assert_eq!(all_hi[0].0, 2);
    assert!((all_hi[0].1 - 1.0).abs() < TOL);
    assert_same(
        "map square",
        &d.map(|x| x * x).unwrap(),
        &brute(&sides, |f| value(f).pow(2)),
    );
    assert_same(
        "scale",
        &d.scale(-3).unwrap(),
        &brute(&sides, |f| value(f) * -3),
    );
}

#[test]
fn map_and_sums_refuse_what_is_too_large() {
    let d = Distribution::die(20);
    let err = d.map(|x| x * 1_000_000_000).unwrap_err();
    assert!(matches!(err, OddsError::SpanTooLarge { .. }), "{err}");
    assert!(
        err.to_string().contains("too large to compute exactly"),
        "{err}"
    );
    let err = d.scale(i64::MAX).unwrap_err();
    assert!(matches!(err, OddsError::Overflow { .. }), "{err}");
    // Span: 1000 draws of a d10000 would span about 10⁷ values.
    let big = Distribution::die(10_000);
    let err = big.sum_n(1000).unwrap_err();
    assert!(matches!(err, OddsError::SpanTooLarge { .. }), "{err}");
    assert!(
        err.to_string()
            .starts_with("the sum of 1000 draws is too large"),
        "{err}"
    );
    // Work: 100 draws of a d10000 span 10⁶ values but cost about 5·10¹¹ updates.
    let err = big.sum_n(100).unwrap_err();
    assert!(matches!(err, OddsError::TooMuchWork { .. }), "{err}");
    // Zero draws sum to 0; one draw is the distribution itself.
    assert_eq!(d.sum_n(0).unwrap(), Distribution::constant(0));
    assert_eq!(d.sum_n(1).unwrap(), d);
    // The same call gives the same bits.
    let a = Distribution::die(6)
        .map(|f| (f - 1).max(0))
        .unwrap()
        .sum_n(7)
        .unwrap();
    let b = Distribution::die(6)
        .map(|f| (f - 1).max(0))
        .unwrap()
        .sum_n(7)
        .unwrap();
    assert_eq!(a, b);
}

// --- Mixtures and branches ---

#[test]
fn mixtures_weigh_their_parts() {
    let hit = Distribution::die(8);
    let miss = Distribution::constant(3);
    let d = Distribution::either(0.6, &hit, &miss).unwrap();
    // Brute force: a d10 whose faces 1–6 hit, then a d8.
    let b = brute(&[10, 8], |f| if f[0] <= 6 { i64::from(f[1]) } else { 3 });
    assert_same("hit or miss damage", &d, &b);
    let three =
        Distribution::mixture(&[(0.5, &hit), (0.25, &miss), (0.25, &hit.negate())]).unwrap();
    assert!((three.prob(-8) - 0.25 / 8.0).abs() < TOL);
    for (weights, bad) in [
        (vec![0.5, 0.6], "add up to 1.1"),
        (vec![-0.1, 1.1], "weight -0.1 is not a probability"),
        (vec![f64::NAN, 1.0], "weight NaN"),
    ] {
        let parts: Vec<(f64, &Distribution)> = weights.iter().map(|&w| (w, &hit)).collect();
        let err = Distribution::mixture(&parts).unwrap_err();
        assert!(err.to_string().contains(bad), "{err}");
    }
    assert!(Distribution::either(1.5, &hit, &miss).is_err());
    let err = Distribution::mixture(&[
        (0.5, &Distribution::constant(0)),
        (0.5, &Distribution::constant(2_000_000)),
    ])
    .unwrap_err();
    assert!(matches!(err, OddsError::SpanTooLarge { .. }), "{err}");
}

/// The escalation attack of E-02 with the rules that branch on the natural roll:
/// E-03 hit on total ≥ AC; E-04 natural 17+ crits, ×2 the whole damage (E-GAP-07);
/// E-05 natural 3 misses with no miss effect (E-GAP-06); E-07 miss damage = Level;
/// E-12 Resist 14+ halves (rounded down, after doubling) when the natural roll is
/// under 14; E-GAP-02 one net Disadvantage = 4d6 keep the lowest 3. The branched
/// distribution equals the brute force over every face of the attack and damage dice.
#[test]
fn e04_e12_attack_branches_match_brute_force() {
    let (level, bonus, ac, resist) = (2_i64, 5_i64, 15_i64, 14_i64);
    // Level 2 with a d4 stance die: 2d4 + Volition 1.
    let damage: Distribution = "2d4+1".parse::<DiceExpr>().unwrap().distribution();
    for advantage in [0, -1, 1] {
        let natural = netted_pool(3, 6, 3, advantage).unwrap();
        let n = natural.dice_count() as usize;
        let odds = natural
            .distribution()
            .branch(|nat| {
                let hit = if nat >= 17 {
                    damage.scale(2).unwrap()
                } else if nat != 3 && nat + bonus >= ac {
                    damage.clone()
                } else if nat == 3 {
                    return Distribution::constant(0);
                } else {
                    return Distribution::constant(level);
                };
                if nat < resist { hit.div_floor(2) } else { hit }
            })
            .unwrap();
        let mut sides = vec![6; n];
        sides.extend([4, 4]);
        let b = brute(&sides, |f| {
            let nat = if advantage == 0 {
                sum(&f[..3])
            } else {
                keep_sum(&f[..n], advantage > 0, 3)
            };
            let dmg = sum(&f[n..]) + 1;
            let hit = if nat >= 17 {
                dmg * 2
            } else if nat != 3 && nat + bonus >= ac {
                dmg
            } else if nat == 3 {
                return 0;
            } else {
                return level;
            };
            if nat < resist { hit / 2 } else { hit }
        });
        assert_same(
            &format!("E-04/E-12 attack, advantage {advantage}"),
            &odds,
            &b,
        );
    }
}

/// E-GAP-02 (E-02, E-49): netted Advantage/Disadvantage adds d6s and keeps 3; the
/// pools are exactly the brute force's; E-EX-1's Shaken variant keeps 1, 3, 4 = 8
/// and E-EX-7's 2-Disadvantage Death Save keeps 1, 2, 4 = 7.
#[test]
fn e_gap_02_netted_pools_match_brute_force() {
    for advantage in -3..=3_i32 {
        let e = netted_pool(3, 6, 3, advantage).unwrap();
        let n = 3 + advantage.unsigned_abs() as usize;
        let b = brute(&vec![6; n], |f| keep_sum(f, advantage >= 0, 3));
        assert_same(&format!("E-GAP-02: {e}"), &e.distribution(), &b);
    }
    assert_eq!(netted_pool(3, 6, 3, 0).unwrap().to_string(), "3d6");
    assert_eq!(netted_pool(3, 6, 3, 2).unwrap().to_string(), "5d6kh3");
    assert_eq!(netted_pool(3, 6, 2, 0).unwrap().to_string(), "3d6kh2");
    let shaken = netted_pool(3, 6, 3, -1).unwrap();
    let r = shaken.roll(&mut Dice::scripted([4, 5, 3, 1])).unwrap();
    assert_eq!(r.total, 8, "E-EX-1 Shaken: keep 1, 3, 4");
    let death = netted_pool(3, 6, 3, -2).unwrap();
    let r = death.roll(&mut Dice::scripted([6, 5, 4, 2, 1])).unwrap();
    assert_eq!(r.total, 7, "E-EX-7: keep 1, 2, 4");
    // E-49/E-GAP-03: a Death Save succeeds on 13+; with 2 Disadvantage far less often.
    let plain = netted_pool(3, 6, 3, 0)
        .unwrap()
        .distribution()
        .prob_at_least(13);
    assert!(
        (plain - 56.0 / 216.0).abs() < TOL,
        "E-GAP-03: 3d6 ≥ 13 ≈ 25.9%"
    );
    let b = brute(&[6; 5], |f| keep_sum(f, false, 3) >= 13);
    assert!((death.distribution().prob_at_least(13) - b[&true]).abs() < TOL);
    assert!(netted_pool(3, 6, 4, 1).is_err(), "keep more than the base");
    assert!(netted_pool(3, 6, 0, 1).is_err());
    assert!(netted_pool(998, 6, 3, 5).is_err(), "too many dice");
    let err = netted_pool(300, 100, 150, 300).unwrap_err();
    assert!(
        err.to_string().contains("too large to compute exactly"),
        "{err}"
    );
}

/// The special outcome of the critical chain in the wounds tests.
#[derive(Clone, Debug, PartialEq)]
struct Defeated;

fn crit_chain() -> Outcomes<Defeated> {
    chain(
        2,
        &[
            ChainStep {
                sides: 4,
                at_least: 4,
                effect: ChainEffect::Multiply(2),
            },
            ChainStep {
                sides: 6,
                at_least: 6,
                effect: ChainEffect::Become(Defeated),
            },
        ],
    )
    .unwrap()
}

/// W-20, W-21: a crit doubles (×2); d4 = 4 doubles again (×4); then d6 = 6 defeats
/// instantly — nested mixtures 3/4 of ×2, 1/4 × 5/6 of ×4, 1/24 defeated.
#[test]
fn w20_w21_crit_chain_is_nested_mixtures() {
    let c = crit_chain();
    assert!((c.prob(2) - 0.75).abs() < TOL);
    assert!((c.prob(4) - 0.25 * 5.0 / 6.0).abs() < TOL);
    assert!((c.prob_special(&Defeated) - 1.0 / 24.0).abs() < TOL);
    assert!((c.prob_value() - 23.0 / 24.0).abs() < TOL);
    let b = brute(&[4, 6], |f| match (f[0], f[1]) {
        (4, 6) => None,
        (4, _) => Some(4),
        _ => Some(2),
    });
    for (o, p) in c.outcomes() {
        let key = match o {
            Outcome::Value(v) => Some(v),
            Outcome::Special(Defeated) => None,
        };
        assert!((p - b[&key]).abs() < TOL, "{key:?}");
    }
    assert_eq!(c.outcomes().len(), b.len());
    let given = c.given_value().unwrap();
    assert!((given.prob(2) - 0.75 / (23.0 / 24.0)).abs() < TOL);
    // A step that cannot succeed stops the chain; no steps is the start value.
    let never: Outcomes<Defeated> = chain(
        2,
        &[ChainStep {
            sides: 6,
            at_least: 7,
            effect: ChainEffect::Become(Defeated),
        }],
    )
    .unwrap();
    assert_eq!(never, Outcomes::value(2));
    assert_eq!(chain::<Defeated>(3, &[]).unwrap(), Outcomes::value(3));
    let long: Vec<ChainStep<Defeated>> = (0..=MAX_CHAIN_STEPS)
        .map(|_| ChainStep {
            sides: 2,
            at_least: 2,
            effect: ChainEffect::Multiply(2),
        })
        .collect();
    let err = chain(1, &long).unwrap_err();
    assert_eq!(err, OddsError::ChainTooLong(MAX_CHAIN_STEPS + 1));
    assert_eq!(
        err.to_string(),
        "a chain of 65 steps is too long (at most 64)"
    );
    let overflow: Vec<ChainStep<Defeated>> = long[..MAX_CHAIN_STEPS].to_vec();
    assert!(matches!(
        chain(1, &overflow),
        Err(OddsError::Overflow { .. })
    ));
}

/// One wounds attack (W-13, W-20–W-22, W-18, W-GAP-04, W-GAP-06), W-EX-1/W-EX-3's
/// attacker (Accuracy +3, Strength +2, d8) aiming Fatal at defense 12, armor 1:
/// natural 1 misses, 20 crits through the chain, net = (d8 + 2) × multiplier − 1
/// (at least 0), a wound (net ≥ 6) on a Fatal aim adds 16 on a d4 of 4. The branched
/// outcomes equal the brute force over d20 × chain d4 × chain d6 × d8 × fatal d4.
#[test]
fn w_ex_3_fatal_attack_matches_brute_force() {
    let (accuracy, strength, defense, armor) = (3_i64, 2_i64, 12_i64, 1_i64);
    let damage = Distribution::die(8);
    let fatal = |net: i64| -> Outcomes<Defeated> {
        if net >= 6 {
            Distribution::either(
                0.25,
                &Distribution::constant(net + 16),
                &Distribution::constant(net),
            )
            .unwrap()
            .into()
        } else {
            Outcomes::value(net)
        }
    };
    let hit = |mult: i64| -> Outcomes<Defeated> {
        Outcomes::values(
            damage
                .map(|f| ((f + strength) * mult - armor).max(0))
                .unwrap(),
        )
        .and_then(fatal)
        .unwrap()
    };
    let odds = Distribution::die(20)
        .branch_outcomes(|nat| match nat {
            1 => Outcomes::value(0),
            20 => crit_chain().and_then(hit).unwrap(),
            n if n + accuracy >= defense => hit(1),
            _ => Outcomes::value(0),
        })
        .unwrap();
    let value = |f: &[u32]| -> Option<i64> {
        let (nat, c4, c6, d8, f4) = (f[0], f[1], f[2], f[3], f[4]);
        let mult = match nat {
            1 => return Some(0),
            20 if c4 == 4 && c6 == 6 => return None,
            20 if c4 == 4 => 4,
            20 => 2,
            n if i64::from(n) + accuracy >= defense => 1,
            _ => return Some(0),
        };
        let net = ((i64::from(d8) + strength) * mult - armor).max(0);
        Some(if net >= 6 && f4 == 4 { net + 16 } else { net })
    };
    // W-EX-3: d20 = 20, d4 = 4, d6 = 2, d8 = 3, fatal d4 = 4 → 35; d6 = 6 → defeated.
    assert_eq!(value(&[20, 4, 2, 3, 4]), Some(35), "W-EX-3");
    assert_eq!(value(&[20, 4, 6, 3, 4]), None, "W-EX-3: defeated instantly");
    assert_eq!(
        value(&[9, 1, 1, 5, 1]),
        Some(6),
        "W-EX-1: 9 + 3 hits, 5 + 2 − 1 = 6"
    );
    let b = brute(&[20, 4, 6, 8, 4], value);
    let got = odds.outcomes();
    assert_eq!(got.len(), b.len(), "support");
    for (o, p) in got {
        let key = match o {
            Outcome::Value(v) => Some(v),
            Outcome::Special(Defeated) => None,
        };
        assert!(
            (p - b[&key]).abs() < TOL,
            "W-EX-3: P({key:?}) = {p}, brute {}",
            b[&key]
        );
    }
    assert!((odds.prob_special(&Defeated) - 1.0 / 480.0).abs() < TOL);
    assert!(odds.prob(35) > 0.0, "W-EX-3");
    // Expected damage counting "defeated" as a 20-HP target's remaining HP.
    let want: f64 = b
        .iter()
        .map(|(k, p)| k.map_or(20.0, |v| v as f64) * p)
        .sum();
    assert!((odds.mean_with(|_| 20.0) - want).abs() < 1e-9);
    let at_least: f64 = b
        .iter()
        .filter(|(k, _)| k.is_some_and(|v| v >= 6))
        .map(|(_, p)| p)
        .sum();
    assert!(
        (odds.prob_at_least(6) - at_least).abs() < TOL,
        "W-18: wound chance"
    );
    // Mapping values leaves the special outcome alone.
    let halved = odds.map_values(|v| v / 2).unwrap();
    assert_eq!(halved.prob_special(&Defeated), odds.prob_special(&Defeated));
}

#[test]
fn outcome_mixtures_merge_specials_and_check_weights() {
    let a: Outcomes<Defeated> = Outcomes::special(Defeated);
    let m = Outcomes::mixture(&[
        (0.25, a.clone()),
        (0.25, a.clone()),
        (0.5, Outcomes::value(4)),
    ])
    .unwrap();
    assert_eq!(
        m.outcomes(),
        vec![(Outcome::Value(4), 0.5), (Outcome::Special(Defeated), 0.5)]
    );
    assert!(Outcomes::mixture(&[(0.5, a.clone())]).is_err());
    assert!(Outcomes::either(2.0, a.clone(), a.clone()).is_err());
    assert_eq!(a.given_value(), None);
    assert_eq!(a.prob_value(), 0.0);
    assert_eq!(a.prob_at_least(0), 0.0);
}

// --- Counting faces ---

/// a pool is read by its highest die; A-GAP-04: a pool of 0 or fewer rolls 2d6
/// and reads the lowest.
#[test]
fn a08_highest_die_matches_brute_force() {
    for n in 1..=5_u32 {
        for sides in [4, 6] {
            let b = brute(&vec![sides; n as usize], |f| {
                i64::from(*f.iter().max().unwrap())
            });
            assert_same(
                &format!("A-08: highest of {n}d{sides}"),
                &highest_die(n, sides).unwrap(),
                &b,
            );
            let b = brute(&vec![sides; n as usize], |f| {
                i64::from(*f.iter().min().unwrap())
            });
            assert_same(
                &format!("lowest of {n}d{sides}"),
                &lowest_die(n, sides).unwrap(),
                &b,
            );
        }
    }
    // A-EX-2: 5d6 faces 1, 3, 2, 5, 4 → 5; the 0-dice pool 6, 2 → 2.
    assert_eq!(
        "5d6kh1"
            .parse::<DiceExpr>()
            .unwrap()
            .roll(&mut Dice::scripted([1, 3, 2, 5, 4]))
            .unwrap()
            .total,
        5
    );
    assert_eq!(
        "2d6kl1"
            .parse::<DiceExpr>()
            .unwrap()
            .roll(&mut Dice::scripted([6, 2]))
            .unwrap()
            .total,
        2
    );
    assert!(highest_die(0, 6).is_err());
    assert!(highest_die(1001, 6).is_err());
    assert!(lowest_die(2, 0).is_err());
    let err = highest_die(0, 6).unwrap_err();
    assert!(err.to_string().contains("at least 1 die"), "{err}");
}

#[test]
fn counts_match_brute_force() {
    for n in 1..=5_u32 {
        for sides in [4, 6] {
            let dice = vec![sides; n as usize];
            for t in 0..=sides + 1 {
                let b = brute(&dice, |f| f.iter().filter(|&&x| x >= t).count() as i64);
                assert_same(
                    &format!("{n}d{sides} ≥ {t}"),
                    &count_at_least(n, sides, t).unwrap(),
                    &b,
                );
                let b = brute(&dice, |f| f.iter().filter(|&&x| x == t).count() as i64);
                assert_same(
                    &format!("{n}d{sides} = {t}"),
                    &count_equal(n, sides, t).unwrap(),
                    &b,
                );
            }
            let b = brute(&dice, |f| f.iter().filter(|&&x| x % 2 == 1).count() as i64);
            assert_same(
                "odd faces",
                &count_faces(n, sides, |f| f % 2 == 1).unwrap(),
                &b,
            );
        }
    }
    // Large pools stay cheap and sum to 1.
    let d = count_equal(1000, 6, 6).unwrap();
    let total: f64 = d.outcomes().iter().map(|&(_, p)| p).sum();
    assert!((total - 1.0).abs() < 1e-9);
    assert!((d.mean() - 1000.0 / 6.0).abs() < 1e-9);
    assert!(count_equal(0, 6, 6).is_err());
}

/// A-GAP-03, A-EX-6: the reading of a pool — Failure (highest 1–3), Partial (4–5),
/// Success (one 6), Critical (two or more 6s) — from `highest_die` and `count_equal`
/// equals the brute force's for pools of 1 to 5 dice.
#[test]
fn a_gap_03_reading_matches_brute_force() {
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
    enum Reading {
        Failure,
        Partial,
        Success,
        Critical,
    }
    let read = |f: &[u32]| {
        let sixes = f.iter().filter(|&&x| x == 6).count();
        match (sixes, f.iter().max().copied().unwrap_or(0)) {
            (2.., _) => Reading::Critical,
            (1, _) => Reading::Success,
            (_, 4 | 5) => Reading::Partial,
            _ => Reading::Failure,
        }
    };
    assert_eq!(read(&[2, 6, 6]), Reading::Critical, "A-EX-6");
    assert_eq!(read(&[6, 4]), Reading::Success, "A-EX-6");
    assert_eq!(read(&[5, 3]), Reading::Partial, "A-EX-6");
    assert_eq!(read(&[3, 1, 2]), Reading::Failure, "A-EX-6");
    for n in 1..=5_u32 {
        let high = highest_die(n, 6).unwrap();
        let sixes = count_equal(n, 6, 6).unwrap();
        let got = [
            (Reading::Failure, high.prob_at_most(3)),
            (Reading::Partial, high.prob(4) + high.prob(5)),
            (Reading::Success, sixes.prob(1)),
            (Reading::Critical, sixes.prob_at_least(2)),
        ];
        let b = brute(&vec![6; n as usize], read);
        for (r, p) in got {
            let want = b.get(&r).copied().unwrap_or(0.0);
            assert!(
                (p - want).abs() < TOL,
                "A-GAP-03: {n}d6 {r:?}: {p} vs {want}"
            );
        }
    }
}
