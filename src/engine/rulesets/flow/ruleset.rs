//! `flow` behind the [`Ruleset`] seam: what the battle, level checks, editor and AI
//! ask of it.

use super::pools;
use std::collections::BTreeMap;

use bevy_app::App;
use bevy_ecs::world::World;

use super::{
    FlowAction, FlowConfig, FlowPlugin, SKILLS, STATS, VERBS, check, has, pool, preview, rules,
    verbs,
};
use crate::engine::battle::entity;
use crate::engine::board::{Cell, GridKind};
use crate::engine::command::{Command, CommandError};
use crate::engine::event::Stage;
use crate::engine::problems::Issue;
use crate::engine::ruleset::config::{self, ConfigError};
use crate::engine::ruleset::{
    AiHints, LevelSchema, Presentation, Ruleset, RulesetError, StatSpec, TraitOf, Vocabulary,
};
use crate::engine::ruleset::{Assume, AttackOdds, AttackPreview, MovePreview, TurnOrder};
use crate::engine::ruleset::{ConditionBadge, badge_colour};
use crate::engine::spec::Level;
use crate::engine::units::{Stats, UnitId};
use crate::engine::verb::{Cost, VerbSpec};

/// The `flow` ruleset (RULES.md §5).
#[derive(Clone, Copy, Debug, Default)]
pub struct Flow;

/// The rule of `RULES.md` behind each word its roll events use (see
/// [`Presentation::rule_for`]): the first key (lower case) the word contains wins, so
/// specific keys come before general ones.
const GLOSSARY: &[(&str, &str)] = &[
    ("initiative tie", "F-02"),
    ("initiative", "F-02"),
    ("unmodified", "F-25"),
    ("reaction attack", "F-25"),
    ("gang-up", "F-49"),
    ("range", "F-48"),
    ("off-hand", "F-51"),
    ("feint", "F-34"),
    ("disarm", "F-32"),
    ("grappl", "F-36"),
    ("total defense", "F-40"),
    ("dodge", "F-18"),
    ("parry", "F-19"),
    ("block", "F-20"),
    ("riposte", "F-30"),
    ("shove", "F-38"),
    ("tumble", "F-41"),
    ("attack", "F-GAP-05"),
    // Conditions (the hover line names their rules).
    ("feinting", "F-34"),
    ("flow state", "F-35"),
    ("prone", "F-26"),
    ("slowed", "F-GAP-04"),
];

impl Ruleset for Flow {
    fn id(&self) -> &'static str {
        "flow"
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
        config::for_level::<FlowConfig>(overrides).map(|_| ())
    }

    /// Every override checked on its own on top of the checked defaults, each
    /// problem at its key.
    fn override_problems(&self, overrides: &BTreeMap<String, ron::Value>) -> Vec<ConfigError> {
        config::override_problems::<FlowConfig>(overrides)
    }

    /// Unit traits are the perks the seed names ([`super::UNIT_TRAITS`]: the
    /// off-hand perk `Two-Weapon Fighting`, F-51); sides have none.
    fn check_trait(&self, of: TraitOf, phrase: &str) -> Result<(), RulesetError> {
        match of {
            TraitOf::Unit => super::unit_trait(phrase)
                .map(|_| ())
                .map_err(RulesetError::Trait),
            TraitOf::Side => Err(RulesetError::NoTraits {
                ruleset: self.id(),
                of,
            }),
        }
    }

    fn build(&self, app: &mut App) {
        app.add_plugins(FlowPlugin);
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
        super::stage_name(stage)
    }

    fn turn_order(&self, world: &World) -> Vec<TurnOrder> {
        preview::turn_order(world)
    }

    fn pools(&self, world: &World, unit: UnitId) -> Vec<(String, i32)> {
        preview::pools(world, unit)
    }
}

impl Vocabulary for Flow {
    /// The special actions F-32 … F-42 ([`VERBS`]).
    fn verbs(&self) -> &'static [VerbSpec] {
        VERBS
    }

    /// The reactions F-18 … F-31, answered with `React` ([`super::reactions::ANSWERS`]).
    fn answers(&self) -> &'static [VerbSpec] {
        super::reactions::ANSWERS
    }

    /// Take a Step (F-39), written `Step(unit:, to:)`.
    fn one_cell_moves(&self) -> &'static [&'static str] {
        &["Step"]
    }

    /// A scenario's `Move` without a power is a move of 1 AP (F-08).
    fn default_move_power(&self) -> &'static str {
        "Move"
    }

    /// The declared AP cost in the amount the level's configuration sets
    /// ([`verbs::verb_cost`]).
    fn verb_cost(&self, world: &World, verb: &VerbSpec) -> Option<Cost> {
        verbs::verb_cost(&rules(world).costs, verb.name)
    }
}

impl LevelSchema for Flow {
    fn check_level(&self, level: &Level) -> Vec<Issue> {
        let mut out = super::level_check::units_problems(level);
        if let Some(c) = config::configured::<FlowConfig>(&level.rules) {
            out.extend(c.level_problems(level));
        }
        out
    }

