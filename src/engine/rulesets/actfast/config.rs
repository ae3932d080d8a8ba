//! The `actfast` ruleset's constants (RULES.md §4, §6.4), loaded from RON like every
//! ruleset's: `assets/rulesets/actfast.ron`, a compiled-in copy, and a level's `rules`
//! overriding single constants, each value checked before play.
//!
//! Every PROPOSED resolution of §4.C that is a number or a policy is a constant here:
//! the bands on the grid (A-GAP-01), the skill-check scale (A-GAP-03), the 0-dice rule
//! (A-GAP-04), the weapon table (A-GAP-05), default HP (A-GAP-06), NPC actions
//! (A-GAP-07), reactions (A-GAP-08), escapes (A-GAP-11), Immobilized (A-GAP-12) and
//! morale (A-GAP-13).

use serde::{Deserialize, Serialize};

use crate::engine::bands::RangeBands;
use crate::engine::odds::DiceExpr;
use crate::engine::ruleset::config::{ConfigError, RulesetConfig, check_range};
use crate::engine::ruleset::{MAX_HP, MAX_MODIFIER, MAX_SPEED, parse_dice};

/// The configuration's defaults, read once.
pub(super) fn defaults() -> Result<&'static ActfastConfig, String> {
    static DEFAULTS: std::sync::OnceLock<Result<ActfastConfig, String>> =
        std::sync::OnceLock::new();
    DEFAULTS
        .get_or_init(crate::engine::ruleset::config::load_default::<ActfastConfig>)
        .as_ref()
        .map_err(Clone::clone)
}

/// The compiled-in copy of `assets/rulesets/actfast.ron`.
pub const DEFAULT_RON: &str = include_str!("../../../../assets/rulesets/actfast.ron");

/// Largest die a pool, a burning or a morale roll may use.
pub const MAX_DIE: u32 = 100;

/// Most dice a pool, an empty-pool roll or a morale roll may hold.
pub const MAX_POOL: u32 = 100;

/// One weapon of the table (A-GAP-05).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Weapon {
    /// Its name, as levels write it.
    pub name: String,
    /// Its damage dice: one group `NdS`, each die reduced by armor.
    pub damage: String,
    /// Whether it is a melee weapon (pool Class + STR, targets the melee bands) or a
    /// ranged one (Class + DEX, the ranged bands).
    pub melee: bool,
}

impl Weapon {
    /// Its damage dice as `(count, sides)`, or why they are not one group `NdS`
    /// (armor reduces each die, so a constant or a keep has no meaning here).
    pub fn dice(&self) -> Result<(u32, u32), String> {
        weapon_dice(&self.damage)
    }
}

/// `NdS` as `(N, S)`; anything else (a constant, a keep, several groups) refused in
/// words that follow the dice as written.
pub fn weapon_dice(text: &str) -> Result<(u32, u32), String> {
    let expr: DiceExpr = parse_dice(text).map_err(|e| e.to_string())?;
    let count = expr.dice_count();
    let sides = expr.first_die().unwrap_or(0);
    let single = count >= 1
        && !expr.keeps()
        && !expr.subtracts_dice()
        && expr.range() == (i64::from(count), i64::from(count) * i64::from(sides));
    if !single || sides > MAX_DIE || count > MAX_POOL {
        return Err(format!(
            "is not one group of dice NdS (N up to {MAX_POOL}, S up to {MAX_DIE}), \
             which armor reduces die by die"
        ));
    }
    Ok((count, sides))
}

