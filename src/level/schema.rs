//! The RON level format, version 1: what a level file contains.
//!
//! The types are the engine's own description of a battle ([`crate::engine::spec`]),
//! so the engine never depends on the file layer; this module names them where level
//! code expects them. `docs/levels.md` documents every field with an example.

pub use crate::engine::spec::*;
