//! Conditions with magnitudes and durations (RULES.md X-08): the shared model every
//! ruleset uses for effects like Defending, Slowed, Dazed or a Slowing wound.
//!
//! * A [`Condition`] is a name (the ruleset gives names their effects), an optional
//!   [`Magnitude`] (`-1d`, `+2`), a [`Duration`], and who caused it.
//! * [`Stacking`] says what happens when a condition arrives that the unit already
//!   has; [`Conditions::add`] is the one function that adds under a policy, and the
//!   battle's `apply` uses it for [`Event::ConditionAdded`] with the policy of the
//!   [`StackingRules`] resource. [`add_condition`] emits the event only when the
//!   policy lets the condition change anything.
//! * The expiry helpers ([`expire_end_of_round`], [`expire_turn_start`],
//!   [`expire_turn_end`], [`expire_on_action`], [`expire_on_heal`]) end the
//!   conditions whose duration runs out at that moment, so rulesets call them
//!   instead of each writing its own loop. Saves ([`Duration::SaveEnds`],
//!   [`Duration::SaveEndsWith`], [`Duration::Sustained`]) are rolled by the ruleset,
//!   which knows when (P-29 End Phase, E-23 end of turn); [`Save::roll`] rolls one.

use std::collections::BTreeMap;

use bevy_ecs::prelude::*;
use serde::{Deserialize, Serialize};

use crate::engine::battle::{board_units, emit, entity};
use crate::engine::dice::{Dice, DiceError, Sides};
use crate::engine::event::Event;
use crate::engine::units::{Conditions, UnitId};

/// A named effect on a unit and how long it lasts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Condition {
    /// Name; the ruleset gives names their effects.
    pub name: String,
    /// When it ends.
    pub duration: Duration,
    /// Who caused it, if anyone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<UnitId>,
    /// The unit it concerns, for effects aimed at someone (a Charge's target).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub about: Option<UnitId>,
    /// How strong it is, when that varies (actfast's `-2d`, wounds' `-1` Accuracy,
    /// escalation's `5` ongoing damage); `None` when the name says it all (phases'
    /// Defending is one source of disadvantage).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub magnitude: Option<Magnitude>,
}

impl Condition {
    /// A condition with no source, subject or magnitude.
    pub fn new(name: impl Into<String>, duration: Duration) -> Self {
        Self {
            name: name.into(),
            duration,
            source: None,
            about: None,
            magnitude: None,
        }
    }

    /// The same condition with a magnitude.
    pub fn with_magnitude(mut self, magnitude: Magnitude) -> Self {
        self.magnitude = Some(magnitude);
        self
    }

    /// The same condition with a source.
    pub fn with_source(mut self, source: UnitId) -> Self {
        self.source = Some(source);
        self
    }
}

/// How strong a condition is (X-08 `magnitude`). Which roll or stat it changes is the
/// ruleset's knowledge of the condition's name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Magnitude {
    /// A flat amount: `+1` to hit (wounds W-09), `-1` Accuracy (W-17), `-10` (flow),
    /// `5` ongoing damage (escalation E-62), one source of disadvantage (phases).
    Flat(i32),
    /// Dice added to (`+2d`) or taken from (`-1d`) a pool (actfast A-09).
    Dice(i32),
}

impl Magnitude {
    /// The signed amount, whatever the kind.
    pub fn amount(self) -> i32 {
        match self {
            Magnitude::Flat(n) | Magnitude::Dice(n) => n,
        }
    }

    /// The sum of two magnitudes of the same kind (`-1d` and `-1d` make `-2d`);
    /// `None` for different kinds, which don't add up.
    pub fn plus(self, other: Magnitude) -> Option<Magnitude> {
        match (self, other) {
            (Magnitude::Flat(a), Magnitude::Flat(b)) => Some(Magnitude::Flat(a.saturating_add(b))),
            (Magnitude::Dice(a), Magnitude::Dice(b)) => Some(Magnitude::Dice(a.saturating_add(b))),
            _ => None,
        }
    }
}

impl std::fmt::Display for Magnitude {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Magnitude::Flat(n) => write!(f, "{n:+}"),
            Magnitude::Dice(n) => write!(f, "{n:+}d"),
        }
    }
}

/// A saving throw of its own (X-08 `SaveEnds { dice, target }`): roll `dice`d`sides`,
/// and a total of `target` or more succeeds (escalation's default 3d6 ≥ 11,
/// E-GAP-03; phases' 2d6 ≥ 7, P-29).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Save {
    /// How many dice.
    pub dice: u32,
    /// Their sides.
    pub sides: Sides,
    /// The total that succeeds, or more.
    pub target: i32,
}

/// One rolled [`Save`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SaveRoll {
    /// Faces in the order rolled.
    pub faces: Vec<u32>,
    /// Their sum.
    pub total: i32,
    /// Whether the total reached the target.
    pub success: bool,
}

impl Save {
    /// Rolls the save with the battle's dice (a scripted list may run out).
    pub fn roll(&self, dice: &mut Dice) -> Result<SaveRoll, DiceError> {
        let faces = dice.roll_many(self.dice, self.sides.get())?;
        let total = crate::engine::dice::sum(&faces);
        Ok(SaveRoll {
            faces,
            total,
            success: total >= self.target,
        })
    }
}