/// Every constant and policy switch of `actfast`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActfastConfig {
    /// Distance → band, nearest first; the last band covers every farther distance
    /// (A-10 … A-14, A-GAP-01).
    pub bands: RangeBands,
    /// Bands melee attacks may target.
    pub melee_bands: Vec<String>,
    /// Bands ranged attacks may target (A-11, A-GAP-01; never Distant, A-10).
    pub ranged_bands: Vec<String>,
    /// The band from which a melee attack may move into melee range (A-13, A-GAP-02).
    pub charge_band: String,
    /// Squares per Move action (A-GAP-01, A-GAP-02).
    pub move_squares: u32,
    /// Squares of movement a difficult square costs (A-GAP-02, §6.4).
    pub difficult_cost: u32,
    /// Actions of an Act Fast PC.
    pub fast_actions: u32,
    /// Actions of an Act Well PC.
    pub well_actions: u32,
    /// Actions of a Slow character.
    pub slow_actions: u32,
    /// Actions of an NPC in step 2 (A-GAP-07).
    pub npc_actions: u32,
    /// Most of an NPC's actions that may be attacks (A-GAP-07).
    pub npc_max_attacks: u32,
    /// Actions of each surprised character (A-04, A-GAP-15).
    pub surprised_actions: u32,
    /// Rounds a surprise lasts (A-GAP-15: only the first).
    pub surprise_rounds: u32,
    /// Reactions per round per character (A-05, A-GAP-08).
    pub reactions_per_round: u32,
    /// Whether a failed melee attack lets its target riposte (A-06, A-GAP-09).
    pub riposte: bool,
    /// Sides of a pool die (A-07: d6).
    pub pool_die: u32,
    /// Lowest face read as a Partial (A-GAP-03).
    pub partial_at: u32,
    /// Lowest face read as a Success (A-GAP-03).
    pub success_at: u32,
    /// Dice at [`ActfastConfig::success_at`] or more that make a Critical
    /// (A-GAP-03: two 6s).
    pub critical_count: u32,
    /// Extra damage dice of a Critical (A-GAP-03).
    pub critical_extra_dice: u32,
    /// A Partial's damage after armor is divided by this, rounded down (A-GAP-03).
    pub partial_divisor: u32,
    /// Dice rolled for a pool of 0 or fewer, read lowest (A-GAP-04).
    pub empty_pool_dice: u32,
    /// Whether such a roll may be a Critical (A-GAP-04: never).
    pub empty_pool_critical: bool,
    /// Whether attacks against an Immobilized unit succeed automatically (A-21,
    /// A-GAP-12).
    pub immobilized_auto_success: bool,
    /// Face an escape from a grapple or a restraint needs (A-GAP-11).
    pub escape_target: u32,
    /// Default HP of a PC (A-GAP-06).
    pub pc_hp: i32,
    /// Default HP of an NPC (A-GAP-06).
    pub npc_hp: i32,
    /// The weapon table (A-GAP-05).
    pub weapons: Vec<Weapon>,
    /// Die of Burning's damage.
    pub burning_die: u32,
    /// Whether armor reduces Burning's damage (A-GAP-05).
    pub burning_armor: bool,
    /// Dice added to a ranged attack against a Prone unit (A-18: −2d).
    pub prone_ranged: i32,
    /// Dice added to a melee attack against a Prone unit (A-18: +2d).
    pub prone_melee: i32,
    /// Dice added to a melee attack against a Grappled unit (A-19: +1d).
    pub grappled_melee: i32,
    /// Dice added to every attack of a Restrained unit (A-20: −2d).
    pub restrained_attacks: i32,
    /// Dice added to every attack against a Fearful unit (A-24: +1d).
    pub fear_attacks: i32,
    /// d6 rolled for morale (A-16: 2d6).
    pub morale_dice: u32,
    /// Leadership's sign in the morale roll: −1 (PROPOSED) or +1 (the seed's "+")
    /// (A-GAP-13).
    pub morale_leadership_sign: i32,
    /// Morale of an NPC whose data gives none (A-GAP-13).
    pub default_morale: i32,
    /// Morale trigger: the side's first NPC killed (A-GAP-13).
    pub morale_on_first_death: bool,
    /// Morale trigger: half the side's starting number lost (A-GAP-13).
    pub morale_on_half_lost: bool,
    /// Morale trigger: the side's leader defeated (A-GAP-13).
    pub morale_on_leader_defeated: bool,
    /// Whether a broken NPC adjacent to a PC surrenders rather than flees (A-GAP-13).
    pub surrender_when_adjacent: bool,
}

impl RulesetConfig for ActfastConfig {
    const RULESET: &'static str = "actfast";
    const DEFAULT_RON: &'static str = DEFAULT_RON;

