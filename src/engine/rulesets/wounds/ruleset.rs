//! `wounds` behind the [`Ruleset`] seam: set-up, legality, previews and odds (per
//! aim), names and views, and the AI's hooks.

use super::state::w_state;
use std::collections::BTreeMap;

use bevy_app::App;
use bevy_ecs::prelude::*;

use super::aim::Aim;
use super::attack::{Kind, cached_odds, swing};
use super::check;
use super::config::{WoundsConfig, defaults};
use super::powers::parse_header;
use super::state::{MOVE, RoundState, TurnBudget, mods, names, rules, wu};
use super::stats::STATS;
use super::units::{
    SIDE_TRAITS, UNIT_TRAIT_EXAMPLES, WUnit, parse_side_trait, parse_trait, side_initiates,
    side_is_pc,
};
use super::verbs::{VERBS, pools};
use super::{attack, movement, state, turn};
use crate::engine::battle::{Roster, TurnState, add_driver, cell_of, entity, name, side_of};
use crate::engine::board::{Cell, GridKind};
use crate::engine::command::{Command, CommandError};
use crate::engine::conditions::{Stacking, StackingRules};
use crate::engine::event::Stage;
use crate::engine::problems::{Issue, PowerRef, Where, side_label, unit_label};
use crate::engine::ruleset::config::{self, ConfigError};
use crate::engine::ruleset::{
    AiHints, LevelSchema, Presentation, Ruleset, RulesetError, StatSpec, TraitOf, UnitProblem,
    Vocabulary, check_unit_stats, parse_dice, side_index, unit_basics,
};
use crate::engine::ruleset::{
    Assume, AttackOdds, AttackPreview, MovePreview, OptionPreview, TurnOrder,
};
use crate::engine::ruleset::{ConditionBadge, badge_colour};
use crate::engine::spec::{Level, PowerDef};
use crate::engine::units::*;
use crate::engine::verb::{ArgSpec, Args, VerbSpec};

/// The `wounds` ruleset (RULES.md §3).
#[derive(Clone, Copy, Debug, Default)]
pub struct Wounds;

/// The ruleset's id.
pub const ID: &str = "wounds";

/// The rule of `RULES.md` behind each word its roll events use (see
/// [`Presentation::rule_for`]): the first key (lower case) the word contains wins, so
/// specific keys come before general ones.
const GLOSSARY: &[(&str, &str)] = &[
    ("initiative tie", "W-GAP-10"),
    ("initiative", "W-02"),
    ("accuracy", "W-13"),
    ("wounds", "W-18"),
    ("center mass", "W-17"),
    ("from behind", "W-GAP-17"),
    ("bonus action", "W-GAP-13"),
    ("fatal aim", "W-GAP-07"),
    ("crit chain", "W-21"),
    ("tragedy chain", "W-23"),
    ("free hit", "W-GAP-14"),
    ("extra attack", "W-GAP-22"),
    ("attack", "W-13"),
    // Conditions (the hover line names their rules).
    ("prone", "W-30"),
    ("flat-footed", "W-29"),
    ("hidden", "W-16"),
    ("disengaged", "W-28"),
    ("summoning sickness", "W-GAP-23"),
    ("channeling", "W-33"),
    ("disarmed", "W-31"),
    ("hit boost", "W-GAP-13"),
    ("damage boost", "W-GAP-13"),
    ("dodging", "W-09"),
    ("disrupted", "W-GAP-09"),
];

