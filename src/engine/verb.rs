//! Verbs: the special actions a ruleset declares (a `flow` Feint or Shove, a toy
//! ruleset's Jab), carried by the one open command [`Command::Act`], and the
//! answers to its decisions (`phases`' Seize, `flow`'s React), carried by
//! [`Command::Answer`]: a side answers those, not a unit ([`Actor`]).
//!
//! A ruleset lists its verbs with [`crate::engine::ruleset::Vocabulary::verbs`]: each
//! [`VerbSpec`] names the verb as scenarios write it, its arguments in order (each a
//! unit, a cell, a name, a flag or a choice among named values), its label in menus,
//! which unit argument is the target the player clicks, whether it is rarely
//! wanted, what it costs ([`Cost`]: so many points of a pool) and the key that picks
//! it in the window. The battle checks every `Act` against its verb's declaration before the
//! ruleset sees it, so a malformed one (unknown verb, missing, extra or wrongly typed
//! argument) is a [`VerbError`] naming the verb and the argument, never a panic. The
//! window, `script`, [`Command::display`] and the log treat every verb the same way
//! from its declaration.
//!
//! [`Command::Act`]: crate::engine::command::Command::Act
//! [`Command::Answer`]: crate::engine::command::Command::Answer
//! [`Command::display`]: crate::engine::command::Command::display

use serde::{Deserialize, Serialize};

use crate::engine::board::Cell;
use crate::engine::command::Names;
use crate::engine::units::{Pool, UnitId};

/// What an action costs: `amount` points of a unit's `pool` (`flow`: 1 AP for a
/// Feint, 2 RP for a Riposte). Shown as "1 AP".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Cost {
    /// The pool it is paid from.
    pub pool: Pool,
    /// How many points.
    pub amount: i32,
}

impl Cost {
    /// `amount` points of `pool`.
    pub const fn new(pool: Pool, amount: i32) -> Self {
        Self { pool, amount }
    }
}

impl std::fmt::Display for Cost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.amount, self.pool)
    }
}

/// The value of one argument of a verb.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ArgValue {
    /// A unit (a target, an ally...); scenarios write its name.
    Unit(UnitId),
    /// A cell; scenarios write `(x, y)`.
    Cell(Cell),
    /// A name (a weapon, an item); scenarios write it in quotes.
    Name(String),
    /// A flag; scenarios write `true` (a flag left out is `false`).
    Flag(bool),
    /// One of the values a [`ArgKind::Choice`] allows; scenarios write it bare
    /// (`effect: PushBack`).
    Choice(String),
    /// Several units (which units seize the initiative); scenarios write their
    /// names in brackets, `["Knight", "Archer"]`.
    Units(Vec<UnitId>),
    /// Cells in order (a path); scenarios write `[(1, 2), (2, 2)]`.
    Cells(Vec<Cell>),
}

impl ArgValue {
    /// What kind of value this is, in words, for error messages: "a unit", "a cell",
    /// "a name", "a flag" or the choice as written (`` `PushBack` ``).
    pub fn described(&self) -> String {
        match self {
            ArgValue::Unit(_) => "a unit".into(),
            ArgValue::Cell(_) => "a cell".into(),
            ArgValue::Name(_) => "a name".into(),
            ArgValue::Flag(_) => "a flag".into(),
            ArgValue::Choice(c) => format!("`{c}`"),
            ArgValue::Units(_) => "a list of units".into(),
            ArgValue::Cells(_) => "a list of cells".into(),
        }
    }
}

/// The arguments of an [`crate::engine::command::Command::Act`]: named values, in
/// the order the verb declares them. An optional argument that is not given is left
/// out (a flag that is not set too).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Args(Vec<(String, ArgValue)>);

impl Args {
    /// No arguments.
    pub fn new() -> Self {
        Self::default()
    }

    /// These arguments and one more (added last).
    pub fn with(mut self, name: &str, value: ArgValue) -> Self {
        self.0.push((name.to_string(), value));
        self
    }

    /// These arguments and one more if it is given (added last).
    pub fn with_opt(self, name: &str, value: Option<ArgValue>) -> Self {
        match value {
            Some(v) => self.with(name, v),
            None => self,
        }
    }

    /// These arguments, then `more`'s.
    pub fn and(mut self, more: Args) -> Self {
        self.0.extend(more.0);
        self
    }

