//! Mixtures and branches: a distribution that is `p` of one distribution and `1 - p`
//! of another (a hit or a miss, a crit or a plain hit, a halved or a full hit), a
//! distribution built by branching on each outcome of a roll, and [`Outcomes`] — the
//! same with outcomes that are not numbers ("defeated instantly"), such as the
//! critical chain of `wounds` ([`chain`]).
//!
//! # "Defeated" and other outcomes that are not numbers
//!
//! [`Outcomes<S>`] holds numeric outcomes (a sub-probability [`Distribution`]) and
//! *special* outcomes of a type `S` the ruleset chooses (an enum such as
//! `enum End { Defeated }`), each with its own probability. A special outcome is
//! absorbing: branching on the numeric outcomes ([`Outcomes::and_then`],
//! [`Outcomes::map_values`]) leaves it as it is. No sentinel number is used, so a
//! mean, a `prob_at_least` or a map never mixes "defeated" into damage by accident;
//! [`Outcomes::mean_with`] asks how much each special outcome is worth.

use super::shape::{from_points, weighted_sum};
use super::{Distribution, OddsError};

/// How far the weights of a mixture may be from adding up to 1 (rounding of
/// probabilities computed from distributions).
pub const WEIGHT_TOLERANCE: f64 = 1e-9;

/// Most steps in a [`chain`].
pub const MAX_CHAIN_STEPS: usize = 64;

/// Checks mixture weights: each from 0 to 1, all together 1.
fn check_weights(
    weights: impl Iterator<Item = f64>,
    what: &dyn Fn() -> String,
) -> Result<(), OddsError> {
    let mut total = 0.0;
    for w in weights {
        if !(0.0..=1.0 + WEIGHT_TOLERANCE).contains(&w) {
            return Err(OddsError::BadWeight {
                what: what(),
                weight: w,
            });
        }
        total += w;
    }
    if (total - 1.0).abs() > WEIGHT_TOLERANCE {
        return Err(OddsError::WeightsNotOne {
            what: what(),
            total,
        });
    }
    Ok(())
}

impl Distribution {
    /// The mixture `Σ wᵢ × distributionᵢ`: with probability `wᵢ` the outcome is drawn
    /// from the `i`-th distribution. The weights must each be from 0 to 1 and add up
    /// to 1 (within [`WEIGHT_TOLERANCE`]). Work is the total size of the parts;
    /// refused when together they span more than [`super::MAX_SPAN`] values.
    ///
    /// ```
    /// # use skirmish::engine::odds::Distribution;
    /// // A hit (60%) deals d8, a miss deals 3 (miss damage).
    /// let hit = Distribution::die(8);
    /// let miss = Distribution::constant(3);
    /// let d = Distribution::mixture(&[(0.6, &hit), (0.4, &miss)]).unwrap();
    /// assert!((d.prob(3) - (0.4 + 0.6 / 8.0)).abs() < 1e-12);
    /// ```
    pub fn mixture(parts: &[(f64, &Distribution)]) -> Result<Distribution, OddsError> {
        let what = || "a mixture".to_string();
        check_weights(parts.iter().map(|&(w, _)| w), &what)?;
        Ok(weighted_sum(parts, what)?.unwrap_or_else(|| Distribution::constant(0)))
    }

    /// `p` of `a` and `1 - p` of `b` (see [`Distribution::mixture`]).
    ///
    /// ```
    /// # use skirmish::engine::odds::Distribution;
    /// // E-12: resist halving when the natural roll is under 14 (p = 0.8), else full.
    /// let full = Distribution::constant(17);
    /// let d = Distribution::either(0.8, &full.div_floor(2), &full).unwrap();
    /// assert!((d.prob(8) - 0.8).abs() < 1e-12);
    /// ```
    pub fn either(p: f64, a: &Distribution, b: &Distribution) -> Result<Distribution, OddsError> {
        if !(0.0..=1.0).contains(&p) {
            return Err(OddsError::BadWeight {
                what: "a choice of two distributions".to_string(),
                weight: p,
            });
        }
        Distribution::mixture(&[(p, a), (1.0 - p, b)])
    }