impl std::fmt::Display for Save {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // `Sides` shows as `d6`.
        write!(f, "{}{} ≥ {}", self.dice, self.sides, self.target)
    }
}

/// Duration kinds (X-08). The comments name the X-08 kind and who uses it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Duration {
    /// Ends at the end of the given round: X-08 `UntilEndOfRound` (phases Seize) and,
    /// with the next round's number, `UntilEndOfNextRound` (phases Disengage).
    /// [`expire_end_of_round`].
    EndOfRound(u32),
    /// Ends when its owner's next turn starts: X-08 `UntilStartOfOwnerNextTurn`
    /// (phases Defend: next Battle-Phase turn; flow Total Defense).
    /// [`expire_turn_start`].
    UntilOwnNextTurn,
    /// Ends when its owner makes the ruleset's saving throw (phases 2d6 ≥ 7, P-29).
    SaveEnds,
    /// Lasts while the given unit makes its sustain saves: X-08 `Sustained`.
    Sustained(UnitId),
    /// Ends at the end of its owner's n-th turn of the battle (flow: Feint lasts to
    /// the end of the feinter's next turn, Flow State to the end of this one).
    /// [`expire_turn_end`].
    EndOfOwnTurn(u32),
    /// Lasts until a rule removes it (flow grappled, prone).
    UntilRemoved,
    /// Ends at the end of the given unit's n-th turn of the battle: X-08
    /// `EndOfAppliersNextTurn` (escalation's one-round effects last until the end of
    /// the next turn of the unit that applied them, E-GAP-18). [`expire_turn_end`].
    EndOfTurnOf {
        /// Whose turn.
        unit: UnitId,
        /// Which of its turns (counted by the ruleset, from 1).
        turn: u32,
    },
    /// Ends when its owner makes this save: X-08 `SaveEnds { dice, target }`
    /// (escalation 3d6 ≥ 11, E-GAP-03), rolled when the ruleset says (E-23).
    SaveEndsWith(Save),
    /// Ends when its owner takes the action that ends it: X-08 `UntilAction`
    /// (actfast Prone until it stands, Burning until it puts the flames out, A-GAP-11;
    /// wounds Prone). [`expire_on_action`].
    UntilAction,
    /// Ends when its owner is healed by at least this much in one instance: X-08
    /// `UntilHealed` (wounds: a wound goes with one healing of 6+, W-19).
    /// [`expire_on_heal`].
    UntilHealed {
        /// The smallest single heal that ends it (0 or 1: any healing).
        at_least: i32,
    },
    /// Lasts the whole battle: X-08 `Battle` (wounds' Disrupting −1, W-17).
    Battle,
}

impl Duration {
    /// Whether this duration can last longer than `other` (the "keep the instance that
    /// lasts longer" of E-GAP-18). Two of the same kind compare by their round, turn
    /// or threshold; different kinds by this coarse order, shortest first (PROPOSED):
    /// until the owner's next turn < the end of the owner's n-th turn < the end of
    /// another unit's turn < the end of a round < save ends < sustained < until an
    /// action < until healed < until removed < the whole battle.
    pub fn outlasts(&self, other: &Duration) -> bool {
        self.reach() > other.reach()
    }

    /// (kind's rank, number within the kind) for [`Duration::outlasts`].
    fn reach(&self) -> (u8, i64) {
        match *self {
            Duration::UntilOwnNextTurn => (0, 0),
            Duration::EndOfOwnTurn(n) => (1, n.into()),
            Duration::EndOfTurnOf { turn, .. } => (2, turn.into()),
            Duration::EndOfRound(r) => (3, r.into()),
            Duration::SaveEnds => (4, 0),
            Duration::SaveEndsWith(s) => (4, s.target.into()),
            Duration::Sustained(_) => (5, 0),
            Duration::UntilAction => (6, 0),
            Duration::UntilHealed { at_least } => (7, at_least.into()),
            Duration::UntilRemoved => (8, 0),
            Duration::Battle => (9, 0),
        }
    }
}

impl std::fmt::Display for Condition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name)?;
        if let Some(m) = self.magnitude {
            write!(f, " {m}")?;
        }
        match self.duration {
            Duration::EndOfRound(r) => write!(f, " (until end of round {r})"),
            Duration::UntilOwnNextTurn => write!(f, " (until its next turn)"),
            Duration::SaveEnds => write!(f, " (save ends)"),
            Duration::Sustained(_) => write!(f, " (sustained)"),
            Duration::EndOfOwnTurn(_) => write!(f, " (until the end of its turn)"),
            Duration::UntilRemoved => Ok(()),
            Duration::EndOfTurnOf { .. } => write!(f, " (until the end of its source's turn)"),
            Duration::SaveEndsWith(s) => write!(f, " (save ends: {s})"),
            Duration::UntilAction => write!(f, " (until it acts to end it)"),
            Duration::UntilHealed { at_least } if at_least > 1 => {
                write!(f, " (until healed by {at_least}+ at once)")
            }
            Duration::UntilHealed { .. } => write!(f, " (until healed)"),
            Duration::Battle => write!(f, " (for the rest of the battle)"),
        }
    }
}

