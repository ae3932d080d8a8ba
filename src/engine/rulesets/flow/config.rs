//! The `flow` ruleset's constants (RULES.md §5, §6.4), loaded from RON.
//!
//! The defaults live in `assets/rulesets/flow.ron`; a copy is compiled in, the file
//! on disk (under `$SKIRMISH_ASSETS` or `./assets`) wins when present, and a level's
//! `rules` map overrides single constants on top. Only plain structs, numbers,
//! strings, lists and maps appear here, so the untyped merge of overrides is exact.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::reactions::Reaction;
use crate::engine::dice::Sides;
use crate::engine::odds::DiceExpr;
use crate::engine::problems::{Issue, PowerRef, Where, unit_label};
use crate::engine::ruleset::config::{ConfigError, RulesetConfig, check_range};
use crate::engine::ruleset::{MAX_HP, MAX_MODIFIER, MAX_POINTS, MAX_RANGE, MAX_SPEED, check_dice};
use crate::engine::skill::CheckRules;
use crate::engine::spec::{ItemEffect, Level};

/// Most Flow Points a constant may give or take at once.
pub const MAX_FP: i32 = 1000;
/// Largest magnitude of a percentile modifier constant (range penalty, gang-up,
/// off-hand).
pub const MAX_PERCENTILE_MODIFIER: i32 = 200;
/// Largest critical multiplier.
pub const MAX_MULTIPLIER: i32 = 10;
/// Most rounds an ongoing condition may last.
pub const MAX_ONGOING_ROUNDS: u32 = 1000;

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
    pub initiative_die: Sides,
    /// Tie roll-off die (F-GAP-08).
    pub tie_die: Sides,
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
    pub unarmed_damage: DiceExpr,
    /// Names of the sides that surprise (F-43).
    pub surprisers: Vec<String>,
    /// Ongoing conditions and their damage at the end of the bearer's turn (F-GAP-22).
    pub ongoing: BTreeMap<String, DiceExpr>,
    /// Rounds an ongoing condition lasts.
    pub ongoing_rounds: u32,
    /// End a turn automatically at 0 AP (F-06).
    pub auto_end_turn: bool,
    /// Whether a Take a Step into a readied enemy's reach sets its readied action
    /// off (F-37, F-39; see `assets/rulesets/flow.ron` for the reading). Absent
    /// from a configuration file: the shipped default.
    #[serde(default = "step_triggers_readied_default")]
    pub step_triggers_readied: bool,
}

/// The shipped [`FlowConfig::step_triggers_readied`].
fn step_triggers_readied_default() -> bool {
    STEP_TRIGGERS_READIED
}

/// The shipped `step_triggers_readied` (as in `assets/rulesets/flow.ron`).
pub const STEP_TRIGGERS_READIED: bool = false;

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

impl RulesetConfig for FlowConfig {
    const RULESET: &'static str = "flow";
    const DEFAULT_RON: &'static str = DEFAULT_RON;

    fn problems(&self) -> Vec<ConfigError> {
        let mut out = Vec::new();
        let p = &mut out;
        check_range(p, "ap", self.ap, 1..=MAX_POINTS);
        check_range(p, "rp", self.rp, 0..=MAX_POINTS);
        for (key, v) in [
            ("start_fp", self.start_fp),
            ("fp_hit", self.fp_hit),
            ("fp_crit", self.fp_crit),
            ("fp_reaction", self.fp_reaction),
            ("fp_kill", self.fp_kill),
            ("fp_decay", self.fp_decay),
        ] {
            check_range(p, key, v, 0..=MAX_FP);
        }
        check_range(p, "speed", self.speed, 1..=MAX_SPEED as u32);
        check_range(
            p,
            "max_move_actions",
            self.max_move_actions,
            0..=MAX_POINTS as u32,
        );
        let c = &self.costs;
        // Every action costs AP, so that a turn always ends; keeping a grapple may be free.
        for (name, v) in [
            ("move_action", c.move_action),
            ("attack", c.attack),
            ("draw", c.draw),
            ("sheathe", c.sheathe),
            ("potion", c.potion),
            ("item", c.item),
            ("disarm", c.disarm),
            ("feint", c.feint),
            ("flow_state", c.flow_state),
            ("grapple", c.grapple),
            ("shove", c.shove),
            ("step", c.step),
            ("total_defense", c.total_defense),
            ("tumble", c.tumble),
            ("stand_up", c.stand_up),
            ("pick_up", c.pick_up),
        ] {
            if !(1..=MAX_POINTS).contains(&v) {
                p.push(ConfigError::new(
                    "costs",
                    format!("`costs.{name}` is {v}; expected 1 to {MAX_POINTS}"),
                ));
            }
        }
        if !(0..=MAX_POINTS).contains(&c.grapple_upkeep) {
            p.push(ConfigError::new(
                "costs",
                format!(
                    "`costs.grapple_upkeep` is {}; expected 0 to {MAX_POINTS}",
                    c.grapple_upkeep
                ),
            ));
        }
        let r = &self.reaction_costs;
        for (name, v) in [
            ("dodge", r.dodge),
            ("parry", r.parry),
            ("block", r.block),
            ("reaction_attack", r.reaction_attack),
            ("riposte", r.riposte),
            ("intercept", r.intercept),
        ] {
            if !(0..=MAX_POINTS).contains(&v) {
                p.push(ConfigError::new(
                    "reaction_costs",
                    format!("`reaction_costs.{name}` is {v}; expected 0 to {MAX_POINTS}"),
                ));
            }
        }
        check_range(p, "total_defense_rp", self.total_defense_rp, 0..=MAX_POINTS);
        for (key, v) in [
            ("hard_bonus", self.hard_bonus),
            ("major_bonus", self.major_bonus),
            ("critical_bonus", self.critical_bonus),
        ] {
            check_range(p, key, v, -MAX_MODIFIER..=MAX_MODIFIER);
        }
        for (key, v) in [
            ("crit_multiplier", self.crit_multiplier),
            ("crit_vs_fumbled_reaction", self.crit_vs_fumbled_reaction),
        ] {
            check_range(p, key, v, 1..=MAX_MULTIPLIER);
        }
        for (key, v) in [
            ("range_penalty", self.range_penalty),
            ("gang_up", self.gang_up),
            ("off_hand", self.off_hand),
        ] {
            check_range(
                p,
                key,
                v,
                -MAX_PERCENTILE_MODIFIER..=MAX_PERCENTILE_MODIFIER,
            );
        }
        check_range(
            p,
            "intercept_distance",
            self.intercept_distance,
            0..=MAX_RANGE,
        );
        check_range(p, "hp_pc", self.hp_pc, 1..=MAX_HP);
        check_range(p, "hp_npc", self.hp_npc, 1..=MAX_HP);
        check_range(p, "untrained_skill", self.untrained_skill, 0..=200);
        if let Err(e) = check_dice(&self.unarmed_damage) {
            p.push(ConfigError::new(
                "unarmed_damage",
                format!("`unarmed_damage` `{}` {e}", self.unarmed_damage),
            ));
        }
        for name in &self.surprisers {
            if name.trim().is_empty() {
                p.push(ConfigError::new(
                    "surprisers",
                    "`surprisers` lists an empty name; expected side names",
                ));
            }
        }
        for (name, dice) in &self.ongoing {
            if name.trim().is_empty() {
                p.push(ConfigError::new(
                    "ongoing",
                    "`ongoing` has a condition with an empty name",
                ));
            }
            if let Err(e) = check_dice(dice) {
                p.push(ConfigError::new(
                    "ongoing",
                    format!("`ongoing` `{name}`: `{dice}` {e}"),
                ));
            }
        }
        check_range(
            p,
            "ongoing_rounds",
            self.ongoing_rounds,
            1..=MAX_ONGOING_ROUNDS,
        );
        out
    }
}

