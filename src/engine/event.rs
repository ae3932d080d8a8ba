//! Events: what happened, in order. Executing a command emits events and one place
//! applies them ([`crate::engine::battle::emit`]); the list is the combat log, the
//! replay and what the view animates.
//!
//! The core events ([`Event`]'s own variants) are the ones every ruleset shares or
//! that change state: turns and rounds, moves, damage and healing, conditions, pools,
//! items, leaving play, and a generic [`Event::Rolled`] for any roll. A ruleset's
//! narration (its own attack rolls, reactions, "seizes the initiative"…) travels in
//! [`Event::Ruleset`]: a value of the ruleset's own event type, which implements
//! [`Narration`] and lives in the ruleset's folder. Narration never changes state.

use std::any::Any;
use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Serialize, Serializer};

use crate::engine::board::Cell;
use crate::engine::conditions::Condition;
use crate::engine::log::Names;
use crate::engine::spec::Hand;
use crate::engine::units::{PlayState, Pool, SideId, UnitId};

/// The stages of a round, shared by every ruleset (each names them its own way).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Stage {
    /// Rolling initiative and ordering turns.
    Initiative,
    /// Moving (phases: Movement Phase).
    Movement,
    /// Acting (phases: Battle Phase).
    Attack,
    /// Saves, ongoing damage and durations (phases: End Phase).
    EndOfTurn,
}

/// The extra die of an advantaged or disadvantaged roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ExtraDie {
    /// Sides of the die.
    pub sides: u32,
    /// Advantage (keep highest) or disadvantage (keep lowest).
    pub advantage: bool,
}

/// A named modifier of a [`Event::Rolled`] roll ("ATK +2", "prone -1").
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RollModifier {
    /// What it is, in the ruleset's words.
    pub name: String,
    /// What it adds (negative: subtracts).
    pub value: i32,
}

impl RollModifier {
    /// A modifier named `name` adding `value`.
    pub fn new(name: impl Into<String>, value: i32) -> Self {
        Self {
            name: name.into(),
            value,
        }
    }
}

