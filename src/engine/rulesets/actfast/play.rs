//! `actfast`'s battle, by stage: rounds, turns, the commands a unit gives and morale
//! rolls in [`super::turn`] (with the one system, `drive`), movement and an attack's
//! approach in [`super::movement`], attacks, ripostes and damage in
//! [`super::attack`], the end of a turn in [`super::end`], and what several of them
//! use in [`super::state`].
//!
//! The seam ([`super::ruleset`]) reaches these names as `play::…`; they are
//! re-exported here so that its file, whose trait impls are being reworked, changed
//! only in its `use` lines when the battle was split by stage.

pub use super::attack::{odds, percent, weapon};
pub use super::movement::{ATTACK_OPTIONS, approach_options, approach_path, path_cost};
pub use super::state::{Asking, carries, condition_names, names, steps_left};
pub use super::turn::{drive, opening};