impl FlowConfig {
    /// The checked configuration from `assets/rulesets/flow.ron` on disk if present,
    /// otherwise the compiled-in copy.
    pub fn load_default() -> Result<Self, String> {
        crate::engine::ruleset::config::load_default()
    }

    /// Parses and checks a configuration; the error reads `line:col: message`.
    pub fn from_ron(text: &str) -> Result<Self, String> {
        crate::engine::ruleset::config::from_ron(text)
    }

    /// This configuration with a level's overrides applied, each key naming a field;
    /// a value of the wrong type or out of range is an error naming its key.
    pub fn with_overrides(
        &self,
        overrides: &BTreeMap<String, ron::Value>,
    ) -> Result<Self, crate::engine::ruleset::RulesetError> {
        crate::engine::ruleset::config::with_overrides(self, overrides)
    }

    /// The problems of `level` that this configuration tells, each at its place:
    /// `surprisers` must name sides of the level (F-43), and the conditions weapons
    /// and item powers cause on a hit must be ongoing conditions (F-GAP-22).
    pub fn level_problems(&self, level: &Level) -> Vec<Issue> {
        let mut out = Vec::new();
        let sides: Vec<&str> = level.sides.iter().map(|s| s.name.as_str()).collect();
        for name in &self.surprisers {
            if !sides.iter().any(|s| s.eq_ignore_ascii_case(name)) {
                let at = if level.rules.contains_key("surprisers") {
                    Where::Rule("surprisers".into())
                } else {
                    Where::Field("ruleset")
                };
                out.push(Issue {
                    at,
                    message: format!(
                        "surprisers names `{name}`, which is not a side of this level; \
                         expected side names: {}",
                        sides.join(", ")
                    ),
                });
            }
        }
        let ongoing: Vec<&str> = self.ongoing.keys().map(String::as_str).collect();
        let unknown = |c: &str, what: &str, label: &str| {
            format!(
                "{what} of {label} causes unknown condition `{c}` on a hit; expected an \
                 ongoing condition: {}",
                ongoing.join(", ")
            )
        };
        for (index, unit) in level.units.iter().enumerate() {
            let label = unit_label(index, unit);
            for (weapon, w) in unit.weapons.iter().enumerate() {
                for c in w.on_hit.iter().filter(|c| !self.ongoing.contains_key(*c)) {
                    out.push(Issue {
                        at: Where::Weapon {
                            unit: index,
                            weapon,
                            field: Some("on_hit"),
                        },
                        message: unknown(c, &format!("weapon `{}`", w.name), &label),
                    });
                }
            }
            for (item, def) in unit.items.iter().enumerate() {
                let ItemEffect::Power(p) = &def.effect else {
                    continue;
                };
                for (effect, e) in p.on_hit.iter().enumerate() {
                    if !self.ongoing.contains_key(&e.condition) {
                        out.push(Issue {
                            at: Where::OnHit {
                                unit: index,
                                power: PowerRef::Item(item),
                                effect,
                            },
                            message: unknown(&e.condition, &format!("power `{}`", p.name), &label),
                        });
                    }
                }
            }
        }
        out
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
        assert_eq!(m.checks.constants().fumble_from, 100);
        o.insert("apx".to_string(), ron::from_str("6").unwrap());
        assert!(
            c.with_overrides(&o)
                .unwrap_err()
                .to_string()
                .contains("unknown rule constant `apx`")
        );
    }
}
