//! The `flow` ruleset (seed 004, RULES.md §5): initiative 1d10 + Agility Modifier
//! rolled once; each unit spends 5 AP one action at a time; other units interrupt
//! with reactions paid from 2 RP; Flow Points are earned by hits, crits, reactions
//! and kills and decay each turn. Attacks and most actions are d100 roll-under skill
//! checks with success levels, settled against reactions by opposed checks.
//!
//! A unit's turn is a sequence of commands. Anything that can be interrupted — a
//! move that provokes Reaction Attacks, an attack that may be dodged, a riposte that
//! may itself be dodged — runs as a stack of [`Frame`]s in [`FlowState`]: when a
//! frame needs a reaction decision the engine stops with a
//! [`crate::engine::decision::PendingDecision`] and picks the frame up again when
//! the answer comes in, so reactions nest inside turns without blocking.
//!
//! Systems: [`turn::round_start`] in `Initiative`, [`turn::drive`] (turns, actions,
//! movement, attacks and reactions) in `Attack`, [`turn::end_steps`] (end of turn and
//! end of round) in `EndOfTurn`. Legality lives in [`check`], attack maths and the
//! odds every decision shows in [`attack`]. [`Flow`] is what the engine, the editor
//! and the AI ask of it (the [`crate::engine::ruleset::Ruleset`] seam).

pub mod actions;
pub mod archetype;
pub mod attack;
pub mod check;
pub mod config;
pub mod events;
pub mod level_check;
pub mod movement;
pub mod preview;
pub mod reactions;
pub mod ruleset;
pub mod turn;
pub mod verbs;

/// The pools of `flow` (F-07, F-09, F-12).
pub mod pools {
    use crate::engine::units::Pool;
    /// Action Points, refilled at the start of the unit's turn (F-07).
    pub const AP: Pool = Pool::new("AP", "AP");
    /// Reaction Points, refilled at the start of the unit's turn (F-09).
    pub const RP: Pool = Pool::new("RP", "RP");
    /// Flow Points, earned and decaying (F-12 … F-16).
    pub const FP: Pool = Pool::new("FP", "FP");
}

use std::collections::VecDeque;
use std::sync::Arc;

use bevy_app::{App, Plugin};
use bevy_ecs::prelude::*;

pub use config::FlowConfig;
pub use reactions::{React, Reaction, ReactionRefusal};
pub use ruleset::Flow;
pub use verbs::{FlowAction, ReadyAction, ReadyTrigger, ShoveEffect, VERBS};

use crate::engine::battle::{
    BattleSchedule, BattleStage, Fault, Map, Roster, Sides, active_units, cell_of, emit, entity,
    is_active, ruleset_is,
};
use crate::engine::board::Cell;
use crate::engine::command::CommandError;
use crate::engine::event::{Event, Stage};
use crate::engine::ruleset::{
    MAX_HP, MAX_MODIFIER, MAX_POINTS, MAX_RANGE, MAX_SPEED, RulesetError, StatSpec, UnitProblem,
    side_index, unit_basics,
};
use crate::engine::schedule::TurnQueue;
use crate::engine::spec::{Controller, Hand, ItemEffect, Level, Size, WeaponCategory, WeaponDef};
use crate::engine::stack::Stack;
use crate::engine::units::*;
use crate::engine::walk::Walk;

/// The stats a `flow` unit has (F-01); skills, size, weapons and armor have their own
/// fields in the level.
pub const STATS: &[StatSpec] = &[
    StatSpec {
        name: "AgiMod",
        required: true,
        about: "Agility Modifier, added to the 1d10 initiative roll (F-02)",
        min: -MAX_MODIFIER,
        max: MAX_MODIFIER,
    },
    StatSpec {
        name: "HP",
        required: false,
        about: "hit points; default 20 for player characters, 12 otherwise (F-GAP-07)",
        min: 1,
        max: MAX_HP,
    },
    StatSpec {
        name: "Speed",
        required: false,
        about: "hexes per Move action; default 6 (F-44)",
        min: 0,
        max: MAX_SPEED,
    },
    StatSpec {
        name: "AP",
        required: false,
        about: "Action Points per turn; default 5 (F-07)",
        min: 0,
        max: MAX_POINTS,
    },
    StatSpec {
        name: "RP",
        required: false,
        about: "Reaction Points; default 2 (F-09)",
        min: 0,
        max: MAX_POINTS,
    },
    StatSpec {
        name: "PC",
        required: false,
        about: "1 for a player character (initiative ties, default HP); default 1 on a human side",
        min: 0,
        max: 1,
    },
];

