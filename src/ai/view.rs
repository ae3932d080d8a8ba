//! What the AI reads before choosing: a snapshot of the units (cells, hit points,
//! powers, reach) taken from the engine's components, the board, and a cache of the
//! exact attack odds the active ruleset's `preview_attack` gives.
//!
//! Everything here is ruleset-neutral: it reads the shared unit components and asks
//! the ruleset only through [`Battle`]'s generic entry points.

use std::collections::HashMap;

use bevy_ecs::world::World;

use super::moves::Grid;
use crate::engine::battle::{Battle, Map, Roster};
use crate::engine::board::{Board, Cell};
use crate::engine::ruleset::Assume;
use crate::engine::units::{Health, PlayState, Position, Powers, Reach, SideId, Unit, UnitId};

/// Movement assumed for a unit without a speed stat of its own (see
/// [`crate::engine::ruleset::AiHints::speed_stat`]), when guessing how far an enemy
/// can come next turn.
const DEFAULT_SPEED: u32 = 6;

/// One attack power as the AI sees it.
#[derive(Clone, Debug)]
pub(crate) struct PowerInfo<'a> {
    /// Name, as commands give it (borrowed from the unit's powers: a view is made
    /// for every decision, and copying every unit's power names was a tenth of
    /// its cost on a big map).
    pub name: &'a str,
    /// Range in cells.
    pub range: u32,
    /// Needs line of sight.
    pub ranged: bool,
}

/// A unit as the AI sees it.
#[derive(Clone, Debug)]
pub(crate) struct UnitSnap<'a> {
    /// Id.
    pub id: UnitId,
    /// Side.
    pub side: SideId,
    /// Cell.
    pub cell: Cell,
    /// Hit points left.
    pub hp: i32,
    /// Maximum hit points.
    pub max_hp: i32,
    /// Still in play.
    pub active: bool,
    /// Cells it threatens around it.
    pub reach: u32,
    /// Its attack powers, first = default.
    pub powers: Vec<PowerInfo<'a>>,
    /// How far it can come in a turn (its speed stat, or a default).
    pub speed: u32,
}

impl UnitSnap<'_> {
    /// Fraction of hit points lost, 0 (unhurt) to 1.
    pub fn wounded(&self) -> f64 {
        if self.max_hp <= 0 {
            return 0.0;
        }
        (1.0 - f64::from(self.hp) / f64::from(self.max_hp)).clamp(0.0, 1.0)
    }

    /// The longest range of its powers.
    pub fn max_range(&self) -> u32 {
        self.powers.iter().map(|p| p.range).max().unwrap_or(1)
    }
}

/// Exact odds of one attack, as the ruleset's preview gives them.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Odds {
    /// Chance to hit.
    pub chance: f64,
    /// Expected damage.
    pub expected: f64,
    /// Chance the target is defeated.
    pub kill: f64,
}

/// The snapshot and caches one decision is made from.
pub(crate) struct View<'a> {
    /// The battle.
    pub battle: &'a Battle,
    /// Its world (read-only).
    pub world: &'a World,
    /// The board.
    pub board: &'a Board,
    /// Every unit, by roster index.
    pub units: Vec<UnitSnap<'a>>,
    /// The board and who stands where, as flat arrays for searches.
    pub grid: Grid,
    /// Most powers any unit has (cache stride).
    max_powers: usize,
    /// `preview_attack` results by (attacker, target, power index), filled lazily.
    odds: Table<Option<Odds>>,
    /// Best expected damage by (attacker, target) over its powers, filled lazily.
    best: Table<f64>,
    /// Odds after an assumed move of the attacker: by movement power name, a table
    /// like `odds` (by attacker, target, power index), filled lazily.
    after: Vec<(String, Table<Option<Odds>>)>,
}

/// Keys of a [`Table`] up to which it is a flat array; beyond (big rosters, where a
/// decision asks only a few of the n² pairs), a hash map.
const DENSE_KEYS: usize = 4096;

/// A lazily filled cache by a dense integer key: a flat array for small key spaces,
/// else a hash map (only looked up, never iterated, so its order doesn't matter), so
/// that a decision on a 400-unit battle doesn't clear n² entries it never reads.
enum Table<T> {
    Dense(Vec<Option<T>>),
    Sparse(HashMap<usize, T>),
}

impl<T: Copy> Table<T> {
    /// An empty table for keys below `keys`.
    fn new(keys: usize) -> Self {
        if keys <= DENSE_KEYS {
            Table::Dense(vec![None; keys])
        } else {
            Table::Sparse(HashMap::new())
        }
    }

    /// The value at `key`, if filled.
    #[inline]
    fn get(&self, key: usize) -> Option<T> {
        match self {
            Table::Dense(v) => v[key],
            Table::Sparse(m) => m.get(&key).copied(),
        }
    }

    /// Fills `key`.
    fn set(&mut self, key: usize, value: T) {
        match self {
            Table::Dense(v) => v[key] = Some(value),
            Table::Sparse(m) => {
                m.insert(key, value);
            }
        }
    }
}

