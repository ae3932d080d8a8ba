//! `escalation` behind the [`Ruleset`] seam: set-up, legality, previews and odds,
//! names and views, and the AI's hooks.

use std::collections::BTreeMap;

use bevy_app::App;
use bevy_ecs::prelude::*;

use super::check;
use super::config::EscalationConfig;
use super::movement::provoked_by;
use super::state::{
    Asking, BASIC_MELEE, BASIC_RANGED, MOVE, RoundState, TurnActions, esc, esc_state, rules,
};
use super::stats::STATS;
use super::units::{
    EscUnit, SIDE_TRAITS, UNIT_TRAIT_EXAMPLES, parse_side_trait, parse_trait, side_is_pc,
};
use super::verbs::{self, VERBS, pools};
use super::{attack, movement, state, turn};
use crate::engine::battle::{Roster, TurnState, add_driver, entity, name};
use crate::engine::board::{Cell, GridKind};
use crate::engine::command::{Command, CommandError};
use crate::engine::conditions::{Stacking, StackingRules};
use crate::engine::event::Stage;
use crate::engine::problems::{Issue, PowerRef, Where, unit_label};
use crate::engine::ruleset::config::{self, ConfigError};
use crate::engine::ruleset::{
    AiHints, LevelSchema, Presentation, Ruleset, RulesetError, StatSpec, TraitOf, UnitProblem,
    Vocabulary, check_unit_stats, parse_dice, side_index, unit_basics,
};
use crate::engine::ruleset::{Assume, AttackOdds, AttackPreview, MovePreview, TurnOrder};
use crate::engine::ruleset::{ConditionBadge, badge_colour};
use crate::engine::spec::Level;
use crate::engine::units::*;
use crate::engine::verb::{ArgValue, Args, VerbSpec};

/// The `escalation` ruleset (RULES.md §2).
#[derive(Clone, Copy, Debug, Default)]
pub struct Escalation;

/// The ruleset's id.
pub const ID: &str = "escalation";

/// The rule of `RULES.md` behind each word its roll events use (see
/// [`Presentation::rule_for`]): the first key (lower case) the word contains wins, so
/// specific keys come before general ones.
const GLOSSARY: &[(&str, &str)] = &[
    ("escalation", "E-18"),
    ("level", "E-02"),
    ("volition", "E-02"),
    ("invisible", "E-61"),
    ("last gasp", "E-52"),
    ("death save", "E-49"),
    ("sustain", "E-29"),
    ("disengage", "E-37"),
    ("dicey move", "E-GAP-19"),
    ("opportunity", "E-38"),
    ("against confused", "E-54"),
    ("save against", "E-GAP-03"),
    ("basic melee attack", "E-07"),
    ("basic ranged attack", "E-08"),
    ("coup de grace", "E-44"),
    ("attack", "E-02"),
    // Conditions (the hover line names their rules).
    ("confused", "E-54"),
    ("dazed", "E-55"),
    ("enervated", "E-56"),
    ("grabbed", "E-58"),
    ("hampered", "E-59"),
    ("helpless", "E-60"),
    ("ongoing", "E-62"),
    ("shaken", "E-63"),
    ("softened", "E-64"),
    ("stuck", "E-65"),
    ("stunned", "E-66"),
    ("vulnerable", "E-14"),
    ("weakened", "E-68"),
    ("dicey", "E-40"),
    ("spirit", "E-41"),
    ("dying", "E-46"),
    ("staggered", "E-45"),
    ("interrupt", "E-24"),
];

