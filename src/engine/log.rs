//! Human-readable combat log lines for events, with every die face shown, and the
//! names users know the engine's values by (grid kinds, terrain, sizes...).
//!
//! [`describe`] gives every event its line (the JSON log's `text`); [`line`] is the
//! human log, which leaves out quiet bookkeeping events. A ruleset's own events
//! ([`crate::engine::event::Narration`]) write their lines themselves, naming units
//! through [`Names`].

use bevy_ecs::world::World;

use crate::engine::battle::{ActiveRuleset, Sides, name};
use crate::engine::board::{GridKind, Terrain};
use crate::engine::conditions::condition_word;
use crate::engine::event::{Event, RollModifier, Stage};
use crate::engine::skill::Edge;
use crate::engine::spec::{Hand, Size};
use crate::engine::units::{SideId, UnitId};

/// How log lines name what they mention: units, sides and stages, as the battle
/// knows them. Given to a ruleset's [`crate::engine::event::Narration::text`].
#[derive(Clone, Copy)]
pub struct Names<'w> {
    world: &'w World,
}

impl<'w> Names<'w> {
    /// The names of a battle's world.
    pub fn new(world: &'w World) -> Self {
        Self { world }
    }

    /// A unit's name (`#3` for an id the battle does not have).
    pub fn unit(&self, unit: UnitId) -> String {
        name(self.world, unit)
    }

    /// Units' names, joined with `, `.
    pub fn units(&self, units: &[UnitId]) -> String {
        units
            .iter()
            .map(|u| self.unit(*u))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// A side's name (`side #3` for an id the battle does not have).
    pub fn side(&self, side: SideId) -> String {
        self.world
            .get_resource::<Sides>()
            .and_then(|s| s.0.get(side.0 as usize))
            .map_or_else(|| format!("side #{}", side.0), |s| s.name.clone())
    }

    /// The active ruleset's name for a stage (phases' names when none is set up).
    pub fn stage(&self, stage: Stage) -> &'static str {
        self.world
            .get_resource::<ActiveRuleset>()
            .map_or(stage_name(stage), |r| r.stage_name(stage))
    }

    /// The world, for what a ruleset's line needs beyond names.
    pub fn world(&self) -> &'w World {
        self.world
    }
}

/// How the `phases` ruleset names each stage.
pub fn stage_name(stage: Stage) -> &'static str {
    match stage {
        Stage::Initiative => "Initiative Phase",
        Stage::Movement => "Movement Phase",
        Stage::Attack => "Battle Phase",
        Stage::EndOfTurn => "End Phase",
    }
}

/// The name users know a grid kind by: `Square` or `Hex` (as in a level file).
pub fn grid_name(grid: GridKind) -> &'static str {
    match grid {
        GridKind::Square => "Square",
        GridKind::Hex => "Hex",
    }
}

/// The name of a kind of terrain: `Open`, `Difficult`, `Impassable`, `Water` or
/// `Climb`.
pub fn terrain_name(terrain: Terrain) -> &'static str {
    match terrain {
        Terrain::Open => "Open",
        Terrain::Difficult => "Difficult",
        Terrain::Impassable => "Impassable",
        Terrain::Water => "Water",
        Terrain::Climb => "Climb",
    }
}

/// The name of a size category (as in a level file): `Small` … `Gargantuan`.
pub fn size_name(size: Size) -> &'static str {
    match size {
        Size::Small => "Small",
        Size::Medium => "Medium",
        Size::Large => "Large",
        Size::Huge => "Huge",
        Size::Gargantuan => "Gargantuan",
    }
}

/// The name of where a weapon is held: `Main`, `Off` or `Stowed` (as in a level file).
pub fn hand_name(hand: Hand) -> &'static str {
    match hand {
        Hand::Main => "Main",
        Hand::Off => "Off",
        Hand::Stowed => "Stowed",
    }
}

/// The name of an edge on a check: `Advantage` or `Disadvantage`.
pub fn edge_name(edge: Edge) -> &'static str {
    match edge {
        Edge::Advantage => "Advantage",
        Edge::Disadvantage => "Disadvantage",
    }
}

/// Die faces as the log shows them: `[4, 2, 6]`.
pub fn faces(f: &[u32]) -> String {
    let v: Vec<String> = f.iter().map(|x| x.to_string()).collect();
    format!("[{}]", v.join(", "))
}

/// The human log's line for an event: `None` for a quiet one (bookkeeping other
/// lines already tell, e.g. phases' per-turn pools, and the record of an attack,
/// whose roll the ruleset's narration tells).
pub fn line(world: &World, event: &Event) -> Option<String> {
    match event {
        Event::PointsChanged { quiet: true, .. } | Event::AttackResolved { .. } => None,
        _ => Some(describe(world, event)),
    }
}

