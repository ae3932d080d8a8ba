//! `actfast` (seed 003, RULES.md §4): each round players choose to Act Fast (1 action
//! before the NPCs) or Act Well (2 actions after them); attacks are pools of d6 read
//! by the highest die; range bands; armor reduces every damage die; NPC morale.
//!
//! The pure rules, tested against the worked examples: its constants ([`config`]),
//! the unit stats and the conditions ([`stats`]), attack pools, their reading,
//! damage and exact odds ([`pool`]), the round's order ([`order`]) and morale
//! ([`morale`]).
//!
//! The battle is split by the stages it plays (see [`play`]): rounds, turns, the
//! commands a unit gives and morale rolls in [`turn`] (one system, `drive`),
//! movement and an attack's approach in [`movement`], attacks, ripostes and damage
//! in [`attack`], the end of a turn in [`end`], and the state they share in
//! [`state`]; [`check`] for legality, [`units`] for traits, [`verbs`] and
//! [`events`]; [`ruleset`] puts it behind the seam.

pub mod archetype;
pub mod attack;
pub mod check;
pub mod config;
pub mod end;
pub mod events;
pub mod morale;
pub mod movement;
pub mod order;
pub mod pool;
pub mod ruleset;
pub mod state;
pub mod stats;
pub mod turn;
pub mod units;
pub mod verbs;

pub use ruleset::Actfast;