impl Ruleset for Wounds {
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
        config::for_level::<WoundsConfig>(overrides).map(|_| ())
    }

    fn override_problems(&self, overrides: &BTreeMap<String, ron::Value>) -> Vec<ConfigError> {
        config::override_problems::<WoundsConfig>(overrides)
    }

    fn check_trait(&self, of: TraitOf, phrase: &str) -> Result<(), RulesetError> {
        let read = match of {
            TraitOf::Unit => {
                parse_trait(defaults().map_err(RulesetError::Config)?, phrase).map(drop)
            }
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
        preview(world, attacker, target, power, None)
    }

    /// The attack aimed where `options` say (W-17): its odds, and the wound's
    /// effect (and Fatal's bonus damage) with their chances. A free hit being asked
    /// about is previewed as that free hit.
    fn preview_attack_with(
        &self,
        world: &World,
        attacker: UnitId,
        target: UnitId,
        power: Option<&str>,
        options: &Args,
    ) -> Option<OptionPreview> {
        let kind = super::free_hit::asked_kind(world, attacker, target)
            .unwrap_or_else(|| attack::kind_now(world, attacker));
        let aim_name = super::aim::aim_of(options);
        let aim = Aim::from_command(aim_name).ok()?;
        let s = swing(world, attacker, target, power, aim_name, kind).ok()?;
        let attack = preview_swing(world, target, &s, kind)?;
        let config = rules(world);
        let o = cached_odds(config, &s)?;
        let mut effects = vec![(
            format!(
                "{} wound: {}",
                aim.name(),
                attack::wound_effect(config, aim)
            ),
            o.wound,
        )];
        if aim == Aim::Fatal {
            effects.push((
                format!("+{} Fatal damage", config.fatal_bonus),
                o.fatal_bonus,
            ));
        }
        Some(OptionPreview { attack, effects })
    }

    /// The attack's value aimed where `options` say ([`attack::aim_value`]).
    fn attack_worth(
        &self,
        world: &World,
        attacker: UnitId,
        target: UnitId,
        power: Option<&str>,
        options: &Args,
    ) -> Option<f64> {
        let aim = Aim::from_command(super::aim::aim_of(options)).ok()?;
        let kind = attack::kind_now(world, attacker);
        attack::aim_value(world, attacker, target, power, aim, kind)
    }

    fn attack_odds(
        &self,
        world: &World,
        attacker: UnitId,
        target: UnitId,
        power: Option<&str>,
        _assume: Assume<'_>,
    ) -> Option<AttackOdds> {
        let kind = attack::kind_now(world, attacker);
        let s = swing(world, attacker, target, power, None, kind).ok()?;
        let o = cached_odds(rules(world), &s)?;
        let hp = world.get::<Health>(entity(world, target))?.hp;
        let (expected_damage, kill_chance) = attack::damage_and_kill(&o, hp);
        Some(AttackOdds {
            chance: o.hit,
            expected_damage,
            kill_chance,
        })
    }

    /// The cost in spaces, the Bonus Actions it would spend, and the free hits the
    /// path draws with the slots each enemy still has (W-26, W-27).
    fn preview_move(&self, world: &World, unit: UnitId, power: &str, path: &[Cell]) -> MovePreview {
        let cost = movement::path_cost(world, unit, path).unwrap_or(0);
        let mut notes = Vec::new();
        if let Some((_, more)) = movement::move_plan(world, unit, cost, power == state::DASH)
            && more > 0
        {
            notes.push(format!(
                "spends {more} Bonus Action{} on 2 more spaces each",
                if more == 1 { "" } else { "s" }
            ));
        }
        let mut provocations = 0;
        for (_, hitter, why) in movement::free_hits(world, unit, path) {
            let slots = wu(world, hitter).slots.left();
            let why = match why {
                super::economy::Trigger::Leaves => "leaving its zone",
                super::economy::Trigger::StepsInside => "moving inside its zone",
            };
            if slots > 0 {
                provocations += 1;
                notes.push(format!(
                    "free hit from {} ({why}; {slots} Free Hit Slot{} left)",
                    name(world, hitter),
                    if slots == 1 { "" } else { "s" }
                ));
            } else {
                notes.push(format!(
                    "no free hit from {} ({why}, but no Free Hit Slot left)",
                    name(world, hitter)
                ));
            }
        }
        MovePreview {
            cost,
            provocations,
            notes,
        }
    }

    fn stage_name(&self, _stage: Stage) -> &'static str {
        "Turn"
    }

    /// The rest of the round in the battle's fixed order, the active unit first
    /// (W-02, W-GAP-12).
    fn turn_order(&self, world: &World) -> Vec<TurnOrder> {
        let r = world.resource::<TurnState>().round;
        let mut units: Vec<UnitId> = world.resource::<TurnState>().active.into_iter().collect();
        units.extend(w_state(world).round.queue.iter().copied());
        vec![(format!("Round {r}"), units)]
    }

    fn pools(&self, world: &World, unit: UnitId) -> Vec<(String, i32)> {
        let me = wu(world, unit);
        let mut out = Vec::new();
        if world.resource::<TurnState>().active == Some(unit) {
            let t = w_state(world).turn;
            for (pool, left) in [
                (pools::AA, t.left.attack),
                (pools::MA, t.left.moves),
                (pools::BA, t.left.bonus),
            ] {
                out.push((pool.id().to_string(), left as i32));
            }
            out.push((
                "Spaces left".into(),
                movement::reach_left(world, unit, false) as i32,
            ));
        }
        out.push(("Free Hit Slots".into(), me.slots.left() as i32));
        if me.mp > 0 {
            out.push(("MP".into(), me.mp as i32));
        }
        let m = mods(world, unit);
        for (label, base, change) in [
            ("Agility", me.agility, m.agility),
            ("Accuracy", me.accuracy, m.accuracy),
            ("Strength", me.strength, m.strength),
            ("Movement", me.movement, m.movement),
        ] {
            if change != 0 {
                out.push((
                    format!("{label} (wounds {change:+})"),
                    (base + change) as i32,
                ));
            }
        }
        out
    }

    /// `aim` (W-17, [`super::aim::ATTACK_OPTIONS`]).
    fn attack_options(&self) -> &'static [ArgSpec] {
        super::aim::ATTACK_OPTIONS
    }
}

