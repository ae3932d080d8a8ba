//! `actfast` behind the [`Ruleset`] seam: set-up, legality, previews with the exact
//! distribution of the highest die, names and views, and the AI's hooks.

use std::collections::BTreeMap;

use bevy_app::App;
use bevy_ecs::prelude::*;

use super::attack::{pool_text, swing};
use super::check;
use super::config::{ActfastConfig, defaults};
use super::order::Step;
use super::pool;
use super::state::{
    AState, MOVE, RoundState, TurnBudget, au, distance, round_state, rules, turn_budget,
};
use super::stats::{CONDITIONS, STATS};
use super::units::{
    AUnit, SIDE_TRAITS, UNIT_TRAIT_EXAMPLES, parse_side_trait, parse_trait, side_is_pc,
    side_surprised,
};
use super::verbs::{ACTIONS, VERBS};
use super::{attack, movement, state, turn};
use crate::engine::battle::{Roster, TurnState, add_driver, name, side_of};
use crate::engine::board::{Cell, GridKind};
use crate::engine::command::{Command, CommandError};
use crate::engine::conditions::{ConditionWords, Stacking, StackingRules};
use crate::engine::event::Stage;
use crate::engine::problems::{Issue, PowerRef, Where, unit_label};
use crate::engine::ruleset::config::{self, ConfigError};
use crate::engine::ruleset::{
    AiHints, LevelSchema, MAX_RANGE, Presentation, Ruleset, RulesetError, StatSpec, TraitOf,
    UnitProblem, Vocabulary, check_unit_stats, side_index, unit_basics,
};
use crate::engine::ruleset::{Assume, AttackOdds, AttackPreview, MovePreview, TurnOrder};
use crate::engine::ruleset::{ConditionBadge, badge_colour};
use crate::engine::spec::{EffectDuration, Level, PowerDef, UnitDef};
use crate::engine::units::*;
use crate::engine::verb::{ArgSpec, Args, VerbSpec};

/// The `actfast` ruleset (RULES.md §4).
#[derive(Clone, Copy, Debug, Default)]
pub struct Actfast;

/// The ruleset's id.
pub const ID: &str = "actfast";

/// The rule of `RULES.md` behind each word its roll events use (see
/// [`Presentation::rule_for`]): the first key (lower case) the word contains wins, so
/// specific keys come before general ones.
const GLOSSARY: &[(&str, &str)] = &[
    ("morale", "A-16"),
    ("flames", "A-25"),
    ("burning", "A-25"),
    ("escape", "A-GAP-11"),
    ("damage", "A-15"),
    ("riposte", "A-GAP-09"),
    ("attack", "A-07"),
    // Conditions (the hover line names their rules).
    ("wavering", "A-16"),
    ("fleeing", "A-16"),
    ("prone", "A-18"),
    ("grappled", "A-19"),
    ("restrained", "A-20"),
    ("immobilized", "A-21"),
    ("slow", "A-22"),
    ("stunned", "A-23"),
    ("fear", "A-24"),
    ("afraid", "A-24"),
];

