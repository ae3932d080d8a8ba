//! Unit components (RULES.md X-01): identity, side, cell, stats, health, conditions,
//! reach and action pools. Every ruleset reads and writes units through these.

use std::collections::BTreeMap;

use rustc_hash::FxHashMap;

use bevy_ecs::component::Component;
use bevy_ecs::entity::Entity;
use bevy_ecs::lifecycle::HookContext;
use bevy_ecs::resource::Resource;
use bevy_ecs::world::DeferredWorld;
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
///
/// Immutable: a move inserts a new one, so the [`Occupants`] index its hooks keep
/// always says who stands where.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
#[component(immutable, on_insert = placed, on_discard = left)]
pub struct Position(pub Cell);

/// Who stands on each cell: the entities whose [`Position`] it is, kept up to date
/// by `Position`'s hooks in a world that has this resource from the start (every
/// battle world has). Lets "who stands on this cell" be answered without reading
/// every unit: on a big map, most of the cost of each path checked or previewed.
#[derive(Resource, Default, Debug)]
pub struct Occupants(FxHashMap<Cell, Vec<Entity>>);

impl Occupants {
    /// The entities standing on `cell` (any state; usually none or one).
    pub fn at(&self, cell: Cell) -> &[Entity] {
        self.0.get(&cell).map_or(&[], Vec::as_slice)
    }

    /// Every occupied cell with who stands there (in no particular order).
    pub fn iter(&self) -> impl Iterator<Item = (Cell, &[Entity])> {
        self.0.iter().map(|(&c, v)| (c, v.as_slice()))
    }
}

/// `Position`'s insert hook: the entity now stands on its cell.
fn placed(mut world: DeferredWorld, ctx: HookContext) {
    let Some(cell) = world.get::<Position>(ctx.entity).map(|p| p.0) else {
        return;
    };
    if let Some(mut index) = world.get_resource_mut::<Occupants>() {
        index.0.entry(cell).or_default().push(ctx.entity);
    }
}

/// `Position`'s discard hook (a new position replaces it, or it goes with its
/// entity): the entity leaves its cell.
fn left(mut world: DeferredWorld, ctx: HookContext) {
    let Some(cell) = world.get::<Position>(ctx.entity).map(|p| p.0) else {
        return;
    };
    if let Some(mut index) = world.get_resource_mut::<Occupants>()
        && let Some(here) = index.0.get_mut(&cell)
    {
        here.retain(|&e| e != ctx.entity);
        if here.is_empty() {
            index.0.remove(&cell);
        }
    }
}

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

/// Where a unit stands in the battle (X-01 "out-of-play state", X-16): in play, or
/// out of it and how. A unit without this component is [`PlayState::Active`]; the
/// battle sets it when [`crate::engine::event::Event::Defeated`] says so.
///
/// | State | On the board (occupies its cell) | Takes turns, threatens, is attacked as a fighter | Counts for victory |
/// |---|---|---|---|
/// | `Active` | yes | yes | yes |
/// | `Dying` | yes: it can be healed, stabilised, finished off | no | no, unless the ruleset inserts [`DyingCountsForVictory`]`(true)` |
/// | `Down`, `Fled`, `Surrendered`, `Dead` | no: removed | no | no |
///
/// Units that left play stay in the world for logs and results.
#[derive(
    Component, Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize,
)]
pub enum PlayState {
    /// In play.
    #[default]
    Active,
    /// At 0 HP or less but not yet gone (escalation PCs, E-46, E-49…E-51): still on
    /// its cell; the ruleset rolls its death saves and may bring it back.
    Dying,
    /// Out of the fight at 0 HP and removed from the board: phases and flow at 0 HP
    /// (P-GAP-05, F-GAP), actfast PCs (A-GAP-06). What `Event::Defeated` means when
    /// it names no state.
    Down,
    /// Left the battle by fleeing (actfast morale, A-16, A-GAP-13; escalation Flee,
    /// E-42, E-GAP-22).
    Fled,
    /// Gave up (actfast morale, A-GAP-13; wounds W-GAP-21).
    Surrendered,
    /// Killed (escalation's fourth failed death save, E-50; wounds' instant kill,
    /// W-21, W-24; actfast NPCs at 0 HP).
    Dead,
}

impl PlayState {
    /// The state of a unit's entity (`Active` without the component).
    pub fn of(e: bevy_ecs::world::EntityRef<'_>) -> PlayState {
        e.get::<PlayState>().copied().unwrap_or_default()
    }

    /// Whether the unit is in play: takes turns, threatens, can be targeted as a
    /// fighter and counts for victory.
    pub fn is_active(self) -> bool {
        self == PlayState::Active
    }

    /// Whether the unit still stands on its cell (active or dying): nobody else may
    /// end a move there.
    pub fn on_board(self) -> bool {
        matches!(self, PlayState::Active | PlayState::Dying)
    }

    /// Whether the unit keeps its side in the battle for victory: active units do;
    /// dying ones only when `dying_counts` (see [`DyingCountsForVictory`]).
    pub fn holds_the_field(self, dying_counts: bool) -> bool {
        self == PlayState::Active || (dying_counts && self == PlayState::Dying)
    }

    /// The state in words: "active", "dying", "down", "fled", "surrendered", "dead".
    pub fn word(self) -> &'static str {
        match self {
            PlayState::Active => "active",
            PlayState::Dying => "dying",
            PlayState::Down => "down",
            PlayState::Fled => "fled",
            PlayState::Surrendered => "surrendered",
            PlayState::Dead => "dead",
        }
    }

    /// What the log says of a unit entering this state: "is defeated" (`Down`),
    /// "is dying", "flees the battle", "surrenders", "is killed", "is back in the
    /// fight" (`Active`).
    pub fn phrase(self) -> &'static str {
        match self {
            PlayState::Active => "is back in the fight",
            PlayState::Dying => "is dying",
            PlayState::Down => "is defeated",
            PlayState::Fled => "flees the battle",
            PlayState::Surrendered => "surrenders",
            PlayState::Dead => "is killed",
        }
    }

    /// Whether this is `Down`, the state `Event::Defeated` leaves out of its JSON.
    pub fn is_down(&self) -> bool {
        *self == PlayState::Down
    }

    /// Whether a [`UnitView`]'s `defeated` flag already says this state (`Active`
    /// when not defeated, `Down` when defeated), so JSON leaves it out.
    pub fn implied_by_defeated(&self) -> bool {
        matches!(self, PlayState::Active | PlayState::Down)
    }
}

impl std::fmt::Display for PlayState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.word())
    }
}

/// Whether a [`PlayState::Dying`] unit keeps its side in the battle for victory. The
/// default (no resource, or `false`): it does not — a side whose units are all dying
/// or gone has lost (escalation: a party that is all down cannot win, and nobody of
/// it is left to take a turn). A ruleset where the dying recover unaided inserts
/// `DyingCountsForVictory(true)` at setup.
#[derive(bevy_ecs::resource::Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DyingCountsForVictory(pub bool);

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
                damage_type: None,
                traits: Vec::new(),
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
    /// Whether it is out of play (any state but `Active`, dying included).
    pub defeated: bool,
    /// Its play state; JSON leaves it out when `defeated` already says it (`Active`
    /// when not defeated, `Down` when defeated).
    #[serde(skip_serializing_if = "PlayState::implied_by_defeated")]
    pub state: PlayState,
}
