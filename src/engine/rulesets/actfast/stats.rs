//! The unit stats `actfast` reads (A-01, A-GAP-06, A-GAP-13), as a level's `stats`
//! map writes them, with what each means, the range it plays with and the default
//! when a level gives none; and the conditions (A-18 … A-25) with their names and
//! the pool dice each adds, as a table the rules, the level check and the editor
//! share.

use crate::engine::ruleset::{MAX_HP, MAX_MODIFIER, MAX_SPEED, StatSpec};

use super::config::ActfastConfig;

/// Every stat of an `actfast` unit.
pub const STATS: &[StatSpec] = &[
    StatSpec::new(
        "Class",
        true,
        "Class bonus: dice added to every attack pool (A-07)",
        -MAX_MODIFIER,
        MAX_MODIFIER,
    ),
    StatSpec::new(
        "STR",
        true,
        "Strength: dice of melee attack and escape pools (A-07, A-GAP-11)",
        -MAX_MODIFIER,
        MAX_MODIFIER,
    ),
    StatSpec::new(
        "DEX",
        true,
        "Dexterity: dice of ranged attack pools (A-07)",
        -MAX_MODIFIER,
        MAX_MODIFIER,
    ),
    StatSpec::new(
        "Armor",
        false,
        "taken from every damage die, each die floored at 0; 0 by default (A-15, \
         A-GAP-05)",
        0,
        MAX_MODIFIER,
    ),
    StatSpec::new(
        "HP",
        false,
        "hit points; at 0 a PC is Down and an NPC dead; 10 for PCs, 6 for NPCs by \
         default (A-GAP-06)",
        1,
        MAX_HP,
    ),
    StatSpec::new(
        "Leadership",
        false,
        "NPCs: added to (by default taken from) the 2d6 morale roll; 0 by default \
         (A-16, A-GAP-13)",
        -MAX_MODIFIER,
        MAX_MODIFIER,
    ),
    StatSpec::new(
        "Morale",
        false,
        "NPCs: the morale save; a morale roll above it flees or surrenders; 8 by \
         default (A-16, A-GAP-13)",
        -MAX_MODIFIER,
        MAX_MODIFIER,
    ),
    StatSpec::new(
        "Move",
        false,
        "squares per Move action; 6 by default (A-GAP-01, A-GAP-02)",
        0,
        MAX_SPEED,
    ),
];

/// The value of an optional stat a level leaves out (A-01, A-GAP-06, A-GAP-13);
/// `None` for a required stat or an unknown one.
pub fn default_stat(cfg: &ActfastConfig, name: &str, pc: bool) -> Option<i32> {
    Some(match name {
        "HP" => cfg.default_hp(pc),
        "Armor" | "Leadership" => 0,
        "Morale" => cfg.default_morale,
        "Move" => i32::try_from(cfg.move_squares).ok()?,
        _ => return None,
    })
}

/// A condition a unit may carry (A-18 … A-25).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Condition {
    /// −2d to be hit by ranged attacks, +2d by melee ones; stands up with 1 action
    /// before it moves.
    Prone,
    /// Can't move; melee attacks against it +1d.
    Grappled,
    /// −2d to all its attacks; its whole turn for a move action.
    Restrained,
    /// Can't move, attack or cast; attacks against it succeed (A-21, A-GAP-12).
    Immobilized,
    /// 1 action, acting last; an NPC moves or attacks, not both.
    Slow,
    /// Misses its turn; no reaction.
    Stunned,
    /// Moves only to flee its source; attacks against it +1d.
    Fear,
    /// 1d6 at the start of its turn until it spends an action to put it out.
    Burning,
}

/// Whether an attack is made in melee (Class + STR) or at range (Class + DEX).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AttackKind {
    /// A melee attack: targets the melee bands.
    Melee,
    /// A ranged attack: targets the ranged bands.
    Ranged,
}

/// One row of the conditions table: a condition as levels write it, the rule it
/// comes from and what it does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConditionSpec {
    /// The condition.
    pub condition: Condition,
    /// Its name as written in levels (`Prone`).
    pub name: &'static str,
    /// How the log words it ("Ann is now afraid"): the name, but where the seed's
    /// word for the state is another (Fear: "a fearful character", afraid).
    pub word: &'static str,
    /// The rule id of RULES.md (`A-18`).
    pub rule: &'static str,
    /// What it does, for messages and the editor.
    pub about: &'static str,
}

