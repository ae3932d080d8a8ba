//! `escalation` (seed 001, RULES.md §2): 3d6 + Level + Volition + the Escalation die
//! against AC/PD/MD, initiative bands, stances, interrupts, dying and death saves.
//!
//! Work in progress (issue 13): the attack arithmetic is here and tested against the
//! worked examples; the ruleset joins the registry when it plays a battle.

pub mod actions;
pub mod attack;
pub mod bands;
pub mod conditions;
pub mod config;
pub mod engagement;
pub mod harm;
pub mod saves;
pub mod stats;
