//! Scripted scenarios: a level, the dice (a seed or the exact faces) and a list of
//! commands, run headless. Rule designers use them to replay a situation exactly;
//! tests use them to check the rules. The format is documented in the README.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::engine::battle::Battle;
use crate::engine::board::Cell;
use crate::engine::command::Syntax;
use crate::engine::command::{Command, CommandError, Reaction};
use crate::engine::dice::Dice;
use crate::engine::event::Event;
use crate::engine::rulesets::flow::{FlowAction, ShoveEffect};
use crate::engine::units::UnitId;
use crate::level::Problem;
use crate::level::schema::{DecisionPolicy, Level};
use crate::level::validate::PathStep;

/// A scenario file.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// The level: a path relative to the scenario file, or inline.
    pub level: LevelRef,
    /// Where the dice come from.
    pub dice: DiceSpec,
    /// Per-side overrides of how optional decisions are answered.
    #[serde(default)]
    pub decisions: BTreeMap<String, DecisionPolicy>,
    /// The commands, in order.
    pub commands: Vec<ScriptCommand>,
}

/// Where a scenario's level is.
#[derive(Clone, Debug, Deserialize)]
pub enum LevelRef {
    /// A level file, relative to the scenario file.
    File(PathBuf),
    /// The level itself.
    Inline(Box<Level>),
}

/// Dice of a scenario.
#[derive(Clone, Debug, Deserialize)]
pub enum DiceSpec {
    /// A seeded generator.
    Seed(u64),
    /// These faces, consumed in the order the rules ask for dice.
    Faces(Vec<u32>),
}

/// A command as written in a scenario: units, sides and items by name.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum ScriptCommand {
    /// Answer a seize decision.
    Seize {
        /// Deciding side.
        side: String,
        /// Units that seize.
        #[serde(default)]
        units: Vec<String>,
    },
    /// Use a movement power to reach `to` (by the cheapest path unless `path` is given).
    Move {
        /// Mover.
        unit: String,
        /// Movement power (`Walk` in phases, `Move` in flow when left out).
        #[serde(default)]
        power: Option<String>,
        /// Destination.
        to: (i32, i32),
        /// Exact cells entered (start excluded, destination last).
        #[serde(default)]
        path: Option<Vec<(i32, i32)>>,
        /// Enemy charged (Charge).
        #[serde(default)]
        target: Option<String>,
    },
    /// Attack.
    Attack {
        /// Attacker.
        unit: String,
        /// Target.
        target: String,
        /// Power name.
        #[serde(default)]
        power: Option<String>,
    },
    /// Defend.
    Defend {
        /// The unit.
        unit: String,
    },
    /// Disengage (battle action) to `to`.
    Disengage {
        /// The unit.
        unit: String,
        /// Destination.
        to: (i32, i32),
    },
    /// Delay.
    Delay {
        /// The unit.
        unit: String,
    },
    /// Answer an act-from-delay decision.
    ActNow {
        /// Deciding side.
        side: String,
        /// Held units that act now.
        #[serde(default)]
        units: Vec<String>,
    },
    /// Activate an item.
    Use {
        /// The unit.
        unit: String,
        /// Item name.
        item: String,
        /// Target, for items that attack.
        #[serde(default)]
        target: Option<String>,
    },
    /// End the turn.
    EndTurn {
        /// The unit.
        unit: String,
    },
    /// Answer a reaction decision (flow): `unit` reacts with `reaction`; an Intercept
    /// may name the hex to move to (`to`) and trade places with the ally (`swap`).
    React {
        /// Deciding side (the unit's side when left out).
        #[serde(default)]
        side: Option<String>,
        /// The reacting unit.
        unit: String,
        /// Dodge, Parry, Block, ReactionAttack, Riposte or Intercept.
        reaction: Reaction,
        /// Intercept: the hex to move to.
        #[serde(default)]
        to: Option<(i32, i32)>,
        /// Intercept: push the ally on and take its place.
        #[serde(default)]
        swap: bool,
    },
    /// Decline a pending decision (no reaction).
    Pass {
        /// Deciding side.
        side: String,
    },
    /// Take a Step to an adjacent hex (flow, F-39).
    Step {
        /// The unit.
        unit: String,
        /// The hex.
        to: (i32, i32),
    },
    /// Disarm (flow, F-32).
    Disarm {
        /// The unit.
        unit: String,
        /// The target.
        target: String,
        /// Take the item on a Hard success or better.
        #[serde(default)]
        take: bool,
        /// Or put it here.
        #[serde(default)]
        to: Option<(i32, i32)>,
    },
    /// Draw a weapon (flow, F-33).
    Draw {
        /// The unit.
        unit: String,
        /// The weapon.
        weapon: String,
    },
    /// Sheathe a weapon (flow, F-33).
    Sheathe {
        /// The unit.
        unit: String,
        /// The weapon.
        weapon: String,
    },
    /// Feint (flow, F-34).
    Feint {
        /// The unit.
        unit: String,
        /// The target.
        target: String,
    },
    /// Flow State (flow, F-35).
    FlowState {
        /// The unit.
        unit: String,
    },
    /// Grapple (flow, F-36).
    Grapple {
        /// The unit.
        unit: String,
        /// The target.
        target: String,
    },
    /// Try to break a grapple (flow, F-36).
    BreakFree {
        /// The unit.
        unit: String,
    },
    /// Let go of a grappled unit.
    Release {
        /// The unit.
        unit: String,
    },
    /// Ready an attack on the first enemy to come in reach (flow, F-37).
    Ready {
        /// The unit.
        unit: String,
        /// Weapon.
        #[serde(default)]
        weapon: Option<String>,
    },
    /// Shove (flow, F-38).
    Shove {
        /// The unit.
        unit: String,
        /// The target.
        target: String,
        /// PushBack or KnockProne.
        effect: ShoveEffect,
    },
    /// Total Defense (flow, F-40).
    TotalDefense {
        /// The unit.
        unit: String,
    },
    /// Tumble Through an adjacent enemy (flow, F-41).
    Tumble {
        /// The unit.
        unit: String,
        /// The enemy.
        through: String,
    },
    /// Stand up from prone (flow).
    StandUp {
        /// The unit.
        unit: String,
    },
    /// Pick up an item (flow).
    PickUp {
        /// The unit.
        unit: String,
        /// Item name.
        item: String,
    },
    /// Drop an item: a free action (flow, F-42).
    Drop {
        /// The unit.
        unit: String,
        /// Item name.
        item: String,
    },
}