impl Ruleset for Escalation {
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
        config::for_level::<EscalationConfig>(overrides).map(|_| ())
    }

    fn override_problems(&self, overrides: &BTreeMap<String, ron::Value>) -> Vec<ConfigError> {
        config::override_problems::<EscalationConfig>(overrides)
    }

    fn check_trait(&self, of: TraitOf, phrase: &str) -> Result<(), RulesetError> {
        let read = match of {
            TraitOf::Unit => {
                // The band names, read once: the editor checks every phrase on
                // every edit.
                static DEFAULTS: std::sync::OnceLock<Result<EscalationConfig, String>> =
                    std::sync::OnceLock::new();
                let c = DEFAULTS
                    .get_or_init(config::load_default::<EscalationConfig>)
                    .as_ref()
                    .map_err(|e| RulesetError::Config(e.clone()))?;
                parse_trait(c, phrase).map(drop)
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
        let s = attack::strike(world, attacker, target, power)
            .ok()
            .filter(|s| !s.header.heal)?;
        let odds = odds_of(world, &s, target)?;
        let mut modifiers: Vec<String> = Vec::new();
        modifiers.extend(s.edge.advantage.iter().map(|a| format!("Advantage: {a}")));
        modifiers.extend(
            s.edge
                .disadvantage
                .iter()
                .map(|d| format!("Disadvantage: {d}")),
        );
        let board = &world.resource::<crate::engine::battle::Map>().0;
        let d = board.distance(
            crate::engine::battle::cell_of(world, attacker),
            crate::engine::battle::cell_of(world, target),
        );
        if let Some(band) = rules(world).bands.name_of(d) {
            modifiers.push(format!("{} is {band} ({d} squares)", name(world, target)));
        }
        if let Some(x) = s.attack.resist {
            modifiers.push(format!(
                "Resist {x}+: half damage below a natural {x} (E-12)"
            ));
        }
        modifiers.push(format!(
            "crit on a natural {}+ ({:.0}%)",
            s.attack.crit_at,
            odds.1 * 100.0
        ));
        if s.attack.miss_damage > 0 {
            modifiers.push(format!("miss damage {}", s.attack.miss_damage));
        }
        if s.ranged && !provoked_by(world, attacker).is_empty() {
            modifiers.push("provokes opportunity attacks (ranged while engaged, E-36)".into());
        }
        let m: i64 = s.attack.modifier;
        let damage = match &s.roll {
            attack::DamageRoll::Stance => {
                format!("{}d{}{:+}", s.attack.dice, s.attack.die, s.attack.bonus)
            }
            attack::DamageRoll::Expr(e) => e.to_string(),
        };
        Some(AttackPreview {
            chance: odds.0.chance,
            expected_damage: odds.0.expected_damage,
            kill_chance: odds.0.kill_chance,
            modifiers,
            roll: format!(
                "{} {m:+} vs {} {} · damage {damage}",
                state::pool_name(s.attack.net_advantage),
                s.defense,
                s.attack.defense
            ),
        })
    }

    fn attack_odds(
        &self,
        world: &World,
        attacker: UnitId,
        target: UnitId,
        power: Option<&str>,
        _assume: Assume<'_>,
    ) -> Option<AttackOdds> {
        let s = attack::strike(world, attacker, target, power)
            .ok()
            .filter(|s| !s.header.heal)?;
        odds_of(world, &s, target).map(|o| o.0)
    }

    fn preview_move(&self, world: &World, unit: UnitId, power: &str, path: &[Cell]) -> MovePreview {
        let board = &world.resource::<crate::engine::battle::Map>().0;
        let cost = path.iter().filter_map(|&c| board.step_cost(c)).sum();
        MovePreview {
            cost,
            provocations: if power == MOVE {
                provoked_by(world, unit).len()
            } else {
                0
            },
            ..MovePreview::default()
        }
    }

    /// `escalation` has turns in initiative bands, no phases.
    fn stage_name(&self, _stage: Stage) -> &'static str {
        "Turn"
    }

    /// The rest of the round by group, each labelled with its band and whether it
    /// is PCs or enemies; the first label carries the Escalation die (E-16, E-18).
    fn turn_order(&self, world: &World) -> Vec<TurnOrder> {
        let state = &esc_state(world).round;
        let config = rules(world);
        let mut out: Vec<TurnOrder> = Vec::new();
        if let Some(a) = world.resource::<TurnState>().active {
            out.push((format!("Escalation die {}, now", state.escalation), vec![a]));
        }
        for g in &state.groups {
            if g.units.is_empty() {
                continue;
            }
            let band = config
                .initiative_bands
                .get(g.band)
                .cloned()
                .unwrap_or_default();
            let kind = if g.pc { "PCs" } else { "enemies" };
            out.push((format!("{band} {kind}"), g.units.clone()));
        }
        if out.is_empty() {
            out.push((format!("Escalation die {}", state.escalation), Vec::new()));
        }
        out
    }

    fn pools(&self, world: &World, unit: UnitId) -> Vec<(String, i32)> {
        let me = esc(world, unit);
        let mut out = Vec::new();
        if world.resource::<TurnState>().active == Some(unit) {
            let left = esc_state(world).turn.left;
            for (pool, left) in [
                (pools::STANDARD, left.standard),
                (pools::MOVE, left.moves),
                (pools::QUICK, left.quick),
            ] {
                out.push((pool.id().to_string(), i32::from(left)));
            }
        }
        // The battle's die as the unit counts it (0 when Shaken, E-63).
        out.push(("Escalation die".into(), state::die_for(world, unit)));
        if me.pc {
            out.push(("Recoveries".into(), me.recoveries as i32));
        }
        if me.power_points > 0 {
            out.push(("Power".into(), me.power_points));
        }
        if me.death.failures > 0
            || world.get::<PlayState>(entity(world, unit)) == Some(&PlayState::Dying)
        {
            out.push(("Death saves failed".into(), me.death.failures as i32));
        }
        out
    }
}