    /// Branches on every outcome `x` of `self`: the result is `f(x)` with the
    /// probability of `x`, all branches mixed. This is how a roll decides what comes
    /// next — the attack's natural roll decides miss, hit or crit, and the damage
    /// distribution of each (E-04 doubling, E-12 halving below the resist number).
    /// `f` is called once per possible outcome, in ascending order.
    ///
    /// Work is the total size of the branches; refused when they together span more
    /// than [`super::MAX_SPAN`] values.
    ///
    /// ```
    /// # use skirmish::engine::odds::Distribution;
    /// // d20 + 3 against defense 12: a natural 20 doubles a d8, a hit deals d8.
    /// let damage = Distribution::die(8);
    /// let d = Distribution::die(20)
    ///     .branch(|nat| match nat {
    ///         20 => damage.scale(2).unwrap(),
    ///         n if n + 3 >= 12 => damage.clone(),
    ///         _ => Distribution::constant(0),
    ///     })
    ///     .unwrap();
    /// assert!((d.prob(0) - 8.0 / 20.0).abs() < 1e-12);
    /// ```
    pub fn branch(
        &self,
        mut f: impl FnMut(i64) -> Distribution,
    ) -> Result<Distribution, OddsError> {
        let branches: Vec<(f64, Distribution)> = self.support().map(|(x, p)| (p, f(x))).collect();
        let parts: Vec<(f64, &Distribution)> = branches.iter().map(|(p, d)| (*p, d)).collect();
        Ok(
            weighted_sum(&parts, || "a branch on every outcome".to_string())?
                .unwrap_or_else(|| Distribution::constant(0)),
        )
    }

    /// Like [`Distribution::branch`], with branches that may end in outcomes that are
    /// not numbers (see [`Outcomes`]).
    pub fn branch_outcomes<S: Clone + PartialEq>(
        &self,
        mut f: impl FnMut(i64) -> Outcomes<S>,
    ) -> Result<Outcomes<S>, OddsError> {
        let branches: Vec<(f64, Outcomes<S>)> = self.support().map(|(x, p)| (p, f(x))).collect();
        Outcomes::mix_unchecked(&branches, || "a branch on every outcome".to_string())
    }
}

/// One outcome of an [`Outcomes`]: a number or a special outcome.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome<S> {
    /// A numeric outcome (damage, a total, a multiplier).
    Value(i64),
    /// An outcome that is not a number (`Defeated`).
    Special(S),
}

/// An exact distribution over numbers and special outcomes of type `S` (see the
/// [module documentation](self) for why "defeated" is not a sentinel number).
///
/// The probabilities of the numeric outcomes and of the special ones add up to 1.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcomes<S> {
    /// The numeric outcomes with their (unconditional) probabilities, which add up to
    /// [`Outcomes::prob_value`]; `None` when there are none.
    values: Option<Distribution>,
    /// Each special outcome once, with its probability, in the order first met.
    specials: Vec<(S, f64)>,
}

impl<S> From<Distribution> for Outcomes<S> {
    fn from(d: Distribution) -> Self {
        Outcomes {
            values: Some(d),
            specials: Vec::new(),
        }
    }
}

impl<S: Clone + PartialEq> Outcomes<S> {
    /// Only numeric outcomes, distributed as `d`.
    pub fn values(d: Distribution) -> Self {
        d.into()
    }

    /// The number `v` with certainty.
    pub fn value(v: i64) -> Self {
        Distribution::constant(v).into()
    }

    /// The special outcome `s` with certainty.
    pub fn special(s: S) -> Self {
        Outcomes {
            values: None,
            specials: vec![(s, 1.0)],
        }
    }

    /// The mixture `Σ wᵢ × outcomesᵢ` (see [`Distribution::mixture`] for the
    /// weights and bounds); equal special outcomes are merged.
    ///
    /// ```
    /// # use skirmish::engine::odds::Outcomes;
    /// #[derive(Clone, Debug, PartialEq)]
    /// struct Defeated;
    /// let d = Outcomes::mixture(&[(0.25, Outcomes::special(Defeated)), (0.75, Outcomes::value(5))])
    ///     .unwrap();
    /// assert_eq!(d.prob_special(&Defeated), 0.25);
    /// ```
    pub fn mixture(parts: &[(f64, Outcomes<S>)]) -> Result<Self, OddsError> {
        let what = || "a mixture".to_string();
        check_weights(parts.iter().map(|(w, _)| *w), &what)?;
        Self::mix_unchecked(parts, what)
    }

