//! `wounds` (seed 002, RULES.md §3): d20 + Accuracy against Agility + 10, aimed
//! attacks that leave lasting wounds, free hits limited by Free Hit Slots, and
//! escalating crit and tragedy chains.
//!
//! Groundwork only: the rules that need no battle, as pure functions tested against
//! the worked examples — its constants ([`config`]), attacks, damage and their exact
//! odds ([`attack`]), wounds and their effects ([`aim`]), the turn order
//! ([`initiative`]), the action economy, movement and free hits ([`economy`]) and
//! the unit stats ([`stats`]). Not registered yet: it can't play a battle.

pub mod aim;
pub mod attack;
pub mod config;
pub mod economy;
pub mod initiative;
pub mod stats;
