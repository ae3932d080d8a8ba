//! Scripted scenarios: a level, the dice (a seed or the exact faces) and a list of
//! commands, run headless. Rule designers use them to replay a situation exactly;
//! tests use them to check the rules. The format is documented in the README.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::engine::battle::Battle;
use crate::engine::board::Cell;
use crate::engine::command::Syntax;
use crate::engine::command::{Command, CommandError};
use crate::engine::dice::Dice;
use crate::engine::event::Event;
use crate::engine::ruleset::Ruleset;
use crate::engine::rulesets::{new_battle, registry};
use crate::engine::units::{SideId, UnitId};
use crate::engine::verb::{Actor, ArgKind, ArgProblem, ArgValue, Args, VerbError, VerbSpec};
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
// The derived code reads the core commands (`ScriptCommand::deserialize`, an
// inherent function); the `Deserialize` impl below sends every other name to `Verb`.
#[serde(remote = "Self", deny_unknown_fields)]
pub enum ScriptCommand {
    /// Use a movement power to reach `to` (by the cheapest path unless `path` is
    /// given), with the options the ruleset declares for its moves (`phases`: the
    /// `target` a Charge charges).
    #[serde(skip)]
    Move {
        /// Mover.
        unit: String,
        /// Movement power (`Walk` in phases, `Move` in flow when left out).
        power: Option<String>,
        /// Destination.
        to: (i32, i32),
        /// Exact cells entered (start excluded, destination last).
        path: Option<Vec<(i32, i32)>>,
        /// The move's options, as written.
        options: Vec<(String, ScriptValue)>,
    },
    /// Attack, with the options the ruleset declares for its attacks (`wounds`:
    /// `aim`; `actfast`: `approach`).
    #[serde(skip)]
    Attack {
        /// Attacker.
        unit: String,
        /// Target.
        target: String,
        /// Power name.
        power: Option<String>,
        /// The attack's options, as written.
        options: Vec<(String, ScriptValue)>,
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
    /// Decline a pending decision (no reaction).
    Pass {
        /// Deciding side.
        side: String,
    },
    /// A verb of the battle's ruleset (`Feint(unit: "A", target: "B")`, any
    /// command name that is not one of the core commands above): an action of a
    /// unit, or an answer to a decision (`Seize(side: "Blue", units: ["Knight"])`),
    /// with its fields as written; checked and converted by the verb's declared
    /// argument kinds.
    #[serde(skip)]
    Verb(VerbCall),
}

/// The names of the core commands a scenario may write; any other name is a verb
/// of the battle's ruleset.
pub const CORE_COMMANDS: &[&str] = &["Move", "Attack", "Use", "EndTurn", "Pass"];

/// A verb as written in a scenario: `Shove(unit: "Ogre", target: "Knight", effect:
/// KnockProne)`, `Seize(side: "Blue", units: ["Knight"])`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerbCall {
    /// The verb (`Shove`).
    pub name: String,
    /// Its fields in the order written, `unit` (the acting unit) or `side` (the
    /// deciding side) among them.
    pub fields: Vec<(String, ScriptValue)>,
}

/// The value of a verb's field as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScriptValue {
    /// A string: a unit's or an item's name (`"Knight"`).
    Text(String),
    /// A bare identifier: a choice (`KnockProne`).
    Ident(String),
    /// `true` or `false`.
    Bool(bool),
    /// A cell `(x, y)`.
    Cell(i32, i32),
    /// A list of strings: units' names (`["Knight", "Archer"]`).
    Texts(Vec<String>),
    /// A list of cells: a path (`[(1, 2), (2, 2)]`).
    Cells(Vec<(i32, i32)>),
    /// `None`: an optional argument left out.
    Absent,
    /// Anything else, as written (refused when the verb is checked).
    Other(String),
}

