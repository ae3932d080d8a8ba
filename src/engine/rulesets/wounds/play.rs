//! `wounds`' battle, by stage: rounds, turns and the commands a unit gives in
//! [`super::turn`] (with the one system, `drive`), movement with the free hits it
//! draws in [`super::movement`], attacks, damage and wounds in [`super::attack`],
//! the end of a turn and of the battle in [`super::end`], and what several of them
//! use in [`super::state`].
//!
//! The seam ([`super::ruleset`]) reaches these names as `play::…`; they are
//! re-exported here so that its file, whose trait impls are being reworked, changed
//! only in its `use` lines when the battle was split by stage.

pub use super::attack::{Swing, best_aim, damage_and_kill, kind_now, unarmed, wound_effect};
pub use super::movement::{free_hits, move_plan, path_cost, reach_left};
pub use super::state::{DASH, WState, ZoneSteps, in_zone_of};
pub use super::turn::drive;
