//! The `wounds` ruleset's constants (RULES.md §3, §6.4), loaded from RON like every
//! ruleset's: `assets/rulesets/wounds.ron`, a compiled-in copy, and a level's `rules`
//! overriding single constants, each value checked before play.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::engine::odds::DiceExpr;
use crate::engine::ruleset::config::{ConfigError, RulesetConfig, check_range};
use crate::engine::ruleset::{MAX_HP, MAX_MODIFIER, MAX_RANGE, MAX_SPEED, parse_dice};

/// The configuration's defaults, read once: the editor checks every phrase on
/// every edit.
pub(super) fn defaults() -> Result<&'static WoundsConfig, String> {
    static DEFAULTS: std::sync::OnceLock<Result<WoundsConfig, String>> = std::sync::OnceLock::new();
    DEFAULTS
        .get_or_init(crate::engine::ruleset::config::load_default::<WoundsConfig>)
        .as_ref()
        .map_err(Clone::clone)
}

/// The compiled-in copy of `assets/rulesets/wounds.ron`.
pub const DEFAULT_RON: &str = include_str!("../../../../assets/rulesets/wounds.ron");

/// Largest die a chain, a Fatal wound or sneak damage may roll.
pub const MAX_DIE: u32 = 100;

/// One weapon of the table (W-14, W-GAP-01).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Weapon {
    /// Its name, as levels write it.
    pub name: String,
    /// Its damage dice, e.g. `1d8`.
    pub damage: String,
    /// Squares it reaches (1 for melee weapons).
    pub range: u32,
    /// Whether it is a melee weapon: its damage adds the Strength modifier
    /// (W-GAP-01), the Bonus Action damage boost (W-09) and it makes free hits.
    pub melee: bool,
}

impl Weapon {
    /// Its damage dice, parsed (checked by [`WoundsConfig::problems`]).
    pub fn dice(&self) -> Result<DiceExpr, crate::engine::ruleset::BadDice> {
        parse_dice(&self.damage)
    }
}

/// Every constant and policy switch of `wounds`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WoundsConfig {
    /// Spaces per Move action (W-07).
    pub movement: u32,
    /// Extra spaces per Bonus Action spent on moving (W-09).
    pub ba_move_bonus: u32,
    /// Bonus Actions per turn (W-01).
    pub bonus_actions: u32,
    /// Melee zone radius in squares (W-25).
    pub melee_zone: u32,
    /// Added to the Agility modifier for the defense number (W-13).
    pub defense_base: i64,
    /// Defense of a flat-footed unit, whatever its Agility (W-29).
    pub flat_footed_defense: i64,
    /// Defense of a prone unit before its Agility modifier (W-30).
    pub prone_defense: i64,
    /// Natural roll that is a critical hit and always hits (W-20, W-GAP-05).
    pub crit_at: i64,
    /// Natural roll that always misses (W-22).
    pub fumble_at: i64,
    /// Damage multiplier of a critical hit; a super critical doubles it again (W-20,
    /// W-21).
    pub crit_multiplier: i64,
    /// Die of the chain's first link (W-21, W-23).
    pub super_die: u32,
    /// Lowest face of [`WoundsConfig::super_die`] that escalates.
    pub super_face: u32,
    /// Die of the chain's second link: instant defeat or a fatal blow (W-21, W-24).
    pub decisive_die: u32,
    /// Lowest face of [`WoundsConfig::decisive_die`] that escalates.
    pub decisive_face: u32,
    /// Net damage of one attack that deals a wound (W-18).
    pub wound_threshold: i64,
    /// Die rolled for a Fatal wound's extra damage (W-GAP-06).
    pub fatal_die: u32,
    /// Lowest face of [`WoundsConfig::fatal_die`] that adds it.
    pub fatal_face: u32,
    /// The extra damage, added after reductions (W-17, W-GAP-04).
    pub fatal_bonus: i64,
    /// Movement a Slowing wound takes (W-17).
    pub slowing_movement: i64,
    /// Agility a Slowing wound takes (W-17).
    pub slowing_agility: i64,
    /// Strength a Weakening wound takes (W-17).
    pub weakening_strength: i64,
    /// Bonus Actions a Weakening wound takes (W-17).
    pub weakening_bonus_actions: i64,
    /// Accuracy a Disrupting wound takes for the battle (W-17, W-GAP-09).
    pub disrupting_accuracy: i64,
    /// Accuracy it takes in all during the round it is dealt (W-GAP-09).
    pub disrupting_round_accuracy: i64,
    /// HP of one healing instance that removes a wound (W-19).
    pub heal_removes_wound: i64,
    /// Whether a Center Mass wound (a spell's included) counts as a wound for
    /// healing: `true` (RULES.md W-GAP-08's reading), a 6+ healing instance removes
    /// the most recent wound even when it is a Center Mass one, which has no effect;
    /// `false`, Center Mass wounds are not kept, so healing skips them and removes
    /// the most recent wound with an effect (W-19, W-GAP-07, W-GAP-08).
    pub heal_center_mass: bool,
    /// Accuracy bonus of a Center Mass aim (W-17).
    pub center_mass_bonus: i64,
    /// Accuracy bonus of flanking (W-15, W-GAP-17).
    pub flanking_bonus: i64,
    /// To-hit bonus bought by one Bonus Action (W-09, W-GAP-13).
    pub ba_hit_bonus: i64,
    /// Melee damage bonus bought by one Bonus Action (W-09, W-GAP-13).
    pub ba_damage_bonus: i64,
    /// Dodge (defense) bonus bought by one Bonus Action (W-09, W-GAP-13).
    pub ba_dodge_bonus: i64,
    /// Free Hit Slots per round = Agility + this (W-27).
    pub fhs_base: i64,
    /// The step inside a melee zone that draws a free hit (W-26, W-GAP-15).
    pub free_hit_step: u32,
    /// Prone movement divisor (W-30, W-GAP-19).
    pub prone_divisor: u32,
    /// Half-speed movement divisor (W-08, W-GAP-19).
    pub half_divisor: u32,
    /// Spaces a difficult square costs (W-GAP-20).
    pub difficult_cost: u32,
    /// Default HP of a PC (W-GAP-02).
    pub pc_hp: i32,
    /// Default HP of an enemy (W-GAP-02).
    pub enemy_hp: i32,
    /// Armor names and their flat reduction per damage instance (W-GAP-03).
    pub armor: BTreeMap<String, i64>,
    /// The weapon table (W-GAP-01).
    pub weapons: Vec<Weapon>,
    /// Sneak damage die (W-16).
    pub sneak_die: u32,
    /// AI sides surrender below this percentage of their starting HP; 0 never
    /// (W-GAP-21).
    pub ai_surrender_percent: u32,
    /// This configuration's identity for the odds cache ([`WoundsConfig::fingerprint`]);
    /// not a constant: never read from or written to a file.
    #[serde(skip)]
    pub identity: Fingerprint,
}

