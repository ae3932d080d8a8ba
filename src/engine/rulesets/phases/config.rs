//! The `phases` ruleset's constants (RULES.md §6.4), loaded from RON.
//!
//! The defaults live in `assets/rulesets/phases.ron`; a copy is compiled in so the
//! engine works from anywhere, and the file on disk (under `$SKIRMISH_ASSETS` or
//! `./assets`) wins when present, so a designer can tune without recompiling. A
//! level's `rules` map overrides single constants on top.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::level::schema::PowerDef;

/// The compiled-in copy of `assets/rulesets/phases.ron`.
pub const DEFAULT_RON: &str = include_str!("../../../../assets/rulesets/phases.ron");

/// Every constant and policy switch of `phases`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PhasesConfig {
    /// Squares per Walk (P-GAP-04, P-GAP-05).
    pub speed: u32,
    /// HP = this × Tier unless the unit gives HP (P-GAP-05).
    pub hp_per_tier: i32,
    /// Dice added to INT + AGI for initiative (P-GAP-01).
    pub initiative_dice: String,
    /// Die the tied units roll to break initiative ties (P-14).
    pub tie_die: u32,
    /// Dice of an attack roll before advantage (P-23).
    pub attack_dice: String,
    /// Extra die by number of advantage sources: 1, 2, 3, 4+ (P-04).
    pub advantage_dice: Vec<u32>,
    /// Extra die by number of disadvantage sources: 1, 2, 3, 4+ (P-06).
    pub disadvantage_dice: Vec<u32>,
    /// Net advantage against disadvantage (P-GAP-03); when false, both cancel out
    /// entirely whenever both are present.
    pub net_sources: bool,
    /// Dice of a saving throw (P-29).
    pub save_dice: String,
    /// A save succeeds at this total or higher (P-29).
    pub save_target: i32,
    /// Whether a unit Slowed when its movement turn starts can't move (P-GAP-09).
    pub slowed_at_start_blocks: bool,
    /// The power used when a unit lists none, and for opportunity attacks of units
    /// without a melee power (P-GAP-06, P-GAP-16).
    pub default_power: PowerDef,
    /// Movement powers every unit has (P-02, P-GAP-04), in menu order.
    pub movement_powers: Vec<MovementPowerDef>,
    /// Extra movement powers a unit may list by name (P-02: "from their calling or role").
    pub extra_movement_powers: Vec<MovementPowerDef>,
}

/// A movement power, data-driven (P-GAP-04).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MovementPowerDef {
    /// Name, as commands and levels refer to it.
    pub name: String,
    /// How far it moves.
    pub distance: Distance,
    /// Whether leaving a threatened square provokes opportunity attacks (P-20).
    #[serde(default = "yes")]
    pub provokes: bool,
    /// Conditions the mover takes on by using it (e.g. Disengage's attack penalty).
    #[serde(default)]
    pub applies: Vec<String>,
    /// Charge: every step must end closer to the chosen enemy and the move must end
    /// adjacent to it; the first attack against it this round gains 1 advantage source.
    #[serde(default)]
    pub charge: bool,
    /// Whether it may also be used as a Battle action (Disengage, P-28).
    #[serde(default)]
    pub battle_action: bool,
}

fn yes() -> bool {
    true
}

/// Movement budget of a power: `speed_times` × Speed + `squares`.
///
/// A plain struct rather than an enum so that a level's `rules` overrides (merged as
/// untyped RON values) can replace the movement power table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Distance {
    /// Multiples of the unit's Speed.
    #[serde(default)]
    pub speed_times: u32,
    /// Extra squares.
    #[serde(default)]
    pub squares: u32,
}

impl Distance {
    /// The budget for a unit with `speed`.
    pub fn budget(self, speed: u32) -> u32 {
        speed * self.speed_times + self.squares
    }
}

impl PhasesConfig {
    /// The configuration from `assets/rulesets/phases.ron` on disk if present,
    /// otherwise the compiled-in copy.
    pub fn load_default() -> Result<Self, String> {
        crate::engine::rulesets::config::load_default("phases", DEFAULT_RON)
    }

    /// Parses a configuration; the error reads `line:col: message`.
    pub fn from_ron(text: &str) -> Result<Self, String> {
        crate::engine::rulesets::config::from_ron(text)
    }

    /// This configuration with a level's overrides applied, each key naming a field.
    pub fn with_overrides(&self, overrides: &BTreeMap<String, ron::Value>) -> Result<Self, String> {
        crate::engine::rulesets::config::with_overrides(self, "phases", overrides)
    }

    /// A movement power by name, among the defaults and the extras.
    pub fn movement_power(&self, name: &str) -> Option<&MovementPowerDef> {
        self.movement_powers
            .iter()
            .chain(&self.extra_movement_powers)
            .find(|p| p.name.eq_ignore_ascii_case(name))
    }

    /// The extra die for `sources` sources of advantage (`adv`) or disadvantage,
    /// capped at the last entry (P-04, P-06, P-08); `None` for zero sources.
    pub fn extra_die(&self, sources: u32, adv: bool) -> Option<u32> {
        let table = if adv {
            &self.advantage_dice
        } else {
            &self.disadvantage_dice
        };
        if sources == 0 || table.is_empty() {
            return None;
        }
        let i = (sources as usize - 1).min(table.len() - 1);
        Some(table[i])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_config_parses() {
        let c = PhasesConfig::from_ron(DEFAULT_RON).unwrap();
        assert_eq!(c.speed, 6);
        assert_eq!(c.save_target, 7);
    }

    #[test]
    fn p_04_p_06_p_08_extra_die_sizes() {
        let c = PhasesConfig::from_ron(DEFAULT_RON).unwrap();
        let adv: Vec<_> = (1..=5).map(|n| c.extra_die(n, true).unwrap()).collect();
        let dis: Vec<_> = (1..=5).map(|n| c.extra_die(n, false).unwrap()).collect();
        assert_eq!(adv, [6, 8, 10, 12, 12]); // P-04, P-08
        assert_eq!(dis, [12, 10, 8, 6, 6]); // P-06, P-08
        assert_eq!(c.extra_die(0, true), None);
    }

    #[test]
    fn overrides_apply_and_unknown_keys_fail() {
        let c = PhasesConfig::from_ron(DEFAULT_RON).unwrap();
        let mut o = BTreeMap::new();
        o.insert("speed".to_string(), ron::Value::Number(ron::Number::U32(4)));
        assert_eq!(c.with_overrides(&o).unwrap().speed, 4);
        // A whole table with nested structs survives the merge too.
        let table = "[(name: \"Walk\", distance: (speed_times: 1, squares: 1))]";
        o.insert("movement_powers".to_string(), ron::from_str(table).unwrap());
        let merged = c.with_overrides(&o).unwrap();
        assert_eq!(merged.movement_powers[0].distance.budget(merged.speed), 5);
        o.insert("sped".to_string(), ron::Value::Number(ron::Number::U32(4)));
        let err = c.with_overrides(&o).unwrap_err();
        assert!(err.contains("unknown rule constant `sped`"), "{err}");
    }
}
