//! `escalation` (seed 001, RULES.md §2): 3d6 + Level + Volition + the Escalation die
//! against AC/PD/MD, initiative bands, stances, interrupts, dying and death saves.
//!
//! Work in progress (issue 13): the rules that need no battle are here as pure
//! functions, tested against the worked examples — attacks and their odds, saves
//! and death saves, initiative groups, conditions, engagement, the action economy,
//! damage types, stats and constants. The ruleset joins the registry when it plays
//! a battle.

pub mod actions;
pub mod attack;
pub mod conditions;
pub mod config;
pub mod engagement;
pub mod harm;
pub mod initiative;
pub mod saves;
pub mod stats;
