//! Percentile skill checks with success levels and opposed checks (RULES.md F-GAP-01
//! … F-GAP-04), shared by any ruleset that rolls d100 under a skill.
//!
//! A check rolls d100 (twice with an edge, keeping the lower roll for Advantage and
//! the higher for Disadvantage) and succeeds at or under the effective skill. Success
//! comes in levels — Normal, Hard (≤ half), Major (≤ a fifth), Critical (≤ a tenth) —
//! and the thresholds are configurable. The exact odds of any level come from the
//! odds engine ([`crate::engine::odds`]), so the numbers a decision shows are the
//! numbers the dice obey.

use serde::{Deserialize, Serialize};

use crate::engine::dice::{Dice, DiceError};
use crate::engine::odds::DiceExpr;

/// How well a check went, worst first; `Ord` is the ranking of F-GAP-02.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum SuccessLevel {
    /// A fumble: a roll in the critical-failure band.
    CriticalFailure,
    /// Over the effective skill.
    Failure,
    /// At or under the effective skill.
    Normal,
    /// At or under half of it.
    Hard,
    /// At or under a fifth of it.
    Major,
    /// At or under a tenth of it (at least 1), or the always-critical roll.
    Critical,
}

impl SuccessLevel {
    /// Whether the check succeeded.
    pub fn success(self) -> bool {
        self >= SuccessLevel::Normal
    }

    /// One level higher (Critical stays Critical); failures are not raised.
    pub fn bumped(self) -> SuccessLevel {
        match self {
            SuccessLevel::Normal => SuccessLevel::Hard,
            SuccessLevel::Hard => SuccessLevel::Major,
            SuccessLevel::Major | SuccessLevel::Critical => SuccessLevel::Critical,
            other => other,
        }
    }

    /// Every level, worst first.
    pub const ALL: [SuccessLevel; 6] = [
        SuccessLevel::CriticalFailure,
        SuccessLevel::Failure,
        SuccessLevel::Normal,
        SuccessLevel::Hard,
        SuccessLevel::Major,
        SuccessLevel::Critical,
    ];
}

impl std::fmt::Display for SuccessLevel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SuccessLevel::CriticalFailure => "Critical Failure",
            SuccessLevel::Failure => "Failure",
            SuccessLevel::Normal => "Normal success",
            SuccessLevel::Hard => "Hard success",
            SuccessLevel::Major => "Major success",
            SuccessLevel::Critical => "Critical success",
        })
    }
}

/// Advantage or disadvantage on a check (binary: they cancel, they don't stack).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Edge {
    /// Roll twice, keep the lower (better) roll.
    Advantage,
    /// Roll twice, keep the higher (worse) roll.
    Disadvantage,
}

impl Edge {
    /// The net edge of some advantage and disadvantage sources (F-GAP-04).
    pub fn net(advantage: bool, disadvantage: bool) -> Option<Edge> {
        match (advantage, disadvantage) {
            (true, false) => Some(Edge::Advantage),
            (false, true) => Some(Edge::Disadvantage),
            _ => None,
        }
    }
}

/// Most sides the die of percentile checks may have (F-GAP-01 uses a d100): two of
/// them with one kept (Advantage, Disadvantage) stay cheap to compute exactly.
pub const MAX_CHECK_DIE: u32 = 1000;

/// The constants of percentile checks as a ruleset's configuration writes them
/// (`checks: (die: 100, always_critical: 1, ...)`); [`CheckRules`] is the checked form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Checks {
    /// Sides of the die (100), from 2 to [`MAX_CHECK_DIE`].
    pub die: u32,
    /// This roll or lower is always a Critical success (1); 0 for none.
    pub always_critical: u32,
    /// This roll or higher always fails as a Critical Failure (96); `die + 1` for none.
    pub fumble_from: u32,
    /// Critical at or under skill / this (10), at least 1.
    pub critical_divisor: i32,
    /// Major at or under skill / this (5), at least 1.
    pub major_divisor: i32,
    /// Hard at or under skill / this (2), at least 1.
    pub hard_divisor: i32,
}

impl Default for Checks {
    fn default() -> Self {
        Self {
            die: 100,
            always_critical: 1,
            fumble_from: 96,
            critical_divisor: 10,
            major_divisor: 5,
            hard_divisor: 2,
        }
    }
}

/// The constants of percentile checks (F-GAP-01, F-GAP-02), from a ruleset's config,
/// checked: only [`CheckRules::new`] (which deserializing calls) makes one, so the
/// die always has 2 to [`MAX_CHECK_DIE`] sides and the divisors are positive.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "Checks", into = "Checks")]
pub struct CheckRules(Checks);

