//! `phases` behind the [`Ruleset`] seam: what the battle, level checks, editor and AI
//! ask of it.

use std::collections::BTreeMap;

use bevy_app::App;
use bevy_ecs::world::World;

use super::{PhasesConfig, PhasesPlugin, STATS, check, conditions, preview};
use crate::engine::battle::entity;
use crate::engine::board::Cell;
use crate::engine::command::{Command, CommandError};
use crate::engine::event::Stage;
use crate::engine::problems::Issue;
use crate::engine::ruleset::config::{self, ConfigError};
use crate::engine::ruleset::{
    AiHints, LevelSchema, MoveHint, Presentation, Ruleset, RulesetError, StatSpec, Vocabulary,
};
use crate::engine::ruleset::{Assume, AttackOdds, AttackPreview, MovePreview, TurnOrder};
use crate::engine::ruleset::{ConditionBadge, badge_colour};
use crate::engine::spec::Level;
use crate::engine::units::{Conditions, Stats, UnitId};
use crate::engine::verb::{ArgSpec, VerbSpec};

use super::verbs::{PhasesAction, VERBS};

/// Factor on a unit's attacks after it disengaged (disadvantage until the end of
/// next round, P-21).
const DISENGAGED: f64 = 0.6;

/// The `phases` ruleset (RULES.md §1).
#[derive(Clone, Copy, Debug, Default)]
pub struct Phases;

/// The rule of `RULES.md` behind each word its roll events use (see
/// [`Presentation::rule_for`]): the first key (lower case) the word contains wins, so
/// specific keys come before general ones.
const GLOSSARY: &[(&str, &str)] = &[
    ("initiative tie", "P-GAP-02"),
    ("initiative modifier", "P-GAP-01"),
    ("initiative", "P-11"),
    ("tier difference", "P-24"),
    ("seized the initiative", "P-15"),
    ("target ran", "P-GAP-04"),
    ("defending", "P-27"),
    ("disengaged", "P-21"),
    ("hustled", "P-GAP-04"),
    ("charge", "P-GAP-04"),
    ("opportunity", "P-GAP-08"),
    ("saves against", "P-29"),
    ("sustains", "P-29"),
    ("atk", "P-23"),
    ("attack", "P-23"),
    // Conditions (the hover line names their rules).
    ("slowed", "P-18"),
    ("seized", "P-15"),
    ("running", "P-GAP-04"),
    ("charging", "P-GAP-04"),
];

impl Ruleset for Phases {
    fn id(&self) -> &'static str {
        "phases"
    }

    fn realize_archetype(
        &self,
        archetype: &crate::engine::archetype::Archetype,
        tier: u32,
    ) -> Result<crate::engine::spec::UnitDef, RulesetError> {
        super::archetype::realize(archetype, tier).map_err(RulesetError::Archetype)
    }

    fn stats(&self) -> &'static [StatSpec] {
        STATS
    }

    fn check_overrides(
        &self,
        overrides: &BTreeMap<String, ron::Value>,
    ) -> Result<(), RulesetError> {
        config::for_level::<PhasesConfig>(overrides).map(|_| ())
    }

    /// Every override checked on its own on top of the checked defaults, each
    /// problem at its key.
    fn override_problems(&self, overrides: &BTreeMap<String, ron::Value>) -> Vec<ConfigError> {
        config::override_problems::<PhasesConfig>(overrides)
    }

    fn build(&self, app: &mut App) {
        app.add_plugins(PhasesPlugin);
    }

    fn setup(&self, world: &mut World, level: &Level) -> Result<(), RulesetError> {
        super::setup(world, level)
    }

    fn check(&self, world: &World, command: &Command) -> Result<(), CommandError> {
        check::check(world, command)
    }

    fn legal(&self, world: &World) -> Vec<Command> {
        check::legal(world)
    }

    /// A Charge's `target` (P-21, [`super::movement::MOVE_OPTIONS`]).
    fn move_options(&self) -> &'static [ArgSpec] {
        super::movement::MOVE_OPTIONS
    }

    fn preview_attack(
        &self,
        world: &World,
        attacker: UnitId,
        target: UnitId,
        power: Option<&str>,
    ) -> Option<AttackPreview> {
        preview::attack(world, attacker, target, power)
    }

    #[inline]
    fn attack_odds(
        &self,
        world: &World,
        attacker: UnitId,
        target: UnitId,
        power: Option<&str>,
        assume: Assume<'_>,
    ) -> Option<AttackOdds> {
        preview::odds(world, attacker, target, power, assume)
    }

    fn preview_move(&self, world: &World, unit: UnitId, power: &str, path: &[Cell]) -> MovePreview {
        preview::movement(world, unit, power, path)
    }

    fn stage_name(&self, stage: Stage) -> &'static str {
        crate::engine::log::stage_name(stage)
    }

    fn turn_order(&self, world: &World) -> Vec<TurnOrder> {
        preview::turn_order(world)
    }

    fn pools(&self, world: &World, unit: UnitId) -> Vec<(String, i32)> {
        preview::pools(world, unit)
    }
}

impl Vocabulary for Phases {
    /// Defend, Delay and Disengage (P-26 … P-28, [`VERBS`]).
    fn verbs(&self) -> &'static [VerbSpec] {
        VERBS
    }

    /// Seize (P-15) and ActNow (P-26) ([`super::answers::ANSWERS`]).
    fn answers(&self) -> &'static [VerbSpec] {
        super::answers::ANSWERS
    }
}