/// Why a scenario stopped.
#[derive(Debug, thiserror::Error)]
pub enum ScriptError {
    /// The scenario or its level could not be read or parsed.
    #[error("{0}")]
    Load(String),
    /// A command was refused or failed.
    #[error("command #{index} `{command}`: {reason}")]
    Command {
        /// 1-based index in the command list.
        index: usize,
        /// The command as written.
        command: String,
        /// Why.
        reason: String,
    },
}

/// A finished (or stopped) scenario run.
pub struct Run {
    /// The battle after the last command run.
    pub battle: Battle,
    /// For each event index, the 1-based command that caused it (0 = set-up).
    pub caused_by: Vec<usize>,
    /// Why the run stopped early, if it did.
    pub error: Option<ScriptError>,
}

/// Parses a scenario; errors read `line:col: message`.
pub fn parse(text: &str) -> Result<Scenario, String> {
    parse_text(text).map_err(|p| format!("{}:{}: {}", p.line, p.col, p.message))
}

/// Parses scenario text (without a byte order mark); the error is a problem with no
/// file name.
fn parse_text(text: &str) -> Result<Scenario, Problem> {
    // `power: "Longbow"` reads better than `power: Some("Longbow")`; both are accepted.
    ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
        .from_str(text)
        .map_err(|e| crate::level::load::ron_problem("", &e))
}

/// Problems as the lines of one load error.
fn load_error(problems: &[Problem]) -> ScriptError {
    let lines: Vec<String> = problems.iter().map(Problem::to_string).collect();
    ScriptError::Load(lines.join("\n"))
}