/// What happens when a unit gets a condition whose name it already has (X-08:
/// "stacking policy per ruleset"). Conditions of different names always stand side
/// by side (E-54…E-68 "differently named conditions stack"; A-GAP-11 "dice modifiers
/// from different conditions add up").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stacking {
    /// Every instance is kept (wounds: two Slowing wounds are two wounds, W-EX-8, and
    /// one heal removes one, W-19). The default: the battle adds what it is told,
    /// as before policies existed (phases and flow refuse or refresh a same-named
    /// condition themselves before they add it).
    #[default]
    Separate,
    /// The new one replaces the old (flow's refresh; phases Disengage "refreshes the
    /// duration", P-GAP-11).
    Replace,
    /// Whichever lasts longer stays, the old one on a tie (escalation: same-named
    /// conditions don't stack, E-GAP-18). See [`Duration::outlasts`].
    KeepLonger,
    /// Whichever has the larger magnitude (by size: `-2d` beats `-1d`) stays; on equal
    /// magnitudes, the longer lasting; the old one on a full tie.
    KeepStronger,
    /// Magnitudes of the same kind add up (`-1d` then `-1d` is `-2d`) and the longer
    /// duration is kept (actfast ±Nd, A-09, A-GAP-11). A condition without a magnitude
    /// counts as `Flat(0)`; different kinds are kept apart.
    AddMagnitudes,
    /// The old one stays and the new one is refused (phases: same-name sources count
    /// once, P-GAP-03).
    Refuse,
}

/// A ruleset's stacking policies (X-08): one for every name, and exceptions by name.
/// A battle without this resource uses [`Stacking::Separate`] for everything.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct StackingRules {
    /// The policy of names not listed in `by_name`.
    pub default: Stacking,
    /// Policies of particular names (wounds: `Separate` for wounds, `KeepLonger`
    /// for the rest).
    pub by_name: BTreeMap<String, Stacking>,
}

impl StackingRules {
    /// One policy for every name.
    pub fn all(policy: Stacking) -> Self {
        Self {
            default: policy,
            by_name: BTreeMap::new(),
        }
    }

    /// The policy for conditions named `name`.
    pub fn policy(&self, name: &str) -> Stacking {
        self.by_name.get(name).copied().unwrap_or(self.default)
    }
}

/// How the log words a condition whose name is not an adjective: "Ann is now
/// afraid", not "is now Fear" (actfast's Fear, A-24). A ruleset inserts it when it
/// sets a battle up; a name it doesn't list is written as it is.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct ConditionWords {
    /// The word for a condition, by its name.
    pub by_name: BTreeMap<String, String>,
}

/// The word the log uses for the condition `name` ([`ConditionWords`]).
pub fn condition_word<'a>(world: &'a World, name: &'a str) -> &'a str {
    world
        .get_resource::<ConditionWords>()
        .and_then(|w| w.by_name.get(name))
        .map_or(name, String::as_str)
}

/// What [`Conditions::add`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Added {
    /// It was added; the unit had no condition of that name (or the policy keeps
    /// every instance).
    New,
    /// It took the place of this one.
    Replaced(Condition),
    /// Its magnitude was added to the one already there, which now reads this.
    Merged(Condition),
    /// The one already there stays; nothing changed.
    Refused,
}

impl Conditions {
    /// Adds `condition` under `policy` (see [`Stacking`]): the one place a condition
    /// joins a unit's list. A replacing or new condition goes last (the list is in
    /// the order added); a merged one keeps its place.
    pub fn add(&mut self, condition: Condition, policy: Stacking) -> Added {
        let Some(i) = self.0.iter().position(|c| c.name == condition.name) else {
            self.0.push(condition);
            return Added::New;
        };
        let old = &self.0[i];
        let replace = match policy {
            Stacking::Separate => {
                self.0.push(condition);
                return Added::New;
            }
            Stacking::Refuse => false,
            Stacking::Replace => true,
            Stacking::KeepLonger => condition.duration.outlasts(&old.duration),
            Stacking::KeepStronger => {
                let size = |c: &Condition| c.magnitude.map_or(0, |m| m.amount().unsigned_abs());
                let (new, was) = (size(&condition), size(old));
                new > was || (new == was && condition.duration.outlasts(&old.duration))
            }
            Stacking::AddMagnitudes => {
                let zero = Magnitude::Flat(0);
                let sum = old
                    .magnitude
                    .unwrap_or(zero)
                    .plus(condition.magnitude.unwrap_or(zero));
                let Some(sum) = sum else {
                    self.0.push(condition);
                    return Added::New;
                };
                let longer = condition.duration.outlasts(&old.duration);
                let old = &mut self.0[i];
                old.magnitude = Some(sum);
                if longer {
                    old.duration = condition.duration;
                }
                return Added::Merged(old.clone());
            }
        };
        if !replace {
            return Added::Refused;
        }
        let old = self.0.remove(i);
        self.0.push(condition);
        Added::Replaced(old)
    }