/// Something that happened in a battle.
///
/// Serialized (the `--json` log) as `{"Variant": {fields}}`; a [`Event::Ruleset`]
/// event serializes as its own value, `{"Struck": {...}}`, with no wrapper.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Event {
    /// A new round began.
    RoundStarted {
        /// Round number, from 1.
        round: u32,
    },
    /// A stage of the round began.
    StageStarted {
        /// The stage.
        stage: Stage,
    },
    /// A unit rolled initiative.
    InitiativeRolled {
        /// The unit.
        unit: UnitId,
        /// Faces rolled.
        faces: Vec<u32>,
        /// Modifier added (phases: INT + AGI).
        modifier: i32,
        /// Total.
        total: i32,
    },
    /// A tied unit rolled to break the tie.
    TieBreakRolled {
        /// The unit.
        unit: UnitId,
        /// The face.
        face: u32,
    },
    /// The turn order of a stage was set.
    OrderSet {
        /// The stage.
        stage: Stage,
        /// Units in the order they act.
        order: Vec<UnitId>,
    },
    /// A unit's turn began.
    TurnStarted {
        /// The unit.
        unit: UnitId,
        /// The stage.
        stage: Stage,
    },
    /// A unit stepped into a cell.
    Moved {
        /// The unit.
        unit: UnitId,
        /// From.
        from: Cell,
        /// To.
        to: Cell,
        /// Movement spent on this step.
        cost: u32,
    },
    /// A unit's movement stopped early.
    MovementStopped {
        /// The unit.
        unit: UnitId,
        /// Why.
        reason: String,
    },
    /// Damage dealt.
    Damaged {
        /// The unit hurt.
        unit: UnitId,
        /// Damage dice faces.
        faces: Vec<u32>,
        /// Damage dealt.
        amount: i32,
        /// HP left.
        hp: i32,
        /// The unit that dealt it (an attacker, the source of an ongoing effect, the
        /// unit itself for self-harm), when there is one; left out of the JSON when
        /// none (falling, a rule with nobody behind it).
        #[serde(skip_serializing_if = "Option::is_none")]
        source: Option<UnitId>,
    },
    /// HP restored.
    Healed {
        /// The unit.
        unit: UnitId,
        /// Faces rolled.
        faces: Vec<u32>,
        /// HP restored.
        amount: i32,
        /// HP now.
        hp: i32,
        /// The unit that healed it (a healer, the unit itself), when the ruleset
        /// knows one; left out of the JSON when none.
        #[serde(skip_serializing_if = "Option::is_none")]
        source: Option<UnitId>,
    },
    /// A unit left play, or its play state changed (a dying unit died or was
    /// brought back: `state: Active`).
    Defeated {
        /// The unit.
        unit: UnitId,
        /// Its state now; JSON leaves out `Down` (0 HP, removed), the state of
        /// every `Defeated` before states existed.
        #[serde(skip_serializing_if = "PlayState::is_down")]
        state: PlayState,
        /// Why it left play (or changed state); left out of the JSON when unknown
        /// (every `Defeated` before causes existed).
        #[serde(skip_serializing_if = "Option::is_none")]
        cause: Option<LeaveCause>,
        /// The unit that caused it (whose damage took it to 0 HP, who slew it),
        /// when there is one; left out of the JSON when none.
        #[serde(skip_serializing_if = "Option::is_none")]
        by: Option<UnitId>,
    },
    /// A condition was added.
    ConditionAdded {
        /// The unit.
        unit: UnitId,
        /// The condition.
        condition: Condition,
    },
    /// A condition ended.
    ConditionRemoved {
        /// The unit.
        unit: UnitId,
        /// Condition name.
        name: String,
        /// Why it ended.
        reason: String,
    },
    /// An item was used.
    ItemUsed {
        /// The unit.
        unit: UnitId,
        /// Item name.
        item: String,
        /// Uses left.
        uses_left: u32,
    },
    /// A unit's turn ended.
    TurnEnded {
        /// The unit.
        unit: UnitId,
    },
    /// A unit declared an action and spent points for it (flow: AP, F-03, F-08).
    ActionDeclared {
        /// The unit.
        unit: UnitId,
        /// The action ("Move", "Attack", "Feint", ...).
        action: String,
        /// AP spent.
        ap: i32,
        /// AP left.
        left: i32,
        /// The pool spent from (flow's AP); not in the JSON log, which names it `ap`.
        #[serde(skip)]
        pool: Pool,
    },
    /// A pool changed other than by declaring an action: flow's RP spent or
    /// refilled, FP gained or decayed, AP refilled; phases' movement power and battle
    /// action spent and refilled each round.
    PointsChanged {
        /// The unit.
        unit: UnitId,
        /// The pool.
        pool: Pool,
        /// The change.
        delta: i32,
        /// The new value.
        now: i32,
        /// Why ("hit", "decay", "turn start", ...).
        reason: String,
        /// Bookkeeping the human log leaves out because other lines already tell it
        /// (phases' pools: "uses Charge", "attacks"); the JSON log shows it as
        /// `"quiet": true` and omits it when false.
        #[serde(skip_serializing_if = "is_false")]
        quiet: bool,
    },
    /// A carried weapon changed hands: drawn, sheathed (F-33).
    HeldChanged {
        /// The unit.
        unit: UnitId,
        /// The weapon.
        item: String,
        /// Where it is now.
        hand: Hand,
    },
    /// A unit dropped an item, or had it knocked away (F-32, F-42).
    ItemDropped {
        /// The unit that had it.
        unit: UnitId,
        /// The item.
        item: String,
        /// Where it lies.
        cell: Cell,
    },
    /// A unit picked an item up from the ground.
    ItemPickedUp {
        /// The unit.
        unit: UnitId,
        /// The item.
        item: String,
        /// Where it lay.
        cell: Cell,
        /// The hand it went to.
        hand: Hand,
    },
    /// A disarmer took its target's item into a free hand (F-32).
    ItemTaken {
        /// The disarmer.
        unit: UnitId,
        /// The disarmed unit.
        from: UnitId,
        /// The item.
        item: String,
        /// The hand it went to.
        hand: Hand,
    },
    /// The battle ended.
    BattleEnded {
        /// The winning side, or `None` for a draw.
        winner: Option<SideId>,
        /// Rounds played.
        rounds: u32,
    },
    /// A roll of any ruleset, told generically: who rolled what for what, every
    /// face, the faces kept, the named modifiers, the total and what it was measured
    /// against. Rulesets without a narration event of their own for a roll use this.
    Rolled {
        /// Who rolled.
        unit: UnitId,
        /// What for ("Disengage", "attack", "save against Burning").
        purpose: String,
        /// The dice expression rolled ("3d6", "2d6+1d8kh2", "d100").
        dice: String,
        /// Every face, in the order drawn.
        faces: Vec<u32>,
        /// The faces that count (the same as `faces` when none are dropped).
        kept: Vec<u32>,
        /// Named modifiers added to the kept faces.
        modifiers: Vec<RollModifier>,
        /// The total.
        total: i32,
        /// The number it is measured against, if any.
        target: Option<i32>,
        /// The unit rolled against (the target of an attack, an opposed roller), if any.
        against: Option<UnitId>,
        /// The outcome in the ruleset's words ("success", "hit", "miss", ...).
        outcome: String,
    },
    /// An attack was resolved: the neutral record of one attack roll of any
    /// ruleset (docs/rulesets.md, "The record of an attack"), with the exact odds it
    /// had before its dice. Emitted once the outcome and the damage it deals are
    /// known, before the [`Event::Damaged`] that applies that damage. It changes no
    /// state and prints no line of the human log (the ruleset's narration tells the
    /// roll).
    AttackResolved {
        /// The attacker.
        attacker: UnitId,
        /// The unit the attack landed on (an interceptor that took the hit, in
        /// `flow`).
        target: UnitId,
        /// The power or weapon it was made with.
        power: String,
        /// How it came out, in every ruleset's terms.
        outcome: AttackOutcome,
        /// Damage it dealt to `target` after mitigation (armor, resistance, halving):
        /// the `amount` of the [`Event::Damaged`] that follows it (0 when none does,
        /// the HP left for an instant defeat).
        damage: i32,
        /// The exact odds the engine computed for this attack from the state just
        /// before its dice were rolled (the preview's numbers); left out of the JSON
        /// when the ruleset has none for it.
        #[serde(skip_serializing_if = "Option::is_none")]
        odds: Option<Foreseen>,
    },
    /// A ruleset's own narration event (see [`Narration`]). It changes no state.
    #[serde(untagged)]
    Ruleset(RulesetEvent),
}

