//! The `escalation` ruleset's constants (RULES.md §2, §6.4), loaded from RON like
//! every ruleset's: `assets/rulesets/escalation.ron`, a compiled-in copy, and a
//! level's `rules` overriding single constants, each value checked before play.

use serde::{Deserialize, Serialize};

use crate::engine::bands::RangeBands;
use crate::engine::ruleset::MAX_SPEED;
use crate::engine::ruleset::config::{ConfigError, RulesetConfig, check_range};

/// The compiled-in copy of `assets/rulesets/escalation.ron`.
pub const DEFAULT_RON: &str = include_str!("../../../../assets/rulesets/escalation.ron");

/// Largest die a stance may roll.
pub const MAX_DIE: u32 = 100;
/// Largest save or Disengage target (3d6 with Advantage never tops 18).
pub const MAX_TARGET: i32 = 30;

/// Every constant and policy switch of `escalation`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EscalationConfig {
    /// Squares per Move action (E-GAP-01).
    pub speed: u32,
    /// Distance → band (E-GAP-01).
    pub bands: RangeBands,
    /// Initiative bands, first to act first (E-16).
    pub initiative_bands: Vec<String>,
    /// A unit's band when its level names none (E-GAP-09).
    pub default_band: String,
    /// The round the Escalation die is first placed (E-18).
    pub escalation_round: u32,
    /// Its value then (E-GAP-04).
    pub escalation_start: i32,
    /// Its largest value (E-18).
    pub escalation_max: i32,
    /// Natural roll that crits (E-04); Weak or Vulnerable take 1 off each (E-13, E-14).
    pub crit_at: i32,
    /// Natural roll that crit-fails (E-05).
    pub crit_fail_at: i32,
    /// Melee stance damage die (E-GAP-08).
    pub melee_die: u32,
    /// Ranged stance damage die (E-GAP-08).
    pub ranged_die: u32,
    /// Ranged stance reach in squares (E-GAP-08).
    pub ranged_reach: u32,
    /// Save-ends target (E-GAP-03).
    pub save_target: i32,
    /// Death save target (E-49).
    pub death_save_target: i32,
    /// Failed death saves that kill (E-50).
    pub death_save_failures: u32,
    /// Disengage difficulty against one enemy (E-37).
    pub disengage_base: i32,
    /// Recoveries a PC starts with by default (E-47).
    pub recoveries: u32,
    /// Damage rolls of at least this many dice are averaged instead of rolled: N ×
    /// the die's average, rounded down (E-11, E-GAP-21); 0 never averages.
    #[serde(default)]
    pub average_dice_from: u32,
    /// The units (by name) that act in a Surprise Round before round 1, one turn
    /// each in band order (E-17, E-GAP-10); empty: no surprise.
    #[serde(default)]
    pub surprise: Vec<String>,
    /// The ambush option: the Escalation die starts at 1 in round 1 (E-17, E-GAP-04).
    #[serde(default)]
    pub ambush: bool,
    /// Recoveries heal with their dice averaged (each die rounded down: 2d8 → 8)
    /// instead of rolled (E-48); off by default: rolled.
    #[serde(default)]
    pub average_recovery: bool,
}

impl RulesetConfig for EscalationConfig {
    const RULESET: &'static str = "escalation";
    const DEFAULT_RON: &'static str = DEFAULT_RON;

    fn problems(&self) -> Vec<ConfigError> {
        let mut out = Vec::new();
        let p = &mut out;
        check_range(p, "speed", self.speed, 1..=MAX_SPEED as u32);
        for problem in self.bands.problems() {
            p.push(ConfigError::new("bands", format!("`bands`: {problem}")));
        }
        if self.initiative_bands.is_empty() {
            p.push(ConfigError::new(
                "initiative_bands",
                "`initiative_bands` is empty; expected the bands in the order they act",
            ));
        }
        if !self.initiative_bands.contains(&self.default_band) {
            p.push(ConfigError::new(
                "default_band",
                format!(
                    "`default_band` is `{}`; expected one of the initiative bands: {}",
                    self.default_band,
                    self.initiative_bands.join(", ")
                ),
            ));
        }
        check_range(p, "escalation_round", self.escalation_round, 1..=1000);
        check_range(p, "escalation_max", self.escalation_max, 0..=100);
        check_range(
            p,
            "escalation_start",
            self.escalation_start,
            0..=self.escalation_max.max(0),
        );
        check_range(p, "crit_at", self.crit_at, 3..=18);
        check_range(p, "crit_fail_at", self.crit_fail_at, 0..=18);
        check_range(p, "melee_die", self.melee_die, 1..=MAX_DIE);
        check_range(p, "ranged_die", self.ranged_die, 1..=MAX_DIE);
        check_range(p, "ranged_reach", self.ranged_reach, 1..=MAX_SPEED as u32);
        for (key, v) in [
            ("save_target", self.save_target),
            ("death_save_target", self.death_save_target),
            ("disengage_base", self.disengage_base),
        ] {
            check_range(p, key, v, 0..=MAX_TARGET);
        }
        check_range(p, "death_save_failures", self.death_save_failures, 1..=100);
        check_range(p, "recoveries", self.recoveries, 0..=100);
        check_range(p, "average_dice_from", self.average_dice_from, 0..=1000);
        if self.surprise.len() > 2 {
            p.push(ConfigError::new(
                "surprise",
                format!(
                    "`surprise` names {} units; the ambushing party picks two (E-17)",
                    self.surprise.len()
                ),
            ));
        }
        out
    }
}