    /// The sum of the magnitudes of every condition named `name` (0 when none has
    /// one): what a `Separate` pile of wounds adds up to.
    pub fn total(&self, name: &str) -> i32 {
        self.0
            .iter()
            .filter(|c| c.name == name)
            .filter_map(|c| c.magnitude)
            .map(Magnitude::amount)
            .sum()
    }
}

/// The stacking policy the battle uses for conditions named `name`.
pub fn policy(world: &World, name: &str) -> Stacking {
    world
        .get_resource::<StackingRules>()
        .map_or(Stacking::Separate, |r| r.policy(name))
}

/// Gives `unit` a condition under the battle's stacking policy: emits
/// [`Event::ConditionAdded`] unless the policy refuses it (then nothing is logged
/// and nothing changes), and says what happened.
pub fn add_condition(world: &mut World, unit: UnitId, condition: Condition) -> Added {
    let policy = policy(world, &condition.name);
    let mut trial = world
        .get::<Conditions>(entity(world, unit))
        .cloned()
        .unwrap_or_default();
    let added = trial.add(condition.clone(), policy);
    if added != Added::Refused {
        emit(world, Event::ConditionAdded { unit, condition });
    }
    added
}

/// Ends, with `reason`, the conditions of `unit` that `ends` picks, in the order
/// they were added (a cleanse, an expiry).
pub fn end_where(world: &mut World, unit: UnitId, reason: &str, ends: impl Fn(&Condition) -> bool) {
    let ending: Vec<String> = world
        .get::<Conditions>(entity(world, unit))
        .map(|c| {
            c.0.iter()
                .filter(|c| ends(c))
                .map(|c| c.name.clone())
                .collect()
        })
        .unwrap_or_default();
    for name in ending {
        emit(
            world,
            Event::ConditionRemoved {
                unit,
                name,
                reason: reason.into(),
            },
        );
    }
}

/// End of round `round` (X-08 `UntilEndOfRound`, `UntilEndOfNextRound`): ends every
/// `EndOfRound(r)` with `r ≤ round` on the units on the board, in roster order,
/// with the reason "end of round N" (phases End Phase, P-15, P-GAP-11; flow F-05).
pub fn expire_end_of_round(world: &mut World, round: u32) {
    let reason = format!("end of round {round}");
    for unit in board_units(world) {
        end_where(
            world,
            unit,
            &reason,
            |c| matches!(c.duration, Duration::EndOfRound(r) if r <= round),
        );
    }
}

/// `unit`'s turn starts (X-08 `UntilStartOfOwnerNextTurn`): ends its
/// `UntilOwnNextTurn` conditions with `reason` (phases Defend, P-27, P-GAP-10;
/// flow Total Defense).
pub fn expire_turn_start(world: &mut World, unit: UnitId, reason: &str) {
    end_where(world, unit, reason, |c| {
        c.duration == Duration::UntilOwnNextTurn
    });
}

/// `unit`'s `turn`-th turn ends: ends its `EndOfOwnTurn(n ≤ turn)` conditions, then
/// (X-08 `EndOfAppliersNextTurn`) every unit's `EndOfTurnOf { unit, n ≤ turn }`, in
/// roster order, all with `reason` (flow Feint and Flow State; escalation one-round
/// effects, E-GAP-18).
pub fn expire_turn_end(world: &mut World, unit: UnitId, turn: u32, reason: &str) {
    end_where(
        world,
        unit,
        reason,
        |c| matches!(c.duration, Duration::EndOfOwnTurn(n) if n <= turn),
    );
    for other in board_units(world) {
        end_where(
            world,
            other,
            reason,
            |c| matches!(c.duration, Duration::EndOfTurnOf { unit: u, turn: n } if u == unit && n <= turn),
        );
    }
}

/// Whether `unit` has a condition named `name` (every ruleset asks).
pub fn has(world: &World, unit: UnitId, name: &str) -> bool {
    world
        .get::<Conditions>(entity(world, unit))
        .is_some_and(|c| c.has(name))
}

/// Who caused `unit`'s condition named `name` (the source of its ongoing damage),
/// if it has one with a source.
pub fn source_of(world: &World, unit: UnitId, name: &str) -> Option<UnitId> {
    world
        .get::<Conditions>(entity(world, unit))
        .and_then(|c| c.get(name))
        .and_then(|c| c.source)
}

/// `unit` took an action (X-08 `UntilAction`): ends its `UntilAction` conditions
/// that `ends` says this action ends, with `reason` ("it stood up": actfast Prone and
/// Burning, A-GAP-11; `|_| true` for effects any action ends).
pub fn expire_on_action(
    world: &mut World,
    unit: UnitId,
    reason: &str,
    ends: impl Fn(&Condition) -> bool,
) {
    end_where(world, unit, reason, |c| {
        c.duration == Duration::UntilAction && ends(c)
    });
}

