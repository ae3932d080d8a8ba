//! `escalation`'s special actions as the verbs it declares: Disengage (E-37),
//! switching stance (E-09), Rally (E-43), Delay (E-19), Stabilize (E-51), Coup de
//! Grace (E-44), Ready (E-20) and Flee (E-42). Moves, attacks and ending the turn are core
//! commands. Also the answers to its decisions: ActNow (E-18) and React (an
//! Intercept, E-39).

use super::conditions as names;
use crate::engine::command::Command;
use crate::engine::units::{Pool, SideId, UnitId};
use crate::engine::verb::{ArgKind, ArgSpec, ArgValue, Args, ChoiceSpec, Cost, VerbSpec};

/// The action pools a turn has (E-21), shown as counters.
pub mod pools {
    use crate::engine::units::Pool;
    /// The Standard action.
    pub const STANDARD: Pool = Pool::new("Standard", "Standard");
    /// The Move action.
    pub const MOVE: Pool = Pool::new("Move", "Move");
    /// The Quick action.
    pub const QUICK: Pool = Pool::new("Quick", "Quick");
}

const fn one(pool: Pool) -> Option<Cost> {
    Some(Cost::new(pool, 1))
}

/// `Disengage(unit, to)`.
pub const DISENGAGE: &str = "Disengage";
/// `Stance(unit)`.
pub const STANCE: &str = "Stance";
/// `Rally(unit)`.
pub const RALLY: &str = "Rally";
/// `Delay(unit, band)`.
pub const DELAY: &str = "Delay";
/// `Stabilize(unit, target)`.
pub const STABILIZE: &str = "Stabilize";
/// `CoupDeGrace(unit, target)`.
pub const COUP_DE_GRACE: &str = "CoupDeGrace";
/// `Flee(unit)`.
pub const FLEE: &str = "Flee";
/// `Ready(unit, power?)`.
pub const READY: &str = "Ready";
/// `DiceyMove(unit, difficulty, reward, ally?)`.
pub const DICEY_MOVE: &str = "DiceyMove";

/// `GrantSave(unit, target)`.
pub const GRANT_SAVE: &str = "GrantSave";
/// `Sustain(unit, power)`.
pub const SUSTAIN: &str = "Sustain";
/// `FightInSpirit(unit, ally, boon, reason?)`.
pub const FIGHT_IN_SPIRIT: &str = "FightInSpirit";

/// Fight in Spirit's boons (E-41).
pub const BOONS: &[ChoiceSpec] = &[
    ChoiceSpec {
        value: "Attacks",
        label: "Advantage on attacks",
    },
    ChoiceSpec {
        value: "Saves",
        label: "Advantage on saves",
    },
    ChoiceSpec {
        value: "Guard",
        label: "Disadvantage to attacks against it",
    },
];

/// A Dicey Move's Difficulty (E-GAP-19).
pub const DIFFICULTIES: &[ChoiceSpec] = &[
    ChoiceSpec {
        value: "Easy",
        label: "easy (11)",
    },
    ChoiceSpec {
        value: "Hard",
        label: "hard (13)",
    },
    ChoiceSpec {
        value: "VeryHard",
        label: "very hard (15)",
    },
];

/// A Dicey Move's reward (E-40).
pub const REWARDS: &[ChoiceSpec] = &[
    ChoiceSpec {
        value: "Edge",
        label: "1 Advantage on its next attack",
    },
    ChoiceSpec {
        value: "Aid",
        label: "1 Advantage on an ally's next Disengage",
    },
    ChoiceSpec {
        value: "Hazard",
        label: "environmental damage to a unit Nearby",
    },
    ChoiceSpec {
        value: "Hinder",
        label: "a condition on a unit Nearby for a round",
    },
];

/// The conditions a Dicey Move's `Hinder` reward may put on a unit for a round
/// (E-40): those that make sense for one round of a stunt (a knocked-over brazier,
/// a tangling rope), none that needs a source or ends a unit's part in the fight.
pub const HINDERS: &[ChoiceSpec] = &[
    ChoiceSpec {
        value: names::DAZED,
        label: "Dazed",
    },
    ChoiceSpec {
        value: names::HAMPERED,
        label: "Hampered",
    },
    ChoiceSpec {
        value: names::SHAKEN,
        label: "Shaken",
    },
    ChoiceSpec {
        value: names::SOFTENED,
        label: "Softened",
    },
    ChoiceSpec {
        value: names::STUCK,
        label: "Stuck",
    },
    ChoiceSpec {
        value: names::VULNERABLE,
        label: "Vulnerable",
    },
    ChoiceSpec {
        value: names::WEAKENED,
        label: "Weakened",
    },
];

