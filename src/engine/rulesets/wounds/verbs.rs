//! `wounds`' special actions as the verbs it declares: Disengage (W-28), the Bonus
//! Action boosts (W-09), standing up (W-30), picking up a disarmed weapon (W-31) or
//! anything lying nearby, drawing and sheathing a weapon (W-06, W-07, W-09), Delay
//! (W-04), a feat's extra attack (W-26), summoning (W-32), fleeing (W-05) and
//! surrendering (W-GAP-21). Moves, attacks (the extra attack of
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
/// `Draw(unit, weapon, pay)`.
pub const DRAW: &str = "Draw";
/// `Sheathe(unit, weapon, pay)`.
pub const SHEATHE: &str = "Sheathe";
/// `ExtraAttack(unit, target, aim)`: the free hit of a feat's extra attack.
pub const FEAT_HIT: &str = "ExtraAttack";
/// `Flee(unit)`.
pub const FLEE: &str = "Flee";
/// `Summon(unit, creature, to)`.
pub const SUMMON: &str = "Summon";
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

/// Where a feat's extra attack aims (W-17); Center Mass when not given.
pub const AIMS: &[ChoiceSpec] = &[
    ChoiceSpec {
        value: "Fatal",
        label: "aimed Fatal",
    },
    ChoiceSpec {
        value: "Slowing",
        label: "aimed Slowing",
    },
    ChoiceSpec {
        value: "Weakening",
        label: "aimed Weakening",
    },
    ChoiceSpec {
        value: "Disrupting",
        label: "aimed Disrupting",
    },
    ChoiceSpec {
        value: "Center Mass",
        label: "at Center Mass",
    },
];

const PAY: ArgSpec = ArgSpec::required("pay", ArgKind::Choice(ANY_PAY));
const WEAPON: ArgSpec = ArgSpec::required("weapon", ArgKind::Name);

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
        args: &[PAY, ArgSpec::optional("item", ArgKind::Name)],
        ..VerbSpec::new(
            PICK_UP,
            "pick up the weapon it was disarmed of (W-31), or with `item` anything lying \
             on or next to its square, with one action of the turn (W-06, W-07, W-09)",
            &[
                "Pick up {item} {pay}",
                "Pick up {item}",
                "Pick up its weapon {pay}",
                "Pick up its weapon",
            ],
        )
    },
    VerbSpec {
        args: &[WEAPON, PAY],
        ..VerbSpec::new(
            DRAW,
            "draw a sheathed weapon with one action of the turn (W-06, W-07, W-09)",
            &["Draw {weapon} {pay}", "Draw {weapon}", "Draw a weapon"],
        )
    },
    VerbSpec {
        args: &[WEAPON, PAY],
        ..VerbSpec::new(
            SHEATHE,
            "sheathe a weapon in hand with one action of the turn: it can't attack until \
             drawn (W-06, W-07, W-09)",
            &[
                "Sheathe {weapon} {pay}",
                "Sheathe {weapon}",
                "Sheathe a weapon",
            ],
        )
    },
    VerbSpec {
        args: &[
            ArgSpec::required("target", ArgKind::Unit),
            ArgSpec::optional("aim", ArgKind::Choice(AIMS)),
        ],
        target: Some("target"),
        ..VerbSpec::new(
            FEAT_HIT,
            "a free hit granted by the feat `Extra attack`, once a turn, for a Free Hit \
             Slot and no action (W-26, W-27)",
            &["Extra attack (feat) {aim}", "Extra attack (feat)"],
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
        args: &[
            ArgSpec::required("creature", ArgKind::Name),
            ArgSpec::required("to", ArgKind::Cell),
        ],
        ..VerbSpec::new(
            SUMMON,
            "cast its summoning spell: a `Summonable` creature of its side appears on a \
             free square next to it, within the side's summoning slots, sick until the end \
             of the next round (W-32, W-GAP-23)",
            &["Summon {creature} at {to}", "Summon {creature}", "Summon"],
        )
    },
    VerbSpec {
        rare: true,
        cost: one(pools::MA),
        ..VerbSpec::new(
            FLEE,
            "step off the map from an edge square and leave the battle, not from an \
             enemy's melee zone unless disengaged (W-05)",
            &["Flee the battle"],
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
