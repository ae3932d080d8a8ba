//! `wounds`' special actions as the verbs it declares: Disengage (W-28), the Bonus
//! Action boosts (W-09), standing up (W-30), picking up a dropped weapon (W-31),
//! Delay (W-04) and surrendering (W-GAP-21). Moves, attacks (the extra attack of
//! W-10 included) and ending the turn are core commands.

use crate::engine::units::Pool;
use crate::engine::verb::{ArgKind, ArgSpec, ChoiceSpec, Cost, VerbSpec};

/// The action pools of a turn (W-01: "A turn = 1AA, 1MA, 2BA"), shown as counters.
pub mod pools {
    use crate::engine::units::Pool;
    /// The Attack Action.
    pub const AA: Pool = Pool::new("AA", "Attack Action");
    /// The Move Action.
    pub const MA: Pool = Pool::new("MA", "Move Action");
    /// Bonus Actions.
    pub const BA: Pool = Pool::new("BA", "Bonus Action");
}

const fn one(pool: Pool) -> Option<Cost> {
    Some(Cost::new(pool, 1))
}

/// `Disengage(unit, pay)`.
pub const DISENGAGE: &str = "Disengage";
/// `HitBoost(unit)`: +1 to hit for the round.
pub const HIT_BOOST: &str = "HitBoost";
/// `DamageBoost(unit)`: +1 melee damage for the round.
pub const DAMAGE_BOOST: &str = "DamageBoost";
/// `Dodge(unit)`: +1 defense until its next turn.
pub const DODGE: &str = "Dodge";
/// `Stand(unit, pay)`.
pub const STAND: &str = "Stand";
/// `PickUp(unit, pay)`.
pub const PICK_UP: &str = "PickUp";
/// `Delay(unit, after)`.
pub const DELAY: &str = "Delay";
/// `Invoke(unit, power, target)`: a spell or ability that helps (W-19, W-28).
pub const INVOKE: &str = "Invoke";
/// `Cancel(unit)`: end a channeled or upkept spell (W-33).
pub const CANCEL: &str = "Cancel";
/// `Toggle(unit)`: switch an upkept spell's effect off or on (W-09).
pub const TOGGLE: &str = "Toggle";
/// `Surrender(unit)`.
pub const SURRENDER: &str = "Surrender";

/// How Disengage is paid (W-06, W-11).
pub const DISENGAGE_PAY: &[ChoiceSpec] = &[
    ChoiceSpec {
        value: "AA",
        label: "with the Attack Action",
    },
    ChoiceSpec {
        value: "BA",
        label: "with 2 Bonus Actions",
    },
];

/// How standing up or picking up is paid (W-30, W-31: any one action).
pub const ANY_PAY: &[ChoiceSpec] = &[
    ChoiceSpec {
        value: "BA",
        label: "with a Bonus Action",
    },
    ChoiceSpec {
        value: "MA",
        label: "with the Move Action",
    },
    ChoiceSpec {
        value: "AA",
        label: "with the Attack Action",
    },
];

/// The verbs `wounds` declares.
pub const VERBS: &[VerbSpec] = &[
    VerbSpec {
        key: Some('g'),
        args: &[ArgSpec::required("pay", ArgKind::Choice(DISENGAGE_PAY))],
        ..VerbSpec::new(
            DISENGAGE,
            "for the rest of the round, leaving or moving inside enemy melee zones draws \
             no free hits; paid with the Attack Action or 2 Bonus Actions (W-06, W-11, \
             W-28, W-GAP-25)",
            &["Disengage {pay}", "Disengage"],
        )
    },
    VerbSpec {
        key: Some('h'),
        cost: one(pools::BA),
        ..VerbSpec::new(
            HIT_BOOST,
            "+1 to hit until the end of the round, free hits included (W-09, W-GAP-13)",
            &["+1 to hit this round"],
        )
    },
    VerbSpec {
        key: Some('n'),
        cost: one(pools::BA),
        ..VerbSpec::new(
            DAMAGE_BOOST,
            "+1 melee damage until the end of the round, free hits included (W-09, \
             W-GAP-13)",
            &["+1 melee damage this round"],
        )
    },
    VerbSpec {
        key: Some('v'),
        cost: one(pools::BA),
        ..VerbSpec::new(
            DODGE,
            "+1 defense until the unit's next turn, not while flat-footed or prone (W-09, \
             W-GAP-13)",
            &["+1 dodge until your next turn"],
        )
    },
    VerbSpec {
        key: Some('j'),
        args: &[ArgSpec::required("pay", ArgKind::Choice(ANY_PAY))],
        ..VerbSpec::new(
            STAND,
            "get up from prone with one action of the turn (W-30, W-GAP-19)",
            &["Stand up {pay}", "Stand up"],
        )
    },
    VerbSpec {
        key: Some('p'),
        args: &[ArgSpec::required("pay", ArgKind::Choice(ANY_PAY))],
        ..VerbSpec::new(
            PICK_UP,
            "pick up the weapon it was disarmed of with one action of the turn (W-31)",
            &["Pick up its weapon {pay}", "Pick up its weapon"],
        )
    },
    VerbSpec {
        key: Some('l'),
        args: &[ArgSpec::required("after", ArgKind::Unit)],
        target: Some("after"),
        ..VerbSpec::new(
            DELAY,
            "wait, before acting, until just after a unit that acts later this round; \
             next round the unit is back in its place (W-04, W-GAP-12)",
            &["Delay"],
        )
    },
    VerbSpec {
        rare: true,
        ..VerbSpec::new(
            SURRENDER,
            "the unit's side loses the will to fight and gives up the battle (W-05, \
             W-GAP-21)",
            &["Surrender the battle"],
        )
    },
    VerbSpec {
        args: &[
            ArgSpec::required("power", ArgKind::Name),
            ArgSpec::required("target", ArgKind::Unit),
        ],
        target: Some("target"),
        ..VerbSpec::new(
            INVOKE,
            "cast a spell or use an ability that removes a wound (W-19) or grants \
             disengagement (W-28) on the unit itself or an ally in its range, paying its \
             MP and cast time like any spell (W-12)",
            &["{power} on {target}", "Invoke a helping spell"],
        )
    },
    VerbSpec::new(
        CANCEL,
        "stop channeling a spell, or end an upkept one and its effect: no longer \
         flat-footed for it (W-33)",
        &["Cancel its spell"],
    ),
    VerbSpec {
        cost: one(pools::BA),
        ..VerbSpec::new(
            TOGGLE,
            "switch the effect of the spell the unit upkeeps off, or back on, for a Bonus \
             Action; the spell stays upkept (W-09, W-33)",
            &["Toggle its spell's effect"],
        )
    },
];
