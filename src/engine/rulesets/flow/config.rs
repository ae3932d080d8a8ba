//! The `flow` ruleset's constants (RULES.md §5, §6.4), loaded from RON.
//!
//! The defaults live in `assets/rulesets/flow.ron`; a copy is compiled in, the file
//! on disk (under `$SKIRMISH_ASSETS` or `./assets`) wins when present, and a level's
//! `rules` map overrides single constants on top. Only plain structs, numbers,
//! strings, lists and maps appear here, so the untyped merge of overrides is exact.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::engine::command::Reaction;
use crate::engine::skill::CheckRules;

/// The compiled-in copy of `assets/rulesets/flow.ron`.
pub const DEFAULT_RON: &str = include_str!("../../../../assets/rulesets/flow.ron");

/// Every constant and policy switch of `flow`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlowConfig {
    /// AP per turn (F-07).
    pub ap: i32,
    /// RP (F-09).
    pub rp: i32,
    /// FP at the start of combat (F-12).
    pub start_fp: i32,
    /// FP for an attack that hits (F-13).
    pub fp_hit: i32,
    /// FP for a critical hit, in total (F-13, F-GAP-14).
    pub fp_crit: i32,
    /// FP for a successful reaction, once per round (F-14).
    pub fp_reaction: i32,
    /// FP for a killing blow (F-15).
    pub fp_kill: i32,
    /// FP lost at the end of a turn without Flow State (F-16).
    pub fp_decay: i32,
    /// Hexes per Move action (F-44).
    pub speed: u32,
    /// Move actions per turn (F-08).
    pub max_move_actions: u32,
    /// AP costs.
    pub costs: Costs,
    /// RP costs (F-10).
    pub reaction_costs: ReactionCosts,
    /// Extra RP from Total Defense (F-40).
    pub total_defense_rp: i32,
    /// Initiative die (F-02).
    pub initiative_die: u32,
    /// Tie roll-off die (F-GAP-08).
    pub tie_die: u32,
    /// Percentile checks (F-GAP-01, F-GAP-02).
    pub checks: CheckRules,
    /// Damage bonus of a Hard success (F-GAP-06).
    pub hard_bonus: i32,
    /// Damage bonus of a Major success.
    pub major_bonus: i32,
    /// Damage bonus of a Critical success, before the multiplier.
    pub critical_bonus: i32,
    /// Critical multiplier (F-13 "crit = 2×").
    pub crit_multiplier: i32,
    /// Critical multiplier against a critically failed Dodge/Parry (F-23).
    pub crit_vs_fumbled_reaction: i32,
    /// Per range increment beyond the Range value (F-48).
    pub range_penalty: i32,
    /// Gang-up bonus (F-49).
    pub gang_up: i32,
    /// Off-hand penalty (F-51).
    pub off_hand: i32,
    /// Intercept movement (F-31).
    pub intercept_distance: u32,
    /// Default HP of a player character (F-GAP-07).
    pub hp_pc: i32,
    /// Default HP of anyone else.
    pub hp_npc: i32,
    /// Skill value of an unlisted skill.
    pub untrained_skill: i32,
    /// Unarmed damage dice.
    pub unarmed_damage: String,
    /// Names of the sides that surprise (F-43).
    pub surprisers: Vec<String>,
    /// Ongoing conditions and their damage at the end of the bearer's turn (F-GAP-22).
    pub ongoing: BTreeMap<String, String>,
    /// Rounds an ongoing condition lasts.
    pub ongoing_rounds: u32,
    /// End a turn automatically at 0 AP (F-06).
    pub auto_end_turn: bool,
}

