//! The `phases` ruleset's constants (RULES.md §6.4), loaded from RON.
//!
//! The defaults live in `assets/rulesets/phases.ron`; a copy is compiled in so the
//! engine works from anywhere, and the file on disk (under `$SKIRMISH_ASSETS` or
//! `./assets`) wins when present, so a designer can tune without recompiling. A
//! level's `rules` map overrides single constants on top.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::conditions;
use crate::engine::dice::Sides;
use crate::engine::odds::{DiceExpr, ExprError};
use crate::engine::problems::{Issue, PowerRef, Where, unit_label};
use crate::engine::ruleset::config::{ConfigError, RulesetConfig, check_range};
use crate::engine::ruleset::{MAX_HP, MAX_RANGE, MAX_SPEED, check_dice, parse_dice};
use crate::engine::spec::{ItemEffect, Level, PowerDef};

/// Most multiples of Speed a movement power may move.
pub const MAX_SPEED_TIMES: u32 = 10;
/// Most squares a movement power may add to its multiples of Speed.
pub const MAX_SQUARES: u32 = 1000;

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
    pub initiative_dice: DiceExpr,
    /// Die the tied units roll to break initiative ties (P-14).
    pub tie_die: Sides,
    /// Dice of an attack roll before advantage (P-23): dice added together (and
    /// constants), so that an extra die can join them (see [`Self::attack_roll`]).
    pub attack_dice: DiceExpr,
    /// Extra die by number of advantage sources: 1, 2, 3, 4+ (P-04).
    pub advantage_dice: Vec<Sides>,
    /// Extra die by number of disadvantage sources: 1, 2, 3, 4+ (P-06).
    pub disadvantage_dice: Vec<Sides>,
    /// Net advantage against disadvantage (P-GAP-03); when false, both cancel out
    /// entirely whenever both are present.
    pub net_sources: bool,
    /// Dice of a saving throw (P-29).
    pub save_dice: DiceExpr,
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

impl RulesetConfig for PhasesConfig {
    const RULESET: &'static str = "phases";
    const DEFAULT_RON: &'static str = DEFAULT_RON;

    fn problems(&self) -> Vec<ConfigError> {
        let mut out = Vec::new();
        check_range(&mut out, "speed", self.speed, 0..=MAX_SPEED as u32);
        check_range(&mut out, "hp_per_tier", self.hp_per_tier, 1..=MAX_HP / 3);
        for (key, expr) in [
            ("initiative_dice", &self.initiative_dice),
            ("attack_dice", &self.attack_dice),
            ("save_dice", &self.save_dice),
        ] {
            if let Err(e) = check_dice(expr) {
                out.push(ConfigError::new(key, format!("`{key}` `{expr}` {e}")));
            }
        }
        let base = &self.attack_dice;
        let shape = if base.dice_count() == 0 {
            Some("rolls no dice")
        } else if base.keeps() {
            Some("keeps only some dice (`kh`/`kl`)")
        } else if base.subtracts_dice() {
            Some("subtracts dice")
        } else {
            None
        };
        if let Some(shape) = shape {
            out.push(ConfigError::new(
                "attack_dice",
                format!(
                    "`attack_dice` `{base}` {shape}, so an extra die of advantage or \
                     disadvantage can't join it; expected dice added together (and \
                     constants), like `2d6` or `1d20+1d4`"
                ),
            ));
        } else {
            for (key, table, advantage) in [
                ("advantage_dice", &self.advantage_dice, true),
                ("disadvantage_dice", &self.disadvantage_dice, false),
            ] {
                for &sides in table {
                    let extra = Some(crate::engine::event::ExtraDie {
                        sides: sides.get(),
                        advantage,
                    });
                    let checked = match self.attack_roll(extra) {
                        Err(e) => Err(format!("is not a dice expression ({e})")),
                        Ok(roll) => check_dice(&roll).map_err(|e| format!("`{roll}` {e}")),
                    };
                    if let Err(e) = checked {
                        out.push(ConfigError::new(
                            key,
                            format!(
                                "`{key}`: the attack roll `{}` with an extra {sides} {e}",
                                self.attack_dice
                            ),
                        ));
                    }
                }
            }
        }
        power_problems(&mut out, "default_power", &self.default_power);
        let mut names: Vec<String> = Vec::new();
        for (key, list) in [
            ("movement_powers", &self.movement_powers),
            ("extra_movement_powers", &self.extra_movement_powers),
        ] {
            for m in list {
                let name = &m.name;
                if name.trim().is_empty() {
                    out.push(ConfigError::new(
                        key,
                        format!("`{key}` has a movement power with an empty name"),
                    ));
                } else if names.iter().any(|n| n.eq_ignore_ascii_case(name)) {
                    out.push(ConfigError::new(
                        key,
                        format!("`{key}`: two movement powers are named `{name}`"),
                    ));
                }
                names.push(name.clone());
                let d = m.distance;
                if d.speed_times > MAX_SPEED_TIMES || d.squares > MAX_SQUARES {
                    out.push(ConfigError::new(
                        key,
                        format!(
                            "`{key}`: `{name}` moves {} × Speed + {} squares; expected at \
                             most {MAX_SPEED_TIMES} × Speed + {MAX_SQUARES}",
                            d.speed_times, d.squares
                        ),
                    ));
                }
                for c in &m.applies {
                    if !conditions::SELF_APPLICABLE.contains(&c.as_str()) {
                        out.push(ConfigError::new(
                            key,
                            format!(
                                "`{key}`: `{name}` applies unknown condition `{c}`; expected \
                                 one of: {}",
                                conditions::SELF_APPLICABLE.join(", ")
                            ),
                        ));
                    }
                }
            }
        }
        out
    }
}