/// The Difficulty of a Dicey Move's choice value (E-GAP-19).
pub fn difficulty(value: &str) -> Option<i32> {
    match value {
        "Easy" => Some(11),
        "Hard" => Some(13),
        "VeryHard" => Some(15),
        _ => None,
    }
}

/// The bands a unit may delay to, as scenario values (the default band names
/// without spaces).
pub const BANDS: &[ChoiceSpec] = &[
    ChoiceSpec {
        value: "Fast",
        label: "Fast",
    },
    ChoiceSpec {
        value: "Medium",
        label: "Medium",
    },
    ChoiceSpec {
        value: "Slow",
        label: "Slow",
    },
    ChoiceSpec {
        value: "VerySlow",
        label: "Very Slow",
    },
];

/// The verbs `escalation` declares.
pub const VERBS: &[VerbSpec] = &[
    VerbSpec {
        key: Some('g'),
        cost: one(pools::MOVE),
        args: &[
            ArgSpec::required("to", ArgKind::Cell),
            ArgSpec::optional("except", ArgKind::Unit),
        ],
        ..VerbSpec::new(
            DISENGAGE,
            "3d6 against 11 + 1 per engaged enemy after the first; success pops off \
             them (all but `except`, whose opportunity attack still comes) and moves to \
             `to` (up to 6 squares), failure loses the Move action (E-37, E-GAP-11)",
            &["Disengage to {to}", "Disengage"],
        )
    },
    VerbSpec {
        key: Some('i'),
        cost: one(pools::QUICK),
        ..VerbSpec::new(
            STANCE,
            "switch between Melee and Ranged stance (E-09)",
            &["Switch stance"],
        )
    },
    VerbSpec {
        key: Some('h'),
        cost: one(pools::STANDARD),
        ..VerbSpec::new(
            RALLY,
            "heal with a Recovery, then save against one effect with the Escalation die \
             added (E-43)",
            &["Rally"],
        )
    },
    VerbSpec {
        key: Some('l'),
        args: &[ArgSpec::required("band", ArgKind::Choice(BANDS))],
        ..VerbSpec::new(
            DELAY,
            "act later this round, in a lower band, and keep that band (E-19)",
            &["Delay to {band}", "Delay"],
        )
    },
    VerbSpec {
        key: Some('b'),
        cost: one(pools::STANDARD),
        args: &[ArgSpec::required("target", ArgKind::Unit)],
        target: Some("target"),
        ..VerbSpec::new(
            STABILIZE,
            "a Dying ally next to the unit no longer risks death from failed death saves \
             (E-51, E-GAP-23)",
            &["Stabilize"],
        )
    },
    VerbSpec {
        key: Some('k'),
        cost: one(pools::STANDARD),
        args: &[ArgSpec::required("target", ArgKind::Unit)],
        target: Some("target"),
        ..VerbSpec::new(
            COUP_DE_GRACE,
            "an automatic crit on an engaged, helpless enemy; spends every action \
             (E-44, E-GAP-06)",
            &["Coup de Grace"],
        )
    },
    VerbSpec {
        key: Some('y'),
        cost: one(pools::STANDARD),
        args: &[
            ArgSpec::optional("power", ArgKind::Name),
            ArgSpec::optional("to", ArgKind::Cell),
        ],
        ..VerbSpec::new(
            READY,
            "ready an action, taking its action type: an attack (the stance's basic \
             attack, or the attack `power`) goes off just before the first enemy in its \
             reach moves a step or attacks; a Move to `to`, or a non-attack `Heal` power \
             on the unit itself, just before the first enemy Nearby does; until the \
             unit's next turn (E-20)",
            &["Ready {power}", "Ready a Move to {to}", "Ready an attack"],
        )
    },
    VerbSpec {
        key: Some('j'),
        cost: one(pools::MOVE),
        rare: true,
        args: &[
            ArgSpec::required("difficulty", ArgKind::Choice(DIFFICULTIES)),
            ArgSpec::required("reward", ArgKind::Choice(REWARDS)),
            ArgSpec::optional("ally", ArgKind::Unit),
            ArgSpec::optional("target", ArgKind::Unit),
            ArgSpec::optional("condition", ArgKind::Choice(HINDERS)),
        ],
        ..VerbSpec::new(
            DICEY_MOVE,
            "a stunt with the surroundings: 3d6 + Volition against 11, 13 or 15; success \
             gives 1 Advantage on the unit's next attack (Edge) or on the next Disengage \
             of `ally`, next to it (Aid), until the end of its next turn; or deals Level d6 \
             environmental damage to `target` (Hazard), or puts `condition` on `target` \
             until the end of the unit's next turn (Hinder), `target` within Nearby \
             (E-40, E-GAP-19)",
            &["Dicey Move ({difficulty}, {reward})", "Dicey Move"],
        )
    },
    VerbSpec {
        cost: one(pools::STANDARD),
        args: &[ArgSpec::required("target", ArgKind::Unit)],
        target: Some("target"),
        rare: true,
        ..VerbSpec::new(
            GRANT_SAVE,
            "give an ally under a Last Gasp effect an extra save; its failure does not \
             count (E-52)",
            &["Grant a Last Gasp save"],
        )
    },
    VerbSpec {
        args: &[ArgSpec::required("power", ArgKind::Name)],
        ..VerbSpec::new(
            SUSTAIN,
            "keep a power's sustained effects through this turn: its action type and its \
             Sustain roll, 3d6 against the header's X (E-29)",
            &["Sustain {power}", "Sustain"],
        )
    },
    VerbSpec {
        args: &[
            ArgSpec::required("ally", ArgKind::Unit),
            ArgSpec::required("boon", ArgKind::Choice(BOONS)),
            ArgSpec::optional("reason", ArgKind::Name),
        ],
        target: Some("ally"),
        ..VerbSpec::new(
            FIGHT_IN_SPIRIT,
            "a PC out of the fight for good gives an ally, for one round, Advantage on \
             attacks or on saves, or Disadvantage to attacks against it, for the `reason` \
             its player gives (E-41); it is its whole turn",
            &["Fight in Spirit"],
        )
    },
    VerbSpec {
        rare: true,
        ..VerbSpec::new(
            FLEE,
            "the whole side leaves the battle and loses it (E-42, E-GAP-22)",
            &["Flee the battle"],
        )
    },
];