impl Ruleset for Actfast {
    fn id(&self) -> &'static str {
        ID
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
        config::for_level::<ActfastConfig>(overrides).map(|_| ())
    }

    fn override_problems(&self, overrides: &BTreeMap<String, ron::Value>) -> Vec<ConfigError> {
        config::override_problems::<ActfastConfig>(overrides)
    }

    fn check_trait(&self, of: TraitOf, phrase: &str) -> Result<(), RulesetError> {
        let read = match of {
            TraitOf::Unit => parse_trait(phrase).map(drop),
            TraitOf::Side => parse_side_trait(phrase).map(drop),
        };
        read.map_err(RulesetError::Trait)
    }

    fn build(&self, app: &mut App) {
        add_driver(app, ID, turn::drive);
    }

    fn setup(&self, world: &mut World, level: &Level) -> Result<(), RulesetError> {
        setup(world, level)
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
        let s = swing(world, attacker, target, power)?;
        let cfg = rules(world);
        let (chance, expected_damage, kill_chance) = attack::odds(world, attacker, target, power)?;
        let grades = pool::grade_odds(cfg, s.pool, s.auto).ok()?;
        let faces = pool::read_distribution(cfg, s.pool).ok()?;
        let t = pool::throw(cfg, s.pool);
        let highest: Vec<String> = (1..=i64::from(cfg.pool_die))
            .map(|f| format!("{f}: {}", attack::percent(faces.prob(f))))
            .collect();
        let mut modifiers = vec![
            format!(
                "{} die: {}",
                if t.lowest { "lowest" } else { "highest" },
                highest.join(" · ")
            ),
            format!(
                "miss {} · partial {} · success {} · critical {}",
                attack::percent(grades.failure),
                attack::percent(grades.partial),
                attack::percent(grades.success),
                attack::percent(grades.critical)
            ),
        ];
        if s.armor > 0 {
            modifiers.push(format!(
                "{}'s Armor {} comes off every damage die (A-15)",
                name(world, target),
                s.armor
            ));
        }
        if s.auto {
            modifiers.push(format!(
                "{} is Immobilized: the attack succeeds (A-GAP-12)",
                name(world, target)
            ));
        }
        Some(AttackPreview {
            chance,
            expected_damage,
            kill_chance,
            modifiers,
            roll: format!(
                "{} · damage {}d{}",
                pool_text(cfg, &s),
                s.weapon.dice.0,
                s.weapon.dice.1
            ),
        })
    }

    fn attack_odds(
        &self,
        world: &World,
        attacker: UnitId,
        target: UnitId,
        power: Option<&str>,
        assume: Assume<'_>,
    ) -> Option<AttackOdds> {
        // A unit on its turn that would move first must have an action left to
        // attack after, and be allowed both.
        if assume.attacker_moved.is_some() && world.resource::<TurnState>().active == Some(attacker)
        {
            let t = *turn_budget(world);
            let attacked_out = t.limit.max_attacks.is_some_and(|m| t.attacks >= m);
            if t.actions <= 1 || t.limit.move_or_attack || attacked_out {
                return None;
            }
        }
        let (chance, expected_damage, kill_chance) = attack::odds(world, attacker, target, power)?;
        Some(AttackOdds {
            chance,
            expected_damage,
            kill_chance,
        })
    }

    fn preview_move(
        &self,
        world: &World,
        unit: UnitId,
        _power: &str,
        path: &[Cell],
    ) -> MovePreview {
        let cost = movement::path_cost(world, path).unwrap_or(0);
        let mut notes = Vec::new();
        if state::carries(world, unit, super::stats::Condition::Prone) {
            notes.push("stands up first: 1 more action (A-18)".into());
        }
        if state::carries(world, unit, super::stats::Condition::Restrained) {
            notes.push("Restrained: the Move takes the whole turn (A-20)".into());
        }
        MovePreview {
            cost,
            provocations: 0,
            notes,
        }
    }

    fn stage_name(&self, _stage: Stage) -> &'static str {
        "Turn"
    }

    /// The rest of the round step by step, the active unit first; while the
    /// PCs choose, who has chosen what.
    fn turn_order(&self, world: &World) -> Vec<TurnOrder> {
        let state = round_state(world);
        if !state.ordered {
            let mut fast = Vec::new();
            let mut well = Vec::new();
            for u in crate::engine::battle::active_units(world) {
                match au(world, u).pace {
                    Some(super::order::Pace::Fast) => fast.push(u),
                    Some(super::order::Pace::Well) => well.push(u),
                    None => {}
                }
            }
            let mut out = Vec::new();
            if !fast.is_empty() {
                out.push(("Act Fast".to_string(), fast));
            }
            if !well.is_empty() {
                out.push(("Act Well".to_string(), well));
            }
            let mut choosing: Vec<UnitId> = match state.asking {
                Some(state::Asking::Pace(u)) => vec![u],
                _ => Vec::new(),
            };
            choosing.extend(state.choosing.iter().copied());
            out.push(("Choosing".to_string(), choosing));
            return out;
        }
        let mut out: Vec<TurnOrder> = Vec::new();
        for (step, unit) in state::steps_left(world) {
            let label = match step {
                Step::ActFast => "1. Act Fast",
                Step::Opponents => "2. Opponents",
                Step::ActWell => "3. Act Well",
                Step::Slow => "4. Slow",
            };
            match out.last_mut() {
                Some((l, us)) if l == label => us.push(unit),
                _ => out.push((label.to_string(), vec![unit])),
            }
        }
        out
    }

    fn pools(&self, world: &World, unit: UnitId) -> Vec<(String, i32)> {
        let me = au(world, unit);
        let mut out = Vec::new();
        if world.resource::<TurnState>().active == Some(unit) {
            let t = *turn_budget(world);
            out.push((ACTIONS.id().to_string(), t.actions as i32));
        }
        out.push(("Reactions".into(), me.reactions as i32));
        out.push(("Armor".into(), me.armor));
        if !me.pc {
            out.push(("Morale save".into(), me.morale));
            if me.leadership != 0 {
                out.push(("Leadership".into(), me.leadership));
            }
            if let Ok(p) = super::morale::break_chance(rules(world), me.leadership, me.morale) {
                out.push((
                    "Breaks on a morale roll (%)".into(),
                    (p * 100.0).round() as i32,
                ));
            }
        }
        out
    }

    /// `approach` (A-13, [`movement::ATTACK_OPTIONS`]).
    fn attack_options(&self) -> &'static [ArgSpec] {
        movement::ATTACK_OPTIONS
    }
}