/// Every condition of `actfast` (A-18 … A-25), in the seed's order.
pub const CONDITIONS: &[ConditionSpec] = &[
    ConditionSpec {
        condition: Condition::Prone,
        name: "Prone",
        word: "Prone",
        rule: "A-18",
        about: "ranged attacks against it lose dice, melee ones gain them; 1 action to \
                stand before it moves",
    },
    ConditionSpec {
        condition: Condition::Grappled,
        name: "Grappled",
        word: "Grappled",
        rule: "A-19",
        about: "can't move; melee attacks against it gain dice",
    },
    ConditionSpec {
        condition: Condition::Restrained,
        name: "Restrained",
        word: "Restrained",
        rule: "A-20",
        about: "its attacks lose dice; a move action takes its whole turn",
    },
    ConditionSpec {
        condition: Condition::Immobilized,
        name: "Immobilized",
        word: "Immobilized",
        rule: "A-21",
        about: "can't move, attack or cast; attacks against it succeed; can't react",
    },
    ConditionSpec {
        condition: Condition::Slow,
        name: "Slow",
        word: "Slow",
        rule: "A-22",
        about: "1 action, in the last step; an NPC moves or attacks, not both",
    },
    ConditionSpec {
        condition: Condition::Stunned,
        name: "Stunned",
        word: "Stunned",
        rule: "A-23",
        about: "misses its turn and can't react",
    },
    ConditionSpec {
        condition: Condition::Fear,
        name: "Fear",
        word: "afraid",
        rule: "A-24",
        about: "moves only to flee its source; attacks against it gain dice",
    },
    ConditionSpec {
        condition: Condition::Burning,
        name: "Burning",
        word: "Burning",
        rule: "A-25",
        about: "takes a die of damage at the start of its turn until it spends an \
                action to put out the flames",
    },
];

