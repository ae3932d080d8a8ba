//! The battle: a Bevy world of units and resources, the stage sets the rulesets'
//! systems run in, and the [`Battle`] driver that takes commands.
//!
//! `Battle::submit` checks a command with the active ruleset, hands it to the
//! systems through the [`Incoming`] resource and runs [`BattleSchedule`] until the
//! rules need input again (a unit's command or a [`PendingDecision`]) or the battle
//! ends. Systems change the world only through [`emit`], which applies an event and
//! appends it to the [`EventLog`].

use bevy_app::App;
use bevy_ecs::prelude::*;
use bevy_ecs::schedule::{ScheduleLabel, SingleThreadedExecutor};
use rustc_hash::FxHashMap;

use crate::engine::board::{Board, Cell, Occupancy, PathFault, Terrain};
use crate::engine::command::{Command, CommandError};
use crate::engine::decision::PendingDecision;
use crate::engine::dice::Dice;
use crate::engine::event::{Event, Stage};
use crate::engine::queries::{self, CachedQuery};
use crate::engine::ruleset::{Assume, AttackOdds, AttackPreview, MovePreview, Ruleset, TurnOrder};
use crate::engine::spec::{Controller, DecisionPolicy, Level, Victory};
use crate::engine::units::*;

/// The schedule the rules run in; see [`BattleStage`].
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
pub struct BattleSchedule;

/// Ordered stage sets of [`BattleSchedule`]: Initiative → Movement → Attack → EndOfTurn.
/// Each ruleset plugin adds its systems into these sets.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BattleStage {
    /// Rolling and ordering.
    Initiative,
    /// Movement with opportunity attacks.
    Movement,
    /// Attacks and other actions.
    Attack,
    /// Saves, ongoing effects and durations.
    EndOfTurn,
}

/// Units by [`UnitId`] (roster order).
#[derive(Resource, Clone, Debug, Default)]
pub struct Roster(pub Vec<Entity>);

/// A side as the battle knows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SideInfo {
    /// Name.
    pub name: String,
    /// Who plays it.
    pub controller: Controller,
    /// How its optional decisions are answered.
    pub decisions: DecisionPolicy,
}

/// The sides, by [`SideId`].
#[derive(Resource, Clone, Debug, Default)]
pub struct Sides(pub Vec<SideInfo>);

/// The board of this battle.
#[derive(Resource, Clone, Debug)]
pub struct Map(pub Board);

/// Every event so far: the combat log.
#[derive(Resource, Clone, Debug, Default)]
pub struct EventLog(pub Vec<Event>);

/// Where the battle stands.
#[derive(Resource, Clone, Debug, PartialEq, Eq)]
pub struct TurnState {
    /// Current round, from 1 (0 before the first).
    pub round: u32,
    /// Current stage.
    pub stage: Stage,
    /// The unit whose turn it is.
    pub active: Option<UnitId>,
    /// Set when the battle has ended: the winner (`None` = draw).
    pub ended: Option<Option<SideId>>,
}

/// The decision the battle is waiting for, if any.
#[derive(Resource, Clone, Debug, Default)]
pub struct Pending(pub Option<PendingDecision>);

/// The command being executed, taken by the system that handles it.
#[derive(Resource, Clone, Debug, Default)]
pub struct Incoming(pub Option<Command>);

/// Set by systems when they changed anything; the driver runs the schedule until a
/// run makes no progress.
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct Progress(pub bool);

/// An error raised while executing (dice ran out); the driver returns it.
#[derive(Resource, Clone, Debug, Default)]
pub struct Fault(pub Option<CommandError>);

/// The battle's victory rule.
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct VictoryRule(pub Victory);