/// Loads a scenario file and its level (validated), reporting `file:line:col` errors.
/// Problems of an inline level are reported at their place in the scenario file.
pub fn load(path: &Path) -> Result<(Scenario, Level), ScriptError> {
    let file = path.display().to_string();
    let text = crate::level::load::read_text(path).map_err(|p| load_error(&[p]))?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let scenario = parse_text(text).map_err(|p| {
        load_error(&[Problem {
            file: file.clone(),
            ..p
        }])
    })?;
    let level = match &scenario.level {
        LevelRef::File(p) => {
            let full = path.parent().unwrap_or(Path::new(".")).join(p);
            crate::level::load_file(&full).map_err(|problems| load_error(&problems))?
        }
        LevelRef::Inline(level) => {
            crate::level::load::check_within(level, text, &file, &[PathStep::Field("level")])
                .map_err(|problems| load_error(&problems))?;
            (**level).clone()
        }
    };
    Ok((scenario, level))
}

/// Runs a scenario on its level. Stops at the first refused command (recorded in
/// [`Run::error`]); an `Err` means the battle could not even be set up.
pub fn run(scenario: &Scenario, level: &Level) -> Result<Run, ScriptError> {
    let dice = match &scenario.dice {
        DiceSpec::Seed(s) => Dice::seeded(*s),
        DiceSpec::Faces(f) => Dice::scripted(f.iter().copied()),
    };
    let mut level = level.clone();
    for (side, policy) in &scenario.decisions {
        match level
            .sides
            .iter_mut()
            .find(|s| s.name.eq_ignore_ascii_case(side))
        {
            Some(s) => s.decisions = *policy,
            None => {
                return Err(ScriptError::Load(format!(
                    "decisions: no side named `{side}`"
                )));
            }
        }
    }
    let mut battle = Battle::from_level(&level, dice)
        .map_err(|e| ScriptError::Load(format!("setting up the battle: {e}")))?;
    let mut caused_by = vec![0; battle.events().len()];
    for (i, sc) in scenario.commands.iter().enumerate() {
        let index = i + 1;
        let waiting = describe_awaiting(&battle);
        let fail = |reason: String| ScriptError::Command {
            index,
            command: brief(sc),
            reason: format!("{reason} (the battle waits for {waiting})"),
        };
        let result = resolve(&battle, sc)
            .map_err(|e| fail(e.to_string()))
            .and_then(|cmd| {
                battle
                    .submit(cmd)
                    .map(|_| ())
                    .map_err(|e| fail(e.to_string()))
            });
        caused_by.resize(battle.events().len(), index);
        if let Err(e) = result {
            return Ok(Run {
                battle,
                caused_by,
                error: Some(e),
            });
        }
    }
    Ok(Run {
        battle,
        caused_by,
        error: None,
    })
}

/// A script command as written in a scenario, for messages:
/// `Attack(unit: "Knight", target: "Goblin", power: "Longsword")`.
pub fn brief(c: &ScriptCommand) -> String {
    c.to_string()
}

