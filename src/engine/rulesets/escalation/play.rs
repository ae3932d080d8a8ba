//! `escalation`'s battle, by stage: rounds, turns and the commands a unit gives in
//! [`super::turn`] (with the one system, `drive`), movement with its opportunity
//! attacks and Intercepts in [`super::movement`], attacks, damage and healing in
//! [`super::attack`], the end of a turn and its saves in [`super::end`], and what
//! several of them use in [`super::state`].
//!
//! The seam ([`super::ruleset`]) reaches these names as `play::…`; they are
//! re-exported here so that its file, whose trait impls are being reworked, changed
//! only in its `use` lines when the battle was split by stage.

pub use super::attack::{DamageRoll, Strike, basic_power, parse_effect, strike};
pub use super::movement::engaged;
pub use super::state::{EscState, die_for, pool_name};
pub use super::turn::drive;