impl Vocabulary for Wounds {
    fn verbs(&self) -> &'static [VerbSpec] {
        VERBS
    }

    fn default_move_power(&self) -> &'static str {
        MOVE
    }
}

impl LevelSchema for Wounds {
    fn trait_examples(&self, of: TraitOf) -> &'static [&'static str] {
        of.pick(UNIT_TRAIT_EXAMPLES, SIDE_TRAITS)
    }

    /// Power traits and `on_hit` conditions, and summoning slots (W-32): a side's
    /// `Summoned` units fit in the slots of its summoners (Level, +2 Legion leader).
    fn check_level(&self, level: &Level) -> Vec<Issue> {
        let mut out = super::summon::level_issues(level);
        for (u, def) in level.units.iter().enumerate() {
            let label = unit_label(u, def);
            for (p, power) in def.powers.iter().enumerate() {
                let at = |field: &'static str| Where::Power {
                    unit: u,
                    power: PowerRef::Listed(p),
                    field: Some(field),
                };
                // A table weapon takes the table's damage (W-GAP-01): a level's own
                // is ignored, so say so rather than fight with other dice.
                if let Ok(c) = defaults()
                    && let Some(w) = c.weapon(&power.name)
                    && power.damage != w.damage
                    && power.damage != "1d6"
                {
                    out.push(Issue {
                        at: at("damage"),
                        message: format!(
                            "power `{}` of {label} is the table's {} ({}): its `damage` {} \
                             would be ignored; give the power another name to use its own \
                             damage",
                            power.name, w.name, w.damage, power.damage
                        ),
                    });
                }
                if let Err(e) = parse_header(&power.traits) {
                    out.push(Issue {
                        at: at("traits"),
                        message: format!("power `{}` of {label}: {e}", power.name),
                    });
                }
                for (effect, e) in power.on_hit.iter().enumerate() {
                    if !names::ON_HIT
                        .iter()
                        .any(|n| n.eq_ignore_ascii_case(e.condition.trim()))
                    {
                        out.push(Issue {
                            at: Where::OnHit {
                                unit: u,
                                power: PowerRef::Listed(p),
                                effect,
                            },
                            message: format!(
                                "unknown condition `{}` in the on_hit of power `{}` of {label}; \
                                 expected one of: {}",
                                e.condition,
                                power.name,
                                names::ON_HIT.join(", ")
                            ),
                        });
                    }
                }
            }
        }
        let Ok(c) = defaults() else { return out };
        for (s, side) in level.sides.iter().enumerate() {
            let mine = || {
                level
                    .units
                    .iter()
                    .enumerate()
                    .filter(|(_, u)| u.side == side.name)
            };
            let summoned: Vec<usize> = mine()
                .filter(|(_, u)| u.traits.iter().any(|t| t.eq_ignore_ascii_case("summoned")))
                .map(|(i, _)| i)
                .collect();
            if summoned.is_empty() {
                continue;
            }
            let slots: i64 = mine()
                .filter_map(|(_, u)| {
                    let w = WUnit::from_def(c, u, side_is_pc(level, s), false).ok()?;
                    (!w.summoned).then(|| w.summoning_slots())
                })
                .sum();
            // Each Summoned unit beyond the slots, in the level's order, is pointed
            // at where it is written.
            let fit = usize::try_from(slots.max(0)).unwrap_or(usize::MAX);
            for &u in summoned.iter().skip(fit) {
                out.push(Issue {
                    at: Where::Unit {
                        index: u,
                        field: None,
                    },
                    message: format!(
                        "{} is one Summoned unit too many for {}: it has {} Summoned units \
                         but its summoners have {slots} summoning slots (Level each, +2 \
                         with Legion leader, W-32)",
                        unit_label(u, &level.units[u]),
                        side_label(s, side),
                        summoned.len()
                    ),
                });
            }
        }
        // Units move with the ruleset's own powers: a level's `movement` would be
        // ignored.
        out.extend(crate::engine::problems::unread_movement(
            level,
            "wounds",
            "every unit moves with Move and Dash",
        ));
        out
    }

    /// RULES.md §3.A: a square grid.
    fn grids(&self) -> &'static [GridKind] {
        &[GridKind::Square]
    }

    fn editor_defaults(&self) -> &'static [(&'static str, i32)] {
        &[("Agility", 1), ("Accuracy", 2), ("Strength", 1)]
    }
}