/// A configuration's identity for caches: a hash of every constant, computed on first
/// use and kept by its clones. A configuration is not changed once in use (a level's
/// overrides build a new one), so two battles with different constants never share
/// a fingerprint, even in one thread. It takes no part in comparing configurations.
#[derive(Clone, Debug, Default)]
pub struct Fingerprint(std::sync::OnceLock<u64>);

impl PartialEq for Fingerprint {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for Fingerprint {}

impl RulesetConfig for WoundsConfig {
    const RULESET: &'static str = "wounds";
    const DEFAULT_RON: &'static str = DEFAULT_RON;

    fn problems(&self) -> Vec<ConfigError> {
        let mut out = Vec::new();
        let p = &mut out;
        let speed = MAX_SPEED as u32;
        let m = i64::from(MAX_MODIFIER);
        check_range(p, "movement", self.movement, 0..=speed);
        check_range(p, "ba_move_bonus", self.ba_move_bonus, 0..=speed);
        check_range(p, "bonus_actions", self.bonus_actions, 0..=10);
        check_range(p, "melee_zone", self.melee_zone, 1..=10);
        for (key, v) in [
            ("defense_base", self.defense_base),
            ("flat_footed_defense", self.flat_footed_defense),
            ("prone_defense", self.prone_defense),
            ("slowing_movement", self.slowing_movement),
            ("slowing_agility", self.slowing_agility),
            ("weakening_strength", self.weakening_strength),
            ("weakening_bonus_actions", self.weakening_bonus_actions),
            ("disrupting_accuracy", self.disrupting_accuracy),
            ("disrupting_round_accuracy", self.disrupting_round_accuracy),
            ("center_mass_bonus", self.center_mass_bonus),
            ("flanking_bonus", self.flanking_bonus),
            ("ba_hit_bonus", self.ba_hit_bonus),
            ("ba_damage_bonus", self.ba_damage_bonus),
            ("ba_dodge_bonus", self.ba_dodge_bonus),
            ("fhs_base", self.fhs_base),
        ] {
            check_range(p, key, v, -m..=m);
        }
        check_range(p, "crit_at", self.crit_at, 2..=20);
        check_range(p, "fumble_at", self.fumble_at, 0..=self.crit_at - 1);
        check_range(p, "crit_multiplier", self.crit_multiplier, 1..=10);
        for (key, v) in [
            ("super_die", self.super_die),
            ("decisive_die", self.decisive_die),
            ("fatal_die", self.fatal_die),
            ("sneak_die", self.sneak_die),
        ] {
            check_range(p, key, v, 1..=MAX_DIE);
        }
        // A face above its die never comes up: that link of the chain is off.
        check_range(p, "super_face", self.super_face, 1..=self.super_die + 1);
        check_range(
            p,
            "decisive_face",
            self.decisive_face,
            1..=self.decisive_die + 1,
        );
        check_range(p, "fatal_face", self.fatal_face, 1..=self.fatal_die + 1);
        check_range(p, "wound_threshold", self.wound_threshold, 1..=1000);
        check_range(p, "fatal_bonus", self.fatal_bonus, 0..=1000);
        check_range(p, "heal_removes_wound", self.heal_removes_wound, 1..=1000);
        check_range(p, "free_hit_step", self.free_hit_step, 1..=100);
        check_range(p, "prone_divisor", self.prone_divisor, 1..=100);
        check_range(p, "half_divisor", self.half_divisor, 1..=100);
        check_range(p, "difficult_cost", self.difficult_cost, 1..=100);
        check_range(p, "pc_hp", self.pc_hp, 1..=MAX_HP);
        check_range(p, "enemy_hp", self.enemy_hp, 1..=MAX_HP);
        for (name, &v) in &self.armor {
            if !(0..=m).contains(&v) {
                p.push(ConfigError::new(
                    "armor",
                    format!("`armor`: `{name}` is {v}; expected 0 to {m}"),
                ));
            }
        }
        for w in &self.weapons {
            if let Err(e) = w.dice() {
                p.push(ConfigError::new(
                    "weapons",
                    format!("`weapons`: `{}` damage `{}` {e}", w.name, w.damage),
                ));
            }
            if !(1..=MAX_RANGE).contains(&w.range) {
                p.push(ConfigError::new(
                    "weapons",
                    format!(
                        "`weapons`: `{}` range is {}; expected 1 to {MAX_RANGE}",
                        w.name, w.range
                    ),
                ));
            }
        }
        for (i, w) in self.weapons.iter().enumerate() {
            if self.weapons[..i].iter().any(|o| o.name == w.name) {
                p.push(ConfigError::new(
                    "weapons",
                    format!("`weapons`: `{}` is listed twice", w.name),
                ));
            }
        }
        check_range(
            p,
            "ai_surrender_percent",
            self.ai_surrender_percent,
            0..=100,
        );
        out
    }
}

impl WoundsConfig {
    /// A hash of every constant, computed once per configuration: what the odds
    /// cache keys a configuration by, so that two configurations in one thread (a
    /// sweep, or the window's second battle) never read each other's odds.
    pub fn fingerprint(&self) -> u64 {
        *self.identity.0.get_or_init(|| {
            use std::hash::{Hash, Hasher};
            let mut h = std::collections::hash_map::DefaultHasher::new();
            ron::to_string(self).unwrap_or_default().hash(&mut h);
            h.finish()
        })
    }