impl Condition {
    /// Its row of [`CONDITIONS`].
    pub fn spec(self) -> &'static ConditionSpec {
        CONDITIONS
            .iter()
            .find(|s| s.condition == self)
            .expect("every condition has a row")
    }

    /// Its name as written in levels.
    pub fn name(self) -> &'static str {
        self.spec().name
    }

    /// The condition a level names, exactly as [`CONDITIONS`] spells it.
    pub fn from_name(name: &str) -> Option<Condition> {
        CONDITIONS
            .iter()
            .find(|s| s.name == name)
            .map(|s| s.condition)
    }

    /// Dice it adds to an attack of `kind` made *against* a unit carrying it (A-18,
    /// ); 0 when it changes nothing.
    pub fn dice_against(self, cfg: &ActfastConfig, kind: AttackKind) -> i32 {
        match (self, kind) {
            (Condition::Prone, AttackKind::Ranged) => cfg.prone_ranged,
            (Condition::Prone, AttackKind::Melee) => cfg.prone_melee,
            (Condition::Grappled, AttackKind::Melee) => cfg.grappled_melee,
            (Condition::Fear, _) => cfg.fear_attacks,
            _ => 0,
        }
    }

    /// Dice it adds to every attack *made by* a unit carrying it; 0 when it
    /// changes nothing.
    pub fn dice_own(self, cfg: &ActfastConfig) -> i32 {
        match self {
            Condition::Restrained => cfg.restrained_attacks,
            _ => 0,
        }
    }

    /// Whether a unit carrying it can't take a reaction (A-23, A-GAP-08, A-GAP-12).
    pub fn blocks_reactions(self) -> bool {
        matches!(self, Condition::Stunned | Condition::Immobilized)
    }

    /// Whether a unit carrying it can't move (A-19, A-21; Prone until it stands,
    /// A-18; Fear except to flee, A-24, A-GAP-14).
    pub fn blocks_moving(self) -> bool {
        matches!(
            self,
            Condition::Prone | Condition::Grappled | Condition::Immobilized | Condition::Fear
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ruleset::config::load_default;

    fn cfg() -> ActfastConfig {
        load_default().unwrap()
    }

    /// the stats a unit needs, each once; Class, STR and DEX are required,
    /// every other one has a default within its range.
    #[test]
    fn a_01_stat_table() {
        let c = cfg();
        let names: Vec<&str> = STATS.iter().map(|s| s.name).collect();
        assert_eq!(
            names,
            [
                "Class",
                "STR",
                "DEX",
                "Armor",
                "HP",
                "Leadership",
                "Morale",
                "Move"
            ]
        );
        for s in STATS {
            assert!(s.min <= s.max, "{}", s.name);
            match default_stat(&c, s.name, false) {
                None => assert!(s.required, "{} has no default", s.name),
                Some(v) => {
                    assert!(!s.required, "{}", s.name);
                    assert!((s.min..=s.max).contains(&v), "{} default {v}", s.name);
                }
            }
        }
        assert_eq!(default_stat(&c, "Class", true), None);
        assert_eq!(default_stat(&c, "Wisdom", true), None);
    }

    /// A-GAP-06 / A-GAP-13: HP 10 PC / 6 NPC, Morale 8, Leadership and Armor 0,
    /// Move 6.
    #[test]
    fn a_gap_06_a_gap_13_defaults() {
        let c = cfg();
        assert_eq!(default_stat(&c, "HP", true), Some(10));
        assert_eq!(default_stat(&c, "HP", false), Some(6));
        assert_eq!(default_stat(&c, "Morale", false), Some(8));
        assert_eq!(default_stat(&c, "Leadership", false), Some(0));
        assert_eq!(default_stat(&c, "Armor", true), Some(0));
        assert_eq!(default_stat(&c, "Move", true), Some(6));
    }

    /// A-18 … A-25: every condition once, named as the seed names it, with its rule.
    #[test]
    fn a_18_to_a_25_condition_table() {
        let rows: Vec<(&str, &str)> = CONDITIONS.iter().map(|s| (s.name, s.rule)).collect();
        assert_eq!(
            rows,
            [
                ("Prone", "A-18"),
                ("Grappled", "A-19"),
                ("Restrained", "A-20"),
                ("Immobilized", "A-21"),
                ("Slow", "A-22"),
                ("Stunned", "A-23"),
                ("Fear", "A-24"),
                ("Burning", "A-25"),
            ]
        );
        for s in CONDITIONS {
            assert_eq!(Condition::from_name(s.name), Some(s.condition));
            assert_eq!(s.condition.name(), s.name);
        }
        assert_eq!(Condition::from_name("prone"), None);
    }

    /// the dice each condition adds, against its carrier
    /// or to its carrier's own attacks; the others add none.
    #[test]
    fn a_18_a_19_a_20_a_24_condition_dice() {
        let c = cfg();
        let against: Vec<(i32, i32)> = CONDITIONS
            .iter()
            .map(|s| {
                (
                    s.condition.dice_against(&c, AttackKind::Melee),
                    s.condition.dice_against(&c, AttackKind::Ranged),
                )
            })
            .collect();
        assert_eq!(
            against,
            [
                (2, -2),
                (1, 0),
                (0, 0),
                (0, 0),
                (0, 0),
                (0, 0),
                (1, 1),
                (0, 0)
            ]
        );
        let own: Vec<i32> = CONDITIONS
            .iter()
            .map(|s| s.condition.dice_own(&c))
            .collect();
        assert_eq!(own, [0, 0, -2, 0, 0, 0, 0, 0]);
    }

    /// A-23 / A-GAP-08 / A-GAP-12: Stunned and Immobilized units can't react;
    /// Prone, Grappled, Immobilized and Fearful units
    /// can't (freely) move.
    #[test]
    fn a_23_a_gap_08_reactions_and_moving() {
        let no_react: Vec<&str> = CONDITIONS
            .iter()
            .filter(|s| s.condition.blocks_reactions())
            .map(|s| s.name)
            .collect();
        assert_eq!(no_react, ["Immobilized", "Stunned"]);
        let no_move: Vec<&str> = CONDITIONS
            .iter()
            .filter(|s| s.condition.blocks_moving())
            .map(|s| s.name)
            .collect();
        assert_eq!(no_move, ["Prone", "Grappled", "Immobilized", "Fear"]);
    }
}