/// The skills `flow` rolls (F-01).
pub const SKILLS: &[&str] = &[
    "Agility",
    "Athletics",
    "Melee",
    "Ranged",
    "Endurance",
    "Deception",
    "Knowledge",
];

/// The unit traits `flow` reads: the perks the seed names.
pub mod perks {
    /// "In general, attacking with your non-dominant hand will yield a -10 … There is
    /// a Perk to remove this detriment entirely" (F-51, seed 004 L175, under
    /// "Two-Weapon Fighting"): the unit's off-hand attacks take no off-hand penalty.
    pub const TWO_WEAPON_FIGHTING: &str = "Two-Weapon Fighting";
}

/// Every unit trait `flow` reads ([`perks`]); a side has none.
pub const UNIT_TRAITS: &[&str] = &[perks::TWO_WEAPON_FIGHTING];

/// The unit trait a phrase names (any letter case, spaces around ignored), or why
/// not, naming the valid ones.
pub fn unit_trait(phrase: &str) -> Result<&'static str, String> {
    let p = phrase.trim();
    UNIT_TRAITS
        .iter()
        .find(|t| t.eq_ignore_ascii_case(p))
        .copied()
        .ok_or_else(|| {
            format!(
                "`flow` reads no unit trait `{p}`; expected one of: {} (the off-hand perk, F-51)",
                UNIT_TRAITS.join(", ")
            )
        })
}

/// Condition names `flow` gives effects to.
pub mod conditions {
    /// +RP and Advantage on reactions until the unit's next turn (F-40).
    pub const TOTAL_DEFENSE: &str = "Total Defense";
    /// No FP decay at the end of this turn (F-35).
    pub const FLOW_STATE: &str = "Flow State";
    /// Advantage on the next physical attack on the unit in `about` (F-34).
    pub const FEINTING: &str = "Feinting";
    /// Holding a grappled unit (`about`) (F-36).
    pub const GRAPPLING: &str = "Grappling";
    /// Held by a grappler (`source`): no actions but breaking free, no moves, no reactions.
    pub const GRAPPLED: &str = "Grappled";
    /// Knocked down: must stand up before moving (F-38).
    pub const PRONE: &str = "Prone";
}

/// Where the round is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Step {
    /// A new round must start.
    #[default]
    RoundStart,
    /// Units take their turns in initiative order.
    Turns,
    /// The active unit's turn is ending (ongoing effects, FP decay).
    TurnEnd,
    /// The round is over.
    RoundEnd,
}

/// How an attack came about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AttackKind {
    /// An Attack action.
    Normal,
    /// A Reaction Attack: unmodified, no advanced reactions against it (F-25, F-29).
    Reaction,
    /// The attack of a Riposte (a Reaction Attack, F-30).
    Riposte,
    /// A Disarm attempt (F-32).
    Disarm {
        /// Take the item on a Hard success or better.
        take: bool,
        /// Or put it here.
        to: Option<Cell>,
    },
    /// A readied attack going off (F-37).
    Readied,
}

impl AttackKind {
    /// Whether it counts as a Reaction Attack (F-28, F-29, F-30).
    pub fn is_reaction(&self) -> bool {
        matches!(self, AttackKind::Reaction | AttackKind::Riposte)
    }
}

/// An attack in flight, after its check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttackCtx {
    /// Sequence number, for "one reaction per attack".
    pub id: u32,
    /// Attacker.
    pub attacker: UnitId,
    /// Target.
    pub target: UnitId,
    /// Weapon.
    pub weapon: WeaponDef,
    /// How it came about.
    pub kind: AttackKind,
    /// Its success level.
    pub level: crate::engine::skill::SuccessLevel,
    /// The exact odds it had before its check, for the record of the attack.
    pub odds: Option<crate::engine::event::Foreseen>,
}