    /// These arguments without `name`.
    pub fn without(mut self, name: &str) -> Self {
        self.0.retain(|(n, _)| n != name);
        self
    }

    /// The value of an argument, if given.
    pub fn get(&self, name: &str) -> Option<&ArgValue> {
        self.0.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }

    /// A unit argument, if given as a unit.
    pub fn unit(&self, name: &str) -> Option<UnitId> {
        match self.get(name) {
            Some(ArgValue::Unit(u)) => Some(*u),
            _ => None,
        }
    }

    /// A cell argument, if given as a cell.
    pub fn cell(&self, name: &str) -> Option<Cell> {
        match self.get(name) {
            Some(ArgValue::Cell(c)) => Some(*c),
            _ => None,
        }
    }

    /// A name argument, if given as a name.
    pub fn name(&self, name: &str) -> Option<&str> {
        match self.get(name) {
            Some(ArgValue::Name(n)) => Some(n),
            _ => None,
        }
    }

    /// A flag argument (`false` when left out).
    pub fn flag(&self, name: &str) -> bool {
        matches!(self.get(name), Some(ArgValue::Flag(true)))
    }

    /// A choice argument, if given as a choice.
    pub fn choice(&self, name: &str) -> Option<&str> {
        match self.get(name) {
            Some(ArgValue::Choice(c)) => Some(c),
            _ => None,
        }
    }

    /// Every argument, in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &ArgValue)> {
        self.0.iter().map(|(n, v)| (n.as_str(), v))
    }

    /// A list-of-cells argument (empty when left out).
    pub fn cells(&self, name: &str) -> &[Cell] {
        match self.get(name) {
            Some(ArgValue::Cells(cs)) => cs,
            _ => &[],
        }
    }

    /// A list-of-units argument (empty when left out).
    pub fn unit_list(&self, name: &str) -> &[UnitId] {
        match self.get(name) {
            Some(ArgValue::Units(us)) => us,
            _ => &[],
        }
    }

    /// Every unit the arguments name, in order (a list's units in its order).
    pub fn units(&self) -> impl Iterator<Item = UnitId> + '_ {
        self.0
            .iter()
            .flat_map(|(_, v)| match v {
                ArgValue::Unit(u) => std::slice::from_ref(u),
                ArgValue::Units(us) => us.as_slice(),
                _ => &[],
            })
            .copied()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The arguments in the order `spec` declares them (any it does not declare
    /// after, as given).
    pub fn in_order<'a>(&'a self, spec: Option<&VerbSpec>) -> Vec<(&'a str, &'a ArgValue)> {
        let Some(spec) = spec else {
            return self.iter().collect();
        };
        let mut out: Vec<(&str, &ArgValue)> = spec
            .args
            .iter()
            .filter_map(|a| self.0.iter().find(|(n, _)| n == a.name))
            .map(|(n, v)| (n.as_str(), v))
            .collect();
        out.extend(self.iter().filter(|(n, _)| spec.arg(n).is_none()));
        out
    }
}

/// One allowed value of a [`ArgKind::Choice`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChoiceSpec {
    /// The value as scenarios write it (`PushBack`).
    pub value: &'static str,
    /// Its label in the window (`Shove back`): a verb with a target and a choice is
    /// one mode per value, labelled so.
    pub label: &'static str,
}

/// What kind of value an argument takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgKind {
    /// A unit.
    Unit,
    /// A cell.
    Cell,
    /// A name (a weapon, an item).
    Name,
    /// A flag.
    Flag,
    /// One of these values.
    Choice(&'static [ChoiceSpec]),
    /// A list of units; left out, the empty list.
    Units,
    /// Cells in order (a path); left out, none.
    Cells,
}

impl ArgKind {
    /// What a value of this kind looks like in a scenario, for error messages.
    pub fn expected(&self) -> String {
        match self {
            ArgKind::Unit => "a unit's name in quotes, e.g. \"Goblin\"".into(),
            ArgKind::Cell => "a cell, e.g. (3, 4)".into(),
            ArgKind::Name => "a name in quotes, e.g. \"Dagger\"".into(),
            ArgKind::Flag => "true or false".into(),
            ArgKind::Choice(values) => format!("one of {}", choice_list(values)),
            ArgKind::Units => "units' names in brackets, e.g. [\"Knight\", \"Archer\"]".into(),
            ArgKind::Cells => "cells in brackets, e.g. [(1, 2), (2, 2)]".into(),
        }
    }