impl Presentation for Wounds {
    fn rule_for(&self, term: &str) -> Option<&'static str> {
        crate::engine::explain::lookup(GLOSSARY, term)
    }

    fn condition_badge(&self, condition: &str) -> Option<ConditionBadge> {
        crate::engine::ruleset::badge_from(BADGES, condition)
    }

    /// Whether one unit stands in the other's melee zone (W-25).
    fn relation(&self, world: &World, unit: UnitId, other: UnitId) -> Option<String> {
        if unit == other || side_of(world, unit) == side_of(world, other) {
            return None;
        }
        let d = world
            .resource::<crate::engine::battle::Map>()
            .0
            .distance(cell_of(world, unit), cell_of(world, other));
        let inside = state::in_zone_of(world, other, cell_of(world, unit));
        Some(if inside {
            format!(
                "{} is in {}'s melee zone ({} Free Hit Slot{} left)",
                name(world, unit),
                name(world, other),
                wu(world, other).slots.left(),
                if wu(world, other).slots.left() == 1 {
                    ""
                } else {
                    "s"
                }
            )
        } else {
            format!("{d} squares from {}", name(world, unit))
        })
    }
}

impl AiHints for Wounds {
    /// Dodge (W-09): +1 defense until its next turn, for a Bonus Action left over.
    fn defensive_action(&self, world: &World, unit: UnitId) -> Option<Command> {
        let c = Command::Act {
            unit,
            verb: super::verbs::DODGE.into(),
            args: crate::engine::verb::Args::new(),
        };
        check::check(world, &c).ok().map(|_| c)
    }

    /// Draw (W-06): a unit whose weapons are all sheathed draws the first one with
    /// the cheapest action it has.
    fn arm_action(&self, world: &World, unit: UnitId) -> Option<Command> {
        super::gear::arm_action(world, unit)
    }

    /// +1 to hit or +1 melee damage (W-09) for a Bonus Action the turn can't use
    /// otherwise, before the Attack Action it improves ([`super::boost::before`]).
    fn boost_action(&self, world: &World, attack: &Command) -> Option<Command> {
        super::boost::before(world, attack)
    }

    fn speed_stat(&self, world: &World, unit: UnitId) -> Option<u32> {
        Some(u32::try_from(wu(world, unit).movement).unwrap_or(0))
    }
}