impl std::fmt::Display for ScriptCommand {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        type S = ScriptCommand;
        let by = |name: &str, unit: &str| Syntax::new(name).name("unit", unit);
        let text = match self {
            S::Seize { side, units } => Syntax::new("Seize")
                .name("side", side)
                .names("units", units),
            S::ActNow { side, units } => Syntax::new("ActNow")
                .name("side", side)
                .names("units", units),
            S::Move {
                unit,
                power,
                to,
                path,
                target,
            } => {
                let s = by("Move", unit)
                    .opt_name("power", power.as_deref())
                    .cell("to", *to);
                let s = match path {
                    Some(p) => s.cells("path", p.iter().copied()),
                    None => s,
                };
                s.opt_name("target", target.as_deref())
            }
            S::Attack {
                unit,
                target,
                power,
            } => by("Attack", unit)
                .name("target", target)
                .opt_name("power", power.as_deref()),
            S::Defend { unit } => by("Defend", unit),
            S::Disengage { unit, to } => by("Disengage", unit).cell("to", *to),
            S::Delay { unit } => by("Delay", unit),
            S::Use { unit, item, target } => by("Use", unit)
                .name("item", item)
                .opt_name("target", target.as_deref()),
            S::EndTurn { unit } => by("EndTurn", unit),
            S::React {
                side,
                unit,
                reaction,
                to,
                swap,
            } => Syntax::new("React")
                .opt_name("side", side.as_deref())
                .name("unit", unit)
                .raw("reaction", reaction.syntax())
                .opt_cell("to", *to)
                .flag("swap", *swap),
            S::Pass { side } => Syntax::new("Pass").name("side", side),
            S::Step { unit, to } => by("Step", unit).cell("to", *to),
            S::Disarm {
                unit,
                target,
                take,
                to,
            } => by("Disarm", unit)
                .name("target", target)
                .flag("take", *take)
                .opt_cell("to", *to),
            S::Draw { unit, weapon } => by("Draw", unit).name("weapon", weapon),
            S::Sheathe { unit, weapon } => by("Sheathe", unit).name("weapon", weapon),
            S::Feint { unit, target } => by("Feint", unit).name("target", target),
            S::FlowState { unit } => by("FlowState", unit),
            S::Grapple { unit, target } => by("Grapple", unit).name("target", target),
            S::BreakFree { unit } => by("BreakFree", unit),
            S::Release { unit } => by("Release", unit),
            S::Ready { unit, weapon } => by("Ready", unit).opt_name("weapon", weapon.as_deref()),
            S::Shove {
                unit,
                target,
                effect,
            } => by("Shove", unit)
                .name("target", target)
                .raw("effect", effect.syntax()),
            S::TotalDefense { unit } => by("TotalDefense", unit),
            S::Tumble { unit, through } => by("Tumble", unit).name("through", through),
            S::StandUp { unit } => by("StandUp", unit),
            S::PickUp { unit, item } => by("PickUp", unit).name("item", item),
            S::Drop { unit, item } => by("Drop", unit).name("item", item),
        };
        f.write_str(&text.finish())
    }
}

fn unit(battle: &Battle, name: &str) -> Result<UnitId, CommandError> {
    battle
        .unit_id(name)
        .ok_or_else(|| CommandError::NoSuchTarget(format!("no unit named `{name}`")))
}

fn side(battle: &Battle, name: &str) -> Result<crate::engine::units::SideId, CommandError> {
    battle
        .side_id(name)
        .ok_or_else(|| CommandError::NoSuchTarget(format!("no side named `{name}`")))
}