impl ScriptValue {
    /// Reads a value from its RON text (`Some(x)` is `x`).
    fn parse(raw: &str) -> ScriptValue {
        let raw = raw.trim();
        if let Some(inner) = raw
            .strip_prefix("Some")
            .map(str::trim_start)
            .and_then(|r| r.strip_prefix('('))
            .and_then(|r| r.strip_suffix(')'))
        {
            return ScriptValue::parse(inner);
        }
        let ident = raw.starts_with(|c: char| c.is_alphabetic() || c == '_')
            && raw.chars().all(|c| c.is_alphanumeric() || c == '_');
        match raw {
            "true" => ScriptValue::Bool(true),
            "false" => ScriptValue::Bool(false),
            "None" => ScriptValue::Absent,
            _ if raw.starts_with('"') || (raw.starts_with('r') && !ident) => {
                ron::from_str::<String>(raw)
                    .map_or_else(|_| ScriptValue::Other(raw.into()), ScriptValue::Text)
            }
            _ if raw.starts_with('(') => ron::from_str::<(i32, i32)>(raw).map_or_else(
                |_| ScriptValue::Other(raw.into()),
                |(x, y)| ScriptValue::Cell(x, y),
            ),
            _ if raw.starts_with('[') => ron::from_str::<Vec<String>>(raw)
                .map(ScriptValue::Texts)
                .or_else(|_| ron::from_str::<Vec<(i32, i32)>>(raw).map(ScriptValue::Cells))
                .unwrap_or_else(|_| ScriptValue::Other(raw.into())),
            _ if ident => ScriptValue::Ident(raw.into()),
            _ => ScriptValue::Other(raw.into()),
        }
    }

    /// What was written, for error messages: `"Knight"`, `` `KnockProne` ``,
    /// `true`, `(3, 4)`.
    pub fn described(&self) -> String {
        match self {
            ScriptValue::Ident(_) | ScriptValue::Other(_) | ScriptValue::Absent => {
                format!("`{}`", self.syntax())
            }
            _ => self.syntax(),
        }
    }

    /// The value as written in a scenario.
    pub fn syntax(&self) -> String {
        match self {
            ScriptValue::Text(t) => crate::engine::command::quoted(t),
            ScriptValue::Ident(i) | ScriptValue::Other(i) => i.clone(),
            ScriptValue::Bool(b) => b.to_string(),
            ScriptValue::Cell(x, y) => format!("({x}, {y})"),
            ScriptValue::Cells(cs) => {
                let cs: Vec<String> = cs.iter().map(|(x, y)| format!("({x}, {y})")).collect();
                format!("[{}]", cs.join(", "))
            }
            ScriptValue::Texts(ts) => {
                let ts: Vec<String> = ts
                    .iter()
                    .map(|t| crate::engine::command::quoted(t))
                    .collect();
                format!("[{}]", ts.join(", "))
            }
            ScriptValue::Absent => "None".into(),
        }
    }
}

impl<'de> Deserialize<'de> for ScriptCommand {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_enum("ScriptCommand", CORE_COMMANDS, de::CommandVisitor)
    }
}

/// An `Attack` or a `Move` as written: its own fields, then any other as one of the
/// options the ruleset declares for it (checked when the command is resolved).
fn with_options(
    command: &str,
    fields: Vec<(String, ScriptValue)>,
) -> Result<ScriptCommand, String> {
    let own: &[&str] = if command == "Attack" {
        &["unit", "target", "power"]
    } else {
        &["unit", "power", "to", "path"]
    };
    let mut given: BTreeMap<&str, ScriptValue> = BTreeMap::new();
    let mut options = Vec::new();
    for (i, (field, value)) in fields.iter().enumerate() {
        if fields[..i].iter().any(|(f, _)| f == field) {
            return Err(format!(
                "`{command}`'s `{field}` is given twice; expected it once"
            ));
        }
        match own.iter().find(|&&f| f == field) {
            Some(f) => {
                given.insert(f, value.clone());
            }
            None => options.push((field.clone(), value.clone())),
        }
    }
    let wrong = |field: &str, value: &ScriptValue, expected: ArgKind| {
        format!(
            "`{command}`'s `{field}` is {}; expected {}",
            value.described(),
            expected.expected()
        )
    };
    let name = |field: &str, required: bool| match given.get(field) {
        Some(ScriptValue::Text(t)) => Ok(Some(t.clone())),
        None | Some(ScriptValue::Absent) if !required => Ok(None),
        None => Err(format!(
            "`{command}` needs `{field}`: {}",
            ArgKind::Unit.expected()
        )),
        Some(v) => Err(wrong(field, v, ArgKind::Name)),
    };
    let unit = name("unit", true)?.unwrap_or_default();
    let power = name("power", false)?;
    if command == "Attack" {
        let target = name("target", true)?.unwrap_or_default();
        return Ok(ScriptCommand::Attack {
            unit,
            target,
            power,
            options,
        });
    }
    let to = match given.get("to") {
        Some(ScriptValue::Cell(x, y)) => (*x, *y),
        None => return Err(format!("`Move` needs `to`: {}", ArgKind::Cell.expected())),
        Some(v) => return Err(wrong("to", v, ArgKind::Cell)),
    };
    let path = match given.get("path") {
        None | Some(ScriptValue::Absent) => None,
        Some(ScriptValue::Cells(cells)) => Some(cells.clone()),
        Some(ScriptValue::Texts(none)) if none.is_empty() => Some(Vec::new()),
        Some(v) => return Err(wrong("path", v, ArgKind::Cells)),
    };
    Ok(ScriptCommand::Move {
        unit,
        power,
        to,
        path,
        options,
    })
}