impl<'a> View<'a> {
    /// Reads the battle's units.
    pub fn new(battle: &'a Battle) -> Self {
        let world = battle.world();
        let board = &world.resource::<Map>().0;
        let ruleset = battle.rules();
        let units: Vec<UnitSnap<'a>> = world
            .resource::<Roster>()
            .0
            .iter()
            .enumerate()
            .map(|(i, &e)| {
                let hp = world.get::<Health>(e).copied();
                UnitSnap {
                    id: UnitId(i as u32),
                    side: world.get::<Unit>(e).map_or(SideId(u32::MAX), |u| u.side),
                    cell: world.get::<Position>(e).map_or(Cell::default(), |p| p.0),
                    hp: hp.map_or(0, |h| h.hp),
                    max_hp: hp.map_or(0, |h| h.max),
                    active: world.get::<PlayState>(e).is_none_or(|s| s.is_active()),
                    reach: world.get::<Reach>(e).map_or(1, |r| r.0),
                    powers: world
                        .get::<Powers>(e)
                        .map(|p| {
                            p.0.iter()
                                .map(|d| PowerInfo {
                                    name: d.name.as_str(),
                                    range: d.range,
                                    ranged: d.ranged,
                                })
                                .collect()
                        })
                        .unwrap_or_default(),
                    speed: ruleset
                        .speed_stat(world, UnitId(i as u32))
                        .unwrap_or(DEFAULT_SPEED),
                }
            })
            .collect();
        let n = units.len();
        let max_powers = units
            .iter()
            .map(|u| u.powers.len())
            .max()
            .unwrap_or(0)
            .max(1);
        let grid = Grid::new(
            board,
            units
                .iter()
                .filter(|u| u.active)
                .map(|u| (u.side, u.id, u.cell)),
        );
        View {
            battle,
            world,
            board,
            units,
            grid,
            max_powers,
            odds: Table::new(n * n * max_powers),
            best: Table::new(n * n),
            after: Vec::new(),
        }
    }

    /// The unit with this id.
    pub fn unit(&self, id: UnitId) -> &UnitSnap<'a> {
        &self.units[id.0 as usize]
    }

    /// Active enemies of `side`, in roster order.
    pub fn enemies(&self, side: SideId) -> impl Iterator<Item = &UnitSnap<'a>> + '_ {
        self.units
            .iter()
            .filter(move |u| u.active && u.side != side)
    }

    /// Exact odds of `attacker` hitting `target` with its power number `power`, as
    /// things stand (the ruleset's preview ignores where the attacker stands, so the
    /// AI also uses it for cells it could move to).
    pub fn odds(&mut self, attacker: UnitId, target: UnitId, power: usize) -> Option<Odds> {
        let n = self.units.len();
        let key = (attacker.0 as usize * n + target.0 as usize) * self.max_powers + power;
        if let Some(cached) = self.odds.get(key) {
            return cached;
        }
        let result = self.ask(attacker, target, power, Assume::default());
        self.odds.set(key, result);
        result
    }

    /// The ruleset's odds of `attacker`'s power number `power` on `target` under
    /// `assume`.
    fn ask(
        &self,
        attacker: UnitId,
        target: UnitId,
        power: usize,
        assume: Assume<'_>,
    ) -> Option<Odds> {
        let name = self.units[attacker.0 as usize].powers.get(power)?.name;
        self.battle
            .attack_odds(attacker, target, Some(name), assume)
            .map(|p| Odds {
                chance: p.chance,
                expected: p.expected_damage,
                kill: p.kill_chance,
            })
    }

    /// Like [`View::odds`], as they would be after `attacker` moved with movement
    /// power `moved` this round (the ruleset says what that changes: e.g. `phases`
    /// Hustle gives disadvantage, Charge advantage against the target, Run forbids
    /// attacking).
    pub fn odds_after(
        &mut self,
        attacker: UnitId,
        target: UnitId,
        power: usize,
        moved: Option<&str>,
    ) -> Option<Odds> {
        let Some(name) = moved else {
            return self.odds(attacker, target, power);
        };
        let n = self.units.len();
        let key = (attacker.0 as usize * n + target.0 as usize) * self.max_powers + power;
        let table = match self.after.iter().position(|(m, _)| m == name) {
            Some(t) => t,
            None => {
                self.after
                    .push((name.to_owned(), Table::new(n * n * self.max_powers)));
                self.after.len() - 1
            }
        };
        if let Some(cached) = self.after[table].1.get(key) {
            return cached;
        }
        let assume = Assume {
            attacker_moved: Some(name),
            ..Assume::default()
        };
        let result = self.ask(attacker, target, power, assume);
        self.after[table].1.set(key, result);
        result
    }

    /// Like [`View::odds`], as they would be after `attacker` won its opening action
    /// against `target` (`flow`'s Feint, F-34: Advantage on its next physical
    /// attack). Not cached: asked once per target and power when one is weighed.
    pub fn odds_opened(&self, attacker: UnitId, target: UnitId, power: usize) -> Option<Odds> {
        let assume = Assume {
            opened: true,
            ..Assume::default()
        };
        self.ask(attacker, target, power, assume)
    }

    /// The most damage `attacker` can expect to deal `target` in one attack with any
    /// of its powers (ignoring range).
    pub fn best_expected(&mut self, attacker: UnitId, target: UnitId) -> f64 {
        let n = self.units.len();
        let key = attacker.0 as usize * n + target.0 as usize;
        if let Some(v) = self.best.get(key) {
            return v;
        }
        let count = self.units[attacker.0 as usize].powers.len();
        let v = (0..count)
            .filter_map(|p| self.odds(attacker, target, p))
            .map(|o| o.expected)
            .fold(0.0, f64::max);
        self.best.set(key, v);
        v
    }

    /// Whether a power of `attacker` could reach `target` from `from` (range, and line
    /// of sight for ranged powers).
    pub fn in_range(&self, power: &PowerInfo<'_>, from: Cell, to: Cell) -> bool {
        let d = self.board.distance(from, to);
        d <= power.range && (!power.ranged || self.board.line_of_sight(from, to))
    }
}
