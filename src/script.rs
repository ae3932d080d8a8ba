//! Scripted scenarios: a level, dice and a list of commands, run headless.