/// Reading a command: a core command by the derived code (`Attack` and `Move` with
/// their options by [`with_options`]), any other name as a [`VerbCall`].
mod de {
    use serde::de::{self, EnumAccess, MapAccess, VariantAccess, Visitor};

    use super::{CORE_COMMANDS, ScriptCommand, ScriptValue, VerbCall};
    use crate::variant::{Ident, Replay};

    pub(super) struct CommandVisitor;

    impl<'de> Visitor<'de> for CommandVisitor {
        type Value = ScriptCommand;

        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a command, e.g. `EndTurn(unit: \"Knight\")`")
        }

        fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<ScriptCommand, A::Error> {
            let (Ident(name), variant) = data.variant::<Ident>()?;
            if name == "Attack" || name == "Move" {
                let fields = variant.struct_variant(&[], FieldsVisitor)?;
                return super::with_options(&name, fields).map_err(de::Error::custom);
            }
            if CORE_COMMANDS.contains(&name.as_str()) {
                return ScriptCommand::deserialize(Replay { name, variant });
            }
            let fields = variant.struct_variant(&[], FieldsVisitor)?;
            Ok(ScriptCommand::Verb(VerbCall { name, fields }))
        }
    }

    /// A verb's fields, each value kept as written.
    struct FieldsVisitor;

    impl<'de> Visitor<'de> for FieldsVisitor {
        type Value = Vec<(String, ScriptValue)>;

        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("named fields, e.g. `(unit: \"Knight\", target: \"Goblin\")`")
        }

        fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Self::Value, M::Error> {
            let mut fields = Vec::new();
            while let Some(Ident(key)) = map.next_key::<Ident>()? {
                let raw: Box<ron::value::RawValue> = map.next_value()?;
                fields.push((key, ScriptValue::parse(raw.get_ron())));
            }
            Ok(fields)
        }
    }
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
    /// The level as played (the scenario's decision policies applied).
    pub level: Level,
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
            // Archetype units realized as in a level file.
            let mut level = (**level).clone();
            crate::level::load::realize_within(
                &mut level,
                text,
                &file,
                &[PathStep::Field("level")],
            )
            .map_err(|problems| load_error(&problems))?;
            level
        }
    };
    if let Some(ruleset) = registry::get(&level.ruleset) {
        let problems = check_commands(&scenario, ruleset, text, &file);
        if !problems.is_empty() {
            return Err(load_error(&problems));
        }
    }
    Ok((scenario, level))
}

/// The problems of a scenario's commands that the ruleset's verb declarations tell
/// before the battle runs, each at its place in the scenario `text` (`file:line:col`):
/// a command name that is neither a core command nor a verb of the ruleset, and a
/// verb's field that it does not have, is given twice, is missing or is of the
/// wrong kind. Unit names are looked up when the command runs, as for the core
/// commands. [`load`] runs this; a tool with a ruleset of its own may too.
pub fn check_commands(
    scenario: &Scenario,
    ruleset: &dyn Ruleset,
    text: &str,
    file: &str,
) -> Vec<Problem> {
    let mut problems = Vec::new();
    for (i, command) in scenario.commands.iter().enumerate() {
        let ScriptCommand::Verb(call) = command else {
            continue;
        };
        let mut at = vec![PathStep::Field("commands"), PathStep::Index(i)];
        let message = match declared(ruleset, &call.name) {
            None => unknown_command(&call.name, ruleset),
            Some((spec, _)) => {
                match verb_args(&spec, call, &|_| Some(UnitId(0)), &|_| Some(SideId(0))) {
                    Ok(_) => continue,
                    Err((field, e)) => {
                        at.extend(field.map(PathStep::Named));
                        e.to_string()
                    }
                }
            }
        };
        let (line, col) = crate::level::load::locate_path(text, &at).unwrap_or((1, 1));
        problems.push(Problem {
            file: file.to_string(),
            line,
            col,
            message,
        });
    }
    problems
}