    /// Whether an argument of this kind may be left out whatever its declaration
    /// says (a flag is then `false`, a list empty).
    fn has_default(&self) -> bool {
        matches!(self, ArgKind::Flag | ArgKind::Units | ArgKind::Cells)
    }

    /// Whether `value` is of this kind (and, for a choice, one of its values).
    pub fn admits(&self, value: &ArgValue) -> bool {
        match (self, value) {
            (ArgKind::Unit, ArgValue::Unit(_))
            | (ArgKind::Cell, ArgValue::Cell(_))
            | (ArgKind::Name, ArgValue::Name(_))
            | (ArgKind::Flag, ArgValue::Flag(_))
            | (ArgKind::Units, ArgValue::Units(_))
            | (ArgKind::Cells, ArgValue::Cells(_)) => true,
            (ArgKind::Choice(values), ArgValue::Choice(c)) => values.iter().any(|v| v.value == c),
            _ => false,
        }
    }
}

fn choice_list(values: &[ChoiceSpec]) -> String {
    values
        .iter()
        .map(|v| format!("`{}`", v.value))
        .collect::<Vec<_>>()
        .join(", ")
}

/// One argument of a verb.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArgSpec {
    /// Its name, as scenarios write it (`target`).
    pub name: &'static str,
    /// What kind of value it takes.
    pub kind: ArgKind,
    /// Whether it may be left out (a flag or a list always may).
    pub optional: bool,
    /// The names a player chooses among for a name argument ([`ArgSpec::choices`]);
    /// `None` for any other, and for a name typed freely.
    pub offer: Option<Offer>,
}

impl ArgSpec {
    /// A required argument.
    pub const fn required(name: &'static str, kind: ArgKind) -> Self {
        Self {
            name,
            kind,
            optional: false,
            offer: None,
        }
    }

    /// An optional argument.
    pub const fn optional(name: &'static str, kind: ArgKind) -> Self {
        Self {
            name,
            kind,
            optional: true,
            offer: None,
        }
    }

    /// This name argument, offering these names to choose among.
    pub const fn offering(self, offer: Offer) -> Self {
        Self {
            offer: Some(offer),
            ..self
        }
    }

    /// Whether a player chooses among values for it ([`ArgSpec::choices`] is not
    /// empty).
    pub fn offers_choices(&self) -> bool {
        matches!(
            (self.kind, self.offer),
            (ArgKind::Flag | ArgKind::Choice(_), _) | (ArgKind::Name, Some(_))
        )
    }

    /// The values a player chooses among for this argument, in order (the
    /// window's chooser of attack options): a flag's `off` (left out) and `on`; a
    /// choice's values, after `none` (left out) when it is optional; a name's
    /// [`ArgSpec::offer`]. Empty for an argument that offers no choice (a unit, a
    /// cell, a path, a name typed freely).
    pub fn choices(&self) -> Vec<OptionChoice> {
        let choice = |label: &str, value: Option<ArgValue>, default: bool| OptionChoice {
            label: label.to_string(),
            value,
            default,
        };
        match (self.kind, self.offer) {
            (ArgKind::Flag, _) => vec![
                choice("off", None, true),
                choice("on", Some(ArgValue::Flag(true)), false),
            ],
            (ArgKind::Choice(values), _) => (self.optional.then(|| choice("none", None, true)))
                .into_iter()
                .chain(
                    values
                        .iter()
                        .map(|v| choice(v.label, Some(ArgValue::Choice(v.value.into())), false)),
                )
                .collect(),
            (ArgKind::Name, Some(offer)) => offer
                .names
                .iter()
                .map(|v| {
                    let default = v.value == offer.default;
                    choice(v.label, Some(ArgValue::Name(v.value.into())), default)
                })
                .collect(),
            _ => Vec::new(),
        }
    }
}

/// The names a player chooses among for a name argument (`wounds`' `aim`: the
/// places an attack aims at, W-17).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Offer {
    /// The names in the order a chooser lists them, each with its label.
    pub names: &'static [ChoiceSpec],
    /// The name the ruleset assumes when the argument is left out (`wounds`:
    /// Center Mass).
    pub default: &'static str,
}

/// One value a player may choose for an argument ([`ArgSpec::choices`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionChoice {
    /// Its label in the window (`Slowing`, `on`).
    pub label: String,
    /// The value it sets; `None`: the argument left out.
    pub value: Option<ArgValue>,
    /// Whether it is what the argument left out means (a flag's `off`, `wounds`'
    /// Center Mass): choosing it in the window leaves the argument out.
    pub default: bool,
}