impl Vocabulary for Actfast {
    fn verbs(&self) -> &'static [VerbSpec] {
        VERBS
    }

    fn default_move_power(&self) -> &'static str {
        MOVE
    }
}

impl LevelSchema for Actfast {
    fn trait_examples(&self, of: TraitOf) -> &'static [&'static str] {
        of.pick(UNIT_TRAIT_EXAMPLES, SIDE_TRAITS)
    }

    /// Weapons' damage (`NdM`), `on_hit` conditions, and that the level has PCs and
    /// NPCs.
    fn check_level(&self, level: &Level) -> Vec<Issue> {
        let mut out = Vec::new();
        let Ok(cfg) = defaults() else { return out };
        for (u, def) in level.units.iter().enumerate() {
            let label = unit_label(u, def);
            for (p, power) in def.powers.iter().enumerate() {
                if cfg.weapon(&power.name).is_none()
                    && let Err(e) = super::config::weapon_dice(&power.damage)
                {
                    out.push(Issue {
                        at: Where::Power {
                            unit: u,
                            power: PowerRef::Listed(p),
                            field: Some("damage"),
                        },
                        message: format!(
                            "power `{}` of {label}: damage `{}` {e}; or name a weapon of the \
                             table: {}",
                            power.name,
                            power.damage,
                            cfg.weapons
                                .iter()
                                .map(|w| w.name.as_str())
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    });
                }
                for (effect, e) in power.on_hit.iter().enumerate() {
                    let at = Where::OnHit {
                        unit: u,
                        power: PowerRef::Listed(p),
                        effect,
                    };
                    if super::stats::Condition::from_name(e.condition.trim()).is_none() {
                        out.push(Issue {
                            at,
                            message: format!(
                                "unknown condition `{}` in the on_hit of power `{}` of \
                                 {label}; expected one of: {}",
                                e.condition,
                                power.name,
                                state::condition_names().join(", ")
                            ),
                        });
                    } else if e.lasts == EffectDuration::Sustained {
                        out.push(Issue {
                            at,
                            message: format!(
                                "`{}` in the on_hit of power `{}` of {label} lasts `Sustained`, \
                                 which `actfast` has not; use `EndOfRound`, or leave it out \
                                 (until the end of the target's next turn, A-GAP-11)",
                                e.condition, power.name
                            ),
                        });
                    }
                }
            }
        }
        let pcs = (0..level.sides.len())
            .filter(|&s| side_is_pc(level, s))
            .count();
        if !level.sides.is_empty() && pcs == 0 {
            out.push(Issue {
                at: Where::Rule("sides".into()),
                message: "no side is the PCs: mark one with the trait `PCs` (A-01)".into(),
            });
        }
        // Units move with the ruleset's own powers: a level's `movement` would be
        // ignored.
        out.extend(crate::engine::problems::unread_movement(
            level,
            "actfast",
            "every unit moves with Move",
        ));
        out
    }

    /// RULES.md §4.A: a square grid (A-GAP-17: a hex grid also works, since only
    /// band distances matter).
    fn grids(&self) -> &'static [GridKind] {
        &[GridKind::Square, GridKind::Hex]
    }

    fn editor_defaults(&self) -> &'static [(&'static str, i32)] {
        &[("Class", 1), ("STR", 1), ("DEX", 1)]
    }
}