/// Something that happens once the frames above it are done.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Later {
    /// An attack (after the Reaction Attacks a ranged attack or spell provoked).
    Attack {
        /// Attacker.
        attacker: UnitId,
        /// Target.
        target: UnitId,
        /// Weapon.
        weapon: WeaponDef,
        /// Kind.
        kind: AttackKind,
    },
    /// A special action (after the Reaction Attacks it provoked).
    Action {
        /// The unit.
        unit: UnitId,
        /// The action.
        action: FlowAction,
    },
    /// A readied action other than an attack going off (F-37).
    Readied {
        /// The readied unit.
        unit: UnitId,
        /// The unit that set the trigger off.
        by: UnitId,
        /// What it does.
        then: ReadyAction,
    },
    /// Drinking a potion / using an item.
    Item {
        /// The unit.
        unit: UnitId,
        /// Item name.
        item: String,
        /// Target of an attacking item.
        target: Option<UnitId>,
    },
}

/// A suspended piece of rules work (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Frame {
    /// A move in progress, one hex at a time.
    Move {
        /// The mover.
        unit: UnitId,
        /// The path still to walk: leaving a threatened hex provokes (not for Take a
        /// Step), each threatener once per action.
        walk: Walk,
        /// A grappled unit dragged along (F-GAP-15).
        dragging: Option<UnitId>,
    },
    /// Enemies that may make a Reaction Attack, asked one at a time.
    Provoke {
        /// The unit that provoked.
        mover: UnitId,
        /// What it did.
        trigger: String,
        /// Who may still be asked.
        candidates: VecDeque<UnitId>,
        /// Who is being asked now.
        asking: Option<UnitId>,
    },
    /// An attack that succeeded, waiting for the target side's reaction.
    Attack(AttackCtx),
    /// Work to do once the frames above are done.
    Then(Later),
}

/// The battle's `flow` state (held by the battle, see
/// [`crate::engine::ruleset::state`]): its configuration and damage dice, where the
/// round is, the suspended work and each unit's bookkeeping.
#[derive(Clone, Debug)]
pub struct FlowState {
    /// The configuration in force for this battle (never changed after setup).
    pub rules: Arc<FlowConfig>,
    /// Every damage roll of the battle (never changed after setup).
    pub damage: Arc<attack::DamageDice>,
    /// Suspended work, innermost last.
    pub stack: Stack<Frame>,
    /// Each unit's bookkeeping, by [`UnitId`].
    pub units: Vec<FlowUnit>,
    /// Where the round is.
    pub step: Step,
    /// Initiative order, highest first (F-02, F-05), and how far this round has got
    /// in it; Ready moves units in it (F-37).
    pub queue: TurnQueue,
    /// Whether this round is a Surprise Round (F-43).
    pub surprise_round: bool,
    /// Readied units to move before their triggerers at the next round (F-37).
    pub reorders: Vec<(UnitId, UnitId)>,
    /// The active unit asked to end its turn.
    pub end_turn: bool,
    /// Attacks made so far.
    pub attack_seq: u32,
    /// The last attack reacted to, and who reacted (F-11).
    pub last_reaction: Option<(u32, UnitId)>,
}

/// A readied action waiting for its trigger (F-37).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Readied {
    /// What to do; a readied attack names its weapon.
    pub then: ReadyAction,
    /// When.
    pub on: ReadyTrigger,
    /// AP set aside (F-GAP-18).
    pub ap: i32,
}

impl Readied {
    /// The weapon of the attack readied on the first enemy to enter reach — the
    /// readied attack `Ready(unit:, weapon:)` has always played, with its own log
    /// lines — or `None` for any other readied action.
    pub fn classic_attack(&self) -> Option<&str> {
        match (&self.then, self.on) {
            (ReadyAction::Attack { weapon: Some(w) }, ReadyTrigger::EntersReach) => Some(w),
            _ => None,
        }
    }
}

