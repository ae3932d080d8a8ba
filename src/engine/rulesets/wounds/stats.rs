//! The unit stats `wounds` reads (W-01, W-GAP-02, W-GAP-03), as a level's `stats`
//! map writes them, with what each means, the range it plays with and the default
//! when a level gives none; the level check and the editor's unit form will come
//! from this table.

use crate::engine::ruleset::{MAX_HP, MAX_MODIFIER, MAX_SPEED, StatSpec};

use super::config::WoundsConfig;

/// Every stat of a `wounds` unit (W-01).
pub const STATS: &[StatSpec] = &[
    StatSpec::new(
        "Agility",
        true,
        "Agility modifier: turn order, defense (Agility + 10) and Free Hit Slots \
         (Agility + 1) (W-02, W-13, W-27)",
        -MAX_MODIFIER,
        MAX_MODIFIER,
    ),
    StatSpec::new(
        "Accuracy",
        true,
        "Accuracy modifier, added to the d20 of attacks (W-13)",
        -MAX_MODIFIER,
        MAX_MODIFIER,
    ),
    StatSpec::new(
        "Strength",
        true,
        "Strength modifier, added to melee damage (W-GAP-01)",
        -MAX_MODIFIER,
        MAX_MODIFIER,
    ),
    StatSpec::new(
        "HP",
        false,
        "hit points; 0 or less is defeated; 20 for PCs, 10 for enemies by default \
         (W-GAP-02)",
        1,
        MAX_HP,
    ),
    StatSpec::new(
        "Level",
        false,
        "summoning slots (W-32); 1 by default",
        1,
        100,
    ),
    StatSpec::new("MP", false, "magic points; 0 by default (W-05)", 0, MAX_HP),
    StatSpec::new(
        "Armor",
        false,
        "flat reduction of every damage instance; 0 by default (W-GAP-03)",
        0,
        MAX_MODIFIER,
    ),
    StatSpec::new(
        "Movement",
        false,
        "spaces per Move action; 6 by default (W-07)",
        0,
        MAX_SPEED,
    ),
    StatSpec::new(
        "BonusActions",
        false,
        "Bonus Actions per turn; 2 by default (W-01)",
        0,
        10,
    ),
    StatSpec::new(
        "Reach",
        false,
        "melee zone radius: 1, 2 with the Reach feat (W-25)",
        1,
        10,
    ),
];

/// The value of an optional stat a level leaves out (W-01, W-GAP-02, W-GAP-03);
/// `None` for a required stat or an unknown one.
pub fn default_stat(cfg: &WoundsConfig, name: &str, pc: bool) -> Option<i32> {
    Some(match name {
        "HP" => cfg.default_hp(pc),
        "Level" => 1,
        "MP" | "Armor" => 0,
        "Movement" => i32::try_from(cfg.movement).ok()?,
        "BonusActions" => i32::try_from(cfg.bonus_actions).ok()?,
        "Reach" => i32::try_from(cfg.melee_zone).ok()?,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ruleset::config::load_default;

    /// W-01: the stats a unit needs, each once; Agility, Accuracy and Strength are
    /// required, every other one has a default within its range.
    #[test]
    fn w_01_stat_table() {
        let c: WoundsConfig = load_default().unwrap();
        let names: Vec<&str> = STATS.iter().map(|s| s.name).collect();
        assert_eq!(
            names,
            [
                "Agility",
                "Accuracy",
                "Strength",
                "HP",
                "Level",
                "MP",
                "Armor",
                "Movement",
                "BonusActions",
                "Reach"
            ]
        );
        for s in STATS {
            assert!(s.min <= s.max, "{}", s.name);
            match default_stat(&c, s.name, true) {
                None => assert!(s.required, "{} has no default", s.name),
                Some(v) => {
                    assert!(!s.required, "{}", s.name);
                    assert!((s.min..=s.max).contains(&v), "{} default {v}", s.name);
                }
            }
        }
        assert_eq!(default_stat(&c, "Nimbleness", true), None);
    }

    /// W-GAP-02 / W-07 / W-25: default HP 20 PC / 10 enemy, Movement 6, 2 BA,
    /// Reach 1.
    #[test]
    fn w_gap_02_defaults() {
        let c: WoundsConfig = load_default().unwrap();
        assert_eq!(default_stat(&c, "HP", true), Some(20));
        assert_eq!(default_stat(&c, "HP", false), Some(10));
        assert_eq!(default_stat(&c, "Movement", false), Some(6));
        assert_eq!(default_stat(&c, "BonusActions", false), Some(2));
        assert_eq!(default_stat(&c, "Reach", false), Some(1));
        assert_eq!(default_stat(&c, "Armor", false), Some(0));
    }
}