impl Presentation for Actfast {
    fn rule_for(&self, term: &str) -> Option<&'static str> {
        crate::engine::explain::lookup(GLOSSARY, term)
    }

    fn condition_badge(&self, condition: &str) -> Option<ConditionBadge> {
        crate::engine::ruleset::badge_from(BADGES, condition)
    }

    /// The band between two units (A-GAP-01), and what it allows.
    fn relation(&self, world: &World, unit: UnitId, other: UnitId) -> Option<String> {
        if unit == other || side_of(world, unit) == side_of(world, other) {
            return None;
        }
        let cfg = rules(world);
        let d = distance(world, unit, other);
        let band = cfg.band(d).unwrap_or("Distant");
        let what = if cfg.in_reach(true, d) {
            "melee attacks reach"
        } else if cfg.can_charge(d) {
            "a melee attack moves in as part of it"
        } else if cfg.in_reach(false, d) {
            "only ranged attacks reach"
        } else {
            "out of every attack's reach"
        };
        Some(format!(
            "{} is at {band} range from {} ({d} squares): {what}",
            name(world, unit),
            name(world, other)
        ))
    }
}

impl AiHints for Actfast {
    /// The approach of a melee attack on an enemy in Close range.
    fn approach(
        &self,
        world: &World,
        unit: UnitId,
        target: UnitId,
        power: Option<&str>,
    ) -> Option<Args> {
        let w = attack::weapon(world, unit, power)?;
        if w.kind != super::stats::AttackKind::Melee {
            return None;
        }
        movement::approach_path(world, unit, target).map(movement::approach_options)
    }

    fn speed_stat(&self, world: &World, unit: UnitId) -> Option<u32> {
        Some(au(world, unit).moves)
    }
}

/// The unit's powers: a weapon of the table takes the table's damage and melee
/// (A-GAP-05); a ranged one reaches the ranged bands; a unit with none fights
/// Unarmed.
fn powers_of(cfg: &ActfastConfig, def: &UnitDef) -> Result<Vec<PowerDef>, UnitProblem> {
    let ranged_reach = cfg
        .bands
        .0
        .iter()
        .filter(|b| cfg.ranged_bands.contains(&b.name))
        .map(|b| b.up_to.min(MAX_RANGE))
        .max()
        .unwrap_or(1);
    let mut out = Vec::new();
    let mut list = def.powers.clone();
    if list.is_empty() {
        list.push(PowerDef {
            name: "Unarmed".into(),
            range: 1,
            ranged: false,
            damage: "1d3".into(),
            add_tier: false,
            on_hit: Vec::new(),
            damage_type: None,
            traits: Vec::new(),
        });
    }
    for p in list {
        let mut power = p.clone();
        power.add_tier = false;
        if let Some(w) = cfg.weapon(&p.name) {
            power.damage = w.damage.clone();
            power.ranged = !w.melee;
        }
        super::config::weapon_dice(&power.damage).map_err(|e| UnitProblem::damage(&power, e))?;
        power.range = if power.ranged { ranged_reach } else { 1 };
        out.push(power);
    }
    Ok(out)
}

