//! Map and clamp: functions applied to every outcome of a [`Distribution`], equal
//! results merged (armor per damage die, halving rounded down, floors and caps), and
//! sums of independent draws of one distribution (per-die maps before summing).

use super::{Distribution, MAX_SPAN, OddsError, flush};

/// Work budget of the odds helpers ([`Distribution::sum_n`], [`Distribution::branch`],
/// mixtures, face counts), in updates of one probability: the same budget as a dice
/// expression's convolutions, so no helper costs more than the largest expression the
/// parser accepts.
pub const MAX_HELPER_WORK: f64 = super::MAX_WORK as f64;

impl Distribution {
    /// The outcomes with probability above 0, as `(value, probability)`, without
    /// allocating.
    pub(super) fn support(&self) -> impl Iterator<Item = (i64, f64)> + '_ {
        self.probs
            .iter()
            .enumerate()
            .filter(|&(_, &p)| p > 0.0)
            .map(|(i, &p)| (self.lo + i as i64, p))
    }

    /// The distribution of `f(X)` for `X` drawn from `self`: `f` is applied to every
    /// possible outcome and the probabilities of equal results are added (in
    /// ascending order of `X`, so the result is deterministic).
    ///
    /// Work is linear in the number of outcomes; refused with
    /// [`OddsError::SpanTooLarge`] when the results would span more than
    /// [`MAX_SPAN`] values (e.g. `x * 1_000_000_000`).
    ///
    /// ```
    /// # use skirmish::engine::odds::Distribution;
    /// // A-15: 1 armor takes 1 off a d6 damage die, never below 0.
    /// let d = Distribution::die(6).map(|f| (f - 1).max(0)).unwrap();
    /// assert_eq!((d.min(), d.max(), d.prob(0)), (0, 5, 1.0 / 6.0));
    /// ```
    pub fn map(&self, mut f: impl FnMut(i64) -> i64) -> Result<Distribution, OddsError> {
        let mapped: Vec<(i64, f64)> = self.support().map(|(x, p)| (f(x), p)).collect();
        from_points(&mapped, || "a mapped distribution".to_string())
    }

    /// Every outcome below `lo` becomes `lo`, then every outcome above `hi` becomes
    /// `hi` (so when `lo > hi` everything becomes `hi`). Never larger than `self`.
    ///
    /// ```
    /// # use skirmish::engine::odds::Distribution;
    /// let d = Distribution::die(6).clamp(2, 5);
    /// assert_eq!((d.min(), d.max(), d.prob(2)), (2, 5, 2.0 / 6.0));
    /// ```
    pub fn clamp(&self, lo: i64, hi: i64) -> Distribution {
        self.shrink(|x| x.max(lo).min(hi))
    }

    /// Every outcome divided by `divisor` and rounded down (toward minus infinity:
    /// `-3 / 2 = -2`), as the rulesets halve (RULES.md: "always round down"). A
    /// `divisor` of 0 is treated as 1, as [`Distribution::die`] treats a d0 as a d1.
    ///
    /// ```
    /// # use skirmish::engine::odds::Distribution;
    /// // E-12: half damage, rounded down: 17 → 8.
    /// assert_eq!(Distribution::constant(17).div_floor(2).prob(8), 1.0);
    /// ```
    pub fn div_floor(&self, divisor: u32) -> Distribution {
        let d = i64::from(divisor.max(1));
        self.shrink(|x| x.div_euclid(d))
    }

    /// Every outcome multiplied by `factor` (crit doubling: `scale(2)`). Refused when
    /// the results would overflow or span more than [`MAX_SPAN`] values.
    ///
    /// ```
    /// # use skirmish::engine::odds::Distribution;
    /// let crit = Distribution::die(8).scale(2).unwrap();
    /// assert_eq!((crit.min(), crit.max(), crit.prob(3)), (2, 16, 0.0));
    /// ```
    pub fn scale(&self, factor: i64) -> Result<Distribution, OddsError> {
        let what = || format!("a distribution multiplied by {factor}");
        let mut mapped = Vec::with_capacity(self.probs.len());
        for (x, p) in self.support() {
            let y = x
                .checked_mul(factor)
                .ok_or_else(|| OddsError::Overflow { what: what() })?;
            mapped.push((y, p));
        }
        from_points(&mapped, what)
    }

    /// A map that cannot widen the support (clamps, divisions rounding down).
    fn shrink(&self, f: impl Fn(i64) -> i64) -> Distribution {
        let mapped: Vec<(i64, f64)> = self.support().map(|(x, p)| (f(x), p)).collect();
        // A monotone map never widens the span, so this cannot be refused; fall back to
        // the input for the impossible case rather than panic.
        from_points(&mapped, String::new).unwrap_or_else(|_| self.clone())
    }

    /// The distribution of the sum of `n` independent draws of `self` (`n = 0` is the
    /// constant 0). With a map first, this is a per-die map before summing: armor
    /// subtracted from each damage die, each die floored at 0 (A-15, A-GAP-05).
    ///
    /// Computed by `n - 1` exact convolutions. Refused when the sum would span more
    /// than [`MAX_SPAN`] values or the convolutions would take more than
    /// [`MAX_HELPER_WORK`] updates (about `n² × span² / 2`).
    ///
    /// ```
    /// # use skirmish::engine::odds::Distribution;
    /// // A-EX-3: 2d6 against armor 2, each die floored at 0.
    /// let per_die = Distribution::die(6).map(|f| (f - 2).max(0)).unwrap();
    /// let damage = per_die.sum_n(2).unwrap();
    /// assert_eq!((damage.min(), damage.max()), (0, 8));
    /// ```
    pub fn sum_n(&self, n: u32) -> Result<Distribution, OddsError> {
        if n == 0 {
            return Ok(Distribution::constant(0));
        }
        let what = || format!("the sum of {n} draws");
        let span = (self.max() - self.min()) as u128;
        let total_span = span * u128::from(n);
        if total_span > u128::from(MAX_SPAN) {
            return Err(OddsError::SpanTooLarge {
                what: what(),
                span: total_span,
            });
        }
        // Step i convolves a sum spanning i·span with one draw: (i·span + 1)(span + 1).
        let (s, m) = (span as f64, f64::from(n));
        let work = (s * (m - 1.0) * m / 2.0 + (m - 1.0)) * (s + 1.0);
        if work > MAX_HELPER_WORK {
            return Err(OddsError::TooMuchWork { what: what(), work });
        }
        let mut sum = self.clone();
        for _ in 1..n {
            sum = sum.convolve(self);
        }
        Ok(sum)
    }
}