    /// `p` of `a` and `1 - p` of `b`.
    pub fn either(p: f64, a: Outcomes<S>, b: Outcomes<S>) -> Result<Self, OddsError> {
        if !(0.0..=1.0).contains(&p) {
            return Err(OddsError::BadWeight {
                what: "a choice of two outcomes".to_string(),
                weight: p,
            });
        }
        Self::mixture(&[(p, a), (1.0 - p, b)])
    }

    /// The mixture, weights already known to be probabilities.
    fn mix_unchecked(
        parts: &[(f64, Outcomes<S>)],
        what: impl FnOnce() -> String,
    ) -> Result<Self, OddsError> {
        let numeric: Vec<(f64, &Distribution)> = parts
            .iter()
            .filter_map(|(w, o)| o.values.as_ref().map(|d| (*w, d)))
            .collect();
        let values = weighted_sum(&numeric, what)?;
        let mut specials: Vec<(S, f64)> = Vec::new();
        for (w, o) in parts {
            if *w <= 0.0 {
                continue;
            }
            for (s, p) in &o.specials {
                match specials.iter_mut().find(|(t, _)| t == s) {
                    Some((_, q)) => *q += w * p,
                    None => specials.push((s.clone(), w * p)),
                }
            }
        }
        Ok(Outcomes { values, specials })
    }

    /// Branches on every numeric outcome `x`: it is replaced by `f(x)`; special
    /// outcomes stay as they are. `f` is called once per numeric outcome, ascending.
    /// Bounds as [`Distribution::branch`].
    pub fn and_then(&self, mut f: impl FnMut(i64) -> Outcomes<S>) -> Result<Self, OddsError> {
        let mut branches: Vec<(f64, Outcomes<S>)> = Vec::new();
        if let Some(d) = &self.values {
            branches.extend(d.support().map(|(x, p)| (p, f(x))));
        }
        for (s, p) in &self.specials {
            branches.push((*p, Outcomes::special(s.clone())));
        }
        Self::mix_unchecked(&branches, || "a branch on every outcome".to_string())
    }

    /// Applies `f` to every numeric outcome, merging equal results (see
    /// [`Distribution::map`]); special outcomes stay as they are.
    pub fn map_values(&self, mut f: impl FnMut(i64) -> i64) -> Result<Self, OddsError> {
        let values = match &self.values {
            None => None,
            Some(d) => {
                let mapped: Vec<(i64, f64)> = d.support().map(|(x, p)| (f(x), p)).collect();
                Some(from_points(&mapped, || "mapped outcomes".to_string())?)
            }
        };
        Ok(Outcomes {
            values,
            specials: self.specials.clone(),
        })
    }

    /// Probability that the outcome is the number `v`.
    pub fn prob(&self, v: i64) -> f64 {
        self.values.as_ref().map_or(0.0, |d| d.prob(v))
    }

    /// Probability that the outcome is a number of at least `threshold`.
    pub fn prob_at_least(&self, threshold: i64) -> f64 {
        self.values.as_ref().map_or(0.0, |d| {
            let p: f64 = d
                .support()
                .filter(|&(x, _)| x >= threshold)
                .map(|(_, p)| p)
                .sum();
            p.min(1.0)
        })
    }

    /// Probability that the outcome is the special outcome `s`.
    pub fn prob_special(&self, s: &S) -> f64 {
        self.specials
            .iter()
            .find(|(t, _)| t == s)
            .map_or(0.0, |&(_, p)| p)
    }

    /// Probability that the outcome is a number (1 minus the special outcomes').
    pub fn prob_value(&self) -> f64 {
        self.values
            .as_ref()
            .map_or(0.0, |d| d.probs.iter().sum::<f64>().min(1.0))
    }

    /// The distribution of the number, given that the outcome is one; `None` when no
    /// outcome is a number (or their probability underflowed to 0).
    pub fn given_value(&self) -> Option<Distribution> {
        let d = self.values.as_ref()?;
        let total: f64 = d.probs.iter().sum();
        if total <= 0.0 {
            return None;
        }
        Some(Distribution {
            lo: d.lo,
            probs: d.probs.iter().map(|p| p / total).collect(),
        })
    }