/// The preview of an attack aimed at `aim` (Center Mass when `None`).
pub fn preview(
    world: &World,
    attacker: UnitId,
    target: UnitId,
    power: Option<&str>,
    aim: Option<&str>,
) -> Option<AttackPreview> {
    let kind = attack::kind_now(world, attacker);
    let s = swing(world, attacker, target, power, aim, kind).ok()?;
    preview_swing(world, target, &s, kind)
}

/// The preview of swing `s` (of this kind) at `target`.
fn preview_swing(
    world: &World,
    target: UnitId,
    s: &attack::Swing,
    kind: Kind,
) -> Option<AttackPreview> {
    let config = rules(world);
    let o = cached_odds(config, s)?;
    let hp = world.get::<Health>(entity(world, target))?.hp;
    let (expected_damage, kill_chance) = attack::damage_and_kill(&o, hp);
    let mut modifiers: Vec<String> = s
        .parts
        .iter()
        .filter(|p| p.name != "Accuracy")
        .map(|p| format!("{} {:+}", p.name, p.value))
        .collect();
    match s.footing {
        super::attack::Footing::FlatFooted => modifiers.push(format!(
            "{} is flat-footed: hit on {} (W-29)",
            name(world, target),
            s.defense
        )),
        super::attack::Footing::Prone => {
            modifiers.push(format!("{} is prone (W-30)", name(world, target)))
        }
        super::attack::Footing::Normal => {}
    }
    if kind == Kind::Extra {
        modifiers.push("the extra attack: no Strength, no feats (W-10)".into());
    }
    if s.sneak {
        modifiers.push("sneak attack (W-16)".into());
    }
    modifiers.push(format!(
        "crit {:.0}% · wound {:.0}% · natural 1 {:.0}%",
        o.crit * 100.0,
        o.wound * 100.0,
        o.fumble * 100.0
    ));
    Some(AttackPreview {
        chance: o.hit,
        expected_damage,
        kill_chance,
        modifiers,
        roll: roll_text(s),
    })
}

/// A swing's roll in one line: `d20 +4 vs 12 · aimed Slowing · damage 1d8+2 - armor 1`.
fn roll_text(s: &attack::Swing) -> String {
    let flat = if s.terms.flat != 0 {
        format!("{:+}", s.terms.flat)
    } else {
        String::new()
    };
    let armor = if s.terms.armor != 0 {
        format!(" - armor {}", s.terms.armor)
    } else {
        String::new()
    };
    format!(
        "d20 {:+} vs {} · {} · damage {}{flat}{armor}",
        s.modifier,
        s.defense,
        if s.header.spell {
            "spell".to_string()
        } else {
            format!("aimed {}", s.aim.name())
        },
        s.dice
    )
}

/// The unit's powers: a weapon of the table takes the table's damage, range and
/// melee (W-GAP-01); any other power keeps its own; a unit with none fights
/// Unarmed.
fn powers_of(
    config: &WoundsConfig,
    def: &crate::engine::spec::UnitDef,
) -> Result<Vec<PowerDef>, UnitProblem> {
    let mut out = Vec::new();
    for p in &def.powers {
        let mut power = p.clone();
        power.add_tier = false;
        if let Some(w) = config.weapon(&p.name) {
            power.damage = w.damage.clone();
            power.range = w.range;
            power.ranged = !w.melee;
        }
        parse_dice(&power.damage).map_err(|e| UnitProblem::damage(&power, e))?;
        parse_header(&power.traits).map_err(|why| UnitProblem::Power {
            power: p.name.clone(),
            why,
        })?;
        out.push(power);
    }
    if out.is_empty() {
        out.push(attack::unarmed(config));
    }
    Ok(out)
}

