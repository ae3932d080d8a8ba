//! Unit components (RULES.md X-01): identity, side, cell, stats, health, conditions,
//! reach and action pools. Every ruleset reads and writes units through these.

use std::collections::BTreeMap;

use bevy_ecs::component::Component;
use serde::{Deserialize, Serialize};

use crate::engine::board::Cell;
use crate::engine::conditions::Condition;
use crate::engine::spec::{Hand, ItemDef, PowerDef, Size, WeaponDef};

/// Stable id of a unit: its index in the level's roster. Commands and events name
/// units by id so logs are deterministic and serialisable.
#[derive(
    Component, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub struct UnitId(pub u32);

/// Index of a side in the level's side list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct SideId(pub u32);

/// Who a unit is.
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct Unit {
    /// Display name, unique in the battle.
    pub name: String,
    /// The side it fights for.
    pub side: SideId,
}

/// The cell a unit stands on.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position(pub Cell);

/// Stats by name, as the ruleset declares them.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats(pub BTreeMap<String, i32>);

impl Stats {
    /// The stat's value, 0 when absent.
    pub fn get(&self, name: &str) -> i32 {
        self.0.get(name).copied().unwrap_or(0)
    }
}

/// Hit points.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Health {
    /// Current HP; at 0 or less the unit is defeated.
    pub hp: i32,
    /// Maximum HP.
    pub max: i32,
}

/// A unit that has left play (0 HP). It stays in the world for logs and results but
/// no longer occupies its cell, threatens, or takes turns.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Defeated;

/// Conditions on a unit, in the order they were added.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq)]
pub struct Conditions(pub Vec<Condition>);

impl Conditions {
    /// Whether a condition with this name is present.
    pub fn has(&self, name: &str) -> bool {
        self.0.iter().any(|c| c.name == name)
    }

    /// The first condition with this name.
    pub fn get(&self, name: &str) -> Option<&Condition> {
        self.0.iter().find(|c| c.name == name)
    }
}

/// How far a unit threatens (cells); 1 = adjacent cells.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reach(pub u32);

/// Named action counters, reset by the ruleset's hooks.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq)]
pub struct ActionPool(pub BTreeMap<Pool, i32>);

impl ActionPool {
    /// What is left in a pool.
    pub fn left(&self, pool: Pool) -> i32 {
        self.0.get(&pool).copied().unwrap_or(0)
    }
}

/// A named action counter: each ruleset declares its own as constants
/// (`phases`: one movement power and one battle action per turn; `flow`: AP, RP,
/// FP), so a new ruleset adds pools without editing the core. Two pools are the
/// same pool when their ids are equal.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pool {
    /// The id scripts, JSON and `Debug` show (`AP`, `MovementPower`).
    id: &'static str,
    /// What the log and messages call it (`AP`, `movement power`).
    label: &'static str,
}

impl Pool {
    /// A pool with an id and the label the log shows.
    pub const fn new(id: &'static str, label: &'static str) -> Self {
        Self { id, label }
    }

    /// The pool's id.
    pub fn id(self) -> &'static str {
        self.id
    }
}

impl std::fmt::Display for Pool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.label)
    }
}

impl std::fmt::Debug for Pool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id)
    }
}

impl Serialize for Pool {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id)
    }
}

/// Percentile skills by name (flow: Melee, Agility, ...).
#[derive(Component, Clone, Debug, Default, PartialEq, Eq)]
pub struct Skills(pub BTreeMap<String, i32>);

/// A unit's size category.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BodySize(pub Size);

/// Flat damage reduction (flow armor, F-GAP-06).
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Armor(pub i32);

/// Weapons and shields a unit carries, with where each is held.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq)]
pub struct Equipment(pub Vec<WeaponDef>);

impl Equipment {
    /// The carried weapon with this name (case-insensitive).
    pub fn get(&self, name: &str) -> Option<&WeaponDef> {
        self.0.iter().find(|w| w.name.eq_ignore_ascii_case(name))
    }

    /// Weapons in hand, main hand first.
    pub fn held(&self) -> impl Iterator<Item = &WeaponDef> {
        let main = self.0.iter().filter(|w| w.held == Hand::Main);
        main.chain(self.0.iter().filter(|w| w.held == Hand::Off))
    }

    /// Whether a hand is free (a two-handed weapon fills both).
    pub fn hand_free(&self, hand: Hand) -> bool {
        !self
            .0
            .iter()
            .any(|w| w.held == hand || (w.two_handed && w.held != Hand::Stowed))
    }
}

impl Equipment {
    /// The held weapons as attack powers (flow units list their attacks this way so
    /// that views and AIs that read [`Powers`] see them): melee reach is the higher of
    /// the weapon's and the size's (F-46); a ranged weapon's range is three range
    /// increments (−20 at the far end, F-48). Shields are left out.
    pub fn as_powers(&self, size: Size) -> Vec<PowerDef> {
        self.held()
            .filter(|w| w.attacks())
            .map(|w| PowerDef {
                name: w.name.clone(),
                range: if w.ranged() {
                    w.range * 3
                } else {
                    w.reach.max(size.reach())
                },
                ranged: w.ranged(),
                damage: w.damage.clone(),
                add_tier: false,
                on_hit: vec![],
            })
            .collect()
    }
}

/// Items lying on the map (dropped or disarmed), by cell, in the order dropped.
#[derive(bevy_ecs::resource::Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct GroundItems(pub Vec<(Cell, WeaponDef)>);

/// Attack powers a unit can use, first = default melee power.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq)]
pub struct Powers(pub Vec<PowerDef>);

/// Names of the movement powers a unit has.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq)]
pub struct MovementPowers(pub Vec<String>);

/// Items a unit carries.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq)]
pub struct Items(pub Vec<ItemDef>);

/// This round's initiative: the rolled total and the tie-break faces that ordered it.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq)]
pub struct Initiative {
    /// Dice + modifiers.
    pub total: i32,
    /// Tie-break faces in the order rolled (only for tied units).
    pub tie_breaks: Vec<u32>,
}

/// A read-only snapshot of a unit, for logs, final states and the UI.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct UnitView {
    /// Id.
    pub id: UnitId,
    /// Name.
    pub name: String,
    /// Side name.
    pub side: String,
    /// Cell.
    pub cell: Cell,
    /// Current HP.
    pub hp: i32,
    /// Maximum HP.
    pub max_hp: i32,
    /// Condition names.
    pub conditions: Vec<String>,
    /// Whether it has left play.
    pub defeated: bool,
}