    /// Every possible outcome with its probability: the numbers ascending, then the
    /// special outcomes in the order first met.
    pub fn outcomes(&self) -> Vec<(Outcome<S>, f64)> {
        let mut out: Vec<(Outcome<S>, f64)> = self
            .values
            .iter()
            .flat_map(|d| d.support().map(|(x, p)| (Outcome::Value(x), p)))
            .collect();
        out.extend(
            self.specials
                .iter()
                .filter(|(_, p)| *p > 0.0)
                .map(|(s, p)| (Outcome::Special(s.clone()), *p)),
        );
        out
    }

    /// The expected value, a special outcome `s` counting as `worth(s)` (for damage,
    /// "defeated" may count as the target's remaining HP).
    pub fn mean_with(&self, worth: impl Fn(&S) -> f64) -> f64 {
        let numeric: f64 = self
            .values
            .iter()
            .flat_map(|d| d.support().map(|(x, p)| x as f64 * p))
            .sum();
        numeric + self.specials.iter().map(|(s, p)| worth(s) * p).sum::<f64>()
    }
}

/// What a successful step of a [`chain`] does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChainEffect<S> {
    /// Multiplies the current value (a super critical: ×2 again).
    Multiply(i64),
    /// Ends the chain in a special outcome (defeated instantly).
    Become(S),
}

/// One step of a [`chain`]: roll a die with `sides` faces; a face of at least
/// `at_least` succeeds and applies `effect`, and the chain goes on to the next step;
/// a lower face stops the chain where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChainStep<S> {
    /// The die rolled (0 is treated as 1, as [`Distribution::die`] does).
    pub sides: u32,
    /// The lowest face that succeeds (`6` on a d6 for "d6 = 6").
    pub at_least: u32,
    /// What a success does.
    pub effect: ChainEffect<S>,
}

/// The outcome of a chain of escalating rolls that starts at `start` (a critical
/// hit's ×2), as nested mixtures: each step is `p` of going on (its effect, then the
/// next steps) and `1 - p` of stopping. The result is the final multiplier, or the
/// special outcome a step turned into. W-20/W-21: `chain(2, [d4 ≥ 4 → ×2,
/// d6 ≥ 6 → Defeated])` is ×2 with probability 3/4, ×4 with 5/24 and defeated with
/// 1/24. Steps after a [`ChainEffect::Become`] are never reached. At most
/// [`MAX_CHAIN_STEPS`] steps; refused when a multiplier overflows.
///
/// ```
/// # use skirmish::engine::odds::{chain, ChainEffect, ChainStep};
/// #[derive(Clone, Debug, PartialEq)]
/// struct Defeated;
/// let crit = chain(2, &[
///     ChainStep { sides: 4, at_least: 4, effect: ChainEffect::Multiply(2) },
///     ChainStep { sides: 6, at_least: 6, effect: ChainEffect::Become(Defeated) },
/// ])
/// .unwrap();
/// assert!((crit.prob_special(&Defeated) - 1.0 / 24.0).abs() < 1e-12);
/// ```
pub fn chain<S: Clone + PartialEq>(
    start: i64,
    steps: &[ChainStep<S>],
) -> Result<Outcomes<S>, OddsError> {
    if steps.len() > MAX_CHAIN_STEPS {
        return Err(OddsError::ChainTooLong(steps.len()));
    }
    let Some((step, rest)) = steps.split_first() else {
        return Ok(Outcomes::value(start));
    };
    let sides = step.sides.max(1);
    // Faces at_least..=sides succeed.
    let hits = (sides + 1).saturating_sub(step.at_least.max(1)).min(sides);
    if hits == 0 {
        return Ok(Outcomes::value(start));
    }
    let p = f64::from(hits) / f64::from(sides);
    let on = match &step.effect {
        ChainEffect::Multiply(k) => {
            let next = start.checked_mul(*k).ok_or_else(|| OddsError::Overflow {
                what: "a chain of multipliers".to_string(),
            })?;
            chain(next, rest)?
        }
        ChainEffect::Become(s) => Outcomes::special(s.clone()),
    };
    let stop = Outcomes::value(start);
    let q = f64::from(sides - hits) / f64::from(sides);
    Outcomes::mixture(&[(p, on), (q, stop)])
}