/// The active ruleset (see [`Ruleset`]): its entry points that are not systems —
/// legality, and the previews the UI and the AI read — and its id for the systems'
/// run conditions ([`ruleset_is`]).
#[derive(Resource, Clone, Copy)]
pub struct ActiveRuleset(pub &'static dyn Ruleset);

impl std::ops::Deref for ActiveRuleset {
    type Target = dyn Ruleset;

    fn deref(&self) -> &(dyn Ruleset + 'static) {
        self.0
    }
}

/// Run condition: the active ruleset is `id`.
pub fn ruleset_is(id: &'static str) -> impl Fn(Option<Res<ActiveRuleset>>) -> bool + Clone {
    move |r: Option<Res<ActiveRuleset>>| r.is_some_and(|r| r.0.id() == id)
}

/// Adds `drive`, the one system of a ruleset that runs its whole battle from the
/// commands it is given, to the battle's schedule (in [`BattleStage::Attack`],
/// running only while ruleset `id` is active): the whole [`Ruleset::build`] of a
/// ruleset written as one driver (`escalation`, `wounds`, `actfast`).
pub fn add_driver(app: &mut App, id: &'static str, drive: fn(&mut World)) {
    app.add_systems(
        BattleSchedule,
        drive.in_set(BattleStage::Attack).run_if(ruleset_is(id)),
    );
}

/// Applies an event to the world and appends it to the log: the one place where the
/// rules change state that the log describes. Takes a core [`Event`] or a ruleset's
/// own narration event (see [`crate::engine::event::Narration`]).
pub fn emit(world: &mut World, event: impl Into<Event>) {
    let event = event.into();
    apply(world, &event);
    match &event {
        Event::HeldChanged { unit, .. }
        | Event::ItemDropped { unit, .. }
        | Event::ItemPickedUp { unit, .. } => sync_powers(world, *unit),
        Event::ItemTaken { unit, from, .. } => {
            sync_powers(world, *unit);
            sync_powers(world, *from);
        }
        _ => {}
    }
    world.resource_mut::<EventLog>().0.push(event);
    world.resource_mut::<Progress>().0 = true;
}

fn apply(world: &mut World, event: &Event) {
    match event {
        Event::RoundStarted { round } => world.resource_mut::<TurnState>().round = *round,
        Event::StageStarted { stage } => world.resource_mut::<TurnState>().stage = *stage,
        Event::TurnStarted { unit, .. } => world.resource_mut::<TurnState>().active = Some(*unit),
        Event::TurnEnded { .. } => world.resource_mut::<TurnState>().active = None,
        Event::InitiativeRolled { unit, total, .. } => {
            let e = entity(world, *unit);
            world.entity_mut(e).insert(Initiative {
                total: *total,
                tie_breaks: Vec::new(),
            });
        }
        Event::TieBreakRolled { unit, face } => {
            let e = entity(world, *unit);
            if let Some(mut i) = world.get_mut::<Initiative>(e) {
                i.tie_breaks.push(*face);
            }
        }
        Event::Moved { unit, to, .. } => {
            let e = entity(world, *unit);
            world.entity_mut(e).insert(Position(*to));
        }
        Event::Damaged { unit, hp, .. } | Event::Healed { unit, hp, .. } => {
            let e = entity(world, *unit);
            if let Some(mut h) = world.get_mut::<Health>(e) {
                h.hp = *hp;
            }
        }
        Event::Defeated { unit, state, .. } => {
            let e = entity(world, *unit);
            world.entity_mut(e).insert(*state);
        }
        Event::ConditionAdded { unit, condition } => {
            let e = entity(world, *unit);
            let policy = crate::engine::conditions::policy(world, &condition.name);
            if let Some(mut c) = world.get_mut::<Conditions>(e) {
                c.add(condition.clone(), policy);
            }
        }
        Event::ConditionRemoved { unit, name, .. } => {
            let e = entity(world, *unit);
            if let Some(mut c) = world.get_mut::<Conditions>(e)
                && let Some(i) = c.0.iter().position(|c| &c.name == name)
            {
                c.0.remove(i);
            }
        }
        Event::ItemUsed {
            unit,
            item,
            uses_left,
        } => {
            let e = entity(world, *unit);
            if let Some(mut items) = world.get_mut::<Items>(e)
                && let Some(it) = items.0.iter_mut().find(|i| &i.name == item)
            {
                it.uses = *uses_left;
            }
        }
        Event::BattleEnded { winner, .. } => {
            let mut t = world.resource_mut::<TurnState>();
            t.ended = Some(*winner);
            t.active = None;
        }
        Event::ActionDeclared {
            unit, left, pool, ..
        } => set_pool(world, *unit, *pool, *left),
        Event::PointsChanged {
            unit, pool, now, ..
        } => set_pool(world, *unit, *pool, *now),
        Event::HeldChanged { unit, item, hand } => {
            let e = entity(world, *unit);
            if let Some(mut eq) = world.get_mut::<Equipment>(e)
                && let Some(w) = eq.0.iter_mut().find(|w| &w.name == item)
            {
                w.held = *hand;
            }
        }
        Event::ItemDropped { unit, item, cell } => {
            if let Some(w) = take_item(world, *unit, item) {
                world
                    .get_resource_or_init::<GroundItems>()
                    .0
                    .push((*cell, w));
            }
        }
        Event::ItemPickedUp {
            unit,
            item,
            cell,
            hand,
        } => {
            let mut ground = world.get_resource_or_init::<GroundItems>();
            let found = ground
                .0
                .iter()
                .position(|(c, w)| c == cell && &w.name == item);
            if let Some(i) = found {
                let (_, mut w) = ground.0.remove(i);
                w.held = *hand;
                let e = entity(world, *unit);
                if let Some(mut eq) = world.get_mut::<Equipment>(e) {
                    eq.0.push(w);
                }
            }
        }
        Event::ItemTaken {
            unit,
            from,
            item,
            hand,
        } => {
            if let Some(mut w) = take_item(world, *from, item) {
                w.held = *hand;
                let e = entity(world, *unit);
                if let Some(mut eq) = world.get_mut::<Equipment>(e) {
                    eq.0.push(w);
                }
            }
        }
        // Narration: what happened, with no state of its own. A ruleset's events
        // never change state; it emits core events for that.
        Event::OrderSet { .. }
        | Event::MovementStopped { .. }
        | Event::Rolled { .. }
        | Event::AttackResolved { .. }
        | Event::Ruleset(_) => {}
    }
}

/// Keeps a flow unit's [`Powers`] in step with what it holds; the trailing `Unarmed`
/// power (not a carried item) stays last.
fn sync_powers(world: &mut World, unit: UnitId) {
    let e = entity(world, unit);
    let (Some(eq), Some(size)) = (world.get::<Equipment>(e), world.get::<BodySize>(e)) else {
        return;
    };
    let mut powers = eq.as_powers(size.0);
    if let Some(unarmed) = world
        .get::<Powers>(e)
        .and_then(|p| p.0.iter().find(|p| p.name == "Unarmed").cloned())
    {
        powers.push(unarmed);
    }
    world.entity_mut(e).insert(Powers(powers));
}

fn set_pool(world: &mut World, unit: UnitId, pool: Pool, value: i32) {
    let e = entity(world, unit);
    if let Some(mut p) = world.get_mut::<ActionPool>(e) {
        p.0.insert(pool, value);
    }
}

/// Removes a carried item from a unit, returning it.
fn take_item(
    world: &mut World,
    unit: UnitId,
    item: &str,
) -> Option<crate::engine::spec::WeaponDef> {
    let e = entity(world, unit);
    let mut eq = world.get_mut::<Equipment>(e)?;
    let i = eq.0.iter().position(|w| w.name == item)?;
    Some(eq.0.remove(i))
}

/// The entity of a unit id. Ids come from the roster, so this never fails for ids
/// the engine handed out; commands are checked with [`find`] first.
pub fn entity(world: &World, unit: UnitId) -> Entity {
    world.resource::<Roster>().0[unit.0 as usize]
}

/// The entity of a unit id, if it exists.
pub fn find(world: &World, unit: UnitId) -> Option<Entity> {
    world.resource::<Roster>().0.get(unit.0 as usize).copied()
}

/// Name of a unit (for messages).
pub fn name(world: &World, unit: UnitId) -> String {
    find(world, unit)
        .and_then(|e| world.get::<Unit>(e))
        .map_or_else(|| format!("#{}", unit.0), |u| u.name.clone())
}

/// Side of a unit.
pub fn side_of(world: &World, unit: UnitId) -> SideId {
    world
        .get::<Unit>(entity(world, unit))
        .map_or(SideId(u32::MAX), |u| u.side)
}

/// Cell of a unit.
pub fn cell_of(world: &World, unit: UnitId) -> Cell {
    world
        .get::<Position>(entity(world, unit))
        .map_or(Cell::default(), |p| p.0)
}

/// A unit's [`PlayState`] (`Active` for an id that names no unit's state).
pub fn play_state(world: &World, unit: UnitId) -> PlayState {
    find(world, unit)
        .and_then(|e| world.get::<PlayState>(e).copied())
        .unwrap_or_default()
}

/// Whether a unit is in play ([`PlayState::Active`]): it takes turns, threatens and
/// is a target. A dying unit is not (see [`on_board`]).
pub fn is_active(world: &World, unit: UnitId) -> bool {
    find(world, unit).is_some_and(|e| world.get::<PlayState>(e).is_none_or(|s| s.is_active()))
}

/// Whether a unit still stands on its cell: active or dying ([`PlayState::on_board`]).
pub fn on_board(world: &World, unit: UnitId) -> bool {
    find(world, unit).is_some_and(|e| world.get::<PlayState>(e).is_none_or(|s| s.on_board()))
}

/// Ids of all units in play, in roster order.
pub fn active_units(world: &World) -> Vec<UnitId> {
    active_entities(world).map(|(u, _)| u).collect()
}

/// Ids of all units on the board (active or dying), in roster order: whose
/// conditions still run out.
pub fn board_units(world: &World) -> Vec<UnitId> {
    board_entities(world).map(|(u, _)| u).collect()
}

/// Ids and entities of all units in the roster, in roster order.
fn roster_entities(world: &World) -> impl Iterator<Item = (UnitId, EntityRef<'_>)> + '_ {
    world
        .resource::<Roster>()
        .0
        .iter()
        .enumerate()
        .filter_map(|(i, &e)| Some((UnitId(i as u32), world.get_entity(e).ok()?)))
}

/// Ids and entities of all units in play, in roster order (the roster is read
/// once: these run for every check and preview).
pub fn active_entities(world: &World) -> impl Iterator<Item = (UnitId, EntityRef<'_>)> + '_ {
    roster_entities(world).filter(|&(_, e)| PlayState::of(e).is_active())
}

/// Ids and entities of all units on the board (active or dying), in roster order.
pub fn board_entities(world: &World) -> impl Iterator<Item = (UnitId, EntityRef<'_>)> + '_ {
    roster_entities(world).filter(|&(_, e)| PlayState::of(e).on_board())
}

/// Who stands where, as seen by `mover` (allies passable, enemies blocking). Dying
/// units still stand on their cells. A snapshot: it holds no borrow of the world,
/// and keeps saying what was true when it was made (for a path checked while the
/// world doesn't change, [`occupancy_at`] is far cheaper on a big map).
pub fn occupancy_for(world: &World, mover: UnitId) -> impl Fn(Cell) -> Occupancy + use<> {
    let side = side_of(world, mover);
    let me = find(world, mover);
    let others = standing(world)
        .into_iter()
        .filter(|b| Some(b.entity) != me)
        .map(|b| (b.cell, b.side))
        .collect();
    occupancy_among(side, others)
}

/// [`occupancy_for`] read live, cell by cell, from the [`Occupants`] index instead
/// of every unit: for the paths checked and previewed (many per AI decision) while
/// the world holds still. (In a world without the index, the units are read once.)
pub fn occupancy_at(world: &World, mover: UnitId) -> impl Fn(Cell) -> Occupancy + '_ {
    let side = side_of(world, mover);
    let me = find(world, mover);
    let index = world.get_resource::<Occupants>();
    let snapshot = index.is_none().then(|| occupancy_for(world, mover));
    move |cell| {
        let Some(index) = index else {
            // No index in this world: the snapshot was taken instead.
            return snapshot.as_ref().map_or(Occupancy::Free, |s| s(cell));
        };
        // The first in roster order of the units on the board there, as
        // `occupancy_among` over the roster would find.
        index
            .at(cell)
            .iter()
            .filter(|&&e| Some(e) != me)
            .filter_map(|&e| {
                let e = world.get_entity(e).ok()?;
                let unit = e.get::<Unit>()?;
                PlayState::of(e)
                    .on_board()
                    .then(|| (e.get::<UnitId>().copied(), unit.side))
            })
            .min_by_key(|&(id, _)| id)
            .map_or(Occupancy::Free, |(_, s)| seen_by(side, s))
    }
}

/// A unit on the board as [`standing`] reads it.
#[derive(Clone, Copy, Debug)]
pub struct OnBoard {
    /// Its entity ([`unit_of`] gives its id).
    pub entity: Entity,
    /// Where it stands.
    pub cell: Cell,
    /// Its side.
    pub side: SideId,
    /// In play or dying.
    pub state: PlayState,
}

/// Every unit on the board (active or dying), read with one query over the units'
/// table: in the table's order, not the roster's, and much cheaper than
/// [`board_entities`]' lookups entity by entity, which on a big map were most of
/// the cost of every path checked or previewed.
pub fn standing(world: &World) -> Vec<OnBoard> {
    let unit = |(entity, p, u, state): (Entity, &Position, &Unit, Option<&PlayState>)| OnBoard {
        entity,
        cell: p.0,
        side: u.side,
        state: state.copied().unwrap_or_default(),
    };
    // Every battle world registers the components read (`Battle::app`); a unit
    // without a `PlayState` is in play.
    queries::read::<StandingQuery, _>(world, |q| {
        q.iter().map(unit).filter(|b| b.state.on_board()).collect()
    })
    .unwrap_or_default()
}

/// What [`standing`] reads of every unit.
type StandingQuery = (
    Entity,
    &'static Position,
    &'static Unit,
    Option<&'static PlayState>,
);

/// The id of a unit's entity (its place in the roster): its [`UnitId`] component,
/// else found in the roster.
pub fn unit_of(world: &World, entity: Entity) -> Option<UnitId> {
    world.get::<UnitId>(entity).copied().or_else(|| {
        world
            .resource::<Roster>()
            .0
            .iter()
            .position(|&e| e == entity)
            .map(|i| UnitId(i as u32))
    })
}

/// How a ruleset words the refusals of a path ([`check_steps`]); the walk itself is
/// [`Board::check_path`]'s.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PathWords {
    /// After "an enemy stands on (x, y)" (`wounds`: ": no moving through enemies
    /// (W-GAP-24)"); empty for none.
    pub through_enemy: &'static str,
    /// After the refusal of a move ending where someone stands; empty for none.
    pub ends_occupied: &'static str,
    /// The words of `phases` and `flow`, which name each fault apart ("the path is
    /// empty (use EndTurn to stay put)", "(x, y) is off the map", "(x, y) is
    /// impassable", "(x, y) is occupied: a move can't end there"), rather than the
    /// shorter ones of the later rulesets ("the path is empty", "(x, y) is not next
    /// to (x, y)" for a cell off the map too, "(x, y) can't be entered", "a move
    /// can't end on (x, y): someone stands there").
    pub apart: bool,
}

impl PathWords {
    /// The refusal of a path for `fault`, in these words.
    pub fn refusal(&self, fault: PathFault<CommandError>) -> CommandError {
        let blocked = |why: String| CommandError::PathBlocked(why);
        match fault {
            PathFault::Empty if self.apart => {
                blocked("the path is empty (use EndTurn to stay put)".into())
            }
            PathFault::Empty => blocked("the path is empty".into()),
            PathFault::OffMap { cell, .. } if self.apart => {
                blocked(format!("{cell} is off the map"))
            }
            PathFault::OffMap { cell, from } | PathFault::NotNext { cell, from } => {
                blocked(format!("{cell} is not next to {from}"))
            }
            PathFault::Impassable(c) if self.apart => blocked(format!("{c} is impassable")),
            PathFault::Impassable(c) => blocked(format!("{c} can't be entered")),
            PathFault::Enemy(c) => blocked(format!("an enemy stands on {c}{}", self.through_enemy)),
            PathFault::Rule(e) => e,
            PathFault::EndTaken(c) if self.apart => blocked(format!(
                "{c} is occupied: a move can't end there{}",
                self.ends_occupied
            )),
            PathFault::EndTaken(c) => blocked(format!(
                "a move can't end on {c}: someone stands there{}",
                self.ends_occupied
            )),
        }
    }
}

/// Whether `unit` may walk `path` (the cells entered, start excluded) as the
/// square- and hex-grid rulesets that walk step by step require: each cell next to
/// the last, on the map and enterable, never through an enemy, the last one free.
/// Returns the path's cost in the board's terrain costs; the refusal names the
/// first cell that fails, with the ruleset's `words`.
pub fn check_steps(
    world: &World,
    unit: UnitId,
    path: &[Cell],
    words: PathWords,
) -> Result<u32, CommandError> {
    check_steps_with(
        world,
        unit,
        path,
        occupancy_at(world, unit),
        words,
        |_, _, _| Ok(()),
    )
}

/// [`check_steps`] with who stands where given (`occupancy`) and the ruleset's own
/// rule for a step, `rule(from, to, occupancy of to)`, asked after the shared checks
/// of each step ([`Board::check_path`]).
pub fn check_steps_with(
    world: &World,
    unit: UnitId,
    path: &[Cell],
    occupancy: impl Fn(Cell) -> Occupancy,
    words: PathWords,
    rule: impl FnMut(Cell, Cell, Occupancy) -> Result<(), CommandError>,
) -> Result<u32, CommandError> {
    let board = &world.resource::<Map>().0;
    board
        .check_path(cell_of(world, unit), path, occupancy, rule)
        .map_err(|f| words.refusal(f))
}

/// The cell of a unit's entity.
pub fn cell_in(e: EntityRef<'_>) -> Cell {
    e.get::<Position>().map_or(Cell::default(), |p| p.0)
}

/// The side of a unit's entity.
pub fn side_in(e: EntityRef<'_>) -> SideId {
    e.get::<Unit>().map_or(SideId(u32::MAX), |u| u.side)
}

/// Who stands where, as seen by a mover of `side`, given the cells and sides of the
/// other units in play (as [`occupancy_for`] reads them).
pub fn occupancy_among(
    side: SideId,
    others: Vec<(Cell, SideId)>,
) -> impl Fn(Cell) -> Occupancy + use<> {
    // Who is an ally, by cell: the first unit listed there, as a scan of the list
    // would find it (a map, so that a search over a big battle's cells doesn't scan
    // hundreds of units for each one).
    let mut by_cell: FxHashMap<Cell, Occupancy> = FxHashMap::default();
    for (c, s) in others {
        by_cell.entry(c).or_insert(seen_by(side, s));
    }
    move |cell| by_cell.get(&cell).copied().unwrap_or(Occupancy::Free)
}

/// How a mover of side `mover` sees a cell a unit of side `there` stands on.
fn seen_by(mover: SideId, there: SideId) -> Occupancy {
    if mover == there {
        Occupancy::Ally
    } else {
        Occupancy::Blocked
    }
}

/// Whether the rules should stop: the battle ended or a step failed.
pub fn halted(world: &World) -> bool {
    world.resource::<TurnState>().ended.is_some() || world.resource::<Fault>().0.is_some()
}

/// Checks the victory rule after a unit leaves play or a round ends; emits
/// `BattleEnded` and returns true when the battle is over: when at most one side
/// still has a unit that holds the field (an active one; a dying one only under
/// [`DyingCountsForVictory`]`(true)`, see [`PlayState`]). That side wins; none is a
/// draw.
pub fn check_victory(world: &mut World) -> bool {
    if world.resource::<TurnState>().ended.is_some() {
        return true;
    }
    let dying_counts = world
        .get_resource::<DyingCountsForVictory>()
        .is_some_and(|d| d.0);
    let mut standing: Vec<SideId> = roster_entities(world)
        .filter(|&(_, e)| PlayState::of(e).holds_the_field(dying_counts))
        .map(|(_, e)| side_in(e))
        .collect();
    standing.sort();
    standing.dedup();
    let round = world.resource::<TurnState>().round;
    let winner = match standing.len() {
        0 => None,
        1 => Some(standing[0]),
        _ => return false,
    };
    emit(
        world,
        Event::BattleEnded {
            winner,
            rounds: round,
        },
    );
    true
}

/// The first checks of a command in a ruleset whose battle asks decisions and
/// gives units turns one at a time (`escalation`, `wounds`): while a decision is
/// pending only its answers are legal (`Ok(None)`); an answer with none pending is
/// refused; a unit's command is legal only on its turn (`Ok(Some(unit))`: the
/// ruleset checks the rest).
pub fn turn_of(world: &World, command: &Command) -> Result<Option<UnitId>, CommandError> {
    if let Some(p) = &world.resource::<Pending>().0 {
        return if p.answers().any(|a| a == command) {
            Ok(None)
        } else {
            Err(CommandError::DecisionPending {
                side: crate::engine::command::Names::side_name(world, p.side),
                what: p.about.clone(),
            })
        };
    }
    let active = world.resource::<TurnState>().active;
    let Some(unit) = command.unit() else {
        return Err(CommandError::NoDecisionPending);
    };
    if Some(unit) != active {
        return Err(CommandError::NotYourTurn {
            unit: name(world, unit),
            reason: match active {
                Some(a) => format!("it is {}'s turn", name(world, a)),
                None => "no turn is on".into(),
            },
        });
    }
    Ok(Some(unit))
}

/// Declares a draw if the round limit has been reached (called at the end of a round).
pub fn check_round_limit(world: &mut World) -> bool {
    let round = world.resource::<TurnState>().round;
    match world.resource::<VictoryRule>().0.max_rounds {
        Some(max) if round >= max => {
            emit(
                world,
                Event::BattleEnded {
                    winner: None,
                    rounds: round,
                },
            );
            true
        }
        _ => false,
    }
}

/// Checks the `options` of a core `command` (`Attack`, `Move`) against those the
/// ruleset declares for it: one it does not declare is refused in words ("attacks
/// in `phases` take no `aim`: leave it out"); the others as a verb's arguments are.
fn check_options(
    ruleset: &dyn Ruleset,
    command: &'static str,
    declared: &'static [crate::engine::verb::ArgSpec],
    options: &crate::engine::verb::Args,
) -> Result<(), CommandError> {
    if options.is_empty() {
        return Ok(());
    }
    let noun = if command == "Attack" {
        "attacks"
    } else {
        "moves"
    };
    if let Some((name, _)) = options
        .iter()
        .find(|(n, _)| !declared.iter().any(|a| a.name == *n))
    {
        let known: Vec<String> = declared.iter().map(|a| format!("`{}`", a.name)).collect();
        let takes = if known.is_empty() {
            String::new()
        } else {
            format!(" (they take {})", known.join(", "))
        };
        return Err(CommandError::Forbidden(format!(
            "{noun} in `{}` take no `{name}`{takes}: leave it out",
            ruleset.id()
        )));
    }
    let spec = crate::engine::verb::VerbSpec {
        args: declared,
        ..crate::engine::verb::VerbSpec::new(command, "", &[])
    };
    Ok(spec.check(options)?)
}

/// What the battle is waiting for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Awaiting {
    /// A command from this unit (its turn in this stage).
    Unit(UnitId, Stage),
    /// An answer to this decision (boxed: it is much larger than the others).
    Decision(Box<PendingDecision>),
    /// Nothing: the battle is over; the winner, `None` for a draw.
    Over(Option<SideId>),
}

/// A running battle: the engine's front door for the UI, the AI, scripts and tests.
///
/// The rules' plugins are added to a Bevy `App` at set-up; the battle then keeps only
/// the app's `World` (which holds the schedules), so a `Battle` is `Send + Sync`: the
/// window stores it as a resource and the simulator runs battles on many threads.
pub struct Battle {
    world: World,
    /// The active ruleset (also in the world as [`ActiveRuleset`], for systems): kept
    /// here so the AI's millions of odds queries skip the resource look-up.
    ruleset: &'static dyn Ruleset,
    /// Every command accepted so far, in order: with the level and the dice they
    /// replay the battle (see [`crate::replay`]).
    commands: Vec<Command>,
    /// For each command, whether it rolled dice (a take-back stops there).
    rolled: Vec<bool>,
}

impl Battle {
    /// Sets up a battle on a (validated) level with the given dice, played by
    /// `ruleset` whatever the level's `ruleset` field says, and plays it up to the
    /// first point that needs input. The core knows no ruleset by id: the
    /// catalogue's `new_battle` (`src/engine/rulesets/mod.rs`) looks up the one the
    /// level names (a ruleset passed here need not be registered: a test's toy).
    pub fn from_level_with(
        ruleset: &'static dyn Ruleset,
        level: &Level,
        dice: Dice,
    ) -> Result<Battle, String> {
        let mut app = Battle::app(ruleset);
        let (w, h) = level.size;
        let mut board = Board::new(level.grid, w, h);
        for (y, row) in level.terrain.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                let t = Terrain::from_symbol(c)
                    .ok_or_else(|| format!("bad terrain character `{c}` at row {y}"))?;
                board.set_terrain(Cell::new(x as i32, y as i32), t);
            }
        }
        let world = app.world_mut();
        world.insert_resource(Map(board));
        world.insert_resource(Sides(
            level
                .sides
                .iter()
                .map(|s| SideInfo {
                    name: s.name.clone(),
                    controller: s.controller,
                    decisions: s.decisions,
                })
                .collect(),
        ));
        world.insert_resource(dice);
        world.insert_resource(EventLog::default());
        world.insert_resource(TurnState {
            round: 0,
            stage: Stage::Initiative,
            active: None,
            ended: None,
        });
        world.insert_resource(Pending::default());
        world.insert_resource(Incoming::default());
        world.insert_resource(Progress::default());
        world.insert_resource(Fault::default());
        world.insert_resource(VictoryRule(level.victory));
        ruleset
            .setup(app.world_mut(), level)
            .map_err(|e| e.to_string())?;
        app.world_mut().insert_resource(ActiveRuleset(ruleset));
        let mut battle = Battle {
            world: std::mem::take(app.world_mut()),
            ruleset,
            commands: Vec::new(),
            rolled: Vec::new(),
        };
        battle.advance().map_err(|e| e.to_string())?;
        Ok(battle)
    }

    /// A Bevy app with the battle schedule, its stage sets and `ruleset`'s systems,
    /// and nothing in its world yet.
    fn app(ruleset: &'static dyn Ruleset) -> App {
        let mut app = App::new();
        app.init_schedule(BattleSchedule);
        // Before any unit is placed, so that it sees every one.
        app.init_resource::<Occupants>();
        // The components the rules query every unit for, registered before any unit
        // has them, so that those queries always build (a unit without a `PlayState`
        // or `Reach` reads as having none); and the queries, kept from call to call.
        let world = app.world_mut();
        world.register_component::<Position>();
        world.register_component::<Unit>();
        world.register_component::<PlayState>();
        world.register_component::<Reach>();
        world.register_component::<Powers>();
        app.init_resource::<CachedQuery<StandingQuery>>();
        // The schedule is a handful of small systems run many times per command:
        // spreading them over threads costs far more than it saves.
        app.edit_schedule(BattleSchedule, |schedule| {
            schedule.set_executor(SingleThreadedExecutor::new());
        });
        app.configure_sets(
            BattleSchedule,
            (
                BattleStage::Initiative,
                BattleStage::Movement,
                BattleStage::Attack,
                BattleStage::EndOfTurn,
            )
                .chain(),
        );
        ruleset.build(&mut app);
        app
    }

    /// An independent copy of this battle as it stands, rolling `dice` from now on:
    /// the same units, log, commands and pending question, with the same ruleset's
    /// schedule in a world of its own (see [`crate::engine::fork`]). What is
    /// submitted to the fork leaves this battle untouched. For look-ahead (the
    /// `hard` AI).
    pub fn fork(&self, dice: Dice) -> Battle {
        let mut app = Battle::app(self.ruleset);
        let mut battle = Battle {
            world: std::mem::take(app.world_mut()),
            ruleset: self.ruleset,
            commands: Vec::new(),
            rolled: Vec::new(),
        };
        battle.restore_from(self, dice);
        battle
    }

    /// Makes this battle a copy of `from` as it stands (as [`Battle::fork`] does,
    /// without building a schedule), rolling `dice` from now on. Both must play the
    /// same ruleset; a battle of another ruleset becomes a fresh fork of `from`.
    pub fn restore_from(&mut self, from: &Battle, dice: Dice) {
        if self.ruleset.id() != from.ruleset.id() {
            *self = from.fork(dice);
            return;
        }
        crate::engine::fork::restore(&from.world, &mut self.world);
        self.world.insert_resource(dice);
        self.commands.clone_from(&from.commands);
        self.rolled.clone_from(&from.rolled);
    }

    /// Replaces the dice the battle rolls from now on (a fork's test compares the
    /// fork with its source under the same new dice).
    pub fn set_dice(&mut self, dice: Dice) {
        self.world.insert_resource(dice);
    }

    /// Runs the rules until they need input. A dice failure is returned.
    fn advance(&mut self) -> Result<(), CommandError> {
        loop {
            let world = &mut self.world;
            world.resource_mut::<Progress>().0 = false;
            world.run_schedule(BattleSchedule);
            if let Some(err) = world.resource_mut::<Fault>().0.take() {
                return Err(err);
            }
            if !world.resource::<Progress>().0 {
                return Ok(());
            }
        }
    }

    /// Whether `command` is legal now, and if not, why.
    pub fn check(&self, command: &Command) -> Result<(), CommandError> {
        let world = &self.world;
        if world.resource::<TurnState>().ended.is_some() {
            return Err(CommandError::BattleOver);
        }
        for u in command.unit().into_iter() {
            find(world, u).ok_or(CommandError::NoSuchUnit(u.0))?;
        }
        match command {
            Command::Attack { options, .. } => {
                check_options(
                    self.ruleset,
                    "Attack",
                    self.ruleset.attack_options(),
                    options,
                )?;
            }
            Command::Move { options, .. } => {
                check_options(self.ruleset, "Move", self.ruleset.move_options(), options)?;
            }
            _ => {}
        }
        let declared = match command {
            Command::Act { verb, args, .. } => {
                Some((crate::engine::verb::lookup(self.ruleset, verb)?, args))
            }
            Command::Answer { verb, args, .. } => Some((
                crate::engine::verb::lookup_answer(self.ruleset, verb)?,
                args,
            )),
            _ => None,
        };
        if let Some((spec, args)) = declared {
            spec.check(args)?;
            for u in args.units() {
                find(world, u).ok_or(CommandError::NoSuchUnit(u.0))?;
            }
        }
        self.ruleset.check(world, command)
    }

    /// Checks and executes a command, then runs the rules until they need input.
    /// Returns the events it caused.
    pub fn submit(&mut self, command: Command) -> Result<&[Event], CommandError> {
        self.check(&command)?;
        let before = self.events().len();
        let dice_before = self.world.resource::<Dice>().rolled();
        self.world.resource_mut::<Incoming>().0 = Some(command.clone());
        self.advance()?;
        if let Some(cmd) = self.world.resource_mut::<Incoming>().0.take() {
            return Err(CommandError::WrongStage(format!(
                "no rule handled {} (engine bug)",
                cmd.display(&self.world)
            )));
        }
        self.commands.push(command);
        let dice_after = self.world.resource::<Dice>().rolled();
        self.rolled.push(dice_after != dice_before);
        Ok(&self.events()[before..])
    }

    /// Whether the last accepted command rolled dice.
    pub fn last_rolled(&self) -> bool {
        self.rolled.last().copied().unwrap_or(false)
    }

    /// Every command accepted so far, in order.
    pub fn commands(&self) -> &[Command] {
        &self.commands
    }

    /// Every event so far.
    pub fn events(&self) -> &[Event] {
        &self.world.resource::<EventLog>().0
    }

    /// What the battle waits for.
    pub fn awaiting(&self) -> Awaiting {
        let world = &self.world;
        let t = world.resource::<TurnState>();
        if let Some(w) = t.ended {
            return Awaiting::Over(w);
        }
        if let Some(d) = &world.resource::<Pending>().0 {
            return Awaiting::Decision(Box::new(d.clone()));
        }
        match t.active {
            Some(u) => Awaiting::Unit(u, t.stage),
            None => Awaiting::Over(None),
        }
    }

    /// Exact odds of an attack as things stand (see [`AttackPreview`]).
    pub fn preview_attack(
        &self,
        attacker: UnitId,
        target: UnitId,
        power: Option<&str>,
    ) -> Option<AttackPreview> {
        let world = self.world();
        self.ruleset.preview_attack(world, attacker, target, power)
    }

    /// The odds of an attack made with these attack options, with what they add
    /// (see [`Ruleset::preview_attack_with`]).
    pub fn preview_attack_with(
        &self,
        attacker: UnitId,
        target: UnitId,
        power: Option<&str>,
        options: &crate::engine::verb::Args,
    ) -> Option<crate::engine::ruleset::OptionPreview> {
        self.ruleset
            .preview_attack_with(self.world(), attacker, target, power, options)
    }

    /// The attack's preview with each choice of the attack options a player
    /// chooses among (see [`crate::engine::options::choice_previews`]).
    pub fn choice_previews(
        &self,
        attacker: UnitId,
        target: UnitId,
        power: Option<&str>,
    ) -> Vec<crate::engine::options::ChoicePreview> {
        crate::engine::options::choice_previews(self.ruleset, self.world(), attacker, target, power)
    }

    /// The numbers of [`Battle::preview_attack`] without the text, under hypothetical
    /// moves (see [`Assume`]; `Assume::default()` gives exactly the preview's numbers).
    /// Cheap: for the AI, which asks this thousands of times a turn.
    pub fn attack_odds(
        &self,
        attacker: UnitId,
        target: UnitId,
        power: Option<&str>,
        assume: Assume<'_>,
    ) -> Option<AttackOdds> {
        let world = self.world();
        self.ruleset
            .attack_odds(world, attacker, target, power, assume)
    }

    /// Exact chance that `command`, a special action with a roll of its own (a `flow`
    /// Feint), succeeds; `None` for commands without one (see
    /// [`crate::engine::ruleset::AiHints::action_chance`]).
    pub fn action_chance(&self, command: &Command) -> Option<f64> {
        let world = self.world();
        self.ruleset.action_chance(world, command)
    }

    /// Cost and provocations of a move (see [`MovePreview`]).
    pub fn preview_move(&self, unit: UnitId, power: &str, path: &[Cell]) -> MovePreview {
        let world = self.world();
        self.ruleset.preview_move(world, unit, power, path)
    }

    /// The ruleset's own name for a stage.
    pub fn stage_name(&self, stage: Stage) -> &'static str {
        self.ruleset.stage_name(stage)
    }

    /// This round's turn order(s), labelled in the ruleset's terms.
    pub fn turn_order(&self) -> Vec<TurnOrder> {
        let world = self.world();
        self.ruleset.turn_order(world)
    }

    /// A unit's pools and resources.
    pub fn pools(&self, unit: UnitId) -> Vec<(String, i32)> {
        let world = self.world();
        self.ruleset.pools(world, unit)
    }

    /// The active ruleset's id.
    pub fn ruleset(&self) -> &'static str {
        self.ruleset.id()
    }

    /// The active ruleset itself, for what the shortcuts here don't ask (the AI's
    /// and the editor's queries, see [`Ruleset`]).
    pub fn rules(&self) -> &'static dyn Ruleset {
        self.ruleset
    }

    /// Every legal command now.
    pub fn legal_commands(&self) -> Vec<Command> {
        let world = &self.world;
        if world.resource::<TurnState>().ended.is_some() {
            return Vec::new();
        }
        self.ruleset.legal(world)
    }

    /// The current round and stage.
    pub fn turn(&self) -> &TurnState {
        self.world.resource::<TurnState>()
    }

    /// The world, read-only (for views and the AI). Change it only through commands.
    pub fn world(&self) -> &World {
        &self.world
    }

    /// The world, to change it behind the rules' back: for tests of the core only.
    #[cfg(test)]
    pub(crate) fn world_mut(&mut self) -> &mut World {
        &mut self.world
    }

    /// The id of the unit with this name (exact, then case-insensitive).
    pub fn unit_id(&self, unit_name: &str) -> Option<UnitId> {
        let world = self.world();
        let n = world.resource::<Roster>().0.len() as u32;
        let ids = (0..n).map(UnitId);
        ids.clone()
            .find(|&u| name(world, u) == unit_name)
            .or_else(|| {
                ids.into_iter()
                    .find(|&u| name(world, u).eq_ignore_ascii_case(unit_name))
            })
    }

    /// The id of the side with this name (case-insensitive).
    pub fn side_id(&self, side_name: &str) -> Option<SideId> {
        self.world()
            .resource::<Sides>()
            .0
            .iter()
            .position(|s| s.name.eq_ignore_ascii_case(side_name))
            .map(|i| SideId(i as u32))
    }

    /// Name of a unit.
    pub fn unit_name(&self, unit: UnitId) -> String {
        name(self.world(), unit)
    }

    /// Name of a side.
    pub fn side_name(&self, side: SideId) -> String {
        self.world()
            .resource::<Sides>()
            .0
            .get(side.0 as usize)
            .map_or_else(|| format!("side #{}", side.0), |s| s.name.clone())
    }

    /// Sets how a side answers optional decisions.
    pub fn set_decision_policy(
        &mut self,
        side: SideId,
        policy: DecisionPolicy,
    ) -> Result<(), CommandError> {
        if let Some(s) = self
            .world
            .resource_mut::<Sides>()
            .0
            .get_mut(side.0 as usize)
        {
            s.decisions = policy;
        }
        self.advance()
    }

    /// Snapshots of every unit, in roster order.
    pub fn units(&self) -> Vec<UnitView> {
        let world = self.world();
        let sides = &world.resource::<Sides>().0;
        world
            .resource::<Roster>()
            .0
            .iter()
            .enumerate()
            .filter_map(|(i, &e)| {
                let u = world.get::<Unit>(e)?;
                let h = world.get::<Health>(e)?;
                Some(UnitView {
                    id: UnitId(i as u32),
                    name: u.name.clone(),
                    side: sides
                        .get(u.side.0 as usize)
                        .map_or_else(String::new, |s| s.name.clone()),
                    cell: world.get::<Position>(e).map_or(Cell::default(), |p| p.0),
                    hp: h.hp,
                    max_hp: h.max,
                    conditions: world
                        .get::<Conditions>(e)
                        .map(|c| c.0.iter().map(|c| c.name.clone()).collect())
                        .unwrap_or_default(),
                    defeated: world.get::<PlayState>(e).is_some_and(|s| !s.is_active()),
                    state: world.get::<PlayState>(e).copied().unwrap_or_default(),
                })
            })
            .collect()
    }
}