impl Vocabulary for Escalation {
    fn verbs(&self) -> &'static [VerbSpec] {
        VERBS
    }

    /// ActNow (E-18) and React with an Intercept (E-39) ([`verbs::ANSWERS`]).
    fn answers(&self) -> &'static [VerbSpec] {
        verbs::ANSWERS
    }

    fn default_move_power(&self) -> &'static str {
        MOVE
    }
}

impl LevelSchema for Escalation {
    fn trait_examples(&self, of: TraitOf) -> &'static [&'static str] {
        of.pick(UNIT_TRAIT_EXAMPLES, SIDE_TRAITS)
    }

    /// Powers' damage types and `on_hit` conditions, and no power named like a
    /// basic attack.
    fn check_level(&self, level: &Level) -> Vec<Issue> {
        let mut out = Vec::new();
        if let Some(c) = config::configured::<EscalationConfig>(&level.rules) {
            for name in &c.surprise {
                if !level.units.iter().any(|u| &u.name == name) {
                    out.push(Issue {
                        at: Where::Rule("surprise".into()),
                        message: format!(
                            "`surprise` names `{name}`, but the level has no unit of that name"
                        ),
                    });
                }
            }
        }
        for (u, def) in level.units.iter().enumerate() {
            let label = unit_label(u, def);
            for (p, power) in def.powers.iter().enumerate() {
                let at = |field: &'static str| Where::Power {
                    unit: u,
                    power: PowerRef::Listed(p),
                    field: Some(field),
                };
                if let Some(t) = &power.damage_type
                    && super::harm::damage_type(t).is_none()
                {
                    out.push(Issue {
                        at: at("damage_type"),
                        message: format!(
                            "unknown damage type `{t}` of power `{}` of {label}; expected one of: {}",
                            power.name,
                            super::harm::DAMAGE_TYPES.join(", ")
                        ),
                    });
                }
                if let Err(e) = super::powers::parse_header(&power.traits) {
                    out.push(Issue {
                        at: at("traits"),
                        message: format!("power `{}` of {label}: {e}", power.name),
                    });
                }
                if [BASIC_MELEE, BASIC_RANGED].contains(&power.name.as_str()) {
                    out.push(Issue {
                        at: at("name"),
                        message: format!(
                            "power `{}` of {label}: every unit has it already (its stance's \
                             basic attack); give the power another name",
                            power.name
                        ),
                    });
                }
                for (effect, e) in power.on_hit.iter().enumerate() {
                    if attack::parse_effect(&e.condition).is_none() {
                        out.push(Issue {
                            at: Where::OnHit {
                                unit: u,
                                power: PowerRef::Listed(p),
                                effect,
                            },
                            message: format!(
                                "unknown condition `{}` in the on_hit of power `{}` of {label}; \
                                 expected one of: {}, or `Ongoing N` (N damage at the end of \
                                 each of its turns)",
                                e.condition,
                                power.name,
                                super::conditions::NAMES
                                    .iter()
                                    .filter(|n| **n != super::conditions::ONGOING)
                                    .copied()
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            ),
                        });
                    }
                }
            }
        }
        // Units move with the ruleset's own powers: a level's `movement` would be
        // ignored.
        out.extend(crate::engine::problems::unread_movement(
            level,
            "escalation",
            "every unit moves with Move",
        ));
        // Its units carry no items (nothing to activate): a level's `items`
        // would be ignored.
        out.extend(crate::engine::problems::unread_fields(
            level,
            "items",
            |u| !u.items.is_empty(),
            "escalation",
            "its units carry no items to use",
        ));
        out
    }

    /// RULES.md E-GAP-01: a square grid.
    fn grids(&self) -> &'static [GridKind] {
        &[GridKind::Square]
    }

    fn editor_defaults(&self) -> &'static [(&'static str, i32)] {
        &[
            ("Level", 2),
            ("Volition", 2),
            ("HP", 27),
            ("AC", 16),
            ("PD", 14),
            ("MD", 12),
        ]
    }
}