/// Per-unit `flow` bookkeeping not shown as a condition or pool.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FlowUnit {
    /// Turns started so far.
    pub turns: u32,
    /// Move actions declared this turn (F-08: at most 2).
    pub moves: u32,
    /// Hexes left of the current Move action (F-GAP-10).
    pub allowance: u32,
    /// Round of the last Take a Step (once per round, F-39).
    pub stepped: Option<u32>,
    /// Round of the last Feint (F-34).
    pub feinted: Option<u32>,
    /// Round of the last Shove (F-38).
    pub shoved: Option<u32>,
    /// Round of the last break-free attempt (F-36).
    pub broke_free: Option<u32>,
    /// Round the unit last gained FP from a reaction (F-14).
    pub reaction_fp: Option<u32>,
    /// Surprised and not yet had a turn: 0 RP (F-43, F-GAP-19).
    pub surprised: bool,
    /// A player character (F-GAP-08).
    pub pc: bool,
    /// A readied action waiting for its trigger (F-37).
    pub ready: Option<Readied>,
    /// The Two-Weapon Fighting perk: no off-hand penalty (F-51, [`perks`]).
    pub two_weapon_fighting: bool,
}

/// The `flow` systems in the engine's stage sets.
pub struct FlowPlugin;

impl Plugin for FlowPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            BattleSchedule,
            (
                turn::round_start.in_set(BattleStage::Initiative),
                turn::drive.in_set(BattleStage::Attack),
                turn::end_steps.in_set(BattleStage::EndOfTurn),
            )
                .run_if(ruleset_is("flow")),
        );
    }
}

/// How `flow` names the stages: it has turns, not phases.
pub fn stage_name(stage: Stage) -> &'static str {
    match stage {
        Stage::Initiative => "Initiative",
        Stage::Movement | Stage::Attack => "Turn",
        Stage::EndOfTurn => "End of round",
    }
}

/// Spawns the level's units and inserts the ruleset's state ([`FlowState`])
/// (the seam's `setup`, see [`Flow`]).
pub fn setup(world: &mut World, level: &Level) -> Result<(), RulesetError> {
    let config = crate::engine::ruleset::config::for_level::<FlowConfig>(&level.rules)?;
    for s in &config.surprisers {
        if !level.sides.iter().any(|d| d.name.eq_ignore_ascii_case(s)) {
            return Err(RulesetError::NoSuchSide {
                key: "surprisers",
                side: s.clone(),
            });
        }
    }
    // Every damage roll of the battle, checked and computed once (F-GAP-06).
    let mut damage = attack::DamageDice::default();
    let unarmed = config.unarmed_damage.to_string();
    damage
        .insert(&unarmed)
        .map_err(|why| RulesetError::ConfigDice {
            key: "unarmed_damage",
            dice: unarmed,
            why,
        })?;
    let mut roster = Vec::new();
    let mut units = Vec::new();
    for (i, def) in level.units.iter().enumerate() {
        let side = side_index(level, def)?;
        // What `skirmish check` refuses, the engine does not play either.
        check_unit(&config, def)
            .map_err(|e| RulesetError::unit(&def.name, UnitProblem::Other(e)))?;
        // Every damage roll of the unit's weapons and attacking items (`of`, `name`).
        let rolls = def.weapons.iter().map(|w| ("weapon", &w.name, &w.damage));
        let items = def.items.iter().filter_map(|item| match &item.effect {
            ItemEffect::Power(p) => Some(("item", &item.name, &p.damage)),
            _ => None,
        });
        for (of, name, dice) in rolls.chain(items) {
            damage.insert(dice).map_err(|why| {
                let (name, dice, why) = (name.clone(), dice.clone(), why.to_string());
                RulesetError::unit(
                    &def.name,
                    UnitProblem::Damage {
                        of,
                        name,
                        dice,
                        why,
                    },
                )
            })?;
        }
        let human = level.sides[side].controller == Controller::Human;
        let pc = def.stats.get("PC").map_or(human, |&v| v != 0);
        let max = match def.stats.get("HP") {
            Some(&hp) => hp,
            None if pc => config.hp_pc,
            None => config.hp_npc,
        };
        let e = world
            .spawn((
                unit_basics(i, def, side, max),
                Reach(def.size.reach()),
                ActionPool::default(),
                Powers::default(),
                MovementPowers(vec!["Move".into(), "Step".into()]),
                Items(def.items.clone()),
                Initiative::default(),
            ))
            .id();
        let equipment = Equipment(def.weapons.clone());
        let mut powers = equipment.as_powers(def.size);
        powers.push(crate::engine::spec::PowerDef {
            name: "Unarmed".into(),
            range: def.size.reach(),
            ranged: false,
            damage: config.unarmed_damage.to_string(),
            add_tier: false,
            on_hit: vec![],
            damage_type: None,
            traits: Vec::new(),
        });
        world.entity_mut(e).insert(Powers(powers));
        world.entity_mut(e).insert((
            Skills(def.skills.clone()),
            BodySize(def.size),
            Armor(def.armor),
            equipment,
        ));
        units.push(FlowUnit {
            pc,
            two_weapon_fighting: def
                .traits
                .iter()
                .any(|t| unit_trait(t) == Ok(perks::TWO_WEAPON_FIGHTING)),
            ..FlowUnit::default()
        });
        roster.push(e);
    }
    world.insert_resource(Roster(roster));
    crate::engine::ruleset::state::insert(
        world,
        FlowState {
            rules: Arc::new(config),
            damage: Arc::new(damage),
            stack: Stack::default(),
            units,
            step: Step::default(),
            queue: TurnQueue::default(),
            surprise_round: false,
            reorders: Vec::new(),
            end_turn: false,
            attack_seq: 0,
            last_reaction: None,
        },
    );
    world.insert_resource(GroundItems::default());
    Ok(())
}