impl LevelSchema for Phases {
    fn check_level(&self, level: &Level) -> Vec<Issue> {
        config::configured::<PhasesConfig>(&level.rules)
            .map(|c| c.level_problems(level))
            .unwrap_or_default()
    }

    /// Typical values of RULES.md §1: ATK +2, DEF 11, Tier 1.
    fn editor_defaults(&self) -> &'static [(&'static str, i32)] {
        &[("ATK", 2), ("DEF", 11), ("Tier", 1)]
    }
}

impl Presentation for Phases {
    fn rule_for(&self, term: &str) -> Option<&'static str> {
        crate::engine::explain::lookup(GLOSSARY, term)
    }

    fn condition_badge(&self, condition: &str) -> Option<ConditionBadge> {
        crate::engine::ruleset::badge_from(BADGES, condition)
    }
}

impl AiHints for Phases {
    /// Defend (P-27).
    fn guard_action(&self, _world: &World, unit: UnitId) -> Option<Command> {
        Some(PhasesAction::Defend.by(unit))
    }

    /// The Disengage battle action to the end of `path` (P-28), which goes there
    /// by the shortest way.
    fn unprovoking_move(&self, unit: UnitId, path: &[Cell]) -> Option<Command> {
        path.last()
            .map(|&to| PhasesAction::Disengage { to }.by(unit))
    }

    /// The movement powers of P-GAP-04 and the Disengage battle action (`None`,
    /// P-28).
    fn move_hint(&self, power: Option<&str>) -> MoveHint {
        match power {
            // Run: no Attack action this round, attackers get advantage.
            Some("Run") => MoveHint {
                attack: 0.0,
                exposure: 1.3,
            },
            // Hustle: own attacks at a disadvantage this round.
            Some("Hustle") => MoveHint {
                attack: 0.7,
                exposure: 1.0,
            },
            // Charge: advantage on the first attack against the charged enemy.
            Some("Charge") => MoveHint {
                attack: 1.25,
                exposure: 1.0,
            },
            // Disengage (battle action or movement power): own attacks at a
            // disadvantage until the end of next round.
            None | Some("Disengage") => MoveHint {
                attack: DISENGAGED,
                exposure: 1.0,
            },
            _ => MoveHint::NEUTRAL,
        }
    }

    fn speed_stat(&self, world: &World, unit: UnitId) -> Option<u32> {
        world
            .get::<Stats>(entity(world, unit))
            .and_then(|s| s.0.get("Speed").copied())
            .map(|s| s.max(0) as u32)
    }

    /// Slowed is the condition a level's powers may apply (P-18): a Slowed unit
    /// can't move.
    fn cleanse_worth(&self, world: &World, unit: UnitId) -> bool {
        world
            .get::<Conditions>(entity(world, unit))
            .is_some_and(|c| c.has(conditions::SLOWED))
    }
}

/// The badges of its conditions ([`Presentation::condition_badge`]): icon, colour, short
/// text, effect, duration and rule of each.
const BADGES: &[(&str, ConditionBadge)] = &[
    (
        conditions::SLOWED,
        ConditionBadge {
            icon: "snail",
            colour: badge_colour::HINDER,
            short: "SLOW",
            effect: "loses the rest of its movement; can't start moving",
            duration: "save ends (2d6 7+ in the End Phase), unless its source says otherwise",
            rule: "P-18",
        },
    ),
    (
        conditions::DEFENDING,
        ConditionBadge {
            icon: "shield-reflect",
            colour: badge_colour::GUARD,
            short: "DEF",
            effect: "attacks against it have 1 source of disadvantage",
            duration: "until the start of its next turn",
            rule: "P-27",
        },
    ),
    (
        conditions::SEIZED,
        ConditionBadge {
            icon: "stopwatch",
            colour: badge_colour::HINDER,
            short: "SEIZE",
            effect: "moved first, acts last; attackers have 1 source of advantage",
            duration: "until the end of the round",
            rule: "P-15",
        },
    ),
    (
        conditions::DISENGAGED,
        ConditionBadge {
            icon: "exit-door",
            colour: badge_colour::HINDER,
            short: "DIS",
            effect: "its attacks have 1 source of disadvantage",
            duration: "until the end of the next round",
            rule: "P-21",
        },
    ),
    (
        conditions::HUSTLED,
        ConditionBadge {
            icon: "sprint",
            colour: badge_colour::HINDER,
            short: "HUST",
            effect: "its attacks have 1 source of disadvantage",
            duration: "this round",
            rule: "P-GAP-04",
        },
    ),
    (
        conditions::RUNNING,
        ConditionBadge {
            icon: "run",
            colour: badge_colour::HINDER,
            short: "RUN",
            effect: "can't Attack; attackers have 1 source of advantage",
            duration: "this round",
            rule: "P-GAP-04",
        },
    ),
    (
        conditions::CHARGING,
        ConditionBadge {
            icon: "charging-bull",
            colour: badge_colour::BOON,
            short: "CHG",
            effect: "its first Attack on the charged enemy has 1 source of advantage",
            duration: "this round",
            rule: "P-GAP-04",
        },
    ),
];