impl Presentation for Escalation {
    fn rule_for(&self, term: &str) -> Option<&'static str> {
        crate::engine::explain::lookup(GLOSSARY, term)
    }

    fn condition_badge(&self, condition: &str) -> Option<ConditionBadge> {
        crate::engine::ruleset::badge_from(BADGES, condition)
    }

    /// The range band between two units (E-GAP-01): Engaged / Next To for
    /// adjacent enemies / allies, Nearby, Far, or out of range.
    fn relation(&self, world: &World, unit: UnitId, other: UnitId) -> Option<String> {
        if unit == other {
            return None;
        }
        let board = &world.resource::<crate::engine::battle::Map>().0;
        let d = board.distance(
            crate::engine::battle::cell_of(world, unit),
            crate::engine::battle::cell_of(world, other),
        );
        let allies = crate::engine::battle::side_of(world, unit)
            == crate::engine::battle::side_of(world, other);
        let band = match rules(world).bands.name_of(d) {
            Some("Engaged") if allies => "Next To",
            Some(b) => b,
            None => "out of range",
        };
        Some(format!(
            "{band} from {} ({d} square{})",
            name(world, unit),
            if d == 1 { "" } else { "s" }
        ))
    }
}

impl AiHints for Escalation {
    /// A Disengage's chance to succeed (E-37).
    fn action_chance(&self, world: &World, command: &Command) -> Option<f64> {
        match command {
            Command::Act { unit, verb, args } if verb == verbs::DISENGAGE => {
                let except = args.unit("except");
                let n = movement::engaged(world, *unit)
                    .into_iter()
                    .filter(|&e| Some(e) != except)
                    .count() as u32;
                let difficulty = rules(world).disengage_difficulty(n);
                super::saves::save_odds(0, 0, i64::from(difficulty), 99)
                    .ok()
                    .map(|(p, _)| p)
            }
            _ => None,
        }
    }

    /// Disengaging to the path's end (E-37): no opportunity attacks if it succeeds.
    fn unprovoking_move(&self, unit: UnitId, path: &[Cell]) -> Option<Command> {
        let to = *path.last()?;
        Some(Command::Act {
            unit,
            verb: verbs::DISENGAGE.into(),
            args: Args::new().with("to", ArgValue::Cell(to)),
        })
    }