/// Spawns the level's units and inserts the ruleset's state (configuration, round,
/// each unit's `actfast` data).
pub fn setup(world: &mut World, level: &Level) -> Result<(), RulesetError> {
    let cfg = config::for_level::<ActfastConfig>(&level.rules)?;
    let mut roster = Vec::new();
    let mut starts = Vec::new();
    let mut units = Vec::new();
    let mut surprised = None;
    for (s, _) in level.sides.iter().enumerate() {
        if side_surprised(level, s) {
            surprised = Some(SideId(s as u32));
        }
    }
    for (i, def) in level.units.iter().enumerate() {
        let side = side_index(level, def)?;
        check_unit_stats(STATS, def)?;
        let pc = side_is_pc(level, side);
        let data = AUnit::from_def(&cfg, def, pc)
            .map_err(|e| RulesetError::unit(&def.name, UnitProblem::Other(e)))?;
        let powers = powers_of(&cfg, def).map_err(|e| RulesetError::unit(&def.name, e))?;
        let hp = def.stats.get("HP").copied().unwrap_or(cfg.default_hp(pc));
        starts.push((UnitId(i as u32), AUnit::starting_conditions(def)));
        let e = world
            .spawn((
                unit_basics(i, def, side, hp),
                Reach(1),
                Powers(powers),
                MovementPowers(vec![MOVE.into()]),
                Items(def.items.clone()),
            ))
            .id();
        roster.push(e);
        units.push(data);
    }
    world.insert_resource(Roster(roster));
    world.insert_resource(StackingRules::all(Stacking::KeepLonger));
    world.insert_resource(ConditionWords {
        by_name: CONDITIONS
            .iter()
            .filter(|c| c.word != c.name)
            .map(|c| (c.name.to_string(), c.word.to_string()))
            .collect(),
    });
    world.insert_resource(DyingCountsForVictory(false));
    crate::engine::ruleset::state::insert(
        world,
        AState {
            rules: std::sync::Arc::new(cfg),
            round: RoundState {
                surprised,
                ..Default::default()
            },
            turn: TurnBudget::default(),
            units,
        },
    );
    turn::opening(world, starts);
    Ok(())
}

/// The badges of its conditions ([`Presentation::condition_badge`]): icon, colour, short
/// text, effect, duration and rule of each.
const BADGES: &[(&str, ConditionBadge)] = &[
    (
        "Prone",
        ConditionBadge {
            icon: "falling",
            colour: badge_colour::HINDER,
            short: "PRONE",
            effect: "ranged attacks on it lose dice, melee ones gain them; 1 action to stand",
            duration: "until it stands (1 action)",
            rule: "A-18",
        },
    ),
    (
        "Grappled",
        ConditionBadge {
            icon: "grab",
            colour: badge_colour::HELD,
            short: "GRAB",
            effect: "can't move; melee attacks on it gain dice",
            duration: "until its source ends it or it escapes (1 action)",
            rule: "A-19",
        },
    ),
    (
        "Restrained",
        ConditionBadge {
            icon: "manacles",
            colour: badge_colour::HELD,
            short: "RESTR",
            effect: "its attacks lose dice; a move takes its whole turn",
            duration: "until its source ends it or it escapes (1 action)",
            rule: "A-20",
        },
    ),
    (
        "Immobilized",
        ConditionBadge {
            icon: "frozen-body",
            colour: badge_colour::HELD,
            short: "IMMOB",
            effect: "can't move, attack, cast or react; attacks on it succeed",
            duration: "as its source says, else to the end of its next turn",
            rule: "A-21",
        },
    ),
    (
        "Slow",
        ConditionBadge {
            icon: "snail",
            colour: badge_colour::HINDER,
            short: "SLOW",
            effect: "1 action, in the last step; an NPC moves or attacks, not both",
            duration: "as its source says, else to the end of its next turn",
            rule: "A-22",
        },
    ),
    (
        "Stunned",
        ConditionBadge {
            icon: "knocked-out-stars",
            colour: badge_colour::HELD,
            short: "STUN",
            effect: "misses its turn; can't react",
            duration: "one of its turns",
            rule: "A-23",
        },
    ),
    (
        "Fear",
        ConditionBadge {
            icon: "terror",
            colour: badge_colour::HINDER,
            short: "FEAR",
            effect: "moves only to flee its source; attacks on it gain dice",
            duration: "as its source says, else to the end of its next turn",
            rule: "A-24",
        },
    ),
    (
        "Burning",
        ConditionBadge {
            icon: "flame",
            colour: badge_colour::HARM,
            short: "BURN",
            effect: "takes a die of damage at the start of its turn",
            duration: "until it spends 1 action to put the flames out",
            rule: "A-25",
        },
    ),
    (
        super::state::names::WAVERING,
        ConditionBadge {
            icon: "despair",
            colour: badge_colour::HINDER,
            short: "SHAKEN",
            effect: "its side's morale is shaken: it rolls morale at its next step",
            duration: "until it rolls morale",
            rule: "A-16",
        },
    ),
    (
        super::state::names::FLEEING,
        ConditionBadge {
            icon: "run",
            colour: badge_colour::HINDER,
            short: "FLEEING",
            effect: "broken by morale: it flees to the nearest edge",
            duration: "for the rest of the battle",
            rule: "A-16",
        },
    ),
];
