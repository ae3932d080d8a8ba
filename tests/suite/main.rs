//! Every integration test in one executable.
//!
//! Each file under `tests/` used to link its own copy of the engine and Bevy; one
//! binary links once, which is most of what a clean `cargo test` costs on a 2-core
//! machine. The window tests (`tests/window.rs`, `tests/editor_window.rs`) stay
//! apart: they run without the test harness so Bevy's event loop owns the main thread.

mod common;

mod actfast;
mod actfast_scenarios;
mod ai;
mod archetypes;
mod badges;
mod check_cli;
mod dice_cli;
mod editor;
mod editor_ui;
mod escalation;
mod escalation_plays;
mod escalation_scenarios;
mod escalation_seed;
mod explain;
mod flow;
mod flow_seed;
mod fork;
mod fuzz;
mod hotseat;
mod levels;
mod odds;
mod phases;
mod property;
mod record;
mod reliability_engine;
mod reliability_messages;
mod replay;
#[cfg(feature = "render")]
mod resume;
mod script_cli;
mod threat;
mod toy_ruleset;
mod workbench;
mod wounds;
mod wounds_actions;
mod wounds_plays;
mod wounds_scenarios;
mod wounds_seed;
