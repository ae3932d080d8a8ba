//! `escalation` (seed 001, RULES.md §2): 3d6 + Level + Volition + the Escalation die
//! against AC/PD/MD, initiative bands, stances, interrupts, dying and death saves.
//!
//! The rules that need no battle are pure functions, tested against the worked
//! examples — the arithmetic of attacks and their odds ([`attack`]), saves and death
//! saves ([`saves`]), initiative groups ([`initiative`]), conditions, engagement, the
//! action economy ([`actions`]), damage types ([`harm`]), stats and constants.
//!
//! The battle is split by the stages it plays (see [`play`]): rounds, turns and the
//! commands a unit gives in [`turn`] (one system, `drive`), movement with its
//! opportunity attacks and Intercepts in [`movement`], attacks, damage and healing in
//! [`attack`], the end of a turn in [`end`], and the state they share in [`state`].
//! Legality lives in [`check`], unit data and traits in [`units`], power headers in
//! [`powers`], the special actions in [`verbs`], Interrupt powers in
//! [`interrupts`], narration in [`events`]; [`Escalation`] is what the engine, the
//! editor and the AI ask of it.

pub mod actions;
pub mod archetype;
pub mod attack;
pub mod check;
pub mod conditions;
pub mod config;
pub mod end;
pub mod engagement;
pub mod events;
pub mod harm;
pub mod initiative;
pub mod interrupts;
pub mod movement;
pub mod powers;
pub mod ruleset;
pub mod saves;
pub mod state;
pub mod stats;
pub mod turn;
pub mod units;
pub mod verbs;

pub use ruleset::Escalation;