/// Turns a script command into an engine command (names → ids, destination → path).
pub fn resolve(battle: &Battle, c: &ScriptCommand) -> Result<Command, CommandError> {
    Ok(match c {
        ScriptCommand::Seize { side: s, units } => Command::Seize {
            side: side(battle, s)?,
            units: units
                .iter()
                .map(|u| unit(battle, u))
                .collect::<Result<_, _>>()?,
        },
        ScriptCommand::ActNow { side: s, units } => Command::ActNow {
            side: side(battle, s)?,
            units: units
                .iter()
                .map(|u| unit(battle, u))
                .collect::<Result<_, _>>()?,
        },
        ScriptCommand::Move {
            unit: u,
            power,
            to,
            path,
            target,
        } => {
            let id = unit(battle, u)?;
            let power = power.clone().unwrap_or_else(|| {
                if battle.ruleset() == "flow" {
                    "Move".into()
                } else {
                    "Walk".into()
                }
            });
            let path = match path {
                Some(p) => p.iter().map(|&(x, y)| Cell::new(x, y)).collect(),
                None => route(battle, id, Cell::new(to.0, to.1))?,
            };
            let target = target.as_deref().map(|t| unit(battle, t)).transpose()?;
            Command::Move {
                unit: id,
                power,
                path,
                target,
            }
        }
        ScriptCommand::Attack {
            unit: u,
            target,
            power,
        } => Command::Attack {
            unit: unit(battle, u)?,
            target: unit(battle, target)?,
            power: power.clone(),
        },
        ScriptCommand::Defend { unit: u } => Command::Defend {
            unit: unit(battle, u)?,
        },
        ScriptCommand::Disengage { unit: u, to } => {
            let id = unit(battle, u)?;
            Command::Disengage {
                unit: id,
                path: route(battle, id, Cell::new(to.0, to.1))?,
            }
        }
        ScriptCommand::Delay { unit: u } => Command::Delay {
            unit: unit(battle, u)?,
        },
        ScriptCommand::Use {
            unit: u,
            item,
            target,
        } => Command::ActivateItem {
            unit: unit(battle, u)?,
            item: item.clone(),
            target: target.as_deref().map(|t| unit(battle, t)).transpose()?,
        },
        ScriptCommand::EndTurn { unit: u } => Command::EndTurn {
            unit: unit(battle, u)?,
        },
        ScriptCommand::React {
            side: s,
            unit: u,
            reaction,
            to,
            swap,
        } => {
            let id = unit(battle, u)?;
            let side = match s {
                Some(s) => side(battle, s)?,
                None => crate::engine::battle::side_of(battle.world(), id),
            };
            Command::React {
                side,
                unit: id,
                reaction: *reaction,
                to: to.map(|(x, y)| Cell::new(x, y)),
                swap: *swap,
            }
        }
        ScriptCommand::Pass { side: s } => Command::Pass {
            side: side(battle, s)?,
        },
        ScriptCommand::Step { unit: u, to } => Command::Move {
            unit: unit(battle, u)?,
            power: "Step".into(),
            path: vec![Cell::new(to.0, to.1)],
            target: None,
        },
        ScriptCommand::Disarm {
            unit: u,
            target,
            take,
            to,
        } => flow(
            battle,
            u,
            FlowAction::Disarm {
                target: unit(battle, target)?,
                take: *take,
                to: to.map(|(x, y)| Cell::new(x, y)),
            },
        )?,
        ScriptCommand::Draw { unit: u, weapon } => flow(
            battle,
            u,
            FlowAction::Draw {
                weapon: weapon.clone(),
            },
        )?,
        ScriptCommand::Sheathe { unit: u, weapon } => flow(
            battle,
            u,
            FlowAction::Sheathe {
                weapon: weapon.clone(),
            },
        )?,
        ScriptCommand::Feint { unit: u, target } => flow(
            battle,
            u,
            FlowAction::Feint {
                target: unit(battle, target)?,
            },
        )?,
        ScriptCommand::FlowState { unit: u } => flow(battle, u, FlowAction::FlowState)?,
        ScriptCommand::Grapple { unit: u, target } => flow(
            battle,
            u,
            FlowAction::Grapple {
                target: unit(battle, target)?,
            },
        )?,
        ScriptCommand::BreakFree { unit: u } => flow(battle, u, FlowAction::BreakFree)?,
        ScriptCommand::Release { unit: u } => flow(battle, u, FlowAction::Release)?,
        ScriptCommand::Ready { unit: u, weapon } => flow(
            battle,
            u,
            FlowAction::Ready {
                weapon: weapon.clone(),
            },
        )?,
        ScriptCommand::Shove {
            unit: u,
            target,
            effect,
        } => flow(
            battle,
            u,
            FlowAction::Shove {
                target: unit(battle, target)?,
                effect: *effect,
            },
        )?,
        ScriptCommand::TotalDefense { unit: u } => flow(battle, u, FlowAction::TotalDefense)?,
        ScriptCommand::Tumble { unit: u, through } => flow(
            battle,
            u,
            FlowAction::Tumble {
                through: unit(battle, through)?,
            },
        )?,
        ScriptCommand::StandUp { unit: u } => flow(battle, u, FlowAction::StandUp)?,
        ScriptCommand::PickUp { unit: u, item } => {
            flow(battle, u, FlowAction::PickUp { item: item.clone() })?
        }
        ScriptCommand::Drop { unit: u, item } => {
            flow(battle, u, FlowAction::Drop { item: item.clone() })?
        }
    })
}

fn flow(battle: &Battle, u: &str, action: FlowAction) -> Result<Command, CommandError> {
    Ok(action.by(unit(battle, u)?))
}

