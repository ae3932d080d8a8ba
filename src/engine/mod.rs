//! The headless battle engine: board, dice, odds, units, commands, events and the
//! rulesets, on bevy_app + bevy_ecs only (no window).

pub mod archetype;
pub mod bands;
pub mod battle;
pub mod board;
pub mod command;
pub mod conditions;
pub mod decision;
pub mod dice;
pub mod event;
pub mod explain;
pub mod fork;
pub mod initiative;
pub mod items;
pub mod log;
pub mod odds;
pub mod options;
pub mod problems;
pub mod queries;
pub mod ruleset;
pub mod rulesets;
pub mod schedule;
pub mod skill;
pub mod spec;
pub mod stack;
pub mod units;
pub mod verb;
pub mod walk;

pub use battle::{Awaiting, Battle};
pub use command::{Command, CommandError};
pub use event::Event;