    fn problems(&self) -> Vec<ConfigError> {
        let mut out = Vec::new();
        let p = &mut out;
        let speed = MAX_SPEED as u32;
        for problem in self.bands.problems() {
            p.push(ConfigError::new("bands", format!("`bands`: {problem}")));
        }
        for (key, names) in [
            ("melee_bands", &self.melee_bands),
            ("ranged_bands", &self.ranged_bands),
        ] {
            for name in names {
                if self.bands.index_of(name).is_none() {
                    p.push(ConfigError::new(
                        key,
                        format!(
                            "`{key}`: `{name}` is not a band; expected one of {}",
                            self.band_names()
                        ),
                    ));
                }
            }
        }
        if self.bands.index_of(&self.charge_band).is_none() {
            p.push(ConfigError::new(
                "charge_band",
                format!(
                    "`charge_band` is `{}`, not a band; expected one of {}",
                    self.charge_band,
                    self.band_names()
                ),
            ));
        }
        check_range(p, "move_squares", self.move_squares, 0..=speed);
        check_range(p, "difficult_cost", self.difficult_cost, 1..=100);
        for (key, v) in [
            ("fast_actions", self.fast_actions),
            ("well_actions", self.well_actions),
            ("slow_actions", self.slow_actions),
            ("npc_actions", self.npc_actions),
            ("surprised_actions", self.surprised_actions),
        ] {
            check_range(p, key, v, 1..=10);
        }
        check_range(p, "npc_max_attacks", self.npc_max_attacks, 0..=10);
        check_range(p, "surprise_rounds", self.surprise_rounds, 0..=100);
        check_range(p, "reactions_per_round", self.reactions_per_round, 0..=10);
        check_range(p, "pool_die", self.pool_die, 2..=MAX_DIE);
        check_range(p, "partial_at", self.partial_at, 1..=self.pool_die);
        check_range(
            p,
            "success_at",
            self.success_at,
            self.partial_at..=self.pool_die,
        );
        check_range(p, "critical_count", self.critical_count, 1..=MAX_POOL);
        check_range(
            p,
            "critical_extra_dice",
            self.critical_extra_dice,
            0..=MAX_POOL,
        );
        check_range(p, "partial_divisor", self.partial_divisor, 1..=100);
        check_range(p, "empty_pool_dice", self.empty_pool_dice, 1..=MAX_POOL);
        check_range(p, "escape_target", self.escape_target, 1..=self.pool_die);
        check_range(p, "pc_hp", self.pc_hp, 1..=MAX_HP);
        check_range(p, "npc_hp", self.npc_hp, 1..=MAX_HP);
        for w in &self.weapons {
            if let Err(e) = w.dice() {
                p.push(ConfigError::new(
                    "weapons",
                    format!("`weapons`: `{}` damage `{}` {e}", w.name, w.damage),
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
        check_range(p, "burning_die", self.burning_die, 1..=MAX_DIE);
        let m = MAX_POOL as i32;
        for (key, v) in [
            ("prone_ranged", self.prone_ranged),
            ("prone_melee", self.prone_melee),
            ("grappled_melee", self.grappled_melee),
            ("restrained_attacks", self.restrained_attacks),
            ("fear_attacks", self.fear_attacks),
        ] {
            check_range(p, key, v, -m..=m);
        }
        check_range(p, "morale_dice", self.morale_dice, 1..=MAX_POOL);
        if ![-1, 1].contains(&self.morale_leadership_sign) {
            p.push(ConfigError::new(
                "morale_leadership_sign",
                format!(
                    "`morale_leadership_sign` is {}; expected -1 (Leadership helps) or 1 \
                     (the seed's literal +)",
                    self.morale_leadership_sign
                ),
            ));
        }
        check_range(
            p,
            "default_morale",
            self.default_morale,
            -MAX_MODIFIER..=MAX_MODIFIER,
        );
        out
    }
}

impl ActfastConfig {
    /// The band names, for messages: "`Melee`, `Close`, …".
    fn band_names(&self) -> String {
        let names: Vec<String> = self
            .bands
            .0
            .iter()
            .map(|b| format!("`{}`", b.name))
            .collect();
        names.join(", ")
    }

    /// The band a grid distance falls in (A-GAP-01, A-EX-7); `None` beyond the last.
    pub fn band(&self, distance: u32) -> Option<&str> {
        self.bands.name_of(distance)
    }

    /// Whether an attack (melee or ranged) may target a unit at `distance` (A-10,
    /// A-GAP-01).
    pub fn in_reach(&self, melee: bool, distance: u32) -> bool {
        let allowed = if melee {
            &self.melee_bands
        } else {
            &self.ranged_bands
        };
        self.band(distance)
            .is_some_and(|b| allowed.iter().any(|a| a == b))
    }

    /// Whether a melee attack at `distance` may include a move into melee range
    /// (A-13, A-GAP-02): the target is in the charge band or nearer.
    pub fn can_charge(&self, distance: u32) -> bool {
        match (
            self.bands.band_of(distance),
            self.bands.index_of(&self.charge_band),
        ) {
            (Some((i, _)), Some(c)) => i <= c,
            _ => false,
        }
    }

    /// The weapon called `name`, if the table has one.
    pub fn weapon(&self, name: &str) -> Option<&Weapon> {
        self.weapons.iter().find(|w| w.name == name)
    }

    /// HP of a unit whose level gives none: PCs 10, NPCs 6 (A-GAP-06).
    pub fn default_hp(&self, pc: bool) -> i32 {
        if pc { self.pc_hp } else { self.npc_hp }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ruleset::config::{from_ron, load_default};

    fn cfg() -> ActfastConfig {
        load_default().expect("actfast.ron")
    }

    /// The shipped file and the compiled-in copy load and pass their own checks.
    #[test]
    fn the_shipped_constants_load() {
        let c = cfg();
        assert!(c.problems().is_empty(), "{:?}", c.problems());
        let compiled: ActfastConfig = from_ron(DEFAULT_RON).unwrap();
        assert_eq!(compiled, c);
    }

    /// A-EX-7 / A-GAP-01 / A-10 … A-14: the bands on the grid, and which attacks
    /// reach them; a melee attack may close in from Close (d ≤ 6), not from Mid.
    #[test]
    fn a_ex_7_bands_and_reach() {
        let c = cfg();
        for (d, band) in [
            (1, "Melee"),
            (4, "Close"),
            (6, "Close"),
            (7, "Mid"),
            (12, "Mid"),
            (13, "Far"),
            (30, "Far"),
            (31, "Distant"),
            (5000, "Distant"),
        ] {
            assert_eq!(c.band(d), Some(band), "d = {d}");
        }
        // A-14 melee reaches Melee only; ranged reaches up to Far.
        let melee: Vec<bool> = [1, 2].map(|d| c.in_reach(true, d)).into();
        assert_eq!(melee, [true, false], "A-14");
        let ranged: Vec<bool> = [1, 6, 12, 30, 31].map(|d| c.in_reach(false, d)).into();
        assert_eq!(ranged, [true, true, true, true, false], "A-11 / A-10");
        // Close may move into melee as part of the attack; Mid can't.
        let charge: Vec<bool> = [1, 6, 7].map(|d| c.can_charge(d)).into();
        assert_eq!(charge, [true, true, false], "A-13 / A-12");
    }

    /// A-GAP-02 / A-GAP-07 / A-GAP-08 / A-GAP-11 / A-GAP-15: moves of 6 squares,
    /// difficult squares cost 2, NPCs 2 actions with at most one attack, 1 reaction
    /// a round, escapes on 4+, surprise for one round with 2 actions.
    #[test]
    fn a_gap_07_a_gap_08_action_constants() {
        let c = cfg();
        assert_eq!((c.move_squares, c.difficult_cost), (6, 2), "A-GAP-02");
        assert_eq!(
            (c.fast_actions, c.well_actions, c.slow_actions),
            (1, 2, 1),
            "A-02 / A-22"
        );
        assert_eq!((c.npc_actions, c.npc_max_attacks), (2, 1), "A-GAP-07");
        assert_eq!(c.reactions_per_round, 1, "A-05 / A-GAP-08");
        assert!(c.riposte, "A-06 / A-GAP-09");
        assert_eq!(c.escape_target, 4, "A-GAP-11");
        assert_eq!((c.surprised_actions, c.surprise_rounds), (2, 1), "A-GAP-15");
    }

    /// A-GAP-03 / A-GAP-04 / A-GAP-12: the skill-check scale on d6 (1–3, 4–5, 6,
    /// two 6s +1 die, partial halves), 2 dice read lowest for an empty pool, never
    /// critical; Immobilized targets are hit automatically.
    #[test]
    fn a_gap_03_a_gap_04_skill_check_constants() {
        let c = cfg();
        assert_eq!(
            (c.pool_die, c.partial_at, c.success_at, c.critical_count),
            (6, 4, 6, 2)
        );
        assert_eq!((c.critical_extra_dice, c.partial_divisor), (1, 2));
        assert_eq!((c.empty_pool_dice, c.empty_pool_critical), (2, false));
        assert!(c.immobilized_auto_success, "A-GAP-12");
    }

    /// A-GAP-05 / A-GAP-06 / A-25: the weapon table, default HP 10 PC / 6 NPC, a
    /// d6 of Burning that armor reduces.
    #[test]
    fn a_gap_05_a_gap_06_weapons_and_hp() {
        let c = cfg();
        let table: Vec<(&str, (u32, u32), bool)> = c
            .weapons
            .iter()
            .map(|w| (w.name.as_str(), w.dice().unwrap(), w.melee))
            .collect();
        assert_eq!(
            table,
            [
                ("Unarmed", (1, 3), true),
                ("One-handed", (1, 6), true),
                ("Two-handed", (2, 6), true),
                ("Bow", (1, 6), false),
                ("Crossbow", (1, 6), false),
            ]
        );
        assert!(c.weapon("Halberd").is_none());
        assert_eq!((c.default_hp(true), c.default_hp(false)), (10, 6));
        assert_eq!((c.burning_die, c.burning_armor), (6, true), "A-25");
    }

    /// A-18 / A-19 / A-20 / A-24 / A-GAP-13: condition dice and morale defaults.
    #[test]
    fn a_18_condition_dice_and_a_gap_13_morale_constants() {
        let c = cfg();
        assert_eq!((c.prone_ranged, c.prone_melee), (-2, 2), "A-18");
        assert_eq!(c.grappled_melee, 1, "A-19");
        assert_eq!(c.restrained_attacks, -2, "A-20");
        assert_eq!(c.fear_attacks, 1, "A-24");
        assert_eq!(
            (c.morale_dice, c.morale_leadership_sign, c.default_morale),
            (2, -1, 8)
        );
        assert!(c.morale_on_first_death && c.morale_on_half_lost && c.morale_on_leader_defeated);
        assert!(c.surrender_when_adjacent);
    }

    /// A value out of range, an unknown band, a weapon that is not `NdS` or is
    /// listed twice, or a sign other than ±1 is refused at its key, in words.
    #[test]
    fn bad_constants_are_named() {
        let mut c = cfg();
        c.ranged_bands.push("Nowhere".into());
        c.success_at = 3;
        c.weapons[0].damage = "1d6+1".into();
        c.weapons.push(c.weapons[1].clone());
        c.morale_leadership_sign = 0;
        let problems = c.problems();
        let keys: Vec<&str> = problems.iter().map(|p| p.key.as_str()).collect();
        assert_eq!(
            keys,
            [
                "ranged_bands",
                "success_at",
                "weapons",
                "weapons",
                "morale_leadership_sign"
            ]
        );
        assert!(
            problems[0].message.contains("`Nowhere` is not a band"),
            "{problems:?}"
        );
        assert!(
            problems[1]
                .message
                .contains("`success_at` is 3; expected 4 to 6")
        );
        assert!(
            problems[2]
                .message
                .contains("`Unarmed` damage `1d6+1` is not one group")
        );
        assert!(problems[3].message.contains("`One-handed` is listed twice"));
        assert!(problems[4].message.contains("expected -1"));
    }

    /// A RON file with a bad value reads `line:col: message` at its key.
    #[test]
    fn a_bad_file_names_the_line() {
        let text = DEFAULT_RON.replace("pc_hp: 10,", "pc_hp: 0,");
        let err = from_ron::<ActfastConfig>(&text).unwrap_err();
        let line = text.lines().position(|l| l.contains("pc_hp: 0")).unwrap() + 1;
        assert_eq!(
            err,
            format!("{line}:5: `pc_hp` is 0; expected 1 to 1000000")
        );
    }
}
