//! The unit stats `escalation` reads (E-01), as a level's `stats` map writes them,
//! with what each means and the range it plays with; the level check and the
//! editor's unit form come from this table.

use crate::engine::ruleset::{MAX_HP, MAX_MODIFIER, StatSpec};

/// Every stat of an `escalation` unit (E-01, E-GAP-05, E-GAP-08, E-GAP-17).
pub const STATS: &[StatSpec] = &[
    StatSpec::new(
        "Level",
        true,
        "added to attacks; the number of damage dice (E-02, E-07)",
        1,
        10,
    ),
    StatSpec::new(
        "Volition",
        true,
        "added to attacks and to hit damage (E-02, E-07)",
        -MAX_MODIFIER,
        MAX_MODIFIER,
    ),
    StatSpec::new(
        "HP",
        true,
        "hit points; 0 or less is Dying (PCs) or out (enemies) (E-46)",
        1,
        MAX_HP,
    ),
    StatSpec::new(
        "AC",
        true,
        "Armor Class, the defense most attacks target (E-02)",
        -MAX_MODIFIER,
        MAX_MODIFIER,
    ),
    StatSpec::new(
        "PD",
        true,
        "Physical Defense (E-02)",
        -MAX_MODIFIER,
        MAX_MODIFIER,
    ),
    StatSpec::new(
        "MD",
        true,
        "Mental Defense (E-02)",
        -MAX_MODIFIER,
        MAX_MODIFIER,
    ),
    StatSpec::new(
        "MissDamage",
        false,
        "damage on a miss: 0, or Level for some classes (E-07); default 0",
        0,
        MAX_HP,
    ),
    StatSpec::new(
        "Tier",
        false,
        "used by Confused (E-54); default 1 for Levels 1-4, 2 for 5-7, 3 for 8-10 (E-GAP-17)",
        1,
        3,
    ),
    StatSpec::new(
        "PC",
        false,
        "1 for a player character: Dying at 0 HP, Recoveries, acts first in its band (E-16, E-46); default 0",
        0,
        1,
    ),
    StatSpec::new(
        "Escalation",
        false,
        "1 if the Escalation die adds to its attacks (E-18, E-GAP-05); default 1 for PCs, 0 for enemies",
        0,
        1,
    ),
    StatSpec::new(
        "Recoveries",
        false,
        "Recoveries left (E-47); default from the ruleset (8) for PCs",
        0,
        100,
    ),
    StatSpec::new(
        "MeleeDie",
        false,
        "Melee stance damage die (E-GAP-08); default d8",
        1,
        100,
    ),
    StatSpec::new(
        "RangedDie",
        false,
        "Ranged stance damage die (E-GAP-08); default d6",
        1,
        100,
    ),
    StatSpec::new(
        "RecoveryDie",
        false,
        "size of a PC's recovery dice, Level of them plus Volition a Recovery (E-48); default d8",
        1,
        100,
    ),
    StatSpec::new(
        "Power",
        false,
        "a PC's Power pool, spent by powers that say `Spend X Power` (E-30); default 0",
        0,
        1000,
    ),
    StatSpec::new(
        "Flying",
        false,
        "1 if it flies: only flyers intercept it (E-39, E-57); default 0",
        0,
        1,
    ),
];

/// A unit's Tier when its level names none (E-GAP-17).
pub fn default_tier(level: i32) -> i32 {
    match level {
        ..=4 => 1,
        5..=7 => 2,
        _ => 3,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// E-GAP-17: Tier 1 for Levels 1-4, 2 for 5-7, 3 for 8-10.
    #[test]
    fn e_gap_17_default_tier() {
        let tiers: Vec<i32> = (1..=10).map(default_tier).collect();
        assert_eq!(tiers, [1, 1, 1, 1, 2, 2, 2, 3, 3, 3]);
    }

    /// E-01: the required stats are the ones every unit needs; names are unique.
    #[test]
    fn e_01_required_stats() {
        let required: Vec<&str> = STATS
            .iter()
            .filter(|s| s.required)
            .map(|s| s.name)
            .collect();
        assert_eq!(required, ["Level", "Volition", "HP", "AC", "PD", "MD"]);
        let mut names: Vec<&str> = STATS.iter().map(|s| s.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), STATS.len());
    }
}