/// The ranges of a unit's fields `flow` plays with: stats, skills, armor, weapon
/// reach and range, `on_hit` conditions (named in `ongoing`) and healing dice; the
/// first problem, in the words of the level. `skirmish check` reports the same
/// problems at their place in the file.
pub fn check_unit(config: &FlowConfig, def: &crate::engine::spec::UnitDef) -> Result<(), String> {
    crate::engine::ruleset::check_stats(STATS, &def.stats).map_err(|e| e.to_string())?;
    for t in &def.traits {
        unit_trait(t)?;
    }
    for (name, &v) in &def.skills {
        if !(0..=MAX_SKILL).contains(&v) {
            return Err(format!("skill `{name}` is {v}; expected 0 to {MAX_SKILL}"));
        }
    }
    if !(0..=MAX_HP).contains(&def.armor) {
        return Err(format!("`armor` is {}; expected 0 to {MAX_HP}", def.armor));
    }
    for w in &def.weapons {
        if !(1..=MAX_RANGE).contains(&w.reach) || w.range > MAX_RANGE {
            return Err(format!(
                "weapon {}: reach {} and range {}; expected reach 1 to {max} and range 0 to {max}",
                w.name,
                w.reach,
                w.range,
                max = MAX_RANGE
            ));
        }
        if let Some(c) = w.on_hit.iter().find(|c| !config.ongoing.contains_key(*c)) {
            return Err(format!(
                "weapon {}: `on_hit` condition `{c}` is not an ongoing condition",
                w.name
            ));
        }
    }
    for item in &def.items {
        if let Some(problem) = item_ap_problem(item) {
            return Err(problem);
        }
        match &item.effect {
            ItemEffect::Heal(dice) => {
                crate::engine::ruleset::parse_dice(dice)
                    .map_err(|e| format!("item {}: heals `{dice}`, which {e}", item.name))?;
            }
            ItemEffect::Power(p) => {
                if let Some(e) = p
                    .on_hit
                    .iter()
                    .find(|e| !config.ongoing.contains_key(&e.condition))
                {
                    return Err(format!(
                        "item {}: `on_hit` condition `{}` is not an ongoing condition",
                        item.name, e.condition
                    ));
                }
            }
            ItemEffect::Cleanse => {}
        }
    }
    Ok(())
}

/// Highest percentile skill a unit may have (F-01).
pub const MAX_SKILL: i32 = 200;

/// The AP a magic item's own `ap` may set: "Using a Magic Item: 1-2 AP (specific to
/// each item)" (F-08, seed 004 L41).
pub const ITEM_AP: std::ops::RangeInclusive<i32> = 1..=2;

/// The AP using an item costs (F-08): a potion (a `Heal` item) `costs.potion`, drawn
/// and drunk in one action (seed L40); any other item its own `ap` if it sets one,
/// else `costs.item` (seed L41).
pub fn item_cost(costs: &config::Costs, item: &crate::engine::spec::ItemDef) -> i32 {
    match item.effect {
        ItemEffect::Heal(_) => costs.potion,
        _ => item.ap.unwrap_or(costs.item),
    }
}