impl OptionChoice {
    /// `args` with argument `name` set to this choice (left out for the
    /// default), in place of any value it had.
    pub fn set_in(&self, name: &str, args: Args) -> Args {
        let value = self.value.clone().filter(|_| !self.default);
        args.without(name).with_opt(name, value)
    }
}

/// Who does a verb: a unit (an action) or a side (an answer to a decision).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Actor {
    /// A unit on its turn: [`crate::engine::command::Command::Act`], written with
    /// the acting `unit` first (`Shove(unit: "Ogre", …)`).
    Unit,
    /// The side a decision asks:
    /// [`crate::engine::command::Command::Answer`], written with the deciding
    /// `side` first (`Seize(side: "Blue", units: ["Knight"])`). A scenario may leave
    /// the side out when the answer names a unit: it is then that unit's side.
    Side,
}

impl Actor {
    /// The field scenarios write it in: `unit` or `side`.
    pub fn field(self) -> &'static str {
        match self {
            Actor::Unit => "unit",
            Actor::Side => "side",
        }
    }

    /// What its verbs are called in messages: "action" or "answer".
    pub fn noun(self) -> &'static str {
        match self {
            Actor::Unit => "action",
            Actor::Side => "answer",
        }
    }
}

/// A verb a ruleset declares: a special action any front end can offer and submit
/// as [`crate::engine::command::Command::Act`] without knowing it, or an answer to
/// one of its decisions, submitted as
/// [`crate::engine::command::Command::Answer`] ([`VerbSpec::actor`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VerbSpec {
    /// The verb as scenarios write it (`Shove`): a name no core command has.
    pub name: &'static str,
    /// What it does, with the rule ids (for docs and `--help`-like listings).
    pub about: &'static str,
    /// Who does it: a unit (an action) or a side (an answer).
    pub actor: Actor,
    /// Its arguments (besides the acting `unit` or `side`), in the order scenarios
    /// and the log write them.
    pub args: &'static [ArgSpec],
    /// Its label in the window's menus: the first template whose `{argument}`s are
    /// all given, with each replaced by the value in words (a unit's name, a name, a
    /// cell `(x, y)`, a choice's label). `["Ready {weapon}", "Ready an attack"]`.
    pub label: &'static [&'static str],
    /// The key that picks it in the window (a letter or digit, lower case): pressing
    /// it selects the verb's mode (again: its next mode), or does the verb when it is
    /// a numbered action. The window binds it unless the player's bindings already
    /// use that key.
    pub key: Option<char>,
    /// What it costs with the ruleset's default configuration, shown with its
    /// label; [`crate::engine::ruleset::Vocabulary::verb_cost`] gives the cost in a
    /// battle (a level may change it). `None`: free.
    pub cost: Option<Cost>,
    /// Rarely wanted: the window lists it after the other actions.
    pub rare: bool,
    /// The unit argument that is the target the player clicks, if any: the verb is
    /// then a mode of the window picked on that unit's cell (one mode per value of
    /// its choice argument, if it has one).
    pub target: Option<&'static str>,
}