/// How an attack came out, in terms every ruleset maps its own results onto (each
/// ruleset's mapping: docs/rulesets.md, "The record of an attack").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum AttackOutcome {
    /// It failed to land (no damage beyond a ruleset's miss damage).
    Miss,
    /// It landed weakened (`actfast`'s Partial: damage halved).
    Partial,
    /// It landed.
    Hit,
    /// It landed as a critical hit.
    Critical,
    /// It failed badly (a natural 1 or 3, a fumble): a miss with a ruleset's own
    /// consequences.
    CriticalFailure,
}

impl AttackOutcome {
    /// Whether the attack landed (a partial, plain or critical hit).
    pub fn landed(self) -> bool {
        matches!(
            self,
            AttackOutcome::Partial | AttackOutcome::Hit | AttackOutcome::Critical
        )
    }
}

/// The exact odds of an attack as the engine computed them before its dice: what
/// the preview promised, to set against what the dice gave.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Foreseen {
    /// Exact chance to land (partial and critical hits included).
    pub hit: f64,
    /// Exact chance of a critical hit.
    pub crit: f64,
    /// Expected damage, every outcome weighed.
    pub expected_damage: f64,
}

// Odds are probabilities and means of finite distributions: never NaN, so equality
// is an equivalence and events stay `Eq`.
impl Eq for Foreseen {}

/// Why a unit left play (or changed its play state), for [`Event::Defeated`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum LeaveCause {
    /// Damage took it to 0 HP (or below).
    Damage,
    /// A rule defeated it outright (`wounds`' crit chain and fatal blow).
    Slain,
    /// It died of its state: failed death saves, bleeding out.
    Died,
    /// It fled, surrendered or was routed (morale).
    Fled,
    /// A condition it carried took hold (`escalation`'s Last Gasp).
    Condition,
    /// It came (back) into play, `state: Active`: healed or stabilized while dying,
    /// or summoned (`by`: the summoner).
    Recovered,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl Event {
    /// The ruleset narration event of type `T` this is, if it is one.
    pub fn narration<T: Narration>(&self) -> Option<&T> {
        match self {
            Event::Ruleset(r) => r.get::<T>(),
            _ => None,
        }
    }
}

impl<T: Narration> From<T> for Event {
    fn from(n: T) -> Event {
        Event::Ruleset(RulesetEvent::new(n))
    }
}