/// The problem of a potion (a `Heal` item) that sets its own `ap`: a potion costs
/// `costs.potion` (draw and drink, seed L40). `owner` follows the item's name in
/// the message (" of unit `P`", or nothing).
pub fn potion_ap_problem(item: &crate::engine::spec::ItemDef, owner: &str) -> Option<String> {
    match (item.ap, &item.effect) {
        (Some(ap), ItemEffect::Heal(_)) => Some(format!(
            "item `{}`{owner} is a potion and sets ap {ap}; a potion costs `costs.potion` \
             (draw and drink, seed L40); expected no `ap`",
            item.name
        )),
        _ => None,
    }
}

/// Why an item's own `ap` can't be played, if it can't: set on a potion
/// ([`potion_ap_problem`]) or out of [`ITEM_AP`].
pub fn item_ap_problem(item: &crate::engine::spec::ItemDef) -> Option<String> {
    let ap = item.ap?;
    if let Some(problem) = potion_ap_problem(item, "") {
        return Some(problem);
    }
    (!ITEM_AP.contains(&ap)).then(|| {
        format!(
            "item `{}` costs ap {ap}; expected {} to {} (a magic item costs 1-2 AP, seed L41)",
            item.name,
            ITEM_AP.start(),
            ITEM_AP.end()
        )
    })
}

/// Runs a rules step, turning an error (the dice ran out) into the battle's fault.
fn guarded(world: &mut World, step: impl FnOnce(&mut World) -> Result<(), CommandError>) {
    if let Err(e) = step(world) {
        world.resource_mut::<Fault>().0 = Some(e);
    }
}

// ------------------------------------------------------------------ shared helpers

/// The configuration in force.
pub fn rules(world: &World) -> &FlowConfig {
    &flow_state(world).rules
}

/// The battle's `flow` state.
pub fn flow_state(world: &World) -> &FlowState {
    crate::engine::ruleset::state::state(world)
}

/// The battle's `flow` state, to change it.
pub fn flow_state_mut(world: &mut World) -> &mut FlowState {
    crate::engine::ruleset::state::state_mut(world)
}

/// Suspends `frame` on top of the others.
pub fn push_frame(world: &mut World, frame: Frame) {
    flow_state_mut(world).stack.push(frame);
}

/// Drops the innermost suspended frame and returns it.
pub fn pop_frame(world: &mut World) -> Option<Frame> {
    flow_state_mut(world).stack.pop()
}

/// A copy of the innermost suspended frame.
pub fn top_frame(world: &World) -> Option<Frame> {
    flow_state(world).stack.top()
}

/// The innermost suspended frame, to update it in place.
pub fn top_frame_mut(world: &mut World) -> Option<&mut Frame> {
    flow_state_mut(world).stack.top_mut()
}

/// A unit's skill (the configured untrained value if it lists none).
pub fn skill(world: &World, unit: UnitId, name: &str) -> i32 {
    world
        .get::<Skills>(entity(world, unit))
        .and_then(|s| s.0.get(name).copied())
        .unwrap_or(rules(world).untrained_skill)
}

/// A unit's size.
pub fn size(world: &World, unit: UnitId) -> Size {
    world
        .get::<BodySize>(entity(world, unit))
        .map_or(Size::Medium, |s| s.0)
}

/// What is left in a pool.
pub fn pool(world: &World, unit: UnitId, pool: Pool) -> i32 {
    world
        .get::<ActionPool>(entity(world, unit))
        .map_or(0, |p| p.left(pool))
}

/// A unit's per-turn bookkeeping.
pub fn flow_unit(world: &World, unit: UnitId) -> FlowUnit {
    flow_state(world)
        .units
        .get(unit.0 as usize)
        .cloned()
        .unwrap_or_default()
}

/// Changes a unit's per-turn bookkeeping.
pub fn with_flow_unit(world: &mut World, unit: UnitId, f: impl FnOnce(&mut FlowUnit)) {
    if let Some(fu) = flow_state_mut(world).units.get_mut(unit.0 as usize) {
        f(fu);
    }
}

/// Changes a pool by `delta` (never below 0) and logs why.
pub fn change_points(world: &mut World, unit: UnitId, p: Pool, delta: i32, reason: &str) {
    let before = pool(world, unit, p);
    let now = (before + delta).max(0);
    if now == before {
        return;
    }
    emit(
        world,
        Event::PointsChanged {
            unit,
            pool: p,
            delta: now - before,
            now,
            reason: reason.into(),
            quiet: false,
        },
    );
}

