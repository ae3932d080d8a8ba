//! Dice expressions and their exact probability distributions: the odds engine.
//!
//! Syntax (see README "Dice expressions"): a sum of terms separated by `+` or `-`.
//! A term is a constant (`3`) or a dice group `NdX` (`N` defaults to 1, `d%` = `d100`).
//! A `khK` / `klK` suffix keeps the `K` highest / lowest dice of the whole pool of dice
//! written since the start of the expression or the previous keep, so `2d6+1d8kh2`
//! rolls 2d6 and 1d8 together and keeps the best two; `4d6kh3+2` keeps three of four
//! and then adds 2. Distributions are computed exactly, by convolution and by dynamic
//! programming over kept dice; nothing is sampled.

use crate::engine::dice::{Dice, DiceError};

/// A parsed dice expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiceExpr {
    // implementation-defined
}

/// A problem in a dice expression, with the 0-based character position it was found at.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("at character {}: {message}", position + 1)]
pub struct ExprError {
    /// 0-based character offset into the expression.
    pub position: usize,
    /// What is wrong and what was expected.
    pub message: String,
}

/// One roll of an expression: every face rolled (in the order consumed), which were
/// kept, and the total.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExprRoll {
    /// Every die rolled as `(sides, face)`, in the order the dice were consumed.
    pub faces: Vec<(u32, u32)>,
    /// The faces that count toward the total.
    pub kept: Vec<u32>,
    /// The total, constants included.
    pub total: i64,
}

/// An exact discrete probability distribution over integer outcomes.
#[derive(Clone, Debug, PartialEq)]
pub struct Distribution {
    // implementation-defined (sorted outcomes with probabilities summing to 1)
}

impl std::str::FromStr for DiceExpr {
    type Err = ExprError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        todo!("{s}")
    }
}

impl std::fmt::Display for DiceExpr {
    /// Canonical text that parses back to an equal expression.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let _ = f;
        todo!()
    }
}

impl DiceExpr {
    /// The exact distribution of the expression's total.
    pub fn distribution(&self) -> Distribution {
        todo!()
    }

    /// Rolls the expression with `dice`, consuming dice left to right as written.
    pub fn roll(&self, dice: &mut Dice) -> Result<ExprRoll, DiceError> {
        todo!("{dice:?}")
    }

    /// Lowest and highest possible totals.
    pub fn range(&self) -> (i64, i64) {
        todo!()
    }
}

impl Distribution {
    /// A distribution that is `value` with certainty.
    pub fn constant(value: i64) -> Self {
        todo!("{value}")
    }

    /// The uniform distribution of one die with `sides` faces.
    pub fn die(sides: u32) -> Self {
        todo!("{sides}")
    }

    /// The distribution of the sum of independent draws from `self` and `other`.
    pub fn convolve(&self, other: &Distribution) -> Distribution {
        todo!("{other:?}")
    }

    /// `(value, probability)` pairs in ascending value order, zero-probability
    /// values omitted.
    pub fn outcomes(&self) -> Vec<(i64, f64)> {
        todo!()
    }

    /// Probability of exactly `value`.
    pub fn prob(&self, value: i64) -> f64 {
        todo!("{value}")
    }

    /// Probability of a total of at least `threshold`.
    pub fn prob_at_least(&self, threshold: i64) -> f64 {
        todo!("{threshold}")
    }

    /// Probability of a total of at most `threshold`.
    pub fn prob_at_most(&self, threshold: i64) -> f64 {
        todo!("{threshold}")
    }

    /// Expected value.
    pub fn mean(&self) -> f64 {
        todo!()
    }

    /// Lowest possible value.
    pub fn min(&self) -> i64 {
        todo!()
    }

    /// Highest possible value.
    pub fn max(&self) -> i64 {
        todo!()
    }
}