/// What a command name that is no core command stands for.
#[derive(Clone, Copy)]
enum Written {
    /// An action of the ruleset's.
    Action,
    /// An answer of the ruleset's.
    Answer,
    /// A one-cell move of the ruleset's (`flow`'s `Step(unit:, to:)`).
    OneCellMove,
}

/// The declaration of the verb `name` of `ruleset`: one of its actions, its answers
/// or its one-cell moves (read as a verb taking the cell `to`).
fn declared(ruleset: &dyn Ruleset, name: &str) -> Option<(VerbSpec, Written)> {
    const TO: &[crate::engine::verb::ArgSpec] =
        &[crate::engine::verb::ArgSpec::required("to", ArgKind::Cell)];
    let find = crate::engine::verb::find;
    if let Some(spec) = find(ruleset.verbs(), name) {
        return Some((*spec, Written::Action));
    }
    if let Some(spec) = find(ruleset.answers(), name) {
        return Some((*spec, Written::Answer));
    }
    let step = ruleset.one_cell_moves().iter().find(|m| **m == name)?;
    let spec = VerbSpec {
        args: TO,
        ..VerbSpec::new(step, "a one-cell move", &[])
    };
    Some((spec, Written::OneCellMove))
}

/// "unknown command `Fient`; expected one of the commands ..., an answer of `flow`:
/// ... or an action of `flow`: ...".
fn unknown_command(name: &str, ruleset: &dyn Ruleset) -> String {
    let list = crate::engine::verb::verb_list;
    let core: Vec<String> = CORE_COMMANDS.iter().map(|c| format!("`{c}`")).collect();
    let id = ruleset.id();
    let moves: Vec<String> = ruleset
        .one_cell_moves()
        .iter()
        .map(|m| format!("`{m}`"))
        .collect();
    let moves = if moves.is_empty() {
        String::new()
    } else {
        format!(", a one-cell move of `{id}`: {}", moves.join(", "))
    };
    let answers = if ruleset.answers().is_empty() {
        String::new()
    } else {
        format!(", an answer of `{id}`: {}", list(ruleset.answers()))
    };
    let actions = if ruleset.verbs().is_empty() {
        format!("(`{id}` declares no actions)")
    } else {
        format!("or an action of `{id}`: {}", list(ruleset.verbs()))
    };
    format!(
        "unknown command `{name}`; expected one of the commands {}{moves}{answers} {actions}",
        core.join(", ")
    )
}

/// Runs a scenario on its level. Stops at the first refused command (recorded in
/// [`Run::error`]); an `Err` means the battle could not even be set up.
pub fn run(scenario: &Scenario, level: &Level) -> Result<Run, ScriptError> {
    run_on(scenario, level, new_battle)
}

/// [`run`] with a ruleset that need not be in the registry (a test's own, see
/// [`Battle::from_level_with`]).
pub fn run_with(
    ruleset: &'static dyn Ruleset,
    scenario: &Scenario,
    level: &Level,
) -> Result<Run, ScriptError> {
    run_on(scenario, level, |level, dice| {
        Battle::from_level_with(ruleset, level, dice)
    })
}

fn run_on(
    scenario: &Scenario,
    level: &Level,
    set_up: impl FnOnce(&Level, Dice) -> Result<Battle, String>,
) -> Result<Run, ScriptError> {
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
    let mut battle = set_up(&level, dice)
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
                level,
            });
        }
    }
    Ok(Run {
        battle,
        caused_by,
        error: None,
        level,
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
            S::Move {
                unit,
                power,
                to,
                path,
                options,
            } => {
                let s = by("Move", unit)
                    .opt_name("power", power.as_deref())
                    .cell("to", *to);
                let s = match path {
                    Some(p) => s.cells("path", p.iter().copied()),
                    None => s,
                };
                written(s, options)
            }
            S::Attack {
                unit,
                target,
                power,
                options,
            } => written(
                by("Attack", unit)
                    .name("target", target)
                    .opt_name("power", power.as_deref()),
                options,
            ),
            S::Use { unit, item, target } => by("Use", unit)
                .name("item", item)
                .opt_name("target", target.as_deref()),
            S::EndTurn { unit } => by("EndTurn", unit),
            S::Pass { side } => Syntax::new("Pass").name("side", side),
            S::Verb(call) => written(Syntax::new(&call.name), &call.fields),
        };
        f.write_str(&text.finish())
    }
}

