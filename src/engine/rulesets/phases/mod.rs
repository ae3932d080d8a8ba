//! The `phases` ruleset (seed 000, RULES.md §1).

pub mod config;

pub use config::PhasesConfig;

use super::StatSpec;

/// The stats a `phases` unit has (P-01, P-GAP-05).
pub const STATS: &[StatSpec] = &[
    StatSpec { name: "INT", required: true, about: "added to initiative (P-11)" },
    StatSpec { name: "AGI", required: true, about: "added to initiative (P-11)" },
    StatSpec { name: "ATK", required: true, about: "attack modifier: 2d6 + ATK (P-23)" },
    StatSpec { name: "DEF", required: true, about: "defense: attacks hit on >= DEF (P-23)" },
    StatSpec { name: "Tier", required: true, about: "1, 2 or 3; tier difference gives advantage (P-24)" },
    StatSpec { name: "HP", required: false, about: "hit points; default 10 x Tier (P-GAP-05)" },
    StatSpec { name: "Speed", required: false, about: "squares per Walk; default 6 (P-GAP-04)" },
];
