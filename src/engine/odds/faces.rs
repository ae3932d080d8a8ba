//! Counting faces of a pool of identical dice: the highest (or lowest) die, how many
//! dice show at least a face or exactly a face ("two or more 6s"), and pools with
//! extra advantage or disadvantage dice keeping some of them. Highest, lowest and
//! keeps are [`DiceExpr`] pools (`NdSkh1`), so they share its dynamic programme and
//! its limits; counts are binomial distributions built by exact convolution.

use super::{DiceExpr, Distribution, MAX_DICE_TOTAL, MAX_SIDES, OddsError};

/// Checks a pool of `n` dice with `sides` sides against the parser's limits.
fn check_pool(n: u32, sides: u32) -> Result<(), OddsError> {
    if n == 0 {
        return Err(OddsError::BadPool(
            "a pool needs at least 1 die (read a pool of 0 dice as your ruleset says)".into(),
        ));
    }
    if n > MAX_DICE_TOTAL {
        return Err(OddsError::BadPool(format!(
            "a pool of {n} dice is too large (at most {MAX_DICE_TOTAL})"
        )));
    }
    if sides == 0 || sides > MAX_SIDES {
        return Err(OddsError::BadPool(format!(
            "a die needs from 1 to {MAX_SIDES} sides, not {sides}"
        )));
    }
    Ok(())
}

/// The highest face of `n` dice with `sides` sides (`NdSkh1`), as actfast reads an
/// attack pool (A-08). Refused for 0 dice or beyond the parser's limits.
///
/// ```
/// # use skirmish::engine::odds::highest_die;
/// // A-08: the highest of 2d6 is 6 with probability 11/36.
/// assert!((highest_die(2, 6).unwrap().prob(6) - 11.0 / 36.0).abs() < 1e-12);
/// ```
pub fn highest_die(n: u32, sides: u32) -> Result<Distribution, OddsError> {
    keep_one(n, sides, true)
}

/// The lowest face of `n` dice with `sides` sides (`NdSkl1`; A-GAP-04 reads the
/// lowest of 2d6 for a pool of 0 or fewer dice).
///
/// ```
/// # use skirmish::engine::odds::lowest_die;
/// assert!((lowest_die(2, 6).unwrap().prob(1) - 11.0 / 36.0).abs() < 1e-12);
/// ```
pub fn lowest_die(n: u32, sides: u32) -> Result<Distribution, OddsError> {
    keep_one(n, sides, false)
}

fn keep_one(n: u32, sides: u32, highest: bool) -> Result<Distribution, OddsError> {
    check_pool(n, sides)?;
    let name = if highest { "kh" } else { "kl" };
    let e: DiceExpr = format!("{n}d{sides}{name}1").parse()?;
    Ok(e.distribution())
}

/// How many of `n` dice with `sides` sides show a face for which `counts` is true: a
/// binomial distribution over `0..=n`, built by `n` exact convolutions (about `n²`
/// steps; `n` is at most [`MAX_DICE_TOTAL`]). `counts` is asked about each face
/// `1..=sides` once.
///
/// ```
/// # use skirmish::engine::odds::count_faces;
/// // Even faces on 3d6: 0, 1, 2 or 3 of them.
/// let d = count_faces(3, 6, |f| f % 2 == 0).unwrap();
/// assert!((d.prob(3) - 1.0 / 8.0).abs() < 1e-12);
/// ```
pub fn count_faces(
    n: u32,
    sides: u32,
    counts: impl Fn(u32) -> bool,
) -> Result<Distribution, OddsError> {
    check_pool(n, sides)?;
    let matching = (1..=sides).filter(|&f| counts(f)).count() as u32;
    if matching == 0 {
        return Ok(Distribution::constant(0));
    }
    if matching == sides {
        return Ok(Distribution::constant(i64::from(n)));
    }
    let s = f64::from(sides);
    let one = Distribution {
        lo: 0,
        probs: vec![f64::from(sides - matching) / s, f64::from(matching) / s],
    };
    one.sum_n(n)
}

/// How many of `n` dice with `sides` sides show `at_least` or more.
///
/// ```
/// # use skirmish::engine::odds::count_at_least;
/// // Two or more dice of 4d6 showing 5+.
/// let p = count_at_least(4, 6, 5).unwrap().prob_at_least(2);
/// assert!((p - 33.0 / 81.0).abs() < 1e-12);
/// ```
pub fn count_at_least(n: u32, sides: u32, at_least: u32) -> Result<Distribution, OddsError> {
    count_faces(n, sides, |f| f >= at_least)
}

/// How many of `n` dice with `sides` sides show exactly `face` (A-GAP-03: "two or
/// more 6s" is `count_equal(n, 6, 6)?.prob_at_least(2)`).
///
/// ```
/// # use skirmish::engine::odds::count_equal;
/// // A-GAP-03: a Critical on 3d6 needs two or more 6s.
/// let p = count_equal(3, 6, 6).unwrap().prob_at_least(2);
/// assert!((p - 16.0 / 216.0).abs() < 1e-12);
/// ```
pub fn count_equal(n: u32, sides: u32, face: u32) -> Result<Distribution, OddsError> {
    count_faces(n, sides, |f| f == face)
}

/// The dice expression of `base` dice with `sides` sides and a net `advantage`: each
/// net advantage adds one die and keeps the `keep` highest, each net disadvantage
/// (a negative `advantage`) adds one and keeps the `keep` lowest; with no net
/// advantage the base dice are rolled (keeping the `keep` highest if `keep < base`). E-GAP-02: `netted_pool(3, 6, 3, 1)` is `4d6kh3`, `netted_pool(3, 6,
/// 3, -2)` is `5d6kl3`. Refused by the parser's limits (too many dice, a keep too
/// large to compute exactly).
///
/// ```
/// # use skirmish::engine::odds::netted_pool;
/// assert_eq!(netted_pool(3, 6, 3, -2).unwrap().to_string(), "5d6kl3");
/// ```
pub fn netted_pool(
    base: u32,
    sides: u32,
    keep: u32,
    advantage: i32,
) -> Result<DiceExpr, OddsError> {
    let n = u64::from(base) + u64::from(advantage.unsigned_abs());
    if n > u64::from(MAX_DICE_TOTAL) {
        return Err(OddsError::BadPool(format!(
            "a pool of {n} dice is too large (at most {MAX_DICE_TOTAL})"
        )));
    }
    check_pool(n as u32, sides)?;
    if keep == 0 || keep > base {
        return Err(OddsError::BadPool(format!(
            "cannot keep {keep} of {base} base dice (keep from 1 to {base})"
        )));
    }
    let text = match advantage {
        0 if keep == base => format!("{base}d{sides}"),
        0 => format!("{base}d{sides}kh{keep}"),
        a if a > 0 => format!("{n}d{sides}kh{keep}"),
        _ => format!("{n}d{sides}kl{keep}"),
    };
    Ok(text.parse()?)
}