/// What the battle waits for, in words: whose turn, or the pending decision with its
/// options and their odds (for pointed error messages).
pub fn describe_awaiting(battle: &Battle) -> String {
    use crate::engine::Awaiting;
    use crate::engine::decision::{DecisionKind, Trigger};
    match battle.awaiting() {
        Awaiting::Unit(u, _) => format!("{}'s turn", battle.unit_name(u)),
        Awaiting::Over(_) => "nothing: the battle is over".into(),
        Awaiting::Decision(d) => {
            let side = battle.side_name(d.side);
            match d.kind {
                DecisionKind::Reaction { trigger, options } => {
                    let what = match trigger {
                        Trigger::Attack {
                            attacker,
                            target,
                            level,
                            ..
                        } => format!(
                            "{}'s attack ({level}) on {}",
                            battle.unit_name(attacker),
                            battle.unit_name(target)
                        ),
                        Trigger::Provoked { mover, action } => {
                            format!("{} {action}", battle.unit_name(mover))
                        }
                    };
                    let opts: Vec<String> = options
                        .iter()
                        .map(|o| {
                            let answer = Syntax::new("React")
                                .name("unit", &battle.unit_name(o.unit))
                                .raw("reaction", o.reaction.syntax())
                                .finish();
                            let mut s = format!("{answer} {:.1}%", o.chance * 100.0);
                            if !o.cells.is_empty() {
                                let cells: Vec<String> = o
                                    .cells
                                    .iter()
                                    .map(|c| format!("({}, {})", c.x, c.y))
                                    .collect();
                                s += &format!(" to one of {}", cells.join(" "));
                            }
                            s
                        })
                        .collect();
                    let pass = Syntax::new("Pass").name("side", &side).finish();
                    format!("{side} to react to {what}: {} or {pass}", opts.join(", "))
                }
                DecisionKind::SeizeInitiative { eligible } => {
                    let names: Vec<String> =
                        eligible.iter().map(|&u| battle.unit_name(u)).collect();
                    let answer = Syntax::new("Seize").name("side", &side);
                    format!(
                        "{side} to decide which units seize the initiative (any of {}): {} \
                         naming the units that seize, or {} to decline",
                        names.join(", "),
                        answer.clone().names("units", names.iter().take(1)).finish(),
                        answer.names("units", [""; 0]).finish(),
                    )
                }
                DecisionKind::ActFromDelay { next, held } => {
                    let names: Vec<String> = held.iter().map(|&u| battle.unit_name(u)).collect();
                    let answer = Syntax::new("ActNow").name("side", &side);
                    format!(
                        "{side} to decide which held units act now, before {}'s turn (any of \
                         {}): {} naming the units that act, or {} to keep waiting",
                        battle.unit_name(next),
                        names.join(", "),
                        answer.clone().names("units", names.iter().take(1)).finish(),
                        answer.names("units", [""; 0]).finish(),
                    )
                }
            }
        }
    }
}

/// The cheapest path for a unit to a cell, or why there is none.
pub fn route(battle: &Battle, unit: UnitId, to: Cell) -> Result<Vec<Cell>, CommandError> {
    let world = battle.world();
    let board = &world.resource::<crate::engine::battle::Map>().0;
    let from = crate::engine::battle::cell_of(world, unit);
    if from == to {
        return Err(CommandError::PathBlocked(format!(
            "{} is already at {to}",
            battle.unit_name(unit)
        )));
    }
    if !board.contains(to) {
        return Err(CommandError::PathBlocked(format!("{to} is off the map")));
    }
    let occupancy = crate::engine::battle::occupancy_for(world, unit);
    board
        .path(from, to, &occupancy)
        .map(|(p, _)| p)
        .ok_or_else(|| CommandError::PathBlocked(format!("no way from {from} to {to}")))
}

/// The event log as text lines.
pub fn log_lines(battle: &Battle) -> Vec<String> {
    battle
        .events()
        .iter()
        .map(|e| crate::engine::log::describe(battle.world(), e))
        .collect()
}

/// One JSON object per event: `{"command": n, "event": {...}, "text": "..."}`.
pub fn json_lines(run: &Run) -> Vec<String> {
    run.battle
        .events()
        .iter()
        .enumerate()
        .map(|(i, e): (usize, &Event)| {
            serde_json::json!({
                "command": run.caused_by.get(i).copied().unwrap_or(0),
                "event": e,
                "text": crate::engine::log::describe(run.battle.world(), e),
            })
            .to_string()
        })
        .collect()
}