    /// Rally (E-43): a Recovery heals Level dice of the recovery die (rolled, or
    /// averaged each rounded down when the table says so) plus Volition (E-48),
    /// halved with none left (E-47).
    fn recovery_action(&self, world: &World, unit: UnitId) -> Option<(Command, f64)> {
        let command = Command::Act {
            unit,
            verb: verbs::RALLY.into(),
            args: Args::new(),
        };
        check::check(world, &command).ok()?;
        let me = esc(world, unit);
        let n = me.level.max(1) as u32;
        let dice = if rules(world).average_recovery {
            f64::from(super::saves::averaged_recovery(n, me.recovery_die))
        } else {
            f64::from(n) * (f64::from(me.recovery_die) + 1.0) / 2.0
        };
        let mean = dice + f64::from(me.volition);
        let mean = if me.recoveries == 0 { mean / 2.0 } else { mean };
        Some((command, mean))
    }

    fn speed_stat(&self, world: &World, _unit: UnitId) -> Option<u32> {
        Some(rules(world).speed)
    }
}

/// The odds of a strike on `target`, and its crit chance.
pub(super) fn odds_of(
    world: &World,
    s: &attack::Strike,
    target: UnitId,
) -> Option<(AttackOdds, f64)> {
    let o = cached_odds(s)?;
    let hp = world.get::<Health>(entity(world, target))?.hp;
    Some((
        AttackOdds {
            chance: o.hit,
            expected_damage: o.damage.mean(),
            kill_chance: o.damage.prob_at_least(i64::from(hp.max(1))),
        },
        o.crit,
    ))
}

/// The odds of a strike's numbers, computed once per thread: the AI asks the same
/// few attacks thousands of times a battle. The key is everything the odds depend
/// on; the cache is emptied when it grows past a few thousand entries.
fn cached_odds(s: &attack::Strike) -> Option<std::sync::Arc<super::attack::Odds>> {
    use std::cell::RefCell;
    use std::collections::HashMap;
    type Key = (super::attack::Attack, String, bool);
    thread_local! {
        static CACHE: RefCell<HashMap<Key, std::sync::Arc<super::attack::Odds>>> =
            RefCell::new(HashMap::new());
    }
    let expr = match &s.roll {
        attack::DamageRoll::Stance => String::new(),
        attack::DamageRoll::Expr(e) => e.to_string(),
    };
    let key = (s.attack, expr, s.averaged);
    if let Some(o) = CACHE.with(|c| c.borrow().get(&key).cloned()) {
        return Some(o);
    }
    let o = std::sync::Arc::new(super::attack::odds_with(&s.attack, &s.dice()).ok()?);
    CACHE.with(|c| {
        let mut c = c.borrow_mut();
        if c.len() > 4096 {
            c.clear();
        }
        c.insert(key, o.clone());
    });
    Some(o)
}

/// Spawns the level's units and inserts the ruleset's state (configuration, round,
/// each unit's `escalation` data).
pub fn setup(world: &mut World, level: &Level) -> Result<(), RulesetError> {
    let config = config::for_level::<EscalationConfig>(&level.rules)?;
    let mut roster = Vec::new();
    let mut units = Vec::new();
    for (i, def) in level.units.iter().enumerate() {
        let side = side_index(level, def)?;
        check_unit_stats(STATS, def)?;
        let data = EscUnit::from_def(&config, def, side_is_pc(level, side))
            .map_err(|e| RulesetError::unit(&def.name, UnitProblem::Other(e)))?;
        let mut powers = vec![attack::basic_power(&data)];
        for p in &def.powers {
            parse_dice(&p.damage)
                .map_err(|e| RulesetError::unit(&def.name, UnitProblem::damage(p, e)))?;
            powers.push(p.clone());
        }
        let hp = def.stats.get("HP").copied().unwrap_or(20);
        let e = world
            .spawn((
                unit_basics(i, def, side, hp),
                Reach(1),
                Powers(powers),
                MovementPowers(vec![MOVE.into()]),
            ))
            .id();
        roster.push(e);
        units.push(data);
    }
    world.insert_resource(Roster(roster));
    world.insert_resource(StackingRules::all(Stacking::KeepLonger));
    world.insert_resource(DyingCountsForVictory(false));
    crate::engine::ruleset::state::insert(
        world,
        state::EscState {
            rules: std::sync::Arc::new(config),
            round: RoundState::default(),
            turn: TurnActions::default(),
            asking: Asking::default(),
            interrupts: super::interrupts::InterruptQueue::default(),
            units,
        },
    );
    Ok(())
}

