//! `wounds` (seed 002, RULES.md §3): d20 + Accuracy against Agility + 10, aimed
//! attacks that leave lasting wounds, free hits limited by Free Hit Slots, and
//! escalating crit and tragedy chains.
//!
//! The pure rules, tested against the worked examples: its constants ([`config`]),
//! attacks, damage and their exact odds ([`attack`]), wounds and their effects
//! ([`aim`]), the turn order ([`initiative`]), the action economy, movement and free
//! hits ([`economy`]) and who aims a free hit ([`free_hit`]), the unit stats
//! ([`stats`]), traits ([`units`]) and power headers ([`powers`]).
//!
//! The battle is split by the stages it plays (see [`play`]): rounds, turns and the
//! commands a unit gives in [`turn`] (one system, `drive`), movement with the free
//! hits it draws in [`movement`], attacks, damage and wounds in [`attack`], the end
//! of a turn and of the battle in [`end`], and the state they share in [`state`];
//! with spells cast and channeled in [`magic`], weapons drawn and sheathed and
//! things on the ground in [`gear`], fleeing and a feat's extra attack in
//! [`extra`], summoning during the battle in [`summon`], and [`check`] for
//! legality, [`verbs`] and [`events`]; [`ruleset`] puts it behind the seam.

pub mod aim;
pub mod archetype;
pub mod attack;
pub mod boost;
pub mod check;
pub mod config;
pub mod economy;
pub mod end;
pub mod events;
pub mod extra;
pub mod free_hit;
pub mod gear;
pub mod initiative;
pub mod magic;
pub mod movement;
pub mod powers;
pub mod ruleset;
pub mod state;
pub mod stats;
pub mod summon;
pub mod turn;
pub mod units;
pub mod verbs;

pub use ruleset::Wounds;
