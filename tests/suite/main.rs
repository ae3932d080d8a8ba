//! temp
mod ai;
mod common;
mod fork;