    fn trait_examples(&self, of: TraitOf) -> &'static [&'static str] {
        of.pick(super::UNIT_TRAITS, &[])
    }

    /// RULES.md §5: `flow` is played on hexes.
    fn grids(&self) -> &'static [GridKind] {
        &[GridKind::Hex]
    }

    fn skills(&self) -> &'static [&'static str] {
        SKILLS
    }

    fn uses_equipment(&self) -> bool {
        true
    }

    /// A magic item costs 1 or 2 AP, "specific to each item" (F-08, seed L41).
    fn item_ap(&self) -> Option<std::ops::RangeInclusive<i32>> {
        Some(super::ITEM_AP)
    }
}

impl Presentation for Flow {
    fn rule_for(&self, term: &str) -> Option<&'static str> {
        crate::engine::explain::lookup(GLOSSARY, term)
    }

    fn condition_badge(&self, condition: &str) -> Option<ConditionBadge> {
        crate::engine::ruleset::badge_from(BADGES, condition)
    }
}

impl AiHints for Flow {
    /// A Feint's opposed check (F-34).
    fn action_chance(&self, world: &World, command: &Command) -> Option<f64> {
        preview::action_chance(world, command)
    }

    /// Total Defense (F-40): ends the turn with +1 RP and Advantage on reactions.
    fn defensive_action(&self, world: &World, unit: UnitId) -> Option<Command> {
        let command = FlowAction::TotalDefense.by(unit);
        check::check(world, &command).is_ok().then_some(command)
    }

    /// A Feint (F-34): a won Feint gives the next physical attack on its target
    /// Advantage. Offered when the AP left allow as many attacks after it as without
    /// it (it costs 1 AP, attacks 2). Not checked for legality.
    fn opening_action(&self, world: &World, unit: UnitId, target: UnitId) -> Option<Command> {
        let costs = rules(world).costs;
        let ap = pool(world, unit, pools::AP);
        let (attack, feint) = (costs.attack.max(1), costs.feint);
        if ap < feint + attack || (ap - feint) / attack < ap / attack {
            return None;
        }
        Some(FlowAction::Feint { target }.by(unit))
    }

    fn speed_stat(&self, world: &World, unit: UnitId) -> Option<u32> {
        world
            .get::<Stats>(entity(world, unit))
            .and_then(|s| s.0.get("Speed").copied())
            .map(|s| s.max(0) as u32)
    }

    /// An ongoing condition (Bleeding, Poisoned: F-GAP-22) is what cleansing removes.
    fn cleanse_worth(&self, world: &World, unit: UnitId) -> bool {
        rules(world).ongoing.keys().any(|c| has(world, unit, c))
    }
}

/// The badges of its conditions ([`Presentation::condition_badge`]): icon, colour, short
/// text, effect, duration and rule of each.
const BADGES: &[(&str, ConditionBadge)] = &[
    (
        super::conditions::TOTAL_DEFENSE,
        ConditionBadge {
            icon: "shield-reflect",
            colour: badge_colour::GUARD,
            short: "TDEF",
            effect: "+1 RP and Advantage on all its reactions",
            duration: "until the start of its next turn",
            rule: "F-40",
        },
    ),
    (
        super::conditions::FLOW_STATE,
        ConditionBadge {
            icon: "meditation",
            colour: badge_colour::BOON,
            short: "FLOW",
            effect: "keeps all its FP at the end of this turn",
            duration: "until the end of its turn",
            rule: "F-35",
        },
    ),
    (
        super::conditions::FEINTING,
        ConditionBadge {
            icon: "fencer",
            colour: badge_colour::BOON,
            short: "FEINT",
            effect: "Advantage on its next physical attack on the feinted unit",
            duration: "until the end of its next turn",
            rule: "F-34",
        },
    ),
    (
        super::conditions::GRAPPLING,
        ConditionBadge {
            icon: "hand-grip",
            colour: badge_colour::HELD,
            short: "HOLD",
            effect: "holds the unit it grappled; 2 AP upkeep each turn or it lets go",
            duration: "until it lets go or the other breaks free",
            rule: "F-36",
        },
    ),
    (
        super::conditions::GRAPPLED,
        ConditionBadge {
            icon: "grab",
            colour: badge_colour::HELD,
            short: "GRAB",
            effect: "held: no actions but breaking free; no moves or reactions",
            duration: "until it breaks free or is let go",
            rule: "F-36",
        },
    ),
    (
        super::conditions::PRONE,
        ConditionBadge {
            icon: "falling",
            colour: badge_colour::HINDER,
            short: "PRONE",
            effect: "knocked down: must stand up before it moves",
            duration: "until it stands up",
            rule: "F-38",
        },
    ),
    (
        "Bleeding",
        ConditionBadge {
            icon: "bleeding-wound",
            colour: badge_colour::HARM,
            short: "BLEED",
            effect: "ongoing: takes its damage (1d4) at the end of its turn, before FP decay",
            duration: "2 rounds (ongoing_rounds)",
            rule: "F-GAP-22",
        },
    ),
    (
        "Poisoned",
        ConditionBadge {
            icon: "poison-bottle",
            colour: badge_colour::HARM,
            short: "POISON",
            effect: "ongoing: takes its damage (1d6) at the end of its turn, before FP decay",
            duration: "2 rounds (ongoing_rounds)",
            rule: "F-GAP-22",
        },
    ),
];