/// Spawns the level's units and inserts the ruleset's state (configuration, round,
/// each unit's `wounds` data).
pub fn setup(world: &mut World, level: &Level) -> Result<(), RulesetError> {
    let config = config::for_level::<WoundsConfig>(&level.rules)?;
    let mut roster = Vec::new();
    let mut units = Vec::new();
    for (i, def) in level.units.iter().enumerate() {
        let side = side_index(level, def)?;
        check_unit_stats(STATS, def)?;
        let pc = side_is_pc(level, side);
        let data = WUnit::from_def(&config, def, pc, side_initiates(level, side))
            .map_err(|e| RulesetError::unit(&def.name, UnitProblem::Other(e)))?;
        let powers = powers_of(&config, def).map_err(|e| RulesetError::unit(&def.name, e))?;
        let hp = def
            .stats
            .get("HP")
            .copied()
            .unwrap_or(config.default_hp(pc));
        let e = world
            .spawn((
                unit_basics(i, def, side, hp),
                Reach(data.zone),
                Powers(powers),
                MovementPowers(vec![MOVE.into(), state::DASH.into()]),
                Items(def.items.clone()),
            ))
            .id();
        roster.push(e);
        units.push(data);
    }
    // A `Summonable` creature waits off the board until it is summoned (W-32).
    for (data, &e) in units.iter().zip(&roster) {
        if data.summonable {
            world.entity_mut(e).insert(PlayState::Down);
        }
    }
    world.insert_resource(Roster(roster));
    let ids: Vec<UnitId> = (0..level.units.len() as u32).map(UnitId).collect();
    let gear = super::gear::setup(world, &ids);
    world.insert_resource(StackingRules::all(Stacking::Separate));
    world.insert_resource(DyingCountsForVictory(false));
    crate::engine::ruleset::state::insert(
        world,
        state::WState {
            rules: std::sync::Arc::new(config),
            round: RoundState::default(),
            turn: TurnBudget::default(),
            zone_steps: super::state::ZoneSteps::default(),
            free_hit: super::free_hit::FreeHitAsked::default(),
            gear,
            feat_hits: super::extra::FeatHits::default(),
            units,
        },
    );
    Ok(())
}