/// A distribution from `(value, probability)` points, equal values added in the order
/// given; refused when the values span more than [`MAX_SPAN`]. Points with
/// probability 0 are ignored; no points at all give the constant 0 with probability 1
/// (callers only pass non-empty supports).
pub(super) fn from_points(
    points: &[(i64, f64)],
    what: impl FnOnce() -> String,
) -> Result<Distribution, OddsError> {
    let live = points.iter().filter(|&&(_, p)| p > 0.0);
    let (Some(lo), Some(hi)) = (
        live.clone().map(|&(v, _)| v).min(),
        live.clone().map(|&(v, _)| v).max(),
    ) else {
        return Ok(Distribution::constant(0));
    };
    let span = (i128::from(hi) - i128::from(lo)) as u128;
    if span > u128::from(MAX_SPAN) {
        return Err(OddsError::SpanTooLarge { what: what(), span });
    }
    let mut probs = vec![0.0; span as usize + 1];
    for &(v, p) in live {
        probs[(v - lo) as usize] += p;
    }
    for p in &mut probs {
        *p = flush(*p);
    }
    Ok(Distribution { lo, probs })
}

/// `Σ weight × distribution` over the parts with a weight above 0, every part added
/// value by value in the order given (deterministic). `None` when no part has weight.
/// Refused when the parts together span more than [`MAX_SPAN`] values. The work is the
/// total size of the parts, which the caller has already built.
pub(super) fn weighted_sum(
    parts: &[(f64, &Distribution)],
    what: impl FnOnce() -> String,
) -> Result<Option<Distribution>, OddsError> {
    let live = parts.iter().filter(|(w, _)| *w > 0.0);
    let (Some(lo), Some(hi)) = (
        live.clone().map(|(_, d)| d.min()).min(),
        live.clone().map(|(_, d)| d.max()).max(),
    ) else {
        return Ok(None);
    };
    let span = (i128::from(hi) - i128::from(lo)) as u128;
    if span > u128::from(MAX_SPAN) {
        return Err(OddsError::SpanTooLarge { what: what(), span });
    }
    let mut probs = vec![0.0; span as usize + 1];
    for (w, d) in live {
        let offset = (d.lo - lo) as usize;
        for (t, &p) in probs[offset..].iter_mut().zip(&d.probs) {
            *t += w * p;
        }
    }
    for p in &mut probs {
        *p = flush(*p);
    }
    Ok(Some(Distribution { lo, probs }))
}