/// A ruleset's own event: what only it narrates (its attack rolls, reactions, ...).
///
/// A ruleset declares one type for them, usually an enum deriving `Clone, Debug,
/// PartialEq, Serialize`, and implements this trait for it: its log line and the
/// units it concerns. JSON, downcasting and equality come with [`NarrationObject`],
/// which every such type has. Emit one with `emit(world, MyEvent::Thing { .. })`
/// ([`crate::engine::battle::emit`] takes anything that converts into an [`Event`]);
/// read one back with [`Event::narration`].
pub trait Narration: NarrationObject {
    /// The log line, naming units (and sides, stages) through `names`.
    fn text(&self, names: &Names<'_>) -> String;
    /// The units it concerns, in the order it names them.
    fn units(&self) -> Vec<UnitId>;
    /// The roll it tells, in full (every face, modifier and source), for the window's
    /// "explain a roll"; `None` (the default) for an event that rolled nothing.
    /// Rule IDs left out are filled from the ruleset's glossary.
    fn explain(&self, names: &Names<'_>) -> Option<crate::engine::explain::Explained> {
        let _ = names;
        None
    }
}

/// What every [`Narration`] has for free (a blanket implementation for any
/// `Debug + Send + Sync + PartialEq + Serialize + 'static` type): its JSON value, a
/// view as [`Any`] for the owning ruleset to downcast, and equality with another.
pub trait NarrationObject: fmt::Debug + Send + Sync + 'static {
    /// Its JSON value, as the `--json` log shows it.
    fn json(&self) -> serde_json::Value;
    /// Itself as [`Any`], to downcast to the ruleset's type.
    fn as_any(&self) -> &dyn Any;
    /// Whether `other` is an equal value of the same type.
    fn same(&self, other: &dyn Any) -> bool;
}

impl<T> NarrationObject for T
where
    T: fmt::Debug + Send + Sync + PartialEq + Serialize + 'static,
{
    fn json(&self) -> serde_json::Value {
        // Only a map with non-string keys fails to convert; event types have none.
        serde_json::to_value(self).unwrap_or(serde_json::Value::Null)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn same(&self, other: &dyn Any) -> bool {
        other.downcast_ref::<T>().is_some_and(|o| o == self)
    }
}

/// A ruleset's narration event inside an [`Event`]: shared, cheap to clone, compared
/// by value and serialized as the value itself.
#[derive(Clone)]
pub struct RulesetEvent(Arc<dyn Narration>);

impl RulesetEvent {
    /// Wraps a ruleset's narration event.
    pub fn new(narration: impl Narration) -> Self {
        Self(Arc::new(narration))
    }

    /// The event as its ruleset's type `T`, if it is one.
    pub fn get<T: Narration>(&self) -> Option<&T> {
        self.0.as_any().downcast_ref::<T>()
    }

    /// The log line.
    pub fn text(&self, names: &Names<'_>) -> String {
        self.0.text(names)
    }

    /// The units it concerns.
    pub fn units(&self) -> Vec<UnitId> {
        self.0.units()
    }

    /// The roll it tells, in full (see [`Narration::explain`]).
    pub fn explain(&self, names: &Names<'_>) -> Option<crate::engine::explain::Explained> {
        self.0.explain(names)
    }

    /// Its JSON value.
    pub fn json(&self) -> serde_json::Value {
        self.0.json()
    }
}

impl fmt::Debug for RulesetEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl PartialEq for RulesetEvent {
    fn eq(&self, other: &Self) -> bool {
        self.0.same(other.0.as_any())
    }
}

impl Eq for RulesetEvent {}

impl Serialize for RulesetEvent {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.json().serialize(s)
    }
}

#[cfg(test)]
mod tests {
    use bevy_ecs::world::World;

    use super::*;
    use crate::engine::battle::{Roster, SideInfo, Sides};
    use crate::engine::log::{describe, line};
    use crate::engine::units::Unit;