/// `unit` was healed by `amount` in one instance (X-08 `UntilHealed`): ends the
/// oldest of its `UntilHealed` conditions whose threshold the heal meets — one per
/// healing instance, as wounds heal (W-19) — and returns its name.
pub fn expire_on_heal(world: &mut World, unit: UnitId, amount: i32) -> Option<String> {
    let name = world.get::<Conditions>(entity(world, unit)).and_then(|c| {
        c.0.iter()
            .find(|c| matches!(c.duration, Duration::UntilHealed { at_least } if amount >= at_least.max(1)))
            .map(|c| c.name.clone())
    })?;
    emit(
        world,
        Event::ConditionRemoved {
            unit,
            name: name.clone(),
            reason: format!("healed by {amount}"),
        },
    );
    Some(name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::battle::{EventLog, Progress, Roster};
    use crate::engine::units::PlayState;

    fn c(name: &str, duration: Duration) -> Condition {
        Condition::new(name, duration)
    }

    fn names(list: &Conditions) -> Vec<String> {
        list.0.iter().map(|c| c.to_string()).collect()
    }

    #[test]
    fn existing_conditions_serialize_as_before_and_magnitudes_only_when_set() {
        let slowed = c("Slowed", Duration::SaveEnds).with_source(UnitId(2));
        assert_eq!(
            serde_json::to_string(&slowed).unwrap(),
            r#"{"name":"Slowed","duration":"SaveEnds","source":2}"#
        );
        assert_eq!(
            serde_json::to_string(&c("Seized", Duration::EndOfRound(2))).unwrap(),
            r#"{"name":"Seized","duration":{"EndOfRound":2}}"#
        );
        let fear = c("Fear", Duration::UntilAction).with_magnitude(Magnitude::Dice(1));
        let json = serde_json::to_string(&fear).unwrap();
        assert_eq!(
            json,
            r#"{"name":"Fear","duration":"UntilAction","magnitude":{"Dice":1}}"#
        );
        assert_eq!(serde_json::from_str::<Condition>(&json).unwrap(), fear);
        let save = Save {
            dice: 3,
            sides: Sides::new(6).unwrap(),
            target: 11,
        };
        let dazed = c("Dazed", Duration::SaveEndsWith(save));
        let json = serde_json::to_string(&dazed).unwrap();
        assert_eq!(
            json,
            r#"{"name":"Dazed","duration":{"SaveEndsWith":{"dice":3,"sides":6,"target":11}}}"#
        );
        assert_eq!(serde_json::from_str::<Condition>(&json).unwrap(), dazed);
    }

    #[test]
    fn conditions_read_with_their_magnitude_and_duration() {
        let save = Save {
            dice: 3,
            sides: Sides::new(6).unwrap(),
            target: 11,
        };
        let shown = [
            c("Prone", Duration::UntilAction).with_magnitude(Magnitude::Dice(-2)),
            c("Disrupted", Duration::Battle).with_magnitude(Magnitude::Flat(-1)),
            c("Slowing wound", Duration::UntilHealed { at_least: 6 }),
            c("Dazed", Duration::SaveEndsWith(save)),
            c(
                "Shaken",
                Duration::EndOfTurnOf {
                    unit: UnitId(1),
                    turn: 2,
                },
            ),
            c("Slowed", Duration::SaveEnds),
        ]
        .map(|c| c.to_string());
        assert_eq!(
            shown,
            [
                "Prone -2d (until it acts to end it)",
                "Disrupted -1 (for the rest of the battle)",
                "Slowing wound (until healed by 6+ at once)",
                "Dazed (save ends: 3d6 ≥ 11)",
                "Shaken (until the end of its source's turn)",
                "Slowed (save ends)",
            ]
        );
    }

    #[test]
    fn x_08_differently_named_conditions_stand_side_by_side_under_every_policy() {
        // E-54…E-68: Weakened + Dazed = 2 Disadvantage; A-GAP-11: Grappled + Fear.
        for policy in [
            Stacking::Separate,
            Stacking::Replace,
            Stacking::KeepLonger,
            Stacking::KeepStronger,
            Stacking::AddMagnitudes,
            Stacking::Refuse,
        ] {
            let mut list = Conditions::default();
            assert_eq!(
                list.add(c("Weakened", Duration::SaveEnds), policy),
                Added::New
            );
            assert_eq!(list.add(c("Dazed", Duration::SaveEnds), policy), Added::New);
            assert_eq!(list.0.len(), 2, "{policy:?}");
        }
    }

    #[test]
    fn w_ex_8_separate_keeps_two_slowing_wounds_and_their_total() {
        let wound =
            c("Slowing", Duration::UntilHealed { at_least: 6 }).with_magnitude(Magnitude::Flat(-2));
        let mut list = Conditions::default();
        assert_eq!(list.add(wound.clone(), Stacking::Separate), Added::New);
        assert_eq!(list.add(wound, Stacking::Separate), Added::New);
        assert_eq!(list.0.len(), 2);
        assert_eq!(list.total("Slowing"), -4, "W-EX-8: movement 6 − 4 = 2");
    }

    #[test]
    fn p_gap_11_replace_refreshes_a_disengage() {
        let mut list = Conditions::default();
        list.add(c("Disengaged", Duration::EndOfRound(2)), Stacking::Replace);
        list.add(c("Hustled", Duration::EndOfRound(2)), Stacking::Replace);
        let old = c("Disengaged", Duration::EndOfRound(2));
        assert_eq!(
            list.add(c("Disengaged", Duration::EndOfRound(3)), Stacking::Replace),
            Added::Replaced(old)
        );
        assert_eq!(
            names(&list),
            [
                "Hustled (until end of round 2)",
                "Disengaged (until end of round 3)"
            ]
        );
    }

    #[test]
    fn e_gap_18_keep_longer_keeps_the_instance_that_lasts_longer() {
        let save = Save {
            dice: 3,
            sides: Sides::new(6).unwrap(),
            target: 11,
        };
        let one_round = Duration::EndOfTurnOf {
            unit: UnitId(4),
            turn: 3,
        };
        let mut list = Conditions::default();
        list.add(c("Dazed", one_round), Stacking::KeepLonger);
        // A save-ends Dazed outlasts a one-round one: it takes its place.
        let longer = c("Dazed", Duration::SaveEndsWith(save));
        assert!(matches!(
            list.add(longer.clone(), Stacking::KeepLonger),
            Added::Replaced(_)
        ));
        // Another one-round Dazed, or an equal one, changes nothing.
        assert_eq!(
            list.add(c("Dazed", one_round), Stacking::KeepLonger),
            Added::Refused
        );
        assert_eq!(
            list.add(longer.clone(), Stacking::KeepLonger),
            Added::Refused
        );
        assert_eq!(list.0, [longer]);
        // The same kind compares by its number.
        let mut rounds = Conditions::default();
        rounds.add(c("Seized", Duration::EndOfRound(3)), Stacking::KeepLonger);
        assert_eq!(
            rounds.add(c("Seized", Duration::EndOfRound(2)), Stacking::KeepLonger),
            Added::Refused
        );
        assert!(Duration::Battle.outlasts(&Duration::UntilRemoved));
        assert!(Duration::UntilHealed { at_least: 6 }.outlasts(&Duration::UntilAction));
        assert!(Duration::EndOfRound(1).outlasts(&Duration::UntilOwnNextTurn));
        assert!(!Duration::SaveEnds.outlasts(&Duration::SaveEnds));
    }

    #[test]
    fn keep_stronger_keeps_the_bigger_magnitude() {
        let fear = |d: i32, duration| c("Fear", duration).with_magnitude(Magnitude::Dice(d));
        let mut list = Conditions::default();
        list.add(fear(1, Duration::EndOfRound(1)), Stacking::KeepStronger);
        assert!(matches!(
            list.add(fear(-2, Duration::EndOfRound(1)), Stacking::KeepStronger),
            Added::Replaced(_)
        ));
        assert_eq!(
            list.add(fear(1, Duration::Battle), Stacking::KeepStronger),
            Added::Refused,
            "a weaker one is refused however long it lasts"
        );
        // Equal strength: the longer one stays.
        assert!(matches!(
            list.add(fear(2, Duration::EndOfRound(4)), Stacking::KeepStronger),
            Added::Replaced(_)
        ));
        assert_eq!(list.0, [fear(2, Duration::EndOfRound(4))]);
    }

    #[test]
    fn a_09_a_gap_11_add_magnitudes_sums_dice_and_keeps_the_longer_duration() {
        let restrained =
            |d: i32, duration| c("Restrained", duration).with_magnitude(Magnitude::Dice(d));
        let mut list = Conditions::default();
        list.add(c("Prone", Duration::UntilAction), Stacking::AddMagnitudes);
        list.add(
            restrained(-1, Duration::EndOfRound(1)),
            Stacking::AddMagnitudes,
        );
        let merged = list.add(
            restrained(-1, Duration::EndOfRound(2)),
            Stacking::AddMagnitudes,
        );
        assert_eq!(
            merged,
            Added::Merged(restrained(-2, Duration::EndOfRound(2)))
        );
        // A merged condition keeps its place.
        assert_eq!(
            names(&list),
            [
                "Prone (until it acts to end it)",
                "Restrained -2d (until end of round 2)"
            ]
        );
        // A flat amount does not add to dice: kept apart.
        let flat = c("Restrained", Duration::EndOfRound(2)).with_magnitude(Magnitude::Flat(-1));
        assert_eq!(list.add(flat, Stacking::AddMagnitudes), Added::New);
        assert_eq!(list.0.len(), 3);
        assert_eq!(
            Magnitude::Flat(2).plus(Magnitude::Flat(-3)),
            Some(Magnitude::Flat(-1))
        );
    }

    #[test]
    fn p_gap_03_refuse_counts_a_same_named_source_once() {
        let mut list = Conditions::default();
        list.add(c("Defending", Duration::UntilOwnNextTurn), Stacking::Refuse);
        assert_eq!(
            list.add(c("Defending", Duration::EndOfRound(5)), Stacking::Refuse),
            Added::Refused
        );
        assert_eq!(list.0, [c("Defending", Duration::UntilOwnNextTurn)]);
    }

    #[test]
    fn stacking_rules_pick_a_policy_by_name() {
        let mut rules = StackingRules::all(Stacking::KeepLonger);
        rules.by_name.insert("Slowing".into(), Stacking::Separate);
        assert_eq!(rules.policy("Slowing"), Stacking::Separate);
        assert_eq!(rules.policy("Dazed"), Stacking::KeepLonger);
        assert_eq!(StackingRules::default().policy("Dazed"), Stacking::Separate);
    }

    #[test]
    fn e_gap_03_a_save_of_its_own_rolls_its_dice_against_its_target() {
        let save = Save {
            dice: 3,
            sides: Sides::new(6).unwrap(),
            target: 11,
        };
        let mut dice = Dice::scripted([5, 4, 3, 2, 3, 4]);
        let roll = save.roll(&mut dice).unwrap();
        assert_eq!(
            (roll.faces, roll.total, roll.success),
            (vec![5, 4, 3], 12, true)
        );
        let roll = save.roll(&mut dice).unwrap();
        assert_eq!((roll.total, roll.success), (9, false));
        assert!(save.roll(&mut dice).is_err(), "the scripted dice ran out");
    }

    // --- expiry helpers on a bare world -------------------------------------------

    /// A world of `n` units with no conditions.
    fn world(n: u32) -> World {
        let mut w = World::new();
        let roster = (0..n)
            .map(|i| w.spawn((UnitId(i), Conditions::default())).id())
            .collect();
        w.insert_resource(Roster(roster));
        w.insert_resource(EventLog::default());
        w.insert_resource(Progress::default());
        w
    }

    fn give(w: &mut World, unit: u32, condition: Condition) {
        emit(
            w,
            Event::ConditionAdded {
                unit: UnitId(unit),
                condition,
            },
        );
    }

    fn has(w: &World, unit: u32) -> Vec<String> {
        w.get::<Conditions>(entity(w, UnitId(unit)))
            .unwrap()
            .0
            .iter()
            .map(|c| c.name.clone())
            .collect()
    }

    /// The removals logged so far: (unit, name, reason).
    fn removed(w: &World) -> Vec<(u32, String, String)> {
        w.resource::<EventLog>()
            .0
            .iter()
            .filter_map(|e| match e {
                Event::ConditionRemoved { unit, name, reason } => {
                    Some((unit.0, name.clone(), reason.clone()))
                }
                _ => None,
            })
            .collect()
    }

    #[test]
    fn x_08_end_of_round_ends_this_rounds_conditions_on_units_on_the_board() {
        let mut w = world(3);
        give(&mut w, 0, c("Seized", Duration::EndOfRound(2)));
        give(&mut w, 0, c("Disengaged", Duration::EndOfRound(3)));
        give(&mut w, 0, c("Defending", Duration::UntilOwnNextTurn));
        give(&mut w, 1, c("Hustled", Duration::EndOfRound(1)));
        give(&mut w, 2, c("Hustled", Duration::EndOfRound(1)));
        // Unit 1 is dying (still on the board), unit 2 has fled.
        for (unit, state) in [(1, PlayState::Dying), (2, PlayState::Fled)] {
            let e = entity(&w, UnitId(unit));
            w.entity_mut(e).insert(state);
        }
        expire_end_of_round(&mut w, 2);
        assert_eq!(
            removed(&w),
            [
                (0, "Seized".into(), "end of round 2".into()),
                (1, "Hustled".into(), "end of round 2".into()),
            ],
            "P-15 Seize ends with its round, P-GAP-11 Disengage lasts one more"
        );
        assert_eq!(has(&w, 0), ["Disengaged", "Defending"]);
        expire_end_of_round(&mut w, 3);
        assert_eq!(has(&w, 0), ["Defending"]);
    }

    #[test]
    fn x_08_until_the_owners_next_turn_ends_when_its_turn_starts() {
        let mut w = world(2);
        give(&mut w, 0, c("Defending", Duration::UntilOwnNextTurn));
        give(&mut w, 0, c("Slowed", Duration::SaveEnds));
        give(&mut w, 1, c("Total Defense", Duration::UntilOwnNextTurn));
        expire_turn_start(&mut w, UnitId(0), "its turn started (P-GAP-10)");
        assert_eq!(
            removed(&w),
            [(0, "Defending".into(), "its turn started (P-GAP-10)".into())],
            "P-27: Defend lasts until the start of the defender's next turn"
        );
        assert_eq!(
            (has(&w, 0), has(&w, 1)),
            (vec!["Slowed".into()], vec!["Total Defense".into()])
        );
    }

    #[test]
    fn x_08_end_of_turn_ends_the_owners_and_the_appliers_turn_effects() {
        let mut w = world(2);
        give(&mut w, 0, c("Flow State", Duration::EndOfOwnTurn(1)));
        give(&mut w, 0, c("Feinting", Duration::EndOfOwnTurn(2)));
        // E-GAP-18: unit 0 dazed unit 1 during its turn 1: until the end of its turn 2.
        let one_round = Duration::EndOfTurnOf {
            unit: UnitId(0),
            turn: 2,
        };
        give(&mut w, 1, c("Dazed", one_round));
        expire_turn_end(&mut w, UnitId(0), 1, "end of its turn");
        assert_eq!(has(&w, 0), ["Feinting"]);
        assert_eq!(
            has(&w, 1),
            ["Dazed"],
            "not at the end of the applier's turn 1"
        );
        // Unit 1's own turn ending does not end it either.
        expire_turn_end(&mut w, UnitId(1), 5, "end of its turn");
        assert_eq!(has(&w, 1), ["Dazed"]);
        expire_turn_end(&mut w, UnitId(0), 2, "end of its turn");
        assert!(has(&w, 0).is_empty() && has(&w, 1).is_empty());
        assert_eq!(
            removed(&w).last().unwrap(),
            &(1, "Dazed".into(), "end of its turn".into())
        );
    }

    #[test]
    fn a_gap_11_until_an_action_ends_when_the_action_that_ends_it_is_taken() {
        let mut w = world(1);
        give(&mut w, 0, c("Prone", Duration::UntilAction));
        give(&mut w, 0, c("Burning", Duration::UntilAction));
        give(&mut w, 0, c("Stunned", Duration::EndOfRound(1)));
        expire_on_action(&mut w, UnitId(0), "it stood up", |c| c.name == "Prone");
        assert_eq!(has(&w, 0), ["Burning", "Stunned"]);
        // An effect any action ends: only `UntilAction` durations go.
        expire_on_action(&mut w, UnitId(0), "it acted", |_| true);
        assert_eq!(has(&w, 0), ["Stunned"]);
        assert_eq!(
            removed(&w),
            [
                (0, "Prone".into(), "it stood up".into()),
                (0, "Burning".into(), "it acted".into()),
            ]
        );
    }

    #[test]
    fn w_19_w_ex_7_one_heal_of_6_or_more_ends_one_wound() {
        let mut w = world(1);
        let wound = c("Slowing", Duration::UntilHealed { at_least: 6 });
        give(&mut w, 0, wound.clone());
        give(&mut w, 0, wound);
        give(&mut w, 0, c("Disrupted", Duration::Battle));
        assert_eq!(
            expire_on_heal(&mut w, UnitId(0), 5),
            None,
            "5 HP heals no wound"
        );
        assert_eq!(
            expire_on_heal(&mut w, UnitId(0), 6).as_deref(),
            Some("Slowing")
        );
        assert_eq!(has(&w, 0), ["Slowing", "Disrupted"], "one wound per heal");
        assert_eq!(
            expire_on_heal(&mut w, UnitId(0), 12).as_deref(),
            Some("Slowing")
        );
        assert_eq!(expire_on_heal(&mut w, UnitId(0), 100), None);
        assert_eq!(
            removed(&w),
            [
                (0, "Slowing".into(), "healed by 6".into()),
                (0, "Slowing".into(), "healed by 12".into()),
            ]
        );
    }

    #[test]
    fn x_08_lasting_durations_outlive_every_expiry_helper() {
        let mut w = world(2);
        let save = Save {
            dice: 3,
            sides: Sides::new(6).unwrap(),
            target: 11,
        };
        let lasting = [
            Duration::Battle,
            Duration::UntilRemoved,
            Duration::SaveEnds,
            Duration::SaveEndsWith(save),
            Duration::Sustained(UnitId(1)),
        ];
        for (i, d) in lasting.iter().enumerate() {
            give(&mut w, 0, c(&format!("C{i}"), *d));
        }
        expire_turn_start(&mut w, UnitId(0), "turn");
        expire_turn_end(&mut w, UnitId(0), 99, "turn end");
        expire_turn_end(&mut w, UnitId(1), 99, "turn end");
        expire_on_action(&mut w, UnitId(0), "acted", |_| true);
        expire_on_heal(&mut w, UnitId(0), 99);
        expire_end_of_round(&mut w, 99);
        assert_eq!(has(&w, 0).len(), lasting.len(), "{:?}", removed(&w));
    }

    #[test]
    fn apply_adds_under_the_battles_stacking_rules_and_add_condition_logs_only_changes() {
        let mut w = world(1);
        // Without rules every instance is kept (phases and flow refresh themselves).
        give(&mut w, 0, c("Dazed", Duration::EndOfRound(1)));
        give(&mut w, 0, c("Dazed", Duration::EndOfRound(1)));
        assert_eq!(has(&w, 0).len(), 2);
        let mut w = world(1);
        w.insert_resource(StackingRules::all(Stacking::KeepLonger));
        let unit = UnitId(0);
        let logged = |w: &World| w.resource::<EventLog>().0.len();
        assert_eq!(
            add_condition(&mut w, unit, c("Dazed", Duration::EndOfRound(2))),
            Added::New
        );
        assert_eq!(
            add_condition(&mut w, unit, c("Dazed", Duration::EndOfRound(1))),
            Added::Refused
        );
        assert_eq!(logged(&w), 1, "a refused condition is not logged");
        assert!(matches!(
            add_condition(&mut w, unit, c("Dazed", Duration::Battle)),
            Added::Replaced(_)
        ));
        assert_eq!(logged(&w), 2);
        let list = w.get::<Conditions>(entity(&w, unit)).unwrap();
        assert_eq!(list.0, [c("Dazed", Duration::Battle)]);
    }
}