/// `s` with `fields` as written.
fn written(s: Syntax, fields: &[(String, ScriptValue)]) -> Syntax {
    fields.iter().fold(s, |s, (k, v)| s.raw(k, v.syntax()))
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
        ScriptCommand::Move {
            unit: u,
            power,
            to,
            path,
            options,
        } => {
            let id = unit(battle, u)?;
            let power = power
                .clone()
                .unwrap_or_else(|| battle.rules().default_move_power().into());
            let path = match path {
                Some(p) => p.iter().map(|&(x, y)| Cell::new(x, y)).collect(),
                None => route(battle, id, Cell::new(to.0, to.1))?,
            };
            Command::Move {
                unit: id,
                power,
                path,
                options: core_options(battle, "Move", battle.rules().move_options(), options)?,
            }
        }
        ScriptCommand::Attack {
            unit: u,
            target,
            power,
            options,
        } => Command::Attack {
            unit: unit(battle, u)?,
            target: unit(battle, target)?,
            power: power.clone(),
            options: core_options(battle, "Attack", battle.rules().attack_options(), options)?,
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
        ScriptCommand::Pass { side: s } => Command::Pass {
            side: side(battle, s)?,
        },
        ScriptCommand::Verb(call) => {
            let (spec, written) = match declared(battle.rules(), &call.name) {
                Some(declared) => declared,
                None => (
                    *crate::engine::verb::lookup(battle.rules(), &call.name)?,
                    Written::Action,
                ),
            };
            let (actor, args) = verb_args(&spec, call, &|name| battle.unit_id(name), &|name| {
                battle.side_id(name)
            })
            .map_err(|(_, e)| e)?;
            let verb = spec.name.to_string();
            match (actor, written) {
                (Doer::Unit(unit), Written::OneCellMove) => {
                    let to = args.cell("to").unwrap_or_default();
                    Command::move_along(unit, verb, vec![to])
                }
                (actor, _) => match actor {
                    Doer::Unit(unit) => Command::Act { unit, verb, args },
                    Doer::Side(side) => Command::Answer { side, verb, args },
                    Doer::SideOf(unit) => Command::Answer {
                        side: crate::engine::battle::side_of(battle.world(), unit),
                        verb,
                        args,
                    },
                },
            }
        }
    })
}

/// Who does a verb written in a scenario.
enum Doer {
    /// The acting unit (an action).
    Unit(UnitId),
    /// The deciding side (an answer).
    Side(SideId),
    /// The side of this unit, the answer's first: the answer names no side.
    SideOf(UnitId),
}