/// `ActNow(side, units: [unit])`: which unit of the band acts next (E-18).
pub const ACT_NOW: &str = "ActNow";
/// `React(side, unit, reaction: Intercept)`: a Free unit intercepts a mover (E-39).
pub const REACT: &str = "React";

const INTERCEPT: &[ChoiceSpec] = &[ChoiceSpec {
    value: "Intercept",
    label: "Intercept",
}];

/// The answers `escalation` declares to its decisions.
pub const ANSWERS: &[VerbSpec] = &[
    VerbSpec::answer(
        ACT_NOW,
        "the unit in `units` acts next among the deciding side's group of its band \
         (E-18)",
        &[ArgSpec::optional("units", ArgKind::Units)],
    ),
    VerbSpec::answer(
        REACT,
        "`unit` of the deciding side intercepts the enemy moving to engage its ally \
         (`reaction: Intercept`, E-39)",
        &[
            ArgSpec::required("unit", ArgKind::Unit),
            ArgSpec::required("reaction", ArgKind::Choice(INTERCEPT)),
        ],
    ),
];

/// `side`'s answer that `unit` acts next.
pub fn act_now(side: SideId, unit: UnitId) -> Command {
    Command::Answer {
        side,
        verb: ACT_NOW.into(),
        args: Args::new().with("units", ArgValue::Units(vec![unit])),
    }
}

/// `side`'s answer that `unit` intercepts.
pub fn intercept(side: SideId, unit: UnitId) -> Command {
    Command::Answer {
        side,
        verb: REACT.into(),
        args: Args::new()
            .with("unit", ArgValue::Unit(unit))
            .with("reaction", ArgValue::Choice(INTERCEPT[0].value.into())),
    }
}

/// The unit an answer names (the first of an `ActNow`'s, an intercepting unit), if
/// `command` is the answer `verb`.
pub fn answering_unit(command: &Command, verb: &str) -> Option<UnitId> {
    match command {
        Command::Answer { verb: v, args, .. } if v == verb => args.units().next(),
        _ => None,
    }
}