/// One log line for an event (quiet ones included: the JSON log's `text`).
pub fn describe(world: &World, event: &Event) -> String {
    let names = Names::new(world);
    let stage_name = |s: Stage| names.stage(s);
    let n = |u: &UnitId| names.unit(*u);
    let side = |s: &SideId| names.side(*s);
    let list = |us: &[UnitId]| names.units(us);
    match event {
        Event::RoundStarted { round } => format!("=== Round {round} ==="),
        Event::StageStarted { stage } => format!("-- {} --", stage_name(*stage)),
        Event::InitiativeRolled {
            unit,
            faces: f,
            modifier,
            total,
        } => {
            format!(
                "{} rolls initiative {} {modifier:+} = {total}",
                n(unit),
                faces(f)
            )
        }
        Event::TieBreakRolled { unit, face } => format!("{} rolls {face} to break a tie", n(unit)),
        Event::OrderSet { stage, order } => {
            format!("{} order: {}", stage_name(*stage), list(order))
        }
        Event::TurnStarted { unit, stage } => {
            format!("{}'s turn ({})", n(unit), stage_name(*stage))
        }
        Event::Moved {
            unit,
            from,
            to,
            cost,
        } => format!("{} moves {from} -> {to} (cost {cost})", n(unit)),
        Event::MovementStopped { unit, reason } => format!("{} stops: {reason}", n(unit)),
        Event::Damaged {
            unit,
            faces: f,
            amount,
            hp,
            ..
        } => {
            format!("{} takes {amount} damage {} -> {hp} HP", n(unit), faces(f))
        }
        Event::Healed {
            unit,
            faces: f,
            amount,
            hp,
            ..
        } => format!("{} heals {amount} {} -> {hp} HP", n(unit), faces(f)),
        Event::Defeated { unit, state, .. } => format!("{} {}!", n(unit), state.phrase()),
        Event::ConditionAdded { unit, condition } => {
            let worded = crate::engine::conditions::Condition {
                name: condition_word(world, &condition.name).to_string(),
                ..condition.clone()
            };
            format!("{} is now {worded}", n(unit))
        }
        Event::ConditionRemoved {
            unit,
            name: c,
            reason,
        } => format!(
            "{} is no longer {}: {reason}",
            n(unit),
            condition_word(world, c)
        ),
        Event::ItemUsed {
            unit,
            item,
            uses_left,
        } => format!("{} uses {item} ({uses_left} left)", n(unit)),
        Event::TurnEnded { unit } => format!("{} ends its turn", n(unit)),
        Event::ActionDeclared {
            unit,
            action,
            ap,
            left,
            ..
        } => format!("{}: {action} ({ap} AP, {left} left)", n(unit)),
        Event::PointsChanged {
            unit,
            pool,
            delta,
            now,
            reason,
            ..
        } => format!("{} {delta:+} {pool} ({reason}) -> {now}", n(unit)),
        Event::HeldChanged { unit, item, hand } => match hand {
            crate::engine::spec::Hand::Stowed => format!("{} sheathes {item}", n(unit)),
            h => format!("{} draws {item} ({} hand)", n(unit), hand_name(*h)),
        },
        Event::ItemDropped { unit, item, cell } => {
            format!("{}'s {item} drops at {cell}", n(unit))
        }
        Event::ItemPickedUp {
            unit, item, cell, ..
        } => format!("{} picks up {item} at {cell}", n(unit)),
        Event::ItemTaken {
            unit, from, item, ..
        } => format!("{} takes {item} from {}", n(unit), n(from)),
        Event::BattleEnded { winner, rounds } => match winner {
            Some(s) => format!("*** {} wins after {rounds} round(s) ***", side(s)),
            None => format!("*** Draw after {rounds} round(s) ***"),
        },
        Event::Rolled {
            unit,
            purpose,
            dice,
            faces: f,
            kept,
            modifiers,
            total,
            target,
            against,
            outcome,
        } => rolled(
            &n(unit),
            purpose,
            against.as_ref().map(n).as_deref(),
            dice,
            f,
            kept,
            modifiers,
            *total,
            *target,
            outcome,
        ),
        Event::AttackResolved {
            attacker,
            target,
            power,
            outcome,
            damage,
            odds,
        } => {
            let mut s = format!(
                "{}'s {power} on {}: {outcome:?}, {damage} damage",
                n(attacker),
                n(target)
            );
            if let Some(o) = odds {
                s += &format!(
                    " ({:.0}% to hit, {:.0}% to crit, {:.1} expected)",
                    o.hit * 100.0,
                    o.crit * 100.0,
                    o.expected_damage
                );
            }
            s
        }
        Event::Ruleset(r) => r.text(&names),
    }
}

/// The line of a [`Event::Rolled`]: `Squire rolls Disengage against Orc: 3d6 [4, 2, 6]
/// +1 AGI = 13 vs 11: success` (kept faces shown when some were dropped; the parts
/// without a value left out).
#[allow(clippy::too_many_arguments)]
fn rolled(
    unit: &str,
    purpose: &str,
    against: Option<&str>,
    dice: &str,
    f: &[u32],
    kept: &[u32],
    modifiers: &[RollModifier],
    total: i32,
    target: Option<i32>,
    outcome: &str,
) -> String {
    let mut s = format!("{unit} rolls {purpose}");
    if let Some(a) = against {
        s += &format!(" against {a}");
    }
    s += &format!(": {dice} {}", faces(f));
    if kept != f {
        s += &format!(" keeps {}", faces(kept));
    }
    for m in modifiers {
        s += &format!(" {:+} {}", m.value, m.name);
    }
    s += &format!(" = {total}");
    if let Some(t) = target {
        s += &format!(" vs {t}");
    }
    if !outcome.is_empty() {
        s += &format!(": {outcome}");
    }
    s
}