/// AP costs of actions (F-08 and the special actions table).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Costs {
    /// A Move action.
    pub move_action: i32,
    /// An attack or a spell.
    pub attack: i32,
    /// Draw a weapon.
    pub draw: i32,
    /// Sheathe a weapon.
    pub sheathe: i32,
    /// Drink a potion from the bag.
    pub potion: i32,
    /// Use another magic item.
    pub item: i32,
    /// Disarm.
    pub disarm: i32,
    /// Feint.
    pub feint: i32,
    /// Flow State.
    pub flow_state: i32,
    /// Grapple.
    pub grapple: i32,
    /// Keeping a grapple each turn (F-GAP-15).
    pub grapple_upkeep: i32,
    /// Shove.
    pub shove: i32,
    /// Take a Step.
    pub step: i32,
    /// Total Defense.
    pub total_defense: i32,
    /// Tumble Through.
    pub tumble: i32,
    /// Stand up from prone.
    pub stand_up: i32,
    /// Pick up an item (F-GAP-17).
    pub pick_up: i32,
}

/// RP costs of reactions (F-10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReactionCosts {
    /// Dodge.
    pub dodge: i32,
    /// Parry.
    pub parry: i32,
    /// Block.
    pub block: i32,
    /// Reaction Attack.
    pub reaction_attack: i32,
    /// Riposte.
    pub riposte: i32,
    /// Intercept.
    pub intercept: i32,
}

impl ReactionCosts {
    /// The RP cost of a reaction.
    pub fn of(&self, r: Reaction) -> i32 {
        match r {
            Reaction::Dodge => self.dodge,
            Reaction::Parry => self.parry,
            Reaction::Block => self.block,
            Reaction::ReactionAttack => self.reaction_attack,
            Reaction::Riposte => self.riposte,
            Reaction::Intercept => self.intercept,
        }
    }
}

impl FlowConfig {
    /// The configuration from `assets/rulesets/flow.ron` on disk if present,
    /// otherwise the compiled-in copy.
    pub fn load_default() -> Result<Self, String> {
        crate::engine::rulesets::config::load_default("flow", DEFAULT_RON)
    }

    /// Parses a configuration; the error reads `line:col: message`.
    pub fn from_ron(text: &str) -> Result<Self, String> {
        crate::engine::rulesets::config::from_ron(text)
    }

    /// This configuration with a level's overrides applied, each key naming a field.
    pub fn with_overrides(&self, overrides: &BTreeMap<String, ron::Value>) -> Result<Self, String> {
        crate::engine::rulesets::config::with_overrides(self, "flow", overrides)
    }

    /// The damage bonus of a success level (F-GAP-06).
    pub fn level_bonus(&self, level: crate::engine::skill::SuccessLevel) -> i32 {
        use crate::engine::skill::SuccessLevel::*;
        match level {
            Hard => self.hard_bonus,
            Major => self.major_bonus,
            Critical => self.critical_bonus,
            _ => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_config_parses_with_seed_numbers() {
        let c = FlowConfig::from_ron(DEFAULT_RON).unwrap();
        // F-07, F-09, F-12, F-10, F-44.
        assert_eq!((c.ap, c.rp, c.start_fp, c.speed), (5, 2, 2, 6));
        assert_eq!(c.reaction_costs.of(Reaction::Riposte), 2);
        assert_eq!(c.reaction_costs.of(Reaction::Dodge), 1);
    }

    #[test]
    fn overrides_merge_nested_and_lists() {
        let c = FlowConfig::from_ron(DEFAULT_RON).unwrap();
        let mut o = BTreeMap::new();
        o.insert("ap".to_string(), ron::from_str("6").unwrap());
        o.insert(
            "surprisers".to_string(),
            ron::from_str("[\"Red\"]").unwrap(),
        );
        o.insert(
            "checks".to_string(),
            ron::from_str("(die: 100, always_critical: 1, fumble_from: 100, critical_divisor: 10, major_divisor: 5, hard_divisor: 2)").unwrap(),
        );
        let m = c.with_overrides(&o).unwrap();
        assert_eq!(m.ap, 6);
        assert_eq!(m.surprisers, ["Red"]);
        assert_eq!(m.checks.fumble_from, 100);
        o.insert("apx".to_string(), ron::from_str("6").unwrap());
        assert!(
            c.with_overrides(&o)
                .unwrap_err()
                .contains("unknown rule constant `apx`")
        );
    }
}