/// The problems of the default power's fields: its name, range, damage dice and
/// `on_hit` conditions, each message starting with the constant `key`.
fn power_problems(out: &mut Vec<ConfigError>, key: &str, power: &PowerDef) {
    let name = &power.name;
    if name.trim().is_empty() {
        out.push(ConfigError::new(
            key,
            format!("`{key}` has an empty name; expected a name"),
        ));
    }
    if !(1..=MAX_RANGE).contains(&power.range) {
        out.push(ConfigError::new(
            key,
            format!(
                "`{key}` `{name}` has range {}; expected 1 to {MAX_RANGE}",
                power.range
            ),
        ));
    }
    if let Err(e) = parse_dice(&power.damage) {
        out.push(ConfigError::new(
            key,
            format!("`{key}` `{name}`: damage `{}` {e}", power.damage),
        ));
    }
    for effect in &power.on_hit {
        if !conditions::APPLICABLE.contains(&effect.condition.as_str()) {
            out.push(ConfigError::new(
                key,
                format!(
                    "`{key}` `{name}` applies unknown condition `{}`; expected one of: {}",
                    effect.condition,
                    conditions::APPLICABLE.join(", ")
                ),
            ));
        }
    }
}

impl PhasesConfig {
    /// The checked configuration from `assets/rulesets/phases.ron` on disk if
    /// present, otherwise the compiled-in copy.
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
    /// the movement powers units list must be defined here (P-02), and the
    /// conditions their powers apply on a hit must be ones `phases` applies.
    pub fn level_problems(&self, level: &Level) -> Vec<Issue> {
        let mut out = Vec::new();
        let known: Vec<&str> = self
            .movement_powers
            .iter()
            .chain(&self.extra_movement_powers)
            .map(|m| m.name.as_str())
            .collect();
        for (index, unit) in level.units.iter().enumerate() {
            let label = unit_label(index, unit);
            for (entry, name) in unit.movement.iter().enumerate() {
                if self.movement_power(name).is_none() {
                    out.push(Issue {
                        at: Where::Movement { unit: index, entry },
                        message: format!(
                            "unknown movement power `{name}` for {label}; expected one of: {}",
                            known.join(", ")
                        ),
                    });
                }
            }
            let listed = unit
                .powers
                .iter()
                .enumerate()
                .map(|(i, p)| (PowerRef::Listed(i), p));
            let items = unit
                .items
                .iter()
                .enumerate()
                .filter_map(|(i, item)| match &item.effect {
                    ItemEffect::Power(p) => Some((PowerRef::Item(i), p)),
                    _ => None,
                });
            for (power, def) in listed.chain(items) {
                for (effect, e) in def.on_hit.iter().enumerate() {
                    if !conditions::APPLICABLE.contains(&e.condition.as_str()) {
                        out.push(Issue {
                            at: Where::OnHit {
                                unit: index,
                                power,
                                effect,
                            },
                            message: format!(
                                "unknown condition `{}` in the on_hit of power `{}` of {label}; \
                                 expected one of: {}",
                                e.condition,
                                def.name,
                                conditions::APPLICABLE.join(", ")
                            ),
                        });
                    }
                }
            }
        }
        out
    }

    /// The attack roll's dice (P-03 … P-08): `attack_dice`, plus the extra die if
    /// any, keeping as many dice as `attack_dice` rolls (e.g. `2d6+1d8kh2`).
    pub fn attack_roll(
        &self,
        extra_die: Option<crate::engine::event::ExtraDie>,
    ) -> Result<DiceExpr, ExprError> {
        let base = &self.attack_dice;
        match extra_die {
            None => Ok(base.clone()),
            Some(x) => {
                let keep = if x.advantage { "kh" } else { "kl" };
                format!("{base}+1d{}{keep}{}", x.sides, base.dice_count()).parse()
            }
        }
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
        self.extra_die_slot(sources, adv).map(|i| table[i].get())
    }

    /// The index in `advantage_dice` (`adv`) or `disadvantage_dice` of the extra die
    /// for `sources` sources, capped at the last entry; `None` for zero sources or an
    /// empty table.
    pub fn extra_die_slot(&self, sources: u32, adv: bool) -> Option<usize> {
        let len = if adv {
            self.advantage_dice.len()
        } else {
            self.disadvantage_dice.len()
        };
        if sources == 0 || len == 0 {
            return None;
        }
        Some((sources as usize - 1).min(len - 1))
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
        assert!(
            err.to_string().contains("unknown rule constant `sped`"),
            "{err}"
        );
        // The error is at the key that is wrong, and only there.
        let crate::engine::ruleset::RulesetError::Overrides(problems) = err else {
            panic!("{err:?}")
        };
        let keys: Vec<&str> = problems.iter().map(|p| p.key.as_str()).collect();
        assert_eq!(keys, ["sped"]);
    }
}