impl VerbSpec {
    /// A verb with no arguments, labelled `label`, not rarely wanted, no target, no
    /// key and free: the base to fill in with struct update syntax.
    pub const fn new(
        name: &'static str,
        about: &'static str,
        label: &'static [&'static str],
    ) -> Self {
        Self {
            name,
            about,
            actor: Actor::Unit,
            args: &[],
            label,
            key: None,
            cost: None,
            rare: false,
            target: None,
        }
    }

    /// An answer to a decision (its [`VerbSpec::actor`] is the side), with these
    /// arguments, labelled by its options (no label, key or cost of its own).
    pub const fn answer(name: &'static str, about: &'static str, args: &'static [ArgSpec]) -> Self {
        Self {
            actor: Actor::Side,
            args,
            ..Self::new(name, about, &[])
        }
    }

    /// The declaration of an argument.
    pub fn arg(&self, name: &str) -> Option<&'static ArgSpec> {
        self.args.iter().find(|a| a.name == name)
    }

    /// The argument names as scenarios write them, the acting `unit` (or the
    /// deciding `side`) first: `` `unit`, `target`, `effect` ``.
    pub fn arg_list(&self) -> String {
        std::iter::once(self.actor.field())
            .chain(self.args.iter().map(|a| a.name))
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Checks arguments against the declaration: each known, of its kind, given
    /// once, every required one given.
    pub fn check(&self, args: &Args) -> Result<(), VerbError> {
        let err = |arg: &str, problem: ArgProblem| VerbError::Arg {
            verb: self.name.to_string(),
            arg: arg.to_string(),
            problem,
        };
        for (i, (name, value)) in args.iter().enumerate() {
            let Some(spec) = self.arg(name) else {
                return Err(err(
                    name,
                    ArgProblem::Unknown {
                        known: self.arg_list(),
                    },
                ));
            };
            if args.iter().take(i).any(|(n, _)| n == name) {
                return Err(err(name, ArgProblem::Twice));
            }
            if !spec.kind.admits(value) {
                return Err(err(
                    name,
                    ArgProblem::WrongKind {
                        found: value.described(),
                        expected: spec.kind.expected(),
                    },
                ));
            }
        }
        if let Some(missing) = self
            .args
            .iter()
            .find(|a| !a.optional && !a.kind.has_default() && args.get(a.name).is_none())
        {
            return Err(err(
                missing.name,
                ArgProblem::Missing {
                    expected: missing.kind.expected(),
                },
            ));
        }
        Ok(())
    }

    /// Checked arguments in their canonical form: in declared order, an unset flag
    /// and an empty list of cells left out, a list of units always given (empty
    /// when left out). Commands built so compare equal to the ones the ruleset
    /// lists.
    pub fn normalize(&self, args: Args) -> Result<Args, VerbError> {
        self.check(&args)?;
        let mut out = Args::new();
        for spec in self.args {
            match (args.get(spec.name), spec.kind) {
                (None, ArgKind::Units) => out = out.with(spec.name, ArgValue::Units(Vec::new())),
                (Some(ArgValue::Flag(false)) | None, _) => {}
                (Some(ArgValue::Cells(cs)), _) if cs.is_empty() => {}
                (Some(v), _) => out = out.with(spec.name, v.clone()),
            }
        }
        Ok(out)
    }

    /// The clicked target, if the verb has one and it is given.
    pub fn target_of(&self, args: &Args) -> Option<UnitId> {
        self.target.and_then(|t| args.unit(t))
    }

    /// The declared value of the choice argument given, if the verb has one.
    pub fn choice_of(&self, args: &Args) -> Option<&'static ChoiceSpec> {
        self.args.iter().find_map(|a| match a.kind {
            ArgKind::Choice(values) => {
                let given = args.choice(a.name)?;
                values.iter().find(|v| v.value == given)
            }
            _ => None,
        })
    }

    /// Its menu label for these arguments (see [`VerbSpec::label`]); the verb's name
    /// if no template fits.
    pub fn label_for(&self, args: &Args, names: &dyn Names) -> String {
        'templates: for template in self.label {
            let mut out = String::new();
            let mut rest = *template;
            while let Some(open) = rest.find('{') {
                let Some(close) = rest[open..].find('}').map(|c| open + c) else {
                    break;
                };
                out.push_str(&rest[..open]);
                let arg = &rest[open + 1..close];
                let Some(value) = args.get(arg) else {
                    continue 'templates;
                };
                out.push_str(&match value {
                    ArgValue::Unit(u) => names.unit_name(*u),
                    ArgValue::Cell(c) => c.to_string(),
                    ArgValue::Name(n) => n.clone(),
                    ArgValue::Flag(_) => arg.to_string(),
                    ArgValue::Units(us) => us
                        .iter()
                        .map(|&u| names.unit_name(u))
                        .collect::<Vec<_>>()
                        .join(", "),
                    ArgValue::Cells(cs) => cs
                        .iter()
                        .map(Cell::to_string)
                        .collect::<Vec<_>>()
                        .join(", "),
                    // This argument's own choice (a verb may have several).
                    ArgValue::Choice(c) => self
                        .args
                        .iter()
                        .find(|a| a.name == arg)
                        .and_then(|a| match a.kind {
                            ArgKind::Choice(values) => values.iter().find(|v| v.value == c),
                            _ => None,
                        })
                        .map_or_else(|| c.clone(), |v| v.label.to_string()),
                });
                rest = &rest[close + 1..];
            }
            out.push_str(rest);
            return out;
        }
        self.name.to_string()
    }

    /// The label of the window mode these arguments belong to: the label of the
    /// choice given, if the verb has a choice argument, else [`VerbSpec::label_for`].
    pub fn mode_label(&self, args: &Args, names: &dyn Names) -> String {
        match self.choice_of(args) {
            Some(choice) => choice.label.to_string(),
            None => self.label_for(args, names),
        }
    }
}