/// The badges of its conditions ([`Presentation::condition_badge`]): icon, colour, short
/// text, effect, duration and rule of each.
const BADGES: &[(&str, ConditionBadge)] = &[
    (
        super::conditions::CONFUSED,
        ConditionBadge {
            icon: "divided-spiral",
            colour: badge_colour::HINDER,
            short: "CONF",
            effect: "on an odd natural attack roll it takes half the damage it deals",
            duration: "save ends (11+), or as its power says",
            rule: "E-54",
        },
    ),
    (
        super::conditions::DAZED,
        ConditionBadge {
            icon: "star-swirl",
            colour: badge_colour::HINDER,
            short: "DAZED",
            effect: "1 Disadvantage on attacks",
            duration: "save ends (11+), or as its power says",
            rule: "E-55",
        },
    ),
    (
        super::conditions::ENERVATED,
        ConditionBadge {
            icon: "tired-eye",
            colour: badge_colour::HINDER,
            short: "ENERV",
            effect: "1 Disadvantage on saves",
            duration: "save ends (11+), or as its power says",
            rule: "E-56",
        },
    ),
    (
        super::conditions::GRABBED,
        ConditionBadge {
            icon: "grab",
            colour: badge_colour::HELD,
            short: "GRAB",
            effect: "its grabber has 1 Advantage on it; no opportunity or ranged attacks",
            duration: "save ends (11+), or as its power says",
            rule: "E-58",
        },
    ),
    (
        super::conditions::HAMPERED,
        ConditionBadge {
            icon: "handcuffed",
            colour: badge_colour::HELD,
            short: "HAMP",
            effect: "only basic and opportunity attacks, moves, Rally and sustains",
            duration: "save ends (11+), or as its power says",
            rule: "E-59",
        },
    ),
    (
        super::conditions::HELPLESS,
        ConditionBadge {
            icon: "half-body-crawling",
            colour: badge_colour::HELD,
            short: "HELPL",
            effect: "Stunned, and open to a Coup de Grace",
            duration: "save ends (11+), or as its power says",
            rule: "E-60",
        },
    ),
    (
        super::conditions::INVISIBLE,
        ConditionBadge {
            icon: "invisible",
            colour: badge_colour::BOON,
            short: "INVIS",
            effect: "an attacker must first roll an 11+ save or its attack has no effect",
            duration: "save ends (11+), or as its power says",
            rule: "E-61",
        },
    ),
    (
        super::conditions::ONGOING,
        ConditionBadge {
            icon: "bleeding-wound",
            colour: badge_colour::HARM,
            short: "ONGO",
            effect: "takes this much damage at the end of its turn, before saves",
            duration: "save ends (11+), or as its power says",
            rule: "E-62",
        },
    ),
    (
        super::conditions::SHAKEN,
        ConditionBadge {
            icon: "screaming",
            colour: badge_colour::HINDER,
            short: "SHAKEN",
            effect: "1 Disadvantage on attacks; counts the Escalation die as 0",
            duration: "save ends (11+), or as its power says",
            rule: "E-63",
        },
    ),
    (
        super::conditions::SOFTENED,
        ConditionBadge {
            icon: "cracked-shield",
            colour: badge_colour::HARM,
            short: "SOFT",
            effect: "attacks against it have 1 Advantage",
            duration: "save ends (11+), or as its power says",
            rule: "E-64",
        },
    ),
    (
        super::conditions::STUCK,
        ConditionBadge {
            icon: "sticky-boot",
            colour: badge_colour::HELD,
            short: "STUCK",
            effect: "can't move, disengage, pop free or change position",
            duration: "save ends (11+), or as its power says",
            rule: "E-65",
        },
    ),
    (
        super::conditions::STUNNED,
        ConditionBadge {
            icon: "knocked-out-stars",
            colour: badge_colour::HELD,
            short: "STUN",
            effect: "1 Disadvantage on attacks; attacks on it have 1 Advantage; no move action",
            duration: "save ends (11+), or as its power says",
            rule: "E-66",
        },
    ),
    (
        super::conditions::VULNERABLE,
        ConditionBadge {
            icon: "target-arrows",
            colour: badge_colour::HARM,
            short: "VULN",
            effect: "attacks against it crit on a natural 16+",
            duration: "as its power says, or always for a unit Vulnerable by nature",
            rule: "E-14",
        },
    ),
    (
        super::conditions::WEAKENED,
        ConditionBadge {
            icon: "broken-bone",
            colour: badge_colour::HINDER,
            short: "WEAK",
            effect: "1 Disadvantage on attacks; attacks against it have 1 Advantage",
            duration: "save ends (11+), or as its power says",
            rule: "E-68",
        },
    ),
    (
        super::conditions::STAGGERED,
        ConditionBadge {
            icon: "half-heart",
            colour: badge_colour::HARM,
            short: "STAG",
            effect: "at half its HP or less; some powers need a Staggered target",
            duration: "while its HP is at half or less",
            rule: "E-45",
        },
    ),
    (
        super::conditions::DICEY_EDGE,
        ConditionBadge {
            icon: "rolling-dices",
            colour: badge_colour::BOON,
            short: "EDGE",
            effect: "1 Advantage on its next attack (a Dicey Move's reward)",
            duration: "until the end of its next turn",
            rule: "E-40",
        },
    ),
    (
        super::conditions::DICEY_AID,
        ConditionBadge {
            icon: "dice-target",
            colour: badge_colour::BOON,
            short: "AID",
            effect: "1 Advantage on its next Disengage (an ally's Dicey Move)",
            duration: "until the end of the mover's next turn",
            rule: "E-40",
        },
    ),
    (
        super::conditions::POPPED_OFF,
        ConditionBadge {
            icon: "exit-door",
            colour: badge_colour::NOTE,
            short: "POP",
            effect: "its moves don't provoke the enemy it popped off",
            duration: "until the end of its turn",
            rule: "E-37",
        },
    ),
    (
        super::conditions::SPIRIT_ATTACKS,
        ConditionBadge {
            icon: "spectre",
            colour: badge_colour::BOON,
            short: "SP:ATK",
            effect: "1 Advantage on attacks (an ally's Fight in Spirit)",
            duration: "1 round: to the end of the giver's next turn",
            rule: "E-41",
        },
    ),
    (
        super::conditions::SPIRIT_SAVES,
        ConditionBadge {
            icon: "angel-wings",
            colour: badge_colour::BOON,
            short: "SP:SAVE",
            effect: "1 Advantage on saves (an ally's Fight in Spirit)",
            duration: "1 round: to the end of the giver's next turn",
            rule: "E-41",
        },
    ),
    (
        super::conditions::SPIRIT_GUARD,
        ConditionBadge {
            icon: "ghost",
            colour: badge_colour::GUARD,
            short: "SP:GRD",
            effect: "attacks against it have 1 Disadvantage (an ally's Fight in Spirit)",
            duration: "1 round: to the end of the giver's next turn",
            rule: "E-41",
        },
    ),
];