/// Sets a pool to a value and logs why.
pub fn set_points(world: &mut World, unit: UnitId, p: Pool, value: i32, reason: &str) {
    let before = pool(world, unit, p);
    change_points(world, unit, p, value - before, reason);
}

/// Declares an action and spends its AP (F-03, F-08). Any action but a move or a
/// tumble ends the current Move action's leftover hexes (F-GAP-10).
pub fn declare(world: &mut World, unit: UnitId, action: &str, ap: i32) {
    let left = pool(world, unit, pools::AP) - ap;
    emit(
        world,
        Event::ActionDeclared {
            unit,
            action: action.into(),
            ap,
            left: left.max(0),
            pool: pools::AP,
        },
    );
    if action != "Move" && action != "Tumble Through" {
        with_flow_unit(world, unit, |f| f.allowance = 0);
    }
}

/// Gains FP for a successful reaction, once per round (F-14).
pub fn reaction_fp(world: &mut World, unit: UnitId) {
    let round = world.resource::<crate::engine::battle::TurnState>().round;
    if flow_unit(world, unit).reaction_fp == Some(round) {
        return;
    }
    with_flow_unit(world, unit, |f| f.reaction_fp = Some(round));
    let fp = rules(world).fp_reaction;
    change_points(
        world,
        unit,
        pools::FP,
        fp,
        "successful reaction (once per round)",
    );
}

pub use crate::engine::conditions::has;

/// The unit a condition of `unit` is about (Feinting, Grappling) or comes from (Grappled).
pub fn condition_link(world: &World, unit: UnitId, condition: &str) -> Option<UnitId> {
    let c = world
        .get::<Conditions>(entity(world, unit))?
        .get(condition)?;
    c.about.or(c.source)
}

/// Whether two units are enemies.
pub fn enemies(world: &World, a: UnitId, b: UnitId) -> bool {
    crate::engine::battle::side_of(world, a) != crate::engine::battle::side_of(world, b)
}

/// Unarmed strikes: Brawl, Reach by size (F-GAP-06).
pub fn unarmed(world: &World) -> WeaponDef {
    WeaponDef {
        name: "Unarmed".into(),
        damage: rules(world).unarmed_damage.to_string(),
        reach: 1,
        range: 0,
        category: WeaponCategory::Brawl,
        two_handed: false,
        held: Hand::Main,
        on_hit: vec![],
    }
}

/// Weapons a unit can attack with now: held weapons that attack, then Unarmed.
pub fn attack_weapons(world: &World, unit: UnitId) -> Vec<WeaponDef> {
    let mut out: Vec<WeaponDef> = world
        .get::<Equipment>(entity(world, unit))
        .map(|e| e.held().filter(|w| w.attacks()).cloned().collect())
        .unwrap_or_default();
    out.push(unarmed(world));
    out
}

/// The weapon a command names (the first held one if `None`), or why not.
pub fn weapon_named(
    world: &World,
    unit: UnitId,
    name: Option<&str>,
) -> Result<WeaponDef, CommandError> {
    let weapons = attack_weapons(world, unit);
    let Some(n) = name else {
        return Ok(weapons[0].clone());
    };
    if let Some(w) = weapons.iter().find(|w| w.name.eq_ignore_ascii_case(n)) {
        return Ok(w.clone());
    }
    let who = crate::engine::battle::name(world, unit);
    match world
        .get::<Equipment>(entity(world, unit))
        .and_then(|e| e.get(n).cloned())
    {
        Some(w) if w.held == Hand::Stowed => Err(CommandError::Forbidden(format!(
            "{who}'s {} is stowed: Draw it first (1 AP, F-33)",
            w.name
        ))),
        Some(w) => Err(CommandError::Forbidden(format!(
            "{who} cannot attack with {} (a shield)",
            w.name
        ))),
        None => Err(CommandError::Unknown {
            unit: who,
            kind: "weapon",
            name: n.into(),
        }),
    }
}

/// Reach with a melee weapon: the higher of size reach and weapon reach (F-46).
pub fn reach_with(world: &World, unit: UnitId, weapon: &WeaponDef) -> u32 {
    size(world, unit).reach().max(weapon.reach)
}