/// The verb named `name` among `verbs`.
pub fn find<'v>(verbs: &'v [VerbSpec], name: &str) -> Option<&'v VerbSpec> {
    verbs.iter().find(|v| v.name == name)
}

/// The names of `verbs`, for messages: `` `Feint`, `Shove` `` (empty if none).
pub fn verb_list(verbs: &[VerbSpec]) -> String {
    verbs
        .iter()
        .map(|v| format!("`{}`", v.name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// What is wrong with one argument of a verb.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgProblem {
    /// The verb has no such argument.
    Unknown {
        /// The arguments it has, listed.
        known: String,
    },
    /// Given twice.
    Twice,
    /// A required argument is missing.
    Missing {
        /// What it takes.
        expected: String,
    },
    /// Of the wrong kind, or a choice it does not allow.
    WrongKind {
        /// What was given, in words.
        found: String,
        /// What it takes.
        expected: String,
    },
}

/// Why an [`crate::engine::command::Command::Act`] does not fit its verb.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VerbError {
    /// The ruleset declares no verb of this name (of this actor: no action, or no
    /// answer).
    #[error("{}", describe_unknown(verb, ruleset, known, actor.noun()))]
    Unknown {
        /// The verb asked for.
        verb: String,
        /// The battle's ruleset.
        ruleset: String,
        /// Its verbs of that actor, listed (empty if it has none).
        known: String,
        /// Whether an action or an answer was asked for.
        actor: Actor,
    },
    /// An argument does not fit.
    #[error("{}", describe_arg(verb, arg, problem))]
    Arg {
        /// The verb.
        verb: String,
        /// The argument.
        arg: String,
        /// What is wrong with it.
        problem: ArgProblem,
    },
}

fn describe_unknown(verb: &str, ruleset: &str, known: &str, noun: &str) -> String {
    if known.is_empty() {
        format!("`{verb}` is not an {noun} of `{ruleset}`, which declares none")
    } else {
        format!("`{verb}` is not an {noun} of `{ruleset}`; its {noun}s are: {known}")
    }
}

fn describe_arg(verb: &str, arg: &str, problem: &ArgProblem) -> String {
    match problem {
        ArgProblem::Unknown { known } => {
            format!("`{verb}` has no argument `{arg}`; its arguments are: {known}")
        }
        ArgProblem::Twice => format!("`{verb}`'s `{arg}` is given twice; expected it once"),
        ArgProblem::Missing { expected } => {
            format!("`{verb}` needs `{arg}`: {expected}")
        }
        ArgProblem::WrongKind { found, expected } => {
            format!("`{verb}`'s `{arg}` is {found}; expected {expected}")
        }
    }
}

/// The verb of `name` among `verbs`, which `ruleset` declares for `actor`, or the
/// error listing them.
pub fn lookup_among(
    verbs: &'static [VerbSpec],
    actor: Actor,
    ruleset: &str,
    name: &str,
) -> Result<&'static VerbSpec, VerbError> {
    find(verbs, name).ok_or_else(|| VerbError::Unknown {
        verb: name.to_string(),
        ruleset: ruleset.to_string(),
        known: verb_list(verbs),
        actor,
    })
}

/// The action (a verb of [`crate::engine::ruleset::Vocabulary::verbs`]) of `name` in
/// `ruleset`'s declarations, or the error listing its actions.
pub fn lookup(
    ruleset: &dyn crate::engine::ruleset::Ruleset,
    name: &str,
) -> Result<&'static VerbSpec, VerbError> {
    lookup_among(ruleset.verbs(), Actor::Unit, ruleset.id(), name)
}

/// The answer (a verb of [`crate::engine::ruleset::Vocabulary::answers`]) of `name` in
/// `ruleset`'s declarations, or the error listing its answers.
pub fn lookup_answer(
    ruleset: &dyn crate::engine::ruleset::Ruleset,
    name: &str,
) -> Result<&'static VerbSpec, VerbError> {
    lookup_among(ruleset.answers(), Actor::Side, ruleset.id(), name)
}
