//! The headless battle engine: board, dice, odds, units, commands, events and the
//! rulesets, on bevy_app + bevy_ecs only (no window).

pub mod board;
pub mod dice;
pub mod odds;
pub mod rulesets;