    /// A ruleset's own events, declared outside the core.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    enum ToyEvent {
        Taunted {
            unit: UnitId,
            at: UnitId,
            words: String,
        },
        Cheered {
            side: SideId,
        },
    }

    impl Narration for ToyEvent {
        fn text(&self, names: &Names<'_>) -> String {
            match self {
                ToyEvent::Taunted { unit, at, words } => {
                    format!("{} taunts {}: {words}", names.unit(*unit), names.unit(*at))
                }
                ToyEvent::Cheered { side } => format!("{} cheer", names.side(*side)),
            }
        }
        fn units(&self) -> Vec<UnitId> {
            match self {
                ToyEvent::Taunted { unit, at, .. } => vec![*unit, *at],
                ToyEvent::Cheered { .. } => Vec::new(),
            }
        }
    }

    /// Another type with the same shape, to check equality looks at the type.
    #[derive(Clone, Debug, PartialEq, Serialize)]
    struct Other;

    impl Narration for Other {
        fn text(&self, _: &Names<'_>) -> String {
            String::new()
        }
        fn units(&self) -> Vec<UnitId> {
            Vec::new()
        }
    }

    /// A world with two named units on two sides, as the log reads it.
    fn world() -> World {
        let mut world = World::new();
        let units = ["Squire", "Orc"].iter().enumerate().map(|(i, n)| {
            let unit = Unit {
                name: n.to_string(),
                side: SideId(i as u32),
            };
            world.spawn(unit).id()
        });
        let roster = Roster(units.collect());
        world.insert_resource(roster);
        let side = |name: &str| SideInfo {
            name: name.into(),
            controller: Default::default(),
            decisions: Default::default(),
        };
        world.insert_resource(Sides(vec![side("Red"), side("Blue")]));
        world
    }

    fn taunt() -> ToyEvent {
        ToyEvent::Taunted {
            unit: UnitId(0),
            at: UnitId(1),
            words: "come here".into(),
        }
    }

    #[test]
    fn a_ruleset_event_narrates_serializes_bare_and_downcasts() {
        let world = world();
        let event: Event = taunt().into();
        assert_eq!(describe(&world, &event), "Squire taunts Orc: come here");
        assert_eq!(
            describe(&world, &ToyEvent::Cheered { side: SideId(1) }.into()),
            "Blue cheer"
        );
        // The JSON log shows the ruleset's own variant, with no wrapper around it.
        assert_eq!(
            serde_json::to_value(&event).unwrap(),
            serde_json::json!({"Taunted": {"unit": 0, "at": 1, "words": "come here"}})
        );
        assert_eq!(event.narration::<ToyEvent>(), Some(&taunt()));
        assert_eq!(event.narration::<Other>(), None);
        let Event::Ruleset(r) = &event else {
            panic!("a ruleset event")
        };
        assert_eq!(r.units(), [UnitId(0), UnitId(1)]);
        // Equal by value and type.
        assert_eq!(event, taunt().into());
        let louder = ToyEvent::Taunted {
            unit: UnitId(0),
            at: UnitId(1),
            words: "COME HERE".into(),
        };
        assert_ne!(event, louder.into());
        assert_ne!(event, Other.into());
        assert_eq!(format!("{event:?}"), format!("Ruleset({:?})", taunt()));
    }

    fn rolled(kept: Vec<u32>, target: Option<i32>, outcome: &str) -> Event {
        Event::Rolled {
            unit: UnitId(0),
            purpose: "Disengage".into(),
            dice: "3d6".into(),
            faces: vec![4, 2, 6],
            kept,
            modifiers: vec![RollModifier::new("AGI", 1), RollModifier::new("prone", -2)],
            total: 11,
            target,
            against: None,
            outcome: outcome.into(),
        }
    }

    #[test]
    fn the_generic_roll_event_tells_every_part_it_has() {
        let world = world();
        assert_eq!(
            describe(&world, &rolled(vec![4, 2, 6], Some(11), "success")),
            "Squire rolls Disengage: 3d6 [4, 2, 6] +1 AGI -2 prone = 11 vs 11: success"
        );
        // Dropped faces show the kept ones; no target, no outcome: left out.
        assert_eq!(
            describe(&world, &rolled(vec![6, 4], None, "")),
            "Squire rolls Disengage: 3d6 [4, 2, 6] keeps [6, 4] +1 AGI -2 prone = 11"
        );
        let json = serde_json::to_value(rolled(vec![6, 4], None, "")).unwrap();
        assert_eq!(json["Rolled"]["modifiers"][1]["value"], -2);
        assert_eq!(json["Rolled"]["target"], serde_json::Value::Null);
    }

    #[test]
    fn a_quiet_pool_change_has_a_json_text_but_no_human_line() {
        let world = world();
        let points = |quiet| Event::PointsChanged {
            unit: UnitId(1),
            pool: Pool::new("BattleAction", "battle action"),
            delta: -1,
            now: 0,
            reason: "Attack".into(),
            quiet,
        };
        assert_eq!(line(&world, &points(true)), None);
        let text = "Orc -1 battle action (Attack) -> 0";
        assert_eq!(line(&world, &points(false)).as_deref(), Some(text));
        assert_eq!(describe(&world, &points(true)), text);
        // `quiet` shows in the JSON only when set (flow's pool events keep their shape).
        let json = |e: &Event| serde_json::to_value(e).unwrap()["PointsChanged"].clone();
        assert_eq!(json(&points(true))["quiet"], true);
        assert!(json(&points(false)).get("quiet").is_none());
    }
}