impl TryFrom<Checks> for CheckRules {
    type Error = String;
    fn try_from(checks: Checks) -> Result<Self, String> {
        Self::new(checks)
    }
}

impl From<CheckRules> for Checks {
    fn from(rules: CheckRules) -> Checks {
        rules.0
    }
}

impl CheckRules {
    /// Checks the constants; the error names the field and its allowed range.
    pub fn new(checks: Checks) -> Result<Self, String> {
        let Checks {
            die,
            always_critical,
            fumble_from,
            ..
        } = checks;
        if !(2..=MAX_CHECK_DIE).contains(&die) {
            return Err(format!(
                "checks `die` is {die}; expected a die of 2 to {MAX_CHECK_DIE} sides"
            ));
        }
        if always_critical > die {
            return Err(format!(
                "checks `always_critical` is {always_critical}; expected 0 (none) to {die} (the die)"
            ));
        }
        if !(1..=die + 1).contains(&fumble_from) {
            return Err(format!(
                "checks `fumble_from` is {fumble_from}; expected 1 to {} (the die + 1 for no fumbles)",
                die + 1
            ));
        }
        for (name, d) in [
            ("critical_divisor", checks.critical_divisor),
            ("major_divisor", checks.major_divisor),
            ("hard_divisor", checks.hard_divisor),
        ] {
            if d < 1 {
                return Err(format!("checks `{name}` is {d}; expected 1 or more"));
            }
        }
        Ok(Self(checks))
    }

    /// The constants as written.
    pub fn constants(&self) -> Checks {
        self.0
    }

    /// The level of a kept roll against an effective skill (F-GAP-01, F-GAP-02).
    pub fn level(&self, roll: u32, skill: i32) -> SuccessLevel {
        let c = &self.0;
        let r = roll as i32;
        if roll <= c.always_critical {
            return SuccessLevel::Critical;
        }
        if roll >= c.fumble_from {
            return SuccessLevel::CriticalFailure;
        }
        if r > skill {
            return SuccessLevel::Failure;
        }
        // The divisors are at least 1 (see `new`).
        let div = |d: i32| skill.div_euclid(d);
        if r <= div(c.critical_divisor).max(1) {
            SuccessLevel::Critical
        } else if r <= div(c.major_divisor) {
            SuccessLevel::Major
        } else if r <= div(c.hard_divisor) {
            SuccessLevel::Hard
        } else {
            SuccessLevel::Normal
        }
    }

    /// The dice of a check as an odds-engine expression: `1d100`, or two dice keeping
    /// the lower (Advantage) or the higher (Disadvantage).
    pub fn expr(&self, edge: Option<Edge>) -> DiceExpr {
        let die = self.0.die;
        match edge {
            None => DiceExpr::pool(1, die, None),
            Some(Edge::Advantage) => DiceExpr::pool(2, die, Some((false, 1))),
            Some(Edge::Disadvantage) => DiceExpr::pool(2, die, Some((true, 1))),
        }
    }

    /// Rolls a check: the faces in the order drawn, the kept roll and its level.
    pub fn roll(
        &self,
        dice: &mut Dice,
        skill: i32,
        edge: Option<Edge>,
    ) -> Result<CheckRoll, DiceError> {
        let first = dice.roll(self.0.die)?;
        let (faces, kept) = match edge {
            None => (vec![first], first),
            Some(e) => {
                let second = dice.roll(self.0.die)?;
                let kept = match e {
                    Edge::Advantage => first.min(second),
                    Edge::Disadvantage => first.max(second),
                };
                (vec![first, second], kept)
            }
        };
        Ok(CheckRoll {
            faces,
            kept,
            level: self.level(kept, skill),
        })
    }

    /// Exact probability of each level for a check, from the odds engine.
    pub fn level_odds(&self, skill: i32, edge: Option<Edge>) -> [(SuccessLevel, f64); 6] {
        let mut out = SuccessLevel::ALL.map(|l| (l, 0.0));
        for (roll, p) in self.expr(edge).distribution().outcomes() {
            let level = self.level(roll as u32, skill);
            out[level as usize].1 += p;
        }
        out
    }

    /// Exact probability that a check reaches at least `level`.
    pub fn chance_at_least(&self, skill: i32, edge: Option<Edge>, level: SuccessLevel) -> f64 {
        self.level_odds(skill, edge)
            .iter()
            .filter(|(l, _)| *l >= level)
            .map(|(_, p)| p)
            .sum()
    }
}