/// The badges of its conditions ([`Presentation::condition_badge`]): icon, colour, short
/// text, effect, duration and rule of each.
const BADGES: &[(&str, ConditionBadge)] = &[
    (
        "Wounded (Fatal)",
        ConditionBadge {
            icon: "bleeding-heart",
            colour: badge_colour::HARM,
            short: "W:FATAL",
            effect: "a wound (its blow had a 1 in 4 chance of 16 more damage)",
            duration: "until one healing of 6+ removes it",
            rule: "W-17",
        },
    ),
    (
        "Wounded (Slowing)",
        ConditionBadge {
            icon: "knee-bandage",
            colour: badge_colour::HARM,
            short: "W:SLOW",
            effect: "a wound: movement -2, Agility -1",
            duration: "until one healing of 6+ removes it",
            rule: "W-17",
        },
    ),
    (
        "Wounded (Weakening)",
        ConditionBadge {
            icon: "arm-sling",
            colour: badge_colour::HARM,
            short: "W:WEAK",
            effect: "a wound: Strength -1, one Bonus Action fewer",
            duration: "until one healing of 6+ removes it",
            rule: "W-17",
        },
    ),
    (
        "Wounded (Disrupting)",
        ConditionBadge {
            icon: "blindfold",
            colour: badge_colour::HARM,
            short: "W:DISR",
            effect: "a wound: Accuracy -1 for the battle",
            duration: "until one healing of 6+ removes it",
            rule: "W-17",
        },
    ),
    (
        "Wounded (Center Mass)",
        ConditionBadge {
            icon: "bleeding-wound",
            colour: badge_colour::HARM,
            short: "W:CM",
            effect: "a wound with no effect of its own",
            duration: "until one healing of 6+ removes it",
            rule: "W-GAP-07",
        },
    ),
    (
        names::PRONE,
        ConditionBadge {
            icon: "falling",
            colour: badge_colour::HINDER,
            short: "PRONE",
            effect: "hit on 5 + Agility; can't dodge; moves 1/3",
            duration: "until it stands (1 AA, MA or BA)",
            rule: "W-30",
        },
    ),
    (
        names::FLAT_FOOTED,
        ConditionBadge {
            icon: "foot-trip",
            colour: badge_colour::HARM,
            short: "FLAT",
            effect: "hit on a 5, whatever its Agility",
            duration: "to the end of this or the next round, as its cause says",
            rule: "W-29",
        },
    ),
    (
        names::HIDDEN,
        ConditionBadge {
            icon: "hood",
            colour: badge_colour::BOON,
            short: "HID",
            effect: "undetected: its next attack is a sneak attack; moves at half speed",
            duration: "until it acts",
            rule: "W-16",
        },
    ),
    (
        names::DISENGAGED,
        ConditionBadge {
            icon: "exit-door",
            colour: badge_colour::BOON,
            short: "DIS",
            effect: "leaves enemy melee zones without free hits",
            duration: "for the round",
            rule: "W-28",
        },
    ),
    (
        names::SICK,
        ConditionBadge {
            icon: "sleepy",
            colour: badge_colour::HELD,
            short: "SICK",
            effect: "no actions or free hits; flat-footed",
            duration: "until the end of the next full round",
            rule: "W-GAP-23",
        },
    ),
    (
        names::CHANNELING,
        ConditionBadge {
            icon: "magic-swirl",
            colour: badge_colour::NOTE,
            short: "CHAN",
            effect: "flat-footed while it channels a spell (unless a Battle caster)",
            duration: "until the spell is cast or cancelled",
            rule: "W-33",
        },
    ),
    (
        names::DISARMED,
        ConditionBadge {
            icon: "drop-weapon",
            colour: badge_colour::HINDER,
            short: "DISARM",
            effect: "its weapon is on the ground (1 AA, MA or BA picks it up)",
            duration: "until it picks the weapon up",
            rule: "W-31",
        },
    ),
    (
        names::HIT_BOOST,
        ConditionBadge {
            icon: "on-target",
            colour: badge_colour::BOON,
            short: "HIT+",
            effect: "+1 to hit per Bonus Action spent",
            duration: "until the end of the round",
            rule: "W-GAP-13",
        },
    ),
    (
        names::DAMAGE_BOOST,
        ConditionBadge {
            icon: "muscle-up",
            colour: badge_colour::BOON,
            short: "DMG+",
            effect: "+1 melee damage per Bonus Action spent",
            duration: "until the end of the round",
            rule: "W-GAP-13",
        },
    ),
    (
        names::DODGE,
        ConditionBadge {
            icon: "dodging",
            colour: badge_colour::GUARD,
            short: "DODGE",
            effect: "+1 defense per Bonus Action spent (not while flat-footed or prone)",
            duration: "until the start of its next turn",
            rule: "W-09",
        },
    ),
    (
        names::DISRUPTED,
        ConditionBadge {
            icon: "eye-target",
            colour: badge_colour::HINDER,
            short: "DISR",
            effect: "Accuracy -2 more from a Disrupting wound",
            duration: "until the end of the round",
            rule: "W-GAP-09",
        },
    ),
    (
        super::magic::UPKEEPING,
        ConditionBadge {
            icon: "hourglass",
            colour: badge_colour::NOTE,
            short: "UPKP",
            effect: "pays a spell's upkeep in MP each turn; flat-footed while it does",
            duration: "until the spell is cancelled",
            rule: "W-33",
        },
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    /// W-17: the window's aim chooser offers the five places by their names, in
    /// the seed's order, the unaimed Center Mass last and the default.
    #[test]
    fn w_17_aims_are_the_five_places() {
        let names: Vec<&str> = Aim::ALL.iter().map(|a| a.name()).collect();
        let aim = &Wounds.attack_options()[0];
        assert_eq!(aim.name, "aim");
        let choices = aim.choices();
        let labels: Vec<&str> = choices.iter().map(|c| c.label.as_str()).collect();
        assert_eq!(labels, names);
        let defaults: Vec<bool> = choices.iter().map(|c| c.default).collect();
        assert_eq!(defaults, [false, false, false, false, true]);
        for (choice, name) in choices.iter().zip(&names) {
            let value = crate::engine::verb::ArgValue::Name(name.to_string());
            assert_eq!(choice.value, Some(value));
        }
    }
}
