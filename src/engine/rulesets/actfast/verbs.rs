//! `actfast`'s special actions as the verbs it declares: the round's choice (Act
//! Fast, Act Well, A-02), the riposte reaction (A-06, A-GAP-09), standing up,
//! putting out flames, escaping a grapple or restraint (A-GAP-11) and
//! waiting for the next PC of the step (A-GAP-10). Moves,
//! attacks (a melee attack with its approach, A-13), items and ending the turn are
//! core commands.

use crate::engine::units::Pool;
use crate::engine::verb::{Cost, VerbSpec};

/// The actions of a unit's turn (A-GAP-02), shown as a counter.
pub const ACTIONS: Pool = Pool::new("Actions", "action");

const ONE: Option<Cost> = Some(Cost::new(ACTIONS, 1));

/// `ActFast(unit)`: the answer "1 action, before the opponents".
pub const ACT_FAST: &str = "ActFast";
/// `ActWell(unit)`: the answer "2 actions, after the opponents".
pub const ACT_WELL: &str = "ActWell";
/// `Riposte(unit)`: the answer "riposte the failed attack".
pub const RIPOSTE: &str = "Riposte";
/// `Stand(unit)`.
pub const STAND: &str = "Stand";
/// `Extinguish(unit)`.
pub const EXTINGUISH: &str = "Extinguish";
/// `Escape(unit)`.
pub const ESCAPE: &str = "Escape";
/// `Wait(unit)`.
pub const WAIT: &str = "Wait";

/// The verbs `actfast` declares.
pub const VERBS: &[VerbSpec] = &[
    VerbSpec::new(
        ACT_FAST,
        "this round the PC takes 1 action, before the opponents (A-02, A-03)",
        &["Act Fast: 1 action, before the opponents"],
    ),
    VerbSpec::new(
        ACT_WELL,
        "this round the PC takes 2 actions, after the opponents (A-02, A-03)",
        &["Act Well: 2 actions, after the opponents"],
    ),
    VerbSpec::new(
        RIPOSTE,
        "answer a failed melee attack with one melee attack back, spending the \
         round's reaction (A-05, A-06, A-GAP-08, A-GAP-09)",
        &["Riposte"],
    ),
    VerbSpec {
        key: Some('j'),
        cost: ONE,
        ..VerbSpec::new(
            STAND,
            "get up from prone with one action (A-18, A-GAP-11)",
            &["Stand up"],
        )
    },
    VerbSpec {
        key: Some('f'),
        cost: ONE,
        ..VerbSpec::new(
            EXTINGUISH,
            "put out the flames with one action, no roll (A-25, A-GAP-11)",
            &["Put out the flames"],
        )
    },
    VerbSpec {
        key: Some('g'),
        cost: ONE,
        ..VerbSpec::new(
            ESCAPE,
            "break a grapple or restraint: Class + STR dice, free on 4+ (A-GAP-11)",
            &["Escape the hold"],
        )
    },
    VerbSpec {
        key: Some('l'),
        ..VerbSpec::new(
            WAIT,
            "before acting, let the next PC of the same step act first; this unit \
             acts right after it (A-GAP-10: the players choose their order)",
            &["Wait: let the next PC go first"],
        )
    },
];