/// A verb's fields as who does it (the acting `unit`, or the deciding `side` of an
/// answer) and the verb's checked arguments (in declared order), by the declared
/// kinds: unit names (looked up by `unit_of`) to units, lists of names to lists of
/// units, side names (`side_of`) to sides, `(x, y)` to cells, strings to names,
/// `true`/`false` to flags, identifiers to choices. The error names the field it is
/// about (`None`: the whole command).
fn verb_args(
    spec: &VerbSpec,
    call: &VerbCall,
    unit_of: &dyn Fn(&str) -> Option<UnitId>,
    side_of: &dyn Fn(&str) -> Option<SideId>,
) -> Result<(Doer, Args), (Option<String>, CommandError)> {
    let arg_error = |arg: &str, problem: ArgProblem| {
        (
            Some(arg.to_string()),
            CommandError::from(VerbError::Arg {
                verb: spec.name.to_string(),
                arg: arg.to_string(),
                problem,
            }),
        )
    };
    let named = |field: &str, name: &str| {
        unit_of(name).ok_or_else(|| {
            (
                Some(field.to_string()),
                CommandError::NoSuchTarget(format!("no unit named `{name}`")),
            )
        })
    };
    let doer_field = spec.actor.field();
    let mut doer = None;
    let mut args = Args::new();
    for (i, (field, value)) in call.fields.iter().enumerate() {
        if call.fields[..i].iter().any(|(f, _)| f == field) {
            return Err(arg_error(field, ArgProblem::Twice));
        }
        if field == doer_field {
            doer = Some(match (spec.actor, value) {
                (Actor::Unit, ScriptValue::Text(name)) => Doer::Unit(named(field, name)?),
                (Actor::Side, ScriptValue::Text(name)) => {
                    Doer::Side(side_of(name).ok_or_else(|| {
                        (
                            Some(field.to_string()),
                            CommandError::NoSuchTarget(format!("no side named `{name}`")),
                        )
                    })?)
                }
                (Actor::Side, ScriptValue::Absent) => continue,
                (actor, value) => {
                    return Err(arg_error(
                        field,
                        ArgProblem::WrongKind {
                            found: value.described(),
                            expected: doer_expected(actor),
                        },
                    ));
                }
            });
            continue;
        }
        let Some(kind) = spec.arg(field).map(|a| a.kind) else {
            return Err(arg_error(
                field,
                ArgProblem::Unknown {
                    known: spec.arg_list(),
                },
            ));
        };
        let converted = match converted(kind, value, unit_of) {
            Ok(Some(v)) => v,
            Ok(None) => continue,
            Err(WrongValue::NoUnit(name)) => {
                return Err((
                    Some(field.to_string()),
                    CommandError::NoSuchTarget(format!("no unit named `{name}`")),
                ));
            }
            Err(WrongValue::Kind(problem)) => return Err(arg_error(field, problem)),
        };
        args = args.with(field, converted);
    }
    let args = spec.normalize(args).map_err(|e| {
        let field = match &e {
            VerbError::Arg { arg, .. } if call.fields.iter().any(|(f, _)| f == arg) => {
                Some(arg.clone())
            }
            _ => None,
        };
        (field, CommandError::from(e))
    })?;
    // An answer that names no side is given by the side of the unit it names first.
    let doer = doer.or_else(|| match spec.actor {
        Actor::Side => args.units().next().map(Doer::SideOf),
        Actor::Unit => None,
    });
    let Some(doer) = doer else {
        return Err(arg_error(
            doer_field,
            ArgProblem::Missing {
                expected: doer_expected(spec.actor),
            },
        ))
        .map_err(|(_, e)| (None, e));
    };
    Ok((doer, args))
}

/// Why a value written in a scenario does not fit an argument.
enum WrongValue {
    /// It names no unit.
    NoUnit(String),
    /// It is not of the argument's kind.
    Kind(ArgProblem),
}

/// The value of an argument of `kind` as written, converted: unit names (looked up
/// by `unit_of`) to units, lists of names to lists of units, `(x, y)` to cells,
/// lists of them to lists of cells, strings to names, `true`/`false` to flags,
/// identifiers to choices. `None`: left out (`None` written).
fn converted(
    kind: ArgKind,
    value: &ScriptValue,
    unit_of: &dyn Fn(&str) -> Option<UnitId>,
) -> Result<Option<ArgValue>, WrongValue> {
    let named = |name: &str| unit_of(name).ok_or_else(|| WrongValue::NoUnit(name.to_string()));
    Ok(Some(match (kind, value) {
        (_, ScriptValue::Absent) => return Ok(None),
        (ArgKind::Unit, ScriptValue::Text(name)) => ArgValue::Unit(named(name)?),
        (ArgKind::Units, ScriptValue::Texts(names)) => {
            ArgValue::Units(names.iter().map(|n| named(n)).collect::<Result<_, _>>()?)
        }
        (ArgKind::Cell, ScriptValue::Cell(x, y)) => ArgValue::Cell(Cell::new(*x, *y)),
        (ArgKind::Cells, ScriptValue::Cells(cells)) => {
            ArgValue::Cells(cells.iter().map(|&(x, y)| Cell::new(x, y)).collect())
        }
        // `[]` reads as an empty list of names.
        (ArgKind::Cells, ScriptValue::Texts(none)) if none.is_empty() => {
            ArgValue::Cells(Vec::new())
        }
        (ArgKind::Name, ScriptValue::Text(name)) => ArgValue::Name(name.clone()),
        (ArgKind::Flag, ScriptValue::Bool(b)) => ArgValue::Flag(*b),
        (ArgKind::Choice(values), ScriptValue::Ident(v)) if values.iter().any(|c| c.value == v) => {
            ArgValue::Choice(v.clone())
        }
        (kind, value) => {
            return Err(WrongValue::Kind(ArgProblem::WrongKind {
                found: value.described(),
                expected: kind.expected(),
            }));
        }
    }))
}