    /// The weapon called `name`, if the table has one.
    pub fn weapon(&self, name: &str) -> Option<&Weapon> {
        self.weapons.iter().find(|w| w.name == name)
    }

    /// The flat reduction of armor called `name` (W-GAP-03).
    pub fn armor_reduction(&self, name: &str) -> Option<i64> {
        self.armor.get(name).copied()
    }

    /// HP of a unit whose level gives none: PCs 20, enemies 10 (W-GAP-02).
    pub fn default_hp(&self, pc: bool) -> i32 {
        if pc { self.pc_hp } else { self.enemy_hp }
    }

    /// Whether an AI side whose units have `remaining` HP of the `start` they began
    /// with surrenders: below [`WoundsConfig::ai_surrender_percent`] (W-05,
    /// W-GAP-21).
    pub fn ai_surrenders(&self, remaining: i64, start: i64) -> bool {
        start > 0 && remaining.max(0) * 100 < i64::from(self.ai_surrender_percent) * start
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ruleset::config::{from_ron, load_default};

    fn cfg() -> WoundsConfig {
        load_default().expect("wounds.ron")
    }

    /// The shipped file and the compiled-in copy load and pass their own checks.
    #[test]
    fn the_shipped_constants_load() {
        let c = cfg();
        assert!(c.problems().is_empty(), "{:?}", c.problems());
        let compiled: WoundsConfig = from_ron(DEFAULT_RON).unwrap();
        assert_eq!(compiled, c);
    }

    /// W-01 / W-07 / W-09 / W-13 / W-29 / W-30 / W-18: the seed's numbers.
    #[test]
    fn w_01_seed_constants() {
        let c = cfg();
        assert_eq!((c.movement, c.bonus_actions, c.ba_move_bonus), (6, 2, 2));
        assert_eq!(
            (c.defense_base, c.flat_footed_defense, c.prone_defense),
            (10, 5, 5)
        );
        assert_eq!(c.wound_threshold, 6);
        assert_eq!((c.fatal_die, c.fatal_face, c.fatal_bonus), (4, 4, 16));
        assert_eq!((c.super_die, c.super_face), (4, 4), "W-21");
        assert_eq!((c.decisive_die, c.decisive_face), (6, 6), "W-21");
        assert_eq!((c.crit_at, c.fumble_at, c.crit_multiplier), (20, 1, 2));
        assert_eq!((c.fhs_base, c.melee_zone), (1, 1), "W-27 / W-25");
    }

    /// W-GAP-01: the PROPOSED weapon table, with ranges; melee weapons reach 1.
    #[test]
    fn w_gap_01_weapon_table() {
        let c = cfg();
        let table: Vec<(&str, &str, u32, bool)> = c
            .weapons
            .iter()
            .map(|w| (w.name.as_str(), w.damage.as_str(), w.range, w.melee))
            .collect();
        assert_eq!(
            table,
            [
                ("Unarmed", "1d3", 1, true),
                ("Dagger", "1d4", 1, true),
                ("Shortsword", "1d6", 1, true),
                ("Longsword", "1d8", 1, true),
                ("Greataxe", "1d12", 1, true),
                ("Shortbow", "1d6", 12, false),
                ("Longbow", "1d8", 20, false),
            ]
        );
        assert_eq!(
            c.weapon("Longsword").unwrap().dice().unwrap().range(),
            (1, 8)
        );
        assert!(c.weapon("Halberd").is_none());
    }

    /// W-GAP-02 / W-GAP-03: default HP 20 PC / 10 enemy; armor light 1, medium 2,
    /// heavy 3.
    #[test]
    fn w_gap_02_w_gap_03_hp_and_armor() {
        let c = cfg();
        assert_eq!((c.default_hp(true), c.default_hp(false)), (20, 10));
        let armor: Vec<Option<i64>> = ["light", "medium", "heavy", "plate"]
            .iter()
            .map(|a| c.armor_reduction(a))
            .collect();
        assert_eq!(armor, [Some(1), Some(2), Some(3), None]);
    }

    /// W-GAP-21: an AI side surrenders below 25% of its starting HP, not at it.
    #[test]
    fn w_gap_21_ai_surrender_threshold() {
        let mut c = cfg();
        assert!(!c.ai_surrenders(10, 40));
        assert!(c.ai_surrenders(9, 40));
        assert!(c.ai_surrenders(-3, 40));
        c.ai_surrender_percent = 0;
        assert!(!c.ai_surrenders(0, 40));
    }

    /// W-GAP-15 / W-GAP-19 / W-GAP-20: free hit on the 3rd step; prone ÷3, half ÷2,
    /// difficult squares cost 2.
    #[test]
    fn w_gap_15_w_gap_19_w_gap_20_movement_constants() {
        let c = cfg();
        assert_eq!(c.free_hit_step, 3);
        assert_eq!(
            (c.prone_divisor, c.half_divisor, c.difficult_cost),
            (3, 2, 2)
        );
        assert_eq!(c.ai_surrender_percent, 25);
    }

    /// A value out of range or a weapon with bad dice is refused at its key, in
    /// words.
    #[test]
    fn bad_constants_are_named() {
        let mut c = cfg();
        c.wound_threshold = 0;
        c.weapons[0].damage = "1d".into();
        c.armor.insert("mithril".into(), -1);
        c.weapons.push(c.weapons[1].clone());
        let problems = c.problems();
        let keys: Vec<&str> = problems.iter().map(|p| p.key.as_str()).collect();
        assert_eq!(keys, ["wound_threshold", "armor", "weapons", "weapons"]);
        assert!(
            problems[1].message.contains("`mithril` is -1"),
            "{problems:?}"
        );
        assert!(
            problems[2].message.contains("`Unarmed` damage `1d`"),
            "{problems:?}"
        );
        assert!(
            problems[3].message.contains("`Dagger` is listed twice"),
            "{problems:?}"
        );
    }
}
