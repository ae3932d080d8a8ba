//! `actfast` (seed 003, RULES.md §4): each round players choose to Act Fast (1 action
//! before the NPCs) or Act Well (2 actions after them); attacks are pools of d6 read
//! by the highest die; range bands; armor reduces every damage die; NPC morale.
//!
//! The groundwork, pure rules tested against the worked examples: its constants
//! ([`config`]), the unit stats and the conditions ([`stats`]), attack pools, their
//! reading, damage and exact odds ([`pool`]), the round's order ([`order`]) and
//! morale ([`morale`]). It is not in the registry yet: it can't play a battle.

pub mod config;
pub mod morale;
pub mod order;
pub mod pool;
pub mod stats;