/// Threat range: the highest reach of any melee attack the unit can make now (F-46, F-47).
///
/// That is [`reach_with`] of the best of [`attack_weapons`]' melee weapons, worked
/// out without building them: Unarmed (reach 1, a melee weapon) is always among
/// them, so it is the unit's size reach, at least 1, or the longest reach of a held
/// melee weapon that attacks. (Asked for every enemy and every cell a move leaves,
/// so it reads the equipment in place.)
pub fn threat_reach(world: &World, unit: UnitId) -> u32 {
    threat_reach_of(world, entity(world, unit))
}

/// [`threat_reach`] of a unit's entity.
fn threat_reach_of(world: &World, unit: Entity) -> u32 {
    let held = world.get::<Equipment>(unit).map_or(0, |e| {
        e.held()
            .filter(|w| w.attacks() && !w.ranged() && w.category != WeaponCategory::Spell)
            .map(|w| w.reach)
            .max()
            .unwrap_or(0)
    });
    world
        .get::<BodySize>(unit)
        .map_or(Size::Medium, |s| s.0)
        .reach()
        .max(1)
        .max(held)
}

/// The best melee weapon for a Reaction Attack on a unit at `cell`: held melee
/// weapons that reach it, longest reach first, else Unarmed if in reach.
pub fn reaction_weapon(world: &World, unit: UnitId, cell: Cell) -> Option<WeaponDef> {
    let d = world
        .resource::<Map>()
        .0
        .distance(cell_of(world, unit), cell);
    attack_weapons(world, unit)
        .into_iter()
        .filter(|w| !w.ranged() && w.category != WeaponCategory::Spell)
        .find(|w| reach_with(world, unit, w) >= d)
}

/// Whether `unit` threatens `cell` (F-47).
pub fn threatens(world: &World, unit: UnitId, cell: Cell) -> bool {
    is_active(world, unit)
        && cell_of(world, unit) != cell
        && world
            .resource::<Map>()
            .0
            .distance(cell_of(world, unit), cell)
            <= threat_reach(world, unit)
}

/// Enemies of `unit` in play that threaten `cell`, in roster order.
pub fn threateners(world: &World, unit: UnitId, cell: Cell) -> Vec<UnitId> {
    Threats::against(world, unit).at(cell).collect()
}

/// The enemies of a unit in play with where they stand and how far they threaten
/// (F-47), read once: asking [`Threats::at`] for every cell of a path reads no
/// component, where [`threateners`] per cell would read every unit's each time.
/// Valid while no unit moves, falls or changes weapons.
pub struct Threats<'w> {
    world: &'w World,
    board: &'w crate::engine::board::Board,
    /// Enemy entity, its cell and its threat reach, in the units' table order.
    enemies: Vec<(Entity, Cell, u32)>,
}

impl<'w> Threats<'w> {
    /// The enemies in play of `unit`.
    pub fn against(world: &'w World, unit: UnitId) -> Self {
        let side = crate::engine::battle::side_of(world, unit);
        let enemies = crate::engine::battle::standing(world)
            .into_iter()
            .filter(|b| b.state.is_active() && b.side != side)
            .map(|b| (b.entity, b.cell, threat_reach_of(world, b.entity)))
            .collect();
        Threats {
            world,
            board: &world.resource::<Map>().0,
            enemies,
        }
    }

    /// The enemies that threaten `cell`, in roster order (as [`threateners`]).
    pub fn at(&self, cell: Cell) -> impl Iterator<Item = UnitId> + use<'w> {
        let mut found: Vec<UnitId> = self
            .enemies
            .iter()
            .filter(|&&(_, at, reach)| at != cell && self.board.distance(at, cell) <= reach)
            .filter_map(|&(e, _, _)| crate::engine::battle::unit_of(self.world, e))
            .collect();
        found.sort_unstable();
        found.into_iter()
    }
}

/// Whether a unit may react at all now: in play and not held in a grapple (F-GAP-15).
pub fn can_react(world: &World, unit: UnitId) -> bool {
    is_active(world, unit) && !has(world, unit, conditions::GRAPPLED)
}

/// How a side answers decisions.
pub fn policy(world: &World, unit: UnitId) -> crate::engine::spec::DecisionPolicy {
    let side = crate::engine::battle::side_of(world, unit);
    world.resource::<Sides>().0[side.0 as usize].decisions
}
