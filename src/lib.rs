//! skirmish: turn-based tactical skirmishes on hex and square grids under five
//! tabletop combat rulesets, with a command line for rule designers.
//!
//! Layers: [`engine`] runs battles headless (board, dice, odds, commands, events,
//! rulesets); [`level`] reads, checks and writes RON levels; [`script`] runs scripted
//! scenarios; [`cli`] is the command line.

pub mod ai;
pub mod cli;
pub mod editor;
pub mod engine;
#[cfg(feature = "render")]
pub mod game;
pub mod hotseat;
pub mod level;
pub mod replay;
pub mod script;
pub mod variant;