/// One rolled check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckRoll {
    /// Every face, in the order drawn.
    pub faces: Vec<u32>,
    /// The roll that counts.
    pub kept: u32,
    /// Its level.
    pub level: SuccessLevel,
}

/// Who wins an opposed check (F-GAP-03): the higher level; ties go to the responder
/// (the defender, the target of a Feint/Shove/Grapple, the unit breaking free).
pub fn responder_wins(actor: SuccessLevel, responder: SuccessLevel) -> bool {
    responder >= actor
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_of_a_60_skill() {
        let r = CheckRules::default();
        let levels: Vec<_> = [45, 25, 10, 5, 61, 97, 1, 30, 12, 6]
            .iter()
            .map(|&x| r.level(x, 60))
            .collect();
        use SuccessLevel::*;
        assert_eq!(
            levels,
            [
                Normal,
                Hard,
                Major,
                Critical,
                Failure,
                CriticalFailure,
                Critical,
                Hard,
                Major,
                Critical
            ]
        );
        // A 01 is critical even against an impossible skill; 96+ fails even at 150.
        assert_eq!(r.level(1, -20), Critical);
        assert_eq!(r.level(96, 150), CriticalFailure);
    }

    /// F-GAP-01: the die of a check has 2 to MAX_CHECK_DIE sides (a d0 used to panic
    /// when the odds were asked for); the divisors are positive.
    #[test]
    fn f_gap_01_bad_check_constants_are_errors_not_panics() {
        let with_die = |die| Checks {
            die,
            ..Checks::default()
        };
        for die in [0, 1, MAX_CHECK_DIE + 1, 20_000] {
            let err = CheckRules::new(with_die(die)).unwrap_err();
            assert!(err.contains(&format!("`die` is {die}")), "{err}");
        }
        for die in [2, 20, MAX_CHECK_DIE] {
            let r = CheckRules::new(Checks {
                fumble_from: die,
                ..with_die(die)
            })
            .unwrap();
            for edge in [None, Some(Edge::Advantage), Some(Edge::Disadvantage)] {
                let total: f64 = r.level_odds(50, edge).iter().map(|x| x.1).sum();
                assert!((total - 1.0).abs() < 1e-9, "d{die} {edge:?}: {total}");
            }
        }
        let err = CheckRules::new(Checks {
            hard_divisor: 0,
            ..Checks::default()
        })
        .unwrap_err();
        assert!(err.contains("`hard_divisor` is 0"), "{err}");
        let err = CheckRules::new(Checks {
            fumble_from: 0,
            ..Checks::default()
        })
        .unwrap_err();
        assert!(err.contains("`fumble_from` is 0"), "{err}");
        // Reading a configuration checks too, with the field named.
        let err = ron::from_str::<CheckRules>(
            "(die: 0, always_critical: 1, fumble_from: 96, critical_divisor: 10, \
             major_divisor: 5, hard_divisor: 2)",
        )
        .unwrap_err();
        assert!(err.code.to_string().contains("`die` is 0"), "{err}");
    }

    #[test]
    fn check_dice_are_the_expressions_they_were() {
        let r = CheckRules::default();
        let parsed = |s: &str| s.parse::<DiceExpr>().unwrap();
        assert_eq!(r.expr(None), parsed("1d100"));
        assert_eq!(r.expr(Some(Edge::Advantage)), parsed("2d100kl1"));
        assert_eq!(r.expr(Some(Edge::Disadvantage)), parsed("2d100kh1"));
        let text = ron::to_string(&r).unwrap();
        assert_eq!(ron::from_str::<CheckRules>(&text).unwrap(), r);
    }

    #[test]
    fn odds_sum_to_one_and_advantage_helps() {
        let r = CheckRules::default();
        let plain: f64 = r.level_odds(50, None).iter().map(|x| x.1).sum();
        assert!((plain - 1.0).abs() < 1e-12);
        let p = r.chance_at_least(50, None, SuccessLevel::Normal);
        assert!((p - 0.50).abs() < 1e-12, "{p}");
        let adv = r.chance_at_least(50, Some(Edge::Advantage), SuccessLevel::Normal);
        assert!((adv - 0.75).abs() < 1e-12, "{adv}");
        let dis = r.chance_at_least(50, Some(Edge::Disadvantage), SuccessLevel::Normal);
        assert!((dis - 0.25).abs() < 1e-12, "{dis}");
    }
}
