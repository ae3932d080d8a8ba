//! The one error type of the odds helpers: a computation refused because it would be
//! too large to do exactly, or asked with arguments that are not probabilities.

use super::{ExprError, MAX_SPAN};

/// Why an odds helper refused to compute a distribution.
///
/// The helpers never sample and never panic: a request whose exact answer would be
/// too large (more than [`MAX_SPAN`] distinct values between its lowest and highest
/// outcome, or more than [`MAX_HELPER_WORK`](super::MAX_HELPER_WORK) steps of work)
/// or whose weights are not probabilities is refused with one of these.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum OddsError {
    /// The outcomes would spread over more than [`MAX_SPAN`] values.
    #[error(
        "{what} is too large to compute exactly: its outcomes would span {span} values \
         (at most {MAX_SPAN})"
    )]
    SpanTooLarge {
        /// What was being computed, in words (`"the sum of 5000 draws"`).
        what: String,
        /// How many values the result would span (`max - min`).
        span: u128,
    },
    /// The computation would take more steps than the helpers' work budget.
    #[error(
        "{what} is too large to compute exactly: about {work:.0} steps of work (at most {})",
        super::MAX_HELPER_WORK
    )]
    TooMuchWork {
        /// What was being computed, in words.
        what: String,
        /// The estimated number of steps.
        work: f64,
    },
    /// A value left the range of 64-bit integers (a multiplier chain, a scale).
    #[error("{what} overflows: a value leaves the range of 64-bit integers")]
    Overflow {
        /// What was being computed, in words.
        what: String,
    },
    /// A branch weight is not a probability.
    #[error("{what}: the weight {weight} is not a probability (it must be from 0 to 1)")]
    BadWeight {
        /// What was being computed, in words.
        what: String,
        /// The weight given.
        weight: f64,
    },
    /// The branch weights of a mixture do not add up to 1.
    #[error("{what}: the weights add up to {total}, not 1")]
    WeightsNotOne {
        /// What was being computed, in words.
        what: String,
        /// Their sum.
        total: f64,
    },
    /// A [`chain`](super::chain) with more than
    /// [`MAX_CHAIN_STEPS`](super::MAX_CHAIN_STEPS) steps.
    #[error("a chain of {0} steps is too long (at most {max})", max = super::MAX_CHAIN_STEPS)]
    ChainTooLong(usize),
    /// A pool of dice that cannot be rolled (no dice, no sides, too many dice).
    #[error("{0}")]
    BadPool(String),
    /// A dice expression built by a helper was refused by the parser's limits.
    #[error("{0}")]
    Expr(#[from] ExprError),
}