/// The options of a core `command` (`Attack`, `Move`) as written, converted by the
/// kinds the ruleset `declared` for them, in declared order. One it does not declare
/// is kept as written (the battle refuses it in words) unless it is left out (`None`,
/// `[]`).
fn core_options(
    battle: &Battle,
    command: &'static str,
    declared: &'static [crate::engine::verb::ArgSpec],
    written: &[(String, ScriptValue)],
) -> Result<Args, CommandError> {
    let spec = VerbSpec {
        args: declared,
        ..VerbSpec::new(command, "", &[])
    };
    let mut options = Args::new();
    let mut undeclared = false;
    for (field, value) in written {
        let Some(arg) = spec.arg(field) else {
            let kept = match value {
                ScriptValue::Absent => None,
                ScriptValue::Texts(v) if v.is_empty() => None,
                ScriptValue::Cells(v) if v.is_empty() => None,
                ScriptValue::Text(t) => Some(ArgValue::Name(t.clone())),
                ScriptValue::Cell(x, y) => Some(ArgValue::Cell(Cell::new(*x, *y))),
                ScriptValue::Cells(cs) => Some(ArgValue::Cells(
                    cs.iter().map(|&(x, y)| Cell::new(x, y)).collect(),
                )),
                ScriptValue::Bool(b) => Some(ArgValue::Flag(*b)),
                other => Some(ArgValue::Choice(other.syntax())),
            };
            undeclared |= kept.is_some();
            options = options.with_opt(field, kept);
            continue;
        };
        match converted(arg.kind, value, &|name| battle.unit_id(name)) {
            Ok(v) => options = options.with_opt(field, v),
            Err(WrongValue::NoUnit(name)) => {
                return Err(CommandError::NoSuchTarget(format!(
                    "no unit named `{name}`"
                )));
            }
            Err(WrongValue::Kind(problem)) => {
                return Err(VerbError::Arg {
                    verb: command.into(),
                    arg: field.clone(),
                    problem,
                }
                .into());
            }
        }
    }
    if undeclared {
        return Ok(options);
    }
    Ok(spec.normalize(options)?)
}

/// What the field of who does a verb takes, for messages.
fn doer_expected(actor: Actor) -> String {
    match actor {
        Actor::Unit => format!("the unit that acts, {}", ArgKind::Unit.expected()),
        Actor::Side => "the side that decides, its name in quotes, e.g. \"Blue\"".into(),
    }
}

/// What the battle waits for, in words: whose turn, or the pending decision — who
/// decides what, and every answer in scenario syntax with its exact chance (for
/// pointed error messages). Any ruleset's decision reads the same way:
/// `Blue to react to Brigand's attack (Hard success) on Duelist: React(side: "Blue",
/// unit: "Duelist", reaction: Parry) 45.0%, or Pass(side: "Blue") (No reaction)`.
pub fn describe_awaiting(battle: &Battle) -> String {
    use crate::engine::Awaiting;
    use crate::engine::decision::Pick;
    match battle.awaiting() {
        Awaiting::Unit(u, _) => format!("{}'s turn", battle.unit_name(u)),
        Awaiting::Over(_) => "nothing: the battle is over".into(),
        Awaiting::Decision(d) => {
            let side = battle.side_name(d.side);
            let mut answers: Vec<String> = d.options.iter().map(|o| o.describe(battle)).collect();
            if d.pick == Pick::Several && d.options.len() > 1 {
                let all: Vec<usize> = (0..d.options.len()).collect();
                if let Some(merged) = d.answer(battle.rules(), &all) {
                    answers.push(format!("several together, e.g. {}", merged.display(battle)));
                }
            }
            if let Some(no) = &d.decline {
                let or = if answers.is_empty() { "" } else { "or " };
                answers.push(format!("{or}{} ({})", no.describe(battle), no.label));
            }
            format!("{side} to {}: {}", d.about, answers.join(", "))
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

/// The event log as text lines (quiet bookkeeping events have none).
pub fn log_lines(battle: &Battle) -> Vec<String> {
    battle
        .events()
        .iter()
        .filter_map(|e| crate::engine::log::line(battle.world(), e))
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