impl EscalationConfig {
    /// The Escalation die in round `round` (E-18, E-GAP-04, E-EX-5).
    pub fn escalation(&self, round: u32) -> i32 {
        // E-GAP-04: with the ambush option, round 1 is 1, round 2 is 2, ...
        let round = if self.ambush { round + 1 } else { round };
        if round < self.escalation_round {
            return 0;
        }
        let grown = i64::from(self.escalation_start) + i64::from(round - self.escalation_round);
        grown.min(i64::from(self.escalation_max)) as i32
    }

    /// The averaged total of `n` dice of `sides` sides: N × the die's average,
    /// rounded down (E-11; E-GAP-21: 36d10 is 198).
    pub fn averaged(n: u32, sides: u32) -> i64 {
        i64::from(n) * (i64::from(sides) + 1) / 2
    }

    /// The Disengage difficulty against `enemies` engaged enemies (E-37, E-EX-4).
    pub fn disengage_difficulty(&self, enemies: u32) -> i32 {
        super::engagement::disengage_difficulty(self.disengage_base, enemies as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ruleset::config::load_default;

    /// The shipped file loads and passes its own checks.
    #[test]
    fn the_shipped_constants_load() {
        let c: EscalationConfig = load_default().expect("escalation.ron");
        assert!(c.problems().is_empty(), "{:?}", c.problems());
        assert_eq!(c.bands.name_of(7), Some("Nearby"), "E-GAP-01");
    }

    /// E-EX-5 / E-18 / E-GAP-04: rounds 1-8 have Escalation 0, 1, 2, 3, 4, 5, 6, 6.
    #[test]
    fn e_ex_5_escalation_track() {
        let c: EscalationConfig = load_default().unwrap();
        let track: Vec<i32> = (1..=8).map(|r| c.escalation(r)).collect();
        assert_eq!(track, [0, 1, 2, 3, 4, 5, 6, 6]);
    }

    /// E-11 / E-GAP-21: averaged dice are N × the die's average; the seed's 190
    /// for 36d10 is a typo for 198.
    #[test]
    fn e_11_e_gap_21_averaged_dice() {
        assert_eq!(EscalationConfig::averaged(4, 6), 14);
        assert_eq!(EscalationConfig::averaged(36, 10), 198);
        assert_eq!(EscalationConfig::averaged(2, 4), 5);
        assert_eq!(EscalationConfig::averaged(40, 12), 260);
    }

    /// E-17 / E-GAP-04: with the ambush option the Escalation die is 1 in round 1.
    #[test]
    fn e_17_e_gap_04_ambush_starts_the_die_at_1() {
        let mut c: EscalationConfig = load_default().unwrap();
        c.ambush = true;
        let track: Vec<i32> = (1..=3).map(|r| c.escalation(r)).collect();
        assert_eq!(track, [1, 2, 3]);
    }

    /// E-EX-4 / E-37: disengaging from 3 enemies is Difficulty 13, from 2 is 12.
    #[test]
    fn e_ex_4_disengage_difficulty() {
        let c: EscalationConfig = load_default().unwrap();
        assert_eq!(c.disengage_difficulty(3), 13);
        assert_eq!(c.disengage_difficulty(2), 12);
        assert_eq!(c.disengage_difficulty(1), 11);
    }

    /// A value out of range is refused at its key, in words.
    #[test]
    fn bad_constants_are_named() {
        let mut c: EscalationConfig = load_default().unwrap();
        c.default_band = "Sluggish".into();
        c.escalation_start = 9;
        let keys: Vec<String> = c.problems().into_iter().map(|p| p.key).collect();
        assert_eq!(keys, ["default_band", "escalation_start"]);
    }
}
